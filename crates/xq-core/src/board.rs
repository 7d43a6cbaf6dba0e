//! Piece placement.

use std::fmt;

use crate::{
    Bitboard, ByColor, ByRole, Color, File, Piece, Rank, Role, Square,
    attacks::{
        ADVISOR_STEPS, ELEPHANT_STEPS, FILE_MASK, HORSE_ATTACKERS, HORSE_STEPS, KING_STEPS,
        PAWN_ATTACKERS, PAWN_STEPS, RANK_MASK, line_nearest, line_view,
    },
};

/// Where the pieces stand, with no rule checked: any number of pieces of any kind anywhere.
///
/// Besides the 90 points it keeps bit sets per color and per role and the occupancy of every rank
/// and file, so that sliding attacks are a few bit operations (see `attacks`).
#[derive(Clone)]
pub struct Board {
    squares: [Option<Piece>; 90],
    by_color: ByColor<Bitboard>,
    by_role: ByRole<Bitboard>,
    occupied: Bitboard,
    ranks: [u16; 10],
    files: [u16; 9],
}

impl Board {
    /// A board with no pieces.
    pub fn empty() -> Board {
        Board {
            squares: [None; 90],
            by_color: ByColor::default(),
            by_role: ByRole::default(),
            occupied: Bitboard::EMPTY,
            ranks: [0; 10],
            files: [0; 9],
        }
    }

    /// The standard starting placement.
    pub fn start() -> Board {
        let mut board = Board::empty();
        let back = [
            Role::Rook,
            Role::Horse,
            Role::Elephant,
            Role::Advisor,
            Role::King,
            Role::Advisor,
            Role::Elephant,
            Role::Horse,
            Role::Rook,
        ];
        for (file, role) in File::ALL.into_iter().zip(back) {
            board.put(Square::new(file, Rank::R0), Piece::new(Color::Red, role));
            board.put(Square::new(file, Rank::R9), Piece::new(Color::Black, role));
        }
        for file in [File::B, File::H] {
            board.put(
                Square::new(file, Rank::R2),
                Piece::new(Color::Red, Role::Cannon),
            );
            board.put(
                Square::new(file, Rank::R7),
                Piece::new(Color::Black, Role::Cannon),
            );
        }
        for file in [File::A, File::C, File::E, File::G, File::I] {
            board.put(
                Square::new(file, Rank::R3),
                Piece::new(Color::Red, Role::Pawn),
            );
            board.put(
                Square::new(file, Rank::R6),
                Piece::new(Color::Black, Role::Pawn),
            );
        }
        board
    }

