//! Claims in the middle of a game: `--ply N` (judge, limit, banned) stops the line where the
//! claim is made; `xq judge --scan` rules every repetition of a game where it ends.

#![allow(clippy::unwrap_used)] // tests: a panic is the failure report

mod support;

fn xq(args: &[&str]) -> (String, String, i32) {
    support::xq(args).parts()
}

/// Horses out and back twice (plies 4–8 bring positions back), then a cannon and a horse go back
/// and forth (plies 12–13), then a new move (14).
const GAME: &str = "fixtures/judge/two-repetitions.pgn";

#[test]
fn scan_rules_each_repetition_where_it_ends() {
    let (stdout, stderr, code) = xq(&["judge", GAME, "--scan", "--format", "json"]);
    assert_eq!(code, 0, "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let entries = v.as_array().unwrap();
    let spans: Vec<(u64, u64)> = entries
        .iter()
        .map(|e| {
            (
                e["first_ply"].as_u64().unwrap(),
                e["last_ply"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(spans, [(4, 8), (12, 13)]);
    // Each report is the judge contract for the line up to the stretch's end.
    assert_eq!(entries[0]["report"]["verdict"], "draw");
    assert_eq!(entries[0]["report"]["cycle"]["start_ply"], 5);
    assert_eq!(entries[0]["report"]["cycle"]["occurrences"], 3);
    assert_eq!(entries[1]["report"]["cycle"]["start_ply"], 10);
    let (text, _, _) = xq(&["judge", GAME, "--scan", "--lang", "en"]);
    insta::assert_snapshot!("scan_text_en", text);
    let (html, _, _) = xq(&["judge", GAME, "--scan", "--format", "html"]);
    assert!(html.starts_with("<!DOCTYPE html>") && html.ends_with("</html>\n"));
    assert_eq!(html.matches("<section class=\"repetition\">").count(), 2);
    assert_eq!(html.matches("<!DOCTYPE").count(), 1);
}

#[test]
fn scan_of_a_line_without_repetition_says_so() {
    let (text, _, code) = xq(&["judge", "--moves", "h2e2 h9g7", "--scan", "--lang", "en"]);
    assert_eq!(
        (text.as_str(), code),
        ("no move of the line repeats a position\n", 0)
    );
    let (json, _, _) = xq(&[
        "judge",
        "--moves",
        "h2e2 h9g7",
        "--scan",
        "--format",
        "json",
    ]);
    assert_eq!(json, "[]\n");
}

#[test]
fn ply_stops_the_line_where_the_claim_is_made() {
    let at = |ply: &str| {
        let (stdout, stderr, code) = xq(&["judge", GAME, "--ply", ply, "--format", "json"]);
        assert_eq!(code, 0, "{stderr}");
        serde_json::from_str::<serde_json::Value>(&stdout).unwrap()
    };
    assert_eq!(at("8")["cycle"]["start_ply"], 5);
    assert_eq!(at("8")["verdict"], "draw");
    assert_eq!(at("9")["verdict"], "no_repetition");
    // The whole game: the last move is new, nothing repeats at the end.
    assert_eq!(at("14")["verdict"], "no_repetition");
    let (stdout, _, code) = xq(&["limit", GAME, "--ply", "5", "--format", "json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["audits"][0]["rows"].as_array().unwrap().len(), 5);
    // What was banned at ply 7: Red's horse may come out again (both sides idle: a draw).
    let (stdout, _, _) = xq(&["banned", GAME, "--ply", "7", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["side"], "black");
    assert_eq!(v["draws"][0]["move"], "g7h9");
}

#[test]
fn ply_errors() {
    let (_, stderr, code) = xq(&["judge", GAME, "--ply", "30"]);
    assert_eq!(code, 2, "{stderr}");
    insta::assert_snapshot!("ply_beyond_the_line", stderr);
    let (_, stderr, code) = xq(&["judge", GAME, "--ply", "3", "--scan"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("cannot be used with"), "{stderr}");
}
