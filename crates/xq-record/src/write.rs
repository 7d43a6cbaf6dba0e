//! Writing records: PGN, XQF, DhtmlXQ, JSON, CSV and move lists.
//!
//! Every writer returns the output and the list of what it could not keep (variations in a
//! format without them, tags without a field, comments …), so that a conversion says what it
//! dropped.

use std::fmt::Write as _;

use xq_core::{Color, Position};
use xq_notation::{Notation, System, write as write_move};

use crate::{
    encoding::{Encoding, encode},
    game::{Game, Node, Outcome},
    replay::start_position,
};

/// What a writer produced, and what it dropped.
#[derive(Debug, Default)]
pub struct Written {
    /// The bytes of the file.
    pub bytes: Vec<u8>,
    /// What the format could not hold, in words.
    pub dropped: Vec<String>,
}

/// Writes the move `node` played in `pos` in `notation`, or its original text when it has no
/// coordinates (a move that did not replay, or a line whose position is lost: `pos` is `None`).
pub fn move_text(pos: Option<&Position>, node: &Node, notation: Notation) -> String {
    match (pos, node.m) {
        (Some(pos), Some(m)) if pos.is_legal(m) => write_move(pos, m, notation),
        _ => node
            .text
            .as_deref()
            .map(str::to_owned)
            .unwrap_or_else(|| node.m.map(|m| m.to_string()).unwrap_or_default()),
    }
}

/// `text`, a move as written, with `node`'s annotation glyphs as PGN writes them, in their
/// order: the first on the move if it is a mark (`炮二平五!?`), the others apart (`炮二平五! ?
/// $14`), which reads back the same. A glyph that is no PGN glyph (a JSON record may hold any
/// text) is left out: [`write_pgn`] says so.
pub fn with_glyphs(mut text: String, node: &Node) -> String {
    let glyphs = node.glyphs().into_iter().flat_map(str::split_whitespace);
    for (i, glyph) in glyphs.filter(|g| crate::game::is_glyph(g)).enumerate() {
        if i > 0 || !crate::game::is_mark(glyph) {
            text.push(' ');
        }
        text.push_str(glyph);
    }
    text
}

/// Plays `node` on `pos`; a move that does not replay loses the position (`None`) for the rest of
/// the line.
pub fn play(pos: &mut Option<Position>, node: &Node) {
    match (pos.as_mut(), node.m) {
        (Some(p), Some(m)) if p.is_legal(m) => p.play_unchecked(m),
        _ => *pos = None,
    }
}

/// `text` as a PGN comment. A line of it that reads as a tag line (`[Round "3"]` quoted in a
/// comment) would end the comment on reading (a tag line ends a `{` comment, which may be one
/// never closed): the comment is closed before that line and opened again, which reads back as
/// the same text (comments one after another are joined by a line break).
fn comment(text: &str) -> String {
    let text = printable(text).replace('}', ")");
    let mut out = String::with_capacity(text.len() + 2);
    out.push('{');
    // Lines as the reader tells them: a LF, or a CR that no LF follows, ends one.
    let mut rest = text.as_str();
    loop {
        let Some(end) = rest.find(['\n', '\r']) else {
            out.push_str(rest);
            break;
        };
        let ending = if rest[end..].starts_with("\r\n") {
            2
        } else {
            1
        };
        out.push_str(&rest[..end]);
        let next = &rest[end + ending..];
        let line = &next[..next.find(['\n', '\r']).unwrap_or(next.len())];
        if crate::pgn::is_tag_line(line.as_bytes()) {
            out.push('}');
            out.push_str(&rest[end..end + ending]);
            out.push('{');
        } else {
            out.push_str(&rest[end..end + ending]);
        }
        rest = next;
    }
    out.push('}');
    out
}

/// `text` without control characters (NUL padding and the like), line breaks and tabs kept.
fn printable(text: &str) -> String {
    text.chars()
        .filter(|&c| !c.is_control() || matches!(c, '\n' | '\t' | '\r'))
        .collect()
}

fn has_control(text: &str) -> bool {
    text.chars()
        .any(|c| c.is_control() && !matches!(c, '\n' | '\t' | '\r'))
}

/// A tag's name as PGN can hold it: no spaces, quotes, brackets or control characters.
fn tag_name(name: &str) -> String {
    name.chars()
        .filter(|&c| !c.is_control() && !c.is_whitespace() && !matches!(c, '"' | '[' | ']'))
        .collect()
}

/// Whether any node of the tree satisfies `test`.
fn any_node(line: &[Node], test: &dyn Fn(&Node) -> bool) -> bool {
    line.iter()
        .any(|n| test(n) || n.variations().iter().any(|v| any_node(v, test)))
}

/// Options for PGN.
#[derive(Copy, Clone, Debug)]
pub struct PgnOptions {
    /// The notation of the moves.
    pub notation: Notation,
    /// The file encoding (UTF-8 or GBK; others are written as asked).
    pub encoding: Encoding,
}

impl Default for PgnOptions {
    fn default() -> PgnOptions {
        PgnOptions {
            notation: Notation::Chinese(xq_notation::ChineseStyle::default()),
            encoding: Encoding::Utf8,
        }
    }
}

