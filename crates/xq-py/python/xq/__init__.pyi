"""Type stubs of the `xq` package (Xiangqi records, notation, rules and arbitration)."""

import io
import os
from typing import (
    Any,
    final,
    Dict,
    Iterable,
    Iterator,
    List,
    Literal,
    Optional,
    Sequence,
    Tuple,
    Union,
)

import numpy
import pyarrow

__all__ = [
    "START_FEN",
    "VOCABULARY_SIZE",
    "MASK_BYTES",
    "Board",
    "Move",
    "LegalMoves",
    "Outcome",
    "Game",
    "Judgement",
    "JudgedMove",
    "BannedMoves",
    "NotationError",
    "IllegalMoveError",
    "AmbiguousMoveError",
    "RecordError",
    "FenError",
    "read_games",
    "validate",
    "judge",
    "limit",
    "banned_moves",
    "vocabulary",
    "vocabulary_path",
    "scan",
    "record_batch",
    "schema",
    "record_files",
    "split_of",
    "unpack_mask",
    "write_dataset",
    "__version__",
]

__version__: str
START_FEN: str
VOCABULARY_SIZE: int
MASK_BYTES: int
RECORD_EXTENSIONS: Tuple[str, ...]

_NotationStyle = Literal["chinese", "traditional", "wxf", "iccs", "ucci", "uci", "san"]
_Side = Literal["red", "black"]
_PathLike = Union[str, "os.PathLike[str]"]
_Source = Union[_PathLike, bytes, bytearray, memoryview, io.IOBase, Iterable[Any]]
_MovesArg = Union[str, Sequence[Union[str, "Move"]]]

class NotationError(ValueError):
    """A move that cannot be read, or names no single legal move in the position."""

    kind: str
    """`syntax`, `no_piece`, `cannot_reach`, `illegal`, `ambiguous` or `not_strict`."""
    span: Optional[Tuple[int, int]]
    """Where reading stopped: a byte range of `text` (syntax errors)."""
    ply: Optional[int]
    """The ply (1-based) of the move in a line given to `judge`/`limit`."""
    candidates: List[Move]
    """The legal moves that fit (ambiguous moves)."""
    text: Optional[str]
    fen: Optional[str]
    messages: List[str]

class IllegalMoveError(NotationError):
    """A move no piece can make here, or that breaks a rule of play."""

class AmbiguousMoveError(NotationError):
    """Several legal moves fit the text; `.candidates` lists them."""

class RecordError(ValueError):
    """A game that cannot be read or replayed (`read_games(..., errors="raise")`)."""

    game: Game

    kind: str
    span: Optional[Tuple[int, int]]
    ply: Optional[int]
    candidates: List[Move]
    text: Optional[str]
    fen: Optional[str]
    messages: List[str]

class FenError(ValueError):
    """A FEN that is not a legal position; `.messages` lists every problem."""

    kind: Literal["syntax", "position"]
    span: Optional[Tuple[int, int]]
    ply: Optional[int]
    candidates: List[Move]
    text: Optional[str]
    fen: Optional[str]
    messages: List[str]

@final
class Move:
    """A move from one point to another; points a0…i9 (files a–i from Red's left, ranks 0–9 from
    Red's side). Hashable, ordered, immutable."""

    @staticmethod
    def from_iccs(text: str) -> Move:
        """Reads `h2e2` (UCCI) or `H2-E2` (ICCS); `NotationError` otherwise."""
    @staticmethod
    def from_label(label: int) -> Move:
        """The move with this index in the 2,086-move vocabulary (`IndexError` outside it)."""
    @property
    def iccs(self) -> str:
        """`h2e2`."""
    @property
    def iccs_dash(self) -> str:
        """`H2-E2`."""
    @property
    def from_square(self) -> int:
        """0 (a0) … 89 (i9): rank × 9 + file."""
    @property
    def to_square(self) -> int: ...
    @property
    def from_name(self) -> str:
        """`h2`."""
    @property
    def to_name(self) -> str: ...
    @property
    def label(self) -> int:
        """The index in the 2,086-move vocabulary."""
    def rotate(self) -> Move:
        """Seen from Black's side (both points turned 180°)."""
    def mirror(self) -> Move:
        """Mirrored left to right."""
    def __hash__(self) -> int: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __lt__(self, other: Move, /) -> bool: ...
    def __le__(self, other: Move, /) -> bool: ...
    def __gt__(self, other: Move, /) -> bool: ...
    def __ge__(self, other: Move, /) -> bool: ...

@final
class LegalMoves:
    """The legal moves of a position: `len()`, `in` (a Move or `"h2e2"`), iteration."""

    def __len__(self) -> int: ...
    def __contains__(self, item: object, /) -> bool: ...
    def __iter__(self) -> Iterator[Move]: ...

@final
class Outcome:
    """The side to move has no legal move: checkmate (将死) or stalemate (困毙), both losses."""

    winner: _Side
    reason: Literal["checkmate", "stalemate"]
    result: Literal["1-0", "0-1"]

