"""What one call of the solving API costs beside its puzzles, build against build.

    python bench/call_cost.py [--rounds 7] [--seconds 0.2]
        [--ours PYTHON[=LABEL] ...]

Times `solve_many` / `count_many(limit=2)` on short lists of plain strings (1, 11 and 20
puzzles: one easy puzzle, norvig_hardest, the first 20 of kaggle_bryanpark_10k), with
threads=1 (what `vs_tdoku.py --api` calls) and the default threads, and `solve` /
`count_solutions` on one puzzle. The rules rows do the same under variant rules (`rules=`
with a `Rules` object) on puzzles that cost the engine little, so that the call's own
cost shows: the solution of a generated puzzle (`generate_many`, seed 2026) with its
first 30 cells emptied; one X, one jigsaw and one killer grid, and a list of 20 X grids
each with its own `Rules` object. They are made in this process and handed to every
build, so all builds time the same puzzles. Each case is
called over and over for --seconds of the calling thread's CPU time (`time.thread_time`,
so time spent waiting for a core on this shared machine is not counted); the table
gives microseconds per call, medians of --rounds rounds, each round running every build
in turn, and each build's time over the first build's. Every build's answers are
checked against the first build's.

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
import tempfile
from pathlib import Path

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "data"

# Runs in the interpreter of the build under test: prints {case: [us per call, answer]}.
WORKER = r"""
import csv, json, sys, time
import sudoku_fast as sf
hardest_path, kaggle_path, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
variants = json.loads(open(sys.argv[4]).read())
made = {k: [(p, sf.Rules.from_json(r)) for p, r in v] for k, v in variants.items()}
(xp, xr), (jp, jr), (kp, kr) = made["x"][0], made["jigsaw"][0], made["killer"][0]
x20 = [p for p, _ in made["x"]]
x20_rules = [r for _, r in made["x"]]
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
    "solve, 1 X grid, rules": lambda: sf.solve(xp, rules=xr),
    "count_solutions, 1 X grid, rules": lambda: sf.count_solutions(xp, rules=xr),
    "solve, 1 jigsaw grid, rules": lambda: sf.solve(jp, rules=jr),
    "count_solutions, 1 killer grid, rules": lambda: sf.count_solutions(kp, rules=kr),
    "solve_many, 1 X grid, rules, threads=1": lambda: sf.solve_many([xp], rules=xr, threads=1),
    "count_many, 20 X, own Rules each, threads=1": (
        lambda: sf.count_many(x20, rules=x20_rules, threads=1)
    ),
    "solve_many, 20 X, own Rules each, threads=1": (
        lambda: sf.solve_many(x20, rules=x20_rules, threads=1)
    ),
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


def made_variants() -> dict[str, list[tuple[str, object]]]:
    """Seeded variant grids, as (grid, rules JSON): 20 X, one jigsaw, one killer."""
    import sudoku_fast as sf

    counts = {"x": 20, "jigsaw": 1, "killer": 1}
    made: dict[str, list[tuple[str, object]]] = {}
    for kind, n in counts.items():
        made[kind] = []
        for puzzle, rules in sf.generate_many(n, rules=kind, seed=2026):
            solution = sf.solve(puzzle, rules=rules)
            assert solution is not None
            made[kind].append(("." * 30 + solution[30:], rules.to_json()))
    return made


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
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as variants:
        json.dump(made_variants(), variants)
    times: dict[tuple[str, str], list[float]] = {}
    answers: dict[str, object] = {}
    wrong = 0
    for _ in range(args.rounds):
        for python, label in builds:
            text = subprocess.run(
                [python, "-c", WORKER, str(hardest), str(kaggle), str(args.seconds), variants.name],
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            for case, (us, answer) in json.loads(text).items():
                times.setdefault((case, label), []).append(us)
                if answers.setdefault(case, answer) != answer:
                    print(f"{label} {case}: answer differs from the first build's", file=sys.stderr)
                    wrong += 1
    Path(variants.name).unlink()
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
