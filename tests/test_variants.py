"""Variant rules: the Rules data and its JSON form, and solving and counting under them.

Counts are checked against an independent method (tests/variant_oracle.py: a CNF
encoding written apart from the package, solved by python-sat), solutions against the
oracle's plain checker, on seeded random puzzles of every rule kind and on small
hand-made ones. Every engine test runs on the compiled engine and on its twin.
"""

from __future__ import annotations

import dataclasses
import json
import pickle
import random
import re
import sys
import threading
from array import array
from collections.abc import Callable
from pathlib import Path

import pytest
import variant_oracle as oracle
from conftest import Side, interrupt, needs_sigint

import sudoku_fast as sf
from sudoku_fast import Cage, Rules
from sudoku_fast._variants import _variant, encode
from sudoku_fast._variants import run as variant_run

SYMBOLS = "123456789AB"


def _text(values: list[int]) -> str:
    return "".join(SYMBOLS[v - 1] if v else "." for v in values)


def _values(text: str) -> list[int]:
    return [0 if ch == "." else SYMBOLS.index(ch) + 1 for ch in text]


# ---------------------------------------------------------------------------------------
# Rules as data


def test_presets_and_json_round_trip() -> None:
    rules = Rules(
        regions="1112122233443344",
        diagonals=True,
        extra=((0, 5, 10),),
        anti_king=True,
        non_consecutive=True,
        cages=(Cage((0, 1), 3), Cage((2, 3))),
        thermos=((12, 8, 4),),
    )
    document = rules.to_json()
    assert Rules.from_json(document) == rules
    assert Rules.from_json(json.dumps(document)) == rules
    assert Rules.from_json(rules.dumps()) == rules
    assert hash(Rules.from_json(document)) == hash(rules)
    assert Rules.named("x, anti-knight") == Rules(diagonals=True, anti_knight=True)
    assert Rules.named("hyper") == Rules(windoku=True)
    assert Rules().is_classic and not rules.is_classic
    assert Rules(extra=[[0, 1]]).extra == ((0, 1),)  # lists become tuples
    merged = Rules.named("x").merge(Rules(cages=(Cage((0, 1), 3),)))
    assert merged.diagonals and merged.cages == (Cage((0, 1), 3),)


