//! `xq validate`: replay every game of every file and report.
//!
//! Files are read ahead, checked in parallel (each worker with its own notation reader and its
//! cache) and reported in the order of the inputs as soon as each is ready (see
//! [`super::pipeline`]). A large file is streamed (see `xq_record::stream`) and its games are
//! replayed in parallel in groups while the next group is read.

use std::{
    io::{IsTerminal, Write},
    sync::mpsc,
    time::Instant,
};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;
use xq_notation::{Mode, ReaderPool};
use xq_record::replay::{variation_path, variation_words};
use xq_record::{
    Encoding, Failure, Format, Game, GameReport, GameStream, ReadError, ReadErrorKind, ReadOptions,
    ReportRow, validate_game,
};

use super::{
    inputs::{self, Input},
    pipeline::{self, Loaded},
};
use crate::{
    CliError, ExitStatus,
    args::{ReportFormat, ValidateArgs},
};

pub(crate) fn run(args: &ValidateArgs, out: &mut dyn Write) -> Result<ExitStatus, CliError> {
    let options = args.input.options();
    let mode = if args.strict {
        Mode::Strict
    } else {
        Mode::Lenient
    };
    let pool = super::thread_pool(args.jobs)?;
    // A reader per worker, its syntax cache warm across files.
    let readers = ReaderPool::new(pool.current_num_threads(), mode);
    let mut report = Reporter::new(args.report, out, options);
    let started = Instant::now();
    let each = |input: &Input, checked, report: &mut Reporter<'_>, bar: &ProgressBar| {
        report_checked(input, checked, (options, &readers, &pool), report, bar)
    };
    let bar = std::thread::scope(|s| -> Result<ProgressBar, CliError> {
        let (files, walk): (Box<dyn Iterator<Item = Input> + Send>, _) =
            if args.paths.iter().any(|path| path.is_dir()) {
                // A tree is walked on a thread of its own, the files found handed on in
                // batches as it goes: they are read and checked while the walk goes on (the
                // walk of 31,000 files took a tenth of the run, before any work started, one
                // core idle).
                let (found_tx, found_rx) = mpsc::channel::<Vec<Input>>();
                let walking = s.spawn(move || {
                    let mut batch = Vec::with_capacity(FOUND_AT_ONCE);
                    let collected = inputs::walk(&args.paths, args.follow, |input| {
                        batch.push(input);
                        if batch.len() == FOUND_AT_ONCE {
                            let full =
                                std::mem::replace(&mut batch, Vec::with_capacity(FOUND_AT_ONCE));
                            // (The receiver gone: the work stopped on an error.)
                            let _ = found_tx.send(full);
                        }
                    });
                    let _ = found_tx.send(batch);
                    collected
                });
                (
                    Box::new(found_rx.into_iter().flatten()),
                    Walk::Walking(walking),
                )
            } else {
                // Files named: known at once (and as many threads as files).
                let mut collected = inputs::collect(&args.paths, args.follow);
                let files = std::mem::take(&mut collected.files);
                (Box::new(files.into_iter()), Walk::Walked(collected))
            };
        let mut front = Front::new(walk);
        // Files read ahead and checked in parallel, reported in order; a large file is
        // checked on its own (its games in parallel) when its turn to be reported comes.
        pipeline::for_each_file(
            files,
            pool.current_num_threads(),
            &readers,
            |_, input, loaded, reader| check_placing_bad_moves(input, loaded, options, reader),
            |input, checked| {
                let Some((input, checked)) = front.wait(input, checked) else {
                    return Ok(());
                };
                front.start(&mut report, args.quiet, &each)?;
                each(&input, checked, &mut report, &front.bar)
            },
        )?;
        front.start(&mut report, args.quiet, &each)?;
        Ok(front.bar)
    })?;
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    if !args.quiet {
        let games = report.summary.games;
        let mut err = std::io::stderr().lock();
        let _ = writeln!(
            err,
            "xq: checked {games} {} in {seconds:.2} s ({:.0} games/s, {} threads)",
            plural(games, "game", "games"),
            games as f64 / seconds.max(1e-9),
            pool.current_num_threads()
        );
    }
    report.finish()
}

