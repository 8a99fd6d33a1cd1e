"""The technique solver in plain Python: the slow, obviously correct twin of `_logic.pyx`.

The state is one candidate bitmask per cell (bit d-1 set = digit d still possible; 0 for
a filled cell) plus the placed values. Each technique looks for one pattern and returns
the deduction it allows as a `Step`: the cells and digits of the pattern, the digits it
places or the candidates it eliminates, and the numbers its explanation needs (`aux`).
`LogicSolver` applies the easiest technique that makes progress, again and again.

The techniques, their order and levels are the ladder of `_base/levels.py`; a step
becomes a `Hint` (with its one-line explanation) through `steps.py`, as the compiled
solver's steps do. Below the techniques, the compiled module's functions
(`tables_for`, `solve_steps`, `find_step`, `level_within_range`, `rate_range`,
`build_ratings`) are given again with the same arguments and results, so that the tests
run the same checks on both sides.

Every technique is sound for any puzzle (it eliminates only candidates that appear in
no solution); none relies on the puzzle having a unique solution.

Everything here works from the grid's `Geometry` (`grid.py`: units, peers, crossings),
so every size and box shape is handled alike.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from math import comb, isqrt
from typing import Any, NamedTuple

from .._base.grid import Geometry, geometry_for
from .._base.levels import (
    BIG_FISH,
    FISH_NAMES,
    GUESS,
    LADDER,
    RULE_TECHNIQUES,
    SLOT_LEVELS,
    SLOT_NAMES,
    TECHNIQUE_LEVEL,
)
from .._base.records import Hint
from .rules_geometry import RulesGeometry
from .steps import (
    CLASH_CANDIDATE,
    CLASH_EMPTY,
    CLASH_NO_PLACE,
    CLASH_VALUE,
    COLOUR_TRAP,
    COLOUR_WRAP,
    RECORD_NAMES,
    Contradiction,
    Pairs,
    Record,
    candidate_masks,
    consecutive_neighbours,
    digits_of,
)


class Step(NamedTuple):
    """One deduction of the twin: what the compiled solver records (see `steps.Record`),
    with the technique by name."""

    technique: str
    cells: tuple[int, ...]
    digits: tuple[int, ...]
    placements: Pairs = ()
    eliminations: Pairs = ()
    aux: tuple[int, ...] = ()

    @property
    def level(self) -> int:
        """The technique's level (1-6)."""
        return TECHNIQUE_LEVEL[self.technique]

    def record(self) -> Record:
        """The step as the compiled solver records it."""
        index = RECORD_NAMES.index(self.technique)
        return (index, self.cells, self.digits, self.placements, self.eliminations, self.aux)


def make_step(geo: Geometry, technique: str, *pattern: Sequence[Any]) -> Step:
    """A `Step` of a technique from its cells, digits, placements, eliminations and aux
    (the arguments of `steps.make_hint`, which words a step; `geo` is unused here)."""
    return Step(technique, *(tuple(part) for part in pattern))


class LogicSolver:
    """Candidates of a partly filled grid, and the techniques that narrow them down."""

    def __init__(self, values: Sequence[int], geo: Geometry | None = None) -> None:
        """Start from placed values (0 = empty); candidates follow from the rules alone.

        Raises `Contradiction` when two equal values share a unit.
        """
        self.geo = geo if geo is not None else geometry_for(isqrt(len(values)))
        self.cand = candidate_masks(values, self.geo)
        self.values = list(values)
        self._positions: list[list[int]] | None = None
        self._near = consecutive_neighbours(self.geo)
        self._finders = finders_for(self.geo)
        self.locked = _locked_tables(self.geo)  # the crossings as pointing and claiming read them
        self._places = _cell_places(self.geo)

    @property
    def solved(self) -> bool:
        """True when every cell holds a value."""
        return 0 not in self.values

    def positions(self) -> list[list[int]]:
        """For each unit, and each digit d at index d-1: where d fits in the unit.

        Bit i is set when the unit's i-th cell has d as a candidate. Built on the first
        call, then kept up to date as candidates go (`_drop`).
        """
        if self._positions is None:
            n = self.geo.size
            cand = self.cand
            table = []
            for unit in self.geo.units:
                where = [0] * n
                for i, cell in enumerate(unit):
                    c = cand[cell]
                    while c:
                        low = c & -c
                        where[low.bit_length() - 1] |= 1 << i
                        c ^= low
                table.append(where)
            self._positions = table
        return self._positions

    def _drop(self, cell: int, gone: int) -> None:
        """The candidates `gone` just left `cell`: take the cell from their places."""
        table = self._positions
        if table is None:
            return
        for unit, bit in self._places[cell]:
            where = table[unit]
            left = gone
            while left:
                low = left & -left
                where[low.bit_length() - 1] &= ~bit
                left ^= low

    def restrict(self, cell: int, allowed: int) -> None:
        """Keep only the candidates of `cell` that are in the bitmask `allowed`."""
        was = self.cand[cell]
        self.cand[cell] = was & allowed
        if was & ~allowed:
            self._drop(cell, was & ~allowed)

    def place(self, cell: int, digit: int) -> None:
        """Put `digit` in `cell` and remove it from the cell's peers."""
        cand = self.cand
        self.values[cell] = digit
        if cand[cell]:
            self._drop(cell, cand[cell])
            cand[cell] = 0
        bit = 1 << (digit - 1)
        for peer in self.geo.peers[cell]:
            if cand[peer] & bit:
                cand[peer] ^= bit
                self._drop(peer, bit)
        if self._near is not None:  # non-consecutive: the digits one off leave the neighbours
            one_off = (1 << digit) | (1 << (digit - 2) if digit > 1 else 0)
            for other in self._near[cell]:
                gone = cand[other] & one_off
                if gone:
                    cand[other] ^= gone
                    self._drop(other, gone)

    def apply(self, step: Step | Hint) -> None:
        """Carry out a step's placements and eliminations."""
        for cell, digit in step.placements:
            self.place(cell, digit)
        for cell, digit in step.eliminations:
            self.restrict(cell, ~(1 << (digit - 1)))

    def fill_singles(self) -> int:
        """Place every naked and hidden single, repeatedly; returns how many were placed.

        A quick way to the same state that one single at a time reaches (used where
        only the level matters, not the order of the steps).
        """
        cand = self.cand
        units = self.geo.units
        cells = self.geo.cells
        placed = 0
        progress = True
        while progress:
            progress = False
            for cell in range(cells):
                c = cand[cell]
                if c and not c & (c - 1):
                    self.place(cell, c.bit_length())
                    placed += 1
                    progress = True
            for unit in units:
                once = 0
                twice = 0
                for cell in unit:
                    c = cand[cell]
                    twice |= once & c
                    once |= c
                only = once & ~twice
                if not only:
                    continue
                for cell in unit:
                    hit = cand[cell] & only
                    if hit:
                        self.place(cell, (hit & -hit).bit_length())
                        placed += 1
                        progress = True
        return placed

    def next_step(self, max_level: int = 5, min_level: int = 1) -> Step | None:
        """The easiest deduction available (techniques of levels min_level..max_level)."""
        for technique in self._finders:
            if technique.level < min_level:
                continue
            if technique.level > max_level:
                break
            step = technique.find(self)
            if step is not None:
                return step
        return None


