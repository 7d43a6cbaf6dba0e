//! A move token: parsing never panics; read in two positions, a move that resolves is legal and
//! writes back, in every notation, to text that resolves to the same move.
#![no_main]

use libfuzzer_sys::fuzz_target;
use xq_core::Position;
use xq_notation::{ChineseStyle, Mode, Notation, parse, read, write};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let _ = parse(text);
    let crowded = Position::from_fen_lenient("1rbakabr1/9/1cn1c1n2/p1p1p1p1p/9/2P3P2/P3P3P/1CN1C1N2/9/1RBAKABR1 w").expect("FEN");
    for pos in [Position::new(), crowded] {
        for mode in [Mode::Lenient, Mode::Strict] {
            if let Ok(m) = read(text, &pos, mode) {
                assert!(pos.is_legal(m));
                for n in [Notation::Chinese(ChineseStyle::default()), Notation::Wxf, Notation::Iccs, Notation::San] {
                    assert_eq!(read(&write(&pos, m, n), &pos, Mode::Strict).ok(), Some(m));
                }
            }
        }
    }
});
