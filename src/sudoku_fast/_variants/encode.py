"""Rules into the engines' form: one record of int16 words per rule set.

A record (the variant engine builds its tables from it, the twin reads it back) is

    size, flags (1 anti-knight, 2 anti-king, 4 non-consecutive),
    units: count, then count * size cells (the complete all-different sets),
    partial sets: count, then per set: length, cells,
    cages with a sum: count, then per cage: length, sum, cells,
    thermometers: count, then per thermometer: length, cells (bulb first).

A batch's records lie in one buffer; puzzle i's starts at starts[i], and puzzles with
the same rules share one record, so the engine builds its tables once for them.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from functools import lru_cache

from .._base.rules import Rules, rules_tables
from . import _variant
from .big import check_big_rules

__all__ = ["MAX_SIZE", "check_rules", "encode_batch", "encode_rules"]

MAX_SIZE: int = _variant.MAX_SIZE


def check_rules(rules: Rules, size: int, box: tuple[int, int] | None = None) -> None:
    """Raise ValueError when `rules` do not fit an N x N grid (boxes of `box`) or the
    engine's limits."""
    if size > MAX_SIZE:  # bigger grids: the general engine's path (big.py)
        check_big_rules(rules, size, box)
        return
    rules.check(size, box)
    tables = rules_tables(rules, size, box)
    limits = _variant.LIMITS
    for what, count in (
        ("units", len(tables.units)),
        ("cages", len(tables.cages)),
        ("thermos", len(tables.thermos)),
    ):
        if count > limits[what]:
            raise ValueError(f"rules: {count} {what}, more than the {limits[what]} supported")


@lru_cache(maxsize=4096)
def encode_rules(rules: Rules, size: int, box: tuple[int, int] | None = None) -> bytes:
    """The record of checked `rules` on an N x N grid with boxes of `box` (see the
    module docstring)."""
    tables = rules_tables(rules, size, box)
    words = [
        size,
        tables.anti_knight | tables.anti_king << 1 | tables.non_consecutive << 2,
        len(tables.units),
    ]
    for unit in tables.units:
        words += unit
    words.append(len(tables.partial))
    for group in tables.partial:
        words.append(len(group))
        words += group
    words.append(len(tables.cages))
    for cells, total in tables.cages:
        words += (len(cells), total)
        words += cells
    words.append(len(tables.thermos))
    for thermo in tables.thermos:
        words.append(len(thermo))
        words += thermo
    return array("h", words).tobytes()


def encode_batch(
    rules: Sequence[Rules], size: int, box: tuple[int, int] | None = None
) -> tuple[array[int], array[int]]:
    """(records, starts): the records of each puzzle's rules in one int16 buffer, and
    where puzzle i's begins (equal rule sets share one record)."""
    records = bytearray()
    starts = array("q", bytes(8 * len(rules)))
    seen: dict[Rules, int] = {}
    for i, item in enumerate(rules):
        at = seen.get(item)
        if at is None:
            at = seen[item] = len(records) // 2
            records += encode_rules(item, size, box)
        starts[i] = at
    words = array("h")
    words.frombytes(bytes(records))
    return words, starts
