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

/// The font an HTML page inlines, decoded.
fn inlined_font(html: &str) -> Option<Vec<u8>> {
    use base64::prelude::{BASE64_STANDARD, Engine as _};
    let start = html.find("data:font/ttf;base64,")? + "data:font/ttf;base64,".len();
    let end = start + html[start..].find(')')?;
    BASE64_STANDARD.decode(&html[start..end]).ok()
}

/// The characters of a page's text (outside its style and tags; the boards are all tags), but
/// ASCII and spaces.
fn text_characters(html: &str) -> std::collections::BTreeSet<char> {
    let mut rest = html;
    let mut text = String::new();
    while let Some(open) = rest.find('<') {
        text.push_str(&rest[..open]);
        rest = &rest[open..];
        let skip = if rest.starts_with("<style>") {
            rest.find("</style>").unwrap()
        } else {
            rest.find('>').unwrap()
        };
        rest = &rest[skip + 1..];
    }
    text.push_str(rest);
    text.chars()
        .filter(|c| !c.is_ascii() && !c.is_whitespace())
        .collect()
}

fn named_game(r: &mut Report, red: &str) {
    r.about.game = vec![
        ("Event", "全国象棋个人赛".to_owned()),
        ("Red", red.to_owned()),
        ("Black", "呂欽".to_owned()),
    ];
}

#[test]
fn the_html_page_inlines_a_font_with_a_glyph_for_every_character_of_its_text() {
    let mut r = Report::judge(&figure_2(), JudgeOptions::default());
    named_game(&mut r, "許銀川");
    for lang in [Lang::Chinese, Lang::English] {
        let html = r.to_html(lang);
        let font = inlined_font(&html).expect("an inlined font");
        let face = ttf_parser::Face::parse(&font, 0).expect("a font that parses");
        assert_eq!(face.units_per_em(), 1000);
        assert_eq!(face.names().into_iter().count(), 9);
        let chars = text_characters(&html);
        // The moves, patterns and names are there in both languages.
        for c in ['马', '退', '許', '欽', '赛'] {
            assert!(chars.contains(&c), "{c}");
        }
        for &c in &chars {
            let glyph = face
                .glyph_index(c)
                .unwrap_or_else(|| panic!("{c} is not in the page's font"));
            assert!(
                face.glyph_bounding_box(glyph).is_some(),
                "{c} has no outline"
            );
            assert!(face.glyph_hor_advance(glyph).is_some_and(|a| a > 0));
        }
        // Only the page's characters, and glyph 0.
        assert_eq!(usize::from(face.number_of_glyphs()), chars.len() + 1);
        assert!(
            !html.contains("class=\"font-note\""),
            "every character is covered"
        );
    }
}

#[test]
fn characters_the_font_lacks_are_named_on_the_page() {
    let mut r = Report::judge(&figure_2(), JudgeOptions::default());
    // An extension B hanzi and a snowman: in neither GB 2312 nor Big5.
    named_game(&mut r, "\u{2000B}\u{2603}");
    let html = r.to_html(Lang::English);
    let note = html
        .split("<p class=\"font-note\">")
        .nth(1)
        .expect("a note on the characters");
    assert!(
        note.starts_with("These characters are not in the page's embedded font and show only if the reader's fonts have them: \u{2603} \u{2000B}</p>"),
        "{note}"
    );
    let face = inlined_font(&html).unwrap();
    let face = ttf_parser::Face::parse(&face, 0).unwrap();
    assert_eq!(face.glyph_index('\u{2603}'), None);
    assert!(face.glyph_index('呂').is_some());
    assert!(
        r.to_html(Lang::Chinese)
            .contains("以下字符不在本页内嵌的字体中，能否显示取决于读者的字体：\u{2603} \u{2000B}")
    );
}
