//! Unvalidated positions and the checks that make them playable.

use std::fmt;

use crate::{Board, Color, File, Piece, Position, Role, Square};

/// A position as written down, not necessarily legal: a placement, the side to move and the two
/// FEN counters. Turn it into a playable [`Position`] with [`Position::from_setup`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// Where the pieces stand.
    pub board: Board,
    /// Whose turn it is.
    pub turn: Color,
    /// Plies since the last capture (the FEN halfmove clock).
    pub halfmoves: u32,
    /// The move number, starting at 1 and incremented after Black moves.
    pub fullmoves: u32,
}

impl Setup {
    /// The standard starting position.
    pub fn start() -> Setup {
        Setup {
            board: Board::start(),
            turn: Color::Red,
            halfmoves: 0,
            fullmoves: 1,
        }
    }

    /// An empty board, Red to move.
    pub fn empty() -> Setup {
        Setup {
            board: Board::empty(),
            turn: Color::Red,
            halfmoves: 0,
            fullmoves: 1,
        }
    }

    /// Everything that keeps this setup from being a legal Xiangqi position, in a fixed order.
    pub fn problems(&self) -> Vec<Problem> {
        let mut problems = Vec::new();
        let board = &self.board;
        for color in Color::ALL {
            let kings = board.by_piece(Piece::new(color, Role::King));
            match kings.count() {
                0 => problems.push(Problem::MissingKing { color }),
                1 => {}
                count => problems.push(Problem::TooManyKings { color, count }),
            }
            for sq in kings {
                if !sq.in_palace(color) {
                    problems.push(Problem::KingOutsidePalace { color, square: sq });
                }
            }
            for role in Role::ALL {
                let piece = Piece::new(color, role);
                let count = board.by_piece(piece).count();
                let max = max_count(role);
                if role != Role::King && count > max {
                    problems.push(Problem::TooMany { piece, count, max });
                }
                if matches!(role, Role::Advisor | Role::Elephant | Role::Pawn) {
                    for sq in board.by_piece(piece) {
                        if !can_stand_on(piece, sq) {
                            problems.push(Problem::Unreachable { piece, square: sq });
                        }
                    }
                }
            }
        }
        if let (Some(red), Some(black)) = (board.king_of(Color::Red), board.king_of(Color::Black)) {
            if board.kings_facing() {
                problems.push(Problem::KingsFacing { red, black });
            }
            let waiting = self.turn.other();
            let king = if waiting == Color::Red { red } else { black };
            if board.attackers_of(king, self.turn).any() {
                problems.push(Problem::OpponentInCheck { color: waiting });
            }
        }
        problems
    }
}

impl Default for Setup {
    fn default() -> Setup {
        Setup::start()
    }
}

/// How many pieces of a kind each side starts with, which is the most it can ever have.
pub const fn max_count(role: Role) -> usize {
    match role {
        Role::King => 1,
        Role::Advisor | Role::Elephant | Role::Horse | Role::Rook | Role::Cannon => 2,
        Role::Pawn => 5,
    }
}

/// Whether a piece can ever stand on `sq` in a game from the starting position (advisors on the
/// palace diagonals, elephants on their seven points, pawns not behind their starting rank nor
/// beside their file before the river). Other pieces can stand anywhere, kings in their palace.
pub fn can_stand_on(piece: Piece, sq: Square) -> bool {
    let color = piece.color;
    let file = sq.file().index();
    let rank = sq.rank().relative_to(color);
    match piece.role {
        Role::King => sq.in_palace(color),
        Role::Advisor => sq.in_palace(color) && (file + rank as usize) % 2 == 1,
        Role::Elephant => {
            matches!((file, rank), (2 | 6, 0) | (0 | 4 | 8, 2) | (2 | 6, 4))
        }
        Role::Pawn => rank >= 5 || (rank >= 3 && file.is_multiple_of(2)),
        Role::Horse | Role::Rook | Role::Cannon => true,
    }
}

/// Something that keeps a [`Setup`] from being a legal position.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Problem {
    /// A side has no king.
    MissingKing {
        /// Whose.
        color: Color,
    },
    /// A side has more than one king.
    TooManyKings {
        /// Whose.
        color: Color,
        /// How many.
        count: usize,
    },
    /// A king stands outside its palace.
    KingOutsidePalace {
        /// Whose.
        color: Color,
        /// Where.
        square: Square,
    },
    /// More pieces of a kind than a side starts with.
    TooMany {
        /// Which piece.
        piece: Piece,
        /// How many there are.
        count: usize,
        /// How many there can be.
        max: usize,
    },
    /// An advisor, elephant or pawn on a point it can never reach.
    Unreachable {
        /// Which piece.
        piece: Piece,
        /// Where.
        square: Square,
    },
    /// The kings face each other on an open file (将帅对面).
    KingsFacing {
        /// Red's king.
        red: Square,
        /// Black's king.
        black: Square,
    },
    /// The side that is not to move is in check.
    OpponentInCheck {
        /// The side in check.
        color: Color,
    },
}

