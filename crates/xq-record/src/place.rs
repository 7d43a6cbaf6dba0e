//! Where a place of a decoded text stands in its file: readers work on decoded text, but errors
//! and games say where they are by the byte offset in the file as stored (GBK, Big5, UTF-16 …),
//! which a person or tool can seek to.

use crate::{
    encoding::{self, Encoding, Replaced},
    error::ReadError,
    game::{Game, Node},
};

/// Byte offsets in the file of positions in a decoded text, found moving forward (moving back
/// counts again from the last place remembered before: places are remembered every
/// [`MARK_EVERY`] bytes of text, so that going back, as placing a DhtmlXQ record's branches after
/// its main line does, costs at most that much counting).
pub(crate) struct Place<'a> {
    pos: usize,
    offset: usize,
    base: usize,
    /// The bytes that are not text, as decoding noted them (in order): each U+FFFD of the text
    /// that stands for some is measured by them.
    replaced: &'a [Replaced],
    /// The first of `replaced` not yet passed.
    next: usize,
    /// Places passed, in order: (`pos`, `offset`, `next`) there.
    marks: Vec<(usize, usize, usize)>,
    /// Whether games' moves are placed where placing them costs a count (see
    /// [`ReadOptions::unplaced_moves`](crate::ReadOptions)).
    moves: bool,
}

/// How many bytes of text apart the places remembered for going back are (at least).
const MARK_EVERY: usize = 4096;

impl<'a> Place<'a> {
    /// Positions in a text decoded from the bytes at file offset `base`, with the bytes not text
    /// among them (`replaced`).
    pub(crate) fn new(base: usize, replaced: &'a [Replaced]) -> Place<'a> {
        Place {
            pos: 0,
            offset: base,
            base,
            replaced,
            next: 0,
            marks: Vec::new(),
            moves: true,
        }
    }

    /// The same, placing games' moves only if `moves` or if placing them costs nothing (else
    /// they are left unplaced: see [`ReadOptions::unplaced_moves`](crate::ReadOptions)).
    pub(crate) fn placing_moves(self, moves: bool) -> Place<'a> {
        Place { moves, ..self }
    }

    /// Whether text decoded from `encoding` is the file's bytes, byte for byte, from `base` on:
    /// UTF-8 without bytes that are not text (line ends and byte-order marks are mended in place,
    /// keeping their length). Then a place is found without counting.
    fn byte_for_byte(&self, encoding: Encoding) -> bool {
        encoding == Encoding::Utf8 && self.replaced.is_empty()
    }

    /// The file offset of `text[pos..]`.
    #[inline]
    pub(crate) fn offset(&mut self, text: &str, pos: usize, encoding: Encoding) -> usize {
        if self.byte_for_byte(encoding) {
            return self.base + pos;
        }
        if pos < self.pos {
            let before = self.marks.partition_point(|&(at, _, _)| at <= pos);
            (self.pos, self.offset, self.next) = match before {
                0 => (0, self.base, 0),
                i => self.marks[i - 1],
            };
        }
        let piece = text.get(self.pos..pos).unwrap_or("");
        self.offset = if self.replaced.is_empty() {
            self.offset + encoded_len(piece, encoding)
        } else {
            self.measure_replaced(piece, encoding)
        };
        self.pos = pos;
        if pos >= self.marks.last().map_or(0, |&(at, _, _)| at) + MARK_EVERY {
            self.marks.push((pos, self.offset, self.next));
        }
        self.offset
    }

    /// The file offset after `piece`, the text from the current place on, when the file has
    /// bytes that are not text: a U+FFFD that stands for some is as long as they are (one that
    /// does not, a character of a UTF-8 file, is measured as any character).
    fn measure_replaced(&mut self, piece: &str, encoding: Encoding) -> usize {
        let mut offset = self.offset;
        let mut parts = piece.split('\u{fffd}');
        if let Some(first) = parts.next() {
            offset += encoded_len(first, encoding);
        }
        for part in parts {
            while self
                .replaced
                .get(self.next)
                .is_some_and(|r| r.offset < offset)
            {
                self.next += 1;
            }
            offset += match self.replaced.get(self.next) {
                Some(r) if r.offset == offset => {
                    self.next += 1;
                    usize::from(r.len)
                }
                _ => encoded_len("\u{fffd}", encoding),
            };
            offset += encoded_len(part, encoding);
        }
        offset
    }

