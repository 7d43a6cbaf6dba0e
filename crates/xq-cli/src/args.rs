//! The command line, as clap derive types.

use clap::{Args, Parser, Subcommand, ValueEnum};

/// The help's command list, grouped by who uses what (every command must appear here: a test
/// checks it).
const HELP: &str = "\
{about-with-newline}
Repetition rulings under the CXA 2020 rules (棋例) or the Asian rules, game records in every
common format and encoding, every move notation.

{usage-heading} {usage}

For arbiters:
  judge        Judge a repetition: each move's nature with the reason, the ruling and its clause
  limit        The 60-round audit (自然限着), ply by ply, with the check cap
  banned       The moves the side to move may not play (a forbidden repetition); UCCI banmoves
  render       Draw a position as SVG (a FEN, moves, or a record at a ply)

For archivists:
  validate     Replay every game of files and directories; report every bad move with its place
  show         Show a game: tags, moves, comments and variations in any notation
  convert      Convert records between formats and notations, saying what a format cannot hold
  dataset      Write the positions or games table as Parquet or JSON-lines parts with a manifest

For tool authors:
  move         Read move tokens in a position and show each in every notation
  notation     Convert a move list to another notation
  fen          Validate and normalise a FEN, and draw the board
  perft        Count the legal move tree (tests the move generator)

Shell:
  completions  Print shell completions (bash, zsh, fish, elvish, powershell)
  man          Print the man page (roff)
  help         Print this message or the help of a command

Options:
{options}

`xq COMMAND --help` tells more; docs/cli.md in the project has every option and format.
";

/// The command line.
#[derive(Debug, Parser)]
#[command(
    name = "xq",
    version,
    about = "xq: Xiangqi (Chinese chess) for arbiters, archivists and tool authors",
    long_about = None,
    rename_all = "kebab-case",
    help_template = HELP
)]
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
    /// Validate game records: replay every line of every game, report the first bad move of
    /// each line with the position before it, check results and start positions.
    Validate(ValidateArgs),
    /// Convert game records between formats and notations, keeping comments and variations
    /// where the target can hold them (and saying what it dropped where it cannot).
    Convert(ConvertArgs),
    /// Write the positions table (one row per ply, for machine learning) or the games table of
    /// records as a dataset: Parquet or JSON-lines part files and a `_manifest.json`.
    Dataset(DatasetArgs),
    /// Show a game: its tags, then its moves in a notation with comments and variations.
    Show(ShowArgs),
    /// Draw a board as SVG: both sides' file numbers, the river, the pieces by name, the last
    /// move and arrows; no font needed.
    Render(RenderArgs),
    /// The 60-round audit (自然限着): ply by ply, the captures that restart the count, the
    /// claimant's checks counted up to the cap, and from which move a draw may be claimed.
    Limit(LimitArgs),
    /// The forbidden moves of the side to move (UCCI `banmoves`): each legal move that would
    /// continue a repetition the rules make that side change, with the ruling; drawn
    /// repetitions listed apart.
    Banned(BannedArgs),
    /// Print shell completions for xq: `xq completions bash > /etc/bash_completion.d/xq`.
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff): `xq man > xq.1`.
    Man,
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
    /// How many plies deep to count (at most 32: depth 10 already takes hours, and each ply is a
    /// level of recursion).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=32))]
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

    /// `xq show --notation` takes every notation the other commands take.
    #[test]
    fn show_takes_every_notation() {
        use clap::ValueEnum;
        for n in super::NotationArg::value_variants() {
            assert!(
                super::ShowNotation::value_variants().contains(&super::ShowNotation::Moves(*n)),
                "{n:?}"
            );
        }
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

/// A notation to write moves in: the same names in every command that writes moves (`notation
/// --to`, `convert`, `show`, `judge`, `limit`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum NotationArg {
    /// Chinese, simplified characters: 炮二平五 马８进７.
    Chinese,
    /// Chinese, traditional characters: 炮二平五 馬８進７.
    Traditional,
    /// WXF: C2.5 H8+7.
    Wxf,
    /// ICCS: H2-E2 (ranks 0–9).
    Iccs,
    /// UCCI: h2e2 (ICCS in lower case, as engines take it).
    Ucci,
    /// UCI of Fairy-Stockfish and pychess, ranks 1–10: h3e3.
    Uci,
    /// SAN of Fairy-Stockfish and pychess, ranks 1–10: Che3 Hg3.
    San,
}

