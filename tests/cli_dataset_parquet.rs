//! `xq dataset --format parquet` and `xq convert --to parquet`, read back with the parquet
//! crate: the schema is the tables' one definition, and every row equals its JSON line. Built
//! only with the feature: `cargo test --features parquet --test cli_dataset_parquet`.

#![cfg(feature = "parquet")]
#![allow(clippy::unwrap_used)]

mod support;

use std::path::Path;

use serde_json::Value;
use support::xq;
use xq::dataset::{
    Table,
    arrow::{
        arrow_array::{
            Array, FixedSizeBinaryArray, RecordBatch, StringArray, UInt16Array, cast::AsArray,
            types::UInt16Type,
        },
        read_parquet, schema,
    },
};

const INPUTS: [&str; 2] = ["fixtures/records/ccpd", "fixtures/records/ours"];

fn dataset(out: &Path, extra: &[&str]) -> Value {
    let mut args = vec!["dataset"];
    args.extend(INPUTS);
    args.extend(["--out", out.to_str().unwrap()]);
    args.extend(extra);
    let run = xq(&args);
    // The broken records of the fixtures fail (and are kept in the manifest).
    assert_eq!(run.code, 1, "{}", run.stderr);
    serde_json::from_str(&std::fs::read_to_string(out.join("_manifest.json")).unwrap()).unwrap()
}

/// The batches of every part file of a dataset, in order.
fn batches(dir: &Path, m: &Value) -> Vec<RecordBatch> {
    let mut out = Vec::new();
    for shard in m["shards"].as_array().unwrap() {
        let b = read_parquet(&dir.join(shard["file"].as_str().unwrap())).unwrap();
        let rows: usize = b.iter().map(RecordBatch::num_rows).sum();
        assert_eq!(rows as u64, shard["rows"].as_u64().unwrap());
        out.extend(b);
    }
    out
}

fn lines(dir: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(dir.join("part-00000.jsonl")).unwrap();
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn positions_in_parquet_are_the_json_lines_rows() {
    let tmp = tempfile::tempdir().unwrap();
    let pq = tmp.path().join("pq");
    let jl = tmp.path().join("jl");
    let m = dataset(&pq, &["--shard-size", "64"]);
    dataset(&jl, &["--format", "jsonl"]);
    assert_eq!(m["format"], "parquet");
    let shards = m["shards"].as_array().unwrap();
    assert!(shards.len() > 2);
    assert_eq!(shards[0]["file"], "part-00000.parquet");
    let want = lines(&jl);
    let mut i = 0;
    for b in batches(&pq, &m) {
        assert_eq!(b.schema(), schema(Table::Positions));
        let id = b.column_by_name("game_id").unwrap().as_string::<i32>();
        let fen: &StringArray = b.column_by_name("fen").unwrap().as_string::<i32>();
        let label: &UInt16Array = b
            .column_by_name("label")
            .unwrap()
            .as_primitive::<UInt16Type>();
        let mask: &FixedSizeBinaryArray = b
            .column_by_name("legal_mask")
            .unwrap()
            .as_fixed_size_binary();
        let nature = b.column_by_name("nature").unwrap();
        for r in 0..b.num_rows() {
            let w = &want[i];
            assert_eq!(id.value(r), w["game_id"]);
            assert_eq!(fen.value(r), w["fen"]);
            assert_eq!(u64::from(label.value(r)), w["label"].as_u64().unwrap());
            let hex: String = mask.value(r).iter().map(|b| format!("{b:02x}")).collect();
            assert_eq!(hex, w["legal_mask"]);
            assert!(nature.is_null(r));
            i += 1;
        }
    }
    assert_eq!(i, want.len());
    assert_eq!(i as u64, m["counts"]["rows"].as_u64().unwrap());
}

#[test]
fn convert_to_parquet_is_the_games_table() {
    let tmp = tempfile::tempdir().unwrap();
    let pq = tmp.path().join("pq");
    let jl = tmp.path().join("jl");
    let mut args = vec!["convert"];
    args.extend(INPUTS);
    args.extend(["--to", "parquet", "--out", pq.to_str().unwrap()]);
    assert_eq!(xq(&args).code, 1);
    dataset(&jl, &["--table", "games", "--format", "jsonl"]);
    let m: Value =
        serde_json::from_str(&std::fs::read_to_string(pq.join("_manifest.json")).unwrap()).unwrap();
    assert_eq!(m["table"], "games");
    let want = lines(&jl);
    let b = batches(&pq, &m);
    assert_eq!(b.len(), 1);
    let b = &b[0];
    assert_eq!(b.schema(), schema(Table::Games));
    assert_eq!(b.num_rows(), want.len());
    let moves = b.column_by_name("moves_chinese").unwrap().as_list::<i32>();
    let ok = b.column_by_name("ok").unwrap().as_boolean();
    let tags = b.column_by_name("tags").unwrap().as_map();
    for (r, w) in want.iter().enumerate() {
        let got: Vec<String> = moves
            .value(r)
            .as_string::<i32>()
            .iter()
            .map(|s| s.unwrap().to_owned())
            .collect();
        let want_moves: Vec<String> = w["moves_chinese"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_owned())
            .collect();
        assert_eq!(got, want_moves);
        assert_eq!(ok.value(r), w["ok"].as_bool().unwrap());
        assert_eq!(tags.value(r).len(), w["tags"].as_object().unwrap().len());
    }
}
