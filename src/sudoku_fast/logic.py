"""A human-style logical solver on pencil marks: the techniques behind `rate` and `hint`.

The state is one candidate bitmask per cell (bit d-1 set = digit d still possible; 0 for
a filled cell) plus the placed values. Each technique looks for one pattern and returns
the deduction it allows as a `Hint`: the cells and digits of the pattern, the digits it
places or the candidates it eliminates, and a one-line explanation. `LogicSolver`
applies the easiest technique that makes progress, again and again.

Each technique has a level (`TECHNIQUE_LEVEL`); the table of levels and what they mean
for a puzzle is in `rating.py`, where `rate` uses them.

Every technique is sound for any puzzle (it eliminates only candidates that appear in
no solution); none relies on the puzzle having a unique solution.

Everything here works from the grid's `Geometry` (`grid.py`: units, peers, crossings),
so every size and box shape is handled alike.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from math import isqrt

from .grid import Geometry, geometry_for

LEVEL_NAMES = {1: "easy", 2: "medium", 3: "hard", 4: "expert", 5: "extreme", 6: "nightmare"}
GUESS = "guess"  # the pseudo-technique counted when no technique applies


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


def geometry_of(cells: int) -> Geometry:
    """The default geometry of a grid of `cells` cells (81 -> 9x9 with 3x3 boxes)."""
    return geometry_for(isqrt(cells))


def geometry(size: int = 9, box_rows: int | None = None, box_cols: int | None = None) -> Geometry:
    """The geometry of a size x size grid (`grid.geometry_for`, default symbols).

    Without a box shape, boxes follow `grid.default_box` (3x3 for 9, 2x3 for 6).
    """
    box = None if box_rows is None or box_cols is None else (box_rows, box_cols)
    return geometry_for(size, box)


def _symbol(geo: Geometry, value: int) -> str:
    """How a value is written on this grid (its alphabet: 'A' for 10 on 16x16)."""
    return geo.symbols[value - 1] if 1 <= value <= geo.size else str(value)


def _digit_list(geo: Geometry, digits: Sequence[int]) -> str:
    return "/".join(_symbol(geo, d) for d in digits)


@dataclass(frozen=True)
class Hint:
    """One step towards the solution, or a mistake found on the board.

    `technique` names the step (e.g. "hidden single", "x-wing", "wrong value") and
    `level` is its level (1-6, as in the table above; 0 for the two mistake kinds);
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

    def _repr_html_(self) -> str:
        """The hint as a line of HTML (notebooks show it): technique, level, explanation."""
        from .render import hint_html

        return hint_html(self)

    @property
    def is_mistake(self) -> bool:
        """True for the two kinds that report a user mistake rather than a deduction."""
        return self.technique in ("wrong value", "wrong pencil marks")


# How a trial-and-error assumption failed (the first number of its `aux`).
CLASH_VALUE = 0  # (kind, cell, value held, value wanted)
CLASH_CANDIDATE = 1  # (kind, cell, value it cannot hold)
CLASH_EMPTY = 2  # (kind, cell left without candidates)
CLASH_NO_PLACE = 3  # (kind, value, unit where it has no place)
# Simple colouring's two rules (the first number of its `aux`).
COLOUR_WRAP = 0  # (kind, cell, cell): two cells of one colour see each other
COLOUR_TRAP = 1  # (kind,): cells seeing both colours lose the digit

Pairs = tuple[tuple[int, int], ...]


def _clash_text(geo: Geometry, reason: Sequence[int]) -> str:
    kind = reason[0]
    if kind == CLASH_VALUE:
        held, wanted = _symbol(geo, reason[2]), _symbol(geo, reason[3])
        return f"{geo.name(reason[1])} would need both {held} and {wanted}"
    if kind == CLASH_CANDIDATE:
        return f"{geo.name(reason[1])} would need {_symbol(geo, reason[2])}, which it cannot hold"
    if kind == CLASH_EMPTY:
        return f"{geo.name(reason[1])} would have no candidate left"
    return f"{_symbol(geo, reason[1])} would have no place left in {geo.unit_name(reason[2])}"


def _lines(mask: int) -> str:
    return ", ".join(str(i + 1) for i in range(mask.bit_length()) if mask >> i & 1)


