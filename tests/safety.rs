//! Data safety (issue 13): `convert` never destroys an input or a non-file target, writes through
//! unpredictable temporary files, names its outputs as a pure function of the inputs, and reads
//! exactly as `validate` does.

#![allow(clippy::unwrap_used)] // tests: a panic is the failure report

mod support;

use std::{fs, path::Path};

use support::xq;

/// The report with the temporary directory's path replaced by `TMP`.
fn scrub(text: &str, tmp: &Path) -> String {
    text.replace(tmp.to_str().unwrap(), "TMP")
}

/// `variations.pgn` converted to JSON at `out`.
fn to_json(out: &str, force: bool) -> support::Run {
    let mut args = vec![
        "convert",
        "fixtures/records/ours/variations.pgn",
        "--to",
        "json",
        "--out",
        out,
    ];
    if force {
        args.push("--force");
    }
    xq(&args)
}

fn copy(from: &str, to: &Path) {
    fs::copy(Path::new("fixtures").join(from), to).unwrap();
}

#[test]
fn an_output_never_replaces_an_input() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    copy("records/ours/variations.pgn", &dir.join("a.pgn"));
    copy("records/ours/variations-v10.xqf", &dir.join("a.xqf"));
    copy("records/ours/variations-v18.xqf", &dir.join("b.xqf"));
    let before = fs::read(dir.join("a.xqf")).unwrap();
    let before_b = fs::read(dir.join("b.xqf")).unwrap();
    let d = dir.to_str().unwrap();
    // The directory converted into itself: `a.pgn` and `a.xqf` share a stem, so each keeps its
    // whole name; `b.xqf` would be its own output.
    let run = xq(&["convert", d, "--to", "xqf", "--out", d, "--force"]);
    assert_eq!(fs::read(dir.join("a.xqf")).unwrap(), before);
    assert_eq!(fs::read(dir.join("b.xqf")).unwrap(), before_b);
    assert_eq!(run.code, 1, "{}", run.stdout);
    insta::assert_snapshot!("output_is_an_input", scrub(&run.stdout, dir));
    // Another spelling of the directory, and a link to it, are caught too.
    let linked = tmp.path().with_extension("link");
    #[cfg(unix)]
    std::os::unix::fs::symlink(dir, &linked).unwrap();
    for out in [format!("{d}/./"), linked.to_str().unwrap().to_owned()] {
        let run = xq(&[
            "convert",
            &format!("{d}/b.xqf"),
            "--to",
            "xqf",
            "--out",
            &out,
            "--force",
        ]);
        assert_eq!(run.code, 1, "{}", run.stdout);
        assert!(
            run.stdout.contains("not written: that is the input"),
            "{}",
            run.stdout
        );
        assert_eq!(fs::read(dir.join("b.xqf")).unwrap(), before_b);
    }
    let _ = fs::remove_file(&linked);
}

#[cfg(unix)]
#[test]
fn a_target_that_is_no_regular_file_is_written_as_a_stream() {
    use std::os::unix::fs::FileTypeExt;
    let tmp = tempfile::tempdir().unwrap();
    let fifo = tmp.path().join("pipe");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        return; // no mkfifo here
    }
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || fs::read_to_string(fifo).unwrap())
    };
    let run = to_json(fifo.to_str().unwrap(), true);
    assert_eq!(run.code, 0, "{}", run.stdout);
    let got = reader.join().unwrap();
    assert!(got.contains("\"xq-games\""), "{got}");
    assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    // /dev/null stays a device (as any user: writing to it must not try to replace it).
    let run = to_json("/dev/null", true);
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert!(
        fs::metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device()
    );
    // `-`: the records on standard output, the report on standard error.
    let run = to_json("-", false);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("\"xq-games\""), "{}", run.stdout);
    assert!(run.stderr.contains("1 game"), "{}", run.stderr);
    // A link to a regular file stays a link; the file it names gets the output.
    let file = tmp.path().join("real.json");
    fs::write(&file, "old").unwrap();
    let link = tmp.path().join("link.json");
    std::os::unix::fs::symlink(&file, &link).unwrap();
    let run = to_json(link.to_str().unwrap(), true);
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert!(fs::symlink_metadata(&link).unwrap().is_symlink());
    assert!(fs::read_to_string(&file).unwrap().contains("xq-games"));
}

