"""16x16 killer puzzles on the general engine's path, two builds side by side.

    python bench/big_killer.py --build before=/tmp/before/src --build after=src
        [--rounds 3] [--puzzles 6] [--givens 0 8 16] [--budget 50000]

Each `--build LABEL=SRC` is a source tree with its compiled modules built in place
(`src` of a checkout after `python setup.py build_ext --inplace`); every round runs
each build once in its own process, the order alternating from round to round, so a
slow spell of a shared machine lands on both alike.

Puzzles: a random valid 16x16 grid per seed (one solution of the empty grid, its
digits relabelled, rows, columns, bands and stacks shuffled, maybe transposed), cut
into killer cages by the generator's cage drawing, with 0, 8 or 16 of its digits
given at random cells. They need not be unique. Each is counted to 2 with the node
budget `--budget`: the table gives per build and set the puzzles decided (a count,
not a budget hit), the median nodes and the median time per puzzle (of the rounds'
medians). Every solution found is checked by tests/variant_oracle.py's checker,
written apart from the engine, and with `--sat` every count decided in the first
round by its SAT counter (python-sat).

Classic 16x16 puzzles (the first `--classic` of ../shared/data's goomii set, solved
with rules=None, one thread) are timed in the same processes: the classic path must
not change.
"""

from __future__ import annotations

import argparse
import csv
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLASSIC = ROOT.parent / "shared" / "data" / "sudoku16_goomii_1000_with_solutions.csv"
SYMBOLS = "123456789ABCDEFG"
N = 16


def random_grid(sf: object, seed: int) -> bytearray:
    """A random valid 16x16 grid: the empty grid's solution, shuffled by symmetries."""
    base = sf.solve("." * (N * N))  # type: ignore[attr-defined]
    rng = random.Random(seed)
    digits = [SYMBOLS.index(ch) + 1 for ch in base]
    relabel = list(range(1, N + 1))
    rng.shuffle(relabel)
    bands = rng.sample(range(4), 4)
    stacks = rng.sample(range(4), 4)
    rows = [b * 4 + r for b in bands for r in rng.sample(range(4), 4)]
    cols = [s * 4 + c for s in stacks for c in rng.sample(range(4), 4)]
    grid = [relabel[digits[r * N + c] - 1] for r in rows for c in cols]
    if rng.random() < 0.5:
        grid = [grid[c * N + r] for r in range(N) for c in range(N)]
    return bytearray(grid)


def worker(src: str, puzzles: int, givens: list[int], budget: int, classic: int, sat: bool) -> None:
    sys.path.insert(0, src)
    sys.path.insert(0, str(ROOT / "tests"))
    from variant_oracle import count_solutions, is_valid_solution

    import sudoku_fast as sf
    from sudoku_fast._base.rules import Rules
    from sudoku_fast._generation.variants import _random_cages
    from sudoku_fast._variants.big import BigGridCounter

    assert Path(sf.__file__).resolve().is_relative_to(Path(src).resolve()), sf.__file__
    out: dict[str, object] = {}
    for given in givens:
        rows = []
        for seed in range(puzzles):
            solution = random_grid(sf, seed)
            rng = random.Random(1000 + seed)
            rules = Rules(cages=_random_cages(rng, solution, N))
            puzzle = bytearray(N * N)
            for cell in rng.sample(range(N * N), given):
                puzzle[cell] = solution[cell]
            counter = BigGridCounter(rules, N, (4, 4), max_nodes=budget)
            start = time.perf_counter()
            found = counter.count(puzzle, 2)
            seconds = time.perf_counter() - start
            if found > 0:
                text = "".join(SYMBOLS[v - 1] for v in counter.solution)
                shown = "".join(SYMBOLS[v - 1] if v else "." for v in puzzle)
                if not is_valid_solution(text, rules.to_json() | {"size": N}, shown):
                    raise SystemExit(f"seed {seed}, {given} givens: invalid solution {text}")
            if sat and found >= 0:
                document = rules.to_json() | {"size": N}
                shown = "".join(SYMBOLS[v - 1] if v else "." for v in puzzle)
                if count_solutions(shown, document, 2)[0] != found:
                    raise SystemExit(f"seed {seed}, {given} givens: count {found} != SAT")
            rows.append((found, counter._nodes[0], seconds))
        out[f"{given} givens"] = rows
    if classic:
        with CLASSIC.open(newline="") as f:
            texts = [row["puzzle"] for row in csv.DictReader(f)][:classic]
        times = []
        for _ in range(3):
            start = time.perf_counter()
            solved = sf.solve_many(texts, threads=1)
            times.append(time.perf_counter() - start)
            assert all(s is not None for s in solved)
        out["classic"] = statistics.median(times)
    print(json.dumps(out))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", action="append", required=True, help="LABEL=SRC")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--puzzles", type=int, default=6)
    parser.add_argument("--givens", type=int, nargs="+", default=[0, 8, 16])
    parser.add_argument("--budget", type=int, default=50_000)
    parser.add_argument("--classic", type=int, default=200 if CLASSIC.exists() else 0)
    parser.add_argument("--sat", action="store_true", help="check counts by SAT (round 1)")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker, args.puzzles, args.givens, args.budget, args.classic, args.sat)
        return
    builds = [item.split("=", 1) for item in args.build]
    runs: dict[str, list[dict[str, object]]] = {label: [] for label, _ in builds}
    for r in range(args.rounds):
        order = builds if r % 2 == 0 else builds[::-1]
        for label, src in order:
            command = [sys.executable, __file__, "--worker", src, "--build", "x=x"]
            command += ["--puzzles", str(args.puzzles), "--budget", str(args.budget)]
            command += ["--classic", str(args.classic), "--givens", *map(str, args.givens)]
            command += ["--sat"] if args.sat and r == 0 else []
            done = subprocess.run(command, capture_output=True, text=True, check=True)
            runs[label].append(json.loads(done.stdout))
    print(
        f"16x16 killers, {args.puzzles} per set, count to 2, budget {args.budget} nodes, "
        f"1 thread, {args.rounds} interleaved rounds"
    )
    print(
        f"{'set':<10} {'build':<10} {'decided':>8} {'med nodes':>10} {'med ms':>9} {'total s':>8}"
    )
    for given in args.givens if args.puzzles else []:
        key = f"{given} givens"
        for label, _ in builds:
            rows = runs[label][0][key]  # the search is deterministic: same counts, nodes
            decided = sum(1 for found, _, _ in rows if found >= 0)
            nodes = statistics.median(n for _, n, _ in rows)
            per_round = [[s for _, _, s in run[key]] for run in runs[label]]
            med = statistics.median(statistics.median(times) for times in per_round)
            total = statistics.median(sum(times) for times in per_round)
            print(
                f"{key:<10} {label:<10} {decided:>5}/{len(rows):<2} {nodes:>10.0f} "
                f"{med * 1000:>9.1f} {total:>8.2f}"
            )
    if args.classic:
        first = builds[0][0]
        print(f"classic 16x16 (goomii, first {args.classic}, solve_many threads=1):")
        for label, _ in builds:
            ratios = [
                run["classic"] / base["classic"]
                for run, base in zip(runs[label], runs[first], strict=True)
            ]
            med = statistics.median(run["classic"] for run in runs[label])
            print(
                f"  {label:<10} median {med * 1000:.1f} ms, per-round ratio to {first} "
                f"{statistics.median(ratios):.3f}"
            )


if __name__ == "__main__":
    main()
