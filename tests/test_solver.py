"""solve / count_solutions: the single-puzzle API and its edge cases."""

from __future__ import annotations

import sys
import time

import pytest
from checks import check_solution
from conftest import interrupt, needs_sigint

import sudoku_fast as sf

PUZZLE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
SOLUTION = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
# b-nguyen/theory-final-project multi9x9.txt (via ../shared/data/mixed_validity_9x9.csv)
TWO_SOLUTIONS = "9.6.7.4.3...4..2...7..23.1.5.....1...4.2.8.6...3.....5.3.7...5...7..5...4.5.1.7.8"


def test_solve_known_puzzle() -> None:
    assert sf.solve(PUZZLE) == SOLUTION


def test_solve_any_notation() -> None:
    pretty = sf.show(PUZZLE)
    assert sf.solve(pretty) == SOLUTION
    assert sf.count_solutions(pretty) == 1


def test_solved_grid_is_its_own_solution() -> None:
    assert sf.solve(SOLUTION) == SOLUTION
    assert sf.count_solutions(SOLUTION) == 1


@pytest.mark.parametrize(
    "clash",
    [
        "55" + "." * 79,  # two 5s in a row
        "5" + "." * 8 + "5" + "." * 71,  # two 5s in a column
        "5" + "." * 9 + "5" + "." * 70,  # two 5s in a box
    ],
)
def test_clashing_clues_mean_no_solution_quickly(clash: str) -> None:
    start = time.perf_counter()
    assert sf.solve(clash) is None
    assert sf.count_solutions(clash) == 0
    assert sf.count_solutions(clash, limit=100) == 0
    assert time.perf_counter() - start < 1.0


def test_clashing_clues_need_no_search() -> None:
    from sudoku_fast._engine.run import run_engine

    results = run_engine(bytes([5, 5] + [0] * 79), 1, 2, 1)
    assert results.counts[0] == 0
    assert results.guesses[0] == 0
    assert results.nodes[0] == 1


def test_two_equal_clues_clash_exactly_when_they_see_each_other() -> None:
    # Every pair of cells, the same digit in both: no solution when the cells share a
    # row, column or box (worked out here, not by the engine), else some solution. Pairs
    # across bands and stacks reach every way the engine sets up its clues.
    from sudoku_fast._engine.run import run_engine

    pairs = [(i, j) for i in range(81) for j in range(i + 1, 81)]
    grids = bytearray(81 * len(pairs))
    for n, (i, j) in enumerate(pairs):
        digit = 1 + n % 9
        grids[81 * n + i] = digit
        grids[81 * n + j] = digit
    results = run_engine(bytes(grids), len(pairs), 1, 1)
    for n, (i, j) in enumerate(pairs):
        (ri, ci), (rj, cj) = divmod(i, 9), divmod(j, 9)
        peers = ri == rj or ci == cj or (ri // 3, ci // 3) == (rj // 3, cj // 3)
        assert results.counts[n] == (0 if peers else 1), (i, j)


def test_no_solution_without_clash() -> None:
    # Row 1 needs a 9 somewhere, but the only free cell's column already has one.
    puzzle = "12345678." + "........9" + "." * 63
    assert sf.solve(puzzle) is None
    assert sf.count_solutions(puzzle) == 0


def test_several_solutions() -> None:
    empty = "." * 81
    check_solution(sf.solve(empty), empty)
    assert sf.count_solutions(empty) == 2
    assert sf.count_solutions(empty, limit=1000) == 1000


def test_limit_caps_the_count() -> None:
    assert sf.count_solutions(TWO_SOLUTIONS, limit=1) == 1
    assert sf.count_solutions(PUZZLE, limit=5) == 1


def test_count_solutions_limit_must_be_positive() -> None:
    with pytest.raises(ValueError, match="limit"):
        sf.count_solutions(PUZZLE, limit=0)
    with pytest.raises(TypeError, match="limit"):
        sf.count_solutions(PUZZLE, limit=2.0)  # type: ignore[arg-type]


def test_solution_of_multi_solution_puzzle_is_valid() -> None:
    check_solution(sf.solve(TWO_SOLUTIONS), TWO_SOLUTIONS)
    assert sf.count_solutions(TWO_SOLUTIONS) == 2
    assert sf.count_solutions(TWO_SOLUTIONS, limit=10) == 2


@needs_sigint
def test_ctrl_c_interrupts_one_long_9x9_count() -> None:
    code = "import sudoku_fast as sf; sf.count_solutions('.' * 81, 10**9)"
    status, err, seconds = interrupt([sys.executable, "-c", code])
    assert status != 0 and "KeyboardInterrupt" in err, err
    assert seconds < 5


def test_limit_and_budget_beyond_the_engine_types_are_value_errors() -> None:
    with pytest.raises(ValueError, match=r"limit must be from 1 to 2,147,483,647"):
        sf.count_solutions("." * 81, 2**31)
    with pytest.raises(ValueError, match=r"max_nodes must be from 1 to 9,223,372,036,854,775,807"):
        sf.solve("." * 256, max_nodes=2**63)
    with pytest.raises(ValueError, match="limit must be from 1"):
        sf.count_many(["." * 81], 2**40)
    assert sf.count_solutions(PUZZLE, 2**31 - 1) == 1  # the largest limit works
    assert sf.count_solutions("." * 16, 2**31 - 1, max_nodes=2**63 - 1) == 288


def test_flags_are_true_or_false() -> None:
    # A truthy string such as "False" would silently mean the opposite.
    puzzle = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    calls = [
        lambda: sf.solve(puzzle, marks=1),  # type: ignore[arg-type]
        lambda: sf.count_solutions(puzzle, marks="False"),  # type: ignore[arg-type]
        lambda: sf.solve_many([puzzle], marks=0),  # type: ignore[arg-type]
        lambda: sf.count_many([puzzle], marks=None),  # type: ignore[arg-type]
        lambda: sf.parse(puzzle, marks="no"),  # type: ignore[arg-type]
        lambda: sf.rate(puzzle, score="yes"),  # type: ignore[arg-type]
        lambda: sf.rate_many([puzzle], score=1),  # type: ignore[arg-type]
        lambda: sf.solve(puzzle, box=(3, 3), marks="False"),  # type: ignore[arg-type]
        lambda: sf.count_solutions(puzzle, alphabet="123456789", marks=1),  # type: ignore[arg-type]
    ]
    for call in calls:
        with pytest.raises(TypeError, match=r"(marks|score) must be True or False"):
            call()
