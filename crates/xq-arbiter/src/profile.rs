//! Rule profiles: the Chinese rules (CXA 2020 棋例, [`crate::cxa2020`]) and the Asian/World rules
//! (AXF/WXF, [`crate::axf`]). Each is one module implementing [`RuleSet`] over the shared
//! primitives — the searches ([`crate::search`]), what a side can win ([`crate::threats`]), the
//! material scale ([`crate::material`]), mate threats and the 闲 family ([`crate::quiet`]), the
//! cycle ([`crate::cycle`]) and the pattern names ([`crate::pattern`]). The shared classifier
//! ([`crate::classify`](mod@crate::classify)) and the judge ask the profile, never branch on it.
//!
//! Adding a profile (a club's house rules, an older CXA edition) means adding one module with a
//! type implementing [`RuleSet`], and a [`Profile`] constant for it listed in [`Profile::ALL`].

use std::fmt;

pub use crate::rule_set::RuleSet;

/// A rule set, by handle: cheap to copy, compared by name.
#[derive(Copy, Clone)]
pub struct Profile {
    rules: &'static dyn RuleSet,
}

impl Profile {
    /// The Chinese Xiangqi Association's 2020 rules (棋例, 第24–26条).
    pub const CXA2020: Profile = Profile {
        rules: &crate::cxa2020::Cxa2020,
    };

    /// The Asian Xiangqi Federation's rules, as the World Xiangqi Federation and engines apply
    /// them.
    pub const AXF: Profile = Profile {
        rules: &crate::axf::Axf,
    };

    /// Every profile, the default first.
    pub const ALL: [Profile; 2] = [Profile::CXA2020, Profile::AXF];

    /// The profile named `name` (`cxa2020`, `axf`).
    pub fn by_name(name: &str) -> Option<Profile> {
        Profile::ALL.into_iter().find(|p| p.name() == name)
    }

    /// Its name: `cxa2020`, `axf`.
    pub fn name(self) -> &'static str {
        self.rules.name()
    }

    /// What it decides.
    pub fn rules(self) -> &'static dyn RuleSet {
        self.rules
    }
}

impl PartialEq for Profile {
    fn eq(&self, other: &Profile) -> bool {
        self.name() == other.name()
    }
}

impl Eq for Profile {}

impl Default for Profile {
    fn default() -> Profile {
        Profile::CXA2020
    }
}

impl fmt::Debug for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Profile({})", self.name())
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
