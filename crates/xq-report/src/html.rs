//! The ruling report as one self-contained HTML page: the start position, each judged move as a
//! small board with its nature, explanation and arrows (attacker to target), both sides'
//! patterns, and the ruling with its clause. One file, no network; laid out for a phone and for
//! print.

use std::fmt::Write as _;

use base64::prelude::{BASE64_STANDARD, Engine as _};
use xq_arbiter::{Lang, Reason};
use xq_core::Color;
use xq_render::{Arrow, ArrowKind, BoardOptions, TEXT_FONT_FAMILY, board_svg, text_font};

use crate::{
    Report,
    json::pick,
    ruling::{ReportMove, allowed_words, side_words},
};

pub(crate) fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The reader's fonts, after the inlined one: for Latin text, and for what the inlined one lacks.
const FONTS: &str = "system-ui,-apple-system,'Segoe UI',sans-serif";

const STYLE: &str = "body{margin:0;background:#fbf3df;color:#1f1f1f;line-height:1.45}\
main{max-width:60rem;margin:auto;padding:1rem}\
h1{font-size:1.4rem;margin:.2rem 0 .6rem}\
dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem;margin:0 0 1rem}dt{font-weight:600}dd{margin:0;overflow-wrap:anywhere}\
.start svg{width:100%;max-width:26rem;height:auto}\
.moves{display:grid;grid-template-columns:repeat(auto-fill,minmax(15rem,1fr));gap:1rem;margin:1rem 0}\
.move{background:#fff8e8;border:1px solid #d9c59a;border-radius:.5rem;padding:.5rem;break-inside:avoid}\
.move svg{width:100%;height:auto}\
.head{display:flex;justify-content:space-between;align-items:baseline;gap:.5rem}\
.nature{font-size:1.6rem;font-weight:700;color:#c0282d}\
.ruling{border:2px solid #c0282d;border-radius:.5rem;padding:.6rem .8rem;background:#fff}\
.ruling strong{font-size:1.15rem}\
.font-note{font-size:.85rem;color:#6b5a3a}\
@media print{body{background:#fff}.move{border-color:#999}.moves{grid-template-columns:repeat(3,1fr)}}";

/// Arrows from each attacker to its target: the checking pieces to the king, the chasers to
/// what they chase.
fn arrows(m: &ReportMove) -> Vec<Arrow> {
    let attack = |from, to| Arrow {
        from,
        to,
        kind: ArrowKind::Attack,
    };
    match &m.classified.reason {
        Reason::Check { checkers, chases } => {
            let mut after = m.before.clone();
            after.play_unchecked(m.classified.m);
            let king = after.king(m.classified.side.other());
            let mut a: Vec<Arrow> = checkers.iter().map(|&c| attack(c, king)).collect();
            a.extend(chases.iter().map(|ch| attack(ch.attacker, ch.target)));
            a
        }
        Reason::Chase { chases } => chases
            .iter()
            .map(|ch| attack(ch.attacker, ch.target))
            .collect(),
        _ => Vec::new(),
    }
}

pub(crate) fn write_html(r: &Report, lang: Lang) -> String {
    let title = pick(lang, "xq 裁判报告", "xq ruling report");
    let mut body = String::new();
    write_report(r, lang, &mut body);
    page(title, lang, &body)
}

/// The page: `title`, then `body`, with the text's font inlined (a subset of the glyphs xq
/// embeds, holding just the characters the page uses, so that it reads without any CJK font on
/// the reader's machine) and a note naming the characters the font lacks, if any.
pub(crate) fn page(title: &str, lang: Lang, body: &str) -> String {
    let font = text_font(&format!("{title}{body}"));
    let face = font.ttf.as_ref().map_or_else(String::new, |ttf| {
        format!(
            "@font-face{{font-family:\"{TEXT_FONT_FAMILY}\";src:url(data:font/ttf;base64,{}) format(\"truetype\")}}",
            BASE64_STANDARD.encode(ttf)
        )
    });
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"{}\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width,initial-scale=1\"><title>{title}</title><style>{face}body{{font-family:\"{TEXT_FONT_FAMILY}\",{FONTS}}}{STYLE}</style></head><body><main><h1>{title}</h1>{body}",
        pick(lang, "zh", "en"),
    );
    if !font.missing.is_empty() {
        let chars: Vec<String> = font.missing.iter().map(char::to_string).collect();
        let _ = write!(
            out,
            "<p class=\"font-note\">{}{}</p>",
            pick(
                lang,
                "以下字符不在本页内嵌的字体中，能否显示取决于读者的字体：",
                "These characters are not in the page's embedded font and show only if the reader's fonts have them: "
            ),
            escape(&chars.join(" "))
        );
    }
    out.push_str("</main></body></html>\n");
    out
}

