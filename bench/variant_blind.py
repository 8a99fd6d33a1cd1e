"""Blind check of the variant engine on published variant puzzles (files not in the repo).

    python bench/variant_blind.py DATA_DIR [--sat-every 10] [--threads 2]

DATA_DIR holds JSON lines (`{"id", "source", "kind", "size", "puzzle", "rules",
"solution"?}`; the rules in the JSON form of `sudoku_fast.Rules.from_json`). For every
puzzle of every `*.jsonl` file: `count_many(limit=2)` must say 1 (the sets are unique
puzzles); `solve_many`'s solution must keep every rule by tests/variant_oracle.py's plain
checker (written apart from the package) and equal the published solution where the
source has one; every `--sat-every`-th puzzle is also counted by the oracle's SAT
counter, which must agree. Prints a table per file and source, and every failure.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import sudoku_fast as sf

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
import variant_oracle as oracle  # noqa: E402


def source_of(record: dict[str, Any]) -> str:
    return str(record.get("id", "?")).split("-")[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", type=Path)
    parser.add_argument("--sat-every", type=int, default=10)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    totals: Counter[str] = Counter()
    print("| file | source | sizes | puzzles | count = 1 | checker ok | = published | "
          "SAT agrees | engine s |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|")
    failures = []
    for path in sorted(args.data.glob("*.jsonl")):
        records = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        groups: dict[str, list[dict[str, Any]]] = {}
        for record in records:
            groups.setdefault(source_of(record), []).append(record)
        for source, group in groups.items():
            by_size: dict[int, list[dict[str, Any]]] = {}
            for record in group:
                by_size.setdefault(int(record["size"]), []).append(record)
            row: Counter[str] = Counter()
            spent = 0.0
            for size, batch in sorted(by_size.items()):
                puzzles = [r["puzzle"] for r in batch]
                rules = [r["rules"] for r in batch]
                began = time.perf_counter()
                counts = sf.count_many(puzzles, rules=rules, threads=args.threads)
                solutions = sf.solve_many(puzzles, rules=rules, threads=args.threads)
                spent += time.perf_counter() - began
                for k, (record, count, solution) in enumerate(
                    zip(batch, counts, solutions, strict=True)
                ):
                    row["puzzles"] += 1
                    ok_count = count == 1
                    ok_check = solution is not None and oracle.is_valid_solution(
                        solution, dict(record["rules"], size=size), record["puzzle"]
                    )
                    row["count"] += ok_count
                    row["check"] += ok_check
                    if record.get("solution"):
                        row["published"] += 1
                        row["equal"] += solution == record["solution"]
                        if solution != record["solution"]:
                            failures.append(f"{record.get('id')}: differs from the published one")
                    if not ok_count or not ok_check:
                        failures.append(f"{record.get('id')}: count {count}, checker {ok_check}")
                    if args.sat_every and k % args.sat_every == 0:
                        want = oracle.count_solutions(
                            record["puzzle"], dict(record["rules"], size=size), 2
                        )[0]
                        row["sat"] += 1
                        row["sat_equal"] += want == count
                        if want != count:
                            failures.append(f"{record.get('id')}: SAT {want}, engine {count}")
            sizes = ",".join(str(s) for s in sorted(by_size))
            print(
                f"| {path.name} | {source} | {sizes} | {row['puzzles']} | {row['count']} | "
                f"{row['check']} | {row['equal']} of {row['published']} | "
                f"{row['sat_equal']} of {row['sat']} | {spent:.2f} |"
            )
            totals.update(row)
    print(
        f"\nall: {totals['puzzles']} puzzles, count 1: {totals['count']}, checker ok: "
        f"{totals['check']}, equal to the published solution: {totals['equal']} of "
        f"{totals['published']}, SAT agrees: {totals['sat_equal']} of {totals['sat']}"
    )
    for failure in failures[:50]:
        print("FAIL", failure)
    if failures:
        raise SystemExit(f"{len(failures)} failures")


if __name__ == "__main__":
    main()
