//! Reading the Chinese moves of the ccpd-dev games: parse, resolve against the position, play.
//!
//! `cargo bench -p xq-notation --bench resolve`. The games are loaded (Big5-decoded, split into
//! tokens) before measuring; the throughput counter is moves. Needs ../shared/data/ccpd-dev.

use std::path::{Path, PathBuf};

use divan::{Bencher, counter::ItemsCount};
use xq_core::Position;
use xq_notation::{Mode, Reader, parse};

fn main() {
    divan::main();
}

struct Game {
    fen: String,
    tokens: Vec<String>,
}

fn games() -> Vec<Game> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/ccpd-dev/Dataset");
    let mut files: Vec<PathBuf> = Vec::new();
    let mut stack = vec![dir];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "pgn") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
        .iter()
        .filter_map(|path| {
            let bytes = std::fs::read(path).ok()?;
            let (text, _, _) = encoding_rs::BIG5.decode(&bytes);
            let mut fen = xq_core::START_FEN.to_owned();
            let mut tokens = Vec::new();
            for line in text.lines().map(str::trim) {
                if let Some(rest) = line.strip_prefix("[FEN \"") {
                    fen = rest.trim_end_matches("\"]").to_owned();
                } else if !line.starts_with('[') {
                    tokens.extend(
                        line.split_whitespace()
                            .map(|t| t.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.'))
                            .filter(|t| {
                                !t.is_empty() && !matches!(*t, "1-0" | "0-1" | "1/2-1/2" | "*")
                            })
                            .map(str::to_owned),
                    );
                }
            }
            Some(Game { fen, tokens })
        })
        .collect()
}

/// Replays every game as far as its moves resolve; returns the number of moves played.
fn replay(games: &[Game], mut read: impl FnMut(&str, &Position) -> Option<xq_core::Move>) -> u64 {
    let mut played = 0;
    for game in games {
        let Ok(mut pos) = Position::from_fen_lenient(&game.fen) else {
            continue;
        };
        for token in &game.tokens {
            let Some(m) = read(token, &pos) else { break };
            pos.play_unchecked(m);
            played += 1;
        }
    }
    played
}

#[divan::bench(sample_count = 5, sample_size = 1)]
fn ccpd_dev_with_syntax_cache(bencher: Bencher<'_, '_>) {
    let games = games();
    let moves = replay(&games, |t, p| Reader::new(Mode::Lenient).read(t, p).ok());
    bencher.counter(ItemsCount::new(moves)).bench(|| {
        let mut reader = Reader::new(Mode::Lenient);
        let n = replay(&games, |t, p| reader.read(t, p).ok());
        assert_eq!(n, moves);
        n
    });
}

#[divan::bench(sample_count = 3, sample_size = 1)]
fn ccpd_dev_parsing_every_token(bencher: Bencher<'_, '_>) {
    let games = games();
    let moves = replay(&games, |t, p| parse(t).ok()?.resolve(p, Mode::Lenient).ok());
    bencher.counter(ItemsCount::new(moves)).bench(|| {
        let n = replay(&games, |t, p| parse(t).ok()?.resolve(p, Mode::Lenient).ok());
        assert_eq!(n, moves);
        n
    });
}
