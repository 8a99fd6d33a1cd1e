"""Canonical forms: `canonical_many` beside `solve_many` on the same grids, per build and
thread count, in interleaved rounds; the dedup count.

    python bench/canonical.py                                  # this build, 5 rounds
    python bench/canonical.py --build /work/venvs/old/bin/python=before \\
        --build .venv/bin/python=after --rounds 5 --sample-full 1000
    python bench/canonical.py --sizes --build ... --rounds 3   # the other sizes

Sets (from ../shared/data): `kaggle` (the 10,000 puzzles of
kaggle_bryanpark_10k_with_solutions.csv), `17` (sudoku17_49158.txt, 49,158 puzzles) and
`full` (the 10,000 solution grids of the kaggle file: full grids, what a dataset of
puzzle+solution pairs deduplicates). `--sample-full N` (and `--sample N` for the
puzzle sets) times the first N only, for builds where the whole set takes minutes.

Each measurement runs in a fresh process of the build's interpreter (`--build
PYTHON[=LABEL]`, repeatable; default this one): it imports the package, warms up on 200
grids, then times one call over the set and prints the seconds (wall and this
process's CPU time) and an MD5 of the forms. A round runs every set, every call
(`canonical_many` and `solve_many` on the same puzzles, each at threads=1 and
threads=2) and, inside that, every build one after the other, so a burst of load on this
shared machine hits all builds alike. The tables show medians over the rounds; the
threads=2 / threads=1 figure is the median of the per-round ratios of wall times. Every
build's forms must be the same (their MD5s are compared).

Per-grid figures are microseconds of CPU time at threads=1 (`time.process_time`: the
time the process ran on a core, the figure to quote on a busy machine); "x solve" is
that time over solve_many's on the same puzzles, measured in the same round.

On this shared machine two threads seldom find two free cores: the kernel's autogroup
scheduling gives each login session a fair share of the CPUs, whatever its number of
threads, so a loaded machine shows no speed-up for any code (the last column:
solve_many, measured beside). Two columns say what the code allows: the share of the
threads=1 call's CPU time spent inside `_canon.canonical_range` with the GIL released
(timed with `time.thread_time` around each call), and the speed-up two threads could
reach if that share split evenly and the rest (encoding, making the strings, Python)
did not: 1 / (share / 2 + 1 - share).

`--sizes` times the other sizes instead, 4x4 to 25x25, on the puzzle files of
../shared/data (the first --sample-sizes of each, default 100) and on their solution
grids (solve_many's answers; the file's own solutions for the 16x16 goomii set):
`canonical_many(threads=1)` with the default budget of search steps, CPU time per grid,
and how many grids ran out of it.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import subprocess
import sys
from pathlib import Path

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
KAGGLE = SHARED / "kaggle_bryanpark_10k_with_solutions.csv"
SEVENTEEN = SHARED / "sudoku17_49158.txt"
SAMPLE_17 = Path(__file__).resolve().parent.parent / "tests" / "data" / "sudoku17_sample.txt"

# Runs in the interpreter of the build under test: prints one JSON line.
WORKER = r"""
import csv, hashlib, json, sys, time
import sudoku_fast as sf
path, column, count, call, threads = sys.argv[1:6]
count, threads = int(count), int(threads)
if column:
    with open(path, newline="") as f:
        grids = [row[column] for row in csv.DictReader(f)]
else:
    grids = [line.strip() for line in open(path) if line.strip()]
if count:
    grids = grids[:count]
run = sf.canonical_many if call == "canonical" else sf.solve_many
run(grids[:200], threads=threads)  # warm-up: imports, thread pool, caches
# The CPU time spent inside the compiled search, GIL released (canonical_many at
# threads=1): the rest of the call runs with the GIL held, and bounds two threads.
engine = [0.0]
if call == "canonical" and threads == 1:
    try:  # where the compiled search is called from; before the layout, the front
        import sudoku_fast._symmetry.canon as front
    except ImportError:
        import sudoku_fast.symmetry as front
    search = front._canon.canonical_range
    def timed(*args):
        start = time.thread_time()
        search(*args)
        engine[0] += time.thread_time() - start
    front._canon.canonical_range = timed
