"""Column inputs on the batch's threads: the text passes before and after the engine.

`solve_many` on a pyarrow column encodes the strings to grids before the engine runs
(`frames.read_column`) and builds the solutions' Arrow text after it
(`frames._arrow_solutions`). Both passes run in row ranges on the batch's threads from
`frames.PARALLEL_ROWS` rows up. This script times them and the whole calls, on the Kaggle
10k set cycled to each size with every copy's digits relabelled (as bench/parquet_io.py
builds its file), threads=1 and threads=2 (or --threads) in the same rounds.

    python bench/column_threads.py --sizes 1000 10000 100000 1000000 --rounds 5 \\
        [--before SRC]
    python bench/column_threads.py --threshold   # where the threads start to pay

Each round runs one child process per source tree (this one; with --before, also SRC, a
source tree with its compiled modules built, e.g. a checkout of main), one after the
other; a child times every step at every size and thread count (median of --reps calls;
below 100,000 rows, 100,000 / rows times as many) and prints JSON. Medians over rounds
are reported, with the ratio of each step to the same round's threads=1, of each whole
call to the same round's uint8 array call (its rate over the array's, per source tree),
and of each step to the same round's SRC: medians of the per-round ratios. `count_many`
(limit 2) is timed the same way, against `count_many` on the array.
The answers of the whole calls are checked against the relabelled Kaggle solutions.
`_arrow_solutions` turns the engine's buffer into text in place, so its step is timed
over the same buffer again and again: the same work each time, on text instead of
values after the first call.

`--threshold` times the two passes in this process at sizes around PARALLEL_ROWS with
one thread and with the ranges forced onto the threads (PARALLEL_ROWS set to 1),
interleaved, and prints threads / one thread.
"""

from __future__ import annotations

import argparse
import csv
import functools
import inspect
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
KAGGLE = SHARED / "kaggle_bryanpark_10k_with_solutions.csv"


def relabelled(n: int) -> tuple[np.ndarray, np.ndarray]:
    """n puzzles and their solutions as (n, 81) ASCII arrays, digits relabelled per row."""
    with KAGGLE.open() as f:
        rows = list(csv.DictReader(f))
    puzzles = np.frombuffer("".join(r["puzzle"] for r in rows).encode(), np.uint8).reshape(-1, 81)
    answers = np.frombuffer("".join(r["solution"] for r in rows).encode(), np.uint8)
    answers = answers.reshape(-1, 81)
    index = np.arange(n) % len(rows)
    rng = np.random.default_rng(2024)
    perms = (np.argsort(rng.random((n, 9)), axis=1) + ord("1")).astype(np.uint8)
    out = []
    for grid in (puzzles[index], answers[index]):
        digit = (grid >= ord("1")) & (grid <= ord("9"))
        grid[digit] = perms[np.nonzero(digit)[0], grid[digit] - ord("1")]
        out.append(grid)
    return out[0], out[1]


def median_time(call: Callable[[], Any], reps: int) -> float:
    """Median wall seconds of `reps` calls."""
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def read(column: Any, threads: int, takes_threads: bool) -> Any:
    """`frames.read_column` on `column` (with `threads` where the code takes it)."""
    from sudoku_fast._columns import frames

    if takes_threads:
        return frames.read_column(column, "solve_many", None, None, threads=threads)
    return frames.read_column(column, "solve_many", None, None)


