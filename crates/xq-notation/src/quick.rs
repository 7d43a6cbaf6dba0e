//! A quick reader for the usual move tokens (炮二平五, 马８进７, 前马退六, 前兵九平八, C2.5, R+.3,
//! h2e2, H2-E2): what the grammar reads them as, found without it. Every token it is unsure of
//! (longer or rarer forms, errors) it declines, and the grammar reads it, so that errors and the
//! rare forms read as they always have.
//!
//! It follows the grammar's choices as a PEG parser makes them: the notations in the order of
//! `token` (ICCS, Chinese, WXF), the forms of each in their order; the first that matches the
//! start of the token is taken, and the token is read only if that form covers all of it (a
//! longer token is an error for the grammar too, which says where). A test compares the two
//! readers over every move of many positions written in every convention, and over garbled
//! tokens.

use xq_core::{Move, Role, Square};

use crate::syntax::{ChineseParts, Direction, MoveText, Selector, Slot, Tandem, number, wxf_move};

/// The longest form read here, in characters (前兵九平八).
const LONGEST: usize = 5;

/// What the grammar reads `text` as, if it is one of the usual forms; `None` to leave it to the
/// grammar.
pub(crate) fn parse(text: &str) -> Option<MoveText> {
    // The first characters, then '\0' (no class has it) up to one past the longest form.
    let mut chars = ['\0'; LONGEST + 1];
    let mut count = 0;
    for ch in text.chars() {
        if count == chars.len() {
            return None;
        }
        chars[count] = ch;
        count += 1;
    }
    let (used, read) = coordinates(text.as_bytes())
        .or_else(|| chinese(&chars))
        .or_else(|| wxf(text, &chars))?;
    (used == count).then_some(read)
}

/// ICCS: `h2e2`, `H2-E2` (the dash, if there, is taken: no going back).
fn coordinates(b: &[u8]) -> Option<(usize, MoveText)> {
    let file = |c: u8| matches!(c, b'a'..=b'i' | b'A'..=b'I');
    let square = |at: usize| {
        let pair = b.get(at..at + 2)?;
        if file(pair[0]) && pair[1].is_ascii_digit() {
            Square::from_ascii(pair).ok()
        } else {
            None
        }
    };
    let from = square(0)?;
    let at = if b.get(2) == Some(&b'-') { 3 } else { 2 };
    let to = square(at)?;
    Some((at + 2, MoveText::Coordinate(Move::new(from, to))))
}

/// Chinese: its four forms in the grammar's order.
fn chinese(c: &[char; LONGEST + 1]) -> Option<(usize, MoveText)> {
    let five = || {
        Some(ChineseParts::on_file(
            Some(position(c[0])?),
            Some(piece(c[1])?),
            number(c[2])?,
            direction(c[3])?,
            number(c[4])?,
        ))
    };
    let tandem = || {
        Some(ChineseParts {
            selector: Selector::Tandem(position(c[0])?),
            file_kind: None,
            role: Some(piece(c[1])?),
            direction: direction(c[2])?,
            amount: number(c[3])?,
        })
    };
    let plain = || {
        Some(ChineseParts::on_file(
            None,
            Some(piece(c[0])?),
            number(c[1])?,
            direction(c[2])?,
            number(c[3])?,
        ))
    };
    let pieceless = || {
        Some(ChineseParts::on_file(
            Some(front_rear(c[0])?),
            None,
            number(c[1])?,
            direction(c[2])?,
            number(c[3])?,
        ))
    };
    let (used, parts) = five()
        .map(|p| (5, p))
        .or_else(|| tandem().map(|p| (4, p)))
        .or_else(|| plain().map(|p| (4, p)))
        .or_else(|| pieceless().map(|p| (4, p)))?;
    Some((used, parts.text()))
}

/// `zh_piece`.
fn piece(ch: char) -> Option<Role> {
    Some(match ch {
        '帅' | '帥' | '将' | '將' => Role::King,
        '仕' | '士' => Role::Advisor,
        '相' | '象' => Role::Elephant,
        '马' | '馬' | '傌' | '碼' => Role::Horse,
        '车' | '車' | '俥' | '伡' | '硨' | '砗' => Role::Rook,
        '炮' | '砲' | '包' => Role::Cannon,
        '兵' | '卒' => Role::Pawn,
        _ => return None,
    })
}

/// `zh_direction`.
fn direction(ch: char) -> Option<Direction> {
    Some(match ch {
        '进' | '進' => Direction::Advance,
        '退' => Direction::Retreat,
        '平' => Direction::Traverse,
        _ => return None,
    })
}

