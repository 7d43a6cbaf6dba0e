//! `xq.banned_moves`: the moves the side to move may not play because they would continue a
//! repetition the rules make that side change (UCCI `banmoves`), with drawn repetitions apart.

use pyo3::{
    exceptions::{PyTypeError, PyValueError},
    prelude::*,
    types::{PyIterator, PyList},
};
use serde_json::Value;
use xq_arbiter::{BanOptions, Lang};
use xq_core::{Move, Position, START_FEN};
use xq_report::{BanReport, Line};

use crate::{
    arbiter::{lang_of, rule_options},
    board::{PyBoard, PyMove, parse_fen, resolve_line},
    convert::to_py,
};

/// The forbidden moves after a game: `len()`, `in` (a `Move` or a coordinate string) and
/// iteration go over the banned moves.
#[pyclass(module = "xq", name = "BannedMoves", frozen)]
pub(crate) struct PyBannedMoves {
    report: BanReport,
    lang: Lang,
}

#[pymethods]
impl PyBannedMoves {
    /// `"red"` or `"black"`: the side to move, whose moves are listed.
    #[getter]
    fn side(&self) -> &'static str {
        self.report.answer.side.name()
    }

    /// The rule set: `"cxa2020"` or `"axf"`.
    #[getter]
    fn rules(&self) -> &'static str {
        self.report.answer.rules
    }

    /// The moves that would continue a repetition the side must change: forbidden.
    #[getter]
    fn banned(&self) -> Vec<PyMove> {
        self.report
            .answer
            .banned
            .iter()
            .map(|r| PyMove(r.m))
            .collect()
    }

    /// The moves that would make a drawn repetition (a server may offer the draw).
    #[getter]
    fn draws(&self) -> Vec<PyMove> {
        self.report
            .answer
            .draws
            .iter()
            .map(|r| PyMove(r.m))
            .collect()
    }

    /// The moves that repeat a position where the opponent must change: allowed.
    #[getter]
    fn opponent_must_change(&self) -> Vec<PyMove> {
        let list = &self.report.answer.opponent_must_change;
        list.iter().map(|r| PyMove(r.m)).collect()
    }

    /// The answer as a dict, in the shape of `xq banned --format json`: every listed move with
    /// its Chinese notation, ruling, clause, explanation, cycle and both sides' patterns.
    #[pyo3(signature = (lang = None))]
    fn to_dict(&self, py: Python<'_>, lang: Option<&str>) -> PyResult<Py<PyAny>> {
        let text = self.to_json(lang)?;
        let value: Value =
            serde_json::from_str(&text).map_err(|e| PyValueError::new_err(e.to_string()))?;
        to_py(py, &value)
    }

    /// The answer as JSON, as `xq banned --format json` prints it.
    #[pyo3(signature = (lang = None))]
    fn to_json(&self, lang: Option<&str>) -> PyResult<String> {
        let lang = lang.map_or(Ok(self.lang), lang_of)?;
        self.report
            .to_json(lang)
            .map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// The answer as text for people, as `xq banned` prints it.
    #[pyo3(signature = (lang = None))]
    fn to_text(&self, lang: Option<&str>) -> PyResult<String> {
        Ok(self.report.to_text(lang.map_or(Ok(self.lang), lang_of)?))
    }

    /// The UCCI command for an engine: `banmoves h2e2 …` (just `banmoves` when none).
    fn ucci(&self) -> String {
        self.report.to_ucci()
    }

    fn __len__(&self) -> usize {
        self.report.answer.banned.len()
    }

    fn __contains__(&self, item: &Bound<'_, PyAny>) -> bool {
        let m = if let Ok(m) = item.extract::<PyRef<'_, PyMove>>() {
            Some(m.0)
        } else if let Ok(text) = item.extract::<String>() {
            Move::from_ascii(text.as_bytes()).ok()
        } else {
            None
        };
        m.is_some_and(|m| self.report.answer.moves().any(|b| b == m))
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyIterator>> {
        PyList::new(py, self.banned())?.try_iter()
    }

    fn __repr__(&self) -> String {
        let moves: Vec<String> = self.report.answer.moves().map(|m| m.to_string()).collect();
        format!(
            "<BannedMoves {} to move ({}): [{}]>",
            self.side(),
            self.rules(),
            moves.join(", ")
        )
    }
}

/// The forbidden moves of the side to move after a game: `board` is a `Board` (its pushed
/// moves are the game so far), a FEN, or `None` (the standard start); `moves` (a string of
/// moves in any notation, or a list of strings or `Move`s) continue it. A move is judged from
/// the `occurrences`-th occurrence of the position it brings back (2: its first return).
#[pyfunction]
#[pyo3(signature = (board = None, moves = None, rules = "cxa2020", occurrences = 2, opening_rounds = None, lang = "en"))]
pub(crate) fn banned_moves(
    py: Python<'_>,
    board: Option<&Bound<'_, PyAny>>,
    moves: Option<&Bound<'_, PyAny>>,
    rules: &str,
    occurrences: usize,
    opening_rounds: Option<u32>,
    lang: &str,
) -> PyResult<PyBannedMoves> {
    let lang = lang_of(lang)?;
    if occurrences < 2 {
        return Err(PyValueError::new_err(
            "occurrences counts the position's occurrences with the move's own: at least 2",
        ));
    }
    let options = BanOptions {
        judge: rule_options(rules, opening_rounds)?,
        occurrences,
    };
    let (start, mut line): (Position, Vec<Move>) = match board {
        None => (parse_fen(py, START_FEN)?, Vec::new()),
        Some(b) => {
            if let Ok(board) = b.extract::<PyRef<'_, PyBoard>>() {
                board.line()
            } else {
                let fen = b.extract::<String>().map_err(|_| {
                    PyTypeError::new_err("board must be an xq.Board, a FEN string or None")
                })?;
                (parse_fen(py, &fen)?, Vec::new())
            }
        }
    };
    if let Some(moves) = moves {
        let mut pos = start.clone();
        for &m in &line {
            pos.play_unchecked(m);
        }
        line.extend(resolve_line(py, &pos, moves)?);
    }
    let report = py.detach(|| BanReport::new(&Line::new(start, line), options));
    Ok(PyBannedMoves { report, lang })
}
