//! The small searches behind the move natures: mate in one, a mate forced by checks (杀), and
//! the material that can be won by captures and checks (捉).
//!
//! Every search is bounded by depth and by a node budget, so judging a position takes bounded
//! time whatever the position.

use xq_core::{Color, Move, MoveList, Position, Role};

use crate::material::{Ledger, net};

mod memo;

use memo::{MateMemo, Node, Reach};

/// A score above any material balance: the side that mates.
pub const MATE: i32 = 10_000;

/// How much work a search may do, and what it has learnt on the way (whether a position has a
/// mate in one, which the material search asks at every node and often of the same positions).
#[derive(Clone, Debug)]
pub struct Budget {
    nodes: u32,
    /// How often a search asked for a node when none was left (an answer worked out while this
    /// did not change did not depend on the budget).
    dry: u32,
    mates: std::collections::HashMap<u64, bool>,
    memo: MateMemo,
    /// Whether the checks-only mate search tries the likeliest escapes from a check first (see
    /// `refutations_first`), or the answers in the order of the legal moves.
    escapes_first: bool,
}

impl Budget {
    /// A budget of `nodes` positions.
    pub fn new(nodes: u32) -> Budget {
        Budget {
            nodes,
            dry: 0,
            mates: std::collections::HashMap::new(),
            memo: MateMemo::default(),
            escapes_first: true,
        }
    }

    /// A budget of `nodes` positions whose checks-only mate search remembers nothing: the plain
    /// search, slower, that the remembering one must agree with (for tests and measurements).
    pub fn forgetful(nodes: u32) -> Budget {
        let mut budget = Budget::new(nodes);
        budget.memo.off = true;
        budget
    }

    /// [`Budget::forgetful`] whose checks-only mate search also tries the answers to each check in
    /// the order of the legal moves: the search as first written, which the one that tries the
    /// likeliest escapes first must agree with whenever neither runs out of nodes.
    pub fn in_order(nodes: u32) -> Budget {
        let mut budget = Budget::forgetful(nodes);
        budget.escapes_first = false;
        budget
    }

    /// Gives another `nodes` positions, keeping what was learnt.
    pub fn refill(&mut self, nodes: u32) {
        self.nodes = nodes;
    }

    /// Whether the side to move in `pos` mates at once (without taking a `face_offs` partner),
    /// remembered per position.
    fn mates_at_once(
        &mut self,
        pos: &mut Position,
        face_offs: &[(xq_core::Square, xq_core::Square)],
    ) -> bool {
        let mut key = pos.hash();
        for &(a, b) in face_offs {
            key ^= (a.index() as u64 + 1)
                .wrapping_mul(0x9e37_79b9_7f4a_7c15)
                .rotate_left(b.index() as u32);
        }
        if let Some(&known) = self.mates.get(&key) {
            return known;
        }
        let mates = pos.mates_at_once(|m| is_face_off(face_offs, m));
        if self.mates.len() < 1 << 20 {
            self.mates.insert(key, mates);
        }
        mates
    }

    fn spend(&mut self) -> bool {
        if self.nodes == 0 {
            self.dry += 1;
            false
        } else {
            self.nodes -= 1;
            true
        }
    }

    /// Whether the budget ran out.
    pub fn exhausted(&self) -> bool {
        self.nodes == 0
    }
}

/// Whether `m` gives check in `pos` (the side to move plays it).
pub fn gives_check(pos: &mut Position, m: Move) -> bool {
    pos.gives_check(m)
}

/// A move of the side to move that mates at once (将死 or 困毙 of the opponent): the first in
/// the order of [`Position::legal_moves`].
pub fn mate_in_one(pos: &mut Position) -> Option<Move> {
    if !pos.mates_at_once(|_| false) {
        return None;
    }
    let moves = pos.legal_moves();
    moves.iter().copied().find(|&m| {
        let undo = pos.make_move(m);
        let mated = !pos.has_legal_move();
        pos.unmake_move(m, undo);
        mated
    })
}

