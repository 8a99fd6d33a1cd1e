"""The general engine in plain Python: the slow, obviously correct twin of `_general.pyx`
(and, for 9x9 grids, of `_core.pyx`: see `_core_py.py`), for differential tests and as
documentation of the algorithm.

It follows Peter Norvig's classic constraint-propagation design: every cell holds the set
of values still possible; assigning a value eliminates all the others; eliminating a value
from a cell

1. removes the last candidate's value from the cell's peers when one is left (naked single);
2. places the value in its only remaining cell of a unit (hidden single);
3. fails when a cell has no candidate left or a value has no place left in a unit.

Search picks an unfilled cell with the fewest candidates (MinRV) and tries each of its
values on a copy of the state. It handles every geometry `parse` does (recursion depth
grows with the grid, so it is meant for small sizes) and has the same results as the
compiled engines: `solve` returns one solution or None, `count_solutions` counts up to a
limit. `tables_for` and `solve_range` take the compiled module's arguments and give its
results (its own search figures: nodes and guesses count this search's states).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, pairwise
from typing import Any

from .._base.grid import Geometry, format_values, geometry_for, parse_grid

Candidates = list[set[int]]


@dataclass(frozen=True)
class _Rules:
    """The units of each cell and its peers, for one geometry; under the non-consecutive
    rule, each cell's orthogonal neighbours too (empty: no such rule); killer cages with
    their sums and thermometers (bulb first), checked by `_bounds_hold`."""

    geometry: Geometry
    units_of: list[list[tuple[int, ...]]]
    peers: list[list[int]]
    neighbours: list[list[int]] | None = None
    sums: tuple[tuple[tuple[int, ...], int], ...] = ()
    thermos: tuple[tuple[int, ...], ...] = ()


def _bounds_hold(rules: _Rules, cands: Candidates) -> bool:
    """Whether every cage's sum lies between the smallest and the largest its cells'
    candidates make, and every thermometer cell can be below the next: exact once each
    cell holds one value, so the search's solutions keep every cage and thermometer."""
    for cells, total in rules.sums:
        if not sum(min(cands[c]) for c in cells) <= total <= sum(max(cands[c]) for c in cells):
            return False
    for path in rules.thermos:
        for below, above in pairwise(path):
            if min(cands[below]) >= max(cands[above]):
                return False
    return True


@lru_cache(maxsize=32)
def _rules(geometry: Geometry) -> _Rules:
    units = geometry.units
    cells = range(geometry.cells)
    units_of = [[u for u in units if cell in u] for cell in cells]
    peers = [sorted({p for u in units_of[cell] for p in u} - {cell}) for cell in cells]
    return _Rules(geometry, units_of, peers)


def _assign(rules: _Rules, cands: Candidates, cell: int, value: int) -> bool:
    """Make `value` the only candidate of `cell`; False on contradiction."""
    return all(_eliminate(rules, cands, cell, other) for other in cands[cell] - {value})


def _eliminate(rules: _Rules, cands: Candidates, cell: int, value: int) -> bool:
    """Remove `value` from `cell` and propagate; False on contradiction."""
    if value not in cands[cell]:
        return True
    cands[cell].discard(value)
    if not cands[cell]:
        return False
    if len(cands[cell]) == 1:
        (last,) = cands[cell]
        if not all(_eliminate(rules, cands, peer, last) for peer in rules.peers[cell]):
            return False
        if rules.neighbours is not None and not all(
            _eliminate(rules, cands, near, other)
            for near in rules.neighbours[cell]
            for other in (last - 1, last + 1)
        ):
            return False
    for unit in rules.units_of[cell]:
        places = [c for c in unit if value in cands[c]]
        if not places:
            return False
        if len(places) == 1 and not _assign(rules, cands, places[0], value):
            return False
    return True


def _initial(rules: _Rules, values: bytes) -> Candidates | None:
    """Candidates after assigning every clue, or None if the clues already contradict."""
    every_value = range(1, rules.geometry.size + 1)
    cands: Candidates = [set(every_value) for _ in values]
    for cell, value in enumerate(values):
        if value and not _assign(rules, cands, cell, value):
            return None
    return cands


class _OutOfNodes(Exception):
    """The search used up its node budget."""


@dataclass
class _Figures:
    """A search's figures: states visited (the root included) and branch trials made
    while other candidates were still open; `budget` caps the nodes (0: none)."""

    nodes: int = 0
    guesses: int = 0
    budget: int = 0


