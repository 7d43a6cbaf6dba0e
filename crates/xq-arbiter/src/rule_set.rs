//! What a rule profile decides ([`RuleSet`]); the profiles implement it ([`crate::cxa2020`],
//! [`crate::axf`]) and [`crate::profile::Profile`] hands them out. Kept apart from the handle so
//! that the profile modules depend on the trait and the handle on them, never both ways.

use std::fmt;

use xq_core::Position;

use crate::{
    classify::MoveInContext,
    cycle::{self, Cycle},
    facts::{Chase, Classified, Reason},
    nature::Nature,
    pattern::{Pattern, Persistence},
    ruling::Ruling,
    search::Budget,
};

/// What a rule set decides: what a quiet move is, which patterns are forbidden, and who must
/// change.
pub trait RuleSet: fmt::Debug + Send + Sync {
    /// The name in reports and on the command line: `cxa2020`, `axf`.
    fn name(&self) -> &'static str;

    /// The chases a checking move makes as well, where the profile counts them (AXF: a check
    /// that also chases keeps a perpetual chase going). None by default.
    fn check_chases(&self, ctx: &MoveInContext<'_>) -> Vec<Chase> {
        let _ = ctx;
        Vec::new()
    }

    /// The nature of a move that gives no check: 杀, 捉 or a move of the 闲 family, with the
    /// reason.
    fn quiet(&self, ctx: &MoveInContext<'_>, budget: &mut Budget) -> (Nature, Reason);

    /// One side's pattern over a cycle: its name and whether it is forbidden. `persistence` says
    /// what following the chased pieces through the cycle found.
    fn pattern(&self, moves: &[&Classified], persistence: Persistence) -> Pattern;

    /// The ruling on a cycle with these patterns.
    fn rule(&self, red: &Pattern, black: &Pattern) -> Ruling;

    /// The stretch of a line that is judged when its final position repeats. By default the
    /// shortest: from the most recent earlier occurrence ([`cycle::find`]).
    fn cycle(&self, positions: &[Position]) -> Option<Cycle> {
        cycle::find(positions)
    }

    /// Whether the first-rounds rule (a drawn repetition within the first 25 rounds makes Red
    /// change) is part of this rule set's tournament procedure by default: the number of rounds
    /// it covers, 0 for none.
    fn opening_rounds(&self) -> u32 {
        0
    }
}
