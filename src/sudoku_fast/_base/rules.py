"""Variant rules as data: one description every layer reads (engines, twin, CLI).

A `Rules` value lists what a puzzle adds to (or changes in) the classic rules: irregular
regions replacing the boxes (jigsaw), extra all-different cell sets (the diagonals of
Sudoku X, windoku's windows, disjoint groups, any list of cells), the anti-knight,
anti-king and non-consecutive constraints, killer cages (a sum, or none) and
thermometers. It is immutable and hashable, so it can key a cache.

The JSON form (`Rules.from_json`, `Rules.to_json`) is an object whose keys are all
optional; cells are 0-based row-major indices:

    {"regions": "111222333111222333...", "diagonals": true, "windoku": true,
     "disjoint": true, "extra": [[0, 10, 20]], "anti_knight": true, "anti_king": true,
     "non_consecutive": true, "cages": [{"cells": [0, 1, 9], "sum": 20}, {"cells": [2, 3]}],
     "thermos": [[48, 39, 31, 22]]}

`"size"` may appear too and must then agree with the grid. Unknown keys are an error:
a rule silently dropped would give a wrong answer.
"""

from __future__ import annotations

import json
import operator
from array import array
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from functools import lru_cache
from itertools import chain, repeat
from typing import Any, Literal, TypeAlias

from .grid import default_box

__all__ = [
    "PRESETS",
    "Cage",
    "Preset",
    "Rules",
    "RulesKey",
    "RulesTables",
    "as_rules",
    "disjoint_cells",
    "region_cells",
    "rules_key",
    "rules_tables",
    "window_cells",
]

Preset = Literal["x", "diagonal", "windoku", "hyper", "disjoint", "anti-knight", "anti-king",
                 "non-consecutive"]  # fmt: skip

# Preset name -> the flag it sets.
PRESETS: dict[str, str] = {
    "x": "diagonals",
    "diagonal": "diagonals",
    "diagonals": "diagonals",
    "windoku": "windoku",
    "hyper": "windoku",
    "disjoint": "disjoint",
    "anti-knight": "anti_knight",
    "anti-king": "anti_king",
    "non-consecutive": "non_consecutive",
}

_FLAGS = ("diagonals", "windoku", "disjoint", "anti_knight", "anti_king", "non_consecutive")
_KEYS = {"size", "regions", "extra", "cages", "thermos", *_FLAGS}
_INT_TYPE = {int}
_BOOL_TYPE = {bool}


def _cells(value: object, what: str) -> tuple[int, ...]:
    """A tuple of cell indices, or TypeError naming `what`."""
    # The common forms, checked in C.
    if (type(value) is tuple or type(value) is list) and _INT_TYPE.issuperset(map(type, value)):
        return tuple(value)
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise TypeError(f"{what}: expected a list of cell indices, not {type(value).__name__}")
    cells = tuple(value)
    for cell in cells:
        if isinstance(cell, bool) or not isinstance(cell, int):
            raise TypeError(f"{what}: cell {cell!r} is not an int")
    return cells


@dataclass(frozen=True, init=False)
class Cage:
    """A killer cage: its cells hold different digits adding up to `total` (None: any
    sum). The same object describes the rule (`Rules.cages`) and its drawing (the
    renderer's overlays): a dashed outline with the total in its first cell's corner.

    Parameters
    ----------
    cells : iterable of int
        The cage's cells (0-based, row-major).
    total : int, optional
        The sum of its digits, written in the corner; None: any sum (the outline alone).

    Examples
    --------
    >>> Cage([0, 1, 9], 20)
    Cage(cells=(0, 1, 9), total=20)
    """

    cells: tuple[int, ...]
    total: int | None

    def __init__(self, cells: Iterable[int], total: int | None = None) -> None:
        if total is not None and (isinstance(total, bool) or not isinstance(total, int)):
            raise TypeError(f"cage total must be an int or None, not {total!r}")
        checked = _cells(cells, "cage")
        if not checked:
            raise ValueError("cage: needs at least one cell")
        object.__setattr__(self, "cells", checked)
        object.__setattr__(self, "total", total)


def _checked_cage(cells: tuple[int, ...], total: int | None) -> Cage:
    """A Cage of cells and a total `Cage()` would accept as they are (a non-empty tuple
    of ints; an int or None), made without checking them again."""
    cage = object.__new__(Cage)
    object.__setattr__(cage, "cells", cells)
    object.__setattr__(cage, "total", total)
    return cage


_CAGE_KEYS = {"cells", "sum"}


