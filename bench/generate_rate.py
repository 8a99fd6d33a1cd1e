"""Generator throughput, every puzzle verified; optionally against another install.

    python bench/generate_rate.py                       # 500 per level, threads 1 and 2
    python bench/generate_rate.py --count 1000 --levels any hard --rounds 5
    python bench/generate_rate.py --before /tmp/venv-before/bin/python
    python bench/generate_rate.py --size 8 --levels any easy hard --count 200

Each measurement runs `generate_many(N, difficulty=level, seed=..., size=S,
threads=T)` in a fresh subprocess of a Python interpreter (this one, and with
`--before` another one with another install of sudoku_fast, in turn), timing only that
call. Rounds are interleaved (every level, thread count and interpreter once per
round) so that the drift of a shared machine hits all of them alike; the table shows
medians over rounds, and medians of the per-round ratios of two threads to one and
of this install to `--before`. Each round also times the engine solving top1465 on one
and two threads: on a shared machine that ratio says what two threads could give then.

Every puzzle of every run is checked here, with this interpreter's package: exactly one
solution (`count_many`, limit 2, no node budget), minimal (every single-clue removal
has 2+ solutions), at the asked level (`rating.level_within`), plus a sample counted by
the pure-Python reference solver. A failed check stops the benchmark.

`--stats` instead prints where the compiled generator spends its time per level
(full grids, removal passes, level tests; attempts per puzzle), from its own counters.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import subprocess
import sys
from array import array
from collections import defaultdict

import sudoku_fast as sf
from sudoku_fast._base.grid import geometry_for, parse_grid
from sudoku_fast._engine import _general_py as reference
from sudoku_fast._techniques.solver import level_within
from sudoku_fast.generator import DIFFICULTIES

WORKER = """
import json, sys, time
import sudoku_fast as sf
count, level, seed, size, threads = json.loads(sys.argv[1])
sf.generate_many(1, difficulty=level, seed=seed + 1, size=size, threads=threads)  # warm-up
start = time.perf_counter()
puzzles = sf.generate_many(count, difficulty=level, seed=seed, size=size, threads=threads)
wall = time.perf_counter() - start
print(json.dumps({"wall": wall, "puzzles": puzzles, "version": sf.__version__}))
"""

# What the machine gives two threads right now: the engine on the embedded top1465 set,
# work that scales with the cores it gets (1.87-2.09x on an idle machine, see README).
CEILING = """
import json, sys, time
import sudoku_fast as sf
from sudoku_fast.datasets import load_embedded
threads = json.loads(sys.argv[1])
puzzles = load_embedded("magictour_top1465")
sf.solve_many(puzzles, threads=threads)
start = time.perf_counter()
for _ in range(3):
    sf.solve_many(puzzles, threads=threads)
print(json.dumps({"wall": time.perf_counter() - start}))
"""


def run_once(
    python: str, count: int, level: str | None, seed: int, size: int, threads: int
) -> dict[str, object]:
    """One timed generate_many call in a fresh interpreter; its wall time and puzzles."""
    return _subprocess(python, WORKER, [count, level, seed, size, threads])


def ceiling_rate(threads: int) -> float:
    """Puzzles/s of the engine on top1465 with `threads`, in a fresh interpreter."""
    wall = _subprocess(sys.executable, CEILING, threads)["wall"]
    assert isinstance(wall, float)
    return 3 * 1465 / wall


def _subprocess(python: str, code: str, args: object) -> dict[str, object]:
    proc = subprocess.run(
        [python, "-c", code, json.dumps(args)], capture_output=True, text=True, check=False
    )
    if proc.returncode != 0:
        raise SystemExit(f"{python} failed:\n{proc.stderr}")
    result: dict[str, object] = json.loads(proc.stdout)
    return result


def verify(puzzles: list[str], level: str | None, size: int, sample: int) -> float:
    """Check every puzzle (see the module doc); returns the mean number of clues."""
    geo = geometry_for(size)
    # 4x4 grids have few minimal puzzles, so repeats are expected there.
    assert size <= 4 or len(set(puzzles)) == len(puzzles), "repeated puzzles"
    assert sf.count_many(puzzles, limit=2, max_nodes=None) == [1] * len(puzzles), "not unique"
    variants = [p[:i] + "." + p[i + 1 :] for p in puzzles for i, ch in enumerate(p) if ch != "."]
    assert set(sf.count_many(variants, limit=2, max_nodes=None)) <= {2}, "not minimal"
    if level is not None:
        target = DIFFICULTIES[level]
        for p in puzzles:
            assert level_within(parse_grid(p)[1], 5, geo) == target, f"not {level}: {p}"
    for p in puzzles[:sample]:
        assert reference.count_solutions(p, 2) == 1, "the reference solver disagrees"
    return statistics.mean(sum(ch != "." for ch in p) for p in puzzles)


def print_stats(levels: list[str], count: int, size: int, seed: int) -> None:
    """Where the compiled generator's time goes, from its own counters (threads=1)."""
    from sudoku_fast._engine import _general
    from sudoku_fast._engine.isa import load
    from sudoku_fast._generation import generate as g
    from sudoku_fast._techniques import _logic

    _generate = load("_generation._generate")  # the build the dispatch chose

    geo = geometry_for(size)
    orbits = g.symmetry_orbits(None, geo)
    start, cells = array("i", [0]), array("i")
    for orbit in orbits:
        cells.extend(orbit)
        start.append(len(cells))
    tables = _general.tables_for(geo.size, geo.box_rows, geo.box_cols)
    print(
        f"{'level':<9}{'attempts/puzzle':>16}{'grids':>8}{'fill us':>9}{'carve us':>10}"
        f"{'rate us':>9}{'checks':>8}{'forced':>8}{'ms/puzzle':>11}"
    )
    for name in levels:
        level = 0 if name == "any" else DIFFICULTIES[name]
        seeds = array("Q", range(seed, seed + count))
        stats = array("q", bytes(8 * len(_generate.STAT_NAMES)))
        early = geo.cells // 3 if 0 < level <= g.EARLY_MAX_LEVEL else 0
        _generate.generate_range(
            tables, _logic.tables_for(geo), start, cells, seeds, 0, count,
            bytearray(count * geo.cells), level, True, g.FILL_NODES, g.CHECK_NODES,
            g.ORDERS_PER_GRID, early, g.MAX_ATTEMPTS, None, stats,
        )  # fmt: skip
        s = dict(zip(_generate.STAT_NAMES, stats, strict=True))
        ms = (s["fill_ns"] + s["carve_ns"] + s["rate_ns"]) / count / 1e6
        print(
            f"{name:<9}{s['attempts'] / count:>16.1f}{s['grids'] / count:>8.1f}"
            f"{s['fill_ns'] / s['grids'] / 1e3:>9.1f}"
            f"{s['carve_ns'] / max(1, s['carves']) / 1e3:>10.1f}"
            f"{s['rate_ns'] / max(1, s['ratings']) / 1e3:>9.1f}"
            f"{s['checks'] / s['attempts']:>8.1f}{s['forced'] / s['attempts']:>8.1f}{ms:>11.2f}"
        )
    print("(fill: per full grid; carve: per completed removal pass; rate: per level test;")
    print(" checks / forced: engine checks and removals proven without one, per attempt)")


