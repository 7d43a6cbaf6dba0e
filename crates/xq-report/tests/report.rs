//! The report model and its renderings, built from the library (the CLI's snapshots pin the
//! exact output of `xq judge` and `xq limit`).

#![allow(clippy::unwrap_used)] // tests: a panic is the failure report

use xq_arbiter::{JudgeOptions, Lang, Verdict, limit::LimitOptions};
use xq_core::{Color, Position};
use xq_notation::{Mode, Reader};
use xq_record::ReadOptions;
use xq_report::{LimitAudit, Line, Report};

/// CXA 2020 figure 2: Red's horse chases Black's rook on every move, Black alternates an
/// exchange offer and a chase.
fn figure_2() -> Line {
    let start = Position::from_fen(
        "1r2kab1r/2c1a4/n1c1b1n2/4p2N1/p1p6/1C4P2/P1P1P4/2N1B3C/4A4/1RBAK2R1 w - - 0 1",
    )
    .unwrap();
    let mut reader = Reader::new(Mode::Lenient);
    let mut pos = start.clone();
    let moves = ["马二退一", "车9平8", "马一进二", "车8平9"]
        .iter()
        .map(|t| {
            let m = reader.read(t, &pos).unwrap();
            pos.play_unchecked(m);
            m
        })
        .collect();
    Line::new(start, moves)
}

#[test]
fn the_model_holds_the_ruling() {
    let r = Report::judge(&figure_2(), JudgeOptions::default());
    assert_eq!(r.verdict, Verdict::RedMustChange);
    assert_eq!((r.rules, r.clause), ("cxa2020", "25.3"));
    let cycle = r.cycle.unwrap();
    assert_eq!((cycle.start_ply, cycle.plies, cycle.end_ply()), (1, 4, 4));
    assert_eq!(
        (r.red().side, r.red().pattern.as_str()),
        (Color::Red, "长捉")
    );
    assert!(r.red().forbidden && !r.black().forbidden);
    assert_eq!(r.moves.len(), 4);
    assert_eq!(r.moves[0].chinese, "马二退一");
    assert!(r.record.is_none() && r.self_kill.is_none());
    for m in &r.moves {
        assert!(!m.explanation.zh.is_empty() && !m.explanation.en.is_empty());
        assert_ne!(m.explanation.zh, m.explanation.en);
    }
}

#[test]
fn every_rendering_speaks_the_language_asked_for() {
    let r = Report::judge(&figure_2(), JudgeOptions::default());
    for lang in [Lang::Chinese, Lang::English] {
        let json: serde_json::Value = serde_json::from_str(&r.to_json(lang).unwrap()).unwrap();
        assert_eq!(json["explanation"], r.explanation.get(lang));
        assert_eq!(
            json["moves"][2]["explanation"],
            r.moves[2].explanation.get(lang)
        );
        let text = r.to_text(lang);
        assert!(text.contains(r.verdict_words(lang)), "{text}");
        assert!(text.contains(r.moves[3].explanation.get(lang)), "{text}");
        let html = r.to_html(lang);
        assert!(html.contains(r.verdict_words(lang)));
        assert_eq!(html.matches("<section class=\"move\">").count(), 4);
    }
    assert!(r.to_text(Lang::Chinese).contains("第25.3条"));
    assert!(r.to_text(Lang::English).contains("clause 25.3"));
    assert!(r.to_html(Lang::Chinese).contains("<html lang=\"zh\">"));
    assert!(r.to_html(Lang::English).contains("<html lang=\"en\">"));
}

#[test]
fn json_is_one_line_in_the_contract_order() {
    let json = Report::judge(&figure_2(), JudgeOptions::default())
        .to_json(Lang::English)
        .unwrap();
    assert!(!json.contains('\n'));
    let keys = [
        "\"verdict\"",
        "\"rules\"",
        "\"clause\"",
        "\"explanation\"",
        "\"cycle\"",
        "\"sides\"",
        "\"limit\"",
        "\"moves\"",
        "\"end\"",
    ];
    let at: Vec<usize> = keys.iter().map(|k| json.find(k).unwrap()).collect();
    assert!(at.windows(2).all(|w| w[0] < w[1]), "{json}");
    // Not from a record: no record facts are invented.
    assert!(!json.contains("\"record\""));
}

#[test]
fn a_record_with_gaps_reports_them() {
    let bytes = std::fs::read("../../fixtures/procedure/missing-two.pgn").unwrap();
    let records = xq_record::read(&bytes, Some("pgn"), ReadOptions::default()).unwrap();
    let game = records.games.into_iter().next().unwrap().unwrap();
    let line = Line::from_game(&game, &mut Reader::new(Mode::Lenient)).unwrap();
    let r = Report::judge(&line, JudgeOptions::default());
    let rec = r.record.as_ref().unwrap();
    assert_eq!(rec.gaps.len(), 2);
    assert_eq!(rec.admissibility.missing_or_unreadable, 2);
    let text = r.to_text(Lang::English);
    assert!(text.contains("Record: "), "{text}");
    assert!(text.contains("ply 5 `--`: taken as i0h0"), "{text}");
    assert!(text.contains("ply 8 `卒7进X`: taken as g6g5"), "{text}");
    let json: serde_json::Value = serde_json::from_str(&r.to_json(Lang::English).unwrap()).unwrap();
    assert_eq!(json["record"]["gaps"].as_array().unwrap().len(), 2);
}

#[test]
fn the_limit_audit_has_a_row_per_ply_and_claimant() {
    let line = figure_2();
    let both = LimitAudit::new(&line, LimitOptions::default(), &[Color::Red, Color::Black]);
    assert_eq!(both.audits.len(), 2);
    assert_eq!(
        both.chinese,
        ["马二退一", "车９平８", "马一进二", "车８平９"]
    );
    let csv = both.to_csv().unwrap();
    assert_eq!(csv.lines().count(), 1 + 2 * 4);
    assert!(csv.starts_with("claimant,ply,round,side,iccs,chinese,"));
    let json: serde_json::Value =
        serde_json::from_str(&both.to_json(Lang::English).unwrap()).unwrap();
    assert_eq!(json["audits"].as_array().unwrap().len(), 2);
    assert_eq!(json["audits"][0]["rows"][1]["chinese"], "车９平８");
    let text = both.to_text(Lang::Chinese);
    assert_eq!(text.matches("结论：").count(), 2, "{text}");
}
