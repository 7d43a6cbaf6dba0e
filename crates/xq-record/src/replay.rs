//! Replaying every line of a game: resolving text moves, checking legality, the start position
//! and the result.

use std::ops::Range;

use serde::Serialize;
use xq_core::{Color, EndReason, Move, Position};
use xq_notation::{Mode, MoveText, NotationError, Ranks, Reader};

use crate::game::{Game, Node, Outcome};

/// What is wrong with a move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveErrorKind {
    /// The text is not a move in any notation.
    Unreadable,
    /// No piece can make the move described (no such piece, or it cannot go there).
    NoMatch,
    /// Several legal moves fit the text.
    Ambiguous,
    /// The move breaks a rule of play (own king left in check, kings facing).
    Illegal,
    /// The move reads, but not in standard notation (strict mode only).
    NotStandard,
}

impl MoveErrorKind {
    /// The machine name.
    pub const fn name(self) -> &'static str {
        match self {
            MoveErrorKind::Unreadable => "unreadable",
            MoveErrorKind::NoMatch => "no_match",
            MoveErrorKind::Ambiguous => "ambiguous",
            MoveErrorKind::Illegal => "illegal",
            MoveErrorKind::NotStandard => "not_standard",
        }
    }
}

/// The first bad move of a line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveError {
    /// The ply (1-based from the start position) of the bad move.
    pub ply: usize,
    /// What is wrong.
    pub kind: MoveErrorKind,
    /// The move as the record writes it.
    #[serde(rename = "move")]
    pub text: String,
    /// Why, in words.
    pub message: String,
    /// The position before the move.
    pub fen: String,
    /// The line of the source file, for text records.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_line: Option<u32>,
    /// Where the move's text starts in the file (see [`Node::source_offset`]).
    #[serde(skip)]
    pub source_offset: Option<usize>,
    /// Which line of the tree: empty for the main line; otherwise, at each level, the ply of the
    /// move the variation replaces and the variation's index among that move's alternatives.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub variation: Vec<(usize, usize)>,
}

/// What replaying a game found.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Replay {
    /// Moves in the main line that replayed.
    pub plies: usize,
    /// Lines in the tree (the main line and every variation).
    pub lines: usize,
    /// The start position cannot be played (or could not be read): why, and where in the FEN.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bad_start: Option<BadStart>,
    /// Problems of the start position that do not stop play (a piece on a point it can never
    /// reach, more pieces of a kind than a side has).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub implausible_start: Vec<String>,
    /// The first bad move of each line that has one, the main line first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<MoveError>,
    /// The Result tag contradicts how the main line ends on the board.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result_mismatch: Option<String>,
    /// The side to move was taken from the first move, not the FEN.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub side_from_first_move: bool,
    /// Moves given both as text and as coordinates that disagree, in words (the text is read).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub contradictions: Vec<String>,
    /// The first move is written as the other side's would be (Chinese notation's numerals),
    /// yet the FEN's side to move can play it, and it was read as that side's: the FEN's side
    /// may be wrong.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub first_move_written_for_the_other_side: bool,
    /// The coordinate moves were read as UCI's, ranks 1–10 (see [`coordinate_ranks`]).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub uci: bool,
    /// They were read as UCI's only because, read as ICCS's, they replay less far: no rank 10
    /// says so (worth a word to the person checking the game).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub uci_by_replay: bool,
}

impl Replay {
    /// Whether every line replays and the start position is legal.
    pub fn ok(&self) -> bool {
        self.bad_start.is_none() && self.errors.is_empty() && self.result_mismatch.is_none()
    }
}

/// A game's start position that cannot be played: why, and where in its FEN.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct BadStart {
    /// Why, in words: every problem of the FEN.
    pub message: String,
    /// The byte range in the game's FEN ([`Game::fen`]) of the first problem of its text;
    /// `None` when the text reads and the position breaks the rules (two kings, a king out of
    /// its palace …): then the whole FEN is at fault. [`Game::fen_offset`] says where the FEN
    /// is in the file.
    pub span: Option<Range<usize>>,
}

/// Serialised as its message (as when it was a string).
impl Serialize for BadStart {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.message)
    }
}

