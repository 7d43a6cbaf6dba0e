//! What a move token says, independent of any position.

use std::{fmt, ops::Range};

use pest::{Parser, iterators::Pair};
use xq_core::{Move, Role};

use crate::grammar::{MoveParser, Rule, rule_name};

/// The notation a token is written in.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum System {
    /// ICCS `H2-E2` or UCCI `h2e2`.
    Coordinate,
    /// Chinese vertical-line notation, `炮二平五`.
    Chinese,
    /// WXF, `C2.5`.
    Wxf,
    /// The algebraic SAN form of Fairy-Stockfish and pychess, `Che3`.
    San,
}

/// Which way the piece goes, seen from its own side.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// 进 / `+`: towards the opponent.
    Advance,
    /// 退 / `-`: towards its own side.
    Retreat,
    /// 平 / `.`: sideways along the rank.
    Traverse,
}

/// Which of several pieces of one kind on one file.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Tandem {
    /// 前 / `+` of two or three: the one nearest the opponent.
    Front,
    /// 中: the middle one of three (or five).
    Middle,
    /// 后 / `-` of two or three: the one nearest its own side.
    Rear,
    /// 一…五 (1-based). Without a file: xqbase's computer standard, counting the pieces on every
    /// file holding two or more, the mover's rightmost such file first, front to back on each
    /// file (with one such file this is also the traditional 二 三 四). With a file: counted on it.
    Ordinal(u8),
    /// WXF `+` after the letter: the front one of two or three, the second of four or five.
    WxfPlus,
    /// WXF `-` after the letter: the rear one of two or three, the fourth of five (third of four).
    WxfMinus,
    /// WXF `++`: the first of four or five.
    WxfFirst,
    /// WXF `--`: the last of four or five.
    WxfLast,
}

/// How the moving piece is named.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Selector {
    /// By its file number, in the mover's own numbering: 炮**二**, C**2**.
    File(u8),
    /// By its place among pieces of its kind, without a file: **前**马, **一**兵, R**+**, **++**.
    Tandem(Tandem),
    /// By its place on a named file: **前**兵**九** (five characters), **前九** (no piece named),
    /// WXF **3+**.
    TandemOnFile(Tandem, u8),
}

/// A token's departures from the standard notation: accepted when reading leniently, reported in
/// strict mode. (Departures that depend on the position, such as naming one of two rooks by its
/// file, are found when the token is resolved.)
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Deviations(u16);

impl Deviations {
    /// No piece named: `前九平八`.
    pub const PIECELESS: Deviations = Deviations(1);
    /// The WXF position sign before the letter: `+C-1`.
    pub const SIGN_FIRST: Deviations = Deviations(1 << 1);
    /// No WXF direction sign for a sideways move: `C25`.
    pub const NO_DIRECTION: Deviations = Deviations(1 << 2);
    /// Lower-case WXF letters (a PlayOK habit for Black).
    pub const LOWER_CASE: Deviations = Deviations(1 << 3);
    /// xqbase's WXF dialect: ordinals `a`–`e`, `.` for the middle piece.
    pub const XQBASE_WXF: Deviations = Deviations(1 << 4);
    /// Fairy-Stockfish's tandem pawns: index then file, `15=6`.
    pub const INDEX_FILE: Deviations = Deviations(1 << 5);
    /// Financial numerals 壹贰叁…
    pub const FINANCIAL: Deviations = Deviations(1 << 6);
    /// Chinese numerals and digits mixed in one move.
    pub const MIXED_NUMERALS: Deviations = Deviations(1 << 7);

    /// Whether none are set.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether all of `other` are set.
    pub const fn contains(self, other: Deviations) -> bool {
        self.0 & other.0 == other.0
    }

    /// Both sets.
    #[must_use]
    pub const fn union(self, other: Deviations) -> Deviations {
        Deviations(self.0 | other.0)
    }

