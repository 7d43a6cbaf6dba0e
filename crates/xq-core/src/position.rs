//! Legal positions: move generation, playing moves, check, mate and stalemate.
//!
//! # Legality
//! A move is legal when the piece may go there by its own rule and afterwards its side's king is
//! not attacked, counting the two kings on an open file as an attack (将帅对面).
//!
//! Move generation first works out, once per position, which of the mover's pieces stand in a
//! line or on a horse's leg that shields the king (`blockers`: a piece pinned by a rook or the
//! enemy king, either of the two screens between an enemy cannon and the king, a piece on the leg
//! of a horse aimed at the king) and which empty points lie between an enemy cannon and the king
//! with nothing else between (`forbidden`: stepping there would give the cannon its screen). A
//! move of any other piece, not to a forbidden point and not out of check, is legal as generated;
//! the others are checked one by one against the position after the move.
//!
//! # Make/unmake or copy
//! [`Position`] is cheap to clone (about 500 bytes, no heap), which is convenient for code that
//! explores a line and keeps each position. The hot paths (perft, the arbiter's searches) use
//! [`Position::make_move`] / [`Position::unmake_move`] instead, which touch a few words per move
//! rather than copying the whole position at every node.

use std::fmt;

use crate::{
    Bitboard, Board, ByColor, Color, Move, MoveList, Piece, PositionError, Rank, Role, Setup,
    Square,
    attacks::{
        ADVISOR_STEPS, ELEPHANT_STEPS, FILE_MASK, HORSE_ATTACKERS, HORSE_STEPS, KING_STEPS,
        PAWN_ATTACKERS, PAWN_STEPS, RANK_MASK, Steps, above, below, between, line_nearest,
        line_view, ray_through,
    },
    board::BitIter,
    zobrist,
};

/// A legal position: exactly one king per side, each in its palace, kings not facing, the side
/// not to move not in check.
#[derive(Clone)]
pub struct Position {
    board: Board,
    turn: Color,
    kings: ByColor<Square>,
    hash: u64,
    halfmoves: u32,
    fullmoves: u32,
    // What the position knows of how it was reached, for the quick legality test of
    // `check_move` (not part of the position: equal positions may know different things):
    /// Whether the position was tested, when set up, to keep this type's promise that the side
    /// not to move is not in check (not a passed position, nor one set up without the test), and
    /// so keeps it after the (legal) moves played since.
    sound: bool,
    /// The move that made this position, if it was made by [`Position::make_move`] (`None` when
    /// set up or taken back to).
    last: Option<Move>,
}

/// What [`Position::make_move`] needs to take a move back.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Undo {
    captured: Option<Piece>,
    halfmoves: u32,
}

impl Undo {
    /// The piece the move captured, if any.
    pub fn captured(&self) -> Option<Piece> {
        self.captured
    }
}

/// How a finished game ended on the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The side to move is in check and has no legal move (将死).
    Checkmate,
    /// The side to move is not in check and has no legal move (困毙): a loss in Xiangqi.
    Stalemate,
}

/// The result of a position where the side to move has no legal move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// Who won.
    pub winner: Color,
    /// How.
    pub reason: EndReason,
}

/// Why a move cannot be played.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum IllegalMove {
    /// No piece stands on the starting point.
    NoPiece,
    /// The piece on the starting point belongs to the side not to move.
    NotYourPiece,
    /// The piece cannot go there by its own rule (blocked, out of range, own piece on the point…).
    CannotReach,
    /// Afterwards the mover's own king would be attacked.
    KingInCheck,
    /// Afterwards the two kings would face each other on an open file (将帅对面).
    KingsFacing,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            IllegalMove::NoPiece => "there is no piece on the starting point",
            IllegalMove::NotYourPiece => {
                "the piece on the starting point belongs to the side not to move"
            }
            IllegalMove::CannotReach => "the piece cannot move there",
            IllegalMove::KingInCheck => "it would leave the mover's own king in check",
            IllegalMove::KingsFacing => "it would leave the two kings facing each other (将帅对面)",
        })
    }
}

/// A move that could not be played, with the unchanged position.
#[derive(Clone, Debug)]
pub struct PlayError {
    /// The move.
    pub m: Move,
    /// Why.
    pub reason: IllegalMove,
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal move {}: {}", self.m, self.reason)
    }
}

impl std::error::Error for PlayError {}

/// King-safety facts of one side, computed once per position.
#[derive(Copy, Clone, Debug, Default)]
struct Safety {
    checkers: Bitboard,
    blockers: Bitboard,
    forbidden: Bitboard,
}

impl Position {
    /// The standard starting position, Red to move.
    pub fn new() -> Position {
        // Worked out once (placing the pieces and hashing them took two thousand instructions,
        // for every game replayed), then copied.
        static START: std::sync::OnceLock<Position> = std::sync::OnceLock::new();
        START
            .get_or_init(|| Position::from_setup_unchecked(Setup::start()))
            .clone()
    }

    /// Validates a setup into a position.
    ///
    /// # Errors
    /// Returns every problem found (see [`Setup::problems`]). Use
    /// [`PositionError::ignore_implausible`] to accept positions that are merely unreachable from
    /// the start (too many pieces, a pawn behind its starting rank, …).
    pub fn from_setup(setup: Setup) -> Result<Position, PositionError> {
        let problems = setup.problems();
        if problems.is_empty() {
            Ok(Position::from_setup_unchecked(setup))
        } else {
            Err(PositionError::new(setup, problems))
        }
    }

    /// Builds a position without checks, for setups already known to be fine except for
    /// implausible problems; each side must have a king.
    pub(crate) fn from_setup_unchecked(setup: Setup) -> Position {
        let Setup {
            board,
            turn,
            halfmoves,
            fullmoves,
        } = setup;
        let kings = ByColor::new_with(|c| board.king_of(c).unwrap_or(Square::E0));
        let mut hash = if turn == Color::Black {
            zobrist::BLACK_TO_MOVE
        } else {
            0
        };
        for (sq, piece) in board.pieces() {
            hash ^= zobrist::piece_key(piece, sq);
        }
        let mut pos = Position {
            board,
            turn,
            kings,
            hash,
            halfmoves,
            fullmoves,
            sound: false,
            last: None,
        };
        // (Once per position set up: what lets most moves of a game be tested quickly.)
        let them = turn.other();
        if pos.board.king_of(Color::Red).is_some()
            && pos.board.king_of(Color::Black).is_some()
            && pos.safety(them).checkers.is_empty()
        {
            pos.sound = true;
        }
        pos
    }

