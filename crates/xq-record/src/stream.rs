//! Reading the games of a file one by one, in bounded memory for PGN.
//!
//! A PGN archive can be any size: it is read in pieces of about a megabyte (cut at line ends; a
//! line longer than [`Limits::max_line`] is cut after a space or punctuation), each decoded once
//! (line by line, as [`crate::encoding`] says) and read by the same [`PgnReader`] that reads a
//! whole file. The reader says for each game whether more text could change it (its reading reached the piece's end); such a
//! game is read again with the next piece. Every game is bounded ([`crate::pgn::MAX_GAME`]), so the
//! stream holds at most a piece and a game, and the work is linear in the file: the games are
//! those of reading the file whole, numbered as in it (game index, line, byte offset).
//! Other formats are small by nature (one game per XQF/CBR/CBF file; a CBL library is a few
//! megabytes) and are read whole, up to [`Limits::max_whole`] bytes.
//!
//! The encoding and format are told from the file's head (its first 64 KiB, cut at a line end).
//! UTF-16 text is read whole.

use std::{
    collections::VecDeque,
    io::{self, BufRead, BufReader, Read},
    path::Path,
};

use crate::{
    encoding::{self, Encoding, TextDecoder},
    error::{ReadError, ReadErrorKind},
    format::{self, Format, ReadOptions, Records},
    game::Game,
    pgn::{PgnReader, Skip, Step},
    place::Place,
};

/// How much of a file is looked at to tell its encoding and format.
pub(crate) const HEAD: usize = 64 * 1024;

/// The size a PGN piece grows to before it is cut at the next line end.
pub(crate) const CHUNK: usize = 1 << 20;

/// The most a file read whole (every format but PGN in UTF-8, GBK or Big5) may hold.
pub const MAX_WHOLE: u64 = 64 << 20;

/// The sizes a stream works with (tests and fuzzers make them tiny).
#[doc(hidden)]
#[derive(Copy, Clone, Debug)]
pub struct Limits {
    /// Bytes looked at to tell the encoding and format; a file shorter than this is read whole.
    pub head: usize,
    /// The size of a PGN piece.
    pub chunk: usize,
    /// The longest line read in one piece.
    pub max_line: usize,
    /// The most text one game may take ([`crate::pgn::MAX_GAME`]).
    pub max_game: usize,
    /// The most a file read whole may hold ([`MAX_WHOLE`]).
    pub max_whole: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            head: HEAD,
            chunk: CHUNK,
            max_line: CHUNK,
            max_game: crate::pgn::MAX_GAME,
            max_whole: MAX_WHOLE,
        }
    }
}

/// The games of one file, read lazily.
pub struct GameStream<'r> {
    format: Format,
    encoding: Option<Encoding>,
    not_games: Vec<String>,
    inner: Inner<'r>,
}

enum Inner<'r> {
    Loaded(std::vec::IntoIter<Result<Game, ReadError>>),
    Pgn(Box<PgnChunks<'r>>),
}

impl std::fmt::Debug for GameStream<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameStream")
            .field("format", &self.format)
            .field("encoding", &self.encoding)
            .finish_non_exhaustive()
    }
}

impl<'r> GameStream<'r> {
    /// The format being read.
    pub fn format(&self) -> Format {
        self.format
    }

    /// The text encoding, for text formats.
    pub fn encoding(&self) -> Option<Encoding> {
        self.encoding
    }

    /// Records of the file that are not games (a library's section titles), in words.
    pub fn not_games(&self) -> &[String] {
        &self.not_games
    }

