//! The 60-round audit (自然限着审核) an arbiter does by hand, ply by ply, for each claimant: as
//! text, JSON (the contract of `xq limit --format json`) and CSV.

use std::fmt::{self, Write as _};

use serde::Serialize;
use xq_arbiter::{
    Lang,
    limit::{Audit, AuditRow, AuditVerdict, CapApplies, LimitOptions, audit},
};
use xq_core::Color;
use xq_notation::{ChineseStyle, Notation, write};

use xq_arbiter::procedure::SelfKill;

use crate::{
    Line,
    json::{RecordJson, pick},
    ruling::{RecordFacts, side_words, written, written_label},
    text::write_record,
};

/// The 60-round audits of a line, one per claimant.
#[derive(Clone, Debug)]
pub struct LimitAudit {
    /// One audit per claimant, in the order asked for.
    pub audits: Vec<Audit>,
    /// Each move of the line in Chinese notation (index `ply - 1`).
    pub chinese: Vec<String>,
    /// Each move in the notation asked for ([`LimitAudit::with_notation`]), with it.
    pub written: Option<(Notation, Vec<String>)>,
    /// What reading the record found: whether a claim on it is heard, and the moves
    /// reconstructed (`None` for moves given on the command line).
    pub record: Option<RecordFacts>,
    /// The recorded move that killed its own king: the game ended there, and the line audited
    /// stops before it.
    pub self_kill: Option<SelfKill>,
}

/// The audit's facts of the record in JSON, beside its audits.
#[derive(Serialize)]
struct LineJson<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    record: Option<RecordJson<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    self_kill: Option<SelfKillJson>,
}

#[derive(Serialize)]
struct SelfKillJson {
    #[serde(flatten)]
    kill: SelfKill,
    explanation: String,
}

impl LineJson<'_> {
    fn of(audit: &LimitAudit, lang: Lang) -> LineJson<'_> {
        LineJson {
            record: audit.record.as_ref().map(|rec| RecordJson::of(rec, lang)),
            self_kill: audit.self_kill.map(|kill| SelfKillJson {
                kill,
                explanation: self_kill_words(kill, lang),
            }),
        }
    }
}

/// What the self-kill ended, and that the audit stops before it.
fn self_kill_words(kill: SelfKill, lang: Lang) -> String {
    let (zh, en) = kill.words();
    let before = kill.ply - 1;
    match lang {
        Lang::Chinese => format!("{zh}；审核止于第{before}着"),
        Lang::English => format!("{en}; the audit stops at ply {before}"),
    }
}

impl LimitAudit {
    /// Audits `line` under `options` for each of `claimants`.
    pub fn new(line: &Line, options: LimitOptions, claimants: &[Color]) -> LimitAudit {
        let positions = line.positions();
        LimitAudit {
            audits: claimants
                .iter()
                .map(|&c| audit(&positions, &line.moves, options, c))
                .collect(),
            chinese: positions
                .iter()
                .zip(&line.moves)
                .map(|(pos, &m)| write(pos, m, Notation::Chinese(ChineseStyle::default())))
                .collect(),
            written: None,
            record: RecordFacts::of(line),
            self_kill: line.self_kill,
        }
    }

    /// Whether the move of `row` was reconstructed from a missing or unreadable one.
    fn reconstructed(&self, row: &AuditRow) -> bool {
        self.record
            .as_ref()
            .is_some_and(|rec| rec.reconstructed().any(|ply| ply == row.ply))
    }

    /// The audit with the moves of `line` (the line it was made from) written in `notation` as
    /// well (`xq limit --notation`): the text shows them so, the JSON adds each row's
    /// `written`, the CSV a last column `written`.
    #[must_use]
    pub fn with_notation(mut self, line: &Line, notation: Notation) -> LimitAudit {
        self.written = Some((notation, written(&line.start, &line.moves, notation)));
        self
    }

    fn written(&self, row: &AuditRow) -> Option<&str> {
        let (_, all) = self.written.as_ref()?;
        all.get(row.ply - 1).map(String::as_str)
    }

    fn chinese(&self, row: &AuditRow) -> &str {
        self.chinese.get(row.ply - 1).map_or("", String::as_str)
    }