    /// What each set departure is, in words.
    pub fn descriptions(self) -> Vec<&'static str> {
        const ALL: [(Deviations, &str); 8] = [
            (Deviations::PIECELESS, "no piece is named (前九平八)"),
            (
                Deviations::SIGN_FIRST,
                "the position sign stands before the piece letter (+C-1)",
            ),
            (
                Deviations::NO_DIRECTION,
                "the sideways sign is missing (C25)",
            ),
            (Deviations::LOWER_CASE, "lower-case WXF letters"),
            (
                Deviations::XQBASE_WXF,
                "xqbase's WXF ordinals a–e or . for the middle piece",
            ),
            (
                Deviations::INDEX_FILE,
                "a pawn index before the file (15=6)",
            ),
            (Deviations::FINANCIAL, "financial numerals (壹贰叁)"),
            (
                Deviations::MIXED_NUMERALS,
                "Chinese numerals and digits mixed in one move",
            ),
        ];
        ALL.iter()
            .filter(|(d, _)| self.contains(*d))
            .map(|&(_, s)| s)
            .collect()
    }
}

/// The kind of numbers a Chinese move uses for its file and amount.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Numerals {
    /// 一…九, as Red writes.
    Chinese,
    /// １…９ or 1…9, as Black writes.
    Digits,
    /// Both kinds, or financial numerals: no side can be told.
    Other,
}

/// A move written by naming a piece and where it goes (Chinese or WXF).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Descriptive {
    /// Chinese or WXF.
    pub system: System,
    /// The piece kind, if named.
    pub role: Option<Role>,
    /// How the piece is picked out.
    pub selector: Selector,
    /// Which way it goes.
    pub direction: Direction,
    /// Steps (进/退 of king, rook, cannon, pawn) or the destination file (平, and every move of a
    /// horse, elephant or advisor), 1–9.
    pub amount: u8,
    /// The numbers used (Chinese notation only; WXF always uses digits).
    pub numerals: Numerals,
    /// Departures from the standard notation.
    pub deviations: Deviations,
}

/// What a move token says.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MoveText {
    /// A coordinate move, ICCS or UCCI.
    Coordinate(Move),
    /// A Chinese or WXF move.
    Descriptive(Descriptive),
    /// A coordinate move with a rank 10, which only UCI (ranks 1–10) writes: `h10h9`. (A UCI move
    /// without a rank 10, `h3e3`, reads as [`MoveText::Coordinate`]; a
    /// [`Reader`](crate::Reader) told the game's [`Ranks`](crate::Ranks) takes it one rank
    /// lower.)
    Uci(Move),
    /// A SAN move, `Che3`.
    San(crate::coords::San),
}

impl MoveText {
    /// The notation it is written in.
    pub fn system(&self) -> System {
        match self {
            MoveText::Coordinate(_) | MoveText::Uci(_) => System::Coordinate,
            MoveText::Descriptive(d) => d.system,
            MoveText::San(_) => System::San,
        }
    }
}

/// The longest text worth parsing as one move (a five-character Chinese move is 15 bytes).
const MAX_TOKEN_BYTES: usize = 64;

/// The text is not a move in any notation.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SyntaxError {
    /// The token.
    pub text: String,
    /// Where reading stopped, as a byte range of `text`.
    pub span: Range<usize>,
    /// What could have stood there.
    pub expected: Vec<&'static str>,
}

impl SyntaxError {
    pub(crate) fn with_span(
        text: &str,
        span: Range<usize>,
        expected: Vec<&'static str>,
    ) -> SyntaxError {
        SyntaxError {
            text: text.to_owned(),
            span,
            expected,
        }
    }

    fn new(text: &str, at: usize, expected: Vec<&'static str>) -> SyntaxError {
        let at = at.min(text.len());
        let end = text[at..].chars().next().map_or(at, |c| at + c.len_utf8());
        SyntaxError {
            text: text.to_owned(),
            span: at..end,
            expected,
        }
    }

    /// The token and, under it, a caret line pointing at the problem. Columns are counted in
    /// terminal cells, so the carets line up under double-width Chinese characters.
    pub fn render(&self) -> String {
        xq_core::caret::Snippet::new(&self.text, self.span.clone()).render(&self.what())
    }

    fn what(&self) -> String {
        if self.text.trim().is_empty() {
            return "an empty move".to_owned();
        }
        if self.text.len() > MAX_TOKEN_BYTES {
            return format!("too long for a move (over {MAX_TOKEN_BYTES} bytes)");
        }
        if self.expected.is_empty() {
            if self.span.is_empty() {
                "the move ends too early".to_owned()
            } else {
                "unexpected text".to_owned()
            }
        } else {
            let found = if self.span.is_empty() {
                "the end".to_owned()
            } else {
                format!("`{}`", &self.text[self.span.clone()])
            };
            format!("expected {}, found {found}", self.expected.join(" or "))
        }
    }
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot read `{}` as a move: {} (at byte {})",
            shown(&self.text),
            self.what(),
            self.span.start
        )
    }
}

