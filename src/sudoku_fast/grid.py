"""Grid text of every size: parse every common notation, pretty-print, check solutions.

The definitions live in `sudoku_fast._base.grid`, the one home of the geometry (units,
peers, boxes, symbols) that every layer shares; this module is their public front.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ._base import grid as _grid
from ._base.grid import (
    CELLS,
    CLASSIC,
    EMPTY,
    MAX_SIZE,
    MIN_INFERRED_SIZE,
    SEPARATORS,
    SIZE,
    SYMBOLS,
    Box,
    Geometry,
    default_box,
    format_marks,
    format_values,
    geometry_for,
    grid_text,
    parse,
    parse_grid,
    parse_marks_grid,
    parse_values,
    show,
)
from ._base.rules import Rules, as_rules
from ._base.rules_check import rule_broken
from ._variants.run import box_for

__all__ = [
    "CELLS",
    "CLASSIC",
    "EMPTY",
    "MAX_SIZE",
    "MIN_INFERRED_SIZE",
    "SEPARATORS",
    "SIZE",
    "SYMBOLS",
    "Box",
    "Geometry",
    "default_box",
    "format_marks",
    "format_values",
    "geometry_for",
    "grid_text",
    "is_solution",
    "parse",
    "parse_grid",
    "parse_marks_grid",
    "parse_values",
    "show",
]


def is_solution(
    candidate: str,
    puzzle: str,
    *,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    rules: Rules | Mapping[str, Any] | str | None = None,
) -> bool:
    """True when `candidate` is a complete valid grid that keeps every clue of `puzzle`.

    The check is written independently of the engines (every row, column and box holds
    every value once; under `rules`, every variant rule read from the `Rules` fields one
    by one), so it can verify their answers.

    Parameters
    ----------
    candidate : str
        The grid to check, in any notation `parse` accepts, read with the puzzle's
        geometry.
    puzzle : str
        The puzzle whose clues the candidate must keep.
    box, alphabet : optional
        Fix the geometry, as in `parse`.
    rules : Rules, JSON mapping or text, or preset names, optional
        Variant rules the grid must obey too, as `solve` takes them.

    Returns
    -------
    bool
        True for a complete, valid grid keeping every clue; False for an incomplete or
        invalid one.

    Raises
    ------
    ValueError
        A malformed text, as in `parse`; rules that do not fit the grid.
    TypeError
        An argument that is not a str; `rules` of another type.

    Examples
    --------
    >>> import sudoku_fast as sf
    >>> p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    >>> sf.is_solution(sf.solve(p), p)
    True
    >>> sf.is_solution(p, p)  # incomplete
    False
    >>> sf.is_solution("1234341221434321", "." * 16)  # a 4x4 grid
    True
    >>> sf.is_solution("1234341221434321", "." * 16, rules="x")  # r1c1 and r4c4 hold 1
    False
    """
    variant = as_rules(rules)
    if variant is None:
        return _grid.is_solution(candidate, puzzle, box=box, alphabet=alphabet)
    return solution_problem(candidate, puzzle, box=box, alphabet=alphabet, rules=variant) is None


def solution_problem(
    candidate: str,
    puzzle: str,
    *,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    rules: Rules | None = None,
) -> str | None:
    """Why `candidate` does not solve `puzzle` under `rules`, or None when it does
    (the check of `is_solution`, saying what is wrong: an empty cell, a changed clue,
    the first rule broken)."""
    if not isinstance(candidate, str):
        raise TypeError(f"candidate must be a str, not {type(candidate).__name__}")
    if rules is not None:
        box = box_for(rules, box, alphabet)  # type: ignore[assignment]  # a box or None
    geometry, clues = _grid.parse_grid(puzzle, box=box, alphabet=alphabet)
    shape = (geometry.box_rows, geometry.box_cols)
    if rules is not None:
        rules.check(geometry.size, shape)
    grid = _grid.parse_grid(candidate, geometry=geometry)[1]
    symbols = geometry.symbols
    for cell, (clue, value) in enumerate(zip(clues, grid, strict=True)):
        if clue and value and clue != value:
            row, col = divmod(cell, geometry.size)
            return (
                f"the clue {symbols[clue - 1]} at row {row + 1}, column {col + 1} "
                f"is changed to {symbols[value - 1]}"
            )
    empty = grid.count(0)
    if empty:
        return f"{empty} empty cell(s)"
    return rule_broken(grid, geometry.size, shape, rules, symbols)
