"""The 9x9 engine's search of wide open puzzles: the rule of triads and permutation branches.

A puzzle with many cells still unsolved at its first guess (the very hard lists) gets
the rule of triads in every node, and branches on a digit's two permutations in a band
or a stack rather than on a cell. A rule that ruled out a true candidate, or two
branches that overlapped or missed a permutation, would lose or double solutions:
counts of every solution are compared with the pure-Python reference solver and with
the lab's dancing links (another algorithm, sharing no code with the engine), and
solutions with the source's own and the independent check.
"""

from __future__ import annotations

from checks import check_solution
from conftest import data_file, read_csv

import sudoku_fast as sf
from sudoku_fast import lab
from sudoku_fast._engine import _general_py as reference
from sudoku_fast.datasets import load_embedded


def hard_rows() -> list[dict[str, str]]:
    return read_csv(
        data_file(
            "rust_sudoku_crate_hard_with_solutions.csv", "rust_sudoku_crate_hard_with_solutions.csv"
        )
    )


def without_clues(puzzle: str, drop: int) -> str:
    """The puzzle with its last `drop` clues taken away."""
    cells = list(puzzle)
    clues = [i for i, ch in enumerate(cells) if ch not in ".0"]
    for i in clues[len(clues) - drop :]:
        cells[i] = "."
    return "".join(cells)


def test_very_hard_puzzles_solved_and_unique() -> None:
    rows = hard_rows()
    puzzles = [r["puzzle"] for r in rows]
    for row, solution in zip(rows, sf.solve_many(puzzles, threads=1), strict=True):
        check_solution(solution, row["puzzle"])
        assert solution == row["solution"]
    assert sf.count_many(puzzles, limit=2, threads=1) == [1] * len(rows)


def test_every_solution_kept_when_a_clue_is_taken_away() -> None:
    # One clue fewer: puzzles with hundreds of solutions (375 and 678 here), just as
    # open at the first guess. Every one of them must be found; the reference solver
    # counts them too (these two take it about a second).
    rows = hard_rows()
    puzzles = [without_clues(rows[i]["puzzle"], 1) for i in (2, 4)]
    limit = 1_000
    counts = sf.count_many(puzzles, limit=limit, threads=1)
    assert counts == [reference.count_solutions(p, limit=limit) for p in puzzles]
    assert all(1 < c < limit for c in counts)
    for puzzle, solution in zip(puzzles, sf.solve_many(puzzles, threads=1), strict=True):
        check_solution(solution, puzzle)


def test_counts_agree_with_dancing_links_on_open_puzzles() -> None:
    # The first 40 magictour puzzles less one clue: wide open, with tens to thousands of
    # solutions each, so the permutation branches run all through a counted tree.
    puzzles = [without_clues(p, 1) for p in load_embedded("magictour_top1465")[:40]]
    limit = 5_000
    counts = sf.count_many(puzzles, limit=limit, threads=2)
    assert counts == [lab.count(p, "dlx", limit=limit, budget=None).count for p in puzzles]
    assert sum(1 < c < limit for c in counts) >= 20
    for puzzle, solution in zip(puzzles, sf.solve_many(puzzles, threads=2), strict=True):
        check_solution(solution, puzzle)
