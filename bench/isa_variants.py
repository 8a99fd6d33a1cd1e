"""Each instruction-set build of the 9x9 engine this CPU runs, timed in one process.

    python bench/isa_variants.py [FILES] [--rounds 7] [--min-seconds 0.3]

The builds (`sudoku_fast._engine.isa`: baseline, avx2, ...) are loaded side by side and called
on the same encoded puzzles, engine only (`solve_range`, threads=1, no parsing or
result strings), solve mode (limit 1) and count mode (limit 2). Every round times every
build once, in rotating order, so drift of a shared machine's speed hits them alike;
the table gives each build's median puzzles/s and the median of its per-round ratios
over the baseline. Every build's answers and figures must equal the baseline's, and
the baseline's solutions must pass the rules.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from array import array
from pathlib import Path
from types import ModuleType

from throughput import check, load

from sudoku_fast._engine import isa
from sudoku_fast._engine.encode import encode_puzzles

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
DEFAULT_FILES = [
    DATA / "kaggle_bryanpark_10k_with_solutions.csv",
    DATA / "sudoku17_49158.txt",
    DATA / "magictour_top1465.txt",
    DATA / "norvig_top95.txt",
]


def run(module: ModuleType, grids: bytearray, n: int, limit: int) -> tuple[bytes, list[int]]:
    """One pass of a build over the whole batch: (solutions, counts + guesses + nodes)."""
    solutions = bytearray(81 * n)
    counts = array("i", bytes(4 * n))
    guesses = array("q", bytes(8 * n))
    nodes = array("q", bytes(8 * n))
    module.solve_range(grids, solutions, counts, guesses, nodes, None, 0, n, limit)
    return bytes(solutions), [*counts, *guesses, *nodes]


def rate(module: ModuleType, grids: bytearray, n: int, limit: int, min_seconds: float) -> float:
    """Puzzles/s of whole passes taking at least `min_seconds` together."""
    done = 0
    start = time.perf_counter()
    while True:
        run(module, grids, n, limit)
        done += n
        elapsed = time.perf_counter() - start
        if elapsed >= min_seconds:
            return done / elapsed


def main() -> None:
    """Parse the command line, check every build against the baseline, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path, default=DEFAULT_FILES)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--min-seconds", type=float, default=0.3)
    args = parser.parse_args()
    names = isa.runnable()
    modules = {name: isa.variant_module(name) for name in names}
    cpu = ", ".join(sorted(isa.engine_info().cpu_features))
    print(f"{platform.machine()}, {os.cpu_count()} cores; CPU features: {cpu}")
    print(f"builds: {', '.join(names)}; {args.rounds} rounds, threads=1, engine only")
    print()
    others = [name for name in names if name != "baseline"]
    header = " | ".join(f"{name} puzzles/s | {name}/baseline" for name in others)
    print(f"| data set | mode | baseline puzzles/s | {header} |")
    print("|---|---|---:|" + "---:|---:|" * len(others))
    for path in args.files:
        puzzles, solutions, _ = load(path)
        grids = encode_puzzles(puzzles)
        n = len(puzzles)
        for mode, limit in (("solve", 1), ("count", 2)):
            expected = run(modules["baseline"], grids, n, limit)
            if limit == 1:
                for i, puzzle in enumerate(puzzles):
                    text = "".join(str(d) for d in expected[0][81 * i : 81 * (i + 1)])
                    given = solutions[i] if solutions else text
                    if not check(text, puzzle) or text != given:
                        raise SystemExit(f"{path.name}: wrong solution for puzzle {i}")
            for name in others:
                if run(modules[name], grids, n, limit) != expected:
                    raise SystemExit(f"{path.name}: the {name} build disagrees with the baseline")
            rates: dict[str, list[float]] = {name: [] for name in names}
            ratios: dict[str, list[float]] = {name: [] for name in others}
            for r in range(args.rounds):
                order = names[r % len(names) :] + names[: r % len(names)]
                got = {
                    name: rate(modules[name], grids, n, limit, args.min_seconds) for name in order
                }
                for name in names:
                    rates[name].append(got[name])
                for name in others:
                    ratios[name].append(got[name] / got["baseline"])
            cells = " | ".join(
                f"{statistics.median(rates[name]):,.0f} | {statistics.median(ratios[name]):.3f}"
                for name in others
            )
            print(
                f"| {path.stem} | {mode} | {statistics.median(rates['baseline']):,.0f} | {cells} |",
                flush=True,
            )
    print("all builds agree with the baseline; baseline solutions verified")


if __name__ == "__main__":
    main()
