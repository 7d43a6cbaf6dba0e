//! One small position per concept of the arbiter.

#![allow(clippy::unwrap_used)] // tests: a panic is the failure report

use xq_arbiter::{
    Effort, JudgeOptions, Nature, Profile, Reason, Verdict,
    classify::{Chase, IdleReason, Protection},
    classify_line, judge,
    limit::{CapApplies, LimitOptions},
    pattern::Pattern,
    ruling::rule,
};
use xq_core::{Move, Position};

mod common;

use common::{mv, pos, simple};

/// The nature and reason of `m` played in `fen`.
fn nature(fen: &str, m: &str) -> (Nature, Reason) {
    let c = classify_line(&pos(fen), &[mv(m)], Effort::default(), Profile::CXA2020).remove(0);
    (c.nature, c.reason)
}

/// The chases of a move's reason, which must be a chase.
fn chases(reason: &Reason) -> &[Chase] {
    match reason {
        Reason::Chase { chases } => chases,
        other => panic!("not a chase: {other:?}"),
    }
}

fn protection(reason: &Reason) -> Protection {
    chases(reason)[0].protection
}

#[test]
fn an_unprotected_piece_is_chased() {
    // The rook steps to a5 and attacks the lone horse on c5.
    let (n, r) = nature("3k5/9/9/9/2n6/9/9/9/R8/4K4 w", "a1a5");
    assert_eq!(n, Nature::Chase);
    assert_eq!(protection(&r), Protection::Unprotected);
}

#[test]
fn a_protected_piece_of_lower_value_is_not() {
    // Taking the horse costs the rook: the c9 rook protects it.
    let (n, _) = nature("2rk5/9/9/9/2n6/9/9/9/R8/4K4 w", "a1a5");
    assert_eq!(n.family(), Nature::Idle);
}

#[test]
fn protection_through_a_cannon_screen_counts() {
    // The c9 cannon protects c5 over the horse on c7.
    let (n, _) = nature("2ck5/9/2n6/9/2n6/9/9/9/R8/4K4 w", "a1a5");
    assert_eq!(n.family(), Nature::Idle);
}

#[test]
fn a_rook_is_chased_by_a_horse_even_when_protected() {
    let (n, r) = nature("3k5/9/n8/2r6/9/9/3N5/9/9/4K4 w", "d3b4");
    assert_eq!(n, Nature::Chase);
    assert_eq!(protection(&r), Protection::OutweighsAttacker);
}

#[test]
fn a_protector_pinned_by_the_facing_kings_is_a_fake_root() {
    // The e5 horse protects the c4 cannon, but it may not leave the file between the kings.
    let (n, r) = nature("4k4/9/9/9/4n4/2c6/9/9/R8/4K4 w", "a1a4");
    assert_eq!(n, Nature::Chase);
    assert_eq!(protection(&r), Protection::FakeRoot);
}

#[test]
fn fewer_protectors_than_attackers_is_under_protection() {
    // Two red rooks on the c5 horse, one black rook behind it.
    let (n, r) = nature("3aka3/9/9/2r6/2n6/9/9/9/R8/2RK5 w", "a1a5");
    assert_eq!(n, Nature::Chase);
    assert_eq!(protection(&r), Protection::UnderProtected);
}

#[test]
fn only_new_threats_count() {
    // The c5 horse is already attacked from c1; moving the other rook changes nothing.
    let (n, r) = nature("3k5/9/9/9/2n6/9/9/9/R8/2R1K4 w", "a1a2");
    assert_eq!(n.family(), Nature::Idle);
    assert!(
        matches!(
            r,
            Reason::Idle(IdleReason::NotNew { .. }) | Reason::Follow { .. } | Reason::Block { .. }
        ),
        "{r:?}"
    );
}

#[test]
fn a_pawn_chasing_by_itself_is_idle() {
    let (n, r) = nature("3k5/9/2n6/9/2P6/9/9/9/9/4K4 w", "c5c6");
    assert_eq!(n.family(), Nature::Idle, "{r:?}");
}

#[test]
fn a_king_move_that_makes_another_piece_chase_is_a_chase() {
    // The king steps off the file and uncovers the e0 rook's attack on the e5 horse (26.1).
    let (n, _) = nature("5k3/9/9/9/4n4/9/9/9/4K4/4R4 w", "e1d1");
    assert_eq!(n, Nature::Chase);
}

