//! End-to-end tests of tournament procedure: the first-25-rounds rule, claim admissibility with
//! missing or unreadable moves, the 60-round audit (`xq limit`), and how a game ended on the
//! board, on the small records of fixtures/procedure.

#![allow(clippy::unwrap_used)] // tests: a panic is the failure report

mod support;

use serde_json::Value;
use support::xq;

fn json(args: &[&str]) -> Value {
    let run = xq(args);
    assert_eq!(run.code, 0, "{}", run.stderr);
    support::assert_unique_keys(&run.stdout);
    serde_json::from_str(&run.stdout).unwrap()
}

fn judge(file: &str, extra: &[&str]) -> Value {
    let mut args = vec!["judge", file, "--format", "json"];
    args.extend_from_slice(extra);
    json(&args)
}

#[test]
fn a_drawn_repetition_in_the_first_25_rounds_makes_red_change_after_three_cycles() {
    let j = judge("fixtures/procedure/opening-three-cycles.pgn", &[]);
    assert_eq!(
        (j["verdict"].as_str(), j["clause"].as_str()),
        (Some("red_must_change"), Some("opening-rounds"))
    );
    assert_eq!(j["opening"]["applies"], true);
    assert_eq!(
        (
            j["opening"]["cycles"].as_u64(),
            j["opening"]["round"].as_u64()
        ),
        (Some(3), Some(6))
    );
    // Both sides' moves are allowed: without the rule it is a draw.
    assert_eq!(j["sides"]["red"]["forbidden"], false);
    let off = judge(
        "fixtures/procedure/opening-three-cycles.pgn",
        &["--opening-rounds", "0"],
    );
    assert_eq!(
        (off["verdict"].as_str(), off["clause"].as_str()),
        (Some("draw"), Some("25.2"))
    );
    assert!(off.get("opening").is_none());
    // Events may set fewer rounds: the repetition ends in round 6.
    let five = judge(
        "fixtures/procedure/opening-three-cycles.pgn",
        &["--opening-rounds", "5"],
    );
    assert_eq!(five["verdict"], "draw");
    // Two cycles are not yet a pending position.
    let two = judge("fixtures/procedure/opening-two-cycles.pgn", &[]);
    assert_eq!(two["verdict"], "draw");
    assert_eq!(
        (
            two["opening"]["applies"].as_bool(),
            two["opening"]["cycles"].as_u64()
        ),
        (Some(false), Some(2))
    );
    // The Asian rules have no such rule.
    let axf = judge(
        "fixtures/procedure/opening-three-cycles.pgn",
        &["--rules", "axf"],
    );
    assert_eq!(axf["verdict"], "draw");
    insta::assert_snapshot!(
        "opening_rule_text_zh",
        xq(&["judge", "fixtures/procedure/opening-three-cycles.pgn"]).stdout
    );
}

#[test]
fn the_same_repetition_after_round_25_is_a_draw() {
    let tmp = tempfile::tempdir().unwrap();
    let shuffle = "马二进三 马８进７ 马三退二 马７退８ ".repeat(15);
    let path = tmp.path().join("late.txt");
    std::fs::write(&path, shuffle).unwrap();
    let j = judge(path.to_str().unwrap(), &[]);
    assert_eq!(j["verdict"], "draw");
    assert!(
        j.get("opening").is_none(),
        "round 30: the rule does not reach it"
    );
    // A position given without its history (move number 1, not the initial position) has no
    // known round either.
    let j = json(&[
        "judge",
        "--fen",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN1 w - - 0 1",
        "--moves",
        "h0g2 h9g7 g2h0 g7h9 h0g2 h9g7 g2h0 g7h9 h0g2 h9g7 g2h0 g7h9",
        "--format",
        "json",
    ]);
    assert_eq!(j["verdict"], "draw");
}

