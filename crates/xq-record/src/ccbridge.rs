//! 象棋桥 CCBridge records: CBR (one game), CBL (a library of CBR records) and CBF (XML).
//!
//! CBR version 2: UTF-16LE fields at fixed offsets (title 180, event 692, round 756, date 884,
//! site 948, Red 1076, red team 1140, Black 1300, black team 1364, annotator 1780), the result at
//! 2076, the board at 2120 (90 bytes, row 0 Black's back rank; Red 0x11–0x17 and Black 0x21–0x27
//! for R N B A K C P), then four-byte move records from 2214 (flags, 0, source, destination;
//! flag 1 ends a line, 2 announces an alternative, 4 a comment: a 4-byte length and UTF-16LE
//! text). The first record is the root. Version 1 CBR is not read (no description of its layout
//! could be checked). CBF: the `<Head>` fields and the `<MoveList>` of `<Move value="xy-xy">`
//! (x from the left, y from the top; the first is the root) with optional CDATA comments; CBF
//! with variations is not read (their encoding is not known).

use xq_core::{Board, Color, File, Move, Piece, Position, Rank, Role, Square};

use crate::{
    error::{ReadError, ReadErrorKind},
    game::{Game, Node, Outcome},
    tree::{PreNode, from_preorder},
};

const RECORD_MAGIC: &[u8] = b"CCBridge Record";
const LIBRARY_MAGIC: &[u8] = b"CCBridgeLibrary";
const BOARD: usize = 2120;
/// The longest comment a record is taken to hold (a longer length is damage, not a comment).
const MAX_COMMENT: usize = 1 << 20;
const MOVES: usize = 2214;

const FIELDS: [(usize, usize, &str); 10] = [
    (180, 128, "Title"),
    (692, 64, "Event"),
    (756, 64, "Round"),
    (884, 64, "Date"),
    (948, 64, "Site"),
    (1076, 64, "Red"),
    (1140, 64, "RedTeam"),
    (1300, 64, "Black"),
    (1364, 64, "BlackTeam"),
    (1780, 64, "Annotator"),
];

fn utf16z(bytes: &[u8]) -> String {
    let units: Vec<u16> = bytes
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .take_while(|&u| u != 0)
        .collect();
    String::from_utf16_lossy(&units).trim().to_owned()
}

fn role(code: u8) -> Option<Role> {
    Some(match code & 0x0F {
        1 => Role::Rook,
        2 => Role::Horse,
        3 => Role::Elephant,
        4 => Role::Advisor,
        5 => Role::King,
        6 => Role::Cannon,
        7 => Role::Pawn,
        _ => return None,
    })
}

fn cbr_square(index: u8) -> Option<Square> {
    if index >= 90 {
        return None;
    }
    Some(Square::new(
        File::try_new(u32::from(index % 9))?,
        Rank::try_new(9 - u32::from(index / 9))?,
    ))
}

