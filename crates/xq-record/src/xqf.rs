//! XQF (象棋演播室 / XQStudio) binary records, versions 10 (plain) to 18 (encrypted).
//!
//! Layout (see `../shared/docs/formats-and-notation.md` §2.7): a 1024-byte header with the
//! encryption keys, the 32 piece squares (`file * 10 + rank`, Red R N B A K A B N R C C P P P P P
//! then Black), the result and Pascal strings (GBK) for title, event, date, site, players …; then
//! the move tree in pre-order from byte 1024: each record is a move (source, destination), flags
//! (a continuation follows, an alternative follows, a comment follows) and an optional comment.
//! The first record is the root; its comment is the game's.
//!
//! From version 11 the file is encrypted: the piece table with a piece key, the tree with a
//! 32-byte stream mask and per-field keys derived from four header bytes: with g(b) = 54·b² + 221,
//! the piece key is g(KeyXY)·KeyXY, the source key g(KeyXYf)·piece key, the destination key
//! g(KeyXYt)·source key (all mod 256; verified on every sample file). Version 12 on rotate the
//! piece table (version 11 files are read the same way; no sample is known to disagree).
//! The side to move is taken from the first move, as xqbase does.

use xq_core::{Board, Color, File, Move, Piece, Rank, Square};

use crate::{
    encoding::{Encoding, decode, encode, unencodable},
    error::{ReadError, ReadErrorKind},
    game::{Game, Node, Outcome},
    slots::{ROLES, homeless_words, slots, unplayable_start},
    tree::{PreNode, from_preorder},
};

const HEADER: usize = 1024;
const COPYRIGHT: &[u8; 32] = b"[(C) Copyright Mr. Dong Shiwei.]";

/// The string fields of the header: offset, size, tag name.
const STRINGS: [(usize, usize, &str); 11] = [
    (0x50, 64, "Title"),
    (0xD0, 64, "Event"),
    (0x110, 16, "Date"),
    (0x120, 16, "Site"),
    (0x130, 16, "Red"),
    (0x140, 16, "Black"),
    (0x150, 64, "TimeControl"),
    (0x190, 16, "RedTime"),
    (0x1A0, 16, "BlackTime"),
    (0x1D0, 16, "Annotator"),
    (0x1E0, 16, "Author"),
];

/// 54·b² + 221, the multiplier of every key.
fn g(b: u8) -> u32 {
    let b = u32::from(b);
    54 * b * b + 221
}

struct Keys {
    piece: u8,
    src: u8,
    dst: u8,
    comment: u32,
    mask: [u8; 32],
}

impl Keys {
    fn plain() -> Keys {
        Keys {
            piece: 0,
            src: 0,
            dst: 0,
            comment: 0,
            mask: [0; 32],
        }
    }

    fn from_header(h: &[u8]) -> Result<Keys, ReadError> {
        let (sum, xy, xyf, xyt) = (h[0x0C], h[0x0D], h[0x0E], h[0x0F]);
        if sum.wrapping_add(xy).wrapping_add(xyf).wrapping_add(xyt) != 0 {
            return Err(ReadError::new(
                ReadErrorKind::BadKeys,
                "the XQF encryption keys do not add up (header bytes 12–15 must sum to 0 mod 256): the file is damaged or not XQF",
            )
            .at(0x0C));
        }
        // The piece key multiplies by KeyXY once more; the move keys chain on the previous key.
        // (The formats note gives the piece key's form for all three; the files say otherwise.)
        let piece = (g(xy).wrapping_mul(u32::from(xy)) % 256) as u8;
        let src = (g(xyf).wrapping_mul(u32::from(piece)) % 256) as u8;
        let dst = (g(xyt).wrapping_mul(u32::from(src)) % 256) as u8;
        let comment = (u32::from(sum) * 256 + u32::from(xy)) % 32000 + 767;
        let key_mask = h[0x03];
        let k: [u8; 4] = std::array::from_fn(|i| h[0x08 + i] | (h[0x0C + i] & key_mask));
        let mask = std::array::from_fn(|j| k[j % 4] & COPYRIGHT[j]);
        Ok(Keys {
            piece,
            src,
            dst,
            comment,
            mask,
        })
    }
}

