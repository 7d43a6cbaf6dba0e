//! What the checks-only mate search has settled, remembered per position, so that a position
//! reached again (by another order of the same checks, by the next deepening, by the next move of
//! a cycle) is not searched again.
//!
//! A remembered answer is reused only where the search would give the very same answer, line and
//! node count included:
//! - **the position** is compared in full ([`Placement`]), not by its key alone;
//! - **the node**: the attacker to check or the defender to answer, and the checks left;
//! - **the budget**: an answer is kept only if the budget never ran dry while it was worked out,
//!   and reused only if what is left covers the nodes it took (which are then spent): the search
//!   would have taken the same steps;
//! - **the path**: a series of checks that repeats a position is not followed, so an answer can
//!   depend on the positions above it. It is kept only if no repetition met a position above it
//!   (it did not depend on them), and reused only if none of the positions above it now is one
//!   the search tests below it. Only positions reached by reversible moves (no capture, no pawn
//!   stepping forward) can repeat one above: a capture or a pawn's step changes the material or
//!   the pawns for good. So each answer keeps the set of positions it tested that were reached
//!   by reversible moves only ([`Reach`], a filter that may say yes wrongly but never no), and
//!   it is checked against the positions above reached the same way.
//! - **the face-offs** the attacker may not take: the memo is cleared when they change.

use std::{
    collections::HashMap,
    hash::{BuildHasherDefault, Hasher},
};

use xq_core::{Color, Move, Position, Square};

/// The fewest nodes an answer must have taken to be kept: a smaller search costs less than the
/// memory it would take (the positions a mate search tests are many, the most of them leaves).
pub(super) const WORTH_KEEPING: u32 = 2;

/// Entries kept at most (a bound on memory, never reached by the positions judged so far).
const CAPACITY: usize = 1 << 20;

/// The side to play at a node of the checks-only search.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Node {
    /// The attacker, to give check.
    Attack,
    /// The defender, in check, to answer.
    Defend,
}

/// The exact placement and side to move of a position, packed: the occupied points (and the
/// side to move above them), then each occupied point's piece, four bits each, point by point.
/// `None` for more than 32 pieces (not remembered).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Placement([u64; 4]);

impl Placement {
    fn of(pos: &Position) -> Option<Placement> {
        let board = pos.board();
        let occupied = board.occupied();
        if occupied.count() > 32 {
            return None;
        }
        let mut pieces = 0u128;
        for (i, sq) in occupied.into_iter().enumerate() {
            let code = board.piece_at(sq).map_or(0, |p| p.index() as u128);
            pieces |= code << (4 * i);
        }
        let occupied = occupied.0 | u128::from(pos.turn() == Color::Red) << 127;
        Some(Placement([
            occupied as u64,
            (occupied >> 64) as u64,
            pieces as u64,
            (pieces >> 64) as u64,
        ]))
    }
}

/// A set of position keys that may hold keys never added (a Bloom filter of 256 bits, two bits a
/// key) but always holds those added.
#[derive(Copy, Clone, Debug, Default)]
pub(super) struct Reach([u64; 4]);

impl Reach {
    fn bits(key: u64) -> [(usize, u64); 2] {
        [
            ((key >> 6) as usize & 3, 1 << (key & 63)),
            ((key >> 14) as usize & 3, 1 << ((key >> 8) & 63)),
        ]
    }

    /// Adds `key`.
    pub(super) fn add(&mut self, key: u64) {
        for (word, bit) in Reach::bits(key) {
            self.0[word] |= bit;
        }
    }

    /// Adds every key of `other`.
    pub(super) fn merge(&mut self, other: &Reach) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a |= b;
        }
    }

    /// Whether `key` may be in the set (`false`: it is not).
    fn may_hold(&self, key: u64) -> bool {
        Reach::bits(key)
            .iter()
            .all(|&(word, bit)| self.0[word] & bit != 0)
    }
}

#[derive(Clone, Debug)]
struct Entry {
    placement: Placement,
    node: Node,
    checks: u32,
    /// The nodes the search took.
    spent: u32,
    /// The positions it tested that were reached by reversible moves only.
    reach: Reach,
    line: Option<Box<[Move]>>,
}

/// Zobrist keys are well mixed already: the map takes them as they are.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// The answers of the checks-only mate search, for one set of face-offs.
#[derive(Clone, Debug, Default)]
pub(super) struct MateMemo {
    /// Whether nothing is remembered (the plain search, to compare with).
    pub(super) off: bool,
    face_offs: Vec<(Square, Square)>,
    entries: HashMap<u64, Entry, BuildHasherDefault<KeyHasher>>,
}

fn slot(pos: &Position, node: Node, checks: u32) -> u64 {
    let node = match node {
        Node::Attack => 0,
        Node::Defend => 1,
    };
    pos.hash() ^ (u64::from(checks) << 1 | node).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

impl MateMemo {
    /// Forgets everything unless the searches to come avoid the same `face_offs`.
    pub(super) fn avoiding(&mut self, face_offs: &[(Square, Square)]) {
        if self.face_offs != face_offs {
            self.entries.clear();
            self.face_offs = face_offs.to_vec();
        }
    }

    /// The remembered answer at `pos` if the search, with `nodes` left and the positions `above`
    /// (those reached from the last irreversible move on) standing above it, would give it: the
    /// line, and what it reached. The nodes it took are taken from `nodes`.
    pub(super) fn recall(
        &self,
        pos: &Position,
        node: Node,
        checks: u32,
        above: &[u64],
        nodes: &mut u32,
    ) -> Option<(Option<Vec<Move>>, Reach)> {
        if self.off {
            return None;
        }
        let e = self.entries.get(&slot(pos, node, checks))?;
        if e.node != node
            || e.checks != checks
            || e.spent > *nodes
            || above.iter().any(|&key| e.reach.may_hold(key))
            || Placement::of(pos) != Some(e.placement)
        {
            return None;
        }
        *nodes -= e.spent;
        Some((e.line.as_ref().map(|l| l.to_vec()), e.reach))
    }

    /// Remembers the answer at `pos`, worked out in `spent` nodes (the budget never ran dry) and
    /// without meeting a position above it.
    pub(super) fn store(
        &mut self,
        pos: &Position,
        node: Node,
        checks: u32,
        spent: u32,
        reach: Reach,
        line: &Option<Vec<Move>>,
    ) {
        if self.off || self.entries.len() >= CAPACITY {
            return;
        }
        let Some(placement) = Placement::of(pos) else {
            return;
        };
        self.entries.insert(
            slot(pos, node, checks),
            Entry {
                placement,
                node,
                checks,
                spent,
                reach,
                line: line.as_ref().map(|l| l.clone().into_boxed_slice()),
            },
        );
    }
}
