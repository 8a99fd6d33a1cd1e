"""The general engine under a rule set's own tables: units, peers and neighbours.

A rule set on an N x N grid (N up to 64) becomes plain cell lists: its units (every
complete all-different set: rows, columns, boxes or jigsaw regions, diagonals, windows,
disjoint groups), each cell's extra peers (cells it may not share a value with: partial
sets, cages, knight or king moves), under the non-consecutive rule each cell's
orthogonal neighbours, and the killer cages' sums and the thermometers. `ruled_tables`
builds the engine's tables from them once (callers cache
them); `solve_ruled_range` runs the engine over a range of a batch with them, the GIL
released, exactly as the classic path runs `solve_range` with a geometry's tables.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import _general

__all__ = ["MAX_UNITS_PER_CELL", "ruled_tables", "solve_ruled_range", "tables_type"]

MAX_UNITS_PER_CELL = 16  # the compiled engine's limit (`_general.pyx`)


def ruled_tables(
    size: int,
    box: tuple[int, int],
    units: Sequence[Sequence[int]],
    peers: Sequence[Sequence[int]] | None = None,
    neighbours: Sequence[Sequence[int]] | None = None,
    sums: Sequence[tuple[Sequence[int], int]] | None = None,
    thermos: Sequence[Sequence[int]] | None = None,
) -> Any:
    """The engine's tables of a rule set on a size x size grid with boxes of `box`.

    Parameters
    ----------
    size : int
        N, the grid's side (up to the engine's MAX_SIZE).
    box : (rows, cols)
        The grid's box shape; locked candidates run only when its boxes are units.
    units : sequence of cell lists
        Every complete all-different set of N cells (rows and columns included).
    peers : sequence of cell lists, optional
        Per cell, further cells that may not share its value.
    neighbours : sequence of cell lists, optional
        Per cell, its orthogonal neighbours, under the non-consecutive rule.
    sums : sequence of (cells, total), optional
        Killer cages with their sums (their cells must be peers: give them in `peers`).
    thermos : sequence of cell lists, optional
        Thermometers, bulb first: values strictly increasing along each.

    Returns
    -------
    Tables
        Read-only, safe to share between threads.

    Raises
    ------
    ValueError
        A unit that is not N different cells, a cell in more than MAX_UNITS_PER_CELL
        units, a size the engine does not take.
    """
    return _general.Tables(size, box[0], box[1], units, peers, neighbours, sums, thermos)


def solve_ruled_range(
    tables: Any,
    grids: Any,
    solutions: Any,
    counts: Any,
    guesses: Any,
    nodes: Any,
    nanos: Any,
    start: int,
    stop: int,
    limit: int,
    max_nodes: int = 0,
    stop_flag: Any = None,
) -> None:
    """Solve puzzles start..stop-1 of a flat buffer of N*N-byte grids under `tables`
    (see `_general.solve_range`: the same buffers, counts and figures)."""
    _general.solve_range(
        tables,
        grids,
        solutions,
        counts,
        guesses,
        nodes,
        nanos,
        start,
        stop,
        limit,
        max_nodes,
        stop_flag,
    )


def tables_type() -> type:
    """The class of the tables `ruled_tables` builds now (callers key caches by it: a
    test may swap the compiled engine for its twin, whose tables differ)."""
    return type(_general.tables_for(4, 2, 2))
