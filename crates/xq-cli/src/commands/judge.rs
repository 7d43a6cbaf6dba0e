//! `xq judge`: reads the line, judges it, and writes the report (built by `xq-report`) in the
//! format asked for.

use std::io::Write;

use xq_arbiter::{
    JudgeOptions, Lang, Profile,
    limit::{CapApplies, LimitOptions},
};
use xq_report::{Report, Scan};

use super::line::{Source, read_line};

use crate::{
    CliError, ExitStatus,
    args::{JudgeArgs, JudgeFormat, Lang as LangArg, Rules},
};

pub(crate) fn run(args: &JudgeArgs, out: &mut dyn Write) -> Result<ExitStatus, CliError> {
    let line = read_line(&Source::of(&args.line))?;
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
        ..rule_options(args.rules, args.opening_rounds)
    };
    let lang = lang(args.lang);
    let notation = args
        .notation
        .map(|n| n.notation(xq_notation::ChineseStyle::default()));
    let json = |text: serde_json::Result<String>| -> Result<String, CliError> {
        Ok(text.map_err(std::io::Error::from)? + "\n")
    };
    let text = if args.scan {
        let mut scan = Scan::new(&line, options).stamped(xq_report::now());
        if let Some(n) = notation {
            scan = scan.with_notation(n);
        }
        match args.format {
            JudgeFormat::Json => json(scan.to_json(lang))?,
            JudgeFormat::Text => scan.to_text(lang),
            JudgeFormat::Html => scan.to_html(lang),
        }
    } else {
        let mut report = Report::judge(&line, options).stamped(xq_report::now());
        if let Some(n) = notation {
            report = report.with_notation(n);
        }
        match args.format {
            JudgeFormat::Json => json(report.to_json(lang))?,
            JudgeFormat::Text => report.to_text(lang),
            JudgeFormat::Html => report.to_html(lang),
        }
    };
    if args.format == JudgeFormat::Html {
        // The page inlines a font of the glyphs xq embeds; say which characters it lacks.
        let missing = xq_render::text_font(&text).missing;
        if !missing.is_empty() {
            let chars: String = missing.iter().map(|c| format!(" {c}")).collect();
            eprintln!(
                "xq: note: the page's embedded font lacks{chars}: they show only if the reader's fonts have them"
            );
        }
    }
    super::output::emit(args.output.as_deref(), text.as_bytes(), out)?;
    Ok(ExitStatus::Success)
}

/// The judging options a rule set asks for, with the first-rounds rule as given.
pub(super) fn rule_options(rules: Rules, opening_rounds: Option<u32>) -> JudgeOptions {
    JudgeOptions {
        profile: match rules {
            Rules::Cxa2020 => Profile::CXA2020,
            Rules::Axf => Profile::AXF,
        },
        // The first-rounds rule is Chinese tournament procedure: on by default only there.
        opening_rounds: opening_rounds.unwrap_or(match rules {
            Rules::Cxa2020 => 25,
            Rules::Axf => 0,
        }),
        ..JudgeOptions::default()
    }
}

/// The language asked for.
pub(super) fn lang(arg: LangArg) -> Lang {
    match arg {
        LangArg::Zh => Lang::Chinese,
        LangArg::En => Lang::English,
    }
}
