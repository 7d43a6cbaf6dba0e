//! Python bindings of the xq toolkit: the native part of the `xq` package (`xq._xq`).
//!
//! The Rust crates stay free of Python; this crate only converts. Work on many games (reading,
//! replaying, validating, building table columns) and judging runs without the GIL, on rayon
//! threads where there are many files. The Python half of the package (`python/xq`) adds the
//! file walking, `xq.scan` (Arrow record batches) and the dataset writers.

mod arbiter;
mod banned;
mod board;
mod columns;
mod convert;
mod errors;
mod records;

use pyo3::prelude::*;
use xq_core::vocab;

/// The 2,086 moves of the policy vocabulary, by label, as coordinates (`a0a1`, …); see
/// `docs/python.md` for the rule that generates them.
#[pyfunction]
fn vocabulary() -> Vec<String> {
    vocab::moves().iter().map(ToString::to_string).collect()
}

#[pymodule]
fn _xq(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("START_FEN", xq_core::START_FEN)?;
    m.add("VOCABULARY_SIZE", vocab::SIZE)?;
    m.add("MASK_BYTES", vocab::PACKED)?;
    m.add("MAX_JOBS", xq_notation::ReaderPool::MAX_WORKERS)?;
    m.add_class::<board::PyBoard>()?;
    m.add_class::<board::PyMove>()?;
    m.add_class::<board::LegalMoves>()?;
    m.add_class::<board::PyOutcome>()?;
    m.add_class::<records::PyGame>()?;
    m.add_class::<arbiter::PyJudgement>()?;
    m.add_class::<arbiter::PyJudgedMove>()?;
    m.add_class::<banned::PyBannedMoves>()?;
    m.add("NotationError", py.get_type::<errors::NotationError>())?;
    m.add(
        "IllegalMoveError",
        py.get_type::<errors::IllegalMoveError>(),
    )?;
    m.add(
        "AmbiguousMoveError",
        py.get_type::<errors::AmbiguousMoveError>(),
    )?;
    m.add("RecordError", py.get_type::<errors::RecordError>())?;
    m.add("FenError", py.get_type::<errors::FenError>())?;
    m.add_function(wrap_pyfunction!(vocabulary, m)?)?;
    m.add_function(wrap_pyfunction!(arbiter::judge, m)?)?;
    m.add_function(wrap_pyfunction!(arbiter::limit, m)?)?;
    m.add_function(wrap_pyfunction!(banned::banned_moves, m)?)?;
    m.add_function(wrap_pyfunction!(records::_read_files, m)?)?;
    m.add_function(wrap_pyfunction!(records::_read_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(records::_stream_file, m)?)?;
    m.add("_LARGE", records::LARGE)?;
    m.add_class::<records::GameChunks>()?;
    m.add_function(wrap_pyfunction!(records::_validate_files, m)?)?;
    m.add_function(wrap_pyfunction!(records::_columns, m)?)?;
    m.add_function(wrap_pyfunction!(records::_json_lines, m)?)?;
    m.add_function(wrap_pyfunction!(records::_schema, m)?)?;
    m.add_function(wrap_pyfunction!(records::split_of, m)?)?;
    Ok(())
}
