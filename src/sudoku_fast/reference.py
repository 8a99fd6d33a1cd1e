"""A slow, obviously correct pure-Python solver, for differential tests and as documentation.

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
limit.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .grid import Geometry, format_values, parse_grid

Candidates = list[set[int]]


@dataclass(frozen=True)
class _Rules:
    """The units of each cell and its peers, for one geometry."""

    geometry: Geometry
    units_of: list[list[tuple[int, ...]]]
    peers: list[list[int]]


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


def _search(rules: _Rules, cands: Candidates, limit: int, found: list[Candidates]) -> None:
    """Depth-first search, appending solutions to `found` until it holds `limit`."""
    open_cells = [c for c in range(len(cands)) if len(cands[c]) > 1]
    if not open_cells:
        found.append(cands)
        return
    cell = min(open_cells, key=lambda c: len(cands[c]))
    for value in sorted(cands[cell]):
        trial = [set(s) for s in cands]
        if _assign(rules, trial, cell, value):
            _search(rules, trial, limit, found)
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
