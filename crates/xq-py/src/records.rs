//! Reading game records (`xq.read_games`), validating them (`xq.validate`), and the rows of the
//! games and positions tables (`xq.scan`).

use std::path::Path;

use pyo3::{
    exceptions::PyValueError,
    prelude::*,
    types::{PyBytes, PyDict},
};
use rayon::prelude::*;
use xq_core::{Move, Position, START_FEN};
use xq_dataset::{GameRow, Options as TableOptions, PositionRow, Row, Source, Table};
use xq_notation::{Mode, Reader, ReaderPool, write};
use xq_record::{
    Encoding, Failure, Format, Game, GameReport, ReadError, ReadErrorKind, ReadOptions, ReportRow,
    game::Outcome, validate_game,
};

use crate::{
    board::{PyBoard, PyMove, parse_notation_style},
    columns::{Ints, Strings},
    convert::ser_to_py,
};

/// The file name of reports on records read from memory.
const BYTES: &str = "<bytes>";

/// Extensions shared with files that are not records: found in a directory, such a file is
/// skipped when nothing in it reads as a game (as `xq validate` does).
const SHARED_EXTENSIONS: &[&str] = &["txt", "json", "htm", "html"];

/// One game as read and replayed.
#[pyclass(module = "xq", name = "Game", frozen)]
#[derive(Debug)]
pub(crate) struct PyGame {
    /// The file it came from (`None` for bytes).
    #[pyo3(get)]
    file: Option<String>,
    /// Which game of the file (0-based); `None` when the file gave none.
    #[pyo3(get)]
    index: Option<usize>,
    format: Option<Format>,
    encoding: Option<Encoding>,
    game: Game,
    report: GameReport,
    start: Option<Position>,
    mainline: Vec<Move>,
}

fn format_name(f: Format) -> &'static str {
    match f {
        Format::Pgn => "pgn",
        Format::Xqf => "xqf",
        Format::Dhtmlxq => "dhtmlxq",
        Format::Cbr => "cbr",
        Format::Cbl => "cbl",
        Format::Cbf => "cbf",
        Format::Txt => "txt",
        Format::Json => "json",
    }
}

fn parse_format(name: &str) -> PyResult<Format> {
    Ok(match name.to_ascii_lowercase().as_str() {
        "pgn" => Format::Pgn,
        "xqf" => Format::Xqf,
        "dhtmlxq" => Format::Dhtmlxq,
        "cbr" => Format::Cbr,
        "cbl" => Format::Cbl,
        "cbf" => Format::Cbf,
        "txt" => Format::Txt,
        "json" => Format::Json,
        _ => {
            return Err(PyValueError::new_err(format!(
                "unknown format `{name}`: use pgn, xqf, dhtmlxq, cbr, cbl, cbf, txt or json"
            )));
        }
    })
}

fn parse_encoding(name: &str) -> PyResult<Encoding> {
    Encoding::from_name(name).ok_or_else(|| {
        PyValueError::new_err(format!(
            "unknown encoding `{name}`: use utf-8, gbk, big5 or utf-16le/be"
        ))
    })
}

/// Read options and the notation mode from the Python arguments.
fn options(
    encoding: Option<&str>,
    format: Option<&str>,
    strict: bool,
) -> PyResult<(ReadOptions, Mode)> {
    let options = ReadOptions {
        encoding: encoding.map(parse_encoding).transpose()?,
        format: format.map(parse_format).transpose()?,
        ..ReadOptions::default()
    };
    Ok((options, if strict { Mode::Strict } else { Mode::Lenient }))
}

