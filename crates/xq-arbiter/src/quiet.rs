//! What a quiet move does, as every profile sees it: a mate threat (杀, 24.2), and the moves of the
//! 闲 family (兑 献 跟 拦, 24.4–24.7).

use xq_core::{Move, Position, Role, Square};

use crate::{
    classify::Effort,
    facts::Reason,
    nature::Nature,
    search::{Budget, Limits, MATE, line_after, mate_by_checks_avoiding},
    threats::face_offs,
};

/// 杀: a mate by a check or series of checks `threatened` holds (the mover to move again) and
/// `baseline` (before the move, or before the check being answered) did not.
pub fn mate_threat(
    threatened: &Position,
    baseline: &Position,
    effort: Effort,
    budget: &mut Budget,
) -> Option<(Nature, Reason)> {
    budget.refill(effort.nodes);
    let standing = face_offs(threatened);
    let line = mate_by_checks_avoiding(
        &mut threatened.clone(),
        effort.mate_checks,
        &standing,
        budget,
    )?;
    budget.refill(effort.nodes);
    let before = face_offs(baseline);
    mate_by_checks_avoiding(&mut baseline.clone(), effort.mate_checks, &before, budget)
        .is_none()
        .then(|| {
            (
                Nature::MateThreat,
                Reason::MateThreat {
                    line: line.iter().map(ToString::to_string).collect(),
                },
            )
        })
}

/// The 闲 family: 兑, 献, 跟, 拦 (in that order of precedence), or none.
pub fn idle_family(before: &Position, after: &Position, m: Move) -> Option<(Nature, Reason)> {
    let us = before.turn();
    let them = us.other();
    let piece = after.piece_at(m.to)?;
    // 兑: the moved piece faces a same-kind enemy piece that can take it, and taking is even.
    let offers = after.legal_captures();
    let takers: Vec<Move> = offers.iter().copied().filter(|c| c.to == m.to).collect();
    let mut budget = Budget::new(200_000);
    for c in &takers {
        let Some(taker) = after.piece_at(c.from) else {
            continue;
        };
        let line = line_after(&mut after.clone(), *c, &Limits::default(), &mut budget);
        if taker.role == piece.role && line.value <= 0 && line.value > -MATE {
            return Some((
                Nature::Exchange,
                Reason::Exchange {
                    piece: m.to,
                    partner: c.from,
                },
            ));
        }
    }
    // 献: it can be taken without loss for the taker.
    let free: Vec<Square> = takers
        .iter()
        .filter(|c| line_after(&mut after.clone(), **c, &Limits::default(), &mut budget).value >= 0)
        .map(|c| c.from)
        .collect();
    if !free.is_empty() {
        return Some((
            Nature::Offer,
            Reason::Offer {
                piece: m.to,
                takers: free,
            },
        ));
    }
    // 跟: it attacks protected enemy pieces (of some value) it cannot win.
    let targets: Vec<Square> = after
        .board()
        .attacks(m.to, piece)
        .filter(|&sq| {
            after
                .piece_at(sq)
                .is_some_and(|p| p.color == them && crate::material::is_material(p, sq))
        })
        .collect();
    if !targets.is_empty() && !matches!(piece.role, Role::King | Role::Pawn) {
        return Some((
            Nature::Follow,
            Reason::Follow {
                piece: m.to,
                targets,
            },
        ));
    }
    // 拦: it now stands in the way of an enemy piece that was free to pass.
    let mut without = after.board().clone();
    without.remove(m.to);
    let blocked: Vec<Square> = after
        .board()
        .by_color(them)
        .filter(|&sq| {
            let Some(enemy) = after.piece_at(sq) else {
                return false;
            };
            matches!(
                enemy.role,
                Role::Rook | Role::Cannon | Role::Horse | Role::Elephant
            ) && without.attacks(sq, enemy).count() > after.board().attacks(sq, enemy).count()
        })
        .collect();
    if !blocked.is_empty() {
        return Some((
            Nature::Block,
            Reason::Block {
                piece: m.to,
                blocked,
            },
        ));
    }
    None
}
