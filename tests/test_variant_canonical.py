"""Canonical forms of puzzles with variant rules (`canonical_variant`,
`random_variant_transform`): the rules move with the givens.

The independent check is a brute force written here apart from the package: on 4x4 it
enumerates every transposition and row and column permutation (1,152 cell maps) and
every digit permutation, keeps those that map the fixed cell families (rows, columns,
boxes unless regions replace them, diagonals, windows, disjoint groups, read from
tests/variant_oracle.py) onto themselves, that keep the king-move neighbourhood when a
rule draws shapes or ties neighbours, and digit maps that keep "consecutive" (non-
consecutive) or are the identity (sums, thermometers); the form is the smallest moved
pair over that whole group. Solution counts of moved pairs are checked with the SAT
counter of tests/variant_oracle.py.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from typing import Any

import pytest
import variant_oracle as oracle
from test_variants import ALL_KINDS, _cases

import sudoku_fast as sf
from sudoku_fast import Cage, Rules
from sudoku_fast._symmetry.variant import preserved_group

SYMBOLS = "123456789ABCDEFG"


# ---------------------------------------------------------------- the brute force


def _values(text: str) -> list[int]:
    return [0 if ch in ".0" else SYMBOLS.index(ch) + 1 for ch in text]


def _groups_of(size: int, document: dict[str, Any]) -> frozenset[frozenset[int]]:
    return frozenset(frozenset(g) for g in oracle.all_different_groups(size, document))


def _fixed_families(size: int, rules: Rules) -> frozenset[frozenset[int]]:
    """Rows, columns, boxes (unless regions replace them), diagonals, windows and
    disjoint groups: the cell sets that stay where they are."""
    flags = {k: True for k in ("diagonals", "windoku", "disjoint") if getattr(rules, k)}
    fixed = _groups_of(size, flags)
    if rules.regions is not None:
        fixed -= _groups_of(size, {}) - _line_sets(size)  # the boxes
    return fixed


def _line_sets(size: int) -> frozenset[frozenset[int]]:
    rows = [frozenset(r * size + c for c in range(size)) for r in range(size)]
    cols = [frozenset(r * size + c for r in range(size)) for c in range(size)]
    return frozenset(rows + cols)


def _king_pairs(size: int) -> frozenset[frozenset[int]]:
    pairs = set()
    for a in range(size * size):
        for b in range(size * size):
            ra, ca, rb, cb = a // size, a % size, b // size, b % size
            if a != b and abs(ra - rb) <= 1 and abs(ca - cb) <= 1:
                pairs.add(frozenset((a, b)))
    return frozenset(pairs)


def _shapes(rules: Rules) -> bool:
    return bool(
        rules.regions is not None
        or rules.extra
        or rules.cages
        or rules.thermos
        or rules.anti_knight
        or rules.anti_king
        or rules.non_consecutive
    )


def _cell_maps(size: int) -> list[tuple[int, ...]]:
    """Every transposition + row permutation + column permutation, as "output cell i
    takes input cell m[i]"."""
    maps = set()
    for transpose in (False, True):
        for rows in itertools.permutations(range(size)):
            for cols in itertools.permutations(range(size)):
                maps.add(
                    tuple(
                        (c * size + r) if transpose else (r * size + c) for r in rows for c in cols
                    )
                )
    return sorted(maps)


def _moves_sets(cell_map: Sequence[int], sets: frozenset[frozenset[int]]) -> bool:
    where = {source: target for target, source in enumerate(cell_map)}
    return frozenset(frozenset(where[c] for c in s) for s in sets) == sets


def brute_group(size: int, rules: Rules) -> list[tuple[int, ...]]:
    fixed = _fixed_families(size, rules)
    kings = _king_pairs(size) if _shapes(rules) else frozenset()
    return [
        m
        for m in _cell_maps(size)
        if _moves_sets(m, fixed) and (not kings or _moves_sets(m, kings))
    ]


def brute_digit_maps(size: int, rules: Rules) -> list[tuple[int, ...]]:
    """relabel[v] for v in 0..N, every permutation the rules keep."""
    identity = tuple(range(size + 1))
    if rules.thermos or any(c.total is not None for c in rules.cages):
        return [identity]
    out = []
    for perm in itertools.permutations(range(1, size + 1)):
        relabel = (0, *perm)
        if rules.non_consecutive and any(
            (abs(a - b) == 1) != (abs(relabel[a] - relabel[b]) == 1)
            for a in range(1, size + 1)
            for b in range(1, size + 1)
        ):
            continue
        out.append(relabel)
    return out


