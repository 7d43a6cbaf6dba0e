//! Reading a token against a position.
//!
//! Chinese and WXF moves name a piece and where it goes; the resolver picks the pieces the
//! selector can mean, computes each one's destination from the direction and amount (every such
//! destination is unique), and keeps the legal moves. Exactly one must remain.

use std::fmt;

use xq_core::{Bitboard, Color, File, IllegalMove, Move, Piece, Position, Role, Square};

use crate::{
    coords::Ranks,
    files::{Doubled, Points, doubled_files, on_file},
    syntax::{Descriptive, Direction, MoveText, Numerals, Selector, SyntaxError, System, Tandem},
    write::{self, Notation},
};

/// How strictly to read.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Only the standard notation: the rulebook's forms plus the multi-pawn conventions this
    /// crate writes (xqbase's ordinals, the traditional 前二三四后 and five-character forms, WXF's
    /// signs), Red's files in Chinese numerals and Black's in digits.
    Strict,
    /// Everything real archives contain (the default): also a doubled rook, horse or cannon
    /// named by its file when only one of them can make the move, either side's numerals, the
    /// piece-less and sign-first forms, lower-case WXF letters, and the dialects listed in
    /// [`Deviations`](crate::Deviations).
    #[default]
    Lenient,
}

/// Why a readable token is not a move in this position.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ResolveError {
    /// No piece fits the description.
    NoPiece {
        /// What was looked for, in words.
        message: String,
    },
    /// The piece exists but cannot make that move by its own rule.
    CannotReach {
        /// The piece's point.
        from: Square,
        /// What is wrong, in words.
        message: String,
    },
    /// The move breaks a rule of play.
    Illegal {
        /// The move.
        m: Move,
        /// Which rule.
        reason: IllegalMove,
        /// The rule in words with the points: which pieces would attack the king, or where the
        /// kings would face each other.
        why: String,
    },
    /// Several legal moves fit.
    Ambiguous {
        /// Every legal move that fits.
        candidates: Vec<Move>,
        /// How to write each one unambiguously.
        suggestions: Vec<String>,
    },
    /// Readable, but not standard notation (strict mode only).
    NotStrict {
        /// The move it means.
        m: Move,
        /// What departs from the standard.
        reasons: Vec<String>,
        /// The standard way to write it.
        standard: String,
    },
}

impl ResolveError {
    /// A short machine-readable name: `no_piece`, `cannot_reach`, `illegal`, `ambiguous`,
    /// `not_strict`.
    pub fn kind(&self) -> &'static str {
        match self {
            ResolveError::NoPiece { .. } => "no_piece",
            ResolveError::CannotReach { .. } => "cannot_reach",
            ResolveError::Illegal { .. } => "illegal",
            ResolveError::Ambiguous { .. } => "ambiguous",
            ResolveError::NotStrict { .. } => "not_strict",
        }
    }

    /// The candidates of an ambiguous move (empty otherwise).
    pub fn candidates(&self) -> &[Move] {
        match self {
            ResolveError::Ambiguous { candidates, .. } => candidates,
            _ => &[],
        }
    }
}

impl fmt::Display for ResolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResolveError::NoPiece { message } | ResolveError::CannotReach { message, .. } => {
                f.write_str(message)
            }
            ResolveError::Illegal { m, why, .. } => write!(f, "{m} is illegal: {why}"),
            ResolveError::Ambiguous {
                candidates,
                suggestions,
            } => {
                write!(f, "ambiguous: {} legal moves fit (", candidates.len())?;
                for (i, (m, s)) in candidates.iter().zip(suggestions).enumerate() {
                    write!(f, "{}{m} = {s}", if i == 0 { "" } else { ", " })?;
                }
                f.write_str("); write one of those instead")
            }
            ResolveError::NotStrict {
                m,
                reasons,
                standard,
            } => {
                write!(
                    f,
                    "not standard notation for {m}: {}; the standard form is {standard}",
                    reasons.join("; ")
                )
            }
        }
    }
}

impl std::error::Error for ResolveError {}

/// A token that is not a move here: unreadable, or readable but not resolvable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// The text is not a move in any notation.
    Syntax(SyntaxError),
    /// The text is readable but names no single legal move here.
    Resolve(ResolveError),
}

