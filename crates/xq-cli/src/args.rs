//! The command line, as clap derive types.

use clap::{Args, Parser, Subcommand, ValueEnum};

/// Xiangqi (Chinese chess) toolkit: move generation, notation, game records and the
/// CXA 2020 repetition rules.
#[derive(Debug, Parser)]
#[command(name = "xq", version, about, long_about = None, rename_all = "kebab-case")]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Count the leaves of the legal move tree (tests the move generator).
    Perft(PerftArgs),
    /// Validate and normalise a FEN, and draw the board.
    Fen(FenArgs),
}

/// How to print a result.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum Format {
    /// For people.
    Text,
    /// One JSON value, for tools.
    Json,
}

#[derive(Debug, Args)]
pub(crate) struct PerftArgs {
    /// The position (default: the starting position).
    #[arg(long)]
    pub(crate) fen: Option<String>,
    /// How many plies deep to count.
    #[arg(long)]
    pub(crate) depth: u32,
    /// Also show the count below each legal move.
    #[arg(long)]
    pub(crate) divide: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub(crate) format: Format,
}

#[derive(Debug, Args)]
pub(crate) struct FenArgs {
    /// The FEN (quote it: it contains spaces and slashes).
    pub(crate) fen: String,
    /// Accept positions that are only implausible (too many pieces of a kind, pieces on points
    /// they can never reach), as composed problems have.
    #[arg(long)]
    pub(crate) lenient: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub(crate) format: Format,
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn clap_definition_is_consistent() {
        super::Cli::command().debug_assert();
    }
}
