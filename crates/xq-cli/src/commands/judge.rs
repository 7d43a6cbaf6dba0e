//! `xq judge`.

use std::io::Write;

use serde::Serialize;
use xq_arbiter::{
    JudgeOptions, Judgement, Lang, Profile, Reason, explain,
    judge::JudgedMove,
    limit::{CapApplies, LimitOptions, LimitReport},
    procedure::{Decision, EndKind, SelfKill, admissibility, game_end},
};
use xq_core::{Color, diagram::text_diagram};
use xq_notation::{ChineseStyle, Notation, write};

use xq_render::{Arrow, ArrowKind, ReportMove, report_html};

use super::line::{Source, read_line};

use crate::{
    CliError, ExitStatus,
    args::{JudgeArgs, JudgeFormat, Lang as LangArg, Rules},
};

/// The JSON contract of `xq judge` (tests and tools rely on it: extend, do not rename).
#[derive(Serialize)]
struct Report {
    verdict: &'static str,
    rules: &'static str,
    clause: &'static str,
    explanation: String,
    cycle: Option<CycleJson>,
    sides: SidesJson,
    limit: LimitReport,
    moves: Vec<MoveJson>,
    /// The first-rounds rule, when it bears on the repetition.
    #[serde(skip_serializing_if = "Option::is_none")]
    opening: Option<OpeningJson>,
    /// What reading the record found (a file only).
    #[serde(skip_serializing_if = "Option::is_none")]
    record: Option<RecordJson>,
    /// How the game ended on the board.
    end: EndJson,
}

#[derive(Serialize)]
struct OpeningJson {
    rounds: u32,
    round: u32,
    cycles: usize,
    applies: bool,
    explanation: String,
}

#[derive(Serialize)]
struct RecordJson {
    missing_or_unreadable: usize,
    admissible: bool,
    explanation: String,
    gaps: Vec<xq_record::recover::Gap>,
    unread: usize,
}

#[derive(Serialize)]
struct EndJson {
    how: EndKind,
    decision: Option<&'static str>,
    ply: Option<usize>,
    result_tag: Option<&'static str>,
    agrees: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    self_kill: Option<SelfKill>,
    explanation: String,
}

#[derive(Serialize)]
struct CycleJson {
    /// The ply (1-based) of the cycle's first move.
    start_ply: usize,
    plies: usize,
    occurrences: usize,
}

#[derive(Serialize)]
struct SidesJson {
    red: SideJson,
    black: SideJson,
}

#[derive(Serialize)]
struct SideJson {
    pattern: String,
    forbidden: bool,
}

#[derive(Serialize)]
struct MoveJson {
    ply: usize,
    side: &'static str,
    iccs: String,
    chinese: String,
    kind: &'static str,
    reason: serde_json::Value,
    explanation: String,
}

pub(crate) fn run(args: &JudgeArgs, out: &mut dyn Write) -> Result<ExitStatus, CliError> {
    let line = read_line(&Source {
        file: args.file.as_ref(),
        game: args.game,
        fen: args.fen.as_deref(),
        moves: args.moves.as_deref(),
        input: &args.input,
    })?;
    let (start, moves) = (&line.start, &line.moves);
    let options = JudgeOptions {
        limit: LimitOptions {
            rounds: args.limit_rounds,
            check_cap: args.check_cap,
            cap_applies: if args.cap_both {
                CapApplies::Both
            } else {
                CapApplies::Claimant
            },
        },
        profile: match args.rules {
            Rules::Cxa2020 => Profile::CXA2020,
            Rules::Axf => Profile::AXF,
        },
        // The first-rounds rule is Chinese tournament procedure: on by default only there.
        opening_rounds: args.opening_rounds.unwrap_or(match args.rules {
            Rules::Cxa2020 => 25,
            Rules::Axf => 0,
        }),
        ..JudgeOptions::default()
    };
    let judgement = xq_arbiter::judge(start, moves, options);
    let lang = match args.lang {
        LangArg::Zh => Lang::Chinese,
        LangArg::En => Lang::English,
    };
    let positions = xq_arbiter::cycle::positions(start, moves);
    let end = game_end(
        &positions,
        &judgement,
        &judgement.limit,
        line.self_kill,
        line.result,
    );
    let mut report = report(&judgement, lang);
    let pick = |zh: &str, en: &str| {
        if lang == Lang::Chinese {
            zh.to_owned()
        } else {
            en.to_owned()
        }
    };
    report.opening = judgement.opening.as_ref().map(|o| OpeningJson {
        rounds: o.rounds,
        round: o.round,
        cycles: o.cycles,
        applies: o.applies,
        explanation: pick(&o.why_zh, &o.why_en),
    });
    report.record = line.record.as_ref().map(|r| {
        let a = admissibility(r.missing_or_unreadable());
        RecordJson {
            missing_or_unreadable: a.missing_or_unreadable,
            admissible: a.admissible,
            explanation: pick(&a.why_zh, &a.why_en),
            gaps: r.gaps.clone(),
            unread: r.unread,
        }
    });
    report.end = EndJson {
        how: end.how,
        decision: end.decision.map(Decision::pgn),
        ply: end.ply,
        result_tag: end.result_tag.map(Decision::pgn),
        agrees: end.agrees,
        self_kill: line.self_kill,
        explanation: pick(&end.why_zh, &end.why_en),
    };
    let mut bytes = Vec::new();
    match args.format {
        JudgeFormat::Json => {
            serde_json::to_writer(&mut bytes, &report).map_err(std::io::Error::from)?;
            bytes.push(b'\n');
        }
        JudgeFormat::Text => text(&judgement, &report, lang, &mut bytes)?,
        JudgeFormat::Html => bytes = html(&judgement, &report, start, lang).into_bytes(),
    }
    super::output::emit(args.output.as_deref(), &bytes, out)?;
    Ok(ExitStatus::Success)
}

