"""Where dlx gets lost on one puzzle: its own path, checked by the engine at every choice.

python bench/dlx_dead_subtree.py [DATA_DIR] [--source TEXT]

Takes the puzzle of mixed_validity_other_sizes.csv whose `source` contains --source
(default 25x25_sample2_grp4), walks the path dlx takes (Algorithm X with the S heuristic:
the first column with the fewest rows, in lab order: cells, then row, column and box
digits; the first row of it) on a plain dict-of-sets exact cover, and at every choice
with two or more rows asks the engine how many solutions the grid has so far (to 2).
Prints one line per choice and stops at the first grid without a solution: dlx must
exhaust the subtree below it before it tries the next row. Figures in docs/lab.md.
"""

from __future__ import annotations

import argparse
import csv
from pathlib import Path

from sudoku_fast import count_many
from sudoku_fast._base.grid import format_values, geometry_for, parse_values

DEFAULT_DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data"


def main() -> None:
    """Print dlx's choices on one puzzle with the engine's count below each."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", nargs="?", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--source", default="25x25_sample2_grp4")
    args = parser.parse_args()
    with open(args.data / "mixed_validity_other_sizes.csv", newline="") as f:
        row = next(r for r in csv.DictReader(f) if args.source in r["source"])
    box = (int(row["box_rows"]), int(row["box_cols"]))
    geometry = geometry_for(int(row["size"]), box)
    n, cells = geometry.size, geometry.cells
    grid = parse_values(row["puzzle"], geometry)

    def columns(option: int) -> list[int]:
        cell, v = divmod(option, n)
        r, c, b = cell // n, cell % n, geometry.box_of[cell]
        return [1 + cell] + [1 + cells * (k + 1) + u * n + v for k, u in enumerate((r, c, b))]

    table: dict[int, set[int]] = {col: set() for col in range(1, 4 * cells + 1)}
    for option in range(cells * n):
        for col in columns(option):
            table[col].add(option)

    def select(option: int) -> None:
        for col in columns(option):
            for other in table[col]:
                for col2 in columns(other):
                    if col2 != col:
                        table[col2].discard(other)
            del table[col]

    for cell, v in enumerate(grid):
        if v:
            select(cell * n + v - 1)
    depth = choice = 0
    while table:
        col = min(sorted(table), key=lambda c: len(table[c]))
        options = sorted(table[col])
        if not options:
            print(f"depth {depth}: column {col} has no row left")
            break
        if len(options) > 1:
            choice += 1
            text = format_values(grid, geometry)
            count = count_many([text], limit=2, box=box, max_nodes=None)[0]
            print(
                f"choice {choice}: depth {depth}, column {col}, {len(options)} rows, "
                f"engine count here {count}"
            )
            if count == 0:
                print("no solution below: dlx must exhaust this subtree")
                break
        select(options[0])
        grid[options[0] // n] = options[0] % n + 1
        depth += 1


if __name__ == "__main__":
    main()