#[test]
fn output_names_do_not_depend_on_what_could_be_read() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("in");
    fs::create_dir(&dir).unwrap();
    // `a.pgn` cannot be read, `a.xqf` can: before, `a.xqf` took `a.json` in this run and
    // `a-2.json` in a run where `a.pgn` had been fixed.
    fs::write(
        dir.join("a.pgn"),
        "[Event \"x\"]\n\n1. 炮二平五 {never closed\n",
    )
    .unwrap();
    copy("records/ours/variations-v10.xqf", &dir.join("a.xqf"));
    copy("records/ours/variations.pgn", &dir.join("c.pgn"));
    let out = tmp.path().join("out");
    // A directory target: a name ending in `/` (else the inputs go into one file).
    let o = format!("{}/", out.to_str().unwrap());
    let (d, o) = (dir.to_str().unwrap(), o.as_str());
    let first = xq(&["convert", d, "--to", "json", "--out", o]);
    let mut names: Vec<String> = fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["a.xqf.json", "c.json"], "{}", first.stdout);
    // Fixed and resumed: the missing output is written, the others kept.
    copy("records/ours/variations.pgn", &dir.join("a.pgn"));
    let again = xq(&["convert", d, "--to", "json", "--out", o, "--skip-existing"]);
    assert_eq!(again.code, 0, "{}", again.stdout);
    insta::assert_snapshot!("resumed_batch", scrub(&again.stdout, tmp.path()));
}

#[test]
fn an_interrupted_conversion_is_simply_run_again() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let out_s = &format!("{}/", out.to_str().unwrap());
    let all = [
        "convert",
        "fixtures/records/ours",
        "--to",
        "json",
        "--out",
        out_s,
    ];
    xq(&all);
    let mut names: Vec<String> = fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    // The run was stopped: the last outputs are missing, a temporary file is left by the killed
    // process (whose id cannot be running).
    for name in &names[names.len() - 3..] {
        fs::remove_file(out.join(name)).unwrap();
    }
    fs::write(
        out.join(".variations.json.4294967295.Ab12Cd.xq-tmp"),
        "half",
    )
    .unwrap();
    let again = xq(&[&all[..], &["--skip-existing"]].concat());
    let kept = again
        .stdout
        .matches("exists, kept (--skip-existing)")
        .count();
    assert_eq!(kept, names.len() - 3, "{}", again.stdout);
    let mut now: Vec<String> = fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    now.sort();
    if Path::new("/proc/self").exists() {
        assert_eq!(now, names, "no temporary file left");
    }
}

#[test]
fn concurrent_resumed_runs_do_not_fail_each_other() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let out_s = out.to_str().unwrap().to_owned();
    let runs: Vec<_> = (0..3)
        .map(|_| {
            let out_s = out_s.clone();
            std::thread::spawn(move || {
                xq(&[
                    "convert",
                    "fixtures/records/ours",
                    "--to",
                    "json",
                    "--out",
                    &out_s,
                    "--skip-existing",
                ])
            })
        })
        .collect();
    let single = xq(&[
        "convert",
        "fixtures/records/ours",
        "--to",
        "json",
        "--out",
        tmp.path().join("single").to_str().unwrap(),
    ]);
    for run in runs {
        let run = run.join().unwrap();
        // A run that keeps an existing output does not read its input again, so it cannot
        // report the input's defects (exit 1); what must never happen is an I/O failure (3)
        // caused by the other runs.
        assert!(
            run.code == single.code || run.code == 0,
            "{}: {}",
            run.code,
            run.stdout
        );
        assert!(!run.stdout.contains("not replaced"), "{}", run.stdout);
    }
}

/// Each game's Event tag and move count, from a JSON document.
fn events(json: &str) -> String {
    let doc: serde_json::Value = serde_json::from_str(json).unwrap();
    doc["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            let event = g["tags"]
                .as_array()
                .unwrap()
                .iter()
                .find(|t| t[0] == "Event")
                .map_or("?", |t| t[1].as_str().unwrap());
            format!(
                "  {event}: {} moves\n",
                g["moves"].as_array().unwrap().len()
            )
        })
        .collect()
}

