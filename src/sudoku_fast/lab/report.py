"""The lab's tables: algorithms by puzzle set, and the random-puzzle experiment.

`set_rows` runs algorithms and orders over puzzle sets and summarises each run as the
essay does (N, Hz, mean and max time) plus the search-tree sizes (percentiles of
nodes), how many gave up and how many answers were checked against the main engine.
`random_experiment` makes random puzzles by the essay's recipe, counts their solutions
with a lab algorithm, checks every count against the engine and reports the shares of
0 / 1 / several solutions, the largest tree, the slowest puzzle and how the slowest
time grows with the number of puzzles. `command` is the `sudoku-fast lab` command.
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from .. import lab
from .._base.grid import Geometry, format_values, geometry_for
from .._base.percentiles import percentile_rank
from .._engine.encode import encode_texts
from .._files.stream import PuzzleReader, is_parquet, open_input

RANDOM_BLOCK = 100_000  # random puzzles made, solved and checked at a time


def read_puzzles(
    path: str, box: object = None, alphabet: object = None
) -> tuple[list[str], list[int]]:
    """The puzzles of a file and their line numbers, read as the other commands read it.

    One puzzle per line, or the puzzle column of a CSV file (`stream.PuzzleReader`: blank
    lines and, above a CSV header, '#' comments are skipped; a UTF-8 byte order mark
    too). Raises ValueError naming FILE:LINE and the reason at the first malformed
    record (an empty CSV field included), and for a Parquet file.
    """
    if is_parquet(path):
        raise ValueError(f"{path}: a Parquet file; the lab reads text files (lines or CSV)")
    puzzles: list[str] = []
    lines: list[int] = []
    source, name, _ = open_input(path)
    try:
        reader = PuzzleReader(
            source, name, box=box, alphabet=alphabet, classic_only="the lab solves classic puzzles"
        )
        for batch in reader:
            if batch.problems:
                record, reason = batch.problems[0]
                raise ValueError(f"{path}:{batch.line_numbers[record]}: {reason}")
            for record in range(batch.n):
                puzzle = reader.puzzle_of(batch.record_text(record))
                assert puzzle is not None, "a record that is not malformed has a puzzle"
                puzzles.append(puzzle)
                lines.append(batch.line_numbers[record])
    finally:
        if source is not sys.stdin.buffer:
            source.close()
    return puzzles, lines


def percentile(sorted_values: Sequence[int], percent: float) -> int:
    """The `percent`-th percentile of the sorted values (nearest rank); 0 for none."""
    if not sorted_values:
        return 0
    return sorted_values[percentile_rank(len(sorted_values), percent) - 1]


@dataclass(frozen=True)
class SetRow:
    """One line of the table: one algorithm with its orders on one puzzle set.

    `solved` counts puzzles whose search finished with a solution and `gave_up` those
    that ran out of budget (whatever they had found by then): the two never overlap.
    """

    algorithm: str
    order: str
    value_order: str
    name: str
    n: int
    solved: int
    gave_up: int
    checked: int
    wrong: int
    total_seconds: float
    max_seconds: float
    nodes_50: int
    nodes_90: int
    nodes_99: int
    nodes_max: int
    guesses_mean: float
    restart_after: int = 0  # 0: one run per puzzle
    restarts: int = 0  # runs cut short and begun again, over the set

    @property
    def hz(self) -> float:
        """Puzzles per second of one thread: N over the summed solving times."""
        return self.n / self.total_seconds if self.total_seconds > 0 else math.inf

    @property
    def mean_seconds(self) -> float:
        """Mean solving time per puzzle."""
        return self.total_seconds / self.n if self.n else 0.0


def set_row(
    name: str,
    puzzles: Sequence[str],
    algorithm: str,
    *,
    order: str | None = None,
    value_order: str = "first",
    limit: int = 1,
    budget: int | None = lab.DEFAULT_BUDGET,
    seconds: float | None = None,
    seed: int = 0,
    restart_after: int | None = None,
    threads: int | None = 1,
    verify: bool = True,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
) -> SetRow:
    """Run one algorithm over one set and summarise it (answers checked when `verify`)."""
    plan = lab.make_plan(algorithm, order, value_order, limit, budget, seconds, seed, restart_after)
    geometry, grids = encode_texts(list(puzzles), box, alphabet)
    batch = lab.run_grids(geometry, grids, len(puzzles), plan, threads=threads)
    checked = wrong = 0
    if verify:
        verdict = lab.verify_batch(batch, grids, limit, list(puzzles))
        checked, wrong = verdict.checked, len(verdict.wrong)
    nodes = sorted(batch.nodes)
    n = batch.n
    return SetRow(
        algorithm=plan.algorithm,
        order=plan.order,
        value_order=plan.value_order,
        name=name,
        n=n,
        # Disjoint from gave_up: a count cut short by the budget may already hold a
        # solution, but the puzzle was not settled.
        solved=sum(1 for i in range(n) if batch.counts[i] > 0 and not batch.statuses[i]),
        gave_up=sum(1 for s in batch.statuses if s),
        checked=checked,
        wrong=wrong,
        total_seconds=sum(batch.nanos) / 1e9,
        max_seconds=max(batch.nanos, default=0) / 1e9,
        nodes_50=percentile(nodes, 50),
        nodes_90=percentile(nodes, 90),
        nodes_99=percentile(nodes, 99),
        nodes_max=nodes[-1] if nodes else 0,
        guesses_mean=sum(batch.guesses) / n if n else 0.0,
        restart_after=plan.restart_after,
        restarts=sum(batch.restarts),
    )


def _time(seconds: float) -> str:
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds * 1e6:.1f} us"


def _rate(hz: float) -> str:
    return "inf" if math.isinf(hz) else f"{hz:,.0f}"


def format_set_table(rows: Sequence[SetRow]) -> str:
    """The rows as a Markdown table (the essay's columns, then the search figures).

    When a row restarts its runs, a last column gives the first run's nodes and the
    restarts over the set (nodes and times are then totals over all runs).
    """
    restarting = any(r.restart_after for r in rows)
    head = (
        "| algorithm | order | values | set | N | solved | gave up | verified | Hz | mean | "
        "max | nodes p50 | p90 | p99 | max | guesses/puzzle |"
    )
    columns = 16
    if restarting:
        head += " restarts (after nodes) |"
        columns += 1
    lines = [head, "|" + "---|" * columns]
    for r in rows:
        line = (
            f"| {r.algorithm} | {r.order} | {r.value_order} | {r.name} | {r.n} | {r.solved} | "
            f"{r.gave_up} | {r.checked}" + (f" ({r.wrong} WRONG)" if r.wrong else "") + " | "
            f"{_rate(r.hz)} | {_time(r.mean_seconds)} | {_time(r.max_seconds)} | "
            f"{r.nodes_50:,} | {r.nodes_90:,} | {r.nodes_99:,} | {r.nodes_max:,} | "
            f"{r.guesses_mean:,.1f} |"
        )
        if restarting:
            line += f" {r.restarts:,} ({r.restart_after:,}) |" if r.restart_after else " - |"
        lines.append(line)
    return "\n".join(lines)


@dataclass
class RandomReport:
    """The random-puzzle experiment: what N random puzzles turned out to be."""

    n: int
    clues: int
    algorithm: str
    order: str
    seed: int
    geometry: Geometry
    solutions: dict[str, int] = field(default_factory=lambda: {"0": 0, "1": 0, "2+": 0})
    gave_up: int = 0
    checked: int = 0
    wrong: int = 0
    restarts: int = 0
    largest_tree: int = 0
    largest_tree_puzzle: str = ""
    slowest: float = 0.0
    slowest_puzzle: str = ""
    solve_seconds: float = 0.0
    max_by_n: list[tuple[int, float, int]] = field(default_factory=list)
    run_seconds: float = 0.0
    restart_after: int = 0  # the search's restarts (see lab.run_many); 0: none


def random_experiment(
    n: int,
    *,
    clues: int | None = None,
    size: int = 9,
    algorithm: str = "ac+dual",
    order: str | None = None,
    value_order: str = "first",
    budget: int | None = lab.DEFAULT_BUDGET,
    seconds: float | None = None,
    seed: int = 0,
    restart_after: int | None = None,
    threads: int | None = None,
    verify: bool = True,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
) -> RandomReport:
    """Make n random puzzles (the essay's recipe), count each to 2 with one algorithm.

    Every count is checked against the main engine's (when `verify`); the report keeps
    the shares of 0 / 1 / 2+ solutions, the largest search tree and the slowest puzzle
    with their puzzles, and the slowest time among the first 10, 100, 1000, ... puzzles.
    Puzzles are made, solved and checked in blocks of RANDOM_BLOCK, so memory stays small.
    """
    began = time.perf_counter()
    plan = lab.make_plan(algorithm, order, value_order, 2, budget, seconds, seed, restart_after)
    geometry = geometry_for(size, box, alphabet)  # `alphabet`: the symbols puzzles are shown in
    box = (geometry.box_rows, geometry.box_cols)
    clues = lab.default_clues(geometry) if clues is None else clues
    report = RandomReport(n, clues, plan.algorithm, plan.order, seed, geometry)
    report.restart_after = plan.restart_after
    checkpoints = [10**k for k in range(1, 20) if 10**k <= n]
    if n not in checkpoints and n > 0:
        checkpoints.append(n)
    cells = geometry.cells
    slowest_so_far = 0.0
    done = 0
    while done < n:
        block = min(RANDOM_BLOCK, n - done)
        _, grids, restarts = lab.random_grids(
            block, clues=clues, size=size, box=box, seed=_block_seed(seed, done), threads=threads
        )
        report.restarts += sum(restarts)
        batch = lab.run_grids(geometry, grids, block, plan, threads=threads)
        if verify:
            verdict = lab.verify_batch(batch, grids, 2, None)
            report.checked += verdict.checked
            report.wrong += len(verdict.wrong)
        for i in range(block):
            if batch.statuses[i]:
                report.gave_up += 1
            else:
                report.solutions[("0", "1", "2+")[batch.counts[i]]] += 1
            seconds_i = batch.nanos[i] / 1e9
            report.solve_seconds += seconds_i
            if batch.nodes[i] > report.largest_tree:
                report.largest_tree = batch.nodes[i]
                report.largest_tree_puzzle = format_values(
                    grids[i * cells : (i + 1) * cells], geometry
                )
            if seconds_i > slowest_so_far:
                slowest_so_far = seconds_i
                report.slowest = seconds_i
                report.slowest_puzzle = format_values(grids[i * cells : (i + 1) * cells], geometry)
            while checkpoints and done + i + 1 == checkpoints[0]:
                report.max_by_n.append((checkpoints.pop(0), slowest_so_far, report.largest_tree))
        done += block
    report.run_seconds = time.perf_counter() - began
    return report


def _block_seed(seed: int, start: int) -> int:
    """The seed of the block of random puzzles that starts at `start` (0 for the first)."""
    return seed if start == 0 else (seed * 1_000_003 + start) & (2**64 - 1)


def _other_box(geometry: Geometry) -> str:
    """' (3x2 boxes)' when the boxes are not the size's default shape, else ''."""
    return "" if geometry.default_boxes else f" ({geometry.box_rows}x{geometry.box_cols} boxes)"


def format_random_report(report: RandomReport) -> str:
    """The experiment as Markdown tables."""
    g = report.geometry
    total = max(1, report.n)
    share = {k: f"{v:,} ({100 * v / total:.3g}%)" for k, v in report.solutions.items()}
    restarts = ""
    if report.restart_after:
        restarts = f", search restarts after {report.restart_after:,} nodes"
    lines = [
        f"random puzzles: {report.n:,} {g.size}x{g.size}{_other_box(g)} with >= "
        f"{report.clues} clues "
        f"(seed {report.seed}), counted to 2 by {report.algorithm} ({report.order}{restarts})",
        "",
        "| N | 0 solutions | 1 solution | 2+ solutions | gave up | verified | restarts |",
        "|---|---|---|---|---|---|---|",
        f"| {report.n:,} | {share['0']} | {share['1']} | {share['2+']} | {report.gave_up:,} | "
        f"{report.checked:,}" + (f" ({report.wrong} WRONG)" if report.wrong else "") + " | "
        f"{report.restarts:,} |",
        "",
        "| puzzles so far | slowest | largest tree (nodes) |",
        "|---|---|---|",
    ]
    lines += [f"| {k:,} | {_time(t)} | {nodes:,} |" for k, t, nodes in report.max_by_n]
    mean = report.solve_seconds / total
    lines += [
        "",
        f"largest tree: {report.largest_tree:,} nodes: {report.largest_tree_puzzle}",
        f"slowest: {_time(report.slowest)}: {report.slowest_puzzle}",
        f"mean solving time {_time(mean)} ({_rate(1 / mean if mean else math.inf)} Hz, one "
        f"thread); whole run (make, solve, verify) {report.run_seconds:.1f} s",
    ]
    return "\n".join(lines)


# ------------------------------------------------------------------ the command
