//! `xq dataset` (and `xq convert --to jsonl|parquet`): records as the positions or games table,
//! written as part files of at most `--shard-size` rows and a `_manifest.json`.
//!
//! The tables are `xq_dataset`'s, the definition the Python package uses too, so the JSON lines
//! are the bytes `xq.write_dataset` writes and a Parquet file has its schema. Files are read
//! and replayed as `validate` does (small files in parallel batches, a large one streamed in
//! groups); their rows are encoded in parallel, then cut into parts in order. Each part is
//! written to a temporary file moved into place when complete (`output::Output`), the manifest
//! last; a game that fails is kept (its rows up to the fault), listed in the manifest and
//! reported on the way.

use std::{
    fs,
    io::{BufWriter, Write},
    path::{Path, PathBuf},
};

use rayon::prelude::*;
use xq_core::text::{visible, visible_path};
use xq_dataset::{
    Counts, FailedGame, MANIFEST, Manifest, ManifestInput, ManifestOptions, Options, Row, Shard,
    Source, Table, line_of, part_name,
};
use xq_notation::{Mode, ReaderPool};
use xq_record::{
    Failure, Game, GameReport, GameStream, ReadError, ReadOptions, validate::validate_game,
};

use super::{
    inputs::{self, Input},
    output::{Output, Replace},
    pipeline::{self, Loaded},
    validate::{self, Checked, FileResult},
};
use crate::{
    CliError, ExitStatus,
    args::{ConvertArgs, DatasetArgs, DatasetFormat, TableArg},
};

/// What a dataset run is asked to do.
struct Plan<'a> {
    paths: &'a [PathBuf],
    out: &'a Path,
    table: Table,
    format: DatasetFormat,
    shard_size: u64,
    options: Options,
    force: bool,
    jobs: Option<usize>,
    follow: bool,
    read: ReadOptions,
    /// Whether to say what the table does not hold of the games (comments, variations): when
    /// converting records (`xq convert` promises to say what it drops), not when building a
    /// dataset, whose tables are summaries by design.
    say_dropped: bool,
}

pub(crate) fn run(args: &DatasetArgs, out: &mut dyn Write) -> Result<ExitStatus, CliError> {
    if !(0.0..=1.0).contains(&args.validation) {
        return Err(CliError::Usage(format!(
            "--validation must be a share between 0 and 1, not {}",
            args.validation
        )));
    }
    write_dataset(
        &Plan {
            paths: &args.paths,
            out: &args.out,
            table: match args.table {
                TableArg::Positions => Table::Positions,
                TableArg::Games => Table::Games,
            },
            format: args.format,
            shard_size: args.shard_size,
            options: Options {
                flip: args.flip,
                mirror: args.mirror,
                natures: args.natures,
                validation: args.validation,
            },
            force: args.force,
            jobs: args.jobs,
            follow: args.follow,
            read: args.input.options(),
            say_dropped: false,
        },
        out,
    )
}

/// `xq convert --to jsonl|parquet`: the games table.
pub(crate) fn convert(
    args: &ConvertArgs,
    format: DatasetFormat,
    out: &mut dyn Write,
) -> Result<ExitStatus, CliError> {
    if args.skip_existing {
        return Err(CliError::Usage(
            "--skip-existing does not apply to a dataset (its parts are numbered anew each run): use --force to replace one".to_owned(),
        ));
    }
    write_dataset(
        &Plan {
            paths: &args.inputs,
            out: &args.out,
            table: Table::Games,
            format,
            shard_size: args.shard_size,
            options: Options::default(),
            force: args.force,
            jobs: args.jobs,
            follow: args.follow,
            read: args.input.options(),
            say_dropped: true,
        },
        out,
    )
}

const fn extension(format: DatasetFormat) -> &'static str {
    match format {
        DatasetFormat::Parquet => "parquet",
        DatasetFormat::Jsonl => "jsonl",
    }
}

/// Whether `name` is a part file or the manifest of a dataset (`part-00000.parquet` …).
fn is_dataset_file(name: &str) -> bool {
    if name == MANIFEST {
        return true;
    }
    let Some(rest) = name.strip_prefix("part-") else {
        return false;
    };
    let Some((number, ext)) = rest.split_once('.') else {
        return false;
    };
    number.len() == 5
        && number.bytes().all(|b| b.is_ascii_digit())
        && ["parquet", "jsonl"].contains(&ext)
}

