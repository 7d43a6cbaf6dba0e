//! Recognising a record's format and reading any record.

use std::fmt;

use serde::Serialize;

use crate::{
    ccbridge, dhtmlxq,
    encoding::{self, Encoding},
    error::{ReadError, ReadErrorKind},
    game::Game,
    json, pgn,
    place::{Place, newlines},
    txt, xqf,
};

/// A record format.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// XQ PGN.
    Pgn,
    /// XQF (象棋演播室).
    Xqf,
    /// DhtmlXQ / UBB (东萍).
    Dhtmlxq,
    /// 象棋桥 CBR.
    Cbr,
    /// 象棋桥 CBL library.
    Cbl,
    /// 象棋桥 CBF (XML).
    Cbf,
    /// A plain move list.
    Txt,
    /// Our JSON.
    Json,
}

impl Format {
    /// The usual file extension.
    pub const fn extension(self) -> &'static str {
        match self {
            Format::Pgn => "pgn",
            Format::Xqf => "xqf",
            Format::Dhtmlxq => "txt",
            Format::Cbr => "cbr",
            Format::Cbl => "cbl",
            Format::Cbf => "cbf",
            Format::Txt => "txt",
            Format::Json => "json",
        }
    }

    /// The format an extension usually means.
    pub fn from_extension(ext: &str) -> Option<Format> {
        // Lowered in place, not into a new string (asked three times for every file of a
        // directory): every extension known is of at most four bytes.
        let mut lower = [0; 4];
        let lower = lower.get_mut(..ext.len())?;
        lower.copy_from_slice(ext.as_bytes());
        lower.make_ascii_lowercase();
        Some(match &*lower {
            b"pgn" => Format::Pgn,
            b"xqf" => Format::Xqf,
            b"cbr" => Format::Cbr,
            b"cbl" => Format::Cbl,
            b"cbf" => Format::Cbf,
            b"json" => Format::Json,
            b"txt" => Format::Txt,
            b"html" | b"htm" | b"ubb" => Format::Dhtmlxq,
            _ => return None,
        })
    }

    /// Whether files of this format are text.
    pub const fn is_text(self) -> bool {
        !matches!(self, Format::Xqf | Format::Cbr | Format::Cbl)
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Pgn => "PGN",
            Format::Xqf => "XQF",
            Format::Dhtmlxq => "DhtmlXQ",
            Format::Cbr => "CBR",
            Format::Cbl => "CBL",
            Format::Cbf => "CBF",
            Format::Txt => "move list",
            Format::Json => "JSON",
        })
    }
}

/// How to read.
#[derive(Copy, Clone, Debug, Default)]
pub struct ReadOptions {
    /// The text encoding, instead of detecting it.
    pub encoding: Option<Encoding>,
    /// The format, instead of recognising it.
    pub format: Option<Format>,
    /// Moves are left unplaced in the file (each [`Node::source_offset`](crate::Node) `None`)
    /// where placing them costs a count of the text before each: text records in an encoding
    /// other than UTF-8 (GBK, Big5, UTF-16), where it was 8% of the time of checking a Big5
    /// archive. For a reader that needs the place of a move only when it is bad, and reads the
    /// file again for it then (`xq validate`). Start positions and read errors are placed
    /// whatever this says, and so are moves where placing costs nothing (UTF-8).
    pub unplaced_moves: bool,
}

