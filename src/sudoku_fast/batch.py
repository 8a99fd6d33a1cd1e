"""Batch fan-out: convert a whole batch once, run the engine on threads, keep input order.

The batch is encoded under the GIL into one contiguous buffer of 81-byte grids. Worker
threads then take small chunks from a shared counter (puzzle cost is heavy-tailed, so a
static split would leave one thread with all the hard ones) and call the engine, which
releases the GIL for the whole chunk. Results land in preallocated output buffers at the
puzzle's own index, so order never depends on scheduling.

Every grid size runs through the same fan-out: 9x9 grids with 3x3 boxes go to the 9x9
engine (`_core`), every other geometry to the general engine (`_general`), chosen by
the batch's `Geometry`. A batch holds puzzles of one size.
"""

from __future__ import annotations

import itertools
import math
import os
import sys
import threading
from array import array
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, overload

from . import _core, _general, frames
from .grid import (
    CELLS,
    CLASSIC,
    MAX_SIZE,
    Geometry,
    format_values,
    geometry_for,
    parse_grid,
)

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

THREADS_ENV = "SUDOKU_FAST_NUM_THREADS"
MAX_CHUNK = 256
MIN_CHUNK = 16  # batches of up to this many puzzles run serially
CHUNKS_PER_THREAD = 8  # smaller chunks even out the heavy-tailed finish of a batch
# Search nodes a puzzle of the general engine may use before its answer is given up as
# unknown (SearchLimitExceeded): roughly 10 s of one core at 16x16 and 25x25. The hardest
# puzzle of the public data sets needs about 170,000.
DEFAULT_MAX_NODES = 1_000_000


