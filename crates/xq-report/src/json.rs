//! The ruling report in JSON: the contract of `xq judge --format json` (tests and tools rely on
//! it: extend, do not rename).

use serde::Serialize;
use xq_arbiter::{
    Lang,
    limit::LimitReport,
    procedure::{Decision, EndKind, SelfKill},
};
use xq_notation::Notation;
use xq_record::recover::Gap;

use crate::{
    Report,
    ruling::{RecordFacts, SidePattern},
};

#[derive(Serialize)]
pub(crate) struct ReportJson<'a> {
    verdict: &'static str,
    rules: &'static str,
    clause: &'static str,
    explanation: &'a str,
    cycle: Option<CycleJson>,
    sides: SidesJson<'a>,
    limit: &'a LimitReport,
    moves: Vec<MoveJson<'a>>,
    /// The first-rounds rule, when it bears on the repetition.
    #[serde(skip_serializing_if = "Option::is_none")]
    opening: Option<OpeningJson<'a>>,
    /// What reading the record found (a file only).
    #[serde(skip_serializing_if = "Option::is_none")]
    record: Option<RecordJson<'a>>,
    /// How the game ended on the board.
    end: EndJson<'a>,
    /// The game (record tags), the start position and the report's origin.
    about: AboutJson<'a>,
    /// The notation of the moves' `written` (`--notation`).
    #[serde(skip_serializing_if = "Option::is_none")]
    notation: Option<&'static str>,
}

#[derive(Serialize)]
struct AboutJson<'a> {
    /// Event, Round, Red, Black, Date, Site as the record gives them (absent ones left out).
    game: std::collections::BTreeMap<&'static str, &'a str>,
    start_fen: &'a str,
    rules: &'static str,
    xq_version: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    made: Option<&'a str>,
}

#[derive(Serialize)]
struct OpeningJson<'a> {
    rounds: u32,
    round: u32,
    cycles: usize,
    applies: bool,
    explanation: &'a str,
}

#[derive(Serialize)]
pub(crate) struct RecordJson<'a> {
    missing_or_unreadable: usize,
    admissible: bool,
    explanation: &'a str,
    gaps: &'a [Gap],
    unread: usize,
}

impl<'a> RecordJson<'a> {
    /// What reading the record found, as the ruling's and the 60-round audit's JSON give it.
    pub(crate) fn of(rec: &'a RecordFacts, lang: Lang) -> RecordJson<'a> {
        RecordJson {
            missing_or_unreadable: rec.admissibility.missing_or_unreadable,
            admissible: rec.admissibility.admissible,
            explanation: pick(lang, &rec.admissibility.why_zh, &rec.admissibility.why_en),
            gaps: &rec.gaps,
            unread: rec.unread,
        }
    }
}

#[derive(Serialize)]
struct EndJson<'a> {
    how: EndKind,
    decision: Option<&'static str>,
    ply: Option<usize>,
    result_tag: Option<&'static str>,
    agrees: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    self_kill: Option<SelfKill>,
    explanation: &'a str,
}

#[derive(Serialize)]
struct CycleJson {
    /// The ply (1-based) of the cycle's first move.
    start_ply: usize,
    plies: usize,
    occurrences: usize,
}

#[derive(Serialize)]
struct SidesJson<'a> {
    red: SideJson<'a>,
    black: SideJson<'a>,
}

#[derive(Serialize)]
struct SideJson<'a> {
    pattern: &'a str,
    pattern_en: &'a str,
    forbidden: bool,
}

#[derive(Serialize)]
struct MoveJson<'a> {
    ply: usize,
    side: &'static str,
    iccs: String,
    chinese: &'a str,
    wxf: &'a str,
    /// The move in the notation asked for (`--notation`).
    #[serde(skip_serializing_if = "Option::is_none")]
    written: Option<&'a str>,
    kind: &'static str,
    reason: serde_json::Value,
    explanation: &'a str,
}

impl<'a> ReportJson<'a> {
    pub(crate) fn new(r: &'a Report, lang: Lang) -> ReportJson<'a> {
        let side = |s: &'a SidePattern| SideJson {
            pattern: &s.pattern,
            pattern_en: &s.pattern_en,
            forbidden: s.forbidden,
        };
        ReportJson {
            verdict: r.verdict.name(),
            rules: r.rules,
            clause: r.clause,
            explanation: r.explanation.get(lang),
            cycle: r.cycle.map(|c| CycleJson {
                start_ply: c.start_ply,
                plies: c.plies,
                occurrences: c.occurrences,
            }),
            sides: SidesJson {
                red: side(r.red()),
                black: side(r.black()),
            },
            limit: &r.limit,
            moves: r
                .moves
                .iter()
                .map(|m| {
                    let c = &m.classified;
                    MoveJson {
                        ply: m.ply,
                        side: c.side.name(),
                        iccs: c.m.to_string(),
                        chinese: &m.chinese,
                        wxf: &m.wxf,
                        written: m.written.as_ref().map(|(_, w)| w.as_str()),
                        kind: c.nature.chinese(),
                        // Through a `Value`, so the reason's keys come out sorted as they
                        // always have.
                        reason: serde_json::to_value(&c.reason).unwrap_or(serde_json::Value::Null),
                        explanation: m.explanation.get(lang),
                    }
                })
                .collect(),
            opening: r.opening.as_ref().map(|o| OpeningJson {
                rounds: o.rounds,
                round: o.round,
                cycles: o.cycles,
                applies: o.applies,
                explanation: pick(lang, &o.why_zh, &o.why_en),
            }),
            record: r.record.as_ref().map(|rec| RecordJson::of(rec, lang)),
            end: EndJson {
                how: r.end.how,
                decision: r.end.decision.map(Decision::pgn),
                ply: r.end.ply,
                result_tag: r.end.result_tag.map(Decision::pgn),
                agrees: r.end.agrees,
                self_kill: r.self_kill,
                explanation: pick(lang, &r.end.why_zh, &r.end.why_en),
            },
            about: AboutJson {
                game: r.about.game.iter().map(|(k, v)| (*k, v.as_str())).collect(),
                start_fen: &r.about.start_fen,
                rules: r.rules,
                xq_version: r.about.version,
                made: r.about.made.as_deref(),
            },
            notation: r.notation.map(Notation::name),
        }
    }
}

/// The text in `lang` of a pair the arbiter gives.
pub(crate) fn pick<'a>(lang: Lang, zh: &'a str, en: &'a str) -> &'a str {
    match lang {
        Lang::Chinese => zh,
        Lang::English => en,
    }
}
