//! `xq limit`: the 60-round audit (自然限着) an arbiter does by hand; the audit and its
//! renderings are `xq-report`'s.

use std::io::Write;

use xq_arbiter::limit::{CapApplies, LimitOptions};
use xq_core::Color;
use xq_report::LimitAudit;

use super::line::{Source, read_line};
use crate::{
    CliError, ExitStatus,
    args::{AuditFormat, Lang, LimitArgs, SideArg},
};

pub(crate) fn run(args: &LimitArgs, out: &mut dyn Write) -> Result<ExitStatus, CliError> {
    let line = read_line(&Source::of(&args.line))?;
    let options = LimitOptions {
        rounds: args.rounds,
        check_cap: args.check_cap,
        cap_applies: if args.cap_both {
            CapApplies::Both
        } else {
            CapApplies::Claimant
        },
    };
    let claimants = match args.claimant {
        Some(SideArg::Red) => vec![Color::Red],
        Some(SideArg::Black) => vec![Color::Black],
        None => vec![Color::Red, Color::Black],
    };
    let mut audit = LimitAudit::new(&line, options, &claimants);
    if let Some(n) = args.notation {
        audit = audit.with_notation(&line, n.notation(xq_notation::ChineseStyle::default()));
    }
    let lang = match args.lang {
        Lang::Zh => xq_arbiter::Lang::Chinese,
        Lang::En => xq_arbiter::Lang::English,
    };
    let text = match args.format {
        AuditFormat::Json => {
            // Streamed in large pieces: a long move list is not held twice in memory.
            audit
                .write_json(lang, &mut *out)
                .map_err(std::io::Error::from)?;
            out.write_all(b"\n")?;
            return Ok(ExitStatus::Success);
        }
        AuditFormat::Csv => audit
            .to_csv()
            .map_err(|e| CliError::from(std::io::Error::other(e)))?,
        AuditFormat::Text => audit.to_text(lang),
    };
    out.write_all(text.as_bytes())?;
    Ok(ExitStatus::Success)
}
