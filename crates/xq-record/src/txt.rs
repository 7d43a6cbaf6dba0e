//! Plain move lists.
//!
//! Three layouts are read:
//! - a FEN on the first line and the moves on the following lines (one game);
//! - one game per line: `FEN, moves, result` separated by commas;
//! - one game per line: optionally a FEN (its board and side, optionally `- - n n`), then moves.
//!
//! Moves are in any notation; move numbers and a final result are skipped.

use crate::{
    error::ReadError,
    game::{Game, Node, Outcome},
};

fn is_board(token: &str) -> bool {
    token.matches('/').count() == 9
}

/// Adds the moves of `text` (on line `line`, starting at byte `at` of the text read) to `game`.
fn moves_into(game: &mut Game, text: &str, line: u32, at: usize) {
    let mut next = 0;
    for word in text.split(|c: char| c.is_whitespace() || c == ',') {
        // Words come in order: where this one starts, past the last one and its separator.
        let word_at = next;
        next += word.len()
            + text[next + word.len()..]
                .chars()
                .next()
                .map_or(0, char::len_utf8);
        // Its move number (`12.`, `12、`) aside, as PGN's: a WXF pawn named by file and place
        // (`33.4`, `3+.4`) starts with digits too.
        let Some(token) = crate::pgn::strip_move_number(word) else {
            continue;
        };
        // A number written against the move without a dot (`1炮二平五`).
        let unnumbered = token.trim_start_matches(|c: char| c.is_ascii_digit());
        let token = if unnumbered.len() < token.len()
            && !unnumbered.is_empty()
            && xq_notation::parse(token).is_err()
            && xq_notation::parse(unnumbered).is_ok()
        {
            unnumbered
        } else {
            token
        };
        if token.is_empty() {
            continue;
        }
        let raw = text
            .split_whitespace()
            .find(|t| t.ends_with(token))
            .unwrap_or(token);
        let is_result = matches!(
            raw,
            "1-0" | "0-1" | "1/2-1/2" | "*" | "红胜" | "紅勝" | "黑胜" | "黑勝" | "和棋" | "和局"
        );
        if let Some(outcome) = Outcome::parse(raw).filter(|_| is_result) {
            game.set_tag("Result", outcome.pgn());
            continue;
        }
        if raw.chars().all(|c| c.is_ascii_digit() || c == '.') && xq_notation::parse(token).is_err()
        {
            continue;
        }
        // Annotation glyphs, as PGN has them: the move's before them (`$14`, `!?` alone), or
        // marks on the move (`炮二平五!?`).
        let (bare, marks) = crate::game::split_glyphs(token, |glyph| match game.moves.last_mut() {
            Some(node) => node.add_glyph(glyph),
            None => game.unread.push(format!(
                "the annotation glyph {glyph} before any move (line {line})"
            )),
        });
        if bare.is_empty() {
            continue;
        }
        let mut node = Node::text(bare);
        node.set_source_line(Some(line));
        node.set_source_offset(Some(at + word_at + (word.len() - bare.len() - marks.len())));
        if !marks.is_empty() {
            node.add_glyph(marks);
        }
        game.moves.push(node);
    }
}

/// Splits a FEN off the front of `line`: the board, the side, and optional `- - n n` fields.
fn split_fen(line: &str) -> (Option<String>, &str) {
    let mut rest = line.trim();
    let Some(first) = rest
        .split_whitespace()
        .next()
        .filter(|t| is_board(t.trim_end_matches(',')))
    else {
        return (None, rest);
    };
    let mut fen = vec![first.trim_end_matches(',')];
    rest = rest[first.len()..].trim_start();
    for _ in 0..5 {
        let Some(token) = rest.split_whitespace().next() else {
            break;
        };
        let t = token.trim_end_matches(',');
        let fits = match fen.len() {
            1 => matches!(t, "w" | "b" | "r" | "W" | "B" | "R"),
            2 | 3 => t == "-",
            _ => t.bytes().all(|b| b.is_ascii_digit()),
        };
        if !fits {
            break;
        }
        fen.push(t);
        rest = rest[token.len()..].trim_start();
        if token.ends_with(',') {
            break;
        }
    }
    (
        Some(fen.join(" ")),
        rest.trim_start_matches(',').trim_start(),
    )
}

