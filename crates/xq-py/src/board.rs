//! `xq.Board`, `xq.Move`, `xq.LegalMoves`, `xq.Outcome`.

use pyo3::{
    exceptions::{PyIndexError, PyValueError},
    prelude::*,
    types::{PyBytes, PyIterator, PyList, PyTuple},
};
use xq_core::{
    Color, EndReason, Move, Position, START_FEN, Square, Undo, diagram::text_diagram, vocab,
};
use xq_notation::{
    ChineseStyle, Mode, Notation, NotationError as CoreNotationError, Reader, ResolveError, Script,
    TandemStyle, write,
};

use crate::errors::{self, Details, IllegalMoveError};

/// A move: a piece goes from one point to another. Points are named `a0`…`i9` (files a–i from
/// Red's left, ranks 0–9 from Red's side), as in ICCS and UCCI.
#[pyclass(module = "xq", name = "Move", frozen, eq, hash, ord)]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct PyMove(pub(crate) Move);

pub(crate) fn square_name(sq: Square) -> String {
    format!("{}{}", sq.file().char(), sq.rank().char())
}

#[pymethods]
impl PyMove {
    /// Reads a coordinate move: `h2e2` (UCCI) or `H2-E2` (ICCS), either case.
    #[staticmethod]
    fn from_iccs(py: Python<'_>, text: &str) -> PyResult<PyMove> {
        Move::from_ascii(text.trim().as_bytes())
            .map(PyMove)
            .map_err(|_| {
                errors::raise::<errors::NotationError>(
                    py,
                    format!("`{text}` is not a coordinate move (like h2e2 or H2-E2)"),
                    Details {
                        kind: "syntax",
                        text: Some(text.to_owned()),
                        ..Details::default()
                    },
                )
            })
    }

    /// The move with index `label` in the 2,086-move vocabulary (see `xq.vocabulary()`).
    #[staticmethod]
    fn from_label(label: usize) -> PyResult<PyMove> {
        vocab::moves()
            .get(label)
            .map(|&m| PyMove(m))
            .ok_or_else(|| {
                PyIndexError::new_err(format!(
                    "label {label} is outside the vocabulary (0..{})",
                    vocab::SIZE
                ))
            })
    }

    /// The move in lower-case coordinates, `h2e2` (UCCI; ICCS without the dash).
    #[getter]
    fn iccs(&self) -> String {
        self.0.to_string()
    }

    /// The upper-case ICCS form with a dash, `H2-E2`.
    #[getter]
    fn iccs_dash(&self) -> String {
        self.0.to_iccs()
    }

    /// The starting point's index, 0 (a0) … 89 (i9): rank × 9 + file.
    #[getter(from_square)]
    fn get_from_square(&self) -> usize {
        self.0.from.index()
    }

    /// The destination's index, 0 (a0) … 89 (i9).
    #[getter(to_square)]
    fn get_to_square(&self) -> usize {
        self.0.to.index()
    }

    /// The starting point's name, `h2`.
    #[getter(from_name)]
    fn get_from_name(&self) -> String {
        square_name(self.0.from)
    }

    /// The destination's name, `e2`.
    #[getter(to_name)]
    fn get_to_name(&self) -> String {
        square_name(self.0.to)
    }

    /// The index of the move in the 2,086-move vocabulary.
    #[getter]
    fn label(&self) -> usize {
        // Every move a piece can make is in the vocabulary; a pair of points no piece can join
        // (from_iccs accepts any) is not.
        vocab::index(self.0).unwrap_or(usize::MAX)
    }

    /// The move seen from Black's side: both points rotated by 180°.
    fn rotate(&self) -> PyMove {
        PyMove(self.0.rotate())
    }

    /// The move mirrored left to right (file a ↔ i).
    fn mirror(&self) -> PyMove {
        PyMove(Move::new(
            self.0.from.flip_horizontal(),
            self.0.to.flip_horizontal(),
        ))
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Move.from_iccs('{}')", self.0)
    }
}

/// The legal moves of a position: supports `len()`, `in` (a `Move` or a coordinate string) and
/// iteration.
#[pyclass(module = "xq", name = "LegalMoves", frozen)]
#[derive(Debug)]
pub(crate) struct LegalMoves(Vec<Move>);

