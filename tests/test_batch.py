"""solve_many / count_many: threads, input order, errors with the index, numpy in and out."""

from __future__ import annotations

import pickle
import subprocess
import sys
import threading
from array import array
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest
from checks import check_solution
from conftest import data_file, interrupt, needs_sigint, read_csv

import sudoku_fast as sf
from sudoku_fast._engine.isa import core
from sudoku_fast._engine.run import shared_buffers
from sudoku_fast._parallel.cores import usable_cores
from sudoku_fast._parallel.threads import THREADS_ENV, resolve_threads
from sudoku_fast.datasets import load_embedded

PUZZLE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


@pytest.fixture(scope="module")
def mixed_batch() -> list[str]:
    """A few thousand puzzles: hard, easy, multi-solution and unsolvable, interleaved."""
    hard = load_embedded("magictour_top1465")
    easy = [
        r["puzzle"]
        for r in read_csv(
            data_file(
                "kaggle_bryanpark_10k_with_solutions.csv",
                "kaggle_bryanpark_sample500_with_solutions.csv",
            )
        )
    ][:1500]
    odd = [
        r["puzzle"] for r in read_csv(data_file("mixed_validity_9x9.csv", "mixed_validity_9x9.csv"))
    ]
    batch = []
    for i in range(max(len(hard), len(easy))):
        batch += hard[i : i + 1] + easy[i : i + 1] + odd[i % len(odd) : i % len(odd) + 1]
    return batch


@pytest.mark.slow
def test_threads_give_identical_results_in_order(mixed_batch: list[str]) -> None:
    serial = sf.solve_many(mixed_batch, threads=1)
    assert len(serial) == len(mixed_batch) > 3000
    for threads in (2, None, -1, 7):
        assert sf.solve_many(mixed_batch, threads=threads) == serial
    singles = [sf.solve(p) for p in mixed_batch[:300]]
    assert serial[:300] == singles
    for threads in (1, 2, None):
        assert sf.count_many(mixed_batch, threads=threads) == [
            sf.count_solutions(p) for p in mixed_batch
        ]


def test_every_result_is_valid_or_none(mixed_batch: list[str]) -> None:
    counts = sf.count_many(mixed_batch)
    solutions = sf.solve_many(mixed_batch)
    for puzzle, solution, count in zip(mixed_batch, solutions, counts, strict=True):
        if count == 0:
            assert solution is None
        else:
            check_solution(solution, puzzle)


def test_accepts_any_iterable_and_notation() -> None:
    pretty = sf.show(PUZZLE)
    gen = (p for p in [PUZZLE, pretty, PUZZLE.replace(".", "0")])
    assert sf.solve_many(gen) == [sf.solve(PUZZLE)] * 3
    assert sf.solve_many(()) == []
    assert sf.count_many([]) == []


def test_malformed_item_names_its_index() -> None:
    batch = [PUZZLE] * 5 + [PUZZLE[:80]] + [PUZZLE]
    with pytest.raises(ValueError, match="puzzle 5: expected 81 cells, found 80"):
        sf.solve_many(batch)
    batch = [PUZZLE] * 3 + [PUZZLE[:40] + "x" + PUZZLE[41:]]
    with pytest.raises(
        ValueError, match=r"puzzle 3: unexpected character 'x' at position 40 \(cell r5c5; "
    ):
        sf.count_many(batch)
    with pytest.raises(TypeError, match="puzzle 2: must be a str, not int"):
        sf.solve_many([PUZZLE, PUZZLE, 7])
    # Before any size is known, the cell is named when the cell count gives one.
    bad = PUZZLE[:40] + "x" + PUZZLE[41:]
    with pytest.raises(ValueError, match=r"^unexpected character 'x' at position 40 \(cell r5c5\)"):
        sf.parse(bad)
    with pytest.raises(
        ValueError, match=r"^puzzle 0: unexpected character 'x' at position 40 \(cell r5c5\)"
    ):
        sf.solve_many([bad, PUZZLE])


def test_single_string_is_not_a_batch() -> None:
    with pytest.raises(TypeError, match="iterable of puzzles"):
        sf.solve_many(PUZZLE)
    with pytest.raises(TypeError, match="iterable of puzzles"):
        sf.solve_many(42)  # type: ignore[call-overload]