/// `jobs` worker threads (all cores by default), and a notation reader for each.
fn workers(jobs: Option<usize>, mode: Mode) -> PyResult<(rayon::ThreadPool, ReaderPool)> {
    let most = ReaderPool::MAX_WORKERS;
    if jobs.is_some_and(|n| !(1..=most).contains(&n)) {
        return Err(PyValueError::new_err(format!(
            "jobs: from 1 to {most} threads (None: one per core)"
        )));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(ReaderPool::workers(jobs))
        .build()
        .map_err(|e| PyValueError::new_err(format!("cannot start the threads: {e}")))?;
    let readers = ReaderPool::new(pool.current_num_threads(), mode);
    Ok((pool, readers))
}

/// A file or buffer read and every game replayed: the games, or why nothing could be read
/// (`None` when a file found in a directory is not a record and is skipped).
struct FileGames {
    file: Option<String>,
    format: Option<Format>,
    encoding: Option<Encoding>,
    items: Vec<(Game, GameReport)>,
    failure: Option<Failure>,
    skipped: Option<String>,
}

fn read_buffer(
    bytes: &[u8],
    file: Option<String>,
    extension: Option<&str>,
    found: bool,
    options: ReadOptions,
    reader: &mut Reader,
) -> FileGames {
    let shared = found
        && extension.is_some_and(|e| SHARED_EXTENSIONS.iter().any(|s| s.eq_ignore_ascii_case(e)));
    let mut out = FileGames {
        file,
        format: None,
        encoding: None,
        items: Vec::new(),
        failure: None,
        skipped: None,
    };
    let records = match xq_record::read(bytes, extension, options) {
        Ok(records) => records,
        Err(err) if shared && err.is_not_a_record() => {
            out.skipped = Some(err.why_skipped());
            return out;
        }
        Err(err) => {
            out.failure = Some(Failure::from(&err));
            return out;
        }
    };
    out.format = Some(records.format);
    out.encoding = records.encoding;
    for (i, mut item) in records.games.into_iter().enumerate() {
        let report = validate_game(i, &mut item, reader);
        out.items.push((item.unwrap_or_default(), report));
    }
    if shared && out.items.is_empty() {
        out.skipped = Some("no game record in it".to_owned());
    } else if out.items.is_empty() {
        out.failure = Some(Failure::whole(
            "no_games",
            format!("no game found in this {} file", records.format),
        ));
    }
    out
}

fn read_path(path: &str, found: bool, options: ReadOptions, reader: &mut Reader) -> FileGames {
    let p = Path::new(path);
    let extension = p.extension().and_then(|e| e.to_str());
    match std::fs::read(p) {
        Ok(bytes) => read_buffer(
            &bytes,
            Some(path.to_owned()),
            extension,
            found,
            options,
            reader,
        ),
        Err(e) => FileGames {
            file: Some(path.to_owned()),
            format: None,
            encoding: None,
            items: Vec::new(),
            failure: Some(Failure::from(&ReadError::new(
                ReadErrorKind::Io,
                format!("cannot read the file: {e}"),
            ))),
            skipped: None,
        },
    }
}

/// Runs `f` over `paths` on `jobs` threads (all cores by default), each thread with its own
/// notation reader, the results in the order of `paths`.
fn parallel<T: Send>(
    paths: &[(String, bool)],
    jobs: Option<usize>,
    mode: Mode,
    f: impl Fn(&str, bool, &mut Reader) -> T + Sync,
) -> PyResult<Vec<T>> {
    let (pool, readers) = workers(jobs, mode)?;
    Ok(pool.install(|| {
        paths
            .par_iter()
            .map(|(path, found)| {
                readers.with(rayon::current_thread_index(), |reader| {
                    f(path, *found, reader)
                })
            })
            .collect()
    }))
}

/// Files larger than this are streamed in chunks of games (see `GameChunks`).
pub(crate) const LARGE: u64 = 4 << 20;
/// Games of a large file read and replayed together.
const CHUNK_GAMES: usize = 4096;

/// The games of a large file, a chunk at a time: `next()` reads the next `CHUNK_GAMES` games
/// and replays them on the worker threads, without the GIL, so memory holds one chunk.
#[pyclass(module = "xq", name = "_GameChunks")]
#[derive(Debug)]
pub(crate) struct GameChunks(std::sync::Mutex<Option<ChunkState>>);

#[derive(Debug)]
struct ChunkState {
    file: String,
    stream: Result<xq_record::GameStream<'static>, Option<Failure>>,
    next_index: usize,
    pool: rayon::ThreadPool,
    readers: ReaderPool,
}

/// Streams a large record file (any size works; small ones are better read whole by
/// `_read_files`).
#[pyfunction]
#[pyo3(signature = (path, found = false, encoding = None, format = None, jobs = None, strict = false, skipped_row = false))]
pub(crate) fn _stream_file(
    path: String,
    found: bool,
    encoding: Option<&str>,
    format: Option<&str>,
    jobs: Option<usize>,
    strict: bool,
    skipped_row: bool,
) -> PyResult<GameChunks> {
    let (opts, mode) = options(encoding, format, strict)?;
    let (pool, readers) = workers(jobs, mode)?;
    let p = Path::new(&path);
    let shared = found
        && p.extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| SHARED_EXTENSIONS.iter().any(|s| s.eq_ignore_ascii_case(e)));
    let stream = xq_record::GameStream::open(p, opts).map_err(|err| {
        if shared && err.is_not_a_record() {
            // A file found in a directory that is not a record is skipped, as in
            // `_read_files`; the rows of `validate` say so (`skipped_row`), as the command's.
            skipped_row.then(|| Failure::whole("skipped", err.why_skipped()))
        } else {
            Some(Failure::from(&err))
        }
    });
    Ok(GameChunks(std::sync::Mutex::new(Some(ChunkState {
        file: path,
        stream,
        next_index: 0,
        pool,
        readers,
    }))))
}

