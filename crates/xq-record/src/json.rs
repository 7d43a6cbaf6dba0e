//! Our own JSON: lossless, every field of the model (see `docs/records.md` for the schema).

use serde::{Deserialize, Serialize};

use crate::{
    error::{ReadError, ReadErrorKind},
    game::{Game, Node},
    pgn::MAX_DEPTH,
};

/// The document: a format marker, a version, and the games.
#[derive(Debug, Serialize, Deserialize)]
pub struct Document {
    /// Always `xq-games`.
    pub format: String,
    /// The schema version, 1.
    pub version: u32,
    /// The games.
    pub games: Vec<Game>,
}

/// Reads our JSON: a document, a list of games, or one game.
///
/// # Errors
/// Not JSON, or JSON that is not our schema (the message gives serde's line and column).
pub fn read_json(text: &str) -> Result<Vec<Game>, ReadError> {
    let bom = text.len() - text.trim_start_matches('\u{feff}').len();
    let text = &text[bom..];
    // Text that names our format (every document xq writes does), or starts as one of our games
    // or a list of them, is a damaged record when it cannot be read; other text that is not our
    // JSON is no record of ours.
    let kind = if text.contains("\"xq-games\"") || starts_as_a_game(text) {
        ReadErrorKind::Syntax
    } else {
        ReadErrorKind::UnknownFormat
    };
    // serde's message, placed in the text read (line, and the byte of the column) when known.
    let as_error = |e: serde_json::Error| {
        let message = e.to_string();
        let place = format!(" at line {} column {}", e.line(), e.column());
        let message = message.strip_suffix(&place).unwrap_or(&message);
        let err = ReadError::new(kind, format!("not an xq JSON record: {message}"));
        match e.line() {
            0 => err,
            line => err
                .on_line(line as u32)
                .at(bom + byte_at(text, line, e.column())),
        }
    };
    // A value that does not fit the schema: read again from the text, which knows where it is.
    let misfit = |e: serde_json::Error, again: Option<serde_json::Error>| {
        as_error(again.filter(|a| a.line() > 0).unwrap_or(e))
    };
    let depth = nesting(text);
    if depth > MAX_JSON_DEPTH {
        return Err(ReadError::new(
            ReadErrorKind::TooDeep,
            format!(
                "JSON nested {depth} levels deep: a game whose variations nest {MAX_DEPTH} deep (the most any reader of xq accepts) takes {MAX_JSON_DEPTH}"
            ),
        ));
    }
    let value = parse(text).map_err(as_error)?;
    let not_a_game = |v: &serde_json::Value| {
        let fields = ["tags", "fen", "comment", "moves"];
        !v.as_object()
            .is_some_and(|o| fields.iter().any(|f| o.contains_key(*f)))
    };
    let refuse = |what: &str| {
        Err(ReadError::new(
            ReadErrorKind::UnknownFormat,
            format!(
                "not an xq JSON record: {what} has none of the fields of a game (tags, fen, comment, moves) nor those of a document (format, version, games)"
            ),
        ))
    };
    if let Some(list) = value.get("games") {
        let unknown = unknown_keys(list.as_array().map_or(&[], Vec::as_slice));
        let doc: Document =
            from_value(value).map_err(|e| misfit(e, from_text::<Document>(text)))?;
        if doc.format != "xq-games" {
            return Err(ReadError::new(
                ReadErrorKind::UnknownFormat,
                format!("JSON format {:?} is not xq-games", doc.format),
            ));
        }
        if doc.version != 1 {
            return Err(ReadError::new(
                ReadErrorKind::Unsupported,
                format!("xq-games version {}: this xq reads version 1", doc.version),
            ));
        }
        Ok(with_unread(doc.games, unknown))
    } else if let Some(list) = value.as_array() {
        if let Some(i) = list.iter().position(not_a_game) {
            return refuse(&format!("item {} of the list", i + 1));
        }
        let unknown = unknown_keys(list);
        let games = from_value(value).map_err(|e| misfit(e, from_text::<Vec<Game>>(text)))?;
        Ok(with_unread(games, unknown))
    } else if not_a_game(&value) {
        refuse(if value.is_object() {
            "the object"
        } else {
            "the value"
        })
    } else {
        let unknown = unknown_keys(std::slice::from_ref(&value));
        let game = from_value(value).map_err(|e| misfit(e, from_text::<Game>(text)))?;
        Ok(with_unread(vec![game], unknown))
    }
}

/// The keys of a game, and of a move, that xq's JSON has.
const GAME_KEYS: [&str; 4] = ["tags", "fen", "comment", "moves"];
const MOVE_KEYS: [&str; 6] = ["text", "move", "glyphs", "before", "comment", "variations"];

