//! Text from files made safe to show: to a person on a terminal, and to a spreadsheet.
//!
//! Record files, file names and FENs come from anywhere. Printed raw, an escape sequence in a tag
//! clears the screen, sets the window title or forges a link, and a line break forges a report
//! line; a CSV cell starting with `=` is a formula to a spreadsheet. Every human-readable output
//! of xq passes such text through [`visible`] (or [`visible_lines`] where line breaks are the
//! text's own, as in a comment shown on several lines), and every CSV cell of such text through
//! [`csv_cell`]. JSON output needs neither: serde escapes control characters.

use std::borrow::Cow;

/// Whether `c` acts on a terminal or on the order of text instead of showing as a character: the
/// C0 and C1 controls and DEL, the line and paragraph separators, and the bidirectional marks,
/// embeddings, overrides and isolates ("Trojan Source"). (A character added here must start with
/// a byte that `may_hold_control` looks for: a test checks.)
pub fn is_control(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{61c}' | '\u{200e}' | '\u{200f}' | '\u{2028}' | '\u{2029}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
        )
}

/// Whether `text` may hold a character [`is_control`] names, told from its bytes: every such
/// character is a byte below 0x20, 0x7F, or starts with 0xC2 (the C1 controls), 0xD8 (the Arabic
/// letter mark) or 0xE2 (the separators and bidirectional marks; a test checks every character). A byte test on the paths
/// and tags of a whole archive instead of a Unicode table look-up per character (about 3,000
/// instructions a path of Chinese names).
fn may_hold_control(text: &str) -> bool {
    text.bytes().fold(false, |found, b| {
        found | (b < 0x20 || b == 0x7F || b == 0xC2 || b == 0xD8 || b == 0xE2)
    })
}

/// `text` for one line of a report: every control character (line breaks and tabs included)
/// shown as its Rust escape, `\n`, `\t`, `\u{1b}`.
pub fn visible(text: &str) -> Cow<'_, str> {
    escape(text, |_| true)
}

/// `text` shown on several lines: as [`visible`], but a line break stays one.
pub fn visible_lines(text: &str) -> Cow<'_, str> {
    escape(text, |c| c != '\n')
}

fn escape(text: &str, escaped: impl Fn(char) -> bool) -> Cow<'_, str> {
    if !may_hold_control(text) || !text.chars().any(|c| is_control(c) && escaped(c)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_control(c) && escaped(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// A path for a report: as [`visible`], and bytes that are not UTF-8 (possible in Unix file
/// names) shown as `\xNN` rather than replaced.
pub fn visible_path(path: &std::path::Path) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let bytes = path.as_os_str().as_bytes();
        // (Nearly every path is UTF-8: told at once, where chunks are looked for character by
        // character.)
        if let Ok(text) = std::str::from_utf8(bytes) {
            return visible(text).into_owned();
        }
        let mut out = String::with_capacity(bytes.len());
        for chunk in bytes.utf8_chunks() {
            out.push_str(&visible(chunk.valid()));
            for b in chunk.invalid() {
                out.push_str(&format!("\\x{b:02x}"));
            }
        }
        out
    }
    #[cfg(not(unix))]
    {
        visible(&path.to_string_lossy()).into_owned()
    }
}

/// The characters that make a spreadsheet read a cell as a formula (OWASP's list).
const FORMULA_STARTS: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// A CSV cell of text from a file: a cell starting with `=`, `+`, `-`, `@`, a tab or a CR gets a
/// leading `'`, so that a spreadsheet shows it as text instead of running it as a formula
/// (OWASP's advice for CSV injection). Numbers written by xq itself are not passed through this.
pub fn csv_cell(text: &str) -> Cow<'_, str> {
    // Invisible characters in front (a byte-order mark, which CSV readers drop) do not hide one.
    if text
        .trim_start_matches(['\u{feff}', '\u{200b}'])
        .starts_with(FORMULA_STARTS)
    {
        Cow::Owned(format!("'{text}"))
    } else {
        Cow::Borrowed(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_control_character_is_seen_by_its_bytes() {
        // Every character there is: what is_control names (now or after a change to it) must
        // be seen by the byte test, inside a text and alone.
        let mut controls = 0;
        for c in (0..=u32::from(char::MAX)).filter_map(char::from_u32) {
            if is_control(c) {
                controls += 1;
                let text = format!("對局{c}x");
                assert!(may_hold_control(&text), "{:04X}", c as u32);
                assert!(
                    may_hold_control(c.encode_utf8(&mut [0; 4])),
                    "{:04X}",
                    c as u32
                );
                assert_ne!(visible(&text), text.as_str(), "{:04X}", c as u32);
            }
        }
        assert_eq!(controls, 79);
        // Paths of Chinese names pass without a look at their characters.
        assert!(!may_hold_control("/data/對局/大師對局/00000090.pgn"));
    }

    #[test]
    fn controls_are_shown_not_acted_on() {
        assert_eq!(visible("plain 炮二平五"), "plain 炮二平五");
        assert_eq!(
            visible("\u{1b}]0;pwned\u{7}title\u{1b}[2J"),
            "\\u{1b}]0;pwned\\u{7}title\\u{1b}[2J"
        );
        assert_eq!(visible("a\nxq: 0 failed"), "a\\nxq: 0 failed");
        assert_eq!(visible_lines("a\nb\r"), "a\nb\\r");
        assert_eq!(visible("\u{202e}evil"), "\\u{202e}evil");
        assert_eq!(visible("\u{9b}31m"), "\\u{9b}31m");
    }

    #[test]
    fn formulas_become_text() {
        for cell in ["=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx"] {
            assert_eq!(csv_cell(cell), format!("'{cell}"));
        }
        assert_eq!(csv_cell("炮二平五"), "炮二平五");
        assert_eq!(csv_cell("a=1"), "a=1");
        assert_eq!(csv_cell("\u{feff}=1"), "'\u{feff}=1");
    }

    #[cfg(unix)]
    #[test]
    fn paths_show_their_bytes() {
        use std::os::unix::ffi::OsStrExt;
        let path = std::path::Path::new(std::ffi::OsStr::from_bytes(b"a\xff\x1b.pgn"));
        assert_eq!(visible_path(path), "a\\xff\\u{1b}.pgn");
        // A path that is UTF-8 (the quick way) escapes its controls all the same.
        let path = std::path::Path::new("棋\u{1b}]0;x\u{7}/對局\u{202e}.pgn");
        assert_eq!(visible_path(path), "棋\\u{1b}]0;x\\u{7}/對局\\u{202e}.pgn");
        assert_eq!(
            visible_path(std::path::Path::new("對局/1.pgn")),
            "對局/1.pgn"
        );
    }
}
