"""Generation rates under variant rules, with every generated puzzle checked by SAT.

For each rule set and size, `generate_many(count, seed=..., size=..., rules=...,
threads=t)` is timed at each thread count, rounds interleaved (every rule set and
thread count once per round, a new seed per round), and the median puzzles per second
printed. Then every puzzle generated (all rounds, all thread counts) is counted by the
independent SAT counter of tests/variant_oracle.py (python-sat, CaDiCaL) and its
solution checked by the oracle's plain checker: the table's "SAT unique" column.

    python bench/variant_generate.py --sizes 6 9 --count 10 --rounds 3 --threads 1 2
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import variant_oracle as oracle

import sudoku_fast as sf

RULE_SETS = (
    "x",
    "windoku",
    "disjoint",
    "anti-knight",
    "anti-king",
    "non-consecutive",
    "jigsaw",
    "killer",
    "thermo",
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[6, 9])
    parser.add_argument("--rules", nargs="+", default=list(RULE_SETS))
    parser.add_argument("--count", type=int, default=10, help="puzzles per call")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--no-sat", action="store_true", help="skip the SAT check")
    args = parser.parse_args()

    cases = []
    for size in args.sizes:
        for names in args.rules:
            if names == "windoku" and size != 9 and size != 4:
                continue  # windows need square boxes
            cases.append((size, names))
    refused: dict[tuple[int, str], str] = {}
    for size, names in cases:  # warm up: imports, the engine's first tables, the pool
        for threads in args.threads:
            try:
                sf.generate_many(1, seed=1, size=size, rules=names, threads=threads)
            except (ValueError, RuntimeError) as exc:  # a rule set the size cannot take
                refused[(size, names)] = f"{type(exc).__name__}: {exc}"
                break
    cases = [case for case in cases if case not in refused]
    times: dict[tuple[int, str, int], list[float]] = {}
    made: dict[tuple[int, str], list[sf.VariantPuzzle]] = {}
    for rnd in range(args.rounds):
        for size, names in cases:
            for threads in args.threads:
                began = time.perf_counter()
                batch = sf.generate_many(
                    args.count, seed=1000 + rnd, size=size, rules=names, threads=threads
                )
                times.setdefault((size, names, threads), []).append(time.perf_counter() - began)
                if threads == args.threads[0]:
                    made.setdefault((size, names), []).extend(batch)
                else:
                    first = made[(size, names)][-args.count :]
                    assert batch == first, "the puzzles depend on the thread count"
    head = "| size | rules | " + " | ".join(f"puzzles/s t={t}" for t in args.threads)
    head += f" | t={args.threads[-1]}/t={args.threads[0]} | s/puzzle t={args.threads[0]}"
    head += " | median givens | SAT unique |"
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    for size, names in cases:
        rates = [args.count / statistics.median(times[(size, names, t)]) for t in args.threads]
        puzzles = made[(size, names)]
        givens = statistics.median(sum(ch != "." for ch in p) for p, _ in puzzles)
        if args.no_sat:
            sat = "-"
        else:
            good = 0
            for puzzle, rules in puzzles:
                document = {"size": size, **rules.to_json()}
                count, found = oracle.count_solutions(puzzle, document, limit=2)
                good += count == 1 and oracle.is_valid_solution(found[0], document, puzzle)
            sat = f"{good} of {len(puzzles)}"
        cells = " | ".join(f"{r:,.1f}" for r in rates)
        print(
            f"| {size}x{size} | {names} | {cells} | {rates[-1] / rates[0]:.2f} | "
            f"{1 / rates[0]:.3g} | {givens:g} | {sat} |"
        )
    for (size, names), reason in refused.items():
        print(f"{size}x{size} {names}: {reason}")


if __name__ == "__main__":
    main()
