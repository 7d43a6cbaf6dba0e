//! The natural move limit (自然限着, CXA 2020 第4条; claim procedure 2011 22.2): a draw may be
//! claimed after 60 rounds (120 plies) without a capture, counting at most 10 of the claimant's
//! checks. Events may lower the limit; some count the cap for both sides.

use serde::Serialize;
use xq_core::{ByColor, Color, Move, Position};

/// Whose checks the cap applies to.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CapApplies {
    /// Only the claimant's checks beyond the cap are void (the rule as written).
    #[default]
    Claimant,
    /// Either side's checks beyond the cap are void (as some engines count).
    Both,
}

/// How the limit is counted.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct LimitOptions {
    /// Rounds without a capture (60; events may lower it).
    pub rounds: u32,
    /// How many of the capped side's checks count (10).
    pub check_cap: u32,
    /// Whose checks are capped.
    pub cap_applies: CapApplies,
}

impl Default for LimitOptions {
    fn default() -> LimitOptions {
        LimitOptions {
            rounds: 60,
            check_cap: 10,
            cap_applies: CapApplies::Claimant,
        }
    }
}

/// The count for one claimant.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Claim {
    /// Plies that count since the last capture.
    pub counted_plies: usize,
    /// Checks (by the capped side or sides) that do not count.
    pub void_checks: usize,
    /// Whether the limit is reached.
    pub reached: bool,
    /// The ply (1-based) at which it was reached.
    pub from_ply: Option<usize>,
}

/// The 60-round report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LimitReport {
    /// The limit in rounds.
    pub rounds: u32,
    /// The check cap.
    pub check_cap: u32,
    /// Whose checks are capped.
    pub cap_applies: CapApplies,
    /// The ply (1-based) of the last capture, if any.
    pub last_capture_ply: Option<usize>,
    /// Plies since the last capture (or since the start).
    pub plies_without_capture: usize,
    /// Checks given by each side since then.
    pub checks: ByColor<usize>,
    /// The count if Red claims, and if Black claims.
    pub claim: ByColor<Claim>,
    /// The game ended on the board with the last move (checkmate or stalemate): that result
    /// stands whatever the count.
    pub ended_on_board: bool,
}

/// Counts the limit over a line (`positions` holds the start and the position after each move).
pub fn count(positions: &[Position], moves: &[Move], options: LimitOptions) -> LimitReport {
    let last_capture = moves
        .iter()
        .enumerate()
        .rev()
        .find(|&(i, m)| positions[i].piece_at(m.to).is_some())
        .map(|(i, _)| i);
    let from = last_capture.map_or(0, |i| i + 1);
    let mut checks = ByColor::<usize>::default();
    let window: Vec<(usize, Color, bool)> = (from..moves.len())
        .map(|i| {
            let side = positions[i].turn();
            let check = positions[i + 1].is_check();
            if check {
                *checks.get_mut(side) += 1;
            }
            (i, side, check)
        })
        .collect();
    let claim = ByColor::new_with(|claimant| {
        let mut given = ByColor::<u32>::default();
        let mut counted = 0;
        let mut void = 0;
        let mut from_ply = None;
        for &(i, side, check) in &window {
            let capped = match options.cap_applies {
                CapApplies::Claimant => side == claimant,
                CapApplies::Both => true,
            };
            if check {
                *given.get_mut(side) += 1;
            }
            if check && capped && given[side] > options.check_cap {
                void += 1;
                continue;
            }
            counted += 1;
            if from_ply.is_none() && counted >= 2 * options.rounds as usize {
                from_ply = Some(i + 1);
            }
        }
        Claim {
            counted_plies: counted,
            void_checks: void,
            reached: from_ply.is_some(),
            from_ply,
        }
    });
    let ended_on_board = positions.last().is_some_and(|p| p.outcome().is_some());
    LimitReport {
        rounds: options.rounds,
        check_cap: options.check_cap,
        cap_applies: options.cap_applies,
        last_capture_ply: last_capture.map(|i| i + 1),
        plies_without_capture: moves.len() - from,
        checks,
        claim,
        ended_on_board,
    }
}
