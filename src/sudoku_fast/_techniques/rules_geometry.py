"""A grid's geometry under variant rules, in the shape the technique solver reads.

`RulesGeometry` is a `Geometry` whose `units` are every complete all-different set of
the rules (rows, columns, boxes or jigsaw regions, then the diagonals, windows,
disjoint groups and extra sets of N cells), whose `peers` are every cell that may not
hold the same digit (those units, the partial sets, cage and thermometer mates, knight
or king moves), and whose `crossings` pair every two complete units sharing two cells
or more. `neighbours` are the orthogonal neighbours a placed digit takes its
consecutive digits from (non-consecutive; empty tuples otherwise).

With these, the techniques of `_logic_py` generalise without a change of meaning:
singles and subsets over every complete unit, locked candidates over every crossing,
fish over rows and columns, wings and chains through `peers`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache

from .._base.grid import Geometry
from .._base.rules import Rules, RulesTables, rules_tables

__all__ = ["RulesGeometry", "rules_geometry"]

_KNIGHT = ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))
_KING = ((1, 1), (1, -1), (-1, 1), (-1, -1))  # the orthogonal steps are row/column peers


@dataclass(frozen=True)
class RulesGeometry(Geometry):
    """The geometry of an N x N grid under `rules` (see the module doc)."""

    rules: Rules

    @cached_property
    def tables(self) -> RulesTables:
        """The rules' constraint tables on this grid."""
        return rules_tables(self.rules, self.size, (self.box_rows, self.box_cols))

    @cached_property
    def units(self) -> tuple[tuple[int, ...], ...]:
        """Every complete all-different set: rows 0..N-1, columns N..2N-1, then the
        boxes or regions, then the extra complete sets."""
        return self.tables.units

    @cached_property
    def box_count(self) -> int:
        """How many units after the rows and columns are boxes or jigsaw regions."""
        return self.size if self.rules.regions is not None or self.box_rows > 1 else 0

    @cached_property
    def peer_sets(self) -> tuple[frozenset[int], ...]:
        """For every cell, the other cells that may not hold its digit."""
        n = self.size
        tables = self.tables
        peers: list[set[int]] = [set() for _ in range(self.cells)]
        groups = (*tables.units, *tables.partial, *(c for c, _ in tables.cages), *tables.thermos)
        for group in groups:
            for cell in group:
                peers[cell].update(group)
        steps = (_KNIGHT if tables.anti_knight else ()) + (_KING if tables.anti_king else ())
        for cell in range(self.cells):
            r, c = divmod(cell, n)
            for dr, dc in steps:
                if 0 <= r + dr < n and 0 <= c + dc < n:
                    peers[cell].add((r + dr) * n + c + dc)
            peers[cell].discard(cell)
        return tuple(frozenset(p) for p in peers)

    @cached_property
    def neighbours(self) -> tuple[tuple[int, ...], ...]:
        """For every cell, the cells that may not hold a digit one off its own."""
        n = self.size
        if not self.tables.non_consecutive:
            return tuple(() for _ in range(self.cells))
        out = []
        for cell in range(self.cells):
            r, c = divmod(cell, n)
            near = [(r + dr) * n + c + dc for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0))
                    if 0 <= r + dr < n and 0 <= c + dc < n]  # fmt: skip
            out.append(tuple(near))
        return tuple(out)

    @cached_property
    def crossings(self) -> tuple[tuple[tuple[int, int, int], ...], ...]:
        """For each unit, every other unit sharing two cells or more with it.

        Entries are (other unit, mask in the lower-numbered unit, mask in the
        higher-numbered one), as `Geometry.crossings` has them for a line (always the
        lower) and a box.
        """
        units = self.units
        places: list[list[tuple[int, int]]] = [[] for _ in range(self.cells)]
        for u, unit in enumerate(units):
            for i, cell in enumerate(unit):
                places[cell].append((u, i))
        crossings: list[list[tuple[int, int, int]]] = [[] for _ in units]
        for u, unit in enumerate(units):
            shared: dict[int, list[int]] = {}  # unit v > u: [mask in u, mask in v, cells]
            for i, cell in enumerate(unit):
                for v, j in places[cell]:
                    if v > u:
                        found = shared.setdefault(v, [0, 0, 0])
                        found[0] |= 1 << i
                        found[1] |= 1 << j
                        found[2] += 1
            for v in sorted(shared):
                mask_u, mask_v, count = shared[v]
                if count >= 2:
                    crossings[u].append((v, mask_u, mask_v))
                    crossings[v].append((u, mask_u, mask_v))
        return tuple(tuple(c) for c in crossings)

    @cached_property
    def unit_names(self) -> tuple[str, ...]:
        """The name of every unit: 'row 3', 'region 2', 'diagonal 1', 'window 4', ..."""
        n = self.size
        names = [f"row {i + 1}" for i in range(n)] + [f"column {i + 1}" for i in range(n)]
        kind = "region" if self.rules.regions is not None else "box"
        names += [f"{kind} {i + 1}" for i in range(self.box_count)]
        rules = self.rules
        if rules.diagonals:
            names += ["diagonal 1", "diagonal 2"]
        if rules.windoku:
            windows = len(range(1, n - self.box_rows, self.box_rows + 1)) ** 2
            names += [f"window {i + 1}" for i in range(windows)]
        if rules.disjoint:
            names += [f"disjoint group {i + 1}" for i in range(n)]
        names += [f"extra region {i + 1}" for i in range(len(self.units) - len(names))]
        return tuple(names)

    def unit_name(self, unit: int) -> str:
        """The unit's name (see `unit_names`)."""
        return self.unit_names[unit]


@lru_cache(maxsize=256)
def rules_geometry(geometry: Geometry, rules: Rules) -> RulesGeometry:
    """`geometry` under checked `rules` (kept for the last few rule sets: its tables
    are built once per rule set, not once per puzzle)."""
    return RulesGeometry(
        geometry.size, geometry.box_rows, geometry.box_cols, geometry.symbols, rules
    )
