"""Search statistics: per-puzzle guesses, search-tree size and time, and their summary.

`solve_stats` solves a batch with per-puzzle timing and returns a `Stats` holding the
per-puzzle figures; `Stats.summary()` condenses them into a `Summary`: puzzles/s, mean,
standard deviation and maximum time per puzzle, the share solved without guessing,
guesses per puzzle, search-tree size percentiles, and the maximum time as the number of
puzzles grows. `StatsBuilder` computes the same `Summary` batch by batch, so a file of
any size can be summarised in flat memory.

Definitions:

* **time** of a puzzle: the CPU time the engine's thread spent on it (nanoseconds), so
  time the thread waited while the machine ran other work does not count; parsing and
  thread hand-off are not included. Windows has no fine-grained thread CPU clock, so
  there it is the wall time of the engine's work on the puzzle. Reading that clock is a
  system call on Linux, so a chunk of puzzles is timed on the monotonic clock and solved
  again on the CPU clock only when its thread was preempted (see `_engine/run.py`, `_timed`).
* **puzzles/s**: puzzles divided by the wall time of the engine runs (all threads).
* **unknown**: puzzles whose search ran out of its node budget (`max_nodes`, grids other
  than 9x9 only) before it was decided; they count as neither solved nor unsolvable.
* **guesses**: branch trials the search made while other candidates were still open;
  a puzzle solved by propagation alone has 0.
* **search-tree size (nodes)**: states the search visited, the root included, so a
  puzzle solved without guessing has 1.
* **percentiles** use the nearest-rank rule: the p-th percentile of n values is the
  value of rank ceil(p/100 * n) in ascending order (rank 1 for p = 0), always one of
  the values; the 100th percentile is the maximum.
* **standard deviation** is the population one (divide by n).
"""

from __future__ import annotations

import math
import operator
import re
import time
from array import array
from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field

from ._base.checks import DEFAULT_MAX_NODES, node_budget
from ._base.columns import ItemErrors, check_item_errors
from ._base.errors import SearchLimitExceeded, item_index
from ._base.percentiles import percentile_rank
from ._columns.forgiving import screen, warn_item_errors
from ._columns.inputs import as_list
from ._engine.encode import decode_solutions, encode_texts
from ._engine.results import EngineResults
from ._engine.run import raise_if_undecided, run_engine

PERCENTILES: tuple[float, ...] = (1, 10, 25, 50, 75, 90, 99, 99.9, 100)

# Time histogram bins: BINS_PER_OCTAVE bins per doubling of the time.
BINS_PER_OCTAVE = 4


def nearest_rank(sorted_counts: Sequence[tuple[int, int]], total: int, percent: float) -> int:
    """The nearest-rank percentile of a distribution given as sorted (value, count) pairs."""
    rank = percentile_rank(total, percent)
    seen = 0
    for value, count in sorted_counts:
        seen += count
        if seen >= rank:
            return value
    return sorted_counts[-1][0]


def time_bin(nanos: int) -> int:
    """The histogram bin of a time: bin b covers [2**(b/4), 2**((b+1)/4)) nanoseconds."""
    return math.floor(math.log2(max(nanos, 1)) * BINS_PER_OCTAVE)


