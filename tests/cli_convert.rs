//! End-to-end tests of `xq convert`'s targets and encodings: several inputs into one file (a
//! multi-game file for the formats that hold several games, an error for XQF), the directory
//! target (a trailing `/` or an existing directory), Big5 output that refuses what Big5 cannot
//! hold (as GBK does), and `-j` giving the same outputs and messages for any number of threads.

#![allow(clippy::unwrap_used)] // tests: a panic is the failure report

mod support;

use std::path::Path;

use support::xq;

const INPUTS: [&str; 3] = [
    "fixtures/records/wukong/hu-ronghua-uci-5.pgn",
    "fixtures/records/wukong/xqdb_traditional-3.pgn",
    "fixtures/records/ours/broken.pgn",
];

/// `xq convert INPUT --to TO [--notation N] --out-encoding ENC -o OUT`.
fn convert_encoded(
    input: &str,
    to: &str,
    notation: Option<&str>,
    enc: &str,
    out: &Path,
) -> support::Run {
    let mut args = vec!["convert", input, "--to", to, "--out-encoding", enc];
    if let Some(n) = notation {
        args.extend(["--notation", n]);
    }
    args.extend(["-o", out.to_str().unwrap()]);
    xq(&args)
}

fn scrub(text: &str, tmp: &Path) -> String {
    text.replace(tmp.to_str().unwrap(), "<tmp>")
}

/// Several inputs and a file target: one file holding every game that reads, in input order.
#[test]
fn several_inputs_go_into_one_file() {
    let tmp = tempfile::tempdir().unwrap();
    let mut said = String::new();
    for (to, name) in [
        ("pgn", "merged.pgn"),
        ("json", "merged.json"),
        ("txt", "merged.txt"),
    ] {
        let out = tmp.path().join(name);
        let mut args = vec!["convert"];
        args.extend(INPUTS);
        args.extend(["--to", to, "-o", out.to_str().unwrap()]);
        let run = xq(&args);
        // broken.pgn holds a game that cannot be read: said, and the exit code says so.
        assert_eq!(run.code, 1, "{}", run.stdout);
        assert!(out.is_file(), "{to}: {}", run.stdout);
        if to == "pgn" {
            said = scrub(&run.stdout, tmp.path());
        }
    }
    insta::assert_snapshot!("convert_merged", said);
    // 5 + 3 + 7 games (one of broken.pgn's 8 cannot be read), in input order.
    let run = xq(&[
        "validate",
        "-q",
        "--format",
        "jsonl",
        tmp.path().join("merged.pgn").to_str().unwrap(),
    ]);
    let rows = support::jsonl(&run);
    assert_eq!(rows.len(), 15);
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(tmp.path().join("merged.json")).unwrap())
            .unwrap();
    let games = json["games"].as_array().unwrap();
    assert_eq!(games.len(), 15);
    assert_eq!(games[0]["tags"][0][1], "China Team Championship 1998");
    assert_eq!(
        games[5]["tags"][0][1],
        "Zhongli Cup TV fast game Champion 1997"
    );
    // The same into standard output: one document, not three.
    let mut args = vec!["convert"];
    args.extend(INPUTS);
    args.extend(["--to", "json", "-o", "-"]);
    let run = xq(&args);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(json["games"].as_array().unwrap().len(), 15);
    // A directory input into a file: its files in one file.
    let out = tmp.path().join("ccpd.pgn");
    let ccpd = || {
        xq(&[
            "convert",
            "fixtures/records/ccpd",
            "--to",
            "pgn",
            "-o",
            out.to_str().unwrap(),
        ])
    };
    let run = ccpd();
    assert!(run.stdout.contains("5 inputs -> "), "{}", run.stdout);
    assert!(out.is_file());
    // Nothing replaced without --force, and no temporary file left.
    let run = ccpd();
    assert_eq!(run.code, 1);
    assert!(
        run.stdout.contains("exists; not replaced"),
        "{}",
        run.stdout
    );
    let names: Vec<String> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("xq-tmp"))
        .collect();
    assert!(names.is_empty(), "{names:?}");
}

/// XQF holds one game: several inputs into one file is an error (usage, exit 2), nothing written.
#[test]
fn several_inputs_into_one_xqf_file_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("all.xqf");
    let mut args = vec!["convert"];
    args.extend(&INPUTS[..2]);
    args.extend(["--to", "xqf", "-o", out.to_str().unwrap()]);
    let run = xq(&args);
    assert_eq!(run.code, 2);
    assert_eq!(
        scrub(&run.stderr, tmp.path()).trim(),
        "xq: --to xqf: an XQF file holds one game, so 2 inputs cannot go into <tmp>/all.xqf: give a directory to -o (an existing one, or a name ending in /)"
    );
    assert!(!out.exists());
    // A name ending in / is a directory: one file per game.
    let dir = format!("{}/", tmp.path().join("x").to_str().unwrap());
    let mut args = vec!["convert"];
    args.extend(&INPUTS[..2]);
    args.extend(["--to", "xqf", "-o", &dir]);
    let run = xq(&args);
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert_eq!(std::fs::read_dir(tmp.path().join("x")).unwrap().count(), 8);
}

