"""Throughput of the general engine on the public 16x16 and 25x25 sets, every solution verified.

Usage (from the repository root, with ../shared/data beside it):

    python bench/sizes.py                       # 1 thread, the default sets
    python bench/sizes.py --threads 2 --runs 5
    python bench/sizes.py --sets sudoku16_misc.csv sudoku12_3x4.csv

Each set is solved `--runs` times (small sets are repeated within a run until it lasts
at least 0.2 s); the table shows the median rate. The timed path is the one
`solve_many` takes: parse and encode, engine, decode. Every solution is then checked
with the engine-independent `is_solution`, and compared with the set's given solution
where there is one.
"""

from __future__ import annotations

import argparse
import csv
import statistics
import sys
import time
from pathlib import Path

import sudoku_fast as sf
from sudoku_fast._engine.encode import decode_solutions, encode_texts
from sudoku_fast._engine.run import run_engine

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
DEFAULT_SETS = [
    "sudoku16_goomii_1000_with_solutions.csv",
    "sudoku25_misc.csv",
    "sudoku16_misc.csv",
]
MIN_SECONDS = 0.2


def load(path: Path) -> tuple[list[str], list[str]]:
    """Puzzles and given solutions ('' where none) of a .csv or .txt data file."""
    if path.suffix == ".csv":
        with path.open(newline="") as f:
            rows = list(csv.DictReader(f))
        return [r["puzzle"] for r in rows], [r.get("solution", "") for r in rows]
    puzzles = [line.strip() for line in path.read_text().splitlines() if line.strip()]
    return puzzles, [""] * len(puzzles)


def measure(puzzles: list[str], threads: int, runs: int) -> dict[str, float]:
    """Median puzzles/s over `runs` timed runs, and the figures of the last one."""
    rates = []
    for _ in range(runs):
        done = 0
        start = time.perf_counter()
        while True:
            geometry, grids = encode_texts(puzzles)
            results = run_engine(grids, len(puzzles), 1, threads, geometry=geometry, max_nodes=0)
            solutions = decode_solutions(results)
            done += len(puzzles)
            elapsed = time.perf_counter() - start
            if elapsed >= MIN_SECONDS:
                break
        rates.append(done / elapsed)
    rate = statistics.median(rates)
    return {
        "rate": rate,
        "usec": 1e6 / rate,
        "guesses": sum(results.guesses) / len(puzzles),
        "nodes_max": max(results.nodes),
        "no_guess": sum(g == 0 for g in results.guesses) / len(puzzles) * 100,
        "threads": results.threads,
        "size": geometry.size,
        "solutions": solutions,  # type: ignore[dict-item]
    }


def main() -> int:
    """Print the throughput table; exit status 1 if any solution fails verification."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", nargs="+", default=DEFAULT_SETS, help="data file names")
    parser.add_argument("--data", type=Path, default=DATA, help="folder of the data files")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()

    header = (
        f"{'set':<42}{'size':>6}{'puzzles':>8}{'verified':>10}{'exact':>11}"
        f"{'puzzles/s':>11}{'us/puzzle':>11}{'no guess':>9}{'guesses':>9}{'max nodes':>10}"
        f"{'threads':>8}"
    )
    print(header)
    print("-" * len(header))
    failures = 0
    for name in args.sets:
        puzzles, given = load(args.data / name)
        row = measure(puzzles, args.threads, args.runs)
        solutions: list[str | None] = row["solutions"]  # type: ignore[assignment]
        verified = sum(
            s is not None and sf.is_solution(s, p) for s, p in zip(solutions, puzzles, strict=True)
        )
        with_given = [(s, g) for s, g in zip(solutions, given, strict=True) if g]
        exact = sum(s == g for s, g in with_given)
        failures += len(puzzles) - verified + len(with_given) - exact
        print(
            f"{name:<42}{row['size']:>6.0f}{len(puzzles):>8}{verified:>10}"
            f"{f'{exact}/{len(with_given)}':>11}{row['rate']:>11,.0f}{row['usec']:>11.1f}"
            f"{row['no_guess']:>8.0f}%{row['guesses']:>9.1f}{row['nodes_max']:>10.0f}"
            f"{row['threads']:>8.0f}"
        )
    if failures:
        print(f"{failures} solution(s) failed verification", file=sys.stderr)
        return 1
    print("every solution verified independently; given solutions matched exactly")
    return 0


if __name__ == "__main__":
    sys.exit(main())