def test_threads_argument() -> None:
    cores = usable_cores()
    assert resolve_threads(1) == 1
    assert resolve_threads(3) == 3
    assert resolve_threads(-1) == cores
    assert resolve_threads(-2) == max(1, cores - 1)
    assert resolve_threads(-1000) == 1
    assert resolve_threads(None) == cores
    with pytest.raises(ValueError, match="must not be 0"):
        resolve_threads(0)
    with pytest.raises(ValueError, match="must not be 0"):
        sf.solve_many([PUZZLE], threads=0)
    with pytest.raises(TypeError):
        resolve_threads(1.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        resolve_threads(True)


def test_thread_cap_from_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(THREADS_ENV, "1")
    assert resolve_threads(None) == 1
    assert resolve_threads(-1) == 1  # every "all cores" request is capped
    assert resolve_threads(-3) == 1
    assert resolve_threads(2) == 2  # an explicit count wins
    for bad in ("lots", "0", "-4", "1.5", "1_0", "\u0663"):  # 0 or less would mean no cap
        monkeypatch.setenv(THREADS_ENV, bad)
        with pytest.raises(ValueError, match=f"{THREADS_ENV} must be a whole number"):
            resolve_threads(None)
    monkeypatch.setenv(THREADS_ENV, " ")  # blank: not set
    assert resolve_threads(None) == usable_cores()


def test_threads_of_a_batch_that_one_thread_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """`most` caps the count; with most=1 the cores are not counted, but the argument
    and the environment variable are checked as for any batch."""
    monkeypatch.delenv(THREADS_ENV, raising=False)
    cores = usable_cores()
    for threads in (None, 1, 5, -1, -1000):
        assert resolve_threads(threads, most=1) == 1
    assert resolve_threads(8, most=3) == 3
    assert resolve_threads(None, most=10**6) == cores
    assert resolve_threads(-1, most=2) == min(cores, 2)
    assert resolve_threads(2, most=10**6) == 2
    with pytest.raises(ValueError, match="must not be 0"):
        resolve_threads(0, most=1)
    for bad in (True, 1.5, "2"):
        with pytest.raises(TypeError, match="threads must be an int or None"):
            resolve_threads(bad, most=1)  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="threads must be an int or None"):
            sf.solve_many([PUZZLE], threads=bad)  # type: ignore[call-overload]
    with pytest.raises(ValueError, match="must not be 0"):
        sf.count_many([PUZZLE], threads=0)
    monkeypatch.setenv(THREADS_ENV, "lots")
    for threads in (None, -2):
        with pytest.raises(ValueError, match=f"{THREADS_ENV} must be a whole number"):
            resolve_threads(threads, most=1)
        with pytest.raises(ValueError, match=f"{THREADS_ENV} must be a whole number"):
            sf.solve_many([PUZZLE], threads=threads)
    assert sf.solve_many([PUZZLE], threads=1) == [sf.solve(PUZZLE)]  # a count: not read


def test_batches_on_one_thread_give_the_fan_outs_answers(mixed_batch: list[str]) -> None:
    """A list that runs on one thread (threads=1, or MIN_CHUNK puzzles or fewer) is solved
    in the caller's thread without the fan-out: the same answers, valid by the rules."""
    batch = mixed_batch[:300]
    solutions = sf.solve_many(batch, threads=2)
    counts = sf.count_many(batch, threads=2)
    assert sf.solve_many(batch, threads=1) == solutions
    assert sf.count_many(batch, threads=1) == counts
    assert sf.count_many(batch, 50, threads=1) == sf.count_many(batch, 50, threads=2)
    for puzzle, solution, count in zip(batch, solutions, counts, strict=True):
        assert (solution is None) == (count == 0)
        if solution is not None:
            check_solution(solution, puzzle)
    for size in (1, 2, 15, 16, 17):
        for start in (0, 100, 200):
            part = batch[start : start + size]
            for threads in (None, 1, 2, -1):
                assert sf.solve_many(part, threads=threads) == solutions[start : start + size]
                assert sf.count_many(part, threads=threads) == counts[start : start + size]
    assert sf.count_many(batch[:5], output="list") == counts[:5]
    # An item that is not a plain puzzle string: the parser reads the list in full.
    assert sf.solve_many([batch[0], sf.show(batch[0])], threads=1) == [solutions[0]] * 2
    with pytest.raises(ValueError, match="puzzle 1: expected 81 cells, found 80"):
        sf.count_many([batch[0], batch[0][:80]], threads=1)
    assert sf.solve_many([batch[0], batch[0][:80]], on_error="none") == [solutions[0], None]


