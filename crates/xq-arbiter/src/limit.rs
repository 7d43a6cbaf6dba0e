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

/// One ply of the audit an arbiter does by hand.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AuditRow {
    /// The ply, 1-based from the first move of the line.
    pub ply: usize,
    /// The round (回合) the move belongs to: the move number of the position it is played in.
    pub round: u32,
    /// Who moved.
    #[serde(serialize_with = "crate::ser::color")]
    pub side: Color,
    /// The move.
    #[serde(rename = "move", serialize_with = "crate::ser::iccs")]
    pub m: Move,
    /// The move captures: the count starts again after it.
    pub capture: bool,
    /// The move gives check.
    pub check: bool,
    /// For a check by a capped side: its how-many-th check since the last capture.
    pub check_number: Option<u32>,
    /// The move counts towards the limit (a capture, a check beyond the cap, and moves before
    /// the last capture do not).
    pub counted: bool,
    /// Plies counted since the last capture, this one included.
    pub count: usize,
}

/// What the audit concludes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub enum AuditVerdict {
    /// The limit is reached: a draw may be claimed from this ply on.
    DrawFrom {
        /// The ply (1-based) that completes the count.
        ply: usize,
        /// Its round.
        round: u32,
    },
    /// Not yet.
    NotYet {
        /// Plies counted.
        counted: usize,
        /// Plies needed.
        needed: usize,
    },
    /// The last move mated (or stalemated) the other side: that result stands whatever the
    /// count.
    EndedOnBoard {
        /// The winner.
        #[serde(serialize_with = "crate::ser::color")]
        winner: Color,
        /// Whether it was a stalemate (困毙) rather than a checkmate.
        stalemate: bool,
    },
}

/// The 60-round audit for one claimant: every ply, and the conclusion.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Audit {
    /// The side claiming the draw.
    #[serde(serialize_with = "crate::ser::color")]
    pub claimant: Color,
    /// The limit in rounds.
    pub rounds: u32,
    /// The check cap.
    pub check_cap: u32,
    /// Whose checks are capped.
    pub cap_applies: CapApplies,
    /// The ply (1-based) of the last capture, if any.
    pub last_capture_ply: Option<usize>,
    /// Every ply of the line.
    pub rows: Vec<AuditRow>,
    /// The conclusion.
    #[serde(flatten)]
    pub verdict: AuditVerdict,
}

/// Audits the limit over a line (`positions` holds the start and the position after each move)
/// for `claimant`.
pub fn audit(
    positions: &[Position],
    moves: &[Move],
    options: LimitOptions,
    claimant: Color,
) -> Audit {
    let mut rows = Vec::with_capacity(moves.len());
    let mut count = 0;
    let mut given = ByColor::<u32>::default();
    let mut last_capture = None;
    let mut reached = None;
    for (i, &m) in moves.iter().enumerate() {
        let before = &positions[i];
        let side = before.turn();
        let capture = before.piece_at(m.to).is_some();
        let check = positions[i + 1].is_check();
        let capped = match options.cap_applies {
            CapApplies::Claimant => side == claimant,
            CapApplies::Both => true,
        };
        let mut check_number = None;
        let counted = if capture {
            count = 0;
            given = ByColor::default();
            last_capture = Some(i + 1);
            reached = None;
            false
        } else {
            if check && capped {
                *given.get_mut(side) += 1;
                check_number = Some(given[side]);
            }
            let void = check_number.is_some_and(|n| n > options.check_cap);
            if !void {
                count += 1;
            }
            !void
        };
        if reached.is_none() && count >= 2 * options.rounds as usize {
            reached = Some((i + 1, before.fullmoves()));
        }
        rows.push(AuditRow {
            ply: i + 1,
            round: before.fullmoves(),
            side,
            m,
            capture,
            check,
            check_number,
            counted,
            count,
        });
    }
    let verdict = match (positions.last().and_then(Position::outcome), reached) {
        (Some(end), _) => AuditVerdict::EndedOnBoard {
            winner: end.winner,
            stalemate: end.reason == xq_core::EndReason::Stalemate,
        },
        (None, Some((ply, round))) => AuditVerdict::DrawFrom { ply, round },
        (None, None) => AuditVerdict::NotYet {
            counted: count,
            needed: 2 * options.rounds as usize,
        },
    };
    Audit {
        claimant,
        rounds: options.rounds,
        check_cap: options.check_cap,
        cap_applies: options.cap_applies,
        last_capture_ply: last_capture,
        rows,
        verdict,
    }
}

/// Counts the limit over a line (`positions` holds the start and the position after each move),
/// for either claimant.
pub fn count(positions: &[Position], moves: &[Move], options: LimitOptions) -> LimitReport {
    let audits = ByColor::new_with(|claimant| audit(positions, moves, options, claimant));
    let red = &audits[Color::Red];
    let from = red.last_capture_ply.unwrap_or(0);
    let mut checks = ByColor::<usize>::default();
    for row in &red.rows[from..] {
        if row.check {
            *checks.get_mut(row.side) += 1;
        }
    }
    let claim = ByColor::new_with(|claimant| {
        let a = &audits[claimant];
        let window = &a.rows[from..];
        let from_ply = match a.verdict {
            AuditVerdict::DrawFrom { ply, .. } => Some(ply),
            _ => window
                .iter()
                .find(|r| r.count >= 2 * options.rounds as usize)
                .map(|r| r.ply),
        };
        Claim {
            counted_plies: window.last().map_or(0, |r| r.count),
            void_checks: window.iter().filter(|r| !r.counted).count(),
            reached: from_ply.is_some(),
            from_ply,
        }
    });
    let ended_on_board = positions.last().is_some_and(|p| p.outcome().is_some());
    LimitReport {
        rounds: options.rounds,
        check_cap: options.check_cap,
        cap_applies: options.cap_applies,
        last_capture_ply: red.last_capture_ply,
        plies_without_capture: moves.len() - from,
        checks,
        claim,
        ended_on_board,
    }
}
