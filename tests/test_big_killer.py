"""Killer cages on grids above 11x11: the general engine's combination logic.

The digit sets a cage may hold are checked against a plain enumeration, the sums the
45 rule adds against hand-worked units, and the engine's counts on 16x16 killers with
few givens against the SAT counter of tests/variant_oracle.py (written apart from the
package), every solution against its rule checker.
"""

from __future__ import annotations

import itertools
import random

import pytest
import variant_oracle as oracle

import sudoku_fast as sf
from sudoku_fast import Cage, Rules
from sudoku_fast._engine import _general
from sudoku_fast._generation.variants import _random_cages
from sudoku_fast._variants.big import BigGridCounter, unit_remainders

SYMBOLS = oracle.SYMBOLS


@pytest.mark.parametrize("size", [4, 9, 16])
def test_digit_sets_are_every_combination(size: int) -> None:
    for length in range(1, min(size, 6) + 1):
        for total in range(0, size * length + 2):
            expected = sorted(
                sum(1 << (v - 1) for v in combo)
                for combo in itertools.combinations(range(1, size + 1), length)
                if sum(combo) == total
            )
            assert _general.count_digit_sets(length, total, size) == len(expected)
            assert sorted(_general.digit_sets(length, total, size)) == expected


def test_digit_sets_past_the_cap_are_not_listed() -> None:
    # 6 cells adding up to 78 on 25x25: the middle sum, thousands of sets.
    assert _general.count_digit_sets(6, 78, 25) > _general.MAX_DIGIT_SETS
    assert _general.digit_sets(6, 78, 25) is None
    assert len(_general.digit_sets(6, 78, 25, 100_000)) == _general.count_digit_sets(6, 78, 25)


def test_unit_remainders_follow_the_45_rule() -> None:
    size = 16
    row = tuple(range(size))
    column = tuple(range(0, size * size, size))
    # Row 0 holds cages of 14 of its cells (sums 30 + 40 + 50): the other two add up
    # to 136 - 120 = 16. The cage (0, 16) crosses into row 1 and counts for no row,
    # but lies in column 0, whose remainder is then too big to list.
    cages = (((2, 3, 4, 5), 30), (tuple(range(6, 11)), 40), (tuple(range(11, 16)), 50))
    cages += (((0, 16), 9),)
    found = dict(unit_remainders([row, column], cages, size))
    assert found == {(0, 1): 16}
    # A remainder that is already a cage is not added again.
    assert unit_remainders([row], (*cages, ((0, 1), 16)), size) == ()


def _killer(seed: int, given: int) -> tuple[str, Rules, str]:
    """A 16x16 killer cut from a random grid of the SAT solver (a few random clues
    first), with the generator's cages and `given` of its digits."""
    rng = random.Random(f"big-killer-{seed}")
    size = 16
    while True:
        clues = [0] * size * size
        for cell in rng.sample(range(size * size), 3):
            clues[cell] = rng.randint(1, size)
        puzzle = "".join(SYMBOLS[v - 1] if v else "." for v in clues)
        found = oracle.count_solutions(puzzle, {"size": size}, 1)[1]
        if found:
            break
    solution = bytearray(SYMBOLS.index(ch) + 1 for ch in found[0])
    rules = Rules(cages=_random_cages(rng, solution, size))
    keep = set(rng.sample(range(size * size), given))
    text = "".join(ch if i in keep else "." for i, ch in enumerate(found[0]))
    return text, rules, found[0]


@pytest.mark.parametrize("seed", range(3))
def test_few_givens_16x16_killers_count_as_the_sat_counter(seed: int) -> None:
    pytest.importorskip("pysat")
    puzzle, rules, _ = _killer(seed, 8)
    document = {"size": 16, **rules.to_json()}
    count = sf.count_solutions(puzzle, rules=rules, max_nodes=50_000)
    assert count == oracle.count_solutions(puzzle, document, 2)[0]
    solution = sf.solve(puzzle, rules=rules, max_nodes=50_000)
    assert solution is not None and oracle.is_valid_solution(solution, document, puzzle)


def test_digits_a_cage_must_hold_leave_its_row() -> None:
    # Cells 0 and 1 add up to 3: they hold 1 and 2, so no other cell of row 0 may. The
    # cage on cells 4 and 5 adding up to 5 needs 1 + 4 or 2 + 3: no solution, found
    # before any guess.
    rules = Rules(cages=(Cage((0, 1), 3), Cage((4, 5), 5)))
    counter = BigGridCounter(rules, 16, (4, 4))
    assert counter.count(bytearray(256), 2) == 0
    assert counter._nodes[0] == 1
    # Adding up to 7 instead (3 + 4), the grid has solutions; the cage's digits are
    # never 1 or 2.
    rules = Rules(cages=(Cage((0, 1), 3), Cage((4, 5), 7)))
    solution = sf.solve("." * 256, rules=rules)
    assert solution is not None
    assert {solution[4], solution[5]} == {"3", "4"}
    assert oracle.is_valid_solution(solution, {"size": 16, **rules.to_json()}, "." * 256)


def test_a_cage_with_one_empty_cell_gets_its_digit() -> None:
    # The cage (0, 1, 2, 16) adds up to 20 with 1, 2 and 5 given in it: cell 2 must be
    # 20 - 1 - 2 - 5 = 12 in every solution.
    rules = Rules(cages=(Cage((0, 1, 2, 16), 20),))
    counter = BigGridCounter(rules, 16, (4, 4))
    grid = bytearray(256)
    grid[0], grid[1], grid[16] = 1, 2, 5
    assert counter.count(grid, 1) == 1
    assert counter.solution[2] == 12
    grid[2] = 11
    assert counter.count(grid, 1) == 0