#[test]
fn a_record_whose_only_move_is_unreadable_is_judged_not_refused() {
    // Before, the line came out empty and the command said "no moves: give --moves".
    let j = judge("fixtures/procedure/only-unreadable.txt", &[]);
    let r = &j["record"];
    assert_eq!(r["missing_or_unreadable"].as_u64(), Some(1));
    assert_eq!(r["gaps"][0]["kind"], "unreadable");
    assert_eq!(r["gaps"][0]["text"], "a0a5");
    let run = xq(&["limit", "fixtures/procedure/only-unreadable.txt"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
}

#[test]
fn missing_and_unreadable_moves_decide_whether_a_claim_is_heard() {
    let j = judge("fixtures/procedure/missing-two.pgn", &[]);
    let r = &j["record"];
    assert_eq!(
        (
            r["missing_or_unreadable"].as_u64(),
            r["admissible"].as_bool()
        ),
        (Some(2), Some(true))
    );
    assert_eq!(r["gaps"][0]["kind"], "missing");
    assert_eq!(r["gaps"][0]["ply"], 5);
    assert_eq!(r["gaps"][0]["reconstructed"], "i0h0");
    assert_eq!(r["gaps"][1]["kind"], "unreadable");
    assert_eq!(r["gaps"][1]["text"], "卒7进X");
    assert_eq!(r["gaps"][1]["reconstructed"], "g6g5");
    // Reconstructed, the whole game replays: 18 plies.
    assert_eq!(j["limit"]["plies_without_capture"], 18);
    let j = judge("fixtures/procedure/missing-six.pgn", &[]);
    let r = &j["record"];
    assert_eq!(
        (
            r["missing_or_unreadable"].as_u64(),
            r["admissible"].as_bool()
        ),
        (Some(6), Some(false))
    );
    insta::assert_snapshot!(
        "missing_moves_text_en",
        xq(&[
            "judge",
            "fixtures/procedure/missing-six.pgn",
            "--lang",
            "en"
        ])
        .stdout
    );
}

#[test]
fn the_60_round_audit() {
    let file = "fixtures/procedure/checks.txt";
    let run = xq(&["limit", file, "--rounds", "12", "--lang", "en"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    insta::assert_snapshot!("limit_audit_text_en", run.stdout);
    let j = json(&["limit", file, "--rounds", "12", "--format", "json"]);
    let audits = j["audits"].as_array().unwrap();
    let (red, black) = (&audits[0], &audits[1]);
    assert_eq!(red["claimant"], "red");
    assert_eq!(
        (red["verdict"].as_str(), red["counted"].as_u64()),
        (Some("not_yet"), Some(23))
    );
    assert_eq!(
        (black["verdict"].as_str(), black["ply"].as_u64()),
        (Some("draw_from"), Some(25))
    );
    assert_eq!(red["last_capture_ply"], 1);
    let rows = red["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 26);
    assert_eq!(
        (rows[0]["capture"].as_bool(), rows[0]["counted"].as_bool()),
        (Some(true), Some(false))
    );
    assert_eq!(
        (
            rows[22]["check_number"].as_u64(),
            rows[22]["counted"].as_bool()
        ),
        (Some(11), Some(false))
    );
    assert_eq!(rows[22]["chinese"], "车九退一");
    // The cap on both sides, and a claimant chosen.
    let both = json(&[
        "limit",
        file,
        "--rounds",
        "12",
        "--cap-both",
        "--claimant",
        "black",
        "--format",
        "json",
    ]);
    assert_eq!(both["audits"].as_array().unwrap().len(), 1);
    assert_eq!(both["audits"][0]["verdict"], "not_yet");
    let csv = xq(&[
        "limit",
        file,
        "--rounds",
        "12",
        "--claimant",
        "red",
        "--format",
        "csv",
    ])
    .stdout;
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("claimant,ply,round,side,iccs,chinese,capture,check,check_number,counted,count")
    );
    assert_eq!(lines.count(), 26);
    // Mate on the last move stands whatever the count.
    let mate = json(&[
        "limit",
        "fixtures/procedure/mate.pgn",
        "--format",
        "json",
        "--claimant",
        "black",
    ]);
    assert_eq!(
        (
            mate["audits"][0]["verdict"].as_str(),
            mate["audits"][0]["winner"].as_str()
        ),
        (Some("ended_on_board"), Some("red"))
    );
}

#[test]
fn how_the_game_ended_and_whether_the_result_agrees() {
    let end = |file: &str| judge(file, &[])["end"].clone();
    let e = end("fixtures/procedure/mate.pgn");
    assert_eq!(
        (
            e["how"].as_str(),
            e["decision"].as_str(),
            e["result_tag"].as_str(),
            e["agrees"].as_bool()
        ),
        (Some("checkmate"), Some("1-0"), Some("0-1"), Some(false))
    );
    let e = end("fixtures/procedure/stalemate.pgn");
    assert_eq!(
        (
            e["how"].as_str(),
            e["decision"].as_str(),
            e["agrees"].as_bool()
        ),
        (Some("stalemate"), Some("1-0"), Some(true))
    );
    let e = end("fixtures/procedure/self-kill.pgn");
    assert_eq!(
        (
            e["how"].as_str(),
            e["decision"].as_str(),
            e["agrees"].as_bool()
        ),
        (Some("self_kill"), Some("0-1"), Some(true))
    );
    assert_eq!(
        (
            e["self_kill"]["ply"].as_u64(),
            e["self_kill"]["kings_facing"].as_bool()
        ),
        (Some(1), Some(true))
    );
    let e = end("fixtures/procedure/opening-three-cycles.pgn");
    assert_eq!(
        (e["how"].as_str(), e["decision"].as_str()),
        (Some("repetition"), None)
    );
    let e = end("fixtures/records/ours/variations.pgn");
    assert_eq!(
        (e["how"].as_str(), e["agrees"].as_bool()),
        (Some("unfinished"), None)
    );
    // A move of --moves that leaves the king in check ends the game too.
    let j = json(&[
        "judge",
        "--fen",
        "3k5/9/9/9/9/9/9/9/4A4/4K4 w",
        "--moves",
        "帅五平六",
        "--format",
        "json",
    ]);
    assert_eq!(j["end"]["how"], "self_kill");
    // The 60-round audit of a record that ends in a self-kill says where its line stops.
    let audit = json(&[
        "limit",
        "fixtures/procedure/self-kill.pgn",
        "--format",
        "json",
    ]);
    assert_eq!(audit["self_kill"]["ply"], 1);
    assert_eq!(audit["record"]["admissible"], true);
    let text = xq(&["limit", "fixtures/procedure/self-kill.pgn", "--lang", "en"]).stdout;
    assert!(
        text.contains("a self-kill (自杀): Red loses; the audit stops at ply 0"),
        "{text}"
    );
    insta::assert_snapshot!(
        "game_end_text_zh",
        xq(&["judge", "fixtures/procedure/stalemate.pgn"]).stdout
    );
}