    /// `item` as read from `text`, its places (an error's offset, the offset of a game's start
    /// position) moved from the text to the file.
    pub(crate) fn locate(
        &mut self,
        item: Result<Game, ReadError>,
        text: &str,
        encoding: Encoding,
    ) -> Result<Game, ReadError> {
        match item {
            Ok(mut game) => {
                if let Some(pos) = game.fen_offset {
                    game.fen_offset = Some(self.offset(text, pos, encoding));
                }
                if self.moves || self.byte_for_byte(encoding) {
                    self.locate_moves(&mut game.moves, text, encoding);
                } else {
                    unplace_moves(&mut game.moves);
                }
                Ok(game)
            }
            Err(err) => Err(self.locate_error(err, text, encoding)),
        }
    }

    /// `err` as read from `text`, its offset moved from the text to the file.
    pub(crate) fn locate_error(
        &mut self,
        mut err: ReadError,
        text: &str,
        encoding: Encoding,
    ) -> ReadError {
        if let Some(pos) = err.offset {
            err.offset = Some(self.offset(text, pos, encoding));
        }
        err
    }
}

/// How many line ends (LF bytes) `bytes` hold. Counted in blocks of 255 bytes with a byte-wide
/// sum per block, which the compiler turns into vector instructions (a byte at a time, counting
/// the lines of the pieces of a large file cost four instructions a byte).
pub(crate) fn newlines(bytes: &[u8]) -> u32 {
    bytes
        .chunks(255)
        .map(|block| {
            let in_block = block
                .iter()
                .fold(0u8, |n, &b| n.wrapping_add(u8::from(b == b'\n')));
            u32::from(in_block)
        })
        .fold(0u32, u32::wrapping_add)
}

impl Place<'_> {
    /// The moves of `line` placed in the file, in the order they are written: a move, the
    /// variations replacing it, then the next move.
    fn locate_moves(&mut self, line: &mut [Node], text: &str, encoding: Encoding) {
        if self.byte_for_byte(encoding) {
            shift_moves(line, self.base);
            return;
        }
        for node in line {
            if let Some(pos) = node.source_offset() {
                node.set_source_offset(Some(self.offset(text, pos, encoding)));
            }
            for variation in node.variations_mut() {
                self.locate_moves(variation, text, encoding);
            }
        }
    }
}

/// The moves of `line` unplaced: what they hold is their place in the decoded text, not in the
/// file.
fn unplace_moves(line: &mut [Node]) {
    for node in line {
        node.set_source_offset(None);
        for variation in node.variations_mut() {
            unplace_moves(variation);
        }
    }
}

/// The moves of `line` placed `by` bytes on: placed in UTF-8 text whose bytes are the file's
/// from byte `by` on (see [`Place::offset`]).
fn shift_moves(line: &mut [Node], by: usize) {
    for node in line {
        if let Some(pos) = node.source_offset() {
            node.set_source_offset(Some(pos + by));
        }
        for variation in node.variations_mut() {
            shift_moves(variation, by);
        }
    }
}

/// The length of `text` in `encoding`, without a byte-order mark.
fn encoded_len(text: &str, encoding: Encoding) -> usize {
    match encoding {
        Encoding::Utf8 => text.len(),
        Encoding::Utf16Le | Encoding::Utf16Be => text.encode_utf16().count() * 2,
        Encoding::Big5 => big5_len(text),
        Encoding::Gbk => text.chars().map(|c| double_byte_len(c, encoding)).sum(),
    }
}