/// A directory target (a name ending in /) that names a file says so, and leaves the file:
/// convert's, the games table's and dataset's.
#[test]
fn a_directory_target_naming_a_file_says_so() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("b.json");
    std::fs::write(&file, "kept").unwrap();
    let dir = format!("{}/", file.to_str().unwrap());
    for args in [
        vec!["convert", INPUTS[0], "--to", "json", "-o", &dir],
        vec!["convert", INPUTS[0], "--to", "jsonl", "-o", &dir],
        vec!["dataset", INPUTS[0], "--format", "jsonl", "-o", &dir],
    ] {
        let run = xq(&args);
        assert_eq!(run.code, 3, "{args:?}: {}", run.stdout);
        assert!(
            scrub(&run.stderr, tmp.path()).starts_with(
                "xq: cannot create the directory <tmp>/b.json/, which names a file, not a directory"
            ),
            "{args:?}: {}",
            run.stderr
        );
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "kept");
    }
}

/// Big5 output: a game with a character Big5 lacks (simplified characters) is not written, with
/// the character and its place; in traditional characters it is written and reads back.
#[test]
fn big5_output_refuses_what_big5_cannot_hold() {
    let tmp = tempfile::tempdir().unwrap();
    let src = "fixtures/records/wukong/xqdb_traditional-3.pgn";
    let out = tmp.path().join("simplified.pgn");
    let run = convert_encoded(src, "pgn", None, "big5", &out);
    assert_eq!(run.code, 1);
    assert!(!out.exists(), "no file when no game could be written");
    insta::assert_snapshot!("convert_big5_refused", scrub(&run.stdout, tmp.path()));
    for (to, ext) in [("pgn", "pgn"), ("txt", "txt"), ("dhtmlxq", "ubb")] {
        let out = tmp.path().join(format!("traditional.{ext}"));
        let run = convert_encoded(src, to, Some("traditional"), "big5", &out);
        assert_eq!(run.code, 0, "{to}: {}", run.stdout);
        let bytes = std::fs::read(&out).unwrap();
        // DhtmlXQ writes moves as digits: these games have no other text than ASCII.
        if to != "dhtmlxq" {
            assert!(
                std::str::from_utf8(&bytes).is_err(),
                "{to}: Big5, not UTF-8"
            );
        }
        assert!(
            !bytes.windows(2).any(|w| w == b"&#"),
            "{to}: no numeric references"
        );
        let run = xq(&[
            "validate",
            "-q",
            "--encoding",
            "big5",
            out.to_str().unwrap(),
        ]);
        assert_eq!(run.code, 0, "{to}: {}", run.stdout);
        assert!(
            run.stdout.contains("3 games in 1 file: 3 ok"),
            "{}",
            run.stdout
        );
    }
    // CSV's `chinese` column is always in simplified characters: refused in Big5, not garbled.
    let out = tmp.path().join("traditional.csv");
    let run = convert_encoded(src, "csv", Some("traditional"), "big5", &out);
    assert_eq!(run.code, 1);
    assert!(
        run.stdout
            .contains("big5 cannot hold `马` (U+9A6C), in line 2"),
        "{}",
        run.stdout
    );
    assert!(!out.exists());
    // GBK behaves the same: a character it lacks is refused, not written as `&#…;`.
    let odd = tmp.path().join("odd.pgn");
    std::fs::write(&odd, "[Event \"𠀀 cup\"]\n\n1. 炮二平五 马８进７ *\n").unwrap();
    let out = tmp.path().join("odd-gbk.pgn");
    let run = convert_encoded(odd.to_str().unwrap(), "pgn", None, "gbk", &out);
    assert_eq!(run.code, 1);
    assert!(
        run.stdout
            .contains("game 1 is not written: gbk cannot hold `𠀀` (U+20000), in line 2"),
        "{}",
        run.stdout
    );
}

