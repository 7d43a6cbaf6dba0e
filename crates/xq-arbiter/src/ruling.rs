//! Rulings on a repetition: who must change, or a draw, with the clause. Each profile rules in
//! its own module ([`crate::cxa2020`], [`crate::axf`]); this module holds what they share.

use std::fmt;

use serde::Serialize;

use crate::{pattern::Pattern, profile::Profile};

/// Who must change, or a draw.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Neither side must change: the game is drawn if the repetition goes on.
    Draw,
    /// Red must change its moves or lose.
    RedMustChange,
    /// Black must change its moves or lose.
    BlackMustChange,
    /// The moves do not repeat a position.
    NoRepetition,
}

impl Verdict {
    /// The JSON name: `draw`, `red_must_change`, `black_must_change`, `no_repetition`.
    pub const fn name(self) -> &'static str {
        match self {
            Verdict::Draw => "draw",
            Verdict::RedMustChange => "red_must_change",
            Verdict::BlackMustChange => "black_must_change",
            Verdict::NoRepetition => "no_repetition",
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A ruling with the clause it rests on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Ruling {
    /// Who must change.
    pub verdict: Verdict,
    /// The clause of the CXA 2020 rules.
    pub clause: &'static str,
    /// Why, in Chinese.
    pub why_zh: String,
    /// Why, in English.
    pub why_en: String,
}

/// Rules on a cycle whose moves have the given patterns, under `profile`.
pub fn rule(red: &Pattern, black: &Pattern, profile: Profile) -> Ruling {
    profile.rules().rule(red, black)
}