impl NotationError {
    /// `syntax` or the [`ResolveError::kind`].
    pub fn kind(&self) -> &'static str {
        match self {
            NotationError::Syntax(_) => "syntax",
            NotationError::Resolve(e) => e.kind(),
        }
    }
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::Syntax(e) => e.fmt(f),
            NotationError::Resolve(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for NotationError {}

impl From<SyntaxError> for NotationError {
    fn from(e: SyntaxError) -> NotationError {
        NotationError::Syntax(e)
    }
}

impl From<ResolveError> for NotationError {
    fn from(e: ResolveError) -> NotationError {
        NotationError::Resolve(e)
    }
}

impl MoveText {
    /// The move this text means in `pos`.
    ///
    /// # Errors
    /// If no piece fits, the piece cannot go there, the move is illegal, several moves fit, or
    /// (strict mode) the text is not standard notation.
    pub fn resolve(&self, pos: &Position, mode: Mode) -> Result<Move, ResolveError> {
        match self {
            MoveText::Coordinate(m) | MoveText::Uci(m) => resolve_coordinate(pos, *m),
            MoveText::Descriptive(d) => d.resolve(pos, mode),
            MoveText::San(san) => san.resolve(pos, mode),
        }
    }
}

pub(crate) fn resolve_coordinate(pos: &Position, m: Move) -> Result<Move, ResolveError> {
    match pos.check_move(m) {
        Ok(()) => Ok(m),
        Err(IllegalMove::NoPiece) => Err(ResolveError::NoPiece {
            message: format!("there is no piece on {}", m.from),
        }),
        Err(IllegalMove::NotYourPiece) => Err(ResolveError::NoPiece {
            message: format!(
                "the piece on {} is {}'s, but it is {}'s turn",
                m.from,
                pos.turn().other(),
                pos.turn()
            ),
        }),
        Err(IllegalMove::CannotReach) => Err(ResolveError::CannotReach {
            from: m.from,
            message: format!(
                "the {} on {} cannot move to {}{}",
                piece_name(pos, m.from),
                m.from,
                m.to,
                obstacle_words(pos, m)
            ),
        }),
        Err(reason) => Err(illegal_error(pos, m, reason)),
    }
}

/// `": " + what stops the move`, or nothing when nothing in particular does.
fn obstacle_words(pos: &Position, m: Move) -> String {
    pos.obstacle(m)
        .map_or_else(String::new, |o| format!(": {o}"))
}

/// The error for a move that breaks a rule of play, with the points in words.
pub(crate) fn illegal_error(pos: &Position, m: Move, reason: IllegalMove) -> ResolveError {
    let mover = pos.piece_at(m.from).map_or(pos.turn(), |p| p.color);
    let king = if m.from == pos.king(mover) {
        m.to
    } else {
        pos.king(mover)
    };
    let why = match reason {
        IllegalMove::KingsFacing => format!(
            "the kings on {king} and {} would face each other on an open file (将帅对面)",
            pos.king(mover.other())
        ),
        IllegalMove::KingInCheck => {
            let attackers: Vec<String> = pos
                .attackers_after(m)
                .into_iter()
                .map(|sq| format!("the {} on {sq}", piece_name(pos, sq)))
                .collect();
            if attackers.is_empty() {
                reason.to_string()
            } else {
                format!(
                    "it would leave the {mover} king on {king} in check from {}",
                    attackers.join(" and ")
                )
            }
        }
        other => other.to_string(),
    };
    ResolveError::Illegal { m, reason, why }
}

fn piece_name(pos: &Position, sq: Square) -> String {
    pos.piece_at(sq).map_or_else(
        || "piece".to_owned(),
        |p| format!("{} ({})", p.role, p.chinese()),
    )
}

/// The piece a tandem word picks among `list` (front to back), if it picks one.
fn pick(list: &[Square], tandem: Tandem) -> Option<Square> {
    let n = list.len();
    if n < 2 {
        return None;
    }
    match tandem {
        Tandem::Front | Tandem::WxfFirst => list.first().copied(),
        Tandem::Rear | Tandem::WxfLast => list.last().copied(),
        Tandem::Middle => (n % 2 == 1).then(|| list[n / 2]),
        Tandem::Ordinal(k) => list.get(usize::from(k).checked_sub(1)?).copied(),
        Tandem::WxfPlus => list.get(if n >= 4 { 1 } else { 0 }).copied(),
        Tandem::WxfMinus => list.get(if n >= 4 { n - 2 } else { n - 1 }).copied(),
    }
}

/// Where the piece on `from` goes when it moves `direction` by `amount`, if that is a place
/// (the piece's own rule is checked later).
#[inline]
pub(crate) fn destination(
    from: Square,
    role: Role,
    color: Color,
    direction: Direction,
    amount: u8,
) -> Option<Square> {
    let forward: i32 = if color == Color::Red { 1 } else { -1 };
    let sign = match direction {
        Direction::Advance => forward,
        Direction::Retreat => -forward,
        Direction::Traverse => 0,
    };
    match role {
        Role::King | Role::Rook | Role::Cannon | Role::Pawn => {
            if direction == Direction::Traverse {
                let file = File::from_number(amount, color)?;
                (file != from.file()).then(|| Square::new(file, from.rank()))
            } else {
                from.offset(0, sign * i32::from(amount))
            }
        }
        Role::Horse | Role::Elephant | Role::Advisor => {
            if direction == Direction::Traverse {
                return None;
            }
            let file = File::from_number(amount, color)?;
            let df = file.index() as i32 - from.file().index() as i32;
            let dr = match (role, df.abs()) {
                (Role::Horse, 1) => 2,
                (Role::Horse, 2) => 1,
                (Role::Elephant, 2) => 2,
                (Role::Advisor, 1) => 1,
                _ => return None,
            };
            from.offset(df, sign * dr)
        }
    }
}

/// What a position word counts, for a message when it fits no file.
fn tandem_counts(tandem: Tandem) -> &'static str {
    match tandem {
        Tandem::Front | Tandem::Rear => "前 and 后 name one of two or three on a file",
        Tandem::Middle => "中 names the middle one of three or five on a file",
        Tandem::Ordinal(_) => {
            "一…五 count the pieces of every file holding two or more, or of the file named"
        }
        Tandem::WxfPlus | Tandem::WxfMinus => {
            "+ and - name one of two or three on a file, or the second or fourth of four or five"
        }
        Tandem::WxfFirst | Tandem::WxfLast => "++ and -- name the first or last of four or five",
    }
}

fn file_name(file_number: u8, color: Color) -> String {
    let file = File::from_number(file_number, color).map_or('?', File::char);
    match color {
        Color::Red => {
            let zh = "一二三四五六七八九"
                .chars()
                .nth(usize::from(file_number).saturating_sub(1))
                .unwrap_or('?');
            format!("file {zh} ({file})")
        }
        Color::Black => format!("file {file_number} ({file})"),
    }
}

impl Descriptive {
    /// The move this text means in `pos`; see [`MoveText::resolve`].
    ///
    /// # Errors
    /// As [`MoveText::resolve`].
    pub fn resolve(&self, pos: &Position, mode: Mode) -> Result<Move, ResolveError> {
        if mode == Mode::Lenient
            && let Some(m) = self.resolve_named(pos)
        {
            return Ok(m);
        }
        self.resolve_all(pos, mode)
    }

