//! Sets of points.

use std::{fmt, ops};

use crate::{Rank, Square};

/// A set of points, one bit per [`Square`] index (bits 90–127 are always clear).
#[derive(Copy, Clone, Default, PartialEq, Eq, Hash)]
pub struct Bitboard(pub u128);

/// The bit of `sq`, looked up: a shift of a 128-bit number by a variable count takes half a
/// dozen instructions on x86-64, a look-up one load.
#[inline(always)]
const fn bit(sq: Square) -> u128 {
    const BITS: [u128; 90] = {
        let mut bits = [0; 90];
        let mut i = 0;
        while i < 90 {
            bits[i] = 1 << i;
            i += 1;
        }
        bits
    };
    BITS[sq.index()]
}

impl Bitboard {
    /// No points.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 90 points.
    pub const FULL: Bitboard = Bitboard((1u128 << 90) - 1);

    /// The set holding only `sq`.
    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(bit(sq))
    }

    /// All points of `rank`.
    #[inline]
    pub const fn from_rank(rank: Rank) -> Bitboard {
        Bitboard(0x1ff_u128 << (rank as usize * 9))
    }

    /// All points of `file`.
    #[inline]
    pub const fn from_file(file: crate::File) -> Bitboard {
        const FILES: [u128; 9] = {
            let mut files = [0; 9];
            let mut i = 0;
            while i < 90 {
                files[i % 9] |= 1 << i;
                i += 1;
            }
            files
        };
        Bitboard(FILES[file.index()])
    }

    /// The points strictly between `a` and `b` if they share a rank or a file (empty otherwise):
    /// the points a rook's or cannon's line passes over.
    #[inline]
    pub const fn between(a: Square, b: Square) -> Bitboard {
        crate::attacks::between(a, b)
    }

    /// Whether `sq` is in the set.
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & bit(sq) != 0
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set is not empty.
    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// Number of points.
    #[inline]
    pub const fn count(self) -> usize {
        self.0.count_ones() as usize
    }

    /// The lowest point, if any.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Square::try_from_index(self.0.trailing_zeros() as usize)
        }
    }

    /// Whether the set has more than one point.
    #[inline]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The single point, if the set has exactly one.
    #[inline]
    pub const fn single(self) -> Option<Square> {
        if self.more_than_one() {
            None
        } else {
            self.first()
        }
    }

    /// Adds `sq`.
    #[inline]
    pub fn add(&mut self, sq: Square) {
        self.0 |= bit(sq);
    }

    /// Removes `sq`.
    #[inline]
    pub fn discard(&mut self, sq: Square) {
        self.0 &= !bit(sq);
    }

    /// Toggles `sq`.
    #[inline]
    pub fn toggle(&mut self, sq: Square) {
        self.0 ^= bit(sq);
    }

    /// Returns the set with `sq` added.
    #[inline]
    #[must_use]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | bit(sq))
    }

    /// Returns the set with `sq` removed.
    #[inline]
    #[must_use]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !bit(sq))
    }
}

impl Iterator for Bitboard {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Square::try_from_index(index)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count();
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard {}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        let mut bb = Bitboard::EMPTY;
        for sq in iter {
            bb.add(sq);
        }
        bb
    }
}

impl From<Square> for Bitboard {
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

macro_rules! binop {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl ops::$tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl ops::$atr for Bitboard {
            #[inline]
            fn $af(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl ops::Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & Bitboard::FULL.0)
    }
}

impl fmt::Debug for Bitboard {
    /// Draws the set as a board, Black's side on top.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in Rank::ALL.iter().rev() {
            for file in crate::File::ALL {
                let sq = Square::new(file, *rank);
                f.write_str(if self.contains(sq) { "1" } else { "." })?;
            }
            f.write_str("\n")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations() {
        let mut bb = Bitboard::EMPTY;
        bb.add(Square::E0);
        bb.add(Square::I9);
        assert_eq!(bb.count(), 2);
        assert!(bb.contains(Square::I9));
        assert_eq!(bb.collect::<Vec<_>>(), vec![Square::E0, Square::I9]);
        assert_eq!((!Bitboard::EMPTY).count(), 90);
        assert_eq!(Bitboard::from_square(Square::C3).single(), Some(Square::C3));
        assert_eq!(bb.single(), None);
        assert_eq!(Bitboard::from_rank(Rank::R9).count(), 9);
        // A file's points are the points on it.
        for file in crate::File::ALL {
            let on: Vec<Square> = Square::all().filter(|sq| sq.file() == file).collect();
            assert_eq!(Bitboard::from_file(file).collect::<Vec<_>>(), on);
        }
    }
}
