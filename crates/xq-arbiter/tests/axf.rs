//! The Asian (AXF) profile, one small position or pattern per rule where it differs from the
//! Chinese one.

#![allow(clippy::unwrap_used)] // tests: a panic is the failure report

use xq_arbiter::{
    Classified, JudgeOptions, Nature, Profile, Reason, Verdict,
    axf::chase::chased,
    classify::{Chase, Protection},
    judge,
    pattern::{Pattern, Persistence},
    ruling::rule,
};
use xq_core::{Color, Move, Square};

mod common;

use common::{pos, simple};

/// What Red chases in `fen`: (target, protection), sorted.
fn red_chases(fen: &str) -> Vec<(String, Protection)> {
    let mut out: Vec<(String, Protection)> = chased(&pos(fen), Color::Red)
        .into_iter()
        .map(|c| (c.target.to_string(), c.protection))
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

#[test]
fn a_rook_is_chased_by_a_horse_even_when_protected() {
    // The red horse on b5 attacks the rook on c7, which the horse on e8 protects.
    assert_eq!(
        red_chases("4k4/4n4/2r6/9/1N7/9/9/9/9/4K4 w"),
        [("c7".to_owned(), Protection::OutweighsAttacker)]
    );
}

#[test]
fn a_protected_horse_is_not_chased_by_a_rook_an_unprotected_one_is() {
    assert_eq!(red_chases("2r1k4/9/R1n6/9/9/9/9/9/4A4/4K4 w"), []);
    assert_eq!(
        red_chases("4k4/9/R1n6/9/9/9/9/9/4A4/4K4 w"),
        [("c7".to_owned(), Protection::Unprotected)]
    );
}

#[test]
fn kings_and_pawns_do_not_chase_and_uncrossed_pawns_are_not_chased() {
    // A crossed red pawn in front of a lone horse: no chase.
    assert_eq!(red_chases("4k4/9/2n6/2P6/9/9/9/9/4A4/4K4 w"), []);
    // A black pawn on its own half is no target; once across the river it is.
    assert_eq!(red_chases("4k4/9/9/R1p6/9/9/9/9/4A4/4K4 w"), []);
    assert_eq!(
        red_chases("4k4/9/9/9/9/R1p6/9/9/4A4/4K4 w"),
        [("c4".to_owned(), Protection::Unprotected)]
    );
}

#[test]
fn a_same_kind_attack_is_an_exchange_offer_unless_the_target_cannot_take_back() {
    // Rook against rook: the black rook can take back, so it is no chase.
    assert_eq!(red_chases("4k4/9/R1r6/9/9/9/9/9/4A4/4K4 w"), []);
    // Pinned on the e-file by the rook on e3, the black rook on e7 cannot take the c7 rook back:
    // chased (but not by the pinning rook, which it could take).
    assert_eq!(
        red_chases("4k4/9/2R1r4/9/9/9/4R4/9/9/3K5 w"),
        [("e7".to_owned(), Protection::Unprotected)]
    );
}

#[test]
fn a_pinned_attacker_does_not_chase() {
    // The red horse on e3 shields its king from the black rook: its attack on the loose cannon
    // on d5 is no chase (it may not move). Unpinned, it chases.
    assert_eq!(red_chases("3k5/4r4/9/9/3c5/9/4N4/9/9/4K4 w"), []);
    assert_eq!(
        red_chases("3k5/9/9/9/3c5/9/4N4/9/9/4K4 w"),
        [("d5".to_owned(), Protection::Unprotected)]
    );
}

#[test]
fn a_protector_that_shields_its_king_does_not_protect() {
    // The horse on c7 is protected by the rook on c9, which the red rook on a9 pins to the king:
    // a false root. (The pinned rook itself is no target: it may take its pinner.)
    assert_eq!(
        red_chases("R1rk5/9/R1n6/9/9/9/9/9/9/4K4 w"),
        [("c7".to_owned(), Protection::FakeRoot)]
    );
    assert_eq!(red_chases("2rk5/9/R1n6/9/9/9/9/9/9/4K4 w"), []);
}

#[test]
fn a_rook_on_a_horse_leg_is_flagged() {
    // The black rook on f8 stands on the leg of the red horse g8 aimed at the king: it cannot
    // move, and chasing it is the heavier violation (WXF diagrams 39–41).
    let c = chased(
        &pos("2baka1r1/CR3rN2/9/2p1p4/9/9/4P4/9/4A4/4KA3 w"),
        Color::Red,
    );
    let on_f8: Vec<&Chase> = c.iter().filter(|c| c.target == Square::F8).collect();
    assert_eq!(on_f8.len(), 2, "{c:?}");
    assert!(on_f8.iter().all(|c| c.pinned_by_horse));
    assert!(
        c.iter()
            .filter(|c| c.target != Square::F8)
            .all(|c| !c.pinned_by_horse)
    );
}

fn chase(side: Color, target: Square, pinned_by_horse: bool) -> Classified {
    Classified {
        m: "a0a1".parse().unwrap(),
        side,
        nature: Nature::Chase,
        reason: Reason::Chase {
            chases: vec![Chase {
                target,
                target_piece: 'r',
                attacker: Square::E4,
                attacker_piece: 'C',
                pieces: vec![Square::E4],
                joint: false,
                protection: Protection::OutweighsAttacker,
                value: 0,
                each_takes_each: false,
                line: Vec::new(),
                pinned_by_horse,
            }],
        },
    }
}

fn pattern(moves: &[Classified], same_piece: bool, pinned_rook: bool) -> Pattern {
    Pattern::of(
        &moves.iter().collect::<Vec<_>>(),
        Profile::AXF,
        Persistence {
            same_piece,
            pinned_rook,
        },
    )
}

#[test]
fn the_asian_ladder() {
    use Color::{Black, Red};
    let axf = |r: &Pattern, b: &Pattern| {
        let ruling = rule(r, b, Profile::AXF);
        (ruling.verdict, ruling.clause)
    };
    let idle = pattern(
        &[simple(Black, Nature::Idle), simple(Black, Nature::Idle)],
        false,
        false,
    );
    // Perpetual check loses, and outranks a perpetual chase.
    let checks = pattern(
        &[simple(Red, Nature::Check), simple(Red, Nature::Check)],
        false,
        false,
    );
    assert_eq!(
        axf(&checks, &idle),
        (Verdict::RedMustChange, "axf.perpetual-check")
    );
    let chasing = pattern(
        &[
            chase(Black, Square::E5, false),
            chase(Black, Square::E5, false),
        ],
        true,
        false,
    );
    assert_eq!(
        axf(&checks, &chasing),
        (Verdict::RedMustChange, "axf.check-outranks-chase")
    );
    // A perpetual chase of one piece loses; two chasing sides draw.
    let red_chasing = pattern(
        &[chase(Red, Square::E5, false), chase(Red, Square::E5, false)],
        true,
        false,
    );
    assert_eq!(
        axf(&red_chasing, &idle),
        (Verdict::RedMustChange, "axf.perpetual-chase")
    );
    assert_eq!(axf(&red_chasing, &chasing), (Verdict::Draw, "axf.mutual"));
    // Chasing a rook pinned by a horse outranks an ordinary chase (WXF diagrams 39–41).
    let pinned = pattern(
        &[chase(Red, Square::E5, true), chase(Red, Square::E5, true)],
        true,
        true,
    );
    assert_eq!(
        axf(&pinned, &chasing),
        (Verdict::RedMustChange, "axf.pinned-rook")
    );
    // Allowed under AXF, forbidden under CXA: one check one chase, perpetual mate threats, and
    // chasing pieces in turn.
    let mixed = [simple(Red, Nature::Check), chase(Red, Square::E5, false)];
    assert_eq!(
        axf(&pattern(&mixed, false, false), &idle),
        (Verdict::Draw, "axf.allowed")
    );
    let cxa = Pattern::of(
        &mixed.iter().collect::<Vec<_>>(),
        Profile::CXA2020,
        Persistence::default(),
    );
    let cxa_idle = Pattern::of(
        &[simple(Black, Nature::Idle), simple(Black, Nature::Idle)]
            .iter()
            .collect::<Vec<_>>(),
        Profile::CXA2020,
        Persistence::default(),
    );
    assert_eq!(
        rule(&cxa, &cxa_idle, Profile::CXA2020).verdict,
        Verdict::RedMustChange
    );
    let kills = pattern(
        &[
            simple(Red, Nature::MateThreat),
            simple(Red, Nature::MateThreat),
        ],
        false,
        false,
    );
    assert_eq!(axf(&kills, &idle), (Verdict::Draw, "axf.allowed"));
    let in_turn = pattern(
        &[chase(Red, Square::E5, false), chase(Red, Square::D5, false)],
        false,
        false,
    );
    assert_eq!(in_turn.name, "捉多子");
    assert_eq!(axf(&in_turn, &idle), (Verdict::Draw, "axf.allowed"));
}

/// The same alternation of check and chase, ruled under both profiles (WXF: "alternate check
/// and chase").
#[test]
fn one_check_one_chase_is_a_draw_in_asia_and_forbidden_in_china() {
    let start = pos("1R1C1abr1/4k4/4b4/p7p/2p6/9/r1P3P2/B8/9/2B1KA3 w - - 0 1");
    let moves: Vec<Move> = "b9b8 e8e9 b8b9 e9e8 b9b8 e8e9"
        .split(' ')
        .map(|m| m.parse().unwrap())
        .collect();
    let axf = judge(
        &start,
        &moves,
        JudgeOptions {
            profile: Profile::AXF,
            ..JudgeOptions::default()
        },
    );
    assert_eq!((axf.rules, axf.verdict), ("axf", Verdict::Draw));
    let cxa = judge(&start, &moves, JudgeOptions::default());
    assert_eq!(
        (cxa.rules, cxa.verdict),
        ("cxa2020", Verdict::RedMustChange)
    );
    assert_eq!(cxa.sides.unwrap().red.name, "一将一捉");
}

/// What `m` creates in `fen`, as (attacker, target) pairs, sorted.
fn created(fen: &str, m: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> =
        xq_arbiter::axf::chase::new_chases(&pos(fen), m.parse().unwrap())
            .into_iter()
            .map(|c| (c.attacker.to_string(), c.target.to_string()))
            .collect();
    out.sort();
    out
}

#[test]
fn a_discovered_attack_on_a_piece_already_attacked_is_a_new_chase() {
    // The rook on a5 already attacks the unprotected cannon on c5; the horse leaving c2 lets the
    // rook on c0 attack it too: a new attacker, a new chase.
    assert_eq!(
        created("5k3/9/9/9/R1c6/9/9/2N6/9/2RK5 w", "c2b4"),
        [("c0".to_owned(), "c5".to_owned())]
    );
    // The same rook sliding along the rank and still attacking the cannon creates nothing.
    assert_eq!(created("5k3/9/9/9/R1c6/9/9/2N6/9/2RK5 w", "a5b5"), []);
}

#[test]
fn the_asian_rules_judge_from_the_first_occurrence_of_the_repeated_position() {
    // The start comes back twice: first after both sides shuffle their kings, then after Red's
    // rook checks twice. The Chinese rules judge the last cycle (Red's perpetual check); the
    // Asian rules the whole stretch from the first occurrence, in which Red does not only check.
    let start = pos("R8/4k4/9/9/9/9/9/9/9/3K5 w");
    let moves: Vec<Move> = "d0d1 e8e7 d1d0 e7e8 a9a8 e8e9 a8a9 e9e8"
        .split(' ')
        .map(|m| m.parse().unwrap())
        .collect();
    let under = |profile| {
        judge(
            &start,
            &moves,
            JudgeOptions {
                profile,
                opening_rounds: 0,
                ..JudgeOptions::default()
            },
        )
    };
    let cxa = under(Profile::CXA2020);
    assert_eq!(cxa.verdict, Verdict::RedMustChange);
    assert_eq!(cxa.cycle.unwrap().start_ply, 4);
    let axf = under(Profile::AXF);
    let cycle = axf.cycle.unwrap();
    assert_eq!((cycle.start_ply, cycle.plies, cycle.occurrences), (0, 8, 3));
    assert_eq!(axf.verdict, Verdict::Draw);
    assert_eq!(axf.moves.len(), 8);
}