#[test]
fn a_king_answering_check_is_idle_whatever_it_creates() {
    // A black horse checks; Red's king steps off rank 1, uncovering the a1 rook's attack on the
    // lone h1 horse. A king answering check creates nothing (26.1).
    let start = pos("5k3/9/9/9/9/1n7/9/9/R3K2n1/9 b");
    let line = [mv("b4d3"), mv("e1e2")];
    let natures: Vec<Nature> = classify_line(&start, &line, Effort::default(), Profile::CXA2020)
        .iter()
        .map(|c| c.nature)
        .collect();
    assert_eq!(natures[0], Nature::Check);
    assert_eq!(natures[1], Nature::Idle);
}

#[test]
fn a_quiet_move_threatening_mate_by_checks_is_a_mate_threat() {
    // The a0 rook moves to the open b-file: b0b9 would mate with the h8 rook guarding rank 8.
    let (n, r) = nature("4k4/7R1/9/p8/9/9/9/9/9/R2K5 w", "a0b0");
    assert_eq!(n, Nature::MateThreat, "{r:?}");
}

#[test]
fn checks_are_checks() {
    let (n, r) = nature("4k4/9/9/9/9/9/9/9/9/R2K5 w", "a0a9");
    assert_eq!(n, Nature::Check);
    assert!(matches!(r, Reason::Check { .. }));
}

#[test]
fn perpetual_check_must_change() {
    // 图6 of the rulebook, built here from the start position of the cycle.
    let start = pos("2b6/4k4/9/9/9/9/9/9/2p6/3K1RBc1 w");
    let line: Vec<Move> = ["f0e0", "e8f8", "e0f0", "f8e8"]
        .iter()
        .map(|m| mv(m))
        .collect();
    let j = judge(&start, &line, JudgeOptions::default());
    assert_eq!(j.verdict, Verdict::RedMustChange);
    assert_eq!(j.clause, "25.1");
    let c = j.cycle.unwrap();
    assert_eq!((c.start_ply, c.plies, c.occurrences), (0, 4, 2));
}

#[test]
fn a_line_without_repetition_has_no_verdict() {
    let j = judge(
        &Position::new(),
        &[mv("h2e2"), mv("h9g7")],
        JudgeOptions::default(),
    );
    assert_eq!(j.verdict, Verdict::NoRepetition);
    assert_eq!(j.moves.len(), 2);
}

#[test]
fn the_60_round_count_caps_the_claimants_checks() {
    // Red's rook gives check on every move (a9+, then back to a8); Black's king steps aside
    // and back. No capture ever: 140 plies.
    let start = pos("3k5/9/9/9/9/9/9/9/9/R3K4 w");
    let mut line = Vec::new();
    let mut p = start.clone();
    for i in 0..70 {
        let red = if i % 2 == 0 { mv("a0a9") } else { mv("a9a0") };
        let black = if i % 2 == 0 { mv("d9d8") } else { mv("d8d9") };
        for m in [red, black] {
            assert!(p.is_legal(m), "{m} in {}", p.fen());
            p.play_unchecked(m);
            line.push(m);
        }
    }
    let positions = xq_arbiter::cycle::positions(&start, &line);
    let count = |options| xq_arbiter::limit::count(&positions, &line, options);
    let plain = count(LimitOptions::default());
    assert_eq!(plain.plies_without_capture, 140);
    assert_eq!(plain.checks.red, 35);
    // Black claims: Red's checks are not capped, so 120 plies are reached at ply 120.
    assert_eq!(plain.claim.black.from_ply, Some(120));
    // Red claims: Red's checks beyond the tenth (25 of them) are void: 115 counted, not yet.
    assert_eq!(plain.claim.red.void_checks, 25);
    assert_eq!(plain.claim.red.counted_plies, 115);
    assert!(!plain.claim.red.reached);
    // Capping both sides makes Black's claim wait as well; a lower limit is reached sooner.
    let both = count(LimitOptions {
        cap_applies: CapApplies::Both,
        ..LimitOptions::default()
    });
    assert!(!both.claim.black.reached);
    let short = count(LimitOptions {
        rounds: 40,
        ..LimitOptions::default()
    });
    assert_eq!(short.claim.black.from_ply, Some(80));
    assert!(!plain.ended_on_board);
}

