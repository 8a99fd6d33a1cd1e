"""Batch fan-out: convert a whole batch once, run the engine on threads, keep input order.

The batch is encoded under the GIL into one contiguous buffer of 81-byte grids. Worker
threads then take small chunks from a shared counter (puzzle cost is heavy-tailed, so a
static split would leave one thread with all the hard ones) and call the engine, which
releases the GIL for the whole chunk. Results land in preallocated output buffers at the
puzzle's own index, so order never depends on scheduling.
"""

from __future__ import annotations

import itertools
import os
import sys
import threading
from array import array
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, overload

from . import _core
from .grid import CELLS, parse_values

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

THREADS_ENV = "SUDOKU_FAST_NUM_THREADS"
MAX_CHUNK = 256
MIN_CHUNK = 16  # batches of up to this many puzzles run serially


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
    `nanos[i]` its solving time in nanoseconds when timing was asked for.
    """

    n: int
    solutions: bytearray
    counts: array[int]
    guesses: array[int]
    nodes: array[int]
    nanos: array[int] | None
    threads: int


def run_engine(
    grids: Any, n: int, limit: int = 1, threads: int | None = None, timed: bool = False
) -> EngineResults:
    """Run the engine over n encoded grids (a buffer of n*81 digits 0-9).

    limit=1 stops at the first solution; a higher limit counts solutions up to it.
    `timed` records each puzzle's solving time.
    """
    if isinstance(limit, bool) or not isinstance(limit, int):
        raise TypeError(f"limit must be an int, not {type(limit).__name__}")
    if limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit}")
    workers = resolve_threads(threads)
    results = EngineResults(
        n=n,
        solutions=bytearray(n * CELLS),
        counts=array("i", bytes(4 * n)),
        guesses=array("q", bytes(8 * n)),
        nodes=array("q", bytes(8 * n)),
        nanos=array("q", bytes(8 * n)) if timed else None,
        threads=1,
    )
    if n == 0:
        return results
    chunk = max(MIN_CHUNK, min(MAX_CHUNK, n // (workers * 8) or 1))
    workers = min(workers, -(-n // chunk))
    results.threads = workers
    chunk_starts = itertools.count(0, chunk)
    claim = threading.Lock()  # also correct on free-threaded builds
    stop = threading.Event()

    def work() -> None:
        while not stop.is_set():
            with claim:
                start = next(chunk_starts)
            if start >= n:
                return
            _core.solve_range(
                grids,
                results.solutions,
                results.counts,
                results.guesses,
                results.nodes,
                results.nanos,
                start,
                min(n, start + chunk),
                limit,
            )

    if workers == 1:
        work()  # chunked even when serial, so Ctrl-C is seen between chunks
        return results
    futures = [_pool(workers).submit(work) for _ in range(workers)]
    try:
        for future in futures:
            future.result()
    except BaseException:
        stop.set()  # workers finish their current chunk and take no more
        for future in futures:
            future.exception()
        raise
    return results


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
    """Encode a list of puzzle strings into one buffer of 81-byte grids.

    Plain 81-character strings take the compiled fast path; anything else goes through
    the full parser. Raises TypeError/ValueError naming the index of the first bad item.
    """
    grids = bytearray(len(puzzles) * CELLS)
    for i in _core.encode_strings(puzzles, grids):
        item = puzzles[i]
        if not isinstance(item, str):
            raise TypeError(f"puzzle {i}: must be a str, not {type(item).__name__}")
        try:
            grids[i * CELLS : (i + 1) * CELLS] = bytes(parse_values(item))
        except ValueError as err:
            raise ValueError(f"puzzle {i}: {err}") from None
    return grids


def decode_solutions(results: EngineResults) -> list[str | None]:
    """Canonical solution strings in input order; None where there is no solution."""
    return _core.decode_solutions(results.solutions, results.counts)


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


def _numpy_array(puzzles: object) -> Any:
    """The input as a numpy array if it is one (numpy is imported only if already loaded)."""
    np = sys.modules.get("numpy")
    if np is not None and isinstance(puzzles, np.ndarray):
        return puzzles
    return None


def _encode_array(arr: Any, what: str) -> tuple[Any, int]:
    """Validate a numpy array of shape (n, 81) or (n, 9, 9) holding digits 0-9."""
    import numpy as np

    if arr.shape[1:] not in ((CELLS,), (9, 9)):
        shape = arr.shape
        raise ValueError(f"{what}: expected an array of shape (n, 81) or (n, 9, 9), got {shape}")
    if not np.issubdtype(arr.dtype, np.integer):
        raise TypeError(f"{what}: expected an integer array, got dtype {arr.dtype}")
    n = arr.shape[0]
    flat = arr.reshape(n, CELLS)
    if n:
        bad = (flat < 0) | (flat > 9)
        if bad.any():
            row, col = (int(x) for x in np.argwhere(bad)[0])
            raise ValueError(
                f"puzzle {row}: value {int(flat[row, col])} at cell {col} is not a digit 0-9"
            )
    return np.ascontiguousarray(flat, dtype=np.uint8).reshape(-1), n


@overload
def solve_many(puzzles: npt.NDArray[Any], threads: int | None = None) -> np.ndarray[Any, Any]: ...
@overload
def solve_many(puzzles: Iterable[str], threads: int | None = None) -> list[str | None]: ...


def solve_many(puzzles: Any, threads: int | None = None) -> Any:
    """Solve a batch of puzzles on several threads; results are in input order.

    `puzzles` is an iterable of strings in any notation `parse` accepts, or a numpy
    integer array of shape (n, 81) or (n, 9, 9) with 0 for empty cells. For strings the
    result is a list holding the canonical solution, or None where there is none. For an
    array the result is a uint8 array of the same shape; a row with no solution is all
    zeros. For puzzles with several solutions one valid solution is returned.

    `threads`: None = all usable cores, 1 = serial in the caller, -k = all cores + 1 - k.
    A malformed item raises ValueError (TypeError for a non-str) naming its index before
    any solving starts.
    """
    arr = _numpy_array(puzzles)
    if arr is not None:
        import numpy as np

        grids, n = _encode_array(arr, "solve_many")
        results = run_engine(grids, n, 1, threads)
        out = np.frombuffer(results.solutions, dtype=np.uint8)
        return out.reshape(arr.shape)
    items = _as_list(puzzles, "solve_many")
    results = run_engine(encode_puzzles(items), len(items), 1, threads)
    return decode_solutions(results)


def count_many(puzzles: Any, limit: int = 2, threads: int | None = None) -> list[int]:
    """Count the solutions of each puzzle, up to `limit`, on several threads.

    With the default limit of 2 this is a uniqueness check: 0 = no solution, 1 = unique,
    2 = several. Accepts the same inputs as `solve_many`; returns a list of ints in input
    order.
    """
    arr = _numpy_array(puzzles)
    if arr is not None:
        grids, n = _encode_array(arr, "count_many")
    else:
        items = _as_list(puzzles, "count_many")
        grids, n = encode_puzzles(items), len(items)
    return list(run_engine(grids, n, limit, threads).counts)