def brute_move(
    values: Sequence[int], rules: Rules, cell_map: Sequence[int], relabel: Sequence[int]
) -> tuple[tuple[int, ...], Rules]:
    where = {source: target for target, source in enumerate(cell_map)}
    regions = None if rules.regions is None else "".join(rules.regions[c] for c in cell_map)
    moved = Rules(
        regions=regions,
        diagonals=rules.diagonals,
        windoku=rules.windoku,
        disjoint=rules.disjoint,
        extra=tuple(tuple(where[c] for c in s) for s in rules.extra),
        anti_knight=rules.anti_knight,
        anti_king=rules.anti_king,
        non_consecutive=rules.non_consecutive,
        cages=tuple(Cage([where[c] for c in k.cells], k.total) for k in rules.cages),
        thermos=tuple(tuple(where[c] for c in t) for t in rules.thermos),
    )
    return tuple(relabel[values[c]] for c in cell_map), moved


def _normal(rules: Rules) -> tuple[Any, ...]:
    """Rules compared as sets: region partition, extra sets, cages, thermometers."""
    partition: frozenset[frozenset[int]] = frozenset()
    if rules.regions is not None:
        by: dict[str, set[int]] = {}
        for cell, label in enumerate(rules.regions):
            by.setdefault(label, set()).add(cell)
        partition = frozenset(frozenset(s) for s in by.values())
    return (
        partition,
        frozenset(frozenset(s) for s in rules.extra),
        frozenset((frozenset(k.cells), k.total) for k in rules.cages),
        frozenset(rules.thermos),
    )


def brute_orbit(
    values: Sequence[int], rules: Rules, size: int
) -> set[tuple[tuple[int, ...], tuple[Any, ...]]]:
    return {
        (moved, _normal(moved_rules))
        for m in brute_group(size, rules)
        for d in brute_digit_maps(size, rules)
        for moved, moved_rules in [brute_move(values, rules, m, d)]
    }


def _text(values: Sequence[int]) -> str:
    return "".join("." if v == 0 else SYMBOLS[v - 1] for v in values)


# ---------------------------------------------------------------- against the brute force


@pytest.mark.parametrize("kind", ALL_KINDS)
def test_4x4_forms_equal_the_brute_force(kind: str) -> None:
    """Smallest givens equal the brute force's; keys equal exactly when the brute
    force's orbits are equal (the cases, moved copies and one-cell changes)."""
    cases = _cases(kind, 4, 5, 3)
    if not cases:
        pytest.skip(f"{kind} has no 4x4 solution")
    rng = random.Random(kind)
    pairs: list[tuple[str, Rules]] = []
    for puzzle, rules, _solution in cases:
        pairs.append((puzzle, rules))
        group = brute_group(4, rules)
        digits = brute_digit_maps(4, rules)
        for _ in range(2):
            moved, moved_rules = brute_move(
                _values(puzzle), rules, rng.choice(group), rng.choice(digits)
            )
            pairs.append((_text(moved), moved_rules))
        # A different puzzle: one given added or removed.
        values = _values(puzzle)
        cell = rng.randrange(16)
        values[cell] = 0 if values[cell] else _values(_solution_text(_solution))[cell]
        pairs.append((_text(values), rules))
    orbits = []
    for puzzle, rules in pairs:
        orbit = brute_orbit(_values(puzzle), rules, 4)
        form = sf.canonical_variant(puzzle, rules)
        assert _values(form.puzzle) == list(min(givens for givens, _ in orbit)), (puzzle, rules)
        # The canonical pair is in the orbit: a symmetry of the input.
        assert (tuple(_values(form.puzzle)), _normal(form.rules or Rules())) in orbit
        orbits.append((frozenset(orbit), form.key))
    for (orbit_a, key_a), (orbit_b, key_b) in itertools.combinations(orbits, 2):
        assert (orbit_a == orbit_b) == (key_a == key_b)


@pytest.mark.parametrize(
    "rules",
    [
        Rules(cages=(Cage([0, 1], 3), Cage([2, 6], None), Cage([5, 9, 10], None), Cage([15], 4))),
        Rules(cages=(Cage([0, 4], None), Cage([1, 5], None), Cage([10, 11], None))),
        Rules(regions="1112312233423444", cages=(Cage([0, 4], None), Cage([11, 15], 7))),
        Rules(extra=((0, 5, 10, 15),), cages=(Cage([3, 6], None), Cage([9, 12], None))),
    ],
)
def test_cages_of_an_empty_grid_equal_the_brute_force(rules: Rules) -> None:
    """No givens: every cell map of the group ties on them, and the rules alone decide
    (the cages narrowed by their first cage before all are moved)."""
    values = [0] * 16
    form = sf.canonical_variant("." * 16, rules)
    orbit = brute_orbit(values, rules, 4)
    assert (tuple(values), _normal(form.rules or Rules())) in orbit
    for cell_map in brute_group(4, rules):
        moved, moved_rules = brute_move(values, rules, cell_map, tuple(range(5)))
        assert sf.canonical_variant(_text(moved), moved_rules).key == form.key
    last = rules.cages[-1]
    total = None if last.total is not None else len(last.cells) * (len(last.cells) + 1) // 2
    changed = (*rules.cages[:-1], Cage(last.cells, total))
    other = Rules(regions=rules.regions, extra=rules.extra, cages=changed)
    assert (
        sf.canonical_variant("." * 16, other).key == form.key
    ) == (_normal(other) in {rules_ for _, rules_ in orbit})  # fmt: skip


