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

__all__ = ["MAX_SIZE", "check_rules", "checked_record", "encode_batch", "encode_rules"]

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


def checked_record(rules: Rules, size: int, box: tuple[int, int] | None = None) -> bytes:
    """The record of `rules` on an N x N grid with boxes of `box`, once `check_rules`
    has passed them (ValueError as `check_rules`).

    A batch or a one-puzzle call passes the same rule set over and over, so the record
    is looked up by the object's identity first (no hash of the rules, no check again),
    then by value (an equal rule set made anew: one hash of it).
    """
    known = _known(size, box)
    hit = known.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    return _remember(known, rules, _checked_record(rules, size, box))


# Records by the id of their rules, per (size, box). An entry holds its rules, so no
# other object can take their id while it is kept.
_Known = dict[int, tuple[Rules, bytes]]
_BY_IDENTITY: dict[tuple[int, tuple[int, int] | None], _Known] = {}
_IDENTITY_SLOTS = 1024
_CLASSIC = Rules()


def _known(size: int, box: tuple[int, int] | None) -> _Known:
    known = _BY_IDENTITY.get((size, box))
    if known is None:
        known = _BY_IDENTITY.setdefault((size, box), {})
    return known


def _remember(known: _Known, rules: Rules, record: bytes) -> bytes:
    if len(known) >= _IDENTITY_SLOTS:
        known.clear()  # a batch of many distinct rule sets: start again
    known[id(rules)] = (rules, record)
    return record


@lru_cache(maxsize=4096)
def _checked_record(rules: Rules, size: int, box: tuple[int, int] | None) -> bytes:
    check_rules(rules, size, box)  # an error is not cached: raised again each time
    return encode_rules(rules, size, box)


def encode_batch(
    rules: Rules | Sequence[Rules | None],
    n: int,
    size: int,
    box: tuple[int, int] | None = None,
    *,
    single: bool = False,
) -> tuple[bytes, array[int]]:
    """(records, starts) of n puzzles: the records of their rules in one buffer of int16
    words, and the word at which puzzle i's begins.

    `rules` is one rule set for every puzzle, or one per puzzle (None: classic). Equal
    rule sets share one record, so the engine builds its tables once for a run of them;
    each distinct object is looked up once (by identity, see `checked_record`) and the
    per-puzzle passes run in C (`map`, `zip`). Raises ValueError naming the first puzzle
    whose rules do not fit (without the index when `single`: a one-puzzle call);
    no check at all for n = 0.
    """
    starts = array("q", bytes(8 * n))
    if n == 0:
        return b"", starts
    if rules is None or isinstance(rules, Rules):  # the common case: one record, starts 0
        return _record_of(rules, 0, size, box, single), starts
    # A list holds its items, so their ids stay theirs for the whole loop.
    items = rules if type(rules) is list else list(rules)
    ids = list(map(id, items))
    known = _known(size, box)
    parts: list[bytes] = []
    at_of_record: dict[bytes, int] = {}
    at_of_id: dict[int, int] = {}
    words = 0
    # The previous distinct rule set and its record's start: a batch read from a file
    # has one object per puzzle, mostly equal to the one before (one compare, no hash).
    last: Rules | None = None
    last_at = 0
    for key, item in dict(zip(ids, items, strict=True)).items():  # in order of first appearance
        hit = known.get(key)
        if hit is not None and hit[0] is item:
            record = hit[1]
        elif last is not None and item == last:
            at_of_id[key] = last_at
            continue
        else:
            record = _record_of(item, key, size, box, single, ids)
        at = at_of_record.get(record)
        if at is None:
            at = at_of_record[record] = words
            parts.append(record)
            words += len(record) // 2
        at_of_id[key] = last_at = at
        last = item
    if len(parts) == 1:
        return parts[0], starts
    return b"".join(parts), array("q", map(at_of_id.__getitem__, ids))


def _record_of(
    rules: Rules | None,
    key: int,
    size: int,
    box: tuple[int, int] | None,
    single: bool,
    ids: list[int] | None = None,
) -> bytes:
    """The checked record of the rules whose id is `key` (None: classic); a ValueError
    names the first puzzle that has them (the index of `key` in `ids`, 0 without)."""
    try:
        return checked_record(_CLASSIC if rules is None else rules, size, box)
    except ValueError as error:
        if single:  # the call's only puzzle: no index to name
            raise
        index = 0 if ids is None else ids.index(key)
        raise ValueError(f"puzzle {index}: {error}") from None
