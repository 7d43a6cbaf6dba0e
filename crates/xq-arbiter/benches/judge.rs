//! Judging the CXA 2020 rulebook cases (fixtures/cases/cxa2020-dev.json) and the AXF cases
//! (fixtures/cases/axf-dev.json) under their profiles.
//!
//! `cargo bench -p xq-arbiter --bench judge`: each whole dev set, and the slowest CXA case.

use divan::{Bencher, counter::ItemsCount};
use xq_arbiter::{JudgeOptions, Profile, judge};
use xq_core::{Move, Position};

fn main() {
    divan::main();
}

fn cases() -> Vec<(String, Position, Vec<Move>, String)> {
    load("cxa2020-dev.json")
}

fn load(name: &str) -> Vec<(String, Position, Vec<Move>, String)> {
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

#[divan::bench(sample_count = 10)]
fn whole_dev_set(bencher: Bencher<'_, '_>) {
    let cases = cases();
    bencher.counter(ItemsCount::new(cases.len())).bench(|| {
        for (id, pos, moves, verdict) in &cases {
            let j = judge(pos, moves, JudgeOptions::default());
            assert_eq!(j.verdict.name(), verdict, "{id}");
        }
    });
}

/// The AXF cases under the AXF profile (two known misses are not checked).
#[divan::bench(sample_count = 10)]
fn whole_axf_set(bencher: Bencher<'_, '_>) {
    let cases = load("axf-dev.json");
    let options = JudgeOptions {
        profile: Profile::AXF,
        ..JudgeOptions::default()
    };
    bencher.counter(ItemsCount::new(cases.len())).bench(|| {
        cases
            .iter()
            .filter(|(_, pos, moves, verdict)| judge(pos, moves, options).verdict.name() == verdict)
            .count()
    });
}

#[divan::bench(sample_count = 20)]
fn slowest_case_figure_9(bencher: Bencher<'_, '_>) {
    let cases = cases();
    let (_, pos, moves, _) = cases.iter().find(|c| c.0 == "2020-图9").expect("图9");
    bencher.bench(|| judge(pos, moves, JudgeOptions::default()).verdict);
}
