//! Cross-checks between the fast and the slow paths on positions from random playouts: legal move
//! generation against move-by-move legality, make/unmake against copies, the incremental hash
//! against a fresh one, and FEN round trips.

#![allow(clippy::unwrap_used)] // tests: a panic is the failure report

use xq_core::{Color, Move, Position, Square};

/// A small deterministic generator (xorshift64*), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const STARTS: [&str; 5] = [
    xq_core::START_FEN,
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w",
    "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w",
    "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w",
];

fn check_position(pos: &Position) {
    let legal = pos.legal_moves();
    assert_eq!(legal.len(), pos.count_legal_moves());
    // Every point pair of the mover: generation and the move-by-move check must agree.
    for from in pos.board().by_color(pos.turn()) {
        for to in Square::all() {
            let m = Move::new(from, to);
            assert_eq!(
                legal.contains(&m),
                pos.is_legal(m),
                "{m} in {}: generated {} but is_legal says {}",
                pos.fen(),
                legal.contains(&m),
                pos.is_legal(m)
            );
        }
    }
    // Checked positions: only a piece of the opponent can be a checker.
    for sq in pos.checkers() {
        assert_eq!(pos.piece_at(sq).map(|p| p.color), Some(pos.turn().other()));
    }
    // FEN round trip and the hash of a fresh position.
    let again = Position::from_fen(&pos.fen()).unwrap();
    assert_eq!(&again, pos);
    assert_eq!(again.hash(), pos.hash());
    // Make/unmake restores everything; the incremental hash matches a fresh one.
    let mut scratch = pos.clone();
    for &m in legal.iter() {
        let copy = pos.play(m).unwrap();
        let undo = scratch.make_move(m);
        assert_eq!(scratch, copy);
        assert_eq!(
            scratch.hash(),
            Position::from_fen(&copy.fen()).unwrap().hash()
        );
        assert!(
            !scratch.is_king_attacked(pos.turn()),
            "{m} leaves the mover in check"
        );
        scratch.unmake_move(m, undo);
        assert_eq!(&scratch, pos);
        assert_eq!(scratch.hash(), pos.hash());
    }
}

#[test]
fn random_playouts_agree_with_the_slow_paths() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut positions = 0;
    for start in STARTS {
        for _ in 0..12 {
            let mut pos = Position::from_fen(start).unwrap();
            for _ in 0..150 {
                check_position(&pos);
                positions += 1;
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    assert!(pos.outcome().is_some());
                    break;
                }
                let m = legal[rng.below(legal.len())];
                pos = pos.play(m).unwrap();
            }
        }
    }
    assert!(positions > 5_000, "{positions}");
}

#[test]
fn hash_depends_on_placement_and_side_only() {
    let a = Position::new();
    let b = a.passed();
    assert_ne!(a.hash(), b.hash());
    assert_eq!(b.turn(), Color::Black);
    // Same position reached by different move orders: same hash, same_position.
    let play = |moves: &[&str]| {
        moves
            .iter()
            .fold(Position::new(), |p, m| p.play(m.parse().unwrap()).unwrap())
    };
    let x = play(&["h2e2", "h9g7", "b0c2", "b9c7"]);
    let y = play(&["b0c2", "b9c7", "h2e2", "h9g7"]);
    assert!(x.same_position(&y));
    assert_eq!(x.hash(), y.hash());
    let z = play(&["h0g2", "b9c7", "g2h0", "c7b9"]);
    assert!(z.same_position(&Position::new()));
    assert_ne!(z, Position::new(), "the move counters differ");
}