    /// The setup of this position.
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board.clone(),
            turn: self.turn,
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
        }
    }

    /// The placement.
    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Whose turn it is.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// Plies since the last capture.
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// The move number (1 in the starting position, incremented after Black's move).
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// The piece on `sq`.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board.piece_at(sq)
    }

    /// Where `color`'s king stands.
    #[inline]
    pub fn king(&self, color: Color) -> Square {
        self.kings[color]
    }

    /// The position key: equal for equal placement and side to move (see the `zobrist` module
    /// for how to use it safely).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Whether the placement and the side to move are the same (the counters are ignored): the
    /// equality that repetition rules use.
    pub fn same_position(&self, other: &Position) -> bool {
        self.hash == other.hash && self.turn == other.turn && self.board == other.board
    }

    /// Whether the side to move is in check.
    pub fn is_check(&self) -> bool {
        self.safety(self.turn).checkers.any()
    }

    /// The enemy pieces giving check to the side to move (the enemy king when the kings face).
    pub fn checkers(&self) -> Bitboard {
        self.safety(self.turn).checkers
    }

    /// Whether `color`'s king is attacked (whoever is to move).
    pub fn is_king_attacked(&self, color: Color) -> bool {
        self.safety(color).checkers.any()
    }

    /// `color`'s pieces that shield their king: moving one of them off its point may expose the
    /// king (pinned by a rook or the enemy king, one of two screens between an enemy cannon and the
    /// king, or standing on the leg of a horse aimed at the king). Such a piece may still move
    /// where it keeps shielding; use [`Position::is_legal`] for a given move.
    pub fn pinned(&self, color: Color) -> Bitboard {
        self.safety(color).blockers
    }

    /// The pieces of `color` that attack `sq`, by the pieces' own movement only (see
    /// [`Board::attackers_of`]; whether capturing would be legal is not considered).
    pub fn attackers_of(&self, sq: Square, color: Color) -> Bitboard {
        self.board.attackers_of(sq, color)
    }

    /// All legal moves of the side to move.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.gen_legal(Bitboard::FULL, |m| list.push(m));
        list
    }

    /// The legal moves of the piece on `from` (none if it is not the mover's).
    pub fn legal_moves_from(&self, from: Square) -> MoveList {
        let mut list = MoveList::new();
        self.gen_legal(Bitboard::from_square(from), |m| list.push(m));
        list
    }

    /// The legal moves of the mover's pieces on the points of `from`.
    pub fn legal_moves_from_set(&self, from: Bitboard) -> MoveList {
        let mut list = MoveList::new();
        self.gen_legal(from, |m| list.push(m));
        list
    }

    /// The legal captures of the side to move.
    pub fn legal_captures(&self) -> MoveList {
        let mut list = MoveList::new();
        self.gen_legal_where_of::<true>(Bitboard::FULL, |_, _| true, |m| list.push(m));
        list
    }

    /// How many legal moves the side to move has.
    pub fn count_legal_moves(&self) -> usize {
        let mut n = 0;
        self.gen_legal(Bitboard::FULL, |_| n += 1);
        n
    }

    /// Whether the move `m` of the side to move gives check: afterwards the opponent's king is
    /// attacked (the kings facing included). The same answer as playing `m` and asking
    /// [`Position::is_check`], worked out from the lines, legs and steps around the opponent's
    /// king without playing the move.
    pub fn gives_check(&self, m: Move) -> bool {
        let board = &self.board;
        let us = self.turn;
        let king = self.kings[us.other()];
        let (from, to) = (m.from, m.to);
        let mover = board.piece_at(from);
        let Some(piece) = mover.filter(|p| {
            p.color == us && from != to && to != king && !board.by_color(us).contains(to)
        }) else {
            // Not a move of the mover's own piece to a point it may take: play it.
            let mut after = self.clone();
            after.make_move(m);
            return after.is_check();
        };
        let moved = Bitboard::from_square(from) | Bitboard::from_square(to);
        let ours = board.by_color(us);
        let role_after = |role: Role| {
            let bb = board.by_role(role) & ours;
            if role == piece.role { bb ^ moved } else { bb }
        };
        let straight = role_after(Role::Rook) | role_after(Role::King);
        let cannons = role_after(Role::Cannon);
        if self.line_attacked_after(m, king, straight, cannons) {
            return true;
        }
        let occ = board.occupied().without(from).with(to);
        let horses = role_after(Role::Horse);
        if (horses & HORSE_POINTS[king.index()]).any()
            && HORSE_ATTACKERS[king.index()]
                .iter()
                .any(|(h, leg)| horses.contains(h) && !occ.contains(leg))
        {
            return true;
        }
        (PAWN_ATTACKERS[us.index()][king.index()] & role_after(Role::Pawn)).any()
    }

    /// A test of many moves of this position for check (see [`CheckTest`]).
    pub fn check_test(&self) -> CheckTest<'_> {
        CheckTest {
            pos: self,
            map: CheckMap::new(self),
        }
    }

    /// The legal moves of the side to move that give check, in the order of
    /// [`Position::legal_moves`].
    pub fn legal_checks(&self) -> MoveList {
        let map = CheckMap::new(self);
        let legality = self.legality();
        let us = self.turn;
        let board = &self.board;
        let movers = map.pieces(self) & legality.movers & board.by_color(us);
        let mut list = MoveList::new();
        let mut emit = |from: Square, to: Square| {
            if map.gives_check(self, from, to) && legality.allows(self, from, to) {
                list.push(Move::new(from, to));
            }
        };
        for role in GENERATION_ORDER {
            for from in movers & board.by_role(role) {
                match map.crossings(role, from) {
                    // A rook or cannon off the king's lines checks only where its own lines
                    // cross them: its rank's point first, as generated.
                    Some(crossings) => {
                        for to in crossings {
                            if self.line_reaches(Move::new(from, to), role == Role::Cannon, us) {
                                emit(from, to);
                            }
                        }
                    }
                    None => self.gen_piece(us, from, role, &mut emit),
                }
            }
        }
        list
    }

    /// Whether the side to move has a legal move, other than those `skip` names, after which the
    /// opponent has no legal move (将死 or 困毙: it wins at once).
    ///
    /// The same answer as playing every legal move and asking [`Position::has_legal_move`], but
    /// most moves are settled without being played, by an opponent's move that stays legal after
    /// them (a witness). The opponent's king safety (its checkers, shielding pieces and the points
    /// a cannon forbids) depends only on the points of the king's rank and file, the horse points
    /// and legs around it, and where a pawn attacks it (`near`). So:
    /// - a move that touches none of those points gives no check and changes nothing there: an
    ///   opponent's move that was legal without a test (not of the king or a shielding piece, not
    ///   onto a forbidden point) stays legal if the move touches none of its points (start, end,
    ///   the points passed over, the leg or eye);
    /// - a move that gives no check can only add shielding pieces and forbidden points on the
    ///   king's lines and legs: an opponent's move from off those points to off the lines, whose
    ///   points the move does not touch, stays legal.
    ///
    /// With three witnesses of the second kind that share no point, every move that gives no
    /// check leaves one of them legal (a move touches two points of its own: where it starts and
    /// where it ends), and only the checks are played.
    pub fn mates_at_once(&self, skip: impl Fn(Move) -> bool) -> bool {
        const WITNESSES: usize = 8;
        let us = self.turn;
        let them = us.other();
        let board = &self.board;
        let theirs = self.safety(them);
        let king = self.kings[them];
        let mut lines = Bitboard::from_rank(king.rank()) | FILES[king.file().index()];
        let mut near = lines | PAWN_ATTACKERS[us.index()][king.index()];
        let mut legs = Bitboard::EMPTY;
        for (h, leg) in HORSE_ATTACKERS[king.index()].iter() {
            near = near.with(h).with(leg);
            legs.add(leg);
        }
        if theirs.checkers.any() {
            // The king is attacked already (the opponent passed): play every move.
            near = Bitboard::FULL;
            lines = Bitboard::FULL;
        }
        let (slow_from, slow_to) = (theirs.blockers.with(king), theirs.forbidden);
        if theirs.checkers.is_empty()
            && self.three_robust_witnesses(them, slow_from, slow_to, lines, legs)
        {
            // Three witnesses with no point in common: a move touches at most two of them (its
            // start and its end), so every move that gives no check leaves one standing. Only
            // the checks can mate.
            let mut scratch = self.clone();
            return self.legal_checks().iter().any(|&m| {
                if skip(m) {
                    return false;
                }
                let undo = scratch.make_move(m);
                let mates = !scratch.has_legal_move();
                scratch.unmake_move(m, undo);
                mates
            });
        }
        let mut free = [Bitboard::EMPTY; WITNESSES];
        let mut robust = [Bitboard::EMPTY; WITNESSES];
        let (mut n_free, mut n_robust) = (0, 0);
        // The opponent's moves legal without a test, at most two a piece, short ones first.
        for role in WITNESS_ORDER {
            for from in board.by_color(them) & board.by_role(role) & !slow_from {
                if n_free == WITNESSES && n_robust == WITNESSES {
                    break;
                }
                let (mut per_piece, mut per_piece_robust) = (0, 0);
                let far = !lines.contains(from) && !legs.contains(from);
                self.gen_piece(them, from, role, &mut |from, to| {
                    if slow_to.contains(to) {
                        return;
                    }
                    if n_free < WITNESSES && per_piece < 2 {
                        free[n_free] = move_points(role, them, from, to);
                        n_free += 1;
                        per_piece += 1;
                    }
                    if far && !lines.contains(to) && n_robust < WITNESSES && per_piece_robust < 2 {
                        robust[n_robust] = move_points(role, them, from, to);
                        n_robust += 1;
                        per_piece_robust += 1;
                    }
                });
            }
        }
        let checks = self.check_test();
        // Settled moves need no legality test either: only the others are generated as legal
        // moves and played.
        let open = |from: Square, to: Square| {
            let m = Move::new(from, to);
            if skip(m) {
                return false;
            }
            let touched = Bitboard::from_square(from).with(to);
            let untouched = |w: &Bitboard| (*w & touched).is_empty();
            let settled = if (touched & near).is_empty() {
                free[..n_free].iter().any(untouched)
            } else {
                robust[..n_robust].iter().any(untouched) && !checks.gives_check(m)
            };
            !settled
        };
        let mut scratch = self.clone();
        let mut mates = false;
        self.gen_legal_where(Bitboard::FULL, open, |m| {
            if !mates {
                let undo = scratch.make_move(m);
                mates = !scratch.has_legal_move();
                scratch.unmake_move(m, undo);
            }
        });
        mates
    }

    /// Whether `them` (not in check) has three moves legal without a test that share no point
    /// and stay legal after any move of the other side that gives no check (see
    /// [`Position::mates_at_once`]): moves of pieces off the king's lines and horse legs, not
    /// shielding the king (`slow_from`), to points off the lines that are not forbidden
    /// (`slow_to`). Stops as soon as three are found.
    fn three_robust_witnesses(
        &self,
        them: Color,
        slow_from: Bitboard,
        slow_to: Bitboard,
        lines: Bitboard,
        legs: Bitboard,
    ) -> bool {
        const MOST: usize = 8;
        let board = &self.board;
        let mut robust = [Bitboard::EMPTY; MOST];
        let mut n = 0;
        let far = board.by_color(them) & !slow_from & !lines & !legs;
        for role in WITNESS_ORDER {
            for from in far & board.by_role(role) {
                let mut per_piece = 0;
                self.gen_piece(them, from, role, &mut |from, to| {
                    if per_piece < 2 && n < MOST && !slow_to.contains(to) && !lines.contains(to) {
                        robust[n] = move_points(role, them, from, to);
                        n += 1;
                        per_piece += 1;
                    }
                });
                if n >= 3 && three_apart(&robust[..n]) {
                    return true;
                }
                if n == MOST {
                    return false;
                }
            }
        }
        false
    }

    /// Whether after `m` a rook or king of `straight` sees `king` along its rank or file, or a
    /// cannon of `cannons` over one screen.
    #[inline(always)]
    fn line_attacked_after(
        &self,
        m: Move,
        king: Square,
        straight: Bitboard,
        cannons: Bitboard,
    ) -> bool {
        let (kf, kr) = (king.file().index(), king.rank().index());
        // A line with no rook, king or cannon of the attacker on it is passed over at once.
        let attackers = straight | cannons;
        let on_rank = (attackers & Bitboard::from_rank(king.rank())).any();
        let on_file = (attackers & FILES[kf]).any();
        if !on_rank && !on_file {
            return false;
        }
        let (rank_occ, file_occ) = self.lines_after(m, kf, kr);
        (on_rank
            && line_attacked(
                rank_occ,
                kf,
                |b| Square::from_index(kr * 9 + b as usize),
                straight,
                cannons,
            ))
            || (on_file
                && line_attacked(
                    file_occ,
                    kr,
                    |b| Square::from_index(b as usize * 9 + kf),
                    straight,
                    cannons,
                ))
    }

    /// The occupancy of rank `kr` and file `kf` after `m` (a piece leaves `m.from`, one stands
    /// on `m.to`).
    #[inline(always)]
    fn lines_after(&self, m: Move, kf: usize, kr: usize) -> (u16, u16) {
        let (from, to) = (m.from, m.to);
        let mut rank_occ = self.board.rank_bits(kr);
        let mut file_occ = self.board.file_bits(kf);
        if from.rank().index() == kr {
            rank_occ &= !(1 << from.file().index());
        }
        if to.rank().index() == kr {
            rank_occ |= 1 << to.file().index();
        }
        if from.file().index() == kf {
            file_occ &= !(1 << from.rank().index());
        }
        if to.file().index() == kf {
            file_occ |= 1 << to.rank().index();
        }
        (rank_occ, file_occ)
    }

    /// Whether the side to move has any legal move (the king safety is worked out once, and
    /// generation stops after the first piece that has one, the king first).
    pub fn has_legal_move(&self) -> bool {
        let us = self.turn;
        let safety = self.safety(us);
        let king = self.kings[us];
        // The king first (its moves are always tested), then the others (with the answers to
        // check worked out, if in check).
        let mut found = false;
        self.gen_piece(us, king, Role::King, &mut |from, to| {
            found = found || self.king_safe_after(Move::new(from, to), us);
        });
        if found {
            return true;
        }
        let legality = self.legality_with(safety);
        for from in (self.board.by_color(us) & legality.movers).without(king) {
            if let Some(piece) = self.board.piece_at(from) {
                self.gen_piece(us, from, piece.role, &mut |from, to| {
                    found = found || legality.allows(self, from, to);
                });
            }
            if found {
                return true;
            }
        }
        false
    }

    /// The result if the side to move has no legal move (checkmate or stalemate, both losses).
    pub fn outcome(&self) -> Option<Outcome> {
        if self.has_legal_move() {
            return None;
        }
        let reason = if self.is_check() {
            EndReason::Checkmate
        } else {
            EndReason::Stalemate
        };
        Some(Outcome {
            winner: self.turn.other(),
            reason,
        })
    }

    /// Whether `m` is legal.
    pub fn is_legal(&self, m: Move) -> bool {
        self.check_move(m).is_ok()
    }

    /// Whether `m` is legal, and if not, why.
    ///
    /// # Errors
    /// The reason the move cannot be played.
    pub fn check_move(&self, m: Move) -> Result<(), IllegalMove> {
        let us = self.turn;
        let Some(piece) = self.board.piece_at(m.from) else {
            return Err(IllegalMove::NoPiece);
        };
        if piece.color != us {
            return Err(IllegalMove::NotYourPiece);
        }
        if !self.reaches(m, piece.role, us) {
            return Err(IllegalMove::CannotReach);
        }
        if self.quietly_safe(m) || self.king_safe_after(m, us) {
            Ok(())
        } else if self.kings_face_after(m, us) {
            Err(IllegalMove::KingsFacing)
        } else {
            Err(IllegalMove::KingInCheck)
        }
    }

    /// Whether `us`'s piece of `role` on `m.from` may go to `m.to` by its own rule: the one point
    /// tested, not every move of the piece generated ([`Position::gen_piece`] gives the same
    /// moves; a test compares the two).
    #[inline]
    fn reaches(&self, m: Move, role: Role, us: Color) -> bool {
        let (from, to) = (m.from.index(), m.to);
        let stepped = |steps: &Steps| {
            let occ = self.board.occupied();
            steps.iter().any(|(t, via)| t == to && !occ.contains(via))
        };
        let stepped_to = match role {
            Role::Rook | Role::Cannon => return self.line_reaches(m, role == Role::Cannon, us),
            Role::Horse => stepped(&HORSE_STEPS[from]),
            Role::Elephant => stepped(&ELEPHANT_STEPS[us.index()][from]),
            Role::Pawn => PAWN_STEPS[us.index()][from].contains(to),
            Role::Advisor => ADVISOR_STEPS[from].contains(to),
            Role::King => KING_STEPS[from].contains(to),
        };
        stepped_to && !self.board.by_color(us).contains(to)
    }

    /// Whether a rook (or a cannon) may go from `m.from` to `m.to` by its own rule: along a
    /// line, over nothing (a cannon capturing: over exactly one piece).
    fn line_reaches(&self, m: Move, cannon: bool, us: Color) -> bool {
        let (ff, fr) = (m.from.file().index(), m.from.rank().index());
        let (tf, tr) = (m.to.file().index(), m.to.rank().index());
        let (line, a, b) = if fr == tr && ff != tf {
            (self.board.rank_bits(fr), ff, tf)
        } else if ff == tf && fr != tr {
            (self.board.file_bits(ff), fr, tr)
        } else {
            return false;
        };
        let (lo, hi) = (a.min(b), a.max(b));
        let inner = (u32::from(line) >> (lo + 1)) & ((1u32 << (hi - lo - 1)) - 1);
        let screens = inner.count_ones();
        match self.board.piece_at(m.to) {
            None => screens == 0,
            Some(p) if p.color == us => false,
            Some(_) => screens == u32::from(cannon),
        }
    }

    /// Plays a legal move, returning the new position.
    ///
    /// # Errors
    /// If the move is illegal.
    pub fn play(&self, m: Move) -> Result<Position, PlayError> {
        self.check_move(m)
            .map_err(|reason| PlayError { m, reason })?;
        let mut next = self.clone();
        next.make_move(m);
        Ok(next)
    }

    /// Plays a move known to be legal, in place.
    pub fn play_unchecked(&mut self, m: Move) {
        self.make_move(m);
    }

    /// Plays a move known to be legal, in place, returning what [`Position::unmake_move`] needs.
    /// Playing an illegal move leaves a position that breaks the invariants of this type (no harm
    /// is done to memory; later answers are meaningless). A move from an empty point does nothing.
    #[inline]
    pub fn make_move(&mut self, m: Move) -> Undo {
        let undo = Undo {
            captured: self.board.piece_at(m.to),
            halfmoves: self.halfmoves,
        };
        let Some(piece) = self.board.piece_at(m.from) else {
            return undo;
        };
        if let Some(captured) = undo.captured {
            self.board.remove_unchecked(m.to, captured);
            self.hash ^= zobrist::piece_key(captured, m.to);
            self.halfmoves = 0;
        } else {
            // Saturating: a FEN may give any u32; a counter never wraps to 0.
            self.halfmoves = self.halfmoves.saturating_add(1);
        }
        self.board.relocate_unchecked(m.from, m.to, piece);
        self.hash ^= zobrist::piece_key(piece, m.from)
            ^ zobrist::piece_key(piece, m.to)
            ^ zobrist::BLACK_TO_MOVE;
        if piece.role == Role::King {
            self.kings[piece.color] = m.to;
        }
        if self.turn == Color::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.turn = self.turn.other();
        self.last = Some(m);
        undo
    }

    /// Takes back `m`, which must be the last move made with [`Position::make_move`].
    #[inline]
    pub fn unmake_move(&mut self, m: Move, undo: Undo) {
        let Some(piece) = self.board.piece_at(m.to) else {
            return;
        };
        self.turn = self.turn.other();
        if self.turn == Color::Black {
            self.fullmoves -= 1;
        }
        self.board.relocate_unchecked(m.to, m.from, piece);
        self.hash ^= zobrist::piece_key(piece, m.from)
            ^ zobrist::piece_key(piece, m.to)
            ^ zobrist::BLACK_TO_MOVE;
        if let Some(captured) = undo.captured {
            self.board.add_unchecked(m.to, captured);
            self.hash ^= zobrist::piece_key(captured, m.to);
        }
        if piece.role == Role::King {
            self.kings[piece.color] = m.from;
        }
        self.halfmoves = undo.halfmoves;
        // (The move before is not kept: moves in the position taken back to are tested in full.)
        self.last = None;
    }

    /// The same placement with the other side to move, as if the side to move passed. Used to ask
    /// "what would the mover threaten if the opponent did nothing" (杀, 捉). The result may have
    /// the side that is not to move in check, which a game never reaches.
    #[must_use]
    pub fn passed(&self) -> Position {
        let mut next = self.clone();
        next.turn = next.turn.other();
        next.hash ^= zobrist::BLACK_TO_MOVE;
        next.sound = false;
        next
    }

    /// The position in FEN (six fields).
    pub fn fen(&self) -> String {
        crate::fen::six_fields(&self.board, self.turn, self.halfmoves, self.fullmoves)
    }

    /// The placement and side to move in FEN (two fields).
    pub fn short_fen(&self) -> String {
        format!("{} {}", self.board.board_fen(), self.turn.fen_char())
    }

    // ---------------------------------------------------------------------------------------
    // Generation

    /// Calls `emit` for every legal move `from`–`to` for which `wanted(from, to)` holds, in the
    /// order of [`Position::legal_moves`] (the filter comes before the legality test).
    #[inline]
    fn gen_legal_where(
        &self,
        from_mask: Bitboard,
        wanted: impl Fn(Square, Square) -> bool,
        emit: impl FnMut(Move),
    ) {
        self.gen_legal_where_of::<false>(from_mask, wanted, emit);
    }

    /// [`Position::gen_legal_where`], of the captures only if `CAPTURES` (in the same order).
    #[inline]
    fn gen_legal_where_of<const CAPTURES: bool>(
        &self,
        from_mask: Bitboard,
        wanted: impl Fn(Square, Square) -> bool,
        mut emit: impl FnMut(Move),
    ) {
        let legality = self.legality();
        self.gen_pseudo_of::<CAPTURES>(self.turn, from_mask & legality.movers, &mut |from, to| {
            if wanted(from, to) && legality.allows(self, from, to) {
                emit(Move::new(from, to));
            }
        });
    }

    /// The legality test of the side to move's moves (see [`Legality`]).
    #[inline]
    fn legality(&self) -> Legality {
        self.legality_with(self.safety(self.turn))
    }

    /// [`Position::legality`] with the side to move's king safety worked out.
    #[inline]
    fn legality_with(&self, safety: Safety) -> Legality {
        let us = self.turn;
        let king = self.kings[us];
        let answers = Answers::new(self, us, safety.checkers);
        if safety.checkers.is_empty() {
            return Legality {
                movers: Bitboard::FULL,
                slow_from: safety.blockers.with(king),
                slow_to: safety.forbidden,
                clean: Bitboard::FULL,
                answers,
            };
        }
        let movers = answers.pieces(self, us);
        let board = &self.board;
        let occ = board.occupied();
        // One checker: a move of another piece that takes it, or blocks it on an empty point,
        // answers the check; it is legal unless it uncovers or makes another attack, which only
        // a shielding piece, a move onto a forbidden point, a piece on the checker's line beyond
        // the king (a cannon's screen, a piece behind the checker), or taking a checker on the
        // king's line (the taker may screen a cannon behind it) can do.
        // (Not after the king was taken, which a search may play in a passed position: there
        // every move is tested.)
        let king_home = board
            .piece_at(king)
            .is_some_and(|p| p.role == Role::King && p.color == us);
        let single = safety
            .checkers
            .single()
            .filter(|_| king_home)
            .and_then(|c| {
                let (ray, clean, tested) = match board.piece_at(c)?.role {
                    // Taking it is tested: the piece that takes may become the screen of a
                    // cannon behind it.
                    Role::Rook | Role::King | Role::Cannon => {
                        let ray = ray_through(king, c);
                        let between = ray & ray_through(c, king);
                        (ray, between & !occ, Bitboard::from_square(c))
                    }
                    Role::Horse => {
                        let leg = HORSE_ATTACKERS[king.index()]
                            .iter()
                            .find(|&(h, _)| h == c)
                            .map(|(_, leg)| leg)?;
                        let clean = Bitboard::from_square(c).with(leg);
                        (Bitboard::EMPTY, clean, Bitboard::EMPTY)
                    }
                    Role::Pawn => (Bitboard::EMPTY, Bitboard::from_square(c), Bitboard::EMPTY),
                    Role::Advisor | Role::Elephant => return None,
                };
                Some((ray, clean, tested))
            });
        match single {
            Some((ray, clean, tested)) => Legality {
                movers,
                slow_from: safety.blockers.with(king) | ray,
                slow_to: safety.forbidden | tested,
                clean,
                answers,
            },
            None => Legality {
                movers,
                slow_from: Bitboard::FULL,
                slow_to: Bitboard::FULL,
                clean: Bitboard::FULL,
                answers,
            },
        }
    }

    /// Calls `emit` for every legal move of the mover's pieces on `from_mask`.
    #[inline]
    fn gen_legal(&self, from_mask: Bitboard, mut emit: impl FnMut(Move)) {
        let us = self.turn;
        let safety = self.safety(us);
        if safety.checkers.any() {
            let legality = self.legality_with(safety);
            self.gen_pseudo(us, from_mask & legality.movers, &mut |from, to| {
                if legality.allows(self, from, to) {
                    emit(Move::new(from, to));
                }
            });
        } else {
            let slow_from = safety.blockers.with(self.kings[us]);
            let slow_to = safety.forbidden;
            self.gen_pseudo(us, from_mask, &mut |from, to| {
                let m = Move::new(from, to);
                if !(slow_from.contains(from) || slow_to.contains(to))
                    || self.king_safe_after(m, us)
                {
                    emit(m);
                }
            });
        }
    }

    /// Calls `emit(from, to)` for every move of `us`'s pieces on `from_mask` that their own rules
    /// allow, ignoring king safety.
    #[inline]
    fn gen_pseudo(&self, us: Color, from_mask: Bitboard, emit: &mut impl FnMut(Square, Square)) {
        self.gen_pseudo_of::<false>(us, from_mask, emit);
    }

    /// [`Position::gen_pseudo`], of the captures only if `CAPTURES` (in the same order).
    #[inline]
    fn gen_pseudo_of<const CAPTURES: bool>(
        &self,
        us: Color,
        from_mask: Bitboard,
        emit: &mut impl FnMut(Square, Square),
    ) {
        let board = &self.board;
        let ours = board.by_color(us) & from_mask;
        for role in GENERATION_ORDER {
            for from in ours & board.by_role(role) {
                self.gen_piece_of::<CAPTURES>(us, from, role, emit);
            }
        }
    }

    /// The moves of `us`'s `role` on `from` that its own rule allows.
    #[inline]
    fn gen_piece(
        &self,
        us: Color,
        from: Square,
        role: Role,
        emit: &mut impl FnMut(Square, Square),
    ) {
        self.gen_piece_of::<false>(us, from, role, emit);
    }

    /// [`Position::gen_piece`], of the captures only if `CAPTURES` (in the same order).
    #[inline]
    fn gen_piece_of<const CAPTURES: bool>(
        &self,
        us: Color,
        from: Square,
        role: Role,
        emit: &mut impl FnMut(Square, Square),
    ) {
        let board = &self.board;
        let theirs = board.by_color(us.other());
        // Where the piece may go: a point not its own side's, or one of the other side's.
        let not_ours = if CAPTURES {
            theirs
        } else {
            !board.by_color(us)
        };
        let occ = board.occupied();
        match role {
            Role::Rook => self.gen_line::<CAPTURES>(from, |v| v.first, theirs, emit),
            Role::Cannon => self.gen_line::<CAPTURES>(from, |v| v.second, theirs, emit),
            Role::Horse => {
                for (to, leg) in HORSE_STEPS[from.index()].iter() {
                    if not_ours.contains(to) && !occ.contains(leg) {
                        emit(from, to);
                    }
                }
            }
            Role::Pawn => {
                for to in PAWN_STEPS[us.index()][from.index()] & not_ours {
                    emit(from, to);
                }
            }
            Role::Elephant => {
                for (to, eye) in ELEPHANT_STEPS[us.index()][from.index()].iter() {
                    if not_ours.contains(to) && !occ.contains(eye) {
                        emit(from, to);
                    }
                }
            }
            Role::Advisor => {
                for to in ADVISOR_STEPS[from.index()] & not_ours {
                    emit(from, to);
                }
            }
            Role::King => {
                for to in KING_STEPS[from.index()] & not_ours {
                    emit(from, to);
                }
            }
        }
    }

    /// Moves of a rook or cannon on `from`: sliding to empty points, and captures on the points
    /// `capture` picks (kept only where an enemy piece stands).
    #[inline]
    fn gen_line<const CAPTURES: bool>(
        &self,
        from: Square,
        capture: impl Fn(crate::attacks::LineView) -> u16,
        theirs: Bitboard,
        emit: &mut impl FnMut(Square, Square),
    ) {
        let (f, r) = (from.file().index(), from.rank().index());
        let base = r * 9;
        let v = line_view(self.board.rank_bits(r), f as u32, RANK_MASK);
        for bit in BitIter(if CAPTURES { 0 } else { v.slide }) {
            emit(from, Square::from_index(base + bit as usize));
        }
        for bit in BitIter(capture(v)) {
            let to = Square::from_index(base + bit as usize);
            if theirs.contains(to) {
                emit(from, to);
            }
        }
        let v = line_view(self.board.file_bits(f), r as u32, FILE_MASK);
        for bit in BitIter(if CAPTURES { 0 } else { v.slide }) {
            emit(from, Square::from_index(bit as usize * 9 + f));
        }
        for bit in BitIter(capture(v)) {
            let to = Square::from_index(bit as usize * 9 + f);
            if theirs.contains(to) {
                emit(from, to);
            }
        }
    }

    // ---------------------------------------------------------------------------------------
    // King safety

    /// Checkers, shielding pieces and forbidden points for `us`'s king.
    fn safety(&self, us: Color) -> Safety {
        let board = &self.board;
        let them = us.other();
        let king = self.kings[us];
        let theirs = board.by_color(them);
        let ours = board.by_color(us);
        let straight = (board.by_role(Role::Rook) | board.by_role(Role::King)) & theirs;
        let cannons = board.by_role(Role::Cannon) & theirs;
        let (kf, kr) = (king.file().index(), king.rank().index());
        let mut safety = Safety::default();
        let lines = LineFacts {
            king,
            ours,
            straight,
            cannons,
        };
        // A line with no enemy rook, king or cannon on it has no checker, shield or forbidden
        // point.
        let attackers = straight | cannons;
        if (attackers & Bitboard::from_rank(king.rank())).any() {
            lines.scan(
                board.rank_bits(kr),
                kf,
                |b| Square::from_index(kr * 9 + b as usize),
                &mut safety,
            );
        }
        if (attackers & FILES[kf]).any() {
            lines.scan(
                board.file_bits(kf),
                kr,
                |b| Square::from_index(b as usize * 9 + kf),
                &mut safety,
            );
        }

        let horses = board.by_role(Role::Horse) & theirs;
        let occ = board.occupied();
        let near_horses = if (horses & HORSE_POINTS[king.index()]).any() {
            HORSE_ATTACKERS[king.index()]
        } else {
            Steps::EMPTY
        };
        for (h, leg) in near_horses.iter() {
            if horses.contains(h) {
                if !occ.contains(leg) {
                    safety.checkers.add(h);
                } else if ours.contains(leg) {
                    safety.blockers.add(leg);
                }
            }
        }
        safety.checkers |=
            PAWN_ATTACKERS[them.index()][king.index()] & theirs & board.by_role(Role::Pawn);
        safety
    }

    /// Whether `us`'s king is safe after the pseudo-legal move `m` (which need not be `us`'s turn
    /// to play; the board is not changed).
    #[inline]
    fn king_safe_after(&self, m: Move, us: Color) -> bool {
        let board = &self.board;
        let them = us.other();
        let (from, to) = (m.from, m.to);
        let king = if from == self.kings[us] {
            to
        } else {
            self.kings[us]
        };
        let theirs = board.by_color(them).without(to);
        let straight = (board.by_role(Role::Rook) | board.by_role(Role::King)) & theirs;
        let cannons = board.by_role(Role::Cannon) & theirs;
        let occ = board.occupied().without(from).with(to);
        if self.line_attacked_after(m, king, straight, cannons) {
            return false;
        }
        let horses = board.by_role(Role::Horse) & theirs;
        if (horses & HORSE_POINTS[king.index()]).any() {
            for (h, leg) in HORSE_ATTACKERS[king.index()].iter() {
                if horses.contains(h) && !occ.contains(leg) {
                    return false;
                }
            }
        }
        (PAWN_ATTACKERS[them.index()][king.index()] & theirs & board.by_role(Role::Pawn)).is_empty()
    }

    /// Whether the side to move's king is surely safe after its move `m`, told without looking
    /// at the attackers, when this position was made by the opponent's move from one in which
    /// that king was not attacked (the type's promise for the side not to move) and neither move
    /// came near the king (see [`KING_NEAR`]). The opponent's move then did not attack the king:
    /// it left no point on the king's lines nor a horse's leg beside it, and landed on no point
    /// of its lines nor where a horse attacks it from. `m` does not either: it leaves no such
    /// point (so the king stays), and lands on no point of the king's lines (where it could be a
    /// cannon's screen); a piece it takes only attacked the king less.
    /// `false` says nothing: the move is tested in full.
    #[inline]
    fn quietly_safe(&self, m: Move) -> bool {
        let (true, Some(last)) = (self.sound, self.last) else {
            return false;
        };
        let near = &KING_NEAR[self.kings[self.turn].index()];
        let quiet = !(near.lines_and_legs.contains(m.from)
            || near.lines.contains(m.to)
            || near.lines_and_legs.contains(last.from)
            || near.lines_and_horses.contains(last.to));
        // (Every test run in a debug build checks each quick answer against the full test: a
        // caller that plays an illegal move and asks about a later one would be caught.)
        debug_assert!(
            !quiet || self.king_safe_after(m, self.turn),
            "{m} after {last} in {self:?}"
        );
        quiet
    }

    /// Whether after `m` the two kings would face each other on an open file.
    fn kings_face_after(&self, m: Move, us: Color) -> bool {
        let ours = if m.from == self.kings[us] {
            m.to
        } else {
            self.kings[us]
        };
        let theirs = self.kings[us.other()];
        if theirs == m.to || ours.file() != theirs.file() {
            return false;
        }
        let occ = self.board.occupied().without(m.from).with(m.to);
        (between(ours, theirs) & occ).is_empty()
    }
}

