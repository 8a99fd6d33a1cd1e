"""SE score speed: `rate_many(threads=1, score=True)` puzzles/s, interleaved rounds.

    python bench/se_speed.py                                   # this install, 3 rounds
    python bench/se_speed.py --before /path/to/other/python    # and another, alternating
    python bench/se_speed.py --every 10 --easy 2000 --rounds 5
    python bench/se_speed.py --sets mid --every 20                # SE 5-9 (issue 37's range)

The sets are those of issue 14's speed targets, from
`../shared/data/sudoku_exchange_se_rated.csv`: the puzzles with SE >= 7 (all 9,720, or
every `--every`-th) and the first `--easy` with SE < 4; `--sets mid` takes the
puzzles with 5 <= SE < 9 (every `--every`-th), the range of issue 37's speed goal.
Each measurement is a fresh process that rates the set once after a short warm-up and
reports the CPU time of the call (`time.process_time`, so that a preempted thread on a
shared machine does not count other processes' time) and a digest of every (score,
technique, complete); each round runs every (installation, set) once, alternating, so a
drifting machine affects both alike. The table shows medians over rounds and, with
`--before`, the median of the per-round ratios; the digests of both installations must
agree (same ratings), or the script says so.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CSV = ROOT.parent / "shared" / "data" / "sudoku_exchange_se_rated.csv"
SETS = ("hard", "easy", "mid")


def load(path: Path, which: str, every: int, easy: int) -> list[str]:
    """The SE >= 7 puzzles (every `every`-th), those with 5 <= SE < 9 (every
    `every`-th) or the first `easy` with SE < 4."""
    with path.open(newline="") as f:
        rows = [(row["puzzle"], float(row["se_rating"])) for row in csv.DictReader(f)]
    if which == "hard":
        return [p for p, rating in rows if rating >= 7][::every]
    if which == "mid":
        return [p for p, rating in rows if 5 <= rating < 9][::every]
    return [p for p, rating in rows if rating < 4][:easy]


def worker(path: Path, which: str, every: int, easy: int) -> None:
    """Rate one set once (after a warm-up); print CPU seconds, count and digest as JSON."""
    import sudoku_fast as sf

    puzzles = load(path, which, every, easy)
    sf.rate_many(puzzles[:20], threads=1, score=True)
    start = time.process_time()
    ratings = sf.rate_many(puzzles, threads=1, score=True)
    seconds = time.process_time() - start
    summary = [(r.score, r.score_technique, r.score_complete) for r in ratings]
    digest = hashlib.sha256(json.dumps(summary).encode()).hexdigest()[:16]
    print(json.dumps({"seconds": seconds, "n": len(puzzles), "digest": digest}))


def measure(python: str, args: argparse.Namespace, which: str) -> dict[str, object]:
    command = [
        python, __file__, "--worker", which, "--csv", str(args.csv),
        "--every", str(args.every), "--easy", str(args.easy),
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, check=True, cwd=ROOT)
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--csv", type=Path, default=DEFAULT_CSV)
    parser.add_argument("--every", type=int, default=1, help="take every k-th SE >= 7 puzzle")
    parser.add_argument("--easy", type=int, default=2000, help="SE < 4 puzzles to rate")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--before", help="another installation's python, timed alternately")
    parser.add_argument(
        "--sets", nargs="+", choices=SETS, default=["hard", "easy"], help="which sets to time"
    )
    parser.add_argument("--worker", choices=SETS, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.csv, args.worker, args.every, args.easy)
        return
    if not args.csv.exists():
        sys.exit(f"{args.csv} not found: this benchmark needs the shared SE-rated set")
    builds = [("this", sys.executable)] + ([("before", args.before)] if args.before else [])
    rates: dict[tuple[str, str], list[float]] = {}
    ratios: dict[str, list[float]] = {which: [] for which in args.sets}
    digests: dict[tuple[str, str], set[object]] = {}
    sizes: dict[str, object] = {}
    for round_ in range(args.rounds):
        for which in args.sets:
            seconds = {}
            for label, python in builds if round_ % 2 == 0 else builds[::-1]:
                result = measure(python, args, which)
                seconds[label] = float(str(result["seconds"]))
                sizes[which] = result["n"]
                rates.setdefault((label, which), []).append(int(str(result["n"])) / seconds[label])
                digests.setdefault((label, which), set()).add(result["digest"])
            if args.before:
                ratios[which].append(seconds["before"] / seconds["this"])
    names = {"hard": "SE >= 7", "easy": "SE < 4", "mid": "5 <= SE < 9"}
    print(f"rate_many(threads=1, score=True), CPU time, {args.rounds} interleaved rounds")
    print("| set | puzzles | build | puzzles/s (median) | rounds | after / before |")
    print("|---|---:|---|---:|---|---:|")
    for which in args.sets:
        for label, _ in builds:
            values = rates[(label, which)]
            ratio = ""
            if args.before and label == "this":
                ratio = f"{statistics.median(ratios[which]):.2f}"
            shown = " / ".join(f"{v:,.0f}" for v in values)
            print(
                f"| {names[which]} | {sizes[which]} | {label} | "
                f"{statistics.median(values):,.0f} | {shown} | {ratio} |"
            )
    for which in args.sets:
        seen = set().union(*(digests[(label, which)] for label, _ in builds))
        verdict = "the same ratings" if len(seen) == 1 else "DIFFERENT ratings"
        print(f"{names[which]}: {verdict} in every run (digest {', '.join(map(str, seen))})")


if __name__ == "__main__":
    main()
