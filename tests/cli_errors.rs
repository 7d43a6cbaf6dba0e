//! Every error with a place in a text shows it: the line, and a caret under the place (in
//! terminal cells, so under Chinese characters too).

#![allow(clippy::unwrap_used)] // tests: a panic is the failure report

mod support;

use support::xq;

/// stderr of a failing run.
fn error(args: &[&str]) -> String {
    let run = xq(args);
    assert_eq!(run.code, 1, "{}", run.stderr);
    run.stderr
}

#[test]
fn record_syntax_errors_show_the_line_with_a_caret() {
    let out: String = [
        "pgn-stray-parenthesis.pgn",
        "pgn-unclosed-comment.pgn",
        "pgn-unclosed-variation.pgn",
    ]
    .iter()
    .map(|f| error(&["show", &format!("fixtures/bad/{f}")]))
    .collect();
    insta::assert_snapshot!(out);
}

#[test]
fn the_caret_finds_its_place_in_a_gbk_file() {
    // The error's byte offset is in the file's own encoding; the line is shown decoded.
    let text = std::fs::read_to_string("fixtures/bad/pgn-stray-parenthesis.pgn").unwrap();
    let utf8 = error(&["show", "fixtures/bad/pgn-stray-parenthesis.pgn"]);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("gbk.pgn");
    std::fs::write(&path, encoding_rs::GBK.encode(&text).0).unwrap();
    let gbk = error(&["show", path.to_str().unwrap()]);
    let shown = |s: &str| s.lines().skip(1).collect::<Vec<_>>().join("\n");
    assert!(gbk.contains("byte 56"), "{gbk}");
    assert!(utf8.contains("byte 64"), "{utf8}");
    assert_eq!(shown(&gbk), shown(&utf8));
    assert!(shown(&gbk).contains("^ here"), "{gbk}");
}

#[test]
fn validate_places_bad_moves_in_the_files_own_bytes() {
    // A bad move of the main line and one of a variation, in text that validate reads without
    // placing its moves (GBK, Big5, UTF-16) and reads again to place them when one is bad: each
    // failure says the byte of its move in the file as stored, as for UTF-8.
    let text = "[Event \"x\"]\n\n1. 炮二平五 (1. 兵七進一 卒３進１ 2. 車九進九) 馬８進７\n2. 馬二進三 馬２進３ 3. 帥五進五 *\n";
    let dir = tempfile::tempdir().unwrap();
    let encodings = [
        encoding_rs::UTF_8,
        encoding_rs::GBK,
        encoding_rs::BIG5,
        encoding_rs::UTF_16LE,
    ];
    for encoding in encodings {
        let encode = |s: &str| -> Vec<u8> {
            if encoding == encoding_rs::UTF_16LE {
                let mut bytes = vec![0xFF, 0xFE];
                bytes.extend(s.encode_utf16().flat_map(u16::to_le_bytes));
                bytes
            } else {
                encoding.encode(s).0.into_owned()
            }
        };
        let path = dir.path().join(format!("{}.pgn", encoding.name()));
        std::fs::write(&path, encode(text)).unwrap();
        let place = |mv: &str| encode(&text[..text.find(mv).unwrap()]).len() as u64;
        let run = xq(&[
            "validate",
            path.to_str().unwrap(),
            "-q",
            "--format",
            "jsonl",
        ]);
        let rows = support::jsonl(&run);
        let name = encoding.name();
        assert_eq!(rows.len(), 1, "{name}: {}", run.stdout);
        assert_eq!(rows[0]["error"]["move"], "帥五進五", "{name}");
        assert_eq!(rows[0]["error"]["offset"], place("帥五進五"), "{name}");
        assert_eq!(rows[0]["error"]["line"], 4, "{name}");
        let variation = &rows[0]["more_errors"][0];
        assert_eq!(variation["move"], "車九進九", "{name}");
        assert_eq!(variation["offset"], place("車九進九"), "{name}");
    }
}

