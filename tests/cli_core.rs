//! End-to-end tests of `xq perft` and `xq fen`: output, errors and exit codes.

#![allow(clippy::unwrap_used)] // tests: a panic is the failure report

mod support;

use support::xq;

#[test]
fn perft_json_contract() {
    let run = xq(&["perft", "--depth", "3", "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v["depth"], 3);
    assert_eq!(v["nodes"], 79_666);
    assert!(v["seconds"].as_f64().unwrap() >= 0.0);
}

#[test]
fn perft_divide_sums_up() {
    let fen = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w";
    let run = xq(&[
        "perft", "--fen", fen, "--depth", "2", "--divide", "--format", "json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let split = v["divide"].as_array().unwrap();
    assert_eq!(split.len(), 38);
    let sum: u64 = split.iter().map(|e| e["nodes"].as_u64().unwrap()).sum();
    assert_eq!(sum, 1128);
    assert_eq!(v["nodes"], 1128);
    let text = xq(&["perft", "--fen", fen, "--depth", "2", "--divide"]);
    assert!(
        text.stdout
            .lines()
            .any(|l| l.starts_with("depth 2 nodes 1128"))
    );
}

#[test]
fn fen_diagram() {
    let run = xq(&[
        "fen",
        "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    insta::assert_snapshot!(run.stdout);
}

#[test]
fn fen_diagram_in_check_and_mate() {
    let run = xq(&["fen", "R3k4/1R7/9/9/9/9/9/9/9/3K5 b"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    insta::assert_snapshot!(run.stdout);
}

#[test]
fn fen_json() {
    let run = xq(&["fen", "--format", "json", "3k5/9/3P5/9/9/9/9/9/9/4K4 b"]);
    assert_eq!(run.code, 0);
    insta::assert_snapshot!(run.stdout, @r#"{"fen":"3k5/9/3P5/9/9/9/9/9/9/4K4 b - - 0 1","turn":"black","check":false,"legal_moves":0,"outcome":"red wins by stalemate (困毙)"}"#);
}

#[test]
fn fen_errors_list_every_problem() {
    let run = xq(&[
        "fen",
        "rnbaxabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN q",
    ]);
    assert_eq!(run.code, 1);
    assert_eq!(run.stdout, "");
    insta::assert_snapshot!(run.stderr);
}

/// A file's name given where a FEN goes is said to be one, here and in an option of another
/// command, rather than each of its characters failing to be a piece.
#[test]
fn a_file_named_for_a_fen_is_said_to_be_a_file() {
    let run = xq(&["fen", "fixtures/example.fen"]);
    assert_eq!(run.code, 1);
    insta::assert_snapshot!(run.stderr, @"xq: invalid FEN: `fixtures/example.fen` names a file; give the FEN itself, in quotes");
    let run = xq(&["move", "--fen", "fixtures/example.fen", "h2e2"]);
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("names a file"), "{}", run.stderr);
    // A FEN that is wrong is still shown with its problems.
    let run = xq(&["fen", "fixtures/no-such.fen"]);
    assert!(run.stderr.contains("not a piece letter"), "{}", run.stderr);
}

#[test]
fn fen_rule_errors() {
    let run = xq(&["fen", "4k4/9/9/9/9/9/9/9/3A5/4K4 w"]);
    assert_eq!(run.code, 1);
    insta::assert_snapshot!(run.stderr);
    let lenient = xq(&["fen", "--lenient", "3k5/9/9/9/9/9/9/9/3A5/4K4 w"]);
    assert_eq!(lenient.code, 0, "{}", lenient.stderr);
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(xq(&["perft"]).code, 2);
    assert_eq!(xq(&["no-such-command"]).code, 2);
    assert_eq!(xq(&["perft", "--depth", "x"]).code, 2);
    // A natural limit of no rounds at all is no limit.
    assert_eq!(xq(&["limit", "--moves", "h2e2", "--rounds", "0"]).code, 2);
    assert_eq!(xq(&["judge", "--moves", "h2e2", "--rounds", "0"]).code, 2);
    assert_eq!(xq(&["--version"]).code, 0);
}

/// A thread count is 1 to 256 for every command that takes one: a mistyped `-j 100000` is told
/// so at once instead of starting 100,000 threads.
#[test]
fn a_thread_count_out_of_range_is_a_usage_error() {
    let records = "fixtures/records";
    for command in [
        vec!["validate", records],
        vec!["convert", records, "--to", "json", "-o", "-"],
        vec!["dataset", records, "-o", "/nonexistent-xq-dataset"],
    ] {
        for jobs in ["0", "257", "100000", "many"] {
            let mut args = command.clone();
            args.extend(["-j", jobs]);
            let run = xq(&args);
            assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
            assert!(run.stderr.contains("1 to 256"), "{args:?}: {}", run.stderr);
        }
    }
    insta::assert_snapshot!(xq(&["validate", records, "-j", "100000"]).stderr);
    // Without -j, RAYON_NUM_THREADS (as rayon reads it) is held to the most as well.
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_xq"))
        .args(["validate", "fixtures/records/ours/variations.pgn"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("RAYON_NUM_THREADS", "1000")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(stderr.contains("256 threads"), "{stderr}");
    let most = xq(&[
        "validate",
        "-q",
        "fixtures/records/ours/variations.pgn",
        "-j",
        "256",
    ]);
    assert_eq!(most.code, 0, "{}", most.stderr);
}

#[test]
fn the_help_lists_every_command_by_who_uses_it() {
    let (help, _, code) = xq(&["--help"]).parts();
    assert_eq!(code, 0);
    // Every command clap knows (as the man page lists them) is in the grouped list, which is
    // written by hand.
    let (man, _, _) = xq(&["man"]).parts();
    let commands: Vec<&str> = man
        .lines()
        .filter_map(|l| l.strip_prefix("xq\\-")?.strip_suffix("(1)"))
        .collect();
    assert!(commands.len() >= 14, "{commands:?}");
    for command in commands {
        assert!(
            help.lines()
                .any(|l| l.trim_start().starts_with(&format!("{command} "))),
            "{command} missing from the help:\n{help}"
        );
    }
    insta::assert_snapshot!("help", help);
}

#[test]
fn completions_and_the_man_page() {
    for shell in ["bash", "zsh", "fish"] {
        let (script, stderr, code) = xq(&["completions", shell]).parts();
        assert_eq!(code, 0, "{stderr}");
        assert!(
            script.contains("banned") && script.contains("judge"),
            "{shell}"
        );
    }
    let (man, _, code) = xq(&["man"]).parts();
    assert_eq!(code, 0);
    assert!(man.contains(".TH xq 1") && man.contains("judge"), "{man}");
}

#[test]
fn one_flag_vocabulary_across_commands() {
    // `--format` chooses every report's format (validate's older `--report` is still read).
    let a = xq(&[
        "validate",
        "fixtures/records/ours",
        "--format",
        "jsonl",
        "-q",
    ]);
    let b = xq(&[
        "validate",
        "fixtures/records/ours",
        "--report",
        "jsonl",
        "-q",
    ]);
    assert_eq!(a.stdout, b.stdout);
    assert!(a.stdout.starts_with('{'), "{}", a.stdout);
    // `--rounds` is the natural limit in judge as in limit.
    let figure = "fixtures/judge/cxa2020-figure-2.txt";
    let a = xq(&["judge", figure, "--rounds", "30", "--format", "json"]);
    let b = xq(&["judge", figure, "--limit-rounds", "30", "--format", "json"]);
    assert_eq!(a.stdout, b.stdout);
    let v: serde_json::Value = serde_json::from_str(&a.stdout).unwrap();
    assert_eq!(v["limit"]["rounds"], 30);
    // `-o`/`--output` name the output everywhere (convert's and dataset's `--out` too).
    let dir = tempfile::tempdir().unwrap();
    let mut written = Vec::new();
    for flag in ["-o", "--output", "--out"] {
        let out = dir.path().join(format!("game{}.pgn", flag.len()));
        let run = xq(&[
            "convert",
            "fixtures/records/ours/variations.pgn",
            "--to",
            "pgn",
            flag,
            out.to_str().unwrap(),
        ]);
        assert_eq!(run.code, 0, "{flag}: {}", run.stderr);
        written.push(std::fs::read(&out).unwrap());
    }
    assert!(written.windows(2).all(|w| w[0] == w[1]));
}

#[test]
fn a_dash_reads_standard_input() {
    let figure = std::fs::read("fixtures/judge/cxa2020-figure-2.txt").unwrap();
    let from_file = xq(&[
        "judge",
        "fixtures/judge/cxa2020-figure-2.txt",
        "--format",
        "json",
    ]);
    let from_stdin = support::xq_with_input(&["judge", "-", "--format", "json"], Some(&figure));
    assert_eq!(from_stdin.code, 0, "{}", from_stdin.stderr);
    assert_eq!(from_stdin.stdout, from_file.stdout);
    let pgn = std::fs::read("fixtures/records/ours/variations.pgn").unwrap();
    let show = support::xq_with_input(&["show", "-"], Some(&pgn));
    assert_eq!(
        show.stdout,
        xq(&["show", "fixtures/records/ours/variations.pgn"]).stdout
    );
    // A bad record from standard input is reported with its place, under the name `…/stdin`.
    let broken = std::fs::read("fixtures/records/ours/broken.pgn").unwrap();
    let run = support::xq_with_input(&["validate", "-", "-q"], Some(&broken));
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stdout.contains("/stdin: game 2, line 9"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("^ here"), "{}", run.stdout);
    let converted =
        support::xq_with_input(&["convert", "-", "--to", "json", "-o", "-"], Some(&pgn));
    assert_eq!(converted.code, 0, "{}", converted.stderr);
    assert!(converted.stdout.contains("\"xq-games\""));
}