/// Answers "does this move give check" for many moves of one position: most moves are answered
/// by a look-up, the others are worked out as [`Position::gives_check`] does. Made by
/// [`Position::check_test`].
#[derive(Debug)]
pub struct CheckTest<'a> {
    pos: &'a Position,
    map: CheckMap,
}

impl CheckTest<'_> {
    /// Whether the move `m` of the side to move, which its piece's own rule allows (any
    /// generated move, legal or not), gives check: the same answer as
    /// [`Position::gives_check`].
    #[inline]
    pub fn gives_check(&self, m: Move) -> bool {
        self.map.gives_check(self.pos, m.from, m.to)
    }
}

/// The legality test of the side to move's moves, worked out once per position. A move of a
/// piece that shields the king, of the king, or onto a point a cannon forbids is tested by
/// playing it on the lines; so is every move when the king is in check more than once (then
/// only a move that answers every check may be legal, and only `movers` have one). Any other
/// move is legal if it lands on `clean`: everywhere when the king is not in check; where it takes
/// the one checker or blocks it on an empty point when it is.
struct Legality {
    movers: Bitboard,
    slow_from: Bitboard,
    slow_to: Bitboard,
    clean: Bitboard,
    answers: Answers,
}

impl Legality {
    /// Whether the move `from`–`to`, which its piece's own rule allows, is legal in `pos`.
    #[inline(always)]
    fn allows(&self, pos: &Position, from: Square, to: Square) -> bool {
        if self.slow_from.contains(from) || self.slow_to.contains(to) {
            self.answers.may_answer(from, to) && pos.king_safe_after(Move::new(from, to), pos.turn)
        } else {
            self.clean.contains(to)
        }
    }
}

