//! The ruling report: what it contains, built from a [`Judgement`] and the procedure facts.

use xq_arbiter::{
    Classified, JudgeOptions, Judgement, Lang, Pattern, Profile, Verdict, explain,
    limit::LimitReport,
    procedure::{Admissibility, GameEnd, OpeningRule, SelfKill, admissibility, game_end},
};
use xq_core::{Color, Move, Position};
use xq_notation::{ChineseStyle, Notation, write};
use xq_record::recover::Gap;

use crate::Line;

/// A text in both languages of the reports.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Words {
    /// 中文.
    pub zh: String,
    /// English.
    pub en: String,
}

impl Words {
    /// Both texts.
    pub fn new(zh: impl Into<String>, en: impl Into<String>) -> Words {
        Words {
            zh: zh.into(),
            en: en.into(),
        }
    }

    /// The text in `lang`.
    pub fn get(&self, lang: Lang) -> &str {
        match lang {
            Lang::Chinese => &self.zh,
            Lang::English => &self.en,
        }
    }
}

/// A ruling report: the verdict with its rules and clause, the cycle, each judged move with its
/// nature and reason, both sides' patterns, the 60-round count, the first-rounds rule, what
/// reading the record found, and how the game ended.
///
/// Build one with [`Report::new`] (from a judgement) or [`Report::judge`] (judging the line),
/// then render it with [`Report::to_text`], [`Report::to_json`] or [`Report::to_html`].
#[derive(Clone, Debug)]
pub struct Report {
    /// Who must change, or a draw, or no repetition.
    pub verdict: Verdict,
    /// The rules applied: `cxa2020` or `axf`.
    pub rules: &'static str,
    /// The clause of the ruling (`25.3`, `axf.4` …; empty when there is no repetition).
    pub clause: &'static str,
    /// Why, in words.
    pub explanation: Words,
    /// The repetition cycle, if the moves repeat a position.
    pub cycle: Option<CycleFacts>,
    /// Each side's pattern over the judged moves.
    pub sides: [SidePattern; 2],
    /// The 60-round count (自然限着).
    pub limit: LimitReport,
    /// The judged moves.
    pub moves: Vec<ReportMove>,
    /// The first-rounds rule, when it bears on the repetition.
    pub opening: Option<OpeningRule>,
    /// What reading the record found (a record only).
    pub record: Option<RecordFacts>,
    /// How the game ended on the board.
    pub end: GameEnd,
    /// A move that left its own king in check or the kings facing, where the line stopped.
    pub self_kill: Option<SelfKill>,
    /// The line's start position (pictured when no move is judged).
    pub start: Position,
    /// What the report is about and where it comes from.
    pub about: About,
    /// The notation moves are written in, when asked for ([`Report::with_notation`]).
    pub notation: Option<Notation>,
}

/// The game a report is about (from the record's tags), the start position, and the report's
/// origin: the xq version and, when the caller stamps it, when it was made.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct About {
    /// The record's tags that name the game, in this order when present: Event, Round, Red,
    /// Black, Date, Site.
    pub game: Vec<(&'static str, String)>,
    /// The start position as a FEN.
    pub start_fen: String,
    /// The xq version that made the report.
    pub version: &'static str,
    /// When the report was made (UTC, RFC 3339), if stamped ([`Report::stamped`]).
    pub made: Option<String>,
}

/// The tags that name a game, in the order a report gives them.
pub(crate) const GAME_TAGS: [&str; 6] = ["Event", "Round", "Red", "Black", "Date", "Site"];

impl About {
    /// The game in one line of words (`赛事 · 第3轮 · 红方 甲 对 黑方 乙 · 2020.01.02`), if the
    /// record names it.
    pub fn game_words(&self, lang: Lang) -> Option<String> {
        let get = |name: &str| {
            self.game
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.as_str())
        };
        let zh = lang == Lang::Chinese;
        let mut parts: Vec<String> = Vec::new();
        if let Some(event) = get("Event") {
            parts.push(event.to_owned());
        }
        if let Some(round) = get("Round") {
            let number = round.bytes().all(|b| b.is_ascii_digit());
            parts.push(match (zh, number) {
                (true, true) => format!("第{round}轮"),
                (false, true) => format!("round {round}"),
                _ => round.to_owned(),
            });
        }
        let players: Vec<String> = [("Red", Color::Red), ("Black", Color::Black)]
            .iter()
            .filter_map(|&(tag, c)| get(tag).map(|p| format!("{} {p}", side_words(c, lang))))
            .collect();
        if !players.is_empty() {
            parts.push(players.join(if zh { " 对 " } else { " vs " }));
        }
        parts.extend(
            ["Date", "Site"]
                .iter()
                .filter_map(|t| get(t))
                .map(str::to_owned),
        );
        (!parts.is_empty()).then(|| parts.join(" · "))
    }

    /// Where the report comes from: `xq 0.1.0 · 2026-11-23T10:00:00Z`.
    pub fn origin_words(&self, lang: Lang) -> String {
        match (&self.made, lang) {
            (Some(t), Lang::Chinese) => format!("xq {} · 生成于 {t}", self.version),
            (Some(t), Lang::English) => format!("xq {} · made {t}", self.version),
            (None, _) => format!("xq {}", self.version),
        }
    }

    fn of(line: &Line) -> About {
        let game = GAME_TAGS
            .iter()
            .filter_map(|&name| {
                line.tags
                    .iter()
                    .find(|(k, v)| k.eq_ignore_ascii_case(name) && !v.trim().is_empty())
                    // Control characters shown escaped, never passed to a terminal.
                    .map(|(_, v)| (name, xq_core::text::visible(v.trim()).into_owned()))
            })
            .collect();
        About {
            game,
            start_fen: line.start.fen(),
            version: env!("CARGO_PKG_VERSION"),
            made: None,
        }
    }
}

