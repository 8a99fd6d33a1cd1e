"""The statistics API: solve_stats, Stats, Summary, StatsBuilder, percentiles."""

from __future__ import annotations

import math
import os
import random
import statistics
import subprocess
import sys
from array import array

import pytest
from checks import check_solution
from conftest import VENDORED, read_csv

import sudoku_fast as sf
from sudoku_fast.datasets import load_embedded
from sudoku_fast.stats import PERCENTILES, StatsBuilder, nearest_rank, time_bin


def percentile_by_sorting(values: list[int], percent: float) -> int:
    """Nearest rank, written out: the value at 1-based rank ceil(p/100 * n) (at least 1)."""
    ordered = sorted(values)
    rank = max(1, math.ceil(round(percent * 1000) * len(values) / 100_000))
    return ordered[rank - 1]


def distribution(values: list[int]) -> list[tuple[int, int]]:
    return sorted((v, values.count(v)) for v in set(values))


def test_nearest_rank_on_known_data() -> None:
    values = list(range(1, 1001))  # 1..1000
    dist = distribution(values)
    assert nearest_rank(dist, 1000, 1) == 10
    assert nearest_rank(dist, 1000, 50) == 500
    assert nearest_rank(dist, 1000, 99.9) == 999  # exact decimal rank, not 1000
    assert nearest_rank(dist, 1000, 100) == 1000
    assert nearest_rank(dist, 1000, 0) == 1
    five = [7, 1, 3, 3, 9]
    assert [nearest_rank(distribution(five), 5, p) for p in (1, 20, 40, 41, 60, 80, 100)] == [
        1,
        1,
        3,
        3,
        3,
        7,
        9,
    ]
    with pytest.raises(ValueError):
        nearest_rank(dist, 1000, 101)
    with pytest.raises(ValueError):
        nearest_rank([], 0, 50)


def test_nearest_rank_agrees_with_numpy_and_sorting() -> None:
    np = pytest.importorskip("numpy")
    rng = random.Random(5)
    for n in (1, 2, 3, 10, 999, 1000, 1001, 4567):
        values = [int(rng.paretovariate(1.2)) for _ in range(n)]
        dist = distribution(values)
        for p in PERCENTILES:
            expected = percentile_by_sorting(values, p)
            assert nearest_rank(dist, n, p) == expected, (n, p)
            # numpy computes the rank in floating point: 99.9% of 1000 comes out as
            # 999.0000000000001 and so rank 1000; compare where that cannot happen.
            if p != 99.9:
                assert expected == int(np.percentile(values, p, method="inverted_cdf")), (n, p)


def test_builder_on_known_data() -> None:
    counts = [1, 1, 0, 1, 2, 1]
    guesses = [0, 3, 0, 0, 5, 1]
    nodes = [1, 5, 1, 1, 9, 2]
    nanos = [1000, 5000, 200, 1500, 9000, 2300]
    builder = StatsBuilder()
    builder.add(counts, guesses, nodes, nanos, seconds=0.5, threads=2)
    s = builder.summary()
    assert s.puzzles == 6 and s.threads == 2 and s.seconds == 0.5
    assert s.puzzles_per_second == 12
    assert s.solved == 5 and s.no_solution == 1
    assert s.solved_without_guessing == 2  # puzzles 0 and 3; puzzle 2 has no solution
    assert s.percent_without_guessing == pytest.approx(100 * 2 / 6)
    assert s.guesses_per_puzzle == pytest.approx(9 / 6)
    assert s.nodes_per_puzzle == pytest.approx(19 / 6)
    assert s.mean_us == pytest.approx(statistics.fmean(nanos) / 1000)
    assert s.stddev_us == pytest.approx(statistics.pstdev(nanos) / 1000)
    assert s.max_us == 9.0
    assert dict(s.node_percentiles) == {p: percentile_by_sorting(nodes, p) for p in PERCENTILES}
    assert s.max_us_by_count == ((1, 1.0), (6, 9.0))
    assert sum(count for _, _, count in s.time_histogram) == 6
    for low, high, _ in s.time_histogram:
        assert low < high


