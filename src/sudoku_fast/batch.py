"""Batch fan-out: convert a whole batch once, run the engine on threads, keep input order.

The batch is encoded under the GIL into one contiguous buffer of 81-byte grids (a list
of plain 9x9 strings is instead read by the caller's thread while the others already
solve, and its solution strings made the same way: see `_core.Fanout`). Worker
threads then take small chunks from a shared counter (puzzle cost is heavy-tailed, so a
static split would leave one thread with all the hard ones) and call the engine, which
releases the GIL for the whole chunk. Results land in preallocated output buffers at the
puzzle's own index, so order never depends on scheduling.

Every grid size runs through the same fan-out: 9x9 grids with 3x3 boxes go to the 9x9
engine (`_core`), every other geometry to the general engine (`_general`), chosen by
the batch's `Geometry`. A batch holds puzzles of one size.
"""

from __future__ import annotations

import functools
import itertools
import math
import os
import re
import sys
import threading
import time
from array import array
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, overload

from . import _general, frames, pool
from .grid import (
    CELLS,
    CLASSIC,
    MAX_SIZE,
    MIN_INFERRED_SIZE,
    Geometry,
    check_flag,
    format_values,
    geometry_for,
    parse_grid,
    parse_marks_grid,
)
from .isa import core as _core  # the build of the 9x9 engine chosen for this CPU

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

THREADS_ENV = "SUDOKU_FAST_NUM_THREADS"
MAX_CHUNK = 256
MIN_CHUNK = 16  # batches of up to this many puzzles run serially
CHUNKS_PER_THREAD = 8  # smaller chunks even out the heavy-tailed finish of a batch
# Chunk of the 9x9 engine's own claim loop (`_core.BatchRun`): claiming costs one atomic
# add, not a trip through Python, so chunks can be small and the finish even.
CORE_CHUNK = 16
# Search nodes a puzzle of the general engine may use before its answer is given up as
# unknown (SearchLimitExceeded). Measured times per size are in README.md (Sizes,
# Budget). The hardest puzzle of the public data sets needs about 170,000.
DEFAULT_MAX_NODES = 1_000_000
# The engines' C types: a solution count limit is an int, a node budget an int64.
MAX_LIMIT = 2**31 - 1
MAX_NODES = 2**63 - 1
CGROUP_ROOT = Path("/sys/fs/cgroup")


def cgroup_cpu_limit(proc_cgroup: str, root: Path = CGROUP_ROOT) -> float | None:
    """The CPU quota of a control group, in cores, or None when there is none.

    `proc_cgroup` is the text of /proc/self/cgroup. cgroup v2 keeps the quota in
    `cpu.max` ("QUOTA PERIOD" or "max PERIOD"), v1 in `cpu.cfs_quota_us` (-1 = none) and
    `cpu.cfs_period_us`. Each level of the group's path is read, from the group itself up
    to the root, and the smallest quota wins, as the kernel enforces every level. A
    container usually sees its own group as the root.
    """
    limits: list[float] = []
    for line in proc_cgroup.splitlines():
        parts = line.strip().split(":", 2)
        if len(parts) != 3:
            continue
        _, controllers, path = parts
        if controllers == "":  # v2: one unified hierarchy
            bases = [root]
        elif "cpu" in controllers.split(","):  # v1: the cpu controller's own tree
            bases = list(dict.fromkeys([root / controllers, root / "cpu", root / "cpu,cpuacct"]))
        else:
            continue
        for base in bases:
            folder = base / path.lstrip("/")
            while True:
                limit = _quota_in(folder)
                if limit is not None:
                    limits.append(limit)
                if folder == base or base not in folder.parents:
                    break
                folder = folder.parent
    return min(limits) if limits else None


def _quota_in(folder: Path) -> float | None:
    """The CPU quota stated in one cgroup folder (v2 or v1), in cores, if any."""
    try:
        quota, period = (folder / "cpu.max").read_text().split()[:2]
        if quota != "max" and int(period) > 0:
            return int(quota) / int(period)
        return None
    except (OSError, ValueError):
        pass
    try:
        quota_us = int((folder / "cpu.cfs_quota_us").read_text())
        period_us = int((folder / "cpu.cfs_period_us").read_text())
    except (OSError, ValueError):
        return None
    return quota_us / period_us if quota_us > 0 and period_us > 0 else None


