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
    io::{self, IsTerminal, Write},
    path::{Path, PathBuf},
    sync::Mutex,
};

use xq_core::text::{visible, visible_path};
use xq_notation::{ChineseStyle, Mode, Reader, ReaderPool};
use xq_record::{
    Encoding, Game, GameStream, ReadError, ReadErrorKind, replay,
    write::{self, PgnOptions, Written},
    xqf::XqfVersion,
};

use super::{
    inputs::{self, Input},
    output::{Output, Replace},
    pipeline::{self, Loaded},
};
use crate::{
    CliError, ExitStatus,
    args::{ConvertArgs, DatasetFormat, OutEncoding, TargetFormat, XqfFlavour},
};

pub(crate) fn run(args: &ConvertArgs, out: &mut dyn Write) -> Result<ExitStatus, CliError> {
    check_out_encoding(args)?;
    match args.to {
        TargetFormat::Jsonl => return super::dataset::convert(args, DatasetFormat::Jsonl, out),
        TargetFormat::Parquet => return super::dataset::convert(args, DatasetFormat::Parquet, out),
        _ => {}
    }
    if let Some(refused) = binary_to_terminal(args.to, &args.out, io::stdout().is_terminal()) {
        return Err(refused);
    }
    // `--out -`: the records go to standard output, so the report goes to standard error.
    let mut stderr = io::stderr();
    let out: &mut dyn Write = if args.out.as_os_str() == "-" {
        &mut stderr
    } else {
        out
    };
    let collected = inputs::collect(&args.inputs, args.follow);
    let nothing = collected.something();
    let inputs::Collected {
        files,
        missing,
        skipped,
        ..
    } = collected;
    let mut status = ExitStatus::Success;
    for m in &missing {
        writeln!(out, "{}: cannot read it: {}", m.display, m.error)?;
        status = worse(status, ExitStatus::Io);
    }
    for s in &skipped {
        writeln!(out, "{}: skipped: {}", s.display, s.why)?;
    }
    // A device, FIFO or `-` is written to as a stream, never replaced.
    let stream = args.out.as_os_str() == "-"
        || fs::metadata(&args.out).is_ok_and(|m| !m.is_file() && !m.is_dir());
    // A directory target: an existing directory, or a name ending in `/`.
    let to_dir = !stream
        && (args.out.is_dir()
            || args
                .out
                .as_os_str()
                .to_string_lossy()
                .ends_with(std::path::MAIN_SEPARATOR));
    // Otherwise several inputs (or a directory's files) go into the one file or stream.
    let merged = !to_dir && (files.len() > 1 || files.iter().any(|f| f.found));
    if merged && args.to == TargetFormat::Xqf {
        return Err(CliError::Usage(format!(
            "--to xqf: an XQF file holds one game, so {} inputs cannot go into {}: give a directory to -o (an existing one, or a name ending in /)",
            files.len(),
            visible_path(&args.out)
        )));
    }
    if to_dir {
        super::output::create_dir(&args.out)?;
    }
    let mut run = Run {
        inputs: files
            .iter()
            .filter_map(|f| Some((file_id(&f.path)?, f.display().to_owned())))
            .collect(),
        written: Mutex::new(HashMap::new()),
        planned: HashMap::new(),
        stream,
        to_dir,
    };
    if merged {
        status = worse(status, convert_merged(args, &files, &run, out)?);
    } else {
        let targets = if to_dir {
            plan_targets(&files, &args.out, extension(args.to))
        } else {
            vec![args.out.clone(); files.len()]
        };
        if to_dir {
            run.planned = targets
                .iter()
                .zip(&files)
                .map(|(t, f)| (t.clone(), f.display().to_owned()))
                .collect();
        }
        let workers = super::thread_pool(args.jobs)?.current_num_threads();
        // Each file converted to its own output, what it says kept and said in the order of the
        // inputs, so the messages are the same for any number of threads.
        let convert = |i: usize, input: &Input, loaded: Option<Loaded>| {
            let mut said = Vec::new();
            let target = targets[i].clone();
            let done = convert_one(args, input, loaded, target, to_dir, &run, &mut said);
            (said, done)
        };
        let mut say = |(said, done): (Vec<u8>, Result<ExitStatus, CliError>)| {
            out.write_all(&said)?;
            status = worse(status, done?);
            Ok(())
        };
        if stream {
            // A stream (standard output, whose lock the caller may hold) is written on this
            // thread, the inputs one after the other.
            for (i, input) in files.iter().enumerate() {
                say(convert(i, input, None))?;
            }
        } else {
            // Files read ahead and converted in parallel, what they say written in order as soon
            // as it is ready (the pipeline of `validate`); the notation readers are the threads'.
            let readers = ReaderPool::new(workers, Mode::Lenient);
            pipeline::for_each_file(
                files,
                workers,
                &readers,
                |i, input, loaded, _| convert(i, input, Some(loaded)),
                |_, result| say(result),
            )?;
        }
    }
    nothing?;
    Ok(status)
}

