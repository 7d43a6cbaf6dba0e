//! Each movement rule on a small position of its own, with the exact set of legal moves.

#![allow(clippy::unwrap_used)] // tests: a panic is the failure report

use xq_core::{Color, EndReason, IllegalMove, Move, Outcome, Position, Square};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The legal moves of the piece on `from`, as sorted UCCI strings.
fn moves_from(p: &Position, from: &str) -> Vec<String> {
    let mut v: Vec<String> = p
        .legal_moves_from(from.parse().unwrap())
        .iter()
        .map(|m| m.to_string())
        .collect();
    v.sort();
    v
}

fn mv(s: &str) -> Move {
    s.parse().unwrap()
}

#[test]
fn king_stays_in_the_palace() {
    let p = pos("5k3/9/9/9/9/9/9/9/9/3K5 w");
    assert_eq!(moves_from(&p, "d0"), ["d0d1", "d0e0"]);
    let p = pos("4k4/9/9/9/9/9/9/3K5/9/9 w");
    assert_eq!(
        moves_from(&p, "d2"),
        ["d2d1"],
        "e2 would face the black king; d3 is outside"
    );
}

#[test]
fn advisor_stays_on_the_palace_diagonals() {
    let p = pos("3k5/9/9/9/9/9/9/9/4A4/5K3 w");
    assert_eq!(moves_from(&p, "e1"), ["e1d0", "e1d2", "e1f2"]);
}

#[test]
fn elephant_eye_and_river() {
    // Elephant on e2: eye d3 blocked; targets c0, g0, c4, g4 minus the blocked one.
    let p = pos("3k5/9/9/9/9/9/3p5/4B4/9/4K4 w");
    assert_eq!(moves_from(&p, "e2"), ["e2c0", "e2g0", "e2g4"]);
    // On g4 the elephant cannot cross the river to e6/i6.
    let p = pos("3k5/9/9/9/9/6B2/9/9/9/4K4 w");
    assert_eq!(moves_from(&p, "g4"), ["g4e2", "g4i2"]);
}

#[test]
fn horse_leg() {
    // Horse on e4 with its upward leg e5 blocked: no d6/f6.
    let p = pos("3k5/9/9/9/4p4/4N4/9/9/9/4K4 w");
    assert_eq!(
        moves_from(&p, "e4"),
        ["e4c3", "e4c5", "e4d2", "e4f2", "e4g3", "e4g5"]
    );
}

#[test]
fn cannon_needs_exactly_one_screen_to_capture() {
    // Cannon on b2: the b7 cannon behind the b5 pawn screen can be taken; b9 (two screens) cannot.
    let p = pos("1r1k5/9/1c7/9/1P7/9/9/1C7/9/4K4 w");
    let moves = moves_from(&p, "b2");
    assert!(moves.contains(&"b2b7".to_owned()));
    assert!(
        !moves.contains(&"b2b5".to_owned()),
        "a cannon does not capture like a rook"
    );
    assert!(!moves.contains(&"b2b9".to_owned()));
    assert!(moves.contains(&"b2b4".to_owned()) && !moves.contains(&"b2b6".to_owned()));
    assert_eq!(
        moves.len(),
        4 + 8 + 1,
        "b0 b1 b3 b4 along the file, the rank, one capture"
    );
}

#[test]
fn rook_slides_and_captures_the_first_piece() {
    let p = pos("3k5/9/9/9/9/1p7/9/9/9/1R2K4 w");
    assert_eq!(
        moves_from(&p, "b0"),
        ["b0a0", "b0b1", "b0b2", "b0b3", "b0b4", "b0c0", "b0d0"]
    );
}

#[test]
fn pawns_before_and_after_the_river() {
    let p = pos("3k5/9/9/9/9/9/4P4/9/9/4K4 w");
    assert_eq!(moves_from(&p, "e3"), ["e3e4"]);
    let p = pos("3k5/9/9/9/4P4/9/9/9/9/4K4 w");
    assert_eq!(moves_from(&p, "e5"), ["e5d5", "e5e6", "e5f5"]);
    // On the last rank a pawn can only go sideways, never back.
    let p = pos("3k1P3/9/9/9/9/9/9/9/9/4K4 w");
    assert_eq!(moves_from(&p, "f9"), ["f9e9", "f9g9"]);
    // Black pawns go down.
    let p = pos("3k5/9/9/9/9/4p4/9/9/9/4K4 b");
    assert_eq!(moves_from(&p, "e4"), ["e4d4", "e4e3", "e4f4"]);
}

