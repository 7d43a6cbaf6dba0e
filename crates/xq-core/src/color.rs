//! The two sides.

use std::{fmt, ops};

/// A side: Red moves first and sits on ranks 0–4; Black sits on ranks 5–9.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Color {
    /// 红方, upper-case letters in FEN.
    Red = 0,
    /// 黑方, lower-case letters in FEN.
    Black = 1,
}

impl Color {
    /// Both colors, Red first.
    pub const ALL: [Color; 2] = [Color::Red, Color::Black];

    /// The opponent.
    #[inline]
    #[must_use]
    pub const fn other(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }

    /// 0 for Red, 1 for Black.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `true` for Red.
    #[inline]
    pub const fn is_red(self) -> bool {
        matches!(self, Color::Red)
    }

    /// The FEN side-to-move letter: `w` for Red (the FEN convention), `b` for Black.
    pub const fn fen_char(self) -> char {
        match self {
            Color::Red => 'w',
            Color::Black => 'b',
        }
    }

    /// Reads a FEN side-to-move letter: `w` or `r` for Red, `b` for Black (either case).
    pub const fn from_fen_char(ch: char) -> Option<Color> {
        match ch {
            'w' | 'W' | 'r' | 'R' => Some(Color::Red),
            'b' | 'B' => Some(Color::Black),
            _ => None,
        }
    }

    /// 红 or 黑.
    pub const fn chinese(self) -> &'static str {
        match self {
            Color::Red => "红",
            Color::Black => "黑",
        }
    }

    /// `Red` or `Black`, for the start of a sentence.
    pub const fn title(self) -> &'static str {
        match self {
            Color::Red => "Red",
            Color::Black => "Black",
        }
    }

    /// `red` or `black`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::Red => "red",
            Color::Black => "black",
        }
    }
}

impl ops::Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        self.other()
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One value per side, indexed by [`Color`].
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ByColor<T> {
    /// Red's value.
    pub red: T,
    /// Black's value.
    pub black: T,
}

impl<T> ByColor<T> {
    /// Builds the pair by calling `f` for Red, then Black.
    pub fn new_with(mut f: impl FnMut(Color) -> T) -> ByColor<T> {
        let red = f(Color::Red);
        let black = f(Color::Black);
        ByColor { red, black }
    }

    /// The value for `color`.
    #[inline]
    pub const fn get(&self, color: Color) -> &T {
        match color {
            Color::Red => &self.red,
            Color::Black => &self.black,
        }
    }

    /// The value for `color`, mutably.
    #[inline]
    pub fn get_mut(&mut self, color: Color) -> &mut T {
        match color {
            Color::Red => &mut self.red,
            Color::Black => &mut self.black,
        }
    }

    /// Applies `f` to both values.
    pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> ByColor<U> {
        ByColor {
            red: f(self.red),
            black: f(self.black),
        }
    }
}

impl<T> ops::Index<Color> for ByColor<T> {
    type Output = T;
    #[inline]
    fn index(&self, color: Color) -> &T {
        self.get(color)
    }
}

impl<T> ops::IndexMut<Color> for ByColor<T> {
    #[inline]
    fn index_mut(&mut self, color: Color) -> &mut T {
        self.get_mut(color)
    }
}