    /// The common cases straight from the board: a named piece picked by its file, alone of its
    /// kind there (one set operation), or by a position word (前, 后, 一…五, +, -) on the one
    /// file holding several of its kind, or on the file named; making a legal move (tested
    /// once). `None` whenever the full reading ([`Descriptive::resolve_all`]) could answer
    /// anything else (an error, several pieces, a departure from the standard), so that it
    /// answers those in its own words. (Only for lenient reading: strict reading looks for
    /// departures, such as a file named for one of two pieces.)
    #[inline]
    fn resolve_named(&self, pos: &Position) -> Option<Move> {
        let role = self.role?;
        let us = pos.turn();
        let from = match self.selector {
            Selector::File(n) => {
                let file = File::from_number(n, us)?;
                (pos.board().by_piece(Piece::new(us, role)) & Bitboard::from_file(file)).single()?
            }
            Selector::Tandem(_) | Selector::TandemOnFile(..) => self.named_by_word(pos, role)?,
        };
        let m = Move::new(
            from,
            destination(from, role, us, self.direction, self.amount)?,
        );
        pos.check_move(m).is_ok().then_some(m)
    }

    /// The piece of `role` a position word names ([`Descriptive::resolve_named`]), when it
    /// names one: on the file named, or on the one file holding several (the full reading picks
    /// one on each such file). (Out of line: the common reading by a file stays small.)
    #[inline(never)]
    fn named_by_word(&self, pos: &Position, role: Role) -> Option<Square> {
        let us = pos.turn();
        match self.selector {
            Selector::Tandem(tandem) => match *doubled_files(pos, us, role) {
                [(_, list)] => pick(&list, tandem),
                _ => None,
            },
            Selector::TandemOnFile(tandem, n) => {
                pick(&on_file(pos, us, role, File::from_number(n, us)?), tandem)
            }
            Selector::File(_) => None,
        }
    }

    /// Every piece the text can mean, each move tested: the answer with its reasons.
    fn resolve_all(&self, pos: &Position, mode: Mode) -> Result<Move, ResolveError> {
        let us = pos.turn();
        let roles: &[Role] = match &self.role {
            Some(role) => std::slice::from_ref(role),
            None => &Role::ALL,
        };
        // A file named for a doubled piece (a departure found only here), as (count, role).
        let mut file_for_tandem: Option<(usize, Role)> = None;
        let mut selected = [(Square::A0, Role::King); 16];
        let mut n_selected = 0;
        for &role in roles {
            for &sq in self.select(pos, us, role, &mut file_for_tandem).iter() {
                if n_selected < selected.len() {
                    selected[n_selected] = (sq, role);
                    n_selected += 1;
                }
            }
        }
        if n_selected == 0 {
            return Err(ResolveError::NoPiece {
                message: self.no_piece_message(pos, us),
            });
        }

        // (One legal move at most for each piece selected: on the stack, as they are.)
        let mut legal = [Move::new(Square::A0, Square::A0); 16];
        let mut n_legal = 0;
        let mut illegal: Option<(Move, IllegalMove)> = None;
        // The first piece that cannot go, with the move it would make if there is a point.
        let mut unreachable: Option<(Square, Option<Move>)> = None;
        for &(from, role) in &selected[..n_selected] {
            let Some(to) = destination(from, role, us, self.direction, self.amount) else {
                unreachable.get_or_insert((from, None));
                continue;
            };
            let m = Move::new(from, to);
            match pos.check_move(m) {
                Ok(()) => {
                    legal[n_legal] = m;
                    n_legal += 1;
                }
                Err(reason @ (IllegalMove::KingInCheck | IllegalMove::KingsFacing)) => {
                    illegal.get_or_insert((m, reason));
                }
                Err(_) => {
                    unreachable.get_or_insert((from, Some(m)));
                }
            }
        }
        match &legal[..n_legal] {
            [m] => {
                let m = *m;
                if mode == Mode::Strict {
                    let reasons = self.departures(us, file_for_tandem);
                    if !reasons.is_empty() {
                        let standard = write::write(pos, m, self.standard_notation());
                        return Err(ResolveError::NotStrict {
                            m,
                            reasons,
                            standard,
                        });
                    }
                }
                Ok(m)
            }
            [] => match (illegal, unreachable) {
                (Some((m, reason)), _) => Err(illegal_error(pos, m, reason)),
                (None, Some((from, m))) => Err(ResolveError::CannotReach {
                    from,
                    message: format!(
                        "the {} on {from} cannot move {}{}",
                        piece_name(pos, from),
                        self.motion_words(),
                        m.map_or_else(String::new, |m| obstacle_words(pos, m))
                    ),
                }),
                (None, None) => Err(ResolveError::NoPiece {
                    message: self.no_piece_message(pos, us),
                }),
            },
            several => {
                let notation = self.standard_notation();
                Err(ResolveError::Ambiguous {
                    candidates: several.to_vec(),
                    suggestions: several
                        .iter()
                        .map(|&m| write::write(pos, m, notation))
                        .collect(),
                })
            }
        }
    }

    /// Whether strict reading refuses this text for `us` whatever the position: it departs
    /// from the standard in itself ([`Deviations`](crate::Deviations)), or it is Chinese
    /// notation written with the other side's numerals. (When this is false, a given position
    /// may still give strict reading its own reasons, such as a file named for one of two rooks.)
    pub fn refused_strictly_for(&self, us: Color) -> bool {
        !self.deviations.is_empty() || self.numerals_of_the_other_side(us)
    }

    /// Whether this is Chinese notation written with the numerals of the side other than `us`
    /// (digits for Red, 一…九 for Black).
    fn numerals_of_the_other_side(&self, us: Color) -> bool {
        self.system == System::Chinese
            && matches!(
                (self.numerals, us),
                (Numerals::Digits, Color::Red) | (Numerals::Chinese, Color::Black)
            )
    }

