//! The two notations of Fairy-Stockfish, pychess-variants and online PGNs: UCI coordinates with
//! ranks 1–10 (`h3e3`, `h10h9`; rank 1 is Red's back rank), and the algebraic SAN form (`Che3`,
//! `Hc3`, `Pe6`, `Rxa10+`: a piece letter K A E H R C P, a file or rank to tell two pieces apart,
//! `x` for a capture, the destination, `+` for check and `#` for mate).
//!
//! UCI differs from ICCS/UCCI (`h2e2`, ranks 0–9) only in its ranks, so a token such as `h3e3` is
//! either; [`Ranks`] says which a [`Reader`](crate::Reader) takes. SAN always counts ranks 1–10.

use xq_core::{EndReason, File, Move, Position, Rank, Role, Square};

use crate::{
    resolve::{Mode, ResolveError, illegal_error},
    syntax::SyntaxError,
};

/// How the ranks of coordinate moves (`h2e2`, `h3e3`) are counted.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Ranks {
    /// Token by token (for single moves): 0–9 as ICCS and UCCI count, unless the token has a
    /// rank 10, which only UCI writes.
    #[default]
    Auto,
    /// ICCS and UCCI: 0–9 from Red's back rank; a rank 10 is an error.
    Iccs,
    /// UCI of Fairy-Stockfish and pychess: 1–10 from Red's back rank; a rank 0 is an error.
    Uci,
}

/// A SAN move: `Che3` is a cannon of file h going to e3.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct San {
    /// The piece (a pawn when no letter is written).
    pub role: Role,
    /// The mover's file, when written to tell two pieces apart.
    pub from_file: Option<File>,
    /// The mover's rank, when written to tell two pieces apart.
    pub from_rank: Option<Rank>,
    /// Where the piece goes.
    pub to: Square,
    /// `x` (or `:`) was written.
    pub capture: bool,
    /// `+` was written.
    pub check: bool,
    /// `#` was written.
    pub mate: bool,
}

/// `h3e3` for the move ICCS writes `h2e2`.
pub(crate) fn write_uci(m: Move) -> String {
    let mut out = String::with_capacity(6);
    push_square(&mut out, m.from);
    push_square(&mut out, m.to);
    out
}

fn push_square(out: &mut String, sq: Square) {
    out.push(sq.file().char());
    out.push_str(&(sq.rank().index() + 1).to_string());
}

/// The letter SAN gives a piece (pychess's: K A E H R C P).
fn letter(role: Role) -> char {
    role.wxf_char()
}

/// `m`, a legal move of `pos`, in SAN.
pub(crate) fn write_san(pos: &Position, m: Move) -> String {
    let Some(piece) = pos.piece_at(m.from) else {
        return write_uci(m);
    };
    let mut out = String::with_capacity(8);
    out.push(letter(piece.role));
    let rivals: Vec<Square> = pos
        .legal_moves()
        .iter()
        .filter(|o| {
            o.to == m.to
                && o.from != m.from
                && pos.piece_at(o.from).is_some_and(|p| p.role == piece.role)
        })
        .map(|o| o.from)
        .collect();
    if !rivals.is_empty() {
        if rivals.iter().all(|s| s.file() != m.from.file()) {
            out.push(m.from.file().char());
        } else if rivals.iter().all(|s| s.rank() != m.from.rank()) {
            out.push_str(&(m.from.rank().index() + 1).to_string());
        } else {
            push_square(&mut out, m.from);
        }
    }
    if pos.piece_at(m.to).is_some() {
        out.push('x');
    }
    push_square(&mut out, m.to);
    let mut after = pos.clone();
    after.play_unchecked(m);
    if after
        .outcome()
        .is_some_and(|o| o.reason == EndReason::Checkmate)
    {
        out.push('#');
    } else if after.is_check() {
        out.push('+');
    }
    out
}

/// A rank written as 1–10 at the start of `text`: its value and length in bytes.
fn rank_at(text: &[u8]) -> Option<(u8, usize)> {
    match text {
        [b'1', b'0', ..] => Some((10, 2)),
        [d @ b'1'..=b'9', ..] => Some((d - b'0', 1)),
        _ => None,
    }
}