def explain(
    geo: Geometry,
    technique: str,
    cells: Sequence[int],
    digits: Sequence[int],
    eliminations: Pairs,
    aux: Sequence[int],
) -> str:
    """The one-line explanation of a step, from its pattern and `aux` numbers.

    `aux` holds what the pattern alone does not say: the unit of a single or subset,
    the (box, line) of locked candidates, (bases are rows, base mask, cover mask) of a
    fish, the z digit of a wing, the rule of simple colouring, the contradiction of
    trial and error, the candidate mask of a guessed cell.
    """
    n = geo.size
    digit = _symbol(geo, digits[0]) if digits else "0"
    cell = cells[0] if cells else 0
    names = ", ".join(geo.name(c) for c in cells)
    if technique == "full house":
        return (
            f"{geo.name(cell)} is the last empty cell of {geo.unit_name(aux[0])}, "
            f"so it takes the missing {digit}"
        )
    if technique == "hidden single":
        return f"{digit} has only one place left in {geo.unit_name(aux[0])}: {geo.name(cell)}"
    if technique == "naked single":
        return f"{digit} is the only candidate left in {geo.name(cell)}"
    if technique == "pointing":
        kind = "row" if aux[1] < n else "column"
        return (
            f"in {geo.unit_name(aux[0])}, {digit} can only be in "
            f"{geo.unit_name(aux[1])}, so it goes from the rest of that {kind}"
        )
    if technique == "claiming":
        return (
            f"in {geo.unit_name(aux[0])}, {digit} can only be in "
            f"{geo.unit_name(aux[1])}, so it goes from the rest of that box"
        )
    if technique.startswith("naked "):
        return (
            f"{names} can only hold {_digit_list(geo, digits)} between them, so "
            f"those digits go from the rest of {geo.unit_name(aux[0])}"
        )
    if technique.startswith("hidden "):
        return (
            f"in {geo.unit_name(aux[0])}, {_digit_list(geo, digits)} fit only in {names}, "
            f"so those cells hold nothing else"
        )
    if technique in _FISH_NAMES.values() or technique == BIG_FISH:
        base_kind, cover_kind = ("rows", "columns")[:: 1 if aux[0] else -1]
        return (
            f"in {base_kind} {_lines(aux[1])}, {digit} fits only in {cover_kind} "
            f"{_lines(aux[2])}, so it goes from the rest of those {cover_kind}"
        )
    if technique == "xy-wing":
        pivot, a, b = cells
        z_value = aux[0]
        z = _symbol(geo, z_value)
        return (
            f"{geo.name(pivot)} is {_digit_list(geo, [d for d in digits if d != z_value])}; "
            "either way "
            f"one of {geo.name(a)}, {geo.name(b)} is {z}, so {z} goes from cells seeing both"
        )
    if technique == "xyz-wing":
        z = _symbol(geo, aux[0])
        return f"one of {names} must be {z}, so {z} goes from cells seeing all three"
    if technique == "simple colouring":
        opening = (
            f"the conjugate pairs of {digit} split into two colours, one of which holds {digit}"
        )
        if aux[0] == COLOUR_WRAP:
            return (
                f"{opening}; {geo.name(aux[1])} and {geo.name(aux[2])} share a colour and "
                "see each other, so that colour is false"
            )
        trapped = ", ".join(geo.name(c) for c, _ in eliminations)
        if len(eliminations) == 1:
            return f"{opening}; {trapped} sees both colours, so it cannot be {digit}"
        return f"{opening}; {trapped} see both colours, so they cannot be {digit}"
    if technique == "xy-chain":
        chain = " - ".join(geo.name(c) for c in cells)
        return (
            f"in the chain {chain}, if the first cell is not {digit} the "
            f"last one is, so {digit} goes from cells seeing both ends"
        )
    if technique == "trial and error":
        return (
            f"if {geo.name(cell)} were {digit}, singles would lead to a "
            f"contradiction ({_clash_text(geo, aux)}), so it is not {digit}"
        )
    if technique == GUESS:
        return (
            f"no technique applies; of {_digit_list(geo, digits_of(aux[0]))} in "
            f"{geo.name(cell)}, the solution has {digit}"
        )
    raise ValueError(f"unknown technique {technique!r}")