impl NotationArg {
    /// The notation, Chinese written in `style` (its script set by the name).
    pub(crate) fn notation(self, style: xq_notation::ChineseStyle) -> xq_notation::Notation {
        use xq_notation::{ChineseStyle, Notation, Script};
        match self {
            NotationArg::Chinese => Notation::Chinese(ChineseStyle {
                script: Script::Simplified,
                ..style
            }),
            NotationArg::Traditional => Notation::Chinese(ChineseStyle {
                script: Script::Traditional,
                ..style
            }),
            NotationArg::Wxf => Notation::Wxf,
            NotationArg::Iccs => Notation::Iccs,
            NotationArg::Ucci => Notation::Ucci,
            NotationArg::Uci => Notation::Uci,
            NotationArg::San => Notation::San,
        }
    }
}

/// Adds to a usage error a tip clap cannot give: a notation's name given as `--to` (a format),
/// as in `convert --to wxf`, is pointed at `--notation`.
pub(crate) fn add_tips(err: &mut clap::Error) {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if err.kind() != ErrorKind::InvalidValue {
        return;
    }
    let arg = err.get(ContextKind::InvalidArg);
    let value = err.get(ContextKind::InvalidValue);
    let (Some(ContextValue::String(arg)), Some(ContextValue::String(value))) = (arg, value) else {
        return;
    };
    if !arg.starts_with("--to ") || NotationArg::from_str(value, true).is_err() {
        return;
    }
    let tip =
        format!("`{value}` is a notation: give it with --notation {value}, and a format with --to");
    err.insert(
        ContextKind::Suggested,
        ContextValue::StyledStrs(vec![tip.into()]),
    );
}

/// How several pawns of one kind on a file are named in Chinese.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum TandemArg {
    /// xqbase's computer standard: 一…五 across files (二兵平四).
    Xqbase,
    /// The traditional habit: 前二三四后, and 前兵九平八 naming the file.
    Traditional,
}

/// Which ranks the coordinate moves of a list count.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum CoordinatesArg {
    /// Told from the list: UCI when a move names rank 10, ICCS when one names rank 0, else ICCS
    /// unless only UCI replays it.
    Auto,
    /// ICCS's ranks 0–9 (h2e2).
    Iccs,
    /// UCI's ranks 1–10 (h3e3), as `--to uci` writes them.
    Uci,
}

#[derive(Debug, Args)]
pub(crate) struct NotationArgs {
    /// The starting position (default: the standard one).
    #[arg(long)]
    pub(crate) fen: Option<String>,
    /// The notation to write.
    #[arg(long, value_enum)]
    pub(crate) to: NotationArg,
    /// How to name several pawns on a file in Chinese.
    #[arg(long, value_enum, default_value_t = TandemArg::Xqbase)]
    pub(crate) tandem: TandemArg,
    /// Write Black's Chinese numbers as ASCII digits (8) instead of full-width (８).
    #[arg(long)]
    pub(crate) ascii_digits: bool,
    /// Accept only standard notation in the input.
    #[arg(long)]
    pub(crate) strict: bool,
    /// Which ranks coordinate moves in the input count (UCI moves that name no rank 10 read as
    /// ICCS moves too, as other moves: `--coordinates uci` reads back what `--to uci` wrote).
    #[arg(long, value_enum, default_value_t = CoordinatesArg::Auto)]
    pub(crate) coordinates: CoordinatesArg,
    /// The moves, in any notation, mixed if need be; read from standard input when none are
    /// given (move numbers such as `1.` and a result such as `1-0` are skipped there).
    pub(crate) moves: Vec<String>,
}

