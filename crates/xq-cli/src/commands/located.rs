//! Record errors shown where they are: the line of the file, with a caret under the place.

use std::{ops::Range, path::Path};

use xq_core::caret::Snippet;
use xq_record::{Game, ReadError, ReadOptions, encoding, replay::BadStart};

/// Files up to this size are read again to show the line of an error.
const MAX_SHOWN: u64 = 64 << 20;

/// The line of the text file `path` that `err` points at (its byte offset in the file), with a
/// caret under the place, indented for a message. `None` when the error has no place in a text
/// (a binary format, an error about the whole file), when the file cannot be read again, or
/// when the place found is not on the line the error gives.
pub(crate) fn record_snippet(path: &Path, err: &ReadError, options: ReadOptions) -> Option<String> {
    snippet_at(path, err.offset?, err.line?, options)
}

/// The line `line` of the text file `path` with a caret under byte `offset` of the file,
/// indented for a message (see [`record_snippet`]).
pub(crate) fn snippet_at(
    path: &Path,
    offset: usize,
    line: u32,
    options: ReadOptions,
) -> Option<String> {
    let (text, at) = decoded(path, offset, options)?;
    let end = text
        .get(at..)
        .and_then(|rest| rest.chars().next())
        .map_or(at, |c| at + c.len_utf8());
    let snippet = Snippet::new(&text, at..end);
    (snippet.line_number == line as usize)
        .then(|| super::indent(&snippet.render_numbered("here"), "  "))
}

/// The line of the text file `path` where the text `read` stands (read from byte `offset` of the
/// file, on `line`: a move, a start position's FEN), with carets under `span` of it (the first
/// problem of a FEN) or, without a span, under the whole of it; indented for a message. Where the
/// file does not hold the text as read (an escaped quote in a tag, DhtmlXQ's `binit` digits for a
/// FEN), the carets are under what is written there, up to a space or markup. `None` as for
/// [`record_snippet`].
pub(crate) fn written_snippet(
    path: &Path,
    read: &str,
    offset: usize,
    span: Option<Range<usize>>,
    line: Option<u32>,
    options: ReadOptions,
) -> Option<String> {
    let (text, at) = decoded(path, offset, options)?;
    let written = text.get(at..).unwrap_or("");
    // The text up to the end of what is marked must be in the file as read.
    let marked = span.unwrap_or(0..read.len());
    let verbatim = read
        .get(..marked.end)
        .is_some_and(|read| written.starts_with(read));
    let range = if verbatim {
        at + marked.start..at + marked.end
    } else {
        // What is written there, up to a space or the markup around it.
        let word = written
            .find(|c: char| c.is_whitespace() || matches!(c, '[' | ']' | '"' | '<'))
            .unwrap_or(written.len());
        at..at + word
    };
    let snippet = Snippet::new(&text, range);
    line.is_none_or(|l| snippet.line_number == l as usize)
        .then(|| super::indent(&snippet.render_numbered("here"), "  "))
}

/// The text of the file `path` decoded, and where byte `offset` of the file is in it; `None`
/// when the file is too large to show or cannot be read again, or `offset` is past its end.
fn decoded(path: &Path, offset: usize, options: ReadOptions) -> Option<(String, usize)> {
    if std::fs::metadata(path).ok()?.len() > MAX_SHOWN {
        return None;
    }
    let bytes = std::fs::read(path).ok()?;
    let enc = options.encoding.unwrap_or_else(|| encoding::detect(&bytes));
    // Decoding is the same on a prefix as on the whole (a byte-order mark dropped from both),
    // so the prefix's decoded length is the place in the decoded text.
    let at = encoding::decode(bytes.get(..offset)?, enc).len();
    Some((encoding::decode(&bytes, enc).into_owned(), at))
}

/// The line of the file at `path` where `game`'s start position is written, with carets under
/// what is wrong with it.
pub(crate) fn fen_place(
    path: &Path,
    game: &Game,
    why: &BadStart,
    options: ReadOptions,
) -> Option<String> {
    written_snippet(
        path,
        game.fen.as_deref()?,
        game.fen_offset?,
        why.span.clone(),
        game.fen_line,
        options,
    )
}
