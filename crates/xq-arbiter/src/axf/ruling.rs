//! The AXF rulings: perpetual check outranks perpetual chase; the same violation on both sides
//! is a draw.

use crate::{
    pattern::Pattern,
    ruling::{Ruling, Verdict},
};

/// The AXF ladder: perpetual check (2) outranks perpetual chase (1) outranks everything else
/// (0); the side higher on it must change; the same rank on both sides is a draw.
pub(crate) fn rule(red: &Pattern, black: &Pattern) -> Ruling {
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
    // In English: the English name with the rulebook's in brackets.
    let english = |p: &Pattern| format!("{} ({})", p.name_en, p.name);
    let (red_en, black_en) = (english(red), english(black));
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
                    "both sides play allowed moves (Red {red_en}, Black {black_en}; under the Asian rules perpetual mate threats, one check one chase and chasing pieces in turn are allowed): a draw"
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
    let (mine_en, theirs_en) = if red_changes {
        (&red_en, &black_en)
    } else {
        (&black_en, &red_en)
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
            "{side_en}'s {mine_en} is {} against the other side's {theirs_en} ({}): {side_en} must change (Asian rules: perpetual check outranks perpetual chase, and chasing a rook pinned by a horse outranks other chases)",
            what_en(my_rank),
            what_en(their_rank)
        ),
    }
}