@functools.cache
def _cpu_quota() -> int | None:
    """This process's CPU quota in whole cores (rounded up), or None; read once."""
    try:
        text = Path("/proc/self/cgroup").read_text()
    except OSError:
        return None
    limit = cgroup_cpu_limit(text)
    return None if limit is None else max(1, math.ceil(limit))


def usable_cores() -> int:
    """CPU cores this process may use: its CPU affinity, capped by a cgroup CPU quota.

    A container limited to 2 CPUs on a 64-core host sees all 64 in its affinity mask;
    its quota (cgroup v2 `cpu.max`, v1 `cpu.cfs_quota_us`) is what it can really use.
    """
    if hasattr(os, "sched_getaffinity"):
        cores = max(1, len(os.sched_getaffinity(0)))
    else:
        cores = max(1, os.cpu_count() or 1)
    quota = _cpu_quota()
    return cores if quota is None else min(cores, quota)


def _all_cores() -> int:
    """The thread count "all cores" means: usable cores, capped by SUDOKU_FAST_NUM_THREADS."""
    cores = usable_cores()
    cap = os.environ.get(THREADS_ENV, "").strip()
    if cap:
        # ASCII digits only (int() would take "1_0" and other scripts' digits too).
        limit = int(cap) if re.fullmatch(r"[0-9]+", cap) else 0
        if limit < 1:  # 0 or less would be no cap at all, which is not what was meant
            raise ValueError(f"{THREADS_ENV} must be a whole number of threads >= 1, got {cap!r}")
        cores = min(cores, limit)
    return cores


MAX_THREADS = 1024  # the most threads a batch starts, whatever `threads` asks for


def resolve_threads(threads: int | None) -> int:
    """Turn the user's `threads` argument into a thread count.

    `None`: all usable cores; `-k`: all cores + 1 - k (so -1 is all cores), at least 1;
    in both, "all cores" is capped by the SUDOKU_FAST_NUM_THREADS environment variable.
    `k >= 1`: k threads, at most MAX_THREADS (1 runs serially in the caller); `0`:
    ValueError.
    """
    if threads is None:
        return _all_cores()
    if isinstance(threads, bool) or not isinstance(threads, int):
        raise TypeError(f"threads must be an int or None, not {type(threads).__name__}")
    if threads == 0:
        raise ValueError("threads must not be 0 (use None or -1 for all cores, 1 for serial)")
    if threads < 0:
        return max(1, _all_cores() + 1 + threads)
    # More threads than this only add start-up cost and contention: thousands of OS
    # threads made a batch hundreds of times slower.
    return min(threads, MAX_THREADS)


@dataclass
class EngineResults:
    """Raw engine output for a batch of n puzzles, in input order.

    `solutions` holds n grids of 81 bytes (digits 1-9; all zero where no solution was
    found); `counts[i]` is the number of solutions found for puzzle i, capped at the
    limit; `guesses[i]` (branch trials made while other candidates were still open) and
    `nodes[i]` (search-tree size, the root included) are its search figures;
    `nanos[i]` its solving time in nanoseconds when timing was asked for; `texts` the
    solution strings when a 9x9 run was asked to decode them as it goes.
    """

    n: int
    solutions: bytearray
    counts: array[int]
    guesses: array[int]
    nodes: array[int]
    nanos: array[int] | None
    threads: int
    geometry: Geometry = CLASSIC
    texts: list[str | None] | None = None
    on_core: bool = True  # solved by the 9x9 engine (no node budget there)


class SearchLimitExceeded(RuntimeError):
    """Some puzzles needed more search nodes than `max_nodes` allowed; their answer is unknown.

    `indices` lists their positions in the batch (0 for a single puzzle); `partial` is
    what the call would have returned, with None (or -1 for counts, an all-zero row for
    arrays) at those positions. Raise `max_nodes`, or pass None for no budget.
    """

    def __init__(self, message: str, indices: list[int], partial: Any) -> None:
        super().__init__(message)
        self.indices = indices
        self.partial = partial

    def __reduce__(self) -> tuple[Any, ...]:
        # Exceptions pickle as (class, args), and args holds only the message: without
        # this a process pool could not send one back from a worker. The third item,
        # the instance's attributes, keeps notes (add_note) and anything set later.
        return (type(self), (str(self), self.indices, self.partial), self.__dict__)


