//! `xq limit`: the 60-round audit (自然限着) an arbiter does by hand.

use std::io::Write;

use serde::Serialize;
use xq_arbiter::limit::{Audit, AuditRow, AuditVerdict, CapApplies, LimitOptions, audit};
use xq_core::{Color, Position};
use xq_notation::{ChineseStyle, Notation, write};

use super::line::{Source, read_line};
use crate::{
    CliError, ExitStatus,
    args::{AuditFormat, Lang, LimitArgs, SideArg},
};

/// One ply in JSON: the audit row and the move in Chinese.
#[derive(Serialize)]
struct RowJson<'a> {
    #[serde(flatten)]
    row: &'a AuditRow,
    chinese: String,
}

#[derive(Serialize)]
struct AuditJson<'a> {
    #[serde(flatten)]
    audit: &'a Audit,
    explanation: String,
    #[serde(rename = "rows")]
    rows_json: Vec<RowJson<'a>>,
}

pub(crate) fn run(args: &LimitArgs, out: &mut dyn Write) -> Result<ExitStatus, CliError> {
    let line = read_line(&Source {
        file: args.file.as_ref(),
        game: args.game,
        fen: args.fen.as_deref(),
        moves: args.moves.as_deref(),
        input: &args.input,
    })?;
    let positions = xq_arbiter::cycle::positions(&line.start, &line.moves);
    let options = LimitOptions {
        rounds: args.rounds,
        check_cap: args.check_cap,
        cap_applies: if args.cap_both {
            CapApplies::Both
        } else {
            CapApplies::Claimant
        },
    };
    let claimants = match args.claimant {
        Some(SideArg::Red) => vec![Color::Red],
        Some(SideArg::Black) => vec![Color::Black],
        None => vec![Color::Red, Color::Black],
    };
    let audits: Vec<Audit> = claimants
        .iter()
        .map(|&c| audit(&positions, &line.moves, options, c))
        .collect();
    let zh = args.lang == Lang::Zh;
    let chinese = |row: &AuditRow| {
        write(
            &positions[row.ply - 1],
            row.m,
            Notation::Chinese(ChineseStyle::default()),
        )
    };
    match args.format {
        AuditFormat::Json => {
            let views: Vec<AuditJson<'_>> = audits
                .iter()
                .map(|a| AuditJson {
                    audit: a,
                    explanation: conclusion(a, zh),
                    rows_json: a
                        .rows
                        .iter()
                        .map(|row| RowJson {
                            row,
                            chinese: chinese(row),
                        })
                        .collect(),
                })
                .collect();
            serde_json::to_writer_pretty(&mut *out, &serde_json::json!({ "audits": views }))
                .map_err(std::io::Error::from)?;
            writeln!(out)?;
        }
        AuditFormat::Csv => {
            let mut w = csv::Writer::from_writer(Vec::new());
            let header = [
                "claimant",
                "ply",
                "round",
                "side",
                "iccs",
                "chinese",
                "capture",
                "check",
                "check_number",
                "counted",
                "count",
            ];
            let mut records = vec![header.map(str::to_owned).to_vec()];
            for a in &audits {
                for row in &a.rows {
                    records.push(vec![
                        a.claimant.name().to_owned(),
                        row.ply.to_string(),
                        row.round.to_string(),
                        row.side.name().to_owned(),
                        row.m.to_string(),
                        chinese(row),
                        row.capture.to_string(),
                        row.check.to_string(),
                        row.check_number.map(|n| n.to_string()).unwrap_or_default(),
                        row.counted.to_string(),
                        row.count.to_string(),
                    ]);
                }
            }
            for r in &records {
                w.write_record(r)
                    .map_err(|e| CliError::from(std::io::Error::other(e)))?;
            }
            let bytes = w
                .into_inner()
                .map_err(|e| CliError::from(std::io::Error::other(e.to_string())))?;
            out.write_all(&bytes)?;
        }
        AuditFormat::Text => {
            for (i, a) in audits.iter().enumerate() {
                if i > 0 {
                    writeln!(out)?;
                }
                text(a, &positions, zh, out)?;
            }
        }
    }
    Ok(ExitStatus::Success)
}

fn side_name(c: Color, zh: bool) -> &'static str {
    match (c, zh) {
        (Color::Red, true) => "红方",
        (Color::Black, true) => "黑方",
        (Color::Red, false) => "Red",
        (Color::Black, false) => "Black",
    }
}

