//! `xq convert`: read records of any format, write them in another.
//!
//! Inputs are read with the same reader as `validate` (`GameStream`). Outputs are written by
//! `output::write_output`: a regular file through a temporary file moved into place (never
//! replacing an existing one without `--force`), a device, FIFO or `-` as a stream. An output never
//! replaces an input of the same run (compared by device and inode, so another spelling of the
//! path or a link is caught too), nor another output of the run. Output names are a pure function
//! of the inputs' paths (see `plan_targets`). Every input gets a line saying what was written and
//! what the target format could not hold.

use std::{
    collections::{HashMap, HashSet},
    fs,
    io::{self, Write},
    path::{Path, PathBuf},
};

use xq_core::text::{visible, visible_path};
use xq_notation::{ChineseStyle, Notation, Script};
use xq_record::{
    Encoding, Game, GameStream, ReadErrorKind,
    write::{self, PgnOptions, Written},
    xqf::XqfVersion,
};

use super::{
    inputs::{self, Input},
    output::{Replace, write_output},
};
use crate::{
    CliError, ExitStatus,
    args::{ConvertArgs, OutEncoding, RecordNotation, TargetFormat, XqfFlavour},
};

pub(crate) fn run(args: &ConvertArgs, out: &mut dyn Write) -> Result<ExitStatus, CliError> {
    // `--out -`: the records go to standard output, so the report goes to standard error.
    let mut stderr = io::stderr();
    let out: &mut dyn Write = if args.out.as_os_str() == "-" {
        &mut stderr
    } else {
        out
    };
    let inputs::Collected {
        files,
        missing,
        skipped,
    } = inputs::collect(&args.inputs, args.follow);
    let mut status = ExitStatus::Success;
    for m in &missing {
        writeln!(out, "{}: cannot read it: {}", m.display, m.error)?;
        status = worse(status, ExitStatus::Io);
    }
    for s in &skipped {
        writeln!(out, "{}: skipped: {}", s.display, s.why)?;
    }
    // A device, FIFO or `-` takes every output, one after the other, as a stream.
    let stream = args.out.as_os_str() == "-"
        || fs::metadata(&args.out).is_ok_and(|m| !m.is_file() && !m.is_dir());
    let to_dir = !stream
        && (args.out.is_dir()
            || args
                .out
                .as_os_str()
                .to_string_lossy()
                .ends_with(std::path::MAIN_SEPARATOR)
            || files.len() > 1
            || files.iter().any(|f| f.found));
    if to_dir {
        fs::create_dir_all(&args.out).map_err(|source| CliError::Io {
            context: format!("cannot create {}", visible_path(&args.out)),
            source,
        })?;
    }
    let targets = if to_dir {
        plan_targets(&files, &args.out, extension(args.to))
    } else {
        vec![args.out.clone(); files.len()]
    };
    let mut run = Run {
        inputs: files
            .iter()
            .filter_map(|f| Some((file_id(&f.path)?, f.display.clone())))
            .collect(),
        written: HashMap::new(),
        stream,
    };
    for (input, target) in files.iter().zip(targets) {
        let done = convert_one(args, input, target, to_dir, &mut run, out)?;
        status = worse(status, done);
    }
    if files.is_empty() && missing.is_empty() && skipped.is_empty() {
        return Err(CliError::Invalid(
            "no record files found in the inputs".to_owned(),
        ));
    }
    Ok(status)
}

/// What a run knows across its inputs.
struct Run {
    /// Every input file (by identity), with its name for reports: never replaced by an output.
    inputs: HashMap<FileId, String>,
    /// The outputs written so far, with the input each came from.
    written: HashMap<PathBuf, String>,
    /// Whether the outputs go to one stream (then they follow each other).
    stream: bool,
}

/// A file's identity: device and inode where there are such, else its canonical path (so a path
/// spelled differently, a hard link or a symbolic link is still recognised).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum FileId {
    #[cfg(unix)]
    Inode(u64, u64),
    #[cfg(not(unix))]
    Path(PathBuf),
}

/// The identity of the regular file at `path` (following links), if there is one.
fn file_id(path: &Path) -> Option<FileId> {
    let meta = fs::metadata(path).ok().filter(fs::Metadata::is_file)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        Some(FileId::Inode(meta.dev(), meta.ino()))
    }
    #[cfg(not(unix))]
    {
        drop(meta);
        fs::canonicalize(path).ok().map(FileId::Path)
    }
}

