"""Generator throughput and checks: N puzzles per difficulty, each verified.

    python bench/generate_rate.py                 # 1000 per level, threads=1
    python bench/generate_rate.py --count 200 --levels any easy --threads 2
    python bench/generate_rate.py --size 16 --count 100 --levels any

For every level it times `generate_many(N, difficulty=level, seed=..., threads=T)` and
then checks every puzzle: exactly one solution (`count_many`, limit 2), minimal (every
single-clue removal has 2+ solutions, by `count_many`), rated at the asked level
(`rate`, 9x9 only), plus a sample counted by the pure-Python reference solver. Other
sizes are checked with no search-node budget, so a check is never left undecided. Prints puzzles/s
by wall clock and by process CPU time (the per-core figure on a shared machine).
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

import sudoku_fast as sf
from sudoku_fast import reference
from sudoku_fast.generator import DIFFICULTIES


def _variants(puzzle: str) -> list[str]:
    out = []
    for cell, ch in enumerate(puzzle):
        if ch != ".":
            out.append(puzzle[:cell] + "." + puzzle[cell + 1 :])
    return out


def run_level(
    level: str, count: int, threads: int, sample: int, seed: int, size: int = 9
) -> dict[str, object]:
    difficulty = None if level == "any" else level
    wall = time.perf_counter()
    cpu = time.process_time()
    puzzles = sf.generate_many(count, difficulty=difficulty, seed=seed, size=size, threads=threads)
    cpu = time.process_time() - cpu
    wall = time.perf_counter() - wall
    unique = sf.count_many(puzzles, limit=2, max_nodes=None).count(1)
    variants = [v for p in puzzles for v in _variants(p)]
    counts = sf.count_many(variants, limit=2, max_nodes=None)
    minimal = 0
    start = 0
    for p in puzzles:
        k = sum(ch != "." for ch in p)
        minimal += all(c == 2 for c in counts[start : start + k])
        start += k
    ref_unique = sum(reference.count_solutions(p, 2) == 1 for p in puzzles[:sample])
    row: dict[str, object] = {
        "level": level,
        "n": len(puzzles),
        "distinct": len(set(puzzles)),
        "wall": wall,
        "rate_wall": len(puzzles) / wall,
        "rate_cpu": len(puzzles) / cpu,
        "unique": unique,
        "ref": f"{ref_unique}/{min(sample, len(puzzles))}",
        "minimal": minimal,
        "level_ok": "-",
        "clues": statistics.mean(sum(ch != "." for ch in p) for p in puzzles),
        "levels": {},
    }
    if size == 9:  # `rate` is for 9x9 grids
        ratings = sf.rate_many(puzzles, threads=threads)
        target = DIFFICULTIES.get(level)
        row["level_ok"] = sum(target is None or r.level == target for r in ratings)
        row["levels"] = {lv: sum(r.level == lv for r in ratings) for lv in range(1, 7)}
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--levels", nargs="+", default=["any", *DIFFICULTIES])
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--sample", type=int, default=20, help="puzzles checked by reference")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--size", type=int, default=9, help="grid size (levels: 9x9 only)")
    args = parser.parse_args()
    print(
        f"sudoku_fast {sf.__version__}, Python {platform.python_version()}, "
        f"{platform.machine()}, threads={args.threads}, {args.count} puzzles per level, "
        f"{args.size}x{args.size}"
    )
    header = (
        f"{'level':<9}{'puzzles':>8}{'distinct':>9}{'seconds':>9}{'puzzles/s':>11}"
        f"{'per CPU s':>11}{'unique':>8}{'reference':>10}{'minimal':>9}{'level ok':>9}"
        f"{'clues':>7}  rated levels 1-6"
    )
    print(header)
    print("-" * len(header))
    for level in args.levels:
        row = run_level(level, args.count, args.threads, args.sample, args.seed, args.size)
        levels = row["levels"]
        assert isinstance(levels, dict)
        print(
            f"{row['level']:<9}{row['n']:>8}{row['distinct']:>9}{row['wall']:>9.1f}"
            f"{row['rate_wall']:>11.1f}{row['rate_cpu']:>11.1f}{row['unique']:>8}"
            f"{row['ref']:>10}{row['minimal']:>9}{row['level_ok']:>9}{row['clues']:>7.1f}"
            f"  {' '.join(str(levels.get(k, '-')) for k in range(1, 7))}",
            flush=True,
        )


if __name__ == "__main__":
    main()