/// The refusal to write XQF, which is binary, to standard output when that is a terminal (where
/// `-o` was most likely forgotten: standard output is the default).
fn binary_to_terminal(to: TargetFormat, out: &Path, terminal: bool) -> Option<CliError> {
    (to == TargetFormat::Xqf && out.as_os_str() == "-" && terminal).then(|| {
        CliError::Usage(
            "--to xqf writes a binary file, not shown on a terminal: give -o FILE or -o DIR/ (or send standard output to a file or a pipe)".to_owned(),
        )
    })
}

/// Writes every input into the one output `args.out` (a file target with several inputs): one
/// multi-game file, written atomically; a line per input, then one for the output.
fn convert_merged(
    args: &ConvertArgs,
    files: &[Input],
    run: &Run,
    out: &mut dyn Write,
) -> Result<ExitStatus, CliError> {
    let mut status = ExitStatus::Success;
    let name = match files.len() {
        1 => "1 input".to_owned(),
        n => format!("{n} inputs"),
    };
    let replace = if args.force {
        Replace::Yes
    } else {
        Replace::No
    };
    let Some(output) = open_target(args, &name, &args.out, replace, run, &mut status, out)? else {
        return Ok(status);
    };
    let mut sink = Sink::new(output, files.len() > 1);
    for input in files {
        status = worse(status, convert_into(args, input, &mut sink, out)?);
    }
    sink.close(args, &name, &args.out, run, &mut status, out)?;
    Ok(status)
}

/// What a run knows across its inputs.
struct Run {
    /// Every input file (by identity), with its name for reports: never replaced by an output.
    inputs: HashMap<FileId, String>,
    /// The outputs written so far, with the input each came from.
    written: Mutex<HashMap<PathBuf, String>>,
    /// The output planned for each input in a directory, with the input: another input's
    /// output (`a-001.xqf`, game 1 of `a.pgn`) never takes its name, whichever is done first.
    planned: HashMap<PathBuf, String>,
    /// Whether the outputs go to one stream (then they follow each other).
    stream: bool,
    /// Whether the outputs go into a directory, the tree of directory inputs mirrored below it
    /// (its directories are made as needed; a file's own directory must exist).
    to_dir: bool,
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

const fn extension(to: TargetFormat) -> &'static str {
    match to {
        TargetFormat::Pgn => "pgn",
        TargetFormat::Xqf => "xqf",
        TargetFormat::Dhtmlxq => "ubb",
        TargetFormat::Json => "json",
        TargetFormat::Csv => "csv",
        TargetFormat::Txt => "txt",
        TargetFormat::Jsonl => "jsonl",
        TargetFormat::Parquet => "parquet",
    }
}

/// Games converted together: memory holds a batch, whatever the input's size.
const BATCH: usize = 256;

