//! The Chinese Xiangqi Association's 2020 rules (《象棋竞赛规则》2020, 第24–26条 棋例).
//!
//! - **将** (24.1) a move that checks; **杀** (24.2) a quiet move after which the mover would mate
//!   by a check or a series of checks, and could not before; **捉** (24.3) a move after which the
//!   mover would win material next move (a capture, a check or series of checks, a joint attack,
//!   the complete exchange on the material scale of 26.6–26.7), a threat that is new; the
//!   exceptions of 第26条 (kings and pawns 26.1, answers to check 26.1/26.4, the drawing key
//!   point 26.2, 各吃各子 26.6, the last capture of a king or pawn 26.8, offers to exchange
//!   26.10). Otherwise a move of the 闲 family (兑 献 拦 跟 闲, 24.4–24.8). See [`classify`].
//! - A side's pattern is **forbidden** (禁止着法, 24.13) when every one of its moves in the cycle
//!   is 将, 杀 or 捉: 长将, 长杀, 长捉, 一将一杀, 一将一捉, 一杀一捉 …; otherwise allowed (24.14).
//! - **Rulings** (25.1–25.3, 26.9): unilateral perpetual check must change (25.1); both allowed:
//!   draw (25.2); one forbidden: it must change (25.3); both forbidden: the table of 26.9, else a
//!   draw. See [`ruling`].

pub mod classify;
pub mod ruling;

use crate::{
    classify::MoveInContext,
    facts::{Classified, Reason},
    nature::Nature,
    pattern::{Pattern, Persistence},
    rule_set::RuleSet,
    ruling::Ruling,
    search::Budget,
};

/// The CXA 2020 rule set.
#[derive(Copy, Clone, Debug, Default)]
pub struct Cxa2020;

impl RuleSet for Cxa2020 {
    fn name(&self) -> &'static str {
        "cxa2020"
    }

    fn quiet(&self, ctx: &MoveInContext<'_>, budget: &mut Budget) -> (Nature, Reason) {
        classify::quiet(ctx, budget)
    }

    /// 24.13: forbidden when every move attacks (将, 杀 or 捉); 24.11 counts chasing one or
    /// several pieces.
    fn pattern(&self, moves: &[&Classified], _persistence: Persistence) -> Pattern {
        let mut p = Pattern::observed(moves);
        p.forbidden = !p.natures.is_empty() && p.natures.iter().all(|n| n.is_attacking());
        p
    }

    fn rule(&self, red: &Pattern, black: &Pattern) -> Ruling {
        ruling::rule(red, black)
    }

    /// The first 25 rounds (Chinese tournament procedure).
    fn opening_rounds(&self) -> u32 {
        25
    }
}
