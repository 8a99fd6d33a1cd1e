"""A human-style logical solver on pencil marks: the techniques behind `rate` and `hint`.

The state is one candidate bitmask per cell (bit d-1 set = digit d still possible; 0 for
a filled cell) plus the placed values. Each technique looks for one pattern and returns
the deduction it allows as a `Hint`: the cells and digits of the pattern, the digits it
places or the candidates it eliminates, and a one-line explanation. `LogicSolver`
applies the easiest technique that makes progress, again and again.

Techniques and levels (the level of a puzzle is the level of the hardest technique its
solution needs, always trying the easiest technique first):

=====  =========  ==========================================================
level  name       techniques
=====  =========  ==========================================================
1      easy       full house, hidden single, naked single
2      medium     pointing, claiming (locked candidates)
3      hard       naked pair, hidden pair, naked triple, hidden triple, X-wing
4      expert     swordfish, XY-wing, XYZ-wing, naked quad, hidden quad, jellyfish
5      extreme    trial and error: assuming a candidate leads, by singles alone, to a
                  contradiction, so the candidate goes
6      nightmare  needs guessing: not even one step of trial and error helps
=====  =========  ==========================================================

Every technique is sound for any puzzle (it eliminates only candidates that appear in
no solution); none relies on the puzzle having a unique solution.

Everything here works from the grid size: `Geometry` derives rows, columns, boxes and
peers from it. Only 9x9 grids are parsed and tested so far.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from math import isqrt

LEVEL_NAMES = {1: "easy", 2: "medium", 3: "hard", 4: "expert", 5: "extreme", 6: "nightmare"}
GUESS = "guess"  # the pseudo-technique counted when no technique applies


def popcount(mask: int) -> int:
    """Number of set bits of a non-negative int."""
    return mask.bit_count()


def digits_of(mask: int) -> list[int]:
    """The digits (1-based) whose bits are set in `mask`, ascending."""
    out = []
    digit = 1
    while mask:
        if mask & 1:
            out.append(digit)
        mask >>= 1
        digit += 1
    return out


def cell_name(cell: int, size: int = 9) -> str:
    """Human cell name, rows and columns counted from 1: cell 0 is r1c1."""
    return f"r{cell // size + 1}c{cell % size + 1}"


def _digit_list(digits: Sequence[int]) -> str:
    return "/".join(str(d) for d in digits)


@dataclass(frozen=True)
class Geometry:
    """Rows, columns, boxes and peers of an N x N grid with box_rows x box_cols boxes.

    Units are numbered rows 0..N-1, columns N..2N-1, boxes 2N..3N-1.
    """

    size: int
    box_rows: int
    box_cols: int
    cells: int = field(init=False)
    units: tuple[tuple[int, ...], ...] = field(init=False)
    peers: tuple[tuple[int, ...], ...] = field(init=False)
    peer_sets: tuple[frozenset[int], ...] = field(init=False)
    row_of: tuple[int, ...] = field(init=False)
    col_of: tuple[int, ...] = field(init=False)
    box_of: tuple[int, ...] = field(init=False)
    all_digits: int = field(init=False)

    def __post_init__(self) -> None:
        n, br, bc = self.size, self.box_rows, self.box_cols
        if br * bc != n or n < 1:
            raise ValueError(f"boxes of {br}x{bc} do not tile a {n}x{n} grid")
        rows = tuple(tuple(r * n + c for c in range(n)) for r in range(n))
        cols = tuple(tuple(r * n + c for r in range(n)) for c in range(n))
        boxes = tuple(
            tuple((top + r) * n + left + c for r in range(br) for c in range(bc))
            for top in range(0, n, br)
            for left in range(0, n, bc)
        )
        box_of = [0] * (n * n)
        for b, box in enumerate(boxes):
            for cell in box:
                box_of[cell] = b
        row_of = tuple(cell // n for cell in range(n * n))
        col_of = tuple(cell % n for cell in range(n * n))
        peer_sets = tuple(
            frozenset(rows[row_of[cell]] + cols[col_of[cell]] + boxes[box_of[cell]]) - {cell}
            for cell in range(n * n)
        )
        set_ = object.__setattr__  # frozen dataclass: derived fields are set once here
        set_(self, "cells", n * n)
        set_(self, "units", rows + cols + boxes)
        set_(self, "row_of", row_of)
        set_(self, "col_of", col_of)
        set_(self, "box_of", tuple(box_of))
        set_(self, "peer_sets", peer_sets)
        set_(self, "peers", tuple(tuple(sorted(p)) for p in peer_sets))
        set_(self, "all_digits", (1 << n) - 1)

    def unit_name(self, unit: int) -> str:
        """'row 3', 'column 5' or 'box 7' (counted from 1)."""
        kind, index = divmod(unit, self.size)
        return f"{('row', 'column', 'box')[kind]} {index + 1}"

    def name(self, cell: int) -> str:
        """The cell's name, r1c1 for cell 0."""
        return cell_name(cell, self.size)