/// A mate forced by the side to move using only checking moves (the opponent answering each
/// check in every legal way), in at most `checks` of its moves; returns the line (the first move,
/// then the longest defence and so on) if there is one. A series of checks that repeats a
/// position is not a mating attack and is not followed.
pub fn mate_by_checks(pos: &mut Position, checks: u32, budget: &mut Budget) -> Option<Vec<Move>> {
    mate_by_checks_avoiding(pos, checks, &[], budget)
}

/// [`mate_by_checks`] without the attacker ever taking one of the `face_offs` partners (a piece
/// facing a same-kind piece is an offer to exchange, not a piece the attacker can count on).
pub fn mate_by_checks_avoiding(
    pos: &mut Position,
    checks: u32,
    face_offs: &[(xq_core::Square, xq_core::Square)],
    budget: &mut Budget,
) -> Option<Vec<Move>> {
    budget.memo.avoiding(face_offs);
    let mut walk = Walk {
        face_offs,
        budget,
        path: Vec::new(),
    };
    walk.visit(pos, Node::Attack, checks, Step::Reversible(0))
        .line
}

/// Whether the checking move `first` starts a mate forced by checks: after it, every answer loses
/// to further checks, at most `checks` checks in all (`first` included).
pub fn mate_by_checks_starting(
    pos: &mut Position,
    first: Move,
    checks: u32,
    budget: &mut Budget,
) -> bool {
    if checks == 0 || !gives_check(pos, first) {
        return false;
    }
    budget.memo.avoiding(&[]);
    let mut walk = Walk {
        face_offs: &[],
        budget,
        path: vec![pos.hash()],
    };
    let step = walk.step(pos, first, 0);
    let undo = pos.make_move(first);
    let found = walk.visit(pos, Node::Defend, checks - 1, step);
    pos.unmake_move(first, undo);
    found.line.is_some()
}

/// The checks-only mate search under way: what the attacker may not take, the budget, and the
/// positions from the start to the node searched.
struct Walk<'a> {
    face_offs: &'a [(xq_core::Square, xq_core::Square)],
    budget: &'a mut Budget,
    path: Vec<u64>,
}

/// How a node of the search was reached.
#[derive(Copy, Clone)]
enum Step {
    /// By a reversible move; the positions of the path from this index on were all reached by
    /// reversible moves (only they can come back).
    Reversible(usize),
    /// By a capture or a pawn's step forward: no position above can come back.
    Irreversible,
}

/// What searching a node found, and what that depended on.
struct Found {
    /// The mating line, if there is one.
    line: Option<Vec<Move>>,
    /// The positions the search tested for repetition that it reached by reversible moves only.
    reach: Reach,
    /// The lowest index of the path a repetition met (`usize::MAX` for none).
    cut: usize,
}

impl Found {
    fn new() -> Found {
        Found {
            line: None,
            reach: Reach::default(),
            cut: usize::MAX,
        }
    }

    /// Takes in what a child found (but its line).
    fn add(&mut self, child: &Found) {
        self.reach.merge(&child.reach);
        self.cut = self.cut.min(child.cut);
    }
}

