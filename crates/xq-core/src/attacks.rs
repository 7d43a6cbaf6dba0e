//! Step tables and line arithmetic shared by move generation, check detection and the arbiter.
//!
//! Sliding pieces (rook, cannon, and the kings facing each other) are handled one line at a time:
//! the occupancy of a rank (9 bits, bit = file) or a file (10 bits, bit = rank) is a `u16`, and the
//! nearest, second-nearest … occupied points in either direction are found with a few bit
//! operations. No magic tables are needed, and the same helpers answer "which piece screens this
//! cannon" for the arbiter.

use crate::{Bitboard, Color, Square};

/// Up to eight step targets, each with the point that must be empty for the step (the horse's
/// leg 马腿 or the elephant's eye 象眼).
#[derive(Copy, Clone, Debug)]
pub(crate) struct Steps {
    pub(crate) len: u8,
    pub(crate) to: [u8; 8],
    pub(crate) via: [u8; 8],
}

impl Steps {
    pub(crate) const EMPTY: Steps = Steps {
        len: 0,
        to: [0; 8],
        via: [0; 8],
    };

    const fn push(mut self, to: usize, via: usize) -> Steps {
        self.to[self.len as usize] = to as u8;
        self.via[self.len as usize] = via as u8;
        self.len += 1;
        self
    }

    /// The (target, blocking point) pairs.
    #[inline]
    pub(crate) fn iter(&self) -> impl Iterator<Item = (Square, Square)> + '_ {
        (0..self.len as usize).map(|i| {
            (
                Square::from_index(self.to[i] as usize),
                Square::from_index(self.via[i] as usize),
            )
        })
    }
}

const fn coords(index: usize) -> (i32, i32) {
    ((index % 9) as i32, (index / 9) as i32)
}

const fn on_board(file: i32, rank: i32) -> bool {
    file >= 0 && file < 9 && rank >= 0 && rank < 10
}

const fn idx(file: i32, rank: i32) -> usize {
    (rank * 9 + file) as usize
}

const fn palace_of(file: i32, rank: i32) -> Option<Color> {
    if file < 3 || file > 5 {
        None
    } else if rank <= 2 {
        Some(Color::Red)
    } else if rank >= 7 {
        Some(Color::Black)
    } else {
        None
    }
}

const fn same_palace(a: (i32, i32), b: (i32, i32)) -> bool {
    match (palace_of(a.0, a.1), palace_of(b.0, b.1)) {
        (Some(x), Some(y)) => x as u8 == y as u8,
        _ => false,
    }
}

const fn own_half(rank: i32, color: Color) -> bool {
    match color {
        Color::Red => rank <= 4,
        Color::Black => rank >= 5,
    }
}

const ORTHOGONAL: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
const DIAGONAL: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
/// Horse jumps with their leg offsets.
const HORSE_JUMPS: [((i32, i32), (i32, i32)); 8] = [
    ((1, 2), (0, 1)),
    ((-1, 2), (0, 1)),
    ((1, -2), (0, -1)),
    ((-1, -2), (0, -1)),
    ((2, 1), (1, 0)),
    ((2, -1), (1, 0)),
    ((-2, 1), (-1, 0)),
    ((-2, -1), (-1, 0)),
];

/// One-point steps in the given directions that stay inside the same palace.
const fn palace_steps(directions: [(i32, i32); 4]) -> [Bitboard; 90] {
    let mut table = [Bitboard::EMPTY; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = coords(s);
        let mut bits = 0u128;
        let mut d = 0;
        while d < 4 {
            let (nf, nr) = (f + directions[d].0, r + directions[d].1);
            if on_board(nf, nr) && same_palace((f, r), (nf, nr)) {
                bits |= 1u128 << idx(nf, nr);
            }
            d += 1;
        }
        table[s] = Bitboard(bits);
        s += 1;
    }
    table
}

/// King steps: one point orthogonally, staying inside the palace.
pub(crate) const KING_STEPS: [Bitboard; 90] = palace_steps(ORTHOGONAL);

