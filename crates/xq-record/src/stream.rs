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
    encoding::{self, Encoding, Replaced, TextDecoder},
    error::{ReadError, ReadErrorKind},
    format::{self, Format, ReadOptions, Records},
    game::Game,
    pgn::{PgnReader, Skip, Step},
    place::{Place, newlines},
};

/// How much of a file is looked at to tell its encoding and format.
pub(crate) const HEAD: usize = 64 * 1024;

/// The size a PGN piece grows to before it is cut at the next line end.
pub(crate) const CHUNK: usize = 1 << 20;

/// The size a piece read on its own grows to ([`GameStream::next_piece`]) before it is cut at the
/// next line that likely starts a game: small enough that the pieces in flight and their games
/// hold little memory, large enough that most start at a game.
pub(crate) const PIECE: usize = 256 << 10;

/// The bytes of a piece for which room for one game is made before it is read: most games of
/// real archives take 1 to 3 KiB (a game of 80 plies in Chinese with its tags, 1.5 KiB), so the
/// room is mostly enough; a piece of shorter games grows it.
const GAME_ROOM: usize = 1 << 10;

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

    /// The text encoding, for text formats, as told so far: a PGN file whose head is ASCII is
    /// told by its first bytes that are not, further on (the games before them are ASCII, which
    /// reads the same in every encoding), so that this may change as games are read.
    pub fn encoding(&self) -> Option<Encoding> {
        match &self.inner {
            Inner::Pgn(chunks) => Some(chunks.encoding),
            Inner::Loaded(_) => self.encoding,
        }
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
        let (encoding, text) = if binary {
            (None, None)
        } else {
            let (enc, text) = encoding::decode_detected(&head[..cut], options.encoding);
            (Some(enc), Some(text))
        };
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
            }
            .ending_lines_at_lone_crs(),
            encoding,
            limits,
            at: Reading {
                text: String::new(),
                offset: 0,
                end: 0,
                replaced: Vec::new(),
                line: 1,
                game: 0,
                skip: Skip::None,
                line_start: true,
                done: false,
                said: Vec::new(),
            },
            eof: false,
            started: false,
            leftover: Vec::new(),
            pending: VecDeque::new(),
            cut: Cut {
                line: 1,
                ..Cut::default()
            },
            kept: (0, 0),
            cut_first: None,
            follows: None,
            place_moves: !options.unplaced_moves,
        };
        Ok(GameStream {
            format,
            encoding: Some(encoding),
            not_games: Vec::new(),
            inner: Inner::Pgn(Box::new(chunks)),
        })
    }
}

impl GameStream<'_> {
    /// Whether the stream is read in pieces ([`GameStream::next_piece`]): PGN in UTF-8, GBK or
    /// Big5 larger than the head. Other streams are read whole already: iterate them.
    pub fn is_pieced(&self) -> bool {
        matches!(self.inner, Inner::Pgn(_))
    }

    /// The next piece of the file, to be read on any thread ([`Piece::read`]) and handed back,
    /// in order, to [`GameStream::accept`]; `None` when the file is cut to its end (or the
    /// stream is not pieced). Do not mix with iterating the stream.
    pub fn next_piece(&mut self) -> Option<Piece> {
        match &mut self.inner {
            Inner::Pgn(chunks) => chunks.next_piece(),
            Inner::Loaded(_) => None,
        }
    }

    /// How many pieces handed back were read on their own, and how many were read again in order
    /// (their text before them did not end where they start).
    pub fn pieces_kept(&self) -> (usize, usize) {
        match &self.inner {
            Inner::Pgn(chunks) => chunks.kept,
            Inner::Loaded(_) => (0, 0),
        }
    }

    /// The games of a piece read with [`Piece::read`], pieces handed back in the order they
    /// were cut: in all, the games of iterating the stream, numbered as in the file.
    pub fn accept(&mut self, read: PieceRead) -> Vec<Result<Game, ReadError>> {
        match &mut self.inner {
            Inner::Pgn(chunks) => chunks.accept(read),
            Inner::Loaded(_) => Vec::new(),
        }
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
    /// Where the reading of the text is.
    at: Reading,
    /// Whether the source is read to its end.
    eof: bool,
    /// Whether a piece was read.
    started: bool,
    /// Bytes read but left for the next piece (a long line cut between two characters).
    leftover: Vec<u8>,
    pending: VecDeque<Result<Game, ReadError>>,
    /// Where the cutting of pieces is ([`GameStream::next_piece`]).
    cut: Cut,
    /// Pieces whose reading on their own was kept, and those read again in order.
    kept: (usize, usize),
    /// The first piece as decoded when it was cut (pieced reading).
    cut_first: Option<FirstPiece>,
    /// The byte that follows the text in the file, when known (a piece read on its own).
    follows: Option<u8>,
    /// Whether moves are placed in the file (see [`ReadOptions::unplaced_moves`]).
    place_moves: bool,
}

/// The first piece of a file read in pieces, decoded when it is cut: the decoder as the piece
/// leaves it, for the pieces cut before the first is read (so that they are read on their own),
/// and, until [`PgnChunks::absorb`] takes them, the piece's text and its bytes that are not text
/// (so that it is decoded once).
struct FirstPiece {
    decoder: TextDecoder,
    len: usize,
    decoded: Option<(String, Vec<Replaced>)>,
}

