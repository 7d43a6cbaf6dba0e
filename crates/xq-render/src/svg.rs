//! SVG board diagrams: nine files and ten ranks, the river with 楚河 漢界, the palaces'
//! diagonals, both sides' file numbers (1…9 along Black's edge, 一…九 along Red's), the pieces
//! with their Chinese names — Red's and Black's names differ (帥仕相傌俥炮兵 against 將士象馬車砲卒)
//! and Red's pieces have a double ring, so the diagram reads without colour — and optionally the
//! last move, the side to move and arrows. Every character is drawn from embedded outlines.
//!
//! Made to survive black-and-white printing: the last move is told by shapes, not colour (a
//! dashed ring on the point it left, solid corner brackets round the point it reached); the
//! side to move is a small disc drawn as that side's pieces are (红 with a double ring, or 黑)
//! at the end of that side's row of file numbers. 楚河 漢界 stand in the river between the
//! files, small enough that no piece on the river's banks covers them.

use std::fmt::Write as _;

use xq_core::{Board, Color, Move, Piece, Role, Square};

use crate::glyphs::GLYPHS;

/// What an arrow shows.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ArrowKind {
    /// An attack: from the attacker to its target.
    Attack,
    /// A move.
    Move,
}

/// An arrow between two points.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Arrow {
    /// Where it starts.
    pub from: Square,
    /// Where it points.
    pub to: Square,
    /// What it shows.
    pub kind: ArrowKind,
}

/// How to draw a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardOptions {
    /// Black's side at the bottom.
    pub flip: bool,
    /// The last move, marked on both its points.
    pub last_move: Option<Move>,
    /// Arrows.
    pub arrows: Vec<Arrow>,
    /// The side of a square, in pixels (the diagram is 10 × 12 of them).
    pub cell: u32,
    /// The side to move, marked beside the board at the end of its row of file numbers.
    pub side_to_move: Option<Color>,
}

impl Default for BoardOptions {
    fn default() -> BoardOptions {
        BoardOptions {
            flip: false,
            last_move: None,
            arrows: Vec::new(),
            cell: 60,
            side_to_move: None,
        }
    }
}

const RED: &str = "#c0282d";
const BLACK: &str = "#1f1f1f";
const WOOD: &str = "#f3dcaa";
const PAPER: &str = "#fbf3df";

/// The glyph of `c`: its advance and outline.
fn glyph(c: char) -> Option<(u32, &'static str)> {
    GLYPHS
        .iter()
        .find(|(g, _, _)| *g == c)
        .map(|&(_, adv, d)| (adv, d))
}

/// `c` drawn centred on (`x`, `y`), `size` pixels to the em.
fn text(out: &mut String, c: char, x: f64, y: f64, size: f64, fill: &str) {
    let Some((advance, d)) = glyph(c) else { return };
    let s = size / 1000.0;
    let left = x - f64::from(advance) * s / 2.0;
    // The outlines' em box spans y 0…1000 (baseline 880); CJK glyphs are centred on 500 and
    // digits and letters sit on the baseline: centre them on their x-height instead.
    let middle = if c.is_ascii() { 620.0 } else { 500.0 };
    let top = y - middle * s;
    let _ = write!(
        out,
        r#"<path fill="{fill}" transform="translate({left:.1} {top:.1}) scale({s:.4})" d="{d}"/>"#
    );
}

fn name(piece: Piece) -> char {
    match (piece.color, piece.role) {
        (Color::Red, Role::King) => '帥',
        (Color::Red, Role::Advisor) => '仕',
        (Color::Red, Role::Elephant) => '相',
        (Color::Red, Role::Horse) => '傌',
        (Color::Red, Role::Rook) => '俥',
        (Color::Red, Role::Cannon) => '炮',
        (Color::Red, Role::Pawn) => '兵',
        (Color::Black, Role::King) => '將',
        (Color::Black, Role::Advisor) => '士',
        (Color::Black, Role::Elephant) => '象',
        (Color::Black, Role::Horse) => '馬',
        (Color::Black, Role::Rook) => '車',
        (Color::Black, Role::Cannon) => '砲',
        (Color::Black, Role::Pawn) => '卒',
    }
}

/// A piece's disc (its radius in cells); its outline is [`STROKE`] cells wide.
const PIECE_RADIUS: f64 = 0.44;
/// The width of a piece's outline, in cells.
const STROKE: f64 = 0.04;
/// The last move's marks.
const MARK: &str = "#1d4f86";

