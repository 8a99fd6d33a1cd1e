"""The command without a subcommand: solve the embedded puzzle sets, verify every
solution with the engine-independent `is_solution`, print a throughput table."""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from typing import TextIO

from .._base.grid import is_solution
from .._engine.encode import decode_solutions, encode_puzzles
from .._engine.run import run_engine
from ..datasets import EMBEDDED_SETS, load_embedded
from . import exits

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
        return exits.EXIT_CHECK_FAILED
    print(
        "every solution verified independently (rows, columns, boxes complete, clues kept)",
        file=stream,
    )
    return exits.EXIT_OK


def run(args: argparse.Namespace) -> int:
    """Without a command: solve and verify the embedded sets, print the table."""
    return run_embedded(args.threads)