thread_local! {
    /// A notation reader per thread, its syntax cache warm across games and files (a reader per
    /// game parsed every move's text afresh).
    static READER: std::cell::RefCell<Reader> = std::cell::RefCell::new(Reader::new(Mode::Lenient));
}

/// The readable games of one input, one by one, each resolved; what cannot be read is noted.
struct Games<'s> {
    stream: GameStream<'s>,
    index: usize,
    /// What to say of the input, each with the line of the file it points at (with a caret).
    notes: Vec<(String, Option<String>)>,
    status: ExitStatus,
    /// The input and how it is read, to show where a game that cannot be read goes wrong.
    path: &'s Path,
    options: xq_record::ReadOptions,
}

impl Games<'_> {
    /// The next game that reads (its number from 1), noting those that do not.
    fn next_game(&mut self) -> Option<(usize, Game)> {
        loop {
            let item = self.stream.next()?;
            self.index += 1;
            let i = self.index;
            match item {
                Ok(mut game) => {
                    if let Some(where_) = xq_record::validate::undecodable(&game) {
                        self.notes.push((format!(
                            "game {i}: {where_} holds bytes that are not text in the file's encoding, written as U+FFFD (--encoding gives the right one)"
                        ), None));
                    }
                    // What the record holds and the game cannot: lost in any output, so said.
                    for what in &game.unread {
                        self.notes
                            .push((format!("game {i}: not read from the record: {what}"), None));
                    }
                    // Coordinates for the writers; a start position that cannot be played
                    // loses the moves (the target says so), and is shown where it is written.
                    let replayed =
                        READER.with_borrow_mut(|reader| replay::replay(&mut game, reader));
                    for said in xq_record::validate::how_read(&game, &replayed) {
                        self.notes.push((format!("game {i}: {said}"), None));
                    }
                    // A bad move is kept as the record writes it, with the moves after it (in
                    // a format that holds text: XQF and DhtmlXQ cut the line there, and say
                    // so): said here whatever the target, as `validate` would fail the game.
                    for e in &replayed.errors {
                        let source = e
                            .source_line
                            .map_or_else(String::new, |l| format!(", line {l}"));
                        self.notes.push((
                            format!(
                                "game {i}: ply {}{}{source}, {}: does not replay: {}",
                                e.ply,
                                replay::variation_words(&e.variation),
                                xq_notation::shown(&e.text),
                                e.message
                            ),
                            None,
                        ));
                    }
                    if let Some(why) = replayed.bad_start {
                        let shown = super::located::fen_place(self.path, &game, &why, self.options);
                        self.notes
                            .push((format!("game {i}: {}", why.message), shown));
                    }
                    return Some((i, game));
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
                    let shown = super::located::record_snippet(self.path, &e, self.options);
                    self.notes.push((
                        format!(
                            "game {i} cannot be read and is not written{place}: {}",
                            e.message
                        ),
                        shown,
                    ));
                    self.status = ExitStatus::Invalid;
                }
            }
        }
    }
}

/// Merges what a batch's writer dropped into what the output dropped so far: `game N:` lines
/// (N counted in the batch) named as `game` names the batch's Nth game, counts (`3
/// comment(s)`) added up, other lines once.
fn merge_dropped(all: &mut Vec<String>, batch: Vec<String>, game: impl Fn(usize) -> String) {
    for line in batch {
        if let Some(rest) = line.strip_prefix("game ")
            && let Some((n, tail)) = rest.split_once(':')
            && let Ok(n) = n.parse::<usize>()
        {
            all.push(format!("{}:{tail}", game(n)));
            continue;
        }
        if let Some((n, tail)) = line.split_once(' ')
            && let Ok(n) = n.parse::<usize>()
        {
            let same = all.iter_mut().find(|l| {
                l.split_once(' ')
                    .is_some_and(|(m, t)| t == tail && m.parse::<usize>().is_ok())
            });
            match same {
                Some(l) => {
                    let m: usize = l
                        .split_once(' ')
                        .and_then(|(m, _)| m.parse().ok())
                        .unwrap_or(0);
                    *l = format!("{} {tail}", m + n);
                }
                None => all.push(line),
            }
            continue;
        }
        if !all.contains(&line) {
            all.push(line);
        }
    }
}

