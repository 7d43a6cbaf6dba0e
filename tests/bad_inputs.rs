//! The catalogue of bad inputs (fixtures/bad): each gives a typed error whose message says what
//! to do (snapshot-tested), nothing panics or hangs, a directory mixing good and bad files is
//! checked whole (an interrupted conversion: tests/safety.rs). Also the inputs the fuzzers
//! found (fixtures/bad/fuzz), as regression tests.

#![allow(clippy::unwrap_used)] // tests: a panic is the failure report

mod support;

use serde_json::Value;
use support::{jsonl, xq};

/// `file: kind (ply, line, offset): message` for every failure.
fn failures(rows: &[Value]) -> String {
    let mut out = String::new();
    for r in rows.iter().filter(|r| r["ok"] == false) {
        let e = &r["error"];
        out.push_str(&format!(
            "{} game {}: {} (ply {}, line {}, offset {}): {}\n",
            r["file"]
                .as_str()
                .unwrap()
                .trim_start_matches("fixtures/bad/"),
            r["game"],
            e["kind"].as_str().unwrap(),
            e["ply"],
            e["line"],
            e["offset"],
            e["message"].as_str().unwrap()
        ));
    }
    out
}

#[test]
fn every_bad_record_gives_a_typed_error() {
    let run = xq(&["validate", "fixtures/bad", "-q", "--report", "jsonl"]);
    assert_eq!(run.code, 1);
    let rows = jsonl(&run);
    let kind = |name: &str| {
        rows.iter()
            .find(|r| r["file"].as_str().unwrap().ends_with(name))
            .map(|r| r["error"]["kind"].as_str().unwrap_or("").to_owned())
            .unwrap_or_else(|| panic!("{name} not reported"))
    };
    assert_eq!(kind("xqf-truncated.xqf"), "truncated");
    assert_eq!(kind("xqf-unknown-version.xqf"), "unsupported");
    assert_eq!(kind("xqf-wrong-keys.xqf"), "bad_keys");
    assert_eq!(kind("xqf-offset-outside.xqf"), "bad_offset");
    assert_eq!(kind("pgn-unclosed-comment.pgn"), "syntax");
    assert_eq!(kind("pgn-unclosed-variation.pgn"), "syntax");
    assert_eq!(kind("pgn-stray-parenthesis.pgn"), "syntax");
    assert_eq!(kind("pgn-illegal-move.pgn"), "illegal");
    assert_eq!(kind("pgn-ambiguous-move.pgn"), "ambiguous");
    assert_eq!(kind("pgn-unknown-encoding.pgn"), "unreadable");
    insta::assert_snapshot!("bad_records", failures(&rows));
}

#[test]
fn bad_fens_say_what_is_wrong() {
    let fens = std::fs::read_to_string("fixtures/bad/fens.fen").unwrap();
    let mut said = String::new();
    for fen in fens
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let run = xq(&["fen", fen]);
        assert_eq!(run.code, 1, "{fen}");
        said.push_str(&run.stderr);
        said.push('\n');
    }
    insta::assert_snapshot!("bad_fens", said);
}

#[test]
fn an_unknown_encoding_name_is_a_usage_error() {
    let run = xq(&[
        "validate",
        "fixtures/bad/pgn-unknown-encoding.pgn",
        "--encoding",
        "koi8-r",
    ]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("possible values: utf-8, utf-16le, utf-16be, gbk, big5"),
        "{}",
        run.stderr
    );
}

#[test]
fn garbage_and_deep_nesting_fail_fast_and_typed() {
    let tmp = tempfile::tempdir().unwrap();
    // 100 MB of pseudo-random bytes (no line breaks: one long line of nonsense).
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let garbage: Vec<u8> = (0..100 << 20)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            match (state >> 24) as u8 {
                b'\n' | b'\r' => b' ',
                b => b,
            }
        })
        .collect();
    let path = tmp.path().join("garbage.pgn");
    std::fs::write(&path, &garbage).unwrap();
    // (Its speed is measured by `cargo bench -p xq-record --bench cutter`, not timed here.)
    let run = xq(&[
        "validate",
        path.to_str().unwrap(),
        "-q",
        "--report",
        "jsonl",
    ]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let rows = jsonl(&run);
    assert!(!rows.is_empty() && rows.iter().all(|r| r["ok"] == false));
    // 100,000 nested variations.
    let deep = format!(
        "1. 炮二平五 {}{} *\n",
        "( 1. 炮二平六 ".repeat(100_000),
        ") ".repeat(100_000)
    );
    let path = tmp.path().join("deep.pgn");
    std::fs::write(&path, deep).unwrap();
    let rows = jsonl(&xq(&[
        "validate",
        path.to_str().unwrap(),
        "-q",
        "--report",
        "jsonl",
    ]));
    assert_eq!(rows[0]["error"]["kind"], "too_deep");
    insta::assert_snapshot!("too_deep", rows[0]["error"]["message"].as_str().unwrap());
}

