//! The game model: tags, the start position, the move tree with comments, the result.

pub use compact_str::CompactString;
use serde::{Deserialize, Serialize};
use xq_core::Move;

use std::num::{NonZeroU32, NonZeroUsize};

/// One move in a record and what hangs on it.
///
/// What most moves of most records do not have (a comment after the move, alternative lines, a
/// comment before it, a text that is not a notation, annotation glyphs: [`Node::comment`],
/// [`Node::variations`], [`Node::before`], [`Node::written`], [`Node::glyphs`]) stands apart,
/// behind one pointer that is null when the node has none of them: a node is 48 bytes rather
/// than 152, which an archive of games read into memory holds millions of, and which reading
/// moves, copies and drops once per move. The move's text is held in the node (a
/// [`CompactString`]: up to 24 bytes, any move of any notation, without an allocation; it reads
/// as a `&str` with `as_deref()`, as a `String` would).
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(from = "wire::Node")]
pub struct Node {
    /// The move as the record writes it (a token in some notation: 炮二平五, C2.5, h2e2), if the
    /// record writes moves as text.
    pub text: Option<CompactString>,
    /// The move as coordinates: given by binary records, or found by replaying the text.
    pub m: Option<Move>,
    /// Where the move stands in the source ([`Node::source_line`]), 1-based.
    line: Option<NonZeroU32>,
    /// Where the move's text starts in the source ([`Node::source_offset`]), plus one (an
    /// offset in eight bytes, as a line in four: none costs no room).
    offset: Option<NonZeroUsize>,
    /// What few nodes have; `None` when the node has none of it (so that equal nodes compare
    /// equal however they were made).
    rare: Option<Box<Rare>>,
}

/// The parts of a [`Node`] that few have.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Rare {
    comment: Option<String>,
    variations: Vec<Vec<Node>>,
    before: Option<String>,
    written: Option<String>,
    glyphs: Option<String>,
}

impl Rare {
    fn is_empty(&self) -> bool {
        self.comment.is_none()
            && self.variations.is_empty()
            && self.before.is_none()
            && self.written.is_none()
            && self.glyphs.is_none()
    }
}

impl Node {
    /// A move given as coordinates.
    pub fn coord(m: Move) -> Node {
        Node {
            m: Some(m),
            ..Node::default()
        }
    }

    /// A move given as text.
    pub fn text(text: impl AsRef<str>) -> Node {
        Node {
            text: Some(CompactString::new(text)),
            ..Node::default()
        }
    }

    /// Where the move stands in the source: its line (text records), 1-based.
    pub fn source_line(&self) -> Option<u32> {
        self.line.map(NonZeroU32::get)
    }

    /// Sets the line the move stands on (1-based: a line 0 is none).
    pub fn set_source_line(&mut self, line: Option<u32>) {
        self.line = line.and_then(NonZeroU32::new);
    }

    /// Where the move's text starts in the source (text records): its byte offset in the file
    /// as stored for games read by [`read`](crate::read) and [`GameStream`](crate::GameStream),
    /// in the text read for games of the text readers called directly.
    pub fn source_offset(&self) -> Option<usize> {
        self.offset.map(|at| at.get() - 1)
    }

    /// Sets where the move's text starts in the source (an offset of `usize::MAX`, which no
    /// text reaches, is none).
    pub fn set_source_offset(&mut self, offset: Option<usize>) {
        self.offset = offset.and_then(|at| NonZeroUsize::new(at.wrapping_add(1)));
    }

    /// The comment after the move.
    pub fn comment(&self) -> Option<&str> {
        self.rare.as_ref()?.comment.as_deref()
    }

    /// Sets the comment after the move.
    #[inline]
    pub fn set_comment(&mut self, comment: Option<String>) {
        self.change_rare(comment.is_some(), |rare| rare.comment = comment);
    }

    /// Takes the comment after the move away.
    pub fn take_comment(&mut self) -> Option<String> {
        let mut comment = None;
        self.change_rare(false, |rare| comment = rare.comment.take());
        comment
    }

    /// Adds `comment` after the comment after the move, on a line of its own.
    pub(crate) fn append_comment(&mut self, comment: String) {
        self.change_rare(true, |rare| append_comment(&mut rare.comment, comment));
    }

    /// Alternative lines: each starts with an alternative to this move.
    pub fn variations(&self) -> &[Vec<Node>] {
        match &self.rare {
            Some(rare) => &rare.variations,
            None => &[],
        }
    }

    /// The alternative lines, to change their moves (lines are added with
    /// [`Node::add_variation`], replaced with [`Node::set_variations`]).
    pub fn variations_mut(&mut self) -> &mut [Vec<Node>] {
        match &mut self.rare {
            Some(rare) => &mut rare.variations,
            None => &mut [],
        }
    }

