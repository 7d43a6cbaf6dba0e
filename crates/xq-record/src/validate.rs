//! Validating games: what an archivist's report says about each one.
//!
//! A game fails when it cannot be read, when its start position cannot be played, or when a line
//! of its tree has a bad move (the first bad move of each line is reported, the main line first).
//! A Result tag that contradicts a checkmate or stalemate on the board, a start position that is
//! only implausible, and a side to move taken from the first move are warnings: the game still
//! replays.

use serde::Serialize;
use xq_notation::Reader;

use crate::{
    Encoding, Format,
    error::ReadError,
    game::{Game, Node},
    replay::{MoveError, Replay, replay},
};

/// Why a game (or one line of it) fails, flattened for reports.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Failure {
    /// The ply (1-based) of the bad move; 0 for a bad start position; `None` when the game could
    /// not be read.
    pub ply: Option<usize>,
    /// `unreadable`, `no_match`, `ambiguous`, `illegal` (a move); `bad_start`; or a read error's
    /// kind (`syntax`, `truncated`, `bad_keys` …).
    pub kind: &'static str,
    /// What is wrong, in words.
    pub message: String,
    /// The move as the record writes it.
    #[serde(rename = "move")]
    pub text: Option<String>,
    /// The position before the bad move (or the bad start position).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fen: Option<String>,
    /// The line of the source file, for text records.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// The byte offset in the file, where known: of a bad move's text, of the place a game that
    /// cannot be read goes wrong, of a bad start position's FEN.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offset: Option<usize>,
    /// For a bad start position: the byte range in `fen` of the first problem of its text
    /// (`None` when the text reads but the position breaks the rules).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fen_span: Option<(usize, usize)>,
    /// Which variation: at each level, the ply the variation replaces and its index there.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub variation: Vec<(usize, usize)>,
}

impl Failure {
    /// A failure of `kind` with a message and no place (a file that cannot be read, a file with
    /// no game).
    pub fn whole(kind: &'static str, message: String) -> Failure {
        Failure {
            ply: None,
            kind,
            message,
            text: None,
            fen: None,
            line: None,
            offset: None,
            fen_span: None,
            variation: Vec::new(),
        }
    }
}

impl From<&MoveError> for Failure {
    fn from(e: &MoveError) -> Failure {
        Failure {
            ply: Some(e.ply),
            kind: e.kind.name(),
            message: e.message.clone(),
            // What the record writes, as messages show it: a token megabytes long is no move.
            text: Some(xq_notation::shown(&e.text)),
            fen: Some(e.fen.clone()),
            line: e.source_line,
            offset: e.source_offset,
            fen_span: None,
            variation: e.variation.clone(),
        }
    }
}

impl From<&ReadError> for Failure {
    fn from(e: &ReadError) -> Failure {
        Failure {
            ply: None,
            kind: e.kind.name(),
            message: e.message.clone(),
            text: None,
            fen: None,
            line: e.line,
            offset: e.offset,
            fen_span: None,
            variation: Vec::new(),
        }
    }
}

/// What validation says about one game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameReport {
    /// The game's index in its file (0-based).
    pub game: usize,
    /// Whether the game reads and every line of it replays.
    pub ok: bool,
    /// The line of the file where the game starts (text records).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// The main line's length in plies (up to the first bad move).
    pub plies: usize,
    /// How many lines the tree has (the main line and its variations).
    pub lines: usize,
    /// The first failure (the main line's, if it has one).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<Failure>,
    /// The first bad move of each other line that has one.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub more_errors: Vec<Failure>,
    /// What is odd but does not stop the game replaying.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// One game (or a file that gives none) in the machine-readable validation reports (`xq validate