#[pymethods]
impl GameChunks {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> Option<Vec<PyGame>> {
        py.detach(|| {
            let mut guard = self
                .0
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let state = guard.as_mut()?;
            let stream = match &mut state.stream {
                Ok(stream) => stream,
                Err(failure) => {
                    let failure = failure.take();
                    let file = state.file.clone();
                    *guard = None;
                    return failure.map(|f| {
                        games_of(FileGames {
                            file: Some(file),
                            format: None,
                            encoding: None,
                            items: Vec::new(),
                            failure: Some(f),
                            skipped: None,
                        })
                    });
                }
            };
            let group: Vec<_> = stream.by_ref().take(CHUNK_GAMES).collect();
            // (The encoding as told once the group is read: see `GameStream::encoding`.)
            let (format, encoding) = (stream.format(), stream.encoding());
            if group.is_empty() {
                *guard = None;
                return None;
            }
            let first = state.next_index;
            state.next_index += group.len();
            let readers = &state.readers;
            let items: Vec<(Game, GameReport)> = state.pool.install(|| {
                group
                    .into_par_iter()
                    .enumerate()
                    .map(|(i, mut item)| {
                        readers.with(rayon::current_thread_index(), |reader| {
                            let report = validate_game(first + i, &mut item, reader);
                            (item.unwrap_or_default(), report)
                        })
                    })
                    .collect()
            });
            let mut games = games_of(FileGames {
                file: Some(state.file.clone()),
                format: Some(format),
                encoding,
                items,
                failure: None,
                skipped: None,
            });
            for (i, g) in games.iter_mut().enumerate() {
                g.index = Some(first + i);
            }
            Some(games)
        })
    }
}

fn games_of(file: FileGames) -> Vec<PyGame> {
    let (format, encoding) = (file.format, file.encoding);
    if let Some(failure) = file.failure {
        return vec![PyGame {
            file: file.file,
            index: None,
            format,
            encoding,
            game: Game::default(),
            report: GameReport {
                game: 0,
                ok: false,
                line: failure.line,
                plies: 0,
                lines: 0,
                error: Some(failure),
                more_errors: Vec::new(),
                warnings: Vec::new(),
            },
            start: None,
            mainline: Vec::new(),
        }];
    }
    file.items
        .into_iter()
        .enumerate()
        .map(|(i, (game, report))| {
            let (start, mainline) = xq_dataset::line_of(&game, &report);
            PyGame {
                file: file.file.clone(),
                index: Some(i),
                format,
                encoding,
                game,
                report,
                start,
                mainline,
            }
        })
        .collect()
}

