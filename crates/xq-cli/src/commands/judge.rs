//! `xq judge`: reads the line, judges it, and writes the report (built by `xq-report`) in the
//! format asked for.

use std::io::Write;

use xq_arbiter::{
    JudgeOptions, Lang, Profile,
    limit::{CapApplies, LimitOptions},
};
use xq_report::Report;

use super::line::{Source, read_line};

use crate::{
    CliError, ExitStatus,
    args::{JudgeArgs, JudgeFormat, Lang as LangArg, Rules},
};

pub(crate) fn run(args: &JudgeArgs, out: &mut dyn Write) -> Result<ExitStatus, CliError> {
    let line = read_line(&Source {
        file: args.file.as_ref(),
        game: args.game,
        fen: args.fen.as_deref(),
        moves: args.moves.as_deref(),
        input: &args.input,
    })?;
    let options = JudgeOptions {
        limit: LimitOptions {
            rounds: args.limit_rounds,
            check_cap: args.check_cap,
            cap_applies: if args.cap_both {
                CapApplies::Both
            } else {
                CapApplies::Claimant
            },
        },
        profile: match args.rules {
            Rules::Cxa2020 => Profile::CXA2020,
            Rules::Axf => Profile::AXF,
        },
        // The first-rounds rule is Chinese tournament procedure: on by default only there.
        opening_rounds: args.opening_rounds.unwrap_or(match args.rules {
            Rules::Cxa2020 => 25,
            Rules::Axf => 0,
        }),
        ..JudgeOptions::default()
    };
    let report = Report::judge(&line, options);
    let lang = match args.lang {
        LangArg::Zh => Lang::Chinese,
        LangArg::En => Lang::English,
    };
    let text = match args.format {
        JudgeFormat::Json => report.to_json(lang).map_err(std::io::Error::from)? + "\n",
        JudgeFormat::Text => report.to_text(lang),
        JudgeFormat::Html => report.to_html(lang),
    };
    super::output::emit(args.output.as_deref(), text.as_bytes(), out)?;
    Ok(ExitStatus::Success)
}
