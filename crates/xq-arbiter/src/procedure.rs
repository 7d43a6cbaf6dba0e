//! Tournament procedure the arbiter applies with the 棋例 (the rules' results and draw-claim
//! sections, `../shared/rules/seeds/000_…`, 和棋 三 and 提和的裁定 二/三):
//!
//! - **the first 25 rounds** (前25回合): draws may not be offered; a repetition that would be
//!   "双方不变作和" within them makes Red change after three cycles, or lose;
//! - **admissibility** (审核的受理): a claim under the natural limit or of a pending position is
//!   not accepted when the record has more than 4 missing or unreadable moves;
//! - **how the game ended on the board** (胜负): checkmate (将死), stalemate (困毙: the
//!   stalemated side loses), a move that leaves its own king in check or the kings facing (自杀:
//!   the mover loses), the ruling on a repetition at the end, the natural limit — and whether the
//!   record's result agrees.

use serde::Serialize;
use xq_core::{Color, EndReason, Move, Position};

use crate::{judge::Judgement, limit::LimitReport, ruling::Verdict};

pub use crate::opening::{CYCLES, OpeningRule, opening_rule};

/// The most missing or unreadable moves a record may have for a claim to be heard.
pub const MAX_MISSING: usize = 4;

/// Whether a claim can be heard given the record's missing or unreadable moves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Admissibility {
    /// Missing or unreadable moves in the record.
    pub missing_or_unreadable: usize,
    /// A claim under the natural limit or of a pending position is heard (at most 4).
    pub admissible: bool,
    /// In words, Chinese.
    pub why_zh: String,
    /// In words, English.
    pub why_en: String,
}

/// Admissibility with `missing` missing or unreadable moves.
pub fn admissibility(missing: usize) -> Admissibility {
    let admissible = missing <= MAX_MISSING;
    let (why_zh, why_en) = if admissible {
        (
            format!(
                "记录漏记或无法辨认{missing}着，不超过{MAX_MISSING}着：自然限着或待判局面的审核要求可以受理"
            ),
            format!(
                "{missing} missing or unreadable moves, at most {MAX_MISSING}: a claim under the natural limit or of a pending position can be heard"
            ),
        )
    } else {
        (
            format!(
                "记录漏记或无法辨认{missing}着，超过{MAX_MISSING}着：自然限着或待判局面的审核要求不予受理"
            ),
            format!(
                "{missing} missing or unreadable moves, more than {MAX_MISSING}: a claim under the natural limit or of a pending position is not heard"
            ),
        )
    };
    Admissibility {
        missing_or_unreadable: missing,
        admissible,
        why_zh,
        why_en,
    }
}

/// A result: who won, or a draw.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// 红胜.
    RedWins,
    /// 黑胜.
    BlackWins,
    /// 和棋.
    Draw,
}

impl Decision {
    /// The win of `color`.
    pub const fn win(color: Color) -> Decision {
        match color {
            Color::Red => Decision::RedWins,
            Color::Black => Decision::BlackWins,
        }
    }

    /// In PGN: `1-0`, `0-1`, `1/2-1/2`.
    pub const fn pgn(self) -> &'static str {
        match self {
            Decision::RedWins => "1-0",
            Decision::BlackWins => "0-1",
            Decision::Draw => "1/2-1/2",
        }
    }
}

/// How the game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EndKind {
    /// 将死: the side to move is in check with no legal move.
    Checkmate,
    /// 困毙: the side to move has no legal move without being in check; it loses.
    Stalemate,
    /// 自杀: a move left its own king in check or the kings facing; the mover loses.
    SelfKill,
    /// The repetition at the end: a side must change (and loses if it does not), or a draw.
    Repetition,
    /// The natural limit is reached: a draw may be claimed.
    MoveLimit,
    /// Nothing ends the game on the board.
    Unfinished,
}

/// A move that left its own king in check or the kings facing.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SelfKill {
    /// Its ply (1-based).
    pub ply: usize,
    /// The move.
    #[serde(rename = "move", serialize_with = "crate::ser::iccs")]
    pub m: Move,
    /// Who played it.
    #[serde(serialize_with = "crate::ser::color")]
    pub side: Color,
    /// The kings face each other (rather than the king left in check).
    pub kings_facing: bool,
}