/// The report as a self-contained HTML page: a board after each judged move, with arrows from
/// each attacker to its target.
fn html(j: &Judgement, r: &Report, start: &xq_core::Position, lang: Lang) -> String {
    let zh = lang == Lang::Chinese;
    let moves = j
        .moves
        .iter()
        .zip(&r.moves)
        .map(|(m, shown)| {
            let mut after = m.before.clone();
            after.play_unchecked(m.classified.m);
            let attack = |from, to| Arrow {
                from,
                to,
                kind: ArrowKind::Attack,
            };
            let arrows = match &m.classified.reason {
                Reason::Check { checkers, chases } => {
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
            };
            ReportMove {
                ply: m.ply,
                side: if zh {
                    if shown.side == "red" { "红" } else { "黑" }
                } else if shown.side == "red" {
                    "Red"
                } else {
                    "Black"
                }
                .to_owned(),
                notation: format!("{} {}", shown.chinese, shown.iccs),
                nature: shown.kind.to_owned(),
                explanation: shown.explanation.clone(),
                board: after.board().clone(),
                m: m.classified.m,
                arrows,
            }
        })
        .collect();
    let first = j
        .moves
        .first()
        .map_or_else(|| start.board().clone(), |m| m.before.board().clone());
    let pick = |a: &str, b: &str| if zh { a.to_owned() } else { b.to_owned() };
    let mut facts = vec![(pick("规则", "Rules"), r.rules.to_owned())];
    if let Some(c) = &r.cycle {
        facts.push((
            pick("循环", "Cycle"),
            if zh {
                format!(
                    "第{}至{}着，局面出现{}次",
                    c.start_ply,
                    c.start_ply + c.plies - 1,
                    c.occurrences
                )
            } else {
                format!(
                    "plies {}–{}, the position has occurred {} times",
                    c.start_ply,
                    c.start_ply + c.plies - 1,
                    c.occurrences
                )
            },
        ));
    }
    let verdict = verdict_words(r.verdict, zh);
    let ruling = if r.clause.is_empty() {
        verdict.to_owned()
    } else {
        format!("{verdict} ({})", r.clause)
    };
    let pattern_words = |side: &SideJson| {
        let allowed = if side.forbidden {
            pick("禁止着法", "forbidden")
        } else {
            pick("允许着法", "allowed")
        };
        format!("{} ({allowed})", side.pattern)
    };
    let mut notes = vec![r.end.explanation.clone()];
    if let Some(o) = &r.opening {
        notes.push(o.explanation.clone());
    }
    if let Some(rec) = &r.record {
        notes.push(rec.explanation.clone());
    }
    report_html(&xq_render::Report {
        lang: pick("zh", "en"),
        title: pick("xq 裁判报告", "xq ruling report"),
        facts,
        start: first,
        moves,
        patterns: vec![
            (pick("红方", "Red"), pattern_words(&r.sides.red)),
            (pick("黑方", "Black"), pattern_words(&r.sides.black)),
        ],
        ruling,
        explanation: r.explanation.clone(),
        notes,
    })
}

/// The verdict in words.
fn verdict_words(verdict: &str, zh: bool) -> &'static str {
    match (verdict, zh) {
        ("draw", true) => "双方不变作和",
        ("red_must_change", true) => "红方须变着，不变判负",
        ("black_must_change", true) => "黑方须变着，不变判负",
        (_, true) => "着法未形成循环",
        ("draw", false) => "draw if neither side changes",
        ("red_must_change", false) => "Red must change or lose",
        ("black_must_change", false) => "Black must change or lose",
        _ => "no repetition",
    }
}

