"""Variant rules on grids above the variant engine's 11x11: the general engine's path.

The variant engine (`_variant.pyx`) keeps a cell set in 128 bits, so it takes grids up
to 11x11. Above that, a rule set becomes tables of the general engine (N up to 64,
`_engine.ruled`): its complete all-different sets (rows, columns, boxes or jigsaw
regions, diagonals, windoku windows, disjoint groups, extra sets of N cells) are units,
with a place counter per (unit, value) for hidden singles; partial sets, cages without
a sum and the anti-knight and anti-king moves add peers; non-consecutive removes the
values next to a placed one from its orthogonal neighbours. Locked candidates run only
while the boxes are units (not under a jigsaw). Killer cages with a sum (their cells
peers too) and thermometers (their cells peers as well: strictly increasing values
differ) go to the engine's cage propagation: combination logic on each cage's digit
sets (bounds where a cage has too many), plus, per unit, the sum its cells outside the
cages lying inside it must make (`unit_remainders`, the 45 rule) as one more cage.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from .._base.checks import check_limit
from .._base.grid import Geometry, default_box
from .._base.rules import Rules, rules_tables
from .._engine.results import EngineResults
from .._engine.ruled import ruled_tables, solve_ruled_range, tables_type
from .._engine.run import general_tables, shared_buffers
from .._parallel.fanout import run_chunks
from .._parallel.threads import resolve_threads

__all__ = ["BigGridCounter", "big_tables", "check_big_rules", "run_big_rules"]

KNIGHT = [(a, b) for a in (-2, -1, 1, 2) for b in (-2, -1, 1, 2) if abs(a) != abs(b)]
KING = [(a, b) for a in (-1, 0, 1) for b in (-1, 0, 1) if (a, b) != (0, 0)]
ORTHOGONAL = [(-1, 0), (1, 0), (0, -1), (0, 1)]
# The largest remainder of a unit (see `unit_remainders`) made a cage: larger ones
# have hundreds of digit sets, costing more per node than they save.
MAX_REMAINDER = 5


def _box(size: int, box: tuple[int, int] | None) -> tuple[int, int]:
    """The box shape of the grid: as given, else the size's default, else (1, N)."""
    if box is not None:
        return box
    return default_box(size) or (1, size)


def check_big_rules(rules: Rules, size: int, box: tuple[int, int] | None = None) -> None:
    """Raise ValueError when `rules` do not fit an N x N grid above the variant
    engine's sizes (boxes of `box`) or need what only that engine propagates."""
    rules.check(size, box)
    big_tables(rules, size, box)  # a cell in too many units


def big_tables(rules: Rules, size: int, box: tuple[int, int] | None = None) -> Any:
    """The general engine's tables of checked `rules` on an N x N grid (cached)."""
    return _tables(rules, size, _box(size, box), tables_type())


@lru_cache(maxsize=64)
def _tables(rules: Rules, size: int, box: tuple[int, int], kind: type) -> Any:
    tables = rules_tables(rules, size, box)
    cells = size * size
    peers: list[set[int]] = [set() for _ in range(cells)]
    # Cages with a sum and thermometers hold different values too.
    for group in (*tables.partial, *(found for found, _ in tables.cages), *tables.thermos):
        for cell in group:
            peers[cell].update(group)
    steps = (KNIGHT if tables.anti_knight else []) + (KING if tables.anti_king else [])
    for cell in range(cells):
        r, c = divmod(cell, size)
        peers[cell].update(
            (r + dr) * size + c + dc
            for dr, dc in steps
            if 0 <= r + dr < size and 0 <= c + dc < size
        )
        peers[cell].discard(cell)
    neighbours = None
    if tables.non_consecutive:
        neighbours = [
            [
                (r + dr) * size + c + dc
                for dr, dc in ORTHOGONAL
                if 0 <= r + dr < size and 0 <= c + dc < size
            ]
            for r, c in (divmod(cell, size) for cell in range(cells))
        ]
    return ruled_tables(
        size,
        box,
        tables.units,
        [sorted(p) for p in peers],
        neighbours,
        sums=(tables.cages + unit_remainders(tables.units, tables.cages, size)) or None,
        thermos=tables.thermos or None,
    )


