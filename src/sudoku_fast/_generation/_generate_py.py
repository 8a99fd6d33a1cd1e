"""The generator in plain Python: the slow, obviously correct twin of `_generate.pyx`.

The same steps with the same random numbers (see `sudoku_fast.generator` for the
steps), so both give the same puzzles from the same seeds. Uniqueness is checked by the
engines' solution counts (9x9 with 3x3 boxes: the 9x9 engine; else the general engine
with a node budget) and levels by the technique solver, through the rooms' own fronts
(`_engine.run`, `_techniques.solver`): the compiled ones, or their twins where a test
puts the twins in their place. (Only a check that runs
out of nodes could tell the twins apart: they search differently, so such checks need
not be the same ones; no check of the default budget runs out up to 16x16.)

`generate_range` and `draws` take the compiled module's arguments and give its results.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass
from typing import Any

from .._base.grid import Geometry, geometry_for
from .._base.randomness import Rng, line_order
from .._engine.run import run_engine
from .._techniques.solver import level_within

__all__ = ["draws", "generate_range", "random_full_grid"]


@dataclass(frozen=True)
class Budgets:
    """How hard one puzzle is tried: the compiled call's arguments of the same names."""

    fill_nodes: int = 20_000
    check_nodes: int = 1_000_000
    orders_per_grid: int = 1
    early_clues: int = 0
    max_attempts: int = 1_000_000


class _GaveUp(Exception):
    """The completion search used up its `fill_nodes` branches."""


def _propagate(geo: Geometry, cand: list[int], fixed: list[int]) -> bool:
    """Naked and hidden singles to a fixed point, in place; False on contradiction.

    `cand[cell]` has bit v-1 set when value v is possible; `fixed` lists the cells just
    reduced to one value. Both rules only remove candidates, so their fixed point (and
    whether it has an empty cell or a value with no place in some unit) does not
    depend on the order they run in: the compiled version gets the same state.
    """
    while fixed:
        while fixed:
            cell = fixed.pop()
            bit = cand[cell]
            for peer in geo.peers[cell]:
                if cand[peer] & bit:
                    cand[peer] &= ~bit
                    if cand[peer] == 0:
                        return False
                    if cand[peer] & (cand[peer] - 1) == 0:
                        fixed.append(peer)
        for unit in geo.units:
            for v in range(geo.size):
                bit = 1 << v
                places = [cell for cell in unit if cand[cell] & bit]
                if not places:
                    return False
                if len(places) == 1 and cand[places[0]] != bit:
                    cand[places[0]] = bit
                    fixed.append(places[0])
    return True


def _open_cell(cand: list[int]) -> int:
    """The first cell with the fewest candidates (two or more), or -1 if all are fixed."""
    best, best_count = -1, 65
    for cell, c in enumerate(cand):
        k = c.bit_count()
        if 1 < k < best_count:
            best, best_count = cell, k
            if k == 2:
                break
    return best


def _search(
    rng: Rng, geo: Geometry, cand: list[int], nodes: list[int], fill_nodes: int
) -> list[int] | None:
    """A completion of the propagated `cand` by randomised depth-first search, or None.

    `nodes[0]` counts the branches; past `fill_nodes` the search raises _GaveUp.
    """
    cell = _open_cell(cand)
    if cell < 0:
        return cand
    values = [v + 1 for v in range(geo.size) if cand[cell] >> v & 1]
    rng.shuffle(values)
    for value in values:
        if nodes[0] >= fill_nodes:
            raise _GaveUp
        nodes[0] += 1
        child = cand[:]
        child[cell] = 1 << (value - 1)
        if _propagate(geo, child, [cell]):
            found = _search(rng, geo, child, nodes, fill_nodes)
            if found is not None:
                return found
    return None


def _complete(rng: Rng, geo: Geometry, fill_nodes: int) -> list[int] | None:
    """A random start, completed; None when the search gives up (or finds nothing)."""
    n = geo.size
    cand = [geo.all_digits] * geo.cells
    if geo.box_rows == geo.box_cols:
        starts = [geo.units[2 * n + b * geo.box_rows + b] for b in range(geo.box_rows)]
    else:
        starts = [geo.units[0]]
    for unit in starts:
        values = list(range(1, n + 1))
        rng.shuffle(values)
        for cell, value in zip(unit, values, strict=True):
            cand[cell] = 1 << (value - 1)
    if not _propagate(geo, cand, [cell for unit in starts for cell in unit]):
        return None
    try:
        found = _search(rng, geo, cand, [0], fill_nodes)
    except _GaveUp:
        return None
    return None if found is None else [c.bit_length() for c in found]


