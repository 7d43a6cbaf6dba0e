//! The CXA 2020 nature of a quiet move (24.2, 24.3, 26.1–26.10).
//!
//! 1. **杀** (24.2) if, were the opponent to pass, the mover could mate by a check or a series of
//!    checks, and could not before the move (for an answer to check: before the check).
//! 2. **捉** (24.3) if, were the opponent to pass, the mover could win material next move — a
//!    capture, a check or series of checks that wins material, a complete exchange that ends ahead
//!    (an even exchange counts when each side takes a different piece, 26.6) — against a piece it
//!    could not win before (only new threats count). Not counted: what a king or pawn threatens by
//!    itself (26.1), anything a king move answering check creates (26.1), attacks on advisors and
//!    elephants by a lone attacking piece (26.2), winning a piece that faces a same-kind piece
//!    able to take back (that is an offer to exchange, 26.10).
//! 3. Otherwise a move of the 闲 family ([`crate::quiet::idle_family`]).

use xq_core::{Bitboard, Color, Move, Piece, Position, Role, Square};

use crate::{
    classify::{Effort, MoveInContext},
    facts::{Chase, IdleReason, Protection, Reason},
    nature::Nature,
    quiet::{idle_family, mate_threat},
    search::{Budget, Limits, MATE, line_after},
    threats::{
        CoChasers, RECAPTURE_NODES, Threat, capture_threatened, chaser_limits, co_chasers,
        face_offs, king_or_pawn_only, threats,
    },
};