#[test]
fn kings_may_not_face_each_other() {
    // The e5 cannon is the only piece between the kings: it may move along the file only.
    let p = pos("4k4/9/9/9/4C4/9/9/9/9/4K4 w");
    assert_eq!(
        moves_from(&p, "e5"),
        ["e5e1", "e5e2", "e5e3", "e5e4", "e5e6", "e5e7", "e5e8"]
    );
    assert_eq!(p.check_move(mv("e5d5")), Err(IllegalMove::KingsFacing));
    assert_eq!(p.pinned(Color::Red).collect::<Vec<_>>(), [Square::E5]);
}

#[test]
fn pins_by_rook_cannon_screens_and_horse_legs() {
    // Red rook d1 pinned by the d9 rook against the d0 king.
    let p = pos("3r1k3/9/9/9/9/9/9/9/3R5/3K5 w");
    assert_eq!(p.check_move(mv("d1e1")), Err(IllegalMove::KingInCheck));
    assert!(p.is_legal(mv("d1d8")));
    // Two screens between a black cannon and the red king: neither may leave the file.
    let p = pos("3c1k3/9/9/9/9/3N5/9/9/3R5/3K5 w");
    assert_eq!(p.check_move(mv("d4e6")), Err(IllegalMove::KingInCheck));
    assert_eq!(p.check_move(mv("d1e1")), Err(IllegalMove::KingInCheck));
    assert!(
        p.is_legal(mv("d1d2")),
        "moving along the file keeps two screens"
    );
    // Stepping between a cannon and the king with nothing between gives the cannon a screen.
    let p = pos("3c1k3/9/9/9/9/9/9/9/2N6/3K5 w");
    assert_eq!(p.check_move(mv("c1d3")), Err(IllegalMove::KingInCheck));
    assert!(p.is_legal(mv("c1b3")));
    // A piece on the leg of a horse aimed at the king is pinned.
    let p = pos("3k5/9/9/9/9/9/9/3n5/3R5/4K4 w");
    // Horse d2 aims at e0 through its leg d1 (the rook).
    assert_eq!(p.check_move(mv("d1e1")), Err(IllegalMove::KingInCheck));
    assert!(p.is_legal(mv("d1d2")), "taking the horse is fine");
}

#[test]
fn check_and_answers() {
    // Black rook gives check on the e-file; Red must answer.
    let p = pos("3kr4/9/9/9/9/9/9/9/9/3AK4 w");
    assert!(p.is_check());
    assert_eq!(p.checkers().collect::<Vec<_>>(), [Square::E9]);
    let mut legal: Vec<String> = p.legal_moves().iter().map(|m| m.to_string()).collect();
    legal.sort();
    assert_eq!(legal, ["d0e1", "e0f0"], "e0e1 stays on the file");
    // Cannon check through a screen: moving the screen away also answers it.
    let p = pos("4ck3/9/9/9/9/9/9/4N4/9/4K4 w");
    assert!(p.is_check());
    assert_eq!(p.checkers().collect::<Vec<_>>(), [Square::E9]);
    assert!(p.is_legal(mv("e2c3")), "the screen steps off the file");
    assert!(
        p.is_legal(mv("e0d0")) && !p.is_legal(mv("e0f0")),
        "f0 would face the king on f9"
    );
}

#[test]
fn checkmate_and_stalemate_are_losses() {
    // 双车错: Black king e9 mated by rooks on the 9th and 8th ranks.
    let mated = pos("R3k4/1R7/9/9/9/9/9/9/9/3K5 b");
    assert!(mated.is_check());
    assert_eq!(
        mated.outcome(),
        Some(Outcome {
            winner: Color::Red,
            reason: EndReason::Checkmate
        })
    );
    // Black king on d9, not in check: d8 is covered by the d7 pawn, e9 would face the red king.
    // No legal move: stalemate (困毙), and Black loses.
    let stalemate = pos("3k5/9/3P5/9/9/9/9/9/9/4K4 b");
    assert!(!stalemate.is_check());
    assert_eq!(stalemate.count_legal_moves(), 0);
    assert_eq!(
        stalemate.outcome(),
        Some(Outcome {
            winner: Color::Red,
            reason: EndReason::Stalemate
        })
    );
    assert_eq!(Position::new().outcome(), None);
}

#[test]
fn illegal_move_reasons() {
    let p = Position::new();
    assert_eq!(p.check_move(mv("e5e6")), Err(IllegalMove::NoPiece));
    assert_eq!(p.check_move(mv("e6e5")), Err(IllegalMove::NotYourPiece));
    assert_eq!(
        p.check_move(mv("h2h7")),
        Err(IllegalMove::CannotReach),
        "a cannon needs a screen to capture"
    );
    assert!(
        p.is_legal(mv("h2h9")),
        "炮二进七: h2 takes the h9 horse over the h7 cannon"
    );
    assert!(p.is_legal(mv("b2b9")));
    let err = p.play(mv("a0a4")).unwrap_err();
    assert_eq!(err.reason, IllegalMove::CannotReach);
}
