"""The algorithm lab: the classic Sudoku search algorithms side by side, on every grid size.

Each algorithm is a strategy behind one interface: `solve` (first solution), `count`
(solutions up to a limit) and `run_many` (a batch on threads), all returning the same
`LabResult` with the search figures (nodes, guesses, seconds) and whether a budget ran
out. The algorithms (`ALGORITHMS`):

=============== ==============================================================
comb            generate and test: every filling of the empty cells, checked
                only when complete (it cannot finish a real puzzle: budget)
backtracking    depth-first search checking each value against filled peers
fc              forward checking: a value leaves the domains of open peers
ac              arc consistency: a single-valued cell clears its peers
ac+dual         ac + dual consistency (a value with one place in a unit goes
                there: hidden singles); the essay's own solver
ac+dual+np      ac+dual + naked pairs
ac3             forward checking, then the AC-3 arc queue (same fixpoint as ac)
dlx             Knuth's Algorithm X on dancing links (exact cover)
=============== ==============================================================

Search algorithms take a variable order (`VARIABLE_ORDERS`: `first` cell, `minrv`
fewest values, `maxrv` most values, `random`) and a value order (`VALUE_ORDERS`:
`first` lowest value, `most` or `least` constraining, i.e. removing that value from the
most / fewest open peers, `random`). For dlx the variable order picks the exact-cover
column (minrv is Knuth's rule) and only `first` and `random` value orders apply; comb
has no orders. Random orders draw from a seeded generator per puzzle, so every run is
reproducible.

The compiled side (`_lab.pyx`) runs the tables; `_lab_py.py` is its slow pure-Python
twin (the same functions), selected with `implementation="python"`. Every answer can be
checked against the main engine with `verify`.

>>> from sudoku_fast import lab
>>> p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
>>> r = lab.solve(p, "dlx")
>>> r.count, r.solution[:9], r.gave_up
(1, '417369825', None)
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from .._base.grid import Geometry, format_values, geometry_for, is_solution
from .._base.options import Algorithm, Implementation, ValueOrder, VariableOrder
from .._engine.encode import encode_texts
from .._engine.run import run_engine, shared_buffers
from .._parallel.fanout import run_chunks
from .._parallel.threads import resolve_threads
from ..solving import count_many
from . import _lab
from . import _lab_py as lab_reference

ALGORITHMS: tuple[str, ...] = (
    "comb",
    "backtracking",
    "fc",
    "ac",
    "ac+dual",
    "ac+dual+np",
    "ac3",
    "dlx",
)
VARIABLE_ORDERS: tuple[str, ...] = ("first", "minrv", "maxrv", "random")
VALUE_ORDERS: tuple[str, ...] = ("first", "most", "least", "random")
IMPLEMENTATIONS: tuple[str, ...] = ("compiled", "python")

# The variable order each algorithm uses unless told otherwise: cell order for the two
# blind methods, MinRV (the essay's choice, Knuth's for dlx) for the others.
DEFAULT_ORDER: dict[str, str] = {
    "comb": "first",
    "backtracking": "first",
    "fc": "minrv",
    "ac": "minrv",
    "ac+dual": "minrv",
    "ac+dual+np": "minrv",
    "ac3": "minrv",
    "dlx": "minrv",
}
DEFAULT_BUDGET = 1_000_000  # search nodes per puzzle; None for no budget
MAX_BUDGET = 2**63 - 1
MAX_LIMIT = 2**31 - 1
_GAVE_UP = {1: "nodes", 2: "seconds", 3: "stopped"}


@dataclass(frozen=True)
class LabResult:
    """What one algorithm found on one puzzle.

    `count` is the number of solutions found, up to the limit asked for; when
    `gave_up` is set ("nodes" or "seconds": that budget ran out) it is only a lower
    bound and `solution` may be None although one exists. `nodes` is the size of the
    search tree (the root included; for comb, the complete grids tested plus one),
    `guesses` the branch trials made while other alternatives were still open,
    `seconds` the CPU time of the solving thread (wall time on platforms
    without a thread CPU clock). With restarts (`restart_after`), `nodes`, `guesses`
    and `seconds` are totals over all runs and `restarts` says how many runs were cut
    short and begun again.

    Parameters
    ----------
    algorithm, order, value_order : str
        What ran.
    solution : str or None
        The first solution found.
    count : int
        Solutions found, up to the limit.
    nodes, guesses : int
        Search-tree size and branch trials.
    seconds : float
        CPU time of the solving thread.
    gave_up : {None, "nodes", "seconds"}
        The budget that ran out, if any.
    restarts : int, default 0
        Runs cut short and begun again.

    Examples
    --------
    >>> from sudoku_fast import lab
    >>> r = lab.count("1.3..4.........2", "dlx")
    >>> r.count, r.answered
    (1, True)
    """

    algorithm: str
    order: str
    value_order: str
    solution: str | None
    count: int
    nodes: int
    guesses: int
    seconds: float
    gave_up: str | None
    restarts: int = 0

    @property
    def answered(self) -> bool:
        """True when the result is complete (no budget ran out)."""
        return self.gave_up is None


@dataclass(frozen=True)
class Plan:
    """Validated options of a lab run, as the codes both implementations take."""

    algorithm: str
    order: str
    value_order: str
    codes: tuple[int, int, int]
    limit: int
    max_nodes: int
    max_seconds: float
    seed: int
    restart_after: int = 0  # 0: one run


def make_plan(
    algorithm: object,
    order: object,
    value_order: object,
    limit: object,
    budget: object,
    seconds: object,
    seed: object,
    restart_after: object = None,
) -> Plan:
    """The options checked (TypeError / ValueError saying what is wrong) and encoded."""
    if not isinstance(algorithm, str):
        raise TypeError(f"algorithm must be a str, not {type(algorithm).__name__}")
    if algorithm not in ALGORITHMS:
        raise ValueError(f"unknown algorithm {algorithm!r}; choose from {', '.join(ALGORITHMS)}")
    if order is None:
        order = DEFAULT_ORDER[algorithm]
    for name, value, choices in (
        ("order", order, VARIABLE_ORDERS),
        ("value_order", value_order, VALUE_ORDERS),
    ):
        if not isinstance(value, str):
            raise TypeError(f"{name} must be a str, not {type(value).__name__}")
        if value not in choices:
            raise ValueError(f"unknown {name} {value!r}; choose from {', '.join(choices)}")
    assert isinstance(order, str) and isinstance(value_order, str)
    if algorithm == "comb" and (order, value_order) != ("first", "first"):
        raise ValueError("comb (generate and test) has no orders: use order='first'")
    if algorithm == "dlx" and value_order not in ("first", "random"):
        raise ValueError(
            f"dlx picks rows of an exact-cover column: value_order 'first' or 'random', "
            f"not {value_order!r}"
        )
    if isinstance(limit, bool) or not isinstance(limit, int):
        raise TypeError(f"limit must be an int, not {type(limit).__name__}")
    if not 1 <= limit <= MAX_LIMIT:
        raise ValueError(f"limit must be from 1 to {MAX_LIMIT}, got {limit}")
    if budget is None:
        max_nodes = 0
    elif isinstance(budget, bool) or not isinstance(budget, int):
        raise TypeError(
            f"budget must be an int (search nodes) or None, not {type(budget).__name__}"
        )
    elif not 1 <= budget <= MAX_BUDGET:
        raise ValueError(f"budget must be from 1 to {MAX_BUDGET} nodes, or None; got {budget}")
    else:
        max_nodes = budget
    if seconds is None:
        max_seconds = 0.0
    elif isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
        raise TypeError(f"seconds must be a number or None, not {type(seconds).__name__}")
    elif not (seconds > 0 and math.isfinite(seconds)):
        raise ValueError(f"seconds must be a positive finite number, or None; got {seconds}")
    else:
        max_seconds = float(seconds)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be an int, not {type(seed).__name__}")
    cutoff = _restart_cutoff(restart_after, order, value_order)
    codes = (
        ALGORITHMS.index(algorithm),
        VARIABLE_ORDERS.index(order),
        VALUE_ORDERS.index(value_order),
    )
    return Plan(algorithm, order, value_order, codes, limit, max_nodes, max_seconds, seed, cutoff)


def _restart_cutoff(restart_after: object, order: str, value_order: str) -> int:
    """`restart_after` checked: the node budget of the first run, 0 for no restarts."""
    if restart_after is None:
        return 0
    if isinstance(restart_after, bool) or not isinstance(restart_after, int):
        raise TypeError(
            f"restart_after must be an int (search nodes) or None, "
            f"not {type(restart_after).__name__}"
        )
    if not 1 <= restart_after <= MAX_BUDGET:
        raise ValueError(
            f"restart_after must be from 1 to {MAX_BUDGET} nodes, or None; got {restart_after}"
        )
    if "random" not in (order, value_order):
        # With no random choice every run would repeat the first one.
        raise ValueError(
            "restarts need a random order (order='random' or value_order='random'): "
            "otherwise every run repeats the first"
        )
    return restart_after


def tables_for(geometry: Geometry) -> _lab.Tables:
    """The compiled peer and unit tables of a geometry (built once, then shared)."""
    tables: _lab.Tables = _tables(_lab, geometry)
    return tables


@lru_cache(maxsize=64)
def _tables(side: Any, geometry: Geometry) -> Any:
    """The tables of a geometry for one side: `_lab` or its twin."""
    return side.Tables(geometry.size, geometry.peers, geometry.units)


@dataclass
class LabBatch:
    """Raw results of a batch, in input order (arrays, for millions of puzzles)."""

    geometry: Geometry
    n: int
    solutions: bytearray
    counts: array[int]
    statuses: array[int]
    nodes: array[int]
    guesses: array[int]
    nanos: array[int]
    restarts: array[int]

    def result(self, i: int, plan: Plan) -> LabResult:
        """Puzzle i's result as a LabResult."""
        cells = self.geometry.cells
        count = self.counts[i]
        solution = None
        if count > 0:
            solution = format_values(self.solutions[i * cells : (i + 1) * cells], self.geometry)
        return LabResult(
            plan.algorithm,
            plan.order,
            plan.value_order,
            solution,
            count,
            self.nodes[i],
            self.guesses[i],
            self.nanos[i] / 1e9,
            _GAVE_UP.get(self.statuses[i]),
            self.restarts[i],
        )