/// A move record of the tree.
struct Record {
    from: u8,
    to: u8,
    child: bool,
    sibling: bool,
    /// The comment's bytes as stored (decoded once the text's encoding is known).
    raw_comment: Vec<u8>,
    comment: Option<String>,
}

/// Reads an XQF file. Its strings and comments are text in GBK, as XQF's own programs write it,
/// unless they read as Big5 (a file from a program of Taiwan or Hong Kong): told from all of
/// them together, as a text file's encoding is ([`crate::encoding::detect`]), GBK when that
/// cannot tell.
///
/// # Errors
/// A typed error with the byte offset: not XQF, an unknown version, bad keys, a truncated tree,
/// squares outside the board, variations nested too deep.
pub fn read_xqf(bytes: &[u8]) -> Result<Game, ReadError> {
    read_xqf_as(bytes, None)
}

/// Reads an XQF file whose strings and comments are text in `encoding` (`--encoding big5` for a
/// file made by a Big5 program that [`read_xqf`] would not tell).
///
/// # Errors
/// As [`read_xqf`].
pub fn read_xqf_in(bytes: &[u8], encoding: Encoding) -> Result<Game, ReadError> {
    read_xqf_as(bytes, Some(encoding))
}

/// Reads an XQF file, its text in `encoding` if given, else as [`read_xqf`] tells it.
fn read_xqf_as(bytes: &[u8], encoding: Option<Encoding>) -> Result<Game, ReadError> {
    if bytes.len() < 2 || &bytes[..2] != b"XQ" {
        return Err(ReadError::new(
            ReadErrorKind::UnknownFormat,
            "not an XQF file: it does not start with \"XQ\"",
        )
        .at(0));
    }
    if bytes.len() < HEADER {
        return Err(ReadError::new(
            ReadErrorKind::Truncated,
            format!(
                "the XQF header needs 1024 bytes; the file has {}",
                bytes.len()
            ),
        )
        .at(bytes.len()));
    }
    let version = bytes[2];
    if !(10..=18).contains(&version) {
        return Err(ReadError::new(
            ReadErrorKind::Unsupported,
            format!("XQF version {version} is not one of 10–18 (XQF 1.0–1.8)"),
        )
        .at(2));
    }
    let keys = if version >= 11 {
        Keys::from_header(bytes)?
    } else {
        Keys::plain()
    };

    let mut game = Game::default();
    let strings = STRINGS.map(|(offset, size, name)| {
        let field = &bytes[offset..offset + size];
        let len = usize::from(field[0]).min(size - 1);
        (name, &field[1..1 + len])
    });
    let mut records = read_records(bytes, version, &keys)?;
    let encoding = encoding.unwrap_or_else(|| {
        let texts = strings
            .iter()
            .map(|(_, raw)| *raw)
            .chain(records.iter().map(|r| r.raw_comment.as_slice()));
        text_encoding(texts)
    });
    for (name, raw) in strings {
        if let Some(text) = text_of(raw, encoding) {
            game.tags.push((name.to_owned(), text));
        }
    }
    for record in &mut records {
        record.comment = text_of(&record.raw_comment, encoding);
    }
    let result = match bytes[0x33] {
        1 => Some(Outcome::RedWins),
        2 => Some(Outcome::BlackWins),
        3 | 4 => Some(Outcome::Draw),
        _ => None,
    };
    if let Some(r) = result {
        game.tags.push(("Result".to_owned(), r.pgn().to_owned()));
    }

    // The piece table.
    let mut squares = [0u8; 32];
    for i in 0..32 {
        let stored = bytes[0x10 + i].wrapping_sub(keys.piece);
        let slot = if version >= 12 {
            (usize::from(keys.piece) + 1 + i) % 32
        } else {
            i
        };
        squares[slot] = stored;
    }
    let mut board = Board::empty();
    for (i, &sq) in squares.iter().enumerate() {
        if sq > 89 {
            continue;
        }
        let square = xqf_square(sq).ok_or_else(|| {
            ReadError::new(
                ReadErrorKind::BadOffset,
                format!("piece {i} stands on an impossible point {sq}"),
            )
            .at(0x10 + i)
        })?;
        let color = if i < 16 { Color::Red } else { Color::Black };
        board.put(square, Piece::new(color, ROLES[i % 16]));
    }

    let Some((root, moves)) = records.split_first() else {
        return Err(ReadError::new(
            ReadErrorKind::Truncated,
            "the XQF move tree is empty: not even the root record",
        )
        .at(HEADER));
    };
    game.comment = root.comment.clone();

    // The side to move: the colour of the first move's piece; otherwise the header's byte.
    let first_color = moves
        .first()
        .and_then(|r| xqf_square(r.from))
        .and_then(|sq| board.piece_at(sq))
        .map(|p| p.color);
    let turn = first_color.unwrap_or(if bytes[0x32] == 1 {
        Color::Black
    } else {
        Color::Red
    });
    game.set_start(board, turn);
    game.moves = if root.child {
        build_tree(moves)?
    } else {
        Vec::new()
    };
    Ok(game)
}

