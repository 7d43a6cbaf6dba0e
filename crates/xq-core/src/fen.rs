//! FEN: reading and writing positions.
//!
//! # Accepted input
//! - The placement: ten ranks from Black's back rank (rank 9) to Red's (rank 0), separated by `/`;
//!   in each rank, piece letters and digits 1–9 for runs of empty points, nine points in all.
//!   Letters `K A B N R C P`, upper case for Red, lower case for Black; WXF's `E` (elephant) and
//!   `H` (horse) are read too.
//! - The side to move: `w` or `r` for Red, `b` for Black (either case). May be missing (one-field
//!   form), meaning Red.
//! - Then, optionally, the chess fields `-` `-` (castling and en passant, which Xiangqi does not
//!   have; only `-` is accepted) and the halfmove clock (plies since the last capture) and the move
//!   number. So the 1-, 2-, 4- and 6-field forms are read.
//!
//! Leading and trailing whitespace is ignored. Every problem is reported at once, each with the
//! byte span of the text it concerns: syntax problems in the text, and, where a board could be
//! read, every rule the position breaks (see [`Setup::problems`]).
//!
//! # Output
//! Always the 6-field form with the standard letters and `w`/`b`: `… w - - 0 1`.

use std::{fmt, ops::Range};

use crate::{Board, Color, File, Piece, Position, Problem, Rank, Setup, Square};

/// A syntax problem in a FEN, with where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxProblem {
    /// Byte range in the FEN text.
    pub span: Range<usize>,
    /// What is wrong.
    pub kind: SyntaxProblemKind,
}

/// What is wrong with the text of a FEN.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SyntaxProblemKind {
    /// Nothing but whitespace.
    Empty,
    /// The placement does not have ten ranks.
    RankCount {
        /// How many ranks were found.
        found: usize,
    },
    /// A rank does not describe nine points.
    RankWidth {
        /// The rank (ICCS number, 9 = Black's back rank).
        rank: usize,
        /// How many points it describes.
        width: usize,
    },
    /// A character that is neither a piece letter nor a digit 1–9.
    BadChar {
        /// The character.
        ch: char,
    },
    /// The side-to-move field is not `w`, `r` or `b`.
    BadSide,
    /// The castling or en-passant field is not `-`.
    NotADash,
    /// The halfmove clock or move number is not a number.
    BadNumber,
    /// More fields than the six of a FEN.
    TooManyFields,
}

impl fmt::Display for SyntaxProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            SyntaxProblemKind::Empty => f.write_str("the FEN is empty"),
            SyntaxProblemKind::RankCount { found } => write!(
                f,
                "the placement has {found} rank{}; a Xiangqi FEN has 10, separated by /",
                if *found == 1 { "" } else { "s" }
            ),
            SyntaxProblemKind::RankWidth { rank, width } => write!(
                f,
                "rank {rank} describes {width} point{}; every rank has 9 (letters count 1, digits their value)",
                if *width == 1 { "" } else { "s" }
            ),
            SyntaxProblemKind::BadChar { ch } => write!(
                f,
                "`{ch}` is not a piece letter or a digit 1–9; use K A B N R C P (also E, H), upper case for Red, lower case for Black"
            ),
            SyntaxProblemKind::BadSide => {
                f.write_str("the side to move must be w (or r) for Red or b for Black")
            }
            SyntaxProblemKind::NotADash => {
                f.write_str("Xiangqi has no castling or en passant: these FEN fields must be -")
            }
            SyntaxProblemKind::BadNumber => {
                f.write_str("the halfmove clock and the move number must be whole numbers")
            }
            SyntaxProblemKind::TooManyFields => {
                f.write_str("unexpected text after the six FEN fields")
            }
        }
    }
}

/// The text is not a FEN (syntax only; see [`FenError`] for the position's rules as well).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseFenError {
    /// Every problem found, in text order.
    pub problems: Vec<SyntaxProblem>,
}