    /// Adds an alternative line after the others.
    pub fn add_variation(&mut self, line: Vec<Node>) {
        self.change_rare(true, |rare| rare.variations.push(line));
    }

    /// Replaces the alternative lines.
    pub fn set_variations(&mut self, variations: Vec<Vec<Node>>) {
        self.change_rare(!variations.is_empty(), |rare| {
            rare.variations = variations;
        });
    }

    /// Takes the alternative lines away.
    pub fn take_variations(&mut self) -> Vec<Vec<Node>> {
        let mut variations = Vec::new();
        self.change_rare(false, |rare| {
            variations = std::mem::take(&mut rare.variations);
        });
        variations
    }

    /// A comment before the move (records put one before the first move of a variation).
    pub fn before(&self) -> Option<&str> {
        self.rare.as_ref()?.before.as_deref()
    }

    /// Sets the comment before the move.
    #[inline]
    pub fn set_before(&mut self, before: Option<String>) {
        self.change_rare(before.is_some(), |rare| rare.before = before);
    }

    /// The move as the record writes it when that is not a move notation (DhtmlXQ's four
    /// digits, `7747`): what reports quote and mark at `source_offset`.
    pub fn written(&self) -> Option<&str> {
        self.rare.as_ref()?.written.as_deref()
    }

    /// Sets the move as the record writes it when that is not a move notation.
    #[inline]
    pub fn set_written(&mut self, written: Option<String>) {
        self.change_rare(written.is_some(), |rare| rare.written = written);
    }

    /// The annotation glyphs of the move, as PGN writes them, in the order read, separated by
    /// spaces: marks (`!`, `?!`, `！` …: [`is_mark`]) and numeric glyphs (`$14`:
    /// [`is_numeric_glyph`]), `!? $14`.
    pub fn glyphs(&self) -> Option<&str> {
        self.rare.as_ref()?.glyphs.as_deref()
    }

    /// Sets the annotation glyphs of the move.
    #[inline]
    pub fn set_glyphs(&mut self, glyphs: Option<String>) {
        self.change_rare(glyphs.is_some(), |rare| rare.glyphs = glyphs);
    }

    /// Adds a glyph after the move's others.
    pub fn add_glyph(&mut self, glyph: &str) {
        let glyphs = match self.glyphs() {
            None => glyph.to_owned(),
            Some(had) => format!("{had} {glyph}"),
        };
        self.set_glyphs(Some(glyphs));
    }

    /// Changes the rare parts with `change`, which `adds` something (else a node without rare
    /// parts is left as it is: nothing is made, nor allocated), keeping them `None` when none is
    /// left (so that equal nodes compare equal however they were made).
    #[inline]
    fn change_rare(&mut self, adds: bool, change: impl FnOnce(&mut Rare)) {
        match &mut self.rare {
            Some(rare) => {
                change(rare);
                if rare.is_empty() {
                    self.rare = None;
                }
            }
            None if adds => {
                let mut rare = Box::<Rare>::default();
                change(&mut rare);
                self.rare = Some(rare);
            }
            None => {}
        }
    }
}

impl Serialize for Node {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        wire::NodeRef {
            text: self.text.as_deref(),
            m: self.m,
            glyphs: self.glyphs(),
            before: self.before(),
            comment: self.comment(),
            variations: self.variations(),
        }
        .serialize(s)
    }
}

/// A node as JSON writes it (the source's places and [`Node::written`] are not written).
mod wire {
    use serde::{Deserialize, Serialize};
    use xq_core::Move;

    #[derive(Serialize)]
    pub(super) struct NodeRef<'a> {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub(super) text: Option<&'a str>,
        #[serde(
            rename = "move",
            skip_serializing_if = "Option::is_none",
            with = "super::opt_move"
        )]
        pub(super) m: Option<Move>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub(super) glyphs: Option<&'a str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub(super) before: Option<&'a str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub(super) comment: Option<&'a str>,
        #[serde(skip_serializing_if = "<[_]>::is_empty")]
        pub(super) variations: &'a [Vec<super::Node>],
    }

    #[derive(Deserialize)]
    pub(super) struct Node {
        #[serde(default)]
        text: Option<String>,
        #[serde(default, rename = "move", with = "super::opt_move")]
        m: Option<Move>,
        #[serde(default)]
        glyphs: Option<String>,
        #[serde(default)]
        before: Option<String>,
        #[serde(default)]
        comment: Option<String>,
        #[serde(default)]
        variations: Vec<Vec<super::Node>>,
    }

    impl From<Node> for super::Node {
        fn from(wire: Node) -> super::Node {
            let mut node = super::Node {
                text: wire.text.map(Into::into),
                m: wire.m,
                ..super::Node::default()
            };
            node.set_comment(wire.comment);
            node.set_variations(wire.variations);
            node.set_before(wire.before);
            node.set_glyphs(wire.glyphs.filter(|g| !g.trim().is_empty()));
            node
        }
    }
}