/// A rule set.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum Rules {
    /// The Chinese Xiangqi Association's 2020 rules (棋例).
    Cxa2020,
    /// The Asian Xiangqi Federation's rules (also the World federation's, and engines').
    Axf,
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
    /// Output format.
    #[arg(long, value_enum, default_value_t = JudgeFormat::Text)]
    pub(crate) format: JudgeFormat,
    /// Write the report to this file (atomically) instead of standard output.
    #[arg(long, short = 'o')]
    pub(crate) output: Option<std::path::PathBuf>,
    /// Language of the explanations.
    #[arg(long, value_enum, default_value_t = Lang::Zh)]
    pub(crate) lang: Lang,
    /// The natural limit in rounds without a capture (events may lower it); `--rounds` as in
    /// `xq limit`.
    #[arg(long, visible_alias = "rounds", default_value_t = 60, value_parser = clap::value_parser!(u32).range(1..))]
    pub(crate) limit_rounds: u32,
    /// How many of the claimant's checks count towards the natural limit.
    #[arg(long, default_value_t = 10)]
    pub(crate) check_cap: u32,
    /// Cap both sides' checks, not only the claimant's.
    #[arg(long)]
    pub(crate) cap_both: bool,
    /// The first-rounds rule: a drawn repetition within rounds 1 to N, after three cycles, makes
    /// Red change (0: off). Default: 25 under cxa2020, off under axf.
    #[arg(long)]
    pub(crate) opening_rounds: Option<u32>,
    /// The notation of the moves in the report (WXF for international arbiters); without it,
    /// Chinese (`--lang zh`) or WXF with the Chinese in brackets (`--lang en`). It wins over
    /// `--lang`'s choice: the Chinese follows in brackets after any other notation.
    #[arg(long, value_enum)]
    pub(crate) notation: Option<NotationArg>,
    /// Find every repetition in the line and rule each where it ends (text: one report after
    /// another; JSON: an array; HTML: one page).
    #[arg(long, conflicts_with = "ply")]
    pub(crate) scan: bool,
    #[command(flatten)]
    pub(crate) line: LineArgs,
}

#[derive(Debug, Args)]
pub(crate) struct BannedArgs {
    /// The rule set.
    #[arg(long, value_enum, default_value_t = Rules::Cxa2020)]
    pub(crate) rules: Rules,
    /// Output format.
    #[arg(long, value_enum, default_value_t = BannedFormat::Text)]
    pub(crate) format: BannedFormat,
    /// Write the answer to this file (atomically) instead of standard output.
    #[arg(long, short = 'o')]
    pub(crate) output: Option<std::path::PathBuf>,
    /// Language of the explanations.
    #[arg(long, value_enum, default_value_t = Lang::Zh)]
    pub(crate) lang: Lang,
    /// From which occurrence of a position a move is judged: 2 judges its first return; 3 lets
    /// a position come back once before anything is banned.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(2..=100))]
    pub(crate) occurrences: u32,
    /// The first-rounds rule: a drawn repetition within rounds 1 to N, after three cycles, makes
    /// Red change (0: off). Default: 25 under cxa2020, off under axf.
    #[arg(long)]
    pub(crate) opening_rounds: Option<u32>,
    #[command(flatten)]
    pub(crate) line: LineArgs,
}

/// How `xq banned` prints.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum BannedFormat {
    /// For people: each listed move with both sides' patterns, the clause and why.
    Text,
    /// One JSON value, for tools and servers.
    Json,
    /// One UCCI command line, `banmoves m1 m2 …`, for an engine.
    Ucci,
}

/// A side.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum SideArg {
    /// 红方.
    Red,
    /// 黑方.
    Black,
}

/// How `xq limit` prints.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum AuditFormat {
    /// A table for people.
    Text,
    /// One JSON value.
    Json,
    /// One row per ply (and claimant).
    Csv,
}

