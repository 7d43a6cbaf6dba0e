//! The module's exceptions (all `ValueError`s) and how library errors become them.
//!
//! Every exception carries the same attributes, `None` where they do not apply, so that a handler
//! can read them without `getattr` defaults: `kind` (a machine name), `span` (a byte range of
//! `text`), `ply` (1-based), `candidates` (moves), `text` (the token), `fen` (the position),
//! `messages` (every problem, for FENs).

use pyo3::{PyTypeInfo, create_exception, exceptions::PyValueError, prelude::*, types::PyList};
use xq_core::FenError as CoreFenError;

create_exception!(
    xq,
    NotationError,
    PyValueError,
    "A move that cannot be read, or names no single legal move in the position."
);
create_exception!(
    xq,
    IllegalMoveError,
    NotationError,
    "A move that no piece can make here, or that breaks a rule of play."
);
create_exception!(
    xq,
    AmbiguousMoveError,
    NotationError,
    "Several legal moves fit the text; `.candidates` lists them."
);
create_exception!(
    xq,
    RecordError,
    PyValueError,
    "A game record that cannot be read."
);
create_exception!(
    xq,
    FenError,
    PyValueError,
    "A FEN that is not a legal position; `.messages` lists every problem."
);

/// The attributes of an exception (see the module documentation); `candidates` is set by the
/// one exception that has them (`board::notation_error`, which knows the `Move` class), an
/// empty list on every other.
#[derive(Debug, Default)]
pub(crate) struct Details {
    pub(crate) kind: &'static str,
    pub(crate) span: Option<(usize, usize)>,
    pub(crate) ply: Option<usize>,
    pub(crate) text: Option<String>,
    pub(crate) fen: Option<String>,
    pub(crate) messages: Vec<String>,
}

/// An exception of type `T` with `message` and `details` as attributes.
pub(crate) fn raise<T: PyTypeInfo>(py: Python<'_>, message: String, d: Details) -> PyErr {
    let err = PyErr::new::<T, _>(message);
    let set = || -> PyResult<()> {
        let value = err.value(py);
        value.setattr("kind", d.kind)?;
        value.setattr("span", d.span)?;
        value.setattr("ply", d.ply)?;
        value.setattr("candidates", PyList::empty(py))?;
        value.setattr("text", d.text.as_deref())?;
        value.setattr("fen", d.fen.as_deref())?;
        value.setattr("messages", d.messages.clone())?;
        Ok(())
    };
    match set() {
        Ok(()) => err,
        Err(other) => other,
    }
}

/// A FEN error, with every problem in `.messages`.
pub(crate) fn fen_error(py: Python<'_>, err: &CoreFenError, fen: &str) -> PyErr {
    let span = err.syntax.first().map(|p| (p.span.start, p.span.end));
    raise::<FenError>(
        py,
        err.to_string(),
        Details {
            kind: if err.syntax.is_empty() {
                "position"
            } else {
                "syntax"
            },
            span,
            text: Some(fen.to_owned()),
            messages: err.messages(),
            ..Details::default()
        },
    )
}
