//! Judging a line of moves: the repetition at its end, each move's nature, the ruling.

use serde::Serialize;
use xq_core::{Bitboard, Color, Move, Position};

use crate::{
    classify::{Effort, classify_window},
    cycle::{self, Cycle},
    facts::{Chase, Classified, Reason},
    identity::{Identities, identities_of},
    limit::{self, LimitOptions, LimitReport},
    opening::{OpeningRule, opening_rule},
    pattern::{Pattern, Persistence},
    profile::Profile,
    ruling::{self, Ruling, Verdict},
};

/// The outcome of judging a line.
#[derive(Clone, Debug, Serialize)]
pub struct Judgement {
    /// Who must change, or a draw, or no repetition.
    pub verdict: Verdict,
    /// The rule set: `cxa2020` or `axf`.
    pub rules: &'static str,
    /// The clause the ruling rests on (empty without a repetition).
    pub clause: &'static str,
    /// Why, in Chinese.
    pub why_zh: String,
    /// Why, in English.
    pub why_en: String,
    /// The repetition judged.
    pub cycle: Option<Cycle>,
    /// Each side's pattern over the cycle.
    pub sides: Option<Sides>,
    /// The 60-round count (自然限着).
    pub limit: LimitReport,
    /// The judged moves: the cycle's; without a repetition, every move of a short line (at most
    /// [`MAX_UNREPEATED`] plies) or the last ones of a longer one.
    pub moves: Vec<JudgedMove>,
    /// What the first-rounds rule says (when the repetition is a draw within the first rounds
    /// of a game whose rounds are known).
    pub opening: Option<OpeningRule>,
}

/// How many moves of a line without repetition are classified (the last ones).
pub const MAX_UNREPEATED: usize = 60;

/// The two sides' patterns.
#[derive(Clone, Debug, Serialize)]
pub struct Sides {
    /// Red's.
    pub red: Pattern,
    /// Black's.
    pub black: Pattern,
}

/// A classified move with its place in the line.
#[derive(Clone, Debug, Serialize)]
pub struct JudgedMove {
    /// The ply, counting from 1 at the first move of the line.
    pub ply: usize,
    /// The position the move was played in.
    #[serde(skip)]
    pub before: Position,
    /// The move and its nature.
    #[serde(flatten)]
    pub classified: Classified,
}

/// Options for judging.
#[derive(Copy, Clone, Debug)]
pub struct JudgeOptions {
    /// Search effort.
    pub effort: Effort,
    /// The 60-round count.
    pub limit: LimitOptions,
    /// The rule set.
    pub profile: Profile,
    /// The first-rounds rule: a drawn repetition within rounds 1 to this, after three cycles,
    /// makes Red change (0: off). 25 by default.
    pub opening_rounds: u32,
}

impl Default for JudgeOptions {
    fn default() -> JudgeOptions {
        JudgeOptions {
            effort: Effort::default(),
            limit: LimitOptions::default(),
            profile: Profile::CXA2020,
            opening_rounds: 25,
        }
    }
}

/// Judges `moves` played from `start` (every move legal). The repetition judged is the most
/// recent earlier occurrence of the final position; a line that returns to its start is one full
/// cycle, judged as if it went on.
pub fn judge(start: &Position, moves: &[Move], options: JudgeOptions) -> Judgement {
    let profile = options.profile;
    let positions = cycle::positions(start, moves);
    let limit = limit::count(&positions, moves, options.limit);
    let found = profile.rules().cycle(&positions).filter(|c| c.plies >= 2);
    let Some(cyc) = found else {
        let first = moves.len().saturating_sub(MAX_UNREPEATED);
        let classified = classify_window(
            &positions,
            moves,
            first..moves.len(),
            None,
            options.effort,
            profile,
        );
        return Judgement {
            verdict: Verdict::NoRepetition,
            rules: profile.name(),
            clause: "",
            why_zh: "着法未形成循环重复".to_owned(),
            why_en: "the moves do not repeat a position".to_owned(),
            cycle: None,
            sides: None,
            limit,
            moves: judged(&positions, first, classified),
            opening: None,
        };
    };
    let range = cyc.start_ply..cyc.start_ply + cyc.plies;
    let classified = classify_window(
        &positions,
        moves,
        range.clone(),
        Some((cyc.start_ply, cyc.plies)),
        options.effort,
        profile,
    );
    let of = |color: Color| -> Vec<&Classified> {
        classified.iter().filter(|c| c.side == color).collect()
    };
    let found = persistence(&positions, cyc.start_ply, &classified);
    let red = Pattern::of(&of(Color::Red), profile, found[Color::Red.index()]);
    let black = Pattern::of(&of(Color::Black), profile, found[Color::Black.index()]);
    let Ruling {
        verdict,
        clause,
        why_zh,
        why_en,
    } = ruling::rule(&red, &black, profile);
    let mut j = Judgement {
        verdict,
        rules: profile.name(),
        clause,
        why_zh,
        why_en,
        cycle: Some(cyc),
        sides: Some(Sides { red, black }),
        limit,
        moves: judged(&positions, cyc.start_ply, classified),
        opening: None,
    };
    j.opening = opening_rule(
        start,
        &positions,
        j.cycle,
        j.verdict,
        options.opening_rounds,
    );
    if let Some(rule) = j.opening.as_ref().filter(|r| r.applies) {
        j.verdict = Verdict::RedMustChange;
        j.clause = "opening-rounds";
        j.why_zh = format!("{}（{}）", rule.why_zh, j.why_zh);
        j.why_en = format!("{} ({})", rule.why_en, j.why_en);
    }
    j
}

/// For each side (Red, Black), what following the chased pieces through the cycle starting at
/// ply `first` finds: whether one and the same enemy piece is chased by every one of its moves,
/// and whether it is then always a rook pinned by a horse.
fn persistence(
    positions: &[Position],
    first: usize,
    classified: &[Classified],
) -> [Persistence; 2] {
    let mut ids = Identities::of(&positions[first]);
    let mut common = [Bitboard::FULL; 2];
    let mut pinned = [Bitboard::FULL; 2];
    let mut moved = [false; 2];
    for c in classified {
        ids.play(c.m);
        let side = c.side.index();
        moved[side] = true;
        let chases: &[Chase] = match &c.reason {
            Reason::Chase { chases } | Reason::Check { chases, .. } => chases,
            _ => &[],
        };
        common[side] &= identities_of(&ids, chases.iter().map(|ch| ch.target));
        pinned[side] &= identities_of(
            &ids,
            chases
                .iter()
                .filter(|ch| ch.pinned_by_horse)
                .map(|ch| ch.target),
        );
    }
    [0, 1].map(|side| Persistence {
        same_piece: moved[side] && common[side].any(),
        pinned_rook: moved[side] && (common[side] & pinned[side]).any(),
    })
}

fn judged(positions: &[Position], first: usize, classified: Vec<Classified>) -> Vec<JudgedMove> {
    classified
        .into_iter()
        .enumerate()
        .map(|(i, classified)| JudgedMove {
            ply: first + i + 1,
            before: positions[first + i].clone(),
            classified,
        })
        .collect()
}