@cache
def geometry(size: int = 9, box_rows: int | None = None, box_cols: int | None = None) -> Geometry:
    """The geometry of a size x size grid.

    Without a box shape, boxes are as square as possible with no more rows than columns
    (3x3 for 9, 4x4 for 16, 2x3 for 6, 3x4 for 12).
    """
    if box_rows is None or box_cols is None:
        box_rows = max(d for d in range(1, isqrt(size) + 1) if size % d == 0)
        box_cols = size // box_rows
    return Geometry(size, box_rows, box_cols)


@dataclass(frozen=True)
class Hint:
    """One step towards the solution, or a mistake found on the board.

    `technique` names the step (e.g. "hidden single", "x-wing", "wrong value");
    `cells` and `digits` are the pattern it rests on (0-based cells in row-major order,
    digits from 1); `placements` and `eliminations` are (cell, digit) pairs it places or
    removes from the pencil marks; `explanation` says it in one line.

    Besides the techniques of `TECHNIQUES`, three kinds come from `hints.hint`:
    "wrong value" (a user-entered value contradicts the solution: `cells` is that cell,
    `digits` the entered value, `eliminations` the entry to remove), "wrong pencil marks"
    (a cell's pencil marks leave out its solution digit, which is in `digits`) and
    "guess" (no technique applies: the solution digit of one cell is revealed).
    """

    technique: str
    level: int
    cells: tuple[int, ...]
    digits: tuple[int, ...]
    placements: tuple[tuple[int, int], ...] = ()
    eliminations: tuple[tuple[int, int], ...] = ()
    explanation: str = ""

    @property
    def is_mistake(self) -> bool:
        """True for the two kinds that report a user mistake rather than a deduction."""
        return self.technique in ("wrong value", "wrong pencil marks")


class Contradiction(ValueError):
    """The board has no solution: an empty cell or a digit without a place in a unit."""


