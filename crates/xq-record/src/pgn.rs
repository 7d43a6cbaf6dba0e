//! XQ PGN: reading many games per file, and writing.
//!
//! # Reading
//! Tags `[Name "value"]` (escaped `\"` allowed), then movetext: moves in any notation (the `Format`
//! tag is not needed: every token is read by the notation reader), move numbers (`1.`, `3...`,
//! `1.炮二平五` without a space, black continuation lines `3. ... 马８进７`), `{}` and `;` comments,
//! `( )` variations as a tree (nested up to [`MAX_DEPTH`] levels), `$n` annotations and `!?`
//! marks (dropped), and a result token (`1-0`, `0-1`, `1/2-1/2`, `*`). Moves after a result start
//! another game, with or without tags, as do moves numbered from 1 after words heading them on
//! their line (`第二局 1. 兵七进一 …`: the words are said); other text after a result, up to the
//! next line starting with `[` or a move (xqbase's advert trailer), is skipped. After a game whose
//! moves cannot be read (a stray `)`, a result inside a variation), its rest is passed over to its
//! result (outside comments) or a tag line, and reading goes on there: a game written after it
//! without tags is read, not lost with it. A tag line after a blank line that names a tag the
//! game already has starts the next game (the first is then a game of tags alone). Comments on a
//! result's line are the game's. Whitespace includes
//! the full-width space; a byte-order mark and CRLF are fine.
//!
//! # Writing
//! See [`write_pgn`](crate::write::write_pgn): UTF-8 or GBK, moves in Chinese, traditional
//! Chinese, WXF or ICCS, comments and variations kept.

use crate::{
    dhtmlxq::{self, RECORD_OPEN},
    encoding::Encoding,
    error::{ReadError, ReadErrorKind},
    game::{Game, Node, Outcome, append_comment},
    place::{Place, newlines},
};

/// How much of each line after a game's result is looked at for a move (that starts a game
/// written on without tags): a longer line without one in its start is words, passed over to the
/// next tag line.
pub(crate) const MOVE_LINE_SCAN: usize = 16 << 10;

/// How deep variations may nest.
pub const MAX_DEPTH: usize = 256;

/// The most text a `{` comment may take, in bytes: one that does not close within it is never
/// closed (a `}` further on belongs to something else).
pub const MAX_COMMENT: usize = 1 << 20;

/// The most text one game may take (tags, movetext, comments), in bytes: a `{` comment that does
/// not close within the game's window, or a game that does not end within it, is an error, and
/// reading goes on at the next tag line. Reading a file whole and streaming it in chunks give the
/// same games because both apply this window (and the stream needs to hold no more than it).
pub const MAX_GAME: usize = 4 << 20;

/// What the reader skips before the next game, after a game ended (by its result) or failed.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub(crate) enum Skip {
    /// Nothing: the next game starts here.
    #[default]
    None,
    /// After an error: unless at a tag line already, past the current line, then to a tag line.
    ToGame,
    /// After an error in a tag: the rest of the game's tag section (past the current line, then
    /// every line right after it that starts, after spaces, with `[` but a DhtmlXQ record's,
    /// or holds comments alone, `;…` or `{…}` closed on it), then the game's moves as
    /// after an error in them ([`Skip::ToResult`]: a game written on without tags after its
    /// result is read, not passed over to the next tag line); whether at a line's start (after
    /// spaces only).
    TagSection { at_line_start: bool },
    /// The rest of the current line, then to a tag line.
    PastLine,
    /// To the next line starting (after spaces) with `[`; whether only spaces were passed since
    /// the last line end, when resuming (else told from the place).
    ToTags(Option<bool>),
    /// After a game's result: lines without a move (outside comments) are passed over, up to a
    /// tag line or a line with a move, where the next game starts (one written without tags);
    /// whether a `{` comment is open.
    AfterResult { in_comment: bool },
    /// After an error in a game's moves: the rest of the game, up to a tag line or past its
    /// result (then as after any result: a game written on without tags is read, not lost with
    /// the one that failed); what the reading is in, whether only spaces were passed since the
    /// last line end, and how many variations are open. A result outside comments ends the game
    /// outside every variation, or inside one when it is the last word of its line (as a game's
    /// result is written: a variation never closed), not when a word follows it there. Moves
    /// numbered from 1 again after a blank line start the next game, as in the moves.
    ToResult(Passing),
}

/// Where passing over the rest of a broken game stands (see [`Skip::ToResult`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Passing {
    /// What the reading is in.
    within: Within,
    /// Whether only spaces were passed since the last line end.
    blank: bool,
    /// How many variations are open.
    depth: u32,
    /// Whether the line so far holds no space but ASCII ones (a line of other spaces is no blank
    /// line to moves numbered anew, as in the moves).
    plain: bool,
    /// Whether a blank line (outside comments and variations) was passed since the last word.
    blank_line: bool,
    /// Whether a word was passed (moves of the game: a number 1 after them may start the next).
    moved: bool,
}

impl Passing {
    /// At the start of a broken game's moves (`moved`: some were read), `blank` at a line's
    /// start.
    fn new(blank: bool, depth: u32, moved: bool) -> Passing {
        Passing {
            within: Within::Moves,
            blank,
            depth,
            plain: true,
            blank_line: false,
            moved,
        }
    }
}

/// What [`Skip::ToResult`] is passing over.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Within {
    /// Moves, numbers and the like, between tokens.
    Moves,
    /// A `{` comment (which a tag line also ends).
    Braces,
    /// A `;` comment, to the line's end.
    LineComment,
    /// A word longer than any result, to its end.
    LongToken,
    /// Spaces after a result inside a variation: it ends the game if its line ends first.
    ResultInVariation,
}

/// One step of reading a piece of text that may continue (see [`PgnReader::step`]).
#[derive(Debug)]
pub(crate) enum Step {
    /// A game (or its error) that more text after the piece would not change.
    Game(Result<Game, ReadError>),
    /// The text is read to its end.
    Done,
    /// More text is needed: the piece's text from `from` on is to be read again with the text
    /// that follows, skipping as `skip` says first, the next game saying `said` first (what
    /// passing over the lines after a result found).
    More {
        from: usize,
        skip: Skip,
        said: Vec<String>,
    },
}

/// Reads the games of a PGN text one by one.
#[derive(Debug)]
pub struct PgnReader<'a> {
    text: &'a str,
    pos: usize,
    line: u32,
    game: usize,
    /// Where the current game's window ends (the text's end between games).
    end: usize,
    /// One past the furthest byte looked at (to tell whether the text's end was reached).
    seen: usize,
    skip: Skip,
    /// Whether the text starts at the start of a line of its file.
    line_start: bool,
    max_game: usize,
    /// The byte that follows the text in its file, when known (a piece of it read on its own):
    /// when it starts no comment, no comment follows a game that ends with the text.
    follows: Option<u8>,
    /// What passing over the lines after a result found to say, said by the next game read:
    /// words heading it on the line where its moves start (`第二局 1. 兵七进一 …`), lines naming
    /// moves from 1 not read as a game. Handed on with the text that follows when more is
    /// needed ([`Step::More`]).
    said_before: Vec<String>,
    /// Whether runs of plain moves are read by [`PgnReader::read_plain_run`] (always, but in
    /// the test that compares it with the general reading).
    plain_runs: bool,
}

impl<'a> PgnReader<'a> {
    /// A reader over `text` (already decoded).
    pub fn new(text: &'a str) -> PgnReader<'a> {
        PgnReader::with_origin(text, 1, 0)
    }

    /// A reader over `text`, a piece of a larger file that starts on line `line` (1-based) with
    /// game `game` (0-based): errors and games are numbered as in the whole file.
    pub(crate) fn with_origin(text: &'a str, line: u32, game: usize) -> PgnReader<'a> {
        PgnReader::resume(text, line, game, Skip::None, true, MAX_GAME)
    }

    /// A reader over a piece of a file read in chunks: `skip` is what the previous piece left to
    /// skip, `line_start` whether the piece starts a line; `max_game` is [`MAX_GAME`] but in tests.
    pub(crate) fn resume(
        text: &'a str,
        line: u32,
        game: usize,
        skip: Skip,
        line_start: bool,
        max_game: usize,
    ) -> PgnReader<'a> {
        let pos = if text.starts_with('\u{feff}') && line_start && line == 1 {
            '\u{feff}'.len_utf8()
        } else {
            0
        };
        PgnReader {
            text,
            pos,
            line,
            game,
            end: text.len(),
            seen: 0,
            skip,
            line_start,
            max_game: max_game.max(1),
            follows: None,
            said_before: Vec::new(),
            plain_runs: true,
        }
    }

    /// The reader, with what the text before left to say ([`Step::More`]).
    pub(crate) fn saying(self, said: Vec<String>) -> PgnReader<'a> {
        PgnReader {
            said_before: said,
            ..self
        }
    }

