"""A user-style script calling every public function of sudoku_fast.

It is type-checked with `mypy --strict` against the installed package (tests/test_typing.py
and CI), which proves the wheel's py.typed and stubs give users precise types: every
`assert_type` below fails the check if a result's type is wrong or degrades to Any. The
script also runs, so the calls are real.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

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
    solved = assert_type(sf.solve_many(grids, threads=2), np.ndarray[Any, Any])
    return solved.astype(np.uint8)


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
    print("every public function called")


if __name__ == "__main__":
    main()
