//! What a side threatens to win next move (the material part of 捉).

use xq_core::{Bitboard, Color, Move, Piece, Position, Role, Square};

use crate::{
    material::is_material,
    search::{Budget, Defence, Limits, MATE, gives_check, line_after, supporters},
};

/// The search budget for the lines after the recaptures of a threat's first capture.
pub const RECAPTURE_NODES: u32 = 100_000;

/// A way to win material next move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Threat {
    /// The line: the first move, the best defence, and so on.
    pub line: Vec<Move>,
    /// Net material on the rulebook scale (see [`crate::material`]).
    pub value: i32,
    /// The enemy piece taken first, where it stands in the analysed position.
    pub target: Square,
    /// That piece.
    pub target_piece: Piece,
    /// The piece that takes it, where it stands in the analysed position.
    pub capturer: Square,
    /// Every piece of the threatening side that captures or gives check in the line, or serves
    /// as a cannon's screen for its capture, where it stands in the analysed position (answers
    /// to the opponent's checks do not count). The classification narrows this to the pieces the
    /// chase needs ([`co_chasers`]).
    pub participants: Bitboard,
    /// Whether the line starts with a check that does not capture (将军抽吃, 抽将).
    pub by_checks: bool,
    /// Whether a check is given anywhere in the line by the threatening side.
    pub with_check: bool,
    /// Whether the balance is even and the defender holds it only by taking something else
    /// (各吃各子), which the rulebook counts as a chase (26.6).
    pub each_takes_each: bool,
}

/// Pairs of points holding same-kind pieces of the two sides that can take each other: a
/// standing offer to exchange (邀兑), which is not a threat to win material (26.10). A piece that
/// cannot leave its line (taking would let the other side mate at once, 不能离线) makes no offer.
pub fn face_offs(pos: &Position) -> Vec<(Square, Square)> {
    let us = pos.turn();
    let them = pos.passed();
    let mut pairs = Vec::new();
    for m in pos.legal_captures().iter() {
        let (Some(a), Some(b)) = (pos.piece_at(m.from), pos.piece_at(m.to)) else {
            continue;
        };
        if a.role != b.role || a.role == Role::King || a.color != us {
            continue;
        }
        let back = Move::new(m.to, m.from);
        if them.is_legal(back) {
            let mut accepted = them.clone();
            accepted.play_unchecked(back);
            if crate::search::mate_in_one(&mut accepted).is_none() {
                pairs.push((m.from, m.to));
            }
        }
    }
    pairs
}

/// The search limits for the side to move in `pos` as a chaser: it may not count a standing
/// face-off partner as won (26.10), and its king's and pawns' captures on their own win nothing
/// (26.8).
pub fn chaser_limits(pos: &Position) -> Limits {
    Limits {
        face_offs: face_offs(pos),
        chaser: true,
        ..Limits::default()
    }
}

/// Everything the side to move could win next move in `pos`: captures of material and checks
/// that lead, against the best defence, to a net gain (or to an even exchange held only by a
/// counter-capture elsewhere).
pub fn threats(pos: &Position, budget: &mut Budget) -> Vec<Threat> {
    let mut pos = pos.clone();
    let limits = ChaserLimits::new(&pos);
    let mut found = Vec::new();
    let moves = pos.legal_moves();
    for &m in moves.iter() {
        if limits.general.face_offs.contains(&(m.from, m.to)) {
            continue;
        }
        let takes_material = pos.piece_at(m.to).is_some_and(|p| is_material(p, m.to));
        let checks = !takes_material && gives_check(&mut pos, m);
        if !takes_material && !checks {
            continue;
        }
        if let Some(threat) = threat_after(&mut pos, m, &limits, budget) {
            found.push(threat);
        }
    }
    found
}

