//! A Rust toolkit for Xiangqi (Chinese chess): positions and legal moves, move notation, game
//! records, arbitration under the CXA 2020 and AXF repetition rules, and the reports and pictures
//! an arbiter hands out. This crate gathers the workspace's libraries in one place, by concern;
//! the `xq` command is built from the same code.
//!
//! | module | what | from |
//! |---|---|---|
//! | the crate root, [`board`] | squares, pieces, moves, [`Position`], legal moves, FEN, perft | `xq-core` |
//! | [`notation`] | reading 炮二平五, C2.5, h2e2 … against a position; writing every notation | `xq-notation` |
//! | [`record`] | game records: PGN, XQF, DhtmlXQ, CBR/CBL/CBF, move lists, JSON; encodings, replay, validation | `xq-record` |
//! | [`arbiter`] | the nature of every move, repetition cycles, rulings with their clause, the 60-round count | `xq-arbiter` |
//! | [`report`] | the ruling report and the 60-round audit as text, JSON and HTML | `xq-report` |
//! | [`render`] | SVG boards | `xq-render` |
//!
//! The libraries never print; every reader returns a typed error saying where and why.
//!
//! # Play moves from Chinese notation
//!
//! ```
//! use xq::{
//!     Position,
//!     notation::{Mode, Notation, Reader, write},
//! };
//!
//! let mut pos = Position::default();
//! let mut reader = Reader::new(Mode::Lenient);
//! let mut wxf = Vec::new();
//! for text in ["炮二平五", "马８进７", "马二进三", "车９平８"] {
//!     let m = reader.read(text, &pos)?;
//!     wxf.push(write(&pos, m, Notation::Wxf));
//!     pos = pos.play(m)?;
//! }
//! assert_eq!(wxf, ["C2.5", "H8+7", "H2+3", "R9.8"]);
//! assert_eq!(
//!     pos.fen(),
//!     "rnbakabr1/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 4 3"
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Read an archive
//!
//! Reading tells the format and the text encoding from the content; replaying checks every move.
//!
//! ```
//! use xq::{
//!     notation::{Mode, Reader},
//!     record::{ReadOptions, read, validate_game},
//! };
//!
//! let bytes = std::fs::read("fixtures/records/wukong/hu-ronghua-uci-5.pgn")?;
//! let mut records = read(&bytes, Some("pgn"), ReadOptions::default())?;
//! let mut reader = Reader::new(Mode::Lenient);
//! let mut plies = 0;
//! for (i, game) in records.games.iter_mut().enumerate() {
//!     let report = validate_game(i, game, &mut reader);
//!     assert!(report.ok, "{:?}", report.error);
//!     plies += report.plies;
//! }
//! assert_eq!(records.games.len(), 5);
//! assert!(plies > 5 * 60);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Judge a repetition
//!
//! Figure 2 of the CXA 2020 rulebook: Red's horse chases Black's rook on every move, Black
//! alternates an exchange offer and a chase. Red's perpetual chase is forbidden: Red must change.
//!
//! ```
//! use xq::{
//!     Position,
//!     arbiter::{JudgeOptions, Lang, Verdict, judge},
//!     notation::{Mode, Reader},
//!     report::{Line, Report},
//! };
//!
//! let start = Position::from_fen(
//!     "1r2kab1r/2c1a4/n1c1b1n2/4p2N1/p1p6/1C4P2/P1P1P4/2N1B3C/4A4/1RBAK2R1 w - - 0 1",
//! )?;
//! let mut reader = Reader::new(Mode::Lenient);
//! let mut pos = start.clone();
//! let mut moves = Vec::new();
//! for text in ["马二退一", "车9平8", "马一进二", "车8平9"] {
//!     let m = reader.read(text, &pos)?;
//!     pos = pos.play(m)?;
//!     moves.push(m);
//! }
//!
//! let judgement = judge(&start, &moves, JudgeOptions::default());
//! assert_eq!(judgement.verdict, Verdict::RedMustChange);
//! assert_eq!(judgement.clause, "25.3");
//! let natures: Vec<&str> = judgement
//!     .moves
//!     .iter()
//!     .map(|m| m.classified.nature.chinese())
//!     .collect();
//! assert_eq!(natures, ["捉", "兑", "捉", "捉"]);
//!
//! // The report an arbiter hands out, in the language of the players.
//! let report = Report::new(&judgement, &Line::new(start, moves));
//! assert!(report.to_text(Lang::Chinese).contains("红方须变着，不变判负"));
//! assert!(report.to_text(Lang::English).contains("Red must change or lose"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs, clippy::print_stdout, clippy::print_stderr)]

pub use xq_core::{
    Board, Color, File, Move, MoveList, Piece, Position, Rank, Role, START_FEN, Square,
};

/// Squares, pieces, moves, positions, legal move generation, FEN and perft (`xq-core`).
pub mod board {
    pub use xq_core::*;
}

/// Move notation: Chinese (炮二平五, traditional characters, full-width numerals), WXF (C2.5) and
/// ICCS/UCCI (h2e2), read against a position and written from one (`xq-notation`).
pub mod notation {
    pub use xq_notation::*;
}

/// Game records: the game model with comments and variations, the readers and writers of every
/// format, text encodings, streaming, replay and validation (`xq-record`).
pub mod record {
    pub use xq_record::*;
}

/// Arbitration: the nature of every move (将 杀 捉 兑 献 拦 跟 闲) with the reason, repetition
/// cycles, rulings with their clause under the CXA 2020 and AXF rules, tournament procedure and
/// the 60-round count (`xq-arbiter`).
pub mod arbiter {
    pub use xq_arbiter::*;
}

/// The ruling report and the 60-round audit: the model and its text, JSON and HTML renderings
/// (`xq-report`).
pub mod report {
    pub use xq_report::*;
}

/// SVG board diagrams with arrows and the last move marked, no font needed (`xq-render`).
pub mod render {
    pub use xq_render::*;
}

/// Records as tables: the games and positions tables (one row per ply, legal-move masks, the
/// 2,086-move vocabulary's labels), JSON lines, and Arrow/Parquet with the `parquet` feature
/// (`xq-dataset`).
pub mod dataset {
    pub use xq_dataset::*;
}
