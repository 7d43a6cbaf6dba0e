//! A self-contained HTML report of a ruling: the start position, each move of the cycle as a
//! small board with its nature, explanation and arrows (attacker to target), both sides'
//! patterns, and the ruling with its clause. One file, no network; laid out for a phone and for
//! print.

use std::fmt::Write as _;

use xq_core::Board;

use crate::svg::{Arrow, BoardOptions, board_svg};

/// One judged move.
#[derive(Clone, Debug)]
pub struct ReportMove {
    /// Its ply (1-based).
    pub ply: usize,
    /// Who played it, in words.
    pub side: String,
    /// The move in Chinese notation and in ICCS.
    pub notation: String,
    /// Its nature: 将 杀 捉 兑 献 拦 跟 闲.
    pub nature: String,
    /// Why, in words.
    pub explanation: String,
    /// The board after the move.
    pub board: Board,
    /// The move (marked on the board).
    pub m: xq_core::Move,
    /// Arrows: from each attacker to its target.
    pub arrows: Vec<Arrow>,
}

/// What the report shows.
#[derive(Clone, Debug)]
pub struct Report {
    /// The page's language (`zh`, `en`).
    pub lang: String,
    /// The title.
    pub title: String,
    /// Labelled facts under the title (rules, cycle …).
    pub facts: Vec<(String, String)>,
    /// The start position.
    pub start: Board,
    /// The judged moves.
    pub moves: Vec<ReportMove>,
    /// Each side's pattern, labelled.
    pub patterns: Vec<(String, String)>,
    /// The ruling, with its clause.
    pub ruling: String,
    /// Why.
    pub explanation: String,
    /// Further lines (the 60-round count, the game's end …).
    pub notes: Vec<String>,
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

const STYLE: &str = "body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:0;background:#fbf3df;color:#1f1f1f;line-height:1.45}\
main{max-width:60rem;margin:auto;padding:1rem}\
h1{font-size:1.4rem;margin:.2rem 0 .6rem}\
dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem;margin:0 0 1rem}dt{font-weight:600}dd{margin:0}\
.start svg{width:100%;max-width:26rem;height:auto}\
.moves{display:grid;grid-template-columns:repeat(auto-fill,minmax(15rem,1fr));gap:1rem;margin:1rem 0}\
.move{background:#fff8e8;border:1px solid #d9c59a;border-radius:.5rem;padding:.5rem;break-inside:avoid}\
.move svg{width:100%;height:auto}\
.head{display:flex;justify-content:space-between;align-items:baseline;gap:.5rem}\
.nature{font-size:1.6rem;font-weight:700;color:#c0282d}\
.ruling{border:2px solid #c0282d;border-radius:.5rem;padding:.6rem .8rem;background:#fff}\
.ruling strong{font-size:1.15rem}\
@media print{body{background:#fff}.move{border-color:#999}.moves{grid-template-columns:repeat(3,1fr)}}";

/// The report as one HTML document.
pub fn report_html(r: &Report) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"{}\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width,initial-scale=1\"><title>{}</title><style>{STYLE}</style></head><body><main>",
        escape(&r.lang),
        escape(&r.title)
    );
    let _ = write!(out, "<h1>{}</h1><dl>", escape(&r.title));
    for (k, v) in &r.facts {
        let _ = write!(out, "<dt>{}</dt><dd>{}</dd>", escape(k), escape(v));
    }
    out.push_str("</dl><div class=\"start\">");
    out.push_str(&board_svg(&r.start, &BoardOptions::default()));
    out.push_str("</div><div class=\"moves\">");
    for m in &r.moves {
        let options = BoardOptions {
            last_move: Some(m.m),
            arrows: m.arrows.clone(),
            cell: 30,
            ..BoardOptions::default()
        };
        let _ = write!(
            out,
            "<section class=\"move\"><div class=\"head\"><span>{}. {} {}</span><span class=\"nature\">{}</span></div>{}<p>{}</p></section>",
            m.ply,
            escape(&m.side),
            escape(&m.notation),
            escape(&m.nature),
            board_svg(&m.board, &options),
            escape(&m.explanation)
        );
    }
    out.push_str("</div><dl>");
    for (k, v) in &r.patterns {
        let _ = write!(out, "<dt>{}</dt><dd>{}</dd>", escape(k), escape(v));
    }
    let _ = write!(
        out,
        "</dl><div class=\"ruling\"><strong>{}</strong><p>{}</p></div>",
        escape(&r.ruling),
        escape(&r.explanation)
    );
    for note in &r.notes {
        let _ = write!(out, "<p>{}</p>", escape(note));
    }
    out.push_str("</main></body></html>\n");
    out
}
