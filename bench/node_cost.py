"""Instructions per puzzle of the 9x9 engine (valgrind callgrind), set by set, per build.

    python bench/node_cost.py [--ours PYTHON[=LABEL] ...] [--isa NAME] [--sets FILE ...]
        [--modes solve count] [--sample 2000]

Each build (default: this interpreter's) solves every set once, engine only
(`solve_range` of the build the dispatch chose, one thread, like bench/vs_tdoku.py),
under `valgrind --tool=callgrind` counting only inside `solve_range`; the table gives
instructions per puzzle, guesses per puzzle, and instructions per search node. Counts
are repeatable on a shared machine where wall time is not; they are not cycles (a
mispredicted branch or a slow instruction costs more than one), so compare them beside
the timings of bench/vs_tdoku.py.

`--isa` sets SUDOKU_FAST_ISA for every build (valgrind runs no AVX-512 instruction and
its CPU reports none, so the automatic choice under it is at most avx2).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
HARD_SETS = [
    "rust_sudoku_crate_hard_with_solutions.csv",
    "norvig_top95.txt",
    "magictour_top1465.txt",
    "serg_benchmark_multi_solution.csv",
]

# Runs in the build's interpreter under valgrind: prints "guesses nodes".
WORKER = r"""
import sys
import numpy as np
try:
    from sudoku_fast._engine.isa import core
    from sudoku_fast._engine.encode import encode_puzzles
except ImportError:  # a build from before the engine moved to its room
    from sudoku_fast.isa import core
    from sudoku_fast.batch import encode_puzzles
path, limit = sys.argv[1], int(sys.argv[2])
puzzles = [line.strip() for line in open(path) if line.strip()]
n = len(puzzles)
grids = np.frombuffer(bytes(encode_puzzles(puzzles)), dtype=np.uint8)
solutions = np.zeros(81 * n, np.uint8)
counts = np.zeros(n, np.int32)
guesses = np.zeros(n, np.int64)
nodes = np.zeros(n, np.int64)
core.solve_range(grids, solutions, counts, guesses, nodes, None, 0, n, limit)
print(int(guesses.sum()), int(nodes.sum()), int(counts.sum()))
"""


def puzzles_of(path: Path, sample: int) -> list[str]:
    """The first `sample` puzzles of a set (the first field of a CSV's rows)."""
    rows = [line.split(",")[0].strip() for line in path.read_text().splitlines()]
    return [r for r in rows if len(r) == 81][:sample]


def measure(python: str, path: str, limit: int, isa: str | None) -> tuple[int, int, int, int]:
    """(instructions in solve_range, guesses, nodes, solutions counted) of one run."""
    env = dict(os.environ)
    if isa:
        env["SUDOKU_FAST_ISA"] = isa
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                "--trace-children=yes",  # through a wrapper script that sets the build's path
                f"--callgrind-out-file={tmp}/callgrind.%p",
                "--toggle-collect=*solve_range*",
                python,
                "-c",
                WORKER,
                path,
                str(limit),
            ],
            check=True,
            capture_output=True,
            text=True,
            env=env,
        )
        instructions = 0
        for out in Path(tmp).glob("callgrind.*"):
            match = re.search(r"^(?:summary|totals): (\d+)", out.read_text(), re.MULTILINE)
            instructions += int(match.group(1)) if match else 0
    assert instructions, "no instruction total in callgrind's output"
    guesses, nodes, counted = map(int, done.stdout.split())
    return instructions, guesses, nodes, counted


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ours", action="append", help="PYTHON[=LABEL]; repeatable")
    parser.add_argument("--isa", help="SUDOKU_FAST_ISA for every build")
    parser.add_argument("--sets", nargs="*", default=HARD_SETS)
    parser.add_argument("--modes", nargs="*", default=["solve", "count"])
    parser.add_argument("--sample", type=int, default=2000)
    args = parser.parse_args()
    builds = [[*s.split("=", 1), s][:2] for s in (args.ours or [sys.executable + "=ours"])]
    labels = [label for _, label in builds]
    print(f"callgrind, instructions inside solve_range, one thread; SUDOKU_FAST_ISA={args.isa}")
    print()
    head = "| data set | puzzles | mode |"
    head += "".join(f" {b} instr/puzzle | {b} guesses | {b} instr/node |" for b in labels)
    if len(labels) > 1:
        head += "".join(f" {b}/{labels[0]} |" for b in labels[1:])
    print(head)
    print("|" + "---|" * (3 + 3 * len(labels) + max(0, len(labels) - 1)))
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.sets:
            puzzles = puzzles_of(SHARED / name, args.sample)
            path = os.path.join(tmp, Path(name).stem + ".txt")
            Path(path).write_text("\n".join(puzzles) + "\n")
            for mode in args.modes:
                limit = 1 if mode == "solve" else 2
                row = f"| {Path(name).stem} | {len(puzzles)} | {mode} |"
                first = 0.0
                ratios = ""
                counted = set()
                for python, _ in builds:
                    instr, guesses, nodes, total = measure(python, path, limit, args.isa)
                    counted.add(total)
                    per = instr / len(puzzles)
                    row += f" {per:,.0f} | {guesses / len(puzzles):.2f} | {instr / nodes:,.0f} |"
                    if not first:
                        first = per
                    else:
                        ratios += f" {per / first:.3f} |"
                if len(counted) > 1:
                    row += " SOLUTION COUNTS DIFFER"
                print(row + ratios, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