/// `zh_front_rear`.
fn front_rear(ch: char) -> Option<Tandem> {
    Some(match ch {
        '前' => Tandem::Front,
        '中' => Tandem::Middle,
        '后' | '後' => Tandem::Rear,
        _ => return None,
    })
}

/// `zh_position`: 前 中 后, or an ordinal 一…五.
fn position(ch: char) -> Option<Tandem> {
    front_rear(ch).or(match ch {
        '一' => Some(Tandem::Ordinal(1)),
        '二' => Some(Tandem::Ordinal(2)),
        '三' => Some(Tandem::Ordinal(3)),
        '四' => Some(Tandem::Ordinal(4)),
        '五' => Some(Tandem::Ordinal(5)),
        _ => None,
    })
}

/// WXF: the two usual forms, `C2.5` and `R+.3`, when no earlier form of the grammar takes the
/// token's start (the others start with a sign or a number: left to the grammar).
fn wxf(text: &str, c: &[char; LONGEST + 1]) -> Option<(usize, MoveText)> {
    let letter = letter(c[0])?;
    let second = match wxf_number(c[1]) {
        Some(n) => Slot::Number(n),
        None => Slot::Sign(sign(c[1])?),
    };
    let slots = [
        letter,
        second,
        Slot::Direction(wxf_direction(c[2])?),
        Slot::Number(wxf_number(c[3])?),
    ];
    Some((4, wxf_move(text, &slots).ok()?))
}

/// `wxf_letter`, and whether it is lower-case.
fn letter(ch: char) -> Option<Slot> {
    let role = match ch {
        'K' | 'k' | 'Ｋ' | 'ｋ' => Role::King,
        'A' | 'a' | 'Ａ' | 'ａ' => Role::Advisor,
        'E' | 'e' | 'B' | 'b' | 'Ｅ' | 'ｅ' | 'Ｂ' | 'ｂ' => Role::Elephant,
        'H' | 'h' | 'N' | 'n' | 'Ｈ' | 'ｈ' | 'Ｎ' | 'ｎ' => Role::Horse,
        'R' | 'r' | 'Ｒ' | 'ｒ' => Role::Rook,
        'C' | 'c' | 'Ｃ' | 'ｃ' => Role::Cannon,
        'P' | 'p' | 'Ｐ' | 'ｐ' => Role::Pawn,
        _ => return None,
    };
    Some(Slot::Letter(role, ch.is_lowercase()))
}

/// `wxf_number`.
fn wxf_number(ch: char) -> Option<u8> {
    match ch {
        '1'..='9' | '１'..='９' => number(ch).map(|(value, _)| value),
        _ => None,
    }
}

/// `wxf_direction`.
fn wxf_direction(ch: char) -> Option<Direction> {
    Some(match ch {
        '+' | '＋' => Direction::Advance,
        '-' | '－' => Direction::Retreat,
        '.' | '=' | '．' | '＝' => Direction::Traverse,
        _ => return None,
    })
}