/// For each game's JSON object, the keys of it and of its moves that xq's JSON does not have,
/// in words (a mistyped `comm` would lose a comment without a word): for [`Game::unread`].
fn unknown_keys(values: &[serde_json::Value]) -> Vec<Vec<String>> {
    fn in_moves(line: &serde_json::Value, found: &mut std::collections::BTreeMap<String, usize>) {
        for node in line.as_array().into_iter().flatten() {
            let Some(object) = node.as_object() else {
                continue;
            };
            for key in object.keys().filter(|k| !MOVE_KEYS.contains(&k.as_str())) {
                *found.entry(key.clone()).or_default() += 1;
            }
            let variations = object.get("variations").and_then(|v| v.as_array());
            for variation in variations.into_iter().flatten() {
                in_moves(variation, found);
            }
        }
    }
    values
        .iter()
        .map(|value| {
            let Some(object) = value.as_object() else {
                return Vec::new();
            };
            let mut said: Vec<String> = object
                .keys()
                .filter(|k| !GAME_KEYS.contains(&k.as_str()))
                .map(|key| format!("the key {key:?} of the game, which xq's JSON does not have"))
                .collect();
            let mut found = std::collections::BTreeMap::new();
            if let Some(moves) = object.get("moves") {
                in_moves(moves, &mut found);
            }
            said.extend(found.into_iter().map(|(key, count)| {
                format!("the key {key:?} in {count} move(s), which xq's JSON does not have")
            }));
            said
        })
        .collect()
}

/// `games`, each with what [`unknown_keys`] found in its object, and its `FEN` tags taken as the
/// start position ([`start_from_fen_tags`]).
fn with_unread(mut games: Vec<Game>, unknown: Vec<Vec<String>>) -> Vec<Game> {
    for (game, said) in games.iter_mut().zip(unknown) {
        game.unread.extend(said);
        start_from_fen_tags(game);
        keep_pgn_glyphs(game);
    }
    games
}

/// A move's `glyphs` are PGN's annotation glyphs (`!?`, `$14`): any other text among them is not
/// kept (a PGN writer would write it into the moves), and said.
fn keep_pgn_glyphs(game: &mut Game) {
    fn visit(line: &mut [Node], odd: &mut Vec<String>) {
        for node in line {
            if let Some(glyphs) = node.glyphs()
                && glyphs.split_whitespace().any(|g| !crate::game::is_glyph(g))
            {
                let (kept, left): (Vec<&str>, Vec<&str>) = glyphs
                    .split_whitespace()
                    .partition(|g| crate::game::is_glyph(g));
                odd.extend(left.into_iter().map(str::to_owned));
                let kept = (!kept.is_empty()).then(|| kept.join(" "));
                node.set_glyphs(kept);
            }
            for variation in node.variations_mut() {
                visit(variation, odd);
            }
        }
    }
    let mut odd = Vec::new();
    visit(&mut game.moves, &mut odd);
    if !odd.is_empty() {
        let shown: Vec<String> = odd.iter().take(5).map(|g| format!("{g:?}")).collect();
        game.unread.push(format!(
            "{} glyph(s) of moves that are no PGN glyph ($ and a number, or ! and ? marks), not kept: {}{}",
            odd.len(),
            shown.join(", "),
            if odd.len() > 5 { " …" } else { "" }
        ));
    }
}

/// A tag named `FEN` (in any case) among a game's tags is its start position, as in PGN, not a
/// tag: the start position when the game has no `fen`, else the same one said again (dropped),
/// or another (dropped, and said: the `fen` field is the start position). Kept as a tag, it was
/// ignored here but written by the PGN writer as the start position: another game.
fn start_from_fen_tags(game: &mut Game) {
    if !game.tags.iter().any(|(k, _)| k.eq_ignore_ascii_case("FEN")) {
        return;
    }
    let (fens, tags): (Vec<_>, Vec<_>) = std::mem::take(&mut game.tags)
        .into_iter()
        .partition(|(k, _)| k.eq_ignore_ascii_case("FEN"));
    game.tags = tags;
    let values: Vec<&str> = fens
        .iter()
        .map(|(_, v)| v.trim())
        .filter(|v| !v.is_empty())
        .collect();
    // An empty `fen` gives nothing: a FEN tag may. Of several tags, the last is taken, as the
    // PGN reader takes it.
    if game.fen.as_deref().is_some_and(|f| f.trim().is_empty()) {
        game.fen = None;
    }
    let (fen, from_tag) = match game.fen.clone() {
        Some(fen) => (fen, false),
        None => match values.last() {
            Some(last) => ((*last).to_owned(), true),
            None => return,
        },
    };
    for value in values.iter().filter(|v| !crate::game::same_start(v, &fen)) {
        let what = if from_tag {
            "the last FEN tag"
        } else {
            "the game's fen"
        };
        game.unread.push(format!(
            "a FEN tag \"{value}\" that is not {what} \"{fen}\", the start position: not kept"
        ));
    }
    game.fen = Some(fen);
}