/// Whether the side to move in `pos` threatens the piece on `sq` with a capture: taking it ends
/// ahead, or even only because the defender takes something else (各吃各子, 26.6). `limits`
/// are the searcher's: [`chaser_limits`] for a threat were the opponent to pass, the plain
/// defaults for what the side to move can really take next (no face-off stands in its way
/// then: the opponent has had its move).
pub fn capture_threatened(pos: &Position, sq: Square, limits: Limits, budget: &mut Budget) -> bool {
    let mut pos = pos.clone();
    let limits = ChaserLimits::with(limits);
    let us = pos.turn();
    for from in pos.attackers_of(sq, us) {
        let m = Move::new(from, sq);
        if !limits.general.face_offs.contains(&(m.from, m.to))
            && pos.is_legal(m)
            && threat_after(&mut pos, m, &limits, budget).is_some()
        {
            return true;
        }
    }
    false
}

/// The chaser's search limits in `pos`, in general and when the defender only takes back.
struct ChaserLimits {
    general: Limits,
    recaptures: Limits,
}

impl ChaserLimits {
    fn new(pos: &Position) -> ChaserLimits {
        ChaserLimits::with(chaser_limits(pos))
    }

    fn with(general: Limits) -> ChaserLimits {
        let recaptures = Limits {
            defence: Defence::Recaptures,
            ..general.clone()
        };
        ChaserLimits {
            general,
            recaptures,
        }
    }
}

/// The threat that the legal move `m` (a capture of material or a check) starts in `pos`, if it
/// wins material or comes out even only by 各吃各子.
fn threat_after(
    pos: &mut Position,
    m: Move,
    limits: &ChaserLimits,
    budget: &mut Budget,
) -> Option<Threat> {
    let line = line_after(pos, m, &limits.general, budget);
    // 各吃各子 (26.6, 26.7): even only because the defender takes something else — were it only
    // to take back, it would lose.
    let each_takes_each = line.value == 0
        && only_elsewhere(pos, &line.moves)
        && line_after(pos, m, &limits.recaptures, budget).value > 0;
    if line.value > 0 || each_takes_each {
        describe(pos, pos.turn(), line.moves, line.value, each_takes_each)
    } else {
        None
    }
}

/// Whether, in `line` played from `pos`, the other side takes something and never takes back a
/// piece that captured (each side takes a different piece, 各吃各子). The line may start with
/// checks (26.7).
fn only_elsewhere(pos: &Position, line: &[Move]) -> bool {
    let us = pos.turn();
    let mut scratch = pos.clone();
    let mut capturers = Bitboard::EMPTY;
    let mut theirs = 0;
    for &m in line {
        let taken = scratch.piece_at(m.to).is_some_and(|p| is_material(p, m.to));
        if scratch.turn() == us {
            if capturers.contains(m.from) {
                capturers.discard(m.from);
                capturers.add(m.to);
            } else if taken {
                capturers.add(m.to);
            }
        } else if taken {
            if capturers.contains(m.to) {
                return false;
            }
            theirs += 1;
        }
        scratch.play_unchecked(m);
    }
    theirs > 0
}

/// Replays `line` from `pos`, following every piece back to where it stood, to name the target,
/// the capturer and the participants.
fn describe(
    pos: &Position,
    us: Color,
    line: Vec<Move>,
    value: i32,
    each_takes_each: bool,
) -> Option<Threat> {
    let mut scratch = pos.clone();
    // origin[sq] = where the piece now on sq stood in `pos`.
    let mut origin: [Square; 90] = std::array::from_fn(Square::from_index);
    let mut participants = Bitboard::EMPTY;
    let mut first_capture: Option<(Square, Piece, Square)> = None;
    let mut with_check = false;
    let by_checks = line.first().is_some_and(|m| pos.piece_at(m.to).is_none());
    for &m in &line {
        let mover = scratch.piece_at(m.from)?;
        let captured = scratch.piece_at(m.to);
        if mover.color == us
            && let Some(victim) = captured
        {
            participants.add(origin[m.from.index()]);
            if mover.role == Role::Cannon {
                let screen = Bitboard::between(m.from, m.to) & scratch.board().occupied();
                for sq in screen & scratch.board().by_color(us) {
                    participants.add(origin[sq.index()]);
                }
            }
            if first_capture.is_none() && is_material(victim, m.to) {
                first_capture = Some((origin[m.to.index()], victim, origin[m.from.index()]));
            }
        }
        scratch.play_unchecked(m);
        origin[m.to.index()] = origin[m.from.index()];
        if mover.color == us && scratch.is_check() {
            // The checking pieces, a discovered checker included.
            with_check = true;
            for checker in scratch.checkers() {
                participants.add(origin[checker.index()]);
            }
        }
    }
    let (target, target_piece, capturer) = first_capture?;
    Some(Threat {
        line,
        value: value.min(MATE),
        target,
        target_piece,
        capturer,
        participants,
        by_checks,
        with_check,
        each_takes_each,
    })
}

