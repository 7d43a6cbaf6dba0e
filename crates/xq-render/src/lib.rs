//! Xiangqi pictures: SVG board diagrams that look the same everywhere (the few glyphs they need
//! are embedded as outlines, no font is required), and a self-contained HTML report of a ruling.
//! The library builds strings; it never prints or writes files.

#![warn(missing_docs, clippy::print_stdout, clippy::print_stderr)]

mod glyphs;
pub mod html;
pub mod svg;

pub use crate::{
    html::{Report, ReportMove, report_html},
    svg::{Arrow, ArrowKind, BoardOptions, board_svg},
};
