"""Board, Move, notation, errors: python-chess-like behaviour on real positions."""

import copy
import pickle

import pytest

import xq

MATE_FEN = "3k5/9/9/9/9/9/9/9/4K4/8R w - - 0 1"


def test_start_position():
    b = xq.Board()
    assert b.fen() == xq.START_FEN
    assert repr(b) == "Board()"
    assert b.turn == "red"
    assert len(b.legal_moves) == 44
    assert "帥" in str(b) and "將" in str(b)
    assert b._repr_svg_().startswith("<svg")
    assert b.piece_at("e0") == "K" and b.piece_at("e9") == "k" and b.piece_at("e4") is None
    assert b.piece_at(4) == "K"


def test_one_move_in_every_notation():
    b = xq.Board()
    want = xq.Move.from_iccs("h2e2")
    for text in ["炮二平五", "砲二平五", "C2.5", "H2-E2", "h2e2", "c2=5"]:
        assert b.parse_move(text) == want, text
    assert want.iccs == "h2e2" and want.iccs_dash == "H2-E2"
    assert (want.from_name, want.to_name) == ("h2", "e2")
    assert (want.from_square, want.to_square) == (2 * 9 + 7, 2 * 9 + 4)
    assert xq.Move.from_iccs("H2-E2") == want and hash(xq.Move.from_iccs("H2-E2")) == hash(want)
    assert repr(want) == "Move.from_iccs('h2e2')"
    assert b.notation(want) == "炮二平五"
    assert b.notation(want, "traditional") == "炮二平五"
    assert b.notation(want, "wxf") == "C2.5"
    assert b.notation(want, "iccs") == "H2-E2"
    assert b.notation(want, "ucci") == "h2e2"
    assert b.notation(want, "uci") == "h3e3" and b.notation(want, "san") == "Che3"
    with pytest.raises(ValueError):
        b.notation(want, "nonsense")


def test_push_pop_and_stack():
    b = xq.Board()
    m = b.parse_move("炮二平五")
    b.push(m)
    assert b.turn == "black"
    assert b.push_notation("马8进7") == xq.Move.from_iccs("h9g7")
    assert b.move_stack == [m, xq.Move.from_iccs("h9g7")]
    assert b.peek() == xq.Move.from_iccs("h9g7")
    assert b.fen() == "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2"
    assert b.pop() == xq.Move.from_iccs("h9g7")
    assert b.pop() == m
    assert b.fen() == xq.START_FEN
    with pytest.raises(IndexError):
        b.pop()


def test_legal_moves_container():
    b = xq.Board()
    lm = b.legal_moves
    assert xq.Move.from_iccs("h2e2") in lm
    assert "h2e2" in lm and "h2h9" in lm and "h2h8" not in lm
    assert xq.Move.from_iccs("e0e1") in lm and xq.Move.from_iccs("e0f1") not in lm
    moves = list(lm)
    assert len(set(moves)) == 44 and all(b.is_legal(m) for m in moves)


def test_errors_are_value_errors_with_details():
    b = xq.Board()
    for cls in [xq.NotationError, xq.IllegalMoveError, xq.AmbiguousMoveError, xq.RecordError, xq.FenError]:
        assert issubclass(cls, ValueError)
    with pytest.raises(xq.NotationError) as e:
        b.parse_move("炮二平")
    assert e.value.kind == "syntax" and e.value.span == (9, 9) and e.value.text == "炮二平"
    assert e.value.fen == xq.START_FEN and e.value.candidates == []
    with pytest.raises(xq.IllegalMoveError) as e:
        b.parse_move("炮二进八")  # the cannon would need a screen to reach h9's neighbour: no
    assert e.value.kind in ("cannot_reach", "no_piece", "illegal")
    with pytest.raises(xq.IllegalMoveError) as e:
        b.push(xq.Move.from_iccs("e0e2"))
    assert e.value.kind == "illegal"
    # Two Red pawns over the river on file 5: 兵五平四 fits both.
    amb = xq.Board("3k5/9/9/4P4/4P4/9/9/9/9/5K3 w - - 0 1")
    with pytest.raises(xq.AmbiguousMoveError) as e:
        amb.parse_move("兵五平四", strict=True)
    assert sorted(m.iccs for m in e.value.candidates) == ["e5f5", "e6f6"]
    assert e.value.kind == "ambiguous"
    assert amb.parse_move("前兵平四") == xq.Move.from_iccs("e6f6")
    with pytest.raises(xq.FenError) as e:
        xq.Board("rnbakabnr/9/1c5c1 w")
    assert e.value.kind == "syntax" and len(e.value.messages) >= 1
    with pytest.raises(xq.NotationError):
        xq.Move.from_iccs("z9z9")


