"""Variant rules against a peer: sudoku_fast and pencilmark on the same published puzzles.

    pip install pencilmark
    python bench/variant_peers.py DATA_DIR --rounds 5 --per-set 100 --killers 30

DATA_DIR holds JSON lines as `bench/variant_blind.py` reads them (`{"size", "puzzle",
"rules", "solution"?}`, the rules in the JSON form of `sudoku_fast.Rules.from_json`);
the published sets are not in the repository.

Both sides prove uniqueness, one thread:

* sudoku_fast: `count_many(puzzles, limit=2, rules=..., threads=1)`, then
  `solve_many(..., rules=...)` on the same list (two calls: ours is timed doing more).
  Each answer must be count 1 and a grid the independent checker of
  tests/variant_oracle.py accepts (and equal to the published solution where there
  is one); the checks run after each timed sample, outside it.
* pencilmark (PyPI, a C++ engine behind pybind11): `pencilmark.solve(doc)` returns the
  unique solution after a search to two solutions. The puzzle goes in as its puzzle
  JSON (rows, columns, boxes or regions, diagonals, windows and cages as "regions",
  thermometers and the pairwise rules as "rules"); its answers go through the same
  checks.

Each round takes one sample of every (set, solver) pair, in an order rotated per round;
a sample is as many whole passes over the set as fill 0.3 s (at least one). The figure
is the median over rounds of the mean time per puzzle, and the ratio is
pencilmark's / ours (> 1: ours is faster).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import sudoku_fast as sf

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import variant_oracle as oracle  # noqa: E402

MIN_SAMPLE = 0.3  # seconds: a fast set is passed over several times per sample


def cell_name(cell: int, size: int) -> str:
    return f"r{cell // size + 1}c{cell % size + 1}"


def pencilmark_doc(record: dict[str, Any]) -> dict[str, Any]:
    """A record's puzzle in pencilmark's puzzle JSON."""
    n = record["size"]
    rules = dict(record["rules"], size=n)
    groups = oracle.all_different_groups(n, rules)
    kinds = ["row"] * n + ["col"] * n + ["region" if "regions" in rules else "box"] * n
    regions: list[dict[str, Any]] = [
        {
            "kind": kinds[i] if i < len(kinds) else "extra",
            "cells": [cell_name(c, n) for c in group],
        }
        for i, group in enumerate(groups)
    ]
    for cage in rules.get("cages", ()):
        entry: dict[str, Any] = {"kind": "cage", "cells": [cell_name(c, n) for c in cage["cells"]]}
        if "sum" in cage:
            entry["sum"] = cage["sum"]
        regions.append(entry)
    doc: dict[str, Any] = {"digits": n, "numbers": record["puzzle"], "regions": regions}
    extra_rules: list[dict[str, Any]] = []
    for flag, name in (
        ("anti_knight", "antiknight"),
        ("anti_king", "antiking"),
        ("non_consecutive", "nonconsecutive"),
    ):
        if rules.get(flag):
            extra_rules.append({"type": name})
    for thermo in rules.get("thermos", ()):
        extra_rules.append(
            {"type": "line", "kind": "thermo", "cells": [cell_name(c, n) for c in thermo]}
        )
    if extra_rules:
        doc["rules"] = extra_rules
    return doc


def wrong_answer(record: dict[str, Any], solution: str | None) -> bool:
    """True unless `solution` keeps the record's rules (and equals a published one)."""
    if solution is None:
        return True
    if record.get("solution") is not None:
        return solution != record["solution"]
    rules = dict(record["rules"], size=record["size"])
    return not oracle.is_valid_solution(solution, rules, record["puzzle"])


def run_ours(records: list[dict[str, Any]]) -> Callable[[], list[str | None]]:
    puzzles = [r["puzzle"] for r in records]
    rules = [sf.Rules.from_json(r["rules"]) for r in records]

    def run() -> list[str | None]:
        counts = sf.count_many(puzzles, limit=2, rules=rules, threads=1)
        solutions = sf.solve_many(puzzles, rules=rules, threads=1)
        return [s if c == 1 else None for c, s in zip(counts, solutions, strict=True)]

    return run


