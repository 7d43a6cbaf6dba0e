//! `xq fen`.

use std::io::Write;

use serde::Serialize;
use xq_core::diagram::text_diagram;

use crate::{
    CliError, ExitStatus,
    args::{FenArgs, Format},
};

#[derive(Serialize)]
struct FenReport {
    fen: String,
    turn: &'static str,
    check: bool,
    legal_moves: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    outcome: Option<String>,
}

pub(crate) fn run(args: &FenArgs, out: &mut dyn Write) -> Result<ExitStatus, CliError> {
    let pos = super::parse_fen(&args.fen, args.lenient)?;
    let outcome = pos.outcome().map(|o| {
        let how = match o.reason {
            xq_core::EndReason::Checkmate => "checkmate (将死)",
            xq_core::EndReason::Stalemate => "stalemate (困毙)",
        };
        format!("{} wins by {how}", o.winner)
    });
    let report = FenReport {
        fen: pos.fen(),
        turn: pos.turn().name(),
        check: pos.is_check(),
        legal_moves: pos.count_legal_moves(),
        outcome,
    };
    match args.format {
        Format::Json => {
            serde_json::to_writer(&mut *out, &report).map_err(std::io::Error::from)?;
            writeln!(out)?;
        }
        Format::Text => {
            writeln!(out, "{}", report.fen)?;
            writeln!(out)?;
            write!(out, "{}", text_diagram(pos.board(), Some(pos.turn())))?;
            let mut facts = vec![format!("{} legal moves", report.legal_moves)];
            if report.check {
                facts.insert(0, "in check (将军)".to_owned());
            }
            if let Some(outcome) = &report.outcome {
                facts.push(outcome.clone());
            }
            writeln!(out, "{}", facts.join("; "))?;
        }
    }
    Ok(ExitStatus::Success)
}
