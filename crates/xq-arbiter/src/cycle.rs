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