# ---------------------------------------------------------------------------------------
# Singles


def find_full_house(s: LogicSolver) -> Step | None:
    """A unit with a single empty cell: that cell gets the missing digit."""
    geo = s.geo
    values = s.values
    for u, unit in enumerate(geo.units):
        empty = -1
        for c in unit:
            if not values[c]:
                if empty >= 0:
                    break
                empty = c
        else:
            if empty < 0:
                continue
            c = s.cand[empty]
            if c and not c & (c - 1):
                digit = c.bit_length()
                return make_step(geo, "full house", (empty,), (digit,), ((empty, digit),), (), (u,))
    return None


def find_hidden_single(s: LogicSolver) -> Step | None:
    """A digit with one place left in a unit goes there (boxes, regions and the other
    units first, then lines)."""
    geo = s.geo
    n = geo.size
    cand = s.cand
    unit_order = itertools.chain(range(2 * n, len(geo.units)), range(2 * n))
    for u in unit_order:
        once = 0
        twice = 0
        for cell in geo.units[u]:
            c = cand[cell]
            twice |= once & c
            once |= c
        only = once & ~twice
        if not only:
            continue
        for cell in geo.units[u]:
            hit = cand[cell] & only
            if hit:
                digit = digits_of(hit & -hit)[0]
                return make_step(
                    geo, "hidden single", (cell,), (digit,), ((cell, digit),), (), (u,)
                )
    return None


def find_naked_single(s: LogicSolver) -> Step | None:
    """An empty cell with one candidate left takes it."""
    geo = s.geo
    for cell, c in enumerate(s.cand):
        if c and not c & (c - 1):
            digit = digits_of(c)[0]
            return make_step(geo, "naked single", (cell,), (digit,), ((cell, digit),))
    return None


# ---------------------------------------------------------------------------------------
# Locked candidates


# Per unit: (the crossing unit, a mask of the shared cells in the first unit, a mask and
# the list of the crossing unit's other cells).
LockedTable = tuple[tuple[int, tuple[tuple[int, int, int, tuple[int, ...]], ...]], ...]


def _eliminations(s: LogicSolver, cells: Sequence[int], mask: int) -> tuple[tuple[int, int], ...]:
    """(cell, digit) for every candidate in `mask` still present in `cells`."""
    out = []
    for cell in cells:
        for digit in digits_of(s.cand[cell] & mask):
            out.append((cell, digit))
    return tuple(out)


@lru_cache(maxsize=64)
def _cell_places(geo: Geometry) -> tuple[tuple[tuple[int, int], ...], ...]:
    """For each cell, its units with the cell's bit in each (as `positions` has them)."""
    places: list[list[tuple[int, int]]] = [[] for _ in range(geo.cells)]
    for u, unit in enumerate(geo.units):
        for i, cell in enumerate(unit):
            places[cell].append((u, 1 << i))
    return tuple(tuple(p) for p in places)


@lru_cache(maxsize=64)
def _locked_tables(geo: Geometry) -> tuple[LockedTable, LockedTable]:
    """For pointing, each unit other than a line with its crossings; for claiming, each
    line with its crossings: (the other unit, the mask of the shared cells in the
    first unit, the other unit's cells outside the crossing as a mask of its cells and
    as a list). Built once per geometry."""
    n = geo.size
    every_cell = (1 << n) - 1  # of a unit, as positions' masks have them
    pointing = []
    for box_unit in range(2 * n, len(geo.units)):
        crossings = []
        for line, low_mask, high_mask in geo.crossings[box_unit]:
            # the masks are given lower-numbered unit first (a line before a box)
            low_first = line < box_unit
            line_mask, box_mask = (low_mask, high_mask) if low_first else (high_mask, low_mask)
            unit = geo.units[line]
            outside = every_cell & ~line_mask  # the line's cells outside the box
            others = tuple(unit[i] for i in range(n) if outside >> i & 1)
            crossings.append((line, box_mask, outside, others))
        pointing.append((box_unit, tuple(crossings)))
    claiming = []
    for line in range(2 * n):
        crossings = []
        for box_unit, line_mask, box_mask in geo.crossings[line]:
            box = geo.units[box_unit]
            outside = every_cell & ~box_mask  # the box's cells outside the line
            others = tuple(box[i] for i in range(n) if outside >> i & 1)
            crossings.append((box_unit, line_mask, outside, others))
        claiming.append((line, tuple(crossings)))
    return tuple(pointing), tuple(claiming)


