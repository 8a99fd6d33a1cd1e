"""Canonical forms: puzzles/s per core on sudoku17_49158, thread scaling, the dedup count.

    python bench/canonical.py                  # 5 interleaved rounds, whole set
    python bench/canonical.py --rounds 3 --sample 20000

Each round times `canonical_many` over the set at threads=1 and threads=2, in that
order, in this process (the module is imported and warmed up once). Per-core speed is
reported two ways: puzzles per wall-clock second at threads=1, and puzzles per second
of this process's CPU time at threads=1 (what one core does when it is not shared, the
figure to quote on a busy machine). The table shows medians over the rounds and the
median of the per-round threads=2 / threads=1 ratios. Every run's forms are compared
with the first run's.

The dedup count is the number of puzzles whose canonical form equals that of an
earlier puzzle in the file (what `sudoku-fast dedup` drops), from the same forms.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from pathlib import Path

import sudoku_fast as sf

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data" / "sudoku17_49158.txt"
SAMPLE = ROOT / "tests" / "data" / "sudoku17_sample.txt"


def load(sample: int) -> tuple[str, list[str]]:
    """The puzzles of sudoku17_49158 (or the vendored sample without ../shared)."""
    path = DATA if DATA.exists() else SAMPLE
    puzzles = [line.strip() for line in path.read_text().splitlines() if line.strip()]
    return path.name, puzzles[:sample] if sample else puzzles


def timed(puzzles: list[str], threads: int) -> tuple[float, float, list[str]]:
    """Wall seconds, process CPU seconds and the forms of one canonical_many call."""
    cpu = time.process_time()
    wall = time.perf_counter()
    forms = sf.canonical_many(puzzles, threads=threads)
    return time.perf_counter() - wall, time.process_time() - cpu, forms


def main() -> None:
    """Run the rounds and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--sample", type=int, default=0, help="first N puzzles (0 = all)")
    args = parser.parse_args()
    name, puzzles = load(args.sample)
    n = len(puzzles)
    sf.canonical_many(puzzles[:500], threads=2)  # warm-up: thread pool, caches
    walls: dict[int, list[float]] = {1: [], 2: []}
    cpus: list[float] = []
    ratios: list[float] = []
    reference: list[str] | None = None
    for _ in range(args.rounds):
        rates = {}
        for threads in (1, 2):
            wall, cpu, forms = timed(puzzles, threads)
            if reference is None:
                reference = forms
            assert forms == reference, "canonical forms differ between runs"
            walls[threads].append(n / wall)
            rates[threads] = n / wall
            if threads == 1:
                cpus.append(n / cpu)
        ratios.append(rates[2] / rates[1])
    assert reference is not None
    distinct = len(set(reference))
    print(f"{name}: {n:,} puzzles, {args.rounds} rounds, {platform.processor() or 'cpu'}")
    print(f"  threads=1: {statistics.median(walls[1]):>10,.0f} puzzles/s (wall)")
    print(f"  threads=1: {statistics.median(cpus):>10,.0f} puzzles/s per CPU second")
    print(f"  threads=2: {statistics.median(walls[2]):>10,.0f} puzzles/s (wall)")
    print(f"  threads=2 / threads=1: {statistics.median(ratios):.2f}x (median of rounds)")
    print(f"  dedup: {n - distinct:,} of {n:,} equivalent to an earlier puzzle")


if __name__ == "__main__":
    main()