@final
class Board:
    """A position and the moves pushed to reach it, like `chess.Board`."""

    def __new__(cls, fen: Optional[str] = None) -> Board:
        """The standard start, or the position of `fen` (`FenError` if it is not legal)."""
    def __copy__(self) -> Board: ...
    def __deepcopy__(self, memo: Any, /) -> Board: ...
    def fen(self) -> str: ...
    @property
    def turn(self) -> _Side: ...
    @property
    def move_stack(self) -> List[Move]: ...
    @property
    def halfmove_clock(self) -> int: ...
    @property
    def fullmove_number(self) -> int: ...
    @property
    def legal_moves(self) -> LegalMoves: ...
    def piece_at(self, square: Union[str, int]) -> Optional[str]:
        """The FEN letter of the piece on `e0` (or index 4), upper case for Red; or None."""
    def parse_move(self, text: str, strict: bool = False) -> Move:
        """Reads a move in Chinese (simplified or traditional), WXF, ICCS or UCCI notation."""
    def push(self, m: Move) -> None:
        """Plays a legal move (`IllegalMoveError` otherwise)."""
    def push_notation(self, text: str, strict: bool = False) -> Move:
        """Reads a move in any notation and plays it."""
    def pop(self) -> Move:
        """Takes back the last move (`IndexError` if none)."""
    def peek(self) -> Move: ...
    def is_legal(self, m: Move) -> bool: ...
    def is_check(self) -> bool: ...
    def is_checkmate(self) -> bool: ...
    def is_stalemate(self) -> bool: ...
    def outcome(self) -> Optional[Outcome]:
        """The result if the side to move has no legal move, else None."""
    def repetition_count(self) -> int:
        """How often the current position has stood since the first pushed move."""
    def notation(self, m: Move, notation: _NotationStyle = "chinese") -> str:
        """Writes a legal move in `notation`."""
    def zobrist_hash(self) -> int:
        """The 64-bit Zobrist hash (placement and side to move)."""
    def legal_mask(self) -> "numpy.ndarray[Any, numpy.dtype[numpy.bool_]]":
        """2,086 booleans: True at the vocabulary label of every legal move."""
    def copy(self) -> Board: ...
    def svg(self, flip: bool = False, size: int = 40) -> str:
        """An SVG picture, the last move marked."""
    def _repr_svg_(self) -> str: ...

@final
class Game:
    """One game of a record, read and replayed."""

    file: Optional[str]
    index: Optional[int]
    @property
    def format(self) -> Optional[str]: ...
    @property
    def encoding(self) -> Optional[str]: ...
    @property
    def headers(self) -> Dict[str, str]:
        """The tags with PGN names (Event, Date, Red, Black, Result, Opening, ECCO, …)."""
    @property
    def start_fen(self) -> str: ...
    @property
    def result(self) -> Optional[Literal["1-0", "0-1", "1/2-1/2"]]: ...
    @property
    def ok(self) -> bool:
        """Whether the game reads and every line replays."""
    @property
    def plies(self) -> int: ...
    @property
    def line(self) -> Optional[int]: ...
    @property
    def errors(self) -> List[Dict[str, Any]]:
        """The first bad move of each line, or why the game could not be read."""
    @property
    def warnings(self) -> List[str]: ...
    @property
    def moves_text(self) -> List[Optional[str]]:
        """The main line's moves as the record writes them."""
    def mainline(self) -> List[Move]:
        """The main line, up to the first bad move."""
    def notation(self, notation: _NotationStyle = "chinese") -> List[str]: ...
    def board(self) -> Board:
        """A board at the start position."""
    def report(self) -> Dict[str, Any]:
        """This game's row of `validate`."""

@final
class JudgedMove:
    ply: int
    side: _Side
    iccs: str
    chinese: str
    kind: str
    """将 杀 捉 兑 献 拦 跟 闲."""
    nature: str
    explanation: str
    explanation_zh: str
    @property
    def move(self) -> Move: ...

@final
class Judgement:
    """A ruling on the repetition at the end of a line."""

    verdict: Literal["draw", "red_must_change", "black_must_change", "no_repetition"]
    rules: Literal["cxa2020", "axf"]
    clause: str
    explanation: str
    explanation_zh: str
    moves: List[JudgedMove]
    @property
    def cycle(self) -> Optional[Dict[str, int]]: ...
    @property
    def sides(self) -> Dict[str, Dict[str, Any]]: ...
    @property
    def limit(self) -> Dict[str, Any]: ...
    @property
    def opening(self) -> Optional[Dict[str, Any]]: ...
    def to_dict(self) -> Dict[str, Any]: ...
    def to_json(self, indent: Optional[int] = None) -> str: ...
    def to_html(self, lang: Optional[str] = None) -> str:
        """The report as one self-contained HTML page, as `xq judge --format html` writes it."""

