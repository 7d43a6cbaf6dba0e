//! A font for a page's text: [`text_font`] builds, from the glyph outlines embedded in this crate
//! (`fonts/text-glyphs.bin`, written by `tools/text_glyphs.py` from Noto Sans SC), a TrueType font
//! holding only the characters a page uses, so that a page can inline it and read the same on a
//! machine without any CJK font, its text still selectable and copyable.
//!
//! The embedded characters: every non-ASCII character of xq's own texts (notation, natures,
//! patterns, rulings, labels), GB 2312 and Big5's common hanzi. Characters outside them are
//! reported as [`TextFont::missing`] for the caller to say so.

use std::collections::BTreeMap;

/// The embedded outlines (format in `tools/text_glyphs.py`).
static TABLE: &[u8] = include_bytes!("../fonts/text-glyphs.bin");

/// The family name a page gives the font in its `@font-face` rule.
pub const TEXT_FONT_FAMILY: &str = "xq text";

/// A font for one page's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextFont {
    /// The font, a TrueType (`.ttf`) file; `None` when the text has no character the font holds.
    pub ttf: Option<Vec<u8>>,
    /// The characters of the text that the font has, in code point order.
    pub covered: Vec<char>,
    /// The characters of the text (but ASCII and whitespace) that the font lacks: they depend on
    /// the reader's fonts.
    pub missing: Vec<char>,
}

struct Table {
    units_per_em: u16,
    typo_ascender: i16,
    typo_descender: i16,
    ascender: i16,
    descender: i16,
    /// Code point → (advance width, `glyf` entry).
    glyphs: BTreeMap<char, (u16, &'static [u8])>,
}

fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_be_bytes(b.get(at..at + 2)?.try_into().ok()?))
}

fn i16_at(b: &[u8], at: usize) -> Option<i16> {
    u16_at(b, at).map(|v| v as i16)
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

fn table() -> &'static Table {
    static PARSED: std::sync::OnceLock<Table> = std::sync::OnceLock::new();
    PARSED.get_or_init(|| parse(TABLE).unwrap_or_else(empty))
}

fn empty() -> Table {
    Table {
        units_per_em: 1000,
        typo_ascender: 880,
        typo_descender: -120,
        ascender: 1160,
        descender: -288,
        glyphs: BTreeMap::new(),
    }
}

/// Reads the embedded table; `None` if it is malformed (a build defect the tests catch).
fn parse(b: &'static [u8]) -> Option<Table> {
    if b.get(..4)? != b"XQG1" {
        return None;
    }
    let count = u32_at(b, 4)? as usize;
    let mut t = Table {
        units_per_em: u16_at(b, 8)?,
        typo_ascender: i16_at(b, 10)?,
        typo_descender: i16_at(b, 12)?,
        ascender: i16_at(b, 14)?,
        descender: i16_at(b, 16)?,
        glyphs: BTreeMap::new(),
    };
    let mut at = 18;
    for _ in 0..count {
        let c = char::from_u32(u32_at(b, at)?)?;
        let advance = u16_at(b, at + 4)?;
        let len = usize::from(u16_at(b, at + 6)?);
        let data = b.get(at + 8..at + 8 + len)?;
        t.glyphs.insert(c, (advance, data));
        at += 8 + len;
    }
    Some(t)
}

/// Whether the embedded outlines have `c`.
pub fn text_font_has(c: char) -> bool {
    table().glyphs.contains_key(&c)
}

/// The font for `text`: the glyphs of its non-ASCII characters, and the characters it lacks.
pub fn text_font(text: &str) -> TextFont {
    let t = table();
    let mut wanted: Vec<char> = text
        .chars()
        .filter(|c| !c.is_ascii() && !c.is_whitespace())
        .collect();
    wanted.sort_unstable();
    wanted.dedup();
    let (covered, missing): (Vec<char>, Vec<char>) =
        wanted.into_iter().partition(|c| t.glyphs.contains_key(c));
    let ttf = (!covered.is_empty()).then(|| write_ttf(t, &covered));
    TextFont {
        ttf,
        covered,
        missing,
    }
}

