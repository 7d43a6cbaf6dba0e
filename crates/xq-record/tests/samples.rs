//! The real records of the shared reference data (`../shared/data`, which every developer and CI
//! have): every sample reads and replays, the XQF versions agree, and every pair of formats we
//! both read and write round-trips the game trees with their comments.
//!
//! The GPL/LGPL samples (cchess-samples, xqbase-eleeye) are read from there, never copied into
//! the project.

#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};

use xq_core::Position;
use xq_notation::{ChineseStyle, Mode, Notation, Reader, Script};
use xq_record::{
    Encoding, Format, Game, Node, Outcome, ReadOptions, read,
    replay::{replay, start_position},
    write::{self, PgnOptions, resolve_all},
    xqf::XqfVersion,
};

fn data() -> PathBuf {
    // `../shared` beside the project, or where XQ_SHARED says.
    let shared = std::env::var_os("XQ_SHARED").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared"),
        PathBuf::from,
    );
    let dir = shared.join("data");
    assert!(
        dir.is_dir(),
        "the shared reference data is missing: expected it at {} (or set XQ_SHARED)",
        dir.display()
    );
    dir
}

fn load(rel: &str) -> (Format, Vec<Game>, usize) {
    let path = data().join(rel);
    let bytes = std::fs::read(&path).unwrap();
    let ext = path.extension().and_then(|e| e.to_str());
    let records = read(&bytes, ext, ReadOptions::default()).unwrap();
    let games = records
        .games
        .into_iter()
        .map(|g| g.unwrap_or_else(|e| panic!("{rel}: {e}")))
        .collect();
    (records.format, games, records.not_games.len())
}

/// A game tree reduced to what every format keeps: moves as coordinates, comments after moves,
/// (optionally) comments before moves, and variations.
#[derive(Debug, PartialEq, Eq)]
struct Tree {
    m: String,
    comment: Option<String>,
    before: Option<String>,
    variations: Vec<Vec<Tree>>,
}

fn tree(line: &[Node], before: bool) -> Vec<Tree> {
    line.iter()
        .map(|n| Tree {
            m: n.m
                .map(|m| m.to_string())
                .unwrap_or_else(|| format!("unresolved {:?}", n.text)),
            comment: n.comment().map(str::to_owned),
            before: if before {
                n.before().map(str::to_owned)
            } else {
                None
            },
            variations: n.variations().iter().map(|v| tree(v, before)).collect(),
        })
        .collect()
}

fn replayed(mut game: Game) -> Game {
    let mut reader = Reader::new(Mode::Lenient);
    let r = replay(&mut game, &mut reader);
    assert!(
        r.bad_start.is_none() && r.errors.is_empty(),
        "{:?} {:?}",
        r.bad_start,
        r.errors.first()
    );
    game
}

fn start(game: &Game) -> Position {
    start_position(game).unwrap().0
}

#[test]
fn every_sample_outside_ccpd_reads_and_replays() {
    let mut files = Vec::new();
    let mut stack = vec![data()];
    while let Some(dir) = stack.pop() {
        for path in std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()) {
            if path.is_dir() {
                if !path.ends_with("ccpd-dev") {
                    stack.push(path);
                }
            } else if path.extension().is_some_and(|e| {
                ["pgn", "xqf", "cbr", "cbl", "cbf", "txt", "html"]
                    .iter()
                    .any(|x| e.eq_ignore_ascii_case(x))
            }) {
                files.push(path);
            }
        }
    }
    files.sort();
    assert!(files.len() >= 35, "{} sample files", files.len());
    let mut reader = Reader::new(Mode::Lenient);
    let mut games = 0;
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let records = read(
            &bytes,
            path.extension().and_then(|e| e.to_str()),
            ReadOptions::default(),
        )
        .unwrap();
        assert!(!records.games.is_empty(), "{}: no games", path.display());
        for (i, item) in records.games.into_iter().enumerate() {
            let mut game = item.unwrap_or_else(|e| panic!("{} game {i}: {e}", path.display()));
            let r = replay(&mut game, &mut reader);
            assert!(r.ok(), "{} game {i}: {r:?}", path.display());
            assert!(r.plies > 0, "{} game {i}: no moves", path.display());
            games += 1;
        }
    }
    // 2,516 wukong PGN games (and 6 in its other samples), 36 CBL games, the rest one each.
    assert!(games > 2600, "{games} games");
}

