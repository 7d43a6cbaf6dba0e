//! SVG board diagrams: nine files and ten ranks, the river with 楚河 漢界, the palaces'
//! diagonals, both sides' file numbers (1…9 along Black's edge, 一…九 along Red's), the pieces
//! with their Chinese names — Red's and Black's names differ (帥仕相傌俥炮兵 against 將士象馬車砲卒)
//! and Red's pieces have a double ring, so the diagram reads without colour — and optionally the
//! last move and arrows. Every character is drawn from embedded outlines.

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
}

impl Default for BoardOptions {
    fn default() -> BoardOptions {
        BoardOptions {
            flip: false,
            last_move: None,
            arrows: Vec::new(),
            cell: 60,
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
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img" aria-label="Xiangqi board">"#
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
    let river = top + 4.5 * c;
    for (i, ch) in "楚河".chars().enumerate() {
        text(
            &mut out,
            ch,
            left + (1.5 + i as f64) * c,
            river,
            0.55 * c,
            BLACK,
        );
    }
    for (i, ch) in "漢界".chars().enumerate() {
        text(
            &mut out,
            ch,
            left + (5.5 + i as f64) * c,
            river,
            0.55 * c,
            BLACK,
        );
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
    // The last move: corner marks on both points.
    if let Some(m) = options.last_move {
        for sq in [m.from, m.to] {
            let (x, y) = at(sq);
            let (a, b) = (0.45 * c, 0.2 * c);
            let _ = write!(
                out,
                r##"<path fill="none" stroke="#2a6fb0" stroke-width="{:.1}" d="M{} {}h{b}M{} {}v{b}M{} {}h-{b}M{} {}v{b}M{} {}h{b}M{} {}v-{b}M{} {}h-{b}M{} {}v-{b}"/>"##,
                c / 20.0,
                x - a,
                y - a,
                x - a,
                y - a,
                x + a,
                y - a,
                x + a,
                y - a,
                x - a,
                y + a,
                x - a,
                y + a,
                x + a,
                y + a,
                x + a,
                y + a
            );
        }
    }
    // Pieces.
    for (sq, piece) in board.pieces() {
        let (x, y) = at(sq);
        let color = if piece.color == Color::Red {
            RED
        } else {
            BLACK
        };
        let r = 0.44 * c;
        let _ = write!(
            out,
            r#"<circle cx="{x}" cy="{y}" r="{r:.1}" fill="{WOOD}" stroke="{color}" stroke-width="{:.1}"/>"#,
            c / 25.0
        );
        if piece.color == Color::Red {
            let _ = write!(
                out,
                r#"<circle cx="{x}" cy="{y}" r="{:.1}" fill="none" stroke="{color}" stroke-width="{:.1}"/>"#,
                r - c / 10.0,
                c / 40.0
            );
        }
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