/// What a simple glyph's header says: bounds, contours, points, instruction bytes.
#[derive(Default, Clone, Copy)]
struct GlyphFacts {
    x_min: i16,
    y_min: i16,
    x_max: i16,
    y_max: i16,
    contours: u16,
    points: u16,
    instructions: u16,
}

fn facts(data: &[u8]) -> GlyphFacts {
    let read = || -> Option<GlyphFacts> {
        let contours = i16_at(data, 0)?;
        let n = usize::try_from(contours).ok()?;
        let last_end = if n == 0 {
            None
        } else {
            Some(u16_at(data, 10 + 2 * (n - 1))?)
        };
        Some(GlyphFacts {
            x_min: i16_at(data, 2)?,
            y_min: i16_at(data, 4)?,
            x_max: i16_at(data, 6)?,
            y_max: i16_at(data, 8)?,
            contours: n as u16,
            points: last_end.map_or(0, |e| e + 1),
            instructions: u16_at(data, 10 + 2 * n)?,
        })
    };
    read().unwrap_or_default()
}

/// Big-endian writing.
trait Put {
    fn u16(&mut self, v: u16);
    fn i16(&mut self, v: i16);
    fn u32(&mut self, v: u32);
}

impl Put for Vec<u8> {
    fn u16(&mut self, v: u16) {
        self.extend_from_slice(&v.to_be_bytes());
    }
    fn i16(&mut self, v: i16) {
        self.extend_from_slice(&v.to_be_bytes());
    }
    fn u32(&mut self, v: u32) {
        self.extend_from_slice(&v.to_be_bytes());
    }
}

fn checksum(data: &[u8]) -> u32 {
    data.chunks(4).fold(0u32, |sum, chunk| {
        let mut word = [0u8; 4];
        word[..chunk.len()].copy_from_slice(chunk);
        sum.wrapping_add(u32::from_be_bytes(word))
    })
}