def _new_batch(geometry: Geometry, n: int) -> LabBatch:
    return LabBatch(
        geometry,
        n,
        bytearray(n * geometry.cells),
        array("i", bytes(4 * n)),
        array("B", bytes(n)),
        array("q", bytes(8 * n)),
        array("q", bytes(8 * n)),
        array("q", bytes(8 * n)),
        array("i", bytes(4 * n)),
    )


def run_grids(
    geometry: Geometry,
    grids: Any,
    n: int,
    plan: Plan,
    *,
    threads: int | None = 1,
    implementation: Implementation = "compiled",
) -> LabBatch:
    """Run a plan over n encoded grids (N*N values each, 0 = empty) on threads."""
    if implementation not in IMPLEMENTATIONS:
        raise ValueError(
            f"implementation must be one of {', '.join(IMPLEMENTATIONS)}, not {implementation!r}"
        )
    out = _new_batch(geometry, n)
    seed = plan.seed & (2**64 - 1)
    # The compiled side, or its pure-Python twin: the same function on the same buffers
    # (the twin runs serially: its puzzles are timed one by one on this thread).
    side: Any = _lab if implementation == "compiled" else lab_reference
    tables = _tables(side, geometry)
    if side is lab_reference:
        threads = 1
    stop_flag = bytearray(1)
    max_nanos = int(plan.max_seconds * 1e9)

    workers = resolve_threads(threads)
    views = shared_buffers(
        workers,
        grids,
        out.solutions,
        out.counts,
        out.statuses,
        out.nodes,
        out.guesses,
        out.nanos,
        stop_flag,
        out.restarts,
    )
    grids_v, solutions, counts, statuses, nodes, guesses, nanos, stop_v, restarts = views

    def work(start: int, stop: int) -> None:
        side.solve_range(
            tables,
            grids_v,
            solutions,
            counts,
            statuses,
            nodes,
            guesses,
            nanos,
            start,
            stop,
            *plan.codes,
            plan.limit,
            plan.max_nodes,
            max_nanos,
            seed,
            stop_v,
            plan.restart_after,
            restarts,
        )

    def abort() -> None:
        stop_flag[0] = 1

    run_chunks(n, workers, 1, work, on_abort=abort, max_chunk=64)
    return out


