"""Canonical keys of variant puzzles: keys per second and duplicates found per set.

    python bench/variant_canonical.py DATA_DIR [--rounds 5] [--per-set 300]

DATA_DIR holds the published sets as JSON lines (`{"puzzle", "size", "rules", ...}`
per line: x.jsonl, jigsaw.jsonl, killer.jsonl, ...). For each set, the 9x9 puzzles
(the first --per-set of them for the timing) get `canonical_variant` keys, one thread,
in interleaved rounds with `canonical` of the same givens as classic puzzles and the
call that only reads the input (`Rules.from_json` + `parse`) as the floor; medians
are printed. Then every puzzle of the set (all sizes) is keyed and the duplicates
counted: pairs with the same key (equivalent under the rules' symmetries), of those
the exact repeats (same givens, equal rules), and, for comparison, how many would be
merged by the givens' classic canonical form alone (ignoring the rules). Before the
timing, 20 puzzles per set are moved by random symmetries of their rules and must
keep their key.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import sudoku_fast as sf

SETS = {
    "x": ["x.jsonl"],
    "windoku": ["windoku.jsonl"],
    "disjoint": ["disjoint.jsonl"],
    "percent (extra sets)": ["percent.jsonl"],
    "jigsaw": ["jigsaw.jsonl", "jigsaw_andoku.jsonl"],
    "killer": ["killer.jsonl"],
    "thermo": ["thermo.jsonl"],
    "pairwise": ["pairwise.jsonl"],
}


def load(folder: Path, names: list[str]) -> list[dict[str, Any]]:
    rows = []
    for name in names:
        path = folder / name
        if path.exists():
            rows += [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return rows


def _classic_form(puzzle: str, size: int) -> str:
    """The givens' classic form (a prime size has no boxes: its lines are its units)."""
    try:
        return sf.canonical(puzzle)
    except ValueError:  # a prime size, or a symbol repeated in a line
        return f"{size}:{puzzle}"


def timed(call: Callable[[], object]) -> float:
    started = time.perf_counter()
    call()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--per-set", type=int, default=300)
    args = parser.parse_args()
    print(f"{'set':22} {'9x9':>5} {'keys/s':>9} {'us/key':>8} {'classic us':>10} {'read us':>8}")
    counts = []
    for kind, names in SETS.items():
        rows = load(args.data, names)
        if not rows:
            continue
        pairs = [(r["puzzle"], sf.Rules.from_json(r["rules"])) for r in rows]
        for k, (puzzle, rules) in enumerate(pairs[:20]):
            key = sf.canonical_variant(puzzle, rules).key
            moved, moved_rules = sf.random_variant_transform(puzzle, rules, seed=k)
            assert sf.canonical_variant(moved, moved_rules).key == key, (kind, k)
        nine = [(r["puzzle"], r["rules"]) for r in rows if r["size"] == 9][: args.per_set]
        if nine:
            keys: list[float] = []
            classic: list[float] = []
            floor: list[float] = []
            for _ in range(args.rounds):
                keys.append(timed(lambda n=nine: [sf.canonical_variant(p, r) for p, r in n]))
                classic.append(
                    timed(lambda n=nine: sf.canonical_many([p for p, _ in n], threads=1))
                )
                floor.append(
                    timed(lambda n=nine: [(sf.Rules.from_json(r), sf.parse(p)) for p, r in n])
                )
            per = statistics.median(keys) / len(nine)
            print(
                f"{kind:22} {len(nine):5} {1 / per:9,.0f} {per * 1e6:8.1f} "
                f"{statistics.median(classic) / len(nine) * 1e6:10.1f} "
                f"{statistics.median(floor) / len(nine) * 1e6:8.1f}"
            )
        all_keys = [sf.canonical_variant(p, r).key for p, r in pairs]
        exact = len(pairs) - len({(p, r.dumps()) for p, r in pairs})
        givens_only = len(pairs) - len({_classic_form(r["puzzle"], r["size"]) for r in rows})
        counts.append((kind, len(pairs), len(pairs) - len(set(all_keys)), exact, givens_only))
    print()
    print(f"{'set':22} {'puzzles':>8} {'duplicates':>10} {'exact':>6} {'givens only':>11}")
    for kind, n, duplicates, exact, givens_only in counts:
        print(f"{kind:22} {n:8} {duplicates:10} {exact:6} {givens_only:11}")


if __name__ == "__main__":
    main()
