//! Writing moves in every notation.
//!
//! Every form written here reads back as the same move in [`Mode::Strict`](crate::Mode::Strict)
//! (a property test runs this over every legal move of many positions).

use xq_core::{Color, Move, Position, Role};

use crate::files::{Doubled, Points, doubled_files, on_file};

/// Simplified or traditional characters.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Script {
    /// 帅仕相马车炮兵 / 将士象马车炮卒, 进 退 平, 前 中 后.
    #[default]
    Simplified,
    /// 帥仕相馬車炮兵 / 將士象馬車炮卒, 進 退 平, 前 中 後 (as the CCPD archive writes).
    Traditional,
}

/// How several pawns (or other pieces) of one kind on one file are named.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum TandemStyle {
    /// xqbase's computer standard (the default): 前/后 for two on a file, 前/中/后 for three,
    /// 一…五 from the front for four or five, and with two files holding several, one series
    /// 一…五 across both files (the mover's rightmost file first, front to back): `二兵平四`.
    #[default]
    Xqbase,
    /// The traditional habit: 前/后, 前/中/后, 前/二/三/后 and 前/二/三/四/后 on one file; with two
    /// such files the five-character form naming the file: `前兵九平八`.
    Traditional,
}

/// Options for Chinese notation.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ChineseStyle {
    /// Simplified or traditional characters.
    pub script: Script,
    /// The multi-piece convention.
    pub tandem: TandemStyle,
    /// Write Black's numbers as ASCII digits (1…9) instead of full-width (１…９).
    pub ascii_digits: bool,
}

/// A notation to write moves in.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Notation {
    /// Chinese vertical-line notation, `炮二平五`.
    Chinese(ChineseStyle),
    /// WXF (the official letters K A E H R C P, `.` for sideways), `C2.5`.
    Wxf,
    /// ICCS, `H2-E2`.
    Iccs,
    /// UCCI, `h2e2`.
    Ucci,
    /// UCI of Fairy-Stockfish and pychess, ranks 1–10: `h3e3`.
    Uci,
    /// SAN of Fairy-Stockfish and pychess, ranks 1–10: `Che3`, `Hg3`, `Rxa10+`.
    San,
}

impl Notation {
    /// Its name in the command line and in reports: `chinese`, `traditional`, `wxf`, `iccs`,
    /// `ucci`, `uci`, `san`.
    pub const fn name(self) -> &'static str {
        match self {
            Notation::Chinese(ChineseStyle {
                script: Script::Traditional,
                ..
            }) => "traditional",
            Notation::Chinese(_) => "chinese",
            Notation::Wxf => "wxf",
            Notation::Iccs => "iccs",
            Notation::Ucci => "ucci",
            Notation::Uci => "uci",
            Notation::San => "san",
        }
    }

    /// Every notation, with Chinese in each of its styles (for tests that write a move every
    /// way there is).
    pub fn all() -> Vec<Notation> {
        let mut all = vec![
            Notation::Wxf,
            Notation::Iccs,
            Notation::Ucci,
            Notation::Uci,
            Notation::San,
        ];
        for script in [Script::Simplified, Script::Traditional] {
            for tandem in [TandemStyle::Xqbase, TandemStyle::Traditional] {
                for ascii_digits in [false, true] {
                    all.push(Notation::Chinese(ChineseStyle {
                        script,
                        tandem,
                        ascii_digits,
                    }));
                }
            }
        }
        all
    }

    /// Whether it writes the points a move goes from and to (ICCS, UCCI, UCI).
    pub const fn is_coordinates(self) -> bool {
        matches!(self, Notation::Iccs | Notation::Ucci | Notation::Uci)
    }
}

/// Writes `m`, a legal move of `pos`, in `notation`. (An illegal move is written as far as it
/// can be; it will not read back.)
pub fn write(pos: &Position, m: Move, notation: Notation) -> String {
    match notation {
        Notation::Chinese(style) => chinese(pos, m, style),
        Notation::Wxf => wxf(pos, m),
        Notation::Iccs => m.to_iccs(),
        Notation::Ucci => m.to_string(),
        Notation::Uci => crate::coords::write_uci(m),
        Notation::San => crate::coords::write_san(pos, m),
    }
}

/// Everything a descriptive notation needs about a move.
struct Facts {
    color: Color,
    role: Role,
    /// The mover's number of the piece's file, 1–9.
    file_number: u8,
    /// -1 retreat, 0 sideways, 1 advance (from the mover's side).
    direction: i32,
    amount: u8,
    /// The pieces of this kind on this file, front to back, and this one's index.
    on_file: Points,
    index: usize,
    /// Files with two or more pieces of this kind.
    doubled: Doubled,
}

fn facts(pos: &Position, m: Move) -> Option<Facts> {
    let piece = pos.piece_at(m.from)?;
    let color = piece.color;
    let forward = if color == Color::Red { 1 } else { -1 };
    let dr = (m.to.rank().index() as i32 - m.from.rank().index() as i32) * forward;
    let direction = dr.signum();
    let amount = match piece.role {
        Role::King | Role::Rook | Role::Cannon | Role::Pawn if dr != 0 => dr.unsigned_abs() as u8,
        _ => m.to.file().number_for(color),
    };
    let on_file = on_file(pos, color, piece.role, m.from.file());
    let index = on_file.iter().position(|&s| s == m.from).unwrap_or(0);
    // Other files matter only when this piece has company on its own.
    let doubled = if on_file.len() >= 2 {
        doubled_files(pos, color, piece.role)
    } else {
        Doubled::EMPTY
    };
    Some(Facts {
        color,
        role: piece.role,
        file_number: m.from.file().number_for(color),
        direction,
        amount,
        on_file,
        index,
        doubled,
    })
}