fn file_at(text: &[u8]) -> Option<File> {
    match text.first()? {
        c @ (b'a'..=b'i' | b'A'..=b'I') => File::from_char(char::from(c.to_ascii_lowercase())),
        _ => None,
    }
}

fn square(file: File, rank: u8) -> Option<Square> {
    Some(Square::new(
        file,
        Rank::try_new(u32::from(rank).checked_sub(1)?)?,
    ))
}

/// A UCI move with ranks 1–10 (`h3e3`, `h10h9`, `H3-E3`), as a move.
pub(crate) fn parse_uci(text: &str) -> Option<Move> {
    let b = text.as_bytes();
    let from_file = file_at(b)?;
    let (from_rank, n) = rank_at(&b[1..])?;
    let mut rest = &b[1 + n..];
    if let [b'-', tail @ ..] = rest {
        rest = tail;
    }
    let to_file = file_at(rest)?;
    let (to_rank, n) = rank_at(&rest[1..])?;
    if rest.len() != 1 + n {
        return None;
    }
    Some(Move::new(
        square(from_file, from_rank)?,
        square(to_file, to_rank)?,
    ))
}

/// A SAN move (`Che3`, `Pe6`, `e6`, `Rxa10+`, `H2c3`, `Nc3`), if `text` is one. Annotation
/// marks (`!`, `?`) at the end are allowed.
pub(crate) fn parse_san(text: &str) -> Option<San> {
    let mut b = text.trim_end_matches(['!', '?']).as_bytes();
    let (mut check, mut mate) = (false, false);
    match b {
        [head @ .., b'#'] => {
            mate = true;
            b = head;
        }
        [head @ .., b'+'] => {
            check = true;
            b = head;
        }
        _ => {}
    }
    let role = match b.first()? {
        b'K' => Some(Role::King),
        b'A' => Some(Role::Advisor),
        b'E' | b'B' => Some(Role::Elephant),
        b'H' | b'N' => Some(Role::Horse),
        b'R' => Some(Role::Rook),
        b'C' => Some(Role::Cannon),
        b'P' => Some(Role::Pawn),
        _ => None,
    };
    if role.is_some() {
        b = &b[1..];
    }
    // What is left: [file][rank][x]file rank. Read it from the end: the destination first.
    let (to_rank_len, to_rank) = match b {
        [.., b'1', b'0'] => (2, 10),
        [.., d @ b'1'..=b'9'] => (1, d - b'0'),
        _ => return None,
    };
    let b_len = b.len().checked_sub(to_rank_len + 1)?;
    let to = square(file_at(&b[b_len..])?, to_rank)?;
    let mut head = &b[..b_len];
    let mut capture = false;
    if let [h @ .., b'x' | b':'] = head {
        capture = true;
        head = h;
    }
    let mut from_file = None;
    let mut from_rank = None;
    if let Some(f) = file_at(head) {
        from_file = Some(f);
        head = &head[1..];
    }
    if let Some((r, n)) = rank_at(head) {
        from_rank = Some(Rank::try_new(u32::from(r) - 1)?);
        head = &head[n..];
    }
    if !head.is_empty() {
        return None;
    }
    // A pawn without its letter must start with a file (`e6`, `dxe6`).
    Some(San {
        role: role.unwrap_or(Role::Pawn),
        from_file,
        from_rank,
        to,
        capture,
        check,
        mate,
    })
}