mod opt_move {
    use serde::{Deserialize, Deserializer, Serializer};
    use xq_core::Move;

    pub(super) fn serialize<S: Serializer>(m: &Option<Move>, s: S) -> Result<S::Ok, S::Error> {
        match m {
            Some(m) => s.collect_str(m),
            None => s.serialize_none(),
        }
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Move>, D::Error> {
        let text: Option<String> = Option::deserialize(d)?;
        text.map(|t| t.parse().map_err(serde::de::Error::custom))
            .transpose()
    }
}

/// A game's result.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// 红胜, `1-0`.
    RedWins,
    /// 黑胜, `0-1`.
    BlackWins,
    /// 和棋, `1/2-1/2`.
    Draw,
    /// Unknown or unfinished, `*`.
    Unknown,
}

impl Outcome {
    /// Reads a PGN result token (`1-0`, `0-1`, `1/2-1/2`, `*`, also followed by words: `1-0
    /// (forfeit)`) or words in Chinese or English: a side and what it did (`红胜`, `红先负`,
    /// `黑方超时负`, `Red wins`, `black resigns`), a draw (`和局`, `和棋`, `draw`).
    pub fn parse(text: &str) -> Option<Outcome> {
        let text = text.trim();
        Some(match text {
            "1-0" | "W" | "w" => Outcome::RedWins,
            "0-1" | "L" | "l" => Outcome::BlackWins,
            "1/2-1/2" | "½-½" | "D" | "d" => Outcome::Draw,
            "*" | "" | "未知" => Outcome::Unknown,
            _ => {
                return Outcome::from_token_and_words(text)
                    .unwrap_or_else(|| Outcome::from_words(text));
            }
        })
    }

    /// A PGN result token followed by words (`1-0 (time)`, `0-1(forfeit)`): the token's, unless
    /// the words say another result (`1-0 黑胜` is none).
    /// (`None` when `text` does not start with a token and words.)
    fn from_token_and_words(text: &str) -> Option<Option<Outcome>> {
        let end = text.find(|c: char| c.is_whitespace() || c == '(')?;
        let outcome = match &text[..end] {
            token @ ("1-0" | "0-1" | "1/2-1/2" | "½-½" | "*") => Outcome::parse(token)?,
            _ => return None,
        };
        // (Only a win the words give to the other side contradicts it: `1-0 (Black claimed a
        // draw, refused)` is 1-0.)
        Some(match Outcome::from_words(&text[end..]) {
            Some(said @ (Outcome::RedWins | Outcome::BlackWins)) if said != outcome => None,
            _ => Some(outcome),
        })
    }

    /// A result in words: each side named with what it did (a win, a loss), or a draw; `None`
    /// when they say nothing of the kind, leave it open (`未分胜负`, 胜负未定: 胜负 together is
    /// the noun "the outcome"), or contradict each other. A ruling's words read so too
    /// (`黑方长将不变判负`: Black loses; `双方不变作和`: a draw). English is read word by word
    /// (`withdrawn` holds no draw, `closed` no loss).
    fn from_words(text: &str) -> Option<Outcome> {
        const OPEN: [&str; 4] = ["胜负", "勝負", "输赢", "輸贏"];
        if OPEN.iter().any(|w| text.contains(w)) {
            return None;
        }
        // 弃权 (forfeits) is a loss; 弃 alone is a sacrifice (`红弃车胜`).
        let text = text.replace("弃权", "负").replace("棄權", "負");
        let mut found: Option<Outcome> = None;
        let mut agree = |outcome: Outcome| -> bool {
            match found {
                Some(f) if f != outcome => false,
                _ => {
                    found = Some(outcome);
                    true
                }
            }
        };
        // Chinese: a side (红, 黑), then before the next side what it did (弃权: it forfeits).
        let mut side: Option<bool> = None;
        for c in text.chars() {
            let red_won = match c {
                '红' | '紅' => {
                    side = Some(true);
                    continue;
                }
                '黑' => {
                    side = Some(false);
                    continue;
                }
                '胜' | '勝' | '赢' | '贏' => side,
                '负' | '負' | '输' | '輸' => side.map(|red| !red),
                '和' => {
                    if !agree(Outcome::Draw) {
                        return None;
                    }
                    continue;
                }
                _ => continue,
            };
            if let Some(red_won) = red_won {
                let outcome = if red_won {
                    Outcome::RedWins
                } else {
                    Outcome::BlackWins
                };
                if !agree(outcome) {
                    return None;
                }
                side = None;
            }
        }
        if found.is_none() {
            let lower = text.to_lowercase();
            let words: Vec<&str> = lower
                .split(|c: char| !c.is_ascii_alphanumeric())
                .filter(|w| !w.is_empty())
                .collect();
            let any = |of: &[&str]| words.iter().any(|w| of.contains(w));
            let (red, black) = (any(&["red"]), any(&["black"]));
            let won = any(&["win", "wins", "won", "winner", "victory"]);
            let lost = any(&[
                "lose",
                "loses",
                "lost",
                "loss",
                "resign",
                "resigns",
                "resigned",
                "forfeit",
                "forfeits",
                "forfeited",
            ]);
            let drawn = any(&["draw", "drawn", "draws"]);
            // The side named won, or (no win said) lost: `Red wins by forfeit` is Red's.
            found = match (red, black) {
                _ if drawn && !won && !lost => Some(Outcome::Draw),
                (true, false) if won => Some(Outcome::RedWins),
                (false, true) if won => Some(Outcome::BlackWins),
                (true, false) if lost => Some(Outcome::BlackWins),
                (false, true) if lost => Some(Outcome::RedWins),
                _ => None,
            };
        }
        found
    }