/// --report jsonl|json`, `xq.validate` in Python): the contract tools rely on.
#[derive(Clone, Debug, Serialize)]
pub struct ReportRow<'a> {
    /// The file, as named or found.
    pub file: &'a str,
    /// The game's index in the file; `None` for a file that gives no game.
    pub game: Option<usize>,
    /// Whether the game reads and replays.
    pub ok: bool,
    /// The file's format.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<Format>,
    /// The file's text encoding.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub encoding: Option<Encoding>,
    /// The line where the game starts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// The main line's length in plies.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plies: Option<usize>,
    /// Lines in the game's tree.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lines: Option<usize>,
    /// The first failure.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<&'a Failure>,
    /// The first bad move of each other line.
    #[serde(skip_serializing_if = "<[Failure]>::is_empty")]
    pub more_errors: &'a [Failure],
    /// Warnings.
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    pub warnings: &'a [String],
}

impl<'a> ReportRow<'a> {
    /// The row of a file that gives no game.
    pub fn file_failure(file: &'a str, failure: &'a Failure) -> ReportRow<'a> {
        ReportRow {
            file,
            game: None,
            ok: false,
            format: None,
            encoding: None,
            line: None,
            plies: None,
            lines: None,
            error: Some(failure),
            more_errors: &[],
            warnings: &[],
        }
    }

    /// The row of a game.
    pub fn game(
        file: &'a str,
        format: Format,
        encoding: Option<Encoding>,
        report: &'a GameReport,
    ) -> ReportRow<'a> {
        ReportRow {
            file,
            game: Some(report.game),
            ok: report.ok,
            format: Some(format),
            encoding,
            line: report.line,
            plies: Some(report.plies),
            lines: Some(report.lines),
            error: report.error.as_ref(),
            more_errors: &report.more_errors,
            warnings: &report.warnings,
        }
    }
}

/// Validates game `index` of a file, as read (or not); the game gets its moves' coordinates.
pub fn validate_game(
    index: usize,
    item: &mut Result<Game, ReadError>,
    reader: &mut Reader,
) -> GameReport {
    let mut report = GameReport {
        game: index,
        ok: false,
        line: None,
        plies: 0,
        lines: 0,
        error: None,
        more_errors: Vec::new(),
        warnings: Vec::new(),
    };
    let game = match item {
        Ok(game) => game,
        Err(err) => {
            report.line = err.line;
            report.error = Some(Failure::from(&*err));
            return report;
        }
    };
    report.line = game.line;
    let replayed = replay(game, reader);
    report.plies = replayed.plies;
    report.lines = replayed.lines;
    if let Some(why) = replayed.bad_start {
        report.error = Some(Failure {
            ply: Some(0),
            kind: "bad_start",
            message: why.message,
            text: None,
            fen: game.fen.clone(),
            line: game.fen_line.or(game.line),
            offset: game.fen_offset,
            fen_span: why.span.map(|s| (s.start, s.end)),
            variation: Vec::new(),
        });
        return report;
    }
    let mut errors = replayed.errors.iter().map(Failure::from);
    report.error = errors.next();
    report.more_errors = errors.collect();
    report.ok = report.error.is_none();
    report.warnings.extend(
        replayed
            .implausible_start
            .iter()
            .map(|p| format!("implausible start position: {p}")),
    );
    report.warnings.extend(
        game.unread
            .iter()
            .map(|what| format!("not read from the record: {what}")),
    );
    report.warnings.extend(how_read(game, &replayed));
    report.warnings.extend(replayed.result_mismatch);
    if let Some(where_) = undecodable(game) {
        report.warnings.push(format!(
            "{where_} holds bytes that are not text in the file's encoding, shown as U+FFFD (\u{fffd}): give the right one with --encoding, or mend the file"
        ));
    }
    report
}

/// How the moves of `game` were read where the record leaves it open, in words: text and
/// coordinates that disagree, a first move written as the other side's, a side to move taken
/// from the first move, coordinates read as UCI's. What a converted game's moves are depends on
/// it, so `convert` says it too.
pub fn how_read(game: &Game, replayed: &Replay) -> Vec<String> {
    let mut said = replayed.contradictions.clone();
    if replayed.first_move_written_for_the_other_side {
        said.push(if game.fen.is_some() {
            "the first move is written as the other side's would be (its numerals: digits are Black's, 一…九 Red's), but the FEN's side to move can play it, so it is read as that side's move: if the FEN gives the wrong side to move, mend it".to_owned()
        } else {
            "the first two moves are written as the other sides' would be (their numerals: digits are Black's, 一…九 Red's), but they can be played in turn from the standard start, Red first, so they are read so: if the record starts with Black to move, give its start position as a FEN".to_owned()
        });
    }
    if replayed.side_from_first_move {
        said.push("the FEN gives the wrong side to move: the first move is the other side's, so play starts with it".to_owned());
    }
    if replayed.uci_by_replay {
        said.push("the coordinate moves are read as UCI's, ranks 1–10 (as Fairy-Stockfish writes them), because read as ICCS's, ranks 0–9, they do not replay as far; no rank 10 shows which they are".to_owned());
    }
    said
}

