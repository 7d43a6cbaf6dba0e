//! `xq judge`.

use std::io::Write;

use serde::Serialize;
use xq_arbiter::{
    JudgeOptions, Judgement, Lang, Profile, explain,
    judge::JudgedMove,
    limit::{CapApplies, LimitOptions, LimitReport},
};
use xq_core::{Color, Move, Position, diagram::text_diagram};
use xq_notation::{ChineseStyle, Mode, Notation, Reader, write};

use crate::{
    CliError, ExitStatus,
    args::{Format, JudgeArgs, Lang as LangArg, Rules},
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
    let (start, moves) = read_input(args)?;
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
        ..JudgeOptions::default()
    };
    let judgement = xq_arbiter::judge(&start, &moves, options);
    let lang = match args.lang {
        LangArg::Zh => Lang::Chinese,
        LangArg::En => Lang::English,
    };
    let report = report(&judgement, lang);
    match args.format {
        Format::Json => {
            serde_json::to_writer(&mut *out, &report).map_err(std::io::Error::from)?;
            writeln!(out)?;
        }
        Format::Text => text(&judgement, &report, lang, out)?,
    }
    Ok(ExitStatus::Success)
}

/// The position and moves to judge, from `--fen`/`--moves` or a record file (any format: its
/// main line, then `--moves` after it).
fn read_input(args: &JudgeArgs) -> Result<(Position, Vec<Move>), CliError> {
    let mut fen = args.fen.clone();
    let mut tokens: Vec<String> = Vec::new();
    let mut file_moves: Vec<Move> = Vec::new();
    let mut file_start = None;
    if let Some(path) = &args.file {
        let mut game = super::show::read_game(path, args.game, args.input.options())?;
        if fen.is_some() {
            return Err(CliError::Usage(
                "--fen and a file both give the start position: give one".to_owned(),
            ));
        }
        let mut reader = Reader::new(Mode::Lenient);
        let replayed = xq_record::replay::replay(&mut game, &mut reader);
        if let Some(why) = replayed.bad_start {
            return Err(CliError::Invalid(format!("{}: {why}", path.display())));
        }
        if let Some(e) = replayed.errors.first().filter(|e| e.variation.is_empty()) {
            return Err(CliError::Invalid(format!(
                "{}: ply {} `{}` is not a move here: {}\n  position: {}",
                path.display(),
                e.ply,
                e.text,
                e.message,
                e.fen
            )));
        }
        let (start, _) = xq_record::replay::start_position(&game).map_err(CliError::Invalid)?;
        let start = if replayed.side_from_first_move {
            start.passed()
        } else {
            start
        };
        fen = Some(start.fen());
        file_moves = game.moves.iter().filter_map(|n| n.m).collect();
        file_start = Some(start);
    }
    if let Some(moves) = &args.moves {
        tokens.extend(
            moves
                .split_whitespace()
                .filter(|t| !super::is_filler(t))
                .map(str::to_owned),
        );
    }
    if tokens.is_empty() && file_moves.is_empty() {
        return Err(CliError::Usage(
            "no moves to judge: give --moves \"M1 M2 …\" or a file".to_owned(),
        ));
    }
    let start = match file_start {
        Some(start) => start,
        None => super::parse_fen(fen.as_deref().unwrap_or(xq_core::START_FEN), true)?,
    };
    let mut reader = Reader::new(Mode::Lenient);
    let mut pos = start.clone();
    for &m in &file_moves {
        pos.play_unchecked(m);
    }
    let mut moves = file_moves;
    for token in &tokens {
        let ply = moves.len() + 1;
        let m = reader.read(token, &pos).map_err(|err| {
            CliError::Invalid(format!(
                "ply {ply} ({} to move): `{token}` is not a move here: {err}\n  position: {}",
                pos.turn(),
                pos.fen()
            ))
        })?;
        pos.play_unchecked(m);
        moves.push(m);
    }
    Ok((start, moves))
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
                    let p = xq_arbiter::ruling::Pattern::of(
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
    writeln!(
        out,
        "{} {} ({})",
        if zh { "红方：" } else { "Red:  " },
        r.sides.red.pattern,
        allowed(r.sides.red.forbidden)
    )?;
    writeln!(
        out,
        "{} {} ({})",
        if zh { "黑方：" } else { "Black:" },
        r.sides.black.pattern,
        allowed(r.sides.black.forbidden)
    )?;
    let verdict = match (r.verdict, zh) {
        ("draw", true) => "双方不变作和",
        ("red_must_change", true) => "红方须变着，不变判负",
        ("black_must_change", true) => "黑方须变着，不变判负",
        (_, true) => "着法未形成循环",
        ("draw", false) => "draw if neither side changes",
        ("red_must_change", false) => "Red must change or lose",
        ("black_must_change", false) => "Black must change or lose",
        _ => "no repetition",
    };
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
    Ok(())
}