def test_check_mate_and_outcome():
    b = xq.Board(MATE_FEN)
    assert not b.is_check() and b.outcome() is None
    b.push_notation("车一平六")
    assert b.is_check() and b.is_checkmate() and not b.is_stalemate()
    o = b.outcome()
    assert (o.winner, o.reason, o.result) == ("red", "checkmate", "1-0")
    assert len(b.legal_moves) == 0


def test_zobrist_hash_follows_the_position_not_the_path():
    a, b = xq.Board(), xq.Board()
    for t in ["炮二平五", "马8进7", "马八进七"]:
        a.push_notation(t)
    for t in ["马八进七", "马8进7", "炮二平五"]:
        b.push_notation(t)
    assert a.zobrist_hash() == b.zobrist_hash() and a == b
    assert a.zobrist_hash() != xq.Board().zobrist_hash()
    assert isinstance(a.zobrist_hash(), int) and 0 <= a.zobrist_hash() < 2**64


def test_repetition_count():
    b = xq.Board()
    for _ in range(2):
        for t in ["马二进三", "马8进7", "马三退二", "马7退8"]:
            b.push_notation(t)
    assert b.repetition_count() == 3


def test_copy_and_pickle():
    b = xq.Board()
    b.push_notation("炮二平五")
    c = b.copy()
    c.push_notation("马8进7")
    assert len(b.move_stack) == 1 and len(c.move_stack) == 2
    assert copy.deepcopy(b) == b
    p = pickle.loads(pickle.dumps(b))
    assert p.fen() == b.fen()


def test_vocabulary_by_rule():
    v = xq.vocabulary()
    assert len(v) == xq.VOCABULARY_SIZE == 2086 and len(set(v)) == 2086
    with open(xq.vocabulary_path(), encoding="ascii") as f:
        assert f.read().split() == v
    # Kinds of moves: 90 points x 17 line moves, 508 horse leaps, 16 advisor and 32 elephant steps.
    def kind(m):
        df = abs(ord(m[2]) - ord(m[0]))
        dr = abs(int(m[3]) - int(m[1]))
        return "line" if df == 0 or dr == 0 else {(1, 2): "horse", (2, 1): "horse", (1, 1): "advisor", (2, 2): "elephant"}[(df, dr)]
    counts = {}
    for m in v:
        counts[kind(m)] = counts.get(kind(m), 0) + 1
    assert counts == {"line": 1530, "horse": 508, "advisor": 16, "elephant": 32}
    for i in [0, 1, 1000, 2085]:
        assert xq.Move.from_label(i).label == i and str(xq.Move.from_label(i)) == v[i]
    with pytest.raises(IndexError):
        xq.Move.from_label(2086)


def test_legal_mask_matches_legal_moves():
    np = pytest.importorskip("numpy", reason="numpy is not installed")
    b = xq.Board()
    b.push_notation("炮二平五")
    mask = b.legal_mask()
    assert mask.dtype == np.bool_ and mask.shape == (2086,)
    assert sorted(np.flatnonzero(mask).tolist()) == sorted(m.label for m in b.legal_moves)


def test_rotate_and_mirror_moves():
    m = xq.Move.from_iccs("h2e2")
    assert m.rotate() == xq.Move.from_iccs("b7e7")
    assert m.mirror() == xq.Move.from_iccs("b2e2")
