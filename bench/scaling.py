"""Thread scaling of `solve_many`: threads=2 (or --threads) against threads=1, interleaved.

    python bench/scaling.py                       # sudoku17_49158 and magictour_top1465
    python bench/scaling.py FILE ... --rounds 9 --threads 2 [4 8 16] [--no-processes]

On a shared machine the speed of a core drifts by tens of percent within minutes, so
timing all threads=1 runs first and all threads=2 runs afterwards can make the ratio say
anything. Here every round times threads=1 and then threads=N back to back on the same
puzzles (each sample at least --min-seconds, the file repeated as needed); the ratio of
each round is taken, and the median over rounds is reported beside the ratio of the
median rates. Every solution of every run is checked against the rules.

Beside the ratio, in the same rounds:

* the machine's own ceiling: N separate processes each running `solve_many(threads=1)`
  at the same moment, their summed rate over one such process alone. Threads cannot beat
  it; the gap between the two is what the fan-out costs.
* the share of wall time spent holding the GIL (list input, strings out; with --numpy
  an (n, 81) uint8 array in and out), which bounds
  the speed-up at any thread count (Amdahl: at most 1 / share). It is measured on every
  threads=N pass: each batch runs on a `_core.BatchRun`, which stamps on the engine's
  monotonic clock when its first worker entered the engine (after the call into it)
  and when the caller's own part (the lead, which returns once every helper that
  entered the engine has left it) left it; the wall time of the call is read on that
  clock too. Serial time = the wall time of the call outside that span (parsing,
  buffers, pool hand-off, handing the strings over), plus, for each of the N workers,
  the cost of an empty worker call (it holds the GIL too, helpers partly after the
  call has returned). Nothing else runs then, so this is the serial fraction; it also
  takes in the first block of puzzles the caller's thread reads from the list before
  any thread can solve (`Fanout.first_block_ns`). The rest of that thread's GIL-held
  work (reading the list, making the result strings: `Fanout.lead_ns`) happens inside
  the span, while the helpers solve without the GIL: GIL-held, but beside the solving
  rather than in series with it. Both are reported, and their sum, the whole GIL-held
  share. The previous pass's result is freed before a pass is timed: that is the
  caller's cost. (Builds from before BatchRun are measured the same way, with each
  worker's `solve_batch` call stamped from Python.)
* the pool's costs: starting a thread pool and running one task on it (what a call
  would pay without the shared pool), and waking the warm shared pool for an empty
  fan-out over N threads (what every call pays).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import time
from array import array
from pathlib import Path
from typing import Any

from throughput import load

import sudoku_fast as sf
from sudoku_fast._engine import run as batch  # the engine run, whose _core is stood in for

try:
    from sudoku_fast._parallel import pool
except ImportError:  # a build from before the pool module (run for a before/after)
    pool = None  # type: ignore[assignment]

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
DEFAULT_FILES = [DATA / "sudoku17_49158.txt", DATA / "magictour_top1465.txt"]


# The clock of the engine's stamps (BatchRun), which the wall time of a call is read on
# too; builds from before BatchRun are stamped here, on Python's clock.
clock = getattr(batch._core, "now_ns", time.perf_counter_ns)


class Recorder:
    """Stands in for the engine module in _engine/run.py, to find the solving span of each call.

    A batch runs on a `BatchRun`, which stamps when its first worker entered the engine
    and when the lead (the caller's thread) left it; the lead returns once every helper
    that entered the engine has left it, while helpers may return to the pool later,
    when the caller next lets go of the GIL (a helper of one pass may even enter after
    that pass, and claim nothing). Builds from before BatchRun made one `solve_batch`
    call per worker: the calls are stamped here instead, on entry and at the lead's exit.
    """

    def __init__(self, module: Any) -> None:
        self.module = module
        self.runs: list[Any] = []  # the BatchRun of each batch
        self.entries: list[tuple[int, Any]] = []  # (entry time, the call's Fanout)
        self.lead_exits: list[tuple[int, Any]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.module, name)

    def clear(self) -> None:
        """Forget the batches seen so far."""
        self.runs.clear()
        self.entries.clear()
        self.lead_exits.clear()

    def BatchRun(self, *args: Any) -> Any:  # the engine class it stands in for
        run = self.module.BatchRun(*args)
        self.runs.append(run)
        return run

    def solve_batch(self, *args: Any) -> None:
        fanout = args[10] if len(args) > 10 else None
        lead = len(args) > 11 and bool(args[11])
        self.entries.append((clock(), fanout))
        self.module.solve_batch(*args)
        if lead:
            self.lead_exits.append((clock(), fanout))

    def solving_span(self) -> tuple[int, Any]:
        """Nanoseconds from the first entry of the last pass's batch to its lead's exit,
        and that batch's Fanout."""
        if self.runs:
            run = self.runs[-1]
            return run.lead_exit_ns - run.first_entry_ns, run.fanout
        end, fanout = self.lead_exits[-1]
        begin = min(start for start, entry in self.entries if entry is fanout)
        return end - begin, fanout


def empty_call_ns() -> float:
    """Median cost of a worker's call with nothing to solve (GIL held throughout)."""
    core = batch._core
    times = []
    if hasattr(core, "BatchRun"):
        run = core.BatchRun(bytearray(0), None, 0, 16, 1, 0, False)
        run.lead()  # helpers leave at once from here on
        for _ in range(201):
            start = clock()
            run.helper()
            times.append(clock() - start)
        return statistics.median(times)
    buffers = (bytearray(81), bytearray(81), array("i", [0]), array("q", [0]), array("q", [0]))
    for _ in range(201):
        cursor = array("q", [1])
        start = clock()
        core.solve_batch(*buffers, cursor, 1, 16, 1, bytearray(1))
        times.append(clock() - start)
    return statistics.median(times)


def rate(
    puzzles: Any, threads: int, min_seconds: float, empty_ns: float
) -> tuple[float, float, float]:
    """Puzzles/s of solve_many over whole passes taking at least `min_seconds` together,
    and the median shares of each pass's wall time spent holding the GIL: serially (no
    thread solving) and beside the solving (reading the list, making the strings)."""
    recorder = Recorder(batch._core)
    batch._core = recorder
    shares = []
    making = []
    done = 0
    solutions: Any = None
    start = time.perf_counter()
    try:
        while True:
            recorder.clear()
            solutions = None  # the previous result is freed here, not in the timed call
            t0 = clock()
            solutions = sf.solve_many(puzzles, threads=threads)
            wall = clock() - t0
            solving, fanout = recorder.solving_span()
            first, lead = fanout.first_block_ns, fanout.lead_ns
            shares.append((wall - solving + threads * empty_ns + first) / wall)
            making.append((lead - first) / wall)
            done += len(puzzles)
            elapsed = time.perf_counter() - start
            if elapsed >= min_seconds:
                break
    finally:
        batch._core = recorder.module
    if not isinstance(puzzles, list):  # a numpy array: rows of digits in and out
        puzzles = ["".join(map(str, row)) for row in puzzles.tolist()]
        solutions = ["".join(map(str, row)) for row in solutions.tolist()]
    for puzzle, solution in zip(puzzles, solutions, strict=True):
        if solution is None or not sf.is_solution(solution, puzzle):
            raise SystemExit(f"wrong or missing solution for {puzzle}")
    return done / elapsed, statistics.median(shares), statistics.median(making)


def process_rate(path: Path, begin_at: float, min_seconds: float) -> None:
    """Runs in a child process: wait for `begin_at` (time.time()), then print puzzles/s
    of solve_many(threads=1) over passes taking at least `min_seconds`."""
    puzzles = load(path)[0]
    sf.solve_many(puzzles[:1000], threads=1)  # warm-up
    time.sleep(max(0.0, begin_at - time.time()))
    done = 0
    start = time.perf_counter()
    while time.perf_counter() - start < min_seconds:
        sf.solve_many(puzzles, threads=1)
        done += len(puzzles)
    print(done / (time.perf_counter() - start))


def processes_rate(path: Path, count: int, min_seconds: float) -> float:
    """Summed puzzles/s of `count` processes solving the file at the same moment."""
    begin_at = time.time() + 1.5  # room for every process to start and load
    args = [sys.executable, __file__, "--child", str(begin_at), str(min_seconds), str(path)]
    procs = [subprocess.Popen(args, stdout=subprocess.PIPE, text=True) for _ in range(count)]
    total = 0.0
    for proc in procs:
        out, _ = proc.communicate()
        if proc.returncode != 0:
            raise SystemExit(f"child process failed: {args}")
        total += float(out.strip())
    return total


def pool_costs(threads: int) -> tuple[float, float]:
    """Median microseconds: a new pool running one task; an empty fan-out on the warm pool."""
    start_up = []
    for _ in range(21):
        t0 = time.perf_counter_ns()
        if pool is None:
            from concurrent.futures import ThreadPoolExecutor

            executor = ThreadPoolExecutor(max_workers=1)
            executor.submit(int).result()
            executor.shutdown(wait=True)
        else:  # what a call asking for more threads than cores pays
            workers = pool.WorkerPool()
            workers.grow(1)
            workers.submit(lambda: None).wait()
            workers.shutdown()
        start_up.append(time.perf_counter_ns() - t0)
    wake_up = []
    batch.run_workers(threads, lambda: None)  # the shared pool exists from here on
    for _ in range(201):
        t0 = time.perf_counter_ns()
        batch.run_workers(threads, lambda: None)
        wake_up.append(time.perf_counter_ns() - t0)
    return statistics.median(start_up) / 1000, statistics.median(wake_up) / 1000


def gil_shares(rounds: list[tuple[float, float]]) -> str:
    """Median over rounds of the serial share, the share beside the solving, and their sum."""
    serial = statistics.median(r[0] for r in rounds)
    beside = statistics.median(r[1] for r in rounds)
    whole = statistics.median(r[0] + r[1] for r in rounds)
    return f"{100 * serial:.2f}% + {100 * beside:.2f}% = {100 * whole:.2f}%"


def main() -> None:
    """Parse the command line and print the table (or run as a child process)."""
    if sys.argv[1:2] == ["--child"]:
        process_rate(Path(sys.argv[4]), float(sys.argv[2]), float(sys.argv[3]))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path, default=DEFAULT_FILES)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument(
        "--threads",
        type=int,
        nargs="+",
        default=[2],
        help="thread counts to compare with threads=1 (several: one row each, a curve)",
    )
    parser.add_argument("--min-seconds", type=float, default=0.5)
    parser.add_argument(
        "--no-processes", action="store_true", help="skip the separate-processes ceiling"
    )
    parser.add_argument(
        "--numpy",
        action="store_true",
        help="pass an (n, 81) uint8 array instead of a list of strings (array out)",
    )
    args = parser.parse_args()
    empty_ns = empty_call_ns()
    print(
        f"sudoku_fast {sf.__version__} ({sf.engine_info().variant} build), "
        f"Python {platform.python_version()}, {os.cpu_count()} cores, {platform.machine()}; "
        f"{args.rounds} interleaved rounds; input: "
        f"{'numpy uint8 array' if args.numpy else 'list of strings'}"
    )
    for n in args.threads:
        start_up, wake_up = pool_costs(n)
        print(
            f"pool: a new pool running one task {start_up:.0f} us; an empty fan-out over {n} "
            f"threads on the warm shared pool {wake_up:.0f} us; an empty worker call "
            f"{empty_ns / 1000:.1f} us"
        )
    print(
        "| data set | puzzles | threads=1 puzzles/s | threads=N | threads=N puzzles/s "
        "| ratio of medians | median of round ratios | round ratios min-max "
        "| N processes / 1 (ceiling) | GIL-held share, threads=N: serial + beside "
        "the solving = whole | threads=1: serial + the caller's list and strings |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for path in args.files:
        puzzles: Any = load(path)[0]
        if args.numpy:
            import numpy as np

            digits = "".join(puzzles).replace(".", "0").encode("ascii")
            puzzles = (np.frombuffer(digits, np.uint8) - ord("0")).reshape(-1, 81)
        for n in args.threads:
            sf.solve_many(puzzles[:1000], threads=n)  # warm-up: pool, caches
        serial: list[float] = []
        serial_shares: list[tuple[float, float]] = []
        parallel: dict[int, list[float]] = {n: [] for n in args.threads}
        ratios: dict[int, list[float]] = {n: [] for n in args.threads}
        ceilings: dict[int, list[float]] = {n: [] for n in args.threads}
        shares: dict[int, list[tuple[float, float]]] = {n: [] for n in args.threads}
        for _ in range(args.rounds):
            one, *share_one = rate(puzzles, 1, args.min_seconds, empty_ns)
            serial.append(one)
            serial_shares.append((share_one[0], share_one[1]))
            alone = 0.0 if args.no_processes else processes_rate(path, 1, args.min_seconds)
            for n in args.threads:
                many, *share = rate(puzzles, n, args.min_seconds, empty_ns)
                parallel[n].append(many)
                ratios[n].append(many / one)
                shares[n].append((share[0], share[1]))
                if not args.no_processes:
                    ceilings[n].append(processes_rate(path, n, args.min_seconds) / alone)
        one_median = statistics.median(serial)
        for n in args.threads:
            many_median = statistics.median(parallel[n])
            ceiling = f"{statistics.median(ceilings[n]):.2f}" if ceilings[n] else "-"
            print(
                f"| {path.stem} | {len(puzzles)} | {one_median:,.0f} | {n} | {many_median:,.0f} "
                f"| {many_median / one_median:.2f} | {statistics.median(ratios[n]):.2f} "
                f"| {min(ratios[n]):.2f}-{max(ratios[n]):.2f} | {ceiling} "
                f"| {gil_shares(shares[n])} | {gil_shares(serial_shares)} |",
                flush=True,
            )
    print("all results verified")


if __name__ == "__main__":
    main()