/// The format of `bytes`, each format recognised by its own structure, not by words that may
/// stand anywhere (a PGN comment may mention `[DhtmlXQ]`, a tag may hold a DhtmlXQ field's value):
/// XML (`<` first) holding `<ChineseChessRecord` is CBF, other markup without tags, unnamed or
/// named as a page, a page of DhtmlXQ records (perhaps none); JSON starts with `{"`, `{}`, `[{` or
/// `[]`; PGN has a tag line `[Name "value"]`; DhtmlXQ has a field `[DhtmlXQ_name]…[/DhtmlXQ_name]`.
/// A text with both PGN tags and DhtmlXQ fields is PGN, whose reader reads each DhtmlXQ record
/// it meets as a game (records pasted among games, or into a comment, which stays one), unless
/// the file is named as a DhtmlXQ page.
pub(crate) fn sniff(bytes: &[u8], extension: Option<&str>, text: Option<&str>) -> Format {
    if looks_like_xqf(bytes, extension) {
        return Format::Xqf;
    }
    if bytes.starts_with(b"CCBridge Record") {
        return Format::Cbr;
    }
    if bytes.starts_with(b"CCBridgeLibrary") {
        return Format::Cbl;
    }
    let by_extension = extension.and_then(Format::from_extension);
    let Some(text) = text else {
        return by_extension.unwrap_or(Format::Pgn);
    };
    let head = text.trim_start_matches('\u{feff}').trim_start();
    let tag_at = first_tag_line(text);
    // Whether the text holds a DhtmlXQ field (`[DhtmlXQ]` alone, or a PGN tag named
    // `DhtmlXQ_ver`, is none): looked for only where it tells, once (a whole pass over the text).
    let field = std::cell::OnceCell::new();
    let has_field = || *field.get_or_init(|| dhtmlxq::field_spans(text).next().is_some());
    // Markup: a CBF document; else, without PGN tags and named as a page or not named, a page
    // that may hold DhtmlXQ records (one without any holds no game, never a move list of its
    // words). A file named otherwise goes on to be told by its content and name.
    if head.starts_with('<') {
        if !has_field() && head.contains("<ChineseChessRecord") {
            return Format::Cbf;
        }
        if tag_at.is_none() && matches!(by_extension, None | Some(Format::Dhtmlxq)) {
            return Format::Dhtmlxq;
        }
    }
    // A PGN file may start with a comment: `{` first is JSON unless the file is named and built
    // as PGN.
    if starts_like_json(head) && !(by_extension == Some(Format::Pgn) && tag_at.is_some()) {
        return Format::Json;
    }
    match tag_at {
        // Both: PGN games and DhtmlXQ records in one file (forum pages pasted together), read
        // by the PGN reader, which reads each DhtmlXQ record it meets as one; a file named as a
        // DhtmlXQ page is one.
        Some(_) if by_extension == Some(Format::Dhtmlxq) && has_field() => {
            return Format::Dhtmlxq;
        }
        Some(_) => return Format::Pgn,
        None if has_field() => return Format::Dhtmlxq,
        None => {}
    }
    if by_extension == Some(Format::Pgn) {
        return Format::Pgn;
    }
    let numbered = text
        .split_whitespace()
        .take(20)
        .any(|t| t.ends_with('.') && t.trim_end_matches('.').parse::<u32>().is_ok())
        || text
            .split_whitespace()
            .take(20)
            .any(|t| t.starts_with("1."));
    if numbered { Format::Pgn } else { Format::Txt }
}

/// Whether `head` (the text from its first character that is not a space) starts as a JSON
/// object or array of objects does: `{` then a key or `}`, `[` then `{` or `]`.
fn starts_like_json(head: &str) -> bool {
    let after = |open: char| head.strip_prefix(open).map(str::trim_start);
    after('{').is_some_and(|rest| rest.starts_with(['"', '}']))
        || after('[').is_some_and(|rest| rest.starts_with(['{', ']']))
}

/// Where the first PGN tag line of `text` starts: `[Name "value"]` alone on its line, the name
/// letters, digits and `_`.
fn first_tag_line(text: &str) -> Option<usize> {
    tag_lines(text).next()
}

/// Where each PGN tag line of `text` starts.
fn tag_lines(text: &str) -> impl Iterator<Item = usize> {
    let mut at = 0;
    text.split_inclusive('\n').filter_map(move |line| {
        let start = at;
        at += line.len();
        let inner = line.trim().strip_prefix('[')?.strip_suffix(']')?;
        let name_len = dhtmlxq::name_len(inner);
        let value = inner[name_len..].trim_start();
        (name_len > 0 && value.len() >= 2 && value.starts_with('"') && value.ends_with('"'))
            .then_some(start)
    })
}

