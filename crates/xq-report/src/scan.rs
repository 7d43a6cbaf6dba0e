//! Every repetition of a line, each ruled where it ends (`xq judge --scan`): an arbiter going
//! through a whole game, or finding where a claim could have been made.

use std::fmt::Write as _;

use serde::Serialize;
use xq_arbiter::{JudgeOptions, Lang, cycle::Repetition};

use crate::{
    Line, Report,
    html::{escape, page, write_report},
    json::pick,
};

/// The repetitions of a line, each with the report of the line up to its last move.
#[derive(Clone, Debug)]
pub struct Scan {
    /// One entry per repetition, in order.
    pub entries: Vec<ScanEntry>,
}

/// One repetition and its ruling.
#[derive(Clone, Debug)]
pub struct ScanEntry {
    /// Where it stands in the line.
    pub repetition: Repetition,
    /// The report on the line up to its last move.
    pub report: Report,
}

impl ScanEntry {
    /// "plies 5–12" in words.
    pub(crate) fn heading(&self, lang: Lang) -> String {
        let Repetition {
            first_ply,
            last_ply,
        } = self.repetition;
        match lang {
            Lang::Chinese => format!("循环重复：第{first_ply}至{last_ply}着"),
            Lang::English => format!("repetition: plies {first_ply}–{last_ply}"),
        }
    }
}

pub(crate) fn no_repetition(lang: Lang) -> &'static str {
    pick(
        lang,
        "着法中没有循环重复",
        "no move of the line repeats a position",
    )
}

impl Scan {
    /// Finds every repetition of `line` (a stretch of moves each of which brings back a position
    /// seen before) and judges the line up to the stretch's last move.
    pub fn new(line: &Line, options: JudgeOptions) -> Scan {
        let entries = xq_arbiter::cycle::repetitions(&line.positions())
            .into_iter()
            .map(|repetition| ScanEntry {
                repetition,
                report: Report::judge(&line.until(repetition.last_ply), options),
            })
            .collect();
        Scan { entries }
    }

    /// Every report with its moves written in `notation` as well ([`Report::with_notation`]).
    #[must_use]
    pub fn with_notation(mut self, notation: xq_notation::Notation) -> Scan {
        for e in &mut self.entries {
            e.report = e.report.clone().with_notation(notation);
        }
        self
    }

    /// Every report stamped with the time it was made ([`Report::stamped`]).
    #[must_use]
    pub fn stamped(mut self, unix_seconds: i64) -> Scan {
        for e in &mut self.entries {
            e.report = e.report.clone().stamped(unix_seconds);
        }
        self
    }

    /// Each repetition's heading, then its report as [`Report::to_text`] writes it.
    pub fn to_text(&self, lang: Lang) -> String {
        if self.entries.is_empty() {
            return format!("{}\n", no_repetition(lang));
        }
        let mut out = String::new();
        for (i, e) in self.entries.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            let _ = writeln!(out, "== {} ==", e.heading(lang));
            out.push_str(&e.report.to_text(lang));
        }
        out
    }

    /// A JSON array, one object per repetition: `first_ply`, `last_ply` and `report` (the
    /// contract of `xq judge --format json`); on one line, no final newline.
    pub fn to_json(&self, lang: Lang) -> serde_json::Result<String> {
        #[derive(Serialize)]
        struct Entry {
            #[serde(flatten)]
            repetition: Repetition,
            report: serde_json::Value,
        }
        let entries = self
            .entries
            .iter()
            .map(|e| {
                Ok(Entry {
                    repetition: e.repetition,
                    report: serde_json::from_str(&e.report.to_json(lang)?)?,
                })
            })
            .collect::<serde_json::Result<Vec<_>>>()?;
        serde_json::to_string(&entries)
    }

    /// One self-contained HTML page with a section per repetition.
    pub fn to_html(&self, lang: Lang) -> String {
        write_html(self, lang)
    }
}

/// One page with a report for each repetition of a line (`xq judge --scan`).
fn write_html(scan: &Scan, lang: Lang) -> String {
    let title = pick(
        lang,
        "xq 裁判报告：全部循环",
        "xq ruling report: every repetition",
    );
    let mut out = String::new();
    if scan.entries.is_empty() {
        let _ = write!(out, "<p>{}</p>", escape(no_repetition(lang)));
    }
    for e in &scan.entries {
        let _ = write!(
            out,
            "<section class=\"repetition\"><h2>{}</h2>",
            escape(&e.heading(lang))
        );
        write_report(&e.report, lang, &mut out);
        out.push_str("</section>");
    }
    page(title, lang, &out)
}