/// The start position of a game (its FEN, or the standard one).
///
/// # Errors
/// Why the FEN is not a playable position, and where; positions that are only implausible are
/// accepted, and their problems returned beside it.
pub fn start_position(game: &Game) -> Result<(Position, Vec<String>), BadStart> {
    let Some(fen) = game.fen.as_deref() else {
        return Ok((Position::new(), Vec::new()));
    };
    // Most records write the standard start out in full: no need to read it (a test checks
    // that reading it gives the same position).
    if fen == xq_core::START_FEN {
        return Ok((Position::new(), Vec::new()));
    }
    match Position::from_fen(fen) {
        Ok(pos) => Ok((pos, Vec::new())),
        Err(err) => match Position::from_fen_lenient(fen) {
            Ok(pos) => Ok((pos, err.messages())),
            Err(err) => Err(BadStart {
                message: format!(
                    "the start position cannot be played: {}",
                    err.messages().join("; ")
                ),
                span: err.syntax.first().map(|p| p.span.clone()),
            }),
        },
    }
}

/// Replays every line of `game`, filling in the coordinates of text moves that resolve.
///
/// Coordinate moves (`h2e2`) are ICCS's, ranks 0–9, or UCI's of Fairy-Stockfish, ranks 1–10:
/// decided once for the whole game (see [`coordinate_ranks`]), never move by move; UCI's when
/// the game's `Format` tag says so ([`told_uci`]).
pub fn replay(game: &mut Game, reader: &mut Reader) -> Replay {
    if told_uci(game, reader) {
        let previous = reader.set_ranks(Ranks::Uci);
        let mut report = replay_with(game, reader);
        report.uci = true;
        reader.set_ranks(previous);
        return report;
    }
    let previous = reader.set_ranks(Ranks::Iccs);
    let mut report = replay_with(game, reader);
    if !report.errors.is_empty() {
        let ranks = coordinate_ranks(&game.moves, reader);
        if ranks != Some(Ranks::Iccs) && ranks != Some(Ranks::Auto) {
            let mut uci = game.clone();
            forget_text_moves(&mut uci.moves);
            reader.set_ranks(Ranks::Uci);
            let uci_report = replay_with(&mut uci, reader);
            let further = (uci_report.plies, std::cmp::Reverse(uci_report.errors.len()))
                > (report.plies, std::cmp::Reverse(report.errors.len()));
            if ranks == Some(Ranks::Uci) || further {
                *game = uci;
                report = uci_report;
                report.uci = true;
                report.uci_by_replay = ranks.is_none();
            }
        }
    }
    reader.set_ranks(previous);
    report
}

/// What the coordinate moves of a game (every line) say of their ranks: `Uci` when one has a
/// rank 10 (only UCI counts 1–10), `Iccs` when one has a rank 0 (only ICCS counts 0–9), `None`
/// when they could be either, `Auto` when the game has none. [`replay`] reads a game as ICCS,
/// and as UCI when this says `Uci`, or says `None` and UCI replays the main line further than
/// ICCS (then ICCS had failed: no UCI game starts with legal ICCS moves for long).
pub fn coordinate_ranks(line: &[Node], reader: &mut Reader) -> Option<Ranks> {
    fn visit(line: &[Node], reader: &mut Reader, found: &mut (bool, bool, bool)) {
        for node in line {
            // Only a token that starts with a file letter can be a coordinate move (ICCS's or
            // UCI's): the others (Chinese, WXF, SAN) are not read here.
            let coordinates = node
                .text
                .as_deref()
                .filter(|t| matches!(t.as_bytes().first(), Some(b'a'..=b'i' | b'A'..=b'I')));
            match coordinates.map(|t| reader.parse(t)) {
                Some(Ok(MoveText::Uci(_))) => found.0 = true,
                Some(Ok(MoveText::Coordinate(m))) => {
                    found.2 = true;
                    if m.from.rank().index() == 0 || m.to.rank().index() == 0 {
                        found.1 = true;
                    }
                }
                _ => {}
            }
            for v in node.variations() {
                visit(v, reader, found);
            }
        }
    }
    // (a rank 10, a rank 0, a coordinate move)
    let mut found = (false, false, false);
    visit(line, reader, &mut found);
    match found {
        (true, _, _) => Some(Ranks::Uci),
        (false, true, _) => Some(Ranks::Iccs),
        (false, false, true) => None,
        (false, false, false) => Some(Ranks::Auto),
    }
}

/// Whether `game`'s `Format` tag says its coordinate moves are UCI's (ranks 1–10), as xq's PGN
/// writer says of the UCI moves it writes: UCI moves that name no rank 10 read as ICCS too
/// (another game), and only the tag can tell them apart. Taken only when the moves cannot tell
/// (a rank 10 is UCI's whatever the tag, a rank 0 ICCS's).
pub fn told_uci(game: &Game, reader: &mut Reader) -> bool {
    game.tag("Format")
        .is_some_and(|f| f.trim().eq_ignore_ascii_case("UCI"))
        && coordinate_ranks(&game.moves, reader).is_none()
}

