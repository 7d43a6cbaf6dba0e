//! Helpers shared by the end-to-end tests.

#![allow(dead_code, clippy::unwrap_used)]

use std::path::{Path, PathBuf};

/// The shared reference data: `../shared` beside the project (where every checkout and CI have
/// it), or where `XQ_SHARED` says.
pub(crate) fn shared() -> PathBuf {
    let dir = std::env::var_os("XQ_SHARED").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"),
        PathBuf::from,
    );
    assert!(
        dir.join("data").is_dir(),
        "the shared reference data is missing at {}: clone the project beside it or set XQ_SHARED",
        dir.display()
    );
    dir
}

/// Every file below `dir` with extension `ext` (case-insensitive), sorted.
pub(crate) fn files_below(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case(ext))
            {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// A small deterministic generator (xorshift64*), so failures reproduce.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number below `n` (which must not be 0).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Plays up to `plies` random legal moves from `pos`, calling `visit` on every position reached
/// (the first included) until the game ends.
pub(crate) fn playout(
    mut pos: xq_core::Position,
    plies: usize,
    rng: &mut Rng,
    mut visit: impl FnMut(&xq_core::Position),
) {
    for _ in 0..=plies {
        visit(&pos);
        let legal = pos.legal_moves();
        if legal.is_empty() {
            return;
        }
        pos = pos.play(legal[rng.below(legal.len())]).unwrap();
    }
}

/// What a run of `xq` printed and its exit code.
pub(crate) struct Run {
    pub(crate) stdout: String,
    pub(crate) stderr: String,
    pub(crate) code: i32,
}

impl Run {
    /// `(stdout, stderr, code)`.
    pub(crate) fn parts(self) -> (String, String, i32) {
        (self.stdout, self.stderr, self.code)
    }
}

/// Runs `xq` with `args` in the project's root, `stdin` on its standard input.
pub(crate) fn xq_with_input(args: &[&str], stdin: Option<&[u8]>) -> Run {
    use std::{
        io::Write,
        process::{Command, Stdio},
    };
    let mut child = Command::new(env!("CARGO_BIN_EXE_xq"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        // Reports say when they were made: a fixed time keeps the snapshots stable.
        .env("SOURCE_DATE_EPOCH", "1700000000")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    if let Some(bytes) = stdin {
        child.stdin.take().unwrap().write_all(bytes).unwrap();
    }
    drop(child.stdin.take());
    let out = child.wait_with_output().unwrap();
    Run {
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
        code: out.status.code().unwrap_or(-1),
    }
}

/// Runs `xq` with `args` in the project's root.
pub(crate) fn xq(args: &[&str]) -> Run {
    xq_with_input(args, None)
}

/// A repetition case of `fixtures/cases/*.json`.
pub(crate) struct Case {
    pub(crate) id: String,
    pub(crate) start: xq_core::Position,
    pub(crate) moves: Vec<xq_core::Move>,
    pub(crate) verdict: String,
    /// The whole record (labels, notes …).
    pub(crate) raw: serde_json::Value,
}

/// The cases of `fixtures/cases/{name}` (start positions read leniently: composed diagrams may
/// be only implausible).
pub(crate) fn cases(name: &str) -> Vec<Case> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/cases")
        .join(name);
    let all: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    all.as_array()
        .unwrap()
        .iter()
        .map(|c| Case {
            id: c["id"].as_str().unwrap().to_owned(),
            start: xq_core::Position::from_fen_lenient(c["fen"].as_str().unwrap()).unwrap(),
            moves: c["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m.as_str().unwrap().parse().unwrap())
                .collect(),
            verdict: c["verdict"].as_str().unwrap().to_owned(),
            raw: c.clone(),
        })
        .collect()
}

/// The objects of a JSON-lines output, one a line.
pub(crate) fn jsonl(run: &Run) -> Vec<serde_json::Value> {
    run.stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Panics if an object of the JSON `text` has a key twice (`serde_json::Value` keeps the last one
/// silently; strict readers refuse such documents).
pub(crate) fn assert_unique_keys(text: &str) {
    use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

    struct Checked;
    impl<'de> Deserialize<'de> for Checked {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Checked, D::Error> {
            d.deserialize_any(CheckedVisitor)
        }
    }
    struct CheckedVisitor;
    impl<'de> Visitor<'de> for CheckedVisitor {
        type Value = Checked;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("JSON")
        }
        fn visit_bool<E>(self, _: bool) -> Result<Checked, E> {
            Ok(Checked)
        }
        fn visit_i64<E>(self, _: i64) -> Result<Checked, E> {
            Ok(Checked)
        }
        fn visit_u64<E>(self, _: u64) -> Result<Checked, E> {
            Ok(Checked)
        }
        fn visit_f64<E>(self, _: f64) -> Result<Checked, E> {
            Ok(Checked)
        }
        fn visit_str<E>(self, _: &str) -> Result<Checked, E> {
            Ok(Checked)
        }
        fn visit_unit<E>(self) -> Result<Checked, E> {
            Ok(Checked)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Checked, A::Error> {
            while seq.next_element::<Checked>()?.is_some() {}
            Ok(Checked)
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Checked, A::Error> {
            let mut seen = std::collections::HashSet::new();
            while let Some(key) = map.next_key::<String>()? {
                assert!(
                    seen.insert(key.clone()),
                    "the key {key:?} twice in an object"
                );
                map.next_value::<Checked>()?;
            }
            Ok(Checked)
        }
    }
    let mut de = serde_json::Deserializer::from_str(text);
    Checked::deserialize(&mut de).unwrap();
}
