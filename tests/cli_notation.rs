//! End-to-end tests of `xq move` and `xq notation`.

#![allow(clippy::unwrap_used)] // tests: a panic is the failure report

mod support;

fn xq(args: &[&str], stdin: Option<&str>) -> (String, String, i32) {
    support::xq_with_input(args, stdin.map(str::as_bytes)).parts()
}

#[test]
fn move_json_contract() {
    let (stdout, _, code) = xq(
        &[
            "move",
            "--format",
            "json",
            "炮二平五",
            "C2=5",
            "H2-E2",
            "炮二平十",
            "车二进一",
            "车一进五",
        ],
        None,
    );
    assert_eq!(code, 1, "a token failed");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let list = v.as_array().unwrap();
    assert_eq!(list.len(), 6);
    for ok in &list[..3] {
        assert_eq!(ok["iccs"], "h2e2");
        assert_eq!(ok["chinese"], "炮二平五");
        assert_eq!(ok["wxf"], "C2.5");
    }
    assert_eq!(list[3]["error"]["kind"], "syntax");
    assert_eq!(list[4]["error"]["kind"], "no_piece");
    assert_eq!(list[5]["error"]["kind"], "cannot_reach");
    insta::assert_snapshot!(stdout);
}

#[test]
fn move_ambiguous_and_illegal() {
    let fen = "3k5/9/9/2P3P2/2P3P2/9/9/9/9/4K4 w";
    let (stdout, _, code) = xq(
        &["move", "--fen", fen, "--format", "json", "前兵进一"],
        None,
    );
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v[0]["error"]["kind"], "ambiguous");
    assert_eq!(
        v[0]["error"]["candidates"],
        serde_json::json!(["g6g7", "c6c7"])
    );
    let facing = "4k4/9/9/9/4C4/9/9/9/9/4K4 w";
    let (stdout, _, _) = xq(
        &["move", "--fen", facing, "--format", "json", "炮五平四"],
        None,
    );
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v[0]["error"]["kind"], "illegal");
}

#[test]
fn move_text_shows_every_notation_and_aligned_carets() {
    let (stdout, _, code) = xq(&["move", "马８进７", "炮二平十", "前兵进一"], None);
    assert_eq!(code, 1);
    insta::assert_snapshot!(stdout);
}

/// UCI moves that name no rank 10 read as ICCS moves too: `--coordinates uci` reads back what
/// `--to uci` wrote, `--coordinates iccs` reads them as ICCS's, and the list alone as ICCS's
/// (which replay: another game).
#[test]
fn coordinates_tells_a_lists_ranks() {
    let fen = "4k2r1/7r1/9/9/9/9/R8/R8/9/3K5 w - - 0 1";
    let (uci, _, code) = xq(
        &["notation", "--fen", fen, "--to", "uci", "a2b2 h8g8 b2c2"],
        None,
    );
    assert_eq!((uci.trim(), code), ("a3b3 h9g9 b3c3", 0));
    let back = |coordinates: &str| {
        let args = [
            "notation",
            "--fen",
            fen,
            "--to",
            "ucci",
            "--coordinates",
            coordinates,
            uci.trim(),
        ];
        xq(&args, None).0.trim().to_owned()
    };
    assert_eq!(back("uci"), "a2b2 h8g8 b2c2");
    assert_eq!(back("iccs"), "a3b3 h9g9 b3c3");
    assert_eq!(back("auto"), "a3b3 h9g9 b3c3");
    // A rank 10 tells UCI whatever `auto` finds; told ICCS, it is a syntax error.
    let args = [
        "notation",
        "--to",
        "ucci",
        "--coordinates",
        "iccs",
        "h3e3 h10g8",
    ];
    assert_eq!(xq(&args, None).2, 1);
}

#[test]
fn notation_converts_in_every_direction() {
    let iccs = "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7";
    let (chinese, _, code) = xq(&["notation", "--to", "chinese", iccs], None);
    assert_eq!(code, 0);
    assert_eq!(
        chinese.trim(),
        "炮二平五 马８进７ 马二进三 车９平８ 车一平二 马２进３"
    );
    let (wxf, _, _) = xq(&["notation", "--to", "wxf", chinese.trim()], None);
    assert_eq!(wxf.trim(), "C2.5 H8+7 H2+3 R9.8 R1.2 H2+3");
    let (back, _, _) = xq(
        &["notation", "--to", "ucci"],
        Some(&format!("1. {} 1-0\n", wxf.trim())),
    );
    assert_eq!(back.trim(), iccs);
    let (trad, _, _) = xq(
        &["notation", "--to", "traditional", "--ascii-digits", iccs],
        None,
    );
    assert_eq!(
        trad.trim(),
        "炮二平五 馬8進7 馬二進三 車9平8 車一平二 馬2進3"
    );
}

#[test]
fn notation_stops_at_a_bad_move_with_its_ply() {
    let (stdout, stderr, code) = xq(
        &["notation", "--to", "wxf", "炮二平五 马８进７ 车二进一"],
        None,
    );
    assert_eq!(code, 1);
    assert_eq!(stdout, "");
    insta::assert_snapshot!(stderr);
}