fn xqf_square(byte: u8) -> Option<Square> {
    if byte > 89 {
        return None;
    }
    Some(Square::new(
        File::try_new(u32::from(byte / 10))?,
        Rank::try_new(u32::from(byte % 10))?,
    ))
}

/// The encoding of XQF text, the strings and comments of a file (`texts`): Big5 if they read as
/// Big5, else GBK (XQF's own), whatever else they might read as (GBK text is often valid UTF-8).
fn text_encoding<'a>(texts: impl Iterator<Item = &'a [u8]>) -> Encoding {
    let mut all = Vec::new();
    for text in texts {
        all.extend_from_slice(text);
        all.push(b'\n');
    }
    if all.is_ascii() {
        return Encoding::Gbk;
    }
    crate::encoding::gbk_or_big5(&all)
}

/// The text of a string or comment stored as `raw`, trimmed, if there is any.
fn text_of(raw: &[u8], encoding: Encoding) -> Option<String> {
    let text = decode(raw, encoding);
    let text = text.trim_end_matches('\0').trim();
    (!text.is_empty()).then(|| text.to_owned())
}

fn read_records(bytes: &[u8], version: u8, keys: &Keys) -> Result<Vec<Record>, ReadError> {
    let byte = |p: usize| -> Result<u8, ReadError> {
        let raw = *bytes.get(p).ok_or_else(|| {
            ReadError::new(
                ReadErrorKind::Truncated,
                "the XQF move tree ends in the middle of a record",
            )
            .at(p)
        })?;
        Ok(raw.wrapping_sub(keys.mask[p % 32]))
    };
    let mut records = Vec::new();
    let mut p = HEADER;
    // Records until the tree is complete: the count of open branches reaches zero.
    let mut open = 1usize;
    while open > 0 {
        if records.len() > 1_000_000 {
            return Err(ReadError::new(
                ReadErrorKind::BadOffset,
                "more than a million XQF move records",
            )
            .at(p));
        }
        let (from, to, flags) = (byte(p)?, byte(p + 1)?, byte(p + 2)?);
        p += 4;
        let (from, to, child, sibling, has_comment) = if version >= 11 {
            (
                from.wrapping_sub(0x18).wrapping_sub(keys.src),
                to.wrapping_sub(0x20).wrapping_sub(keys.dst),
                flags & 0x80 != 0,
                flags & 0x40 != 0,
                flags & 0x20 != 0,
            )
        } else {
            (
                from.wrapping_sub(0x18),
                to.wrapping_sub(0x20),
                flags & 0xF0 != 0,
                flags & 0x0F != 0,
                true,
            )
        };
        let mut raw_comment = Vec::new();
        if has_comment {
            let len_bytes = [byte(p)?, byte(p + 1)?, byte(p + 2)?, byte(p + 3)?];
            p += 4;
            let mut len = u32::from_le_bytes(len_bytes);
            if version >= 11 {
                len = len.wrapping_sub(keys.comment);
            }
            let len = len as usize;
            if len > bytes.len().saturating_sub(p) {
                // A length no comment has is a damaged record; a plausible one, a cut file.
                let (kind, message) = if len > 1 << 20 {
                    (
                        ReadErrorKind::BadOffset,
                        format!(
                            "a comment length of {len} bytes points far past the end of the file: the move tree is damaged"
                        ),
                    )
                } else {
                    (
                        ReadErrorKind::Truncated,
                        format!(
                            "the file ends inside a comment of {len} bytes: it is truncated (copy it again from its source)"
                        ),
                    )
                };
                return Err(ReadError::new(kind, message).at(p - 4));
            }
            raw_comment = (p..p + len).map(byte).collect::<Result<_, _>>()?;
            p += len;
        }
        open = open - 1 + usize::from(child) + usize::from(sibling);
        records.push(Record {
            from,
            to,
            child,
            sibling,
            raw_comment,
            comment: None,
        });
    }
    Ok(records)
}

