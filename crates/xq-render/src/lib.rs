//! Xiangqi pictures: SVG board diagrams that look the same everywhere (the few glyphs they need
//! are embedded as outlines, no font is required), with arrows and the last move marked. The
//! HTML ruling report that shows them is `xq-report`'s. The library builds strings; it never
//! prints or writes files.

#![warn(missing_docs, clippy::print_stdout, clippy::print_stderr)]

mod glyphs;
pub mod svg;

pub use crate::svg::{Arrow, ArrowKind, BoardOptions, board_svg};