/// The repetition cycle.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CycleFacts {
    /// The ply (1-based) of the cycle's first move.
    pub start_ply: usize,
    /// Its length in plies.
    pub plies: usize,
    /// How often the position has occurred, the last time included.
    pub occurrences: usize,
}

impl CycleFacts {
    /// The ply (1-based) of the cycle's last move.
    pub fn end_ply(&self) -> usize {
        self.start_ply + self.plies - 1
    }
}

/// A side's pattern: 长将, 长捉, 一将一闲 …, and whether it is forbidden (禁止着法).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SidePattern {
    /// The side.
    pub side: Color,
    /// The rulebook's name (empty when the side has no judged move).
    pub pattern: String,
    /// The name in English (perpetual chase, one check, one chase …).
    pub pattern_en: String,
    /// Forbidden: the side must change or lose.
    pub forbidden: bool,
}

/// One judged move.
#[derive(Clone, Debug)]
pub struct ReportMove {
    /// Its ply (1-based).
    pub ply: usize,
    /// The position before it.
    pub before: Position,
    /// Its nature and reason.
    pub classified: Classified,
    /// The move in Chinese notation (炮二平五).
    pub chinese: String,
    /// The move in WXF notation (C2.5), for reports in English.
    pub wxf: String,
    /// The move in the notation asked for ([`Report::with_notation`]), with that notation.
    pub written: Option<(Notation, String)>,
    /// Why it is what it is, in words.
    pub explanation: Words,
}

/// What reading the record found: the missing and unreadable moves, and whether a claim on it is
/// admissible.
#[derive(Clone, Debug)]
pub struct RecordFacts {
    /// Whether a claim can be judged on the record.
    pub admissibility: Admissibility,
    /// The missing and unreadable moves, each with how it was reconstructed.
    pub gaps: Vec<Gap>,
    /// Recorded moves left unread after the line stopped.
    pub unread: usize,
}

impl RecordFacts {
    /// What reading `line`'s record found (`None` for moves given on the command line).
    pub fn of(line: &Line) -> Option<RecordFacts> {
        line.record.as_ref().map(|r| RecordFacts {
            admissibility: admissibility(r.missing_or_unreadable()),
            gaps: r.gaps.clone(),
            unread: r.unread,
        })
    }

    /// The plies whose move was reconstructed (from a missing or unreadable one).
    pub fn reconstructed(&self) -> impl Iterator<Item = usize> + '_ {
        self.gaps
            .iter()
            .filter(|g| g.reconstructed.is_some())
            .map(|g| g.ply)
    }
}

impl ReportMove {
    /// The move as reports show it: in the notation asked for ([`Report::with_notation`]),
    /// else in Chinese (`lang` Chinese) or WXF (English); the Chinese follows in brackets when
    /// the notation is another, and the ICCS coordinates unless the notation writes points
    /// itself: `炮二平五 h2e2`, `C2.5 (炮二平五) h2e2`, `h3e3 (炮二平五)`.
    pub fn label(&self, lang: Lang) -> String {
        let m = self.classified.m;
        match &self.written {
            None if lang == Lang::Chinese => format!("{} {m}", self.chinese),
            None => format!("{} ({}) {m}", self.wxf, self.chinese),
            Some((n, w)) => written_label(*n, w, &self.chinese, m),
        }
    }
}

/// A move written `w` in `notation`, as reports show it: the Chinese in brackets after any
/// other notation, the ICCS coordinates after any notation that does not write points.
pub(crate) fn written_label(notation: Notation, w: &str, chinese: &str, m: Move) -> String {
    match notation {
        Notation::Chinese(_) => format!("{w} {m}"),
        n if n.is_coordinates() => format!("{w} ({chinese})"),
        _ => format!("{w} ({chinese}) {m}"),
    }
}

/// Every move of a line written in `notation`, from its start.
pub(crate) fn written(start: &Position, moves: &[Move], notation: Notation) -> Vec<String> {
    let mut pos = start.clone();
    moves
        .iter()
        .map(|&m| {
            let w = write(&pos, m, notation);
            pos.play_unchecked(m);
            w
        })
        .collect()
}

