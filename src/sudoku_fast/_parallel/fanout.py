"""The fan-out every batch function uses: chunks of a batch handed to the shared pool.

Puzzle cost is heavy-tailed (most take microseconds, a few milliseconds), so the work is
cut into small chunks claimed from a shared counter rather than one static slice per
thread; results land at each item's own index, so order never depends on scheduling.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable

from . import pool
from .cores import usable_cores

__all__ = ["CHUNKS_PER_THREAD", "MAX_CHUNK", "run_chunks", "run_workers"]

MAX_CHUNK = 256
CHUNKS_PER_THREAD = 8  # smaller chunks even out the heavy-tailed finish of a batch


def run_chunks(
    n: int,
    workers: int,
    min_chunk: int,
    work: Callable[[int, int], None],
    *,
    caller_works: bool = True,
    on_abort: Callable[[], None] | None = None,
    max_chunk: int = MAX_CHUNK,
    taper: bool = False,
) -> int:
    """Call `work(start, end)` over items 0..n-1 in chunks on up to `workers` threads.

    Chunks (of `min_chunk` to `max_chunk` items, about CHUNKS_PER_THREAD per thread) are
    handed out from a shared counter, so a few costly items do not leave the other
    threads idle; `work` should release the GIL for its chunk. With one worker (or a
    batch of one chunk) everything runs in the caller, still chunk by chunk so Ctrl-C
    is seen between chunks. `caller_works=False` keeps the calling thread free to
    notice Ctrl-C while long chunks run; then `on_abort` is called so they can stop
    early. Returns the number of threads used.

    `taper=True` makes the chunks shrink as the batch runs out: each claims about
    1/(2 * workers) of the items left (within `min_chunk`..`max_chunk`), so the last
    ones are `min_chunk` items and the threads finish within one small chunk of each
    other, in a batch too small for many chunks of the plain size (a few thousand
    items of tens of microseconds: the plain size leaves the last chunk alone for
    milliseconds), at no more chunks in all for a big batch.
    """
    if n <= 0:
        return 1
    chunk = max(min_chunk, min(max_chunk, n // (workers * CHUNKS_PER_THREAD) or 1))
    workers = max(1, min(workers, -(-n // chunk)))
    chunk_starts = itertools.count(0, chunk)
    claim = threading.Lock()  # also correct on free-threaded builds
    stop = threading.Event()
    next_start = [0]  # the tapering claim's counter, under `claim`
    share = 2 * workers

    def claim_tapering() -> tuple[int, int]:
        with claim:
            start = next_start[0]
            size = max(min_chunk, min(max_chunk, (n - start) // share))
            next_start[0] = end = min(n, start + size)
        return start, end

    def take_chunks() -> None:
        while not stop.is_set():
            if taper:
                start, end = claim_tapering()
            else:
                with claim:
                    start = next(chunk_starts)
                end = min(n, start + chunk)
            if start >= n:
                return
            work(start, end)

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
