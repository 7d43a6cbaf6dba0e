//! Perft: counting the leaves of the legal move tree, the standard test of a move generator.

use crate::{Move, Position};

/// The number of legal move sequences of length `depth` from `pos` (bulk-counted: at depth 1 the
/// legal moves are counted, not played).
pub fn perft(pos: &Position, depth: u32) -> u64 {
    let mut pos = pos.clone();
    perft_inner(&mut pos, depth)
}

fn perft_inner(pos: &mut Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves() as u64,
        _ => {
            let moves = pos.legal_moves();
            let mut nodes = 0;
            for &m in moves.iter() {
                let undo = pos.make_move(m);
                nodes += perft_inner(pos, depth - 1);
                pos.unmake_move(m, undo);
            }
            nodes
        }
    }
}

/// Perft split by first move: each legal move with the leaf count below it, in generation order.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let mut pos = pos.clone();
    let moves = pos.legal_moves();
    moves
        .iter()
        .map(|&m| {
            let undo = pos.make_move(m);
            let n = perft_inner(&mut pos, depth - 1);
            pos.unmake_move(m, undo);
            (m, n)
        })
        .collect()
}