/// What each byte of UTF-8 text decoded from Big5 adds to its length in Big5 (an ASCII byte 1,
/// a byte leading any other character 2 but a combining mark, a continuation byte nothing),
/// and, in the upper half,
/// how many BD bytes (the last of U+FFFD) there are (texts read are far below 2 GiB, so the
/// halves never mix).
const BIG5_WEIGHT: [u64; 256] = {
    let mut table = [0; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = match b {
            0x00..=0x7F => 1,
            // Combining marks and the rest of U+0300–U+037F: in Big5 only the second character
            // of the four codes that stand for two, which are two bytes with the first.
            0xCC | 0xCD => 0,
            0xC0..=0xFF => 2,
            0xBD => 1 << 32,
            _ => 0,
        };
        b += 1;
    }
    table
};

/// The length in Big5 of `text`, decoded from Big5: as [`double_byte_len`] counts it, from the
/// UTF-8 bytes ([`BIG5_WEIGHT`]), U+FFFD (when a BD byte is seen) measured as that function
/// measures it.
fn big5_len(text: &str) -> usize {
    let bytes = text.as_bytes();
    let total: u64 = bytes.iter().map(|&b| BIG5_WEIGHT[usize::from(b)]).sum();
    let mut len = (total & 0xFFFF_FFFF) as usize;
    if total >> 32 != 0 {
        // (BD ends many a Chinese character too: the U+FFFD are counted, by memchr's search.)
        let bad = encoding::replacements().find_iter(bytes).count();
        if bad > 0 {
            len = len - 2 * bad + bad * double_byte_len('\u{fffd}', Encoding::Big5);
        }
    }
    len
}

