//! Classifying each move of a line: its nature and the reason, in data.
//!
//! Shared by every rule profile: a move that gives check is 将 (24.1) under all of them; what a
//! quiet move is (杀, 捉 or a move of the 闲 family) is the profile's question
//! ([`crate::profile::RuleSet::quiet`]). This module finds, for each move, the position it was
//! played in, the position after it and — for an answer to check — the position before that
//! check, and asks the profile.

use xq_core::{Move, Position};

pub use crate::facts::{Chase, Classified, IdleReason, Protection, Reason};
use crate::{nature::Nature, profile::Profile, search::Budget};

/// How hard the searches may work for one move.
#[derive(Copy, Clone, Debug)]
pub struct Effort {
    /// Longest series of checks looked at for a mate threat (杀), in the mover's moves.
    pub mate_checks: u32,
    /// Node budget of each search.
    pub nodes: u32,
}

impl Default for Effort {
    fn default() -> Effort {
        Effort {
            mate_checks: 7,
            nodes: 400_000,
        }
    }
}

/// Classifies every move of `moves` played from `start`. Each move must be legal.
///
/// A move answering a check is judged against the position before the check. For the first move
/// that position is known only when the line is a cycle (it returns to `start`): then the moves
/// before the first are the last ones of the cycle. Otherwise the position before the move
/// stands in.
pub fn classify_line(
    start: &Position,
    moves: &[Move],
    effort: Effort,
    profile: Profile,
) -> Vec<Classified> {
    let positions = crate::cycle::positions(start, moves);
    let cyclic = moves.len() >= 2 && positions.last().is_some_and(|end| end.same_position(start));
    let cycle = cyclic.then_some((0, moves.len()));
    classify_window(&positions, moves, 0..moves.len(), cycle, effort, profile)
}

/// Classifies the moves `range` of a line whose positions are `positions` (the start, then one
/// per move). `cycle`, as (first ply, length), says which stretch repeats: a move answering a
/// check at its start finds the position before the check at its end.
pub fn classify_window(
    positions: &[Position],
    moves: &[Move],
    range: std::ops::Range<usize>,
    cycle: Option<(usize, usize)>,
    effort: Effort,
    profile: Profile,
) -> Vec<Classified> {
    let mut budget = Budget::new(effort.nodes);
    range
        .map(|i| {
            let m = moves[i];
            // For an answer to check: the position just before the check, and the check.
            let earlier = if !positions[i].is_check() {
                None
            } else if i >= 1 {
                Some((&positions[i - 1], moves[i - 1]))
            } else {
                // Before the line starts: within a cycle, the same ply before its end.
                cycle
                    .filter(|&(start, len)| len >= 2 && i == start)
                    .map(|(start, len)| (&positions[start + len - 1], moves[start + len - 1]))
            };
            let side = positions[i].turn();
            let (nature, reason) =
                nature_of(&positions[i], m, earlier, effort, &mut budget, profile);
            Classified {
                m,
                side,
                nature,
                reason,
            }
        })
        .collect()
}

/// Classifies `m` played in `pos`. `before_check`, for a move answering a check, is the position
/// just before the opponent's checking move (the opponent to move there) and that move.
pub fn classify(
    pos: &Position,
    m: Move,
    before_check: Option<(&Position, Move)>,
    effort: Effort,
    profile: Profile,
) -> Classified {
    let side = pos.turn();
    let mut budget = Budget::new(effort.nodes);
    let (nature, reason) = nature_of(pos, m, before_check, effort, &mut budget, profile);
    Classified {
        m,
        side,
        nature,
        reason,
    }
}
/// A move to classify, with the positions around it.
#[derive(Debug)]
pub struct MoveInContext<'a> {
    /// The position the move is played in.
    pub before: &'a Position,
    /// The move.
    pub m: Move,
    /// The position after it.
    pub after: &'a Position,
    /// For a move answering a check: the position just before the opponent's checking move (the
    /// opponent to move there), and that move.
    pub before_check: Option<(&'a Position, Move)>,
    /// How hard the searches may work.
    pub effort: Effort,
}

fn nature_of(
    pos: &Position,
    m: Move,
    before_check: Option<(&Position, Move)>,
    effort: Effort,
    budget: &mut Budget,
    profile: Profile,
) -> (Nature, Reason) {
    if pos.piece_at(m.from).is_none() {
        return (Nature::Idle, Reason::Idle(IdleReason::NothingNew));
    }
    let mut after = pos.clone();
    after.play_unchecked(m);
    let ctx = MoveInContext {
        before: pos,
        m,
        after: &after,
        before_check,
        effort,
    };
    if after.is_check() {
        return (
            Nature::Check,
            Reason::Check {
                checkers: after.checkers().collect(),
                chases: profile.rules().check_chases(&ctx),
            },
        );
    }
    profile.rules().quiet(&ctx, budget)
}