def unit_remainders(
    units: Sequence[Sequence[int]], cages: Sequence[tuple[Sequence[int], int]], size: int
) -> tuple[tuple[tuple[int, ...], int], ...]:
    """The sums a unit's killer cages imply (the "45 rule", 136 on 16x16).

    A unit holds 1..N once, so the cells of a unit outside the cages lying wholly inside
    it add up to N(N+1)/2 less those cages' sums. Each such remainder of 1 to
    MAX_REMAINDER cells (all in one unit, so all different) becomes one more cage for
    the engine, unless it is a cage already.
    """
    full = size * (size + 1) // 2
    known = {frozenset(cells) for cells, _ in cages}
    found: dict[frozenset[int], int] = {}
    for unit in units:
        members = set(unit)
        rest = set(unit)
        total = full
        for cells, cage_sum in cages:
            if members.issuperset(cells):
                rest.difference_update(cells)
                total -= cage_sum
        key = frozenset(rest)
        if 0 < len(rest) <= MAX_REMAINDER and key not in known:
            found.setdefault(key, total)
    return tuple((tuple(sorted(cells)), total) for cells, total in found.items())


def run_big_rules(
    grids: Any,
    n: int,
    rules: Sequence[Rules | None],
    limit: int = 1,
    threads: int | None = None,
    *,
    geometry: Geometry,
    max_nodes: int = 0,
    timed: bool = False,
    stop_flag: bytearray | None = None,
    single: bool = False,
) -> EngineResults:
    """`run.run_rules` for grids above the variant engine's sizes: the same arguments
    and results, on the general engine (classic puzzles on its classic tables)."""
    check_limit(limit)
    workers = resolve_threads(threads)
    size = geometry.size
    box = (geometry.box_rows, geometry.box_cols)
    tables_of: dict[Rules | None, Any] = {}
    each: list[Any] = []
    for i, item in enumerate(rules):
        key = None if item is None or item.is_classic else item
        if key not in tables_of:
            if key is None:
                tables_of[key] = general_tables(geometry)
            else:
                try:
                    check_big_rules(key, size, box)
                except ValueError as error:
                    if single:
                        raise
                    raise ValueError(f"puzzle {i}: {error}") from None
                tables_of[key] = big_tables(key, size, box)
        each.append(tables_of[key])
    results = EngineResults.zeroed(n, geometry, timed=timed, on_core=False)
    if n == 0:
        return results
    stop = bytearray(1) if stop_flag is None else stop_flag
    grids_v, solutions, counts, guesses, nodes, nanos, stop_view = shared_buffers(
        workers,
        grids,
        results.solutions,
        results.counts,
        results.guesses,
        results.nodes,
        results.nanos,
        stop,
    )

    def work(start: int, end: int) -> None:
        # One engine call per run of puzzles with the same rules.
        while start < end:
            tables = each[start]
            stretch = start + 1
            while stretch < end and each[stretch] is tables:
                stretch += 1
            solve_ruled_range(
                tables,
                grids_v,
                solutions,
                counts,
                guesses,
                nodes,
                nanos,
                start,
                stretch,
                limit,
                max_nodes,
                stop_view,
            )
            start = stretch

    def abort() -> None:
        stop[0] = 1

    # A big variant puzzle costs milliseconds: chunks of one balance best.
    results.threads = run_chunks(n, workers, 1, work, caller_works=True, on_abort=abort)
    return results


class BigGridCounter:
    """`run.GridCounter` for grids above the variant engine's sizes, on the general
    engine: `count(grid, limit)` gives the number of solutions up to `limit` (-1 past
    `max_nodes`), `solution` the first one found."""

    def __init__(
        self, rules: Rules, size: int, box: tuple[int, int] | None = None, max_nodes: int = 0
    ) -> None:
        check_big_rules(rules, size, box)
        self.size = size
        self.max_nodes = max_nodes
        self._tables = big_tables(rules, size, box)
        self.solution = bytearray(size * size)
        self._counts = array("i", [0])
        self._guesses = array("q", [0])
        self._nodes = array("q", [0])

    def count(self, grid: bytearray, limit: int = 2) -> int:
        """The number of solutions of `grid` (N*N values 0..N, 0 = empty) up to `limit`."""
        solve_ruled_range(
            self._tables,
            grid,
            self.solution,
            self._counts,
            self._guesses,
            self._nodes,
            None,
            0,
            1,
            limit,
            self.max_nodes,
        )
        found = self._counts[0]
        return -1 if found < 0 else found