def run_many(
    puzzles: Iterable[str],
    algorithm: Algorithm = "ac+dual",
    *,
    limit: int = 1,
    order: VariableOrder | None = None,
    value_order: ValueOrder = "first",
    budget: int | None = DEFAULT_BUDGET,
    seconds: float | None = None,
    seed: int = 0,
    restart_after: int | None = None,
    threads: int | None = 1,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    implementation: Implementation = "compiled",
) -> list[LabResult]:
    """Run one algorithm over a batch of puzzles of one size, in input order.

    `limit=1` solves (first solution), a higher limit counts up to it. `budget` caps
    the search nodes of each puzzle and `seconds` its time; a puzzle that runs out
    gets `gave_up` set, never an exception. Puzzle i's random orders use the sequence
    seeded with (`seed`, i). `threads` as in `solve_many` (default 1: timings of one
    thread). Malformed puzzles raise ValueError / TypeError naming the index.

    `restart_after` (search nodes; needs a random order) solves each puzzle in runs
    that are cut short and begun again, with the random choices going on from run to
    run: run k may take `restart_after` times the k-th term of Luby's sequence
    (1, 1, 2, 1, 1, 2, 4, ...) nodes, and `budget` / `seconds` bound all runs together.
    A run that ends within its nodes answers; so do distinct solutions of runs cut
    short once there are `limit` of them. It finds solutions where one run gets lost
    in a large subtree without any (a count to 2 of a puzzle with several solutions);
    proving that there is none or only one still takes a complete tree.

    Parameters
    ----------
    puzzles : iterable of str
        Puzzles of one size, in any notation `parse` accepts.
    algorithm : str, default "ac+dual"
        One of `ALGORITHMS`: "comb", "backtracking", "fc", "ac", "ac+dual",
        "ac+dual+np", "ac3", "dlx".
    limit : int, default 1
        1 solves (first solution); a higher limit counts up to it.
    order : {"first", "minrv", "maxrv", "random"}, optional
        The variable order; by default the algorithm's own (`DEFAULT_ORDER`).
    value_order : {"first", "most", "least", "random"}, default "first"
        The value order.
    budget : int or None
        Search nodes allowed per puzzle (None: no budget).
    seconds : float, optional
        Time allowed per puzzle.
    seed : int, default 0
        Puzzle i's random orders use the sequence seeded with (`seed`, i).
    restart_after : int, optional
        Restarts with Luby's sequence (needs a random order), as described above.
    threads : int or None, default 1
        As in `solve_many` (default: timings of one thread).
    box, alphabet : optional
        Fix the geometry, as in `parse`.
    implementation : {"compiled", "python"}, default "compiled"
        The compiled module or its pure-Python twin.

    Returns
    -------
    list of LabResult
        One result per puzzle, in input order; a puzzle that ran out of budget has
        `gave_up` set (never an exception).

    Raises
    ------
    ValueError
        A malformed puzzle (naming its index) or an unknown option.
    TypeError
        An option or item of the wrong type (a single str instead of an iterable too).

    Examples
    --------
    >>> from sudoku_fast import lab
    >>> puzzles = lab.random_puzzles(20, seed=1)
    >>> results = lab.run_many(puzzles, "backtracking", limit=2, order="minrv")
    >>> lab.verify(results, puzzles, limit=2).wrong
    ()
    """
    plan = make_plan(algorithm, order, value_order, limit, budget, seconds, seed, restart_after)
    if isinstance(puzzles, str):
        raise TypeError("run_many takes an iterable of puzzles, not a single str")
    items = list(puzzles)
    geometry, grids = encode_texts(items, box, alphabet)
    batch = run_grids(
        geometry, grids, len(items), plan, threads=threads, implementation=implementation
    )
    return [batch.result(i, plan) for i in range(len(items))]


