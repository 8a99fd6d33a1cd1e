"""What one call of the solving API costs beside its puzzles, build against build.

    python bench/call_cost.py [--rounds 7] [--seconds 0.2]
        [--ours PYTHON[=LABEL] ...]

Times `solve_many` / `count_many(limit=2)` on short lists of plain strings (1, 11 and 20
puzzles: one easy puzzle, norvig_hardest, the first 20 of kaggle_bryanpark_10k), with
threads=1 (what `vs_tdoku.py --api` calls) and the default threads, and `solve` /
`count_solutions` on one puzzle. Each case is called over and over for --seconds of the
calling thread's CPU time (`time.thread_time`, so time spent waiting for a core on this
shared machine is not counted); the table gives microseconds per call, medians of
--rounds rounds, each round running every build in turn, and each build's time over the
first build's. Every build's answers are checked against the first build's.

`--ours` names the Python interpreter of a build (default: this one); give it more than
once to compare builds, say a venv of main against this tree.
"""

from __future__ import annotations

import argparse
import csv
import json
import statistics
import subprocess
import sys
from pathlib import Path

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "data"

# Runs in the interpreter of the build under test: prints {case: [us per call, answer]}.
WORKER = r"""
import csv, json, sys, time
import sudoku_fast as sf
hardest_path, kaggle_path, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
hardest = [line.strip() for line in open(hardest_path) if line.strip()]
with open(kaggle_path, newline="") as f:
    kaggle = [row["puzzle"] for row in csv.DictReader(f)][:20]
one = kaggle[:1]
cases = {
    "solve_many, 1 puzzle, threads=1": lambda: sf.solve_many(one, threads=1),
    "solve_many, 1 puzzle, threads=None": lambda: sf.solve_many(one),
    "count_many, 1 puzzle, threads=1": lambda: sf.count_many(one, 2, threads=1),
    "count_many, 1 puzzle, threads=None": lambda: sf.count_many(one, 2),
    "solve_many, 20 kaggle, threads=1": lambda: sf.solve_many(kaggle, threads=1),
    "count_many, 20 kaggle, threads=1": lambda: sf.count_many(kaggle, 2, threads=1),
    "solve_many, 20 kaggle, threads=None": lambda: sf.solve_many(kaggle),
    "solve_many, 11 norvig_hardest, threads=1": lambda: sf.solve_many(hardest, threads=1),
    "count_many, 11 norvig_hardest, threads=1": lambda: sf.count_many(hardest, 2, threads=1),
    "solve, 1 puzzle": lambda: sf.solve(one[0]),
    "count_solutions, 1 puzzle": lambda: sf.count_solutions(one[0]),
}
out = {}
for name, call in cases.items():
    answer = call()
    calls, spent = 0, 0.0
    while spent < seconds:
        t0 = time.thread_time()
        for _ in range(50):
            call()
        spent += time.thread_time() - t0
        calls += 50
    out[name] = [1e6 * spent / calls, answer]
print(json.dumps(out))
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seconds", type=float, default=0.2)
    parser.add_argument("--ours", action="append", help="PYTHON[=LABEL]; repeatable")
    args = parser.parse_args()
    builds = [[*s.split("=", 1), s][:2] for s in (args.ours or [sys.executable + "=ours"])]
    hardest = SHARED / "norvig_hardest.txt"
    kaggle = SHARED / "kaggle_bryanpark_10k_with_solutions.csv"
    with kaggle.open(newline="") as f:
        next(csv.reader(f))  # the file is there and has a header
    times: dict[tuple[str, str], list[float]] = {}
    answers: dict[str, object] = {}
    wrong = 0
    for _ in range(args.rounds):
        for python, label in builds:
            text = subprocess.run(
                [python, "-c", WORKER, str(hardest), str(kaggle), str(args.seconds)],
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            for case, (us, answer) in json.loads(text).items():
                times.setdefault((case, label), []).append(us)
                if answers.setdefault(case, answer) != answer:
                    print(f"{label} {case}: answer differs from the first build's", file=sys.stderr)
                    wrong += 1
    labels = [label for _, label in builds]
    cases = list(dict.fromkeys(case for case, _ in times))
    print(f"us per call (CPU time of the calling thread), medians of {args.rounds} rounds")
    print()
    head = "| call |" + "".join(f" {b} us |" for b in labels)
    head += "".join(f" {b}/{labels[0]} |" for b in labels[1:])
    print(head)
    print("|---|" + "---:|" * (2 * len(labels) - 1))
    for case in cases:
        medians = [statistics.median(times[(case, b)]) for b in labels]
        row = f"| {case} |" + "".join(f" {m:.2f} |" for m in medians)
        row += "".join(f" {m / medians[0]:.2f} |" for m in medians[1:])
        print(row)
    print()
    print("same answers in every build" if not wrong else f"{wrong} DIFFERENT ANSWERS")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