#[derive(Debug, Args)]
pub(crate) struct LimitArgs {
    /// The side claiming the draw (default: both, one audit each).
    #[arg(long, value_enum)]
    pub(crate) claimant: Option<SideArg>,
    /// The limit in rounds without a capture (events may lower it), at least 1.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u32).range(1..))]
    pub(crate) rounds: u32,
    /// How many of the claimant's checks count.
    #[arg(long, default_value_t = 10)]
    pub(crate) check_cap: u32,
    /// Cap both sides' checks, not only the claimant's.
    #[arg(long)]
    pub(crate) cap_both: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = AuditFormat::Text)]
    pub(crate) format: AuditFormat,
    /// Language of the text.
    #[arg(long, value_enum, default_value_t = Lang::Zh)]
    pub(crate) lang: Lang,
    /// The notation of the moves besides Chinese and ICCS (text: shown first; JSON: each row's
    /// `written`; CSV: a last column `written`).
    #[arg(long, value_enum)]
    pub(crate) notation: Option<NotationArg>,
    #[command(flatten)]
    pub(crate) line: LineArgs,
}

/// How `xq judge` prints.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum JudgeFormat {
    /// For people, in a terminal.
    Text,
    /// One JSON value, for tools.
    Json,
    /// One self-contained HTML page with a board per move, for arbiters (phone and print).
    Html,
}

#[derive(Debug, Args)]
pub(crate) struct RenderArgs {
    /// The position: a record's (`FILE`, after `--ply N` of its main line), or a FEN, then
    /// `--moves`; the last move is marked.
    #[command(flatten)]
    pub(crate) line: LineArgs,
    /// Black's side at the bottom.
    #[arg(long)]
    pub(crate) flip: bool,
    /// An arrow from one point to another, in ICCS (`h2e2`); repeat for more.
    #[arg(long = "arrow")]
    pub(crate) arrows: Vec<String>,
    /// The side of a square in pixels.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u32).range(20..=400))]
    pub(crate) cell: u32,
    /// Write the SVG to this file (atomically) instead of standard output.
    #[arg(long, short = 'o')]
    pub(crate) output: Option<std::path::PathBuf>,
}

/// A text encoding of records.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum EncodingArg {
    /// UTF-8 (with or without a byte-order mark).
    #[value(name = "utf-8", alias = "utf8")]
    Utf8,
    /// UTF-16 little-endian.
    #[value(name = "utf-16le")]
    Utf16le,
    /// UTF-16 big-endian.
    #[value(name = "utf-16be")]
    Utf16be,
    /// GBK / GB18030 (mainland archives).
    #[value(alias = "gb18030", alias = "gb2312")]
    Gbk,
    /// Big5 (Taiwanese archives).
    Big5,
}

impl From<EncodingArg> for xq_record::Encoding {
    fn from(e: EncodingArg) -> xq_record::Encoding {
        match e {
            EncodingArg::Utf8 => xq_record::Encoding::Utf8,
            EncodingArg::Utf16le => xq_record::Encoding::Utf16Le,
            EncodingArg::Utf16be => xq_record::Encoding::Utf16Be,
            EncodingArg::Gbk => xq_record::Encoding::Gbk,
            EncodingArg::Big5 => xq_record::Encoding::Big5,
        }
    }
}

/// A record format.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum RecordFormat {
    /// XQ PGN.
    Pgn,
    /// XQF (象棋演播室).
    Xqf,
    /// DhtmlXQ / UBB (东萍).
    Dhtmlxq,
    /// 象棋桥 CBR.
    Cbr,
    /// 象棋桥 CBL library.
    Cbl,
    /// 象棋桥 CBF (XML).
    Cbf,
    /// A plain move list.
    Txt,
    /// xq's JSON.
    Json,
}

impl From<RecordFormat> for xq_record::Format {
    fn from(f: RecordFormat) -> xq_record::Format {
        match f {
            RecordFormat::Pgn => xq_record::Format::Pgn,
            RecordFormat::Xqf => xq_record::Format::Xqf,
            RecordFormat::Dhtmlxq => xq_record::Format::Dhtmlxq,
            RecordFormat::Cbr => xq_record::Format::Cbr,
            RecordFormat::Cbl => xq_record::Format::Cbl,
            RecordFormat::Cbf => xq_record::Format::Cbf,
            RecordFormat::Txt => xq_record::Format::Txt,
            RecordFormat::Json => xq_record::Format::Json,
        }
    }
}

