//! What reading PGN movetext a byte at a time costs at the least, timed by callgrind against
//! `xq validate`'s reading (issue 16's instructions-per-ply goal). Not part of the build.
//!
//!     rustc -C opt-level=3 --edition 2024 -o /tmp/tokenizer-floor tools/tokenizer-floor.rs
//!     valgrind --tool=callgrind /tmp/tokenizer-floor /tmp/xq-bench/one.pgn
//!
//! One pass over a UTF-8 PGN file, on its own:
//! - tag lines passed (a `[` first on its line, to the line's end);
//! - `{…}` comments passed;
//! - spaces stepped over;
//! - each token cut, a UTF-8 character's bytes skipped by its lead byte;
//! - each token's byte offset, line, length and kind (a move number, a result or a move, told
//!   by its first byte) kept, in a vector reused for each game.
//!
//! It makes none of the reader's checks (results in words, games without a result, headings,
//! glyphs). It builds no game, keeps no tags and reads no other encoding.
//!
//! Subtract the UTF-8 check (`core::str::converts::from_utf8`; xq makes it with simdutf8) from
//! callgrind's total, and divide by the file's plies (251,888 for the CCPD sample as
//! `tools/bench-archive.sh` makes `one.pgn`). On 2026-12-02: 218 instructions a ply, about 7 a
//! byte, against 424 for `xq`'s movetext reading alone. A reader that classifies many bytes at
//! once (as simdjson does) could go below this; a byte loop cannot by much.

use std::hint::black_box;

/// A token's place and kind. (Kept as a reader keeps them, and handed to `black_box`, which
/// the compiler does not count as reading them.)
#[allow(dead_code)]
#[derive(Debug, Clone, Copy)]
struct Token {
    at: u32,
    line: u32,
    len: u16,
    kind: Kind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Number,
    Result,
    Move,
}

fn main() -> Result<(), String> {
    let path = std::env::args()
        .nth(1)
        .ok_or("usage: tokenizer-floor FILE.pgn")?;
    let bytes = std::fs::read(&path).map_err(|e| format!("{path}: {e}"))?;
    let text = std::str::from_utf8(&bytes).map_err(|e| format!("{path}: {e}"))?;
    let b = text.as_bytes();
    let mut tokens: Vec<Token> = Vec::with_capacity(256);
    let (mut i, mut line, mut moves) = (0usize, 1u32, 0usize);
    let mut line_start = true;
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            line += 1;
            i += 1;
            line_start = true;
            continue;
        }
        if c == b' ' || c == b'\t' || c == b'\r' || c == b'(' || c == b')' {
            // (Variations: their moves are read as the main line's are.)
            i += 1;
            continue;
        }
        if line_start && c == b'[' {
            // A tag line: the game before it is over.
            i = b[i..]
                .iter()
                .position(|&x| x == b'\n')
                .map_or(b.len(), |k| i + k);
            moves += tokens.iter().filter(|t| t.kind == Kind::Move).count();
            black_box(&tokens);
            tokens.clear();
            continue;
        }
        line_start = false;
        if c == b'{' {
            while i < b.len() && b[i] != b'}' {
                line += u32::from(b[i] == b'\n');
                i += 1;
            }
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() {
            let d = b[i];
            if d >= 0xE0 {
                i += 3;
                continue;
            }
            if d >= 0x80 {
                i += 2;
                continue;
            }
            if d == b' '
                || d == b'\n'
                || d == b'\r'
                || d == b'\t'
                || d == b'{'
                || d == b'('
                || d == b')'
            {
                break;
            }
            i += 1;
        }
        i = i.min(b.len());
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
        tokens.push(Token {
            at: start as u32,
            line,
            len: token.len() as u16,
            kind,
        });
    }
    moves += tokens.iter().filter(|t| t.kind == Kind::Move).count();
    black_box(&tokens);
    println!("{moves} moves");
    Ok(())
}
