"""CPU per puzzle: Sukaku Explainer's rater against `rate(score=True)`, same machine, same hour.

What it measures. The 250 puzzles of bench/data/serate_random.csv (50 bank puzzles per SE
band 5-9) are rated by Sukaku Explainer 1.18.1 in one JVM, pass after pass (pass 1 cold,
the later ones JIT-warm), and, between SE's passes, by this package with one thread:

* per band, ``rate_many(band, threads=1, score=True)``, process CPU time
  (``time.process_time``), ``--rounds`` rounds after each SE pass;
* per puzzle, ``rate(puzzle, score=True)``, process CPU time of each call, once after each
  SE pass.

SE's side is bench/SeTimer.java: it runs the loop of SE's ``serate`` command (Grid,
adjustPencilmarks, Solver, rebuildPotentialValues, getDifficulty; serate's defaults, one
thread) and records per puzzle the rating and the rating thread's CPU nanoseconds
(``ThreadMXBean.getCurrentThreadCpuTime``; ``serate``'s own ``%e`` is wall time in 10 ms
steps), the JVM's process CPU (every thread: JIT compilers, GC; 10 ms steps) and the wall
time. Both programs are pinned to one core (``--cpu``, taskset for the JVM, which also gets
``-XX:ActiveProcessorCount=1``), and the JVM runs under ``/usr/bin/time -v``.

The table gives, per SE band, SE's warm CPU per puzzle (median and mean over the band, from
the last pass), ours (median per puzzle, and the band's rate_many CPU divided by its size,
median over the rounds after SE's warm passes) and the ratios; then how often our score
equals SE's rating.

Building Sukaku Explainer 1.18.1 (public sources, tag v1.18.1 of
SudokuMonster/SukakuExplainer, commit 362854e) with Debian's OpenJDK 17::

    git --git-dir=SukakuExplainer/.git archive v1.18.1 | tar x -C se/src
    find se/src/diuf -name '*.java' > se/sources.txt
    javac -nowarn -encoding ISO-8859-1 -d se/classes @se/sources.txt
    (cd se/src && find diuf -type f ! -name '*.java' -exec cp --parents {} ../classes \\;)
    javac -cp se/classes -d se/timer bench/SeTimer.java

Measuring (writes SE's timings CSV, then prints the table)::

    python bench/serate_speed.py --se-classpath se/classes:se/timer \\
        --timings se/timings.csv --passes 3 --rounds 5 --cpu 1

Reporting again from a timings CSV (runs ours only; bench/data/serate_speed_timings.csv is
the run of bench/README.md, "Sukaku Explainer's CPU per puzzle against ours")::

    python bench/serate_speed.py --timings bench/data/serate_speed_timings.csv --cpu 1

The same ratings from SE's own command line (wall time, 10 ms steps), for comparison::

    taskset -c 1 /usr/bin/time -v java -XX:ActiveProcessorCount=1 -cp se/classes \\
        diuf.sudoku.test.serate --threads=1 --format='%n,%r,%e' --input=puzzles.txt
"""

from __future__ import annotations

import argparse
import csv
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

import sudoku_fast as sf

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_PUZZLES = ROOT / "bench" / "data" / "serate_random.csv"


def band_of(se: float) -> int:
    """SE's band: the integer part of its rating."""
    return int(se)


def load_puzzles(path: Path) -> list[tuple[str, float]]:
    """(puzzle, SE rating of the reference file) for every row of `path`."""
    with path.open(newline="") as f:
        return [(row["puzzle"], float(row["se"])) for row in csv.DictReader(f)]


class OurTimes:
    """Our CPU seconds: per band (one entry per round) and per puzzle (one per round)."""

    def __init__(self) -> None:
        self.band: dict[int, list[float]] = defaultdict(list)
        self.puzzle: dict[str, list[float]] = defaultdict(list)
        self.score: dict[str, float | None] = {}
        self.loads: list[float] = []


def rate_ours(bands: dict[int, list[str]], rounds: int, into: OurTimes) -> None:
    """`rounds` rounds of rate_many per band, then one rate() per puzzle, all CPU-timed."""
    into.loads.append(os.getloadavg()[0])
    for _ in range(rounds):
        for band, puzzles in sorted(bands.items()):
            start = time.process_time()
            sf.rate_many(puzzles, threads=1, score=True)
            into.band[band].append(time.process_time() - start)
    for puzzles in bands.values():
        for puzzle in puzzles:
            start = time.process_time()
            rating = sf.rate(puzzle, score=True)
            into.puzzle[puzzle].append(time.process_time() - start)
            into.score[puzzle] = rating.score