/// The nature of a move that gives no check, under the CXA 2020 rules.
pub(crate) fn quiet(ctx: &MoveInContext<'_>, budget: &mut Budget) -> (Nature, Reason) {
    let (pos, m, effort, before_check) = (ctx.before, ctx.m, ctx.effort, ctx.before_check);
    let after = ctx.after;
    let Some(mover) = pos.piece_at(m.from) else {
        return (Nature::Idle, Reason::Idle(IdleReason::NothingNew));
    };
    let answering_check = pos.is_check();
    if answering_check && mover.role == Role::King {
        return (Nature::Idle, Reason::Idle(IdleReason::KingAnswersCheck));
    }
    // What the mover threatens if the opponent does nothing, against what it threatened before
    // the move (for an answer to check: before the check).
    let threatened = after.passed();
    // For an answer to check the baseline is the position just before the check, the answerer
    // to move there (26.1, 26.4): a chase of the checking piece on its new square is new.
    let (baseline, moved_by_check) = match (answering_check, before_check) {
        (true, Some((earlier, check))) => (earlier.passed(), Some(check)),
        _ => (pos.clone(), None),
    };

    if let Some(found) = mate_threat(&threatened, &baseline, effort, budget) {
        return found;
    }

    budget.refill(effort.nodes);
    let now = threats(&threatened, budget);
    budget.refill(effort.nodes);
    let old = threats(&baseline, budget);
    // New (24.3, 26.4): the piece could not be won before in the same way — by a capture, or by
    // a series of checks (将军抽吃) — or only for less (the move makes a new, cheaper combination
    // against it), or not even evenly by each taking one (各吃各子); and it could not be won for
    // more in any way. Whether the capturer already attacked it does not matter.
    let new = |t: &Threat| {
        old.iter()
            .filter(|o| o.target == t.target)
            .all(|o| o.value < t.value || (o.value == t.value && o.by_checks != t.by_checks))
    };
    let (fresh, stale): (Vec<Threat>, Vec<Threat>) = now.into_iter().partition(|t| new(t));
    let by_itself = |t: &Threat| {
        matches!(mover.role, Role::King | Role::Pawn)
            && t.participants == Bitboard::from_square(m.to)
    };
    // 26.8: material a pawn or king takes is its own doing (idle), even after another piece's
    // check, unless the pawn's or king's capture itself gives check.
    let by_king_or_pawn = |t: &Threat| king_or_pawn_only(&threatened, mover.color, &t.line);
    let (counted, king_or_pawn): (Vec<Threat>, Vec<Threat>) = fresh
        .into_iter()
        .partition(|t| !by_itself(t) && !by_king_or_pawn(t));
    // 26.4: a protector that left its post to give check leaves its piece to its own fate; what
    // the answer to that check threatens against that piece does not count.
    let (counted, self_inflicted): (Vec<Threat>, Vec<Threat>) =
        counted.into_iter().partition(|t| {
            !moved_by_check.is_some_and(|check| checker_protected(&threatened, check, t, budget))
        });
    let lone = lone_attacker(after, mover.color);
    let (counted, key_point): (Vec<Threat>, Vec<Threat>) = counted.into_iter().partition(|t| {
        !(lone == Some(m.to) && matches!(t.target_piece.role, Role::Advisor | Role::Elephant))
    });
    // 26.10: offering a same-kind exchange that the opponent cannot accept without loss or mate.
    let traps = exchange_traps(pos, after, m, effort, budget);
    // 联合捉 (24.17): the pieces the chase cannot do without.
    budget.refill(effort.nodes);
    let counted: Vec<(Threat, CoChasers)> = counted
        .into_iter()
        .map(|mut t| {
            let found = co_chasers(&threatened, &t, m.to, budget);
            t.participants = found.pieces;
            (t, found)
        })
        .collect();
    // 24.3: a piece that only steps out of a real attack adds no attacking force, even when its
    // leaving lets a standing capture pay.
    let (counted, escaped): (Vec<_>, Vec<_>) = counted.into_iter().partition(|(t, found)| {
        moved_by_check.is_some()
            || found.acting.contains(m.to)
            || !only_escapes(pos, &threatened, m, t)
    });

    if !counted.is_empty() || !traps.is_empty() {
        let mut chases: Vec<Chase> = counted
            .iter()
            .map(|(t, found)| describe_chase(&threatened, t, found.recaptures_lose))
            .collect();
        chases.extend(traps);
        return (Nature::Chase, Reason::Chase { chases });
    }
    // The 闲 family: a pair the move newly sets against each other first, then a threat that an
    // exchange stands in the way of (both 兑), then the rest; the escape rule's reason before a
    // plain idle one.
    let idle = idle_family(pos, after, m);
    if let Some((Nature::Exchange, reason)) = idle {
        return (Nature::Exchange, reason);
    }
    if let Some((piece, partner)) = presses_an_exchange(&threatened, &baseline, budget) {
        return (Nature::Exchange, Reason::PressesExchange { piece, partner });
    }
    if let Some((nature, reason)) = idle
        && (nature != Nature::Idle || escaped.is_empty())
    {
        return (nature, reason);
    }
    let reason = if !escaped.is_empty() {
        IdleReason::OnlyEscapes {
            targets: escaped.iter().map(|(t, _)| t.target).collect(),
        }
    } else if !key_point.is_empty() {
        IdleReason::DrawingKeyPoint {
            targets: key_point.iter().map(|t| t.target).collect(),
        }
    } else if !king_or_pawn.is_empty() {
        IdleReason::KingOrPawnAlone {
            targets: king_or_pawn.iter().map(|t| t.target).collect(),
        }
    } else if !self_inflicted.is_empty() {
        IdleReason::CheckerLeftItsPost {
            targets: self_inflicted.iter().map(|t| t.target).collect(),
        }
    } else if !stale.is_empty() {
        IdleReason::NotNew {
            targets: stale.iter().map(|t| t.target).collect(),
        }
    } else {
        IdleReason::NothingNew
    };
    (Nature::Idle, Reason::Idle(reason))
}

