//! Telling the text encoding of a record from its bytes.
//!
//! A byte-order mark decides (UTF-8, UTF-16LE, UTF-16BE). Otherwise valid UTF-8 is UTF-8. Otherwise
//! the record is GBK (GB18030) or Big5, and since Big5 text decodes without error as GBK (into
//! nonsense), the two are told apart by counting, in the raw bytes, the double-byte codes that
//! spell the notation's characters (车車 马馬 进進 平 退 …) in each encoding: the encoding in which
//! the record is full of move words is the record's. UTF-16 without a mark is recognised by its
//! zero bytes.
//!
//! Record files are decoded line by line so that nothing is lost: a line that is valid UTF-8 is
//! read as UTF-8 in a GBK or Big5 file, and a line that is not UTF-8 in a UTF-8 file in the legacy
//! encoding (files concatenated from both read correctly; only when the encoding was detected, not
//! given); a file whose first line end is a lone CR has CR line ends; a byte-order mark starting a
//! later line becomes spaces. Bytes still invalid become U+FFFD.

use std::{
    borrow::Cow,
    sync::{
        OnceLock,
        atomic::{AtomicU32, Ordering},
    },
};

use serde::Serialize;

/// A text encoding of records.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Encoding {
    /// UTF-8, with or without a byte-order mark.
    #[serde(rename = "utf-8")]
    Utf8,
    /// UTF-16 little-endian (CBR/CBL strings, some Windows exports).
    #[serde(rename = "utf-16le")]
    Utf16Le,
    /// UTF-16 big-endian.
    #[serde(rename = "utf-16be")]
    Utf16Be,
    /// GBK / GB18030 (mainland software: xqbase, XQF strings).
    Gbk,
    /// Big5 (Taiwanese archives such as CCPD).
    Big5,
}

impl Encoding {
    /// Reads an encoding name: `utf-8`, `utf-16le`, `utf-16be`, `gbk` (also `gb2312`, `gb18030`),
    /// `big5`.
    pub fn from_name(name: &str) -> Option<Encoding> {
        Some(match name.to_ascii_lowercase().replace('_', "-").as_str() {
            "utf-8" | "utf8" => Encoding::Utf8,
            "utf-16le" | "utf16le" | "utf-16" => Encoding::Utf16Le,
            "utf-16be" | "utf16be" => Encoding::Utf16Be,
            "gbk" | "gb2312" | "gb18030" | "cp936" => Encoding::Gbk,
            "big5" | "cp950" | "big5-hkscs" => Encoding::Big5,
            _ => return None,
        })
    }

    /// The name.
    pub const fn name(self) -> &'static str {
        match self {
            Encoding::Utf8 => "utf-8",
            Encoding::Utf16Le => "utf-16le",
            Encoding::Utf16Be => "utf-16be",
            Encoding::Gbk => "gbk",
            Encoding::Big5 => "big5",
        }
    }

    pub(crate) fn decoder(self) -> &'static encoding_rs::Encoding {
        match self {
            Encoding::Utf8 => encoding_rs::UTF_8,
            Encoding::Utf16Le => encoding_rs::UTF_16LE,
            Encoding::Utf16Be => encoding_rs::UTF_16BE,
            Encoding::Gbk => encoding_rs::GB18030,
            Encoding::Big5 => encoding_rs::BIG5,
        }
    }
}

/// Characters that fill every record in Chinese notation (both scripts), and the words of tags.
/// (What [`GBK_CODES`] and [`BIG5_CODES`] are the codes of; a test encodes them.)
#[cfg_attr(not(test), allow(dead_code))]
const TELLTALES: &str = "进進退平车車俥马馬傌炮砲包兵卒帅帥将將仕士相象前后後中一二三四五六七八九１２３４５６７８９红紅黑胜勝负負和局赛賽";

/// How many more telltale codes one encoding must find than the other to settle the question.
const DECISIVE: usize = 24;

/// The codes of the [`TELLTALES`] in GBK, as encoding_rs encodes them (a test checks them:
/// encoding them at every start took half a million instructions, more than reading a game).
#[rustfmt::skip]
const GBK_CODES: [[u8; 2]; 56] = [
    [0xBD, 0xF8], [0xDF, 0x4D], [0xCD, 0xCB], [0xC6, 0xBD], [0xB3, 0xB5], [0xDC, 0x87],
    [0x82, 0x65], [0xC2, 0xED], [0xF1, 0x52], [0x82, 0xD8], [0xC5, 0xDA], [0xB3, 0x68],
    [0xB0, 0xFC], [0xB1, 0xF8], [0xD7, 0xE4], [0xCB, 0xA7], [0x8E, 0x9B], [0xBD, 0xAB],
    [0x8C, 0xA2], [0xCA, 0xCB], [0xCA, 0xBF], [0xCF, 0xE0], [0xCF, 0xF3], [0xC7, 0xB0],
    [0xBA, 0xF3], [0xE1, 0xE1], [0xD6, 0xD0], [0xD2, 0xBB], [0xB6, 0xFE], [0xC8, 0xFD],
    [0xCB, 0xC4], [0xCE, 0xE5], [0xC1, 0xF9], [0xC6, 0xDF], [0xB0, 0xCB], [0xBE, 0xC5],
    [0xA3, 0xB1], [0xA3, 0xB2], [0xA3, 0xB3], [0xA3, 0xB4], [0xA3, 0xB5], [0xA3, 0xB6],
    [0xA3, 0xB7], [0xA3, 0xB8], [0xA3, 0xB9], [0xBA, 0xEC], [0xBC, 0x74], [0xBA, 0xDA],
    [0xCA, 0xA4], [0x84, 0xD9], [0xB8, 0xBA], [0xD8, 0x93], [0xBA, 0xCD], [0xBE, 0xD6],
    [0xC8, 0xFC], [0xD9, 0x90],
];

/// The codes of the [`TELLTALES`] Big5 has, as encoding_rs encodes them.
#[rustfmt::skip]
const BIG5_CODES: [[u8; 2]; 47] = [
    [0xB6, 0x69], [0xB0, 0x68], [0xA5, 0xAD], [0xA8, 0xAE], [0xB0, 0xA8], [0xD8, 0x58],
    [0xAC, 0xB6], [0xAF, 0xA5], [0xA5, 0x5D], [0xA7, 0x4C], [0xA8, 0xF2], [0xAB, 0xD3],
    [0xB1, 0x4E], [0xA5, 0x4B], [0xA4, 0x68], [0xAC, 0xDB], [0xB6, 0x48], [0xAB, 0x65],
    [0xA6, 0x5A], [0xAB, 0xE1], [0xA4, 0xA4], [0xA4, 0x40], [0xA4, 0x47], [0xA4, 0x54],
    [0xA5, 0x7C], [0xA4, 0xAD], [0xA4, 0xBB], [0xA4, 0x43], [0xA4, 0x4B], [0xA4, 0x45],
    [0xA2, 0xB0], [0xA2, 0xB1], [0xA2, 0xB2], [0xA2, 0xB3], [0xA2, 0xB4], [0xA2, 0xB5],
    [0xA2, 0xB6], [0xA2, 0xB7], [0xA2, 0xB8], [0xAC, 0xF5], [0xB6, 0xC2], [0xD0, 0x60],
    [0xB3, 0xD3], [0xAD, 0x74], [0xA9, 0x4D], [0xA7, 0xBD], [0xC1, 0xC9],
];

/// Which encodings a double-byte code (lead byte 80–FF) is a telltale code of: a byte per code,
/// [`GBK_TELLTALE`] and [`BIG5_TELLTALE`] its bits: one look-up tells a code's part in both
/// counts.
struct Telltales(Box<[u8; 128 * 256]>);

const GBK_TELLTALE: u8 = 1;
const BIG5_TELLTALE: u8 = 2;

fn telltales() -> &'static Telltales {
    static TABLE: OnceLock<Telltales> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = Telltales(Box::new([0; 128 * 256]));
        for (codes, bit) in [
            (&GBK_CODES[..], GBK_TELLTALE),
            (&BIG5_CODES[..], BIG5_TELLTALE),
        ] {
            for &[lead, trail] in codes {
                table.0[usize::from(lead & 0x7F) << 8 | usize::from(trail)] |= bit;
            }
        }
        table
    })
}

impl Telltales {
    /// The bits of the code `lead trail` (`lead` from 80).
    #[inline(always)]
    fn of(&self, lead: u8, trail: u8) -> u8 {
        debug_assert!(lead >= 0x80, "{lead:x} is no lead byte");
        self.0[usize::from(lead & 0x7F) << 8 | usize::from(trail)]
    }
}

/// How many of `bytes`, from the start, are valid UTF-8: `std::str::from_utf8`'s `valid_up_to`,
/// worked out by encoding_rs's vectorised validation (several times faster than the standard
/// library's on Chinese text, which archives are full of; a test compares the two).
fn valid_utf8_up_to(bytes: &[u8]) -> usize {
    encoding_rs::Encoding::utf8_valid_up_to(bytes)
}

/// Whether `tail`, the bytes after the valid UTF-8 of a text, are one character cut short by
/// the text's end (not an error in the middle).
fn cut_at_end(tail: &[u8]) -> bool {
    std::str::from_utf8(tail).is_err_and(|e| e.valid_up_to() == 0 && e.error_len().is_none())
}

/// If `bytes` are UTF-8 but perhaps for a character cut at their end, how many of them are valid
/// (all of them, or all but the cut character); `None` if they hold an error.
fn utf8_so_far(bytes: &[u8]) -> Option<usize> {
    let valid = valid_utf8_up_to(bytes);
    (valid == bytes.len() || cut_at_end(&bytes[valid..])).then_some(valid)
}

