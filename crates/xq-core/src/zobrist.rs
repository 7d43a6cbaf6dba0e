//! Position hashing for repetition detection.
//!
//! A 64-bit Zobrist key over the placement and the side to move; equal positions always get equal
//! keys. Keys can collide (and can be forged), so code that makes a ruling must confirm a
//! repetition with full equality ([`Position::same_position`](crate::Position::same_position)) and
//! use the key only to bucket candidates.

use crate::{Piece, Square};

const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (state, z ^ (z >> 31))
}

const KEYS: ([[u64; 90]; 14], u64) = {
    let mut table = [[0u64; 90]; 14];
    // Fixed seed: keys must be the same in every build so that stored hashes stay comparable.
    let mut state = 0x5851_f42d_4c95_7f2d_u64;
    let mut p = 0;
    while p < 14 {
        let mut s = 0;
        while s < 90 {
            let (next, key) = splitmix64(state);
            state = next;
            table[p][s] = key;
            s += 1;
        }
        p += 1;
    }
    let (_, side) = splitmix64(state);
    (table, side)
};

/// The key of `piece` standing on `sq`.
#[inline]
pub(crate) const fn piece_key(piece: Piece, sq: Square) -> u64 {
    KEYS.0[piece.index()][sq.index()]
}

/// Mixed in when Black is to move.
pub(crate) const BLACK_TO_MOVE: u64 = KEYS.1;
