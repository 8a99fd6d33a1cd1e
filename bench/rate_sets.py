"""Rate the embedded public sets: mean level, level histogram, engine figures, time.

python bench/rate_sets.py
"""

from __future__ import annotations

import statistics
import time
from collections import Counter

import sudoku_fast as sf
from sudoku_fast.datasets import load_embedded

SETS = ("norvig_easy50", "norvig_top95", "norvig_hardest", "magictour_top1465")


def main() -> None:
    header = (
        f"{'set':<19}{'puzzles':>8}{'mean level':>11}{'levels 1-6':>26}"
        f"{'engine nodes':>13}{'engine guesses':>15}{'ms/puzzle':>10}"
    )
    print(header)
    print("-" * len(header))
    for name in SETS:
        puzzles = load_embedded(name)
        start = time.process_time()
        ratings = sf.rate_many(puzzles, threads=1)
        ms = (time.process_time() - start) * 1000 / len(puzzles)
        levels = Counter(r.level for r in ratings)
        histogram = " ".join(f"{levels[k]:>4}" for k in range(1, 7))
        print(
            f"{name:<19}{len(puzzles):>8}{statistics.mean(r.level for r in ratings):>11.3f}"
            f"{histogram:>26}{statistics.mean(r.engine_nodes for r in ratings):>13.1f}"
            f"{statistics.mean(r.engine_guesses for r in ratings):>15.1f}{ms:>10.1f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
