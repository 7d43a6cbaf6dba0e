//! Our own JSON: lossless, every field of the model (see `docs/records.md` for the schema).

use serde::{Deserialize, Serialize};

use crate::{
    error::{ReadError, ReadErrorKind},
    game::Game,
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
    let text = text.trim_start_matches('\u{feff}');
    let as_error = |e: serde_json::Error| {
        ReadError::new(ReadErrorKind::Syntax, format!("not an xq JSON record: {e}"))
            .on_line(e.line() as u32)
    };
    let value: serde_json::Value = serde_json::from_str(text).map_err(as_error)?;
    if value.get("games").is_some() {
        let doc: Document = serde_json::from_value(value).map_err(as_error)?;
        if doc.format != "xq-games" {
            return Err(ReadError::new(
                ReadErrorKind::Unsupported,
                format!("JSON format {:?} is not xq-games", doc.format),
            ));
        }
        if doc.version != 1 {
            return Err(ReadError::new(
                ReadErrorKind::Unsupported,
                format!("xq-games version {}: this xq reads version 1", doc.version),
            ));
        }
        Ok(doc.games)
    } else if value.is_array() {
        serde_json::from_value(value).map_err(as_error)
    } else {
        Ok(vec![serde_json::from_value(value).map_err(as_error)?])
    }
}

/// Writes games as a JSON document.
pub fn write_json(games: &[Game]) -> String {
    let doc = DocumentRef {
        format: "xq-games",
        version: 1,
        games,
    };
    serde_json::to_string_pretty(&doc).unwrap_or_default()
}

#[derive(Serialize)]
struct DocumentRef<'a> {
    format: &'static str,
    version: u32,
    games: &'a [Game],
}
