"""Compare this package's SE score with Sukaku Explainer's on a reference file.

Reads a reference CSV of bench/data (Sukaku Explainer's ratings; columns ``puzzle``,
``se``, ``status``), rates every puzzle SE finished with ``rate_many(score=True)`` and prints,
per SE band (the integer part of SE's rating), the number of puzzles, the share rated
exactly as SE does, the share within 0.5, the mean error (ours - SE) and the mean
absolute error; then the puzzles off by more than 0.5 (with ``--list``), and, with
``--timing``, SE's CPU seconds per puzzle per band against ours.

    python bench/serate_compare.py bench/data/serate_random.csv --timing
    python bench/serate_compare.py bench/data/serate_*.csv --se-range 8.5-9.3 --list
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


def band_of(se: float) -> str:
    if se >= 10:
        return "10+"
    return str(int(se))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "reference", type=Path, nargs="+", help="reference CSVs (bench/data/serate_*.csv)"
    )
    ap.add_argument("--list", action="store_true", help="list the puzzles off by > --over")
    ap.add_argument("--over", type=float, default=0.5, help="--list threshold (0 for all misses)")
    ap.add_argument("--timing", action="store_true", help="SE vs package CPU seconds")
    ap.add_argument("--budget", type=int, default=None, help="score_budget for rate_many")
    ap.add_argument("--where", help="only rows with COLUMN=VALUE (e.g. pass=2)")
    ap.add_argument("--se-range", help="only rows SE rates LO-HI, both included (e.g. 8.5-9.3)")
    ap.add_argument(
        "--by-technique",
        action="store_true",
        help="also a table per SE hardest technique (its name without the suffix)",
    )
    args = ap.parse_args(argv)
    column, _, value = (args.where or "").partition("=")
    rows: list[dict[str, str]] = []
    seen: set[str] = set()  # a puzzle counts once (several files, or passes of one)
    for reference in args.reference:
        with reference.open(newline="") as f:
            for r in csv.DictReader(f):
                if args.where and r.get(column) != value:
                    continue
                if r["status"] == "ok" and r["se"] and r["puzzle"] not in seen:
                    seen.add(r["puzzle"])
                    rows.append(r)
    if args.se_range:
        low, _, high = args.se_range.partition("-")
        rows = [r for r in rows if float(low) - 1e-9 <= float(r["se"]) <= float(high) + 1e-9]
    puzzles = [r["puzzle"] for r in rows]
    kwargs = {} if args.budget is None else {"score_budget": args.budget}
    ours = sf.rate_many(puzzles, threads=1, score=True, **kwargs)
    per: dict[str, list[tuple[dict[str, str], float, float]]] = defaultdict(list)
    for r, x in zip(rows, ours, strict=True):
        se = float(r["se"])
        per[band_of(se)].append((r, se, float(x.score)))
        per["all"].append((r, se, float(x.score)))
    names = " ".join(str(r) for r in args.reference)
    print(f"{names}: {len(rows)} puzzles SE finished, package {sf.__version__}")
    print()
    print("| SE band | puzzles | exact | within 0.5 | mean error | mean abs error |")
    print("|---|---:|---:|---:|---:|---:|")
    order = sorted((k for k in per if k != "all"), key=lambda k: float(k.rstrip("+")))
    for band in [*order, "all"]:
        items = per[band]
        n = len(items)
        exact = sum(abs(o - s) < 0.05 for _, s, o in items)
        near = sum(abs(o - s) <= 0.5 + 1e-9 for _, s, o in items)
        err = [o - s for _, s, o in items]
        print(
            f"| {band} | {n} | {100 * exact / n:.1f}% | {100 * near / n:.1f}% | "
            f"{statistics.fmean(err):+.2f} | {statistics.fmean(abs(e) for e in err):.2f} |"
        )
    if args.by_technique:
        groups: dict[str, list[tuple[float, float]]] = defaultdict(list)
        for r, se, o in per["all"]:
            name = r["technique"]
            head, _, tail = name.rpartition(" ")
            groups[head if tail.isdigit() else name].append((se, o))
        print()
        print("| SE hardest technique | puzzles | SE range | exact | within 0.5 | mean error |")
        print("|---|---:|---|---:|---:|---:|")
        for name, items in sorted(groups.items(), key=lambda kv: min(s for s, _ in kv[1])):
            n = len(items)
            lo, hi = min(s for s, _ in items), max(s for s, _ in items)
            exact = sum(abs(o - s) < 0.05 for s, o in items)
            near = sum(abs(o - s) <= 0.5 + 1e-9 for s, o in items)
            err = statistics.fmean(o - s for s, o in items)
            print(
                f"| {name} | {n} | {lo:.1f}-{hi:.1f} | {100 * exact / n:.0f}% | "
                f"{100 * near / n:.0f}% | {err:+.2f} |"
            )
    if args.list:
        print()
        for r, x in zip(rows, ours, strict=True):
            se = float(r["se"])
            if abs(x.score - se) > args.over + 1e-9:
                print(
                    f"{r['index']} {r['puzzle']} SE {se} ({r['technique']}) "
                    f"ours {x.score} ({x.score_technique})"
                )
    if args.timing:
        print()
        print(
            "| SE band | puzzles | SE CPU s/puzzle (median) | SE mean "
            "| package CPU/puzzle (median of 3) | ratio of means |"
        )
        print("|---|---:|---:|---:|---:|---:|")
        for band in [*order, "all"]:
            items = per[band]
            ps = [r["puzzle"] for r, _, _ in items]
            rounds = []
            for _ in range(3):
                t0 = time.process_time()
                sf.rate_many(ps, threads=1, score=True, **kwargs)
                rounds.append((time.process_time() - t0) / len(ps))
            ours_s = statistics.median(rounds)
            se_cpu = [float(r["cpu_s"]) for r, _, _ in items]
            mean = statistics.fmean(se_cpu)
            print(
                f"| {band} | {len(ps)} | {statistics.median(se_cpu):.3f} | {mean:.3f} | "
                f"{ours_s * 1000:.2f} ms | {mean / ours_s:.0f}x |"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