/// The results of files checked while the inputs are still being walked wait: the report
/// starts with the entries the walk skipped and the paths it could not use, known when it ends.
/// At most this much waits, counted in [`weight`] (then the walk is waited for): a few thousand
/// small files' results, as many games' reports of larger files.
const WAIT_AT_MOST: usize = 4096;

/// What a file's result counts for among those waiting: its games' reports (each bad move of
/// each line and each warning one more), at least one. (Counting files alone let a few thousand
/// files of hundreds of failing games each wait: five times the memory of the run.)
fn weight(checked: &Checked) -> usize {
    let games = match checked {
        Checked::Done(FileResult::Read { games, .. }) => games
            .iter()
            .map(|g| 1 + g.more_errors.len() + g.warnings.len())
            .sum(),
        Checked::Done(FileResult::Failed(_) | FileResult::Skipped(_)) | Checked::Large => 0,
    };
    games.max(1)
}

/// How many files found the walk hands on at once.
const FOUND_AT_ONCE: usize = 64;

/// Writes a file's result, as the pipeline hands it on, to the report (a large file is checked
/// now, with `how`: the reading options, the notation readers and the pool).
fn report_checked(
    input: &Input,
    checked: Checked,
    how: (ReadOptions, &ReaderPool, &rayon::ThreadPool),
    report: &mut Reporter<'_>,
    bar: &ProgressBar,
) -> Result<(), CliError> {
    let (options, readers, pool) = how;
    match checked {
        Checked::Large => check_large(input, options, readers, pool, report, bar)?,
        Checked::Done(result) => report.file(input, result)?,
    }
    // (A hidden bar, as with --quiet or when stderr is no terminal, is not told: its count and
    // a message made for every file cost more than telling the file's games.)
    if !bar.is_hidden() {
        bar.inc(1);
        bar.set_message(format!("{} games", report.summary.games));
    }
    Ok(())
}

/// The walk of the inputs, as the report sees it.
enum Walk<'s> {
    /// Going on, on a thread of its own.
    Walking(std::thread::ScopedJoinHandle<'s, inputs::Collected>),
    /// Over, the report not started.
    Walked(inputs::Collected),
    /// Over, the report started.
    Reported,
}

/// The start of the report, while the inputs are walked.
struct Front<'s> {
    walk: Walk<'s>,
    /// Files checked before the report started, in order.
    waiting: Vec<(Input, Checked)>,
    /// Their [`weight`].
    waiting_weight: usize,
    /// The progress bar, made when the number of files is known.
    bar: ProgressBar,
}

