//! A plain-text board diagram with Chinese piece names.
//!
//! Every one of the 14 pieces has its own glyph (Red 帥仕相傌俥炮兵, Black 將士象馬車砲卒, the
//! printed-board convention), so the diagram reads correctly without colour. Each point is one
//! full-width character followed by a space, so columns line up in any terminal that shows CJK
//! characters two cells wide. Black's file numbers (１…９) run along the top, Red's (九…一) along
//! the bottom, with the ICCS coordinates (ranks 0–9, files a–i) on the left and below.

use crate::{Board, Color, File, Rank, Square};

const EMPTY_POINT: char = '＋';
const BLACK_NUMBERS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];
const RED_NUMBERS: [char; 9] = ['九', '八', '七', '六', '五', '四', '三', '二', '一'];

/// Draws `board`, Black's side on top, and says whose turn it is if `turn` is given.
pub fn text_diagram(board: &Board, turn: Option<Color>) -> String {
    let mut out = String::new();
    out.push_str("  ");
    for n in BLACK_NUMBERS {
        out.push(n);
        out.push(' ');
    }
    out.push_str(" 黑方 Black\n");
    for rank in Rank::ALL.iter().rev() {
        out.push(rank.char());
        out.push(' ');
        for file in File::ALL {
            let glyph = board
                .piece_at(Square::new(file, *rank))
                .map_or(EMPTY_POINT, |p| p.diagram_glyph());
            out.push(glyph);
            out.push(' ');
        }
        out.truncate(out.trim_end().len());
        out.push('\n');
        if *rank == Rank::R5 {
            out.push_str("  ～～ 楚  河 ～～～～ 漢  界 ～～\n");
        }
    }
    out.push_str("  ");
    for n in RED_NUMBERS {
        out.push(n);
        out.push(' ');
    }
    out.push_str(" 红方 Red\n  ");
    for file in File::ALL {
        out.push(file.char());
        out.push_str("  ");
    }
    out.truncate(out.trim_end().len());
    out.push('\n');
    out.push_str("红 Red: 帥仕相傌俥炮兵   黑 Black: 將士象馬車砲卒\n");
    if let Some(color) = turn {
        out.push_str(match color {
            Color::Red => "红方走棋 Red to move\n",
            Color::Black => "黑方走棋 Black to move\n",
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_diagram() {
        let text = text_diagram(&Board::start(), Some(Color::Red));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[1], "9 車 馬 象 士 將 士 象 馬 車");
        assert_eq!(lines[11], "0 俥 傌 相 仕 帥 仕 相 傌 俥");
        assert_eq!(lines[3], "7 ＋ 砲 ＋ ＋ ＋ ＋ ＋ 砲 ＋");
        assert!(lines[6].contains("楚"));
        assert!(text.ends_with("红方走棋 Red to move\n"));
    }
}