#[test]
fn decoding_loses_no_text_and_validate_reads_as_convert_does() {
    let mut said = String::new();
    for (name, games) in [
        // Old Mac line ends: read as one game without moves, "ok".
        ("pgn-cr-line-ends.pgn", 3),
        // `cat a.pgn b.pgn c.pgn`, each with a BOM: games 2.. lost their first tag.
        ("pgn-concatenated-boms.pgn", 3),
        // UTF-8, GBK, UTF-8 games in one file: the GBK one became mojibake.
        ("pgn-mixed-utf8-gbk.pgn", 3),
        // A byte that is no GBK: now a warning, not a silent U+FFFD.
        ("pgn-undecodable-byte.pgn", 1),
    ] {
        let path = format!("fixtures/bad/{name}");
        let rows = support::jsonl(&xq(&["validate", &path, "-q", "--report", "jsonl"]));
        assert_eq!(rows.len(), games, "{name}");
        let text = xq(&["validate", &path, "-q"]);
        let conv = xq(&["convert", &path, "--to", "json", "--out", "-"]);
        assert_eq!(conv.code, 0, "{}", conv.stderr);
        said.push_str(&format!("{name}:\n{}", text.stdout));
        said.push_str(&conv.stderr);
        said.push_str(&events(&conv.stdout));
        let replaced = conv.stdout.contains('\u{fffd}');
        assert_eq!(replaced, name.contains("undecodable"), "{name}");
        for r in &rows {
            assert_eq!(r["plies"], 4, "{name}: {r}");
        }
    }
    insta::assert_snapshot!("decoding", said);
}

#[test]
fn files_that_are_not_records_say_so() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    fs::write(dir.join("config.json"), r#"{"a": 1}"#).unwrap();
    fs::write(dir.join("list.json"), r#"[{"tags": []}, {"a": 1}]"#).unwrap();
    fs::write(dir.join("number.json"), "42").unwrap();
    fs::write(dir.join("zeros.xqf"), vec![0u8; 4096]).unwrap();
    let mut state = 7u64;
    let random: Vec<u8> = (0..4096)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 32) as u8
        })
        .collect();
    fs::write(dir.join("random.xqf"), random).unwrap();
    let mut said = String::new();
    for name in [
        "config.json",
        "list.json",
        "number.json",
        "zeros.xqf",
        "random.xqf",
    ] {
        let path = dir.join(name);
        let run = xq(&["validate", path.to_str().unwrap(), "-q"]);
        assert_eq!(run.code, 1, "{name}: {}", run.stdout);
        said.push_str(&scrub(&run.stdout, dir));
    }
    let show = xq(&["show", dir.join("config.json").to_str().unwrap()]);
    assert_eq!(show.code, 1);
    said.push_str(&scrub(&show.stderr, dir));
    insta::assert_snapshot!("not_records", said);
}

/// `depth` variations, each inside the one before.
fn nested(depth: usize) -> String {
    format!(
        "[Event \"deep\"]\n\n1. 炮二平五 {}{} 马８进７ *\n",
        "( 1. 炮二平六 ".repeat(depth),
        ") ".repeat(depth)
    )
}