/// Where a game holds U+FFFD, the character that decoding puts for bytes it cannot read: `the
/// tag Event`, `a comment` … (`None` if nowhere; at once for a game whose reader saw none in its
/// text, [`Game::replacement_free`]).
pub fn undecodable(game: &Game) -> Option<String> {
    const BAD: char = '\u{fffd}';
    if game.replacement_free {
        return None;
    }
    if let Some((name, _)) = game.tags.iter().find(|(n, v)| has_bad(n) || has_bad(v)) {
        return Some(format!("the tag {}", name.replace(BAD, "?")));
    }
    if game.fen.as_deref().is_some_and(has_bad) {
        return Some("the FEN".to_owned());
    }
    if game.comment.as_deref().is_some_and(has_bad) {
        return Some("a comment".to_owned());
    }
    // The main line, then the variations met last first (the list of those left is made only
    // for a game that has any).
    let mut left: Vec<&[Node]> = Vec::new();
    let mut line = game.moves.as_slice();
    loop {
        for node in line {
            if node.text.as_deref().is_some_and(has_bad) {
                return Some("a move".to_owned());
            }
            if [node.before(), node.comment()]
                .iter()
                .any(|t| t.is_some_and(has_bad))
            {
                return Some("a comment".to_owned());
            }
            if !node.variations().is_empty() {
                left.extend(node.variations().iter().map(Vec::as_slice));
            }
        }
        match left.pop() {
            Some(next) => line = next,
            None => return None,
        }
    }
}