/// The tree of the records after the root.
fn build_tree(records: &[Record]) -> Result<Vec<Node>, ReadError> {
    let mut nodes = Vec::with_capacity(records.len());
    for (i, r) in records.iter().enumerate() {
        let (Some(from), Some(to)) = (xqf_square(r.from), xqf_square(r.to)) else {
            return Err(ReadError::new(
                ReadErrorKind::BadOffset,
                format!(
                    "move record {} names an impossible point ({}, {})",
                    i + 1,
                    r.from,
                    r.to
                ),
            ));
        };
        nodes.push(PreNode {
            m: Move::new(from, to),
            comment: r.comment.clone(),
            ends: !r.child,
            sibling: r.sibling,
        });
    }
    from_preorder(nodes, false)
}

/// Options for writing XQF.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum XqfVersion {
    /// XQF 1.0 (version 10), not encrypted.
    #[default]
    Plain,
    /// XQF 1.8 (version 18), encrypted with fixed keys.
    Encrypted,
}

/// Writes `game` as XQF (the start position must be valid and the moves replayed: every node
/// needs its coordinates). Tags without an XQF field and the comments written before a move are
/// dropped (the writer first moves those it can after the move before them:
/// [`Game::move_comments_after_moves`]); see [`xqf_losses`] and `write::write_xqf`.
pub(crate) fn write_xqf(game: &Game, version: XqfVersion) -> Vec<u8> {
    let mut out = vec![0u8; HEADER];
    out[0] = b'X';
    out[1] = b'Q';
    let v: u8 = match version {
        XqfVersion::Plain => 10,
        XqfVersion::Encrypted => 18,
    };
    out[2] = v;
    let keys = if v >= 11 {
        // KeysSum + KeyXY + KeyXYf + KeyXYt ≡ 0 (mod 256).
        let (xy, xyf, xyt) = (0x5Au8, 0x33u8, 0x71u8);
        out[0x03] = 0xA5; // KeyMask
        out[0x08..0x0C].copy_from_slice(&[0x12, 0x34, 0x56, 0x78]);
        out[0x0C] = 0u8.wrapping_sub(xy).wrapping_sub(xyf).wrapping_sub(xyt);
        out[0x0D] = xy;
        out[0x0E] = xyf;
        out[0x0F] = xyt;
        Keys::from_header(&out).unwrap_or_else(|_| Keys::plain())
    } else {
        Keys::plain()
    };
    // Pieces.
    let pos = crate::replay::start_position(game)
        .map(|(p, _)| p)
        .unwrap_or_default();
    let (places, _) = slots(&pos);
    let squares = places.map(|p| {
        p.map_or(0xFF, |sq| {
            (sq.file().index() * 10 + sq.rank().index()) as u8
        })
    });
    for i in 0..32 {
        let slot = if v >= 12 {
            (usize::from(keys.piece) + 1 + i) % 32
        } else {
            i
        };
        out[0x10 + i] = squares[slot].wrapping_add(keys.piece);
    }
    out[0x32] = u8::from(pos.turn() == Color::Black);
    out[0x33] = match game.outcome() {
        Some(Outcome::RedWins) => 1,
        Some(Outcome::BlackWins) => 2,
        Some(Outcome::Draw) => 3,
        _ => 0,
    };
    for (offset, size, name) in STRINGS {
        if let Some(value) = game.tag(name) {
            let (bytes, _) = fit(value, size - 1);
            out[offset] = bytes.len() as u8;
            out[offset + 1..offset + 1 + bytes.len()].copy_from_slice(&bytes);
        }
    }
    // The tree: the root, then the nodes in pre-order.
    let mut records: Vec<(u8, u8, bool, bool, Option<&str>)> =
        vec![(0, 0, !game.moves.is_empty(), false, game.comment.as_deref())];
    preorder(&game.moves, &mut records);
    for (i, (from, to, child, sibling, comment)) in records.into_iter().enumerate() {
        let (from, to) = if i == 0 && v == 10 {
            (0, 0)
        } else {
            (from, to)
        };
        let mut rec = Vec::with_capacity(8);
        if v >= 11 {
            rec.push(from.wrapping_add(0x18).wrapping_add(keys.src));
            rec.push(to.wrapping_add(0x20).wrapping_add(keys.dst));
            let mut flags = 0u8;
            if child {
                flags |= 0x80;
            }
            if sibling {
                flags |= 0x40;
            }
            if comment.is_some() {
                flags |= 0x20;
            }
            rec.push(flags);
            rec.push(0);
            if let Some(text) = comment {
                let bytes = encode(text, Encoding::Gbk);
                rec.extend_from_slice(
                    &(bytes.len() as u32)
                        .wrapping_add(keys.comment)
                        .to_le_bytes(),
                );
                rec.extend_from_slice(&bytes);
            }
        } else {
            rec.push(from.wrapping_add(0x18));
            rec.push(to.wrapping_add(0x20));
            rec.push(if child { 0xF0 } else { 0 } | if sibling { 0x0F } else { 0 });
            rec.push(if i == 0 { 0xFF } else { 0 });
            let bytes = comment
                .map(|t| encode(t, Encoding::Gbk).into_owned())
                .unwrap_or_default();
            rec.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
            rec.extend_from_slice(&bytes);
        }
        for byte in rec {
            let p = out.len();
            out.push(byte.wrapping_add(keys.mask[p % 32]));
        }
    }
    out
}

