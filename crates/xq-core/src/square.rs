//! Files, ranks and the 90 points of the board.
//!
//! Coordinates follow ICCS: files `a`–`i` from Red's left, ranks `0`–`9` from Red's back rank.
//! Chinese notation numbers files differently (from each side's own right); see
//! [`File::chinese_number`].

use std::{fmt, str::FromStr};

use crate::Color;

/// A file (vertical line), `a`–`i` from Red's left.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum File {
    A = 0,
    B,
    C,
    D,
    E,
    F,
    G,
    H,
    I,
}

impl File {
    /// All nine files, `a` first.
    pub const ALL: [File; 9] = [
        File::A,
        File::B,
        File::C,
        File::D,
        File::E,
        File::F,
        File::G,
        File::H,
        File::I,
    ];

    /// The file with this index (0 = `a`), if it exists.
    #[inline]
    pub const fn try_new(index: u32) -> Option<File> {
        if index < 9 {
            Some(File::ALL[index as usize])
        } else {
            None
        }
    }

    /// 0 for `a` … 8 for `i`.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The ICCS letter, lower case.
    pub const fn char(self) -> char {
        (b'a' + self as u8) as char
    }

    /// Reads an ICCS letter, either case.
    pub const fn from_char(ch: char) -> Option<File> {
        match ch {
            'a'..='i' => File::try_new(ch as u32 - 'a' as u32),
            'A'..='I' => File::try_new(ch as u32 - 'A' as u32),
            _ => None,
        }
    }

    /// The mirror file (`a` ↔ `i`).
    #[must_use]
    pub const fn flip(self) -> File {
        File::ALL[8 - self as usize]
    }

    /// The file's number, 1–9, as `color` counts it in Chinese and WXF notation: each side counts
    /// from its own right, so Red's 一 is `i` and Black's 1 is `a`.
    pub const fn number_for(self, color: Color) -> u8 {
        match color {
            Color::Red => 9 - self as u8,
            Color::Black => self as u8 + 1,
        }
    }

    /// The file that `color` calls `number` (1–9), if the number is in range.
    pub const fn from_number(number: u8, color: Color) -> Option<File> {
        if number < 1 || number > 9 {
            return None;
        }
        Some(match color {
            Color::Red => File::ALL[9 - number as usize],
            Color::Black => File::ALL[number as usize - 1],
        })
    }
}

impl fmt::Display for File {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// A rank (horizontal line), `0`–`9` from Red's back rank.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum Rank {
    R0 = 0,
    R1,
    R2,
    R3,
    R4,
    R5,
    R6,
    R7,
    R8,
    R9,
}

impl Rank {
    /// All ten ranks, Red's back rank first.
    pub const ALL: [Rank; 10] = [
        Rank::R0,
        Rank::R1,
        Rank::R2,
        Rank::R3,
        Rank::R4,
        Rank::R5,
        Rank::R6,
        Rank::R7,
        Rank::R8,
        Rank::R9,
    ];

    /// The rank with this index, if it exists.
    #[inline]
    pub const fn try_new(index: u32) -> Option<Rank> {
        if index < 10 {
            Some(Rank::ALL[index as usize])
        } else {
            None
        }
    }

    /// 0 … 9.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The ICCS digit.
    pub const fn char(self) -> char {
        (b'0' + self as u8) as char
    }

    /// Reads an ICCS digit.
    pub const fn from_char(ch: char) -> Option<Rank> {
        match ch {
            '0'..='9' => Rank::try_new(ch as u32 - '0' as u32),
            _ => None,
        }
    }

    /// The mirror rank (0 ↔ 9).
    #[must_use]
    pub const fn flip(self) -> Rank {
        Rank::ALL[9 - self as usize]
    }

    /// The rank counted from `color`'s own back rank (0 = own back rank).
    pub const fn relative_to(self, color: Color) -> u8 {
        match color {
            Color::Red => self as u8,
            Color::Black => 9 - self as u8,
        }
    }