def find_pointing(s: LogicSolver) -> Step | None:
    """A digit confined to one line inside a box is removed from the rest of that line.

    Under variant rules, the box is any unit other than a line (a box, a region, a
    diagonal, a window, ...) and the line any unit crossing it in two cells or more.
    """
    geo = s.geo
    n = geo.size
    positions = s.positions()
    for box_unit, crossings in s.locked[0]:
        places_of = positions[box_unit]
        for digit in range(1, n + 1):
            where = places_of[digit - 1]
            if not where & (where - 1):
                continue  # fewer than two places
            for line, box_mask, outside, others in crossings:
                if where & ~box_mask or not positions[line][digit - 1] & outside:
                    continue
                elim = _eliminations(s, others, 1 << (digit - 1))
                if elim:
                    box = geo.units[box_unit]
                    places = tuple(box[i] for i in range(n) if where >> i & 1)
                    return make_step(geo, "pointing", places, (digit,), (), elim, (box_unit, line))
    return None


def find_claiming(s: LogicSolver) -> Step | None:
    """A digit confined to one box inside a line is removed from the rest of that box.

    Under variant rules, the box is any unit other than a line crossing the line in two
    cells or more.
    """
    geo = s.geo
    n = geo.size
    positions = s.positions()
    for line, crossings in s.locked[1]:
        places_of = positions[line]
        for digit in range(1, n + 1):
            where = places_of[digit - 1]
            if not where & (where - 1):
                continue
            for box_unit, line_mask, outside, others in crossings:
                if where & ~line_mask or not positions[box_unit][digit - 1] & outside:
                    continue
                elim = _eliminations(s, others, 1 << (digit - 1))
                if elim:
                    unit = geo.units[line]
                    places = tuple(unit[i] for i in range(n) if where >> i & 1)
                    return make_step(geo, "claiming", places, (digit,), (), elim, (line, box_unit))
    return None


# ---------------------------------------------------------------------------------------
# Naked and hidden subsets

_SUBSET_NAMES = {2: "pair", 3: "triple", 4: "quad"}


def _naked_subset(s: LogicSolver, k: int, level: int) -> Step | None:
    """k cells of a unit whose candidates are k digits: those digits leave the unit's rest."""
    geo = s.geo
    for u, unit in enumerate(geo.units):
        open_cells = [c for c in unit if s.cand[c]]
        if len(open_cells) <= k:
            continue
        small = [c for c in open_cells if 2 <= s.cand[c].bit_count() <= k]
        for group in itertools.combinations(small, k):
            union = 0
            for c in group:
                union |= s.cand[c]
            if union.bit_count() != k:
                continue
            others = [c for c in open_cells if c not in group]
            elim = _eliminations(s, others, union)
            if elim:
                name = f"naked {_SUBSET_NAMES[k]}"
                return make_step(geo, name, group, tuple(digits_of(union)), (), elim, (u,))
    return None


def _hidden_subset(s: LogicSolver, k: int, level: int) -> Step | None:
    """k digits with only k places in a unit: those cells lose every other candidate."""
    geo = s.geo
    n = geo.size
    positions = s.positions()
    for u, unit in enumerate(geo.units):
        places_of = {d + 1: where for d, where in enumerate(positions[u]) if where}
        if len(places_of) <= k:
            continue
        small = [d for d, where in places_of.items() if 2 <= where.bit_count() <= k]
        for group in itertools.combinations(small, k):
            where = 0
            for d in group:
                where |= places_of[d]
            if where.bit_count() != k:
                continue
            cells = tuple(unit[i] for i in range(n) if where >> i & 1)
            keep = 0
            for d in group:
                keep |= 1 << (d - 1)
            elim = _eliminations(s, cells, geo.all_digits & ~keep)
            if elim:
                return make_step(geo, f"hidden {_SUBSET_NAMES[k]}", cells, group, (), elim, (u,))
    return None


def find_naked_pair(s: LogicSolver) -> Step | None:
    """Naked pair: two cells of a unit with the same two candidates."""
    return _naked_subset(s, 2, 3)


def find_hidden_pair(s: LogicSolver) -> Step | None:
    """Hidden pair: two digits confined to the same two cells of a unit."""
    return _hidden_subset(s, 2, 3)


def find_naked_triple(s: LogicSolver) -> Step | None:
    """Naked triple: three cells of a unit with three candidates between them."""
    return _naked_subset(s, 3, 3)


def find_hidden_triple(s: LogicSolver) -> Step | None:
    """Hidden triple: three digits confined to the same three cells of a unit."""
    return _hidden_subset(s, 3, 3)


def find_naked_quad(s: LogicSolver) -> Step | None:
    """Naked quad: four cells of a unit with four candidates between them."""
    return _naked_subset(s, 4, 4)


def find_hidden_quad(s: LogicSolver) -> Step | None:
    """Hidden quad: four digits confined to the same four cells of a unit."""
    return _hidden_subset(s, 4, 4)


# ---------------------------------------------------------------------------------------
# Fish


def _fish_bases(spots: dict[int, int], k: int) -> Iterator[tuple[tuple[int, ...], int]]:
    """The k-combinations of the base lines, in `itertools.combinations` order, with
    their covers, leaving out every combination whose cover already exceeds k lines
    (a pruned search: big fish would otherwise try millions of combinations)."""
    lines = list(spots)

    def extend(
        start: int, chosen: tuple[int, ...], cover: int
    ) -> Iterator[tuple[tuple[int, ...], int]]:
        if len(chosen) == k:
            yield chosen, cover
            return
        for i in range(start, len(lines) - (k - len(chosen)) + 1):
            wider = cover | spots[lines[i]]
            if wider.bit_count() <= k:
                yield from extend(i + 1, (*chosen, lines[i]), wider)

    return extend(0, (), 0)


