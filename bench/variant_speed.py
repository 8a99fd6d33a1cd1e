"""Variant Sudoku speed: the variant engine against the classic engine, one thread.

    python bench/variant_speed.py DATA_DIR [--rounds 7] [--per-set 150] [--killers 100]

DATA_DIR holds variant puzzles as JSON lines (`{"puzzle", "rules", "size", "kind",
"solution"?}`, the rule JSON of `sudoku_fast.Rules.from_json`): x.jsonl, windoku.jsonl,
jigsaw.jsonl, killer.jsonl (public sets; not part of the repository). Anti-knight
puzzles are made here, seeded: a solution of the anti-knight rules, then clues removed
in random order while the count stays 1 (minimal puzzles, about 13 clues: no classic
puzzle has so few). The "anti-knight" row gives each of them back givens from its own
solution, in a seeded random order, until it has the clue count of a classic puzzle of
the sample (the sample's puzzles in turn), so that both sides of the pair have the same
clue counts, as issue 33 asks ("puzzles of similar clue counts"); the
"anti-knight minimal" row keeps the minimal puzzles.

Sets (9x9 only), each timed as `count_many(puzzles, limit=2, rules=..., threads=1)`
(parsing, rule encoding and the engine: the public call):

* X, windoku, jigsaw, anti-knight, anti-knight minimal: against classic puzzles of the
  same clue counts (for each variant puzzle, a classic one with its number of clues, from
  tests/data/sudoku_exchange_se_rated_sample300.csv, the nearest count where there is
  none), timed as `count_many(classic, limit=2, threads=1)`. Issue 33's target: 3x.
* killer (no givens): against the classic puzzles of the whole sample (target: 20x).

Each round times every set in an order rotated per round; a sample is as many whole
passes over a set as fill 0.2 s. The figure is the median over rounds of the mean
time per puzzle, and the ratio the median of the per-round ratios.

`--threads` adds threads=2 against threads=1 on each variant set (repeated to 2,000
puzzles), interleaved the same way.

`--baseline PATH` adds the same public calls run on another build of the variant engine
(a copy of an earlier `_variant*.so`), interleaved the same way, for before/after
figures from one run: each variant set gets a "before" column and the ratio of the two.

`--first-sight` adds, for each variant set, the same call with the rules' caches emptied
before each pass (`_variants.encode` remembers the checked record of each rule set, by
identity and by value, and `_base.rules` the cells of each jigsaw's regions): what a
batch of rule sets never seen before costs, where every jigsaw's regions or killer's
cages are checked and encoded once. The plain rows time rule sets the process has seen
(repeated passes over one set), as one shared rule set or a second pass over a dataset
does.

`--cpu-time` times with the process's CPU time (`time.process_time`) instead of the
wall clock: on a machine shared with other jobs, the time the process waits for a core
is left out, which the wall clock counts at random (the calls are threads=1, so one
thread's time; not with `--threads`).

Before timing, every answer is checked: each count must be 1 (the sets are unique
puzzles) and each solution must keep every rule, by tests/variant_oracle.py's checker.
"""

from __future__ import annotations

import argparse
import csv
import importlib.util
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import sudoku_fast as sf
from sudoku_fast._base import rules as rules_module
from sudoku_fast._variants import encode, run

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
import variant_oracle as oracle  # noqa: E402

MIN_SAMPLE = 0.2


def load(path: Path, limit: int) -> list[dict[str, Any]]:
    records = []
    for line in path.read_text().splitlines():
        if line.strip():
            record = json.loads(line)
            if record.get("size", 9) == 9:
                records.append(record)
    return records[:limit]


def clues(puzzle: str) -> int:
    return sum(ch not in ".0" for ch in puzzle)


def anti_knight_set(count: int, seed: int) -> list[dict[str, Any]]:
    """Minimal-ish unique anti-knight puzzles: a seeded solution, clues removed while unique."""
    rng = random.Random(seed)
    rules = sf.Rules.named("anti-knight")
    records = []
    while len(records) < count:
        start = ["."] * 81
        for cell in rng.sample(range(81), 4):
            start[cell] = str(rng.randint(1, 9))
        solution = sf.solve("".join(start), rules=rules)
        if solution is None:
            continue
        grid = list(solution)
        for cell in rng.sample(range(81), 81):
            kept = grid[cell]
            grid[cell] = "."
            if sf.count_solutions("".join(grid), rules=rules) != 1:
                grid[cell] = kept
        records.append(
            {"puzzle": "".join(grid), "rules": rules.to_json(), "solution": solution, "size": 9}
        )
    return records