@dataclass(frozen=True)
class Rules:
    """The rules a puzzle adds to rows, columns and boxes (see the module docstring).

    Parameters
    ----------
    regions : str or None
        N*N labels, one character per cell: cells with the same label form a region,
        and the regions replace the boxes (jigsaw).
    diagonals, windoku, disjoint : bool
        The two main diagonals; the windows between the boxes (square boxes only); the
        groups of cells at the same place in every box: each is an all-different region.
    extra : tuple of cell tuples
        Further all-different cell sets; a set of N cells holds every digit.
    anti_knight, anti_king : bool
        Cells a knight's (king's) move apart hold different digits.
    non_consecutive : bool
        Orthogonally adjacent cells never hold consecutive digits.
    cages : tuple of Cage
        Killer cages: different digits, adding up to the cage's total when it has one.
    thermos : tuple of cell tuples
        Thermometers, bulb first: digits strictly increase from the bulb.

    Examples
    --------
    >>> Rules.named("x").diagonals
    True
    >>> Rules.from_json({"cages": [{"cells": [0, 1], "sum": 3}]}).cages
    (Cage(cells=(0, 1), total=3),)
    """

    regions: str | None = None
    diagonals: bool = False
    windoku: bool = False
    disjoint: bool = False
    extra: tuple[tuple[int, ...], ...] = ()
    anti_knight: bool = False
    anti_king: bool = False
    non_consecutive: bool = False
    cages: tuple[Cage, ...] = ()
    thermos: tuple[tuple[int, ...], ...] = field(default=())

    def __post_init__(self) -> None:
        fields = self.__dict__
        if self.regions is not None and not isinstance(self.regions, str):
            raise TypeError(f"regions must be a str of labels, not {type(self.regions).__name__}")
        if set(map(type, map(fields.__getitem__, _FLAGS))) != _BOOL_TYPE:  # a C pass
            for flag in _FLAGS:
                if not isinstance(getattr(self, flag), bool):
                    raise TypeError(f"{flag} must be a bool, not {getattr(self, flag)!r}")
        extra = _cell_sets(self.extra, "extra set")
        object.__setattr__(self, "extra", extra)
        cages = self.cages if type(self.cages) is tuple else _items(self.cages)
        if not all(map(isinstance, cages, repeat(Cage))):
            for k, cage in enumerate(cages):
                if not isinstance(cage, Cage):
                    raise TypeError(f"cage {k}: expected a Cage, not {type(cage).__name__}")
        object.__setattr__(self, "cages", cages)
        thermos = _cell_sets(self.thermos, "thermometer")
        object.__setattr__(self, "thermos", thermos)
        flags = (
            self.diagonals
            | self.windoku << 1
            | self.disjoint << 2
            | self.anti_knight << 3
            | self.anti_king << 4
            | self.non_consecutive << 5
        )
        # What equality and hashing compare (see `_rules_key`). Not a field: neither
        # shown nor written; the fields cannot change after this (frozen), nor can it.
        object.__setattr__(self, "_key", _rules_key(self.regions, flags, extra, cages, thermos))

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine: bytes | tuple[Any, ...] = self.__dict__["_key"]
        theirs: bytes | tuple[Any, ...] = other.__dict__["_key"]
        return mine == theirs

    def __hash__(self) -> int:
        return hash(self.__dict__["_key"])

    def __reduce__(self) -> tuple[type[Rules], tuple[Any, ...]]:
        # The fields alone: the key is made again where the copy is read (its bytes are
        # in this machine's byte order, and another version may make it otherwise).
        return (Rules, tuple(map(self.__dict__.__getitem__, _FIELDS)))

    # ------------------------------------------------------------------ building

    @classmethod
    def named(cls, *names: str) -> Rules:
        """The rules of one or more presets: "x" (or "diagonal"), "windoku" (or
        "hyper"), "disjoint", "anti-knight", "anti-king", "non-consecutive".

        Parameters
        ----------
        *names : str
            Preset names; a name may also hold several, joined by commas.

        Returns
        -------
        Rules

        Raises
        ------
        ValueError
            For an unknown name.

        Examples
        --------
        >>> Rules.named("x", "anti-knight") == Rules(diagonals=True, anti_knight=True)
        True
        """
        flags: dict[str, Any] = {}
        for joined in names:
            if not isinstance(joined, str):
                raise TypeError(f"a preset name must be a str, not {type(joined).__name__}")
            for name in joined.split(","):
                key = name.strip().lower().replace("_", "-")
                if key not in PRESETS:
                    known = ", ".join(sorted(PRESETS))
                    raise ValueError(f"unknown variant {name.strip()!r} (known: {known})")
                flags[PRESETS[key]] = True
        return cls(**flags)

    @classmethod
    def from_json(cls, document: Mapping[str, Any] | str) -> Rules:
        """Read the JSON form (a mapping, or its text).

        Parameters
        ----------
        document : mapping or str
            The rules object (see the module docstring) or a JSON text of it.

        Returns
        -------
        Rules

        Raises
        ------
        ValueError
            Malformed JSON, an unknown key, or a value of the wrong shape (named).
        TypeError
            When `document` is neither a mapping nor a str.

        Examples
        --------
        >>> Rules.from_json('{"diagonals": true, "anti_king": true}').anti_king
        True
        """
        if isinstance(document, str):
            try:
                document = json.loads(document)
            except json.JSONDecodeError as error:
                raise ValueError(f"rules: not valid JSON ({error})") from None
        if not isinstance(document, Mapping):
            raise TypeError(f"rules must be a JSON object, not {type(document).__name__}")
        unknown = sorted(set(document) - _KEYS)
        if unknown:
            raise ValueError(
                f"rules: unknown key {unknown[0]!r} (known: {', '.join(sorted(_KEYS))})"
            )
        try:
            cages = []
            for k, cage in enumerate(_items(document.get("cages", ()))):
                # What json.loads gives, checked in C passes; anything else, one by one.
                if type(cage) is dict and "cells" in cage and cage.keys() <= _CAGE_KEYS:
                    cells, total = cage["cells"], cage.get("sum")
                    if (
                        type(cells) is list
                        and cells
                        and set(map(type, cells)) == _INT_TYPE
                        and (total is None or type(total) is int)
                    ):
                        cages.append(_checked_cage(tuple(cells), total))
                        continue
                if not isinstance(cage, Mapping) or "cells" not in cage:
                    raise ValueError(f"cage {k}: expected an object with 'cells'")
                extra_keys = sorted(set(cage) - {"cells", "sum"})
                if extra_keys:
                    raise ValueError(f"cage {k}: unknown key {extra_keys[0]!r}")
                cells = _cells(cage["cells"], f"cage {k}")
                cages.append(Cage(cells, cage.get("sum")))
            rules = cls(
                regions=document.get("regions"),
                extra=document.get("extra", ()),
                cages=tuple(cages),
                thermos=document.get("thermos", ()),
                **{flag: document.get(flag, False) for flag in _FLAGS},
            )
        except TypeError as error:
            raise ValueError(f"rules: {error}") from None
        size = document.get("size")
        if size is not None:
            if isinstance(size, bool) or not isinstance(size, int):
                raise ValueError(f"rules: size must be an int, not {size!r}")
            rules.check(size)
        return rules

    def to_json(self) -> dict[str, Any]:
        """The JSON form: only the rules that are set, in a fixed key order.

        Returns
        -------
        dict
            `json.dumps` writes it; `Rules.from_json` reads it back to an equal value.

        Examples
        --------
        >>> Rules(diagonals=True, cages=(Cage((0, 1), 3),)).to_json()
        {'diagonals': True, 'cages': [{'cells': [0, 1], 'sum': 3}]}
        """
        out: dict[str, Any] = {}
        if self.regions is not None:
            out["regions"] = self.regions
        for flag in ("diagonals", "windoku", "disjoint"):
            if getattr(self, flag):
                out[flag] = True
        if self.extra:
            out["extra"] = [list(s) for s in self.extra]
        for flag in ("anti_knight", "anti_king", "non_consecutive"):
            if getattr(self, flag):
                out[flag] = True
        if self.cages:
            out["cages"] = [
                {"cells": list(c.cells), **({} if c.total is None else {"sum": c.total})}
                for c in self.cages
            ]
        if self.thermos:
            out["thermos"] = [list(t) for t in self.thermos]
        return out

    def dumps(self) -> str:
        """The compact JSON text of `to_json` (one line)."""
        return json.dumps(self.to_json(), separators=(",", ":"))

    def merge(self, other: Rules) -> Rules:
        """Both rule sets at once (flags or-ed, sets and cages joined).

        Raises
        ------
        ValueError
            When both give different `regions`.
        """
        if self.regions is not None and other.regions is not None and self.regions != other.regions:
            raise ValueError("rules: two different region layouts cannot be merged")
        return Rules(
            regions=self.regions if self.regions is not None else other.regions,
            extra=self.extra + other.extra,
            cages=self.cages + other.cages,
            thermos=self.thermos + other.thermos,
            **{flag: getattr(self, flag) or getattr(other, flag) for flag in _FLAGS},
        )

    @property
    def is_classic(self) -> bool:
        """True when no rule is set (the classic rules)."""
        return self == _CLASSIC_RULES

    # ------------------------------------------------------------------ checking

    def check(self, size: int, box: tuple[int, int] | None = None) -> None:
        """Raise ValueError when the rules do not fit an N x N grid, naming the rule,
        the item and the reason.

        Parameters
        ----------
        size : int
            N, the grid's side.
        box : (rows, cols) or None
            The grid's box shape (None: the size's default one).

        Raises
        ------
        ValueError
            A region layout not of N*N labels in N regions of N cells, a cell out of
            range, a set repeating a cell or larger than N, a cage sum no N distinct
            digits reach, a thermometer longer than N, windoku or disjoint groups on a
            size without boxes (windoku: square boxes), non-consecutive below 4x4.
        """
        cells = size * size

        def check_cells(group: Sequence[int], what: str, longest: int) -> None:
            if not group:
                raise ValueError(f"{what}: no cells")
            if min(group) < 0 or max(group) >= cells:  # the loop below only names it
                for cell in group:
                    if not 0 <= cell < cells:
                        raise ValueError(f"{what}: cell {cell} is outside the {size}x{size} grid")
            if len(set(group)) != len(group):
                raise ValueError(f"{what}: a cell appears twice")
            if len(group) > longest:
                raise ValueError(f"{what}: {len(group)} cells, more than the {longest} digits")

        if self.regions is not None:
            if len(self.regions) != cells:
                raise ValueError(f"regions: {len(self.regions)} labels for {cells} cells")
            for label in dict.fromkeys(self.regions):  # in order of first appearance
                count = self.regions.count(label)
                if count != size:
                    raise ValueError(f"regions: region {label!r} has {count} cells, not {size}")
        box = default_box(size) if box is None else box
        if self.windoku and (box is None or box[0] != box[1]):
            raise ValueError(f"windoku: a {size}x{size} grid has no square boxes")
        if self.disjoint and (box is None or min(box) < 2):
            raise ValueError(f"disjoint: a {size}x{size} grid has no boxes")
        if self.non_consecutive and size < 4:
            raise ValueError(f"non_consecutive: a {size}x{size} grid has no solution")
        for k, group in enumerate(self.extra):
            check_cells(group, f"extra set {k}", size)
        # All cages at once in the common case (a killer has 30-odd); one by one, to
        # name the first that does not fit, otherwise.
        if self.cages and not _cages_fit(self.cages, size):
            self._check_cages(size, check_cells)
        for k, thermo in enumerate(self.thermos):
            check_cells(thermo, f"thermometer {k}", size)

    def _check_cages(
        self, size: int, check_cells: Callable[[Sequence[int], str, int], None]
    ) -> None:
        """The cages checked one by one: the first one that does not fit raises, named."""
        covered: set[int] = set()
        for k, cage in enumerate(self.cages):
            check_cells(cage.cells, f"cage {k}", size)
            if not covered.isdisjoint(cage.cells):
                raise ValueError(f"cage {k}: shares a cell with an earlier cage")
            covered.update(cage.cells)
            if cage.total is not None:
                n = len(cage.cells)
                low, high = n * (n + 1) // 2, n * (2 * size - n + 1) // 2
                if not low <= cage.total <= high:
                    raise ValueError(
                        f"cage {k}: sum {cage.total} is outside {low}..{high} for {n} cells"
                    )


