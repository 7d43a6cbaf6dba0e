//! Why a piece cannot make a move, in the rules' own words: the horse's leg (蹩马腿), the
//! elephant's eye (塞象眼) and the river, the palace (九宫), a piece in the way, the cannon's screen
//! (炮架), the pawn's direction; and who would attack the king after a move that leaves it in check.

use std::fmt;

use crate::{Bitboard, Color, Move, Piece, Position, Role, Square};

/// What stops a piece from making a move by its own rule ([`crate::IllegalMove::CannotReach`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Obstacle {
    /// The piece never moves that way (shape or distance).
    NotItsWay(Role),
    /// The destination holds a piece of the mover's own side.
    OwnPiece(Square, Piece),
    /// The horse's leg, the point next to it on the way, is occupied (蹩马腿).
    LegBlocked(Square),
    /// The elephant's eye, the point between, is occupied (塞象眼).
    EyeBlocked(Square),
    /// An elephant may not cross the river.
    AcrossRiver,
    /// A king or an advisor may not leave the palace (九宫).
    OutOfPalace(Role),
    /// A rook or a moving cannon finds this piece in its way.
    Blocked(Square, Piece),
    /// A cannon captures over exactly one piece (炮架); here there is none.
    NoScreen,
    /// A cannon captures over exactly one piece; here there are this many.
    Screens(u32),
    /// A pawn never moves backwards.
    Backward,
    /// A pawn moves sideways only once it has crossed the river.
    SidewaysBeforeRiver,
}

impl fmt::Display for Obstacle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Obstacle::NotItsWay(role) => f.write_str(match role {
                Role::King => "the king moves one point along a rank or a file, inside the palace",
                Role::Advisor => "an advisor moves one point diagonally, inside the palace",
                Role::Elephant => {
                    "an elephant moves two points diagonally (田), on its own side of the river"
                }
                Role::Horse => "a horse moves one point straight, then one diagonally (日)",
                Role::Rook => "a rook moves along a rank or a file",
                Role::Cannon => "a cannon moves along a rank or a file",
                Role::Pawn => {
                    "a pawn moves one point forward, or one sideways once across the river"
                }
            }),
            Obstacle::OwnPiece(sq, piece) => {
                write!(f, "{sq} holds its own {} ({})", piece.role, piece.chinese())
            }
            Obstacle::LegBlocked(leg) => write!(f, "its leg {leg} is blocked (蹩马腿)"),
            Obstacle::EyeBlocked(eye) => write!(f, "the elephant's eye {eye} is blocked (塞象眼)"),
            Obstacle::AcrossRiver => f.write_str("an elephant may not cross the river"),
            Obstacle::OutOfPalace(role) => {
                write!(f, "the {role} may not leave the palace (九宫)")
            }
            Obstacle::Blocked(sq, piece) => write!(
                f,
                "the {} {} ({}) on {sq} stands in the way",
                piece.color,
                piece.role,
                piece.chinese()
            ),
            Obstacle::NoScreen => f.write_str(
                "a cannon captures by jumping exactly one piece (炮架), and there is none between",
            ),
            Obstacle::Screens(n) => write!(
                f,
                "a cannon captures by jumping exactly one piece (炮架), and there are {n} between"
            ),
            Obstacle::Backward => f.write_str("a pawn never moves backwards"),
            Obstacle::SidewaysBeforeRiver => {
                f.write_str("a pawn moves sideways only once it has crossed the river")
            }
        }
    }
}

fn in_palace(sq: Square, color: Color) -> bool {
    let (file, rank) = (sq.file().index(), sq.rank().index());
    (3..=5).contains(&file)
        && match color {
            Color::Red => rank <= 2,
            Color::Black => rank >= 7,
        }
}

fn own_side(sq: Square, color: Color) -> bool {
    match color {
        Color::Red => sq.rank().index() <= 4,
        Color::Black => sq.rank().index() >= 5,
    }
}