/// The audit's conclusion in words.
fn conclusion(a: &Audit, zh: bool) -> String {
    match (a.verdict, zh) {
        (AuditVerdict::DrawFrom { ply, round }, true) => format!(
            "第{ply}着（第{round}回合）起达到自然限着，{}可提和",
            side_name(a.claimant, true)
        ),
        (AuditVerdict::DrawFrom { ply, round }, false) => format!(
            "the limit is reached at ply {ply} (round {round}): {} may claim a draw from there",
            side_name(a.claimant, false)
        ),
        (AuditVerdict::NotYet { counted, needed }, true) => {
            format!("未到自然限着：已计{counted}着，需{needed}着")
        }
        (AuditVerdict::NotYet { counted, needed }, false) => {
            format!("not yet: {counted} of {needed} plies counted")
        }
        (AuditVerdict::EndedOnBoard { winner, stalemate }, true) => format!(
            "最后一着{}，{}胜（限着不改变棋盘上的结果）",
            if stalemate {
                "困毙对方"
            } else {
                "将死对方"
            },
            side_name(winner, true)
        ),
        (AuditVerdict::EndedOnBoard { winner, stalemate }, false) => format!(
            "the last move {} the other side: {} wins (the limit does not undo a result on the board)",
            if stalemate { "stalemates" } else { "mates" },
            side_name(winner, false)
        ),
    }
}

fn text(a: &Audit, positions: &[Position], zh: bool, out: &mut dyn Write) -> std::io::Result<()> {
    let cap_whose = match (a.cap_applies, zh) {
        (CapApplies::Claimant, true) => "提和方",
        (CapApplies::Both, true) => "双方",
        (CapApplies::Claimant, false) => "the claimant's",
        (CapApplies::Both, false) => "either side's",
    };
    if zh {
        writeln!(
            out,
            "自然限着审核 · 提和方：{} · {}回合（{}着）未吃子 · {cap_whose}将军最多计{}着",
            side_name(a.claimant, true),
            a.rounds,
            2 * a.rounds,
            a.check_cap
        )?;
        writeln!(
            out,
            "  着  回合  方    着法             吃子            将军            计数"
        )?;
    } else {
        writeln!(
            out,
            "60-round audit · claimant: {} · {} rounds ({} plies) without a capture · {cap_whose} checks count up to {}",
            side_name(a.claimant, false),
            a.rounds,
            2 * a.rounds,
            a.check_cap
        )?;
        writeln!(
            out,
            " ply round side   move             capture         check           count"
        )?;
    }
    for row in &a.rows {
        let chinese = write(
            &positions[row.ply - 1],
            row.m,
            Notation::Chinese(ChineseStyle::default()),
        );
        let mv = format!("{chinese} {}", row.m);
        let capture = match (row.capture, zh) {
            (true, true) => "吃子，重新计数",
            (true, false) => "capture: restart",
            _ => "",
        };
        let check = match (row.check, row.check_number, zh) {
            (true, Some(n), true) if n > a.check_cap => format!("第{n}次将军，不计"),
            (true, Some(n), true) => format!("第{n}次将军"),
            (true, None, true) => "将军".to_owned(),
            (true, Some(n), false) if n > a.check_cap => format!("check {n}: void"),
            (true, Some(n), false) => format!("check {n}"),
            (true, None, false) => "check".to_owned(),
            _ => String::new(),
        };
        let side = if zh {
            if row.side == Color::Red { "红" } else { "黑" }
        } else if row.side == Color::Red {
            "Red"
        } else {
            "Black"
        };
        writeln!(
            out,
            "{:>4} {:>5}  {side:<5} {}{} {}{} {}{} {:>4}",
            row.ply,
            row.round,
            mv,
            pad(&mv, 16),
            capture,
            pad(capture, 15),
            check,
            pad(&check, 15),
            row.count
        )?;
    }
    writeln!(
        out,
        "{} {}",
        if zh { "结论：" } else { "Verdict:" },
        conclusion(a, zh)
    )
}

/// Spaces that fill `s` to `width` terminal columns (CJK characters take two).
fn pad(s: &str, width: usize) -> String {
    let used: usize = s.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum();
    " ".repeat(width.saturating_sub(used))
}