#[test]
fn a_capture_restarts_the_count() {
    let start = Position::new();
    let line: Vec<Move> = ["h2h9", "i9h9", "b0c2"].iter().map(|m| mv(m)).collect();
    let positions = xq_arbiter::cycle::positions(&start, &line);
    let report = xq_arbiter::limit::count(&positions, &line, LimitOptions::default());
    assert_eq!(report.last_capture_ply, Some(2));
    assert_eq!(report.plies_without_capture, 1);
}

/// A classified chase move with one chase of the given kind, for the ruling tests.
fn chase_move(
    side: xq_core::Color,
    target: char,
    protection: Protection,
    joint: bool,
) -> xq_arbiter::Classified {
    xq_arbiter::Classified {
        m: mv("a0a1"),
        side,
        nature: Nature::Chase,
        reason: Reason::Chase {
            chases: vec![Chase {
                target: xq_core::Square::E5,
                target_piece: target,
                attacker: xq_core::Square::E4,
                attacker_piece: 'R',
                pieces: vec![xq_core::Square::E4],
                joint,
                protection,
                value: 10,
                each_takes_each: false,
                line: Vec::new(),
                pinned_by_horse: false,
            }],
        },
    }
}

#[test]
fn the_both_forbidden_table() {
    use xq_core::Color::{Black, Red};
    let pattern = |moves: &[xq_arbiter::Classified]| {
        Pattern::of(
            &moves.iter().collect::<Vec<_>>(),
            Profile::CXA2020,
            Default::default(),
        )
    };
    let rook = |side, joint| {
        chase_move(
            side,
            if side == Red { 'r' } else { 'R' },
            Protection::OutweighsAttacker,
            joint,
        )
    };
    let loose = |side, joint| chase_move(side, 'n', Protection::Unprotected, joint);
    let under = |side| chase_move(side, 'n', Protection::UnderProtected, false);

    // 26.9.2: a single piece chasing a rook against a perpetual joint chase.
    let r = rule(
        &pattern(&[rook(Red, false), rook(Red, false)]),
        &pattern(&[loose(Black, true), loose(Black, false)]),
        Profile::CXA2020,
    );
    assert_eq!((r.verdict, r.clause), (Verdict::RedMustChange, "26.9.2"));
    // 26.9.3: a single piece chasing an unprotected piece against a joint chase.
    let r = rule(
        &pattern(&[loose(Red, true), loose(Red, true)]),
        &pattern(&[loose(Black, false), loose(Black, false)]),
        Profile::CXA2020,
    );
    assert_eq!((r.verdict, r.clause), (Verdict::BlackMustChange, "26.9.3"));
    // ... also when the joint side mixes in a check (一将一联合捉 is joint, 26.9 concept C) ...
    let r = rule(
        &pattern(&[loose(Red, false), loose(Red, false)]),
        &pattern(&[simple(Black, Nature::Check), rook(Black, true)]),
        Profile::CXA2020,
    );
    assert_eq!((r.verdict, r.clause), (Verdict::RedMustChange, "26.9.3"));
    // ... but not when its chases are single (一将一捉车 against 长捉无根子 is a draw, 参考图47).
    let r = rule(
        &pattern(&[loose(Red, false), loose(Red, false)]),
        &pattern(&[simple(Black, Nature::Check), rook(Black, false)]),
        Profile::CXA2020,
    );
    assert_eq!((r.verdict, r.clause), (Verdict::Draw, "26.9.4"));
    // 26.9.1: a heavy pattern against a chase of an under-protected piece.
    let r = rule(
        &pattern(&[rook(Red, false), rook(Red, false)]),
        &pattern(&[under(Black), loose(Black, false)]),
        Profile::CXA2020,
    );
    assert_eq!((r.verdict, r.clause), (Verdict::RedMustChange, "26.9.1"));
    // 26.9.4: otherwise a draw (长杀 against 长捉无根子, 参考图43).
    let r = rule(
        &pattern(&[loose(Red, false), loose(Red, false)]),
        &pattern(&[
            simple(Black, Nature::MateThreat),
            simple(Black, Nature::MateThreat),
        ]),
        Profile::CXA2020,
    );
    assert_eq!((r.verdict, r.clause), (Verdict::Draw, "26.9.4"));
    // 25.3: forbidden against allowed; 25.2: both allowed; 25.1: unilateral perpetual check.
    let r = rule(
        &pattern(&[simple(Red, Nature::Check), loose(Red, false)]),
        &pattern(&[simple(Black, Nature::Idle)]),
        Profile::CXA2020,
    );
    assert_eq!((r.verdict, r.clause), (Verdict::RedMustChange, "25.3"));
    let r = rule(
        &pattern(&[simple(Red, Nature::Check), simple(Red, Nature::Idle)]),
        &pattern(&[simple(Black, Nature::Idle)]),
        Profile::CXA2020,
    );
    assert_eq!((r.verdict, r.clause), (Verdict::Draw, "25.2"));
    let r = rule(
        &pattern(&[simple(Red, Nature::Idle)]),
        &pattern(&[simple(Black, Nature::Check), simple(Black, Nature::Check)]),
        Profile::CXA2020,
    );
    assert_eq!((r.verdict, r.clause), (Verdict::BlackMustChange, "25.1"));
    let r = rule(
        &pattern(&[simple(Red, Nature::Check)]),
        &pattern(&[simple(Black, Nature::Check)]),
        Profile::CXA2020,
    );
    assert_eq!(r.verdict, Verdict::Draw, "mutual perpetual check");
    // Names.
    assert_eq!(
        pattern(&[simple(Red, Nature::Check), loose(Red, false)]).name,
        "一将一捉"
    );
    assert_eq!(
        pattern(&[simple(Red, Nature::Idle), simple(Red, Nature::Idle)]).name,
        "两闲"
    );
    assert_eq!(
        pattern(&[simple(Red, Nature::Check), simple(Red, Nature::Check)]).name,
        "长将"
    );
}

