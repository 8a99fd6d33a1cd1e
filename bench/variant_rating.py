"""Rating under variant rules: speed, one thread, and how far logic alone gets.

    python bench/variant_rating.py DATA_DIR [--rounds 5] [--per-set 100]

DATA_DIR holds variant puzzles as JSON lines (`{"puzzle", "rules", "size", ...}`, the
rule JSON of `sudoku_fast.Rules.from_json`): x.jsonl, jigsaw.jsonl and, when present,
killer.jsonl (public sets; not part of the repository). The first `--per-set` 9x9
puzzles of each are rated with `rate_many(puzzles, rules=[...], threads=1)` (the public
call: parsing, the variant engine's uniqueness proof, the technique solver), and so are
as many classic puzzles of the same clue counts from
tests/data/sudoku_exchange_se_rated_sample300.csv with `rate_many(classic, threads=1)`.

Each round times every set in an order rotated per round, one pass each; the figure is
the median over rounds of the mean time per puzzle. Before timing, the levels, the
share of puzzles logic solves without a guess and the techniques used are printed.
"""

from __future__ import annotations

import argparse
import collections
import csv
import json
import platform
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import sudoku_fast as sf

ROOT = Path(__file__).resolve().parent.parent
CLASSIC = ROOT / "tests" / "data" / "sudoku_exchange_se_rated_sample300.csv"


def load(path: Path, limit: int) -> list[dict[str, Any]]:
    records = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [r for r in records if r.get("size", 9) == 9][:limit]


def clues(puzzle: str) -> int:
    return sum(ch not in ".0" for ch in puzzle)


def classic_like(records: list[dict[str, Any]], pool: list[str]) -> list[str]:
    """For each record, a classic puzzle with the same number of clues (nearest count)."""
    by_count: dict[int, list[str]] = {}
    for puzzle in pool:
        by_count.setdefault(clues(puzzle), []).append(puzzle)
    used: collections.Counter[int] = collections.Counter()
    out = []
    for record in records:
        k = clues(record["puzzle"])
        nearest = min(by_count, key=lambda c: (abs(c - k), c))
        out.append(by_count[nearest][used[nearest] % len(by_count[nearest])])
        used[nearest] += 1
    return out


def describe(name: str, ratings: list[sf.Rating]) -> None:
    levels = collections.Counter(r.level for r in ratings)
    logic = sum("guess" not in r.counts for r in ratings)
    used: collections.Counter[str] = collections.Counter()
    for r in ratings:
        used.update(r.counts.keys())
    print(f"{name}: {len(ratings)} rated; levels {dict(sorted(levels.items()))}; "
          f"solved by logic alone {logic}/{len(ratings)}")  # fmt: skip
    print(f"  puzzles using each technique: {dict(used.most_common())}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--per-set", type=int, default=100)
    args = parser.parse_args()
    with CLASSIC.open(newline="") as f:
        pool = [row["puzzle"] for row in csv.DictReader(f)]
    sets: dict[str, tuple[list[str], Any]] = {}
    variant_names = []
    for name in ("x", "jigsaw", "killer"):
        path = args.data / f"{name}.jsonl"
        if not path.exists():
            continue
        records = load(path, args.per_set)
        puzzles = [r["puzzle"] for r in records]
        rules = [r["rules"] for r in records]
        describe(name, sf.rate_many(puzzles, rules=rules, threads=1))
        sets[name] = (puzzles, rules)
        sets[f"classic like {name}"] = (classic_like(records, pool), None)
        variant_names.append(name)

    def call(puzzles: list[str], rules: Any) -> Callable[[], float]:
        def once() -> float:
            began = time.perf_counter()
            sf.rate_many(puzzles, rules=rules, threads=1)
            return (time.perf_counter() - began) / len(puzzles)

        return once

    names = list(sets)
    times: dict[str, list[float]] = {name: [] for name in names}
    for r in range(args.rounds):
        for name in names[r % len(names) :] + names[: r % len(names)]:
            times[name].append(call(*sets[name])())
    print(f"\n{platform.processor() or platform.machine()}, threads=1, {args.rounds} rounds, "
          "median of the mean time per puzzle:")  # fmt: skip
    for name in variant_names:
        variant = statistics.median(times[name])
        classic = statistics.median(times[f"classic like {name}"])
        print(f"  {name:8} {variant * 1e3:9.2f} ms/puzzle   classic of the same clues "
              f"{classic * 1e3:7.3f} ms/puzzle   ratio {variant / classic:7.0f}x")  # fmt: skip


if __name__ == "__main__":
    main()