/// What to say of a PGN tag line of a DhtmlXQ page outside its records' fields (the text its
/// reader reads): the page is read for its records, and a PGN game pasted beside them would be
/// lost unsaid (reading the file as PGN reads both). Said by the first game read (a warning:
/// the page may show a record's game again as PGN); as an error when none was read.
fn pgn_beside_records(text: &str, games: &mut Vec<Result<Game, ReadError>>) {
    let mut tag_lines = tag_lines(text).peekable();
    if tag_lines.peek().is_none() {
        return;
    }
    let values = dhtmlxq::value_spans(text);
    // Tag lines and values in order, walked together.
    let mut next = 0;
    let Some(at) = tag_lines.find(|&at| {
        while values.get(next).is_some_and(|value| value.end <= at) {
            next += 1;
        }
        values.get(next).is_none_or(|value| value.start > at)
    }) else {
        return;
    };
    let line = newlines(&text.as_bytes()[..at]) + 1;
    let said = format!(
        "a PGN game beside the DhtmlXQ records (its tags on line {line}): this file, named as a page, is read for its records; --from pgn reads its PGN games too"
    );
    match games.iter_mut().find_map(|g| g.as_mut().ok()) {
        Some(game) => game.unread.push(said),
        None => {
            let game = games.len();
            games.push(Err(ReadError::new(ReadErrorKind::Unsupported, said)
                .at(at)
                .on_line(line)
                .in_game(game)));
        }
    }
}

/// A file named like a binary record (`.xqf`, `.cbr`, `.cbl`) or JSON whose content is none of the
/// formats (it would be read as a move list of nonsense): an error saying so.
///
/// # Errors
/// When `format` is the move list that unrecognised text falls back to and `extension` claims
/// another format.
pub(crate) fn check_claimed(format: Format, extension: Option<&str>) -> Result<(), ReadError> {
    let claimed = extension.and_then(Format::from_extension);
    match claimed {
        Some(claimed @ (Format::Xqf | Format::Cbr | Format::Cbl | Format::Json))
            if format == Format::Txt =>
        {
            let (which, what) = match claimed {
                Format::Xqf => ("an XQF", "it does not start with the XQ header"),
                Format::Cbr => ("a CBR", "it does not start with `CCBridge Record`"),
                Format::Cbl => ("a CBL", "it does not start with `CCBridgeLibrary`"),
                _ => (
                    "an xq JSON",
                    "it does not start as one does ({\" or {} for a document or a game, [{ or [] for a list of games)",
                ),
            };
            Err(ReadError::new(
                ReadErrorKind::UnknownFormat,
                format!("not {which} file: {what}, and it is no other record format either"),
            ))
        }
        _ => Ok(()),
    }
}

/// What reading a file gives: its format, its encoding if text, and its games (each read or not).
#[derive(Debug)]
pub struct Records {
    /// The format read.
    pub format: Format,
    /// The text encoding, for text formats.
    pub encoding: Option<Encoding>,
    /// The games in file order.
    pub games: Vec<Result<Game, ReadError>>,
    /// Records in the file that are not games (a library's section titles), said in words.
    pub not_games: Vec<String>,
}

/// Whether `bytes` start like a binary record (XQF, CBR, CBL).
pub(crate) fn is_binary(bytes: &[u8]) -> bool {
    looks_like_xqf(bytes, None) || bytes.starts_with(b"CCBridge")
}

/// An XQF header: `XQ` and a known version byte, or any version byte that is no text character
/// (the reader then says which versions it knows), or any in a file named `.xqf`.
fn looks_like_xqf(bytes: &[u8], extension: Option<&str>) -> bool {
    let xqf_name = extension.is_some_and(|e| e.eq_ignore_ascii_case("xqf"));
    bytes.starts_with(b"XQ")
        && bytes
            .get(2)
            .is_some_and(|&v| (10..=18).contains(&v) || !(0x20..0x80).contains(&v) || xqf_name)
}

/// Reads a record of any format held in memory (see [`crate::stream::GameStream`] for files).
///
/// # Errors
/// Only when nothing at all can be read (a game that cannot be read is an error in
/// [`Records::games`], the others still read).
pub fn read(
    bytes: &[u8],
    extension: Option<&str>,
    options: ReadOptions,
) -> Result<Records, ReadError> {
    read_with(bytes, extension, options, pgn::MAX_GAME)
}