// Labels as the book writes them: 兑 for every exchange offer a move creates, 拦 only for a block
// that holds off a mate, 闲 otherwise (the finer reason stays in `reason`).

#[test]
fn a_block_that_holds_off_a_mate_is_a_block() {
    // Black's cannon steps into the a-file; without it Red's rook mates on a9 (the king's d8
    // neighbour is its own horse, which cannot interpose: the red pawn on c8 blocks its legs).
    let (n, r) = nature("3k5/2Pn5/9/9/9/2c6/9/9/9/R3K4 b", "c4a4");
    assert_eq!(n, Nature::Block);
    assert!(matches!(r, Reason::Block { .. }));
}

#[test]
fn a_block_that_holds_off_nothing_is_idle() {
    // The same step without the pawn on c8: the horse could interpose, there is no mate to
    // hold off, and the book writes such a move 闲 (the reason still says what it does).
    let (n, r) = nature("3k5/3n5/9/9/9/2c6/9/9/9/R3K4 b", "c4a4");
    assert_eq!(n, Nature::Idle);
    assert!(matches!(r, Reason::Offer { .. } | Reason::Block { .. }));
}

#[test]
fn uncovering_a_protected_rook_contact_is_an_exchange_offer() {
    // The horse leaves e5: the rooks on a5 and i5 now face each other, each protected by a pawn.
    let (n, r) = nature("5k3/9/9/8p/R3N3r/P8/9/9/9/3K5 w", "e5d3");
    assert_eq!(n, Nature::Exchange);
    assert!(matches!(r, Reason::Exchange { piece, partner }
        if piece == "a5".parse().unwrap() && partner == "i5".parse().unwrap()));
}