def test_numpy_in_and_out() -> None:
    np = pytest.importorskip("numpy")
    puzzles = [*load_embedded("norvig_top95"), "55" + "." * 79]
    arr = np.array([[0 if c == "." else int(c) for c in p] for p in puzzles], dtype=np.uint8)
    out = sf.solve_many(arr, threads=2)
    assert isinstance(out, np.ndarray)
    assert out.shape == arr.shape and out.dtype == np.uint8
    expected = sf.solve_many(puzzles)
    for row, solution in zip(out[:-1], expected[:-1], strict=True):
        assert "".join(map(str, row)) == solution
    assert not out[-1].any()  # no solution: a row of zeros
    out3 = sf.solve_many(arr.reshape(-1, 9, 9).astype(np.int64), threads=1)
    assert out3.shape == (len(puzzles), 9, 9)
    assert (out3.reshape(-1, 81) == out).all()
    assert sf.count_many(arr) == [1] * 95 + [0]
    like = sf.count_many(arr, output="like")  # an array answers with an array, as solve
    assert isinstance(like, np.ndarray) and like.dtype == np.int32
    assert like.tolist() == [1] * 95 + [0]


def test_numpy_bad_input() -> None:
    np = pytest.importorskip("numpy")
    arr = np.zeros((3, 81), dtype=np.int16)
    arr[2, 7] = 10
    with pytest.raises(ValueError, match="puzzle 2: value 10 at cell 7"):
        sf.solve_many(arr)
    with pytest.raises(ValueError, match="shape"):
        sf.solve_many(np.zeros((3, 80), dtype=np.uint8))
    with pytest.raises(TypeError, match="integer"):
        sf.solve_many(np.zeros((3, 81), dtype=np.float64))


def test_nine_by_nine_with_own_alphabet_keeps_its_symbols() -> None:
    letters = PUZZLE.translate(str.maketrans("123456789", "ABCDEFGHI"))
    [solution] = sf.solve_many([letters], threads=1, alphabet="ABCDEFGHI")
    assert solution is not None
    assert solution == sf.solve(PUZZLE).translate(str.maketrans("123456789", "ABCDEFGHI"))


def test_decode_range_rejects_a_range_outside_the_batch() -> None:
    from sudoku_fast._engine import _core
    from sudoku_fast._engine.encode import encode_puzzles
    from sudoku_fast._engine.run import run_engine

    results = run_engine(encode_puzzles([PUZZLE]), 1)
    out: list[str | None] = [None]
    with pytest.raises(ValueError, match="outside"):
        _core.decode_range(results.solutions, results.counts, out, 0, 2)
    _core.decode_range(results.solutions, results.counts, out, 0, 1)
    assert out == [sf.solve(PUZZLE)]


@needs_sigint
def test_ctrl_c_stops_a_batch_solved_in_the_callers_thread() -> None:
    code = "import sudoku_fast as sf; sf.count_many(['.' * 81] * 200, 10**6, threads=1)"
    status, err, seconds = interrupt([sys.executable, "-c", code])
    assert status != 0 and "KeyboardInterrupt" in err, err
    assert seconds < 5


@needs_sigint
def test_ctrl_c_stops_every_thread_inside_long_9x9_puzzles() -> None:
    code = "import sudoku_fast as sf; sf.count_many(['.' * 81] * 200, 10**6, threads=2)"
    status, err, seconds = interrupt([sys.executable, "-c", code])
    assert status != 0 and "KeyboardInterrupt" in err, err
    assert seconds < 5


