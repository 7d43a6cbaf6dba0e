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
    /// Read move tokens (Chinese, WXF, ICCS/UCCI) in a position and show each in every notation.
    Move(MoveArgs),
    /// Convert a move list, played from a position, to another notation.
    Notation(NotationArgs),
    /// Judge a repetition: every move's nature (将 杀 捉 兑 献 拦 跟 闲) with the reason, the
    /// ruling with its clause, and the 60-round count.
    Judge(JudgeArgs),
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

#[derive(Debug, Args)]
pub(crate) struct MoveArgs {
    /// The position the moves are read in (default: the starting position).
    #[arg(long)]
    pub(crate) fen: Option<String>,
    /// Accept only standard notation (see docs/notation.md); otherwise every form real archives
    /// use is read.
    #[arg(long)]
    pub(crate) strict: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub(crate) format: Format,
    /// The moves, each read in the same position: 炮二平五, 马8进7, C2.5, h2e2, H2-E2 …
    #[arg(required = true)]
    pub(crate) tokens: Vec<String>,
}

/// A notation to write.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum Target {
    /// Chinese, simplified characters: 炮二平五 马８进７.
    Chinese,
    /// Chinese, traditional characters: 炮二平五 馬８進７.
    Traditional,
    /// WXF: C2.5 H8+7.
    Wxf,
    /// ICCS: H2-E2.
    Iccs,
    /// UCCI: h2e2.
    Ucci,
}

/// How several pawns of one kind on a file are named in Chinese.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum TandemArg {
    /// xqbase's computer standard: 一…五 across files (二兵平四).
    Xqbase,
    /// The traditional habit: 前二三四后, and 前兵九平八 naming the file.
    Traditional,
}

#[derive(Debug, Args)]
pub(crate) struct NotationArgs {
    /// The starting position (default: the standard one).
    #[arg(long)]
    pub(crate) fen: Option<String>,
    /// The notation to write.
    #[arg(long, value_enum)]
    pub(crate) to: Target,
    /// How to name several pawns on a file in Chinese.
    #[arg(long, value_enum, default_value_t = TandemArg::Xqbase)]
    pub(crate) tandem: TandemArg,
    /// Write Black's Chinese numbers as ASCII digits (8) instead of full-width (８).
    #[arg(long)]
    pub(crate) ascii_digits: bool,
    /// Accept only standard notation in the input.
    #[arg(long)]
    pub(crate) strict: bool,
    /// The moves, in any notation, mixed if need be; read from standard input when none are
    /// given (move numbers such as `1.` and a result such as `1-0` are skipped there).
    pub(crate) moves: Vec<String>,
}

/// A rule set.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum Rules {
    /// The Chinese Xiangqi Association's 2020 rules (棋例).
    Cxa2020,
}

/// A language for explanations.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum Lang {
    /// 中文.
    Zh,
    /// English.
    En,
}

#[derive(Debug, Args)]
pub(crate) struct JudgeArgs {
    /// The rule set.
    #[arg(long, value_enum, default_value_t = Rules::Cxa2020)]
    pub(crate) rules: Rules,
    /// The starting position (default: the standard one).
    #[arg(long)]
    pub(crate) fen: Option<String>,
    /// The moves, in any notation (mixed is fine), separated by spaces.
    #[arg(long)]
    pub(crate) moves: Option<String>,
    /// A game file (its main line is judged) or a move list (an optional FEN line, then moves).
    pub(crate) file: Option<std::path::PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub(crate) format: Format,
    /// Language of the explanations.
    #[arg(long, value_enum, default_value_t = Lang::Zh)]
    pub(crate) lang: Lang,
    /// The natural limit in rounds without a capture (events may lower it).
    #[arg(long, default_value_t = 60)]
    pub(crate) limit_rounds: u32,
    /// How many of the claimant's checks count towards the natural limit.
    #[arg(long, default_value_t = 10)]
    pub(crate) check_cap: u32,
    /// Cap both sides' checks, not only the claimant's.
    #[arg(long)]
    pub(crate) cap_both: bool,
}