/// Advisor steps: one point diagonally, staying inside the palace.
pub(crate) const ADVISOR_STEPS: [Bitboard; 90] = palace_steps(DIAGONAL);

const fn elephant_table(color: Color) -> [Steps; 90] {
    let mut table = [Steps::EMPTY; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = coords(s);
        let mut steps = Steps::EMPTY;
        let mut d = 0;
        while d < 4 {
            let (df, dr) = DIAGONAL[d];
            let (nf, nr) = (f + 2 * df, r + 2 * dr);
            if on_board(nf, nr) && own_half(nr, color) {
                steps = steps.push(idx(nf, nr), idx(f + df, r + dr));
            }
            d += 1;
        }
        table[s] = steps;
        s += 1;
    }
    table
}

/// Elephant steps per color: two points diagonally, never across the river, with the eye.
pub(crate) const ELEPHANT_STEPS: [[Steps; 90]; 2] =
    [elephant_table(Color::Red), elephant_table(Color::Black)];

/// Horse jumps from each point, with the leg.
pub(crate) const HORSE_STEPS: [Steps; 90] = {
    let mut table = [Steps::EMPTY; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = coords(s);
        let mut steps = Steps::EMPTY;
        let mut d = 0;
        while d < 8 {
            let ((df, dr), (lf, lr)) = HORSE_JUMPS[d];
            let (nf, nr) = (f + df, r + dr);
            if on_board(nf, nr) {
                steps = steps.push(idx(nf, nr), idx(f + lf, r + lr));
            }
            d += 1;
        }
        table[s] = steps;
        s += 1;
    }
    table
};

/// For each point, the horses that could jump onto it: (horse point, that horse's leg).
pub(crate) const HORSE_ATTACKERS: [Steps; 90] = {
    let mut table = [Steps::EMPTY; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = coords(s);
        let mut steps = Steps::EMPTY;
        let mut d = 0;
        while d < 8 {
            let ((df, dr), (lf, lr)) = HORSE_JUMPS[d];
            let (hf, hr) = (f - df, r - dr);
            if on_board(hf, hr) {
                steps = steps.push(idx(hf, hr), idx(hf + lf, hr + lr));
            }
            d += 1;
        }
        table[s] = steps;
        s += 1;
    }
    table
};

const fn pawn_table(color: Color) -> [Bitboard; 90] {
    let mut table = [Bitboard::EMPTY; 90];
    let forward = match color {
        Color::Red => 1,
        Color::Black => -1,
    };
    let mut s = 0;
    while s < 90 {
        let (f, r) = coords(s);
        let mut bits = 0u128;
        if on_board(f, r + forward) {
            bits |= 1u128 << idx(f, r + forward);
        }
        if !own_half(r, color) {
            if f > 0 {
                bits |= 1u128 << idx(f - 1, r);
            }
            if f < 8 {
                bits |= 1u128 << idx(f + 1, r);
            }
        }
        table[s] = Bitboard(bits);
        s += 1;
    }
    table
}

/// Pawn steps per color: forward, and sideways once across the river.
pub(crate) const PAWN_STEPS: [[Bitboard; 90]; 2] =
    [pawn_table(Color::Red), pawn_table(Color::Black)];

const fn pawn_attackers_table(color: Color) -> [Bitboard; 90] {
    let steps = pawn_table(color);
    let mut table = [Bitboard::EMPTY; 90];
    let mut from = 0;
    while from < 90 {
        let mut to = 0;
        while to < 90 {
            if steps[from].0 & (1u128 << to) != 0 {
                table[to].0 |= 1u128 << from;
            }
            to += 1;
        }
        from += 1;
    }
    table
}

/// For each point, where a pawn of the given color must stand to step onto it.
pub(crate) const PAWN_ATTACKERS: [[Bitboard; 90]; 2] = [
    pawn_attackers_table(Color::Red),
    pawn_attackers_table(Color::Black),
];