def _cages_fit(cages: tuple[Cage, ...], size: int) -> bool:
    """True when every cage fits an N x N grid: cells inside it, no cell twice in one
    cage or in two, at most N cells, a sum N distinct digits reach (`Rules.check`'s
    cage rules, for a killer's 30-odd cages at a time rather than one by one)."""
    cells = [cell for cage in cages for cell in cage.cells]
    if min(cells) < 0 or max(cells) >= size * size or len(set(cells)) != len(cells):
        return False
    for cage in cages:
        n = len(cage.cells)
        if n > size or (
            cage.total is not None
            and not n * (n + 1) // 2 <= cage.total <= n * (2 * size - n + 1) // 2
        ):
            return False
    return True


_CAGE_CELLS: Callable[[Cage], tuple[int, ...]] = operator.attrgetter("cells")
_CAGE_TOTAL: Callable[[Cage], int | None] = operator.attrgetter("total")


# The narrowest signed array type whose range (its lowest value left for "no sum") holds
# every number of a rule set: a 9x9 rule set's numbers all fit one byte each.
_KEY_TYPES = [
    (code, -(2 ** (8 * width - 1))) for code, width in (("b", 1), ("h", 2), ("i", 4), ("q", 8))
]


def _rules_key(
    regions: str | None,
    flags: int,
    extra: tuple[tuple[int, ...], ...],
    cages: tuple[Cage, ...],
    thermos: tuple[tuple[int, ...], ...],
) -> bytes | tuple[Any, ...]:
    """The value a rule set is compared and hashed by: equal for equal rule sets only.

    One `bytes`: the numbers (flags; per list of cell sets its count, each set's length
    and all its cells; the cages' totals) in the narrowest signed type that holds them
    all, after a byte naming that type, then the regions' labels. The counts and lengths
    say where each part ends, so no two rule sets share a key. A batch's rule sets are
    hashed and compared once per call (to share their engine records): a short bytes
    object is hashed in one pass of C, caches its hash and compares with one memcmp,
    where a tuple of ints costs a call per number each time (a 9x9 killer's ~140
    numbers: ~2 us a hash, as much a compare). Numbers beyond 64 bits (only in rule
    sets the checks reject later) make a tuple of the same parts.
    """
    cells = tuple(map(_CAGE_CELLS, cages))
    totals = tuple(map(_CAGE_TOTAL, cages))
    head = [flags, len(extra), *map(len, extra), *chain.from_iterable(extra)]
    head += [len(cells), *map(len, cells), *chain.from_iterable(cells)]
    tail = [len(thermos), *map(len, thermos), *chain.from_iterable(thermos)]
    given = [total for total in totals if total is not None]
    low = min(min(head), min(tail), min(given, default=0))
    high = max(max(head), max(tail), max(given, default=0))
    fits = [(code, no) for code, no in _KEY_TYPES if no < low and high < -no]
    if not fits:
        return (regions, tuple(head), totals, tuple(tail))
    code, no_total = fits[0]
    numbers = head + [no_total if total is None else total for total in totals] + tail
    labels = b"" if regions is None else b"r" + regions.encode("utf-8", "surrogatepass")
    return code.encode() + array(code, numbers).tobytes() + labels