/// An input opened for reading its games, with its first game; or the status to give when it
/// gives none (said on `out`).
fn open_input<'a>(
    args: &ConvertArgs,
    input: &'a Input,
    loaded: Option<Loaded>,
    out: &mut dyn Write,
) -> Result<Result<Opened<'a>, ExitStatus>, CliError> {
    let name = input.display();
    // The same reader as `validate`: the same games, encoding and errors. A file the pipeline
    // read is taken from its bytes; a large one (and any outside the pipeline) is streamed.
    let opened = match loaded {
        Some(Loaded::Bytes(bytes)) => {
            let extension = input.path.extension().and_then(|e| e.to_str());
            GameStream::from_reader(io::Cursor::new(bytes), extension, args.input.options())
        }
        Some(Loaded::Failed(e)) => Err(ReadError::new(
            ReadErrorKind::Io,
            format!("cannot read the file: {e}"),
        )),
        Some(Loaded::Large) | None => GameStream::open(&input.path, args.input.options()),
    };
    let stream = match opened {
        Ok(stream) => stream,
        Err(e) if e.kind == ReadErrorKind::Io => {
            writeln!(out, "{name}: cannot read it: {}", visible(&e.message))?;
            return Ok(Err(ExitStatus::Io));
        }
        Err(e) if input.may_not_be_a_record() && e.is_not_a_record() => {
            writeln!(out, "{name}: skipped: {}", visible(&e.why_skipped()))?;
            return Ok(Err(ExitStatus::Success));
        }
        Err(e) => {
            writeln!(out, "{name}: cannot be read: {}", visible(&e.to_string()))?;
            if let Some(shown) =
                super::located::record_snippet(&input.path, &e, args.input.options())
            {
                writeln!(out, "{shown}")?;
            }
            return Ok(Err(ExitStatus::Invalid));
        }
    };
    let not_games = stream.not_games().len();
    let mut games = Games {
        stream,
        index: 0,
        notes: Vec::new(),
        status: ExitStatus::Success,
        path: &input.path,
        options: args.input.options(),
    };
    let Some(first) = games.next_game() else {
        writeln!(out, "{name}: no game to write")?;
        say_notes(&games.notes, out)?;
        return Ok(Err(worse(games.status, ExitStatus::Invalid)));
    };
    Ok(Ok(Opened {
        games,
        not_games,
        first,
    }))
}

/// An input being read: its games, how many library entries are not games, its first game.
struct Opened<'a> {
    games: Games<'a>,
    not_games: usize,
    first: (usize, Game),
}

/// Says what was noted on an input (games not read or not written, library entries that are not
/// games); gives the input's status.
fn finish_input(
    mut games: Games<'_>,
    not_games: usize,
    out: &mut dyn Write,
) -> Result<ExitStatus, CliError> {
    if not_games > 0 {
        games.notes.push((
            format!(
                "{not_games} library entries that are not games (section titles) are not written"
            ),
            None,
        ));
    }
    say_notes(&games.notes, out)?;
    Ok(games.status)
}