    /// Opens the file at `path`.
    ///
    /// # Errors
    /// When the file cannot be opened or its head cannot be read, or nothing in it can be read.
    pub fn open(path: &Path, options: ReadOptions) -> Result<GameStream<'static>, ReadError> {
        let file = std::fs::File::open(path).map_err(|e| io_error(&e))?;
        let extension = path.extension().and_then(|e| e.to_str()).map(str::to_owned);
        GameStream::from_reader(file, extension.as_deref(), options)
    }

    /// Reads games from `source` (a file's bytes, from the start); `extension` is the file's, if
    /// any (it decides only what the content leaves open).
    ///
    /// # Errors
    /// As [`GameStream::open`].
    pub fn from_reader(
        source: impl Read + Send + 'r,
        extension: Option<&str>,
        options: ReadOptions,
    ) -> Result<GameStream<'r>, ReadError> {
        GameStream::with_chunk(source, extension, options, CHUNK)
    }

    /// As [`GameStream::from_reader`], with PGN chunks of about `chunk` bytes (tests use tiny ones).
    ///
    /// # Errors
    /// As [`GameStream::open`].
    pub(crate) fn with_chunk(
        source: impl Read + Send + 'r,
        extension: Option<&str>,
        options: ReadOptions,
        chunk: usize,
    ) -> Result<GameStream<'r>, ReadError> {
        let limits = Limits {
            chunk,
            ..Limits::default()
        };
        GameStream::with_limits(source, extension, options, limits)
    }

    /// As [`GameStream::from_reader`], with all sizes given.
    ///
    /// # Errors
    /// As [`GameStream::open`].
    #[doc(hidden)]
    pub fn with_limits(
        mut source: impl Read + Send + 'r,
        extension: Option<&str>,
        options: ReadOptions,
        limits: Limits,
    ) -> Result<GameStream<'r>, ReadError> {
        let mut head = Vec::with_capacity(limits.head.min(1 << 16));
        (&mut source)
            .take(limits.head as u64)
            .read_to_end(&mut head)
            .map_err(|e| io_error(&e))?;
        let whole = head.len() < limits.head;
        let loaded = |bytes: &[u8]| -> Result<GameStream<'r>, ReadError> {
            let records = format::read_with(bytes, extension, options, limits.max_game)?;
            let Records {
                format,
                encoding,
                games,
                not_games,
            } = records;
            Ok(GameStream {
                format,
                encoding,
                not_games,
                inner: Inner::Loaded(games.into_iter()),
            })
        };
        if whole {
            return loaded(&head);
        }
        // Tell the encoding and format from the head, cut at a line end.
        let cut = head
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(head.len(), |i| i + 1);
        let binary = format::is_binary(&head);
        let encoding = (!binary).then(|| {
            options
                .encoding
                .unwrap_or_else(|| encoding::detect(&head[..cut]))
        });
        let text = encoding.map(|enc| encoding::decode(&head[..cut], enc));
        let format = match options.format {
            Some(format) => format,
            None => {
                let format = format::sniff(&head, extension, text.as_deref());
                format::check_claimed(format, extension)?;
                format
            }
        };
        let streamable = format == Format::Pgn
            && matches!(
                encoding,
                Some(Encoding::Utf8 | Encoding::Gbk | Encoding::Big5)
            );
        if !streamable {
            // Read whole, but never more than a record of this kind can be (`/dev/zero`, a
            // mislabelled disk image).
            (&mut source)
                .take(limits.max_whole.saturating_sub(head.len() as u64) + 1)
                .read_to_end(&mut head)
                .map_err(|e| io_error(&e))?;
            if head.len() as u64 > limits.max_whole {
                return Err(ReadError::new(
                    ReadErrorKind::TooLarge,
                    format!(
                        "larger than {} MiB, which no {format} record is: not read (PGN in UTF-8, GBK or Big5 is read in pieces, whatever its size)",
                        limits.max_whole >> 20
                    ),
                ));
            }
            return loaded(&head);
        }
        let encoding = encoding.unwrap_or(Encoding::Utf8);
        let ascii_head = options.encoding.is_none() && encoding::is_ascii_so_far(&head[..cut]);
        let src: Box<dyn BufRead + Send + 'r> = Box::new(BufReader::with_capacity(
            1 << 16,
            io::Cursor::new(head).chain(source),
        ));
        let chunks = PgnChunks {
            src,
            decoder: if ascii_head {
                // Nothing told yet: the first piece with other bytes tells.
                TextDecoder::undecided()
            } else {
                TextDecoder::new(encoding, options.encoding.is_none())
            },
            encoding,
            limits,
            text: String::new(),
            offset: 0,
            line: 1,
            game: 0,
            skip: Skip::None,
            line_start: true,
            eof: false,
            started: false,
            leftover: Vec::new(),
            pending: VecDeque::new(),
            done: false,
        };
        Ok(GameStream {
            format,
            encoding: Some(encoding),
            not_games: Vec::new(),
            inner: Inner::Pgn(Box::new(chunks)),
        })
    }
}

impl Iterator for GameStream<'_> {
    type Item = Result<Game, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        match &mut self.inner {
            Inner::Loaded(games) => games.next(),
            Inner::Pgn(chunks) => chunks.next(),
        }
    }
}