impl Walk<'_> {
    /// How playing `m` in `pos`, whose reversible stretch of the path starts at `start`, reaches
    /// the next node.
    fn step(&self, pos: &Position, m: Move, start: usize) -> Step {
        let pawn_forward = pos
            .piece_at(m.from)
            .is_some_and(|p| p.role == Role::Pawn && m.from.rank() != m.to.rank());
        if pos.piece_at(m.to).is_some() || pawn_forward {
            Step::Irreversible
        } else {
            Step::Reversible(start)
        }
    }

    /// Searches the node `pos` reached by `step`, unless it repeats a position of the path (a
    /// series of checks that repeats a position is not followed), or the memo has the answer.
    fn visit(&mut self, pos: &mut Position, node: Node, checks: u32, step: Step) -> Found {
        let key = pos.hash();
        let here = self.path.len();
        let mut found = Found::new();
        let start = match step {
            Step::Reversible(start) => {
                found.reach.add(key);
                start
            }
            Step::Irreversible => here,
        };
        if let Some(at) = self.path.iter().position(|&p| p == key) {
            found.cut = at;
            return found;
        }
        let budget = &mut *self.budget;
        if let Some((line, reach)) =
            budget
                .memo
                .recall(pos, node, checks, &self.path[start..], &mut budget.nodes)
        {
            if let Step::Reversible(_) = step {
                found.reach.merge(&reach);
            }
            found.line = line;
            return found;
        }
        let (nodes, dry) = (self.budget.nodes, self.budget.dry);
        self.path.push(key);
        let below = match node {
            Node::Attack => self.attack(pos, checks, start),
            Node::Defend => self.defend(pos, checks, start),
        };
        self.path.pop();
        let budget = &mut *self.budget;
        let spent = nodes - budget.nodes;
        if budget.dry == dry && below.cut >= here && spent >= memo::WORTH_KEEPING {
            budget
                .memo
                .store(pos, node, checks, spent, below.reach, &below.line);
        }
        if let Step::Reversible(_) = step {
            found.reach.merge(&below.reach);
        }
        found.cut = below.cut;
        found.line = below.line;
        found
    }

    /// The attacker to move: the first check after which every answer loses.
    fn attack(&mut self, pos: &mut Position, checks: u32, start: usize) -> Found {
        let mut found = Found::new();
        if checks == 0 {
            return found;
        }
        for m in pos.legal_checks().iter().copied() {
            if is_face_off(self.face_offs, m) {
                continue;
            }
            if !self.budget.spend() {
                return found;
            }
            let step = self.step(pos, m, start);
            let undo = pos.make_move(m);
            let defended = self.visit(pos, Node::Defend, checks - 1, step);
            pos.unmake_move(m, undo);
            found.add(&defended);
            if let Some(mut rest) = defended.line {
                rest.insert(0, m);
                found.line = Some(rest);
                return found;
            }
        }
        found
    }

    /// The side to move is in check: a line if every answer loses to further checks (the
    /// longest defence).
    fn defend(&mut self, pos: &mut Position, checks: u32, start: usize) -> Found {
        let mut found = Found::new();
        if checks == 0 {
            // No check left to give: mated now, or the first answer (any) escapes. The answer is
            // counted against the budget as if it were played.
            if !pos.has_legal_move() {
                found.line = Some(Vec::new());
            } else {
                self.budget.spend();
            }
            return found;
        }
        let replies = pos.legal_moves();
        if replies.is_empty() {
            found.line = Some(Vec::new());
            return found;
        }
        // The longest defence; between equally long ones, the first in the order of the legal
        // moves, whatever order they were tried in (so the line does not depend on the order).
        let mut longest: Option<(Vec<Move>, usize)> = None;
        let order = if self.budget.escapes_first {
            refutations_first(pos, &replies)
        } else {
            (0..replies.len()).collect()
        };
        for i in order {
            let r = replies[i];
            if !self.budget.spend() {
                return found;
            }
            let step = self.step(pos, r, start);
            let undo = pos.make_move(r);
            let attacked = self.visit(pos, Node::Attack, checks, step);
            pos.unmake_move(r, undo);
            found.add(&attacked);
            let Some(mut line) = attacked.line else {
                return found;
            };
            line.insert(0, r);
            if longest
                .as_ref()
                .is_none_or(|(l, at)| line.len() > l.len() || (line.len() == l.len() && i < *at))
            {
                longest = Some((line, i));
            }
        }
        found.line = longest.map(|(line, _)| line);
        found
    }
}

/// The order in which the defender's `replies` to a check are tried (indices into `replies`):
/// those leaving the attacker the fewest checks first, ties in the order given. One answer that
/// escapes settles the node, and an answer after which few checks remain is the likeliest to
/// escape and the cheapest to search: one after which there is no check at all settles it at
/// once (it is put first and nothing else is counted). The order changes how fast the search
/// finds an escape, not what it finds — unless a search runs out of nodes, which may then
/// happen at another point than in the order of the legal moves (a 杀 found or not near the
/// budget's end). The work of ordering (each answer played and its checks counted) is not
/// charged to the budget: at most one check generation per answer of a node searched.
fn refutations_first(pos: &mut Position, replies: &MoveList) -> Vec<usize> {
    let mut keyed: Vec<(usize, usize)> = Vec::with_capacity(replies.len());
    if replies.len() > 1 {
        for (i, &r) in replies.iter().enumerate() {
            let undo = pos.make_move(r);
            let checks = pos.legal_checks().len();
            pos.unmake_move(r, undo);
            if checks == 0 {
                let mut order = vec![i];
                order.extend((0..replies.len()).filter(|&j| j != i));
                return order;
            }
            keyed.push((checks, i));
        }
        keyed.sort_unstable();
    } else {
        keyed.extend((0..replies.len()).map(|i| (0, i)));
    }
    keyed.into_iter().map(|(_, i)| i).collect()
}

