//! `xq.judge` (repetition rulings, CXA 2020 or AXF) and `xq.limit` (the 60-round audit).

use pyo3::{exceptions::PyValueError, prelude::*};
use serde::Serialize;
use serde_json::Value;
use xq_arbiter::{
    JudgeOptions, Lang, Profile, explain,
    judge::JudgedMove,
    limit::{CapApplies, LimitOptions, audit},
};
use xq_core::{Color, Move, Position, START_FEN};
use xq_notation::{ChineseStyle, Notation, write};

use crate::{
    board::{PyMove, parse_fen, resolve_line},
    convert::to_py,
};

/// One judged move.
#[pyclass(module = "xq", name = "JudgedMove", frozen, get_all)]
#[derive(Clone, Debug, Serialize)]
pub(crate) struct PyJudgedMove {
    /// The ply, 1-based from the first move of the line.
    ply: usize,
    /// `"red"` or `"black"`.
    side: &'static str,
    /// The move in coordinates, `h2e2`.
    iccs: String,
    /// The move in Chinese notation.
    chinese: String,
    /// The nature in the rulebook's character: 将 杀 捉 兑 献 拦 跟 闲.
    kind: &'static str,
    /// The nature in English: check, mate threat, chase, exchange offer, offer, block, follow,
    /// idle.
    nature: &'static str,
    /// Why, in English.
    explanation: String,
    /// Why, in Chinese.
    explanation_zh: String,
}

#[pymethods]
impl PyJudgedMove {
    /// The move as an `xq.Move`.
    #[getter]
    fn r#move(&self) -> PyResult<PyMove> {
        Move::from_ascii(self.iccs.as_bytes())
            .map(PyMove)
            .map_err(|_| PyValueError::new_err("unreadable move"))
    }

    fn __repr__(&self) -> String {
        format!(
            "<JudgedMove {}. {} {} {} {}>",
            self.ply, self.side, self.chinese, self.iccs, self.kind
        )
    }
}

/// What `xq.judge` found: the verdict, the clause, the cycle, each side's pattern and every
/// judged move with its nature and explanation.
#[pyclass(module = "xq", name = "Judgement", frozen)]
#[derive(Debug)]
pub(crate) struct PyJudgement {
    /// `"draw"`, `"red_must_change"`, `"black_must_change"` or `"no_repetition"`.
    #[pyo3(get)]
    verdict: &'static str,
    /// `"cxa2020"` or `"axf"`.
    #[pyo3(get)]
    rules: &'static str,
    /// The clause the ruling rests on (empty without a repetition).
    #[pyo3(get)]
    clause: &'static str,
    /// Why, in English.
    #[pyo3(get)]
    explanation: String,
    /// Why, in Chinese.
    #[pyo3(get)]
    explanation_zh: String,
    /// The judged moves.
    #[pyo3(get)]
    moves: Vec<PyJudgedMove>,
    /// The JSON report as a value, for the getters and `to_dict`.
    report: Value,
    /// The ruling report of `xq-report` (the same model `xq judge` renders).
    model: xq_report::Report,
    lang: Lang,
}

fn judged_move(m: &JudgedMove) -> PyJudgedMove {
    let c = &m.classified;
    PyJudgedMove {
        ply: m.ply,
        side: c.side.name(),
        iccs: c.m.to_string(),
        chinese: write(&m.before, c.m, Notation::Chinese(ChineseStyle::default())),
        kind: c.nature.chinese(),
        nature: c.nature.name(),
        explanation: explain(&m.before, c, Lang::English),
        explanation_zh: explain(&m.before, c, Lang::Chinese),
    }
}

#[pymethods]
impl PyJudgement {
    /// The repetition judged: `{"start_ply", "plies", "occurrences"}` (plies 1-based), or `None`.
    #[getter]
    fn cycle(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        to_py(py, &self.report["cycle"])
    }

    /// Each side's pattern: `{"red": {"pattern", "forbidden"}, "black": {…}}`.
    #[getter]
    fn sides(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        to_py(py, &self.report["sides"])
    }

    /// The 60-round count (自然限着) over the line.
    #[getter]
    fn limit(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        to_py(py, &self.report["limit"])
    }

    /// What the first-rounds rule says, when it bears on the repetition (else `None`).
    #[getter]
    fn opening(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        to_py(py, self.report.get("opening").unwrap_or(&Value::Null))
    }

    /// The whole report as a dict (the JSON of `to_json`).
    fn to_dict(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        to_py(py, &self.report)
    }