/// Writes games as XQ PGN, variations and comments kept.
pub fn write_pgn(games: &[Game], options: PgnOptions) -> Written {
    let mut out = String::new();
    let mut dropped = Vec::new();
    for (g, game) in games.iter().enumerate() {
        let (text, kept, unwritable) = pgn_game(game, options.notation);
        out.push_str(&text);
        out.push('\n');
        if !unwritable.is_empty() {
            let shown: Vec<String> = unwritable
                .iter()
                .take(3)
                .map(|t| format!("{t:?}"))
                .collect();
            dropped.push(format!(
                "game {}: {} move(s) kept as written whose text PGN cannot hold as one move (spaces, brackets, a result …: {}{}): they read back as other moves",
                g + 1,
                unwritable.len(),
                shown.join(", "),
                if unwritable.len() > 3 { ", …" } else { "" }
            ));
        }
        // Moves that do not replay are written as the record writes them: said when that is
        // not in the notation asked for (a WXF file holding Chinese). JSON keeps every move's
        // text as read, and needs no word.
        if let Some(said) = said_of(&kept) {
            dropped.push(format!(
                "game {}: {said} kept as written, not in {}",
                g + 1,
                options.notation.name()
            ));
        }
    }
    let controls = |g: &Game| {
        g.tags.iter().any(|(_, v)| has_control(v))
            || g.comment.as_deref().is_some_and(has_control)
            || any_node(&g.moves, &|n: &Node| {
                n.comment().is_some_and(has_control) || n.before().is_some_and(has_control)
            })
    };
    if games
        .iter()
        .any(|g| g.tags.iter().any(|(k, _)| tag_name(k) != *k))
    {
        dropped.push(
            "spaces, quotes, brackets and control characters in tag names (a tag without a name is left out)"
                .to_owned(),
        );
    }
    if games.iter().any(controls) {
        dropped.push("control characters in tags and comments".to_owned());
    }
    let closing_brace = |g: &Game| {
        g.comment.as_deref().is_some_and(|c| c.contains('}'))
            || any_node(&g.moves, &|n: &Node| {
                n.comment().is_some_and(|c| c.contains('}'))
                    || n.before().is_some_and(|c| c.contains('}'))
            })
    };
    if games.iter().any(closing_brace) {
        dropped.push("} in comments (a PGN comment ends at the first }; written as ))".to_owned());
    }
    let odd_glyphs: usize = games
        .iter()
        .map(|g| {
            crate::game::count_nodes(&g.moves, &|n| {
                n.glyphs()
                    .is_some_and(|g| g.split_whitespace().any(|t| !crate::game::is_glyph(t)))
            })
        })
        .sum();
    if odd_glyphs > 0 {
        dropped.push(format!(
            "{odd_glyphs} move(s) with glyphs that are no PGN glyph ($ and a number, or ! and ? marks): left out"
        ));
    }
    if games
        .iter()
        .any(|g| g.tags.iter().any(|(k, _)| k.eq_ignore_ascii_case("FEN")))
    {
        dropped.push(
            "tags named FEN (a PGN FEN tag is the start position: the game's own is written)"
                .to_owned(),
        );
    }
    if games
        .iter()
        .any(|g| g.tags.iter().any(|(_, v)| v.contains(['\r', '\n'])))
    {
        dropped.push(
            "line breaks in tag values (a PGN tag is one line; they became spaces)".to_owned(),
        );
    }
    let bytes = encode(&out, options.encoding).into_owned();
    if options.encoding != Encoding::Utf8
        && options.encoding != Encoding::Utf16Le
        && options.encoding != Encoding::Utf16Be
    {
        let back = crate::encoding::decode(&bytes, options.encoding);
        if back != out {
            dropped.push(format!(
                "characters that {} cannot hold (written as numeric references)",
                options.encoding.name()
            ));
        }
    }
    Written { bytes, dropped }
}

/// One game in PGN, and for each line that stops replaying, its first such ply and how many
/// moves from it on are written as the record writes them in another notation than `notation`.
fn pgn_game(game: &Game, notation: Notation) -> (String, Vec<(usize, usize)>, Vec<String>) {
    let mut out = String::new();
    // A tag is one line: line breaks in a value become spaces (said by write_pgn).
    let quote = |v: &str| {
        printable(v)
            .replace(['\r', '\n'], " ")
            .replace('\\', "\\\\")
            .replace('"', "\\\"")
    };
    if game.tag("Game").is_none() {
        out.push_str("[Game \"Chinese Chess\"]\n");
    }
    for (k, v) in &game.tags {
        let name = tag_name(k);
        // The moves are written anew in `notation`: their Format tag is this writer's (below),
        // never the one the game was read with. The start position is the game's `fen` (below),
        // never a tag of that name (which readers take for it: another game).
        if !name.is_empty()
            && !name.eq_ignore_ascii_case("Format")
            && !name.eq_ignore_ascii_case("FEN")
        {
            let _ = writeln!(out, "[{name} \"{}\"]", quote(v));
        }
    }
    if game.tag("Result").is_none() {
        out.push_str("[Result \"*\"]\n");
    }
    if let Some(fen) = &game.fen {
        let _ = writeln!(out, "[FEN \"{}\"]", quote(fen));
    }
    match notation {
        Notation::Wxf => out.push_str("[Format \"WXF\"]\n"),
        Notation::Iccs | Notation::Ucci => out.push_str("[Format \"ICCS\"]\n"),
        // xqbase's tag knows Chinese, WXF and ICCS; UCI is said too (xq reads it), as its moves
        // that name no rank 10 read as ICCS moves, another game. SAN is told by its moves.
        Notation::Uci => out.push_str("[Format \"UCI\"]\n"),
        Notation::Chinese(_) | Notation::San => {}
    }
    out.push('\n');
    if let Some(c) = &game.comment {
        out.push_str(&comment(c));
        out.push('\n');
    }
    let start = start_position(game).ok().map(|(p, _)| p);
    let first_black = start.as_ref().is_some_and(|p| p.turn() == Color::Black);
    let mut writer = PgnLines {
        black_first: first_black,
        // Numbered on from the start position's move number, as its FEN gives it.
        first_number: start.as_ref().map_or(1, |p| p.fullmoves().max(1) as usize),
        notation,
        tokens: Vec::new(),
        kept: Vec::new(),
        unwritable: Vec::new(),
    };
    writer.line(&game.moves, start, 0, true, None);
    // A round per line on the main line; variations and comments stay in place.
    let mut line = String::new();
    for token in writer.tokens {
        if token == "\n" {
            out.push_str(line.trim_end());
            out.push('\n');
            line.clear();
        } else {
            line.push_str(&token);
            line.push(' ');
        }
    }
    out.push_str(line.trim_end());
    if !line.trim().is_empty() {
        out.push(' ');
    }
    // Only a result token ends the movetext (a Result tag holding anything else stays a tag).
    out.push_str(game.outcome().map_or("*", Outcome::pgn));
    out.push('\n');
    (out, writer.kept, writer.unwritable)
}