/// The length in GBK or Big5 of `c`, a character of a text decoded from it. Counted, not
/// encoded, for the characters records are made of (encoding each piece of text between two
/// moves took a third of the time of checking a Big5 archive): ASCII is one byte, every other
/// character of Big5 two (the text came from the file, so it is in Big5), but a combining mark,
/// which Big5 has only after a letter in the four codes that stand for two characters
/// (`Ê̄` …), nothing; in GBK (read as
/// GB 18030) the unified ideographs U+4E00–U+9FA5 and the full-width forms are two bytes, and
/// rarer characters are measured by the GB 18030 code they were read from (four bytes for the
/// characters GBK has no two-byte code for; two for the few two-byte codes GB 18030 reads as
/// characters it writes otherwise). U+FFFD here is a character of the file, not bytes that are
/// not text (those are measured as decoding found them): in Big5, which has none, it is measured
/// by its encoded form. A file that mixes UTF-8 lines into GBK or Big5 ones is not placed
/// exactly after such a line (encoding the UTF-8 line's characters does not give their length
/// in the file).
fn double_byte_len(c: char, encoding: Encoding) -> usize {
    match c {
        _ if c.is_ascii() => 1,
        '\u{300}'..='\u{37f}' if encoding == Encoding::Big5 => 0,
        // GBK writes € as the one byte 80 (this crate's writer too); GB 18030 also as A2 E3,
        // which the text cannot tell apart.
        '\u{20ac}' if encoding == Encoding::Gbk => 1,
        _ if encoding == Encoding::Big5 && c != '\u{fffd}' => 2,
        '\u{4e00}'..='\u{9fa5}' | '\u{ff01}'..='\u{ff5e}' if encoding == Encoding::Gbk => 2,
        _ if encoding == Encoding::Gbk => {
            let mut utf8 = [0; 4];
            let (code, _, unmappable) = encoding_rs::GB18030.encode(c.encode_utf8(&mut utf8));
            if unmappable { 2 } else { code.len() }
        }
        _ => encoding::encode(c.encode_utf8(&mut [0; 4]), encoding).len(),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn line_ends_are_counted_in_every_block() {
        let mut text = Vec::new();
        for i in 0..2000usize {
            text.push(if i % 7 == 0 || (600..900).contains(&i) {
                b'\n'
            } else {
                b'a'
            });
        }
        for (from, to) in [
            (0, 0),
            (0, 1),
            (0, 255),
            (0, 256),
            (3, 1000),
            (0, 2000),
            (599, 901),
        ] {
            let slice = &text[from..to];
            let by_byte = slice.iter().filter(|&&b| b == b'\n').count();
            assert_eq!(newlines(slice) as usize, by_byte, "{from}..{to}");
        }
        assert_eq!(newlines(&[b'\n'; 256]), 256);
        assert_eq!(newlines(&[b'\r'; 300]), 0);
    }

    #[test]
    fn counted_lengths_are_the_encoded_lengths() {
        // Every character GBK's two-byte shortcut counts, against the encoder.
        for c in ('\u{4e00}'..='\u{9fa5}').chain('\u{ff01}'..='\u{ff5e}') {
            let s = c.to_string();
            assert_eq!(
                encoded_len(&s, Encoding::Gbk),
                encoding::encode(&s, Encoding::Gbk).len(),
                "{c}"
            );
        }
        // What Big5 decodes a two-byte code to (a character, or two for four codes) is counted
        // two bytes, counted from the bytes or character by character.
        for lead in 0x81..=0xFEu8 {
            for trail in (0x40..=0x7Eu8).chain(0xA1..=0xFE) {
                let pair = [lead, trail];
                let text = encoding::decode(&pair, Encoding::Big5);
                if !text.contains('\u{fffd}') {
                    assert_eq!(encoded_len(&text, Encoding::Big5), 2, "{lead:x} {trail:x}");
                    let by_char: usize = text
                        .chars()
                        .map(|c| double_byte_len(c, Encoding::Big5))
                        .sum();
                    assert_eq!(by_char, 2, "{lead:x} {trail:x}");
                }
            }
        }
        // Big5 counted from the bytes: as character by character, whatever the text.
        for text in [
            "1. 炮五平四 馬８進７ {好}\n",
            "a\u{fffd}b\u{ff18}\u{fffd}",
            "1. 炮五平四 馬８進７ {好} \u{fffd}\u{fffd}a\u{fffd} 1. 炮五平四 馬８進７ \u{fffd}",
            "\u{ff01}\u{00e9}\u{1f600}x",
            "",
            // Long, with marks and U+FFFD.
            &"1. 炮五平四 馬８進７ E\u{304}\u{fffd} ".repeat(40),
        ] {
            let by_char: usize = text
                .chars()
                .map(|c| double_byte_len(c, Encoding::Big5))
                .sum();
            assert_eq!(big5_len(text), by_char, "{text}");
        }
        // GBK is read as GB 18030: every character read from a two-byte code is counted two
        // bytes, and from a four-byte code (one in 97 of them) four; € one, as GBK writes it.
        assert_eq!(
            encoded_len("a\u{20ac}b", Encoding::Gbk),
            encoding::encode("a\u{20ac}b", Encoding::Gbk).len()
        );
        let read = |code: &[u8]| {
            let (text, bad) = encoding_rs::GB18030.decode_without_bom_handling(code);
            (!bad && text.chars().count() == 1).then(|| text.into_owned())
        };
        for lead in 0x81..=0xFEu8 {
            for trail in (0x40..=0x7Eu8).chain(0x80..=0xFE) {
                if let Some(text) = read(&[lead, trail]).filter(|t| t != "\u{20ac}") {
                    assert_eq!(encoded_len(&text, Encoding::Gbk), 2, "{lead:x} {trail:x}");
                }
            }
        }
        for n in (0..4 * 10 * 126 * 10u32).step_by(97) {
            let code = [
                0x81 + (n / 12600) as u8,
                0x30 + (n / 1260 % 10) as u8,
                0x81 + (n / 10 % 126) as u8,
                0x30 + (n % 10) as u8,
            ];
            if let Some(text) = read(&code) {
                assert_eq!(encoded_len(&text, Encoding::Gbk), 4, "{code:x?}");
            }
        }
        let mixed = "1. 炮五平四 馬８進７ {好} \u{fffd}\u{fffd}a\u{fffd}";
        for enc in [Encoding::Big5, Encoding::Utf8] {
            assert_eq!(
                encoded_len(mixed, enc),
                encoding::encode(mixed, enc).len(),
                "{enc:?}"
            );
        }
        // A U+FFFD of a GBK file is a character there, written with GB 18030's four bytes.
        assert_eq!(
            encoded_len(mixed, Encoding::Gbk),
            encoding_rs::GB18030.encode(mixed).0.len()
        );
    }
}
