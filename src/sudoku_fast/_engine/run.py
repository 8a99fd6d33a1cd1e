"""Run an engine over a batch of encoded grids, on threads, keeping input order.

The batch arrives as one contiguous buffer of N*N values per puzzle (or, for the 9x9
engine, a list of plain puzzle strings that the caller's thread reads while the others
already solve: see `_core.Fanout`). Worker threads take small chunks from a shared
counter and call the engine, which releases the GIL for the whole chunk; results land
in preallocated buffers at each puzzle's own index.

9x9 grids with 3x3 boxes go to the 9x9 engine (`_core`, the build `isa` chose for this
CPU), every other geometry to the general engine (`_general`).
"""

from __future__ import annotations

import time
from array import array
from collections.abc import Callable
from typing import Any

from .._base.checks import check_limit
from .._base.errors import SearchLimitExceeded
from .._base.grid import CELLS, CLASSIC, Geometry
from .._parallel.fanout import CHUNKS_PER_THREAD, run_chunks, run_workers
from .._parallel.threads import resolve_threads
from . import _general
from .encode import encode_puzzles
from .isa import core as _core  # the build of the 9x9 engine chosen for this CPU
from .results import EngineResults

__all__ = [
    "CORE_CHUNK",
    "MIN_CHUNK",
    "EngineResults",
    "NotPlain",
    "fan_out",
    "general_tables",
    "raise_if_undecided",
    "run_engine",
    "run_list",
    "runs_on_core",
    "shared_buffers",
    "solve_plain",
]

MIN_CHUNK = 16  # batches of up to this many puzzles run serially
# Chunk of the 9x9 engine's own claim loop (`_core.BatchRun`): claiming costs one atomic
# add, not a trip through Python, so chunks can be small and the finish even.
CORE_CHUNK = 16

# One puzzle of 81 plain characters, solved without a batch: (count, solution) or None
# when the text is not such a puzzle.
solve_plain = _core.solve_plain
# A list of plain puzzle strings solved one after the other in the caller's thread:
# the answers, or None when the text is not such a list.
solve_list = _core.solve_list


class NotPlain(Exception):
    """A list given to `run_engine` as its source held an item that is not a plain puzzle."""


def runs_on_core(geometry: Geometry) -> bool:
    """True for the geometry the 9x9 engine handles: 9x9 with 3x3 boxes, any symbols."""
    if geometry is CLASSIC:
        return True
    return (geometry.size, geometry.box_rows, geometry.box_cols) == (9, 3, 3)


def raise_if_undecided(
    results: EngineResults, partial: Any, max_nodes: int | None, single: bool = False
) -> None:
    """Raise SearchLimitExceeded when a puzzle of `results` ran out of search nodes
    (named "the puzzle" when `single`, the call's only one, else by its index)."""
    if results.on_core or results.n == 0 or min(results.counts) >= 0:
        return
    indices = [i for i, count in enumerate(results.counts) if count == _general.BUDGET_EXHAUSTED]
    more = f" and {len(indices) - 1} more" if len(indices) > 1 else ""
    where = "the puzzle" if single else f"puzzle {indices[0]}{more}"
    raise SearchLimitExceeded(
        f"{where}: no answer within max_nodes={max_nodes} search nodes "
        "(pass a larger max_nodes, or None for no budget)",
        indices,
        partial,
    )