/// Reads and replays the files `paths` (each with whether it was found in a directory, so that
/// a non-record there is skipped silently), in parallel without the GIL.
#[pyfunction]
#[pyo3(signature = (paths, encoding = None, format = None, jobs = None, strict = false))]
pub(crate) fn _read_files(
    py: Python<'_>,
    paths: Vec<(String, bool)>,
    encoding: Option<&str>,
    format: Option<&str>,
    jobs: Option<usize>,
    strict: bool,
) -> PyResult<Vec<PyGame>> {
    let (opts, mode) = options(encoding, format, strict)?;
    let files = py.detach(|| {
        parallel(&paths, jobs, mode, |path, found, reader| {
            read_path(path, found, opts, reader)
        })
    })?;
    Ok(files
        .into_iter()
        .filter(|f| f.skipped.is_none())
        .flat_map(games_of)
        .collect())
}

/// Reads and replays a record held in memory.
#[pyfunction]
#[pyo3(signature = (data, name = None, encoding = None, format = None, strict = false))]
pub(crate) fn _read_bytes(
    py: Python<'_>,
    data: &Bound<'_, PyBytes>,
    name: Option<String>,
    encoding: Option<&str>,
    format: Option<&str>,
    strict: bool,
) -> PyResult<Vec<PyGame>> {
    let (opts, mode) = options(encoding, format, strict)?;
    let bytes = data.as_bytes().to_vec();
    let file = py.detach(move || {
        let extension = name
            .as_deref()
            .and_then(|n| Path::new(n).extension())
            .and_then(|e| e.to_str())
            .map(str::to_owned);
        read_buffer(
            &bytes,
            name.clone(),
            extension.as_deref(),
            false,
            opts,
            &mut Reader::new(mode),
        )
    });
    Ok(games_of(file))
}

/// Validates the files `paths` in parallel without the GIL: the report rows (dicts), in order.
#[pyfunction]
#[pyo3(signature = (paths, encoding = None, format = None, jobs = None, strict = false))]
pub(crate) fn _validate_files(
    py: Python<'_>,
    paths: Vec<(String, bool)>,
    encoding: Option<&str>,
    format: Option<&str>,
    jobs: Option<usize>,
    strict: bool,
) -> PyResult<Vec<Py<PyAny>>> {
    let (opts, mode) = options(encoding, format, strict)?;
    let rows: Vec<serde_json::Value> = py.detach(|| -> PyResult<Vec<serde_json::Value>> {
        let files = parallel(&paths, jobs, mode, |path, found, reader| {
            let mut file = read_path(path, found, opts, reader);
            // The rows need only the reports: drop the games early.
            for (game, _) in &mut file.items {
                *game = Game::default();
            }
            file
        })?;
        let mut rows = Vec::new();
        for f in &files {
            let file = f.file.as_deref().unwrap_or(BYTES);
            // A file found that is no record: a row of kind `skipped`, as `xq validate` writes.
            if let Some(why) = &f.skipped {
                let failure = Failure::whole("skipped", why.clone());
                rows.push(row_value(&ReportRow::file_failure(file, &failure))?);
                continue;
            }
            if let Some(failure) = &f.failure {
                rows.push(row_value(&ReportRow::file_failure(file, failure))?);
            }
            for (_, r) in &f.items {
                let format = f.format.unwrap_or(Format::Pgn);
                rows.push(row_value(&ReportRow::game(file, format, f.encoding, r))?);
            }
        }
        Ok(rows)
    })?;
    rows.iter().map(|r| crate::convert::to_py(py, r)).collect()
}

fn row_value(row: &ReportRow<'_>) -> PyResult<serde_json::Value> {
    serde_json::to_value(row).map_err(|e| PyValueError::new_err(e.to_string()))
}