def _solution_text(solution: list[int]) -> str:
    return _text(solution)


@pytest.mark.parametrize(
    "rules",
    [
        Rules.named("x"),
        Rules.named("windoku"),
        Rules.named("disjoint"),
        Rules.named("x", "disjoint"),
        Rules.named("anti-king"),
        Rules(regions="1122112233443344"),
        Rules(regions="1112312233423444"),
        Rules(cages=(Cage([0, 1], 3),)),
    ],
)
def test_4x4_groups_equal_the_brute_force(rules: Rules) -> None:
    geometry = sf.geometry_for(4)
    group = preserved_group(
        4, (2, 2), rules.regions is None, _shapes(rules), rules.diagonals, rules.windoku,
        rules.disjoint,
    )  # fmt: skip
    assert sorted(group) == brute_group(4, rules)
    assert geometry.size == 4


def _classic_maps(size: int, box: tuple[int, int]) -> list[tuple[int, ...]]:
    """Every classic symmetry's cell map (bands, rows in bands, stacks, columns in
    stacks, transposition when boxes are square)."""
    br, bc = box

    def orders(block: int) -> list[tuple[int, ...]]:
        out = []
        for blocks in itertools.permutations(range(size // block)):
            for inner in itertools.product(
                *[itertools.permutations(range(b * block, (b + 1) * block)) for b in blocks]
            ):
                out.append(tuple(itertools.chain.from_iterable(inner)))
        return out

    maps = set()
    for transpose in (False, True) if br == bc else (False,):
        for rows in orders(br):
            for cols in orders(bc):
                maps.add(
                    tuple(
                        (c * size + r) if transpose else (r * size + c) for r in rows for c in cols
                    )
                )
    return sorted(maps)


@pytest.mark.parametrize("flags", [("diagonals",), ("disjoint",), ("diagonals", "disjoint")])
def test_6x6_fixed_family_groups_are_every_classic_symmetry_keeping_them(
    flags: tuple[str, ...],
) -> None:
    """On 6x6 (2x3 boxes) every one of the 3,456 classic symmetries is tried."""
    rules = Rules(**{f: True for f in flags})
    fixed = _fixed_families(6, rules)
    expected = [m for m in _classic_maps(6, (2, 3)) if _moves_sets(m, fixed)]
    group = preserved_group(
        6, (2, 3), True, False, *(f in flags for f in ("diagonals", "windoku", "disjoint"))
    )
    assert sorted(group) == expected


@pytest.mark.parametrize(
    ("flags", "size"),
    [
        (("diagonals",), 96),
        (("windoku",), 128),
        (("disjoint",), 5184),
        (("diagonals", "windoku"), 16),
    ],
)
def test_9x9_fixed_family_groups_are_closed_and_keep_the_families(
    flags: tuple[str, ...], size: int
) -> None:
    rules = Rules(**{f: True for f in flags})
    group = preserved_group(
        9, (3, 3), True, False, *(f in flags for f in ("diagonals", "windoku", "disjoint"))
    )
    assert len(group) == len(set(group)) == size
    fixed = _fixed_families(9, rules)
    assert all(_moves_sets(m, fixed) for m in group)
    members = set(group)
    rng = random.Random(9)
    for _ in range(200):
        a, b = rng.choice(group), rng.choice(group)
        assert tuple(a[b[i]] for i in range(81)) in members  # composition stays inside
    # The 8 symmetries of the square that keep the families are among them.
    square = [m for m in brute_square(9) if _moves_sets(m, fixed)]
    assert set(square) <= members


def brute_square(size: int) -> list[tuple[int, ...]]:
    """The 8 symmetries of the square as cell maps (rotations and reflections)."""
    n = size
    maps = []
    for k in range(4):
        for mirror in (False, True):
            out = []
            for r in range(n):
                for c in range(n):
                    rr, cc = r, n - 1 - c if mirror else c
                    for _ in range(k):
                        rr, cc = cc, n - 1 - rr
                    out.append(rr * n + cc)
            maps.append(tuple(out))
    return maps


# ---------------------------------------------------------------- keys and moves


@pytest.mark.parametrize("kind", ALL_KINDS)
@pytest.mark.parametrize("size", [6, 9])
def test_random_preserved_moves_keep_the_key(kind: str, size: int) -> None:
    if kind == "windoku" and size == 6:
        pytest.skip("windoku needs square boxes")
    cases = _cases(kind, size, 3, 2)
    keys = set()
    for puzzle, rules, _solution in cases:
        form = sf.canonical_variant(puzzle, rules)
        keys.add(form.key)
        for seed in range(4):
            moved, moved_rules = sf.random_variant_transform(puzzle, rules, seed=seed)
            assert moved_rules is not None
            assert sf.canonical_variant(moved, moved_rules) == form
        again = sf.canonical_variant(form.puzzle, form.rules)
        assert again == form  # a canonical pair is its own form
    assert len(keys) == len(cases)  # different random puzzles, different keys


@pytest.mark.parametrize("kind", ["x", "jigsaw", "killer", "thermo", "non-consecutive", "disjoint"])
def test_moved_pairs_keep_their_solutions(kind: str) -> None:
    """The moved pair has the same count (engine and SAT counter) and the moved
    solution solves it (the oracle's checker)."""
    pytest.importorskip("pysat")
    for puzzle, rules, solution in _cases(kind, 6, 7, 3):
        count = sf.count_solutions(puzzle, rules=rules, limit=5)
        for seed in (1, 2):
            moved, moved_rules = sf.random_variant_transform(puzzle, rules, seed=seed)
            moved_solution, same_rules = sf.random_variant_transform(
                _text(solution), rules, seed=seed
            )
            assert moved_rules is not None and same_rules == moved_rules
            document = moved_rules.to_json()
            assert oracle.is_valid_solution(moved_solution, document, moved)
            assert sf.count_solutions(moved, rules=moved_rules, limit=5) == count
            assert oracle.count_solutions(moved, document, 5)[0] == count


def test_keys_tell_puzzles_apart() -> None:
    killer = Rules(cages=(Cage([0, 1], 3), Cage([2, 3], 7)))
    other = Rules(cages=(Cage([0, 1], 3), Cage([2, 3], 6)))
    moved = Rules(cages=(Cage([0, 4], 3), Cage([2, 3], 7)))
    empty = "." * 16
    keys = {sf.canonical_variant(empty, r).key for r in (killer, other, moved)}
    assert len(keys) == 3
    # No relabelling under sums: 1 and 2 swapped is another puzzle.
    assert (
        sf.canonical_variant("1" + "." * 15, killer).key
        != sf.canonical_variant("2" + "." * 15, killer).key
    )
    # The same givens are another puzzle under other rules, or none.
    p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    x = sf.canonical_variant(p, "x").key
    assert x != sf.canonical_variant(p, "windoku").key != sf.canonical_variant(p, None).key
    # Swapping rows 1 and 2 is a classic symmetry but moves the diagonals.
    rows = [p[9 * r : 9 * r + 9] for r in range(9)]
    swapped = "".join([rows[0], rows[2], rows[1], *rows[3:]])
    assert sf.canonical(swapped) == sf.canonical(p)
    assert sf.canonical_variant(swapped, "x").key != x


def test_non_consecutive_allows_the_reversal_only() -> None:
    rules = Rules.named("non-consecutive")
    p = "1..............2"
    reversed_ = "4..............3"
    relabelled = "1..............3"
    key = sf.canonical_variant(p, rules).key
    assert sf.canonical_variant(reversed_, rules).key == key
    assert sf.canonical_variant(relabelled, rules).key != key


def test_classic_rules_give_the_classic_form() -> None:
    p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    for rules in (None, Rules(), {}):
        form = sf.canonical_variant(p, rules)
        assert form == (sf.canonical(p), None, sf.canonical(p))
    moved, none = sf.random_variant_transform(p, None, seed=4)
    assert none is None and moved == sf.random_transform(p, seed=4)


def test_bad_input_is_named() -> None:
    with pytest.raises(ValueError, match="regions"):
        sf.canonical_variant("." * 16, {"regions": "1111122223333444"})
    with pytest.raises(ValueError, match="unknown variant"):
        sf.canonical_variant("." * 16, "zigzag")
    with pytest.raises(TypeError):
        sf.canonical_variant("." * 16, 5)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        sf.random_variant_transform("." * 16, "x", seed="a")  # type: ignore[arg-type]