    /// The piece on `sq`.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.squares[sq.index()]
    }

    /// Puts `piece` on `sq`, replacing whatever stood there; returns what stood there.
    pub fn put(&mut self, sq: Square, piece: Piece) -> Option<Piece> {
        let old = self.remove(sq);
        self.add_unchecked(sq, piece);
        old
    }

    /// Removes and returns the piece on `sq`.
    pub fn remove(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.squares[sq.index()]?;
        self.remove_unchecked(sq, piece);
        Some(piece)
    }

    /// Places `piece` on the empty point `sq`.
    #[inline]
    pub(crate) fn add_unchecked(&mut self, sq: Square, piece: Piece) {
        debug_assert!(self.squares[sq.index()].is_none());
        self.squares[sq.index()] = Some(piece);
        self.toggle_bits(sq, piece);
    }

    /// Takes `piece` off `sq`, where it stands.
    #[inline]
    pub(crate) fn remove_unchecked(&mut self, sq: Square, piece: Piece) {
        debug_assert_eq!(self.squares[sq.index()], Some(piece));
        self.squares[sq.index()] = None;
        self.toggle_bits(sq, piece);
    }

    /// Moves the piece on `from` to the empty point `to`.
    #[inline]
    pub(crate) fn relocate_unchecked(&mut self, from: Square, to: Square, piece: Piece) {
        debug_assert!(self.squares[to.index()].is_none());
        self.squares[from.index()] = None;
        self.squares[to.index()] = Some(piece);
        let both = Bitboard::from_square(from) | Bitboard::from_square(to);
        *self.by_color.get_mut(piece.color) ^= both;
        self.by_role[piece.role] ^= both;
        self.occupied ^= both;
        let (ff, fr) = (from.file().index(), from.rank().index());
        let (tf, tr) = (to.file().index(), to.rank().index());
        self.ranks[fr] ^= 1 << ff;
        self.files[ff] ^= 1 << fr;
        self.ranks[tr] ^= 1 << tf;
        self.files[tf] ^= 1 << tr;
    }

    #[inline]
    fn toggle_bits(&mut self, sq: Square, piece: Piece) {
        let bb = Bitboard::from_square(sq);
        *self.by_color.get_mut(piece.color) ^= bb;
        self.by_role[piece.role] ^= bb;
        self.occupied ^= bb;
        let (f, r) = (sq.file().index(), sq.rank().index());
        self.ranks[r] ^= 1 << f;
        self.files[f] ^= 1 << r;
    }

    /// All occupied points.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.occupied
    }

    /// The points occupied by `color`.
    #[inline]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color]
    }

    /// The points occupied by pieces of `role`, either color.
    #[inline]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role]
    }

    /// The points occupied by `piece`.
    #[inline]
    pub fn by_piece(&self, piece: Piece) -> Bitboard {
        self.by_color[piece.color] & self.by_role[piece.role]
    }

    /// Where `color`'s king stands (the first one, if a setup has several).
    pub fn king_of(&self, color: Color) -> Option<Square> {
        self.by_piece(Piece::new(color, Role::King)).first()
    }

    /// Every piece with its point, in point order.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.occupied.map(move |sq| {
            (
                sq,
                self.squares[sq.index()].expect("occupied point has a piece"),
            )
        })
    }

    /// The occupancy of `rank`, one bit per file.
    #[inline]
    pub(crate) fn rank_bits(&self, rank: usize) -> u16 {
        self.ranks[rank]
    }

    /// The occupancy of `file`, one bit per rank.
    #[inline]
    pub(crate) fn file_bits(&self, file: usize) -> u16 {
        self.files[file]
    }

    /// The points a piece of `piece`'s kind standing on `sq` attacks on this board: where it could
    /// capture if an enemy piece stood there (its own pieces included, which it protects). Kings
    /// attack only inside their palace; the kings facing each other are a separate rule (see
    /// [`Board::kings_facing`]).
    pub fn attacks(&self, sq: Square, piece: Piece) -> Bitboard {
        let occ = self.occupied;
        match piece.role {
            Role::King => KING_STEPS[sq.index()],
            Role::Advisor => ADVISOR_STEPS[sq.index()],
            Role::Elephant => ELEPHANT_STEPS[piece.color.index()][sq.index()]
                .iter()
                .filter(|&(_, eye)| !occ.contains(eye))
                .map(|(to, _)| to)
                .collect(),
            Role::Horse => HORSE_STEPS[sq.index()]
                .iter()
                .filter(|&(_, leg)| !occ.contains(leg))
                .map(|(to, _)| to)
                .collect(),
            Role::Rook => self.line_targets(sq, |v| v.slide | v.first),
            Role::Cannon => self.line_targets(sq, |v| v.second),
            Role::Pawn => PAWN_STEPS[piece.color.index()][sq.index()],
        }
    }

    fn line_targets(&self, sq: Square, pick: impl Fn(crate::attacks::LineView) -> u16) -> Bitboard {
        let (f, r) = (sq.file().index(), sq.rank().index());
        let mut bb = Bitboard::EMPTY;
        let along_rank = pick(line_view(self.ranks[r], f as u32, RANK_MASK));
        for bit in BitIter(along_rank) {
            bb.add(Square::from_index(r * 9 + bit as usize));
        }
        let along_file = pick(line_view(self.files[f], r as u32, FILE_MASK));
        for bit in BitIter(along_file) {
            bb.add(Square::from_index(bit as usize * 9 + f));
        }
        bb
    }

    /// The pieces of `color` that attack `sq` on this board (see [`Board::attacks`]): rooks with a
    /// clear line, cannons with exactly one screen, horses with a free leg, elephants with a free
    /// eye, advisors, pawns and the king by their steps. Whether `sq` is empty does not matter.
    pub fn attackers_of(&self, sq: Square, color: Color) -> Bitboard {
        self.attackers_with(sq, color, self.occupied)
    }

    /// Like [`Board::attackers_of`], but as if the occupied points were `occupied` (for x-ray
    /// questions such as "who recaptures after this piece is gone"). Pieces not in `occupied` do
    /// not attack.
    pub fn attackers_with(&self, sq: Square, color: Color, occupied: Bitboard) -> Bitboard {
        let theirs = self.by_color[color] & occupied;
        let mut out = Bitboard::EMPTY;
        let (f, r) = (sq.file().index(), sq.rank().index());
        let rank_occ = bits_of_rank(occupied, r);
        let file_occ = bits_of_file(occupied, f);
        self.line_attackers(theirs, rank_occ, f, |b| r * 9 + b as usize, &mut out);
        self.line_attackers(theirs, file_occ, r, |b| b as usize * 9 + f, &mut out);
        for (h, leg) in HORSE_ATTACKERS[sq.index()].iter() {
            if theirs.contains(h)
                && self.by_role[Role::Horse].contains(h)
                && !occupied.contains(leg)
            {
                out.add(h);
            }
        }
        for (e, eye) in ELEPHANT_STEPS[color.index()][sq.index()].iter() {
            // Elephant moves are symmetric: an elephant on `e` reaches `sq` through the same eye.
            if theirs.contains(e)
                && self.by_role[Role::Elephant].contains(e)
                && !occupied.contains(eye)
            {
                out.add(e);
            }
        }
        out |= ADVISOR_STEPS[sq.index()] & theirs & self.by_role[Role::Advisor];
        out |= KING_STEPS[sq.index()] & theirs & self.by_role[Role::King];
        out |= PAWN_ATTACKERS[color.index()][sq.index()] & theirs & self.by_role[Role::Pawn];
        out
    }

    /// Rooks that see `pos` along one line and cannons that see it over one screen.
    fn line_attackers(
        &self,
        theirs: Bitboard,
        line_occ: u16,
        pos: usize,
        to_sq: impl Fn(u32) -> usize,
        out: &mut Bitboard,
    ) {
        for upwards in [true, false] {
            let near = line_nearest(line_occ, pos as u32, upwards);
            if let Some(b1) = near[0] {
                let s1 = Square::from_index(to_sq(b1));
                if theirs.contains(s1) && self.by_role[Role::Rook].contains(s1) {
                    out.add(s1);
                }
            }
            if let Some(b2) = near[1] {
                let s2 = Square::from_index(to_sq(b2));
                if theirs.contains(s2) && self.by_role[Role::Cannon].contains(s2) {
                    out.add(s2);
                }
            }
        }
    }

    /// Whether the two kings stand on one file with nothing between them (将帅对面).
    pub fn kings_facing(&self) -> bool {
        match (self.king_of(Color::Red), self.king_of(Color::Black)) {
            (Some(r), Some(b)) => {
                r.file() == b.file() && (crate::attacks::between(r, b) & self.occupied).is_empty()
            }
            _ => false,
        }
    }

    /// The placement part of a FEN, Black's back rank first.
    pub fn board_fen(&self) -> String {
        let mut out = String::with_capacity(90);
        for rank in Rank::ALL.iter().rev() {
            let mut empty = 0;
            for file in File::ALL {
                match self.piece_at(Square::new(file, *rank)) {
                    Some(piece) => {
                        if empty > 0 {
                            out.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        out.push(piece.fen_char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                out.push(char::from(b'0' + empty));
            }
            if *rank != Rank::R0 {
                out.push('/');
            }
        }
        out
    }

    /// The board turned by 180° with the colors swapped: the same position seen by the other side.
    #[must_use]
    pub fn mirrored(&self) -> Board {
        let mut board = Board::empty();
        for (sq, piece) in self.pieces() {
            board.put(sq.rotate(), Piece::new(piece.color.other(), piece.role));
        }
        board
    }
}

fn bits_of_rank(occ: Bitboard, rank: usize) -> u16 {
    ((occ.0 >> (rank * 9)) as u16) & RANK_MASK
}

fn bits_of_file(occ: Bitboard, file: usize) -> u16 {
    // A sequential shift: a vectorised `1 << (rank * 9 + file)` loop over u128 crashed LLVM's
    // instruction selection (rustc 1.95, x86-64, opt-level 3).
    let mut rest = occ.0 >> file;
    let mut bits = 0u16;
    for rank in 0..10 {
        bits |= ((rest & 1) as u16) << rank;
        rest >>= 9;
    }
    bits
}

/// Iterates the set bit positions of a line mask.
pub(crate) struct BitIter(pub(crate) u16);

impl Iterator for BitIter {
    type Item = u32;
    #[inline]
    fn next(&mut self) -> Option<u32> {
        if self.0 == 0 {
            return None;
        }
        let bit = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(bit)
    }
}

impl PartialEq for Board {
    fn eq(&self, other: &Board) -> bool {
        self.squares == other.squares
    }
}

impl Eq for Board {}

impl std::hash::Hash for Board {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.squares.hash(state);
    }
}

impl Default for Board {
    fn default() -> Board {
        Board::start()
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.board_fen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_board() {
        let board = Board::start();
        assert_eq!(
            board.board_fen(),
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR"
        );
        assert_eq!(board.occupied().count(), 32);
        assert_eq!(board.king_of(Color::Black), Some(Square::E9));
        assert_eq!(board.mirrored(), board);
    }

    #[test]
    fn attackers_in_the_start_position() {
        let board = Board::start();
        // The red cannon on h2 jumps the h9 horse? No: h7 (black cannon) is the screen for h9.
        assert!(
            board
                .attackers_of(Square::H9, Color::Red)
                .contains(Square::H2)
        );
        // b2 cannon attacks b9 over b7.
        assert!(
            board
                .attackers_of(Square::B9, Color::Red)
                .contains(Square::B2)
        );
        // e3 pawn is protected by nothing red? The e0 king cannot reach e3.
        assert_eq!(board.attackers_of(Square::E3, Color::Red), Bitboard::EMPTY);
        // The c3 pawn is attacked by nobody black; the black c6 pawn is attacked by nobody red.
        assert_eq!(board.attackers_of(Square::C6, Color::Red), Bitboard::EMPTY);
        // The g0 elephant protects e2 and i2.
        assert!(
            board
                .attackers_of(Square::E2, Color::Red)
                .contains(Square::G0)
        );
        // Rook a0 covers a1 and a2 up to the a3 pawn.
        assert!(
            board
                .attackers_of(Square::A3, Color::Red)
                .contains(Square::A0)
        );
        assert!(
            !board
                .attackers_of(Square::A4, Color::Red)
                .contains(Square::A0)
        );
    }
}
