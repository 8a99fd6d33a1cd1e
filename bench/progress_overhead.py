"""What `progress=` costs: the batch calls without it against a build from before it, and
with a callback, on the shared Kaggle sample.

    python bench/progress_overhead.py --base /path/to/older/src [--rounds 7] [--threads 2]

`--base` is the `src` folder of another checkout (with its compiled modules built), the
"before"; this checkout's `src` is the "after". Each round runs, interleaved, one fresh
process per side (after, before) that times every call REPEATS times on the 10,000
Kaggle puzzles (solve_many, count_many, check_many against the published solutions,
canonical_many) and reports the median of those; the after side also times each call
with `progress=` a callback that counts its reports. Printed: the median over rounds of
each figure, in ms per call, and after / before.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / ".." / "shared" / "data" / "kaggle_bryanpark_10k_with_solutions.csv"
REPEATS = 5
CALLS = ("solve_many", "count_many", "check_many", "canonical_many")


def child(threads: int, with_progress: bool) -> None:
    """Time the calls in this process; print a JSON object of ms per call (medians)."""
    import sudoku_fast as sf

    with open(DATA, encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    puzzles = [r["quizzes"] if "quizzes" in r else r["puzzle"] for r in rows]
    solutions = [r["solutions"] if "solutions" in r else r["solution"] for r in rows]
    reports = []

    def report(done: int, total: int) -> None:
        reports.append(done)

    def run(name: str, progress: bool) -> float:
        extra = {"progress": report} if progress else {}
        function = getattr(sf, name)
        args = (puzzles, solutions) if name == "check_many" else (puzzles,)
        function(*args, threads=threads, **extra)  # warm
        times = []
        for _ in range(REPEATS):
            start = time.perf_counter()
            function(*args, threads=threads, **extra)
            times.append((time.perf_counter() - start) * 1e3)
        return statistics.median(times)

    out = {name: run(name, False) for name in CALLS}
    if with_progress:
        out.update({f"{name}+progress": run(name, True) for name in CALLS})
    print(json.dumps(out))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="the src folder of the 'before' build")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--child", choices=("plain", "progress"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.threads, args.child == "progress")
        return
    sides = {"after": str(ROOT / "src"), "before": args.base}
    results: dict[str, list[dict[str, float]]] = {side: [] for side in sides}
    for _ in range(args.rounds):
        for side, path in sides.items():
            env = {**os.environ, "PYTHONPATH": path}
            mode = "progress" if side == "after" else "plain"
            command = [sys.executable, __file__, "--base", args.base, "--child", mode]
            command += ["--threads", str(args.threads)]
            proc = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
            results[side].append(json.loads(proc.stdout))
    print(f"10,000 kaggle puzzles, threads={args.threads}, {args.rounds} interleaved rounds")
    print(f"(median over rounds of the median of {REPEATS} calls), ms per call")
    print(f"{'call':<26}{'before':>9}{'after':>9}{'after/before':>14}")

    def median(side: str, key: str) -> float:
        return statistics.median(r[key] for r in results[side])

    for name in CALLS:
        before, after = median("before", name), median("after", name)
        print(f"{name:<26}{before:>9.2f}{after:>9.2f}{after / before:>14.3f}")
        with_progress = median("after", f"{name}+progress")
        label = f"{name}+progress"
        print(f"{label:<26}{'':>9}{with_progress:>9.2f}{with_progress / before:>14.3f}")


if __name__ == "__main__":
    main()
