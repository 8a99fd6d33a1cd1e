"""Throughput of sudoku_fast on public puzzle sets, beside reference figures and peers.

    python bench/throughput.py [FILES] [--repeat 3] [--live] [--peers] [--peer-seconds 2]

For every data set: puzzles/s and us/puzzle of the public batch API (`solve_many` for
solve mode, `count_many(limit=2)` for count mode, strings in, strings out: parsing and
result objects included), with threads=1 and threads=all (medians of --repeat samples of
at least 0.3 s each),
plus % solved without guessing and guesses/puzzle from the engine. Every run is verified:
each solution is checked cell by cell against the rules and the clues (and against the
given solution where the file has one); counts against the file's counts (or 1).

Beside each single-thread rate: the anchor figures measured on this machine (AMD EPYC,
2 cores) for native tdoku and for sudoku-solver-rs, one call per puzzle, as ratios. With
--live, those two peers run instead, in the same process and the same rounds (each round
times ours, then tdoku, then sudoku-solver-rs on the same list of strings, so drift of a
shared machine hits all alike; the figures are medians over the rounds): tdoku as built
by ../shared/peers/build.sh (`-march=native`, called once per batch through ctypes, see
peers.py; strings in and out, as ours), sudoku-solver-rs where its wheel is installed
(count mode only: it always checks uniqueness), and their answers are checked as ours. With
--peers, the peers that install from a wheel here (py-sudoku, lib-sudoku, dlx-cython) and
the package's own pure-Python reference solver run on a time-boxed prefix of each set, in
the same process, and their rates are printed with our ratio over them.
"""

from __future__ import annotations

import argparse
import csv
import os
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import sudoku_fast as sf
from sudoku_fast._engine import _general_py as reference
from sudoku_fast._engine.encode import encode_puzzles
from sudoku_fast._engine.run import run_engine
from sudoku_fast._parallel.cores import usable_cores

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
DEFAULT_SETS = [
    "kaggle_bryanpark_10k_with_solutions.csv",
    "sudoku17_49158.txt",
    "subig20.txt",
    "magictour_top1465.txt",
    "norvig_top95.txt",
    "magictour_top2365.txt",
    "serg_benchmark_multi_solution.csv",
]
# Measured on this machine, single thread, one call per puzzle (puzzles/s): solve mode.
ANCHORS_SOLVE = {
    "kaggle_bryanpark_10k_with_solutions.csv": {"tdoku": 749_000, "rs": 584_000},
    "sudoku17_49158.txt": {"tdoku": 261_000, "rs": 268_000},
    "subig20.txt": {"tdoku": 309_000, "rs": 291_000},
    "magictour_top1465.txt": {"tdoku": 151_000, "rs": 64_000},
    "norvig_top95.txt": {"tdoku": 191_000, "rs": 72_000},
}
# Count mode (limit 2), tdoku only.
ANCHORS_COUNT = {
    "sudoku17_49158.txt": {"tdoku": 270_000},
    "magictour_top1465.txt": {"tdoku": 96_000},
}
COUNT_ONLY = {"serg_benchmark_multi_solution.csv"}


def load(path: Path) -> tuple[list[str], list[str] | None, list[int] | None]:
    """Puzzles, given solutions (or None) and given solution counts (or None)."""
    if path.suffix == ".csv":
        with path.open(newline="") as f:
            rows = list(csv.DictReader(f))
        puzzles = [r.get("puzzle") or r["quizzes"] for r in rows]
        solutions = None
        key = (
            "solution" if "solution" in rows[0] else "solutions" if "solutions" in rows[0] else None
        )
        if key and all(r[key] for r in rows):
            solutions = [r[key] for r in rows]
        counts = [int(r["num_solutions"]) for r in rows] if "num_solutions" in rows[0] else None
        return puzzles, solutions, counts
    puzzles = [line.strip() for line in path.read_text().splitlines() if line.strip()]
    return puzzles, None, None


def check(solution: str | None, puzzle: str) -> bool:
    """Rules and clues, checked here without the package's code."""
    if solution is None or len(solution) != 81:
        return False
    digits = set("123456789")
    for i in range(9):
        r, c = divmod(i, 3)
        if set(solution[9 * i : 9 * i + 9]) != digits or set(solution[i::9]) != digits:
            return False
        box = {solution[9 * (3 * r + y) + 3 * c + x] for y in range(3) for x in range(3)}
        if box != digits:
            return False
    return all(p in ".0" or p == s for p, s in zip(puzzle, solution, strict=True))