    /// The audits in JSON: `{"audits": [...]}`, each audit with its conclusion in words
    /// (`explanation`) and every row with the move in Chinese (`chinese`); pretty-printed, no
    /// final newline. See [`LimitAudit::write_json`] to stream it.
    pub fn to_json(&self, lang: Lang) -> serde_json::Result<String> {
        let mut bytes = Vec::new();
        self.write_json(lang, &mut bytes)?;
        String::from_utf8(bytes).map_err(|e| serde_json::Error::io(std::io::Error::other(e)))
    }

    /// Writes [`LimitAudit::to_json`] to `out` as it goes: the rows are written a few hundred at
    /// a time, so memory does not grow with the number of rows beyond the audit itself.
    ///
    /// The document is serde_json's pretty layout (two spaces a level), written directly: each
    /// audit's fields but its rows are serialized, and the rows, hundreds of small objects, are
    /// put together from fixed pieces of text (a test compares the two ways).
    pub fn write_json(&self, lang: Lang, mut out: impl std::io::Write) -> serde_json::Result<()> {
        /// How much is written to `out` at once.
        const CHUNK: usize = 1 << 16;
        let mut buf: Vec<u8> = Vec::with_capacity(CHUNK + 1024);
        buf.extend_from_slice(b"{\n  \"audits\": [");
        for (i, a) in self.audits.iter().enumerate() {
            buf.extend_from_slice(if i == 0 { b"\n    " } else { b",\n    " });
            let head = serde_json::to_vec_pretty(&Head::of(a, lang))?;
            // `{ … }` with its fields at the first level: without the closing brace, and two
            // levels further in (a newline never stands inside a JSON string).
            let fields = head.strip_suffix(b"\n}").unwrap_or(&head);
            for line in fields.split_inclusive(|&b| b == b'\n') {
                buf.extend_from_slice(line);
                if line.ends_with(b"\n") {
                    buf.extend_from_slice(b"    ");
                }
            }
            buf.extend_from_slice(b",\n      \"rows\": [");
            for (j, row) in a.rows.iter().enumerate() {
                self.row_json(row, j == 0, &mut buf)?;
                if buf.len() >= CHUNK {
                    out.write_all(&buf).map_err(serde_json::Error::io)?;
                    buf.clear();
                }
            }
            buf.extend_from_slice(if a.rows.is_empty() {
                b"]\n    }"
            } else {
                b"\n      ]\n    }"
            });
        }
        buf.extend_from_slice(if self.audits.is_empty() {
            b"]"
        } else {
            b"\n  ]"
        });
        // The record's facts and the self-kill, fields of the document as serde writes them.
        let facts = serde_json::to_vec_pretty(&LineJson::of(self, lang))?;
        let fields = facts
            .strip_prefix(b"{")
            .and_then(|f| f.strip_suffix(b"\n}"))
            .unwrap_or_default();
        if !fields.is_empty() {
            buf.push(b',');
            for line in fields.split_inclusive(|&b| b == b'\n').skip(1) {
                buf.push(b'\n');
                buf.extend_from_slice(line.strip_suffix(b"\n").unwrap_or(line));
            }
        }
        buf.extend_from_slice(b"\n}");
        out.write_all(&buf).map_err(serde_json::Error::io)
    }

    /// One row of [`LimitAudit::write_json`]: the fields of [`AuditRow`] as it serializes,
    /// then `chinese` and `written`; `first` of its audit or not.
    fn row_json(&self, row: &AuditRow, first: bool, buf: &mut Vec<u8>) -> serde_json::Result<()> {
        let number = |buf: &mut Vec<u8>, n: u64| {
            buf.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
        };
        let boolean = |buf: &mut Vec<u8>, b: bool| {
            buf.extend_from_slice(if b { b"true" } else { b"false" });
        };
        buf.extend_from_slice(if first { b"\n" } else { b",\n" });
        buf.extend_from_slice(b"        {\n          \"ply\": ");
        number(buf, row.ply as u64);
        buf.extend_from_slice(b",\n          \"round\": ");
        number(buf, u64::from(row.round));
        buf.extend_from_slice(b",\n          \"side\": \"");
        buf.extend_from_slice(row.side.name().as_bytes());
        buf.extend_from_slice(b"\",\n          \"move\": \"");
        buf.extend_from_slice(&row.m.ascii());
        buf.extend_from_slice(b"\",\n          \"capture\": ");
        boolean(buf, row.capture);
        buf.extend_from_slice(b",\n          \"check\": ");
        boolean(buf, row.check);
        buf.extend_from_slice(b",\n          \"check_number\": ");
        match row.check_number {
            Some(n) => number(buf, u64::from(n)),
            None => buf.extend_from_slice(b"null"),
        }
        buf.extend_from_slice(b",\n          \"counted\": ");
        boolean(buf, row.counted);
        buf.extend_from_slice(b",\n          \"count\": ");
        number(buf, row.count as u64);
        buf.extend_from_slice(b",\n          \"chinese\": ");
        serde_json::to_writer(&mut *buf, self.chinese(row))?;
        if let Some(written) = self.written(row) {
            buf.extend_from_slice(b",\n          \"written\": ");
            serde_json::to_writer(&mut *buf, written)?;
        }
        if self.reconstructed(row) {
            buf.extend_from_slice(b",\n          \"reconstructed\": true");
        }
        buf.extend_from_slice(b"\n        }");
        Ok(())
    }

