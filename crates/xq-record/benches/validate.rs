//! Validating the CCPD sample (3,106 Big5 PGN games, `../shared/data/ccpd-dev`) end to end: read
//! the file, tell and decode its encoding, parse the PGN, resolve every move's notation against
//! the position, replay every line. Run with `cargo bench -p xq-record --bench validate`.
//!
//! - `from_memory`: the files' bytes already loaded (the parsing and replaying alone);
//! - `from_disk`: opening and reading every file as `xq validate` does;
//! - `stages`: decoding and PGN parsing alone, to see where the time goes;
//! - `parallel`: `from_disk` spread over every core (rayon), as `xq validate` does.
//!
//! Games per second = 3,106 / the time per iteration. The sample comes from the CC BY 4.0 CCPD
//! dataset in the shared reference data; without it the benchmark has nothing to measure and says
//! so.

#![allow(clippy::unwrap_used, clippy::print_stderr)]

use std::{
    path::{Path, PathBuf},
    sync::OnceLock,
};

use rayon::prelude::*;
use xq_notation::{Mode, Reader, ReaderPool};
use xq_record::{GameStream, ReadOptions, encoding, pgn::PgnReader, validate_game};

fn main() {
    if files().is_empty() {
        eprintln!("no CCPD sample at {}: nothing to measure", dir().display());
        return;
    }
    divan::main();
}

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/ccpd-dev")
}

fn files() -> &'static [PathBuf] {
    static FILES: OnceLock<Vec<PathBuf>> = OnceLock::new();
    FILES.get_or_init(|| {
        let mut out = Vec::new();
        let mut stack = vec![dir()];
        while let Some(d) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&d) else {
                continue;
            };
            for path in entries.flatten().map(|e| e.path()) {
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "pgn") {
                    out.push(path);
                }
            }
        }
        out.sort();
        out
    })
}

fn bytes() -> &'static [Vec<u8>] {
    static BYTES: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    BYTES.get_or_init(|| files().iter().map(|f| std::fs::read(f).unwrap()).collect())
}

/// Validates every game of one file; returns (games, games ok).
fn validate(stream: GameStream<'_>, reader: &mut Reader) -> (usize, usize) {
    let mut counts = (0, 0);
    for (i, mut item) in stream.enumerate() {
        let report = validate_game(i, &mut item, reader);
        counts.0 += 1;
        counts.1 += usize::from(report.ok);
    }
    counts
}

#[divan::bench(sample_count = 10)]
fn from_memory(bencher: divan::Bencher<'_, '_>) {
    let all = bytes();
    let mut reader = Reader::new(Mode::Lenient);
    bencher
        .counter(divan::counter::ItemsCount::new(all.len()))
        .bench_local(|| {
            let mut ok = 0;
            for b in all {
                let stream =
                    GameStream::from_reader(b.as_slice(), Some("pgn"), ReadOptions::default())
                        .unwrap();
                ok += validate(stream, &mut reader).1;
            }
            assert_eq!(ok, 3104);
        });
}

#[divan::bench(sample_count = 10)]
fn from_disk(bencher: divan::Bencher<'_, '_>) {
    let files = files();
    let mut reader = Reader::new(Mode::Lenient);
    bencher
        .counter(divan::counter::ItemsCount::new(files.len()))
        .bench_local(|| {
            let mut ok = 0;
            for f in files {
                ok += validate(
                    GameStream::open(f, ReadOptions::default()).unwrap(),
                    &mut reader,
                )
                .1;
            }
            assert_eq!(ok, 3104);
        });
}

/// As `xq validate` does: a reader per worker thread, warm across files.
#[divan::bench(sample_count = 10)]
fn parallel(bencher: divan::Bencher<'_, '_>) {
    let files = files();
    let readers = ReaderPool::new(rayon::current_num_threads(), Mode::Lenient);
    bencher
        .counter(divan::counter::ItemsCount::new(files.len()))
        .bench_local(|| {
            let ok: usize = files
                .par_iter()
                .map(|f| {
                    let stream = GameStream::open(f, ReadOptions::default()).unwrap();
                    readers.with(rayon::current_thread_index(), |reader| {
                        validate(stream, reader).1
                    })
                })
                .sum();
            assert_eq!(ok, 3104);
        });
}

mod stages {
    use super::{PgnReader, bytes, encoding};

    #[divan::bench(sample_count = 10)]
    fn detect_and_decode(bencher: divan::Bencher<'_, '_>) {
        let all = bytes();
        bencher
            .counter(divan::counter::ItemsCount::new(all.len()))
            .bench_local(|| {
                all.iter()
                    .map(|b| encoding::decode(b, encoding::detect(b)).len())
                    .sum::<usize>()
            });
    }

    #[divan::bench(sample_count = 10)]
    fn parse_pgn(bencher: divan::Bencher<'_, '_>) {
        let texts: Vec<String> = bytes()
            .iter()
            .map(|b| encoding::decode(b, encoding::detect(b)).into_owned())
            .collect();
        bencher
            .counter(divan::counter::ItemsCount::new(texts.len()))
            .bench_local(|| {
                texts
                    .iter()
                    .map(|t| PgnReader::new(t).filter(Result::is_ok).count())
                    .sum::<usize>()
            });
    }
}

#[divan::bench(sample_count = 10)]
fn parallel_from_memory(bencher: divan::Bencher<'_, '_>) {
    let all = bytes();
    let readers = ReaderPool::new(rayon::current_num_threads(), Mode::Lenient);
    bencher
        .counter(divan::counter::ItemsCount::new(all.len()))
        .bench_local(|| {
            let ok: usize = all
                .par_iter()
                .map(|b| {
                    let stream =
                        GameStream::from_reader(b.as_slice(), Some("pgn"), ReadOptions::default())
                            .unwrap();
                    readers.with(rayon::current_thread_index(), |reader| {
                        validate(stream, reader).1
                    })
                })
                .sum();
            assert_eq!(ok, 3104);
        });
}
