//! Development aid for the arbiter: what the searches find.
//!
//! - `explore FEN MOVE...`: for each move, the mover's threats before it, and after it (as if
//!   the opponent passed) the mate threat and threats found.
//! - `explore --line FEN MOVE`: the material line starting with MOVE, in full and recaptures-only.
//! - `explore --mate FEN N`: a mate by at most N checks.
//! - `explore --reps FEN MOVE...`: which positions of the line repeat.
//! - `explore --fen FEN MOVE...`: the FEN after the moves.
//!
//! `cargo run --release -p xq-arbiter --example explore -- ...`

#![allow(clippy::print_stdout, clippy::unwrap_used)]

use xq_arbiter::{
    search::{Budget, Limits, line_after, mate_by_checks},
    threats::threats as find,
};
use xq_core::Position;

fn threats(pos: &Position) -> Vec<String> {
    let mut budget = Budget::new(2_000_000);
    find(pos, &mut budget)
        .into_iter()
        .map(|t| {
            let moves: Vec<String> = t.line.iter().map(|m| m.to_string()).collect();
            format!(
                "{}{} {}@{} by {:?}{} [{}]",
                t.value,
                if t.each_takes_each { "=" } else { "" },
                t.target_piece,
                t.target,
                t.participants.collect::<Vec<_>>(),
                if t.by_checks { " checks" } else { "" },
                moves.join(" ")
            )
        })
        .collect()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args[0] == "--fen" {
        // --fen FEN MOVE...: the FEN after the moves.
        let mut pos = Position::from_fen_lenient(&args[1]).unwrap();
        for token in &args[2..] {
            pos = pos.play(token.parse().unwrap()).unwrap();
        }
        println!("{}", pos.fen());
        return;
    }
    if args[0] == "--reps" {
        // --reps FEN MOVE...: which positions of the line repeat.
        let mut pos = Position::from_fen_lenient(&args[1]).unwrap();
        let mut seen = vec![pos.clone()];
        for token in &args[2..] {
            pos = pos.play(token.parse().unwrap()).unwrap();
            seen.push(pos.clone());
        }
        for (j, p) in seen.iter().enumerate() {
            for (i, q) in seen[..j].iter().enumerate() {
                if p.same_position(q) {
                    println!("position after ply {j} = after ply {i}");
                }
            }
        }
        return;
    }
    if args[0] == "--mate" {
        // --mate FEN CHECKS: a mate forced by checks.
        let mut pos = Position::from_fen_lenient(&args[1]).unwrap();
        let n: u32 = args[2].parse().unwrap();
        let mut budget = Budget::new(50_000_000);
        let line = mate_by_checks(&mut pos, n, &mut budget);
        println!("{line:?} (budget left: {})", !budget.exhausted());
        return;
    }
    if args[0] == "--line" {
        // --line FEN MOVE: the material line starting with MOVE.
        let mut pos = Position::from_fen_lenient(&args[1]).unwrap();
        let m: xq_core::Move = args[2].parse().unwrap();
        let mut budget = Budget::new(500_000);
        let line = line_after(&mut pos, m, &Limits::default(), &mut budget);
        println!(
            "{} {:?} (budget left: {})",
            line.value,
            line.moves,
            !budget.exhausted()
        );
        let restricted = Limits {
            defence: xq_arbiter::search::Defence::Recaptures,
            ..Limits::default()
        };
        let line = line_after(&mut pos, m, &restricted, &mut budget);
        println!("recaptures only: {} {:?}", line.value, line.moves);
        let chaser = xq_arbiter::threats::chaser_limits(&pos);
        let line = line_after(&mut pos, m, &chaser, &mut budget);
        println!(
            "as a chaser (face-offs {:?}): {} {:?}",
            chaser.face_offs, line.value, line.moves
        );
        return;
    }
    let mut pos = Position::from_fen_lenient(&args[0]).unwrap();
    for token in &args[1..] {
        let m: xq_core::Move = token.parse().unwrap();
        println!("== {} {}  (before: {:?})", pos.turn(), m, threats(&pos));
        pos = pos.play(m).unwrap();
        let passed = pos.passed();
        let mut p = passed.clone();
        let mut budget = Budget::new(500_000);
        let mate = mate_by_checks(&mut p, 5, &mut budget);
        println!(
            "   check={} mate_threat={:?} threats_after={:?}",
            pos.is_check(),
            mate.map(|l| l
                .iter()
                .map(|m| m.to_string())
                .collect::<Vec<_>>()
                .join(" ")),
            threats(&passed)
        );
    }
}