def drive_se(
    classpath: str,
    puzzles: list[str],
    timings: Path,
    passes: int,
    cpu: int | None,
    between: list[str],
    after_pass: Callable[[int], None],
) -> None:
    """Start SeTimer in one JVM and ask for `passes` passes, calling `after_pass` after each."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("".join(p + "\n" for p in puzzles))
        puzzle_file = f.name
    command = ["java", "-XX:ActiveProcessorCount=1", "-cp", classpath, "SeTimer"]
    command += [puzzle_file, str(timings)]
    time_log = timings.with_suffix(".time.txt")
    command = ["/usr/bin/time", "-v", "-o", str(time_log), *command]
    if cpu is not None:
        command = ["taskset", "-c", str(cpu), *command]
    print("SE:", shlex.join(command), file=sys.stderr)
    with subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) as jvm:
        assert jvm.stdin is not None and jvm.stdout is not None
        for n in range(1, passes + 1):
            jvm.stdin.write(f"pass {n}\n")
            jvm.stdin.flush()
            answer = jvm.stdout.readline().strip()
            line = f"{answer} (thread CPU s, process CPU s, wall s) load {os.getloadavg()[0]:.2f}"
            between.append(line)
            print("SE", line, file=sys.stderr)
            after_pass(n)
        jvm.stdin.write("quit\n")
        jvm.stdin.flush()
    os.unlink(puzzle_file)


def read_timings(path: Path) -> dict[int, list[dict[str, str]]]:
    """SeTimer's rows, by pass."""
    by_pass: dict[int, list[dict[str, str]]] = defaultdict(list)
    with path.open(newline="") as f:
        for row in csv.DictReader(f):
            by_pass[int(row["pass"])].append(row)
    return by_pass


