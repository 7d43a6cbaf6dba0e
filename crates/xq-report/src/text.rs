//! The ruling report as plain text, for a terminal or a printout.

use std::fmt::{self, Write};

use xq_arbiter::{Lang, limit::Claim};
use xq_core::{Color, diagram::text_diagram};

use crate::{
    Report,
    json::pick,
    ruling::{RecordFacts, allowed_words},
};

pub(crate) fn write_text(r: &Report, lang: Lang, out: &mut String) -> fmt::Result {
    let zh = lang == Lang::Chinese;
    writeln!(
        out,
        "{}",
        match (zh, r.rules) {
            (true, "axf") => "xq 裁判 · 亚洲象棋联合会规则",
            (false, "axf") => "xq judge · Asian Xiangqi Federation (AXF) rules",
            (true, _) => "xq 裁判 · 中国象棋协会 2020 棋例",
            (false, _) => "xq judge · CXA 2020 rules (棋例)",
        }
    )?;
    if let Some(game) = r.about.game_words(lang) {
        writeln!(out, "{}{game}", pick(lang, "对局：", "Game: "))?;
    }
    writeln!(
        out,
        "{}{}",
        pick(lang, "开局局面：", "Start: "),
        r.about.start_fen
    )?;
    writeln!(out, "{}", r.about.origin_words(lang))?;
    if let Some(first) = r.moves.first() {
        writeln!(out)?;
        out.push_str(&text_diagram(
            first.before.board(),
            Some(first.before.turn()),
        ));
    }
    writeln!(out)?;
    match &r.cycle {
        Some(c) if zh => writeln!(
            out,
            "循环：第{}至{}着（{}着），局面已出现{}次",
            c.start_ply,
            c.end_ply(),
            c.plies,
            c.occurrences
        )?,
        Some(c) => writeln!(
            out,
            "cycle: plies {}–{} ({} plies); the position has occurred {} times",
            c.start_ply,
            c.end_ply(),
            c.plies,
            c.occurrences
        )?,
        None => writeln!(out, "{}", pick(lang, "无循环重复", "no repetition"))?,
    }
    for m in &r.moves {
        let side = match (m.classified.side, zh) {
            (Color::Red, true) => "红",
            (Color::Black, true) => "黑",
            (Color::Red, false) => "Red  ",
            (Color::Black, false) => "Black",
        };
        if zh {
            writeln!(
                out,
                "{:>3}. {side} {}  {}  {}",
                m.ply,
                m.label(lang),
                m.classified.nature.chinese(),
                m.explanation.get(lang)
            )?;
        } else {
            // In English: the nature in words, unless the explanation starts with it.
            let explanation = m.explanation.get(lang);
            let nature = m.classified.nature.name();
            let label = if explanation.starts_with(&format!("{nature}:")) {
                String::new()
            } else {
                format!("[{nature}]  ")
            };
            writeln!(
                out,
                "{:>3}. {side} {}  {label}{explanation}",
                m.ply,
                m.label(lang),
            )?;
        }
    }
    writeln!(out)?;
    for side in &r.sides {
        let label = match (side.side, zh) {
            (Color::Red, true) => "红方：",
            (Color::Black, true) => "黑方：",
            (Color::Red, false) => "Red:  ",
            (Color::Black, false) => "Black:",
        };
        if side.pattern.is_empty() {
            writeln!(out, "{label} {}", pick(lang, "（无着法）", "(no moves)"))?;
        } else {
            let allowed = allowed_words(side.forbidden, lang);
            if zh {
                writeln!(out, "{label} {} ({allowed})", side.pattern)?;
            } else {
                writeln!(
                    out,
                    "{label} {} ({}): {allowed}",
                    side.pattern_en, side.pattern
                )?;
            }
        }
    }
    let verdict = r.verdict_words(lang);
    let explanation = r.explanation.get(lang);
    if r.clause.is_empty() {
        writeln!(out, "{} {verdict}", pick(lang, "裁决：", "Ruling:"))?;
    } else {
        let axf = r.clause.starts_with("axf.");
        let clause = match (zh, axf) {
            (true, true) => format!("亚洲规则 {}", r.clause),
            (true, false) => format!("第{}条", r.clause),
            (false, true) => format!("AXF rule {}", r.clause),
            (false, false) => format!("clause {}", r.clause),
        };
        if zh {
            writeln!(out, "裁决：{verdict}（{clause}）：{explanation}")?;
        } else {
            writeln!(out, "Ruling: {verdict} ({clause}): {explanation}")?;
        }
    }
    let l = &r.limit;
    let claim = |c: &Claim| match (c.from_ply, zh) {
        (Some(p), true) => format!("第{p}着起可提和"),
        (Some(p), false) => format!("may claim from ply {p}"),
        (None, true) => format!("计{}着，未到", c.counted_plies),
        (None, false) => format!("{} plies counted, not yet", c.counted_plies),
    };
    let (rounds, plies, red_checks, black_checks) = (
        l.rounds,
        l.plies_without_capture,
        l.checks.red,
        l.checks.black,
    );
    let (red, black) = (claim(&l.claim.red), claim(&l.claim.black));
    if zh {
        writeln!(
            out,
            "自然限着：{rounds}回合；距上次吃子{plies}着（将军：红{red_checks}，黑{black_checks}）；红方提和：{red}；黑方提和：{black}"
        )?;
    } else {
        writeln!(
            out,
            "60-round limit: {rounds} rounds; {plies} plies since the last capture (checks: Red {red_checks}, Black {black_checks}); Red claims: {red}; Black claims: {black}"
        )?;
    }
    if let Some(o) = &r.opening {
        writeln!(
            out,
            "{} {}",
            pick(lang, "前25回合：", "First rounds:"),
            pick(lang, &o.why_zh, &o.why_en)
        )?;
    }
    if let Some(rec) = &r.record {
        write_record(out, rec, lang)?;
    }
    let e = &r.end;
    let tag = match (e.result_tag.map(|d| d.pgn()), e.agrees, zh) {
        (Some(t), Some(true), true) => format!("；记录结果 {t} 相符"),
        (Some(t), Some(false), true) => format!("；记录结果 {t} 不符"),
        (Some(t), Some(true), false) => format!("; the record's result {t} agrees"),
        (Some(t), Some(false), false) => format!("; the record's result {t} does not agree"),
        _ => String::new(),
    };
    writeln!(
        out,
        "{} {}{tag}",
        pick(lang, "终局：", "End:"),
        pick(lang, &e.why_zh, &e.why_en)
    )
}

