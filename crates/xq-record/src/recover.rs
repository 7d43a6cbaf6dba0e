//! Reading a scoresheet the way an arbiter does: a move that is missing or cannot be read is
//! counted, and the line goes on if the moves after it tell what it must have been.
//!
//! For the main line of a game, move by move:
//! - a move that reads and is legal is played;
//! - a move that reads but leaves the mover's own king in check or the kings facing is a
//!   self-kill (自杀): the game ended there, and the line stops;
//! - a placeholder (`?`, `…`, `--` …) is a missing move; a move that cannot be read, or fits no
//!   piece, or fits several, is an unreadable one. Either is reconstructed as the legal move after
//!   which most of the next recorded moves replay — at least the next two (for an unreadable
//!   move: in its place; failing that, as a move missing before it); how many moves fit as well
//!   is reported.
//!   Otherwise the line stops there and every move left counts as unreadable.

use serde::Serialize;
use xq_core::{IllegalMove, Move, Position};
use xq_notation::{
    ChineseStyle, Notation, NotationError, Reader, ResolveError, write as write_move,
};

use crate::{
    game::{Game, Node},
    replay::{BadStart, start_position},
};

/// Why a move of the record is not there as written.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GapKind {
    /// The record leaves the move out (a placeholder, or a move that only fits one ply later).
    Missing,
    /// The record writes something that is not a move here.
    Unreadable,
}

/// A missing or unreadable move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Gap {
    /// Its ply (1-based) in the reconstructed line.
    pub ply: usize,
    /// What the record writes there (nothing for a move left out).
    pub text: Option<String>,
    /// Missing or unreadable.
    pub kind: GapKind,
    /// The move that lets the line go on, if one was found.
    #[serde(serialize_with = "ser_opt_move")]
    pub reconstructed: Option<Move>,
    /// How many legal moves would have let the line go on.
    pub candidates: usize,
}

fn ser_opt_move<S: serde::Serializer>(m: &Option<Move>, s: S) -> Result<S::Ok, S::Error> {
    match m {
        Some(m) => s.collect_str(m),
        None => s.serialize_none(),
    }
}

/// A move that left its own king in check or the kings facing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Illegal {
    /// Its ply (1-based).
    pub ply: usize,
    /// The move.
    #[serde(rename = "move", serialize_with = "ser_move")]
    pub m: Move,
    /// What the record writes.
    pub text: String,
    /// The kings face each other (rather than the king being left in check).
    pub kings_facing: bool,
    /// Recorded moves after it.
    pub moves_after: usize,
}

fn ser_move<S: serde::Serializer>(m: &Move, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(m)
}

/// The main line as an arbiter reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recovered {
    /// The start position (the side to move corrected from the first move if the FEN had it
    /// wrong).
    pub start: Position,
    /// The moves that replay, reconstructed ones included, up to a self-kill (which is not
    /// played) or the first move nothing could be made of.
    pub moves: Vec<Move>,
    /// Missing and unreadable moves, in order.
    pub gaps: Vec<Gap>,
    /// A move that killed its own king, if the line has one.
    pub self_kill: Option<Illegal>,
    /// Recorded moves left unread after the line stopped (each counts as unreadable).
    pub unread: usize,
}

impl Recovered {
    /// Missing and unreadable moves in all (gaps, and every move after the line stopped).
    pub fn missing_or_unreadable(&self) -> usize {
        self.gaps.len() + self.unread
    }
}

/// Texts that stand for a move the scorer did not write.
const PLACEHOLDERS: &[&str] = &[
    "?", "??", "？", "…", "...", "--", "—", "－－", "□", "x", "X",
];

/// Reads the main line of `game`.
///
/// # Errors
/// Why the start position cannot be played.
pub fn recover(game: &Game, reader: &mut Reader) -> Result<Recovered, BadStart> {
    // Coordinates read with the game's ranks (ICCS's 0–9 or UCI's 1–10), as replaying does.
    let ranks = crate::replay::game_ranks(game, reader);
    let previous = reader.set_ranks(ranks);
    let recovered = recover_with(game, reader);
    reader.set_ranks(previous);
    recovered
}