cpu, wall = time.process_time(), time.perf_counter()
out = run(grids, threads=threads)
wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
digest = hashlib.md5("\n".join(s or "" for s in out).encode()).hexdigest()
extra = {"distinct": len(set(out))} if call == "canonical" else {}
result = {"n": len(grids), "wall": wall, "cpu": cpu, "engine": engine[0], "md5": digest}
print(json.dumps({**result, **extra}))
"""

# Runs in the interpreter of the build under test (--sizes): one JSON line per call.
SIZES_WORKER = r"""
import csv, hashlib, json, sys, time
import sudoku_fast as sf
path, rows, cols, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
box = (rows, cols)
if path.endswith(".csv"):
    with open(path, newline="") as f:
        records = list(csv.DictReader(f))[:count]
    puzzles = [r["puzzle"] for r in records]
    given = [r.get("solution") or "" for r in records]
else:
    puzzles = [line.strip() for line in open(path) if line.strip()][:count]
    given = [""] * len(puzzles)
solved = sf.solve_many(puzzles, box=box, threads=1)
full = [g or s for g, s in zip(given, solved) if g or s]
out = {}
for name, grids in (("puzzles", puzzles), ("full", full)):
    cpu = time.process_time()
    try:
        forms = sf.canonical_many(grids, box=box, threads=1)
        over = 0
    except sf.SearchLimitExceeded as err:
        forms, over = err.partial, len(err.indices)
    cpu = time.process_time() - cpu
    digest = hashlib.md5("\n".join(f or "-" for f in forms).encode()).hexdigest()
    out[name] = {"n": len(grids), "cpu": cpu, "over": over, "md5": digest}