/// Whether `bytes` are ASCII but for a character cut at their end: nothing to tell an encoding by.
pub(crate) fn is_ascii_so_far(bytes: &[u8]) -> bool {
    utf8_so_far(bytes).is_some_and(|valid| bytes[..valid].is_ascii())
}

/// The encoding of `bytes` (a whole record, or the head of one cut at a line end).
pub fn detect(bytes: &[u8]) -> Encoding {
    match bytes {
        [0xEF, 0xBB, 0xBF, ..] => return Encoding::Utf8,
        [0xFF, 0xFE, ..] => return Encoding::Utf16Le,
        [0xFE, 0xFF, ..] => return Encoding::Utf16Be,
        _ => {}
    }
    if let Some(utf16) = utf16_by_zeros(bytes) {
        return utf16;
    }
    // Valid UTF-8, or valid but for a character cut at the end (a head cut in a long line) after
    // other UTF-8 characters.
    if utf8_so_far(bytes).is_some_and(|valid| valid == bytes.len() || !bytes[..valid].is_ascii()) {
        return Encoding::Utf8;
    }
    gbk_or_big5(bytes)
}

/// `bytes` decoded, in `given` or else in the encoding [`detect`] tells, and that encoding: what
/// [`decode`] gives in it. Bytes that are UTF-8 (and not UTF-16 by their zeros) are checked once,
/// where telling the encoding and decoding checked them each.
pub fn decode_detected(bytes: &[u8], given: Option<Encoding>) -> (Encoding, Cow<'_, str>) {
    if matches!(given, None | Some(Encoding::Utf8)) {
        // (A mark is UTF-8's, and dropped; without one, zeros may tell UTF-16 first.)
        let body = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(bytes);
        let utf8 = given.is_some() || body.len() < bytes.len() || utf16_by_zeros(bytes).is_none();
        if let Some(text) = utf8
            .then(|| simdutf8::basic::from_utf8(body).ok())
            .flatten()
        {
            return (Encoding::Utf8, Cow::Borrowed(text));
        }
    }
    let encoding = given.unwrap_or_else(|| detect(bytes));
    (encoding, decode(bytes, encoding))
}

/// UTF-16 without a mark, told by its zero bytes (half the bytes of ASCII-heavy text), if
/// `bytes` start so: zeros are valid UTF-8 too, so this is told first (text records have no
/// zero bytes otherwise).
fn utf16_by_zeros(bytes: &[u8]) -> Option<Encoding> {
    let sample = &bytes[..bytes.len().min(4096)];
    // Counted only when there are any: one quick search (the memchr crate's, vectorised, a
    // fraction of the standard library's) spares text records two passes.
    let (zeros_odd, zeros_even) = if memchr::memchr(0, sample).is_some() {
        let count = |skip: usize| {
            sample
                .iter()
                .skip(skip)
                .step_by(2)
                .filter(|&&b| b == 0)
                .count()
        };
        (count(1), count(0))
    } else {
        (0, 0)
    };
    if sample.len() >= 8 && zeros_odd * 4 > sample.len() / 2 {
        return Some(Encoding::Utf16Le);
    }
    if sample.len() >= 8 && zeros_even * 4 > sample.len() / 2 {
        return Some(Encoding::Utf16Be);
    }
    None
}

/// Whether `bytes`, text in one of the two double-byte encodings of Chinese, are GBK or Big5 (GBK
/// when they cannot tell): what [`detect`] decides for text that is not UTF-8 or UTF-16.
pub(crate) fn gbk_or_big5(bytes: &[u8]) -> Encoding {
    let telltales = telltales();
    let (mut gbk, mut big5) = (0usize, 0usize);
    let mut i = 0;
    while i + 1 < bytes.len() {
        if bytes[i] < 0x80 {
            // ASCII passed over eight bytes at a time where it can be.
            while let Some(chunk) = bytes.get(i..i + 8) {
                let mut word = [0; 8];
                word.copy_from_slice(chunk);
                if u64::from_le_bytes(word) & 0x8080_8080_8080_8080 != 0 {
                    break;
                }
                i += 8;
            }
            if bytes.get(i).is_some_and(|&b| b < 0x80) {
                i += 1;
            }
            continue;
        }
        let (a, b) = (bytes[i], bytes[i + 1]);
        let bits = telltales.of(a, b);
        gbk += usize::from(bits & GBK_TELLTALE);
        big5 += usize::from(bits & BIG5_TELLTALE != 0);
        i += 2;
        // Real records settle it within a line or two; stop once one side is far ahead.
        if gbk.abs_diff(big5) >= DECISIVE {
            break;
        }
    }
    if big5 > gbk || (big5 == gbk && big5_by_its_characters(bytes)) {
        Encoding::Big5
    } else {
        Encoding::Gbk
    }
}

/// Whether the characters of `text` beyond ASCII (all of two bytes in UTF-8) are the letters of
/// one alphabet, with signs: Latin (with Latin-1, Extended-A, pinyin's tones, Vietnamese,
/// Romanian, ə, ʻ) standing in words with plain letters or alone, Greek, Cyrillic, Armenian,
/// Hebrew or Arabic; a combining mark after a letter. GBK or Big5 text read as UTF-8 by chance
/// mostly is not: rare letters (ƽ, ʯ), several scripts (叶伟 Ҷΰ, Cyrillic and Greek), Latin
/// letters together with no plain one (Big5's common characters all read as Latin-1 or
/// Extended letters: 羅蘇 ùĬ), a combining mark after a digit (1台). Some of it is (卢伟 ¬ΰ: a
/// sign and a Greek letter): read as UTF-8, as before (see the note in `docs/robustness.md`),
/// rather than turning real text of an alphabet into Chinese.
fn plausible_two_byte_text(text: &str) -> bool {
    let mut script = None;
    let mut after_letter = false;
    // In the word being read (ASCII letters and digits, and letters beyond ASCII): whether it
    // has a plain ASCII letter, and how many Latin letters beyond ASCII.
    let (mut plain, mut latin) = (false, 0);
    for c in text.chars() {
        let this = match c {
            'a'..='z' | 'A'..='Z' => {
                after_letter = true;
                plain = true;
                continue;
            }
            '0'..='9' => {
                after_letter = false;
                continue;
            }
            _ if c.is_ascii() => {
                // A word ends: Latin letters with marks stand with plain ones (Café, Xǔ), or
                // alone (à, Ő); two or more without (Big5 羅蘇 ùĬ, GBK 毛莫 ëĪ) are no word.
                if latin > 1 && !plain {
                    return false;
                }
                (plain, latin) = (false, 0);
                after_letter = false;
                continue;
            }
            // Signs and punctuation (no-break space to ¿, ×, ÷), with any alphabet.
            '\u{a0}'..='\u{bf}' | '\u{d7}' | '\u{f7}' => {
                after_letter = false;
                continue;
            }
            '\u{300}'..='\u{36f}' if after_letter => continue,
            '\u{c0}'..='\u{17f}'
            | '\u{18f}'
            | '\u{1a0}'..='\u{1b0}'
            | '\u{1cd}'..='\u{1dc}'
            | '\u{218}'..='\u{21b}'
            | '\u{259}'
            | '\u{2bb}' => {
                latin += 1;
                0
            }
            '\u{386}'..='\u{3ce}' => 1,
            // (Cyrillic and the letters of Kazakh, Mongolian, Tatar …; not the rare һ that
            // GBK 一 reads as.)
            '\u{400}'..='\u{45f}' | '\u{490}'..='\u{4b9}' | '\u{4d8}'..='\u{4e9}' => 2,
            '\u{531}'..='\u{58a}' => 3,
            '\u{591}'..='\u{5f4}' => 4,
            '\u{60c}'..='\u{6ff}' => 5,
            _ => return false,
        };
        after_letter = true;
        if *script.get_or_insert(this) != this {
            return false;
        }
    }
    latin <= 1 || plain
}

/// For a text the telltales leave undecided (a short file of names): whether more of its codes
/// are common characters read as Big5 than read as GBK, and none has a lead byte 81–A0 (GBK's
/// extension; Big5 has none but for Hong Kong additions). A second pass, over the few texts
/// that need it.
fn big5_by_its_characters(bytes: &[u8]) -> bool {
    let (mut gbk_common, mut big5_common) = (0usize, 0usize);
    let mut i = 0;
    while i + 1 < bytes.len() {
        let (a, b) = (bytes[i], bytes[i + 1]);
        if a < 0x80 {
            i += 1;
            continue;
        }
        if (0x81..=0xA0).contains(&a) {
            return false;
        }
        gbk_common += usize::from(gb2312_hanzi(a, b));
        // A code of GB 2312's rows of symbols (box drawing, Greek, kana …) tells nothing: in
        // GBK text it is a symbol, which Big5 reads as a frequent character.
        big5_common += usize::from(big5_frequent(a, b) && !gb2312_symbol(a, b));
        i += 2;
    }
    big5_common > gbk_common
}

/// Whether `a b` is a Chinese character of GB 2312 (lead B0–F7, trail A1–FE): what nearly every
/// character of simplified text in GBK is.
fn gb2312_hanzi(a: u8, b: u8) -> bool {
    (0xB0..=0xF7).contains(&a) && (0xA1..=0xFE).contains(&b)
}

/// Whether `a b` is a symbol of GB 2312 (rows A1–A9: punctuation, full-width forms, kana, Greek,
/// Cyrillic, pinyin, box drawing).
fn gb2312_symbol(a: u8, b: u8) -> bool {
    (0xA1..=0xA9).contains(&a) && (0xA1..=0xFE).contains(&b)
}