#[pymethods]
impl PyGame {
    /// `"pgn"`, `"xqf"`, `"dhtmlxq"`, `"cbr"`, `"cbl"`, `"cbf"`, `"txt"`, `"json"` (or `None`
    /// when the file could not be read).
    #[getter]
    fn format(&self) -> Option<&'static str> {
        self.format.map(format_name)
    }

    /// The text encoding found (`"utf-8"`, `"gbk"`, `"big5"`, `"utf-16le"`, `"utf-16be"`),
    /// `None` for binary records.
    #[getter]
    fn encoding(&self) -> Option<&'static str> {
        self.encoding.map(Encoding::name)
    }

    /// The tags (PGN names: Event, Site, Date, Red, Black, Result, Opening, ECCO, …), in the
    /// record's order.
    #[getter]
    fn headers<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (k, v) in &self.game.tags {
            dict.set_item(k, v)?;
        }
        Ok(dict)
    }

    /// The FEN of the start position (the standard one when the record gives none).
    #[getter]
    fn start_fen(&self) -> String {
        match &self.start {
            Some(pos) => pos.fen(),
            None => self
                .game
                .fen
                .clone()
                .unwrap_or_else(|| START_FEN.to_owned()),
        }
    }

    /// The result: `"1-0"`, `"0-1"`, `"1/2-1/2"`, or `None` when unknown.
    #[getter]
    fn result(&self) -> Option<&'static str> {
        self.game
            .outcome()
            .filter(|o| *o != Outcome::Unknown)
            .map(Outcome::pgn)
    }

    /// Whether the game reads and every line of it replays.
    #[getter]
    fn ok(&self) -> bool {
        self.report.ok
    }

    /// The main line's length in plies (up to the first bad move).
    #[getter]
    fn plies(&self) -> usize {
        self.mainline.len()
    }

    /// The line of the file where the game starts (text records).
    #[getter]
    fn line(&self) -> Option<u32> {
        self.report.line
    }

    /// What is wrong: the first bad move of each line (the main line first), or why the game
    /// could not be read, as dicts with `ply`, `kind`, `message`, `move`, `fen`, `line`.
    #[getter]
    fn errors(&self, py: Python<'_>) -> PyResult<Vec<Py<PyAny>>> {
        self.report
            .error
            .iter()
            .chain(&self.report.more_errors)
            .map(|f| ser_to_py(py, f))
            .collect()
    }

    /// What is odd but does not stop the game replaying.
    #[getter]
    fn warnings(&self) -> Vec<String> {
        self.report.warnings.clone()
    }

    /// The moves as the record writes them (the main line).
    #[getter]
    fn moves_text(&self) -> Vec<Option<String>> {
        self.game
            .moves
            .iter()
            .map(|n| n.text.as_deref().map(str::to_owned))
            .collect()
    }

    /// The main line's moves, up to the first bad one.
    fn mainline(&self) -> Vec<PyMove> {
        self.mainline.iter().map(|&m| PyMove(m)).collect()
    }

    /// The main line written in `notation` (`"chinese"`, `"traditional"`, `"wxf"`, `"iccs"`,
    /// `"ucci"`).
    #[pyo3(signature = (notation = "chinese"))]
    fn notation(&self, notation: &str) -> PyResult<Vec<String>> {
        let n = parse_notation_style(notation)?;
        let Some(mut pos) = self.start.clone() else {
            return Ok(Vec::new());
        };
        Ok(self
            .mainline
            .iter()
            .map(|&m| {
                let text = write(&pos, m, n);
                pos.play_unchecked(m);
                text
            })
            .collect())
    }

    /// A board at the start position (`xq.FenError` if it cannot be played).
    fn board(&self, py: Python<'_>) -> PyResult<PyBoard> {
        match &self.start {
            Some(pos) => Ok(PyBoard::from_position(pos.clone())),
            None => PyBoard::new(py, Some(&self.start_fen())),
        }
    }

    /// The validation report of this game, as `xq.validate` gives it.
    fn report(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let file = self.file.as_deref().unwrap_or(BYTES);
        match (self.index, self.format, &self.report.error) {
            (Some(_), Some(format), _) => ser_to_py(
                py,
                &ReportRow::game(file, format, self.encoding, &self.report),
            ),
            (_, _, Some(failure)) => ser_to_py(py, &ReportRow::file_failure(file, failure)),
            _ => Err(PyValueError::new_err("a game without a report")),
        }
    }

    fn __repr__(&self) -> String {
        let tag = |k: &str| self.game.tag(k).unwrap_or("?").to_owned();
        format!(
            "<Game {} vs {} ({} plies{}) {}#{}>",
            tag("Red"),
            tag("Black"),
            self.mainline.len(),
            if self.report.ok { "" } else { ", with errors" },
            self.file.as_deref().unwrap_or(BYTES),
            self.index.map_or_else(|| "-".to_owned(), |i| i.to_string())
        )
    }
}

