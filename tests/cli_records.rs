//! End-to-end tests of `xq validate`, `xq convert` and `xq show`, and of `xq judge` reading a
//! record: the acceptance run on the CCPD sample, every kind of problem with its place, the report
//! formats, atomic and non-clobbering outputs, streaming of large files.

#![allow(clippy::unwrap_used)] // tests: a panic is the failure report

mod support;

use std::path::Path;

use serde_json::Value;
use support::{Run, jsonl, shared, xq};

/// `xq validate -q --report jsonl ARGS…`.
fn validate_jsonl(args: &[&str]) -> Run {
    let mut all = vec!["validate", "-q", "--report", "jsonl"];
    all.extend_from_slice(args);
    xq(&all)
}

/// The acceptance run: all of ccpd-dev replays but the two known defects, each with its ply and
/// reason; a Result tag contradicting a checkmate is a warning, not a failure.
#[test]
fn ccpd_dev_replays_except_the_two_known_defects() {
    let dir = shared().join("data/ccpd-dev");
    let run = validate_jsonl(&[dir.to_str().unwrap()]);
    assert_eq!(run.code, 1, "failures mean exit code 1: {}", run.stderr);
    let rows = jsonl(&run);
    assert_eq!(rows.len(), 3106);
    assert!(
        rows.iter()
            .all(|r| r["game"] == 0 && r["format"] == "pgn" && r["encoding"] == "big5")
    );
    let failed: Vec<&Value> = rows.iter().filter(|r| r["ok"] == false).collect();
    assert_eq!(failed.len(), 2, "{failed:#?}");
    let file = |r: &Value| r["file"].as_str().unwrap().replace('\\', "/");
    assert!(
        file(failed[0]).ends_with("Dataset/中局/00002096.pgn"),
        "{}",
        file(failed[0])
    );
    let e = &failed[0]["error"];
    assert_eq!(
        (e["ply"].as_u64(), e["kind"].as_str()),
        (Some(0), Some("bad_start"))
    );
    assert!(
        e["message"].as_str().unwrap().contains("Black has no king"),
        "{e}"
    );
    assert!(e["move"].is_null());
    assert!(file(failed[1]).ends_with("Dataset/中局/00002680.pgn"));
    let e = &failed[1]["error"];
    assert_eq!(
        (e["ply"].as_u64(), e["kind"].as_str(), e["move"].as_str()),
        (Some(19), Some("illegal"), Some("馬６退７"))
    );
    assert_eq!(
        e["fen"],
        "2b1ka1C1/4a4/4b4/R5N1p/c1p6/5n3/2P1P3P/1rNRBA1n1/7C1/2BAK3c b - - 8 10"
    );
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("leave the black king on e9 in check from the cannon (炮) on h9")
    );
    let warned: Vec<&Value> = rows
        .iter()
        .filter(|r| r.get("warnings").is_some())
        .collect();
    assert_eq!(warned.len(), 1);
    assert!(file(warned[0]).ends_with("世界盃/00000143.pgn"));
    assert_eq!(warned[0]["ok"], true);
    // Paths are the directory argument joined with the path below it.
    assert!(rows.iter().all(|r| {
        r["file"]
            .as_str()
            .unwrap()
            .starts_with(dir.to_str().unwrap())
    }));
}