/// Whether `a b` is one of Big5's frequent characters (常用字, A440–C67E): what nearly every
/// character of traditional text in Big5 is. A traditional name in Big5 mostly reads as GBK's
/// rare extension characters (胡榮華 as 璊篴地), whose trail bytes GB 2312 never uses.
fn big5_frequent(a: u8, b: u8) -> bool {
    (0xA4..=0xC6).contains(&a) && ((0x40..=0x7E).contains(&b) || (0xA1..=0xFE).contains(&b))
}

/// `bytes` as text in `encoding` (a byte-order mark is dropped; invalid sequences become U+FFFD).
pub fn decode(bytes: &[u8], encoding: Encoding) -> Cow<'_, str> {
    let (text, _, _) = encoding.decoder().decode(bytes);
    text
}

/// The search for U+FFFD, what decoding puts for bytes it cannot read (the memchr crate's, made
/// once: made for each call, as `memchr::memmem::find` makes it, it cost about as much as
/// searching a game).
pub(crate) fn replacements() -> &'static memchr::memmem::Finder<'static> {
    static FINDER: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new("\u{fffd}"));
    &FINDER
}

/// Bytes decoding could not read, which the text holds as one U+FFFD: where they stand in the
/// file (a byte offset) and how many they are, so that places after them in the text can be
/// told in the file (U+FFFD's own length in the file's encoding is not theirs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Replaced {
    pub(crate) offset: usize,
    pub(crate) len: u8,
}

/// Decodes the text of a record file, line by line, so that nothing is lost:
///
/// * A line that is valid UTF-8 is read as UTF-8 even in a file whose encoding is GBK or Big5
///   (GBK or Big5 text of more than a character or two is never valid UTF-8), and a line that is not UTF-8 in a UTF-8 file is
///   read in the legacy encoding the file's other such lines use (told by [`detect`]): files made
///   by concatenating records of both encodings read correctly. Only when the encoding was
///   detected; an encoding given by the user decodes every line.
/// * Line ends: CRLF and LF, or, in a file whose first line end is a CR without LF (old Mac
///   files), CR: each such CR becomes LF (the same length, so byte offsets hold).
/// * A byte-order mark at the start of a line (files concatenated with `cat`) becomes spaces of
///   its length.
///
/// Bytes still invalid are replaced by U+FFFD (which validation looks for to say so).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TextDecoder {
    encoding: Encoding,
    mixing: bool,
    legacy: Option<Encoding>,
    started: bool,
    line_start: bool,
    cr_lines: Option<bool>,
    undecided: bool,
    bom: usize,
}

impl TextDecoder {
    /// A decoder for a file in `encoding`; `detected` if it was told from the content (then lines
    /// in another encoding are recognised), not given by the user.
    pub(crate) fn new(encoding: Encoding, detected: bool) -> TextDecoder {
        let mixing =
            detected && matches!(encoding, Encoding::Utf8 | Encoding::Gbk | Encoding::Big5);
        TextDecoder {
            encoding,
            mixing,
            legacy: matches!(encoding, Encoding::Gbk | Encoding::Big5).then_some(encoding),
            started: false,
            line_start: true,
            cr_lines: None,
            undecided: false,
            bom: 0,
        }
    }

    /// A decoder for a file whose first bytes are ASCII: the first bytes that are not tell the
    /// encoding (as [`detect`] tells it from them).
    pub(crate) fn undecided() -> TextDecoder {
        TextDecoder {
            undecided: true,
            ..TextDecoder::new(Encoding::Utf8, true)
        }
    }

    /// The decoder, making every CR that no LF follows a LF (a line end of the same length:
    /// offsets hold), not only in a file whose first line ends so: for the formats read by lines
    /// where a CR is never content (PGN, move lists), so that a file mixing line ends (LF, then
    /// lines ended by a CR alone, as pasting from an old Mac file leaves) has each of its lines
    /// read as one, not the CR-ended ones run together.
    pub(crate) fn ending_lines_at_lone_crs(self) -> TextDecoder {
        TextDecoder {
            cr_lines: Some(true),
            ..self
        }
    }

    /// The file's encoding.
    pub(crate) fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// The encoding a piece ending in `line` (the start of a line too long to hold at once,
    /// cut between two characters) is decoded in, so that the cut falls between two of its
    /// characters: the file's; or, when lines are read each in its own encoding (or the
    /// encoding is not told yet), UTF-8 for a line that is UTF-8 so far, else the legacy
    /// encoding, told from `piece` (the bytes the piece is cut from) as decoding tells it.
    pub(crate) fn encoding_of_long_line(&self, line: &[u8], piece: &[u8]) -> Encoding {
        if !(self.mixing || self.undecided) {
            return self.encoding;
        }
        if utf8_so_far(line).is_some() {
            return Encoding::Utf8;
        }
        if self.undecided {
            // As `decode` tells the file's encoding from its first piece that is not ASCII.
            if let found @ (Encoding::Gbk | Encoding::Big5) = detect(piece) {
                return found;
            }
        }
        self.legacy.unwrap_or_else(|| detect_legacy(piece))
    }

    /// The length of the byte-order mark dropped at the file's start.
    pub(crate) fn bom_len(&self) -> usize {
        self.bom
    }