/// The dataset files already in `dir`.
fn dataset_files(dir: &Path) -> Vec<String> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .flatten()
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| is_dataset_file(n))
        .collect();
    names.sort();
    names
}

fn io_error(context: String) -> impl FnOnce(std::io::Error) -> CliError {
    move |source| CliError::Io { context, source }
}

fn write_dataset(plan: &Plan<'_>, out: &mut dyn Write) -> Result<ExitStatus, CliError> {
    #[cfg(not(feature = "parquet"))]
    if plan.format == DatasetFormat::Parquet {
        return Err(CliError::Usage(
            "this xq was built without Parquet: build it with `cargo build --release --features parquet` (or `cargo install --path . --features parquet`), or write JSON lines (`--format jsonl`, `--to jsonl`)".to_owned(),
        ));
    }
    let dir = plan.out;
    if dir.as_os_str() == "-" {
        return Err(CliError::Usage(
            "a dataset is a directory of part files, not written to standard output: give the directory with -o DIR".to_owned(),
        ));
    }
    if dir.exists() && !dir.is_dir() {
        return Err(CliError::Usage(format!(
            "{} is not a directory: a dataset is a directory of part files",
            visible_path(dir)
        )));
    }
    let before = dataset_files(dir);
    if !before.is_empty() && !plan.force {
        return Err(CliError::Invalid(format!(
            "{} already holds a dataset ({}): --force replaces it",
            visible_path(dir),
            before.join(", ")
        )));
    }
    super::output::create_dir(dir)?;

    let collected = inputs::collect(plan.paths, plan.follow);
    collected.something()?;
    let inputs::Collected {
        files,
        missing,
        skipped,
        ..
    } = collected;
    let mut run = DatasetRun {
        plan,
        shards: Shards::new(plan),
        counts: Counts::default(),
        failures: Vec::new(),
        status: ExitStatus::Success,
        dropped: Dropped::default(),
    };
    for s in &skipped {
        writeln!(out, "{}: skipped: {}", s.display, s.why)?;
    }
    for m in &missing {
        run.failed_file(
            &m.display,
            io_failure(format!("cannot read it: {}", m.error)),
            out,
        )?;
        run.status = ExitStatus::Io;
    }
    let pool = super::thread_pool(plan.jobs)?;
    let readers = ReaderPool::new(pool.current_num_threads(), Mode::Lenient);
    let mut hashes = Vec::with_capacity(files.len());
    // Read ahead, replay and encode each small file in parallel; a large one waits for its
    // turn. The hash is of the bytes read (a large file is read again for it).
    pipeline::for_each_file(
        files,
        pool.current_num_threads(),
        &readers,
        |_, input, loaded, reader| {
            let sha256 = match &loaded {
                Loaded::Bytes(bytes) => Some(xq_dataset::sha256_bytes(bytes)),
                Loaded::Large => xq_dataset::sha256_file(&input.path).ok(),
                Loaded::Failed(_) => None,
            };
            let checked = validate::check_loaded(input, loaded, plan.read, reader, keep);
            let encoded = match &checked {
                Checked::Done(FileResult::Read { games, .. }) => {
                    Some(encode_games(input.display(), games, plan))
                }
                _ => None,
            };
            (checked, encoded, sha256)
        },
        |input, (checked, encoded, sha256)| {
            let input = &input;
            hashes.push(ManifestInput {
                file: input.display().to_owned(),
                sha256,
            });
            match checked {
                Checked::Large => run.large(input, plan, &readers, &pool, out)?,
                Checked::Done(FileResult::Skipped(why)) => {
                    writeln!(out, "{}: skipped: {}", input.display(), visible(&why))?;
                }
                Checked::Done(FileResult::Failed(failure)) => {
                    run.failed_file(input.display(), failure, out)?;
                }
                Checked::Done(FileResult::Read { format, games, .. }) => {
                    if games.is_empty() {
                        let failure = Failure::whole(
                            "no_games",
                            format!("no game found in this {format} file"),
                        );
                        return run.failed_file(input.display(), failure, out);
                    }
                    run.games(input.display(), &games, out)?;
                    if let Some(encoded) = encoded {
                        run.write(encoded)?;
                    }
                }
            }
            Ok(())
        },
    )?;
    let shards = run.shards.finish()?;
    run.counts.rows = shards.iter().map(|s| s.rows).sum();
    let manifest = Manifest {
        xq_version: env!("CARGO_PKG_VERSION").to_owned(),
        table: plan.table.name(),
        format: extension(plan.format),
        options: ManifestOptions {
            flip: plan.options.flip,
            mirror: plan.options.mirror,
            validation: plan.options.validation,
            shard_size: plan.shard_size,
            natures: plan.options.natures,
        },
        inputs: hashes,
        counts: run.counts.clone(),
        failures: run.failures,
        shards,
    };
    let path = dir.join(MANIFEST);
    super::output::write_output(&path, manifest.to_json().as_bytes(), Replace::Yes)
        .map_err(io_error(format!("cannot write {}", visible_path(&path))))?;
    // A replaced dataset's parts beyond the new ones would be read with them: removed.
    for name in before {
        if name != MANIFEST && !manifest.shards.iter().any(|s| s.file == name) {
            let stale = dir.join(&name);
            fs::remove_file(&stale)
                .map_err(io_error(format!("cannot remove {}", visible_path(&stale))))?;
        }
    }
    let c = &manifest.counts;
    writeln!(
        out,
        "{}: {} {} rows in {} part file(s) from {} games ({} failed), {}",
        visible_path(dir),
        c.rows,
        plan.table.name(),
        manifest.shards.len(),
        c.games,
        c.failed_games,
        MANIFEST
    )?;
    if plan.say_dropped {
        for what in run.dropped.said(plan.table) {
            writeln!(out, "  dropped: {what}")?;
        }
    }
    Ok(run.status)
}