fn recover_with(game: &Game, reader: &mut Reader) -> Result<Recovered, BadStart> {
    let (mut start, _) = start_position(game)?;
    let line = &game.moves;
    // The side to move from the first move, as replay does.
    if let Some(first) = line.first()
        && !fits(first, &start, reader)
    {
        let flipped = start.passed();
        if !flipped.is_king_attacked(flipped.turn().other()) && fits(first, &flipped, reader) {
            start = flipped;
        }
    }
    let mut pos = start.clone();
    let mut out = Recovered {
        start,
        moves: Vec::new(),
        gaps: Vec::new(),
        self_kill: None,
        unread: 0,
    };
    let mut i = 0;
    let mut inserted_before = None;
    while i < line.len() {
        let node = &line[i];
        match read(node, &pos, reader) {
            Read::Move(m) => {
                pos.play_unchecked(m);
                out.moves.push(m);
                i += 1;
                continue;
            }
            Read::SelfKill(m, kings_facing) => {
                out.self_kill = Some(Illegal {
                    ply: out.moves.len() + 1,
                    m,
                    text: text_of(node),
                    kings_facing,
                    moves_after: line.len() - i - 1,
                });
                return Ok(out);
            }
            Read::Nothing => {}
        }
        let placeholder = node
            .text
            .as_deref()
            .is_some_and(|t| PLACEHOLDERS.contains(&t.trim()));
        let kind = if placeholder {
            GapKind::Missing
        } else {
            GapKind::Unreadable
        };
        // In its place: a move that lets the next recorded moves replay.
        let (found, candidates) = bridge(&pos, &line[i + 1..], node.text.as_deref(), reader);
        if let Some(m) = found {
            out.gaps.push(Gap {
                ply: out.moves.len() + 1,
                text: node.text.as_deref().map(xq_notation::shown),
                kind,
                reconstructed: Some(m),
                candidates,
            });
            pos.play_unchecked(m);
            out.moves.push(m);
            i += 1;
            continue;
        }
        // Or a move left out before it: a move after which this one replays (once per move).
        if !placeholder && inserted_before != Some(i) {
            let (found, candidates) = bridge(&pos, &line[i..], None, reader);
            let fits_after = found.is_some_and(|m| {
                let mut after = pos.clone();
                after.play_unchecked(m);
                matches!(read(node, &after, reader), Read::Move(_))
            });
            if let Some(m) = found.filter(|_| fits_after) {
                inserted_before = Some(i);
                out.gaps.push(Gap {
                    ply: out.moves.len() + 1,
                    text: None,
                    kind: GapKind::Missing,
                    reconstructed: Some(m),
                    candidates,
                });
                pos.play_unchecked(m);
                out.moves.push(m);
                continue;
            }
        }
        // Nothing to be made of it: it and everything after it are unreadable.
        out.gaps.push(Gap {
            ply: out.moves.len() + 1,
            text: node.text.as_deref().map(xq_notation::shown),
            kind,
            reconstructed: None,
            candidates: 0,
        });
        out.unread = line.len() - i - 1;
        return Ok(out);
    }
    Ok(out)
}

enum Read {
    Move(Move),
    SelfKill(Move, bool),
    Nothing,
}

fn text_of(node: &Node) -> String {
    node.text
        .as_deref()
        .map(xq_notation::shown)
        .or_else(|| node.m.map(|m| m.to_string()))
        .unwrap_or_default()
}

fn read(node: &Node, pos: &Position, reader: &mut Reader) -> Read {
    let illegal = |m: Move, reason: IllegalMove| match reason {
        IllegalMove::KingInCheck => Read::SelfKill(m, false),
        IllegalMove::KingsFacing => Read::SelfKill(m, true),
        _ => Read::Nothing,
    };
    if let Some(text) = node.text.as_deref() {
        return match reader.read(text, pos) {
            Ok(m) => Read::Move(m),
            Err(NotationError::Resolve(ResolveError::Illegal { m, reason, .. })) => {
                illegal(m, reason)
            }
            Err(_) => Read::Nothing,
        };
    }
    match node.m {
        Some(m) => match pos.check_move(m) {
            Ok(()) => Read::Move(m),
            Err(reason) => illegal(m, reason),
        },
        None => Read::Nothing,
    }
}

fn fits(node: &Node, pos: &Position, reader: &mut Reader) -> bool {
    matches!(read(node, pos, reader), Read::Move(_))
}

/// How many recorded moves after a reconstructed one are replayed to choose it.
const LOOKAHEAD: usize = 8;

/// The legal move in `pos` that best stands for a move the record misses or garbles (`text`, if
/// any): the one after which most of the next recorded moves replay as they are (up to
/// [`LOOKAHEAD`], at least two where there are two), then most with a further bad move bridged,
/// then the one whose notation is closest to `text`; and how many legal moves do as well.
/// Nothing to check against: no bridge.
fn bridge(
    pos: &Position,
    next: &[Node],
    text: Option<&str>,
    reader: &mut Reader,
) -> (Option<Move>, usize) {
    let needed = next.len().min(2);
    if needed == 0 {
        return (None, 0);
    }
    let mut best: Option<((usize, usize, usize), Move)> = None;
    let mut ties = 0;
    for &m in pos.legal_moves().iter() {
        let mut after = pos.clone();
        after.play_unchecked(m);
        let plain = replayable(&after, next, reader, 0);
        let bridged = if plain >= next.len().min(LOOKAHEAD) {
            plain
        } else {
            replayable(&after, next, reader, 1)
        };
        if bridged < needed {
            continue;
        }
        let score = (plain, bridged, text.map_or(0, |t| likeness(pos, m, t)));
        match &best {
            Some((b, _)) if *b > score => {}
            Some((b, _)) if *b == score => ties += 1,
            _ => {
                best = Some((score, m));
                ties = 1;
            }
        }
    }
    (best.map(|(_, m)| m), ties)
}