def _transform(rng: Rng, geo: Geometry, grid: list[int]) -> list[int]:
    """A random relabelling and row/column/band/stack permutation (plus transposition)."""
    n, br, bc = geo.size, geo.box_rows, geo.box_cols
    rows = line_order(rng, br, n // br)
    cols = line_order(rng, bc, n // bc)
    labels = list(range(1, n + 1))
    rng.shuffle(labels)
    out = [labels[grid[rows[r] * n + cols[c]] - 1] for r in range(n) for c in range(n)]
    if br == bc and rng.below(2) == 1:
        out = [out[c * n + r] for r in range(n) for c in range(n)]
    return out


def random_full_grid(rng: Rng, geo: Geometry, fill_nodes: int = 20_000) -> list[int]:
    """A random complete grid drawn with `rng` (see the module doc for how)."""
    while True:
        filled = _complete(rng, geo, fill_nodes)
        if filled is not None:
            return _transform(rng, geo, filled)


def _count(puzzle: list[int], geo: Geometry, check_nodes: int) -> int:
    """Solutions up to 2; -1 when the general engine runs out of `check_nodes` nodes."""
    results = run_engine(bytes(puzzle), 1, 2, 1, geometry=geo, max_nodes=check_nodes)
    return results.counts[0]


class _TooHard(Exception):
    """The partial puzzle is already harder than the asked level."""


def _carve(
    grid: list[int],
    orbits: list[tuple[int, ...]],
    geo: Geometry,
    early: int | None,
    budgets: Budgets,
) -> tuple[list[int], list[tuple[int, ...]], bool]:
    """Remove the orbits in order, each when the puzzle stays unique.

    Returns the puzzle, the orbits removed (in order) and whether some check ran out of
    nodes (the puzzle is then unique but not proven minimal). With `early` (a level),
    the puzzle is rated once `budgets.early_clues` or fewer cells are clues, and
    _TooHard is raised when it is already above that level.
    """
    puzzle = grid[:]
    removed = []
    undecided = False
    clues = geo.cells
    for orbit in orbits:
        for cell in orbit:
            puzzle[cell] = 0
        count = _count(puzzle, geo, budgets.check_nodes)
        if count == 1:
            removed.append(orbit)
            clues -= len(orbit)
            if early is not None and clues <= budgets.early_clues:
                if level_within(puzzle, early, geo) > early:
                    raise _TooHard
                early = None
            continue
        undecided |= count < 0
        for cell in orbit:
            puzzle[cell] = grid[cell]
    return puzzle, removed, undecided


def _reference_puzzle(
    seed: int,
    geo: Geometry,
    orbits: list[tuple[int, ...]],
    level: int | None,
    minimal: bool,
    budgets: Budgets,
) -> list[int] | None:
    """The puzzle of one seed, made step by step in Python (see the module doc).

    None when no puzzle at the level was found in `budgets.max_attempts` removal orders.
    """
    rng = Rng(seed)
    early = level if level is not None and budgets.early_clues else None
    grid: list[int] = []
    for attempt in range(budgets.max_attempts):
        if attempt % budgets.orders_per_grid == 0:
            grid = random_full_grid(rng, geo, budgets.fill_nodes)
        order = list(range(len(orbits)))
        rng.shuffle(order)
        try:
            order_orbits = [orbits[k] for k in order]
            puzzle, removed, undecided = _carve(grid, order_orbits, geo, early, budgets)
        except _TooHard:
            continue
        if undecided and minimal:
            continue  # a removal was left undecided: minimality is not proven
        if level is None:
            return puzzle
        found = level_within(puzzle, level, geo)
        if not minimal:
            for orbit in reversed(removed):
                if found <= level:
                    break
                for cell in orbit:
                    puzzle[cell] = grid[cell]
                found = level_within(puzzle, level, geo)
        if found == level:
            return puzzle
    return None


def generate_range(
    tables: Any,
    logic_tables: Any,
    orbit_start: Any,
    orbit_cells: Any,
    seeds: Any,
    start: int,
    stop: int,
    out: Any,
    level: int = 0,
    minimal: bool = True,
    fill_nodes: int = 20000,
    check_nodes: int = 1000000,
    orders_per_grid: int = 1,
    early_clues: int = 0,
    max_attempts: int = 1000000,
    stop_flag: Any = None,
    stats: Any = None,
) -> int:
    """Generate puzzles start..stop-1 into `out` (N*N values 0..N each), one per seed.

    Returns -1, or the index of the first puzzle given up on (then the rest of the
    range is not made). `tables` names the geometry (the general engine's tables, or
    anything with `size`, `box_rows` and `box_cols`); `logic_tables` is unused (the
    levels come from the pure-Python technique solver) and `stats` is not kept.
    """
    geo = geometry_for(tables.size, (tables.box_rows, tables.box_cols))
    bounds = list(orbit_start)
    cells = list(orbit_cells)
    orbits = [tuple(cells[bounds[k] : bounds[k + 1]]) for k in range(len(bounds) - 1)]
    budgets = Budgets(fill_nodes, check_nodes, orders_per_grid, early_clues, max_attempts)
    for i in range(start, stop):
        if stop_flag is not None and stop_flag[0]:
            return -1
        puzzle = _reference_puzzle(seeds[i], geo, orbits, level or None, minimal, budgets)
        if puzzle is None:
            return i
        out[i * geo.cells : (i + 1) * geo.cells] = bytes(puzzle)
    return -1


def draws(seed: int, bounds: Any) -> list[int]:
    """below(k) for each k of `bounds` (int32) in turn, from the generator of `seed`."""
    rng = Rng(seed)
    return [rng.below(k) for k in array("i", bytes(memoryview(bounds).cast("B")))]
