#![allow(clippy::unwrap_used)] // tests: a panic is the failure report

//! UCI (ranks 1–10) and SAN, the notations of Fairy-Stockfish and pychess, over real games of
//! `fixtures/records` (ICCS and Chinese records): every move written in them reads back as the
//! same move, in strict mode, with the game's ranks told to the reader; and UCI's ranks are
//! one above ICCS's.

use std::path::Path;

use xq_core::{Move, Position};
use xq_notation::{Mode, Notation, NotationError, Ranks, Reader, write};

/// The move tokens of each game of a PGN file written one game to a line of moves (as the
/// wukong fixtures are): numbers and results left out.
fn games(name: &str) -> Vec<Vec<String>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/records/wukong")
        .join(name);
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('[') && !l.trim().is_empty())
        .map(|l| {
            l.split_whitespace()
                .filter(|t| !t.ends_with('.') && !matches!(*t, "1-0" | "0-1" | "1/2-1/2" | "*"))
                .map(str::to_owned)
                .collect()
        })
        .collect()
}

/// The moves of a game read leniently from the start position.
fn replay(tokens: &[String]) -> Vec<(Position, Move)> {
    let mut reader = Reader::new(Mode::Lenient);
    let mut pos = Position::new();
    let mut out = Vec::new();
    for t in tokens {
        let m = reader.read(t, &pos).unwrap();
        out.push((pos.clone(), m));
        pos.play_unchecked(m);
    }
    out
}

#[test]
fn real_games_round_trip_through_uci_and_san() {
    let mut strict = Reader::new(Mode::Strict);
    let mut plies = 0;
    let mut captures = 0;
    for file in ["hu-ronghua-uci-5.pgn", "xqdb_traditional-3.pgn"] {
        for tokens in games(file) {
            for (pos, m) in replay(&tokens) {
                plies += 1;
                captures += usize::from(pos.piece_at(m.to).is_some());
                let uci = write(&pos, m, Notation::Uci);
                let ucci = write(&pos, m, Notation::Ucci);
                // The same files, every rank one higher.
                let one_up =
                    |sq: xq_core::Square| format!("{}{}", sq.file().char(), sq.rank().index() + 1);
                assert_eq!(uci, one_up(m.from) + &one_up(m.to), "{ucci}");
                strict.set_ranks(Ranks::Uci);
                assert_eq!(strict.read(&uci, &pos), Ok(m), "{uci} in {}", pos.fen());
                strict.set_ranks(Ranks::Iccs);
                let san = write(&pos, m, Notation::San);
                assert_eq!(strict.read(&san, &pos), Ok(m), "{san} in {}", pos.fen());
                assert_eq!(
                    san.contains('x'),
                    pos.piece_at(m.to).is_some(),
                    "{san}: x marks a capture"
                );
            }
        }
    }
    assert!(
        plies > 500 && captures > 50,
        "{plies} plies, {captures} captures"
    );
}

#[test]
fn a_game_s_ranks_decide_how_h3e3_reads() {
    let pos = Position::new();
    let mut reader = Reader::new(Mode::Lenient);
    // Alone, `h2e2` is ICCS (ranks 0–9) and `h10h9` can only be UCI.
    assert_eq!(reader.read("h2e2", &pos).unwrap().to_string(), "h2e2");
    let black = pos.passed();
    assert_eq!(reader.read("h10g8", &black).unwrap().to_string(), "h9g7");
    // In a UCI game `h3e3` is the cannon's move, and a rank 0 is an error under the rank.
    reader.set_ranks(Ranks::Uci);
    assert_eq!(reader.read("h3e3", &pos).unwrap().to_string(), "h2e2");
    match reader.read("h0g2", &pos) {
        Err(NotationError::Syntax(e)) => {
            assert_eq!(e.span, 1..2);
            assert!(e.to_string().contains("UCI"), "{e}");
        }
        other => panic!("{other:?}"),
    }
    // In an ICCS game a rank 10 is an error under the rank.
    reader.set_ranks(Ranks::Iccs);
    match reader.read("h10g8", &black) {
        Err(NotationError::Syntax(e)) => assert_eq!(e.span, 1..3),
        other => panic!("{other:?}"),
    }
    assert_eq!(reader.read("h3e3", &pos).unwrap_err().kind(), "no_piece");
}

#[test]
fn san_written_from_positions_that_need_telling_apart() {
    // Two red rooks on file a (a0 and a4): the rank tells them apart, and reads back although
    // `A1a3`-like text could be ICCS.
    let pos = Position::from_fen("3k5/9/9/9/9/R8/9/9/9/R3K4 w - - 0 1").unwrap();
    let m: Move = "a0a2".parse().unwrap();
    let san = write(&pos, m, Notation::San);
    assert_eq!(san, "R1a3");
    assert_eq!(Reader::new(Mode::Strict).read(&san, &pos), Ok(m));
    // Mate is `#`, check `+`.
    let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/4R4/4K3R w - - 0 1").unwrap();
    let mate: Move = "e1d1".parse().unwrap();
    assert_eq!(write(&pos, mate, Notation::San), "Rd2#");
    let check: Move = "i0i9".parse().unwrap();
    assert_eq!(write(&pos, check, Notation::San), "Ri10+");
    assert_eq!(Reader::new(Mode::Strict).read("Ri10+", &pos), Ok(check));
    // A missing `+` reads leniently, not strictly.
    assert_eq!(Reader::new(Mode::Lenient).read("Ri10", &pos), Ok(check));
    assert_eq!(
        Reader::new(Mode::Strict)
            .read("Ri10", &pos)
            .unwrap_err()
            .kind(),
        "not_strict"
    );
}
