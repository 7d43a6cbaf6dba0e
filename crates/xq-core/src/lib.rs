//! The Xiangqi (Chinese chess) board and its rules: points, pieces, moves, legal move generation,
//! attacks and pins, check, checkmate (将死) and stalemate (困毙), FEN, a position hash and perft.
//!
//! ```
//! use xq_core::{Move, Position, Square};
//!
//! let pos = Position::new();
//! assert_eq!(pos.legal_moves().len(), 44);
//!
//! // 炮二平五: the cannon on h2 to e2.
//! let pos = pos.play(Move::new(Square::H2, Square::E2))?;
//! assert_eq!(pos.fen(), "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1");
//! # Ok::<_, xq_core::PlayError>(())
//! ```
//!
//! Vocabulary types ([`Square`], [`File`], [`Rank`], [`Color`], [`Role`], [`Piece`], [`Move`]) are
//! small `Copy` values. A [`Setup`] is any placement read from a FEN or built by hand; a
//! [`Position`] is a validated, playable one.

#![warn(missing_docs, clippy::print_stdout, clippy::print_stderr)]

mod attacks;
mod bitboard;
mod board;
pub mod caret;
mod color;
pub mod diagram;
pub mod fen;
mod moves;
mod obstacle;
pub mod perft;
mod position;
mod role;
mod setup;
mod square;
#[doc(hidden)]
pub mod testing;
pub mod text;
pub mod vocab;
mod zobrist;

pub use crate::{
    bitboard::Bitboard,
    board::Board,
    color::{ByColor, Color},
    fen::{FenError, ParseFenError, START_FEN},
    moves::{MAX_MOVES, Move, MoveList, ParseMoveError},
    obstacle::Obstacle,
    position::{CheckTest, EndReason, IllegalMove, Outcome, PlayError, Position, Undo},
    role::{ByRole, Piece, Role},
    setup::{PositionError, Problem, Setup, can_stand_on, max_count},
    square::{File, ParseSquareError, Rank, Square},
};
