//! pgn_stream: reading a PGN file in pieces gives exactly what reading it whole gives (games,
//! errors, lines, offsets), with pieces, lines and heads of every size — pieces read in order,
//! and pieces read each on its own and handed back (`next_piece`/`Piece::read`/`accept`, as
//! `xq validate` reads a large file on many threads). The first bytes choose the
//! sizes and the encoding (given, so that both sides decode alike; detection is compared on
//! valid UTF-8).
#![no_main]

use libfuzzer_sys::fuzz_target;
use xq_record::{Encoding, Format, GameStream, ReadOptions, stream::Limits};

fuzz_target!(|data: &[u8]| {
    let Some((knobs, text)) = data.split_first_chunk::<4>() else {
        return;
    };
    let encoding = match knobs[3] % 4 {
        0 => Some(Encoding::Utf8),
        1 => Some(Encoding::Gbk),
        2 => Some(Encoding::Big5),
        // Detection is compared on text it tells alike from a head and from the whole: valid
        // UTF-8 without NULs (zeros make it look for UTF-16 in its first 4 KiB).
        _ if std::str::from_utf8(text).is_ok() && !text.contains(&0) => None,
        _ => Some(Encoding::Utf8),
    };
    let options = ReadOptions {
        encoding,
        format: Some(Format::Pgn),
    };
    let limits = Limits {
        head: 1 + usize::from(knobs[0]),
        chunk: 1 + usize::from(knobs[1]) * 8,
        max_line: 1 + usize::from(knobs[2]),
        ..Limits::default()
    };
    let whole = xq_record::read(text, Some("pgn"), options).map(|r| r.games);
    let streamed =
        GameStream::with_limits(text, Some("pgn"), options, limits).map(Iterator::collect::<Vec<_>>);
    assert_eq!(streamed, whole, "{limits:?}");
    let pieced = GameStream::with_limits(text, Some("pgn"), options, limits).map(|mut stream| {
        if !stream.is_pieced() {
            return stream.collect::<Vec<_>>();
        }
        // Two pieces cut ahead of the one handed back, as threads would have them.
        let mut games = Vec::new();
        let mut ahead = std::collections::VecDeque::new();
        loop {
            while ahead.len() < 3 {
                match stream.next_piece() {
                    Some(piece) => ahead.push_back(piece.read()),
                    None => break,
                }
            }
            let Some(read) = ahead.pop_front() else { break };
            games.extend(stream.accept(read));
        }
        games
    });
    assert_eq!(pieced, whole, "{limits:?}, pieced");
});
