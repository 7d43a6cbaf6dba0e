//! The checks-only mate search remembers its answers in the budget (issue 12 speed). What it
//! remembers must change nothing: a budget that has searched before, in this search or earlier
//! ones, gives the answers of the plain search that remembers nothing — the line, and running out
//! of nodes, included.

use xq_arbiter::search::{Budget, mate_by_checks_avoiding};
use xq_core::{Move, Position};

/// Each position of a move list in `fixtures/`, each side to move.
fn both_sides(start: Position, moves: &[Move]) -> Vec<Position> {
    let mut pos = start;
    let mut positions = Vec::new();
    for &m in moves {
        positions.push(pos.clone());
        positions.push(pos.passed());
        pos.play_unchecked(m);
    }
    positions
}

fn fixture(path: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures")
        .join(path);
    std::fs::read_to_string(path).expect("the fixture")
}

/// The positions of the dev cases in `file` (`cxa2020-dev.json`, `axf-dev.json`).
fn dev_cases(file: &str) -> Vec<Position> {
    let cases: serde_json::Value =
        serde_json::from_str(&fixture(&format!("cases/{file}"))).expect("JSON");
    let mut positions = Vec::new();
    for case in cases.as_array().expect("a list") {
        let start = Position::from_fen_lenient(case["fen"].as_str().expect("fen")).expect("FEN");
        let moves: Vec<Move> = case["moves"]
            .as_array()
            .expect("moves")
            .iter()
            .map(|m| m.as_str().expect("move").parse().expect("ICCS"))
            .collect();
        positions.extend(both_sides(start, &moves));
    }
    positions
}

/// Searches every position with each of `checks` in turn, with a shared remembering budget and with a plain one,
/// for each node budget; returns how many mates were found.
fn agree(positions: &[Position], checks: &[u32], budgets: &[u32]) -> usize {
    let mut shared = Budget::new(0);
    let mut mates = 0;
    for &nodes in budgets {
        for pos in positions {
            for &checks in checks {
                let face_offs = xq_arbiter::threats::face_offs(pos);
                for avoid in [&face_offs[..], &[]] {
                    let plain = mate_by_checks_avoiding(
                        &mut pos.clone(),
                        checks,
                        avoid,
                        &mut Budget::forgetful(nodes),
                    );
                    shared.refill(nodes);
                    let remembered =
                        mate_by_checks_avoiding(&mut pos.clone(), checks, avoid, &mut shared);
                    assert_eq!(
                        plain,
                        remembered,
                        "{}: {checks} checks, {nodes} nodes, avoiding {avoid:?}",
                        pos.fen()
                    );
                    mates += usize::from(plain.is_some());
                }
            }
        }
    }
    mates
}

#[test]
fn remembering_changes_no_answer_of_the_dev_cases() {
    // Mates are found (there are lines to compare), and budgets run out.
    assert!(
        agree(
            &dev_cases("cxa2020-dev.json"),
            &[3, 1, 2],
            &[20_000, 300, 30]
        ) > 0
    );
}

#[test]
fn a_remembered_mate_needs_the_nodes_it_took() {
    let mating: Vec<Position> = dev_cases("cxa2020-dev.json")
        .into_iter()
        .filter(|pos| {
            mate_by_checks_avoiding(&mut pos.clone(), 3, &[], &mut Budget::new(20_000)).is_some()
        })
        .collect();
    assert!(!mating.is_empty());
    let budgets: Vec<u32> = (1..=120).rev().collect();
    for pos in &mating {
        // The same budget searches the position with ever fewer nodes: at some point the mate is
        // out of reach, remembered or not.
        agree(std::slice::from_ref(pos), &[3], &budgets);
    }
}

#[test]
fn remembering_changes_no_answer_where_checks_come_back_to_a_position() {
    // In the cases of perpetual check, series of checks repeat positions, which are not
    // followed: an answer found under one path may not hold under another.
    let mut positions = dev_cases("axf-dev.json");
    positions.extend(dev_cases("cxa2020-dev.json"));
    assert!(agree(&positions, &[7, 5, 3, 6, 4, 2], &[400_000]) > 0);
}

#[test]
fn trying_the_likeliest_escapes_first_changes_no_answer() {
    // The order in which the defender's answers are tried changes how soon an escape is found,
    // never whether there is one, nor the line (the longest defence, the first in the order of
    // the legal moves between equally long ones), as long as neither search runs out of nodes.
    let mut positions = dev_cases("axf-dev.json");
    positions.extend(dev_cases("cxa2020-dev.json"));
    let mut mates = 0;
    for pos in &positions {
        let face_offs = xq_arbiter::threats::face_offs(pos);
        for checks in 1..=7 {
            for avoid in [&face_offs[..], &[]] {
                let mut plain = Budget::in_order(4_000_000);
                let mut ordered = Budget::forgetful(4_000_000);
                let in_order = mate_by_checks_avoiding(&mut pos.clone(), checks, avoid, &mut plain);
                let found = mate_by_checks_avoiding(&mut pos.clone(), checks, avoid, &mut ordered);
                assert!(!plain.exhausted() && !ordered.exhausted(), "{}", pos.fen());
                assert_eq!(in_order, found, "{}: {checks} checks", pos.fen());
                mates += usize::from(found.is_some());
            }
        }
    }
    assert!(mates > 0);
}