@pytest.mark.parametrize(
    ("document", "size", "words"),
    [
        ({"diagonal": True}, 9, "unknown key 'diagonal'"),
        ({"cages": [{"cells": [0, 1], "sum": 30}]}, 9, "cage 0: sum 30 is outside 3..17"),
        ({"cages": [{"cells": [0, 1]}, {"cells": [1, 2]}]}, 9, "cage 1: shares a cell"),
        ({"cages": [{"cells": [0, 0], "sum": 3}]}, 9, "cage 0: a cell appears twice"),
        ({"cages": [{"cells": [0], "total": 3}]}, 9, "cage 0: unknown key 'total'"),
        ({"extra": [[0, 81]]}, 9, "extra set 0: cell 81 is outside the 9x9 grid"),
        ({"thermos": [list(range(10))]}, 9, "thermometer 0: 10 cells, more than the 9"),
        ({"regions": "12" * 8}, 4, "region '1' has 8 cells, not 4"),
        ({"regions": "1" * 10}, 4, "regions: 10 labels for 16 cells"),
        ({"windoku": True}, 6, "windoku: a 6x6 grid has no square boxes"),
        ({"anti_knight": 1}, 9, "anti_knight must be a bool"),
        ({"extra": [["a"]]}, 9, "cell 'a' is not an int"),
    ],
)
def test_bad_rules_are_named(document: dict[str, object], size: int, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        Rules.from_json({**document, "size": size})


def test_bad_rules_in_a_call_name_the_puzzle() -> None:
    bad = {"cages": [{"cells": [0, 1], "sum": 40}]}
    with pytest.raises(ValueError, match="puzzle 1: cage 0: sum 40"):
        sf.count_many(["." * 81] * 2, rules=[None, bad])
    with pytest.raises(ValueError, match="2 rule sets for 3 puzzles"):
        sf.count_many(["." * 81] * 3, rules=["x", "x"])
    with pytest.raises(ValueError, match="unknown variant 'sudoku-z'"):
        sf.solve("." * 81, rules="sudoku-z")
    with pytest.raises(TypeError, match="rules must be"):
        sf.solve("." * 81, rules=3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="marks=True cannot be combined"):
        sf.count_solutions("123456789" * 81, marks=True, rules="x")


# ---------------------------------------------------------------------------------------
# Classic puzzles keep today's engines


def test_no_rules_keeps_the_classic_engines(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the variant engine ran on classic rules")

    import sudoku_fast.solving as solving

    puzzle = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    expected = sf.solve(puzzle)
    monkeypatch.setattr(solving, "run_rules", refuse)
    for rules in (None, Rules(), {}):
        assert sf.solve(puzzle, rules=rules) == expected
        assert sf.count_solutions(puzzle, rules=rules) == 1
        assert sf.solve_many([puzzle] * 3, rules=rules) == [expected] * 3
        assert sf.count_many([puzzle] * 3, rules=rules) == [1] * 3
    assert sf.count_many([puzzle] * 2, rules=[None, Rules()]) == [1, 1]


def test_classic_rules_on_the_variant_engine_agree(side: Side) -> None:
    """A batch mixing rule sets runs classic puzzles on the variant engine too."""
    puzzle = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    expected = sf.solve(puzzle)
    got = sf.solve_many([puzzle, "." * 81], rules=[None, "x"], threads=1)
    assert got[0] == expected
    assert got[1] is not None and oracle.is_valid_solution(got[1], {"diagonals": True})


# ---------------------------------------------------------------------------------------
# Counts the independent method confirms


def test_known_counts(side: Side) -> None:
    assert sf.count_solutions("." * 16, limit=1000, rules=Rules()) == 288
    assert sf.count_solutions("." * 16, limit=1000, rules="x") == 48
    assert (
        sf.count_solutions("." * 16, limit=1000, rules="windoku")
        == oracle.count_solutions("." * 16, {"windoku": True}, 1000)[0]
    )
    for preset, document in (
        ("non-consecutive", {"non_consecutive": True}),
        ("anti-king", {"anti_king": True}),
        ("anti-knight", {"anti_knight": True}),
    ):
        want = oracle.count_solutions("." * 16, document, 1000)[0]
        assert sf.count_solutions("." * 16, limit=1000, rules=preset) == want


def _random_solution(size: int, rules: Rules, rng: random.Random) -> list[int] | None:
    """A solution under `rules`: the engine's, for a few random clues the oracle
    counted as satisfiable, or None when the rules have none."""
    document = rules.to_json()
    cells = size * size
    for _ in range(10):
        puzzle = [0] * cells
        for cell in rng.sample(range(cells), 3):
            puzzle[cell] = rng.randint(1, size)
        found = oracle.count_solutions(_text(puzzle), document, 1)[1]
        if found:
            return _values(found[0])
    found = oracle.count_solutions("." * cells, document, 1)[1]
    return _values(found[0]) if found else None


def _jigsaw(solution: list[int], size: int, rng: random.Random) -> str:
    """Random regions a solution keeps: the boxes, then cells of equal digits swapped
    between regions (regions need not be connected for the rules)."""
    box = {4: (2, 2), 6: (2, 3), 9: (3, 3)}[size]
    labels = [
        (r // box[0]) * (size // box[1]) + c // box[1] for r in range(size) for c in range(size)
    ]
    for _ in range(size * size):
        a = rng.randrange(size * size)
        same = [b for b in range(size * size) if solution[b] == solution[a] and b != a]
        b = rng.choice(same)
        labels[a], labels[b] = labels[b], labels[a]
    return "".join(SYMBOLS[k] for k in labels)


def _cages(solution: list[int], size: int, rng: random.Random, sums: bool) -> tuple[Cage, ...]:
    """Random cages over a solution: grown orthogonally, digits never repeated."""
    cells = size * size
    free = set(range(cells))
    cages = []
    for start in rng.sample(range(cells), cells):
        if start not in free:
            continue
        cage = [start]
        free.discard(start)
        target = rng.choice([1, 2, 2, 3, 3, 4, 5])
        while len(cage) < target:
            options = [
                x
                for c in cage
                for x in (c - 1, c + 1, c - size, c + size)
                if x in free
                and abs(x % size - c % size) <= 1
                and solution[x] not in {solution[y] for y in cage}
            ]
            if not options:
                break
            pick = rng.choice(options)
            cage.append(pick)
            free.discard(pick)
        total = sum(solution[c] for c in cage) if sums else None
        cages.append(Cage(tuple(cage), total))
    return tuple(cages)


def _thermos(solution: list[int], size: int, rng: random.Random) -> tuple[tuple[int, ...], ...]:
    """Random thermometers over a solution: king steps to a larger digit."""
    thermos = []
    for _ in range(size):
        bulb = rng.randrange(size * size)
        path = [bulb]
        while len(path) < 5:
            r, c = divmod(path[-1], size)
            options = [
                (r + dr) * size + c + dc
                for dr in (-1, 0, 1)
                for dc in (-1, 0, 1)
                if 0 <= r + dr < size
                and 0 <= c + dc < size
                and (r + dr) * size + c + dc not in path
                and solution[(r + dr) * size + c + dc] > solution[path[-1]]
            ]
            if not options:
                break
            path.append(rng.choice(options))
        if len(path) > 1:
            thermos.append(tuple(path))
    return tuple(thermos)


KINDS: dict[str, Callable[[int, random.Random], Rules]] = {
    "x": lambda size, rng: Rules.named("x"),
    "windoku": lambda size, rng: Rules.named("windoku"),
    "disjoint": lambda size, rng: Rules.named("disjoint"),
    "anti-knight": lambda size, rng: Rules.named("anti-knight"),
    "anti-king": lambda size, rng: Rules.named("anti-king"),
    "non-consecutive": lambda size, rng: Rules.named("non-consecutive"),
    "extra": lambda size, rng: Rules(
        extra=tuple(tuple(rng.sample(range(size * size), rng.randint(2, size))) for _ in range(3))
    ),
}


# Kinds whose rules are drawn around a solution drawn first (so they have one).
SOLUTION_FIRST = ("jigsaw", "jigsaw-x", "killer", "killer-nosum", "killer-x", "thermo")


def _cases(kind: str, size: int, seed: int, count: int) -> list[tuple[str, Rules, list[int]]]:
    """Seeded puzzles of one kind: (puzzle, rules, a solution the oracle accepts)."""
    rng = random.Random(f"{kind}-{size}-{seed}")
    cases: list[tuple[str, Rules, list[int]]] = []
    tries = 0
    while len(cases) < count and tries < 10 * count:
        tries += 1
        if kind in SOLUTION_FIRST:
            base = Rules.named("x") if kind.endswith("-x") else Rules()
            solution = _random_solution(size, base, rng)
            assert solution is not None
            if kind.startswith("jigsaw"):
                rules = base.merge(Rules(regions=_jigsaw(solution, size, rng)))
            elif kind == "thermo":
                rules = Rules(thermos=_thermos(solution, size, rng))
            else:
                cages = _cages(solution, size, rng, sums=kind != "killer-nosum")
                rules = base.merge(Rules(cages=cages))
        else:
            rules = KINDS[kind](size, rng)
            found = _random_solution(size, rules, rng)
            if found is None:
                continue
            solution = found
        assert oracle.is_valid_solution(_text(solution), rules.to_json())
        givens = (
            rng.randint(0, size * size // 3)
            if "killer" in kind
            else rng.randint(size, size * size // 2)
        )
        keep = set(rng.sample(range(size * size), givens))
        puzzle = _text([v if i in keep else 0 for i, v in enumerate(solution)])
        cases.append((puzzle, rules, solution))
    return cases


ALL_KINDS = [*KINDS, *SOLUTION_FIRST]


@pytest.mark.parametrize("kind", ALL_KINDS)
@pytest.mark.parametrize("size", [4, 6, 9])
def test_counts_equal_the_sat_counter(kind: str, size: int) -> None:
    pytest.importorskip("pysat")
    if kind == "windoku" and size == 6:
        pytest.skip("windoku needs square boxes")
    cases = _cases(kind, size, 1, 8 if size < 9 else 6)
    if not cases:  # the rules have no solution at this size (4x4 anti-king): say so both ways
        rules = KINDS[kind](size, random.Random(0))
        assert sf.count_solutions("." * size**2, rules=rules) == 0
        assert oracle.count_solutions("." * size**2, rules.to_json(), 1)[0] == 0
        return
    puzzles = [p for p, _, _ in cases]
    rules = [r for _, r, _ in cases]
    counts = sf.count_many(puzzles, limit=3, rules=rules, threads=2)
    solutions = sf.solve_many(puzzles, rules=rules, threads=2)
    for puzzle, rule, count, solution in zip(puzzles, rules, counts, solutions, strict=True):
        want = oracle.count_solutions(puzzle, rule.to_json(), 3)[0]
        assert count == want, (puzzle, rule)
        assert want >= 1  # every puzzle comes from a solution
        assert solution is not None and oracle.is_valid_solution(solution, rule.to_json(), puzzle)


@pytest.mark.parametrize("kind", ALL_KINDS)
def test_twin_and_compiled_agree(side: Side, kind: str) -> None:
    """Small grids on both sides; the count must match the independent counter."""
    pytest.importorskip("pysat")
    size = 4 if kind == "windoku" else 6
    cases = _cases(kind, size, 2, 4)
    for puzzle, rules, _ in cases:
        count = sf.count_solutions(puzzle, limit=3, rules=rules)
        assert count == oracle.count_solutions(puzzle, rules.to_json(), 3)[0]
        solution = sf.solve(puzzle, rules=rules)
        assert solution is not None and oracle.is_valid_solution(solution, rules.to_json(), puzzle)


def test_twin_on_9x9(side: Side) -> None:
    pytest.importorskip("pysat")
    for kind in ("x", "anti-knight", "jigsaw", "killer"):
        for puzzle, rules, solution in _cases(kind, 9, 3, 2):
            # half the solution's cells as givens keeps the twin fast
            rng = random.Random(puzzle)
            keep = set(rng.sample(range(81), 45))
            puzzle = _text([v if i in keep else _values(puzzle)[i] for i, v in enumerate(solution)])
            assert (
                sf.count_solutions(puzzle, rules=rules)
                == oracle.count_solutions(puzzle, rules.to_json(), 2)[0]
            )


def test_contradictions_and_several_solutions(side: Side) -> None:
    # two 1s on a diagonal: no solution under X, fine without
    puzzle = "1" + "." * 9 + "1" + "." * 70
    assert sf.count_solutions(puzzle, rules="x") == 0
    assert sf.solve(puzzle, rules="x") is None
    # a knight's move apart
    puzzle = "1" + "." * 10 + "1" + "." * 69
    assert sf.count_solutions(puzzle, rules="anti-knight") == 0
    # a cage whose sum its givens already break
    cage = Rules(cages=(Cage((0, 1), 3),))
    assert sf.count_solutions("3" + "." * 80, rules=cage) == 0
    assert sf.count_solutions("." * 81, rules=cage, limit=5) == 5
    # a thermometer against its givens
    thermo = Rules(thermos=((0, 1, 2),))
    assert sf.count_solutions("..1" + "." * 78, rules=thermo) == 0
    assert sf.count_solutions("." * 81, rules=thermo) == 2


def test_clashing_givens(side: Side) -> None:
    """Givens that rule each other out, in either cell order, under each pairwise rule
    (the engine puts all givens in at once and must still see every clash); the pairs
    share no row, column or box unless their digits differ."""

    def grid(*givens: tuple[int, str]) -> str:
        cells = ["."] * 81
        for cell, digit in givens:
            cells[cell] = digit
        return "".join(cells)

    for givens, rules in (
        (((0, "1"), (1, "2")), "non-consecutive"),  # side by side
        (((0, "2"), (1, "1")), "non-consecutive"),
        (((4, "5"), (13, "4")), "non-consecutive"),  # one above the other
        (((4, "4"), (13, "5")), "non-consecutive"),
        (((2, "1"), (12, "1")), "anti-king"),  # diagonal neighbours, two boxes
        (((2, "7"), (13, "7")), "anti-knight"),  # a knight's move, two boxes
        (((13, "7"), (2, "7")), "anti-knight"),
        (((0, "3"), (40, "3")), "x"),  # one diagonal, three boxes apart
    ):
        puzzle = grid(*givens)
        assert sf.count_solutions(puzzle, rules=rules) == 0, (givens, rules)
        assert sf.solve(puzzle, rules=rules) is None
    # the same kind of givens where they do not clash
    for givens, rules in (
        (((0, "1"), (10, "2")), "non-consecutive"),  # diagonal neighbours
        (((0, "1"), (1, "3")), "non-consecutive"),
        (((2, "7"), (23, "7")), "anti-knight"),
        (((0, "3"), (40, "4")), "x"),
    ):
        assert sf.count_solutions(grid(*givens), rules=rules) >= 1, (givens, rules)


def test_threads_and_outputs() -> None:
    pytest.importorskip("pysat")
    cases = _cases("killer", 6, 4, 20)
    puzzles = [p for p, _, _ in cases]
    rules = [r for _, r, _ in cases]
    one = sf.count_many(puzzles, limit=3, rules=rules, threads=1)
    assert sf.count_many(puzzles, limit=3, rules=rules, threads=2) == one
    np = pytest.importorskip("numpy")
    grid = np.array([_values(p) for p in puzzles], dtype=np.uint8)
    assert list(sf.count_many(grid, limit=3, rules=rules, output="list")) == one
    solved = sf.solve_many(grid, rules=rules)
    assert solved.shape == grid.shape
    for row, p, r, c in zip(solved, puzzles, rules, one, strict=True):
        if c:
            assert oracle.is_valid_solution(_text(list(row)), r.to_json(), p)


def test_solutions_made_in_the_chunks_match_the_buffer() -> None:
    # solve_many under rules makes each chunk's strings on the thread that solved it;
    # a numpy batch takes the engine's buffer as it is: the two must agree.
    np = pytest.importorskip("numpy")
    x, windoku = Rules.named("x"), Rules.named("windoku")
    grids = ["." * 81, "55" + "." * 79, "1" + "." * 80] * 7
    rules = [x, windoku, None] * 7
    values = np.array([_values(p) for p in grids], dtype=np.uint8)
    rows = sf.solve_many(values, rules=rules)
    expected = [_text(list(row)) if row.any() else None for row in rows]
    assert expected[1] is None and expected[0] is not None
    assert sf.solve_many(grids, rules=rules, threads=2) == expected
    assert sf.solve_many(grids, rules=rules, threads=1, output="list") == expected
    pa = pytest.importorskip("pyarrow")
    arrow = sf.solve_many(pa.array(grids), rules=rules, output="arrow")
    assert arrow.to_pylist() == expected
    pd = pytest.importorskip("pandas")
    like = sf.solve_many(pd.Series(grids, name="p"), rules=rules, output="like")
    assert [None if pd.isna(v) else v for v in like] == expected


def test_prime_size_jigsaw() -> None:
    pytest.importorskip("pysat")
    regions = "1112211222333443544435555"
    rules = Rules(regions=regions)
    count = sf.count_solutions("." * 25, limit=50, rules=rules)
    assert count == oracle.count_solutions("." * 25, rules.to_json(), 50)[0]


def test_rules_spread_over_a_batch() -> None:
    assert variant_run.per_puzzle(Rules.named("x"), 2) == [Rules.named("x")] * 2
    assert variant_run.read_rules([None, None]) is None
    assert variant_run.read_rules(["x", None]) == [Rules.named("x"), None]


def test_rules_read_once_per_object_in_order() -> None:
    x, windoku = Rules.named("x"), Rules.named("windoku")
    bad = Rules(cages=(Cage([0, 1], 40),))
    # Fresh objects equal to others, repeats, None and JSON text: one result per item.
    items = [x, None, windoku, Rules.named("x"), x, '{"diagonals": true}', None]
    assert variant_run.read_rules(items) == [x, None, windoku, x, x, x, None]
    assert variant_run.read_rules([Rules(), None, Rules()]) is None  # all classic
    # Equal rule sets come back as the first of them (grouped by identity after this).
    read = variant_run.read_rules([x, Rules.named("x"), {"diagonals": True}, windoku, "x"])
    assert read == [x, x, x, windoku, x] and read is not None
    assert read[0] is read[1] is read[2] is read[4] is x
    assert variant_run.read_rules([]) is None
    with pytest.raises(TypeError, match="puzzle 2: rules must be"):
        variant_run.read_rules([x, x, 3, x, 4])
    # A rule set that does not fit is named by the first puzzle that has it.
    puzzles = ["." * 81] * 6
    with pytest.raises(ValueError, match="puzzle 3: cage 0: sum 40"):
        sf.count_many(puzzles, rules=[x, None, x, bad, windoku, bad])
    with pytest.raises(ValueError, match="puzzle 0: cage 0: sum 40"):
        sf.count_many(puzzles, rules=bad)
    with pytest.raises(ValueError, match=r"^cage 0: sum 40"):
        sf.count_solutions(puzzles[0], rules=bad)


def test_a_read_list_encodes_as_its_plain_copy() -> None:
    # What read_rules keeps for the next steps gives what a plain list of the same rule
    # sets gives: the same records and starts, the same box, the same first bad puzzle.
    x, windoku, knight = Rules.named("x"), Rules.named("windoku"), Rules.named("anti-knight")
    items = [x, None, windoku, Rules.named("x"), knight, None, Rules.named("windoku"), x]
    read = variant_run.read_rules(items)
    assert isinstance(read, encode.RuleList) and read == [x, None, windoku, x, knight, None,
                                                          windoku, x]  # fmt: skip
    assert encode.encode_batch(read, 8, 9, (3, 3)) == encode.encode_batch(list(read), 8, 9, (3, 3))
    assert encode.encode_batch(read[2:5], 3, 9, (3, 3)) == encode.encode_batch(
        [windoku, x, knight], 3, 9, (3, 3)
    )  # a slice is a plain list
    jigsaw = Rules(regions="".join(str(min(k // 5, 4)) for k in range(25)))  # 5x5: no boxes
    assert variant_run.box_for(variant_run.read_rules([None, x, jigsaw]), None, None) == (1, 5)
    assert variant_run.box_for(variant_run.read_rules([x, None]), None, None) is None
    bad = [Rules(cages=(Cage([0, 1], 40),)) for _ in range(2)]  # equal, two objects
    for rules, first in (
        ([x, x, bad[0], None, bad[1]], 2),
        ([None, x, knight, x, bad[1], bad[0]], 4),
    ):
        with pytest.raises(ValueError, match=f"^puzzle {first}: cage 0: sum 40"):
            sf.count_many(["." * 81] * len(rules), rules=rules, threads=2)
        # on_error: the bad rows answer None, the others their counts
        got = sf.count_many(["." * 81] * len(rules), rules=rules, on_error="none", limit=1)
        assert got == [None if r in bad else 1 for r in rules]


def test_index_rules_finds_each_puzzles_first_rule_set(side: Side) -> None:
    # What read_rules builds on: each distinct key once, in order of first appearance,
    # and each puzzle's position among them, on both sides and against a plain reading.
    engine = side.module(_variant)
    pool = [Rules.named(name) for name in ("x", "windoku", "anti-knight", "x", "windoku")]
    pool.append(Rules(cages=(Cage([0, 1], 3),)))
    items = random.Random(33).choices(pool, k=300)
    indexed = engine.index_rules(items, Rules)
    assert indexed is not None
    firsts, which, each = indexed
    expected: dict[object, Rules] = {}
    for rules in items:
        expected.setdefault(rules, rules)
    assert list(firsts.values()) == list(expected) and len(firsts) == 4
    assert all(first is expected[first] for first in firsts.values())  # the first objects
    assert list(which) == [list(expected).index(rules) for rules in items]
    assert all(got is expected[rules] for got, rules in zip(each, items, strict=True))
    assert engine.index_rules([], Rules) == ({}, which[:0], [])
    # Another type anywhere (a JSON form, None) is left to the caller's slower reading.
    assert engine.index_rules([*items, None], Rules) is None
    assert engine.index_rules([{"diagonals": True}, *items], Rules) is None
    subclass = type("OwnRules", (Rules,), {})
    assert engine.index_rules([subclass(diagonals=True), *items], Rules) is not None
    starts = engine.gather_starts(array("q", [0, 7, 19, 30]), which)
    assert list(starts) == [[0, 7, 19, 30][k] for k in which]
    with pytest.raises(ValueError, match=r"item 1: position 4 outside 0\.\.3"):
        engine.gather_starts(array("q", [0, 7, 19, 30]), array("i", [0, 4]))


def test_solve_range_writes_every_item_of_uninitialised_buffers(side: Side) -> None:
    # The batch path hands the engine uninitialised buffers (their pages then first
    # touched on the worker threads): every item must be written, solution or not.
    engine = side.module(_variant)
    x = Rules.named("x")
    solved = sf.generate(seed=4, rules=x).puzzle
    clash = "11" + "." * 79  # no solution
    grids = bytearray(b"".join(bytes(0 if c == "." else int(c) for c in p) for p in
                               (solved, clash, "." * 81)))  # fmt: skip
    record = encode.encode_rules(x, 9, (3, 3))
    garbage, sentinel = 0x5A, -12345
    for stop_flag, expected in ((bytearray(1), [1, 0, 2]), (bytearray(b"\x01"), [-2, -2, -2])):
        solutions = bytearray([garbage]) * (3 * 81)
        counts = array("i", [sentinel] * 3)
        guesses, nodes, nanos = (array("q", [sentinel] * 3) for _ in range(3))
        engine.solve_range(
            memoryview(record).cast("h"), array("q", [0, 0, 0]), grids, solutions, counts,
            guesses, nodes, nanos, 0, 3, 9, 2, 0, stop_flag,
        )  # fmt: skip
        assert list(counts) == expected
        assert solutions[81:162] == bytes(81)  # no solution: zeros
        if expected[0] == 1:
            for k, puzzle in ((0, solved), (2, "." * 81)):
                found = "".join(map(str, solutions[81 * k : 81 * (k + 1)]))
                assert sf.is_solution(found, puzzle, rules=x)
            assert min(*guesses, *nodes, *nanos) >= 0
        else:  # stopped: zeros throughout
            assert solutions == bytes(3 * 81)
            assert list(guesses) == list(nodes) == list(nanos) == [0, 0, 0]


def test_solve_range_claims_chunks_from_a_shared_counter(side: Side) -> None:
    # A batch's threads each make one call that takes chunks from a shared counter:
    # every puzzle is solved once, with the answers of one plain call over the range.
    engine = side.module(_variant)
    x = Rules.named("x")
    puzzles = [sf.generate(seed=k, rules=x).puzzle for k in range(6)] + ["11" + "." * 79]
    n = 7 * 20
    grids = bytearray(b"".join(bytes(0 if c == "." else int(c) for c in puzzles[k % 7])
                               for k in range(n)))  # fmt: skip
    record = memoryview(encode.encode_rules(x, 9, (3, 3))).cast("h")
    starts = array("q", [0] * n)

    def buffers() -> tuple[bytearray, array[int], array[int], array[int]]:
        return bytearray(81 * n), array("i", [-9] * n), array("q", [-9] * n), array("q", [-9] * n)

    plain = buffers()
    engine.solve_range(record, starts, grids, *plain, None, 0, n, 9, 2)
    shared = buffers()
    claim = array("q", [0])
    callers = [
        threading.Thread(
            target=engine.solve_range,
            args=(record, starts, grids, *shared, None, 0, n, 9, 2),
            kwargs={"claim": claim, "share": 4, "min_chunk": 1, "max_chunk": 7},
        )
        for _ in range(3)
    ]
    for caller in callers:
        caller.start()
    for caller in callers:
        caller.join()
    assert list(plain[1]) == [0 if k % 7 == 6 else 1 for k in range(n)]
    assert shared == plain
    assert claim[0] >= n
    for bad in ({"share": 0}, {"min_chunk": 0}, {"min_chunk": 8, "max_chunk": 7}):
        with pytest.raises(ValueError, match="share and chunk sizes must be positive"):
            engine.solve_range(record, starts, grids, *buffers(), None, 0, n, 9, 2,
                               claim=array("q", [0]), **bad)  # fmt: skip


def test_solve_range_reads_plain_texts_on_its_threads(side: Side) -> None:
    # A list of plain 9x9 strings is read by the threads that solve it, each chunk's
    # strings just before they are solved: the answers are those of encoded grids, and
    # the first item not in the plain form is reported (every thread then stops taking).
    engine = side.module(_variant)
    x = Rules.named("x")
    puzzles = [sf.generate(seed=k, rules=x).puzzle for k in range(5)] + ["11" + "." * 79]
    n = 6 * 12
    texts = tuple(puzzles[k % 6].replace(".", "0" if k % 4 == 0 else ".") for k in range(n))
    grids = bytearray(b"".join(bytes(0 if c in ".0" else int(c) for c in p) for p in texts))
    record = memoryview(encode.encode_rules(x, 9, (3, 3))).cast("h")
    starts = array("q", [0] * n)

    def buffers() -> tuple[bytearray, array[int], array[int], array[int]]:
        return bytearray(81 * n), array("i", [-9] * n), array("q", [-9] * n), array("q", [-9] * n)

    plain = buffers()
    assert engine.solve_range(record, starts, grids, *plain, None, 0, n, 9, 2) == -1
    read = buffers()
    parsed = bytearray([0x5A]) * (81 * n)  # uninitialised: every row is written first
    got = engine.solve_range(record, starts, parsed, *read, None, 0, n, 9, 2,
                             texts=texts, parsed=parsed)  # fmt: skip
    assert got == -1 and read == plain and parsed == grids
    for bad_item in ("x" * 81, texts[3][:80], texts[3].encode(), None, texts[3] + "1"):
        bad: list[object] = list(texts)
        bad[40] = bad_item
        one = engine.solve_range(record, starts, bytearray(81 * n), *buffers(), None, 0, n,
                                 9, 2, texts=tuple(bad), parsed=bytearray(81 * n))  # fmt: skip
        assert one == 40
        claim = array("q", [0])
        found: list[int] = []

        def claiming(bad: tuple[object, ...], claim: array[int], found: list[int]) -> None:
            found.append(engine.solve_range(
                record, starts, bytearray(81 * n), *buffers(), None, 0, n, 9, 2,
                claim=claim, share=4, min_chunk=1, max_chunk=5, texts=bad,
                parsed=bytearray(81 * n),
            ))  # fmt: skip

        callers = [
            threading.Thread(target=claiming, args=(tuple(bad), claim, found)) for _ in range(3)
        ]
        for caller in callers:
            caller.start()
        for caller in callers:
            caller.join()
        assert sorted(found) == [-1, -1, 40] and claim[0] >= n
    with pytest.raises(ValueError, match="texts need a 9x9 batch"):
        engine.solve_range(record, starts, parsed, *buffers(), None, 0, n, 9, 2,
                           texts=texts[:-1], parsed=parsed)  # fmt: skip
    with pytest.raises(ValueError, match="texts need a 9x9 batch"):
        engine.solve_range(record, starts, parsed, *buffers(), None, 0, n, 9, 2, texts=texts)


def test_lists_of_plain_strings_answer_as_the_full_parser(monkeypatch: pytest.MonkeyPatch) -> None:
    # A list of plain strings is read by the worker threads (`run_plain_list`); a tuple
    # goes through the full parser first. Answers and errors must not tell them apart,
    # whatever the list holds and wherever.
    x, windoku = Rules.named("x"), Rules.named("windoku")
    puzzles = [sf.generate(seed=k, rules=x).puzzle for k in range(4)] * 30
    rules: list[Rules | None] = [x, x, None, windoku] * 30
    puzzles[2::4] = [sf.generate(seed=9)] * 30
    puzzles[3::4] = [sf.generate(seed=7, rules=windoku).puzzle] * 30
    multi_line = "\n".join(puzzles[50][k : k + 9] for k in range(0, 81, 9))
    read: list[object] = []
    real = variant_run.run_plain_list

    def spy(*args: object, **kwargs: object) -> object:
        got = real(*args, **kwargs)  # type: ignore[arg-type]
        read.append(got is not None)
        return got

    monkeypatch.setattr("sudoku_fast.solving.run_plain_list", spy)
    for threads in (1, 2):
        for batch in (puzzles, [*puzzles[:50], multi_line, *puzzles[51:]]):
            read.clear()
            assert (
                sf.count_many(batch, rules=rules, threads=threads)
                == sf.count_many(tuple(batch), rules=rules, threads=threads)
                == [1] * 120
            )
            assert sf.solve_many(list(batch), rules=rules, threads=threads) == sf.solve_many(
                tuple(batch), rules=rules, threads=threads
            )
            # The tuples and the list with a multi-line item: the full parser.
            assert read == [batch is puzzles, False] * 2
        for index, item in ((77, "x" * 81), (119, puzzles[0][:80]), (0, 12), (5, puzzles[5] + "5")):
            wrong: list[object] = list(puzzles)
            wrong[index] = item
            errors = []
            for given in (wrong, tuple(wrong)):
                with pytest.raises((ValueError, TypeError)) as caught:
                    sf.solve_many(given, rules=rules, threads=threads)
                errors.append((type(caught.value), str(caught.value)))
            assert errors[0] == errors[1] and f"puzzle {index}" in errors[0][1]
        with pytest.raises(ValueError, match="119 rule sets for 120 puzzles"):
            sf.count_many(puzzles, rules=rules[:-1], threads=threads)


def test_equal_rules_share_one_record() -> None:
    x, windoku = Rules.named("x"), Rules.named("windoku")
    records, starts = encode.encode_batch([x, Rules.named("x"), None, windoku, x], 5, 9, (3, 3))
    x_words = len(encode.encode_rules(x, 9, (3, 3))) // 2
    classic_words = len(encode.encode_rules(Rules(), 9, (3, 3))) // 2
    assert list(starts) == [0, 0, x_words, x_words + classic_words, 0]
    assert records == b"".join(encode.encode_rules(r, 9, (3, 3)) for r in (x, Rules(), windoku))
    one, zeros = encode.encode_batch(windoku, 3, 9, (3, 3))
    assert one == encode.encode_rules(windoku, 9, (3, 3)) and list(zeros) == [0, 0, 0]
    assert encode.encode_batch(Rules(cages=(Cage([0, 1], 40),)), 0, 9) == (b"", starts[:0])


def _one_field_apart() -> list[Rules]:
    """Rule sets that differ from the first, and from each other, in one field each."""
    base = Rules(cages=(Cage((0, 1), 3), Cage((2, 3))), thermos=((12, 13),))
    return [
        base,
        dataclasses.replace(base, regions="1" * 9 + "2" * 9 + "3" * 9 + "4" * 9 + "5" * 9
                            + "6" * 9 + "7" * 9 + "8" * 9 + "9" * 9),
        *(dataclasses.replace(base, **{flag: True}) for flag in (
            "diagonals", "windoku", "disjoint", "anti_knight", "anti_king", "non_consecutive"
        )),
        dataclasses.replace(base, extra=((0, 10),)),
        dataclasses.replace(base, cages=(Cage((0, 1), 4), Cage((2, 3)))),  # another sum
        dataclasses.replace(base, cages=(Cage((0, 1)), Cage((2, 3)))),  # no sum
        dataclasses.replace(base, cages=(Cage((0, 1), 3), Cage((2, 3), 3))),
        dataclasses.replace(base, cages=(Cage((0,), 3), Cage((1, 2, 3)))),  # split elsewhere
        dataclasses.replace(base, cages=(Cage((1, 0), 3), Cage((2, 3)))),  # cells reordered
        dataclasses.replace(base, cages=(Cage((0, 1), 3),)),
        dataclasses.replace(base, thermos=((13, 12),)),
        dataclasses.replace(base, thermos=()),
    ]  # fmt: skip


def test_equality_and_hash_see_every_field() -> None:
    apart = _one_field_apart()
    assert len(set(apart)) == len(apart)  # all different, by hash and by value
    for rules in apart:
        again = Rules.from_json(rules.to_json())  # equal, built anew
        assert again == rules and hash(again) == hash(rules) and again is not rules
        assert pickle.loads(pickle.dumps(rules)) == rules
        assert sum(other == rules for other in apart) == 1
    # A cell far outside the grid still compares by value (and is an error).
    huge = Rules(cages=(Cage((0, 2**20), 3),))
    assert huge == Rules(cages=(Cage((0, 2**20), 3),)) and huge != apart[0]
    with pytest.raises(ValueError, match="outside the 9x9 grid"):
        encode.checked_record(huge, 9)
    # "No sum" is never mistaken for a total at any width of the numbers, nor a number
    # past 64 bits for another; a 16x16 rule set (numbers past one byte) compares too.
    for total in (-128, 127, -(2**15), -(2**31), -(2**63), 2**63, 2**64 + 3):
        summed = Rules(cages=(Cage((0, 1), total),))
        assert summed != Rules(cages=(Cage((0, 1)),)) and summed != apart[0]
        assert summed == Rules(cages=(Cage((0, 1), total),))
        assert hash(summed) == hash(Rules(cages=(Cage((0, 1), total),)))
        assert pickle.loads(pickle.dumps(summed)) == summed
    wide = Rules(cages=(Cage((200, 255), 31),), thermos=((254, 253),))
    assert wide == Rules.from_json(wide.to_json()) and wide != dataclasses.replace(
        wide, cages=(Cage((200, 255), 32),)
    )
    assert Rules(extra=((0, 1),)) != Rules(cages=(Cage((0, 1)),))  # same numbers, other rule


def test_records_are_kept_by_value_never_stale() -> None:
    # Equal rule sets, however made, share one record; one field apart, never.
    records = [encode.checked_record(rules, 9) for rules in _one_field_apart()]
    for rules, record in zip(_one_field_apart(), records, strict=True):
        again = Rules.from_json(rules.dumps())
        assert encode.checked_record(again, 9) is record
        assert record == encode.encode_rules(rules, 9)  # made for these rules, not others
    assert len(set(records)) == len(records)
    # A rule set that does not fit is an error every time, never a kept record.
    bad = Rules(cages=(Cage((0, 1), 40),))
    for _ in range(2):
        with pytest.raises(ValueError, match="sum 40"):
            encode.checked_record(bad, 9)
    # Answers follow the rules of each puzzle of a batch whatever was seen before.
    puzzle = "." * 81
    sums = [Rules(cages=(Cage((0, 1), total),)) for total in (3, 4, 3, 17)]
    solved = sf.solve_many([puzzle] * 4, rules=sums)
    assert [int(s[0]) + int(s[1]) for s in solved] == [3, 4, 3, 17]
    encode.forget_records()
    assert encode.checked_record(sums[0], 9) == encode.encode_rules(sums[0], 9)


def test_records_follow_the_object_not_its_id() -> None:
    # Rule sets made and dropped one after another (ids may be reused): each gets its own.
    for k in range(40):
        rules = Rules(extra=((k, k + 1),)) if k % 2 else Rules.named("anti-knight")
        assert encode.checked_record(rules, 9) == encode.encode_rules(rules, 9)
        del rules

    class Fresh:
        """A sequence that makes a new rule set at each access."""

        def __len__(self) -> int:
            return 4

        def __getitem__(self, i: int) -> Rules:
            if i >= 4:
                raise IndexError(i)
            return Rules.named("x") if i % 2 else Rules.named("anti-king")

    puzzles = ["1" + "." * 80] * 4
    got = sf.count_many(puzzles, rules=Fresh(), limit=3)
    assert got == [sf.count_solutions(puzzles[0], limit=3, rules=r) for r in Fresh()]


def test_cli_count_with_rules(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from sudoku_fast.cli import main

    assert main(["count", "." * 16, "--variant", "x", "--limit", "100"]) == 0
    assert capsys.readouterr().out.strip() == "48"
    rules = tmp_path / "killer.json"
    rules.write_text(json.dumps({"cages": [{"cells": [0, 1], "sum": 3}]}))
    assert main(["count", "3" + "." * 80, "--rules", str(rules)]) == 0
    assert capsys.readouterr().out.strip() == "0"
    rules.write_text(json.dumps({"cages": [{"cells": [0, 1], "sum": 40}]}))
    assert main(["count", "." * 81, "--rules", str(rules)]) != 0
    assert "cage 0: sum 40 is outside 3..17" in capsys.readouterr().err


@needs_sigint
def test_ctrl_c_stops_one_long_range_of_short_puzzles() -> None:
    # 500,000 empty X grids in one engine call, each counted until it is cut off after
    # 200 search nodes, fewer than the search's own look at signals: only the range's
    # looks between puzzles can see Ctrl-C. The call would take 15 s or more (a first
    # solution would take only ~40 nodes, and the call ended before the signal).
    code = (
        "from array import array; import sudoku_fast as sf; "
        "from sudoku_fast._variants import _variant, encode; n = 500_000; "
        "rec = memoryview(encode.checked_record(sf.Rules.named('x'), 9)).cast('h'); "
        "q = lambda: array('q', bytes(8 * n)); "
        "_variant.solve_range(rec, q(), bytearray(81 * n), bytearray(81 * n), "
        "array('i', bytes(4 * n)), q(), q(), None, 0, n, 9, 10**9, 200)"
    )
    status, err, seconds = interrupt([sys.executable, "-c", code])
    assert status != 0 and "KeyboardInterrupt" in err, err
    assert seconds < 5


def test_a_stop_flag_ends_every_puzzle_of_a_range_after_it() -> None:
    from array import array

    from sudoku_fast._variants import _variant

    n = 50
    record = memoryview(encode.checked_record(Rules.named("x"), 9)).cast("h")
    counts = array("i", bytes(4 * n))
    flag = bytearray(b"\x01")
    _variant.solve_range(
        record, array("q", bytes(8 * n)), bytearray(81 * n), bytearray(81 * n), counts,
        array("q", bytes(8 * n)), array("q", bytes(8 * n)), None, 0, n, 9, 1, 0, flag,
    )  # fmt: skip
    assert list(counts) == [-2] * n


def test_region_units_follow_the_labels_first_appearance() -> None:
    from sudoku_fast._base.rules import region_cells, rules_tables

    assert region_cells("baab") == ((0, 3), (1, 2))
    assert region_cells("") == ()
    rng = random.Random(33)
    for size in (4, 6, 9):
        labels = [chr(65 + k) for k in range(size) for _ in range(size)]
        rng.shuffle(labels)
        regions = "".join(labels)
        expected: dict[str, list[int]] = {}
        for cell, label in enumerate(regions):
            expected.setdefault(label, []).append(cell)
        tables = rules_tables(Rules(regions=regions, diagonals=True), size)
        n = size
        rows = [tuple(range(r * n, r * n + n)) for r in range(n)]
        cols = [tuple(range(c, n * n, n)) for c in range(n)]
        diagonals = [
            tuple(i * (n + 1) for i in range(n)),
            tuple((i + 1) * (n - 1) for i in range(n)),
        ]
        assert list(tables.units) == rows + cols + [tuple(c) for c in expected.values()] + diagonals


def test_from_json_reads_cages_of_any_form_alike() -> None:
    # json.loads' lists and dicts take a quicker path than other forms: same answers,
    # same errors.
    cages = [{"cells": [0, 1, 9], "sum": 20}, {"cells": [2, 3]}]
    assert Rules.from_json({"cages": cages}) == Rules(cages=(Cage((0, 1, 9), 20), Cage((2, 3))))
    assert Rules.from_json(
        {"cages": [{"cells": (0, 1, 9), "sum": 20}, {"cells": iter([2, 3])}]}
    ) == (Rules.from_json({"cages": cages}))
    for bad, message in (
        ({"cells": []}, "cage: needs at least one cell"),
        ({"cells": [0, True]}, "cage 0: cell True is not an int"),
        ({"cells": [0, 1.0]}, "cage 0: cell 1.0 is not an int"),
        ({"cells": [0, 1], "sum": 3.0}, "cage total must be an int or None, not 3.0"),
        ({"cells": [0, 1], "sum": True}, "cage total must be an int or None, not True"),
        ({"cells": [0, 1], "total": 3}, "cage 0: unknown key 'total'"),
        ({"sum": 3}, "cage 0: expected an object with 'cells'"),
        ({"cells": "01"}, "cage 0: expected a list of cell indices, not str"),
    ):
        with pytest.raises(
            ValueError, match=f"^rules: {re.escape(message)}$|^{re.escape(message)}$"
        ):
            Rules.from_json({"cages": [bad]})
