"""sudoku_fast.dask: solve, count, rate and generate on dask collections, partition by partition.

Answers are checked against the solutions published with the puzzle sets and by the
rule check in checks.py, on the threaded scheduler and on a `dask.distributed`
LocalCluster of two worker processes. Ray Data gets the recipe of docs/dask.md where ray
installs. Everything here is skipped when dask is not installed.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from checks import check_solution
from conftest import VENDORED, read_csv

import sudoku_fast as sf
from sudoku_fast._parallel import threads as threads_module
from sudoku_fast._parallel.threads import resolve_threads

dask = pytest.importorskip("dask")
dd = pytest.importorskip("dask.dataframe")
db = pytest.importorskip("dask.bag")
pd = pytest.importorskip("pandas")
sfd = pytest.importorskip("sudoku_fast.dask")

ROWS = read_csv(VENDORED / "kaggle_bryanpark_sample500_with_solutions.csv")[:120]
PUZZLES = [r["puzzle"] for r in ROWS]
SOLUTIONS = [r["solution"] for r in ROWS]
UNSOLVABLE = "11" + PUZZLES[0][2:]  # two 1s in the first row
SIXTEEN = read_csv(VENDORED / "sudoku16_goomii_sample100_with_solutions.csv")[:6]


def frame(puzzles: list[str], npartitions: int = 4) -> Any:
    """A dask DataFrame of puzzles with an id column and a shuffled-looking index."""
    index = [1000 + 7 * i for i in range(len(puzzles))]
    table = pd.DataFrame({"id": range(len(puzzles)), "quizzes": puzzles}, index=index)
    return dd.from_pandas(table, npartitions=npartitions, sort=False)


@pytest.fixture
def threaded() -> Iterator[None]:
    with dask.config.set(scheduler="threads", num_workers=2):
        yield


def test_solve_a_data_frame_keeps_rows_and_columns(threaded: None) -> None:
    data = frame([*PUZZLES, UNSOLVABLE])
    lazy = sfd.solve(data, threads=2)
    assert list(lazy.columns) == ["id", "quizzes", "solution"]
    out = lazy.compute()
    assert list(out["id"]) == list(range(len(PUZZLES) + 1))
    assert list(out.index) == [1000 + 7 * i for i in range(len(PUZZLES) + 1)]
    assert list(out["solution"].iloc[:-1]) == SOLUTIONS
    assert pd.isna(out["solution"].iloc[-1])
    assert out["solution"].dtype == lazy["solution"].dtype
    for puzzle, solution in zip(PUZZLES[:20], out["solution"], strict=False):
        check_solution(solution, puzzle)


def test_series_and_bags(threaded: None) -> None:
    series = frame(PUZZLES, 3)["quizzes"]
    solved = sfd.solve(series, name="answer").compute()
    assert solved.name == "answer" and list(solved) == SOLUTIONS
    counts = sfd.count(series, limit=3).compute()
    assert counts.dtype == "int32" and set(counts) == {1}
    bag = db.from_sequence([*PUZZLES, UNSOLVABLE], npartitions=5)
    assert sfd.solve(bag, threads=1).compute() == [*SOLUTIONS, None]
    assert sfd.count(bag).compute() == [1] * len(PUZZLES) + [0]
    assert sfd.count(db.from_sequence(["." * 81], npartitions=1), limit=7).compute() == [7]


def test_rate_matches_rate_many(threaded: None) -> None:
    want = sf.rate_many(PUZZLES[:40], threads=1)
    out = sfd.rate(frame(PUZZLES[:40], 3), column="quizzes").compute()
    assert list(out.columns) == ["id", "quizzes", *sfd.RATING_DTYPES]
    assert list(out["level"]) == [r.level for r in want]
    assert list(out["hardest"]) == [r.hardest for r in want]
    assert list(out["engine_nodes"]) == [r.engine_nodes for r in want]
    rated = sfd.rate(frame(PUZZLES[:10], 2)["quizzes"]).compute()
    assert list(rated["name"]) == [r.name for r in want[:10]]
    assert sfd.rate(db.from_sequence(PUZZLES[:10], npartitions=2)).compute() == want[:10]


def test_generate_makes_unique_puzzles_reproducibly(threaded: None) -> None:
    lazy = sfd.generate(9, npartitions=3, seed=11, difficulty="easy", threads=1)
    assert list(lazy.columns) == list(sfd.GENERATED_COLUMNS)
    out = lazy.compute()
    assert len(out) == 9 and out["seed"].nunique() == 9  # each row's own seed
    assert list(out.index) == list(range(9))  # one row number each, across partitions
    assert sf.count_many(list(out["puzzle"])) == [1] * 9
    for puzzle, solution in zip(out["puzzle"], out["solution"], strict=True):
        check_solution(solution, puzzle)
    assert set(out["name"]) == {"easy"}
    assert list(out["clues"]) == [81 - p.count(".") for p in out["puzzle"]]
    again = sfd.generate(9, npartitions=3, seed=11, difficulty="easy", threads=2).compute()
    assert list(again["puzzle"]) == list(out["puzzle"])
    # Rating what was generated: the rating fields of the same names get `_rated`.
    rated = sfd.rate(lazy).compute()
    assert list(rated.columns) == [
        *sfd.GENERATED_COLUMNS,
        "level_rated",
        "name_rated",
        "hardest",
        "clues_rated",
        "engine_guesses",
        "engine_nodes",
    ]
    assert list(rated["level_rated"]) == list(out["level"])
    assert list(rated["clues_rated"]) == list(out["clues"])
    # Each row is made again alone from its seed.
    for row in (0, 4, 8):
        seed = int(out["seed"].iloc[row])
        assert sf.generate("easy", seed=seed) == out["puzzle"].iloc[row]


def test_errors_name_the_partition_and_keep_their_kind(threaded: None) -> None:
    bad = list(PUZZLES[:8])
    bad[6] = "x" + bad[6][1:]
    with pytest.raises(ValueError, match=r"partition 1: puzzle 2: .*'x'"):
        sfd.solve(frame(bad, 2)).compute()
    with pytest.raises(ValueError, match="already has a column 'id'"):
        sfd.solve(frame(PUZZLES[:4], 1), name="id")
    with pytest.raises(ValueError, match=r"no puzzle column.*; pass column="):
        sfd.solve(frame(PUZZLES[:4], 1).rename(columns={"quizzes": "q"}))
    with pytest.raises(TypeError, match="dask DataFrame, Series or Bag"):
        sfd.solve(PUZZLES)
    with pytest.raises(ValueError, match="threads must not be 0"):
        sfd.count(frame(PUZZLES[:4], 1), threads=0)
    # Checked when the graph is built, not once per partition when it is computed.
    with pytest.raises(ValueError, match="limit must be from 1"):
        sfd.count(frame(PUZZLES[:4], 1), limit=0)
    with pytest.raises(ValueError, match="max_nodes must be from 1"):
        sfd.solve(frame(PUZZLES[:4], 1), max_nodes=0)
    with pytest.raises(ValueError, match="box 0x3 is not supported"):
        sfd.rate(frame(PUZZLES[:4], 1), box=(0, 3))
    with pytest.raises(ValueError, match="npartitions"):
        sfd.generate(3, npartitions=0)


def sixteen_with_a_hard_one() -> Any:
    """16x16 puzzles in two partitions; the empty grid in the second runs out of nodes."""
    puzzles = [r["puzzle"] for r in SIXTEEN]
    puzzles.insert(4, "." * 256)
    return frame(puzzles, 2)


def check_search_limit(err: sf.SearchLimitExceeded) -> None:
    """The error raised by the second partition of `sixteen_with_a_hard_one`, intact."""
    assert type(err) is sf.SearchLimitExceeded
    assert str(err).startswith("partition 1: puzzle 0: no answer within max_nodes=1 ")
    assert err.indices == [0]
    partial = err.partial
    assert list(partial.index) == [1000 + 7 * i for i in range(4, 7)]
    assert pd.isna(partial.iloc[0])
    assert list(partial.iloc[1:]) == [r["solution"] for r in SIXTEEN[4:]]


def test_search_limit_exceeded_reaches_the_caller(threaded: None) -> None:
    with pytest.raises(sf.SearchLimitExceeded) as info:
        sfd.solve(sixteen_with_a_hard_one(), max_nodes=1).compute()
    check_search_limit(info.value)


# ---------------------------------------------------------------------------------
# A real cluster: two worker processes of one thread each.


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            silence_logs=50,
        ) as cluster,
        distributed.Client(cluster) as connected,
    ):
        yield connected


def test_cluster_solves_counts_and_rates(client: Any) -> None:
    data = frame([*PUZZLES, UNSOLVABLE], 6)
    solved, counted = dask.compute(sfd.solve(data), sfd.count(data), scheduler=client.get)
    assert list(solved["solution"].iloc[:-1]) == SOLUTIONS
    assert pd.isna(solved["solution"].iloc[-1])
    assert list(counted["count"]) == [1] * len(PUZZLES) + [0]
    rated = client.compute(sfd.rate(frame(PUZZLES[:30], 2))).result()
    assert list(rated["level"]) == [r.level for r in sf.rate_many(PUZZLES[:30], threads=1)]
    # One task at a time per worker: each gets the cores of the machine, over 1.
    expected = resolve_threads(None)  # the workers share this process's environment
    assert client.submit(sfd.worker_threads, None, pure=False).result() == expected
    assert client.submit(sfd.worker_threads, 3, pure=False).result() == 3


def test_worker_threads_obey_the_threads_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    # In a worker running two tasks at once on a machine capped to one thread by the
    # environment, a partition gets one thread (the cap), not half the machine's cores.
    distributed = pytest.importorskip("distributed")

    class State:
        nthreads = 2

    class Worker:
        state = State()

    monkeypatch.setattr(distributed, "get_worker", lambda: Worker())
    monkeypatch.setattr(threads_module, "usable_cores", lambda: 8)
    monkeypatch.delenv("SUDOKU_FAST_NUM_THREADS", raising=False)
    assert sfd.worker_threads(None) == 4
    monkeypatch.setenv("SUDOKU_FAST_NUM_THREADS", "2")
    assert sfd.worker_threads(None) == 1


def test_cluster_bag_and_generate(client: Any) -> None:
    bag = db.from_sequence(PUZZLES, npartitions=4)
    assert client.compute(sfd.solve(bag, threads=1)).result() == SOLUTIONS
    out = client.compute(sfd.generate(6, npartitions=2, seed=3)).result()
    assert sf.count_many(list(out["puzzle"])) == [1] * 6
    for puzzle, solution in zip(out["puzzle"], out["solution"], strict=True):
        check_solution(solution, puzzle)


def test_cluster_search_limit_exceeded_reaches_the_client(client: Any) -> None:
    future = client.compute(sfd.solve(sixteen_with_a_hard_one(), max_nodes=1))
    with pytest.raises(sf.SearchLimitExceeded) as info:
        future.result()
    check_search_limit(info.value)
    # The cluster keeps working after the error.
    good = frame([r["puzzle"] for r in SIXTEEN], 2)
    out = client.compute(sfd.solve(good, max_nodes=None)).result()
    assert list(out["solution"]) == [r["solution"] for r in SIXTEEN]


# ---------------------------------------------------------------------------------
# Ray Data: the recipe of docs/dask.md, where ray installs.


@pytest.mark.slow  # starting Ray takes a minute on a small machine
def test_ray_data_map_batches() -> None:
    ray = pytest.importorskip("ray")
    pytest.importorskip("ray.data")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    try:
        data = ray.data.from_pandas(pd.DataFrame({"id": range(len(PUZZLES)), "quizzes": PUZZLES}))

        def solve_batch(batch: Any) -> Any:
            batch["solution"] = sf.solve_many(batch["quizzes"], threads=1, output="like")
            return batch

        out = data.map_batches(solve_batch, batch_format="pandas").to_pandas()
        out = out.sort_values("id")
        assert list(out["solution"]) == SOLUTIONS
    finally:
        ray.shutdown()


def test_dask_is_imported_only_when_a_function_is_called() -> None:
    import subprocess
    import sys

    code = (
        "import sys\n"
        "import sudoku_fast.dask as sfd\n"
        "assert 'dask' not in sys.modules and 'pandas' not in sys.modules, sorted(sys.modules)\n"
        "sfd.solve(__import__('dask.bag').bag.from_sequence(['.' * 81]))\n"
        "assert 'dask.dataframe' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
