//! One module per subcommand.

mod convert;
mod fen;
mod inputs;
mod judge;
mod limit;
mod line;
mod located;
mod moves;
mod notation;
mod output;
mod perft;
mod render;
mod show;
mod validate;

use std::io::Write;

use crate::{
    CliError, ExitStatus,
    args::{Cli, Command},
};

/// Runs a parsed command line, writing the result to `out`.
pub(crate) fn run(cli: Cli, out: &mut dyn Write) -> Result<ExitStatus, CliError> {
    match cli.command {
        Command::Perft(args) => perft::run(&args, out),
        Command::Fen(args) => fen::run(&args, out),
        Command::Move(args) => moves::run(&args, out),
        Command::Notation(args) => notation::run(&args, out),
        Command::Judge(args) => judge::run(&args, out),
        Command::Limit(args) => limit::run(&args, out),
        Command::Render(args) => render::run(&args, out),
        Command::Validate(args) => validate::run(&args, out),
        Command::Convert(args) => convert::run(&args, out),
        Command::Show(args) => show::run(&args, out),
    }
}

/// Reads a FEN given on the command line, with every problem in the message.
pub(crate) fn parse_fen(text: &str, lenient: bool) -> Result<xq_core::Position, CliError> {
    let result = if lenient {
        xq_core::Position::from_fen_lenient(text)
    } else {
        xq_core::Position::from_fen(text)
    };
    result.map_err(|err| CliError::Invalid(describe_fen_error(text, &err)))
}

/// A FEN error for people: the FEN, each syntax problem with a caret under its place, then each
/// rule the position breaks.
pub(crate) fn describe_fen_error(text: &str, err: &xq_core::FenError) -> String {
    let mut message = String::from("invalid FEN\n");
    for problem in &err.syntax {
        let snippet = xq_core::caret::Snippet::new(text, problem.span.clone());
        message.push_str(&indent(&snippet.render(&problem.to_string()), "  "));
        message.push('\n');
    }
    for problem in &err.position {
        message.push_str(&format!("  - {problem}\n"));
    }
    if err.is_only_implausible() {
        message.push_str("  (only implausible problems: --lenient accepts this position)\n");
    }
    message.truncate(message.trim_end().len());
    message
}

/// `text` with `margin` before each line.
pub(crate) fn indent(text: &str, margin: &str) -> String {
    text.lines()
        .map(|line| format!("{margin}{line}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Move numbers (`1.`, `12...`) and results, skipped in move lists read from text.
pub(crate) fn is_filler(token: &str) -> bool {
    matches!(token, "1-0" | "0-1" | "1/2-1/2" | "*")
        || (token.ends_with('.')
            && token
                .trim_end_matches('.')
                .bytes()
                .all(|b| b.is_ascii_digit()))
}