impl Report {
    /// The report with its moves written in `notation` as well (`xq judge --notation`): the
    /// text and HTML show them so (see [`ReportMove::label`]), the JSON adds `notation` and each
    /// move's `written`.
    #[must_use]
    pub fn with_notation(mut self, notation: Notation) -> Report {
        self.notation = Some(notation);
        for m in &mut self.moves {
            m.written = Some((notation, write(&m.before, m.classified.m, notation)));
        }
        self
    }

    /// Judges `line` with `options` and builds its report.
    pub fn judge(line: &Line, options: JudgeOptions) -> Report {
        Report::new(&xq_arbiter::judge(&line.start, &line.moves, options), line)
    }

    /// The report stamped with the time it was made, `unix_seconds` since 1970 (UTC), such as
    /// [`crate::now`] gives.
    #[must_use]
    pub fn stamped(mut self, unix_seconds: i64) -> Report {
        self.about.made = chrono::DateTime::from_timestamp(unix_seconds, 0)
            .map(|t| t.format("%Y-%m-%dT%H:%M:%SZ").to_string());
        self
    }

    /// The report of `judgement`, the judgement of `line`'s moves.
    pub fn new(judgement: &Judgement, line: &Line) -> Report {
        let j = judgement;
        let sides = match &j.sides {
            Some(s) => [
                side_pattern(Color::Red, &s.red),
                side_pattern(Color::Black, &s.black),
            ],
            // No repetition: each side's pattern over the moves all the same.
            None => [Color::Red, Color::Black].map(|c| {
                let moves: Vec<&Classified> = j
                    .moves
                    .iter()
                    .filter(|m| m.classified.side == c)
                    .map(|m| &m.classified)
                    .collect();
                let profile = Profile::by_name(j.rules).unwrap_or_default();
                side_pattern(c, &Pattern::of(&moves, profile, Default::default()))
            }),
        };
        let end = game_end(&line.positions(), j, &j.limit, line.self_kill, line.result);
        Report {
            verdict: j.verdict,
            rules: j.rules,
            clause: j.clause,
            explanation: Words::new(&j.why_zh, &j.why_en),
            cycle: j.cycle.map(|c| CycleFacts {
                start_ply: c.start_ply + 1,
                plies: c.plies,
                occurrences: c.occurrences,
            }),
            sides,
            limit: j.limit.clone(),
            moves: j
                .moves
                .iter()
                .map(|m| ReportMove {
                    ply: m.ply,
                    before: m.before.clone(),
                    chinese: write(
                        &m.before,
                        m.classified.m,
                        Notation::Chinese(ChineseStyle::default()),
                    ),
                    wxf: write(&m.before, m.classified.m, Notation::Wxf),
                    written: None,
                    explanation: Words::new(
                        explain(&m.before, &m.classified, Lang::Chinese),
                        explain(&m.before, &m.classified, Lang::English),
                    ),
                    classified: m.classified.clone(),
                })
                .collect(),
            opening: j.opening.clone(),
            record: RecordFacts::of(line),
            end,
            self_kill: line.self_kill,
            start: line.start.clone(),
            about: About::of(line),
            notation: None,
        }
    }

    /// Red's pattern.
    pub fn red(&self) -> &SidePattern {
        &self.sides[0]
    }

    /// Black's pattern.
    pub fn black(&self) -> &SidePattern {
        &self.sides[1]
    }

    /// The verdict in words.
    pub fn verdict_words(&self, lang: Lang) -> &'static str {
        match (self.verdict, lang) {
            (Verdict::Draw, Lang::Chinese) => "双方不变作和",
            (Verdict::RedMustChange, Lang::Chinese) => "红方须变着，不变判负",
            (Verdict::BlackMustChange, Lang::Chinese) => "黑方须变着，不变判负",
            (Verdict::NoRepetition, Lang::Chinese) => "着法未形成循环",
            (Verdict::Draw, Lang::English) => "draw if neither side changes",
            (Verdict::RedMustChange, Lang::English) => "Red must change or lose",
            (Verdict::BlackMustChange, Lang::English) => "Black must change or lose",
            (Verdict::NoRepetition, Lang::English) => "no repetition",
        }
    }
}

fn side_pattern(side: Color, p: &Pattern) -> SidePattern {
    SidePattern {
        side,
        pattern: p.name.clone(),
        pattern_en: p.name_en.clone(),
        forbidden: p.forbidden,
    }
}

/// A side's name in the reports' words: 红方 / Red.
pub(crate) fn side_words(c: Color, lang: Lang) -> &'static str {
    match (c, lang) {
        (Color::Red, Lang::Chinese) => "红方",
        (Color::Black, Lang::Chinese) => "黑方",
        (Color::Red, Lang::English) => "Red",
        (Color::Black, Lang::English) => "Black",
    }
}

/// Whether a pattern is allowed, in words.
pub(crate) fn allowed_words(forbidden: bool, lang: Lang) -> &'static str {
    match (forbidden, lang) {
        (true, Lang::Chinese) => "禁止着法",
        (false, Lang::Chinese) => "允许着法",
        (true, Lang::English) => "forbidden",
        (false, Lang::English) => "allowed",
    }
}