def test_an_oversubscribed_call_leaves_no_threads_behind() -> None:
    code = (
        "import threading, sudoku_fast as sf\n"
        "from sudoku_fast._parallel.cores import usable_cores\n"
        "from sudoku_fast.datasets import load_embedded\n"
        "sf.solve_many(load_embedded('magictour_top1465'), threads=2000)\n"
        "print(threading.active_count(), usable_cores())\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    alive, cores = map(int, proc.stdout.split())
    assert alive <= cores  # the caller and at most cores - 1 pool threads


def test_cpu_quota_from_cgroup_files(tmp_path: Path) -> None:
    from sudoku_fast._parallel.cores import cgroup_cpu_limit

    v2 = tmp_path / "v2"
    (v2 / "app" / "worker").mkdir(parents=True)
    (v2 / "cpu.max").write_text("max 100000\n")  # the root: no quota
    (v2 / "app" / "cpu.max").write_text("150000 100000\n")  # 1.5 cores
    (v2 / "app" / "worker" / "cpu.max").write_text("max 100000\n")
    assert cgroup_cpu_limit("0::/app/worker\n", v2) == 1.5  # a parent's quota binds
    assert cgroup_cpu_limit("0::/\n", v2) is None
    v1 = tmp_path / "v1"
    (v1 / "cpu,cpuacct").mkdir(parents=True)
    (v1 / "cpu,cpuacct" / "cpu.cfs_quota_us").write_text("200000\n")
    (v1 / "cpu,cpuacct" / "cpu.cfs_period_us").write_text("100000\n")
    # In a container the group's own path is not mounted: its mount root holds the quota.
    assert cgroup_cpu_limit("5:cpu,cpuacct:/docker/abc\n4:memory:/docker/abc\n", v1) == 2.0
    (v1 / "cpu,cpuacct" / "cpu.cfs_quota_us").write_text("-1\n")
    assert cgroup_cpu_limit("5:cpu,cpuacct:/\n", v1) is None
    assert cgroup_cpu_limit("", tmp_path) is None


def test_threads_is_keyword_only() -> None:
    with pytest.raises(TypeError):
        sf.solve_many([PUZZLE], 2)  # type: ignore[call-overload]
    with pytest.raises(TypeError):
        sf.count_many([PUZZLE], 2, 2)  # type: ignore[misc]
    with pytest.raises(TypeError):
        sf.solve_stats([PUZZLE], 2)  # type: ignore[misc]
    assert sf.count_many([PUZZLE], 2, threads=2) == [1]


def _run_out_of_nodes(puzzle: str) -> list[str | None]:
    return sf.solve_many([puzzle], max_nodes=1)


def test_search_limit_exceeded_survives_pickling_and_process_pools() -> None:
    err = sf.SearchLimitExceeded("no answer", [3, 5], [None, "x"])
    err.add_note("while solving part 7")
    copy = pickle.loads(pickle.dumps(err))
    assert (str(copy), copy.indices, copy.partial) == ("no answer", [3, 5], [None, "x"])
    assert copy.__notes__ == ["while solving part 7"]
    with ProcessPoolExecutor(max_workers=1) as pool:
        future = pool.submit(_run_out_of_nodes, "." * 256)
        with pytest.raises(sf.SearchLimitExceeded) as raised:
            future.result()
        assert raised.value.indices == [0] and raised.value.partial == [None]
        assert pool.submit(sf.solve, "1.3..4.........2").result() == "1234342121434312"


def test_every_exception_of_the_package_survives_pickling() -> None:
    import importlib
    import pkgutil

    examples: dict[type[BaseException], BaseException] = {
        sf.SearchLimitExceeded: sf.SearchLimitExceeded("m", [1], None),
    }
    from sudoku_fast._techniques.steps import Contradiction

    examples[Contradiction] = Contradiction("two 5s in row 1")
    from sudoku_fast._generation._generate_py import _GaveUp, _TooHard  # pickled all the same

    examples[_GaveUp] = _GaveUp()
    examples[_TooHard] = _TooHard()
    from sudoku_fast.lab._lab_py import _Enough, _OutOfBudget  # the lab twin's search exits

    examples[_Enough] = _Enough()
    examples[_OutOfBudget] = _OutOfBudget()
    from sudoku_fast._files.parquet_footer import FooterError

    examples[FooterError] = FooterError("truncated Thrift data")
    from sudoku_fast._files.parquet_io import MalformedRow

    examples[MalformedRow] = MalformedRow("in.parquet: puzzle 3: missing (null)")
    from sudoku_fast._engine.run import NotPlain  # a list that needs the parser, caught inside

    examples[NotPlain] = NotPlain()
    from sudoku_fast.cli.options import Incomplete  # a command's output left out, caught inside

    examples[Incomplete] = Incomplete()
    from sudoku_fast._engine._general_py import _OutOfNodes  # the engine twin's budget

    examples[_OutOfNodes] = _OutOfNodes()
    from sudoku_fast._variants._variant_py import _OutOfNodes as _VariantOutOfNodes

    examples[_VariantOutOfNodes] = _VariantOutOfNodes()
    examples[sf.ItemErrorsWarning] = sf.ItemErrorsWarning(
        "solve_many: 1 of 2 puzzles answered as missing", {"row7": "missing (null)"}, [1]
    )
    found = set()
    for info in pkgutil.walk_packages(sf.__path__, "sudoku_fast."):
        if info.name == "sudoku_fast.__main__":  # runs the command line when imported
            continue
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, BaseException)
                and value.__module__.startswith("sudoku_fast")
            ):
                found.add(value)
    assert found <= set(examples), f"add an example for {found - set(examples)}"
    for cls, err in examples.items():
        copy = pickle.loads(pickle.dumps(err))
        assert type(copy) is cls and copy.args == err.args and vars(copy) == vars(err)