    /// Everything in this text that strict mode refuses, in words.
    fn departures(&self, us: Color, file_for_tandem: Option<(usize, Role)>) -> Vec<String> {
        let mut reasons: Vec<String> = self
            .deviations
            .descriptions()
            .into_iter()
            .map(str::to_owned)
            .collect();
        if self.numerals_of_the_other_side(us) {
            reasons.push(
                match us {
                    Color::Red => "Red's files and steps are written in Chinese numerals (一…九)",
                    Color::Black => "Black's files and steps are written in digits (１…９)",
                }
                .to_owned(),
            );
        }
        if let (Some((count, role)), Selector::File(n)) = (file_for_tandem, self.selector) {
            reasons.push(format!(
                "{count} {}s stand on {}: name which one ({}), not just the file",
                role.name(),
                file_name(n, us),
                if self.system == System::Wxf {
                    "+ or -"
                } else {
                    "前 or 后"
                }
            ));
        }
        reasons
    }

    /// The writer for the same notation, to suggest standard forms.
    fn standard_notation(&self) -> Notation {
        match self.system {
            System::Wxf => Notation::Wxf,
            System::San => Notation::San,
            _ => Notation::Chinese(write::ChineseStyle::default()),
        }
    }

    /// The pieces of `role` the selector can mean. Notes in `file_for_tandem` when a file digit
    /// names one of several pieces.
    fn select(
        &self,
        pos: &Position,
        us: Color,
        role: Role,
        file_for_tandem: &mut Option<(usize, Role)>,
    ) -> Points {
        let mut out = Points::EMPTY;
        match self.selector {
            Selector::File(n) => {
                let Some(file) = File::from_number(n, us) else {
                    return out;
                };
                let list = on_file(pos, us, role, file);
                match list.len() {
                    0 | 1 => return list,
                    // Two advisors or elephants on a file: the direction tells them apart.
                    _ if matches!(role, Role::Advisor | Role::Elephant) => return list,
                    // WXF names the middle one of three (or five) by its file.
                    3 | 5 if self.system == System::Wxf => out.push(list[list.len() / 2]),
                    count => {
                        *file_for_tandem = Some((count, role));
                        return list;
                    }
                }
            }
            Selector::Tandem(Tandem::Ordinal(k)) => {
                // xqbase: one series across every file holding two or more.
                let all = doubled_files(pos, us, role);
                if let Some(&sq) = all
                    .iter()
                    .flat_map(|(_, list)| list.iter())
                    .nth(usize::from(k).saturating_sub(1))
                {
                    out.push(sq);
                }
            }
            Selector::Tandem(tandem) => {
                for (_, list) in doubled_files(pos, us, role).iter() {
                    if let Some(sq) = pick(list, tandem) {
                        out.push(sq);
                    }
                }
            }
            Selector::TandemOnFile(tandem, n) => {
                let Some(file) = File::from_number(n, us) else {
                    return out;
                };
                if let Some(sq) = pick(&on_file(pos, us, role, file), tandem) {
                    out.push(sq);
                }
            }
        }
        out
    }

    fn motion_words(&self) -> String {
        match (self.direction, self.role) {
            (Direction::Traverse, _) => format!("sideways to file {}", self.amount),
            (d, Some(Role::Horse | Role::Elephant | Role::Advisor)) => {
                format!(
                    "{} to file {}",
                    if d == Direction::Advance {
                        "forward"
                    } else {
                        "back"
                    },
                    self.amount
                )
            }
            (d, _) => format!(
                "{} {} point{}",
                if d == Direction::Advance {
                    "forward"
                } else {
                    "back"
                },
                self.amount,
                if self.amount == 1 { "" } else { "s" }
            ),
        }
    }

    fn no_piece_message(&self, pos: &Position, us: Color) -> String {
        let (what, whats) = match self.role {
            Some(role) => {
                let zh = Piece::new(us, role).chinese();
                (
                    format!("{} ({zh})", role.name()),
                    format!("{}s ({zh})", role.name()),
                )
            }
            None => ("piece".to_owned(), "pieces of one kind".to_owned()),
        };
        match self.selector {
            Selector::File(n) => format!("{} has no {what} on {}", us.title(), file_name(n, us)),
            Selector::Tandem(tandem) => {
                let doubled = self
                    .role
                    .map_or(Doubled::EMPTY, |role| doubled_files(pos, us, role));
                if doubled.is_empty() {
                    return format!(
                        "{} has no file with two or more {whats} for the position word (前/中/后, 一…五, +/-) to pick from",
                        us.title()
                    );
                }
                // Files that hold several, but not as many as the word counts.
                let counts: Vec<String> = doubled
                    .iter()
                    .map(|(file, list)| {
                        let n = (1..=9)
                            .find(|&n| File::from_number(n, us) == Some(*file))
                            .unwrap_or(0);
                        format!("{} on {}", list.len(), file_name(n, us))
                    })
                    .collect();
                format!(
                    "{}'s {whats} on files holding several: {}; the position word names none of them ({})",
                    us.title(),
                    counts.join(", "),
                    tandem_counts(tandem)
                )
            }
            Selector::TandemOnFile(_, n) => format!(
                "{} has no {what} at that place on {}: the position word counts the {whats} on that file",
                us.title(),
                file_name(n, us)
            ),
        }
    }
}

/// Reads move tokens against positions, remembering the syntax of every distinct token (which
/// does not depend on the position), so that an archive's tokens are parsed once each.
#[derive(Debug, Default)]
pub struct Reader {
    mode: Mode,
    ranks: Ranks,
    /// Tokens of up to [`SHORT_TOKEN`] bytes (every move of the usual notations), keyed by
    /// [`short_key`]: no string to hash, compare or keep.
    short:
        std::collections::HashMap<u128, Result<MoveText, SyntaxError>, foldhash::fast::RandomState>,
    cache: std::collections::HashMap<
        Box<str>,
        Result<MoveText, SyntaxError>,
        foldhash::fast::RandomState,
    >,
    /// The moves of short tokens read lately, two in each set, the set picked by the key
    /// ([`recent_set`]; a later token of a full set takes the older one's place): in front of
    /// `short`, a lookup without hashing and probing. Empty until the reader has met
    /// [`RECENT_FROM`] distinct tokens.
    recent: Vec<[(u128, MoveText); 2]>,
}