#[test]
fn every_kind_of_problem_is_reported_with_its_place() {
    let run = xq(&["validate", "fixtures/records/ours/broken.pgn", "-q"]);
    assert_eq!(run.code, 1);
    insta::assert_snapshot!("validate_broken_text", run.stdout);
    let run = validate_jsonl(&["fixtures/records/ours/broken.pgn"]);
    let rows = jsonl(&run);
    let kinds: Vec<(bool, Option<u64>, &str)> = rows
        .iter()
        .map(|r| {
            (
                r["ok"].as_bool().unwrap(),
                r["error"]["ply"].as_u64(),
                r["error"]["kind"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        kinds,
        [
            (true, None, ""),
            (false, None, "syntax"),
            (false, Some(1), "ambiguous"),
            (false, Some(1), "illegal"),
            (false, Some(3), "unreadable"),
            (false, Some(0), "bad_start"),
            (false, Some(1), "no_match"),
            (true, None, ""),
        ]
    );
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row["game"], i);
        assert_eq!(row["file"], "fixtures/records/ours/broken.pgn");
    }
    // The unreadable game says where: line and byte of the stray `)`.
    assert_eq!(rows[1]["error"]["line"], 9);
    assert!(rows[1]["error"]["offset"].as_u64().is_some());
    // The bad move in a variation says which.
    assert_eq!(rows[6]["error"]["variation"], serde_json::json!([[1, 0]]));
    assert!(
        rows[7]["warnings"][0]
            .as_str()
            .unwrap()
            .contains("should be 1-0")
    );
}

#[test]
fn csv_and_json_reports() {
    let run = xq(&[
        "validate",
        "fixtures/records/ours/broken.pgn",
        "-q",
        "--report",
        "csv",
    ]);
    insta::assert_snapshot!("validate_broken_csv", run.stdout);
    let run = xq(&[
        "validate",
        "fixtures/records/ours/broken.pgn",
        "-q",
        "--report",
        "json",
    ]);
    let doc: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(doc["summary"]["games"], 8);
    assert_eq!(doc["summary"]["ok"], 2);
    assert_eq!(doc["summary"]["failed"], 6);
    assert_eq!(doc["summary"]["games_with_warnings"], 1);
    assert_eq!(doc["games"].as_array().unwrap().len(), 8);
}

#[test]
fn a_directory_of_every_format() {
    let run = xq(&["validate", "fixtures/records", "-q"]);
    assert_eq!(run.code, 1);
    insta::assert_snapshot!("validate_fixture_directory", run.stdout);
    let run = validate_jsonl(&["fixtures/records", "--jobs", "1"]);
    let rows = jsonl(&run);
    let formats: std::collections::BTreeSet<&str> = rows
        .iter()
        .map(|r| r["format"].as_str().unwrap_or("?"))
        .collect();
    assert_eq!(
        formats.into_iter().collect::<Vec<_>>(),
        ["dhtmlxq", "json", "pgn", "xqf"]
    );
}

#[test]
fn a_missing_path_is_reported_and_the_rest_still_checked() {
    let run = validate_jsonl(&["no/such/file.pgn", "fixtures/records/ours/variations.pgn"]);
    assert_eq!(run.code, 3, "an unreadable file is an input/output error");
    let rows = jsonl(&run);
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["file"], "no/such/file.pgn");
    assert!(rows[0]["game"].is_null());
    assert_eq!(rows[0]["error"]["kind"], "io");
    assert_eq!(rows[1]["ok"], true);
}

/// A file `name` holding `text` in a new temporary directory (kept while the first is).
fn file_of(name: &str, text: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join(name);
    std::fs::write(&file, text).unwrap();
    (tmp, file)
}

/// The CSV report has a row for each bad move, the line it is in named: a bad variation does
/// not hide the main line's bad move, nor pass for it.
#[test]
fn csv_rows_for_every_bad_line() {
    let (_tmp, file) = file_of(
        "multi.pgn",
        "1. 炮二平五 ( 1. 炮二进八 ) ( 1. 车九进一 ) 马８进７ 2. 马二进九 *\n",
    );
    let run = xq(&["validate", "--format", "csv", file.to_str().unwrap()]);
    assert_eq!(run.code, 1);
    let rows: Vec<Vec<String>> = run
        .stdout
        .lines()
        .skip(1)
        .map(|l| l.rsplitn(2, ',').map(str::to_owned).collect())
        .collect();
    let places: Vec<(&str, &str)> = run
        .stdout
        .lines()
        .skip(1)
        .zip(&rows)
        .map(|(line, row)| (line.split(',').nth(3).unwrap(), row[0].as_str()))
        .collect();
    assert_eq!(places, [("3", ""), ("1", "alternative 1 to ply 1")]);
}

/// What a record holds and its game cannot (a DhtmlXQ branch leaving a move that is not there)
/// is said by validate, and by convert among what the output lacks, in every target format.
#[test]
fn what_a_record_holds_and_its_game_cannot_is_said() {
    let (tmp, file) = file_of(
        "orphan.ubb",
        "[DhtmlXQ]\n[DhtmlXQ_movelist]77477062[/DhtmlXQ_movelist]\n\
         [DhtmlXQ_move_0_5_3]1242[/DhtmlXQ_move_0_5_3]\n[/DhtmlXQ]\n",
    );
    let f = file.to_str().unwrap();
    let said = "not read from the record: branch 3, which leaves move 5 of line 0, a move not reached from the main line";
    let run = xq(&["validate", f]);
    assert_eq!(run.code, 0);
    assert!(run.stdout.contains(said), "{}", run.stdout);
    for to in ["pgn", "json", "xqf"] {
        let out = tmp.path().join(format!("out.{to}"));
        let run = xq(&["convert", f, "--to", to, "-o", out.to_str().unwrap()]);
        assert_eq!(run.code, 0, "{to}: {}", run.stderr);
        assert!(run.stdout.contains(said), "{to}: {}", run.stdout);
    }
}