/// The line of moves `xq judge`, `xq limit` and `xq banned` work on: a record's main line, or a
/// FEN and moves, or both (the moves continue the record).
#[derive(Debug, Args)]
pub(crate) struct LineArgs {
    /// A game file (its main line) or a move list (an optional FEN line, then moves).
    pub(crate) file: Option<std::path::PathBuf>,
    /// Which game of the file (1 = the first).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub(crate) game: u32,
    /// The starting position (default: the standard one).
    #[arg(long)]
    pub(crate) fen: Option<String>,
    /// The moves, in any notation (mixed is fine), separated by spaces; after the record's moves
    /// when a file is given.
    #[arg(long)]
    pub(crate) moves: Option<String>,
    /// Stop the line after this ply (1 = the first move, 0 = the start position): the position
    /// a claim is made in, in the middle of a game.
    #[arg(long)]
    pub(crate) ply: Option<u32>,
    #[command(flatten)]
    pub(crate) input: InputArgs,
}

/// How input records are read.
#[derive(Debug, Args)]
pub(crate) struct InputArgs {
    /// The text encoding of the inputs, instead of telling it from their content.
    #[arg(long, value_enum)]
    pub(crate) encoding: Option<EncodingArg>,
    /// The format of the inputs, instead of telling it from their content and extension.
    #[arg(long = "from", value_enum)]
    pub(crate) from: Option<RecordFormat>,
}

impl InputArgs {
    pub(crate) fn options(&self) -> xq_record::ReadOptions {
        xq_record::ReadOptions {
            encoding: self.encoding.map(Into::into),
            format: self.from.map(Into::into),
            ..xq_record::ReadOptions::default()
        }
    }
}

/// How `xq validate` reports.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum ReportFormat {
    /// For people: each failure with its place and the position, then a summary.
    Text,
    /// One row per game.
    Csv,
    /// One JSON document: the summary and every game.
    Json,
    /// One JSON object per game, one per line, as the games are checked.
    Jsonl,
}

#[derive(Debug, Args)]
pub(crate) struct ValidateArgs {
    /// Record files, and directories to search (recursively) for .pgn .xqf .cbr .cbl .cbf .txt
    /// .json .htm(l) .ubb files.
    #[arg(required = true)]
    pub(crate) paths: Vec<std::path::PathBuf>,
    /// The report's format (`--report` is the older name, still read).
    #[arg(long = "format", alias = "report", value_enum, default_value_t = ReportFormat::Text)]
    pub(crate) report: ReportFormat,
    /// Accept only standard notation: a move written in a variant form fails.
    #[arg(long)]
    pub(crate) strict: bool,
    /// How many threads check files, 1 to 256 (default: one per core).
    #[arg(long, short = 'j', value_parser = jobs)]
    pub(crate) jobs: Option<usize>,
    /// No progress bar and no timing line on standard error.
    #[arg(long, short = 'q')]
    pub(crate) quiet: bool,
    /// Follow symbolic links found in directories to wherever they point (by default a link
    /// leading out of the directory given is listed as skipped).
    #[arg(long)]
    pub(crate) follow: bool,
    #[command(flatten)]
    pub(crate) input: InputArgs,
}

/// A format to convert to.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum TargetFormat {
    /// XQ PGN (many games per file).
    Pgn,
    /// XQF (one game per file).
    Xqf,
    /// DhtmlXQ / UBB.
    Dhtmlxq,
    /// xq's JSON (everything kept).
    Json,
    /// CSV, one row per move of the main line.
    Csv,
    /// A move list, one game per line.
    Txt,
    /// The games table as JSON lines: `--out` is a directory of `part-00000.jsonl` … and a
    /// `_manifest.json` (as `xq dataset --table games --format jsonl`).
    Jsonl,
    /// The games table as Parquet (a build with the `parquet` feature): `part-00000.parquet` …
    /// and a `_manifest.json`.
    Parquet,
}

