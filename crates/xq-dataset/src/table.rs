//! The games and positions tables: their columns, and their rows built from replayed games.

use std::collections::HashMap;

use blake2::{Blake2b, Digest, digest::consts::U8};
use serde::{Serialize, Serializer, ser::SerializeMap};
use xq_core::{Color, Move, Position, START_FEN, vocab};
use xq_notation::{ChineseStyle, Notation, write};
use xq_record::{Failure, Game, GameReport, game::Outcome, replay::start_position};

/// Which table.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Table {
    /// One row per game.
    Games,
    /// One row per ply of every main line.
    Positions,
}

impl Table {
    /// `"games"` or `"positions"`.
    pub const fn name(self) -> &'static str {
        match self {
            Table::Games => "games",
            Table::Positions => "positions",
        }
    }

    /// The table named `name` (`games`, `positions`).
    pub fn from_name(name: &str) -> Option<Table> {
        match name {
            "games" => Some(Table::Games),
            "positions" => Some(Table::Positions),
            _ => None,
        }
    }
}

/// How rows are made.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Options {
    /// Positions: show every position with the side to move as Red (rotate Black-to-move ones by
    /// 180° with the colours swapped).
    pub flip: bool,
    /// Positions: mirror every position left to right.
    pub mirror: bool,
    /// Positions: classify every move (将 杀 捉 兑 献 拦 跟 闲) under the CXA 2020 rules.
    pub natures: bool,
    /// The share of games put in the validation split (by a hash of the game id).
    pub validation: f64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            flip: false,
            mirror: false,
            natures: false,
            validation: 0.1,
        }
    }
}

/// The type of a column, as Arrow names it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ColumnType {
    /// UTF-8 text.
    String,
    /// Unsigned 8-bit integer.
    UInt8,
    /// Unsigned 16-bit integer.
    UInt16,
    /// Unsigned 32-bit integer.
    UInt32,
    /// Signed 8-bit integer.
    Int8,
    /// True or false.
    Bool,
    /// Bytes of a fixed length.
    FixedBinary(usize),
    /// A map from text to text.
    StringMap,
    /// A list of text.
    StringList,
}

impl ColumnType {
    /// The type as pyarrow writes it: `string`, `uint16`, `fixed_size_binary[261]`,
    /// `map<string, string>`, `list<item: string>` ….
    pub fn name(self) -> String {
        match self {
            ColumnType::String => "string".to_owned(),
            ColumnType::UInt8 => "uint8".to_owned(),
            ColumnType::UInt16 => "uint16".to_owned(),
            ColumnType::UInt32 => "uint32".to_owned(),
            ColumnType::Int8 => "int8".to_owned(),
            ColumnType::Bool => "bool".to_owned(),
            ColumnType::FixedBinary(n) => format!("fixed_size_binary[{n}]"),
            ColumnType::StringMap => "map<string, string>".to_owned(),
            ColumnType::StringList => "list<item: string>".to_owned(),
        }
    }
}

const POSITIONS: &[(&str, ColumnType)] = &[
    ("game_id", ColumnType::String),
    ("ply", ColumnType::UInt16),
    ("fen", ColumnType::String),
    ("move_iccs", ColumnType::String),
    ("label", ColumnType::UInt16),
    ("legal_mask", ColumnType::FixedBinary(vocab::PACKED)),
    ("result_stm", ColumnType::Int8),
    ("halfmove_clock", ColumnType::UInt16),
    ("repetition", ColumnType::UInt8),
    ("nature", ColumnType::String),
    ("split", ColumnType::String),
];

const GAMES: &[(&str, ColumnType)] = &[
    ("game_id", ColumnType::String),
    ("file", ColumnType::String),
    ("index", ColumnType::UInt32),
    ("tags", ColumnType::StringMap),
    ("red", ColumnType::String),
    ("black", ColumnType::String),
    ("event", ColumnType::String),
    ("opening", ColumnType::String),
    ("start_fen", ColumnType::String),
    ("moves_iccs", ColumnType::StringList),
    ("moves_chinese", ColumnType::StringList),
    ("result", ColumnType::String),
    ("plies", ColumnType::UInt16),
    ("ok", ColumnType::Bool),
    ("error", ColumnType::String),
    ("split", ColumnType::String),
];