/// How many characters of a move's text messages show: a token of 3 MB (a file of control
/// bytes) is shown by its start, not whole.
const SHOWN_CHARS: usize = 40;

/// A move's text as messages show it: whole when it may be a move (at most 64 bytes, the longest
/// token read as one), else its first 40 characters and `…`.
pub fn shown(text: &str) -> String {
    if text.len() <= MAX_TOKEN_BYTES {
        text.to_owned()
    } else {
        xq_core::fen::cut(text, SHOWN_CHARS)
    }
}

impl std::error::Error for SyntaxError {}

/// Reads one move token.
///
/// # Errors
/// If the text is not a move in Chinese, WXF, ICCS/UCCI, UCI or SAN notation.
pub fn parse(text: &str) -> Result<MoveText, SyntaxError> {
    parse_with(text, true)
}

/// [`parse`] without its quick reader (`quick` false), for a test comparing the two.
pub(crate) fn parse_with(text: &str, quick: bool) -> Result<MoveText, SyntaxError> {
    if text.len() > MAX_TOKEN_BYTES || text.trim().is_empty() {
        return Err(SyntaxError::new(text, 0, Vec::new()));
    }
    // SAN naming the mover by its rank (`H3d5`, `C3xd4`) would read as ICCS, whose files are of
    // one case (`h3d5`, `H3-D5`): an upper-case letter, then a lower-case one, is SAN.
    if text.as_bytes().first().is_some_and(u8::is_ascii_uppercase)
        && text.bytes().any(|b| b.is_ascii_lowercase())
        && let Some(san) = crate::coords::parse_san(text)
    {
        return Ok(MoveText::San(san));
    }
    // The usual forms, read without the grammar as the grammar reads them.
    if quick && let Some(read) = crate::quick::parse(text) {
        return Ok(read);
    }
    let mut pairs = match MoveParser::parse(Rule::token, text) {
        Ok(pairs) => pairs,
        // The forms of Fairy-Stockfish and pychess, which the grammar's notations never take.
        Err(err) => {
            if let Some(m) = crate::coords::parse_uci(text) {
                return Ok(MoveText::Uci(m));
            }
            if let Some(san) = crate::coords::parse_san(text) {
                return Ok(MoveText::San(san));
            }
            return Err(from_pest(text, &err));
        }
    };
    let token = pairs.next().and_then(|p| p.into_inner().next());
    let Some(token) = token else {
        return Err(SyntaxError::new(text, 0, Vec::new()));
    };
    match token.as_rule() {
        Rule::iccs => Ok(iccs(token)),
        Rule::chinese => chinese(token),
        _ => wxf(text, token),
    }
}

fn from_pest(text: &str, err: &pest::error::Error<Rule>) -> SyntaxError {
    let at = match err.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((s, _)) => s,
    };
    let mut expected: Vec<&'static str> = match &err.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } => {
            positives.iter().map(|&r| rule_name(r)).collect()
        }
        pest::error::ErrorVariant::CustomError { .. } => Vec::new(),
    };
    expected.dedup();
    SyntaxError::new(text, at, expected)
}

fn iccs(pair: Pair<'_, Rule>) -> MoveText {
    let squares: Vec<xq_core::Square> = pair
        .into_inner()
        .filter(|p| p.as_rule() == Rule::iccs_square)
        .filter_map(|p| p.as_str().parse().ok())
        .collect();
    // The grammar guarantees two squares; they may be equal (not a move: unreachable later).
    let from = squares.first().copied().unwrap_or(xq_core::Square::A0);
    let to = squares.get(1).copied().unwrap_or(from);
    MoveText::Coordinate(Move::new(from, to))
}

