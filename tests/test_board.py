"""Boards in progress: exact JSON round trips, the documented format, bad files."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import sudoku_fast as sf
from sudoku_fast.board import Board

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


def _random_board(rng: random.Random) -> Board:
    givens = sf.generate(seed=rng.randrange(1000))
    values = "".join(
        str(rng.randint(1, 9)) if g == "." and rng.random() < 0.3 else "." for g in givens
    )
    pencil = tuple(
        frozenset(d for d in range(1, 10) if rng.random() < 0.3)
        if rng.random() < 0.5
        else frozenset()
        for _ in range(81)
    )
    return Board(givens, values, pencil)


def test_json_round_trip_is_exact(tmp_path: Path) -> None:
    rng = random.Random(4)
    for i in range(20):
        board = _random_board(rng)
        text = board.to_json()
        again = Board.from_json(text)
        assert again == board
        assert again.to_json() == text
        path = tmp_path / f"b{i}.json"
        sf.save_board(board, path)
        assert sf.load_board(path) == board
    empty = Board.new(EASY)
    assert Board.from_json(empty.to_json()) == empty


def test_documented_format() -> None:
    board = Board.new(EASY).set_value(0, 4).set_pencil(1, {8, 5}).set_pencil(80, {2})
    doc = json.loads(board.to_json())
    assert doc == {
        "format": "sudoku-fast-board",
        "version": 1,
        "size": 9,
        "givens": EASY,
        "values": "4" + "." * 80,
        "pencil": {"r1c2": "58", "r9c9": "2"},
    }
    # pencil is optional
    del doc["pencil"]
    assert Board.from_json(json.dumps(doc)) == Board.new(EASY).set_value(0, 4)


def test_board_views() -> None:
    board = Board.new(sf.show(EASY)).set_value(0, 4)
    assert board.givens == EASY
    assert board.grid == "4" + EASY[1:]
    assert board.user_values()[0] == 4 and board.given_values()[2] == 3
    assert board.set_value(0, 0).values == "." * 81


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "other"}, "not a sudoku-fast board"),
        ({"version": 2}, "unsupported board version"),
        ({"givens": EASY[:-1]}, "givens: expected 81 cells, found 80"),
        ({"givens": "x" + EASY[1:]}, "givens: unexpected character 'x' at position 0"),
        ({"values": "." * 80 + "x"}, "values: unexpected character .x. at position 80"),
        ({"values": "." * 2 + "1" + "." * 78}, "cell 2 holds a given and a value"),
        ({"pencil": {"r0c1": "12"}}, "outside a 9x9 grid"),
        ({"pencil": {"a1": "12"}}, "bad cell name 'a1'"),
        ({"pencil": {"r1c1": "1x"}}, "unexpected mark 'x' in r1c1"),
        ({"pencil": {"r1c1": 12}}, "must be a string"),
        ({"pencil": []}, "pencil must be an object"),
        ({"size": "9"}, "size must be an int"),
    ],
)
def test_bad_board_files(change: dict[str, object], message: str) -> None:
    doc = json.loads(Board.new(EASY).to_json())
    doc.update(change)
    with pytest.raises(ValueError, match=message):
        Board.from_json(json.dumps(doc))


def test_not_json() -> None:
    with pytest.raises(ValueError, match="not a JSON board"):
        Board.from_json("{")
    with pytest.raises(ValueError, match="expected an object"):
        Board.from_json("[]")
    doc = json.loads(Board.new(EASY).to_json())
    del doc["givens"]
    with pytest.raises(ValueError, match="missing field 'givens'"):
        Board.from_json(json.dumps(doc))


def test_bad_edits() -> None:
    board = Board.new(EASY)
    with pytest.raises(ValueError, match="holds a given"):
        board.set_value(2, 1)
    with pytest.raises(ValueError, match="digit"):
        board.set_value(0, 10)
    with pytest.raises(ValueError, match="cell must be"):
        board.set_value(81, 1)
    with pytest.raises(ValueError, match="mark 0"):
        board.set_pencil(0, {0})
    with pytest.raises(ValueError, match="pencil: expected 81"):
        Board(EASY, "." * 81, (frozenset(),))


def test_apply_placement_clears_peer_marks() -> None:
    board = Board.new(EASY).set_pencil(1, {4, 8}).set_pencil(9 * 5, {4, 7}).set_pencil(80, {4})
    step = sf.Hint("naked single", 1, (0,), (4,), placements=((0, 4),))
    after = board.apply(step)
    assert after.values[0] == "4"
    assert after.pencil[1] == {8}  # same row
    assert after.pencil[45] == {7}  # same column
    assert after.pencil[80] == {4}  # not a peer