/// XQF's pre-order: a move, then the rest of its line (its continuation), then its alternatives.
/// Walks lines iteratively; pending alternatives wait on a stack (deepest first).
fn preorder<'a>(line: &'a [Node], out: &mut Vec<(u8, u8, bool, bool, Option<&'a str>)>) {
    /// A line and every alternative to its first move, flattened (an alternative's own
    /// alternatives are more alternatives to the same move).
    fn alternatives<'a>(line: &'a [Node], into: &mut Vec<&'a [Node]>) {
        into.push(line);
        if let Some(first) = line.first() {
            for v in first.variations() {
                alternatives(v, into);
            }
        }
    }
    let sq = |s: Square| (s.file().index() * 10 + s.rank().index()) as u8;
    let mut todo: Vec<(Vec<&'a [Node]>, usize)> = Vec::new();
    let mut first = Vec::new();
    alternatives(line, &mut first);
    todo.push((first, 0));
    while let Some((alts, k)) = todo.pop() {
        let Some(&current) = alts.get(k) else {
            continue;
        };
        let has_next_alternative = k + 1 < alts.len();
        if has_next_alternative {
            todo.push((alts, k + 1));
        }
        for (j, node) in current.iter().enumerate() {
            let sibling = if j == 0 {
                has_next_alternative
            } else {
                !node.variations().is_empty()
            };
            let m = node.m.unwrap_or(Move::new(Square::A0, Square::A0));
            out.push((
                sq(m.from),
                sq(m.to),
                j + 1 < current.len(),
                sibling,
                node.comment(),
            ));
            if j > 0 && !node.variations().is_empty() {
                let mut alts = Vec::new();
                alternatives(&current[j..], &mut alts);
                todo.push((alts, 1));
            }
        }
    }
}