    /// Decodes `bytes`: whole lines of the file, in order (the first call gets the file's start,
    /// where a byte-order mark is dropped), which start at byte `origin` of the file; the bytes
    /// that are not text are noted in `replaced`, in order.
    pub(crate) fn decode(
        &mut self,
        bytes: &[u8],
        origin: usize,
        replaced: &mut Vec<Replaced>,
    ) -> String {
        let at_start = !std::mem::replace(&mut self.started, true);
        if self.undecided && !bytes.is_ascii() {
            self.undecided = false;
            *self = TextDecoder {
                started: self.started,
                line_start: self.line_start,
                cr_lines: self.cr_lines,
                ..TextDecoder::new(detect(bytes), true)
            };
        }
        // (Valid UTF-8 throughout is UTF-8 at once, unless lines in a legacy encoding were
        // read: then lines UTF-8 by chance are told one by one, as reading the file whole does.)
        // (The UTF-8 found valid here is not checked again when it is taken as the text.)
        let mut checked = None;
        let simple = !self.mixing
            || bytes.is_ascii()
            || (self.encoding == Encoding::Utf8 && self.legacy.is_none() && {
                checked = simdutf8::basic::from_utf8(bytes).ok();
                checked.is_some()
            });
        let quick = || {
            // A file in GBK or Big5 (the line rule below, in one pass: see
            // `PairTable::decode_lines`); not at a byte-order mark starting the file, which the
            // rule drops or keeps by how its line reads.
            if at_start && encoding_rs::Encoding::for_bom(bytes).is_some() {
                return None;
            }
            PairTable::of(self.encoding)?
                .decode_lines(bytes, |line, first| self.utf8_line(line, first).is_some())
        };
        let mut text = if simple {
            self.decode_piece(bytes, checked, self.encoding, at_start, origin, replaced)
        } else if let Some(text) = quick() {
            if at_start {
                self.bom = 0;
            }
            text
        } else {
            // Each line in UTF-8 if it is UTF-8, else in the legacy encoding. Lines are decoded
            // in runs (from a line that is not UTF-8 to the next non-ASCII line that is): a line
            // end, and an ASCII line, read the same in every encoding, and a line end is never
            // part of a GBK or Big5 character, so decoding a run at once gives what decoding each
            // of its lines gives, in one decoder call instead of one per line.
            let mut text = String::with_capacity(bytes.len() + bytes.len() / 2);
            let mut first = at_start;
            // The start of the run being gathered.
            let mut run: Option<usize> = None;
            let mut at = 0;
            while at < bytes.len() {
                let start = at;
                let (end, non_ascii) = scan_line(bytes, start);
                at = end;
                let line = &bytes[start..end];
                let utf8 = match non_ascii {
                    None if run.is_some() => continue,
                    None => std::str::from_utf8(line).ok(),
                    Some(i) => self.utf8_line(line, i - start),
                };
                match utf8 {
                    Some(s) => {
                        if let Some(from) = run.take() {
                            let run = Run {
                                bytes: &bytes[from..start],
                                at: origin + from,
                            };
                            self.flush_run(run, bytes, &mut text, &mut first, replaced);
                        }
                        if first {
                            // The file's byte-order mark, dropped: the text starts after it.
                            let after = s.trim_start_matches('\u{feff}');
                            self.bom = s.len() - after.len();
                            text.push_str(after);
                        } else {
                            text.push_str(s);
                        }
                        first = false;
                    }
                    None => {
                        // (The legacy encoding told now: the lines after this one that are
                        // UTF-8 by chance are read in it.)
                        self.legacy.get_or_insert_with(|| detect_legacy(bytes));
                        run.get_or_insert(start);
                    }
                }
            }
            if let Some(from) = run {
                let run = Run {
                    bytes: &bytes[from..],
                    at: origin + from,
                };
                self.flush_run(run, bytes, &mut text, &mut first, replaced);
            }
            text
        };
        if self.cr_lines.is_none() {
            // Told by the file's first line end: a CR without LF makes an old Mac file.
            let first = bytes.iter().position(|&b| b == b'\r' || b == b'\n');
            self.cr_lines = first.map(|i| bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n'));
        }
        let mark = match self.encoding {
            Encoding::Utf16Le | Encoding::Utf16Be => " ",
            Encoding::Utf8 | Encoding::Gbk | Encoding::Big5 => "   ",
        };
        normalise_line_starts(
            &mut text,
            self.cr_lines == Some(true),
            mark,
            &mut self.line_start,
        );
        text
    }

    /// Whether `line`, valid UTF-8 with a character beyond ASCII, is read as UTF-8 in this file
    /// (rather than in its legacy encoding): yes, but in a GBK or Big5 file, or a UTF-8 one with
    /// a line in one already read, a line whose characters beyond ASCII are all of two bytes in
    /// UTF-8 and are not the text of one alphabet ([`plausible_two_byte_text`]), and which reads
    /// without error in the legacy encoding, is read in it. GBK and Big5 text is valid UTF-8
    /// only by chance, then almost only as such pairs of bytes, and they read as odd letters of
    /// several scripts (一, D2 BB, is Cyrillic һ; 叶伟 Ҷΰ, Cyrillic and Greek; 石强 ʯǿ, IPA and
    /// Latin), while text in UTF-8 is the letters of its alphabet (Café, Müller, Иванов,
    /// Phương), or Chinese, whose characters are of three bytes.
    fn keeps_utf8(&self, line: &str) -> bool {
        let Some(legacy) = self.legacy else {
            return true;
        };
        line.bytes().any(|b| b >= 0xE0)
            || plausible_two_byte_text(line)
            || legacy
                .decoder()
                .decode_without_bom_handling_and_without_replacement(line.as_bytes())
                .is_none()
    }

    /// `line`, whose first byte that is not ASCII is its byte `first`, as UTF-8 if it is read as
    /// UTF-8 in this file: if it is UTF-8 and [`TextDecoder::keeps_utf8`] says so. (A GBK or
    /// Big5 line is told at once, mostly: UTF-8 starts a character that is not ASCII with a byte
    /// from C2 to F4, then a byte from 80 to BF.)
    fn utf8_line<'b>(&self, line: &'b [u8], first: usize) -> Option<&'b str> {
        if !matches!(line.get(first..), Some([0xC2..=0xF4, 0x80..=0xBF, ..])) {
            return None;
        }
        std::str::from_utf8(line)
            .ok()
            .filter(|text| self.keeps_utf8(text))
    }

    /// Decodes `run`, lines of `bytes` that are not UTF-8, in the legacy encoding (told from
    /// `bytes` if not yet) onto `text`.
    fn flush_run(
        &mut self,
        run: Run<'_>,
        bytes: &[u8],
        text: &mut String,
        first: &mut bool,
        replaced: &mut Vec<Replaced>,
    ) {
        let legacy = *self.legacy.get_or_insert_with(|| detect_legacy(bytes));
        let piece = self.decode_piece(run.bytes, None, legacy, *first, run.at, replaced);
        text.push_str(&piece);
        *first = false;
    }

    /// `bytes` (from byte `at` of the file) in `encoding`; a byte-order mark dropped only at the
    /// file's start. Each sequence of bytes that is not text becomes U+FFFD, noted in `replaced`.
    /// `checked`: `bytes` as UTF-8, if `encoding` is UTF-8 and they were found valid already.
    fn decode_piece(
        &mut self,
        bytes: &[u8],
        checked: Option<&str>,
        encoding: Encoding,
        at_start: bool,
        at: usize,
        replaced: &mut Vec<Replaced>,
    ) -> String {
        if at_start {
            // Only this encoding's own byte-order mark is dropped: another's never switches the
            // decoding (a given encoding is the encoding). Or the file's, when its lines are
            // read each in its own encoding: a UTF-8 file's mark before a first line in GBK
            // (read as GBK, its bytes would take the line's first character with them).
            self.bom = match encoding_rs::Encoding::for_bom(bytes) {
                Some((found, len))
                    if found == encoding.decoder()
                        || (self.mixing && found == self.encoding.decoder()) =>
                {
                    len
                }
                _ => 0,
            };
        }
        let skip = if at_start { self.bom } else { 0 };
        let src = &bytes[skip..];
        if let Some(valid) = checked {
            return valid[skip..].to_owned();
        }
        // Text throughout, as almost always: decoded at once (GBK and Big5 character by
        // character from the characters already met, where every code is a two-byte one).
        if let Some(text) = PairTable::of(encoding).and_then(|table| table.decode(src)) {
            return text;
        }
        if let Some(text) = encoding
            .decoder()
            .decode_without_bom_handling_and_without_replacement(src)
        {
            return text.into_owned();
        }
        let mut decoder = encoding.decoder().new_decoder_without_bom_handling();
        let mut text = String::with_capacity(
            decoder
                .max_utf8_buffer_length_without_replacement(src.len())
                .unwrap_or(src.len()),
        );
        // Decoded a little at a time: encoding_rs touches a byte of every page of the room it
        // is given on each call, and there is a call for each run of bad bytes (a whole file's
        // room each time made a 3 MB line of bad bytes take seconds).
        let mut scratch = String::with_capacity(SCRATCH);
        let mut read = 0;
        loop {
            let (result, n) =
                decoder.decode_to_string_without_replacement(&src[read..], &mut scratch, true);
            read += n;
            text.push_str(&scratch);
            scratch.clear();
            match result {
                encoding_rs::DecoderResult::InputEmpty => return text,
                encoding_rs::DecoderResult::OutputFull => {}
                encoding_rs::DecoderResult::Malformed(len, after) => {
                    // The sequence ends `after` bytes before what has been read.
                    let end = read.saturating_sub(usize::from(after));
                    replaced.push(Replaced {
                        offset: at + skip + end.saturating_sub(usize::from(len)),
                        len,
                    });
                    text.push('\u{fffd}');
                }
            }
        }
    }
}

/// How much text a file with bytes that are not text is decoded into at a time.
const SCRATCH: usize = 16 << 10;

/// The characters of the two-byte codes of GBK or Big5 met so far, each worked out by
/// encoding_rs the first time it is met: text in these encodings is a few hundred characters
/// over and over, which a look-up reads several times faster than encoding_rs decodes them.
///
/// An entry per lead byte (80–FF) and second byte: 0 while not known; [`PairTable::NOT_ONE`]
/// for a code that is not one character of the Basic Multilingual Plane alone (an error, two
/// characters, a character beyond the plane, or, in GB18030, the start of a four-byte code);
/// else the character's UTF-8 bytes, then their count in the top byte. Entries are written
/// once, by whichever thread meets the code first (threads that race write the same value).
struct PairTable {
    encoding: &'static encoding_rs::Encoding,
    chars: [AtomicU32; 128 * 256],
}

impl PairTable {
    const NOT_ONE: u32 = u32::MAX;

