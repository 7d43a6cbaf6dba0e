//! End-to-end tests of `xq banned`: the three formats and the errors.

#![allow(clippy::unwrap_used)] // tests: a panic is the failure report

mod support;

fn xq(args: &[&str]) -> (String, String, i32) {
    support::xq(args).parts()
}

/// The rulebook's figure 2: Red's horse chases the rook on every move (长捉), Black answers
/// with an exchange offer and a chase; Red must change.
const FIGURE_2: &str = "fixtures/judge/cxa2020-figure-2.txt";

/// Red's rook checks from a9 and a8 in turn; the black king steps between e8 and e9.
const CHECKS: &str = "R8/4k4/9/9/9/9/9/9/9/3K5 w";

#[test]
fn text_lists_the_banned_move_with_the_ruling() {
    let (zh, stderr, code) = xq(&["banned", FIGURE_2]);
    assert_eq!(code, 0, "{stderr}");
    insta::assert_snapshot!("banned_text_zh", zh);
    let (en, _, _) = xq(&[
        "banned",
        "--fen",
        CHECKS,
        "--moves",
        "a9a8 e8e9 a8a9",
        "--lang",
        "en",
    ]);
    insta::assert_snapshot!("banned_text_en_opponent", en);
}

#[test]
fn json_contract() {
    let (stdout, stderr, code) = xq(&["banned", FIGURE_2, "--format", "json", "--lang", "en"]);
    assert_eq!(code, 0, "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["side"], "red");
    assert_eq!(v["rules"], "cxa2020");
    let banned = v["banned"].as_array().unwrap();
    assert_eq!(banned.len(), 1);
    assert_eq!(banned[0]["move"], "h6i4");
    assert_eq!(banned[0]["chinese"], "马二退一");
    assert_eq!(banned[0]["verdict"], "red_must_change");
    assert_eq!(banned[0]["sides"]["red"]["name"], "长捉");
    assert!(v["draws"].as_array().unwrap().is_empty());
    insta::assert_json_snapshot!(v);
}

#[test]
fn ucci_is_one_banmoves_line() {
    let (stdout, _, code) = xq(&["banned", FIGURE_2, "--format", "ucci"]);
    assert_eq!((stdout.as_str(), code), ("banmoves h6i4\n", 0));
    // Nothing banned: the bare command, which clears an engine's earlier list.
    let (stdout, _, _) = xq(&["banned", "--moves", "h2e2", "--format", "ucci"]);
    assert_eq!(stdout, "banmoves\n");
    // A position with no moves before it (the start, or a FEN) repeats nothing.
    let (stdout, stderr, code) = xq(&["banned", "--format", "ucci"]);
    assert_eq!((stdout.as_str(), code), ("banmoves\n", 0), "{stderr}");
    let (stdout, stderr, code) = xq(&["banned", "--fen", CHECKS, "--format", "ucci"]);
    assert_eq!((stdout.as_str(), code), ("banmoves\n", 0), "{stderr}");
    // As a wrapper passes the moves so far: none yet.
    let (stdout, stderr, code) = xq(&["banned", "--moves", "", "--format", "ucci"]);
    assert_eq!((stdout.as_str(), code), ("banmoves\n", 0), "{stderr}");
    // --ply 0 is the start position, a ply of a line that has none a mistake.
    let (stdout, stderr, code) = xq(&["banned", "--ply", "0", "--format", "ucci"]);
    assert_eq!((stdout.as_str(), code), ("banmoves\n", 0), "{stderr}");
    let (_, _, code) = xq(&["banned", "--ply", "3", "--format", "ucci"]);
    assert_eq!(code, 2);
    // Under AXF as well; the rules are named by the flag.
    let (stdout, _, _) = xq(&[
        "banned",
        "--rules",
        "axf",
        "--fen",
        CHECKS,
        "--moves",
        "a9a8 e8e9 a8a9 e9e8",
        "--format",
        "ucci",
    ]);
    assert_eq!(stdout, "banmoves a9a8\n");
}

#[test]
fn a_draw_is_listed_apart_and_later_occurrences_wait() {
    let args = [
        "banned",
        "--fen",
        CHECKS,
        "--moves",
        "d0d1 e8e7 d1d0",
        "--format",
        "json",
    ];
    let (stdout, _, _) = xq(&args);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert!(v["banned"].as_array().unwrap().is_empty());
    assert_eq!(v["draws"][0]["move"], "e7e8");
    let (stdout, _, _) = xq(&[&args[..], &["--occurrences", "3"]].concat());
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert!(v["draws"].as_array().unwrap().is_empty());
}

#[test]
fn errors() {
    let (_, stderr, code) = xq(&["banned", "--fen", CHECKS, "--moves", "a9a8 e8d8"]);
    assert_ne!(code, 0);
    insta::assert_snapshot!("banned_error_illegal", stderr);
}