#[test]
fn judge_and_fen_errors_show_a_caret() {
    let mut out = error(&["judge", "--moves", "h2e2 炮二平十"]);
    out += &error(&["judge", "fixtures/bad/pgn-unclosed-comment.pgn"]);
    out += &error(&[
        "fen",
        "马nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
    ]);
    insta::assert_snapshot!(out);
}

#[test]
fn control_characters_under_a_caret_are_shown_not_sent() {
    let out = xq(&["move", "炮\u{1b}[2J二平五"]).stdout;
    // The token's line under which the caret stands (the first line echoes the token, its
    // control characters shown as escapes).
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "炮\\u{1b}[2J二平五\terror (syntax):");
    assert_eq!(lines[1], "    炮\u{241b}[2J二平五");
    assert!(lines[2].starts_with("      ^ "), "{out:?}");
    // Whatever the token holds and whatever the error, nothing in it reaches the terminal as a
    // control: an OSC sequence (sets the window title), C0 controls, a bidirectional override.
    for token in [
        "\u{1b}]0;pwned\u{7}\u{1b}[31m炮二平五",
        "炮\u{1}二平五",
        "炮二平五\u{202e}",
        "\u{202e}h2e2",
        "h2e\u{85}2",
    ] {
        let run = xq(&["move", "--", token]);
        let shown: String = run
            .stdout
            .chars()
            .filter(|&c| c != '\n' && c != '\t')
            .collect();
        assert!(
            !shown.chars().any(xq_core::text::is_control),
            "{token:?}: {:?}",
            run.stdout
        );
        assert!(run.stdout.contains("error"), "{token:?}: {:?}", run.stdout);
    }
}

#[test]
fn validate_and_convert_show_the_line_with_a_caret() {
    // The same renderer as `show`: the line of the file, a caret under the place.
    let validate = xq(&["validate", "fixtures/bad/pgn-stray-parenthesis.pgn", "-q"]);
    assert_eq!(validate.code, 1, "{}", validate.stderr);
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.json");
    let convert = xq(&[
        "convert",
        "fixtures/records/ours/broken.pgn",
        "--to",
        "json",
        "--out",
        out.to_str().unwrap(),
    ]);
    let convert = convert.stdout.replace(out.to_str().unwrap(), "OUT");
    insta::assert_snapshot!(format!("{}\n{convert}", validate.stdout));
}

