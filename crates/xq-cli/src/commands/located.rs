//! Record errors shown where they are: the line of the file, with a caret under the place.

use std::{
    borrow::Cow,
    cell::RefCell,
    ops::Range,
    path::{Path, PathBuf},
};

use xq_core::caret::Snippet;
use xq_record::{Encoding, Game, ReadError, ReadOptions, encoding, replay::BadStart};

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
    with_place(path, offset, options, |text, at, line_number| {
        let end = text[at..].chars().next().map_or(at, |c| at + c.len_utf8());
        (line_number == line as usize).then(|| render(text, at..end, line_number))
    })?
}

/// The line of the text file `path` where the text `read` stands (read from byte `offset` of the
/// file, on `line`: a move's text), with carets under the whole of it, indented for a message.
/// `None` as for [`record_snippet`], and when the file does not hold `read` there (a line of
/// another encoding in a mixed file): then no place is shown rather than a wrong one.
pub(crate) fn written_snippet(
    path: &Path,
    read: &str,
    offset: usize,
    line: Option<u32>,
    options: ReadOptions,
) -> Option<String> {
    placed(path, read, offset, None, line, options, false)
}

/// The line of the text file `path` where a start position is written (its FEN `fen` read from
/// byte `offset`, on `line`), with carets under `span` of the FEN (the first problem of its text)
/// or, without a span, under the whole FEN; where the file does not hold the FEN as read (an
/// escaped quote in a tag, DhtmlXQ's `binit` digits), under what is written there, up to a space
/// or markup. Indented for a message; `None` as for [`record_snippet`].
pub(crate) fn start_snippet(
    path: &Path,
    fen: &str,
    offset: usize,
    span: Option<Range<usize>>,
    line: Option<u32>,
    options: ReadOptions,
) -> Option<String> {
    placed(path, fen, offset, span, line, options, true)
}

/// [`written_snippet`] and [`start_snippet`]: `guess` whether to mark what is written at the
/// place when it is not `read`.
fn placed(
    path: &Path,
    read: &str,
    offset: usize,
    span: Option<Range<usize>>,
    line: Option<u32>,
    options: ReadOptions,
    guess: bool,
) -> Option<String> {
    with_place(path, offset, options, |text, at, line_number| {
        let written = &text[at..];
        // A text too long to show whole comes cut, ending in `…` (`xq_notation::shown`): its
        // start is what is marked.
        let read = read
            .strip_suffix('…')
            .filter(|start| !written.starts_with(read) && written.starts_with(start))
            .unwrap_or(read);
        // The text up to the end of what is marked must be in the file as read.
        let marked = span.unwrap_or(0..read.len());
        let verbatim = read
            .get(..marked.end)
            .is_some_and(|read| written.starts_with(read));
        let range = if verbatim {
            at + marked.start..at + marked.end
        } else if guess {
            // What is written there, up to a space or the markup around it.
            let word = written
                .find(|c: char| c.is_whitespace() || matches!(c, '[' | ']' | '"' | '<'))
                .unwrap_or(written.len());
            at..at + word
        } else {
            return None;
        };
        line.is_none_or(|l| line_number == l as usize)
            .then(|| render(text, range, line_number))
    })?
}

/// A line up to this many characters is shown whole; a longer one (a 40 000-character FEN) as
/// [`CONTEXT`] characters either side of the place.
const SHORT: usize = 160;
/// Characters shown either side of a place on a long line.
const CONTEXT: usize = 60;
/// The most characters marked with carets.
const MARKED: usize = 80;

/// How far from a place its line's ends are looked for, in bytes: well beyond what is shown
/// (four bytes a character at most).
const LOOKED: usize = 4 * (SHORT + MARKED + CONTEXT);

