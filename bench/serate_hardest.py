"""The hardest puzzles: Sukaku Explainer's rating (or its lower bound) against ours.

Reads bench/data/serate_hardest.csv (Sukaku Explainer's ratings, with ``source`` and
``source_line`` columns), rates each puzzle with ``rate(score=True)`` one at a time and
prints one row per puzzle: SE's rating (``>=x`` when SE ran out of its CPU timeout: the
hardest step it finished), SE's hardest technique, SE's CPU seconds, and the package's
score, technique, ``score_complete`` and CPU seconds; then a summary per source.

    python bench/serate_hardest.py bench/data/serate_hardest.csv
"""

from __future__ import annotations

import argparse
import csv
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

import sudoku_fast as sf


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("reference", type=Path)
    ap.add_argument("--budget", type=int, default=None, help="score_budget for rate")
    args = ap.parse_args(argv)
    with args.reference.open(newline="") as f:
        rows = list(csv.DictReader(f))
    kwargs = {} if args.budget is None else {"score_budget": args.budget}
    print(
        "| source | line | SE | SE hardest step | SE CPU s | ours | our technique "
        "| complete | our CPU s |"
    )
    print("|---|---:|---:|---|---:|---:|---|---|---:|")
    groups: dict[str, list[tuple[dict[str, str], float, float]]] = defaultdict(list)
    for r in rows:
        t0 = time.process_time()
        x = sf.rate(r["puzzle"], score=True, **kwargs)
        ours_s = time.process_time() - t0
        se = r["se"] if r["status"] == "ok" else f">={r['se']}"
        print(
            f"| {r['source']} | {r['source_line']} | {se} | {r['technique']} | "
            f"{float(r['cpu_s']):.1f} | {x.score} | {x.score_technique} | "
            f"{x.score_complete} | {ours_s:.3f} |"
        )
        groups[r["source"]].append((r, float(x.score), ours_s))
    print()
    print(
        "| source | puzzles | SE finished | SE range (finished) | SE timeouts (lower bounds) "
        "| SE CPU s (finished, median) | ours >= 10 | ours CPU s (median) |"
    )
    print("|---|---:|---:|---|---|---:|---:|---:|")
    for source, items in groups.items():
        done = [(r, o) for r, o, _ in items if r["status"] == "ok"]
        late = [r for r, _, _ in items if r["status"] != "ok"]
        se_done = [float(r["se"]) for r, _ in done]
        bounds = [float(r["se"]) for r in late if r["se"]]
        print(
            f"| {source} | {len(items)} | {len(done)} | "
            f"{min(se_done, default=0):.1f}-{max(se_done, default=0):.1f} | "
            f"{len(late)}: {min(bounds, default=0):.1f}-{max(bounds, default=0):.1f} | "
            f"{statistics.median(float(r['cpu_s']) for r, _ in done) if done else 0:.1f} | "
            f"{sum(o >= 10 for _, o, _ in items)} | "
            f"{statistics.median(s for _, _, s in items):.3f} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