/// The columns of `table`, in order, with their types (every column may be null).
pub fn columns(table: Table) -> &'static [(&'static str, ColumnType)] {
    match table {
        Table::Games => GAMES,
        Table::Positions => POSITIONS,
    }
}

/// One game as read and replayed: what its rows are made of.
#[derive(Copy, Clone, Debug)]
pub struct Source<'a> {
    /// The file it came from (`None` for a record read from memory).
    pub file: Option<&'a str>,
    /// Which game of the file (0-based); `None` when the file gave none.
    pub index: Option<usize>,
    /// The record.
    pub game: &'a Game,
    /// Whether it reads and every line of it replays.
    pub ok: bool,
    /// The first thing wrong with it.
    pub error: Option<&'a Failure>,
    /// The position its main line is played from (`None` when it has none that can be played).
    pub start: Option<&'a Position>,
    /// The main line, up to the first bad move.
    pub mainline: &'a [Move],
}

/// The start position a replayed game is played from (the side to move corrected from the first
/// move, as replay does) and its main line up to the first bad move; nothing when the game could
/// not be read.
pub fn line_of(game: &Game, report: &GameReport) -> (Option<Position>, Vec<Move>) {
    if report.error.as_ref().is_some_and(|e| e.ply.is_none()) {
        return (None, Vec::new());
    }
    let Ok((mut start, _)) = start_position(game) else {
        return (None, Vec::new());
    };
    let mainline: Vec<Move> = game
        .moves
        .iter()
        .take(report.plies)
        .map_while(|n| n.m)
        .collect();
    if let Some(&first) = mainline.first()
        && !start.is_legal(first)
        && start.passed().is_legal(first)
    {
        start = start.passed();
    }
    (Some(start), mainline)
}

/// A game's id in both tables: `FILE#INDEX` (`<bytes>` for a record read from memory, `-` for a
/// file that gave no game).
pub fn game_id(file: Option<&str>, index: Option<usize>) -> String {
    format!(
        "{}#{}",
        file.unwrap_or("<bytes>"),
        index.map_or_else(|| "-".to_owned(), |i| i.to_string())
    )
}

/// `"validation"` for about a `validation` share of game ids, `"train"` for the others: the
/// first 8 bytes of BLAKE2b-64 of the id (big-endian) over 2⁶⁴, below `validation` — the same on
/// every machine, in every run, and in Python's `hashlib.blake2b(id, digest_size=8)`.
pub fn split_of(game_id: &str, validation: f64) -> &'static str {
    let digest = Blake2b::<U8>::digest(game_id.as_bytes());
    let mut bytes = [0u8; 8];
    bytes.copy_from_slice(&digest);
    let h = u64::from_be_bytes(bytes);
    // An exact power of two: the quotient is `h` rounded to a double, as Python's `h / 2**64`.
    if (h as f64) / 18_446_744_073_709_551_616.0 < validation {
        "validation"
    } else {
        "train"
    }
}

/// A row of the games table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameRow {
    /// `FILE#INDEX`.
    pub game_id: String,
    /// The file.
    pub file: Option<String>,
    /// The game's index in the file.
    pub index: Option<u32>,
    /// The tags in the record's order (written to JSON as an object: a name given twice keeps
    /// its first place and its first value with text, as the columns take it: `Game::tag`).
    #[serde(serialize_with = "tags_as_object")]
    pub tags: Vec<(String, String)>,
    /// The Red tag.
    pub red: Option<String>,
    /// The Black tag.
    pub black: Option<String>,
    /// The Event tag.
    pub event: Option<String>,
    /// The Opening tag.
    pub opening: Option<String>,
    /// The start position.
    pub start_fen: String,
    /// The main line in ICCS (`h2e2`), up to the first bad move.
    pub moves_iccs: Vec<String>,
    /// The main line in Chinese.
    pub moves_chinese: Vec<String>,
    /// `1-0`, `0-1`, `1/2-1/2`, or none when unknown.
    pub result: Option<&'static str>,
    /// The main line's length.
    pub plies: u16,
    /// Whether the game reads and every line of it replays.
    pub ok: bool,
    /// The first thing wrong, `kind: message`.
    pub error: Option<String>,
    /// `train` or `validation`.
    pub split: &'static str,
}