def _cell_sets(value: object, what: str) -> tuple[tuple[int, ...], ...]:
    """A tuple of cell tuples (`_items` of `_cells`), or TypeError naming `what` k."""
    if type(value) is tuple and not value:  # the default: nothing to read
        return ()
    return tuple(_cells(cells, f"{what} {k}") for k, cells in enumerate(_items(value)))


def _items(value: object) -> tuple[Any, ...]:
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
        raise TypeError(f"expected a list, not {type(value).__name__}")
    return tuple(value)


_CLASSIC_RULES = Rules()
_FIELDS = tuple(item.name for item in fields(Rules))

# What a rule set is compared and hashed by: plain bytes (a tuple in rare cases), equal
# for equal rule sets (see `_rules_key`). A C call, for `map` over a batch's rule sets.
RulesKey: TypeAlias = bytes | tuple[Any, ...]
rules_key: Callable[[Rules], RulesKey] = operator.attrgetter("_key")


def as_rules(rules: object) -> Rules | None:
    """A `Rules` (None for classic rules) from what `rules=` takes: a Rules, a JSON
    mapping or text, a preset name ("x", "windoku,anti-knight", ...) or None.

    Raises TypeError for anything else, ValueError for bad content.
    """
    if rules is None:
        return None
    if isinstance(rules, Rules):
        out = rules
    elif isinstance(rules, Mapping):
        out = Rules.from_json(rules)
    elif isinstance(rules, str):
        out = Rules.from_json(rules) if rules.lstrip().startswith("{") else Rules.named(rules)
    else:
        raise TypeError(
            "rules must be a Rules, a JSON object or text, or a preset name, "
            f"not {type(rules).__name__}"
        )
    return None if out.is_classic else out


