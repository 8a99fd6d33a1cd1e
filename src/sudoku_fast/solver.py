"""Single-puzzle entry points: solve one puzzle, count its solutions."""

from __future__ import annotations

from .batch import decode_solutions, run_engine
from .grid import parse_values


def solve(puzzle: str) -> str | None:
    """Solve one puzzle given in any notation `parse` accepts.

    Returns the canonical 81-character solution, or None when the puzzle has no solution
    (clashing clues included). When it has several solutions, one valid solution is
    returned; use `count_solutions` to tell the cases apart.
    """
    grid = bytes(parse_values(puzzle))
    return decode_solutions(run_engine(grid, 1, 1, 1))[0]


def count_solutions(puzzle: str, limit: int = 2) -> int:
    """Count the solutions of a puzzle, stopping at `limit`.

    0 means no solution, 1 a unique one; a result equal to `limit` means "at least
    `limit`". The default limit of 2 is the usual uniqueness check.
    """
    grid = bytes(parse_values(puzzle))
    return run_engine(grid, 1, limit, 1).counts[0]
