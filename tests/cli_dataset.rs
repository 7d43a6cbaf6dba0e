//! `xq dataset` and `xq convert --to jsonl`: the part files, their rows read back, the manifest,
//! and that an existing dataset is never replaced silently. (Parquet: `cli_dataset_parquet.rs`,
//! built with `--features parquet`.)

#![allow(clippy::unwrap_used)]

mod support;

use std::path::Path;

use serde_json::Value;
use support::xq;

/// The records of the tests: real games, and the catalogue of broken ones.
const INPUTS: [&str; 2] = ["fixtures/records/ccpd", "fixtures/records/ours"];

fn dataset(out: &Path, extra: &[&str]) -> support::Run {
    let mut args = vec!["dataset"];
    args.extend(INPUTS);
    args.extend(["--out", out.to_str().unwrap()]);
    args.extend(extra);
    xq(&args)
}

fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn manifest(dir: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("_manifest.json")).unwrap()).unwrap()
}

/// The manifest's text with what changes with the build and the fixtures (the version, the
/// hashes) checked and replaced by placeholders.
fn redacted(dir: &Path) -> String {
    let mut text = std::fs::read_to_string(dir.join("_manifest.json")).unwrap();
    let m: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(m["xq_version"], env!("CARGO_PKG_VERSION"));
    text = text.replacen(
        &format!("\"xq_version\": \"{}\"", env!("CARGO_PKG_VERSION")),
        "\"xq_version\": \"[version]\"",
        1,
    );
    for input in m["inputs"].as_array().unwrap() {
        let file = input["file"].as_str().unwrap();
        let want = xq::dataset::sha256_file(&Path::new(env!("CARGO_MANIFEST_DIR")).join(file));
        let hash = input["sha256"].as_str().unwrap();
        assert_eq!(hash, want.unwrap());
        text = text.replacen(hash, "[sha256]", 1);
    }
    text
}

/// Every row of the part files, in order, with the file each came from.
fn rows(dir: &Path, m: &Value) -> Vec<Value> {
    let mut out = Vec::new();
    for shard in m["shards"].as_array().unwrap() {
        let text = std::fs::read_to_string(dir.join(shard["file"].as_str().unwrap())).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len() as u64, shard["rows"].as_u64().unwrap());
        assert!(text.ends_with('\n'));
        out.extend(
            lines
                .iter()
                .map(|l| serde_json::from_str::<Value>(l).unwrap()),
        );
    }
    out
}

#[test]
fn positions_as_json_lines_in_parts_with_a_manifest() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("positions");
    let run = dataset(&out, &["--format", "jsonl", "--shard-size", "100"]);
    // broken.pgn's games fail: each is said, kept in the manifest, and the exit code says so.
    assert_eq!(run.code, 1, "{}", run.stderr);
    insta::assert_snapshot!(
        "dataset_positions_said",
        run.stdout.replace(out.to_str().unwrap(), "[out]")
    );
    let m = manifest(&out);
    insta::assert_snapshot!("dataset_positions_manifest", redacted(&out));
    let shards = m["shards"].as_array().unwrap();
    assert!(shards.len() > 2);
    let mut want: Vec<String> = (0..shards.len())
        .map(|i| format!("part-{i:05}.jsonl"))
        .collect();
    want.push("_manifest.json".to_owned());
    want.sort();
    assert_eq!(names(&out), want);
    for (i, s) in shards.iter().enumerate() {
        assert_eq!(s["file"], format!("part-{i:05}.jsonl"));
        if i + 1 < shards.len() {
            assert_eq!(s["rows"], 100);
        }
    }
    // Every row: its move legal where it stands, its label that move's, its mask the legal moves.
    let rows = rows(&out, &m);
    assert_eq!(rows.len() as u64, m["counts"]["rows"].as_u64().unwrap());
    let vocab = xq::board::vocab::moves();
    let mut plies = std::collections::HashMap::new();
    for r in &rows {
        let pos = xq::Position::from_fen(r["fen"].as_str().unwrap()).unwrap();
        let m: xq::Move = r["move_iccs"].as_str().unwrap().parse().unwrap();
        assert!(pos.is_legal(m), "{r}");
        let label = r["label"].as_u64().unwrap() as usize;
        assert_eq!(vocab[label], m);
        let mask = r["legal_mask"].as_str().unwrap();
        assert_eq!(mask.len(), 2 * xq::board::vocab::PACKED);
        let bit = |i: usize| {
            let byte = u8::from_str_radix(&mask[2 * (i / 8)..2 * (i / 8) + 2], 16).unwrap();
            byte >> (i % 8) & 1 == 1
        };
        let set = (0..xq::board::vocab::SIZE).filter(|&i| bit(i)).count();
        assert_eq!(set, pos.legal_moves().len());
        assert!(bit(label));
        assert_eq!(
            r["halfmove_clock"].as_u64().unwrap(),
            u64::from(pos.halfmoves())
        );
        assert!(["train", "validation"].contains(&r["split"].as_str().unwrap()));
        // Plies count from 1 in each game, in order.
        let ply = plies
            .entry(r["game_id"].as_str().unwrap().to_owned())
            .or_insert(0);
        *ply += 1;
        assert_eq!(r["ply"], *ply);
    }
    // A game that fails keeps its rows up to the fault: broken.pgn's game 5 fails at ply 3.
    assert_eq!(plies["fixtures/records/ours/broken.pgn#4"], 2);
}

