//! DhtmlXQ / UBB records (东萍 dpxq): `[DhtmlXQ_tag]value[/DhtmlXQ_tag]` pairs inside
//! `[DhtmlXQ] … [/DhtmlXQ]`.
//!
//! `binit`: 64 digits, the 32 pieces' (x, y), Red R N B A K A B N R C C P P P P P then Black, x from
//! the left, y from the top, `99` off the board. `movelist`: four digits per move (x1 y1 x2 y2).
//! `move_P_S_B`: branch B leaves branch P (0 = the main line) at step S, its first move replacing
//! move S. `commentS` follows main-line move S (0: before the first move), `commentB_S` move S of
//! branch B. `||` is a line break, `\uXXXX` an escaped character. The side to move is the first
//! move's.

use std::{collections::HashMap, ops::Range};

use xq_core::{Board, Color, File, Move, Piece, Rank, Square};

use crate::{
    error::{ReadError, ReadErrorKind},
    game::{Game, Node, Outcome},
    pgn::MAX_DEPTH,
    slots::{ROLES, homeless_words, slots, unplayable_start},
};

/// DhtmlXQ fields that have a PGN or XQF counterpart, and the tags they become (both ways).
/// `author` is who wrote the record (XQF 作者), `remark` who annotated it (PGN `Annotator`, XQF
/// 评论者); `redtime`/`blacktime` are each side's time (XQF).
const TAGS: [(&str, &str); 19] = [
    ("title", "Title"),
    ("event", "Event"),
    ("date", "Date"),
    ("place", "Site"),
    ("round", "Round"),
    ("table", "Table"),
    ("group", "Group"),
    ("timerule", "TimeControl"),
    ("red", "Red"),
    ("redteam", "RedTeam"),
    ("redtime", "RedTime"),
    ("black", "Black"),
    ("blackteam", "BlackTeam"),
    ("blacktime", "BlackTime"),
    ("open", "Opening"),
    ("remark", "Annotator"),
    ("author", "Author"),
    ("owner", "Owner"),
    ("type", "Type"),
];

/// The prefix of the tags that keep the DhtmlXQ fields without a PGN or XQF counterpart
/// (`gametype`, `class`, `refer`, `ver` …): `DhtmlXQ_gametype`. They are written back as they were.
const KEPT: &str = "DhtmlXQ_";

/// Fields that carry the game itself (position, moves, result, comments), never kept as tags.
fn is_structural(name: &str) -> bool {
    matches!(name, "binit" | "movelist" | "fen" | "result")
        || name.starts_with("move_")
        || is_comment_field(name)
}

/// Whether `name` is a comment's field: `comment` and digits and `_` (`comment3`, `comment2_5`).
fn is_comment_field(name: &str) -> bool {
    name.strip_prefix("comment")
        .is_some_and(|rest| rest.bytes().all(|b| b.is_ascii_digit() || b == b'_'))
}

/// How many bytes at the start of `text` are letters, digits or `_`: the characters of a field
/// name (`[DhtmlXQ_name]`), and of a PGN tag's.
pub(crate) fn name_len(text: &str) -> usize {
    text.bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
        .count()
}

/// Whether `name` can stand as a field name (`[DhtmlXQ_name]`): letters, digits, `_`.
fn is_field_name(name: &str) -> bool {
    !name.is_empty() && name_len(name) == name.len()
}

/// The DhtmlXQ field a tag is written as, if any.
fn field_of(tag: &str) -> Option<String> {
    if let Some((name, _)) = TAGS.iter().find(|(_, t)| t.eq_ignore_ascii_case(tag)) {
        return Some((*name).to_owned());
    }
    let name = tag.strip_prefix(KEPT)?;
    (is_field_name(name) && !is_structural(name) && !TAGS.iter().any(|(n, _)| *n == name))
        .then(|| name.to_owned())
}

/// The name of a field at the start of `rest` (after `[DhtmlXQ_` or `[/DhtmlXQ_`): letters,
/// digits and `_`, then `]`. Read up to the first other character, so that the names of two
/// markers never overlap and each byte of a text is read once.
pub(crate) fn field_name_at(rest: &str) -> Option<&str> {
    let len = name_len(rest);
    (len > 0 && rest[len..].starts_with(']')).then(|| &rest[..len])
}

/// The `[DhtmlXQ_name]value[/DhtmlXQ_name]` pairs of a text (a name of letters, digits and `_`,
/// as the format's are), in order: each name, and where its value stands in the text. An opening
/// is closed by the first closing of its name after it; an opening never closed is passed over.
/// Where every name is closed is found in one pass first, so that text full of openings never
/// closed takes time in proportion to its length (looking for each opening's closing afresh took
/// seconds on half a megabyte of them); the pairs are then found one at a time, as they are
/// asked for.
pub(crate) fn field_spans(text: &str) -> impl Iterator<Item = (&str, Range<usize>)> {
    const OPEN: &str = "[DhtmlXQ_";
    const CLOSE: &str = "[/DhtmlXQ_";
    // Each name's closings, in order, and how many of them lie behind the reading.
    let mut closings: HashMap<&str, (Vec<usize>, usize)> = Default::default();
    // (A vector search: every PGN file is looked over for fields once.)
    for at in memchr::memmem::find_iter(text.as_bytes(), CLOSE) {
        if let Some(name) = field_name_at(&text[at + CLOSE.len()..]) {
            closings.entry(name).or_default().0.push(at);
        }
    }
    let mut from = 0;
    std::iter::from_fn(move || {
        if closings.is_empty() {
            return None;
        }
        while let Some(found) = memchr::memmem::find(&text.as_bytes()[from..], OPEN.as_bytes()) {
            let start = from + found;
            let Some(name) = field_name_at(&text[start + OPEN.len()..]) else {
                from = start + OPEN.len();
                continue;
            };
            let at = start + OPEN.len() + name.len() + 1;
            let end = closings.get_mut(name).and_then(|(ends, passed)| {
                while ends.get(*passed).is_some_and(|&e| e < at) {
                    *passed += 1;
                }
                ends.get(*passed).copied()
            });
            let Some(end) = end else {
                from = at;
                continue;
            };
            from = end + CLOSE.len() + name.len() + 1;
            return Some((name, at..end));
        }
        None
    })
}