    /// The reader, told the byte that follows the text in its file.
    pub(crate) fn followed_by(self, follows: Option<u8>) -> PgnReader<'a> {
        PgnReader { follows, ..self }
    }

    /// The game index of the next game.
    pub(crate) fn next_game(&self) -> usize {
        self.game
    }

    /// Notes that byte `p` was looked at (`p` may be the end: then the end was reached).
    fn look(&mut self, p: usize) {
        self.seen = self.seen.max(p + 1);
    }

    fn rest(&self) -> &'a str {
        &self.text[self.pos.min(self.end)..self.end]
    }

    /// The position of `c` in the rest of the window, noting how far was looked.
    fn find_in_rest(&mut self, c: char) -> Option<usize> {
        let found = self.rest().find(c);
        match found {
            Some(i) => self.look(self.pos + i),
            None => self.look(self.end),
        }
        found
    }

    /// Whether the reading place is at a PGN escape line: a `%` first on its line (the rest of
    /// the line is the tool's own data; it is kept as a comment, as a `;` one is).
    fn at_escape_line(&self) -> bool {
        self.text.as_bytes().get(self.pos) == Some(&b'%') && self.at_line_start()
    }

    fn at_line_start(&self) -> bool {
        self.line_starts_at(self.pos)
    }

    /// Whether byte `pos` of the text starts a line.
    fn line_starts_at(&self, pos: usize) -> bool {
        match pos {
            0 => self.line_start,
            p => self.text.as_bytes().get(p - 1) == Some(&b'\n'),
        }
    }

    fn peek(&mut self) -> Option<char> {
        self.look(self.pos);
        if self.pos >= self.end {
            return None;
        }
        match self.text.as_bytes().get(self.pos) {
            Some(&b) if b < 0x80 => Some(char::from(b)),
            Some(_) => self.rest().chars().next(),
            None => None,
        }
    }

    /// The byte at the reading place, as [`PgnReader::peek`] looks (`None` at the window's end).
    fn peek_byte(&mut self) -> Option<u8> {
        self.look(self.pos);
        if self.pos >= self.end {
            return None;
        }
        self.text.as_bytes().get(self.pos).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    /// Moves `n` bytes on (to a character boundary), counting the lines passed.
    fn advance(&mut self, n: usize) {
        let end = (self.pos + n).min(self.end);
        self.line += newlines(&self.text.as_bytes()[self.pos..end]);
        self.pos = end;
    }

    #[inline(always)]
    fn skip_space(&mut self) {
        let bytes = &self.text.as_bytes()[..self.end];
        // The place moves forward only: what was looked at is noted once, at the end (the byte
        // there, and the two after it when it is not ASCII).
        let (mut pos, mut lines) = (self.pos, 0);
        let furthest = loop {
            let Some(&b) = bytes.get(pos) else {
                break pos;
            };
            if b < 0x80 {
                if !b.is_ascii_whitespace() {
                    break pos;
                }
                pos += 1;
                lines += u32::from(b == b'\n');
            } else {
                if !may_start_space(b) {
                    break pos + 2;
                }
                match unicode_space_len(&bytes[pos..]) {
                    0 => break pos + 2,
                    n => pos += n,
                }
            }
        };
        self.look(furthest);
        self.pos = pos;
        self.line += lines;
    }

    /// Skips to the start of the next line that begins with `[` (after spaces), or the end.
    /// `Ok` if one was found, else whether only spaces follow the last line end.
    fn skip_to_next_tags(&mut self, at_line_start: Option<bool>) -> Result<(), bool> {
        let mut at_line_start = at_line_start.unwrap_or_else(|| self.at_line_start());
        while let Some(c) = self.peek() {
            if at_line_start && c == '[' {
                return Ok(());
            }
            if c == '\n' {
                at_line_start = true;
            } else if !c.is_whitespace() {
                at_line_start = false;
            }
            self.bump();
        }
        Err(at_line_start)
    }

    /// Passes over the rest of a tag section (see [`Skip::TagSection`]); whether its end was
    /// found (else `self.skip` says what is left).
    fn pass_tag_section(&mut self, mut at_line_start: bool, complete: bool) -> bool {
        loop {
            if !at_line_start && !self.skip_line() {
                self.skip = Skip::TagSection {
                    at_line_start: false,
                };
                return false;
            }
            let rest = self.text.as_bytes().get(self.pos..).unwrap_or_default();
            let space = line_spaces_len(rest);
            self.advance(space);
            let after = &rest[space..];
            let line_end = memchr::memchr(b'\n', after);
            let line = &after[..line_end.unwrap_or(after.len())];
            match line.first() {
                // (The text ends first: what the line is may follow.)
                None if line_end.is_none() => {}
                Some(b'{') if line_end.is_none() && !complete => {}
                // A DhtmlXQ record (its opening `[DhtmlXQ]`, or a field's `[DhtmlXQ_name]`, not a
                // tag named so): a game of its own, read as one at a game's start.
                Some(b'[')
                    if opens_dhtmlxq(
                        self.text
                            .get(self.pos..self.pos + line.len())
                            .unwrap_or_default(),
                    ) =>
                {
                    self.skip = Skip::None;
                    return true;
                }
                // Tag lines, and lines of comments (`;`, `{…}` closed on the line) among them, as
                // the reader takes them in a tag section.
                Some(b'[' | b';') => {
                    at_line_start = false;
                    continue;
                }
                Some(b'{') if comments_alone(line) => {
                    at_line_start = false;
                    continue;
                }
                _ => {
                    self.skip = Skip::ToResult(Passing::new(true, 0, false));
                    return true;
                }
            }
            self.skip = Skip::TagSection {
                at_line_start: true,
            };
            return false;
        }
    }

    /// Skips past the current line; whether its end was found.
    fn skip_line(&mut self) -> bool {
        while let Some(c) = self.bump() {
            if c == '\n' {
                return true;
            }
        }
        false
    }

    /// Does what `self.skip` says, over the whole text; whether it is done (else the text ended
    /// first, and `self.skip` says what is left; `complete` if the text is the file's rest).
    fn do_skip(&mut self, complete: bool) -> bool {
        self.end = self.text.len();
        loop {
            match self.skip {
                Skip::None => return true,
                Skip::AfterResult { in_comment } => {
                    if !self.pass_after_result(in_comment, complete) {
                        return false;
                    }
                }
                Skip::ToResult(passing) => {
                    if !self.pass_to_result(passing, complete) {
                        return false;
                    }
                }
                Skip::ToGame => {
                    // Already at the next game's tags (an error found where the movetext ended)?
                    let at_tags = self.at_line_start() && self.peek() == Some('[');
                    self.skip = if at_tags { Skip::None } else { Skip::PastLine };
                }
                Skip::TagSection { at_line_start } => {
                    if !self.pass_tag_section(at_line_start, complete) {
                        return false;
                    }
                }
                Skip::PastLine => {
                    if !self.skip_line() {
                        return false;
                    }
                    self.skip = Skip::ToTags(None);
                }
                Skip::ToTags(state) => match self.skip_to_next_tags(state) {
                    Ok(()) => self.skip = Skip::None,
                    Err(at_line_start) => {
                        self.skip = Skip::ToTags(Some(at_line_start));
                        return false;
                    }
                },
            }
        }
    }

    /// Reads the next game of a piece of text; `complete` says whether the text is the file's
    /// rest (else a game whose reading reached the piece's end is left for the next piece).
    pub(crate) fn step(&mut self, complete: bool) -> Step {
        let len = self.text.len();
        if !self.do_skip(complete) {
            return if complete {
                Step::Done
            } else {
                // (From the start of a line after a result that may go on.)
                Step::More {
                    from: self.pos.min(len),
                    skip: self.skip,
                    said: std::mem::take(&mut self.said_before),
                }
            };
        }
        let start = self.pos;
        self.seen = start;
        // (Taken by the game read; handed on again if it is read again with more text.)
        let said = self.said_before.clone();
        match self.read_game() {
            None if complete => Step::Done,
            // Only spaces to the end: read, nothing to carry (blank megabytes cost nothing).
            None => Step::More {
                from: self.pos.min(len),
                skip: Skip::None,
                said,
            },
            Some(item) if complete || self.seen <= len => {
                self.game += 1;
                Step::Game(item)
            }
            Some(_) => Step::More {
                from: start,
                skip: Skip::None,
                said,
            },
        }
    }

    fn error(&self, kind: ReadErrorKind, message: impl Into<String>) -> ReadError {
        self.error_at(self.pos, kind, message)
    }

    /// An error at byte `at` of the text (the character it is about), on the current line.
    fn error_at(&self, at: usize, kind: ReadErrorKind, message: impl Into<String>) -> ReadError {
        ReadError::new(kind, message)
            .at(at)
            .on_line(self.line)
            .in_game(self.game)
    }

    /// Reads a tag line: its name, its value (unescaped, trimmed), where the value starts in
    /// the text, and the words after it on its line that are not read (see
    /// [`goes_on_after_tag`]).
    fn read_tag(&mut self) -> Result<(String, String, usize, Option<String>), ReadError> {
        match self.plain_tag() {
            Some(tag) => Ok(tag),
            None => self.read_tag_in_full(),
        }
    }

    /// The tag at the reading place (a `[`) if it is written as nearly every record writes one:
    /// `[Name "value"]` alone on its line but for spaces, a name of ASCII letters, digits and
    /// `_`, a value without quote, backslash or bracket. Read as [`PgnReader::read_tag_in_full`]
    /// reads it (a test compares the two), without its searches for what else a tag may be.
    #[inline]
    fn plain_tag(&mut self) -> Option<(String, String, usize, Option<String>)> {
        let start = self.pos;
        let bytes = self.text.as_bytes().get(start..self.end)?;
        let name_len = bytes
            .get(1..)?
            .iter()
            .position(|&b| TAG_BYTES[usize::from(b)] & NAME == 0)?;
        let [b' ', b'"', after_quote @ ..] = &bytes[1 + name_len..] else {
            return None;
        };
        if name_len == 0 {
            return None;
        }
        let value_len = after_quote
            .iter()
            .position(|&b| TAG_BYTES[usize::from(b)] & ENDS_VALUE != 0)?;
        let [b'"', b']', line_rest @ ..] = &after_quote[value_len..] else {
            return None;
        };
        let spaces = line_rest
            .iter()
            .position(|&b| !matches!(b, b' ' | b'\t' | b'\r'))?;
        if line_rest[spaces] != b'\n' {
            return None;
        }
        let name_at = start + 1;
        let quote = name_at + name_len + 1;
        let value = &self.text[quote + 1..quote + 1 + value_len];
        let value_at = quote + 1 + (value.len() - value.trim_start().len());
        let line_end = quote + 1 + value_len + 2 + spaces;
        // What reading it in full looks at: up to the line's end.
        self.look(line_end);
        self.pos = line_end;
        Some((
            self.text[name_at..name_at + name_len].to_owned(),
            value.trim().to_owned(),
            value_at,
            None,
        ))
    }

    /// Reads the tag at the reading place (a `[`), however it is written.
    fn read_tag_in_full(&mut self) -> Result<(String, String, usize, Option<String>), ReadError> {
        let start_line = self.line;
        let name_len = self.tag_name_here().len();
        self.bump(); // '['
        let rest = self.rest();
        let end_of_line = self.find_in_rest('\n').unwrap_or(rest.len());
        let line = &rest[..end_of_line];
        let name = line[..name_len].to_owned();
        let after = &line[name_len..];
        // The value, where it starts, and where in `after` the tag ends (after its `]`, if one
        // follows the quoted value on the line).
        let (value, value_at, end, stray) = match after.find('"') {
            Some(q) => {
                let quote = self.pos + name_len + q;
                let body = &after[q + 1..];
                let value_at = quote + 1 + (body.len() - body.trim_start().len());
                let (value, closed) = tag_value(body);
                let Some(closed) = closed else {
                    return Err(ReadError::new(
                        ReadErrorKind::Syntax,
                        format!("the value of tag [{name} …] has no closing quote; write it as [{name} \"value\"]"),
                    )
                    .at(quote)
                    .on_line(start_line)
                    .in_game(self.game));
                };
                let past_quote = q + 1 + closed;
                let end = after[past_quote..].find(']').map(|b| past_quote + b + 1);
                // Words between the value and the `]` (`[Red "Hu" GM]`) are not the value.
                let stray = after[past_quote..end.map_or(after.len(), |e| e - 1)].trim();
                (value, value_at, end, stray)
            }
            // Without quotes, the value is the line's (`[DhtmlXQ_red]A` is no tag then moves).
            None => (
                after.trim().trim_end_matches(']').trim().to_owned(),
                self.pos + name_len + (after.len() - after.trim_start().len()),
                None,
                "",
            ),
        };
        if name.is_empty() {
            return Err(self.error(
                ReadErrorKind::Syntax,
                "a tag without a name: write [Name \"value\"]",
            ));
        }
        // The line, or the tag alone when the record goes on after it on its line (another tag,
        // the moves, a comment: `[Result "1-0"] 1. 炮二平五 …`), which is then read as the rest
        // is. Words after it (`Saturday`, `(GM)`) are the line's: not read, and said.
        let mut words = (!stray.is_empty()).then(|| stray.to_owned());
        match end {
            Some(end) if !after[end..].trim().is_empty() => {
                if goes_on_after_tag(&after[end..]) {
                    self.advance(name_len + end);
                } else {
                    let after_tag = after[end..].trim();
                    words = Some(match words {
                        Some(inside) => format!("{inside}] {after_tag}"),
                        None => after_tag.to_owned(),
                    });
                    self.advance(line.len());
                }
            }
            _ => self.advance(line.len()),
        }
        Ok((name, value, value_at, words))
    }

    fn read_game(&mut self) -> Option<Result<Game, ReadError>> {
        self.skip_space();
        self.peek()?;
        // The game's window: at most `max_game` bytes, ending at a character boundary.
        let start = self.pos;
        let start_line = self.line;
        let mut end = self.text.len().min(start.saturating_add(self.max_game));
        while !self.text.is_char_boundary(end) {
            end -= 1;
        }
        self.end = end;
        let item = self.read_game_in_window();
        let hit_window = self.seen > end && end < self.text.len();
        self.end = self.text.len();
        if hit_window {
            // The game did not end within its window: an error, and on from the window's end.
            self.skip = Skip::ToTags(None);
            self.pos = end;
            drop(item);
            self.line = start_line + newlines(&self.text.as_bytes()[start..end]);
            return Some(Err(ReadError::new(
                ReadErrorKind::TooLarge,
                format!(
                    "the game does not end within {} MiB (a comment or variation never closed, or no game at all): it is not read; reading goes on at the next tag line",
                    self.max_game >> 20
                ),
            )
            .at(start)
            .on_line(start_line)
            .in_game(self.game)));
        }
        Some(item)
    }

    fn read_game_in_window(&mut self) -> Result<Game, ReadError> {
        let start = self.pos;
        if self.rest().starts_with("[DhtmlXQ")
            && let Some(read) = self.read_dhtmlxq_record()
        {
            return read;
        }
        let mut game = Game {
            line: Some(self.line),
            ..Game::default()
        };
        game.unread.append(&mut self.said_before);
        loop {
            self.read_tags(&mut game)?;
            let ended = self.read_movetext(&mut game);
            // Comments alone before a tag section (`{Exported by …}` heading a file) are not a
            // game of their own: they open the game whose tags follow.
            let comments_only = game.tags.is_empty() && game.fen.is_none() && game.moves.is_empty();
            if ended.is_ok()
                && comments_only
                && self.peek() == Some('[')
                && !(self.rest().starts_with("[DhtmlXQ") && self.dhtmlxq_record().is_some())
            {
                continue;
            }
            return match ended {
                Ok(()) => {
                    // Every text of the game comes from what was read (the result tag the
                    // reader may add aside): looked over once for U+FFFD here, not text by text
                    // later.
                    let read = &self.text.as_bytes()[start..self.pos.min(self.end)];
                    game.replacement_free = replacement_free(read);
                    Ok(game)
                }
                Err(e) => {
                    // (An error that leaves nothing readable after it, a comment never closed,
                    // says what to skip itself.)
                    if self.skip == Skip::None {
                        self.pass_rest(0);
                    }
                    Err(e)
                }
            };
        }
    }

    /// The length of the DhtmlXQ record that starts at the reading place, if one does: text of
    /// two formats in one file (records copied from web pages among PGN games) is read record by
    /// record, each in its own format. A record is its fields one after another, after a
    /// [`RECORD_OPEN`] or not, up to the [`RECORD_CLOSE`](dhtmlxq::RECORD_CLOSE) after them if one follows
    /// ([`dhtmlxq::field_run_len`]). One that does not end within the game's window is too large,
    /// as a PGN game is.
    fn dhtmlxq_record(&mut self) -> Option<usize> {
        let rest = self.rest();
        let fields = rest.strip_prefix(RECORD_OPEN).map_or(rest, str::trim_start);
        let opening = rest.len() - fields.len();
        let (len, looked) = dhtmlxq::field_run_len(fields);
        self.look(self.pos + opening + looked);
        (len > 0).then_some(opening + len)
    }

    /// Reads the DhtmlXQ record at the reading place (which starts with `[DhtmlXQ`) as the next
    /// game, if one stands there. (Kept out of the way of reading PGN games, which is the hot
    /// path.)
    #[cold]
    #[inline(never)]
    fn read_dhtmlxq_record(&mut self) -> Option<Result<Game, ReadError>> {
        let len = self.dhtmlxq_record()?;
        let (start, line) = (self.pos, self.line);
        let record = &self.text[start..start + len];
        self.advance(len);
        let read = dhtmlxq::read_one(record, start, line).map(|mut game| {
            game.line = Some(line);
            game.replacement_free = replacement_free(record.as_bytes());
            game
        });
        Some(read.map_err(|e| e.in_game(self.game)))
    }

    /// Reads the tag section of `game` (none when the text does not start with `[`).
    fn read_tags(&mut self, game: &mut Game) -> Result<(), ReadError> {
        let mut after_blank = false;
        // The game's tag names, gathered at the first blank line among its tags (a section of
        // many tags with blank lines between costs a look-up per tag, not a pass over them).
        let mut names: Option<std::collections::HashSet<String>> = None;
        // Whether a FEN tag was read (with a value or not: the start position is no tag).
        let mut fen_read = false;
        while self.peek() == Some('[') {
            // A tag the game has (names compared in any case, as `Game::tag` does), after a
            // blank line, is the next game's: a game of tags alone (no moves, no result) ends
            // there rather than taking the next one's tags.
            if after_blank
                && names
                    .get_or_insert_with(|| tag_names(game, fen_read))
                    .contains(&self.tag_name_here().to_ascii_lowercase())
            {
                break;
            }
            let line = self.line;
            let read = self.read_tag().map(|(name, value, at, words)| {
                if let Some(words) = words {
                    game.unread.push(format!(
                        "the words after the value of tag [{name} …] on its line {line}, not read: {words}"
                    ));
                }
                (name, value, at)
            });
            match read {
                // The start position is the game's, not a tag (writers put it back).
                Ok((name, value, at)) if name.eq_ignore_ascii_case("FEN") => {
                    // (A tag appears once: of two FEN tags that give different positions, the
                    // last is taken, and the other said; an empty one after one that gives a
                    // position is passed over, and said.)
                    let earlier = game.fen.as_deref();
                    if let Some(earlier) =
                        earlier.filter(|f| value.is_empty() || !crate::game::same_start(f, &value))
                    {
                        game.unread.push(if value.is_empty() {
                            format!("an empty FEN tag (line {line}) after the FEN tag \"{earlier}\", which is the start position")
                        } else {
                            format!("the FEN tag \"{earlier}\", followed by another (line {line}): the last is the start position")
                        });
                    }
                    fen_read = true;
                    if let Some(names) = &mut names {
                        names.insert("fen".to_owned());
                    }
                    if !value.is_empty() || game.fen.is_none() {
                        let given = !value.is_empty();
                        game.fen = given.then_some(value);
                        game.fen_offset = given.then_some(at);
                        game.fen_line = given.then_some(line);
                    }
                }
                Ok((name, value, _)) => {
                    if let Some(names) = &mut names {
                        names.insert(name.to_ascii_lowercase());
                    }
                    if game.tags.capacity() == 0 {
                        game.tags.reserve(TAGS_ROOM);
                    }
                    game.tags.push((name, value));
                }
                Err(e) => {
                    self.skip = Skip::TagSection {
                        at_line_start: self.at_line_start(),
                    };
                    return Err(e);
                }
            }
            let mut before = self.line;
            self.skip_space();
            // Comments between tag lines are the game's, its tags read on after them; after a
            // blank line, only when the tag after them is one the game does not have (else a
            // game of tags alone ends at the blank line, the comment opening the next), as for
            // a tag line after a blank line.
            if (matches!(self.peek_byte(), Some(b'{' | b';')) || self.at_escape_line())
                && let Some((bodies, ended)) = self.comments_before_tag()
            {
                let (pos, line) = (self.pos, self.line);
                self.advance(ended);
                let comments_line = self.line;
                self.skip_space();
                let next_games = line >= before + 2
                    && self.peek() == Some('[')
                    && names
                        .get_or_insert_with(|| tag_names(game, fen_read))
                        .contains(&self.tag_name_here().to_ascii_lowercase());
                if next_games {
                    (self.pos, self.line) = (pos, line);
                    break;
                }
                for body in bodies.into_iter().filter(|b| !b.is_empty()) {
                    append_comment(&mut game.comment, body);
                }
                // (Blank lines before the tag line counted from the last comment's end.)
                before = comments_line;
            }
            // (The tag's line end, then another.)
            after_blank = self.line >= before + 2;
        }
        Ok(())
    }

    /// The name of the tag at the reading place (which is at its `[`), noting how far was
    /// looked (to the character after it: a name the text's end cuts is read again whole).
    fn tag_name_here(&mut self) -> &'a str {
        let rest = self.text.get(self.pos + 1..self.end).unwrap_or_default();
        let len = rest
            .find(|c: char| c.is_whitespace() || c == '"' || c == ']')
            .unwrap_or(rest.len());
        self.look(self.pos + 1 + len);
        &rest[..len]
    }

    fn read_movetext(&mut self, game: &mut Game) -> Result<(), ReadError> {
        // The line being built, and the lines of enclosing variations. The main line starts
        // with room for half as many moves again as this thread's last game had (mostly no
        // chain of reallocations per game, nor a copy at the end).
        let mut stack: Vec<Vec<Node>> = vec![Vec::with_capacity(MAIN_LINE_ROOM.get())];
        let mut pending: Option<String> = None;
        // Where each open variation's ( stands: byte and line.
        let mut opened: Vec<(usize, u32)> = Vec::new();
        // Whether a move number was read (before the first, words that are no moves are a
        // heading: see `heading_words`).
        let mut numbered = false;
        loop {
            if self.plain_runs
                && pending.is_none()
                && let [main] = stack.as_mut_slice()
            {
                self.read_plain_run(main, &mut numbered);
            }
            self.skip_space();
            // The byte only: every character the movetext treats apart is ASCII (a token is
            // read whole by `read_token`).
            let Some(c) = self.peek_byte() else { break };
            match c {
                b'[' if self.at_line_start() => break,
                b'{' => {
                    let (start, start_line) = (self.pos, self.line);
                    self.bump();
                    let rest = self.rest();
                    let window = (self.pos + MAX_COMMENT).min(self.end);
                    let found = match self.comment_end(self.pos, window) {
                        CommentEnd::Closed(i) => {
                            self.look(self.pos + i);
                            Some(i)
                        }
                        CommentEnd::TagLine(i) => {
                            // The next game's tags: this comment is not closed in its game.
                            self.look(self.pos + i);
                            self.skip = Skip::ToGame;
                            return Err(ReadError::new(
                                ReadErrorKind::Syntax,
                                "a comment opened with { is not closed before the next game's tags; close it or remove the {",
                            )
                            .at(start)
                            .on_line(start_line)
                            .in_game(self.game));
                        }
                        CommentEnd::Open if window < self.end => {
                            self.look(window - 1);
                            None
                        }
                        CommentEnd::Open => {
                            self.look(self.end);
                            None
                        }
                    };
                    let Some(end) = found else {
                        // Text goes on past the longest a comment may be: say so, as a `}`
                        // further on may be this comment's end to the person who wrote it.
                        let message = if window < self.end {
                            format!(
                                "a comment opened with {{ is not closed within {} MiB, the longest a comment may be; close it sooner or remove the {{",
                                MAX_COMMENT >> 20
                            )
                        } else {
                            "a comment opened with { is never closed with }; close it or remove the {"
                                .to_owned()
                        };
                        // The rest is the comment's: reading goes on at the next tag line.
                        self.skip = Skip::ToGame;
                        return Err(ReadError::new(ReadErrorKind::Syntax, message)
                            .at(start)
                            .on_line(start_line)
                            .in_game(self.game));
                    };
                    let body = rest[..end].trim().to_owned();
                    self.advance(end + 1);
                    attach_comment(game, &mut stack, &mut pending, body);
                }
                // (And PGN's escape line, a `%` first on its line: kept as a comment, as `;` is.)
                b';' | b'%' if c == b';' || self.at_line_start() => {
                    let body = self.read_line_comment();
                    attach_comment(game, &mut stack, &mut pending, body);
                }
                b'(' => {
                    let start = self.pos;
                    opened.push((start, self.line));
                    self.bump();
                    // (A comment between two variations of a move is the move's.)
                    if let Some(line) = stack.last_mut() {
                        settle_pending(line, &mut pending);
                    }
                    if stack.last().is_some_and(Vec::is_empty) {
                        self.pass_rest(opened.len());
                        return Err(self.error_at(
                            start,
                            ReadErrorKind::Syntax,
                            "a variation ( … ) before any move: a variation replaces the move before it",
                        ));
                    }
                    if stack.len() > MAX_DEPTH {
                        self.pass_rest(opened.len());
                        return Err(self.error_at(
                            start,
                            ReadErrorKind::TooDeep,
                            format!("variations nested deeper than {MAX_DEPTH} levels"),
                        ));
                    }
                    stack.push(Vec::new());
                }
                b')' => {
                    let start = self.pos;
                    self.bump();
                    if stack.len() < 2 {
                        self.pass_rest(0);
                        return Err(self.error_at(
                            start,
                            ReadErrorKind::Syntax,
                            "a ) closes no variation: remove it or add the (",
                        ));
                    }
                    opened.pop();
                    let mut line = stack.pop().unwrap_or_default();
                    settle_pending(&mut line, &mut pending);
                    if let Some(last) = stack.last_mut().and_then(|l| l.last_mut()) {
                        if line.is_empty() {
                            // `( )` or `( {comment} )`: no alternative. Its comment, waiting for
                            // a first move that never came, is kept after the move it hangs
                            // on (not given to the next variation's first move).
                            if let Some(comment) = pending.take() {
                                last.append_comment(comment);
                            }
                        } else {
                            last.add_variation(line);
                        }
                    }
                }
                _ => {
                    let (start, line) = (self.pos, self.line);
                    let token = self.read_token();
                    if token.is_empty() {
                        // A delimiter the token reader does not take: skip it.
                        self.bump();
                        continue;
                    }
                    // A result token, or a plain result in words ending the moves' line
                    // (`红胜`, `和棋`), as Chinese records write one.
                    let result = match result_token(token) {
                        None if may_be_outcome_word(token) && stack.len() == 1 => {
                            self.outcome_ending_line(token)
                        }
                        found => found,
                    };
                    if let Some(result) = result {
                        if stack.len() > 1 {
                            // Passed over from the result itself: it may be the game's end.
                            self.pos = start;
                            self.pass_rest(opened.len());
                            return Err(self.error_at(
                                start,
                                ReadErrorKind::Syntax,
                                format!("the result {result} stands inside a variation: close every ( with ) first"),
                            ));
                        }
                        match game.tag("Result") {
                            None => game.set_tag("Result", result),
                            // A tag of no result (`*`, `?`): the moves' result is taken, and said.
                            Some(tag)
                                if result != "*"
                                    && (tag.trim() == "?"
                                        || Outcome::parse(tag) == Some(Outcome::Unknown)) =>
                            {
                                let said = format!(
                                    "the Result tag \"{tag}\", which gives no result: the result {result} that ends the moves (line {}) is taken",
                                    self.line
                                );
                                game.set_tag("Result", result);
                                game.unread.push(said);
                            }
                            // Two results that disagree: the tag is kept, the other said.
                            Some(tag)
                                if result != "*"
                                    && Outcome::parse(tag) != Outcome::parse(result) =>
                            {
                                game.unread.push(format!(
                                    "the result {result} that ends the moves (line {}), which the Result tag \"{tag}\" does not give: the tag is kept",
                                    self.line
                                ));
                            }
                            Some(_) => {}
                        }
                        self.read_closing_comments(game, &mut stack, &mut pending);
                        self.skip = Skip::AfterResult { in_comment: false };
                        break;
                    }
                    // (Bytes first: most tokens are moves.)
                    let number_one = starts_move_one(token);
                    if number_one
                        && stack.len() == 1
                        && self.numbered_anew(stack[0].last(), start, token)
                    {
                        // A game without a result, then another: moves numbered from 1 again
                        // after a blank line are the next game's, not this one's.
                        self.pos = start;
                        self.line = line;
                        game.unread.push(format!(
                            "no result ends the moves: those numbered from 1 again after a blank line (line {line}) are read as the next game"
                        ));
                        break;
                    }
                    if number_one
                        && !numbered
                        && let [main] = stack.as_mut_slice()
                        && let Some(said) = heading_words(main)
                    {
                        game.unread.push(said);
                        main.clear();
                    }
                    let stripped = strip_move_number(token);
                    numbered |= stripped.is_none_or(|mv| mv.len() < token.len());
                    let Some(mv) = stripped else {
                        continue;
                    };
                    // Where the move's text starts, after its number.
                    // Numeric glyphs (`$14`, PGN's NAGs) are the move's before them, and so are
                    // marks standing alone (`!?`); a move may be written on after them.
                    let (mv, marks) = crate::game::split_glyphs(mv, |glyph| {
                        match stack.last_mut().and_then(|l| l.last_mut()) {
                            Some(node) => node.add_glyph(glyph),
                            None => game.unread.push(format!(
                                "the annotation glyph {glyph} before any move of its line (line {line})"
                            )),
                        }
                    });
                    let at = start + (token.len() - mv.len() - marks.len());
                    if mv.is_empty() || continuation_dots(mv) {
                        continue;
                    }
                    let mut node = Node::text(mv);
                    node.set_source_line(Some(line));
                    node.set_source_offset(Some(at));
                    // (Only when a comment waits: most moves have none.)
                    if pending.is_some() {
                        node.set_before(pending.take());
                    }
                    if !marks.is_empty() {
                        node.add_glyph(marks);
                    }
                    if let Some(current) = stack.last_mut() {
                        current.push(node);
                    }
                }
            }
        }
        if let Some(&(pos, line)) = opened.last() {
            self.pass_rest(opened.len());
            let message = if opened.len() == 1 {
                "this variation's ( is never closed with ): add the ) after its last move"
                    .to_owned()
            } else {
                format!(
                    "{} variations opened with ( are never closed; the innermost opens here",
                    opened.len()
                )
            };
            return Err(ReadError::new(ReadErrorKind::Syntax, message)
                .at(pos)
                .on_line(line)
                .in_game(self.game));
        }
        let mut main = stack.pop().unwrap_or_default();
        settle_pending(&mut main, &mut pending);
        MAIN_LINE_ROOM.set((main.len() + main.len() / 2).clamp(MAIN_LINE_LEAST, MAIN_LINE_MOST));
        // The room left over given back (games read into memory hold nothing unused; in place
        // where the allocator can shrink the block, as mimalloc does when at least half of it
        // is used, as the guess above mostly makes it).
        main.shrink_to_fit();
        game.moves = main;
        if let Some(comment) = pending {
            append_comment(&mut game.comment, comment);
        }
        Ok(())
    }

    /// Reads on, on the main line with no comment waiting, the moves and move numbers that the
    /// loop of [`PgnReader::read_movetext`] would read as plain ones ([`plain_token`]): each
    /// after ASCII spaces, and followed by one within the game's window. It stops before the
    /// first token that is anything else (a comment, a variation, a result, a move number 1,
    /// which may start another game, words that may be a result, a move with marks, a token
    /// the window may cut), leaving it to that loop, as it leaves the spaces before it. The
    /// lines passed and the moves kept are what that loop's would be (a test compares the two
    /// on every cut of many texts); it only does without the loop's dispatch for each token,
    /// which cost more than the reading itself. (What it looks at needs no noting: the loop
    /// looks on from where it stops, past every byte it read.)
    #[inline(never)]
    fn read_plain_run(&mut self, main: &mut Vec<Node>, numbered: &mut bool) {
        let bytes = &self.text.as_bytes()[..self.end];
        let (mut pos, mut line) = (self.pos, self.line);
        loop {
            let mut start = pos;
            let mut lines = 0;
            while let Some(&b) = bytes.get(start).filter(|b| b.is_ascii_whitespace()) {
                lines += u32::from(b == b'\n');
                start += 1;
            }
            let Some((len, kind)) = bytes.get(start..).and_then(plain_token) else {
                break;
            };
            let end = start + len;
            match kind {
                Plain::Number => *numbered = true,
                Plain::Move => {
                    let Some(token) = self.text.get(start..end) else {
                        break;
                    };
                    if may_be_outcome_word(token) {
                        break;
                    }
                    let mut node = Node::text(token);
                    node.set_source_line(Some(line + lines));
                    node.set_source_offset(Some(start));
                    main.push(node);
                }
            }
            line += lines;
            pos = end;
        }
        (self.pos, self.line) = (pos, line);
    }

    /// Reads the comments that follow a game's result on its line (`1-0 {time forfeit}`): the
    /// game's last words, attached as a comment after its last move is. What else follows is
    /// left to the passing over of lines after a result.
    fn read_closing_comments(
        &mut self,
        game: &mut Game,
        stack: &mut [Vec<Node>],
        pending: &mut Option<String>,
    ) {
        loop {
            // Spaces within the line.
            self.pos += line_spaces_len(&self.text.as_bytes()[self.pos.min(self.end)..self.end]);
            match self.peek_byte() {
                Some(b'{') => {
                    let from = self.pos + 1;
                    let limit = from.saturating_add(MAX_COMMENT).min(self.end);
                    let (i, unclosed) = match self.comment_end(from, limit) {
                        CommentEnd::Closed(i) => (i, None),
                        // Not closed before the next game's tags, or before the end of the
                        // file (where the text ends first, it is read again with what follows,
                        // which may close it): which of the lines after it are its words, and
                        // which moves or games, cannot be told. They are kept as its text,
                        // and said; nothing is passed over unsaid.
                        CommentEnd::TagLine(i) => (i, Some("before the next game's tags")),
                        CommentEnd::Open if limit == self.text.len() => {
                            (limit - from, Some("before the end of the file"))
                        }
                        CommentEnd::Open => {
                            // Not within the longest a comment may be: passed over, as words
                            // after a result are, to the next tag line.
                            self.look(limit.saturating_sub(1));
                            game.unread.push(format!(
                                "a comment opened with {{ after the result (line {}) and not closed within {} MiB, the longest a comment may be: what follows it, up to the next tag line, is passed over",
                                self.line,
                                MAX_COMMENT >> 20
                            ));
                            return;
                        }
                    };
                    self.look(from + i);
                    let body = self.text[from..from + i].trim().to_owned();
                    let Some(before) = unclosed else {
                        self.advance(i + 2);
                        attach_comment(game, stack, pending, body);
                        continue;
                    };
                    if !body.is_empty() {
                        game.unread.push(format!(
                            "a comment opened with {{ after the result (line {}) is not closed {before}: what follows it ({} line(s) of text), which may hold moves or games, is kept as the game's last comment (close it with }} where its words end)",
                            self.line,
                            body.lines().count()
                        ));
                    }
                    self.advance(i + 1);
                    attach_comment(game, stack, pending, body);
                    return;
                }
                Some(c @ (b';' | b'%')) if c == b';' || self.at_line_start() => {
                    let body = self.read_line_comment();
                    attach_comment(game, stack, pending, body);
                }
                Some(b'\r' | b'\n') => {
                    // Lines of comments alone after the result, before any word, move or tag,
                    // are the game's too (`1-0` then `{Black resigned}` on a line of its own),
                    // not passed over with the words after a result. (A comment before moves on
                    // its line opens the game of those moves.)
                    if !self.comment_line_follows() {
                        return;
                    }
                    self.skip_space();
                }
                _ => return,
            }
        }
    }

    /// Whether, after the line end at the reading place and any blank lines, a line holds
    /// comments (`{…}`, `;…`) and nothing else (a `{` left open counts: its reading says what
    /// it takes). Spaces are looked over for [`MOVE_LINE_SCAN`] bytes at most (and within the
    /// game's window): what the whole text and its pieces see alike.
    #[inline(never)]
    fn comment_line_follows(&mut self) -> bool {
        let bound = self.pos.saturating_add(MOVE_LINE_SCAN).min(self.end);
        let bytes = &self.text.as_bytes()[..self.end];
        // Spaces, line ends, and the full-width space a line may be indented with.
        let mut at = self.pos;
        while at < bound {
            match bytes[at] {
                b'\n' => at += 1,
                _ => match line_space_len(&bytes[at..]) {
                    0 => break,
                    space => at += space,
                },
            }
        }
        if at < bound && !bytes[at].is_ascii() {
            // (A character that is no space was looked at in its first three bytes.)
            self.look((at + 2).min(bytes.len()));
        }
        if at >= bound {
            // Spaces to the text's end: what follows it may be a comment, unless known.
            let known = self
                .follows
                .is_some_and(|b| !b.is_ascii_whitespace() && !matches!(b, b'{' | b';' | b'%'));
            if bound == self.text.len() && !known {
                self.look(bound);
            }
            return false;
        }
        loop {
            at += line_spaces_len(bytes.get(at..).unwrap_or_default());
            let Some(&b) = bytes.get(at) else {
                self.look(at);
                return true;
            };
            self.look(at);
            match b {
                b'\r' | b'\n' | b';' => return true,
                // An escape line, first on its line.
                b'%' if at > 0 && bytes[at - 1] == b'\n' => return true,
                b'{' => {
                    let limit = (at + 1).saturating_add(MAX_COMMENT).min(self.end);
                    match self.comment_end(at + 1, limit) {
                        CommentEnd::Closed(i) => {
                            self.look(at + 1 + i);
                            at += i + 2;
                        }
                        CommentEnd::TagLine(_) | CommentEnd::Open => return true,
                    }
                }
                _ => return false,
            }
        }
    }

    /// Where a `{` comment whose text starts at `from` ends, looked for up to `limit`: at its `}`,
    /// or (not closed) at the line end before a tag line (`[Name "value"]`, the whole line: a
    /// comment's own `[see game 12]` or `[Event "x"] was later` lines are its text), or neither.
    /// What is looked at is the caller's to note.
    fn comment_end(&self, from: usize, limit: usize) -> CommentEnd {
        let bytes = &self.text.as_bytes()[from.min(limit)..limit];
        let mut at = 0;
        while let Some(i) = memchr::memchr2(b'}', b'\n', &bytes[at..]) {
            let p = at + i;
            if bytes[p] == b'}' {
                return CommentEnd::Closed(p);
            }
            let next = &bytes[p + 1..];
            if let Some(len) = memchr::memchr(b'\n', next)
                && is_tag_line(&next[..len])
            {
                return CommentEnd::TagLine(p);
            }
            at = p + 1;
        }
        CommentEnd::Open
    }

    /// Passes over the lines after a game's result (the rest of the result's line first) that
    /// do not start with a move, up to a tag line or a line whose first word (after comments and
    /// a move number) is a move: a game written on without tags (or moves written on after a
    /// result) is read, not skipped, and words after a result (xqbase's advert trailer, a
    /// signature) are passed over, comments between them too. The game starts at that line. A
    /// tag line ends a `{` comment left open, as it ends any skipping. Whether that
    /// place was found (`self.skip` says what is left when the text ended first; a line the text
    /// may not hold whole is left unread). A line is looked at in its first [`MOVE_LINE_SCAN`]
    /// bytes: a longer one without a move first is words, passed over to the next tag line.
    fn pass_after_result(&mut self, mut in_comment: bool, complete: bool) -> bool {
        loop {
            let rest = &self.text[self.pos..];
            let head = &rest.as_bytes()[..rest.len().min(MOVE_LINE_SCAN + 1)];
            let line = match memchr::memchr(b'\n', head) {
                Some(i) => &rest[..=i],
                None if complete || rest.len() > MOVE_LINE_SCAN => rest,
                None => {
                    self.skip = Skip::AfterResult { in_comment };
                    return false;
                }
            };
            if line.is_empty() {
                self.skip = Skip::AfterResult { in_comment };
                return false;
            }
            let tags = self.at_line_start() && line.trim_start().starts_with('[');
            let mut scan = MOVE_LINE_SCAN.min(line.len());
            while !line.is_char_boundary(scan) {
                scan -= 1;
            }
            let open_at_start = in_comment;
            let first = if tags {
                None
            } else {
                first_word(&line[..scan], &mut in_comment)
            };
            let starts = tags
                || first.is_some_and(|word| {
                    // (A word of digits and dots only, `12.5 hours`, is words here, though in
                    // moves it may be WXF's pawn named by file and place.)
                    strip_move_number(word).is_some_and(|w| {
                        !w.bytes().all(|b| b.is_ascii_digit() || b == b'.')
                            && xq_notation::parse(w).is_ok()
                    })
                });
            if starts {
                self.skip = Skip::None;
                return true;
            }
            if first.is_some() {
                let words_at = self.pos + (line.len() - line.trim_start().len());
                match moves_on_line(&line[..scan], open_at_start) {
                    LineMoves::Game(at) => {
                        // The next game, written on after words heading it: read from its first
                        // move, the words said by it.
                        // (Never past the move: what stands before it is trimmed.)
                        let to = self.pos + line[..at].trim_end().len();
                        let words = &self.text[words_at.min(to)..to];
                        self.said_before.push(format!(
                            "the words before the game's first move on its line {}, not read: {words}",
                            self.line
                        ));
                        self.advance(at);
                        self.skip = Skip::None;
                        return true;
                    }
                    LineMoves::Named if self.said_before.len() > MAX_SAID => {}
                    LineMoves::Named if self.said_before.len() == MAX_SAID => {
                        self.said_before.push(format!(
                            "more lines after the result of the game before hold moves numbered from 1 among words (from line {}), not read as games: not said one by one",
                            self.line
                        ));
                    }
                    LineMoves::Named => {
                        let words = line.trim();
                        let shown: String = words.chars().take(SHOWN_WORDS).collect();
                        let more = if shown.len() < words.len() {
                            " …"
                        } else {
                            ""
                        };
                        self.said_before.push(format!(
                            "line {} after the result of the game before holds moves numbered from 1 among words, not read as a game: {shown}{more}",
                            self.line
                        ));
                    }
                    LineMoves::Words => {}
                }
            }
            if scan < line.len() {
                // A long line of words: passed over to the next tag line, as text after an error.
                self.skip = Skip::ToTags(Some(false));
                return true;
            }
            self.advance(line.len());
        }
    }

    /// Sets what to skip after an error in the moves, with `depth` variations open: the rest
    /// of the game (see [`Skip::ToResult`]).
    fn pass_rest(&mut self, depth: usize) {
        let depth = u32::try_from(depth).unwrap_or(u32::MAX);
        self.skip = Skip::ToResult(Passing::new(self.at_line_start(), depth, true));
    }

    /// Passes over the rest of a game whose moves could not be read (see [`Skip::ToResult`]):
    /// up to a line starting (after spaces) with `[`, or past the game's result, then on as after
    /// any result. Whether that place was found (`self.skip` says what is left when the text
    /// ended first; a token the text may not hold whole is left to be read again with the text
    /// that follows, unless it is already longer than any result).
    fn pass_to_result(&mut self, mut p: Passing, complete: bool) -> bool {
        loop {
            let rest = self.text.as_bytes().get(self.pos..).unwrap_or_default();
            let Some(&b) = rest.first() else {
                self.skip = Skip::ToResult(p);
                return false;
            };
            if b == b'\n' {
                self.advance(1);
                if p.within == Within::ResultInVariation {
                    self.skip = Skip::AfterResult { in_comment: false };
                    return true;
                }
                if p.blank && p.plain && p.depth == 0 && p.within != Within::Braces {
                    p.blank_line = true;
                }
                p.blank = true;
                p.plain = true;
                if p.within != Within::Braces {
                    p.within = Within::Moves;
                }
                continue;
            }
            if p.blank && b == b'[' {
                self.skip = Skip::None;
                return true;
            }
            let space = line_space_len(rest);
            if space > 0 {
                p.plain &= b.is_ascii();
                self.advance(space);
                continue;
            }
            let line_start = std::mem::replace(&mut p.blank, false);
            match p.within {
                // A word after it on its line: the result is the variation's.
                Within::ResultInVariation => p.within = Within::Moves,
                Within::Braces => match memchr::memchr2(b'}', b'\n', rest) {
                    Some(i) if rest[i] == b'}' => {
                        self.advance(i + 1);
                        p.within = Within::Moves;
                    }
                    Some(i) => self.advance(i),
                    None => self.advance(rest.len()),
                },
                Within::LineComment => {
                    self.advance(memchr::memchr(b'\n', rest).unwrap_or(rest.len()));
                }
                Within::LongToken => {
                    let len = token_len(rest);
                    self.advance(len);
                    if len < rest.len() {
                        p.within = Within::Moves;
                    }
                }
                Within::Moves => match b {
                    b'{' => {
                        self.advance(1);
                        p.within = Within::Braces;
                    }
                    b';' => {
                        self.advance(1);
                        p.within = Within::LineComment;
                    }
                    b'(' => {
                        self.advance(1);
                        p.depth = p.depth.saturating_add(1);
                    }
                    b')' => {
                        self.advance(1);
                        p.depth = p.depth.saturating_sub(1);
                    }
                    _ if ends_token(b) => self.advance(1),
                    _ => {
                        let len = token_len(rest).max(utf8_len(b)).min(rest.len());
                        // A result in words (`红胜`) is one when its line ends after it, as in
                        // the moves: whether it does may lie after the text's end, too.
                        let in_words = may_be_outcome_word(&rest[..len]);
                        // (So is a number 1 starting the next game, told by what follows it.)
                        let may_start_game = line_start
                            && p.blank_line
                            && p.moved
                            && p.depth == 0
                            && rest.starts_with(b"1");
                        let longest = match (in_words, may_start_game) {
                            (_, true) => LONGEST_GLUED_MOVE_ONE,
                            (true, false) => LONGEST_OUTCOME_WORD,
                            (false, false) => LONGEST_RESULT,
                        };
                        let line_end = len + line_spaces_len(&rest[len..]);
                        if (len == rest.len()
                            || ((in_words || may_start_game) && line_end == rest.len()))
                            && !complete
                        {
                            if len <= longest {
                                self.skip = Skip::ToResult(p);
                                return false;
                            }
                            self.advance(len);
                            p.within = Within::LongToken;
                            continue;
                        }
                        let token = self.text.get(self.pos..self.pos + len);
                        // Moves numbered from 1 again, starting a line after a blank one: the
                        // next game's (see `numbered_anew`).
                        if may_start_game
                            && token.is_some_and(|t| numbers_red_move_one(t, &rest[len..]))
                        {
                            self.skip = Skip::None;
                            return true;
                        }
                        p.moved = true;
                        p.blank_line = false;
                        let is_result = token.and_then(result_token).is_some()
                            || (in_words
                                && token.and_then(outcome_word).is_some()
                                && matches!(rest.get(line_end), None | Some(b'\n' | b'\r' | b';')));
                        self.advance(len);
                        if is_result {
                            if p.depth == 0 {
                                self.skip = Skip::AfterResult { in_comment: false };
                                return true;
                            }
                            p.within = Within::ResultInVariation;
                        }
                    }
                },
            }
        }
    }

    /// A run of characters up to whitespace or a delimiter.
    fn read_token(&mut self) -> &'a str {
        let start = self.pos;
        let bytes = &self.text.as_bytes()[..self.end];
        let pos = start + token_len(bytes.get(start..).unwrap_or_default());
        // As in `skip_space`: what was looked at is noted once, at the end: up to where the
        // token stops, and the two bytes after a character there told to be a space.
        let wide_stop = bytes.get(pos).is_some_and(|&b| b >= 0x80);
        self.look(if wide_stop { pos + 2 } else { pos });
        self.pos = pos;
        &self.text[start..self.pos.min(self.end)]
    }

    /// `token`, just read, as a result in words ending its line ([`outcome_word`]), if it is one.
    #[inline(never)]
    fn outcome_ending_line(&mut self, token: &'a str) -> Option<&'a str> {
        outcome_word(token).filter(|_| self.ends_line_here())
    }

    /// Whether only spaces stand between the reading place and its line's end (or a `;`
    /// comment, or the text's end). What is looked at is noted.
    fn ends_line_here(&mut self) -> bool {
        let bytes = &self.text.as_bytes()[..self.end];
        let at = self.pos + line_spaces_len(bytes.get(self.pos..).unwrap_or_default());
        self.look((at + 2).min(bytes.len()));
        matches!(bytes.get(at), None | Some(b'\n' | b'\r' | b';'))
    }

    /// Reads a `;` comment (the reading place at its `;`) to its line's end: its text, trimmed.
    /// Whether `token`, a move number 1 at `start`, numbers a game anew: it is Red's (no
    /// continuation dots, `1...`, `1. ...`), moves were read before it (`last`, the line's last
    /// move), it starts its line, and a blank line stands before it outside comments and
    /// variations.
    #[inline(never)]
    fn numbered_anew(&self, last: Option<&Node>, start: usize, token: &str) -> bool {
        let following = self.text[start + token.len()..].trim_start_matches([' ', '\t']);
        if blacks_move_one(token, following.as_bytes()) {
            return false;
        }
        let Some(end) = last
            .and_then(|n| Some(n.source_offset()? + n.text.as_ref()?.len()))
            .filter(|&end| end <= start)
        else {
            return false;
        };
        let gap = &self.text[end..start];
        gap.rsplit('\n').next().is_some_and(|l| l.trim().is_empty())
            && blank_line_outside(gap.as_bytes())
    }

    /// The comments at the reading place (`{…}`, `;…`, one after another), if a tag line
    /// follows them after spaces and line ends: their texts, and where the last ends.
    #[inline(never)]
    fn comments_before_tag(&mut self) -> Option<(Vec<String>, usize)> {
        let rest = self.rest();
        if !matches!(rest.as_bytes().first(), Some(b'{' | b';')) && !self.at_escape_line() {
            return None;
        }
        let mut bodies = Vec::new();
        let (mut len, mut ended) = (0, 0);
        loop {
            let here = &rest[len..];
            let (body, comment) = match here.as_bytes().first() {
                Some(b'{') => {
                    let from = self.pos + len + 1;
                    let limit = from.saturating_add(MAX_COMMENT).min(self.end);
                    let CommentEnd::Closed(i) = self.comment_end(from, limit) else {
                        return None;
                    };
                    self.look(from + i);
                    (&here[1..=i], i + 2)
                }
                // (And an escape line, a `%` first on its line.)
                Some(&c @ (b';' | b'%')) if c == b';' || self.line_starts_at(self.pos + len) => {
                    let end = memchr::memchr(b'\n', here.as_bytes()).unwrap_or(here.len());
                    (&here[1..end], end)
                }
                _ => break,
            };
            bodies.push(body.trim().to_owned());
            ended = len + comment;
            let after = &here[comment..];
            len = ended + (after.len() - after.trim_start().len());
        }
        let next = &rest[len..];
        let line_end = memchr::memchr(b'\n', next.as_bytes());
        self.look(self.pos + len + line_end.unwrap_or(next.len()));
        let starts_line = rest[ended..len].contains('\n');
        let tag_line = next.starts_with('[')
            && is_tag_line_going_on(&next.as_bytes()[..line_end.unwrap_or(next.len())]);
        (starts_line && tag_line).then_some((bodies, ended))
    }

    fn read_line_comment(&mut self) -> String {
        let rest = self.rest();
        let end = self.find_in_rest('\n').unwrap_or(rest.len());
        let body = rest[1..end].trim().to_owned();
        self.advance(end);
        body
    }
}