fn role_of(pair: &Pair<'_, Rule>) -> Role {
    match pair.clone().into_inner().next().map(|p| p.as_rule()) {
        Some(Rule::zh_king | Rule::wxf_king) => Role::King,
        Some(Rule::zh_advisor | Rule::wxf_advisor) => Role::Advisor,
        Some(Rule::zh_elephant | Rule::wxf_elephant) => Role::Elephant,
        Some(Rule::zh_horse | Rule::wxf_horse) => Role::Horse,
        Some(Rule::zh_rook | Rule::wxf_rook) => Role::Rook,
        Some(Rule::zh_cannon | Rule::wxf_cannon) => Role::Cannon,
        _ => Role::Pawn,
    }
}

fn direction_of(pair: &Pair<'_, Rule>) -> Direction {
    match pair.clone().into_inner().next().map(|p| p.as_rule()) {
        Some(Rule::zh_advance | Rule::wxf_advance) => Direction::Advance,
        Some(Rule::zh_retreat | Rule::wxf_retreat) => Direction::Retreat,
        _ => Direction::Traverse,
    }
}

/// The value 1–9 of a numeral, digit or financial numeral (1 for anything else).
fn number_of(text: &str) -> u8 {
    text.chars()
        .next()
        .and_then(|ch| number(ch).map(|(value, _)| value))
        .unwrap_or(1)
}

/// A number of a Chinese move (`zh_number`, or WXF's `wxf_number` among them): its value 1–9
/// and its kind, [`Numerals::Other`] for the financial numerals.
pub(crate) fn number(ch: char) -> Option<(u8, Numerals)> {
    let value = |c: char, first: char| (c as u32 - first as u32 + 1) as u8;
    Some(match ch {
        '1'..='9' => (value(ch, '1'), Numerals::Digits),
        '１'..='９' => (value(ch, '１'), Numerals::Digits),
        '一' => (1, Numerals::Chinese),
        '二' => (2, Numerals::Chinese),
        '三' => (3, Numerals::Chinese),
        '四' => (4, Numerals::Chinese),
        '五' => (5, Numerals::Chinese),
        '六' => (6, Numerals::Chinese),
        '七' => (7, Numerals::Chinese),
        '八' => (8, Numerals::Chinese),
        '九' => (9, Numerals::Chinese),
        '壹' => (1, Numerals::Other),
        '贰' | '貳' => (2, Numerals::Other),
        '叁' | '參' => (3, Numerals::Other),
        '肆' => (4, Numerals::Other),
        '伍' => (5, Numerals::Other),
        '陆' | '陸' => (6, Numerals::Other),
        '柒' => (7, Numerals::Other),
        '捌' => (8, Numerals::Other),
        '玖' => (9, Numerals::Other),
        _ => return None,
    })
}

/// The kind of a `zh_number` pair.
fn kind_of(pair: &Pair<'_, Rule>) -> Numerals {
    match pair.clone().into_inner().next().map(|p| p.as_rule()) {
        Some(Rule::zh_numeral) => Numerals::Chinese,
        Some(Rule::zh_digit) => Numerals::Digits,
        _ => Numerals::Other,
    }
}

fn tandem_of(pair: &Pair<'_, Rule>) -> Tandem {
    let inner = pair.clone().into_inner().next();
    match inner.as_ref().map(Pair::as_rule) {
        Some(Rule::zh_front_rear) => tandem_of(inner.as_ref().unwrap_or(pair)),
        Some(Rule::zh_front) => Tandem::Front,
        Some(Rule::zh_middle) => Tandem::Middle,
        Some(Rule::zh_rear) => Tandem::Rear,
        _ => Tandem::Ordinal(number_of(pair.as_str())),
    }
}

/// The parts of a Chinese move, whichever of its four forms: 前兵九平八 names the piece by its
/// place on a file, 前马退六 by its place, 炮二平五 by its file; 前九平八 names no piece.
#[derive(Copy, Clone, Debug)]
pub(crate) struct ChineseParts {
    pub(crate) selector: Selector,
    /// The kind of the file's number, if one is written (see [`number`]).
    pub(crate) file_kind: Option<Numerals>,
    pub(crate) role: Option<Role>,
    pub(crate) direction: Direction,
    /// The amount and its kind.
    pub(crate) amount: (u8, Numerals),
}