/// Reads a CBR record.
///
/// # Errors
/// Not CBR, version 1, truncated, or a tree that points off the board.
pub fn read_cbr(bytes: &[u8]) -> Result<Game, ReadError> {
    if !bytes.starts_with(RECORD_MAGIC) {
        return Err(ReadError::new(
            ReadErrorKind::UnknownFormat,
            "not a CBR record: it does not start with \"CCBridge Record\"",
        )
        .at(0));
    }
    let version = bytes.get(19).copied().unwrap_or(0);
    if version != 2 {
        return Err(ReadError::new(
            ReadErrorKind::Unsupported,
            format!(
                "CBR version {version} is not read (only version 2); convert it with CCBridge first"
            ),
        )
        .at(19));
    }
    if bytes.len() < MOVES {
        return Err(ReadError::new(
            ReadErrorKind::Truncated,
            format!(
                "a CBR record needs {MOVES} bytes before its moves; this one has {}",
                bytes.len()
            ),
        )
        .at(bytes.len()));
    }
    let mut game = Game::default();
    for (offset, size, name) in FIELDS {
        let value = utf16z(&bytes[offset..offset + size]);
        if !value.is_empty() {
            game.tags.push((name.to_owned(), value));
        }
    }
    let outcome = match bytes[2076] {
        1 => Some(Outcome::RedWins),
        2 => Some(Outcome::BlackWins),
        3 => Some(Outcome::Draw),
        _ => None,
    };
    if let Some(o) = outcome {
        game.tags.push(("Result".to_owned(), o.pgn().to_owned()));
    }
    let mut board = Board::empty();
    for i in 0..90u8 {
        let code = bytes[BOARD + usize::from(i)];
        if code == 0 {
            continue;
        }
        let color = match code >> 4 {
            1 => Color::Red,
            2 => Color::Black,
            _ => {
                return Err(ReadError::new(
                    ReadErrorKind::Syntax,
                    format!("unknown piece code {code:#04x} on the board"),
                )
                .at(BOARD + usize::from(i)));
            }
        };
        let (Some(role), Some(sq)) = (role(code), cbr_square(i)) else {
            return Err(ReadError::new(
                ReadErrorKind::Syntax,
                format!("unknown piece code {code:#04x} on the board"),
            )
            .at(BOARD + usize::from(i)));
        };
        board.put(sq, Piece::new(color, role));
    }

    // Records in pre-order.
    struct Record {
        from: u8,
        to: u8,
        end: bool,
        sibling: bool,
        comment: Option<String>,
    }
    let mut records = Vec::new();
    let mut p = MOVES;
    let mut open = 1usize;
    while open > 0 && p + 4 <= bytes.len() {
        let (flags, from, to) = (bytes[p], bytes[p + 2], bytes[p + 3]);
        p += 4;
        let mut comment = None;
        if flags & 0x04 != 0 {
            let Some(len) = bytes
                .get(p..p + 4)
                .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
            else {
                return Err(ReadError::new(
                    ReadErrorKind::Truncated,
                    "a CBR comment length runs past the end",
                )
                .at(p));
            };
            p += 4;
            let Some(text) = bytes.get(p..p + len) else {
                // A length a comment may have: the file is cut short inside it; a longer one
                // is damage.
                return Err(if len <= MAX_COMMENT {
                    ReadError::new(
                        ReadErrorKind::Truncated,
                        format!("the record ends inside a comment of {len} bytes: the file is cut short; copy it again from its source"),
                    )
                } else {
                    ReadError::new(
                        ReadErrorKind::BadOffset,
                        format!("a CBR comment of {len} bytes runs past the end"),
                    )
                }
                .at(p - 4));
            };
            p += len;
            let text = utf16z(text);
            comment = (!text.is_empty()).then_some(text);
        }
        let end = flags & 0x01 != 0;
        let sibling = flags & 0x02 != 0;
        // The root counts as the start of the main line.
        open = open - 1 + usize::from(!end) + usize::from(sibling && !records.is_empty());
        records.push(Record {
            from,
            to,
            end,
            sibling,
            comment,
        });
        if records.len() > 1_000_000 {
            return Err(ReadError::new(
                ReadErrorKind::BadOffset,
                "more than a million CBR move records",
            )
            .at(p));
        }
    }
    if open > 0 && !records.is_empty() {
        // The bytes ended inside the move records: a file cut short (a library cut inside one
        // of its records), whose lines would read shorter than they are.
        return Err(ReadError::new(
            ReadErrorKind::Truncated,
            format!(
                "the record ends inside its moves ({} move record(s) read, {open} line(s) not ended): the file is cut short; copy it again from its source",
                records.len() - 1
            ),
        )
        .at(p));
    }
    let Some((root, moves)) = records.split_first() else {
        return Err(ReadError::new(
            ReadErrorKind::Truncated,
            "a CBR record without moves, not even the root",
        )
        .at(MOVES));
    };
    game.comment = root.comment.clone();
    let first_color = moves
        .first()
        .and_then(|r| cbr_square(r.from))
        .and_then(|sq| board.piece_at(sq))
        .map(|p| p.color);
    let turn = first_color.unwrap_or(if bytes[2112] == 2 {
        Color::Black
    } else {
        Color::Red
    });
    game.set_start(board, turn);
    // The tree, as in XQF: a move continues its line unless it ends it; the alternative to a
    // move comes after that move's continuation.
    let mut nodes = Vec::with_capacity(moves.len());
    for (i, r) in moves.iter().enumerate() {
        let (Some(from), Some(to)) = (cbr_square(r.from), cbr_square(r.to)) else {
            return Err(ReadError::new(
                ReadErrorKind::BadOffset,
                format!("move record {} names a point off the board", i + 1),
            ));
        };
        nodes.push(PreNode {
            m: Move::new(from, to),
            comment: r.comment.clone(),
            ends: r.end,
            sibling: r.sibling,
        });
    }
    game.moves = from_preorder(nodes, root.end)?;
    Ok(game)
}

/// A library's games (each read or not) and its records that are not games, in words.
pub type Library = (Vec<Result<Game, ReadError>>, Vec<String>);