impl PgnChunks<'_> {
    fn next(&mut self) -> Option<Result<Game, ReadError>> {
        loop {
            if let Some(item) = self.pending.pop_front() {
                return Some(item);
            }
            if self.at.done {
                return None;
            }
            if let Err(err) = self.fill() {
                self.at.done = true;
                let mut err = io_error(&err).at(self.at.offset).on_line(self.at.line);
                err.game = Some(self.at.game);
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
                // The rest straight into `out`: a read at least as large as the reader's buffer,
                // with that buffer empty, is not copied through it. Fewer bytes than asked: the
                // source's end (not asked again: a terminal would wait for a second end).
                let rest = want - out.len();
                if (&mut self.src).take(rest as u64).read_to_end(&mut out)? < rest {
                    self.eof = true;
                    return Ok(out);
                }
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
                    // The line as decoding tells lines apart (at LF), and the decoder the
                    // piece will be decoded with.
                    let line = out.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
                    let encoding = self
                        .decoder_ahead()
                        .encoding_of_long_line(&out[line..], &out);
                    let cut = char_boundary(&out, encoding);
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
            let want = self.limits.chunk.max(self.at.text.len()).max(1);
            let bytes = self.read_bytes(want)?;
            self.absorb(&bytes);
        }
        self.read_text();
        Ok(())
    }

    /// Decodes the next bytes of the file onto the text held.
    fn absorb(&mut self, bytes: &[u8]) {
        let first = !self.started;
        self.started = true;
        // The first piece of a file read in pieces was decoded when it was cut.
        let cut = match &mut self.cut_first {
            Some(cut) if first && cut.len == bytes.len() => cut
                .decoded
                .take()
                .map(|decoded| (decoded, cut.decoder.clone())),
            _ => None,
        };
        let piece = match cut {
            Some(((text, replaced), decoder)) => {
                self.decoder = decoder;
                self.at.replaced.extend(replaced);
                text
            }
            None => self
                .decoder
                .decode(bytes, self.at.end, &mut self.at.replaced),
        };
        self.at.end += bytes.len();
        if first {
            self.at.offset = self.decoder.bom_len();
        }
        self.encoding = self.decoder.encoding();
        self.at.text.push_str(&piece);
    }

    /// Reads the games of the text held (all of them when the file's end is reached, else up to
    /// the last that more text cannot change) into `pending`.
    fn read_text(&mut self) {
        let mut reader = PgnReader::resume(
            &self.at.text,
            self.at.line,
            self.at.game,
            self.at.skip,
            self.at.line_start,
            self.limits.max_game,
        )
        .followed_by(self.follows)
        .saying(std::mem::take(&mut self.at.said));
        let mut place =
            Place::new(self.at.offset, &self.at.replaced).placing_moves(self.place_moves);
        let (from, skip, game) = loop {
            match reader.step(self.eof) {
                Step::Game(item) => {
                    let item = place.locate(item, &self.at.text, self.encoding);
                    self.pending.push_back(item);
                }
                Step::Done => {
                    self.at.done = true;
                    self.at.text = String::new();
                    return;
                }
                Step::More { from, skip, said } => {
                    self.at.said = said;
                    break (from, skip, reader.next_game());
                }
            }
        };
        let consumed = &self.at.text[..from];
        let offset = place.offset(&self.at.text, from, self.encoding);
        self.at.offset = offset;
        self.at.replaced.retain(|r| r.offset >= offset);
        self.at.line += newlines(consumed.as_bytes());
        if from > 0 {
            self.at.line_start = consumed.ends_with('\n');
        }
        self.at.game = game;
        self.at.skip = skip;
        self.at.text.drain(..from);
    }

    /// The next piece of the file for [`GameStream::next_piece`]: at least a chunk, then on to a
    /// line that likely starts a game (a tag line after a line that is none), within a bound.
    /// The decoder a piece cut now is decoded with: as the text before it leaves the decoder.
    /// Until the first piece is read (in order, by `accept`), that is as the first piece left
    /// it when it was cut.
    fn decoder_ahead(&self) -> &TextDecoder {
        match &self.cut_first {
            Some(cut) if !self.started => &cut.decoder,
            _ => &self.decoder,
        }
    }

    fn next_piece(&mut self) -> Option<Piece> {
        if self.cut.ended || self.at.done {
            return None;
        }
        let first = !self.cut.started;
        self.cut.started = true;
        // The text side's end is told by `accept`, when the last piece is read.
        let eof = std::mem::replace(&mut self.eof, false);
        let read = self.read_piece();
        let ended = std::mem::replace(&mut self.eof, eof);
        let (bytes, follows, error) = match read {
            Ok((bytes, follows)) => (bytes, follows, None),
            Err(e) => (Vec::new(), None, Some(io_error(&e))),
        };
        // The first piece is decoded here, when it is cut (its reading in order takes that
        // text), so that pieces cut meanwhile can be read on their own (`decoder_ahead`).
        let decoder = self.decoder_ahead().clone();
        let encoding = decoder.encoding();
        if first && error.is_none() {
            let mut decoder = self.decoder.clone();
            let mut replaced = Vec::new();
            let text = decoder.decode(&bytes, self.cut.offset, &mut replaced);
            self.cut_first = Some(FirstPiece {
                decoder,
                len: bytes.len(),
                decoded: Some((text, replaced)),
            });
        }
        let piece = Piece {
            offset: self.cut.offset,
            line: self.cut.line,
            last: ended || error.is_some(),
            first,
            decoder,
            encoding,
            limits: self.limits,
            error,
            bytes,
            follows,
            place_moves: self.place_moves,
        };
        self.cut.ended = piece.last;
        self.cut.offset += piece.bytes.len();
        self.cut.line += newlines(&piece.bytes);
        Some(piece)
    }

    /// A piece's bytes, and the byte that follows them (`None` at the file's end).
    fn read_piece(&mut self) -> io::Result<(Vec<u8>, Option<u8>)> {
        let size = self.limits.chunk.clamp(1, PIECE);
        let mut out = self.read_bytes(size)?;
        let bound = out.len().saturating_add(size / 4);
        while !self.eof && out.len() < bound {
            let next = self.src.fill_buf()?.first().copied();
            if next == Some(b'[') && last_line_ends_a_game(&out) {
                break;
            }
            if next == Some(b'\n') {
                // A blank line (`read_bytes` would go on to the end of the next).
                out.push(b'\n');
                self.src.consume(1);
                continue;
            }
            let line = self.read_bytes(1)?;
            out.extend_from_slice(&line);
        }
        // Blank lines after the piece go with it (a bounded run): the byte that follows it is
        // then its next line's first, which tells the piece's reading whether a comment line
        // follows its last game's result.
        let blank_bound = out.len().saturating_add(crate::pgn::MOVE_LINE_SCAN);
        while out.len() < blank_bound {
            let len = match self.src.fill_buf()? {
                [b'\n', ..] => 1,
                [b'\r', b'\n', ..] => 2,
                _ => break,
            };
            out.extend_from_slice(if len == 1 { b"\n" } else { b"\r\n" });
            self.src.consume(len);
        }
        let follows = self.src.fill_buf()?.first().copied();
        Ok((out, follows))
    }

    /// The games of a piece read on its own (`read`) if the text before it ended where the piece
    /// starts, as the piece's reading assumed; else the piece's bytes read here, after the text
    /// held.
    fn accept(&mut self, read: PieceRead) -> Vec<Result<Game, ReadError>> {
        let PieceRead { piece, games, end } = read;
        if self.at.done {
            return Vec::new();
        }
        if let Some(mut err) = piece.error {
            self.at.done = true;
            err = err.at(piece.offset).on_line(piece.line);
            err.game = Some(self.at.game);
            let mut out: Vec<_> = self.pending.drain(..).collect();
            out.push(Err(err));
            return out;
        }
        // The piece was read as if what came before ended with a game's result (after which
        // everything up to a tag line is passed over); the same as nothing to skip if the piece
        // starts with a tag line.
        let starts_with_tags = piece
            .bytes
            .iter()
            .find(|b| !b.is_ascii_whitespace())
            .is_some_and(|&b| b == b'[');
        let clean = self.started
            && self.at.text.is_empty()
            && self.at.said.is_empty()
            && (self.at.skip == AFTER_RESULT || (self.at.skip == Skip::None && starts_with_tags))
            && self.at.line_start
            && self.at.line == piece.line
            // (The place in the file counted through the text, bytes that are not text
            // measured as decoding found them, is where the piece starts.)
            && self.at.offset == piece.offset
            && self.decoder == piece.decoder;
        match end {
            Some(end) if clean => {
                let base = self.at.game;
                let out = games
                    .into_iter()
                    .map(|item| {
                        item.map_err(|mut err| {
                            err.game = err.game.map(|g| g + base);
                            err
                        })
                    })
                    .collect();
                self.at = Reading {
                    game: base + end.game,
                    ..end
                };
                self.eof = piece.last;
                self.kept.0 += 1;
                out
            }
            _ => {
                self.kept.1 += 1;
                self.absorb(&piece.bytes);
                self.eof = piece.last;
                // The text held now ends where the piece does.
                self.follows = piece.follows;
                self.read_text();
                self.pending.drain(..).collect()
            }
        }
    }
}

/// Whether the last line of `bytes` (which end with a line end) is blank or ends with a game's
/// result: then a tag line after it likely starts a game.
fn last_line_ends_a_game(bytes: &[u8]) -> bool {
    let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    let start = body.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let line = body[start..].trim_ascii();
    line.is_empty()
        || [&b"1-0"[..], b"0-1", b"1/2-1/2", b"*"]
            .iter()
            .any(|result| line.ends_with(result))
}

/// What the reader passes over after a game that ended with its result (outside a comment):
/// lines without a move, to the next tag line or line with a move. A piece, which starts at a
/// line's start, is read as if it came after one.
const AFTER_RESULT: Skip = Skip::AfterResult { in_comment: false };

/// Where the cutting of pieces is: it runs ahead of the reading of the text.
#[derive(Debug, Default)]
struct Cut {
    /// A piece was cut.
    started: bool,
    /// The file is cut to its end.
    ended: bool,
    /// The file offset of the next piece.
    offset: usize,
    /// The line on which the next piece starts (counted in line feeds).
    line: u32,
}

/// A piece of a PGN file, cut at a line end where a game likely starts, to be read on another
/// thread ([`Piece::read`]) and handed back, in the order of the pieces, to
/// [`GameStream::accept`]. Reading pieces in parallel gives the games of reading the file in
/// order: a piece is read on its own as if a game started where it starts, and that reading is
/// kept only if the text before it indeed ended there (else the piece is read again after it).
#[derive(Debug)]
pub struct Piece {
    bytes: Vec<u8>,
    offset: usize,
    line: u32,
    last: bool,
    first: bool,
    decoder: TextDecoder,
    encoding: Encoding,
    limits: Limits,
    error: Option<ReadError>,
    /// The byte that follows the piece in the file (`None` at its end).
    follows: Option<u8>,
    /// Whether moves are placed in the file (see [`ReadOptions::unplaced_moves`]).
    place_moves: bool,
}

/// A piece as read on its own.
#[derive(Debug)]
pub struct PieceRead {
    piece: Piece,
    games: VecDeque<Result<Game, ReadError>>,
    /// Where the reading ended (`None`: the piece cannot be read on its own).
    end: Option<Reading>,
}

/// Where the reading of a PGN text is: the text held and what is known of its start.
#[derive(Debug)]
struct Reading {
    /// Decoded text not yet read into games (the start of a game, or nothing).
    text: String,
    /// The byte offset in the file of `text`'s start.
    offset: usize,
    /// The byte offset in the file where the bytes decoded into `text` end.
    end: usize,
    /// The bytes among them that are not text (each a U+FFFD of `text`).
    replaced: Vec<Replaced>,
    /// The line (1-based) on which `text` starts.
    line: u32,
    /// The index of the next game.
    game: usize,
    /// What the reader is to skip before the next game.
    skip: Skip,
    /// Whether `text` starts at the start of a line.
    line_start: bool,
    /// Whether the last game was read.
    done: bool,
    /// What the next game read says first (see [`Step::More`]).
    said: Vec<String>,
}