class LogicSolver:
    """Candidates of a partly filled grid, and the techniques that narrow them down."""

    def __init__(self, values: Sequence[int], geo: Geometry | None = None) -> None:
        """Start from placed values (0 = empty); candidates follow from the rules alone.

        Raises `Contradiction` when two equal values share a unit.
        """
        self.geo = geo if geo is not None else geometry(isqrt(len(values)))
        if self.geo.cells != len(values):
            raise ValueError(f"expected {self.geo.cells} cells, got {len(values)}")
        self.values = list(values)
        full = self.geo.all_digits
        self.cand = [0 if v else full for v in self.values]
        for cell, v in enumerate(self.values):
            if v:
                bit = 1 << (v - 1)
                for peer in self.geo.peers[cell]:
                    if self.values[peer] == v:
                        raise Contradiction(
                            f"{self.geo.name(cell)} and {self.geo.name(peer)} both hold {v}"
                        )
                    self.cand[peer] &= ~bit

    @property
    def solved(self) -> bool:
        """True when every cell holds a value."""
        return 0 not in self.values

    def restrict(self, cell: int, allowed: int) -> None:
        """Keep only the candidates of `cell` that are in the bitmask `allowed`."""
        self.cand[cell] &= allowed

    def place(self, cell: int, digit: int) -> None:
        """Put `digit` in `cell` and remove it from the cell's peers."""
        self.values[cell] = digit
        self.cand[cell] = 0
        mask = ~(1 << (digit - 1))
        cand = self.cand
        for peer in self.geo.peers[cell]:
            cand[peer] &= mask

    def apply(self, hint: Hint) -> None:
        """Carry out a hint's placements and eliminations."""
        for cell, digit in hint.placements:
            self.place(cell, digit)
        for cell, digit in hint.eliminations:
            self.cand[cell] &= ~(1 << (digit - 1))

    def check(self) -> None:
        """Raise `Contradiction` if an empty cell or an unplaced digit of a unit has no room."""
        geo = self.geo
        for cell in range(geo.cells):
            if not self.values[cell] and not self.cand[cell]:
                raise Contradiction(f"{geo.name(cell)} has no candidate left")
        for u, unit in enumerate(geo.units):
            placed = 0
            room = 0
            for cell in unit:
                room |= self.cand[cell]
                if self.values[cell]:
                    placed |= 1 << (self.values[cell] - 1)
            missing = geo.all_digits & ~placed & ~room
            if missing:
                digit = digits_of(missing)[0]
                raise Contradiction(f"{digit} has no place left in {geo.unit_name(u)}")

    def next_step(self, max_level: int = 5) -> Hint | None:
        """The easiest deduction available (techniques up to `max_level`), or None."""
        for technique in TECHNIQUES:
            if technique.level > max_level:
                break
            step = technique.find(self)
            if step is not None:
                return step
        return None


# ---------------------------------------------------------------------------------------
# Singles


def find_full_house(s: LogicSolver) -> Hint | None:
    """A unit with a single empty cell: that cell gets the missing digit."""
    geo = s.geo
    for u, unit in enumerate(geo.units):
        empty = [c for c in unit if not s.values[c]]
        if len(empty) == 1:
            cell = empty[0]
            if s.cand[cell] and not s.cand[cell] & (s.cand[cell] - 1):
                digit = digits_of(s.cand[cell])[0]
                return Hint(
                    "full house",
                    1,
                    (cell,),
                    (digit,),
                    placements=((cell, digit),),
                    explanation=(
                        f"{geo.name(cell)} is the last empty cell of {geo.unit_name(u)}, "
                        f"so it takes the missing {digit}"
                    ),
                )
    return None


def find_hidden_single(s: LogicSolver) -> Hint | None:
    """A digit with one place left in a unit goes there (boxes first, then lines)."""
    geo = s.geo
    n = geo.size
    cand = s.cand
    unit_order = itertools.chain(range(2 * n, 3 * n), range(2 * n))
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
                return Hint(
                    "hidden single",
                    1,
                    (cell,),
                    (digit,),
                    placements=((cell, digit),),
                    explanation=(
                        f"{digit} has only one place left in {geo.unit_name(u)}: {geo.name(cell)}"
                    ),
                )
    return None


def find_naked_single(s: LogicSolver) -> Hint | None:
    """An empty cell with one candidate left takes it."""
    geo = s.geo
    for cell, c in enumerate(s.cand):
        if c and not c & (c - 1):
            digit = digits_of(c)[0]
            return Hint(
                "naked single",
                1,
                (cell,),
                (digit,),
                placements=((cell, digit),),
                explanation=f"{digit} is the only candidate left in {geo.name(cell)}",
            )
    return None


# ---------------------------------------------------------------------------------------
# Locked candidates