/// Which moves of the side to move give check, told from the lines, legs and steps around the
/// opponent's king once per position, so that most moves are answered by a look-up.
///
/// A king not attacked yet (always, in a game) is attacked after a move only through what the
/// move does near it:
/// - the moving piece attacks the king from where it lands: a rook or king on the king's rank or
///   file with nothing between, a cannon with exactly one piece between, a horse on a horse point
///   whose leg is free, a pawn on a point from where it steps onto the king. The point the piece
///   leaves is never between the point it lands on and the king (a rook or king sliding away
///   from the king along its line had a piece between already), but for a cannon moving along
///   the king's line, whose screens are counted without it;
/// - the piece lands between the king and a cannon of the mover with nothing between (a screen);
/// - the piece leaves a point that uncovers an attack: the only piece between the king and a
///   rook or king of the mover, one of the two between the king and a cannon of the mover, the
///   leg of a horse of the mover aimed at the king. Those pieces' moves are worked out move by
///   move ([`Position::gives_check`]), as are all moves when the king is attacked already (the
///   opponent passed).
///
/// A capture does not change which points are occupied but the one the piece leaves.
#[derive(Debug)]
struct CheckMap {
    /// The opponent's king is attacked already: every move is worked out.
    everywhere: bool,
    king: Square,
    /// On the king's rank and on its file.
    rank: LineChecks,
    file: LineChecks,
    /// Where a horse attacks the king.
    horse: Bitboard,
    /// Where a pawn attacks it.
    pawn: Bitboard,
    /// The mover's pieces whose moves are worked out one by one.
    special: Bitboard,
}

