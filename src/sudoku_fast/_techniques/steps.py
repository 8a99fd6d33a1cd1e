"""Steps of the technique solver in words: the one `explain` that words every step, the
`Hint` of a step recorded by the compiled solver, and candidates by the rules alone.

Shared by both twins: the compiled solver (`_logic.pyx`) records a step as numbers (a
`Record`), its pure-Python twin (`_logic_py.py`) as a `Step`; both become the same
`Hint` here.
"""

from __future__ import annotations

from collections.abc import Sequence

from .._base.grid import Geometry
from .._base.levels import (
    BIG_FISH,
    FISH_NAMES,
    GUESS,
    RULE_TECHNIQUES,
    SLOT_NAMES,
    TECHNIQUE_LEVEL,
)
from .._base.records import Hint
from .rules_geometry import RulesGeometry

__all__ = [
    "CLASH_CANDIDATE",
    "CLASH_EMPTY",
    "CLASH_NO_PLACE",
    "CLASH_VALUE",
    "COLOUR_TRAP",
    "COLOUR_WRAP",
    "RECORD_NAMES",
    "Contradiction",
    "Pairs",
    "Record",
    "after_step",
    "candidate_masks",
    "consecutive_neighbours",
    "digits_of",
    "explain",
    "hint_from_record",
    "make_hint",
]


def digits_of(mask: int) -> list[int]:
    """The digits (1-based) whose bits are set in `mask`, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length())
        mask ^= low
    return out


def _symbol(geo: Geometry, value: int) -> str:
    """How a value is written on this grid (its alphabet: 'A' for 10 on 16x16)."""
    return geo.symbols[value - 1] if 1 <= value <= geo.size else str(value)


def _digit_list(geo: Geometry, digits: Sequence[int]) -> str:
    return "/".join(_symbol(geo, d) for d in digits)


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


def _unit_kind(geo: Geometry, unit: int) -> str:
    """What a unit is: 'row', 'column', 'box', 'region', 'diagonal', 'window', ..."""
    return geo.unit_name(unit).rsplit(" ", 1)[0]


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
        kind = _unit_kind(geo, aux[1])
        return (
            f"in {geo.unit_name(aux[0])}, {digit} can only be in "
            f"{geo.unit_name(aux[1])}, so it goes from the rest of that {kind}"
        )
    if technique == "claiming":
        return (
            f"in {geo.unit_name(aux[0])}, {digit} can only be in "
            f"{geo.unit_name(aux[1])}, so it goes from the rest of that {_unit_kind(geo, aux[1])}"
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
    if technique in FISH_NAMES.values() or technique == BIG_FISH:
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
    if technique == "cage combination":
        combos = " or ".join(_digit_list(geo, digits_of(mask)) for mask in aux[1:])
        return (
            f"the cage {names} adds up to {aux[0]}: only {combos} fit its candidates, "
            "so the other digits go from its cells"
        )
    if technique == "thermometer":
        chain = " < ".join(geo.name(c) for c in cells)
        return f"on the thermometer {chain}, the digits out of reach of its order go"
    if technique == "45 rule":
        unit = geo.unit_name(aux[0])
        opening = (
            f"{unit} adds up to {aux[2]}; without its cages wholly inside, "
            f"{names} add up to {aux[1]}"
        )
        if len(cells) == 1:
            return f"{opening}, so {geo.name(cell)} is {digit}"
        return f"{opening}, so the digits that cannot make that sum go"
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
# eliminations, aux); the index counts TECHNIQUES, then GUESS, then (the twin's steps
# under killer cages and thermometers only) the techniques of those rules.
RECORD_NAMES: tuple[str, ...] = (*SLOT_NAMES, *(name for name, _, _ in RULE_TECHNIQUES))
Record = tuple[int, tuple[int, ...], tuple[int, ...], Pairs, Pairs, tuple[int, ...]]


def hint_from_record(geo: Geometry, record: Record) -> Hint:
    """The `Hint` of one step recorded by the compiled solver (`_logic`)."""
    index, cells, digits, placements, eliminations, aux = record
    return make_hint(geo, RECORD_NAMES[index], cells, digits, placements, eliminations, aux)


class Contradiction(ValueError):
    """The board breaks the rules: two equal values share a unit."""


def consecutive_neighbours(geo: Geometry) -> tuple[tuple[int, ...], ...] | None:
    """The cells that may not hold a digit one off a cell's (non-consecutive rules),
    or None when no rule says so."""
    if isinstance(geo, RulesGeometry) and geo.tables.non_consecutive:
        return geo.neighbours
    return None


def _one_off(digit: int) -> int:
    """The candidate bits of the digits one below and one above `digit`."""
    return (1 << digit) | (1 << (digit - 2) if digit > 1 else 0)


def candidate_masks(values: Sequence[int], geo: Geometry) -> list[int]:
    """Each cell's candidates by the rules alone (bit d-1 for digit d; 0 for a filled cell).

    Raises `Contradiction` when two equal values share a unit (or, under variant rules,
    two peers hold the same value or neighbours consecutive ones).
    """
    if geo.cells != len(values):
        raise ValueError(f"expected {geo.cells} cells, got {len(values)}")
    full = geo.all_digits
    cand = [0 if v else full for v in values]
    for cell, v in enumerate(values):
        if v:
            bit = 1 << (v - 1)
            for peer in geo.peers[cell]:
                if values[peer] == v:
                    raise Contradiction(f"{geo.name(cell)} and {geo.name(peer)} both hold {v}")
                cand[peer] &= ~bit
    near = consecutive_neighbours(geo)
    if near is not None:
        for cell, v in enumerate(values):
            if v:
                for other in near[cell]:
                    if values[other] and abs(values[other] - v) == 1:
                        raise Contradiction(
                            f"{geo.name(cell)} and {geo.name(other)} hold consecutive values"
                        )
                    cand[other] &= ~_one_off(v)
    return cand


def after_step(
    values: list[int], cand: list[int], geo: Geometry, placements: Pairs, eliminations: Pairs
) -> tuple[list[int], list[int]]:
    """Values and candidates after a step: each placement fills its cell and takes its
    digit from the cell's peers, each elimination takes one candidate."""
    values, cand = list(values), list(cand)
    near = consecutive_neighbours(geo)
    for cell, digit in placements:
        values[cell] = digit
        cand[cell] = 0
        for peer in geo.peers[cell]:
            cand[peer] &= ~(1 << (digit - 1))
        if near is not None:
            for other in near[cell]:
                cand[other] &= ~_one_off(digit)
    for cell, digit in eliminations:
        cand[cell] &= ~(1 << (digit - 1))
    return values, cand
