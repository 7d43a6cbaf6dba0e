//! Xiangqi arbitration reports: what a ruling report contains, and its renderings as text, JSON
//! and one self-contained HTML page; the 60-round audit as text, JSON and CSV; and the forbidden
//! moves of the side to move ([`BanReport`]) as text, JSON and a UCCI `banmoves` line.
//!
//! The model ([`Report`], [`LimitAudit`]) is built from what the arbiter found
//! ([`xq_arbiter::Judgement`], the procedure facts of [`xq_arbiter::procedure`]) and the line it
//! is about ([`Line`]: a start position and moves, or a game record read as an arbiter reads a
//! scoresheet). Every rendering takes the language: explanations are kept in Chinese and English.
//! The `xq judge` and `xq limit` commands, and the Python package, print exactly these renderings.
//! The library builds strings; it never prints or writes files.
//!
//! ```
//! use xq_arbiter::{JudgeOptions, Lang, Verdict};
//! use xq_core::{Move, Position};
//! use xq_report::{Line, Report};
//!
//! // Red's cannon and Black's horse go back and forth twice: neither side attacks anything.
//! let moves: Vec<Move> = ["h2e2", "h9g7", "e2h2", "g7h9", "h2e2", "h9g7", "e2h2", "g7h9"]
//!     .iter()
//!     .map(|m| m.parse())
//!     .collect::<Result<_, _>>()?;
//! let line = Line::new(Position::default(), moves);
//! let report = Report::judge(&line, JudgeOptions::default());
//! assert_eq!(report.verdict, Verdict::Draw);
//!
//! let json: serde_json::Value = serde_json::from_str(&report.to_json(Lang::English)?)?;
//! assert_eq!(json["verdict"], "draw");
//! assert!(report.to_text(Lang::Chinese).contains("双方不变作和"));
//! assert!(report.to_html(Lang::English).starts_with("<!DOCTYPE html>"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs, clippy::print_stdout, clippy::print_stderr)]

mod audit;
mod banned;
mod html;
mod json;
mod line;
mod ruling;
mod scan;
mod text;

pub use xq_arbiter::Lang;

pub use crate::{
    audit::LimitAudit,
    banned::BanReport,
    line::Line,
    ruling::{About, CycleFacts, RecordFacts, Report, ReportMove, SidePattern, Words},
    scan::{Scan, ScanEntry},
};

/// The time to stamp a report with ([`Report::stamped`]), in seconds since 1970: the
/// `SOURCE_DATE_EPOCH` environment variable when set (the reproducible-builds convention, so a
/// report can be made again byte for byte, and the CLI's and the Python package's agree), else
/// the clock.
pub fn now() -> i64 {
    std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
        })
}

impl Report {
    /// The report as plain text: the board before the first judged move, the cycle, every move
    /// with its nature and why, both sides' patterns, the ruling with its clause, the 60-round
    /// count, and the first-rounds rule, the record's gaps and the game's end where they apply.
    pub fn to_text(&self, lang: Lang) -> String {
        let mut out = String::new();
        // Writing to a `String` cannot fail.
        let _ = text::write_text(self, lang, &mut out);
        out
    }

    /// The report in JSON, on one line without a final newline: the contract of
    /// `xq judge --format json` (documented in `docs/cli.md`; fields are added, never renamed).
    pub fn to_json(&self, lang: Lang) -> serde_json::Result<String> {
        serde_json::to_string(&json::ReportJson::new(self, lang))
    }

    /// The report in JSON as [`Report::to_json`] gives it (the same fields in the same order),
    /// laid out on lines indented by `indent` spaces a level.
    pub fn to_json_indented(&self, lang: Lang, indent: usize) -> serde_json::Result<String> {
        use serde::Serialize;
        let spaces = vec![b' '; indent];
        let mut out = Vec::new();
        let formatter = serde_json::ser::PrettyFormatter::with_indent(&spaces);
        let mut ser = serde_json::Serializer::with_formatter(&mut out, formatter);
        json::ReportJson::new(self, lang).serialize(&mut ser)?;
        // serde_json writes UTF-8.
        Ok(String::from_utf8_lossy(&out).into_owned())
    }

    /// The report as one self-contained HTML page (inline SVG boards, no network), ending in a
    /// newline.
    pub fn to_html(&self, lang: Lang) -> String {
        html::write_html(self, lang)
    }
}