impl SelfKill {
    /// What happened, in Chinese and in English: `第19着黑方走后己方帅（将）被将，属自杀，黑方负`.
    pub fn words(&self) -> (String, String) {
        let (side_zh, side_en) = match self.side {
            Color::Red => ("红方", "Red"),
            Color::Black => ("黑方", "Black"),
        };
        let (what_zh, what_en) = if self.kings_facing {
            ("帅将对面", "leaves the kings facing")
        } else {
            ("己方帅（将）被将", "leaves its own king in check")
        };
        (
            format!(
                "第{}着{side_zh}走后{what_zh}，属自杀，{side_zh}负",
                self.ply
            ),
            format!(
                "ply {}: {side_en}'s move {what_en}, a self-kill (自杀): {side_en} loses",
                self.ply
            ),
        )
    }
}

/// How the game ended on the board, and whether the record's result agrees.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameEnd {
    /// How.
    pub how: EndKind,
    /// The result that follows (`None` while unfinished, or when a side must change but the
    /// game has not gone on).
    pub decision: Option<Decision>,
    /// The ply (1-based) where it ended.
    pub ply: Option<usize>,
    /// The record's result, if it gives one.
    pub result_tag: Option<Decision>,
    /// Whether the record's result agrees with the board (`None` when either is unknown).
    pub agrees: Option<bool>,
    /// In words, Chinese.
    pub why_zh: String,
    /// In words, English.
    pub why_en: String,
}

