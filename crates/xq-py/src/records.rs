//! Reading game records (`xq.read_games`), validating them (`xq.validate`), and the rows of the
//! games and positions tables (`xq.scan`).

use std::path::Path;

use pyo3::{
    exceptions::PyValueError,
    prelude::*,
    types::{PyBytes, PyDict},
};
use rayon::prelude::*;
use xq_core::{Color, Move, Position, START_FEN, vocab};
use xq_notation::{ChineseStyle, Mode, Notation, Reader, ReaderPool, write};
use xq_record::{
    Encoding, Failure, Format, Game, GameReport, ReadError, ReadErrorKind, ReadOptions, ReportRow,
    game::Outcome, replay::start_position, validate_game,
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

/// Read options from the Python arguments.
pub(crate) fn options(encoding: Option<&str>, format: Option<&str>) -> PyResult<ReadOptions> {
    Ok(ReadOptions {
        encoding: encoding.map(parse_encoding).transpose()?,
        format: format.map(parse_format).transpose()?,
    })
}

/// The start position a replayed game is played from (the side to move corrected from the
/// first move, as replay does) and its main line up to the first bad move.
fn line_of(game: &Game, plies: usize) -> (Option<Position>, Vec<Move>) {
    let Ok((mut start, _)) = start_position(game) else {
        return (None, Vec::new());
    };
    let mainline: Vec<Move> = game.moves.iter().take(plies).map_while(|n| n.m).collect();
    if let Some(&first) = mainline.first()
        && !start.is_legal(first)
        && start.passed().is_legal(first)
    {
        start = start.passed();
    }
    (Some(start), mainline)
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
        Err(err) if shared => {
            out.skipped = Some(format!("not a game record ({})", err.message));
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
    if shared {
        let first_word_is_no_move = out
            .items
            .first()
            .and_then(|(_, r)| r.error.as_ref())
            .is_some_and(|e| e.ply == Some(1) && e.kind == "unreadable");
        if out.items.is_empty() {
            out.skipped = Some("no game record in it".to_owned());
        } else if records.format == Format::Txt && first_word_is_no_move {
            out.skipped = Some("not a move list: its first word is not a move".to_owned());
        }
    } else if out.items.is_empty() {
        out.failure = Some(Failure {
            ply: None,
            kind: "no_games",
            message: format!("no game found in this {} file", records.format),
            text: None,
            fen: None,
            line: None,
            offset: None,
            fen_span: None,
            variation: Vec::new(),
        });
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
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.unwrap_or(0))
        .build()
        .map_err(|e| PyValueError::new_err(format!("cannot start the threads: {e}")))?;
    let readers = ReaderPool::new(pool.current_num_threads(), mode);
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
#[pyo3(signature = (path, found = false, encoding = None, format = None, jobs = None, strict = false))]
pub(crate) fn _stream_file(
    path: String,
    found: bool,
    encoding: Option<&str>,
    format: Option<&str>,
    jobs: Option<usize>,
    strict: bool,
) -> PyResult<GameChunks> {
    let opts = options(encoding, format)?;
    let mode = if strict { Mode::Strict } else { Mode::Lenient };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.unwrap_or(0))
        .build()
        .map_err(|e| PyValueError::new_err(format!("cannot start the threads: {e}")))?;
    let readers = ReaderPool::new(pool.current_num_threads(), mode);
    let p = Path::new(&path);
    let shared = found
        && p.extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| SHARED_EXTENSIONS.iter().any(|s| s.eq_ignore_ascii_case(e)));
    let stream = xq_record::GameStream::open(p, opts).map_err(|err| {
        // A file found in a directory that is not a record is skipped, as in `_read_files`.
        (!shared).then(|| Failure::from(&err))
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
            let (format, encoding) = (stream.format(), stream.encoding());
            let group: Vec<_> = stream.by_ref().take(CHUNK_GAMES).collect();
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
            let (start, mainline) = if report.error.as_ref().is_some_and(|e| e.ply.is_none()) {
                (None, Vec::new())
            } else {
                line_of(&game, report.plies)
            };
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
    let opts = options(encoding, format)?;
    let mode = if strict { Mode::Strict } else { Mode::Lenient };
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
    let opts = options(encoding, format)?;
    let mode = if strict { Mode::Strict } else { Mode::Lenient };
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
    let opts = options(encoding, format)?;
    let mode = if strict { Mode::Strict } else { Mode::Lenient };
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
            if f.skipped.is_some() {
                continue;
            }
            let file = f.file.as_deref().unwrap_or(BYTES);
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
        self.game.moves.iter().map(|n| n.text.clone()).collect()
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

/// The Chinese form of every move of a line.
fn chinese_line(start: &Position, line: &[Move]) -> Vec<String> {
    let mut pos = start.clone();
    line.iter()
        .map(|&m| {
            let t = write(&pos, m, Notation::Chinese(ChineseStyle::default()));
            pos.play_unchecked(m);
            t
        })
        .collect()
}

/// Columns of the games or positions table for a batch of games (see `xq.scan`).
#[derive(Default)]
struct Columns {
    // games
    game_id: Vec<String>,
    file: Vec<Option<String>>,
    index: Vec<Option<usize>>,
    tags: Vec<Vec<(String, String)>>,
    start_fen: Vec<String>,
    moves_iccs: Vec<Vec<String>>,
    moves_chinese: Vec<Vec<String>>,
    result: Vec<Option<&'static str>>,
    ok: Vec<bool>,
    error: Vec<Option<String>>,
    plies: Vec<usize>,
    // positions, in Arrow's layout
    rows: usize,
    position_game: Strings,
    ply: Ints<2>,
    fen: Strings,
    move_iccs: Strings,
    label: Ints<2>,
    mask: Vec<u8>,
    result_stm: Ints<1>,
    halfmoves: Ints<2>,
    repetitions: Ints<1>,
    natures: Strings,
}

fn game_id(file: Option<&str>, index: Option<usize>) -> String {
    format!(
        "{}#{}",
        file.unwrap_or("<bytes>"),
        index.map_or_else(|| "-".to_owned(), |i| i.to_string())
    )
}

fn add_game(c: &mut Columns, g: &PyGame) {
    c.game_id.push(game_id(g.file.as_deref(), g.index));
    c.file.push(g.file.clone());
    c.index.push(g.index);
    c.tags.push(g.game.tags.clone());
    c.start_fen.push(
        g.start
            .as_ref()
            .map_or_else(|| START_FEN.to_owned(), Position::fen),
    );
    c.moves_iccs
        .push(g.mainline.iter().map(ToString::to_string).collect());
    c.moves_chinese.push(
        g.start
            .as_ref()
            .map_or_else(Vec::new, |s| chinese_line(s, &g.mainline)),
    );
    c.result.push(
        g.game
            .outcome()
            .filter(|o| *o != Outcome::Unknown)
            .map(Outcome::pgn),
    );
    c.ok.push(g.report.ok);
    c.error.push(
        g.report
            .error
            .as_ref()
            .map(|e| format!("{}: {}", e.kind, e.message)),
    );
    c.plies.push(g.mainline.len());
}

/// Options of the positions table.
#[derive(Copy, Clone, Debug)]
struct PositionOptions {
    /// Show every position with the side to move as Red (rotate Black-to-move positions).
    flip: bool,
    /// Mirror every position left to right.
    mirror: bool,
    /// Classify every move (将 杀 捉 兑 献 拦 跟 闲) under the CXA 2020 rules.
    natures: bool,
}

fn add_positions(c: &mut Columns, g: &PyGame, o: PositionOptions) {
    let Some(start) = &g.start else { return };
    let id = game_id(g.file.as_deref(), g.index);
    let winner = match g.game.outcome() {
        Some(Outcome::RedWins) => Some(Color::Red),
        Some(Outcome::BlackWins) => Some(Color::Black),
        _ => None,
    };
    let draw = g.game.outcome() == Some(Outcome::Draw);
    let natures: Vec<&'static str> = if o.natures {
        xq_arbiter::classify_line(
            start,
            &g.mainline,
            xq_arbiter::Effort::default(),
            xq_arbiter::Profile::CXA2020,
        )
        .iter()
        .map(|c| c.nature.chinese())
        .collect()
    } else {
        Vec::new()
    };
    let mut pos = start.clone();
    let mut seen: std::collections::HashMap<u64, u32> = std::collections::HashMap::new();
    for (i, &m) in g.mainline.iter().enumerate() {
        c.natures.push(natures.get(i).copied());
        c.rows += 1;
        let count = seen.entry(pos.hash()).or_insert(0);
        *count += 1;
        let repetitions = *count;
        let stm = pos.turn();
        let (shown, shown_move) = transform(&pos, m, o);
        c.position_game.push(Some(&id));
        c.ply
            .push(Some(i64::from(u16::try_from(i + 1).unwrap_or(u16::MAX))));
        c.fen.push(Some(&shown.fen()));
        c.move_iccs.push(Some(&shown_move.to_string()));
        c.label.push(vocab::index(shown_move).map(|l| l as i64));
        c.mask.extend_from_slice(&PyBoard::packed_mask(&shown));
        c.result_stm.push(match winner {
            Some(w) => Some(if w == stm { 1 } else { -1 }),
            None if draw => Some(0),
            None => None,
        });
        c.halfmoves
            .push(Some(i64::from(pos.halfmoves().min(u32::from(u16::MAX)))));
        c.repetitions.push(Some(i64::from(repetitions.min(255))));
        pos.play_unchecked(m);
    }
}

/// The position and move as the table shows them: rotated so that the side to move is Red
/// (`flip`), mirrored left to right (`mirror`).
fn transform(pos: &Position, m: Move, o: PositionOptions) -> (Position, Move) {
    let rotate = o.flip && pos.turn() == Color::Black;
    if !rotate && !o.mirror {
        return (pos.clone(), m);
    }
    let mut setup = pos.to_setup();
    let mut m = m;
    if rotate {
        setup = rotate_setup(&setup);
        m = m.rotate();
    }
    if o.mirror {
        setup = mirror_setup(&setup);
        m = Move::new(m.from.flip_horizontal(), m.to.flip_horizontal());
    }
    let shown = Position::from_setup(setup.clone())
        .or_else(xq_core::PositionError::ignore_implausible)
        .unwrap_or_else(|_| pos.clone());
    (shown, m)
}

fn rotate_setup(s: &xq_core::Setup) -> xq_core::Setup {
    let mut board = xq_core::Board::empty();
    for sq in xq_core::Square::all() {
        if let Some(p) = s.board.piece_at(sq) {
            board.put(sq.rotate(), xq_core::Piece::new(p.color.other(), p.role));
        }
    }
    xq_core::Setup {
        board,
        turn: s.turn.other(),
        halfmoves: s.halfmoves,
        fullmoves: s.fullmoves,
    }
}

fn mirror_setup(s: &xq_core::Setup) -> xq_core::Setup {
    let mut board = xq_core::Board::empty();
    for sq in xq_core::Square::all() {
        if let Some(p) = s.board.piece_at(sq) {
            board.put(sq.flip_horizontal(), p);
        }
    }
    xq_core::Setup {
        board,
        turn: s.turn,
        halfmoves: s.halfmoves,
        fullmoves: s.fullmoves,
    }
}

/// The games or positions table of `games` as Python columns (lists, and the legal masks as one
/// `bytes` of 261 bytes a row); `xq.scan` turns them into an Arrow record batch.
#[pyfunction]
#[pyo3(signature = (games, table = "positions", flip = false, mirror = false, natures = false))]
pub(crate) fn _columns<'py>(
    py: Python<'py>,
    games: Vec<PyRef<'py, PyGame>>,
    table: &str,
    flip: bool,
    mirror: bool,
    natures: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let refs: Vec<&PyGame> = games.iter().map(|g| &**g).collect();
    let positions = match table {
        "positions" => true,
        "games" => false,
        _ => {
            return Err(PyValueError::new_err(format!(
                "unknown table `{table}`: use positions or games"
            )));
        }
    };
    let o = PositionOptions {
        flip,
        mirror,
        natures,
    };
    let c = py.detach(|| {
        let mut c = Columns::default();
        for g in refs {
            if positions {
                add_positions(&mut c, g, o);
            } else {
                add_game(&mut c, g);
            }
        }
        c
    });
    let d = PyDict::new(py);
    if positions {
        // Arrow buffers: strings (validity, offsets, data), integers (validity, values).
        d.set_item("rows", c.rows)?;
        d.set_item("game_id", c.position_game.to_py(py)?)?;
        d.set_item("ply", c.ply.to_py(py)?)?;
        d.set_item("fen", c.fen.to_py(py)?)?;
        d.set_item("move_iccs", c.move_iccs.to_py(py)?)?;
        d.set_item("label", c.label.to_py(py)?)?;
        d.set_item("legal_mask", PyBytes::new(py, &c.mask))?;
        d.set_item("result_stm", c.result_stm.to_py(py)?)?;
        d.set_item("halfmove_clock", c.halfmoves.to_py(py)?)?;
        d.set_item("repetition", c.repetitions.to_py(py)?)?;
        d.set_item("nature", c.natures.to_py(py)?)?;
    } else {
        d.set_item("game_id", c.game_id)?;
        d.set_item("file", c.file)?;
        d.set_item("index", c.index)?;
        d.set_item("tags", c.tags)?;
        d.set_item("start_fen", c.start_fen)?;
        d.set_item("moves_iccs", c.moves_iccs)?;
        d.set_item("moves_chinese", c.moves_chinese)?;
        d.set_item("result", c.result)?;
        d.set_item("ok", c.ok)?;
        d.set_item("error", c.error)?;
        d.set_item("plies", c.plies)?;
    }
    Ok(d)
}
