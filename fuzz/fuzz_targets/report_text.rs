//! report_text: what the text and CSV reports print of a file's text holds no control character
//! (nothing a terminal acts on) and no CSV cell of it starts like a formula: the shared helpers
//! of `xq_core::text`, and the CSV writer of `convert` on whatever PGN the bytes hold.
#![no_main]

use libfuzzer_sys::fuzz_target;
use xq_core::text::{csv_cell, is_control, visible, visible_lines};

const FORMULA: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// The cells of CSV `bytes`.
fn cells(bytes: &[u8]) -> Vec<Vec<String>> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(bytes)
        .records()
        .map(|r| r.expect("our CSV reads back").iter().map(str::to_owned).collect())
        .collect()
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    assert!(!visible(&text).chars().any(is_control));
    assert!(!visible_lines(&text).chars().any(|c| c != '\n' && is_control(c)));
    // A report cell: shown, then neutralised.
    let cell = csv_cell(&visible(&text)).into_owned();
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record([cell.as_str(), "x"]).expect("in memory");
    let bytes = w.into_inner().expect("in memory");
    let back = cells(&bytes);
    // A CSV reader drops a byte-order mark at the start of the file.
    let first = back[0][0].trim_start_matches('\u{feff}');
    assert_eq!(first, cell.trim_start_matches('\u{feff}'));
    assert!(!first.starts_with(FORMULA), "{cell:?}");
    // `convert --to csv` of the games the bytes hold: the comment column is neutralised.
    if let Ok(records) = xq_record::read(data, Some("pgn"), xq_record::ReadOptions::default()) {
        let mut games: Vec<_> = records.games.into_iter().filter_map(Result::ok).collect();
        for g in &mut games {
            xq_record::write::resolve_all(g);
        }
        let written = xq_record::write::write_csv(&games);
        for row in cells(&written.bytes).iter().skip(1) {
            if let Some(comment) = row.get(7) {
                let comment = comment.trim_start_matches(['\u{feff}', '\u{200b}']);
                assert!(!comment.starts_with(FORMULA), "{comment:?}");
            }
        }
    }
});