/// What the rows of the games table do not hold of the games read: the table has a game's
/// tags and main line, not its comments nor its variations.
#[derive(Default)]
struct Dropped {
    variations: usize,
    variation_comments: usize,
    comments: usize,
    glyphs: usize,
}

impl Dropped {
    fn add(&mut self, game: &Game) {
        let (lines, inside) = game.off_main_line();
        self.variations += lines;
        self.variation_comments += inside;
        self.comments += game.comments_on_main_line();
        self.glyphs += xq_record::write::moves_with_glyphs(std::slice::from_ref(game));
    }

    /// What was dropped, in words (nothing when nothing was).
    fn said(&self, table: Table) -> Vec<String> {
        let table = table.name();
        let mut said = Vec::new();
        if self.variations > 0 {
            let with = match self.variation_comments {
                0 => String::new(),
                n => format!(" with {n} comment(s)"),
            };
            said.push(format!(
                "{} variation(s){with}: the {table} table holds the main line only",
                self.variations
            ));
        }
        if self.comments > 0 {
            said.push(format!(
                "{} comment(s): the {table} table has no comments",
                self.comments
            ));
        }
        if self.glyphs > 0 {
            said.push(format!(
                "{} move(s) with annotation glyphs (!?, $14 …): the {table} table has no place for them",
                self.glyphs
            ));
        }
        said
    }
}

fn io_failure(message: String) -> Failure {
    Failure::whole("io", message)
}

/// A game as read and replayed, kept for its rows.
struct Kept {
    game: Game,
    report: GameReport,
}

fn keep(index: usize, mut item: Result<Game, ReadError>, reader: &mut xq_notation::Reader) -> Kept {
    let report = validate_game(index, &mut item, reader);
    Kept {
        game: item.unwrap_or_default(),
        report,
    }
}

/// Rows encoded, or why they could not be (a bug: the rows are built to the schema).
type Encoding = Result<Encoded, String>;

/// Rows encoded for the part files.
enum Encoded {
    /// JSON lines, without their newlines.
    Lines(Vec<String>),
    /// An Arrow record batch.
    #[cfg(feature = "parquet")]
    Batch(xq_dataset::arrow::arrow_array::RecordBatch),
}

