"""Xiangqi (Chinese chess) for Python: boards and moves in every notation, game records in every
format with their encoding detected, validation, the CXA 2020 / AXF repetition rulings, the
60-round audit, and Arrow/Parquet datasets for machine learning.

The work is done in Rust (the `xq` toolkit); reading, replaying, validating and judging release
the GIL and spread over the cores.

>>> import xq
>>> b = xq.Board()
>>> m = b.parse_move("炮二平五")
>>> m.iccs
'h2e2'
>>> b.push(m)
>>> b.notation(b.parse_move("马8进7"), "wxf")
'H8+7'
"""

from __future__ import annotations

import hashlib
import io
import json
import os
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

from ._xq import (
    MASK_BYTES,
    START_FEN,
    VOCABULARY_SIZE,
    AmbiguousMoveError,
    BannedMoves,
    Board,
    FenError,
    Game,
    IllegalMoveError,
    JudgedMove,
    Judgement,
    LegalMoves,
    Move,
    NotationError,
    Outcome,
    RecordError,
    __version__,
    banned_moves,
    judge,
    limit,
    vocabulary,
)
from . import _xq

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

#: Extensions of record files looked for in directories (as the `xq` command does).
RECORD_EXTENSIONS = ("pgn", "xqf", "cbr", "cbl", "cbf", "txt", "json", "htm", "html", "ubb")

Source = Union[str, "os.PathLike[str]", bytes, bytearray, memoryview, io.IOBase]

# Files read and replayed together on the worker threads; results come back in order.
_BATCH = 256


def record_files(path: Any) -> List[str]:
    """The record files a path stands for: the file itself, or every file with a record extension
    below a directory, sorted by name directory by directory (the order of the `xq` command)."""
    path = os.fspath(path)
    return _walk(path) if os.path.isdir(path) else [path]


def _walk(directory: str) -> List[str]:
    """Record files below `directory`, sorted by name directory by directory (the CLI's order)."""
    out: List[str] = []
    try:
        entries = sorted(os.scandir(directory), key=lambda e: e.name)
    except OSError:
        return out
    for entry in entries:
        if entry.is_dir(follow_symlinks=False):
            out.extend(_walk(entry.path))
        elif entry.is_file():
            ext = os.path.splitext(entry.name)[1][1:].lower()
            if ext in RECORD_EXTENSIONS:
                out.append(entry.path)
    return out


