"""xq.judge over the CXA 2020 rulebook cases, and xq.limit's 60-round audit."""

import json
from pathlib import Path

import pytest

import xq

FAMILY = {"将": "将", "杀": "杀", "捉": "捉", "兑": "闲", "献": "闲", "拦": "闲", "跟": "闲", "闲": "闲"}


def test_every_rulebook_verdict(cxa_cases):
    assert len(cxa_cases) == 56
    wrong = []
    labels = same_family = 0
    for case in cxa_cases:
        r = xq.judge(case["fen"], case["moves"], rules="cxa2020")
        assert r.verdict != "no_repetition", case["id"]
        if r.verdict != case["verdict"]:
            wrong.append((case["id"], r.verdict, case["verdict"]))
        assert r.rules == "cxa2020" and r.clause
        assert r.cycle is not None and r.cycle["occurrences"] >= 2
        assert set(r.sides) == {"red", "black"}
        for m in r.moves:
            assert m.kind in FAMILY and m.explanation and m.explanation_zh
            assert m.side in ("red", "black")
        # The case's moves are one cycle: every move is judged, in order.
        if len(r.moves) == len(case["moves"]):
            assert [m.iccs for m in r.moves] == case["moves"]
            for m, book in zip(r.moves, case["book_labels"]):
                labels += 1
                same_family += FAMILY[m.kind] == FAMILY[book]
    assert wrong == []
    assert labels > 150 and same_family * 100 >= labels * 95, (same_family, labels)


def test_moves_in_any_notation_give_the_same_judgement(cxa_cases):
    case = next(c for c in cxa_cases if c["id"] == "2020-图2")
    a = xq.judge(case["fen"], case["moves"])
    b = xq.judge(case["fen"], case["book_moves"])
    c = xq.judge(case["fen"], " ".join(case["moves"]))
    board = xq.Board(case["fen"])
    moves = []
    for t in case["moves"]:
        moves.append(board.push_notation(t))
    d = xq.judge(case["fen"], moves)
    assert a.to_json() == b.to_json() == c.to_json() == d.to_json()
    assert (a.verdict, a.clause) == ("red_must_change", "25.3")
    assert [m.kind for m in a.moves] == case["book_labels"]
    full_width = str.maketrans("１２３４５６７８９", "123456789")
    assert [m.chinese.translate(full_width) for m in a.moves] == case["book_moves"]
    assert a.moves[0].move == xq.Move.from_iccs("h6i4")
    assert a.sides["red"] == {"pattern": "长捉", "pattern_en": "perpetual chase", "forbidden": True}


def test_report_json_and_languages(cxa_cases):
    case = cxa_cases[0]
    r = xq.judge(case["fen"], case["moves"], lang="zh")
    d = json.loads(r.to_json())
    assert d == r.to_dict()
    assert set(d) >= {"verdict", "rules", "clause", "explanation", "cycle", "sides", "limit", "moves"}
    assert d["explanation"] == r.explanation_zh
    assert d["moves"][0]["explanation"] == r.moves[0].explanation_zh
    assert json.loads(r.to_json(indent=2)) == d
    en = xq.judge(case["fen"], case["moves"], lang="en").to_dict()
    assert en["explanation"] == r.explanation


def test_report_html_is_the_commands(cxa_cases, monkeypatch):
    # The same page `xq judge --format html` writes: one self-contained document, boards inline.
    # Both stamp the report with SOURCE_DATE_EPOCH when it is set, the clock otherwise.
    import subprocess

    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    case = cxa_cases[0]
    r = xq.judge(case["fen"], case["moves"])
    page = r.to_html()
    assert page.startswith("<!DOCTYPE html>") or page.lstrip().lower().startswith("<!doctype html>")
    assert "<svg" in page and "<script" not in page
    assert r.to_html("zh") != page
    binary = Path(__file__).resolve().parents[3] / "target" / "debug" / "xq"
    if binary.exists():
        cli = subprocess.run(
            [str(binary), "judge", "--fen", case["fen"], "--moves", " ".join(case["moves"]),
             "--format", "html", "--lang", "en"],
            capture_output=True, text=True, check=True,
        ).stdout
        assert cli == page


def test_axf_rules_and_bad_arguments(shared):
    cases = json.loads((shared / "cases" / "axf-dev.json").read_text(encoding="utf-8"))
    agree = sum(xq.judge(c["fen"], c["moves"], rules="axf").verdict == c["verdict"] for c in cases)
    assert agree * 100 >= len(cases) * 90, (agree, len(cases))
    with pytest.raises(ValueError):
        xq.judge(None, ["h2e2"], rules="fide")
    with pytest.raises(xq.IllegalMoveError) as e:
        xq.judge(None, ["h2e2", "h9g7", "e2e9"])
    assert e.value.ply == 3 and e.value.fen is not None
    with pytest.raises(xq.NotationError) as e:
        xq.judge(None, "炮二平五 马8进")
    assert e.value.ply == 2 and e.value.kind == "syntax"
    r = xq.judge(None, "炮二平五 马8进7")
    assert r.verdict == "no_repetition" and r.clause == "" and r.cycle is None


def test_limit_counts_sixty_rounds():
    fen = "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1"
    moves = ["a0a1", "d9d8", "a1a0", "d8d9"] * 30
    red, black = xq.limit(fen, moves)
    assert red["claimant"] == "red" and black["claimant"] == "black"
    assert red["verdict"] == "draw_from" and red["ply"] == 120 and red["round"] == 60
    assert len(red["rows"]) == 120 and red["rows"][0]["chinese"] == "车九进一"
    short = xq.limit(fen, moves[:100], claimant="red")
    assert len(short) == 1 and short[0]["verdict"] == "not_yet" and short[0]["counted"] == 100
    # Events may lower the limit.
    lowered = xq.limit(fen, moves, rounds=1, claimant="red")
    assert lowered[0]["verdict"] == "draw_from" and lowered[0]["ply"] == 2
    with pytest.raises(ValueError):
        xq.limit(fen, moves, claimant="green")


def test_the_report_is_the_commands(shared, cxa_cases, monkeypatch, xq_command):
    """to_json() is what `xq judge --format json` writes for the same FEN and moves, for every
    CXA case and a share of the AXF ones."""
    import os
    import subprocess

    # Both stamp the report with SOURCE_DATE_EPOCH when it is set (the clock otherwise).
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    binary = xq_command
    axf = json.loads((shared / "cases" / "axf-dev.json").read_text(encoding="utf-8"))
    runs = [("cxa2020", c) for c in cxa_cases] + [("axf", c) for c in axf[::5]]
    for rules, case in runs:
        out = subprocess.run(
            [str(binary), "judge", "--rules", rules, "--format", "json", "--lang", "en",
             "--fen", case["fen"], "--moves", " ".join(case["moves"])],
            capture_output=True,
            env={**os.environ, "NO_COLOR": "1"},
        )
        assert out.returncode == 0, out.stderr
        r = xq.judge(case["fen"], case["moves"], rules=rules)
        # One rendering (xq_report::Report::to_json): the same bytes, not only the same values.
        assert r.to_json() == out.stdout.decode("utf-8").rstrip("\n"), case["id"]
        assert r.to_dict() == json.loads(out.stdout), case["id"]
        assert json.loads(r.to_json(indent=1)) == r.to_dict()
