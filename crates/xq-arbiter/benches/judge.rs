//! Judging the CXA 2020 rulebook cases (fixtures/cases/cxa2020-dev.json) and the AXF cases
//! (fixtures/cases/axf-dev.json) under their profiles.
//!
//! `cargo bench -p xq-arbiter --bench judge`: each whole dev set, the slowest CXA case, and the
//! real games (CCPD) that take longest to judge, each repetition in it ruled as `xq judge --scan`
//! does.

use divan::{Bencher, counter::ItemsCount};
use xq_arbiter::{JudgeOptions, Profile, judge};

mod support;

use support::{cases, load, move_list};

fn main() {
    divan::main();
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

/// The CCPD dev games slowest to judge (`fixtures/judge/ccpd-*.txt`, CC BY 4.0): every
/// repetition in the main line ruled up to its last move, as `xq judge --scan` does.
#[divan::bench(
    args = ["ccpd-00000210", "ccpd-00009515", "ccpd-00002443", "ccpd-00000535"],
    sample_count = 20
)]
fn slowest_real_games(bencher: Bencher<'_, '_>, name: &str) {
    let (start, moves) = move_list(name);
    let positions = xq_arbiter::cycle::positions(&start, &moves);
    let repetitions = xq_arbiter::cycle::repetitions(&positions);
    assert!(!repetitions.is_empty(), "{name} repeats");
    bencher.bench(|| {
        repetitions
            .iter()
            .map(|r| judge(&start, &moves[..r.last_ply], JudgeOptions::default()).verdict)
            .collect::<Vec<_>>()
    });
}
