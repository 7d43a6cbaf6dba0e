//! The line of moves a report is about, and what reading it from a record found.

use xq_arbiter::procedure::{Decision, SelfKill};
use xq_core::{Move, Position};
use xq_notation::Reader;
use xq_record::{
    Game, Outcome,
    recover::{Recovered, recover},
    replay::BadStart,
};

/// A line to judge or audit: a start position and the moves played from it, with what reading
/// the record found when it comes from a file.
#[derive(Clone, Debug)]
pub struct Line {
    /// The start position.
    pub start: Position,
    /// The moves, every one legal in turn.
    pub moves: Vec<Move>,
    /// What reading the record found: missing and unreadable moves (records only).
    pub record: Option<Recovered>,
    /// The record's result (records only).
    pub result: Option<Decision>,
    /// A move that left its own king in check or the kings facing: the line stops before it.
    pub self_kill: Option<SelfKill>,
    /// The record's tags (Event, Round, Red, Black, Date …; records only).
    pub tags: Vec<(String, String)>,
}

impl Line {
    /// A line of `moves` from `start`, not read from a record.
    pub fn new(start: Position, moves: Vec<Move>) -> Line {
        Line {
            start,
            moves,
            record: None,
            result: None,
            self_kill: None,
            tags: Vec::new(),
        }
    }

    /// The main line of a game record, read as an arbiter reads a scoresheet: missing and
    /// unreadable moves are counted and reconstructed where the moves after them allow, and a
    /// move that kills its own king ends the line. The error says why the record cannot be read
    /// at all (no start position), and where in its FEN.
    pub fn from_game(game: &Game, reader: &mut Reader) -> Result<Line, BadStart> {
        let recovered = recover(game, reader)?;
        let self_kill = recovered.self_kill.as_ref().map(|k| SelfKill {
            ply: k.ply,
            m: k.m,
            side: if k.ply % 2 == 1 {
                recovered.start.turn()
            } else {
                recovered.start.turn().other()
            },
            kings_facing: k.kings_facing,
        });
        let result = game.outcome().and_then(|o| match o {
            Outcome::RedWins => Some(Decision::RedWins),
            Outcome::BlackWins => Some(Decision::BlackWins),
            Outcome::Draw => Some(Decision::Draw),
            Outcome::Unknown => None,
        });
        Ok(Line {
            start: recovered.start.clone(),
            moves: recovered.moves.clone(),
            record: Some(recovered),
            result,
            self_kill,
            tags: game.tags.clone(),
        })
    }

    /// The line up to ply `plies` (1-based, as a claim in the middle of a game is made): what
    /// comes after is dropped with the record's result and a self-kill after it, which belong to
    /// the end of the game. The whole line if `plies` reaches its end.
    pub fn until(&self, plies: usize) -> Line {
        if plies >= self.moves.len() {
            return self.clone();
        }
        Line {
            start: self.start.clone(),
            moves: self.moves[..plies].to_vec(),
            record: self.record.clone(),
            result: None,
            self_kill: None,
            tags: self.tags.clone(),
        }
    }

    /// The start and the position after every move.
    pub fn positions(&self) -> Vec<Position> {
        xq_arbiter::cycle::positions(&self.start, &self.moves)
    }
}