/// The legal moves of the side to move that give check.
pub fn checking_moves(pos: &mut Position) -> Vec<Move> {
    pos.legal_checks().to_vec()
}

/// The result of a material search: the balance for the side that started, and the line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// Net material for the starting side on the rulebook scale ([`MATE`] or `-MATE` if a side is
    /// mated at once).
    pub value: i32,
    /// The moves, the starting side's first.
    pub moves: Vec<Move>,
}

/// How the defending side may answer in a material search.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Defence {
    /// Any capture anywhere, checks, or nothing: the complete exchange, including taking
    /// something else in return (各吃各子).
    Anything,
    /// Only taking back what captured (on the points where the other side captured), checks, and
    /// answers to check: what protecting a piece (有根, 暗根) means.
    Recaptures,
}

/// Limits and conventions of the material search.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Longest line, in plies.
    pub max_plies: u32,
    /// How many non-capturing checks the starting side may play.
    pub checks: u32,
    /// How many non-capturing checks the other side may play (its counter-attack, which can
    /// protect a piece as surely as a recapture: 暗根).
    pub counter_checks: u32,
    /// How the defender may answer.
    pub defence: Defence,
    /// Pairs of points holding same-kind pieces that attack each other (a standing offer to
    /// exchange, 邀兑): the starting side does not take its partner in the search (it cannot
    /// count on winning it: the opponent may accept the exchange instead).
    pub face_offs: Vec<(xq_core::Square, xq_core::Square)>,
    /// Whether the starting side is a chaser whose king's and pawns' captures on their own win
    /// nothing (26.8: no check, no other piece on the point, not taking back a capturer); off
    /// for offers, traps and protection.
    pub chaser: bool,
}

impl Default for Limits {
    /// Ten plies, two checks for the attacker and three for the defender: enough for every
    /// combination the rulebook's figures use, measured over the dev cases (the result is flat
    /// from 8 to 12 plies and 1 to 4 checks).
    fn default() -> Limits {
        Limits {
            max_plies: 10,
            checks: 2,
            counter_checks: 3,
            defence: Defence::Anything,
            face_offs: Vec::new(),
            chaser: false,
        }
    }
}

impl Limits {
    fn forbidden(&self, m: Move) -> bool {
        is_face_off(&self.face_offs, m)
    }
}

fn is_face_off(face_offs: &[(xq_core::Square, xq_core::Square)], m: Move) -> bool {
    face_offs
        .iter()
        .any(|&(a, b)| (m.from == a && m.to == b) || (m.from == b && m.to == a))
}

/// What the side to move `s` can win starting with `first` in `pos`: captures and recaptures
/// (either side may stop when it likes), checks within the limits, every answer to a check. A
/// side that can mate at once does so; so no one takes material if that lets the other mate, and
/// a protector that would allow mate by recapturing does not count (不能离线).
pub fn line_after(pos: &mut Position, first: Move, limits: &Limits, budget: &mut Budget) -> Line {
    let s = pos.turn();
    let mut gained = Ledger::default();
    let capture = pos.piece_at(first.to);
    if let Some(piece) = capture {
        gained.take(piece, first.to);
    }
    let check_cost = u32::from(capture.is_none() && gives_check(pos, first));
    let mut taken_on = xq_core::Bitboard::EMPTY;
    if capture.is_some() {
        taken_on.add(first.to);
    }
    let undo = pos.make_move(first);
    let mut line = quiesce(
        pos,
        s,
        State {
            gained,
            lost: Ledger::default(),
            ply: 1,
            checks: limits.checks.saturating_sub(check_cost),
            counter_checks: limits.counter_checks,
            taken_on,
            fought_on: taken_on,
        },
        limits,
        // The full window: the value and line found are exact (the stand-pat cut-off in
        // `quiesce` relies on it).
        (-MATE - 1, MATE + 1),
        budget,
    );
    pos.unmake_move(first, undo);
    line.moves.insert(0, first);
    line
}