#[test]
fn the_formats_are_told_from_the_content() {
    let cases = [
        ("cchess-samples/test1.xqf", Format::Xqf),
        ("cchess-samples/test.cbr", Format::Cbr),
        ("cchess-samples/test.cbf", Format::Cbf),
        (
            "cchess-samples/1989年龙化杯象棋名师邀请赛35局.CBL",
            Format::Cbl,
        ),
        ("cchess-samples/uci_test_move.txt", Format::Txt),
        ("wukong/44.html", Format::Dhtmlxq),
        ("xqbase-eleeye/SAMPLE.PGN", Format::Pgn),
    ];
    for (rel, format) in cases {
        let bytes = std::fs::read(data().join(rel)).unwrap();
        // Without the extension's help.
        assert_eq!(
            read(&bytes, None, ReadOptions::default()).unwrap().format,
            format,
            "{rel}"
        );
    }
    let encodings = [
        ("xqbase-eleeye/SAMPLE.PGN", Encoding::Gbk),
        ("ccpd-dev/Dataset/中局/00002680.pgn", Encoding::Big5),
        ("wukong/xqdb_traditional.pgn", Encoding::Utf8),
    ];
    for (rel, encoding) in encodings {
        let bytes = std::fs::read(data().join(rel)).unwrap();
        assert_eq!(
            read(&bytes, None, ReadOptions::default()).unwrap().encoding,
            Some(encoding),
            "{rel}"
        );
    }
}

#[test]
fn xqf_version_10_and_18_of_one_game_give_identical_trees() {
    let (_, a, _) = load("cchess-samples/test1.xqf");
    let (_, b, _) = load("xqbase-eleeye/XQFEXAMA.XQF");
    let (a, b) = (replayed(a[0].clone()), replayed(b[0].clone()));
    assert_eq!(a.plies(), 110);
    let moves = |g: &Game| {
        g.moves
            .iter()
            .map(|n| (n.m, n.variations().len()))
            .collect::<Vec<_>>()
    };
    assert_eq!(moves(&a), moves(&b));
    // The same comments, but for the advert xqbase appended to the last one in one version.
    for (x, y) in a.moves.iter().zip(&b.moves) {
        match (x.comment(), y.comment()) {
            (Some(x), Some(y)) => assert!(x.starts_with(y) || y.starts_with(x), "{x:?} vs {y:?}"),
            (x, y) => assert_eq!(x, y),
        }
    }
    assert_eq!(a.moves.iter().filter(|n| n.comment().is_some()).count(), 10);
    assert_eq!(a.comment, b.comment);
    assert_eq!(start(&a), start(&b));
    // The version-10 file lacks the title, event and author; what it has agrees.
    assert_eq!(a.tags.len(), 5);
    for tag in &a.tags {
        assert!(b.tags.contains(tag), "{tag:?}");
    }
}

#[test]
fn all_twenty_branches_of_xqfexamb_come_out() {
    let (_, games, _) = load("xqbase-eleeye/XQFEXAMB.XQF");
    let mut game = games[0].clone();
    let r = replay(&mut game, &mut Reader::new(Mode::Lenient));
    assert!(r.ok());
    assert_eq!(r.lines, 20);
    // 436 move records in the file, the root among them.
    assert_eq!(game.count_nodes(), 435);
    assert_eq!(game.tag("Title"), Some("七星聚会"));
}

#[test]
fn a_cbl_library_gives_its_games_and_says_what_else_it_holds() {
    let (_, games, not_games) = load("cchess-samples/1989年龙化杯象棋名师邀请赛35局.CBL");
    assert_eq!(games.len(), 36);
    assert_eq!(not_games, 2);
    let lines: usize = games
        .into_iter()
        .map(|g| replay(&mut g.clone(), &mut Reader::new(Mode::Lenient)).lines)
        .sum();
    assert!(lines > 36, "some games have variations");
}

fn chinese(script: Script) -> Notation {
    Notation::Chinese(ChineseStyle {
        script,
        ..ChineseStyle::default()
    })
}