/// The syntax error of a coordinate token whose ranks do not fit `ranks`, if they do not.
pub(crate) fn rank_error(text: &str, ranks: Ranks) -> Option<SyntaxError> {
    let b = text.as_bytes();
    let digit = |want: &[u8]| {
        b.iter()
            .enumerate()
            .position(|(i, &c)| {
                want.contains(&c)
                    && i > 0
                    && b[i - 1].is_ascii_alphabetic()
                    && (c != b'1' || b.get(i + 1) == Some(&b'0'))
            })
            .map(|i| if b[i] == b'1' { i..i + 2 } else { i..i + 1 })
    };
    match ranks {
        Ranks::Auto => None,
        Ranks::Iccs => digit(b"1").map(|span| {
            SyntaxError::with_span(
                text,
                span,
                vec!["行 a rank 0–9 (this game's coordinates are ICCS: a rank 10 belongs to UCI)"],
            )
        }),
        Ranks::Uci => digit(b"0").map(|span| {
            SyntaxError::with_span(
                text,
                span,
                vec!["行 a rank 1–10 (this game's coordinates are UCI: a rank 0 belongs to ICCS)"],
            )
        }),
    }
}

/// A coordinate move read with ranks 0–9, taken as UCI (one rank lower), if it is on the board.
pub(crate) fn iccs_as_uci(m: Move) -> Option<Move> {
    Some(Move::new(
        m.from.offset(0, -1).filter(|_| m.from.rank().index() > 0)?,
        m.to.offset(0, -1).filter(|_| m.to.rank().index() > 0)?,
    ))
}

impl San {
    /// The move this text means in `pos`.
    ///
    /// # Errors
    /// No piece fits, none can go there, the move is illegal, several fit, or (strict mode) the
    /// `x`, `+` or `#` marks say what the move does not do.
    pub fn resolve(&self, pos: &Position, mode: Mode) -> Result<Move, ResolveError> {
        let us = pos.turn();
        let fits = |sq: Square| {
            pos.piece_at(sq)
                .is_some_and(|p| p.color == us && p.role == self.role)
                && self.from_file.is_none_or(|f| sq.file() == f)
                && self.from_rank.is_none_or(|r| sq.rank() == r)
        };
        let legal: Vec<Move> = pos
            .legal_moves()
            .iter()
            .copied()
            .filter(|m| m.to == self.to && fits(m.from))
            .collect();
        match legal[..] {
            [m] => {
                if mode == Mode::Strict {
                    let standard = write_san(pos, m);
                    let marks =
                        |s: &str| (s.contains(['x', ':']), s.ends_with('+'), s.ends_with('#'));
                    let written = (self.capture, self.check, self.mate);
                    if written != marks(&standard) {
                        return Err(ResolveError::NotStrict {
                            m,
                            reasons: vec![
                                "the capture, check or mate marks (x + #) do not say what the move does"
                                    .to_owned(),
                            ],
                            standard,
                        });
                    }
                }
                Ok(m)
            }
            [] => {
                let pieces: Vec<Square> = (0..90)
                    .map(Square::from_index)
                    .filter(|&s| fits(s))
                    .collect();
                for &from in &pieces {
                    let m = Move::new(from, self.to);
                    if let Err(
                        reason @ (xq_core::IllegalMove::KingInCheck
                        | xq_core::IllegalMove::KingsFacing),
                    ) = pos.check_move(m)
                    {
                        return Err(illegal_error(pos, m, reason));
                    }
                }
                let what = format!(
                    "{} ({})",
                    self.role.name(),
                    xq_core::Piece::new(us, self.role).chinese()
                );
                match pieces.first() {
                    None => Err(ResolveError::NoPiece {
                        message: format!("{} has no {what}{}", us.title(), self.where_words()),
                    }),
                    Some(&from) => Err(ResolveError::CannotReach {
                        from,
                        message: format!(
                            "no {what} of {}{} can go to {} (SAN counts ranks 1–10: ICCS {})",
                            us.title(),
                            self.where_words(),
                            write_square(self.to),
                            self.to
                        ),
                    }),
                }
            }
            _ => Err(ResolveError::Ambiguous {
                suggestions: legal.iter().map(|&m| write_san(pos, m)).collect(),
                candidates: legal,
            }),
        }
    }

    fn where_words(&self) -> String {
        match (self.from_file, self.from_rank) {
            (Some(f), Some(r)) => format!(" on {}{}", f.char(), r.index() + 1),
            (Some(f), None) => format!(" on file {}", f.char()),
            (None, Some(r)) => format!(" on rank {}", r.index() + 1),
            (None, None) => String::new(),
        }
    }
}