/// 24.17 (联合捉): the pieces of the threatening side that the chase needs — it fails without
/// any one of them. They are sought among the pieces that act against the target: those that
/// capture, check or screen in the line, `moved` (the piece just moved, which may have opened a
/// line or blocked a defence), and those whose tactic refutes a recapture of the first capture
/// (a pin that makes it illegal, or a capture or check that punishes it). A piece that only
/// appears later in the line without being needed (a pawn taken at the end) is no co-chaser, nor
/// is a piece that only guards its own side. The capturer always takes part.
pub fn co_chasers(
    pos: &Position,
    threat: &Threat,
    moved: Square,
    budget: &mut Budget,
) -> CoChasers {
    let (refuting, recaptures_lose) = refuters(pos, threat);
    let mut candidates = threat.participants | refuting;
    candidates.add(moved);
    let acting = threat.participants | refuting | acting_after_capture(pos, threat, moved);
    let mut needed = Bitboard::from_square(threat.capturer);
    for sq in candidates.without(threat.capturer) {
        if !pos
            .piece_at(sq)
            .is_some_and(|p| p.color == pos.turn() && p.role != Role::King)
        {
            continue;
        }
        // A piece whose removal leaves no legal position (the opponent would stand in check)
        // cannot be tested: it takes part if it acts in the line.
        let necessary = match wins_without(pos, threat, sq, budget) {
            Some(wins) => !wins,
            None => threat.participants.contains(sq),
        };
        if necessary {
            needed.add(sq);
        }
    }
    CoChasers {
        pieces: needed,
        acting,
        recaptures_lose,
    }
}

/// What acts against the target once the threat's first capture is played (if it is one), seen
/// from the side to move in `pos`: the pieces that back the capture up against a recapture
/// (they attack the point too, when the opponent can take back there; against a target nothing
/// protects, backing adds nothing), and `moved` if it stands in the way of a recapture (without
/// it, more enemy pieces would attack that point: it blocks a line or a horse's leg, or is a
/// second screen before a cannon).
fn acting_after_capture(pos: &Position, threat: &Threat, moved: Square) -> Bitboard {
    let Some(&first) = threat.line.first() else {
        return Bitboard::EMPTY;
    };
    if pos.piece_at(first.to).is_none() {
        return Bitboard::EMPTY;
    }
    let mut after = pos.clone();
    after.play_unchecked(first);
    let (us, them) = (pos.turn(), pos.turn().other());
    let recapturers = after.board().attackers_of(first.to, them);
    let mut acting = if recapturers.is_empty() {
        Bitboard::EMPTY
    } else {
        after.attackers_of(first.to, us)
    };
    let mut board = after.board().clone();
    if moved != first.from
        && board.remove(moved).is_some()
        && !(board.attackers_of(first.to, them) & !recapturers).is_empty()
    {
        acting.add(moved);
    }
    acting
}

/// What [`co_chasers`] found: the pieces, and on the way whether every legal recapture of the
/// first capture loses (`None` when there is none, or the first move captures nothing).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CoChasers {
    /// The co-chasers, the capturer included.
    pub pieces: Bitboard,
    /// The pieces that act against the target, needed or not: those that capture, check or
    /// screen in the line, back up the first capture against a recapture, or refute a
    /// recapture; and the moved piece if it stands in the way of a recapture.
    pub acting: Bitboard,
    /// Whether every legal recapture loses material or leads to mate for the recapturing side.
    pub recaptures_lose: Option<bool>,
}