    /// The PGN token.
    pub const fn pgn(self) -> &'static str {
        match self {
            Outcome::RedWins => "1-0",
            Outcome::BlackWins => "0-1",
            Outcome::Draw => "1/2-1/2",
            Outcome::Unknown => "*",
        }
    }
}

/// A game record.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Game {
    /// The tags in the order the record gives them, with PGN names (Event, Site, Date, Round,
    /// Red, Black, RedTeam, BlackTeam, Result, Opening, Variation, ECCO, …); other formats' fields
    /// are mapped to these names, and fields without a PGN name keep their own.
    #[serde(default)]
    pub tags: Vec<(String, String)>,
    /// The start position, if not the standard one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fen: Option<String>,
    /// The comment before the first move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    /// The main line.
    #[serde(default)]
    pub moves: Vec<Node>,
    /// The line of its file where the game starts (text formats), 1-based.
    #[serde(skip)]
    pub line: Option<u32>,
    /// Where the start position is written (text formats): the byte offset of its first
    /// character (the FEN tag's value, DhtmlXQ's `fen` or `binit` …) in the file as stored, for
    /// games read by [`read`](crate::read) and [`GameStream`](crate::GameStream); in the text
    /// read, for games of the text readers called directly.
    #[serde(skip)]
    pub fen_offset: Option<usize>,
    /// The line (1-based) where the start position is written (text formats).
    #[serde(skip)]
    pub fen_line: Option<u32>,
    /// Whether the text the game was read from is known to hold no U+FFFD, the character
    /// decoding puts for bytes it cannot read: set by the PGN reader, which looks over each
    /// game's text once, so that [`undecodable`](crate::validate::undecodable) need not look
    /// through every move and comment. `false` when not known; like the other reading facts
    /// above, it describes the text as read, and code that puts new text into a game should
    /// leave it `false`.
    #[serde(skip)]
    pub replacement_free: bool,
    /// What the reader found in the record and could not place in the game, in words (a
    /// DhtmlXQ branch leaving a move its line does not have, a comment on a move that is not
    /// there): a reading fact like the ones above, said by validation as warnings.
    #[serde(skip)]
    pub unread: Vec<String>,
}

/// Whether `token` is a PGN annotation mark: `!` and `?` (or their full-width forms), as many as
/// written (`!`, `??`, `!?`).
pub fn is_mark(token: &str) -> bool {
    !token.is_empty() && token.chars().all(|c| matches!(c, '!' | '?' | '！' | '？'))
}

