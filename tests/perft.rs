//! Perft conformance: every position and count of `fixtures/perft.txt` (the reference numbers
//! quoted in ../shared), each within the node budget below.

#![allow(clippy::unwrap_used)] // tests: a panic is the failure report

use std::{fs, path::Path};

use xq_core::{Position, perft::perft};

/// Counts above this are left to the benchmark and `xq perft` (the start position's depth 6 has
/// 5.4 billion nodes). The start position's depth 5 (133 M) is always run.
const NODE_BUDGET: u64 = 60_000_000;

struct Case {
    id: String,
    fen: String,
    counts: Vec<(u32, u64)>,
}

fn cases() -> Vec<Case> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/perft.txt");
    let text = fs::read_to_string(&path).expect("fixtures/perft.txt");
    let mut cases: Vec<Case> = Vec::new();
    for line in text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let (key, value) = line.split_once(' ').expect("key value");
        match key {
            "id" => cases.push(Case {
                id: value.to_owned(),
                fen: String::new(),
                counts: Vec::new(),
            }),
            "fen" => cases.last_mut().expect("id first").fen = value.to_owned(),
            "perft" => {
                let (d, n) = value.split_once(' ').expect("depth nodes");
                cases
                    .last_mut()
                    .expect("id first")
                    .counts
                    .push((d.parse().unwrap(), n.parse().unwrap()));
            }
            other => panic!("unknown key {other}"),
        }
    }
    cases
}

#[test]
fn reference_counts() {
    let cases = cases();
    assert_eq!(
        cases.len(),
        13,
        "every reference position is in the fixture"
    );
    let mut failures = Vec::new();
    let mut checked = 0;
    for case in &cases {
        let pos = Position::from_fen(&case.fen).unwrap_or_else(|e| panic!("{}: {e}", case.id));
        let deepest = case.counts.iter().map(|&(d, _)| d).max().unwrap();
        assert!(deepest >= 4, "{}: counted to depth 4 at least", case.id);
        for &(depth, nodes) in &case.counts {
            if nodes > NODE_BUDGET && !(case.id == "start" && depth == 5) {
                continue;
            }
            checked += 1;
            let got = perft(&pos, depth);
            if got != nodes {
                failures.push(format!(
                    "{} depth {depth}: expected {nodes}, got {got}",
                    case.id
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
    // 64 counts in the fixture; five are above the budget (start d6; d6 of cpw-3, 4, 6, 8).
    assert_eq!(checked, 59, "counts checked");
}

#[test]
fn mirrored_positions_count_the_same() {
    // The same position seen from the other side (board turned, colors swapped) has the same
    // tree; this catches any asymmetry between Red's and Black's rules.
    for case in cases() {
        let pos = Position::from_fen(&case.fen).unwrap();
        let mut setup = pos.to_setup();
        setup.board = setup.board.mirrored();
        setup.turn = setup.turn.other();
        let mirrored = Position::from_setup(setup).unwrap();
        assert_eq!(perft(&pos, 3), perft(&mirrored, 3), "{}", case.id);
    }
}
