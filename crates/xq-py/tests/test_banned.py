"""xq.banned_moves: the forbidden moves of the side to move, against the rulebook's cases."""

import json

import pytest

import xq

# Red's rook checks from a9 and a8 in turn; the black king steps between e8 and e9.
CHECKS = "R8/4k4/9/9/9/9/9/9/9/3K5 w"


def test_perpetual_check_is_banned_from_a_fen_or_a_board():
    a = xq.banned_moves(CHECKS, "a9a8 e8e9 a8a9 e9e8")
    assert a.side == "red" and a.rules == "cxa2020"
    assert [str(m) for m in a.banned] == ["a9a8"]
    assert "a9a8" in a and xq.Move.from_iccs("a9a8") in a and "a9b9" not in a
    assert len(a) == 1 and [str(m) for m in a] == ["a9a8"]
    assert a.ucci() == "banmoves a9a8"
    board = xq.Board(CHECKS)
    for m in ["a9a8", "e8e9", "a8a9", "e9e8"]:
        board.push_notation(m)
    b = xq.banned_moves(board)
    assert [str(m) for m in b.banned] == ["a9a8"]
    # A board and further moves: the moves continue the board's game.
    board.pop()
    c = xq.banned_moves(board, ["e9e8"])
    assert [str(m) for m in c.banned] == ["a9a8"]


def test_the_dict_is_the_cli_json_and_says_why():
    a = xq.banned_moves(CHECKS, "a9a8 e8e9 a8a9 e9e8", lang="zh")
    d = a.to_dict()
    assert d["side"] == "red" and d["draws"] == [] and d["opponent_must_change"] == []
    row = d["banned"][0]
    assert row["move"] == "a9a8" and row["chinese"] == "车九退一"
    assert row["clause"] == "25.1" and row["sides"]["red"]["name"] == "长将"
    assert row["explanation"] == row["why_zh"]
    assert json.loads(a.to_json(lang="en"))["banned"][0]["explanation"] == row["why_en"]
    assert "长将" in a.to_text()


def test_draws_and_the_opponents_repeats_are_apart():
    d = xq.banned_moves(CHECKS, "d0d1 e8e7 d1d0")
    assert len(d) == 0 and [str(m) for m in d.draws] == ["e7e8"]
    o = xq.banned_moves(CHECKS, "a9a8 e8e9 a8a9")
    assert o.side == "black" and len(o) == 0
    assert [str(m) for m in o.opponent_must_change] == ["e9e8"]
    assert xq.banned_moves(CHECKS, "d0d1 e8e7 d1d0", occurrences=3).draws == []


def test_every_rulebook_case_bans_the_offenders_repeating_move(cxa_cases):
    wrong = []
    for case in cxa_cases:
        moves = case["moves"]
        a = xq.banned_moves(case["fen"], moves[:-1])
        listed = (
            "banned" if moves[-1] in a
            else "draw" if moves[-1] in [str(m) for m in a.draws]
            else "other"
        )
        want = {
            "draw": "draw",
            f"{a.side}_must_change": "banned",
        }.get(case["verdict"], "other")
        if listed != want:
            wrong.append((case["id"], listed, want))
    assert wrong == []


def test_bad_arguments_say_what_is_wrong():
    with pytest.raises(TypeError, match="Board, a FEN"):
        xq.banned_moves(42)
    with pytest.raises(ValueError, match="at least 2"):
        xq.banned_moves(None, "h2e2", occurrences=1)
    with pytest.raises(ValueError, match="unknown rules"):
        xq.banned_moves(None, "h2e2", rules="fide")
    with pytest.raises(xq.IllegalMoveError):
        xq.banned_moves(None, "h2e2 h9g7 e2e9")
