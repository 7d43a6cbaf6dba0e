//! Classifying each move of a line: its nature and the reason, in data.
//!
//! The procedure, with the rulebook clauses it follows (see `docs/arbiter.md`):
//! 1. **将** (24.1) if the move gives check.
//! 2. **杀** (24.2) if, were the opponent to pass, the mover could mate by a check or a series of
//!    checks, and could not before the move (for an answer to check: before the check).
//! 3. **捉** (24.3) if, were the opponent to pass, the mover could win material next move — a
//!    capture, a check or series of checks that wins material, a complete exchange that ends ahead
//!    (an even exchange counts when each side takes a different piece, 26.6) — against a piece it
//!    could not win before (only new threats count). Not counted: what a king or pawn threatens by
//!    itself (26.1), anything a king move answering check creates (26.1), attacks on advisors and
//!    elephants by a lone attacking piece (26.2), winning a piece that faces a same-kind piece
//!    able to take back (that is an offer to exchange, 26.10).
//! 4. Otherwise a move of the 闲 family: **兑** (offers a same-kind exchange the opponent can
//!    accept without loss), **献** (offers a piece that can be taken without loss), **跟**
//!    (attacks a protected piece without winning it), **拦** (stands in the way of an enemy
//!    piece), or **闲**.

use serde::Serialize;
use xq_core::{Bitboard, Color, Move, Piece, Position, Role, Square};

use crate::{
    nature::Nature,
    profile::{ChaseModel, Profile},
    search::{Budget, Defence, Limits, MATE, line_after, mate_by_checks_avoiding},
    threats::{Threat, face_offs, threats, wins_without},
};

/// How hard the searches may work for one move.
#[derive(Copy, Clone, Debug)]
pub struct Effort {
    /// Longest series of checks looked at for a mate threat (杀), in the mover's moves.
    pub mate_checks: u32,
    /// Node budget of each search.
    pub nodes: u32,
}

impl Default for Effort {
    fn default() -> Effort {
        Effort {
            mate_checks: 7,
            nodes: 400_000,
        }
    }
}

/// Why a piece counts as unprotected, or why winning it works anyway.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Protection {
    /// No piece protects it (无根子).
    Unprotected,
    /// Its protectors cannot legally take back, or taking back would allow mate (假根).
    FakeRoot,
    /// Fewer protectors than attackers (少根子).
    UnderProtected,
    /// It is worth more than its attacker, so even a protected piece is lost in the exchange
    /// (a rook attacked by a horse or cannon, a horse or cannon by an advisor or elephant …).
    OutweighsAttacker,
    /// Won by a check or series of checks (将军抽吃).
    ByChecks,
    /// Protected, but the complete exchange still ends ahead.
    ExchangeWins,
    /// An offer to exchange same-kind pieces that the opponent cannot accept without losing
    /// material or being mated (26.10); the line shows the acceptance.
    ExchangeTrap,
}

/// One chase: which piece attacks which, and why it wins.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Chase {
    /// The piece chased.
    pub target: Square,
    /// Its FEN letter.
    pub target_piece: char,
    /// The piece that takes it.
    pub attacker: Square,
    /// The attacker's FEN letter.
    pub attacker_piece: char,
    /// Every chasing piece the winning line needs (the moved piece included when it takes part).
    pub pieces: Vec<Square>,
    /// Whether two or more pieces act together (联合捉).
    pub joint: bool,
    /// Why it is won.
    pub protection: Protection,
    /// Net material on the rulebook scale (rook 20, horse/cannon 10, advisor/elephant 4).
    pub value: i32,
    /// Even, held only by taking something else (各吃各子, 26.6).
    pub each_takes_each: bool,
    /// The winning line in UCCI.
    pub line: Vec<String>,
    /// The target is a rook pinned by a horse (it stands on the horse's leg towards its king):
    /// chasing it is the heavier violation under AXF rules (WXF diagrams 39–41).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub pinned_by_horse: bool,
}

/// Why a move of the 闲 family is not an attack, or what it does instead.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "why", rename_all = "snake_case")]
pub enum IdleReason {
    /// Nothing new is threatened.
    NothingNew,
    /// The king moved to answer a check: whatever it creates is idle (26.1).
    KingAnswersCheck,
    /// The threats are the king's or a pawn's own (26.1).
    KingOrPawnAlone {
        /// The targets.
        targets: Vec<Square>,
    },
    /// A lone attacking piece's incidental attack on advisors or elephants (26.2).
    DrawingKeyPoint {
        /// The targets.
        targets: Vec<Square>,
    },
    /// The threat is against a piece whose protector left it to give the check being answered
    /// (26.4: the checker's own doing).
    CheckerLeftItsPost {
        /// The targets.
        targets: Vec<Square>,
    },
    /// The threats existed before the move (for an answer to check: before the check).
    NotNew {
        /// The targets.
        targets: Vec<Square>,
    },
}