    /// Whether this rank lies on `color`'s own side of the river.
    pub const fn is_own_half(self, color: Color) -> bool {
        self.relative_to(color) <= 4
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// One of the 90 points of the board, numbered `rank * 9 + file` (`a0` = 0, `i9` = 89).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

/// The file and rank of each point, looked up (a division by 9 and its remainder are half a
/// dozen instructions; moves are made and tested millions of times). Indexed by the whole byte,
/// so that no bounds check is needed: entries from 90 on are never read.
const COORDS: [(File, Rank); 256] = {
    let mut table = [(File::A, Rank::R0); 256];
    let mut i = 0;
    while i < 90 {
        table[i] = (File::ALL[i % 9], Rank::ALL[i / 9]);
        i += 1;
    }
    table
};

/// Squares serialize as their ICCS name, `"e0"`.
#[cfg(feature = "serde")]
impl serde::Serialize for Square {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Square {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Square, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

impl Square {
    /// Number of points on the board.
    pub const COUNT: usize = 90;

    /// The point at `file`, `rank`.
    #[inline]
    pub const fn new(file: File, rank: Rank) -> Square {
        Square(rank as u8 * 9 + file as u8)
    }

    /// The point with this index (0–89), if it exists.
    #[inline]
    pub const fn try_from_index(index: usize) -> Option<Square> {
        if index < 90 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// The point with this index; the index must be below 90.
    ///
    /// # Panics
    /// If `index >= 90`.
    #[inline]
    #[track_caller]
    pub const fn from_index(index: usize) -> Square {
        assert!(index < 90, "square index out of range");
        Square(index as u8)
    }

    /// The point at file index `file` (0–8) and rank index `rank` (0–9), if both are in range.
    #[inline]
    pub const fn from_coords(file: i32, rank: i32) -> Option<Square> {
        if file >= 0 && file < 9 && rank >= 0 && rank < 10 {
            Some(Square((rank * 9 + file) as u8))
        } else {
            None
        }
    }

    /// 0 … 89.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file.
    #[inline]
    pub const fn file(self) -> File {
        COORDS[self.0 as usize].0
    }

    /// The rank.
    #[inline]
    pub const fn rank(self) -> Rank {
        COORDS[self.0 as usize].1
    }

    /// The ICCS name `h2` as two ASCII bytes, for writers that do without formatting.
    #[inline]
    pub const fn ascii(self) -> [u8; 2] {
        [b'a' + self.0 % 9, b'0' + self.0 / 9]
    }

    /// The point `df` files and `dr` ranks away, if it is on the board.
    #[inline]
    pub const fn offset(self, df: i32, dr: i32) -> Option<Square> {
        Square::from_coords((self.0 % 9) as i32 + df, (self.0 / 9) as i32 + dr)
    }

    /// The point seen from the other side of the board (rotated by 180°): how the same point is
    /// described when the colors are swapped.
    #[must_use]
    pub const fn rotate(self) -> Square {
        Square(89 - self.0)
    }

    /// The point mirrored left–right.
    #[must_use]
    pub const fn flip_horizontal(self) -> Square {
        Square::new(self.file().flip(), self.rank())
    }

    /// The point mirrored top–bottom.
    #[must_use]
    pub const fn flip_vertical(self) -> Square {
        Square::new(self.file(), self.rank().flip())
    }

    /// Whether the point lies in `color`'s palace (九宫).
    pub const fn in_palace(self, color: Color) -> bool {
        let f = self.0 % 9;
        let r = Rank::ALL[(self.0 / 9) as usize].relative_to(color);
        f >= 3 && f <= 5 && r <= 2
    }

    /// Whether the point lies on `color`'s own side of the river.
    pub const fn is_own_half(self, color: Color) -> bool {
        self.rank().is_own_half(color)
    }

    /// All 90 points, `a0` first.
    pub fn all() -> impl DoubleEndedIterator<Item = Square> + ExactSizeIterator {
        (0..90u8).map(Square)
    }

    /// Reads an ICCS square such as `e0` or `H2`.
    pub fn from_ascii(text: &[u8]) -> Result<Square, ParseSquareError> {
        match text {
            [f, r] => {
                let file = File::from_char(*f as char).ok_or(ParseSquareError)?;
                let rank = Rank::from_char(*r as char).ok_or(ParseSquareError)?;
                Ok(Square::new(file, rank))
            }
            _ => Err(ParseSquareError),
        }
    }
}

/// The text is not an ICCS square (`a0`–`i9`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ParseSquareError;

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a square: expected a file a–i and a rank 0–9, such as e0")
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        Square::from_ascii(s.as_bytes())
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(std::str::from_utf8(&self.ascii()).map_err(|_| fmt::Error)?)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

macro_rules! square_consts {
    ($($name:ident = $file:ident $rank:ident),* $(,)?) => {
        /// Named points (`Square::E0` …), handy in tests and examples.
        #[allow(missing_docs)]
        impl Square {
            $(pub const $name: Square = Square::new(File::$file, Rank::$rank);)*
        }
    };
}

square_consts! {
    A0 = A R0, B0 = B R0, C0 = C R0, D0 = D R0, E0 = E R0, F0 = F R0, G0 = G R0, H0 = H R0, I0 = I R0,
    A1 = A R1, B1 = B R1, C1 = C R1, D1 = D R1, E1 = E R1, F1 = F R1, G1 = G R1, H1 = H R1, I1 = I R1,
    A2 = A R2, B2 = B R2, C2 = C R2, D2 = D R2, E2 = E R2, F2 = F R2, G2 = G R2, H2 = H R2, I2 = I R2,
    A3 = A R3, B3 = B R3, C3 = C R3, D3 = D R3, E3 = E R3, F3 = F R3, G3 = G R3, H3 = H R3, I3 = I R3,
    A4 = A R4, B4 = B R4, C4 = C R4, D4 = D R4, E4 = E R4, F4 = F R4, G4 = G R4, H4 = H R4, I4 = I R4,
    A5 = A R5, B5 = B R5, C5 = C R5, D5 = D R5, E5 = E R5, F5 = F R5, G5 = G R5, H5 = H R5, I5 = I R5,
    A6 = A R6, B6 = B R6, C6 = C R6, D6 = D R6, E6 = E R6, F6 = F R6, G6 = G R6, H6 = H R6, I6 = I R6,
    A7 = A R7, B7 = B R7, C7 = C R7, D7 = D R7, E7 = E R7, F7 = F R7, G7 = G R7, H7 = H R7, I7 = I R7,
    A8 = A R8, B8 = B R8, C8 = C R8, D8 = D R8, E8 = E R8, F8 = F R8, G8 = G R8, H8 = H R8, I8 = I R8,
    A9 = A R9, B9 = B R9, C9 = C R9, D9 = D R9, E9 = E R9, F9 = F R9, G9 = G R9, H9 = H R9, I9 = I R9,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_and_names_agree() {
        for sq in Square::all() {
            assert_eq!(Square::new(sq.file(), sq.rank()), sq);
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
            assert_eq!(sq.rotate().rotate(), sq);
        }
        assert_eq!(Square::E0.index(), 4);
        assert_eq!(Square::I9.index(), 89);
        assert_eq!(Square::H2.to_string(), "h2");
        assert_eq!("H2".parse::<Square>(), Ok(Square::H2));
        assert!("j0".parse::<Square>().is_err());
        assert!("a10".parse::<Square>().is_err());
    }

    #[test]
    fn chinese_file_numbers_count_from_each_sides_right() {
        assert_eq!(File::I.number_for(Color::Red), 1);
        assert_eq!(File::A.number_for(Color::Red), 9);
        assert_eq!(File::A.number_for(Color::Black), 1);
        assert_eq!(File::from_number(2, Color::Red), Some(File::H));
        assert_eq!(File::from_number(8, Color::Black), Some(File::H));
        assert_eq!(File::from_number(0, Color::Black), None);
        for file in File::ALL {
            for color in Color::ALL {
                assert_eq!(File::from_number(file.number_for(color), color), Some(file));
            }
        }
    }

    #[test]
    fn palaces_and_halves() {
        assert!(Square::E0.in_palace(Color::Red));
        assert!(Square::D2.in_palace(Color::Red));
        assert!(!Square::D3.in_palace(Color::Red));
        assert!(Square::F7.in_palace(Color::Black));
        assert!(!Square::F7.in_palace(Color::Red));
        assert!(Square::A4.is_own_half(Color::Red));
        assert!(!Square::A5.is_own_half(Color::Red));
        assert_eq!(Square::all().filter(|s| s.in_palace(Color::Red)).count(), 9);
    }
}