def _median_ratio(top: list[float], bottom: list[float]) -> float:
    """The median over rounds of top / bottom, each pair measured in the same round."""
    return statistics.median(t / b for t, b in zip(top, bottom, strict=True))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=500, help="puzzles per run")
    parser.add_argument("--levels", nargs="+", default=["any", *DIFFICULTIES])
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--before", help="python of another install to compare with")
    parser.add_argument("--sample", type=int, default=10, help="puzzles checked by reference")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--stats", action="store_true", help="time per phase instead")
    args = parser.parse_args()
    if args.stats:
        print_stats(args.levels, args.count, args.size, args.seed)
        return
    pythons = {"after": sys.executable}
    if args.before:
        pythons = {"before": args.before, **pythons}
    print(
        f"sudoku_fast {sf.__version__}, Python {platform.python_version()}, "
        f"{platform.machine()}, {args.count} puzzles per run, {args.size}x{args.size}, "
        f"{args.rounds} interleaved rounds, medians"
    )
    rates: dict[tuple[str, int, str], list[float]] = defaultdict(list)
    clues: dict[tuple[str, str], float] = {}
    ceiling: dict[int, list[float]] = defaultdict(list)
    for round_index in range(args.rounds):
        for threads in args.threads:
            ceiling[threads].append(ceiling_rate(threads))
        for name in args.levels:
            level = None if name == "any" else name
            for threads in args.threads:
                for label, python in pythons.items():
                    seed = args.seed + 1000 * round_index
                    result = run_once(python, args.count, level, seed, args.size, threads)
                    puzzles = result["puzzles"]
                    wall = result["wall"]
                    assert isinstance(puzzles, list) and isinstance(wall, float)
                    assert len(puzzles) == args.count
                    clues[name, label] = verify(puzzles, level, args.size, args.sample)
                    rates[name, threads, label].append(args.count / wall)
        print(f"round {round_index + 1} done", file=sys.stderr, flush=True)
    header = f"{'level':<9}{'threads':>8}"
    for label in pythons:
        header += f"{label + ' /s':>13}"
    if args.before:
        header += f"{'speed-up':>10}"
    header += f"{'vs 1 thread':>13}{'clues':>7}"
    print(header)
    print("-" * len(header))
    for name in args.levels:
        for threads in args.threads:
            line = f"{name:<9}{threads:>8}"
            for label in pythons:
                line += f"{statistics.median(rates[name, threads, label]):>13,.0f}"
            after = rates[name, threads, "after"]
            if args.before:
                line += f"{_median_ratio(after, rates[name, threads, 'before']):>9.1f}x"
            scaling = _median_ratio(after, rates[name, args.threads[0], "after"])
            line += f"{scaling:>12.2f}x{clues[name, 'after']:>7.1f}"
            print(line, flush=True)
    for threads in args.threads[1:]:
        ratio = _median_ratio(ceiling[threads], ceiling[args.threads[0]])
        print(f"machine ceiling now: the engine on top1465 ran {ratio:.2f}x as fast on "
              f"{threads} threads as on {args.threads[0]} (same rounds)")  # fmt: skip
    print(f"every puzzle verified: unique, minimal, at its level; {args.sample} per run by the "
          "reference solver")  # fmt: skip


if __name__ == "__main__":
    main()