def run_pencilmark(records: list[dict[str, Any]]) -> Callable[[], list[str | None]]:
    import pencilmark

    docs = [pencilmark_doc(r) for r in records]

    def run() -> list[str | None]:
        answers: list[str | None] = []
        for doc in docs:
            found = pencilmark.solve(doc)
            answers.append("".join(oracle.SYMBOLS[v - 1] for v in found) if found else None)
        return answers

    return run


def load(folder: Path, name: str) -> list[dict[str, Any]]:
    path = folder / name
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("data", type=Path, help="folder of the published sets (*.jsonl)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--per-set", type=int, default=100, help="first puzzles of each set")
    parser.add_argument("--killers", type=int, default=30, help="9x9 killer puzzles")
    args = parser.parse_args()

    cap = args.per_set
    nines = lambda name: [r for r in load(args.data, name) if r["size"] == 9]  # noqa: E731
    sets: dict[str, list[dict[str, Any]]] = {
        "X 9x9": nines("x.jsonl")[:cap],
        "windoku 9x9": nines("windoku.jsonl")[:cap],
        "disjoint 9x9": nines("disjoint.jsonl")[:cap],
        "jigsaw 9x9": nines("jigsaw.jsonl")[:cap],
        "killer 9x9": [r for r in nines("killer.jsonl") if not r["rules"].get("diagonals")][
            : args.killers
        ],
        "thermo 9x9": nines("thermo.jsonl"),
        "pairwise 9x9 (CTC)": nines("pairwise.jsonl"),
    }
    jobs: list[tuple[str, str, int, Callable[[], list[str | None]]]] = []
    for name, records in sets.items():
        if records:
            jobs.append((name, "sudoku_fast", len(records), run_ours(records)))
            jobs.append((name, "pencilmark", len(records), run_pencilmark(records)))

    per_puzzle: dict[tuple[str, str], list[float]] = {}
    wrong: dict[tuple[str, str], int] = {}
    for k in range(args.rounds):
        shift = k % len(jobs)
        for name, solver, n, run in jobs[shift:] + jobs[:shift]:
            passes = 0
            t0 = time.perf_counter()
            while True:
                answers = run()
                passes += 1
                elapsed = time.perf_counter() - t0
                if elapsed >= MIN_SAMPLE:
                    break
            per_puzzle.setdefault((name, solver), []).append(elapsed / passes / n)
            # Checked outside the timed passes: the last pass's answers, every round.
            bad = sum(wrong_answer(r, a) for r, a in zip(sets[name], answers, strict=True))
            wrong[(name, solver)] = max(wrong.get((name, solver), 0), bad)
        print(f"round {k + 1} of {args.rounds} done", file=sys.stderr, flush=True)

    print(
        f"{platform.processor() or platform.machine()}, Python {platform.python_version()},"
        f" load average {os.getloadavg()[0]:.1f}, {args.rounds} rounds, one thread"
    )
    print(
        "| set | puzzles | sudoku_fast us | pencilmark us | pencilmark / ours"
        " | wrong (ours, peer) |"
    )
    print("|---|---:|---:|---:|---:|---|")
    for name in sets:
        if (name, "sudoku_fast") not in per_puzzle:
            continue
        ours = statistics.median(per_puzzle[(name, "sudoku_fast")]) * 1e6
        peer = statistics.median(per_puzzle[(name, "pencilmark")]) * 1e6
        print(
            f"| {name} | {len(sets[name])} | {ours:,.1f} | {peer:,.1f} | {peer / ours:,.0f}x"
            f" | {wrong[(name, 'sudoku_fast')]}, {wrong[(name, 'pencilmark')]} |"
        )


if __name__ == "__main__":
    main()