/// Whether `bytes` hold no U+FFFD.
fn replacement_free(bytes: &[u8]) -> bool {
    crate::encoding::replacements().find(bytes).is_none()
}

thread_local! {
    /// How many moves the next game's main line starts with room for, on each thread.
    static MAIN_LINE_ROOM: std::cell::Cell<usize> = const { std::cell::Cell::new(MAIN_LINE_LEAST) };
}

/// The least and the most room a main line starts with ([`MAIN_LINE_ROOM`]).
const MAIN_LINE_LEAST: usize = 64;
const MAIN_LINE_MOST: usize = 1024;

/// The value of a tag from `body`, what follows its opening quote: up to the closing quote,
/// backslash escapes undone, trimmed; and where the value ends (past its closing quote), if it
/// closes. The closing quote is the last before the tag's `]` ([`closing_quote`]): a quote
/// written inside a value without its backslash (`[Event "The "Cup" final"]`, as some exporters
/// write them) is the value's.
fn tag_value(body: &str) -> (String, Option<usize>) {
    let close = closing_quote(body.as_bytes());
    let inside = &body[..close.unwrap_or(body.len())];
    // Most values hold no backslash: cut at the quote, with one copy.
    let value = if inside.contains('\\') {
        let mut value = String::with_capacity(inside.len());
        let mut chars = inside.chars().peekable();
        while let Some(c) = chars.next() {
            // A backslash escapes a quote or a backslash; before anything else it is one
            // (`D:\棋谱\game.pgn`, written by a tool that escapes nothing).
            match (c, chars.peek()) {
                ('\\', Some(&next @ ('"' | '\\'))) => {
                    chars.next();
                    value.push(next);
                }
                _ => value.push(c),
            }
        }
        value.trim().to_owned()
    } else {
        inside.trim().to_owned()
    };
    (value, close.map(|q| q + 1))
}