def usable_cores() -> int:
    """CPU cores this process may run on (affinity-aware where the OS supports it)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def resolve_threads(threads: int | None) -> int:
    """Turn the user's `threads` argument into a thread count.

    `None`: all usable cores, capped by the SUDOKU_FAST_NUM_THREADS environment variable;
    `k >= 1`: k threads (1 runs serially in the caller); `-k`: all cores + 1 - k
    (so -1 is all cores), at least 1; `0`: ValueError.
    """
    cores = usable_cores()
    if threads is None:
        cap = os.environ.get(THREADS_ENV, "").strip()
        if cap:
            try:
                limit = int(cap)
            except ValueError:
                raise ValueError(f"{THREADS_ENV} must be an integer, got {cap!r}") from None
            if limit >= 1:
                cores = min(cores, limit)
        return cores
    if isinstance(threads, bool) or not isinstance(threads, int):
        raise TypeError(f"threads must be an int or None, not {type(threads).__name__}")
    if threads == 0:
        raise ValueError("threads must not be 0 (use None or -1 for all cores, 1 for serial)")
    if threads < 0:
        return max(1, cores + 1 + threads)
    return threads


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


def _runs_on_core(geometry: Geometry) -> bool:
    """True for the geometry the 9x9 engine handles: 9x9 with 3x3 boxes, any symbols."""
    if geometry is CLASSIC:
        return True
    return (geometry.size, geometry.box_rows, geometry.box_cols) == (9, 3, 3)


def check_budget(results: EngineResults, partial: Any, max_nodes: int | None) -> None:
    """Raise SearchLimitExceeded when a puzzle of `results` ran out of search nodes."""
    if _runs_on_core(results.geometry) or results.n == 0 or min(results.counts) >= 0:
        return
    indices = [i for i, count in enumerate(results.counts) if count == _general.BUDGET_EXHAUSTED]
    where = f"puzzle {indices[0]}" + (f" and {len(indices) - 1} more" if len(indices) > 1 else "")
    raise SearchLimitExceeded(
        f"{where}: no answer within max_nodes={max_nodes} search nodes "
        "(pass a larger max_nodes, or None for no budget)",
        indices,
        partial,
    )


def check_limit(limit: object) -> None:
    """Raise unless `limit` (solutions to count up to) is an int of at least 1."""
    if isinstance(limit, bool) or not isinstance(limit, int):
        raise TypeError(f"limit must be an int, not {type(limit).__name__}")
    if limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit}")


def node_budget(max_nodes: int | None) -> int:
    """The engine's form of a `max_nodes` argument: 0 means no budget."""
    if max_nodes is None:
        return 0
    if isinstance(max_nodes, bool) or not isinstance(max_nodes, int):
        raise TypeError(f"max_nodes must be an int or None, not {type(max_nodes).__name__}")
    if max_nodes < 1:
        raise ValueError(f"max_nodes must be at least 1 (or None for no budget), got {max_nodes}")
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
) -> EngineResults:
    """Run the engine over n encoded grids (a buffer of n*81 digits 0-9).

    limit=1 stops at the first solution; a higher limit counts solutions up to it.
    `timed` records each puzzle's solving time. For another `geometry` the buffer holds
    n*N*N values 0..N and the general engine runs, with a budget of `max_nodes` search
    nodes per puzzle (0 = none); a puzzle that runs out gets count -1. `decode` asks
    for the solution strings (see `decode_solutions`); on 9x9 grids each worker decodes
    the chunk it has just solved, so that serial step overlaps the other threads' solving.
    """
    check_limit(limit)
    workers = resolve_threads(threads)
    geometry = CLASSIC if geometry is None else geometry
    cells = geometry.cells
    results = EngineResults(
        n=n,
        solutions=bytearray(n * cells),
        counts=array("i", bytes(4 * n)),
        guesses=array("q", bytes(8 * n)),
        nodes=array("q", bytes(8 * n)),
        nanos=array("q", bytes(8 * n)) if timed else None,
        threads=1,
        geometry=geometry,
    )
    if decode and geometry == CLASSIC:  # other alphabets go through format_values
        results.texts = [None] * n
    if n == 0:
        return results
    # Bigger grids cost more per puzzle, so they are worth spreading in smaller chunks.
    min_chunk = max(1, MIN_CHUNK * CELLS // cells)
    stop_flag = bytearray(1)  # the general engine polls it to abandon a long puzzle
    solve_chunk = _chunk_solver(grids, results, limit, max_nodes, stop_flag)
    texts = results.texts

    def work(start: int, end: int) -> None:
        solve_chunk(start, end)
        if texts is not None:
            _core.decode_range(results.solutions, results.counts, texts, start, end)

    def abort() -> None:
        stop_flag[0] = 1

    # Chunks of the general engine can run for minutes, so there the caller only
    # waits, ready to raise the stop flag on Ctrl-C.
    results.threads = run_chunks(
        n, workers, min_chunk, work, caller_works=_runs_on_core(geometry), on_abort=abort
    )
    return results


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

    if workers == 1:
        take_chunks()
        return 1
    # The calling thread takes chunks too by default: one thread fewer to wake per call.
    futures = [_pool(workers).submit(take_chunks) for _ in range(workers - caller_works)]
    try:
        if caller_works:
            take_chunks()
        for future in futures:
            future.result()
    except BaseException:
        stop.set()  # workers finish their current chunk and take no more
        if on_abort is not None:
            on_abort()
        for future in futures:
            future.exception()
        raise
    return workers


def _chunk_solver(
    grids: Any, results: EngineResults, limit: int, max_nodes: int, stop_flag: bytearray
) -> Callable[[int, int], None]:
    """A function solving puzzles start..stop-1 into `results` with the right engine."""
    if _runs_on_core(results.geometry):

        def solve_chunk(start: int, stop: int) -> None:
            _core.solve_range(
                grids,
                results.solutions,
                results.counts,
                results.guesses,
                results.nodes,
                results.nanos,
                start,
                stop,
                limit,
            )

        return solve_chunk

    geometry = results.geometry
    tables = _general.tables_for(geometry.size, geometry.box_rows, geometry.box_cols)

    def solve_general_chunk(start: int, stop: int) -> None:
        _general.solve_range(
            tables,
            grids,
            results.solutions,
            results.counts,
            results.guesses,
            results.nodes,
            results.nanos,
            start,
            stop,
            limit,
            max_nodes,
            stop_flag,
        )

    return solve_general_chunk


_POOL: ThreadPoolExecutor | None = None
_POOL_SIZE = 0
_POOL_PID = 0
_POOL_LOCK = threading.Lock()


def _pool(workers: int) -> ThreadPoolExecutor:
    """A process-wide worker pool with at least `workers` threads, reused across calls.

    Starting threads costs more than solving a small batch, so the pool is kept; it is
    rebuilt when it is too small or after a fork (the child has no worker threads).
    """
    global _POOL, _POOL_SIZE, _POOL_PID
    with _POOL_LOCK:
        if _POOL is None or workers > _POOL_SIZE or os.getpid() != _POOL_PID:
            old = _POOL if os.getpid() == _POOL_PID else None
            _POOL = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="sudoku_fast")
            _POOL_SIZE = workers
            _POOL_PID = os.getpid()
            if old is not None:
                old.shutdown(wait=False)
        return _POOL


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
    grids = bytearray(len(puzzles) * cells)
    slow = _core.encode_strings(puzzles, grids) if geometry == CLASSIC else range(len(puzzles))
    for i in slow:
        grids[i * cells : (i + 1) * cells] = _encode_item(puzzles[i], i, geometry, inferred)
    return geometry, grids


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
    try:
        return list(puzzles)
    except TypeError:
        raise TypeError(
            f"{what} takes an iterable of puzzles, not {type(puzzles).__name__}"
        ) from None


def encode_input(
    puzzles: Any, what: str, box: object = None, alphabet: object = None
) -> tuple[Geometry, Any, int, frames.Column | None]:
    """Encode a batch input that is not a numpy value array: (geometry, grids, n, column).

    Columns (pandas, pyarrow, polars, numpy text) are read by `frames` and come back
    with their `Column`; any other iterable is listed and encoded here (column None).
    """
    column = frames.read_column(puzzles, what, box, alphabet)
    if column is not None:
        return column.geometry, column.grids, column.n, column
    items = _as_list(puzzles, what)
    geometry, grids = encode_batch(items, box, alphabet)
    return geometry, grids, len(items), None