@dataclass(frozen=True)
class Summary:
    """The statistics of a set of puzzles; see the module docstring for definitions.

    Times are in microseconds. `node_percentiles` pairs each percentile of `PERCENTILES`
    with its search-tree size; `max_us_by_count` pairs a number of puzzles N (1, 10, 100,
    ... and the total) with the maximum time over the first N puzzles, in input order;
    `time_histogram` lists (low_us, high_us, puzzles) bins with equal width on a log
    scale; `unknown` counts the puzzles left undecided by the node budget.

    Made by `Stats.summary` and `StatsBuilder.summary`.

    Parameters
    ----------
    puzzles, threads : int
        Puzzles summed up, and the threads the engine ran on.
    seconds : float
        Engine wall time.
    solved, solved_without_guessing : int
        Puzzles solved, and those solved by propagation alone.
    mean_us, stddev_us, max_us : float
        Time per puzzle, in microseconds.
    guesses_per_puzzle, nodes_per_puzzle : float
        Mean guesses and search-tree size.
    node_percentiles : tuple of (float, int)
        (percentile, search-tree size), nearest rank.
    max_us_by_count : tuple of (int, float)
        (N, maximum time over the first N puzzles).
    time_histogram : tuple of (float, float, int)
        (low_us, high_us, puzzles) bins on a log scale.
    unknown : int, default 0
        Puzzles left undecided by the node budget.

    Attributes
    ----------
    puzzles_per_second : float
        Puzzles per second of engine wall time.
    no_solution : int
        Puzzles found to have no solution.
    percent_without_guessing : float
        Share of all puzzles solved by propagation alone, in percent.

    Examples
    --------
    >>> import sudoku_fast as sf
    >>> s = sf.solve_stats(["1.3..4.........2"] * 3, threads=1).summary()
    >>> s.puzzles, s.solved, s.percent_without_guessing
    (3, 3, 100.0)
    """

    puzzles: int
    threads: int
    seconds: float
    solved: int
    solved_without_guessing: int
    mean_us: float
    stddev_us: float
    max_us: float
    guesses_per_puzzle: float
    nodes_per_puzzle: float
    node_percentiles: tuple[tuple[float, int], ...]
    max_us_by_count: tuple[tuple[int, float], ...]
    time_histogram: tuple[tuple[float, float, int], ...] = field(repr=False)
    unknown: int = 0

    @property
    def puzzles_per_second(self) -> float:
        """Puzzles per second of engine wall time (0.0 when nothing was timed)."""
        return self.puzzles / self.seconds if self.seconds > 0 else 0.0

    @property
    def no_solution(self) -> int:
        """Puzzles found to have no solution."""
        return self.puzzles - self.solved - self.unknown

    @property
    def percent_without_guessing(self) -> float:
        """Share of all puzzles solved by propagation alone, in percent."""
        return 100.0 * self.solved_without_guessing / self.puzzles if self.puzzles else 0.0


class StatsBuilder:
    """Accumulates per-puzzle engine figures batch by batch into one `Summary`.

    Memory stays small whatever the number of puzzles: search-tree sizes are kept as a
    histogram of exact values (percentiles stay exact), times as exact integer sums and
    a log-scale histogram. `sudoku-fast stats` summarises files of any size this way.

    Examples
    --------
    >>> from sudoku_fast.stats import StatsBuilder
    >>> import sudoku_fast as sf
    >>> builder = StatsBuilder()
    >>> for batch in (["1.3..4.........2"] * 2, ["." * 16]):
    ...     stats = sf.solve_stats(batch, threads=1)
    ...     builder.add(stats.counts, stats.guesses, stats.nodes, stats.nanos, stats.seconds, 1)
    >>> builder.summary().puzzles
    3
    """

    def __init__(self) -> None:
        """An empty builder."""
        self._puzzles = 0
        self._threads = 0
        self._seconds = 0.0
        self._solved = 0
        self._unknown = 0
        self._without_guessing = 0
        self._guesses = 0
        self._nodes = 0
        self._nanos = 0
        self._nanos_squared = 0
        self._max_nanos = 0
        self._node_counts: Counter[int] = Counter()
        self._time_bins: Counter[int] = Counter()
        self._max_by_count: list[tuple[int, int]] = []

    def add(
        self,
        counts: Sequence[int],
        guesses: Sequence[int],
        nodes: Sequence[int],
        nanos: Sequence[int],
        seconds: float,
        threads: int,
    ) -> None:
        """Add a batch: per-puzzle solution counts, guesses, nodes and times (ns).

        A count of -1 marks a puzzle the node budget left undecided.

        `seconds` is the batch's engine wall time and `threads` the threads it used.
        """
        n = len(counts)
        if not n == len(guesses) == len(nodes) == len(nanos):
            raise ValueError("per-puzzle sequences differ in length")
        for checkpoint in _powers_of_ten_in(self._puzzles, self._puzzles + n):
            prefix = nanos[: checkpoint - self._puzzles]
            self._max_by_count.append((checkpoint, max(self._max_nanos, max(prefix))))
        self._puzzles += n
        self._threads = max(self._threads, threads)
        self._seconds += seconds
        unknown = sum(1 for c in counts if c < 0)
        self._unknown += unknown
        self._solved += n - counts.count(0) - unknown
        self._without_guessing += sum(
            1 for c, g in zip(counts, guesses, strict=True) if c > 0 and not g
        )
        self._guesses += sum(guesses)
        self._nodes += sum(nodes)
        self._nanos += sum(nanos)
        self._nanos_squared += sum(map(operator.mul, nanos, nanos))
        if n:
            self._max_nanos = max(self._max_nanos, max(nanos))
        self._node_counts.update(nodes)
        self._time_bins.update(map(time_bin, nanos))

    def add_results(self, results: EngineResults, seconds: float) -> None:
        """Add the output of a timed `run_engine` call that took `seconds` of wall time."""
        if results.nanos is None:
            raise ValueError("the engine results carry no times (run it with timed=True)")
        self.add(
            results.counts, results.guesses, results.nodes, results.nanos, seconds, results.threads
        )

    def summary(self) -> Summary:
        """The summary of everything added so far."""
        n = self._puzzles
        if n == 0:
            return Summary(
                0, self._threads, self._seconds, 0, 0, 0.0, 0.0, 0.0, 0.0, 0.0, (), (), (), 0
            )
        mean = self._nanos / n
        variance = (self._nanos_squared * n - self._nanos * self._nanos) / (n * n)
        node_values = sorted(self._node_counts.items())
        max_by_count = list(self._max_by_count)
        if not max_by_count or max_by_count[-1][0] != n:
            max_by_count.append((n, self._max_nanos))
        histogram = tuple(
            (
                2 ** (b / BINS_PER_OCTAVE) / 1000,
                2 ** ((b + 1) / BINS_PER_OCTAVE) / 1000,
                count,
            )
            for b, count in sorted(self._time_bins.items())
        )
        return Summary(
            puzzles=n,
            threads=self._threads,
            seconds=self._seconds,
            solved=self._solved,
            solved_without_guessing=self._without_guessing,
            mean_us=mean / 1000,
            stddev_us=math.sqrt(max(variance, 0.0)) / 1000,
            max_us=self._max_nanos / 1000,
            guesses_per_puzzle=self._guesses / n,
            nodes_per_puzzle=self._nodes / n,
            node_percentiles=tuple((p, nearest_rank(node_values, n, p)) for p in PERCENTILES),
            max_us_by_count=tuple((count, nanos / 1000) for count, nanos in max_by_count),
            time_histogram=histogram,
            unknown=self._unknown,
        )