#[test]
fn what_convert_writes_as_json_reads_back() {
    let tmp = tempfile::tempdir().unwrap();
    for depth in [41, 100, 256] {
        let pgn = tmp.path().join(format!("deep-{depth}.pgn"));
        fs::write(&pgn, nested(depth)).unwrap();
        let json = tmp.path().join(format!("deep-{depth}.json"));
        let run = xq(&[
            "convert",
            pgn.to_str().unwrap(),
            "--to",
            "json",
            "--out",
            json.to_str().unwrap(),
        ]);
        assert_eq!(run.code, 0, "{}", run.stdout);
        let back = support::jsonl(&xq(&[
            "validate",
            json.to_str().unwrap(),
            "-q",
            "--report",
            "jsonl",
        ]));
        assert_eq!(back.len(), 1, "{depth}");
        assert_eq!(back[0]["ok"], true, "{depth}: {}", back[0]);
        assert_eq!(back[0]["lines"], depth + 1, "{depth}");
    }
    // Deeper than any reader takes: the same kind of error on both sides.
    let pgn = tmp.path().join("deeper.pgn");
    fs::write(&pgn, nested(257)).unwrap();
    let json = tmp.path().join("deeper.json");
    fs::write(
        &json,
        format!(r#"{{"tags": {}{}}}"#, "[".repeat(1000), "]".repeat(1000)),
    )
    .unwrap();
    let mut said = String::new();
    for path in [&pgn, &json] {
        let rows = support::jsonl(&xq(&[
            "validate",
            path.to_str().unwrap(),
            "-q",
            "--report",
            "jsonl",
        ]));
        assert_eq!(rows[0]["error"]["kind"], "too_deep");
        said.push_str(rows[0]["error"]["message"].as_str().unwrap());
        said.push('\n');
    }
    insta::assert_snapshot!("too_deep_both_sides", said);
}

/// A game whose tags, comment, move token and FEN carry terminal escapes and formulas.
const HOSTILE: &str = "[Event \"\u{1b}]0;pwned\u{7}\u{1b}[2J=HYPERLINK(\\\"http://x\\\")\"]\n[Red \"-2+3\"]\n[Result \"*\"]\n\n1. 炮二平五 {=1+1 \u{1b}]8;;http://evil\u{1b}\\link\u{1b}]8;;\u{1b}\\} 马８进７ 2. @SUM\u{1b}[31m *\n\n[Event \"fen\"]\n[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN\u{1b}[2J w\"]\n\n1. h2e2 *\n";

#[test]
fn control_characters_are_shown_never_acted_on() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("x\u{1b}[2J\nxq: 0 failed.pgn");
    fs::write(&path, HOSTILE).unwrap();
    let p = path.to_str().unwrap();
    let mut said = String::new();
    let fen_tag = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR\u{1b}[2J w";
    for args in [
        vec!["validate", p, "-q"],
        vec!["show", p],
        vec!["show", p, "--game", "2"],
        vec!["convert", p, "--to", "pgn", "--out", "-"],
        vec!["fen", fen_tag],
        vec!["judge", "--fen", fen_tag, "--moves", "h2e2"],
        vec!["judge", p],
        vec!["limit", p],
        vec!["limit", "--fen", fen_tag, "--moves", "h2e2"],
        vec!["move", "--fen", fen_tag, "h2e2"],
    ] {
        let run = xq(&args);
        // The records themselves (`convert --out -`) keep what the file holds; every report and
        // message shows it escaped.
        let report = if args[0] == "convert" {
            run.stderr.clone()
        } else {
            format!("{}{}", run.stdout, run.stderr)
        };
        assert!(
            !report
                .chars()
                .any(|c| c != '\n' && xq_core::text::is_control(c)),
            "{args:?}: {report:?}"
        );
        assert!(
            !report.lines().any(|l| l.starts_with("xq: 0 failed")),
            "{report}"
        );
        said.push_str(&format!("$ xq {}\n", args[0]));
        said.push_str(&scrub(&report, tmp.path()));
    }
    insta::assert_snapshot!("control_characters", said);
}

#[test]
fn csv_cells_are_never_formulas() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("=cmd.pgn");
    fs::write(&path, HOSTILE).unwrap();
    let p = path.to_str().unwrap();
    let report = xq(&["validate", p, "-q", "--report", "csv"]).stdout;
    let converted = xq(&["convert", p, "--to", "csv", "--out", "-"]);
    let cells = |text: &str| -> Vec<String> {
        csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .from_reader(text.as_bytes())
            .records()
            .flat_map(|r| r.unwrap().iter().map(str::to_owned).collect::<Vec<_>>())
            .collect()
    };
    for cell in cells(&report).iter().chain(&cells(&converted.stdout)) {
        assert!(!cell.starts_with(['=', '+', '@', '\t', '\r']), "{cell:?}");
        if cell.starts_with('-') {
            assert!(
                cell.parse::<f64>().is_ok(),
                "only numbers xq wrote: {cell:?}"
            );
        }
    }
    assert!(!report.contains('\u{1b}'));
    insta::assert_snapshot!(
        "csv_cells",
        format!(
            "{}---\n{}{}",
            scrub(&report, tmp.path()),
            converted.stdout,
            scrub(&converted.stderr, tmp.path())
        )
    );
}