def child(sizes: list[int], threads: list[int], reps: int) -> None:
    """Time every step at every size and thread count; print {key: seconds} as JSON."""
    import pandas as pd
    import pyarrow as pa

    import sudoku_fast as sf
    from sudoku_fast._columns import frames
    from sudoku_fast._engine import run as batch

    takes_threads = "threads" in inspect.signature(frames.read_column).parameters
    timings: dict[str, float] = {}
    for n in sizes:
        puzzles, answers = relabelled(n)
        text = [bytes(row).decode() for row in puzzles]
        group = 131_072
        column = pa.chunked_array([pa.array(text[i : i + group]) for i in range(0, n, group)])
        series = pd.Series(text, dtype=pd.StringDtype("pyarrow"))
        grids = np.where(puzzles == ord("."), 0, puzzles - ord("0")).astype(np.uint8)
        want = [bytes(row).decode() for row in answers]
        for t in threads:
            assert sf.solve_many(column, threads=t, output="arrow").to_pylist() == want
            assert list(sf.solve_many(series, threads=t, output="like")) == want
            assert (sf.solve_many(grids, threads=t) + ord("0") == answers).all()
            assert sf.count_many(column, threads=t, output="arrow").to_pylist() == [1] * n
            assert list(sf.count_many(series, threads=t, output="like")) == [1] * n

            encode = functools.partial(read, column, t, takes_threads)
            results = batch.run_engine(encode().grids, n, 1, t)
            steps: dict[str, Callable[[], Any]] = {
                "encode arrow (read_column)": encode,
                "arrow text (_arrow_solutions)": functools.partial(
                    frames._arrow_solutions, results, None
                ),
                "solve_many(arrow, output='arrow')": functools.partial(
                    sf.solve_many, column, threads=t, output="arrow"
                ),
                "solve_many(pandas, output='like')": functools.partial(
                    sf.solve_many, series, threads=t, output="like"
                ),
                "solve_many(uint8 array)": functools.partial(sf.solve_many, grids, threads=t),
                "count_many(arrow, output='arrow')": functools.partial(
                    sf.count_many, column, threads=t, output="arrow"
                ),
                "count_many(pandas, output='like')": functools.partial(
                    sf.count_many, series, threads=t, output="like"
                ),
                "count_many(uint8 array)": functools.partial(sf.count_many, grids, threads=t),
            }
            for step, call in steps.items():  # small sizes: more calls, as many rows
                timings[json.dumps([step, n, t])] = median_time(call, reps * max(1, 100_000 // n))
    print(json.dumps(timings))


def run_child(source: str | None, args: argparse.Namespace) -> dict[str, float]:
    """One child run (with PYTHONPATH=source when given): its timings."""
    cmd = [sys.executable, __file__, "--child", "--reps", str(args.reps), "--sizes"]
    cmd += [str(s) for s in args.sizes] + ["--threads", *[str(t) for t in args.threads]]
    env = dict(os.environ)
    if source is not None:
        env["PYTHONPATH"] = source
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True)
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def compare(args: argparse.Namespace) -> None:
    """Rounds of child runs; medians and per-round ratios."""
    trees: dict[str, str | None] = {"after": None}
    if args.before:
        trees["before"] = args.before
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in trees}
    for r in range(args.rounds):
        for name, source in trees.items():
            runs[name].append(run_child(source, args))
        print(f"round {r + 1} done", flush=True)
    base = min(args.threads)
    keys = [json.loads(k) for k in runs["after"][0]]
    head = f"\nstep | rows | threads | ms (median) | x threads={base} | x uint8 array"
    print(head + (" | x uint8 array, before | x before" if "before" in runs else ""))
    for step, n, t in keys:
        key, one = json.dumps([step, n, t]), json.dumps([step, n, base])
        after = runs["after"]
        ms = statistics.median(run[key] for run in after) * 1e3
        speed = statistics.median(run[one] / run[key] for run in after)
        line = f"{step} | {n:,} | {t} | {ms:.2f} | {speed:.2f} | "
        whole = step.startswith(("solve_many", "count_many"))
        numpy = json.dumps([step.split("(")[0] + "(uint8 array)", n, t])
        line += f"{statistics.median(run[numpy] / run[key] for run in after):.2f}" if whole else ""
        if "before" in runs:
            before = runs["before"]
            gain = statistics.median(b[key] / a[key] for a, b in zip(after, before, strict=True))
            then = statistics.median(run[numpy] / run[key] for run in before) if whole else None
            line += f" | {then:.2f}" if then is not None else " | "
            line += f" | {gain:.2f}"
        print(line)


def threshold(args: argparse.Namespace) -> None:
    """The two passes with one thread and with ranges forced onto threads, interleaved."""
    import pyarrow as pa

    from sudoku_fast._columns import frames
    from sudoku_fast._engine import run as batch

    many = max(args.threads)
    print(f"threads={many} over one thread (median of {args.rounds} rounds; > 1 is faster)")
    print("rows | encode arrow | arrow text")
    for n in (16_384, 32_768, 65_536, 131_072, 262_144, 524_288, 1_048_576):
        puzzles, _ = relabelled(n)
        column = pa.array([bytes(row).decode() for row in puzzles])
        results = batch.run_engine(
            frames.read_column(column, "x", None, None, threads=1).grids, n, 1, many
        )
        ratios: dict[str, list[float]] = {"encode": [], "text": []}
        default = frames.PARALLEL_ROWS
        for _ in range(args.rounds):
            times = {}
            for t in (1, many):
                frames.PARALLEL_ROWS = 1  # ranges on threads at any size (none for t=1)
                results.threads = t
                try:
                    times[t] = (
                        median_time(functools.partial(read, column, t, True), args.reps),
                        median_time(
                            functools.partial(frames._arrow_solutions, results, None), args.reps
                        ),
                    )
                finally:
                    frames.PARALLEL_ROWS = default
            ratios["encode"].append(times[1][0] / times[many][0])
            ratios["text"].append(times[1][1] / times[many][1])
        encode, text = (statistics.median(ratios[k]) for k in ("encode", "text"))
        print(f"{n:,} | {encode:.2f} | {text:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--reps", type=int, default=5, help="calls per step in a child")
    parser.add_argument("--before", default=None, help="source tree of the 'before' code")
    parser.add_argument("--threshold", action="store_true")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.sizes, args.threads, args.reps)
    elif args.threshold:
        threshold(args)
    else:
        print(f"cores usable: {len(os.sched_getaffinity(0))}, load: {os.getloadavg()[0]:.2f}")
        compare(args)


if __name__ == "__main__":
    main()