def _powers_of_ten_in(done: int, upto: int) -> list[int]:
    """The powers of ten N with done < N <= upto."""
    found = []
    power = 1
    while power <= upto:
        if power > done:
            found.append(power)
        power *= 10
    return found


@dataclass(frozen=True)
class Stats:
    """Per-puzzle figures of one `solve_stats` run, in input order.

    `solutions[i]` is the solution found (None when there is none); `counts[i]` the
    number of solutions found, capped at the limit (-1 where the node budget ran out,
    or where the item did not read and was answered as missing: see `missing`);
    `guesses[i]`, `nodes[i]` (search-tree size) and `nanos[i]` (engine time in
    nanoseconds) its search figures. `seconds` is the wall time of the engine run and
    `threads` the threads it used. The arrays are `array.array` objects;
    `numpy.asarray` wraps them without a copy.

    Parameters
    ----------
    solutions : list of (str or None)
        The solution found per puzzle.
    counts, guesses, nodes, nanos : array.array of int
        Per puzzle: solutions found (capped at the limit; -1: budget ran out), guesses,
        search-tree size, engine time in nanoseconds.
    seconds : float
        Wall time of the engine run.
    threads : int
        Threads the run used.
    missing : tuple of int, default ()
        Positions of the items that did not read (malformed or null) and were answered
        as missing (`solve_stats(..., on_error="none")`): their solution is None, their
        count -1 and their figures 0; `summary()` leaves them out.

    Examples
    --------
    >>> import sudoku_fast as sf
    >>> stats = sf.solve_stats(["1.3..4.........2", "." * 16], threads=1, limit=2)
    >>> list(stats.counts), stats.solutions[0]
    ([1, 2], '1234342121434312')
    """

    solutions: list[str | None]
    counts: array[int]
    guesses: array[int]
    nodes: array[int]
    nanos: array[int]
    seconds: float
    threads: int
    missing: tuple[int, ...] = ()

    def summary(self) -> Summary:
        """Puzzles/s, time, guessing and search-tree size statistics of this run (of the
        items that were read: those in `missing` are left out)."""
        builder = StatsBuilder()
        columns: list[Sequence[int]] = [self.counts, self.guesses, self.nodes, self.nanos]
        if self.missing:
            left_out = set(self.missing)
            rows = [i for i in range(len(self.counts)) if i not in left_out]
            columns = [[column[i] for i in rows] for column in columns]
        counts, guesses, nodes, nanos = columns
        builder.add(counts, guesses, nodes, nanos, self.seconds, self.threads)
        return builder.summary()


