//! The `xq` command-line tool: argument parsing (clap derive), one module per subcommand, and the
//! text/JSON output. The binary is the workspace's root package; this crate's API is not stable.
//!
//! # Exit codes
//! | code | meaning |
//! |---|---|
//! | 0 | success |
//! | 1 | the input was read and found wrong (invalid FEN, illegal move, a game that fails validation) |
//! | 2 | usage error: unknown command or option, bad option value |
//! | 3 | input/output error: a file that cannot be read or written |

#![warn(missing_docs)]

mod args;
mod commands;
mod error;

use std::{
    io::{BufWriter, IsTerminal, Write},
    process::ExitCode,
};

use clap::Parser;

pub use crate::error::{CliError, ExitStatus};

/// The buffer between the commands and a standard output that is no terminal.
const OUT_BUFFER: usize = 1 << 16;

/// Runs `xq` with the process arguments, printing to stdout/stderr.
pub fn main() -> ExitCode {
    let args = match args::Cli::try_parse() {
        Ok(args) => args,
        Err(mut err) => {
            args::add_tips(&mut err);
            let _ = err.print();
            return ExitCode::from(if err.use_stderr() {
                ExitStatus::Usage as u8
            } else {
                0
            });
        }
    };
    let stdout = std::io::stdout();
    // A terminal sees each line as it is made; a pipe or file gets large writes (standard output
    // is otherwise flushed at every line end: a report of 10,000 lines made 10,000 writes).
    let mut out: Box<dyn Write> = if stdout.is_terminal() {
        Box::new(stdout.lock())
    } else {
        Box::new(BufWriter::with_capacity(OUT_BUFFER, stdout.lock()))
    };
    // What is buffered is written before any message, and a failure to write it is one.
    let result = commands::run(args, &mut *out)
        .and_then(|status| out.flush().map(|()| status).map_err(CliError::from));
    let status = match result {
        Ok(status) => status,
        Err(err) => {
            let _ = out.flush();
            if err.is_broken_pipe() {
                return ExitCode::SUCCESS;
            }
            let mut stderr = std::io::stderr().lock();
            // Messages quote the input (FENs, tokens, file names): shown, never acted on.
            let _ = writeln!(
                stderr,
                "xq: {}",
                xq_core::text::visible_lines(&err.to_string())
            );
            err.status()
        }
    };
    ExitCode::from(status as u8)
}