/// Where the quote closing a tag value stands in `body`, what follows its opening quote: the
/// first quote not escaped by a backslash that the `]` follows (spaces between, full-width ones
/// too) or the line's end, unless a `]` stands between it and the first quote; else the first
/// quote (`[Red "Hu" GM]`
/// is `Hu`, the words after said; so is `[Red "Hu" GM] [Black "Xu"]`: a quoted value never
/// reaches past a `]`).
fn closing_quote(body: &[u8]) -> Option<usize> {
    let mut first = None;
    let mut at = 0;
    while let Some(i) = memchr::memchr3(b'"', b'\\', b']', &body[at..]) {
        let q = at + i;
        match body[q] {
            b'\\' => {
                // A backslash before the quote that ends the line's tag (`[Source "D:\棋谱\"]`,
                // alone or before the next tag), from a tool that escapes nothing, is the
                // value's. (A writer that escapes writes `\\"]` there; its `\"]` inside a
                // value has more of the value after it.)
                if body.get(q + 1) == Some(&b'"') && ends_tag_line(body, q + 2) {
                    return Some(q + 1);
                }
                at = q + 2;
                if at >= body.len() {
                    break;
                }
                continue;
            }
            // (A `]` before any quote is the value's: `[Event "Cup [2] final"]`.)
            b']' if first.is_some() => break,
            b']' => {
                at = q + 1;
                continue;
            }
            _ => {}
        }
        if closes_tag(body, q + 1) {
            return Some(q);
        }
        first.get_or_insert(q);
        at = q + 1;
    }
    first
}

/// Whether what follows byte `at` of a tag's `body` closes it: spaces, then its `]` or the
/// line's end.
fn closes_tag(body: &[u8], at: usize) -> bool {
    let after = after_line_spaces(body.get(at..).unwrap_or_default());
    matches!(after.first(), None | Some(b']' | b'\r' | b'\n'))
}

/// Whether what follows byte `at` of a tag's `body` is its `]` and nothing else on the line but
/// spaces and other tags.
fn ends_tag_line(body: &[u8], at: usize) -> bool {
    let rest = body.get(at..).unwrap_or_default();
    let Some(mut after) = after_line_spaces(rest).strip_prefix(b"]") else {
        return false;
    };
    while let Some(next) = tag_line_rest(after) {
        after = next;
    }
    after_line_spaces(after).is_empty()
}

/// `bytes` after the spaces they start with within their line (full-width ones too).
fn after_line_spaces(bytes: &[u8]) -> &[u8] {
    &bytes[line_spaces_len(bytes)..]
}

/// The length of the UTF-8 character whose first byte is `lead`.
fn utf8_len(lead: u8) -> usize {
    match lead {
        0xF0.. => 4,
        0xE0.. => 3,
        0xC0.. => 2,
        _ => 1,
    }
}

/// Whether a non-ASCII whitespace character (see [`unicode_space_len`]) can start with `lead`:
/// Chinese characters (leads E4–E9) cannot.
#[inline]
fn may_start_space(lead: u8) -> bool {
    // One bit per lead byte (a lookup: this runs for every character of every move).
    const LEADS: [u64; 4] = {
        let mut bits = [0; 4];
        let mut b = 0;
        while b < 256 {
            if matches!(b, 0xC2 | 0xE1..=0xE3 | 0xEF) {
                bits[b / 64] |= 1 << (b % 64);
            }
            b += 1;
        }
        bits
    };
    LEADS[usize::from(lead / 64)] >> (lead % 64) & 1 == 1
}

/// The length of the non-ASCII whitespace character (Unicode White_Space, and the byte-order
/// mark) that `bytes` start with, or 0.
#[inline]
fn unicode_space_len(bytes: &[u8]) -> usize {
    match bytes {
        [0xC2, 0x85 | 0xA0, ..] => 2,
        [0xE1, 0x9A, 0x80, ..]
        | [0xE2, 0x80, 0x80..=0x8A | 0xA8 | 0xA9 | 0xAF, ..]
        | [0xE2, 0x81, 0x9F, ..] => 3,
        [0xE3, 0x80, 0x80, ..] | [0xEF, 0xBB, 0xBF, ..] => 3,
        _ => 0,
    }
}

/// A comment goes after the last move of the current line; before the first move of the game it
/// is the game's. Before any move of a variation, or after a variation (`1. h2e2 (1. b2e2) {…}
/// 1... h9g7`), it stands before the line's next move: it waits for it in `pending` (see
/// [`settle_pending`] for a line that ends first).
fn attach_comment(
    game: &mut Game,
    stack: &mut [Vec<Node>],
    pending: &mut Option<String>,
    body: String,
) {
    if body.is_empty() {
        return;
    }
    let depth = stack.len();
    match stack.last_mut().and_then(|l| l.last_mut()) {
        Some(node) if node.variations().is_empty() => node.append_comment(body),
        None if depth == 1 => append_comment(&mut game.comment, body),
        Some(_) | None => append_comment(pending, body),
    }
}

/// A comment waiting for a move that does not come (the line ends, or another variation opens
/// after it): it stays after the line's last move, if the line has one.
fn settle_pending(line: &mut [Node], pending: &mut Option<String>) {
    if let Some(last) = line.last_mut()
        && let Some(comment) = pending.take()
    {
        last.append_comment(comment);
    }
}

/// Where a `{` comment ends (see [`PgnReader::comment_end`]): the length of its text to the `}`
/// or to the line end before a tag line.
enum CommentEnd {
    Closed(usize),
    TagLine(usize),
    Open,
}

/// Whether `line` (without its line end) is a tag line as a game's tag section has it:
/// `[Name "value"]` after spaces, nothing but spaces after the `]`: what ends a `{` comment (one
/// never closed; a comment's `[see game 12]`, `[Event "x"] was later` or `[Event "Cup"] 1-0`
/// lines are its text).
pub(crate) fn is_tag_line(line: &[u8]) -> bool {
    tag_line_rest(line).is_some_and(|rest| rest.trim_ascii().is_empty())
}

/// Whether `line` is a tag line or one a record goes on after ([`goes_on_after_tag`]: another
/// tag, a comment, the moves): what follows comments between a game's tags when its tags go on.
fn is_tag_line_going_on(line: &[u8]) -> bool {
    tag_line_rest(line).is_some_and(|rest| std::str::from_utf8(rest).is_ok_and(goes_on_after_tag))
}

/// What follows the `"]` of a line that starts (after spaces) `[Name "`, if it does.
fn tag_line_rest(line: &[u8]) -> Option<&[u8]> {
    let rest = after_line_spaces(line).strip_prefix(b"[")?;
    let name = rest
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
        .count();
    let after = &rest[name..];
    let spaces = after
        .iter()
        .take_while(|b| **b == b' ' || **b == b'\t')
        .count();
    if name == 0 || spaces == 0 {
        return None;
    }
    let value = after[spaces..].strip_prefix(b"\"")?;
    // (The first `"]`: `[Event "Cup"] and [Site "B"]` in a comment is no tag line alone.)
    let close = memchr::memmem::find(value, b"\"]")?;
    Some(&value[close + 2..])
}

/// The length of the spaces `bytes` start with within a line, one after another
/// ([`line_space_len`]).
fn line_spaces_len(bytes: &[u8]) -> usize {
    let mut at = 0;
    while let space @ 1.. = line_space_len(&bytes[at..]) {
        at += space;
    }
    at
}

/// The length of the space `bytes` start with within a line (ASCII white space but LF, or a
/// Unicode space), 0 if they start with none.
fn line_space_len(bytes: &[u8]) -> usize {
    match bytes.first() {
        Some(b'\n') | None => 0,
        Some(&b) if b < 0x80 => usize::from(b.is_ascii_whitespace()),
        Some(&b) if may_start_space(b) => unicode_space_len(bytes),
        Some(_) => 0,
    }
}

/// What each byte is to a plain tag ([`PgnReader::plain_tag`]), by a look-up (the test of
/// each byte of every tag line): [`NAME`], [`ENDS_VALUE`].
const TAG_BYTES: [u8; 256] = {
    let mut class = [0; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        if c.is_ascii_alphanumeric() || c == b'_' {
            class[b] |= NAME;
        }
        if matches!(c, b'"' | b'\\' | b']' | b'[' | b'\n' | b'\r') {
            class[b] |= ENDS_VALUE;
        }
        b += 1;
    }
    class
};
/// A byte of a plain tag's name: an ASCII letter or digit, or `_`.
const NAME: u8 = 1;
/// A byte that ends a plain tag's value, or makes it no plain one: a quote, a backslash, a
/// bracket, a line end.
const ENDS_VALUE: u8 = 2;

/// The longest result token, in bytes (`1/2-1/2`).
const LONGEST_RESULT: usize = 7;

/// The room a game's tags are given at its first: as many as most records have (a CCPD file 11,
/// a database export 7 to 20), one allocation where growing one at a time took three.
const TAGS_ROOM: usize = 16;

/// Longer than a move number 1 glued to a move (`1.马八进七`, `1.C2.5`), in bytes: what is
/// skipped waits for the text after a word up to this long that may start the next game.
const LONGEST_GLUED_MOVE_ONE: usize = 64;

/// Longer than any plain result in words, in bytes (`红方获胜` is 12): what is skipped waits for
/// the text after a word up to this long that may be one.
const LONGEST_OUTCOME_WORD: usize = 24;

/// The length of the token `bytes` start with: up to whitespace or a delimiter, as
/// [`PgnReader::read_token`] reads one.
#[inline(always)]
fn token_len(bytes: &[u8]) -> usize {
    // How far each byte moves the reading on within a token, by a look-up (this runs for every
    // byte of every move): 0 where the token ends (an ASCII space or delimiter), 1 for the
    // rest of ASCII, 3 for a Chinese character (U+4E00–U+9FFF: the moves' words; no space is
    // one), [`LOOK`] for the other lead bytes, where the bytes after it tell: EF then BC–BF is
    // a full-width form (U+FF00–U+FFFF, the digits of moves; the only space led by EF is
    // U+FEFF, EF BB BF), stepped over at once; the rest are looked at for a space.
    const LOOK: u8 = u8::MAX;
    const STEP: [u8; 256] = {
        let mut step = [0; 256];
        let mut b = 0;
        while b < 256 {
            step[b] = match b as u8 {
                c if c < 0x80 && ends_token(c) => 0,
                0x00..=0x7F => 1,
                0xE4..=0xE9 => 3,
                _ => LOOK,
            };
            b += 1;
        }
        step
    };
    let mut pos = 0;
    while let Some(&b) = bytes.get(pos) {
        match STEP[usize::from(b)] {
            0 => break,
            LOOK => {
                if b == 0xEF && bytes.get(pos + 1).is_some_and(|&next| next >= 0xBC) {
                    pos += 3;
                    continue;
                }
                if may_start_space(b) && unicode_space_len(&bytes[pos..]) > 0 {
                    break;
                }
                pos += utf8_len(b);
            }
            step => pos += usize::from(step),
        }
    }
    pos.min(bytes.len())
}

#[inline(always)]
fn result_token(token: &str) -> Option<&'static str> {
    // (Told by the first byte first, without a call: most tokens are moves.)
    if !matches!(token.as_bytes().first(), Some(b'0' | b'1' | b'*' | 0xC2)) {
        return None;
    }
    pgn_result(token)
}

/// The PGN result a token spells, if any ([`result_token`], for a token that may be one).
fn pgn_result(token: &str) -> Option<&'static str> {
    Some(match token {
        "1-0" => "1-0",
        "0-1" => "0-1",
        "1/2-1/2" | "½-½" => "1/2-1/2",
        "*" => "*",
        _ => return None,
    })
}

/// A result in words that ends a game's moves, as Chinese records write one: a plain spelling
/// of an outcome ([`is_plain_result`](crate::game::is_plain_result): `红胜`, `黑负`, `红先和`,
/// `和棋`), read as its PGN token. Words saying more (`黑方超时判负`, `红方必胜`, `和势`) are
/// none: a verdict cannot be told from a judgement of the position by its words, and read as a
/// move such a word is said by replaying, not taken for the game's end. No move starts as a
/// result in words does ([`may_be_outcome_word`]).
fn outcome_word(token: &str) -> Option<&'static str> {
    if !may_be_outcome_word(token) || !crate::game::is_plain_result(token) {
        return None;
    }
    match Outcome::parse(token)? {
        Outcome::Unknown => None,
        outcome => Some(outcome.pgn()),
    }
}

/// Whether `token` starts as a result in words may ([`outcome_word`]): with 红, 紅, 黑, 和, 不,
/// 双 or 雙 (told by their UTF-8 bytes: this runs for every move).
#[inline(always)]
fn may_be_outcome_word(token: &(impl AsRef<[u8]> + ?Sized)) -> bool {
    matches!(
        token.as_ref(),
        [0xE7, 0xBA, 0xA2, ..]
            | [0xE7, 0xB4, 0x85, ..]
            | [0xE9, 0xBB, 0x91, ..]
            | [0xE5, 0x92, 0x8C, ..]
            | [0xE4, 0xB8, 0x8D, ..]
            | [0xE5, 0x8F, 0x8C, ..]
            | [0xE9, 0x9B, 0x99, ..]
    )
}

/// If `line`, the words read as moves before a game's first move number (1), is a heading
/// (`第一局`, `【決賽】`): none of its words can be a move, and none has a comment or
/// variation. Then what the game says of them: they are not its moves.
fn heading_words(line: &[Node]) -> Option<String> {
    let first = line.first()?;
    let words = line
        .iter()
        .map(|node| {
            let plain =
                node.comment().is_none() && node.variations().is_empty() && node.before().is_none();
            node.text.as_deref().filter(|text| plain && no_move(text))
        })
        .collect::<Option<Vec<&str>>>()?;
    Some(format!(
        "the words before the first move number (line {}), a heading, not moves: {}",
        first.source_line().unwrap_or(0),
        words.join(" ")
    ))
}

/// Whether `word` cannot be a move written in any notation, even one written wrong: no move
/// starts with its first character, and it is no move with that character taken away (a
/// character glued to a move's front). A word a move may start as (`炮二平五+`, `h2e2,`, `C2.5=`,
/// `Game`, `1号`) is taken for a move, to be said wrong by replaying, never dropped.
fn no_move(word: &str) -> bool {
    let Err(error) = xq_notation::parse(word) else {
        return false;
    };
    let rest = &word[word.chars().next().map_or(0, char::len_utf8)..];
    error.span.start == 0 && (rest.is_empty() || xq_notation::parse(rest).is_err())
}

/// Whether `line` starts with the opening of a DhtmlXQ record (`[DhtmlXQ]`) or of one of its
/// fields (`[DhtmlXQ_name]`: letters, digits and `_`, then `]`), not with a tag named so
/// (`[DhtmlXQ_ver "1"]`).
fn opens_dhtmlxq(line: &str) -> bool {
    line.strip_prefix("[DhtmlXQ").is_some_and(|rest| {
        rest.starts_with(']')
            || rest
                .strip_prefix('_')
                .and_then(dhtmlxq::field_name_at)
                .is_some()
    })
}

/// Whether `line` (without its line end) holds comments alone: `{…}` closed on it, one after
/// another, with spaces between and perhaps a `;` comment last.
fn comments_alone(line: &[u8]) -> bool {
    let mut rest = after_line_spaces(line);
    while let [b'{', inner @ ..] = rest {
        let Some(close) = memchr::memchr(b'}', inner) else {
            return false;
        };
        rest = after_line_spaces(&inner[close + 1..]);
    }
    matches!(rest, [] | [b';', ..])
}

/// The names of `game`'s tags, in lower case (as [`Game::tag`] compares them), with `fen` when
/// a FEN tag was read (the start position is no tag).
fn tag_names(game: &Game, fen_read: bool) -> std::collections::HashSet<String> {
    game.tags
        .iter()
        .map(|(n, _)| n.to_ascii_lowercase())
        .chain(fen_read.then(|| "fen".to_owned()))
        .collect()
}

/// Whether `token` starts with a move number 1 (`1.`, `1．`, `1、`), told by its bytes (this
/// runs for every move).
#[inline(always)]
fn starts_move_one(token: &str) -> bool {
    matches!(
        token.as_bytes(),
        [b'1', b'.', ..] | [b'1', 0xEF, 0xBC, 0x8E, ..] | [b'1', 0xE3, 0x80, 0x81, ..]
    )
}

/// Whether the move number 1 `token` starts with ([`starts_move_one`]) is Black's: continuation
/// dots follow its dot in the token (`1...`), or, the token being the number alone, start
/// `following`, the text after it from its first character that is no space (`1. ...`).
fn blacks_move_one(token: &str, following: &[u8]) -> bool {
    let rest = &token[1..];
    let after = &rest[rest.chars().next().map_or(0, char::len_utf8)..];
    let dots = |s: &[u8]| {
        s.starts_with(b".") || s.starts_with("…".as_bytes()) || s.starts_with("．".as_bytes())
    };
    dots(after.as_bytes()) || (after.is_empty() && dots(following))
}

/// Whether `token`, followed by `following`, is Red's move number 1 (`1.`, `1．`, `1、`, glued to
/// its move or not; not `1...` or `1. ...`, Black's).
fn numbers_red_move_one(token: &str, following: &[u8]) -> bool {
    starts_move_one(token) && !blacks_move_one(token, after_line_spaces(following))
}

/// Drops a leading move number (`12.`, `12...`, `12．`); `None` if the token is only a number.
#[inline(always)]
pub(crate) fn strip_move_number(token: &str) -> Option<&str> {
    // (A move, most tokens, told by its first byte, without a call.)
    if !token.as_bytes().first().is_some_and(u8::is_ascii_digit) {
        return Some(token);
    }
    strip_number(token)
}

/// [`strip_move_number`] for a token that starts with a digit.
fn strip_number(token: &str) -> Option<&str> {
    // Counted by bytes: an ASCII digit is one byte, and no byte of another character is one.
    let bytes = token.as_bytes();
    let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
    // ASCII dots first, by their bytes (as nearly every record writes them), then the others.
    let dots = bytes[digits..].iter().take_while(|&&b| b == b'.').count();
    match bytes.get(digits + dots) {
        // A move number alone (`12.`), as nearly every record writes one.
        None if dots > 0 => None,
        Some(&b) if dots > 0 && b < 0x80 && !b.is_ascii_digit() => Some(&token[digits + dots..]),
        _ => strip_number_otherwise(token, digits, dots),
    }
}