class _NotPlain(Exception):
    """A list given to `run_engine` as its source held an item that is not a plain puzzle."""


_ITEM = re.compile(r"\bpuzzle (\d+)")


def renumber_error(err: Exception, first: int, where: str = "") -> Exception:
    """`err`, raised for a batch that starts at item `first` of a larger whole, renumbered.

    A ValueError, TypeError or SearchLimitExceeded naming "puzzle k" comes back as the
    same kind of error naming "puzzle first + k", with `where` (say "partition 3: ") in
    front; a SearchLimitExceeded's `indices` are shifted too (its `partial` stays the
    batch's). Any other error comes back unchanged.
    """
    if not isinstance(err, (ValueError, TypeError, SearchLimitExceeded)):
        return err
    message = _ITEM.sub(lambda m: f"puzzle {first + int(m[1])}", str(err), count=1)
    message = where + message
    if isinstance(err, SearchLimitExceeded):
        return SearchLimitExceeded(message, [first + i for i in err.indices], err.partial)
    try:
        return type(err)(message)
    except TypeError:  # a subclass with another constructor
        return err


def _runs_on_core(geometry: Geometry) -> bool:
    """True for the geometry the 9x9 engine handles: 9x9 with 3x3 boxes, any symbols."""
    if geometry is CLASSIC:
        return True
    return (geometry.size, geometry.box_rows, geometry.box_cols) == (9, 3, 3)


