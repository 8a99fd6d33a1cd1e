"""threads=2 against threads=1 for `count_many` under variant rules, on published puzzles.

    python bench/variant_threads.py DATA_DIR --rounds 5

DATA_DIR holds the published sets as `bench/variant_blind.py` reads them (not in the
repository). The 9x9 puzzles of x.jsonl, jigsaw.jsonl and killer.jsonl are repeated to
about 2,000 (killer: its first 60, three times); each round times `count_many(puzzles,
rules=..., threads=T)` for T = 1 and 2 in alternating order (wall clock; every count must
be 1). The figure is the ratio of the medians, threads=1 time / threads=2 time.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path
from typing import Any

import sudoku_fast as sf


def nines(path: Path, cap: int) -> list[dict[str, Any]]:
    records = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [r for r in records if r["size"] == 9][:cap]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("data", type=Path, help="folder of the published sets (*.jsonl)")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    sets = {
        "X": (nines(args.data / "x.jsonl", 570), None),
        "jigsaw": (nines(args.data / "jigsaw.jsonl", 500), None),
        "killer": (nines(args.data / "killer.jsonl", 60), 3),
    }
    jobs: dict[str, tuple[list[str], list[sf.Rules]]] = {}
    for name, (records, repeat) in sets.items():
        times = repeat or max(1, 2000 // len(records))
        jobs[name] = (
            [r["puzzle"] for r in records] * times,
            [sf.Rules.from_json(r["rules"]) for r in records] * times,
        )
    seconds: dict[tuple[str, int], list[float]] = {(n, t): [] for n in jobs for t in (1, 2)}
    for k in range(args.rounds):
        for name, (puzzles, rules) in jobs.items():
            for threads in (1, 2) if k % 2 == 0 else (2, 1):
                started = time.perf_counter()
                counts = sf.count_many(puzzles, rules=rules, threads=threads)
                seconds[(name, threads)].append(time.perf_counter() - started)
                assert counts == [1] * len(puzzles), name
    print(f"load average {os.getloadavg()[0]:.1f}, {args.rounds} rounds, {os.cpu_count()} cpus")
    for name, (puzzles, _) in jobs.items():
        one = statistics.median(seconds[(name, 1)])
        two = statistics.median(seconds[(name, 2)])
        print(
            f"{name}: {len(puzzles)} puzzles, threads=1 {one * 1e3:.0f} ms, "
            f"threads=2 {two * 1e3:.0f} ms, threads=2 / threads=1 {one / two:.2f}x"
        )


if __name__ == "__main__":
    main()