def _numpy_array(puzzles: object) -> Any:
    """The input as a numpy array of values if it is one (numpy is imported only if loaded).

    A one-dimensional array of text is a column of puzzles, read by `frames`.
    """
    np = sys.modules.get("numpy")
    if np is not None and isinstance(puzzles, np.ndarray) and frames.column_kind(puzzles) is None:
        return puzzles
    return None


def _encode_array(
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
    try:
        geometry = geometry_for(size, box, alphabet)
    except ValueError as err:
        raise ValueError(f"{what}: {err}") from None
    n = shape[0]
    flat = arr.reshape(n, geometry.cells)
    if n:
        bad = (flat < 0) | (flat > size)
        if bad.any():
            row, col = (int(x) for x in np.argwhere(bad)[0])
            raise ValueError(
                f"puzzle {row}: value {int(flat[row, col])} at cell {col} is not a value 0-{size}"
            )
    return np.ascontiguousarray(flat, dtype=np.uint8).reshape(-1), n, geometry


@overload
def solve_many(
    puzzles: npt.NDArray[Any],
    threads: int | None = None,
    *,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    output: None = None,
) -> np.ndarray[Any, Any]: ...
@overload
def solve_many(
    puzzles: Iterable[str],
    threads: int | None = None,
    *,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    output: None = None,
) -> list[str | None]: ...
@overload
def solve_many(
    puzzles: Any,
    threads: int | None = None,
    *,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    output: str,
) -> Any: ...


def solve_many(
    puzzles: Any,
    threads: int | None = None,
    *,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    output: str | None = None,
) -> Any:
    """Solve a batch of puzzles on several threads; results are in input order.

    `puzzles` is an iterable of strings in any notation `parse` accepts, or a numpy
    integer array of shape (n, N*N) or (n, N, N) with 0 for empty cells. For strings the
    result is a list holding the canonical solution, or None where there is none. For an
    array the result is a uint8 array of the same shape; a row with no solution is all
    zeros. For puzzles with several solutions one valid solution is returned.

    A batch holds puzzles of one size: the size comes from `box` / `alphabet` when
    given (as in `parse`), else from the first puzzle. `threads`: None = all usable
    cores, 1 = serial in the caller, -k = all cores + 1 - k. A malformed item (or one of
    another size) raises ValueError (TypeError for a non-str) naming its index before
    any solving starts. Grids other than 9x9 get a budget of `max_nodes` search nodes
    per puzzle (None = no budget); running out raises `SearchLimitExceeded`.

    Columns are taken too: a pandas or polars Series, a pyarrow Array / ChunkedArray of
    strings, a 1-D numpy array of str or bytes (bytes items anywhere). `output` picks
    the result's form: None as above, "list", "arrow" (a pyarrow string array, null
    where there is no solution) or "like" (a column of the input's kind); see `frames`.
    """
    budget = node_budget(max_nodes)
    frames.check_output(output)
    arr = _numpy_array(puzzles)
    if arr is not None:
        import numpy as np

        grids, n, geometry = _encode_array(arr, "solve_many", box, alphabet)
        results = run_engine(grids, n, 1, threads, geometry=geometry, max_nodes=budget)
        out = np.frombuffer(results.solutions, dtype=np.uint8).reshape(arr.shape)
        check_budget(results, out, max_nodes)
        return out
    geometry, grids, n, column = encode_input(puzzles, "solve_many", box, alphabet)
    decode = frames.needs_texts(column, output)
    results = run_engine(grids, n, 1, threads, geometry=geometry, max_nodes=budget, decode=decode)
    solutions = frames.solutions_out(results, column, output)
    check_budget(results, solutions, max_nodes)
    return solutions


@overload
def count_many(
    puzzles: Any,
    limit: int = 2,
    threads: int | None = None,
    *,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    output: None = None,
) -> list[int]: ...
@overload
def count_many(
    puzzles: Any,
    limit: int = 2,
    threads: int | None = None,
    *,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    output: str,
) -> Any: ...


def count_many(
    puzzles: Any,
    limit: int = 2,
    threads: int | None = None,
    *,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    output: str | None = None,
) -> Any:
    """Count the solutions of each puzzle, up to `limit`, on several threads.

    With the default limit of 2 this is a uniqueness check: 0 = no solution, 1 = unique,
    2 = several. Accepts the same inputs and keywords as `solve_many`; returns a list of
    ints in input order (or, with `output`, an int32 column: see `solve_many`).
    """
    budget = node_budget(max_nodes)
    frames.check_output(output)
    column = None
    arr = _numpy_array(puzzles)
    if arr is not None:
        grids, n, geometry = _encode_array(arr, "count_many", box, alphabet)
    else:
        geometry, grids, n, column = encode_input(puzzles, "count_many", box, alphabet)
    results = run_engine(grids, n, limit, threads, geometry=geometry, max_nodes=budget)
    counts = list(results.counts)
    check_budget(results, counts, max_nodes)
    return frames.counts_out(counts, column, output)