impl Problem {
    /// Whether the problem makes the position unplayable. The others (too many pieces of a kind,
    /// pieces on points they can never reach) only make it impossible to reach from the start;
    /// move generation still works, and archives of composed positions contain such setups.
    pub fn is_fatal(&self) -> bool {
        !matches!(self, Problem::TooMany { .. } | Problem::Unreachable { .. })
    }
}

fn palace_span(color: Color) -> &'static str {
    match color {
        Color::Red => "d0–f2",
        Color::Black => "d7–f9",
    }
}

fn points_of(piece: Piece) -> String {
    Square::all()
        .filter(|&sq| can_stand_on(piece, sq))
        .map(|sq| sq.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Problem::MissingKing { color } => write!(
                f,
                "{} has no king ({}): put one {} inside the palace ({})",
                color.title(),
                Piece::new(color, Role::King).chinese(),
                Piece::new(color, Role::King).fen_char(),
                palace_span(color)
            ),
            Problem::TooManyKings { color, count } => {
                write!(f, "{} has {count} kings: keep exactly one", color.title())
            }
            Problem::KingOutsidePalace { color, square } => write!(
                f,
                "{}'s king on {square} is outside its palace ({}); a king never leaves the palace",
                color.title(),
                palace_span(color)
            ),
            Problem::TooMany { piece, count, max } => write!(
                f,
                "{} has {count} {}s ({}); a side has at most {max}",
                piece.color.title(),
                piece.role,
                piece.chinese()
            ),
            Problem::Unreachable { piece, square } => {
                let why = match piece.role {
                    Role::Pawn => {
                        "pawns start on their third rank, never move back, and move sideways only after crossing the river"
                    }
                    Role::Advisor => "advisors stay on the palace diagonals",
                    _ => "elephants never cross the river and move two points diagonally",
                };
                write!(
                    f,
                    "{}'s {} ({}) on {square} stands where it can never go: {why} (possible points: {})",
                    piece.color.title(),
                    piece.role,
                    piece.chinese(),
                    points_of(piece)
                )?;
                Ok(())
            }
            Problem::KingsFacing { red, black } => write!(
                f,
                "the kings on {red} and {black} face each other on the {}-file with nothing between (将帅对面), which no legal move can leave",
                File::ALL[red.file().index()].char()
            ),
            Problem::OpponentInCheck { color } => write!(
                f,
                "{} is in check although it is not {color}'s turn: no legal move leaves the mover's own king attacked; is the side to move right?",
                color.title()
            ),
        }
    }
}

/// A [`Setup`] that is not a legal position, with every reason.
#[derive(Clone, Debug)]
pub struct PositionError {
    setup: Box<Setup>,
    problems: Vec<Problem>,
}

impl PositionError {
    pub(crate) fn new(setup: Setup, problems: Vec<Problem>) -> PositionError {
        PositionError {
            setup: Box::new(setup),
            problems,
        }
    }

    /// Every problem found.
    pub fn problems(&self) -> &[Problem] {
        &self.problems
    }

    /// The rejected setup.
    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    /// Accepts the position anyway if every problem is merely implausible (see
    /// [`Problem::is_fatal`]).
    ///
    /// # Errors
    /// Returns `self` unchanged if a fatal problem remains.
    pub fn ignore_implausible(self) -> Result<Position, PositionError> {
        if self.problems.iter().any(Problem::is_fatal) {
            Err(self)
        } else {
            Ok(Position::from_setup_unchecked(*self.setup))
        }
    }
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("illegal position")?;
        for (i, problem) in self.problems.iter().enumerate() {
            write!(f, "{}{problem}", if i == 0 { ": " } else { "; " })?;
        }
        Ok(())
    }
}

impl std::error::Error for PositionError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reachable_points() {
        let count = |piece: Piece| Square::all().filter(|&sq| can_stand_on(piece, sq)).count();
        for color in Color::ALL {
            assert_eq!(count(Piece::new(color, Role::Advisor)), 5);
            assert_eq!(count(Piece::new(color, Role::Elephant)), 7);
            assert_eq!(count(Piece::new(color, Role::Pawn)), 10 + 45);
            assert_eq!(count(Piece::new(color, Role::King)), 9);
        }
        assert!(can_stand_on(
            Piece::new(Color::Black, Role::Elephant),
            Square::C9
        ));
        assert!(can_stand_on(
            Piece::new(Color::Black, Role::Elephant),
            Square::E7
        ));
        assert!(!can_stand_on(
            Piece::new(Color::Black, Role::Elephant),
            Square::E2
        ));
        assert!(can_stand_on(
            Piece::new(Color::Red, Role::Advisor),
            Square::E1
        ));
        assert!(!can_stand_on(
            Piece::new(Color::Red, Role::Advisor),
            Square::E0
        ));
        assert!(!can_stand_on(
            Piece::new(Color::Red, Role::Pawn),
            Square::B3
        ));
        assert!(can_stand_on(
            Piece::new(Color::Black, Role::Pawn),
            Square::B4
        ));
        assert!(!can_stand_on(
            Piece::new(Color::Black, Role::Pawn),
            Square::B5
        ));
        assert!(!can_stand_on(
            Piece::new(Color::Black, Role::Pawn),
            Square::A8
        ));
        assert_eq!(crate::Rank::R9.relative_to(Color::Black), 0);
    }
}