impl<'s> Front<'s> {
    fn new(walk: Walk<'s>) -> Front<'s> {
        Front {
            walk,
            waiting: Vec::new(),
            waiting_weight: 0,
            bar: ProgressBar::hidden(),
        }
    }

    /// `input`'s result back if the report has started or may start now, else kept waiting.
    fn wait(&mut self, input: Input, checked: Checked) -> Option<(Input, Checked)> {
        match &self.walk {
            Walk::Walking(walking)
                if !walking.is_finished() && self.waiting_weight < WAIT_AT_MOST =>
            {
                self.waiting_weight += weight(&checked);
                self.waiting.push((input, checked));
                None
            }
            _ => Some((input, checked)),
        }
    }

    /// Starts the report when it has not started, once the walk is over (waiting for it): the
    /// entries skipped, the paths that cannot be used, then the files checked meanwhile
    /// (`each`).
    fn start(
        &mut self,
        report: &mut Reporter<'_>,
        quiet: bool,
        each: &impl Fn(&Input, Checked, &mut Reporter<'_>, &ProgressBar) -> Result<(), CliError>,
    ) -> Result<(), CliError> {
        let collected = match std::mem::replace(&mut self.walk, Walk::Reported) {
            Walk::Reported => return Ok(()),
            Walk::Walked(collected) => collected,
            Walk::Walking(walking) => walking
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
        };
        collected.something()?;
        report.header()?;
        for s in &collected.skipped {
            report.skipped_entry(&s.display, &s.why)?;
        }
        for m in &collected.missing {
            let failure = Failure::whole("io", format!("cannot read it: {}", m.error));
            report.file_failure(&m.display, &failure)?;
        }
        self.bar = progress_bar(collected.found as u64, quiet);
        for (input, checked) in std::mem::take(&mut self.waiting) {
            each(&input, checked, report, &self.bar)?;
        }
        Ok(())
    }
}

fn progress_bar(len: u64, quiet: bool) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(
        "{bar:40} {pos}/{len} files, {msg} [{elapsed_precise}, ETA {eta}]",
    ) {
        bar.set_style(style);
    }
    bar
}

/// Replays a game for `validate`: only the report is kept.
fn report_only(
    index: usize,
    mut item: Result<Game, ReadError>,
    reader: &mut xq_notation::Reader,
) -> GameReport {
    validate_game(index, &mut item, reader)
}

/// What checking one file found.
pub(crate) enum FileResult<G = GameReport> {
    /// The file was read: its format, encoding, and each game as replayed.
    Read {
        format: Format,
        encoding: Option<Encoding>,
        games: Vec<G>,
        not_games: usize,
    },
    /// Nothing in the file could be read.
    Failed(Failure),
    /// A file found in a directory that is not a game record.
    Skipped(String),
}

/// A file checked in one task, or one too large for that (its games are checked in parallel
/// groups when its turn comes).
pub(crate) enum Checked<G = GameReport> {
    Done(FileResult<G>),
    Large,
}

impl<G> FileResult<G> {
    /// A file that could not be opened as a record (`err`): skipped when it was found in a
    /// directory among records, shares its extension with other files and is no record at all;
    /// failed otherwise (a damaged record, or a file named on the command line).
    pub(crate) fn not_opened(input: &Input, err: &ReadError) -> FileResult<G> {
        if input.may_not_be_a_record() && err.is_not_a_record() {
            FileResult::Skipped(err.why_skipped())
        } else {
            FileResult::Failed(Failure::from(err))
        }
    }
}

/// Checks a file that is not large for `validate`, as the pipeline's readers brought it. Its
/// moves are read without their places in the file (in GBK, Big5 or UTF-16, placing every move
/// cost 8% of the time of checking an archive; see [`ReadOptions::unplaced_moves`]), and the
/// file is checked again, placing them, only if a bad move's place is then missing: the report
/// is the same, for a fraction of the work.
fn check_placing_bad_moves(
    input: &Input,
    loaded: Loaded,
    options: ReadOptions,
    reader: &mut xq_notation::Reader,
) -> Checked {
    let Loaded::Bytes(bytes) = loaded else {
        return check_loaded(input, loaded, options, reader, report_only);
    };
    let unplaced = ReadOptions {
        unplaced_moves: true,
        ..options
    };
    let checked = check_bytes(input, &bytes, unplaced, reader, report_only);
    let unplaced_bad_move = |games: &[GameReport]| {
        games
            .iter()
            .flat_map(|g| g.error.iter().chain(&g.more_errors))
            .any(|f| f.ply.is_some_and(|ply| ply > 0) && f.offset.is_none())
    };
    // (The text formats whose moves have places; a move of a text read byte for byte, UTF-8
    // throughout, is placed either way.)
    match &checked {
        Checked::Done(FileResult::Read {
            games,
            format: Format::Pgn | Format::Dhtmlxq | Format::Txt,
            ..
        }) if unplaced_bad_move(games) => check_bytes(input, &bytes, options, reader, report_only),
        _ => checked,
    }
}

/// Replays each game of a file that is not large, as the pipeline's readers brought it, with
/// `replay` (given its index, the game as read or why it cannot be, and the thread's reader).
pub(crate) fn check_loaded<G>(
    input: &Input,
    loaded: Loaded,
    options: ReadOptions,
    reader: &mut xq_notation::Reader,
    replay: impl Fn(usize, Result<Game, ReadError>, &mut xq_notation::Reader) -> G,
) -> Checked<G> {
    match loaded {
        Loaded::Bytes(bytes) => check_bytes(input, &bytes, options, reader, replay),
        Loaded::Large => Checked::Large,
        Loaded::Failed(e) => {
            let err = ReadError::new(ReadErrorKind::Io, format!("cannot read the file: {e}"));
            Checked::Done(FileResult::Failed(Failure::from(&err)))
        }
    }
}

/// Replays each game of the file whose bytes are `bytes` (see [`check_loaded`]).
fn check_bytes<G>(
    input: &Input,
    bytes: &[u8],
    options: ReadOptions,
    reader: &mut xq_notation::Reader,
    replay: impl Fn(usize, Result<Game, ReadError>, &mut xq_notation::Reader) -> G,
) -> Checked<G> {
    let file = std::io::Cursor::new(bytes);
    let extension = input.path.extension().and_then(|e| e.to_str());
    let mut stream = match GameStream::from_reader(file, extension, options) {
        Ok(stream) => stream,
        Err(err) => return Checked::Done(FileResult::not_opened(input, &err)),
    };
    let games: Vec<G> = stream
        .by_ref()
        .enumerate()
        .map(|(i, item)| replay(i, item, reader))
        .collect();
    // (The encoding as told once every game is read: a file whose head is ASCII is told
    // further on.)
    let (format, encoding, not_games) =
        (stream.format(), stream.encoding(), stream.not_games().len());
    // (The cheap test first: the extension is looked at only for a file without games.)
    if games.is_empty() && input.may_not_be_a_record() {
        return Checked::Done(FileResult::Skipped("no game record in it".to_owned()));
    }
    Checked::Done(FileResult::Read {
        format,
        encoding,
        games,
        not_games,
    })
}

fn check_large(
    input: &Input,
    options: ReadOptions,
    readers: &ReaderPool,
    pool: &rayon::ThreadPool,
    report: &mut Reporter<'_>,
    bar: &ProgressBar,
) -> Result<(), CliError> {
    let mut stream = match GameStream::open(&input.path, options) {
        Ok(stream) => stream,
        Err(err) => return report.file(input, FileResult::not_opened(input, &err)),
    };
    let format = stream.format();
    report.current = Some((input.path.clone(), options));
    let games = pipeline::for_each_group(
        &mut stream,
        readers,
        pool,
        report_only,
        |games, encoding| {
            for game in &games {
                report.game(input, format, encoding, game)?;
            }
            if !bar.is_hidden() {
                bar.set_message(format!("{} games", report.summary.games));
            }
            Ok(())
        },
    )?;
    if games == 0 {
        return report.file(
            input,
            FileResult::Read {
                format,
                encoding: stream.encoding(),
                games: Vec::new(),
                not_games: stream.not_games().len(),
            },
        );
    }
    report.summary.files += 1;
    Ok(())
}

/// Counts for the summary.
#[derive(Debug, Default, Serialize)]
struct Summary {
    files: usize,
    games: usize,
    ok: usize,
    failed: usize,
    /// Files without a game read: not read at all (exit 3), no record (1), or holding none.
    unreadable_files: usize,
    /// Files found in directories that are not game records.
    skipped_files: usize,
    /// Games with warnings (a wrong Result tag, an implausible start …).
    games_with_warnings: usize,
    /// Records of libraries that are not games (section titles).
    not_games: usize,
    #[serde(skip)]
    io_errors: usize,
}

struct Reporter<'o> {
    format: ReportFormat,
    out: &'o mut dyn Write,
    /// Rows of the JSON report written so far.
    rows: usize,
    summary: Summary,
    /// The file being reported and how it is read: a text report shows the line of an error
    /// with a caret under its place.
    current: Option<(std::path::PathBuf, ReadOptions)>,
    options: ReadOptions,
}