/// What opens a record of fields, and what closes it.
pub(crate) const RECORD_OPEN: &str = "[DhtmlXQ]";
pub(crate) const RECORD_CLOSE: &str = "[/DhtmlXQ]";

/// The fields one after another at the start of `text`, as a record among other text (PGN
/// games) has them after its [`RECORD_OPEN`], or without one: `[DhtmlXQ_name]value[/DhtmlXQ_name]`,
/// each value running to its own closing with no other DhtmlXQ marker in it, only spaces between
/// them, and the [`RECORD_CLOSE`] after them if one follows (a record not closed, or written
/// without them, ends with its last field). Their length (0 if `text` starts with none), and how
/// far into `text` was looked to tell (its length when the end of `text` was reached: more text
/// might have held more). Each byte is looked at a bounded number of times: a value is searched
/// only to the next marker.
pub(crate) fn field_run_len(text: &str) -> (usize, usize) {
    const OPEN: &str = "[DhtmlXQ_";
    const CLOSE: &str = "[/DhtmlXQ_";
    let (mut len, mut at) = (0, 0);
    loop {
        let rest = &text[at..];
        let Some(after) = rest.strip_prefix(OPEN) else {
            if len > 0 && rest.starts_with(RECORD_CLOSE) {
                len = at + RECORD_CLOSE.len();
            }
            // (Looked at as many bytes as the longest marker has.)
            return (len, (at + RECORD_CLOSE.len()).min(text.len()));
        };
        let looked_at_name = (at + OPEN.len() + name_len(after) + 1).min(text.len());
        let Some(name) = field_name_at(after) else {
            return (len, looked_at_name);
        };
        let value = at + OPEN.len() + name.len() + 1;
        let Some(marker) = next_marker(&text[value..]).map(|i| value + i) else {
            return (len, text.len());
        };
        let closing = text[marker..]
            .strip_prefix(CLOSE)
            .and_then(field_name_at)
            .filter(|closed| *closed == name);
        if closing.is_none() {
            return (len, (marker + CLOSE.len() + name.len() + 1).min(text.len()));
        }
        len = marker + CLOSE.len() + name.len() + 1;
        let after_field = &text[len..];
        at = len + (after_field.len() - after_field.trim_start().len());
    }
}

/// Where the first DhtmlXQ marker (`[DhtmlXQ…` or `[/DhtmlXQ…`) of `text` starts.
fn next_marker(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    memchr::memmem::find_iter(bytes, b"DhtmlXQ").find_map(|i| match bytes.get(..i) {
        Some([.., b'[']) => Some(i - 1),
        Some([.., b'[', b'/']) => Some(i - 2),
        _ => None,
    })
}

/// The fields of `text` opened and never closed, which `closed` (its closed ones, in order: name
/// and where the value stands) does not hold: name, and where the value stands (up to the next
/// DhtmlXQ marker, or the end). An opening inside a closed field's value is that value's text.
fn unclosed_fields<'t>(
    text: &'t str,
    closed: &[(&str, Range<usize>)],
) -> Vec<(&'t str, Range<usize>)> {
    const OPEN: &str = "[DhtmlXQ_";
    let mut out = Vec::new();
    for (start, _) in text.match_indices(OPEN) {
        let Some(name) = field_name_at(&text[start + OPEN.len()..]) else {
            continue;
        };
        let at = start + OPEN.len() + name.len() + 1;
        // The closed field starting last at or before this opening.
        let before = closed.partition_point(|(_, value)| value.start <= at);
        let inside = before
            .checked_sub(1)
            .is_some_and(|i| closed[i].1.end >= start);
        if inside
            || closed
                .get(before.wrapping_sub(1))
                .is_some_and(|(_, value)| value.start == at)
        {
            continue;
        }
        let end = next_marker(&text[at..]).map_or(text.len(), |i| at + i);
        out.push((name, at..end));
    }
    out
}

/// Where the values of the fields of `text` stand, closed ones and those never closed (as the
/// reader takes them: up to the next marker), in order: the text the reader reads.
pub(crate) fn value_spans(text: &str) -> Vec<Range<usize>> {
    let mut spans = Vec::new();
    // Record by record, as the reader reads them (a field left open in one is never closed by
    // the next one's closing).
    for record in records(text) {
        let (fields, _) = field_values(&text[record.clone()]);
        let mut values: Vec<Range<usize>> = fields.into_iter().map(|(_, value)| value).collect();
        values.sort_unstable_by_key(|value| value.start);
        spans.extend(
            values
                .into_iter()
                .map(|value| record.start + value.start..record.start + value.end),
        );
    }
    spans
}

/// The fields of a record as its reader takes them: the closed ones ([`field_spans`]), in
/// order, then those never closed ([`unclosed_fields`]); each name and where its value stands;
/// and how many are closed.
fn field_values(text: &str) -> (Vec<(&str, Range<usize>)>, usize) {
    let mut fields: Vec<(&str, Range<usize>)> = field_spans(text).collect();
    let closed = fields.len();
    let unclosed = unclosed_fields(text, &fields);
    fields.extend(unclosed);
    (fields, closed)
}

/// A value as a field holds it: the characters that would end the field or be read as a line
/// break or an escape (`[`, `]`, `|`, `\\`) as `\\uXXXX`, line breaks as `||` (what [`unescape`]
/// reads back).
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '[' | ']' | '|' | '\\' => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            '\n' => out.push_str("||"),
            c => out.push(c),
        }
    }
    out
}

fn unescape(text: &str) -> String {
    let text = text.replace("||", "\n");
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' && chars.peek() == Some(&'u') {
            let hex: String = chars.clone().skip(1).take(4).collect();
            if let Some(ch) = u32::from_str_radix(&hex, 16)
                .ok()
                .and_then(char::from_u32)
                .filter(|_| hex.len() == 4)
            {
                out.push(ch);
                for _ in 0..5 {
                    chars.next();
                }
                continue;
            }
        }
        out.push(c);
    }
    out
}

fn square(x: u32, y: u32) -> Option<Square> {
    if y > 9 {
        return None;
    }
    Some(Square::new(File::try_new(x)?, Rank::try_new(9 - y)?))
}