fn io_error(err: &io::Error) -> ReadError {
    ReadError::new(ReadErrorKind::Io, format!("cannot read the file: {err}"))
}

/// PGN text read a piece at a time.
struct PgnChunks<'r> {
    src: Box<dyn BufRead + Send + 'r>,
    decoder: TextDecoder,
    encoding: Encoding,
    limits: Limits,
    /// Decoded text not yet read into games (the start of a game, or nothing).
    text: String,
    /// The byte offset in the file of `text`'s start.
    offset: usize,
    /// The line (1-based) on which `text` starts.
    line: u32,
    /// The index of the next game.
    game: usize,
    /// What the reader is to skip before the next game.
    skip: Skip,
    /// Whether `text` starts at the start of a line.
    line_start: bool,
    /// Whether the source is read to its end.
    eof: bool,
    /// Whether a piece was read.
    started: bool,
    /// Bytes read but left for the next piece (a long line cut between two characters).
    leftover: Vec<u8>,
    pending: VecDeque<Result<Game, ReadError>>,
    done: bool,
}

impl PgnChunks<'_> {
    fn next(&mut self) -> Option<Result<Game, ReadError>> {
        loop {
            if let Some(item) = self.pending.pop_front() {
                return Some(item);
            }
            if self.done {
                return None;
            }
            if let Err(err) = self.fill() {
                self.done = true;
                let mut err = io_error(&err).at(self.offset).on_line(self.line);
                err.game = Some(self.game);
                return Some(Err(err));
            }
        }
    }

    /// Reads at least `want` bytes (unless the source ends), then on to a line end: a LF, or a
    /// CR not followed by LF. A line longer than `max_line` is cut after a byte below `0`
    /// (space, punctuation), which is never part of a multi-byte character in UTF-8, GBK or Big5.
    fn read_bytes(&mut self, want: usize) -> io::Result<Vec<u8>> {
        let mut out: Vec<u8> = Vec::with_capacity(want + 4096);
        out.append(&mut self.leftover);
        loop {
            let buf = self.src.fill_buf()?;
            if buf.is_empty() {
                self.eof = true;
                return Ok(out);
            }
            if out.len() < want {
                let n = buf.len().min(want - out.len());
                out.extend_from_slice(&buf[..n]);
                self.src.consume(n);
                continue;
            }
            if out.last() == Some(&b'\r') {
                if buf[0] == b'\n' {
                    out.push(b'\n');
                    self.src.consume(1);
                }
                return Ok(out);
            }
            if let Some(i) = buf.iter().position(|&b| b == b'\n' || b == b'\r') {
                let lf = buf[i] == b'\n';
                out.extend_from_slice(&buf[..=i]);
                self.src.consume(i + 1);
                if lf {
                    return Ok(out);
                }
                continue;
            }
            let over = out.len() - want + buf.len();
            if over > self.limits.max_line {
                if let Some(j) = buf.iter().rposition(|&b| b < b'0' && b != b'\r') {
                    out.extend_from_slice(&buf[..=j]);
                    self.src.consume(j + 1);
                    return Ok(out);
                }
                if over > 2 * self.limits.max_line {
                    // No space or punctuation to cut after: cut between two characters.
                    let n = buf.len();
                    out.extend_from_slice(buf);
                    self.src.consume(n);
                    let cut = char_boundary(&out, self.encoding);
                    self.leftover = out.split_off(cut);
                    return Ok(out);
                }
            }
            let n = buf.len();
            out.extend_from_slice(buf);
            self.src.consume(n);
        }
    }

    fn fill(&mut self) -> io::Result<()> {
        if !self.eof {
            // At least as much as is held: a long game is read again at most a few times.
            let want = self.limits.chunk.max(self.text.len()).max(1);
            let bytes = self.read_bytes(want)?;
            let first = !self.started;
            self.started = true;
            let piece = self.decoder.decode(&bytes);
            if first {
                self.offset = self.decoder.bom_len();
            }
            self.encoding = self.decoder.encoding();
            self.text.push_str(&piece);
        }
        let mut reader = PgnReader::resume(
            &self.text,
            self.line,
            self.game,
            self.skip,
            self.line_start,
            self.limits.max_game,
        );
        let mut place = Place::new(self.offset);
        let (from, skip, game) = loop {
            match reader.step(self.eof) {
                Step::Game(item) => {
                    let item = place.locate(item, &self.text, self.encoding);
                    self.pending.push_back(item);
                }
                Step::Done => {
                    self.done = true;
                    self.text = String::new();
                    return Ok(());
                }
                Step::More { from, skip } => break (from, skip, reader.next_game()),
            }
        };
        let consumed = &self.text[..from];
        self.offset = place.offset(&self.text, from, self.encoding);
        self.line += consumed.bytes().filter(|&b| b == b'\n').count() as u32;
        if from > 0 {
            self.line_start = consumed.ends_with('\n');
        }
        self.game = game;
        self.skip = skip;
        self.text.drain(..from);
        Ok(())
    }
}

