//! `xq banned`: reads the game so far and lists the moves the side to move may not play
//! (built by `xq-report`), as text, JSON or a UCCI `banmoves` line.

use std::io::Write;

use xq_arbiter::BanOptions;
use xq_report::BanReport;

use super::line::{Source, read_line};

use crate::{
    CliError, ExitStatus,
    args::{BannedArgs, BannedFormat},
};

pub(crate) fn run(args: &BannedArgs, out: &mut dyn Write) -> Result<ExitStatus, CliError> {
    // A position with no moves before it (an engine at the start of a game, or given a FEN)
    // repeats nothing: every move is allowed, said as any other answer.
    let line = read_line(&Source {
        moves_needed: false,
        ..Source::of(&args.line)
    })?;
    if let Some(kill) = &line.self_kill {
        return Err(CliError::Invalid(format!(
            "ply {}: {} leaves its own king in check: the game is over, no move follows it",
            kill.ply, kill.m
        )));
    }
    let options = BanOptions {
        judge: super::judge::rule_options(args.rules, args.opening_rounds),
        occurrences: args.occurrences as usize,
    };
    let report = BanReport::new(&line, options);
    let lang = super::judge::lang(args.lang);
    let text = match args.format {
        BannedFormat::Text => report.to_text(lang),
        BannedFormat::Json => report.to_json(lang).map_err(std::io::Error::from)? + "\n",
        BannedFormat::Ucci => report.to_ucci() + "\n",
    };
    super::output::emit(args.output.as_deref(), text.as_bytes(), out)?;
    Ok(ExitStatus::Success)
}
