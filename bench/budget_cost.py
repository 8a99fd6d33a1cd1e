"""What the general engine's default node budget costs: CPU seconds until it runs out.

The README's budget table: per grid size, `count_solutions(p, 2**31 - 1)` (which searches
until the budget runs out) on the empty grid and on 10% of a solution's cells as clues,
in CPU seconds of one thread (`time.process_time`, so a busy machine's waiting is not
counted), the median of `--rounds` runs.

    python bench/budget_cost.py [--sizes 16 25 36 49 64] [--rounds 3]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import sudoku_fast as sf

# Symbols for every size up to 64 (the default ones stop at 49).
ALPHABET = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz@#$"


def clues_from_solution(size: int, share: float, seed: int) -> str:
    """`share` of the cells of a solution of the empty grid, chosen at random."""
    solution = sf.solve("." * (size * size), alphabet=ALPHABET[:size])
    assert solution is not None
    keep = set(random.Random(seed).sample(range(size * size), round(share * size * size)))
    return "".join(c if i in keep else "." for i, c in enumerate(solution))


def budget_seconds(puzzle: str, size: int) -> float:
    start = time.process_time()
    try:
        sf.count_solutions(puzzle, 2**31 - 1, alphabet=ALPHABET[:size])
    except sf.SearchLimitExceeded:
        pass
    else:
        raise SystemExit("the puzzle was decided before the budget ran out")
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[16, 25, 36, 49, 64])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print("| grid | empty grid | 10% of a solution's cells as clues |")
    print("|---|---|---|")
    for size in args.sizes:
        empty = "." * (size * size)
        sparse = clues_from_solution(size, 0.10, seed=size)
        times: dict[str, list[float]] = {"empty": [], "sparse": []}
        for _ in range(args.rounds):  # interleaved, so drifts of the machine hit both
            times["empty"].append(budget_seconds(empty, size))
            times["sparse"].append(budget_seconds(sparse, size))
        print(
            f"| {size}x{size} | {statistics.median(times['empty']):.1f} s "
            f"| {statistics.median(times['sparse']):.1f} s |",
            flush=True,
        )


if __name__ == "__main__":
    main()