/// Whether `text` starts as a game of ours, or a list of them, starts: `{` (after `[`) and a
/// game's first field, `tags`, `fen`, `comment` or `moves`.
fn starts_as_a_game(text: &str) -> bool {
    let text = text.trim_start();
    let object = text
        .strip_prefix('[')
        .map_or(text, str::trim_start)
        .strip_prefix('{')
        .map(str::trim_start);
    object.is_some_and(|fields| {
        ["\"tags\"", "\"fen\"", "\"comment\"", "\"moves\""]
            .iter()
            .any(|key| fields.starts_with(key))
    })
}

/// JSON nested deeper than this is refused: a game whose variations nest [`MAX_DEPTH`] deep,
/// written by [`write_json`](crate::write::write_json) (document, games, game, moves, node: 5; 3 more per level).
pub const MAX_JSON_DEPTH: usize = 5 + 3 * MAX_DEPTH;

/// Parses JSON of any depth up to [`MAX_JSON_DEPTH`] without overflowing the stack (serde_json's
/// own limit, 128, is far below what variations nested 256 deep need; `serde_stacker` grows the
/// stack on the heap as the parser goes down).
fn parse(text: &str) -> Result<serde_json::Value, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    let value = serde_json::Value::deserialize(serde_stacker::Deserializer::new(&mut de))?;
    de.end()?;
    Ok(value)
}

/// `T` from a parsed value, deep nesting included.
fn from_value<T: serde::de::DeserializeOwned>(
    value: serde_json::Value,
) -> Result<T, serde_json::Error> {
    T::deserialize(serde_stacker::Deserializer::new(value))
}

/// Why `text` is not a `T`, read straight from the text (so the error says where), if it is not.
fn from_text<T: serde::de::DeserializeOwned>(text: &str) -> Option<serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    T::deserialize(serde_stacker::Deserializer::new(&mut de)).err()
}

/// The byte of `text` that serde_json's `line` and `column` (both 1-based, the column counted in
/// bytes) point at, clamped to the text and to a character's start.
fn byte_at(text: &str, line: usize, column: usize) -> usize {
    let start = if line <= 1 {
        0
    } else {
        text.match_indices('\n')
            .nth(line - 2)
            .map_or(text.len(), |(i, _)| i + 1)
    };
    let mut at = (start + column.saturating_sub(1)).min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// The deepest nesting of `[` and `{` in JSON text (outside strings).
fn nesting(text: &str) -> usize {
    let (mut depth, mut max, mut in_string, mut escaped) = (0usize, 0usize, false, false);
    for b in text.bytes() {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                max = max.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    max
}

/// Writes games as a JSON document.
pub(crate) fn write_json(games: &[Game]) -> String {
    let mut out = String::from(JSON_HEAD);
    for (i, game) in games.iter().enumerate() {
        out.push_str(&json_game(game, i == 0));
    }
    out.push_str(json_tail(!games.is_empty()));
    out
}

/// The start of a JSON document, up to its list of games: a document can be written a game at a
/// time ([`json_game`], then [`json_tail`]), as [`write_json`](crate::write::write_json) does.
pub const JSON_HEAD: &str = "{\n  \"format\": \"xq-games\",\n  \"version\": 1,\n  \"games\": [";

/// One game of a JSON document (`first` if no game comes before it).
pub fn json_game(game: &Game, first: bool) -> String {
    let body = serde_json::to_string_pretty(game).unwrap_or_default();
    let mut out = String::from(if first { "\n" } else { ",\n" });
    for (i, line) in body.lines().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str("    ");
        out.push_str(line);
    }
    out
}

/// The end of a JSON document (`any`: whether it holds games).
pub const fn json_tail(any: bool) -> &'static str {
    if any { "\n  ]\n}" } else { "]\n}" }
}

