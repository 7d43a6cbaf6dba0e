//! Record errors shown where they are: the line of the file, with a caret under the place.

use std::path::Path;

use xq_core::caret::Snippet;
use xq_record::{ReadError, ReadOptions, encoding};

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
    if std::fs::metadata(path).ok()?.len() > MAX_SHOWN {
        return None;
    }
    let bytes = std::fs::read(path).ok()?;
    let enc = options.encoding.unwrap_or_else(|| encoding::detect(&bytes));
    // Decoding is the same on a prefix as on the whole (a byte-order mark dropped from both),
    // so the prefix's decoded length is the place in the decoded text.
    let at = encoding::decode(bytes.get(..offset)?, enc).len();
    let text = encoding::decode(&bytes, enc);
    let end = text
        .get(at..)
        .and_then(|rest| rest.chars().next())
        .map_or(at, |c| at + c.len_utf8());
    let snippet = Snippet::new(&text, at..end);
    (snippet.line_number == line as usize)
        .then(|| super::indent(&snippet.render_numbered("here"), "  "))
}
