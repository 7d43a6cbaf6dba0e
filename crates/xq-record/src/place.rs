//! Where a place of a decoded text stands in its file: readers work on decoded text, but errors
//! and games say where they are by the byte offset in the file as stored (GBK, Big5, UTF-16 …),
//! which a person or tool can seek to.

use crate::{
    encoding::{self, Encoding},
    error::ReadError,
    game::{Game, Node},
};

/// Byte offsets in the file of positions in a decoded text, found moving forward (moving back
/// starts again from the text's start).
pub(crate) struct Place {
    pos: usize,
    offset: usize,
    base: usize,
}

impl Place {
    /// Positions in a text decoded from the bytes at file offset `base`.
    pub(crate) fn new(base: usize) -> Place {
        Place {
            pos: 0,
            offset: base,
            base,
        }
    }

    /// The file offset of `text[pos..]`.
    pub(crate) fn offset(&mut self, text: &str, pos: usize, encoding: Encoding) -> usize {
        if pos < self.pos {
            self.pos = 0;
            self.offset = self.base;
        }
        let piece = text.get(self.pos..pos).unwrap_or("");
        self.offset += encoded_len(piece, encoding);
        self.pos = pos;
        self.offset
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
                self.locate_moves(&mut game.moves, text, encoding);
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

impl Place {
    /// The moves of `line` placed in the file, in the order they are written: a move, the
    /// variations replacing it, then the next move.
    fn locate_moves(&mut self, line: &mut [Node], text: &str, encoding: Encoding) {
        for node in line {
            if let Some(pos) = node.source_offset {
                node.source_offset = Some(self.offset(text, pos, encoding));
            }
            for variation in &mut node.variations {
                self.locate_moves(variation, text, encoding);
            }
        }
    }
}

/// The length of `text` in `encoding`, without a byte-order mark.
fn encoded_len(text: &str, encoding: Encoding) -> usize {
    match encoding {
        Encoding::Utf8 => text.len(),
        Encoding::Utf16Le | Encoding::Utf16Be => text.encode_utf16().count() * 2,
        other => encoding::encode(text, other).len(),
    }
}
