//! Finding the repetition at the end of a line of moves.

use serde::Serialize;
use xq_core::{Move, Position};

/// The repeating stretch at the end of a line.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Cycle {
    /// The ply (0-based) where the cycle's first move stands: the moves `start_ply ..
    /// start_ply + plies` lead from a position back to the same position.
    pub start_ply: usize,
    /// The cycle's length in plies (even: the same side is to move at both ends).
    pub plies: usize,
    /// How often the final position occurs in the line, the final one included.
    pub occurrences: usize,
}

/// The positions of a line: the start and the position after every move. Every move must be
/// legal.
pub fn positions(start: &Position, moves: &[Move]) -> Vec<Position> {
    let mut out = Vec::with_capacity(moves.len() + 1);
    out.push(start.clone());
    let mut pos = start.clone();
    for &m in moves {
        pos.play_unchecked(m);
        out.push(pos.clone());
    }
    out
}

/// The most recent repetition of the final position: the shortest cycle ending the line, or
/// `None` if the final position has not occurred before. Positions are bucketed by their hash
/// and confirmed by full comparison.
pub fn find(positions: &[Position]) -> Option<Cycle> {
    let last = positions.last()?;
    let n = positions.len() - 1;
    let earlier: Vec<usize> = (0..n)
        .filter(|&k| positions[k].hash() == last.hash() && positions[k].same_position(last))
        .collect();
    let &k = earlier.last()?;
    Some(Cycle {
        start_ply: k,
        plies: n - k,
        occurrences: earlier.len() + 1,
    })
}

/// The whole stretch from the *first* earlier occurrence of the final position to the end of
/// the line, however many cycles (and whatever different ways round) it holds: how the Asian
/// rules judge a repetition. `None` if the final position has not occurred before.
pub fn find_from_first(positions: &[Position]) -> Option<Cycle> {
    let last = find(positions)?;
    let n = positions.len() - 1;
    let final_pos = &positions[n];
    let first = (0..n).find(|&k| positions[k].same_position(final_pos))?;
    Some(Cycle {
        start_ply: first,
        plies: n - first,
        occurrences: last.occurrences,
    })
}

/// A stretch of a line in which every move brings back a position seen earlier in the line: one
/// repetition, however many times its cycle is played.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Repetition {
    /// The first move (1-based ply) that brings a position back.
    pub first_ply: usize,
    /// The last move of the stretch (1-based ply): every move from `first_ply` to here brings a
    /// position back, the move after it (if any) does not.
    pub last_ply: usize,
}

/// Every repetition of a line (`positions` as [`positions`] gives them), in order.
pub fn repetitions(positions: &[Position]) -> Vec<Repetition> {
    let mut seen: std::collections::HashMap<u64, Vec<usize>> = std::collections::HashMap::new();
    let mut out: Vec<Repetition> = Vec::new();
    for (i, pos) in positions.iter().enumerate() {
        let earlier = seen.entry(pos.hash()).or_default();
        let returns = earlier.iter().any(|&k| positions[k].same_position(pos));
        earlier.push(i);
        if !returns {
            continue;
        }
        match out.last_mut() {
            Some(r) if r.last_ply + 1 == i => r.last_ply = i,
            _ => out.push(Repetition {
                first_ply: i,
                last_ply: i,
            }),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn line(moves: &str) -> Vec<Position> {
        let moves: Vec<Move> = moves
            .split_whitespace()
            .map(|m| m.parse().unwrap())
            .collect();
        positions(&Position::default(), &moves)
    }

    #[test]
    fn each_stretch_of_returns_is_one_repetition() {
        // Horses out and back twice (plies 4 to 8 each bring a position back), a cannon move
        // that does not, then the cannon back and forth (plies 11 and 12 return).
        let p = line("h0g2 h9g7 g2h0 g7h9 h0g2 h9g7 g2h0 g7h9 h2e2 b9c7 e2h2 c7b9 h2e2");
        assert_eq!(
            repetitions(&p),
            [
                Repetition {
                    first_ply: 4,
                    last_ply: 8
                },
                Repetition {
                    first_ply: 12,
                    last_ply: 13
                }
            ]
        );
        assert_eq!(find(&p).unwrap().start_ply, 9);
    }

    #[test]
    fn a_line_without_return_has_none() {
        assert!(repetitions(&line("h2e2 h9g7 h0g2")).is_empty());
    }
}
