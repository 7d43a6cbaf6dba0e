//! Forbidden moves after a 200-ply game, as a server asks after every move.
//!
//! `cargo bench -p xq-arbiter --bench banned`: a 200-ply game without a repetition at its end
//! (only the legal moves are tried), and two 200-ply games that end in a rulebook cycle played
//! over and over (the moves that repeat are judged).

use divan::Bencher;
use xq_arbiter::{BanOptions, banned_moves};
use xq_core::{Move, Position};

mod support;

fn main() {
    divan::main();
}

/// A rulebook case's cycle played until the line is `plies` long.
fn repeated(id: &str, plies: usize) -> (Position, Vec<Move>) {
    let cases = support::cases();
    let (_, start, moves, _) = cases.into_iter().find(|c| c.0 == id).expect("the case");
    let line = moves.iter().copied().cycle().take(plies).collect();
    (start, line)
}

/// A 200-ply game of legal moves from the start, chosen by a stride (deterministic).
fn wandering() -> (Position, Vec<Move>) {
    let start = Position::default();
    let mut pos = start.clone();
    let mut moves = Vec::new();
    // A spread of choices without a generator: the k-th move picks a legal move by a stride.
    while moves.len() < 200 {
        let legal = pos.legal_moves();
        let Some(&m) = legal.get((moves.len() * 7 + 3) % legal.len().max(1)) else {
            break;
        };
        pos.play_unchecked(m);
        moves.push(m);
    }
    assert_eq!(moves.len(), 200, "the stride game ended early");
    (start, moves)
}

#[divan::bench]
fn game_of_200_plies_without_repetition(bencher: Bencher<'_, '_>) {
    let (start, moves) = wandering();
    bencher.bench(|| {
        banned_moves(&start, &moves, BanOptions::default())
            .banned
            .len()
    });
}

#[divan::bench(sample_count = 20)]
fn perpetual_chase_figure_2_for_200_plies(bencher: Bencher<'_, '_>) {
    let (start, moves) = repeated("2020-图2", 200);
    bencher.bench(|| {
        banned_moves(&start, &moves, BanOptions::default())
            .banned
            .len()
    });
}

#[divan::bench(sample_count = 10)]
fn slowest_case_figure_9_for_200_plies(bencher: Bencher<'_, '_>) {
    let (start, moves) = repeated("2020-图9", 200);
    bencher.bench(|| {
        banned_moves(&start, &moves, BanOptions::default())
            .banned
            .len()
    });
}