#[cfg(test)]
#[derive(Serialize)]
struct DocumentRef<'a> {
    format: &'static str,
    version: u32,
    games: &'a [Game],
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    /// Keys xq's JSON does not have are said (in the game's reading facts), in each of the
    /// three shapes; a game of ours says nothing.
    #[test]
    fn unknown_keys_are_said() {
        let game = r#"{"tags": [], "extra": 1, "moves": [{"text": "h2e2", "comm": "x", "variations": [[{"text": "b2e2", "comm": "y"}]]}]}"#;
        let said = [
            "the key \"extra\" of the game, which xq's JSON does not have",
            "the key \"comm\" in 2 move(s), which xq's JSON does not have",
        ];
        for text in [
            game.to_owned(),
            format!("[{game}]"),
            format!(r#"{{"format": "xq-games", "version": 1, "games": [{game}]}}"#),
        ] {
            let games = read_json(&text).unwrap();
            assert_eq!(games[0].unread, said, "{text}");
        }
        let ours = write_json(&read_json(game).unwrap());
        assert!(read_json(&ours).unwrap()[0].unread.is_empty());
    }

    /// A `FEN` tag is the start position, as in PGN: taken when the game has no `fen`, dropped
    /// when it says the same, dropped and said when it says another; never left a tag, which
    /// the PGN writer would write as the start position.
    #[test]
    fn fen_tags_are_the_start_position() {
        let start = "4k4/9/9/9/9/9/9/9/9/R3K4 w - - 0 1";
        let other = "4k4/9/9/9/9/9/9/9/9/4K3R w - - 0 1";
        let game = |tags: &str, fen: &str| {
            let text = format!(r#"{{"tags": [["Event", "e"]{tags}]{fen}, "moves": []}}"#);
            read_json(&text).unwrap().remove(0)
        };
        let fen_tag = |value: &str| format!(r#", ["fen", "{value}"]"#);
        let fen_field = |value: &str| format!(r#", "fen": "{value}""#);
        for (tags, fen, said) in [
            (fen_tag(start), String::new(), false),
            (fen_tag(start), fen_field(start), false),
            (fen_tag(other), fen_field(start), true),
            (fen_tag(""), fen_field(start), false),
        ] {
            let read = game(&tags, &fen);
            assert_eq!(read.fen.as_deref(), Some(start), "{tags} {fen}");
            assert_eq!(read.tags, [("Event".to_owned(), "e".to_owned())]);
            assert_eq!(read.unread.len(), usize::from(said), "{:?}", read.unread);
        }
        let read = game(&fen_tag(""), "");
        assert_eq!((read.fen, read.tags.len()), (None, 1));
        // Of two FEN tags, the last is taken (as the PGN reader takes it), the other said; an
        // empty fen gives way to a tag; a tag giving the same position otherwise is no other.
        let read = game(&format!("{}{}", fen_tag(other), fen_tag(start)), "");
        assert_eq!((read.fen.as_deref(), read.unread.len()), (Some(start), 1));
        let read = game(&fen_tag(start), &fen_field(""));
        assert_eq!((read.fen.as_deref(), read.unread.len()), (Some(start), 0));
        let short = "4k4/9/9/9/9/9/9/9/9/R3K4 w";
        let read = game(&fen_tag(short), &fen_field(start));
        assert_eq!((read.fen.as_deref(), read.unread.len()), (Some(start), 0));
    }

    #[test]
    fn an_error_says_where_it_is() {
        // A syntax error, and a value that does not fit the schema (found again in the text:
        // the parsed value has lost its places), after a byte-order mark and Chinese text.
        let doc = |moves: &str| {
            format!(
                "\u{feff}{{\"format\": \"xq-games\", \"version\": 1, \"games\": [{{\"tags\": [[\"Event\", \"中国\"]],\n  \"moves\": [{moves}]}}]}}"
            )
        };
        for (text, at) in [
            (doc("{\"move\": 5}"), "5}]"),
            (doc("{\"move\": \"h2e2\" ]"), "]]}]}"),
        ] {
            let err = read_json(&text).unwrap_err();
            assert_eq!(err.line, Some(2), "{err:?}");
            assert!(text[err.offset.unwrap()..].starts_with(at), "{err:?}");
            assert!(!err.message.contains(" at line "), "{err:?}");
        }
        // A game list and a lone game.
        let err = read_json("[{\"moves\": [\n{\"move\": 5}]}]").unwrap_err();
        assert_eq!((err.line, err.offset), (Some(2), Some(22)));
        let err = read_json("{\"moves\": [\n{\"move\": 5}]}").unwrap_err();
        assert_eq!((err.line, err.offset), (Some(2), Some(21)));
    }

    #[test]
    fn written_a_game_at_a_time_is_serdes_document() {
        for n in [0, 1, 3] {
            let games: Vec<Game> = (0..n)
                .map(|i| {
                    let mut g = Game::default();
                    g.set_tag("Event", format!("g{i}\nline"));
                    g.comment = Some("a \"quoted\"\ncomment".to_owned());
                    g.moves.push(Node::text("炮二平五"));
                    g
                })
                .collect();
            let doc = DocumentRef {
                format: "xq-games",
                version: 1,
                games: &games,
            };
            assert_eq!(
                write_json(&games),
                serde_json::to_string_pretty(&doc).unwrap()
            );
        }
    }
}
