//! Helpers shared by the end-to-end tests.

#![allow(dead_code, clippy::unwrap_used)]

use std::path::{Path, PathBuf};

/// The shared reference data (`../shared` beside the project), which CI has.
pub(crate) fn shared() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared")
}

/// Every file below `dir` with extension `ext` (case-insensitive), sorted.
pub(crate) fn files_below(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case(ext))
            {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// A small deterministic generator (xorshift64*), so failures reproduce.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number below `n` (which must not be 0).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Plays up to `plies` random legal moves from `pos`, calling `visit` on every position reached
/// (the first included) until the game ends.
pub(crate) fn playout(
    mut pos: xq_core::Position,
    plies: usize,
    rng: &mut Rng,
    mut visit: impl FnMut(&xq_core::Position),
) {
    for _ in 0..=plies {
        visit(&pos);
        let legal = pos.legal_moves();
        if legal.is_empty() {
            return;
        }
        pos = pos.play(legal[rng.below(legal.len())]).unwrap();
    }
}
