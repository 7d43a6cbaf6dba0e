//! `xq show`: one game's tags and moves, in a notation, with comments and variations.

use std::io::Write;

use xq_core::{
    Color, Position,
    text::{visible, visible_lines, visible_path},
};
use xq_notation::{ChineseStyle, Mode, Notation, Reader};
use xq_record::{
    Game, GameStream, Node, replay,
    write::{move_text, play, with_glyphs},
};

use crate::{
    CliError, ExitStatus,
    args::{Format, ShowArgs, ShowNotation},
};

pub(crate) fn run(args: &ShowArgs, out: &mut dyn Write) -> Result<ExitStatus, CliError> {
    let mut game = read_game(&args.file, args.game, args.input.options())?;
    let mut reader = Reader::new(Mode::Lenient);
    let replayed = replay::replay(&mut game, &mut reader);
    match args.format {
        Format::Json => {
            serde_json::to_writer_pretty(&mut *out, &game).map_err(std::io::Error::from)?;
            writeln!(out)?;
        }
        Format::Text => {
            match args.notation {
                ShowNotation::Moves(n) => text(&game, n.notation(ChineseStyle::default()), out)?,
                ShowNotation::UcciLine => {
                    writeln!(out, "{}", ucci_line(&game, &replayed))?;
                }
            }
            for e in &replayed.errors {
                writeln!(
                    out,
                    "! ply {} `{}` does not replay: {}",
                    e.ply,
                    visible(&e.text),
                    visible(&e.message)
                )?;
                let place = e.source_offset.and_then(|at| {
                    let options = args.input.options();
                    super::located::written_snippet(&args.file, &e.text, at, e.source_line, options)
                });
                if let Some(place) = place {
                    writeln!(out, "{place}")?;
                }
            }
            if let Some(why) = &replayed.bad_start {
                writeln!(out, "! {}", visible(&why.message))?;
                if let Some(place) =
                    super::located::fen_place(&args.file, &game, why, args.input.options())
                {
                    writeln!(out, "{place}")?;
                }
            }
        }
    }
    Ok(
        if replayed.bad_start.is_none() && replayed.errors.is_empty() {
            ExitStatus::Success
        } else {
            ExitStatus::Invalid
        },
    )
}

/// The main line as one UCCI command: `position startpos moves h2e2 …` from the standard start,
/// `position fen FEN moves …` from any other (the side to move as replaying found it); the moves
/// up to the first that does not replay (those are listed after it).
fn ucci_line(game: &Game, replayed: &replay::Replay) -> String {
    let Ok((mut start, _)) = replay::start_position(game) else {
        return String::new();
    };
    if replayed.side_from_first_move {
        start = start.passed();
    }
    let fen = start.fen();
    let mut line = if fen == Position::new().fen() {
        "position startpos".to_owned()
    } else {
        format!("position fen {fen}")
    };
    let moves: Vec<String> = game
        .moves
        .iter()
        .take(replayed.plies)
        .filter_map(|node| node.m.map(|m| m.to_string()))
        .collect();
    if !moves.is_empty() {
        line.push_str(" moves ");
        line.push_str(&moves.join(" "));
    }
    line
}

/// Game `number` (1-based) of the file at `path`.
pub(crate) fn read_game(
    path: &std::path::Path,
    number: u32,
    options: xq_record::ReadOptions,
) -> Result<Game, CliError> {
    let stream = GameStream::open(path, options).map_err(|e| {
        if e.kind == xq_record::ReadErrorKind::Io {
            CliError::Io {
                context: format!("cannot read {}", visible_path(path)),
                source: std::io::Error::other(e.message),
            }
        } else {
            let place = super::located::record_snippet(path, &e, options)
                .map(|s| format!("\n{s}"))
                .unwrap_or_default();
            CliError::Invalid(format!("{}: {e}{place}", visible_path(path)))
        }
    })?;
    let index = number as usize - 1;
    let mut count = 0;
    for (i, item) in stream.enumerate() {
        count = i + 1;
        if i == index {
            return item.map_err(|e| {
                let place = super::located::record_snippet(path, &e, options)
                    .map(|s| format!("\n{s}"))
                    .unwrap_or_default();
                CliError::Invalid(format!("{}: {e}{place}", visible_path(path)))
            });
        }
    }
    Err(CliError::Invalid(format!(
        "{}: there is no game {number}: the file holds {count} game{}",
        visible_path(path),
        if count == 1 { "" } else { "s" }
    )))
}