fn tags_as_object<S: Serializer>(tags: &[(String, String)], s: S) -> Result<S::Ok, S::Error> {
    let mut order: Vec<&str> = Vec::new();
    let mut value: HashMap<&str, &str> = HashMap::new();
    for (k, v) in tags {
        match value.get(k.as_str()) {
            None => {
                order.push(k);
                value.insert(k, v);
            }
            Some(first) if first.trim().is_empty() && !v.trim().is_empty() => {
                value.insert(k, v);
            }
            Some(_) => {}
        }
    }
    let mut map = s.serialize_map(Some(order.len()))?;
    for k in order {
        map.serialize_entry(k, value.get(k).copied().unwrap_or_default())?;
    }
    map.end()
}

/// A row of the positions table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PositionRow<'a> {
    /// `FILE#INDEX`.
    pub game_id: &'a str,
    /// 1-based.
    pub ply: u16,
    /// The position before the move (flipped or mirrored as asked).
    pub fen: String,
    /// The move, `h2e2`.
    pub move_iccs: String,
    /// The move's index in the vocabulary.
    pub label: Option<u16>,
    /// Bit *i* (byte *i*/8, bit *i*%8) set when vocabulary move *i* is legal; a hex string in
    /// JSON.
    #[serde(serialize_with = "hex")]
    pub legal_mask: [u8; vocab::PACKED],
    /// The game's result for the side to move: 1 won, -1 lost, 0 draw.
    pub result_stm: Option<i8>,
    /// Plies since the last capture.
    pub halfmove_clock: u16,
    /// How often the position has stood in the game so far, this time included.
    pub repetition: u8,
    /// The move's nature under the CXA 2020 rules, when asked for.
    pub nature: Option<&'static str>,
    /// `train` or `validation`.
    pub split: &'static str,
}

fn hex<S: Serializer>(bytes: &[u8; vocab::PACKED], s: S) -> Result<S::Ok, S::Error> {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut text = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        text.push(char::from(DIGITS[usize::from(b >> 4)]));
        text.push(char::from(DIGITS[usize::from(b & 15)]));
    }
    s.serialize_str(&text)
}

/// A row of either table.
#[derive(Clone, Debug, PartialEq)]
pub enum Row<'a> {
    /// Of the games table.
    Game(GameRow),
    /// Of the positions table.
    Position(PositionRow<'a>),
}

/// The row as one line of JSON (no newline): the columns in order, the legal mask as hex, the
/// tags as an object.
pub fn json_line(row: &Row<'_>) -> String {
    // Serialising these types cannot fail: every map key is a string.
    match row {
        Row::Game(g) => serde_json::to_string(g),
        Row::Position(p) => serde_json::to_string(p),
    }
    .unwrap_or_default()
}

/// Gives `sink` the rows of `source` in `table`: one for the games table, one per ply of the
/// main line for the positions table (none when the game has no start position).
pub fn rows(source: &Source<'_>, table: Table, options: &Options, sink: &mut dyn FnMut(Row<'_>)) {
    match table {
        Table::Games => sink(Row::Game(game_row(source, options))),
        Table::Positions => position_rows(source, options, sink),
    }
}

fn game_row(s: &Source<'_>, o: &Options) -> GameRow {
    let id = game_id(s.file, s.index);
    // The first with text (`Game::tag`), else the first, empty.
    let tag = |name: &str| {
        s.game.tag(name).map(str::to_owned).or_else(|| {
            s.game
                .tags
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.clone())
        })
    };
    GameRow {
        split: split_of(&id, o.validation),
        file: s.file.map(str::to_owned),
        index: s.index.map(|i| u32::try_from(i).unwrap_or(u32::MAX)),
        tags: s.game.tags.clone(),
        red: tag("red"),
        black: tag("black"),
        event: tag("event"),
        opening: tag("opening"),
        start_fen: s.start.map_or_else(|| START_FEN.to_owned(), Position::fen),
        moves_iccs: s.mainline.iter().map(ToString::to_string).collect(),
        moves_chinese: s
            .start
            .map_or_else(Vec::new, |start| chinese_line(start, s.mainline)),
        result: result(s.game),
        plies: u16::try_from(s.mainline.len()).unwrap_or(u16::MAX),
        ok: s.ok,
        error: s.error.map(|e| format!("{}: {}", e.kind, e.message)),
        game_id: id,
    }
}

