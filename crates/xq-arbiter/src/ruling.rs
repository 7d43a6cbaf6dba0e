//! Rulings on a repetition under the CXA 2020 棋例 (第24–26条).

use std::fmt;

use serde::Serialize;

use crate::{
    classify::{Classified, Protection, Reason},
    nature::Nature,
    profile::{BothForbidden, Profile},
};

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
    /// following the chased pieces through the cycle found (AXF's perpetual chase needs one and
    /// the same piece).
    pub fn of(moves: &[&Classified], profile: Profile, persistence: Persistence) -> Pattern {
        let common_target = persistence.same_piece;
        let natures: Vec<Nature> = moves.iter().map(|c| c.nature).collect();
        let any = !natures.is_empty();
        let all = |n: Nature| any && natures.iter().all(|&x| x == n);
        let forbidden = if profile.mixes_forbidden {
            any && natures.iter().all(|n| n.is_attacking())
        } else {
            // Perpetual check, or every move chasing (a check that also chases counts) — one and
            // the same piece where the profile says so.
            let chasing = natures
                .iter()
                .all(|&n| matches!(n, Nature::Chase | Nature::Check));
            all(Nature::Check)
                || (profile.same_target && common_target)
                || (!profile.same_target && all(Nature::Chase))
                || (chasing && common_target)
        };
        let chases = chase_facts(moves);
        let mut name = name_of(&natures);
        if profile.same_target && all(Nature::Chase) && !common_target {
            // Each move chases, but not the same piece: 捉多子, allowed under AXF.
            name = "捉多子".to_owned();
        }
        Pattern {
            name,
            natures,
            forbidden,
            chases,
            pinned_rook: forbidden && persistence.pinned_rook,
        }
    }

    fn all(&self, nature: Nature) -> bool {
        !self.natures.is_empty() && self.natures.iter().all(|&n| n == nature)
    }

    /// 长将: every move checks.
    pub fn perpetual_check(&self) -> bool {
        self.all(Nature::Check)
    }

    /// The heavy forbidden patterns of 26.9.1: 长杀, 一将一杀, 长捉车, 长捉无根子, 一将(杀)一捉车
    /// or 无根子, 一捉车一捉无根子.
    fn heavy(&self) -> bool {
        let has = |n: Nature| self.natures.contains(&n);
        self.forbidden
            && !self.perpetual_check()
            && (!has(Nature::Chase) || self.chases.heavy_chases)
            && (has(Nature::MateThreat) || has(Nature::Chase))
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
        under_protected: some_move(&|c| c.under_protected && !c.rook),
        single_rook: every_move(&|c| c.rook && c.single),
        single_unprotected: every_move(&|c| c.unprotected && c.single),
        heavy_chases: every_move(&|c| c.rook || c.unprotected),
    }
}

/// The rulebook's name for a sequence of natures: 长X when all are the same (两闲 for two idle
/// moves), otherwise the count of each nature, heaviest first: 一将一捉, 一捉一兑, 二将一闲 …
fn name_of(natures: &[Nature]) -> String {
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
    let mut kinds: Vec<(Nature, usize)> = Vec::new();
    for &n in natures {
        match kinds.iter_mut().find(|(k, _)| *k == n) {
            Some((_, count)) => *count += 1,
            None => kinds.push((n, 1)),
        }
    }
    kinds.sort_by_key(|(k, _)| *k);
    const COUNT: [&str; 10] = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九"];
    kinds
        .iter()
        .map(|&(k, n)| format!("{}{}", COUNT.get(n).copied().unwrap_or("多"), k.chinese()))
        .collect()
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
    match profile.both_forbidden {
        BothForbidden::Table => rule_cxa(red, black),
        BothForbidden::CheckOutranksChase => rule_axf(red, black),
    }
}