/// What reading the record found: whether a claim on it is heard, and each missing or unreadable
/// move with how it was reconstructed (the ruling's and the 60-round audit's text).
pub(crate) fn write_record(out: &mut impl Write, rec: &RecordFacts, lang: Lang) -> fmt::Result {
    let zh = lang == Lang::Chinese;
    let a = &rec.admissibility;
    writeln!(
        out,
        "{} {}",
        pick(lang, "记录：", "Record:"),
        pick(lang, &a.why_zh, &a.why_en)
    )?;
    for gap in &rec.gaps {
        let what = gap.text.as_deref().map_or_else(
            || pick(lang, "（漏记）", "(left out)").to_owned(),
            |t| format!("`{}`", xq_core::text::visible(&xq_notation::shown(t))),
        );
        let fix = match (gap.reconstructed, zh) {
            (Some(m), true) => format!("按后续着法补为 {m}（{}种可能）", gap.candidates),
            (Some(m), false) => format!(
                "taken as {m} from the moves after it ({} possible)",
                gap.candidates
            ),
            (None, true) => "无法补出，其后不能复盘".to_owned(),
            (None, false) => {
                "cannot be reconstructed; the record cannot be replayed beyond it".to_owned()
            }
        };
        if zh {
            writeln!(out, "  第{}着 {what}：{fix}", gap.ply)?;
        } else {
            writeln!(out, "  ply {} {what}: {fix}", gap.ply)?;
        }
    }
    Ok(())
}