    /// Every row of every audit as CSV, with a header line.
    pub fn to_csv(&self) -> Result<String, csv::Error> {
        let mut w = csv::Writer::from_writer(Vec::new());
        let written = self.written.is_some();
        let mut head = vec![
            "claimant",
            "ply",
            "round",
            "side",
            "iccs",
            "chinese",
            "capture",
            "check",
            "check_number",
            "counted",
            "count",
        ];
        if written {
            head.push("written");
        }
        w.write_record(&head)?;
        for a in &self.audits {
            for row in &a.rows {
                let mut record: Vec<String> = vec![
                    a.claimant.name().to_owned(),
                    row.ply.to_string(),
                    row.round.to_string(),
                    row.side.name().to_owned(),
                    row.m.to_string(),
                    self.chinese(row).to_owned(),
                    row.capture.to_string(),
                    row.check.to_string(),
                    row.check_number.map(|n| n.to_string()).unwrap_or_default(),
                    row.counted.to_string(),
                    row.count.to_string(),
                ];
                if written {
                    record.push(self.written(row).unwrap_or_default().to_owned());
                }
                w.write_record(&record)?;
            }
        }
        let bytes = w
            .into_inner()
            .map_err(|e| csv::Error::from(e.into_error()))?;
        String::from_utf8(bytes)
            .map_err(|e| csv::Error::from(std::io::Error::new(std::io::ErrorKind::InvalidData, e)))
    }

    /// The audits as text tables, one after the other, each with its conclusion.
    pub fn to_text(&self, lang: Lang) -> String {
        let mut out = String::new();
        for (i, a) in self.audits.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            let _ = self.text(a, lang, &mut out);
        }
        if let Some(rec) = &self.record {
            let _ = write_record(&mut out, rec, lang);
        }
        if let Some(kill) = self.self_kill {
            let _ = writeln!(
                out,
                "{} {}",
                pick(lang, "终局：", "End:"),
                self_kill_words(kill, lang)
            );
        }
        out
    }

    fn text(&self, a: &Audit, lang: Lang, out: &mut String) -> fmt::Result {
        let zh = lang == Lang::Chinese;
        let cap_whose = match (a.cap_applies, zh) {
            (CapApplies::Claimant, true) => "提和方",
            (CapApplies::Both, true) => "双方",
            (CapApplies::Claimant, false) => "the claimant's",
            (CapApplies::Both, false) => "either side's",
        };
        let (who, rounds, plies, cap) = (
            side_words(a.claimant, lang),
            a.rounds,
            2 * a.rounds,
            a.check_cap,
        );
        if zh {
            writeln!(
                out,
                "自然限着审核 · 提和方：{who} · {rounds}回合（{plies}着）未吃子 · {cap_whose}将军最多计{cap}着"
            )?;
            writeln!(
                out,
                "  着  回合  方    着法             吃子            将军            计数"
            )?;
        } else {
            writeln!(
                out,
                "60-round audit · claimant: {who} · {rounds} rounds ({plies} plies) without a capture · {cap_whose} checks count up to {cap}"
            )?;
            writeln!(
                out,
                " ply round side   move             capture         check           count"
            )?;
        }
        for row in &a.rows {
            let mut mv = match (&self.written, self.written(row)) {
                (Some((n, _)), Some(w)) => written_label(*n, w, self.chinese(row), row.m),
                _ => format!("{} {}", self.chinese(row), row.m),
            };
            if self.reconstructed(row) {
                mv.push_str(pick(lang, "（补）", " (reconstructed)"));
            }
            let capture = match (row.capture, zh) {
                (true, true) => "吃子，重新计数",
                (true, false) => "capture: restart",
                _ => "",
            };
            let check = match (row.check, row.check_number, zh) {
                (true, Some(n), true) if n > a.check_cap => format!("第{n}次将军，不计"),
                (true, Some(n), true) => format!("第{n}次将军"),
                (true, None, true) => "将军".to_owned(),
                (true, Some(n), false) if n > a.check_cap => format!("check {n}: void"),
                (true, Some(n), false) => format!("check {n}"),
                (true, None, false) => "check".to_owned(),
                _ => String::new(),
            };
            let side = match (row.side, zh) {
                (Color::Red, true) => "红",
                (Color::Black, true) => "黑",
                (c, false) => side_words(c, lang),
            };
            writeln!(
                out,
                "{:>4} {:>5}  {side:<5} {}{} {}{} {}{} {:>4}",
                row.ply,
                row.round,
                mv,
                pad(&mv, 16),
                capture,
                pad(capture, 15),
                check,
                pad(&check, 15),
                row.count
            )?;
        }
        writeln!(
            out,
            "{} {}",
            pick(lang, "结论：", "Verdict:"),
            conclusion(a, lang)
        )
    }
}

