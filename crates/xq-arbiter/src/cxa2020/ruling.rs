//! The CXA 2020 rulings (25.1–25.3, 26.9).

use crate::{
    nature::Nature,
    pattern::Pattern,
    ruling::{Ruling, Verdict},
};

/// The CXA 2020 rulings (25.1–25.3, 26.9).
pub(crate) fn rule(red: &Pattern, black: &Pattern) -> Ruling {
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
                in_english(red),
                in_english(black)
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
                    in_english(mine),
                    in_english(theirs),
                    side_en(r)
                ),
            )
        }
        (true, true) => both_forbidden(red, black),
    }
}

/// A pattern's name in English with the rulebook's in brackets: `perpetual chase (长捉)`.
fn in_english(p: &Pattern) -> String {
    format!("{} ({})", p.name_en, p.name)
}

/// The both-forbidden table (26.9).
fn both_forbidden(red: &Pattern, black: &Pattern) -> Ruling {
    // Each rule names the side that must change when it applies.
    // 单方长捉车而对方联合捉, 单方长捉无根子而对方联合捉 (26.9.2, 26.9.3): one side's pattern is
    // 长捉 by a single piece on every move; the other side's forbidden pattern chases jointly
    // somewhere (mixed with 将 or 杀 too: 一联合捉一杀). A single chaser's incidental joint
    // threats do not make it the joint side.
    let single_vs_joint = |me: &Pattern, other: &Pattern| {
        let other_joint = other.forbidden && other.chases.joint && !single(other);
        if me.all(Nature::Chase) && me.chases.single_rook && other_joint {
            Some((
                "26.9.2",
                "单子长捉车，对方联合捉",
                "a single piece chases a rook, the other side chases jointly",
            ))
        } else if me.all(Nature::Chase) && me.chases.single_unprotected && other_joint {
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
        (heavy(me) && other.chases.under_protected && !heavy(other)).then_some((
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
                in_english(red),
                in_english(black)
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
                in_english(red),
                in_english(black)
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
                in_english(red),
                in_english(black)
            ),
        },
    }
}

/// The heavy forbidden patterns of 26.9.1: 长杀, 一将一杀, 长捉车, 长捉无根子, 一将(杀)一捉车 or
/// 无根子, 一捉车一捉无根子.
fn heavy(p: &Pattern) -> bool {
    let has = |n: Nature| p.natures.contains(&n);
    p.forbidden
        && !p.perpetual_check()
        && (!has(Nature::Chase) || p.chases.heavy_chases)
        && (has(Nature::MateThreat) || has(Nature::Chase))
}

/// 长捉 by a single piece (26.9.2, 26.9.3): every move chases, and every one chases a rook, or
/// every one an unprotected piece, with a single piece.
fn single(p: &Pattern) -> bool {
    p.all(Nature::Chase) && (p.chases.single_rook || p.chases.single_unprotected)
}
