"""A slow, obviously correct pure-Python solver, for differential tests and as documentation.

It follows Peter Norvig's classic constraint-propagation design: every cell holds the set
of digits still possible; assigning a digit eliminates all the others; eliminating a digit
from a cell

1. removes the last candidate's digit from the cell's peers when one is left (naked single);
2. places the digit in its only remaining cell of a unit (hidden single);
3. fails when a cell has no candidate left or a digit has no place left in a unit.

Search picks an unfilled cell with the fewest candidates (MinRV) and tries each of its
digits on a copy of the state. It has the same results as the compiled engine: `solve`
returns one solution or None, `count_solutions` counts up to a limit.
"""

from __future__ import annotations

from .grid import CELLS, format_values, parse_values, units

Candidates = list[set[int]]

_UNITS = units()
_UNITS_OF = [[u for u in _UNITS if cell in u] for cell in range(CELLS)]
_PEERS = [sorted({p for u in _UNITS_OF[cell] for p in u} - {cell}) for cell in range(CELLS)]
_DIGITS = range(1, 10)


def _assign(cands: Candidates, cell: int, digit: int) -> bool:
    """Make `digit` the only candidate of `cell`; False on contradiction."""
    return all(_eliminate(cands, cell, other) for other in cands[cell] - {digit})


def _eliminate(cands: Candidates, cell: int, digit: int) -> bool:
    """Remove `digit` from `cell` and propagate; False on contradiction."""
    if digit not in cands[cell]:
        return True
    cands[cell].discard(digit)
    if not cands[cell]:
        return False
    if len(cands[cell]) == 1:
        (last,) = cands[cell]
        if not all(_eliminate(cands, peer, last) for peer in _PEERS[cell]):
            return False
    for unit in _UNITS_OF[cell]:
        places = [c for c in unit if digit in cands[c]]
        if not places:
            return False
        if len(places) == 1 and not _assign(cands, places[0], digit):
            return False
    return True


def _initial(puzzle: str) -> Candidates | None:
    """Candidates after assigning every clue, or None if the clues already contradict."""
    cands: Candidates = [set(_DIGITS) for _ in range(CELLS)]
    for cell, value in enumerate(parse_values(puzzle)):
        if value and not _assign(cands, cell, value):
            return None
    return cands


def _search(cands: Candidates, limit: int, found: list[Candidates]) -> None:
    """Depth-first search, appending solutions to `found` until it holds `limit`."""
    open_cells = [c for c in range(CELLS) if len(cands[c]) > 1]
    if not open_cells:
        found.append(cands)
        return
    cell = min(open_cells, key=lambda c: len(cands[c]))
    for digit in sorted(cands[cell]):
        trial = [set(s) for s in cands]
        if _assign(trial, cell, digit):
            _search(trial, limit, found)
            if len(found) >= limit:
                return


def _solutions(puzzle: str, limit: int) -> list[Candidates]:
    if limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit}")
    cands = _initial(puzzle)
    found: list[Candidates] = []
    if cands is not None:
        _search(cands, limit, found)
    return found


def solve(puzzle: str) -> str | None:
    """One solution of the puzzle as a canonical string, or None when there is none."""
    found = _solutions(puzzle, 1)
    if not found:
        return None
    return format_values([min(s) for s in found[0]])


def count_solutions(puzzle: str, limit: int = 2) -> int:
    """The number of solutions of the puzzle, counted up to `limit`."""
    return len(_solutions(puzzle, limit))