#[test]
fn a_bad_start_position_in_a_record_shows_a_caret() {
    // Every command that reads a record's start position shows the line where its FEN is
    // written, carets under the first problem of the FEN's text (two cells under a Chinese
    // character), or under the whole FEN when it reads but the position breaks the rules;
    // DhtmlXQ's binit, which is not a FEN, is marked whole.
    let (pgn, ubb) = (
        "fixtures/bad/pgn-bad-start.pgn",
        "fixtures/bad/dhtmlxq-bad-start.ubb",
    );
    let validate = xq(&["validate", pgn, ubb, "-q"]);
    assert_eq!(validate.code, 1, "{}", validate.stderr);
    let show = xq(&["show", pgn]);
    assert_eq!(show.code, 1, "{}", show.stderr);
    let mut judge = String::new();
    for (file, game) in [(pgn, "1"), (pgn, "2"), (ubb, "1"), (ubb, "2")] {
        judge += &error(&["judge", file, "--game", game]);
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.ubb");
    let convert = xq(&[
        "convert",
        ubb,
        "--to",
        "dhtmlxq",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(convert.code, 0, "{}", convert.stderr);
    let convert = convert.stdout.replace(dir.path().to_str().unwrap(), "OUT");
    insta::assert_snapshot!(format!(
        "== validate\n{}== show\n{}== judge\n{judge}== convert\n{convert}",
        validate.stdout, show.stdout
    ));
}

#[test]
fn the_fen_caret_finds_its_place_in_a_gbk_file() {
    // The FEN's offset is in the file's own encoding; the line is shown decoded, the carets
    // where they are in the UTF-8 file.
    let path = "fixtures/bad/pgn-bad-start.pgn";
    let text = std::fs::read_to_string(path).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let gbk = dir.path().join("gbk.pgn");
    std::fs::write(&gbk, encoding_rs::GBK.encode(&text).0).unwrap();
    let shown = |p: &str| {
        let run = xq(&["validate", p, "-q"]);
        assert_eq!(run.code, 1, "{}", run.stderr);
        run.stdout.replace(p, "FILE")
    };
    let (utf8, gbk) = (shown(path), shown(gbk.to_str().unwrap()));
    assert_eq!(gbk, utf8);
    assert!(
        utf8.contains("车NBAKABNR w - - 0 1\"]\n    |") && utf8.contains("^^ here"),
        "{utf8}"
    );
}

#[test]
fn a_bad_move_in_a_record_shows_a_caret() {
    // `show` and `validate` (snapshot in cli_records) mark the move's text on its line, in a
    // variation too; the same in a GBK copy of the file.
    let path = "fixtures/records/ours/broken.pgn";
    let shown = |p: &str, game: &str| {
        let run = xq(&["show", p, "--game", game]);
        assert_eq!(run.code, 1, "{}", run.stderr);
        run.stdout
    };
    let out = format!("{}{}", shown(path, "5"), shown(path, "7"));
    let text = std::fs::read_to_string(path).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let gbk = dir.path().join("gbk.pgn");
    std::fs::write(&gbk, encoding_rs::GBK.encode(&text).0).unwrap();
    let gbk = gbk.to_str().unwrap();
    assert_eq!(format!("{}{}", shown(gbk, "5"), shown(gbk, "7")), out);
    // A UTF-8 copy with a byte-order mark (its places are counted in the file, which holds the
    // mark before the text): the same lines and carets, for each game and for all of them at
    // once (each place found on from the last).
    let bom = dir.path().join("bom.pgn");
    std::fs::write(&bom, format!("\u{feff}{text}")).unwrap();
    let bom = bom.to_str().unwrap();
    assert_eq!(format!("{}{}", shown(bom, "5"), shown(bom, "7")), out);
    // (The lines shown and their carets: the heading lines give byte offsets, 3 more here.)
    let validated = |p: &str| {
        let run = xq(&["validate", p]);
        assert_eq!(run.code, 1, "{}", run.stderr);
        let shown: Vec<String> = run
            .stdout
            .lines()
            .filter(|line| line.starts_with(' '))
            .map(str::to_owned)
            .collect();
        shown
    };
    let lines = validated(path);
    assert!(
        lines.iter().filter(|l| l.contains("^ here")).count() >= 5,
        "{lines:?}"
    );
    assert_eq!(validated(bom), lines);
    insta::assert_snapshot!(out);
}

#[test]
fn a_bad_move_in_a_file_of_cr_line_ends_shows_a_caret() {
    // The same lines, with their line ends as an old Mac writes them (a CR alone), and mixed:
    // the line numbers the reader gives are the lines shown.
    let path = "fixtures/records/ours/broken.pgn";
    let shown = |p: &str| {
        let run = xq(&["show", p, "--game", "5"]);
        assert_eq!(run.code, 1, "{}", run.stderr);
        run.stdout
    };
    let out = shown(path);
    assert!(out.contains("^ here") || out.contains("^^ here"), "{out}");
    let text = std::fs::read_to_string(path).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let cr = dir.path().join("cr.pgn");
    std::fs::write(&cr, text.replace('\n', "\r")).unwrap();
    assert_eq!(shown(cr.to_str().unwrap()), out);
    let mixed = dir.path().join("mixed.pgn");
    let (head, tail) = text.split_at(text.find('\n').unwrap() + 1);
    std::fs::write(&mixed, format!("{head}{}", tail.replace('\n', "\r"))).unwrap();
    assert_eq!(shown(mixed.to_str().unwrap()), out);
}

#[test]
fn a_json_record_error_shows_a_caret() {
    // serde's line and column, as a place in the file: the value that does not fit the schema.
    let path = "fixtures/bad/json-not-a-move.json";
    let show = error(&["show", path]);
    let validate = xq(&["validate", path, "-q"]);
    assert_eq!(validate.code, 1, "{}", validate.stderr);
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.pgn");
    let convert = xq(&[
        "convert",
        path,
        "--to",
        "pgn",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(convert.code, 1, "{}", convert.stderr);
    insta::assert_snapshot!(format!("{show}{}{}", validate.stdout, convert.stdout));
}

#[test]
fn no_caret_rather_than_a_wrong_one() {
    // A GBK file with a UTF-8 game in it reads whole, but byte offsets after the UTF-8 lines do
    // not match a decoding of the file: the error is given without a caret, never with one
    // under other text.
    let gbk = |s: &str| encoding_rs::GBK.encode(s).0.into_owned();
    let game =
        |n: &str, moves: &str| format!("[Event \"中国{n}\"]\n\n1. 炮二平五 马８进７{moves} *\n\n");
    let mut bytes = gbk(&game("一", "")).repeat(3);
    bytes.extend_from_slice(game("二", "").as_bytes());
    bytes.extend(gbk(&game("三", " 2. 马二进四")));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mixed.pgn");
    std::fs::write(&path, bytes).unwrap();
    let run = xq(&["validate", path.to_str().unwrap(), "-q"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stdout.contains("ply 3, 马二进四"), "{}", run.stdout);
    let marked: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.contains("^ here"))
        .collect();
    assert!(marked.is_empty(), "{}", run.stdout);
}

/// A DhtmlXQ move list that cannot be read (digits left over, a point off the board) or a
/// start position of the wrong length is placed: line and byte in the file, a caret under it,
/// in a page with text before the record.
#[test]
fn a_dhtmlxq_record_that_cannot_be_read_says_where() {
    let tmp = tempfile::tempdir().unwrap();
    let page = |field: &str| {
        format!(
            "Forum words before the record.\n[DhtmlXQ]\n[DhtmlXQ_title]x[/DhtmlXQ_title]\n{field}\n[/DhtmlXQ]\n"
        )
    };
    for (name, field, at) in [
        (
            "short",
            "[DhtmlXQ_movelist]7747724210[/DhtmlXQ_movelist]",
            "10[",
        ),
        (
            "off",
            "[DhtmlXQ_movelist]77479949[/DhtmlXQ_movelist]",
            "9949",
        ),
        ("binit", "[DhtmlXQ_binit]0010[/DhtmlXQ_binit]", "0010"),
    ] {
        let text = page(field);
        let path = tmp.path().join(format!("{name}.ubb"));
        std::fs::write(&path, &text).unwrap();
        let run = xq(&["validate", path.to_str().unwrap(), "-q"]);
        assert_eq!(run.code, 1, "{}", run.stdout);
        let byte = text.find(at).unwrap();
        assert!(
            run.stdout.contains(&format!("line 4, byte {byte}")),
            "{name}: {}",
            run.stdout
        );
        assert!(run.stdout.contains("^ here"), "{name}: {}", run.stdout);
    }
}

#[test]
fn a_bad_move_in_a_dhtmlxq_move_list_shows_a_caret_under_its_digits() {
    // DhtmlXQ writes moves as four digits each: the report quotes them and marks them where they
    // stand in `movelist`, and says what is wrong in the rules' words.
    let file = "fixtures/bad/dhtmlxq-bad-move.ubb";
    let validate = xq(&["validate", file, "-q"]);
    assert_eq!(validate.code, 1, "{}", validate.stderr);
    assert!(
        validate.stdout.contains("ply 3, 1012:"),
        "{}",
        validate.stdout
    );
    let show = xq(&["show", file]);
    insta::assert_snapshot!(format!(
        "== validate\n{}== show\n{}{}",
        validate.stdout, show.stdout, show.stderr
    ));
}