def run_engine(
    grids: Any,
    n: int,
    limit: int = 1,
    threads: int | None = None,
    timed: bool = False,
    *,
    geometry: Geometry | None = None,
    max_nodes: int = 0,
    decode: bool = False,
    masks: Any = None,
    source: list[Any] | None = None,
    stop_flag: bytearray | None = None,
) -> EngineResults:
    """Run the engine over n encoded grids (a buffer of n*81 digits 0-9).

    limit=1 stops at the first solution; a higher limit counts solutions up to it.
    `timed` records each puzzle's solving time. For another `geometry` the buffer holds
    n*N*N values 0..N and the general engine runs, with a budget of `max_nodes` search
    nodes per puzzle (0 = none); a puzzle that runs out gets count -1. `decode` asks
    for the solution strings (see `decode_solutions`); on 9x9 grids the caller's thread
    makes them while the helper threads solve, and each is filled by the thread that
    solves its puzzle (see `_core.Fanout`).

    `masks` (n*N*N uint64, see `encode_marks`) starts every puzzle from pencil marks.
    Only the general engine takes them, so it runs for every size then; a 9x9 grid
    still gets no node budget.

    `source`, a list of puzzle strings, stands for `grids` (then None) on 9x9 grids:
    its first n items are read by the caller's thread while the helpers solve (see
    `_core.Fanout`). Raises NotPlain, before any result is made, if one of them is not
    a plain 81-character puzzle string; the caller then encodes the list in full.

    `stop_flag`, a one-byte buffer, lets another thread stop the call: once it is set
    to 1 the engines abandon their puzzles (count `_core.STOPPED`) and the call returns.
    """
    check_limit(limit)
    workers = resolve_threads(threads)
    geometry = CLASSIC if geometry is None else geometry
    cells = geometry.cells
    on_core = runs_on_core(geometry) and masks is None
    if runs_on_core(geometry):
        max_nodes = 0
    claimed_in_engine = on_core and not timed
    if source is not None and not claimed_in_engine:
        grids = encode_puzzles(source[:n])
        source = None
    texts_wanted = decode and geometry == CLASSIC  # other alphabets use format_values
    if claimed_in_engine and n > 0:  # (the BatchRun makes a stop flag of its own if none is given)
        run = fan_out(grids, source, n, limit, workers, texts_wanted, stop_flag)
        return EngineResults(
            n=n,
            solutions=run.solutions,
            counts=run.counts,
            guesses=run.guesses,
            nodes=run.nodes,
            nanos=None,
            threads=run.threads,
            geometry=geometry,
            on_core=True,
            texts=run.finish() if texts_wanted else None,
        )
    results = EngineResults.zeroed(n, geometry, timed=timed, on_core=on_core)
    if texts_wanted:
        results.texts = [None] * n
    if n == 0:
        return results
    # Bigger grids cost more per puzzle, so they are worth spreading in smaller chunks.
    min_chunk = max(1, MIN_CHUNK * CELLS // cells)
    if stop_flag is None:
        stop_flag = bytearray(1)  # the engines poll it to abandon a long puzzle
    stop = stop_flag

    def abort() -> None:
        stop[0] = 1

    solve_chunk = _chunk_solver(grids, results, limit, max_nodes, stop_flag, masks, workers)
    solutions, counts = shared_buffers(workers, results.solutions, results.counts)
    texts = results.texts

    def work(start: int, end: int) -> None:
        solve_chunk(start, end)
        if texts is not None:
            _core.decode_range(solutions, counts, texts, start, end)

    # Chunks of the general engine can run for minutes, so there the caller only
    # waits, ready to raise the stop flag on Ctrl-C.
    results.threads = run_chunks(n, workers, min_chunk, work, caller_works=on_core, on_abort=abort)
    return results


def run_list(source: list[Any], limit: int, threads: int | None, texts: bool) -> list[Any]:
    """The solution strings (`texts`) or the counts up to `limit` of a non-empty list of
    plain 81-character puzzle strings, in input order, on the 9x9 engine.

    A batch that runs on one thread (`threads` 1, or MIN_CHUNK puzzles or fewer) is
    solved in the caller's thread by `solve_list`, without the set-up of a fan-out
    (`BatchRun`, the pool, the helpers' bookkeeping: microseconds a call, which a batch
    of a few puzzles would feel); a larger one by `fan_out`. Raises NotPlain, before
    any result is made, if an item is not a plain puzzle string.
    """
    n = len(source)
    workers = resolve_threads(threads, most=-(-n // MIN_CHUNK))
    if workers == 1:
        answers = solve_list(source, limit, texts)
        if answers is None:
            raise NotPlain
        return answers
    run = fan_out(None, source, n, limit, workers, texts)
    return run.finish() if texts else list(run.counts)


def fan_out(
    grids: Any,
    source: list[Any] | None,
    n: int,
    limit: int,
    workers: int,
    texts: bool,
    stop_flag: bytearray | None = None,
) -> Any:
    """Run the 9x9 engine on n > 0 grids (or a list source): the finished `_core.BatchRun`.

    Each worker makes one call that claims chunks inside the engine: no GIL-held work
    per chunk. A list source is read and the solution strings (`texts`) are made by the
    caller's thread while the helpers solve (see `_core.Fanout`); what that thread does
    alone before and after (here, few steps, most of them compiled) bounds the speed-up.
    Raises NotPlain if an item of the source is not a plain 81-character puzzle.
    """
    workers = max(1, min(workers, -(-n // MIN_CHUNK)))
    chunk = max(1, min(CORE_CHUNK, n // (workers * CHUNKS_PER_THREAD)))
    # The result buffers are left uninitialised (the workers write every row, zeros
    # where there is no solution): their pages are first touched by the worker threads.
    run = _core.BatchRun(grids, source, n, chunk, limit, workers - 1, texts, stop_flag)
    run_workers(workers, run.helper, on_abort=run.stop, caller_body=run.lead, await_helpers=False)
    if run.failed:
        raise NotPlain
    return run


def _chunk_solver(
    grids: Any,
    results: EngineResults,
    limit: int,
    max_nodes: int,
    stop_flag: bytearray,
    masks: Any,
    workers: int,
) -> Callable[[int, int], None]:
    """A function solving puzzles start..stop-1 into `results` with the right engine,
    on up to `workers` threads."""
    grids, solutions, counts, guesses, nodes, nanos, stop_view, masks = shared_buffers(
        workers,
        grids,
        results.solutions,
        results.counts,
        results.guesses,
        results.nodes,
        results.nanos,
        stop_flag,
        masks,
    )
    solve_range: Callable[..., None]
    if results.on_core:

        def solve_range(start: int, stop: int, cpu_clock: bool) -> None:
            _core.solve_range(
                grids,
                solutions,
                counts,
                guesses,
                nodes,
                nanos,
                start,
                stop,
                limit,
                stop_view,
                cpu_clock,
            )

    else:
        geometry = results.geometry
        tables = _general.tables_for(geometry.size, geometry.box_rows, geometry.box_cols)

        def solve_range(start: int, stop: int, cpu_clock: bool) -> None:
            _general.solve_range(
                tables,
                grids,
                solutions,
                counts,
                guesses,
                nodes,
                nanos,
                start,
                stop,
                limit,
                max_nodes,
                stop_view,
                masks=masks,
                cpu_clock=cpu_clock,
            )

    if results.nanos is None:
        return lambda start, stop: solve_range(start, stop, False)
    return _timed(solve_range, results.nanos)


def _timed(
    solve_range: Callable[[int, int, bool], None], nanos: array[int]
) -> Callable[[int, int], None]:
    """Solve a chunk timing each puzzle in the thread's CPU time, at little cost.

    Reading the thread's CPU clock is a system call on Linux (about 1.2 us), the
    monotonic clock is not (0.05 us), and the two agree on a puzzle unless the thread
    was preempted while solving it. So a chunk is timed on the monotonic clock first;
    when its puzzle times add up to more than the CPU time the thread spent on the whole
    chunk, a preemption got into some puzzle's time, and the chunk is solved again (the
    engines are deterministic: the same answers and figures) timed on the CPU clock.
    Where there is no thread CPU clock (Windows) the first timing stands.
    """

    def solve_chunk(start: int, stop: int) -> None:
        spent = time.thread_time_ns()
        solve_range(start, stop, False)
        spent = time.thread_time_ns() - spent
        if _core.THREAD_CPU_CLOCK and sum(nanos[start:stop]) > spent:
            solve_range(start, stop, True)

    return solve_chunk


def general_tables(geometry: Geometry) -> _general.Tables:
    """The general engine's tables of a geometry (built once, then shared)."""
    return _general.tables_for(geometry.size, geometry.box_rows, geometry.box_cols)


def shared_buffers(workers: int, *buffers: Any) -> tuple[Any, ...]:
    """The buffers the `workers` threads of a batch pass to compiled calls.

    With more than one worker, each is taken once, here on the caller's thread, as a
    `_core.shared_view` (about 1 us each): the threads' calls then share that one buffer
    export by an atomic count instead of each acquiring a buffer of the object itself,
    which free-threaded CPython 3.13 counts without a lock for a bytearray or an
    array.array. One worker gets the buffers as they are. None stays None; Python code
    keeps using the objects themselves.
    """
    if workers <= 1:
        return buffers
    return tuple(None if buffer is None else _core.shared_view(buffer) for buffer in buffers)
