//! Showing where in a text a problem is: the line that holds it and, under it, carets under the
//! bad characters. Every error with a location in the workspace (a move's text, a FEN, a line of
//! a record) is shown this way.
//!
//! Columns are terminal cells: Chinese characters and full-width forms take two, so the carets
//! stay under them. A tab stays a tab in both lines, so the carets line up whatever the tab
//! width. Control characters are shown as their visible pictures (␀ … ␟, ␡), never sent to the
//! terminal. Spans come from input and may be wrong: they are clamped to the text and to
//! character boundaries, never a panic.
//!
//! ```
//! use xq_core::caret::Snippet;
//!
//! let s = Snippet::new("炮二平十", 9..12);
//! assert_eq!(s.render("expected a number"), "炮二平十\n      ^^ expected a number");
//!
//! let record = "[Event \"x\"]\n\n1. h2e2 ) h9g7\n";
//! let s = Snippet::new(record, 21..22);
//! assert_eq!(s.line_number, 3);
//! assert_eq!(
//!     s.render_numbered("a ) closes no variation"),
//!     "3 | 1. h2e2 ) h9g7\n  |         ^ a ) closes no variation"
//! );
//! ```

use std::ops::Range;

use unicode_width::UnicodeWidthChar;

/// A line of text with carets under a span of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snippet {
    /// The line's number in the text (1-based).
    pub line_number: usize,
    /// The line as shown (control characters made visible, no line break).
    pub line: String,
    /// Spaces (and tabs) up to the span, then one `^` per cell of it (at least one).
    pub carets: String,
}

impl Snippet {
    /// The line of `text` holding the start of the byte range `span`, with carets under the
    /// span (up to the end of that line; one caret after the line's end if the span is empty
    /// or past it).
    pub fn new(text: &str, span: Range<usize>) -> Snippet {
        let start = floor_boundary(text, span.start);
        let end = ceil_boundary(text, span.end.max(start));
        let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
        let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
        let raw = text[line_start..line_end]
            .strip_suffix('\r')
            .unwrap_or(&text[line_start..line_end]);
        let line_number = text[..line_start].matches('\n').count() + 1;
        let mut line = String::with_capacity(raw.len());
        let mut carets = String::new();
        let mut marked = 0;
        for (i, c) in raw.char_indices() {
            let at = line_start + i;
            let shown = visible(c);
            line.push(shown);
            let cells = if c == '\t' {
                1
            } else {
                shown.width().unwrap_or(1)
            };
            if at < start {
                carets.push_str(if c == '\t' {
                    "\t"
                } else {
                    &"  "[..cells.min(2)]
                });
            } else if at < end {
                marked += cells.max(1);
            }
        }
        carets.push_str(&"^".repeat(marked.max(1)));
        Snippet {
            line_number,
            line,
            carets,
        }
    }

    /// The line, and under it the carets followed by `label`.
    pub fn render(&self, label: &str) -> String {
        format!("{}\n{} {label}", self.line, self.carets)
    }

    /// Like [`Snippet::render`], with the line's number in a gutter: `12 | text`.
    pub fn render_numbered(&self, label: &str) -> String {
        let number = self.line_number.to_string();
        format!(
            "{number} | {}\n{} | {} {label}",
            self.line,
            " ".repeat(number.len()),
            self.carets
        )
    }
}

/// `c` as it is safe to show on a terminal: control characters as their pictures.
fn visible(c: char) -> char {
    match c {
        '\t' => '\t',
        '\u{0}'..='\u{1f}' => char::from_u32(0x2400 + c as u32).unwrap_or('\u{fffd}'),
        '\u{7f}' => '\u{2421}',
        '\u{80}'..='\u{9f}' => '\u{fffd}',
        _ => c,
    }
}

fn floor_boundary(text: &str, i: usize) -> usize {
    let mut i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn ceil_boundary(text: &str, i: usize) -> usize {
    let mut i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn carets_sit_under_wide_characters() {
        let s = Snippet::new("马８进十", "马８进".len().."马８进十".len());
        assert_eq!(s.carets, "      ^^");
        let s = Snippet::new("a马b", 1..4);
        assert_eq!(s.carets, " ^^");
    }

    #[test]
    fn tabs_stay_tabs_and_controls_are_shown() {
        let s = Snippet::new("\tx\u{1b}[31m", 1..2);
        assert_eq!(s.line, "\tx\u{241b}[31m");
        assert_eq!(s.carets, "\t^");
        let s = Snippet::new("a\u{1b}b", 1..2);
        assert_eq!(s.carets, " ^");
    }

    #[test]
    fn wrong_spans_are_clamped_never_a_panic() {
        let text = "一二\n三";
        for start in 0..=text.len() + 3 {
            for end in 0..=text.len() + 3 {
                let s = Snippet::new(text, start..end);
                assert!(s.carets.ends_with('^'));
                assert!(s.line_number == 1 || s.line_number == 2);
            }
        }
        // Past the end: one caret after the last character.
        assert_eq!(Snippet::new("ab", 9..12).carets, "  ^");
        // Inside a character: the whole character.
        assert_eq!(Snippet::new("一二", 4..5).carets, "  ^^");
    }

    #[test]
    fn the_line_holding_the_span_and_its_number() {
        let text = "one\r\ntwo three\r\nfour";
        let at = text.find("three").unwrap_or(0);
        let s = Snippet::new(text, at..at + 5);
        assert_eq!((s.line_number, s.line.as_str()), (2, "two three"));
        assert_eq!(s.carets, "    ^^^^^");
        // A span running past its line's end is marked to the end of the line.
        let s = Snippet::new(text, at..text.len());
        assert_eq!(s.carets, "    ^^^^^");
    }
}
