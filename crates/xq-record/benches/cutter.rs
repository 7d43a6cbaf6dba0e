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
