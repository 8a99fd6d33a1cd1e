"""A Board carries variant rules: candidates, hints, `apply` and the board file follow
them, and the CLI commands that read a saved board use them.

Solutions are checked by the independent checker of tests/variant_oracle.py.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import variant_oracle as oracle

import sudoku_fast as sf
from sudoku_fast.cli import main
from sudoku_fast.cli.exits import EXIT_OK, EXIT_USAGE

X4 = "..3....243......"  # a 4x4 Sudoku X with one solution
JIGSAW5 = "1112211222333334445544555"  # five regions of a 5x5 grid (no boxes)


def test_rules_round_trip_through_the_board_file(tmp_path: Path) -> None:
    killer = sf.Rules(cages=(sf.Cage([0, 1], 3),), anti_knight=True)
    for board in (
        sf.Board.new(X4, rules="x"),
        sf.Board.new("." * 81, rules=killer).set_value(5, 4).set_pencil(7, {1, 2}),
        sf.Board.new("." * 25, rules={"regions": JIGSAW5}),
    ):
        doc = json.loads(board.to_json())
        assert doc["version"] == 2 and sf.Rules.from_json(doc["rules"]) == board.rules
        path = tmp_path / "game.json"
        sf.save_board(board, path)
        assert sf.load_board(path) == board
    assert sf.Board.new("." * 25, rules={"regions": JIGSAW5}).geometry.box_rows == 1


def test_a_board_without_rules_is_written_as_before() -> None:
    board = sf.Board.new(X4)
    doc = json.loads(board.to_json())
    assert doc["version"] == 1 and "rules" not in doc
    assert board.rules is None and sf.Board.new(X4, rules={}).rules is None
    old = {"format": "sudoku-fast-board", "version": 1, "size": 4, "givens": X4,
           "values": "." * 16}  # fmt: skip
    assert sf.Board.from_json(json.dumps(old)) == board


@pytest.mark.parametrize(
    ("change", "match"),
    [
        ({"rules": None}, "version 2 without rules"),
        ({"rules": [1]}, "rules must be an object"),
        ({"rules": {"diagonal": True}}, "unknown key 'diagonal'"),
        ({"rules": {"cages": [{"cells": [0, 1], "sum": 30}]}}, "sum 30 is outside 3..7"),
        ({"rules": {"windoku": True}, "size": 6, "givens": "." * 36, "values": "." * 36},
         "windoku"),
    ],
)  # fmt: skip
def test_bad_rules_in_a_board_file_are_named(change: dict[str, object], match: str) -> None:
    doc = {"format": "sudoku-fast-board", "version": 2, "size": 4, "givens": X4,
           "values": "." * 16, "rules": {"diagonals": True}}  # fmt: skip
    changed = {key: value for key, value in {**doc, **change}.items() if value is not None}
    with pytest.raises(ValueError, match=match):
        sf.Board.from_json(json.dumps(changed))


def test_candidates_hints_and_apply_follow_the_boards_rules() -> None:
    board = sf.Board.new(X4, rules="x")
    assert sf.candidates(board) == sf.candidates(X4, rules="x")
    assert sf.hint(board) == sf.hint(X4, rules="x")
    assert sf.hint(board, rules="x") == sf.hint(X4, rules="x")  # repeating them is fine
    with pytest.raises(ValueError, match="rules of its own"):
        sf.hint(board, rules="anti-king")
    with pytest.raises(ValueError, match="several solutions"):
        sf.hint(sf.Board.new(X4))  # the same givens without the X rule
    while (step := sf.hint(board)) is not None:
        board = board.apply(step)
    assert oracle.is_valid_solution(board.grid, {"diagonals": True}, X4)
    # A wrong value is found against the solution under the rules.
    solution = board.grid
    wrong = sf.Board.new(X4, rules="x").set_value(0, 3 if solution[0] != "3" else 4)
    step = sf.hint(wrong)
    assert step is not None and step.technique == "wrong value"


def test_apply_strikes_marks_from_the_peers_the_rules_make() -> None:
    # 1 placed in r1c3: r2c2 is a king's step away but in another box, so its mark 1
    # goes under anti-king only.
    step = sf.Hint("naked single", 1, (2,), (1,), placements=((2, 1),))
    struck = {}
    for rules in ("anti-king", None):
        board = sf.Board.new("." * 16, rules=rules)
        for cell in range(16):
            board = board.set_pencil(cell, {1, 2, 3, 4})
        after = board.apply(step)
        assert after.rules == board.rules
        struck[rules] = 1 not in after.pencil[5]
        assert 1 not in after.pencil[3] and 1 in after.pencil[9]  # r1c4 a row peer; r3c2 none
    assert struck == {"anti-king": True, None: False}


def test_solve_path_refuses_a_board_with_rules() -> None:
    with pytest.raises(ValueError, match="variant rules"):
        sf.solve_path(sf.Board.new(X4, rules="x"))


def test_cli_commands_use_a_saved_boards_rules(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    sf.save_board(sf.Board.new(X4, rules="x"), path)
    assert main(["show", str(path)]) == EXIT_OK
    assert "rules: x)" in capsys.readouterr().out
    assert main(["hint", str(path)]) == EXIT_OK
    assert "3 has only one place left in box 1: r2c1" in capsys.readouterr().out
    assert main(["hint", str(path), "--all"]) == EXIT_OK
    assert capsys.readouterr().out.rstrip().endswith("solved")
    assert main(["hint", str(path), "--variant", "anti-king"]) == EXIT_USAGE
    assert "--variant / --rules may only repeat them" in capsys.readouterr().err
    # An old board without rules takes them from the options.
    sf.save_board(sf.Board.new(X4), path)
    assert main(["hint", str(path)]) == EXIT_USAGE
    capsys.readouterr()
    assert main(["hint", str(path), "--variant", "x"]) == EXIT_OK
    assert "r2c1" in capsys.readouterr().out