def _search(
    rules: _Rules,
    cands: Candidates,
    limit: int,
    found: list[Candidates],
    figures: _Figures | None = None,
) -> None:
    """Depth-first search, appending solutions to `found` until it holds `limit`."""
    if figures is not None:
        figures.nodes += 1
        if figures.budget and figures.nodes > figures.budget:
            raise _OutOfNodes
    if not _bounds_hold(rules, cands):
        return
    open_cells = [c for c in range(len(cands)) if len(cands[c]) > 1]
    if not open_cells:
        found.append(cands)
        return
    cell = min(open_cells, key=lambda c: len(cands[c]))
    values = sorted(cands[cell])
    for k, value in enumerate(values):
        if figures is not None and k < len(values) - 1:
            figures.guesses += 1
        trial = [set(s) for s in cands]
        if _assign(rules, trial, cell, value):
            _search(rules, trial, limit, found, figures)
            if len(found) >= limit:
                return


def _solutions(
    puzzle: str, limit: int, box: object, alphabet: object
) -> tuple[Geometry, list[Candidates]]:
    if limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit}")
    geometry, values = parse_grid(puzzle, box=box, alphabet=alphabet)
    rules = _rules(geometry)
    cands = _initial(rules, values)
    found: list[Candidates] = []
    if cands is not None:
        _search(rules, cands, limit, found)
    return geometry, found


def solve(puzzle: str, *, box: object = None, alphabet: object = None) -> str | None:
    """One solution of the puzzle as a canonical string, or None when there is none."""
    geometry, found = _solutions(puzzle, 1, box, alphabet)
    if not found:
        return None
    return format_values([min(s) for s in found[0]], geometry)


def count_solutions(
    puzzle: str, limit: int = 2, *, box: object = None, alphabet: object = None
) -> int:
    """The number of solutions of the puzzle, counted up to `limit`."""
    return len(_solutions(puzzle, limit, box, alphabet)[1])


# ---------------------------------------------------------------------------------------
# The compiled module's functions, the same arguments and results (see `_general.pyi`)

MAX_SIZE = 64
BUDGET_EXHAUSTED = -1  # the node budget ran out before the count was decided
STOPPED = -2  # another thread raised the stop flag
DEFAULT_RESTART_UNIT = 20000  # (the compiled search's restarts; this one never restarts)
MAX_DIGIT_SETS = 1024  # a killer cage with more digit sets keeps bounds only


def count_digit_sets(length: int, total: int, size: int) -> int:
    """How many sets of `length` different values 1..size add up to `total`."""
    return sum(1 for found in combinations(range(1, size + 1), length) if sum(found) == total)


def digit_sets(length: int, total: int, size: int, cap: int = MAX_DIGIT_SETS) -> list[int] | None:
    """The sets of `length` different values 1..size adding up to `total`, as masks
    (bit v-1 = value v); None when there are more than `cap` (or the cage is too big to
    count, as the compiled side decides)."""
    if length * size * total > 4_000_000 or count_digit_sets(length, total, size) > cap:
        return None
    return [
        sum(1 << (v - 1) for v in found)
        for found in combinations(range(1, size + 1), length)
        if sum(found) == total
    ]


@dataclass(frozen=True)
class Tables:
    """The geometry the functions below work on (`tables_for`), or a rule set's units,
    peers, non-consecutive neighbours, killer sums and thermometers (as the compiled
    `Tables` takes them): the units replace rows, columns and boxes, the peers add to
    theirs."""

    size: int
    box_rows: int
    box_cols: int
    units: Any = None
    peers: Any = None
    neighbours: Any = None
    sums: Any = None
    thermos: Any = None

    def __post_init__(self) -> None:
        if self.box_rows < 1 or self.box_cols < 1 or self.box_rows * self.box_cols != self.size:
            raise ValueError(
                f"box {self.box_rows}x{self.box_cols} does not tile a {self.size}x{self.size} grid"
            )
        given = (self.peers, self.neighbours, self.sums, self.thermos)
        if self.units is None and any(x is not None for x in given):
            raise ValueError("peers, neighbours, sums and thermometers come with units")
        for name in ("units", "peers", "neighbours", "thermos"):
            lists = getattr(self, name)
            if lists is not None:  # hashable, so the rules below can be cached
                object.__setattr__(self, name, tuple(tuple(int(c) for c in x) for x in lists))
        if self.sums is not None:
            sums = tuple((tuple(int(c) for c in cells), int(total)) for cells, total in self.sums)
            object.__setattr__(self, "sums", sums)

    @property
    def boxes_are_units(self) -> bool:
        """Whether the compiled search may use locked candidates (no effect here)."""
        if self.units is None:
            return True
        geometry = geometry_for(self.size, (self.box_rows, self.box_cols))
        sets = {frozenset(unit) for unit in self.units}
        return self.box_rows > 1 and all(frozenset(u) in sets for u in geometry.units)