impl Encoded {
    fn rows(&self) -> u64 {
        match self {
            Encoded::Lines(lines) => lines.len() as u64,
            #[cfg(feature = "parquet")]
            Encoded::Batch(batch) => batch.num_rows() as u64,
        }
    }
}

/// The rows `feed` gives, encoded for the part files.
fn encode(plan: &Plan<'_>, feed: impl FnOnce(&mut dyn FnMut(Row<'_>))) -> Encoding {
    #[cfg(feature = "parquet")]
    if plan.format == DatasetFormat::Parquet {
        let mut batch = xq_dataset::arrow::BatchBuilder::new(plan.table);
        let mut failed = None;
        feed(&mut |row| {
            if let Err(e) = batch.push(&row) {
                failed.get_or_insert(e);
            }
        });
        // The rows are built to the schema: a failure here is a bug, reported, never a lost row.
        return match failed {
            Some(e) => Err(e.to_string()),
            None => batch
                .finish()
                .map(Encoded::Batch)
                .map_err(|e| e.to_string()),
        };
    }
    let _ = plan;
    let mut lines = Vec::new();
    feed(&mut |row| lines.push(xq_dataset::json_line(&row)));
    Ok(Encoded::Lines(lines))
}

/// The rows of games of one file.
fn encode_games(file: &str, games: &[Kept], plan: &Plan<'_>) -> Encoding {
    encode(plan, |sink| each_row(file, games, plan, sink))
}

fn each_row(file: &str, games: &[Kept], plan: &Plan<'_>, sink: &mut dyn FnMut(Row<'_>)) {
    for g in games {
        let (start, mainline) = line_of(&g.game, &g.report);
        let source = Source {
            file: Some(file),
            index: Some(g.report.game),
            game: &g.game,
            ok: g.report.ok,
            error: g.report.error.as_ref(),
            start: start.as_ref(),
            mainline: &mainline,
        };
        xq_dataset::rows(&source, plan.table, &plan.options, sink);
    }
}

/// What a run has written and found so far.
struct DatasetRun<'a> {
    plan: &'a Plan<'a>,
    shards: Shards<'a>,
    counts: Counts,
    failures: Vec<FailedGame>,
    status: ExitStatus,
    dropped: Dropped,
}

impl DatasetRun<'_> {
    fn write(&mut self, encoded: Encoding) -> Result<(), CliError> {
        let encoded = encoded.map_err(|e| {
            CliError::Invalid(format!(
                "internal error: rows that do not fit the table: {e}"
            ))
        })?;
        self.shards.add(&encoded)
    }

    /// A file that gives no game: one failed game (and, in the games table, a row saying so, as
    /// Python's `read_games` gives one).
    fn failed_file(
        &mut self,
        file: &str,
        failure: Failure,
        out: &mut dyn Write,
    ) -> Result<(), CliError> {
        writeln!(
            out,
            "{file}: cannot be read: {} [{}]",
            visible(&failure.message),
            failure.kind
        )?;
        self.counts.games += 1;
        self.counts.failed_games += 1;
        if self.plan.table == Table::Games {
            let game = Game::default();
            let source = Source {
                file: Some(file),
                index: None,
                game: &game,
                ok: false,
                error: Some(&failure),
                start: None,
                mainline: &[],
            };
            let plan = self.plan;
            self.write(encode(plan, |sink| {
                xq_dataset::rows(&source, Table::Games, &plan.options, sink);
            }))?;
        }
        if self.status == ExitStatus::Success {
            self.status = ExitStatus::Invalid;
        }
        self.failures.push(FailedGame {
            file: Some(file.to_owned()),
            game: None,
            errors: vec![failure],
        });
        Ok(())
    }

    /// Counts the games of a file and notes those that fail.
    fn games(&mut self, file: &str, games: &[Kept], out: &mut dyn Write) -> Result<(), CliError> {
        for g in games {
            self.counts.games += 1;
            if self.plan.say_dropped {
                self.dropped.add(&g.game);
            }
            if g.report.ok {
                continue;
            }
            self.counts.failed_games += 1;
            if self.status == ExitStatus::Success {
                self.status = ExitStatus::Invalid;
            }
            let errors: Vec<Failure> = g
                .report
                .error
                .iter()
                .chain(&g.report.more_errors)
                .cloned()
                .collect();
            if let Some(e) = errors.first() {
                let ply = e.ply.map(|p| format!(", ply {p}")).unwrap_or_default();
                writeln!(
                    out,
                    "{file}: game {}{ply}: {} [{}]",
                    g.report.game + 1,
                    visible(&e.message),
                    e.kind
                )?;
            }
            self.failures.push(FailedGame {
                file: Some(file.to_owned()),
                game: Some(g.report.game),
                errors,
            });
        }
        Ok(())
    }

    /// A large file: streamed, each group of games replayed and encoded in parallel.
    fn large(
        &mut self,
        input: &Input,
        plan: &Plan<'_>,
        readers: &ReaderPool,
        pool: &rayon::ThreadPool,
        out: &mut dyn Write,
    ) -> Result<(), CliError> {
        let mut stream = match GameStream::open(&input.path, plan.read) {
            Ok(stream) => stream,
            Err(err) => {
                return match FileResult::<Kept>::not_opened(input, &err) {
                    FileResult::Skipped(why) => {
                        writeln!(out, "{}: skipped: {}", input.display(), visible(&why))?;
                        Ok(())
                    }
                    _ => self.failed_file(input.display(), Failure::from(&err), out),
                };
            }
        };
        let games = pipeline::for_each_group(&mut stream, readers, pool, keep, |games, _| {
            self.games(input.display(), &games, out)?;
            let encoded: Vec<Encoding> = pool.install(|| {
                games
                    .par_chunks(64)
                    .map(|part| encode_games(input.display(), part, plan))
                    .collect()
            });
            for e in encoded {
                self.write(e)?;
            }
            Ok(())
        })?;
        if games == 0 {
            let failure = Failure::whole(
                "no_games",
                format!("no game found in this {} file", stream.format()),
            );
            return self.failed_file(input.display(), failure, out);
        }
        Ok(())
    }
}