/// A move of a DhtmlXQ move list: the move, where its four digits start (a byte offset in the
/// text read) and on which line, and the digits as written.
#[derive(Clone, Debug)]
struct Written {
    m: Move,
    at: usize,
    line: u32,
    digits: String,
}

/// The moves of a move list `value`, which starts at byte `at` of `text` (whose first line is
/// `line`).
fn moves_of(value: &str, at: usize, text: &str, line: u32) -> Result<Vec<Written>, ReadError> {
    let digits: Vec<(usize, u32)> = value
        .char_indices()
        .filter_map(|(i, c)| c.to_digit(10).map(|d| (i, d)))
        .collect();
    // An error at byte `i` of the value: placed in `text` (the caller places it in the file).
    let placed = |err: ReadError, i: usize| {
        err.at(at + i)
            .on_line(line + newlines(text.get(..at + i).unwrap_or("")))
    };
    if !digits.len().is_multiple_of(4) {
        // The digits left over start the last, short, move.
        let short = digits.len() - digits.len() % 4;
        return Err(placed(
            ReadError::new(
                ReadErrorKind::Syntax,
                format!(
                    "a DhtmlXQ move list must have four digits per move: {} digits, the last move has {}",
                    digits.len(),
                    digits.len() % 4
                ),
            ),
            digits[short].0,
        ));
    }
    // The line each move starts on, counted on from the last move's (counting from the text's
    // start for each move took time in the square of the list's length).
    let (mut counted, mut counted_line) = (at, line + newlines(text.get(..at).unwrap_or("")));
    digits
        .chunks(4)
        .map(|group| {
            let d: Vec<u32> = group.iter().map(|&(_, d)| d).collect();
            let written: String = d.iter().map(u32::to_string).collect();
            match (square(d[0], d[1]), square(d[2], d[3])) {
                (Some(from), Some(to)) => {
                    let start = at + group[0].0;
                    counted_line += newlines(text.get(counted..start).unwrap_or(""));
                    counted = start;
                    Ok(Written {
                        m: Move::new(from, to),
                        at: start,
                        line: counted_line,
                        digits: written,
                    })
                }
                _ => Err(placed(
                    ReadError::new(
                        ReadErrorKind::Syntax,
                        format!("the DhtmlXQ move {written} names a point off the board"),
                    ),
                    group[0].0,
                )),
            }
        })
        .collect()
}

/// Reads the DhtmlXQ records of a text (a page may hold several).
pub fn read_dhtmlxq(text: &str) -> Vec<Result<Game, ReadError>> {
    // The line on which `text[counted..]` starts.
    let (mut line, mut counted) = (1, 0);
    records(text)
        .enumerate()
        .map(|(index, record)| {
            line += newlines(&text[counted..record.start]);
            counted = record.start;
            read_one(&text[record.clone()], record.start, line).map_err(|e| e.in_game(index))
        })
        .collect()
}

/// Where the records of a text stand, in order: each from its [`RECORD_OPEN`] to its
/// [`RECORD_CLOSE`], or, not closed, to where the next one opens (a page's later records are
/// never read into the one before) or the end; without any, the whole text when it has a field.
fn records(text: &str) -> impl Iterator<Item = Range<usize>> + '_ {
    let mut at = 0;
    let mut any = false;
    std::iter::from_fn(move || {
        let Some(start) = text[at..].find(RECORD_OPEN).map(|i| at + i) else {
            let bare = !any && text.contains("[DhtmlXQ_");
            any = true;
            at = text.len();
            return bare.then_some(0..text.len());
        };
        any = true;
        let body = &text[start..];
        let next = body[RECORD_OPEN.len()..]
            .find(RECORD_OPEN)
            .map_or(body.len(), |i| i + RECORD_OPEN.len());
        let end = body[..next]
            .find(RECORD_CLOSE)
            .map_or(next, |e| e + RECORD_CLOSE.len());
        at = start + end;
        Some(start..at)
    })
}

fn newlines(text: &str) -> u32 {
    crate::place::newlines(text.as_bytes())
}