/// The wukong master games, written in ICCS, come back identical through Chinese and WXF (read
/// back in strict mode: what we write is standard notation).
#[test]
fn wukong_iccs_games_convert_to_chinese_and_wxf_and_back() {
    let mut games = Vec::new();
    for rel in [
        "wukong/Hu_Ronghua_1391_UCI_games.pgn",
        "wukong/Liu_Dahua_1125_UCI_games.pgn",
    ] {
        games.extend(load(rel).1.into_iter().map(replayed));
    }
    assert_eq!(games.len(), 2516);
    let moves = |g: &Game| g.moves.iter().map(|n| n.m.unwrap()).collect::<Vec<_>>();
    for notation in [
        chinese(Script::Simplified),
        chinese(Script::Traditional),
        Notation::Wxf,
    ] {
        let written = write::write_pgn(
            &games,
            PgnOptions {
                notation,
                encoding: Encoding::Utf8,
            },
        );
        assert!(written.dropped.is_empty());
        let back = read(&written.bytes, Some("pgn"), ReadOptions::default()).unwrap();
        assert_eq!(back.games.len(), games.len());
        let mut strict = Reader::new(Mode::Strict);
        for (original, again) in games.iter().zip(back.games) {
            let mut again = again.unwrap();
            let r = replay(&mut again, &mut strict);
            assert!(r.errors.is_empty(), "{notation:?}: {:?}", r.errors.first());
            assert_eq!(moves(original), moves(&again), "{notation:?}");
        }
    }
}

/// Tags as every tag-keeping format gives them back (writers add `Game`, `Format` and an unknown
/// `Result`).
fn tags(game: &Game) -> Vec<(String, String)> {
    game.tags
        .iter()
        .filter(|(k, v)| {
            !matches!(k.as_str(), "Game" | "Format")
                && !(k == "Result" && (v == "*" || v.is_empty()))
        })
        .cloned()
        .collect()
}

/// Writes `game` in every format that can hold a tree and reads it back.
fn round_trips(name: &str, game: &Game) {
    let original = replayed(game.clone());
    let check = |label: &str, bytes: &[u8], ext: &str, before: bool, keeps_tags: bool| {
        let records = read(bytes, Some(ext), ReadOptions::default())
            .unwrap_or_else(|e| panic!("{name} via {label}: {e}"));
        assert_eq!(records.games.len(), 1, "{name} via {label}");
        let mut back = records.games.into_iter().next().unwrap().unwrap();
        resolve_all(&mut back);
        assert_eq!(
            tree(&back.moves, before),
            tree(&original.moves, before),
            "{name} via {label}"
        );
        assert_eq!(
            back.comment, original.comment,
            "{name} via {label}: the comment before the first move"
        );
        assert_eq!(
            start(&back),
            start(&original),
            "{name} via {label}: start position"
        );
        if keeps_tags {
            assert_eq!(tags(&back), tags(&original), "{name} via {label}: tags");
        }
        let outcome = |g: &Game| g.outcome().filter(|o| *o != Outcome::Unknown);
        assert_eq!(
            outcome(&back),
            outcome(&original),
            "{name} via {label}: result"
        );
    };
    let games = std::slice::from_ref(&original);
    for (label, notation, encoding) in [
        (
            "PGN Chinese UTF-8",
            chinese(Script::Simplified),
            Encoding::Utf8,
        ),
        (
            "PGN traditional GBK",
            chinese(Script::Traditional),
            Encoding::Gbk,
        ),
        ("PGN WXF", Notation::Wxf, Encoding::Utf8),
        ("PGN ICCS", Notation::Iccs, Encoding::Utf8),
    ] {
        let w = write::write_pgn(games, PgnOptions { notation, encoding });
        assert!(w.dropped.is_empty(), "{name} via {label}: {:?}", w.dropped);
        check(label, &w.bytes, "pgn", true, true);
    }
    let w = write::write_json(games);
    check("JSON", &w.bytes, "json", true, true);
    for version in [XqfVersion::Plain, XqfVersion::Encrypted] {
        let w = write::write_xqf(&original, version);
        check(&format!("XQF {version:?}"), &w.bytes, "xqf", false, false);
    }
    let w = write::write_dhtmlxq(games);
    check("DhtmlXQ", &w.bytes, "ubb", false, false);
    // A move list holds the main line only, and says what it dropped.
    let w = write::write_txt(games, chinese(Script::Simplified));
    let back = read(&w.bytes, Some("txt"), ReadOptions::default()).unwrap();
    let back = replayed(back.games.into_iter().next().unwrap().unwrap());
    let main = |g: &Game| g.moves.iter().map(|n| n.m).collect::<Vec<_>>();
    assert_eq!(main(&back), main(&original), "{name} via a move list");
    assert_eq!(start(&back), start(&original));
    assert_eq!(
        !w.dropped.is_empty(),
        original.has_variations() || original.comment.is_some() || !tags(&original).is_empty()
    );
}

