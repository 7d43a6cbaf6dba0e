//! Piece kinds and pieces.

use std::{fmt, ops};

use crate::Color;

/// A kind of piece.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Role {
    /// 帅 (Red) / 将 (Black): one step orthogonally inside the palace.
    King = 0,
    /// 仕 / 士: one step diagonally inside the palace.
    Advisor,
    /// 相 / 象: two steps diagonally, never across the river, blocked at the eye (塞象眼).
    Elephant,
    /// 马: one step orthogonally then one diagonally, blocked at the leg (蹩马腿).
    Horse,
    /// 车: any distance orthogonally.
    Rook,
    /// 炮: moves like a rook, captures by jumping exactly one screen (炮架).
    Cannon,
    /// 兵 / 卒: one step forward; after crossing the river also sideways; never back.
    Pawn,
}

impl Role {
    /// All seven kinds, in the order above.
    pub const ALL: [Role; 7] = [
        Role::King,
        Role::Advisor,
        Role::Elephant,
        Role::Horse,
        Role::Rook,
        Role::Cannon,
        Role::Pawn,
    ];

    /// 0 … 6 in the order of [`Role::ALL`].
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The upper-case FEN letter (K A B N R C P).
    pub const fn upper_char(self) -> char {
        match self {
            Role::King => 'K',
            Role::Advisor => 'A',
            Role::Elephant => 'B',
            Role::Horse => 'N',
            Role::Rook => 'R',
            Role::Cannon => 'C',
            Role::Pawn => 'P',
        }
    }

    /// The WXF letter (K A E H R C P).
    pub const fn wxf_char(self) -> char {
        match self {
            Role::Elephant => 'E',
            Role::Horse => 'H',
            other => other.upper_char(),
        }
    }

    /// Reads a piece letter in either case: K A B N R C P, and WXF's E (elephant) and H (horse).
    pub const fn from_char(ch: char) -> Option<Role> {
        Some(match ch.to_ascii_uppercase() {
            'K' => Role::King,
            'A' => Role::Advisor,
            'B' | 'E' => Role::Elephant,
            'N' | 'H' => Role::Horse,
            'R' => Role::Rook,
            'C' => Role::Cannon,
            'P' => Role::Pawn,
            _ => return None,
        })
    }

    /// The English name.
    pub const fn name(self) -> &'static str {
        match self {
            Role::King => "king",
            Role::Advisor => "advisor",
            Role::Elephant => "elephant",
            Role::Horse => "horse",
            Role::Rook => "rook",
            Role::Cannon => "cannon",
            Role::Pawn => "pawn",
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One value per [`Role`].
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ByRole<T>(pub [T; 7]);

impl<T> ops::Index<Role> for ByRole<T> {
    type Output = T;
    #[inline]
    fn index(&self, role: Role) -> &T {
        &self.0[role as usize]
    }
}

impl<T> ops::IndexMut<Role> for ByRole<T> {
    #[inline]
    fn index_mut(&mut self, role: Role) -> &mut T {
        &mut self.0[role as usize]
    }
}

/// A piece: a color and a role.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece {
    /// Whose piece.
    pub color: Color,
    /// What kind.
    pub role: Role,
}

impl Piece {
    /// All 14 pieces, Red's first.
    pub const ALL: [Piece; 14] = {
        let mut all = [Piece {
            color: Color::Red,
            role: Role::King,
        }; 14];
        let mut i = 0;
        while i < 14 {
            all[i] = Piece {
                color: if i < 7 { Color::Red } else { Color::Black },
                role: Role::ALL[i % 7],
            };
            i += 1;
        }
        all
    };

    /// A piece of `color` and `role`.
    pub const fn new(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }

    /// 0 … 13: Red's roles then Black's.
    #[inline]
    pub const fn index(self) -> usize {
        self.color as usize * 7 + self.role as usize
    }

    /// The FEN letter: upper case for Red, lower case for Black.
    pub const fn fen_char(self) -> char {
        let ch = self.role.upper_char();
        match self.color {
            Color::Red => ch,
            Color::Black => ch.to_ascii_lowercase(),
        }
    }

    /// Reads a FEN letter (also WXF's E/H); the case gives the color.
    pub const fn from_fen_char(ch: char) -> Option<Piece> {
        let color = if ch.is_ascii_uppercase() {
            Color::Red
        } else if ch.is_ascii_lowercase() {
            Color::Black
        } else {
            return None;
        };
        match Role::from_char(ch) {
            Some(role) => Some(Piece { color, role }),
            None => None,
        }
    }

    /// The usual simplified Chinese name: 帅仕相马车炮兵 for Red, 将士象马车炮卒 for Black.
    pub const fn chinese(self) -> char {
        match (self.color, self.role) {
            (Color::Red, Role::King) => '帅',
            (Color::Black, Role::King) => '将',
            (Color::Red, Role::Advisor) => '仕',
            (Color::Black, Role::Advisor) => '士',
            (Color::Red, Role::Elephant) => '相',
            (Color::Black, Role::Elephant) => '象',
            (_, Role::Horse) => '马',
            (_, Role::Rook) => '车',
            (_, Role::Cannon) => '炮',
            (Color::Red, Role::Pawn) => '兵',
            (Color::Black, Role::Pawn) => '卒',
        }
    }

    /// The traditional name: 帥仕相馬車炮兵 for Red, 將士象馬車砲卒 for Black.
    pub const fn traditional(self) -> char {
        match (self.color, self.role) {
            (Color::Red, Role::King) => '帥',
            (Color::Black, Role::King) => '將',
            (_, Role::Horse) => '馬',
            (_, Role::Rook) => '車',
            (Color::Black, Role::Cannon) => '砲',
            _ => self.chinese(),
        }
    }

    /// A glyph that differs for every one of the 14 pieces, so a diagram stays readable without
    /// colour: 帥仕相傌俥炮兵 for Red, 將士象馬車砲卒 for Black (the printed-board convention).
    pub const fn diagram_glyph(self) -> char {
        match (self.color, self.role) {
            (Color::Red, Role::Horse) => '傌',
            (Color::Red, Role::Rook) => '俥',
            (Color::Red, Role::Cannon) => '炮',
            _ => self.traditional(),
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.fen_char())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_round_trip() {
        for piece in Piece::ALL {
            assert_eq!(Piece::from_fen_char(piece.fen_char()), Some(piece));
            assert_eq!(Piece::ALL[piece.index()], piece);
        }
        assert_eq!(
            Piece::from_fen_char('E'),
            Some(Piece::new(Color::Red, Role::Elephant))
        );
        assert_eq!(
            Piece::from_fen_char('h'),
            Some(Piece::new(Color::Black, Role::Horse))
        );
        assert_eq!(Piece::from_fen_char('x'), None);
        assert_eq!(Piece::from_fen_char('1'), None);
    }

    #[test]
    fn diagram_glyphs_are_all_distinct() {
        let mut glyphs: Vec<char> = Piece::ALL.iter().map(|p| p.diagram_glyph()).collect();
        glyphs.sort_unstable();
        glyphs.dedup();
        assert_eq!(glyphs.len(), 14);
    }
}