/// The facts behind a nature.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Reason {
    /// 将: the checking pieces.
    Check {
        /// Where they stand.
        checkers: Vec<Square>,
        /// The chases the check makes as well (AXF rules only, where a check that also chases
        /// keeps a perpetual chase going).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        chases: Vec<Chase>,
    },
    /// 杀: the mating line found.
    MateThreat {
        /// The line in UCCI, the mover's first (as if the opponent passed).
        line: Vec<String>,
    },
    /// 捉: every new chase.
    Chase {
        /// The chases.
        chases: Vec<Chase>,
    },
    /// 兑: the moved piece faces a same-kind piece, and taking it is an even exchange.
    Exchange {
        /// The moved piece.
        piece: Square,
        /// The piece it faces.
        partner: Square,
    },
    /// 献: the moved piece can be taken without loss.
    Offer {
        /// The moved piece.
        piece: Square,
        /// The pieces that can take it.
        takers: Vec<Square>,
    },
    /// 拦: the moved piece stands in an enemy piece's way.
    Block {
        /// The moved piece.
        piece: Square,
        /// The enemy pieces whose way it blocks.
        blocked: Vec<Square>,
    },
    /// 跟: the moved piece attacks a protected piece it cannot win.
    Follow {
        /// The moved piece.
        piece: Square,
        /// The protected pieces it attacks.
        targets: Vec<Square>,
    },
    /// 闲.
    Idle(IdleReason),
}

/// A classified move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Classified {
    /// The move.
    #[serde(serialize_with = "ser_move")]
    pub m: Move,
    /// Who played it.
    #[serde(serialize_with = "ser_color")]
    pub side: Color,
    /// Its nature.
    pub nature: Nature,
    /// Why.
    pub reason: Reason,
}

fn ser_move<S: serde::Serializer>(m: &Move, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(m)
}

fn ser_color<S: serde::Serializer>(c: &Color, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(c.name())
}

/// Classifies every move of `moves` played from `start`. Each move must be legal.
///
/// A move answering a check is judged against the position before the check. For the first move
/// that position is known only when the line is a cycle (it returns to `start`): then the moves
/// before the first are the last ones of the cycle. Otherwise the position before the move
/// stands in.
pub fn classify_line(
    start: &Position,
    moves: &[Move],
    effort: Effort,
    profile: Profile,
) -> Vec<Classified> {
    let positions = crate::cycle::positions(start, moves);
    let cyclic = moves.len() >= 2 && positions.last().is_some_and(|end| end.same_position(start));
    let cycle = cyclic.then_some((0, moves.len()));
    classify_window(&positions, moves, 0..moves.len(), cycle, effort, profile)
}

/// Classifies the moves `range` of a line whose positions are `positions` (the start, then one
/// per move). `cycle`, as (first ply, length), says which stretch repeats: a move answering a
/// check at its start finds the position before the check at its end.
pub fn classify_window(
    positions: &[Position],
    moves: &[Move],
    range: std::ops::Range<usize>,
    cycle: Option<(usize, usize)>,
    effort: Effort,
    profile: Profile,
) -> Vec<Classified> {
    let mut budget = Budget::new(effort.nodes);
    range
        .map(|i| {
            let m = moves[i];
            let earlier = if !positions[i].is_check() {
                None
            } else if i >= 2 {
                Some((&positions[i - 2], moves[i - 1]))
            } else {
                // Before the line starts: within a cycle, the same plies before its end.
                cycle
                    .filter(|&(start, len)| len >= 2 && i >= start && i < start + 2)
                    .map(|(start, len)| {
                        let j = i + len;
                        (&positions[j - 2], moves[(j - 1 - start) % len + start])
                    })
            };
            let side = positions[i].turn();
            let (nature, reason) =
                nature_of(&positions[i], m, earlier, effort, &mut budget, profile);
            Classified {
                m,
                side,
                nature,
                reason,
            }
        })
        .collect()
}

/// Classifies `m` played in `pos`. `before_check`, for a move answering a check, is the position
/// before the opponent's checking move and that move.
pub fn classify(
    pos: &Position,
    m: Move,
    before_check: Option<(&Position, Move)>,
    effort: Effort,
    profile: Profile,
) -> Classified {
    let side = pos.turn();
    let mut budget = Budget::new(effort.nodes);
    let (nature, reason) = nature_of(pos, m, before_check, effort, &mut budget, profile);
    Classified {
        m,
        side,
        nature,
        reason,
    }
}