/// How the game on `positions` (the start and the position after each move) ended: a move that
/// killed its own king first, then what the final position shows, then the repetition ruling and
/// the natural limit. `result` is the record's result.
pub fn game_end(
    positions: &[Position],
    j: &Judgement,
    limit: &LimitReport,
    self_kill: Option<SelfKill>,
    result: Option<Decision>,
) -> GameEnd {
    let plies = positions.len() - 1;
    let side_zh = |c: Color| if c == Color::Red { "红方" } else { "黑方" };
    let side_en = |c: Color| if c == Color::Red { "Red" } else { "Black" };
    let (how, decision, ply, why_zh, why_en) = if let Some(k) = self_kill {
        let (why_zh, why_en) = k.words();
        (
            EndKind::SelfKill,
            Some(Decision::win(k.side.other())),
            Some(k.ply),
            why_zh,
            why_en,
        )
    } else if let Some(end) = positions.last().and_then(Position::outcome) {
        let loser = end.winner.other();
        match end.reason {
            EndReason::Checkmate => (
                EndKind::Checkmate,
                Some(Decision::win(end.winner)),
                Some(plies),
                format!("{}被将死，{}胜", side_zh(loser), side_zh(end.winner)),
                format!(
                    "{} is checkmated (将死): {} wins",
                    side_en(loser),
                    side_en(end.winner)
                ),
            ),
            EndReason::Stalemate => (
                EndKind::Stalemate,
                Some(Decision::win(end.winner)),
                Some(plies),
                format!(
                    "{}无子可走，被困毙，{}胜",
                    side_zh(loser),
                    side_zh(end.winner)
                ),
                format!(
                    "{} has no legal move, stalemated (困毙), which loses: {} wins",
                    side_en(loser),
                    side_en(end.winner)
                ),
            ),
        }
    } else if j.cycle.is_some() && j.verdict != Verdict::NoRepetition {
        let (decision, zh, en) = match j.verdict {
            Verdict::RedMustChange => (None, "红方须变着，不变判负", "Red must change, or lose"),
            Verdict::BlackMustChange => {
                (None, "黑方须变着，不变判负", "Black must change, or lose")
            }
            _ => (
                Some(Decision::Draw),
                "双方不变作和",
                "a draw if neither changes",
            ),
        };
        (
            EndKind::Repetition,
            decision,
            Some(plies),
            format!("终局出现循环重复：{zh}"),
            format!("the record ends in a repetition: {en}"),
        )
    } else if limit.claim.red.reached || limit.claim.black.reached {
        (
            EndKind::MoveLimit,
            Some(Decision::Draw),
            Some(plies),
            format!("已达自然限着（{}回合未吃子），可判和", limit.rounds),
            format!(
                "the natural limit ({} rounds without a capture) is reached: a draw may be claimed",
                limit.rounds
            ),
        )
    } else {
        (
            EndKind::Unfinished,
            None,
            None,
            "棋盘上未分胜负".to_owned(),
            "the game is not decided on the board".to_owned(),
        )
    };
    let agrees = match (decision, result) {
        (Some(d), Some(r)) => Some(d == r),
        // A side must change: the record's loss for that side, or a draw if it changed, are
        // both possible; a win for the side that must change is not.
        (None, Some(r)) if how == EndKind::Repetition => Some(match j.verdict {
            Verdict::RedMustChange => r != Decision::RedWins,
            Verdict::BlackMustChange => r != Decision::BlackWins,
            _ => true,
        }),
        _ => None,
    };
    GameEnd {
        how,
        decision,
        ply,
        result_tag: result,
        agrees,
        why_zh,
        why_en,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::{JudgeOptions, cycle::positions, judge};

    #[test]
    fn four_missing_moves_are_heard_five_are_not() {
        assert!(admissibility(0).admissible);
        assert!(admissibility(MAX_MISSING).admissible);
        assert!(!admissibility(MAX_MISSING + 1).admissible);
    }

    fn shuffle(plies: usize) -> Vec<Move> {
        ["h0g2", "h9g7", "g2h0", "g7h9"]
            .iter()
            .cycle()
            .take(plies)
            .map(|m| m.parse().unwrap())
            .collect()
    }

    #[test]
    fn the_first_rounds_rule_needs_three_cycles_known_rounds_and_a_draw() {
        let start = Position::new();
        let j = judge(&start, &shuffle(12), JudgeOptions::default());
        assert_eq!(
            (j.verdict, j.clause),
            (Verdict::RedMustChange, "opening-rounds")
        );
        let j = judge(&start, &shuffle(8), JudgeOptions::default());
        assert_eq!(j.verdict, Verdict::Draw);
        assert_eq!(j.opening.map(|o| (o.applies, o.cycles)), Some((false, 2)));
        // From a composed position (move number 1, not the initial position) the round is
        // unknown: the rule stays out.
        let composed = Position::from_fen(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN1 w - - 0 1",
        )
        .unwrap();
        let j = judge(&composed, &shuffle(12), JudgeOptions::default());
        assert_eq!((j.verdict, j.opening), (Verdict::Draw, None));
        // Off.
        let off = JudgeOptions {
            opening_rounds: 0,
            ..JudgeOptions::default()
        };
        assert_eq!(judge(&start, &shuffle(12), off).verdict, Verdict::Draw);
    }

    #[test]
    fn checkmate_stalemate_and_a_self_kill() {
        let pos = |fen: &str| Position::from_fen(fen).unwrap();
        let mated = pos("3k5/9/9/9/9/9/9/9/4K4/8R w - - 0 1");
        let line: Vec<Move> = vec!["i0d0".parse().unwrap()];
        let ps = positions(&mated, &line);
        let j = judge(&mated, &line, JudgeOptions::default());
        let end = game_end(&ps, &j, &j.limit, None, Some(Decision::BlackWins));
        assert_eq!(
            (end.how, end.decision, end.agrees),
            (EndKind::Checkmate, Some(Decision::RedWins), Some(false))
        );
        let stuck = pos("4k4/9/4P4/9/9/9/9/9/6R2/3K5 w - - 0 1");
        let line: Vec<Move> = vec!["g1f1".parse().unwrap()];
        let ps = positions(&stuck, &line);
        let j = judge(&stuck, &line, JudgeOptions::default());
        let end = game_end(&ps, &j, &j.limit, None, None);
        assert_eq!(
            (end.how, end.decision, end.agrees),
            (EndKind::Stalemate, Some(Decision::RedWins), None)
        );
        let kill = SelfKill {
            ply: 3,
            m: "e0d0".parse().unwrap(),
            side: Color::Red,
            kings_facing: true,
        };
        let end = game_end(&ps, &j, &j.limit, Some(kill), Some(Decision::BlackWins));
        assert_eq!(
            (end.how, end.decision, end.ply, end.agrees),
            (
                EndKind::SelfKill,
                Some(Decision::BlackWins),
                Some(3),
                Some(true)
            )
        );
    }
}