#[test]
fn single_against_joint_when_the_joint_side_mixes_in_a_mate_threat() {
    // 26.9.2: Red chases a rook with a single piece on every move — one move also makes an
    // incidental joint threat — and Black's forbidden pattern is one joint chase and one mate
    // threat (一联合捉一杀): Black counts as the joint side, Red must change.
    use xq_core::Color::{Black, Red};
    let red_moves = [
        chase_move(Red, 'r', Protection::OutweighsAttacker, false),
        {
            let mut c = chase_move(Red, 'r', Protection::OutweighsAttacker, false);
            if let Reason::Chase { chases } = &mut c.reason {
                let mut joint = chases[0].clone();
                joint.target = xq_core::Square::A5;
                joint.target_piece = 'n';
                joint.protection = Protection::Unprotected;
                joint.joint = true;
                chases.push(joint);
            }
            c
        },
    ];
    let black_moves = [
        chase_move(Black, 'R', Protection::OutweighsAttacker, true),
        simple(Black, Nature::MateThreat),
    ];
    let red = Pattern::of(
        &red_moves.iter().collect::<Vec<_>>(),
        Profile::CXA2020,
        Default::default(),
    );
    let black = Pattern::of(
        &black_moves.iter().collect::<Vec<_>>(),
        Profile::CXA2020,
        Default::default(),
    );
    let ruling = rule(&red, &black, Profile::CXA2020);
    assert_eq!(
        (ruling.verdict, ruling.clause),
        (Verdict::RedMustChange, "26.9.2")
    );
}

/// The nature and reason of every move of `moves` played from `fen`.
fn line(fen: &str, moves: &[&str]) -> Vec<(Nature, Reason)> {
    let moves: Vec<Move> = moves.iter().map(|m| mv(m)).collect();
    classify_line(&pos(fen), &moves, Effort::default(), Profile::CXA2020)
        .into_iter()
        .map(|c| (c.nature, c.reason))
        .collect()
}

// A. An answer to check counts for what is new against the position just before the check.

#[test]
fn a_chase_of_the_checking_piece_on_its_new_square_is_new() {
    // The c8 rook attacks the c3 cannon; the cannon steps to e3 with check over the e7 horse, and
    // the horse answers by stepping to f5, where it attacks the cannon again: a new chase (the
    // cannon on e3 could not be won just before the check).
    let natures = line(
        "4k4/2r6/4n4/p8/9/9/2C6/9/9/3K5 b",
        &["a6a5", "c3e3", "e7f5"],
    );
    assert_eq!(natures[1].0, Nature::Check);
    assert_eq!(natures[2].0, Nature::Chase, "{:?}", natures[2].1);
}

#[test]
fn a_checker_that_protected_from_behind_the_attacker_left_its_piece_to_its_fate() {
    // The a4 rook protects the g4 horse from behind the black c4 rook (it takes back on g4 once
    // the black rook has taken). It leaves to check on a9; the advisor's block does not chase
    // the horse the checker abandoned (26.4).
    let natures = line(
        "4k4/4a4/9/8p/9/R1r3N2/9/5A3/9/5K3 b",
        &["i6i5", "a4a9", "e8d9"],
    );
    assert_eq!(natures[1].0, Nature::Check);
    assert_eq!(natures[2].0, Nature::Idle, "{:?}", natures[2].1);
    assert!(
        matches!(
            natures[2].1,
            Reason::Idle(IdleReason::CheckerLeftItsPost { .. })
        ),
        "{:?}",
        natures[2].1
    );
}

#[test]
fn a_checker_whose_protection_would_not_save_the_piece_excuses_nothing() {
    // The h1 cannon, screened by the h3 horse, protected the h4 rook; it leaves to check on e1.
    // The e7 horse's answer, f5, attacks the rook. Put back on h1 the cannon could take back,
    // but Black would still win a rook for a horse: the protection would not have saved it, so
    // the chase counts (26.4 excuses only a threat the checker's protection would have stopped).
    let natures = line(
        "4k4/9/4n4/p8/9/7R1/7N1/9/7C1/3K5 b",
        &["a6a5", "h1e1", "e7f5"],
    );
    assert_eq!(natures[1].0, Nature::Check);
    assert_eq!(natures[2].0, Nature::Chase, "{:?}", natures[2].1);
}

#[test]
fn a_faster_mate_is_a_new_mating_method() {
    // Red mates in two checks already (a1e1, then b2f2); the a1 rook's quiet step to a8 guards
    // rank 8 so that b2b9 mates at once: a new way to mate, 杀 (26.4, 图19's principle).
    let (n, r) = nature("4k4/9/9/9/9/9/9/1R7/R8/3K5 w", "a1a8");
    assert_eq!(n, Nature::MateThreat, "{r:?}");
    assert!(
        matches!(&r, Reason::MateThreat { line } if line.len() == 1),
        "{r:?}"
    );
}

