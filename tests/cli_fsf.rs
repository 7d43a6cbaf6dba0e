//! End-to-end tests of the notations of Fairy-Stockfish and pychess (UCI with ranks 1–10, SAN),
//! of the one list of notation names (`notation --to`, `convert`, `show`, `judge`, `limit`), and
//! of `xq show --notation ucci-line`.

#![allow(clippy::unwrap_used)] // tests: a panic is the failure report

mod support;

use support::xq;

const ICCS_GAMES: &str = "fixtures/records/wukong/hu-ronghua-uci-5.pgn";

#[test]
fn every_command_takes_the_same_notation_names() {
    let names = [
        "chinese",
        "traditional",
        "wxf",
        "iccs",
        "ucci",
        "uci",
        "san",
    ];
    let tmp = tempfile::tempdir().unwrap();
    for name in names {
        let run = xq(&["notation", "--to", name, "h2e2", "h9g7"]);
        assert_eq!(run.code, 0, "notation --to {name}: {}", run.stderr);
        let run = xq(&["show", ICCS_GAMES, "--notation", name]);
        assert_eq!(run.code, 0, "show --notation {name}: {}", run.stderr);
        let out = tmp.path().join(format!("{name}.pgn"));
        let run = xq(&[
            "convert",
            ICCS_GAMES,
            "--to",
            "pgn",
            "--notation",
            name,
            "-o",
            out.to_str().unwrap(),
        ]);
        assert_eq!(run.code, 0, "convert --notation {name}: {}", run.stdout);
        for command in ["judge", "limit"] {
            let run = xq(&[command, "--moves", "h2e2 h9g7", "--notation", name]);
            assert_eq!(run.code, 0, "{command} --notation {name}: {}", run.stderr);
        }
    }
    let run = xq(&["notation", "--to", "uci", "h2e2", "h9g7", "h0g2", "i9h9"]);
    let run_san = xq(&["notation", "--to", "san", "h2e2", "h9g7", "h0g2", "i9h9"]);
    insta::assert_snapshot!(
        "notation_uci_san",
        format!("{}{}", run.stdout, run_san.stdout)
    );
}

/// Games written in UCI and in SAN by `convert` replay, and read back give the same moves.
#[test]
fn uci_and_san_records_round_trip() {
    let tmp = tempfile::tempdir().unwrap();
    let path = |name: &str| tmp.path().join(name).to_str().unwrap().to_owned();
    let convert = |input: &str, notation: &str, out: &str| {
        let run = xq(&[
            "convert",
            input,
            "--to",
            "pgn",
            "--notation",
            notation,
            "-o",
            out,
        ]);
        assert_eq!(run.code, 0, "{}", run.stdout);
    };
    convert(ICCS_GAMES, "ucci", &path("direct.pgn"));
    for notation in ["uci", "san"] {
        let written = path(&format!("{notation}.pgn"));
        convert(ICCS_GAMES, notation, &written);
        let run = xq(&["validate", "-q", &written]);
        assert_eq!(run.code, 0, "{}", run.stdout);
        assert!(
            run.stdout.contains("5 games in 1 file: 5 ok"),
            "{}",
            run.stdout
        );
        let back = path(&format!("{notation}-back.pgn"));
        convert(&written, "ucci", &back);
        assert_eq!(
            std::fs::read(&back).unwrap(),
            std::fs::read(path("direct.pgn")).unwrap(),
            "{notation}"
        );
    }
    let uci = std::fs::read_to_string(path("uci.pgn")).unwrap();
    assert!(uci.contains("1. g1e3 b10c8\n"), "{uci}");
    let san = std::fs::read_to_string(path("san.pgn")).unwrap();
    assert!(san.contains("1. Ege3 Hc8\n"), "{san}");
}

/// The ranks of coordinate moves are decided per game: each game of one file its own way, and
/// a game mixing them fails at the move that breaks its rule, with a caret.
#[test]
fn coordinate_ranks_are_told_per_game() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("mixed.pgn");
    std::fs::write(
        &file,
        "[Event \"UCI, no rank 10: ICCS fails, UCI replays\"]\n\n1. h3e3 h8e8 2. h1g3 *\n\n\
         [Event \"ICCS\"]\n\n1. h2e2 h7e7 2. h0g2 *\n\n\
         [Event \"UCI with a rank 10\"]\n\n1. h3e3 h10g8 2. h1g3 *\n\n\
         [Event \"a rank 10 and a rank 0: UCI, and h0g2 is wrong\"]\n\n1. h3e3 h10g8 2. h0g2 *\n",
    )
    .unwrap();
    let f = file.to_str().unwrap();
    let mut said = String::new();
    for game in ["1", "2", "3"] {
        let run = xq(&["show", f, "--game", game, "--notation", "ucci-line"]);
        assert_eq!(run.code, 0, "{}", run.stdout);
        said.push_str(&run.stdout);
    }
    let run = xq(&["validate", "-q", f]);
    assert_eq!(run.code, 1);
    said.push_str(&run.stdout.replace(f, "mixed.pgn"));
    insta::assert_snapshot!("coordinate_ranks_per_game", said);
}

