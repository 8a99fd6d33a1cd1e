"""on_error= beyond the batch functions: the dask front and solve_stats answer a bad row as
missing and leave the others as a clean run answers them."""

from __future__ import annotations

import warnings
from typing import Any

import pytest
from checks import check_solution
from conftest import VENDORED, read_csv

import sudoku_fast as sf
from sudoku_fast import ItemErrorsWarning

ROWS = read_csv(VENDORED / "kaggle_bryanpark_sample500_with_solutions.csv")[:40]
PUZZLES = [r["puzzle"] for r in ROWS]
SOLUTIONS = [r["solution"] for r in ROWS]
# Rows 3, 17 and 30 do not read: a foreign character, a null, a 4x4 puzzle.
BAD_AT = {3: "x" + PUZZLES[3][1:], 17: None, 30: "1.3..4.........2"}


def with_bad_rows() -> list[Any]:
    return [BAD_AT.get(i, p) for i, p in enumerate(PUZZLES)]


@pytest.fixture
def dask_modules() -> tuple[Any, Any, Any, Any]:
    dask = pytest.importorskip("dask")
    dd = pytest.importorskip("dask.dataframe")
    db = pytest.importorskip("dask.bag")
    pd = pytest.importorskip("pandas")
    return dask, dd, db, pd


def test_dask_solve_count_rate_answer_bad_rows_as_missing(dask_modules: Any) -> None:
    dask, dd, db, pd = dask_modules
    import sudoku_fast.dask as sfd

    index = [500 + 3 * i for i in range(len(PUZZLES))]
    table = pd.DataFrame({"id": range(len(PUZZLES)), "puzzle": with_bad_rows()}, index=index)
    data = dd.from_pandas(table, npartitions=3, sort=False)
    with dask.config.set(scheduler="sync"):
        with pytest.raises(ValueError, match=r"partition \d: puzzle \d+: "):
            sfd.solve(data, threads=1).compute()
        solved = sfd.solve(data, threads=1, on_error="none").compute()
        counts = sfd.count(data, threads=1, on_error="none").compute()
        lazy = sfd.rate(data, threads=1, on_error="none")
        rated = lazy.compute()
        bag = sfd.count(db.from_sequence(with_bad_rows(), npartitions=2), on_error="none")
        bag_counts = bag.compute()
        series = sfd.solve(data["puzzle"], threads=1, on_error="none").compute()
    assert list(solved.index) == index and list(solved["id"]) == list(range(len(PUZZLES)))
    for i, (solution, count) in enumerate(zip(solved["solution"], counts["count"], strict=True)):
        if i in BAD_AT:
            assert pd.isna(solution) and pd.isna(count)
        else:
            assert solution == SOLUTIONS[i] and count == 1
            check_solution(solution, PUZZLES[i])
    assert str(counts["count"].dtype) == "Int32"  # nullable: a bad row is NA
    assert list(series.fillna("-")) == list(solved["solution"].fillna("-"))
    assert bag_counts == [None if i in BAD_AT else 1 for i in range(len(PUZZLES))]
    assert rated.dtypes.equals(lazy.dtypes)  # the meta said what came
    assert [pd.isna(level) for level in rated["level"]] == [i in BAD_AT for i in range(40)]
    good = [p for i, p in enumerate(PUZZLES) if i not in BAD_AT]
    expected = [r.level for r in sf.rate_many(good)]
    assert [int(v) for v in rated["level"].dropna()] == expected


def test_dask_warn_and_a_wrong_on_error(dask_modules: Any) -> None:
    dask, dd, _db, pd = dask_modules
    import sudoku_fast.dask as sfd

    data = dd.from_pandas(pd.DataFrame({"puzzle": with_bad_rows()}), npartitions=2)
    with pytest.raises(ValueError, match="on_error"):
        sfd.solve(data, on_error="skip")  # type: ignore[arg-type]  # refused now, not when computed
    with dask.config.set(scheduler="sync"), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sfd.solve(data, threads=1, on_error="warn").compute()
    found = [w.message for w in caught if issubclass(w.category, ItemErrorsWarning)]
    # One warning per partition holding bad rows (0-19: rows 3, 17; 20-39: row 30).
    assert sorted(sorted(w.errors) for w in found) == [[3, 17], [30]]


def test_solve_stats_answers_bad_rows_as_missing_and_leaves_them_out() -> None:
    batch = with_bad_rows()
    with pytest.raises(ValueError, match="puzzle 3: unexpected character"):
        sf.solve_stats(batch)
    stats = sf.solve_stats(batch, threads=2, on_error="none")
    assert stats.missing == (3, 17, 30)
    for i, solution in enumerate(stats.solutions):
        assert solution == (None if i in BAD_AT else SOLUTIONS[i])
    assert [stats.counts[i] for i in sorted(BAD_AT)] == [-1, -1, -1]
    assert all(stats.nodes[i] == stats.nanos[i] == 0 for i in BAD_AT)
    summary = stats.summary()
    assert summary.puzzles == summary.solved == len(PUZZLES) - 3 and summary.unknown == 0
    clean = sf.solve_stats([p for i, p in enumerate(PUZZLES) if i not in BAD_AT], threads=1)
    assert [n for i, n in enumerate(stats.nodes) if i not in BAD_AT] == list(clean.nodes)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sf.solve_stats(batch, threads=1, on_error="warn")
    [warning] = [w for w in caught if issubclass(w.category, ItemErrorsWarning)]
    assert warning.filename == __file__
    assert warning.message.positions == [3, 17, 30]
    assert "unexpected character 'x'" in warning.message.errors[3]
    assert warning.message.errors[17] == "missing (null)"


def test_solve_stats_renumbers_a_search_limit_past_bad_rows() -> None:
    empty16 = "." * 256
    with pytest.raises(sf.SearchLimitExceeded) as caught:
        sf.solve_stats(["bad", empty16, None, empty16], on_error="none", max_nodes=1, limit=2)
    assert caught.value.indices == [1, 3]
    assert str(caught.value).startswith("puzzle 1 and 1 more: no answer within max_nodes=1")
    assert caught.value.partial.missing == (0, 2)