/// Reads the record `text`, which starts at byte `base` and line `line` of the text read.
pub(crate) fn read_one(text: &str, base: usize, line: u32) -> Result<Game, ReadError> {
    // Fields never closed (a page cut short, a closing misspelt), read to the next marker,
    // after the closed ones (which are read first when a name has both), and said.
    let (found, closed) = field_values(text);
    let fields: Vec<(String, String, usize)> = found
        .into_iter()
        .map(|(name, value)| (name.to_owned(), text[value.clone()].to_owned(), value.start))
        .collect();
    // Each name's field, found at once (a record may have a field for every move): the first
    // with a value, else the first. Of the others given with a value, how many differ from it.
    let mut first: HashMap<&str, usize> = HashMap::with_capacity(fields.len());
    for (i, (name, _, _)) in fields.iter().enumerate() {
        let slot = first.entry(name.as_str()).or_insert(i);
        if fields[*slot].1.trim().is_empty() {
            *slot = i;
        }
    }
    let mut differing: std::collections::BTreeMap<&str, usize> = Default::default();
    for (i, (name, value, _)) in fields.iter().enumerate() {
        // (Branches given twice are said as branches.)
        let repeated = is_structural(name) && !name.starts_with("move_");
        let read = first.get(name.as_str()).copied().unwrap_or(i);
        // (Compared as written, but for spaces around: each comparison costs at most the
        // shorter value, which a record of many repeats holds.)
        let value = value.trim();
        if repeated && read != i && !value.is_empty() && value != fields[read].1.trim() {
            *differing.entry(name.as_str()).or_default() += 1;
        }
    }
    let field = |name: &str| first.get(name).map(|&i| &fields[i]);
    let get = |name: &str| field(name).map(|(_, v, _)| v.as_str());
    let mut game = Game::default();
    for (name, _, at) in &fields[closed..] {
        game.unread.push(format!(
            "the end of the field [DhtmlXQ_{name}] (line {}), never closed with [/DhtmlXQ_{name}]: its text is taken up to the next field, or the record's end",
            line + newlines(&text[..*at])
        ));
    }
    for (name, n) in differing {
        game.unread.push(match n {
            1 => format!("the field {name} given again with another value (the first one with a value is read)"),
            n => format!("the field {name} given {n} more times with other values (the first one with a value is read)"),
        });
    }
    for (i, (name, value, _)) in fields.iter().enumerate() {
        // Of a field of the game given more than once, the one read.
        if is_structural(name) && first.get(name.as_str()) != Some(&i) {
            continue;
        }
        let value = unescape(value).trim().to_owned();
        if value.is_empty() {
            continue;
        }
        if let Some((_, tag)) = TAGS.iter().find(|(n, _)| n == name) {
            game.tags.push(((*tag).to_owned(), value));
        } else if name == "result" {
            // A result in words of more than a plain outcome (a ruling and its reason,
            // `黑方长将不变判负`), or that this reader does not know, is kept as written.
            let result = match Outcome::parse(&value) {
                Some(o) if crate::game::is_plain_result(&value) => o.pgn().to_owned(),
                _ => value,
            };
            game.tags.push(("Result".to_owned(), result));
        } else if !is_structural(name) && is_field_name(name) {
            game.tags.push((format!("{KEPT}{name}"), value));
        }
    }

    // An error placed in `text` placed in the text read.
    let shifted = |mut err: ReadError| {
        err.offset = err.offset.map(|o| base + o);
        err
    };
    let main = match field("movelist") {
        Some((_, value, at)) => moves_of(value, *at, text, line).map_err(shifted)?,
        None => Vec::new(),
    };
    // The start position: a FEN if given, else binit, else the standard one.
    let mut board = Board::start();
    let mut has_position = false;
    if let Some(binit) = get("binit") {
        let digits: Vec<u32> = binit.chars().filter_map(|c| c.to_digit(10)).collect();
        if digits.len() != 64 {
            let at = field("binit").map_or(0, |(_, _, at)| *at);
            return Err(shifted(
                ReadError::new(
                    ReadErrorKind::Syntax,
                    format!(
                        "DhtmlXQ binit must have 64 digits (32 pieces × x, y), not {}",
                        digits.len()
                    ),
                )
                .at(at)
                .on_line(line + newlines(&text[..at])),
            ));
        }
        board = Board::empty();
        for (i, xy) in digits.chunks(2).enumerate() {
            if let Some(sq) = square(xy[0], xy[1]) {
                let color = if i < 16 { Color::Red } else { Color::Black };
                board.put(sq, Piece::new(color, ROLES[i % 16]));
            }
        }
        has_position = true;
    }
    // Where the start position is written: the FEN, else binit (not a FEN: the place only).
    let written = field("fen")
        .filter(|(_, v, _)| !v.trim().is_empty())
        .or_else(|| field("binit").filter(|_| has_position));
    if let Some((_, value, at)) = written {
        let at = at + (value.len() - value.trim_start().len());
        game.fen_offset = Some(base + at);
        game.fen_line = Some(line + newlines(&text[..at]));
    }
    if let Some(fen) = get("fen").map(str::trim).filter(|f| !f.is_empty()) {
        game.fen = Some(fen.to_owned());
    } else if has_position {
        let turn = main
            .first()
            .and_then(|w| board.piece_at(w.m.from))
            .map_or(Color::Red, |p| p.color);
        game.set_start(board, turn);
    }

    // Branches: each defined by its first field (a branch with two parents would be built for
    // each, and a tree of such branches grew exponentially).
    let mut branches = Branches::default();
    let mut defined = std::collections::HashSet::from([0]);
    for (name, value, at) in &fields {
        let Some(spec) = name.strip_prefix("move_") else {
            continue;
        };
        let parts: Option<Vec<usize>> = spec.split('_').map(|p| p.parse().ok()).collect();
        match parts.as_deref() {
            Some(&[parent, _, id]) if parent == id => game
                .unread
                .push(format!("branch {id} ({name}), which leaves itself")),
            Some(&[parent, step, id]) if defined.insert(id) => {
                let moves = moves_of(value, *at, text, line).map_err(shifted)?;
                branches.add(id, parent, step, moves);
            }
            Some(&[_, _, 0]) => game.unread.push(format!(
                "a branch numbered 0 ({name}), the main line's number"
            )),
            Some(&[_, _, id]) => game.unread.push(format!(
                "branch {id} given again ({name}; the first one given is read)"
            )),
            _ => game.unread.push(format!(
                "the field {name}, whose name is no branch's (move_PARENT_STEP_BRANCH)"
            )),
        }
    }
    // The comment fields asked for, to say which follow no move.
    let asked = std::cell::RefCell::new(std::collections::HashSet::new());
    let comment_of = |branch: usize, step: usize| -> Option<String> {
        let name = if branch == 0 {
            format!("comment{step}")
        } else {
            format!("comment{branch}_{step}")
        };
        let comment = get(&name)
            .map(unescape)
            .map(|c| c.trim().to_owned())
            .filter(|c| !c.is_empty());
        asked.borrow_mut().insert(name);
        comment
    };
    game.moves = build(0, 1, &main, &branches, &comment_of, 0)?;
    // The moves' places, in the text read (the caller moves them to the file's bytes).
    offset_moves(&mut game.moves, base);
    game.comment = comment_of(0, 0);
    for (key, leaving) in &branches.leaving {
        if !branches.taken.borrow().contains(key) {
            for (id, _) in leaving {
                game.unread.push(format!(
                    "branch {id}, which leaves move {} of line {}, a move not reached from the main line",
                    key.1, key.0
                ));
            }
        }
    }
    let asked = asked.into_inner();
    for (name, value, _) in &fields {
        // (A field named `comment` alone is no move's comment: not said.)
        let unplaced = is_comment_field(name) && name != "comment" && !asked.contains(name);
        if unplaced && !unescape(value).trim().is_empty() {
            game.unread.push(format!(
                "the comment {name}, which follows no move of the record"
            ));
        }
    }
    // (Sorted: branches are kept in a map, whose order is no order.)
    game.unread.sort();
    Ok(game)
}

/// A branch: its id and its moves.
type Branch = (usize, Vec<Written>);

/// The branches of a record, found by where they leave their parent.
#[derive(Default)]
struct Branches {
    /// For a branch's id and a step of it, the branches leaving it there, in the record's order.
    leaving: HashMap<(usize, usize), Vec<Branch>>,
    /// The places of `leaving` that building the tree reached.
    taken: std::cell::RefCell<std::collections::HashSet<(usize, usize)>>,
}