def tables_for(size: int, box_rows: int, box_cols: int) -> Tables:
    """The tables of a size and box shape."""
    return Tables(size, box_rows, box_cols)


@lru_cache(maxsize=32)
def _rules_of(tables: Tables) -> _Rules:
    """The rules of `tables`: the geometry's, or the rule set's."""
    geometry = geometry_for(tables.size, (tables.box_rows, tables.box_cols))
    if tables.units is None:
        return _rules(geometry)
    cells = range(geometry.cells)
    units = list(tables.units)
    units_of = [[u for u in units if cell in u] for cell in cells]
    extra = tables.peers or [()] * geometry.cells
    peers = [sorted(({p for u in units_of[c] for p in u} | set(extra[c])) - {c}) for c in cells]
    near = None if tables.neighbours is None else [list(n) for n in tables.neighbours]
    return _Rules(geometry, units_of, peers, near, tables.sums or (), tables.thermos or ())


def solve_values(
    values: Any,
    geometry: Geometry,
    limit: int,
    max_nodes: int = 0,
    masks: Any = None,
    rules: _Rules | None = None,
) -> tuple[int, list[int] | None, int, int]:
    """(count up to `limit` or BUDGET_EXHAUSTED, first solution or None, guesses, nodes)
    under the geometry's rules, or `rules` when given."""
    rules = _rules(geometry) if rules is None else rules
    every_value = range(1, geometry.size + 1)
    cands: Candidates | None = [set(every_value) for _ in range(geometry.cells)]
    if masks is not None:
        cands = [{v for v in every_value if mask >> (v - 1) & 1} for mask in masks]
        cands = cands if all(cands) else None
    for cell, value in enumerate(values):
        if cands is not None and value and not _assign(rules, cands, cell, value):
            cands = None
    if cands is not None:  # the marks' singles propagate too
        for cell in range(geometry.cells):
            if cands is not None and len(cands[cell]) == 1:
                (only,) = cands[cell]
                if not _assign(rules, cands, cell, only):
                    cands = None
    found: list[Candidates] = []
    figures = _Figures(budget=max_nodes)
    try:
        if cands is not None:
            _search(rules, cands, limit, found, figures)
    except _OutOfNodes:
        return BUDGET_EXHAUSTED, None, figures.guesses, figures.nodes
    solution = [min(s) for s in found[0]] if found else None
    return len(found), solution, figures.guesses, max(figures.nodes, 1)


def solve_range(
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
    locked: bool = True,
    by_units: bool = True,
    restart_unit: int = DEFAULT_RESTART_UNIT,
    masks: Any = None,
    cpu_clock: bool = False,
) -> None:
    """Solve puzzles start..stop-1 of a flat buffer of N*N-byte grids (see
    `_general.solve_range`); `locked`, `by_units` and `restart_unit` select aids of the
    compiled search and change nothing here."""
    rules = _rules_of(tables)
    geometry = rules.geometry
    cells = geometry.cells
    view = memoryview(grids).cast("B")
    for i in range(start, stop):
        if stop_flag is not None and stop_flag[0]:
            counts[i] = STOPPED
            continue
        began = time.thread_time_ns() if cpu_clock else time.perf_counter_ns()
        marks = None if masks is None else masks[i * cells : (i + 1) * cells]
        count, solution, tried, visited = solve_values(
            view[i * cells : (i + 1) * cells], geometry, limit, max_nodes, marks, rules
        )
        if solution is not None:
            solutions[i * cells : (i + 1) * cells] = bytes(solution)
        counts[i], guesses[i], nodes[i] = count, tried, visited
        if nanos is not None:
            ended = time.thread_time_ns() if cpu_clock else time.perf_counter_ns()
            nanos[i] = ended - began
