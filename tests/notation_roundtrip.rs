//! Every move written in every convention reads back as the same move in strict mode: over every
//! legal move of every position reached in the ccpd-dev games (UCI and SAN of Fairy-Stockfish
//! included), of random playouts, and of random
//! legal setups crowded with pawns (to exercise the multi-pawn conventions).

#![allow(clippy::unwrap_used)] // tests: a panic is the failure report

mod support;

use support::Rng;
use xq_core::{Board, Color, Piece, Position, Role, Setup, Square, can_stand_on};
use xq_notation::{Mode, Notation, Ranks, Reader, write};

/// Checks every legal move of `pos` in every convention; returns how many (move, convention)
/// pairs were checked. Conventions that write the same text for a move (most of them, when no
/// piece is doubled on a file) are read back once.
fn check_all_moves(pos: &Position, reader: &mut Reader, notations: &[Notation]) -> usize {
    let mut checked = 0;
    let mut texts: Vec<(String, Notation)> = Vec::with_capacity(notations.len());
    for &m in pos.legal_moves().iter() {
        texts.clear();
        for &notation in notations {
            let text = write(pos, m, notation);
            if !texts.iter().any(|(t, _)| *t == text) {
                texts.push((text, notation));
            }
        }
        for (text, notation) in &texts {
            // UCI's `h3e3` is ICCS's `h2e2`: a game says which it uses (see `Ranks`).
            let ranks = reader.set_ranks(if *notation == Notation::Uci {
                Ranks::Uci
            } else {
                Ranks::Iccs
            });
            let back = reader.read(text, pos);
            reader.set_ranks(ranks);
            match back {
                Ok(back) if back == m => {}
                other => panic!(
                    "{m} written {notation:?} as {text} reads back as {other:?} in {}",
                    pos.fen()
                ),
            }
        }
        checked += notations.len();
    }
    checked
}

/// A random legal position with pawns stacked on one to three files per side.
fn crowded_position(rng: &mut Rng) -> Option<Position> {
    let mut board = Board::empty();
    for color in Color::ALL {
        let palace: Vec<Square> = Square::all().filter(|s| s.in_palace(color)).collect();
        board.put(
            palace[rng.below(palace.len())],
            Piece::new(color, Role::King),
        );
        let files: Vec<usize> = (0..1 + rng.below(3)).map(|_| rng.below(9)).collect();
        let mut pawns = 0;
        while pawns < 5 {
            let file = files[rng.below(files.len())];
            let rank = rng.below(10);
            let sq = Square::from_coords(file as i32, rank as i32)?;
            let piece = Piece::new(color, Role::Pawn);
            if board.piece_at(sq).is_none() && can_stand_on(piece, sq) {
                board.put(sq, piece);
                pawns += 1;
            } else if rng.below(20) == 0 {
                break;
            }
        }
        for role in [
            Role::Rook,
            Role::Horse,
            Role::Cannon,
            Role::Advisor,
            Role::Elephant,
        ] {
            for _ in 0..rng.below(3) {
                let piece = Piece::new(color, role);
                let candidates: Vec<Square> = Square::all()
                    .filter(|&s| board.piece_at(s).is_none() && can_stand_on(piece, s))
                    .collect();
                if !candidates.is_empty() {
                    board.put(candidates[rng.below(candidates.len())], piece);
                }
            }
        }
    }
    let turn = if rng.below(2) == 0 {
        Color::Red
    } else {
        Color::Black
    };
    Position::from_setup(Setup {
        board,
        turn,
        halfmoves: 0,
        fullmoves: 1,
    })
    .ok()
}

#[test]
fn random_playouts_and_crowded_setups_round_trip() {
    let notations = Notation::all();
    let mut reader = Reader::new(Mode::Strict);
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let mut checked = 0;
    let mut positions = 0;
    let mut visit = |pos: &Position| {
        checked += check_all_moves(pos, &mut reader, &notations);
        positions += 1;
    };
    // Random playouts from the start.
    let mut playouts = Rng(0x1234_5678_9abc_def1);
    for _ in 0..40 {
        support::playout(Position::new(), 120, &mut playouts, &mut visit);
    }
    // Crowded setups, and a few moves on from each.
    let mut setups = 0;
    while setups < 3000 {
        let Some(pos) = crowded_position(&mut rng) else {
            continue;
        };
        setups += 1;
        support::playout(pos, 3, &mut playouts, &mut visit);
    }
    assert!(
        positions > 10_000 && checked > 1_000_000,
        "{positions} positions, {checked} moves"
    );
}

/// The FEN and move tokens of a CCPD game (one game per file, Big5). A stand-in until the
/// records crate reads PGN.
fn ccpd_game(bytes: &[u8]) -> (String, Vec<String>) {
    let (text, _, _) = encoding_rs::BIG5.decode(bytes);
    let mut fen = xq_core::START_FEN.to_owned();
    let mut moves = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix("[FEN \"") {
            fen = rest.trim_end_matches("\"]").to_owned();
        } else if !line.starts_with('[') {
            for token in line.split_whitespace() {
                let token = token.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
                if !token.is_empty()
                    && !matches!(token, "1-0" | "0-1" | "1/2-1/2" | "*")
                    && !token.starts_with('{')
                {
                    moves.push(token.to_owned());
                }
            }
        }
    }
    (fen, moves)
}

#[test]
fn every_position_of_the_ccpd_dev_games_round_trips() {
    let dir = support::shared().join("data/ccpd-dev/Dataset");
    let files = support::files_below(&dir, "pgn");
    assert!(files.len() > 3000, "ccpd-dev has {} games", files.len());
    let notations = Notation::all();
    let mut strict = Reader::new(Mode::Strict);
    let mut lenient = Reader::new(Mode::Lenient);
    let (mut positions, mut checked) = (0, 0);
    for path in &files {
        let (fen, tokens) = ccpd_game(&std::fs::read(path).unwrap());
        let Ok(mut pos) = Position::from_fen_lenient(&fen) else {
            continue;
        };
        for token in &tokens {
            checked += check_all_moves(&pos, &mut strict, &notations);
            positions += 1;
            match lenient.read(token, &pos) {
                Ok(m) => pos.play_unchecked(m),
                Err(_) => break, // the known defects; the records tests pin them
            }
        }
    }
    assert!(positions > 200_000, "{positions} positions");
    assert!(checked > 50_000_000, "{checked} moves");
}