/// The last place in `bytes` (which start at a character's start) that is between two characters
/// in `encoding`, and not between a CR and what follows it; never 0 if `bytes` hold a whole
/// character.
fn char_boundary(bytes: &[u8], encoding: Encoding) -> usize {
    let mut cut = match encoding {
        Encoding::Utf8 => (1..bytes.len())
            .rev()
            .find(|&i| !(0x80..0xC0).contains(&bytes[i]))
            .unwrap_or(bytes.len()),
        // GBK and Big5: a byte from 0x81 up leads a pair (GB18030's four-byte codes are two
        // such pairs); walk them from the start.
        _ => {
            let (mut i, mut last) = (0, 0);
            while i < bytes.len() {
                last = i;
                i += if bytes[i] >= 0x81 { 2 } else { 1 };
            }
            if i == bytes.len() { i } else { last }
        }
    };
    while cut > 1 && bytes[cut - 1] == b'\r' {
        cut -= 1;
    }
    cut.max(1).min(bytes.len())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn pgn(n: usize) -> String {
        let mut s = String::new();
        for i in 0..n {
            s.push_str(&format!("[Event \"game {i}\"]\n[Result \"*\"]\n\n1. 炮二平五 {{a comment\n[with a bracket line]\n}} 马８进７ *\n\n"));
        }
        s
    }

    fn events(stream: GameStream<'_>) -> Vec<String> {
        stream
            .map(|g| g.unwrap().tag("Event").unwrap_or("").to_owned())
            .collect()
    }

    #[test]
    fn chunks_give_the_same_games_as_reading_whole() {
        let text = pgn(3000);
        assert!(text.len() > HEAD);
        let whole: Vec<String> = format::read(text.as_bytes(), Some("pgn"), ReadOptions::default())
            .unwrap()
            .games
            .into_iter()
            .map(|g| g.unwrap().tag("Event").unwrap_or("").to_owned())
            .collect();
        for chunk in [1, 100, 4096, CHUNK] {
            let stream =
                GameStream::with_chunk(text.as_bytes(), Some("pgn"), ReadOptions::default(), chunk)
                    .unwrap();
            assert!(matches!(stream.inner, Inner::Pgn(_)), "streamed");
            assert_eq!(events(stream), whole, "chunk {chunk}");
        }
        assert_eq!(whole.len(), 3000);
    }

    #[test]
    fn pieces_place_moves_and_start_positions_as_reading_whole_does() {
        // As the pgn_stream fuzzer checks: whole games equal, with the file offsets of their
        // moves and start positions, whatever the sizes of the head, the pieces and the lines.
        let mut text = pgn(40);
        text.push_str("[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/车NBAKABNR w\"]\n\n1. 炮二平五 (1. 炮二进九) 马８进７\n2. 马二进四 *\n\n");
        text.push_str(&pgn(3));
        for encoding in [Encoding::Utf8, Encoding::Gbk] {
            let bytes = encoding::encode(&text, encoding).into_owned();
            let options = ReadOptions {
                encoding: Some(encoding),
                format: Some(Format::Pgn),
            };
            let whole = format::read(&bytes, Some("pgn"), options).unwrap().games;
            assert!(whole.iter().flatten().any(|g| g.fen_offset.is_some()));
            for (head, chunk, max_line) in [(1, 1, 1), (16, 9, 3), (200, 64, 17), (4096, 333, 40)] {
                let limits = Limits {
                    head,
                    chunk,
                    max_line,
                    ..Limits::default()
                };
                let streamed: Vec<_> =
                    GameStream::with_limits(&bytes[..], Some("pgn"), options, limits)
                        .unwrap()
                        .collect();
                assert_eq!(streamed, whole, "{encoding:?} {limits:?}");
            }
        }
    }

    #[test]
    fn errors_keep_their_place_in_the_file() {
        let mut text = pgn(2000);
        let bad_game = 1500;
        let at = text.match_indices("[Event").nth(bad_game).unwrap().0;
        text.insert_str(at, "[Event \"broken\"]\n\n1. 炮二平五 ( 马８进７\n\n");
        let line = text[..at].matches('\n').count() as u32 + 1;
        let encoded = encoding::encode(&text, Encoding::Gbk).into_owned();
        let byte = encoding::encode(&text[..at], Encoding::Gbk).len();
        for chunk in [1, 5000, CHUNK] {
            let stream =
                GameStream::with_chunk(encoded.as_slice(), None, ReadOptions::default(), chunk)
                    .unwrap();
            assert_eq!(stream.encoding(), Some(Encoding::Gbk));
            let games: Vec<_> = stream.collect();
            assert_eq!(games.len(), 2001);
            let err = games[bad_game].as_ref().unwrap_err();
            assert_eq!(err.game, Some(bad_game));
            assert_eq!(err.kind, ReadErrorKind::Syntax);
            let err_line = err.line.unwrap();
            assert!(
                err_line >= line && err_line <= line + 3,
                "line {err_line} near {line}"
            );
            let off = err.offset.unwrap();
            assert!(off >= byte && off < byte + 60, "offset {off} near {byte}");
            assert_eq!(games[bad_game + 1].as_ref().unwrap().line, Some(line + 4));
        }
    }

    #[test]
    fn small_files_and_other_formats_are_read_whole() {
        let text = pgn(2);
        let stream =
            GameStream::from_reader(text.as_bytes(), None, ReadOptions::default()).unwrap();
        assert!(matches!(stream.inner, Inner::Loaded(_)));
        assert_eq!(stream.count(), 2);
    }

    /// Pieces of PGN text, good and bad, to make files from.
    const PIECES: &[&str] = &[
        "[Event \"game\"]\n",
        "[Event \"Cup {final\"]\n",
        "[Site \"a}b\"]\n",
        "  [Round \"1\"]\n",
        "[Red \"unclosed\n",
        "1. 炮二平五 马８进７ ",
        "2. h2e2 h9g7 ",
        "{a comment}",
        "{see {ref}",
        "{ never closed ",
        "}",
        "{a\n[Event \"inside\"]\n}",
        "; to the end {\n",
        "(",
        ")",
        "1-0\n",
        "*\n",
        "junk after the result\n",
        "\n",
        "\r\n",
        "\r",
        "\u{feff}[Event \"bom\"]\n",
        "[",
        "]",
        "\"",
        " ",
        "\t",
        "车一平二\u{3000}",
    ];

    fn generated(rng: &mut u64, pieces: usize) -> String {
        let mut next = || {
            *rng ^= *rng << 13;
            *rng ^= *rng >> 7;
            *rng ^= *rng << 17;
            *rng
        };
        let mut text = String::new();
        for _ in 0..pieces {
            text.push_str(PIECES[(next() % PIECES.len() as u64) as usize]);
        }
        text
    }

    type Read = Result<Vec<Result<Game, ReadError>>, ReadError>;

    /// What reading whole gives, and what streaming gives with the given sizes.
    pub(crate) fn both(bytes: &[u8], options: ReadOptions, limits: Limits) -> (Read, Read) {
        let whole =
            format::read_with(bytes, Some("pgn"), options, limits.max_game).map(|r| r.games);
        let streamed =
            GameStream::with_limits(bytes, Some("pgn"), options, limits).map(Iterator::collect);
        (whole, streamed)
    }

    #[test]
    fn streamed_is_whole_for_odd_braces_brackets_and_comments() {
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        let options = ReadOptions {
            format: Some(Format::Pgn),
            ..ReadOptions::default()
        };
        for case in 0..3000 {
            let pieces = 5 + case % 120;
            let text = generated(&mut rng, pieces);
            let limits = Limits {
                head: 1 + case % 50,
                chunk: 1 + case % 97,
                max_line: 1 + case % 61,
                max_game: 16 + case % 700,
                max_whole: MAX_WHOLE,
            };
            for bytes in [
                text.as_bytes().to_vec(),
                encoding::encode(&text, Encoding::Gbk).into_owned(),
            ] {
                let (whole, streamed) = both(&bytes, options, limits);
                assert_eq!(streamed, whole, "case {case} {limits:?}: {text:?}");
            }
        }
    }

    #[test]
    fn an_unmatched_brace_early_costs_nothing_later() {
        // Before, the cutter counted braces over everything read after every game: an unmatched
        // `{` made it re-read the whole rest of the file for each game.
        let mut text =
            String::from("[Event \"Cup {final\"]\n\n1. 炮二平五 {see {ref} 马８进７ *\n\n");
        text.push_str(&pgn(20_000));
        let stream =
            GameStream::with_chunk(text.as_bytes(), Some("pgn"), ReadOptions::default(), 4096)
                .unwrap();
        let games: Vec<_> = stream.collect();
        assert_eq!(games.len(), 20_001);
        assert!(games.iter().all(Result::is_ok));
        // A stray `}` never lets a cut fall inside a later comment.
        let mut text = String::from("[Event \"x\"]\n\n1. 炮二平五 } 马８进７ *\n\n");
        text.push_str(&pgn(3000));
        let (whole, streamed) = both(
            text.as_bytes(),
            ReadOptions::default(),
            Limits {
                chunk: 100,
                ..Limits::default()
            },
        );
        assert_eq!(streamed, whole);
        assert_eq!(
            streamed.unwrap().iter().filter(|g| g.is_err()).count(),
            whole.unwrap().iter().filter(|g| g.is_err()).count()
        );
    }

    #[test]
    fn a_game_is_bounded() {
        let mut text = String::from("[Event \"huge\"]\n\n1. ");
        text.push_str(&"炮二平五 马８进７ ".repeat(1000));
        text.push_str("*\n\n");
        text.push_str(&pgn(3));
        let limits = Limits {
            max_game: 4096,
            chunk: 512,
            head: 100,
            ..Limits::default()
        };
        let (whole, streamed) = both(text.as_bytes(), ReadOptions::default(), limits);
        let streamed = streamed.unwrap();
        assert_eq!(Ok(streamed.clone()), whole);
        assert_eq!(streamed.len(), 4);
        let err = streamed[0].as_ref().unwrap_err();
        assert_eq!(err.kind, ReadErrorKind::TooLarge);
        assert!(streamed[1..].iter().all(Result::is_ok));
    }

    #[test]
    fn another_encodings_mark_never_switches_the_decoding() {
        // Found by the pgn_stream fuzzer: with UTF-8 given, a UTF-16 byte-order mark made the
        // whole file UTF-16 when read whole, and only the first piece when streamed.
        let mut bytes = vec![0xFF, 0xFE];
        bytes.extend_from_slice(pgn(40).as_bytes());
        let options = ReadOptions {
            encoding: Some(Encoding::Utf8),
            format: Some(Format::Pgn),
        };
        let limits = Limits {
            head: 8,
            chunk: 129,
            ..Limits::default()
        };
        let (whole, streamed) = both(&bytes, options, limits);
        assert_eq!(streamed, whole);
        // The two bytes are no UTF-8: a game of their own, said as U+FFFD, then the 40.
        assert_eq!(whole.unwrap().len(), 41);
    }

    #[test]
    fn blank_lines_between_games_are_not_carried() {
        // Spaces before the first game were carried to the next piece and scanned again:
        // megabytes of blank lines made the stream quadratic (after a game they are skipped).
        let mut text = " \n".repeat(1_500_000);
        text.push_str(&pgn(2));
        text.push_str(&" \n".repeat(1_500_000));
        text.push_str(&pgn(2));
        let limits = Limits {
            chunk: 4096,
            head: 100,
            ..Limits::default()
        };
        let (whole, streamed) = both(text.as_bytes(), ReadOptions::default(), limits);
        assert_eq!(streamed, whole);
        assert_eq!(whole.unwrap().len(), 4);
        // What the stream holds stays about a piece, fill after fill.
        let mut stream =
            GameStream::with_limits(text.as_bytes(), Some("pgn"), ReadOptions::default(), limits)
                .unwrap();
        let Inner::Pgn(chunks) = &mut stream.inner else {
            panic!("streamed")
        };
        let mut most = 0;
        while !chunks.done {
            chunks.fill().unwrap();
            most = most.max(chunks.text.len());
        }
        assert_eq!(chunks.pending.len(), 4);
        assert!(most < 64 << 10, "held {most} bytes");
    }
}
