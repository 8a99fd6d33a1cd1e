"""Many Python threads calling the batch API at once, every answer compared with a serial run.

Each operation below (solve, count, rate and score, generate, canonical forms, random
transforms, the algorithm lab, hints, numpy and Arrow columns, a search budget running
out) is first run once with threads=1 and nothing else running; that answer is the
reference. Then `--callers` Python threads each run every operation `--rounds` times in
an order of their own, with the batch fanned out over `--threads` workers of the
package's pool, so several batches share the pool and the engines' tables at once. Any
answer that differs from the reference, and any exception the reference run did not
raise, is reported; the exit status is 1 if there was one.

On a free-threaded CPython this is where a race would show: the callers run Python and
compiled code truly in parallel. Errors the interpreter reports by itself meanwhile
(unraisable exceptions, errors it prints to stderr) count as failures too. The script
also fails if the GIL is on at the end (with
PYTHON_GIL unset, an extension module that is not declared free-threading compatible
turns it back on at import). Run from the repository root:

    python tests/thread_stress.py --callers 4 --rounds 20 --threads 3

The puzzles come from tests/data, so a clean checkout has everything it needs;
tests/test_pool.py runs one round of it with the suite.
"""

from __future__ import annotations

import argparse
import csv
import gc
import random
import sys
import sysconfig
import threading
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import sudoku_fast as sf
from sudoku_fast import lab

DATA = Path(__file__).resolve().parent / "data"


def column(name: str, field: str = "puzzle") -> list[str]:
    """One column of a vendored CSV file."""
    with (DATA / name).open(newline="") as f:
        return [row[field] for row in csv.DictReader(f)]


def lines(name: str) -> list[str]:
    return [line.strip() for line in (DATA / name).read_text().splitlines() if line.strip()]


def operations() -> dict[str, Callable[[int], Any]]:
    """Each operation by name: a call that takes the batch's threads and returns its answer.

    The answers are plain data (lists, tuples, dataclasses that compare by value), with
    timings left out, so two runs of one operation compare equal.
    """
    kaggle = column("kaggle_bryanpark_sample500_with_solutions.csv")
    seventeen = lines("sudoku17_sample.txt")
    serg = column("serg_benchmark_sample.csv")
    rated = column("sudoku_exchange_se_rated_sample300.csv")
    sixteen = column("sudoku16_goomii_sample100_with_solutions.csv")
    # A list with one item that is not a plain 81-character string: the 9x9 engine's
    # list reader gives up on it and the batch takes the general parsing path.
    mixed = [*kaggle[:200]]
    mixed[150] = sf.show(mixed[150])  # the same puzzle as a 9-line grid

    def lab_answers(threads: int) -> list[tuple[Any, ...]]:
        results = lab.run_many(seventeen[:150], "ac+dual", limit=2, threads=threads)
        return [(r.solution, r.count, r.nodes, r.guesses, r.gave_up) for r in results]

    def budget_error(threads: int) -> tuple[Any, ...]:
        # 16x16 puzzles with most clues removed: one needs more than 200 nodes, so the
        # batch raises; which one, and the others' answers, do not depend on timing.
        sparse = [p[:30] + "." * (256 - 30) for p in sixteen[:40]]
        try:
            sf.count_many(sparse, limit=2, threads=threads, max_nodes=200)
        except sf.SearchLimitExceeded as err:
            return ("raised", tuple(err.indices), tuple(err.partial))
        return ("no error",)

    def stats_answers(stats: sf.Stats) -> tuple[Any, ...]:
        return (stats.solutions, list(stats.counts), list(stats.guesses), list(stats.nodes))

    ops: dict[str, Callable[[int], Any]] = {
        "solve_many 9x9 list": lambda t: sf.solve_many(kaggle, threads=t),
        "solve_many 9x9 17-clue": lambda t: sf.solve_many(seventeen, threads=t),
        "solve_many 9x9 mixed notation": lambda t: sf.solve_many(mixed, threads=t),
        "count_many 9x9 several": lambda t: sf.count_many(serg, limit=1000, threads=t),
        "count_many 9x9 unique": lambda t: sf.count_many(seventeen, limit=2, threads=t),
        "solve_many 16x16": lambda t: sf.solve_many(sixteen, threads=t),
        "count_many 16x16": lambda t: sf.count_many(sixteen[:50], limit=2, threads=t),
        "budget 16x16": budget_error,
        "rate_many": lambda t: sf.rate_many(rated[:120], threads=t),
        "rate_many score": lambda t: sf.rate_many(rated[:40], threads=t, score=True),
        "generate_many 9x9": lambda t: sf.generate_many(24, "hard", seed=11, threads=t),
        "generate_many 12x12": lambda t: sf.generate_many(4, seed=5, size=12, threads=t),
        "generate_many 6x6": lambda t: sf.generate_many(20, seed=5, size=6, threads=t),
        "canonical_many": lambda t: sf.canonical_many(kaggle, threads=t),
        "random_transform_many": lambda t: sf.random_transform_many(kaggle, seed=3, threads=t),
        "lab run_many": lab_answers,
        "hint": lambda t: [sf.hint(p) for p in rated[:20]],
        "solve_stats": lambda t: stats_answers(sf.solve_stats(seventeen[:200], threads=t, limit=2)),
    }
    try:
        import numpy as np
    except ImportError:
        pass
    else:
        values = np.array([[int(c) if c != "." else 0 for c in p] for p in kaggle], np.uint8)
        ops["solve_many numpy"] = lambda t: sf.solve_many(values, threads=t).tolist()
    try:
        import pyarrow as pa
    except ImportError:
        pass
    else:
        texts = pa.array(kaggle * 4)
        ops["solve_many arrow"] = lambda t: sf.solve_many(
            texts, threads=t, output="arrow"
        ).to_pylist()
    return ops