/// The pieces of the side to move in `pos` that punish a recapture of the threat's first
/// capture: for a recapture the king's safety forbids, the pieces that would then attack the
/// recapturing side's king; for a legal one that loses, the pieces that capture or check in the
/// line that follows it. And whether every legal recapture loses (`None` if there is none).
fn refuters(pos: &Position, threat: &Threat) -> (Bitboard, Option<bool>) {
    let mut found = Bitboard::EMPTY;
    let mut recaptures_lose = None;
    let Some(&first) = threat.line.first() else {
        return (found, recaptures_lose);
    };
    if pos.piece_at(first.to).is_none() {
        return (found, recaptures_lose);
    }
    let us = pos.turn();
    let mut after = pos.clone();
    after.play_unchecked(first);
    // The recaptures have a budget of their own, as when the protection is described.
    let mut recapture_budget = Budget::new(RECAPTURE_NODES);
    for protector in after.attackers_of(first.to, us.other()) {
        let recapture = Move::new(protector, first.to);
        if after.is_legal(recapture) {
            let answer = line_after(
                &mut after.clone(),
                recapture,
                &Limits::default(),
                &mut recapture_budget,
            );
            recaptures_lose = Some(recaptures_lose.unwrap_or(true) && answer.value < 0);
            if answer.value < 0 {
                let mut line = vec![first];
                line.extend(answer.moves);
                if let Some(t) = describe(pos, us, line, 0, false) {
                    found |= t.participants;
                }
            }
        } else {
            let mut taken = after.clone();
            taken.play_unchecked(recapture);
            found |= taken.attackers_of(taken.king(us.other()), us);
        }
    }
    (found, recaptures_lose)
}

/// Whether the threat still wins without the piece on `sq` (which belongs to the threatening
/// side): if not, that piece is needed for the chase (联合捉: lacking one piece, it fails).
/// `None` if removing the piece leaves a position that is not legal.
pub fn wins_without(
    pos: &Position,
    threat: &Threat,
    sq: Square,
    budget: &mut Budget,
) -> Option<bool> {
    let mut setup = pos.to_setup();
    setup.board.remove(sq)?;
    let mut reduced = Position::from_setup(setup)
        .or_else(|e| e.ignore_implausible())
        .ok()?;
    let first = *threat.line.first()?;
    if !reduced.is_legal(first) {
        return Some(false);
    }
    let limits = chaser_limits(&reduced);
    let line = line_after(&mut reduced, first, &limits, budget);
    // A king's or pawn's win on its own is no chase (26.8): a piece supporting it is needed.
    let wins = line.value > 0 || (threat.each_takes_each && line.value == 0);
    Some(wins && !king_or_pawn_only(&reduced, pos.turn(), &line.moves))
}

/// 26.1, 26.8: whether the material in `line` is won by `color`'s king or a pawn on its own: the
/// first piece won is taken by a king or pawn that gives no check and has no other piece of its
/// side attacking that piece with it (seen through the point the king or pawn leaves: a rook
/// behind a pawn joins its capture). (Later captures by a king or pawn on their own win nothing
/// in the search itself: the complete exchange is judged under every defence.)
pub(crate) fn king_or_pawn_only(pos: &Position, color: Color, line: &[Move]) -> bool {
    let mut scratch = pos.clone();
    for &m in line {
        let mover = scratch.piece_at(m.from);
        let victim = scratch.piece_at(m.to);
        let helpers = supporters(scratch.board(), m, color);
        scratch.play_unchecked(m);
        let (Some(mover), Some(victim)) = (mover, victim) else {
            continue;
        };
        if mover.color != color || !is_material(victim, m.to) {
            continue;
        }
        let small = matches!(mover.role, Role::King | Role::Pawn) && !scratch.is_check();
        let alone = helpers.into_iter().all(|sq| {
            scratch
                .piece_at(sq)
                .is_none_or(|p| matches!(p.role, Role::King | Role::Pawn))
        });
        return small && alone;
    }
    false
}
