//! One module per subcommand.

mod banned;
mod convert;
mod dataset;
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
mod pipeline;
mod render;
mod show;
mod stdin;
mod validate;

use std::io::Write;

use crate::{
    CliError, ExitStatus,
    args::{Cli, Command},
};

/// Runs a parsed command line, writing the result to `out`.
pub(crate) fn run(mut cli: Cli, out: &mut dyn Write) -> Result<ExitStatus, CliError> {
    // `-` among the inputs: standard input, kept in a file while the command runs.
    let _stdin = stdin::spool(&mut cli)?;
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
        Command::Dataset(args) => dataset::run(&args, out),
        Command::Show(args) => show::run(&args, out),
        Command::Banned(args) => banned::run(&args, out),
        Command::Completions { shell } => {
            // Into memory first: the generator panics on a write error (a closed pipe), and
            // `out` reports one as an error instead.
            let mut script = Vec::new();
            let mut cli = <Cli as clap::CommandFactory>::command();
            clap_complete::generate(shell, &mut cli, "xq", &mut script);
            out.write_all(&script)?;
            Ok(ExitStatus::Success)
        }
        Command::Man => {
            clap_mangen::Man::new(<Cli as clap::CommandFactory>::command()).render(out)?;
            Ok(ExitStatus::Success)
        }
    }
}

/// The threads of a command that works on many files: `jobs` of them (`-j`), or one per core.
pub(crate) fn thread_pool(jobs: Option<usize>) -> Result<rayon::ThreadPool, CliError> {
    let threads = xq_notation::ReaderPool::workers(jobs);
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| CliError::Usage(format!("cannot start {threads} threads: {e}")))
}

/// Reads a FEN given on the command line, with every problem in the message.
pub(crate) fn parse_fen(text: &str, lenient: bool) -> Result<xq_core::Position, CliError> {
    let result = if lenient {
        xq_core::Position::from_fen_lenient(text)
    } else {
        xq_core::Position::from_fen(text)
    };
    result.map_err(|err| {
        // A file's name where the FEN goes (`xq fen start.fen`): said as that, not as the
        // name's characters failing to be pieces.
        if std::path::Path::new(text).is_file() {
            return CliError::Invalid(format!(
                "invalid FEN: `{}` names a file; give the FEN itself, in quotes",
                xq_core::text::visible(text)
            ));
        }
        CliError::Invalid(describe_fen_error(text, &err))
    })
}

/// A FEN error for people: the FEN, each syntax problem with a caret under its place, then each
/// rule the position breaks. At most [`xq_core::fen::REPORTED`] problems are shown (then how many
/// more), a long FEN is shown as a window around each problem, and control characters in it are
/// shown escaped (see `xq_core::text`).
pub(crate) fn describe_fen_error(text: &str, err: &xq_core::FenError) -> String {
    use xq_core::fen::REPORTED;
    // A FEN up to SHORT characters is shown whole; a longer one as CONTEXT characters either side.
    const SHORT: usize = 120;
    let long = text.chars().count() > SHORT;
    let context = if long { 40 } else { SHORT };
    let mut message = String::from("invalid FEN\n");
    for problem in err.syntax.iter().take(REPORTED) {
        let start = problem.span.start.min(text.len());
        let start = (0..=start)
            .rev()
            .find(|&i| text.is_char_boundary(i))
            .unwrap_or(0);
        let before: Vec<(usize, char)> = text[..start].char_indices().collect();
        let from = before.len().saturating_sub(context);
        let from_byte = before.get(from).map_or(start, |&(i, _)| i);
        let to_byte = text[start..]
            .char_indices()
            .nth(context)
            .map_or(text.len(), |(i, _)| start + i);
        let (prefix, suffix) = (
            if from_byte > 0 { "…" } else { "" },
            if to_byte < text.len() { "…" } else { "" },
        );
        let window = format!("{prefix}{}{suffix}", &text[from_byte..to_byte]);
        let end = problem.span.end.clamp(start, to_byte);
        let shift = |i: usize| i - from_byte + prefix.len();
        let said = xq_core::fen::cut(&problem.to_string(), xq_core::fen::REPORTED_LEN);
        let snippet = xq_core::caret::Snippet::new(&window, shift(start)..shift(end));
        message.push_str(&indent(&snippet.render(&said), "  "));
        message.push('\n');
    }
    let shown_syntax = err.syntax.len().min(REPORTED);
    for problem in err.position.iter().take(REPORTED - shown_syntax) {
        message.push_str(&format!("  - {problem}\n"));
    }
    let all = err.syntax.len() + err.position.len();
    if all > REPORTED {
        message.push_str(&format!("  … and {} more problems\n", all - REPORTED));
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

/// What the tests of several commands make alike.
#[cfg(test)]
mod testing {
    /// A FIFO at `path`.
    #[cfg(all(unix, not(target_vendor = "apple")))]
    pub(crate) fn make_fifo(path: &std::path::Path) {
        rustix::fs::mkfifoat(
            rustix::fs::CWD,
            path,
            rustix::fs::Mode::from_raw_mode(0o600),
        )
        .unwrap();
    }
}