/// The output of each input in a directory: a pure function of the list of inputs (never of what
/// could be read in this run, so a resumed batch finds the same names). `dir/a.pgn` gives
/// `out/dir/a.json`; when two inputs would give the same name (`a.pgn`, `a.xqf`) each keeps its
/// whole name (`a.pgn.json`, `a.xqf.json`); a clash left after that (the same relative path named
/// from two places) is numbered `-2`, `-3` … in the order of the inputs.
fn plan_targets(files: &[Input], out: &Path, ext: &str) -> Vec<PathBuf> {
    let plain: Vec<PathBuf> = files
        .iter()
        .map(|f| f.relative.with_extension(ext))
        .collect();
    let mut count: HashMap<&Path, usize> = HashMap::new();
    for p in &plain {
        *count.entry(p.as_path()).or_default() += 1;
    }
    let mut seen = HashSet::new();
    files
        .iter()
        .zip(&plain)
        .map(|(f, p)| {
            let name = if count.get(p.as_path()).copied().unwrap_or(0) > 1 {
                let mut full = f.relative.file_name().unwrap_or_default().to_os_string();
                full.push(".");
                full.push(ext);
                f.relative.with_file_name(full)
            } else {
                p.clone()
            };
            let mut candidate = name.clone();
            let mut n = 2;
            while !seen.insert(candidate.clone()) {
                candidate = with_suffix(&name, &format!("-{n}"));
                n += 1;
            }
            out.join(candidate)
        })
        .collect()
}

fn worse(a: ExitStatus, b: ExitStatus) -> ExitStatus {
    let rank = |s: ExitStatus| match s {
        ExitStatus::Success => 0,
        ExitStatus::Invalid => 1,
        ExitStatus::Usage => 2,
        ExitStatus::Io => 3,
    };
    if rank(b) > rank(a) { b } else { a }
}

pub(crate) fn notation(n: RecordNotation) -> Notation {
    match n {
        RecordNotation::Chinese => Notation::Chinese(ChineseStyle::default()),
        RecordNotation::Traditional => Notation::Chinese(ChineseStyle {
            script: Script::Traditional,
            ..ChineseStyle::default()
        }),
        RecordNotation::Wxf => Notation::Wxf,
        RecordNotation::Iccs => Notation::Iccs,
    }
}

const fn extension(to: TargetFormat) -> &'static str {
    match to {
        TargetFormat::Pgn => "pgn",
        TargetFormat::Xqf => "xqf",
        TargetFormat::Dhtmlxq => "ubb",
        TargetFormat::Json => "json",
        TargetFormat::Csv => "csv",
        TargetFormat::Txt => "txt",
    }
}