#[test]
fn a_huge_bad_fen_gives_a_short_message() {
    let fen = format!("{} w", "x".repeat(20_000));
    let fen_run = xq(&["fen", &fen]);
    assert_eq!(fen_run.code, 1);
    assert!(
        fen_run.stderr.len() < 8_000,
        "{} bytes",
        fen_run.stderr.len()
    );
    assert!(
        fen_run.stderr.contains("more problems"),
        "{}",
        fen_run.stderr
    );
    // A file of such games: every game reported, each in a few lines.
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("fens.pgn");
    let game = format!("[FEN \"{}\"]\n\n1. h2e2 *\n\n", "x".repeat(40_000));
    fs::write(&path, game.repeat(50)).unwrap();
    let run = xq(&["validate", path.to_str().unwrap(), "-q"]);
    assert_eq!(run.code, 1);
    assert_eq!(run.stdout.matches("bad start position").count(), 50);
    assert!(run.stdout.len() < 50 * 3_000, "{} bytes", run.stdout.len());
    let first = run.stdout.lines().next().unwrap();
    insta::assert_snapshot!(
        "huge_fen",
        format!("{}\n{}", fen_run.stderr, scrub(first, tmp.path()))
    );
}

/// Found in a directory, a file that shares its extension with other files is skipped only when
/// it is no record at all; a damaged record, or a move list with a mistyped move, fails (exit 1).
#[test]
fn a_damaged_record_among_others_fails_and_other_files_are_skipped() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("games");
    fs::create_dir(&dir).unwrap();
    let full = xq(&[
        "convert",
        "fixtures/records/ours/variations.pgn",
        "--to",
        "json",
        "-o",
        "-",
    ]);
    assert_eq!(full.code, 0, "{}", full.stderr);
    fs::write(dir.join("cut.json"), &full.stdout[..300]).unwrap();
    fs::write(dir.join("typo.txt"), "炮二平午 马8进7 马二进三\n").unwrap();
    fs::write(dir.join("readme.txt"), "This is a readme file.\n").unwrap();
    fs::write(dir.join("package.json"), "{\"name\": \"pkg\"}\n").unwrap();
    fs::write(dir.join("broken.json"), "{\"name\": broken\n").unwrap();
    fs::write(
        dir.join("index.html"),
        "<!DOCTYPE html>\n<html><style>h1 { color: red; }</style><body><h1>Games</h1></body></html>\n",
    )
    .unwrap();
    let run = xq(&["validate", dir.to_str().unwrap(), "-q"]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    insta::assert_snapshot!(scrub(&run.stdout, tmp.path()));
    // The machine formats list each file skipped too: a row of kind `skipped`, not a failure.
    let rows = support::jsonl(&xq(&[
        "validate",
        dir.to_str().unwrap(),
        "-q",
        "--report",
        "jsonl",
    ]));
    let skipped: Vec<_> = rows
        .iter()
        .filter(|r| r["error"]["kind"] == "skipped")
        .map(|r| {
            r["file"]
                .as_str()
                .unwrap()
                .rsplit('/')
                .next()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(
        skipped,
        ["broken.json", "index.html", "package.json", "readme.txt"],
        "{rows:?}"
    );
    let csv = xq(&["validate", dir.to_str().unwrap(), "-q", "--report", "csv"]);
    assert_eq!(
        csv.stdout
            .lines()
            .filter(|l| l.contains(",skipped,"))
            .count(),
        4,
        "{}",
        csv.stdout
    );
    let out = tmp.path().join("out");
    let run = xq(&[
        "convert",
        dir.to_str().unwrap(),
        "--to",
        "pgn",
        "-o",
        &format!("{}/", out.display()),
    ]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(run.stdout.contains("readme.txt: skipped"), "{}", run.stdout);
    assert!(
        run.stdout.contains("cut.json") && !run.stdout.contains("cut.json: skipped"),
        "{}",
        run.stdout
    );
}

/// A note named on the command line, by a name no record has, that quotes a move is said to be
/// no record in one line, not read as games of its paragraphs (each failing at its first word);
/// `--from txt` reads it as a move list all the same.
#[test]
fn a_note_named_on_the_command_line_is_no_record() {
    let tmp = tempfile::tempdir().unwrap();
    let note = tmp.path().join("NOTES.md");
    fs::write(
        &note,
        "# Notes\n\nThe opening h2e2 is the central cannon.\n\nIt is played often.\n\nSee the book.\n",
    )
    .unwrap();
    let run = xq(&["validate", note.to_str().unwrap(), "-q"]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    insta::assert_snapshot!(scrub(&run.stdout, tmp.path()), @r"
    TMP/NOTES.md: cannot be read: most of its words are no moves, tags nor position (2 of the 3 games it would hold have none), and .md is no record's extension: not read as a record (--from txt reads it as a move list) [unknown_format]
    0 games in 1 file: 0 ok, 0 failed; 1 file without a game read
    ");
    let read = xq(&["validate", note.to_str().unwrap(), "-q", "--from", "txt"]);
    assert!(
        read.stdout.ends_with("3 games in 1 file: 0 ok, 3 failed\n"),
        "{}",
        read.stdout
    );
}

/// A large file (read as a stream) that is no record, found among records, is skipped as a
/// small one is, by every command that reads directories.
#[test]
fn a_large_file_that_is_no_record_is_skipped_too() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("games");
    fs::create_dir(&dir).unwrap();
    copy("records/ours/variations.pgn", &dir.join("a.pgn"));
    fs::write(
        dir.join("notes.txt"),
        "Read me before you play. ".repeat(220_000),
    )
    .unwrap();
    let d = dir.to_str().unwrap();
    let validate = xq(&["validate", d, "-q"]);
    assert_eq!(validate.code, 0, "{}", validate.stdout);
    assert!(
        validate.stdout.contains("notes.txt: skipped"),
        "{}",
        validate.stdout
    );
    let out = tmp.path().join("set");
    let dataset = xq(&[
        "dataset",
        d,
        "-o",
        out.to_str().unwrap(),
        "--format",
        "jsonl",
    ]);
    assert_eq!(dataset.code, 0, "{}{}", dataset.stdout, dataset.stderr);
    assert!(
        dataset.stdout.contains("notes.txt: skipped"),
        "{}",
        dataset.stdout
    );
    let conv = tmp.path().join("conv");
    let convert = xq(&[
        "convert",
        d,
        "--to",
        "json",
        "-o",
        &format!("{}/", conv.display()),
    ]);
    assert_eq!(convert.code, 0, "{}", convert.stdout);
    assert!(
        convert.stdout.contains("notes.txt: skipped"),
        "{}",
        convert.stdout
    );
}

/// A move's text megabytes long (a file of control bytes) is reported by its start: the report
/// is a few lines, not ten times the input.
#[test]
fn a_huge_move_text_is_shown_cut() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("huge.pgn");
    let mut text = b"[Event \"x\"]\n\n1. ".to_vec();
    text.extend(std::iter::repeat_n(1u8, 3_000_000));
    text.extend(b" *\n");
    fs::write(&path, text).unwrap();
    let run = xq(&["validate", path.to_str().unwrap(), "-q"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stdout.len() < 3_000, "{} bytes", run.stdout.len());
    let first = run.stdout.lines().next().unwrap();
    assert!(
        first.contains("…: cannot read `") && first.contains("too long for a move"),
        "{first}"
    );
    let jsonl = xq(&[
        "validate",
        path.to_str().unwrap(),
        "-q",
        "--format",
        "jsonl",
    ]);
    assert!(jsonl.stdout.len() < 3_000, "{} bytes", jsonl.stdout.len());
    let rows = support::jsonl(&jsonl);
    let message = rows[0]["error"]["message"].as_str().unwrap();
    assert!(message.len() < 400, "{message}");
    // The audit and the ruling say what the record writes the same way.
    for command in [
        vec!["limit", path.to_str().unwrap()],
        vec!["judge", path.to_str().unwrap()],
        vec!["judge", path.to_str().unwrap(), "--format", "json"],
    ] {
        let run = xq(&command);
        assert!(
            run.stdout.len() < 5_000,
            "{command:?}: {} bytes",
            run.stdout.len()
        );
    }
}

/// An output file's directory is never made up: a mistyped `-o` fails (exit 3) and creates
/// nothing, while a directory target (ending in `/`) is made, its tree below as needed.
#[test]
fn an_output_file_needs_its_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("missing/deeper/x.json");
    let input = "fixtures/records/ours/variations.pgn";
    let run = xq(&[
        "convert",
        input,
        "--to",
        "json",
        "-o",
        file.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 3, "{}", run.stdout);
    assert!(
        run.stdout.contains("its directory does not exist"),
        "{}",
        run.stdout
    );
    assert!(!tmp.path().join("missing").exists());
    let run = xq(&["render", input, "-o", file.to_str().unwrap()]);
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert!(!tmp.path().join("missing").exists());
    let dir = tmp.path().join("made/below");
    let run = xq(&[
        "convert",
        "fixtures/records/ours",
        "--to",
        "json",
        "-o",
        &format!("{}/", dir.display()),
    ]);
    assert_ne!(run.code, 3, "{}", run.stdout);
    assert!(dir.join("variations-wxf.json").is_file(), "{}", run.stdout);
}

#[test]
fn perft_depth_is_capped() {
    let run = xq(&["perft", "--depth", "100000"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("0..=32"), "{}", run.stderr);
}

#[cfg(unix)]
#[test]
fn links_out_of_a_walked_directory_are_listed_not_followed() {
    use std::os::unix::fs::symlink;
    let tmp = tempfile::tempdir().unwrap();
    let outside = tmp.path().join("secret.pgn");
    fs::write(&outside, "root:x:0:0:root:/root:/bin/bash\n").unwrap();
    let dir = tmp.path().join("games");
    fs::create_dir(&dir).unwrap();
    copy("records/ours/variations.pgn", &dir.join("a.pgn"));
    symlink(dir.join("a.pgn"), dir.join("b-inside.pgn")).unwrap();
    symlink(&outside, dir.join("c-outside.pgn")).unwrap();
    symlink(dir.join("nowhere.pgn"), dir.join("d-dangling.pgn")).unwrap();
    symlink(dir.join("e-loop.pgn"), dir.join("e-loop.pgn")).unwrap();
    symlink(tmp.path(), dir.join("f-up")).unwrap();
    let fifo = std::process::Command::new("mkfifo")
        .arg(dir.join("g-fifo.pgn"))
        .status()
        .is_ok_and(|s| s.success());
    let d = dir.to_str().unwrap();
    let run = xq(&["validate", d, "-q"]);
    assert!(!run.stdout.contains("root:x"), "{}", run.stdout);
    let mut said = scrub(&run.stdout, tmp.path());
    if !fifo {
        said = said.replace(
            "TMP/games/g-fifo.pgn: skipped: not a regular file (a FIFO, socket or device)\n",
            "",
        );
    }
    insta::assert_snapshot!("links", said);
    let rows = support::jsonl(&xq(&["validate", d, "-q", "--report", "jsonl"]));
    let skipped = rows
        .iter()
        .filter(|r| r["error"]["kind"] == "skipped")
        .count();
    assert_eq!(skipped, 4 + usize::from(fifo));
    // --follow reads what the links lead to (the secret is then a file that is no record).
    let run = xq(&["validate", d, "-q", "--follow"]);
    assert!(run.stdout.contains("c-outside.pgn"), "{}", run.stdout);
    assert!(
        !run.stdout.contains("out of the directory"),
        "{}",
        run.stdout
    );
    // Named, a link is read as the file it names, as when found inside the directory.
    let named = support::jsonl(&xq(&[
        "validate",
        dir.join("b-inside.pgn").to_str().unwrap(),
        "-q",
        "--report",
        "jsonl",
    ]));
    let found: Vec<_> = rows
        .iter()
        .filter(|r| r["file"].as_str().unwrap().ends_with("b-inside.pgn"))
        .collect();
    assert_eq!(named.len(), found.len());
    assert_eq!(named[0]["ok"], found[0]["ok"]);
}

#[cfg(unix)]
#[test]
fn with_follow_each_directory_is_walked_once() {
    use std::os::unix::fs::symlink;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("games");
    fs::create_dir_all(dir.join("sub")).unwrap();
    copy("records/ours/variations.pgn", &dir.join("a.pgn"));
    copy("records/ours/variations.pgn", &dir.join("sub/b.pgn"));
    // A link to a directory the walk also meets by its name (after the link, in name order),
    // and a link back up to the directory given: each file is read once.
    symlink(dir.join("sub"), dir.join("lnk")).unwrap();
    symlink(&dir, dir.join("sub/up")).unwrap();
    let rows = support::jsonl(&xq(&[
        "validate",
        dir.to_str().unwrap(),
        "-q",
        "--follow",
        "--report",
        "jsonl",
    ]));
    let mut files: Vec<_> = rows
        .iter()
        .filter_map(|r| r["file"].as_str())
        .map(|f| scrub(f, tmp.path()))
        .collect();
    files.dedup();
    assert_eq!(files, ["TMP/games/a.pgn", "TMP/games/lnk/b.pgn"]);
}

#[test]
fn the_json_report_is_streamed_as_the_document_it_was() {
    for path in [
        "fixtures/records/ours",
        "fixtures/bad",
        "fixtures/bad/fens.fen",
    ] {
        let run = xq(&["validate", path, "-q", "--report", "json"]);
        let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
        assert!(doc["games"].is_array() && doc["summary"]["files"].is_number());
        // Exactly what serde writes for the whole document (rows and summary as values).
        assert_eq!(
            run.stdout,
            format!("{}\n", serde_json::to_string_pretty(&doc).unwrap()),
            "{path}"
        );
    }
}

#[test]
fn the_pgn_writer_says_it_changed_a_closing_brace() {
    let tmp = tempfile::tempdir().unwrap();
    let json = tmp.path().join("brace.json");
    fs::write(
        &json,
        r#"{"tags": [["Event", "x"]], "moves": [{"text": "炮二平五", "comment": "a } inside"}]}"#,
    )
    .unwrap();
    let run = xq(&[
        "convert",
        json.to_str().unwrap(),
        "--to",
        "pgn",
        "--out",
        "-",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("{a ) inside}"), "{}", run.stdout);
    assert!(
        run.stderr.contains("dropped: } in comments"),
        "{}",
        run.stderr
    );
}

#[cfg(unix)]
#[test]
fn ctrl_c_leaves_no_temporary_file() {
    let tmp = tempfile::tempdir().unwrap();
    // Big enough to be interrupted while its output is written.
    let game = fs::read_to_string("fixtures/records/ours/variations.pgn").unwrap();
    let input = tmp.path().join("big.pgn");
    fs::write(&input, format!("{game}\n").repeat(40_000)).unwrap();
    let out = tmp.path().join("out");
    fs::create_dir(&out).unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_xq"))
        .args(["convert", input.to_str().unwrap(), "--to", "json", "--out"])
        .arg(out.join("big.json"))
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let temporary = || {
        fs::read_dir(&out).unwrap().any(|e| {
            e.unwrap()
                .file_name()
                .to_string_lossy()
                .ends_with(".xq-tmp")
        })
    };
    let started = std::time::Instant::now();
    while !temporary() {
        if child.try_wait().unwrap().is_some() || started.elapsed().as_secs() > 60 {
            return; // finished before it could be interrupted: nothing to test here
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130), "{status:?}");
    let left: Vec<_> = fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn a_full_disk_under_standard_output_is_an_error_not_silence() {
    // Standard output is buffered when it is no terminal: a failed write shows at the flush, and
    // must still be reported with exit code 3.
    let Ok(full) = fs::OpenOptions::new().write(true).open("/dev/full") else {
        eprintln!("skipped: no /dev/full on this system");
        return;
    };
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_xq"))
        .args(["validate", "fixtures/records/ccpd"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("xq: cannot write the output: No space left on device"),
        "{stderr}"
    );
}