/// Bits of a rank's occupancy (one per file).
pub(crate) const RANK_MASK: u16 = 0x1ff;
/// Bits of a file's occupancy (one per rank).
pub(crate) const FILE_MASK: u16 = 0x3ff;

/// Bits strictly above `pos`.
#[inline]
pub(crate) const fn above(pos: u32) -> u16 {
    !((2u16 << pos).wrapping_sub(1))
}

/// Bits strictly below `pos`.
#[inline]
pub(crate) const fn below(pos: u32) -> u16 {
    (1u16 << pos) - 1
}

#[inline]
const fn lowest(x: u16) -> u16 {
    x & x.wrapping_neg()
}

#[inline]
const fn highest(x: u16) -> u16 {
    if x == 0 {
        0
    } else {
        1 << (15 - x.leading_zeros())
    }
}

/// What a rook or cannon on one line sees from `pos`.
#[derive(Copy, Clone, Debug)]
pub(crate) struct LineView {
    /// Empty points reachable without jumping.
    pub(crate) slide: u16,
    /// The nearest occupied point in each direction (what a rook can capture).
    pub(crate) first: u16,
    /// The second occupied point in each direction (what a cannon can capture).
    pub(crate) second: u16,
}

/// Scans a line whose occupancy is `occ` (bits within `mask`) from `pos`.
#[inline]
pub(crate) const fn line_view(occ: u16, pos: u32, mask: u16) -> LineView {
    let up = occ & above(pos);
    let u1 = lowest(up);
    let u2 = lowest(up ^ u1);
    let down = occ & below(pos);
    let d1 = highest(down);
    let d2 = highest(down ^ d1);
    let slide_up = u1.wrapping_sub(1) & above(pos) & mask;
    let slide_down = below(pos) & !((d1 << 1).saturating_sub(1));
    LineView {
        slide: slide_up | slide_down,
        first: u1 | d1,
        second: u2 | d2,
    }
}

/// The occupied points of a line from `pos` outwards in one direction, nearest first, as bit
/// positions (at most three are needed by anyone).
#[inline]
pub(crate) const fn line_nearest(occ: u16, pos: u32, upwards: bool) -> [Option<u32>; 3] {
    let mut rest = if upwards {
        occ & above(pos)
    } else {
        occ & below(pos)
    };
    let mut out = [None; 3];
    let mut i = 0;
    while i < 3 {
        if rest == 0 {
            break;
        }
        let bit = if upwards { lowest(rest) } else { highest(rest) };
        out[i] = Some(bit.trailing_zeros());
        rest ^= bit;
        i += 1;
    }
    out
}

/// For each point, the points from it to the edge of the board in each direction along its rank
/// and file (the point itself left out): towards higher files, lower files, higher ranks, lower
/// ranks.
pub(crate) const RAYS: [[Bitboard; 4]; 90] = {
    const DIRECTIONS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
    let mut table = [[Bitboard::EMPTY; 4]; 90];
    let mut s = 0;
    while s < 90 {
        let mut d = 0;
        while d < 4 {
            let (df, dr) = DIRECTIONS[d];
            let (mut f, mut r) = coords(s);
            let mut bits = 0u128;
            f += df;
            r += dr;
            while on_board(f, r) {
                bits |= 1u128 << idx(f, r);
                f += df;
                r += dr;
            }
            table[s][d] = Bitboard(bits);
            d += 1;
        }
        s += 1;
    }
    table
};

/// The points from `a` through `b` (on its rank or file) to the edge of the board, `b` included;
/// empty if they share no line.
#[inline]
pub(crate) fn ray_through(a: Square, b: Square) -> Bitboard {
    RAYS[a.index()]
        .iter()
        .copied()
        .find(|ray| ray.contains(b))
        .unwrap_or(Bitboard::EMPTY)
}