def _eliminations(s: LogicSolver, cells: Sequence[int], mask: int) -> tuple[tuple[int, int], ...]:
    """(cell, digit) for every candidate in `mask` still present in `cells`."""
    out = []
    for cell in cells:
        for digit in digits_of(s.cand[cell] & mask):
            out.append((cell, digit))
    return tuple(out)


def find_pointing(s: LogicSolver) -> Hint | None:
    """A digit confined to one line inside a box is removed from the rest of that line."""
    geo = s.geo
    n = geo.size
    for b in range(n):
        box_unit = 2 * n + b
        box = geo.units[box_unit]
        for digit in range(1, n + 1):
            bit = 1 << (digit - 1)
            places = [c for c in box if s.cand[c] & bit]
            if len(places) < 2:
                continue
            for line_of, base in ((geo.row_of, 0), (geo.col_of, n)):
                lines = {line_of[c] for c in places}
                if len(lines) != 1:
                    continue
                line = base + lines.pop()
                others = [c for c in geo.units[line] if geo.box_of[c] != b]
                elim = _eliminations(s, others, bit)
                if elim:
                    return Hint(
                        "pointing",
                        2,
                        tuple(places),
                        (digit,),
                        eliminations=elim,
                        explanation=(
                            f"in {geo.unit_name(box_unit)}, {digit} can only be in "
                            f"{geo.unit_name(line)}, so it goes from the rest of that "
                            f"{'row' if base == 0 else 'column'}"
                        ),
                    )
    return None


def find_claiming(s: LogicSolver) -> Hint | None:
    """A digit confined to one box inside a line is removed from the rest of that box."""
    geo = s.geo
    n = geo.size
    for line in range(2 * n):
        for digit in range(1, n + 1):
            bit = 1 << (digit - 1)
            places = [c for c in geo.units[line] if s.cand[c] & bit]
            if len(places) < 2:
                continue
            boxes = {geo.box_of[c] for c in places}
            if len(boxes) != 1:
                continue
            box_unit = 2 * n + boxes.pop()
            others = [c for c in geo.units[box_unit] if c not in places]
            elim = _eliminations(s, others, bit)
            if elim:
                return Hint(
                    "claiming",
                    2,
                    tuple(places),
                    (digit,),
                    eliminations=elim,
                    explanation=(
                        f"in {geo.unit_name(line)}, {digit} can only be in "
                        f"{geo.unit_name(box_unit)}, so it goes from the rest of that box"
                    ),
                )
    return None


# ---------------------------------------------------------------------------------------
# Naked and hidden subsets

_SUBSET_NAMES = {2: "pair", 3: "triple", 4: "quad"}


def _naked_subset(s: LogicSolver, k: int, level: int) -> Hint | None:
    """k cells of a unit whose candidates are k digits: those digits leave the unit's rest."""
    geo = s.geo
    for u, unit in enumerate(geo.units):
        open_cells = [c for c in unit if s.cand[c]]
        if len(open_cells) <= k:
            continue
        small = [c for c in open_cells if 2 <= popcount(s.cand[c]) <= k]
        for group in itertools.combinations(small, k):
            union = 0
            for c in group:
                union |= s.cand[c]
            if popcount(union) != k:
                continue
            others = [c for c in open_cells if c not in group]
            elim = _eliminations(s, others, union)
            if elim:
                digits = tuple(digits_of(union))
                names = ", ".join(geo.name(c) for c in group)
                return Hint(
                    f"naked {_SUBSET_NAMES[k]}",
                    level,
                    group,
                    digits,
                    eliminations=elim,
                    explanation=(
                        f"{names} can only hold {_digit_list(digits)} between them, so "
                        f"those digits go from the rest of {geo.unit_name(u)}"
                    ),
                )
    return None


