"""Thread scaling of `solve_many`: threads=2 (or --threads) against threads=1, interleaved.

    python bench/scaling.py                       # sudoku17_49158 and magictour_top1465
    python bench/scaling.py FILE ... --rounds 9 --threads 2

On a shared machine the speed of a core drifts by tens of percent within minutes, so
timing all threads=1 runs first and all threads=2 runs afterwards can make the ratio say
anything. Here every round times threads=1 and then threads=N back to back on the same
puzzles (each sample at least --min-seconds, the file repeated as needed); the ratio of
each round is taken, and the median over rounds is reported beside the ratio of the
median rates. Every solution of every run is checked against the rules.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from pathlib import Path

from throughput import load

import sudoku_fast as sf

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
DEFAULT_FILES = [DATA / "sudoku17_49158.txt", DATA / "magictour_top1465.txt"]


def rate(puzzles: list[str], threads: int, min_seconds: float) -> float:
    """Puzzles/s of solve_many over whole passes taking at least `min_seconds` together."""
    done = 0
    start = time.perf_counter()
    while True:
        solutions = sf.solve_many(puzzles, threads=threads)
        done += len(puzzles)
        elapsed = time.perf_counter() - start
        if elapsed >= min_seconds:
            break
    for puzzle, solution in zip(puzzles, solutions, strict=True):
        if solution is None or not sf.is_solution(solution, puzzle):
            raise SystemExit(f"wrong or missing solution for {puzzle}")
    return done / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path, default=DEFAULT_FILES)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--min-seconds", type=float, default=0.5)
    args = parser.parse_args()
    print(
        f"sudoku_fast {sf.__version__}, Python {platform.python_version()}, "
        f"{os.cpu_count()} cores, {platform.machine()}; {args.rounds} interleaved rounds"
    )
    print(
        f"| data set | puzzles | threads=1 puzzles/s | threads={args.threads} puzzles/s "
        "| ratio of medians | median of round ratios | round ratios min-max |"
    )
    print("|---|---|---|---|---|---|---|")
    for path in args.files:
        puzzles = load(path)[0]
        sf.solve_many(puzzles[:1000], threads=args.threads)  # warm-up: pool, caches
        serial, parallel, ratios = [], [], []
        for _ in range(args.rounds):
            one = rate(puzzles, 1, args.min_seconds)
            many = rate(puzzles, args.threads, args.min_seconds)
            serial.append(one)
            parallel.append(many)
            ratios.append(many / one)
        one_median = statistics.median(serial)
        many_median = statistics.median(parallel)
        print(
            f"| {path.stem} | {len(puzzles)} | {one_median:,.0f} | {many_median:,.0f} "
            f"| {many_median / one_median:.2f} | {statistics.median(ratios):.2f} "
            f"| {min(ratios):.2f}-{max(ratios):.2f} |",
            flush=True,
        )
    print("all results verified")


if __name__ == "__main__":
    main()