fn report(j: &Judgement, lang: Lang) -> Report {
    let (why, sides) = (
        if lang == Lang::Chinese {
            j.why_zh.clone()
        } else {
            j.why_en.clone()
        },
        match &j.sides {
            Some(s) => SidesJson {
                red: SideJson {
                    pattern: s.red.name.clone(),
                    forbidden: s.red.forbidden,
                },
                black: SideJson {
                    pattern: s.black.name.clone(),
                    forbidden: s.black.forbidden,
                },
            },
            None => {
                let side = |c: Color| {
                    let moves: Vec<&xq_arbiter::Classified> = j
                        .moves
                        .iter()
                        .filter(|m| m.classified.side == c)
                        .map(|m| &m.classified)
                        .collect();
                    let p = xq_arbiter::Pattern::of(
                        &moves,
                        Profile::by_name(j.rules).unwrap_or_default(),
                        Default::default(),
                    );
                    SideJson {
                        pattern: p.name,
                        forbidden: p.forbidden,
                    }
                };
                SidesJson {
                    red: side(Color::Red),
                    black: side(Color::Black),
                }
            }
        },
    );
    Report {
        verdict: j.verdict.name(),
        rules: j.rules,
        clause: j.clause,
        explanation: why,
        cycle: j.cycle.map(|c| CycleJson {
            start_ply: c.start_ply + 1,
            plies: c.plies,
            occurrences: c.occurrences,
        }),
        sides,
        limit: j.limit.clone(),
        moves: j.moves.iter().map(|m| move_json(m, lang)).collect(),
        opening: None,
        record: None,
        end: EndJson {
            how: EndKind::Unfinished,
            decision: None,
            ply: None,
            result_tag: None,
            agrees: None,
            self_kill: None,
            explanation: String::new(),
        },
    }
}

fn move_json(m: &JudgedMove, lang: Lang) -> MoveJson {
    let c = &m.classified;
    MoveJson {
        ply: m.ply,
        side: c.side.name(),
        iccs: c.m.to_string(),
        chinese: write(&m.before, c.m, Notation::Chinese(ChineseStyle::default())),
        kind: c.nature.chinese(),
        reason: serde_json::to_value(&c.reason).unwrap_or(serde_json::Value::Null),
        explanation: explain(&m.before, c, lang),
    }
}