impl fmt::Display for ParseFenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("invalid FEN")?;
        for (i, p) in self.problems.iter().enumerate() {
            write!(
                f,
                "{}{p} (at bytes {}..{})",
                if i == 0 { ": " } else { "; " },
                p.span.start,
                p.span.end
            )?;
        }
        Ok(())
    }
}

impl std::error::Error for ParseFenError {}

/// A FEN that is not a legal position: its syntax problems and the rules its position breaks,
/// all at once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenError {
    /// Problems with the text.
    pub syntax: Vec<SyntaxProblem>,
    /// Rules the position breaks (checked as far as the text could be read: piece counts always,
    /// the rest only when the placement has the right shape).
    pub position: Vec<Problem>,
}

/// How many problems of a FEN are reported.
pub const REPORTED: usize = 20;

/// How long a reported problem (or echoed text) may be, in characters.
pub const REPORTED_LEN: usize = 200;

/// `text` cut to `max` characters, with `…` if it was longer.
pub fn cut(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_owned(),
    }
}

impl FenError {
    /// Whether every problem is one that [`Problem::is_fatal`] calls implausible, so that the
    /// position can still be played.
    pub fn is_only_implausible(&self) -> bool {
        self.syntax.is_empty() && !self.position.iter().any(Problem::is_fatal)
    }

    /// The problems as sentences, syntax first: the first [`REPORTED`], each cut to
    /// [`REPORTED_LEN`] characters, then how many more there are (a 20 KB FEN of bad characters
    /// makes a message of a few lines, not one per character).
    pub fn messages(&self) -> Vec<String> {
        let all = self.syntax.len() + self.position.len();
        let mut out: Vec<String> = self
            .syntax
            .iter()
            .map(ToString::to_string)
            .chain(self.position.iter().map(ToString::to_string))
            .take(REPORTED)
            .map(|m| cut(&m, REPORTED_LEN))
            .collect();
        if all > REPORTED {
            out.push(format!("and {} more problems", all - REPORTED));
        }
        out
    }
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("invalid FEN")?;
        for (i, message) in self.messages().iter().enumerate() {
            write!(f, "{}{message}", if i == 0 { ": " } else { "; " })?;
        }
        Ok(())
    }
}

impl std::error::Error for FenError {}

