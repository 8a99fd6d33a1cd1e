"""Rating throughput: `rate_many` puzzles/s at threads=1 and threads=2, interleaved rounds.

    python bench/rate_throughput.py                      # this install, 5 rounds
    python bench/rate_throughput.py --before /tmp/venv-before/bin/python --sample 300

Each round times every (set, threads) once, in one process per measurement, so a
drifting shared machine affects both thread counts alike; the table shows medians over
the rounds and the median of the per-round threads=2 / threads=1 ratios. Every run's
ratings are checked against the first run's (level, hardest technique, counts). A
measurement rates the set `--repeat` times in a row (default: enough for about a
second at one thread), so that short runs are not all pool start-up and noise.

Each round also measures the machine's own ceiling for the same work: two separate
processes rating the set with threads=1 at the same time, against one alone ("2 procs"
row, its ratio in the t2/t1 column). Two threads cannot beat two processes, so this is
the bound to read the threads=2 ratio against on a shared machine.

`--before PYTHON` also times another installation (an older version, say) on the first
`--sample` puzzles of each set, alternating with this one in every round, and checks
that both rate those puzzles alike.
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
SHARED = ROOT.parent / "shared" / "data"
SETS = {
    "magictour_top1465": ("embedded", "magictour_top1465"),
    "kaggle_10k": ("csv", "kaggle_bryanpark_10k_with_solutions.csv"),
}
REPEATS = {"magictour_top1465": 2, "kaggle_10k": 8}


def load(name: str) -> list[str]:
    """The puzzles of a set: embedded in the package, or a CSV of ../shared/data."""
    kind, source = SETS[name]
    if kind == "embedded":
        from sudoku_fast.datasets import load_embedded

        return load_embedded(source)
    path = SHARED / source
    if not path.exists():
        path = ROOT / "tests" / "data" / "kaggle_bryanpark_sample500_with_solutions.csv"
    with path.open(newline="") as f:
        return [row["puzzle"] for row in csv.DictReader(f)]


def worker(name: str, threads: int, sample: int, repeat: int) -> None:
    """Time `repeat` rate_many calls; print seconds per call and a digest as JSON."""
    import sudoku_fast as sf

    puzzles = load(name)
    if sample:
        puzzles = puzzles[:sample]
    # Warm-up on the whole set: tables, thread pool, and the memory the batch uses, so
    # that the timed calls measure rating rather than first-touch page faults.
    sf.rate_many(puzzles, threads=threads)
    start = time.perf_counter()
    for _ in range(repeat):
        ratings = sf.rate_many(puzzles, threads=threads)
    seconds = (time.perf_counter() - start) / repeat
    summary = [(r.level, r.hardest, sorted(r.counts.items())) for r in ratings]
    digest = hashlib.sha256(json.dumps(summary).encode()).hexdigest()[:16]
    print(json.dumps({"seconds": seconds, "n": len(puzzles), "digest": digest}))


def _command(python: str, name: str, threads: int, sample: int) -> list[str]:
    repeat = 1 if sample else REPEATS[name]
    return [python, __file__, "--worker", name, str(threads), str(sample), str(repeat)]


def measure(python: str, name: str, threads: int, sample: int) -> dict[str, float | str]:
    """One measurement in a fresh interpreter."""
    out = subprocess.run(
        _command(python, name, threads, sample), check=True, capture_output=True, text=True
    ).stdout
    result: dict[str, float | str] = json.loads(out.strip().splitlines()[-1])
    return result


def measure_two_processes(name: str) -> dict[str, float | str]:
    """Two threads=1 measurements in two processes at once: seconds per call of the pair
    counted as twice the puzzles (the slower process sets the time)."""
    procs = [
        subprocess.Popen(_command(sys.executable, name, 1, 0), stdout=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    results = [json.loads(p.communicate()[0].strip().splitlines()[-1]) for p in procs]
    if any(p.returncode for p in procs):
        raise SystemExit("a worker failed")
    seconds = max(float(r["seconds"]) for r in results)
    return {"seconds": seconds, "n": 2 * int(results[0]["n"]), "digest": results[0]["digest"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--before", help="python of another installation to compare")
    parser.add_argument("--sample", type=int, default=300, help="puzzles per set for --before")
    parser.add_argument("--sets", nargs="+", default=list(SETS), choices=list(SETS))
    parser.add_argument("--worker", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker[0], int(args.worker[1]), int(args.worker[2]), int(args.worker[3]))
        return
    runs: list[tuple[str, str, int, int]] = []  # (label, set, threads, sample)
    for name in args.sets:
        for threads in (1, 2):
            runs.append(("this", name, threads, 0))
            if threads == 2:
                runs.append(("2 procs", name, threads, 0))
            if args.before:
                runs.append(("this", name, threads, args.sample))
                runs.append(("before", name, threads, args.sample))
    times: dict[tuple[str, str, int, int], list[float]] = {run: [] for run in runs}
    digests: dict[tuple[str, int], set[str]] = {}
    sizes: dict[tuple[str, str, int, int], int] = {}
    for _ in range(args.rounds):
        for run in runs:
            label, name, threads, sample = run
            python = args.before if label == "before" else sys.executable
            if label == "2 procs":
                result = measure_two_processes(name)
            else:
                result = measure(python, name, threads, sample)
            times[run].append(float(result["seconds"]))
            sizes[run] = int(result["n"])
            digests.setdefault((name, sample), set()).add(str(result["digest"]))
    print(f"python {sys.version.split()[0]}, {args.rounds} interleaved rounds, medians")
    header = f"{'version':<8}{'set':<19}{'puzzles':>8}{'threads':>8}{'puzzles/s':>12}{'t2/t1':>7}"
    print(header)
    print("-" * len(header))
    for run in runs:
        label, name, threads, sample = run
        rate = sizes[run] / statistics.median(times[run])
        ratio = ""
        if threads == 2:
            single = ("this" if label == "2 procs" else label, name, 1, sample)
            share = sizes[run] / sizes[single]  # 2 for the two-process row
            ratios = (share * a / b for a, b in zip(times[single], times[run], strict=True))
            ratio = f"{statistics.median(ratios):.2f}"
        print(f"{label:<8}{name:<19}{sizes[run]:>8}{threads:>8}{rate:>12,.0f}{ratio:>7}")
    if args.before:
        for name in args.sets:
            this = statistics.median(times[("this", name, 1, args.sample)])
            before = statistics.median(times[("before", name, 1, args.sample)])
            speedup = before / this
            print(f"{name}: this / before at threads=1 on {args.sample} puzzles: {speedup:,.0f}x")
    same = all(len(d) == 1 for d in digests.values())
    print("ratings identical across runs" + (" and versions" if args.before else "") + f": {same}")
    if not same:
        sys.exit(1)


if __name__ == "__main__":
    main()