impl PyGame {
    /// The game as the tables see it.
    fn source(&self) -> Source<'_> {
        Source {
            file: self.file.as_deref(),
            index: self.index,
            game: &self.game,
            ok: self.report.ok,
            error: self.report.error.as_ref(),
            start: self.start.as_ref(),
            mainline: &self.mainline,
        }
    }
}

fn parse_table(table: &str) -> PyResult<Table> {
    Table::from_name(table).ok_or_else(|| {
        PyValueError::new_err(format!("unknown table `{table}`: use positions or games"))
    })
}

/// The games table's columns, as Python lists.
#[derive(Default)]
struct GameColumns {
    game_id: Vec<String>,
    file: Vec<Option<String>>,
    index: Vec<Option<u32>>,
    tags: Vec<Vec<(String, String)>>,
    red: Vec<Option<String>>,
    black: Vec<Option<String>>,
    event: Vec<Option<String>>,
    opening: Vec<Option<String>>,
    start_fen: Vec<String>,
    moves_iccs: Vec<Vec<String>>,
    moves_chinese: Vec<Vec<String>>,
    result: Vec<Option<&'static str>>,
    plies: Vec<u16>,
    ok: Vec<bool>,
    error: Vec<Option<String>>,
    split: Vec<&'static str>,
}

/// The positions table's columns, in Arrow's layout.
#[derive(Default)]
struct PositionColumns {
    rows: usize,
    game_id: Strings,
    ply: Ints<2>,
    fen: Strings,
    move_iccs: Strings,
    label: Ints<2>,
    mask: Vec<u8>,
    result_stm: Ints<1>,
    halfmove_clock: Ints<2>,
    repetition: Ints<1>,
    nature: Strings,
    split: Strings,
}

impl GameColumns {
    fn push(&mut self, r: GameRow) {
        self.game_id.push(r.game_id);
        self.file.push(r.file);
        self.index.push(r.index);
        self.tags.push(r.tags);
        self.red.push(r.red);
        self.black.push(r.black);
        self.event.push(r.event);
        self.opening.push(r.opening);
        self.start_fen.push(r.start_fen);
        self.moves_iccs.push(r.moves_iccs);
        self.moves_chinese.push(r.moves_chinese);
        self.result.push(r.result);
        self.plies.push(r.plies);
        self.ok.push(r.ok);
        self.error.push(r.error);
        self.split.push(r.split);
    }

    fn into_py<'py>(self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("game_id", self.game_id)?;
        d.set_item("file", self.file)?;
        d.set_item("index", self.index)?;
        d.set_item("tags", self.tags)?;
        d.set_item("red", self.red)?;
        d.set_item("black", self.black)?;
        d.set_item("event", self.event)?;
        d.set_item("opening", self.opening)?;
        d.set_item("start_fen", self.start_fen)?;
        d.set_item("moves_iccs", self.moves_iccs)?;
        d.set_item("moves_chinese", self.moves_chinese)?;
        d.set_item("result", self.result)?;
        d.set_item("plies", self.plies)?;
        d.set_item("ok", self.ok)?;
        d.set_item("error", self.error)?;
        d.set_item("split", self.split)?;
        Ok(d)
    }
}

impl PositionColumns {
    fn push(&mut self, r: &PositionRow<'_>) {
        self.rows += 1;
        self.game_id.push(Some(r.game_id));
        self.ply.push(Some(i64::from(r.ply)));
        self.fen.push(Some(&r.fen));
        self.move_iccs.push(Some(&r.move_iccs));
        self.label.push(r.label.map(i64::from));
        self.mask.extend_from_slice(&r.legal_mask);
        self.result_stm.push(r.result_stm.map(i64::from));
        self.halfmove_clock.push(Some(i64::from(r.halfmove_clock)));
        self.repetition.push(Some(i64::from(r.repetition)));
        self.nature.push(r.nature);
        self.split.push(Some(r.split));
    }

