//! Errors of the command and the exit codes they map to.

use std::{fmt, io};

/// The documented exit codes of `xq`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum ExitStatus {
    /// Everything worked.
    Success = 0,
    /// The input was read and found wrong.
    Invalid = 1,
    /// The command line was wrong.
    Usage = 2,
    /// A file could not be read or written.
    Io = 3,
}

/// A failure that ends the command.
#[derive(Debug)]
pub enum CliError {
    /// The input is wrong (a bad FEN, an illegal move …); the message says what and where.
    Invalid(String),
    /// An option value that cannot be used.
    Usage(String),
    /// Reading or writing failed.
    Io {
        /// What was being done.
        context: String,
        /// The underlying error.
        source: io::Error,
    },
}

impl CliError {
    /// The exit code for this error.
    pub fn status(&self) -> ExitStatus {
        match self {
            CliError::Invalid(_) => ExitStatus::Invalid,
            CliError::Usage(_) => ExitStatus::Usage,
            CliError::Io { .. } => ExitStatus::Io,
        }
    }

    /// Whether this is a write to a closed pipe (`xq … | head`), which is not an error.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, CliError::Io { source, .. } if source.kind() == io::ErrorKind::BrokenPipe)
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Invalid(message) | CliError::Usage(message) => f.write_str(message),
            CliError::Io { context, source } => write!(f, "{context}: {source}"),
        }
    }
}

impl std::error::Error for CliError {}

impl From<io::Error> for CliError {
    fn from(source: io::Error) -> CliError {
        CliError::Io {
            context: "cannot write the output".to_owned(),
            source,
        }
    }
}
