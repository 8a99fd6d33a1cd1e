"""The 9x9 engine against native tdoku, set by set, in solve and count (limit 2) mode.

    python bench/vs_tdoku.py [--rounds 5] [--seconds 0.3] [--sample 10000]
        [--tdoku ~/.cache/sudoku_peers/tdoku_native] [--ours PYTHON[=LABEL] ...] [--api]
        [--clock wall|cpu]

Build tdoku first with `../shared/peers/build.sh` (its drivers time only their solver
loop). Every round runs, one after the other, tdoku and each of our builds on every set
and mode, so a burst of load on this shared machine hits all of them alike; the table
gives medians over the rounds of microseconds per puzzle and, per build, the ratio of its
time to tdoku's (> 1 = slower). Ours is timed the same way as tdoku's driver: the engine
alone (`_core.solve_range` over the encoded buffer, one thread), repeated until at least
--seconds of solving time; `--api` times `solve_many` / `count_many(limit=2)` on the list
of strings instead (parsing and result objects included).

`--ours` names the Python interpreter of a build to measure (default: this one); give it
more than once to compare builds (say, a venv of the main branch against this tree) in the
same rounds. Every figure is checked first: each solution by the rules and the clues (code
here, not the package's), counts against tdoku's own counts and the file's counts.

Large sets are cut to their first --sample puzzles.

`--clock cpu` times both sides by the CPU time of the solving thread instead of the wall
clock: on a machine shared with other jobs (more runnable threads than cores) the wall
clock also counts the time a process waits for a core, which lands on whichever side
happens to be descheduled. tdoku's driver is then rebuilt here from the same source and
objects as `--tdoku` (../shared/peers/build.sh leaves them beside it, in obj_<variant>),
with its clock read as the process CPU time; nothing else in it changes.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
# (file, modes): the sets of issue 13's table, hardest first, then the very hard lists.
SETS = [
    ("magictour_top1465.txt", ("solve", "count")),
    ("norvig_top95.txt", ("solve", "count")),
    ("magictour_top2365.txt", ("solve", "count")),
    ("serg_benchmark_multi_solution.csv", ("count",)),
    ("rust_sudoku_crate_hard_with_solutions.csv", ("solve", "count")),
    ("norvig_hardest.txt", ("solve", "count")),
    ("kaggle_bryanpark_10k_with_solutions.csv", ("solve", "count")),
    ("sudoku17_49158.txt", ("solve", "count")),
    ("subig20.txt", ("solve", "count")),
]

# Runs in the interpreter of the build under test: prints {"us": ..., "counts": [...]}.
WORKER = r"""
import json, sys, time
import numpy as np
from sudoku_fast import count_many, solve_many
try:
    from sudoku_fast._engine.isa import core as _core  # the build solve_many runs
    from sudoku_fast._engine.encode import encode_puzzles
except ImportError:  # a build from before the engine moved to its room
    from sudoku_fast.isa import core as _core
    from sudoku_fast.batch import encode_puzzles
path, mode, seconds, api = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4] == "1"
clock = time.thread_time if sys.argv[5] == "cpu" else time.perf_counter
puzzles = [line.strip() for line in open(path) if line.strip()]
n = len(puzzles)
limit = 1 if mode == "solve" else 2
grids = np.frombuffer(bytes(encode_puzzles(puzzles)), dtype=np.uint8)
solutions = np.zeros(81 * n, np.uint8)
counts = np.zeros(n, np.int32)
guesses = np.zeros(n, np.int64)
nodes = np.zeros(n, np.int64)
def engine():
    _core.solve_range(grids, solutions, counts, guesses, nodes, None, 0, n, limit)
def through_api():
    if mode == "solve":
        solve_many(puzzles, threads=1)
    else:
        count_many(puzzles, limit=2, threads=1)
