//! Columns in Arrow's memory layout (validity bitmap, offsets, values), built in Rust and handed
//! to pyarrow as `bytes` (`pyarrow.Array.from_buffers`), so that a table of a million rows does
//! not pass through a million Python objects per column.

use pyo3::{
    prelude::*,
    types::{PyBytes, PyTuple},
};

/// Packs flags into a little-endian bitmap, or `None` when all are set (Arrow's "no nulls").
fn bitmap(valid: &[bool]) -> Option<Vec<u8>> {
    if valid.iter().all(|&v| v) {
        return None;
    }
    let mut bits = vec![0u8; valid.len().div_ceil(8)];
    for (i, _) in valid.iter().enumerate().filter(|(_, v)| **v) {
        bits[i / 8] |= 1 << (i % 8);
    }
    Some(bits)
}

fn bytes_or_none<'py>(py: Python<'py>, b: Option<Vec<u8>>) -> Bound<'py, PyAny> {
    match b {
        Some(b) => PyBytes::new(py, &b).into_any(),
        None => py.None().into_bound(py),
    }
}

/// A UTF-8 string column: `(validity, offsets, data)`.
#[derive(Debug)]
pub(crate) struct Strings {
    offsets: Vec<u8>,
    data: Vec<u8>,
    valid: Vec<bool>,
}

impl Default for Strings {
    fn default() -> Strings {
        Strings {
            offsets: 0i32.to_le_bytes().to_vec(),
            data: Vec::new(),
            valid: Vec::new(),
        }
    }
}

impl Strings {
    pub(crate) fn push(&mut self, s: Option<&str>) {
        if let Some(s) = s {
            self.data.extend_from_slice(s.as_bytes());
        }
        self.valid.push(s.is_some());
        // Batches hold at most a few thousand games: far below i32's 2 GiB of text.
        self.offsets
            .extend_from_slice(&(self.data.len() as i32).to_le_bytes());
    }

    pub(crate) fn to_py<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(
            py,
            [
                bytes_or_none(py, bitmap(&self.valid)),
                PyBytes::new(py, &self.offsets).into_any(),
                PyBytes::new(py, &self.data).into_any(),
            ],
        )
    }
}

/// A fixed-width integer column of `WIDTH` bytes: `(validity, values)`.
#[derive(Debug, Default)]
pub(crate) struct Ints<const WIDTH: usize> {
    values: Vec<u8>,
    valid: Vec<bool>,
}

impl<const WIDTH: usize> Ints<WIDTH> {
    /// Appends `v` (its low `WIDTH` bytes, little-endian: callers keep values in range).
    pub(crate) fn push(&mut self, v: Option<i64>) {
        let bytes = v.unwrap_or(0).to_le_bytes();
        self.values.extend_from_slice(&bytes[..WIDTH]);
        self.valid.push(v.is_some());
    }

    pub(crate) fn to_py<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(
            py,
            [
                bytes_or_none(py, bitmap(&self.valid)),
                PyBytes::new(py, &self.values).into_any(),
            ],
        )
    }
}