/// `-j`: the same outputs and the same messages, in input order, with one thread or several.
#[test]
fn jobs_give_the_same_outputs_and_messages() {
    let tmp = tempfile::tempdir().unwrap();
    let mut said = Vec::new();
    for jobs in ["1", "3"] {
        let dir = tmp.path().join(format!("j{jobs}"));
        let out = format!("{}/", dir.to_str().unwrap());
        let run = xq(&[
            "convert",
            "fixtures/records",
            "--to",
            "json",
            "-o",
            &out,
            "-j",
            jobs,
        ]);
        assert_eq!(run.code, 1, "broken.pgn: {}", run.stdout);
        said.push(run.stdout.replace(&out, "<out>/"));
    }
    assert_eq!(said[0], said[1]);
    let files = |jobs: &str| {
        let dir = tmp.path().join(format!("j{jobs}"));
        let mut all = support::files_below(&dir, "json")
            .into_iter()
            .map(|p| {
                (
                    p.strip_prefix(&dir).unwrap().to_path_buf(),
                    std::fs::read(&p).unwrap(),
                )
            })
            .collect::<Vec<_>>();
        all.sort();
        all
    };
    let one = files("1");
    assert!(one.len() >= 10, "{}", one.len());
    assert_eq!(one, files("3"));
}

/// How a game's moves were read where the record leaves it open changes what is written: said
/// per game, as validate says it (a record one ply off, Black's move written first without a
/// FEN, is written from the standard start, Red first).
#[test]
fn how_moves_were_read_is_said() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("black-first.pgn");
    std::fs::write(&input, "1... 马８进７ 2. 马二进三 *\n").unwrap();
    let out = tmp.path().join("out.pgn");
    let run = xq(&[
        "convert",
        input.to_str().unwrap(),
        "--to",
        "pgn",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert!(
        run.stdout
            .contains("game 1: the first two moves are written as the other sides' would be"),
        "{}",
        run.stdout
    );
    let validated = xq(&["validate", input.to_str().unwrap()]);
    assert!(
        validated
            .stdout
            .contains("game 1: warning: the first two moves are written as the other sides'"),
        "{}",
        validated.stdout
    );
}

/// An output encoding the target format does not have is refused, not ignored: XQF's text is
/// GBK, JSON's UTF-8. Asked for the one it has, it is written.
#[test]
fn an_encoding_the_format_has_not_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    for (to, enc, refused) in [
        ("xqf", "big5", true),
        ("xqf", "utf-8", true),
        ("json", "gbk", true),
        ("xqf", "gbk", false),
        ("json", "utf-8", false),
    ] {
        // (A directory target: XQF holds one game per file.)
        let target = tmp.path().join(format!("{to}-{enc}/"));
        let run = convert_encoded(INPUTS[0], to, None, enc, &target);
        if refused {
            assert_eq!(run.code, 2, "{to} {enc}: {}", run.stdout);
            assert!(
                run.stderr.contains(&format!("--out-encoding {enc}: ")),
                "{to} {enc}: {}",
                run.stderr
            );
        } else {
            assert_eq!(run.code, 0, "{to} {enc}: {}{}", run.stdout, run.stderr);
        }
    }
}

/// A notation's name given as the format to write is pointed at `--notation`; another wrong
/// format gets clap's error alone.
#[test]
fn a_notation_given_as_the_format_is_pointed_at_notation() {
    let run = xq(&["convert", "fixtures/records", "--to", "wxf", "-o", "-"]);
    assert_eq!(run.code, 2);
    insta::assert_snapshot!(run.stderr, @r"
    error: invalid value 'wxf' for '--to <TO>'
      [possible values: pgn, xqf, dhtmlxq, json, csv, txt, jsonl, parquet]

      tip: `wxf` is a notation: give it with --notation wxf, and a format with --to

    For more information, try '--help'.
    ");
    let run = xq(&["convert", "fixtures/records", "--to", "foo", "-o", "-"]);
    assert_eq!(run.code, 2);
    assert!(!run.stderr.contains("tip:"), "{}", run.stderr);
}

/// Without `-o` the records go to standard output (as with `-o -`) and what the run says to
/// standard error; a dataset, a directory of part files, is not written there.
#[test]
fn without_an_output_the_records_go_to_standard_output() {
    let input = INPUTS[0];
    let run = xq(&["convert", input, "--to", "pgn"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.starts_with("[Game \"Chinese Chess\"]"),
        "{}",
        run.stdout
    );
    assert!(
        run.stderr.contains("hu-ronghua-uci-5.pgn"),
        "{}",
        run.stderr
    );
    let dash = xq(&["convert", input, "--to", "pgn", "-o", "-"]);
    assert_eq!(run.stdout, dash.stdout);
    let dataset = xq(&["convert", input, "--to", "jsonl"]);
    assert_eq!(dataset.code, 2);
    insta::assert_snapshot!(dataset.stderr, @"xq: a dataset is a directory of part files, not written to standard output: give the directory with -o DIR");
}