run = through_api if api else engine
engine()
out = {"counts": counts.tolist(), "guesses": int(guesses.sum())}
if mode == "solve":
    out["solutions"] = bytes(solutions + np.uint8(48)).decode()
run()
passes, spent = 0, 0.0
while spent < seconds:
    t0 = clock()
    run()
    spent += clock() - t0
    passes += 1
out["us"] = 1e6 * spent / (passes * n)
print(json.dumps(out))
"""


def load(path: Path, sample: int) -> tuple[list[str], list[int] | None]:
    """The set's puzzles (first `sample`) and its solution counts where the file has them."""
    if path.suffix == ".csv":
        with path.open(newline="") as f:
            rows = list(csv.DictReader(f))[:sample]
        counts = [int(r["num_solutions"]) for r in rows] if "num_solutions" in rows[0] else None
        return [r["puzzle"] for r in rows], counts
    lines = [line.strip() for line in path.read_text().splitlines() if line.strip()]
    return lines[:sample], None


def check(solution: str, puzzle: str) -> bool:
    """Rules and clues, checked here without the package's code."""
    digits = set("123456789")
    for i in range(9):
        r, c = divmod(i, 3)
        if set(solution[9 * i : 9 * i + 9]) != digits or set(solution[i::9]) != digits:
            return False
        if {solution[9 * (3 * r + y) + 3 * c + x] for y in range(3) for x in range(3)} != digits:
            return False
    return all(p in ".0" or p == s for p, s in zip(puzzle, solution, strict=True))


