//! The Asian-rules cases (fixtures/cases/axf-dev.json): Fairy-Stockfish's AXF tests and the
//! WXF/AXF rulebook diagrams, judged with the AXF profile. At least 117 of the 119 verdicts must
//! be right; the run prints every miss with what each side's moves were found to be.

#![allow(clippy::unwrap_used, clippy::print_stdout)] // tests: a panic is the failure report

mod support;

use xq_arbiter::{JudgeOptions, Profile, Verdict, judge};

#[test]
fn axf_cases() {
    let cases = support::cases("axf-dev.json");
    let mut right = 0;
    let mut misses = Vec::new();
    for support::Case {
        id,
        start: pos,
        moves,
        verdict: want,
        raw: case,
    } in &cases
    {
        let options = JudgeOptions {
            profile: Profile::AXF,
            ..JudgeOptions::default()
        };
        let j = judge(pos, moves, options);
        assert_ne!(j.verdict, Verdict::NoRepetition, "{id}: the case repeats");
        if j.verdict.name() == want {
            right += 1;
        } else {
            let sides = j.sides.as_ref().unwrap();
            let kinds: Vec<String> = j
                .moves
                .iter()
                .map(|m| format!("{}{}", m.classified.m, m.classified.nature))
                .collect();
            misses.push(format!(
                "{id}: {} ({}), want {want}; red {} black {}; {} — {}",
                j.verdict,
                j.clause,
                sides.red.name,
                sides.black.name,
                kinds.join(" "),
                case["note"].as_str().unwrap_or("")
            ));
        }
    }
    println!("AXF verdicts {right}/{}", cases.len());
    for miss in &misses {
        println!("  {miss}");
    }
    assert_eq!(cases.len(), 119);
    assert!(
        right >= 117,
        "{right}/119 right; misses:\n{}",
        misses.join("\n")
    );
}
