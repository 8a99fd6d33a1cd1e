"""The engine's thread pool: tasks run on its threads, errors reach the waiter, one pool
per process (rebuilt after a fork), and calls asking for more threads than cores get
threads of their own."""

from __future__ import annotations

import os
import subprocess
import sys
import threading

import pytest

import sudoku_fast as sf
from sudoku_fast._parallel import pool


def test_tasks_run_on_the_pool_threads_and_errors_reach_the_waiter() -> None:
    workers = pool.WorkerPool()
    workers.grow(2)
    assert workers.size == 2
    names: list[str] = []
    started = threading.Barrier(3)

    def body() -> None:
        names.append(threading.current_thread().name)
        started.wait(30)  # both threads at once: each task has its own thread

    tasks = [workers.submit(body) for _ in range(2)]
    started.wait(30)
    for task in tasks:
        task.wait()
        assert task.done() and task.error is None
    assert sorted(names) == ["sudoku_fast_0", "sudoku_fast_1"]

    def fail() -> None:
        raise KeyError("boom")

    task = workers.submit(fail)
    task.join()  # waits, whatever the outcome
    assert isinstance(task.error, KeyError)
    with pytest.raises(KeyError, match="boom"):
        task.wait()
    workers.shutdown()
    assert workers.size == 0


def test_a_task_not_run_yet_is_not_done() -> None:
    workers = pool.WorkerPool()
    workers.grow(1)
    release = threading.Event()

    def hold() -> None:
        release.wait(30)

    first = workers.submit(hold)
    second = workers.submit(lambda: None)
    assert not second.done()  # the only thread is still on the first task
    release.set()
    first.wait()
    second.wait()
    assert second.done()
    workers.shutdown()


def test_the_shared_pool_is_kept_grown_and_refused_beyond_the_cores() -> None:
    shared = pool.shared_pool(1, lambda: 4)
    assert shared is not None
    assert pool.shared_pool(1, lambda: 4) is shared
    grown = pool.shared_pool(3, lambda: 4)
    assert grown is shared and shared.size >= 3
    assert pool.shared_pool(shared.size + 1, lambda: shared.size) is None


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_child_process_builds_a_pool_of_its_own() -> None:
    code = (
        "import os, sudoku_fast as sf\n"
        "from sudoku_fast._parallel import pool\n"
        "from sudoku_fast.datasets import load_embedded\n"
        "puzzles = load_embedded('magictour_top1465')[:200]\n"
        "expected = sf.solve_many(puzzles, threads=2)\n"
        "parent = pool.shared_pool(1, lambda: 2)\n"
        "pid = os.fork()\n"
        "if pid == 0:\n"
        "    ok = sf.solve_many(puzzles, threads=2) == expected\n"
        "    ok = ok and pool.shared_pool(1, lambda: 2) is not parent\n"
        "    os._exit(0 if ok else 1)\n"
        "_, status = os.waitpid(pid, 0)\n"
        "print(os.waitstatus_to_exitcode(status))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-W", "ignore::DeprecationWarning", "-c", code],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "0"


def test_batches_from_several_caller_threads_at_once() -> None:
    # Tasks of several batches share the pool's queue; each batch gets its own answers.
    from sudoku_fast.datasets import load_embedded

    puzzles = load_embedded("magictour_top1465")[:300]
    expected = sf.solve_many(puzzles, threads=1)
    results: dict[int, bool] = {}

    def caller(k: int) -> None:
        part = puzzles[k * 50 :] + puzzles[: k * 50]
        want = expected[k * 50 :] + expected[: k * 50]
        results[k] = all(sf.solve_many(part, threads=3) == want for _ in range(5))

    callers = [threading.Thread(target=caller, args=(k,)) for k in range(4)]
    for thread in callers:
        thread.start()
    for thread in callers:
        thread.join(120)
    assert results == {0: True, 1: True, 2: True, 3: True}


def test_every_batch_api_from_several_caller_threads_at_once(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # One round of tests/thread_stress.py: every batch operation (solve, count, rate and
    # score, generate, canonical, transforms, lab, hints, columns, a node budget) from
    # three Python threads at once, each answer compared with the serial one; on a
    # free-threaded CPython it also fails if the GIL came back on.
    import thread_stress

    status = thread_stress.main(["--callers", "3", "--rounds", "1", "--threads", "2"])
    assert status == 0, capsys.readouterr().out