def run_tdoku(tdoku: str, path: str, mode: str, seconds: float, out: str) -> float:
    """tdoku's microseconds per puzzle (its driver's solver loop); writes its answers."""
    text = subprocess.run(
        [tdoku, "-m", mode, "-T", str(seconds), "-q", "-o", out, path],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    total = next(line for line in text.splitlines() if line.startswith("TOTAL"))
    fields = dict(item.split("=", 1) for item in total.split()[1:])
    return float(fields["us_per"])


def cpu_clock_driver(tdoku: str, folder: str) -> str:
    """tdoku's driver rebuilt to read the process CPU time where it reads the clock.

    From the driver's source in ../shared/peers and the solver objects build.sh left
    beside `tdoku` (obj_native for tdoku_native), so the solver is the very same code.
    """
    variant = Path(tdoku).name.removeprefix("tdoku_")
    objects = Path(tdoku).parent / f"obj_{variant}"
    peers = SHARED.parent / "peers"
    header = Path(folder) / "cpu_clock.h"
    header.write_text(
        "#include <time.h>\n#undef CLOCK_MONOTONIC\n"
        "#define CLOCK_MONOTONIC CLOCK_PROCESS_CPUTIME_ID\n"
    )
    out = os.path.join(folder, f"tdoku_{variant}_cpu_clock")
    flags = {"native": ["-march=native"], "avx2": ["-mavx2"], "sse2": ["-msse2"]}.get(variant, [])
    sources = [peers / "tdoku_driver.c", objects / "solver_dpll_triad_simd.o", objects / "util.o"]
    include = peers / "tdoku" / "include"
    command = ["gcc", "-O3", *flags, "-include", str(header), "-I", str(include), "-o", out]
    subprocess.run([*command, *map(str, sources), "-lstdc++", "-lm"], check=True)
    return out


def run_ours(
    python: str, path: str, mode: str, seconds: float, api: bool, clock: str
) -> dict[str, object]:
    """One of our builds: microseconds per puzzle, counts, guesses (and solutions)."""
    text = subprocess.run(
        [python, "-c", WORKER, path, mode, str(seconds), "1" if api else "0", clock],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    result: dict[str, object] = json.loads(text)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=0.3)
    parser.add_argument("--sample", type=int, default=10_000)
    parser.add_argument("--tdoku", default=os.path.expanduser("~/.cache/sudoku_peers/tdoku_native"))
    parser.add_argument("--ours", action="append", help="PYTHON[=LABEL]; repeatable")
    parser.add_argument("--api", action="store_true", help="time solve_many / count_many")
    parser.add_argument("--sets", nargs="*", help="file names under ../shared/data")
    parser.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="time by the wall clock (default) or by the solving thread's CPU time",
    )
    parser.add_argument(
        "--extra",
        action="append",
        default=[],
        help="PATH of another set (one puzzle per line, or CSV with a puzzle column), "
        "timed in solve and count mode; repeatable",
    )
    args = parser.parse_args()
    builds = [[*s.split("=", 1), s][:2] for s in (args.ours or [sys.executable + "=ours"])]
    wanted = [(f, m) for f, m in SETS if not args.sets or f in args.sets]
    wanted += [(os.path.abspath(path), ("solve", "count")) for path in args.extra]
    times: dict[tuple[str, str, str], list[float]] = {}
    guesses: dict[tuple[str, str, str], float] = {}
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        tdoku = args.tdoku if args.clock == "wall" else cpu_clock_driver(args.tdoku, tmp)
        files = {}
        for name, _ in wanted:
            puzzles, counts = load(SHARED / name, args.sample)
            path = os.path.join(tmp, Path(name).name + ".txt")
            Path(path).write_text("\n".join(puzzles) + "\n")
            files[name] = (path, puzzles, counts)
        for _ in range(args.rounds):
            for name, modes in wanted:
                path, puzzles, counts = files[name]
                for mode in modes:
                    answers = os.path.join(tmp, "tdoku.out")
                    key = (name, mode, "tdoku")
                    times.setdefault(key, []).append(
                        run_tdoku(tdoku, path, mode, args.seconds, answers)
                    )
                    lines = Path(answers).read_text().split()
                    t_counts = [int(line.split(":")[0]) for line in lines]
                    for python, label in builds:
                        got = run_ours(python, path, mode, args.seconds, args.api, args.clock)
                        ours = got["counts"]
                        assert isinstance(ours, list)
                        expected = [min(c, 2) for c in counts] if counts else t_counts
                        bad = sum(a != b for a, b in zip(ours, expected, strict=True))
                        if mode == "count":
                            bad += sum(a != b for a, b in zip(ours, t_counts, strict=True))
                        else:
                            text = got["solutions"]
                            assert isinstance(text, str)
                            bad += sum(
                                not check(text[81 * i : 81 * i + 81], p)
                                for i, p in enumerate(puzzles)
                            )
                        if bad:
                            print(f"{label} {name} {mode}: {bad} WRONG", file=sys.stderr)
                        failures += bad
                        times.setdefault((name, mode, label), []).append(float(got["us"]))  # type: ignore[arg-type]
                        guesses[(name, mode, label)] = float(got["guesses"]) / len(puzzles)  # type: ignore[arg-type]
    labels = [label for _, label in builds]
    what = "solve_many / count_many(limit=2), list of str" if args.api else "engine only"
    clock = "wall clock" if args.clock == "wall" else "CPU time of the solving thread"
    print(
        f"threads=1, medians of {args.rounds} interleaved rounds, us/puzzle ({clock}); ours: {what}"
    )
    print()
    head = "| data set | mode | puzzles | tdoku us |"
    head += "".join(f" {b} us | {b} guesses | {b}/tdoku |" for b in labels)
    print(head)
    print("|" + "---|" * (4 + 3 * len(labels)))
    for name, modes in wanted:
        for mode in modes:
            t = statistics.median(times[(name, mode, "tdoku")])
            row = f"| {Path(name).stem} | {mode} | {len(files[name][1])} | {t:.2f} |"
            for b in labels:
                ours = statistics.median(times[(name, mode, b)])
                row += f" {ours:.2f} | {guesses[(name, mode, b)]:.2f} | {ours / t:.2f} |"
            print(row)
    print()
    print("all results verified" if not failures else f"{failures} WRONG RESULTS")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
