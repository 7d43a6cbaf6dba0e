//! Cross-checks between the fast and the slow paths on positions from random playouts: legal move
//! generation against move-by-move legality, make/unmake against copies, the incremental hash
//! against a fresh one, and FEN round trips.

#![allow(clippy::unwrap_used)] // tests: a panic is the failure report

use xq_core::{Color, IllegalMove, Move, Position, Square};

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

/// The many-moves check test ([`Position::check_test`]) must agree with playing the move, for
/// every move a piece of the mover can make by its own rule, legal or not (the mate-in-one test
/// asks it of moves not tested for legality yet).
fn check_test_agrees(p: &Position) {
    let test = p.check_test();
    for from in p.board().by_color(p.turn()) {
        for to in Square::all() {
            let m = Move::new(from, to);
            if matches!(
                p.check_move(m),
                Err(IllegalMove::NoPiece | IllegalMove::NotYourPiece | IllegalMove::CannotReach)
            ) {
                continue;
            }
            let mut after = p.clone();
            after.make_move(m);
            let checks = after.is_king_attacked(p.turn().other());
            assert_eq!(test.gives_check(m), checks, "{m} in {}", p.fen());
        }
    }
}

fn check_position(pos: &Position) {
    let legal = pos.legal_moves();
    assert_eq!(legal.len(), pos.count_legal_moves());
    assert_eq!(pos.has_legal_move(), !legal.is_empty());
    // The same placement with the other side to move (what the arbiter asks "if the opponent
    // passed"), where the king of the side not to move may stand attacked: the check test must
    // agree with playing the move, the king's capture included.
    let passed = pos.passed();
    for p in [pos, &passed] {
        let mut checks = p.legal_moves();
        checks.retain(|m| {
            let mut after = p.clone();
            after.make_move(m);
            assert_eq!(p.gives_check(m), after.is_check(), "{m} in {}", p.fen());
            after.is_check()
        });
        assert_eq!(*p.legal_checks(), *checks, "{}", p.fen());
        check_test_agrees(p);
        // The captures, generated on their own, in the order of all moves.
        let mut captures = p.legal_moves();
        captures.retain(|m| p.piece_at(m.to).is_some());
        assert_eq!(*p.legal_captures(), *captures, "{}", p.fen());
        let wins = |skip: &dyn Fn(Move) -> bool| {
            p.legal_moves().iter().any(|&m| {
                let mut after = p.clone();
                after.make_move(m);
                !skip(m) && !after.has_legal_move()
            })
        };
        assert_eq!(p.mates_at_once(|_| false), wins(&|_| false), "{}", p.fen());
        // Without the captures (the arbiter leaves out some moves).
        let quiet = |m: Move| p.piece_at(m.to).is_some();
        assert_eq!(p.mates_at_once(quiet), wins(&quiet), "{}", p.fen());
    }
    // Every point pair of the mover: generation and the move-by-move check must agree, in the
    // position and the passed one (where the king of the side not to move may stand attacked).
    for p in [pos, &passed] {
        let legal = p.legal_moves();
        for from in p.board().by_color(p.turn()) {
            for to in Square::all() {
                let m = Move::new(from, to);
                assert_eq!(
                    legal.contains(&m),
                    p.is_legal(m),
                    "{m} in {}: generated {} but is_legal says {}",
                    p.fen(),
                    legal.contains(&m),
                    p.is_legal(m)
                );
            }
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

/// Playouts where a side sometimes passes (as the arbiter's searches ask "what if the opponent
/// did nothing"), so that the side not to move may stand in check and the side to move may be in
/// check twice over, hidden checkers included: generation, the legality and check tests must
/// still agree with playing each move. A playout stops before a king would be taken.
#[test]
fn playouts_with_passes_agree_with_the_slow_paths() {
    let mut rng = Rng(0x51_7cc1_b727_220a);
    let mut positions = 0;
    for start in STARTS {
        for _ in 0..40 {
            let mut pos = Position::from_fen(start).unwrap();
            for _ in 0..120 {
                if rng.below(4) == 0 {
                    pos = pos.passed();
                }
                let legal = pos.legal_moves();
                assert_eq!(pos.has_legal_move(), !legal.is_empty(), "{}", pos.fen());
                for from in pos.board().by_color(pos.turn()) {
                    for to in Square::all() {
                        let m = Move::new(from, to);
                        assert_eq!(legal.contains(&m), pos.is_legal(m), "{m} in {}", pos.fen());
                    }
                }
                let mut checks = legal.clone();
                checks.retain(|m| {
                    let mut after = pos.clone();
                    after.make_move(m);
                    after.is_king_attacked(pos.turn().other())
                });
                assert_eq!(*pos.legal_checks(), *checks, "{}", pos.fen());
                check_test_agrees(&pos);
                positions += 1;
                let Some(&m) = legal.get(rng.below(legal.len().max(1))) else {
                    break;
                };
                if pos
                    .piece_at(m.to)
                    .is_some_and(|p| p.role == xq_core::Role::King)
                {
                    break;
                }
                pos.make_move(m);
            }
        }
    }
    assert!(positions > 10_000, "{positions}");
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

/// Sparse random setups (two kings, a few attackers, a few defenders), where mates and stalemates
/// in one are common: the quick mate-in-one test must agree with playing every move, and the
/// check helpers with playing the move, in both the position and the passed one.
#[test]
fn sparse_positions_agree_on_mate_in_one() {
    use xq_core::{Piece, Role, Setup};
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut tried = 0;
    let mut mates = 0;
    let roles = [
        Role::Rook,
        Role::Cannon,
        Role::Horse,
        Role::Pawn,
        Role::Advisor,
        Role::Elephant,
    ];
    while tried < 10_000 {
        let mut setup = Setup::empty();
        let red_palace = [Square::D0, Square::E0, Square::F0, Square::E1, Square::D2];
        let black_palace = [Square::D9, Square::E9, Square::F9, Square::E8, Square::F7];
        setup.board.put(
            red_palace[rng.below(red_palace.len())],
            Piece::new(Color::Red, Role::King),
        );
        setup.board.put(
            black_palace[rng.below(black_palace.len())],
            Piece::new(Color::Black, Role::King),
        );
        let attackers = 2 + rng.below(4);
        let defenders = rng.below(4);
        for i in 0..attackers + defenders {
            let color = if i < attackers {
                Color::Red
            } else {
                Color::Black
            };
            // Defenders mostly around their palace, where they shield the king.
            let index = if i < attackers || rng.below(3) == 0 {
                rng.below(90)
            } else {
                63 + rng.below(27)
            };
            let sq = Square::all().nth(index).expect("90 points on the board");
            if setup.board.piece_at(sq).is_none() {
                setup
                    .board
                    .put(sq, Piece::new(color, roles[rng.below(roles.len())]));
            }
        }
        let Ok(pos) = Position::from_setup(setup).or_else(|e| e.ignore_implausible()) else {
            continue;
        };
        tried += 1;
        for p in [pos.clone(), pos.passed()] {
            let mut wins = false;
            for &m in p.legal_moves().iter() {
                let mut after = p.clone();
                after.make_move(m);
                assert_eq!(p.gives_check(m), after.is_check(), "{m} in {}", p.fen());
                wins |= !after.has_legal_move();
            }
            mates += usize::from(wins);
            assert_eq!(p.mates_at_once(|_| false), wins, "{}", p.fen());
            let mut checks = p.legal_moves();
            checks.retain(|m| p.gives_check(m));
            assert_eq!(*p.legal_checks(), *checks, "{}", p.fen());
            check_test_agrees(&p);
            // The captures, generated on their own, in the order of all moves.
            let mut captures = p.legal_moves();
            captures.retain(|m| p.piece_at(m.to).is_some());
            assert_eq!(*p.legal_captures(), *captures, "{}", p.fen());
        }
    }
    assert!(mates > 100, "only {mates} positions with a mate in one");
}

/// Black's only piece besides the king, an advisor, may not step in front of the red cannon
/// (e8 would be the cannon's screen): after any quiet red move Black has no legal move, and an
/// advisor's move onto the cannon's line must not count as a way out.
#[test]
fn a_move_onto_a_cannon_line_is_no_way_out() {
    let pos = Position::from_fen("3ak4/R8/9/9/4C4/9/P8/9/9/3K1R3 w").unwrap();
    let pawn: Move = "a3a4".parse().unwrap();
    assert!(pos.mates_at_once(|m| m != pawn));
    assert!(!pos.play(pawn).unwrap().has_legal_move());
}
