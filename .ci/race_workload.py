"""Every threaded path of the compiled modules, several times over, for a sanitizer build.

Run by `.ci/sanitize thread` under ThreadSanitizer (and by `.ci/sanitize address` under
AddressSanitizer + UBSan): each batch call below hands work between threads inside the
compiled code (the 9x9 fan-out with its lead and helpers, strings written without the
GIL, the arena pool) or through the thread pool (general engine, technique solver, SE
rater, generator, canonical forms, lab). Answers are checked against a serial run and by
the rules (`is_solution`), so a race that changes a result fails here too, not only one
the sanitizer sees.
"""

from __future__ import annotations

import os
import sys
import tempfile
import threading

import sudoku_fast as sf
from sudoku_fast import cli, lab
from sudoku_fast.datasets import load_embedded

ROUNDS = 3


def check(name: str, got: object, want: object) -> None:
    if got != want:
        sys.exit(f"race workload: {name} differs from the serial answer")
    print(f"  {name}: ok", flush=True)


def main() -> None:
    hard = load_embedded("magictour_top1465")
    easy = load_embedded("norvig_easy50")
    top95 = load_embedded("norvig_top95")
    seventeen = hard[:400]
    sixteen = sf.generate_many(6, size=16, seed=5, threads=1)
    batch = hard + easy * 20  # list source, strings made and written without the GIL
    print(f"sudoku_fast {sf.__version__}: {sf.engine_info().variant} build", flush=True)

    serial_solutions = sf.solve_many(batch, threads=1)
    serial_counts = sf.count_many(top95, threads=1)
    serial_ratings = sf.rate_many(top95[:40], threads=1, score=True)
    serial_generated = sf.generate_many(24, seed=11, threads=1, difficulty="hard")
    serial_canonical = sf.canonical_many(seventeen, threads=1)
    serial_sixteen = sf.solve_many(sixteen, threads=1)
    serial_lab = [r.solution for r in lab.run_many(top95, "ac+dual", threads=1)]
    for solution, puzzle in zip(serial_solutions, batch, strict=True):
        if solution is None or not sf.is_solution(solution, puzzle):
            sys.exit("race workload: a serial solution breaks the rules")

    for round_ in range(ROUNDS):
        threads = 2 + 2 * round_  # 2, 4, 6: more threads than cores interleave more
        print(f"round {round_ + 1}: threads={threads}", flush=True)
        check("solve_many (strings)", sf.solve_many(batch, threads=threads), serial_solutions)
        try:
            import numpy as np

            grids = np.frombuffer(
                "".join(p.replace(".", "0") for p in batch).encode(), dtype=np.uint8
            ).reshape(-1, 81) - ord("0")
            arrays = sf.solve_many(grids, threads=threads, output="like")
            check(
                "solve_many (numpy)",
                ["".join(map(str, row)) for row in arrays],
                serial_solutions,
            )
        except ImportError:
            pass
        check("count_many", list(sf.count_many(top95, threads=threads)), list(serial_counts))
        check(
            "rate_many (score)",
            sf.rate_many(top95[:40], threads=threads, score=True),
            serial_ratings,
        )
        check(
            "generate_many",
            sf.generate_many(24, seed=11, threads=threads, difficulty="hard"),
            serial_generated,
        )
        check("canonical_many", sf.canonical_many(seventeen, threads=threads), serial_canonical)
        check("solve_many (16x16)", sf.solve_many(sixteen, threads=threads), serial_sixteen)
        check(
            "lab.run_many",
            [r.solution for r in lab.run_many(top95, "ac+dual", threads=threads)],
            serial_lab,
        )
        stats = sf.solve_stats(hard, threads=threads)
        check("solve_stats", stats.solutions, serial_solutions[: len(hard)])

        # Batches started from several Python threads at once share the thread pool.
        results: dict[int, list[str | None]] = {}

        def one(k: int, results: dict[int, list[str | None]], threads: int) -> None:
            results[k] = sf.solve_many(batch, threads=threads)

        callers = [threading.Thread(target=one, args=(k, results, threads)) for k in range(3)]
        for caller in callers:
            caller.start()
        for caller in callers:
            caller.join()
        for k in range(3):
            check(f"concurrent solve_many #{k}", results[k], serial_solutions)

        # The command line's stream: blocks read, solved and written on threads.
        with tempfile.TemporaryDirectory() as folder:
            source = os.path.join(folder, "in.txt")
            out = os.path.join(folder, "out.txt")
            with open(source, "w") as f:
                f.write("".join(p + "\n" for p in batch))
            status = cli.main(["solve", source, "-o", out, "-q", "--threads", str(threads)])
            with open(out) as f:
                check("sudoku-fast solve", (status, f.read().split()), (0, serial_solutions))
    print("race workload: every answer equal to the serial one", flush=True)


if __name__ == "__main__":
    main()
