"""Every puzzle of the public data sets, solved and checked independently; counts compared.

Uses ../shared/data when present, the vendored samples in tests/data otherwise.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from checks import check_solution
from conftest import SHARED, data_file, read_csv, read_lines

import sudoku_fast as sf
from sudoku_fast.datasets import EMBEDDED_SETS, load_embedded


@pytest.mark.parametrize("name", EMBEDDED_SETS)
def test_embedded_sets(name: str) -> None:
    puzzles = load_embedded(name)
    solutions = sf.solve_many(puzzles)
    assert len(solutions) == len(puzzles)
    for puzzle, solution in zip(puzzles, solutions, strict=True):
        check_solution(solution, puzzle)
    assert sf.count_many(puzzles) == [1] * len(puzzles)


def test_kaggle_solutions_match_exactly() -> None:
    rows = read_csv(
        data_file(
            "kaggle_bryanpark_10k_with_solutions.csv",
            "kaggle_bryanpark_sample500_with_solutions.csv",
        )
    )
    assert len(rows) >= 500
    solutions = sf.solve_many([r["puzzle"] for r in rows])
    for row, solution in zip(rows, solutions, strict=True):
        check_solution(solution, row["puzzle"])
        assert solution == row["solution"]


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_rust_crate_sets_match_exactly(level: str) -> None:
    name = f"rust_sudoku_crate_{level}_with_solutions.csv"
    rows = read_csv(data_file(name, name))
    solutions = sf.solve_many([r["puzzle"] for r in rows])
    for row, solution in zip(rows, solutions, strict=True):
        check_solution(solution, row["puzzle"])
        assert solution == row["solution"]


def test_sudoku17_sample() -> None:
    puzzles = read_lines(data_file("sudoku17_49158.txt", "sudoku17_sample.txt"))
    puzzles = puzzles[::10] if len(puzzles) > 10_000 else puzzles  # ~5000 when full
    solutions = sf.solve_many(puzzles)
    for puzzle, solution in zip(puzzles, solutions, strict=True):
        check_solution(solution, puzzle)
    assert set(sf.count_many(puzzles)) == {1}


def test_mixed_validity_counts() -> None:
    rows = read_csv(data_file("mixed_validity_9x9.csv", "mixed_validity_9x9.csv"))
    puzzles = [r["puzzle"] for r in rows]
    truth = [int(r["num_solutions"]) for r in rows]
    assert sf.count_many(puzzles, limit=2) == [min(t, 2) for t in truth]
    above = max(truth) + 1
    assert sf.count_many(puzzles, limit=above) == truth
    for row, solution in zip(rows, sf.solve_many(puzzles), strict=True):
        if row["num_solutions"] == "0":
            assert solution is None, row
        else:
            check_solution(solution, row["puzzle"])
        if row["solution"]:
            assert solution == row["solution"]


def test_serg_multi_solution_counts() -> None:
    rows = read_csv(data_file("serg_benchmark_multi_solution.csv", "serg_benchmark_sample.csv"))
    rows = rows[::10] if len(rows) > 2000 else rows  # ~1000 when full
    puzzles = [r["puzzle"] for r in rows]
    truth = [int(r["num_solutions"]) for r in rows]
    assert min(truth) >= 2
    assert sf.count_many(puzzles, limit=2) == [2] * len(rows)
    assert sf.count_many(puzzles, limit=max(truth) + 1) == truth
    for puzzle, solution in zip(puzzles, sf.solve_many(puzzles), strict=True):
        check_solution(solution, puzzle)


def test_the_pytest_header_names_the_data_in_use() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-p", "no:cacheprovider", __file__],
        capture_output=True,
        text=True,
        check=False,
        cwd=Path(__file__).resolve().parent,
        timeout=120,
    )
    header = proc.stdout.split("collected", 1)[0]
    expected = "../shared/data" if SHARED.is_dir() else "the vendored samples in"
    assert "puzzle data: " in header and expected in header, proc.stdout[:2000]