/// The mover's pieces, by what they can uncover.
#[derive(Copy, Clone, Debug)]
struct Movers {
    ours: Bitboard,
    /// Rooks and the king.
    straight: Bitboard,
    cannons: Bitboard,
}

/// The points of one of the king's lines where a piece landing gives check, one bit a point.
#[derive(Copy, Clone, Debug, Default)]
struct LineChecks {
    /// A rook or the king (the kings facing): nothing between.
    straight: u16,
    /// A cannon: exactly one piece between.
    cannon: u16,
    /// Any piece: an empty point between the king and a cannon of the mover with nothing
    /// between.
    screens: u16,
}

impl CheckMap {
    fn new(pos: &Position) -> CheckMap {
        let us = pos.turn;
        let them = us.other();
        let king = pos.kings[them];
        let board = &pos.board;
        let ours = board.by_color(us);
        let occ = board.occupied();
        let straight = (board.by_role(Role::Rook) | board.by_role(Role::King)) & ours;
        let cannons = board.by_role(Role::Cannon) & ours;
        let pawn = PAWN_ATTACKERS[us.index()][king.index()];
        let mut map = CheckMap {
            // (Every move is worked out after the king was taken, which a search may play in a
            // passed position.)
            everywhere: (pawn & board.by_role(Role::Pawn) & ours).any()
                || board
                    .piece_at(king)
                    .is_none_or(|p| p.role != Role::King || p.color != them),
            king,
            rank: LineChecks::default(),
            file: LineChecks::default(),
            horse: Bitboard::EMPTY,
            pawn,
            special: Bitboard::EMPTY,
        };
        let (kf, kr) = (king.file().index(), king.rank().index());
        let movers = Movers {
            ours,
            straight,
            cannons,
        };
        map.rank = map.scan_line(board.rank_bits(kr), kf, RANK_MASK, movers, |b| {
            Square::from_index(kr * 9 + b as usize)
        });
        map.file = map.scan_line(board.file_bits(kf), kr, FILE_MASK, movers, |b| {
            Square::from_index(b as usize * 9 + kf)
        });
        let horses = board.by_role(Role::Horse) & ours;
        if horses.any() {
            for (h, leg) in HORSE_ATTACKERS[king.index()].iter() {
                if !occ.contains(leg) {
                    map.horse.add(h);
                    if horses.contains(h) {
                        map.everywhere = true;
                    }
                } else if horses.contains(h) && ours.contains(leg) {
                    map.special.add(leg);
                }
            }
        }
        map
    }