// D. 26.8 on the complete exchange.

#[test]
fn a_pawn_taking_a_bystander_does_not_make_an_exchange_pay() {
    // The horse attacks the e7 cannon, which the g9 elephant protects. Were the elephant to take
    // back, the g5 pawn could take the g6 cannon — but that is the pawn's own doing (26.8): on
    // the complete exchange the horse wins nothing, and its move chases nothing.
    let (n, r) = nature("4k1b2/9/4c4/6c2/N5P2/9/9/9/4A4/3K5 w", "a5c6");
    assert_eq!(n.family(), Nature::Idle, "{r:?}");
}

#[test]
fn a_king_taking_back_a_capturer_counts() {
    // The rook wins the unprotected i7 cannon. Black's desperate a0xd0 is answered by the king
    // taking the rook back: a recapture on the exchange's point, not the king's own doing, so
    // the desperado does not balance the loss and the chase is worth the cannon.
    let (n, r) = nature("4k4/9/8c/9/9/9/4P4/7R1/9/r2NK4 w", "h2h7");
    assert_eq!(n, Nature::Chase, "{r:?}");
    let direct = chases(&r).iter().find(|c| c.line.len() == 1).unwrap();
    assert_eq!(direct.value, xq_arbiter::material::MINOR, "{r:?}");
    assert!(!direct.each_takes_each, "{r:?}");
}

// E and G. When is a chase new.

#[test]
fn a_cheaper_way_to_win_a_piece_is_a_new_chase() {
    // The d5 horse could already win the e7 rook, at the cost of itself (the g5 elephant takes
    // back). The other horse steps onto the elephant's eye at f6: now the rook is won for
    // nothing, a new combination against it — 捉.
    let (n, r) = nature("4k4/9/4r4/9/3N2b2/4N4/9/9/9/3K5 w", "e4f6");
    assert_eq!(n, Nature::Chase, "{r:?}");
}

// B. 各吃各子 (26.6, 26.7).

#[test]
fn each_takes_one_after_a_discovered_check_is_a_chase() {
    // The cannon comes to a9 behind the b9 rook. Now b9b8 uncovers check over the d9 advisor:
    // Black can only balance the horse the rook then takes on c8 by taking the cannon (a5a9),
    // a different piece — 各吃各子 counts as a chase, also when the line starts with a check.
    let (n, r) = nature("1R1ak4/2n6/C8/9/r8/9/9/9/9/3K5 w", "a7a9");
    assert_eq!(n, Nature::Chase, "{r:?}");
    assert!(
        chases(&r)
            .iter()
            .any(|c| c.each_takes_each && c.target.to_string() == "c8"),
        "{r:?}"
    );
}

// 26.2: the drawing key point of the defending side.

#[test]
fn a_lone_attacker_is_excused_only_for_the_defending_side() {
    // Red's only attacking piece, the rook, attacks the unprotected c5 elephant. With a rook
    // each, Red is not the defending side: a chase.
    let (n, r) = nature("4k3r/9/9/9/2b6/9/9/9/9/R2K5 w", "a0a5");
    assert_eq!(n, Nature::Chase, "{r:?}");
    // Against a rook and a horse Red defends, and the attack on the elephant is excused (闲).
    let (n, r) = nature("n3k3r/9/9/9/2b6/9/9/9/9/R2K5 w", "a0a5");
    assert_eq!(n.family(), Nature::Idle, "{r:?}");
    // Two crossed pawns are more pieces than one rook, but less force: Red does not defend.
    let (n, r) = nature("4k4/9/9/9/2b6/9/9/6p1p/9/R2K5 w", "a0a5");
    assert_eq!(n, Nature::Chase, "{r:?}");
}

// F. Joint means necessary (24.17).

/// The squares of the pieces that chase `target` in a direct capture (the line starts on it).
fn co_chasers_of(reason: &Reason, target: &str) -> Vec<String> {
    let chase = chases(reason)
        .iter()
        .find(|c| {
            c.target.to_string() == target
                && c.line.first() == Some(&format!("{}{target}", c.attacker))
        })
        .unwrap_or_else(|| panic!("no direct chase of {target}: {reason:?}"));
    let mut pieces: Vec<String> = chase.pieces.iter().map(ToString::to_string).collect();
    pieces.sort();
    pieces
}