# ---------------------------------------------------------------------------------------
# The constraint tables the engines are built from


@dataclass(frozen=True)
class RulesTables:
    """The constraints of a rule set on an N x N grid, as plain cell lists.

    `units` are the complete all-different sets (N cells: every digit once): rows,
    columns, boxes or regions, diagonals, windows, disjoint groups, extra sets of N
    cells. `partial` are the all-different sets of fewer cells (shorter extra sets and
    cages without a sum): they only make their cells peers. `cages` are (cells, total
    or 0) pairs, `thermos` cell tuples bulb first.
    """

    size: int
    units: tuple[tuple[int, ...], ...]
    partial: tuple[tuple[int, ...], ...]
    anti_knight: bool
    anti_king: bool
    non_consecutive: bool
    cages: tuple[tuple[tuple[int, ...], int], ...]
    thermos: tuple[tuple[int, ...], ...]


@lru_cache(maxsize=256)
def _fixed_units(
    size: int,
    box: tuple[int, int] | None,
    jigsaw: bool,
    diagonals: bool,
    windoku: bool,
    disjoint: bool,
) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """The units that depend on the grid and the flags only, as (rows, columns, boxes
    unless `jigsaw`; diagonals, windows, disjoint groups): built once per shape."""
    n = size
    units = [tuple(range(r * n, r * n + n)) for r in range(n)]
    units += [tuple(range(c, n * n, n)) for c in range(n)]
    if not jigsaw and box is not None and box[0] > 1:  # (1, N) boxes are the rows again
        rows, cols = box
        units += [
            tuple((top + i) * n + left + j for i in range(rows) for j in range(cols))
            for top in range(0, n, rows)
            for left in range(0, n, cols)
        ]
    after: list[tuple[int, ...]] = []
    if diagonals:
        after.append(tuple(range(0, n * n, n + 1)))
        after.append(tuple(i * n + n - 1 - i for i in range(n)))
    if windoku and box is not None:
        after += window_cells(size, box)
    if disjoint and box is not None:
        after += disjoint_cells(size, box)
    return tuple(units), tuple(after)


