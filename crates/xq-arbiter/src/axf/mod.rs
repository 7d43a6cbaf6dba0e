//! The Asian Xiangqi Federation's rules (AXF, also the World Xiangqi Federation's), as
//! international events, online servers and engines apply them.
//!
//! - **捉** is an attack the move creates on a piece that is unprotected or outranks its attacker
//!   (see [`chase`]); kings and pawns never chase; a check that also chases keeps a perpetual
//!   chase going.
//! - **Forbidden** are only perpetual check and the perpetual chase of one and the same piece
//!   (followed as it moves); 长杀, 一将一捉 and chasing pieces in turn (捉多子) are allowed.
//! - **The stretch judged** runs from the first occurrence of the repeated position to the end,
//!   every cycle played in it included.
//! - **Rulings**: perpetual check outranks perpetual chase; chasing a rook pinned by a horse
//!   outranks another chase (WXF diagrams 39–41); the same violation on both sides is a draw
//!   (see [`ruling`]).

pub mod chase;
pub mod ruling;

use xq_core::Position;

use crate::{
    classify::MoveInContext,
    cycle::{self, Cycle},
    facts::{Chase, Classified, IdleReason, Reason},
    nature::Nature,
    pattern::{Pattern, Persistence},
    quiet::{idle_family, mate_threat},
    rule_set::RuleSet,
    ruling::Ruling,
    search::Budget,
};

/// The AXF rule set.
#[derive(Copy, Clone, Debug, Default)]
pub struct Axf;

impl RuleSet for Axf {
    fn name(&self) -> &'static str {
        "axf"
    }

    fn check_chases(&self, ctx: &MoveInContext<'_>) -> Vec<Chase> {
        chase::new_chases(ctx.before, ctx.m)
    }

    /// A chase if the move creates one, else a mate threat (allowed under these rules, but
    /// said), else a move of the 闲 family.
    fn quiet(&self, ctx: &MoveInContext<'_>, budget: &mut Budget) -> (Nature, Reason) {
        let chases = chase::new_chases(ctx.before, ctx.m);
        if !chases.is_empty() {
            return (Nature::Chase, Reason::Chase { chases });
        }
        if let Some(found) = mate_threat(&ctx.after.passed(), ctx.before, ctx.effort, budget) {
            return found;
        }
        if let Some(found) = idle_family(ctx.before, ctx.after, ctx.m) {
            return found;
        }
        (Nature::Idle, Reason::Idle(IdleReason::NothingNew))
    }

    /// Perpetual check, or one and the same piece chased by every move (a check that also chases
    /// counts). Chasing different pieces in turn is 捉多子, allowed.
    fn pattern(&self, moves: &[&Classified], persistence: Persistence) -> Pattern {
        let mut p = Pattern::observed(moves);
        p.forbidden = p.perpetual_check() || persistence.same_piece;
        if p.all(Nature::Chase) && !persistence.same_piece {
            "捉多子".clone_into(&mut p.name);
            "chasing different pieces in turn".clone_into(&mut p.name_en);
        }
        p.pinned_rook = p.forbidden && persistence.pinned_rook;
        p
    }

    fn rule(&self, red: &Pattern, black: &Pattern) -> Ruling {
        ruling::rule(red, black)
    }

    /// The whole stretch from the first occurrence of the repeated position, whatever plies
    /// follow it: every cycle played counts.
    fn cycle(&self, positions: &[Position]) -> Option<Cycle> {
        cycle::find_from_first(positions)
    }
}