def _sources(source: Any) -> Iterator[Union[Tuple[str, bool], Tuple[bytes, Optional[str]]]]:
    """Each input as ("path", found_in_a_directory) or (b"bytes", name)."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        yield (bytes(source), None)
    elif isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        if os.path.isdir(path):
            for f in _walk(path):
                yield (f, True)
        elif os.path.exists(path):
            yield (path, False)
        else:
            raise FileNotFoundError(2, "No such file or directory", path)
    elif (
        isinstance(source, tuple)
        and len(source) == 2
        and isinstance(source[0], str)
        and isinstance(source[1], (bytes, bytearray, memoryview))
    ):
        # (name, content): a record held in memory with the name it had (Spark's binaryFile rows).
        yield (bytes(source[1]), source[0])
    elif hasattr(source, "read"):
        data = source.read()
        if isinstance(data, str):
            data = data.encode("utf-8")
        yield (bytes(data), getattr(source, "name", None) if isinstance(getattr(source, "name", None), str) else None)
    elif isinstance(source, Iterable):
        for item in source:
            yield from _sources(item)
    else:
        raise TypeError(f"cannot read games from {type(source).__name__}: give a path, bytes or a file object")


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def _batched(source: Any, run_files: Any, run_bytes: Any, run_large: Any) -> Iterator[Any]:
    """Small files go to `run_files` in batches (read in parallel), a large file to `run_large`
    (streamed in chunks of games), bytes to `run_bytes`; results come out in input order."""
    pending: List[Tuple[str, bool]] = []
    for item in _sources(source):
        if isinstance(item[0], bytes):
            if pending:
                yield from run_files(pending)
                pending = []
            yield from run_bytes(item[0], item[1])
        elif _size(item[0]) > _xq._LARGE:  # type: ignore[arg-type]
            if pending:
                yield from run_files(pending)
                pending = []
            yield from run_large(item[0], item[1])
        else:
            pending.append(item)  # type: ignore[arg-type]
            if len(pending) >= _BATCH:
                yield from run_files(pending)
                pending = []
    if pending:
        yield from run_files(pending)


def _check_jobs(jobs: Optional[int]) -> None:
    """Refuses a thread count out of 1 to MAX_JOBS at once, whatever the source (bytes read in
    this thread as well)."""
    if jobs is not None and not 1 <= jobs <= _xq.MAX_JOBS:
        raise ValueError(f"jobs: from 1 to {_xq.MAX_JOBS} threads (None: one per core)")


def read_games(
    source: Any,
    *,
    encoding: Optional[str] = None,
    format: Optional[str] = None,
    jobs: Optional[int] = None,
    strict: bool = False,
    errors: str = "yield",
) -> Iterator[Game]:
    """Every game of `source`, read and replayed.

    `source` is a file or directory path (directories are searched for record files), bytes, a
    `(name, bytes)` pair (the name is kept as the game's file and its extension helps tell the
    format), a binary or text file object, or a list of these. Any format (PGN, XQF, DhtmlXQ, CBR/CBL/CBF,
    move lists, JSON); the text encoding is detected unless `encoding` is given. Files are read
    on `jobs` threads (1 to 256; all cores by default) without the GIL.

    A game that cannot be read, or whose moves stop replaying, is still yielded: `g.ok` is False
    and `g.errors` says why; with `errors="raise"` it raises `xq.RecordError` instead (its
    `.kind`, `.ply`, `.text`, `.fen` those of the first error, `.game` the game). A file named in
    `source` that does not exist raises FileNotFoundError; a file found in a directory that is
    not a record is skipped.
    """
    if errors not in ("yield", "raise"):
        raise ValueError(f"errors must be 'yield' or 'raise', not {errors!r}")
    _check_jobs(jobs)

    def files(batch: List[Tuple[str, bool]]) -> List[Game]:
        return _xq._read_files(batch, encoding, format, jobs, strict)

    def data(buf: bytes, name: Optional[str]) -> List[Game]:
        return _xq._read_bytes(buf, name, encoding, format, strict)

    def large(path: str, found: bool) -> Iterator[Game]:
        for chunk in _xq._stream_file(path, found, encoding, format, jobs, strict):
            yield from chunk

    games = _batched(source, files, data, large)
    return games if errors == "yield" else _raising(games)


def _raising(games: Iterator[Game]) -> Iterator[Game]:
    for g in games:
        if not g.ok:
            first = g.errors[0]
            where = f"{g.file or '<bytes>'}" + (f", game {g.index + 1}" if g.index is not None else "")
            ply = first.get("ply")
            at = f", ply {ply}" if ply else ""
            err = RecordError(f"{where}{at}: {first['message']} [{first['kind']}]")
            err.kind = first["kind"]
            err.ply = ply
            err.span = None
            err.candidates = []
            err.text = first.get("move")
            err.fen = first.get("fen")
            err.messages = [e["message"] for e in g.errors]
            err.game = g
            raise err
        yield g


def validate(
    paths: Any,
    jobs: Optional[int] = None,
    *,
    strict: bool = False,
    encoding: Optional[str] = None,
    format: Optional[str] = None,
) -> Iterator[Dict[str, Any]]:
    """Validates every game of `paths` (as `read_games` takes them): one dict per game, the rows
    of `xq validate --report jsonl` (file, game, ok, format, encoding, line, plies, lines, error,
    more_errors, warnings). Runs on `jobs` threads without the GIL."""
    _check_jobs(jobs)

    def files(batch: List[Tuple[str, bool]]) -> List[Dict[str, Any]]:
        return _xq._validate_files(batch, encoding, format, jobs, strict)

    def data(buf: bytes, name: Optional[str]) -> List[Dict[str, Any]]:
        return [g.report() for g in _xq._read_bytes(buf, name, encoding, format, strict)]

    def large(path: str, found: bool) -> Iterator[Dict[str, Any]]:
        # (A file found that is no record gives its row of kind `skipped`.)
        for chunk in _xq._stream_file(path, found, encoding, format, jobs, strict, True):
            yield from (g.report() for g in chunk)

    return _batched(paths, files, data, large)


def vocabulary_path() -> str:
    """The path of the shipped vocabulary file: the 2,086 moves, one per line, by label."""
    return os.path.join(os.path.dirname(__file__), "iccs_vocabulary.txt")


def split_of(game_id: str, validation: float = 0.1) -> str:
    """`"validation"` for about a `validation` share of games, `"train"` for the others, decided by
    a hash of the game id (BLAKE2b with an 8-byte digest, as `hashlib.blake2b(game_id,
    digest_size=8)`): the same on every machine, in every run, and in the `xq dataset` command."""
    return _xq.split_of(game_id, validation)


def unpack_mask(packed: bytes) -> Any:
    """A `legal_mask` cell of the positions table (261 bytes) as 2,086 numpy booleans."""
    import numpy as np

    bits = np.unpackbits(np.frombuffer(packed, dtype=np.uint8), bitorder="little")
    return bits[:VOCABULARY_SIZE].astype(bool)


def schema(table: str = "positions") -> Any:
    """The `pyarrow.Schema` of the positions or games table."""
    if table not in ("positions", "games"):
        raise ValueError(f"unknown table {table!r}: use positions or games")
    return _schema(table)


def _arrow_type(name: str) -> Any:
    """The pyarrow type written `name` (as `str(type)` writes it)."""
    import pyarrow as pa

    if name.startswith("fixed_size_binary[") and name.endswith("]"):
        return pa.binary(int(name[len("fixed_size_binary[") : -1]))
    return {
        "string": pa.string(),
        "uint8": pa.uint8(),
        "uint16": pa.uint16(),
        "uint32": pa.uint32(),
        "int8": pa.int8(),
        "bool": pa.bool_(),
        "map<string, string>": pa.map_(pa.string(), pa.string()),
        "list<item: string>": pa.list_(pa.string()),
    }[name]


def _schema(table: str) -> Any:
    # The columns are defined once, in Rust (`xq_dataset::columns`), for this package and the
    # `xq dataset` command alike.
    import pyarrow as pa

    return pa.schema([(name, _arrow_type(type_)) for name, type_ in _xq._schema(table)])


def record_batch(
    games: Sequence[Game],
    table: str = "positions",
    *,
    flip: bool = False,
    mirror: bool = False,
    validation: float = 0.1,
    natures: bool = False,
) -> Any:
    """The games or positions table of `games` (from `read_games`) as one `pyarrow.RecordBatch`;
    see `scan` for the columns."""
    if table not in ("positions", "games"):
        raise ValueError(f"unknown table {table!r}: use positions or games")
    return _batch(list(games), table, flip, mirror, validation, natures)


def _batch(
    games: List[Game], table: str, flip: bool, mirror: bool, validation: float, natures: bool = False
) -> Any:
    import pyarrow as pa

    cols = _xq._columns(games, table, flip, mirror, natures, validation)
    schema = _schema(table)
    if table == "positions":
        n = cols["rows"]

        def arr(name: str) -> Any:
            validity, *buffers = cols[name]
            bufs = [None if validity is None else pa.py_buffer(validity)]
            return pa.Array.from_buffers(schema.field(name).type, n, bufs + [pa.py_buffer(b) for b in buffers])

        mask = pa.FixedSizeBinaryArray.from_buffers(
            pa.binary(MASK_BYTES), n, [None, pa.py_buffer(cols["legal_mask"])]
        )
        arrays = [mask if f.name == "legal_mask" else arr(f.name) for f in schema]
    else:
        arrays = [pa.array(cols[f.name], f.type) for f in schema]
    return pa.RecordBatch.from_arrays(arrays, schema=schema)


def scan(
    paths: Any,
    table: str = "positions",
    *,
    batch_games: int = 1024,
    flip: bool = False,
    mirror: bool = False,
    validation: float = 0.1,
    natures: bool = False,
    jobs: Optional[int] = None,
    encoding: Optional[str] = None,
    format: Optional[str] = None,
) -> Iterator[Any]:
    """The games or positions table of `paths` (as `read_games` takes them) as
    `pyarrow.RecordBatch`es of about `batch_games` games each, for polars, DuckDB or pandas.

    positions: one row per ply of every main line: game_id, ply, fen, move_iccs, label (index into
    `xq.vocabulary()`), legal_mask (2,086 bits packed little-endian into 261 bytes: see
    `xq.unpack_mask`), result_stm (+1 the side to move won, -1 lost, 0 draw, null unknown),
    halfmove_clock, repetition (how often the position has stood so far, this time included),
    nature (with `natures=True`: the move's nature under the CXA 2020 rules, 将 杀 捉 兑 献 拦 跟
    闲; null otherwise; about 0.1 ms a move), split. `flip=True` rotates Black-to-move positions so that the side to move is always Red;
    `mirror=True` mirrors every position left to right (both change fen, move_iccs, label and
    legal_mask together).

    games: one row per game: game_id, file, index, tags, red, black, event, opening, start_fen,
    moves_iccs, moves_chinese, result, plies, ok, error, split.

    `split` is "train" or "validation", by a hash of game_id (`xq.split_of`)."""
    if table not in ("positions", "games"):
        raise ValueError(f"unknown table {table!r}: use positions or games")
    pending: List[Game] = []
    for g in read_games(paths, encoding=encoding, format=format, jobs=jobs):
        pending.append(g)
        if len(pending) >= batch_games:
            yield _batch(pending, table, flip, mirror, validation, natures)
            pending = []
    if pending:
        yield _batch(pending, table, flip, mirror, validation, natures)


def _sha256(path: str) -> Optional[str]:
    h = hashlib.sha256()
    try:
        with open(path, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                h.update(chunk)
    except OSError:
        return None
    return h.hexdigest()


def write_dataset(
    paths: Any,
    out_dir: str,
    table: str = "positions",
    *,
    format: str = "parquet",
    shard_size: int = 1_000_000,
    flip: bool = False,
    mirror: bool = False,
    validation: float = 0.1,
    natures: bool = False,
    jobs: Optional[int] = None,
) -> Dict[str, Any]:
    """Writes the games or positions table of `paths` into `out_dir` as shards of at most
    `shard_size` rows, `part-00000.parquet` (or `.jsonl`), … and a `_manifest.json` (inputs with
    their SHA-256, row and game counts, failed games, options, xq version). Each shard is written
    to a temporary name and renamed when complete. Returns the manifest.

    JSON lines hold the legal mask as a hex string and the tags as an object; they are the lines
    `xq dataset --format jsonl` writes, byte for byte. A file that cannot be hashed (it cannot
    be read) has a null `sha256`."""
    if format not in ("parquet", "jsonl"):
        raise ValueError(f"unknown format {format!r}: use parquet or jsonl")
    if table not in ("positions", "games"):
        raise ValueError(f"unknown table {table!r}: use positions or games")
    if shard_size < 1:
        raise ValueError(f"shard_size must be at least 1, not {shard_size}")
    os.makedirs(out_dir, exist_ok=True)
    inputs: List[str] = []
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    for p in paths:
        inputs.extend(record_files(p))
    shards: List[Dict[str, Any]] = []
    counts = {"games": 0, "rows": 0, "failed_games": 0}
    failures: List[Dict[str, Any]] = []
    pending: List[Any] = []
    pending_rows = 0

    def flush() -> None:
        nonlocal pending, pending_rows
        if not pending:
            return
        name = f"part-{len(shards):05d}.{format}"
        final = os.path.join(out_dir, name)
        tmp = final + ".tmp"
        if format == "parquet":
            import pyarrow as pa
            import pyarrow.parquet as pq

            pq.write_table(pa.Table.from_batches(pending), tmp, compression="zstd")
        else:
            with open(tmp, "w", encoding="utf-8", newline="\n") as f:
                for lines in pending:
                    f.writelines(line + "\n" for line in lines)
        os.replace(tmp, final)
        shards.append({"file": name, "rows": pending_rows})
        pending, pending_rows = [], 0

    batch_games = 512
    games: List[Game] = []

    def add(batch_of_games: List[Game]) -> None:
        nonlocal pending_rows
        if format == "parquet":
            batch = _batch(batch_of_games, table, flip, mirror, validation, natures)
            rows = batch.num_rows
        else:
            batch = _xq._json_lines(batch_of_games, table, flip, mirror, natures, validation)
            rows = len(batch)
        start = 0
        while start < rows:
            take = min(rows - start, shard_size - pending_rows)
            pending.append(batch.slice(start, take) if format == "parquet" else batch[start : start + take])
            pending_rows += take
            start += take
            if pending_rows >= shard_size:
                flush()

    for g in read_games(inputs, jobs=jobs):
        counts["games"] += 1
        if not g.ok:
            counts["failed_games"] += 1
            failures.append({"file": g.file, "game": g.index, "errors": g.errors})
        games.append(g)
        if len(games) >= batch_games:
            add(games)
            games = []
    if games:
        add(games)
    flush()
    counts["rows"] = sum(s["rows"] for s in shards)
    manifest = {
        "xq_version": __version__,
        "table": table,
        "format": format,
        "options": {
            "flip": flip,
            "mirror": mirror,
            "validation": validation,
            "shard_size": shard_size,
            "natures": natures,
        },
        "inputs": [{"file": p, "sha256": _sha256(p)} for p in inputs],
        "counts": counts,
        "failures": failures,
        "shards": shards,
    }
    tmp = os.path.join(out_dir, "_manifest.json.tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(manifest, f, ensure_ascii=False, indent=1)
    os.replace(tmp, os.path.join(out_dir, "_manifest.json"))
    return manifest
