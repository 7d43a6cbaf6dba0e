//! A side's moves in a cycle, as the rulebook names them (24.9–24.14): the natures in order, the
//! name (长将, 一将一捉, 两闲 …), and the facts about its chases that the rulings weigh. Whether
//! the pattern is forbidden is the profile's call ([`crate::profile::RuleSet::pattern`]).

use serde::Serialize;

use crate::{
    facts::{Classified, Protection, Reason},
    nature::Nature,
};

/// What a side's chases in a cycle amount to, for the both-forbidden table (26.9).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ChaseFacts {
    /// Some chase is made by two or more pieces together (联合捉).
    pub joint: bool,
    /// Some chase is of a protected but under-protected piece (少根子).
    pub under_protected: bool,
    /// Every chase move chases a rook with a single piece (长捉车 by one piece).
    pub single_rook: bool,
    /// Every chase move chases an unprotected piece with a single piece (长捉无根子 by one
    /// piece).
    pub single_unprotected: bool,
    /// Every chase move chases a rook or an unprotected piece (the heavy chases of 26.9.1).
    pub heavy_chases: bool,
}

/// A side's moves in the cycle, as the rulebook names them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Pattern {
    /// The natures in order (of the 将/杀/捉/闲 families).
    #[serde(skip)]
    pub natures: Vec<Nature>,
    /// The rulebook's name: 长将, 长杀, 长捉, 一将一捉, 一将一闲, 长兑, 两闲 …
    pub name: String,
    /// The name in English: perpetual check, perpetual chase, one check, one chase …
    pub name_en: String,
    /// Forbidden (禁止着法, 24.13): every move checks, threatens mate or chases.
    pub forbidden: bool,
    /// The chase facts.
    #[serde(skip)]
    pub chases: ChaseFacts,
    /// The piece chased on every move is a rook pinned by a horse (AXF's heavier violation).
    #[serde(skip)]
    pub pinned_rook: bool,
}

/// What following the chased pieces through a cycle found for one side.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Persistence {
    /// One and the same enemy piece is chased by every move of the side.
    pub same_piece: bool,
    /// That piece is a rook pinned by a horse whenever it is chased.
    pub pinned_rook: bool,
}

impl Pattern {
    /// The pattern of one side's classified moves under `profile`; `persistence` says what
    /// following the chased pieces through the cycle found.
    pub fn of(
        moves: &[&Classified],
        profile: crate::profile::Profile,
        persistence: Persistence,
    ) -> Pattern {
        profile.rules().pattern(moves, persistence)
    }

    /// What every profile sees in the moves: their natures, the rulebook's name and the chase
    /// facts; not yet forbidden.
    pub fn observed(moves: &[&Classified]) -> Pattern {
        let natures: Vec<Nature> = moves.iter().map(|c| c.nature).collect();
        Pattern {
            name: name_of(&natures),
            name_en: english_name_of(&natures),
            natures,
            forbidden: false,
            chases: chase_facts(moves),
            pinned_rook: false,
        }
    }

    /// Whether the side made moves and every one of them is `nature`.
    pub fn all(&self, nature: Nature) -> bool {
        !self.natures.is_empty() && self.natures.iter().all(|&n| n == nature)
    }

    /// 长将: every move checks.
    pub fn perpetual_check(&self) -> bool {
        self.all(Nature::Check)
    }
}

/// One chased target of a move: whether some single piece wins it, and how it is protected.
struct Chased {
    rook: bool,
    unprotected: bool,
    under_protected: bool,
    single: bool,
}