    /// The checks on one of the king's lines, whose occupancy is `bits` (the king on bit `at`,
    /// `square` naming the points); notes the pieces that uncover an attack by leaving, and
    /// whether the king is attacked along the line already.
    fn scan_line(
        &mut self,
        bits: u16,
        at: usize,
        mask: u16,
        movers: Movers,
        square: impl Fn(u32) -> Square,
    ) -> LineChecks {
        let Movers {
            ours,
            straight,
            cannons,
        } = movers;
        let at = at as u32;
        let near = line_view(bits, at, mask);
        let beyond = line_view(bits & !near.first, at, mask);
        let mut line = LineChecks {
            straight: near.slide | near.first,
            cannon: (beyond.slide | beyond.first) & !(near.slide | near.first),
            screens: 0,
        };
        for upwards in [true, false] {
            let [Some(a), b, c] = line_nearest(bits, at, upwards).map(|b| b.map(&square)) else {
                continue;
            };
            if straight.contains(a) {
                self.everywhere = true;
            }
            if cannons.contains(a) {
                let side = if upwards { above(at) } else { below(at) };
                line.screens |= near.slide & side;
            }
            let Some(b) = b else {
                continue;
            };
            if cannons.contains(b) {
                self.everywhere = true;
            }
            // The mover's rook or king behind one piece, its cannon behind two: those pieces
            // of the mover uncover it by leaving.
            let mut uncovering = Bitboard::EMPTY;
            if straight.contains(b) {
                uncovering.add(a);
            }
            if c.is_some_and(|c| cannons.contains(c)) {
                uncovering = uncovering.with(a).with(b);
            }
            self.special |= uncovering & ours;
        }
        line
    }

    /// For a rook or cannon off the king's lines whose moves need no working out one by one: the
    /// points where its rank and its file cross the king's lines, its rank's first (the only
    /// points where it may give check). `None` for any other piece.
    #[inline]
    fn crossings(&self, role: Role, from: Square) -> Option<[Square; 2]> {
        let king = self.king;
        let off_lines = from.rank() != king.rank() && from.file() != king.file();
        (matches!(role, Role::Rook | Role::Cannon)
            && off_lines
            && !self.everywhere
            && !self.special.contains(from))
        .then(|| {
            [
                Square::from_index(from.rank().index() * 9 + king.file().index()),
                Square::from_index(king.rank().index() * 9 + from.file().index()),
            ]
        })
    }

    /// Whether `to` is a point of the king's lines that `pick` holds.
    #[inline(always)]
    fn on_line(&self, to: Square, pick: impl Fn(&LineChecks) -> u16) -> bool {
        if to.rank() == self.king.rank() {
            pick(&self.rank) >> to.file().index() & 1 != 0
        } else if to.file() == self.king.file() {
            pick(&self.file) >> to.rank().index() & 1 != 0
        } else {
            false
        }
    }

    /// Whether a cannon on `from`, a point of the king's lines, attacks the king from `to`: on the
    /// same line, exactly one piece between, not counting itself.
    fn cannon_along(&self, pos: &Position, from: Square, to: Square) -> bool {
        let king = self.king;
        let (bits, a, b, c) = if from.rank() == king.rank() && to.rank() == king.rank() {
            let r = king.rank().index();
            (
                pos.board.rank_bits(r),
                from.file().index(),
                to.file().index(),
                king.file().index(),
            )
        } else if from.file() == king.file() && to.file() == king.file() {
            let f = king.file().index();
            (
                pos.board.file_bits(f),
                from.rank().index(),
                to.rank().index(),
                king.rank().index(),
            )
        } else {
            return false;
        };
        let (lo, hi) = (b.min(c) as u32, b.max(c) as u32);
        (bits & !(1 << a) & above(lo) & below(hi)).count_ones() == 1
    }

    /// The mover's pieces that have a move that may give check (a superset): the others' moves
    /// all fail [`CheckMap::gives_check`].
    fn pieces(&self, pos: &Position) -> Bitboard {
        let us = pos.turn;
        let board = &pos.board;
        let ours = board.by_color(us);
        if self.everywhere {
            return ours;
        }
        let mut pieces = self.special
            | ours
                & (board.by_role(Role::Rook)
                    | board.by_role(Role::Cannon)
                    | board.by_role(Role::Horse)
                    | board.by_role(Role::King));
        let screens = self.screens();
        for p in board.by_role(Role::Pawn) & ours {
            if (PAWN_STEPS[us.index()][p.index()] & (self.pawn | screens)).any() {
                pieces.add(p);
            }
        }
        if screens.any() {
            for a in board.by_role(Role::Advisor) & ours {
                if (ADVISOR_STEPS[a.index()] & screens).any() {
                    pieces.add(a);
                }
            }
            for e in board.by_role(Role::Elephant) & ours {
                if ELEPHANT_STEPS[us.index()][e.index()]
                    .iter()
                    .any(|(to, _)| screens.contains(to))
                {
                    pieces.add(e);
                }
            }
        }
        pieces
    }

    /// The screen points, as a set.
    fn screens(&self) -> Bitboard {
        let (kf, kr) = (self.king.file().index(), self.king.rank().index());
        let mut set = Bitboard::EMPTY;
        for b in BitIter(self.rank.screens) {
            set.add(Square::from_index(kr * 9 + b as usize));
        }
        for b in BitIter(self.file.screens) {
            set.add(Square::from_index(b as usize * 9 + kf));
        }
        set
    }