fn result(game: &Game) -> Option<&'static str> {
    game.outcome()
        .filter(|o| *o != Outcome::Unknown)
        .map(Outcome::pgn)
}

/// The Chinese form of every move of a line.
fn chinese_line(start: &Position, line: &[Move]) -> Vec<String> {
    let mut pos = start.clone();
    line.iter()
        .map(|&m| {
            let t = write(&pos, m, Notation::Chinese(ChineseStyle::default()));
            pos.play_unchecked(m);
            t
        })
        .collect()
}

/// The legal moves of `pos` as the positions table's bit mask.
pub(crate) fn legal_mask(pos: &Position) -> [u8; vocab::PACKED] {
    let mut bits = [0u8; vocab::PACKED];
    for &m in pos.legal_moves().iter() {
        if let Some(i) = vocab::index(m) {
            bits[i / 8] |= 1 << (i % 8);
        }
    }
    bits
}

fn position_rows(s: &Source<'_>, o: &Options, sink: &mut dyn FnMut(Row<'_>)) {
    let Some(start) = s.start else { return };
    let id = game_id(s.file, s.index);
    let split = split_of(&id, o.validation);
    let outcome = s.game.outcome();
    let winner = match outcome {
        Some(Outcome::RedWins) => Some(Color::Red),
        Some(Outcome::BlackWins) => Some(Color::Black),
        _ => None,
    };
    let natures: Vec<&'static str> = if o.natures {
        xq_arbiter::classify_line(
            start,
            s.mainline,
            xq_arbiter::Effort::default(),
            xq_arbiter::Profile::CXA2020,
        )
        .iter()
        .map(|c| c.nature.chinese())
        .collect()
    } else {
        Vec::new()
    };
    let mut pos = start.clone();
    let mut seen: HashMap<u64, u32> = HashMap::new();
    for (i, &m) in s.mainline.iter().enumerate() {
        let count = seen.entry(pos.hash()).or_insert(0);
        *count += 1;
        let stm = pos.turn();
        let (shown, shown_move) = transform(&pos, m, o);
        sink(Row::Position(PositionRow {
            game_id: &id,
            ply: u16::try_from(i + 1).unwrap_or(u16::MAX),
            fen: shown.fen(),
            move_iccs: shown_move.to_string(),
            label: vocab::index(shown_move).map(|l| l as u16),
            legal_mask: legal_mask(&shown),
            result_stm: match winner {
                Some(w) => Some(if w == stm { 1 } else { -1 }),
                None if outcome == Some(Outcome::Draw) => Some(0),
                None => None,
            },
            halfmove_clock: u16::try_from(pos.halfmoves()).unwrap_or(u16::MAX),
            repetition: u8::try_from(*count).unwrap_or(u8::MAX),
            nature: natures.get(i).copied(),
            split,
        }));
        pos.play_unchecked(m);
    }
}

/// The position and move as the table shows them: rotated so that the side to move is Red
/// (`flip`), mirrored left to right (`mirror`).
fn transform(pos: &Position, m: Move, o: &Options) -> (Position, Move) {
    let rotate = o.flip && pos.turn() == Color::Black;
    if !rotate && !o.mirror {
        return (pos.clone(), m);
    }
    let mut setup = pos.to_setup();
    let mut m = m;
    if rotate {
        setup = remap(&setup, true, |sq| sq.rotate());
        m = m.rotate();
    }
    if o.mirror {
        setup = remap(&setup, false, |sq| sq.flip_horizontal());
        m = Move::new(m.from.flip_horizontal(), m.to.flip_horizontal());
    }
    let shown = Position::from_setup(setup)
        .or_else(xq_core::PositionError::ignore_implausible)
        .unwrap_or_else(|_| pos.clone());
    (shown, m)
}