def _hidden_subset(s: LogicSolver, k: int, level: int) -> Hint | None:
    """k digits with only k places in a unit: those cells lose every other candidate."""
    geo = s.geo
    n = geo.size
    for u, unit in enumerate(geo.units):
        places_of: dict[int, int] = {}  # digit -> bitmask of positions within the unit
        for digit in range(1, n + 1):
            bit = 1 << (digit - 1)
            where = 0
            for i, c in enumerate(unit):
                if s.cand[c] & bit:
                    where |= 1 << i
            if where:
                places_of[digit] = where
        if len(places_of) <= k:
            continue
        small = [d for d, where in places_of.items() if 2 <= popcount(where) <= k]
        for group in itertools.combinations(small, k):
            where = 0
            for d in group:
                where |= places_of[d]
            if popcount(where) != k:
                continue
            cells = tuple(unit[i] for i in range(n) if where >> i & 1)
            keep = 0
            for d in group:
                keep |= 1 << (d - 1)
            elim = _eliminations(s, cells, geo.all_digits & ~keep)
            if elim:
                names = ", ".join(geo.name(c) for c in cells)
                return Hint(
                    f"hidden {_SUBSET_NAMES[k]}",
                    level,
                    cells,
                    group,
                    eliminations=elim,
                    explanation=(
                        f"in {geo.unit_name(u)}, {_digit_list(group)} fit only in {names}, "
                        f"so those cells hold nothing else"
                    ),
                )
    return None


def find_naked_pair(s: LogicSolver) -> Hint | None:
    """Naked pair: two cells of a unit with the same two candidates."""
    return _naked_subset(s, 2, 3)


def find_hidden_pair(s: LogicSolver) -> Hint | None:
    """Hidden pair: two digits confined to the same two cells of a unit."""
    return _hidden_subset(s, 2, 3)


def find_naked_triple(s: LogicSolver) -> Hint | None:
    """Naked triple: three cells of a unit with three candidates between them."""
    return _naked_subset(s, 3, 3)


def find_hidden_triple(s: LogicSolver) -> Hint | None:
    """Hidden triple: three digits confined to the same three cells of a unit."""
    return _hidden_subset(s, 3, 3)


def find_naked_quad(s: LogicSolver) -> Hint | None:
    """Naked quad: four cells of a unit with four candidates between them."""
    return _naked_subset(s, 4, 4)


def find_hidden_quad(s: LogicSolver) -> Hint | None:
    """Hidden quad: four digits confined to the same four cells of a unit."""
    return _hidden_subset(s, 4, 4)


# ---------------------------------------------------------------------------------------
# Fish

_FISH_NAMES = {2: "x-wing", 3: "swordfish", 4: "jellyfish"}


def _fish(s: LogicSolver, k: int, level: int) -> Hint | None:
    """k rows (or columns) where a digit fits only in the same k columns (rows).

    The digit must take one of those k columns in each of the k base lines, so it
    fills all k cover lines there and leaves them everywhere else.
    """
    geo = s.geo
    n = geo.size
    for digit in range(1, n + 1):
        bit = 1 << (digit - 1)
        for base_is_row in (True, False):
            spots: dict[int, int] = {}  # base line -> bitmask of cover lines
            for line in range(n):
                unit = geo.units[line if base_is_row else n + line]
                where = 0
                for i, c in enumerate(unit):
                    if s.cand[c] & bit:
                        where |= 1 << i
                if 2 <= popcount(where) <= k:
                    spots[line] = where
            for bases in itertools.combinations(spots, k):
                cover = 0
                for line in bases:
                    cover |= spots[line]
                if popcount(cover) != k:
                    continue
                covers = [i for i in range(n) if cover >> i & 1]
                cover_units = [geo.units[n + i if base_is_row else i] for i in covers]
                targets = [c for unit in cover_units for c in unit]
                base_cells = {
                    c for line in bases for c in geo.units[line if base_is_row else n + line]
                }
                elim = _eliminations(s, [c for c in targets if c not in base_cells], bit)
                if elim:
                    pattern = tuple(c for c in targets if c in base_cells and s.cand[c] & bit)
                    base_kind, cover_kind = ("rows", "columns")[:: 1 if base_is_row else -1]
                    base_list = ", ".join(str(b + 1) for b in bases)
                    cover_list = ", ".join(str(i + 1) for i in covers)
                    return Hint(
                        _FISH_NAMES[k],
                        level,
                        tuple(sorted(pattern)),
                        (digit,),
                        eliminations=elim,
                        explanation=(
                            f"in {base_kind} {base_list}, {digit} fits only in {cover_kind} "
                            f"{cover_list}, so it goes from the rest of those {cover_kind}"
                        ),
                    )
    return None