/// 24.3 (the chase must be the move's own doing): whether `m` creates the threat `t` only by
/// stepping out of a real attack. That is so when all of these hold:
/// - the moved piece does not act against the target (the caller checks this: it neither
///   captures, checks nor screens in the line, backs up the first capture against a recapture,
///   refutes a recapture, nor stands in a recapture's way; guarding its own side, as the
///   protector of what would be the opponent's compensation, adds no attacking force);
/// - where it stood, the opponent threatened it: taking it there ended ahead, or even only by
///   each taking one (各吃各子, which counts as a chase, 26.6);
/// - before the move, the same capture was answered by taking the moved piece there: its
///   leaving removes the opponent's compensation, nothing more;
/// - it takes no safe flight from the target ([`restrains`]: a piece that attacks a point where
///   the target would otherwise stand safe, or pins the target there, adds force — "keeps the
///   piece from leaving its line").
///
/// A piece that steps away from a protected post and so frees another piece's capture is not
/// escaping anything, and a piece that unmasks a capture by leaving a line did not stand as the
/// opponent's compensation: both still chase. The searches have their own budget; if it runs
/// out, the chase stands.
fn only_escapes(pos: &Position, threatened: &Position, m: Move, t: &Threat) -> bool {
    if t.by_checks {
        return false;
    }
    let Some(&first) = t.line.first() else {
        return false;
    };
    // The compensation: before the move, the same capture was met by taking the moved piece.
    if !pos.is_legal(first) {
        return false;
    }
    let mut budget = Budget::new(ESCAPE_NODES);
    let line = line_after(&mut pos.clone(), first, &chaser_limits(pos), &mut budget);
    let compensated = line.moves.iter().skip(1).step_by(2).any(|r| r.to == m.from);
    let escapes = compensated
        && {
            let opponent = pos.passed();
            capture_threatened(&opponent, m.from, chaser_limits(&opponent), &mut budget)
        }
        && !restrains(&threatened.passed(), t.target, m.to, &mut budget);
    escapes && !budget.exhausted()
}

/// The search budget of [`only_escapes`].
const ESCAPE_NODES: u32 = 200_000;

/// Whether the piece on `piece` (of the side not to move in `pos`) keeps the target on `target`
/// (of the side to move) from a safe flight: a point the target could move to and stand safe
/// were the piece not on the board, and that the piece takes away — by attacking it (the target
/// would be won there) or by pinning the target to its king. (Merely standing in the way, on
/// the point or on a horse's leg, is not counted: 参考图37's cannon hobbles the horse it lets
/// be taken, and the book calls that step idle.) A piece whose removal leaves no legal position
/// is taken to restrain.
fn restrains(pos: &Position, target: Square, piece: Square, budget: &mut Budget) -> bool {
    let mut setup = pos.to_setup();
    if setup.board.remove(piece).is_none() {
        return false;
    }
    let Ok(without) = Position::from_setup(setup).or_else(|e| e.ignore_implausible()) else {
        return true;
    };
    let side = pos.turn();
    let flights = without.legal_moves_from(target);
    flights.iter().any(|&flight| {
        if !safe_after(&without, flight, budget) {
            return false;
        }
        if pos.is_legal(flight) {
            return !safe_after(pos, flight, budget);
        }
        let mut fled = pos.clone();
        fled.play_unchecked(flight);
        fled.attackers_of(fled.king(side), side.other())
            .contains(piece)
    })
}

/// Whether the piece that plays `flight` in `pos` stands safe where it lands: it cannot be won
/// there.
fn safe_after(pos: &Position, flight: Move, budget: &mut Budget) -> bool {
    let mut fled = pos.clone();
    fled.play_unchecked(flight);
    !capture_threatened(&fled, flight.to, Limits::default(), budget)
}

/// 24.4, 26.10: a new threat to win a piece that stands face to face with a same-kind piece of
/// the mover is no chase — the opponent may exchange instead — and the rulebook writes the move
/// as an offer to exchange (兑). Returns the mover's piece and its partner, for the first such
/// pair whose partner the mover can win now (with any piece, the partner too) and could not
/// before.
fn presses_an_exchange(
    threatened: &Position,
    baseline: &Position,
    budget: &mut Budget,
) -> Option<(Square, Square)> {
    face_offs(threatened).into_iter().find(|&(_, theirs)| {
        wins_partner(threatened, theirs, budget) && !wins_partner(baseline, theirs, budget)
    })
}