    /// The table of `encoding` if its text is single bytes and two-byte codes.
    fn of(encoding: Encoding) -> Option<&'static PairTable> {
        static GBK: PairTable = PairTable {
            encoding: encoding_rs::GB18030,
            chars: [const { AtomicU32::new(0) }; 128 * 256],
        };
        static BIG5: PairTable = PairTable {
            encoding: encoding_rs::BIG5,
            chars: [const { AtomicU32::new(0) }; 128 * 256],
        };
        match encoding {
            Encoding::Gbk => Some(&GBK),
            Encoding::Big5 => Some(&BIG5),
            Encoding::Utf8 | Encoding::Utf16Le | Encoding::Utf16Be => None,
        }
    }

    /// The entry of the code `lead trail` (`lead` from 80), if it is one character ([`None`] for
    /// [`PairTable::NOT_ONE`]).
    #[inline]
    fn entry(&self, lead: u8, trail: u8) -> Option<u32> {
        let slot = &self.chars[usize::from(lead & 0x7F) << 8 | usize::from(trail)];
        let entry = slot.load(Ordering::Relaxed);
        // One test for the two rare entries, 0 and NOT_ONE (u32::MAX).
        if entry.wrapping_add(1) > 1 {
            return Some(entry);
        }
        self.rare_entry(slot, entry, lead, trail)
    }

    /// [`PairTable::entry`] for an entry not worked out yet (0) or not one character.
    #[cold]
    fn rare_entry(&self, slot: &AtomicU32, entry: u32, lead: u8, trail: u8) -> Option<u32> {
        let entry = if entry == 0 {
            let found = self.work_out(lead, trail);
            slot.store(found, Ordering::Relaxed);
            found
        } else {
            entry
        };
        (entry != Self::NOT_ONE).then_some(entry)
    }

    /// The entry of `lead trail`, decoded alone by encoding_rs. (Both encodings read a
    /// character's code without looking at what stands around it: a code that is one character
    /// alone is that character wherever it stands.)
    #[cold]
    fn work_out(&self, lead: u8, trail: u8) -> u32 {
        let code = [lead, trail];
        let Some(text) = self
            .encoding
            .decode_without_bom_handling_and_without_replacement(&code)
        else {
            return Self::NOT_ONE;
        };
        let mut chars = text.chars();
        match (chars.next(), chars.next()) {
            // Trail bytes 30–39 start a GB18030 four-byte code, never a character of two.
            (Some(c), None) if !trail.is_ascii_digit() && c.len_utf8() <= 3 => {
                let mut bytes = [0; 4];
                c.encode_utf8(&mut bytes);
                bytes[3] = c.len_utf8() as u8;
                u32::from_le_bytes(bytes)
            }
            _ => Self::NOT_ONE,
        }
    }

    /// `src` decoded, if it holds only ASCII and codes that are one character of the Basic
    /// Multilingual Plane each; `None` (for encoding_rs to decode the whole) if it holds
    /// anything else: a byte that is not text, a four-byte code, a code of two characters.
    /// (Not inlined: a function of its own keeps the loop's state in registers.)
    #[inline(never)]
    fn decode(&self, src: &[u8]) -> Option<String> {
        decoding_into(src.len(), |out| self.decode_into(src, out))
    }

    /// `src`, whole lines of a file in this table's encoding, decoded as
    /// [`TextDecoder::decode`] decodes the lines of such a file one by one: a line whose first
    /// byte that is not ASCII may start a UTF-8 character (C2–F4, then 80–BF) is kept as it is
    /// if `utf8_line` says so (given the line and where that byte stands in it, as
    /// [`TextDecoder::utf8_line`] takes them); every other line is decoded. In one pass over
    /// the bytes (a line's start is looked for only at a code that may start UTF-8, in the
    /// ASCII since the codes before it), where telling the lines first took a pass of its own.
    /// `None` where [`PairTable::decode`] gives none.
    fn decode_lines(&self, src: &[u8], utf8_line: impl Fn(&[u8], usize) -> bool) -> Option<String> {
        decoding_into(src.len(), |out| {
            let (mut at, mut len) = (0, 0);
            loop {
                match self.decode_from::<true>(src, at, out, len) {
                    Lines::Done(end) => return Some(end),
                    Lines::NotOne => return None,
                    Lines::MayBeUtf8 {
                        start,
                        first,
                        written,
                    } => {
                        let (end, _) = scan_line(src, start);
                        let line = &src[start..end];
                        len = if utf8_line(line, first - start) {
                            out[written..written + line.len()].copy_from_slice(line);
                            written + line.len()
                        } else {
                            written + self.decode_into(line, &mut out[written..])?
                        };
                        at = end;
                    }
                }
            }
        })
    }

    /// Decodes `src` into `out` (long enough: see [`PairTable::decode`]), as that says; the
    /// length of the UTF-8 written.
    #[inline(always)]
    fn decode_into(&self, src: &[u8], out: &mut [u8]) -> Option<usize> {
        match self.decode_from::<false>(src, 0, out, 0) {
            Lines::Done(len) => Some(len),
            Lines::NotOne | Lines::MayBeUtf8 { .. } => None,
        }
    }

    /// Decodes the lines of `src` from `at` (a line's start) into `out` from `len` (room as
    /// for [`PairTable::decode`]), up to the end, or (if `LINES`) to a line whose first byte
    /// that is not ASCII may start a UTF-8 character: see [`Lines`].
    #[inline(always)]
    fn decode_from<const LINES: bool>(
        &self,
        src: &[u8],
        mut at: usize,
        out: &mut [u8],
        mut len: usize,
    ) -> Lines {
        const HIGH: u64 = 0x8080_8080_8080_8080;
        // Where the codes met last end (`start` before any): the bytes after them, up to the
        // next code, are ASCII, looked at once for a line end when a code that may start UTF-8
        // comes (each byte at most once, however long the line).
        let (start, mut scanned) = (at, at);
        while at < src.len() {
            // ASCII eight bytes at a time: copied whole, kept up to the first that is not.
            while let Some(chunk) = src.get(at..at + 8) {
                let mut word = [0; 8];
                word.copy_from_slice(chunk);
                out[len..len + 8].copy_from_slice(&word);
                let ascii = (u64::from_le_bytes(word) & HIGH).trailing_zeros() as usize / 8;
                len += ascii;
                at += ascii;
                if ascii < 8 {
                    break;
                }
            }
            // (The last bytes, fewer than eight, one by one.)
            while let Some(&b) = src.get(at).filter(|b| b.is_ascii()) {
                out[len] = b;
                len += 1;
                at += 1;
            }
            if at >= src.len() {
                break;
            }
            // A line whose first byte that is not ASCII may start a UTF-8 character: told only
            // at codes that may (where line ends were followed before at every eight ASCII
            // bytes), by the last line end in the ASCII since the last codes (a line end is
            // never part of a code).
            if LINES && let [0xC2..=0xF4, 0x80..=0xBF, ..] = src[at..] {
                // The line's first code: after a line end since the last codes, or the first
                // codes of all.
                let line_start = match src[scanned..at].iter().rposition(|&b| b == b'\n') {
                    Some(i) => Some(scanned + i + 1),
                    None => (scanned == start).then_some(start),
                };
                if let Some(line_start) = line_start {
                    return Lines::MayBeUtf8 {
                        start: line_start,
                        first: at,
                        written: len - (at - line_start),
                    };
                }
            }
            // Then the codes that follow one another.
            while let Some(&lead) = src.get(at).filter(|b| !b.is_ascii()) {
                let Some(&trail) = src.get(at + 1) else {
                    return Lines::NotOne;
                };
                let Some(entry) = self.entry(lead, trail) else {
                    return Lines::NotOne;
                };
                // Four bytes written, the count among them; the count's byte is written over
                // next.
                out[len..len + 4].copy_from_slice(&entry.to_le_bytes());
                len += (entry >> 24) as usize;
                at += 2;
            }
            scanned = at;
        }
        Lines::Done(len)
    }
}

thread_local! {
    /// The bytes each thread decodes GBK and Big5 into ([`PairTable`]), kept between calls up
    /// to [`PAIR_OUT_KEPT`] bytes.
    static PAIR_OUT: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
}
const PAIR_OUT_KEPT: usize = 1 << 20;

/// The text that `decode` writes into this thread's [`PAIR_OUT`] from `len` bytes of GBK or
/// Big5 (at most three bytes of UTF-8 for two of them, and eight written at a time), returning
/// its length. (The bytes are UTF-8 by making: checked by simdutf8, several times faster than
/// the standard library on Chinese text, then copied at their length.)
fn decoding_into(len: usize, decode: impl FnOnce(&mut [u8]) -> Option<usize>) -> Option<String> {
    let need = len / 2 * 3 + len % 2 + 8;
    let mut out = PAIR_OUT.take();
    if out.len() < need {
        out.resize(need, 0);
    }
    let text = decode(&mut out)
        .and_then(|len| simdutf8::basic::from_utf8(&out[..len]).ok())
        .map(str::to_owned);
    if out.len() <= PAIR_OUT_KEPT {
        PAIR_OUT.set(out);
    }
    text
}

/// Where [`PairTable::decode_from`] stopped.
enum Lines {
    /// At the end: the length of the UTF-8 written.
    Done(usize),
    /// At a line (from byte `start`) whose first byte that is not ASCII (byte `first`) may
    /// start a UTF-8 character, its ASCII before that byte written; the line's UTF-8 starts at
    /// `written`.
    MayBeUtf8 {
        start: usize,
        first: usize,
        written: usize,
    },
    /// At a code that is not one character ([`PairTable::NOT_ONE`]), or a lead byte ending the
    /// text.
    NotOne,
}

/// Lines of a file decoded together, and the byte of the file where they start.
struct Run<'a> {
    bytes: &'a [u8],
    at: usize,
}

/// The end of the line of `bytes` that starts at `start` (one past its LF, or the end of
/// `bytes`), and where its first byte that is not ASCII stands, if it has one. Eight bytes at a
/// time where none of them is a LF (nor, until one is found, a byte that is not ASCII): one pass
/// instead of splitting the lines, then looking at each for bytes that are not ASCII.
fn scan_line(bytes: &[u8], start: usize) -> (usize, Option<usize>) {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = ONES * 0x80;
    let mut at = start;
    let mut non_ascii = None;
    while let Some(chunk) = bytes.get(at..at + 8) {
        let mut word = [0; 8];
        word.copy_from_slice(chunk);
        let x = u64::from_le_bytes(word);
        // The high bit of each LF byte (exact up to the first one, which is all that is used).
        let lf = x ^ (ONES * u64::from(b'\n'));
        let lf = lf.wrapping_sub(ONES) & !lf & HIGH;
        let line_bytes = match lf.trailing_zeros() / 8 {
            8 => 8,
            n => n as usize + 1,
        };
        if non_ascii.is_none() {
            let high = x
                & HIGH
                & u64::MAX
                    .checked_shr(64 - 8 * line_bytes as u32)
                    .unwrap_or(0);
            if high != 0 {
                non_ascii = Some(at + (high.trailing_zeros() / 8) as usize);
            }
        }
        at += line_bytes;
        if lf != 0 {
            return (at, non_ascii);
        }
    }
    while let Some(&b) = bytes.get(at) {
        at += 1;
        if b == b'\n' {
            break;
        }
        if b >= 0x80 && non_ascii.is_none() {
            non_ascii = Some(at - 1);
        }
    }
    (at, non_ascii)
}

/// GBK or Big5 for bytes that are not UTF-8 (the lines of a UTF-8 file that are not UTF-8).
fn detect_legacy(bytes: &[u8]) -> Encoding {
    let not_utf8: Vec<u8> = bytes
        .split_inclusive(|&b| b == b'\n')
        .filter(|l| std::str::from_utf8(l).is_err())
        .flatten()
        .copied()
        .collect();
    match detect(&not_utf8) {
        Encoding::Big5 => Encoding::Big5,
        _ => Encoding::Gbk,
    }
}

/// Whether `text` has a CR that no LF follows (a CR at its end is one).
pub(crate) fn has_lone_cr(text: &str) -> bool {
    let bytes = text.as_bytes();
    memchr::memchr_iter(b'\r', bytes).any(|i| bytes.get(i + 1) != Some(&b'\n'))
}

/// `text` with each CR that no LF follows made a LF (the same length: places hold): how the
/// readers of records read by lines (PGN, move lists; any record in a file whose first line
/// ends so) take a lone CR. For showing a file's lines as they were read.
pub fn end_lines_at_lone_crs(text: String) -> String {
    if !has_lone_cr(&text) {
        return text;
    }
    let mut bytes = text.into_bytes();
    for i in 0..bytes.len() {
        if bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n') {
            bytes[i] = b'\n';
        }
    }
    // (A CR and a LF are whole characters: the text stays UTF-8.)
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// A lone CR becomes LF (if `cr_lines`, [`end_lines_at_lone_crs`]); a byte-order mark at a
/// line's start becomes spaces as long as it is in the file (`mark`: three in UTF-8, one in
/// UTF-16, where a space is two bytes), so that offsets hold. `line_start` says whether the text
/// starts a line, and is left saying whether the next does.
fn normalise_line_starts(text: &mut String, cr_lines: bool, mark: &str, line_start: &mut bool) {
    if cr_lines && has_lone_cr(text) {
        *text = end_lines_at_lone_crs(std::mem::take(text));
    }
    // (The memchr crate's search, made once: vectorised more widely than the standard
    // library's, and run over every piece of every file.)
    static BOM: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new("\u{feff}"));
    if BOM.find(text.as_bytes()).is_none() {
        if !text.is_empty() {
            *line_start = text.ends_with('\n');
        }
        return;
    }
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c == '\u{feff}' && *line_start {
            out.push_str(mark);
            continue;
        }
        out.push(c);
        *line_start = c == '\n';
    }
    *text = out;
}

