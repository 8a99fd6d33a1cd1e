"""pytest-benchmark suite: `pytest bench/ --benchmark-only` (not part of the test suite).

One benchmark per data set and mode, on the public batch API with threads=1 and with all
cores. The embedded sets always run; the larger public sets run when ../shared/data is
present beside the repository. Every benchmarked call's results are verified.

tdoku runs beside them on the same sets, one thread, list of strings in and out like
`solve_many` (see peers.py), in its native and SSE2-only (portable) builds, when
../shared/peers/build.sh has built it; otherwise those benchmarks skip. Compare groups
with `--benchmark-group-by=param:name`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from peers import tdoku
from throughput import check as valid
from throughput import load as load_file

import sudoku_fast as sf
from sudoku_fast.datasets import EMBEDDED_SETS, load_embedded

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
SHARED_SETS = [
    "kaggle_bryanpark_10k_with_solutions.csv",
    "sudoku17_49158.txt",
    "subig20.txt",
    "serg_benchmark_multi_solution.csv",
]


def load(name: str) -> list[str]:
    if name in EMBEDDED_SETS:
        return load_embedded(name)
    path = SHARED / name
    if not path.exists():
        pytest.skip(f"{path} not present")
    return load_file(path)[0]


ALL_SETS = [*EMBEDDED_SETS, *SHARED_SETS]


@pytest.mark.parametrize("threads", [1, None], ids=["threads=1", "threads=all"])
@pytest.mark.parametrize("name", [s for s in ALL_SETS if "serg" not in s])
def test_solve_many(benchmark: Any, name: str, threads: int | None) -> None:
    puzzles = load(name)
    benchmark.extra_info["puzzles"] = len(puzzles)
    solutions = benchmark(sf.solve_many, puzzles, threads=threads)
    assert all(valid(s, p) for s, p in zip(solutions, puzzles, strict=True))


@pytest.mark.parametrize("threads", [1, None], ids=["threads=1", "threads=all"])
@pytest.mark.parametrize("name", ALL_SETS)
def test_count_many(benchmark: Any, name: str, threads: int | None) -> None:
    puzzles = load(name)
    benchmark.extra_info["puzzles"] = len(puzzles)
    counts = benchmark(sf.count_many, puzzles, limit=2, threads=threads)
    assert counts == [2 if "serg" in name else 1] * len(puzzles)


def test_solve_one(benchmark: Any) -> None:
    puzzle = load_embedded("norvig_top95")[0]
    assert valid(benchmark(sf.solve, puzzle), puzzle)


TDOKU_FLAVOURS = ["native", "sse2"]


def peer(flavour: str) -> Any:
    solver = tdoku(flavour)
    if solver is None:
        pytest.skip(f"tdoku ({flavour}) not built: run ../shared/peers/build.sh")
    return solver


@pytest.mark.parametrize("flavour", TDOKU_FLAVOURS)
@pytest.mark.parametrize("name", [s for s in ALL_SETS if "serg" not in s])
def test_tdoku_solve(benchmark: Any, name: str, flavour: str) -> None:
    solver = peer(flavour)
    puzzles = load(name)
    benchmark.extra_info["puzzles"] = len(puzzles)
    solutions = benchmark(solver.solve_many, puzzles)
    assert all(valid(s, p) for s, p in zip(solutions, puzzles, strict=True))


@pytest.mark.parametrize("flavour", TDOKU_FLAVOURS)
@pytest.mark.parametrize("name", ALL_SETS)
def test_tdoku_count(benchmark: Any, name: str, flavour: str) -> None:
    solver = peer(flavour)
    puzzles = load(name)
    benchmark.extra_info["puzzles"] = len(puzzles)
    counts = benchmark(solver.count_many, puzzles, 2)
    assert counts == [2 if "serg" in name else 1] * len(puzzles)