def count(
    puzzle: str,
    algorithm: Algorithm = "ac+dual",
    limit: int = 2,
    *,
    order: VariableOrder | None = None,
    value_order: ValueOrder = "first",
    budget: int | None = DEFAULT_BUDGET,
    seconds: float | None = None,
    seed: int = 0,
    restart_after: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    implementation: Implementation = "compiled",
) -> LabResult:
    """Count a puzzle's solutions up to `limit` with one algorithm (see `run_many`).

    Parameters
    ----------
    puzzle : str
        The puzzle, in any notation `parse` accepts.
    algorithm : str, default "ac+dual"
        As in `run_many`.
    limit : int, default 2
        Count up to this many solutions.
    order, value_order, budget, seconds, seed, restart_after, box, alphabet, implementation
        As in `run_many`.

    Returns
    -------
    LabResult
        The count (a lower bound when `gave_up` is set), a solution and the search
        figures.

    Raises
    ------
    ValueError, TypeError
        A malformed puzzle or a bad option.

    Examples
    --------
    >>> from sudoku_fast import lab
    >>> lab.count("1234341221434321", "backtracking").count
    1
    >>> p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    >>> lab.count(p, "dlx", limit=2).count
    1
    """
    if not isinstance(puzzle, str):
        raise TypeError(f"puzzle must be a str, not {type(puzzle).__name__}")
    try:
        return run_many(
            [puzzle],
            algorithm,
            limit=limit,
            order=order,
            value_order=value_order,
            budget=budget,
            seconds=seconds,
            seed=seed,
            restart_after=restart_after,
            box=box,
            alphabet=alphabet,
            implementation=implementation,
        )[0]
    except ValueError as err:
        message = str(err)
        raise ValueError(message.removeprefix("puzzle 0: ")) from None