/// A TrueType font of glyph 0 (`.notdef`, empty) and the glyphs of `chars` (sorted, all in `t`,
/// all in the Basic Multilingual Plane), glyph `i + 1` for `chars[i]`.
fn write_ttf(t: &Table, chars: &[char]) -> Vec<u8> {
    let glyphs: Vec<(u16, &[u8])> = std::iter::once((t.units_per_em / 2, &[][..]))
        .chain(chars.iter().filter_map(|c| t.glyphs.get(c).copied()))
        .collect();
    let count = glyphs.len() as u16;
    let all: Vec<GlyphFacts> = glyphs
        .iter()
        .map(|(_, d)| {
            if d.is_empty() {
                GlyphFacts::default()
            } else {
                facts(d)
            }
        })
        .collect();
    let drawn = || all.iter().filter(|f| f.contours > 0);
    let x_min = drawn().map(|f| f.x_min).min().unwrap_or(0);
    let y_min = drawn().map(|f| f.y_min).min().unwrap_or(0);
    let x_max = drawn().map(|f| f.x_max).max().unwrap_or(0);
    let y_max = drawn().map(|f| f.y_max).max().unwrap_or(0);

    // glyf and loca (long offsets), each glyph padded to 4 bytes.
    let mut glyf = Vec::new();
    let mut loca = Vec::new();
    for (_, data) in &glyphs {
        loca.u32(glyf.len() as u32);
        glyf.extend_from_slice(data);
        glyf.resize(glyf.len().next_multiple_of(4), 0);
    }
    loca.u32(glyf.len() as u32);

    let mut hmtx = Vec::new();
    for ((advance, _), f) in glyphs.iter().zip(&all) {
        hmtx.u16(*advance);
        hmtx.i16(f.x_min);
    }
    let advance_max = glyphs.iter().map(|g| g.0).max().unwrap_or(0);
    let min_lsb = drawn().map(|f| f.x_min).min().unwrap_or(0);
    let min_rsb = glyphs
        .iter()
        .zip(&all)
        .filter(|(_, f)| f.contours > 0)
        .map(|((a, _), f)| *a as i16 - f.x_max)
        .min()
        .unwrap_or(0);
    let x_max_extent = drawn().map(|f| f.x_max).max().unwrap_or(0);

    let mut head = Vec::new();
    head.u32(0x0001_0000); // version
    head.u32(0x0001_0000); // fontRevision
    head.u32(0); // checkSumAdjustment, set last
    head.u32(0x5F0F_3CF5); // magic
    head.u16(0b1011); // baseline and left sidebearing at 0, integer scaling
    head.u16(t.units_per_em);
    // Created and modified: a fixed date (2026-01-01, in seconds since 1904), so that a page is
    // made again byte for byte.
    for _ in 0..2 {
        head.extend_from_slice(&3_850_070_400u64.to_be_bytes());
    }
    for v in [x_min, y_min, x_max, y_max] {
        head.i16(v);
    }
    head.u16(0); // macStyle
    head.u16(8); // lowestRecPPEM
    head.i16(2); // fontDirectionHint
    head.i16(1); // indexToLocFormat: long
    head.i16(0); // glyphDataFormat

    let mut hhea = Vec::new();
    hhea.u32(0x0001_0000);
    hhea.i16(t.ascender);
    hhea.i16(t.descender);
    hhea.i16(0); // lineGap
    hhea.u16(advance_max);
    hhea.i16(min_lsb);
    hhea.i16(min_rsb);
    hhea.i16(x_max_extent);
    hhea.i16(1); // caretSlopeRise
    hhea.i16(0); // caretSlopeRun
    hhea.extend_from_slice(&[0; 10]); // caretOffset, reserved
    hhea.i16(0); // metricDataFormat
    hhea.u16(count); // numberOfHMetrics

    let mut maxp = Vec::new();
    maxp.u32(0x0001_0000);
    maxp.u16(count);
    maxp.u16(all.iter().map(|f| f.points).max().unwrap_or(0));
    maxp.u16(all.iter().map(|f| f.contours).max().unwrap_or(0));
    maxp.u16(0); // maxCompositePoints
    maxp.u16(0); // maxCompositeContours
    maxp.u16(2); // maxZones
    maxp.extend_from_slice(&[0; 10]); // twilight points, storage, function and instruction defs, stack
    maxp.u16(all.iter().map(|f| f.instructions).max().unwrap_or(0));
    maxp.u16(0); // maxComponentElements
    maxp.u16(0); // maxComponentDepth

    let first = chars.first().map_or(0, |&c| c as u32) as u16;
    let last = chars.last().map_or(0, |&c| c as u32) as u16;
    let average = (glyphs.iter().map(|g| u32::from(g.0)).sum::<u32>() / u32::from(count)) as i16;
    let mut os2 = Vec::new();
    os2.u16(4); // version
    os2.i16(average);
    os2.u16(400); // usWeightClass
    os2.u16(5); // usWidthClass
    os2.u16(0); // fsType: installable
    for v in [650, 600, 0, 75, 650, 600, 0, 350, 50, 325] {
        os2.i16(v); // sub- and superscript sizes and offsets, strikeout size and position
    }
    os2.i16(0); // sFamilyClass
    os2.extend_from_slice(&[0; 10]); // panose
    os2.extend_from_slice(&[0; 16]); // ulUnicodeRange
    os2.extend_from_slice(b"NONE"); // achVendID
    os2.u16(0x00C0); // fsSelection: REGULAR, USE_TYPO_METRICS
    os2.u16(first);
    os2.u16(last);
    os2.i16(t.typo_ascender);
    os2.i16(t.typo_descender);
    os2.i16(0); // sTypoLineGap
    os2.u16(t.ascender.unsigned_abs());
    os2.u16(t.descender.unsigned_abs());
    os2.u32((1 << 18) | (1 << 20)); // ulCodePageRange1: simplified and traditional Chinese
    os2.u32(0);
    os2.i16(543); // sxHeight
    os2.i16(733); // sCapHeight
    os2.u16(0); // usDefaultChar
    os2.u16(0x3000); // usBreakChar: the ideographic space
    os2.u16(1); // usMaxContext

    let cmap = cmap(chars);

    let mut name = Vec::new();
    let strings: [(u16, &str); 7] = [
        (
            0,
            "Glyphs \u{a9} 2014-2021 Adobe (http://www.adobe.com/), from Noto Sans SC",
        ),
        (1, TEXT_FONT_FAMILY),
        (2, "Regular"),
        (3, "xq text: the glyphs of one page"),
        (4, TEXT_FONT_FAMILY),
        (5, "Version 1.000"),
        (6, "xq-text"),
    ];
    let encoded: Vec<(u16, Vec<u8>)> = strings
        .iter()
        .map(|(id, s)| (*id, s.encode_utf16().flat_map(u16::to_be_bytes).collect()))
        .collect();
    let licence: [(u16, &str); 2] = [
        (
            13,
            "This Font Software is licensed under the SIL Open Font License, Version 1.1.",
        ),
        (14, "https://openfontlicense.org"),
    ];
    let encoded: Vec<(u16, Vec<u8>)> = encoded
        .into_iter()
        .chain(
            licence
                .iter()
                .map(|(id, s)| (*id, s.encode_utf16().flat_map(u16::to_be_bytes).collect())),
        )
        .collect();
    name.u16(0); // format
    name.u16(encoded.len() as u16);
    name.u16(6 + 12 * encoded.len() as u16); // string storage offset
    let mut storage = Vec::new();
    for (id, bytes) in &encoded {
        name.u16(3); // Windows
        name.u16(1); // Unicode BMP
        name.u16(0x409); // English (United States)
        name.u16(*id);
        name.u16(bytes.len() as u16);
        name.u16(storage.len() as u16);
        storage.extend_from_slice(bytes);
    }
    name.extend_from_slice(&storage);

    let mut post = Vec::new();
    post.u32(0x0003_0000); // version 3: no glyph names
    post.u32(0); // italicAngle
    post.i16(-125); // underlinePosition
    post.i16(50); // underlineThickness
    post.extend_from_slice(&[0; 20]); // isFixedPitch, memory hints

    assemble(vec![
        (*b"OS/2", os2),
        (*b"cmap", cmap),
        (*b"glyf", glyf),
        (*b"head", head),
        (*b"hhea", hhea),
        (*b"hmtx", hmtx),
        (*b"loca", loca),
        (*b"maxp", maxp),
        (*b"name", name),
        (*b"post", post),
    ])
}

