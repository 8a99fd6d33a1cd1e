"""Boards in progress: exact JSON round trips, the documented format, bad files."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from conftest import VENDORED, read_csv

import sudoku_fast as sf
from sudoku_fast.board import Board, load_board

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
        ({"version": 3}, "unsupported board version"),  # 2: a board with rules
        ({"givens": EASY[:-1]}, "givens: expected 81 cells, found 80"),
        ({"givens": "x" + EASY[1:]}, "givens: unexpected character 'x' at position 0"),
        ({"values": "." * 80 + "x"}, "values: unexpected character .x. at position 80"),
        ({"values": "." * 2 + "1" + "." * 78}, "cell 2 holds a given and a value"),
        ({"pencil": {"r0c1": "12"}}, "bad cell name 'r0c1'"),
        ({"pencil": {"r10c1": "12"}}, "outside a 9x9 grid"),
        ({"pencil": {"r01c2": "12"}}, "bad cell name 'r01c2'"),  # r1c2 has one name
        ({"pencil": {"a1": "12"}}, "bad cell name 'a1'"),
        ({"pencil": {"r1c1": "1x"}}, "unexpected mark 'x' in r1c1"),
        ({"pencil": {"r1c1": 12}}, "must be a string"),
        ({"pencil": []}, "pencil must be an object"),
        ({"size": "9"}, "size must be an int"),
        ({"version": True}, "unsupported board version True"),
        ({"version": 1.0}, "unsupported board version 1.0"),
        ({"givens": 5}, "givens must be a string"),
        ({"values": None}, "values must be a string"),
        ({"pencil": {"r\u0661c1": "1"}}, "bad cell name"),  # an Arabic-Indic digit
    ],
)
def test_bad_board_files(change: dict[str, object], message: str) -> None:
    doc = json.loads(Board.new(EASY).to_json())
    doc.update(change)
    with pytest.raises(ValueError, match=message):
        Board.from_json(json.dumps(doc))


def test_load_board_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "board.json"
    path.write_bytes(b"\xff\xfe{")
    with pytest.raises(ValueError, match=f"^{re.escape(str(path))}: not a JSON board: not UTF-8"):
        load_board(path)
    path.write_text('{"x": 1}')
    with pytest.raises(ValueError, match=f"^{re.escape(str(path))}: not a sudoku-fast board"):
        load_board(path)


def test_not_json() -> None:
    with pytest.raises(ValueError, match="not a JSON board"):
        Board.from_json("{")
    # Python 3.11+ refuse to read an int of 5,000 digits; 3.10 reads it and the size
    # check refuses it.
    with pytest.raises(ValueError, match=r"not a JSON board: Exceeds|size must be from"):
        Board.from_json(
            '{"format": "sudoku-fast-board", "version": 1, "givens": "", "values": "", '
            f'"size": {"9" * 5000}}}'
        )
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
    with pytest.raises(TypeError, match="cell must be an int, not float"):
        board.set_value(1.0, 1)  # type: ignore[arg-type]
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


# ---------------------------------------------------------------- every geometry

SIX = "..42.5..2...6.1......1.2...3..4.36.."  # sudoku6_2x3.csv, boxes 2 rows x 3 columns


def _transpose(puzzle: str, size: int) -> str:
    """Rows become columns: a grid with r x c boxes turns into one with c x r boxes."""
    return "".join(puzzle[c * size + r] for r in range(size) for c in range(size))


def _puzzle(name: str) -> str:
    return read_csv(VENDORED / name)[0]["puzzle"]


def _geometries() -> list[tuple[str, str, dict[str, object]]]:
    return [
        ("6x6, 2x3", SIX, {}),
        ("6x6, 3x2", _transpose(SIX, 6), {"box": (3, 2)}),
        ("12x12", _puzzle("sudoku12_3x4.csv"), {}),
        ("16x16", _puzzle("sudoku16_misc.csv"), {}),
        ("25x25", _puzzle("sudoku25_misc.csv"), {}),
    ]


@pytest.mark.parametrize(("label", "puzzle", "kwargs"), _geometries())
def test_every_geometry_round_trips(
    label: str, puzzle: str, kwargs: dict[str, object], tmp_path: Path
) -> None:
    board = Board.new(puzzle, **kwargs)
    geometry = sf.geometry_for(None, **kwargs) if kwargs else board.geometry
    assert board.geometry == geometry and board.size * board.size == len(puzzle)
    assert board.givens == puzzle and board.values == "." * len(puzzle)
    rng = random.Random(label)
    open_cells = [i for i, ch in enumerate(puzzle) if ch == "."]
    for cell in rng.sample(open_cells, 5):
        board = board.set_value(cell, rng.randint(1, board.size))
    for cell in rng.sample(range(board.cells), 7):
        board = board.set_pencil(cell, rng.sample(range(1, board.size + 1), 3))
    text = board.to_json()
    again = Board.from_json(text)
    assert again == board and again.geometry == board.geometry
    assert again.to_json() == text
    sf.save_board(board, tmp_path / "board.json")
    assert sf.load_board(tmp_path / "board.json") == board
    doc = json.loads(text)
    assert doc["size"] == board.size
    assert ("box" in doc) == ("box" in kwargs)
    assert "alphabet" not in doc
    for name, marks in doc["pencil"].items():
        assert set(marks) <= set(board.geometry.symbols), name


def test_box_and_alphabet_in_the_file() -> None:
    transposed = Board.new(_transpose(SIX, 6), box=(3, 2))
    doc = json.loads(transposed.to_json())
    assert doc["box"] == [3, 2] and doc["size"] == 6
    hex_puzzle = _puzzle("sudoku16_misc.csv").translate(
        str.maketrans("123456789ABCDEFG", "0123456789ABCDEF")
    )
    board = Board.new(hex_puzzle, alphabet="0123456789ABCDEF").set_pencil(1, {1, 16})
    doc = json.loads(board.to_json())
    assert doc["alphabet"] == "0123456789ABCDEF" and "box" not in doc
    assert doc["pencil"] == {"r1c2": "0F"}  # values 1 and 16 in the board's own symbols
    assert Board.from_json(board.to_json()) == board
    # A file without the optional fields gets the defaults of its size.
    plain = Board.new(SIX)
    doc = json.loads(plain.to_json())
    assert set(doc) == {"format", "version", "size", "givens", "values", "pencil"}
    del doc["pencil"]
    assert Board.from_json(json.dumps(doc)) == plain
    assert plain.geometry == sf.geometry_for(6) == Board(SIX, "." * 36).geometry


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"box": [2, 2]}, "inconsistent grid size"),
        ({"box": "2x3"}, r"box must be \[rows, cols\]"),
        ({"box": [2, "3"]}, "pair of ints"),
        ({"alphabet": "12345"}, "inconsistent grid size"),
        ({"alphabet": 123456}, "alphabet must be a string"),
        ({"alphabet": "abcdef"}, "givens: unexpected character '4' at position 2"),
        ({"size": 7}, "no default box shape"),
        ({"size": 2**61 - 1}, "grid size must be from 1 to 64"),  # refused at once
        ({"size": 0}, "grid size must be from 1 to 64"),
        ({"pencil": {"r7c1": "1"}}, "outside a 6x6 grid"),
        ({"pencil": {"r1c1": "7"}}, "unexpected mark '7' in r1c1"),
    ],
)
def test_bad_geometry_in_board_files(change: dict[str, object], message: str) -> None:
    doc = json.loads(Board.new(SIX).to_json())
    doc.update(change)
    with pytest.raises(ValueError, match=message):
        Board.from_json(json.dumps(doc))


def test_apply_on_a_rectangular_board() -> None:
    # 6x6 with 3x2 boxes: r1c1's box holds r1-r3, c1-c2.
    board = Board("." * 36, "." * 36, geometry=sf.geometry_for(6, (3, 2)))
    for cell in (1, 2, 6, 12, 13):
        board = board.set_pencil(cell, {4, 5})
    after = board.apply(sf.Hint("naked single", 1, (0,), (4,), placements=((0, 4),)))
    assert after.values[0] == "4"
    assert after.pencil[1] == {5} and after.pencil[2] == {5}  # row 1
    assert after.pencil[6] == {5} and after.pencil[12] == {5}  # column 1, box
    assert after.pencil[13] == {5}  # r3c2: same 3x2 box
    square = Board("." * 36, "." * 36).set_pencil(13, {4, 5})  # default 2x3 boxes
    after = square.apply(sf.Hint("naked single", 1, (0,), (4,), placements=((0, 4),)))
    assert after.pencil[13] == {4, 5}  # r3c2 is not in r1c1's 2x3 box
    with pytest.raises(ValueError, match="digit must be 0-6"):
        board.set_value(0, 7)
    with pytest.raises(ValueError, match="mark 7, not 1-6"):
        board.set_pencil(0, {7})
    with pytest.raises(ValueError, match="80 cells make no N x N grid"):
        Board("." * 80, "." * 80)


def test_misuse_is_a_clear_error(tmp_path: Path) -> None:
    nine_by_nine = sf.hint(EASY)
    with pytest.raises(ValueError, match=r"is not on this 4x4 board|is not one of a 4x4 board"):
        Board.new("1.3..4.........2").apply(nine_by_nine)
    with pytest.raises(ValueError, match="digit 7 is not one of a 4x4 board"):
        Board.new("1.3..4.........2").apply(sf.Hint("naked single", 1, (1,), (7,), ((1, 7),)))
    with pytest.raises(TypeError, match="apply takes a Hint, not str"):
        Board.new(EASY).apply("x")  # type: ignore[arg-type]
    for digit in (1.5, True):  # a hand-made hint: cells and digits are ints
        made = sf.Hint("naked single", 1, (1,), (digit,), ((1, digit),))  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="cells and digits are ints"):
            Board.new("1.3..4.........2").apply(made)
    with pytest.raises(TypeError, match="save_board takes a Board, not str"):
        sf.save_board("x", tmp_path / "board.json")  # type: ignore[arg-type]
    assert not (tmp_path / "board.json").exists()
    with pytest.raises(ValueError, match="nested too deeply"):
        Board.from_json("[" * 100_000 + "]" * 100_000)
