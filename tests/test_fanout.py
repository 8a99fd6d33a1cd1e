"""The 9x9 fan-out: workers claiming chunks inside the engine, plain-string encoding.

`solve_batch` (one call per worker, chunks claimed by an atomic counter) must give
exactly what `solve_range` gives for the same puzzles, whatever the chunk size and the
number of threads sharing the batch; the GIL-free encoder must accept exactly the plain
characters and leave everything else to the full parser.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import threading
from array import array
from typing import Any

import pytest
from checks import check_solution
from conftest import data_file, interrupt, needs_sigint, read_csv, read_lines

import sudoku_fast as sf
from sudoku_fast._engine.encode import encode_puzzles
from sudoku_fast._engine.isa import core
from sudoku_fast._engine.run import run_engine
from sudoku_fast._parallel.fanout import run_workers

Buffers = tuple[bytearray, array, array, array]


def buffers(n: int) -> Buffers:
    return (
        bytearray(81 * n),
        array("i", bytes(4 * n)),
        array("q", bytes(8 * n)),
        array("q", bytes(8 * n)),
    )


def puzzles() -> list[str]:
    seventeen = read_lines(data_file("sudoku17_49158.txt", "sudoku17_sample.txt"))[:400]
    serg = data_file("serg_benchmark_multi_solution.csv", "serg_benchmark_sample.csv")
    mixed = [r["puzzle"] for r in read_csv(data_file(*("mixed_validity_9x9.csv",) * 2))]
    return seventeen + [r["puzzle"] for r in read_csv(serg)][:100] + mixed


def by_range(grids: bytearray, n: int, limit: int) -> Buffers:
    out = buffers(n)
    core.solve_range(grids, *out, None, 0, n, limit)
    return out


@pytest.mark.parametrize("chunk", [1, 7, 16, 10_000])
@pytest.mark.parametrize("limit", [1, 2, 30])
def test_one_worker_matches_solve_range(chunk: int, limit: int) -> None:
    items = puzzles()
    n = len(items)
    grids = encode_puzzles(items)
    out = buffers(n)
    cursor = array("q", [0])
    core.solve_batch(grids, *out, cursor, n, chunk, limit)
    assert out == by_range(grids, n, limit)
    assert cursor[0] >= n
    core.solve_batch(grids, *out, cursor, n, chunk, limit)  # nothing left to claim
    assert out == by_range(grids, n, limit)


@pytest.mark.parametrize("threads", [2, 3, 8])
def test_threads_sharing_one_cursor_match_solve_range(threads: int) -> None:
    items = puzzles()
    n = len(items)
    grids = encode_puzzles(items)
    out = buffers(n)
    cursor = array("q", [0])
    workers = [
        threading.Thread(target=core.solve_batch, args=(grids, *out, cursor, n, 3, 2))
        for _ in range(threads)
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert out == by_range(grids, n, 2)


def test_public_batch_calls_agree_with_the_published_solutions() -> None:
    rows = read_csv(
        data_file(
            "kaggle_bryanpark_10k_with_solutions.csv",
            "kaggle_bryanpark_sample500_with_solutions.csv",
        )
    )
    items = [r["puzzle"] for r in rows]
    expected = [r["solution"] for r in rows]
    for threads in (1, 2):
        assert sf.solve_many(items, threads=threads) == expected
        assert sf.count_many(items, threads=threads) == [1] * len(items)


def test_stop_flag_set_before_the_call_claims_nothing() -> None:
    grids = encode_puzzles(puzzles()[:50])
    out = buffers(50)
    cursor = array("q", [0])
    core.solve_batch(grids, *out, cursor, 50, 4, 1, bytearray(b"\x01"))
    assert cursor[0] == 0 and list(out[1]) == [0] * 50


@pytest.mark.parametrize(
    ("n", "chunk", "limit", "message"),
    [(10, 0, 1, "chunk"), (-1, 4, 1, "batch size"), (10, 4, 0, "limit"), (11, 4, 1, "too small")],
)
def test_bad_arguments(n: int, chunk: int, limit: int, message: str) -> None:
    grids = bytearray(81 * 10)
    with pytest.raises(ValueError, match=message):
        core.solve_batch(grids, *buffers(10), array("q", [0]), n, chunk, limit)


def test_run_workers_raises_the_first_error_and_aborts_the_others() -> None:
    aborted = []
    calls = []

    def body() -> None:
        calls.append(1)
        raise KeyError("boom")

    with pytest.raises(KeyError):
        run_workers(2, body, on_abort=lambda: aborted.append(1))
    assert aborted == [1] and len(calls) == 2
    assert run_workers(1, lambda: None) == 1


def test_run_workers_may_leave_the_helpers_to_return_on_their_own() -> None:
    release = threading.Event()
    finished = threading.Event()

    def helper() -> None:
        release.wait(30)
        finished.set()

    # The 9x9 engine's lead returns only once the batch is done, so its helpers need
    # not be waited for on their way back to the pool.
    assert run_workers(2, helper, caller_body=lambda: None, await_helpers=False) == 2
    assert not finished.is_set()
    release.set()
    assert finished.wait(30)
    release.clear()
    finished.clear()
    threading.Timer(0.05, release.set).start()
    assert run_workers(2, helper, caller_body=lambda: None) == 2  # waited for by default
    assert finished.is_set()


def test_finish_refuses_while_a_helper_is_in_the_engine() -> None:
    n = 64
    items = ["." * 81] * n  # counting up to a huge limit: each puzzle takes long
    out = buffers(n)
    fanout = core.Fanout(n, 1, None, True)
    cursor = array("q", [0])
    stop = bytearray(1)
    grids = encode_puzzles(items)
    helper = threading.Thread(
        target=core.solve_batch, args=(grids, *out, cursor, n, 1, 10**9, stop, fanout)
    )
    helper.start()
    try:
        while cursor[0] == 0:  # until the helper has claimed its first puzzle
            threading.Event().wait(0.001)
        with pytest.raises(RuntimeError, match="still writing"):
            fanout.finish(out[0], out[1])
    finally:
        stop[0] = 1
        helper.join()
    assert fanout.finish(out[0], out[1]) == [None] * n  # stopped: no answers


@pytest.mark.parametrize("threads", [2, 3])
def test_back_to_back_batches_while_helpers_return(threads: int) -> None:
    # The caller does not wait for the helpers' return to the pool, so the next batch
    # starts while they may still be on their way: every answer must stay its own.
    items = [p for p in puzzles() if core.encode_strings([p], bytearray(81)) == []]
    expected = sf.count_many(tuple(items), threads=1)
    for round_ in range(60):
        start = (round_ * 37) % len(items)
        part = items[start : start + 40 + round_ * 3]
        if round_ % 2:
            assert sf.count_many(part, threads=threads) == expected[start : start + len(part)]
            continue
        texts = sf.solve_many(part, threads=threads)
        for text, puzzle, count in zip(texts, part, expected[start:], strict=False):
            if count:
                check_solution(text, puzzle)
            else:
                assert text is None


PLAIN = "0123456789."


@pytest.mark.parametrize("position", [0, 40, 80])
def test_encoder_takes_exactly_the_plain_characters(position: int) -> None:
    base = "1" * 81
    items = [base[:position] + chr(code) + base[position + 1 :] for code in range(256)]
    out = bytearray(81 * len(items))
    slow = core.encode_strings(items, out)
    assert slow == [code for code in range(256) if chr(code) not in PLAIN]
    for code in map(ord, PLAIN):
        value = 0 if chr(code) == "." else code - 48
        assert out[81 * code + position] == value
        assert out[81 * code : 81 * code + 81].count(1) == 80 + (value == 1)


def test_encoder_leaves_other_shapes_to_the_parser() -> None:
    items = ["1" * 80, "1" * 82, "1" * 80 + "\u0100", b"1" * 81, None, "." * 81]
    assert core.encode_strings(items, bytearray(81 * len(items))) == [0, 1, 2, 3, 4]


@needs_sigint
@pytest.mark.parametrize("threads", [1, 2])
def test_ctrl_c_stops_a_long_batch_of_short_puzzles(threads: int) -> None:
    # Each empty grid is solved in far fewer than POLL_EVERY nodes, so only the checks
    # between chunks can notice the signal.
    code = (
        "import numpy as np, sudoku_fast as sf\n"
        f"sf.solve_many(np.zeros((3_000_000, 81), np.uint8), threads={threads})\n"
    )
    status, err, seconds = interrupt([sys.executable, "-c", code], after=2.0)
    assert status != 0 and "KeyboardInterrupt" in err, err
    assert seconds < 5


def test_decode_makes_the_strings_once_at_the_end() -> None:
    items = puzzles()
    results = run_engine(encode_puzzles(items), len(items), 1, 2, decode=True)
    assert results.texts == core.decode_solutions(results.solutions, results.counts)
    for item, text in zip(items, results.texts, strict=True):
        assert text is None or sf.is_solution(text, item)


def test_rows_without_a_solution_are_zero_even_in_recycled_memory() -> None:
    np = pytest.importorskip("numpy")
    n = 20_000
    puzzles = np.zeros((n, 81), np.uint8)
    puzzles[::2, :2] = 1  # two 1s in the first row: no solution for every other puzzle
    for _ in range(3):
        junk = bytearray(b"\xff" * (81 * n))  # memory the allocator may hand out again
        del junk
        out = sf.solve_many(puzzles, threads=2)
        assert not out[::2].any()
        assert all(sf.is_solution("".join(map(str, row)), "." * 81) for row in out[1::2][:50])


def test_new_buffer() -> None:
    assert len(core.new_buffer(0)) == 0
    assert len(core.new_buffer(1000)) == 1000
    with pytest.raises(ValueError, match="negative"):
        core.new_buffer(-1)


@pytest.mark.parametrize("size", [4 * 2**20 - 1, 4 * 2**20, 9 * 2**20 + 17])
def test_large_uninitialised_buffers_are_whole_and_writable(size: int) -> None:
    # From 4 MiB up the buffers are advised to use huge pages: the advice must cover
    # only memory the buffer owns, and every byte stays the buffer's to write and read.
    buffer = core.new_buffer(size)
    assert len(buffer) == size
    buffer[:] = bytes(range(256)) * (size // 256) + bytes(range(size % 256))
    assert buffer[-1] == (size - 1) % 256 and buffer[12345] == 12345 % 256
    items = core.new_array("q", size // 8 + 1)
    assert len(items) == size // 8 + 1 and items.itemsize == 8
    items[0], items[-1] = -1, 2**62
    assert (items[0], items[-1]) == (-1, 2**62)
    with pytest.raises(ValueError, match="negative"):
        core.new_array("i", -1)


def python_text(solutions: bytearray, i: int) -> str:
    """The solution string of puzzle i, formatted in plain Python (the twin of the engine's)."""
    return "".join(str(d) for d in solutions[81 * i : 81 * (i + 1)])


def check_texts(texts: list[str | None], items: list[str], expected: Buffers) -> None:
    """The strings of a batch against solve_range's buffers, and against the rules."""
    for i, item in enumerate(items):
        if expected[1][i] > 0:
            assert texts[i] == python_text(expected[0], i)
            check_solution(texts[i], item)
        else:
            assert texts[i] is None


def solve_on_a_fanout(
    items: list[str], limit: int, helpers: int, chunk: int
) -> tuple[Buffers, Any]:
    """Solve `items` as a list source with strings, the lead in this thread: the
    buffers and the Fanout, its strings not yet handed over."""
    n = len(items)
    out = buffers(n)
    cursor = array("q", [0])
    fanout = core.Fanout(n, helpers, items, True)
    args = (None, *out, cursor, n, chunk, limit, None, fanout)
    workers = [threading.Thread(target=core.solve_batch, args=args) for _ in range(helpers)]
    for worker in workers:
        worker.start()
    core.solve_batch(*args, True)
    for worker in workers:
        worker.join()
    return out, fanout


def run_fanout(items: list[str], limit: int, helpers: int, chunk: int) -> tuple[Buffers, Any]:
    """Solve `items` as a list source with strings: the buffers and the strings."""
    out, fanout = solve_on_a_fanout(items, limit, helpers, chunk)
    return out, fanout.finish(out[0], out[1])


@pytest.mark.parametrize("helpers", [0, 1, 2, 7])
@pytest.mark.parametrize(("chunk", "limit"), [(1, 1), (3, 2), (16, 1), (10_000, 30)])
def test_list_source_matches_solve_range_and_python_strings(
    helpers: int, chunk: int, limit: int
) -> None:
    items = [p for p in puzzles() if core.encode_strings([p], bytearray(81)) == []]
    n = len(items)
    out, texts = run_fanout(items, limit, helpers, chunk)
    expected = by_range(encode_puzzles(items), n, limit)
    assert out[1:] == expected[1:]
    check_texts(texts, items, expected)


def test_a_lead_whose_helpers_never_come_encodes_as_it_goes() -> None:
    items = [p for p in puzzles() if core.encode_strings([p], bytearray(81)) == []]
    n = len(items)
    out = buffers(n)
    fanout = core.Fanout(n, 3, items, True)  # three helpers announced, none ever calls
    core.solve_batch(None, *out, array("q", [0]), n, 4, 1, None, fanout, True)
    texts = fanout.finish(out[0], out[1])
    assert texts == sf.solve_many(tuple(items), threads=1)  # a tuple: the general path


@pytest.mark.parametrize("position", [0, 1, 200, -1])
@pytest.mark.parametrize("item", ["1" * 80, "x" * 81, b"." * 81, None, "\u0100" * 81])
def test_an_item_that_is_not_plain_fails_the_fanout(position: int, item: object) -> None:
    items: list[Any] = read_lines(data_file("sudoku17_49158.txt", "sudoku17_sample.txt"))[:300]
    items[position] = item
    n = len(items)
    out = buffers(n)
    fanout = core.Fanout(n, 1, items, True)
    cursor = array("q", [0])
    helper = threading.Thread(
        target=core.solve_batch, args=(None, *out, cursor, n, 2, 1, None, fanout)
    )
    helper.start()
    core.solve_batch(None, *out, cursor, n, 2, 1, None, fanout, True)
    helper.join()
    assert fanout.failed
    with pytest.raises(ValueError, match="not plain"):
        fanout.finish(out[0], out[1])


def test_a_list_shrunk_before_the_lead_reads_it_fails_the_fanout() -> None:
    items = read_lines(data_file("sudoku17_49158.txt", "sudoku17_sample.txt"))[:100]
    n = len(items)
    fanout = core.Fanout(n, 0, items, True)
    del items[50:]
    out = buffers(n)
    core.solve_batch(None, *out, array("q", [0]), n, 4, 1, None, fanout, True)
    assert fanout.failed


def test_fanout_arguments_and_a_single_hand_over() -> None:
    items = read_lines(data_file("sudoku17_49158.txt", "sudoku17_sample.txt"))[:20]
    with pytest.raises(ValueError, match="at least n"):
        core.Fanout(21, 1, items, True)
    with pytest.raises(ValueError, match="negative"):
        core.Fanout(-1, 1)
    out = buffers(20)
    with pytest.raises(ValueError, match="Fanout of this batch"):
        core.solve_batch(None, *out, array("q", [0]), 19, 4, 1, None, core.Fanout(20, 0, items))
    with pytest.raises(ValueError, match="lead needs"):
        core.solve_batch(bytearray(81 * 20), *out, array("q", [0]), 20, 4, 1, None, None, True)
    with pytest.raises(ValueError, match="no strings"):
        core.Fanout(20, 0, items).finish(out[0], out[1])
    fanout = core.Fanout(20, 0, items, True)
    core.solve_batch(None, *out, array("q", [0]), 20, 4, 1, None, fanout, True)
    texts = fanout.finish(out[0], out[1])
    assert all(sf.is_solution(t, p) for t, p in zip(texts, items, strict=True))
    with pytest.raises(ValueError, match="handed over"):
        fanout.finish(out[0], out[1])


def run_batch(
    grids: bytearray | None, items: list[str] | None, n: int, limit: int, helpers: int, chunk: int
) -> tuple[Any, list[str | None] | None]:
    """Solve n puzzles on a BatchRun, the lead in this thread: the run and its strings
    (made when `items`, the list source, is given)."""
    run = core.BatchRun(grids, items, n, chunk, limit, helpers, items is not None)
    workers = [threading.Thread(target=run.helper) for _ in range(helpers)]
    for worker in workers:
        worker.start()
    run.lead()
    for worker in workers:
        worker.join()
    return run, run.finish() if items is not None else None


@pytest.mark.parametrize("helpers", [0, 1, 3])
@pytest.mark.parametrize(("chunk", "limit"), [(1, 1), (3, 2), (16, 1), (10_000, 30)])
def test_a_batch_run_matches_solve_range(helpers: int, chunk: int, limit: int) -> None:
    items = [p for p in puzzles() if core.encode_strings([p], bytearray(81)) == []]
    n = len(items)
    expected = by_range(encode_puzzles(items), n, limit)
    run, texts = run_batch(None, items, n, limit, helpers, chunk)
    assert (run.solutions, run.counts, run.guesses, run.nodes) == expected
    assert texts is not None
    check_texts(texts, items, expected)
    run, _ = run_batch(encode_puzzles(items), None, n, limit, helpers, chunk)  # grids in
    assert (run.solutions, run.counts, run.guesses, run.nodes) == expected
    assert 0 < run.first_entry_ns <= run.lead_exit_ns <= core.now_ns()


def test_batch_run_arguments() -> None:
    items = read_lines(data_file("sudoku17_49158.txt", "sudoku17_sample.txt"))[:20]
    with pytest.raises(ValueError, match="at least n"):
        core.BatchRun(None, items, 21, 4, 1, 0, True)
    with pytest.raises(ValueError, match="too small"):
        core.BatchRun(bytearray(81 * 19), None, 20, 4, 1, 0, False)
    with pytest.raises(ValueError, match="grids"):
        core.BatchRun(None, None, 20, 4, 1, 0, False)  # no grids, no source
    with pytest.raises(ValueError, match="limit"):
        core.BatchRun(None, items, 20, 4, 0, 0, False)
    with pytest.raises(ValueError, match="chunk"):
        core.BatchRun(None, items, 20, 0, 1, 0, False)
    with pytest.raises(ValueError, match="one byte"):
        core.BatchRun(None, items, 20, 4, 1, 0, False, bytearray(0))
    with pytest.raises(ValueError, match="negative"):
        core.BatchRun(None, items, 20, 4, 1, -1, False)
    run = core.BatchRun(None, items, 20, 4, 1, 0, True)
    assert run.threads == 1 and not run.failed
    run.lead()
    with pytest.raises(ValueError, match="one lead"):
        run.lead()
    texts = run.finish()
    assert all(sf.is_solution(t, p) for t, p in zip(texts, items, strict=True))
    with pytest.raises(ValueError, match="handed over"):
        run.finish()
    bad = core.BatchRun(None, [*items[:5], "x" * 81, *items[6:]], 20, 4, 1, 0, True)
    bad.lead()
    assert bad.failed


def test_a_batch_run_stopped_before_it_starts_returns_at_once() -> None:
    items = [p for p in puzzles() if core.encode_strings([p], bytearray(81)) == []]
    n = len(items)
    run = core.BatchRun(None, items, n, 1, 10**6, 1, True)
    run.stop()
    helper = threading.Thread(target=run.helper)
    helper.start()
    run.lead()  # counts up to a million solutions each, had it not been stopped
    helper.join(timeout=60)
    assert not helper.is_alive() and run.lead_exit_ns > 0


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_list_input_agrees_with_the_general_path(threads: int) -> None:
    items = puzzles()  # plain strings, several with no or many solutions
    plain = [p for p in items if core.encode_strings([p], bytearray(81)) == []]
    assert sf.solve_many(plain, threads=threads) == sf.solve_many(tuple(plain), threads=threads)
    assert sf.count_many(plain, threads=threads) == sf.count_many(tuple(plain), threads=threads)
    # a list with items the parser must read: the engine gives up on it, the parser runs
    pretty = [plain[0], "\n".join(plain[1][r * 9 : r * 9 + 9] for r in range(9)), plain[2]]
    assert sf.solve_many(pretty, threads=threads) == sf.solve_many(tuple(pretty), threads=threads)
    with pytest.raises(TypeError, match="puzzle 2"):
        sf.solve_many([plain[0], plain[1], 7, *plain[3:]], threads=threads)
    with pytest.raises(ValueError, match="puzzle 1"):
        sf.count_many([plain[0], "x" * 81, *plain[2:]], threads=threads)


def large_plain_batch() -> list[str]:
    """Plain puzzle strings, enough for the batch to fault its strings' memory in first."""
    plain = [p for p in puzzles() if core.encode_strings([p], bytearray(81)) == []]
    copies = -(-(core.PREFAULT_STRINGS_FROM + 1000) // len(plain))
    return [p[:40] + p[40:] for p in plain * copies]  # distinct string objects


@pytest.mark.parametrize("helpers", [1, 3])
def test_large_batches_make_their_strings_in_prefaulted_memory(helpers: int) -> None:
    items = large_plain_batch()
    allocator = core.arena_allocator_now()
    _, texts = run_fanout(items, 1, helpers, 64)
    assert core.arena_allocator_now() == allocator  # put back once the strings are made
    expected = sf.solve_many(tuple(items), threads=1)  # a tuple: the general path
    assert texts == expected
    for i in range(0, len(items), 997):
        if texts[i] is not None:
            check_solution(texts[i], items[i])
    # Free room left in pymalloc's arenas by earlier tests would take the strings without
    # a new arena: fill it with strings of the same size first.
    ballast = [p[:40] + p[40:] for p in items * 8]
    _, fanout = solve_on_a_fanout(items, 1, helpers, 64)
    del ballast
    if core.PREFAULT_ARENAS:
        assert fanout.arenas_served > 0
    else:
        assert fanout.arenas_served == 0


def test_a_failing_large_batch_puts_the_allocator_back() -> None:
    items: list[Any] = large_plain_batch()
    items[-5] = "x" * 81
    allocator = core.arena_allocator_now()
    with pytest.raises(ValueError, match=f"puzzle {len(items) - 5}"):
        sf.solve_many(items, threads=2)
    assert core.arena_allocator_now() == allocator
    assert sf.solve_many(items[:-5], threads=2) == sf.solve_many(tuple(items[:-5]), threads=2)
    assert sf.solve_many([], threads=2) == []


def test_free_threaded_builds_never_use_the_pool() -> None:
    # Their allocator is mimalloc: no arenas to fault in (PYTHONMALLOC=malloc is refused).
    free_threaded = bool(sysconfig.get_config_var("Py_GIL_DISABLED"))
    assert not (free_threaded and core.PREFAULT_ARENAS)


@pytest.mark.skipif(
    bool(sysconfig.get_config_var("Py_GIL_DISABLED")),
    reason="free-threaded CPython refuses PYTHONMALLOC=malloc (and never uses the pool)",
)
def test_another_allocator_turns_the_pool_off() -> None:
    script = (
        "from sudoku_fast._engine.isa import core\n"
        "import sudoku_fast as sf\n"
        "p = sf.generate(seed=1)\n"
        "n = core.PREFAULT_STRINGS_FROM + 10\n"
        "items = [p[:40] + p[40:] for _ in range(n)]\n"
        "texts = sf.solve_many(items, threads=2)\n"
        "assert texts == [sf.solve(p)] * n\n"
        "print(core.PREFAULT_ARENAS)\n"
    )
    env = {**os.environ, "PYTHONMALLOC": "malloc"}
    proc = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=300
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "False"