/// The XQF flavour to write.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum XqfFlavour {
    /// Version 1.0, not encrypted.
    Plain,
    /// Version 1.8, encrypted (as 象棋演播室 writes it).
    Encrypted,
}

#[derive(Debug, Args)]
pub(crate) struct ConvertArgs {
    /// Record files, and directories to search (recursively) for records.
    #[arg(required = true)]
    pub(crate) inputs: Vec<std::path::PathBuf>,
    /// The format to write.
    #[arg(long, value_enum)]
    pub(crate) to: TargetFormat,
    /// Where to write: a directory, existing or ending in `/` (one output per input, the tree
    /// below directory inputs mirrored), or a file (every game of every input, in input order);
    /// `-`, the default, for standard output (XQF, which is binary, not to a terminal).
    /// `-o`/`--output` as in the other commands.
    #[arg(long, short = 'o', visible_alias = "output", default_value = "-")]
    pub(crate) out: std::path::PathBuf,
    /// The notation of moves (PGN and move lists).
    #[arg(long, value_enum, default_value_t = NotationArg::Chinese)]
    pub(crate) notation: NotationArg,
    /// The encoding of PGN, DhtmlXQ, CSV and move-list outputs (default utf-8). XQF's text is
    /// GBK and JSON's UTF-8 whatever is asked: another is refused, not ignored.
    #[arg(long = "out-encoding", value_enum)]
    pub(crate) out_encoding: Option<OutEncoding>,
    /// The XQF flavour.
    #[arg(long, value_enum, default_value_t = XqfFlavour::Plain)]
    pub(crate) xqf: XqfFlavour,
    /// Replace outputs that already exist.
    #[arg(long, conflicts_with = "skip_existing")]
    pub(crate) force: bool,
    /// Leave outputs that already exist as they are (to finish an interrupted batch).
    #[arg(long)]
    pub(crate) skip_existing: bool,
    /// How many threads convert files, 1 to 256 (default: one per core); the messages come out
    /// in the order of the inputs whatever the number.
    #[arg(long, short = 'j', value_parser = jobs)]
    pub(crate) jobs: Option<usize>,
    /// With `--to jsonl|parquet`: rows at most in a part file.
    #[arg(long, default_value_t = 1_000_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub(crate) shard_size: u64,
    /// Follow symbolic links found in directories to wherever they point (by default a link
    /// leading out of the directory given is listed as skipped).
    #[arg(long)]
    pub(crate) follow: bool,
    #[command(flatten)]
    pub(crate) input: InputArgs,
}

/// The encoding of text outputs.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum OutEncoding {
    /// UTF-8.
    #[value(name = "utf-8", alias = "utf8")]
    Utf8,
    /// GBK (for old Windows software; its two-byte codes, not GB18030's four-byte ones).
    Gbk,
    /// Big5 (Taiwanese and Hong Kong software; write moves with `--notation traditional`).
    Big5,
}

#[derive(Debug, Args)]
pub(crate) struct ShowArgs {
    /// The record file.
    pub(crate) file: std::path::PathBuf,
    /// Which game of the file (1 = the first).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub(crate) game: u32,
    /// The notation of the moves; `ucci-line` prints the main line as one UCCI command,
    /// `position fen FEN moves m1 m2 …`, for an engine.
    #[arg(long, value_enum, default_value_t = ShowNotation::Moves(NotationArg::Chinese))]
    pub(crate) notation: ShowNotation,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub(crate) format: Format,
    #[command(flatten)]
    pub(crate) input: InputArgs,
}

/// What `xq show` writes moves in: a notation, or the main line as a UCCI command.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum ShowNotation {
    /// The game in a notation.
    Moves(NotationArg),
    /// The main line as one UCCI command for an engine.
    UcciLine,
}