/// The points strictly between `a` and `b`, which must share a rank or a file (empty otherwise).
pub(crate) const fn between(a: Square, b: Square) -> Bitboard {
    let (af, ar) = coords(a.index());
    let (bf, br) = coords(b.index());
    let mut bits = 0u128;
    if ar == br {
        let (lo, hi) = if af < bf { (af, bf) } else { (bf, af) };
        let mut f = lo + 1;
        while f < hi {
            bits |= 1u128 << idx(f, ar);
            f += 1;
        }
    } else if af == bf {
        let (lo, hi) = if ar < br { (ar, br) } else { (br, ar) };
        let mut r = lo + 1;
        while r < hi {
            bits |= 1u128 << idx(af, r);
            r += 1;
        }
    }
    Bitboard(bits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_view_matches_a_slow_scan() {
        for (len, mask) in [(9u32, RANK_MASK), (10, FILE_MASK)] {
            for occ in 0..(1u16 << len) {
                for pos in 0..len {
                    let v = line_view(occ, pos, mask);
                    let (mut slide, mut first, mut second) = (0u16, 0u16, 0u16);
                    for dir in [1i32, -1] {
                        let mut seen = 0;
                        let mut p = pos as i32 + dir;
                        while p >= 0 && p < len as i32 {
                            let bit = 1u16 << p;
                            if occ & bit != 0 {
                                seen += 1;
                                if seen == 1 {
                                    first |= bit;
                                } else if seen == 2 {
                                    second |= bit;
                                    break;
                                }
                            } else if seen == 0 {
                                slide |= bit;
                            }
                            p += dir;
                        }
                    }
                    assert_eq!((v.slide, v.first, v.second), (slide, first, second));
                }
            }
        }
    }

    #[test]
    fn step_tables() {
        assert_eq!(KING_STEPS[Square::E1.index()].count(), 4);
        assert_eq!(KING_STEPS[Square::D0.index()].count(), 2);
        assert_eq!(KING_STEPS[Square::A0.index()].count(), 0);
        assert_eq!(ADVISOR_STEPS[Square::E8.index()].count(), 4);
        assert_eq!(ADVISOR_STEPS[Square::D9.index()].count(), 1);
        assert_eq!(ELEPHANT_STEPS[0][Square::E2.index()].len, 4);
        assert_eq!(ELEPHANT_STEPS[0][Square::C4.index()].len, 2); // never across the river
        assert_eq!(HORSE_STEPS[Square::E4.index()].len, 8);
        assert_eq!(HORSE_STEPS[Square::A0.index()].len, 2);
        assert_eq!(PAWN_STEPS[0][Square::E3.index()].count(), 1);
        assert_eq!(PAWN_STEPS[0][Square::E5.index()].count(), 3);
        assert_eq!(PAWN_STEPS[0][Square::A9.index()].count(), 1);
        assert_eq!(PAWN_STEPS[1][Square::E4.index()].count(), 3);
        assert!(PAWN_ATTACKERS[0][Square::E6.index()].contains(Square::E5));
        assert!(PAWN_ATTACKERS[0][Square::E6.index()].contains(Square::D6));
        assert!(!PAWN_ATTACKERS[0][Square::E6.index()].contains(Square::E7));
        for s in Square::all() {
            for (to, leg) in HORSE_STEPS[s.index()].iter() {
                assert!(
                    HORSE_ATTACKERS[to.index()]
                        .iter()
                        .any(|(h, l)| h == s && l == leg)
                );
            }
        }
        assert_eq!(between(Square::E0, Square::E9).count(), 8);
        assert_eq!(between(Square::A0, Square::I0).count(), 7);
        assert_eq!(between(Square::A0, Square::B1).count(), 0);
    }

    #[test]
    fn nearest_pieces_on_a_line() {
        let occ = 0b10_0110_0001u16;
        assert_eq!(line_nearest(occ, 3, true), [Some(5), Some(6), Some(9)]);
        assert_eq!(line_nearest(occ, 3, false), [Some(0), None, None]);
        assert_eq!(line_nearest(occ, 9, false), [Some(6), Some(5), Some(0)]);
    }
}
