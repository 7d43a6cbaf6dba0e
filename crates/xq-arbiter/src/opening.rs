//! The first-rounds rule (前25回合, tournament procedure): a repetition that would be a draw within
//! the first rounds makes Red change after three cycles, or lose.

use serde::Serialize;
use xq_core::Position;

use crate::{cycle::Cycle, ruling::Verdict};

/// How many cycles make a pending position (待判局面): the cycle must have occurred three times.
pub const CYCLES: usize = 3;

/// What the first-rounds rule says about a repetition.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OpeningRule {
    /// The rule covers rounds 1 to this (25; events may set another number).
    pub rounds: u32,
    /// The round of the cycle's last move.
    pub round: u32,
    /// Cycles completed (occurrences of the position less one).
    pub cycles: usize,
    /// The rule turns the draw into "Red must change": a draw ruling, within the rounds, after
    /// three cycles.
    pub applies: bool,
    /// In words, Chinese.
    pub why_zh: String,
    /// In words, English.
    pub why_en: String,
}

/// The first-rounds rule for a judged repetition, if the rule is on (`rounds` > 0), the line
/// repeats, and the rounds are known: the line starts from the initial position, or its FEN
/// gives a move number beyond 1 (a position taken from a game). A composed position with move
/// number 1 has no known round.
pub fn opening_rule(
    start: &Position,
    positions: &[Position],
    cycle: Option<Cycle>,
    verdict: Verdict,
    rounds: u32,
) -> Option<OpeningRule> {
    let cycle = cycle?;
    if rounds == 0 || verdict != Verdict::Draw {
        return None;
    }
    let known = start.same_position(&Position::new()) || start.fullmoves() > 1;
    if !known {
        return None;
    }
    let last = cycle.start_ply + cycle.plies - 1;
    let round = positions[last].fullmoves();
    if round > rounds {
        return None;
    }
    let cycles = cycle.occurrences - 1;
    let applies = cycles >= CYCLES;
    let (why_zh, why_en) = if applies {
        (
            format!(
                "前{rounds}回合内（第{round}回合）出现双方不变作和的局面且已循环{cycles}次：红方须变着，否则判负"
            ),
            format!(
                "a repetition that would be a draw arises within the first {rounds} rounds (round {round}) and has cycled {cycles} times: Red must change or lose"
            ),
        )
    } else {
        (
            format!(
                "前{rounds}回合内（第{round}回合）不得作和：若此循环达到三次，红方须变着，否则判负（现为{cycles}次）"
            ),
            format!(
                "no draw within the first {rounds} rounds (this is round {round}): if the cycle reaches three times, Red must change or lose (it has cycled {cycles} times)"
            ),
        )
    };
    Some(OpeningRule {
        rounds,
        round,
        cycles,
        applies,
        why_zh,
        why_en,
    })
}