    /// Whether the move `from`–`to`, which its piece's own rule allows, gives check in `pos`.
    #[inline(always)]
    fn gives_check(&self, pos: &Position, from: Square, to: Square) -> bool {
        if self.everywhere || self.special.contains(from) {
            return pos.gives_check(Move::new(from, to));
        }
        let Some(piece) = pos.board.piece_at(from) else {
            return pos.gives_check(Move::new(from, to));
        };
        match piece.role {
            Role::Rook | Role::King => self.on_line(to, |l| l.straight | l.screens),
            Role::Cannon => {
                if from.rank() == self.king.rank() || from.file() == self.king.file() {
                    self.cannon_along(pos, from, to)
                } else {
                    self.on_line(to, |l| l.cannon | l.screens)
                }
            }
            Role::Horse => self.horse.contains(to) || self.on_line(to, |l| l.screens),
            Role::Pawn => self.pawn.contains(to) || self.on_line(to, |l| l.screens),
            Role::Advisor | Role::Elephant => self.on_line(to, |l| l.screens),
        }
    }
}

/// The order in which the pieces' moves are generated, by kind (then by point, then by the
/// piece's own order): the order of [`Position::legal_moves`].
const GENERATION_ORDER: [Role; 7] = [
    Role::Rook,
    Role::Cannon,
    Role::Horse,
    Role::Pawn,
    Role::Elephant,
    Role::Advisor,
    Role::King,
];

/// Whether three of `sets` have no point in common, two by two.
fn three_apart(sets: &[Bitboard]) -> bool {
    sets.iter().enumerate().any(|(i, &a)| {
        sets[i + 1..].iter().enumerate().any(|(j, &b)| {
            (a & b).is_empty()
                && sets[i + j + 2..]
                    .iter()
                    .any(|&c| (a & c).is_empty() && (b & c).is_empty())
        })
    })
}

/// The order in which [`Position::mates_at_once`] looks for the opponent's moves that stay
/// legal (witnesses): the pieces with short moves first, whose moves touch the fewest points.
const WITNESS_ORDER: [Role; 6] = [
    Role::Pawn,
    Role::Advisor,
    Role::Elephant,
    Role::Horse,
    Role::Rook,
    Role::Cannon,
];

/// The points a move of a `color` `role` from `from` to `to` depends on: both ends, the points
/// a rook or cannon passes over, the horse's leg, the elephant's eye.
fn move_points(role: Role, color: Color, from: Square, to: Square) -> Bitboard {
    let ends = Bitboard::from_square(from).with(to);
    match role {
        Role::Rook | Role::Cannon => ends | between(from, to),
        Role::Horse => HORSE_STEPS[from.index()]
            .iter()
            .filter(|&(t, _)| t == to)
            .fold(ends, |b, (_, leg)| b.with(leg)),
        Role::Elephant => ELEPHANT_STEPS[color.index()][from.index()]
            .iter()
            .filter(|&(t, _)| t == to)
            .fold(ends, |b, (_, eye)| b.with(eye)),
        Role::Pawn | Role::Advisor | Role::King => ends,
    }
}

/// For each point, where a horse (of either side) must stand to attack it: the points of
/// `HORSE_ATTACKERS`, as a set, so that a king with no horse near is passed over at once.
const HORSE_POINTS: [Bitboard; 90] = {
    let mut table = [Bitboard::EMPTY; 90];
    let mut s = 0;
    while s < 90 {
        let steps = &HORSE_ATTACKERS[s];
        let mut bits = 0u128;
        let mut i = 0;
        while i < steps.len as usize {
            bits |= 1u128 << steps.to[i];
            i += 1;
        }
        table[s] = Bitboard(bits);
        s += 1;
    }
    table
};

/// Where a piece that leaves or arrives may change whether a king on some point is attacked.
/// (Advisors and elephants never attack a king; pawns do from beside it and in front.)
struct KingNear {
    /// The king's rank and file: where rooks, cannons, their screens, the other king and pawns
    /// attack from.
    lines: Bitboard,
    /// Those, and the legs of the horses that could jump onto the king (a piece that leaves one
    /// may uncover a horse).
    lines_and_legs: Bitboard,
    /// The lines, and the points of those horses (where a horse that lands attacks the king).
    lines_and_horses: Bitboard,
}

/// [`KingNear`] for each point.
const KING_NEAR: [KingNear; 90] = {
    let mut table = [const {
        KingNear {
            lines: Bitboard::EMPTY,
            lines_and_legs: Bitboard::EMPTY,
            lines_and_horses: Bitboard::EMPTY,
        }
    }; 90];
    let mut s = 0;
    while s < 90 {
        let lines = FILES[s % 9].0 | Bitboard::from_rank(Rank::ALL[s / 9]).0;
        let mut legs = 0u128;
        let steps = &HORSE_ATTACKERS[s];
        let mut i = 0;
        while i < steps.len as usize {
            legs |= 1u128 << steps.via[i];
            i += 1;
        }
        table[s] = KingNear {
            lines: Bitboard(lines),
            lines_and_legs: Bitboard(lines | legs),
            lines_and_horses: Bitboard(lines | HORSE_POINTS[s].0),
        };
        s += 1;
    }
    table
};

/// The points of each file.
const FILES: [Bitboard; 9] = {
    let mut files = [Bitboard::EMPTY; 9];
    let mut f = 0;
    while f < 9 {
        let mut bits = 0u128;
        let mut r = 0;
        while r < 10 {
            bits |= 1u128 << (r * 9 + f);
            r += 1;
        }
        files[f] = Bitboard(bits);
        f += 1;
    }
    files
};

/// The most checkers [`Answers`] narrows the answers for; beyond, every move is tried.
const MAX_ANSWERED: usize = 4;

/// What a move of a piece other than the king must do to answer a check: for every checker,
/// land on it (take it), between it and the king (block a rook, the facing king or a cannon:
/// a second screen), on the horse's leg, or leave the cannon's screen. A move that does this for
/// every checker may answer the check (the king-safety test decides); any other leaves a checker
/// attacking the king, so it is not legal.
struct Answers {
    king: Square,
    len: usize,
    to: [Bitboard; MAX_ANSWERED],
    from: [Bitboard; MAX_ANSWERED],
}

impl Answers {
    fn new(pos: &Position, us: Color, checkers: Bitboard) -> Answers {
        let king = pos.kings[us];
        let mut answers = Answers {
            king,
            len: 0,
            to: [Bitboard::EMPTY; MAX_ANSWERED],
            from: [Bitboard::EMPTY; MAX_ANSWERED],
        };
        if checkers.count() > MAX_ANSWERED {
            return answers;
        }
        let board = &pos.board;
        for c in checkers {
            let mut to = Bitboard::from_square(c);
            let mut from = Bitboard::EMPTY;
            match board.piece_at(c).map(|p| p.role) {
                Some(Role::Rook | Role::King | Role::Cannon) => {
                    let line = between(king, c);
                    to |= line;
                    from = line & board.occupied() & board.by_color(us);
                }
                Some(Role::Horse) => {
                    for (h, leg) in HORSE_ATTACKERS[king.index()].iter() {
                        if h == c {
                            to.add(leg);
                        }
                    }
                }
                Some(Role::Pawn) => {}
                // Not a checker by these rules: try every move.
                _ => {
                    answers.len = 0;
                    return answers;
                }
            }
            answers.to[answers.len] = to;
            answers.from[answers.len] = from;
            answers.len += 1;
        }
        answers
    }

    /// The pieces of `us` that have a move that may answer every check (a superset): the king,
    /// and each piece that stands where leaving answers a check or can step onto a point that
    /// answers the others.
    fn pieces(&self, pos: &Position, us: Color) -> Bitboard {
        let board = &pos.board;
        let ours = board.by_color(us);
        if self.len == 0 {
            return ours;
        }
        let mut pieces = Bitboard::from_square(self.king);
        // Most pieces stand where leaving answers no check: they must land where every check is
        // answered.
        let (mut common, mut leaving) = (Bitboard::FULL, Bitboard::EMPTY);
        for i in 0..self.len {
            common &= self.to[i];
            leaving |= self.from[i];
        }
        // The pieces that answer a check by leaving, one by one.
        for p in (ours & leaving).without(self.king) {
            let mut need = Bitboard::FULL;
            for i in 0..self.len {
                if !self.from[i].contains(p) {
                    need &= self.to[i];
                }
            }
            if board
                .piece_at(p)
                .is_some_and(|piece| reaches(piece.role, us, p, need))
            {
                pieces.add(p);
            }
        }
        // (A king off `self.king` only after a king was taken: it may always answer.)
        pieces |= (ours & board.by_role(Role::King) & !leaving).without(self.king);
        if common.is_empty() {
            return pieces;
        }
        // Every kind but the king (the last).
        for &role in &GENERATION_ORDER[..6] {
            for p in ours & board.by_role(role) & !leaving {
                if reaches(role, us, p, common) {
                    pieces.add(p);
                }
            }
        }
        pieces
    }