/// The AXF ladder: perpetual check (2) outranks perpetual chase (1) outranks everything else
/// (0); the side higher on it must change; the same rank on both sides is a draw.
fn rule_axf(red: &Pattern, black: &Pattern) -> Ruling {
    let rank = |p: &Pattern| {
        if p.perpetual_check() {
            3
        } else if p.pinned_rook {
            2
        } else {
            u8::from(p.forbidden)
        }
    };
    let names = |p: &Pattern| (p.name.clone(), rank(p));
    let ((red_name, r), (black_name, b)) = (names(red), names(black));
    let what_zh =
        |rank: u8| ["允许着法", "长捉（同一子）", "长捉被马牵制之车", "长将"][usize::from(rank)];
    let what_en = |rank: u8| {
        [
            "allowed moves",
            "a perpetual chase of one piece",
            "a perpetual chase of a rook pinned by a horse",
            "perpetual check",
        ][usize::from(rank)]
    };
    if r == b {
        let (clause, zh, en) = match r {
            0 => (
                "axf.allowed",
                format!(
                    "双方均为允许着法（红方{red_name}，黑方{black_name}；亚洲规则下长杀、一将一捉、捉多子均不犯规），不变作和"
                ),
                format!(
                    "both sides play allowed moves (Red {red_name}, Black {black_name}; under the Asian rules perpetual mate threats, one check one chase and chasing pieces in turn are allowed): a draw"
                ),
            ),
            _ => (
                "axf.mutual",
                format!("双方同为{}，不变作和", what_zh(r)),
                format!("both sides play {}: a draw", what_en(r)),
            ),
        };
        return Ruling {
            verdict: Verdict::Draw,
            clause,
            why_zh: zh,
            why_en: en,
        };
    }
    let red_changes = r > b;
    let (mine, theirs, my_rank, their_rank) = if red_changes {
        (&red_name, &black_name, r, b)
    } else {
        (&black_name, &red_name, b, r)
    };
    let (side_zh, side_en) = if red_changes {
        ("红方", "Red")
    } else {
        ("黑方", "Black")
    };
    let clause = match (my_rank, their_rank) {
        (3, 1 | 2) => "axf.check-outranks-chase",
        (3, _) => "axf.perpetual-check",
        (2, 1) => "axf.pinned-rook",
        _ => "axf.perpetual-chase",
    };
    Ruling {
        verdict: if red_changes {
            Verdict::RedMustChange
        } else {
            Verdict::BlackMustChange
        },
        clause,
        why_zh: format!(
            "{side_zh}{mine}为{}，对方{theirs}为{}，{side_zh}须变着（亚洲规则：长将重于长捉，长捉被马牵制之车重于一般长捉）",
            what_zh(my_rank),
            what_zh(their_rank)
        ),
        why_en: format!(
            "{side_en}'s {mine} is {} against the other side's {theirs} ({}): {side_en} must change (Asian rules: perpetual check outranks perpetual chase, and chasing a rook pinned by a horse outranks other chases)",
            what_en(my_rank),
            what_en(their_rank)
        ),
    }
}

/// The CXA 2020 rulings (25.1–25.3, 26.9).
fn rule_cxa(red: &Pattern, black: &Pattern) -> Ruling {
    let ruling = |verdict, clause, zh: String, en: String| Ruling {
        verdict,
        clause,
        why_zh: zh,
        why_en: en,
    };
    let must_change = |red_side: bool| {
        if red_side {
            Verdict::RedMustChange
        } else {
            Verdict::BlackMustChange
        }
    };
    let side_zh = |red_side: bool| if red_side { "红方" } else { "黑方" };
    let side_en = |red_side: bool| if red_side { "Red" } else { "Black" };

    match (red.perpetual_check(), black.perpetual_check()) {
        (true, true) => {
            return ruling(
                Verdict::Draw,
                "26.9.4",
                "双方长将，均非单方面长将，双方不变作和".to_owned(),
                "both sides check perpetually; neither is a unilateral perpetual check, so it is a draw".to_owned(),
            );
        }
        (true, false) | (false, true) => {
            let r = red.perpetual_check();
            return ruling(
                must_change(r),
                "25.1",
                format!("{}单方面长将，任何情况下均不允许，须变着", side_zh(r)),
                format!(
                    "{} checks perpetually on its own, which is never allowed: it must change",
                    side_en(r)
                ),
            );
        }
        (false, false) => {}
    }
    match (red.forbidden, black.forbidden) {
        (false, false) => ruling(
            Verdict::Draw,
            "25.2",
            format!(
                "双方均为允许着法（红方{}，黑方{}），双方不变作和",
                red.name, black.name
            ),
            format!(
                "both sides play allowed moves (Red {}, Black {}): a draw if neither changes",
                red.name, black.name
            ),
        ),
        (true, false) | (false, true) => {
            let r = red.forbidden;
            let (mine, theirs) = if r { (red, black) } else { (black, red) };
            ruling(
                must_change(r),
                "25.3",
                format!(
                    "{}{}为禁止着法，对方{}为允许着法，{}须变着",
                    side_zh(r),
                    mine.name,
                    theirs.name,
                    side_zh(r)
                ),
                format!(
                    "{}'s {} is forbidden and the other side's {} is allowed: {} must change",
                    side_en(r),
                    mine.name,
                    theirs.name,
                    side_en(r)
                ),
            )
        }
        (true, true) => both_forbidden(red, black),
    }
}