/// How many sets [`Reader`]'s `recent` has (a power of two). Two tokens to a set: with one, the
/// 1,436 distinct tokens of the CCPD sample as one PGN missed 59,588 times in 251,905 (tokens
/// that share a slot push each other out), with two 14,733 times (worked out from the tokens
/// and this hash), in 1,024 sets. Each doubling halves that: the full reading ran 15,958 times
/// with 1,024 sets, 7,914 with 2,048 and 3,840 with 4,096 (callgrind; 10, then 4 instructions a
/// ply fewer). 4,096 sets take 256 KiB a reader; real archives have a few thousand distinct
/// tokens. (Four tokens to a set in 1,024 sets missed about as rarely, but looking through four
/// cost more than the misses saved.)
const RECENT_SETS: usize = 1 << 12;

/// How many distinct tokens a [`Reader`] meets before it makes its `recent` cache: a reader
/// made for a game or a call (a game has about a hundred) reads through `short` alone, and does
/// not fill 256 KiB it would barely use. (A cache that started small and grew cost the archive
/// reading 4 to 7 instructions a ply: its set was picked by a shift read from the reader.)
const RECENT_FROM: usize = 256;

/// A key no token has ([`short_key`] puts a length of at most 15 in the top byte).
const NO_KEY: u128 = u128::MAX;

/// The set of `recent` for a [`short_key`].
#[inline]
fn recent_set(key: u128) -> usize {
    let folded = (key as u64) ^ ((key >> 64) as u64).rotate_left(29);
    (folded.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - RECENT_SETS.trailing_zeros())) as usize
}

/// The longest token kept in [`Reader`]'s short cache: a five-character Chinese move.
const SHORT_TOKEN: usize = 15;

/// A token of at most [`SHORT_TOKEN`] bytes as one number: its bytes, then its length in the
/// top byte (so that tokens ending in NUL bytes stay apart).
#[inline]
fn short_key(text: &str) -> Option<u128> {
    let bytes = text.as_bytes();
    let len = bytes.len();
    // Read as two words that may overlap, the bytes beyond the token shifted out (a copy of a
    // length known only at run time is a call to memcpy).
    let word = |at: usize| {
        let mut word = [0; 8];
        word.copy_from_slice(&bytes[at..at + 8]);
        u64::from_le_bytes(word)
    };
    let (low, high) = match len {
        0 => (0, 0),
        1..=7 => {
            let mut low = 0;
            for (i, &b) in bytes.iter().enumerate() {
                low |= u64::from(b) << (8 * i);
            }
            (low, 0)
        }
        8 => (word(0), 0),
        9..=SHORT_TOKEN => (word(0), word(len - 8) >> (8 * (16 - len))),
        _ => return None,
    };
    Some(u128::from(low) | u128::from(high) << 64 | (len as u128) << 120)
}

/// The most distinct tokens a [`Reader`] remembers; later ones are parsed every time. Real
/// archives use a few thousand; the cap bounds memory on hostile input.
const CACHE_LIMIT: usize = 1 << 16;

impl Reader {
    /// A reader in `mode`.
    pub fn new(mode: Mode) -> Reader {
        Reader {
            mode,
            ranks: Ranks::Auto,
            short: std::collections::HashMap::default(),
            cache: std::collections::HashMap::default(),
            recent: Vec::new(),
        }
    }

    /// The syntax of `text`.
    ///
    /// # Errors
    /// If the text is not a move in any notation.
    pub fn parse(&mut self, text: &str) -> Result<MoveText, SyntaxError> {
        if let Some(key) = short_key(text) {
            let set = recent_set(key);
            if let Some(m) = self.recent(key, set) {
                return Ok(m);
            }
            let parsed = match self.short.get(&key) {
                Some(known) => known.clone(),
                None => {
                    let parsed = crate::syntax::parse(text);
                    if self.short.len() < CACHE_LIMIT {
                        self.short.insert(key, parsed.clone());
                    }
                    parsed
                }
            };
            if let Ok(m) = parsed {
                if self.recent.is_empty() && self.short.len() >= RECENT_FROM {
                    self.recent = vec![[(NO_KEY, m); 2]; RECENT_SETS];
                }
                if let Some(ways) = self.recent.get_mut(set) {
                    ways[1] = ways[0];
                    ways[0] = (key, m);
                }
            }
            return parsed;
        }
        if let Some(known) = self.cache.get(text) {
            return known.clone();
        }
        let parsed = crate::syntax::parse(text);
        if self.cache.len() < CACHE_LIMIT {
            self.cache.insert(text.into(), parsed.clone());
        }
        parsed
    }

    /// The move text kept in `recent` for the [`short_key`] `key` in its `set`, if it is there.
    #[inline]
    fn recent(&self, key: u128, set: usize) -> Option<MoveText> {
        let [first, second] = self.recent.get(set)?;
        if first.0 == key {
            Some(first.1)
        } else if second.0 == key {
            Some(second.1)
        } else {
            None
        }
    }

    /// How coordinate moves' ranks are counted from now on (a game's: see
    /// [`Ranks`]); the previous setting.
    pub fn set_ranks(&mut self, ranks: Ranks) -> Ranks {
        std::mem::replace(&mut self.ranks, ranks)
    }

    /// How coordinate moves' ranks are counted.
    pub fn ranks(&self) -> Ranks {
        self.ranks
    }

    /// The move `text` means in `pos`.
    ///
    /// # Errors
    /// See [`NotationError`].
    #[inline]
    pub fn read(&mut self, text: &str, pos: &Position) -> Result<Move, NotationError> {
        // The common case first: a Chinese or WXF token read lately, its piece named alone on
        // its file (what `Descriptive::resolve` tries first in lenient mode). Small enough to
        // stand in the caller's loop; the rest is a function of its own.
        if self.mode == Mode::Lenient
            && let Some(key) = short_key(text)
            && let Some(MoveText::Descriptive(d)) = self.recent(key, recent_set(key))
            && let Some(m) = d.resolve_named(pos)
        {
            return Ok(m);
        }
        self.read_in_full(text, pos)
    }