def solve(
    puzzle: str,
    algorithm: Algorithm = "ac+dual",
    *,
    order: VariableOrder | None = None,
    value_order: ValueOrder = "first",
    budget: int | None = DEFAULT_BUDGET,
    seconds: float | None = None,
    seed: int = 0,
    restart_after: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    implementation: Implementation = "compiled",
) -> LabResult:
    """Solve a puzzle with one algorithm: its first solution (`count` 1) or none (0).

    Parameters
    ----------
    puzzle : str
        The puzzle, in any notation `parse` accepts.
    algorithm : str, default "ac+dual"
        As in `run_many`.
    order, value_order, budget, seconds, seed, restart_after, box, alphabet, implementation
        As in `run_many`: the variable order (default: the algorithm's, see
        `DEFAULT_ORDER`), the value order, the search nodes allowed (None: no budget),
        the time allowed, the seed of random orders, restarts.

    Returns
    -------
    LabResult
        `count` 1 with the `solution`, or 0; `gave_up` says whether a budget ran out.

    Raises
    ------
    ValueError, TypeError
        A malformed puzzle or a bad option.

    Examples
    --------
    >>> from sudoku_fast import lab
    >>> p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    >>> r = lab.solve(p, "ac+dual", order="minrv", value_order="least")
    >>> r.count, r.gave_up
    (1, None)
    >>> lab.solve(p, "comb", budget=10_000).gave_up  # generate-and-test cannot finish
    'nodes'
    """
    return count(
        puzzle,
        algorithm,
        1,
        order=order,
        value_order=value_order,
        budget=budget,
        seconds=seconds,
        seed=seed,
        restart_after=restart_after,
        box=box,
        alphabet=alphabet,
        implementation=implementation,
    )


# ------------------------------------------------------------------ verification


@dataclass(frozen=True)
class Verdict:
    """How a batch of lab answers compares with the main engine.

    `checked` answers agree (same count, up to the limit; every solution passes the
    rules check of `grid.is_solution`); `gave_up` puzzles ran out of budget and are
    not judged; `wrong` lists the indices that disagree.

    Parameters
    ----------
    checked, gave_up : int
        Answers that agree, and puzzles not judged.
    wrong : tuple of int
        The indices that disagree.

    Examples
    --------
    See `verify`.
    """

    checked: int
    gave_up: int
    wrong: tuple[int, ...]


def verify_batch(batch: LabBatch, grids: Any, limit: int, puzzles: Sequence[str] | None) -> Verdict:
    """Compare a lab batch with the main engine's counts (and every solution with the rules).

    The engine counts each puzzle up to max(limit, 2); a lab count must equal
    min(engine count, limit). A solution is checked with the plain-Python rules check
    when `puzzles` (the texts) are given, else against the clues and units directly.
    """
    geometry = batch.geometry
    engine = run_engine(grids, batch.n, max(limit, 2), None, geometry=geometry, max_nodes=0)
    cells = geometry.cells
    wrong: list[int] = []
    gave_up = checked = 0
    for i in range(batch.n):
        if batch.statuses[i] != 0:
            gave_up += 1
            continue
        expected = min(engine.counts[i], limit)
        ok = batch.counts[i] == expected
        if ok and batch.counts[i] > 0:
            solution = batch.solutions[i * cells : (i + 1) * cells]
            if puzzles is not None:
                ok = is_solution(format_values(solution, geometry), puzzles[i])
            else:
                ok = _obeys_rules(geometry, grids[i * cells : (i + 1) * cells], solution)
        if ok:
            checked += 1
        else:
            wrong.append(i)
    return Verdict(checked, gave_up, tuple(wrong))