/// `wxf_sign`, as the grammar's reading gives it (full-width signs as ASCII).
fn sign(ch: char) -> Option<char> {
    Some(match ch {
        '+' | '＋' => '+',
        '-' | '－' => '-',
        '.' | '．' => '.',
        'a'..='e' => ch,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use xq_core::Position;

    use super::*;
    use crate::{
        syntax::parse_with,
        write::{Notation, write},
    };

    /// A small deterministic generator (xorshift64*), so failures reproduce.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) % n as u64) as usize
        }
    }

    /// Positions crowded with pawns (four or five on a file, or two files of them) and with
    /// doubled pieces, for the forms 前中后, 一…五 and 前兵九: random playouts go on from them.
    const CROWDED: &[&str] = &[
        "3k5/4P4/2P1P4/4P4/4P4/4p4/4p4/2p1p4/4p4/5K3 w - - 0 1",
        "3k5/9/2P3P2/2P1R1P2/4R4/4r4/2p3p2/2p1r1p2/9/5K3 w - - 0 1",
        "3k5/9/2P1P4/2P1P4/4P4/2p1p4/2p1p4/4p4/9/5K3 b - - 0 1",
        "2bakab2/4n4/4n4/4c4/4c4/4C4/4C4/4N4/4N4/2BAKAB2 w - - 0 1",
        "3ak4/P3a4/P1P6/P1P6/9/9/p1p6/p1p6/p3A4/3AK4 w - - 0 1",
    ];

    /// Characters of every class of the grammar (and some of none), to garble tokens with.
    const GARBLE: &[char] = &[
        '前', '中', '后', '一', '五', '六', '九', '兵', '马', '车', '进', '退', '平', '１', '９',
        '1', '9', '0', '+', '-', '.', '=', '＋', '．', 'a', 'e', 'f', 'i', 'C', 'c', 'P', 'Ｃ',
        'ｐ', '壹', '陆', ' ', 'x', '#', '\0',
    ];

    /// The quick reader reads every token as the grammar does, or leaves it to the grammar:
    /// every legal move of random and crowded positions in every convention, and those tokens
    /// cut short, lengthened and with a character replaced. And it does take the usual forms:
    /// every Chinese, ICCS and UCCI token, and WXF's that start with the piece letter.
    #[test]
    fn the_quick_reader_reads_as_the_grammar_or_declines() {
        let notations = Notation::all();
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        // Random playouts: ten of 100 plies from the start, twenty of 40 from each crowded one.
        let starts = std::iter::repeat_n((xq_core::START_FEN, 100), 10).chain(
            CROWDED
                .iter()
                .flat_map(|fen| std::iter::repeat_n((*fen, 40), 20)),
        );
        let mut positions = Vec::new();
        for (fen, plies) in starts {
            let mut pos = Position::from_fen(fen).unwrap();
            for _ in 0..plies {
                positions.push(pos.clone());
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[rng.below(moves.len())]);
            }
        }
        let (mut tokens, mut quick, mut garbled) = (0, 0, 0);
        let check = |text: &str| {
            assert_eq!(parse_with(text, true), parse_with(text, false), "{text:?}");
        };
        let mut seen = std::collections::HashSet::new();
        for pos in &positions {
            for &m in pos.legal_moves().iter() {
                for &notation in &notations {
                    let text = write(pos, m, notation);
                    if !seen.insert(text.clone()) {
                        continue;
                    }
                    tokens += 1;
                    check(&text);
                    let usual = match notation {
                        Notation::Chinese(_) | Notation::Iccs | Notation::Ucci => true,
                        Notation::Wxf => text.starts_with(|c: char| c.is_ascii_uppercase()),
                        _ => false,
                    };
                    if parse(&text).is_some() {
                        quick += 1;
                    } else {
                        assert!(!usual, "{text} ({notation:?}) is left to the grammar");
                    }
                    let chars: Vec<char> = text.chars().collect();
                    let mut variants = vec![
                        chars[1..].iter().collect::<String>(),
                        chars[..chars.len() - 1].iter().collect(),
                    ];
                    for _ in 0..6 {
                        let mut longer = chars.clone();
                        longer.insert(rng.below(chars.len() + 1), GARBLE[rng.below(GARBLE.len())]);
                        variants.push(longer.iter().collect());
                        let mut replaced = chars.clone();
                        replaced[rng.below(chars.len())] = GARBLE[rng.below(GARBLE.len())];
                        variants.push(replaced.iter().collect());
                    }
                    for variant in &variants {
                        garbled += 1;
                        check(variant);
                    }
                }
            }
        }
        // Rarer forms, each with every character dropped and replaced in turn.
        let rare = [
            "前九平八",
            "後９平８",
            "炮贰平伍",
            "炮二平5",
            "包8平5",
            "傌二進三",
            "前兵九平八",
            "二兵平四",
            "五卒进1",
            "中兵平四",
            "C25",
            "c2.5",
            "Ｃ２＝５",
            "ｃ２．５",
            "Pa+1",
            "Pe.1",
            "P..4",
            "+C-1",
            "++.4",
            "--.4",
            "+-.4",
            "3+.4",
            "33.4",
            "15=6",
            "H2-E2",
            "h2e2",
            "h2-e2",
            "h2e2x",
            "h10h9",
            "Che3",
            "H3d5",
            "i0i1",
            "I9-I8",
            "aC+1",
            "a1.2",
        ];
        for text in rare {
            check(text);
            let chars: Vec<char> = text.chars().collect();
            for at in 0..chars.len() {
                let mut shorter = chars.clone();
                shorter.remove(at);
                check(&shorter.iter().collect::<String>());
                for &ch in GARBLE {
                    let mut replaced = chars.clone();
                    replaced[at] = ch;
                    check(&replaced.iter().collect::<String>());
                    garbled += 1;
                }
            }
        }
        assert!(
            tokens > 10_000 && quick > tokens / 2 && garbled > 100_000,
            "{tokens} tokens, {quick} read quickly, {garbled} garbled"
        );
    }
}