/// `s` with every piece moved to `to(square)`, and the colours (and the side to move) swapped
/// when `swap`.
fn remap(
    s: &xq_core::Setup,
    swap: bool,
    to: impl Fn(xq_core::Square) -> xq_core::Square,
) -> xq_core::Setup {
    let mut board = xq_core::Board::empty();
    for sq in xq_core::Square::all() {
        if let Some(p) = s.board.piece_at(sq) {
            let color = if swap { p.color.other() } else { p.color };
            board.put(to(sq), xq_core::Piece::new(color, p.role));
        }
    }
    xq_core::Setup {
        board,
        turn: if swap { s.turn.other() } else { s.turn },
        halfmoves: s.halfmoves,
        fullmoves: s.fullmoves,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn split_is_blake2b_64_as_python_computes_it() {
        // hashlib.blake2b(b"a.pgn#0", digest_size=8).hexdigest() and the split Python gives.
        let d = Blake2b::<U8>::digest(b"abc");
        let hex: String = d.iter().map(|b| format!("{b:02x}")).collect();
        // RFC 7693's parameter block with digest length 8 (not the 512-bit digest cut short).
        assert_eq!(hex, "d8bb14d833d59559");
        assert_eq!(split_of("abc", 0.9), "validation");
        assert_eq!(split_of("abc", 0.8), "train");
        let share = (0..10_000)
            .filter(|i| split_of(&format!("f.pgn#{i}"), 0.1) == "validation")
            .count();
        assert!((800..1200).contains(&share), "{share}");
    }

    /// A tag given twice: the object keeps the value the columns take (the first with text).
    #[test]
    fn tags_given_twice_keep_the_columns_value() {
        let tags: Vec<(String, String)> =
            [("Event", "A"), ("Red", ""), ("Event", "B"), ("Red", "x")]
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect();
        let mut json = serde_json::Serializer::new(Vec::new());
        tags_as_object(&tags, &mut json).unwrap();
        let json = String::from_utf8(json.into_inner()).unwrap();
        assert_eq!(json, r#"{"Event":"A","Red":"x"}"#);
    }

    #[test]
    fn columns_and_json_rows_agree() {
        let game = Game::default();
        let start = Position::new();
        let line: Vec<Move> = ["h2e2", "h9g7", "e2h2", "g7h9", "h2e2"]
            .iter()
            .map(|m| m.parse().unwrap())
            .collect();
        let src = Source {
            file: Some("x.pgn"),
            index: Some(3),
            game: &game,
            ok: true,
            error: None,
            start: Some(&start),
            mainline: &line,
        };
        for table in [Table::Games, Table::Positions] {
            let mut lines = Vec::new();
            rows(&src, table, &Options::default(), &mut |r| {
                lines.push(json_line(&r));
            });
            assert_eq!(
                lines.len(),
                if table == Table::Games { 1 } else { line.len() }
            );
            // Every column, in the table's order (and nothing else).
            let v: serde_json::Value = serde_json::from_str(&lines[0]).unwrap();
            assert_eq!(v.as_object().unwrap().len(), columns(table).len());
            let places: Vec<usize> = columns(table)
                .iter()
                .map(|(n, _)| lines[0].find(&format!("\"{n}\":")).unwrap())
                .collect();
            assert!(places.is_sorted(), "{}", lines[0]);
        }
        let mut reps = Vec::new();
        rows(&src, Table::Positions, &Options::default(), &mut |r| {
            if let Row::Position(p) = r {
                assert_eq!(p.game_id, "x.pgn#3");
                assert_eq!(
                    p.legal_mask,
                    legal_mask(&Position::from_fen(&p.fen).unwrap())
                );
                reps.push(p.repetition);
            }
        });
        // The start position stands again after four plies.
        assert_eq!(reps, [1, 1, 1, 1, 2]);
    }

    #[test]
    fn flip_shows_red_to_move() {
        let game = Game::default();
        let start = Position::new();
        let line: Vec<Move> = ["h2e2", "h9g7"]
            .iter()
            .map(|m| m.parse().unwrap())
            .collect();
        let src = Source {
            file: None,
            index: None,
            game: &game,
            ok: true,
            error: None,
            start: Some(&start),
            mainline: &line,
        };
        let flip = Options {
            flip: true,
            ..Options::default()
        };
        let mut seen = Vec::new();
        rows(&src, Table::Positions, &flip, &mut |r| {
            if let Row::Position(p) = r {
                seen.push((p.fen.split(' ').nth(1).unwrap().to_owned(), p.move_iccs));
            }
        });
        // Black's h9g7 rotated is b0c2, played by "Red".
        assert_eq!(seen[1], ("w".to_owned(), "b0c2".to_owned()));
    }
}
