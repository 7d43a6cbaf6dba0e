"""read_games and validate over the real ccpd-dev archive (3,106 Big5 PGN games) and small inputs
of every kind (bytes, file objects, lists, missing and broken files)."""

import io
from pathlib import Path

import pytest

import xq

KNOWN_DEFECTS = {
    "中局/00002096.pgn": (0, "bad_start"),
    "中局/00002680.pgn": (19, "illegal"),
}


def rel(path: str) -> str:
    return "/".join(Path(path).parts[-2:])


def test_ccpd_dev_reads_and_replays_but_the_two_known_defects(ccpd_games):
    games = ccpd_games
    assert len(games) == 3106
    assert all(g.format == "pgn" and g.encoding == "big5" and g.index == 0 for g in games)
    bad = {rel(g.file): (g.errors[0]["ply"], g.errors[0]["kind"]) for g in games if not g.ok}
    assert bad == KNOWN_DEFECTS
    illegal = next(g for g in games if rel(g.file) == "中局/00002680.pgn")
    e = illegal.errors[0]
    assert e["move"] == "馬６退７"
    assert e["fen"] == "2b1ka1C1/4a4/4b4/R5N1p/c1p6/5n3/2P1P3P/1rNRBA1n1/7C1/2BAK3c b - - 8 10"
    assert illegal.plies == 18  # the main line stops before the bad move
    assert sum(g.plies for g in games) > 200_000


def test_the_mainline_replays_on_a_board_and_rereads_from_the_record_text(ccpd_games):
    # Every game's main line is legal move by move; for a sample, each recorded token read on
    # the board gives the same move as the reader (two paths through the notation code).
    for g in ccpd_games:
        if not g.ok:
            continue
        b = g.board()
        assert b.fen() == g.start_fen
        for m in g.mainline():
            assert m in b.legal_moves
            b.push(m)
    for g in ccpd_games[::10]:
        if not g.ok:
            continue
        b = g.board()
        for text, m in zip(g.moves_text, g.mainline()):
            assert b.parse_move(text) == m
            b.push(m)


def test_headers_result_and_notation(ccpd_games):
    g = next(g for g in ccpd_games if g.ok and g.plies >= 4)
    h = g.headers
    assert h["Red"] and h["Black"] and "Event" in h
    assert g.result in ("1-0", "0-1", "1/2-1/2", None)
    assert g.result == (h.get("Result") if h.get("Result") in ("1-0", "0-1", "1/2-1/2") else None)
    trad = g.notation("traditional")
    assert len(trad) == g.plies
    # The archive writes traditional Chinese: the same moves written back read the same.
    b = g.board()
    for text, m in zip(trad, g.mainline()):
        assert b.parse_move(text, strict=True) == m
        b.push(m)
    assert [str(m) for m in g.mainline()] == g.notation("ucci")
    assert "plies" in repr(g)


def test_sources_bytes_file_objects_and_lists(ccpd):
    path = next((ccpd / "Dataset").rglob("*.pgn"))
    from_path = list(xq.read_games(path))
    from_str = list(xq.read_games(str(path)))
    data = path.read_bytes()
    from_bytes = list(xq.read_games(data))
    with open(path, "rb") as f:
        from_file = list(xq.read_games(f))
    from_list = list(xq.read_games([path, data]))
    (named,) = xq.read_games(("spark/part/game.pgn", data))
    assert named.file == "spark/part/game.pgn" and named.mainline() == from_path[0].mainline()
    for games in [from_str, from_bytes, from_file, from_list[:1], from_list[1:]]:
        assert len(games) == 1
        assert games[0].mainline() == from_path[0].mainline()
        assert games[0].headers == from_path[0].headers
    assert from_bytes[0].file is None and from_file[0].file == str(path)
    text = "[Red \"甲\"]\n[Black \"乙\"]\n1. 炮二平五 马８进７ 2. 马二进三 *\n"
    (g,) = xq.read_games(io.StringIO(text))
    assert g.ok and g.headers["Red"] == "甲" and [m.iccs for m in g.mainline()] == ["h2e2", "h9g7", "h0g2"]
    assert g.encoding == "utf-8"