/// The `cmap` table: one format 4 subtable (Windows, Unicode BMP), a segment for each run of
/// consecutive code points (their glyphs are consecutive too).
fn cmap(chars: &[char]) -> Vec<u8> {
    let mut segments: Vec<(u16, u16, u16)> = Vec::new(); // start, end, first glyph
    for (i, &c) in chars.iter().enumerate() {
        let (code, gid) = (c as u32 as u16, i as u16 + 1);
        match segments.last_mut() {
            Some((_, end, _)) if end.wrapping_add(1) == code => *end = code,
            _ => segments.push((code, code, gid)),
        }
    }
    segments.push((0xFFFF, 0xFFFF, 0)); // the closing segment, mapped to glyph 0
    let n = segments.len() as u16;
    let mut sub = Vec::new();
    sub.u16(4); // format
    sub.u16(16 + 8 * n); // length
    sub.u16(0); // language
    sub.u16(2 * n); // segCountX2
    let power = 1u16 << (15 - n.leading_zeros() as u16); // largest power of 2 ≤ n
    sub.u16(2 * power); // searchRange
    sub.u16(power.trailing_zeros() as u16); // entrySelector
    sub.u16(2 * n - 2 * power); // rangeShift
    for s in &segments {
        sub.u16(s.1);
    }
    sub.u16(0); // reservedPad
    for s in &segments {
        sub.u16(s.0);
    }
    for s in &segments {
        // glyph = code + delta (mod 65536); the closing segment maps 0xFFFF to 0.
        let delta = if s.0 == 0xFFFF {
            1
        } else {
            s.2.wrapping_sub(s.0)
        };
        sub.u16(delta);
    }
    for _ in &segments {
        sub.u16(0); // idRangeOffset
    }
    let mut out = Vec::new();
    out.u16(0); // version
    out.u16(1); // one subtable
    out.u16(3);
    out.u16(1);
    out.u32(12);
    out.extend_from_slice(&sub);
    out
}

