"""Agreement of `Rating.score` with Sudoku Explainer on SE-rated puzzles, and its speed.

Reads `../shared/data/sudoku_exchange_se_rated.csv` (puzzle,se_rating,bucket), rates
every puzzle with `rate_many`, and prints, overall and per SE band (1-2, 2-3, ..., 9+):
count, Spearman rank correlation, median |score - SE|, share exact (the same tenth),
share within 0.5, mean signed difference, and the puzzles left with an incomplete
score. Then puzzles/s of `rate_many(threads=1)` on the puzzles with SE >= 7 and on
those with SE < 4.

    python bench/se_agreement.py [--csv PATH] [--threads K] [--limit N] [--speed-sample N]
                                 [--out PATH]

`--out` writes one line per puzzle (row, puzzle, SE, score, technique, complete) so two
builds' runs can be compared puzzle by puzzle.
"""

from __future__ import annotations

import argparse
import csv
import os
import statistics
import time
from collections import Counter

import sudoku_fast as sf

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_CSV = os.path.join(HERE, "..", "..", "shared", "data", "sudoku_exchange_se_rated.csv")


def ranks(values: list[float]) -> list[float]:
    """Ranks from 1, ties given the average of the ranks they span."""
    order = sorted(range(len(values)), key=values.__getitem__)
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def spearman(x: list[float], y: list[float]) -> float:
    """Spearman rank correlation: Pearson correlation of the tie-averaged ranks."""
    rx, ry = ranks(x), ranks(y)
    mx, my = statistics.fmean(rx), statistics.fmean(ry)
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    sxx = sum((a - mx) ** 2 for a in rx)
    syy = sum((b - my) ** 2 for b in ry)
    return sxy / (sxx * syy) ** 0.5 if sxx and syy else float("nan")


def row(label: str, se: list[float], ours: list[float]) -> str:
    diffs = [o - s for o, s in zip(ours, se, strict=True)]
    rho = spearman(ours, se)
    med = statistics.median(abs(d) for d in diffs)
    within = sum(abs(d) <= 0.5 + 1e-9 for d in diffs) / len(diffs)
    exact = sum(abs(d) < 0.05 for d in diffs) / len(diffs)
    bias = statistics.fmean(diffs)
    return (
        f"| {label:<7} | {len(se):>6} | {rho:>8.3f} | {med:>11.2f} "
        f"| {exact:>6.1%} | {within:>10.1%} | {bias:>+9.2f} |"
    )


def speed(puzzles: list[str]) -> float:
    start = time.perf_counter()
    sf.rate_many(puzzles, threads=1, score=True)
    return len(puzzles) / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--csv", default=DEFAULT_CSV)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--limit", type=int, default=0, help="every k-th row only (0: all)")
    parser.add_argument("--speed-sample", type=int, default=2000)
    parser.add_argument("--out", default=None, help="per-puzzle CSV (row, SE, score, ...)")
    args = parser.parse_args()
    with open(args.csv, newline="") as f:
        rows = list(csv.DictReader(f))
    numbers = list(range(len(rows)))
    if args.limit:
        numbers = numbers[:: max(1, len(rows) // args.limit)]
        rows = [rows[i] for i in numbers]
    puzzles = [r["puzzle"] for r in rows]
    se = [float(r["se_rating"]) for r in rows]
    start = time.perf_counter()
    ratings = sf.rate_many(puzzles, threads=args.threads, score=True)
    elapsed = time.perf_counter() - start
    ours = [r.score for r in ratings]
    assert all(s is not None for s in ours)
    scores = [float(s) for s in ours if s is not None]
    if args.out:
        with open(args.out, "w", newline="") as f:
            out = csv.writer(f)
            out.writerow(["row", "puzzle", "se_rating", "score", "technique", "complete"])
            for number, r, rating in zip(numbers, rows, ratings, strict=True):
                out.writerow(
                    [
                        number,
                        r["puzzle"],
                        r["se_rating"],
                        rating.score,
                        rating.score_technique,
                        rating.score_complete,
                    ]
                )
    print(f"{len(rows)} puzzles rated in {elapsed:.1f} s (threads={args.threads or 'all'})")
    print("| SE band | count | Spearman | median abs diff | exact | within 0.5 | mean diff |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    print(row("all", se, scores))
    for band in range(1, 10):
        idx = [i for i, s in enumerate(se) if band <= s < band + 1 or (band == 9 and s >= 9)]
        if idx:
            label = f"{band}+" if band == 9 else f"{band}-{band + 1}"
            print(row(label, [se[i] for i in idx], [scores[i] for i in idx]))
    incomplete = sum(not r.score_complete for r in ratings)
    print(f"incomplete scores (budget spent or a step beyond the ladder): {incomplete}")
    hardest = Counter(r.score_technique for r in ratings)
    print("score set by:", ", ".join(f"{k} {v}" for k, v in hardest.most_common()))
    hard = [p for p, s in zip(puzzles, se, strict=True) if s >= 7][: args.speed_sample]
    easy = [p for p, s in zip(puzzles, se, strict=True) if s < 4][: args.speed_sample]
    if hard and easy:
        speed(easy[:50])  # warm up: tables, pool
        print(f"rate_many threads=1: SE >= 7: {speed(hard):,.0f} puzzles/s ({len(hard)} puzzles)")
        print(f"rate_many threads=1: SE < 4:  {speed(easy):,.0f} puzzles/s ({len(easy)} puzzles)")


if __name__ == "__main__":
    main()