#[test]
fn convert_to_jsonl_is_the_games_table() {
    let tmp = tempfile::tempdir().unwrap();
    let by_dataset = tmp.path().join("d");
    let by_convert = tmp.path().join("c");
    let run = dataset(&by_dataset, &["--table", "games", "--format", "jsonl"]);
    assert_eq!(run.code, 1);
    let mut args = vec!["convert"];
    args.extend(INPUTS);
    args.extend(["--to", "jsonl", "--out", by_convert.to_str().unwrap()]);
    let run = xq(&args);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(names(&by_dataset), ["_manifest.json", "part-00000.jsonl"]);
    for name in names(&by_dataset) {
        assert_eq!(
            std::fs::read(by_dataset.join(&name)).unwrap(),
            std::fs::read(by_convert.join(&name)).unwrap(),
            "{name}"
        );
    }
    let m = manifest(&by_convert);
    let rows = rows(&by_convert, &m);
    assert_eq!(m["counts"]["games"], rows.len());
    // A game that cannot be read is a row too (ok false, its error), as Python's read_games
    // yields it.
    let broken: Vec<&Value> = rows
        .iter()
        .filter(|r| r["file"] == "fixtures/records/ours/broken.pgn" && r["ok"] == false)
        .collect();
    let listed = m["failures"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["file"] == "fixtures/records/ours/broken.pgn")
        .count();
    assert_eq!(broken.len(), listed);
    assert_eq!(
        rows.iter().filter(|r| r["ok"] == false).count() as u64,
        m["counts"]["failed_games"].as_u64().unwrap()
    );
    assert!(
        broken
            .iter()
            .any(|r| r["error"].as_str().unwrap().starts_with("syntax: "))
    );
    let first = &rows[0];
    assert_eq!(first["game_id"], "fixtures/records/ccpd/00000007.pgn#0");
    assert_eq!(first["tags"]["Red"], first["red"]);
    assert_eq!(first["moves_chinese"][0], "炮二平五");
    assert_eq!(first["moves_iccs"][0], "h2e2");
}

