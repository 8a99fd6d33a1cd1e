"""Counts of dlx and backtracking against the main engine, with and without restarts.

python bench/lab_counts.py [DATA_DIR] [--threads N]

On mixed_validity_9x9.csv and mixed_validity_other_sizes.csv (puzzles with none, one
and several solutions, published with their counts), each configuration counts every
puzzle to 2 and the table gives, per file and grid size: the puzzles, how many it
answered within its node budget, how many of those equal both the engine's count
(`count_many`, no node budget) and the published one, and the largest tree it
answered in. Restarting runs use a random value order and `restart_after` nodes times
Luby's sequence (see `lab.run_many`); their budget bounds all runs of a puzzle.
"""

from __future__ import annotations

import argparse
import csv
from pathlib import Path

from sudoku_fast import count_many, lab

DEFAULT_DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
FILES = ("mixed_validity_9x9.csv", "mixed_validity_other_sizes.csv")

# (algorithm, variable order, value order, restart_after, node budget per puzzle)
CONFIGS: tuple[tuple[str, str, str, int | None, int], ...] = (
    ("dlx", "minrv", "first", None, 1_000_000),
    ("dlx", "minrv", "random", 1_000, 20_000_000),
    ("backtracking", "first", "first", None, 1_000_000),
    ("backtracking", "first", "random", 1_000, 20_000_000),
    ("backtracking", "minrv", "first", None, 5_000_000),
    ("backtracking", "minrv", "random", 1_000, 50_000_000),
)


def published(text: str) -> int:
    """The published count, capped at 2 ('2+' means at least 2)."""
    return min(int(text.rstrip("+")), 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", nargs="?", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--threads", type=int, default=None)
    args = parser.parse_args()
    groups: list[tuple[str, tuple[int, int] | None, list[dict[str, str]]]] = []
    for name in FILES:
        with (args.data / name).open(newline="") as f:
            rows = list(csv.DictReader(f))
        sizes = sorted({int(r.get("size", 9)) for r in rows})
        for size in sizes:
            chosen = [r for r in rows if int(r.get("size", 9)) == size]
            boxes = {(r.get("box_rows"), r.get("box_cols")) for r in chosen}
            for box_text in sorted(boxes, key=str):
                part = [r for r in chosen if (r.get("box_rows"), r.get("box_cols")) == box_text]
                box = None if box_text[0] is None else (int(box_text[0]), int(box_text[1] or 0))
                groups.append((f"{name} {size}x{size}", box, part))
    print(
        "| algorithm | order | values | restart after | budget | data | N | answered | "
        "equal engine and published | largest answered tree | CPU s |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    engine = {
        id(part): count_many([r["puzzle"] for r in part], limit=2, box=box, max_nodes=None)
        for _, box, part in groups
    }
    for algorithm, order, values, restart_after, budget in CONFIGS:
        for label, box, part in groups:
            puzzles = [r["puzzle"] for r in part]
            results = lab.run_many(
                puzzles,
                algorithm,
                limit=2,
                order=order,
                value_order=values,
                budget=budget,
                restart_after=restart_after,
                box=box,
                threads=args.threads,
            )
            answered = [i for i, r in enumerate(results) if r.answered]
            equal = sum(
                1
                for i in answered
                if results[i].count == engine[id(part)][i] == published(part[i]["num_solutions"])
            )
            largest = max((results[i].nodes for i in answered), default=0)
            cpu = sum(r.seconds for r in results)
            print(
                f"| {algorithm} | {order} | {values} | {restart_after or '-'} | {budget:,} | "
                f"{label} | {len(part)} | {len(answered)} | {equal} | {largest:,} | {cpu:.1f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