class ErrorWatch:
    """Collects what the interpreter reports outside any call: unraisable exceptions
    and errors it prints to stderr itself (free-threaded CPython 3.13 prints "SystemError:
    deallocated bytearray object has exported buffers" when a buffer export count went
    wrong under concurrent use)."""

    def __init__(self) -> None:
        self.reports: list[str] = []
        self._lock = threading.Lock()
        self._stderr = sys.stderr
        self._unraisable = sys.unraisablehook

    def __enter__(self) -> ErrorWatch:
        sys.stderr = self  # type: ignore[assignment]
        sys.unraisablehook = self.unraisable
        return self

    def __exit__(self, *exc: object) -> None:
        sys.stderr = self._stderr
        sys.unraisablehook = self._unraisable

    def write(self, text: str) -> int:
        if "Error" in text or "Exception" in text:
            with self._lock:
                self.reports.append(text.strip())
        return self._stderr.write(text)

    def flush(self) -> None:
        self._stderr.flush()

    def unraisable(self, report: Any) -> None:
        with self._lock:
            self.reports.append(f"unraisable {report.exc_type.__name__}: {report.exc_value}")
        self._unraisable(report)


def outcome(op: Callable[[int], Any], threads: int) -> tuple[str, Any]:
    """What a call gave: ("ok", answer) or ("error", its type and message)."""
    try:
        return ("ok", op(threads))
    except Exception as err:
        return ("error", (type(err).__name__, str(err)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--callers", type=int, default=4, help="Python threads calling at once")
    parser.add_argument("--rounds", type=int, default=10, help="times each caller runs each op")
    parser.add_argument("--threads", type=int, default=2, help="each batch's threads= argument")
    parser.add_argument("--seed", type=int, default=0, help="the callers' orders of operations")
    parser.add_argument("--only", action="append", help="run only the operations named so")
    args = parser.parse_args(argv)

    free_threaded = bool(sysconfig.get_config_var("Py_GIL_DISABLED"))
    gil = getattr(sys, "_is_gil_enabled", lambda: True)
    print(f"python {sys.version.split()[0]}, free-threaded build: {free_threaded}")
    ops = operations()
    if args.only:
        ops = {name: op for name, op in ops.items() if name in args.only}
    start = time.perf_counter()
    expected = {name: outcome(op, 1) for name, op in ops.items()}
    print(f"serial answers: {len(ops)} operations in {time.perf_counter() - start:.1f} s")

    failures: list[str] = []
    failures_lock = threading.Lock()
    calls = [0] * args.callers
    barrier = threading.Barrier(args.callers)

    def caller(k: int) -> None:
        order = random.Random(args.seed * 1000 + k)
        names = list(ops)
        barrier.wait()  # every caller starts at once
        for round_ in range(args.rounds):
            order.shuffle(names)
            for name in names:
                try:
                    got = outcome(ops[name], args.threads)
                except BaseException:  # a failure of this script itself
                    got = ("crash", traceback.format_exc())
                calls[k] += 1
                if got != expected[name]:
                    with failures_lock:
                        failures.append(
                            f"caller {k}, round {round_}, {name}: got {str(got)[:300]}, "
                            f"expected {str(expected[name])[:300]}"
                        )

    start = time.perf_counter()
    callers = [threading.Thread(target=caller, args=(k,)) for k in range(args.callers)]
    with ErrorWatch() as watch:
        for thread in callers:
            thread.start()
        for thread in callers:
            thread.join()
        gc.collect()  # buffers in reference cycles are freed (and checked) now
    seconds = time.perf_counter() - start
    print(
        f"{sum(calls)} calls by {args.callers} callers with threads={args.threads} "
        f"in {seconds:.1f} s: {len(failures)} differed from the serial answers, "
        f"{len(watch.reports)} errors reported by the interpreter"
    )
    for line in failures[:20]:
        print("  " + line)
    for line in watch.reports[:20]:
        print("  interpreter: " + line)
    failures += watch.reports
    gil_on = gil()
    print(f"GIL enabled at the end: {gil_on}")
    if free_threaded and gil_on:
        failures.append("the GIL was turned on")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
