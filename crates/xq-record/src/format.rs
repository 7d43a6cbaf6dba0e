//! Recognising a record's format and reading any record.

use std::fmt;

use serde::Serialize;

use crate::{
    ccbridge, dhtmlxq,
    encoding::{self, Encoding},
    error::{ReadError, ReadErrorKind},
    game::Game,
    json, pgn,
    place::Place,
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
        Some(match ext.to_ascii_lowercase().as_str() {
            "pgn" => Format::Pgn,
            "xqf" => Format::Xqf,
            "cbr" => Format::Cbr,
            "cbl" => Format::Cbl,
            "cbf" => Format::Cbf,
            "json" => Format::Json,
            "txt" => Format::Txt,
            "html" | "htm" | "ubb" => Format::Dhtmlxq,
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
}

/// The format of `bytes` (the file extension decides only between formats the content allows).
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
    if head.contains("<ChineseChessRecord") {
        return Format::Cbf;
    }
    if text.contains("[DhtmlXQ") {
        return Format::Dhtmlxq;
    }
    let json_like = head.starts_with('{')
        || (head.starts_with('[') && head[1..].trim_start().starts_with(['{', ']']));
    if json_like {
        return Format::Json;
    }
    let has_tags = text.lines().any(|l| {
        let l = l.trim_start();
        l.starts_with('[') && l.contains('"') && l.trim_end().ends_with(']')
    });
    if has_tags || by_extension == Some(Format::Pgn) {
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
            let what = match claimed {
                Format::Xqf => "it does not start with the XQ header",
                Format::Cbr => "it does not start with `CCBridge Record`",
                Format::Cbl => "it does not start with `CCBridgeLibrary`",
                _ => "it does not start with { or [",
            };
            Err(ReadError::new(
                ReadErrorKind::UnknownFormat,
                format!(
                    "not {} {claimed} file: {what}, and it is no other record format either",
                    if claimed == Format::Xqf { "an" } else { "a" }
                ),
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
    let (encoding, text, bom) = if binary || forced_binary {
        (None, None, 0)
    } else {
        let enc = options.encoding.unwrap_or_else(|| encoding::detect(bytes));
        let mut decoder = encoding::TextDecoder::new(enc, options.encoding.is_none());
        let text = decoder.decode(bytes, 0, &mut replaced);
        (Some(enc), Some(text), decoder.bom_len())
    };
    let format = match options.format {
        Some(format) => format,
        None => {
            let format = sniff(bytes, extension, text.as_deref());
            check_claimed(format, extension)?;
            format
        }
    };
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
        Format::Xqf => vec![xqf::read_xqf(bytes)],
        Format::Cbr => vec![ccbridge::read_cbr(bytes)],
        Format::Cbl => {
            let (games, sections) = ccbridge::read_cbl(bytes)?;
            not_games = sections;
            games
        }
        Format::Cbf => vec![ccbridge::read_cbf(text_or_err()?)],
        Format::Dhtmlxq => dhtmlxq::read_dhtmlxq(text_or_err()?),
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
            Place::new(bom, &replaced),
            max_game,
        ),
    };
    // Text readers place start positions in the decoded text; the file has its own offsets.
    let games = match (format, text.as_deref(), encoding) {
        (Format::Cbf | Format::Dhtmlxq | Format::Txt, Some(text), Some(encoding)) => {
            let mut place = Place::new(bom, &replaced);
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
