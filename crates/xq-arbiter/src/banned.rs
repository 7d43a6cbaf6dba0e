//! Forbidden moves (what UCCI calls `banmoves`): given the game so far, the moves the side to
//! move may not play because they would continue a repetition the rules make that side change.
//!
//! Every legal move of the final position is tried; a move that brings back a position of the
//! game (same placement, same side to move) is judged as the arbiter would judge the line ending
//! with it ([`judge`](fn@crate::judge), the same cycle, natures and ruling). Then:
//! - the ruling says the mover must change (长将, 长杀, 长捉 … under CXA; under AXF the mover
//!   would lose): the move is **banned**;
//! - the ruling is a draw: the move is listed apart, so that a server can offer the draw;
//! - the ruling says the opponent must change: the move is allowed, and listed apart too (the
//!   opponent is the one who will have to vary).
//!
//! By default a move is judged from the first return of a position, the moment the rulebook's
//! patterns are complete (24.1: a cycle is one return). A server that lets a forbidden cycle
//! stand until the third occurrence, as some tournament arbiters do before intervening, sets
//! [`BanOptions::occurrences`] to 3.

use serde::Serialize;
use xq_core::{Color, Move, Position};

use crate::{
    cycle::{self, Cycle},
    judge::{JudgeOptions, Sides, judge},
    ruling::Verdict,
};

/// Options for [`banned_moves`].
#[derive(Copy, Clone, Debug)]
pub struct BanOptions {
    /// How the repetition is judged (rule profile, search effort, first-rounds rule).
    pub judge: JudgeOptions,
    /// From which occurrence of a position a move is judged: 2 (the default) judges a move that
    /// brings a position back for the second time, i.e. its first repetition.
    pub occurrences: usize,
}

impl Default for BanOptions {
    fn default() -> BanOptions {
        BanOptions {
            judge: JudgeOptions::default(),
            occurrences: 2,
        }
    }
}

/// A move that repeats a position, with the ruling on the repetition it would make.
#[derive(Clone, Debug, Serialize)]
pub struct Repeat {
    /// The move.
    #[serde(rename = "move", serialize_with = "crate::ser::iccs")]
    pub m: Move,
    /// The ruling on the line ending with the move.
    pub verdict: Verdict,
    /// The clause the ruling rests on.
    pub clause: &'static str,
    /// Why, in Chinese.
    pub why_zh: String,
    /// Why, in English.
    pub why_en: String,
    /// The cycle the move would close.
    pub cycle: Cycle,
    /// Both sides' patterns over that cycle.
    pub sides: Sides,
}

/// The answer of [`banned_moves`].
#[derive(Clone, Debug, Serialize)]
pub struct BannedMoves {
    /// The side to move, whose moves are listed.
    #[serde(serialize_with = "crate::ser::color")]
    pub side: Color,
    /// The rule set.
    pub rules: &'static str,
    /// Moves the side may not play: the repetition would make it change.
    pub banned: Vec<Repeat>,
    /// Moves that would make a drawn repetition (a server may offer the draw).
    pub draws: Vec<Repeat>,
    /// Moves that repeat a position where the opponent is the one who must change: allowed.
    pub opponent_must_change: Vec<Repeat>,
}

impl BannedMoves {
    /// The banned moves alone.
    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.banned.iter().map(|r| r.m)
    }
}

