//! Rule profiles: the Chinese rules (CXA 2020 棋例) and the Asian/World rules (AXF/WXF), as the
//! few parameters in which they differ. Both run on the same machinery: the same cycle search, the
//! same classification into 将 杀 捉 兑 献 拦 跟 闲 (with the chase test the profile names), the same
//! patterns; they differ in what a chase is, which patterns are forbidden, and how a cycle where
//! both sides break the rules is ruled. `docs/arbiter.md` sets them side by side.

use std::fmt;

/// What makes a move a chase (捉).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ChaseModel {
    /// CXA 24.3: the move threatens to win material next move — by capture, a series of checks
    /// or the complete exchange on the rulebook's scale — with joint chases, exchange traps and
    /// the exceptions of 第26条.
    MaterialGain,
    /// AXF: the move creates an attack on an unprotected piece, or on a piece that outranks its
    /// attacker (rook by horse or cannon; rook, horse or cannon by advisor or elephant), or on a
    /// same-kind piece that cannot take back; kings and pawns do not chase, uncrossed pawns and
    /// kings are not chased (see [`crate::axf`]).
    Attack,
}

/// How a cycle is ruled when both sides play forbidden moves.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BothForbidden {
    /// CXA 26.9: the table of who must change (heavy patterns against chases of an
    /// under-protected piece, single against joint chases …), otherwise a draw.
    Table,
    /// AXF: perpetual check outranks perpetual chase (the checking side must change); the same
    /// violation on both sides is a draw.
    CheckOutranksChase,
}

/// A rule set.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Profile {
    /// The name in reports: `cxa2020`, `axf`.
    pub name: &'static str,
    /// What a chase is.
    pub chase: ChaseModel,
    /// Whether every mix of attacking moves is forbidden — 长杀, 一将一捉, 一将一杀, 一杀一捉 —
    /// (CXA 24.13) or only perpetual check and perpetual chase (AXF, where perpetual mate threats
    /// and one check one chase are allowed).
    pub mixes_forbidden: bool,
    /// Whether a perpetual chase must chase one and the same piece with every move (AXF: chasing
    /// two pieces in turn is allowed); CXA 24.11 counts chasing one or several pieces.
    pub same_target: bool,
    /// Both sides forbidden.
    pub both_forbidden: BothForbidden,
}

impl Profile {
    /// The Chinese Xiangqi Association's 2020 rules (棋例, 第24–26条).
    pub const CXA2020: Profile = Profile {
        name: "cxa2020",
        chase: ChaseModel::MaterialGain,
        mixes_forbidden: true,
        same_target: false,
        both_forbidden: BothForbidden::Table,
    };

    /// The Asian Xiangqi Federation's rules, as the World Xiangqi Federation and engines apply
    /// them.
    pub const AXF: Profile = Profile {
        name: "axf",
        chase: ChaseModel::Attack,
        mixes_forbidden: false,
        same_target: true,
        both_forbidden: BothForbidden::CheckOutranksChase,
    };

    /// The profile named `name` (`cxa2020`, `axf`).
    pub fn by_name(name: &str) -> Option<Profile> {
        [Profile::CXA2020, Profile::AXF]
            .into_iter()
            .find(|p| p.name == name)
    }
}

impl Default for Profile {
    fn default() -> Profile {
        Profile::CXA2020
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}