/// Reads `input` and hands its games, from the first, to `convert`; then says what was noted on
/// it. Gives the worse of both statuses.
fn with_input(
    args: &ConvertArgs,
    input: &Input,
    loaded: Option<Loaded>,
    out: &mut dyn Write,
    convert: impl FnOnce(&mut Games<'_>, (usize, Game), &mut dyn Write) -> Result<ExitStatus, CliError>,
) -> Result<ExitStatus, CliError> {
    let Opened {
        mut games,
        not_games,
        first,
    } = match open_input(args, input, loaded, out)? {
        Ok(opened) => opened,
        Err(status) => return Ok(status),
    };
    let status = convert(&mut games, first, out)?;
    Ok(worse(status, finish_input(games, not_games, out)?))
}

/// Adds the games of `input` to the one output of a run (a file target with several inputs);
/// says how many it gave.
fn convert_into(
    args: &ConvertArgs,
    input: &Input,
    sink: &mut Sink,
    out: &mut dyn Write,
) -> Result<ExitStatus, CliError> {
    with_input(args, input, None, out, |games, first, out| {
        let n = sink.write_input(args, games, first);
        let games_word = if n == 1 { "game" } else { "games" };
        writeln!(out, "{}: {n} {games_word}", input.display())?;
        Ok(ExitStatus::Success)
    })
}

/// Converts one input file to `target`; says on `out` what it did. Games are read, converted and
/// written a batch at a time, so memory does not grow with the input.
fn convert_one(
    args: &ConvertArgs,
    input: &Input,
    loaded: Option<Loaded>,
    target: PathBuf,
    to_dir: bool,
    run: &Run,
    out: &mut dyn Write,
) -> Result<ExitStatus, CliError> {
    with_input(args, input, loaded, out, |games, first, out| {
        convert_games(
            args,
            input.display(),
            games,
            first,
            target,
            to_dir,
            run,
            out,
        )
    })
}

/// Writes the games of one input to `target` (numbered XQF files in a directory).
#[allow(clippy::too_many_arguments)]
fn convert_games(
    args: &ConvertArgs,
    name: &str,
    games: &mut Games<'_>,
    first: (usize, Game),
    target: PathBuf,
    to_dir: bool,
    run: &Run,
    out: &mut dyn Write,
) -> Result<ExitStatus, CliError> {
    let mut status = ExitStatus::Success;
    let replace = if args.force {
        Replace::Yes
    } else {
        Replace::No
    };
    if args.to == TargetFormat::Xqf {
        // One file per game: `name.xqf`, or `name-001.xqf` … when the input holds several.
        let version = match args.xqf {
            XqfFlavour::Plain => XqfVersion::Plain,
            XqfFlavour::Encrypted => XqfVersion::Encrypted,
        };
        let second = games.next_game();
        if second.is_some() && !to_dir {
            writeln!(
                out,
                "{name}: more than one game, and an XQF file holds one: give a directory to --out"
            )?;
            return Ok(ExitStatus::Invalid);
        }
        let many = second.is_some();
        let mut next = Some(first);
        let mut after = second;
        let mut n = 0;
        while let Some((_, game)) = next {
            n += 1;
            let path = if many {
                numbered(&target, n)
            } else {
                target.clone()
            };
            let w = write::write_xqf(&game, version);
            if let Some(mut output) =
                open_target(args, name, &path, replace, run, &mut status, out)?
            {
                let wrote = output.write_all(&w.bytes);
                close_target(
                    args.skip_existing,
                    name,
                    &path,
                    output,
                    wrote,
                    1,
                    &w.dropped,
                    run,
                    &mut status,
                    out,
                )?;
            }
            next = after.take();
            after = games.next_game();
        }
    } else if let Some(output) = open_target(args, name, &target, replace, run, &mut status, out)? {
        let mut sink = Sink::new(output, false);
        sink.write_input(args, games, first);
        sink.close(args, name, &target, run, &mut status, out)?;
    }
    Ok(status)
}

/// One output being written: games are added a batch at a time, from one input or (a file
/// target with several inputs) from every input in turn.
struct Sink {
    output: Output,
    /// Games written so far.
    count: usize,
    /// What the target format could not hold, merged over the batches.
    dropped: Vec<String>,
    /// How writing has gone (the first error stops it).
    wrote: io::Result<()>,
    /// Whether games of several inputs go into it: then what is said of a game names its input
    /// too (a game is numbered as in its input, as errors in reading it are).
    several: bool,
}

impl Sink {
    fn new(output: Output, several: bool) -> Sink {
        Sink {
            output,
            count: 0,
            dropped: Vec::new(),
            wrote: Ok(()),
            several,
        }
    }

    /// Writes `first` and the rest of `games`, a batch at a time (memory holds a batch whatever
    /// the input's size). A game holding a character the output's encoding cannot hold is not
    /// written: noted with the character and where it stands. Gives the games written.
    fn write_input(
        &mut self,
        args: &ConvertArgs,
        games: &mut Games<'_>,
        first: (usize, Game),
    ) -> usize {
        let encoding = out_encoding(args);
        let notation = args.notation.notation(ChineseStyle::default());
        let before = self.count;
        let mut pending = Some(first);
        while let Some(first_of_batch) = pending.take() {
            if self.wrote.is_err() {
                break;
            }
            let mut batch = vec![first_of_batch];
            while batch.len() < BATCH {
                match games.next_game() {
                    Some(g) => batch.push(g),
                    None => break,
                }
            }
            let mut numbers = Vec::with_capacity(batch.len());
            let batch: Vec<Game> = batch
                .into_iter()
                .filter_map(|(i, game)| {
                    let Some(why) = cannot_hold(args.to, &game, notation, encoding) else {
                        numbers.push(i);
                        return Some(game);
                    };
                    games
                        .notes
                        .push((format!("game {i} is not written: {}", why.0), Some(why.1)));
                    games.status = worse(games.status, ExitStatus::Invalid);
                    None
                })
                .collect();
            if !batch.is_empty() {
                let w = render(args.to, &batch, self.count, notation, encoding);
                let input = self.several.then(|| games.path.display().to_string());
                let game = |n: usize| {
                    let number = numbers.get(n.wrapping_sub(1)).copied().unwrap_or(n);
                    match &input {
                        Some(input) => format!("{} game {number}", visible(input)),
                        None => format!("game {number}"),
                    }
                };
                merge_dropped(&mut self.dropped, w.dropped, game);
                self.count += batch.len();
                self.wrote = self.output.write_all(&w.bytes);
            }
            pending = games.next_game();
        }
        self.count - before
    }

    /// Completes the output and says what it holds.
    fn close(
        mut self,
        args: &ConvertArgs,
        name: &str,
        target: &Path,
        run: &Run,
        status: &mut ExitStatus,
        out: &mut dyn Write,
    ) -> Result<(), CliError> {
        if self.count == 0 {
            // Every game was refused: no empty file in the target's place.
            writeln!(
                out,
                "{name} -> {}: not written: no game could be written",
                visible_path(target)
            )?;
            *status = worse(*status, ExitStatus::Invalid);
            return Ok(());
        }
        if args.to == TargetFormat::Json && self.wrote.is_ok() {
            let tail = xq_record::json::json_tail(true);
            self.wrote = self.output.write_all(tail.as_bytes());
        }
        close_target(
            args.skip_existing,
            name,
            target,
            self.output,
            self.wrote,
            self.count,
            &self.dropped,
            run,
            status,
            out,
        )
    }
}

/// The encoding of text outputs asked for.
fn out_encoding(args: &ConvertArgs) -> Encoding {
    match args.out_encoding {
        None | Some(OutEncoding::Utf8) => Encoding::Utf8,
        Some(OutEncoding::Gbk) => Encoding::Gbk,
        Some(OutEncoding::Big5) => Encoding::Big5,
    }
}

/// Refuses an output encoding the target format does not have: XQF's text is GBK, JSON and the
/// games table's are UTF-8 (a file in another would not be read right by their readers).
fn check_out_encoding(args: &ConvertArgs) -> Result<(), CliError> {
    let (format, fixed) = match args.to {
        TargetFormat::Xqf => ("XQF", Encoding::Gbk),
        TargetFormat::Json => ("JSON", Encoding::Utf8),
        TargetFormat::Jsonl | TargetFormat::Parquet => ("the games table", Encoding::Utf8),
        TargetFormat::Pgn | TargetFormat::Dhtmlxq | TargetFormat::Csv | TargetFormat::Txt => {
            return Ok(());
        }
    };
    match args.out_encoding {
        Some(_) if out_encoding(args) != fixed => Err(CliError::Usage(format!(
            "--out-encoding {}: {format} is written in {} only; leave --out-encoding out",
            out_encoding(args).name(),
            fixed.name()
        ))),
        _ => Ok(()),
    }
}

/// Games `batch`, the `count`-th of the output first, in the target format and `encoding`.
fn render(
    to: TargetFormat,
    batch: &[Game],
    count: usize,
    notation: xq_notation::Notation,
    encoding: Encoding,
) -> Written {
    match to {
        TargetFormat::Pgn => write::write_pgn(batch, PgnOptions { notation, encoding }),
        TargetFormat::Dhtmlxq => recode(write::write_dhtmlxq(batch), encoding),
        TargetFormat::Csv => recode(write::write_csv_part(batch, count, count == 0), encoding),
        TargetFormat::Txt => recode(write::write_txt(batch, notation), encoding),
        // JSON is UTF-8 (RFC 8259).
        TargetFormat::Json | TargetFormat::Xqf | TargetFormat::Jsonl | TargetFormat::Parquet => {
            let mut text = String::new();
            if count == 0 {
                text.push_str(xq_record::json::JSON_HEAD);
            }
            for (i, g) in batch.iter().enumerate() {
                text.push_str(&xq_record::json::json_game(g, count + i == 0));
            }
            Written {
                bytes: text.into_bytes(),
                dropped: Vec::new(),
            }
        }
    }
}

/// Why `game` cannot be written in `encoding` (a character it lacks, which the encoder would
/// turn into a numeric reference such as `&#39532;`, changing the text), and the line of the
/// game as written with a caret under it; `None` when it can.
fn cannot_hold(
    to: TargetFormat,
    game: &Game,
    notation: xq_notation::Notation,
    encoding: Encoding,
) -> Option<(String, String)> {
    if matches!(to, TargetFormat::Json | TargetFormat::Xqf) || encoding == Encoding::Utf8 {
        return None;
    }
    let w = render(to, std::slice::from_ref(game), 1, notation, Encoding::Utf8);
    let text = String::from_utf8_lossy(&w.bytes);
    let (at, c) = xq_record::encoding::unencodable(&text, encoding)?;
    let snippet = xq_core::caret::Snippet::new(&text, at..at + c.len_utf8());
    let simplified = matches!(
        notation,
        xq_notation::Notation::Chinese(style) if style.script == xq_notation::Script::Simplified
    );
    let hint = if encoding == Encoding::Big5 && simplified {
        " (Big5 holds traditional characters: --notation traditional writes the moves in them)"
    } else {
        ""
    };
    Some((
        format!(
            "{} cannot hold `{c}` (U+{:04X}), in line {} of the game as written{hint}",
            encoding.name(),
            u32::from(c),
            snippet.line_number
        ),
        format!("    {}", snippet.render("here").replace('\n', "\n    ")),
    ))
}

/// The notes on an input, each with the line it points at (already shown safely).
fn say_notes(notes: &[(String, Option<String>)], out: &mut dyn Write) -> io::Result<()> {
    for (note, shown) in notes {
        writeln!(out, "  {}", visible(note))?;
        if let Some(shown) = shown {
            writeln!(out, "{shown}")?;
        }
    }
    Ok(())
}

/// Opens `path` for an output of input `name`, unless it must not be written (an input of the
/// run, written already by the run, kept by `--skip-existing`, not replaced without `--force`):
/// then says why and gives `None`.
fn open_target(
    args: &ConvertArgs,
    name: &str,
    path: &Path,
    replace: Replace,
    run: &Run,
    status: &mut ExitStatus,
    out: &mut dyn Write,
) -> Result<Option<Output>, CliError> {
    let shown = visible_path(path);
    if let Some(input) = file_id(path).and_then(|id| run.inputs.get(&id)) {
        writeln!(
            out,
            "{name} -> {shown}: not written: that is the input {input} of this run"
        )?;
        *status = worse(*status, ExitStatus::Invalid);
        return Ok(None);
    }
    if let Some(owner) = run.planned.get(path).filter(|owner| owner.as_str() != name) {
        writeln!(
            out,
            "{name} -> {shown}: not written: that is the output of {owner} in this run"
        )?;
        *status = worse(*status, ExitStatus::Invalid);
        return Ok(None);
    }
    let written = run
        .written
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .get(path)
        .cloned();
    if let Some(from) = written.filter(|_| !run.stream) {
        writeln!(
            out,
            "{name} -> {shown}: not written: this run wrote it from {from}"
        )?;
        *status = worse(*status, ExitStatus::Invalid);
        return Ok(None);
    }
    let exists = fs::symlink_metadata(path).is_ok_and(|m| m.is_file() || m.is_symlink());
    if args.skip_existing && exists {
        writeln!(out, "{name} -> {shown}: exists, kept (--skip-existing)")?;
        return Ok(None);
    }
    let made = match path.parent() {
        Some(parent) if run.to_dir => fs::create_dir_all(parent),
        _ => Ok(()),
    };
    match made.and_then(|()| Output::create(path, replace)) {
        Ok(output) => Ok(Some(output)),
        Err(e) => {
            not_written(args.skip_existing, name, &shown, &e, status, out)?;
            Ok(None)
        }
    }
}

/// Says why an output was not written.
fn not_written(
    skip_existing: bool,
    name: &str,
    shown: &str,
    e: &io::Error,
    status: &mut ExitStatus,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    if e.kind() == io::ErrorKind::AlreadyExists && skip_existing {
        // Another run wrote it meanwhile: as good as found.
        writeln!(out, "{name} -> {shown}: exists, kept (--skip-existing)")?;
    } else if e.kind() == io::ErrorKind::AlreadyExists {
        writeln!(
            out,
            "{name}: {shown} exists; not replaced (--force replaces it, --skip-existing keeps it quietly)"
        )?;
        *status = worse(*status, ExitStatus::Invalid);
    } else {
        writeln!(out, "{name}: cannot write {shown}: {e}")?;
        *status = worse(*status, ExitStatus::Io);
    }
    Ok(())
}

/// Completes an output (`wrote`: how writing into it went) and says what it holds.
#[allow(clippy::too_many_arguments)]
fn close_target(
    skip_existing: bool,
    name: &str,
    path: &Path,
    output: Output,
    wrote: io::Result<()>,
    count: usize,
    dropped: &[String],
    run: &Run,
    status: &mut ExitStatus,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let shown = visible_path(path);
    let finished = wrote.and_then(|()| output.finish());
    match finished {
        Ok(_) => {
            run.written
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .insert(path.to_path_buf(), name.to_owned());
            let games_word = if count == 1 { "game" } else { "games" };
            writeln!(out, "{name} -> {shown}: {count} {games_word}")?;
            for d in dropped {
                writeln!(out, "  dropped: {}", visible(d))?;
            }
        }
        Err(e) => not_written(skip_existing, name, &shown, &e, status, out)?,
    }
    Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;

    /// XQF goes to standard output when that is a file or a pipe, not to a terminal; the text
    /// formats go to a terminal too, and a named output is written whatever standard output is.
    #[test]
    fn xqf_is_not_written_to_a_terminal() {
        let stdout = Path::new("-");
        assert!(binary_to_terminal(TargetFormat::Xqf, stdout, true).is_some());
        assert!(binary_to_terminal(TargetFormat::Xqf, stdout, false).is_none());
        assert!(binary_to_terminal(TargetFormat::Pgn, stdout, true).is_none());
        assert!(binary_to_terminal(TargetFormat::Xqf, Path::new("a.xqf"), true).is_none());
    }
}
