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
from typing import cast

from .._base.rules import Rules, RulesKey, RulesTables, rules_key, rules_tables
from . import _variant
from .big import check_big_rules

__all__ = [
    "MAX_SIZE",
    "RuleList",
    "check_rules",
    "checked_record",
    "encode_batch",
    "encode_rules",
    "forget_records",
]

MAX_SIZE: int = _variant.MAX_SIZE


class RuleList(list[Rules | None]):
    """`run.read_rules`' answer for a sequence (a list of each puzzle's rule set, None where
    classic), which also holds what reading it learned, for `encode_batch` and
    `box_for` to use rather than look at every puzzle again: `firsts` maps each
    distinct `rules_key` to its first rule set (None for the classic one), in order of
    first appearance, and `which[i]` is the position of puzzle i's key in `firsts`. Not
    to be changed once made: a copy or a slice is a plain list.
    """

    which: array[int]
    firsts: dict[RulesKey, Rules | None]


def check_rules(rules: Rules, size: int, box: tuple[int, int] | None = None) -> None:
    """Raise ValueError when `rules` do not fit an N x N grid (boxes of `box`) or the
    engine's limits."""
    if size > MAX_SIZE:  # bigger grids: the general engine's path (big.py)
        check_big_rules(rules, size, box)
        return
    _checked_tables(rules, size, box)


def _checked_tables(rules: Rules, size: int, box: tuple[int, int] | None) -> RulesTables:
    """The tables of `rules` on an N x N grid of at most MAX_SIZE, once they are checked
    (ValueError as `check_rules`)."""
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
    return tables


def encode_rules(rules: Rules, size: int, box: tuple[int, int] | None = None) -> bytes:
    """The record of checked `rules` on an N x N grid with boxes of `box` (see the
    module docstring)."""
    return _encode_tables(rules_tables(rules, size, box))


def _encode_tables(tables: RulesTables) -> bytes:
    """The record of a rule set's tables (see the module docstring)."""
    words = [
        tables.size,
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

    A rule set is checked and encoded once per process: its record is kept under the
    rule set's value (`rules_key`: equal rule sets, however made, share one record,
    and a different one never meets another's), and for the last few objects asked
    with, under their identity too. Errors are not kept: raised each time.
    """
    by_id = _BY_ID.get((size, box))
    if by_id is None:
        by_id = _BY_ID.setdefault((size, box), {})
    hit = by_id.get(id(rules))
    if hit is not None and hit[0] is rules:  # the object of the last calls: no hash
        return hit[1]
    known = _known(size, box)
    key = rules_key(rules)
    record = known.get(key)
    if record is None:
        if size > MAX_SIZE:
            check_big_rules(rules, size, box)
            encoded = encode_rules(rules, size, box)
        else:  # the tables built once, for the check and the record
            encoded = _encode_tables(_checked_tables(rules, size, box))
        record = _remember(known, key, encoded)
    if len(by_id) >= _ID_SLOTS:
        by_id.clear()
    by_id[id(rules)] = (rules, record)  # the entry holds its rules: no other takes the id
    return record


# Checked records per (size, box), by the value of their rules (`rules_key`).
_Known = dict[RulesKey, bytes]
_RECORDS: dict[tuple[int, tuple[int, int] | None], _Known] = {}
_RECORD_SLOTS = 4096  # per (size, box); a process seeing more rule sets starts again
# The same records by the id of the rules object last asked with (one-puzzle calls and
# generators pass one object over and over; a killer's key costs ~0.7 us to hash).
_BY_ID: dict[tuple[int, tuple[int, int] | None], dict[int, tuple[Rules, bytes]]] = {}
_ID_SLOTS = 64
_CLASSIC = Rules()


def forget_records() -> None:
    """Drop every kept record, as in a process new to all rule sets (benchmarks)."""
    _RECORDS.clear()
    _BY_ID.clear()


def _known(size: int, box: tuple[int, int] | None) -> _Known:
    known = _RECORDS.get((size, box))
    if known is None:
        known = _RECORDS.setdefault((size, box), {})
    return known


def _remember(known: _Known, key: RulesKey, record: bytes) -> bytes:
    if len(known) >= _RECORD_SLOTS:
        known.clear()
    known[key] = record
    return record


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
    rule sets share one record, so the engine builds its tables once for a run of them.
    The per-puzzle passes run in C (`map`, `zip`, dict look-ups by identity, then by
    `rules_key`); only a rule set not seen before in this process is checked and
    encoded in Python. Raises ValueError naming the first puzzle whose rules do not fit
    (without the index when `single`: a one-puzzle call); no check at all for n = 0.
    """
    if n == 0:
        return b"", array("q")
    if rules is None or isinstance(rules, Rules):  # the common case: one record, starts 0
        return _record_of(rules, 0, size, box, single), _zeros(n)
    if type(rules) is RuleList and len(rules.which) == n == len(rules):  # read already
        return _encode_keyed(rules.which, rules.firsts, size, box, single)
    # A list holds its items, so their ids stay theirs while it is read.
    items = rules if type(rules) is list else list(rules)
    ids = list(map(id, items))
    distinct = dict(zip(ids, items, strict=True))  # in order of first appearance
    if len(distinct) == 1:
        return _record_of(items[0], 0, size, box, single), _zeros(n)
    if id(None) in distinct:
        distinct[id(None)] = _CLASSIC
    rule_sets = list(distinct.values())
    found = list(map(_known(size, box).get, map(rules_key, rule_sets)))
    if None in found:  # rule sets new to this process: checked, the first bad one named
        for k, key in enumerate(distinct):
            if found[k] is None:
                found[k] = _record_of(rule_sets[k], key, size, box, single, ids)
    records = cast(list[bytes], found)
    buffer, at = _pack(records)
    if not any(at):  # one record for all
        return records[0], _zeros(n)
    at_of_id = dict(zip(distinct, at, strict=True))
    return buffer, array("q", map(at_of_id.__getitem__, ids))


def _zeros(n: int) -> array[int]:
    """The starts of n puzzles that share one record."""
    return array("q", [0]) * n


def _pack(records: list[bytes]) -> tuple[bytes, list[int]]:
    """The records in one buffer, each different one once (equal records are mostly
    one object), and where each record starts in it, in 16-bit words."""
    at_of_record: dict[bytes, int] = {}
    words = 0
    for record in dict.fromkeys(records):
        at_of_record[record] = words
        words += len(record) // 2
    return b"".join(at_of_record), list(map(at_of_record.__getitem__, records))


def _encode_keyed(
    which: array[int],
    firsts: dict[RulesKey, Rules | None],
    size: int,
    box: tuple[int, int] | None,
    single: bool,
) -> tuple[bytes, array[int]]:
    """`encode_batch` of puzzles whose rules were read already (`run.read_rules`):
    `firsts` maps each distinct key to its first rule set, `which[i]` is the position
    of puzzle i's key in it. Each distinct rule set is looked up (or checked and
    encoded) once; the one pass over the puzzles is compiled (`gather_starts`)."""
    known = _known(size, box)
    records = []
    for position, (key, rules) in enumerate(firsts.items()):
        record = known.get(key)
        if record is None:  # new to this process: checked, the first puzzle with it named
            try:
                record = checked_record(_CLASSIC if rules is None else rules, size, box)
            except ValueError as error:
                if single:
                    raise
                raise ValueError(f"puzzle {which.index(position)}: {error}") from None
        records.append(record)
    if len(records) == 1:
        return records[0], _zeros(len(which))
    buffer, at = _pack(records)
    return buffer, _variant.gather_starts(array("q", at), which)


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
