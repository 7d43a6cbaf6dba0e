//! The rulebook's material scale (子力价值, CXA 2020 第26条 26.6–26.7).
//!
//! 车 = 2 马 = 2 炮 = 马 + 炮; 马 = 炮; 仕 = 相. The king and pawns that have not crossed the river
//! are not material: taking them wins nothing. A crossed pawn's value floats below a rook: a pawn
//! (or several) traded for one or several other pieces, advisors and elephants included, is no
//! gain for either side, but giving a pawn to win a rook is.

use xq_core::{Color, Piece, Role, Square};

/// A rook's worth.
pub const ROOK: i32 = 20;
/// A horse's or cannon's worth (half a rook).
pub const MINOR: i32 = 10;
/// An advisor's or elephant's worth. The rulebook only says 仕 = 相; weaker than a horse.
pub const GUARD: i32 = 4;
/// The tie-breaking worth of a crossed pawn when pieces are otherwise even.
pub const PAWN: i32 = 3;

/// The fixed value of a piece, or `None` for a crossed pawn (which floats) and for what is not
/// material (the king, a pawn on its own side).
pub fn fixed_value(role: Role) -> Option<i32> {
    match role {
        Role::Rook => Some(ROOK),
        Role::Horse | Role::Cannon => Some(MINOR),
        Role::Advisor | Role::Elephant => Some(GUARD),
        Role::King | Role::Pawn => None,
    }
}

/// Whether a piece standing on `sq` is material (can be "won").
pub fn is_material(piece: Piece, sq: Square) -> bool {
    match piece.role {
        Role::King => false,
        Role::Pawn => !sq.is_own_half(piece.color),
        _ => true,
    }
}

/// What one side has taken during an exchange.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Ledger {
    /// Sum of the fixed values of the pieces taken.
    pub pieces: i32,
    /// Whether a rook is among them.
    pub rook: bool,
    /// Crossed pawns taken.
    pub pawns: i32,
}

impl Ledger {
    /// Records taking `piece` on `sq`.
    pub fn take(&mut self, piece: Piece, sq: Square) {
        if !is_material(piece, sq) {
            return;
        }
        match fixed_value(piece.role) {
            Some(v) => {
                self.pieces += v;
                self.rook |= piece.role == Role::Rook;
            }
            None => self.pawns += 1,
        }
    }
}

/// The net result of an exchange for the side that took `gained` and gave `lost`, on the
/// rulebook's scale: positive is a gain (得子), zero even, negative a loss.
pub fn net(gained: &Ledger, lost: &Ledger) -> i32 {
    let base = gained.pieces - lost.pieces;
    if base < 0 {
        return -net(lost, gained);
    }
    match (base, gained.pawns, lost.pawns) {
        (0, g, l) => (g - l) * PAWN,
        (_, g, 0) => base + g * PAWN,
        // Pawns given for pieces: they float up to any surplus below a rook's worth.
        (b, g, l) if b >= ROOK && gained.rook => (b - l * PAWN).max(1) + g * PAWN,
        (_, g, _) => g * PAWN,
    }
}

/// Whether a pawn of `color` on `sq` has crossed the river.
pub fn crossed(color: Color, sq: Square) -> bool {
    !sq.is_own_half(color)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ledger(items: &[(Role, bool)]) -> Ledger {
        let mut l = Ledger::default();
        for &(role, crossed) in items {
            let sq = if crossed { Square::E6 } else { Square::E3 };
            l.take(Piece::new(Color::Red, role), sq);
        }
        l
    }

    #[test]
    fn the_rulebook_scale() {
        let r = ledger(&[(Role::Rook, true)]);
        let h = ledger(&[(Role::Horse, true)]);
        let c = ledger(&[(Role::Cannon, true)]);
        let hc = ledger(&[(Role::Horse, true), (Role::Cannon, true)]);
        let a = ledger(&[(Role::Advisor, true)]);
        let e = ledger(&[(Role::Elephant, true)]);
        let p = ledger(&[(Role::Pawn, true)]);
        let uncrossed = ledger(&[(Role::Pawn, false)]);
        let none = Ledger::default();
        assert_eq!(net(&r, &hc), 0, "车 = 马 + 炮");
        assert_eq!(net(&h, &c), 0, "马 = 炮");
        assert_eq!(net(&a, &e), 0, "仕 = 相");
        assert!(net(&r, &h) > 0);
        assert!(net(&h, &a) > 0);
        assert_eq!(
            net(&uncrossed, &none),
            0,
            "an uncrossed pawn is not material"
        );
        assert!(net(&p, &none) > 0, "a free crossed pawn is a gain");
        assert_eq!(net(&h, &p), 0, "a pawn for a horse is no gain");
        assert_eq!(net(&a, &p), 0, "a pawn for an advisor is no gain");
        assert!(net(&r, &p) > 0, "a pawn given for a rook is");
        assert!(net(&p, &r) < 0);
        let hp = ledger(&[(Role::Horse, true), (Role::Pawn, true)]);
        assert_eq!(net(&hc, &hp), 0, "one piece for pawns is no gain");
    }
}
