"""on_error= in the batch functions: a bad item answered as missing, the others unharmed."""

from __future__ import annotations

import pickle
import warnings

import pytest
from checks import check_solution

import sudoku_fast as sf
from sudoku_fast import ItemErrorsWarning

GOOD = [
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
    "52...6.........7.13...........4..8..6......5...........418.........3..2...87.....",
    "6.....8.3.4.7.................5.4.7.3..2.....1.6.......2.....5.....8.6......1....",
]
# A wrong character, a wrong length, a null, and a 4x4 puzzle in a 9x9 batch.
BAD = ["x" + GOOD[0][1:], GOOD[1][:80], None, "1..." * 4]


def mixed() -> list[str | None]:
    """GOOD and BAD interleaved: good at 0, 2, 4, 6; bad at 1, 3, 5, 7."""
    out: list[str | None] = []
    for g, b in zip([*GOOD, GOOD[0]], BAD, strict=True):
        out += [g, b]
    return out


GOOD_AT = [0, 2, 4, 6]
BAD_AT = [1, 3, 5, 7]


def test_raise_is_the_default():
    with pytest.raises(ValueError, match="puzzle 1"):
        sf.solve_many(mixed())
    with pytest.raises(ValueError, match="on_error must be one of"):
        sf.solve_many(GOOD, on_error="skip")  # type: ignore[arg-type]


@pytest.mark.parametrize("threads", [1, 2])
def test_solve_many_none(threads):
    batch = mixed()
    out = sf.solve_many(batch, on_error="none", threads=threads)
    assert len(out) == len(batch)
    for i in BAD_AT:
        assert out[i] is None
    for i in GOOD_AT:
        check_solution(out[i], batch[i])
    assert [out[i] for i in GOOD_AT] == sf.solve_many([batch[i] for i in GOOD_AT])


def test_warn_collects_reasons_and_pickles():
    with pytest.warns(ItemErrorsWarning) as caught:
        out = sf.count_many(mixed(), on_error="warn")
    assert out == [1, None, 1, None, 1, None, 1, None]
    warning = caught[0].message
    assert isinstance(warning, ItemErrorsWarning)
    assert warning.positions == BAD_AT
    assert set(warning.errors) == set(BAD_AT)
    assert "'x'" in warning.errors[1]
    assert "80" in warning.errors[3]
    assert warning.errors[5] == "missing (null)"
    assert "4x4" in warning.errors[7]
    back = pickle.loads(pickle.dumps(warning))
    assert back.errors == warning.errors and back.positions == warning.positions
    assert str(back) == str(warning)


def test_none_is_quiet_and_generators_are_read_once():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = sf.solve_many(iter(mixed()), on_error="none")
    assert [i for i, s in enumerate(out) if s is None] == BAD_AT


def test_argument_errors_still_raise():
    with pytest.raises(ValueError, match="threads"):
        sf.solve_many(mixed(), threads=0, on_error="none")
    with pytest.raises(TypeError):
        sf.solve_many("not a list", on_error="none")


def test_pandas_index_labels():
    pd = pytest.importorskip("pandas")
    series = pd.Series(mixed(), index=[f"row{i}" for i in range(8)], name="quizzes")
    with pytest.warns(ItemErrorsWarning) as caught:
        out = sf.solve_many(series, output="like", on_error="warn")
    assert list(out.index) == list(series.index)
    assert out.isna().tolist() == [i in BAD_AT for i in range(8)]
    assert set(caught[0].message.errors) == {"row1", "row3", "row5", "row7"}
    counts = sf.count_many(series, output="like", on_error="none")
    assert str(counts.dtype) == "Int64"
    assert counts.isna().tolist() == [i in BAD_AT for i in range(8)]
    ratings = sf.rate_many(series, output="like", on_error="none")
    assert list(ratings.index) == list(series.index)
    assert ratings["level"].isna().tolist() == [i in BAD_AT for i in range(8)]


def test_arrow_nulls_and_bad_rows():
    pa = pytest.importorskip("pyarrow")
    column = pa.chunked_array([mixed()[:4], mixed()[4:]])
    out = sf.solve_many(column, output="arrow", on_error="none")
    assert out.is_null().to_pylist() == [i in BAD_AT for i in range(8)]
    counts = sf.count_many(column, output="arrow", on_error="none")
    assert counts.to_pylist() == [1, None, 1, None, 1, None, 1, None]


def test_polars():
    pl = pytest.importorskip("polars")
    column = pl.Series("p", mixed())
    out = sf.solve_many(column, output="like", on_error="none")
    assert out.is_null().to_list() == [i in BAD_AT for i in range(8)]


def test_numpy_values():
    np = pytest.importorskip("numpy")
    grids = np.zeros((3, 81), dtype=np.int16)
    grids[0] = [0 if c == "." else int(c) for c in GOOD[0]]
    grids[1, 5] = 12  # out of range
    grids[2] = [0 if c == "." else int(c) for c in GOOD[1]]
    with pytest.warns(ItemErrorsWarning) as caught:
        out = sf.solve_many(grids, on_error="warn")
    assert not out[1].any() and out[0].all() and out[2].all()
    assert "value 12 at cell 5" in caught[0].message.errors[1]
    counts = sf.count_many(grids, on_error="none", output="like")
    assert counts.tolist() == [1, -1, 1]


def test_rate_many_refused_puzzles():
    # No solution (clashing 1s), and several: malformed for rating, answered as missing.
    clash = "11" + "." * 79
    several = "." * 81
    out = sf.rate_many([GOOD[0], clash, several, GOOD[1]], on_error="none")
    assert out[1] is None and out[2] is None
    assert out[0] == sf.rate(GOOD[0]) and out[3] == sf.rate(GOOD[1])


def test_canonical_and_random_transform():
    batch = mixed()
    forms = sf.canonical_many(batch, on_error="none")
    assert [forms[i] for i in GOOD_AT] == sf.canonical_many([batch[i] for i in GOOD_AT])
    assert all(forms[i] is None for i in BAD_AT)
    moved = sf.random_transform_many(batch, seed=7, on_error="none")
    whole = sf.random_transform_many(
        [GOOD[0] if i in BAD_AT else p for i, p in enumerate(batch)], seed=7
    )
    # Each item keeps the symmetry drawn for its position.
    assert [moved[i] for i in GOOD_AT] == [whole[i] for i in GOOD_AT]
    assert all(moved[i] is None for i in BAD_AT)


def test_many_bad_items_in_a_large_batch():
    batch = [GOOD[i % 3] if i % 7 else "?" * 81 for i in range(5000)]
    out = sf.count_many(batch, on_error="none")
    assert out == [1 if i % 7 else None for i in range(5000)]
