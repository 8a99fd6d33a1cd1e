"""A user-style script calling every public function of sudoku_fast.

It is type-checked with `mypy --strict` against the installed package (tests/test_typing.py
and CI), which proves the wheel's py.typed and stubs give users precise types: every
`assert_type` below fails the check if a result's type is wrong or degrades to Any. The
script also runs, so the calls are real.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

import sudoku_fast as sf

if TYPE_CHECKING:
    from typing_extensions import assert_type
else:

    def assert_type(value, _type):
        return value


PUZZLE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def solve_and_check(puzzle: str) -> str:
    """Solve one puzzle, insist on a unique solution, return it pretty-printed."""
    canonical = assert_type(sf.parse(puzzle), str)
    if assert_type(sf.count_solutions(canonical, limit=2), int) != 1:
        raise ValueError("the puzzle does not have exactly one solution")
    solution = assert_type(sf.solve(canonical), str | None)
    if solution is None or not assert_type(sf.is_solution(solution, canonical), bool):
        raise AssertionError("a unique puzzle must have a valid solution")
    return assert_type(sf.show(solution), str)


def solve_batch(puzzles: list[str]) -> dict[str, str | None]:
    """Solve a batch on all cores; map each puzzle to its solution (None: no solution)."""
    solutions = assert_type(sf.solve_many(puzzles, threads=None), list[str | None])
    counts = assert_type(sf.count_many(puzzles, limit=2, threads=-1), list[int])
    assert len(counts) == len(solutions) == len(puzzles)
    return dict(zip(puzzles, solutions, strict=True))


def solve_array(grids: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """Solve an (n, 81) array of digits (0 = empty); rows without a solution stay zero."""
    return assert_type(sf.solve_many(grids, threads=2), npt.NDArray[np.uint8])


def other_sizes() -> str:
    """A 4x4 and a 6x6 puzzle (boxes 2x3), and a 16x16 search cut short by a node budget."""
    four = assert_type(sf.geometry_for(4), sf.Geometry)
    assert (four.box_rows, four.box_cols) == (2, 2)
    assert sf.count_solutions("1.3..4.........2", limit=2) == 1
    six = assert_type(sf.solve("." * 36, box=(2, 3)), str | None)
    assert six is not None and sf.is_solution(six, "." * 36)
    try:
        sf.count_many(["." * 256], limit=2, max_nodes=1)
    except sf.SearchLimitExceeded as err:
        assert err.indices == [0]
    # Pencil marks: 4 places per cell of a 4x4 grid, every digit still possible.
    marks = "1234" * 16
    assert assert_type(sf.parse(marks, marks=True), str) == marks
    assert assert_type(sf.count_solutions(marks, limit=3, marks=True), int) == 3
    assert assert_type(sf.solve(marks, marks=True), str | None) is not None
    assert assert_type(sf.solve_many([marks], marks=True), list[str | None])[0] is not None
    assert assert_type(sf.count_many([marks], marks=True), list[int]) == [2]
    return six


def statistics_of(puzzles: list[str]) -> float:
    """Search statistics of a batch: per-puzzle figures and the essay-style summary."""
    stats = assert_type(sf.solve_stats(puzzles, threads=1), sf.Stats)
    summary = assert_type(stats.summary(), sf.Summary)
    assert summary.puzzles == len(puzzles) == len(stats.nodes)
    return assert_type(summary.puzzles_per_second, float)


def publish_and_play(seed: int) -> sf.Rating:
    """Generate a rated puzzle, take hints, save and load the board in progress."""
    puzzle = assert_type(sf.generate(difficulty="easy", seed=seed), str)
    batch = assert_type(sf.generate_many(2, seed=seed, threads=1), list[str])
    rating = assert_type(sf.rate(puzzle), sf.Rating)
    assert rating.level == 1
    assert len(assert_type(sf.rate_many(batch, threads=1), list[sf.Rating])) == 2
    board = assert_type(sf.Board.new(puzzle), sf.Board)
    marks = assert_type(sf.candidates(board), list[set[int]])
    assert len(marks) == 81
    step = assert_type(sf.hint(board), sf.Hint | None)
    assert step is not None and step.explanation
    board = board.apply(step)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.json"
        assert_type(sf.save_board(board, path), None)
        assert assert_type(sf.load_board(path), sf.Board) == board
    return rating


def up_to_symmetry(puzzle: str) -> str:
    """Canonical forms, transformations and random symmetries."""
    form = assert_type(sf.canonical(puzzle), str)
    forms = assert_type(sf.canonical_many([puzzle, form], threads=1), list[str])
    assert forms == [form, form]
    moved = assert_type(sf.transform(puzzle, transpose=True, digits="987654321"), str)
    assert sf.canonical(assert_type(sf.random_transform(moved, seed=1), str)) == form
    assert len(assert_type(sf.random_transform_many([puzzle], seed=2), list[str])) == 1
    step = assert_type(sf.canonical_transform(puzzle), sf.Transformation)
    assert assert_type(sf.apply_transformation(puzzle, step), str) == form
    drawn = assert_type(sf.random_transformation(sf.geometry_for(9), seed=3), sf.Transformation)
    return sf.apply_transformation(puzzle, drawn)


def main() -> None:
    """Exercise the whole public API once."""
    version = assert_type(sf.__version__, str)
    print(f"sudoku_fast {version}")
    print(solve_and_check(PUZZLE))
    clash = "55" + "." * 79
    results = solve_batch([PUZZLE, clash])
    solution = results[PUZZLE]
    assert results[clash] is None and solution is not None
    grid = np.array([[0 if c == "." else int(c) for c in PUZZLE]], dtype=np.uint8)
    assert solve_array(grid)[0].tolist() == [int(c) for c in solution]
    other_sizes()
    assert statistics_of([PUZZLE, solution]) > 0
    print(publish_and_play(seed=1))
    print(up_to_symmetry(PUZZLE))
    print("every public function called")


if __name__ == "__main__":
    main()