print(json.dumps(out))
"""

SIZE_SETS = [
    ("sudoku4_sat_assignment_100.txt", (2, 2)),
    ("sudoku6_2x3.csv", (2, 3)),
    ("sudoku8_2x4.csv", (2, 4)),
    ("sudoku10_2x5.csv", (2, 5)),
    ("sudoku12_3x4.csv", (3, 4)),
    ("sudoku15_3x5.csv", (3, 5)),
    ("sudoku16_goomii_1000_with_solutions.csv", (4, 4)),
    ("sudoku16_misc.csv", (4, 4)),
    ("sudoku25_misc.csv", (5, 5)),
]


def sizes(builds: list[list[str]], rounds: int, count: int) -> None:
    """The --sizes table: per set and build, puzzles and full grids."""
    results: dict[tuple[str, str], list[dict[str, dict[str, float]]]] = {}
    for _ in range(rounds):
        for name, (rows, cols) in SIZE_SETS:
            for python, label in builds:
                got = subprocess.run(
                    [
                        python,
                        "-c",
                        SIZES_WORKER,
                        str(SHARED / name),
                        str(rows),
                        str(cols),
                        str(count),
                    ],
                    capture_output=True,
                    text=True,
                    check=True,
                )
                results.setdefault((name, label), []).append(json.loads(got.stdout))
    print(
        f"{rounds} interleaved rounds, canonical_many(threads=1), default max_nodes; "
        "us per grid (CPU), medians"
    )
    print(
        "| set | box | build | puzzles | us/puzzle | over budget | full grids "
        "| us/grid | over budget |"
    )
    print("|---|---|---|---:|---:|---:|---:|---:|---:|")
    for name, (rows, cols) in SIZE_SETS:
        for _, label in builds:
            runs = results[(name, label)]
            cells = []
            for kind in ("puzzles", "full"):
                first = runs[0][kind]
                per = statistics.median(r[kind]["cpu"] / max(1, r[kind]["n"]) * 1e6 for r in runs)
                cells += [f"{int(first['n'])}", f"{per:,.1f}", f"{int(first['over'])}"]
            print(f"| {name} | {rows}x{cols} | {label} | " + " | ".join(cells) + " |")


# (set, file, CSV column or "" for a text file, the puzzles solve_many gets)
SETS = {
    "kaggle": (KAGGLE, "puzzle"),
    "17": (SEVENTEEN, ""),
    "full": (KAGGLE, "solution"),
}
# What is timed per set: (call, threads).
CALLS = [("canonical", 1), ("canonical", 2), ("solve", 1), ("solve", 2)]


def measure(python: str, name: str, count: int, call: str, threads: int) -> dict[str, float]:
    """One timed call in a fresh process of `python`."""
    path, column = SETS[name]
    if name == "full" and call == "solve":
        column = "puzzle"  # solve_many on the puzzles whose solutions these grids are
    if not path.exists() and name == "17":
        path = SAMPLE_17
    result = subprocess.run(
        [python, "-c", WORKER, str(path), column, str(count), call, str(threads)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(result.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> None:
    """Run the rounds and print one table per set."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", action="append", help="PYTHON[=LABEL]; repeatable")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--sets", default="kaggle,17,full", help="comma-separated")
    parser.add_argument("--sample", type=int, default=0, help="first N puzzles (0 = all)")
    parser.add_argument("--sample-full", type=int, default=0, help="first N full grids")
    parser.add_argument("--sizes", action="store_true", help="the other sizes instead")
    parser.add_argument("--sample-sizes", type=int, default=100, help="first N per size set")
    args = parser.parse_args()
    builds = [[*s.split("=", 1), s][:2] for s in (args.build or [sys.executable + "=this"])]
    if args.sizes:
        sizes(builds, args.rounds, args.sample_sizes)
        return
    sets = args.sets.split(",")
    results: dict[tuple[str, str, str, int], list[dict[str, float]]] = {}
    for _ in range(args.rounds):
        for name in sets:
            count = args.sample_full if name == "full" else args.sample
            for call, threads in CALLS:
                for python, label in builds:
                    got = measure(python, name, count, call, threads)
                    results.setdefault((name, label, call, threads), []).append(got)
    print(f"{args.rounds} interleaved rounds; {platform.machine()}, {platform.python_version()}")
    for name in sets:
        digests = {
            r["md5"]
            for (s, _, call, _), rs in results.items()
            if s == name and call == "canonical"
            for r in rs
        }
        same = "identical" if len(digests) == 1 else f"DIFFER ({len(digests)} MD5s)"
        first = results[(name, builds[0][1], "canonical", 1)][0]
        print(
            f"\n{name}: {int(first['n']):,} grids, forms of every build and run {same}; "
            f"{int(first['n'] - first['distinct']):,} equivalent to an earlier one"
        )
        print(
            "| build | canonical us/grid (t=1, CPU) | solve us/puzzle | x solve "
            "| canonical t=1 wall s | t=2 wall s | t=2 / t=1 speed-up "
            "| GIL released | bound for t=2 | solve t=2 / t=1 |"
        )
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for _, label in builds:
            one = results[(name, label, "canonical", 1)]
            two = results[(name, label, "canonical", 2)]
            solve = results[(name, label, "solve", 1)]
            solve_two = results[(name, label, "solve", 2)]
            per = statistics.median(r["cpu"] / r["n"] * 1e6 for r in one)
            solve_per = statistics.median(r["cpu"] / r["n"] * 1e6 for r in solve)
            ratio = statistics.median(r["cpu"] / s["cpu"] for r, s in zip(one, solve, strict=True))
            speedup = statistics.median(
                a["wall"] / b["wall"] for a, b in zip(one, two, strict=True)
            )
            solve_speedup = statistics.median(
                a["wall"] / b["wall"] for a, b in zip(solve, solve_two, strict=True)
            )
            # The share of the threads=1 CPU time spent with the GIL released, and what
            # two threads could reach if that part split evenly and nothing else did.
            share = statistics.median(r["engine"] / r["cpu"] for r in one)
            bound = 1 / (share / 2 + (1 - share))
            print(
                f"| {label} | {per:,.2f} | {solve_per:,.2f} | {ratio:,.1f}x "
                f"| {statistics.median(r['wall'] for r in one):.3f} "
                f"| {statistics.median(r['wall'] for r in two):.3f} | {speedup:.2f}x "
                f"| {share:.1%} | {bound:.2f}x | {solve_speedup:.2f}x |"
            )


if __name__ == "__main__":
    main()