impl ChineseParts {
    /// The parts of a move naming its piece by a file: `file`'s number and kind.
    pub(crate) fn on_file(
        tandem: Option<Tandem>,
        role: Option<Role>,
        (file, kind): (u8, Numerals),
        direction: Direction,
        amount: (u8, Numerals),
    ) -> ChineseParts {
        ChineseParts {
            selector: match tandem {
                Some(tandem) => Selector::TandemOnFile(tandem, file),
                None => Selector::File(file),
            },
            file_kind: Some(kind),
            role,
            direction,
            amount,
        }
    }

    pub(crate) fn text(self) -> MoveText {
        let mut numerals = None;
        let mut deviations = Deviations::default();
        // Tallies the kind of each number: financial numerals, and kinds mixed, are departures.
        let mut tally = |kind: Numerals| {
            if kind == Numerals::Other {
                deviations = deviations.union(Deviations::FINANCIAL);
            }
            numerals = Some(match numerals {
                None => kind,
                Some(previous) if previous == kind => kind,
                Some(_) => {
                    deviations = deviations.union(Deviations::MIXED_NUMERALS);
                    Numerals::Other
                }
            });
        };
        if let Some(kind) = self.file_kind {
            tally(kind);
        }
        tally(self.amount.1);
        if self.role.is_none() {
            deviations = deviations.union(Deviations::PIECELESS);
        }
        MoveText::Descriptive(Descriptive {
            system: System::Chinese,
            role: self.role,
            selector: self.selector,
            direction: self.direction,
            amount: self.amount.0,
            numerals: numerals.unwrap_or(Numerals::Other),
            deviations,
        })
    }
}

fn chinese(pair: Pair<'_, Rule>) -> Result<MoveText, SyntaxError> {
    let Some(form) = pair.into_inner().next() else {
        return Err(SyntaxError::new("", 0, Vec::new()));
    };
    let rule = form.as_rule();
    let items: Vec<Pair<'_, Rule>> = form.into_inner().collect();
    let get = |i: usize| items.get(i).cloned();
    let numbered = |pair: &Pair<'_, Rule>| (number_of(pair.as_str()), kind_of(pair));
    let parts = match (rule, get(0), get(1), get(2), get(3), get(4)) {
        (Rule::zh_five, Some(position), Some(piece), Some(file), Some(d), Some(n)) => {
            ChineseParts::on_file(
                Some(tandem_of(&position)),
                Some(role_of(&piece)),
                numbered(&file),
                direction_of(&d),
                numbered(&n),
            )
        }
        (Rule::zh_tandem, Some(position), Some(piece), Some(d), Some(n), None) => ChineseParts {
            selector: Selector::Tandem(tandem_of(&position)),
            file_kind: None,
            role: Some(role_of(&piece)),
            direction: direction_of(&d),
            amount: numbered(&n),
        },
        (Rule::zh_plain, Some(piece), Some(file), Some(d), Some(n), None) => ChineseParts::on_file(
            None,
            Some(role_of(&piece)),
            numbered(&file),
            direction_of(&d),
            numbered(&n),
        ),
        (Rule::zh_pieceless, Some(position), Some(file), Some(d), Some(n), None) => {
            ChineseParts::on_file(
                Some(tandem_of(&position)),
                None,
                numbered(&file),
                direction_of(&d),
                numbered(&n),
            )
        }
        _ => return Err(SyntaxError::new("", 0, Vec::new())),
    };
    Ok(parts.text())
}

/// One slot of a WXF token.
#[derive(Copy, Clone, Debug)]
pub(crate) enum Slot {
    /// A piece letter, and whether it is lower-case.
    Letter(Role, bool),
    Number(u8),
    /// `+`, `-`, `.` or an ordinal `a`–`e`.
    Sign(char),
    Direction(Direction),
}

fn wxf(text: &str, pair: Pair<'_, Rule>) -> Result<MoveText, SyntaxError> {
    let slots: Vec<Slot> = pair
        .into_inner()
        .map(|p| match p.as_rule() {
            Rule::wxf_letter => {
                let lower = p.as_str().chars().next().is_some_and(|c| c.is_lowercase());
                Slot::Letter(role_of(&p), lower)
            }
            Rule::wxf_number => Slot::Number(number_of(p.as_str())),
            Rule::wxf_direction => Slot::Direction(direction_of(&p)),
            _ => {
                let ch = p.as_str().chars().next().unwrap_or('+');
                Slot::Sign(match ch {
                    '＋' => '+',
                    '－' => '-',
                    '．' => '.',
                    other => other,
                })
            }
        })
        .collect();
    wxf_move(text, &slots)
}

