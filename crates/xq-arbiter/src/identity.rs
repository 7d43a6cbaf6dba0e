//! Pieces followed through a line of moves by identity: a chased piece is the same piece after
//! it moves.

use xq_core::{Bitboard, Move, Position, Square};

/// Identities of the pieces of a position, followed through moves: `ids[sq]` is the identity of
/// the piece on `sq` (its point in the first position).
#[derive(Clone, Debug)]
pub struct Identities {
    ids: [Option<Square>; 90],
}

impl Identities {
    /// Every piece of `pos` named by its point.
    pub fn of(pos: &Position) -> Identities {
        let mut ids = [None; 90];
        for sq in pos.board().occupied() {
            ids[sq.index()] = Some(sq);
        }
        Identities { ids }
    }

    /// The identity of the piece on `sq`.
    pub fn at(&self, sq: Square) -> Option<Square> {
        self.ids[sq.index()]
    }

    /// Follows the pieces through `m`.
    pub fn play(&mut self, m: Move) {
        self.ids[m.to.index()] = self.ids[m.from.index()];
        self.ids[m.from.index()] = None;
    }
}

/// The pieces of `targets` as identities.
pub fn identities_of(ids: &Identities, targets: impl IntoIterator<Item = Square>) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    for sq in targets {
        if let Some(id) = ids.at(sq) {
            out.add(id);
        }
    }
    out
}
