"""check_many: pairs of puzzle and solution checked by the rules, compiled and twin alike."""

from __future__ import annotations

import pytest
from conftest import VENDORED, Side, read_csv

import sudoku_fast as sf
from sudoku_fast import ItemErrorsWarning

np = pytest.importorskip("numpy")

ROWS = read_csv(VENDORED / "kaggle_bryanpark_sample500_with_solutions.csv")[:60]
PUZZLES = [row["puzzle"] for row in ROWS]
SOLUTIONS = [row["solution"] for row in ROWS]


def spoiled(solution: str, how: int) -> str:
    """A wrong solution: two cells swapped (a clue changed, or a unit broken), a cell
    emptied, or a clue replaced."""
    cells = list(solution)
    if how == 0:
        cells[0], cells[1] = cells[1], cells[0]
    elif how == 1:
        cells[40] = "."
    else:
        cells[80] = cells[79]
    return "".join(cells)


def expected(puzzles: list[str], solutions: list[str]) -> list[bool]:
    return [sf.is_solution(s, p) for p, s in zip(puzzles, solutions, strict=True)]


def test_agrees_with_is_solution(side: Side) -> None:
    answers = [s if i % 4 == 0 else spoiled(s, i % 3) for i, s in enumerate(SOLUTIONS)]
    got = sf.check_many(PUZZLES, answers, threads=2)
    assert got.dtype == np.bool_ and got.shape == (len(PUZZLES),)
    assert got.tolist() == expected(PUZZLES, answers)
    assert got.sum() == len([i for i in range(len(PUZZLES)) if i % 4 == 0])


def test_a_valid_grid_that_drops_a_clue(side: Side) -> None:
    # Relabelling 1<->2 keeps every unit valid but changes the clues.
    other = SOLUTIONS[0].translate(str.maketrans("12", "21"))
    assert sf.check_many(PUZZLES[:1], [other]).tolist() == [False]
    assert sf.check_many(["." * 81], [other]).tolist() == [True]


def test_other_sizes(side: Side) -> None:
    rows = read_csv(VENDORED / "sudoku6_2x3.csv")[:6]
    puzzles = [row["puzzle"] for row in rows]
    solutions = sf.solve_many(puzzles, box=(2, 3))
    assert sf.check_many(puzzles, solutions, box=(2, 3)).all()
    broken = [s[1] + s[0] + s[2:] for s in solutions]
    assert sf.check_many(puzzles, broken, box=(2, 3)).tolist() == expected6(puzzles, broken)


def expected6(puzzles: list[str], solutions: list[str]) -> list[bool]:
    return [sf.is_solution(s, p, box=(2, 3)) for p, s in zip(puzzles, solutions, strict=True)]


def test_arrays_and_columns() -> None:
    pa = pytest.importorskip("pyarrow")
    values = np.array([[0 if c == "." else int(c) for c in p] for p in PUZZLES], dtype=np.uint8)
    answers = np.array([[int(c) for c in s] for s in SOLUTIONS], dtype=np.uint8)
    answers[3, 0] = answers[3, 1]
    want = [i != 3 for i in range(len(PUZZLES))]
    assert sf.check_many(values, answers).tolist() == want
    texts = list(SOLUTIONS)
    texts[3] = "".join(map(str, answers[3]))
    assert sf.check_many(pa.array(PUZZLES), pa.array(texts), threads=2).tolist() == want
    assert sf.check_many(np.array(PUZZLES), texts).tolist() == want


def test_errors_name_the_item() -> None:
    with pytest.raises(ValueError, match="60 puzzles but 59 solutions"):
        sf.check_many(PUZZLES, SOLUTIONS[:-1])
    with pytest.raises(ValueError, match="solution 2"):
        sf.check_many(PUZZLES[:3], [*SOLUTIONS[:2], "x" * 81])
    with pytest.raises(ValueError, match="puzzle 1"):
        sf.check_many([PUZZLES[0], "y" * 81], SOLUTIONS[:2])


def test_on_error() -> None:
    answers = [*SOLUTIONS[:2], None, "x" * 81]
    puzzles = [PUZZLES[0], "?" * 81, PUZZLES[2], PUZZLES[3]]
    got = sf.check_many(puzzles, answers, on_error="none").tolist()
    assert got == [
        True,
        False,
        False,
        False,
    ]
    with pytest.warns(ItemErrorsWarning) as caught:
        sf.check_many(puzzles, answers, on_error="warn")
    assert caught[0].message.positions == [1, 2, 3]
    assert "missing" in caught[0].message.errors[2]
