//! Which pieces stand on a file, front to back: what both reading (a tandem word such as 前 or
//! 二 picks among them) and writing (which pieces need one) ask of a position. Kept apart so
//! that `resolve` and `write` each depend on it and not on each other.

use xq_core::{Bitboard, Color, File, Piece, Position, Role, Square};

/// Up to ten points (one file's worth), on the stack.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Points {
    len: usize,
    items: [Square; 10],
}

impl Points {
    pub(crate) const EMPTY: Points = Points {
        len: 0,
        items: [Square::A0; 10],
    };

    pub(crate) fn push(&mut self, sq: Square) {
        if self.len < self.items.len() {
            self.items[self.len] = sq;
            self.len += 1;
        }
    }

    pub(crate) fn as_slice(&self) -> &[Square] {
        &self.items[..self.len]
    }
}

impl std::ops::Deref for Points {
    type Target = [Square];
    fn deref(&self) -> &[Square] {
        self.as_slice()
    }
}

/// The pieces of `color` and `role` on `file`, the one nearest the opponent first.
pub(crate) fn on_file(pos: &Position, color: Color, role: Role, file: File) -> Points {
    let mut points = Points::EMPTY;
    let on = pos
        .board()
        .by_piece(Piece::new(color, role))
        .filter(|sq| sq.file() == file);
    // Bit order is rank order: Red's front is the highest rank, Black's the lowest.
    match color {
        Color::Red => {
            let mut all = Points::EMPTY;
            on.for_each(|sq| all.push(sq));
            all.as_slice().iter().rev().for_each(|&sq| points.push(sq));
        }
        Color::Black => on.for_each(|sq| points.push(sq)),
    }
    points
}

/// The files holding two or more pieces of one kind and colour, each with its pieces front to
/// back: at most one a file, so on the stack (the common reading of a tandem word, 前炮, asks
/// for them once a move).
#[derive(Copy, Clone, Debug)]
pub(crate) struct Doubled {
    len: usize,
    files: [(File, Points); 9],
}

impl Doubled {
    pub(crate) const EMPTY: Doubled = Doubled {
        len: 0,
        files: [(File::A, Points::EMPTY); 9],
    };
}

impl std::ops::Deref for Doubled {
    type Target = [(File, Points)];
    fn deref(&self) -> &[(File, Points)] {
        &self.files[..self.len]
    }
}

/// The files holding two or more pieces of `color` and `role`, the mover's rightmost first, each
/// with its pieces front to back.
pub(crate) fn doubled_files(pos: &Position, color: Color, role: Role) -> Doubled {
    let mut doubled = Doubled::EMPTY;
    let pieces = pos.board().by_piece(Piece::new(color, role));
    if pieces.count() < 2 {
        return doubled;
    }
    for file in (1..=9).filter_map(|n| File::from_number(n, color)) {
        // (Counted on the board first: most files hold none or one.)
        if (pieces & Bitboard::from_file(file)).count() >= 2 {
            doubled.files[doubled.len] = (file, on_file(pos, color, role, file));
            doubled.len += 1;
        }
    }
    doubled
}