def _fish(s: LogicSolver, k: int, level: int) -> Step | None:
    """k rows (or columns) where a digit fits only in the same k columns (rows).

    The digit must take one of those k columns in each of the k base lines, so it
    fills all k cover lines there and leaves them everywhere else.
    """
    geo = s.geo
    n = geo.size
    positions = s.positions()
    for digit in range(1, n + 1):
        bit = 1 << (digit - 1)
        for base_is_row in (True, False):
            spots: dict[int, int] = {}  # base line -> bitmask of cover lines
            for line in range(n):
                where = positions[line if base_is_row else n + line][digit - 1]
                if 2 <= where.bit_count() <= k:
                    spots[line] = where
            for bases, cover in _fish_bases(spots, k):
                if cover.bit_count() != k:
                    continue
                covers = [i for i in range(n) if cover >> i & 1]
                cover_units = [geo.units[n + i if base_is_row else i] for i in covers]
                targets = [c for unit in cover_units for c in unit]
                base_cells = {
                    c for line in bases for c in geo.units[line if base_is_row else n + line]
                }
                elim = _eliminations(s, [c for c in targets if c not in base_cells], bit)
                if elim:
                    pattern = tuple(
                        sorted(c for c in targets if c in base_cells and s.cand[c] & bit)
                    )
                    base_mask = sum(1 << b for b in bases)
                    aux = (int(base_is_row), base_mask, cover)
                    name = FISH_NAMES.get(k, BIG_FISH)
                    return make_step(geo, name, pattern, (digit,), (), elim, aux)
    return None


def find_x_wing(s: LogicSolver) -> Step | None:
    """X-wing: a fish on two lines."""
    return _fish(s, 2, 3)


def find_swordfish(s: LogicSolver) -> Step | None:
    """Swordfish: a fish on three lines."""
    return _fish(s, 3, 4)


def find_jellyfish(s: LogicSolver) -> Step | None:
    """Jellyfish: a fish on four lines."""
    return _fish(s, 4, 4)