def _obeys_rules(geometry: Geometry, clues: Any, solution: Any) -> bool:
    """A complete grid that keeps the clues and fills every unit with 1..N."""
    every = set(range(1, geometry.size + 1))
    if any(c and c != s for c, s in zip(clues, solution, strict=True)):
        return False
    return all({solution[c] for c in unit} == every for unit in geometry.units)


def verify(results: Sequence[LabResult], puzzles: Sequence[str], limit: int = 1) -> Verdict:
    """Check the results of one `run_many(puzzles, ..., limit=limit)` call (see `Verdict`).

    The main engine counts every puzzle up to max(limit, 2); each answered result must
    report min(engine count, limit) and a solution that passes `grid.is_solution`.

    Parameters
    ----------
    results : sequence of LabResult
        The results of `run_many`.
    puzzles : sequence of str
        The puzzles they answer, in the same order.
    limit : int, default 1
        The limit `run_many` was called with.

    Returns
    -------
    Verdict
        How many agree, how many gave up, which are wrong.

    Raises
    ------
    ValueError
        A bad limit, or as many results as puzzles missing.
    TypeError
        A result that is not a LabResult.

    Examples
    --------
    >>> from sudoku_fast import lab
    >>> puzzles = lab.random_puzzles(10, seed=2)
    >>> verdict = lab.verify(lab.run_many(puzzles, "dlx"), puzzles)
    >>> verdict.checked + verdict.gave_up, verdict.wrong
    (10, ())
    """
    if isinstance(limit, bool) or not isinstance(limit, int):
        raise TypeError(f"limit must be an int, not {type(limit).__name__}")
    if limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit}")
    if len(results) != len(puzzles):
        raise ValueError(f"{len(results)} results for {len(puzzles)} puzzles")
    for i, result in enumerate(results):
        if not isinstance(result, LabResult):
            raise TypeError(f"result {i}: expected a LabResult, not {type(result).__name__}")
    engine = count_many(list(puzzles), limit=max(limit, 2), max_nodes=None, threads=1)
    wrong: list[int] = []
    gave_up = checked = 0
    for i, (result, puzzle) in enumerate(zip(results, puzzles, strict=True)):
        if result.gave_up is not None:
            gave_up += 1
            continue
        ok = result.count == min(engine[i], limit)
        if ok and result.count > 0:
            ok = result.solution is not None and is_solution(result.solution, puzzle)
        if ok:
            checked += 1
        else:
            wrong.append(i)
    return Verdict(checked, gave_up, tuple(wrong))


# ------------------------------------------------------------------ random puzzles


def _random_geometry(size: int, box: tuple[int, int] | None) -> Geometry:
    return geometry_for(size, box)


def default_clues(geometry: Geometry) -> int:
    """The essay's 17 clues for 9x9; the same share of the cells for other sizes."""
    return max(1, round(17 * geometry.cells / 81))


# Restarts after which `random_grids` gives a puzzle up: far more than 9x9 or 16x16
# ever need (a full 16x16 grid takes about 120 on average), so only requests the recipe
# almost never meets (a full 25x25 grid) end in an error instead of running for hours.
MAX_RESTARTS = 10_000