/// Reads a CBL library: every CBR record in it that is a game. Libraries also hold section titles
/// (a record with a title and no piece on the board); those are listed in the second value.
///
/// # Errors
/// Not CBL; the games' own errors come per game.
pub fn read_cbl(bytes: &[u8]) -> Result<Library, ReadError> {
    if !bytes.starts_with(LIBRARY_MAGIC) {
        return Err(ReadError::new(
            ReadErrorKind::UnknownFormat,
            "not a CBL library: it does not start with \"CCBridgeLibrary\"",
        )
        .at(0));
    }
    let mut starts = Vec::new();
    let mut from = 0;
    while let Some(i) = find(&bytes[from..], RECORD_MAGIC) {
        starts.push(from + i);
        from += i + RECORD_MAGIC.len();
    }
    let mut games = Vec::new();
    let mut sections = Vec::new();
    for (n, &s) in starts.iter().enumerate() {
        let end = starts.get(n + 1).copied().unwrap_or(bytes.len());
        let blob = &bytes[s..end];
        if let Some(title) = section_title(blob) {
            sections.push(format!(
                "record {} is a section title, not a game: {title}",
                n + 1
            ));
            continue;
        }
        let index = games.len();
        games.push(read_cbr(blob).map_err(|e| {
            let offset = e.offset.map(|o| o + s);
            ReadError {
                offset,
                ..e.in_game(index)
            }
        }));
    }
    Ok((games, sections))
}

