"""The compiled technique solver against its pure-Python twin on whole public sets.

    python bench/logic_differential.py                 # every set of ../shared/data below
    python bench/logic_differential.py --limit 500     # the first 500 puzzles of each

For every puzzle with exactly one solution, both solvers solve it step by step (the
easiest technique first, guessing from the solution when stuck) and every step must be
the same `Hint`: technique, pattern cells, digits, placements, eliminations and
explanation. Every step is also checked against the solution (placements right,
eliminations wrong). Prints per set: puzzles compared, steps compared, mismatches, and
the time of each solver. The test suite runs the same comparison on samples
(tests/test_logic_compiled.py); this runs it on everything.
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from pathlib import Path

import sudoku_fast as sf
from sudoku_fast._base.grid import parse_grid
from sudoku_fast._techniques import _logic
from sudoku_fast._techniques import _logic_py as logic

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
SETS = (
    "norvig_easy50.txt",
    "norvig_top95.txt",
    "norvig_hardest.txt",
    "magictour_top1465.txt",
    "magictour_top870.txt",
    "magictour_top2365.txt",
    "kaggle_bryanpark_10k_with_solutions.csv",
    "rust_sudoku_crate_easy_with_solutions.csv",
    "rust_sudoku_crate_medium_with_solutions.csv",
    "rust_sudoku_crate_hard_with_solutions.csv",
    "subig20.txt",
    "sudoku17_49158.txt",
    "sudoku4_misc.csv",
    "sudoku4_sat_assignment_100.txt",
    "sudoku6_2x3.csv",
    "sudoku8_2x4.csv",
    "sudoku10_2x5.csv",
    "sudoku12_3x4.csv",
    "sudoku15_3x5.csv",
    "sudoku16_goomii_1000_with_solutions.csv",
)


def puzzles_of(path: Path) -> list[str]:
    if path.suffix == ".csv":
        with path.open(newline="") as f:
            return [row.get("puzzle") or row["quizzes"] for row in csv.DictReader(f)]
    lines = path.read_text().splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--limit", type=int, default=0, help="puzzles per set (0 = all)")
    args = parser.parse_args()
    header = f"{'set':<44}{'puzzles':>8}{'steps':>10}{'bad':>5}{'python s':>10}{'compiled s':>11}"
    print(header)
    print("-" * len(header))
    failures = 0
    for name in SETS:
        path = DATA / name
        if not path.exists():
            continue
        puzzles = puzzles_of(path)
        if args.limit:
            puzzles = puzzles[: args.limit]
        counts = sf.count_many(puzzles, max_nodes=None)
        compared = steps = bad = 0
        python_s = compiled_s = 0.0
        for text, count in zip(puzzles, counts, strict=True):
            if count != 1:
                continue
            geometry, values = parse_grid(text)
            solution = parse_grid(sf.solve(text, max_nodes=None) or "", geometry=geometry)[1]
            start = time.perf_counter()
            expected = logic.logical_solve(values, solution, geometry)
            middle = time.perf_counter()
            records = _logic.solve_steps(_logic.tables_for(geometry), values, solution)
            compiled_s += time.perf_counter() - middle
            python_s += middle - start
            got = [logic.hint_from_record(geometry, record) for record in records]
            sound = all(
                all(solution[c] == d for c, d in step.placements)
                and all(solution[c] != d for c, d in step.eliminations)
                for step in got
            )
            compared += 1
            steps += len(expected)
            if got != expected or not sound:
                bad += 1
                print(f"  mismatch: {text}", file=sys.stderr)
        failures += bad
        print(
            f"{name:<44}{compared:>8}{steps:>10}{bad:>5}{python_s:>10.1f}{compiled_s:>11.2f}",
            flush=True,
        )
    print("every step identical and sound" if not failures else f"{failures} puzzles differ")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