def find_x_wing(s: LogicSolver) -> Hint | None:
    """X-wing: a fish on two lines."""
    return _fish(s, 2, 3)


def find_swordfish(s: LogicSolver) -> Hint | None:
    """Swordfish: a fish on three lines."""
    return _fish(s, 3, 4)


def find_jellyfish(s: LogicSolver) -> Hint | None:
    """Jellyfish: a fish on four lines."""
    return _fish(s, 4, 4)


# ---------------------------------------------------------------------------------------
# Wings


def find_xy_wing(s: LogicSolver) -> Hint | None:
    """Pivot {x,y} seeing pincers {x,z} and {y,z}: z goes from cells seeing both pincers."""
    geo = s.geo
    cand = s.cand
    bivalue = [c for c in range(geo.cells) if cand[c] and popcount(cand[c]) == 2]
    for pivot in bivalue:
        pc = cand[pivot]
        wings = [
            c for c in geo.peers[pivot] if popcount(cand[c]) == 2 and popcount(cand[c] & pc) == 1
        ]
        for a, b in itertools.combinations(wings, 2):
            ca, cb = cand[a], cand[b]
            z = ca & cb & ~pc
            if not z or (ca & pc) == (cb & pc) or (ca | cb | pc) != (pc | z):
                continue
            common = geo.peer_sets[a] & geo.peer_sets[b]
            elim = _eliminations(s, sorted(common - {pivot}), z)
            if elim:
                zd = digits_of(z)[0]
                return Hint(
                    "xy-wing",
                    4,
                    (pivot, a, b),
                    tuple(digits_of(pc | z)),
                    eliminations=elim,
                    explanation=(
                        f"{geo.name(pivot)} is {_digit_list(digits_of(pc))}; either way one "
                        f"of {geo.name(a)}, {geo.name(b)} is {zd}, so {zd} goes from cells "
                        f"seeing both"
                    ),
                )
    return None


def find_xyz_wing(s: LogicSolver) -> Hint | None:
    """Pivot {x,y,z} seeing {x,z} and {y,z}: z goes from cells seeing all three."""
    geo = s.geo
    cand = s.cand
    for pivot in range(geo.cells):
        pc = cand[pivot]
        if popcount(pc) != 3:
            continue
        wings = [c for c in geo.peers[pivot] if popcount(cand[c]) == 2 and cand[c] & ~pc == 0]
        for a, b in itertools.combinations(wings, 2):
            z = cand[a] & cand[b]
            if popcount(z) != 1 or (cand[a] | cand[b]) != pc:
                continue
            common = geo.peer_sets[pivot] & geo.peer_sets[a] & geo.peer_sets[b]
            elim = _eliminations(s, sorted(common), z)
            if elim:
                zd = digits_of(z)[0]
                return Hint(
                    "xyz-wing",
                    4,
                    (pivot, a, b),
                    tuple(digits_of(pc)),
                    eliminations=elim,
                    explanation=(
                        f"one of {geo.name(pivot)}, {geo.name(a)}, {geo.name(b)} must be "
                        f"{zd}, so {zd} goes from cells seeing all three"
                    ),
                )
    return None