/// One report: its facts, boards, patterns, ruling and notes.
pub(crate) fn write_report(r: &Report, lang: Lang, out: &mut String) {
    let zh = lang == Lang::Chinese;
    out.push_str("<dl>");
    let mut facts = Vec::new();
    if let Some(game) = r.about.game_words(lang) {
        facts.push((pick(lang, "对局", "Game"), game));
    }
    facts.push((pick(lang, "规则", "Rules"), r.rules.to_owned()));
    facts.push((pick(lang, "开局局面", "Start"), r.about.start_fen.clone()));
    facts.push((pick(lang, "报告", "Report"), r.about.origin_words(lang)));
    if let Some(c) = &r.cycle {
        facts.push((
            pick(lang, "循环", "Cycle"),
            if zh {
                format!(
                    "第{}至{}着，局面出现{}次",
                    c.start_ply,
                    c.end_ply(),
                    c.occurrences
                )
            } else {
                format!(
                    "plies {}–{}, the position has occurred {} times",
                    c.start_ply,
                    c.end_ply(),
                    c.occurrences
                )
            },
        ));
    }
    for (k, v) in &facts {
        let _ = write!(out, "<dt>{}</dt><dd>{}</dd>", escape(k), escape(v));
    }
    out.push_str("</dl><div class=\"start\">");
    let start = r.moves.first().map_or(&r.start, |m| &m.before);
    out.push_str(&board_svg(
        start.board(),
        &BoardOptions {
            side_to_move: Some(start.turn()),
            ..BoardOptions::default()
        },
    ));
    out.push_str("</div><div class=\"moves\">");
    for m in &r.moves {
        let mut after = m.before.clone();
        after.play_unchecked(m.classified.m);
        let options = BoardOptions {
            last_move: Some(m.classified.m),
            arrows: arrows(m),
            cell: 30,
            side_to_move: Some(after.turn()),
            ..BoardOptions::default()
        };
        let side = match (m.classified.side, zh) {
            (Color::Red, true) => "红",
            (Color::Black, true) => "黑",
            (c, false) => side_words(c, lang),
        };
        let _ = write!(
            out,
            "<section class=\"move\"><div class=\"head\"><span>{}. {side} {}</span><span class=\"nature\">{}</span></div>{}<p>{}</p></section>",
            m.ply,
            escape(&m.label(lang)),
            m.classified.nature.chinese(),
            board_svg(after.board(), &options),
            escape(m.explanation.get(lang))
        );
    }
    out.push_str("</div><dl>");
    for side in &r.sides {
        let _ = write!(
            out,
            "<dt>{}</dt><dd>{}</dd>",
            side_words(side.side, lang),
            escape(&format!(
                "{} ({})",
                if zh {
                    side.pattern.clone()
                } else {
                    format!("{} ({})", side.pattern_en, side.pattern)
                },
                allowed_words(side.forbidden, lang)
            ))
        );
    }
    let verdict = r.verdict_words(lang);
    let ruling = if r.clause.is_empty() {
        verdict.to_owned()
    } else {
        format!("{verdict} ({})", r.clause)
    };
    let _ = write!(
        out,
        "</dl><div class=\"ruling\"><strong>{}</strong><p>{}</p></div>",
        escape(&ruling),
        escape(r.explanation.get(lang))
    );
    let mut notes = vec![pick(lang, &r.end.why_zh, &r.end.why_en)];
    if let Some(o) = &r.opening {
        notes.push(pick(lang, &o.why_zh, &o.why_en));
    }
    if let Some(rec) = &r.record {
        notes.push(pick(
            lang,
            &rec.admissibility.why_zh,
            &rec.admissibility.why_en,
        ));
    }
    for note in notes {
        let _ = write!(out, "<p>{}</p>", escape(note));
    }
}