def make_hint(
    geo: Geometry,
    technique: str,
    cells: Sequence[int],
    digits: Sequence[int],
    placements: Pairs = (),
    eliminations: Pairs = (),
    aux: Sequence[int] = (),
) -> Hint:
    """A `Hint` of a technique with its level and explanation (see `explain`)."""
    return Hint(
        technique,
        TECHNIQUE_LEVEL[technique],
        tuple(cells),
        tuple(digits),
        placements=tuple(placements),
        eliminations=tuple(eliminations),
        explanation=explain(geo, technique, cells, digits, tuple(eliminations), aux),
    )


# A step of the compiled solver: (technique index, cells, digits, placements,
# eliminations, aux); the index counts TECHNIQUES, then GUESS.
Record = tuple[int, tuple[int, ...], tuple[int, ...], Pairs, Pairs, tuple[int, ...]]


def hint_from_record(geo: Geometry, record: Record) -> Hint:
    """The `Hint` of one step recorded by the compiled solver (`_logic`)."""
    index, cells, digits, placements, eliminations, aux = record
    name = TECHNIQUES[index].name if index < len(TECHNIQUES) else GUESS
    return make_hint(geo, name, cells, digits, placements, eliminations, aux)


class Contradiction(ValueError):
    """The board breaks the rules: two equal values share a unit."""


class LogicSolver:
    """Candidates of a partly filled grid, and the techniques that narrow them down."""

    def __init__(self, values: Sequence[int], geo: Geometry | None = None) -> None:
        """Start from placed values (0 = empty); candidates follow from the rules alone.

        Raises `Contradiction` when two equal values share a unit.
        """
        self.geo = geo if geo is not None else geometry_of(len(values))
        if self.geo.cells != len(values):
            raise ValueError(f"expected {self.geo.cells} cells, got {len(values)}")
        self.values = list(values)
        self._positions: list[list[int]] | None = None
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

    def positions(self) -> list[list[int]]:
        """For each unit, and each digit d at index d-1: where d fits in the unit.

        Bit i is set when the unit's i-th cell has d as a candidate. Cached until the
        candidates change.
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

    def restrict(self, cell: int, allowed: int) -> None:
        """Keep only the candidates of `cell` that are in the bitmask `allowed`."""
        self.cand[cell] &= allowed
        self._positions = None

    def place(self, cell: int, digit: int) -> None:
        """Put `digit` in `cell` and remove it from the cell's peers."""
        self._positions = None
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
        self._positions = None

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

    def next_step(self, max_level: int = 5, min_level: int = 1) -> Hint | None:
        """The easiest deduction available (techniques of levels min_level..max_level)."""
        for technique in TECHNIQUES:
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


def find_full_house(s: LogicSolver) -> Hint | None:
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
                return make_hint(geo, "full house", (empty,), (digit,), ((empty, digit),), (), (u,))
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
                return make_hint(
                    geo, "hidden single", (cell,), (digit,), ((cell, digit),), (), (u,)
                )
    return None


def find_naked_single(s: LogicSolver) -> Hint | None:
    """An empty cell with one candidate left takes it."""
    geo = s.geo
    for cell, c in enumerate(s.cand):
        if c and not c & (c - 1):
            digit = digits_of(c)[0]
            return make_hint(geo, "naked single", (cell,), (digit,), ((cell, digit),))
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
    positions = s.positions()
    for b in range(n):
        box_unit = 2 * n + b
        for digit in range(1, n + 1):
            where = positions[box_unit][digit - 1]
            if not where & (where - 1):
                continue  # fewer than two places
            for line, line_mask, box_mask in geo.crossings[box_unit]:
                if where & ~box_mask:
                    continue
                bit = 1 << (digit - 1)
                unit = geo.units[line]
                others = [unit[i] for i in range(n) if not line_mask >> i & 1]
                elim = _eliminations(s, others, bit)
                if elim:
                    box = geo.units[box_unit]
                    places = tuple(box[i] for i in range(n) if where >> i & 1)
                    return make_hint(geo, "pointing", places, (digit,), (), elim, (box_unit, line))
    return None


def find_claiming(s: LogicSolver) -> Hint | None:
    """A digit confined to one box inside a line is removed from the rest of that box."""
    geo = s.geo
    n = geo.size
    positions = s.positions()
    for line in range(2 * n):
        for digit in range(1, n + 1):
            where = positions[line][digit - 1]
            if not where & (where - 1):
                continue
            for box_unit, line_mask, box_mask in geo.crossings[line]:
                if where & ~line_mask:
                    continue
                bit = 1 << (digit - 1)
                box = geo.units[box_unit]
                others = [box[i] for i in range(n) if not box_mask >> i & 1]
                elim = _eliminations(s, others, bit)
                if elim:
                    unit = geo.units[line]
                    places = tuple(unit[i] for i in range(n) if where >> i & 1)
                    return make_hint(geo, "claiming", places, (digit,), (), elim, (line, box_unit))
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
                return make_hint(geo, name, group, tuple(digits_of(union)), (), elim, (u,))
    return None