def reveal(s: LogicSolver, solution: Sequence[int]) -> Hint:
    """The "guess" step: the solution digit of an open cell with the fewest candidates."""
    geo = s.geo
    cell = min(
        (c for c in range(geo.cells) if not s.values[c]),
        key=lambda c: (s.cand[c].bit_count(), c),
    )
    digit = solution[cell]
    return Hint(
        GUESS,
        6,
        (cell,),
        (digit,),
        placements=((cell, digit),),
        explanation=(
            f"no technique applies; of {_digit_list(digits_of(s.cand[cell]))} in "
            f"{geo.name(cell)}, the solution has {digit}"
        ),
    )


# ---------------------------------------------------------------------------------------
# Trial and error


def _singles_refute(s: LogicSolver, cell: int, digit: int) -> str | None:
    """Assume `digit` in `cell` and follow naked and hidden singles on a copy.

    Returns a description of the contradiction reached, or None when singles run dry
    without one.
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
                    return f"{geo.name(c)} would need both {values[c]} and {d}"
                continue
            bit = 1 << (d - 1)
            if not cand[c] & bit:
                return f"{geo.name(c)} would need {d}, which it cannot hold"
            values[c] = d
            cand[c] = 0
            for peer in geo.peers[c]:
                pc = cand[peer]
                if pc & bit:
                    pc &= ~bit
                    cand[peer] = pc
                    if not pc:
                        return f"{geo.name(peer)} would have no candidate left"
                    if not pc & (pc - 1):
                        pending.append((peer, pc.bit_length()))
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
                return f"{d} would have no place left in {geo.unit_name(u)}"
            only = once & ~twice
            if only:
                for c in unit:
                    hit = cand[c] & only
                    while hit:
                        low = hit & -hit
                        pending.append((c, low.bit_length()))
                        hit ^= low
    return None


def find_trial_and_error(s: LogicSolver) -> Hint | None:
    """A candidate whose assumption leads, by singles alone, to a contradiction.

    Cells with the fewest candidates are tried first. The candidate is eliminated.
    """
    geo = s.geo
    order = sorted(
        (c for c in range(geo.cells) if s.cand[c]), key=lambda c: (popcount(s.cand[c]), c)
    )
    for cell in order:
        for digit in digits_of(s.cand[cell]):
            reason = _singles_refute(s, cell, digit)
            if reason is not None:
                return Hint(
                    "trial and error",
                    5,
                    (cell,),
                    (digit,),
                    eliminations=((cell, digit),),
                    explanation=(
                        f"if {geo.name(cell)} were {digit}, singles would lead to a "
                        f"contradiction ({reason}), so it is not {digit}"
                    ),
                )
    return None


@dataclass(frozen=True)
class Technique:
    """A named technique, its level, and the function that looks for it."""

    name: str
    level: int
    find: Callable[[LogicSolver], Hint | None]


# Easiest first: the solver always uses the first technique that makes progress.
TECHNIQUES: tuple[Technique, ...] = (
    Technique("full house", 1, find_full_house),
    Technique("hidden single", 1, find_hidden_single),
    Technique("naked single", 1, find_naked_single),
    Technique("pointing", 2, find_pointing),
    Technique("claiming", 2, find_claiming),
    Technique("naked pair", 3, find_naked_pair),
    Technique("hidden pair", 3, find_hidden_pair),
    Technique("naked triple", 3, find_naked_triple),
    Technique("hidden triple", 3, find_hidden_triple),
    Technique("x-wing", 3, find_x_wing),
    Technique("swordfish", 4, find_swordfish),
    Technique("xy-wing", 4, find_xy_wing),
    Technique("xyz-wing", 4, find_xyz_wing),
    Technique("naked quad", 4, find_naked_quad),
    Technique("hidden quad", 4, find_hidden_quad),
    Technique("jellyfish", 4, find_jellyfish),
    Technique("trial and error", 5, find_trial_and_error),
)

TECHNIQUE_LEVEL = {t.name: t.level for t in TECHNIQUES} | {GUESS: 6}