impl ValueEnum for ShowNotation {
    fn value_variants<'a>() -> &'a [Self] {
        // Every notation (a test checks none is missing), then the engine line.
        &[
            ShowNotation::Moves(NotationArg::Chinese),
            ShowNotation::Moves(NotationArg::Traditional),
            ShowNotation::Moves(NotationArg::Wxf),
            ShowNotation::Moves(NotationArg::Iccs),
            ShowNotation::Moves(NotationArg::Ucci),
            ShowNotation::Moves(NotationArg::Uci),
            ShowNotation::Moves(NotationArg::San),
            ShowNotation::UcciLine,
        ]
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        match self {
            ShowNotation::Moves(n) => n.to_possible_value(),
            ShowNotation::UcciLine => Some(
                clap::builder::PossibleValue::new("ucci-line")
                    .help("The main line as one UCCI command: position fen FEN moves m1 m2 …"),
            ),
        }
    }
}

impl std::fmt::Display for ShowNotation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let value = self.to_possible_value();
        f.write_str(value.as_ref().map_or("", |v| v.get_name()))
    }
}

/// A dataset's table.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum TableArg {
    /// One row per ply of every main line: FEN, move, label, legal-move mask, result for the
    /// side to move, …
    Positions,
    /// One row per game: tags, start FEN, moves in ICCS and Chinese, result, whether it replays.
    Games,
}

/// A dataset's file format.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum DatasetFormat {
    /// Apache Parquet, zstd (a build with the `parquet` feature).
    Parquet,
    /// JSON lines: one object per row, the legal mask in hex.
    Jsonl,
}

#[derive(Debug, Args)]
pub(crate) struct DatasetArgs {
    /// Record files, and directories to search (recursively) for records.
    #[arg(required = true)]
    pub(crate) paths: Vec<std::path::PathBuf>,
    /// The dataset's directory (created if need be). `-o`/`--output` as in the other commands.
    #[arg(long, short = 'o', visible_alias = "output")]
    pub(crate) out: std::path::PathBuf,
    /// Which table.
    #[arg(long, value_enum, default_value_t = TableArg::Positions)]
    pub(crate) table: TableArg,
    /// The part files' format.
    #[arg(long, value_enum, default_value_t = DatasetFormat::Parquet)]
    pub(crate) format: DatasetFormat,
    /// Rows at most in a part file.
    #[arg(long, default_value_t = 1_000_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub(crate) shard_size: u64,
    /// Rotate every Black-to-move position so that the side to move is Red.
    #[arg(long)]
    pub(crate) flip: bool,
    /// Mirror every position left to right.
    #[arg(long)]
    pub(crate) mirror: bool,
    /// Classify every move (将 杀 捉 兑 献 拦 跟 闲) under the CXA 2020 rules (about 0.1 ms a move).
    #[arg(long)]
    pub(crate) natures: bool,
    /// The share of games in the validation split (by a hash of the game id).
    #[arg(long, default_value_t = 0.1)]
    pub(crate) validation: f64,
    /// Replace a dataset already in the directory (its part files and manifest).
    #[arg(long)]
    pub(crate) force: bool,
    /// How many threads read files, 1 to 256 (default: one per core).
    #[arg(long, short = 'j', value_parser = jobs)]
    pub(crate) jobs: Option<usize>,
    /// Follow symbolic links found in directories to wherever they point.
    #[arg(long)]
    pub(crate) follow: bool,
    #[command(flatten)]
    pub(crate) input: InputArgs,
}

/// A count of threads (`-j`): 1 to [`ReaderPool::MAX_WORKERS`].
fn jobs(text: &str) -> Result<usize, String> {
    use xq_notation::ReaderPool;
    let most = ReaderPool::MAX_WORKERS;
    match text.trim().parse::<usize>() {
        Ok(n) if (1..=most).contains(&n) => Ok(n),
        Ok(_) => Err(format!(
            "from 1 to {most} threads (more than the cores only take turns on them)"
        )),
        Err(_) => Err(format!("a number of threads, 1 to {most}")),
    }
}