#[derive(Copy, Clone)]
struct State {
    gained: Ledger,
    lost: Ledger,
    ply: u32,
    checks: u32,
    counter_checks: u32,
    /// Where the starting side's capturing pieces stand.
    taken_on: xq_core::Bitboard,
    /// Every point where a capture has been made in the line (by either side): taking there
    /// takes back a piece that captured.
    fought_on: xq_core::Bitboard,
}

fn quiesce(
    pos: &mut Position,
    s: Color,
    st: State,
    limits: &Limits,
    window: (i32, i32),
    budget: &mut Budget,
) -> Line {
    let (mut alpha, mut beta) = window;
    let side = pos.turn();
    let maximizing = side == s;
    let stand = net(&st.gained, &st.lost);
    let stop = |value| Line {
        value,
        moves: Vec::new(),
    };
    if !budget.spend() {
        return stop(stand);
    }
    let in_check = pos.is_check();
    let budget_left = if maximizing {
        st.checks
    } else {
        st.counter_checks
    };
    // In check, every answer is a candidate. Otherwise the captures are, and then, while checks
    // are left and the captures cut nothing off, the checks that take nothing: the captures by
    // the most valuable victim first, the checks last, each in the order of all moves.
    let moves = if in_check {
        pos.legal_moves()
    } else {
        pos.legal_captures()
    };
    if moves.is_empty() && (in_check || !pos.has_legal_move()) {
        return stop(if maximizing { -MATE } else { MATE });
    }
    if !in_check {
        // Standing pat: the side to move may keep the material as it stands. If that is already
        // outside the window the node is cut off now, before asking whether the side mates at
        // once. A mate would only take the value further out: old and new value stand on the
        // same side of the window, so no alpha or beta above moves differently, every node is
        // searched with the same window in the same order (the same node count), and the values
        // inside the window are the same. A parent may keep the smaller bound where it kept the
        // mate before, so values and lines that end outside a window can differ; at the root,
        // searched with the full window by `line_after` (the only caller), nothing does.
        if maximizing {
            alpha = alpha.max(stand);
        } else {
            beta = beta.min(stand);
        }
        if alpha >= beta {
            return stop(stand);
        }
    }
    let face_offs: &[(xq_core::Square, xq_core::Square)] =
        if maximizing { &limits.face_offs } else { &[] };
    if !in_check && budget.mates_at_once(pos, face_offs) {
        return stop(if maximizing { MATE } else { -MATE });
    }
    if st.ply >= limits.max_plies {
        return stop(stand);
    }
    let mut candidates: MoveList = MoveList::new();
    let recapture_only = !maximizing && limits.defence == Defence::Recaptures;
    for &m in moves.iter() {
        if in_check {
            // Every answer to a check, taking a face-off partner included; but protecting a
            // piece never means taking something else.
            if !(recapture_only && pos.piece_at(m.to).is_some() && !st.taken_on.contains(m.to)) {
                candidates.push(m);
            }
            continue;
        }
        // The side that threatens may not count a standing face-off partner as won (26.10); the
        // defender may always accept the exchange.
        if maximizing && limits.forbidden(m) {
            continue;
        }
        if !recapture_only || st.taken_on.contains(m.to) {
            candidates.push(m);
        }
    }
    // Most valuable victim first, for the cut-offs.
    candidates
        .sort_by_key(|m| std::cmp::Reverse(pos.piece_at(m.to).map_or(0, |p| victim_order(p.role))));

    if in_check && candidates.is_empty() {
        // Only answers that take something else: no protection; the capturer keeps its gain.
        return stop(stand);
    }
    let best = if in_check {
        stop(if maximizing { -MATE - 1 } else { MATE + 1 })
    } else {
        stop(stand)
    };
    let mut node = Frame {
        s,
        st,
        limits,
        maximizing,
        in_check,
        best,
        alpha,
        beta,
    };
    if node.search(pos, &candidates, budget) || in_check || budget_left == 0 {
        return node.best;
    }
    let mut checks = MoveList::new();
    for &m in pos.legal_checks().iter() {
        if pos.piece_at(m.to).is_none() && !(maximizing && limits.forbidden(m)) {
            checks.push(m);
        }
    }
    node.search(pos, &checks, budget);
    node.best
}