impl<'o> Reporter<'o> {
    fn new(format: ReportFormat, out: &'o mut dyn Write, options: ReadOptions) -> Reporter<'o> {
        Reporter {
            options,
            format,
            out,
            rows: 0,
            summary: Summary::default(),
            current: None,
        }
    }

    /// The line of the current file that `failure` points at, with a caret, in a text report;
    /// whether there was one to show.
    fn show_place(&mut self, failure: &Failure) -> Result<bool, CliError> {
        let (Some((path, options)), Some(offset), Some(line)) =
            (&self.current, failure.offset, failure.line)
        else {
            return Ok(false);
        };
        let snippet = match (failure.ply, &failure.fen, &failure.text) {
            // A start position: under the FEN's fault.
            (Some(0), Some(fen), _) => super::located::start_snippet(
                path,
                fen,
                offset,
                failure.fen_span.map(|(start, end)| start..end),
                Some(line),
                *options,
            ),
            // A move: under its text.
            (Some(_), _, Some(text)) => {
                super::located::written_snippet(path, text, offset, Some(line), *options)
            }
            _ => super::located::snippet_at(path, offset, line, *options),
        };
        if let Some(snippet) = &snippet {
            writeln!(self.out, "{snippet}")?;
        }
        Ok(snippet.is_some())
    }

    /// A line of the text report: control characters from the files shown, not acted on.
    fn say(&mut self, line: &str) -> Result<(), CliError> {
        writeln!(self.out, "{}", xq_core::text::visible(line))?;
        Ok(())
    }

    fn header(&mut self) -> Result<(), CliError> {
        if self.format == ReportFormat::Json {
            self.out.write_all(b"{\n  \"games\": [")?;
        }
        if self.format == ReportFormat::Csv {
            let header = [
                "file",
                "game",
                "ok",
                "ply",
                "kind",
                "move",
                "message",
                "fen",
                "line",
                "variation",
            ]
            .map(str::to_owned);
            self.out.write_all(&csv_record(&header)?)?;
        }
        Ok(())
    }

    fn row(&mut self, row: &ReportRow<'_>) -> Result<(), CliError> {
        match self.format {
            ReportFormat::Jsonl => {
                serde_json::to_writer(&mut *self.out, row).map_err(std::io::Error::from)?;
                writeln!(self.out)?;
            }
            ReportFormat::Json => {
                // Streamed: the document is written as serde would pretty-print it whole.
                // Through a `Value`, as the whole document was: the same order of keys.
                let value = serde_json::to_value(row).map_err(std::io::Error::from)?;
                let body = serde_json::to_string_pretty(&value).map_err(std::io::Error::from)?;
                let lead = if self.rows == 0 { "\n" } else { ",\n" };
                self.out.write_all(lead.as_bytes())?;
                self.out.write_all(indent(&body, "    ", true).as_bytes())?;
                self.rows += 1;
            }
            ReportFormat::Csv => {
                let opt = |v: Option<String>| v.unwrap_or_default();
                // Text from the files: shown (no control characters) and never a formula.
                let text = |v: Option<&str>| {
                    let v = v.unwrap_or_default();
                    xq_core::text::csv_cell(&xq_core::text::visible(v)).into_owned()
                };
                // A row for each bad move (the first of each line that has one), a row for a
                // game without.
                let failures: Vec<Option<&Failure>> = match row.error {
                    Some(first) => std::iter::once(first)
                        .chain(row.more_errors.iter())
                        .map(Some)
                        .collect(),
                    None => vec![None],
                };
                for e in failures {
                    let variation = e.map(|e| variation_path(&e.variation));
                    let record = [
                        text(Some(row.file)),
                        opt(row.game.map(|g| g.to_string())),
                        row.ok.to_string(),
                        opt(e.and_then(|e| e.ply).map(|p| p.to_string())),
                        opt(e.map(|e| e.kind.to_owned())),
                        text(e.and_then(|e| e.text.as_deref())),
                        text(e.map(|e| e.message.as_str())),
                        text(e.and_then(|e| e.fen.as_deref())),
                        opt(e.and_then(|e| e.line).or(row.line).map(|l| l.to_string())),
                        opt(variation),
                    ];
                    self.out.write_all(&csv_record(&record)?)?;
                }
            }
            ReportFormat::Text => {}
        }
        Ok(())
    }

    /// An entry of a directory that is not read (a link out of it, a FIFO …): listed in every
    /// report format (a row with `ok: false` and kind `skipped` in the machine formats), counted
    /// as skipped, not as a failure.
    fn skipped_entry(&mut self, file: &str, why: &str) -> Result<(), CliError> {
        self.summary.skipped_files += 1;
        if self.format == ReportFormat::Text {
            return self.say(&format!("{file}: skipped: {why}"));
        }
        let failure = Failure::whole("skipped", why.to_owned());
        self.file_row(file, &failure)
    }

    /// A file that gives no games.
    fn file_failure(&mut self, file: &str, failure: &Failure) -> Result<(), CliError> {
        self.summary.files += 1;
        self.summary.unreadable_files += 1;
        if failure.kind == "io" {
            self.summary.io_errors += 1;
        }
        if self.format == ReportFormat::Text {
            let place = place(None, failure.line, failure.offset);
            self.say(&format!(
                "{file}{place}: cannot be read: {} [{}]",
                failure.message, failure.kind
            ))?;
            self.show_place(failure)?;
            return Ok(());
        }
        self.file_row(file, failure)
    }

    /// The machine-readable row of a file that gives no game.
    fn file_row(&mut self, file: &str, failure: &Failure) -> Result<(), CliError> {
        self.row(&ReportRow::file_failure(file, failure))
    }

    fn file(&mut self, input: &Input, result: FileResult) -> Result<(), CliError> {
        self.current = Some((input.path.clone(), self.options));
        match result {
            FileResult::Failed(failure) => self.file_failure(input.display(), &failure),
            // (A row of kind `skipped` in the machine formats, as for the entries the walk
            // skips: a file found that is no record is never left out of a report.)
            FileResult::Skipped(why) => self.skipped_entry(input.display(), &why),
            FileResult::Read {
                format,
                encoding,
                games,
                not_games,
            } => {
                self.summary.not_games += not_games;
                if games.is_empty() {
                    let failure =
                        Failure::whole("no_games", format!("no game found in this {format} file"));
                    return self.file_failure(input.display(), &failure);
                }
                self.summary.files += 1;
                for game in &games {
                    self.game(input, format, encoding, game)?;
                }
                Ok(())
            }
        }
    }

    fn game(
        &mut self,
        input: &Input,
        format: Format,
        encoding: Option<Encoding>,
        game: &GameReport,
    ) -> Result<(), CliError> {
        self.summary.games += 1;
        if game.ok {
            self.summary.ok += 1;
        } else {
            self.summary.failed += 1;
        }
        if !game.warnings.is_empty() {
            self.summary.games_with_warnings += 1;
        }
        if self.format == ReportFormat::Text {
            return self.text_game(input, game);
        }
        self.row(&ReportRow::game(input.display(), format, encoding, game))
    }

    fn text_game(&mut self, input: &Input, game: &GameReport) -> Result<(), CliError> {
        if game.error.is_none() && game.more_errors.is_empty() && game.warnings.is_empty() {
            // Nothing to say of it: its file's name for reports is not even made.
            return Ok(());
        }
        let file = input.display();
        let number = game.game + 1;
        for failure in game.error.iter().chain(&game.more_errors) {
            match failure.ply {
                None => {
                    let place = place(Some(number), failure.line, failure.offset);
                    self.say(&format!(
                        "{file}{place}: cannot be read: {} [{}]",
                        failure.message, failure.kind
                    ))?;
                    self.show_place(failure)?;
                }
                Some(0) => {
                    let line = failure
                        .line
                        .map(|l| format!(", line {l}"))
                        .unwrap_or_default();
                    self.say(&format!(
                        "{file}: game {number}{line}: bad start position: {} [{}]",
                        failure.message, failure.kind
                    ))?;
                    // The FEN in the file with a caret under its fault, else the FEN read.
                    if !self.show_place(failure)?
                        && let Some(fen) = &failure.fen
                    {
                        self.say(&format!("  FEN: {}", xq_core::fen::cut(fen, 200)))?;
                    }
                }
                Some(ply) => {
                    let line = failure
                        .line
                        .map(|l| format!(", line {l}"))
                        .unwrap_or_default();
                    let text = failure.text.as_deref().unwrap_or("?");
                    let within = variation_words(&failure.variation);
                    self.say(&format!(
                        "{file}: game {number}{line}: ply {ply}{within}, {text}: {} [{}]",
                        failure.message, failure.kind
                    ))?;
                    self.show_place(failure)?;
                    if let Some(fen) = &failure.fen {
                        self.say(&format!(
                            "  position before: {}",
                            xq_core::fen::cut(fen, 200)
                        ))?;
                    }
                }
            }
        }
        for warning in &game.warnings {
            self.say(&format!("{file}: game {number}: warning: {warning}"))?;
        }
        Ok(())
    }

    fn finish(self) -> Result<ExitStatus, CliError> {
        let s = &self.summary;
        match self.format {
            ReportFormat::Text => {
                let mut line = format!(
                    "{} {} in {} {}: {} ok, {} failed",
                    s.games,
                    plural(s.games, "game", "games"),
                    s.files,
                    plural(s.files, "file", "files"),
                    s.ok,
                    s.failed
                );
                if s.unreadable_files > 0 {
                    line.push_str(&format!(
                        "; {} {} without a game read",
                        s.unreadable_files,
                        plural(s.unreadable_files, "file", "files")
                    ));
                }
                if s.skipped_files > 0 {
                    line.push_str(&format!("; {} skipped", s.skipped_files));
                }
                if s.games_with_warnings > 0 {
                    line.push_str(&format!("; {} with warnings", s.games_with_warnings));
                }
                writeln!(self.out, "{line}")?;
            }
            ReportFormat::Json => {
                let summary = serde_json::to_value(s)
                    .and_then(|v| serde_json::to_string_pretty(&v))
                    .map_err(std::io::Error::from)?;
                let close = if self.rows == 0 { "]" } else { "\n  ]" };
                writeln!(
                    self.out,
                    "{close},\n  \"summary\": {}\n}}",
                    indent(&summary, "  ", false)
                )?;
            }
            ReportFormat::Csv | ReportFormat::Jsonl => {}
        }
        let s = &self.summary;
        Ok(if s.io_errors > 0 {
            ExitStatus::Io
        } else if s.failed > 0 || s.unreadable_files > 0 {
            ExitStatus::Invalid
        } else {
            ExitStatus::Success
        })
    }
}

/// `text`'s lines with `pad` in front (the first too if `first`).
fn indent(text: &str, pad: &str, first: bool) -> String {
    let mut out = String::with_capacity(text.len() + 64);
    for (i, line) in text.lines().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        if i > 0 || first {
            out.push_str(pad);
        }
        out.push_str(line);
    }
    out
}