/// The WXF move `slots` (one of the grammar's sequences of them) make.
pub(crate) fn wxf_move(text: &str, slots: &[Slot]) -> Result<MoveText, SyntaxError> {
    let mut deviations = Deviations::default();
    let letter = |role: Role, lower: bool, deviations: &mut Deviations| {
        if lower {
            *deviations = deviations.union(Deviations::LOWER_CASE);
        }
        Some(role)
    };
    let sign_tandem = |sign: char, deviations: &mut Deviations| match sign {
        '+' => Tandem::WxfPlus,
        '-' => Tandem::WxfMinus,
        '.' => {
            *deviations = deviations.union(Deviations::XQBASE_WXF);
            Tandem::Middle
        }
        ordinal => {
            *deviations = deviations.union(Deviations::XQBASE_WXF);
            Tandem::Ordinal(ordinal as u8 - b'a' + 1)
        }
    };
    let (role, selector, direction, amount) = match slots {
        [
            Slot::Letter(r, lower),
            Slot::Number(file),
            Slot::Direction(d),
            Slot::Number(n),
        ] => (
            letter(*r, *lower, &mut deviations),
            Selector::File(*file),
            *d,
            *n,
        ),
        [
            Slot::Letter(r, lower),
            Slot::Sign(s),
            Slot::Direction(d),
            Slot::Number(n),
        ] => {
            let role = letter(*r, *lower, &mut deviations);
            (
                role,
                Selector::Tandem(sign_tandem(*s, &mut deviations)),
                *d,
                *n,
            )
        }
        [
            Slot::Sign(s),
            Slot::Letter(r, lower),
            Slot::Direction(d),
            Slot::Number(n),
        ] => {
            deviations = deviations.union(Deviations::SIGN_FIRST);
            let role = letter(*r, *lower, &mut deviations);
            (
                role,
                Selector::Tandem(sign_tandem(*s, &mut deviations)),
                *d,
                *n,
            )
        }
        [
            Slot::Sign(a),
            Slot::Sign(b),
            Slot::Direction(d),
            Slot::Number(n),
        ] => {
            let tandem = match (a, b) {
                ('+', '+') => Tandem::WxfFirst,
                ('-', '-') => Tandem::WxfLast,
                _ => {
                    return Err(SyntaxError {
                        text: text.to_owned(),
                        span: 0..text.len(),
                        expected: vec!["++ or -- (first or last of four or five pawns)"],
                    });
                }
            };
            (Some(Role::Pawn), Selector::Tandem(tandem), *d, *n)
        }
        [
            Slot::Number(file),
            Slot::Sign(s),
            Slot::Direction(d),
            Slot::Number(n),
        ] => {
            let tandem = sign_tandem(*s, &mut deviations);
            (
                Some(Role::Pawn),
                Selector::TandemOnFile(tandem, *file),
                *d,
                *n,
            )
        }
        [
            Slot::Number(a),
            Slot::Number(b),
            Slot::Direction(d),
            Slot::Number(n),
        ] => {
            if a == b {
                (
                    Some(Role::Pawn),
                    Selector::TandemOnFile(Tandem::Middle, *a),
                    *d,
                    *n,
                )
            } else {
                deviations = deviations.union(Deviations::INDEX_FILE);
                (
                    Some(Role::Pawn),
                    Selector::TandemOnFile(Tandem::Ordinal(*a), *b),
                    *d,
                    *n,
                )
            }
        }
        [Slot::Letter(r, lower), Slot::Number(file), Slot::Number(n)] => {
            deviations = deviations.union(Deviations::NO_DIRECTION);
            (
                letter(*r, *lower, &mut deviations),
                Selector::File(*file),
                Direction::Traverse,
                *n,
            )
        }
        _ => return Err(SyntaxError::new(text, 0, vec![rule_name(Rule::wxf)])),
    };
    Ok(MoveText::Descriptive(Descriptive {
        system: System::Wxf,
        role,
        selector,
        direction,
        amount,
        numerals: Numerals::Digits,
        deviations,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn desc(text: &str) -> Descriptive {
        match parse(text) {
            Ok(MoveText::Descriptive(d)) => d,
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn chinese_forms() {
        let d = desc("炮二平五");
        assert_eq!(
            (d.role, d.selector, d.direction, d.amount),
            (
                Some(Role::Cannon),
                Selector::File(2),
                Direction::Traverse,
                5
            )
        );
        assert_eq!(d.numerals, Numerals::Chinese);
        let d = desc("马８进７");
        assert_eq!(
            (d.selector, d.amount, d.numerals),
            (Selector::File(8), 7, Numerals::Digits)
        );
        assert_eq!(desc("前马退六").selector, Selector::Tandem(Tandem::Front));
        assert_eq!(desc("後炮平四").selector, Selector::Tandem(Tandem::Rear));
        assert_eq!(
            desc("一兵平四").selector,
            Selector::Tandem(Tandem::Ordinal(1))
        );
        assert_eq!(
            desc("前兵九平八").selector,
            Selector::TandemOnFile(Tandem::Front, 9)
        );
        let d = desc("前九平八");
        assert_eq!(
            (d.role, d.selector),
            (None, Selector::TandemOnFile(Tandem::Front, 9))
        );
        assert!(d.deviations.contains(Deviations::PIECELESS));
        assert_eq!(desc("傌二進三").role, Some(Role::Horse));
        assert_eq!(desc("俥一進一").role, Some(Role::Rook));
        assert_eq!(desc("包8平5").role, Some(Role::Cannon));
        assert_eq!(desc("炮2平5").numerals, Numerals::Digits);
        assert!(
            desc("炮二平5")
                .deviations
                .contains(Deviations::MIXED_NUMERALS)
        );
        assert!(desc("炮贰平伍").deviations.contains(Deviations::FINANCIAL));
    }

    #[test]
    fn wxf_forms() {
        let d = desc("C2.5");
        assert_eq!(
            (d.role, d.selector, d.direction, d.amount),
            (
                Some(Role::Cannon),
                Selector::File(2),
                Direction::Traverse,
                5
            )
        );
        assert_eq!(desc("C2=5"), desc("C2.5"));
        assert_eq!(desc("Ｃ２＝５"), desc("C2.5"));
        assert_eq!(desc("H8+7").direction, Direction::Advance);
        assert_eq!(desc("R+.3").selector, Selector::Tandem(Tandem::WxfPlus));
        assert_eq!(desc("C--1").selector, Selector::Tandem(Tandem::WxfMinus));
        assert!(desc("+C-1").deviations.contains(Deviations::SIGN_FIRST));
        assert_eq!(desc("++.4").selector, Selector::Tandem(Tandem::WxfFirst));
        assert_eq!(desc("P3.4").selector, Selector::File(3));
        assert_eq!(
            desc("3+.4").selector,
            Selector::TandemOnFile(Tandem::WxfPlus, 3)
        );
        assert_eq!(
            desc("33.4").selector,
            Selector::TandemOnFile(Tandem::Middle, 3)
        );
        assert!(desc("c2.5").deviations.contains(Deviations::LOWER_CASE));
        assert!(desc("C25").deviations.contains(Deviations::NO_DIRECTION));
        assert_eq!(desc("Pa+1").selector, Selector::Tandem(Tandem::Ordinal(1)));
        assert_eq!(desc("E3+5").role, Some(Role::Elephant));
        assert_eq!(desc("B3+5").role, Some(Role::Elephant));
        assert_eq!(desc("N2+3").role, Some(Role::Horse));
    }

    #[test]
    fn coordinates() {
        assert_eq!(
            parse("h2e2"),
            Ok(MoveText::Coordinate("h2e2".parse().unwrap()))
        );
        assert_eq!(parse("H2-E2"), parse("h2e2"));
    }

    #[test]
    fn errors_point_at_the_problem() {
        let err = parse("炮二平十").unwrap_err();
        assert_eq!(err.span, 9..12);
        assert_eq!(err.render().lines().nth(1).unwrap().find('^'), Some(6));
        assert!(parse("").is_err());
        assert!(parse("   ").is_err());
        assert!(parse(&"炮".repeat(100)).is_err());
        assert!(parse("h2e2x").is_err());
        assert!(parse("+-.4").is_err());
    }
}
