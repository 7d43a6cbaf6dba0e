//! `xq move`.

use std::io::Write;

use serde::Serialize;
use xq_core::text::visible;
use xq_notation::{ChineseStyle, Mode, Notation, NotationError, Script, write};

use crate::{
    CliError, ExitStatus,
    args::{Format, MoveArgs},
};

#[derive(Serialize)]
#[serde(untagged)]
enum Entry {
    Move {
        token: String,
        iccs: String,
        chinese: String,
        traditional: String,
        wxf: String,
    },
    Error {
        token: String,
        error: ErrorReport,
    },
}

#[derive(Serialize)]
pub(crate) struct ErrorReport {
    pub(crate) kind: &'static str,
    pub(crate) message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) span: Option<[usize; 2]>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) candidates: Vec<String>,
}

impl ErrorReport {
    pub(crate) fn new(err: &NotationError) -> ErrorReport {
        match err {
            NotationError::Syntax(e) => ErrorReport {
                kind: err.kind(),
                message: e.to_string(),
                span: Some([e.span.start, e.span.end]),
                candidates: Vec::new(),
            },
            NotationError::Resolve(e) => ErrorReport {
                kind: err.kind(),
                message: e.to_string(),
                span: None,
                candidates: e.candidates().iter().map(ToString::to_string).collect(),
            },
        }
    }
}

pub(crate) fn run(args: &MoveArgs, out: &mut dyn Write) -> Result<ExitStatus, CliError> {
    let pos = super::parse_fen(args.fen.as_deref().unwrap_or(xq_core::START_FEN), false)?;
    let mode = if args.strict {
        Mode::Strict
    } else {
        Mode::Lenient
    };
    let mut failed = false;
    let entries: Vec<(Entry, Option<NotationError>)> = args
        .tokens
        .iter()
        .map(|token| match xq_notation::read(token, &pos, mode) {
            Ok(m) => (
                Entry::Move {
                    token: token.clone(),
                    iccs: m.to_string(),
                    chinese: write(&pos, m, Notation::Chinese(ChineseStyle::default())),
                    traditional: write(
                        &pos,
                        m,
                        Notation::Chinese(ChineseStyle {
                            script: Script::Traditional,
                            ..ChineseStyle::default()
                        }),
                    ),
                    wxf: write(&pos, m, Notation::Wxf),
                },
                None,
            ),
            Err(err) => {
                failed = true;
                (
                    Entry::Error {
                        token: token.clone(),
                        error: ErrorReport::new(&err),
                    },
                    Some(err),
                )
            }
        })
        .collect();
    match args.format {
        Format::Json => {
            let list: Vec<&Entry> = entries.iter().map(|(e, _)| e).collect();
            serde_json::to_writer(&mut *out, &list).map_err(std::io::Error::from)?;
            writeln!(out)?;
        }
        Format::Text => {
            for (entry, err) in &entries {
                match (entry, err) {
                    (
                        Entry::Move {
                            token,
                            iccs,
                            chinese,
                            traditional,
                            wxf,
                        },
                        _,
                    ) => {
                        writeln!(
                            out,
                            "{}\tucci {iccs}  iccs {}  chinese {chinese}  traditional {traditional}  wxf {wxf}",
                            visible(token),
                            iccs_upper(iccs)
                        )?;
                    }
                    (Entry::Error { token, .. }, Some(NotationError::Syntax(e))) => {
                        writeln!(out, "{}\terror (syntax):", visible(token))?;
                        for line in e.render().lines() {
                            writeln!(out, "    {}", visible(line))?;
                        }
                    }
                    (Entry::Error { token, error }, _) => {
                        writeln!(
                            out,
                            "{}\terror ({}): {}",
                            visible(token),
                            error.kind,
                            visible(&error.message)
                        )?;
                    }
                }
            }
        }
    }
    Ok(if failed {
        ExitStatus::Invalid
    } else {
        ExitStatus::Success
    })
}

fn iccs_upper(ucci: &str) -> String {
    ucci.parse::<xq_core::Move>()
        .map_or_else(|_| ucci.to_owned(), |m| m.to_iccs())
}