def interleaved_rates(
    runners: dict[str, Callable[[], object]], n: int, repeat: int, min_seconds: float = 0.3
) -> dict[str, tuple[float, object]]:
    """Per runner: median puzzles/s over `repeat` rounds, and its last result.

    Each runner is called once to warm up (caches, branch predictors, the worker pool);
    then every round takes one sample of each runner in turn. A sample calls the runner
    until at least `min_seconds` have passed, so short sets are not timed on a single
    call (a burst of other load, or a thread wake-up, would dominate).
    """
    results = {name: run() for name, run in runners.items()}
    rates: dict[str, list[float]] = {name: [] for name in runners}
    for _ in range(repeat):
        for name, run in runners.items():
            calls, start = 0, time.perf_counter()
            while True:
                results[name] = run()
                calls += 1
                elapsed = time.perf_counter() - start
                if elapsed >= min_seconds:
                    break
            rates[name].append(calls * n / elapsed)
    return {name: (statistics.median(rates[name]), results[name]) for name in runners}


def median_rate(
    run: Callable[[], object], n: int, repeat: int, min_seconds: float = 0.3
) -> tuple[float, object]:
    """Median puzzles/s of one runner over `repeat` samples, and its last result."""
    return interleaved_rates({"run": run}, n, repeat, min_seconds)["run"]


def live_peers() -> dict[str, Callable[[list[str], int], list[str | None] | list[int] | None]]:
    """The peers of --live that are present: name -> f(puzzles, limit).

    f returns solutions (limit 1) or counts (limit 2), or None where the peer has no such
    mode. tdoku comes from ../shared/peers/build.sh (native flavour); sudoku-solver-rs
    from its wheel. The latter always checks uniqueness, so it answers count mode only,
    as the unique solution or None (0 and several solutions are not told apart).
    """
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from peers import tdoku

    found: dict[str, Callable[[list[str], int], list[str | None] | list[int] | None]] = {}
    native = tdoku("native")
    if native is not None:

        def tdoku_run(puzzles: list[str], limit: int) -> list[str | None] | list[int]:
            return native.solve_many(puzzles) if limit == 1 else native.count_many(puzzles, limit)

        found["tdoku"] = tdoku_run
    try:
        import sudoku_solver_rs
    except ImportError:
        return found

    def rs_run(puzzles: list[str], limit: int) -> list[str | None] | None:
        if limit == 1:
            return None
        unique = sudoku_solver_rs.from_str_line
        return [unique(p) or None for p in puzzles]

    found["rs"] = rs_run
    return found


def check_peer(name: str, out: object, puzzles: list[str], limit: int, expected: list[int]) -> int:
    """Wrong answers of a peer: solutions by the rules, counts against the known counts
    (capped at 2; 1 where the file gives none)."""
    assert isinstance(out, list)
    if limit == 1:
        return sum(not check(s, p) for s, p in zip(out, puzzles, strict=True))
    if name == "rs":  # the unique solution, or None
        return sum(
            (s is not None) != (e == 1) or (s is not None and not check(s, p))
            for s, p, e in zip(out, puzzles, expected, strict=True)
        )
    return sum(c != e for c, e in zip(out, expected, strict=True))