    /// [`Reader::read`] past its common case.
    #[inline(never)]
    fn read_in_full(&mut self, text: &str, pos: &Position) -> Result<Move, NotationError> {
        let mode = self.mode;
        let ranks = self.ranks;
        let ranks_wrong = || {
            crate::coords::rank_error(text, ranks)
                .unwrap_or_else(|| SyntaxError::with_span(text, 0..text.len(), Vec::new()))
        };
        let m = match (self.parse(text)?, ranks) {
            (MoveText::Coordinate(m), Ranks::Auto | Ranks::Iccs)
            | (MoveText::Uci(m), Ranks::Auto | Ranks::Uci) => m,
            (MoveText::Coordinate(m), Ranks::Uci) => {
                crate::coords::iccs_as_uci(m).ok_or_else(ranks_wrong)?
            }
            (MoveText::Uci(_), Ranks::Iccs) => return Err(ranks_wrong().into()),
            (other, _) => return Ok(other.resolve(pos, mode)?),
        };
        Ok(resolve_coordinate(pos, m)?)
    }
}

/// One [`Reader`] per worker of a thread pool, so that each keeps its syntax cache warm across
/// tasks (a reader made per task starts cold and parses every token again).
#[derive(Debug)]
pub struct ReaderPool {
    readers: Vec<std::sync::Mutex<Reader>>,
}

impl ReaderPool {
    /// The most worker threads a batch job takes (`-j`, `jobs=`): enough to keep many reads in
    /// flight on any machine, while a mistyped count (100000) would start threads that only take
    /// turns on the cores, each with its stack and reader (a run of 16 files took minutes).
    pub const MAX_WORKERS: usize = 256;

    /// How many workers a batch job asked for `jobs` threads runs: `jobs` (which callers check
    /// against [`ReaderPool::MAX_WORKERS`]), else one per core, or `RAYON_NUM_THREADS` where that
    /// is set (as rayon reads it), at most [`ReaderPool::MAX_WORKERS`] either way.
    pub fn workers(jobs: Option<usize>) -> usize {
        let default = || {
            std::env::var("RAYON_NUM_THREADS")
                .ok()
                .and_then(|n| n.trim().parse::<usize>().ok())
                .filter(|&n| n > 0)
                .or_else(|| std::thread::available_parallelism().ok().map(usize::from))
                .unwrap_or(1)
        };
        jobs.unwrap_or_else(default).clamp(1, Self::MAX_WORKERS)
    }

    /// Readers in `mode` for `workers` threads (at least one).
    pub fn new(workers: usize, mode: Mode) -> ReaderPool {
        ReaderPool {
            readers: (0..workers.max(1))
                .map(|_| std::sync::Mutex::new(Reader::new(mode)))
                .collect(),
        }
    }

    /// Runs `f` with the reader of worker `index` (any index: it wraps around; `None` is the
    /// first). Workers with distinct indices never wait for each other.
    pub fn with<R>(&self, index: Option<usize>, f: impl FnOnce(&mut Reader) -> R) -> R {
        let slot = &self.readers[index.unwrap_or(0) % self.readers.len()];
        // A panic while a reader was borrowed leaves only a cache behind: still usable.
        let mut reader = slot
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        f(&mut reader)
    }
}

