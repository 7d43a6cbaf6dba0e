//! Moves and move lists.

use std::{fmt, ops, str::FromStr};

use crate::Square;

/// A move: a piece goes from one point to another (capturing whatever stands there).
///
/// The move does not know its piece; the position it is played in does. Written in the UCCI form
/// `h2e2` by [`Display`](fmt::Display); [`Move::from_ascii`] also reads ICCS `H2-E2`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// Where the piece stands.
    pub from: Square,
    /// Where it goes.
    pub to: Square,
}

impl Move {
    /// A move from `from` to `to`.
    #[inline]
    pub const fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }

    /// Reads a coordinate move: UCCI `h2e2` or ICCS `H2-E2` (either case, dash optional).
    pub fn from_ascii(text: &[u8]) -> Result<Move, ParseMoveError> {
        let (from, to) = match text {
            [a, b, c, d] => ([*a, *b], [*c, *d]),
            [a, b, b'-', c, d] => ([*a, *b], [*c, *d]),
            _ => return Err(ParseMoveError),
        };
        let from = Square::from_ascii(&from).map_err(|_| ParseMoveError)?;
        let to = Square::from_ascii(&to).map_err(|_| ParseMoveError)?;
        if from == to {
            return Err(ParseMoveError);
        }
        Ok(Move { from, to })
    }

    /// The UCCI form `h2e2` as four ASCII bytes, for writers that do without formatting.
    #[inline]
    pub const fn ascii(self) -> [u8; 4] {
        let [a, b] = self.from.ascii();
        let [c, d] = self.to.ascii();
        [a, b, c, d]
    }

    /// The ICCS form, `H2-E2`.
    pub fn to_iccs(self) -> String {
        format!(
            "{}{}-{}{}",
            self.from.file().char().to_ascii_uppercase(),
            self.from.rank().char(),
            self.to.file().char().to_ascii_uppercase(),
            self.to.rank().char()
        )
    }

    /// The move seen from the other side of the board (both points rotated by 180°).
    #[must_use]
    pub const fn rotate(self) -> Move {
        Move {
            from: self.from.rotate(),
            to: self.to.rotate(),
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Written whole, without formatting each point (moves are written by the thousand).
        f.write_str(std::str::from_utf8(&self.ascii()).map_err(|_| fmt::Error)?)
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The text is not a coordinate move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ParseMoveError;

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a coordinate move: expected two different squares, such as h2e2 or H2-E2")
    }
}

impl std::error::Error for ParseMoveError {}

impl FromStr for Move {
    type Err = ParseMoveError;
    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        Move::from_ascii(s.as_bytes())
    }
}

/// The most moves a position can have (no Xiangqi position reaches this; the bound keeps the list
/// on the stack).
pub const MAX_MOVES: usize = 160;

/// A list of moves on the stack.
#[derive(Clone)]
pub struct MoveList {
    len: usize,
    moves: [Move; MAX_MOVES],
}

impl MoveList {
    /// An empty list.
    #[inline]
    pub const fn new() -> MoveList {
        MoveList {
            len: 0,
            moves: [Move::new(Square::A0, Square::A0); MAX_MOVES],
        }
    }

    /// Appends a move. Lists hold at most [`MAX_MOVES`]; more are ignored (they cannot arise from
    /// the move generator: a side has at most 125 pseudo-legal moves).
    #[inline]
    pub fn push(&mut self, m: Move) {
        if self.len < MAX_MOVES {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }

    /// Keeps the moves for which `keep` returns true.
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut j = 0;
        for i in 0..self.len {
            let m = self.moves[i];
            if keep(m) {
                self.moves[j] = m;
                j += 1;
            }
        }
        self.len = j;
    }

    /// Removes every move.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl ops::Deref for MoveList {
    type Target = [Move];
    #[inline]
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl ops::DerefMut for MoveList {
    #[inline]
    fn deref_mut(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinate_forms() {
        let m: Move = "h2e2".parse().unwrap();
        assert_eq!(m, Move::new(Square::H2, Square::E2));
        assert_eq!("H2-E2".parse::<Move>(), Ok(m));
        assert_eq!("h2-e2".parse::<Move>(), Ok(m));
        assert_eq!(m.to_string(), "h2e2");
        assert_eq!(m.to_iccs(), "H2-E2");
        assert!("h2h2".parse::<Move>().is_err());
        assert!("h2e".parse::<Move>().is_err());
        assert!("h2xe2".parse::<Move>().is_err());
        assert!("z2e2".parse::<Move>().is_err());
    }
}