fn text(j: &Judgement, r: &Report, lang: Lang, out: &mut dyn Write) -> std::io::Result<()> {
    let zh = lang == Lang::Chinese;
    writeln!(
        out,
        "{}",
        match (zh, j.rules) {
            (true, "axf") => "xq 裁判 · 亚洲象棋联合会规则",
            (false, "axf") => "xq judge · Asian Xiangqi Federation (AXF) rules",
            (true, _) => "xq 裁判 · 中国象棋协会 2020 棋例",
            (false, _) => "xq judge · CXA 2020 rules (棋例)",
        }
    )?;
    if let Some(first) = j.moves.first() {
        writeln!(out)?;
        write!(
            out,
            "{}",
            text_diagram(first.before.board(), Some(first.before.turn()))
        )?;
    }
    writeln!(out)?;
    match &r.cycle {
        Some(c) => writeln!(
            out,
            "{}",
            if zh {
                format!(
                    "循环：第{}至{}着（{}着），局面已出现{}次",
                    c.start_ply,
                    c.start_ply + c.plies - 1,
                    c.plies,
                    c.occurrences
                )
            } else {
                format!(
                    "cycle: plies {}–{} ({} plies); the position has occurred {} times",
                    c.start_ply,
                    c.start_ply + c.plies - 1,
                    c.plies,
                    c.occurrences
                )
            }
        )?,
        None => writeln!(
            out,
            "{}",
            if zh {
                "无循环重复"
            } else {
                "no repetition"
            }
        )?,
    }
    for m in &r.moves {
        let side = match (m.side, zh) {
            ("red", true) => "红",
            ("black", true) => "黑",
            ("red", false) => "Red  ",
            _ => "Black",
        };
        writeln!(
            out,
            "{:>3}. {side} {} {}  {}  {}",
            m.ply, m.chinese, m.iccs, m.kind, m.explanation
        )?;
    }
    writeln!(out)?;
    let allowed = |f: bool| match (f, zh) {
        (true, true) => "禁止着法",
        (false, true) => "允许着法",
        (true, false) => "forbidden",
        (false, false) => "allowed",
    };
    for (label, side) in [
        (if zh { "红方：" } else { "Red:  " }, &r.sides.red),
        (if zh { "黑方：" } else { "Black:" }, &r.sides.black),
    ] {
        if side.pattern.is_empty() {
            writeln!(
                out,
                "{label} {}",
                if zh { "（无着法）" } else { "(no moves)" }
            )?;
        } else {
            writeln!(
                out,
                "{label} {} ({})",
                side.pattern,
                allowed(side.forbidden)
            )?;
        }
    }
    let verdict = verdict_words(r.verdict, zh);
    if r.clause.is_empty() {
        writeln!(out, "{} {verdict}", if zh { "裁决：" } else { "Ruling:" })?;
    } else {
        let axf = r.clause.starts_with("axf.");
        let clause = match (zh, axf) {
            (true, true) => format!("亚洲规则 {}", r.clause),
            (true, false) => format!("第{}条", r.clause),
            (false, true) => format!("AXF rule {}", r.clause),
            (false, false) => format!("clause {}", r.clause),
        };
        if zh {
            writeln!(out, "裁决：{verdict}（{clause}）：{}", r.explanation)?;
        } else {
            writeln!(out, "Ruling: {verdict} ({clause}): {}", r.explanation)?;
        }
    }
    let l = &r.limit;
    let claim = |c: &xq_arbiter::limit::Claim| match (c.from_ply, zh) {
        (Some(p), true) => format!("第{p}着起可提和"),
        (Some(p), false) => format!("may claim from ply {p}"),
        (None, true) => format!("计{}着，未到", c.counted_plies),
        (None, false) => format!("{} plies counted, not yet", c.counted_plies),
    };
    if zh {
        writeln!(
            out,
            "自然限着：{}回合；距上次吃子{}着（将军：红{}，黑{}）；红方提和：{}；黑方提和：{}",
            l.rounds,
            l.plies_without_capture,
            l.checks.red,
            l.checks.black,
            claim(&l.claim.red),
            claim(&l.claim.black)
        )?;
    } else {
        writeln!(
            out,
            "60-round limit: {} rounds; {} plies since the last capture (checks: Red {}, Black {}); Red claims: {}; Black claims: {}",
            l.rounds,
            l.plies_without_capture,
            l.checks.red,
            l.checks.black,
            claim(&l.claim.red),
            claim(&l.claim.black)
        )?;
    }
    if let Some(o) = &r.opening {
        writeln!(
            out,
            "{} {}",
            if zh {
                "前25回合："
            } else {
                "First rounds:"
            },
            o.explanation
        )?;
    }
    if let Some(rec) = &r.record {
        writeln!(
            out,
            "{} {}",
            if zh { "记录：" } else { "Record:" },
            rec.explanation
        )?;
        for gap in &rec.gaps {
            let what = gap.text.as_deref().map_or_else(
                || {
                    if zh {
                        "（漏记）".to_owned()
                    } else {
                        "(left out)".to_owned()
                    }
                },
                |t| format!("`{t}`"),
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
    }
    let tag = match (&r.end.result_tag, &r.end.agrees, zh) {
        (Some(t), Some(true), true) => format!("；记录结果 {t} 相符"),
        (Some(t), Some(false), true) => format!("；记录结果 {t} 不符"),
        (Some(t), Some(true), false) => format!("; the record's result {t} agrees"),
        (Some(t), Some(false), false) => format!("; the record's result {t} does not agree"),
        _ => String::new(),
    };
    writeln!(
        out,
        "{} {}{tag}",
        if zh { "终局：" } else { "End:" },
        r.end.explanation
    )?;
    Ok(())
}
