"""Column inputs and outputs (`sudoku_fast.frames`): pandas, pyarrow, polars, numpy text.

Every kind of column must give exactly what the same puzzles give as a list of str.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from conftest import VENDORED, read_csv, read_lines

import sudoku_fast as sf
from sudoku_fast import _textio, frames

np = pytest.importorskip("numpy")

PUZZLES = read_lines(VENDORED / "sudoku17_sample.txt")[:60]
UNSOLVABLE = "11" + PUZZLES[0][2:]  # two 1s in the first row


@pytest.fixture(scope="module")
def expected() -> list[str | None]:
    return sf.solve_many([*PUZZLES, UNSOLVABLE], threads=1)


def test_numpy_text_arrays(expected: list[str | None]) -> None:
    batch = [*PUZZLES, UNSOLVABLE]
    assert sf.solve_many(np.array(batch)) == expected
    assert sf.solve_many(np.array(batch, dtype="S")) == expected
    assert sf.solve_many(np.array(batch, dtype=object)) == expected
    assert sf.solve_many(np.array(batch, dtype="U90")) == expected  # NUL-padded rows
    assert sf.count_many(np.array(batch)) == [1] * len(PUZZLES) + [0]


def test_bytes_items(expected: list[str | None]) -> None:
    assert sf.solve_many([p.encode() for p in [*PUZZLES, UNSOLVABLE]]) == expected


def test_other_notations_fall_back_to_the_parser() -> None:
    odd = [sf.show(PUZZLES[0]), " ".join(PUZZLES[1]), PUZZLES[2].replace(".", "0")]
    want = sf.solve_many(PUZZLES[:3])
    assert sf.solve_many(np.array(odd)) == want
    pa = pytest.importorskip("pyarrow")
    assert sf.solve_many(pa.array(odd)) == want


def test_pyarrow_inputs_and_outputs(expected: list[str | None]) -> None:
    pa = pytest.importorskip("pyarrow")
    batch = [*PUZZLES, UNSOLVABLE]
    for column in (
        pa.array(batch),
        pa.array(batch, type=pa.large_string()),
        pa.array([p.encode() for p in batch], type=pa.binary()),
        pa.array(batch).dictionary_encode(),
        pa.array(batch).slice(0),
        pa.chunked_array([batch[:7], batch[7:30], batch[30:]]),
    ):
        assert sf.solve_many(column) == expected
    out = sf.solve_many(pa.array(batch), output="arrow")
    assert isinstance(out, pa.Array) and out.to_pylist() == expected
    assert out.null_count == 1
    chunked = sf.solve_many(pa.chunked_array([batch[:5], batch[5:]]), output="like")
    assert isinstance(chunked, pa.ChunkedArray) and chunked.to_pylist() == expected
    counts = sf.count_many(pa.array(batch), output="arrow")
    assert counts.type == pa.int32() and counts.to_pylist() == [1] * len(PUZZLES) + [0]
    # A slice starts inside the buffers: offsets must be read from the slice's own start.
    assert sf.solve_many(pa.array(batch).slice(3, 10)) == expected[3:13]


def test_pyarrow_errors_name_the_row() -> None:
    pa = pytest.importorskip("pyarrow")
    with pytest.raises(ValueError, match="puzzle 2: missing"):
        sf.solve_many(pa.array([PUZZLES[0], PUZZLES[1], None]))
    with pytest.raises(ValueError, match=r"puzzle 1: .*'x'"):
        sf.solve_many(pa.array([PUZZLES[0], PUZZLES[1][:80] + "x"]))
    with pytest.raises(TypeError, match="strings"):
        sf.solve_many(pa.array([1, 2]))
    with pytest.raises(ValueError, match="output"):
        sf.solve_many(PUZZLES, output="nonsense")


def test_pandas_series(expected: list[str | None]) -> None:
    pd = pytest.importorskip("pandas")
    batch = [*PUZZLES, UNSOLVABLE]
    series = pd.Series(batch, index=range(100, 100 + len(batch)), name="quizzes")
    assert sf.solve_many(series) == expected
    assert sf.solve_many(series.astype(object)) == expected
    like = sf.solve_many(series, output="like")
    assert isinstance(like, pd.Series)
    assert list(like.index) == list(series.index) and like.name == "quizzes"
    assert [None if pd.isna(x) else x for x in like] == expected
    ratings = sf.rate_many(series.iloc[:5], output="like")
    assert isinstance(ratings, pd.DataFrame) and list(ratings.index) == list(series.index[:5])
    assert list(ratings["level"]) == [r.level for r in sf.rate_many(PUZZLES[:5])]


@pytest.mark.parametrize("dtype", ["string[pyarrow]", "str"])
def test_pandas_arrow_strings_come_back_as_arrow_strings(
    expected: list[str | None], dtype: str
) -> None:
    """An Arrow-backed string Series gets its solutions in the same dtype, nulls included."""
    pd = pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    batch = [*PUZZLES, UNSOLVABLE]
    try:
        series = pd.Series(batch, index=range(7, 7 + len(batch)), name="q", dtype=dtype)
    except TypeError:
        pytest.skip(f"this pandas has no {dtype} dtype")
    if getattr(series.dtype, "storage", None) != "pyarrow":
        pytest.skip(f"{dtype} is not Arrow-backed in this pandas")
    like = sf.solve_many(series, output="like")
    assert like.dtype == series.dtype
    assert list(like.index) == list(series.index) and like.name == "q"
    assert [None if pd.isna(x) else x for x in like] == expected


def test_polars_series(expected: list[str | None]) -> None:
    pl = pytest.importorskip("polars")
    series = pl.Series("quizzes", [*PUZZLES, UNSOLVABLE])
    assert sf.solve_many(series) == expected
    like = sf.solve_many(series, output="like")
    assert isinstance(like, pl.Series) and like.to_list() == expected
    assert sf.count_many(series, output="like").to_list() == [1] * len(PUZZLES) + [0]


def test_rate_many_arrow() -> None:
    pa = pytest.importorskip("pyarrow")
    out = sf.rate_many(pa.array(PUZZLES[:4]), output="arrow")
    want = sf.rate_many(PUZZLES[:4])
    assert out.field("level").to_pylist() == [r.level for r in want]
    assert out.field("hardest").to_pylist() == [r.hardest for r in want]


def test_other_sizes_through_arrow() -> None:
    pa = pytest.importorskip("pyarrow")
    rows = [row["puzzle"] for row in read_csv(VENDORED / "sudoku16_misc.csv")][:5]
    assert sf.solve_many(pa.array(rows)) == sf.solve_many(rows)
    out = sf.solve_many(pa.array(rows), output="arrow")
    assert out.to_pylist() == sf.solve_many(rows)


def _random_rows(rng: random.Random, n: int) -> tuple[bytes, list[int]]:
    alphabet = b"123456789.0 x\n\xc3\xa9-"
    data, offsets = b"", [0]
    for _ in range(n):
        length = rng.choice([81, 81, 81, 80, 82, 0])
        row = bytes(rng.choice(b"123456789.") for _ in range(length))
        if rng.random() < 0.3 and row:
            k = rng.randrange(len(row))
            row = row[:k] + bytes([rng.choice(alphabet)]) + row[k + 1 :]
        data += row
        offsets.append(len(data))
    return data, offsets


@pytest.mark.parametrize("seed", range(5))
def test_encode_rows_matches_its_twin(seed: int) -> None:
    rng = random.Random(seed)
    data, offsets = _random_rows(rng, 300)
    table = np.frombuffer(frames._ascii_table(sf.geometry_for(9)), dtype=np.uint8)
    compiled: Any = np.zeros((300, 81), dtype=np.uint8)
    twin: Any = np.zeros((300, 81), dtype=np.uint8)
    data_arr = np.frombuffer(data, dtype=np.uint8)
    offs = np.array(offsets, dtype=np.int64)
    slow = _textio.encode_rows(data_arr, offs, table, compiled)
    assert slow == frames.encode_rows_py(data_arr, offs, table, twin)
    keep = np.ones(300, dtype=bool)
    keep[slow] = False
    assert (compiled[keep] == twin[keep]).all()
    assert 0 < len(slow) < 300


def test_no_data_frame_library_is_imported_for_plain_inputs() -> None:
    import subprocess
    import sys

    code = (
        "import sys, sudoku_fast as sf\n"
        f"sf.solve_many({PUZZLES[:3]!r}); sf.count_many({PUZZLES[:3]!r})\n"
        "names = ('numpy', 'pyarrow', 'pandas', 'polars', 'dask')\n"
        "loaded = [m for m in names if m in sys.modules]\n"
        "assert not loaded, loaded\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_solution_text_by_addition_matches_the_table() -> None:
    """The vectorised path writes the bytes `bytes.translate` writes, zero grids included."""
    from sudoku_fast.grid import CLASSIC, _codec, geometry_for

    rng = np.random.default_rng(5)
    for geometry in (CLASSIC, geometry_for(None, None, "ABCDEFGHI"), geometry_for(16)):
        encode = _codec(geometry).encode
        values = rng.integers(1, geometry.size + 1, 40 * geometry.cells, dtype=np.uint8)
        values[: geometry.cells] = 0  # a puzzle without a solution
        data = frames._solution_text(bytearray(values.tobytes()), encode, geometry.size)
        if not isinstance(data, bytes):
            data.reshape(-1, geometry.cells)[0] = encode[0]
        assert bytes(data) == values.tobytes().translate(encode)
    pa = pytest.importorskip("pyarrow")
    out = sf.solve_many(pa.array(["1" + "." * 80, "11" + "." * 79]), output="arrow")
    out.validate(full=True)
    assert out.null_count == 1 and out[0].as_py() == sf.solve("1" + "." * 80)
    assert out.buffers()[2].to_pybytes()[81:] == b"." * 81