def with_clue_counts(
    records: list[dict[str, Any]], pool: list[str], seed: int
) -> list[dict[str, Any]]:
    """`records` with givens added from each one's solution (seeded order) until puzzle i
    has the clue count of pool[i] (in turn), or as it is when it has that many already."""
    rng = random.Random(seed)
    out = []
    for i, record in enumerate(records):
        grid = list(record["puzzle"])
        target = clues(pool[i % len(pool)])
        empty = [cell for cell, ch in enumerate(grid) if ch in ".0"]
        rng.shuffle(empty)
        for cell in empty[: max(0, target - clues(record["puzzle"]))]:
            grid[cell] = record["solution"][cell]
        out.append({**record, "puzzle": "".join(grid)})
    return out


def classic_like(records: list[dict[str, Any]], pool: list[str]) -> list[str]:
    """For each record, a classic puzzle with the same number of clues (nearest count)."""
    by_count: dict[int, list[str]] = {}
    for puzzle in pool:
        by_count.setdefault(clues(puzzle), []).append(puzzle)
    used: dict[int, int] = {}
    out = []
    for record in records:
        k = clues(record["puzzle"])
        nearest = min(by_count, key=lambda c: (abs(c - k), c))
        group = by_count[nearest]
        out.append(group[used.get(nearest, 0) % len(group)])
        used[nearest] = used.get(nearest, 0) + 1
    return out


def load_engine(path: Path) -> Any:
    """The compiled variant engine at `path` (a build of `_variant.pyx`), as a module."""
    spec = importlib.util.spec_from_file_location(run._variant.__name__, path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"{path}: not an extension module")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def on_engine(engine: Any, call: Callable[[], Any]) -> Callable[[], Any]:
    """`call` with the batch runner's variant engine set to `engine` while it runs."""

    def swapped() -> Any:
        saved = run._variant
        run._variant = engine
        try:
            return call()
        finally:
            run._variant = saved

    return swapped


def verify(name: str, records: list[dict[str, Any]]) -> None:
    puzzles = [r["puzzle"] for r in records]
    rules = [r["rules"] for r in records]
    counts = sf.count_many(puzzles, rules=rules, threads=1)
    solutions = sf.solve_many(puzzles, rules=rules, threads=1)
    bad = [
        i
        for i, (c, s, r) in enumerate(zip(counts, solutions, records, strict=True))
        if c != 1
        or s is None
        or not oracle.is_valid_solution(s, r["rules"], r["puzzle"])
        or (bool(r.get("solution")) and s != r["solution"])
    ]
    if bad:
        raise SystemExit(f"{name}: {len(bad)} wrong answers, first at {bad[0]}")


def timer(call: Callable[[], Any], n: int, clock: Callable[[], float]) -> Callable[[], float]:
    def sample() -> float:
        passes = 0
        began = clock()
        while True:
            call()
            passes += 1
            spent = clock() - began
            if spent >= MIN_SAMPLE:
                return spent / (passes * n)

    return sample


