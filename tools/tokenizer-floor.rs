//! What reading PGN movetext one byte at a time costs when a reader does only what every reader
//! must, timed by callgrind against `xq validate`'s reading (issue 16's instructions-per-ply
//! goal). Not part of the build.
//!
//!     rustc -C opt-level=3 --edition 2024 -o /tmp/tokenizer-floor tools/tokenizer-floor.rs
//!     grep -v '^\[' /tmp/xq-bench/one.pgn > /tmp/movetext.pgn
//!     valgrind --tool=callgrind /tmp/tokenizer-floor /tmp/movetext.pgn
//!
//! One pass over a UTF-8 PGN file (no byte-order mark), on its own:
//! - tag lines passed (a `[` first on its line, to the line's end);
//! - `{…}` and `;` comments passed;
//! - spaces stepped over;
//! - each token cut, stepping by a table: a UTF-8 character's length at its lead byte;
//! - each token's byte offset, line, length and kind (a move number, a result or a move, told
//!   by its first byte) kept, in a vector reused for each game.
//!
//! It makes none of the reader's checks (results in words, games without a result, headings,
//! glyphs). It builds no game, keeps no tags and reads no other encoding.
//!
//! From callgrind's total, subtract the inclusive count of `core::str::converts::from_utf8` (the
//! UTF-8 check, which xq makes with simdutf8), and divide by the file's plies (251,888 for the
//! CCPD sample as `tools/bench-archive.sh` makes `one.pgn`). On 2026-12-02:
//! - the movetext alone (the `grep` above): 168 instructions a ply, about 11 a byte;
//! - `one.pgn` itself, tag lines passed too: 192 a ply;
//! - against 424 for `xq`'s movetext reading alone, checks and all.
//!
//! It is what a plain byte loop costs, not a lower bound: a reader that classifies many bytes at
//! once (as simdjson does) would go below it.

use std::hint::black_box;

/// A token's place and kind. (Kept as a reader keeps them, and handed to `black_box`, which
/// the compiler does not count as reading them.)
#[allow(dead_code)]
#[derive(Debug, Clone, Copy)]
struct Token {
    at: usize,
    line: u32,
    len: u32,
    kind: Kind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Number,
    Result,
    Move,
}

/// How many bytes a token goes on by at each byte: a UTF-8 character's length at its lead
/// byte, 1 at any other byte, 0 at a space or delimiter, which ends the token.
const STEP: [u8; 256] = {
    let mut step = [1u8; 256];
    let mut b = 0x80;
    while b < 0x100 {
        step[b] = match b {
            0xF0.. => 4,
            0xE0.. => 3,
            _ => 2,
        };
        b += 1;
    }
    let ends = b" \t\r\n{}();";
    let mut i = 0;
    while i < ends.len() {
        step[ends[i] as usize] = 0;
        i += 1;
    }
    step
};

fn main() -> Result<(), String> {
    let path = std::env::args()
        .nth(1)
        .ok_or("usage: tokenizer-floor FILE.pgn")?;
    let bytes = std::fs::read(&path).map_err(|e| format!("{path}: {e}"))?;
    let text = std::str::from_utf8(&bytes).map_err(|e| format!("{path}: {e}"))?;
    let b = text.as_bytes();
    let n = b.len();
    let mut tokens: Vec<Token> = Vec::with_capacity(256);
    let (mut i, mut line, mut moves) = (0usize, 1u32, 0usize);
    let mut line_start = true;
    while i < n {
        let c = b[i];
        match c {
            b'\n' => {
                line += 1;
                i += 1;
                line_start = true;
                continue;
            }
            // (Variations: their moves are read as the main line's are.)
            b' ' | b'\t' | b'\r' | b'(' | b')' | b'}' => {
                i += 1;
                continue;
            }
            b'[' if line_start => {
                // A tag line: the game before it is over.
                while i < n && b[i] != b'\n' {
                    i += 1;
                }
                black_box(&tokens);
                tokens.clear();
                continue;
            }
            b';' => {
                while i < n && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'{' => {
                line_start = false;
                while i < n && b[i] != b'}' {
                    line += u32::from(b[i] == b'\n');
                    i += 1;
                }
                i += 1;
                continue;
            }
            _ => {}
        }
        line_start = false;
        let start = i;
        while i < n {
            match STEP[usize::from(b[i])] {
                0 => break,
                step => i += usize::from(step),
            }
        }
        i = i.min(n);
        let token = &b[start..i];
        let kind = match token[0] {
            b'0'..=b'9' => {
                let number = token
                    .iter()
                    .take_while(|x| x.is_ascii_digit() || **x == b'.')
                    .count();
                if number == token.len() {
                    Kind::Number
                } else if token[1..].first() == Some(&b'-') || token.starts_with(b"1/2") {
                    Kind::Result
                } else {
                    Kind::Move
                }
            }
            b'*' => Kind::Result,
            _ => Kind::Move,
        };
        moves += usize::from(kind == Kind::Move);
        tokens.push(Token {
            at: start,
            line,
            len: token.len() as u32,
            kind,
        });
    }
    black_box(&tokens);
    println!("{moves} moves");
    Ok(())
}
