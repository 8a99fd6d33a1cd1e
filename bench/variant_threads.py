"""threads=2 against threads=1 for `count_many` under variant rules, on published puzzles.

    python bench/variant_threads.py DATA_DIR [--rounds 7] [--repeat-to N ...]
                                    [--ours PYTHON[=LABEL] ...] [--threads T ...]

DATA_DIR holds the published sets as `bench/variant_blind.py` reads them (not in the
repository). The 9x9 puzzles of x.jsonl (first 570), jigsaw.jsonl (first 500) and
killer.jsonl (first 60) are repeated to about N puzzles for each N of `--repeat-to`
(default 2000; give `--repeat-to 2000 20000` for both batch sizes), each puzzle with its
own `Rules` object read from its JSON, as a user reading the file would (and the X
puzzles once more with one `Rules` for the whole batch, row "X, one Rules": the
machine's own ceiling for a batch with next to no serial share). The objects are
made anew (outside the timer) before every timed call, so nothing a call learns about
them stays on them for the next one; only what the library keeps per rule set (a
checked record) carries over, as it would in a process that has seen those rules.
Each round times `count_many(puzzles, rules=..., threads=T)` for T = 1 and 2 (or the
thread counts of `--threads`, 1 always among them), the order rotated one step each
round (wall clock; every count must be 1). The figure is the ratio of the medians,
threads=1 time / threads=T time.

Beside it, the serial share s of a threads=1 call: the CPU time of the call outside the
compiled chunks (`solve_range`, wrapped for this count only, in rounds of their own),
over the CPU time of the whole call. Amdahl's law then caps threads=2 at 2 / (1 + s).

`--ours` names the Python interpreter of a build (default: this one); give it more than
once to compare builds (say a venv of main against this tree): every round runs each
build in turn, in a process of its own.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

# Runs in the interpreter of the build under test: one round, printed as JSON
# {set: {"1": seconds, "2": seconds, "serial": share, "n": puzzles}}.
WORKER = r"""
import json, sys, time
from pathlib import Path
import sudoku_fast as sf
from sudoku_fast._variants import run as variant_run

data, turn, target = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
counts_of_threads = [int(t) for t in sys.argv[4].split(",")]

def nines(name, cap):
    lines = (data / name).read_text().splitlines()
    return [r for r in map(json.loads, filter(str.strip, lines)) if r["size"] == 9][:cap]

sets = {"X": nines("x.jsonl", 570), "jigsaw": nines("jigsaw.jsonl", 500),
        "killer": nines("killer.jsonl", 60)}
# The X puzzles again under one `Rules` object for the whole batch (their rules are
# equal): next to nothing to read per puzzle, so this row shows what the machine gives
# a batch whose serial share is near zero.
sets["X, one Rules"] = sets["X"]
engine = variant_run._variant
compiled = engine.solve_range
inside = [0.0]

def timed_range(*args, **kwargs):
    started = time.thread_time()
    try:
        return compiled(*args, **kwargs)
    finally:
        inside[0] += time.thread_time() - started

out = {}
for name, records in sets.items():
    times = max(1, target // len(records))
    puzzles = [r["puzzle"] for r in records] * times
    documents = [r["rules"] for r in records] * times
    if name == "X, one Rules":
        assert len({sf.Rules.from_json(d) for d in documents}) == 1, name
        fresh = lambda: sf.Rules.from_json(documents[0])
    else:
        fresh = lambda: [sf.Rules.from_json(d) for d in documents]
    # warm: the pool, the records, the pages
    sf.count_many(puzzles, rules=fresh(), threads=max(counts_of_threads))
    row = {"n": len(puzzles)}
    # Each round starts the rotation of the thread counts one further along.
    shift = turn % len(counts_of_threads)
    for threads in counts_of_threads[shift:] + counts_of_threads[:shift]:
        rules = fresh()
        started = time.perf_counter()
        counts = sf.count_many(puzzles, rules=rules, threads=threads)
        row[str(threads)] = time.perf_counter() - started
        assert counts == [1] * len(puzzles), name
    engine.solve_range = timed_range
    try:
        shares = []
        for _ in range(3):
            rules = fresh()
            inside[0] = 0.0
            started = time.thread_time()
            sf.count_many(puzzles, rules=rules, threads=1)
            spent = time.thread_time() - started
            shares.append((spent - inside[0]) / spent)
        row["serial"] = sorted(shares)[1]
    finally:
        engine.solve_range = compiled
    out[name] = row
print(json.dumps(out))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("data", type=Path, help="folder of the published sets (*.jsonl)")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument(
        "--repeat-to", type=int, nargs="+", default=[2000], metavar="N",
        help="batch sizes: each set repeated to about N puzzles (default 2000)",
    )  # fmt: skip
    parser.add_argument("--ours", action="append", help="PYTHON[=LABEL]; repeatable")
    parser.add_argument(
        "--threads", type=int, nargs="+", default=[1, 2], metavar="T",
        help="thread counts to time (default 1 2; 1 is always timed)",
    )  # fmt: skip
    args = parser.parse_args()
    counts = sorted({1, *args.threads})
    builds = [[*s.split("=", 1), s][:2] for s in (args.ours or [sys.executable + "=ours"])]
    rows: dict[tuple[str, int, str], list[dict[str, float]]] = {}
    loads = []
    for k in range(args.rounds):
        for python, label in builds if k % 2 == 0 else builds[::-1]:
            for target in args.repeat_to:
                text = subprocess.run(
                    [
                        python,
                        "-c",
                        WORKER,
                        str(args.data),
                        str(k),
                        str(target),
                        ",".join(map(str, counts)),
                    ],
                    check=True,
                    capture_output=True,
                    text=True,
                ).stdout
                for name, row in json.loads(text).items():
                    rows.setdefault((name, target, label), []).append(row)
        loads.append(os.getloadavg()[0])
    print(
        f"{args.rounds} rounds, {os.cpu_count()} cpus, load average (1 min) after each round "
        f"{min(loads):.1f} to {max(loads):.1f}, median {statistics.median(loads):.1f}"
    )
    print()
    more = [t for t in counts if t > 1]
    print(
        "| set | build | puzzles | threads=1 ms | "
        + "".join(f"threads={t} ms | {t} / 1 | " for t in more)
        + "serial share s | Amdahl 2/(1+s) |"
    )
    print("|---|---|---:|---:|" + "---:|---:|" * len(more) + "---:|---:|")
    labels = [label for _, label in builds]
    cases = list(dict.fromkeys((name, target) for name, target, _ in rows))
    for (name, target), label in ((case, label) for case in cases for label in labels):
        got = rows[(name, target, label)]
        one = statistics.median(r["1"] for r in got)
        cells = ""
        for t in more:
            spent = statistics.median(r[str(t)] for r in got)
            cells += f"{spent * 1e3:.1f} | {one / spent:.2f}x | "
        share = statistics.median(r["serial"] for r in got)
        print(
            f"| {name} | {label} | {got[0]['n']:.0f} | {one * 1e3:.1f} | {cells}"
            f"{share:.3f} | {2 / (1 + share):.2f}x |"
        )


if __name__ == "__main__":
    main()