#[pymethods]
impl LegalMoves {
    fn __len__(&self) -> usize {
        self.0.len()
    }

    fn __contains__(&self, item: &Bound<'_, PyAny>) -> bool {
        if let Ok(m) = item.extract::<PyRef<'_, PyMove>>() {
            return self.0.contains(&m.0);
        }
        if let Ok(text) = item.extract::<String>() {
            return Move::from_ascii(text.as_bytes()).is_ok_and(|m| self.0.contains(&m));
        }
        false
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyIterator>> {
        PyList::new(py, self.0.iter().map(|&m| PyMove(m)))?.try_iter()
    }

    fn __repr__(&self) -> String {
        let moves: Vec<String> = self.0.iter().map(ToString::to_string).collect();
        format!("<LegalMoves ({}): {}>", self.0.len(), moves.join(" "))
    }
}

/// How a game ended on the board: the side to move has no legal move (checkmate or stalemate,
/// both losses in Xiangqi).
#[pyclass(module = "xq", name = "Outcome", frozen, get_all)]
#[derive(Clone, Debug)]
pub(crate) struct PyOutcome {
    /// `"red"` or `"black"`.
    winner: &'static str,
    /// `"checkmate"` (将死) or `"stalemate"` (困毙).
    reason: &'static str,
    /// The PGN result, `"1-0"` or `"0-1"`.
    result: &'static str,
}

#[pymethods]
impl PyOutcome {
    fn __repr__(&self) -> String {
        format!(
            "Outcome(winner='{}', reason='{}', result='{}')",
            self.winner, self.reason, self.result
        )
    }
}

/// A position and the moves that led to it, like `chess.Board`.
///
/// `Board()` is the standard start; `Board(fen)` any legal position (`xq.FenError` otherwise).
#[pyclass(module = "xq", name = "Board")]
#[derive(Clone, Debug)]
pub(crate) struct PyBoard {
    pub(crate) pos: Position,
    /// The moves pushed, what undoes each, and the hash of the position before it.
    stack: Vec<(Move, Undo, u64)>,
}

impl PyBoard {
    /// The position before the first pushed move, and the moves pushed since.
    pub(crate) fn line(&self) -> (Position, Vec<Move>) {
        let mut root = self.pos.clone();
        for &(m, undo, _) in self.stack.iter().rev() {
            root.unmake_move(m, undo);
        }
        (root, self.stack.iter().map(|&(m, _, _)| m).collect())
    }
}

pub(crate) fn parse_fen(py: Python<'_>, fen: &str) -> PyResult<Position> {
    match Position::from_fen(fen) {
        Ok(pos) => Ok(pos),
        // A position that is only implausible (a piece where it can never go) can be played.
        Err(err) if err.is_only_implausible() => {
            Position::from_fen_lenient(fen).map_err(|e| errors::fen_error(py, &e, fen))
        }
        Err(err) => Err(errors::fen_error(py, &err, fen)),
    }
}

pub(crate) fn parse_notation_style(style: &str) -> PyResult<Notation> {
    let chinese = |script| {
        Notation::Chinese(ChineseStyle {
            script,
            tandem: TandemStyle::Xqbase,
            ascii_digits: false,
        })
    };
    Ok(match style.to_ascii_lowercase().as_str() {
        "chinese" | "zh" | "simplified" => chinese(Script::Simplified),
        "traditional" | "chinese-traditional" => chinese(Script::Traditional),
        "wxf" => Notation::Wxf,
        "iccs" => Notation::Iccs,
        "ucci" => Notation::Ucci,
        // Fairy-Stockfish's and pychess's, ranks 1–10 (as `xq notation --to uci|san`).
        "uci" => Notation::Uci,
        "san" => Notation::San,
        _ => {
            return Err(PyValueError::new_err(format!(
                "unknown notation `{style}`: use chinese, traditional, wxf, iccs, ucci, uci or san"
            )));
        }
    })
}

pub(crate) fn color_name(c: Color) -> &'static str {
    c.name()
}

impl PyBoard {
    pub(crate) fn from_position(pos: Position) -> PyBoard {
        PyBoard {
            pos,
            stack: Vec::new(),
        }
    }