def find_big_fish(s: LogicSolver) -> Step | None:
    """A fish on 5 to N/2 lines, smallest first (larger ones mirror smaller ones)."""
    for k in range(5, s.geo.size // 2 + 1):
        step = _fish(s, k, 4)
        if step is not None:
            return step
    return None


# ---------------------------------------------------------------------------------------
# Wings


def find_xy_wing(s: LogicSolver) -> Step | None:
    """Pivot {x,y} seeing pincers {x,z} and {y,z}: z goes from cells seeing both pincers."""
    geo = s.geo
    cand = s.cand
    bivalue = [c for c in range(geo.cells) if cand[c] and cand[c].bit_count() == 2]
    for pivot in bivalue:
        pc = cand[pivot]
        wings = [
            c
            for c in geo.peers[pivot]
            if cand[c].bit_count() == 2 and (cand[c] & pc).bit_count() == 1
        ]
        for a, b in itertools.combinations(wings, 2):
            ca, cb = cand[a], cand[b]
            z = ca & cb & ~pc
            if not z or (ca & pc) == (cb & pc) or (ca | cb | pc) != (pc | z):
                continue
            common = geo.peer_sets[a] & geo.peer_sets[b]
            elim = _eliminations(s, sorted(common - {pivot}), z)
            if elim:
                digits = tuple(digits_of(pc | z))
                aux = (digits_of(z)[0],)
                return make_step(geo, "xy-wing", (pivot, a, b), digits, (), elim, aux)
    return None


def find_xyz_wing(s: LogicSolver) -> Step | None:
    """Pivot {x,y,z} seeing {x,z} and {y,z}: z goes from cells seeing all three."""
    geo = s.geo
    cand = s.cand
    for pivot in range(geo.cells):
        pc = cand[pivot]
        if pc.bit_count() != 3:
            continue
        wings = [c for c in geo.peers[pivot] if cand[c].bit_count() == 2 and cand[c] & ~pc == 0]
        for a, b in itertools.combinations(wings, 2):
            z = cand[a] & cand[b]
            if z.bit_count() != 1 or (cand[a] | cand[b]) != pc:
                continue
            common = geo.peer_sets[pivot] & geo.peer_sets[a] & geo.peer_sets[b]
            elim = _eliminations(s, sorted(common), z)
            if elim:
                digits = tuple(digits_of(pc))
                aux = (digits_of(z)[0],)
                return make_step(geo, "xyz-wing", (pivot, a, b), digits, (), elim, aux)
    return None


# ---------------------------------------------------------------------------------------
# Chains


def find_simple_colouring(s: LogicSolver) -> Step | None:
    """Colour chains of conjugate pairs of one digit (exactly one of each pair holds it).

    Colour wrap: two cells of one colour see each other, so that colour is false
    everywhere. Colour trap: a cell seeing both colours cannot hold the digit.
    """
    geo = s.geo
    n = geo.size
    cand = s.cand
    for digit in range(1, n + 1):
        bit = 1 << (digit - 1)
        links: dict[int, list[int]] = {}
        for unit in geo.units:
            places = [c for c in unit if cand[c] & bit]
            if len(places) == 2:
                a, b = places
                links.setdefault(a, []).append(b)
                links.setdefault(b, []).append(a)
        colour: dict[int, int] = {}
        for start in links:
            if start in colour:
                continue
            colour[start] = 0
            component = [start]
            consistent = True
            for cell in component:  # grows while iterating: a breadth-first walk
                for other in links[cell]:
                    if other not in colour:
                        colour[other] = 1 - colour[cell]
                        component.append(other)
                    elif colour[other] == colour[cell]:
                        consistent = False  # odd cycle: only on an impossible board
            if not consistent or len(component) < 3:
                continue
            sides = [[c for c in component if colour[c] == k] for k in (0, 1)]
            for side in sides:
                clash = next(
                    ((a, b) for a, b in itertools.combinations(side, 2) if b in geo.peer_sets[a]),
                    None,
                )
                if clash is not None:
                    elim = tuple((c, digit) for c in side)
                    cells = tuple(sorted(component))
                    wrap = (COLOUR_WRAP, *clash)
                    return make_step(geo, "simple colouring", cells, (digit,), (), elim, wrap)
            seen = [set().union(*(geo.peer_sets[c] for c in side)) for side in sides]
            members = set(component)
            trapped = sorted(c for c in seen[0] & seen[1] if c not in members and cand[c] & bit)
            if trapped:
                elim = tuple((c, digit) for c in trapped)
                cells = tuple(sorted(component))
                return make_step(geo, "simple colouring", cells, (digit,), (), elim, (COLOUR_TRAP,))
    return None


def find_xy_chain(s: LogicSolver) -> Step | None:
    """A chain of bivalue cells, each seeing the next and sharing a digit with it.

    If the first cell is not z, its other digit forces the next cell, and so on, until
    the last cell is z: so the first or the last cell is z, and z goes from every cell
    that sees both. The shortest chain for each start is found breadth first.
    """
    geo = s.geo
    cand = s.cand
    bivalue = [c for c in range(geo.cells) if cand[c].bit_count() == 2]
    in_chain = set(bivalue)
    for start in bivalue:
        for z in digits_of(cand[start]):
            zbit = 1 << (z - 1)
            first = cand[start] & ~zbit  # the digit start holds if it is not z
            # State: (cell, digit the cell is forced to hold). Parents rebuild the chain.
            parent: dict[tuple[int, int], tuple[int, int] | None] = {(start, first): None}
            frontier = [(start, first)]
            while frontier:
                nxt = []
                for cell, forced in frontier:
                    for other in geo.peers[cell]:
                        oc = cand[other]
                        if other not in in_chain or not oc & forced:
                            continue
                        state = (other, oc & ~forced)
                        if state in parent:
                            continue
                        parent[state] = (cell, forced)
                        nxt.append(state)
                        if state[1] != zbit or other == start:
                            continue
                        common = geo.peer_sets[start] & geo.peer_sets[other]
                        elim = _eliminations(s, sorted(common), zbit)
                        if not elim:
                            continue
                        chain = []
                        walk: tuple[int, int] | None = state
                        while walk is not None:
                            chain.append(walk[0])
                            walk = parent[walk]
                        chain.reverse()
                        return make_step(geo, "xy-chain", tuple(chain), (z,), (), elim)
                frontier = nxt
    return None


def reveal(s: LogicSolver, solution: Sequence[int]) -> Step:
    """The "guess" step: the solution digit of an open cell with the fewest candidates."""
    geo = s.geo
    cell = min(
        (c for c in range(geo.cells) if not s.values[c]),
        key=lambda c: (s.cand[c].bit_count(), c),
    )
    digit = solution[cell]
    return make_step(geo, GUESS, (cell,), (digit,), ((cell, digit),), (), (s.cand[cell],))


# ---------------------------------------------------------------------------------------
# Trial and error


def _singles_refute(s: LogicSolver, cell: int, digit: int) -> tuple[int, ...] | None:
    """Assume `digit` in `cell` and follow naked and hidden singles on a copy.

    Returns the contradiction reached (a CLASH_* kind, then its cells, digits or unit;
    see `_clash_text`), or None when singles run dry without one.
    """
    geo = s.geo
    values = s.values[:]
    cand = s.cand[:]
    pending = [(cell, digit)]
    while pending:
        while pending:
            c, d = pending.pop()
            if values[c]:
                if values[c] != d:
                    return (CLASH_VALUE, c, values[c], d)
                continue
            bit = 1 << (d - 1)
            if not cand[c] & bit:
                return (CLASH_CANDIDATE, c, d)
            values[c] = d
            cand[c] = 0
            for peer in geo.peers[c]:
                pc = cand[peer]
                if pc & bit:
                    pc &= ~bit
                    cand[peer] = pc
                    if not pc:
                        return (CLASH_EMPTY, peer)
                    if not pc & (pc - 1):
                        pending.append((peer, pc.bit_length()))
            if s._near is not None:  # non-consecutive: the digits one off leave the neighbours
                one_off = (1 << d) | (1 << (d - 2) if d > 1 else 0)
                for other in s._near[c]:
                    pc = cand[other]
                    if pc & one_off:
                        pc &= ~one_off
                        cand[other] = pc
                        if not pc and not values[other]:
                            return (CLASH_EMPTY, other)
                        if not pc & (pc - 1):
                            pending.append((other, pc.bit_length()))
        for u, unit in enumerate(geo.units):
            once = 0
            twice = 0
            placed = 0
            for c in unit:
                pc = cand[c]
                twice |= once & pc
                once |= pc
                if values[c]:
                    placed |= 1 << (values[c] - 1)
            missing = geo.all_digits & ~placed & ~once
            if missing:
                d = missing.bit_length()
                return (CLASH_NO_PLACE, d, u)
            only = once & ~twice
            if only:
                for c in unit:
                    hit = cand[c] & only
                    while hit:
                        low = hit & -hit
                        pending.append((c, low.bit_length()))
                        hit ^= low
    return None


def find_trial_and_error(s: LogicSolver) -> Step | None:
    """A candidate whose assumption leads, by singles alone, to a contradiction.

    Cells with the fewest candidates are tried first. The candidate is eliminated.
    """
    geo = s.geo
    order = sorted(
        (c for c in range(geo.cells) if s.cand[c]), key=lambda c: (s.cand[c].bit_count(), c)
    )
    for cell in order:
        for digit in digits_of(s.cand[cell]):
            reason = _singles_refute(s, cell, digit)
            if reason is not None:
                elim = ((cell, digit),)
                return make_step(geo, "trial and error", (cell,), (digit,), (), elim, reason)
    return None


# ---------------------------------------------------------------------------------------
# Killer cages and thermometers


@lru_cache(maxsize=4096)
def _combinations(count: int, total: int, top: int) -> tuple[int, ...]:
    """The digit sets (bitmasks, ascending) of `count` different digits from 1..`top`
    adding up to `total`: the cage-combination table, built once per shape."""
    return tuple(
        sorted(
            sum(1 << (d - 1) for d in chosen)
            for chosen in itertools.combinations(range(1, top + 1), count)
            if sum(chosen) == total
        )
    )


def _layered_fits(
    options: Sequence[int], within: int, keep: Callable[[int], bool]
) -> tuple[list[int], set[int]]:
    """Cells with candidates `options` taking different digits of the set `within`: a
    forward pass collects the digit sets each prefix of cells can hold, the full sets
    `keep` accepts are the fillings' digit sets, and a backward pass notes each cell's
    digits in some such filling. Returns those digits per cell and those digit sets."""
    layers: list[set[int]] = [{0}]
    for option in options:
        nxt = set()
        for used in layers[-1]:
            free = option & within & ~used
            while free:
                low = free & -free
                nxt.add(used | low)
                free ^= low
        if not nxt:
            return [0] * len(options), set()
        layers.append(nxt)
    final = {m for m in layers[-1] if keep(m)}
    allowed = [0] * len(options)
    alive = final
    for i in range(len(options) - 1, -1, -1):
        before = set()
        for used in layers[i]:
            free = options[i] & within & ~used
            while free:
                low = free & -free
                if used | low in alive:
                    before.add(used)
                    allowed[i] |= low
                free ^= low
        alive = before
    return allowed, final


def _fill_of(options: Sequence[int], digits: int) -> list[int] | None:
    """For cells with candidates `options`, each taking a different digit of the set
    `digits` (as many digits as cells): the digits each cell takes in some such
    filling, or None when there is none."""
    allowed, final = _layered_fits(options, digits, lambda m: m == digits)
    return allowed if final else None


# Above this many digit sets of a cage's size, the sets are not listed one by one.
_MAX_COMBINATIONS = 5000


def _sum_fits_by_layers(options: Sequence[int], total: int) -> tuple[list[int], list[int]]:
    """`_sum_fits` without the table: the fillings of the candidates whose digits add
    up to `total` (`_layered_fits` over every digit)."""
    within = 0
    for option in options:
        within |= option
    allowed, final = _layered_fits(options, within, lambda m: sum(digits_of(m)) == total)
    return allowed, sorted(final)


@lru_cache(maxsize=1 << 16)
def _sum_fits_of(options: tuple[int, ...], total: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    union = 0
    for option in options:
        union |= option
    top = union.bit_length()
    if comb(top, len(options)) > _MAX_COMBINATIONS:
        allowed, final = _sum_fits_by_layers(options, total)
        return tuple(allowed), tuple(final)
    allowed = [0] * len(options)
    combos = []
    for digits in _combinations(len(options), total, top):
        if digits & ~union:
            continue
        fill = _fill_of(options, digits)
        if fill is None:
            continue
        combos.append(digits)
        for i, keep in enumerate(fill):
            allowed[i] |= keep
    return tuple(allowed), tuple(combos)


def _sum_fits(
    cells: Sequence[int], options: Sequence[int], total: int
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Digits of `cells` (each from its bitmask in `options`), all different and adding
    up to `total`: for each cell, the digits it takes in some such filling, and the
    digit sets (bitmasks, ascending) of those fillings.

    Each digit set of the right size and sum (`_combinations`, the cage-combination
    table) that the candidates can fill (`_fill_of`) is one of them; past
    `_MAX_COMBINATIONS` sets, `_sum_fits_by_layers` walks the candidates instead. Cages
    keep the same candidates over many steps, so the answers are kept per (candidates,
    sum).
    """
    return _sum_fits_of(tuple(options), total)


def _options(s: LogicSolver, cells: Sequence[int]) -> list[int]:
    """Each cell's candidates, a filled cell's value as its only one."""
    return [1 << (s.values[c] - 1) if s.values[c] else s.cand[c] for c in cells]


def find_cage_combination(s: LogicSolver) -> Step | None:
    """A killer cage keeps, in each cell, only the digits of the combinations (different
    digits adding up to its sum) that its candidates can still make."""
    geo = s.geo
    assert isinstance(geo, RulesGeometry)
    for cells, total in geo.tables.cages:
        allowed, combos = _sum_fits(cells, _options(s, cells), total)
        if not combos:
            continue  # an impossible board: left to the other techniques
        elim = tuple(
            (c, d)
            for c, keep in zip(cells, allowed, strict=True)
            for d in digits_of(s.cand[c] & ~keep)
        )
        if elim:
            digits = 0
            for combo in combos:
                digits |= combo
            aux = (total, *combos)
            return make_step(
                geo, "cage combination", cells, tuple(digits_of(digits)), (), elim, aux
            )
    return None


def find_thermometer(s: LogicSolver) -> Step | None:
    """Along a thermometer the digits increase from the bulb: each cell is above the
    smallest digit the cells before it can take, and below the largest the cells after
    it can take."""
    geo = s.geo
    assert isinstance(geo, RulesGeometry)
    for cells in geo.tables.thermos:
        options = _options(s, cells)
        low = 0  # the digit the cell must exceed
        for i, option in enumerate(options):
            option &= ~((1 << low) - 1)
            options[i] = option
            low = (option & -option).bit_length()
        high = geo.size + 1  # the digit the cell must stay below
        for i in range(len(options) - 1, -1, -1):
            option = options[i] & ((1 << (high - 1)) - 1)
            options[i] = option
            high = option.bit_length() or 1
        elim = tuple(
            (c, d)
            for c, keep in zip(cells, options, strict=True)
            for d in digits_of(s.cand[c] & ~keep)
        )
        if elim:
            return make_step(geo, "thermometer", cells, (), (), elim, ())
    return None


def find_45_rule(s: LogicSolver) -> Step | None:
    """A unit's digits add up to N(N+1)/2; take away its killer cages lying wholly
    inside it and its filled cells, and the open cells left (up to four) add up to the
    rest: one cell left takes that value, more keep the digits that can make it."""
    geo = s.geo
    assert isinstance(geo, RulesGeometry)
    whole = geo.size * (geo.size + 1) // 2
    for u, unit in enumerate(geo.units):
        members = set(unit)
        inside = [(cells, total) for cells, total in geo.tables.cages if members.issuperset(cells)]
        if not inside:
            continue
        caged = {c for cells, _ in inside for c in cells}
        rest = [c for c in unit if c not in caged]
        left = [c for c in rest if not s.values[c]]
        if not left or len(left) > 4:
            continue
        total = whole - sum(t for _, t in inside) - sum(s.values[c] for c in rest)
        allowed, combos = _sum_fits(left, [s.cand[c] for c in left], total)
        if not combos:
            continue
        aux = (u, total, whole)
        if len(left) == 1:
            cell = left[0]
            return make_step(geo, "45 rule", (cell,), (total,), ((cell, total),), (), aux)
        elim = tuple(
            (c, d)
            for c, keep in zip(left, allowed, strict=True)
            for d in digits_of(s.cand[c] & ~keep)
        )
        if elim:
            return make_step(geo, "45 rule", left, (), (), elim, aux)
    return None


_RULE_FINDERS: dict[str, Callable[[LogicSolver], Step | None]] = {
    "cage combination": find_cage_combination,
    "thermometer": find_thermometer,
    "45 rule": find_45_rule,
}


@dataclass(frozen=True)
class Technique:
    """A named technique, its level, and the function that looks for it."""

    name: str
    level: int
    find: Callable[[LogicSolver], Step | None]


_FINDERS: dict[str, Callable[[LogicSolver], Step | None]] = {
    "full house": find_full_house,
    "hidden single": find_hidden_single,
    "naked single": find_naked_single,
    "pointing": find_pointing,
    "claiming": find_claiming,
    "naked pair": find_naked_pair,
    "hidden pair": find_hidden_pair,
    "naked triple": find_naked_triple,
    "hidden triple": find_hidden_triple,
    "x-wing": find_x_wing,
    "swordfish": find_swordfish,
    "xy-wing": find_xy_wing,
    "xyz-wing": find_xyz_wing,
    "simple colouring": find_simple_colouring,
    "xy-chain": find_xy_chain,
    "naked quad": find_naked_quad,
    "hidden quad": find_hidden_quad,
    "jellyfish": find_jellyfish,
    BIG_FISH: find_big_fish,
    "trial and error": find_trial_and_error,
}
# The ladder's order and levels (one source: `_base/levels.py`), each with its finder.
TECHNIQUE_FINDERS: tuple[Technique, ...] = tuple(
    Technique(name, level, _FINDERS[name]) for name, level in LADDER
)


def finders_for(geo: Geometry) -> tuple[Technique, ...]:
    """The ladder for `geo`: the classic one, with the techniques of killer cages and
    thermometers inserted where the rules have some (`RULE_TECHNIQUES`)."""
    if not isinstance(geo, RulesGeometry) or not (geo.tables.cages or geo.tables.thermos):
        return TECHNIQUE_FINDERS
    ladder = list(TECHNIQUE_FINDERS)
    for name, level, after in RULE_TECHNIQUES:
        where = next(i for i, t in enumerate(ladder) if t.name == after)
        ladder.insert(where + 1, Technique(name, level, _RULE_FINDERS[name]))
    return tuple(ladder)


# ---------------------------------------------------------------------------------------
# Whole solves


def logical_solve(
    values: Sequence[int], solution: Sequence[int], geo: Geometry | None = None
) -> list[Step]:
    """Every step the logical solver takes from `values` to `solution`, guesses included."""
    solver = LogicSolver(values, geo)
    steps: list[Step] = []
    while not solver.solved:
        step = solver.next_step()
        if step is None:
            step = reveal(solver, solution)
        solver.apply(step)
        steps.append(step)
    return steps


def technique_counts(
    values: Sequence[int], solution: Sequence[int], geo: Geometry
) -> dict[str, int] | None:
    """How often each technique (in ladder order, guesses last) is used on the way from
    `values` to `solution`; None when a guess meets a cell whose candidates lack its
    solution digit (the solution is not the board's).

    Raises `Contradiction` when two equal values share a unit.
    """
    solver = LogicSolver(values, geo)
    used = dict.fromkeys([t.name for t in solver._finders] + [GUESS], 0)
    while not solver.solved:
        step = solver.next_step()
        if step is None:
            step = reveal(solver, solution)
            if not solver.cand[step.cells[0]] >> (step.digits[0] - 1) & 1:
                return None
        used[step.technique] += 1
        solver.apply(step)
    return {name: count for name, count in used.items() if count}


def level_within(values: Sequence[int], max_level: int, geo: Geometry | None = None) -> int:
    """The puzzle's level if it is at most `max_level`, else `max_level + 1`.

    Needs no solution: it stops as soon as the techniques up to `max_level` are stuck.
    """
    solver = LogicSolver(values, geo)
    level = 1
    while True:
        solver.fill_singles()
        if solver.solved:
            return level
        step = solver.next_step(max_level, min_level=2)
        if step is None:
            return max_level + 1
        level = max(level, step.level)
        solver.apply(step)


# ---------------------------------------------------------------------------------------
# The compiled module's functions, the same arguments and results (see `_logic.pyi`)

TECHNIQUES = len(LADDER)
SLOTS = len(SLOT_NAMES)
CONTRADICTION = -1  # two equal values share a unit
NO_MEMORY = -2
STUCK = -3  # a guess met a cell whose candidates lack its solution digit: not unique


@dataclass(frozen=True)
class LogicTables:
    """The geometry the functions below work on (`tables_for`)."""

    geometry: Geometry


def tables_for(geometry: Geometry) -> LogicTables:
    """The tables of a geometry."""
    return LogicTables(geometry)


def _grid(tables: LogicTables, values: Any, start: int = 0) -> list[int]:
    cells = tables.geometry.cells
    return list(memoryview(values).cast("B")[start * cells : (start + 1) * cells])


def _loaded(tables: LogicTables, values: Any) -> LogicSolver:
    grid = _grid(tables, values)
    if len(grid) != tables.geometry.cells:
        raise ValueError(f"expected {tables.geometry.cells} values, got {len(grid)}")
    try:
        return LogicSolver(grid, tables.geometry)
    except Contradiction:
        raise ValueError("two equal values share a unit") from None


def solve_steps(tables: LogicTables, values: Any, solution: Any) -> list[Record]:
    """Every step from `values` to `solution` as records (see `steps.hint_from_record`)."""
    solver = _loaded(tables, values)
    answer = _grid(tables, solution)
    records = []
    while not solver.solved:
        step = solver.next_step()
        if step is None:
            step = reveal(solver, answer)
            if not solver.cand[step.cells[0]] >> (step.digits[0] - 1) & 1:
                raise ValueError("the solution does not fit the candidates")
        records.append(step.record())
        solver.apply(step)
    return records


def find_step(
    tables: LogicTables,
    values: Any,
    allowed: Any,
    solution: Any = None,
    max_level: int = 5,
    min_level: int = 1,
) -> Record | None:
    """The easiest step from `values`, each cell's candidates narrowed to `allowed`;
    without one, the guess revealing a cell of `solution` (None without a solution)."""
    solver = _loaded(tables, values)
    masks = list(memoryview(allowed).cast("B").cast("Q")) if allowed is not None else []
    if len(masks) != tables.geometry.cells:
        raise ValueError(f"expected {tables.geometry.cells} masks, got {len(masks)}")
    for cell, mask in enumerate(masks):
        solver.restrict(cell, mask)
    step = solver.next_step(max_level, min_level)
    if step is None:
        if solution is None or solver.solved:
            return None
        step = reveal(solver, _grid(tables, solution))
    return step.record()


def level_within_range(
    tables: LogicTables, grids: Any, max_level: int, levels: Any, start: int, stop: int
) -> None:
    """levels[i] = the level of puzzle i if at most max_level, else max_level + 1."""
    for i in range(start, stop):
        try:
            levels[i] = level_within(_grid(tables, grids, i), max_level, tables.geometry)
        except Contradiction:
            levels[i] = CONTRADICTION


def _rated(tables: LogicTables, values: list[int], solution: list[int]) -> list[int]:
    """The count slots of one puzzle (a negative first slot when it cannot be rated)."""
    counts = [0] * SLOTS
    try:
        solver = LogicSolver(values, tables.geometry)
    except Contradiction:
        return [CONTRADICTION] + [0] * (SLOTS - 1)
    while not solver.solved:
        step = solver.next_step()
        if step is None:
            step = reveal(solver, solution)
            if not solver.cand[step.cells[0]] >> (step.digits[0] - 1) & 1:
                return [STUCK] + [0] * (SLOTS - 1)
        counts[SLOT_NAMES.index(step.technique)] += 1
        solver.apply(step)
    return counts


def rate_range(
    tables: LogicTables,
    grids: Any,
    solutions: Any,
    counts: Any,
    start: int,
    stop: int,
    summary: Any = None,
) -> None:
    """Rate puzzles start..stop-1: counts[i*SLOTS + technique] = times it was used; with
    `summary`, summary[2*i] the hardest technique (-1 for none), summary[2*i + 1] the clues."""
    for i in range(start, stop):
        values = _grid(tables, grids, i)
        row = _rated(tables, values, _grid(tables, solutions, i))
        for k, count in enumerate(row):
            counts[i * SLOTS + k] = count
        if summary is None:
            continue
        hardest = -1
        for tech in range(SLOTS):
            if row[tech] > 0 and (hardest < 0 or SLOT_LEVELS[tech] >= SLOT_LEVELS[hardest]):
                hardest = tech
        summary[2 * i] = hardest
        summary[2 * i + 1] = sum(1 for v in values if v)


def build_ratings(
    rating: type,
    out: list[Any],
    counts: Any,
    summary: Any,
    guesses: Any,
    nodes: Any,
    names: tuple[str, ...],
    levels: tuple[int, ...],
    level_names: tuple[str, ...],
    start: int,
    stop: int,
    scores: Any = None,
    score_names: tuple[str, ...] | None = None,
    score_slots: int = 0,
    score_ok: int = 0,
) -> list[int]:
    """Build the `rating` objects of puzzles start..stop-1 into out[i] by calling the
    class; return the indices that could not be rated."""
    failed: list[int] = []
    for i in range(start, stop):
        row = counts[i * SLOTS : (i + 1) * SLOTS]
        if row[0] < 0:
            failed.append(i)
            continue
        used = {names[t]: row[t] for t in range(SLOTS) if row[t] > 0}
        hardest = summary[2 * i]
        level = levels[hardest] if hardest >= 0 else 1
        score: float | None = None
        technique, complete = "", True
        if scores is not None:
            assert score_names is not None
            tenths, tech, _, status = scores[i * score_slots : i * score_slots + 4]
            if status < 0:
                failed.append(i)
                continue
            score = tenths / 10
            technique = score_names[tech] if tech >= 0 else "none"
            complete = status == score_ok
        out[i] = rating(
            level,
            level_names[level],
            names[hardest] if hardest >= 0 else "none",
            used,
            summary[2 * i + 1],
            guesses[i],
            nodes[i],
            score,
            technique,
            complete,
        )
    return failed