fn chase_facts(moves: &[&Classified]) -> ChaseFacts {
    // Per chase move, its targets; a target one piece can win alone is chased singly (a second,
    // joint way to win it does not make the chase joint).
    let per_move: Vec<Vec<Chased>> = moves
        .iter()
        .filter_map(|c| match &c.reason {
            Reason::Chase { chases } => Some(chases),
            _ => None,
        })
        .map(|chases| {
            let mut targets: Vec<(xq_core::Square, Chased)> = Vec::new();
            for ch in chases {
                let facts = Chased {
                    rook: ch.target_piece.eq_ignore_ascii_case(&'r'),
                    unprotected: matches!(
                        ch.protection,
                        Protection::Unprotected | Protection::FakeRoot
                    ),
                    under_protected: ch.protection == Protection::UnderProtected,
                    single: !ch.joint,
                };
                match targets.iter_mut().find(|(t, _)| *t == ch.target) {
                    Some((_, known)) => {
                        known.single |= facts.single;
                        known.unprotected |= facts.unprotected;
                        known.under_protected &= facts.under_protected;
                    }
                    None => targets.push((ch.target, facts)),
                }
            }
            targets.into_iter().map(|(_, f)| f).collect()
        })
        .collect();
    let any = !per_move.is_empty();
    let every_move =
        |test: &dyn Fn(&Chased) -> bool| any && per_move.iter().all(|m| m.iter().any(test));
    let some_move = |test: &dyn Fn(&Chased) -> bool| per_move.iter().any(|m| m.iter().any(test));
    ChaseFacts {
        joint: some_move(&|c| !c.single),
        under_protected: some_move(&|c| c.under_protected),
        single_rook: every_move(&|c| c.rook && c.single),
        single_unprotected: every_move(&|c| c.unprotected && c.single),
        heavy_chases: every_move(&|c| c.rook || c.unprotected),
    }
}

/// The English for a sequence of natures, word for word the rulebook's: perpetual check (长将),
/// two idle moves (两闲), one check, one chase (一将一捉), two checks, one idle move (二将一闲) …
pub(crate) fn english_name_of(natures: &[Nature]) -> String {
    let Some(&first) = natures.first() else {
        return String::new();
    };
    if natures.iter().all(|&n| n == first) {
        return match (first, natures.len()) {
            (Nature::Idle, 2) => "two idle moves".to_owned(),
            (Nature::Idle, _) => "idle moves only".to_owned(),
            (n, _) => format!("perpetual {}", n.name()),
        };
    }
    const COUNT: [&str; 10] = [
        "", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
    ];
    counted(natures)
        .iter()
        .map(|&(k, n)| {
            let word = match (k, n) {
                (Nature::Idle, 1) => "idle move".to_owned(),
                (Nature::Idle, _) => "idle moves".to_owned(),
                (k, 1) => k.name().to_owned(),
                (k, _) => format!("{}s", k.name()),
            };
            format!("{} {word}", COUNT.get(n).copied().unwrap_or("many"))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Each nature of a sequence with its count, heaviest first.
fn counted(natures: &[Nature]) -> Vec<(Nature, usize)> {
    let mut kinds: Vec<(Nature, usize)> = Vec::new();
    for &n in natures {
        match kinds.iter_mut().find(|(k, _)| *k == n) {
            Some((_, count)) => *count += 1,
            None => kinds.push((n, 1)),
        }
    }
    kinds.sort_by_key(|(k, _)| *k);
    kinds
}

/// The rulebook's name for a sequence of natures: 长X when all are the same (两闲 for two idle
/// moves), otherwise the count of each nature, heaviest first: 一将一捉, 一捉一兑, 二将一闲 …
pub(crate) fn name_of(natures: &[Nature]) -> String {
    let Some(&first) = natures.first() else {
        return String::new();
    };
    if natures.iter().all(|&n| n == first) {
        return if first == Nature::Idle && natures.len() == 2 {
            "两闲".to_owned()
        } else {
            format!("长{}", first.chinese())
        };
    }
    const COUNT: [&str; 10] = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九"];
    counted(natures)
        .iter()
        .map(|&(k, n)| format!("{}{}", COUNT.get(n).copied().unwrap_or("多"), k.chinese()))
        .collect()
}
