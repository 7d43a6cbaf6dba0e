//! `xq notation`.

use std::io::{Read, Write};

use xq_notation::{ChineseStyle, Mode, Ranks, Reader, Script, TandemStyle, write};

use crate::{
    CliError, ExitStatus,
    args::{CoordinatesArg, NotationArgs, TandemArg},
};

pub(crate) fn run(args: &NotationArgs, out: &mut dyn Write) -> Result<ExitStatus, CliError> {
    let pos = super::parse_fen(args.fen.as_deref().unwrap_or(xq_core::START_FEN), false)?;
    let tokens: Vec<String> = if args.moves.is_empty() {
        let mut input = String::new();
        std::io::stdin()
            .read_to_string(&mut input)
            .map_err(|source| CliError::Io {
                context: "cannot read the moves from standard input".to_owned(),
                source,
            })?;
        input
            .split_whitespace()
            .filter(|t| !super::is_filler(t))
            .map(str::to_owned)
            .collect()
    } else {
        args.moves
            .iter()
            .flat_map(|m| m.split_whitespace())
            .map(str::to_owned)
            .collect()
    };
    let tandem = match args.tandem {
        TandemArg::Xqbase => TandemStyle::Xqbase,
        TandemArg::Traditional => TandemStyle::Traditional,
    };
    let style = |script| ChineseStyle {
        script,
        tandem,
        ascii_digits: args.ascii_digits,
    };
    let notation = args.to.notation(style(Script::Simplified));
    let mut reader = Reader::new(if args.strict {
        Mode::Strict
    } else {
        Mode::Lenient
    });
    // The list's coordinates are ICCS's (ranks 0–9) or UCI's (1–10), decided for the whole
    // list as for a game (docs/notation.md): by a rank 10 or a rank 0, else ICCS unless only
    // UCI reads the list.
    let nodes: Vec<xq_record::Node> = tokens
        .iter()
        .map(|t| xq_record::Node::text(t.as_str()))
        .collect();
    let tries: &[Ranks] = match args.coordinates {
        CoordinatesArg::Iccs => &[Ranks::Iccs],
        CoordinatesArg::Uci => &[Ranks::Uci],
        CoordinatesArg::Auto => match xq_record::replay::coordinate_ranks(&nodes, &mut reader) {
            Some(Ranks::Uci) => &[Ranks::Uci],
            None => &[Ranks::Iccs, Ranks::Uci],
            _ => &[Ranks::Iccs],
        },
    };
    let mut first_error = None;
    for &ranks in tries {
        reader.set_ranks(ranks);
        match convert(&tokens, pos.clone(), &mut reader, notation) {
            Ok(written) => {
                writeln!(out, "{}", written.join(" "))?;
                return Ok(ExitStatus::Success);
            }
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    Err(first_error.unwrap_or_else(|| CliError::Invalid("no moves".to_owned())))
}

/// The moves of `tokens`, played from `pos`, written in `notation`.
fn convert(
    tokens: &[String],
    mut pos: xq_core::Position,
    reader: &mut Reader,
    notation: xq_notation::Notation,
) -> Result<Vec<String>, CliError> {
    let mut written = Vec::with_capacity(tokens.len());
    for (i, token) in tokens.iter().enumerate() {
        let m = reader.read(token, &pos).map_err(|err| {
            let detail = match &err {
                xq_notation::NotationError::Syntax(e) => format!("\n{}", e.render()),
                other => format!(": {other}"),
            };
            CliError::Invalid(format!(
                "move {} (ply {}, {} to move) `{token}` cannot be read{detail}\n  position: {}",
                i / 2 + 1,
                i + 1,
                pos.turn(),
                pos.fen()
            ))
        })?;
        written.push(write(&pos, m, notation));
        pos.play_unchecked(m);
    }
    Ok(written)
}