/// As [`read`], PGN games limited to `max_game` bytes.
pub(crate) fn read_with(
    bytes: &[u8],
    extension: Option<&str>,
    options: ReadOptions,
    max_game: usize,
) -> Result<Records, ReadError> {
    let binary = is_binary(bytes);
    let forced_binary = options.format.is_some_and(|f| !f.is_text());
    // The bytes that are not text, for placing what follows them in the file.
    let mut replaced = Vec::new();
    let decode = |enc: Encoding, lone_crs: bool, replaced: &mut Vec<_>| {
        let mut decoder = encoding::TextDecoder::new(enc, options.encoding.is_none());
        if lone_crs {
            decoder = decoder.ending_lines_at_lone_crs();
        }
        let text = decoder.decode(bytes, 0, replaced);
        (text, decoder.bom_len())
    };
    let (encoding, mut text, mut bom) = if binary || forced_binary {
        (None, None, 0)
    } else {
        let enc = options.encoding.unwrap_or_else(|| encoding::detect(bytes));
        let (text, bom) = decode(enc, false, &mut replaced);
        (Some(enc), Some(text), bom)
    };
    let format = match options.format {
        Some(format) => format,
        None => {
            let format = sniff(bytes, extension, text.as_deref());
            check_claimed(format, extension)?;
            format
        }
    };
    // PGN and move lists are read by lines, and a CR is never content there: every CR alone
    // ends a line, not only in a file whose first line ends so (a file mixing line ends has
    // each line read as one). Decoded again so (rarely needed), as streaming decodes them.
    if let (Format::Pgn | Format::Txt, Some(enc), Some(read)) = (format, encoding, &text)
        && encoding::has_lone_cr(read)
    {
        replaced.clear();
        let (again, again_bom) = decode(enc, true, &mut replaced);
        (text, bom) = (Some(again), again_bom);
    }
    let text_or_err = || {
        text.as_deref().ok_or_else(|| {
            ReadError::new(
                ReadErrorKind::UnknownFormat,
                format!("a binary file cannot be read as {format}"),
            )
        })
    };
    let mut not_games = Vec::new();
    let games = match format {
        // XQF's text is GBK or Big5 as it reads, unless the user says which.
        Format::Xqf => vec![match options.encoding {
            Some(encoding) => xqf::read_xqf_in(bytes, encoding),
            None => xqf::read_xqf(bytes),
        }],
        Format::Cbr => vec![ccbridge::read_cbr(bytes)],
        Format::Cbl => {
            let (games, sections) = ccbridge::read_cbl(bytes)?;
            not_games = sections;
            games
        }
        Format::Cbf => vec![ccbridge::read_cbf(text_or_err()?)],
        Format::Dhtmlxq => {
            let text = text_or_err()?;
            let mut games = dhtmlxq::read_dhtmlxq(text);
            if options.format.is_none() {
                pgn_beside_records(text, &mut games);
            }
            games
        }
        Format::Json => {
            let text = text_or_err()?;
            json::read_json(text)
                .map_err(|e| {
                    let encoding = encoding.unwrap_or(Encoding::Utf8);
                    Place::new(bom, &replaced).locate_error(e, text, encoding)
                })?
                .into_iter()
                .map(Ok)
                .collect()
        }
        Format::Txt => txt::read_txt(text_or_err()?),
        Format::Pgn => pgn::pgn_games(
            text_or_err()?,
            encoding.unwrap_or(Encoding::Utf8),
            Place::new(bom, &replaced).placing_moves(!options.unplaced_moves),
            max_game,
        ),
    };
    // Words that are no record (a note, a numbered list of instructions) read as a move list or
    // as PGN without tags: said so, not read as games of nonsense (unless the format was given).
    // A text named otherwise than a record (`README.md`) is one only if most of what it would
    // hold are games: a note that quotes a move or two is still a note.
    if options.format.is_none() && matches!(format, Format::Txt | Format::Pgn) {
        if !games.is_empty() && games.iter().all(is_prose) {
            return Err(ReadError::new(
                ReadErrorKind::UnknownFormat,
                "its words are no moves, tags nor position",
            ));
        }
        let named = extension.filter(|e| Format::from_extension(e).is_none());
        let (prose, all) = match named {
            Some(_) => (games.iter().filter(|g| is_prose(g)).count(), games.len()),
            None => (0, games.len()),
        };
        if let Some(named) = named.filter(|_| prose * 2 > all) {
            return Err(ReadError::new(
                ReadErrorKind::UnknownFormat,
                format!(
                    "most of its words are no moves, tags nor position ({prose} of the {all} games it would hold have none), and .{named} is no record's extension: not read as a record (--from txt reads it as a move list)",
                    named = xq_core::text::visible(named),
                ),
            ));
        }
    }
    // Text readers place start positions in the decoded text; the file has its own offsets.
    let games = match (format, text.as_deref(), encoding) {
        (Format::Cbf | Format::Dhtmlxq | Format::Txt, Some(text), Some(encoding)) => {
            let mut place = Place::new(bom, &replaced).placing_moves(!options.unplaced_moves);
            games
                .into_iter()
                .map(|item| place.locate(item, text, encoding))
                .collect()
        }
        _ => games,
    };
    Ok(Records {
        format,
        encoding,
        games,
        not_games,
    })
}