/// Reads a move list.
pub fn read_txt(text: &str) -> Vec<Result<Game, ReadError>> {
    // Each line with its number and where it starts in `text` (after its leading spaces).
    let mut lines: Vec<(u32, &str, usize)> = Vec::new();
    let bom = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let mut at = bom;
    for (i, raw) in text[bom..].split_inclusive('\n').enumerate() {
        let start = at + (raw.len() - raw.trim_start().len());
        at += raw.len();
        let l = raw.trim();
        if !l.is_empty() && !l.starts_with('#') {
            lines.push((i as u32 + 1, l, start));
        }
    }
    // The start position of a game whose line `no`, starting at `at`, gives one.
    let placed = |fen: Option<String>, no: u32, at: usize| Game {
        fen_offset: fen.is_some().then_some(at),
        fen_line: fen.is_some().then_some(no),
        fen,
        ..Game::default()
    };
    let Some(&(first_no, first, first_at)) = lines.first() else {
        return Vec::new();
    };
    let (fen, rest) = split_fen(first);
    // A FEN alone on the first line, the moves below: one game.
    if fen.is_some()
        && rest.is_empty()
        && lines
            .iter()
            .skip(1)
            .all(|(_, l, _)| !l.split_whitespace().any(is_board))
    {
        let mut game = placed(fen, first_no, first_at);
        for &(no, line, at) in &lines[1..] {
            moves_into(&mut game, line, no, at);
        }
        return vec![Ok(game)];
    }
    lines
        .iter()
        .map(|&(no, line, at)| {
            let (fen, rest) = split_fen(line);
            let mut game = placed(fen, no, at);
            // `rest` is the end of `line`.
            moves_into(&mut game, rest, no, at + line.len() - rest.len());
            Ok(game)
        })
        .collect()
}

/// Writes a game's main line as one line of a move list: the FEN (if not the standard
/// position), then the moves written by `write`.
pub(crate) fn write_txt_line(game: &Game, moves: &[String]) -> String {
    let mut out = String::new();
    if let Some(fen) = &game.fen {
        out.push_str(fen);
        out.push_str(", ");
    }
    out.push_str(&moves.join(" "));
    if let Some(result) = game.outcome().filter(|o| *o != Outcome::Unknown) {
        out.push_str(", ");
        out.push_str(result.pgn());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(g: &Game) -> Vec<&str> {
        g.moves.iter().filter_map(|n| n.text.as_deref()).collect()
    }

    #[test]
    fn layouts() {
        let a = read_txt(
            "2b1kabn1/4aR3/3R2N2/4p1p2/5P3/4P4/3N2Pr1/4C1n2/3pAr3/4K3c w\n炮五进四\n士５进６\n",
        );
        assert_eq!(a.len(), 1);
        let g = a[0].as_ref().unwrap();
        assert!(g.fen.as_deref().unwrap().ends_with(" w"));
        assert_eq!(texts(g), ["炮五进四", "士５进６"]);
        let b = read_txt("9/3k5/4c4/4N4/9/6R2/9/5p3/4r4/5K3 w, g4g8 d8d9 e6c7, 1-0\n");
        let g = b[0].as_ref().unwrap();
        assert_eq!(texts(g), ["g4g8", "d8d9", "e6c7"]);
        assert_eq!(g.tag("Result"), Some("1-0"));
        let c = read_txt("h2e2 h9g7 h0g2\n1. 炮二平五 马８进７ *\n");
        assert_eq!(c.len(), 2);
        assert_eq!(texts(c[1].as_ref().unwrap()), ["炮二平五", "马８进７"]);
        // Numbers with a dot, a comma of enumeration, or none; WXF pawns named by file and
        // place, which start with digits, are moves.
        let d = read_txt("1.炮二平五 2、马二进三 3马八进七 33.4 3+.4 12.44.3\n");
        assert_eq!(
            texts(d[0].as_ref().unwrap()),
            ["炮二平五", "马二进三", "马八进七", "33.4", "3+.4", "44.3"]
        );
    }
}