def peer_solvers() -> dict[str, Callable[[str], str | None]]:
    """One-puzzle solve functions of the peers that are installed."""
    peers: dict[str, Callable[[str], str | None]] = {"reference.py": reference.solve}
    try:
        import lib_sudoku

        def lib_sudoku_solve(p: str) -> str | None:
            grid = bytearray(0 if c in ".0" else int(c) for c in p)
            out = lib_sudoku.solve(grid)
            return "".join(map(str, out)) if out else None

        peers["lib-sudoku"] = lib_sudoku_solve
    except ImportError:
        pass
    try:
        from sudoku import Sudoku

        def py_sudoku_solve(p: str) -> str | None:
            board = [[0 if c in ".0" else int(c) for c in p[9 * r : 9 * r + 9]] for r in range(9)]
            solved = Sudoku(3, 3, board=board).solve()
            if solved.board is None or any(v is None for row in solved.board for v in row):
                return None
            return "".join(str(v) for row in solved.board for v in row)

        peers["py-sudoku"] = py_sudoku_solve
    except ImportError:
        pass
    try:
        from dlxsolver import DLXSolver

        def dlx_cython_solve(p: str) -> str | None:
            # Exact cover: 729 rows (cell, digit), 324 columns (cell, row, column, box).
            rows, choices = [], []
            for cell, ch in enumerate(p):
                r, c = divmod(cell, 9)
                b = 3 * (r // 3) + c // 3
                for d in range(9) if ch in ".0" else [int(ch) - 1]:
                    line = [0] * 324
                    for col in (cell, 81 + 9 * r + d, 162 + 9 * c + d, 243 + 9 * b + d):
                        line[col] = 1
                    rows.append(line)
                    choices.append((cell, d))
            found = DLXSolver(rows).solve(find_all=False)
            if not found:
                return None
            out = ["0"] * 81
            for index in found[0]:
                cell, d = choices[index]
                out[cell] = str(d + 1)
            return "".join(out)

        peers["dlx-cython"] = dlx_cython_solve
    except ImportError:
        pass
    return peers


def measure_peers(puzzles: list[str], seconds: float) -> dict[str, tuple[float, int]]:
    """Each peer's puzzles/s over a prefix of the set solved within about `seconds`."""
    results = {}
    for name, solve in peer_solvers().items():
        done, start = 0, time.perf_counter()
        for p in puzzles:
            solution = solve(p)
            if not check(solution, p):
                raise AssertionError(f"{name} returned a wrong solution for {p}")
            done += 1
            if time.perf_counter() - start > seconds:
                break
        results[name] = (done / (time.perf_counter() - start), done)
    return results


def overhead(path: Path, repeat: int) -> None:
    """Share of solve_many's time spent outside the engine, threads=1.

    The engine alone runs on the already-encoded buffer; solve_many adds validation,
    conversion in and result objects out (a uint8 array for numpy input, strings for
    string input). Medians of `repeat` runs of each, interleaved.
    """
    import numpy as np

    puzzles = load(path)[0]
    n = len(puzzles)
    array = np.array([[0 if c in ".0" else int(c) for c in p] for p in puzzles], dtype=np.uint8)
    grids = np.ascontiguousarray(array).reshape(-1)
    engine, numpy_total, string_total = [], [], []
    for _ in range(max(repeat, 5)):
        for bucket, run in (
            (engine, partial(run_engine, grids, n, 1, 1)),
            (numpy_total, partial(sf.solve_many, array, threads=1)),
            (string_total, partial(sf.solve_many, puzzles, threads=1)),
        ):
            start = time.perf_counter()
            run()
            bucket.append(time.perf_counter() - start)
    core = statistics.median(engine)
    print()
    print(f"Outside-engine share on {path.stem} (threads=1, medians of {len(engine)}):")
    print("| input | solve_many us/puzzle | engine us/puzzle | outside the engine |")
    print("|---|---|---|---|")
    for name, times in (("numpy (n, 81) uint8", numpy_total), ("list of str", string_total)):
        total = statistics.median(times)
        print(
            f"| {name} | {1e6 * total / n:.3f} | {1e6 * core / n:.3f} "
            f"| {100 * (total - core) / total:.1f}% |"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per figure (median)")
    parser.add_argument("--peers", action="store_true", help="also time the installed peers")
    parser.add_argument(
        "--live",
        action="store_true",
        help="time tdoku and sudoku-solver-rs in the same rounds instead of the anchors",
    )
    parser.add_argument("--peer-seconds", type=float, default=2.0)
    parser.add_argument(
        "--overhead",
        action="store_true",
        help="time spent outside the engine on the first file (numpy and string input)",
    )
    args = parser.parse_args()
    files = args.files or [SHARED / name for name in DEFAULT_SETS if (SHARED / name).exists()]
    if not files:
        print("no data files given and ../shared/data not found", file=sys.stderr)
        return 2
    cores = usable_cores()
    print(
        f"sudoku_fast {sf.__version__}, Python {sys.version.split()[0]}, {cores} cores, "
        f"{os.uname().machine if hasattr(os, 'uname') else ''}; medians of {args.repeat} runs"
    )
    print()
    peers = live_peers() if args.live else {}
    if args.live:
        print(f"live peers, same rounds: {', '.join(peers) or 'none found'}")
    same = " (same run: ours/theirs, their puzzles/s)" if args.live else ""
    header = (
        "| data set | mode | puzzles | threads | puzzles/s | us/puzzle | % no guess "
        f"| guesses/puzzle | vs tdoku{same} | vs sudoku-solver-rs{same} |"
    )
    print(header)
    print("|" + "---|" * 10)
    failures = 0
    peer_rows = []
    for path in files:
        puzzles, given, counts = load(path)
        n = len(puzzles)
        grids = encode_puzzles(puzzles)
        modes = ["count"] if path.name in COUNT_ONLY else ["solve", "count"]
        for mode in modes:
            limit = 1 if mode == "solve" else 2
            figures = run_engine(grids, n, limit, 1)
            no_guess = 100.0 * sum(g == 0 for g in figures.guesses) / n
            guesses = sum(figures.guesses) / n
            anchors = (ANCHORS_SOLVE if mode == "solve" else ANCHORS_COUNT).get(path.name, {})
            expected = [min(c, 2) for c in counts] if counts else [1] * n
            for threads in (1, cores):
                if mode == "solve":
                    ours: Callable[[], object] = partial(sf.solve_many, puzzles, threads=threads)
                else:
                    ours = partial(sf.count_many, puzzles, limit=2, threads=threads)
                runners = {"ours": ours}
                if threads == 1:
                    for name, peer in peers.items():
                        if peer(puzzles[:1], limit) is not None:
                            runners[name] = partial(peer, puzzles, limit)
                rates = interleaved_rates(runners, n, args.repeat)
                rate, out = rates["ours"]
                assert isinstance(out, list)
                if mode == "solve":
                    bad = sum(not check(s, p) for s, p in zip(out, puzzles, strict=True))
                    if given is not None:
                        bad += sum(s != g for s, g in zip(out, given, strict=True))
                else:
                    bad = sum(c != e for c, e in zip(out, expected, strict=True))
                for name in runners.keys() - {"ours"}:
                    wrong = check_peer(name, rates[name][1], puzzles, limit, expected)
                    if wrong:
                        raise SystemExit(f"{name}: {wrong} wrong answers on {path.name} {mode}")
                if args.live and threads == 1:
                    anchors = {name: figure for name, (figure, _) in rates.items()}
                failures += bad
                vs_tdoku = (
                    f"{rate / anchors['tdoku']:.2f}x" if "tdoku" in anchors and threads == 1 else ""
                )
                vs_rs = f"{rate / anchors['rs']:.2f}x" if "rs" in anchors and threads == 1 else ""
                if args.live and threads == 1:
                    vs_tdoku += f" ({anchors['tdoku']:,.0f}/s)" if vs_tdoku else ""
                    vs_rs += f" ({anchors['rs']:,.0f}/s)" if vs_rs else ""
                if threads > 1 and "tdoku" in anchors:
                    vs_tdoku = f"{rate / anchors['tdoku']:.2f}x (vs 1-thread tdoku)"
                print(
                    f"| {path.stem} | {mode} | {n} | {threads} | {rate:,.0f} | {1e6 / rate:.2f} "
                    f"| {no_guess:.1f} | {guesses:.2f} | {vs_tdoku} | {vs_rs} |"
                    + ("" if not bad else f" **{bad} WRONG** |"),
                    flush=True,
                )
        if args.peers and path.name not in COUNT_ONLY:
            ours = median_rate(partial(sf.solve_many, puzzles, threads=1), n, args.repeat)[0]
            for name, (rate, done) in measure_peers(puzzles, args.peer_seconds).items():
                peer_rows.append((path.stem, name, done, rate, ours / rate))
    if peer_rows:
        print()
        print(
            "| data set | peer (1 thread, one call per puzzle) | puzzles timed | puzzles/s "
            "| sudoku_fast solve_many threads=1 is |"
        )
        print("|---|---|---|---|---|")
        for stem, name, done, rate, ratio in peer_rows:
            print(f"| {stem} | {name} | {done} | {rate:,.1f} | {ratio:,.0f}x faster |")
    if args.overhead:
        overhead(files[0], args.repeat)
    print()
    print("all results verified" if not failures else f"{failures} WRONG RESULTS")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
