"""Variant rules on grids above 11x11 (12x12, 16x16, 25x25): the general engine's path.

Counts (to 2) are checked against the SAT counter and every solution against the rule
checker of tests/variant_oracle.py, both written apart from the package.
"""

from __future__ import annotations

import random

import pytest
import variant_oracle as oracle
from conftest import Side

import sudoku_fast as sf
from sudoku_fast import Cage, Rules
from sudoku_fast._generation.variants import _random_cages, _random_thermos, random_regions

SYMBOLS = oracle.SYMBOLS
BOXES = {12: (3, 4), 16: (4, 4), 25: (5, 5)}


def _text(values: list[int]) -> str:
    return "".join(SYMBOLS[v - 1] if v else "." for v in values)


def _values(text: str) -> list[int]:
    return [0 if ch == "." else SYMBOLS.index(ch) + 1 for ch in text]


def _rules(kind: str, size: int, rng: random.Random) -> Rules:
    if kind == "jigsaw":
        return Rules(regions=random_regions(rng, size, BOXES[size]))
    if kind == "jigsaw-x":
        return Rules(regions=random_regions(rng, size, BOXES[size]), diagonals=True)
    if kind == "extra":
        cells = size * size
        sets = [rng.sample(range(cells), rng.randint(2, size - 1)) for _ in range(3)]
        return Rules(extra=(*(tuple(s) for s in sets), tuple(range(size))))
    if kind == "cages-nosum":
        return Rules(cages=(Cage((0, 1, size)), Cage((size * size - 1, size * size - 2))))
    return Rules.named(kind)