/// `--notation ucci-line`: `position startpos moves …` from the standard start, `position fen
/// FEN moves …` from another.
#[test]
fn show_writes_a_ucci_line_for_an_engine() {
    let run = xq(&["show", ICCS_GAMES, "--game", "2", "--notation", "ucci-line"]);
    assert_eq!(run.code, 0);
    let line = run.stdout.trim_end();
    assert!(
        line.starts_with("position startpos moves h2e2 h9g7 "),
        "{line}"
    );
    assert_eq!(run.stdout.lines().count(), 1);
    let run = xq(&[
        "show",
        "fixtures/records/ccpd/00000037.pgn",
        "--notation",
        "ucci-line",
    ]);
    assert_eq!(run.code, 0);
    insta::assert_snapshot!("show_ucci_line_fen", run.stdout);
}

/// `--notation` on `judge` and `limit`: the moves of the text, JSON and CSV in that notation
/// (the Chinese in brackets), winning over `--lang en`'s WXF.
#[test]
fn judge_and_limit_write_moves_in_the_notation_asked_for() {
    let moves = "h2e2 h9g7 e2h2 g7h9 h2e2 h9g7 e2h2 g7h9";
    let moves_of = |text: &str| -> String {
        text.lines()
            .filter(|l| {
                l.trim_start()
                    .split_once(". ")
                    .is_some_and(|(n, _)| n.parse::<u32>().is_ok())
            })
            .map(|l| format!("{l}\n"))
            .collect()
    };
    let mut said = String::new();
    for (notation, lang) in [
        ("wxf", "zh"),
        ("san", "en"),
        ("uci", "en"),
        ("chinese", "en"),
    ] {
        let run = xq(&[
            "judge",
            "--moves",
            moves,
            "--notation",
            notation,
            "--lang",
            lang,
        ]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        said.push_str(&format!("== judge --notation {notation} --lang {lang}\n"));
        said.push_str(&moves_of(&run.stdout));
    }
    // Without --notation, --lang en writes WXF with the Chinese in brackets, as before.
    let run = xq(&["judge", "--moves", moves, "--lang", "en"]);
    said.push_str("== judge --lang en\n");
    said.push_str(&moves_of(&run.stdout));
    let run = xq(&[
        "limit",
        "--moves",
        "h2e2 h9g7 h0g2",
        "--claimant",
        "red",
        "--notation",
        "wxf",
    ]);
    said.push_str("== limit --notation wxf\n");
    said.push_str(&run.stdout);
    let run = xq(&[
        "limit",
        "--moves",
        "h2e2 h9g7",
        "--claimant",
        "red",
        "--notation",
        "san",
        "--format",
        "csv",
    ]);
    said.push_str("== limit --notation san --format csv\n");
    said.push_str(&run.stdout);
    insta::assert_snapshot!("judge_limit_notation", said);

    let run = xq(&[
        "judge",
        "--moves",
        moves,
        "--notation",
        "wxf",
        "--format",
        "json",
    ]);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(json["notation"], "wxf");
    assert_eq!(json["moves"][0]["written"], json["moves"][0]["wxf"]);
    let run = xq(&["judge", "--moves", moves, "--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert!(json.get("notation").is_none() && json["moves"][0].get("written").is_none());
    let run = xq(&[
        "limit",
        "--moves",
        "h2e2",
        "--notation",
        "uci",
        "--format",
        "json",
    ]);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(json["audits"][0]["rows"][0]["written"], "h3e3");
    // HTML goes through the same model: the move is shown in the notation asked for.
    let run = xq(&[
        "judge",
        "--moves",
        moves,
        "--notation",
        "san",
        "--format",
        "html",
    ]);
    assert!(run.stdout.contains("Che3 (炮二平五) h2e2"), "html");
}

/// `xq notation` decides a move list's ranks as a game's: `h3e3 h8e8` is UCI (ICCS fails),
/// `h3e3 … h0g2` ICCS (a rank 0), and then `h3e3` cannot be read.
#[test]
fn a_move_list_s_ranks_are_decided_for_the_list() {
    let run = xq(&["notation", "--to", "ucci", "h3e3", "h8e8", "h1g3"]);
    assert_eq!(run.stdout, "h2e2 h7e7 h0g2\n");
    let run = xq(&["notation", "--to", "iccs", "h3e3", "h10g8"]);
    assert_eq!(run.stdout, "H2-E2 H9-G7\n");
    let run = xq(&["notation", "--to", "ucci", "h2e2", "h7e7", "h0g2"]);
    assert_eq!(run.stdout, "h2e2 h7e7 h0g2\n");
    let run = xq(&["notation", "--to", "ucci", "h3e3", "h8e8", "h0g2"]);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr
            .contains("`h3e3` cannot be read: there is no piece on h3"),
        "{}",
        run.stderr
    );
}