def forget() -> None:
    """Empty the caches of checked rule records and of a jigsaw's regions, as in a
    process new to these rules."""
    encode.forget_records()
    regions = getattr(rules_module, "region_cells", None)  # builds before it: per layout
    (regions or rules_module._region_units).cache_clear()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", type=Path)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--per-set", type=int, default=150)
    parser.add_argument("--killers", type=int, default=100)
    parser.add_argument("--threads", action="store_true", help="also threads=2 / threads=1")
    parser.add_argument(
        "--first-sight", action="store_true", help="also with the rules' caches emptied"
    )
    parser.add_argument(
        "--baseline", type=Path, help="another build of the variant engine (.so) to compare"
    )
    parser.add_argument(
        "--cpu-time", action="store_true", help="the process's CPU time, not the wall clock"
    )
    args = parser.parse_args()
    if args.cpu_time and args.threads:
        parser.error("--cpu-time times one thread: not with --threads")
    clock = time.process_time if args.cpu_time else time.perf_counter
    engines = {"": run._variant}
    if args.baseline:
        engines[" (baseline)"] = load_engine(args.baseline)

    with (ROOT / "tests/data/sudoku_exchange_se_rated_sample300.csv").open() as f:
        pool = [row["puzzle"] for row in csv.DictReader(f)]
    sets = {
        "X": load(args.data / "x.jsonl", args.per_set),
        "windoku": load(args.data / "windoku.jsonl", args.per_set),
        "jigsaw": load(args.data / "jigsaw.jsonl", 10**9)[: args.per_set],
        "anti-knight minimal": anti_knight_set(args.per_set // 3, seed=33),
        "killer": [
            r for r in load(args.data / "killer.jsonl", 10**9) if not r["rules"].get("diagonals")
        ][: args.killers],
    }
    sets["anti-knight"] = with_clue_counts(sets["anti-knight minimal"], pool, seed=34)
    for engine in engines.values():
        for name, records in sets.items():
            on_engine(engine, lambda n=name, r=records: verify(n, r))()
    classic = {name: classic_like(recs, pool) for name, recs in sets.items() if name != "killer"}
    classic["killer"] = pool
    for puzzles in classic.values():
        assert all(c == 1 for c in sf.count_many(puzzles, threads=1))

    samples: dict[str, Callable[[], float]] = {}
    for name, records in sets.items():
        puzzles = [r["puzzle"] for r in records]
        rules = [sf.Rules.from_json(r["rules"]) for r in records]
        for suffix, engine in engines.items():
            samples[name + suffix] = timer(
                on_engine(engine, lambda p=puzzles, r=rules: sf.count_many(p, rules=r, threads=1)),
                len(puzzles),
                clock,
            )
        if args.first_sight:
            samples[f"{name} first sight"] = timer(
                lambda p=puzzles, r=rules: (forget(), sf.count_many(p, rules=r, threads=1)),
                len(puzzles),
                clock,
            )
        samples[f"classic for {name}"] = timer(
            lambda p=classic[name]: sf.count_many(p, threads=1), len(classic[name]), clock
        )
        if args.threads:
            big = (puzzles * (2000 // len(puzzles) + 1))[:2000]
            big_rules = (rules * (2000 // len(rules) + 1))[:2000]
            for t in (1, 2):
                samples[f"{name} threads={t}"] = timer(
                    lambda p=big, r=big_rules, t=t: sf.count_many(p, rules=r, threads=t),
                    2000,
                    clock,
                )
    times: dict[str, list[float]] = {key: [] for key in samples}
    keys = list(samples)
    for round_ in range(args.rounds):
        shift = round_ % len(keys)
        for key in keys[shift:] + keys[:shift]:
            times[key].append(samples[key]())

    load_avg = os.getloadavg()
    print(
        f"# {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, "
        f"Python {platform.python_version()}, sudoku_fast {sf.__version__}, "
        f"load average {load_avg[0]:.1f} {load_avg[1]:.1f} {load_avg[2]:.1f}; "
        f"{args.rounds} interleaved rounds, medians; "
        f"{'process CPU time' if args.cpu_time else 'wall clock'}"
    )
    before = " before (baseline) us/puzzle | before ratio | after/before |" if args.baseline else ""
    print(f"| set | n | median clues | variant us/puzzle | classic us/puzzle | ratio |{before}")
    print("|---|---|---|---|---|---|" + ("---|---|---|" if args.baseline else ""))

    def ratio(key: str, against: str) -> float:
        return statistics.median([a / b for a, b in zip(times[key], times[against], strict=True)])

    for name, records in sets.items():
        median_clues = statistics.median(clues(r["puzzle"]) for r in records)
        classic_key = f"classic for {name}"
        line = (
            f"| {name} | {len(records)} | {median_clues} | "
            f"{statistics.median(times[name]) * 1e6:.1f} | "
            f"{statistics.median(times[classic_key]) * 1e6:.1f} | "
            f"{ratio(name, classic_key):.2f}x |"
        )
        if args.baseline:
            base = f"{name} (baseline)"
            line += (
                f" {statistics.median(times[base]) * 1e6:.1f} | {ratio(base, classic_key):.2f}x |"
                f" {ratio(name, base):.2f}x |"
            )
        print(line)
    if args.first_sight:
        print("\n| set | first sight us/puzzle | classic us/puzzle | ratio | seen before ratio |")
        print("|---|---|---|---|---|")
        for name in sets:
            key, classic_key = f"{name} first sight", f"classic for {name}"
            print(
                f"| {name} | {statistics.median(times[key]) * 1e6:.1f} | "
                f"{statistics.median(times[classic_key]) * 1e6:.1f} | "
                f"{ratio(key, classic_key):.2f}x | {ratio(name, classic_key):.2f}x |"
            )
    if args.threads:
        print("\n| set | threads=1 us/puzzle | threads=2 us/puzzle | speed-up |")
        print("|---|---|---|---|")
        for name in sets:
            one, two = times[f"{name} threads=1"], times[f"{name} threads=2"]
            ups = [a / b for a, b in zip(one, two, strict=True)]
            print(
                f"| {name} | {statistics.median(one) * 1e6:.1f} | "
                f"{statistics.median(two) * 1e6:.1f} | {statistics.median(ups):.2f}x |"
            )


if __name__ == "__main__":
    main()