    fn illegal(&self, py: Python<'_>, m: Move) -> PyErr {
        let reason = match self.pos.check_move(m) {
            Err(reason) => reason.to_string(),
            Ok(()) => "it is legal".to_owned(),
        };
        errors::raise::<IllegalMoveError>(
            py,
            format!("illegal move {m}: {reason}"),
            Details {
                kind: "illegal",
                text: Some(m.to_string()),
                fen: Some(self.pos.fen()),
                ..Details::default()
            },
        )
    }

    fn push_move(&mut self, m: Move) {
        let hash = self.pos.hash();
        let undo = self.pos.make_move(m);
        self.stack.push((m, undo, hash));
    }
}

#[pymethods]
impl PyBoard {
    #[new]
    #[pyo3(signature = (fen = None))]
    pub(crate) fn new(py: Python<'_>, fen: Option<&str>) -> PyResult<PyBoard> {
        let pos = match fen {
            None => Position::new(),
            Some(fen) => parse_fen(py, fen)?,
        };
        Ok(PyBoard::from_position(pos))
    }

    /// The position as FEN.
    fn fen(&self) -> String {
        self.pos.fen()
    }

    /// `"red"` or `"black"`: the side to move.
    #[getter]
    fn turn(&self) -> &'static str {
        color_name(self.pos.turn())
    }

    /// The moves pushed so far, oldest first.
    #[getter]
    fn move_stack(&self) -> Vec<PyMove> {
        self.stack.iter().map(|&(m, _, _)| PyMove(m)).collect()
    }

    /// Plies since the last capture (FEN's halfmove clock).
    #[getter]
    fn halfmove_clock(&self) -> u32 {
        self.pos.halfmoves()
    }

    /// The move number (FEN's fullmove counter).
    #[getter]
    fn fullmove_number(&self) -> u32 {
        self.pos.fullmoves()
    }

    /// The piece on a point (`"e0"` or an index 0…89) as its FEN letter (upper case Red:
    /// K A B N R C P), or `None`.
    fn piece_at(&self, square: &Bound<'_, PyAny>) -> PyResult<Option<char>> {
        let sq = if let Ok(i) = square.extract::<usize>() {
            Square::try_from_index(i)
        } else {
            let text: String = square.extract()?;
            Square::from_ascii(text.as_bytes()).ok()
        };
        let sq = sq.ok_or_else(|| PyValueError::new_err("not a point: use a0…i9 or 0…89"))?;
        Ok(self.pos.piece_at(sq).map(|p| p.fen_char()))
    }

    /// Reads a move in any notation (Chinese simplified or traditional, WXF, ICCS, UCCI) against
    /// this position. `strict=True` accepts only standard notation.
    ///
    /// Raises `xq.NotationError` (unreadable), `xq.IllegalMoveError` (no such legal move) or
    /// `xq.AmbiguousMoveError` (several fit; `.candidates`).
    #[pyo3(signature = (text, strict = false))]
    fn parse_move(&self, py: Python<'_>, text: &str, strict: bool) -> PyResult<PyMove> {
        let mode = if strict { Mode::Strict } else { Mode::Lenient };
        xq_notation::read(text, &self.pos, mode)
            .map(PyMove)
            .map_err(|e| notation_error(py, &e, text, self.pos.fen(), None))
    }

    /// Plays a legal move (`xq.IllegalMoveError` otherwise).
    fn push(&mut self, py: Python<'_>, m: PyRef<'_, PyMove>) -> PyResult<()> {
        if !self.pos.is_legal(m.0) {
            return Err(self.illegal(py, m.0));
        }
        self.push_move(m.0);
        Ok(())
    }

    /// Reads a move in any notation and plays it; returns the move.
    #[pyo3(signature = (text, strict = false))]
    fn push_notation(&mut self, py: Python<'_>, text: &str, strict: bool) -> PyResult<PyMove> {
        let m = self.parse_move(py, text, strict)?;
        self.push_move(m.0);
        Ok(m)
    }

    /// Takes back the last move and returns it (`IndexError` if there is none).
    fn pop(&mut self) -> PyResult<PyMove> {
        let (m, undo, _) = self
            .stack
            .pop()
            .ok_or_else(|| PyIndexError::new_err("pop from a board with no moves"))?;
        self.pos.unmake_move(m, undo);
        Ok(PyMove(m))
    }

    /// The last move pushed (`IndexError` if there is none).
    fn peek(&self) -> PyResult<PyMove> {
        self.stack
            .last()
            .map(|&(m, _, _)| PyMove(m))
            .ok_or_else(|| PyIndexError::new_err("peek at a board with no moves"))
    }

    /// The legal moves.
    #[getter]
    fn legal_moves(&self) -> LegalMoves {
        LegalMoves(self.pos.legal_moves().to_vec())
    }

    /// Whether `m` is legal here.
    fn is_legal(&self, m: PyRef<'_, PyMove>) -> bool {
        self.pos.is_legal(m.0)
    }

    /// Whether the side to move is in check.
    fn is_check(&self) -> bool {
        self.pos.is_check()
    }

    /// Whether the side to move is checkmated (将死).
    fn is_checkmate(&self) -> bool {
        self.pos
            .outcome()
            .is_some_and(|o| o.reason == EndReason::Checkmate)
    }

    /// Whether the side to move has no legal move but is not in check (困毙, a loss).
    fn is_stalemate(&self) -> bool {
        self.pos
            .outcome()
            .is_some_and(|o| o.reason == EndReason::Stalemate)
    }

    /// The result if the game ended on the board (the side to move has no legal move), else
    /// `None`. Repetition and the 60-round limit are for `xq.judge` and `xq.limit`.
    fn outcome(&self) -> Option<PyOutcome> {
        self.pos.outcome().map(|o| PyOutcome {
            winner: color_name(o.winner),
            reason: match o.reason {
                EndReason::Checkmate => "checkmate",
                EndReason::Stalemate => "stalemate",
            },
            result: if o.winner == Color::Red { "1-0" } else { "0-1" },
        })
    }

    /// How many times the current position has stood on the board since the moves pushed began
    /// (this time included), by the position hash.
    fn repetition_count(&self) -> usize {
        let now = self.pos.hash();
        1 + self.stack.iter().filter(|&&(_, _, h)| h == now).count()
    }

    /// Writes a legal move of this position: `"chinese"` (炮二平五), `"traditional"` (炮二平五 in
    /// traditional characters), `"wxf"` (C2.5), `"iccs"` (H2-E2) or `"ucci"` (h2e2).
    #[pyo3(signature = (m, notation = "chinese"))]
    fn notation(&self, py: Python<'_>, m: PyRef<'_, PyMove>, notation: &str) -> PyResult<String> {
        let n = parse_notation_style(notation)?;
        if !self.pos.is_legal(m.0) {
            return Err(self.illegal(py, m.0));
        }
        Ok(write(&self.pos, m.0, n))
    }

    /// The 64-bit Zobrist hash of the position (placement and side to move).
    fn zobrist_hash(&self) -> u64 {
        self.pos.hash()
    }

    /// A `numpy.ndarray` of 2,086 booleans: `True` at the vocabulary index of every legal move.
    fn legal_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let mut mask = vec![0u8; vocab::SIZE];
        for &m in self.pos.legal_moves().iter() {
            if let Some(i) = vocab::index(m) {
                mask[i] = 1;
            }
        }
        let numpy = py.import("numpy")?;
        let bytes = PyBytes::new(py, &mask);
        numpy
            .call_method1("frombuffer", (bytes, numpy.getattr("bool_")?))?
            .call_method0("copy")
    }

    /// An independent copy (with the move stack).
    fn copy(&self) -> PyBoard {
        self.clone()
    }

    fn __copy__(&self) -> PyBoard {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyBoard {
        self.clone()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .extract::<PyRef<'_, PyBoard>>()
            .is_ok_and(|o| o.pos == self.pos)
    }

    /// The board as text: Red at the bottom, files numbered for both sides.
    fn __str__(&self) -> String {
        text_diagram(self.pos.board(), Some(self.pos.turn()))
    }

    fn __repr__(&self) -> String {
        if self.pos.fen() == START_FEN {
            "Board()".to_owned()
        } else {
            format!("Board('{}')", self.pos.fen())
        }
    }

    /// An SVG picture of the board (Jupyter shows it), the last move and the side to move marked.
    #[pyo3(signature = (flip = false, size = 40))]
    fn svg(&self, flip: bool, size: u32) -> String {
        xq_render::board_svg(
            self.pos.board(),
            &xq_render::BoardOptions {
                flip,
                last_move: self.stack.last().map(|&(m, _, _)| m),
                arrows: Vec::new(),
                cell: size,
                side_to_move: Some(self.pos.turn()),
            },
        )
    }

    fn _repr_svg_(&self) -> String {
        self.svg(false, 40)
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        // Pickled as its FEN (the move stack is not kept): enough to ship positions to workers.
        let cls = py.get_type::<PyBoard>();
        PyTuple::new(
            py,
            [
                cls.into_any(),
                PyTuple::new(py, [self.pos.fen()])?.into_any(),
            ],
        )
    }
}

