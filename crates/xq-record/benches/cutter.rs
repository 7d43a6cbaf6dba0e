//! The PGN stream's cost does not depend on odd braces: a 10 MB PGN is read (cut into games,
//! decoded, parsed; not replayed) clean, with an unmatched `{` in game 1, with a brace inside a
//! tag value, and with a stray `}`. Before issue 13 the cutter counted braces over everything read
//! after every game, and an unmatched `{` early made the time grow with the square of the file's
//! size (a 4 MB file took 27 s). Each case should take about the clean time (the acceptance bound
//! is twice). Run with `cargo bench -p xq-record --bench cutter`.

#![allow(clippy::unwrap_used)]

use std::sync::OnceLock;

use xq_record::{GameStream, ReadOptions};

fn main() {
    divan::main();
}

/// About 10 MB of games with comments and variations, `first` in front of them.
fn file(first: &str) -> Vec<u8> {
    let game = "[Event \"bench\"]\n[Result \"*\"]\n\n1. 炮二平五 {中炮} 马８进７ 2. 马二进三 ( 2. 兵七进一 {先挺兵} 卒７进１ ) 车９平８ 3. 车一平二 *\n\n";
    let mut text = String::from(first);
    while text.len() < 10 << 20 {
        text.push_str(game);
    }
    text.into_bytes()
}

const CASES: [&str; 4] = [
    "clean",
    "unmatched brace in game 1",
    "brace in a tag",
    "stray closing brace",
];

fn input(case: &str) -> &'static [u8] {
    static FILES: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    let files = FILES.get_or_init(|| {
        vec![
            file(""),
            file("[Event \"first\"]\n\n1. 炮二平五 {see {ref 马８进７ *\n\n"),
            file("[Event \"Cup {final\"]\n\n1. 炮二平五 马８进７ *\n\n"),
            file("[Event \"first\"]\n\n1. 炮二平五 } 马８进７ *\n\n"),
        ]
    });
    let i = CASES.iter().position(|c| *c == case).unwrap();
    &files[i]
}

#[divan::bench(args = CASES, sample_count = 10)]
fn stream_10_mb(bencher: divan::Bencher<'_, '_>, case: &str) {
    let bytes = input(case);
    bencher.bench(|| {
        GameStream::from_reader(bytes, Some("pgn"), ReadOptions::default())
            .unwrap()
            .count()
    });
}

/// Bytes that are not text cost about what text costs: 10 MB of GBK games with a bad byte in
/// every comment, and 4 MB of one line of bad bytes and halves of characters (in one comment,
/// too long to be one). Before, decoding gave encoding_rs room for the whole piece on every call,
/// one call per run of bad bytes, and it touches every page of that room: medians 1.44 s and
/// 5.93 s, now 0.27 s and 0.07 s (2 cores; the clean 10 MB above about 0.11 s).
#[divan::bench(args = ["a bad byte in every comment", "one long line of bad bytes"], sample_count = 10)]
fn stream_bad_bytes(bencher: divan::Bencher<'_, '_>, case: &str) {
    static FILES: OnceLock<[Vec<u8>; 2]> = OnceLock::new();
    let files = FILES.get_or_init(|| {
        // 中 in GBK, then 0xFF.
        let game = b"[Event \"bench\"]\n\n1. h2e2 {\xd6\xd0\xff} h9g7 *\n\n";
        let mut every = Vec::new();
        while every.len() < 10 << 20 {
            every.extend_from_slice(game);
        }
        let mut long = b"[Event \"bench\"]\n\n1. h2e2 {".to_vec();
        while long.len() < 4 << 20 {
            long.extend_from_slice(b"\x81\x35\xff\xd6\xd0\x80\xd6");
        }
        long.extend_from_slice(b"} h9g7 *\n");
        [every, long]
    });
    let bytes = &files[usize::from(case.starts_with("one"))];
    let options = ReadOptions {
        encoding: Some(xq_record::Encoding::Gbk),
        ..ReadOptions::default()
    };
    bencher.bench(|| {
        GameStream::from_reader(&bytes[..], Some("pgn"), options)
            .unwrap()
            .count()
    });
}