def test_missing_broken_and_non_record_files(tmp_path):
    with pytest.raises(FileNotFoundError):
        list(xq.read_games(tmp_path / "nope.pgn"))
    broken = tmp_path / "broken.pgn"
    broken.write_text("1. 炮二平五 { never closed\n", encoding="utf-8")
    (g,) = xq.read_games(broken)
    assert not g.ok and g.errors[0]["kind"] == "syntax" and g.errors[0]["line"] == 1
    bad_move = tmp_path / "bad.pgn"
    bad_move.write_text("1. 炮二平五 马８进７ 2. 马二进四 *\n", encoding="utf-8")
    (g,) = xq.read_games(bad_move)
    assert not g.ok and g.plies == 2
    assert (g.errors[0]["ply"], g.errors[0]["kind"], g.errors[0]["move"]) == (3, "no_match", "马二进四")
    with pytest.raises(xq.RecordError) as e:
        list(xq.read_games(bad_move, errors="raise"))
    assert (e.value.kind, e.value.ply, e.value.text) == ("no_match", 3, "马二进四")
    assert e.value.fen == "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2"
    assert e.value.game.plies == 2 and isinstance(e.value, ValueError)
    with pytest.raises(xq.RecordError) as e:
        list(xq.read_games(broken, errors="raise"))
    assert e.value.kind == "syntax" and e.value.ply is None
    # Found in a directory, a note that is not a record is skipped; named, it is reported.
    note = tmp_path / "notes.txt"
    note.write_text("shopping: milk, eggs\n", encoding="utf-8")
    found = {Path(g.file).name for g in xq.read_games(tmp_path)}
    assert found == {"broken.pgn", "bad.pgn"}
    (named,) = xq.read_games(note)
    assert not named.ok
    with pytest.raises(TypeError):
        list(xq.read_games(42))
    with pytest.raises(ValueError):
        list(xq.read_games(broken, format="nonsense"))


def test_validate_rows_are_the_cli_report(ccpd, ccpd_games):
    rows = list(xq.validate([ccpd], jobs=2))
    assert len(rows) == 3106
    failed = {rel(r["file"]): (r["error"]["ply"], r["error"]["kind"]) for r in rows if not r["ok"]}
    assert failed == KNOWN_DEFECTS
    r = rows[0]
    assert set(r) >= {"file", "game", "ok", "format", "encoding", "line", "plies", "lines"}
    assert (r["format"], r["encoding"], r["game"]) == ("pgn", "big5", 0)
    # The same rows as each game's own report, in the same (sorted) order.
    assert rows == [g.report() for g in ccpd_games]
    one = list(xq.validate(ccpd / "Dataset" / "中局" / "00002680.pgn"))
    assert one[0]["error"]["kind"] == "illegal" and one[0]["plies"] == 18


def test_validate_jobs_give_the_same_rows(ccpd):
    sub = ccpd / "Dataset" / "全盤戰術"
    assert list(xq.validate(sub, jobs=1)) == list(xq.validate(sub, jobs=2))


@pytest.mark.parametrize("jobs", [0, 257, 100000])
def test_a_thread_count_out_of_range_is_refused(ccpd, jobs):
    sub = ccpd / "Dataset" / "全盤戰術"
    with pytest.raises(ValueError, match="1 to 256"):
        list(xq.validate(sub, jobs=jobs))
    with pytest.raises(ValueError, match="1 to 256"):
        list(xq.read_games(sub, jobs=jobs))
    # Bytes are read in the calling thread, but the count is refused all the same.
    with pytest.raises(ValueError, match="1 to 256"):
        list(xq.read_games(b"1. h2e2 *\n", jobs=jobs))


def test_validate_matches_the_command(ccpd, xq_command):
    """The same rows as `xq validate --report jsonl`, when the command has been built (cargo test
    builds target/debug/xq, so CI always has it)."""
    import json
    import os
    import subprocess

    binary = xq_command
    sub = str(ccpd / "Dataset" / "中局")
    run = subprocess.run(
        [str(binary), "validate", "-q", "--report", "jsonl", sub],
        capture_output=True,
        env={**os.environ, "NO_COLOR": "1"},
    )
    assert run.returncode == 1, run.stderr  # the two known defects are in this folder
    cli = [json.loads(line) for line in run.stdout.decode("utf-8").splitlines()]
    assert len(cli) == 184
    assert list(xq.validate(sub)) == cli