def judge(
    fen: Optional[str],
    moves: _MovesArg,
    rules: Literal["cxa2020", "axf"] = "cxa2020",
    opening_rounds: Optional[int] = None,
    lang: Literal["en", "zh"] = "en",
    limit_rounds: int = 60,
    check_cap: int = 10,
) -> Judgement:
    """Judges the repetition at the end of `moves` played from `fen` (None: the start)."""

def limit(
    fen: Optional[str],
    moves: _MovesArg,
    rounds: int = 60,
    check_cap: int = 10,
    cap_both: bool = False,
    claimant: Optional[_Side] = None,
) -> List[Dict[str, Any]]:
    """The 60-round audit (自然限着), one dict per claimant."""

class BannedMoves:
    """The forbidden moves of the side to move after a game; `len()`, `in` (a `Move` or a
    coordinate string) and iteration go over the banned moves."""

    side: _Side
    rules: Literal["cxa2020", "axf"]
    @property
    def banned(self) -> List[Move]:
        """Moves that would continue a repetition the side must change."""
    @property
    def draws(self) -> List[Move]:
        """Moves that would make a drawn repetition."""
    @property
    def opponent_must_change(self) -> List[Move]:
        """Moves that repeat a position where the opponent must change (allowed)."""
    def to_dict(self, lang: Optional[Literal["en", "zh"]] = None) -> Dict[str, Any]: ...
    def to_json(self, lang: Optional[Literal["en", "zh"]] = None) -> str: ...
    def to_text(self, lang: Optional[Literal["en", "zh"]] = None) -> str: ...
    def ucci(self) -> str:
        """`banmoves m1 m2 …` for a UCCI engine (`banmoves` alone when none is banned)."""
    def __len__(self) -> int: ...
    def __contains__(self, item: object) -> bool: ...
    def __iter__(self) -> Iterator[Move]: ...

def banned_moves(
    board: Union[Board, str, None] = None,
    moves: Optional[_MovesArg] = None,
    rules: Literal["cxa2020", "axf"] = "cxa2020",
    occurrences: int = 2,
    opening_rounds: Optional[int] = None,
    lang: Literal["en", "zh"] = "en",
) -> BannedMoves:
    """The moves the side to move may not play after the game (a `Board`'s pushed moves, or
    `moves` from a FEN): each would continue a repetition the rules make that side change."""

def vocabulary() -> List[str]:
    """The 2,086 moves of the policy vocabulary, by label."""

def vocabulary_path() -> str:
    """The shipped vocabulary file, one move a line."""

def read_games(
    source: _Source,
    *,
    encoding: Optional[str] = None,
    format: Optional[str] = None,
    jobs: Optional[int] = None,
    strict: bool = False,
    errors: Literal["yield", "raise"] = "yield",
) -> Iterator[Game]:
    """Every game of files, directories, bytes or file objects, read and replayed in parallel."""

def validate(
    paths: _Source,
    jobs: Optional[int] = None,
    *,
    strict: bool = False,
    encoding: Optional[str] = None,
    format: Optional[str] = None,
) -> Iterator[Dict[str, Any]]:
    """One report row per game (the rows of `xq validate --report jsonl`)."""

def split_of(game_id: str, validation: float = 0.1) -> Literal["train", "validation"]: ...
def unpack_mask(packed: bytes) -> "numpy.ndarray[Any, numpy.dtype[numpy.bool_]]": ...
def scan(
    paths: _Source,
    table: Literal["positions", "games"] = "positions",
    *,
    batch_games: int = 1024,
    flip: bool = False,
    mirror: bool = False,
    validation: float = 0.1,
    natures: bool = False,
    jobs: Optional[int] = None,
    encoding: Optional[str] = None,
    format: Optional[str] = None,
) -> Iterator[pyarrow.RecordBatch]:
    """The positions or games table as Arrow record batches."""

def schema(table: Literal["positions", "games"] = "positions") -> pyarrow.Schema:
    """The Arrow schema of the table."""

def record_files(path: _PathLike) -> List[str]:
    """The file itself, or the record files below a directory, in the CLI's order."""

def record_batch(
    games: Sequence[Game],
    table: Literal["positions", "games"] = "positions",
    *,
    flip: bool = False,
    mirror: bool = False,
    validation: float = 0.1,
    natures: bool = False,
) -> pyarrow.RecordBatch:
    """The games or positions table of `games` as one record batch."""

def write_dataset(
    paths: _Source,
    out_dir: str,
    table: Literal["positions", "games"] = "positions",
    *,
    format: Literal["parquet", "jsonl"] = "parquet",
    shard_size: int = 1_000_000,
    flip: bool = False,
    mirror: bool = False,
    validation: float = 0.1,
    natures: bool = False,
    jobs: Optional[int] = None,
) -> Dict[str, Any]:
    """Writes sharded part-NNNNN files and `_manifest.json`; returns the manifest."""
