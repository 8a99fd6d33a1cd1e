"""Pencil-mark puzzles (marks=True): parse, solve, count, the batch functions, the CLI.

Pencil marks give each cell N places, one per digit: the digit where it is still
possible, '.' where it is excluded. A clue puzzle has an equivalent form (a clue keeps
only its digit, an empty cell keeps all); marks can also exclude what no clue excludes.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from checks import check_solution
from conftest import VENDORED, read_csv

import sudoku_fast as sf
from sudoku_fast.datasets import load_embedded

PUZZLE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
SOLUTION = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
# b-nguyen/theory-final-project multi9x9.txt (via ../shared/data/mixed_validity_9x9.csv)
TWO_SOLUTIONS = "9.6.7.4.3...4..2...7..23.1.5.....1...4.2.8.6...3.....5.3.7...5...7..5...4.5.1.7.8"


def as_marks(puzzle: str, symbols: str = "123456789") -> str:
    """The pencil marks of a clue puzzle: a clue keeps its digit, an empty cell all."""
    empty = "." if "0" in symbols else ".0"
    return "".join(
        symbols if ch in empty else "".join(s if s == ch else "." for s in symbols) for ch in puzzle
    )


def exclude(marks: str, size: int, cell: int, digit: int) -> str:
    """Pencil marks with one more candidate (digit 1..N) excluded from one cell."""
    k = cell * size + digit - 1
    assert marks[k] != "."
    return marks[:k] + "." + marks[k + 1 :]


def test_marks_of_clue_puzzles_solve_like_the_clues() -> None:
    puzzles = [*load_embedded("norvig_top95")[:40], TWO_SOLUTIONS, "55" + "." * 79]
    marks = [as_marks(p) for p in puzzles]
    assert sf.solve(marks[0], marks=True) == SOLUTION == sf.solve(PUZZLE)
    assert sf.count_solutions(marks[0], marks=True) == 1
    assert sf.solve_many(marks, marks=True) == sf.solve_many(puzzles)
    assert sf.count_many(marks, 5, marks=True, threads=2) == sf.count_many(puzzles, 5)
    assert sf.count_solutions(marks[-2], 10, marks=True) == 2
    assert sf.solve(marks[-1], marks=True) is None


def test_marks_exclude_what_no_clue_excludes() -> None:
    first, second = (
        s for s in {sf.solve(TWO_SOLUTIONS), _other_solution(TWO_SOLUTIONS)} if s is not None
    )
    marks = as_marks(TWO_SOLUTIONS)
    cell = next(k for k in range(81) if first[k] != second[k])
    narrowed = exclude(marks, 9, cell, int(first[cell]))  # rules out the first solution
    assert sf.count_solutions(narrowed, marks=True) == 1
    assert sf.solve(narrowed, marks=True) == second
    # Without any clue: the empty grid with marks that only the first row's order allows.
    empty = "123456789" * 81
    row = "".join(d if d == str(c + 1) else "." for c in range(9) for d in "123456789")
    solution = sf.solve(row + empty[81:], marks=True)
    assert solution is not None and solution.startswith("123456789")
    check_solution(solution, "123456789" + "." * 72)
    # Marks that leave a cell's only places to a unit's hidden single.
    assert sf.count_solutions(row + empty[81:], 1000, marks=True) == 1000


def _other_solution(puzzle: str) -> str | None:
    """A solution differing from sf.solve's, found by fixing one cell the other way."""
    known = sf.solve(puzzle)
    assert known is not None
    for cell in range(81):
        if puzzle[cell] != ".":
            continue
        for digit in "123456789":
            if digit != known[cell]:
                attempt = sf.solve(puzzle[:cell] + digit + puzzle[cell + 1 :])
                if attempt is not None:
                    return attempt
    return None


def test_marks_on_other_sizes() -> None:
    for name in ("sudoku6_2x3.csv", "sudoku16_misc.csv", "sudoku25_misc.csv"):
        rows = read_csv(VENDORED / name)[:3]
        size = int(len(rows[0]["puzzle"]) ** 0.5)
        symbols = "123456789ABCDEFGHIJKLMNOP"[:size]
        marks = [as_marks(r["puzzle"], symbols) for r in rows]
        assert sf.solve_many(marks, marks=True) == sf.solve_many([r["puzzle"] for r in rows])
        assert sf.count_many(marks, marks=True) == [1, 1, 1]
        assert sf.parse(marks[0], marks=True) == marks[0]
    zero_based = "1.3..4.........2".translate(str.maketrans("1234", "0123"))
    marks = as_marks(zero_based, "0123")
    assert sf.solve(marks, marks=True, alphabet="0123") == sf.solve(zero_based, alphabet="0123")


