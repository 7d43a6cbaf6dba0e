//! The CXA 2020 rulebook's illustrated cases (fixtures/cases/cxa2020-dev.json): every verdict
//! must be the book's, every move's nature must be in the book label's family (将/杀/捉/闲), and
//! at least 95% of the labels must be the book's exactly. The run prints every miss.

#![allow(clippy::unwrap_used, clippy::print_stdout)] // tests: a panic is the failure report

mod support;

use xq_arbiter::{JudgeOptions, Nature, Verdict, judge};

struct Outcome {
    verdicts_right: usize,
    verdicts: usize,
    exact: usize,
    family: usize,
    labels: usize,
    misses: Vec<String>,
    /// Same family (将/杀/捉/闲), another member of the 闲 family.
    inexact: Vec<String>,
}

fn run() -> Outcome {
    let mut o = Outcome {
        verdicts_right: 0,
        verdicts: 0,
        exact: 0,
        family: 0,
        labels: 0,
        misses: Vec::new(),
        inexact: Vec::new(),
    };
    for support::Case {
        id,
        start: pos,
        moves,
        verdict: want,
        raw: case,
    } in support::cases("cxa2020-dev.json")
    {
        let judgement = judge(&pos, &moves, JudgeOptions::default());
        o.verdicts += 1;
        if judgement.verdict.name() == want {
            o.verdicts_right += 1;
        } else {
            o.misses.push(format!(
                "{id}: verdict {} ({}), book {want}",
                judgement.verdict, judgement.clause
            ));
        }
        assert_ne!(
            judgement.verdict,
            Verdict::NoRepetition,
            "{id}: the case repeats"
        );
        // Labels: the book labels the listed moves in order; the judged moves are the cycle's.
        let classified = xq_arbiter::classify_line(
            &pos,
            &moves,
            xq_arbiter::Effort::default(),
            xq_arbiter::Profile::CXA2020,
        );
        for (i, label) in case["book_labels"].as_array().unwrap().iter().enumerate() {
            let book = Nature::from_chinese(label.as_str().unwrap()).unwrap();
            let ours = classified[i].nature;
            o.labels += 1;
            o.exact += usize::from(ours == book);
            if ours != book && ours.family() == book.family() {
                o.inexact.push(format!(
                    "{id}: ply {} {} is {ours}, book {book}",
                    i + 1,
                    moves[i]
                ));
            }
            if ours.family() == book.family() {
                o.family += 1;
            } else {
                o.misses.push(format!(
                    "{id}: ply {} {} is {ours}, book {book}",
                    i + 1,
                    moves[i]
                ));
            }
        }
    }
    o
}

#[test]
fn rulebook_cases() {
    let o = run();
    println!(
        "verdicts {}/{}; labels exact {}/{}, by family {}/{}",
        o.verdicts_right, o.verdicts, o.exact, o.labels, o.family, o.labels
    );
    for miss in &o.misses {
        println!("  {miss}");
    }
    println!("inexact within the 闲 family:");
    for miss in &o.inexact {
        println!("  {miss}");
    }
    assert_eq!(o.verdicts, 56);
    assert_eq!(
        o.verdicts_right, o.verdicts,
        "every verdict is the book's: {:#?}",
        o.misses
    );
    assert_eq!(
        o.family, o.labels,
        "every label in the book's family (将/杀/捉/闲): {:#?}",
        o.misses
    );
    assert!(
        o.exact * 100 >= o.labels * 95,
        "labels exact {}/{}",
        o.exact,
        o.labels
    );
}