/// Whether the side to move in `pos` can win the enemy piece on `theirs` by taking it, its
/// same-kind partner included among the takers.
fn wins_partner(pos: &Position, theirs: Square, budget: &mut Budget) -> bool {
    if pos.piece_at(theirs).is_none_or(|p| p.color == pos.turn()) {
        return false;
    }
    let limits = Limits {
        chaser: true,
        ..Limits::default()
    };
    for from in pos.attackers_of(theirs, pos.turn()) {
        let capture = Move::new(from, theirs);
        if pos.is_legal(capture) && line_after(&mut pos.clone(), capture, &limits, budget).value > 0
        {
            return true;
        }
    }
    false
}

/// 26.10: the moved piece faces a same-kind enemy piece that can take it, and taking it would
/// cost the taker material or lead to mate: the offer is a chase of that piece.
fn exchange_traps(
    before: &Position,
    after: &Position,
    m: Move,
    effort: Effort,
    budget: &mut Budget,
) -> Vec<Chase> {
    let Some(piece) = after.piece_at(m.to) else {
        return Vec::new();
    };
    let existing = face_offs(&before.passed());
    budget.refill(effort.nodes);
    after
        .legal_captures()
        .iter()
        .filter(|c| c.to == m.to && after.piece_at(c.from).is_some_and(|p| p.role == piece.role))
        .filter(|c| !existing.contains(&(c.from, m.from)))
        .filter_map(|&c| {
            let line = line_after(&mut after.clone(), c, &Limits::default(), budget);
            (line.value < 0).then(|| Chase {
                target: c.from,
                target_piece: after.piece_at(c.from).map_or('?', |p| p.fen_char()),
                attacker: m.to,
                attacker_piece: piece.fen_char(),
                pieces: vec![m.to],
                joint: false,
                protection: Protection::ExchangeTrap,
                value: -line.value.max(-MATE),
                each_takes_each: false,
                line: line.moves.iter().map(ToString::to_string).collect(),
                pinned_by_horse: false,
            })
        })
        .collect()
}

/// 26.4 (离线断根将军): whether the piece that gave `check` protected the target of `t` — with
/// the checker put back on its old square in `threatened` (the answer played), can it take back
/// after the capture, itself (also from behind the capturer, on the line the capture opens) or
/// as the screen of a cannon that takes back, so that the threat then fails?
fn checker_protected(threatened: &Position, check: Move, t: &Threat, budget: &mut Budget) -> bool {
    let mut setup = threatened.to_setup();
    if setup.board.piece_at(check.from).is_some() {
        return false;
    }
    // The checker still stands where it checked (an answer that took it leaves nothing to put
    // back).
    let Some(checker) = setup.board.remove(check.to) else {
        return false;
    };
    if checker.color == threatened.turn() {
        return false;
    }
    setup.board.put(check.from, checker);
    let Ok(mut back) = Position::from_setup(setup).or_else(|e| e.ignore_implausible()) else {
        return false;
    };
    let capture = Move::new(t.capturer, t.target);
    if !back.is_legal(capture) {
        return false;
    }
    let mut taken = back.clone();
    taken.play_unchecked(capture);
    let takes_back = taken.legal_captures().iter().any(|r| {
        r.to == t.target
            && (r.from == check.from
                || (taken
                    .piece_at(r.from)
                    .is_some_and(|p| p.role == Role::Cannon)
                    && Bitboard::between(r.from, t.target).contains(check.from)))
    });
    // And with that protection the threat fails: the piece can no longer be won (nor balanced
    // only by each taking one).
    takes_back && {
        let limits = chaser_limits(&back);
        let value = line_after(&mut back, capture, &limits, budget).value;
        value < 0 || (value == 0 && !t.each_takes_each)
    }
}