/// The ranks `game`'s coordinate moves are read with, as [`replay`] decides them.
pub fn game_ranks(game: &Game, reader: &mut Reader) -> Ranks {
    if told_uci(game, reader) {
        return Ranks::Uci;
    }
    let previous = reader.ranks();
    // `replay` tries UCI only when the coordinates have a rank 10 or could be either: only then
    // is the game replayed to see (an ICCS game, one with a rank 0, is not replayed twice).
    let uci = matches!(
        coordinate_ranks(&game.moves, reader),
        Some(Ranks::Uci) | None
    ) && replay(&mut game.clone(), reader).uci;
    reader.set_ranks(previous);
    if uci { Ranks::Uci } else { Ranks::Iccs }
}

/// Clears the coordinates found for text moves (to replay them read another way).
fn forget_text_moves(line: &mut [Node]) {
    for node in line {
        if node.text.is_some() {
            node.m = None;
        }
        for v in node.variations_mut() {
            forget_text_moves(v);
        }
    }
}

fn replay_with(game: &mut Game, reader: &mut Reader) -> Replay {
    let mut report = Replay::default();
    let (mut start, implausible) = match start_position(game) {
        Ok(found) => found,
        Err(why) => {
            report.bad_start = Some(why);
            return report;
        }
    };
    report.implausible_start = implausible;
    // Archives sometimes give the wrong side to move: if the first move only fits the other
    // side, take the side from it (as xqbase does for XQF).
    if let Some(first) = game.moves.first() {
        if resolve(first, &start, reader).is_err() {
            if let Some(flipped) = other_side_to_move(&start)
                && resolve(first, &flipped, reader).is_ok()
            {
                start = flipped;
                report.side_from_first_move = true;
            }
        } else {
            report.first_move_written_for_the_other_side =
                first_written_for_the_other_side(game, &start, reader);
        }
    }
    let end = walk(
        &mut game.moves,
        start,
        0,
        &mut Vec::new(),
        reader,
        &mut report,
    );
    // The main line's bad move first (the walk meets a move's alternatives before the move),
    // then the variations', in the order the walk meets them.
    report.errors.sort_by_key(|e| !e.variation.is_empty());
    report.plies = end.as_ref().map_or(report.plies, |(plies, _)| *plies);
    if let Some((_, last)) = end {
        report.result_mismatch = result_mismatch(game, &last);
    }
    report
}

/// What is said of a move given as text that reads as `read` and as coordinates `given`.
#[cold]
#[inline(never)]
fn contradiction(
    ply: usize,
    path: &[(usize, usize)],
    node: &Node,
    given: Move,
    read: Move,
) -> String {
    format!(
        "ply {ply}{}: the record gives the move as {} and as {given}: {read}, what the text says, is read",
        variation_words(path),
        node.text.as_deref().unwrap_or_default()
    )
}

/// ` (in alternative 1 to ply 3)` for a variation's path, nothing for the main line.
pub fn variation_words(path: &[(usize, usize)]) -> String {
    if path.is_empty() {
        return String::new();
    }
    format!(" (in {})", variation_path(path))
}

/// A variation's path in words, `alternative 1 to ply 3 > alternative 2 to ply 4` (each level:
/// the ply it replaces and its index there, as [`MoveError::variation`] holds them); empty for
/// the main line.
pub fn variation_path(path: &[(usize, usize)]) -> String {
    let steps: Vec<String> = path
        .iter()
        .map(|(ply, i)| format!("alternative {} to ply {ply}", i + 1))
        .collect();
    steps.join(" > ")
}

/// Whether `node`, a move the side to move in `pos` can play as its text is read leniently, is
/// written as the other side's would be: in Chinese notation, with the other side's numerals
/// (digits are Black's, 一…九 Red's), so that read strictly it fits only the other side. (Piece
/// names tell no side: strict reading takes 将 and 帅 alike, as a king.)
#[cold]
#[inline(never)]
fn written_for_the_other_side(node: &Node, pos: &Position, reader: &mut Reader) -> bool {
    let Some(Ok(MoveText::Descriptive(text))) = node.text.as_deref().map(|t| reader.parse(t))
    else {
        return false;
    };
    // (Most records write the side to move's numerals: then strict reading refuses the text
    // for the other side whatever the position, and neither position need be read.)
    !text.refused_strictly_for(pos.turn().other())
        && text.resolve(pos, Mode::Strict).is_err()
        && other_side_to_move(pos)
            .is_some_and(|flipped| text.resolve(&flipped, Mode::Strict).is_ok())
}

