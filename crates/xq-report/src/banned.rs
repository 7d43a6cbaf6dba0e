//! The forbidden moves of the side to move (`xq banned`): as text for people, JSON for tools,
//! and the UCCI `banmoves` command for engines.

use std::fmt::Write as _;

use serde::Serialize;
use xq_arbiter::{BanOptions, BannedMoves, Lang, Repeat, banned_moves};
use xq_core::Color;
use xq_notation::{ChineseStyle, Notation, write};

use crate::{Line, json::pick, ruling::side_words};

/// The forbidden moves after a line, with each move also in Chinese notation.
#[derive(Clone, Debug)]
pub struct BanReport {
    /// What the arbiter found.
    pub answer: BannedMoves,
    /// The Chinese notation of each listed move, in the order of `banned`, `draws`, then
    /// `opponent_must_change`.
    chinese: Vec<String>,
}

impl BanReport {
    /// Lists the forbidden moves after `line` under `options`.
    pub fn new(line: &Line, options: BanOptions) -> BanReport {
        let answer = banned_moves(&line.start, &line.moves, options);
        let last = line.positions().pop().unwrap_or_else(|| line.start.clone());
        let chinese = lists(&answer)
            .iter()
            .flat_map(|(_, list)| list.iter())
            .map(|r| write(&last, r.m, Notation::Chinese(ChineseStyle::default())))
            .collect();
        BanReport { answer, chinese }
    }

    /// Each list with its name, and each move with its Chinese notation.
    fn entries(&self) -> Vec<(&'static str, Vec<(&Repeat, &str)>)> {
        let mut names = self.chinese.iter().map(String::as_str);
        lists(&self.answer)
            .into_iter()
            .map(|(kind, list)| {
                let rows = list
                    .iter()
                    .map(|r| (r, names.next().unwrap_or("")))
                    .collect();
                (kind, rows)
            })
            .collect()
    }

    /// The answer as text: the side to move, then each list (banned, draws, repeats the
    /// opponent must change) with every move in ICCS and Chinese, both sides' patterns, the
    /// ruling's clause and why.
    pub fn to_text(&self, lang: Lang) -> String {
        let a = &self.answer;
        let mut out = String::new();
        let side = side_words(a.side, lang);
        let opponent = side_words(a.side.other(), lang);
        let _ = match lang {
            Lang::Chinese => writeln!(out, "{side}走棋（{}）：禁着 {} 个", a.rules, a.banned.len()),
            Lang::English => writeln!(
                out,
                "{side} to move ({}): {} banned move{}",
                a.rules,
                a.banned.len(),
                if a.banned.len() == 1 { "" } else { "s" }
            ),
        };
        for (kind, rows) in self.entries() {
            let title = match (kind, lang) {
                ("banned", Lang::Chinese) => "禁着（不变作负）".to_owned(),
                ("banned", Lang::English) => "banned (must change or lose)".to_owned(),
                ("draws", Lang::Chinese) => "成和的重复".to_owned(),
                ("draws", Lang::English) => "drawn repetitions".to_owned(),
                (_, Lang::Chinese) => format!("重复而{opponent}须变着"),
                (_, Lang::English) => format!("repetitions {opponent} must break"),
            };
            if rows.is_empty() {
                let none = pick(lang, "无", "none");
                let _ = writeln!(out, "{title}{}{none}", pick(lang, "：", ": "));
                continue;
            }
            let _ = writeln!(out, "{title}{}", pick(lang, "：", ":"));
            for (r, chinese) in rows {
                let red = side_words(Color::Red, lang);
                let black = side_words(Color::Black, lang);
                let _ = writeln!(
                    out,
                    "  {} {chinese}  {red} {} / {black} {} — {} {}{}{}",
                    r.m,
                    r.sides.red.name,
                    r.sides.black.name,
                    pick(lang, "条款", "clause"),
                    r.clause,
                    pick(lang, "：", ": "),
                    pick(lang, &r.why_zh, &r.why_en),
                );
            }
        }
        out
    }

    /// The answer in JSON, pretty-printed without a final newline: the contract of
    /// `xq banned --format json` (see `docs/cli.md`). Each listed move carries its ICCS text
    /// (`move`), Chinese notation (`chinese`), the ruling (`verdict`, `clause`,
    /// `explanation` in `lang`, `why_zh`, `why_en`), the `cycle` and both sides' patterns.
    pub fn to_json(&self, lang: Lang) -> serde_json::Result<String> {
        #[derive(Serialize)]
        struct Row<'a> {
            #[serde(flatten)]
            repeat: &'a Repeat,
            chinese: &'a str,
            explanation: &'a str,
        }
        #[derive(Serialize)]
        struct Answer<'a> {
            side: &'static str,
            rules: &'static str,
            banned: Vec<Row<'a>>,
            draws: Vec<Row<'a>>,
            opponent_must_change: Vec<Row<'a>>,
        }
        let mut entries = self.entries().into_iter().map(|(_, rows)| {
            rows.into_iter()
                .map(|(repeat, chinese)| Row {
                    repeat,
                    chinese,
                    explanation: pick(lang, &repeat.why_zh, &repeat.why_en),
                })
                .collect::<Vec<_>>()
        });
        let mut next = || entries.next().unwrap_or_default();
        let answer = Answer {
            side: self.answer.side.name(),
            rules: self.answer.rules,
            banned: next(),
            draws: next(),
            opponent_must_change: next(),
        };
        serde_json::to_string_pretty(&answer)
    }

    /// The UCCI command that forbids the banned moves to an engine: `banmoves` followed by
    /// each banned move in ICCS, lower case (just `banmoves` when none is banned, which clears
    /// an earlier list).
    pub fn to_ucci(&self) -> String {
        let mut out = String::from("banmoves");
        for m in self.answer.moves() {
            let _ = write!(out, " {m}");
        }
        out
    }
}

/// The three lists of an answer, named.
fn lists(a: &BannedMoves) -> [(&'static str, &[Repeat]); 3] {
    [
        ("banned", &a.banned),
        ("draws", &a.draws),
        ("opponent_must_change", &a.opponent_must_change),
    ]
}
