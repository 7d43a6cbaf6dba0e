//! `xq render`: a board as SVG.

use std::io::Write;

use xq_render::{Arrow, ArrowKind, BoardOptions, board_svg};

use super::line::{Source, read_line};
use crate::{CliError, ExitStatus, args::RenderArgs};

pub(crate) fn run(args: &RenderArgs, out: &mut dyn Write) -> Result<ExitStatus, CliError> {
    let input = crate::args::InputArgs {
        encoding: None,
        from: None,
    };
    let mut pos = super::parse_fen(args.fen.as_deref().unwrap_or(xq_core::START_FEN), true)?;
    let mut last = None;
    if args.moves.is_some() {
        let line = read_line(&Source {
            file: None,
            game: 1,
            fen: args.fen.as_deref(),
            moves: args.moves.as_deref(),
            ply: None,
            input: &input,
        })?;
        for &m in &line.moves {
            pos.play_unchecked(m);
        }
        last = line.moves.last().copied();
    }
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
        },
    );
    super::output::emit(args.output.as_deref(), svg.as_bytes(), out)?;
    Ok(ExitStatus::Success)
}
