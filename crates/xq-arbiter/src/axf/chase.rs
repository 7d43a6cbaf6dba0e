//! The chase of the Asian (AXF/WXF) rules: an attack that a move creates on a piece the attacker
//! could take without it being taken back, or on a piece worth more than the attacker.
//!
//! A side *chases* an enemy piece when one of its pieces could legally capture it next move and
//! - the target is not the king, nor a pawn that has not crossed the river;
//! - the attacker is not the king or a pawn (they may attack as they please);
//! - and either the target outranks the attacker — a rook attacked by a horse or cannon, a rook,
//!   horse or cannon attacked by an advisor or elephant — so that protection does not matter,
//! - or the target is unprotected — and, for same-kind pieces (rook and rook, horse and horse,
//!   cannon and cannon), cannot take the attacker back (it is pinned, or a horse whose leg is
//!   blocked), since otherwise the attack is an offer to exchange: after the capture no piece of
//!   its side can legally
//!   take back (a pinned protector, a cannon that loses its screen, a recapture that would leave
//!   the king in check or facing the other king do not protect; a capture that gives check leaves
//!   only recaptures that answer it).
//!
//! A move chases what its side chases after it and did not chase before it. Pieces are followed
//! through a cycle by identity, so a perpetual chase is the same piece chased by every move.

use xq_core::{Color, Move, Piece, Position, Role, Square};

use crate::facts::{Chase, Protection};

/// Every enemy piece `color` chases in `pos` (whoever is to move), with the attacker and why it
/// counts.
pub fn chased(pos: &Position, color: Color) -> Vec<Chase> {
    // After a check, `color` is not to move; as if the other side passed (a capture that keeps
    // the check leaves the victim only recaptures that answer it).
    let ours = if pos.turn() == color {
        pos.clone()
    } else {
        pos.passed()
    };
    let mut out = Vec::new();
    for m in ours.legal_captures().iter() {
        let (Some(attacker), Some(target)) = (ours.piece_at(m.from), ours.piece_at(m.to)) else {
            continue;
        };
        if matches!(attacker.role, Role::King | Role::Pawn) || !is_target(target, m.to) {
            continue;
        }
        // Only legal captures count, so a piece that shields its king chases at most the piece
        // that pins it (a horse-leg or cannon-screen pin included).
        let Some(protection) = why_chased(&ours, *m, attacker, target) else {
            continue;
        };
        let pinned_by_horse = target.role == Role::Rook && pinned_by_horse(&ours, m.to, color);
        out.push(Chase {
            pinned_by_horse,
            target: m.to,
            target_piece: target.fen_char(),
            attacker: m.from,
            attacker_piece: attacker.fen_char(),
            pieces: vec![m.from],
            joint: false,
            protection,
            value: 0,
            each_takes_each: false,
            line: vec![m.to_string()],
        });
    }
    out
}

/// Pieces that can be chased: not the king, not a pawn on its own side of the river.
fn is_target(piece: Piece, sq: Square) -> bool {
    match piece.role {
        Role::King => false,
        Role::Pawn => !sq.is_own_half(piece.color),
        _ => true,
    }
}

/// Whether the piece on `sq` stands on the leg of a horse of `color` that would otherwise give
/// check: it cannot move without exposing its king (a rook so pinned may not be chased, WXF
/// diagrams 39–41).
fn pinned_by_horse(pos: &Position, sq: Square, color: Color) -> bool {
    let Some(piece) = pos.piece_at(sq) else {
        return false;
    };
    let king = pos.king(piece.color);
    let horses = |board: &xq_core::Board| {
        board.attackers_of(king, color) & board.by_piece(Piece::new(color, Role::Horse))
    };
    let mut without = pos.board().clone();
    without.remove(sq);
    (horses(&without) & !horses(pos.board())).any()
}

/// Why capturing `target` with `m` is a chase, or `None` if it is not.
fn why_chased(pos: &Position, m: Move, attacker: Piece, target: Piece) -> Option<Protection> {
    let outranks = match attacker.role {
        Role::Horse | Role::Cannon => target.role == Role::Rook,
        Role::Advisor | Role::Elephant => {
            matches!(target.role, Role::Rook | Role::Horse | Role::Cannon)
        }
        _ => false,
    };
    if outranks {
        return Some(Protection::OutweighsAttacker);
    }
    if attacker.role == target.role {
        // Same kind: an offer to exchange, unless the target cannot take back (then it is
        // judged by its protection like any other).
        let theirs = pos.passed();
        if theirs.is_legal(Move::new(m.to, m.from)) {
            return None;
        }
    }
    let mut after = pos.clone();
    after.play_unchecked(m);
    let defenders = after.board().attackers_of(m.to, target.color);
    let protected = if pos.is_king_attacked(target.color) {
        // The move being judged gave check: the target's side must answer it first, so its
        // protectors are judged as the pieces stand — a protector counts unless it shields its
        // king (the king itself if it may take).
        let shields = after.pinned(target.color);
        let counts = |d: Square| match after.piece_at(d) {
            Some(p) if p.role == Role::King => after.is_legal(Move::new(d, m.to)),
            _ => !shields.contains(d),
        };
        defenders.filter(|&d| counts(d)).count() > 0
    } else {
        after.legal_captures().iter().any(|c| c.to == m.to)
    };
    if protected {
        return None;
    }
    Some(if defenders.is_empty() {
        Protection::Unprotected
    } else {
        Protection::FakeRoot
    })
}

/// The chases `m` creates: the (attacker, target) pairs the mover has after it and did not have
/// before — a piece newly attacked, or a piece already attacked that another attacker now
/// attacks as well (a discovered attack is new). The moved piece is the same attacker on its new
/// point, so a rook that slides along a line and keeps attacking the same piece creates nothing.
/// Targets are named where they stand after the move.
pub fn new_chases(before: &Position, m: Move) -> Vec<Chase> {
    let mover = before.turn();
    let mut after = before.clone();
    after.play_unchecked(m);
    let moved = |sq: Square| if sq == m.from { m.to } else { sq };
    let old: Vec<(Square, Square)> = chased(before, mover)
        .into_iter()
        .map(|c| (moved(c.attacker), c.target))
        .collect();
    chased(&after, mover)
        .into_iter()
        .filter(|c| !old.contains(&(c.attacker, c.target)))
        .collect()
}