/// Reads as much of `text` as possible, collecting every syntax problem, and says whether the
/// placement had the right shape.
fn read(text: &str) -> (Setup, Vec<SyntaxProblem>, bool) {
    let mut setup = Setup::empty();
    let mut problems = Vec::new();
    let problem = |span: Range<usize>, kind| SyntaxProblem { span, kind };

    let fields: Vec<(usize, &str)> = split_fields(text);
    let Some(&(board_start, board_text)) = fields.first() else {
        problems.push(problem(0..text.len(), SyntaxProblemKind::Empty));
        return (setup, problems, false);
    };

    let mut shape_ok = true;
    let ranks: Vec<(usize, &str)> = {
        let mut out = Vec::new();
        let mut start = 0;
        for (i, b) in board_text.bytes().enumerate() {
            if b == b'/' {
                out.push((board_start + start, &board_text[start..i]));
                start = i + 1;
            }
        }
        out.push((board_start + start, &board_text[start..]));
        out
    };
    if ranks.len() != 10 {
        shape_ok = false;
        problems.push(problem(
            board_start..board_start + board_text.len(),
            SyntaxProblemKind::RankCount { found: ranks.len() },
        ));
    }
    let mut board = Board::empty();
    for (i, &(start, rank_text)) in ranks.iter().enumerate().take(10) {
        let rank = 9 - i;
        let mut width = 0usize;
        for (offset, ch) in rank_text.char_indices() {
            let at = start + offset;
            if let Some(d) = ch.to_digit(10).filter(|d| (1..=9).contains(d)) {
                width += d as usize;
            } else if let Some(piece) = Piece::from_fen_char(ch) {
                // Beyond the ninth point the rank is too wide (reported below); drop the piece.
                if let (Some(file), Some(rank)) =
                    (File::try_new(width as u32), Rank::try_new(rank as u32))
                {
                    board.put(Square::new(file, rank), piece);
                }
                width += 1;
            } else {
                shape_ok = false;
                problems.push(problem(
                    at..at + ch.len_utf8(),
                    SyntaxProblemKind::BadChar { ch },
                ));
            }
        }
        if width != 9 {
            shape_ok = false;
            problems.push(problem(
                start..start + rank_text.len(),
                SyntaxProblemKind::RankWidth { rank, width },
            ));
        }
    }
    setup.board = board;

    let mut rest = fields[1..].iter().copied();
    if let Some((start, side)) = rest.next() {
        let mut chars = side.chars();
        match (chars.next().and_then(Color::from_fen_char), chars.next()) {
            (Some(color), None) => setup.turn = color,
            _ => problems.push(problem(
                start..start + side.len(),
                SyntaxProblemKind::BadSide,
            )),
        }
    }
    let remaining: Vec<(usize, &str)> = rest.collect();
    // Optional "- -", then optional halfmove and move number.
    let mut i = 0;
    while i < remaining.len() && i < 2 && !remaining[i].1.bytes().all(|b| b.is_ascii_digit()) {
        let (start, field) = remaining[i];
        if field != "-" {
            problems.push(problem(
                start..start + field.len(),
                SyntaxProblemKind::NotADash,
            ));
        }
        i += 1;
    }
    let mut numbers = Vec::new();
    for &(start, field) in &remaining[i..] {
        if numbers.len() == 2 {
            problems.push(problem(
                start..text.trim_end().len(),
                SyntaxProblemKind::TooManyFields,
            ));
            break;
        }
        // (Digits only: the standard library's parse also takes a leading `+`.)
        let digits = field.bytes().all(|b| b.is_ascii_digit());
        match field.parse::<u32>() {
            Ok(n) if digits => numbers.push(n),
            // A whole number beyond the counters' range: they saturate (a counter is no part of
            // the position's play; refusing it lost the game's every move).
            Err(e) if digits && *e.kind() == std::num::IntErrorKind::PosOverflow => {
                numbers.push(u32::MAX);
            }
            _ => {
                problems.push(problem(
                    start..start + field.len(),
                    SyntaxProblemKind::BadNumber,
                ));
                numbers.push(0);
            }
        }
    }
    if let Some(&h) = numbers.first() {
        setup.halfmoves = h;
    }
    if let Some(&n) = numbers.get(1) {
        setup.fullmoves = n.max(1);
    }
    (setup, problems, shape_ok)
}

/// The 6-field FEN text.
pub(crate) fn six_fields(board: &Board, turn: Color, halfmoves: u32, fullmoves: u32) -> String {
    format!(
        "{} {} - - {halfmoves} {fullmoves}",
        board.board_fen(),
        turn.fen_char()
    )
}