/// How many characters `text` shares, place by place, with `m` written in Chinese or WXF (digits
/// and the common traditional characters folded).
fn likeness(pos: &Position, m: Move, text: &str) -> usize {
    fn fold(s: &str) -> Vec<char> {
        s.chars()
            .map(|c| match c {
                '０'..='９' => char::from_u32(c as u32 - '０' as u32 + '0' as u32).unwrap_or(c),
                '車' | '俥' => '车',
                '馬' | '傌' => '马',
                '砲' | '包' => '炮',
                '進' => '进',
                '帥' => '帅',
                '將' => '将',
                '後' => '后',
                '相' => '象',
                '仕' => '士',
                '兵' => '卒',
                c => c.to_ascii_uppercase(),
            })
            .collect()
    }
    let text = fold(text);
    [
        Notation::Chinese(ChineseStyle {
            ascii_digits: true,
            ..ChineseStyle::default()
        }),
        Notation::Wxf,
    ]
    .into_iter()
    .map(|n| {
        let written = fold(&write_move(pos, m, n));
        text.iter().zip(&written).filter(|(a, b)| a == b).count()
    })
    .max()
    .unwrap_or(0)
}

/// How many of `nodes` (at most [`LOOKAHEAD`]) replay from `pos`, a move that does not read
/// bridged by the best legal move while `spare` bridges remain.
fn replayable(pos: &Position, nodes: &[Node], reader: &mut Reader, spare: usize) -> usize {
    let mut pos = pos.clone();
    for (k, node) in nodes.iter().enumerate().take(LOOKAHEAD) {
        if let Read::Move(m) = read(node, &pos, reader) {
            pos.play_unchecked(m);
            continue;
        }
        if spare == 0 {
            return k;
        }
        let rest = &nodes[k + 1..];
        let mut best = 0;
        for &m in pos.legal_moves().iter() {
            let mut after = pos.clone();
            after.play_unchecked(m);
            best = best.max(replayable(&after, rest, reader, spare - 1));
        }
        return (k + 1 + best).min(LOOKAHEAD);
    }
    nodes.len().min(LOOKAHEAD)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use xq_notation::Mode;

    use super::*;
    use crate::format::{ReadOptions, read};

    fn recovered(pgn: &str) -> Recovered {
        let records = read(pgn.as_bytes(), Some("pgn"), ReadOptions::default()).unwrap();
        let game = records.games.into_iter().next().unwrap().unwrap();
        recover(&game, &mut Reader::new(Mode::Lenient)).unwrap()
    }

    #[test]
    fn a_left_out_and_a_garbled_move_are_reconstructed() {
        let r = recovered(
            "1. 炮二平五 马８进７ 2. 马二进三 车９平８ 3. -- 马２进３ 4. 兵七进一 卒7进X 5. 车二进六 炮８平９ *",
        );
        assert_eq!(r.moves.len(), 10);
        assert_eq!(r.missing_or_unreadable(), 2);
        let fixes: Vec<(usize, GapKind, String)> = r
            .gaps
            .iter()
            .map(|g| (g.ply, g.kind, g.reconstructed.unwrap().to_string()))
            .collect();
        assert_eq!(
            fixes,
            [
                (5, GapKind::Missing, "i0h0".to_owned()),
                (8, GapKind::Unreadable, "g6g5".to_owned())
            ]
        );
    }

    #[test]
    fn a_move_missing_without_a_placeholder_is_found_before_the_next() {
        // Black's reply to h2e2 is not written: h0g2 is Red's second move.
        let r = recovered("1. h2e2 2. h0g2 h9g7 3. i0h0 *");
        assert_eq!(r.gaps.len(), 1);
        assert_eq!(
            (r.gaps[0].ply, r.gaps[0].kind, r.gaps[0].text.clone()),
            (2, GapKind::Missing, None)
        );
        assert_eq!(r.moves.len(), 5);
    }

    #[test]
    fn a_self_kill_ends_the_line_and_garbage_at_the_end_stops_it() {
        let r = recovered("[FEN \"3k5/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1\"]\n1. 帅五平六 将４进１ *");
        let k = r.self_kill.unwrap();
        assert_eq!((k.ply, k.kings_facing, k.moves_after), (1, true, 1));
        assert!(r.moves.is_empty());
        let r = recovered("1. 炮二平五 马８进７ 2. 马二进X 车９平８ 3. 兵X进一 卒7进X *");
        assert!(r.missing_or_unreadable() >= 2);
    }
}