const RED_NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
const FULL_WIDTH_DIGITS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];

fn chinese(pos: &Position, m: Move, style: ChineseStyle) -> String {
    let Some(f) = facts(pos, m) else {
        return m.to_string();
    };
    let traditional = style.script == Script::Traditional;
    let number = |n: u8| -> char {
        let i = usize::from(n.clamp(1, 9) - 1);
        match f.color {
            Color::Red => RED_NUMERALS[i],
            Color::Black if style.ascii_digits => char::from(b'0' + n.clamp(1, 9)),
            Color::Black => FULL_WIDTH_DIGITS[i],
        }
    };
    let ordinal = |k: usize| RED_NUMERALS[k.clamp(1, 5) - 1];
    let piece = piece_glyph(f.color, f.role, traditional);
    let direction = match (f.direction, traditional) {
        (1, false) => '进',
        (1, true) => '進',
        (-1, _) => '退',
        _ => '平',
    };
    let (front, middle, rear) = ('前', '中', if traditional { '後' } else { '后' });
    // The word for this piece's place on its file (前/中/后, then 二三四 for the traditional
    // style or 一…五 for xqbase with four or five).
    let place_on_file = |xqbase: bool| -> char {
        let n = f.on_file.len();
        match (n, f.index) {
            (_, 0) if !(xqbase && n >= 4) => front,
            (_, i) if i + 1 == n && !(xqbase && n >= 4) => rear,
            (3, 1) => middle,
            (_, i) => ordinal(i + 1),
        }
    };

    let mut out = String::with_capacity(16);
    let single = f.on_file.len() < 2 || matches!(f.role, Role::Advisor | Role::Elephant);
    if single {
        out.push(piece);
        out.push(number(f.file_number));
    } else if f.doubled.len() < 2 {
        out.push(place_on_file(style.tandem == TandemStyle::Xqbase));
        out.push(piece);
    } else {
        match style.tandem {
            TandemStyle::Xqbase => {
                let k = f
                    .doubled
                    .iter()
                    .flat_map(|(_, list)| list.iter())
                    .position(|&s| s == m.from)
                    .map_or(1, |i| i + 1);
                out.push(ordinal(k));
                out.push(piece);
            }
            TandemStyle::Traditional => {
                out.push(place_on_file(false));
                out.push(piece);
                out.push(number(f.file_number));
            }
        }
    }
    out.push(direction);
    out.push(number(f.amount));
    out
}

fn piece_glyph(color: Color, role: Role, traditional: bool) -> char {
    match (role, color, traditional) {
        (Role::King, Color::Red, false) => '帅',
        (Role::King, Color::Red, true) => '帥',
        (Role::King, Color::Black, false) => '将',
        (Role::King, Color::Black, true) => '將',
        (Role::Advisor, Color::Red, _) => '仕',
        (Role::Advisor, Color::Black, _) => '士',
        (Role::Elephant, Color::Red, _) => '相',
        (Role::Elephant, Color::Black, _) => '象',
        (Role::Horse, _, false) => '马',
        (Role::Horse, _, true) => '馬',
        (Role::Rook, _, false) => '车',
        (Role::Rook, _, true) => '車',
        (Role::Cannon, _, _) => '炮',
        (Role::Pawn, Color::Red, _) => '兵',
        (Role::Pawn, Color::Black, _) => '卒',
    }
}

fn wxf(pos: &Position, m: Move) -> String {
    let Some(f) = facts(pos, m) else {
        return m.to_string();
    };
    let letter = f.role.wxf_char();
    let digit = |n: u8| char::from(b'0' + n.clamp(1, 9));
    let direction = match f.direction {
        1 => '+',
        -1 => '-',
        _ => '.',
    };
    let mut out = String::with_capacity(4);
    let n = f.on_file.len();
    if n < 2 || matches!(f.role, Role::Advisor | Role::Elephant) {
        out.push(letter);
        out.push(digit(f.file_number));
    } else if f.doubled.len() < 2 {
        match (n, f.index) {
            (2 | 3, 0) => {
                out.push(letter);
                out.push('+');
            }
            (2 | 3, i) if i + 1 == n => {
                out.push(letter);
                out.push('-');
            }
            (3 | 5, i) if i == n / 2 => {
                out.push(letter);
                out.push(digit(f.file_number));
            }
            (_, 0) => out.push_str("++"),
            (_, 1) => {
                out.push(letter);
                out.push('+');
            }
            (_, i) if i + 1 == n => out.push_str("--"),
            _ => {
                out.push(letter);
                out.push('-');
            }
        }
    } else {
        // Pawns on two files: the file first, then the place on it.
        out.push(digit(f.file_number));
        match f.index {
            0 => out.push('+'),
            i if i + 1 == n => out.push('-'),
            _ => out.push(digit(f.file_number)),
        }
    }
    out.push(direction);
    out.push(digit(f.amount));
    out
}
