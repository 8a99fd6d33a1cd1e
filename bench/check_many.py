"""check_many against a loop of is_solution, and against solve_many, on the same pairs.

    python bench/check_many.py [--rounds 5] [--copies 20]

The shared Kaggle sample (10,000 puzzles with their solutions) moved by `copies` random
symmetries (solutions alike): 200,000 pairs by default. Per round, interleaved: a loop
of `is_solution` over the first LOOP pairs (scaled to per pair), `check_many` at
threads=1 and threads=2 (lists of str in, as a dataset gives them), `check_many` on
Arrow columns, and `solve_many` on the puzzles. Medians of the rounds, in us per pair.
"""

from __future__ import annotations

import argparse
import csv
import os
import statistics
import time
from pathlib import Path

import sudoku_fast as sf

DATA = Path(__file__).resolve().parents[1] / ".." / "shared" / "data"
LOOP = 20_000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--copies", type=int, default=20)
    args = parser.parse_args()
    import pyarrow as pa

    with open(DATA / "kaggle_bryanpark_10k_with_solutions.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    puzzles = [r["puzzle"] for r in rows] * args.copies
    solutions = [r["solution"] for r in rows] * args.copies
    puzzles = sf.random_transform_many(puzzles, seed=5)
    solutions = sf.random_transform_many(solutions, seed=5)
    arrow_p, arrow_s = pa.array(puzzles), pa.array(solutions)
    n = len(puzzles)
    times: dict[str, list[float]] = {}

    def timed(name: str, call, count: int) -> None:  # type: ignore[no-untyped-def]
        started = time.perf_counter()
        call()
        times.setdefault(name, []).append((time.perf_counter() - started) / count * 1e6)

    for _ in range(args.rounds):
        timed(
            "is_solution loop",
            lambda: [
                sf.is_solution(s, p) for p, s in zip(puzzles[:LOOP], solutions[:LOOP], strict=True)
            ],
            LOOP,
        )
        timed("check_many threads=1", lambda: sf.check_many(puzzles, solutions, threads=1), n)
        timed("check_many threads=2", lambda: sf.check_many(puzzles, solutions, threads=2), n)
        timed("check_many arrow t=2", lambda: sf.check_many(arrow_p, arrow_s, threads=2), n)
        timed("solve_many threads=2", lambda: sf.solve_many(puzzles, threads=2), n)
    assert sf.check_many(puzzles, solutions).all()
    loop = statistics.median(times["is_solution loop"])
    print(f"{n:,} pairs (kaggle 10k x {args.copies}, moved), {args.rounds} rounds, "
          f"load {os.getloadavg()[0]:.1f}")  # fmt: skip
    for name, values in times.items():
        median = statistics.median(values)
        print(f"{name:24s} {median:8.3f} us/pair   loop / this: {loop / median:7.1f}x")


if __name__ == "__main__":
    main()
