//! Helpers shared by the arbiter's tests.

#![allow(dead_code, clippy::unwrap_used)]

use xq_arbiter::{Classified, Nature, Reason, classify::IdleReason};
use xq_core::{Color, Move, Position};

/// A position from a FEN that must be valid.
pub(crate) fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// A move in ICCS.
pub(crate) fn mv(s: &str) -> Move {
    s.parse().unwrap()
}

/// A classified move of `nature` with no further facts (check, mate threat or idle), for the
/// ruling tests.
pub(crate) fn simple(side: Color, nature: Nature) -> Classified {
    let reason = match nature {
        Nature::Check => Reason::Check {
            checkers: Vec::new(),
            chases: Vec::new(),
        },
        Nature::MateThreat => Reason::MateThreat { line: Vec::new() },
        _ => Reason::Idle(IdleReason::NothingNew),
    };
    Classified {
        m: mv("a0a1"),
        side,
        nature,
        reason,
    }
}
