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

/// 杀: a mate by a check or series of checks `threatened` holds (the mover to move again) by a
/// method `baseline` (before the move, or just before the check being answered) did not have: no
/// mate there, or only a slower one. A mating line that needs fewer checks than any the baseline
/// had is a new way to mate (26.4: an answer to check that adds a new mating line is 杀).
pub fn mate_threat(
    threatened: &Position,
    baseline: &Position,
    effort: Effort,
    budget: &mut Budget,
) -> Option<(Nature, Reason)> {
    let standing = face_offs(threatened);
    let mate_within = |pos: &Position, checks: u32, avoid: &[_], budget: &mut Budget| {
        budget.refill(effort.nodes);
        mate_by_checks_avoiding(&mut pos.clone(), checks, avoid, budget)
    };
    let mut line = mate_within(threatened, effort.mate_checks, &standing, budget)?;
    // The fastest mate: the mover's moves in a mating line are every other move, the first and
    // the last included.
    let checks_in = |line: &[Move]| u32::try_from(line.len().div_ceil(2)).unwrap_or(u32::MAX);
    for checks in 1..checks_in(&line) {
        if let Some(faster) = mate_within(threatened, checks, &standing, budget) {
            line = faster;
            break;
        }
    }
    let before = face_offs(baseline);
    mate_within(baseline, checks_in(&line), &before, budget)
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

/// The 闲 family (24.4–24.8), or `None` for a plain idle move. The reason keeps the finer
/// analysis — an offer to exchange (兑), an offer (献), a follow (跟), a block (拦) — and the
/// nature follows the rulebook's practice: its cases write 兑 for every offer to exchange
/// same-kind pieces the move creates (the moved piece's, or one it uncovers: a rook contact
/// opened, a screen put between two cannons), 拦 only for a piece that blocks and cannot leave
/// its line (moving it away lets the opponent mate at once, 图7), and 闲 for the rest.
pub fn idle_family(before: &Position, after: &Position, m: Move) -> Option<(Nature, Reason)> {
    let mut budget = Budget::new(200_000);
    if let Some((piece, partner)) = exchange_offer(before, after, m, &mut budget) {
        return Some((Nature::Exchange, Reason::Exchange { piece, partner }));
    }
    let blocked = blocked_by(after, m.to);
    if blocks_a_mate(after, m.to) {
        return Some((
            Nature::Block,
            Reason::Block {
                piece: m.to,
                blocked,
            },
        ));
    }
    let them = before.turn().other();
    let piece = after.piece_at(m.to)?;
    // 献: it can be taken without loss for the taker.
    let free: Vec<Square> = after
        .legal_captures()
        .iter()
        .filter(|c| c.to == m.to)
        .filter(|c| line_after(&mut after.clone(), **c, &Limits::default(), &mut budget).value >= 0)
        .map(|c| c.from)
        .collect();
    if !free.is_empty() {
        return Some((
            Nature::Idle,
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
            Nature::Idle,
            Reason::Follow {
                piece: m.to,
                targets,
            },
        ));
    }
    (!blocked.is_empty()).then_some((
        Nature::Idle,
        Reason::Block {
            piece: m.to,
            blocked,
        },
    ))
}

/// 兑: a pair of same-kind pieces the move newly sets against each other — one of the mover's
/// (the moved piece or another) that the opponent can take with a piece of the same kind, where
/// taking it is no gain for the taker and does not lose to mate. Returns (the mover's piece, the
/// partner).
fn exchange_offer(
    before: &Position,
    after: &Position,
    m: Move,
    budget: &mut Budget,
) -> Option<(Square, Square)> {
    let earlier = before.passed();
    let stood_before = |sq: Square| if sq == m.to { m.from } else { sq };
    after.legal_captures().iter().copied().find_map(|c| {
        let (taker, offered) = (after.piece_at(c.from)?, after.piece_at(c.to)?);
        if taker.role != offered.role || taker.role == Role::King {
            return None;
        }
        let old = Move::new(c.from, stood_before(c.to));
        if earlier.piece_at(old.to) == Some(offered) && earlier.is_legal(old) {
            return None;
        }
        let line = line_after(&mut after.clone(), c, &Limits::default(), budget);
        (line.value <= 0 && line.value > -MATE).then_some((c.to, c.from))
    })
}

/// The enemy rooks, cannons, horses and elephants whose way the piece on `sq` blocks: they would
/// have more moves were it gone. `after` has the enemy to move.
fn blocked_by(after: &Position, sq: Square) -> Vec<Square> {
    let Some(without) = without_piece(after, sq) else {
        return Vec::new();
    };
    after
        .board()
        .by_color(after.turn())
        .filter(|&from| {
            after.piece_at(from).is_some_and(|enemy| {
                matches!(
                    enemy.role,
                    Role::Rook | Role::Cannon | Role::Horse | Role::Elephant
                ) && without.legal_moves_from(from).len() > after.legal_moves_from(from).len()
            })
        })
        .collect()
}

/// `pos` without the piece on `sq`, if that is a position.
fn without_piece(pos: &Position, sq: Square) -> Option<Position> {
    let mut setup = pos.to_setup();
    setup.board.remove(sq)?;
    Position::from_setup(setup)
        .or_else(|e| e.ignore_implausible())
        .ok()
}

/// 拦 that matters (不能离线): were the piece on `sq` gone, an enemy piece it blocks would start
/// a mate by a check or a series of checks along the way it frees. `pos` has the enemy to move.
pub fn blocks_a_mate(pos: &Position, sq: Square) -> bool {
    const CHECKS: u32 = 7;
    let Some(mut without) = without_piece(pos, sq) else {
        return false;
    };
    let mut budget = Budget::new(200_000);
    let freed: Vec<Move> = blocked_by(pos, sq)
        .into_iter()
        .flat_map(|from| {
            let before = pos.legal_moves_from(from);
            without
                .legal_moves_from(from)
                .iter()
                .copied()
                .filter(|m| !before.iter().any(|b| b == m))
                .collect::<Vec<_>>()
        })
        .collect();
    freed
        .into_iter()
        .any(|m| crate::search::mate_by_checks_starting(&mut without, m, CHECKS, &mut budget))
}