/// `e3` for the point ICCS calls e2 (SAN's and UCI's ranks 1–10).
fn write_square(sq: Square) -> String {
    let mut out = String::new();
    push_square(&mut out, sq);
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn uci_ranks_are_one_higher() {
        let m = parse_uci("h3e3").unwrap();
        assert_eq!(m.to_string(), "h2e2");
        assert_eq!(write_uci(m), "h3e3");
        assert_eq!(parse_uci("h10h9").unwrap().to_string(), "h9h8");
        assert_eq!(parse_uci("H10-H9").unwrap().to_string(), "h9h8");
        assert_eq!(parse_uci("h0h1"), None, "no rank 0 in UCI");
        assert_eq!(parse_uci("h11h1"), None);
        assert_eq!(parse_uci("h3e3x"), None);
    }

    #[test]
    fn san_forms() {
        let s = parse_san("Che3").unwrap();
        assert_eq!(
            (s.role, s.from_file, s.to.to_string()),
            (Role::Cannon, File::from_char('h'), "e2".to_owned())
        );
        let s = parse_san("Rxa10+").unwrap();
        assert_eq!(
            (s.role, s.capture, s.check, s.to.to_string()),
            (Role::Rook, true, true, "a9".to_owned())
        );
        let s = parse_san("e6").unwrap();
        assert_eq!((s.role, s.to.to_string()), (Role::Pawn, "e5".to_owned()));
        let s = parse_san("dxe6#").unwrap();
        assert_eq!(
            (s.role, s.from_file, s.capture, s.mate),
            (Role::Pawn, File::from_char('d'), true, true)
        );
        let s = parse_san("R10a8").unwrap();
        assert_eq!(s.from_rank.map(Rank::index), Some(9));
        assert_eq!(parse_san("Nc3").unwrap().role, Role::Horse);
        assert_eq!(parse_san("Xc3"), None);
        assert_eq!(parse_san("Ce0"), None, "no rank 0 in SAN");
        assert_eq!(parse_san("C"), None);
    }

    #[test]
    fn san_from_the_start() {
        let pos = Position::new();
        let m = Move::from_ascii(b"h2e2").unwrap();
        assert_eq!(write_san(&pos, m), "Che3");
        assert_eq!(
            parse_san("Che3").unwrap().resolve(&pos, Mode::Strict),
            Ok(m)
        );
        // Both horses can't reach one point here, but both rooks' files matter later: h0g2.
        let m = Move::from_ascii(b"h0g2").unwrap();
        assert_eq!(write_san(&pos, m), "Hg3");
        // Two cannons can go to e3 (the cannon of b and of h): the file tells them apart.
        let err = parse_san("Ce3")
            .unwrap()
            .resolve(&pos, Mode::Lenient)
            .unwrap_err();
        assert_eq!(err.kind(), "ambiguous");
        assert!(
            err.to_string().contains("Cbe3") && err.to_string().contains("Che3"),
            "{err}"
        );
        // A lying capture mark: read leniently, refused strictly.
        let lying = parse_san("Chxe3").unwrap();
        assert!(lying.resolve(&pos, Mode::Lenient).is_ok());
        assert_eq!(
            lying.resolve(&pos, Mode::Strict).unwrap_err().kind(),
            "not_strict"
        );
        let none = parse_san("Ke5")
            .unwrap()
            .resolve(&pos, Mode::Lenient)
            .unwrap_err();
        assert_eq!(none.kind(), "cannot_reach", "{none}");
    }

    #[test]
    fn rank_errors_point_at_the_rank() {
        let e = rank_error("h10h9", Ranks::Iccs).unwrap();
        assert_eq!(e.span, 1..3);
        let e = rank_error("h0h1", Ranks::Uci).unwrap();
        assert_eq!(e.span, 1..2);
        assert!(rank_error("h3e3", Ranks::Uci).is_none());
        assert!(rank_error("h2e2", Ranks::Iccs).is_none());
    }
}