def solve_stats(
    puzzles: Iterable[str],
    *,
    threads: int | None = None,
    limit: int = 1,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    on_error: ItemErrors = "raise",
) -> Stats:
    """Solve a batch like `solve_many`, timing every puzzle and keeping its search figures.

    The time of a puzzle is the CPU time its worker thread spent in the engine on it
    (the wall time on Windows).

    Parameters
    ----------
    puzzles : iterable of str
        Strings in any notation and size `parse` accepts, all of one size: `box` /
        `alphabet` fix it, else the first puzzle decides.
    threads : int or None, default None
        As in `solve_many`.
    limit : int, default 1
        1 stops at the first solution, as `solve_many` does; a higher limit counts
        solutions up to it (the search then explores further, which shows in the
        figures).
    box, alphabet, max_nodes
        As in `solve_many`.
    on_error : {"raise", "none", "warn"}, default "raise"
        A malformed or null item: "raise" raises as below; "none" answers it as missing
        (its position in `Stats.missing`, left out of the summary) and times the
        others alone; "warn" does the same and issues an `ItemErrorsWarning` with the
        reasons.

    Returns
    -------
    Stats
        The solutions and per-puzzle figures; `summary()` sums them up.

    Raises
    ------
    ValueError
        A malformed item, naming its index, before any solving starts.
    TypeError
        An item that is not a str, naming its index.
    SearchLimitExceeded
        Some puzzles ran out of `max_nodes`; its `partial` is the `Stats`.

    Examples
    --------
    >>> import sudoku_fast as sf
    >>> from sudoku_fast.datasets import load_embedded
    >>> stats = sf.solve_stats(load_embedded("norvig_top95"), threads=1)
    >>> summary = stats.summary()
    >>> summary.puzzles, summary.solved
    (95, 95)
    """
    budget = node_budget(max_nodes)
    mode = check_item_errors(on_error)
    items = as_list(puzzles, "solve_stats")
    good: list[int] | None = None  # positions of the items read, when some were not
    try:
        geometry, grids = encode_texts(items, box, alphabet)
    except (ValueError, TypeError) as err:
        if mode == "raise" or item_index(err) is None:
            raise
        _labels, _items, bad = screen(items, "solve_stats", box, alphabet)
        good = [i for i in range(len(items)) if i not in bad]
        geometry, grids = encode_texts([items[i] for i in good], box, alphabet)
        if mode == "warn":
            positions = sorted(bad)
            errors: dict[Hashable, str] = {i: bad[i] for i in positions}
            warn_item_errors("solve_stats", errors, positions, len(items), stacklevel=3)
    n = len(items) if good is None else len(good)
    start = time.perf_counter()
    results = run_engine(grids, n, limit, threads, timed=True, geometry=geometry, max_nodes=budget)
    seconds = time.perf_counter() - start
    assert results.nanos is not None
    solutions = decode_solutions(results)
    columns = [results.counts, results.guesses, results.nodes, results.nanos]
    missing: tuple[int, ...] = ()
    if good is not None:  # spread the answers back to the input's positions
        missing = tuple(i for i in range(len(items)) if i not in set(good))
        full: list[str | None] = [None] * len(items)
        spread = [array(column.typecode, bytes(column.itemsize * len(items))) for column in columns]
        spread[0] = array("i", [-1]) * len(items)
        for j, i in enumerate(good):
            full[i] = solutions[j]
            for column, values in zip(spread, columns, strict=True):
                column[i] = values[j]
        solutions, columns = full, spread
    stats = Stats(
        solutions=solutions,
        counts=columns[0],
        guesses=columns[1],
        nodes=columns[2],
        nanos=columns[3],
        seconds=seconds,
        threads=results.threads,
        missing=missing,
    )
    try:
        raise_if_undecided(results, stats, max_nodes)
    except SearchLimitExceeded as err:
        if good is None:
            raise
        # Positions among the items read, told as positions in the input.
        message = re.sub(
            r"\bpuzzle (\d+)", lambda m: f"puzzle {good[int(m[1])]}", str(err), count=1
        )
        raise SearchLimitExceeded(message, [good[i] for i in err.indices], stats) from None
    return stats