    /// The report as JSON: what `xq judge --format json` writes for the same FEN and moves
    /// (one rendering, `xq_report::Report::to_json`), explanations in the language `judge` was
    /// called with; `indent` lays it out on lines.
    #[pyo3(signature = (indent = None))]
    fn to_json(&self, indent: Option<usize>) -> PyResult<String> {
        let text = match indent {
            None => self.model.to_json(self.lang),
            Some(n) => self.model.to_json_indented(self.lang, n),
        };
        text.map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// The report as one self-contained HTML page (boards drawn inline, no font or network
    /// needed), as `xq judge --format html` writes it; `lang` is `"en"` or `"zh"` (by default
    /// the language `judge` was called with).
    #[pyo3(signature = (lang = None))]
    fn to_html(&self, py: Python<'_>, lang: Option<&str>) -> PyResult<String> {
        let lang = lang.map_or(Ok(self.lang), lang_of)?;
        Ok(py.detach(|| self.model.to_html(lang)))
    }

    fn __repr__(&self) -> String {
        if self.clause.is_empty() {
            format!("<Judgement {} ({})>", self.verdict, self.rules)
        } else {
            format!(
                "<Judgement {} ({} {})>",
                self.verdict, self.rules, self.clause
            )
        }
    }
}

fn start_of(py: Python<'_>, fen: Option<&str>) -> PyResult<Position> {
    parse_fen(py, fen.unwrap_or(START_FEN))
}

/// The judging options of a rule set (`"cxa2020"` or `"axf"`); the first-rounds rule is on for
/// 25 rounds under cxa2020 and off under axf unless `opening_rounds` says otherwise.
pub(crate) fn rule_options(rules: &str, opening_rounds: Option<u32>) -> PyResult<JudgeOptions> {
    let profile = Profile::by_name(rules).ok_or_else(|| {
        PyValueError::new_err(format!("unknown rules `{rules}`: use cxa2020 or axf"))
    })?;
    Ok(JudgeOptions {
        profile,
        opening_rounds: opening_rounds.unwrap_or(if profile.name() == "axf" { 0 } else { 25 }),
        ..JudgeOptions::default()
    })
}

pub(crate) fn lang_of(lang: &str) -> PyResult<Lang> {
    match lang {
        "en" | "english" => Ok(Lang::English),
        "zh" | "chinese" => Ok(Lang::Chinese),
        _ => Err(PyValueError::new_err(format!(
            "unknown language `{lang}`: use en or zh"
        ))),
    }
}

/// Judges a line of moves under the rules of repetition (`rules="cxa2020"` or `"axf"`).
///
/// `moves` is a string of space-separated moves or a sequence of moves and strings, in any
/// notation. `opening_rounds` sets the first-rounds rule (25 under CXA 2020, off under AXF).
/// The judging runs without the GIL.
#[pyfunction]
#[pyo3(signature = (fen, moves, rules = "cxa2020", opening_rounds = None, lang = "en", limit_rounds = 60, check_cap = 10))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn judge(
    py: Python<'_>,
    fen: Option<&str>,
    moves: &Bound<'_, PyAny>,
    rules: &str,
    opening_rounds: Option<u32>,
    lang: &str,
    limit_rounds: u32,
    check_cap: u32,
) -> PyResult<PyJudgement> {
    let lang = lang_of(lang)?;
    let start = start_of(py, fen)?;
    let line = resolve_line(py, &start, moves)?;
    let options = JudgeOptions {
        limit: LimitOptions {
            rounds: limit_rounds,
            check_cap,
            cap_applies: CapApplies::Claimant,
        },
        ..rule_options(rules, opening_rounds)?
    };
    let (j, moves, report, model) = py.detach(|| {
        let j = xq_arbiter::judge(&start, &line, options);
        let moves: Vec<PyJudgedMove> = j.moves.iter().map(judged_move).collect();
        // Stamped as the command stamps its reports (SOURCE_DATE_EPOCH, else the clock).
        let model = xq_report::Report::new(&j, &xq_report::Line::new(start.clone(), line.clone()))
            .stamped(xq_report::now());
        let report = model
            .to_json(lang)
            .and_then(|text| serde_json::from_str::<Value>(&text));
        (j, moves, report, model)
    });
    let report = report.map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(PyJudgement {
        verdict: j.verdict.name(),
        rules: j.rules,
        clause: j.clause,
        explanation: j.why_en,
        explanation_zh: j.why_zh,
        moves,
        report,
        model,
        lang,
    })
}

/// The 60-round audit (自然限着) an arbiter does by hand, for each claimant (or one:
/// `claimant="red"`): a list of dicts with every ply (`rows`), the last capture and the verdict
/// (`draw_from`, `not_yet` or `ended_on_board`).
#[pyfunction]
#[pyo3(signature = (fen, moves, rounds = 60, check_cap = 10, cap_both = false, claimant = None))]
pub(crate) fn limit(
    py: Python<'_>,
    fen: Option<&str>,
    moves: &Bound<'_, PyAny>,
    rounds: u32,
    check_cap: u32,
    cap_both: bool,
    claimant: Option<&str>,
) -> PyResult<Vec<Py<PyAny>>> {
    let claimants = match claimant {
        None => vec![Color::Red, Color::Black],
        Some("red") => vec![Color::Red],
        Some("black") => vec![Color::Black],
        Some(other) => {
            return Err(PyValueError::new_err(format!(
                "unknown claimant `{other}`: use red or black"
            )));
        }
    };
    let start = start_of(py, fen)?;
    let line = resolve_line(py, &start, moves)?;
    let options = LimitOptions {
        rounds,
        check_cap,
        cap_applies: if cap_both {
            CapApplies::Both
        } else {
            CapApplies::Claimant
        },
    };
    let values: Vec<Value> = py.detach(|| {
        let positions = xq_arbiter::cycle::positions(&start, &line);
        claimants
            .iter()
            .map(|&c| {
                let a = audit(&positions, &line, options, c);
                let mut v = serde_json::to_value(&a).unwrap_or(Value::Null);
                if let Some(rows) = v.get_mut("rows").and_then(Value::as_array_mut) {
                    for (row, r) in rows.iter_mut().zip(&a.rows) {
                        row["chinese"] = Value::String(write(
                            &positions[r.ply - 1],
                            r.m,
                            Notation::Chinese(ChineseStyle::default()),
                        ));
                    }
                }
                v
            })
            .collect()
    });
    values.iter().map(|v| to_py(py, v)).collect()
}