/// Resolves a sequence of tokens (any notation) or moves from `start`: the moves, or the first
/// one that is not a legal move (with its ply).
pub(crate) fn resolve_line(
    py: Python<'_>,
    start: &Position,
    moves: &Bound<'_, PyAny>,
) -> PyResult<Vec<Move>> {
    enum Item {
        Move(Move),
        Text(String),
    }
    let items: Vec<Item> = if let Ok(text) = moves.extract::<String>() {
        text.split_whitespace()
            .map(|t| Item::Text(t.to_owned()))
            .collect()
    } else {
        let mut items = Vec::new();
        for item in moves.try_iter()? {
            let item = item?;
            if let Ok(m) = item.extract::<PyRef<'_, PyMove>>() {
                items.push(Item::Move(m.0));
            } else {
                items.push(Item::Text(item.extract::<String>()?));
            }
        }
        items
    };
    let mut reader = Reader::new(Mode::Lenient);
    let mut pos = start.clone();
    let mut line = Vec::with_capacity(items.len());
    for (i, item) in items.into_iter().enumerate() {
        let m = match item {
            Item::Move(m) if pos.is_legal(m) => m,
            Item::Move(m) => {
                return Err(errors::raise::<IllegalMoveError>(
                    py,
                    format!(
                        "ply {}: illegal move {m}: {}",
                        i + 1,
                        pos.check_move(m)
                            .err()
                            .map_or_else(String::new, |r| r.to_string())
                    ),
                    Details {
                        kind: "illegal",
                        ply: Some(i + 1),
                        text: Some(m.to_string()),
                        fen: Some(pos.fen()),
                        ..Details::default()
                    },
                ));
            }
            Item::Text(t) => reader
                .read(&t, &pos)
                .map_err(|e| notation_error(py, &e, &t, pos.fen(), Some(i + 1)))?,
        };
        pos.play_unchecked(m);
        line.push(m);
    }
    Ok(line)
}