impl Position {
    /// What stops the piece on `m.from` from going to `m.to` by its own rule, whoever's turn it
    /// is; `None` when nothing does (the move may still leave its king in check) or when there
    /// is no piece on `m.from`.
    pub fn obstacle(&self, m: Move) -> Option<Obstacle> {
        let piece = self.piece_at(m.from)?;
        let (from, to) = (m.from, m.to);
        let df = to.file().index() as i32 - from.file().index() as i32;
        let dr = to.rank().index() as i32 - from.rank().index() as i32;
        let (adf, adr) = (df.abs(), dr.abs());
        let color = piece.color;
        let not_its_way = Some(Obstacle::NotItsWay(piece.role));
        let occupied = |sq: Square| self.piece_at(sq).is_some();
        let found = match piece.role {
            Role::King | Role::Advisor => {
                let step = if piece.role == Role::King {
                    adf + adr == 1
                } else {
                    adf == 1 && adr == 1
                };
                if !step {
                    not_its_way
                } else if !in_palace(to, color) {
                    Some(Obstacle::OutOfPalace(piece.role))
                } else {
                    None
                }
            }
            Role::Elephant => {
                let eye = from.offset(df / 2, dr / 2);
                if adf != 2 || adr != 2 {
                    not_its_way
                } else if !own_side(to, color) {
                    Some(Obstacle::AcrossRiver)
                } else {
                    eye.filter(|&e| occupied(e)).map(Obstacle::EyeBlocked)
                }
            }
            Role::Horse => {
                if !matches!((adf, adr), (1, 2) | (2, 1)) {
                    not_its_way
                } else {
                    let leg = if adf == 2 {
                        from.offset(df / 2, 0)
                    } else {
                        from.offset(0, dr / 2)
                    };
                    leg.filter(|&l| occupied(l)).map(Obstacle::LegBlocked)
                }
            }
            Role::Rook | Role::Cannon => {
                if (df == 0) == (dr == 0) {
                    not_its_way
                } else {
                    let between: Vec<Square> = (1..adf.max(adr))
                        .filter_map(|k| from.offset(df.signum() * k, dr.signum() * k))
                        .filter(|&sq| occupied(sq))
                        .collect();
                    let takes = self.piece_at(to).is_some_and(|p| p.color != color);
                    match (piece.role, takes, between.len()) {
                        (Role::Cannon, true, 0) => Some(Obstacle::NoScreen),
                        (Role::Cannon, true, 1) => None,
                        (Role::Cannon, true, n) => Some(Obstacle::Screens(n as u32)),
                        (_, _, 0) => None,
                        _ => between
                            .first()
                            .and_then(|&sq| self.piece_at(sq).map(|p| Obstacle::Blocked(sq, p))),
                    }
                }
            }
            Role::Pawn => {
                let forward = if color == Color::Red { 1 } else { -1 };
                if dr * forward < 0 {
                    Some(Obstacle::Backward)
                } else if adf + adr != 1 {
                    not_its_way
                } else if adf == 1 && own_side(from, color) {
                    Some(Obstacle::SidewaysBeforeRiver)
                } else {
                    None
                }
            }
        };
        found.or_else(|| {
            self.piece_at(to)
                .filter(|p| p.color == color)
                .map(|p| Obstacle::OwnPiece(to, p))
        })
    }