/// An empty directory (a mount not there yet) holds nothing to check: no success.
#[test]
fn nothing_to_check_is_no_success() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_str().unwrap();
    for command in ["validate", "convert"] {
        let args: &[&str] = match command {
            "validate" => &["validate", dir],
            _ => &["convert", dir, "--to", "json", "-o", "-"],
        };
        let run = xq(args);
        assert_eq!(run.code, 1, "{command}: {}", run.stderr);
        assert!(
            run.stderr.contains("no record files found"),
            "{}",
            run.stderr
        );
    }
}

#[test]
fn encodings_are_told_or_forced() {
    let tmp = tempfile::tempdir().unwrap();
    // UTF-16LE, as some Windows exports are.
    let text = std::fs::read_to_string("fixtures/records/ours/variations.pgn").unwrap();
    let mut utf16 = vec![0xFF, 0xFE];
    utf16.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    let path = tmp.path().join("utf16.pgn");
    std::fs::write(&path, utf16).unwrap();
    let run = validate_jsonl(&[path.to_str().unwrap()]);
    let rows = jsonl(&run);
    assert_eq!(
        (rows[0]["ok"].as_bool(), rows[0]["encoding"].as_str()),
        (Some(true), Some("utf-16le"))
    );
    // Big5 read as GBK gives nonsense: every move fails.
    let run = validate_jsonl(&["fixtures/records/ccpd/00000007.pgn", "--encoding", "gbk"]);
    let rows = jsonl(&run);
    assert_eq!(
        (rows[0]["ok"].as_bool(), rows[0]["encoding"].as_str()),
        (Some(false), Some("gbk"))
    );
    let run = validate_jsonl(&["fixtures/records/ours/variations-traditional-gbk.pgn"]);
    assert_eq!(jsonl(&run)[0]["encoding"], "gbk");
    assert_eq!(jsonl(&run)[0]["ok"], true);
    // A GBK file whose first 64 KiB (the head its encoding is told from) are ASCII: the games
    // after its first Chinese text are said to be GBK, in a file read at once (as are the ASCII
    // ones before) or streamed in pieces (above 4 MiB: those before are UTF-8 as reported).
    let ascii = format!(
        "[Event \"e\"]\n\n1. h2e2 {{{}}} h9g7 *\n\n",
        "a comment ".repeat(200)
    );
    for count in [40, 2_200] {
        let mut bytes = ascii.repeat(count).into_bytes();
        let gbk = std::fs::read("fixtures/records/ours/variations-traditional-gbk.pgn").unwrap();
        bytes.extend(&gbk);
        let path = tmp.path().join("ascii-head-gbk.pgn");
        std::fs::write(&path, &bytes).unwrap();
        let run = validate_jsonl(&[path.to_str().unwrap()]);
        let rows = jsonl(&run);
        assert_eq!(rows.len(), count + 1);
        let first = if count < 100 { "gbk" } else { "utf-8" };
        assert_eq!(rows[0]["encoding"], first);
        let last = &rows[count];
        assert_eq!(
            (&last["encoding"], &last["ok"]),
            (&"gbk".into(), &true.into())
        );
    }
}

/// A file above the streaming threshold is read in chunks and its games replayed in parallel
/// groups; games keep their index and line.
#[test]
fn a_large_archive_is_streamed_with_its_places_kept() {
    let tmp = tempfile::tempdir().unwrap();
    let games = std::fs::read_to_string("fixtures/records/wukong/xqdb_traditional-3.pgn").unwrap();
    let mut text = String::new();
    let mut bad_line = 0;
    for i in 0..3000 {
        if i == 2500 {
            bad_line = text.lines().count() + 1;
            text.push_str("[Event \"bad\"]\n\n1. 炮二平五 马８进７ 2. 马二进四 *\n\n");
        }
        text.push_str(&games);
        text.push('\n');
    }
    assert!(text.len() > 5 << 20, "above the 4 MiB threshold");
    let path = tmp.path().join("big.pgn");
    std::fs::write(&path, &text).unwrap();
    let run = validate_jsonl(&[path.to_str().unwrap()]);
    assert_eq!(run.code, 1);
    let rows = jsonl(&run);
    assert_eq!(rows.len(), 9001);
    let bad: Vec<&Value> = rows.iter().filter(|r| r["ok"] == false).collect();
    assert_eq!(bad.len(), 1);
    assert_eq!(bad[0]["game"], 7500);
    assert_eq!(bad[0]["line"], bad_line);
    assert_eq!(bad[0]["error"]["ply"], 3);
    assert!(rows.iter().enumerate().all(|(i, r)| r["game"] == i));
}