    /// Arrow buffers: strings (validity, offsets, data), integers (validity, values), the masks
    /// as one `bytes` of 261 bytes a row.
    fn to_py<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("rows", self.rows)?;
        d.set_item("game_id", self.game_id.to_py(py)?)?;
        d.set_item("ply", self.ply.to_py(py)?)?;
        d.set_item("fen", self.fen.to_py(py)?)?;
        d.set_item("move_iccs", self.move_iccs.to_py(py)?)?;
        d.set_item("label", self.label.to_py(py)?)?;
        d.set_item("legal_mask", PyBytes::new(py, &self.mask))?;
        d.set_item("result_stm", self.result_stm.to_py(py)?)?;
        d.set_item("halfmove_clock", self.halfmove_clock.to_py(py)?)?;
        d.set_item("repetition", self.repetition.to_py(py)?)?;
        d.set_item("nature", self.nature.to_py(py)?)?;
        d.set_item("split", self.split.to_py(py)?)?;
        Ok(d)
    }
}

/// Gives `f` every row of `games` in `table` (`xq_dataset::rows`), without the GIL.
fn each_row<T: Send>(
    py: Python<'_>,
    games: &[PyRef<'_, PyGame>],
    table: Table,
    options: TableOptions,
    mut into: T,
    f: impl Fn(&mut T, Row<'_>) + Send + Sync,
) -> T {
    let refs: Vec<&PyGame> = games.iter().map(|g| &**g).collect();
    py.detach(|| {
        for g in refs {
            xq_dataset::rows(&g.source(), table, &options, &mut |row| f(&mut into, row));
        }
        into
    })
}

/// The games or positions table of `games` as Python columns (see `xq.scan`; the rows are
/// `xq_dataset`'s, the one definition the `xq dataset` command writes too).
#[pyfunction]
#[pyo3(signature = (games, table = "positions", flip = false, mirror = false, natures = false, validation = 0.1))]
pub(crate) fn _columns<'py>(
    py: Python<'py>,
    games: Vec<PyRef<'py, PyGame>>,
    table: &str,
    flip: bool,
    mirror: bool,
    natures: bool,
    validation: f64,
) -> PyResult<Bound<'py, PyDict>> {
    let table = parse_table(table)?;
    let o = TableOptions {
        flip,
        mirror,
        natures,
        validation,
    };
    match table {
        Table::Games => each_row(py, &games, table, o, GameColumns::default(), |c, row| {
            if let Row::Game(r) = row {
                c.push(r);
            }
        })
        .into_py(py),
        Table::Positions => each_row(
            py,
            &games,
            table,
            o,
            PositionColumns::default(),
            |c, row| {
                if let Row::Position(r) = row {
                    c.push(&r);
                }
            },
        )
        .to_py(py),
    }
}

/// The rows of `games` in `table` as JSON lines (without newlines), as `xq dataset --format
/// jsonl` writes them.
#[pyfunction]
#[pyo3(signature = (games, table = "positions", flip = false, mirror = false, natures = false, validation = 0.1))]
pub(crate) fn _json_lines(
    py: Python<'_>,
    games: Vec<PyRef<'_, PyGame>>,
    table: &str,
    flip: bool,
    mirror: bool,
    natures: bool,
    validation: f64,
) -> PyResult<Vec<String>> {
    let o = TableOptions {
        flip,
        mirror,
        natures,
        validation,
    };
    Ok(each_row(
        py,
        &games,
        parse_table(table)?,
        o,
        Vec::new(),
        |lines, row| {
            lines.push(xq_dataset::json_line(&row));
        },
    ))
}

/// The columns of `table`: `(name, type)` pairs, the types as pyarrow writes them.
#[pyfunction]
pub(crate) fn _schema(table: &str) -> PyResult<Vec<(&'static str, String)>> {
    Ok(xq_dataset::columns(parse_table(table)?)
        .iter()
        .map(|&(name, t)| (name, t.name()))
        .collect())
}

/// `"validation"` for about a `validation` share of games, `"train"` for the others, decided by
/// a hash of the game id (BLAKE2b with an 8-byte digest): the same on every machine, in every
/// run, and in the `xq dataset` command.
#[pyfunction]
#[pyo3(signature = (game_id, validation = 0.1))]
pub(crate) fn split_of(game_id: &str, validation: f64) -> &'static str {
    xq_dataset::split_of(game_id, validation)
}