    /// The enemy pieces that would attack the mover's king after `m` (played by the piece on
    /// `m.from`, which must be able to reach `m.to`): what makes a move that leaves the king in
    /// check illegal, by name.
    pub fn attackers_after(&self, m: Move) -> Bitboard {
        let Some(piece) = self.piece_at(m.from) else {
            return Bitboard::EMPTY;
        };
        let mut after = self.clone();
        after.make_move(m);
        after.attackers_of(after.king(piece.color), piece.color.other())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn obstacle(fen: &str, m: &str) -> Option<Obstacle> {
        Position::from_fen_lenient(fen)
            .unwrap()
            .obstacle(m.parse().unwrap())
    }

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    #[test]
    fn each_piece_says_what_stops_it() {
        let start = crate::START_FEN;
        // A horse's leg, an elephant's eye, the river, the palace, a piece in the way, own piece.
        assert_eq!(
            obstacle("5k3/9/9/9/9/9/9/9/9/4K1PN1 w", "h0f1"),
            Some(Obstacle::LegBlocked(sq("g0")))
        );
        assert_eq!(
            obstacle(start, "h0h2"),
            Some(Obstacle::NotItsWay(Role::Horse))
        );
        assert_eq!(
            obstacle("5k3/9/9/9/9/9/9/9/3P5/2B1K4 w", "c0e2"),
            Some(Obstacle::EyeBlocked(sq("d1")))
        );
        assert_eq!(
            obstacle("5k3/9/9/9/9/2B6/9/9/9/4K4 w", "c4e6"),
            Some(Obstacle::AcrossRiver)
        );
        assert_eq!(
            obstacle("5k3/9/9/9/9/9/9/9/9/3AK4 w", "d0c1"),
            Some(Obstacle::OutOfPalace(Role::Advisor))
        );
        assert_eq!(
            obstacle("5k3/9/9/9/9/9/9/9/9/3K5 w", "d0c0"),
            Some(Obstacle::OutOfPalace(Role::King))
        );
        assert_eq!(
            obstacle(start, "a0a4"),
            Some(Obstacle::Blocked(
                sq("a3"),
                Piece {
                    color: Color::Red,
                    role: Role::Pawn
                }
            ))
        );
        assert_eq!(
            obstacle(start, "a0b0"),
            Some(Obstacle::OwnPiece(
                sq("b0"),
                Piece {
                    color: Color::Red,
                    role: Role::Horse
                }
            ))
        );
    }

    #[test]
    fn a_cannon_needs_exactly_one_screen_to_capture() {
        let start = crate::START_FEN;
        assert_eq!(obstacle(start, "h2h9"), None, "over the h7 cannon");
        assert_eq!(
            obstacle("5k3/9/9/9/9/9/9/9/1C5r1/4K4 w", "b1h1"),
            Some(Obstacle::NoScreen)
        );
        assert_eq!(
            obstacle("5k3/9/9/9/9/9/9/9/1CPP3r1/4K4 w", "b1h1"),
            Some(Obstacle::Screens(2))
        );
        // Moving without capturing, a cannon is blocked like a rook.
        assert!(matches!(
            obstacle(start, "b2b8"),
            Some(Obstacle::Blocked(_, _))
        ));
    }

    #[test]
    fn pawns_go_forward_and_sideways_only_across_the_river() {
        assert_eq!(
            obstacle("5k3/9/9/9/9/4P4/9/9/9/4K4 w", "e4e3"),
            Some(Obstacle::Backward)
        );
        assert_eq!(
            obstacle("5k3/9/9/9/9/4P4/9/9/9/4K4 w", "e4d4"),
            Some(Obstacle::SidewaysBeforeRiver)
        );
        assert_eq!(obstacle("5k3/9/9/9/4P4/9/9/9/9/4K4 w", "e5d5"), None);
        assert_eq!(
            obstacle("5k3/9/9/9/4P4/9/9/9/9/4K4 w", "e5e7"),
            Some(Obstacle::NotItsWay(Role::Pawn))
        );
        // Black's forward is down the board.
        assert_eq!(
            obstacle("5k3/9/9/4p4/9/9/9/9/9/4K4 b", "e6e7"),
            Some(Obstacle::Backward)
        );
    }

    #[test]
    fn obstacles_agree_with_the_move_generator() {
        // Every move of every piece to every point: no obstacle exactly when it is reachable.
        // Three composed positions and those of a pseudo-random game (deterministic).
        let mut positions: Vec<Position> = [
            crate::START_FEN,
            "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w",
            "3k5/4a4/4b4/9/2p6/9/9/4B4/4A4/3AK4 b",
        ]
        .iter()
        .map(|fen| Position::from_fen_lenient(fen).unwrap())
        .collect();
        let (mut pos, mut seed) = (
            Position::new(),
            crate::testing::XorShift(0x2545_f491_4f6c_dd1d),
        );
        for _ in 0..120 {
            let Some(m) = seed.pick(&pos.legal_moves()) else {
                break;
            };
            pos.play_unchecked(m);
            positions.push(pos.clone());
        }
        for pos in positions {
            let fen = pos.fen();
            for from in Bitboard::FULL {
                let Some(piece) = pos.piece_at(from) else {
                    continue;
                };
                let mut turn = pos.clone().to_setup();
                turn.turn = piece.color;
                // (A side cannot be to move while the other is in check: such points are skipped.)
                let Ok(mover) = Position::from_setup(turn) else {
                    continue;
                };
                let pseudo: Vec<Move> = Bitboard::FULL
                    .into_iter()
                    .map(|to| Move::new(from, to))
                    .filter(|&m| m.from != m.to)
                    .collect();
                for m in pseudo {
                    let reachable =
                        !matches!(mover.check_move(m), Err(crate::IllegalMove::CannotReach));
                    assert_eq!(
                        mover.obstacle(m).is_none(),
                        reachable,
                        "{fen}: {m} obstacle {:?}",
                        mover.obstacle(m)
                    );
                }
            }
        }
    }
}