#[test]
fn a_directory_of_good_and_bad_files_is_checked_whole() {
    let tmp = tempfile::tempdir().unwrap();
    for f in [
        "bad/xqf-truncated.xqf",
        "bad/pgn-unclosed-comment.pgn",
        "records/ours/variations.pgn",
        "records/ours/variations-v18.xqf",
        "records/wukong/hu-ronghua-uci-5.pgn",
    ] {
        let from = std::path::Path::new("fixtures").join(f);
        std::fs::copy(&from, tmp.path().join(from.file_name().unwrap())).unwrap();
    }
    let rows = jsonl(&xq(&[
        "validate",
        tmp.path().to_str().unwrap(),
        "-q",
        "--report",
        "jsonl",
    ]));
    let ok = rows.iter().filter(|r| r["ok"] == true).count();
    let bad = rows.iter().filter(|r| r["ok"] == false).count();
    assert_eq!((ok, bad), (1 + 1 + 5, 2));
}

#[test]
fn what_the_fuzzers_found_stays_fixed() {
    // A DhtmlXQ field holding line breaks became a PGN tag spanning lines: now written on one.
    // (Found in a record cut short by the next one's opening, which now ends it: the fixture
    // reads as two records; the field with a line break is written here.)
    let tmp = tempfile::tempdir().unwrap();
    let ubb = tmp.path().join("newline.ubb");
    std::fs::write(
        &ubb,
        "[DhtmlXQ]\n[DhtmlXQ_place]written for\nthe xq test suite[/DhtmlXQ_place]\n\
         [DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]\n[/DhtmlXQ]\n",
    )
    .unwrap();
    for (input, games) in [
        (ubb.to_str().unwrap(), 1),
        ("fixtures/bad/fuzz/dhtmlxq-newline-in-field.ubb", 2),
    ] {
        let pgn = tmp.path().join("newline.pgn");
        let run = xq(&[
            "convert",
            input,
            "--to",
            "pgn",
            "--force",
            "--out",
            pgn.to_str().unwrap(),
        ]);
        assert_eq!(run.code, 0, "{}", run.stdout);
        if games == 1 {
            assert!(
                run.stdout.contains("line breaks in tag values"),
                "{}",
                run.stdout
            );
        }
        let back = jsonl(&xq(&[
            "validate",
            pgn.to_str().unwrap(),
            "-q",
            "--report",
            "jsonl",
        ]));
        assert_eq!(back.len(), games);
        assert!(back.iter().all(|row| row["ok"] == true), "{back:?}");
    }
    // A CBF <Move> whose tag never closes: a typed error, not a slice out of bounds.
    let run = xq(&[
        "validate",
        "fixtures/bad/fuzz/cbf-move-without-close.json",
        "-q",
        "--report",
        "jsonl",
        "--from",
        "cbf",
    ]);
    assert_ne!(run.code, 101, "no panic: {}", run.stderr);
    assert!(run.stderr.is_empty(), "{}", run.stderr);
}

/// The fuzzers' round-trip findings: every game of these files that replays still replays after
/// being written as PGN and read back (a Result tag that is no result, NUL padding in strings).
#[test]
fn games_that_replay_still_replay_after_a_pgn_round_trip() {
    let tmp = tempfile::tempdir().unwrap();
    for name in [
        "pgn-result-tag-not-a-result.pgn",
        "pgn-nul-in-tag-name.pgn",
        "pgn-quote-in-tag-name.pgn",
        "xqf-nul-in-strings.xqf",
        // (dhtmlxq-nul-in-fields.ubb's one game no longer reads: its move list is never
        // closed, and read to the next field it holds the page's junk.)
        "dhtmlxq-newline-in-field.ubb",
    ] {
        let input = format!("fixtures/bad/fuzz/{name}");
        let ok = |path: &str| {
            jsonl(&xq(&["validate", path, "-q", "--report", "jsonl"]))
                .iter()
                .filter(|r| r["ok"] == true)
                .count()
        };
        let out = tmp.path().join(format!("{name}.pgn"));
        let run = xq(&[
            "convert",
            &input,
            "--to",
            "pgn",
            "--out",
            out.to_str().unwrap(),
        ]);
        // 1 when some game of the file cannot be read at all (it is said, and not written).
        assert!(matches!(run.code, 0 | 1), "{name}: {}", run.stdout);
        let before = ok(&input);
        assert!(before > 0, "{name}");
        assert_eq!(ok(out.to_str().unwrap()), before, "{name}");
    }
}
