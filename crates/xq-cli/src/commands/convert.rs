//! `xq convert`: read records of any format, write them in another.
//!
//! Each output is written to a temporary file beside its target and then moved into place, so a
//! reader never sees half a file; without `--force` an existing file is never replaced (the move
//! is a hard link, which fails if the target exists). Every input gets a line saying what was
//! written and what the target format could not hold.

use std::{
    collections::HashSet,
    fs,
    io::{self, Write},
    path::{Path, PathBuf},
};

use xq_notation::{ChineseStyle, Notation, Script};
use xq_record::{
    Encoding, Game,
    write::{self, PgnOptions, Written},
    xqf::XqfVersion,
};

use super::{
    inputs::{self, Input},
    output::write_atomically,
};
use crate::{
    CliError, ExitStatus,
    args::{ConvertArgs, OutEncoding, RecordNotation, TargetFormat, XqfFlavour},
};

pub(crate) fn run(args: &ConvertArgs, out: &mut dyn Write) -> Result<ExitStatus, CliError> {
    let (files, missing) = inputs::collect(&args.inputs);
    let mut status = ExitStatus::Success;
    for m in &missing {
        writeln!(out, "{}: cannot read it: {}", m.display, m.error)?;
        status = worse(status, ExitStatus::Io);
    }
    let to_dir = args.out.is_dir()
        || args
            .out
            .as_os_str()
            .to_string_lossy()
            .ends_with(std::path::MAIN_SEPARATOR)
        || files.len() > 1
        || files.iter().any(|f| f.found);
    if to_dir {
        fs::create_dir_all(&args.out).map_err(|source| CliError::Io {
            context: format!("cannot create {}", args.out.display()),
            source,
        })?;
    }
    let mut written = HashSet::new();
    for input in &files {
        let done = convert_one(args, input, to_dir, &mut written, out)?;
        status = worse(status, done);
    }
    if files.is_empty() && missing.is_empty() {
        return Err(CliError::Invalid(
            "no record files found in the inputs".to_owned(),
        ));
    }
    Ok(status)
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

/// Converts one input file; says on `out` what it did.
fn convert_one(
    args: &ConvertArgs,
    input: &Input,
    to_dir: bool,
    written: &mut HashSet<PathBuf>,
    out: &mut dyn Write,
) -> Result<ExitStatus, CliError> {
    let name = &input.display;
    let bytes = match fs::read(&input.path) {
        Ok(bytes) => bytes,
        Err(e) => {
            writeln!(out, "{name}: cannot read it: {e}")?;
            return Ok(ExitStatus::Io);
        }
    };
    let extension_in = input.path.extension().and_then(|e| e.to_str());
    let records = match xq_record::read(&bytes, extension_in, args.input.options()) {
        Ok(records) => records,
        Err(e) if input.may_not_be_a_record() => {
            writeln!(out, "{name}: skipped: not a game record ({})", e.message)?;
            return Ok(ExitStatus::Success);
        }
        Err(e) => {
            writeln!(out, "{name}: cannot be read: {e}")?;
            return Ok(ExitStatus::Invalid);
        }
    };
    let mut status = ExitStatus::Success;
    let mut games: Vec<Game> = Vec::new();
    let mut notes: Vec<String> = Vec::new();
    for (i, item) in records.games.into_iter().enumerate() {
        match item {
            Ok(mut game) => {
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
    if !records.not_games.is_empty() {
        notes.push(format!(
            "{} library entries that are not games (section titles) are not written",
            records.not_games.len()
        ));
    }
    if games.is_empty() {
        writeln!(out, "{name}: no game to write")?;
        for note in &notes {
            writeln!(out, "  {note}")?;
        }
        return Ok(worse(status, ExitStatus::Invalid));
    }
    let target = if to_dir {
        args.out
            .join(&input.relative)
            .with_extension(extension(args.to))
    } else {
        args.out.clone()
    };
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
    for (path, w, count) in outputs {
        let path = unique(path, written);
        if args.skip_existing && path.exists() {
            writeln!(
                out,
                "{name} -> {}: exists, kept (--skip-existing)",
                path.display()
            )?;
            continue;
        }
        match write_atomically(&path, &w.bytes, args.force) {
            Ok(()) => {
                let games_word = if count == 1 { "game" } else { "games" };
                writeln!(out, "{name} -> {}: {count} {games_word}", path.display())?;
                for d in &w.dropped {
                    writeln!(out, "  dropped: {d}")?;
                }
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                writeln!(
                    out,
                    "{name}: {} exists; not replaced (--force replaces it, --skip-existing keeps it quietly)",
                    path.display()
                )?;
                status = worse(status, ExitStatus::Invalid);
            }
            Err(e) => {
                writeln!(out, "{name}: cannot write {}: {e}", path.display())?;
                status = worse(status, ExitStatus::Io);
            }
        }
    }
    for note in &notes {
        writeln!(out, "  {note}")?;
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

/// `path`, or `name-2.ext`, `name-3.ext` … if this run already wrote `path` (two inputs that
/// differ only in their extension).
fn unique(path: PathBuf, written: &mut HashSet<PathBuf>) -> PathBuf {
    let mut candidate = path.clone();
    let mut n = 2;
    while written.contains(&candidate) {
        candidate = with_suffix(&path, &format!("-{n}"));
        n += 1;
    }
    written.insert(candidate.clone());
    candidate
}