/// The title of a CBR record with no piece on the board (a library's section heading, which may
/// carry a comment but no game).
fn section_title(blob: &[u8]) -> Option<String> {
    let board = blob.get(BOARD..BOARD + 90)?;
    board
        .iter()
        .all(|&b| b == 0)
        .then(|| utf16z(&blob[180..308]))
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// The CBF head fields and the tags they become.
const CBF_TAGS: [(&str, &str); 14] = [
    ("Name", "Title"),
    ("Contest", "Event"),
    ("Round", "Round"),
    ("Date", "Date"),
    ("Site", "Site"),
    ("Red", "Red"),
    ("RedTeam", "RedTeam"),
    ("Black", "Black"),
    ("BlackTeam", "BlackTeam"),
    ("Commentator", "Annotator"),
    ("ECCO", "ECCO"),
    ("TimeRule", "TimeControl"),
    ("Group", "Group"),
    ("Table", "Table"),
];

/// Reads a CBF (XML) record.
///
/// # Errors
/// Not CBF, malformed moves, or variations (not read).
pub fn read_cbf(text: &str) -> Result<Game, ReadError> {
    if !text.contains("<ChineseChessRecord") {
        return Err(ReadError::new(
            ReadErrorKind::UnknownFormat,
            "not a CBF record: no <ChineseChessRecord> element",
        ));
    }
    let mut game = Game::default();
    let element = |name: &str| -> Option<String> {
        let open = format!("<{name}>");
        let start = text.find(&open)? + open.len();
        let end = text[start..].find(&format!("</{name}>"))? + start;
        Some(xml_unescape(text[start..end].trim()))
    };
    for (name, tag) in CBF_TAGS {
        if let Some(v) = element(name).filter(|v| !v.is_empty()) {
            game.tags.push((tag.to_owned(), v));
        }
    }
    if let Some(r) = element("RecordResult") {
        let outcome = match r.as_str() {
            "1" => Some(Outcome::RedWins),
            "2" => Some(Outcome::BlackWins),
            "3" => Some(Outcome::Draw),
            _ => None,
        };
        if let Some(o) = outcome {
            game.tags.push(("Result".to_owned(), o.pgn().to_owned()));
        }
    }
    if let Some(fen) = element("FEN").filter(|f| !f.is_empty()) {
        let standard =
            Position::from_fen(&fen).map(|p| p.fen()) == Ok(xq_core::START_FEN.to_owned());
        if !standard {
            game.fen = Some(fen);
            // Where the element's text starts (after its leading spaces).
            if let Some(open) = text.find("<FEN>") {
                let inner = &text[open + "<FEN>".len()..];
                let at = text.len() - inner.trim_start().len();
                game.fen_offset = Some(at);
                game.fen_line = Some(1 + crate::place::newlines(&text.as_bytes()[..at]));
            }
        }
    }
    let mut rest = text;
    let mut first = true;
    let mut ended = false;
    while let Some(start) = rest.find("<Move ") {
        let tail = &rest[start..];
        let close = tail.find('>').unwrap_or(tail.len());
        let head = &tail[..close];
        let self_closing = head.ends_with('/');
        let after_head = tail.get(close + 1..).unwrap_or("");
        let (comment, next) = if self_closing {
            (None, after_head)
        } else {
            let end = after_head.find("</Move>").unwrap_or(after_head.len());
            let body = &after_head[..end];
            let c = body
                .trim()
                .trim_start_matches("<![CDATA[")
                .trim_end_matches("]]>")
                .trim()
                .to_owned();
            (
                Some(c).filter(|c| !c.is_empty()),
                after_head.get(end + "</Move>".len()..).unwrap_or(""),
            )
        };
        rest = next;
        let value = attribute(head, "value").unwrap_or_default();
        if ended {
            return Err(ReadError::new(
                ReadErrorKind::Unsupported,
                "this CBF record has variations (moves after a line's end), whose encoding is not known; convert it with CCBridge to CBR or PGN",
            ));
        }
        ended = attribute(head, "end").as_deref() == Some("1");
        if first {
            first = false;
            game.comment = comment;
            continue;
        }
        let m = cbf_move(&value).ok_or_else(|| {
            ReadError::new(
                ReadErrorKind::Syntax,
                format!("the CBF move \"{value}\" is not two points xy-xy"),
            )
        })?;
        let mut node = Node::coord(m);
        node.set_comment(comment);
        game.moves.push(node);
    }
    Ok(game)
}

fn attribute(head: &str, name: &str) -> Option<String> {
    let key = format!("{name}=\"");
    let start = head.find(&key)? + key.len();
    let end = head[start..].find('"')? + start;
    Some(head[start..end].to_owned())
}

fn cbf_move(value: &str) -> Option<Move> {
    let d: Vec<u32> = value.chars().filter_map(|c| c.to_digit(10)).collect();
    let sq = |x: u32, y: u32| {
        Some(Square::new(
            File::try_new(x)?,
            Rank::try_new(9u32.checked_sub(y)?)?,
        ))
    };
    match d[..] {
        [x1, y1, x2, y2] => Some(Move::new(sq(x1, y1)?, sq(x2, y2)?)),
        _ => None,
    }
}

fn xml_unescape(text: &str) -> String {
    let text = text.trim_start_matches("<![CDATA[").trim_end_matches("]]>");
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    /// A CBR record with two kings and the move records given (flags, from, to).
    fn cbr(records: &[(u8, u8, u8)]) -> Vec<u8> {
        let mut bytes = vec![0; MOVES];
        bytes[..RECORD_MAGIC.len()].copy_from_slice(RECORD_MAGIC);
        bytes[19] = 2;
        // Black's king on row 0, Red's on row 9, both on the middle file.
        bytes[BOARD + 4] = 0x25;
        bytes[BOARD + 85] = 0x15;
        for &(flags, from, to) in records {
            bytes.extend([flags, 0, from, to]);
        }
        bytes
    }

    /// A record whose bytes end inside its moves (a file, or a library, cut short) is truncated,
    /// not a game of fewer moves; one whose lines all end reads whole.
    #[test]
    fn a_record_cut_inside_its_moves_is_truncated() {
        let whole = cbr(&[(0, 0, 0), (0, 85, 76), (1, 4, 13)]);
        let game = read_cbr(&whole).unwrap();
        assert_eq!(game.moves.len(), 2);
        for cut in [MOVES + 4, MOVES + 8, whole.len() - 1] {
            let err = read_cbr(&whole[..cut]).unwrap_err();
            assert_eq!(err.kind, ReadErrorKind::Truncated, "{cut}: {err}");
            assert!(err.to_string().contains("cut short"), "{err}");
        }
        // Cut inside a comment: truncated too; a comment's length beyond any comment is damage.
        let mut commented = cbr(&[(0x04, 0, 0)]);
        commented.extend(8u32.to_le_bytes());
        commented.extend([b'a', 0, b'b', 0]);
        assert_eq!(
            read_cbr(&commented).unwrap_err().kind,
            ReadErrorKind::Truncated
        );
        let mut damaged = cbr(&[(0x04, 0, 0)]);
        damaged.extend(u32::MAX.to_le_bytes());
        assert_eq!(
            read_cbr(&damaged).unwrap_err().kind,
            ReadErrorKind::BadOffset
        );
        // Zero bytes after the last line's end (a library's padding) are not moves.
        let mut padded = whole.clone();
        padded.extend([0; 64]);
        assert_eq!(read_cbr(&padded).unwrap().moves.len(), 2);
    }
}