def test_builder_in_batches_equals_one_batch() -> None:
    rng = random.Random(11)
    n = 2345
    counts = [rng.choice([0, 1, 1, 1, 2]) for _ in range(n)]
    guesses = [rng.choice([0, 0, 1, 4, 30]) for _ in range(n)]
    nodes = [g * 2 + 1 for g in guesses]
    nanos = [int(rng.lognormvariate(9, 1.5)) + 1 for _ in range(n)]
    whole = StatsBuilder()
    whole.add(counts, guesses, nodes, nanos, 1.0, 2)
    parts = StatsBuilder()
    for lo, hi in ((0, 7), (7, 100), (100, 1500), (1500, n)):
        parts.add(counts[lo:hi], guesses[lo:hi], nodes[lo:hi], nanos[lo:hi], 0.25, 2)
    a, b = whole.summary(), parts.summary()
    assert a == b
    assert [c for c, _ in a.max_us_by_count] == [1, 10, 100, 1000, n]
    assert [us for _, us in a.max_us_by_count] == [
        max(nanos[:c]) / 1000 for c in (1, 10, 100, 1000, n)
    ]


def test_time_bins_are_monotonic() -> None:
    bins = [time_bin(ns) for ns in (1, 2, 10, 999, 1000, 1001, 10**6, 10**9)]
    assert bins == sorted(bins)
    assert time_bin(0) == time_bin(1)


def test_empty_summary() -> None:
    s = StatsBuilder().summary()
    assert s.puzzles == 0 and s.puzzles_per_second == 0.0 and s.node_percentiles == ()
    assert sf.solve_stats([]).summary().puzzles == 0


def test_solve_stats_per_puzzle_figures() -> None:
    puzzles = [*load_embedded("norvig_top95"), "55" + "." * 79, "." * 81]
    stats = sf.solve_stats(puzzles, threads=2)
    n = len(puzzles)
    assert len(stats.solutions) == len(stats.counts) == len(stats.guesses) == n
    assert len(stats.nodes) == len(stats.nanos) == n
    assert isinstance(stats.nanos, array)
    assert stats.solutions == sf.solve_many(puzzles, threads=1)
    for puzzle, solution in zip(puzzles[:-2], stats.solutions[:-2], strict=True):
        check_solution(solution, puzzle)
    assert stats.solutions[-2] is None and stats.counts[-2] == 0
    assert list(stats.counts[:-2]) == [1] * (n - 2)
    assert all(x >= 1 for x in stats.nodes) and all(x >= 0 for x in stats.guesses)
    assert all(x >= 0 for x in stats.nanos) and stats.seconds > 0
    summary = stats.summary()
    assert summary.puzzles == n and summary.solved == n - 1
    assert summary.max_us == max(stats.nanos) / 1000
    no_guess = sum(1 for c, g in zip(stats.counts, stats.guesses, strict=True) if c and not g)
    assert summary.solved_without_guessing == no_guess
    assert summary.guesses_per_puzzle == pytest.approx(sum(stats.guesses) / n)
    counted = sf.solve_stats(["." * 81], threads=1, limit=5)
    assert counted.counts[0] == 5


def test_solve_stats_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="puzzle 1"):
        sf.solve_stats(["." * 81, "1" * 80])
    with pytest.raises(TypeError):
        sf.solve_stats("." * 81)
    with pytest.raises(ValueError):
        sf.solve_stats(["." * 81], limit=0)


# ---------------------------------------------------------------- every geometry


@pytest.mark.parametrize(
    ("name", "box"),
    [
        ("sudoku6_2x3.csv", (2, 3)),
        ("sudoku12_3x4.csv", (3, 4)),
        ("sudoku16_goomii_sample100_with_solutions.csv", (4, 4)),
        ("sudoku25_misc.csv", (5, 5)),
    ],
)
def test_solve_stats_of_other_sizes(name: str, box: tuple[int, int]) -> None:
    rows = read_csv(VENDORED / name)
    puzzles = [r["puzzle"] for r in rows]
    stats = sf.solve_stats(puzzles, threads=2)
    for row, solution in zip(rows, stats.solutions, strict=True):
        check_solution(solution, row["puzzle"], box=box)
        if row["solution"]:
            assert solution == row["solution"]
    assert list(stats.counts) == [1] * len(rows)
    summary = stats.summary()
    assert summary.puzzles == summary.solved == len(rows) and summary.unknown == 0
    assert all(n >= 1 for n in stats.nodes) and summary.max_us > 0
    assert sf.solve_stats(puzzles, threads=1, box=box).solutions == stats.solutions