/// An audit's fields in JSON but its rows.
#[derive(Serialize)]
struct Head {
    claimant: &'static str,
    rounds: u32,
    check_cap: u32,
    cap_applies: CapApplies,
    last_capture_ply: Option<usize>,
    #[serde(flatten)]
    verdict: AuditVerdict,
    explanation: String,
}

impl Head {
    fn of(a: &Audit, lang: Lang) -> Head {
        Head {
            claimant: a.claimant.name(),
            rounds: a.rounds,
            check_cap: a.check_cap,
            cap_applies: a.cap_applies,
            last_capture_ply: a.last_capture_ply,
            verdict: a.verdict,
            explanation: conclusion(a, lang),
        }
    }
}

/// The audit's conclusion in words.
fn conclusion(a: &Audit, lang: Lang) -> String {
    let who = side_words(a.claimant, lang);
    match (a.verdict, lang) {
        (AuditVerdict::DrawFrom { ply, round }, Lang::Chinese) => {
            format!("第{ply}着（第{round}回合）起达到自然限着，{who}可提和")
        }
        (AuditVerdict::DrawFrom { ply, round }, Lang::English) => format!(
            "the limit is reached at ply {ply} (round {round}): {who} may claim a draw from there"
        ),
        (AuditVerdict::NotYet { counted, needed }, Lang::Chinese) => {
            format!("未到自然限着：已计{counted}着，需{needed}着")
        }
        (AuditVerdict::NotYet { counted, needed }, Lang::English) => {
            format!("not yet: {counted} of {needed} plies counted")
        }
        (AuditVerdict::EndedOnBoard { winner, stalemate }, Lang::Chinese) => format!(
            "最后一着{}，{}胜（限着不改变棋盘上的结果）",
            if stalemate {
                "困毙对方"
            } else {
                "将死对方"
            },
            side_words(winner, lang)
        ),
        (AuditVerdict::EndedOnBoard { winner, stalemate }, Lang::English) => format!(
            "the last move {} the other side: {} wins (the limit does not undo a result on the board)",
            if stalemate { "stalemates" } else { "mates" },
            side_words(winner, lang)
        ),
    }
}