fn out_name(tmp: &Path, stdout: &str) -> String {
    stdout
        .replace(tmp.to_str().unwrap(), "<out>")
        .replace('\\', "/")
}

/// Our writers are deterministic: converting the hand-written game gives the committed files.
#[test]
fn convert_gives_the_committed_outputs_of_every_writer() {
    let tmp = tempfile::tempdir().unwrap();
    let src = "fixtures/records/ours/variations.pgn";
    let cases: [(&str, &[&str]); 6] = [
        ("variations-v10.xqf", &["--to", "xqf"]),
        ("variations-v18.xqf", &["--to", "xqf", "--xqf", "encrypted"]),
        ("variations.ubb", &["--to", "dhtmlxq"]),
        ("variations.json", &["--to", "json"]),
        (
            "variations-traditional-gbk.pgn",
            &[
                "--to",
                "pgn",
                "--notation",
                "traditional",
                "--out-encoding",
                "gbk",
            ],
        ),
        ("variations-wxf.pgn", &["--to", "pgn", "--notation", "wxf"]),
    ];
    let mut said = String::new();
    for (name, args) in cases {
        let out = tmp.path().join(name);
        let mut all = vec!["convert", src, "--out", out.to_str().unwrap()];
        all.extend_from_slice(args);
        let run = xq(&all);
        assert_eq!(run.code, 0, "{}", run.stdout);
        said.push_str(&out_name(tmp.path(), &run.stdout));
        let committed = std::fs::read(Path::new("fixtures/records/ours").join(name)).unwrap();
        assert_eq!(std::fs::read(&out).unwrap(), committed, "{name}");
    }
    insta::assert_snapshot!("convert_messages", said);
}

#[test]
fn convert_never_overwrites_without_force_and_leaves_no_temporary_files() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("game.json");
    let out_s = out.to_str().unwrap();
    std::fs::write(&out, "precious").unwrap();
    let run = xq(&[
        "convert",
        "fixtures/records/ours/variations.pgn",
        "--to",
        "json",
        "--out",
        out_s,
    ]);
    assert_eq!(run.code, 1);
    assert!(
        run.stdout
            .contains("exists; not replaced (--force replaces it"),
        "{}",
        run.stdout
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "precious");
    let run = xq(&[
        "convert",
        "fixtures/records/ours/variations.pgn",
        "--to",
        "json",
        "--out",
        out_s,
        "--force",
    ]);
    assert_eq!(run.code, 0);
    assert!(std::fs::read_to_string(&out).unwrap().contains("xq-games"));
    let names: Vec<String> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["game.json"]);
}