fn nature_of(
    pos: &Position,
    m: Move,
    before_check: Option<(&Position, Move)>,
    effort: Effort,
    budget: &mut Budget,
    profile: Profile,
) -> (Nature, Reason) {
    let Some(mover) = pos.piece_at(m.from) else {
        return (Nature::Idle, Reason::Idle(IdleReason::NothingNew));
    };
    let mut after = pos.clone();
    after.play_unchecked(m);
    if after.is_check() {
        let chases = match profile.chase {
            ChaseModel::Attack => crate::axf::new_chases(pos, m),
            ChaseModel::MaterialGain => Vec::new(),
        };
        return (
            Nature::Check,
            Reason::Check {
                checkers: after.checkers().collect(),
                chases,
            },
        );
    }
    if profile.chase == ChaseModel::Attack {
        return attack_nature(pos, &after, m, effort, budget);
    }
    let answering_check = pos.is_check();
    if answering_check && mover.role == Role::King {
        return (Nature::Idle, Reason::Idle(IdleReason::KingAnswersCheck));
    }
    // What the mover threatens if the opponent does nothing, against what it threatened before
    // the move (for an answer to check: before the check).
    let threatened = after.passed();
    let (baseline, moved_by_check) = match (answering_check, before_check) {
        (true, Some((earlier, check))) => (earlier.clone(), Some(check)),
        _ => (pos.clone(), None),
    };

    if let Some(found) = mate_threat(&threatened, &baseline, effort, budget) {
        return found;
    }

    budget.refill(effort.nodes);
    let now = threats(&threatened, budget);
    budget.refill(effort.nodes);
    let old: Vec<(Square, u8)> = threats(&baseline, budget)
        .into_iter()
        .map(|t| {
            let target = match moved_by_check {
                Some(check) if t.target == check.from => check.to,
                _ => t.target,
            };
            (target, level(&t))
        })
        .collect();
    // New: the piece could not be won before, or only in an even each-takes-each (26.4).
    let was = |target: Square| {
        old.iter()
            .filter(|(t, _)| *t == target)
            .map(|&(_, l)| l)
            .max()
            .unwrap_or(0)
    };
    // An even each-takes-each counts only when the attack itself is new: the capturer did not
    // already attack the target before the move.
    let attacked_before = |t: &Threat| {
        let from = if t.capturer == m.to {
            m.from
        } else {
            t.capturer
        };
        let target = match moved_by_check {
            Some(check) if t.target == check.to => check.from,
            _ => t.target,
        };
        baseline
            .piece_at(from)
            .is_some_and(|p| p.color == mover.color)
            && baseline
                .board()
                .attackers_of(target, mover.color)
                .contains(from)
    };
    let (fresh, stale): (Vec<Threat>, Vec<Threat>) = now
        .into_iter()
        .partition(|t| level(t) > was(t.target) && (level(t) == 2 || !attacked_before(t)));
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
            !moved_by_check.is_some_and(|check| {
                baseline
                    .board()
                    .attackers_of(t.target, mover.color.other())
                    .contains(check.from)
            })
        });
    let lone = lone_attacker(&after, mover.color);
    let (counted, key_point): (Vec<Threat>, Vec<Threat>) = counted.into_iter().partition(|t| {
        !(lone == Some(m.to) && matches!(t.target_piece.role, Role::Advisor | Role::Elephant))
    });
    // 26.10: offering a same-kind exchange that the opponent cannot accept without loss or mate.
    let traps = exchange_traps(pos, &after, m, effort, budget);
    // 联合捉: the moved piece takes part when the chase fails without it.
    budget.refill(effort.nodes);
    let counted: Vec<Threat> = counted
        .into_iter()
        .map(|mut t| {
            if !t.participants.contains(m.to)
                && wins_without(&threatened, &t, m.to, budget) == Some(false)
            {
                t.participants.add(m.to);
            }
            t
        })
        .collect();

    if !counted.is_empty() || !traps.is_empty() {
        let mut chases: Vec<Chase> = counted
            .iter()
            .map(|t| describe_chase(&threatened, t))
            .collect();
        chases.extend(traps);
        return (Nature::Chase, Reason::Chase { chases });
    }
    if let Some((nature, reason)) = idle_family(pos, &after, m) {
        return (nature, reason);
    }
    let reason = if !key_point.is_empty() {
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

/// 杀: a mate by a check or series of checks `threatened` holds (the mover to move again) and
/// `baseline` (before the move, or before the check being answered) did not.
fn mate_threat(
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

/// The nature of a move that gives no check, under the AXF chase ([`ChaseModel::Attack`]): a
/// chase if it creates one, else a mate threat (allowed under these rules, but said), else a
/// move of the 闲 family.
fn attack_nature(
    pos: &Position,
    after: &Position,
    m: Move,
    effort: Effort,
    budget: &mut Budget,
) -> (Nature, Reason) {
    let chases = crate::axf::new_chases(pos, m);
    if !chases.is_empty() {
        return (Nature::Chase, Reason::Chase { chases });
    }
    if let Some(found) = mate_threat(&after.passed(), pos, effort, budget) {
        return found;
    }
    if let Some(found) = idle_family(pos, after, m) {
        return found;
    }
    (Nature::Idle, Reason::Idle(IdleReason::NothingNew))
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

/// How strong a threat is: 2 wins material, 1 is even but counts (each takes each).
fn level(t: &Threat) -> u8 {
    if t.value > 0 { 2 } else { 1 }
}

/// 26.8: whether the material in `line` is won by `color`'s king or a pawn on its own: the first
/// piece won is taken by a king or pawn that gives no check and has no other piece of its side
/// attacking that piece with it, or the gain comes only from a king's or pawn's last capture
/// after an otherwise even exchange.
fn king_or_pawn_only(pos: &Position, color: Color, line: &[Move]) -> bool {
    let mut scratch = pos.clone();
    let mut gained = crate::material::Ledger::default();
    let mut lost = crate::material::Ledger::default();
    let mut first = true;
    let mut last_by_king_or_pawn: Option<(crate::material::Ledger, crate::material::Ledger)> = None;
    for &m in line {
        let mover = scratch.piece_at(m.from);
        let victim = scratch.piece_at(m.to);
        let helpers = scratch.board().attackers_of(m.to, color).without(m.from);
        let before = (gained, lost);
        scratch.play_unchecked(m);
        let (Some(mover), Some(victim)) = (mover, victim) else {
            continue;
        };
        if mover.color != color {
            lost.take(victim, m.to);
            continue;
        }
        if !crate::material::is_material(victim, m.to) {
            continue;
        }
        gained.take(victim, m.to);
        let small = matches!(mover.role, Role::King | Role::Pawn) && !scratch.is_check();
        let alone = helpers
            .filter(|&sq| {
                scratch
                    .piece_at(sq)
                    .is_some_and(|p| !matches!(p.role, Role::King | Role::Pawn))
            })
            .count()
            == 0;
        if first {
            first = false;
            if small && alone {
                return true;
            }
        }
        last_by_king_or_pawn = small.then_some(before);
    }
    matches!(last_by_king_or_pawn, Some((g, l)) if crate::material::net(&g, &l) <= 0)
}

/// The only attacking piece (rook, horse, cannon or crossed pawn) of `color`, if it has one.
fn lone_attacker(pos: &Position, color: Color) -> Option<Square> {
    let board = pos.board();
    let mut attackers =
        (board.by_role(Role::Rook) | board.by_role(Role::Horse) | board.by_role(Role::Cannon))
            & board.by_color(color);
    for sq in board.by_piece(Piece::new(color, Role::Pawn)) {
        if !sq.is_own_half(color) {
            attackers.add(sq);
        }
    }
    attackers.single()
}

fn describe_chase(pos: &Position, t: &Threat) -> Chase {
    let attacker_piece = pos.piece_at(t.capturer).map_or('?', |p| p.fen_char());
    let protection = if t.by_checks {
        Protection::ByChecks
    } else {
        protection_of(pos, t)
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
/// capture.
fn protection_of(pos: &Position, t: &Threat) -> Protection {
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
    let mut budget = Budget::new(100_000);
    let refuted = after
        .legal_captures()
        .iter()
        .filter(|m| m.to == t.target)
        .all(|&m| {
            let line = line_after(
                &mut after.clone(),
                m,
                &Limits {
                    defence: Defence::Anything,
                    ..Limits::default()
                },
                &mut budget,
            );
            line.value < 0
        });
    if refuted {
        Protection::FakeRoot
    } else {
        Protection::ExchangeWins
    }
}

/// The 闲 family: 兑, 献, 跟, 拦 (in that order of precedence), or none.
fn idle_family(before: &Position, after: &Position, m: Move) -> Option<(Nature, Reason)> {
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
    let _ = face_offs;
    None
}
