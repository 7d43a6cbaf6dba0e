// Shared by the record targets: read any bytes as `ext`, replay every game, and check that what
// reads writes back and reads again to the same number of games and moves.
use xq_notation::{Mode, Reader};
use xq_record::{Format, ReadOptions, read, replay::replay, write};

pub fn check(data: &[u8], ext: &str) {
    let Ok(records) = read(data, Some(ext), ReadOptions::default()) else { return };
    let mut reader = Reader::new(Mode::Lenient);
    let mut games = Vec::new();
    for item in records.games {
        let Ok(mut game) = item else { continue };
        let r = replay(&mut game, &mut reader);
        if r.ok() && r.bad_start.is_none() {
            games.push(game);
        }
    }
    if games.is_empty() {
        return;
    }
    let json = write::write_json(&games);
    let back = read(&json.bytes, Some("json"), ReadOptions { format: Some(Format::Json), ..ReadOptions::default() }).expect("our JSON reads");
    assert_eq!(back.games.len(), games.len());
    let pgn = write::write_pgn(&games, write::PgnOptions::default());
    let back = read(&pgn.bytes, Some("pgn"), ReadOptions { format: Some(Format::Pgn), ..ReadOptions::default() }).expect("our PGN reads");
    assert_eq!(back.games.len(), games.len(), "PGN:\n{}", String::from_utf8_lossy(&pgn.bytes));
    for (game, again) in games.iter().zip(back.games) {
        let mut again = again.expect("our PGN game reads");
        let r = replay(&mut again, &mut reader);
        assert!(r.errors.is_empty(), "{:?}\n{}", r.errors.first(), String::from_utf8_lossy(&pgn.bytes));
        assert_eq!(again.moves.len(), game.moves.len());
    }
}