def check_budget(
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


def check_limit(limit: object) -> None:
    """Raise unless `limit` (solutions to count up to) is an int from 1 to MAX_LIMIT."""
    if isinstance(limit, bool) or not isinstance(limit, int):
        raise TypeError(f"limit must be an int, not {type(limit).__name__}")
    if not 1 <= limit <= MAX_LIMIT:
        raise ValueError(f"limit must be from 1 to {MAX_LIMIT:,} (2**31 - 1), got {limit:,}")


def node_budget(max_nodes: int | None) -> int:
    """The engine's form of a `max_nodes` argument: 0 means no budget.

    Raises unless it is None or an int from 1 to MAX_NODES.
    """
    if max_nodes is None:
        return 0
    if isinstance(max_nodes, bool) or not isinstance(max_nodes, int):
        raise TypeError(f"max_nodes must be an int or None, not {type(max_nodes).__name__}")
    if not 1 <= max_nodes <= MAX_NODES:
        raise ValueError(
            f"max_nodes must be from 1 to {MAX_NODES:,} (2**63 - 1), or None for no budget; "
            f"got {max_nodes:,}"
        )
    return max_nodes


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
    `_core.Fanout`). Raises _NotPlain, before any result is made, if one of them is not
    a plain 81-character puzzle string; the caller then encodes the list in full.

    `stop_flag`, a one-byte buffer, lets another thread stop the call: once it is set
    to 1 the engines abandon their puzzles (count `_core.STOPPED`) and the call returns.
    """
    check_limit(limit)
    workers = resolve_threads(threads)
    geometry = CLASSIC if geometry is None else geometry
    cells = geometry.cells
    on_core = _runs_on_core(geometry) and masks is None
    if _runs_on_core(geometry):
        max_nodes = 0
    fan_out = on_core and not timed
    if source is not None and not fan_out:
        grids = encode_puzzles(source[:n])
        source = None
    texts_wanted = decode and geometry == CLASSIC  # other alphabets use format_values
    if fan_out and n > 0:  # (the BatchRun makes a stop flag of its own if none is given)
        run = _fan_out(grids, source, n, limit, workers, texts_wanted, stop_flag)
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
    results = EngineResults(
        n=n,
        solutions=bytearray(n * cells),
        counts=array("i", bytes(4 * n)),
        guesses=array("q", bytes(8 * n)),
        nodes=array("q", bytes(8 * n)),
        nanos=array("q", bytes(8 * n)) if timed else None,
        threads=1,
        geometry=geometry,
        on_core=on_core,
    )
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
    texts = results.texts
    solutions, counts = shared_buffers(workers, results.solutions, results.counts)

    def work(start: int, end: int) -> None:
        solve_chunk(start, end)
        if texts is not None:
            _core.decode_range(solutions, counts, texts, start, end)

    # Chunks of the general engine can run for minutes, so there the caller only
    # waits, ready to raise the stop flag on Ctrl-C.
    results.threads = run_chunks(n, workers, min_chunk, work, caller_works=on_core, on_abort=abort)
    return results


def _fan_out(
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
    Raises _NotPlain if an item of the source is not a plain 81-character puzzle.
    """
    workers = max(1, min(workers, -(-n // MIN_CHUNK)))
    chunk = max(1, min(CORE_CHUNK, n // (workers * CHUNKS_PER_THREAD)))
    # The result buffers are left uninitialised (the workers write every row, zeros
    # where there is no solution): their pages are first touched by the worker threads.
    run = _core.BatchRun(grids, source, n, chunk, limit, workers - 1, texts, stop_flag)
    run_workers(workers, run.helper, on_abort=run.stop, caller_body=run.lead, await_helpers=False)
    if run.failed:
        raise _NotPlain
    return run


def run_chunks(
    n: int,
    workers: int,
    min_chunk: int,
    work: Callable[[int, int], None],
    *,
    caller_works: bool = True,
    on_abort: Callable[[], None] | None = None,
    max_chunk: int = MAX_CHUNK,
) -> int:
    """Call `work(start, end)` over items 0..n-1 in chunks on up to `workers` threads.

    Chunks (of `min_chunk` to `max_chunk` items, about CHUNKS_PER_THREAD per thread) are
    handed out from a shared counter, so a few costly items do not leave the other
    threads idle; `work` should release the GIL for its chunk. With one worker (or a
    batch of one chunk) everything runs in the caller, still chunk by chunk so Ctrl-C
    is seen between chunks. `caller_works=False` keeps the calling thread free to
    notice Ctrl-C while long chunks run; then `on_abort` is called so they can stop
    early. Returns the number of threads used.
    """
    if n <= 0:
        return 1
    chunk = max(min_chunk, min(max_chunk, n // (workers * CHUNKS_PER_THREAD) or 1))
    workers = max(1, min(workers, -(-n // chunk)))
    chunk_starts = itertools.count(0, chunk)
    claim = threading.Lock()  # also correct on free-threaded builds
    stop = threading.Event()

    def take_chunks() -> None:
        while not stop.is_set():
            with claim:
                start = next(chunk_starts)
            if start >= n:
                return
            work(start, min(n, start + chunk))

    def abort() -> None:
        stop.set()  # workers finish their current chunk and take no more
        if on_abort is not None:
            on_abort()

    return run_workers(workers, take_chunks, caller_works=caller_works, on_abort=abort)


def run_workers(
    workers: int,
    body: Callable[[], None],
    *,
    caller_works: bool = True,
    on_abort: Callable[[], None] | None = None,
    caller_body: Callable[[], None] | None = None,
    await_helpers: bool = True,
) -> int:
    """Call `body()` once on each of `workers` threads of the shared pool; wait for all.

    The fan-out under `run_chunks`, for a body that shares the work out itself (the 9x9
    engine's `BatchRun` claims chunks with an atomic counter). One worker runs in the
    caller, with no pool, calling `caller_body` instead when given (after the helpers
    were started); `caller_works=False` keeps the caller free to notice Ctrl-C.
    When a body raises (or the wait is interrupted), `on_abort` is called so the others
    can stop early, all are waited for, and the first exception propagates. Returns
    the number of threads used.

    `await_helpers=False` is for a caller body that returns only once the work is done
    (the 9x9 engine's lead waits, without the GIL, for every helper that took part):
    when it returns normally the helpers still on their way back to the pool are not
    waited for, which would cost the caller a hand-over of the GIL and a wake-up.
    """
    own_body = body if caller_body is None else caller_body
    if workers <= 1:
        own_body()
        return 1
    # The calling thread works too by default: one thread fewer to wake per call.
    helpers = workers - caller_works
    shared = pool.shared_pool(helpers, usable_cores)
    # More threads than cores were asked for: threads of this call only, stopped after.
    workers_pool = shared if shared is not None else pool.WorkerPool()
    if shared is None:
        workers_pool.grow(helpers)
    tasks = [workers_pool.submit(body) for _ in range(helpers)]
    try:
        if caller_works:
            own_body()
        if await_helpers or shared is None or not caller_works:
            for task in tasks:
                task.wait()
    except BaseException:
        if on_abort is not None:
            on_abort()
        for task in tasks:
            task.join()
        raise
    finally:
        if shared is None:
            workers_pool.shutdown()
    return workers


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
    solve_range: Callable[..., None]
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


def encode_puzzles(puzzles: list[Any]) -> bytearray:
    """Encode a list of 9x9 puzzle strings into one buffer of 81-byte grids.

    Raises TypeError/ValueError naming the index of the first bad item (see
    `encode_batch`, which this is for the classic geometry).
    """
    return encode_batch(puzzles, box=(3, 3))[1]


def encode_batch(
    puzzles: list[Any], box: object = None, alphabet: object = None
) -> tuple[Geometry, bytearray]:
    """Encode a batch of puzzles of one size into its geometry and one buffer of N*N grids.

    The geometry is fixed by `box` / `alphabet` when given, else by the first puzzle.
    Raises TypeError/ValueError naming the index of the first bad item, including an
    item of another size.
    """
    inferred = box is None and alphabet is None
    if not inferred:
        geometry = geometry_for(None, box, alphabet)
    elif puzzles:
        geometry = _item_geometry(puzzles[0])
    else:
        geometry = CLASSIC
    cells = geometry.cells
    # Every row is written below (or an error is raised): no need to zero the buffer.
    grids = _core.new_buffer(len(puzzles) * cells)
    slow = _core.encode_strings(puzzles, grids) if geometry == CLASSIC else range(len(puzzles))
    for i in slow:
        grids[i * cells : (i + 1) * cells] = _encode_item(puzzles[i], i, geometry, inferred)
    return geometry, grids


def encode_marks(
    puzzles: list[Any], box: object = None, alphabet: object = None
) -> tuple[Geometry, bytearray, array[int]]:
    """Encode a batch of pencil-mark puzzles: geometry, empty grids, N*N masks per puzzle.

    The geometry is fixed by `box` / `alphabet` when given, else by the first puzzle
    (N*N*N characters). Raises TypeError/ValueError naming the index of the first bad
    item (see `grid.parse_marks_grid`).
    """
    geometry = (
        geometry_for(None, box, alphabet) if box is not None or alphabet is not None else None
    )
    cells = 0
    masks: array[int] = array("Q")
    for i, item in enumerate(puzzles):
        if not isinstance(item, str):
            raise TypeError(f"puzzle {i}: must be a str, not {type(item).__name__}")
        try:
            geometry, item_masks = parse_marks_grid(item, geometry=geometry)
        except ValueError as err:
            raise ValueError(f"puzzle {i}: {err}") from None
        if not cells:
            cells = geometry.cells
            masks = array("Q", bytes(8 * cells * len(puzzles)))
        masks[i * cells : (i + 1) * cells] = item_masks
    geometry = CLASSIC if geometry is None else geometry
    return geometry, bytearray(len(puzzles) * geometry.cells), masks


def _item_geometry(item: Any) -> Geometry:
    """The geometry of the first puzzle of a batch (errors name index 0)."""
    item = frames.as_text(item)
    if not isinstance(item, str):
        raise TypeError(f"puzzle 0: must be a str, not {type(item).__name__}")
    try:
        return parse_grid(item)[0]
    except ValueError as err:
        raise ValueError(f"puzzle 0: {err}") from None


def _encode_item(item: Any, index: int, geometry: Geometry, inferred: bool) -> bytes:
    """The values of one batch item in the batch's geometry, or an error naming it."""
    item = frames.as_text(item)
    if not isinstance(item, str):
        raise TypeError(f"puzzle {index}: must be a str, not {type(item).__name__}")
    try:
        return parse_grid(item, geometry=geometry)[1]
    except ValueError as err:
        if inferred:
            try:
                own = parse_grid(item)[0].size
            except ValueError:
                own = geometry.size
            if own != geometry.size:
                n = geometry.size
                raise ValueError(
                    f"puzzle {index}: a {own}x{own} puzzle in a batch of {n}x{n} puzzles "
                    "(a batch holds puzzles of one size)"
                ) from None
        raise ValueError(f"puzzle {index}: {err}") from None


def decode_solutions(results: EngineResults) -> list[str | None]:
    """Canonical solution strings in input order; None where there is no solution."""
    if results.texts is not None:
        return results.texts
    if results.geometry == CLASSIC:
        return _core.decode_solutions(results.solutions, results.counts)
    cells = results.geometry.cells
    text = format_values(results.solutions, results.geometry)
    counts = results.counts
    return [text[i * cells : (i + 1) * cells] if counts[i] > 0 else None for i in range(results.n)]


def _as_list(puzzles: Iterable[str], what: str) -> list[Any]:
    if isinstance(puzzles, (str, bytes, bytearray)):
        kind = type(puzzles).__name__
        raise TypeError(f"{what} takes an iterable of puzzles, not a single {kind}")
    table = frames.table_kind(puzzles)
    if table is not None:
        raise TypeError(
            f"{what} takes a column of puzzles, not a {table}: pass one of its columns, "
            "such as frame['puzzle']"
        )
    try:
        return list(puzzles)
    except TypeError:
        raise TypeError(
            f"{what} takes an iterable of puzzles, not {type(puzzles).__name__}"
        ) from None


def encode_input(
    puzzles: Any,
    what: str,
    box: object = None,
    alphabet: object = None,
    *,
    threads: int | None = 1,
) -> tuple[Geometry, Any, int, frames.Column | None]:
    """Encode a batch input that is not a numpy value array: (geometry, grids, n, column).

    Columns (pandas, pyarrow, polars, numpy text) are read by `frames`, a large one on
    `threads` threads (the batch's `threads` argument), and come back with their
    `Column`; any other iterable is listed and encoded here (column None).
    """
    column = frames.read_column(puzzles, what, box, alphabet, threads=threads)
    if column is not None:
        return column.geometry, column.grids, column.n, column
    items = _as_list(puzzles, what)
    geometry, grids = encode_batch(items, box, alphabet)
    return geometry, grids, len(items), None


# Tells whether the GIL is on; None on builds that always have one.
_gil_enabled: Callable[[], bool] | None = getattr(sys, "_is_gil_enabled", None)


def _list_source(puzzles: Any, box: object, alphabet: object) -> list[Any] | None:
    """`puzzles` itself when it may be read by the engine as it is (see run_engine's source).

    That is a non-empty list with no `box` / `alphabet`: if every item is a plain
    81-character string of digits and '.', the batch is 9x9 with the classic symbols
    and needs no parsing. Anything else (None) goes through `encode_input`, as does such
    a list when it holds another item (the engine raises _NotPlain).
    """
    if type(puzzles) is not list or not puzzles or box is not None or alphabet is not None:
        return None
    if _gil_enabled is not None and not _gil_enabled():
        # The engine reads the list while holding the GIL, so no other thread can change
        # it under the reader; without a GIL it reads a copy only this call can see.
        return list(puzzles)
    return puzzles


def _marks_list(puzzles: Any, what: str) -> tuple[list[Any], str | None]:
    """The items of a batch of pencil-mark puzzles, and the column kind they came in.

    Marks are strings, so never a numpy value array; a text column (Arrow, pandas,
    polars, numpy) is listed item by item (None stays None, refused by the parser).
    """
    if numpy_values(puzzles) is not None:
        raise TypeError(f"{what}: marks=True takes pencil-mark strings, not a numpy array")
    kind = frames.column_kind(puzzles)
    if kind is None:  # bytes items are text, as everywhere else
        return [frames.as_text(item) for item in _as_list(puzzles, what)], None
    if kind in ("arrow", "chunked"):
        items = [frames.as_text(item) for item in puzzles.to_pylist()]
    else:
        items = [frames.as_text(item) for item in puzzles]
    for i, item in enumerate(items):
        # A column's missing value (None, NaN, pandas' NA) is a null, as `frames` reads it.
        if not isinstance(item, str) and frames.is_missing(item):
            raise ValueError(f"puzzle {i}: missing (null)")
    return items, kind


def _marks_column(
    puzzles: Any, kind: str | None, geometry: Geometry, grids: Any, n: int
) -> frames.Column | None:
    """The `Column` a batch of marks came in, for an output "like" it (None: not one)."""
    return None if kind is None else frames.Column(geometry, grids, n, kind, puzzles)


def numpy_values(puzzles: object) -> Any:
    """The input as a numpy array of values if it is one (numpy is imported only for one).

    A one-dimensional array of text is a column of puzzles, read by `frames`.
    """
    if not frames.is_numpy_array(puzzles) or frames.column_kind(puzzles) is not None:
        return None
    return puzzles


def encode_values(
    arr: Any, what: str, box: object = None, alphabet: object = None
) -> tuple[Any, int, Geometry]:
    """Validate a numpy array of shape (n, N*N) or (n, N, N) holding values 0..N."""
    import numpy as np

    shape = arr.shape
    if arr.ndim == 2:
        size = math.isqrt(shape[1])
        square = size * size == shape[1]
    else:
        size = shape[1] if arr.ndim == 3 else 0
        square = arr.ndim == 3 and shape[1] == shape[2]
    if not square or not 1 <= size <= MAX_SIZE:
        raise ValueError(f"{what}: expected an array of shape (n, N*N) or (n, N, N), got {shape}")
    if not np.issubdtype(arr.dtype, np.integer):
        raise TypeError(f"{what}: expected an integer array, got dtype {arr.dtype}")
    if size < MIN_INFERRED_SIZE and box is None and alphabet is None:
        # As for text: a grid this small is more likely a wrong shape than a puzzle.
        raise ValueError(
            f"{what}: an array of shape {shape} holds {size}x{size} grids, too small to be "
            f"taken for puzzles without box=(rows, cols)"
        )
    try:
        geometry = geometry_for(size, box, alphabet)
    except ValueError as err:
        raise ValueError(f"{what}: {err}") from None
    n = shape[0]
    flat = arr.reshape(n, geometry.cells)
    # One or two reductions (SIMD in numpy; no minimum for unsigned types, the common
    # uint8 case) find whether any value is out of range; the mask that names the first
    # bad one is built only then. This pass runs before any thread starts, so on many
    # cores its time counts in full against the speed-up.
    unsigned = np.issubdtype(arr.dtype, np.unsignedinteger)
    if n and ((not unsigned and flat.min() < 0) or flat.max() > size):
        bad = (flat < 0) | (flat > size)
        if bad.any():
            row, col = (int(x) for x in np.argwhere(bad)[0])
            raise ValueError(
                f"puzzle {row}: value {int(flat[row, col])} at cell {col} ({geometry.name(col)}) "
                f"is not a value 0-{size}"
            )
    return np.ascontiguousarray(flat, dtype=np.uint8).reshape(-1), n, geometry


@overload
def solve_many(
    puzzles: npt.NDArray[Any],
    *,
    threads: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    output: None = None,
    marks: bool = False,
) -> np.ndarray[Any, Any]: ...
@overload
def solve_many(
    puzzles: Iterable[str],
    *,
    threads: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    output: None = None,
    marks: bool = False,
) -> list[str | None]: ...
@overload
def solve_many(
    puzzles: Any,
    *,
    threads: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    output: str,
    marks: bool = False,
) -> Any: ...


def solve_many(
    puzzles: Any,
    *,
    threads: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    output: str | None = None,
    marks: bool = False,
) -> Any:
    """Solve a batch of puzzles on several threads; results are in input order.

    `puzzles` is an iterable of strings in any notation `parse` accepts, or a numpy
    integer array of shape (n, N*N) or (n, N, N) with 0 for empty cells. For strings the
    result is a list holding the canonical solution, or None where there is none. For an
    array the result is a uint8 array of the same shape; a row with no solution is all
    zeros (with `output` "list" or "arrow": the solutions as strings, as for strings).
    For puzzles with several solutions one valid solution is returned.

    A batch holds puzzles of one size: the size comes from `box` / `alphabet` when
    given (as in `parse`), else from the first puzzle. `threads`: None = all usable
    cores, 1 = serial in the caller, -k = all cores + 1 - k. A malformed item (or one of
    another size) raises ValueError (TypeError for a non-str) naming its index, and
    nothing is returned. (A list of plain 81-character strings is read while its first
    puzzles are being solved, so solving may have begun when a bad item far into it is
    found; the list is then parsed in full, as any other input, and the error raised.)
    Grids other than 9x9 with 3x3 boxes get a budget of `max_nodes` search nodes per
    puzzle (None = no budget); running out raises `SearchLimitExceeded`.

    Columns are taken too: a pandas or polars Series, a pyarrow Array / ChunkedArray of
    strings, a 1-D numpy array of str or bytes (bytes items anywhere). `output` picks
    the result's form: None as above, "list", "arrow" (a pyarrow string array, null
    where there is no solution) or "like" (a column of the input's kind); see `frames`.
    `marks=True` reads every puzzle as pencil marks (strings only; see `parse`).
    """
    budget = node_budget(max_nodes)
    source = None if check_flag(marks, "marks") else _list_source(puzzles, box, alphabet)
    if source is not None and output is None:
        # The common case first, in as few steps as can be (see _fan_out).
        try:
            return _fan_out(None, source, len(source), 1, resolve_threads(threads), True).finish()
        except _NotPlain:
            source = None  # some item needs the parser (or is malformed): the general path
    frames.check_output(output)
    if marks:
        items, kind = _marks_list(puzzles, "solve_many")
        geometry, grids, masks = encode_marks(items, box, alphabet)
        results = run_engine(
            grids, len(items), 1, threads, geometry=geometry, max_nodes=budget, masks=masks
        )
        column = _marks_column(puzzles, kind, geometry, grids, len(items))
        solutions = frames.solutions_out(results, column, output)
        check_budget(results, solutions, max_nodes)
        return solutions
    arr = numpy_values(puzzles)
    if arr is not None:
        import numpy as np

        grids, n, geometry = encode_values(arr, "solve_many", box, alphabet)
        results = run_engine(grids, n, 1, threads, geometry=geometry, max_nodes=budget)
        if output in (None, "like"):
            out = np.frombuffer(results.solutions, dtype=np.uint8).reshape(arr.shape)
        else:  # values in, text out: the answers as strings (None where there is none)
            out = frames.solutions_out(results, None, output)
        check_budget(results, out, max_nodes)
        return out
    if source is not None:
        try:
            decode = frames.needs_texts(None, output)
            results = run_engine(None, len(source), 1, threads, decode=decode, source=source)
            return frames.solutions_out(results, None, output)
        except _NotPlain:
            pass  # some item needs the parser (or is malformed): the general path
    geometry, grids, n, column = encode_input(puzzles, "solve_many", box, alphabet, threads=threads)
    decode = frames.needs_texts(column, output)
    results = run_engine(grids, n, 1, threads, geometry=geometry, max_nodes=budget, decode=decode)
    solutions = frames.solutions_out(results, column, output)
    check_budget(results, solutions, max_nodes)
    return solutions


@overload
def count_many(
    puzzles: Any,
    limit: int = 2,
    *,
    threads: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    output: None = None,
    marks: bool = False,
) -> list[int]: ...
@overload
def count_many(
    puzzles: Any,
    limit: int = 2,
    *,
    threads: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    output: str,
    marks: bool = False,
) -> Any: ...


def count_many(
    puzzles: Any,
    limit: int = 2,
    *,
    threads: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    output: str | None = None,
    marks: bool = False,
) -> Any:
    """Count the solutions of each puzzle, up to `limit`, on several threads.

    With the default limit of 2 this is a uniqueness check: 0 = no solution, 1 = unique,
    2 = several. Accepts the same inputs and keywords as `solve_many`; returns a list of
    ints in input order (or, with `output`, a column of counts: int32 for Arrow and
    numpy, int64 for pandas and polars as from Python ints; see `solve_many`).
    """
    budget = node_budget(max_nodes)
    frames.check_output(output)
    column = None
    masks = None
    arr = None if check_flag(marks, "marks") else numpy_values(puzzles)
    source = None if marks else _list_source(puzzles, box, alphabet)
    if source is not None:
        try:
            check_limit(limit)
            run = _fan_out(None, source, len(source), limit, resolve_threads(threads), False)
            return frames.counts_out(run.counts, None, output)
        except _NotPlain:
            pass  # some item needs the parser (or is malformed): the general path
    if marks:
        items, kind = _marks_list(puzzles, "count_many")
        geometry, grids, masks = encode_marks(items, box, alphabet)
        n = len(items)
        column = _marks_column(puzzles, kind, geometry, grids, n)
    elif arr is not None:
        grids, n, geometry = encode_values(arr, "count_many", box, alphabet)
    else:
        geometry, grids, n, column = encode_input(
            puzzles, "count_many", box, alphabet, threads=threads
        )
    results = run_engine(grids, n, limit, threads, geometry=geometry, max_nodes=budget, masks=masks)
    if arr is not None and output == "like":  # numpy in, numpy out, as in solve_many
        import numpy as np

        counts = np.frombuffer(results.counts, dtype=np.int32)
    else:
        counts = frames.counts_out(results.counts, column, output)
    check_budget(results, counts, max_nodes)
    return counts