/// Whether `token` is a PGN numeric annotation glyph: `$` and a number (`$14`).
pub fn is_numeric_glyph(token: &str) -> bool {
    token
        .strip_prefix('$')
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// The marks a move may carry after it (`炮二平五!?`), which are no part of it.
pub(crate) const MARKS: [char; 4] = ['!', '?', '！', '？'];

/// A token of moves as PGN and move lists write it, its annotation glyphs apart: those it starts
/// with (`$14`, marks standing alone: the move's before it, each handed to `before`), then the
/// move (perhaps empty) and the marks on it (`炮二平五!?`). Where the move starts in the token is
/// its length less the move's and the marks'.
#[inline]
pub(crate) fn split_glyphs<'a>(
    mut token: &'a str,
    mut before: impl FnMut(&'a str),
) -> (&'a str, &'a str) {
    while let Some(glyph) = leading_glyph(token) {
        before(glyph);
        token = &token[glyph.len()..];
    }
    // (The byte test first: a move rarely ends in a mark.)
    match token.as_bytes().last() {
        Some(b'!' | b'?' | 0x81 | 0x9F) => {
            let bare = token.trim_end_matches(MARKS);
            (bare, &token[bare.len()..])
        }
        _ => (token, ""),
    }
}

/// The annotation glyph that `token` starts with, if any: a numeric glyph (`$14`, the number's
/// digits only), or marks standing alone (the whole token).
#[inline]
fn leading_glyph(token: &str) -> Option<&str> {
    if let Some(number) = token.strip_prefix('$') {
        let digits = number.bytes().take_while(u8::is_ascii_digit).count();
        return (digits > 0).then(|| &token[..1 + digits]);
    }
    // (The first byte first: a move never starts with a mark.)
    let may_be_mark = matches!(token.as_bytes().first(), Some(b'!' | b'?' | 0xEF));
    (may_be_mark && is_mark(token)).then_some(token)
}

/// Whether `token` is a PGN annotation glyph: a mark or a numeric glyph.
pub fn is_glyph(token: &str) -> bool {
    is_mark(token) || is_numeric_glyph(token)
}

/// Whether two FENs give the same start position: the same placement and side to move, whatever
/// the rest (`… w` and `… w - - 0 1`; `r` for Red as `w`), compared as written (a position that
/// breaks the rules is one too).
pub(crate) fn same_start(a: &str, b: &str) -> bool {
    fn key(fen: &str) -> (Option<&str>, Option<&str>) {
        let mut fields = fen.split_whitespace();
        let placement = fields.next();
        let side = fields
            .next()
            .map(|s| if s.eq_ignore_ascii_case("r") { "w" } else { s });
        (placement, side)
    }
    key(a) == key(b)
}

/// Adds `text` to a comment: after what it holds, on a line of its own.
pub(crate) fn append_comment(slot: &mut Option<String>, text: String) {
    match slot {
        Some(existing) => {
            existing.push('\n');
            existing.push_str(&text);
        }
        None => *slot = Some(text),
    }
}

/// How many nodes of `line` and of its variations, at every depth, pass `test`.
pub(crate) fn count_nodes(line: &[Node], test: &dyn Fn(&Node) -> bool) -> usize {
    line.iter()
        .map(|n| {
            usize::from(test(n))
                + n.variations()
                    .iter()
                    .map(|v| count_nodes(v, test))
                    .sum::<usize>()
        })
        .sum()
}

impl Game {
    /// Sets the start position from a board and the side to move (binary and DhtmlXQ records);
    /// the standard start position is left implicit.
    pub fn set_start(&mut self, board: xq_core::Board, turn: xq_core::Color) {
        let fen = xq_core::Setup {
            board,
            turn,
            halfmoves: 0,
            fullmoves: 1,
        }
        .to_fen();
        let standard =
            xq_core::Position::from_fen(&fen).is_ok_and(|p| p.fen() == xq_core::START_FEN);
        self.fen = (!standard).then_some(fen);
    }

    /// The value of a tag (case-insensitive name), if present and not empty.
    pub fn tag(&self, name: &str) -> Option<&str> {
        // (The first with a value: `[Red ""]` then `[Red "Xu"]` is Xu.)
        self.tags
            .iter()
            .find(|(k, v)| k.eq_ignore_ascii_case(name) && !v.trim().is_empty())
            .map(|(_, v)| v.as_str())
    }

    /// Sets a tag, replacing an existing one of the same name or appending it.
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self
            .tags
            .iter_mut()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
        {
            Some((_, v)) => *v = value,
            None => self.tags.push((name.to_owned(), value)),
        }
    }

    /// The result from the Result tag.
    pub fn outcome(&self) -> Option<Outcome> {
        self.tag("Result").and_then(Outcome::parse)
    }

    /// The Result tag's text when it is more than a plain spelling of an outcome
    /// ([`is_plain_result`]): no result [`Outcome::parse`] reads (`abandoned`), or words with
    /// one (`0-1 forfeit`, `黑方长将不变判负`, a ruling and its reason): what a format that holds
    /// only outcomes cannot keep.
    pub fn unread_result(&self) -> Option<&str> {
        // (A tag read has a value.)
        self.tag("Result").filter(|r| !is_plain_result(r))
    }

    /// The date from the Date tag, if it can be read (the tag itself keeps the original text).
    pub fn date(&self) -> Option<chrono::NaiveDate> {
        parse_date(self.tag("Date")?)
    }

    /// The number of moves in the main line.
    pub fn plies(&self) -> usize {
        self.moves.len()
    }

    /// Every node of the tree, depth first (the main line's nodes and their variations).
    pub fn count_nodes(&self) -> usize {
        fn count(line: &[Node]) -> usize {
            line.iter()
                .map(|n| 1 + n.variations().iter().map(|v| count(v)).sum::<usize>())
                .sum()
        }
        count(&self.moves)
    }

    /// Every comment written before a move that has a move before it in its line (after a
    /// variation, in PGN) made the end of that move's comment, and one before the game's first
    /// move the end of the game's: the same place in the text, for the formats that hold
    /// comments only after moves (XQF, DhtmlXQ). A comment before a variation's first move stays
    /// (no move of its line stands before it).
    pub(crate) fn move_comments_after_moves(&mut self) {
        fn line(nodes: &mut [Node], before_first: Option<&mut Option<String>>) {
            for i in 0..nodes.len() {
                for variation in nodes[i].variations_mut() {
                    line(variation, None);
                }
                if i > 0
                    && let Some(before) = nodes[i].before().map(str::to_owned)
                {
                    nodes[i].set_before(None);
                    nodes[i - 1].append_comment(before);
                }
            }
            if let (Some(slot), Some(first)) = (before_first, nodes.first_mut())
                && let Some(before) = first.before().map(str::to_owned)
            {
                first.set_before(None);
                append_comment(slot, before);
            }
        }
        line(&mut self.moves, Some(&mut self.comment));
    }

    /// Whether any node has a variation.
    pub fn has_variations(&self) -> bool {
        fn any(line: &[Node]) -> bool {
            line.iter().any(|n| !n.variations().is_empty())
        }
        any(&self.moves)
    }

    /// How many comments the main line holds: the game's, and those before and after its moves
    /// (what a table of the main line's moves drops).
    pub fn comments_on_main_line(&self) -> usize {
        usize::from(self.comment.is_some())
            + self
                .moves
                .iter()
                .map(|n| usize::from(n.comment().is_some()) + usize::from(n.before().is_some()))
                .sum::<usize>()
    }

    /// What lies off the main line: how many variations at any depth (each alternative line
    /// once, nested ones included) and how many comments they hold (before and after moves).
    /// What a writer that keeps the main line only drops.
    pub fn off_main_line(&self) -> (usize, usize) {
        fn within(line: &[Node], lines: &mut usize, comments: &mut usize) {
            for node in line {
                for v in node.variations() {
                    *lines += 1;
                    for n in v {
                        *comments +=
                            usize::from(n.before().is_some()) + usize::from(n.comment().is_some());
                    }
                    within(v, lines, comments);
                }
            }
        }
        let (mut lines, mut comments) = (0, 0);
        within(&self.moves, &mut lines, &mut comments);
        (lines, comments)
    }
}

