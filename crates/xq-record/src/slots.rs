//! The 32 piece slots of binary and DhtmlXQ records: Red's 16 pieces then Black's, each side in
//! the order rook, horse, elephant, advisor, king, advisor, elephant, horse, rook, two cannons,
//! five pawns. A slot holds its piece's point, or nothing once the piece is gone.

use xq_core::{Color, Position, Role, Square};

/// The role of each of a side's 16 slots.
pub(crate) const ROLES: [Role; 16] = [
    Role::Rook,
    Role::Horse,
    Role::Elephant,
    Role::Advisor,
    Role::King,
    Role::Advisor,
    Role::Elephant,
    Role::Horse,
    Role::Rook,
    Role::Cannon,
    Role::Cannon,
    Role::Pawn,
    Role::Pawn,
    Role::Pawn,
    Role::Pawn,
    Role::Pawn,
];

/// The point of every slot for the pieces of `pos`, and how many pieces found no slot (a composed
/// position with a third rook, say).
pub(crate) fn slots(pos: &Position) -> ([Option<Square>; 32], usize) {
    let mut places = [None; 32];
    let mut homeless = 0;
    for (sq, piece) in pos.board().pieces() {
        let base = if piece.color == Color::Red { 0 } else { 16 };
        match (0..16).find(|&i| ROLES[i] == piece.role && places[base + i].is_none()) {
            Some(slot) => places[base + slot] = Some(sq),
            None => homeless += 1,
        }
    }
    (places, homeless)
}

/// What a writer says when pieces find no slot.
pub(crate) fn homeless_words(homeless: usize, format: &str) -> Option<String> {
    (homeless > 0).then(|| {
        format!(
            "{homeless} piece(s) of the start position that {format}'s 32 piece slots cannot hold"
        )
    })
}

/// What a writer of `format`, which holds a start position as its pieces' places, says of a
/// game whose start position cannot be played: it wrote the standard start in its place.
pub(crate) fn unplayable_start(bad: &crate::replay::BadStart, format: &str) -> String {
    format!(
        "{}; {format} holds a start position as its pieces' places: the standard start was written in its place",
        bad.message
    )
}