/// The forbidden moves of the side to move after `moves` played from `start` (every move
/// legal), with the drawn repetitions apart. Moves are listed in the order of
/// [`Position::legal_moves`].
pub fn banned_moves(start: &Position, moves: &[Move], options: BanOptions) -> BannedMoves {
    let positions = cycle::positions(start, moves);
    let last = positions.last().unwrap_or(start);
    let side = last.turn();
    let mut out = BannedMoves {
        side,
        rules: options.judge.profile.name(),
        banned: Vec::new(),
        draws: Vec::new(),
        opponent_must_change: Vec::new(),
    };
    let mut line = Vec::with_capacity(moves.len() + 1);
    line.extend_from_slice(moves);
    for &m in &last.legal_moves() {
        let mut after = last.clone();
        after.play_unchecked(m);
        let seen = positions.iter().filter(|p| p.same_position(&after)).count();
        if seen + 1 < options.occurrences.max(2) {
            continue;
        }
        line.push(m);
        let j = judge(start, &line, options.judge);
        line.pop();
        let (Some(cycle), Some(sides)) = (j.cycle, j.sides) else {
            continue;
        };
        let repeat = Repeat {
            m,
            verdict: j.verdict,
            clause: j.clause,
            why_zh: j.why_zh,
            why_en: j.why_en,
            cycle,
            sides,
        };
        match (j.verdict, side) {
            (Verdict::RedMustChange, Color::Red) | (Verdict::BlackMustChange, Color::Black) => {
                out.banned.push(repeat);
            }
            (Verdict::Draw, _) => out.draws.push(repeat),
            (Verdict::RedMustChange | Verdict::BlackMustChange, _) => {
                out.opponent_must_change.push(repeat);
            }
            (Verdict::NoRepetition, _) => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::Profile;

    fn line(fen: &str, moves: &str) -> (Position, Vec<Move>) {
        let start = Position::from_fen_lenient(fen).unwrap();
        let moves = moves
            .split_whitespace()
            .map(|m| m.parse().unwrap())
            .collect();
        (start, moves)
    }

    fn names(list: &[Repeat]) -> Vec<String> {
        list.iter().map(|r| r.m.to_string()).collect()
    }

    /// Red's rook checks from a9 and a8 in turn; the black king steps between e8 and e9.
    const CHECKS: &str = "R8/4k4/9/9/9/9/9/9/9/3K5 w";
    /// Red's rook follows Black's unprotected cannon between c7 and c6.
    const CHASE: &str = "5k3/9/R1c6/9/9/9/9/9/9/3K5 b";

    #[test]
    fn a_perpetual_check_bans_the_check_that_repeats() {
        let (start, moves) = line(CHECKS, "a9a8 e8e9 a8a9 e9e8");
        let answer = banned_moves(&start, &moves, BanOptions::default());
        assert_eq!(answer.side, Color::Red);
        assert_eq!(names(&answer.banned), ["a9a8"]);
        let repeat = &answer.banned[0];
        assert_eq!(repeat.verdict, Verdict::RedMustChange);
        assert_eq!(repeat.sides.red.name, "长将");
        assert!(answer.draws.is_empty() && answer.opponent_must_change.is_empty());
        // Other checks from a9 do not repeat a position: they stay allowed.
        assert!(answer.moves().all(|m| m.to_string() == "a9a8"));
    }

    #[test]
    fn the_checked_side_may_repeat_its_answer() {
        // Before Black's last move: the king's return closes the cycle, and Red must change.
        let (start, moves) = line(CHECKS, "a9a8 e8e9 a8a9");
        let answer = banned_moves(&start, &moves, BanOptions::default());
        assert_eq!(answer.side, Color::Black);
        assert!(answer.banned.is_empty());
        assert_eq!(names(&answer.opponent_must_change), ["e9e8"]);
    }

    #[test]
    fn a_perpetual_chase_bans_the_chasing_move() {
        let (start, moves) = line(CHASE, "c7c6 a7a6 c6c7");
        let answer = banned_moves(&start, &moves, BanOptions::default());
        assert_eq!(names(&answer.banned), ["a6a7"]);
        assert_eq!(answer.banned[0].sides.red.name, "长捉");
        assert_eq!(answer.banned[0].clause, "25.3");
    }

    #[test]
    fn idle_moves_on_both_sides_are_a_draw_not_a_ban() {
        let (start, moves) = line(CHASE, "f9f8 d0d1 f8f9");
        let answer = banned_moves(&start, &moves, BanOptions::default());
        assert!(answer.banned.is_empty());
        assert_eq!(names(&answer.draws), ["d1d0"]);
    }

    #[test]
    fn a_line_without_return_bans_nothing() {
        let (start, moves) = line(CHECKS, "a9a8 e8e9");
        let answer = banned_moves(&start, &moves, BanOptions::default());
        assert!(answer.banned.is_empty() && answer.draws.is_empty());
    }

    #[test]
    fn a_later_occurrence_can_be_asked_for() {
        let third = BanOptions {
            occurrences: 3,
            ..BanOptions::default()
        };
        let (start, once) = line(CHECKS, "a9a8 e8e9 a8a9 e9e8");
        assert!(banned_moves(&start, &once, third).banned.is_empty());
        let (start, twice) = line(CHECKS, "a9a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8a9 e9e8");
        assert_eq!(names(&banned_moves(&start, &twice, third).banned), ["a9a8"]);
    }

    #[test]
    fn under_axf_the_perpetual_check_is_banned_too() {
        let options = BanOptions {
            judge: JudgeOptions {
                profile: Profile::AXF,
                opening_rounds: 0,
                ..JudgeOptions::default()
            },
            ..BanOptions::default()
        };
        let (start, moves) = line(CHECKS, "a9a8 e8e9 a8a9 e9e8");
        let answer = banned_moves(&start, &moves, options);
        assert_eq!(answer.rules, "axf");
        assert_eq!(names(&answer.banned), ["a9a8"]);
    }
}