/// How many words of each game [`is_prose`] reads at most: a game has a move among its first
/// words, and a text of megabytes of words is told as quickly as a short one.
const PROSE_WORDS: usize = 4096;

/// Whether a game read from a move list or PGN is only words that no notation reads as a move
/// (no tags, no position given, and none of its first [`PROSE_WORDS`] words in move syntax,
/// legal or not): text that is no record holds only such games, where one with a mistyped move
/// still is one. (A game that could not be read at all is none.)
fn is_prose(game: &Result<Game, ReadError>) -> bool {
    game.as_ref().is_ok_and(|game| {
        game.tags.is_empty()
            && game.fen.is_none()
            && !game.moves.iter().take(PROSE_WORDS).any(|node| {
                node.m.is_some()
                    || node
                        .text
                        .as_deref()
                        .is_some_and(|text| xq_notation::parse(text).is_ok())
            })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sniffed(text: &str, extension: Option<&str>) -> Format {
        sniff(text.as_bytes(), extension, Some(text))
    }

    /// Extensions are told in any case; others (longer, shorter, beyond ASCII) are none.
    #[test]
    fn extensions_are_told_in_any_case() {
        let formats = [
            Format::Pgn,
            Format::Xqf,
            Format::Cbr,
            Format::Cbl,
            Format::Cbf,
            Format::Json,
            Format::Txt,
        ];
        // (DhtmlXQ is written as `.txt`, which is read as a move list first.)
        for format in formats {
            let ext = format.extension();
            assert_eq!(Format::from_extension(ext), Some(format), "{ext}");
            assert_eq!(Format::from_extension(&ext.to_uppercase()), Some(format));
        }
        for (ext, told) in [
            ("Html", Some(Format::Dhtmlxq)),
            ("HTM", Some(Format::Dhtmlxq)),
            ("uBb", Some(Format::Dhtmlxq)),
            ("PgN", Some(Format::Pgn)),
            ("", None),
            ("pg", None),
            ("pgnx", None),
            ("jsonl", None),
            ("json5", None),
            ("ｐｇｎ", None),
            ("棋", None),
            ("txt\0", None),
        ] {
            assert_eq!(Format::from_extension(ext), told, "{ext:?}");
        }
    }

    const TAGS: &str = "[Event \"x\"]\n[Red \"A\"]\n\n";
    const UBB: &str = "[DhtmlXQ]\n[DhtmlXQ_ver]www_dpxq_com[/DhtmlXQ_ver]\n[DhtmlXQ_title]a \"b\" c[/DhtmlXQ_title]\n[DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]\n[/DhtmlXQ]\n";

    /// Words of another format in a PGN comment or tag do not make the file that format.
    #[test]
    fn a_pgn_that_mentions_other_formats_is_pgn() {
        for extension in [None, Some("pgn"), Some("txt")] {
            for body in [
                "{copied from a [DhtmlXQ] page} 1. h2e2 h9g7 *\n",
                "{see the <ChineseChessRecord> format} 1. h2e2 *\n",
                "{[DhtmlXQ_ver]x} 1. h2e2 *\n",
            ] {
                assert_eq!(
                    sniffed(&format!("{TAGS}{body}"), extension),
                    Format::Pgn,
                    "{body}"
                );
            }
            let kept = "[Event \"x\"]\n[DhtmlXQ_ver \"www_dpxq_com\"]\n\n1. h2e2 *\n";
            assert_eq!(sniffed(kept, extension), Format::Pgn);
        }
    }

    /// A PGN may start with a comment, which is no JSON object: `{` and then a word.
    #[test]
    fn a_pgn_that_starts_with_a_comment_is_pgn() {
        let text = format!("{{Exported by XQStudio}}\n{TAGS}1. h2e2 h9g7 *\n");
        assert_eq!(sniffed(&text, Some("pgn")), Format::Pgn);
        assert_eq!(sniffed(&text, None), Format::Pgn);
        // Even a comment that starts as JSON does in a file named and built as PGN.
        let quoted = format!("{{\"quoted\" words}}\n{TAGS}1. h2e2 *\n");
        assert_eq!(sniffed(&quoted, Some("pgn")), Format::Pgn);
        assert_eq!(sniffed(&quoted, None), Format::Json);
    }

    #[test]
    fn json_starts_as_an_object_or_an_array_of_them() {
        for text in [
            "{\"format\": \"xq-games\"}",
            "\u{feff} { }",
            "[{\"moves\": []}]",
            "[ ]",
        ] {
            assert_eq!(sniffed(text, None), Format::Json, "{text}");
        }
        for text in ["{a comment} 1. h2e2 *", "[Event \"x\"]\n1. h2e2 *"] {
            assert_ne!(sniffed(text, None), Format::Json, "{text}");
        }
    }

    /// A DhtmlXQ record is known by its fields, alone, in a page or after other text; a field's
    /// value may hold what looks like a tag's quotes.
    #[test]
    fn dhtmlxq_is_known_by_its_fields() {
        for text in [
            UBB.to_owned(),
            format!("<html><body><p>a game</p>\n{UBB}</body></html>"),
            format!("Some forum words first.\n{UBB}"),
            "[DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]".to_owned(),
        ] {
            for extension in [None, Some("ubb"), Some("html"), Some("txt")] {
                assert_eq!(sniffed(&text, extension), Format::Dhtmlxq, "{text}");
            }
        }
        // A closing before its opening, or an opening never closed, is no field.
        for text in [
            "[/DhtmlXQ_a] then [DhtmlXQ_a] 1. h2e2",
            "[DhtmlXQ_a] 1. h2e2",
            "[DhtmlXQ] 1. h2e2",
        ] {
            assert_ne!(sniffed(text, None), Format::Dhtmlxq, "{text}");
        }
    }

    /// A text with the structure of both PGN and DhtmlXQ (a record pasted into a comment, or
    /// among games): PGN, read record by record, unless named as a DhtmlXQ page.
    #[test]
    fn pgn_and_dhtmlxq_together_are_pgn_unless_named_a_page() {
        // The games of `text` in a file named as a DhtmlXQ page.
        let page_games = |text: &str| {
            read(text.as_bytes(), Some("ubb"), ReadOptions::default())
                .unwrap()
                .games
        };
        let pgn_first = format!("{TAGS}{{{UBB}}} 1. h2e2 *\n");
        let ubb_first = format!("{UBB}\n{TAGS}1. h2e2 *\n");
        for text in [pgn_first, ubb_first] {
            assert_eq!(sniffed(&text, None), Format::Pgn);
            assert_eq!(sniffed(&text, Some("pgn")), Format::Pgn);
            assert_eq!(sniffed(&text, Some("txt")), Format::Pgn);
            assert_eq!(sniffed(&text, Some("ubb")), Format::Dhtmlxq);
        }
        // Records among games: each read, in the file's order.
        let text = format!("{UBB}\n{TAGS}1. h2e2 *\n\n{UBB}");
        let games = read(text.as_bytes(), Some("txt"), ReadOptions::default())
            .unwrap()
            .games;
        let plies: Vec<usize> = games
            .iter()
            .map(|g| g.as_ref().unwrap().moves.len())
            .collect();
        assert_eq!(plies, [1, 1, 1]);
        let titled = |g: &Result<Game, ReadError>| {
            g.as_ref().unwrap().tags.iter().any(|(n, _)| n == "Title")
        };
        assert_eq!(
            games.iter().map(titled).collect::<Vec<_>>(),
            [true, false, true]
        );
        // Named as a page: its records are read, and a PGN game beside them is said, with the
        // line of its tags (not lost unsaid); a tag line in a record's field is the field's.
        let text = format!("{UBB}\n{TAGS}1. h2e2 *\n");
        let games = page_games(&text);
        assert_eq!(games.len(), 1);
        let said = &games[0].as_ref().unwrap().unread;
        assert_eq!(said.len(), 1, "{said:?}");
        assert!(
            said[0].contains("line 7") && said[0].contains("--from pgn"),
            "{said:?}"
        );
        // No record read: an error, placed.
        let broken = text.replace("7747", "77");
        let games = page_games(&broken);
        assert_eq!(games.len(), 2, "{games:?}");
        let said = games[1].as_ref().unwrap_err();
        assert_eq!((said.line, said.offset), (Some(7), Some(UBB.len() - 1)));
        // A tag line in a field never closed is that field's text, as the reader takes it.
        let unclosed = UBB.replace(
            "[DhtmlXQ_movelist]",
            "[DhtmlXQ_comment0]note\n[Event \"q\"]\nend\n[DhtmlXQ_movelist]",
        );
        let games = page_games(&unclosed);
        assert!(
            games[0]
                .as_ref()
                .unwrap()
                .unread
                .iter()
                .all(|u| !u.contains("PGN")),
            "{games:?}"
        );
        // A field left open in one record is not closed by the next one's closing: a PGN game
        // between the two is beside them.
        let open = UBB.replace(
            "[DhtmlXQ_movelist]",
            "[DhtmlXQ_comment0]note\n[DhtmlXQ_movelist]",
        );
        let closed = UBB.replace(
            "[DhtmlXQ_movelist]",
            "[DhtmlXQ_comment0]x[/DhtmlXQ_comment0][DhtmlXQ_movelist]",
        );
        let between = format!("{open}{TAGS}1. h2e2 *\n{closed}");
        let games = page_games(&between);
        assert_eq!(games.len(), 2);
        let said = &games[0].as_ref().unwrap().unread;
        assert!(
            said.iter().any(|u| u.contains("PGN game beside")),
            "{said:?}"
        );
        let quoted = format!("{}{UBB}", UBB.replace("a \"b\" c", "\n[Event \"x\"]\n"));
        let games = page_games(&quoted);
        assert!(games.iter().all(Result::is_ok), "{games:?}");
        // The format given: read as given.
        let given = ReadOptions {
            format: Some(Format::Dhtmlxq),
            ..ReadOptions::default()
        };
        assert_eq!(
            read(text.as_bytes(), Some("ubb"), given)
                .unwrap()
                .games
                .len(),
            1
        );
    }

    /// A file's content that is no record says so (a file found among records is skipped for
    /// it); a damaged record is an error of another kind (the file fails).
    #[test]
    fn no_record_is_told_from_a_damaged_one() {
        let error = |text: &str, extension: &str| {
            read(text.as_bytes(), Some(extension), ReadOptions::default())
                .err()
                .map(|e| e.is_not_a_record())
        };
        // Words that no notation reads as a move: no move list. A mistyped move among moves,
        // or a position: a move list.
        assert_eq!(error("shopping: milk, eggs\n", "txt"), Some(true));
        assert_eq!(error("炮二平午 马8进7 马二进三\n", "txt"), None);
        assert_eq!(error("some words h2e2\n", "txt"), None);
        // A numbered list of instructions reads as PGN by its numbers: no tags, no move.
        let readme = "How to use these files:\n1. Install the program.\n2. Open a game.\n";
        assert_eq!(error(readme, "txt"), Some(true));
        assert_eq!(error("1. h2e2 h9g7\n", "txt"), None);
        // Named otherwise than a record: a note quoting a move or two is a note; one that is
        // mostly games is read (a record's name, or none, keeps the rule above).
        let note = "# Notes\n\nThe opening h2e2 is the central cannon.\n\nIt is played often.\n\nSee the book.\n";
        assert_eq!(error(note, "md"), Some(true));
        assert_eq!(error(note, "txt"), None);
        assert_eq!(
            read(note.as_bytes(), None, ReadOptions::default())
                .err()
                .map(|e| e.is_not_a_record()),
            None
        );
        let games = "h2e2 h9g7\n\nb0c2 b9c7\n\nSome words.\n";
        assert_eq!(error(games, "md"), None);
        // Half and half is read; one prose game more is not.
        let half = "h2e2 h9g7\n\nSome words.\n";
        assert_eq!(error(half, "md"), None);
        assert_eq!(error(&format!("{half}\nMore words.\n"), "md"), Some(true));
        assert_eq!(error("[Event \"x\"]\n\n1. Install it.\n", "pgn"), None);
        // JSON of other programs, broken or not, is none of ours; ours, cut short, is damaged.
        assert_eq!(error("{\"name\": \"pkg\"}", "json"), Some(true));
        assert_eq!(error("{\"name\": broken", "json"), Some(true));
        assert_eq!(
            error("{\"format\": \"other\", \"games\": []}", "json"),
            Some(true)
        );
        assert_eq!(
            error("{\"format\": \"xq-games\", \"version\": 1, \"ga", "json"),
            Some(false)
        );
        assert_eq!(
            error(
                "{\"format\": \"xq-games\", \"version\": 2, \"games\": []}",
                "json"
            ),
            Some(false)
        );
        // A game of ours, or a list of them, damaged (not the document around them).
        let list = "[{\"tags\": [[\"Event\", \"x\"]], \"moves\": [{\"move\": 7}]}]";
        assert_eq!(error(list, "json"), Some(false));
        assert_eq!(
            error("{\"moves\": [{\"move\": \"h2e2\"}", "json"),
            Some(false)
        );
        assert_eq!(error("[{\"id\": 1}]", "json"), Some(true));
    }

    /// Markup with no record (a web page found beside the records) holds no game: never a move
    /// list of its words, however many of them look like moves (`h1 {`).
    #[test]
    fn a_page_without_a_record_holds_no_game() {
        let page = "<!DOCTYPE html>\n<html><head><style>h1 { color: red; }</style></head>\n<body><h1>Games</h1><p>1. h2e2 h9g7</p></body></html>\n";
        for extension in [None, Some("html"), Some("ubb")] {
            assert_eq!(sniffed(page, extension), Format::Dhtmlxq);
            let records = read(page.as_bytes(), extension, ReadOptions::default()).unwrap();
            assert!(records.games.is_empty(), "{:?}", records.games);
        }
        // PGN or a move list that starts with markup stays what it is; a page named as another
        // format is told so by its name.
        let pgn = "<!-- exported -->\n[Event \"x\"]\n\n1. h2e2 h9g7 *\n";
        assert_eq!(sniffed(pgn, None), Format::Pgn);
        assert_eq!(sniffed(pgn, Some("pgn")), Format::Pgn);
        assert_eq!(
            sniffed("<!-- saved -->\n1. h2e2 h9g7 *\n", Some("txt")),
            Format::Pgn
        );
        let error = read(page.as_bytes(), Some("xqf"), ReadOptions::default()).unwrap_err();
        assert!(
            error.message.contains("not an XQF file"),
            "{}",
            error.message
        );
    }

    #[test]
    fn cbf_is_an_xml_document() {
        let cbf = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<ChineseChessRecord Version=\"1.0\">\n</ChineseChessRecord>\n";
        assert_eq!(sniffed(cbf, None), Format::Cbf);
        assert_eq!(sniffed(cbf, Some("cbf")), Format::Cbf);
    }
}
