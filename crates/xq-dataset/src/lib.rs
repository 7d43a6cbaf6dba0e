//! Game records as tables: the **games** table (one row per game: tags, start FEN, moves in ICCS
//! and Chinese, result, whether it replays) and the **positions** table for machine learning (one
//! row per ply of every main line: FEN, move, its label in the 2,086-move vocabulary, the legal
//! moves as a bit mask, the result for the side to move, …), with a train/validation split by a
//! hash of the game id.
//!
//! This is the one definition of both tables: the `xq dataset` and `xq convert --to
//! jsonl|parquet` commands and the Python package (`xq.scan`, `xq.write_dataset`) build their
//! rows here ([`rows`]), take the column names and types from [`columns`], write JSON lines with
//! [`json_line`] and the dataset's `_manifest.json` as [`Manifest`]. With the `parquet` feature,
//! the `arrow` module builds Arrow record batches and writes Parquet.
//!
//! ```
//! use xq_dataset::{Options, Row, Source, Table, rows};
//! use xq_record::Game;
//!
//! let moves: Vec<xq_core::Move> = ["h2e2", "h9g7"].iter().map(|m| m.parse()).collect::<Result<_, _>>()?;
//! let game = Game::default();
//! let start = xq_core::Position::new();
//! let source = Source { file: Some("a.pgn"), index: Some(0), game: &game, ok: true, error: None,
//!                       start: Some(&start), mainline: &moves };
//! let mut fens = Vec::new();
//! rows(&source, Table::Positions, &Options::default(), &mut |row: Row<'_>| {
//!     if let Row::Position(p) = row { fens.push(p.fen) }
//! });
//! assert_eq!(fens.len(), 2);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs, clippy::print_stdout, clippy::print_stderr)]

#[cfg(feature = "parquet")]
pub mod arrow;
mod manifest;
mod table;

pub use crate::{
    manifest::{
        Counts, FailedGame, Manifest, ManifestInput, ManifestOptions, Shard, sha256_bytes,
        sha256_file,
    },
    table::{
        ColumnType, GameRow, Options, PositionRow, Row, Source, Table, columns, game_id, json_line,
        line_of, rows, split_of,
    },
};

/// The name of the `n`-th part file of a dataset (`part-00000.parquet`, …): the same from the
/// command and from Python.
pub fn part_name(n: usize, extension: &str) -> String {
    format!("part-{n:05}.{extension}")
}

/// The name of a dataset's manifest file.
pub const MANIFEST: &str = "_manifest.json";
