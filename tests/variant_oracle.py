"""An independent check of variant Sudoku: a plain solution checker and a SAT counter.

Nothing here uses sudoku_fast. The two halves are written separately on purpose:

* `is_valid_solution(grid, rules)` reads a finished grid and checks every rule with
  Python sets and comparisons, one rule at a time.
* `count_solutions(puzzle, rules, limit)` encodes the puzzle as CNF (one boolean per
  cell and digit) and asks a SAT solver (python-sat, CaDiCaL) for solutions, blocking
  each one found, until `limit` or until none is left.

A rule set is the JSON form described in tests/data/variants/README.md:

    {"size": 9, "regions": "111222333...", "diagonals": true, "windoku": true,
     "disjoint": true, "extra": [[0, 10, 20], ...], "anti_knight": true,
     "anti_king": true, "non_consecutive": true,
     "cages": [{"cells": [0, 1, 9], "sum": 20}, {"cells": [2, 3]}],
     "thermos": [[bulb, ..., tip], ...]}

Every key is optional. Cells are 0-based row-major indices. Without "regions" the
grid has the boxes of its size (3x3 for 9x9, 2x3 for 6x6, ...); with "regions" (N*N
labels, one per cell) those regions replace the boxes. A puzzle is N*N characters,
`.` or `0` for an empty cell, digits 1-9 then letters A.. for the values 10 and up.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"

Rules = Mapping[str, Any]


# ---------------------------------------------------------------------------------------
# Geometry of a rule set


def default_box(size: int) -> tuple[int, int] | None:
    """Box rows x columns of an N x N grid (square root, or the closest factor pair)."""
    rows = math.isqrt(size)
    while rows > 1 and size % rows:
        rows -= 1
    if rows <= 1:
        return None
    return rows, size // rows


def size_of(puzzle: str | None, rules: Rules) -> int:
    """The grid size: rules["size"], or the square root of the puzzle length."""
    if "size" in rules:
        return int(rules["size"])
    if puzzle is None:
        raise ValueError("no size: give rules['size'] or a puzzle")
    size = math.isqrt(len(puzzle))
    if size * size != len(puzzle):
        raise ValueError(f"a puzzle of {len(puzzle)} cells is not square")
    return size


def knight_offsets() -> list[tuple[int, int]]:
    return [(dr, dc) for dr in (-2, -1, 1, 2) for dc in (-2, -1, 1, 2) if abs(dr) != abs(dc)]


def king_offsets() -> list[tuple[int, int]]:
    return [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]


def _moves(size: int, offsets: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """Unordered cell pairs one of the offsets apart."""
    pairs = set()
    for r in range(size):
        for c in range(size):
            for dr, dc in offsets:
                rr, cc = r + dr, c + dc
                if 0 <= rr < size and 0 <= cc < size:
                    a, b = r * size + c, rr * size + cc
                    pairs.add((min(a, b), max(a, b)))
    return sorted(pairs)


def orthogonal_pairs(size: int) -> list[tuple[int, int]]:
    return _moves(size, [(0, 1), (1, 0)])


def all_different_groups(size: int, rules: Rules) -> list[list[int]]:
    """Every cell set whose digits must differ: rows, columns, boxes or regions, extras.

    Cages are all-different too but are returned by `cages_of`, not here.
    """
    n = size
    groups = [[r * n + c for c in range(n)] for r in range(n)]
    groups += [[r * n + c for r in range(n)] for c in range(n)]
    regions = rules.get("regions")
    if regions is not None:
        if len(regions) != n * n:
            raise ValueError(f"regions has {len(regions)} labels for {n * n} cells")
        by_label: dict[str, list[int]] = {}
        for cell, label in enumerate(regions):
            by_label.setdefault(label, []).append(cell)
        groups += list(by_label.values())
    else:
        box = default_box(n)
        if box is None:
            raise ValueError(f"a {n}x{n} grid has no boxes: give 'regions'")
        br, bc = box
        for top in range(0, n, br):
            for left in range(0, n, bc):
                groups.append([(top + i) * n + left + j for i in range(br) for j in range(bc)])
    if rules.get("diagonals"):
        groups.append([i * n + i for i in range(n)])
        groups.append([i * n + n - 1 - i for i in range(n)])
    if rules.get("windoku"):
        box = default_box(n)
        if box is None or box[0] != box[1]:
            raise ValueError("windoku needs square boxes")
        b = box[0]
        for top in range(1, n, b + 1):
            for left in range(1, n, b + 1):
                if top + b <= n - 1 and left + b <= n - 1:
                    groups.append([(top + i) * n + left + j for i in range(b) for j in range(b)])
    if rules.get("disjoint"):
        box = default_box(n)
        if box is None:
            raise ValueError("disjoint groups need boxes")
        br, bc = box
        for i in range(br):
            for j in range(bc):
                groups.append(
                    [
                        (top + i) * n + left + j
                        for top in range(0, n, br)
                        for left in range(0, n, bc)
                    ]
                )
    for extra in rules.get("extra", ()):
        groups.append([int(c) for c in extra])
    return groups


def cages_of(rules: Rules) -> list[tuple[list[int], int | None]]:
    return [
        ([int(c) for c in cage["cells"]], None if cage.get("sum") is None else int(cage["sum"]))
        for cage in rules.get("cages", ())
    ]


def values_of(text: str, size: int) -> list[int]:
    """Cell values 0..N (0 = empty) of an N*N-character puzzle or solution."""
    if len(text) != size * size:
        raise ValueError(f"expected {size * size} cells, got {len(text)}")
    out = []
    for ch in text:
        if ch in ".0":
            out.append(0)
        else:
            value = SYMBOLS.index(ch.upper()) + 1
            if value > size:
                raise ValueError(f"symbol {ch!r} is above the size {size}")
            out.append(value)
    return out


# ---------------------------------------------------------------------------------------
# The plain checker


def is_valid_solution(grid: str, rules: Rules, puzzle: str | None = None) -> bool:
    """True when `grid` (N*N symbols, none empty) satisfies every rule (and the givens)."""
    return not violations(grid, rules, puzzle)


def violations(grid: str, rules: Rules, puzzle: str | None = None) -> list[str]:
    """The broken rules of a finished grid, in words (empty when it is a solution)."""
    size = size_of(grid, rules)
    values = values_of(grid, size)
    problems = []
    if 0 in values:
        problems.append("the grid has an empty cell")
        return problems
    if puzzle is not None:
        for cell, given in enumerate(values_of(puzzle, size)):
            if given and given != values[cell]:
                problems.append(f"cell {cell} differs from its given {given}")
    full = set(range(1, size + 1))
    for group in all_different_groups(size, rules):
        seen = [values[c] for c in group]
        if len(set(seen)) != len(seen):
            problems.append(f"a repeated digit in the group {group}")
        if len(group) == size and set(seen) != full:
            problems.append(f"the group {group} misses a digit")
    for flag, offsets in (("anti_knight", knight_offsets()), ("anti_king", king_offsets())):
        if rules.get(flag):
            for a, b in _moves(size, offsets):
                if values[a] == values[b]:
                    problems.append(f"{flag}: cells {a} and {b} both hold {values[a]}")
    if rules.get("non_consecutive"):
        for a, b in orthogonal_pairs(size):
            if abs(values[a] - values[b]) == 1:
                problems.append(f"non_consecutive: cells {a} and {b} hold {values[a]}, {values[b]}")
    for cells, total in cages_of(rules):
        digits = [values[c] for c in cells]
        if len(set(digits)) != len(digits):
            problems.append(f"cage {cells} repeats a digit")
        if total is not None and sum(digits) != total:
            problems.append(f"cage {cells} sums to {sum(digits)}, not {total}")
    for thermo in rules.get("thermos", ()):
        digits = [values[int(c)] for c in thermo]
        if any(a >= b for a, b in itertools.pairwise(digits)):
            problems.append(f"thermometer {list(thermo)} is not strictly increasing: {digits}")
    return problems


# ---------------------------------------------------------------------------------------
# The SAT encoding


def sum_combinations(cells: int, total: int, size: int) -> list[tuple[int, ...]]:
    """Every set of `cells` distinct digits 1..size adding up to `total`."""
    return [
        combo for combo in itertools.combinations(range(1, size + 1), cells) if sum(combo) == total
    ]


def encode(puzzle: str, rules: Rules) -> tuple[list[list[int]], int, int]:
    """CNF clauses for the puzzle: variable v(cell, d) = cell * size + d (1-based).

    Returns (clauses, size, number of variables).
    """
    size = size_of(puzzle, rules)
    cells = size * size
    top = cells * size

    def var(cell: int, digit: int) -> int:
        return cell * size + digit

    clauses: list[list[int]] = []
    for cell in range(cells):  # exactly one digit per cell
        clauses.append([var(cell, d) for d in range(1, size + 1)])
        for d, e in itertools.combinations(range(1, size + 1), 2):
            clauses.append([-var(cell, d), -var(cell, e)])
    for cell, value in enumerate(values_of(puzzle, size)):
        if value:
            clauses.append([var(cell, value)])

    def differ(a: int, b: int) -> None:
        for d in range(1, size + 1):
            clauses.append([-var(a, d), -var(b, d)])

    for group in all_different_groups(size, rules):
        for a, b in itertools.combinations(group, 2):
            differ(a, b)
        if len(group) == size:  # a full group holds every digit (helps the solver)
            for d in range(1, size + 1):
                clauses.append([var(c, d) for c in group])
    for flag, offsets in (("anti_knight", knight_offsets()), ("anti_king", king_offsets())):
        if rules.get(flag):
            for a, b in _moves(size, offsets):
                differ(a, b)
    if rules.get("non_consecutive"):
        for a, b in orthogonal_pairs(size):
            for d in range(1, size):
                clauses.append([-var(a, d), -var(b, d + 1)])
                clauses.append([-var(a, d + 1), -var(b, d)])
    for group, total in cages_of(rules):
        for a, b in itertools.combinations(group, 2):
            differ(a, b)
        if total is None:
            continue
        combos = sum_combinations(len(group), total, size)
        if not combos:
            clauses.append([])  # no digit set reaches this sum: no solution
            continue
        # One selector per digit set: the cage's digits are exactly that set. The cells
        # are distinct and as many as the set's digits, so each digit of the set is
        # in exactly one cell and the sum follows.
        selectors = []
        for combo in combos:
            top += 1
            selectors.append(top)
            for d in range(1, size + 1):
                if d in combo:
                    clauses.append([-top] + [var(c, d) for c in group])
                else:
                    for c in group:
                        clauses.append([-top, -var(c, d)])
        clauses.append(selectors)
    for thermo in rules.get("thermos", ()):
        for a, b in itertools.pairwise([int(c) for c in thermo]):
            for d in range(1, size + 1):
                for e in range(1, d + 1):  # b must be above a
                    clauses.append([-var(a, d), -var(b, e)])
    return clauses, size, top


def count_solutions(
    puzzle: str, rules: Rules, limit: int = 2, *, solver_name: str = "cadical153"
) -> tuple[int, list[str]]:
    """Count solutions up to `limit` with a SAT solver; also return those found.

    Each solution found is blocked by a clause over its cell variables, so the count
    is exact below the limit.
    """
    from pysat.solvers import Solver

    clauses, size, _ = encode(puzzle, rules)
    cells = size * size
    found: list[str] = []
    with Solver(name=solver_name, bootstrap_with=clauses) as solver:
        while len(found) < limit and solver.solve():
            model = solver.get_model()
            chosen = [v for v in model[: cells * size] if v > 0]
            grid = ["."] * cells
            for v in chosen:
                cell, digit = divmod(v - 1, size)
                grid[cell] = SYMBOLS[digit]
            found.append("".join(grid))
            solver.add_clause([-v for v in chosen])
    return len(found), found


def grid_of(values: Sequence[int]) -> str:
    return "".join(SYMBOLS[v - 1] if v else "." for v in values)