/// The games table holds a game's tags and main line: converting records into it says what it
/// drops of them, as converting into any other format that cannot hold everything does.
#[test]
fn convert_to_jsonl_says_what_the_table_drops() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("c");
    let input = "fixtures/records/ours/variations.pgn";
    let run = xq(&[
        "convert",
        input,
        "--to",
        "jsonl",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let said = run.stdout.replace(out.to_str().unwrap(), "OUT");
    insta::assert_snapshot!("convert_jsonl_dropped", said);
    // Counted from the record: every variation and every comment, at any depth.
    let json = xq(&["convert", input, "--to", "json", "-o", "-"]);
    let game: Value = serde_json::from_str(&json.stdout).unwrap();
    fn count(line: &Value, lines: &mut usize, comments: &mut usize, top: bool) {
        for node in line.as_array().unwrap() {
            for key in ["comment", "before"] {
                if !top && node.get(key).is_some_and(|c| !c.is_null()) {
                    *comments += 1;
                }
            }
            for v in node["variations"].as_array().into_iter().flatten() {
                *lines += 1;
                count(v, lines, comments, false);
            }
        }
    }
    let (mut lines, mut inside) = (0, 0);
    for g in game["games"].as_array().unwrap() {
        count(&g["moves"], &mut lines, &mut inside, true);
    }
    assert!(lines > 0 && inside > 0, "{}", json.stdout);
    assert!(
        said.contains(&format!("{lines} variation(s) with {inside} comment(s)")),
        "{said}"
    );
    // A dataset is a table by choice: nothing to say.
    let run = xq(&[
        "dataset",
        input,
        "--table",
        "games",
        "--format",
        "jsonl",
        "--out",
        tmp.path().join("d").to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(!run.stdout.contains("dropped"), "{}", run.stdout);
}

#[test]
fn an_existing_dataset_is_kept_without_force_and_replaced_whole_with_it() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("p");
    std::fs::create_dir(&out).unwrap();
    std::fs::write(out.join("notes.txt"), "mine").unwrap();
    assert_eq!(
        dataset(&out, &["--format", "jsonl", "--shard-size", "50"]).code,
        1
    );
    let before = names(&out);
    let parts = before.len() - 2;
    let first = std::fs::read(out.join("part-00000.jsonl")).unwrap();
    let run = dataset(&out, &["--format", "jsonl", "--shard-size", "1000"]);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr.contains("already holds a dataset") && run.stderr.contains("--force"),
        "{}",
        run.stderr
    );
    assert_eq!(names(&out), before);
    assert_eq!(std::fs::read(out.join("part-00000.jsonl")).unwrap(), first);
    // With --force: the new parts, the old ones beyond them removed, other files kept, and no
    // temporary file left.
    let run = dataset(
        &out,
        &["--format", "jsonl", "--shard-size", "1000", "--force"],
    );
    assert_eq!(run.code, 1);
    assert!(parts > 1);
    assert_eq!(
        names(&out),
        ["_manifest.json", "notes.txt", "part-00000.jsonl"]
    );
    assert_eq!(manifest(&out)["options"]["shard_size"], 1000);
}

#[test]
fn options_are_checked_and_flip_shows_red_to_move() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("p");
    let run = dataset(&out, &["--format", "jsonl", "--shard-size", "0"]);
    assert_eq!(run.code, 2);
    let run = dataset(&out, &["--format", "jsonl", "--validation", "1.5"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("--validation"), "{}", run.stderr);
    assert!(!out.exists());
    let run = xq(&[
        "dataset",
        "fixtures/records/ccpd",
        "--out",
        "-",
        "--format",
        "jsonl",
    ]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("not written to standard output"),
        "{}",
        run.stderr
    );
    let run = dataset(&out, &["--format", "jsonl", "--flip", "--validation", "1"]);
    assert_eq!(run.code, 1);
    let m = manifest(&out);
    assert_eq!(m["options"]["flip"], true);
    let rows = rows(&out, &m);
    assert!(rows.iter().all(
        |r| r["fen"].as_str().unwrap().split(' ').nth(1) == Some("w") && r["split"] == "validation"
    ));
}

#[cfg(not(feature = "parquet"))]
#[test]
fn parquet_in_a_build_without_it_says_how_to_build_it() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("p");
    let run = dataset(&out, &[]);
    assert_eq!(run.code, 2);
    insta::assert_snapshot!("dataset_no_parquet", run.stderr);
    assert!(!out.exists());
    let run = xq(&[
        "convert",
        "fixtures/records/ccpd",
        "--to",
        "parquet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("--features parquet"));
}

#[test]
fn a_missing_input_is_said_once_and_in_the_manifest_and_the_rest_written() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("p");
    let run = xq(&[
        "dataset",
        "fixtures/records/no-such-file.pgn",
        "fixtures/records/ccpd/00000007.pgn",
        "--out",
        out.to_str().unwrap(),
        "--format",
        "jsonl",
    ]);
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert_eq!(
        run.stdout.matches("no-such-file.pgn").count(),
        1,
        "{}",
        run.stdout
    );
    let m = manifest(&out);
    assert_eq!(
        m["failures"][0]["file"],
        "fixtures/records/no-such-file.pgn"
    );
    assert_eq!(m["failures"][0]["errors"][0]["kind"], "io");
    assert_eq!(m["counts"]["failed_games"], 1);
    assert!(m["counts"]["rows"].as_u64().unwrap() > 0);
}
