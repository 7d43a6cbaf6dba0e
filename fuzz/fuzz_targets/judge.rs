//! The arbiter on a random legal game: the bytes choose the moves (with a bias to repeat), and
//! judging under both profiles never panics.
#![no_main]

use libfuzzer_sys::fuzz_target;
use xq_arbiter::{JudgeOptions, Profile, judge};
use xq_core::Position;

fuzz_target!(|data: &[u8]| {
    let mut pos = Position::new();
    let mut moves = Vec::new();
    for &b in data.iter().take(40) {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        // A high bit replays the move four plies back when it is legal: repetitions appear.
        let m = match moves.len().checked_sub(4).map(|i: usize| moves[i]) {
            Some(back) if b & 0x80 != 0 && legal.contains(&back) => back,
            _ => legal[usize::from(b) % legal.len()],
        };
        pos.play_unchecked(m);
        moves.push(m);
    }
    for profile in [Profile::CXA2020, Profile::AXF] {
        let options = JudgeOptions { profile, effort: xq_arbiter::Effort { mate_checks: 3, nodes: 20_000 }, ..JudgeOptions::default() };
        let _ = judge(&Position::new(), &moves, options);
    }
});
