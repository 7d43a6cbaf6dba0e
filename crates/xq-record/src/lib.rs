//! Xiangqi game records: reading and writing PGN, XQF, DhtmlXQ, CBR/CBL/CBF, move lists and
//! JSON; telling their text encoding; replaying and validating every line.

#![warn(missing_docs, clippy::print_stdout, clippy::print_stderr)]

pub mod ccbridge;
pub mod dhtmlxq;
pub mod encoding;
pub mod error;
pub mod format;
pub mod game;
pub mod json;
pub mod pgn;
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
