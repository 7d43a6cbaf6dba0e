//! `xq render`: a board as SVG.

use std::io::Write;

use xq_render::{Arrow, ArrowKind, BoardOptions, board_svg};

use super::line::{Source, read_line};
use crate::{CliError, ExitStatus, args::RenderArgs};

pub(crate) fn run(args: &RenderArgs, out: &mut dyn Write) -> Result<ExitStatus, CliError> {
    let line = &args.line;
    let (pos, last) = if line.file.is_some() || line.moves.is_some() {
        let line = read_line(&Source::of(line))?;
        let mut pos = line.start.clone();
        for &m in &line.moves {
            pos.play_unchecked(m);
        }
        (pos, line.moves.last().copied())
    } else {
        let fen = line.fen.as_deref().unwrap_or(xq_core::START_FEN);
        (super::parse_fen(fen, true)?, None)
    };
    let mut arrows = Vec::new();
    for text in &args.arrows {
        let m: xq_core::Move = text.parse().map_err(|_| {
            CliError::Usage(format!(
                "--arrow {text}: give two points in ICCS, such as h2e2"
            ))
        })?;
        arrows.push(Arrow {
            from: m.from,
            to: m.to,
            kind: ArrowKind::Attack,
        });
    }
    let svg = board_svg(
        pos.board(),
        &BoardOptions {
            flip: args.flip,
            last_move: last,
            arrows,
            cell: args.cell,
            side_to_move: Some(pos.turn()),
        },
    );
    super::output::emit(args.output.as_deref(), svg.as_bytes(), out)?;
    Ok(ExitStatus::Success)
}
