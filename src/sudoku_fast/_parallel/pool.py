"""The engine's thread pool: threads kept between batches, each running one body at a time.

Every batch call hands a body to up to `cores - 1` helper threads and runs one itself
(`_parallel.fanout.run_workers`). What a hand-off costs counts on small batches and on many
cores, where it is paid once per helper while the caller's thread holds the GIL, so the
pool does little per task: a task is an object with a lock held until its body has run
(`_thread` locks are C code; waiting on one can be interrupted by Ctrl-C), the threads
take tasks from one `queue.SimpleQueue`, and no future, condition or per-task thread
check is made. `concurrent.futures.ThreadPoolExecutor` did the same job with a Future
(a condition and its lock) per task and a semaphore per submission: about 45 us per
helper right after a batch on the 2-core development VM (see bench/README.md).

The pool is built on first use with room for the helpers asked for, grows when a call
asks for more (never beyond the usable cores: `shared_pool` returns None then, and the
caller starts threads of its own for that call), and is rebuilt in a child process
after a fork. Its threads are daemon threads: an idle one holds nothing, and a batch
waits for its helpers before it returns unless its caller's own part already waits for
them (the 9x9 engine's lead).
"""

from __future__ import annotations

import _thread
import os
import queue
import threading
from collections.abc import Callable

__all__ = ["Task", "WorkerPool", "shared_pool"]


class Task:
    """One call of `body` on another thread: wait for it, then see how it ended."""

    __slots__ = ("_done", "body", "error")

    def __init__(self, body: Callable[[], None]) -> None:
        self.body = body
        self.error: BaseException | None = None
        self._done = _thread.allocate_lock()
        self._done.acquire()  # released once the body has run

    def run(self) -> None:
        """Run the body (on the pool's thread), keeping any exception for the waiter."""
        try:
            self.body()
        except BaseException as exc:  # handed to whoever waits, as a Future does
            self.error = exc
        finally:
            self.body = _finished  # drop the body's references before anyone waits
            self._done.release()

    def join(self) -> None:
        """Block until the body has run, however it ended (Ctrl-C interrupts the wait)."""
        self._done.acquire()
        self._done.release()

    def wait(self) -> None:
        """Block until the body has run; raise the exception it raised, if any."""
        self.join()
        if self.error is not None:
            raise self.error

    def done(self) -> bool:
        """True once the body has run."""
        return not self._done.locked()


def _finished() -> None:
    """The body of a task that has run."""


def _serve(tasks: queue.SimpleQueue[Task | None]) -> None:
    """A pool thread: run tasks until told to stop (None)."""
    while True:
        task = tasks.get()
        if task is None:
            return
        task.run()
        del task  # not kept alive while this thread waits for the next one


class WorkerPool:
    """Threads of this process that run submitted bodies, one at a time each."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        self._tasks: queue.SimpleQueue[Task | None] = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()

    @property
    def size(self) -> int:
        """The threads the pool has."""
        return len(self._threads)

    def grow(self, size: int) -> None:
        """Start threads until the pool has `size` of them."""
        with self._lock:
            while len(self._threads) < size:
                thread = threading.Thread(
                    target=_serve,
                    args=(self._tasks,),
                    name=f"sudoku_fast_{len(self._threads)}",
                    daemon=True,
                )
                thread.start()
                self._threads.append(thread)

    def submit(self, body: Callable[[], None]) -> Task:
        """Hand `body` to the next free thread; the returned Task tells when it has run."""
        task = Task(body)
        self._tasks.put(task)
        return task

    def shutdown(self) -> None:
        """Stop every thread once the tasks before this call have run, and wait for them."""
        with self._lock:
            threads, self._threads = self._threads, []
        for _ in threads:
            self._tasks.put(None)
        for thread in threads:
            if thread is not threading.current_thread():
                thread.join()


_POOL: WorkerPool | None = None
_POOL_LOCK = threading.Lock()


def _forget_pool() -> None:
    """In a child after a fork: none of the parent's threads, nor its pool, came along."""
    global _POOL, _POOL_LOCK
    _POOL = None
    _POOL_LOCK = threading.Lock()  # another thread may have held it at the fork


# Where the OS tells us of forks, the pool is dropped in the child then, and a call
# that the pool can serve makes no system call at all; elsewhere the process id is
# compared on every call.
_FORKS_REPORTED = hasattr(os, "register_at_fork")
if _FORKS_REPORTED:
    os.register_at_fork(after_in_child=_forget_pool)


def shared_pool(helpers: int, usable: Callable[[], int]) -> WorkerPool | None:
    """The process-wide pool, with at least `helpers` threads; None if that is too many.

    `usable()` gives the usable cores; it is only asked when the pool must grow, so a
    call the pool can already serve makes no system call.
    """
    global _POOL
    pool = _POOL
    if pool is not None and pool.size >= helpers and (_FORKS_REPORTED or pool.pid == os.getpid()):
        return pool
    if helpers > usable():
        return None
    with _POOL_LOCK:
        if _POOL is None or _POOL.pid != os.getpid():
            _POOL = WorkerPool()  # a child after a fork has none of the parent's threads
        _POOL.grow(helpers)
        return _POOL
