//! Xiangqi pictures: SVG board diagrams that look the same everywhere (the few glyphs they need
//! are embedded as outlines, no font is required), with arrows and the last move marked; and
//! [`text_font`], a small font of the characters a page's text uses, for a page to inline. The
//! HTML ruling report that shows them is `xq-report`'s. The library builds strings; it never
//! prints or writes files.
//!
//! ```
//! use xq_core::{Board, Move, Square};
//! use xq_render::{Arrow, ArrowKind, BoardOptions, board_svg};
//!
//! let cannon_to_centre: Move = "h2e2".parse()?;
//! let options = BoardOptions {
//!     last_move: Some(cannon_to_centre),
//!     arrows: vec![Arrow {
//!         from: Square::E2,
//!         to: Square::E6,
//!         kind: ArrowKind::Attack,
//!     }],
//!     ..BoardOptions::default()
//! };
//! let svg = board_svg(&Board::start(), &options);
//! assert!(svg.starts_with("<svg"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs, clippy::print_stdout, clippy::print_stderr)]

mod font;
mod glyphs;
mod svg;

pub use crate::{
    font::{TEXT_FONT_FAMILY, TextFont, text_font, text_font_has},
    svg::{Arrow, ArrowKind, BoardOptions, board_svg},
};
