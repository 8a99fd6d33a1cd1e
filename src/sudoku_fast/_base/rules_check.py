"""A finished grid checked against variant rules, written apart from the engines.

`rule_broken(values, size, box, rules)` reads the `Rules` fields one by one and checks a
complete grid with sets and comparisons: it builds no constraint tables and shares no
code with the engines, the twin or `rules_tables`, so it can verify their answers
(`is_solution(..., rules=)`, `solve --verify`). It names the first rule broken, in the
order rows, columns, boxes or regions, diagonals, windows, disjoint groups, extra sets,
anti-knight, anti-king, non-consecutive, cages, thermometers.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import lru_cache

from .rules import Rules

__all__ = ["rule_broken"]


def _name(cell: int, size: int) -> str:
    row, col = divmod(cell, size)
    return f"r{row + 1}c{col + 1}"


def _repeat(values: Sequence[int], cells: Sequence[int]) -> int | None:
    """A value two of `cells` hold, or None when they all differ."""
    seen: set[int] = set()
    for cell in cells:
        if values[cell] in seen:
            return values[cell]
        seen.add(values[cell])
    return None


@lru_cache(maxsize=64)  # a file's puzzles share a few rule sets: built once for each
def _groups(size: int, box: tuple[int, int] | None, rules: Rules) -> list[tuple[str, list[int]]]:
    """Every all-different group of the rules, with a name for messages."""
    n = size
    groups: list[tuple[str, list[int]]] = []
    groups += [(f"row {r + 1}", [r * n + c for c in range(n)]) for r in range(n)]
    groups += [(f"column {c + 1}", [r * n + c for r in range(n)]) for c in range(n)]
    if rules.regions is not None:
        labels: dict[str, list[int]] = {}
        for cell, label in enumerate(rules.regions):
            labels.setdefault(label, []).append(cell)
        groups += [(f"region {label!r}", cells) for label, cells in labels.items()]
    elif box is not None and box[0] > 1 and box[1] > 1:
        rows, cols = box
        for k in range(n):
            top, left = k // (n // cols) * rows, k % (n // cols) * cols
            cells = [(top + i) * n + left + j for i in range(rows) for j in range(cols)]
            groups.append((f"box {k + 1}", cells))
    if rules.diagonals:
        groups.append(("the main diagonal", [i * (n + 1) for i in range(n)]))
        groups.append(("the anti-diagonal", [(i + 1) * (n - 1) for i in range(n)]))
    if rules.windoku and box is not None:
        side = box[0]
        starts = list(range(1, n - side, side + 1))
        k = 0
        for top in starts:
            for left in starts:
                k += 1
                cells = [(top + i) * n + left + j for i in range(side) for j in range(side)]
                groups.append((f"window {k}", cells))
    if rules.disjoint and box is not None:
        rows, cols = box
        for i in range(rows):
            for j in range(cols):
                cells = [
                    (top + i) * n + left + j
                    for top in range(0, n, rows)
                    for left in range(0, n, cols)
                ]
                groups.append((f"disjoint group {i * cols + j + 1}", cells))
    groups += [(f"extra set {k}", list(cells)) for k, cells in enumerate(rules.extra)]
    groups += [(f"cage {k}", list(cage.cells)) for k, cage in enumerate(rules.cages)]
    return groups


@lru_cache(maxsize=64)
def _pairs_apart(size: int, steps: tuple[tuple[int, int], ...]) -> list[tuple[int, int]]:
    n = size
    out = []
    for r in range(n):
        for c in range(n):
            for dr, dc in steps:
                if 0 <= r + dr < n and 0 <= c + dc < n:
                    out.append((r * n + c, (r + dr) * n + c + dc))
    return out


def rule_broken(
    values: Sequence[int],
    size: int,
    box: tuple[int, int] | None,
    rules: Rules | None,
    symbols: str | None = None,
) -> str | None:
    """The first rule a complete grid breaks, in words, or None when it breaks none.

    Parameters
    ----------
    values : sequence of int
        N*N values 1..N, row-major (a 0 is reported as an empty cell).
    size : int
        N.
    box : (rows, cols) or None
        The grid's box shape; None or a shape with a side of 1: no boxes.
    rules : Rules or None
        The variant rules (None: rows, columns and boxes only).
    symbols : str, optional
        The grid's symbols, to name values in the message (default: the numbers).
    """
    rules = Rules() if rules is None else rules
    n = size

    def sym(value: int) -> str:
        return symbols[value - 1] if symbols else str(value)

    empty = [cell for cell, value in enumerate(values) if not 1 <= value <= n]
    if empty:
        return f"{_name(empty[0], n)} is empty"
    for what, cells in _groups(n, None if box is None else tuple(box), rules):
        twice = _repeat(values, cells)
        if twice is not None:
            return f"{what} holds {sym(twice)} twice"
    knight = ((1, 2), (2, 1), (2, -1), (1, -2))
    king = ((1, 1), (1, -1))
    for flag, steps, rule in (
        (rules.anti_knight, knight, "anti-knight"),
        (rules.anti_king, king, "anti-king"),
    ):
        if flag:
            for a, b in _pairs_apart(n, steps):
                if values[a] == values[b]:
                    return f"{rule}: {_name(a, n)} and {_name(b, n)} both hold {sym(values[a])}"
    if rules.non_consecutive:
        for a, b in _pairs_apart(n, ((0, 1), (1, 0))):
            if abs(values[a] - values[b]) == 1:
                return (
                    f"non-consecutive: {_name(a, n)} and {_name(b, n)} hold "
                    f"{sym(values[a])} and {sym(values[b])}"
                )
    for k, cage in enumerate(rules.cages):
        total = sum(values[cell] for cell in cage.cells)
        if cage.total is not None and total != cage.total:
            return f"cage {k} adds up to {total}, not {cage.total}"
    for k, thermo in enumerate(rules.thermos):
        for low, high in itertools.pairwise(thermo):
            if values[low] >= values[high]:
                return (
                    f"thermometer {k}: {sym(values[high])} in {_name(high, n)} does not "
                    f"rise above {sym(values[low])} in {_name(low, n)}"
                )
    return None
