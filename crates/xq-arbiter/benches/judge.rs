//! Judging the CXA 2020 rulebook cases (fixtures/cases/cxa2020-dev.json) and the AXF cases
//! (fixtures/cases/axf-dev.json) under their profiles.
//!
//! `cargo bench -p xq-arbiter --bench judge`: each whole dev set, and the slowest CXA case.

use divan::{Bencher, counter::ItemsCount};
use xq_arbiter::{JudgeOptions, Profile, judge};

mod support;

use support::{cases, load};

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