/// Whether `text` is a plain spelling of an outcome, nothing more: a PGN result token (`1-0`,
/// `½-½`, `*`), a letter (`W`, `L`, `D`), `未知`, nothing, or in words a side (or none) and what
/// it did (`红胜`, `黑负`, `红先和`, `和棋`, `Red wins`, `draw`). A format holding only outcomes
/// writes such a result in its own spelling and loses nothing; other words are the result's too
/// (`0-1 forfeit`, `黑方长将不变判负`).
pub fn is_plain_result(text: &str) -> bool {
    // (What no outcome is read from is no plain result: `1-0.` is kept as written.)
    if Outcome::parse(text).is_none() {
        return false;
    }
    // (Spaces within, `红 胜`, and a closing mark, `Black wins!`, say nothing more.)
    let text = text.trim().trim_end_matches(['!', '！', '.', '。']);
    let squeezed: String;
    let text = if text.contains(char::is_whitespace) && !text.is_ascii() {
        squeezed = text.split_whitespace().collect();
        squeezed.as_str()
    } else {
        text
    };
    if matches!(
        text,
        "1-0" | "0-1" | "1/2-1/2" | "½-½" | "*" | "" | "未知" | "W" | "w" | "L" | "l" | "D" | "d"
    ) {
        return true;
    }
    let english = text.to_ascii_lowercase();
    if matches!(
        english.as_str(),
        "red wins" | "black wins" | "red won" | "black won" | "draw" | "drawn" | "unknown"
    ) {
        return true;
    }
    // A side, with 先 (moving first) or 方 (side) or not; what it did; 棋 or 局 after a draw.
    let rest = ["红", "紅", "黑"]
        .iter()
        .find_map(|side| text.strip_prefix(side))
        .map_or(text, |rest| rest.strip_prefix(['先', '方']).unwrap_or(rest));
    let rest = rest.strip_prefix('先').unwrap_or(rest);
    matches!(
        rest,
        "胜" | "勝"
            | "获胜"
            | "獲勝"
            | "负"
            | "負"
            | "赢"
            | "贏"
            | "输"
            | "輸"
            | "和"
            | "和棋"
            | "和局"
    ) && Outcome::parse(text).is_some()
}

/// Whether the tag `name` = `value` is the `[Game "Chinese Chess"]` that XQ PGN writes and
/// every other format implies (a writer of a format without tags drops it unsaid; another
/// value, `Xiangqi Variant`, is said).
pub(crate) fn is_implied_game_tag(name: &str, value: &str) -> bool {
    name.eq_ignore_ascii_case("Game") && value.trim().eq_ignore_ascii_case("Chinese Chess")
}