/// Spaces that fill `s` to `width` terminal columns (CJK characters take two).
fn pad(s: &str, width: usize) -> String {
    let used: usize = s.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum();
    " ".repeat(width.saturating_sub(used))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use xq_core::{Move, Position};

    use super::*;

    /// The document as serde_json writes it pretty from derived `Serialize` impls (as
    /// `write_json` did before it wrote the rows itself): the reference it must match byte for
    /// byte.
    fn by_serde(report: &LimitAudit, lang: Lang) -> String {
        #[derive(Serialize)]
        struct RowJson<'a> {
            #[serde(flatten)]
            row: &'a AuditRow,
            chinese: &'a str,
            #[serde(skip_serializing_if = "Option::is_none")]
            written: Option<&'a str>,
            #[serde(skip_serializing_if = "std::ops::Not::not")]
            reconstructed: bool,
        }
        #[derive(Serialize)]
        struct AuditJson<'a> {
            #[serde(flatten)]
            head: Head,
            rows: Vec<RowJson<'a>>,
        }
        #[derive(Serialize)]
        struct Document<'a> {
            audits: Vec<AuditJson<'a>>,
            #[serde(flatten)]
            line: LineJson<'a>,
        }
        let audits = report
            .audits
            .iter()
            .map(|a| AuditJson {
                head: Head::of(a, lang),
                rows: a
                    .rows
                    .iter()
                    .map(|row| RowJson {
                        row,
                        chinese: report.chinese(row),
                        written: report.written(row),
                        reconstructed: report.reconstructed(row),
                    })
                    .collect(),
            })
            .collect();
        let line = LineJson::of(report, lang);
        serde_json::to_string_pretty(&Document { audits, line }).unwrap()
    }

    /// A random line of up to `plies` moves: mating moves taken when there are, captures often
    /// (so that lines end on the board and counts restart).
    fn random_line(seed: &mut xq_core::testing::XorShift, plies: usize) -> Line {
        let start = Position::new();
        let mut pos = start.clone();
        let mut moves: Vec<Move> = Vec::new();
        for _ in 0..plies {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let n = seed.next();
            let after = |m: Move| {
                let mut p = pos.clone();
                p.play_unchecked(m);
                p
            };
            let mating = legal
                .iter()
                .copied()
                .find(|&m| after(m).outcome().is_some());
            let capture = legal
                .iter()
                .copied()
                .find(|&m| pos.piece_at(m.to).is_some())
                .filter(|_| n.is_multiple_of(2));
            let m = mating
                .or(capture)
                .unwrap_or(legal[(n % legal.len() as u64) as usize]);
            pos.play_unchecked(m);
            moves.push(m);
        }
        Line::new(start, moves)
    }

    /// The JSON written directly is serde_json's, byte for byte: lines short and long, ended on
    /// the board or not, every option, one claimant, both or none, with and without a notation,
    /// in both languages.
    #[test]
    fn the_json_is_what_serde_json_writes() {
        let mut seed = xq_core::testing::XorShift(0x2545_f491_4f6c_dd1d);
        let mut verdicts = std::collections::HashSet::new();
        let mut lines = vec![Line::new(Position::new(), Vec::new())];
        for i in 0..40 {
            lines.push(random_line(&mut seed, 20 + 10 * i));
        }
        // Lines read from records: a move reconstructed, a self-kill that stops the line.
        for i in 0..lines.len() {
            if i % 3 != 2 || lines[i].moves.len() < 3 {
                continue;
            }
            let mut line = lines[i].clone();
            let moves = line.moves.clone();
            line.record = Some(xq_record::recover::Recovered {
                start: line.start.clone(),
                moves: moves.clone(),
                gaps: vec![xq_record::recover::Gap {
                    ply: 2,
                    text: Some("车一平午".to_owned()),
                    kind: xq_record::recover::GapKind::Unreadable,
                    reconstructed: Some(moves[1]),
                    candidates: 2,
                }],
                self_kill: None,
                unread: i % 2,
            });
            line.self_kill = Some(SelfKill {
                ply: moves.len() + 1,
                m: moves[0],
                side: Color::Black,
                kings_facing: i % 2 == 0,
            });
            lines.push(line);
        }
        for (i, line) in lines.iter().enumerate() {
            let options = LimitOptions {
                rounds: [60, 3, 10][i % 3],
                check_cap: [10, 1, 0][i % 3],
                cap_applies: if i % 2 == 0 {
                    CapApplies::Claimant
                } else {
                    CapApplies::Both
                },
            };
            let claimants: &[Color] = match i % 4 {
                0 => &[Color::Red, Color::Black],
                1 => &[Color::Black],
                2 => &[Color::Red],
                _ => &[],
            };
            let mut audit = LimitAudit::new(line, options, claimants);
            if i % 5 == 1 {
                audit = audit.with_notation(line, Notation::Wxf);
            }
            for a in &audit.audits {
                verdicts.insert(std::mem::discriminant(&a.verdict));
            }
            for lang in [Lang::Chinese, Lang::English] {
                assert_eq!(
                    audit.to_json(lang).unwrap(),
                    by_serde(&audit, lang),
                    "line {i}"
                );
            }
        }
        assert_eq!(verdicts.len(), 3, "every kind of verdict");
    }
}
