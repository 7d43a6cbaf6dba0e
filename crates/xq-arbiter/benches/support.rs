//! The dev rulebook cases, read for the benchmarks.

use xq_core::{Move, Position};

/// One case: its id, start, moves and the book's verdict.
pub(crate) type Case = (String, Position, Vec<Move>, String);

/// The CXA 2020 dev cases.
#[allow(dead_code)] // each bench uses what it needs
pub(crate) fn cases() -> Vec<Case> {
    load("cxa2020-dev.json")
}

/// The cases of `fixtures/cases/{name}`.
pub(crate) fn load(name: &str) -> Vec<Case> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/cases")
        .join(name);
    let text = std::fs::read_to_string(path).expect("the case file");
    let cases: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    cases
        .as_array()
        .expect("a list")
        .iter()
        .map(|c| {
            let fen = c["fen"].as_str().expect("fen");
            let moves = c["moves"]
                .as_array()
                .expect("moves")
                .iter()
                .map(|m| m.as_str().expect("move").parse().expect("ICCS"))
                .collect();
            (
                c["id"].as_str().expect("id").to_owned(),
                Position::from_fen_lenient(fen).expect("FEN"),
                moves,
                c["verdict"].as_str().expect("verdict").to_owned(),
            )
        })
        .collect()
}

/// A move list of `fixtures/judge/{name}.txt`: comment lines (`#`), the start FEN, then the moves
/// (UCCI), as `xq judge` reads them.
#[allow(dead_code)] // each bench uses what it needs
pub(crate) fn move_list(name: &str) -> (Position, Vec<Move>) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/judge")
        .join(format!("{name}.txt"));
    let text = std::fs::read_to_string(path).expect("the move list");
    let mut lines = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty());
    let start = Position::from_fen_lenient(lines.next().expect("a FEN line")).expect("FEN");
    let moves = lines
        .flat_map(str::split_whitespace)
        .map(|m| m.parse().expect("UCCI"))
        .collect();
    (start, moves)
}