@lru_cache(maxsize=4096)  # the layers after the engines build a jigsaw's tables again
def region_cells(regions: str) -> tuple[tuple[int, ...], ...]:
    """The cells of each region of a layout of labels (one per cell), regions in the
    order their labels first appear, cells in order.

    Examples
    --------
    >>> region_cells("aab")
    ((0, 1), (2,))
    """
    by_label: dict[str, list[int]] = {}
    for cell, label in enumerate(regions):
        by_label.setdefault(label, []).append(cell)
    return tuple(map(tuple, by_label.values()))


def _region_units(
    size: int,
    box: tuple[int, int] | None,
    regions: str | None,
    diagonals: bool,
    windoku: bool,
    disjoint: bool,
) -> tuple[tuple[int, ...], ...]:
    """Rows, columns, boxes or regions, diagonals, windows, disjoint groups, in that order."""
    grid, after = _fixed_units(size, box, regions is not None, diagonals, windoku, disjoint)
    if regions is None:
        return grid + after
    return (*grid, *region_cells(regions), *after)


def window_cells(size: int, box: tuple[int, int]) -> list[tuple[int, ...]]:
    """The windoku windows of an N x N grid with square boxes of `box`: the box-sized
    squares one cell in from the boxes' corners (9x9: four windows)."""
    n, b = size, box[0]
    return [
        tuple((top + i) * n + left + j for i in range(b) for j in range(b))
        for top in range(1, n - b, b + 1)
        for left in range(1, n - b, b + 1)
    ]


def disjoint_cells(size: int, box: tuple[int, int]) -> list[tuple[int, ...]]:
    """The disjoint groups of an N x N grid with boxes of `box`: the cells at the same
    place in every box."""
    n, (rows, cols) = size, box
    return [
        tuple((top + i) * n + left + j for top in range(0, n, rows) for left in range(0, n, cols))
        for i in range(rows)
        for j in range(cols)
    ]


def rules_tables(rules: Rules, size: int, box: tuple[int, int] | None = None) -> RulesTables:
    """The constraint tables of checked `rules` on an N x N grid with boxes of `box`
    (None: the size's default shape) (see RulesTables)."""
    box = default_box(size) if box is None else box
    units = _region_units(size, box, rules.regions, rules.diagonals, rules.windoku, rules.disjoint)
    full = tuple(s for s in rules.extra if len(s) == size)
    partial = tuple(s for s in rules.extra if len(s) < size)
    partial += tuple(c.cells for c in rules.cages if c.total is None)
    return RulesTables(
        size=size,
        units=units + full,
        partial=partial,
        anti_knight=rules.anti_knight,
        anti_king=rules.anti_king,
        non_consecutive=rules.non_consecutive,
        cages=tuple((c.cells, c.total) for c in rules.cages if c.total is not None),
        thermos=rules.thermos,
    )