def _cases(kind: str, size: int, seed: int, count: int, fewest: int = 3) -> list[tuple[str, Rules]]:
    """Seeded puzzles of one kind: a solution from the SAT solver (a few random clues
    first), then a random part of it as givens (between 1/`fewest` and half of the
    cells); the count may be 1 or more. Killer cages and thermometers are drawn from
    that solution (by the generator's own drawing), the other rules before it."""
    rng = random.Random(f"big-{kind}-{size}-{seed}")
    cases = []
    cells = size * size
    while len(cases) < count:
        rules = Rules() if kind in ("killer", "thermo") else _rules(kind, size, rng)
        document = {"size": size, **rules.to_json()}
        clues = [0] * cells
        for cell in rng.sample(range(cells), 2):
            clues[cell] = rng.randint(1, size)
        found = oracle.count_solutions(_text(clues), document, 1)[1]
        if not found:
            continue
        solution = _values(found[0])
        if kind == "killer":
            rules = Rules(cages=_random_cages(rng, bytearray(solution), size))
        elif kind == "thermo":
            rules = Rules(thermos=_random_thermos(rng, bytearray(solution), size))
        keep = set(rng.sample(range(cells), rng.randint(cells // fewest, cells // 2)))
        cases.append((_text([v if i in keep else 0 for i, v in enumerate(solution)]), rules))
    return cases


KINDS = ["x", "windoku", "disjoint", "jigsaw", "jigsaw-x", "anti-knight", "anti-king",
         "non-consecutive", "extra", "cages-nosum"]  # fmt: skip


# Every kind on 12x12 (3x4 boxes), the square-box ones on 16x16 too: the SAT counter
# takes about 0.5 s a 16x16 count, so a few cases each.
CASES = [(kind, 12) for kind in KINDS if kind != "windoku"]
CASES += [(kind, 16) for kind in ("x", "windoku", "jigsaw", "anti-knight", "anti-king")]
# Killer cages with their sums and thermometers, with fewer givens (a fifth of the cells
# at least): the sums and the bounds along the thermometers do more of the work.
CASES += [(kind, size) for kind in ("killer", "thermo") for size in (12, 16)]


@pytest.mark.parametrize(("kind", "size"), CASES)
def test_counts_equal_the_sat_counter(kind: str, size: int) -> None:
    pytest.importorskip("pysat")
    cases = _cases(kind, size, 1, 2, 5 if kind in ("killer", "thermo") else 3)
    puzzles = [p for p, _ in cases]
    rules = [r for _, r in cases]
    counts = sf.count_many(puzzles, limit=2, rules=rules, threads=2)
    solutions = sf.solve_many(puzzles, rules=rules, threads=2)
    for puzzle, rule, count, solution in zip(puzzles, rules, counts, solutions, strict=True):
        document = {"size": size, **rule.to_json()}
        assert count == oracle.count_solutions(puzzle, document, 2)[0], (puzzle, rule)
        assert solution is not None and oracle.is_valid_solution(solution, document, puzzle)
        assert sf.count_solutions(puzzle, rules=rule) == count
        single = sf.solve(puzzle, rules=rule)
        assert single is not None and oracle.is_valid_solution(single, document, puzzle)


def test_empty_grids_and_25x25() -> None:
    """Empty grids under rules the search fills quickly: a solution the checker accepts.

    (Empty 16x16 windoku, anti-knight and non-consecutive grids and empty 25x25 jigsaws
    run past the default node budget: see docs/variants.md.)"""
    for kind, size in (
        ("x", 16),
        ("disjoint", 16),
        ("anti-king", 16),
        ("x", 25),
        ("anti-king", 25),
    ):
        rules = Rules.named(kind)
        solution = sf.solve("." * size**2, rules=rules)
        assert solution is not None
        assert oracle.is_valid_solution(solution, {"size": size, **rules.to_json()})
    solution = sf.solve("." * 625, rules="x")
    assert solution is not None
    puzzle = solution[:-2] + ".."
    assert sf.count_solutions(puzzle, rules="x") == 1
    assert sf.count_solutions(puzzle, rules="x", limit=5) == 1


def test_contradictions_and_mixed_batches() -> None:
    """No solution is a count of 0; a batch may mix classic and variant puzzles."""
    puzzle = "1" + "." * 84 + "1" + "." * 170  # 1 at r1c1 and r6c6: twice on the diagonal
    assert sf.count_solutions(puzzle) == 2
    assert sf.count_solutions(puzzle, rules="x") == 0
    assert sf.solve(puzzle, rules="x") is None
    knight = "...1" + "." * 17 + "1" + "." * 234  # r1c4 and r2c6: a knight's move apart
    assert sf.count_solutions(knight) == 2
    assert sf.count_solutions(knight, rules="anti-knight") == 0
    near = "12" + "." * 254
    assert sf.count_solutions(near) == 2
    assert sf.count_solutions(near, rules="non-consecutive") == 0
    got = sf.solve_many([puzzle, "." * 256, puzzle], rules=[None, "x", "x"], threads=2)
    assert got[0] is not None and oracle.is_valid_solution(got[0], {"size": 16})
    assert got[1] is not None and oracle.is_valid_solution(got[1], {"size": 16, "diagonals": True})
    assert got[2] is None


def test_classic_answers_unchanged() -> None:
    """rules=None, {} or Rules() give the classic engine's answers on big grids."""
    rng = random.Random(7)
    solution = sf.solve("." * 256)
    assert solution is not None
    puzzles = []
    for _ in range(3):
        keep = set(rng.sample(range(256), 110))
        puzzles.append("".join(ch if i in keep else "." for i, ch in enumerate(solution)))
    classic = sf.count_many(puzzles, limit=2)
    for rules in (None, {}, Rules()):
        assert sf.count_many(puzzles, limit=2, rules=rules) == classic
    assert (
        sf.count_many(puzzles, limit=2, rules=[Rules.named("anti-king"), None, None])[1:]
        == (classic[1:])
    )


def test_rules_the_general_engine_does_not_take() -> None:
    with pytest.raises(ValueError, match="windoku: a 12x12 grid has no square boxes"):
        sf.count_solutions("." * 144, rules="windoku")
    with pytest.raises(ValueError, match=r"puzzle 1: cage 0: sum 40 is outside 3..31"):
        sf.count_many(["." * 256] * 2, rules=[None, Rules(cages=(Cage((0, 1), 40),))])
    many = Rules(extra=tuple((0, k) for k in range(1, 17)))  # partial sets are peers: fine
    assert sf.count_solutions("." * 256, rules=many) == 2
    crowded = Rules(extra=tuple(tuple(range(16)) for _ in range(14)))  # cell 0 in 17 units
    with pytest.raises(ValueError, match="17 units"):
        sf.count_solutions("." * 256, rules=crowded)


def test_sums_and_thermometers_decide_on_their_own() -> None:
    """Rules whose only say is a sum or an order, checked by reasoning on the rules."""
    # 16x16, r1c1 + r1c2 = 3: the two cells hold 1 and 2; = 31: 15 and 16 (F and G).
    for total, digits in ((3, ["1", "2"]), (31, ["F", "G"])):
        solution = sf.solve("." * 256, rules=Rules(cages=(Cage((0, 1), total),)))
        assert solution is not None and sorted(solution[:2]) == digits
    assert sf.count_solutions("3" + "." * 255, rules=Rules(cages=(Cage((0, 1), 3),))) == 0
    # A thermometer the length of a row: 1, 2, ..., 16 along it.
    solved = sf.solve("." * 256, rules=Rules(thermos=(tuple(range(16)),)))
    assert solved is not None and solved[:16] == "123456789ABCDEFG"
    down = Rules(thermos=(tuple(range(15, -1, -1)),))  # bulb in the row's last cell
    assert sf.solve("." * 256, rules=down)[:16] == "GFEDCBA987654321"  # type: ignore[index]
    bulb = "." * 15 + "G" + "." * 240  # the largest value in the bulb: nothing above it
    assert sf.count_solutions(bulb, rules=down) == 0


@pytest.mark.parametrize(
    "kind", ["x", "jigsaw", "anti-knight", "non-consecutive", "killer", "thermo"]
)
def test_twin_and_compiled_agree(side: Side, kind: str) -> None:
    """12x12 puzzles on both sides; counts match the SAT counter."""
    pytest.importorskip("pysat")
    for puzzle, rules in _cases(kind, 12, 3, 2):
        document = {"size": 12, **rules.to_json()}
        count = sf.count_solutions(puzzle, limit=2, rules=rules)
        assert count == oracle.count_solutions(puzzle, document, 2)[0]
        solution = sf.solve(puzzle, rules=rules)
        assert solution is not None and oracle.is_valid_solution(solution, document, puzzle)