/// The encoder of output in `encoding`: GBK proper for `Gbk` (its two-byte codes, which old
/// software reads; GB18030's four-byte codes are for reading), Big5 for `Big5`.
fn encoder(encoding: Encoding) -> &'static encoding_rs::Encoding {
    match encoding {
        Encoding::Gbk => encoding_rs::GBK,
        other => other.decoder(),
    }
}

/// The first character of `text` that `encoding` cannot hold, with its byte offset in `text`
/// (`None` when it holds them all; the UTF encodings hold every character). [`encode`] would
/// write such a character as a numeric reference (`&#39532;`), which changes the text: writers
/// check with this first.
pub fn unencodable(text: &str, encoding: Encoding) -> Option<(usize, char)> {
    if matches!(
        encoding,
        Encoding::Utf8 | Encoding::Utf16Le | Encoding::Utf16Be
    ) {
        return None;
    }
    let mut encoder = encoder(encoding).new_encoder();
    let mut rest = text;
    let mut offset = 0;
    let mut buffer = [0u8; 4096];
    loop {
        let (result, read, _) =
            encoder.encode_from_utf8_without_replacement(rest, &mut buffer, true);
        match result {
            encoding_rs::EncoderResult::InputEmpty => return None,
            encoding_rs::EncoderResult::OutputFull => {
                offset += read;
                rest = &rest[read..];
            }
            encoding_rs::EncoderResult::Unmappable(c) => {
                return Some((offset + read - c.len_utf8(), c));
            }
        }
    }
}