/// [`strip_number`] for the rest: digits without a dot, dots that are not ASCII, a number
/// followed by a digit.
#[cold]
fn strip_number_otherwise(token: &str, digits: usize, dots: usize) -> Option<&str> {
    let rest = &token[digits..];
    let mut stripped = &rest[dots..];
    if stripped.as_bytes().first().is_some_and(|&b| b >= 0x80) {
        stripped = stripped.trim_start_matches(['.', '．', '…', '、']);
    }
    if stripped.len() == rest.len() {
        // Digits not followed by a dot: a move such as 3+.4 (WXF) or a coordinate.
        return Some(token);
    }
    if stripped.is_empty() {
        None
    } else if stripped.starts_with(|c: char| c.is_ascii_digit())
        && xq_notation::parse(stripped).is_err()
        && xq_notation::parse(token).is_ok()
    {
        // A move that starts like a number: WXF names a pawn of two files with pawns by its
        // file and place (`44.3`, `33.4`), which no move number is followed by.
        Some(token)
    } else {
        Some(stripped)
    }
}

/// Whether `gap` (text between moves) holds a blank line outside its comments (`{…}`, `;…`)
/// and variations.
fn blank_line_outside(gap: &[u8]) -> bool {
    let (mut depth, mut brace, mut line_comment) = (0usize, false, false);
    // Whether the line so far is blank (outside comments and variations).
    let mut blank = false;
    for &b in gap {
        match b {
            b'\n' if !brace => {
                if blank && depth == 0 {
                    return true;
                }
                line_comment = false;
                blank = depth == 0;
            }
            _ if brace => brace = b != b'}',
            _ if line_comment => {}
            b'{' => {
                brace = true;
                blank = false;
            }
            b';' => {
                line_comment = true;
                blank = false;
            }
            b'(' => {
                depth += 1;
                blank = false;
            }
            b')' => {
                depth = depth.saturating_sub(1);
                blank = false;
            }
            _ if b.is_ascii_whitespace() => {}
            _ => blank = false,
        }
    }
    false
}

/// Whether `rest`, what follows a tag's `]` on its line, goes on as a record does: another tag,
/// a comment, a move number, a move or a result first. Words (`Saturday`, `(GM)`) do not.
fn goes_on_after_tag(rest: &str) -> bool {
    let rest = rest.trim_start();
    if rest.is_empty() || rest.starts_with(['[', '{', ';']) {
        return true;
    }
    let word = &rest[..token_len(rest.as_bytes())];
    // (A move with its marks, as the moves are read: `炮二平五!`.)
    let is_move =
        |word: &str| xq_notation::parse(word.trim_end_matches(crate::game::MARKS)).is_ok();
    result_token(word).is_some()
        || match strip_move_number(word) {
            // A move number alone (`1.`): a move, or the dots of Black's, follows it.
            None => {
                let next = rest[word.len()..].trim_start();
                let next_word = &next[..token_len(next.as_bytes())];
                is_move(next_word) || continuation_dots(next_word)
            }
            // (`14.00`, `1.Liga` are words.)
            Some(mv) => is_move(mv),
        }
}

/// Whether the ASCII byte `b` ends a movetext token: a space or a delimiter of comments,
/// variations and tags.
#[inline(always)]
const fn ends_token(b: u8) -> bool {
    b.is_ascii_whitespace() || matches!(b, b'{' | b'}' | b'(' | b')' | b';' | b'[' | b']')
}

/// What a plain token is ([`plain_token`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Plain {
    /// A move number other than 1 (`12.`, `12...`): no move.
    Number,
    /// A move: Chinese characters (full-width and ASCII digits among them), or ASCII letters,
    /// digits and `.+-=` after a letter (WXF, ICCS).
    Move,
}

/// The length and kind of the plain token `bytes` start with, if they start with one followed
/// by an ASCII space: one that [`PgnReader::read_movetext`]'s loop reads as a move number other
/// than 1, or as a move with nothing around it (no result, no glyph, no mark, no word that may be
/// a result: that is for the caller to tell of a move in Chinese, the one kind that may be one).
/// Anything else, and a token not followed by a space (the text may go on), is `None`.
#[inline(always)]
fn plain_token(bytes: &[u8]) -> Option<(usize, Plain)> {
    let first = *bytes.first()?;
    let (len, kind) = match first {
        // Digits then dots, not a move number 1 (`1.`, which may start another game).
        b'0'..=b'9' => {
            let mut at = 1;
            while bytes.get(at).is_some_and(u8::is_ascii_digit) {
                at += 1;
            }
            let digits = at;
            while bytes.get(at) == Some(&b'.') {
                at += 1;
            }
            if at == digits || bytes.starts_with(b"1.") {
                return None;
            }
            (at, Plain::Number)
        }
        b'A'..=b'Z' | b'a'..=b'z' => {
            let len = bytes
                .iter()
                .take_while(|&&b| {
                    b.is_ascii_alphanumeric() || matches!(b, b'.' | b'+' | b'-' | b'=')
                })
                .count();
            (len, Plain::Move)
        }
        // Chinese characters (leads E4–E9, three bytes each in valid UTF-8), full-width digits
        // (EF BC 90–99) and ASCII digits, a Chinese character first.
        0xE4..=0xE9 => {
            let mut at = 0;
            while let Some(&b) = bytes.get(at) {
                let step = CHINESE_MOVE_STEP[usize::from(b)];
                at += if step > 0 {
                    usize::from(step)
                } else if b == 0xEF
                    && bytes.get(at + 1) == Some(&0xBC)
                    && bytes.get(at + 2).is_some_and(|b| (0x90..=0x99).contains(b))
                {
                    3
                } else {
                    break;
                };
            }
            (at, Plain::Move)
        }
        _ => return None,
    };
    bytes
        .get(len)
        .is_some_and(u8::is_ascii_whitespace)
        .then_some((len, kind))
}

/// How far a byte of a Chinese move takes [`plain_token`] when it starts a character the move
/// may hold: 3 for a Chinese character (leads E4–E9), 1 for an ASCII digit; 0 for every other
/// byte (a full-width digit, lead EF, is told by its next bytes). A table: one load a character
/// where the ranges took a chain of tests.
const CHINESE_MOVE_STEP: [u8; 256] = {
    let mut steps = [0; 256];
    let mut b = 0;
    while b < 256 {
        steps[b] = match b as u8 {
            0xE4..=0xE9 => 3,
            b'0'..=b'9' => 1,
            _ => 0,
        };
        b += 1;
    }
    steps
};

/// Whether `token` is only the dots of a black continuation (`...`, `…`), no move.
fn continuation_dots(token: &str) -> bool {
    matches!(token.as_bytes().first(), Some(b'.' | 0xE2))
        && token.chars().all(|c| c == '.' || c == '…')
}

/// The first word of `line` outside comments (`{ … }`, `;` to the line's end; a move number and
/// dots alone are no word), if it has one; `in_comment` says whether a `{` comment is open at the
/// line's start, and is left saying whether one is open after the part looked at.
fn first_word<'t>(line: &'t str, in_comment: &mut bool) -> Option<&'t str> {
    let mut words = OutsideComments::new(line, *in_comment);
    let found = loop {
        let Some((_, word)) = words.next() else {
            break None;
        };
        // (A delimiter or a space the tokenizer stops at is no word, and ends the looking.)
        if token_len(word.as_bytes()) == 0 {
            break None;
        }
        // Move numbers and the dots of a continuation (`1.`, `1...`, `…`) are passed.
        if !strip_move_number(word).is_none_or(continuation_dots) {
            break Some(word);
        }
    };
    *in_comment = words.in_comment;
    found
}

/// The words of a line outside its comments (`{ … }`, `;` to the line's end), each with where
/// it starts in the line: as the movetext tokenizer cuts them, and a delimiter it stops at (`(`,
/// `]` …) a word of its own.
struct OutsideComments<'t> {
    line: &'t str,
    /// What is left to look at.
    rest: &'t str,
    /// Whether a `{` comment is open there.
    in_comment: bool,
}

impl<'t> OutsideComments<'t> {
    /// The words of `line`, at whose start a `{` comment is open if `in_comment`.
    fn new(line: &'t str, in_comment: bool) -> OutsideComments<'t> {
        OutsideComments {
            line,
            rest: line,
            in_comment,
        }
    }

    /// Whether nothing but spaces or a `;` comment is left on the line.
    fn at_end(&self) -> bool {
        let rest = self.rest.trim_start();
        rest.is_empty() || rest.starts_with(';')
    }
}

impl<'t> Iterator for OutsideComments<'t> {
    type Item = (usize, &'t str);

    fn next(&mut self) -> Option<(usize, &'t str)> {
        loop {
            if self.in_comment {
                let close = self.rest.find('}')?;
                self.rest = &self.rest[close + 1..];
                self.in_comment = false;
            }
            self.rest = self.rest.trim_start();
            match self.rest.as_bytes().first() {
                None | Some(b';') => return None,
                Some(b'{') => {
                    self.in_comment = true;
                    self.rest = &self.rest[1..];
                }
                _ => break,
            }
        }
        let end = match token_len(self.rest.as_bytes()) {
            0 => self.rest.chars().next().map_or(1, char::len_utf8),
            len => len,
        };
        let at = self.line.len() - self.rest.len();
        let (word, after) = self.rest.split_at(end);
        self.rest = after;
        Some((at, word))
    }
}

/// How many lines passed over after a result are said one by one before the next game.
const MAX_SAID: usize = 16;

/// How many characters of a line passed over are shown when it is said.
const SHOWN_WORDS: usize = 80;

/// What a line of words after a result holds in moves ([`moves_on_line`]).
#[derive(Debug, PartialEq, Eq)]
enum LineMoves {
    /// A game written on after words heading it, starting at this byte (its move 1).
    Game(usize),
    /// Moves numbered from 1 among words, not a game: said, not read.
    Named,
    /// Words.
    Words,
}

/// What `line`, words after a result (`in_comment` says whether a `{` comment is open at its
/// start), holds in moves: a game written on after words heading it (`第二局 1. 兵七进一 卒７进１
/// …`, `Game 2: 1.炮二平五 马８进７ 1-0 Game 3: …`) starts at a move numbered 1 (a game without
/// tags starts from the start position) that moves written on follow (outside comments, with
/// their numbers, annotations and variations' parentheses) up to a result (one move at least)
/// or up to the line's end (two at least). Moves numbered from 1 that are less, two or more then
/// words (`1.炮二平五 马８进７ is the most common opening`, a game's line ending `（完）` or
/// `红胜` with no result, a typo) or one ending the line, are said, not read (reading them as a
/// game would pass over what follows to the next result); one then words (`after 1. 炮二平五
/// Black should play 马８进７`) are words.
fn moves_on_line(line: &str, in_comment: bool) -> LineMoves {
    let is_move = |word: &str| {
        !word.bytes().all(|b| b.is_ascii_digit() || b == b'.')
            && xq_notation::parse(word.trim_end_matches(crate::game::MARKS)).is_ok()
    };
    let numbered_one =
        |word: &str| word.starts_with('1') && !word[1..].starts_with(|c: char| c.is_ascii_digit());
    // A move 1 where moves start, and how many moves follow it so far.
    let mut run: Option<(usize, u32)> = None;
    let mut named = false;
    let mut words = OutsideComments::new(line, in_comment);
    while let Some((mut at, word)) = words.next() {
        // Words glued to the move number (`第2局：1.炮二平五`, `【第二局】1.`): from the number.
        let word = match glued_move_one(word) {
            // (Not in a move: WXF's `R1.2` holds `1.`.)
            Some(k) if !is_move(word) => {
                at += k;
                &word[k..]
            }
            _ => word,
        };
        if result_token(word).is_some() || (outcome_word(word).is_some() && words.at_end()) {
            match run.take() {
                Some((start, moves)) if moves >= 1 => return LineMoves::Game(start),
                _ => continue,
            }
        }
        if word.starts_with('$') || matches!(word, "(" | ")") || continuation_dots(word) {
            continue;
        }
        let (moves, one) = match strip_move_number(word) {
            None => (0, numbered_one(word)),
            Some(mv) if mv.len() < word.len() && is_move(mv) => (1, numbered_one(word)),
            Some(mv) if mv.len() == word.len() && is_move(mv) => (1, false),
            Some(_) => {
                // A word: the moves before it end.
                if let Some((_, moves)) = run.take() {
                    named |= moves >= 2;
                }
                continue;
            }
        };
        match &mut run {
            Some((_, count)) => *count += moves,
            None if one => run = Some((at, moves)),
            None => {}
        }
    }
    match run {
        Some((start, moves)) if moves >= 2 => LineMoves::Game(start),
        Some((_, 1)) => LineMoves::Named,
        _ if named => LineMoves::Named,
        _ => LineMoves::Words,
    }
}

/// Where in `word` a move number 1 written after other characters (`第2局：1.炮二平五`, `Game
/// 2:1.`) starts, if one does: a `1` after a character that is no digit, then a dot.
fn glued_move_one(word: &str) -> Option<usize> {
    let bytes = word.as_bytes();
    (1..bytes.len()).find(|&i| {
        bytes[i] == b'1'
            && !bytes[i - 1].is_ascii_digit()
            && word[i + 1..].starts_with(['.', '．', '、'])
    })
}

/// The games of PGN `text` (decoded from the bytes of the file in `encoding` that `place` places
/// it in), errors, moves and start positions placed by their byte offset in the file; games
/// longer than `max_game` bytes are errors.
pub(crate) fn pgn_games(
    text: &str,
    encoding: Encoding,
    mut place: Place<'_>,
    max_game: usize,
) -> Vec<Result<Game, ReadError>> {
    let mut reader = PgnReader::resume(text, 1, 0, Skip::None, true, max_game);
    let mut games = Vec::new();
    while let Step::Game(item) = reader.step(true) {
        games.push(place.locate(item, text, encoding));
    }
    games
}

impl Iterator for PgnReader<'_> {
    type Item = Result<Game, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        match self.step(true) {
            Step::Game(item) => Some(item),
            Step::Done | Step::More { .. } => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each step of reading `text` (whole if `complete`, else as a piece that may go on), with
    /// the reader's place, line and what it looked at after it; runs of plain moves read by the
    /// quick loop or not.
    fn steps(text: &str, complete: bool, plain_runs: bool) -> Vec<String> {
        let mut reader = PgnReader::resume(text, 1, 0, Skip::None, true, MAX_GAME);
        reader.plain_runs = plain_runs;
        let mut out = Vec::new();
        loop {
            let step = reader.step(complete);
            let last = !matches!(step, Step::Game(_));
            out.push(format!(
                "{step:?} at {} line {} seen {}",
                reader.pos, reader.line, reader.seen
            ));
            if last {
                return out;
            }
        }
    }

    /// The quick reading of runs of plain moves reads what the general loop reads: the same
    /// games (moves, their lines and offsets, what is said), errors, and steps (where each
    /// stops, whether the text's end was looked at), on every cut of texts made of plain tokens
    /// and of everything that stops a run (results, words that may be one, move numbers 1,
    /// comments, variations, glyphs, marks, other spaces, tags), glued or spaced in every way.
    #[test]
    fn plain_runs_read_as_the_general_loop() {
        // (The first 24 are mostly plain, and what a heading may be: words before move 1.)
        const TOKENS: [&str; 53] = [
            "2.",
            "12.",
            "10.",
            "3...",
            "0.",
            "1.",
            "1...",
            "1.炮二平五",
            "12.炮二平五",
            "炮二平五",
            "马８进７",
            "车1平2",
            "前炮进２",
            "兵七进一",
            "炮",
            "帅五平六",
            "h2e2",
            "C2.5",
            "H8+7",
            "R1=2",
            "e",
            "第二局",
            "Game",
            "44.3",
            "9",
            "h2e2?",
            "1-0",
            "0-1",
            "1/2-1/2",
            "*",
            "红胜",
            "和棋",
            "黑负",
            "双方不变作和",
            "{a comment}",
            "{a\n[Event \"x\"]\n}",
            ";a line\n",
            "(",
            ")",
            "$14",
            "!?",
            "炮二平五!",
            "炮二平五！",
            "炮二平五？",
            "…",
            "、",
            "\u{3000}",
            "[Event \"g\"]\n",
            "\n%escape\n",
            "Ｅ",
            "\u{feff}",
            "炮二平五\u{3000}",
            "马８进７}",
        ];
        const SPACES: [&str; 8] = [" ", " ", " ", "\n", "\r\n", "\t", "\n\n", ""];
        let mut rng = xq_core::testing::XorShift(0x9e37_79b9_7f4a_7c15);
        let mut cuts = 0;
        for _ in 0..400 {
            let mut text = String::new();
            for _ in 0..1 + rng.next() % 3 {
                if rng.next().is_multiple_of(2) {
                    text.push_str("[Event \"t\"]\n[Result \"*\"]\n\n");
                }
                for _ in 0..rng.next() % 24 {
                    // Mostly plain tokens, so that runs are long.
                    let token = if rng.next().is_multiple_of(3) {
                        rng.pick(&TOKENS).unwrap_or_default()
                    } else {
                        rng.pick(&TOKENS[..24]).unwrap_or_default()
                    };
                    text.push_str(token);
                    text.push_str(rng.pick(&SPACES).unwrap_or_default());
                }
            }
            assert_eq!(
                steps(&text, true, true),
                steps(&text, true, false),
                "{text:?}"
            );
            for cut in (0..=text.len()).filter(|&i| text.is_char_boundary(i)) {
                let piece = &text[..cut];
                assert_eq!(
                    steps(piece, false, true),
                    steps(piece, false, false),
                    "{piece:?}"
                );
                cuts += 1;
            }
        }
        assert!(cuts > 20_000, "{cuts}");
    }

    #[test]
    fn unicode_spaces_are_exactly_the_white_space_characters() {
        for c in [
            '\u{85}', '\u{a0}', '\u{1680}', '\u{2000}', '\u{200a}', '\u{2028}', '\u{2029}',
            '\u{202f}', '\u{205f}', '\u{3000}', '\u{feff}',
        ] {
            let mut buf = [0; 4];
            assert_eq!(
                unicode_space_len(c.encode_utf8(&mut buf).as_bytes()),
                c.len_utf8(),
                "{c:?}"
            );
        }
        for c in (0x80..0x10000u32)
            .filter_map(char::from_u32)
            .filter(|c| !c.is_whitespace() && *c != '\u{feff}')
        {
            let mut buf = [0; 4];
            assert_eq!(
                unicode_space_len(c.encode_utf8(&mut buf).as_bytes()),
                0,
                "{c:?}"
            );
        }
    }

    /// A tag written the plain way is read at once as reading it in full reads it: the same
    /// name, value, place of the value, words said, reading place, line and extent looked at;
    /// anything else is left to the full reading.
    #[test]
    fn a_plain_tag_reads_as_the_full_reading_reads_it() {
        let names = [
            "Event",
            "Red_Team2",
            "X",
            "",
            "Red-Elo",
            "红方",
            "Event\u{3000}",
        ];
        let values = [
            "",
            "Cup",
            " Cup ",
            "\u{3000}第一轮\u{3000}",
            "  ",
            "A \\\"B\\\" C",
            "Cup [2] final",
            "a]b",
            "D:\\棋谱\\",
            "x\ty",
            "è",
        ];
        let ends = [
            "]\n",
            "]  \r\n",
            "]\t\n",
            "] x\n",
            "]",
            "] [Site \"B\"]\n",
            "\n",
            "]\r",
        ];
        let mut plain = 0;
        for name in names {
            for value in values {
                for end in ends {
                    for spaced in [" \"", "\"", "  \""] {
                        let text = format!("{{c}}\n[{name}{spaced}{value}\"{end}1. h2e2 *\n");
                        let at = text.find('[').unwrap();
                        let reader = |text| {
                            let mut reader = PgnReader::new(text);
                            reader.pos = at;
                            reader.line = 2;
                            reader
                        };
                        let (mut quick, mut full) = (reader(&text), reader(&text));
                        let Some(got) = quick.plain_tag() else {
                            continue;
                        };
                        plain += 1;
                        let want = full.read_tag_in_full().unwrap();
                        assert_eq!(got, want, "{text:?}");
                        assert_eq!(
                            (quick.pos, quick.line, quick.seen),
                            (full.pos, full.line, full.seen),
                            "{text:?}"
                        );
                    }
                }
            }
        }
        // (The plain shape was met: names of ASCII letters, digits, `_`; the usual values.)
        assert!(plain >= 60, "{plain}");
    }

    /// A token runs over every character but the spaces (ASCII's as `u8::is_ascii_whitespace`
    /// has them, Unicode White_Space beyond, and U+FEFF) and the delimiters, whatever its
    /// bytes: checked for every character, as the token reader's look-up table and its
    /// shortcuts for Chinese and full-width characters take them.
    #[test]
    fn a_token_ends_exactly_at_a_space_or_a_delimiter() {
        for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
            let text = format!("a{c}b");
            let space = match u8::try_from(c) {
                Ok(b) if b.is_ascii() => b.is_ascii_whitespace(),
                _ => c.is_whitespace() || c == '\u{feff}',
            };
            let ends = space || "{}();[]".contains(c);
            let want = if ends { 1 } else { text.len() };
            assert_eq!(token_len(text.as_bytes()), want, "{c:?}");
        }
    }