/// A notation error for `text` read in the position `fen` (at `ply`, if part of a line).
pub(crate) fn notation_error(
    py: Python<'_>,
    err: &CoreNotationError,
    text: &str,
    fen: String,
    ply: Option<usize>,
) -> PyErr {
    let mut d = Details {
        kind: err.kind(),
        ply,
        text: Some(text.to_owned()),
        fen: Some(fen),
        ..Details::default()
    };
    let message = match ply {
        Some(p) => format!("ply {p}: {err}"),
        None => err.to_string(),
    };
    d.messages = vec![message.clone()];
    match err {
        CoreNotationError::Syntax(e) => {
            d.span = Some((e.span.start, e.span.end));
            errors::raise::<errors::NotationError>(py, message, d)
        }
        CoreNotationError::Resolve(ResolveError::Ambiguous { candidates, .. }) => {
            let err = errors::raise::<errors::AmbiguousMoveError>(py, message, d);
            let listed = PyList::new(py, candidates.iter().map(|&m| PyMove(m)))
                .and_then(|list| err.value(py).setattr("candidates", list));
            match listed {
                Ok(()) => err,
                Err(other) => other,
            }
        }
        CoreNotationError::Resolve(ResolveError::NotStrict { .. }) => {
            errors::raise::<errors::NotationError>(py, message, d)
        }
        CoreNotationError::Resolve(_) => errors::raise::<IllegalMoveError>(py, message, d),
    }
}
