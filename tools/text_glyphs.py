#!/usr/bin/env python3
"""Writes crates/xq-render/fonts/text-glyphs.bin: TrueType outlines of the characters an HTML
report's text can contain, from which `xq_render::text_font` builds, for each page, a small font
holding only the glyphs that page uses (inlined in the page, so it reads without a CJK font).

The characters: every non-ASCII character of xq's own sources that can reach a report (the
code lines of crates/*/src and src/, comment lines left out, and the grammars: notation
characters, natures, patterns, rulings, clause titles, labels), plus GB 2312 (its 6,763 hanzi and its symbols:
the common characters of names and events in simplified Chinese) and Big5's 5,401 common
hanzi (the same in traditional Chinese).

The outlines: Noto Sans SC Regular (© 2014-2021 Adobe, SIL Open Font License 1.1, Reserved
Font Name "Source"; PyPI package pylopdf-fonts-zh-cn), cubic curves turned into TrueType's
quadratic ones within 1 unit of the 1000-unit em.

Run: pip install fonttools pylopdf-fonts-zh-cn  (or `pip download --no-deps` and unzip it), then
     python3 tools/text_glyphs.py path/to/NotoSansSC-Regular.otf
The output is committed; builds do not need the font or Python.

Format (big-endian): b"XQG1", u32 glyph count, u16 units per em, i16 typographic ascender and
descender, i16 ascender and descender of the line (hhea), then for each character in code point order: u32 code point, u16 advance width, u16 length,
and that many bytes of a TrueType `glyf` entry (a simple glyph; empty for a blank one)."""
import pathlib
import struct
import sys

from fontTools.pens.cu2quPen import Cu2QuPen
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTFont

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "crates/xq-render/fonts/text-glyphs.bin"

def vocabulary():
    """The non-ASCII characters of xq's sources (but comment lines) and of its grammars. The test
    crates/xq-render/tests/text_font.rs checks that the table has them all: run this again when
    it fails."""
    chars = set()
    sources = list(ROOT.glob("crates/*/src/**/*.rs")) + list(ROOT.glob("src/**/*.rs"))
    for path in sources:
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.lstrip().startswith("//"):
                chars.update(c for c in line if ord(c) > 127)
    for path in ROOT.glob("grammar/*.pest"):
        chars.update(c for c in path.read_text(encoding="utf-8") if ord(c) > 127)
    return chars


def decode_table(encoding, lead, trail):
    chars = set()
    for a in lead:
        for b in trail:
            try:
                chars.update(bytes([a, b]).decode(encoding))
            except UnicodeDecodeError:
                pass
    return chars


def common():
    gb2312 = decode_table("gb2312", range(0xA1, 0xF8), range(0xA1, 0xFF))
    big5_common = decode_table("big5", range(0xA4, 0xC7), list(range(0x40, 0x7F)) + list(range(0xA1, 0xFF)))
    big5_common = {c for c in big5_common if "\u4e00" <= c <= "\u9fff"}
    return gb2312 | big5_common


def main(path):
    font = TTFont(path)
    cmap = font.getBestCmap()
    glyphs = font.getGlyphSet()
    upem = font["head"].unitsPerEm
    assert upem == 1000, upem
    own = vocabulary()
    missing = sorted(c for c in own if ord(c) not in cmap)
    if missing:
        print("not in the font (left to the reader's fonts):", " ".join(missing), file=sys.stderr)
    wanted = sorted(ord(c) for c in (own | common()) if ord(c) in cmap and 127 < ord(c) <= 0xFFFF)
    os2 = font["OS/2"]
    out = bytearray(b"XQG1")
    hhea = font["hhea"]
    out += struct.pack(">IHhhhh", len(wanted), upem, os2.sTypoAscender, os2.sTypoDescender,
                       hhea.ascent, hhea.descent)
    for cp in wanted:
        name = cmap[cp]
        pen = TTGlyphPen(None)
        # CFF contours run anticlockwise, TrueType's clockwise.
        glyphs[name].draw(Cu2QuPen(pen, max_err=1.0, reverse_direction=True))
        glyph = pen.glyph()
        data = b""
        if glyph.numberOfContours > 0:
            glyph.recalcBounds(None)
            data = glyph.compile(None)
        out += struct.pack(">IHH", cp, glyphs[name].width, len(data)) + data
    OUT.write_bytes(bytes(out))
    print(f"{len(wanted)} glyphs ({len(own)} of xq's own characters), {len(out)} bytes: {OUT}", file=sys.stderr)


main(sys.argv[1])