impl Piece {
    /// Reads the piece's games as if a game started where it starts (the first piece, which
    /// tells how the file is decoded, is read in order by [`GameStream::accept`]).
    pub fn read(self) -> PieceRead {
        if self.first || self.error.is_some() {
            return PieceRead {
                piece: self,
                games: VecDeque::new(),
                end: None,
            };
        }
        let mut decoder = self.decoder.clone();
        let mut replaced = Vec::new();
        let text = decoder.decode(&self.bytes, self.offset, &mut replaced);
        if decoder != self.decoder {
            // Decoding this piece tells the decoder something (a line in another encoding):
            // decoded in order instead.
            return PieceRead {
                piece: self,
                games: VecDeque::new(),
                end: None,
            };
        }
        let mut chunks = PgnChunks {
            src: Box::new(io::empty()),
            decoder,
            encoding: self.encoding,
            limits: self.limits,
            at: Reading {
                text,
                offset: self.offset,
                end: self.offset + self.bytes.len(),
                replaced,
                line: self.line,
                game: 0,
                skip: AFTER_RESULT,
                line_start: true,
                done: false,
                said: Vec::new(),
            },
            eof: self.last,
            started: true,
            leftover: Vec::new(),
            pending: VecDeque::new(),
            cut: Cut::default(),
            kept: (0, 0),
            cut_first: None,
            follows: self.follows,
            place_moves: self.place_moves,
        };
        // Room for the games at once (see `GAME_ROOM`), not grown by doubling, each time moving
        // every game read so far.
        chunks.pending.reserve(self.bytes.len() / GAME_ROOM);
        chunks.read_text();
        PieceRead {
            piece: self,
            games: chunks.pending,
            end: Some(chunks.at),
        }
    }
}

/// The last place in `bytes` (which start at a character's start) that is between two characters
/// in `encoding`, and not between a CR and what follows it; never 0 if `bytes` hold a whole
/// character. A piece cut there and decoded on its own decodes as it does in the whole text.
fn char_boundary(bytes: &[u8], encoding: Encoding) -> usize {
    // A place between two characters is a cut unless a CR stands before it.
    let after_cr = |i: usize| bytes[i - 1] == b'\r';
    let cut = match encoding {
        // Before the last byte that starts a character (or stands alone as a bad one).
        Encoding::Utf8 => (1..bytes.len())
            .rev()
            .find(|&i| !(0x80..0xC0).contains(&bytes[i]) && !after_cr(i))
            .unwrap_or(bytes.len()),
        // GBK and Big5: walked from the start as encoding_rs decodes them. A byte from 0x81 to
        // 0xFE leads a pair (with a byte that is not a trail, the lead is bad alone and the next
        // byte starts afresh: the boundary after the pair holds either way); 0x80 (GBK's euro,
        // a bad byte in Big5) and 0xFF (a bad byte) stand alone. In GB 18030 a lead and a digit
        // start a four-byte code when a lead and a digit follow (one cut short by the end counts
        // as whole: the cut goes before it). When they do not, the lead is bad alone and the
        // digit a digit, but the two at the end of a piece would read as one code cut short: no
        // cut right after them. The cut is the last place the walk passes (or its end, if it
        // ends there) that may be one and is not after a CR.
        _ => {
            let gb18030 = encoding == Encoding::Gbk;
            let (mut i, mut cut, mut may_cut) = (0, 0, true);
            while i < bytes.len() {
                if i > 0 && may_cut && !after_cr(i) {
                    cut = i;
                }
                let (step, whole) = match bytes[i] {
                    0..=0x80 | 0xFF => (1, true),
                    _ if gb18030 && bytes.get(i + 1).is_some_and(u8::is_ascii_digit) => {
                        let four = four_byte_code(&bytes[i..]);
                        (if four { 4 } else { 2 }, four)
                    }
                    _ => (2, true),
                };
                i += step;
                may_cut = whole;
            }
            if i == bytes.len() && i > 0 && may_cut && !after_cr(i) {
                cut = i;
            }
            cut
        }
    };
    cut.max(1).min(bytes.len())
}

