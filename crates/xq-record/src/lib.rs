//! Xiangqi game records: reading and writing PGN, XQF, DhtmlXQ, CBR/CBL/CBF, move lists and
//! JSON; telling their text encoding; replaying and validating every line.
//!
//! ```
//! use xq_notation::{Mode, Reader};
//! use xq_record::{Format, ReadOptions, read, validate_game};
//!
//! let pgn = "[Event \"demo\"]\n\n1. 炮二平五 马８进７ 2. 马二进三 车９平８ *\n";
//! let mut records = read(pgn.as_bytes(), Some("pgn"), ReadOptions::default())?;
//! assert_eq!(records.format, Format::Pgn);
//! let report = validate_game(0, &mut records.games[0], &mut Reader::new(Mode::Lenient));
//! assert!(report.ok);
//! assert_eq!(report.plies, 4);
//! # Ok::<(), xq_record::ReadError>(())
//! ```

#![warn(missing_docs, clippy::print_stdout, clippy::print_stderr)]

pub mod ccbridge;
pub mod dhtmlxq;
pub mod encoding;
pub mod error;
pub mod format;
pub mod game;
pub mod json;
pub mod pgn;
mod place;
pub mod recover;
pub mod replay;
mod slots;
pub mod stream;
mod tree;
pub mod txt;
pub mod validate;
pub mod write;
pub mod xqf;

pub use crate::{
    encoding::Encoding,
    error::{ReadError, ReadErrorKind},
    format::{Format, ReadOptions, Records, read},
    game::{Game, Node, Outcome},
    stream::GameStream,
    validate::{Failure, GameReport, ReportRow, validate_game},
};