#[test]
fn a_piece_that_only_takes_a_pawn_at_the_end_is_no_co_chaser() {
    // The horse comes to h2 and wins the unprotected f3 rook. Black's best answer takes the g4
    // elephant, and the e6 rook then picks up the e4 pawn: it appears in the line, but the rook
    // is won without it — a single chase.
    let (n, r) = nature("3k5/9/9/4R4/8n/4p1B2/5r3/9/5N3/4K4 w", "f1h2");
    assert_eq!(n, Nature::Chase, "{r:?}");
    assert_eq!(co_chasers_of(&r, "f3"), ["h2"]);
}

#[test]
fn a_pin_that_makes_the_recapture_illegal_is_a_co_chaser() {
    // The rook comes to a6 and attacks the c6 cannon. Its protector, the e7 horse, may not take
    // back: the e2 rook pins it to its king. Without the e2 rook the chase fails, so it is a
    // joint chase of both rooks, though the e2 rook never moves in the line.
    let (n, r) = nature("3aka3/9/4n4/2c6/9/9/9/4R4/R8/3K5 w", "a1a6");
    assert_eq!(n, Nature::Chase, "{r:?}");
    assert_eq!(co_chasers_of(&r, "c6"), ["a6", "e2"]);
    // And the e2 rook's own win of the horse does not need the a6 rook, whose capture of the
    // cannon comes later in that line.
    assert_eq!(co_chasers_of(&r, "e7"), ["e2"]);
}

#[test]
fn a_rook_behind_a_pawn_joins_its_capture() {
    // The pawn on e6 could already take the e7 rook, on its own (26.8: idle). The rook comes to
    // e5 behind it: once the pawn stands on e7, the rook protects it, so the pawn no longer
    // chases alone — a joint chase of pawn and rook.
    let (n, r) = nature("2b1k4/9/4r4/4P4/R8/9/9/9/9/3K5 w", "a5e5");
    assert_eq!(n, Nature::Chase, "{r:?}");
    assert_eq!(co_chasers_of(&r, "e7"), ["e5", "e6"]);
}

/// Whether the reason is the idle one of a move that only steps out of an attack.
fn only_escapes(reason: &Reason) -> bool {
    matches!(reason, Reason::Idle(IdleReason::OnlyEscapes { .. }))
}

// 24.3, a chase must be the move's own doing: the black horse on f6 stands attacked by the red
// rook, and the black rook's capture of the horse on i0 was answered by taking it there.

#[test]
fn stepping_out_of_a_real_attack_adds_no_force() {
    // The horse steps to g8: the capture on i0 now pays, but the horse adds nothing to it.
    let (n, r) = nature("4k4/9/8r/4pn3/9/9/9/9/5R3/4K1B1N b", "f6g8");
    assert_eq!(n, Nature::Idle, "{r:?}");
    assert!(only_escapes(&r), "{r:?}");
}

#[test]
fn a_piece_safe_where_it_stood_escapes_nothing() {
    // The rook on i6 protects the horse, so the red rook's attack won nothing; the rook's
    // capture on i0 would leave the horse to be taken. The horse's step frees the rook: a chase.
    let (n, r) = nature("4k4/9/9/4pn2r/9/9/9/9/5R3/4K1B1N b", "f6g8");
    assert_eq!(n, Nature::Chase, "{r:?}");
}

#[test]
fn an_escape_that_takes_a_flight_from_the_target_adds_force() {
    // On g4 the horse attacks h2, where the red horse could otherwise flee unharmed.
    let (n, r) = nature("4k4/9/8r/4pn3/9/9/9/9/5R3/4K1B1N b", "f6g4");
    assert_eq!(n, Nature::Chase, "{r:?}");
}

