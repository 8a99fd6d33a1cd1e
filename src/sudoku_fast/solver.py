"""Single-puzzle entry points: solve one puzzle, count its solutions, for every grid size."""

from __future__ import annotations

from typing import Any

from ._engine.isa import core as _core  # the build of the 9x9 engine chosen for this CPU
from .batch import (
    DEFAULT_MAX_NODES,
    EngineResults,
    check_budget,
    check_limit,
    decode_solutions,
    node_budget,
    run_engine,
)
from .grid import check_flag, parse_grid, parse_marks_grid


def solve(
    puzzle: str,
    *,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    marks: bool = False,
) -> str | None:
    """Solve one puzzle given in any notation `parse` accepts.

    Returns the canonical solution (in the grid's symbols), or None when the puzzle has
    no solution (clashing clues included). When it has several solutions, one valid
    solution is returned; use `count_solutions` to tell the cases apart. The size is
    inferred from the number of cells unless `box=(rows, cols)` or `alphabet` fixes it.
    Grids other than 9x9 with 3x3 boxes get a budget of `max_nodes` search nodes (None = no budget);
    running out raises `SearchLimitExceeded`. `marks=True` reads the puzzle as pencil
    marks: N*N*N characters, for each cell, for each digit, the digit where it is still
    possible and `.` where it is excluded (see `parse`).
    """
    budget = node_budget(max_nodes)
    check_flag(marks, "marks")
    if box is None and alphabet is None and not marks:
        plain = _core.solve_plain(puzzle, 1)  # None unless 81 plain characters
        if plain is not None:
            return plain[1]
    results = _run_one(puzzle, 1, box, alphabet, budget, marks)
    solution = decode_solutions(results)[0]
    check_budget(results, None, max_nodes, single=True)
    return solution


def count_solutions(
    puzzle: str,
    limit: int = 2,
    *,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    marks: bool = False,
) -> int:
    """Count the solutions of a puzzle, stopping at `limit`.

    0 means no solution, 1 a unique one; a result equal to `limit` means "at least
    `limit`". The default limit of 2 is the usual uniqueness check. `box`, `alphabet`,
    `max_nodes` and `marks` work as in `solve`.
    """
    budget = node_budget(max_nodes)
    check_limit(limit)
    check_flag(marks, "marks")
    if box is None and alphabet is None and not marks:
        plain = _core.solve_plain(puzzle, limit)  # None unless 81 plain characters
        if plain is not None:
            return plain[0]
    results = _run_one(puzzle, limit, box, alphabet, budget, marks)
    check_budget(results, -1, max_nodes, single=True)
    return results.counts[0]


def _run_one(
    puzzle: str, limit: int, box: Any, alphabet: Any, budget: int, marks: bool
) -> EngineResults:
    """Parse one puzzle (clues, or pencil marks) and run the engine of its geometry."""
    if marks:
        geometry, masks = parse_marks_grid(puzzle, box=box, alphabet=alphabet)
        grid = bytes(geometry.cells)
        return run_engine(grid, 1, limit, 1, geometry=geometry, max_nodes=budget, masks=masks)
    geometry, values = parse_grid(puzzle, box=box, alphabet=alphabet)
    return run_engine(values, 1, limit, 1, geometry=geometry, max_nodes=budget)