/// A disc of wood ringed in `color` (twice for Red) at `centre`.
fn disc(out: &mut String, (x, y): (f64, f64), r: f64, color: &str, red: bool, c: f64) {
    let _ = write!(
        out,
        r#"<circle cx="{x}" cy="{y}" r="{r:.1}" fill="{WOOD}" stroke="{color}" stroke-width="{:.1}"/>"#,
        STROKE * c
    );
    if red {
        let _ = write!(
            out,
            r#"<circle cx="{x}" cy="{y}" r="{:.1}" fill="none" stroke="{color}" stroke-width="{:.1}"/>"#,
            r - c / 10.0,
            c / 40.0
        );
    }
}

/// The river's words: character, centre and size. Each stands between two files, where no piece
/// can stand, and is small enough that the pieces on the banks around it leave it clear (tested).
fn river_labels(left: f64, top: f64, c: f64) -> [(char, f64, f64, f64); 4] {
    let y = top + 4.5 * c;
    let size = 0.34 * c;
    [('楚', 1.5), ('河', 2.5), ('漢', 5.5), ('界', 6.5)].map(|(ch, f)| (ch, left + f * c, y, size))
}

/// The board as an SVG document.
pub fn board_svg(board: &Board, options: &BoardOptions) -> String {
    let c = f64::from(options.cell.max(20));
    let (w, h) = (10.0 * c, 12.0 * c);
    let (left, top) = (c, 1.5 * c);
    let at = |sq: Square| {
        let (f, r) = (sq.file().index() as f64, sq.rank().index() as f64);
        let (f, r) = if options.flip {
            (8.0 - f, r)
        } else {
            (f, 9.0 - r)
        };
        (left + f * c, top + r * c)
    };
    let mut out = String::new();
    let _ = write!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img" aria-label="Xiangqi board{}">"#,
        match options.side_to_move {
            Some(Color::Red) => ", Red to move",
            Some(Color::Black) => ", Black to move",
            None => "",
        }
    );
    let _ = write!(
        out,
        r##"<defs><marker id="attack" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" markerHeight="5" orient="auto"><path d="M0 0L10 5L0 10z" fill="{RED}"/></marker><marker id="move" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" markerHeight="5" orient="auto"><path d="M0 0L10 5L0 10z" fill="#2a6fb0"/></marker></defs>"##
    );
    let _ = write!(out, r#"<rect width="{w}" height="{h}" fill="{PAPER}"/>"#);
    // Grid: ranks across; files, broken at the river but for the edges.
    let stroke = format!(r#"stroke="{BLACK}" stroke-width="{:.1}""#, c / 30.0);
    let _ = write!(out, "<g {stroke} fill=\"none\">");
    let _ = write!(
        out,
        r#"<rect x="{left}" y="{top}" width="{}" height="{}" stroke-width="{:.1}"/>"#,
        8.0 * c,
        9.0 * c,
        c / 15.0
    );
    for r in 1..9 {
        let y = top + f64::from(r) * c;
        let _ = write!(
            out,
            r#"<line x1="{left}" y1="{y}" x2="{}" y2="{y}"/>"#,
            left + 8.0 * c
        );
    }
    for f in 1..8 {
        let x = left + f64::from(f) * c;
        let _ = write!(
            out,
            r#"<line x1="{x}" y1="{top}" x2="{x}" y2="{}"/>"#,
            top + 4.0 * c
        );
        let _ = write!(
            out,
            r#"<line x1="{x}" y1="{}" x2="{x}" y2="{}"/>"#,
            top + 5.0 * c,
            top + 9.0 * c
        );
    }
    // Palaces.
    for (r0, r1) in [(0.0, 2.0), (7.0, 9.0)] {
        let (x0, x1) = (left + 3.0 * c, left + 5.0 * c);
        let (y0, y1) = (top + r0 * c, top + r1 * c);
        let _ = write!(
            out,
            r#"<line x1="{x0}" y1="{y0}" x2="{x1}" y2="{y1}"/><line x1="{x1}" y1="{y0}" x2="{x0}" y2="{y1}"/>"#
        );
    }
    out.push_str("</g>");
    // The river.
    for (ch, x, y, size) in river_labels(left, top, c) {
        text(&mut out, ch, x, y, size, BLACK);
    }
    // File numbers: Black counts 1…9 from its right (Red's left), Red 一…九 from its right.
    let digits: Vec<char> = "123456789".chars().collect();
    let numerals: Vec<char> = "一二三四五六七八九".chars().collect();
    for f in 0..9usize {
        let x = left + f as f64 * c;
        let (upper, lower) = if options.flip {
            (numerals[f], digits[8 - f])
        } else {
            (digits[f], numerals[8 - f])
        };
        let (upper_fill, lower_fill) = if options.flip {
            (RED, BLACK)
        } else {
            (BLACK, RED)
        };
        text(&mut out, upper, x, top - 0.8 * c, 0.4 * c, upper_fill);
        text(&mut out, lower, x, top + 9.8 * c, 0.4 * c, lower_fill);
    }
    // The last move: a dashed ring where it left, solid corner brackets where it arrived.
    if let Some(m) = options.last_move {
        let (x, y) = at(m.from);
        let _ = write!(
            out,
            r#"<circle cx="{x}" cy="{y}" r="{:.1}" fill="none" stroke="{MARK}" stroke-width="{:.1}" stroke-dasharray="{:.1}"/>"#,
            0.3 * c,
            c / 15.0,
            c / 10.0
        );
        let (x, y) = at(m.to);
        let (a, b) = (0.47 * c, 0.22 * c);
        let mut d = String::new();
        for (sx, sy) in [(-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)] {
            let (cx, cy) = (x + sx * a, y + sy * a);
            let _ = write!(d, "M{:.1} {cy:.1}H{cx:.1}V{:.1}", cx - sx * b, cy - sy * b);
        }
        let _ = write!(
            out,
            r#"<path fill="none" stroke="{MARK}" stroke-width="{:.1}" stroke-linecap="square" d="{d}"/>"#,
            c / 12.0
        );
    }
    // The side to move: a small disc as its pieces are drawn, at the end of its numbers' row.
    if let Some(side) = options.side_to_move {
        let at_bottom = (side == Color::Red) != options.flip;
        let y = if at_bottom {
            top + 9.8 * c
        } else {
            top - 0.8 * c
        };
        let (glyph, color) = if side == Color::Red {
            ('红', RED)
        } else {
            ('黑', BLACK)
        };
        disc(
            &mut out,
            (left + 8.6 * c, y),
            0.3 * c,
            color,
            side == Color::Red,
            c,
        );
        text(&mut out, glyph, left + 8.6 * c, y, 0.32 * c, color);
    }
    // Pieces.
    for (sq, piece) in board.pieces() {
        let (x, y) = at(sq);
        let color = if piece.color == Color::Red {
            RED
        } else {
            BLACK
        };
        disc(
            &mut out,
            (x, y),
            PIECE_RADIUS * c,
            color,
            piece.color == Color::Red,
            c,
        );
        text(&mut out, name(piece), x, y, 0.56 * c, color);
    }
    // Arrows, shortened so as not to cover the pieces' names.
    for arrow in &options.arrows {
        let ((x0, y0), (x1, y1)) = (at(arrow.from), at(arrow.to));
        let (dx, dy) = (x1 - x0, y1 - y0);
        let len = (dx * dx + dy * dy).sqrt().max(1.0);
        let cut = 0.3 * c;
        let (ux, uy) = (dx / len, dy / len);
        let (id, color) = match arrow.kind {
            ArrowKind::Attack => ("attack", RED),
            ArrowKind::Move => ("move", "#2a6fb0"),
        };
        let _ = write!(
            out,
            r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{color}" stroke-width="{:.1}" stroke-opacity="0.8" marker-end="url(#{id})"/>"##,
            x0 + ux * cut,
            y0 + uy * cut,
            x1 - ux * cut,
            y1 - uy * cut,
            c / 12.0
        );
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_character_the_board_uses_has_an_outline() {
        for ch in "帥仕相傌俥炮兵將士象馬車砲卒楚河漢界一二三四五六七八九123456789".chars()
        {
            assert!(glyph(ch).is_some(), "{ch}");
        }
    }

    /// The box (x0, y0, x1, y1) of an outline's points, in its em units (absolute commands
    /// M, L, H, V, C, Q and Z, as the glyph table has them).
    fn ink_box(d: &str) -> (f64, f64, f64, f64) {
        let mut b = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
        let (mut command, mut next_is_x) = ('M', true);
        let spaced: String = d
            .chars()
            .flat_map(|ch| {
                if ch.is_ascii_alphabetic() {
                    vec![' ', ch, ' ']
                } else {
                    vec![ch]
                }
            })
            .collect();
        for token in spaced.split_whitespace() {
            if let Ok(v) = token.parse::<f64>() {
                let is_x = match command {
                    'H' => true,
                    'V' => false,
                    _ => next_is_x,
                };
                if is_x {
                    b.0 = b.0.min(v);
                    b.2 = b.2.max(v);
                } else {
                    b.1 = b.1.min(v);
                    b.3 = b.3.max(v);
                }
                next_is_x = !is_x || matches!(command, 'H');
            } else {
                command = token.chars().next().unwrap();
                assert!("MLHVCQZ".contains(command), "{command}");
                next_is_x = true;
            }
        }
        b
    }

    #[test]
    fn no_piece_on_the_river_banks_covers_楚河_漢界() {
        let c = 60.0;
        let (left, top) = (c, 1.5 * c);
        // A piece's disc and its outline.
        let reach = (PIECE_RADIUS + STROKE / 2.0) * c;
        for (ch, x, y, size) in river_labels(left, top, c) {
            let (advance, d) = glyph(ch).unwrap();
            let (x0, y0, x1, y1) = ink_box(d);
            assert!(
                x0 > -20.0 && y0 > -20.0 && x1 < f64::from(advance) + 20.0 && y1 < 1020.0,
                "{ch}: {:?}",
                (x0, y0, x1, y1)
            );
            // (An outline may overshoot its em box by a unit or two.) Placed as `text` places it: centred on x, the em's middle (500) on y.
            let s = size / 1000.0;
            let (ix0, ix1) = (
                x - f64::from(advance) * s / 2.0 + x0 * s,
                x - f64::from(advance) * s / 2.0 + x1 * s,
            );
            let (iy0, iy1) = (y - 500.0 * s + y0 * s, y - 500.0 * s + y1 * s);
            for file in 0..9 {
                for rank in [4.0, 5.0] {
                    let (px, py) = (left + f64::from(file) * c, top + rank * c);
                    // The distance from the piece's centre to the nearest point of the box.
                    let dx = (ix0 - px).max(px - ix1).max(0.0);
                    let dy = (iy0 - py).max(py - iy1).max(0.0);
                    assert!(
                        dx.hypot(dy) > reach,
                        "{ch} is covered by a piece on file {file}, rank {rank}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_last_move_is_told_by_shape_and_the_side_to_move_by_its_disc() {
        let m: Move = "h2e2".parse().unwrap();
        let mut after = xq_core::Position::default();
        after.play_unchecked(m);
        let after = after.board();
        let svg = board_svg(
            after,
            &BoardOptions {
                last_move: Some(m),
                side_to_move: Some(Color::Black),
                ..BoardOptions::default()
            },
        );
        // The point left: a dashed ring at h2 (x 1 + 7 cells, y 1.5 + 7 cells).
        assert!(svg.contains(r##"<circle cx="480" cy="510" r="18.0" fill="none" stroke="#1d4f86" stroke-width="4.0" stroke-dasharray="6.0"/>"##));
        // The point reached: four solid corner brackets round e2.
        assert_eq!(svg.matches(r#"stroke-linecap="square""#).count(), 1);
        assert!(svg.contains("d=\"M285.0 481.8H271.8V495.0M"));
        // Black to move: a disc at the top right, not double-ringed.
        assert!(svg.contains(r#"aria-label="Xiangqi board, Black to move""#));
        assert!(svg.contains(r##"<circle cx="576" cy="42" r="18.0" fill="#f3dcaa""##));
        let flipped_red = board_svg(
            after,
            &BoardOptions {
                side_to_move: Some(Color::Red),
                flip: true,
                ..BoardOptions::default()
            },
        );
        assert!(
            flipped_red
                .contains(r##"<circle cx="576" cy="42" r="18.0" fill="#f3dcaa" stroke="#c0282d""##)
        );
        assert_eq!(flipped_red.matches("<circle").count(), 48 + 2);
    }

    #[test]
    fn the_start_position_has_32_pieces_and_a_flipped_board_mirrors_it() {
        let svg = board_svg(&Board::start(), &BoardOptions::default());
        assert_eq!(
            svg.matches("<circle").count(),
            32 + 16,
            "16 red pieces have a second ring"
        );
        let flipped = board_svg(
            &Board::start(),
            &BoardOptions {
                flip: true,
                ..BoardOptions::default()
            },
        );
        assert_ne!(svg, flipped);
        assert_eq!(flipped.matches("<circle").count(), 48);
    }
}