/// Reads one token in `pos` (parsing it afresh; use a [`Reader`] for many).
///
/// # Errors
/// See [`NotationError`].
pub fn read(text: &str, pos: &Position, mode: Mode) -> Result<Move, NotationError> {
    Ok(crate::syntax::parse(text)?.resolve(pos, mode)?)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::syntax::Deviations;

    /// Calls `visit` with the positions of `games` random games of up to `plies` plies each (the
    /// same games every run).
    fn random_positions(games: usize, plies: usize, mut visit: impl FnMut(&Position)) {
        let mut seed = xq_core::testing::XorShift(0x2545_f491_4f6c_dd1d);
        for _ in 0..games {
            let mut pos = Position::new();
            for _ in 0..plies {
                visit(&pos);
                let Some(m) = seed.pick(&pos.legal_moves()) else {
                    break;
                };
                pos.play_unchecked(m);
            }
        }
    }

    /// A short token's key is its bytes, then its length in the top byte, for every length.
    #[test]
    fn a_short_key_is_the_bytes_and_the_length() {
        let text = "h2e2炮二平五马８进７abc";
        for start in 0..text.len() {
            for end in start..=text.len() {
                let Some(token) = text.get(start..end) else {
                    continue;
                };
                let mut want = [0u8; 16];
                let key = short_key(token);
                if token.len() > SHORT_TOKEN {
                    assert_eq!(key, None);
                    continue;
                }
                want[..token.len()].copy_from_slice(token.as_bytes());
                want[15] = token.len() as u8;
                assert_eq!(key, Some(u128::from_le_bytes(want)), "{token:?}");
            }
        }
    }

    /// A position word that fits no file's count says what the files hold and what the word
    /// counts; without a file holding several, that there is none.
    #[test]
    fn a_position_word_that_fits_no_file_says_what_it_counts() {
        let message = |fen: &str, token: &str| {
            let pos = Position::from_fen(fen).unwrap();
            match read(token, &pos, Mode::Lenient) {
                Err(NotationError::Resolve(ResolveError::NoPiece { message })) => message,
                other => panic!("{token}: {other:?}"),
            }
        };
        let two = "3k5/9/9/2P6/2P6/9/9/9/9/4K4 w";
        let said = message(two, "中兵平六");
        assert!(
            said.contains("2 on file 七 (c)") && said.contains("中 names"),
            "{said}"
        );
        let four = "3k5/2P6/2P6/2P6/2P6/9/9/9/9/4K4 w";
        let said = message(four, "五兵平六");
        assert!(
            said.contains("4 on file 七 (c)") && said.contains("一…五"),
            "{said}"
        );
        let said = message(xq_core::START_FEN, "前兵进一");
        assert!(said.contains("no file with two or more pawns"), "{said}");
    }

    /// A batch job runs the threads asked for, never more than the most. (The default, one per
    /// core or RAYON_NUM_THREADS, is clamped the same way: `tests/cli_core.rs` runs it.)
    #[test]
    fn a_pool_runs_at_most_the_most_workers() {
        assert_eq!(ReaderPool::workers(Some(3)), 3);
        assert_eq!(ReaderPool::workers(Some(100_000)), ReaderPool::MAX_WORKERS);
        assert_eq!(ReaderPool::workers(Some(0)), 1);
    }

    /// The Chinese moves of every piece, file, direction and amount (of which some are no move
    /// of the piece: 马一平九), as text: 1,458 distinct tokens.
    fn chinese_tokens() -> impl Iterator<Item = String> {
        let digits = ["一", "二", "三", "四", "五", "六", "七", "八", "九"];
        ["车", "马", "炮", "兵", "相", "仕"]
            .into_iter()
            .flat_map(move |piece| {
                digits.into_iter().flat_map(move |from| {
                    ["进", "退", "平"].into_iter().flat_map(move |way| {
                        digits
                            .into_iter()
                            .map(move |to| format!("{piece}{from}{way}{to}"))
                    })
                })
            })
    }

    /// Whether `reader` holds `text` in its recent cache.
    fn kept(reader: &Reader, text: &str) -> bool {
        let key = short_key(text).unwrap();
        reader.recent(key, recent_set(key)).is_some()
    }

    /// A reader makes its recent cache once it has met [`RECENT_FROM`] distinct tokens, not
    /// before (a reader for one game or one call does without), and reads the same either way.
    #[test]
    fn the_recent_cache_is_made_after_enough_tokens() {
        let mut reader = Reader::new(Mode::Lenient);
        let tokens: Vec<String> = chinese_tokens().take(RECENT_FROM).collect();
        for (i, text) in tokens.iter().enumerate() {
            assert!(reader.recent.is_empty(), "after {i} tokens");
            assert_eq!(reader.parse(text), crate::syntax::parse(text));
        }
        assert_eq!(reader.recent.len(), RECENT_SETS);
        assert!(kept(&reader, &tokens[RECENT_FROM - 1]));
        // The tokens met before are taken into it as they come again.
        assert!(!kept(&reader, &tokens[0]));
        reader.parse(&tokens[0]).unwrap();
        assert!(kept(&reader, &tokens[0]));
    }

    /// Two tokens whose keys pick the same set of the recent cache both stay in it; a third
    /// takes the place of the older.
    #[test]
    fn the_recent_cache_keeps_two_tokens_a_set() {
        let mut by_set: std::collections::HashMap<usize, Vec<String>> = Default::default();
        let mut found = None;
        for text in chinese_tokens() {
            let same = by_set
                .entry(recent_set(short_key(&text).unwrap()))
                .or_default();
            same.push(text);
            if same.len() == 3 {
                found = Some(same.clone());
                break;
            }
        }
        let three = found.unwrap();
        // The cache made first, by other tokens (Black's, in digits).
        let mut reader = Reader::new(Mode::Lenient);
        let in_digits = |text: String| -> String {
            text.chars()
                .map(
                    |c| match "一二三四五六七八九".chars().position(|n| n == c) {
                        Some(i) => "１２３４５６７８９".chars().nth(i).unwrap_or(c),
                        None => c,
                    },
                )
                .collect()
        };
        for text in chinese_tokens().take(RECENT_FROM).map(in_digits) {
            reader.parse(&text).unwrap();
        }
        assert!(!reader.recent.is_empty());
        reader.parse(&three[0]).unwrap();
        reader.parse(&three[1]).unwrap();
        assert!(kept(&reader, &three[0]) && kept(&reader, &three[1]));
        reader.parse(&three[2]).unwrap();
        assert!(!kept(&reader, &three[0]));
        assert!(kept(&reader, &three[1]) && kept(&reader, &three[2]));
    }

    /// A reader (its caches warm, the board shortcut taken) reads every legal move written in
    /// Chinese and WXF, and texts that are no move there, as reading each afresh does.
    #[test]
    fn a_reader_reads_as_a_fresh_reading() {
        let mut reader = Reader::new(Mode::Lenient);
        let mut strict = Reader::new(Mode::Strict);
        let notations = [
            Notation::Chinese(write::ChineseStyle::default()),
            Notation::Wxf,
        ];
        random_positions(8, 80, |pos| {
            let mut texts: Vec<String> = ["车一进一", "马８进７", "炮二平五", "x"]
                .iter()
                .map(|t| (*t).to_owned())
                .collect();
            for &m in pos.legal_moves().iter() {
                for notation in notations {
                    texts.push(write::write(pos, m, notation));
                }
            }
            for text in &texts {
                for _ in 0..2 {
                    assert_eq!(
                        reader.read(text, pos),
                        read(text, pos, Mode::Lenient),
                        "{text} in {pos:?}"
                    );
                    assert_eq!(
                        strict.read(text, pos),
                        read(text, pos, Mode::Strict),
                        "{text} in {pos:?}"
                    );
                }
            }
        });
    }

    /// What `refused_strictly_for` promises: for every legal move of random games, written in
    /// Chinese and WXF and then given the other side's numerals, numerals of no side, or each
    /// departure, a text it says is refused for the side to move is refused by strict reading
    /// there. And it says so of the other side's numerals and of every departure, never of the
    /// standard text.
    #[test]
    fn a_text_refused_for_a_side_is_refused_in_every_position() {
        let notations = [
            Notation::Chinese(write::ChineseStyle::default()),
            Notation::Wxf,
        ];
        let mut refused = 0;
        random_positions(8, 80, |pos| {
            let us = pos.turn();
            for &m in pos.legal_moves().iter() {
                for notation in notations {
                    let text = write::write(pos, m, notation);
                    let Ok(MoveText::Descriptive(d)) = crate::syntax::parse(&text) else {
                        panic!("{text} does not read as a Chinese or WXF move");
                    };
                    assert!(!d.refused_strictly_for(us), "{text} in {pos:?}");
                    let mut variants = vec![];
                    if d.system == System::Chinese {
                        let theirs = match us {
                            Color::Red => Numerals::Digits,
                            Color::Black => Numerals::Chinese,
                        };
                        let other_side = Descriptive {
                            numerals: theirs,
                            ..d
                        };
                        assert!(other_side.refused_strictly_for(us), "{other_side:?}");
                        variants.push(other_side);
                        // (Numerals of no side come with a departure in real text; alone, they
                        // are not refused for either side.)
                        let no_side = Descriptive {
                            numerals: Numerals::Other,
                            ..d
                        };
                        assert!(!no_side.refused_strictly_for(us), "{no_side:?}");
                        variants.push(no_side);
                    }
                    for departure in [
                        Deviations::PIECELESS,
                        Deviations::SIGN_FIRST,
                        Deviations::NO_DIRECTION,
                        Deviations::LOWER_CASE,
                        Deviations::XQBASE_WXF,
                        Deviations::INDEX_FILE,
                        Deviations::FINANCIAL,
                        Deviations::MIXED_NUMERALS,
                    ] {
                        let departing = Descriptive {
                            deviations: d.deviations.union(departure),
                            ..d
                        };
                        assert!(departing.refused_strictly_for(us), "{departing:?}");
                        variants.push(departing);
                    }
                    for v in variants {
                        if v.refused_strictly_for(us) {
                            refused += 1;
                            assert!(v.resolve(pos, Mode::Strict).is_err(), "{v:?} in {pos:?}");
                        }
                    }
                }
            }
        });
        assert!(refused > 10_000, "{refused}");
    }

    /// Checks that the Chinese-style texts naming `role` by `selector` (each direction and
    /// amount) read in `pos` as the full reading reads them, move or error, word for word; how
    /// many the shortcut ([`Descriptive::resolve_named`]) answered.
    fn shortcut_agrees(pos: &Position, role: Role, selector: Selector) -> usize {
        let mut fast = 0;
        for direction in [Direction::Advance, Direction::Retreat, Direction::Traverse] {
            for amount in 1..=9 {
                let d = Descriptive {
                    system: System::Chinese,
                    role: Some(role),
                    selector,
                    direction,
                    amount,
                    numerals: Numerals::Chinese,
                    deviations: Deviations::default(),
                };
                let full = d.resolve_all(pos, Mode::Lenient);
                assert_eq!(d.resolve(pos, Mode::Lenient), full, "{d:?} in {pos:?}");
                fast += usize::from(d.resolve_named(pos).is_some());
            }
        }
        fast
    }

    /// Every Chinese-style text on the board (each role, file, direction and amount) in the
    /// positions of random games: the reading straight from the board gives what the full
    /// reading gives, move or error, word for word.
    #[test]
    fn named_piece_reading_agrees_with_the_full_reading() {
        let mut fast = 0;
        random_positions(10, 100, |pos| {
            for role in Role::ALL {
                for n in 1..=9 {
                    fast += shortcut_agrees(pos, role, Selector::File(n));
                }
            }
        });
        // The shortcut is really taken (most legal moves are named this way).
        assert!(fast > 20_000, "{fast}");
    }

    /// The same for texts naming a piece by a position word, with a file (前兵九, 3+) or without
    /// (前炮, 二兵, R+), in the positions of random games where the side to move has several
    /// pieces of a kind on a file, and in positions with pawns doubled on two files (where the
    /// word picks one on each: the shortcut is not taken): the shortcut (one file holding several,
    /// or the file named) answers as the full reading does, and is taken.
    #[test]
    fn position_word_reading_agrees_with_the_full_reading() {
        let tandems = [
            Tandem::Front,
            Tandem::Middle,
            Tandem::Rear,
            Tandem::Ordinal(1),
            Tandem::Ordinal(2),
            Tandem::Ordinal(3),
            Tandem::Ordinal(5),
            Tandem::WxfPlus,
            Tandem::WxfMinus,
            Tandem::WxfFirst,
            Tandem::WxfLast,
        ];
        // The texts answered by the shortcut in `pos`, and its kinds on two files of several.
        let check = |pos: &Position| {
            let (mut fast, mut several_files) = (0, 0);
            let us = pos.turn();
            for role in Role::ALL {
                let doubled = doubled_files(pos, us, role);
                if doubled.is_empty() {
                    continue;
                }
                several_files += usize::from(doubled.len() > 1);
                let selectors =
                    tandems.iter().flat_map(|&t| {
                        std::iter::once(Selector::Tandem(t))
                            .chain(doubled.iter().map(move |(file, _)| {
                                Selector::TandemOnFile(t, file.number_for(us))
                            }))
                            .chain(std::iter::once(Selector::TandemOnFile(t, 5)))
                    });
                for selector in selectors {
                    fast += shortcut_agrees(pos, role, selector);
                }
            }
            (fast, several_files)
        };
        let mut random_fast = 0;
        random_positions(40, 150, |pos| random_fast += check(pos).0);
        let mut several_files = 0;
        // Pawns two and two on two files, and three on one, for each side to move.
        for fen in [
            "3k5/9/9/9/2P3P2/2P3P2/9/9/9/4K4 w - - 0 1",
            "3k5/9/9/2p3p2/2p3p2/9/9/9/9/4K4 b - - 0 1",
            "3k5/9/9/2P6/2P3P2/2P3P2/9/9/9/4K4 w - - 0 1",
        ] {
            several_files += check(&Position::from_fen(fen).unwrap()).1;
        }
        assert!(random_fast > 1_000, "{random_fast}");
        assert!(several_files >= 3, "{several_files}");
    }
}