/// `value` in GBK, cut (at a character) to at most `max` bytes; whether it was cut.
fn fit(value: &str, max: usize) -> (Vec<u8>, bool) {
    let mut out = Vec::with_capacity(max);
    for (i, c) in value.char_indices() {
        let bytes = encode(&value[i..i + c.len_utf8()], Encoding::Gbk);
        if out.len() + bytes.len() > max {
            return (out, true);
        }
        out.extend_from_slice(&bytes);
    }
    (out, false)
}

/// The comments after the moves of `line` and its variations.
fn comments<'g>(line: &'g [Node], texts: &mut Vec<&'g str>) {
    for node in line {
        texts.extend(node.comment());
        for variation in node.variations() {
            comments(variation, texts);
        }
    }
}

/// What writing `game` as XQF drops: tags with no XQF field, tags longer than their field,
/// comments written before a move, text GBK cannot hold, a start position that cannot be
/// played.
pub(crate) fn xqf_losses(game: &Game) -> Vec<String> {
    let mut lost: Vec<String> = game
        .tags
        .iter()
        .filter(|(k, v)| {
            !STRINGS.iter().any(|(_, _, n)| n.eq_ignore_ascii_case(k))
                && !k.eq_ignore_ascii_case("Result")
                && !crate::game::is_implied_game_tag(k, v)
        })
        .filter(|(_, v)| !v.trim().is_empty())
        .map(|(k, _)| k.clone())
        .collect();
    if !lost.is_empty() {
        lost = vec![format!("tags XQF has no field for: {}", lost.join(", "))];
    }
    for (_, size, name) in STRINGS {
        if let Some(value) = game.tag(name)
            && let (kept, true) = fit(value, size - 1)
        {
            let kept = decode(&kept, Encoding::Gbk);
            lost.push(format!(
                "the end of tag {name}, longer than XQF's {} bytes: kept \"{kept}\"",
                size - 1
            ));
        }
    }
    // A tag given again with another value: XQF has one field for it, which holds the first
    // with a value (the result: the outcome it reads as).
    let again: Vec<&str> = STRINGS
        .iter()
        .map(|(_, _, name)| *name)
        .chain(["Result"])
        .filter(|name| {
            let mut values = game
                .tags
                .iter()
                .filter(|(k, v)| k.eq_ignore_ascii_case(name) && !v.trim().is_empty())
                .map(|(_, v)| -> &str {
                    match Outcome::parse(v) {
                        Some(outcome) if *name == "Result" => outcome.pgn(),
                        _ => v.trim(),
                    }
                });
            let first = values.next();
            values.any(|v| Some(v) != first)
        })
        .collect();
    if !again.is_empty() {
        lost.push(format!(
            "tags given again with other values, of which XQF holds the first: {}",
            again.join(", ")
        ));
    }
    if let Some(result) = game.unread_result() {
        lost.push(format!(
            "the result as written, \"{result}\" (XQF holds only a win for either side, a draw or none)"
        ));
    }
    match crate::replay::start_position(game) {
        Ok((pos, _)) => {
            lost.extend(homeless_words(slots(&pos).1, "XQF"));
            // XQF holds the pieces' places and the side to move, not the FEN's counts (0x30,
            // PlayStepNo, may be a move number to some readers; the samples all have 0).
            if (pos.fullmoves(), pos.halfmoves()) != (1, 0) {
                lost.push(format!(
                    "the start position's move number {} and count of plies without a capture {} (XQF has no field for the count, and its PlayStepNo, which readers do not agree on, is left 0 as the samples have it: read back as 1 and 0)",
                    pos.fullmoves(),
                    pos.halfmoves()
                ));
            }
        }
        Err(bad) => lost.push(unplayable_start(&bad, "XQF")),
    }
    // XQF's text is GBK: what GBK cannot hold is written as `&#…;` references.
    let mut texts: Vec<&str> = STRINGS
        .iter()
        .filter_map(|(_, _, name)| game.tag(name))
        .collect();
    texts.extend(game.comment.as_deref());
    comments(&game.moves, &mut texts);
    let unheld: Vec<char> = texts
        .iter()
        .filter_map(|text| unencodable(text, Encoding::Gbk).map(|(_, c)| c))
        .collect();
    if let Some(first) = unheld.first() {
        lost.push(format!(
            "characters GBK (XQF's text) cannot hold, in {} tag(s) or comment(s) (the first {first:?}): written as &#…; references",
            unheld.len()
        ));
    }
    lost
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    /// The counts of a FEN start, which XQF has no field for, are said when they are not the
    /// ones reading back gives.
    #[test]
    fn start_counts_xqf_cannot_hold_are_said() {
        let said = |fen: &str| {
            let game = Game {
                fen: Some(fen.to_owned()),
                ..Game::default()
            };
            crate::write::write_xqf(&game, XqfVersion::Plain)
                .dropped
                .into_iter()
                .filter(|d| d.contains("move number"))
                .collect::<Vec<_>>()
        };
        let board = "4k4/9/9/9/9/9/9/9/4A4/4K4";
        assert_eq!(
            said(&format!("{board} b - - 3 37")),
            [
                "the start position's move number 37 and count of plies without a capture 3 (XQF has no field for the count, and its PlayStepNo, which readers do not agree on, is left 0 as the samples have it: read back as 1 and 0)"
            ]
        );
        assert!(said(&format!("{board} b - - 0 1")).is_empty());
        // A result in words XQF's outcomes do not hold is said; one read as an outcome is kept.
        let result_said = |result: &str| {
            let game = Game {
                tags: vec![("Result".to_owned(), result.to_owned())],
                ..Game::default()
            };
            let w = crate::write::write_xqf(&game, XqfVersion::Plain);
            let back = read_xqf(&w.bytes).unwrap();
            let said = w.dropped.iter().any(|d| d.contains("result"));
            (said, back.tag("Result").map(str::to_owned))
        };
        assert_eq!(result_said("abandoned"), (true, None));
        // Words with an outcome: the outcome is kept, the words said.
        assert_eq!(result_said("0-1 forfeit"), (true, Some("0-1".to_owned())));
        assert_eq!(result_said("黑胜"), (false, Some("0-1".to_owned())));
        // A tag given again with another value is said; the same value again is not.
        let twice = |values: [&str; 2]| {
            let game = Game {
                tags: values
                    .iter()
                    .map(|v| ("Red".to_owned(), (*v).to_owned()))
                    .collect(),
                ..Game::default()
            };
            crate::write::write_xqf(&game, XqfVersion::Plain)
                .dropped
                .into_iter()
                .filter(|d| d.contains("given again"))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            twice(["r1", "r2"]),
            ["tags given again with other values, of which XQF holds the first: Red"]
        );
        assert!(twice(["r1", "r1"]).is_empty());
        // Told apart as the writer reads tags: whatever the case, the first with a value; a
        // result by the outcome it reads as.
        let game = Game {
            tags: [("Red", ""), ("Red", "Xu"), ("black", "Lu"), ("Black", "Hu")]
                .iter()
                .chain(&[("Result", "1-0"), ("Result", "红胜")])
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect(),
            ..Game::default()
        };
        let w = crate::write::write_xqf(&game, XqfVersion::Plain);
        assert!(
            w.dropped.contains(
                &"tags given again with other values, of which XQF holds the first: Black"
                    .to_owned()
            ),
            "{:?}",
            w.dropped
        );
        let back = read_xqf(&w.bytes).unwrap();
        assert_eq!(
            (back.tag("Red"), back.tag("Black")),
            (Some("Xu"), Some("Lu"))
        );
        assert_eq!(back.tag("Result"), Some("1-0"));
        assert_eq!(result_said("红负"), (false, Some("0-1".to_owned())));
        let game = read_xqf(
            &crate::write::write_xqf(
                &Game {
                    fen: Some(format!("{board} b - - 3 37")),
                    ..Game::default()
                },
                XqfVersion::Plain,
            )
            .bytes,
        )
        .unwrap();
        assert_eq!(game.fen.as_deref(), Some(&*format!("{board} b - - 0 1")));
    }

    /// An XQF file (plain: its bytes as stored) with `red` as the Red player's name and `comment`
    /// as the game's comment, both as `encoding` writes them.
    fn xqf_with(red: &str, comment: &str, encoding: &'static encoding_rs::Encoding) -> Vec<u8> {
        let encoded = |text: &str| {
            let (bytes, _, lossy) = encoding.encode(text);
            assert!(!lossy);
            bytes.into_owned()
        };
        let (red, comment) = (encoded(red), encoded(comment));
        // Written with stand-ins of the same lengths, which are then replaced.
        let mut game = Game::default();
        game.tags
            .push(("Red".to_owned(), "R".repeat(red.len().max(1))));
        game.comment = Some("C".repeat(comment.len().max(1)));
        let mut bytes = write_xqf(&game, XqfVersion::Plain);
        for (stand_in, text) in [(b'R', &red), (b'C', &comment)] {
            let at = bytes
                .windows(text.len().max(1))
                .position(|w| w.iter().all(|&b| b == stand_in))
                .unwrap();
            bytes[at..at + text.len()].copy_from_slice(text);
        }
        bytes
    }

    /// XQF's strings and comments are GBK, or Big5 when they read as Big5 (a file from a Big5
    /// program), or what the reader is told.
    #[test]
    fn strings_in_their_encoding() {
        let red = |game: &Game| game.tag("Red").unwrap().to_owned();
        let read = |bytes: &[u8], encoding| {
            let options = crate::ReadOptions {
                encoding,
                format: None,
                ..crate::ReadOptions::default()
            };
            let game = crate::read(bytes, Some("xqf"), options)
                .unwrap()
                .games
                .remove(0);
            let game = game.unwrap();
            (red(&game), game.comment.unwrap_or_default())
        };
        let big5 = xqf_with("呂欽", "紅方先手，黑方應以屏風馬", encoding_rs::BIG5);
        let gbk = xqf_with("吕钦", "红方先手，黑方应以屏风马", encoding_rs::GB18030);
        let traditional = ("呂欽".to_owned(), "紅方先手，黑方應以屏風馬".to_owned());
        let simplified = ("吕钦".to_owned(), "红方先手，黑方应以屏风马".to_owned());
        assert_eq!(read(&big5, None), traditional);
        assert_eq!(read(&gbk, None), simplified);
        assert_eq!(read(&big5, Some(Encoding::Big5)), traditional);
        // Told wrong, read as told.
        assert_ne!(read(&big5, Some(Encoding::Gbk)), traditional);
        assert_eq!(red(&read_xqf_in(&big5, Encoding::Big5).unwrap()), "呂欽");
        assert_eq!(red(&read_xqf(&big5).unwrap()), "呂欽");
        // GBK's symbols, which read as Big5 characters, are no sign of Big5.
        let symbols = xqf_with("王", "┌─┬─┐ αβγ", encoding_rs::GB18030);
        assert_eq!(
            read(&symbols, None),
            ("王".to_owned(), "┌─┬─┐ αβγ".to_owned())
        );
        // Names alone tell it too; text that is ASCII throughout is read as GBK (the same).
        let name_only = xqf_with("胡榮華", "", encoding_rs::BIG5);
        assert_eq!(read(&name_only, None).0, "胡榮華");
        assert_eq!(
            read(&xqf_with("Hu", "ok", encoding_rs::BIG5), None),
            ("Hu".to_owned(), "ok".to_owned())
        );
    }
}
