"""The algorithm lab's tables for docs/lab.md: the ladder, then every ordering.

python bench/lab_tables.py [DATA_DIR] [--ladder-budget N] [--order-budget N]

Table 1, the ladder: every algorithm with its own variable order (cell order for comb
and backtracking, MinRV for the rest) and the first value, on the essay's sets;
comb gets 100,000 nodes a puzzle (it cannot finish a real puzzle anyway), the rest
--ladder-budget (default 1,000,000).

Table 2, the orderings: every search algorithm with every variable and value order it
takes, --order-budget nodes a puzzle (default 10,000), so that the blind orders give
up quickly; the "gave up" column is then the measure. ac3 is left out of table 2: its
trees are ac's node for node (tests/test_lab.py), only slower to reach.

Every answer is checked against the main engine (count and rules check). Times are
the CPU time of the solving thread, one thread.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from sudoku_fast import lab
from sudoku_fast.lab.report import format_set_table, read_puzzles, set_row

SETS = ("norvig_easy50", "norvig_top95", "norvig_hardest", "magictour_top870")
DEFAULT_DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", nargs="?", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--ladder-budget", type=int, default=1_000_000)
    parser.add_argument("--order-budget", type=int, default=10_000)
    parser.add_argument("--only", choices=("ladder", "orders"), default=None)
    args = parser.parse_args()
    sets = {name: read_puzzles(str(args.data / f"{name}.txt"))[0] for name in SETS}
    began = time.perf_counter()
    if args.only in (None, "ladder"):
        print("## Table 1: the ladder\n")
        rows = []
        for algorithm in lab.ALGORITHMS:
            budget = 100_000 if algorithm == "comb" else args.ladder_budget
            for name, puzzles in sets.items():
                rows.append(set_row(name, puzzles, algorithm, budget=budget))
                print(f"  {algorithm} {name} done", file=sys.stderr, flush=True)
        print(format_set_table(rows), flush=True)
    if args.only in (None, "orders"):
        print(f"\n## Table 2: orderings (budget {args.order_budget:,} nodes)\n")
        rows = []
        for algorithm in lab.ALGORITHMS:
            if algorithm in ("comb", "ac3"):
                continue
            values = ("first", "random") if algorithm == "dlx" else lab.VALUE_ORDERS
            for order in lab.VARIABLE_ORDERS:
                for value_order in values:
                    for name, puzzles in sets.items():
                        rows.append(
                            set_row(
                                name,
                                puzzles,
                                algorithm,
                                order=order,
                                value_order=value_order,
                                budget=args.order_budget,
                            )
                        )
                    print(f"  {algorithm} {order} {value_order} done", file=sys.stderr, flush=True)
        print(format_set_table(rows), flush=True)
    print(f"\n(whole run {time.perf_counter() - began:.0f} s)")


if __name__ == "__main__":
    main()
