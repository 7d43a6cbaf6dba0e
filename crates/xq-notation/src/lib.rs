//! Xiangqi move notation: reading Chinese (中文纵线), WXF and ICCS/UCCI moves against a position,
//! and writing moves back in every convention.
//!
//! ```
//! use xq_core::Position;
//! use xq_notation::{Mode, Notation, ChineseStyle, read, write};
//!
//! let pos = Position::new();
//! let m = read("炮二平五", &pos, Mode::Lenient)?;
//! assert_eq!(m.to_string(), "h2e2");
//! assert_eq!(read("C2.5", &pos, Mode::Strict)?, m);
//! assert_eq!(read("H2-E2", &pos, Mode::Strict)?, m);
//! assert_eq!(write(&pos, m, Notation::Wxf), "C2.5");
//! assert_eq!(write(&pos, m, Notation::Chinese(ChineseStyle::default())), "炮二平五");
//! # Ok::<_, xq_notation::NotationError>(())
//! ```
//!
//! Reading has two steps, kept apart as in the rest of the toolkit: [`parse`] reads the text
//! (a [`SyntaxError`] says where it stops making sense), then [`MoveText::resolve`] finds the move
//! in a position (a [`ResolveError`] says why there is none, or several). [`Reader`] caches the
//! first step per distinct token. The accepted notations are documented in `docs/notation.md`.

#![warn(missing_docs, clippy::print_stdout, clippy::print_stderr)]

mod coords;
mod files;
mod grammar;
mod quick;
mod resolve;
mod syntax;
mod write;

pub use crate::{
    coords::{Ranks, San},
    resolve::{Mode, NotationError, Reader, ReaderPool, ResolveError, read},
    syntax::{
        Descriptive, Deviations, Direction, MoveText, Numerals, Selector, SyntaxError, System,
        Tandem, parse, shown,
    },
    write::{ChineseStyle, Notation, Script, TandemStyle, write},
};