/// Whether `text` holds U+FFFD: its UTF-8 bytes looked for directly (`str::contains` with a
/// character sets up a searcher per call, which cost more than the search on the short texts of
/// moves: 4% of validating an archive).
fn has_bad(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut from = 2;
    // Each BD byte (U+FFFD's last; rare in the characters of records, where EF, its first, leads
    // every full-width digit) checked for the two before it.
    while let Some(i) = bytes
        .get(from..)
        .and_then(|rest| rest.iter().position(|&b| b == 0xBD))
    {
        let at = from + i;
        if bytes[at - 2..at] == [0xEF, 0xBF] {
            return true;
        }
        from = at + 1;
    }
    false
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use xq_notation::Mode;

    use super::*;
    use crate::format::{ReadOptions, read};

    fn check(pgn: &str) -> GameReport {
        let mut records = read(pgn.as_bytes(), Some("pgn"), ReadOptions::default()).unwrap();
        let mut reader = Reader::new(Mode::Lenient);
        validate_game(0, &mut records.games[0], &mut reader)
    }

    #[test]
    fn undecodable_bytes_are_found_where_they_are() {
        let bad = |pgn: &str| {
            let records = read(pgn.as_bytes(), Some("pgn"), ReadOptions::default()).unwrap();
            undecodable(records.games[0].as_ref().unwrap())
        };
        assert_eq!(
            bad("[Event \"杯\u{fffd}\"]\n\n1. 炮二平五 *\n"),
            Some("the tag Event".to_owned())
        );
        assert_eq!(
            bad("1. 炮二平五 {好\u{fffd}} *\n"),
            Some("a comment".to_owned())
        );
        assert_eq!(
            bad("1. 炮二平五 (1. 炮\u{fffd}平五) *\n"),
            Some("a move".to_owned())
        );
        // Full-width digits share U+FFFD's first byte (EF): not taken for it.
        assert_eq!(bad("1. 炮二平五 马８进７ {８} *\n"), None);
        // The reader tells whether a game's text held U+FFFD anywhere (a game after one that
        // did is told apart), and the look through the game is kept for games not so marked.
        let records = read(
            "[Event \"\u{fffd}\"]\n\n1. 炮二平五 *\n\n[Event \"杯\"]\n\n1. 车一进一 *\n".as_bytes(),
            Some("pgn"),
            ReadOptions::default(),
        )
        .unwrap();
        let flags: Vec<bool> = records
            .games
            .iter()
            .map(|g| g.as_ref().unwrap().replacement_free)
            .collect();
        assert_eq!(flags, [false, true]);
        let mut built = records.games[1].clone().unwrap();
        built.replacement_free = false;
        built.moves[0].set_comment(Some("\u{fffd}".to_owned()));
        assert_eq!(undecodable(&built), Some("a comment".to_owned()));
        // Looked for everywhere in a text, and in every line of the tree, the main line first.
        for (text, want) in [
            ("\u{fffd}", true),
            ("ab\u{fffd}", true),
            ("\u{ff3d}\u{fffd}x", true),
            ("\u{ff3d}", false),
            ("\u{3f3d}\u{ff3d}", false),
            ("", false),
        ] {
            assert_eq!(has_bad(text), want, "{text:?}");
        }
        assert_eq!(
            bad("1. 炮二平五 (1. 炮二平四 {\u{fffd}}) (1. 炮二\u{fffd}) 马８进７ *\n"),
            Some("a move".to_owned())
        );
        assert_eq!(
            bad("1. 炮二平五 (1. 炮\u{fffd}平四) (1. 炮二平六 {\u{fffd}}) 马８进７ *\n"),
            Some("a comment".to_owned())
        );
    }

    #[test]
    fn a_good_game_and_a_bad_move() {
        let ok = check("[Result \"*\"]\n1. 炮二平五 马８进７ 2. 马二进三 *\n");
        assert!(ok.ok);
        assert_eq!((ok.plies, ok.lines), (3, 1));
        let bad = check("1. 炮二平五 马８进７ 2. 马二进四 *\n");
        assert!(!bad.ok);
        let e = bad.error.unwrap();
        assert_eq!(
            (e.ply, e.kind, e.text.as_deref()),
            (Some(3), "no_match", Some("马二进四"))
        );
        assert_eq!(
            e.fen.unwrap(),
            "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2"
        );
    }

    #[test]
    fn variations_report_their_own_first_bad_move() {
        let r = check("1. 炮二平五 (1. 炮二进九) 马８进７ (1... 马８进９ 2. 车一进九) *\n");
        assert!(!r.ok);
        let e = r.error.unwrap();
        assert_eq!(
            (e.ply, e.kind, e.variation.clone()),
            (Some(1), "no_match", vec![(1, 0)])
        );
        let more = &r.more_errors[0];
        assert_eq!(
            (more.ply, more.kind, more.variation.clone()),
            (Some(3), "no_match", vec![(2, 0)])
        );
    }

    #[test]
    fn a_bad_start_and_an_unreadable_game() {
        let r = check("[FEN \"4k4/9/9/9/9/9/9/9/9/9 w\"]\n1. 炮二平五 *\n");
        let e = r.error.unwrap();
        assert_eq!((e.ply, e.kind), (Some(0), "bad_start"));
        let r = check("1. 炮二平五 { never closed\n");
        let e = r.error.unwrap();
        assert_eq!((e.ply, e.kind, e.line), (None, "syntax", Some(1)));
    }

    #[test]
    fn a_bad_start_says_where_its_fen_is_written() {
        // The FEN's place is a byte offset in the file as stored (a Chinese character takes 3
        // bytes in UTF-8, 2 in GBK); the first problem's span is in the FEN.
        let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w";
        let pgn = format!("[Event \"中国\"]\n[FEN \"{fen}\"]\n1. 炮二平五 *\n");
        let ubb = format!(
            "<p>中国</p>\n[DhtmlXQ]\n[DhtmlXQ_fen] {fen}[/DhtmlXQ_fen]\n[DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]\n[/DhtmlXQ]\n"
        );
        let txt = format!("# 中国\n  {fen} 炮二平五\n");
        for (text, ext, utf8_at, line) in [
            (&pgn, "pgn", 23, 2),
            (&ubb, "ubb", 38, 3),
            (&txt, "txt", 11, 2),
        ] {
            for (encoding, at) in [(Encoding::Utf8, utf8_at), (Encoding::Gbk, utf8_at - 2)] {
                let bytes = crate::encoding::encode(text, encoding);
                let options = ReadOptions {
                    encoding: Some(encoding),
                    format: None,
                    ..ReadOptions::default()
                };
                let mut records = read(&bytes, Some(ext), options).unwrap();
                let mut reader = Reader::new(Mode::Lenient);
                let r = validate_game(0, &mut records.games[0], &mut reader);
                let e = r.error.unwrap();
                assert_eq!(e.kind, "bad_start", "{ext}");
                assert_eq!(
                    (e.offset, e.line),
                    (Some(at), Some(line)),
                    "{ext} {encoding:?}"
                );
                assert_eq!(e.fen_span, Some((58, 59)), "{ext}");
                assert_eq!(&bytes[at..at + 9], b"rnbakabnr", "{ext} {encoding:?}");
                // Streamed in pieces of a few bytes (PGN; the others are read whole): the same
                // place.
                let limits = crate::stream::Limits {
                    head: 16,
                    chunk: 5,
                    ..crate::stream::Limits::default()
                };
                let mut streamed =
                    crate::GameStream::with_limits(&bytes[..], Some(ext), options, limits).unwrap();
                let game = streamed.next().unwrap().unwrap();
                assert_eq!(
                    (game.fen_offset, game.fen_line),
                    (Some(at), Some(line)),
                    "{ext}"
                );
            }
        }
    }

    #[test]
    fn a_bad_move_says_where_its_text_is_written() {
        // In the file as stored, whole or streamed, in the main line and in a variation.
        let pgn = "[Event \"中国\"]\n\n1. 炮二平五 (1. 炮二进九) 马８进７\n2. 马二进四 *\n";
        let txt = "# 中国\n炮二平五,　马８进７ 3.马二进四\n";
        for (text, ext, lines) in [(pgn, "pgn", vec![4, 3]), (txt, "txt", vec![2])] {
            for encoding in [Encoding::Utf8, Encoding::Gbk] {
                let bytes = crate::encoding::encode(text, encoding);
                let options = ReadOptions {
                    encoding: Some(encoding),
                    format: None,
                    ..ReadOptions::default()
                };
                let limits = crate::stream::Limits {
                    head: 16,
                    chunk: 5,
                    ..crate::stream::Limits::default()
                };
                let whole = read(&bytes, Some(ext), options).unwrap().games;
                let streamed =
                    crate::GameStream::with_limits(&bytes[..], Some(ext), options, limits)
                        .unwrap()
                        .collect();
                for mut games in [whole, streamed] {
                    let mut reader = Reader::new(Mode::Lenient);
                    let r = validate_game(0, &mut games[0], &mut reader);
                    let errors: Vec<Failure> = r.error.into_iter().chain(r.more_errors).collect();
                    let mut found = Vec::new();
                    for e in &errors {
                        let at = e.offset.unwrap();
                        let written = crate::encoding::encode(e.text.as_deref().unwrap(), encoding);
                        assert!(
                            bytes[at..].starts_with(&written),
                            "{ext} {encoding:?} {e:?}"
                        );
                        found.push(e.line.unwrap());
                    }
                    found.sort_unstable_by(|a, b| b.cmp(a));
                    assert_eq!(found, lines, "{ext}");
                }
            }
        }
    }

    #[test]
    fn a_wrong_result_is_a_warning() {
        // The rook mates (the kings may not face), but the tag says Black won.
        let r = check(
            "[FEN \"3k5/9/9/9/9/9/9/9/4K4/8R w - - 0 1\"]\n[Result \"0-1\"]\n1. 车一平六 0-1\n",
        );
        assert!(r.ok, "{r:?}");
        assert!(
            r.warnings.iter().any(|w| w.contains("Result")),
            "{:?}",
            r.warnings
        );
    }
}