def test_marks_notation_and_errors() -> None:
    marks = as_marks(PUZZLE)
    # Layout is free, '0' is an excluded place on 9x9, the canonical form uses '.'.
    spaced = "\n".join(" ".join(marks[i : i + 9]) for i in range(0, 729, 9))
    assert sf.parse(spaced.replace(".", "0"), marks=True) == marks
    with pytest.raises(ValueError, match=r"N\*N\*N characters.*found 728"):
        sf.parse(marks[:-1], marks=True)
    with pytest.raises(ValueError, match=r"need 729 characters .* found 730"):
        sf.solve(marks + "1", marks=True, box=(3, 3))
    # A cell with no candidate left: no solution, an answer as clashing clues give one.
    emptied = marks[:9] + "." * 9 + marks[18:]
    assert sf.solve(emptied, marks=True) is None
    assert sf.count_solutions(emptied, marks=True) == 0
    assert sf.count_many([marks, emptied], marks=True) == [1, 0]
    assert sf.parse(emptied, marks=True) == emptied
    with pytest.raises(ValueError, match=r"'5' at position 0 is in the place of '1' of cell r1c1"):
        sf.count_solutions("5" + marks[1:], marks=True)
    with pytest.raises(ValueError, match="puzzle 1: "):
        sf.solve_many([marks, marks[:100]], marks=True)
    with pytest.raises(ValueError, match="unexpected character 'x'"):
        sf.parse("x" + marks[1:], marks=True)
    with pytest.raises(ValueError, match=r"'x' at position 30 \(cell r1c4; "):
        sf.parse(marks[:30] + "x" + marks[31:], marks=True, box=(3, 3))
    # Before the size is known the cell is named from N*N*N characters, N a cell.
    with pytest.raises(ValueError, match=r"'x' at position 100 \(cell r2c3\)$"):
        sf.solve(marks[:100] + "x" + marks[101:], marks=True)
    with pytest.raises(ValueError, match=r"'x' at position 6 \(cell r1c2\)$"):
        sf.count_solutions("1234" + "12x4" + "1234" * 14, marks=True)
    # Without marks=True, 729 characters are a 27x27 grid (here with clashing clues).
    assert sf.parse(marks) == marks and sf.solve(marks) is None


def test_marks_need_strings() -> None:
    np = pytest.importorskip("numpy")
    with pytest.raises(TypeError, match="marks=True takes pencil-mark strings"):
        sf.solve_many(np.zeros((1, 81), dtype=np.uint8), marks=True)


def test_marks_come_in_columns_too() -> None:
    """Arrow, pandas and numpy text columns of marks answer as the list of them does."""
    puzzles = [*load_embedded("norvig_top95")[:6], TWO_SOLUTIONS]
    marks = [as_marks(p) for p in puzzles]
    solutions = sf.solve_many(marks, marks=True)
    counts = sf.count_many(marks, marks=True)
    assert counts == [1] * 6 + [2]
    pa = pytest.importorskip("pyarrow")
    assert sf.solve_many(pa.array(marks), marks=True, output="arrow").to_pylist() == solutions
    assert sf.count_many(pa.chunked_array([marks]), marks=True).count(2) == 1
    np = pytest.importorskip("numpy")
    assert sf.solve_many(np.array(marks), marks=True) == solutions
    pd = pytest.importorskip("pandas")
    series = pd.Series(marks, index=range(10, 10 + len(marks)))
    like = sf.count_many(series, marks=True, output="like")
    assert list(like.index) == list(series.index) and list(like) == counts
    with pytest.raises(ValueError, match="puzzle 1: missing"):
        sf.solve_many(pa.array([marks[0], None]), marks=True)


def run(*args: str, stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sudoku_fast", *args],
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def test_cli_marks() -> None:
    puzzles = load_embedded("norvig_top95")[:5]
    lines = [as_marks(p) for p in puzzles] + [as_marks(p)[:700] for p in puzzles[:1]]
    proc = run("solve", "--marks", "--verify", stdin="\n".join(lines) + "\n")
    assert proc.returncode == 3, proc.stderr  # the last line is malformed
    assert proc.stdout.splitlines() == [*sf.solve_many(puzzles), "error"]
    assert "<stdin>:6: the pencil marks of a 9x9 grid with 3x3 boxes need 729" in proc.stderr
    assert "5 checked against the rules: 0 problem(s)" in proc.stderr
    proc = run("solve", "--marks", "--count", "-", stdin=as_marks(TWO_SOLUTIONS) + "\n")
    assert proc.stdout.strip() == "2"
    proc = run("count", "--marks", "-", "--limit", "9", stdin=as_marks(TWO_SOLUTIONS))
    assert proc.returncode == 0 and proc.stdout.strip() == "2"
    proc = run("count", "-", stdin=as_marks(TWO_SOLUTIONS))  # without --marks: 27x27
    assert proc.returncode == 0 and proc.stdout.strip() == "0"