/// 26.2: the only attacking piece (rook, horse, cannon or crossed pawn) of `color`, if it has
/// one and is the defending side — the opponent's attacking pieces are worth more on the
/// rulebook's scale (a crossed pawn at its tie-breaking worth).
fn lone_attacker(pos: &Position, color: Color) -> Option<Square> {
    let ours = attackers(pos, color);
    let force = |pieces: Bitboard| -> i32 {
        pieces
            .into_iter()
            .filter_map(|sq| pos.piece_at(sq))
            .map(|p| crate::material::fixed_value(p.role).unwrap_or(crate::material::PAWN))
            .sum()
    };
    (force(attackers(pos, color.other())) > force(ours))
        .then(|| ours.single())
        .flatten()
}

/// The attacking pieces (rooks, horses, cannons and crossed pawns) of `color`.
fn attackers(pos: &Position, color: Color) -> Bitboard {
    let board = pos.board();
    let mut attackers =
        (board.by_role(Role::Rook) | board.by_role(Role::Horse) | board.by_role(Role::Cannon))
            & board.by_color(color);
    for sq in board.by_piece(Piece::new(color, Role::Pawn)) {
        if crate::material::crossed(color, sq) {
            attackers.add(sq);
        }
    }
    attackers
}

/// A chase as reported; `recaptures_lose` is what [`co_chasers`] found of the recaptures (whether
/// every legal one loses), which spares searching them again.
fn describe_chase(pos: &Position, t: &Threat, recaptures_lose: Option<bool>) -> Chase {
    let attacker_piece = pos.piece_at(t.capturer).map_or('?', |p| p.fen_char());
    let protection = if t.by_checks {
        Protection::ByChecks
    } else {
        protection_of(pos, t, recaptures_lose)
    };
    Chase {
        target: t.target,
        target_piece: t.target_piece.fen_char(),
        attacker: t.capturer,
        attacker_piece,
        pieces: t.participants.collect(),
        joint: t.participants.more_than_one(),
        protection,
        value: t.value.min(MATE),
        each_takes_each: t.each_takes_each,
        line: t.line.iter().map(ToString::to_string).collect(),
        pinned_by_horse: false,
    }
}

/// Why the target of a direct capture is lost: counts its protectors before and after the
/// capture. `recaptures_lose`, if known, says whether every legal recapture of the first capture
/// loses.
fn protection_of(pos: &Position, t: &Threat, recaptures_lose: Option<bool>) -> Protection {
    let Some(first) = t.line.first().copied() else {
        return Protection::ExchangeWins;
    };
    let us = pos.turn();
    let them = us.other();
    let board = pos.board();
    let attackers = board.attackers_of(t.target, us).count();
    // Protectors as the pieces stand (the attacker still on its point, the target on its own).
    let mut after = pos.clone();
    after.play_unchecked(first);
    let pseudo = after.board().attackers_of(t.target, them);
    if pseudo.is_empty() {
        return Protection::Unprotected;
    }
    let legal = after
        .legal_captures()
        .iter()
        .filter(|m| m.to == t.target)
        .count();
    if legal == 0 {
        return Protection::FakeRoot;
    }
    let value = |role: Role| crate::material::fixed_value(role).unwrap_or(0);
    let attacker_value = pos.piece_at(t.capturer).map_or(0, |p| value(p.role));
    if value(t.target_piece.role) > attacker_value {
        return Protection::OutweighsAttacker;
    }
    if pseudo.count() < attackers {
        return Protection::UnderProtected;
    }
    // Protectors that exist but do not help: taking back loses to mate, or is refuted.
    let refuted = match recaptures_lose.filter(|_| first.to == t.target) {
        Some(known) => known,
        None => {
            let mut budget = Budget::new(RECAPTURE_NODES);
            after
                .legal_captures()
                .iter()
                .filter(|m| m.to == t.target)
                .all(|&m| {
                    let line = line_after(&mut after.clone(), m, &Limits::default(), &mut budget);
                    line.value < 0
                })
        }
    };
    if refuted {
        Protection::FakeRoot
    } else {
        Protection::ExchangeWins
    }
}
