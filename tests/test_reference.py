"""Differential tests: the compiled engine against the pure-Python reference solver."""

from __future__ import annotations

import random

import pytest
from checks import check_solution

import sudoku_fast as sf
from sudoku_fast._engine import _general_py as reference
from sudoku_fast.datasets import load_embedded


def random_puzzles(seed: int, count: int) -> list[str]:
    """Puzzles made by removing random clues from solved grids, from easy to multi-solution.

    Grids come from the reference solver on relabelled, transposed known puzzles, so
    the source of grids is independent of the engine under test. Some puzzles also get
    a random wrong clue, so that puzzles with no solution are covered.
    """
    rng = random.Random(seed)
    bases = load_embedded("norvig_easy50")
    puzzles = []
    for _ in range(count):
        base = reference.solve(rng.choice(bases))
        assert base is not None
        digits = list("123456789")
        rng.shuffle(digits)
        grid = base.translate(str.maketrans("123456789", "".join(digits)))
        if rng.random() < 0.5:  # transpose
            grid = "".join(grid[9 * c + r] for r in range(9) for c in range(9))
        keep = rng.randint(17, 45)
        cells = list(grid)
        for k in rng.sample(range(81), 81 - keep):
            cells[k] = "."
        if rng.random() < 0.2:  # a possibly wrong clue on an empty cell
            empty = [k for k in range(81) if cells[k] == "."]
            cells[rng.choice(empty)] = str(rng.randint(1, 9))
        puzzles.append("".join(cells))
    return puzzles


@pytest.mark.parametrize("seed", range(4))
def test_counts_agree_with_reference(seed: int) -> None:
    puzzles = random_puzzles(seed, 40)
    for limit in (1, 2, 3):
        expected = [reference.count_solutions(p, limit) for p in puzzles]
        assert sf.count_many(puzzles, limit=limit) == expected
        assert [sf.count_solutions(p, limit) for p in puzzles] == expected


def test_the_random_puzzles_cover_all_outcomes() -> None:
    counts = {reference.count_solutions(p, 2) for s in range(4) for p in random_puzzles(s, 40)}
    assert counts == {0, 1, 2}


@pytest.mark.parametrize("seed", range(2))
def test_solutions_agree_with_reference(seed: int) -> None:
    puzzles = random_puzzles(100 + seed, 40)
    for puzzle, solution in zip(puzzles, sf.solve_many(puzzles), strict=True):
        expected = reference.solve(puzzle)
        if expected is None:
            assert solution is None
        else:
            check_solution(solution, puzzle)
            check_solution(expected, puzzle)
            if reference.count_solutions(puzzle, 2) == 1:
                assert solution == expected


def test_reference_on_hard_puzzles() -> None:
    for puzzle in load_embedded("norvig_hardest"):
        check_solution(reference.solve(puzzle), puzzle)
        assert reference.count_solutions(puzzle) == 1
        assert reference.solve(puzzle) == sf.solve(puzzle)


def test_reference_rejects_bad_limit() -> None:
    with pytest.raises(ValueError):
        reference.count_solutions("." * 81, 0)