/// Reads the dates records use: `1999.12.09`, `1999-12-09`, `1999/12/09`, `19991209`, `1999年12月9日`.
/// Partial dates (`1999.??.??`) give `None`; the Date tag keeps the text.
pub(crate) fn parse_date(text: &str) -> Option<chrono::NaiveDate> {
    let digits: Vec<u32> = text
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .filter_map(|s| s.parse().ok())
        .collect();
    let (y, m, d) = match digits.as_slice() {
        [y, m, d] => (*y as i32, *m, *d),
        [ymd] if (10_000_000..100_000_000).contains(ymd) => {
            ((ymd / 10_000) as i32, ymd / 100 % 100, ymd % 100)
        }
        _ => return None,
    };
    chrono::NaiveDate::from_ymd_opt(y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_is_small_and_its_rare_parts_read_back() {
        #[cfg(target_pointer_width = "64")]
        assert_eq!(size_of::<Node>(), 48);
        // A move's text is held in the node, whatever its notation (the longest: a traditional
        // Chinese move with a full-width digit, 12 bytes; a token with its marks, more).
        for text in [
            "h2e2",
            "C2.5",
            "炮二平五",
            "馬８進７",
            "前马退六",
            "前兵七平六!?",
            "Che3",
        ] {
            let node = Node::text(text);
            let held = node.text.as_ref().unwrap();
            assert!(!held.is_heap_allocated(), "{text}");
            assert_eq!(node.text.as_deref(), Some(text));
        }
        let mut node = Node::text("h2e2");
        node.set_comment(Some("after".into()));
        node.set_before(Some("why".into()));
        node.set_written(Some("7747".into()));
        node.add_variation(vec![Node::text("b2e2")]);
        assert_eq!((node.before(), node.written()), (Some("why"), Some("7747")));
        // JSON writes the comment before, never the written text, and reads the node back.
        let json = serde_json::to_string(&node).unwrap();
        assert_eq!(
            json,
            r#"{"text":"h2e2","before":"why","comment":"after","variations":[[{"text":"b2e2"}]]}"#
        );
        let mut read: Node = serde_json::from_str(&json).unwrap();
        assert_eq!(read.before(), Some("why"));
        read.set_written(Some("7747".into()));
        assert_eq!(read, node);
        // Taken away, the rare parts leave a node equal to one that never had them.
        node.set_before(None);
        node.set_written(None);
        assert_eq!(node.take_comment().as_deref(), Some("after"));
        assert_eq!(node.take_variations().len(), 1);
        assert_eq!(node, Node::text("h2e2"));
        assert!(node.rare.is_none());
    }

    #[test]
    fn a_nodes_place_in_its_source_reads_back() {
        let mut node = Node::text("h2e2");
        assert_eq!((node.source_line(), node.source_offset()), (None, None));
        for (line, offset) in [(1, 0), (7, 12_345), (u32::MAX, usize::MAX - 1)] {
            node.set_source_line(Some(line));
            node.set_source_offset(Some(offset));
            assert_eq!(node.source_line(), Some(line));
            assert_eq!(node.source_offset(), Some(offset));
        }
        // Lines count from 1; no text reaches the last offset.
        node.set_source_line(Some(0));
        node.set_source_offset(Some(usize::MAX));
        assert_eq!((node.source_line(), node.source_offset()), (None, None));
        node.set_source_offset(Some(3));
        node.set_source_offset(None);
        assert_eq!(node, Node::text("h2e2"));
    }

    #[test]
    fn a_nodes_comment_and_lines_change_through_its_methods() {
        let mut node = Node::text("h2e2");
        // Nothing to change allocates nothing.
        assert!(node.variations_mut().is_empty());
        node.set_comment(None);
        node.set_variations(Vec::new());
        assert!(node.rare.is_none());
        node.append_comment("one".into());
        node.append_comment("two".into());
        assert_eq!(node.comment(), Some("one\ntwo"));
        node.add_variation(vec![Node::text("b2e2")]);
        node.add_variation(vec![Node::text("h0g2")]);
        node.variations_mut()[1][0].m = Some(Move::new(xq_core::Square::A0, xq_core::Square::A1));
        assert_eq!(node.variations().len(), 2);
        assert!(node.variations()[1][0].m.is_some());
        // The comment taken, the lines stay; the lines taken too, the node is bare again.
        assert_eq!(node.take_comment().as_deref(), Some("one\ntwo"));
        assert_eq!(node.variations().len(), 2);
        let lines = node.take_variations();
        assert_eq!(lines.len(), 2);
        assert_eq!(node, Node::text("h2e2"));
        assert!(node.rare.is_none());
        // Lines set back compare equal to lines added.
        let mut other = Node::text("h2e2");
        for line in lines.clone() {
            other.add_variation(line);
        }
        node.set_variations(lines);
        assert_eq!(node, other);
    }

    #[test]
    fn dates() {
        let d = |s| parse_date(s).map(|d| d.to_string());
        assert_eq!(d("1999.12.09").as_deref(), Some("1999-12-09"));
        assert_eq!(d("1999-12-09").as_deref(), Some("1999-12-09"));
        assert_eq!(d("19991209").as_deref(), Some("1999-12-09"));
        assert_eq!(d("1999年12月9日").as_deref(), Some("1999-12-09"));
        assert_eq!(d("1999.??.??"), None);
        assert_eq!(d("1999.13.01"), None);
        assert_eq!(d(""), None);
    }

    #[test]
    fn outcomes() {
        assert_eq!(Outcome::parse("1-0"), Some(Outcome::RedWins));
        assert_eq!(Outcome::parse("黑胜"), Some(Outcome::BlackWins));
        assert_eq!(Outcome::parse("1/2-1/2"), Some(Outcome::Draw));
        assert_eq!(Outcome::parse("*"), Some(Outcome::Unknown));
        assert_eq!(Outcome::parse("x"), None);
        // Words: a side and what it did, in either script or English; a draw; a token with words
        // after it. Words that say nothing of it, or contradict themselves, are no result.
        for (text, outcome) in [
            ("红胜", Some(Outcome::RedWins)),
            ("紅勝", Some(Outcome::RedWins)),
            ("红先胜", Some(Outcome::RedWins)),
            ("红方胜", Some(Outcome::RedWins)),
            ("黑负", Some(Outcome::RedWins)),
            ("黑方超时负", Some(Outcome::RedWins)),
            ("红胜黑负", Some(Outcome::RedWins)),
            ("红负", Some(Outcome::BlackWins)),
            ("红先负", Some(Outcome::BlackWins)),
            ("红方超时负", Some(Outcome::BlackWins)),
            ("黑勝", Some(Outcome::BlackWins)),
            ("和", Some(Outcome::Draw)),
            ("和局", Some(Outcome::Draw)),
            ("和棋", Some(Outcome::Draw)),
            ("红先和", Some(Outcome::Draw)),
            ("Red wins", Some(Outcome::RedWins)),
            ("black resigns", Some(Outcome::RedWins)),
            ("Black won on time", Some(Outcome::BlackWins)),
            ("draw", Some(Outcome::Draw)),
            ("Drawn by repetition", Some(Outcome::Draw)),
            ("1-0 (forfeit)", Some(Outcome::RedWins)),
            ("0-1(time)", Some(Outcome::BlackWins)),
            ("1/2-1/2 agreed", Some(Outcome::Draw)),
            ("1-0x", None),
            ("红胜黑胜", None),
            ("胜", None),
            ("abandoned", None),
            ("red and black", None),
            // Words that hold result words but are none: read as none (kept as written).
            ("Withdrawn", None),
            ("Red withdrawn", None),
            ("Red, closed", None),
            ("红黑未分胜负", None),
            ("红先，胜负未定", None),
            ("1-0 黑胜", None),
            ("1-0 红胜", Some(Outcome::RedWins)),
            ("Red wins by forfeit", Some(Outcome::RedWins)),
            ("红方弃权", Some(Outcome::BlackWins)),
            ("红弃车胜", Some(Outcome::RedWins)),
            ("双方不变作和", Some(Outcome::Draw)),
            ("黑方长将不变判负", Some(Outcome::RedWins)),
            ("红胜（黑方未到场）", Some(Outcome::RedWins)),
            (
                "1-0 (Black claimed a draw, refused)",
                Some(Outcome::RedWins),
            ),
        ] {
            assert_eq!(Outcome::parse(text), outcome, "{text}");
        }
    }

    /// A plain spelling of an outcome is all a format of outcomes needs; words beyond one (a
    /// ruling, a reason) are the result's too.
    #[test]
    fn plain_results_and_results_with_words() {
        for plain in [
            "1-0",
            " 0-1 ",
            "1/2-1/2",
            "½-½",
            "*",
            "",
            "未知",
            "W",
            "d",
            "红胜",
            "Black wins!",
            "红方获胜",
            "红 胜",
            "和棋。",
            "黑负",
            "紅勝",
            "红先胜",
            "红先和",
            "黑方负",
            "和",
            "和棋",
            "和局",
            "Red wins",
            "draw",
            "Drawn",
        ] {
            assert!(is_plain_result(plain), "{plain}");
        }
        for words in [
            "1-0.",
            "0-1!",
            "0-1 forfeit",
            "1-0 (time)",
            "黑方长将不变判负",
            "红胜（黑方未到场）",
            "红方超时负",
            "Red wins by forfeit",
            "abandoned",
            "胜",
            "红胜黑胜",
        ] {
            assert!(!is_plain_result(words), "{words}");
        }
        let with = |result: &str| Game {
            tags: vec![("Result".to_owned(), result.to_owned())],
            ..Game::default()
        };
        assert_eq!(with("红胜").unread_result(), None);
        assert_eq!(with("0-1 forfeit").unread_result(), Some("0-1 forfeit"));
    }
}
