//! Why a record cannot be read.

use std::fmt;

use serde::Serialize;

/// What kind of problem stops a record from being read.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ReadErrorKind {
    /// The file could not be read at all.
    Io,
    /// No reader recognises the content.
    UnknownFormat,
    /// The file ends in the middle of a structure.
    Truncated,
    /// A version or variant this reader does not know.
    Unsupported,
    /// The encryption keys of an XQF file do not add up.
    BadKeys,
    /// An offset or count points outside the file.
    BadOffset,
    /// Text that breaks the format's syntax (an unclosed comment, unbalanced parentheses, a
    /// malformed tag …).
    Syntax,
    /// Variations nested deeper than the reader accepts.
    TooDeep,
    /// A game or file larger than the reader accepts.
    TooLarge,
}

impl ReadErrorKind {
    /// The machine name, as in JSON reports.
    pub const fn name(self) -> &'static str {
        match self {
            ReadErrorKind::Io => "io",
            ReadErrorKind::UnknownFormat => "unknown_format",
            ReadErrorKind::Truncated => "truncated",
            ReadErrorKind::Unsupported => "unsupported",
            ReadErrorKind::BadKeys => "bad_keys",
            ReadErrorKind::BadOffset => "bad_offset",
            ReadErrorKind::Syntax => "syntax",
            ReadErrorKind::TooDeep => "too_deep",
            ReadErrorKind::TooLarge => "too_large",
        }
    }
}

/// A record (or one game of it) that cannot be read, with where.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
pub struct ReadError {
    /// What kind of problem.
    pub kind: ReadErrorKind,
    /// Which game of the file (0-based), when the file holds several.
    pub game: Option<usize>,
    /// The byte offset in the file, where known.
    pub offset: Option<usize>,
    /// The line (1-based) of a text file, where known.
    pub line: Option<u32>,
    /// What is wrong and what to do about it.
    pub message: String,
}

impl ReadError {
    /// Whether the content is no game record of any format the reader knows (not a damaged
    /// record): a file found in a directory among records, sharing an extension with other files
    /// (`.json`, `.txt`, `.html`), is skipped for this, and fails for any other error.
    pub fn is_not_a_record(&self) -> bool {
        self.kind == ReadErrorKind::UnknownFormat
    }

    /// Why a file skipped for this error ([`ReadError::is_not_a_record`]) is skipped, in words:
    /// what every report of a skipped file says.
    pub fn why_skipped(&self) -> String {
        format!("not a game record ({})", self.message)
    }

    /// An error of `kind` with a message.
    pub fn new(kind: ReadErrorKind, message: impl Into<String>) -> ReadError {
        ReadError {
            kind,
            game: None,
            offset: None,
            line: None,
            message: message.into(),
        }
    }

    /// The same error at byte `offset`.
    #[must_use]
    pub(crate) fn at(mut self, offset: usize) -> ReadError {
        self.offset = Some(offset);
        self
    }

    /// The same error on `line`.
    #[must_use]
    pub(crate) fn on_line(mut self, line: u32) -> ReadError {
        self.line = Some(line);
        self
    }

    /// The same error in game `game`.
    #[must_use]
    pub(crate) fn in_game(mut self, game: usize) -> ReadError {
        self.game = Some(game);
        self
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut place = Vec::new();
        if let Some(g) = self.game {
            place.push(format!("game {}", g + 1));
        }
        if let Some(l) = self.line {
            place.push(format!("line {l}"));
        }
        if let Some(o) = self.offset {
            place.push(format!("byte {o}"));
        }
        if place.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", place.join(", "), self.message)
        }
    }
}