    /// Whether the move `from`–`to` may answer every check (a king move always may).
    #[inline(always)]
    fn may_answer(&self, from: Square, to: Square) -> bool {
        from == self.king
            || (0..self.len).all(|i| self.to[i].contains(to) || self.from[i].contains(from))
    }
}

/// Whether `us`'s `role` on `p` may step onto a point of `need` by its own rule (a superset for
/// a rook or cannon: any point of its rank or file).
#[inline(always)]
fn reaches(role: Role, us: Color, p: Square, need: Bitboard) -> bool {
    match role {
        Role::Rook | Role::Cannon => {
            (need & (Bitboard::from_rank(p.rank()) | FILES[p.file().index()])).any()
        }
        Role::Horse => HORSE_STEPS[p.index()]
            .iter()
            .any(|(to, _)| need.contains(to)),
        Role::Elephant => ELEPHANT_STEPS[us.index()][p.index()]
            .iter()
            .any(|(to, _)| need.contains(to)),
        Role::Advisor => (ADVISOR_STEPS[p.index()] & need).any(),
        Role::Pawn => (PAWN_STEPS[us.index()][p.index()] & need).any(),
        Role::King => true,
    }
}

/// What the king-safety scan of one line needs.
struct LineFacts {
    king: Square,
    ours: Bitboard,
    straight: Bitboard,
    cannons: Bitboard,
}

impl LineFacts {
    /// Checkers, shielding pieces and forbidden points along one line through the king.
    #[inline(always)]
    fn scan(&self, occ: u16, pos: usize, to_sq: impl Fn(u32) -> Square, safety: &mut Safety) {
        for upwards in [true, false] {
            let near = line_nearest(occ, pos as u32, upwards);
            let Some(b1) = near[0] else { continue };
            let s1 = to_sq(b1);
            if self.straight.contains(s1) {
                safety.checkers.add(s1);
                continue;
            }
            if self.cannons.contains(s1) {
                safety.forbidden |= between(self.king, s1);
            }
            let Some(b2) = near[1] else { continue };
            let s2 = to_sq(b2);
            if self.cannons.contains(s2) {
                safety.checkers.add(s2);
                continue;
            }
            if self.straight.contains(s2) {
                if self.ours.contains(s1) {
                    safety.blockers.add(s1);
                }
                continue;
            }
            let Some(b3) = near[2] else { continue };
            if self.cannons.contains(to_sq(b3)) {
                if self.ours.contains(s1) {
                    safety.blockers.add(s1);
                }
                if self.ours.contains(s2) {
                    safety.blockers.add(s2);
                }
            }
        }
    }
}

/// Whether a rook or king (`straight`) sees the point at `pos` along the line, or a cannon does
/// over one screen.
#[inline(always)]
fn line_attacked(
    occ: u16,
    pos: usize,
    to_sq: impl Fn(u32) -> Square,
    straight: Bitboard,
    cannons: Bitboard,
) -> bool {
    // Both directions spelled out: an iterator over them is not always unrolled, and this runs
    // for every move the searches test.
    let seen = |near: [Option<u32>; 3]| {
        near[0].is_some_and(|b| straight.contains(to_sq(b)))
            || near[1].is_some_and(|b| cannons.contains(to_sq(b)))
    };
    seen(line_nearest(occ, pos as u32, true)) || seen(line_nearest(occ, pos as u32, false))
}

impl Default for Position {
    fn default() -> Position {
        Position::new()
    }
}

impl PartialEq for Position {
    /// Equal placement, side to move and counters. For the repetition rule use
    /// [`Position::same_position`], which ignores the counters.
    fn eq(&self, other: &Position) -> bool {
        self.same_position(other)
            && self.halfmoves == other.halfmoves
            && self.fullmoves == other.fullmoves
    }
}

impl Eq for Position {}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.fen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`Position::reaches`] against the moves [`Position::gen_piece`] generates, for every
    /// piece of either side and every point, in the positions of random games.
    #[test]
    fn a_piece_reaches_the_points_it_is_generated_to() {
        let mut seed = crate::testing::XorShift(0x9e37_79b9_7f4a_7c15);
        let mut tested = 0;
        for _ in 0..20 {
            let mut pos = Position::new();
            for _ in 0..120 {
                for p in [&pos, &pos.passed()] {
                    let us = p.turn();
                    for from in p.board.by_color(us) {
                        let Some(piece) = p.board.piece_at(from) else {
                            continue;
                        };
                        let mut generated = Bitboard::EMPTY;
                        p.gen_piece(us, from, piece.role, &mut |_, to| generated.add(to));
                        for to in Square::all() {
                            let m = Move::new(from, to);
                            assert_eq!(
                                p.reaches(m, piece.role, us),
                                generated.contains(to),
                                "{m} in {p:?}"
                            );
                            tested += 1;
                        }
                    }
                }
                let Some(m) = seed.pick(&pos.legal_moves()) else {
                    break;
                };
                pos.play_unchecked(m);
            }
        }
        assert!(tested > 1_000_000, "{tested}");
    }

    /// The quick legality test agrees with the full one for every move the pieces' own rules
    /// allow, in the positions of random games (where checks, uncovered lines and horses near
    /// the kings come often), and answers for many moves (about a third).
    #[test]
    fn the_quick_legality_test_agrees_with_the_full_one() {
        let mut seed = crate::testing::XorShift(0x2545_f491_4f6c_dd1d);
        let (mut tested, mut quick) = (0, 0);
        for _ in 0..40 {
            let mut pos = Position::new();
            for _ in 0..150 {
                let mut full = pos.clone();
                full.sound = false;
                let us = pos.turn;
                pos.gen_pseudo(us, Bitboard::FULL, &mut |from, to| {
                    let m = Move::new(from, to);
                    assert_eq!(pos.check_move(m), full.check_move(m), "{m} in {pos:?}");
                    tested += 1;
                    quick += usize::from(pos.quietly_safe(m));
                });
                let Some(m) = seed.pick(&pos.legal_moves()) else {
                    break;
                };
                pos.play_unchecked(m);
            }
        }
        assert!(tested > 100_000, "{tested}");
        assert!(quick * 4 > tested, "{quick} of {tested}");
    }

    /// `black`'s move played in `fen` (Black to move), then whether Red's `red` is legal.
    fn after_black(fen: &str, black: &str, red: &str) -> Result<(), IllegalMove> {
        let mut pos = Position::from_fen(fen).unwrap();
        let m = Move::from_ascii(black.as_bytes()).unwrap();
        assert_eq!(pos.check_move(m), Ok(()), "{black}");
        pos.play_unchecked(m);
        pos.check_move(Move::from_ascii(red.as_bytes()).unwrap())
    }

    /// Each part of a king's surroundings is looked at by the quick test: a leg the opponent's
    /// move uncovers, a horse point it lands on, a line a move lands on (a cannon's screen), a
    /// leg the mover's own move uncovers. Each far move after them is tested in full.
    #[test]
    fn a_move_near_the_king_is_tested_in_full() {
        // The rook leaves the leg f1 of the horse on g1.
        let uncovered = "3k5/9/9/9/9/9/P8/9/5rn2/4K4 b - - 0 1";
        assert_eq!(
            after_black(uncovered, "f1f5", "a3a4"),
            Err(IllegalMove::KingInCheck)
        );
        // The horse jumps to g1, attacking e0 over the empty leg f1.
        let jumps = "3k5/9/9/9/9/9/P6n1/9/9/4K4 b - - 0 1";
        assert_eq!(
            after_black(jumps, "h3g1", "a3a4"),
            Err(IllegalMove::KingInCheck)
        );
        assert_eq!(after_black(jumps, "h3i1", "a3a4"), Ok(()));
        // The rook lands on the cannon's file: its screen.
        let screen = "3k5/9/9/9/4c4/9/9/R8/9/4K4 b - - 0 1";
        assert_eq!(
            after_black(screen, "d9d8", "a2e2"),
            Err(IllegalMove::KingInCheck)
        );
        assert_eq!(after_black(screen, "d9d8", "a2b2"), Ok(()));
        // The rook leaves the leg f1 of the horse on g1 itself.
        let shield = "3k5/9/9/9/9/9/9/9/5Rn2/4K4 b - - 0 1";
        assert_eq!(
            after_black(shield, "d9d8", "f1f5"),
            Err(IllegalMove::KingInCheck)
        );
    }

    /// A passed position may have the side not to move in check: the moves after it are tested
    /// in full.
    #[test]
    fn after_a_pass_moves_are_tested_in_full() {
        // Red, to move, is in check from the rook on e5 and passes; after Black's move far away
        // Red is in check still.
        let pos = Position::from_fen("3k5/9/9/9/4r4/9/P8/9/9/4K4 w - - 0 1").unwrap();
        let mut passed = pos.passed();
        passed.play_unchecked(Move::from_ascii(b"d9d8").unwrap());
        assert_eq!(
            passed.check_move(Move::from_ascii(b"a3a4").unwrap()),
            Err(IllegalMove::KingInCheck)
        );
    }
}
