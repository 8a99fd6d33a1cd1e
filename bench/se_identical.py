"""A digest of the compiled SE rater's output, to show that a change leaves every rating
as it was.

Runs `_se.se_range` (with each puzzle's solution, as `rate_many` does) on every puzzle
of `../shared/data/sudoku_exchange_se_rated.csv` with SE >= 7 and on the first 5,000
with SE < 4, and prints, per set, the number of puzzles and a SHA-256 digest of every
output tuple (score in tenths, hardest technique id, steps, status). Run it on two
builds (`PYTHONPATH=/path/to/other/checkout/src`) and compare the digests.

    python bench/se_identical.py [--csv PATH] [--threads K] [--dump FILE]
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import os
import time
from array import array

import sudoku_fast as sf
from sudoku_fast._base.grid import geometry_for, parse_values
from sudoku_fast._parallel.fanout import run_chunks
from sudoku_fast._techniques import _logic, _se
from sudoku_fast._techniques import _se_py as se

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_CSV = os.path.join(HERE, "..", "..", "shared", "data", "sudoku_exchange_se_rated.csv")
EASY_LIMIT = 5000


def load(path: str) -> tuple[list[str], list[str]]:
    """The puzzles with SE >= 7, and the first EASY_LIMIT with SE < 4, in file order."""
    hard: list[str] = []
    easy: list[str] = []
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            rating = float(row["se_rating"])
            if rating >= 7:
                hard.append(row["puzzle"])
            elif rating < 4 and len(easy) < EASY_LIMIT:
                easy.append(row["puzzle"])
    return hard, easy


def outputs(puzzles: list[str], threads: int) -> array[int]:
    """se_range's output slots for every puzzle, solutions given."""
    tables = _logic.tables_for(geometry_for(9))
    grids = bytes(v for p in puzzles for v in parse_values(p))
    solved = sf.solve_many(puzzles, threads=threads)
    if any(s is None for s in solved):
        raise ValueError("a puzzle of the set has no solution")
    solutions = bytes(v for s in solved if s is not None for v in parse_values(s))
    out = array("i", bytes(4 * _se.SLOTS * len(puzzles)))

    def work(start: int, stop: int) -> None:
        _se.se_range(tables, grids, solutions, out, start, stop, se.DEFAULT_BUDGET)

    run_chunks(len(puzzles), threads, 4, work)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--csv", default=DEFAULT_CSV)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--dump", help="also write every output tuple to this file")
    args = parser.parse_args()
    hard, easy = load(args.csv)
    lines: list[str] = []
    for label, puzzles in (("SE >= 7", hard), ("SE < 4", easy)):
        start = time.perf_counter()
        out = outputs(puzzles, args.threads)
        seconds = time.perf_counter() - start
        slots = _se.SLOTS
        rows = [
            ",".join(str(v) for v in out[i * slots : (i + 1) * slots]) for i in range(len(puzzles))
        ]
        digest = hashlib.sha256("\n".join(rows).encode()).hexdigest()
        print(f"{label:<8} {len(puzzles):>6} puzzles  sha256 {digest}  ({seconds:.1f} s)")
        lines += [f"{label}\t{p}\t{r}" for p, r in zip(puzzles, rows, strict=True)]
    if args.dump:
        with open(args.dump, "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