#[test]
fn backing_up_a_capture_nothing_can_answer_adds_no_force() {
    // The cannon on a9 stands attacked; the rook's capture on c3 was answered by taking it. On
    // c9 it would back up that capture (over the pawn on c6, once the rook has left c5), but
    // nothing can take back on c3: backing adds nothing, and the step only escapes. (Backing up
    // against a recapture does add force: 图27 ply 4, 图30 变例.)
    let fen = "c3k4/9/9/2p6/2r6/9/2N6/9/R8/3K5 b";
    for m in ["a9c9", "a9b9"] {
        let (n, r) = nature(fen, m);
        assert_eq!(n, Nature::Idle, "{m}: {r:?}");
        assert!(only_escapes(&r), "{m}: {r:?}");
    }
}

#[test]
fn stepping_out_of_an_even_trade_by_each_taking_one_adds_no_force() {
    // The red rook's attack on the horse on c2 is a chase by 各吃各子 (26.6): taking it, red
    // loses the cannon on a0 to the a9 rook. The horse steps to b4, and the rook's capture of
    // the cannon then pays: the step only escapes.
    let (n, r) = nature("r2ak4/4a4/9/9/2R6/9/9/2n6/9/C2AK4 b", "c2b4");
    assert_eq!(n, Nature::Idle, "{r:?}");
    assert!(only_escapes(&r), "{r:?}");
}

#[test]
fn an_escape_that_pins_the_target_adds_force() {
    // The black horse on f5 stands attacked by the a5 rook; the i2 rook's capture of the
    // elephant on e2 was answered by taking it. On e3 it pins the elephant (leaving e2 would
    // open the horse's check on d1): the elephant cannot get away. On g7 it only escapes.
    let fen = "3ak4/4a4/9/9/R4n3/9/9/4B3r/3KA4/9 b";
    let (n, r) = nature(fen, "f5e3");
    assert_eq!(n, Nature::Chase, "{r:?}");
    let (n, r) = nature(fen, "f5g7");
    assert_eq!(n, Nature::Idle, "{r:?}");
    assert!(only_escapes(&r), "{r:?}");
}

#[test]
fn an_escape_that_also_blocks_a_protector_adds_force() {
    // The rook on a4, attacked by the c3 horse, steps to c4: there it blocks that horse's
    // protection of the horse on d5 (its leg), so the d9 cannon wins d5. That the rook was also
    // the opponent's compensation before does not make the step a mere escape.
    let (n, r) = nature("3ck4/9/3a5/9/2bNp4/r2p5/2N6/9/9/2R2K3 b", "a4c4");
    assert_eq!(n, Nature::Chase, "{r:?}");
}

#[test]
fn an_escape_that_cuts_the_targets_protection_adds_force() {
    // The black horse on g5 stands attacked by the red rook on g1. On e4 it cuts the e1 rook's
    // protection of the horse on e5: the rook's capture was answered by taking back, not by
    // taking the horse, so the step does more than escape.
    let (n, r) = nature("3k5/9/9/9/r3N1n2/9/9/9/4R1R2/3AK4 b", "g5e4");
    assert_eq!(n, Nature::Chase, "{r:?}");
}

#[test]
fn threatening_a_piece_that_faces_a_same_kind_piece_presses_an_exchange() {
    // The horses on e4 and g5 face each other; the rook on a5 would win g5 (taken back by the
    // g9 rook, then by the e4 horse) only with the e4 horse's help. Black may exchange horses
    // instead: no chase (26.10), an offer to exchange (兑).
    let (n, r) = nature("5kr2/9/9/9/6n2/4N4/9/9/R8/3K5 w", "a1a5");
    assert_eq!(n, Nature::Exchange, "{r:?}");
    assert!(
        matches!(r, Reason::PressesExchange { piece, partner }
            if piece.to_string() == "e4" && partner.to_string() == "g5"),
        "{r:?}"
    );
}

#[test]
fn an_escape_that_removes_a_cannon_screen_from_the_defence_is_a_chase() {
    // The black horse on f6, attacked by the a6 rook, was the screen over which the f8 cannon
    // protected the horse on f3. Stepping to h5 it escapes, and the i3 rook's capture pays:
    // before, that capture was answered by taking back, not by taking the horse, so the step
    // did more than remove the opponent's compensation.
    let (n, r) = nature("3aka3/5C3/4b4/R4n3/9/9/5N2r/9/9/4K4 b", "f6h5");
    assert_eq!(n, Nature::Chase, "{r:?}");
}