def report(se_rows: list[dict[str, str]], ours: OurTimes, reference: dict[str, float]) -> None:
    """Print the per-band table (milliseconds per puzzle) and the agreement of the ratings."""
    by_band: dict[int, list[dict[str, str]]] = defaultdict(list)
    for row in se_rows:
        by_band[band_of(reference[row["puzzle"]])].append(row)
    print(
        "| SE band | puzzles | SE ms/puzzle median (mean) | SE JVM ms/puzzle (mean) |"
        " ours ms/puzzle median (mean) | ours rate_many ms/puzzle | ratio of medians |"
        " ratio of totals | JVM ratio of totals |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    all_se: list[float] = []
    all_ours: list[float] = []
    all_many = 0.0
    all_jvm: list[float] = []
    for band in sorted(by_band):
        rows = by_band[band]
        se_ms = [int(r["thread_cpu_ns"]) / 1e6 for r in rows]
        jvm_ms = [int(r["process_cpu_ns"]) / 1e6 for r in rows]
        all_jvm += jvm_ms
        ours_ms = [1e3 * statistics.median(ours.puzzle[r["puzzle"]]) for r in rows]
        many_ms = 1e3 * statistics.median(ours.band[band]) / len(rows)
        all_se += se_ms
        all_ours += ours_ms
        all_many += many_ms * len(rows)
        print(
            f"| {band} | {len(rows)} | {statistics.median(se_ms):.1f} "
            f"({statistics.fmean(se_ms):.1f}) | {statistics.fmean(jvm_ms):.1f} | "
            f"{statistics.median(ours_ms):.3f} "
            f"({statistics.fmean(ours_ms):.3f}) | {many_ms:.3f} | "
            f"{statistics.median(se_ms) / statistics.median(ours_ms):.0f}x | "
            f"{sum(se_ms) / (many_ms * len(rows)):.0f}x | "
            f"{sum(jvm_ms) / (many_ms * len(rows)):.0f}x |"
        )
    print(
        f"| all | {len(all_se)} | {statistics.median(all_se):.1f} "
        f"({statistics.fmean(all_se):.1f}) | {statistics.fmean(all_jvm):.1f} | "
        f"{statistics.median(all_ours):.3f} "
        f"({statistics.fmean(all_ours):.3f}) | {all_many / len(all_se):.3f} | "
        f"{statistics.median(all_se) / statistics.median(all_ours):.0f}x | "
        f"{sum(all_se) / all_many:.0f}x | {sum(all_jvm) / all_many:.0f}x |"
    )
    per_puzzle = [
        int(r["thread_cpu_ns"]) / 1e9 / statistics.median(ours.puzzle[r["puzzle"]]) for r in se_rows
    ]
    print(
        f"\nper-puzzle ratio SE/ours: median {statistics.median(per_puzzle):.0f}x, "
        f"min {min(per_puzzle):.0f}x, max {max(per_puzzle):.0f}x; "
        f"puzzles at >= 1000x: {sum(x >= 1000 for x in per_puzzle)} of {len(per_puzzle)}"
    )
    # |ours - SE| per puzzle (None: no complete score of ours)
    gaps: list[float | None] = []
    for r in se_rows:
        ours_score = ours.score[r["puzzle"]]
        gaps.append(None if ours_score is None else abs(float(r["se"]) - ours_score))
        if gaps[-1] is None or gaps[-1] >= 0.05:  # the disagreements, for the record
            print(f"  SE {r['se']} ({r['technique']}), ours {ours_score}: {r['puzzle']}")
    same = sum(g is not None and g < 0.05 for g in gaps)
    near = sum(g is not None and g <= 0.5 + 1e-9 for g in gaps)
    moved = sum(abs(float(r["se"]) - reference[r["puzzle"]]) >= 0.05 for r in se_rows)
    print(
        f"our score = SE's rating: {same} of {len(se_rows)}; within 0.5: {near}; "
        f"SE's rating differs from the reference file's: {moved}"
    )


def main(argv: list[str] | None = None) -> int:
    """Run the measurement (or only ours, with an existing timings CSV) and print the table."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--puzzles", type=Path, default=DEFAULT_PUZZLES, help="CSV with puzzle, se")
    ap.add_argument("--timings", type=Path, required=True, help="SeTimer's CSV (written or read)")
    ap.add_argument("--se-classpath", help="SE's classes and SeTimer's: run SE (else only read)")
    ap.add_argument("--passes", type=int, default=3, help="SE passes in the one JVM")
    ap.add_argument("--rounds", type=int, default=5, help="our rate_many rounds per SE pass")
    ap.add_argument("--cpu", type=int, default=None, help="pin both programs to this core")
    args = ap.parse_args(argv)

    rows = load_puzzles(args.puzzles)
    reference = dict(rows)
    bands: dict[int, list[str]] = defaultdict(list)
    for puzzle, se in rows:
        bands[band_of(se)].append(puzzle)
    if args.cpu is not None:
        os.sched_setaffinity(0, {args.cpu})
    sf.rate_many([p for p, _ in rows[:20]], threads=1, score=True)  # tables, first calls

    windows: dict[int, OurTimes] = defaultdict(OurTimes)
    se_lines: list[str] = []
    if args.se_classpath:
        if args.timings.exists():
            args.timings.unlink()

        def after_pass(n: int) -> None:
            rate_ours(bands, args.rounds, windows[n])

        drive_se(
            args.se_classpath,
            [p for p, _ in rows],
            args.timings,
            args.passes,
            args.cpu,
            se_lines,
            after_pass,
        )
    else:
        rate_ours(bands, args.rounds, windows[0])

    by_pass = read_timings(args.timings)
    last = max(by_pass)  # the only pass reported when there is no warm one
    # ours after SE's warm passes (pass 1 is the cold JVM; its window counts as well if
    # there is no other)
    warm = [w for n, w in windows.items() if n >= 2] or list(windows.values())
    ours = OurTimes()
    for w in warm:
        for band, times in w.band.items():
            ours.band[band] += times
        for puzzle, times in w.puzzle.items():
            ours.puzzle[puzzle] += times
        ours.score.update(w.score)
        ours.loads += w.loads
    for line in se_lines:
        print("SE pass", line)
    time_log = args.timings.with_suffix(".time.txt")
    if time_log.exists():  # the whole JVM, all passes, from /usr/bin/time -v
        for line in time_log.read_text().splitlines():
            if "time (seconds)" in line or "Elapsed" in line or "Maximum resident" in line:
                print("SE JVM:", line.strip())
    for n in sorted(by_pass):
        cpu = sum(int(r["thread_cpu_ns"]) for r in by_pass[n]) / 1e9
        wall = sum(int(r["wall_ns"]) for r in by_pass[n]) / 1e9
        print(f"SE pass {n}: {len(by_pass[n])} puzzles, thread CPU {cpu:.2f} s, wall {wall:.2f} s")
    print(
        f"ours: {len(ours.band[min(ours.band)])} rate_many rounds per band, "
        f"{len(next(iter(ours.puzzle.values())))} rate() per puzzle; "
        f"1-min load average at each of our windows: " + ", ".join(f"{x:.2f}" for x in ours.loads)
    )
    for n in sorted(by_pass):
        if n >= 2 or n == last:
            print(f"\nSE pass {n}{' (JIT-warm)' if n >= 2 else ''} against ours:\n")
            report(by_pass[n], ours, reference)
    return 0


if __name__ == "__main__":
    sys.exit(main())