/// The font file: the table directory, then the tables, each padded to 4 bytes, and the head
/// table's checksum adjustment.
fn assemble(tables: Vec<([u8; 4], Vec<u8>)>) -> Vec<u8> {
    let n = tables.len() as u16;
    let power = 1u16 << (15 - n.leading_zeros() as u16);
    let mut out = Vec::new();
    out.u32(0x0001_0000);
    out.u16(n);
    out.u16(16 * power); // searchRange
    out.u16(power.trailing_zeros() as u16); // entrySelector
    out.u16(16 * n - 16 * power); // rangeShift
    let mut offset = 12 + 16 * tables.len();
    let mut head_at = None;
    for (tag, data) in &tables {
        out.extend_from_slice(tag);
        out.u32(checksum(data));
        out.u32(offset as u32);
        out.u32(data.len() as u32);
        if tag == b"head" {
            head_at = Some(offset);
        }
        offset += data.len().next_multiple_of(4);
    }
    for (_, data) in &tables {
        out.extend_from_slice(data);
        out.resize(out.len().next_multiple_of(4), 0);
    }
    if let Some(at) = head_at {
        let adjustment = 0xB1B0_AFBAu32.wrapping_sub(checksum(&out));
        out[at + 8..at + 12].copy_from_slice(&adjustment.to_be_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_table_reads_whole() {
        let parsed = parse(TABLE).map(|t| t.glyphs.len());
        assert!(parsed.is_some_and(|n| n > 9000), "{parsed:?}");
    }

    #[test]
    fn a_font_holds_the_text_s_characters_and_names_the_others() {
        let f = text_font("Red 红方 wins 胜, \u{2000B} and \u{2603} are rare; 胜 again");
        assert_eq!(f.covered, vec!['方', '红', '胜']);
        assert_eq!(f.missing, vec!['\u{2603}', '\u{2000B}']);
        assert!(f.ttf.is_some_and(|ttf| ttf.starts_with(&[0, 1, 0, 0])));
        assert_eq!(text_font("plain ASCII").ttf, None);
    }

    #[test]
    fn the_font_file_s_directory_and_checksums_hold() {
        let ttf = text_font("楚河漢界，红方胜").ttf.unwrap();
        // The whole file sums to the magic number once head's adjustment is in.
        assert_eq!(checksum(&ttf), 0xB1B0_AFBA);
        let tables = usize::from(u16_at(&ttf, 4).unwrap());
        assert_eq!(tables, 10);
        let mut tags = Vec::new();
        for i in 0..tables {
            let record = 12 + 16 * i;
            let tag = &ttf[record..record + 4];
            let (sum, at, len) = (
                u32_at(&ttf, record + 4).unwrap(),
                u32_at(&ttf, record + 8).unwrap() as usize,
                u32_at(&ttf, record + 12).unwrap() as usize,
            );
            assert_eq!(at % 4, 0, "{tag:?} is aligned");
            let mut data = ttf[at..at + len].to_vec();
            if tag == b"head" {
                data[8..12].fill(0);
            }
            assert_eq!(checksum(&data), sum, "{tag:?}");
            tags.push(tag.to_vec());
        }
        assert!(tags.is_sorted(), "the directory is sorted by tag");
    }
}