/// One CSV row, quoted as needed.
fn csv_record(fields: &[String]) -> Result<Vec<u8>, CliError> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(fields)
        .map_err(|e| CliError::from(std::io::Error::other(e)))?;
    w.into_inner()
        .map_err(|e| CliError::from(std::io::Error::other(e.to_string())))
}

fn plural<'a>(n: usize, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 { one } else { many }
}

/// `: game 3, line 12, byte 340` (whatever is known).
fn place(game: Option<usize>, line: Option<u32>, offset: Option<usize>) -> String {
    let mut parts = Vec::new();
    if let Some(g) = game {
        parts.push(format!("game {g}"));
    }
    if let Some(l) = line {
        parts.push(format!("line {l}"));
    }
    if let Some(o) = offset {
        parts.push(format!("byte {o}"));
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!(": {}", parts.join(", "))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use std::path::PathBuf;

    use super::*;

    fn input(name: &str) -> Input {
        Input::new(PathBuf::from(name), PathBuf::from(name), true, true)
    }

    fn skipped(name: &str) -> Checked {
        Checked::Done(FileResult::Skipped(format!("{name} is no record")))
    }

    /// Runs `f` with the front of a report whose walk goes on until `f` drops or sends on the
    /// sender it is given, then gives `walked`.
    fn during_a_walk(walked: inputs::Collected, f: impl FnOnce(&mut Front<'_>, mpsc::Sender<()>)) {
        let (go_tx, go_rx) = mpsc::channel::<()>();
        std::thread::scope(|s| {
            let walking = s.spawn(move || {
                let _ = go_rx.recv();
                walked
            });
            f(&mut Front::new(Walk::Walking(walking)), go_tx);
        });
    }

    /// No more than [`WAIT_AT_MOST`] results wait for a long walk: then the report waits for it
    /// (memory stays bounded whatever the tree).
    #[test]
    fn a_long_walk_is_waited_for_once_enough_results_wait() {
        during_a_walk(inputs::Collected::default(), |front, _go| {
            for _ in 0..WAIT_AT_MOST {
                assert!(front.wait(input("a.txt"), skipped("a.txt")).is_none());
            }
            assert!(front.wait(input("b.txt"), skipped("b.txt")).is_some());
            assert_eq!(front.waiting.len(), WAIT_AT_MOST);
        });
    }

    /// A file of many games counts for each of their reports: few such files wait.
    #[test]
    fn files_of_many_games_wait_fewer() {
        let report = GameReport {
            game: 0,
            ok: false,
            line: None,
            plies: 0,
            lines: 1,
            error: None,
            more_errors: Vec::new(),
            warnings: vec!["a warning".to_owned()],
        };
        let read = || {
            Checked::Done(FileResult::Read {
                format: Format::Pgn,
                encoding: None,
                games: vec![report.clone(); 500],
                not_games: 0,
            })
        };
        during_a_walk(inputs::Collected::default(), |front, _go| {
            // 1,000 each: five wait (4,000 held is still below the bound), the sixth is handed
            // back.
            for _ in 0..WAIT_AT_MOST / 1000 + 1 {
                assert!(front.wait(input("a.pgn"), read()).is_none());
            }
            assert!(front.wait(input("b.pgn"), read()).is_some());
        });
    }

    /// Files checked while the walk goes on wait for it: the report starts with what the walk
    /// skipped, however soon the files were checked, and keeps their order.
    #[test]
    fn files_checked_during_the_walk_are_reported_after_what_it_skipped() {
        let pool = super::super::thread_pool(Some(1)).unwrap();
        let readers = ReaderPool::new(1, Mode::Lenient);
        let options = ReadOptions::default();
        let each = |input: &Input, checked, report: &mut Reporter<'_>, bar: &ProgressBar| {
            report_checked(input, checked, (options, &readers, &pool), report, bar)
        };
        let mut out = Vec::new();
        let mut report = Reporter::new(ReportFormat::Text, &mut out, options);
        let walked = inputs::Collected {
            found: 3,
            skipped: vec![inputs::Skipped {
                display: "fifo.pgn".to_owned(),
                why: "not a regular file".to_owned(),
            }],
            ..inputs::Collected::default()
        };
        during_a_walk(walked, |front, go| {
            for name in ["a.txt", "b.txt"] {
                assert!(front.wait(input(name), skipped(name)).is_none());
            }
            go.send(()).unwrap();
            // Started (waiting for the walk to end): what it skipped, then the files waiting.
            front.start(&mut report, true, &each).unwrap();
            // Then each file's result as it comes.
            let (input, checked) = front.wait(input("c.txt"), skipped("c.txt")).unwrap();
            front.start(&mut report, true, &each).unwrap();
            each(&input, checked, &mut report, &front.bar).unwrap();
        });
        let said = String::from_utf8(out).unwrap();
        assert_eq!(
            said,
            "fifo.pgn: skipped: not a regular file\n\
             a.txt: skipped: a.txt is no record\n\
             b.txt: skipped: b.txt is no record\n\
             c.txt: skipped: c.txt is no record\n"
        );
    }
}