#[test]
fn trees_and_comments_round_trip_through_every_format() {
    let samples = [
        "xqbase-eleeye/XQFEXAMB.XQF",
        "xqbase-eleeye/SAMPLE.PGN",
        "cchess-samples/game_varations.xqf",
        "cchess-samples/test.cbr",
        "cchess-samples/test.cbf",
        "cchess-samples/1989年龙化杯象棋名师邀请赛35局.CBL",
        "wukong/44.html",
        "ccpd-dev/Dataset/中局/00002680.pgn",
    ];
    for rel in samples {
        let (_, games, _) = load(rel);
        for (i, game) in games.iter().enumerate() {
            // 00002680 has an illegal move at ply 19: the tree round-trips up to it.
            let mut game = game.clone();
            let r = replay(&mut game, &mut Reader::new(Mode::Lenient));
            if !r.errors.is_empty() {
                let (cut, said) = write::playable(&game);
                assert!(said.is_some());
                game = cut;
            }
            round_trips(&format!("{rel} #{i}"), &game);
        }
    }
}

#[test]
fn sibling_variations_stay_siblings_in_every_format() {
    // Three alternatives to the first move, two to Black's answer inside the main line, and an
    // alternative to an alternative's second move.
    let text = "[Event \"siblings\"]\n\n1. 炮二平五 (1. 马二进三 马８进７ (1... 卒７进１) (1... 炮８平５)) \
                (1. 相三进五) (1. 兵七进一) 马８进７ (1... 马２进３) (1... 炮８平５) 2. 马二进三 *\n";
    let records = read(text.as_bytes(), Some("pgn"), ReadOptions::default()).unwrap();
    let game = records.games.into_iter().next().unwrap().unwrap();
    assert_eq!(game.moves[0].variations().len(), 3);
    assert_eq!(game.moves[1].variations().len(), 2);
    assert_eq!(game.moves[0].variations()[0][1].variations().len(), 2);
    // Every alternative line at any depth: what a main-line-only writer drops.
    assert_eq!(game.off_main_line(), (7, 0));
    round_trips("siblings", &game);
}

/// The moves are written anew in the notation asked for: the Format tag says that notation,
/// once, whatever tag the game was read with (a WXF game written in Chinese has none).
#[test]
fn the_format_tag_follows_the_notation_written() {
    let text = "[Event \"x\"]\n[Format \"WXF\"]\n\n1. C2.5 H8+7 *\n";
    let records = read(text.as_bytes(), Some("pgn"), ReadOptions::default()).unwrap();
    let game = replayed(records.games.into_iter().next().unwrap().unwrap());
    for (notation, tag) in [
        (Notation::Chinese(ChineseStyle::default()), None),
        (Notation::Wxf, Some("[Format \"WXF\"]")),
        (Notation::Iccs, Some("[Format \"ICCS\"]")),
    ] {
        let options = PgnOptions {
            notation,
            encoding: Encoding::Utf8,
        };
        let w = write::write_pgn(std::slice::from_ref(&game), options);
        let written = String::from_utf8(w.bytes).unwrap();
        let formats: Vec<&str> = written
            .lines()
            .filter(|l| l.starts_with("[Format "))
            .collect();
        assert_eq!(formats, Vec::from_iter(tag), "{written}");
    }
}