    #[test]
    fn every_unicode_space_starts_with_a_lead_byte_let_through() {
        for c in (0x80..=0x10FFFFu32).filter_map(char::from_u32) {
            let mut buf = [0; 4];
            let bytes = c.encode_utf8(&mut buf).as_bytes();
            if unicode_space_len(bytes) > 0 {
                assert!(may_start_space(bytes[0]), "{c:?}");
            }
        }
        // And it does keep Chinese characters out.
        assert!(!may_start_space("炮".as_bytes()[0]));
        for lead in 0..=255u8 {
            assert_eq!(
                may_start_space(lead),
                matches!(lead, 0xC2 | 0xE1..=0xE3 | 0xEF),
                "{lead:x}"
            );
        }
    }

    fn read(text: &str) -> Vec<Result<Game, ReadError>> {
        PgnReader::new(text).collect()
    }

    fn texts(line: &[Node]) -> Vec<&str> {
        line.iter().filter_map(|n| n.text.as_deref()).collect()
    }

    #[test]
    fn tags_moves_comments_and_variations() {
        let games = read(
            "\u{feff}[Game \"Chinese Chess\"]\r\n[Event \"A \\\"quoted\\\" event\"]\r\n[Result \"1-0\"]\r\n\r\n{opening}\r\n1.炮二平五 马８进７ {a reply} 2. 马二进三 (2. 兵七进一 {the other way} 卒７进１) 2... 车９平８\r\n3.          车一平二 1-0\r\n======\r\n欢迎访问\r\n[Event \"second\"]\r\n1. h2e2 *\r\n",
        );
        assert_eq!(games.len(), 2);
        let g = games[0].as_ref().unwrap();
        assert_eq!(g.tag("Event"), Some("A \"quoted\" event"));
        assert_eq!(g.comment.as_deref(), Some("opening"));
        assert_eq!(
            texts(&g.moves),
            ["炮二平五", "马８进７", "马二进三", "车９平８", "车一平二"]
        );
        assert_eq!(g.moves[1].comment(), Some("a reply"));
        let var = &g.moves[2].variations()[0];
        assert_eq!(texts(var), ["兵七进一", "卒７进１"]);
        assert_eq!(var[0].comment(), Some("the other way"));
        assert_eq!(g.moves[4].source_line(), Some(7));
        let second = games[1].as_ref().unwrap();
        assert_eq!(second.tag("Event"), Some("second"));
        assert_eq!(second.tag("Result"), Some("*"));
        assert_eq!(texts(&second.moves), ["h2e2"]);
    }

    /// A `{` left open after a result keeps what follows it, up to the next game's tags or
    /// the end of the file, as the game's last comment (which lines are words and which moves
    /// cannot be told), and says so; the games after the tags are read.
    #[test]
    fn a_comment_left_open_after_a_result_keeps_what_follows_and_says_so() {
        let games =
            read("1. h2e2 1-0 {won\n1. h0g2 *\n[Event \"b\"]\n1. c3c4 0-1 {\n\n1. g3g4 *\n\n");
        assert_eq!(games.len(), 2);
        let first = games[0].as_ref().unwrap();
        assert_eq!(first.moves[0].comment(), Some("won\n1. h0g2 *"));
        assert_eq!(first.unread.len(), 1);
        assert!(
            says(first, "before the next game's tags"),
            "{:?}",
            first.unread
        );
        assert!(says(first, "(2 line(s) of text)"), "{:?}", first.unread);
        let second = games[1].as_ref().unwrap();
        assert_eq!(second.tag("Event"), Some("b"));
        assert_eq!(second.moves[0].comment(), Some("1. g3g4 *"));
        assert!(
            second.unread[0].contains("before the end of the file"),
            "{:?}",
            second.unread
        );
        // A `{` closed after the result is a comment like any other, unsaid.
        let games = read("1. h2e2 1-0 {time\nforfeit}\n1. h0g2 *\n");
        assert_eq!(games.len(), 2);
        assert!(games[0].as_ref().unwrap().unread.is_empty());
    }