def _hidden_subset(s: LogicSolver, k: int, level: int) -> Hint | None:
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
                return make_hint(geo, f"hidden {_SUBSET_NAMES[k]}", cells, group, (), elim, (u,))
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
BIG_FISH = "big fish"  # 5 lines and more, up to N/2: grids of 10x10 and larger


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


def _fish(s: LogicSolver, k: int, level: int) -> Hint | None:
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
                    name = _FISH_NAMES.get(k, BIG_FISH)
                    return make_hint(geo, name, pattern, (digit,), (), elim, aux)
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


def find_big_fish(s: LogicSolver) -> Hint | None:
    """A fish on 5 to N/2 lines, smallest first (larger ones mirror smaller ones)."""
    for k in range(5, s.geo.size // 2 + 1):
        step = _fish(s, k, 4)
        if step is not None:
            return step
    return None


# ---------------------------------------------------------------------------------------
# Wings


def find_xy_wing(s: LogicSolver) -> Hint | None:
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
                return make_hint(geo, "xy-wing", (pivot, a, b), digits, (), elim, aux)
    return None


def find_xyz_wing(s: LogicSolver) -> Hint | None:
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
                return make_hint(geo, "xyz-wing", (pivot, a, b), digits, (), elim, aux)
    return None


# ---------------------------------------------------------------------------------------
# Chains


def find_simple_colouring(s: LogicSolver) -> Hint | None:
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
                    return make_hint(geo, "simple colouring", cells, (digit,), (), elim, wrap)
            seen = [set().union(*(geo.peer_sets[c] for c in side)) for side in sides]
            members = set(component)
            trapped = sorted(c for c in seen[0] & seen[1] if c not in members and cand[c] & bit)
            if trapped:
                elim = tuple((c, digit) for c in trapped)
                cells = tuple(sorted(component))
                return make_hint(geo, "simple colouring", cells, (digit,), (), elim, (COLOUR_TRAP,))
    return None


def find_xy_chain(s: LogicSolver) -> Hint | None:
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
                        return make_hint(geo, "xy-chain", tuple(chain), (z,), (), elim)
                frontier = nxt
    return None


def reveal(s: LogicSolver, solution: Sequence[int]) -> Hint:
    """The "guess" step: the solution digit of an open cell with the fewest candidates."""
    geo = s.geo
    cell = min(
        (c for c in range(geo.cells) if not s.values[c]),
        key=lambda c: (s.cand[c].bit_count(), c),
    )
    digit = solution[cell]
    return make_hint(geo, GUESS, (cell,), (digit,), ((cell, digit),), (), (s.cand[cell],))


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


def find_trial_and_error(s: LogicSolver) -> Hint | None:
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
                return make_hint(geo, "trial and error", (cell,), (digit,), (), elim, reason)
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
    Technique("simple colouring", 4, find_simple_colouring),
    Technique("xy-chain", 4, find_xy_chain),
    Technique("naked quad", 4, find_naked_quad),
    Technique("hidden quad", 4, find_hidden_quad),
    Technique("jellyfish", 4, find_jellyfish),
    Technique(BIG_FISH, 4, find_big_fish),
    Technique("trial and error", 5, find_trial_and_error),
)

TECHNIQUE_LEVEL = {t.name: t.level for t in TECHNIQUES} | {GUESS: 6}


# ---------------------------------------------------------------------------------------
# Whole solves: the pure-Python twins of `rating.logical_solve` and `rating.level_within`


def logical_solve(
    values: Sequence[int], solution: Sequence[int], geo: Geometry | None = None
) -> list[Hint]:
    """Every step the logical solver takes from `values` to `solution`, guesses included."""
    solver = LogicSolver(values, geo)
    steps: list[Hint] = []
    while not solver.solved:
        step = solver.next_step()
        if step is None:
            step = reveal(solver, solution)
        solver.apply(step)
        steps.append(step)
    return steps


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