/// Moves that do not replay cannot be rewritten in another notation: PGN keeps them as the record
/// writes them, and says so for each game that has them.
#[test]
fn pgn_says_which_moves_it_keeps_as_written() {
    let text = "[Event \"x\"]\n\n1. 炮二平五 马８进７ 2. 马二进三 车９平８ 3. 车一平二 马８进９ 4. 兵七进一 *\n\n[Event \"y\"]\n\n1. 炮二平五 马８进７ *\n";
    let records = read(text.as_bytes(), Some("pgn"), ReadOptions::default()).unwrap();
    let games: Vec<Game> = records
        .games
        .into_iter()
        .map(|g| {
            let mut g = g.unwrap();
            resolve_all(&mut g);
            g
        })
        .collect();
    let options = PgnOptions {
        notation: Notation::Wxf,
        encoding: Encoding::Utf8,
    };
    let w = write::write_pgn(&games, options);
    assert_eq!(
        w.dropped,
        [
            "game 1: 2 move(s) from the first move that does not replay on (at ply 6) kept as written, not in wxf"
        ]
    );
    let written = String::from_utf8(w.bytes).unwrap();
    assert!(written.contains("R1.2 马８进９"), "{written}");
    assert!(written.contains("兵七进一"), "{written}");
    // Written in their own notation they lose nothing: nothing to say.
    let options = PgnOptions {
        notation: Notation::Chinese(ChineseStyle::default()),
        encoding: Encoding::Utf8,
    };
    let dropped = write::write_pgn(&games, options).dropped;
    assert!(dropped.is_empty(), "{dropped:?}");
    // Moves of a binary or DhtmlXQ record have no text: written as coordinates, which only a
    // coordinate notation loses nothing by.
    let ubb = "[DhtmlXQ]\n[DhtmlXQ_movelist]774770797747[/DhtmlXQ_movelist]\n[/DhtmlXQ]\n";
    let records = read(ubb.as_bytes(), Some("ubb"), ReadOptions::default()).unwrap();
    let mut game = records.games.into_iter().next().unwrap().unwrap();
    resolve_all(&mut game);
    let games = [game];
    for (notation, said) in [
        (Notation::Chinese(ChineseStyle::default()), true),
        (Notation::Iccs, false),
    ] {
        let options = PgnOptions {
            notation,
            encoding: Encoding::Utf8,
        };
        let dropped = write::write_pgn(&games, options).dropped;
        assert_eq!(dropped.len(), usize::from(said), "{dropped:?}");
    }
}

/// A variation whose first move does not replay is left out whole, wherever it stands among its
/// siblings: the XQF and DhtmlXQ written from the game read back as the game cut (an empty
/// variation left in made an XQF its readers cannot read, and DhtmlXQ an empty branch).
#[test]
fn variations_that_do_not_replay_are_left_out_whole() {
    for text in [
        "1. 炮二平五 ( 1. 车九进九 ) 马８进７ *",
        "1. 炮二平五 ( 1. 兵七进一 ) ( 1. 车九进九 ) 马８进７ *",
        "1. 炮二平五 ( 1. 车九进九 ) ( 1. 兵七进一 ) 马８进７ *",
        "1. 炮二平五 马８进７ ( 1... 车１进九 ) 2. 马二进三 ( 2. 车九进九 2... 车１进一 ) *",
    ] {
        let records = read(text.as_bytes(), Some("pgn"), ReadOptions::default()).unwrap();
        let mut game = records.games.into_iter().next().unwrap().unwrap();
        let r = replay(&mut game, &mut Reader::new(Mode::Lenient));
        assert!(!r.errors.is_empty(), "{text}");
        let (cut, said) = write::playable(&game);
        assert!(said.is_some(), "{text}");
        let want = tree(&cut.moves, false);
        let written = [
            (
                "XQF plain",
                write::write_xqf(&game, XqfVersion::Plain),
                "xqf",
            ),
            (
                "XQF encrypted",
                write::write_xqf(&game, XqfVersion::Encrypted),
                "xqf",
            ),
            (
                "DhtmlXQ",
                write::write_dhtmlxq(std::slice::from_ref(&game)),
                "ubb",
            ),
        ];
        for (label, w, ext) in written {
            let records = read(&w.bytes, Some(ext), ReadOptions::default())
                .unwrap_or_else(|e| panic!("{text} via {label}: {e}"));
            let mut back = records.games.into_iter().next().unwrap().unwrap();
            resolve_all(&mut back);
            assert_eq!(tree(&back.moves, false), want, "{text} via {label}");
            assert!(
                back.moves
                    .iter()
                    .all(|n| n.variations().iter().all(|v| !v.is_empty())),
                "{text} via {label}"
            );
        }
    }
}

/// PGN numbers the moves on from the start position's move number (its FEN's last field), Black's
/// first move with the continuation dots.
#[test]
fn moves_are_numbered_from_the_start_positions_number() {
    let fen = "4k4/9/9/9/9/9/9/9/4A4/4K4 b - - 0 12";
    let text = format!("[FEN \"{fen}\"]\n\n12... 将５平４ 13. 仕五进四 *\n");
    let records = read(text.as_bytes(), Some("pgn"), ReadOptions::default()).unwrap();
    let game = replayed(records.games.into_iter().next().unwrap().unwrap());
    let w = write::write_pgn(
        std::slice::from_ref(&game),
        PgnOptions {
            notation: chinese(Script::Simplified),
            encoding: Encoding::Utf8,
        },
    );
    let written = String::from_utf8(w.bytes).unwrap();
    assert!(
        written.contains("12... 将５平４\n13. 仕五进四 *"),
        "{written}"
    );
}