    /// Lines of comments alone after a result are the game's last comments, blank lines
    /// between or not; a comment with moves after it on its line opens the game of those moves.
    #[test]
    fn comment_lines_after_a_result_are_the_games() {
        let games = read(
            "1. h2e2 1-0\n{Black resigned}\n\n  ; after a long think\n{a} {b}\n[Event \"2\"]\n1. h0g2 0-1\n\n{Exported by Foo}\n",
        );
        assert_eq!(games.len(), 2);
        let first = games[0].as_ref().unwrap();
        assert_eq!(
            first.moves[0].comment(),
            Some("Black resigned\nafter a long think\na\nb")
        );
        let second = games[1].as_ref().unwrap();
        assert_eq!(second.tag("Event"), Some("2"));
        assert_eq!(second.moves[0].comment(), Some("Exported by Foo"));
        // Lines indented with full-width spaces (U+3000), as Chinese text is, and a comment
        // after spaces of that kind on its line.
        let games = read("1. h2e2 1-0\n\u{3000}\u{3000}{黑方认负}\u{3000}{时间 2:30}\n");
        assert_eq!(games.len(), 1);
        assert_eq!(
            games[0].as_ref().unwrap().moves[0].comment(),
            Some("黑方认负\n时间 2:30")
        );
        // Words first: passed over, as after any result, with what follows on their lines.
        let games = read("1. h2e2 1-0\nsigned {x}\n{y} 1. h0g2 *\n");
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].as_ref().unwrap().moves[0].comment(), None);
        assert_eq!(games[1].as_ref().unwrap().comment.as_deref(), Some("y"));
    }

    /// Games without results one after another: moves numbered from 1 again after a blank line
    /// start the next game (said); without the blank line, or numbered on, they are the game's.
    #[test]
    fn moves_numbered_anew_after_a_blank_line_are_the_next_game() {
        let games = read("1. h2e2 h9g7\n2. h0g2 {c}\n\n1. c3c4 c6c5\n\n  1.h2e2 *\n");
        let moves: Vec<Vec<&str>> = games
            .iter()
            .map(|g| texts(&g.as_ref().unwrap().moves))
            .collect();
        assert_eq!(
            moves,
            [
                vec!["h2e2", "h9g7", "h0g2"],
                vec!["c3c4", "c6c5"],
                vec!["h2e2"]
            ]
        );
        let first = games[0].as_ref().unwrap();
        assert_eq!(first.unread.len(), 1);
        assert!(first.unread[0].contains("(line 4)"), "{:?}", first.unread);
        assert_eq!(first.moves[2].comment(), Some("c"));
        assert_eq!(games[2].as_ref().unwrap().moves[0].source_line(), Some(6));
        assert_eq!(read("1、h2e2 h9g7\n\n1、c3c4 *\n").len(), 2);
        // Black's move 1 continued, a blank line inside a comment or a variation: one game.
        for one in [
            "1. h2e2 h9g7\n1. c3c4 *\n",
            "1. h2e2 h9g7\n\n2. c3c4 *\n",
            "1. h2e2 (1. c3c4\n\n1. g3g4) *\n",
            "1. h2e2 {The central cannon.}\n\n1... h9g7 2. h0g2 1-0\n",
            "1. h2e2\n\n1. ... h9g7 2. h0g2 1-0\n",
            "1. h2e2\n\n1.… h9g7 1-0\n",
            "1. h2e2\n\n1．．．h9g7 1-0\n",
            "1. h2e2 h9g7 {A long note\n\nsecond paragraph}\n1. c3c4 1-0\n",
            "1. h2e2 h9g7 (1... c6c5\n\n{other line})\n1. c3c4 1-0\n",
        ] {
            assert_eq!(read(one).len(), 1, "{one}");
        }
    }

    /// Comments between tag lines are the game's, its tags read on after them: one game, not a
    /// game of the tags before and one of those after.
    #[test]
    fn comments_between_tag_lines_are_the_games() {
        let games = read(
            "[Game \"Chinese Chess\"]\n{between tags}\n; and a line\n\n[Event \"x\"] \n{not before tags}\n1. h2e2 *\n",
        );
        assert_eq!(games.len(), 1);
        let g = games[0].as_ref().unwrap();
        assert_eq!(g.tag("Game"), Some("Chinese Chess"));
        assert_eq!(g.tag("Event"), Some("x"));
        assert_eq!(
            g.comment.as_deref(),
            Some("between tags\nand a line\nnot before tags")
        );
        assert_eq!(texts(&g.moves), ["h2e2"]);
        // A comment with a tag on its own line: not a tag line, so the comment's.
        let games = read("[Game \"x\"]\n{a} [Event \"y\"]\n1. h2e2 *\n");
        assert_eq!(games.len(), 1);
        // After a blank line, a game of tags alone ends: the comment is its, as before.
        let games = read("[Event \"Round 1\"]\n\n{game 1}\n[Event \"Cup\"]\n1. h2e2 *\n");
        assert_eq!(games.len(), 2);
        assert_eq!(games[1].as_ref().unwrap().tag("Event"), Some("Cup"));
    }

    /// A result ending the moves that the Result tag does not give is said (the tag is kept; a
    /// tag of none, `*` or `?`, takes the moves' result); one that agrees, or `*` ending the
    /// moves, says nothing.
    #[test]
    fn a_result_the_tag_contradicts_is_said() {
        let unread = |text: &str| read(text).remove(0).unwrap().unread;
        let said = unread("[Result \"1-0\"]\n1. h2e2 h9g7\n0-1\n");
        assert_eq!(said.len(), 1);
        assert!(
            said[0].contains("the result 0-1 that ends the moves (line 3)"),
            "{said:?}"
        );
        assert!(
            said[0].contains("the Result tag \"1-0\" does not give"),
            "{said:?}"
        );
        for tag in ["*", "?"] {
            let game = read(&format!("[Result \"{tag}\"]\n1. h2e2 0-1\n"))
                .remove(0)
                .unwrap();
            assert_eq!(game.tag("Result"), Some("0-1"), "{tag}");
            assert!(game.unread[0].contains("is taken"), "{:?}", game.unread);
        }
        assert!(unread("[Result \"红胜\"]\n1. h2e2 0-1\n")[0].contains("0-1"));
        assert!(unread("[Result \"1-0 on time\"]\n1. h2e2 0-1\n")[0].contains("0-1"));
        for agrees in [
            "[Result \"1-0\"]\n1. h2e2 1-0\n",
            "[Result \"1-0\"]\n1. h2e2 *\n",
            "[Result \"1-0 on time\"]\n1. h2e2 1-0\n",
            "[Result \"?\"]\n1. h2e2 *\n",
            "1. h2e2 0-1\n",
        ] {
            assert!(unread(agrees).is_empty(), "{agrees}");
        }
    }

    /// What follows a tag on its line is read: more tags, the moves, a comment (a tag section
    /// on one line, as some exporters write it, lost everything after its first tag).
    #[test]
    fn what_follows_a_tag_on_its_line_is_read() {
        let games = read(
            "[Game \"Chinese Chess\"][Result \"1-0\"] 1. h2e2 h9g7 1-0\n[Event \"A\"] [Red \"B \\\"C\\\"\"]  \n[Black \"D\"] {note}\n1. h2e2 *\n",
        );
        assert_eq!(games.len(), 2);
        let first = games[0].as_ref().unwrap();
        assert_eq!(first.tag("Game"), Some("Chinese Chess"));
        assert_eq!(first.tag("Result"), Some("1-0"));
        assert_eq!(texts(&first.moves), ["h2e2", "h9g7"]);
        assert_eq!(first.moves[0].source_line(), Some(1));
        let second = games[1].as_ref().unwrap();
        assert_eq!(second.tag("Event"), Some("A"));
        assert_eq!(second.tag("Red"), Some("B \"C\""));
        assert_eq!(second.tag("Black"), Some("D"));
        assert_eq!(second.comment.as_deref(), Some("note"));
        assert_eq!(texts(&second.moves), ["h2e2"]);
        assert_eq!(second.moves[0].source_line(), Some(4));
    }

    /// Whether `game` says, among what it could not read, something holding `what`.
    fn says(game: &Game, what: &str) -> bool {
        game.unread.iter().any(|u| u.contains(what))
    }

    /// Words after a tag on its line (`Saturday`, `(GM)`) are no moves: the line's, not read,
    /// and said; a tag line followed by more tags, a comment or moves is a tag line wherever
    /// tag lines matter (ending a comment left open, between comments and tags).
    #[test]
    fn words_after_a_tag_are_said_and_a_tag_line_may_go_on() {
        let games =
            read("[Date \"2001.01.01\"] Saturday\n[Red \"Hu\"] (GM)\n[Black \"Liu\"]\n1. h2e2 *\n");
        let g = games[0].as_ref().unwrap();
        assert_eq!((g.tag("Red"), g.tag("Black")), (Some("Hu"), Some("Liu")));
        assert_eq!(texts(&g.moves), ["h2e2"]);
        assert_eq!(g.unread.len(), 2, "{:?}", g.unread);
        assert!(
            says(g, "on its line 1, not read: Saturday"),
            "{:?}",
            g.unread
        );
        assert!(says(g, "on its line 2, not read: (GM)"), "{:?}", g.unread);
        // Moves with marks go on after a tag, and are read.
        for moves in ["1. 炮二平五! *", "炮二平五！ *", "C2.5? *"] {
            let g = read(&format!("[Result \"*\"] {moves}\n"))
                .remove(0)
                .unwrap();
            assert_eq!(g.moves.len(), 1, "{moves}");
            assert!(g.unread.is_empty(), "{moves}: {:?}", g.unread);
            assert!(g.moves[0].m.is_none() && g.moves[0].text.is_some());
        }
        for words in [
            "14.00 local time",
            "1.Liga",
            "3. Dan",
            "2001",
            "C2.5, good",
            "炮二平五，*",
            "3. {Board 3} Wang",
            "1. (see the note) Introduction",
        ] {
            let g = read(&format!("[Date \"2001.01.01\"] {words}\n1. h2e2 *\n")).remove(0);
            let g = g.unwrap();
            assert_eq!(texts(&g.moves), ["h2e2"], "{words}");
            assert!(says(&g, words), "{words}: {:?}", g.unread);
        }
        // Inside a comment, only a tag line alone ends it: a comment may quote a header with
        // what followed it (`[Event "Cup"] 1-0`, `[Event "Cup"] 1. h2e2 …`).
        let games =
            read("1. h2e2 {cf.\n[Event \"Cup\"] 1-0} h9g7 {see\n[Event \"C\"] 1. h2e2\nend} *\n");
        assert_eq!(games.len(), 1);
        assert_eq!(texts(&games[0].as_ref().unwrap().moves), ["h2e2", "h9g7"]);
        // A comment between tags, the next tag line going on with the moves.
        let games = read("[Event \"A\"]\n{c}\n[Result \"1-0\"] 1. h2e2 1-0\n");
        assert_eq!(games.len(), 1);
        let a = games[0].as_ref().unwrap();
        assert_eq!((a.tag("Event"), a.tag("Result")), (Some("A"), Some("1-0")));
        assert!(is_tag_line(b"[Event \"x\"]  "));
        assert!(!is_tag_line(b"[Event \"x\"] 1. h2e2"));
        assert!(is_tag_line_going_on(b"[Event \"x\"] 1. h2e2"));
        assert!(!is_tag_line_going_on(b"[Event \"x\"] was later"));
        assert!(!is_tag_line(b"[see game 12]"));
        assert!(!is_tag_line(b"[Event \"Cup\"] and [Site \"Beijing\"]"));
    }

    /// A variation without moves (`( )`, `( {comment} )`) is no alternative: none is kept, and
    /// its comment stays after the move it hangs on, not given to what follows.
    #[test]
    fn a_variation_without_moves_keeps_its_comment_on_its_move() {
        let games =
            read("1. h2e2 {first} ( {only words} ) ( h0g2 ) ( ) h9g7 ( ; to the end\n) *\n");
        let g = games[0].as_ref().unwrap();
        assert_eq!(texts(&g.moves), ["h2e2", "h9g7"]);
        assert_eq!(g.moves[0].comment(), Some("first\nonly words"));
        assert_eq!(g.moves[0].variations().len(), 1);
        let var = &g.moves[0].variations()[0];
        assert_eq!(texts(var), ["h0g2"]);
        assert_eq!(var[0].before(), None);
        assert!(g.moves[1].variations().is_empty());
        assert_eq!(g.moves[1].comment(), Some("to the end"));
    }

    /// Comments before a tag section open the game whose tags follow: no game of their own.
    #[test]
    fn comments_before_the_tags_open_the_game() {
        let games = read(
            "{Exported by XQStudio}\n{second note}\n[Event \"x\"]\n\n1. h2e2 *\n[Event \"y\"]\n1. h2e2 *\n",
        );
        assert_eq!(games.len(), 2);
        let g = games[0].as_ref().unwrap();
        assert_eq!(g.tag("Event"), Some("x"));
        let comment = g.comment.as_deref().unwrap();
        assert!(comment.contains("Exported by XQStudio") && comment.contains("second note"));
        assert_eq!(texts(&g.moves), ["h2e2"]);
        assert_eq!(g.line, Some(1));
        // Without tags after them, comments and moves are one game, as before.
        let games = read("{a note} 1. h2e2 *\n");
        assert_eq!(games.len(), 1);
        assert_eq!(
            games[0].as_ref().unwrap().comment.as_deref(),
            Some("a note")
        );
        // A game with tags and no moves stays a game.
        let games = read("[Event \"x\"]\n\n*\n[Event \"y\"]\n1. h2e2 *\n");
        assert_eq!(games.len(), 2);
    }

    /// Moves after a result are another game, with tags or without; words that are no moves
    /// (xqbase's advert trailer) are skipped to the next tag line.
    #[test]
    fn moves_after_a_result_are_another_game() {
        let moves = |text: &str| -> Vec<Vec<String>> {
            read(text)
                .into_iter()
                .map(|g| {
                    texts(&g.unwrap().moves)
                        .iter()
                        .map(|t| t.to_string())
                        .collect()
                })
                .collect()
        };
        let tagless = "1. 炮二平五 马８进７ 1-0\n\n1. 兵七进一 卒７进１ 0-1\n\n1. 马二进三 *\n";
        assert_eq!(
            moves(tagless),
            [
                vec!["炮二平五", "马８进７"],
                vec!["兵七进一", "卒７进１"],
                vec!["马二进三"]
            ]
        );
        let tagged_then_not = "[Event \"a\"]\n\n1. h2e2 h9g7 1-0\n\n1. c3c4 0-1\n";
        assert_eq!(moves(tagged_then_not), [vec!["h2e2", "h9g7"], vec!["c3c4"]]);
        // On the result's own line too: the moves after it are not lost.
        assert_eq!(
            moves("1. h2e2 1-0 h9g7 2. h0g2 *\n"),
            [vec!["h2e2"], vec!["h9g7", "h0g2"]]
        );
        let trailer = "======================\n欢迎访问象棋百科全书网\n推荐用象棋巫师观赏棋谱\nhttp://www.xqbase.com/\n";
        let text = format!(
            "[Event \"a\"]\n\n1. h2e2 1-0\n{trailer}\n[Event \"b\"]\n\n1. c3c4 *\n{trailer}"
        );
        assert_eq!(moves(&text), [vec!["h2e2"], vec!["c3c4"]]);
        // Moves in comments after a result are words of the comment.
        let commented = "[Event \"a\"]\n\n1. h2e2 1-0 {next: 炮二平五\n马８进７} ; h9g7\n[Event \"b\"]\n1. c3c4 *\n";
        assert_eq!(moves(commented), [vec!["h2e2"], vec!["c3c4"]]);
        // A line is a game's only if its first word is a move: words that happen to read as
        // moves further on are words.
        let words = "[Event \"a\"]\n\n1. h2e2 1-0\nPrinted on a4 paper, see 炮二平五\n[Event \"b\"]\n1. c3c4 *\n";
        assert_eq!(moves(words), [vec!["h2e2"], vec!["c3c4"]]);
        assert_eq!(
            moves("1. h2e2 h9g7 1-0\n12.5 hours of play\n"),
            [vec!["h2e2", "h9g7"]]
        );
        // Words heading a game written on without tags, on the line of its first move: the
        // game starts at its move 1, and says them.
        for (text, heading) in [
            (
                "1. h2e2 h9g7 1-0\n第二局 1. 兵七进一 卒７进１ *\n",
                "第二局",
            ),
            (
                "1. h2e2 h9g7 1-0 Game 2: 1.兵七进一 卒７进１ *\n",
                "Game 2:",
            ),
            (
                "1. h2e2 h9g7 1-0\n{x} Game (2) 1. 兵七进一 卒７进１\n",
                "{x} Game (2)",
            ),
            (
                "1. h2e2 h9g7 1-0\n  Round 2, 1. 兵七进一! 卒７进１ *",
                "Round 2,",
            ),
            (
                "1. h2e2 h9g7 1-0\n第二局 1. 兵七进一 {好} 卒７进１ $1 (2. 马二进三) *",
                "第二局",
            ),
            ("1. h2e2 h9g7 1-0\n对局 1. 兵七进一 卒７进１ ; 至此", "对局"),
        ] {
            let games = read(text);
            assert_eq!(games.len(), 2, "{text}");
            let second = games[1].as_ref().unwrap();
            assert_eq!(texts(&second.moves), ["兵七进一", "卒７进１"], "{text}");
            assert_eq!(second.line, Some(2 - u32::from(text.contains("Game 2"))));
            assert_eq!(second.unread.len(), 1, "{text}");
            assert!(
                second.unread[0].ends_with(&format!(
                    "its line {}, not read: {heading}",
                    second.line.unwrap()
                )),
                "{text}: {:?}",
                second.unread
            );
        }
        // One move and a result.
        assert_eq!(
            moves("1. h2e2 h9g7 1-0\n选自第1期 1. 兵七进一 0-1"),
            [vec!["h2e2", "h9g7"], vec!["兵七进一"]]
        );
        // Moves written on up to a result, whatever follows it; several games on one line;
        // two rounds of moves, then a word the game's reading says it cannot read.
        assert_eq!(
            moves("1. h2e2 h9g7 1-0\n第二局 1. 兵七进一 卒７进１ 1-0 红胜\n"),
            [vec!["h2e2", "h9g7"], vec!["兵七进一", "卒７进１"]]
        );
        assert_eq!(
            moves(
                "1. h2e2 h9g7 1-0\n第二局 1. 兵七进一 卒７进１ 1-0 第三局 1. 炮二平五 马８进７ 0-1\n"
            ),
            [
                vec!["h2e2", "h9g7"],
                vec!["兵七进一", "卒７进１"],
                vec!["炮二平五", "马８进７"]
            ]
        );

        // Results in words ending a line of moves, as Chinese records write them.
        assert_eq!(
            moves(
                "1. h2e2 h9g7 1-0\n第二局 1. 兵七进一 卒７进１ 2. 马二进三 马２进３ 红胜\n第三局 1. 炮二平五 马８进７ 黑胜\n第四局 1. c3c4 c6c5 和棋\n"
            ),
            [
                vec!["h2e2", "h9g7"],
                vec!["兵七进一", "卒７进１", "马二进三", "马２进３"],
                vec!["炮二平五", "马８进７"],
                vec!["c3c4", "c6c5"]
            ]
        );
        let worded = read(
            "[Event \"a\"]\n\n1. h2e2 h9g7 红胜\n\n[Event \"b\"]\n\n1. h2e2 红先和 ; noted\n\n[Event \"c\"]\n\n1. h2e2 红胜 2. h9g7 *\n",
        );
        let results: Vec<_> = worded
            .iter()
            .map(|g| g.as_ref().unwrap().tag("Result").map(str::to_owned))
            .collect();
        assert_eq!(
            results,
            [
                Some("1-0".to_owned()),
                Some("1/2-1/2".to_owned()),
                Some("*".to_owned())
            ]
        );
        // Words saying more than an outcome are no result (a verdict cannot be told from a
        // judgement of the position): read as moves, which replaying says.
        for words in [
            "和势",
            "黑胜势",
            "红方提和，黑方拒绝",
            "红车和马",
            "红胜定",
            "红方必胜",
            "黑方不负",
            "黑龙江赵国荣胜",
            "黑方超时判负",
        ] {
            assert_eq!(outcome_word(words), None, "{words}");
        }
        assert_eq!(outcome_word("红先和"), Some("1/2-1/2"));
        assert_eq!(outcome_word("红胜。"), Some("1-0"));
        // A judgement ending a line of a game's moves does not end the game.
        let games = read("[Event \"a\"]\n\n1. h2e2 h9g7 和势\n2. h0g2 i9h9 1-0\n");
        assert_eq!(games.len(), 1);
        assert_eq!(
            texts(&games[0].as_ref().unwrap().moves),
            ["h2e2", "h9g7", "和势", "h0g2", "i9h9"]
        );
        // (Not ending its line: a word among the moves, which replaying says.)
        assert_eq!(
            texts(&worded[2].as_ref().unwrap().moves),
            ["h2e2", "红胜", "h9g7"]
        );
        // Words glued to the move number.
        for glued in [
            "第2局：1.炮二平五 马８进７ *",
            "【第二局】1. 炮二平五 马８进７",
            "Game 2:1. h2e2 h9g7",
        ] {
            let games = read(&format!("1. c3c4 c6c5 1-0\n{glued}\n"));
            assert_eq!(games.len(), 2, "{glued}");
            assert_eq!(games[1].as_ref().unwrap().moves.len(), 2, "{glued}");
        }
        assert_eq!(
            moves("1. c3c4 c6c5 1-0\n第二局 1. C2.5 H8+7 2. R1.2 *\n"),
            [vec!["c3c4", "c6c5"], vec!["C2.5", "H8+7", "R1.2"]]
        );
        // Moves from 1 among words, or one ending its line: said by the next game.
        for named in [
            "www.xqbase.com  1.炮二平五 马8进7 is the most common opening\n",
            "本局选自《象棋》杂志 第1期 1. 炮二平五\n",
            "Step 1: 1. h2e2\n",
            "第二局 1. 炮二平五 马８进７ 2. 马二进三 (完)\n",
            "第二局 1. 炮二平五 马８进７ 2. 马二进三 车９平８ 3. 车一平二 马２进３x 1-0\n",
            "注：1.炮二平五 马8进7 2.马二进三 车9平8 是最常见的布局。\n",
        ] {
            let games = read(&format!(
                "1. h2e2 h9g7 1-0\n{named}\n[Event \"b\"]\n1. c3c4 *\n"
            ));
            assert_eq!(games.len(), 2, "{named}");
            let said = &games[1].as_ref().unwrap().unread;
            assert!(
                said.len() == 1
                    && said[0].starts_with("line 2 after the result")
                    && said[0].ends_with(named.trim()),
                "{named}: {said:?}"
            );
        }
        // Many such lines: said one by one up to a bound, then together.
        let many = format!(
            "1. h2e2 h9g7 1-0\n{}[Event \"b\"]\n1. c3c4 *\n",
            "注 1. 炮二平五 马８进７ 是常见的\n".repeat(40)
        );
        let games = read(&many);
        assert_eq!(games[1].as_ref().unwrap().unread.len(), MAX_SAID + 1);
        // Not a move 1 (a later move named in words, a number with no move), or one in a
        // comment, or one move named in words: words.
        for words in [
            "Comment: after 1. 炮二平五 Black should play 马8进7\n",
            "Section 1. C2=5 is the central cannon\n",
            "See chapter 1. e4 for more\n",
            "Red won after 35. 车二进一 was played\n",
            "Section 1. Openings\n",
            "see {1. 兵七进一} there\n",
            "see ; 1. 兵七进一\n",
            "Ranked 12. 兵七进一\n",
        ] {
            let text = format!("1. h2e2 h9g7 1-0\n{words}[Event \"b\"]\n1. c3c4 *\n");
            assert_eq!(
                moves(&text),
                [vec!["h2e2", "h9g7"], vec!["c3c4"]],
                "{words}"
            );
            assert!(
                read(&text)[1].as_ref().unwrap().unread.is_empty(),
                "{words}"
            );
        }
        // Comments on the result's line are the game's last words, kept after its last move;
        // a move after them starts the next game.
        let closing = read(
            "1. h2e2 h9g7 1-0 {time forfeit} ; signed\n{next line} 1. c3c4 {x} 1-0 {y} h0g2 *\n",
        );
        let comments = |g: &Result<Game, ReadError>| -> Vec<Option<String>> {
            g.as_ref()
                .unwrap()
                .moves
                .iter()
                .map(|n| n.comment().map(str::to_owned))
                .collect()
        };
        assert_eq!(closing.len(), 3);
        assert_eq!(
            comments(&closing[0]),
            [None, Some("time forfeit\nsigned".to_owned())]
        );
        assert_eq!(comments(&closing[1]), [Some("x\ny".to_owned())]);
        assert_eq!(
            closing[1].as_ref().unwrap().comment.as_deref(),
            Some("next line")
        );
        assert_eq!(texts(&closing[2].as_ref().unwrap().moves), ["h0g2"]);
        // A `{` on the result's line left open: a tag line ends it, as any skipping; nothing of
        // the games after it is taken, however far its `}` (or none) stands.
        let open_brace = "[Event \"a\"]\n\n1. h2e2 1-0 {\n[Event \"b\"]\n\n1. c3c4 *\n\n[Event \"c\"]\n\n1. h0g2 {ok} h9g7 *";
        assert_eq!(
            moves(open_brace),
            [vec!["h2e2"], vec!["c3c4"], vec!["h0g2", "h9g7"]]
        );
        // Its `}` is looked for as any comment's, up to the longest a comment may be; lines in
        // it that only start like a tag are its text.
        let far = format!("1. h2e2 1-0 {{ {}}}\n1. c3c4 *\n", "x ".repeat(50_000));
        assert_eq!(moves(&far), [vec!["h2e2"], vec!["c3c4"]]);
        let read_far = read(&far);
        let comment = read_far[0].as_ref().unwrap().moves[0]
            .comment()
            .map(str::to_owned)
            .unwrap();
        assert_eq!(comment.len(), 2 * 50_000 - 1);
        let bracketed = "1. h2e2 1-0 {Note:\n  [Event \"Asian Cup\"] was played later.\n[see game 12]\n}\n\n[Event \"b\"]\n1. c3c4 *\n";
        let read_bracketed = read(bracketed);
        assert_eq!(read_bracketed.len(), 2);
        assert!(
            read_bracketed[0].as_ref().unwrap().moves[0]
                .comment()
                .is_some_and(|c| c.ends_with("[see game 12]"))
        );
        // A tag line indented with a full-width space ends it too.
        let indented = "1. h2e2 1-0 {\n\u{3000}[Event \"b\"]\n1. c3c4 *\n";
        assert_eq!(moves(indented), [vec!["h2e2"], vec!["c3c4"]]);
        // A `{` left open after a result ends at the next tag line: no game is lost to it.
        let open = "[Event \"a\"]\n\n1. h2e2 1-0 :-{\n[Event \"b\"]\n1. c3c4 *\n[Event \"c\"]\n1. h0g2 {ok} h9g7 *\n";
        assert_eq!(
            moves(open),
            [vec!["h2e2"], vec!["c3c4"], vec!["h0g2", "h9g7"]]
        );
        // A line longer than is looked at for a move is words, to the next tag line.
        let long = format!(
            "1. h2e2 1-0\n{} h9g7\n[Event \"b\"]\n1. c3c4 *\n",
            "word ".repeat(MOVE_LINE_SCAN)
        );
        assert_eq!(moves(&long), [vec!["h2e2"], vec!["c3c4"]]);
    }

    /// DhtmlXQ records among PGN games are games of their own, read as the DhtmlXQ reader
    /// reads them: wrapped in `[DhtmlXQ]` … `[/DhtmlXQ]` or not, closed or cut short, before,
    /// between and after games; one inside a comment stays the comment's.
    #[test]
    fn dhtmlxq_records_among_games_are_games() {
        let fields = "[DhtmlXQ_red]A[/DhtmlXQ_red]\n[DhtmlXQ_movelist]77477062[/DhtmlXQ_movelist]";
        let wrapped = format!("[DhtmlXQ]\n{fields}\n[/DhtmlXQ]");
        let cut_short = format!("[DhtmlXQ]\n{fields}\n");
        let pgn = "[Event \"x\"]\n\n1. h2e2 h9g7 *\n";
        let as_dhtmlxq = dhtmlxq::read_dhtmlxq(&wrapped).remove(0).unwrap();
        assert_eq!(as_dhtmlxq.moves.len(), 2);
        for record in [wrapped.as_str(), fields, cut_short.as_str()] {
            let text = format!("{record}\n{pgn}\n{record}\n\n{pgn}{record}");
            let games: Vec<Game> = read(&text).into_iter().map(Result::unwrap).collect();
            assert_eq!(games.len(), 5, "{text}");
            for (i, game) in games.iter().enumerate() {
                if i % 2 == 0 {
                    let start = text.match_indices(record).nth(i / 2).unwrap().0;
                    let line = 1 + text[..start].matches('\n').count() as u32;
                    let placed = dhtmlxq::read_one(record, start, line).unwrap();
                    assert_eq!(game.moves, placed.moves, "{i}: {text}");
                    assert_eq!(game.tags, as_dhtmlxq.tags);
                    assert_eq!(game.line, Some(line));
                } else {
                    assert_eq!(texts(&game.moves), ["h2e2", "h9g7"]);
                }
            }
        }
        // A record not closed ends with its fields: the game and the record after it are read.
        let text = format!("{cut_short}\n{pgn}\n{wrapped}\n");
        let games: Vec<Game> = read(&text).into_iter().map(Result::unwrap).collect();
        assert_eq!(games.len(), 3);
        assert_eq!(texts(&games[1].moves), ["h2e2", "h9g7"]);
        assert_eq!(games[2].moves.len(), 2);
        // A comment heading a file opens the game after it, whose first tag is named like a
        // field but is a tag.
        let games = read("{Exported}\n[DhtmlXQ_ver \"www_dpxq_com\"]\n[Event \"x\"]\n1. h2e2 *\n");
        assert_eq!(games.len(), 1);
        assert_eq!(
            games[0].as_ref().unwrap().comment.as_deref(),
            Some("Exported")
        );
        // In a comment, a record is words.
        let games = read(&format!(
            "{pgn}\n[Event \"y\"]\n\n1. h2e2 {{{wrapped}}} h9g7 *\n"
        ));
        assert_eq!(games.len(), 2);
        let commented = games[1].as_ref().unwrap();
        assert_eq!(texts(&commented.moves), ["h2e2", "h9g7"]);
        assert!(
            commented.moves[0]
                .comment()
                .unwrap()
                .contains("DhtmlXQ_red")
        );
        // No field: a tag named DhtmlXQ, as before; a field never closed likewise.
        for text in ["[DhtmlXQ]\n1. h2e2 *\n", "[DhtmlXQ_red]A\n1. h2e2 *\n"] {
            let game = read(text).remove(0).unwrap();
            assert_eq!(texts(&game.moves), ["h2e2"], "{text}");
        }
        // A record's error is the game's, and reading goes on after the record.
        let bad = "[DhtmlXQ]\n[DhtmlXQ_binit]0919[/DhtmlXQ_binit]\n[/DhtmlXQ]\n";
        let games = read(&format!("{pgn}{bad}{pgn}"));
        assert_eq!(games.len(), 3);
        let err = games[1].as_ref().unwrap_err();
        assert_eq!(err.game, Some(1));
        assert!(games[2].is_ok());
    }

    #[test]
    fn nested_variations_and_comments_before_variation_moves() {
        let g = read("1. a0a1 (1. i0i1 ({why} 1. b0c2) {after}) a9a8 *")
            .remove(0)
            .unwrap();
        let v = &g.moves[0].variations()[0];
        assert_eq!(texts(v), ["i0i1"]);
        assert_eq!(v[0].comment(), Some("after"));
        let inner = &v[0].variations()[0];
        assert_eq!(inner[0].before(), Some("why"));
    }

    /// A comment after a variation stands before the line's next move, and is read so (not
    /// moved back onto the move the variation hangs on); when no move follows in its line (the
    /// line ends, or another variation of the move opens), it stays after the line's last move.
    #[test]
    fn a_comment_after_a_variation_comes_before_the_next_move() {
        let g = read(
            "1. h2e2 {on h2e2} (1. b2e2 (1. b0c2) {end of b2e2's line}) {between} (1. h2d2) \
             {after both} 1... h9g7 (1... b9c7) {to the end} *",
        )
        .remove(0)
        .unwrap();
        assert_eq!(texts(&g.moves), ["h2e2", "h9g7"]);
        assert_eq!(g.moves[0].comment(), Some("on h2e2\nbetween"));
        assert_eq!(g.moves[0].variations().len(), 2);
        let first = &g.moves[0].variations()[0];
        assert_eq!(first[0].comment(), Some("end of b2e2's line"));
        assert_eq!(g.moves[1].before(), Some("after both"));
        assert_eq!(g.moves[1].comment(), Some("to the end"));
        assert_eq!(g.comment, None);
        // The same inside a variation, and after the result.
        let g = read("1. h2e2 (1. b2e2 (1. b0c2) {x} 1... h9g7) h9g7 (1... b9c7) 1-0 {resigned}")
            .remove(0)
            .unwrap();
        let v = &g.moves[0].variations()[0];
        assert_eq!(texts(v), ["b2e2", "h9g7"]);
        assert_eq!(v[1].before(), Some("x"));
        assert_eq!(g.moves[1].comment(), Some("resigned"));
    }

    #[test]
    fn broken_movetext_is_an_error_with_its_place() {
        let unclosed = read("[Event \"x\"]\n1. h2e2 {never closed\n")
            .remove(0)
            .unwrap_err();
        assert_eq!(unclosed.kind, ReadErrorKind::Syntax);
        assert_eq!(unclosed.line, Some(2));
        // Every place is the character the error is about.
        assert_eq!(unclosed.offset, Some("[Event \"x\"]\n1. h2e2 ".len()));
        assert!(unclosed.message.contains("never closed with }"));
        // Not closed before the next game's tags: an error, and the next game is read (a
        // bracket line that is no tag line is the comment's).
        let before_tags = read(
            "[Event \"a\"]\n1. h2e2 {oops\n[not a tag]\n\n[Event \"b\"]\n1. c3c4 {fine} h9g7 1-0\n",
        );
        assert_eq!(before_tags.len(), 2);
        let err = before_tags[0].as_ref().unwrap_err();
        assert!(
            err.message
                .contains("not closed before the next game's tags"),
            "{}",
            err.message
        );
        assert_eq!(
            texts(&before_tags[1].as_ref().unwrap().moves),
            ["c3c4", "h9g7"]
        );
        // A comment closed only after the longest a comment may be says so.
        let long = format!("1. h2e2 {{{}}} h9g7 *", "x".repeat(MAX_COMMENT + 10));
        let long = read(&long).remove(0).unwrap_err();
        assert_eq!((long.kind, long.offset), (ReadErrorKind::Syntax, Some(8)));
        assert!(
            long.message.contains("not closed within 1 MiB"),
            "{}",
            long.message
        );
        let paren = read("1. h2e2 ) h9g7 *").remove(0).unwrap_err();
        assert_eq!(paren.kind, ReadErrorKind::Syntax);
        assert_eq!(paren.offset, Some(8));
        let result = read("1. h2e2 (h0g2 *").remove(0).unwrap_err();
        assert_eq!(result.offset, Some(14));
        let quote = read("[Event \"x]\n1. h2e2 *").remove(0).unwrap_err();
        assert_eq!(quote.offset, Some(7));
        let open = read("1. h2e2 ( h0g2").remove(0).unwrap_err();
        assert!(open.message.contains("never closed"));
        let deep = read(&format!("1. h2e2 {} *", "(h0g2 ".repeat(1000)))
            .remove(0)
            .unwrap_err();
        assert_eq!(deep.kind, ReadErrorKind::TooDeep);
        // After a broken game the next one is still read.
        let both = read("[Event \"bad\"]\n1. h2e2 )\n[Event \"good\"]\n1. h2e2 *\n");
        assert!(both[0].is_err());
        assert_eq!(both[1].as_ref().unwrap().tag("Event"), Some("good"));
    }

    /// A game whose moves cannot be read loses no game after it: its rest is passed over to its
    /// result (outside comments) or to a tag line, and a game written on without tags is read.
    #[test]
    fn games_after_a_broken_one_are_read() {
        let moves = |text: &str| -> Vec<Option<Vec<String>>> {
            read(text)
                .into_iter()
                .map(|g| {
                    g.ok()
                        .map(|g| texts(&g.moves).iter().map(|t| t.to_string()).collect())
                })
                .collect()
        };
        let ok = |moves: &[&str]| Some(moves.iter().map(|m| m.to_string()).collect::<Vec<_>>());
        assert_eq!(
            moves("1. h2e2 1-0\n\n1. h2e2 ) h9g7 1-0\n\n1. b2e2 b9c7 0-1\n\n1. c3c4 *\n"),
            [ok(&["h2e2"]), None, ok(&["b2e2", "b9c7"]), ok(&["c3c4"])]
        );
        // Results in comments and in words do not end the broken game; on the result's line, a
        // move starts the next.
        assert_eq!(
            moves("1. h2e2 ) {1-0} ; 0-1\nh9g7 x1-0 1-0 2. c3c4 *\n1. h0g2 *"),
            [None, ok(&["c3c4"]), ok(&["h0g2"])]
        );
        // A tag line ends it, inside a comment too; so does the text's end.
        assert_eq!(
            moves("1. h2e2 ) {open\n  [Event \"b\"]\n1. c3c4 *\n1. h2e2 ( h0g2"),
            [None, ok(&["c3c4"]), None]
        );
        // Unicode spaces part words as in moves: the result after one is the result.
        assert_eq!(
            moves("1. h2e2 )\u{3000}1-0\u{3000}\n1. c3c4 *"),
            [None, ok(&["c3c4"])]
        );
        // A result inside a variation (an error) may be the game's end: the game after it is
        // read. One inside a variation of the rest ends the game only as the last word of its
        // line; a variation never closed is outside every variation once its line is done.
        assert_eq!(
            moves("1. h2e2 ( h0g2 1-0\n\n1. c3c4 *\n\n1. b2e2 *\n"),
            [None, ok(&["c3c4"]), ok(&["b2e2"])]
        );
        assert_eq!(
            moves("1. h2e2 ) h9g7 ( h0g2 1-0 )\n2. c3c4 c6c5 0-1\n\n1. b2e2 *"),
            [None, ok(&["b2e2"])]
        );
        assert_eq!(
            moves("1. h2e2 ) h9g7 ( h0g2 1-0 h9g7 ) 2. c3c4 0-1\n1. b2e2 *"),
            [None, ok(&["b2e2"])]
        );
        assert_eq!(
            moves("1. h2e2 ) ( h0g2 1-0  \n1. c3c4 *"),
            [None, ok(&["c3c4"])]
        );
        // A tag line indented with a full-width space ends it too.
        assert_eq!(
            moves("1. h2e2 ) h9g7\n\u{3000}[Event \"x\"]\n1. c3c4 *\n"),
            [None, ok(&["c3c4"])]
        );
        // Moves numbered from 1 again after a blank line, and a result in words ending its
        // line, end it, as in the moves.
        for (text, next) in [
            ("1. h2e2 ) h9g7\n\n1. c3c4 *\n", "c3c4"),
            ("1. h2e2 ) h9g7 {\n\n1. c3c4 } 红胜\n1. b2e2 *\n", "b2e2"),
        ] {
            assert_eq!(moves(text), [None, ok(&[next])], "{text}");
        }
        // A comment never closed takes the rest, to the next tag line.
        assert_eq!(
            moves("1. h2e2 {open 1-0\n1. c3c4 *\n[Event \"b\"]\n1. h0g2 *"),
            [None, ok(&["h0g2"])]
        );
    }

    /// Words before a game's first move number that are no moves in any notation (`第一局`,
    /// `Game 1`) are a heading: said, not read as moves. Moves before it, words with a comment,
    /// and words after a number are read as before.
    #[test]
    fn a_heading_before_the_first_move_number_is_said() {
        let read_as = |text: &str| -> Vec<(Vec<String>, Vec<String>)> {
            read(text)
                .into_iter()
                .map(|g| {
                    let g = g.unwrap();
                    let moves = texts(&g.moves).iter().map(|t| t.to_string()).collect();
                    (moves, g.unread.clone())
                })
                .collect()
        };
        let games = read_as("第一局\n1. 炮二平五 马8进7 1-0\n\n第二局\n1. 兵七进一 卒7进1 0-1\n");
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].0, ["炮二平五", "马8进7"]);
        assert_eq!(
            games[0].1,
            ["the words before the first move number (line 1), a heading, not moves: 第一局"]
        );
        assert_eq!(games[1].0, ["兵七进一", "卒7进1"]);
        let games = read_as("[Event \"A\"]\n\n【決賽】 #2\n1...h9g7 2. h2e2 *");
        assert_eq!(games[0].0, ["h9g7", "h2e2"]);
        assert_eq!(games[0].1.len(), 1);
        assert!(games[0].1[0].ends_with(": 【決賽】 #2"), "{:?}", games[0].1);
        // A move among the words, a word a move may start as (a move written wrong, a word of
        // letters or digits), a word with a comment, words after a number: read as moves.
        for (text, moves) in [
            ("第一局 h2e2\n1. h9g7 *", 3),
            ("第一局 炮二平五+\n1... h9g7 *", 3),
            ("\u{200b}h2e2\n1... h9g7 *", 2),
            ("h2e2,\n1... h9g7 *", 2),
            ("Game 1\n1. h2e2 *", 3),
            ("第一局 {c}\n1. h2e2 *", 2),
            ("1. 第一局 h2e2\n2. h9g7 *", 3),
        ] {
            assert!(read_as(text)[0].1.is_empty(), "{text}");
            assert_eq!(read_as(text)[0].0.len(), moves, "{text}");
        }
    }

    /// A game with a tag that cannot be read fails whole (its tag section and its moves, to its
    /// result) and loses no game after it: one written on without tags is read, as after a
    /// game whose moves cannot be read; its other tags and moves make no game of their own.
    #[test]
    fn games_after_a_broken_tag_are_read() {
        let read_as = |text: &str| -> Vec<Result<Vec<String>, u32>> {
            read(text)
                .into_iter()
                .map(|g| match g {
                    Ok(g) => Ok(texts(&g.moves).iter().map(|t| t.to_string()).collect()),
                    Err(e) => Err(e.line.unwrap_or(0)),
                })
                .collect()
        };
        let ok = |moves: &[&str]| Ok(moves.iter().map(|m| m.to_string()).collect::<Vec<_>>());
        // The broken tag last, then games without tags.
        assert_eq!(
            read_as(
                "[Event \"A\"]\n[Red \"x]\n\n1. h2e2 h9g7 1-0\n\n1. c3c4 0-1\n\n1. b2e2 *\n\n[Event \"D\"]\n\n1. h0g2 1-0\n"
            ),
            [Err(2), ok(&["c3c4"]), ok(&["b2e2"]), ok(&["h0g2"])]
        );
        // The broken tag first, indented or not: the tags after it are its game's.
        for bad in ["[Red \"x]", "  [Red \"x]", "[Red x\"]"] {
            assert_eq!(
                read_as(&format!(
                    "{bad}\n[Black \"y\"]\n  [Event \"z\"]\n1. h2e2 1-0\n1. c3c4 *\n"
                )),
                [Err(1), ok(&["c3c4"])],
                "{bad}"
            );
        }
        // A game of tags alone: the next game's tags, after a blank line, are the next game's.
        // A broken game without a result ends at the next tag line after its moves, or at
        // moves numbered from 1 again after a blank line; a result in words ending its line
        // ends it, as in the moves. Lines of comments alone among the tags are the tag
        // section's.
        for (text, next) in [
            ("[Red \"x]\n\n[Event \"B\"]\n1. h2e2 *\n", ok(&["h2e2"])),
            (
                "[Red \"x]\n\n1. h2e2 h9g7\n2. h0g2\n\n1. c3c4 c6c5 0-1\n",
                ok(&["c3c4", "c6c5"]),
            ),
            // A DhtmlXQ record is a game of its own.
            (
                "[Red \"x]\n{c}\n[DhtmlXQ]\n[DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]\n[/DhtmlXQ]\n",
                ok(&[]),
            ),
        ] {
            assert_eq!(read_as(text), [Err(1), next], "{text}");
        }
        for text in [
            "[Red \"x]\n1. h2e2\n[Event \"B\"]\n1. c3c4 *\n",
            "[Red \"x]\n\n1. h2e2 h9g7 红胜\n\n1. c3c4 *\n",
            "[Red \"x]\n\n1. h2e2 h9g7 红胜 h0g2 *\n\n1. c3c4 *\n",
            "[Red \"x]\n;[Black \"y\"]\n {c}\n[Date \"d\"]\n1. h2e2 h9g7 0-1\n1. c3c4 *\n",
            "[Red \"x]\n{a} {b} ; c\n[Date \"d\"]\n1. h2e2 0-1\n1. c3c4 *\n",
            // (A line of a comment and moves is the moves'.)
            "[Red \"x]\n{c} 1. h2e2 h9g7 1-0\n\n1. c3c4 *\n",
            // A line of moves after `%` is the moves' (`%` is no escape to the reader).
            "[Red \"x]\n% 1. h2e2 h9g7 1-0\n\n1. c3c4 *\n",
            // A tag named as a DhtmlXQ field is a tag.
            "[Red \"x]\n[DhtmlXQ_ver \"1\"]\n1. h2e2 1-0\n\n1. c3c4 *\n",
        ] {
            assert_eq!(read_as(text), [Err(1), ok(&["c3c4"])], "{text}");
        }
        // A line of other spaces than ASCII ones is no blank line before moves numbered anew,
        // as in the moves.
        assert_eq!(
            read_as("[Red \"x]\n\n1. h2e2\n\u{3000}\n1. c3c4 *\n"),
            [Err(1)]
        );
        assert_eq!(read_as("1. h2e2\n\u{3000}\n1. c3c4 *\n").len(), 1);
    }

    /// A game of tags alone (no moves, no result) ends where a blank line and a tag it already
    /// has start the next game; tags given twice within a game's section stay the game's.
    #[test]
    fn a_game_of_tags_alone_keeps_to_itself() {
        let events = |text: &str| -> Vec<(Vec<String>, usize)> {
            read(text)
                .into_iter()
                .map(|g| {
                    let g = g.unwrap();
                    let events = g
                        .tags
                        .iter()
                        .filter(|(n, _)| n == "Event")
                        .map(|(_, v)| v.clone())
                        .collect();
                    (events, g.moves.len())
                })
                .collect()
        };
        let a = |moves| (vec!["A".to_owned()], moves);
        let b = |moves| (vec!["B".to_owned()], moves);
        assert_eq!(
            events("[Event \"A\"]\n\n[Event \"B\"]\n\n1. h2e2 *\n"),
            [a(0), b(1)]
        );
        assert_eq!(
            events("[Event \"A\"]\n[Red \"x\"]\n\n\n[Red \"y\"]\n[Event \"B\"]\n1. h2e2 *"),
            [a(0), b(1)]
        );
        assert_eq!(
            events("[Event \"A\"]\n\n[Site \"s\"]\n\n1. h2e2 *\n"),
            [a(1)]
        );
        // Names in any case; a FEN tag, empty or not, wherever it stands.
        assert_eq!(
            events("[Event \"A\"]\n[Red \"x\"]\n\n[event \"b\"]\n[red \"y\"]\n\n1. h2e2 *\n").len(),
            2
        );
        for fen in [
            "[Event \"A\"]\n[FEN \"\"]\n\n[FEN \"\"]\n[Event \"B\"]\n1. h2e2 *\n",
            "[Event \"A\"]\n\n[FEN \"\"]\n\n[FEN \"\"]\n[Event \"B\"]\n1. h2e2 *\n",
        ] {
            assert_eq!(events(fen), [a(0), b(1)], "{fen}");
        }
        assert_eq!(
            events("[Event \"A\"]\n[Event \"B\"]\n1. h2e2 *\n"),
            [(vec!["A".to_owned(), "B".to_owned()], 1)]
        );
        // Comments after a blank line between tags: as the tag line after them would be (the
        // game's, read on; or, a tag it has, the next game's).
        for text in [
            "[Event \"A\"]\n\n{note}\n[Red \"x\"]\n\n1. h2e2 *\n",
            "[Event \"A\"]\n\n; note\n\n{more}\n\n[Red \"x\"]\n1. h2e2 *\n",
        ] {
            let games = read(text);
            assert_eq!(games.len(), 1, "{text}");
            let game = games[0].as_ref().unwrap();
            assert_eq!(game.tag("Red"), Some("x"), "{text}");
            assert!(
                game.comment.as_deref().unwrap().starts_with("note"),
                "{text}"
            );
            assert_eq!(game.moves.len(), 1, "{text}");
        }
        assert_eq!(
            events("[Event \"A\"]\n\n{note}\n[Event \"B\"]\n\n1. h2e2 *\n"),
            [a(0), b(1)]
        );
    }

    /// Whatever a tag value holds, the writer writes it so that it reads back the same
    /// (quotes, backslashes and `]` in any order).
    #[test]
    fn tag_values_the_writer_writes_read_back() {
        for value in [
            "He said \"stop\"] and left",
            "{\"]{",
            "a\\b",
            "D:\\棋谱\\",
            "\"",
            "\\\"]",
            "x\" ] [Site \"B\"]",
            "]\"",
        ] {
            let game = Game {
                tags: vec![
                    ("Event".to_owned(), value.to_owned()),
                    ("Site".to_owned(), "S".to_owned()),
                ],
                ..Game::default()
            };
            let written = crate::write::write_pgn(&[game], crate::write::PgnOptions::default());
            let text = String::from_utf8(written.bytes).unwrap();
            let back = read(&text).remove(0).unwrap();
            assert_eq!(back.tag("Event"), Some(value), "{text}");
            assert_eq!(back.tag("Site"), Some("S"), "{text}");
            assert!(back.unread.is_empty(), "{text}: {:?}", back.unread);
        }
    }

    /// The bytes looked for are those of the characters a result in words starts with; no
    /// move starts so.
    #[test]
    fn outcome_words_are_told_by_their_first_bytes() {
        for c in ['红', '紅', '黑', '和', '不', '双', '雙'] {
            assert!(may_be_outcome_word(&format!("{c}胜")), "{c}");
        }
        for mv in [
            "车一平二",
            "馬８進７",
            "炮二平五",
            "兵七进一",
            "前马退六",
            "後車平四",
            "中兵进一",
            "一路兵进一",
        ] {
            assert!(!may_be_outcome_word(mv), "{mv}");
        }
        assert_eq!(outcome_word("红胜"), Some("1-0"));
        assert_eq!(outcome_word("黑方认负"), None);
        assert_eq!(outcome_word("和棋"), Some("1/2-1/2"));
        assert_eq!(outcome_word("红先"), None);
    }

    #[test]
    fn a_path_ending_in_a_backslash_keeps_the_tags_after_it() {
        let game = &read("[Event \"E\"] [Source \"D:\\棋谱\\\"] [Site \"S\"]\n\n1. h2e2 *\n")[0];
        let game = game.as_ref().unwrap();
        assert_eq!(game.tag("Source"), Some("D:\\棋谱\\"));
        assert_eq!(game.tag("Site"), Some("S"));
        assert!(game.unread.is_empty(), "{:?}", game.unread);
    }

    #[test]
    fn tag_values_to_the_closing_quote_escapes_undone() {
        for (body, value, closed) in [
            ("王嘉良\"]", "王嘉良", true),
            ("  1-0 \"]", "1-0", true),
            ("\"]", "", true),
            ("a \\\"b\\\" c\"] x", "a \"b\" c", true),
            ("a\\\\b\"]", "a\\b", true),
            ("no end", "no end", false),
            ("escaped \\\"only", "escaped \"only", false),
            // Quotes inside a value, not escaped: the value's, up to the quote before `]`.
            ("The \"Cup\" final\"]", "The \"Cup\" final", true),
            ("\"Cup\" \"]  ", "\"Cup\"", true),
            ("a\"b\"", "a\"b", true),
            ("A\"] [Site \"B\"]", "A", true),
            // No quote before `]`: the first closes (the words after are said), and a value
            // never reaches past a `]` (to the next tag's quotes).
            ("Hu\" GM]", "Hu", true),
            ("Hu\" GM] [Black \"Xu\"]", "Hu", true),
            ("A\"x] [Site \"B\"]", "A", true),
            ("2020.01.01\" Saturday] [Round \"1\"]", "2020.01.01", true),
            ("A\" GM] 1. 炮二平五 {他说\"好\"]} 马8进7 *", "A", true),
            ("Cup [2] final\"]", "Cup [2] final", true),
            // Spaces before the `]`, full-width and no-break ones too.
            ("A\"\u{3000}] [Site \"B\"]", "A", true),
            ("A\"\u{a0}]", "A", true),
            // A backslash escapes a quote or a backslash only; one ending the value is its own.
            ("D:\\棋谱\\game.pgn\"]", "D:\\棋谱\\game.pgn", true),
            // A backslash before the quote ending the line's tags is the value's.
            ("D:\\棋谱\\\"]", "D:\\棋谱\\", true),
            ("D:\\棋谱\\\"] [Site \"S\"]", "D:\\棋谱\\", true),
            ("D:\\棋谱\\\"\u{3000}]", "D:\\棋谱\\", true),
            (
                "He said \\\"stop\\\"] and left\"]",
                "He said \"stop\"] and left",
                true,
            ),
            ("x\\", "x\\", false),
        ] {
            let (read, end) = tag_value(body);
            assert_eq!((read.as_str(), end.is_some()), (value, closed), "{body}");
            // The value ends after its closing quote.
            if let Some(end) = end {
                assert!(body[..end].ends_with('"'), "{body}");
            }
        }
        let game = &read("[Event \"A \\\"B\\\"\"]\n[Red \" 王 \"]\n\n1. 炮二平五 *\n")[0];
        let game = game.as_ref().unwrap();
        assert_eq!(game.tag("Event"), Some("A \"B\""));
        assert_eq!(game.tag("Red"), Some("王"));
        let game = &read("[Event \"The \"Cup\" final\"]\n[Red \"Hu\" GM]\n\n1. 炮二平五 *\n")[0];
        let game = game.as_ref().unwrap();
        assert_eq!(game.tag("Event"), Some("The \"Cup\" final"));
        assert_eq!(game.tag("Red"), Some("Hu"));
        assert!(
            says(game, "[Red …] on its line 2, not read: GM"),
            "{:?}",
            game.unread
        );
        let game = &read(
            "[Red \"Hu\" GM] [Black \"Xu\"]\n[Event \"A\"\u{3000}] [Site \"B\"]\n\n1. 炮二平五 *\n",
        )[0];
        let game = game.as_ref().unwrap();
        let tags: Vec<_> = game.tags.iter().map(|(n, v)| format!("{n}={v}")).collect();
        assert_eq!(
            tags,
            ["Red=Hu", "Black=Xu", "Event=A", "Site=B", "Result=*"]
        );
        assert!(
            says(game, "[Red …] on its line 1, not read: GM"),
            "{:?}",
            game.unread
        );
    }

    #[test]
    fn move_numbers() {
        assert_eq!(strip_move_number("12."), None);
        assert_eq!(strip_move_number("1.炮二平五"), Some("炮二平五"));
        assert_eq!(strip_move_number("3..."), None);
        assert_eq!(strip_move_number("3+.4"), Some("3+.4"));
        assert_eq!(strip_move_number("15=6"), Some("15=6"));
        // WXF's pawns named by file and place: a move, after a number or not.
        assert_eq!(strip_move_number("44.3"), Some("44.3"));
        assert_eq!(strip_move_number("33.4"), Some("33.4"));
        assert_eq!(strip_move_number("12.44.3"), Some("44.3"));
        assert_eq!(strip_move_number("12.5"), Some("12.5"));
        assert_eq!(strip_move_number("12.x"), Some("x"));
        assert_eq!(strip_move_number("12．"), None);
        // The quick answers (a number alone, a number then ASCII) are the general ones.
        for token in [
            "12.",
            "1.h2e2",
            "7.C2.5",
            "3...",
            "12.x",
            "9.+",
            "12．",
            "12.、炮二平五",
        ] {
            let digits = token.bytes().take_while(u8::is_ascii_digit).count();
            let dots = token[digits..].bytes().take_while(|&b| b == b'.').count();
            let general = strip_number_otherwise(token, digits, dots);
            assert_eq!(strip_number(token), general, "{token}");
        }
        let game = read("[FEN \"5k3/9/9/9/9/9/3pp4/3pp4/3p5/R3K4 w - - 0 1\"]\n1. R9+1 44.3 *\n");
        assert_eq!(texts(&game[0].as_ref().unwrap().moves), ["R9+1", "44.3"]);
    }
}
