//! A dataset's `_manifest.json`: what was read (with hashes), what was written, what failed.

use std::{fs, io, io::Read, path::Path};

use serde::Serialize;
use sha2::{Digest, Sha256};
use xq_record::Failure;

/// The manifest of a dataset directory. Its JSON (see [`Manifest::to_json`]) is the one
/// `xq.write_dataset` writes in Python.
#[derive(Clone, Debug, Serialize)]
pub struct Manifest {
    /// The version of xq that wrote it.
    pub xq_version: String,
    /// `games` or `positions`.
    pub table: &'static str,
    /// `parquet` or `jsonl`.
    pub format: &'static str,
    /// How the rows were made.
    pub options: ManifestOptions,
    /// Every record file read, with its SHA-256.
    pub inputs: Vec<ManifestInput>,
    /// Games, rows and failed games.
    pub counts: Counts,
    /// Every game that failed (and every file that gave none), with what is wrong.
    pub failures: Vec<FailedGame>,
    /// The part files, in order.
    pub shards: Vec<Shard>,
}

/// The options a dataset was written with.
#[derive(Clone, Debug, Serialize)]
pub struct ManifestOptions {
    /// Positions rotated so that Red is to move.
    pub flip: bool,
    /// Positions mirrored left to right.
    pub mirror: bool,
    /// The validation share.
    pub validation: f64,
    /// Rows at most in a part file.
    pub shard_size: u64,
    /// Moves classified under the CXA 2020 rules.
    pub natures: bool,
}

/// An input file.
#[derive(Clone, Debug, Serialize)]
pub struct ManifestInput {
    /// Its path, as given (or found below a directory given).
    pub file: String,
    /// Its SHA-256 in hex; `None` when it could not be read.
    pub sha256: Option<String>,
}

/// What was read and written.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Counts {
    /// Games read (a file that gave none counts as one failed game).
    pub games: u64,
    /// Rows written.
    pub rows: u64,
    /// Games that failed to read or replay (their rows hold the main line up to the fault).
    pub failed_games: u64,
}

/// A game that failed, or a file that gave none.
#[derive(Clone, Debug, Serialize)]
pub struct FailedGame {
    /// The file.
    pub file: Option<String>,
    /// Which game of the file (0-based); `None` for a file that gave none.
    pub game: Option<usize>,
    /// What is wrong: the first bad move of each line, or why nothing could be read (each
    /// with its keys sorted, as `Game.errors` gives them in Python).
    #[serde(serialize_with = "keys_sorted")]
    pub errors: Vec<Failure>,
}

fn keys_sorted<S: serde::Serializer>(errors: &[Failure], s: S) -> Result<S::Ok, S::Error> {
    let values = errors
        .iter()
        .map(serde_json::to_value)
        .collect::<Result<Vec<_>, _>>()
        .map_err(serde::ser::Error::custom)?;
    values.serialize(s)
}

/// A part file.
#[derive(Clone, Debug, Serialize)]
pub struct Shard {
    /// Its name in the dataset directory.
    pub file: String,
    /// Its rows.
    pub rows: u64,
}

impl Manifest {
    /// The manifest as JSON, indented by one space a level (as Python's `json.dump(indent=1)`).
    pub fn to_json(&self) -> String {
        let mut out = Vec::new();
        let formatter = serde_json::ser::PrettyFormatter::with_indent(b" ");
        let mut ser = serde_json::Serializer::with_formatter(&mut out, formatter);
        // Serialising these types into memory cannot fail.
        let _ = self.serialize(&mut ser);
        String::from_utf8(out).unwrap_or_default()
    }
}

/// The SHA-256 of a file, in hex, read a megabyte at a time.
pub fn sha256_file(path: &Path) -> io::Result<String> {
    let mut file = fs::File::open(path)?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = file.read(&mut buf)?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    Ok(hex(&hasher.finalize()))
}

/// The SHA-256 of bytes already read (a file read whole), in hex.
pub fn sha256_bytes(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

fn hex(digest: &[u8]) -> String {
    digest.iter().map(|b| format!("{b:02x}")).collect()
}