/// The movetext of a game being written: its tokens, and the moves written as the record writes
/// them (see [`pgn_game`]).
struct PgnLines {
    black_first: bool,
    /// The number of the first move.
    first_number: usize,
    notation: Notation,
    tokens: Vec<String>,
    kept: Vec<(usize, usize)>,
    /// The texts of moves kept as written that do not read back as one move (see
    /// [`one_pgn_move`]).
    unwritable: Vec<String>,
}

impl PgnLines {
    /// The tokens of `line`, whose first move is ply `first` (0-based), played from `pos`
    /// (`None`: lost, the line being stopped at the entry `stopped` of `kept`).
    fn line(
        &mut self,
        line: &[Node],
        mut pos: Option<Position>,
        first: usize,
        main: bool,
        mut stopped: Option<usize>,
    ) {
        let black_first = usize::from(self.black_first);
        let first_number = self.first_number;
        let number = |ply: usize| (ply + black_first) / 2 + first_number;
        let is_black = |ply: usize| (ply + black_first) % 2 == 1;
        let mut need_number = true;
        for (i, node) in line.iter().enumerate() {
            let ply = first + i;
            if let Some(before) = node.before() {
                self.tokens.push(comment(before));
                need_number = true;
            }
            if !is_black(ply) {
                self.tokens.push(format!("{}.", number(ply)));
            } else if need_number {
                self.tokens.push(format!("{}...", number(ply)));
            }
            let alternatives = pos.clone();
            let text = move_text(pos.as_ref(), node, self.notation);
            if !replays(pos.as_ref(), node) {
                if !one_pgn_move(&text) {
                    self.unwritable.push(text.clone());
                }
                let k = *stopped.get_or_insert_with(|| {
                    self.kept.push((ply + 1, 0));
                    self.kept.len() - 1
                });
                self.kept[k].1 += usize::from(!written_in(node, self.notation));
            }
            self.tokens.push(with_glyphs(text, node));
            need_number = false;
            if let Some(c) = node.comment() {
                self.tokens.push(comment(c));
                need_number = true;
            }
            for variation in node.variations() {
                self.tokens.push("(".to_owned());
                // Alternatives to a move of a lost line are lost with it.
                let lost = stopped.filter(|_| alternatives.is_none());
                self.line(variation, alternatives.clone(), ply, false, lost);
                self.tokens.push(")".to_owned());
                need_number = true;
            }
            play(&mut pos, node);
            if main && is_black(ply) && node.variations().is_empty() {
                self.tokens.push("\n".to_owned());
                need_number = true;
            }
        }
    }
}

/// Whether `text`, a move kept as written, reads back from PGN as one move of that text: not a
/// text with spaces, brackets or braces, nor a result, a move number or a glyph (a JSON record
/// may hold any text as a move).
fn one_pgn_move(text: &str) -> bool {
    let pgn = format!("1. {text} *\n");
    crate::pgn::PgnReader::new(&pgn)
        .next()
        .and_then(Result::ok)
        .is_some_and(|g| {
            g.moves.len() == 1
                && g.moves[0].text.as_deref() == Some(text)
                && g.moves[0].glyphs().is_none()
                && g.comment.is_none()
                && g.moves[0].comment().is_none()
        })
}

/// The system of a notation's moves (what `xq_notation::parse` tells of a move's text).
fn system_of(notation: Notation) -> System {
    match notation {
        Notation::Chinese(_) => System::Chinese,
        Notation::Wxf => System::Wxf,
        Notation::Iccs | Notation::Ucci | Notation::Uci => System::Coordinate,
        Notation::San => System::San,
    }
}

/// Whether `node`, written as the record writes it ([`move_text`]), is in `notation`: its text
/// reads in that notation's system, or it has none and is written as its coordinates. Never in
/// UCI: whether a coordinate text counts UCI's ranks is not known, and xq's UCI Format tag makes
/// readers take it so.
fn written_in(node: &Node, notation: Notation) -> bool {
    let system = system_of(notation);
    notation != Notation::Uci
        && match node.text.as_deref() {
            Some(text) => xq_notation::parse(text).is_ok_and(|t| t.system() == system),
            None => system == System::Coordinate,
        }
}

/// Writes the main lines as CSV: one row per move (game, ply, side, iccs, chinese, wxf,
/// fen_before, comment), the game numbered from 1. Variations, comments before moves and moves
/// that do not replay are dropped (and said).
pub fn write_csv(games: &[Game]) -> Written {
    write_csv_part(games, 0, true)
}