/// Text in `encoding` as bytes (characters the encoding lacks become numeric references: see
/// [`unencodable`]).
pub fn encode(text: &str, encoding: Encoding) -> Cow<'_, [u8]> {
    match encoding {
        Encoding::Utf8 => Cow::Borrowed(text.as_bytes()),
        Encoding::Utf16Le | Encoding::Utf16Be => {
            let mut out = Vec::with_capacity(text.len() * 2 + 2);
            let le = encoding == Encoding::Utf16Le;
            out.extend_from_slice(if le { &[0xFF, 0xFE] } else { &[0xFE, 0xFF] });
            for unit in text.encode_utf16() {
                out.extend_from_slice(&if le {
                    unit.to_le_bytes()
                } else {
                    unit.to_be_bytes()
                });
            }
            Cow::Owned(out)
        }
        other => {
            let (bytes, _, _) = encoder(other).encode(text);
            bytes
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_validity_is_the_standard_librarys() {
        // Valid text, an error in the middle, a character cut at the end, a stray continuation
        // byte, overlong forms and surrogates, at every cut of a mixed text.
        let text = "炮二平五 horse 馬８進７ \u{1f600} e\u{301}".as_bytes();
        let mut cases: Vec<Vec<u8>> = (0..=text.len()).map(|n| text[..n].to_vec()).collect();
        for bad in [
            &[0x80][..],
            &[0xC0, 0xAF],
            &[0xED, 0xA0, 0x80],
            &[0xF4, 0x90, 0x80, 0x80],
            &[0xE4, 0xB8],
            &[0xB8, 0xAD, 0xE4],
        ] {
            for n in [0, 3, text.len()] {
                let mut case = text[..n].to_vec();
                case.extend_from_slice(bad);
                cases.push(case.clone());
                case.extend_from_slice(b"tail");
                cases.push(case);
            }
        }
        for case in cases {
            let (valid, cut) = match std::str::from_utf8(&case) {
                Ok(_) => (case.len(), false),
                Err(e) => (e.valid_up_to(), e.error_len().is_none()),
            };
            assert_eq!(valid_utf8_up_to(&case), valid, "{case:x?}");
            if valid < case.len() {
                assert_eq!(cut_at_end(&case[valid..]), cut, "{case:x?}");
            }
        }
    }

    /// The telltales' codes are what encoding_rs gives them, those an encoding lacks left out.
    #[test]
    fn the_telltale_codes_are_the_encoders() {
        for (enc, codes) in [
            (encoding_rs::GBK, &GBK_CODES[..]),
            (encoding_rs::BIG5, &BIG5_CODES[..]),
        ] {
            let encoded: Vec<[u8; 2]> = TELLTALES
                .chars()
                .filter_map(|c| {
                    let mut buf = [0; 4];
                    match enc.encode(c.encode_utf8(&mut buf)) {
                        (bytes, _, false) => <[u8; 2]>::try_from(bytes.as_ref()).ok(),
                        _ => None,
                    }
                })
                .collect();
            assert_eq!(encoded, codes, "{}", enc.name());
        }
    }

    #[test]
    fn finds_what_an_encoding_cannot_hold() {
        // Big5 holds traditional characters and full-width digits, not simplified ones.
        assert_eq!(unencodable("1. 炮二平五 馬８進７", Encoding::Big5), None);
        assert_eq!(
            unencodable("1. 炮二平五 马８进７", Encoding::Big5),
            Some((16, '马'))
        );
        assert_eq!(unencodable("1. 炮二平五 马８进７", Encoding::Gbk), None);
        // GBK proper (not GB18030's four-byte codes): no emoji, no CJK extension B.
        assert_eq!(
            unencodable("ok \u{20000}", Encoding::Gbk),
            Some((3, '\u{20000}'))
        );
        assert_eq!(unencodable("ok \u{20000}", Encoding::Utf8), None);
        // Past the encoder's first buffer.
        let long = format!("{}马", "車".repeat(3000));
        assert_eq!(unencodable(&long, Encoding::Big5), Some((9000, '马')));
    }

    #[test]
    fn tells_gbk_from_big5() {
        let text = "1. 炮二平五 馬８進７\n2. 馬二進三 車９平８\n";
        let big5 = encode(text, Encoding::Big5);
        let gbk = encode(
            "1. 炮二平五 马８进７\n2. 马二进三 车９平８\n",
            Encoding::Gbk,
        );
        assert_eq!(detect(&big5), Encoding::Big5);
        assert_eq!(detect(&gbk), Encoding::Gbk);
        assert_eq!(decode(&big5, Encoding::Big5), text);
        // Big5 decodes as GBK without error, into something else: the reason for counting.
        assert_ne!(decode(&big5, Encoding::Gbk), text);
    }

    /// The telltale counts decide before the characters do: on texts whose characters alone
    /// (the tie's test) point to the other encoding. 傌 in Big5 (D8 58) is no common character
    /// of either reading; 砲 in GBK (B3 68) reads as a common Big5 character.
    #[test]
    fn telltales_are_counted_for_their_own_encoding() {
        let big5 = encode("{傌 傌 傌}\n", Encoding::Big5).into_owned();
        let gbk = encode("{砲 砲 砲}\n", Encoding::Gbk).into_owned();
        assert!(!big5_by_its_characters(&big5));
        assert!(big5_by_its_characters(&gbk));
        assert_eq!(detect(&big5), Encoding::Big5);
        assert_eq!(detect(&gbk), Encoding::Gbk);
        // Each code counts for the encodings it is a telltale of, and no other.
        let telltales = telltales();
        for (codes, bit) in [
            (&GBK_CODES[..], GBK_TELLTALE),
            (&BIG5_CODES[..], BIG5_TELLTALE),
        ] {
            for &[lead, trail] in codes {
                assert_ne!(telltales.of(lead, trail) & bit, 0, "{lead:x} {trail:x}");
            }
        }
        let marked = (0x80..=0xFF_u8)
            .flat_map(|lead| (0..=0xFF_u8).map(move |trail| (lead, trail)))
            .map(|(lead, trail)| telltales.of(lead, trail).count_ones() as usize)
            .sum::<usize>();
        assert_eq!(marked, GBK_CODES.len() + BIG5_CODES.len());
    }

    /// Short texts without a character of the notation (tags of names only): told by which
    /// reading gives common characters. Traditional names in Big5, simplified ones in GBK.
    #[test]
    fn names_alone_tell_gbk_from_big5() {
        for (traditional, simplified) in [
            ("胡榮華", "胡荣华"),
            ("許銀川", "许银川"),
            ("趙國榮", "赵国荣"),
            ("呂欽", "吕钦"),
            ("王天一", "王天一"),
            ("孫勇征", "孙勇征"),
            ("謝靖", "谢靖"),
            ("洪智", "洪智"),
        ] {
            let record = |name: &str| format!("[Red \"{name}\"]\n\n1. h2e2 *\n");
            let (traditional, simplified) = (record(traditional), record(simplified));
            let big5 = encode(&traditional, Encoding::Big5);
            assert_eq!(detect(&big5), Encoding::Big5, "{traditional}");
            let gbk = encode(&simplified, Encoding::Gbk);
            assert_eq!(detect(&gbk), Encoding::Gbk, "{simplified}");
        }
        // Traditional characters in GBK (its extension, leads 81–A0, which Big5 has not) stay GBK.
        let gbk = encode("[Red \"楊官璘\"]\n\n1. h2e2 *\n", Encoding::Gbk);
        assert_eq!(detect(&gbk), Encoding::Gbk);
        // So do GBK's symbols (box drawing, Greek, kana), which read as Big5 characters, alone or
        // with a name.
        for text in ["┌─┬─┐│├┼┤└┴┘", "─", "αβγ ΔΘ", "王 ┌─┐", "カ"]
        {
            let gbk = encode(&format!("1. h2e2 {{{text}}} 1-0\n"), Encoding::Gbk).into_owned();
            assert_eq!(detect(&gbk), Encoding::Gbk, "{text}");
        }
        // Traditional names of characters in those rows' codes are still told by the others.
        for name in ["王天一", "中原", "呂欽"] {
            let big5 = encode(&format!("[Red \"{name}\"]\n"), Encoding::Big5).into_owned();
            assert_eq!(detect(&big5), Encoding::Big5, "{name}");
        }
    }

    #[test]
    fn marks_and_utf() {
        assert_eq!(detect("炮二平五".as_bytes()), Encoding::Utf8);
        assert_eq!(detect(b"\xEF\xBB\xBFabc"), Encoding::Utf8);
        assert_eq!(decode(b"\xEF\xBB\xBFabc", Encoding::Utf8), "abc");
        let utf16 = encode("[Game \"Chinese Chess\"]", Encoding::Utf16Le);
        assert_eq!(detect(&utf16), Encoding::Utf16Le);
        assert_eq!(
            decode(&utf16, Encoding::Utf16Le),
            "[Game \"Chinese Chess\"]"
        );
        assert_eq!(detect(&utf16[2..]), Encoding::Utf16Le, "without the mark");
        assert_eq!(Encoding::from_name("GB2312"), Some(Encoding::Gbk));
        assert_eq!(Encoding::from_name("cp950"), Some(Encoding::Big5));
    }

    /// Decoding with the encoding told at once gives what telling it, then decoding, gives: for
    /// UTF-8 with and without a mark (and a second mark), UTF-16 with and without one, ASCII with
    /// zeros, GBK, Big5, bytes that are no UTF-8, nothing; told or given.
    #[test]
    fn decoding_as_detected_is_detecting_then_decoding() {
        let text = "[Event \"象棋\"]\n1. 炮二平五 马８进７ *\n";
        let mut inputs: Vec<Vec<u8>> = vec![
            text.as_bytes().to_vec(),
            format!("\u{feff}{text}").into_bytes(),
            format!("\u{feff}\u{feff}{text}").into_bytes(),
            b"[Event \"x\"]\n".to_vec(),
            encode(text, Encoding::Utf16Le).into_owned(),
            encode(text, Encoding::Utf16Be).into_owned(),
            b"a\0b\0c\0d\0e\0f\0g\0h\0".to_vec(),
            b"\0a\0b\0c\0d\0e\0f\0g\0h".to_vec(),
            b"ab\0cdefghij".to_vec(),
            encode(text, Encoding::Gbk).into_owned(),
            encode(text, Encoding::Big5).into_owned(),
            b"\xEF\xBB\xBF\xFF ok".to_vec(),
            b"\xFF\xFEa\0".to_vec(),
            Vec::new(),
        ];
        let utf16_without_mark = inputs[4][2..].to_vec();
        inputs.push(utf16_without_mark);
        let mut quick = 0;
        for bytes in &inputs {
            for given in [
                None,
                Some(Encoding::Utf8),
                Some(Encoding::Gbk),
                Some(Encoding::Utf16Le),
            ] {
                let encoding = given.unwrap_or_else(|| detect(bytes));
                let (told, decoded) = decode_detected(bytes, given);
                assert_eq!(
                    (told, decoded.as_ref()),
                    (encoding, decode(bytes, encoding).as_ref()),
                    "{bytes:?} {given:?}"
                );
                quick += usize::from(matches!(decoded, Cow::Borrowed(_)));
            }
        }
        assert!(quick >= 8, "{quick}");
    }

    /// A UTF-8 piece of a file whose encoding was told is taken as it is (checked once, which
    /// the output cannot show): a byte-order mark dropped at the file's start (and counted), one
    /// starting a later line made spaces; a piece that is not UTF-8 throughout is read line by
    /// line.
    #[test]
    fn valid_utf8_is_taken_as_checked() {
        let mut decoder = TextDecoder::new(Encoding::Utf8, true);
        let first = "\u{feff}[Event \"象棋\"]\n";
        assert_eq!(
            decoder.decode(first.as_bytes(), 0, &mut Vec::new()),
            "[Event \"象棋\"]\n"
        );
        assert_eq!(decoder.bom_len(), 3);
        let later = "\u{feff}[Event \"杯\"]\n";
        assert_eq!(
            decoder.decode(later.as_bytes(), first.len(), &mut Vec::new()),
            "   [Event \"杯\"]\n"
        );
        assert_eq!(decoder.bom_len(), 3);
        let mut gbk_line = "[Site \"北京\"]\n".as_bytes().to_vec();
        gbk_line.extend(encode("[Event \"杯\"]\n", Encoding::Gbk).iter());
        assert_eq!(
            decoder.decode(&gbk_line, 100, &mut Vec::new()),
            "[Site \"北京\"]\n[Event \"杯\"]\n"
        );
    }

    #[test]
    fn lines_are_scanned_as_split() {
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        for case in 0..5000 {
            let mut bytes = Vec::new();
            for _ in 0..case % 40 {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                bytes.push(match rng % 6 {
                    0 => b'\n',
                    1 => 0x80 | (rng >> 8) as u8,
                    _ => b'a' + (rng >> 8) as u8 % 26,
                });
            }
            let mut at = 0;
            for line in bytes.split_inclusive(|&b| b == b'\n') {
                let first = line.iter().position(|&b| b >= 0x80).map(|i| at + i);
                assert_eq!(
                    scan_line(&bytes, at),
                    (at + line.len(), first),
                    "{bytes:x?}"
                );
                at += line.len();
            }
        }
    }

    /// In a GBK or Big5 file a line that is valid UTF-8 only by chance (characters of two bytes,
    /// odd letters of several scripts) is read in the file's encoding; one with Chinese in
    /// UTF-8 (characters of three bytes), the letters of one alphabet, or one that does not read
    /// in the file's encoding, stays UTF-8. A UTF-8 file reads as UTF-8.
    #[test]
    fn legacy_lines_that_happen_to_be_utf8_read_in_the_legacy_encoding() {
        let decoded = |bytes: &[u8], encoding| {
            TextDecoder::new(encoding, true).decode(bytes, 0, &mut Vec::new())
        };
        let gbk = |text: &str| encode(text, Encoding::Gbk).into_owned();
        // 平 and 一 in GBK (C6 BD, D2 BB) are ƽ and һ in UTF-8; 叶伟 Ҷΰ, 石强 ʯǿ, 1台 1 and a
        // combining mark: rare letters, mixed scripts, a mark after a digit.
        for line in [
            "平\n",
            "一\n",
            "{平}\n",
            "[Red \"叶伟\"]\n[Black \"石强\"]\n",
            "[Round \"1台\"]\n",
        ] {
            let mut file = gbk("[Event \"象棋\"]\n");
            file.extend(gbk(line));
            assert!(std::str::from_utf8(&gbk(line)).is_ok(), "{line}");
            assert_eq!(
                decoded(&file, Encoding::Gbk),
                format!("[Event \"象棋\"]\n{line}")
            );
        }
        // Big5's common characters read as Latin letters by chance, together with no plain one.
        let big5 = |text: &str| encode(text, Encoding::Big5).into_owned();
        let mut file = big5("[Event \"象棋\"]\n");
        file.extend(big5("[Red \"羅蘇\"] {簡}\n"));
        assert!(std::str::from_utf8(&big5("[Red \"羅蘇\"]\n")).is_ok());
        assert_eq!(
            decoded(&file, Encoding::Big5),
            "[Event \"象棋\"]\n[Red \"羅蘇\"] {簡}\n"
        );
        // The same names before any Chinese of the file: the same reading.
        let file = gbk("[Red \"叶伟\"]\n[Event \"象棋\"]\n");
        assert_eq!(
            decoded(&file, Encoding::Gbk),
            "[Red \"叶伟\"]\n[Event \"象棋\"]\n"
        );
        // A line of Chinese in UTF-8 in a GBK file stays UTF-8, and so do the letters of an
        // alphabet (Latin, Cyrillic, Vietnamese, Greek), and a line of Latin letters that Big5
        // cannot read in a Big5 file (A0 is no Big5 trail byte).
        let mut file = gbk("[Event \"象棋\"]\n");
        let utf8 = "{平局} Caf\u{e9}\nCaf\u{e9} de la R\u{e9}gence\nM\u{fc}ller\n\u{418}\u{432}\u{430}\u{43d}\u{43e}\u{432}\nPh\u{1b0}\u{1a1}ng\n\u{ab}\u{3b1}\u{3b2}\u{bb}\nX\u{1d4} Y\u{ed}nchu\u{101}n 20\u{b0}C\nM\u{259}mm\u{259}dyarov\n\u{414}\u{4e9}\u{43b}\u{433}\u{4e9}\u{4e9}\u{43d}\nMu\u{308}ller\nLe coup \u{e0} jouer, Remis \u{bd}-\u{bd}\n\u{41a}\u{430}\u{440}\u{43f}\u{43e}\u{432} \u{410}. \u{41b}\u{44e}\n";
        file.extend(utf8.as_bytes());
        assert_eq!(
            decoded(&file, Encoding::Gbk),
            format!("[Event \"象棋\"]\n{utf8}")
        );
        let mut file = encode("[Event \"象棋\"]\n", Encoding::Big5).into_owned();
        file.extend("voil\u{e0}\n".as_bytes());
        assert_eq!(
            decoded(&file, Encoding::Big5),
            "[Event \"象棋\"]\nvoil\u{e0}\n"
        );
        // A stray byte, or a line of Latin-1, is no GBK text: the accented Latin after it stays
        // UTF-8 (in a file told UTF-8, or GBK for its Latin-1).
        let file =
            b"[Site \"Caf\xe9 de la R\xe9gence\"]\n[Red \"Bad\xff\"]\n[Site \"Caf\xc3\xa9\"]\n";
        assert!(decoded(file, Encoding::Utf8).ends_with("[Site \"Caf\u{e9}\"]\n"));
        assert!(decoded(file, Encoding::Gbk).ends_with("[Site \"Caf\u{e9}\"]\n"));
        // In a UTF-8 file, a UTF-8 line is UTF-8 whatever its characters; after a line in GBK,
        // one of two-byte characters that GBK reads is GBK (a GBK game appended to UTF-8 ones).
        let mut file = "[Event \"Caf\u{e9}\"]\n\u{1bd}\n".as_bytes().to_vec();
        file.extend(gbk("马\n[Red \"叶伟\"]\n"));
        file.extend("[Site \"北京\"]\n".as_bytes());
        assert_eq!(
            decoded(&file, Encoding::Utf8),
            "[Event \"Caf\u{e9}\"]\n\u{1bd}\n马\n[Red \"叶伟\"]\n[Site \"北京\"]\n"
        );
    }

    #[test]
    fn a_cr_alone_ends_a_line_a_crlf_stays() {
        for (text, lines) in [
            ("a\rb\r\nc\nd\r", "a\nb\r\nc\nd\n"),
            ("\r\r\n\r", "\n\r\n\n"),
            ("马\r马", "马\n马"),
            ("no cr\r\n", "no cr\r\n"),
        ] {
            let mut decoder = TextDecoder::new(Encoding::Utf8, true).ending_lines_at_lone_crs();
            assert_eq!(decoder.decode(text.as_bytes(), 0, &mut Vec::new()), lines);
        }
    }

    /// Decoding as before the runs: line by line.
    fn line_by_line(decoder: &mut TextDecoder, bytes: &[u8], at_start: bool) -> String {
        let mut text = String::new();
        let mut first = at_start;
        for line in bytes.split_inclusive(|&b| b == b'\n') {
            let utf8 = std::str::from_utf8(line)
                .ok()
                .filter(|text| line.is_ascii() || decoder.keeps_utf8(text));
            if let Some(s) = utf8 {
                text.push_str(if first {
                    s.trim_start_matches('\u{feff}')
                } else {
                    s
                });
            } else {
                let legacy = *decoder.legacy.get_or_insert_with(|| detect_legacy(bytes));
                text.push_str(&decoder.decode_piece(line, None, legacy, first, 0, &mut Vec::new()));
            }
            first = false;
        }
        text
    }

    #[test]
    fn lines_decoded_in_runs_read_as_each_line_alone() {
        let gbk = encode("马８进７\n", Encoding::Gbk).into_owned();
        let big5 = encode("馬８進７\n", Encoding::Big5).into_owned();
        let lines: [&[u8]; 20] = [
            b"[Event \"x\"]\n",
            "1. 炮二平五 {好}\n".as_bytes(),
            &gbk,
            &big5,
            b"\xa4\n",
            b"\xa4",
            b"\x81\x30\x81\x30 \x81\n",
            b"\n",
            "\u{feff}[Site \"y\"]\r\n".as_bytes(),
            b"\xc5\xa1\xa4\x40\n",
            // 一 in GBK, valid UTF-8 (һ); Café in UTF-8.
            b"\xd2\xbb\n",
            "Caf\u{e9} \u{5e73}\n".as_bytes(),
            // The same after ASCII, short and longer than eight bytes; a Greek line.
            b"1. \xd2\xbb\n",
            "12. 1234567 Caf\u{e9}\n".as_bytes(),
            "\u{395}\u{3bb}\u{3bb}\u{3ac}\u{3b4}\u{3b1}\n".as_bytes(),
            // A vertical tab (LF + 1) beside a LF; a long ASCII line; a code then ASCII.
            b"\x0b\n",
            b"a long line of ASCII, no code in it\n",
            b"\xa4\x40 \xd2\xbb\n",
            // Short lines kept in UTF-8 (among the last eight bytes, read one by one).
            "\u{e9}\n".as_bytes(),
            "\u{5e73}\n".as_bytes(),
        ];
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        for case in 0..4000 {
            let mut bytes = Vec::new();
            for _ in 0..1 + case % 9 {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                bytes.extend_from_slice(lines[(rng % lines.len() as u64) as usize]);
            }
            for encoding in [Encoding::Utf8, Encoding::Gbk, Encoding::Big5] {
                for at_start in [true, false] {
                    let mut runs = TextDecoder::new(encoding, true);
                    runs.started = !at_start;
                    let mut reference = runs.clone();
                    let got = runs.decode(&bytes, 0, &mut Vec::new());
                    let simple = bytes.is_ascii()
                        || (encoding == Encoding::Utf8 && std::str::from_utf8(&bytes).is_ok());
                    if simple {
                        continue;
                    }
                    let mut want = line_by_line(&mut reference, &bytes, at_start);
                    normalise_line_starts(&mut want, false, "   ", &mut reference.line_start);
                    assert_eq!(got, want, "{encoding:?} {bytes:x?}");
                    assert_eq!(runs.legacy, reference.legacy);
                }
            }
        }
    }

    /// Lines decoded in one pass offer a line as UTF-8 only at its first byte that is not ASCII,
    /// when that may start a UTF-8 character: a code that may, after another code on its line,
    /// is read as a code; the line's start is found after a line of codes, a long one, or none.
    #[test]
    fn only_a_lines_first_code_is_offered_as_utf8() {
        let big5 = PairTable::of(Encoding::Big5).unwrap();
        // D2 BB: a Big5 character, and һ in UTF-8; A4 40: 一, never UTF-8.
        let lines: [&[u8]; 4] = [
            b"[Event \"\xa4\x40\"]\n",
            b"1. \xa4\x40 \xd2\xbb\n",
            b"a longer line of ASCII, then \xd2\xbb\n",
            b"\xd2\xbb \xd2\xbb\n",
        ];
        let mut src = lines.concat();
        // A long line of such codes after a first one that is not (looked over once, not back
        // to its start at each code), then one that starts with one.
        let long = [&b"\xa4\x40"[..], &b" \xd2\xbb".repeat(1000), b"\n"].concat();
        src.extend(&long);
        src.extend(b"\xd2\xbb\n");
        let offered = std::cell::RefCell::new(Vec::new());
        let got = big5.decode_lines(&src, |line, first| {
            offered.borrow_mut().push((line.to_vec(), first));
            false
        });
        let want = Encoding::Big5
            .decoder()
            .decode_without_bom_handling_and_without_replacement(&src);
        assert_eq!(got.as_deref(), want.as_deref());
        assert_eq!(
            offered.into_inner(),
            [
                (lines[2].to_vec(), 29),
                (lines[3].to_vec(), 0),
                (b"\xd2\xbb\n".to_vec(), 0)
            ]
        );
    }

    /// The look-up decoder reads every two-byte code of GBK and Big5 as encoding_rs does, or
    /// leaves the text to it: alone, between ASCII, and in runs of codes of every kind.
    #[test]
    fn the_pair_table_decodes_as_encoding_rs() {
        for encoding in [Encoding::Gbk, Encoding::Big5] {
            let table = PairTable::of(encoding).unwrap();
            let mut decoded = 0;
            for lead in 0x80..=0xFF_u8 {
                for trail in 0..=0xFF_u8 {
                    for src in [vec![lead, trail], vec![b'a', lead, trail, b'\n']] {
                        let want = encoding
                            .decoder()
                            .decode_without_bom_handling_and_without_replacement(&src);
                        let got = table.decode(&src);
                        if let Some(got) = &got {
                            assert_eq!(Some(got.as_str()), want.as_deref(), "{src:x?}");
                        }
                        decoded += usize::from(got.is_some());
                    }
                }
            }
            // (Nearly every code of the encoding's range is one character.)
            assert!(decoded > 2 * 15_000, "{encoding:?}: {decoded}");
            // Runs of random codes and ASCII, some of them cut or bad.
            let mut rng = 0x2545_f491_4f6c_dd1d_u64;
            for _ in 0..20_000 {
                let mut src = Vec::new();
                for _ in 0..(rng % 12) {
                    rng ^= rng << 13;
                    rng ^= rng >> 7;
                    rng ^= rng << 17;
                    let [a, b, c, ..] = rng.to_le_bytes();
                    match c % 3 {
                        0 => src.push(a & 0x7F),
                        _ => src.extend_from_slice(&[a | 0x80, b]),
                    }
                }
                let want = encoding
                    .decoder()
                    .decode_without_bom_handling_and_without_replacement(&src);
                if let Some(got) = table.decode(&src) {
                    assert_eq!(Some(got.as_str()), want.as_deref(), "{src:x?}");
                }
            }
        }
        // Left to encoding_rs: a GB18030 four-byte code, a byte that is not text, a code cut.
        let gbk = PairTable::of(Encoding::Gbk).unwrap();
        assert_eq!(gbk.decode(&[0x81, 0x30, 0x81, 0x30]), None);
        assert_eq!(gbk.decode(b"a\xFF"), None);
        assert_eq!(gbk.decode(b"a\xC4"), None);
        assert_eq!(gbk.decode(b"\xC4\xE3ok").as_deref(), Some("你ok"));
    }
}
