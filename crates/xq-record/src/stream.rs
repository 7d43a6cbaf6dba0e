//! Reading the games of a file one by one, in bounded memory for PGN.
//!
//! A PGN archive can be any size: it is read in chunks of about a megabyte that end where a game
//! ends (a line starting with `[` after a line that is not a tag), each chunk decoded and parsed
//! on its own, so memory holds one chunk (and the longest game) whatever the file's size. Games
//! and errors are numbered as in the whole file: game index, line, and the byte offset in the
//! file. Other formats are small by nature (one game per XQF/CBR/CBF file; a CBL library is a few
//! megabytes) and are read whole.
//!
//! The encoding and format are told from the file's head (its first 64 KiB, cut at a line end).
//! UTF-16 text is read whole.

use std::{
    collections::VecDeque,
    io::{self, BufRead, BufReader, Read},
    path::Path,
};

use crate::{
    encoding::{self, Encoding},
    error::{ReadError, ReadErrorKind},
    format::{self, Format, ReadOptions, Records},
    game::Game,
    pgn::PgnReader,
};

/// How much of a file is looked at to tell its encoding and format.
pub const HEAD: usize = 64 * 1024;

/// The size a PGN chunk grows to before it is cut at the next game.
pub const CHUNK: usize = 1 << 20;

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
    pub fn with_chunk(
        mut source: impl Read + Send + 'r,
        extension: Option<&str>,
        options: ReadOptions,
        chunk: usize,
    ) -> Result<GameStream<'r>, ReadError> {
        let mut head = Vec::with_capacity(HEAD.min(1 << 16));
        (&mut source)
            .take(HEAD as u64)
            .read_to_end(&mut head)
            .map_err(|e| io_error(&e))?;
        let whole = head.len() < HEAD;
        let loaded = |bytes: &[u8]| -> Result<GameStream<'r>, ReadError> {
            let records = format::read(bytes, extension, options)?;
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
        let format = options
            .format
            .unwrap_or_else(|| format::sniff(&head, extension, text.as_deref()));
        let streamable = format == Format::Pgn
            && matches!(
                encoding,
                Some(Encoding::Utf8 | Encoding::Gbk | Encoding::Big5)
            );
        if !streamable {
            source.read_to_end(&mut head).map_err(|e| io_error(&e))?;
            return loaded(&head);
        }
        let encoding = encoding.unwrap_or(Encoding::Utf8);
        let bom = if head.starts_with(&[0xEF, 0xBB, 0xBF]) {
            3
        } else {
            0
        };
        let src: Box<dyn BufRead + Send + 'r> = Box::new(BufReader::with_capacity(
            1 << 16,
            io::Cursor::new(head).chain(source),
        ));
        let chunks = PgnChunks {
            src,
            encoding,
            target: chunk.max(1),
            carry: Vec::new(),
            line: 1,
            game: 0,
            offset: 0,
            bom,
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

/// PGN text read a chunk of whole games at a time.
struct PgnChunks<'r> {
    src: Box<dyn BufRead + Send + 'r>,
    encoding: Encoding,
    target: usize,
    /// A line already read that starts the next chunk.
    carry: Vec<u8>,
    /// The line (1-based) on which the next chunk starts.
    line: u32,
    /// The index of the next chunk's first game.
    game: usize,
    /// The byte offset in the file of the next chunk.
    offset: usize,
    /// The length of a byte-order mark at the start of the file (dropped by decoding).
    bom: usize,
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

    /// Reads lines up to the first game boundary after `target` bytes (or the end); returns the
    /// chunk and the number of lines in it.
    fn read_chunk(&mut self, buf: &mut Vec<u8>, lines: &mut u32) -> io::Result<()> {
        let mut last_was_tag = false;
        let mut line = std::mem::take(&mut self.carry);
        if !line.is_empty() {
            last_was_tag = true;
            buf.append(&mut line);
            *lines += 1;
        }
        loop {
            line.clear();
            if self.src.read_until(b'\n', &mut line)? == 0 {
                self.done = true;
                return Ok(());
            }
            // After a newline (or at the start) a byte is never the second of a GBK/Big5 pair,
            // so a `[` here is a real bracket.
            let trimmed = line.trim_ascii_start();
            let is_tag = trimmed.first() == Some(&b'[');
            if is_tag && !last_was_tag && buf.len() >= self.target {
                self.carry = line;
                return Ok(());
            }
            if !trimmed.is_empty() {
                last_was_tag = is_tag;
            }
            buf.extend_from_slice(&line);
            *lines += 1;
        }
    }

    fn fill(&mut self) -> io::Result<()> {
        let mut buf = Vec::with_capacity(self.target + self.target / 4);
        let mut lines = 0;
        loop {
            self.read_chunk(&mut buf, &mut lines)?;
            // A comment left open means the cut fell inside it: read on to the next game.
            let text = encoding::decode(&buf, self.encoding);
            if self.done || text.matches('{').count() <= text.matches('}').count() {
                break;
            }
        }
        let text = encoding::decode(&buf, self.encoding);
        let base = if self.offset == 0 {
            self.bom
        } else {
            self.offset
        };
        let before = self.pending.len();
        self.pending
            .extend(pgn_games(&text, self.encoding, base, self.line, self.game));
        self.game += self.pending.len() - before;
        self.offset += buf.len();
        self.line += lines;
        Ok(())
    }
}

/// The games of PGN `text` (decoded from the bytes at file offset `base` in `encoding`, starting
/// on line `line` with game index `game`), errors placed by their byte offset in the file.
pub(crate) fn pgn_games(
    text: &str,
    encoding: Encoding,
    base: usize,
    line: u32,
    game: usize,
) -> impl Iterator<Item = Result<Game, ReadError>> {
    PgnReader::with_origin(text, line, game).map(move |item| {
        item.map_err(|mut err| {
            if let Some(pos) = err.offset {
                err.offset = Some(base + encoded_len(text.get(..pos).unwrap_or(text), encoding));
            }
            err
        })
    })
}

/// The length of `text` in `encoding`, without a byte-order mark.
fn encoded_len(text: &str, encoding: Encoding) -> usize {
    match encoding {
        Encoding::Utf8 => text.len(),
        Encoding::Utf16Le | Encoding::Utf16Be => text.encode_utf16().count() * 2,
        other => encoding::encode(text, other).len(),
    }
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
}