/// As [`write_csv`], for games numbered from `first + 1` (a file written a batch at a time), the
/// header only if `header`.
pub fn write_csv_part(games: &[Game], first: usize, header: bool) -> Written {
    let mut csv = csv::Writer::from_writer(Vec::new());
    let mut rows = vec![
        [
            "game",
            "ply",
            "side",
            "iccs",
            "chinese",
            "wxf",
            "fen_before",
            "comment",
        ]
        .map(str::to_owned),
    ];
    let (mut variations, mut variation_comments, mut befores) = (0, 0, 0);
    let mut dropped = Vec::new();
    let mut tags: Vec<&str> = Vec::new();
    for (name, value) in games.iter().flat_map(|g| &g.tags) {
        if !value.trim().is_empty() && !tags.contains(&name.as_str()) {
            tags.push(name);
        }
    }
    if !tags.is_empty() {
        dropped.push(format!(
            "tags CSV has no column for: {}",
            xq_core::text::visible(&tags.join(", "))
        ));
    }
    for (g, game) in games.iter().enumerate() {
        // (Comments before variations' first moves are said with their variations.)
        let (game, cut, _) = playable_after_moves(game);
        if let Some(cut) = cut {
            // (Numbered in `games`, as every writer numbers what it says of a game.)
            dropped.push(format!("game {}: {cut}", g + 1));
        }
        befores += usize::from(game.comment.is_some());
        let (lines, inside) = game.off_main_line();
        variations += lines;
        variation_comments += inside;
        let mut pos = start_position(&game).ok().map(|(p, _)| p);
        for (i, node) in game.moves.iter().enumerate() {
            befores += usize::from(node.before().is_some());
            let (Some(p), Some(m)) = (pos.as_ref(), node.m) else {
                break;
            };
            rows.push([
                (first + g + 1).to_string(),
                (i + 1).to_string(),
                p.turn().name().to_owned(),
                m.to_string(),
                write_move(
                    p,
                    m,
                    Notation::Chinese(xq_notation::ChineseStyle::default()),
                ),
                write_move(p, m, Notation::Wxf),
                p.fen(),
                xq_core::text::csv_cell(node.comment().unwrap_or_default()).into_owned(),
            ]);
            play(&mut pos, node);
        }
    }
    for row in rows.iter().skip(usize::from(!header)) {
        // Writing to memory cannot fail.
        let _ = csv.write_record(row);
    }
    if variations > 0 {
        dropped.push(format!(
            "{variations} variation(s){}: CSV holds the main line only",
            with_comments(variation_comments)
        ));
    }
    if befores > 0 {
        dropped.push(format!(
            "{befores} comment(s) before a move (CSV has a comment after each move only)"
        ));
    }
    say_glyphs(games, "CSV", &mut dropped);
    Written {
        bytes: csv.into_inner().unwrap_or_default(),
        dropped,
    }
}

/// ` with N comment(s)` when variations dropped hold comments.
fn with_comments(n: usize) -> String {
    if n == 0 {
        String::new()
    } else {
        format!(" with {n} comment(s)")
    }
}

/// Writes the main lines as a move list, a game per line (FEN, moves, result). Variations and
/// comments are dropped (and said).
pub fn write_txt(games: &[Game], notation: Notation) -> Written {
    let mut out = String::new();
    let (mut variations, mut variation_comments, mut comments) = (0, 0, 0);
    let mut read_as_iccs = 0;
    let mut reader = xq_notation::Reader::new(xq_notation::Mode::Lenient);
    for game in games {
        let mut pos = start_position(game).ok().map(|(p, _)| p);
        let mut moves = Vec::new();
        comments += game.comments_on_main_line();
        let (lines, inside) = game.off_main_line();
        variations += lines;
        variation_comments += inside;
        for node in &game.moves {
            moves.push(move_text(pos.as_ref(), node, notation));
            play(&mut pos, node);
        }
        if notation == Notation::Uci
            && !moves.is_empty()
            && !reads_as_uci(game, &moves, &mut reader)
        {
            read_as_iccs += 1;
        }
        // (With their annotation glyphs, which a move list reads as PGN does.)
        let written: Vec<String> = moves
            .into_iter()
            .zip(&game.moves)
            .map(|(text, node)| with_glyphs(text, node))
            .collect();
        out.push_str(&crate::txt::write_txt_line(game, &written));
        out.push('\n');
    }
    let mut dropped = Vec::new();
    if read_as_iccs > 0 {
        dropped.push(format!(
            "which ranks the moves count, in {read_as_iccs} game(s): their UCI moves name no rank 10 and replay as ICCS moves too, as a move list is read back (another game); PGN says UCI in its Format tag"
        ));
    }
    if variations > 0 {
        dropped.push(format!(
            "{variations} variation(s){}: a move list holds the main line only",
            with_comments(variation_comments)
        ));
    }
    if comments > 0 {
        dropped.push(format!("{comments} comment(s)"));
    }
    if games.iter().any(|g| {
        g.tags
            .iter()
            .any(|(k, v)| !k.eq_ignore_ascii_case("Result") && !v.is_empty())
    }) {
        dropped.push("the tags (a move list has none)".to_owned());
    }
    Written {
        bytes: out.into_bytes(),
        dropped,
    }
}

/// Whether the move list `moves`, written in UCI for `game`'s main line, reads back as UCI moves
/// (a reader tells UCI from ICCS by a rank 10, else by which replays further: see
/// [`replay`](crate::replay::replay)).
fn reads_as_uci(game: &Game, moves: &[String], reader: &mut xq_notation::Reader) -> bool {
    let mut written = Game {
        fen: game.fen.clone(),
        moves: moves.iter().map(Node::text).collect(),
        ..Game::default()
    };
    crate::replay::replay(&mut written, reader).uci
}

/// `game` with every line cut before its first move that does not replay (formats that store
/// coordinates cannot hold such a move, nor what follows it), and what was cut, in words.
pub fn playable(game: &Game) -> (Game, Option<String>) {
    playable_owned(game.clone())
}

/// [`playable`] for a game of one's own: cut in place, not copied again.
fn playable_owned(mut game: Game) -> (Game, Option<String>) {
    let said = not_replaying(&game);
    if said.is_some() {
        let start = start_position(&game).ok().map(|(p, _)| p);
        cut_unplayable(&mut game.moves, start);
    }
    (game, said)
}