#[test]
fn convert_a_directory_mirrors_it_and_says_what_each_file_gave() {
    let tmp = tempfile::tempdir().unwrap();
    let run = xq(&[
        "convert",
        "fixtures/records",
        "--to",
        "txt",
        "--notation",
        "iccs",
        "--out",
        tmp.path().to_str().unwrap(),
    ]);
    // broken.pgn holds a game that cannot be read: said, and the exit code says so.
    assert_eq!(run.code, 1);
    insta::assert_snapshot!("convert_directory", out_name(tmp.path(), &run.stdout));
    let list = std::fs::read_to_string(tmp.path().join("ccpd/00000007.txt")).unwrap();
    assert!(list.contains(", H2-E2 H7-E7 H0-G2 "), "{list}");
    // XQF: one file per game.
    let run = xq(&[
        "convert",
        "fixtures/records/wukong/xqdb_traditional-3.pgn",
        "--to",
        "xqf",
        "--out",
        tmp.path().join("x/").to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    let mut names: Vec<String> = std::fs::read_dir(tmp.path().join("x"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "xqdb_traditional-3-001.xqf",
            "xqdb_traditional-3-002.xqf",
            "xqdb_traditional-3-003.xqf"
        ]
    );
}

#[test]
fn show_a_game_in_any_notation() {
    let run = xq(&["show", "fixtures/records/ours/variations.pgn"]);
    assert_eq!(run.code, 0);
    insta::assert_snapshot!("show_chinese", run.stdout);
    let run = xq(&[
        "show",
        "fixtures/records/ours/variations-v18.xqf",
        "--notation",
        "wxf",
    ]);
    insta::assert_snapshot!("show_xqf_wxf", run.stdout);
    let run = xq(&[
        "show",
        "fixtures/records/ccpd/00000037.pgn",
        "--notation",
        "traditional",
    ]);
    assert_eq!(run.code, 0);
    insta::assert_snapshot!("show_big5_traditional", run.stdout);
    let run = xq(&["show", "fixtures/records/ours/broken.pgn", "--game", "9"]);
    assert_eq!(run.code, 1);
    assert_eq!(
        run.stderr.trim(),
        "xq: fixtures/records/ours/broken.pgn: there is no game 9: the file holds 8 games"
    );
    let run = xq(&[
        "show",
        "fixtures/records/ours/broken.pgn",
        "--game",
        "5",
        "--format",
        "json",
    ]);
    assert_eq!(run.code, 1, "a game with a bad move");
    let v: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v["moves"][0]["move"], "h2e2");
    assert_eq!(v["moves"][2]["text"], "Hello");
}

/// `xq judge` reads any record: the same repetition as a move list and as PGN gives the same
/// ruling.
#[test]
fn judge_reads_game_records() {
    let tmp = tempfile::tempdir().unwrap();
    let pgn = tmp.path().join("figure-2.pgn");
    let run = xq(&[
        "convert",
        "fixtures/judge/cxa2020-figure-2.txt",
        "--to",
        "pgn",
        "--out",
        pgn.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    let from_list: Value = serde_json::from_str(
        &xq(&[
            "judge",
            "fixtures/judge/cxa2020-figure-2.txt",
            "--format",
            "json",
        ])
        .stdout,
    )
    .unwrap();
    let from_pgn: Value =
        serde_json::from_str(&xq(&["judge", pgn.to_str().unwrap(), "--format", "json"]).stdout)
            .unwrap();
    assert_eq!(from_pgn, from_list);
    assert_eq!(from_pgn["verdict"], "red_must_change");
}

#[test]
fn strict_mode_fails_readable_but_non_standard_notation() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("sloppy.pgn");
    std::fs::write(&path, "[Result \"*\"]\n\n1. C25 h8+7 *\n").unwrap();
    let path = path.to_str().unwrap();
    let run = validate_jsonl(&[path]);
    assert_eq!((run.code, jsonl(&run)[0]["ok"].as_bool()), (0, Some(true)));
    let run = validate_jsonl(&[path, "--strict"]);
    assert_eq!(run.code, 1);
    let e = &jsonl(&run)[0]["error"];
    assert_eq!(
        (e["ply"].as_u64(), e["kind"].as_str(), e["move"].as_str()),
        (Some(1), Some("not_standard"), Some("C25"))
    );
    assert!(e["message"].as_str().unwrap().contains("C2.5"), "{e}");
}

#[test]
fn show_wraps_a_long_variation_and_indents_nested_ones() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("long.pgn");
    let long: Vec<&str> = [
        "马二进三",
        "马８进７",
        "车一平二",
        "车９平８",
        "兵七进一",
        "卒７进１",
        "马八进七",
        "马２进３",
    ]
    .iter()
    .copied()
    .cycle()
    .take(8)
    .collect();
    let variation = long
        .chunks(2)
        .enumerate()
        .map(|(i, pair)| format!("{}. {} {}", i + 1, pair[0], pair[1]))
        .collect::<Vec<_>>()
        .join(" ");
    let text = format!(
        "[Event \"long\"]\n\n1. 炮二平五 ({variation} 5. 炮八平九 (5. 车九进一 车１平２) 炮８平９ \
         6. 车九平八 炮２进４ 7. 兵三进一 象３进５ 8. 相三进一 车１平２) 马８进７ *\n"
    );
    std::fs::write(&path, text).unwrap();
    let (stdout, stderr, code) = xq(&["show", path.to_str().unwrap()]).parts();
    assert_eq!(code, 0, "{stderr}");
    let width = |l: &str| {
        l.chars()
            .map(|c| if c.is_ascii() { 1 } else { 2 })
            .sum::<usize>()
    };
    assert!(stdout.lines().all(|l| width(l) <= 90), "{stdout}");
    insta::assert_snapshot!("show_long_variation", stdout);
}