/// Whether the first move of `game` (from `start`, where it replays as read leniently) is
/// written as the other side's (see [`written_for_the_other_side`]). With a FEN, the first move
/// alone says so; without one, records often write both sides' moves with the same digits
/// (`1. 炮2平5 马8进7`), so the numerals tell the sides only when the second move is written as
/// its other side's too: the record follows the convention, one ply off (`1... 马８进７ 2. 马二进三`).
#[cold]
#[inline(never)]
fn first_written_for_the_other_side(game: &Game, start: &Position, reader: &mut Reader) -> bool {
    let Some(first) = game.moves.first() else {
        return false;
    };
    if !written_for_the_other_side(first, start, reader) {
        return false;
    }
    if game.fen.is_some() {
        return true;
    }
    let (Some(second), Ok(m)) = (game.moves.get(1), resolve(first, start, reader)) else {
        return false;
    };
    let mut after = start.clone();
    after.play_unchecked(m);
    resolve(second, &after, reader).is_ok() && written_for_the_other_side(second, &after, reader)
}

/// `pos` with the other side to move, unless that leaves the side that just moved in check (no
/// legal position).
fn other_side_to_move(pos: &Position) -> Option<Position> {
    let flipped = pos.passed();
    (!flipped.is_king_attacked(flipped.turn().other())).then_some(flipped)
}

#[inline]
fn resolve(
    node: &Node,
    pos: &Position,
    reader: &mut Reader,
) -> Result<Move, (MoveErrorKind, String)> {
    if let Some(text) = node.text.as_deref() {
        return reader.read(text, pos).map_err(text_error);
    }
    let Some(m) = node.m else {
        return Err((
            MoveErrorKind::Unreadable,
            "the record gives no move here".to_owned(),
        ));
    };
    // Said in the rules' own words, as for a move written in coordinates (what stops the
    // piece, which pieces would attack the king).
    MoveText::Coordinate(m)
        .resolve(pos, Mode::Lenient)
        .map_err(|err| {
            match err.kind() {
                // "h2e2 is illegal: …" names the move already.
                "illegal" => (MoveErrorKind::Illegal, err.to_string()),
                _ => (MoveErrorKind::NoMatch, format!("{m}: {err}")),
            }
        })
}

/// A move's text that does not resolve: the kind of error, and the message.
#[cold]
fn text_error(err: NotationError) -> (MoveErrorKind, String) {
    let kind = match &err {
        NotationError::Syntax(_) => MoveErrorKind::Unreadable,
        NotationError::Resolve(e) => match e.kind() {
            "ambiguous" => MoveErrorKind::Ambiguous,
            "illegal" => MoveErrorKind::Illegal,
            "not_strict" => MoveErrorKind::NotStandard,
            _ => MoveErrorKind::NoMatch,
        },
    };
    (kind, err.to_string())
}

/// Replays `line` from `pos` (the position before its first move, ply `first_ply` + 1), then
/// its variations; returns the plies replayed and the final position if the whole line replays.
fn walk(
    line: &mut [Node],
    mut pos: Position,
    first_ply: usize,
    path: &mut Vec<(usize, usize)>,
    reader: &mut Reader,
    report: &mut Replay,
) -> Option<(usize, Position)> {
    report.lines += 1;
    let mut plies = first_ply;
    let mut failed = false;
    for node in line.iter_mut() {
        if failed {
            // Past a bad move the line's positions are unknown: the alternatives to its later
            // moves cannot be replayed (from the last position known they would fail falsely).
            break;
        }
        let ply = plies + 1;
        // The alternatives to this move start from the same position.
        for (i, variation) in node.variations_mut().iter_mut().enumerate() {
            path.push((ply, i));
            walk(variation, pos.clone(), plies, path, reader, report);
            path.pop();
        }
        // A move given both as text and as coordinates (xq's JSON may hold both): the text is
        // read, and a difference said.
        let given = node.text.as_ref().and(node.m);
        match resolve(node, &pos, reader) {
            Ok(m) => {
                if let Some(given) = given.filter(|&g| g != m) {
                    report
                        .contradictions
                        .push(contradiction(ply, path, node, given, m));
                }
                node.m = Some(m);
                pos.play_unchecked(m);
                plies = ply;
            }
            Err((kind, message)) => {
                report.errors.push(MoveError {
                    ply,
                    kind,
                    text: node
                        .text
                        .as_deref()
                        .map(str::to_owned)
                        .or_else(|| node.written().map(str::to_owned))
                        .or_else(|| node.m.map(|m| m.to_string()))
                        .unwrap_or_default(),
                    message,
                    fen: pos.fen(),
                    source_line: node.source_line(),
                    source_offset: node.source_offset(),
                    variation: path.clone(),
                });
                failed = true;
            }
        }
    }
    if path.is_empty() {
        report.plies = plies;
    }
    (!failed).then_some((plies, pos))
}