/// The pieces `(start, length)` a chunk of `rows` rows is cut into when the part being written
/// already holds `in_part` rows of at most `shard_size`: the first fills that part, each next
/// one a new part.
fn pieces(in_part: u64, rows: u64, shard_size: u64) -> Vec<(u64, u64)> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut room = shard_size - in_part.min(shard_size);
    while start < rows {
        if room == 0 {
            room = shard_size;
        }
        let take = room.min(rows - start);
        out.push((start, take));
        start += take;
        room -= take;
    }
    out
}

/// A part file being written.
enum Part {
    Lines(BufWriter<Output>),
    #[cfg(feature = "parquet")]
    Parquet(Box<xq_dataset::arrow::ParquetWriter<Output>>),
}

/// The part files of a dataset, written in order.
struct Shards<'a> {
    dir: &'a Path,
    format: DatasetFormat,
    #[cfg(feature = "parquet")]
    table: Table,
    shard_size: u64,
    replace: Replace,
    /// The part being written, its rows so far.
    current: Option<(Part, u64)>,
    done: Vec<Shard>,
}

impl<'a> Shards<'a> {
    fn new(plan: &Plan<'a>) -> Shards<'a> {
        Shards {
            dir: plan.out,
            format: plan.format,
            #[cfg(feature = "parquet")]
            table: plan.table,
            shard_size: plan.shard_size,
            replace: if plan.force {
                Replace::Yes
            } else {
                Replace::No
            },
            current: None,
            done: Vec::new(),
        }
    }

    fn path(&self) -> PathBuf {
        self.dir
            .join(part_name(self.done.len(), extension(self.format)))
    }

    fn error(&self, e: impl std::fmt::Display) -> CliError {
        CliError::Io {
            context: format!("cannot write {}", visible_path(&self.path())),
            source: std::io::Error::other(e.to_string()),
        }
    }

    fn open(&self) -> Result<Part, CliError> {
        let output = Output::create(&self.path(), self.replace).map_err(|e| self.error(e))?;
        Ok(match self.format {
            DatasetFormat::Jsonl => Part::Lines(BufWriter::with_capacity(1 << 20, output)),
            #[cfg(feature = "parquet")]
            DatasetFormat::Parquet => Part::Parquet(Box::new(
                xq_dataset::arrow::ParquetWriter::new(output, self.table)
                    .map_err(|e| self.error(e))?,
            )),
            #[cfg(not(feature = "parquet"))]
            DatasetFormat::Parquet => return Err(self.error("Parquet is not in this build")),
        })
    }

    /// Adds rows, cutting them into parts.
    fn add(&mut self, rows: &Encoded) -> Result<(), CliError> {
        let in_part = self.current.as_ref().map_or(0, |(_, n)| *n);
        for (start, len) in pieces(in_part, rows.rows(), self.shard_size) {
            let (mut part, mut n) = match self.current.take() {
                Some(current) if current.1 < self.shard_size => current,
                Some((full, n)) => {
                    self.close(full, n)?;
                    (self.open()?, 0)
                }
                None => (self.open()?, 0),
            };
            let wrote = match (&mut part, rows) {
                (Part::Lines(w), Encoded::Lines(lines)) => lines
                    [start as usize..(start + len) as usize]
                    .iter()
                    .try_for_each(|l| {
                        w.write_all(l.as_bytes())?;
                        w.write_all(b"\n")
                    })
                    .map_err(|e| self.error(e)),
                #[cfg(feature = "parquet")]
                (Part::Parquet(w), Encoded::Batch(b)) => w
                    .write_batch(&b.slice(start as usize, len as usize))
                    .map_err(|e| self.error(e)),
                #[cfg(feature = "parquet")]
                _ => Err(self.error("rows of another format")),
            };
            wrote?;
            n += len;
            self.current = Some((part, n));
        }
        Ok(())
    }

    fn close(&mut self, part: Part, rows: u64) -> Result<(), CliError> {
        let output = match part {
            Part::Lines(w) => w.into_inner().map_err(|e| self.error(e.error()))?,
            #[cfg(feature = "parquet")]
            Part::Parquet(w) => w.finish().map_err(|e| self.error(e))?,
        };
        output.finish().map_err(|e| self.error(e))?;
        let file = self
            .path()
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        self.done.push(Shard { file, rows });
        Ok(())
    }

    /// Completes the last part; the parts written.
    fn finish(mut self) -> Result<Vec<Shard>, CliError> {
        if let Some((part, n)) = self.current.take() {
            self.close(part, n)?;
        }
        Ok(self.done)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_cut_into_parts_of_the_shard_size() {
        // An empty part takes up to shard_size rows; what does not fit starts new parts.
        assert_eq!(pieces(0, 3, 5), [(0, 3)]);
        assert_eq!(pieces(3, 3, 5), [(0, 2), (2, 1)]);
        assert_eq!(pieces(5, 3, 5), [(0, 3)]);
        assert_eq!(pieces(0, 12, 5), [(0, 5), (5, 5), (10, 2)]);
        assert_eq!(pieces(4, 0, 5), []);
        assert_eq!(pieces(0, 7, 1).len(), 7);
        // Every row lands once, in order, and no part is overfull.
        for shard in 1..7u64 {
            let mut in_part = 0;
            let mut parts = vec![0u64];
            for rows in [0, 1, 5, 2, 9, 3] {
                let mut next = 0;
                for (start, len) in pieces(in_part, rows, shard) {
                    assert_eq!(start, next);
                    next += len;
                    if in_part == shard {
                        parts.push(0);
                        in_part = 0;
                    }
                    in_part += len;
                    if let Some(last) = parts.last_mut() {
                        *last += len;
                    }
                }
                assert_eq!(next, rows);
            }
            assert!(parts.iter().all(|&p| p <= shard));
            assert_eq!(parts.iter().sum::<u64>(), 20);
            assert!(parts[..parts.len() - 1].iter().all(|&p| p == shard));
        }
    }

    #[test]
    fn dataset_files_are_known_by_name() {
        assert!(is_dataset_file("part-00000.parquet"));
        assert!(is_dataset_file("part-12345.jsonl"));
        assert!(is_dataset_file("_manifest.json"));
        assert!(!is_dataset_file("part-0.jsonl"));
        assert!(!is_dataset_file("notes.txt"));
        assert!(!is_dataset_file("part-00000.csv"));
    }
}