/// `game` as a format holding comments after moves only writes it: each comment written
/// before a move made the end of the comment of the move before it
/// ([`Game::move_comments_after_moves`]), then the moves that do not replay cut
/// ([`playable`], and what it says), in that order, so that a comment before a move that does
/// not replay stays with the move before it; and how many comments are dropped: those before
/// a variation's first move, which has no move before it in its line (whether or not the
/// variation replays).
fn playable_after_moves(game: &Game) -> (Game, Option<String>, usize) {
    let mut moved = game.clone();
    moved.move_comments_after_moves();
    let befores = crate::game::count_nodes(&moved.moves, &|n| n.before().is_some());
    let (played, cut) = playable_owned(moved);
    (played, cut, befores)
}

/// What a format holding comments after moves only says of the `befores` comments
/// [`playable_after_moves`] found it cannot hold.
fn said_befores(befores: usize, format: &str) -> Option<String> {
    (befores > 0).then(|| {
        format!(
            "{befores} comment(s) written before a variation's first move ({format} holds comments after moves)"
        )
    })
}

/// Cuts `line` (played from `pos`) before its first move that does not replay, and each of its
/// variations likewise.
fn cut_unplayable(line: &mut Vec<Node>, mut pos: Option<Position>) {
    for (i, node) in line.iter_mut().enumerate() {
        if !replays(pos.as_ref(), node) {
            line.truncate(i);
            return;
        }
        for v in node.variations_mut() {
            cut_unplayable(v, pos.clone());
        }
        // A variation whose first move does not replay is gone whole (an empty one is no
        // variation: XQF would write its record and not its move, DhtmlXQ an empty branch).
        let mut variations = node.take_variations();
        variations.retain(|v| !v.is_empty());
        node.set_variations(variations);
        play(&mut pos, node);
    }
}

/// Whether `node`'s move replays on `pos` (`None`: the line's position is lost).
fn replays(pos: Option<&Position>, node: &Node) -> bool {
    match (pos, node.m) {
        (Some(p), Some(m)) => p.is_legal(m),
        _ => false,
    }
}

/// The moves of `game` from each line's first move that does not replay on, in words (`None`
/// when every move replays): `3 move(s) from the first move that does not replay on (at ply 19)`.
pub fn not_replaying(game: &Game) -> Option<String> {
    fn walk(line: &[Node], mut pos: Option<Position>, first: usize, out: &mut Vec<(usize, usize)>) {
        for (i, node) in line.iter().enumerate() {
            if !replays(pos.as_ref(), node) {
                out.push((first + i + 1, line[i..].iter().map(count).sum()));
                return;
            }
            for v in node.variations() {
                walk(v, pos.clone(), first + i, out);
            }
            play(&mut pos, node);
        }
    }
    fn count(node: &Node) -> usize {
        1 + node.variations().iter().flatten().map(count).sum::<usize>()
    }
    let start = start_position(game).ok().map(|(p, _)| p);
    let mut stops = Vec::new();
    walk(&game.moves, start, 0, &mut stops);
    said_of(&stops)
}

/// Moves counted from the first move that does not replay of some lines (each its ply and the
/// count), in words (`None` when none is counted).
fn said_of(stops: &[(usize, usize)]) -> Option<String> {
    let counted: Vec<&(usize, usize)> = stops.iter().filter(|(_, n)| *n > 0).collect();
    if counted.is_empty() {
        return None;
    }
    let moves: usize = counted.iter().map(|(_, n)| n).sum();
    let plies: Vec<String> = counted.iter().map(|(ply, _)| ply.to_string()).collect();
    Some(format!(
        "{moves} move(s) from the first move that does not replay on (at ply {})",
        plies.join(", ")
    ))
}

/// Writes one game as XQF (cut before moves that do not replay).
pub fn write_xqf(game: &Game, version: crate::xqf::XqfVersion) -> Written {
    let (played, cut, befores) = playable_after_moves(game);
    let mut dropped = crate::xqf::xqf_losses(&played);
    dropped.extend(said_befores(befores, "XQF"));
    dropped.extend(cut);
    say_glyphs(std::slice::from_ref(game), "XQF", &mut dropped);
    let game = played;
    Written {
        bytes: crate::xqf::write_xqf(&game, version),
        dropped,
    }
}

/// Writes games as DhtmlXQ records (one after the other; cut before moves that do not replay).
pub fn write_dhtmlxq(games: &[Game]) -> Written {
    let mut dropped = Vec::new();
    let mut befores = 0;
    let mut text = String::new();
    for (g, game) in games.iter().enumerate() {
        let (game, cut, dropped_befores) = playable_after_moves(game);
        befores += dropped_befores;
        text.push_str(&crate::dhtmlxq::write_dhtmlxq(&game));
        dropped.extend(crate::dhtmlxq::dhtmlxq_tag_losses(&game));
        // (What is said of one game is numbered, as every writer numbers it.)
        let number = |said: String| format!("game {}: {said}", g + 1);
        dropped.extend(crate::dhtmlxq::dhtmlxq_start_loss(&game).map(number));
        dropped.extend(cut.map(number));
    }
    dropped.extend(said_befores(befores, "DhtmlXQ"));
    say_glyphs(games, "DhtmlXQ", &mut dropped);
    Written {
        bytes: text.into_bytes(),
        dropped,
    }
}

/// How many moves of `games` carry annotation glyphs ([`Node::glyphs`]): said by the writers of
/// formats that have no place for them (PGN and JSON keep them).
pub fn moves_with_glyphs(games: &[Game]) -> usize {
    games
        .iter()
        .map(|g| crate::game::count_nodes(&g.moves, &|n| n.glyphs().is_some()))
        .sum()
}

/// Says the annotation glyphs of `games` in `dropped`, for a format that has no place for them.
fn say_glyphs(games: &[Game], format: &str, dropped: &mut Vec<String>) {
    let n = moves_with_glyphs(games);
    if n > 0 {
        dropped.push(format!(
            "{n} move(s) with annotation glyphs (!?, $14 …): {format} has no place for them"
        ));
    }
}