/// Whether `bytes`, from a lead byte on, start a GB 18030 four-byte code, or one cut short by
/// their end.
fn four_byte_code(bytes: &[u8]) -> bool {
    matches!(
        bytes,
        [_, b'0'..=b'9']
            | [_, b'0'..=b'9', 0x81..=0xFE]
            | [_, b'0'..=b'9', 0x81..=0xFE, b'0'..=b'9', ..]
    )
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    /// Limits with a small head, piece and longest line, as the tests cut files.
    fn small_limits(head: usize, chunk: usize, max_line: usize) -> Limits {
        Limits {
            head,
            chunk,
            max_line,
            ..Limits::default()
        }
    }

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
            let stream =
                GameStream::with_chunk(text.as_bytes(), Some("pgn"), ReadOptions::default(), chunk)
                    .unwrap();
            let (games, (kept, again)) = pieced_kept(stream, 4);
            let pieced: Vec<String> = games
                .into_iter()
                .map(|g| g.unwrap().tag("Event").unwrap_or("").to_owned())
                .collect();
            assert_eq!(pieced, whole, "chunk {chunk}, pieced");
            // Most pieces start at a game and are read on their own, those cut before the first
            // was read too (decoded as the first leaves the decoder); the first is read in order.
            eprintln!("chunk {chunk}: {kept} kept, {again} again");
            if chunk == 4096 {
                assert!(
                    kept > 4 * again,
                    "chunk {chunk}: {kept} kept, {again} again"
                );
            }
        }
        assert_eq!(whole.len(), 3000);
    }

    /// Pieces cut before the first is read (as a pipeline cuts them, ahead) are read on their
    /// own too: only the first, which starts the decoding, is read in order. With LF and CRLF
    /// line ends, a byte-order mark, and in GBK.
    #[test]
    fn pieces_cut_ahead_are_kept() {
        let mut text = String::new();
        for i in 0..400 {
            text.push_str(&format!("[Event \"g{i}\"]\n\n1. 炮二平五 马８进７ *\n\n"));
        }
        let crlf = text.replace('\n', "\r\n");
        let bom = format!("\u{feff}{text}");
        for (bytes, encoding) in [
            (text.as_bytes().to_vec(), None),
            (crlf.as_bytes().to_vec(), None),
            (bom.as_bytes().to_vec(), None),
            (
                encoding::encode(&text, Encoding::Gbk).into_owned(),
                Some(Encoding::Gbk),
            ),
        ] {
            let options = ReadOptions {
                encoding,
                format: Some(Format::Pgn),
                ..ReadOptions::default()
            };
            let whole = format::read(&bytes, Some("pgn"), options).unwrap().games;
            let limits = Limits {
                head: 1000,
                chunk: 1000,
                ..Limits::default()
            };
            for ahead in [1, 8] {
                let stream =
                    GameStream::with_limits(&bytes[..], Some("pgn"), options, limits).unwrap();
                let (games, (kept, again)) = pieced_kept(stream, ahead);
                assert_eq!(games, whole);
                assert_eq!(again, 1, "{encoding:?} ahead {ahead}: {kept} kept");
                assert!(kept > 10, "{kept}");
            }
        }
    }

    /// DhtmlXQ records among PGN games (closed, bare, cut short) are read streamed and in pieces
    /// as whole, whatever the sizes; and a large file that starts with PGN loses none of them.
    #[test]
    fn dhtmlxq_records_among_games_stream_as_whole() {
        let fields = "[DhtmlXQ_red]甲[/DhtmlXQ_red]\n[DhtmlXQ_movelist]77477062[/DhtmlXQ_movelist]\n\
                      [DhtmlXQ_comment1]炮[/DhtmlXQ_comment1]\n[DhtmlXQ_move_0_1_1]1242[/DhtmlXQ_move_0_1_1]\n";
        // (More than a place-mark's distance of text before the records: going back to place a
        // branch counts from a mark.)
        let mut text = pgn(60);
        for record in [
            format!("[DhtmlXQ]\n{fields}[/DhtmlXQ]\n\n"),
            format!("{fields}\n"),
            format!("[DhtmlXQ]\n{fields}\n"),
        ] {
            text.push_str(&record);
            text.push_str(&pgn(2));
        }
        in_each_encoding_every_way_is_whole(&text, |whole| {
            assert_eq!(whole.len(), 60 + 3 * 3);
            let records = whole
                .iter()
                .map(|g| g.as_ref().unwrap())
                .filter(|g| g.tag("Red") == Some("甲"))
                .count();
            assert_eq!(records, 3);
        });
        // Each move of a record, its branch's after the main line's, is placed at its digits in
        // the file: in GBK, where places are counted.
        let bytes = encoding::encode(&text, Encoding::Gbk).into_owned();
        let games = format::read(&bytes, Some("pgn"), ReadOptions::default())
            .unwrap()
            .games;
        let mut placed = 0;
        for game in games.iter().map(|g| g.as_ref().unwrap()) {
            let mut lines = vec![game.moves.as_slice()];
            while let Some(line) = lines.pop() {
                for node in line {
                    if let Some(digits) = node.written() {
                        let at = node.source_offset().unwrap();
                        assert_eq!(&bytes[at..at + 4], digits.as_bytes());
                        placed += 1;
                    }
                    lines.extend(node.variations().iter().map(Vec::as_slice));
                }
            }
        }
        assert_eq!(placed, 3 * 3);
    }

    /// Games written on after a result without tags, and trailers of words after results, are
    /// read streamed and in pieces as whole.
    #[test]
    fn games_after_results_stream_as_whole() {
        let mut text = pgn(2);
        for _ in 0..3 {
            text.push_str("1. 炮二平五 马８进７ 1-0\n\n1. 兵七进一 0-1 卒７进１ *\n");
            text.push_str("======\n欢迎访问象棋百科全书网\nhttp://www.xqbase.com/\n\n");
            text.push_str(&pgn(1));
        }
        in_each_encoding_every_way_is_whole(&text, |whole| {
            assert_eq!(whole.len(), 2 + 3 * 4);
            assert!(whole.iter().all(Result::is_ok));
        });
    }

    /// How many of `games` were read and are `like`.
    fn games_with(games: &[Result<Game, ReadError>], like: impl Fn(&Game) -> bool) -> usize {
        games.iter().filter(|g| g.as_ref().is_ok_and(&like)).count()
    }

    /// Two games, then three times `parts` and a game.
    fn between_games(parts: &[&str]) -> String {
        let mut text = pgn(2);
        for _ in 0..3 {
            for part in parts {
                text.push_str(part);
            }
            text.push_str(&pgn(1));
        }
        text
    }

    /// The games after one whose moves cannot be read (its rest passed over to its result or a
    /// tag line) are read streamed and in pieces as whole: the skip goes on across pieces.
    #[test]
    fn games_after_a_broken_one_stream_as_whole() {
        let text = between_games(&[
            "1. 炮二平五 ) {1-0 ; 0-1\n} ; 1-0\n马８进７ 1/2-1/2\n\n1. 兵七进一 卒７进１ *\n",
            "1. 炮二平五 )　1-0　1. 兵七进一 *\n",
            &format!("1. 马二进三 ) {}1-0 ( 1-0 ) 0-1\n", "长".repeat(40)),
            "1. 炮二平五 ( 马８进７ 1-0   \n1. 兵七进一 *\n",
        ]);
        in_each_encoding_every_way_is_whole(&text, |whole| {
            assert_eq!(whole.len(), 2 + 3 * 8);
            assert_eq!(whole.iter().filter(|g| g.is_err()).count(), 3 * 4);
        });
    }

    /// The games after one with a tag that cannot be read (its tag section and moves passed
    /// over to its result) are read streamed and in pieces as whole.
    #[test]
    fn games_after_a_broken_tag_stream_as_whole() {
        let text = between_games(&[
            "[Event \"x]\n  [Red \"y\"]\n\n1. 炮二平五 {1-0} 1-0\n\n1. 兵七进一 卒７进１ *\n",
            "[Red \"unclosed\n\n1. 马二进三 0-1\n1. 兵七进一 *\n\n",
            "[Red \"x]\n;c\n[Date \"d\"]\n\n1. 炮二平五 马８进７ 红胜  \n\n1. 兵七进一 *\n",
            "[Red \"x]\n\n1. 炮二平五\n2. 马二进三\n\n1. 兵七进一 *\n",
            "[Red \"x]\n{c} 1. 炮二平五 1-0\n\n1. 兵七进一 *\n",
        ]);
        in_each_encoding_every_way_is_whole(&text, |whole| {
            assert_eq!(whole.len(), 2 + 3 * 11);
            assert_eq!(whole.iter().filter(|g| g.is_err()).count(), 3 * 5);
            // The games written on after the broken ones are read; the tags after a broken
            // one make no game.
            let first_moves = |m: &str| {
                games_with(whole, |g| {
                    g.moves.first().and_then(|n| n.text.as_deref()) == Some(m)
                })
            };
            assert_eq!(first_moves("兵七进一"), 3 * 5);
            assert_eq!(games_with(whole, |g| g.tag("Red") == Some("y")), 0);
        });
    }

    /// Comments after a blank line between tags, and headings before a game's first move
    /// number, are read streamed and in pieces as whole.
    #[test]
    fn comments_between_tags_and_headings_stream_as_whole() {
        let text = between_games(&[
            "[Event \"A\"]\n\n{note}\n[Red \"x\"]\n\n1. 炮二平五 1-0\n\n",
            "[Event \"A\"]\n\n; note\n[Event \"B\"]\n\n第一局\n1. 炮二平五 *\n\n",
        ]);
        in_each_encoding_every_way_is_whole(&text, |whole| {
            assert_eq!(whole.len(), 2 + 3 * 4);
            assert!(whole.iter().all(Result::is_ok));
            let said = games_with(whole, |g| g.unread.iter().any(|u| u.ends_with("第一局")));
            assert_eq!(said, 3);
        });
    }

    /// Comments on a result's line are the game's, read streamed and in pieces as whole; a `{`
    /// left open there takes nothing of the games after it, even when they run past a game's
    /// window (the most one game may take).
    #[test]
    fn comments_after_results_stream_as_whole() {
        let mut text = pgn(2);
        for _ in 0..3 {
            text.push_str("1. 炮二平五 1-0 {\n");
            text.push_str(&pgn(2));
            text.push_str("1. 兵七进一 0-1 {closed\nacross lines} ; and more\n");
            text.push_str(&pgn(1));
        }
        // Lines of comments after a result, blank lines between, in pieces too.
        for _ in 0..3 {
            text.push_str("1. 炮二平五 1-0\n{resigned}\n\n; signed\n\n");
            text.push_str(&pgn(1));
        }
        // Open to the end of the file: what follows is the comment's, across pieces too.
        text.push_str("1. 兵七进一 0-1 {open to the end\n1. 炮二平五 *\n");
        in_each_encoding_every_way_is_whole(&text, |whole| {
            assert_eq!(whole.len(), 2 + 3 * 5 + 3 * 2 + 1);
            let closed = whole[whole.len() - 3].as_ref().unwrap();
            assert_eq!(closed.moves[0].comment(), Some("resigned\nsigned"));
            assert!(whole.iter().all(Result::is_ok));
            let last = whole.last().unwrap().as_ref().unwrap();
            assert_eq!(
                last.moves[0].comment(),
                Some("open to the end\n1. 炮二平五 *")
            );
            assert_eq!(last.unread.len(), 1, "{:?}", last.unread);
        });
        // Whole with a window of 4 KiB, far less than the games after the open brace.
        let text = format!("1. 炮二平五 1-0 {{\n{}", pgn(100));
        let options = ReadOptions {
            encoding: Some(Encoding::Utf8),
            format: Some(Format::Pgn),
            ..ReadOptions::default()
        };
        let read = format::read_with(text.as_bytes(), Some("pgn"), options, 4096).unwrap();
        assert_eq!(read.games.len(), 101);
        assert!(read.games.iter().all(Result::is_ok));
    }

    /// A file whose lines end in LF, CRLF and a CR alone, mixed, reads each line as a line
    /// (the CR-ended ones not run together), whole, streamed and in pieces alike; CRLF and the
    /// file's offsets are kept.
    #[test]
    fn mixed_line_ends_read_as_lines() {
        let mut text = String::from("[Event \"first\"]\n\n1. 炮二平五 *\n\n");
        for (i, end) in ["\r", "\r\n", "\n", "\r", "\r"].iter().enumerate() {
            text.push_str(&format!(
                "[Event \"g{i}\"]{end}[Red \"r{i}\"]{end}{end}1. 炮二平五 {{c{i}}}{end}马８进７ *{end}{end}"
            ));
        }
        in_each_encoding_every_way_is_whole(&text, |whole| {
            assert_eq!(whole.len(), 6);
            for (i, game) in whole.iter().skip(1).enumerate() {
                let game = game.as_ref().unwrap();
                assert_eq!(game.tag("Red"), Some(format!("r{i}").as_str()));
                assert_eq!(game.moves.len(), 2, "{game:?}");
                assert_eq!(game.moves[0].comment(), Some(format!("c{i}").as_str()));
            }
        });
        // Lines are counted at a CR alone too: the file's first game takes 4 lines, each other
        // 6, and the last game's second move is on its line 5.
        let read = format::read(text.as_bytes(), Some("pgn"), ReadOptions::default()).unwrap();
        let last = read.games.last().unwrap().as_ref().unwrap();
        assert_eq!(last.moves[1].source_line(), Some(4 + 4 * 6 + 5));
    }

    /// GBK games appended to UTF-8 ones, the encoding told from the bytes: after the first GBK
    /// line, lines UTF-8 only by chance (names such as 叶伟, D2 B6 CE B0) are GBK, whole,
    /// streamed and in pieces alike (a piece valid UTF-8 throughout is not read at once then).
    #[test]
    fn gbk_lines_utf8_by_chance_after_gbk_ones_are_gbk_every_way() {
        // (UTF-8 games in ASCII: places in a file mixing UTF-8 lines of other characters into
        // GBK ones are not exact, reading whole or not.)
        let mut bytes = "[Event \"e\"]\n\n1. h2e2 {a comment} h9g7 *\n\n"
            .repeat(40)
            .into_bytes();
        let gbk = |t: &str| encoding::encode(t, Encoding::Gbk).into_owned();
        bytes.extend(gbk("[Event \"全国象棋个人赛\"]\n\n1. h2e2 *\n\n"));
        for _ in 0..40 {
            bytes.extend(gbk("[Red \"叶伟\"]\n[Black \"石强\"]\n\n1. h2e2 *\n\n"));
        }
        assert!(std::str::from_utf8(&gbk("[Red \"叶伟\"]\n[Black \"石强\"]\n")).is_ok());
        let options = ReadOptions {
            encoding: None,
            format: Some(Format::Pgn),
            ..ReadOptions::default()
        };
        let whole = format::read(&bytes, Some("pgn"), options).unwrap().games;
        assert_eq!(whole.len(), 81);
        for game in &whole[41..] {
            let game = game.as_ref().unwrap();
            assert_eq!(
                (game.tag("Red"), game.tag("Black")),
                (Some("叶伟"), Some("石强"))
            );
        }
        every_way_is_whole(&bytes, options, &whole);
        // After UTF-8 games in Chinese (the file read as UTF-8 with lines in GBK), the same
        // names, streamed in pieces that are valid UTF-8 throughout.
        let mut bytes = pgn(40).into_bytes();
        bytes.extend(gbk("[Event \"全国象棋个人赛\"]\n\n1. h2e2 *\n\n"));
        for _ in 0..40 {
            bytes.extend(gbk("[Red \"叶伟\"]\n[Black \"石强\"]\n\n1. h2e2 *\n\n"));
        }
        let names = |games: Vec<Result<Game, ReadError>>| -> Vec<Option<String>> {
            games
                .into_iter()
                .map(|g| g.unwrap().tag("Red").map(str::to_owned))
                .collect()
        };
        let whole = names(format::read(&bytes, Some("pgn"), options).unwrap().games);
        assert_eq!(whole.iter().flatten().filter(|n| *n == "叶伟").count(), 40);
        for (head, chunk, max_line) in [(16, 9, 3), (200, 64, 17), (4096, 333, 40)] {
            let limits = small_limits(head, chunk, max_line);
            let streamed = GameStream::with_limits(&bytes[..], Some("pgn"), options, limits)
                .unwrap()
                .collect();
            assert_eq!(names(streamed), whole, "{limits:?}");
        }
    }

    /// A file whose head is ASCII has its encoding told by the first bytes that are not, further
    /// on: the stream says so once it has read them (as validate reports it for the games read
    /// after them), for every size of head and piece. A file whose head tells it keeps it, GBK
    /// lines further on or not (read whole, a UTF-8 file with a byte-order mark is UTF-8 too).
    #[test]
    fn an_encoding_told_after_an_ascii_head_is_the_streams() {
        let gbk = |t: &str| encoding::encode(t, Encoding::Gbk).into_owned();
        let chinese = "[Event \"全国象棋个人赛\"]\n\n1. 炮二平五 马８进７ *\n\n";
        let ascii = "[Event \"e\"]\n\n1. h2e2 {a comment} h9g7 *\n\n".repeat(40);
        let ascii_head = [ascii.into_bytes(), gbk(chinese)].concat();
        let utf8_head = [chinese.repeat(20).into_bytes(), gbk(chinese)].concat();
        let marked = [b"\xEF\xBB\xBF".to_vec(), utf8_head.clone()].concat();
        let options = ReadOptions {
            format: Some(Format::Pgn),
            ..ReadOptions::default()
        };
        for (bytes, told) in [
            (&ascii_head, Encoding::Gbk),
            (&utf8_head, Encoding::Utf8),
            (&marked, Encoding::Utf8),
        ] {
            for (head, chunk, max_line) in [(16, 9, 3), (200, 64, 17), (1000, 333, 40)] {
                let limits = small_limits(head, chunk, max_line);
                let mut stream =
                    GameStream::with_limits(&bytes[..], Some("pgn"), options, limits).unwrap();
                assert!(matches!(stream.inner, Inner::Pgn(_)), "streamed");
                assert_eq!(stream.encoding(), Some(Encoding::Utf8), "{limits:?}");
                let games: Vec<_> = stream.by_ref().collect();
                let last = games.last().unwrap().as_ref().unwrap();
                assert_eq!(last.tag("Event"), Some("全国象棋个人赛"), "{limits:?}");
                assert_eq!(stream.encoding(), Some(told), "{limits:?}");
            }
        }
        let whole = |bytes: &[u8]| format::read(bytes, Some("pgn"), options).unwrap().encoding;
        assert_eq!(whole(&marked), Some(Encoding::Utf8));
        assert_eq!(whole(&ascii_head), Some(Encoding::Gbk));
    }

    /// [`every_way_is_whole`] for `text` in UTF-8 and in GBK, PGN given; `check` looks at the
    /// games read whole first.
    fn in_each_encoding_every_way_is_whole(text: &str, check: impl Fn(&[Result<Game, ReadError>])) {
        for encoding in [Encoding::Utf8, Encoding::Gbk] {
            let bytes = encoding::encode(text, encoding).into_owned();
            let options = ReadOptions {
                encoding: Some(encoding),
                format: Some(Format::Pgn),
                ..ReadOptions::default()
            };
            let whole = format::read(&bytes, Some("pgn"), options).unwrap().games;
            check(&whole);
            every_way_is_whole(&bytes, options, &whole);
        }
    }

    #[test]
    fn pieces_place_moves_and_start_positions_as_reading_whole_does() {
        // As the pgn_stream fuzzer checks: whole games equal, with the file offsets of their
        // moves and start positions, whatever the sizes of the head, the pieces and the lines.
        let mut text = pgn(40);
        text.push_str("[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/车NBAKABNR w\"]\n\n1. 炮二平五 (1. 炮二进九) 马８进７\n2. 马二进四 *\n\n");
        text.push_str(&pgn(3));
        in_each_encoding_every_way_is_whole(&text, |whole| {
            assert!(whole.iter().flatten().any(|g| g.fen_offset.is_some()));
        });
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
        "第二局 ",
        "Game 2: 1.",
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

    /// The games of a stream read in pieces, `ahead` pieces cut before the first is handed back
    /// (as threads reading them would be), each read on its own; and how many pieces were kept
    /// as read on their own, and read again in order.
    fn pieced_kept(
        mut stream: GameStream<'_>,
        ahead: usize,
    ) -> (Vec<Result<Game, ReadError>>, (usize, usize)) {
        if !stream.is_pieced() {
            return (stream.collect(), (0, 0));
        }
        let mut games = Vec::new();
        let mut cut = VecDeque::new();
        loop {
            while cut.len() < ahead.max(1) {
                match stream.next_piece() {
                    Some(piece) => cut.push_back(piece.read()),
                    None => break,
                }
            }
            let Some(read) = cut.pop_front() else { break };
            games.extend(stream.accept(read));
        }
        (games, stream.pieces_kept())
    }

    /// PGN's escape lines (`%` first on a line) are kept as comments wherever they stand: before
    /// a game's tags, between them, among the moves, after the result; a `%` elsewhere is no
    /// escape. Read whole, streamed and in pieces alike.
    #[test]
    fn escape_lines_are_comments_wherever_they_stand() {
        let one = "% exported by X 1. h2e2\n[Event \"a\"]\n% between tags\n[Site \"s\"]\n\n1. h2e2 h9g7\n% among moves 2. b0c2\n2. h0g2 1-0\n% after the result\n\n";
        let whole = PgnReader::new(one).next().unwrap().unwrap();
        assert_eq!(
            whole.tags.len(),
            3,
            "Event, Site and the Result the moves end with"
        );
        assert_eq!(
            whole.comment.as_deref(),
            Some("exported by X 1. h2e2\nbetween tags")
        );
        assert_eq!(whole.moves.len(), 3);
        assert_eq!(whole.moves[1].comment(), Some("among moves 2. b0c2"));
        assert_eq!(whole.moves[2].comment(), Some("after the result"));
        let inline = PgnReader::new("1. h2e2 % h9g7 *\n")
            .next()
            .unwrap()
            .unwrap();
        assert_eq!(
            inline.moves.len(),
            3,
            "a % inside a line is read as a move (which fails)"
        );
        let text = one.repeat(2000);
        assert!(text.len() > HEAD);
        let comments = |games: Vec<Result<Game, ReadError>>| -> Vec<Vec<Option<String>>> {
            games
                .into_iter()
                .map(|g| {
                    let g = g.unwrap();
                    let mut all = vec![g.comment.clone()];
                    all.extend(g.moves.iter().map(|n| n.comment().map(str::to_owned)));
                    all
                })
                .collect()
        };
        let read = comments(
            format::read(text.as_bytes(), Some("pgn"), ReadOptions::default())
                .unwrap()
                .games,
        );
        assert_eq!(read.len(), 2000);
        for chunk in [1, 100, 4096] {
            let stream =
                GameStream::with_chunk(text.as_bytes(), Some("pgn"), ReadOptions::default(), chunk)
                    .unwrap();
            assert_eq!(comments(stream.collect()), read, "chunk {chunk}");
            let stream =
                GameStream::with_chunk(text.as_bytes(), Some("pgn"), ReadOptions::default(), chunk)
                    .unwrap();
            assert_eq!(
                comments(pieced_kept(stream, 4).0),
                read,
                "chunk {chunk}, pieced"
            );
        }
    }

    /// Moves read with [`ReadOptions::unplaced_moves`] are left unplaced where placing costs a
    /// count (GBK here), read whole, streamed or in pieces, and placed where it costs nothing
    /// (UTF-8); start positions are placed either way, where they are without it.
    #[test]
    fn unplaced_moves_are_left_unplaced_where_placing_costs_a_count() {
        let mut text = String::new();
        for i in 0..1000 {
            text.push_str(&format!(
                "[Event \"第{i}局\"]\n[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\"]\n\n1. 炮二平五 (1. 兵七进一) 马８进７ *\n\n"
            ));
        }
        let gbk = encoding_rs::GBK.encode(&text).0.into_owned();
        let offsets = |game: &Game| {
            let main = game.moves.iter().map(|n| n.source_offset());
            let variation = game.moves[0].variations()[0]
                .iter()
                .map(|n| n.source_offset());
            main.chain(variation).collect::<Vec<_>>()
        };
        for (bytes, costs) in [(gbk, true), (text.into_bytes(), false)] {
            let placed = ReadOptions::default();
            let unplaced = ReadOptions {
                unplaced_moves: true,
                ..ReadOptions::default()
            };
            let whole = |options: ReadOptions| -> Vec<Game> {
                let records = format::read(&bytes, Some("pgn"), options).unwrap();
                records.games.into_iter().map(Result::unwrap).collect()
            };
            let streamed = |pieced: bool| -> Vec<Game> {
                let stream =
                    GameStream::with_chunk(&bytes[..], Some("pgn"), unplaced, 4096).unwrap();
                assert!(matches!(stream.inner, Inner::Pgn(_)));
                let games = if pieced {
                    pieced_kept(stream, 4).0
                } else {
                    stream.collect()
                };
                games.into_iter().map(Result::unwrap).collect()
            };
            assert!(bytes.len() > HEAD);
            let placed_games = whole(placed);
            assert_eq!(placed_games.len(), 1000);
            for (how, games) in [
                ("whole", whole(unplaced)),
                ("streamed", streamed(false)),
                ("in pieces", streamed(true)),
            ] {
                assert_eq!(games.len(), 1000);
                for (game, placed) in games.iter().zip(&placed_games) {
                    assert!(offsets(placed).iter().all(Option::is_some));
                    if costs {
                        assert!(offsets(game).iter().all(Option::is_none), "{how}");
                    } else {
                        assert_eq!(offsets(game), offsets(placed), "{how}");
                    }
                    assert_eq!(game.fen_offset, placed.fen_offset);
                    assert!(game.fen_offset.is_some());
                }
            }
        }
    }

    /// Bytes that are not text (a lone lead byte, a pair no character has, a byte no encoding
    /// starts a character with), before moves, in comments and in tags: every move and start
    /// position is still placed at its own text in the file, read whole, streamed or in pieces,
    /// and so is an error after them.
    #[test]
    fn bytes_that_are_not_text_keep_later_places_right() {
        // Each encoding given, and GBK and Big5 told from the bytes (then read line by line, in
        // runs of lines that are not UTF-8).
        let cases = [
            (Encoding::Big5, false),
            (Encoding::Gbk, false),
            (Encoding::Utf8, false),
            (Encoding::Big5, true),
            (Encoding::Gbk, true),
        ];
        for (encoding, told) in cases {
            let bad: [&[u8]; 3] = match encoding {
                // Big5: a lead byte before a space, an unassigned pair, a byte no code uses.
                Encoding::Big5 => [b"\xa4", b"\xc8\x40", b"\xff"],
                // GBK (read as GB18030): a byte no code uses, a four-byte code cut short, a
                // lead byte before a byte no code has second.
                Encoding::Gbk => [b"\xff", b"\x81\x30", b"\x81\x7f"],
                // UTF-8: a character cut short, a byte no character starts with, two such.
                _ => [b"\xe7\x82", b"\xc0", b"\xff\xfe"],
            };
            let decoding = match encoding {
                Encoding::Big5 => encoding_rs::BIG5,
                Encoding::Gbk => encoding_rs::GB18030,
                _ => encoding_rs::UTF_8,
            };
            // (Traditional characters: Big5 has no simplified ones.)
            let enc = |t: &str| encoding::encode(t, encoding).into_owned();
            let mut bytes = Vec::new();
            for i in 0..30 {
                let b = bad[i % 3];
                bytes.extend(enc(&format!("[Event \"game {i} ")));
                bytes.extend(b);
                bytes.extend(enc("\"]\n[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\"]\n\n1. 炮二平五 {"));
                // A character of four bytes (U+20000; GBK as GB 18030 writes it), or in Big5 a
                // code that stands for two characters (Ê̄).
                bytes.extend(match encoding {
                    Encoding::Gbk => &b"\x95\x32\x82\x36"[..],
                    Encoding::Utf8 => "\u{20000}".as_bytes(),
                    _ => b"\x88\x62",
                });
                bytes.extend(b);
                bytes.extend(enc("好} 馬８進７ "));
                bytes.extend(b);
                bytes.extend(enc(" 2. 馬二進三 ("));
                bytes.extend(b);
                bytes.extend(enc(" 2. 兵七進一) 車９平８ *\n\n"));
            }
            bytes.extend(enc("[Event \"last\"]\n\n1. 炮二平五 {"));
            bytes.extend(bad[2]);
            bytes.extend(enc("} 1. (馬８進７ "));
            let broken = bytes.len();
            bytes.extend(enc("*\n"));
            let options = ReadOptions {
                encoding: (!told).then_some(encoding),
                format: Some(Format::Pgn),
                ..ReadOptions::default()
            };
            let records = format::read(&bytes, Some("pgn"), options).unwrap();
            assert_eq!(records.encoding, Some(encoding));
            let whole = records.games;
            let mut moves = 0;
            for game in whole.iter().flatten() {
                let fen = game.fen.as_deref().unwrap();
                let at = game.fen_offset.unwrap();
                assert_eq!(&bytes[at..at + fen.len()], enc(fen), "{encoding:?} {told}");
                moves += moves_placed(game, &bytes, decoding);
            }
            assert_eq!(moves, 30 * 7, "{encoding:?} {told}");
            let last = whole.last().unwrap().as_ref().unwrap_err();
            assert_eq!(last.offset, Some(broken), "{encoding:?} {told}: {last}");
            // Pieces after the bad bytes are read on their own (their places are the file's).
            // (An encoding told from the bytes is told from the head, or from the first piece
            // with bytes that are not ASCII: a head of a few bytes and pieces of a line would
            // tell it from the first line alone, which holds only a bad byte here.)
            let kept = if told {
                every_size_is_whole(&bytes, options, &whole, &[(200, 64, 17), (4096, 333, 40)])
            } else {
                every_way_is_whole(&bytes, options, &whole)
            };
            assert!(kept > 30, "{encoding:?} {told}: {kept} pieces kept");
        }
    }

    /// A UTF-8 file with a byte-order mark and a line in GBK is read line by line; the mark is
    /// still dropped at the start, so the moves before that line are placed at their text.
    #[test]
    fn a_marked_file_read_line_by_line_keeps_its_places() {
        let mut bytes = "\u{feff}[Event \"a\"]\n\n1. 炮二平五 马８进７ *\n\n"
            .as_bytes()
            .to_vec();
        bytes.extend(encoding::encode("[Event \"马\"]\n\n1. 炮二平五 *\n", Encoding::Gbk).iter());
        let records = format::read(&bytes, Some("pgn"), ReadOptions::default()).unwrap();
        assert_eq!(records.encoding, Some(Encoding::Utf8));
        let game = records.games[0].as_ref().unwrap();
        assert_eq!(moves_placed(game, &bytes, encoding_rs::UTF_8), 2);
    }

    /// UTF-16 files joined (a byte-order mark starting a later line, two bytes in the file): the
    /// moves after it are placed where they stand, in either byte order.
    #[test]
    fn utf16_files_joined_keep_their_places() {
        for (encoding, decoding) in [
            (Encoding::Utf16Le, encoding_rs::UTF_16LE),
            (Encoding::Utf16Be, encoding_rs::UTF_16BE),
        ] {
            let one = encoding::encode(
                "\u{feff}[Event \"a\"]\n\n1. 炮二平五 马８进７ *\n",
                encoding,
            );
            let bytes = [&one[..], &one[..]].concat();
            let records = format::read(&bytes, Some("pgn"), ReadOptions::default()).unwrap();
            assert_eq!(records.encoding, Some(encoding));
            assert_eq!(records.games.len(), 2);
            for game in &records.games {
                assert_eq!(moves_placed(game.as_ref().unwrap(), &bytes, decoding), 2);
            }
        }
    }

    /// A UTF-8 file's byte-order mark before a first line in GBK: the mark is dropped, and the
    /// line reads whole (read as GBK, the mark's last byte took the line's `[` with it).
    #[test]
    fn a_mark_before_a_gbk_first_line_is_dropped() {
        let mut bytes = b"\xEF\xBB\xBF".to_vec();
        let gbk = "[Event \"杯\"]\n\n1. 炮二平五 马８进７ *\n\n";
        bytes.extend(encoding::encode(gbk, Encoding::Gbk).iter());
        bytes.extend("[Event \"b\"]\n\n1. 炮二平五 *\n".as_bytes());
        let records = format::read(&bytes, Some("pgn"), ReadOptions::default()).unwrap();
        assert_eq!(records.encoding, Some(Encoding::Utf8));
        let first = records.games[0].as_ref().unwrap();
        assert_eq!(first.tag("Event"), Some("杯"));
        assert_eq!(first.moves.len(), 2);
        assert_eq!(records.games.len(), 2);
    }

    /// Random bytes (PGN's marks among bytes of every kind) in each encoding: whatever is read,
    /// each move is placed where its text stands in the file, and each error within the file.
    #[test]
    fn random_bytes_are_placed_where_they_stand() {
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        let marks = b"[]{}()\" \n\n.1234*;";
        for case in 0..600 {
            let bytes: Vec<u8> = (0..300 + case % 200)
                .map(|_| match next() % 8 {
                    0..=3 => 0x81 + (next() % 0x7E) as u8,
                    4 => 0x40 + (next() % 0x40) as u8,
                    _ => marks[(next() % marks.len() as u64) as usize],
                })
                .collect();
            for (encoding, decoding) in [
                (Encoding::Big5, encoding_rs::BIG5),
                (Encoding::Gbk, encoding_rs::GB18030),
                (Encoding::Utf8, encoding_rs::UTF_8),
            ] {
                let options = ReadOptions {
                    encoding: Some(encoding),
                    format: Some(Format::Pgn),
                    ..ReadOptions::default()
                };
                let whole = format::read(&bytes, Some("pgn"), options).unwrap().games;
                if case % 20 == 0 {
                    every_way_is_whole(&bytes, options, &whole);
                }
                for item in whole {
                    let game = match item {
                        Ok(game) => game,
                        Err(e) => {
                            assert!(e.offset.is_some_and(|at| at <= bytes.len()), "{e}");
                            continue;
                        }
                    };
                    moves_placed(&game, &bytes, decoding);
                }
            }
        }
    }

    /// Reading `bytes` streamed and in pieces, with heads, pieces and lines of several sizes,
    /// gives `whole`, the games read whole; how many pieces were read on their own and kept.
    fn every_way_is_whole(
        bytes: &[u8],
        options: ReadOptions,
        whole: &[Result<Game, ReadError>],
    ) -> usize {
        every_size_is_whole(
            bytes,
            options,
            whole,
            &[(1, 1, 1), (16, 9, 3), (200, 64, 17), (4096, 333, 40)],
        )
    }

    /// [`every_way_is_whole`] for these sizes of head, piece and line.
    fn every_size_is_whole(
        bytes: &[u8],
        options: ReadOptions,
        whole: &[Result<Game, ReadError>],
        sizes: &[(usize, usize, usize)],
    ) -> usize {
        let mut kept = 0;
        for &(head, chunk, max_line) in sizes {
            let limits = small_limits(head, chunk, max_line);
            let streamed: Vec<_> = GameStream::with_limits(bytes, Some("pgn"), options, limits)
                .unwrap()
                .collect();
            assert_eq!(streamed, whole, "{options:?} {limits:?}");
            kept += pieced_is_whole(bytes, options, limits, &Ok(whole.to_vec()));
        }
        kept
    }

    /// Checks that the file `bytes` read (in `decoding`) from each move's place starts with the
    /// move (a U+FFFD of its own included); how many moves `game` has.
    fn moves_placed(game: &Game, bytes: &[u8], decoding: &'static encoding_rs::Encoding) -> usize {
        let mut moves = 0;
        let mut lines = vec![game.moves.as_slice()];
        while let Some(line) = lines.pop() {
            for node in line {
                let text = node.text.as_deref().unwrap();
                let at = node.source_offset().unwrap();
                let there = &bytes[at..(at + 4 * text.len()).min(bytes.len())];
                let read = decoding.decode_without_bom_handling(there).0;
                assert!(
                    read.starts_with(text),
                    "{text} at {at}: {read} in {bytes:x?}"
                );
                moves += 1;
                lines.extend(node.variations().iter().map(Vec::as_slice));
            }
        }
        moves
    }

    /// Streaming in pieces read on their own gives what reading whole gives.
    /// Returns how many pieces were read on their own and kept.
    fn pieced_is_whole(bytes: &[u8], options: ReadOptions, limits: Limits, whole: &Read) -> usize {
        let mut kept = 0;
        for ahead in [1, 3] {
            let pieced =
                GameStream::with_limits(bytes, Some("pgn"), options, limits).map(|stream| {
                    let (games, (k, _)) = pieced_kept(stream, ahead);
                    kept += k;
                    games
                });
            assert_eq!(&pieced, whole, "{limits:?} ahead {ahead}");
        }
        kept
    }

    /// What reading whole gives, and what streaming gives with the given sizes (from a source
    /// read a few bytes at a time for some of them, so that long lines are cut where a read ends).
    pub(crate) fn both(bytes: &[u8], options: ReadOptions, limits: Limits) -> (Read, Read) {
        let whole =
            format::read_with(bytes, Some("pgn"), options, limits.max_game).map(|r| r.games);
        let read = if limits.chunk.is_multiple_of(2) {
            usize::MAX
        } else {
            1 + limits.chunk % 7
        };
        let streamed = GameStream::with_limits(Trickle(bytes, read), Some("pgn"), options, limits)
            .map(Iterator::collect);
        (whole, streamed)
    }

    #[test]
    fn a_line_too_long_is_cut_between_two_characters_of_its_encoding() {
        // A comment line with no byte below `0` to cut after is cut between two characters: of
        // GB 18030's four-byte codes too, and of the line's own encoding when a file mixes
        // UTF-8 and legacy lines or tells its encoding only after an ASCII head.
        let long: String = "\u{3400}\u{70ae}\u{3401}\u{4e8c}\u{5e73}".repeat(12);
        let game = |comment: &str| format!("[Event \"x\"]\n\n1. h2e2 {{{comment}}} h9g7 *\n\n");
        let gb18030 = |text: &str| encoding_rs::GB18030.encode(text).0.into_owned();
        let big5 = "\u{70ae}\u{4e8c}\u{5e73}\u{4e94}".repeat(15);
        let utf8_head = game("\u{70ae}\u{4e8c}\u{5e73}\u{4e94}").repeat(3);
        // (file, encoding given, the last comment, whether the file mixes encodings)
        let cases: Vec<(Vec<u8>, Option<Encoding>, &str, bool)> = vec![
            (gb18030(&game(&long)), Some(Encoding::Gbk), &long, false),
            (gb18030(&game(&long)), None, &long, false),
            (
                gb18030(&(game("ab").repeat(40) + &game(&long))),
                None,
                &long,
                false,
            ),
            (
                encoding::encode(&game(&big5), Encoding::Big5).into_owned(),
                None,
                &big5,
                false,
            ),
            (
                [
                    utf8_head.as_bytes(),
                    &encoding::encode(&game(&big5), Encoding::Big5),
                ]
                .concat(),
                None,
                &big5,
                true,
            ),
            (
                [
                    gb18030(&game("\u{70ae}\u{4e8c}\u{5e73}\u{4e94}").repeat(3)),
                    game(&long).into_bytes(),
                ]
                .concat(),
                None,
                &long,
                true,
            ),
        ];
        for (bytes, encoding, comment, mixed) in cases {
            let options = ReadOptions {
                encoding,
                ..ReadOptions::default()
            };
            let whole = long_lines_read_as_whole(&bytes, options, mixed);
            assert_eq!(comments(&whole).last(), Some(&Some(comment.to_owned())));
        }
    }

    #[test]
    fn a_long_line_with_bytes_that_are_not_text_is_cut_as_decoding_reads_them() {
        // Each piece is decoded on its own: a cut must fall where decoding a whole line would
        // pass from one character (or one bad byte) to the next, or a piece would start inside
        // a character and pair the rest of the line wrongly.
        let gbk = encoding::encode(&"\u{4e2d}".repeat(60), Encoding::Gbk).into_owned();
        let big5 = encoding::encode(&"\u{70ae}".repeat(60), Encoding::Big5).into_owned();
        let bad: [(&[u8], Encoding, &[u8]); 8] = [
            // A lead and a digit, then no lead: the lead alone is bad, the digit is a digit.
            (b"\x81\x35\x5a", Encoding::Gbk, &gbk),
            (b"\x81\x35", Encoding::Gbk, &gbk),
            // A lead, a digit, a lead and no digit: the first two as above, then a pair.
            (b"\x81\x35\x81", Encoding::Gbk, &gbk),
            // A four-byte code outside GB 18030's ranges: four bad bytes together.
            (b"\xfe\x39\xfe\x39", Encoding::Gbk, &gbk),
            // 0xFF, and 0x80 in Big5: one bad byte each; a lead before ASCII: the lead alone.
            (b"\xff", Encoding::Gbk, &gbk),
            (b"\xff", Encoding::Big5, &big5),
            (b"\x80", Encoding::Big5, &big5),
            (b"\xa4\x30", Encoding::Big5, &big5),
        ];
        for (bad, encoding, text) in bad {
            let bytes = [
                &b"[Event \"x\"]\n\n1. h2e2 {"[..],
                bad,
                text,
                bad,
                text,
                // (A space: a lead left at the end takes no `}` as its trail.)
                b" } h9g7 *\n\n",
            ]
            .concat();
            let options = ReadOptions {
                encoding: Some(encoding),
                ..ReadOptions::default()
            };
            let whole = long_lines_read_as_whole(&bytes, options, false);
            let comment = comments(&whole).pop().flatten().unwrap();
            assert!(comment.contains('\u{fffd}'), "{bad:x?}");
        }
    }

    #[test]
    fn a_cut_between_two_characters_decodes_as_the_whole() {
        // Random bytes from every class a walk must tell apart (digits, ASCII trails, 0x80,
        // leads, high trails, 0xFF, line ends and controls, UTF-8 leads). The cut is made in the
        // bytes read so far (each prefix), and the two sides decoded on their own give what
        // decoding the whole gives, in each encoding.
        let classes: [&[u8]; 8] = [
            b"0123456789",
            b"@AZ_bdz~",
            b"\x80",
            b"\x81\x88\xa4\xfe",
            b"\xa1\xa3\xa5\xbf",
            b"\xff",
            b"\r\n \x7f",
            b"\xc0\xc2\xe0\xe4\xed\xf0\xf4",
        ];
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        for case in 0..20_000 {
            // (After an ASCII byte: a cut is never at 0, so bytes that hold no whole character
            // are cut after their first byte, which this is not about.)
            let len = (next() % 14) as usize;
            let bytes: Vec<u8> = std::iter::once(b'x')
                .chain((0..len).map(|_| {
                    let class = classes[(next() % classes.len() as u64) as usize];
                    class[(next() % class.len() as u64) as usize]
                }))
                .collect();
            for encoding in [Encoding::Gbk, Encoding::Big5, Encoding::Utf8] {
                let decode = |bytes| encoding.decoder().decode_without_bom_handling(bytes).0;
                let whole = decode(&bytes);
                for read in 1..=bytes.len() {
                    let cut = char_boundary(&bytes[..read], encoding);
                    assert!(
                        cut == 1 || bytes[cut - 1] != b'\r',
                        "{bytes:x?} cut at {cut}"
                    );
                    let (a, b) = bytes.split_at(cut);
                    assert_eq!(
                        decode(a) + decode(b),
                        whole,
                        "case {case} {encoding:?} {bytes:x?}: {read} read, cut at {cut}"
                    );
                }
            }
        }
    }

    /// The first move's comment of each game.
    fn comments(games: &[Result<Game, ReadError>]) -> Vec<Option<String>> {
        let game =
            |g: &Result<Game, ReadError>| g.as_ref().unwrap().moves[0].comment().map(str::to_owned);
        games.iter().map(game).collect()
    }

    /// Checks that `bytes` streamed and in pieces from a source that gives a few bytes a read
    /// (so that long lines are cut wherever a read ends) give what reading them whole gives:
    /// the same games, or the same comments for a file mixing encodings (told from its head
    /// when streamed, so places on the other encoding's lines differ). Gives the games read whole.
    fn long_lines_read_as_whole(
        bytes: &[u8],
        options: ReadOptions,
        mixed: bool,
    ) -> Vec<Result<Game, ReadError>> {
        let whole = format::read_with(bytes, Some("pgn"), options, crate::pgn::MAX_GAME)
            .unwrap()
            .games;
        for (head, chunk, max_line, read) in [(16, 9, 3, 1), (64, 40, 7, 5), (64, 40, 2, 13)] {
            let limits = small_limits(head, chunk, max_line);
            let stream = || {
                GameStream::with_limits(Trickle(bytes, read), Some("pgn"), options, limits).unwrap()
            };
            let streamed: Vec<_> = stream().collect();
            let (pieced, _) = pieced_kept(stream(), 2);
            if mixed {
                assert_eq!(comments(&streamed), comments(&whole), "{limits:?} {read}");
                assert_eq!(comments(&pieced), comments(&whole), "{limits:?} {read}");
            } else {
                assert_eq!(streamed, whole, "{limits:?} {read}");
                assert_eq!(pieced, whole, "{limits:?} {read}");
            }
        }
        whole
    }

    /// A source that gives at most `.1` bytes a read.
    struct Trickle<'a>(&'a [u8], usize);

    impl io::Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = buf.len().min(self.1).min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    #[test]
    fn streamed_is_whole_for_odd_braces_brackets_and_comments() {
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        let options = ReadOptions {
            format: Some(Format::Pgn),
            ..ReadOptions::default()
        };
        let mut kept = 0;
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
                kept += pieced_is_whole(&bytes, options, limits, &whole);
            }
        }
        // The pieces read on their own were many, not only those read again in order.
        assert!(kept > 1000, "{kept}");
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
            ..ReadOptions::default()
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
        while !chunks.at.done {
            chunks.fill().unwrap();
            most = most.max(chunks.at.text.len());
        }
        assert_eq!(chunks.pending.len(), 4);
        assert!(most < 64 << 10, "held {most} bytes");
    }
}
