//! End-to-end tests of `xq judge`: the JSON contract, the text report, errors.

#![allow(clippy::unwrap_used)] // tests: a panic is the failure report

mod support;

fn xq(args: &[&str]) -> (String, String, i32) {
    support::xq(args).parts()
}

#[test]
fn json_contract() {
    let (stdout, stderr, code) = xq(&[
        "judge",
        "fixtures/judge/cxa2020-figure-2.txt",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["verdict"], "red_must_change");
    assert_eq!(v["rules"], "cxa2020");
    assert_eq!(v["clause"], "25.3");
    assert_eq!(v["cycle"]["start_ply"], 1);
    assert_eq!(v["cycle"]["plies"], 4);
    assert_eq!(v["cycle"]["occurrences"], 2);
    assert_eq!(v["sides"]["red"]["pattern"], "长捉");
    assert_eq!(v["sides"]["red"]["forbidden"], true);
    assert_eq!(v["sides"]["black"]["forbidden"], false);
    assert!(v["limit"].is_object());
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 4);
    let kinds: Vec<&str> = moves.iter().map(|m| m["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["捉", "兑", "捉", "捉"]);
    for (i, m) in moves.iter().enumerate() {
        assert_eq!(m["ply"], i + 1);
        assert!(m["iccs"].as_str().unwrap().len() == 4);
        assert!(!m["chinese"].as_str().unwrap().is_empty());
        assert!(m["reason"].is_object());
        assert!(!m["explanation"].as_str().unwrap().is_empty());
    }
    assert_eq!(moves[0]["side"], "red");
    assert_eq!(moves[0]["iccs"], "h6i4");
    assert_eq!(moves[0]["chinese"], "马二退一");
    insta::assert_json_snapshot!(v);
}

#[test]
fn text_report_in_chinese_and_english() {
    let (zh, _, code) = xq(&["judge", "fixtures/judge/cxa2020-figure-2.txt"]);
    assert_eq!(code, 0);
    insta::assert_snapshot!("judge_text_zh", zh);
    let (en, _, _) = xq(&[
        "judge",
        "fixtures/judge/cxa2020-figure-6.txt",
        "--lang",
        "en",
    ]);
    insta::assert_snapshot!("judge_text_en", en);
}

#[test]
fn fen_and_moves_in_mixed_notations() {
    let fen = "2b6/4k4/9/9/9/9/9/9/2p6/3K1RBc1 w";
    let (stdout, _, code) = xq(&[
        "judge",
        "--fen",
        fen,
        "--moves",
        "车四平五 e8f8 R5.4 将6平5",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["verdict"], "red_must_change");
    assert_eq!(v["clause"], "25.1");
    assert_eq!(v["sides"]["red"]["pattern"], "长将");
}

#[test]
fn no_repetition() {
    let (stdout, _, code) = xq(&["judge", "--moves", "炮二平五 马8进7", "--format", "json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["verdict"], "no_repetition");
    assert!(v["cycle"].is_null());
    assert_eq!(v["moves"].as_array().unwrap().len(), 2);
}

#[test]
fn a_bad_move_is_an_error_with_its_ply() {
    let (stdout, stderr, code) = xq(&["judge", "--moves", "炮二平五 马8进7 车一进五"]);
    assert_eq!(code, 1);
    assert_eq!(stdout, "");
    insta::assert_snapshot!(stderr);
    let (_, stderr, code) = xq(&["judge"]);
    assert_eq!(code, 2, "{stderr}");
    // --ply 0 is a record's start position: nothing to judge, said as a ruling.
    let record = "fixtures/records/ours/variations.pgn";
    let (stdout, stderr, code) = xq(&["judge", record, "--ply", "0", "--format", "json"]);
    assert_eq!(code, 0, "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["moves"].as_array().unwrap().len(), 0);
    let (svg, stderr, code) = xq(&["render", record, "--ply", "0"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(svg.starts_with("<svg") || svg.contains("<svg"), "{svg}");
    let (_, stderr, code) = xq(&["judge", "no/such/file.txt"]);
    assert_eq!(code, 3);
    assert!(stderr.contains("no/such/file.txt"), "{stderr}");
}

#[test]
fn the_asian_rules_profile() {
    let file = "fixtures/judge/wxf-alternate-check-and-chase.txt";
    let (stdout, stderr, code) = xq(&["judge", file, "--rules", "axf", "--format", "json"]);
    assert_eq!(code, 0, "{stderr}");
    let axf: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(axf["rules"], "axf");
    assert_eq!(axf["verdict"], "draw");
    assert_eq!(axf["clause"], "axf.allowed");
    assert_eq!(axf["sides"]["red"]["forbidden"], false);
    let (stdout, _, _) = xq(&["judge", file, "--format", "json"]);
    let cxa: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(
        (cxa["rules"].as_str(), cxa["verdict"].as_str()),
        (Some("cxa2020"), Some("red_must_change"))
    );
    let (text, _, _) = xq(&["judge", file, "--rules", "axf", "--lang", "en"]);
    insta::assert_snapshot!("judge_axf_text_en", text);
}

/// `xq judge` prints exactly what the report library renders (the Python package renders the
/// same), in every format.
#[test]
fn the_cli_prints_the_library_report() {
    use xq_arbiter::{JudgeOptions, Lang};
    use xq_notation::{Mode, Reader};
    use xq_report::{Line, Report};

    let fen = "1r2kab1r/2c1a4/n1c1b1n2/4p2N1/p1p6/1C4P2/P1P1P4/2N1B3C/4A4/1RBAK2R1 w - - 0 1";
    let moves = "马二退一 车9平8 马一进二 车8平9";
    let start = xq_core::Position::from_fen(fen).unwrap();
    let mut pos = start.clone();
    let mut reader = Reader::new(Mode::Lenient);
    let line: Vec<_> = moves
        .split(' ')
        .map(|t| {
            let m = reader.read(t, &pos).unwrap();
            pos.play_unchecked(m);
            m
        })
        .collect();
    // The CLI stamps the time it made the report; the test harness fixes it (SOURCE_DATE_EPOCH).
    let report =
        Report::judge(&Line::new(start, line), JudgeOptions::default()).stamped(1_700_000_000);
    for (format, lang, expected) in [
        ("json", "en", report.to_json(Lang::English).unwrap() + "\n"),
        ("text", "zh", report.to_text(Lang::Chinese)),
        ("html", "en", report.to_html(Lang::English)),
    ] {
        let (stdout, stderr, code) = xq(&[
            "judge", "--fen", fen, "--moves", moves, "--format", format, "--lang", lang,
        ]);
        assert_eq!(code, 0, "{stderr}");
        assert_eq!(stdout, expected, "{format}");
    }
}

/// A record piped in without `-` is not read: the error says how to ask for it.
#[test]
fn without_moves_the_error_says_how_to_read_standard_input() {
    let record = std::fs::read("fixtures/judge/cxa2020-figure-2.txt").unwrap();
    let run = support::xq_with_input(&["judge"], Some(&record));
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("- to read a record from standard input"),
        "{}",
        run.stderr
    );
    let run = support::xq_with_input(&["judge", "-", "--format", "json"], Some(&record));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("\"verdict\""), "{}", run.stdout);
}
