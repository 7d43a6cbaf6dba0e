//! Serde helpers shared by the reports: a move as ICCS text, a side by its name.

use xq_core::{Color, Move};

/// A move as ICCS text (`h2e2`).
pub(crate) fn iccs<S: serde::Serializer>(m: &Move, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(m)
}

/// A side by name (`red`, `black`).
pub(crate) fn color<S: serde::Serializer>(c: &Color, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(c.name())
}