/// Converts one input file to `target`; says on `out` what it did.
fn convert_one(
    args: &ConvertArgs,
    input: &Input,
    target: PathBuf,
    to_dir: bool,
    run: &mut Run,
    out: &mut dyn Write,
) -> Result<ExitStatus, CliError> {
    let name = &input.display;
    // The same reader as `validate`: the same games, encoding and errors.
    let stream = match GameStream::open(&input.path, args.input.options()) {
        Ok(stream) => stream,
        Err(e) if e.kind == ReadErrorKind::Io => {
            writeln!(out, "{name}: cannot read it: {}", visible(&e.message))?;
            return Ok(ExitStatus::Io);
        }
        Err(e) if input.may_not_be_a_record() => {
            writeln!(
                out,
                "{name}: skipped: not a game record ({})",
                visible(&e.message)
            )?;
            return Ok(ExitStatus::Success);
        }
        Err(e) => {
            writeln!(out, "{name}: cannot be read: {}", visible(&e.to_string()))?;
            return Ok(ExitStatus::Invalid);
        }
    };
    let not_games = stream.not_games().len();
    let records = stream;
    let mut status = ExitStatus::Success;
    let mut games: Vec<Game> = Vec::new();
    let mut notes: Vec<String> = Vec::new();
    for (i, item) in records.enumerate() {
        match item {
            Ok(mut game) => {
                if let Some(where_) = xq_record::validate::undecodable(&game) {
                    notes.push(format!(
                        "game {}: {where_} holds bytes that are not text in the file's encoding, written as U+FFFD (--encoding gives the right one)",
                        i + 1
                    ));
                }
                write::resolve_all(&mut game);
                games.push(game);
            }
            Err(e) => {
                let mut place = Vec::new();
                place.extend(e.line.map(|l| format!("line {l}")));
                place.extend(e.offset.map(|o| format!("byte {o}")));
                let place = if place.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", place.join(", "))
                };
                notes.push(format!(
                    "game {} cannot be read and is not written{place}: {}",
                    i + 1,
                    e.message
                ));
                status = ExitStatus::Invalid;
            }
        }
    }
    if not_games > 0 {
        notes.push(format!(
            "{not_games} library entries that are not games (section titles) are not written"
        ));
    }
    if games.is_empty() {
        writeln!(out, "{name}: no game to write")?;
        for note in &notes {
            writeln!(out, "  {}", visible(note))?;
        }
        return Ok(worse(status, ExitStatus::Invalid));
    }
    let encoding = match args.out_encoding {
        OutEncoding::Utf8 => Encoding::Utf8,
        OutEncoding::Gbk => Encoding::Gbk,
    };
    let notation = notation(args.notation);
    // One output per input; for XQF, one per game.
    let one = |w: Written| vec![(target.clone(), w, games.len())];
    let outputs: Vec<(PathBuf, Written, usize)> = match args.to {
        TargetFormat::Pgn => one(write::write_pgn(&games, PgnOptions { notation, encoding })),
        TargetFormat::Dhtmlxq => one(recode(write::write_dhtmlxq(&games), encoding)),
        TargetFormat::Json => one(write::write_json(&games)),
        TargetFormat::Csv => one(recode(write::write_csv(&games), encoding)),
        TargetFormat::Txt => one(recode(write::write_txt(&games, notation), encoding)),
        TargetFormat::Xqf => {
            let version = match args.xqf {
                XqfFlavour::Plain => XqfVersion::Plain,
                XqfFlavour::Encrypted => XqfVersion::Encrypted,
            };
            if games.len() > 1 && !to_dir {
                writeln!(
                    out,
                    "{name}: {} games, and an XQF file holds one: give a directory to --out",
                    games.len()
                )?;
                return Ok(ExitStatus::Invalid);
            }
            let many = games.len() > 1;
            games
                .iter()
                .enumerate()
                .map(|(i, g)| {
                    (
                        if many {
                            numbered(&target, i + 1)
                        } else {
                            target.clone()
                        },
                        write::write_xqf(g, version),
                        1,
                    )
                })
                .collect()
        }
    };
    let replace = if args.force {
        Replace::Yes
    } else {
        Replace::No
    };
    for (path, w, count) in outputs {
        if let Some(input) = file_id(&path).and_then(|id| run.inputs.get(&id)) {
            writeln!(
                out,
                "{name} -> {}: not written: that is the input {input} of this run",
                visible_path(&path)
            )?;
            status = worse(status, ExitStatus::Invalid);
            continue;
        }
        if let Some(from) = run.written.get(&path).filter(|_| !run.stream) {
            writeln!(
                out,
                "{name} -> {}: not written: this run wrote it from {from}",
                visible_path(&path)
            )?;
            status = worse(status, ExitStatus::Invalid);
            continue;
        }
        let exists = fs::symlink_metadata(&path).is_ok_and(|m| m.is_file() || m.is_symlink());
        let kept = |out: &mut dyn Write| {
            writeln!(
                out,
                "{name} -> {}: exists, kept (--skip-existing)",
                visible_path(&path)
            )
        };
        if args.skip_existing && exists {
            kept(out)?;
            continue;
        }
        match write_output(&path, &w.bytes, replace) {
            Ok(_) => {
                run.written.insert(path.clone(), name.clone());
                let games_word = if count == 1 { "game" } else { "games" };
                writeln!(
                    out,
                    "{name} -> {}: {count} {games_word}",
                    visible_path(&path)
                )?;
                for d in &w.dropped {
                    writeln!(out, "  dropped: {}", visible(d))?;
                }
            }
            // Another run wrote it meanwhile: as good as found.
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && args.skip_existing => {
                kept(out)?;
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                writeln!(
                    out,
                    "{name}: {} exists; not replaced (--force replaces it, --skip-existing keeps it quietly)",
                    visible_path(&path)
                )?;
                status = worse(status, ExitStatus::Invalid);
            }
            Err(e) => {
                writeln!(out, "{name}: cannot write {}: {e}", visible_path(&path))?;
                status = worse(status, ExitStatus::Io);
            }
        }
    }
    for note in &notes {
        writeln!(out, "  {}", visible(note))?;
    }
    Ok(status)
}

/// Text outputs other than PGN are written in UTF-8; re-encodes them if asked.
fn recode(w: Written, encoding: Encoding) -> Written {
    if encoding == Encoding::Utf8 {
        return w;
    }
    let text = String::from_utf8_lossy(&w.bytes);
    Written {
        bytes: xq_record::encoding::encode(&text, encoding).into_owned(),
        dropped: w.dropped,
    }
}

/// `dir/name-007.xqf` for game 7 of `dir/name.xqf`.
fn numbered(path: &Path, n: usize) -> PathBuf {
    with_suffix(path, &format!("-{n:03}"))
}

/// `dir/name{suffix}.ext` for `dir/name.ext`.
fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    match path.extension() {
        Some(ext) => path.with_file_name(format!("{stem}{suffix}.{}", ext.to_string_lossy())),
        None => path.with_file_name(format!("{stem}{suffix}")),
    }
}