/// How the Result tag disagrees with a game that ended on the board.
fn result_mismatch(game: &Game, last: &Position) -> Option<String> {
    let end = last.outcome()?;
    let claimed = game.outcome()?;
    let expected = if end.winner == Color::Red {
        Outcome::RedWins
    } else {
        Outcome::BlackWins
    };
    if claimed == expected || claimed == Outcome::Unknown {
        return None;
    }
    let how = match end.reason {
        EndReason::Checkmate => "checkmated (将死)",
        EndReason::Stalemate => "stalemated (困毙)",
    };
    Some(format!(
        "the Result tag says {} but the main line ends with {} {how}: the result should be {}",
        claimed.pgn(),
        end.winner.other(),
        expected.pgn()
    ))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    /// Past a bad move the alternatives to the line's later moves are not replayed from the last
    /// position known (they failed there falsely, under the bad move's ply).
    #[test]
    fn no_alternative_is_replayed_past_a_bad_move() {
        let mut game = crate::pgn::PgnReader::new("1. h2e2 h9g7 2. zz i9h9 (i6i5) 3. h0g2 *")
            .next()
            .unwrap()
            .unwrap();
        let report = replay(&mut game, &mut Reader::new(Mode::Lenient));
        let errors: Vec<(usize, &str)> = report
            .errors
            .iter()
            .map(|e| (e.ply, e.text.as_str()))
            .collect();
        assert_eq!(errors, [(3, "zz")]);
    }

    /// A move given as text and as coordinates that disagree: the text is read, and the
    /// difference said; agreeing ones say nothing.
    #[test]
    fn text_and_coordinates_that_disagree_are_said() {
        let read = |json: &str| {
            let mut game = crate::json::read_json(json).unwrap().remove(0);
            let report = replay(&mut game, &mut Reader::new(Mode::Lenient));
            (
                game.moves[0].m.map(|m| m.to_string()),
                report.contradictions,
            )
        };
        let (m, said) = read(r#"{"moves": [{"text": "炮二平五", "move": "b2e2"}]}"#);
        assert_eq!(m.as_deref(), Some("h2e2"));
        assert_eq!(
            said,
            [
                "ply 1: the record gives the move as 炮二平五 and as b2e2: h2e2, what the text says, is read"
            ]
        );
        let (_, said) = read(r#"{"moves": [{"text": "炮二平五", "move": "h2e2"}]}"#);
        assert!(said.is_empty());
    }

    /// A first move written as the other side's (Black's king and digits with Red to move) is
    /// still read as the side to move's when it can play it, and said; a move written as the
    /// side to move's, or a game from the standard start (no FEN to doubt), says nothing.
    #[test]
    fn a_first_move_written_for_the_other_side_is_said() {
        let said = |text: &str| {
            let mut game = crate::pgn::PgnReader::new(text).next().unwrap().unwrap();
            let report = replay(&mut game, &mut Reader::new(Mode::Lenient));
            assert!(report.ok(), "{text}");
            report.first_move_written_for_the_other_side
        };
        let fen = "[FEN \"4k4/9/9/9/4P4/9/9/9/9/4K4 w - - 0 1\"]\n\n";
        assert!(said(&format!("{fen}1. 将５平４ *")));
        assert!(!said(&format!("{fen}1. 帅五平四 *")));
        assert!(!said("1. 炮2平5 马8进7 *"));
        // Without a FEN: when the second move too is written as its other side's.
        assert!(said("1... 马８进７ 2. 马二进三 *"));
        assert!(said("1... 马8进7 2. 马二进三 *"));
        assert!(!said("1. 马８进７ *"));
        assert!(!said("1. 炮2平5 马８进７ *"));
        assert!(!said("1. 炮二平五 马８进７ *"));
    }

    /// The standard start written out is taken without reading it: the same position as reading
    /// it (placement, side to move, counters and hash) and no warnings.
    #[test]
    fn the_written_standard_start_is_the_standard_position() {
        let read = Position::from_fen(xq_core::START_FEN).unwrap();
        let game = Game {
            fen: Some(xq_core::START_FEN.to_owned()),
            ..Game::default()
        };
        let (pos, warnings) = start_position(&game).unwrap();
        assert_eq!(pos, read);
        assert_eq!(pos.hash(), read.hash());
        assert_eq!(pos.fen(), read.fen());
        assert!(warnings.is_empty());
    }
}