fn text(game: &Game, notation: Notation, out: &mut dyn Write) -> std::io::Result<()> {
    for (k, v) in game.tags.iter().filter(|(_, v)| !v.trim().is_empty()) {
        writeln!(out, "{}: {}", visible(k), visible(v))?;
    }
    let start = replay::start_position(game).ok().map(|(p, _)| p);
    if let Some(fen) = &game.fen {
        writeln!(out, "FEN: {}", visible(fen))?;
    }
    if !game.tags.is_empty() || game.fen.is_some() {
        writeln!(out)?;
    }
    if let Some(c) = &game.comment {
        writeln!(out, "{{{}}}", visible_lines(c))?;
    }
    let black_first = start.as_ref().is_some_and(|p| p.turn() == Color::Black);
    // The main line: a round per row, a comment or variations breaking the row.
    let mut pos = start;
    let mut row = String::new();
    for (i, node) in game.moves.iter().enumerate() {
        let ply = i + usize::from(black_first);
        let number = ply / 2 + 1;
        // (With its annotation glyphs, as PGN writes them.)
        let word =
            visible(&with_glyphs(move_text(pos.as_ref(), node, notation), node)).into_owned();
        if let Some(before) = node.before() {
            flush(&mut row, out)?;
            writeln!(out, "      {{{}}}", indent(before))?;
        }
        if ply.is_multiple_of(2) {
            flush(&mut row, out)?;
            row = format!("{number:>4}. {word}");
        } else if row.is_empty() {
            row = format!("{number:>4}. …  {word}");
        } else {
            let pad = 12usize.saturating_sub(display_width(&row) - 6);
            row.push_str(&" ".repeat(pad.max(2)));
            row.push_str(&word);
        }
        if node.comment().is_some() || !node.variations().is_empty() {
            flush(&mut row, out)?;
        }
        if let Some(c) = node.comment() {
            writeln!(out, "      {{{}}}", indent(c))?;
        }
        for v in node.variations() {
            let mut tree = Tree {
                out: &mut *out,
                notation,
            };
            tree.variation(v, pos.clone(), ply, 0)?;
        }
        play(&mut pos, node);
    }
    flush(&mut row, out)?;
    if let Some(result) = game.tag("Result") {
        writeln!(out, "{result}")?;
    }
    Ok(())
}

/// A comment's later lines indented like its first (control characters shown, not acted on).
fn indent(comment: &str) -> String {
    visible_lines(comment).replace('\n', "\n       ")
}

fn flush(row: &mut String, out: &mut dyn Write) -> std::io::Result<()> {
    if !row.is_empty() {
        writeln!(out, "{}", row.trim_end())?;
        row.clear();
    }
    Ok(())
}

/// Columns a string takes on a terminal (CJK characters take two).
fn display_width(s: &str) -> usize {
    s.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum()
}

/// Variations printed as a tree: each on its own lines, indented by its depth; a nested
/// variation breaks its parent's line and the parent goes on below it; long lines wrap.
struct Tree<'a> {
    out: &'a mut dyn Write,
    notation: Notation,
}

/// The width a line of a variation wraps at (terminal columns).
const WRAP: usize = 78;

impl Tree<'_> {
    /// Writes `line` (whose first move is ply `first`) as one variation at `depth`.
    fn variation(
        &mut self,
        line: &[Node],
        mut pos: Option<Position>,
        first: usize,
        depth: usize,
    ) -> std::io::Result<()> {
        let margin = " ".repeat(6 + 2 * depth);
        // The words waiting to be written on the current row, and whether a row was written.
        let mut row: Vec<String> = vec!["(".to_owned()];
        // Black's move gets its number at the start and after anything that interrupts the round.
        let mut interrupted = true;
        for (i, node) in line.iter().enumerate() {
            let ply = first + i;
            if let Some(b) = node.before() {
                row.push(format!("{{{}}}", indent(b)));
                interrupted = true;
            }
            if ply.is_multiple_of(2) {
                row.push(format!("{}.", ply / 2 + 1));
            } else if interrupted {
                row.push(format!("{}…", ply / 2 + 1));
            }
            let word = with_glyphs(move_text(pos.as_ref(), node, self.notation), node);
            row.push(visible(&word).into_owned());
            interrupted = false;
            if let Some(c) = node.comment() {
                row.push(format!("{{{}}}", indent(c)));
                interrupted = true;
            }
            if !node.variations().is_empty() {
                self.row(&margin, &mut row)?;
                for v in node.variations() {
                    self.variation(v, pos.clone(), ply, depth + 1)?;
                }
                interrupted = true;
            } else if display_width(&row.join(" ")) + margin.len() > WRAP {
                self.row(&margin, &mut row)?;
            }
            play(&mut pos, node);
        }
        row.push(")".to_owned());
        self.row(&margin, &mut row)
    }

    /// Writes the waiting words as one row (a continuation row is indented past the bracket).
    fn row(&mut self, margin: &str, row: &mut Vec<String>) -> std::io::Result<()> {
        if row.is_empty() {
            return Ok(());
        }
        let lead = if row[0] == "(" || row[0] == ")" {
            ""
        } else {
            "  "
        };
        writeln!(self.out, "{margin}{lead}{}", row.join(" "))?;
        row.clear();
        Ok(())
    }
}