impl Branches {
    /// Branch `id`, whose first move replaces move `step` of branch `parent`.
    fn add(&mut self, id: usize, parent: usize, step: usize, moves: Vec<Written>) {
        self.leaving
            .entry((parent, step))
            .or_default()
            .push((id, moves));
    }
}

/// The nodes of branch `id`, whose first move is step `first`, with the branches leaving it.
fn build(
    id: usize,
    first: usize,
    moves: &[Written],
    branches: &Branches,
    comment_of: &dyn Fn(usize, usize) -> Option<String>,
    depth: usize,
) -> Result<Vec<Node>, ReadError> {
    if depth > MAX_DEPTH {
        return Err(ReadError::new(
            ReadErrorKind::TooDeep,
            format!("branches nested deeper than {MAX_DEPTH} levels"),
        ));
    }
    let mut line = Vec::with_capacity(moves.len());
    for (i, w) in moves.iter().enumerate() {
        let step = first + i;
        let mut node = Node::coord(w.m);
        node.set_written(Some(w.digits.clone()));
        node.set_source_offset(Some(w.at));
        node.set_source_line(Some(w.line));
        node.set_comment(comment_of(id, step));
        let leaving = branches.leaving.get(&(id, step));
        if leaving.is_some() {
            branches.taken.borrow_mut().insert((id, step));
        }
        for (child, child_moves) in leaving.into_iter().flatten() {
            node.add_variation(build(
                *child,
                step,
                child_moves,
                branches,
                comment_of,
                depth + 1,
            )?);
        }
        line.push(node);
    }
    Ok(line)
}

/// Every move's place moved by `base` bytes (where the record starts in the text read).
fn offset_moves(line: &mut [Node], base: usize) {
    for node in line {
        node.set_source_offset(node.source_offset().map(|at| at + base));
        for v in node.variations_mut() {
            offset_moves(v, base);
        }
    }
}

/// The tags of `game` that DhtmlXQ has no field for, in words, if any.
pub(crate) fn dhtmlxq_tag_losses(game: &Game) -> Option<String> {
    let lost: Vec<&str> = game
        .tags
        .iter()
        .filter(|(k, v)| {
            !v.trim().is_empty()
                && field_of(k).is_none()
                && !["Result", "FEN"].iter().any(|t| t.eq_ignore_ascii_case(k))
                && !crate::game::is_implied_game_tag(k, v)
        })
        .map(|(k, _)| k.as_str())
        .collect();
    (!lost.is_empty()).then(|| format!("tags DhtmlXQ has no field for: {}", lost.join(", ")))
}

/// What writing `game` as DhtmlXQ drops of its start position: pieces its slots cannot hold, or
/// a start position that cannot be played (its FEN is kept in the `fen` field; `binit` cannot
/// hold it).
pub(crate) fn dhtmlxq_start_loss(game: &Game) -> Option<String> {
    match crate::replay::start_position(game) {
        Ok((pos, _)) => homeless_words(slots(&pos).1, "DhtmlXQ"),
        Err(bad) => Some(unplayable_start(
            &bad,
            "DhtmlXQ's binit (the fen field keeps the FEN)",
        )),
    }
}