def test_a_note_found_beside_records_is_a_skipped_row(tmp_path, xq_command):
    """Found in a directory, a file that is no record is a row of kind `skipped` (not a failure),
    as in `xq validate --report jsonl`; `read_games` yields no game for it."""
    import json
    import subprocess

    (tmp_path / "a.pgn").write_text('[Event "t"]\n1. h2e2 h9g7 1-0\n', encoding="utf-8")
    (tmp_path / "notes.txt").write_text("shopping: milk, eggs\n", encoding="utf-8")
    rows = list(xq.validate(tmp_path))
    said = [(Path(r["file"]).name, r["ok"], (r.get("error") or {}).get("kind")) for r in rows]
    assert said == [("a.pgn", True, None), ("notes.txt", False, "skipped")]
    assert [Path(g.file).name for g in xq.read_games(tmp_path)] == ["a.pgn"]
    run = subprocess.run(
        [str(xq_command), "validate", "-q", "--report", "jsonl", str(tmp_path)],
        capture_output=True,
    )
    assert run.returncode == 0, run.stderr
    assert [json.loads(line) for line in run.stdout.decode("utf-8").splitlines()] == rows
    # The same for a note too large to be read whole (streamed): its row, no game.
    (tmp_path / "notes.txt").write_text("shopping: milk, eggs\n" * 250_000, encoding="utf-8")
    assert (tmp_path / "notes.txt").stat().st_size > 4 << 20
    assert list(xq.validate(tmp_path)) == rows
    assert [Path(g.file).name for g in xq.read_games(tmp_path)] == ["a.pgn"]


def test_a_large_file_is_streamed_with_the_same_games(ccpd, ccpd_games, tmp_path):
    # All of ccpd-dev twice in one Big5 file of some 7 MB: over the 4 MB at which files are
    # streamed (4,096 games a chunk, so chunks meet in the middle of the archive).
    big = tmp_path / "all.pgn"
    ccpd_games = ccpd_games * 2
    with open(big, "wb") as out:
        for g in ccpd_games:
            out.write(Path(g.file).read_bytes().rstrip() + b"\n\n")
    assert big.stat().st_size > 4 << 20
    games = list(xq.read_games(big, jobs=2))
    assert len(games) == len(ccpd_games)
    assert [g.index for g in games] == list(range(len(games)))
    assert all(g.file == str(big) and g.encoding == "big5" for g in games)
    assert [g.mainline() for g in games] == [g.mainline() for g in ccpd_games]
    assert [g.ok for g in games] == [g.ok for g in ccpd_games]
    rows = list(xq.validate(big))
    assert [r["game"] for r in rows] == list(range(len(games)))
    assert sum(not r["ok"] for r in rows) == 4


def test_every_format_and_encoding(shared):
    """Binary and text formats from the shared samples (read here, never copied into the
    project), GBK told from Big5 and UTF-8, and the project's catalogue of bad inputs."""
    from collections import Counter

    def kinds(path):
        return Counter((g.format, g.encoding, g.ok) for g in xq.read_games(path))

    samples = kinds(shared / "data" / "cchess-samples")
    assert samples == Counter(
        {("cbl", None, True): 36, ("xqf", None, True): 4, ("pgn", "gbk", True): 2,
         ("txt", "utf-8", True): 2, ("cbf", "utf-8", True): 1, ("cbr", None, True): 1}
    )
    assert kinds(shared / "data" / "xqbase-eleeye") == Counter({("pgn", "gbk", True): 21, ("xqf", None, True): 3})
    wukong = kinds(shared / "data" / "wukong")
    assert wukong[("pgn", "utf-8", True)] == 2546 and wukong[("dhtmlxq", "utf-8", True)] == 2
    # The catalogue of bad records: each gives a game with its error (or, for text that once
    # lost games, every game), never an exception; the
    # fuzzers' findings below it read without one too.
    bad = Path(__file__).resolve().parents[3] / "fixtures" / "bad"
    found = {
        f.name: [(g.ok, g.errors[0]["kind"] if g.errors else None) for g in xq.read_games(f)]
        for f in sorted(bad.glob("*.*"))
        if f.suffix in (".pgn", ".xqf")
    }
    assert found == {
        "pgn-ambiguous-move.pgn": [(False, "ambiguous")],
        "pgn-bad-start.pgn": [(False, "bad_start")] * 2,
        # Text that once lost games or characters (data-safety round): every game reads.
        "pgn-concatenated-boms.pgn": [(True, None)] * 3,
        "pgn-cr-line-ends.pgn": [(True, None)] * 3,
        "pgn-mixed-utf8-gbk.pgn": [(True, None)] * 3,
        "pgn-undecodable-byte.pgn": [(True, None)],
        "pgn-illegal-move.pgn": [(False, "illegal")],
        "pgn-stray-parenthesis.pgn": [(False, "syntax")],
        "pgn-unclosed-comment.pgn": [(False, "syntax")],
        "pgn-unclosed-variation.pgn": [(False, "syntax")],
        "pgn-unknown-encoding.pgn": [(False, "unreadable")],
        "xqf-offset-outside.xqf": [(False, "bad_offset")],
        "xqf-truncated.xqf": [(False, "truncated")],
        "xqf-unknown-version.xqf": [(False, "unsupported")],
        "xqf-wrong-keys.xqf": [(False, "bad_keys")],
    }
    assert len(list(xq.read_games(bad / "fuzz"))) > 0
