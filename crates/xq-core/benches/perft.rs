//! Move generation speed: perft with bulk counting at the leaves.
//!
//! `cargo bench -p xq-core --bench perft`. The full perft(6) of the start position
//! (5,392,831,844 nodes) is measured with `xq perft --depth 6` (see README); these benches keep
//! each sample short.
//!
//! The yardstick: Pikafish's perft(6) of the start position took about 49 s on the 2-core build
//! machine (110 M nodes/s) when the speed round began, and the xq of then (`f052590`) 1.30x less.
//! On 2026-11-25 `xq perft --depth 6` took 26.1-26.5 s there (203-207 M nodes/s) against
//! 33.3-34.1 s for `f052590` in the same runs: about 1.6-1.7x Pikafish by that ratio. On
//! 2026-12-02, after a point's bit was looked up instead of shifted, `xq perft --depth 5` took
//! 1.25-1.47 s against 1.65-1.96 s for `f052590` (alternated runs, a slower day of the machine):
//! about 1.6-1.8x Pikafish by that ratio. Keep xq at 1.3x Pikafish or better.

use divan::{Bencher, counter::ItemsCount};
use xq_core::{Position, perft::perft};

fn main() {
    divan::main();
}

const POSITIONS: [(&str, &str, u32, u64); 3] = [
    ("start", xq_core::START_FEN, 5, 133_312_995),
    (
        "middlegame",
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w",
        4,
        1_339_047,
    ),
    (
        "endgame",
        "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w",
        5,
        4_739_553,
    ),
];

#[divan::bench(args = [0, 1, 2], sample_count = 3, sample_size = 1)]
fn perft_bulk(bencher: Bencher<'_, '_>, which: usize) {
    let (_, fen, depth, nodes) = POSITIONS[which];
    let pos = Position::from_fen(fen).expect("valid FEN");
    bencher.counter(ItemsCount::new(nodes)).bench(|| {
        let n = perft(&pos, depth);
        assert_eq!(n, nodes);
        n
    });
}

#[divan::bench]
fn legal_moves_start(bencher: Bencher<'_, '_>) {
    let pos = Position::new();
    bencher.bench(|| divan::black_box(&pos).legal_moves().len());
}