/// The both-forbidden table (26.9).
fn both_forbidden(red: &Pattern, black: &Pattern) -> Ruling {
    // Each rule names the side that must change when it applies.
    // 单方长捉车而对方联合捉, 单方长捉无根子而对方联合捉: the other side chases perpetually too,
    // and jointly.
    let single_vs_joint = |me: &Pattern, other: &Pattern| {
        let other_joint = other.chases.joint && other.all(Nature::Chase);
        if me.chases.single_rook && other_joint && !me.chases.joint {
            Some((
                "26.9.2",
                "单子长捉车，对方联合捉",
                "a single piece chases a rook, the other side chases jointly",
            ))
        } else if me.chases.single_unprotected && other_joint && !me.chases.joint {
            Some((
                "26.9.3",
                "单子长捉无根子，对方联合捉",
                "a single piece chases an unprotected piece, the other side chases jointly",
            ))
        } else {
            None
        }
    };
    let heavy_vs_under = |me: &Pattern, other: &Pattern| {
        (me.heavy() && other.chases.under_protected && !other.heavy()).then_some((
            "26.9.1",
            "长杀、一将一杀、长捉车或长捉无根子等，对方所捉为少根子",
            "a heavy forbidden pattern (perpetual mate threat, chasing a rook or an unprotected piece) against chases of an under-protected piece",
        ))
    };
    let red_fault = single_vs_joint(red, black).or_else(|| heavy_vs_under(red, black));
    let black_fault = single_vs_joint(black, red).or_else(|| heavy_vs_under(black, red));
    match (red_fault, black_fault) {
        (Some((clause, zh, en)), None) => Ruling {
            verdict: Verdict::RedMustChange,
            clause,
            why_zh: format!(
                "双方均为禁止着法（红方{}，黑方{}）：红方{zh}，红方须变着",
                red.name, black.name
            ),
            why_en: format!(
                "both sides play forbidden moves (Red {}, Black {}); for Red {en}: Red must change",
                red.name, black.name
            ),
        },
        (None, Some((clause, zh, en))) => Ruling {
            verdict: Verdict::BlackMustChange,
            clause,
            why_zh: format!(
                "双方均为禁止着法（红方{}，黑方{}）：黑方{zh}，黑方须变着",
                red.name, black.name
            ),
            why_en: format!(
                "both sides play forbidden moves (Red {}, Black {}); for Black {en}: Black must change",
                red.name, black.name
            ),
        },
        _ => Ruling {
            verdict: Verdict::Draw,
            clause: "26.9.4",
            why_zh: format!(
                "双方均为禁止着法（红方{}，黑方{}），不属须变着之列，双方不变作和",
                red.name, black.name
            ),
            why_en: format!(
                "both sides play forbidden moves (Red {}, Black {}) and none of the cases where one must change applies: a draw",
                red.name, black.name
            ),
        },
    }
}
