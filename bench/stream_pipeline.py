"""Whole-file pipeline vs in-memory solving: `sudoku-fast solve FILE` against `solve_many`.

    python bench/stream_pipeline.py FILE [--threads 2] [--repeat 3]

Each round times `solve_many(puzzles, threads)` on the puzzles of FILE already in memory
(plain 81-character lines), then the whole command `python -m sudoku_fast solve FILE -o
OUT --threads N -q` as a subprocess (interpreter start, reading, parsing, solving and
writing included). It prints wall and CPU (user + system) seconds of both and their
ratios per round, then the medians, and checks that the command wrote exactly the
solutions `solve_many` returned. CPU time is the steadier figure on a shared machine,
where other work stretches wall times at random. Unix only (CPU time of a child).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

import sudoku_fast as sf


def children_cpu() -> float:
    """User + system CPU seconds of the finished child processes so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


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
    print(
        f"{'round':>5}{'solve_many s':>14}{'pipeline s':>12}{'ratio':>7}"
        f"{'solve_many cpu':>16}{'pipeline cpu':>14}{'ratio':>7}"
    )
    wall: dict[str, list[float]] = {"memory": [], "pipeline": []}
    cpu: dict[str, list[float]] = {"memory": [], "pipeline": []}
    expected: list[str | None] = []
    try:
        for round_number in range(1, args.repeat + 1):
            start, start_cpu = time.perf_counter(), time.process_time()
            expected = sf.solve_many(puzzles, threads=args.threads)
            wall["memory"].append(time.perf_counter() - start)
            cpu["memory"].append(time.process_time() - start_cpu)
            start, start_cpu = time.perf_counter(), children_cpu()
            subprocess.run(command, check=True)
            wall["pipeline"].append(time.perf_counter() - start)
            cpu["pipeline"].append(children_cpu() - start_cpu)
            print(
                f"{round_number:>5}{wall['memory'][-1]:>14.2f}{wall['pipeline'][-1]:>12.2f}"
                f"{wall['pipeline'][-1] / wall['memory'][-1]:>7.2f}"
                f"{cpu['memory'][-1]:>16.2f}{cpu['pipeline'][-1]:>14.2f}"
                f"{cpu['pipeline'][-1] / cpu['memory'][-1]:>7.2f}"
            )
        with open(out_path) as f:
            written = [line.rstrip("\n") for line in f]
        wanted = [s if s is not None else "none" for s in expected]
        assert written == wanted, "the command's output differs from solve_many"
    finally:
        os.unlink(out_path)
    for name, times in (("wall", wall), ("CPU", cpu)):
        memory = statistics.median(times["memory"])
        pipeline = statistics.median(times["pipeline"])
        ratios = [p / m for p, m in zip(times["pipeline"], times["memory"], strict=True)]
        print(
            f"median {name}: solve_many {memory:.2f} s, pipeline {pipeline:.2f} s, "
            f"ratio of medians {pipeline / memory:.2f}, "
            f"median ratio {statistics.median(ratios):.2f}"
        )
    print("output identical to solve_many: yes")


if __name__ == "__main__":
    main()