/// Writes games as our JSON (nothing is dropped).
pub fn write_json(games: &[Game]) -> Written {
    Written {
        bytes: crate::json::write_json(games).into_bytes(),
        dropped: Vec::new(),
    }
}

/// Fills in the coordinates of every text move that replays (writers need them).
pub fn resolve_all(game: &mut Game) {
    let mut reader = xq_notation::Reader::new(xq_notation::Mode::Lenient);
    let _ = crate::replay::replay(game, &mut reader);
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    /// UCI moves that name no rank 10 also replay as ICCS moves (a3b3 is ICCS's a3b3 and UCI's
    /// a2b2): PGN says UCI in its Format tag, which replaying honours; a move list cannot, and
    /// says so when its game would read back as another; a UCI game with a rank 10 needs neither.
    #[test]
    fn uci_moves_read_back_as_the_same_moves() {
        let mut reader = xq_notation::Reader::new(xq_notation::Mode::Lenient);
        let game = |fen: &str, moves: &str| {
            let mut game = Game {
                fen: Some(fen.to_owned()),
                moves: moves.split(' ').map(Node::text).collect(),
                ..Game::default()
            };
            let mut reader = xq_notation::Reader::new(xq_notation::Mode::Lenient);
            assert!(crate::replay::replay(&mut game, &mut reader).ok());
            game
        };
        let moves = |game: &Game| game.moves.iter().map(|n| n.m).collect::<Vec<_>>();
        let ambiguous = game("4k2r1/7r1/9/9/9/9/R8/R8/9/3K5 w - - 0 1", "a2b2 h8g8 b2c2");
        let told = game(xq_core::START_FEN, "h2e2 h9g7 h0g2");
        for (original, reads_as_iccs) in [(&ambiguous, true), (&told, false)] {
            let uci = PgnOptions {
                notation: Notation::Uci,
                ..PgnOptions::default()
            };
            let text =
                String::from_utf8(write_pgn(std::slice::from_ref(original), uci).bytes).unwrap();
            assert!(text.contains("[Format \"UCI\"]"), "{text}");
            let mut read = crate::pgn::PgnReader::new(&text).next().unwrap().unwrap();
            assert!(crate::replay::replay(&mut read, &mut reader).uci, "{text}");
            assert_eq!(moves(&read), moves(original), "{text}");
            assert_eq!(
                crate::replay::game_ranks(&read, &mut reader),
                xq_notation::Ranks::Uci
            );
            let list = write_txt(std::slice::from_ref(original), Notation::Uci);
            let said = list
                .dropped
                .iter()
                .any(|d| d.contains("UCI moves name no rank 10"));
            assert_eq!(said, reads_as_iccs, "{:?}", list.dropped);
        }
        // The tag is taken only when the moves cannot tell: a rank 0 is ICCS's whatever it says.
        let text = "[Format \"UCI\"]\n\n1. h2e2 h9g7 2. h0g2 *\n";
        let mut read = crate::pgn::PgnReader::new(text).next().unwrap().unwrap();
        let replayed = crate::replay::replay(&mut read, &mut reader);
        assert!(replayed.ok() && !replayed.uci, "{replayed:?}");
        assert_eq!(
            crate::replay::game_ranks(&read, &mut reader),
            xq_notation::Ranks::Iccs
        );
        // A move kept as written (it does not replay) in a game written in UCI is said: its
        // ranks are not known, and the tag makes readers take them as UCI's.
        let mut bad = game(xq_core::START_FEN, "h2e2 h9g7");
        bad.moves.push(Node::text("a1a2"));
        let uci = PgnOptions {
            notation: Notation::Uci,
            ..PgnOptions::default()
        };
        let written = write_pgn(&[bad], uci);
        assert!(
            written
                .dropped
                .iter()
                .any(|d| d.contains("kept as written, not in uci")),
            "{:?}",
            written.dropped
        );
    }

    /// XQF and DhtmlXQ hold comments after moves only: a comment written after a variation
    /// (before the line's next move) becomes the end of the comment of the move before it, one
    /// before the game's first move the end of the game's comment; only one before a
    /// variation's first move has no such place, and is said.
    #[test]
    fn comments_before_moves_go_after_the_move_before_them() {
        let text = "{opening} 1. h2e2 {centre} (1. b2e2 {a} (1. b0c2) {b} 1... h9g7) \
                    {after} 1... h9g7 ({why} 1... b9c7) *\n";
        let mut game = crate::pgn::PgnReader::new(text).next().unwrap().unwrap();
        resolve_all(&mut game);
        let check = |read: &Game, said: &[String]| {
            assert_eq!(read.moves[0].comment(), Some("centre\nafter"));
            let first = &read.moves[0].variations()[0];
            assert_eq!(first[0].comment(), Some("a\nb"));
            assert_eq!(first[1].before(), None);
            assert!(read.moves[1].before().is_none());
            assert!(
                said.iter()
                    .any(|d| d.starts_with("1 comment(s) written before a variation's first")),
                "{said:?}"
            );
        };
        let xqf = write_xqf(&game, crate::xqf::XqfVersion::Encrypted);
        let read = crate::xqf::read_xqf(&xqf.bytes).unwrap();
        check(&read, &xqf.dropped);
        assert_eq!(read.comment.as_deref(), Some("opening"));
        let ubb = write_dhtmlxq(std::slice::from_ref(&game));
        let read = crate::dhtmlxq::read_dhtmlxq(std::str::from_utf8(&ubb.bytes).unwrap())
            .remove(0)
            .unwrap();
        check(&read, &ubb.dropped);
    }

    /// A comment before a move that does not replay stays with the move before it in every
    /// format that holds comments after moves only (the move is cut, the comment is not); CSV
    /// keeps a comment after a variation on the move the variation hangs on; a comment before
    /// the first move of a variation that does not replay is said as dropped.
    #[test]
    fn comments_before_moves_outlive_the_moves_cut() {
        let read = |text: &str| {
            let mut game = crate::pgn::PgnReader::new(text).next().unwrap().unwrap();
            resolve_all(&mut game);
            game
        };
        // i9h9 does not replay (the horse stands on h9).
        let game = read("1. h2e2 (1. b2e2) {c} 1... i9h9 *\n");
        let xqf = write_xqf(&game, crate::xqf::XqfVersion::Plain);
        let back = crate::xqf::read_xqf(&xqf.bytes).unwrap();
        assert_eq!(back.moves.len(), 1);
        assert_eq!(back.moves[0].comment(), Some("c"));
        let ubb = write_dhtmlxq(std::slice::from_ref(&game));
        let back = crate::dhtmlxq::read_dhtmlxq(std::str::from_utf8(&ubb.bytes).unwrap())
            .remove(0)
            .unwrap();
        assert_eq!(back.moves[0].comment(), Some("c"));
        for game in [&game, &read("1. h2e2 (1. b2e2) {c} 1... h9g7 *\n")] {
            let csv = write_csv(std::slice::from_ref(game));
            let text = String::from_utf8(csv.bytes).unwrap();
            assert!(text.lines().nth(1).unwrap().ends_with(",c"), "{text}");
            assert!(
                csv.dropped.iter().all(|d| !d.contains("before a move")),
                "{:?}",
                csv.dropped
            );
        }
        // A variation that does not replay takes the comment before it with it: said.
        let game = read("1. h2e2 ({v} 1. e3e5) h9g7 *\n");
        for dropped in [
            write_dhtmlxq(std::slice::from_ref(&game)).dropped,
            write_xqf(&game, crate::xqf::XqfVersion::Plain).dropped,
        ] {
            assert!(
                dropped
                    .iter()
                    .any(|d| d.starts_with("1 comment(s) written before a variation's first")),
                "{dropped:?}"
            );
        }
    }

    /// Annotation glyphs are kept with their moves, in the order written: marks on a move or
    /// standing alone after it, numeric glyphs after it (glued to a mark or to the next move
    /// too), in a variation too; PGN and JSON write them back as read, the formats without a
    /// place for them say how many moves had some. One before any move is said; `$` without a
    /// number is no glyph (read as a move, which fails).
    #[test]
    fn annotation_glyphs_are_kept_or_said() {
        let text = "1. 炮二平五!? 马８进７ $14! 2. 马二进三？ ! ? (2. 兵七进一 $2) $3马８进７ *\n";
        let mut game = crate::pgn::PgnReader::new(text).next().unwrap().unwrap();
        resolve_all(&mut game);
        let glyphs = |g: &Game| -> Vec<Option<String>> {
            let mut all: Vec<_> = g
                .moves
                .iter()
                .map(|n| n.glyphs().map(str::to_owned))
                .collect();
            all.push(g.moves[2].variations()[0][0].glyphs().map(str::to_owned));
            all
        };
        let read = [
            Some("!?"),
            Some("$14 !"),
            Some("？ ! ? $3"),
            None,
            Some("$2"),
        ];
        assert_eq!(glyphs(&game), read.map(|g| g.map(str::to_owned)));
        assert_eq!(game.moves.len(), 4);
        assert!(game.unread.is_empty(), "{:?}", game.unread);
        let pgn =
            String::from_utf8(write_pgn(&[game.clone()], PgnOptions::default()).bytes).unwrap();
        assert!(pgn.contains("炮二平五!? 马８进７ $14 !"), "{pgn}");
        let json = String::from_utf8(write_json(&[game.clone()]).bytes).unwrap();
        for written in [pgn, json] {
            let back =
                crate::read(written.as_bytes(), None, crate::ReadOptions::default()).unwrap();
            let back = back.games[0].as_ref().unwrap();
            assert_eq!(glyphs(back), glyphs(&game), "{written}");
        }
        // A move list keeps the main line's, as PGN does.
        let list = write_txt(std::slice::from_ref(&game), Notation::Iccs);
        assert!(
            list.dropped.iter().all(|d| !d.contains("glyph")),
            "{:?}",
            list.dropped
        );
        let back = crate::txt::read_txt(std::str::from_utf8(&list.bytes).unwrap());
        let back = back[0].as_ref().unwrap();
        let main = |g: &Game| {
            g.moves
                .iter()
                .map(|n| n.glyphs().map(str::to_owned))
                .collect::<Vec<_>>()
        };
        assert_eq!(main(back), main(&game));
        assert_eq!(moves_with_glyphs(std::slice::from_ref(&game)), 4);
        for dropped in [
            write_xqf(&game, crate::xqf::XqfVersion::Plain).dropped,
            write_dhtmlxq(std::slice::from_ref(&game)).dropped,
            write_csv(std::slice::from_ref(&game)).dropped,
        ] {
            assert!(
                dropped
                    .iter()
                    .any(|d| d.starts_with("4 move(s) with annotation glyphs")),
                "{dropped:?}"
            );
        }
        let first = crate::pgn::PgnReader::new("$1 1. 炮二平五 *\n")
            .next()
            .unwrap()
            .unwrap();
        assert_eq!(first.unread.len(), 1, "{:?}", first.unread);
        let junk = crate::pgn::PgnReader::new("1. 炮二平五 $abc *\n")
            .next()
            .unwrap()
            .unwrap();
        assert_eq!(junk.moves.len(), 2, "a move, which fails");
        // Text that is no glyph (as a JSON record may give) is never written into the moves.
        let mut odd = game.clone();
        odd.moves[0].set_glyphs(Some("!? {evil} ) 1-0 $7".to_owned()));
        let written = write_pgn(&[odd], PgnOptions::default());
        let pgn = String::from_utf8(written.bytes).unwrap();
        assert!(
            pgn.contains("炮二平五!? $7 马８进７") && !pgn.contains("evil"),
            "{pgn}"
        );
        assert!(
            written.dropped.iter().any(|d| d.contains("no PGN glyph")),
            "{:?}",
            written.dropped
        );
        let json = r#"[{"moves": [{"text": "炮二平五", "glyphs": "good !? ) $1"}]}]"#;
        let read = crate::json::read_json(json).unwrap().remove(0);
        assert_eq!(read.moves[0].glyphs(), Some("!? $1"));
        assert_eq!(read.unread.len(), 1, "{:?}", read.unread);
    }

    /// A move kept as written whose text would read back from PGN as something else (two moves,
    /// a result, a comment) is said; one that reads back as itself is not.
    #[test]
    fn a_kept_move_pgn_cannot_hold_is_said() {
        let game = Game {
            moves: ["炮二平五", "Hello", "foo bar", "1-0", "{x}", "马８进７"]
                .into_iter()
                .map(Node::text)
                .collect(),
            ..Game::default()
        };
        let written = write_pgn(&[game], PgnOptions::default());
        let said: Vec<&String> = written
            .dropped
            .iter()
            .filter(|d| d.contains("cannot hold"))
            .collect();
        assert_eq!(said.len(), 1, "{:?}", written.dropped);
        assert!(
            said[0].contains("3 move(s)") && said[0].contains("\"foo bar\""),
            "{said:?}"
        );
        assert!(!said[0].contains("Hello"), "{said:?}");
    }

    /// A tag named FEN is never written as one (the start position is the game's own, which a
    /// reader takes from a FEN tag): dropped and said. Two FEN tags read: the last is the start
    /// position, the other said.
    #[test]
    fn a_fen_tag_is_not_written_beside_the_start_position() {
        let start = "4k4/9/9/9/9/9/9/9/9/R3K4 w - - 0 1";
        let mut game = Game {
            fen: Some(start.to_owned()),
            ..Game::default()
        };
        game.tags.push((
            "FEN".to_owned(),
            "4k4/9/9/9/9/9/9/9/9/4K3R w - - 0 1".to_owned(),
        ));
        let written = write_pgn(&[game], PgnOptions::default());
        let text = String::from_utf8(written.bytes).unwrap();
        assert_eq!(text.matches("[FEN ").count(), 1, "{text}");
        assert!(text.contains(start), "{text}");
        assert!(
            written.dropped.iter().any(|d| d.contains("FEN")),
            "{:?}",
            written.dropped
        );
        let two = "[FEN \"4k4/9/9/9/9/9/9/9/9/4K3R w - - 0 1\"]\n[FEN \"4k4/9/9/9/9/9/9/9/9/R3K4 w - - 0 1\"]\n\n1. a0a1 *\n";
        let read = crate::pgn::PgnReader::new(two).next().unwrap().unwrap();
        assert_eq!(read.fen.as_deref(), Some(start));
        assert_eq!(read.unread.len(), 1, "{:?}", read.unread);
        assert!(read.unread[0].contains("4K3R"), "{:?}", read.unread);
        // The same position written otherwise is no other; an empty FEN tag after one that
        // gives the position leaves it, and is said.
        for (second, fen, said) in [
            (
                "4k4/9/9/9/9/9/9/9/9/R3K4 w",
                "4k4/9/9/9/9/9/9/9/9/R3K4 w",
                0,
            ),
            ("", start, 1),
        ] {
            let text = format!("[FEN \"{start}\"]\n[FEN \"{second}\"]\n\n1. a0a1 *\n");
            let read = crate::pgn::PgnReader::new(&text).next().unwrap().unwrap();
            assert_eq!(read.fen.as_deref(), Some(fen), "{second}");
            assert_eq!(read.unread.len(), said, "{second}: {:?}", read.unread);
        }
    }

    /// Comments that quote tag lines read back as written (but for spaces that start such a
    /// line: comments are trimmed), the game's and a move's, the games after them whole.
    #[test]
    fn comments_holding_tag_lines_read_back() {
        let quoted = "quoting the header:\n[Round \"3\"]\r\n[Event \"x\"]  \nend";
        let mut game = crate::pgn::PgnReader::new("[Event \"a\"]\n\n1. h2e2 h9g7 *\n")
            .next()
            .unwrap()
            .unwrap();
        game.comment = Some(quoted.to_owned());
        game.moves[0].set_comment(Some(quoted.to_owned()));
        let written = write_pgn(&[game.clone(), game], PgnOptions::default());
        let text = String::from_utf8(written.bytes).unwrap();
        let read: Vec<Game> = crate::pgn::PgnReader::new(&text)
            .map(Result::unwrap)
            .collect();
        assert_eq!(read.len(), 2, "{text}");
        // (The line end before a line closed and opened again reads back as a LF.)
        let quoted = &quoted.replace("\r\n", "\n");
        for g in &read {
            assert_eq!(g.comment.as_deref(), Some(quoted.as_str()), "{text}");
            assert_eq!(g.moves[0].comment(), Some(quoted.as_str()), "{text}");
            assert_eq!(g.tag("Event"), Some("a"), "{text}");
        }
        // A CR alone ends a line too (DhtmlXQ comments may hold one): read back as a LF.
        let mut game = read[0].clone();
        game.moves[0].set_comment(Some("see\r[Round \"3\"]\rok".to_owned()));
        let text = String::from_utf8(write_pgn(&[game], PgnOptions::default()).bytes).unwrap();
        let back: Vec<Game> = crate::pgn::PgnReader::new(&text)
            .map(Result::unwrap)
            .collect();
        assert_eq!(back.len(), 1, "{text}");
        assert_eq!(back[0].moves[0].comment(), Some("see\n[Round \"3\"]\rok"));
    }
}
