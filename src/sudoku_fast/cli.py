"""The `sudoku-fast` command (also `python -m sudoku_fast`).

With no arguments it solves the embedded puzzle sets, checks every solution with the
engine-independent `is_solution`, and prints a throughput table.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Sequence
from typing import TextIO

from .batch import decode_solutions, encode_puzzles, run_engine
from .datasets import EMBEDDED_SETS, load_embedded
from .grid import is_solution

MIN_SECONDS = 0.2  # repeat small sets until timing is meaningful


def _measure_set(puzzles: list[str], threads: int | None) -> dict[str, float]:
    """Solve a set (repeatedly, for small sets) and verify every solution once."""
    rates: list[float] = []
    total = 0.0
    while True:
        start = time.perf_counter()
        results = run_engine(encode_puzzles(puzzles), len(puzzles), 1, threads)
        solutions = decode_solutions(results)
        elapsed = time.perf_counter() - start
        rates.append(len(puzzles) / elapsed)
        total += elapsed
        if total >= MIN_SECONDS or len(rates) >= 1000:
            break
    solved = sum(s is not None for s in solutions)
    verified = sum(
        s is not None and is_solution(s, p) for s, p in zip(solutions, puzzles, strict=True)
    )
    rate = statistics.median(rates)
    return {
        "puzzles": len(puzzles),
        "solved": solved,
        "verified": verified,
        "rate": rate,
        "usec": 1e6 / rate,
        "guesses": sum(results.guesses) / len(puzzles),
        "threads": results.threads,
    }


def run_embedded(threads: int | None = None, out: TextIO | None = None) -> int:
    """Solve and verify every embedded set, print the table; 0 if all verified."""
    stream = out if out is not None else sys.stdout
    header = (
        f"{'set':<20}{'puzzles':>8}{'solved':>8}{'verified':>9}"
        f"{'puzzles/s':>12}{'us/puzzle':>11}{'guesses/puzzle':>16}{'threads':>9}"
    )
    print(header, file=stream)
    print("-" * len(header), file=stream)
    failures = 0
    for name in EMBEDDED_SETS:
        row = _measure_set(load_embedded(name), threads)
        failures += int(row["puzzles"] - row["verified"])
        print(
            f"{name:<20}{row['puzzles']:>8.0f}{row['solved']:>8.0f}{row['verified']:>9.0f}"
            f"{row['rate']:>12,.0f}{row['usec']:>11.1f}{row['guesses']:>16.2f}"
            f"{row['threads']:>9.0f}",
            file=stream,
        )
    if failures:
        print(f"{failures} puzzle(s) without a verified solution", file=sys.stderr)
        return 1
    print(
        "every solution verified independently (rows, columns, boxes complete, clues kept)",
        file=stream,
    )
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the command line."""
    parser = argparse.ArgumentParser(
        prog="sudoku-fast",
        description="Solve the embedded puzzle sets, verify every solution, print throughput.",
    )
    parser.add_argument(
        "--threads",
        type=int,
        default=None,
        help="worker threads (default: all cores; 1 = serial; -k = all cores + 1 - k)",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of `sudoku-fast`; returns the exit status."""
    args = build_parser().parse_args(argv)
    try:
        return run_embedded(args.threads)
    except (ValueError, TypeError) as err:
        print(f"sudoku-fast: error: {err}", file=sys.stderr)
        return 2
