"""Canonical forms of puzzles with variant rules: the givens and the rules move together.

A symmetry of a variant puzzle is a permutation of the cells (and, where the rules
allow it, of the digits) that maps its rule set to a rule set of the same kind: the
puzzle and its rules are moved together, and the moved pair has the same solutions,
moved alike. Which cell permutations qualify depends on the rules:

* rules that draw a shape on the grid or tie neighbouring cells (irregular regions,
  extra cell sets, killer cages, thermometers, anti-knight, anti-king,
  non-consecutive) keep their shape only under the 8 symmetries of the square
  (rotations, reflections, transposition);
* rules given by fixed cells sets (the boxes, the two diagonals, the windoku windows,
  the disjoint groups) keep their meaning under every permutation of the rows and of
  the columns, with or without transposition, that maps the union of those sets onto
  itself (they are all-different units alike: on 9x9 the boxes and the disjoint groups
  may trade places). 9x9: 96 elements for Sudoku X, 128 for windoku, 5,184 for disjoint
  groups.

Every candidate permutation is checked against the fixed families (boxes stay boxes,
diagonals diagonals, ...) before it joins the group. Digits: any relabelling where no
rule names digits; only the reversal d -> N+1-d with non-consecutive; none with killer
sums or thermometers.

The canonical form is the smallest (givens, rules) pair over the group: givens compared
cell by cell (empty first, digits relabelled by first appearance where every
relabelling is allowed), then the moved rules in a normal form (regions labelled by
first appearance, cells of each cage and extra set sorted, cages, sets and thermometers
sorted). Two pairs get the same key exactly when one is a symmetry of the other under
the group. Grids larger than 9x9 use the 8 symmetries of the square for the fixed
sets too (a subgroup: equal keys still mean equivalent puzzles, but some equivalent
pairs get different keys).
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from .._base.grid import Geometry, format_values
from .._base.rules import Cage, Rules, disjoint_cells, window_cells
from . import _canon

__all__ = [
    "MAX_SEARCHED_SIZE",
    "DigitFreedom",
    "VariantCanon",
    "canonical_pair",
    "digit_freedom",
    "move_pair",
    "preserved_group",
    "random_pair",
]

DigitFreedom = Literal["all", "reverse", "none"]

# Grids above this size: the fixed families use the square's 8 symmetries rather than a
# search over line orders (16x16 has 24^4 * 24 band-preserving row orders alone).
MAX_SEARCHED_SIZE = 9

# Region labels of a canonical rule set, in order of first appearance.
REGION_LABELS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0@#$%&*+=?!^~<>"

Perm = tuple[int, ...]  # output cell i takes input cell perm[i]
Families = tuple[frozenset[frozenset[int]], ...]


@dataclass(frozen=True)
class VariantCanon:
    """The canonical pair: givens (N*N values, 0 = empty) and rules, and its key text."""

    values: tuple[int, ...]
    rules: Rules
    key: str


def digit_freedom(rules: Rules) -> DigitFreedom:
    """Which relabellings of the digits keep `rules` the same rule set."""
    if rules.thermos or any(cage.total is not None for cage in rules.cages):
        return "none"  # a sum or an order names digits
    if rules.non_consecutive:
        return "reverse"  # |a - b| != 1 survives d -> N+1-d only
    return "all"


def _draws_shapes(rules: Rules) -> bool:
    """Whether a rule has a shape or ties neighbouring cells (see the module doc)."""
    return bool(
        rules.regions is not None
        or rules.extra
        or rules.cages
        or rules.thermos
        or rules.anti_knight
        or rules.anti_king
        or rules.non_consecutive
    )


def _perm_of(n: int, transpose: bool, rows: Sequence[int], cols: Sequence[int]) -> Perm:
    """The cell permutation of: transpose (optionally), then rows[i] to row i and
    cols[j] to column j."""
    if transpose:
        return tuple(c * n + r for r in rows for c in cols)
    return tuple(r * n + c for r in rows for c in cols)


def _orders_keeping(n: int, family: frozenset[frozenset[int]]) -> list[tuple[int, ...]]:
    """Every permutation f of the lines 0..n-1 that maps each set of `family` onto a set
    of `family` (depth first, a set checked as soon as its last line has its image).
    The permutations keeping a family form a group, so they serve as line orders too."""
    ending: list[list[frozenset[int]]] = [[] for _ in range(n)]
    for lines in family:
        ending[max(lines)].append(lines)
    found: list[tuple[int, ...]] = []
    image = [0] * n
    used = [False] * n

    def extend(line: int) -> None:
        if line == n:
            found.append(tuple(image))
            return
        for target in range(n):
            if used[target]:
                continue
            image[line] = target
            if all(frozenset(image[x] for x in lines) in family for lines in ending[line]):
                used[target] = True
                extend(line + 1)
                used[target] = False

    extend(0)
    return found


def _keeps(perm: Perm, family: frozenset[frozenset[int]]) -> bool:
    """Whether the cell permutation maps every set of `family` onto a set of it."""
    inverse = _inverse(perm)
    return all(frozenset(inverse[c] for c in cells) in family for cells in family)


@lru_cache(maxsize=256)
def preserved_group(
    size: int,
    box: tuple[int, int],
    boxes: bool,
    shapes: bool,
    diagonals: bool,
    windoku: bool,
    disjoint: bool,
) -> tuple[Perm, ...]:
    """The cell permutations that keep a rule set of this kind (see the module doc),
    the identity first.

    `boxes`: the boxes of `box` are units (no irregular regions); `shapes`: a rule has
    a shape or ties neighbours (the square's 8 symmetries at most). The fixed cell sets
    (boxes, diagonals, windows, disjoint groups) are all-different units alike, so a
    permutation may exchange one kind for another (on 9x9, the boxes and the disjoint
    groups): it must map their union onto itself.
    """
    n = size
    # The boxes, windows and disjoint groups are each a set of rows times a set of
    # columns; the diagonals are not.
    products: list[tuple[frozenset[int], frozenset[int]]] = []
    if boxes and box[0] > 1:
        rows, cols = box
        products += [
            (frozenset(range(top, top + rows)), frozenset(range(left, left + cols)))
            for top in range(0, n, rows)
            for left in range(0, n, cols)
        ]
    for sets in (
        window_cells(n, box) if windoku else [],
        disjoint_cells(n, box) if disjoint else [],
    ):
        products += [
            (frozenset(c // n for c in cells), frozenset(c % n for c in cells)) for cells in sets
        ]
    fixed_sets = {frozenset(r * n + c for r in rows for c in cols) for rows, cols in products}
    if diagonals:
        fixed_sets.add(frozenset(i * n + i for i in range(n)))
        fixed_sets.add(frozenset(i * n + n - 1 - i for i in range(n)))
    fixed = frozenset(fixed_sets)
    identity = tuple(range(n))
    reverse = identity[::-1]
    candidates: list[tuple[bool, tuple[int, ...], tuple[int, ...]]]
    if shapes or not boxes or n > MAX_SEARCHED_SIZE:
        candidates = [
            (t, r, c)
            for t in (False, True)
            for r in (identity, reverse)
            for c in (identity, reverse)
        ]
    else:
        # A line permutation maps a set of rows times a set of columns to the product of
        # the images: the row order must keep the family of row sets, the column order
        # that of column sets (necessary; the whole is checked below).
        row_orders = _orders_keeping(n, frozenset(rows for rows, _ in products))
        if diagonals:
            # Output diagonal cell (i, i) is input (rows[i], cols[i]): on a diagonal
            # only when cols is rows or rows reversed in value.
            pairs = [(p, q) for p in row_orders for q in (p, tuple(n - 1 - r for r in p))]
        else:
            col_orders = _orders_keeping(n, frozenset(cols for _, cols in products))
            pairs = [(p, q) for p in row_orders for q in col_orders]
        candidates = [(t, p, q) for t in (False, True) for p, q in pairs]
    group: list[Perm] = []
    seen: set[Perm] = set()
    for t, p, q in candidates:
        perm = _perm_of(n, t, p, q)
        if perm not in seen and _keeps(perm, fixed):
            seen.add(perm)
            group.append(perm)
    return tuple(group)


GroupArgs = tuple[int, tuple[int, int], bool, bool, bool, bool, bool]


def _group_args(rules: Rules, geometry: Geometry) -> GroupArgs:
    """The arguments of `preserved_group` for `rules` on the grid of `geometry`."""
    return (
        geometry.size,
        (geometry.box_rows, geometry.box_cols),
        rules.regions is None,
        _draws_shapes(rules),
        rules.diagonals,
        rules.windoku,
        rules.disjoint,
    )


def group_of(rules: Rules, geometry: Geometry) -> tuple[Perm, ...]:
    """The preserved group of `rules` on the grid of `geometry`."""
    return preserved_group(*_group_args(rules, geometry))


@lru_cache(maxsize=256)
def _group_table(*args: object) -> array[int]:
    """`preserved_group(*args)` as one array of cells, the permutations one after another
    (what the compiled scan reads)."""
    group = preserved_group(*args)
    return array("H", [cell for perm in group for cell in perm])


@lru_cache(maxsize=8192)
def _inverse(perm: Perm) -> list[int]:
    """Where each input cell goes (cached: a group has few elements, used again and again)."""
    inverse = [0] * len(perm)
    for out_cell, in_cell in enumerate(perm):
        inverse[in_cell] = out_cell
    return inverse


MovedData = tuple[
    str,
    tuple[tuple[int, ...], ...],
    tuple[tuple[tuple[int, ...], int], ...],
    tuple[tuple[int, ...], ...],
]


def _moved_data(rules: Rules, perm: Perm, normal: bool) -> MovedData:
    """The moving data of `rules` (regions, extra sets, cages as (cells, total or -1),
    thermometers) moved by a cell permutation, as plain tuples; `normal`: in the normal
    form of the module doc (labels by first appearance, sorted cells and lists)."""
    at = _inverse(perm).__getitem__
    regions = rules.regions
    moved_regions = ""
    if regions is not None:
        moved = [regions[c] for c in perm]
        if normal:
            labels: dict[str, str] = {}
            for label in moved:
                if label not in labels:
                    labels[label] = REGION_LABELS[len(labels)]
            moved = [labels[label] for label in moved]
        moved_regions = "".join(moved)
    thermos = tuple(tuple(map(at, thermo)) for thermo in rules.thermos)
    if normal:
        extra = tuple(sorted(tuple(sorted(map(at, cells))) for cells in rules.extra))
        cages = tuple(
            sorted(
                (tuple(sorted(map(at, cage.cells))), -1 if cage.total is None else cage.total)
                for cage in rules.cages
            )
        )
        thermos = tuple(sorted(thermos))
    else:
        extra = tuple(tuple(map(at, cells)) for cells in rules.extra)
        cages = tuple(
            (tuple(map(at, cage.cells)), -1 if cage.total is None else cage.total)
            for cage in rules.cages
        )
    return moved_regions, extra, cages, thermos


def _rules_with(rules: Rules, data: MovedData) -> Rules:
    """`rules` with its moving data replaced (see `_moved_data`)."""
    regions, extra, cages, thermos = data
    return Rules(
        regions=regions if rules.regions is not None else None,
        diagonals=rules.diagonals,
        windoku=rules.windoku,
        disjoint=rules.disjoint,
        extra=extra,
        anti_knight=rules.anti_knight,
        anti_king=rules.anti_king,
        non_consecutive=rules.non_consecutive,
        cages=tuple(Cage(cells, None if total < 0 else total) for cells, total in cages),
        thermos=thermos,
    )


def move_rules(rules: Rules, perm: Perm, normal: bool = False) -> Rules:
    """The rules moved by a cell permutation (`normal`: see `_moved_data`)."""
    return _rules_with(rules, _moved_data(rules, perm, normal))


def canonical_pair(values: Sequence[int], rules: Rules, geometry: Geometry) -> VariantCanon:
    """The canonical (givens, rules) pair of a puzzle under non-classic `rules`.

    The compiled scan (`_canon.smallest_images`) finds the smallest image of the givens
    over the group and the permutations giving it; only those move the rules, and the
    smallest moved rules among them complete the pair."""
    args = _group_args(rules, geometry)
    image, ties = _canon.smallest_images(
        bytes(values), _group_table(*args), geometry.size, digit_freedom(rules)
    )
    if not _draws_shapes(rules):
        # Only fixed families: the rules do not move, the givens decide alone.
        return _variant_canon(image, rules, geometry)
    group = preserved_group(*args)
    return _variant_canon(image, _rules_with(rules, _smallest_moved(rules, group, ties)), geometry)


def _smallest_moved(rules: Rules, group: tuple[Perm, ...], ties: list[int]) -> MovedData:
    """min(_moved_data(rules, group[g], True) for g in ties), without moving every cage
    of every tied permutation: the ties are first narrowed by their moved regions and
    extra sets and their first cage. The sorted cages start with the smallest moved
    cage, which holds the smallest caged cell: only the cages holding that cell are
    moved to find it. Comparing that prefix of the data decides wherever it differs."""
    perms = [group[g] for g in ties]
    if len(perms) > 1 and rules.cages:
        shapes = Rules(regions=rules.regions, extra=rules.extra)  # the data before the cages
        holding: dict[int, list[Cage]] = {}
        for cage in rules.cages:
            for cell in cage.cells:
                holding.setdefault(cell, []).append(cage)

        def head(perm: Perm) -> tuple[object, ...]:
            regions, extra, _, _ = _moved_data(shapes, perm, True)
            at = _inverse(perm).__getitem__
            first = min(holding, key=at)
            cage = min(
                (tuple(sorted(map(at, cage.cells))), -1 if cage.total is None else cage.total)
                for cage in holding[first]
            )
            return regions, extra, cage

        heads = [head(perm) for perm in perms]
        least = min(heads)
        perms = [perm for perm, key in zip(perms, heads, strict=True) if key == least]
    return min(_moved_data(rules, perm, True) for perm in perms)


def _variant_canon(values: bytes, rules: Rules, geometry: Geometry) -> VariantCanon:
    text = format_values(values, geometry)
    return VariantCanon(tuple(values), rules, f"{text} {rules.dumps()}")


def random_pair(
    values: Sequence[int], rules: Rules, geometry: Geometry, rng: random.Random
) -> tuple[list[int], Rules]:
    """The pair moved by an element of its preserved group drawn uniformly (cells, then
    digits as `digit_freedom` allows)."""
    n = geometry.size
    perm = rng.choice(group_of(rules, geometry))
    freedom = digit_freedom(rules)
    digits = list(range(1, n + 1))
    if freedom == "all":
        rng.shuffle(digits)
    elif freedom == "reverse" and rng.random() < 0.5:
        digits.reverse()
    return move_pair(values, rules, perm, [0, *digits])


def move_pair(
    values: Sequence[int], rules: Rules, perm: Perm, relabel: Sequence[int]
) -> tuple[list[int], Rules]:
    """Givens and rules moved by a cell permutation and a relabelling (relabel[v] is
    the new value of v, relabel[0] = 0)."""
    return [relabel[values[c]] for c in perm], move_rules(rules, perm, False)