/// The line of `text` holding `range` (numbered `line_number`), with carets under the range;
/// a long line is shown as a window around the range, `…` where it is cut.
fn render(text: &str, range: Range<usize>, line_number: usize) -> String {
    let start = floor(text, range.start);
    let end = floor(text, range.end.max(start));
    // The line's ends are looked for within [`LOOKED`] bytes of the place: what is shown of a
    // longer line is a window of it anyway, and many places on one long line (a file of games
    // on one line, each failing) cost each a bounded look, not the line's length.
    let near_start = floor(text, start.saturating_sub(LOOKED));
    let line_start = text[near_start..start]
        .rfind('\n')
        .map_or(near_start, |i| near_start + i + 1);
    let near_end = floor(text, start.saturating_add(LOOKED));
    let line_end = text[start..near_end]
        .find('\n')
        .map_or(near_end, |i| start + i);
    // `n` characters back from `from`, or forward, within the line.
    let back = |from: usize, n: usize| {
        text[line_start..from]
            .char_indices()
            .rev()
            .nth(n.saturating_sub(1))
            .map_or(line_start, |(i, _)| line_start + i)
    };
    let ahead = |from: usize, n: usize| {
        text[from..line_end]
            .char_indices()
            .nth(n)
            .map_or(line_end, |(i, _)| from + i)
    };
    let long = text[line_start..line_end].chars().nth(SHORT).is_some();
    let context = if long { CONTEXT } else { SHORT };
    let from = back(start, context);
    let end = end.min(ahead(start, MARKED.max(context))).max(start);
    let to = ahead(end.min(line_end), context);
    let prefix = if from > line_start { "…" } else { "" };
    let suffix = if to < line_end { "…" } else { "" };
    let window = format!("{prefix}{}{suffix}", &text[from..to]);
    let shift = |i: usize| i - from + prefix.len();
    let mut snippet = Snippet::new(&window, shift(start)..shift(end.min(to)));
    snippet.line_number = line_number;
    super::indent(&snippet.render_numbered("here"), "  ")
}

