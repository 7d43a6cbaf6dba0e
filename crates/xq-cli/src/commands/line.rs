//! The line of moves `xq judge` and `xq limit` work on: a record file's main line (read as an
//! arbiter reads a scoresheet: missing and unreadable moves counted, reconstructed where the
//! moves after them allow), or a FEN and moves, or both (the moves continue the record).

use std::path::PathBuf;

use xq_arbiter::procedure::SelfKill;
use xq_core::{
    IllegalMove,
    caret::Snippet,
    text::{visible, visible_path},
};
use xq_notation::{Mode, NotationError, Reader, ResolveError};
use xq_report::Line;

use crate::{
    CliError,
    args::{InputArgs, LineArgs},
};

/// Where the line comes from.
pub(crate) struct Source<'a> {
    pub(crate) file: Option<&'a PathBuf>,
    pub(crate) game: u32,
    pub(crate) fen: Option<&'a str>,
    pub(crate) moves: Option<&'a str>,
    /// Where the line stops (a ply, 1-based).
    pub(crate) ply: Option<u32>,
    pub(crate) input: &'a InputArgs,
    /// Whether a line without moves is a usage error (a ruling or an audit of nothing); else it
    /// is the start position, where nothing has happened yet.
    pub(crate) moves_needed: bool,
}

impl<'a> Source<'a> {
    /// The line the command-line arguments name.
    pub(crate) fn of(args: &'a LineArgs) -> Source<'a> {
        Source {
            file: args.file.as_ref(),
            game: args.game,
            fen: args.fen.as_deref(),
            moves: args.moves.as_deref(),
            ply: args.ply,
            input: &args.input,
            moves_needed: true,
        }
    }
}

/// Reads the line. A record that cannot be read at all, a FEN that is not a position, or a move
/// of `--moves` that is not a move is an error; missing and unreadable moves of a record are not.
pub(crate) fn read_line(src: &Source<'_>) -> Result<Line, CliError> {
    let mut reader = Reader::new(Mode::Lenient);
    let mut line = match src.file {
        Some(path) => {
            if src.fen.is_some() {
                return Err(CliError::Usage(
                    "--fen and a file both give the start position: give one".to_owned(),
                ));
            }
            let options = src.input.options();
            let game = super::show::read_game(path, src.game, options)?;
            Line::from_game(&game, &mut reader).map_err(|why| {
                let place = super::located::fen_place(path, &game, &why, options)
                    .map(|s| format!("\n{s}"))
                    .unwrap_or_default();
                CliError::Invalid(format!(
                    "{}: game {}: {}{place}",
                    visible_path(path),
                    src.game,
                    visible(&why.message)
                ))
            })?
        }
        None => Line::new(
            super::parse_fen(src.fen.unwrap_or(xq_core::START_FEN), true)?,
            Vec::new(),
        ),
    };
    let given = src.moves.unwrap_or("");
    // Each move of --moves with where it starts there.
    let tokens: Vec<(usize, &str)> = given
        .split(char::is_whitespace)
        .scan(0, |at, word| {
            let start = *at;
            *at += word.len()
                + given[*at + word.len()..]
                    .chars()
                    .next()
                    .map_or(0, char::len_utf8);
            Some((start, word))
        })
        .filter(|(_, t)| !t.is_empty() && !super::is_filler(t))
        .collect();
    // A record whose moves are all missing or unreadable still has something to report: what
    // reading it found.
    let record_gaps = line
        .record
        .as_ref()
        .is_some_and(|r| r.missing_or_unreadable() > 0);
    if src.moves_needed
        && tokens.is_empty()
        && line.moves.is_empty()
        && line.self_kill.is_none()
        && !record_gaps
    {
        return Err(CliError::Usage(
            "no moves: give --moves \"M1 M2 …\", a file, or - to read a record from standard input"
                .to_owned(),
        ));
    }
    if line.self_kill.is_some() && !tokens.is_empty() {
        return Err(CliError::Usage(
            "the record ends with a move that kills its own king: --moves cannot continue it"
                .to_owned(),
        ));
    }
    let mut pos = line.start.clone();
    for &m in &line.moves {
        pos.play_unchecked(m);
    }
    for (at, token) in tokens {
        let ply = line.moves.len() + 1;
        match reader.read(token, &pos) {
            Ok(m) => {
                pos.play_unchecked(m);
                line.moves.push(m);
            }
            Err(NotationError::Resolve(ResolveError::Illegal {
                m,
                reason: reason @ (IllegalMove::KingInCheck | IllegalMove::KingsFacing),
                ..
            })) => {
                line.self_kill = Some(SelfKill {
                    ply,
                    m,
                    side: pos.turn(),
                    kings_facing: reason == IllegalMove::KingsFacing,
                });
                break;
            }
            Err(err) => {
                // The move in --moves, carets under it (under its bad character for a move
                // that does not read).
                let span = match &err {
                    NotationError::Syntax(e) => e.span.clone(),
                    NotationError::Resolve(_) => 0..token.len(),
                };
                let place = Snippet::new(given, at + span.start..at + span.end);
                return Err(CliError::Invalid(format!(
                    "ply {ply} ({} to move): `{token}` is not a move here: {err}\n  in --moves:\n{}\n  position: {}",
                    pos.turn(),
                    super::indent(&place.render("here"), "    "),
                    pos.fen()
                )));
            }
        }
    }
    match src.ply.map(|p| p as usize) {
        Some(ply) if ply > line.moves.len() => Err(CliError::Usage(format!(
            "--ply {ply}: the line has only {} plies{}",
            line.moves.len(),
            if line.self_kill.is_some() {
                " (it stops before a move that kills its own king)"
            } else {
                ""
            }
        ))),
        Some(ply) => Ok(line.until(ply)),
        None => Ok(line),
    }
}
