//! FEN: never panics; a FEN that reads writes back to one that reads to the same position.
#![no_main]

use libfuzzer_sys::fuzz_target;
use xq_core::Position;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    for read in [Position::from_fen, Position::from_fen_lenient] {
        if let Ok(pos) = read(text) {
            let again = Position::from_fen_lenient(&pos.fen()).expect("our own FEN reads");
            assert_eq!(again, pos);
            let _ = pos.legal_moves();
        }
    }
});