fn floor(text: &str, i: usize) -> usize {
    let mut i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// A text file read again to show places in it: decoded once, and places found moving forward
/// (the errors of a file come in file order), so that showing every error of a large file costs
/// one reading of it, not one per error.
struct Shown {
    path: PathBuf,
    encoding: Option<Encoding>,
    bytes: Vec<u8>,
    enc: Encoding,
    text: String,
    /// Where the text starts in the file when it is the file's bytes as they are from there (a
    /// UTF-8 file after its mark; a lone CR made a LF is one byte still): then a place's bytes
    /// are counted, not decoded again.
    verbatim_from: Option<usize>,
    /// The last place found: a byte offset of the file, where it is in `text`, and how many
    /// line ends `text` has before it.
    cursor: (usize, usize, usize),
}

thread_local! {
    static SHOWN: RefCell<Option<Shown>> = const { RefCell::new(None) };
}

/// Calls `f` with the decoded text of the file `path`, where byte `offset` of the file is in
/// it, and the number of the line there; `None` when the file is too large to show or cannot be
/// read again, or `offset` is past its end.
fn with_place<R>(
    path: &Path,
    offset: usize,
    options: ReadOptions,
    f: impl FnOnce(&str, usize, usize) -> R,
) -> Option<R> {
    SHOWN.with_borrow_mut(|shown| {
        let known = shown
            .as_ref()
            .is_some_and(|s| s.path == path && s.encoding == options.encoding);
        if !known {
            *shown = None;
            if std::fs::metadata(path).ok()?.len() > MAX_SHOWN {
                return None;
            }
            let bytes = std::fs::read(path).ok()?;
            // (Told and decoded in one pass over UTF-8.)
            let (enc, decoded) = encoding::decode_detected(&bytes, options.encoding);
            // (Borrowed text is the file's bytes from some place to their end; only UTF-8's is
            // taken so: in another encoding given, which a UTF-8 mark overrides for the whole
            // file, decoding from a later place does not sniff the mark again, and places are
            // found as that decoding finds them.)
            let verbatim_from = match &decoded {
                Cow::Borrowed(text)
                    if enc == Encoding::Utf8
                        && std::ptr::eq(
                            text.as_bytes().as_ptr_range().end,
                            bytes.as_ptr_range().end,
                        ) =>
                {
                    bytes.len().checked_sub(text.len())
                }
                _ => None,
            };
            let text = encoding::end_lines_at_lone_crs(decoded.into_owned());
            *shown = Some(Shown {
                path: path.to_path_buf(),
                encoding: options.encoding,
                bytes,
                enc,
                text,
                verbatim_from,
                cursor: (0, 0, 0),
            });
        }
        let s = shown.as_mut()?;
        if offset > s.bytes.len() {
            return None;
        }
        // Decoding is the same on a piece as on the whole when the piece starts between two
        // characters; a byte-order mark is dropped at the file's start only, so a later piece
        // that starts with one is found from the start instead.
        let (mut done, mut at, mut lines) = s.cursor;
        let bom_like = |p: &[u8]| {
            [&[0xEF, 0xBB, 0xBF][..], &[0xFF, 0xFE], &[0xFE, 0xFF]]
                .iter()
                .any(|bom| p.starts_with(bom))
        };
        if offset < done || (done > 0 && bom_like(&s.bytes[done..offset])) {
            (done, at, lines) = (0, 0, 0);
        }
        let decoded_len = match s.verbatim_from {
            // (From the file's start, its mark is not in the text.)
            Some(mark) if done == 0 => offset.saturating_sub(mark),
            Some(_) => offset - done,
            None => encoding::decode(&s.bytes[done..offset], s.enc).len(),
        };
        let next = floor(&s.text, at + decoded_len);
        lines += s.text[at..next].matches('\n').count();
        s.cursor = (offset, next, lines);
        Some(f(&s.text, next, lines + 1))
    })
}

/// The line of the file at `path` where `game`'s start position is written, with carets under
/// what is wrong with it.
pub(crate) fn fen_place(
    path: &Path,
    game: &Game,
    why: &BadStart,
    options: ReadOptions,
) -> Option<String> {
    start_snippet(
        path,
        game.fen.as_deref()?,
        game.fen_offset?,
        why.span.clone(),
        game.fen_line,
        options,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_line_is_shown_around_the_place() {
        let text = format!(
            "[Event \"x\"]\n[FEN \"{}车{}\"]\n",
            "x".repeat(500),
            "y".repeat(500)
        );
        let at = text.find('车').unwrap_or(0);
        let shown = render(&text, at..at + '车'.len_utf8(), 2);
        let lines: Vec<&str> = shown.lines().collect();
        assert_eq!(lines.len(), 2, "{shown}");
        assert!(
            lines[0].starts_with("  2 | …x") && lines[0].ends_with("y…"),
            "{shown}"
        );
        assert_eq!(
            lines[0].chars().count(),
            "  2 | …".chars().count() + 2 * CONTEXT + 2
        );
        // Two carets under the Chinese character, after the context's cells.
        assert!(
            lines[1].ends_with(&format!("{}^^ here", " ".repeat(CONTEXT + 1))),
            "{shown}"
        );
        // A place marked over a long stretch: at most MARKED carets.
        let shown = render(&text, 20..text.len(), 2);
        assert_eq!(shown.matches('^').count(), MARKED, "{shown}");
        // A short line is shown whole.
        assert_eq!(render("ab\ncd", 4..5, 2), "  2 | cd\n    |  ^ here");
        // A line longer than is looked along (its ends out of reach, Chinese characters to a
        // point) is shown as the same window of it.
        for (before, after) in [(LOOKED, LOOKED), (LOOKED / 3, 5 * LOOKED), (5 * LOOKED, 7)] {
            let far = format!("a\n{}车{}\nb", "炮".repeat(before), "y".repeat(after));
            let near = format!("{}车{}", "炮".repeat(SHORT), "y".repeat(SHORT));
            let shown = |text: &str| {
                let at = text.find('车').unwrap_or(0);
                render(text, at..at + '车'.len_utf8(), 2)
            };
            let shown_far = shown(&far);
            assert!(shown_far.starts_with("  2 | …炮"), "{shown_far}");
            if after > CONTEXT {
                assert_eq!(shown_far, shown(&near));
            } else {
                assert!(shown_far.contains("车yyyyyyy\n"), "{shown_far}");
            }
        }
    }
}