/// Writes `game` (replayed: every node has its coordinates) as a DhtmlXQ record.
pub(crate) fn write_dhtmlxq(game: &Game) -> String {
    let mut out = String::from("[DhtmlXQ]\n");
    let mut field = |name: &str, value: &str| {
        let value = escape(value);
        out.push_str(&format!("[DhtmlXQ_{name}]{value}[/DhtmlXQ_{name}]\n"));
    };
    for (tag, value) in &game.tags {
        if let Some(name) = field_of(tag) {
            field(&name, value);
        }
    }
    if let Some(words) = game.unread_result() {
        // (The field is words: a result in words of its own, or with words of a ruling or a
        // reason, `0-1 forfeit`, is kept as it is.)
        field("result", words);
    } else if let Some(outcome) = game.outcome() {
        let word = match outcome {
            Outcome::RedWins => "红胜",
            Outcome::BlackWins => "黑胜",
            Outcome::Draw => "和棋",
            Outcome::Unknown => "未知",
        };
        field("result", word);
    }
    let pos = crate::replay::start_position(game)
        .map(|(p, _)| p)
        .unwrap_or_default();
    let (places, _) = slots(&pos);
    let mut binit = String::new();
    for place in places {
        match place {
            Some(sq) => binit.push_str(&format!("{}{}", sq.file().index(), 9 - sq.rank().index())),
            None => binit.push_str("99"),
        }
    }
    field("binit", &binit);
    if let Some(fen) = &game.fen {
        field("fen", fen);
    }
    let digits = |m: Option<Move>| {
        m.map_or_else(String::new, |m| {
            format!(
                "{}{}{}{}",
                m.from.file().index(),
                9 - m.from.rank().index(),
                m.to.file().index(),
                9 - m.to.rank().index()
            )
        })
    };
    let movelist: String = game.moves.iter().map(|n| digits(n.m)).collect();
    field("movelist", &movelist);
    if let Some(c) = &game.comment {
        field("comment0", c);
    }
    // Branches in order of discovery, with their comments.
    let mut next_id = 1;
    let mut pending: Vec<(usize, usize, &[Node])> = vec![(0, 1, &game.moves)];
    while let Some((id, first, line)) = pending.pop() {
        for (i, node) in line.iter().enumerate() {
            let step = first + i;
            if let Some(c) = node.comment() {
                field(
                    &if id == 0 {
                        format!("comment{step}")
                    } else {
                        format!("comment{id}_{step}")
                    },
                    c,
                );
            }
            for v in node.variations() {
                let child = next_id;
                next_id += 1;
                field(
                    &format!("move_{id}_{step}_{child}"),
                    &v.iter().map(|n| digits(n.m)).collect::<String>(),
                );
                pending.push((child, step, v));
            }
        }
    }
    out.push_str("[/DhtmlXQ]\n");
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    /// The fields of a text ([`field_spans`]): name, value, where the value starts.
    fn fields(text: &str) -> Vec<(String, String, usize)> {
        field_spans(text)
            .map(|(name, value)| (name.to_owned(), text[value.clone()].to_owned(), value.start))
            .collect()
    }

    /// Every field of a dpxq record, with one move.
    const FULL: &str = "[DhtmlXQ]
[DhtmlXQ_ver]www_dpxq_com[/DhtmlXQ_ver]
[DhtmlXQ_title]标题[/DhtmlXQ_title]
[DhtmlXQ_event]赛事[/DhtmlXQ_event]
[DhtmlXQ_date]2020-01-02[/DhtmlXQ_date]
[DhtmlXQ_place]北京[/DhtmlXQ_place]
[DhtmlXQ_round]第3轮[/DhtmlXQ_round]
[DhtmlXQ_table]1[/DhtmlXQ_table]
[DhtmlXQ_group]甲组[/DhtmlXQ_group]
[DhtmlXQ_timerule]60分钟[/DhtmlXQ_timerule]
[DhtmlXQ_red]红方[/DhtmlXQ_red]
[DhtmlXQ_redteam]红队[/DhtmlXQ_redteam]
[DhtmlXQ_redtime]30分[/DhtmlXQ_redtime]
[DhtmlXQ_black]黑方[/DhtmlXQ_black]
[DhtmlXQ_blackteam]黑队[/DhtmlXQ_blackteam]
[DhtmlXQ_blacktime]31分[/DhtmlXQ_blacktime]
[DhtmlXQ_open]中炮[/DhtmlXQ_open]
[DhtmlXQ_remark]评注者[/DhtmlXQ_remark]
[DhtmlXQ_author]录入者[/DhtmlXQ_author]
[DhtmlXQ_owner]东萍[/DhtmlXQ_owner]
[DhtmlXQ_type]实战全局[/DhtmlXQ_type]
[DhtmlXQ_gametype]象棋[/DhtmlXQ_gametype]
[DhtmlXQ_class]大师[/DhtmlXQ_class]
[DhtmlXQ_refer]某书[/DhtmlXQ_refer]
[DhtmlXQ_firstnum]0[/DhtmlXQ_firstnum]
[DhtmlXQ_result]红胜[/DhtmlXQ_result]
[DhtmlXQ_binit]8979695949392919097717866646260600102030405060708012720323436383[/DhtmlXQ_binit]
[DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]
[/DhtmlXQ]";

    fn tag<'a>(game: &'a Game, name: &str) -> Option<&'a str> {
        game.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The fields of random texts of openings, closings and words are what looking for each
    /// opening's closing afresh finds.
    /// A branch is defined once, by its first field: a branch with two parents (or a second
    /// field for one) is built once, not once for each (forty layers of such branches made a
    /// tree of 2^40 moves); a branch leaving itself is none. Moves on later lines of a move list
    /// are on those lines.
    #[test]
    fn each_branch_is_built_once() {
        let mut text = String::from("[DhtmlXQ]\n[DhtmlXQ_movelist]7747\n7062[/DhtmlXQ_movelist]\n");
        text.push_str("[DhtmlXQ_move_0_1_1]7242[/DhtmlXQ_move_0_1_1]\n");
        text.push_str("[DhtmlXQ_move_0_1_2]1242[/DhtmlXQ_move_0_1_2]\n");
        for k in 0..40 {
            let (a, b, c, d) = (2 * k + 1, 2 * k + 2, 2 * k + 3, 2 * k + 4);
            for (parent, child) in [(a, c), (a, d), (b, c), (b, d)] {
                text.push_str(&format!(
                    "[DhtmlXQ_move_{parent}_1_{child}]7242[/DhtmlXQ_move_{parent}_1_{child}]\n"
                ));
            }
        }
        text.push_str("[DhtmlXQ_move_90_1_90]7242[/DhtmlXQ_move_90_1_90]\n[/DhtmlXQ]\n");
        let game = read_dhtmlxq(&text).remove(0).unwrap();
        fn count(line: &[Node]) -> usize {
            line.iter()
                .map(|n| 1 + n.variations().iter().map(|v| count(v)).sum::<usize>())
                .sum()
        }
        // The main line's two moves and branches 1 to 82, one move each.
        assert_eq!(count(&game.moves), 2 + 82);
        let lines: Vec<_> = game.moves.iter().map(|n| n.source_line()).collect();
        assert_eq!(lines, [Some(2), Some(3)]);
    }

    /// A record not closed ends where the next opens: a page's later records are read, not
    /// lost in the one before.
    #[test]
    fn a_record_not_closed_ends_at_the_next() {
        let text = "<html>\n[DhtmlXQ]\n[DhtmlXQ_red]A[/DhtmlXQ_red]\n\
                    [DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]\n<p>next</p>\n\
                    [DhtmlXQ]\n[DhtmlXQ_red]B[/DhtmlXQ_red]\n\
                    [DhtmlXQ_movelist]77477062[/DhtmlXQ_movelist]\n[/DhtmlXQ]\n</html>\n";
        let games: Vec<Game> = read_dhtmlxq(text).into_iter().map(Result::unwrap).collect();
        let read: Vec<(Option<&str>, usize)> = games
            .iter()
            .map(|g| (g.tag("Red"), g.moves.len()))
            .collect();
        assert_eq!(read, [(Some("A"), 1), (Some("B"), 2)]);
    }

    /// A field never closed (a page cut short, a closing misspelt) is read to the next field or
    /// the record's end, and said; an opening inside a closed field's value is its text.
    #[test]
    fn a_field_never_closed_is_read_to_the_next_and_said() {
        let text = "[DhtmlXQ]\n[DhtmlXQ_title]abc[/DhtmlXQ_titel]\n\
                    [DhtmlXQ_red]R [DhtmlXQ_x] r[/DhtmlXQ_red]\n\
                    [DhtmlXQ_movelist]77477062\n[/DhtmlXQ]\n";
        let game = read_dhtmlxq(text).remove(0).unwrap();
        assert_eq!(game.tag("Title"), Some("abc"));
        assert_eq!(game.tag("Red"), Some("R [DhtmlXQ_x] r"));
        assert_eq!(game.moves.len(), 2);
        assert_eq!(game.unread.len(), 2, "{:?}", game.unread);
        let said = |what: &str| game.unread.iter().any(|u| u.contains(what));
        assert!(
            said("[DhtmlXQ_title] (line 2), never closed"),
            "{:?}",
            game.unread
        );
        assert!(said("[DhtmlXQ_movelist] (line 4)"), "{:?}", game.unread);
        // Cut short at the file's end, no record closing: the same.
        let game = read_dhtmlxq("[DhtmlXQ]\n[DhtmlXQ_movelist]7747706279678070")
            .remove(0)
            .unwrap();
        assert_eq!(game.moves.len(), 4);
        assert_eq!(game.unread.len(), 1);
        // Closed, nothing said.
        let game = read_dhtmlxq("[DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]")
            .remove(0)
            .unwrap();
        assert!(game.unread.is_empty());
    }

    /// What a record holds and the game cannot place is said: a branch leaving a move its line
    /// does not have, a comment on a move that is not there, a branch given twice or leaving
    /// itself, a field of the game given again with another value (the same value again is
    /// nothing lost).
    #[test]
    fn what_is_not_read_is_said() {
        let text = "[DhtmlXQ]\n[DhtmlXQ_movelist]77477062[/DhtmlXQ_movelist]\n\
                    [DhtmlXQ_move_0_5_3]1242[/DhtmlXQ_move_0_5_3]\n\
                    [DhtmlXQ_move_0_1_1]1242[/DhtmlXQ_move_0_1_1]\n\
                    [DhtmlXQ_move_0_2_1]1242[/DhtmlXQ_move_0_2_1]\n\
                    [DhtmlXQ_move_4_1_4]1242[/DhtmlXQ_move_4_1_4]\n\
                    [DhtmlXQ_move_1_2_0]1242[/DhtmlXQ_move_1_2_0]\n\
                    [DhtmlXQ_move_0_x_2_1]1242[/DhtmlXQ_move_0_x_2_1]\n\
                    [DhtmlXQ_comment2]kept[/DhtmlXQ_comment2]\n\
                    [DhtmlXQ_comment2]again[/DhtmlXQ_comment2]\n\
                    [DhtmlXQ_comment2] kept [/DhtmlXQ_comment2]\n\
                    [DhtmlXQ_comment99]lost[/DhtmlXQ_comment99]\n[/DhtmlXQ]\n";
        let game = read_dhtmlxq(text).remove(0).unwrap();
        assert_eq!(game.moves[1].comment(), Some("kept"));
        assert_eq!(
            game.unread,
            [
                "a branch numbered 0 (move_1_2_0), the main line's number",
                "branch 1 given again (move_0_2_1; the first one given is read)",
                "branch 3, which leaves move 5 of line 0, a move not reached from the main line",
                "branch 4 (move_4_1_4), which leaves itself",
                "the comment comment99, which follows no move of the record",
                "the field comment2 given again with another value (the first one with a value is read)",
                "the field move_0_x_2_1, whose name is no branch's (move_PARENT_STEP_BRANCH)",
            ]
        );
        // A record whose every part has its place says nothing.
        assert!(read_dhtmlxq(FULL).remove(0).unwrap().unread.is_empty());
    }

    /// The result field in words: a result read as one, other words kept as written (and
    /// written back so).
    #[test]
    fn results_in_words() {
        let result = |value: &str| {
            let text = format!(
                "[DhtmlXQ]\n[DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]\n[DhtmlXQ_result]{value}[/DhtmlXQ_result]\n[/DhtmlXQ]\n"
            );
            read_dhtmlxq(&text).remove(0).unwrap()
        };
        for (value, read) in [
            ("和局", "1/2-1/2"),
            ("红先胜", "1-0"),
            // (With its reason, 超时 on time: kept as written, read as Black's win.)
            ("红方超时负", "红方超时负"),
            ("黑负", "1-0"),
            ("中止", "中止"),
        ] {
            let game = result(value);
            assert_eq!(game.tag("Result"), Some(read), "{value}");
            assert_eq!(game.outcome(), Outcome::parse(value), "{value}");
            let written = write_dhtmlxq(&game);
            let back = read_dhtmlxq(&written).remove(0).unwrap();
            assert_eq!(back.tag("Result"), Some(read), "{value}: {written}");
        }
    }

    /// A field of the game given more than once: the first with a value is read; the others
    /// with other values are said once per field, with how many they are.
    #[test]
    fn fields_given_more_than_once() {
        let record = |extra: &str| {
            let text = format!(
                "[DhtmlXQ]\n[DhtmlXQ_movelist]77477062[/DhtmlXQ_movelist]\n{extra}[/DhtmlXQ]\n"
            );
            read_dhtmlxq(&text).remove(0).unwrap()
        };
        let game = record("[DhtmlXQ_result][/DhtmlXQ_result][DhtmlXQ_result]红胜[/DhtmlXQ_result]");
        assert_eq!(game.tag("Result"), Some("1-0"));
        assert!(game.unread.is_empty(), "{:?}", game.unread);
        let many = "[DhtmlXQ_comment1]first[/DhtmlXQ_comment1]".to_owned()
            + &"[DhtmlXQ_comment1]other[/DhtmlXQ_comment1]".repeat(500);
        let game = record(&many);
        assert_eq!(game.moves[0].comment(), Some("first"));
        assert_eq!(
            game.unread,
            [
                "the field comment1 given 500 more times with other values (the first one with a value is read)"
            ]
        );
        // A branch given twice is said once, as a branch.
        let game = record(
            "[DhtmlXQ_move_0_1_1]1242[/DhtmlXQ_move_0_1_1][DhtmlXQ_move_0_1_1]7062[/DhtmlXQ_move_0_1_1]",
        );
        assert_eq!(game.unread.len(), 1, "{:?}", game.unread);
    }

    #[test]
    fn fields_are_found_as_by_looking_for_each_closing() {
        fn afresh(text: &str) -> Vec<(String, String, usize)> {
            let mut out = Vec::new();
            let mut rest = text;
            while let Some(start) = rest.find("[DhtmlXQ_") {
                let after = &rest[start + 9..];
                let Some(close) = after.find(']') else { break };
                let name = &after[..close];
                if !is_field_name(name) {
                    rest = &rest[start + 9..];
                    continue;
                }
                let body = &after[close + 1..];
                let end_tag = format!("[/DhtmlXQ_{name}]");
                let Some(end) = body.find(&end_tag) else {
                    rest = body;
                    continue;
                };
                let at = text.len() - body.len();
                out.push((name.to_owned(), body[..end].to_owned(), at));
                rest = &body[end + end_tag.len()..];
            }
            out
        }
        const PIECES: [&str; 12] = [
            "[DhtmlXQ_a b]",
            "[/DhtmlXQ_a b]",
            "[DhtmlXQ_a]",
            "[/DhtmlXQ_a]",
            "[DhtmlXQ_b]",
            "[/DhtmlXQ_b]",
            "[DhtmlXQ_",
            "[/DhtmlXQ_",
            "]",
            "a]",
            "x",
            "炮",
        ];
        let mut seed = xq_core::testing::XorShift(0x9e37_79b9_7f4a_7c15);
        for _ in 0..20_000 {
            let len = (seed.next() % 12) as usize;
            let text: String = (0..len)
                .map(|_| PIECES[(seed.next() % PIECES.len() as u64) as usize])
                .collect();
            assert_eq!(fields(&text), afresh(&text), "{text}");
        }
    }

    #[test]
    fn every_field_is_a_tag_author_and_annotator_the_right_way_round() {
        let game = read_dhtmlxq(FULL).remove(0).unwrap();
        assert_eq!(tag(&game, "Author"), Some("录入者"));
        assert_eq!(tag(&game, "Annotator"), Some("评注者"));
        assert_eq!(tag(&game, "RedTime"), Some("30分"));
        assert_eq!(tag(&game, "BlackTime"), Some("31分"));
        assert_eq!(tag(&game, "Owner"), Some("东萍"));
        assert_eq!(tag(&game, "Site"), Some("北京"));
        // Fields without a PGN/XQF counterpart are kept under their own name.
        for (field, value) in [
            ("ver", "www_dpxq_com"),
            ("gametype", "象棋"),
            ("class", "大师"),
            ("refer", "某书"),
            ("firstnum", "0"),
        ] {
            assert_eq!(
                tag(&game, &format!("DhtmlXQ_{field}")),
                Some(value),
                "{field}"
            );
        }
        // Nothing of the game itself becomes a tag.
        assert!(game.tags.iter().all(|(k, _)| !k.contains("movelist")
            && !k.contains("binit")
            && k != "DhtmlXQ_result"));
        assert_eq!(game.tags.len(), 25, "{:?}", game.tags);
    }

    #[test]
    fn every_field_is_written_back() {
        let game = read_dhtmlxq(FULL).remove(0).unwrap();
        assert_eq!(dhtmlxq_tag_losses(&game), None);
        assert_eq!(dhtmlxq_start_loss(&game), None);
        let again = read_dhtmlxq(&write_dhtmlxq(&game)).remove(0).unwrap();
        assert_eq!(again.tags, game.tags);
        assert_eq!(again.moves.len(), 1);
    }

    #[test]
    fn values_that_look_like_fields_or_escapes_survive() {
        let mut game = read_dhtmlxq(FULL).remove(0).unwrap();
        let hostile = "a[/DhtmlXQ_title][DhtmlXQ_movelist]0000[/DhtmlXQ_movelist] | || \\u0041\nb";
        game.tags.retain(|(k, _)| k != "Title");
        game.tags.push(("Title".to_owned(), hostile.to_owned()));
        let text = write_dhtmlxq(&game);
        let again = read_dhtmlxq(&text).remove(0).unwrap();
        assert_eq!(tag(&again, "Title"), Some(hostile));
        assert_eq!(again.moves.len(), 1, "{text}");
    }

    #[test]
    fn a_tag_named_like_a_structural_field_is_a_loss_not_a_field() {
        let mut game = read_dhtmlxq(FULL).remove(0).unwrap();
        game.tags
            .push(("DhtmlXQ_movelist".to_owned(), "0010".to_owned()));
        game.tags
            .push(("DhtmlXQ_bad name".to_owned(), "x".to_owned()));
        assert_eq!(
            dhtmlxq_tag_losses(&game).as_deref(),
            Some("tags DhtmlXQ has no field for: DhtmlXQ_movelist, DhtmlXQ_bad name")
        );
        let again = read_dhtmlxq(&write_dhtmlxq(&game)).remove(0).unwrap();
        assert_eq!(again.moves.len(), 1);
    }

    /// A result written plainly is written in DhtmlXQ's words and read back as a PGN token; one
    /// with words beyond its outcome (a ruling, a reason) is written and read back as it is.
    #[test]
    fn results_with_words_are_kept_as_written() {
        let back = |result: &str| {
            let mut game = read_dhtmlxq(FULL).remove(0).unwrap();
            game.set_tag("Result", result.to_owned());
            let written = write_dhtmlxq(&game);
            let again = read_dhtmlxq(&written).remove(0).unwrap();
            (again.tag("Result").map(str::to_owned), again.outcome())
        };
        assert_eq!(
            back("0-1"),
            (Some("0-1".to_owned()), Some(Outcome::BlackWins))
        );
        assert_eq!(
            back("红先负"),
            (Some("0-1".to_owned()), Some(Outcome::BlackWins))
        );
        for words in ["黑方长将不变判负", "0-1 forfeit", "abandoned"] {
            assert_eq!(back(words).0.as_deref(), Some(words));
        }
        assert_eq!(back("黑方长将不变判负").1, Some(Outcome::RedWins));
    }

    /// The Game tag every format implies (`Chinese Chess`) is no loss; another value is.
    #[test]
    fn a_game_tag_other_than_chinese_chess_is_a_loss() {
        let mut game = read_dhtmlxq(FULL).remove(0).unwrap();
        game.tags
            .push(("Game".to_owned(), "chinese chess".to_owned()));
        assert_eq!(dhtmlxq_tag_losses(&game), None);
        assert!(
            crate::xqf::xqf_losses(&game)
                .iter()
                .all(|l| !l.contains("Game"))
        );
        game.tags.pop();
        game.tags
            .push(("Game".to_owned(), "Xiangqi Variant".to_owned()));
        assert_eq!(
            dhtmlxq_tag_losses(&game).as_deref(),
            Some("tags DhtmlXQ has no field for: Game")
        );
        assert!(
            crate::xqf::xqf_losses(&game)
                .iter()
                .any(|l| l.contains("Game"))
        );
    }
}