def random_grids(
    n: int,
    *,
    clues: int | None = None,
    size: int = 9,
    box: tuple[int, int] | None = None,
    seed: int = 0,
    threads: int | None = None,
    max_restarts: int = MAX_RESTARTS,
) -> tuple[Geometry, bytearray, array[int]]:
    """n random puzzles by the essay's recipe: (geometry, values buffer, restarts per puzzle).

    Cells are visited in random order and each gets a random value among those it
    still has, with ac+dual propagation; as soon as at least `clues` cells (default
    17 for 9x9, see `default_clues`) have a single value showing at least N-1
    different values, those cells are the puzzle. A contradiction starts that puzzle
    over. Such puzzles may have no, one or many solutions. A puzzle not made within
    `max_restarts` restarts raises ValueError naming it (ask for fewer clues, or allow
    more restarts); Ctrl-C stops the work.
    """
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"n must be an int, not {type(n).__name__}")
    if n < 0:
        raise ValueError(f"n must be at least 0, got {n}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be an int, not {type(seed).__name__}")
    if isinstance(max_restarts, bool) or not isinstance(max_restarts, int):
        raise TypeError(f"max_restarts must be an int, not {type(max_restarts).__name__}")
    if not 0 <= max_restarts < 2**31:
        raise ValueError(f"max_restarts must be from 0 to 2**31-1, got {max_restarts}")
    geometry = _random_geometry(size, box)
    if clues is None:
        clues = default_clues(geometry)
    if isinstance(clues, bool) or not isinstance(clues, int):
        raise TypeError(f"clues must be an int, not {type(clues).__name__}")
    if not 1 <= clues <= geometry.cells:
        raise ValueError(f"clues must be from 1 to {geometry.cells}, got {clues}")
    grids = bytearray(n * geometry.cells)
    restarts = array("i", bytes(4 * n))
    tables = _tables(_lab, geometry)
    distinct = max(1, geometry.size - 1)
    masked = seed & (2**64 - 1)
    stop_flag = bytearray(1)
    workers = resolve_threads(threads)
    grids_v, restarts_v, stop_v = shared_buffers(workers, grids, restarts, stop_flag)

    def work(start: int, stop: int) -> None:
        _lab.random_range(
            tables, clues, distinct, masked, grids_v, restarts_v, start, stop, max_restarts, stop_v
        )

    def abort() -> None:
        stop_flag[0] = 1

    run_chunks(n, workers, 64, work, on_abort=abort, max_chunk=4096)
    if -1 in restarts:
        first = restarts.index(-1)
        raise ValueError(
            f"puzzle {first}: no {geometry.size}x{geometry.size} puzzle of {clues} clues "
            f"found in {max_restarts:,} restarts; ask for fewer clues or more max_restarts"
        )
    return geometry, grids, restarts


def random_puzzles(
    n: int,
    *,
    clues: int | None = None,
    size: int = 9,
    box: tuple[int, int] | None = None,
    seed: int = 0,
    threads: int | None = None,
    max_restarts: int = MAX_RESTARTS,
) -> list[str]:
    """n random puzzles by the essay's recipe, as strings (see `random_grids`).

    Parameters
    ----------
    n : int
        How many puzzles.
    clues : int, optional
        Clues per puzzle; by default the essay's 17 for 9x9 and the same share of the
        cells for other sizes.
    size : int, default 9
        N.
    box : tuple of int, optional
        The box shape.
    seed : int, default 0
        Puzzle i depends only on (`seed`, i).
    threads : int or None, default None
        As in `solve_many`.
    max_restarts : int
        Attempts per puzzle before giving up.

    Returns
    -------
    list of str
        The puzzles (they may have no solution or several, as in the essay).

    Raises
    ------
    ValueError
        No puzzle of that many clues found in `max_restarts` attempts, or a bad option.

    Examples
    --------
    >>> from sudoku_fast import lab
    >>> len(lab.random_puzzles(3, seed=1))
    3
    """
    geometry, grids, _ = random_grids(
        n, clues=clues, size=size, box=box, seed=seed, threads=threads, max_restarts=max_restarts
    )
    cells = geometry.cells
    text = format_values(grids, geometry)
    return [text[i * cells : (i + 1) * cells] for i in range(n)]


def random_puzzle_reference(
    index: int,
    *,
    clues: int | None = None,
    size: int = 9,
    seed: int = 0,
    max_restarts: int = MAX_RESTARTS,
) -> str:
    """Puzzle `index` of `random_puzzles(..., seed=seed)`, made in plain Python."""
    geometry = _random_geometry(size, None)
    clues = default_clues(geometry) if clues is None else clues
    values, restarts = lab_reference.random_values(
        geometry, clues, max(1, geometry.size - 1), seed & (2**64 - 1), index, max_restarts
    )
    if restarts < 0:
        raise ValueError(
            f"puzzle {index}: no {geometry.size}x{geometry.size} puzzle of {clues} clues "
            f"found in {max_restarts:,} restarts; ask for fewer clues or more max_restarts"
        )
    return format_values(values, geometry)