def test_solve_stats_box_alphabet_and_sizes() -> None:
    six = read_csv(VENDORED / "sudoku6_2x3.csv")[0]["puzzle"]
    transposed = "".join(six[c * 6 + r] for r in range(6) for c in range(6))
    stats = sf.solve_stats([transposed], box=(3, 2))
    check_solution(stats.solutions[0], transposed, box=(3, 2))
    hex_puzzles = [
        r["puzzle"].translate(str.maketrans("123456789ABCDEFG", "0123456789ABCDEF"))
        for r in read_csv(VENDORED / "sudoku16_misc.csv")[:5]
    ]
    stats = sf.solve_stats(hex_puzzles, alphabet="0123456789ABCDEF")
    assert stats.solutions == sf.solve_many(hex_puzzles, alphabet="0123456789ABCDEF")
    for puzzle, solution in zip(hex_puzzles, stats.solutions, strict=True):
        check_solution(solution, puzzle, symbols="0123456789ABCDEF")
    with pytest.raises(ValueError, match="puzzle 1: a 9x9 puzzle in a batch of 6x6"):
        sf.solve_stats([six, "." * 81])


def test_solve_stats_node_budget() -> None:
    puzzles = [r["puzzle"] for r in read_csv(VENDORED / "sudoku16_misc.csv")[:20]]
    full = sf.solve_stats(puzzles, threads=1)
    budget = sorted(full.nodes)[len(puzzles) // 2]  # about half need more
    with pytest.raises(sf.SearchLimitExceeded) as caught:
        sf.solve_stats(puzzles, threads=1, max_nodes=budget)
    partial = caught.value.partial
    assert isinstance(partial, sf.Stats)
    assert caught.value.indices == [i for i, c in enumerate(partial.counts) if c < 0]
    assert caught.value.indices and len(caught.value.indices) < len(puzzles)
    for i, solution in enumerate(partial.solutions):
        assert solution == (None if i in caught.value.indices else full.solutions[i])
    summary = partial.summary()
    assert summary.unknown == len(caught.value.indices)
    assert summary.solved == len(puzzles) - summary.unknown and summary.no_solution == 0
    assert sf.solve_stats(puzzles, threads=1, max_nodes=None).solutions == full.solutions


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="pins CPUs (Linux)")
def test_puzzle_times_are_thread_cpu_time_not_wall_time() -> None:
    """On a CPU shared with two busy processes, a puzzle's time leaves out the time its
    thread waited: the per-puzzle times add up to at most the thread's CPU time."""
    cpu = min(os.sched_getaffinity(0))
    spin = f"import os\nos.sched_setaffinity(0, {{{cpu}}})\nwhile True:\n    pass\n"
    code = (
        "import os, time, sudoku_fast as sf\n"
        "from sudoku_fast.datasets import load_embedded\n"
        f"os.sched_setaffinity(0, {{{cpu}}})\n"
        "puzzles = load_embedded('magictour_top1465') * 10\n"
        "start, wall = time.thread_time_ns(), time.perf_counter_ns()\n"
        "stats = sf.solve_stats(puzzles, threads=1)\n"
        "print(sum(stats.nanos), time.thread_time_ns() - start, time.perf_counter_ns() - wall)\n"
    )
    hogs = [subprocess.Popen([sys.executable, "-c", spin]) for _ in range(2)]
    try:
        proc = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=120
        )
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    assert proc.returncode == 0, proc.stderr
    measured, thread_cpu, wall = map(int, proc.stdout.split())
    assert wall > 1.5 * thread_cpu  # the thread did share its CPU
    assert measured <= thread_cpu
    assert measured > 0.3 * thread_cpu  # the engine is most of the work