/// A node of the material search being searched: the best line so far and the window.
struct Frame<'a> {
    s: Color,
    st: State,
    limits: &'a Limits,
    maximizing: bool,
    in_check: bool,
    best: Line,
    alpha: i32,
    beta: i32,
}

impl Frame<'_> {
    /// Searches the `candidates` in turn; whether one cut the rest off.
    fn search(&mut self, pos: &mut Position, candidates: &MoveList, budget: &mut Budget) -> bool {
        let (s, st, limits, maximizing) = (self.s, self.st, self.limits, self.maximizing);
        for m in candidates.iter().copied() {
            let captured = pos.piece_at(m.to);
            let quiet_check = captured.is_none() && !self.in_check;
            let mut next = st;
            next.ply += 1;
            if let Some(piece) = captured {
                if maximizing {
                    if limits.chaser && own_doing_excluded(pos, m, s, st.fought_on) {
                        // 26.8: a king's or a pawn's capture on its own, after the first move,
                        // is the small piece's own doing and wins nothing for the chase.
                    } else {
                        next.gained.take(piece, m.to);
                    }
                    next.taken_on.add(m.to);
                    next.fought_on.add(m.to);
                } else {
                    next.lost.take(piece, m.to);
                    next.taken_on.discard(m.to);
                    next.fought_on.add(m.to);
                }
            }
            if maximizing && st.taken_on.contains(m.from) {
                next.taken_on.discard(m.from);
                next.taken_on.add(m.to);
            }
            if quiet_check {
                if maximizing {
                    next.checks -= 1;
                } else {
                    next.counter_checks -= 1;
                }
            }
            let undo = pos.make_move(m);
            let child = quiesce(pos, s, next, limits, (self.alpha, self.beta), budget);
            pos.unmake_move(m, undo);
            let better = if maximizing {
                child.value > self.best.value
            } else {
                child.value < self.best.value
            };
            if better {
                let mut moves = child.moves;
                moves.insert(0, m);
                self.best = Line {
                    value: child.value,
                    moves,
                };
            }
            if maximizing {
                self.alpha = self.alpha.max(self.best.value);
            } else {
                self.beta = self.beta.min(self.best.value);
            }
            if self.alpha >= self.beta {
                return true;
            }
        }
        false
    }
}

/// 26.8 on the complete exchange: whether the capture `m` by `s` in a line is a king's or a
/// pawn's own doing, which wins nothing for a chase — it gives no check, no other piece of `s`
/// (but a king or pawn) attacks the point with it, and it does not take back a piece that
/// captured in the line (continuing the exchange on a point where a capture was made).
fn own_doing_excluded(pos: &mut Position, m: Move, s: Color, fought_on: xq_core::Bitboard) -> bool {
    let board = pos.board();
    let small = |sq| {
        board
            .piece_at(sq)
            .is_some_and(|p| matches!(p.role, Role::King | Role::Pawn))
    };
    small(m.from)
        && !fought_on.contains(m.to)
        && supporters(board, m, s).all(small)
        && !gives_check(pos, m)
}

/// The pieces of `color` besides the mover of `m` that attack its point once it stands there,
/// seen through the point it leaves (a rook behind a pawn supports the pawn's capture).
pub(crate) fn supporters(board: &xq_core::Board, m: Move, color: Color) -> xq_core::Bitboard {
    board
        .attackers_with(m.to, color, board.occupied().without(m.from))
        .without(m.from)
}

fn victim_order(role: Role) -> i32 {
    match role {
        Role::King => 6,
        Role::Rook => 5,
        Role::Horse | Role::Cannon => 4,
        Role::Advisor | Role::Elephant => 2,
        Role::Pawn => 1,
    }
}