def test_renumber_error_shifts_the_index_and_keeps_the_kind() -> None:
    from sudoku_fast._base.errors import renumber_error

    err = renumber_error(ValueError("puzzle 3: bad character 'x'"), 100, "part 2: ")
    assert type(err) is ValueError and str(err) == "part 2: puzzle 103: bad character 'x'"
    limit = renumber_error(
        sf.SearchLimitExceeded("puzzle 1 and 1 more: no answer", [1, 4], [7]), 10
    )
    assert isinstance(limit, sf.SearchLimitExceeded)
    assert str(limit) == "puzzle 11 and 1 more: no answer"
    assert limit.indices == [11, 14] and limit.partial == [7]
    other = KeyError("puzzle 3")
    assert renumber_error(other, 5) is other


def test_value_arrays_can_answer_as_text_and_threads_are_capped() -> None:
    np = pytest.importorskip("numpy")
    puzzle = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    values = np.array([[0 if c == "." else int(c) for c in puzzle], [1, 1] + [0] * 79], np.uint8)
    listed = sf.solve_many(values, output="list")
    assert listed[1] is None
    check_solution(listed[0], puzzle)
    pa = pytest.importorskip("pyarrow")
    assert sf.solve_many(values, output="arrow").to_pylist() == listed
    assert isinstance(sf.solve_many(values), np.ndarray)
    assert resolve_threads(10**30) == 1024
    assert sf.solve_many([puzzle] * 3000, threads=10**30) == [listed[0]] * 3000
    assert pa is not None


def test_marks_in_bytes_are_text_as_elsewhere() -> None:
    marks = "123456789" * 81
    expected = sf.count_many([marks], marks=True)
    assert sf.count_many([marks.encode()], marks=True) == expected == [2]
    pa = pytest.importorskip("pyarrow")
    assert sf.count_many(pa.array([marks.encode()], pa.binary()), marks=True) == expected


def exported(buffer: bytearray | array[int]) -> bool:
    """Whether `buffer` counts a buffer export: it then refuses to change size."""
    try:
        buffer.append(0)
    except BufferError:
        return True
    buffer.pop()
    return False


def test_the_threads_of_a_batch_share_one_export_of_each_buffer() -> None:
    # Compiled calls on several threads get views made once (shared_buffers), not the
    # objects: free-threaded CPython 3.13 counts a bytearray's or an array's exports
    # without a lock, and concurrent exports of the object itself can leave its count
    # wrong (refusing to resize, a SystemError when freed, or unprotected while in use;
    # tests/thread_stress.py showed 3 such SystemErrors in 7,200 calls without the
    # views). Each object is exported exactly once while its view lives, whatever the
    # threads do with the view, and not at all after.
    solutions, counts = bytearray(81 * 4), array("i", [0] * 4)
    assert shared_buffers(1, solutions, counts, None) == (solutions, counts, None)
    for _ in range(5):
        views = shared_buffers(4, solutions, counts, None)
        assert views[2] is None
        assert exported(solutions) and exported(counts)  # by the views, once each
        callers = [threading.Thread(target=decode_often, args=views[:2]) for _ in range(4)]
        for thread in callers:
            thread.start()
        for thread in callers:
            thread.join()
        del views, callers
        assert not exported(solutions) and not exported(counts)


def decode_often(solutions: object, counts: object) -> None:
    for _ in range(2000):
        core.decode_solutions(solutions, counts)
