"""Whole-file pipeline vs in-memory solving: `sudoku-fast solve FILE` against `solve_many`.

    python bench/stream_pipeline.py FILE [--threads 2] [--repeat 3]

Each round times `solve_many(puzzles, threads)` on the puzzles of FILE already in memory
(plain 81-character lines), then the whole command `python -m sudoku_fast solve FILE -o
OUT --threads N -q` as a subprocess (interpreter start, reading, parsing, solving and
writing included). It prints both wall times and their ratio per round, the medians, and
checks that the command wrote exactly the solutions `solve_many` returned.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

import sudoku_fast as sf


def main() -> None:
    """Run the comparison and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with open(args.file) as f:
        puzzles = [line.strip() for line in f if line.strip()]
    out_fd, out_path = tempfile.mkstemp(suffix=".txt")
    os.close(out_fd)
    command = [sys.executable, "-m", "sudoku_fast", "solve", args.file, "-o", out_path]
    command += ["--threads", str(args.threads), "-q"]
    print(f"{len(puzzles):,} puzzles from {args.file}, {args.threads} threads")
    print(f"{'round':>5}{'solve_many s':>14}{'pipeline s':>12}{'ratio':>8}")
    memory_times: list[float] = []
    pipeline_times: list[float] = []
    expected: list[str | None] = []
    try:
        for round_number in range(1, args.repeat + 1):
            start = time.perf_counter()
            expected = sf.solve_many(puzzles, threads=args.threads)
            memory_times.append(time.perf_counter() - start)
            start = time.perf_counter()
            subprocess.run(command, check=True)
            pipeline_times.append(time.perf_counter() - start)
            ratio = pipeline_times[-1] / memory_times[-1]
            print(
                f"{round_number:>5}{memory_times[-1]:>14.2f}{pipeline_times[-1]:>12.2f}"
                f"{ratio:>8.2f}"
            )
        with open(out_path) as f:
            written = [line.rstrip("\n") for line in f]
        wanted = [s if s is not None else "none" for s in expected]
        assert written == wanted, "the command's output differs from solve_many"
    finally:
        os.unlink(out_path)
    memory = statistics.median(memory_times)
    pipeline = statistics.median(pipeline_times)
    ratios = [p / m for p, m in zip(pipeline_times, memory_times, strict=True)]
    print(
        f"median: solve_many {memory:.2f} s, pipeline {pipeline:.2f} s, "
        f"ratio of medians {pipeline / memory:.2f}, median ratio {statistics.median(ratios):.2f}"
    )
    print("output identical to solve_many: yes")


if __name__ == "__main__":
    main()