fn split_fields(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, ch) in text.char_indices() {
        if ch.is_whitespace() {
            if let Some(s) = start.take() {
                out.push((s, &text[s..i]));
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        out.push((s, &text[s..]));
    }
    out
}

impl Setup {
    /// Reads a FEN without checking the rules of the position.
    ///
    /// # Errors
    /// Every syntax problem, with its byte span.
    pub fn from_fen(text: &str) -> Result<Setup, ParseFenError> {
        let (setup, problems, _) = read(text);
        if problems.is_empty() {
            Ok(setup)
        } else {
            Err(ParseFenError { problems })
        }
    }

    /// The 6-field FEN of this setup.
    pub fn to_fen(&self) -> String {
        six_fields(&self.board, self.turn, self.halfmoves, self.fullmoves)
    }
}

impl Position {
    /// Reads a FEN and validates the position.
    ///
    /// # Errors
    /// Every problem at once: syntax problems with their spans, and every rule the position
    /// breaks. If only implausible problems were found ([`FenError::is_only_implausible`]),
    /// [`Position::from_fen_lenient`] accepts the position.
    pub fn from_fen(text: &str) -> Result<Position, FenError> {
        let (setup, syntax, shape_ok) = read(text);
        let position: Vec<Problem> = if shape_ok {
            setup.problems()
        } else {
            // Geometry is unreliable when ranks are missing or too wide; piece counts still help.
            setup
                .problems()
                .into_iter()
                .filter(|p| {
                    matches!(
                        p,
                        Problem::MissingKing { .. }
                            | Problem::TooManyKings { .. }
                            | Problem::TooMany { .. }
                    )
                })
                .collect()
        };
        if syntax.is_empty() && position.is_empty() {
            Ok(Position::from_setup_unchecked(setup))
        } else {
            Err(FenError { syntax, position })
        }
    }

    /// Reads a FEN, accepting positions that break only the plausibility rules (more pieces of a
    /// kind than a side has, pieces on points they can never reach): composed problems and some
    /// archives contain them, and the rules of play still apply.
    ///
    /// # Errors
    /// As [`Position::from_fen`], when a syntax problem or a fatal problem is found.
    pub fn from_fen_lenient(text: &str) -> Result<Position, FenError> {
        match Position::from_fen(text) {
            Ok(pos) => Ok(pos),
            Err(err) if err.is_only_implausible() => {
                let (setup, _, _) = read(text);
                Ok(Position::from_setup_unchecked(setup))
            }
            Err(err) => Err(err),
        }
    }
}

/// The FEN of the standard starting position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

#[cfg(test)]
mod tests {
    use crate::{Move, Square};

    #[test]
    fn move_counters_never_wrap() {
        let pos = Position::from_fen(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 4294967295 4294967295",
        )
        .unwrap();
        let after = pos.play(Move::new(Square::H7, Square::E7)).unwrap();
        // Not 0: under the first-25-rounds rule that would be a different ruling.
        assert_eq!(after.fullmoves(), u32::MAX);
        assert_eq!(after.halfmoves(), u32::MAX);
        // Given beyond the range, they saturate too: a whole number, however large, is one.
        let board = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - -";
        let pos = Position::from_fen(&format!("{board} 4294967296 99999999999999999999")).unwrap();
        assert_eq!((pos.halfmoves(), pos.fullmoves()), (u32::MAX, u32::MAX));
        for bad in ["-1", "1.5", "x", "0x10", "+5", "+99999999999"] {
            assert!(
                Position::from_fen(&format!("{board} {bad} 1")).is_err(),
                "{bad}"
            );
        }
    }

    use super::*;
    use crate::Role;

    #[test]
    fn start_position_round_trips() {
        let pos = Position::from_fen(START_FEN).unwrap();
        assert_eq!(pos.fen(), START_FEN);
        assert_eq!(pos, Position::new());
    }

    #[test]
    fn short_and_variant_forms() {
        let two =
            Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w")
                .unwrap();
        assert_eq!(two.fen(), START_FEN);
        let one = Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR")
            .unwrap();
        assert_eq!(one.turn(), Color::Red);
        let red_r =
            Position::from_fen("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r")
                .unwrap();
        assert_eq!(red_r.fen(), START_FEN);
        let four = Position::from_fen(
            "  rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b 3 7 ",
        )
        .unwrap();
        assert_eq!(four.turn(), Color::Black);
        assert_eq!(four.halfmoves(), 3);
        assert_eq!(four.fullmoves(), 7);
    }

    #[test]
    fn every_problem_at_once() {
        // Rank 9 too short, a bad letter, a bad side, and both kings missing.
        let err =
            Position::from_fen("rnba1abn/9/1c5c1/p1p1p1p1p/9/9/P1P1P1X1P/1C5C1/9/RNBA1ABNR x")
                .unwrap_err();
        let kinds: Vec<_> = err.syntax.iter().map(|p| p.kind.clone()).collect();
        assert!(kinds.contains(&SyntaxProblemKind::RankWidth { rank: 9, width: 8 }));
        assert!(kinds.contains(&SyntaxProblemKind::BadChar { ch: 'X' }));
        assert!(kinds.contains(&SyntaxProblemKind::BadSide));
        assert!(
            err.position
                .contains(&Problem::MissingKing { color: Color::Red })
        );
        assert!(err.position.contains(&Problem::MissingKing {
            color: Color::Black
        }));
        let bad = err
            .syntax
            .iter()
            .find(|p| p.kind == SyntaxProblemKind::BadChar { ch: 'X' })
            .unwrap();
        assert_eq!(bad.span, 37..38);
    }

    #[test]
    fn rank_count() {
        let err = Position::from_fen("4k4/9/9/9/9/9/9/9/4K4 w").unwrap_err();
        assert_eq!(
            err.syntax[0].kind,
            SyntaxProblemKind::RankCount { found: 9 }
        );
    }

    #[test]
    fn rule_problems() {
        // Kings facing, red advisor off the diagonal, elephant across the river, pawn behind its
        // rank, six pawns, and Black (not to move) in check from a rook.
        let err = Position::from_fen("4k4/9/4R4/2B6/9/9/P1P1P1P1P/9/P3A4/4K4 w").unwrap_err();
        assert!(err.syntax.is_empty());
        let p = &err.position;
        assert!(p.contains(&Problem::Unreachable {
            piece: Piece::new(Color::Red, Role::Elephant),
            square: Square::C6
        }));
        assert!(!p.contains(&Problem::Unreachable {
            piece: Piece::new(Color::Red, Role::Advisor),
            square: Square::E1
        }));
        assert!(p.contains(&Problem::Unreachable {
            piece: Piece::new(Color::Red, Role::Pawn),
            square: Square::A1
        }));
        assert!(p.contains(&Problem::TooMany {
            piece: Piece::new(Color::Red, Role::Pawn),
            count: 6,
            max: 5
        }));
        assert!(p.contains(&Problem::OpponentInCheck {
            color: Color::Black
        }));
        let facing = Position::from_fen("4k4/9/9/9/9/9/9/9/9/4K4 w").unwrap_err();
        assert_eq!(
            facing.position,
            vec![Problem::KingsFacing {
                red: Square::E0,
                black: Square::E9
            }]
        );
        let outside = Position::from_fen("4k4/9/9/9/9/9/4K4/9/9/9 w").unwrap_err();
        assert!(outside.position.contains(&Problem::KingOutsidePalace {
            color: Color::Red,
            square: Square::E3
        }));
    }

    #[test]
    fn lenient_accepts_implausible_only() {
        let fen = "3k5/9/9/9/9/9/9/9/3A5/4K4 w"; // advisor on d1, off the diagonals
        let err = Position::from_fen(fen).unwrap_err();
        assert!(err.is_only_implausible());
        assert!(Position::from_fen_lenient(fen).is_ok());
        assert!(Position::from_fen_lenient("9/9/9/9/9/9/9/9/9/4K4 w").is_err());
    }

    #[test]
    fn never_panics_on_odd_text() {
        for text in [
            "",
            " ",
            "/",
            "//////////",
            "99999999999/",
            "kkkkkkkkkkkkkkkkk",
            "4k4/9/9/9/9/9/9/9/9/4K4 w - - x y z",
            "中国象棋",
            "4k4/9/9/9/9/9/9/9/9/3K5 w 99999999999999",
        ] {
            let _ = Position::from_fen(text);
            let _ = Position::from_fen_lenient(text);
        }
    }
}
