"""Column inputs and outputs (`sudoku_fast.frames`): pandas, pyarrow, polars, numpy text.

Every kind of column must give exactly what the same puzzles give as a list of str.
"""

from __future__ import annotations

import itertools
import random
import sys
from typing import Any

import pytest
from conftest import VENDORED, read_csv, read_lines

import sudoku_fast as sf
from sudoku_fast._columns import frames
from sudoku_fast._engine import _textio, _textio_py

np = pytest.importorskip("numpy")

PUZZLES = read_lines(VENDORED / "sudoku17_sample.txt")[:60]
KAGGLE = read_csv(VENDORED / "kaggle_bryanpark_sample500_with_solutions.csv")
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


def test_numpy_variable_width_strings(expected: list[str | None]) -> None:
    string_dtype = getattr(getattr(np, "dtypes", None), "StringDType", None)
    if string_dtype is None:
        pytest.skip("numpy < 2 has no StringDType")
    batch = [*PUZZLES, UNSOLVABLE, " " + PUZZLES[1] + " "]  # the last goes to the parser
    column = np.array(batch, dtype=string_dtype())
    assert sf.solve_many(column) == [*expected, expected[1]]
    assert sf.count_many(column) == [1] * len(PUZZLES) + [0, 1]
    assert sf.canonical_many(column[:3]) == sf.canonical_many(PUZZLES[:3])
    with pytest.raises(ValueError, match="puzzle 1: unexpected character 'x'"):
        sf.solve_many(np.array([PUZZLES[0], "x" + PUZZLES[0][1:]], dtype=string_dtype()))
    nullable = np.array([PUZZLES[0], None], dtype=string_dtype(na_object=None))
    with pytest.raises(ValueError, match="puzzle 1: missing"):
        sf.solve_many(nullable)
    assert sf.solve_many(nullable[:1]) == expected[:1]
    # One very long row is read at N*N + 1 characters, not every row at its width
    # (2,000 rows of 10^6 characters each: 8 GB).
    rows = [PUZZLES[0]] * 2000 + ["1" * 1_000_000]
    with pytest.raises(ValueError, match=r"^puzzle 2000: expected 81 cells, found 1000000 "):
        sf.count_many(np.array(rows, dtype=string_dtype()))


@pytest.mark.parametrize("missing", [None, float("nan"), np.nan])
def test_a_missing_first_row_is_missing_as_any_other(missing: object) -> None:
    """The first row, read to find the size, says 'missing (null)' as any row does."""
    for row in (0, 1):
        column = np.array([PUZZLES[0]] * 2, dtype=object)
        column[row] = missing
        with pytest.raises(ValueError, match=f"^puzzle {row}: missing \\(null\\)$"):
            sf.solve_many(column)


def test_a_library_half_imported_elsewhere_is_not_consulted(
    monkeypatch: pytest.MonkeyPatch, expected: list[str | None]
) -> None:
    # While another thread imports pandas (or numpy) for the first time, sys.modules
    # holds the module before its names exist. A list or tuple of puzzles has nothing to
    # do with either and must not look at them.
    import types

    for name in ("pandas", "numpy", "pyarrow", "polars"):
        monkeypatch.setitem(sys.modules, name, types.ModuleType(name))
    assert sf.solve_many(tuple([*PUZZLES, UNSOLVABLE])) == expected
    assert sf.count_many([*PUZZLES, UNSOLVABLE], threads=1) == [1] * len(PUZZLES) + [0]
    assert frames.column_kind(PUZZLES) is None and frames.table_kind(PUZZLES) is None


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


@pytest.mark.parametrize("make", ["pandas", "table", "record_batch"])
@pytest.mark.parametrize("function", [sf.solve_many, sf.count_many, sf.rate_many])
def test_a_table_is_refused_with_a_pointer_to_its_columns(make: str, function: Any) -> None:
    pa = pytest.importorskip("pyarrow")
    puzzles = {"puzzle": PUZZLES[:2]}
    if make == "pandas":
        table = pytest.importorskip("pandas").DataFrame(puzzles)
    else:
        table = getattr(pa, make)(puzzles)
    # Iterated, a table gives its column names, which would be read as bad puzzles.
    with pytest.raises(TypeError, match=r"column of puzzles, not a (pandas|pyarrow) "):
        function(table)
    assert function(table["puzzle"], output="list")[0] is not None


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
    with pytest.raises(ValueError, match="puzzle 0: missing"):
        sf.solve_many(pa.array([None, None]))  # all missing: Arrow's null type
    assert sf.solve_many(pa.array([], pa.null())) == []


def test_a_missing_value_is_missing_in_every_kind_of_column() -> None:
    # None, NaN, pandas' NA and NaT in an object column are missing values (ValueError
    # naming the row), as nulls are in Arrow; another object is a TypeError.
    np = pytest.importorskip("numpy")
    pd = pytest.importorskip("pandas")
    for missing in (None, float("nan"), pd.NA, pd.NaT):
        items = [PUZZLES[0], PUZZLES[1], missing]
        for column in (
            np.array(items, dtype=object),
            pd.Series(items, dtype=object, index=[7, 8, 9]),
            pd.Index(items, dtype=object),
        ):
            with pytest.raises(ValueError, match="puzzle 2: missing"):
                sf.count_many(column)
    with pytest.raises(TypeError, match="puzzle 1: must be a str, not int"):
        sf.solve_many(pd.Series([PUZZLES[0], 5], dtype=object))
    marks = sf.parse(PUZZLES[0].replace(".", "0"))  # any puzzle: only the error matters here
    with pytest.raises(ValueError, match="puzzle 1: missing"):
        sf.solve_many(np.array([marks, np.float32("nan")], dtype=object), marks=True)


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
    # A column read without a header is named 0: a name all the same, kept.
    for name, answer in ((0, 0), ("", ""), (None, "solution")):
        assert sf.solve_many(series.rename(name), output="like").name == answer
    assert sf.count_many(series.rename(0), output="like").name == 0
    assert sf.count_many(series.rename(None), output="like").name == "count"


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


def test_rating_columns_keep_their_types_and_take_an_index() -> None:
    pa = pytest.importorskip("pyarrow")
    pd = pytest.importorskip("pandas")
    empty = sf.rate_many([], output="arrow")
    assert empty.type == sf.rate_many(PUZZLES[:1], output="arrow").type
    assert empty.type.field("name").type == pa.string()
    scored = sf.rate_many(PUZZLES[:2], output="arrow", score=True)
    want = sf.rate_many(PUZZLES[:2], score=True)
    assert scored.field("score").to_pylist() == [r.score for r in want]
    assert scored.field("score_technique").to_pylist() == [r.score_technique for r in want]
    frame = sf.rate_many(pd.Index(PUZZLES[:3]), output="like")
    assert list(frame["level"]) == [r.level for r in sf.rate_many(PUZZLES[:3])]
    assert list(frame.index) == [0, 1, 2]


def test_other_sizes_through_arrow() -> None:
    pa = pytest.importorskip("pyarrow")
    rows = [row["puzzle"] for row in read_csv(VENDORED / "sudoku16_misc.csv")][:5]
    assert sf.solve_many(pa.array(rows)) == sf.solve_many(rows)
    out = sf.solve_many(pa.array(rows), output="arrow")
    assert out.to_pylist() == sf.solve_many(rows)


def _random_rows(rng: random.Random, n: int, symbols: bytes, cells: int) -> tuple[bytes, list[int]]:
    foreign = b"0 x\n\xc3\xa9-/:@AI" + bytes([0, 45, 47, 58, 127, 200, 255])
    data, offsets = b"", [0]
    for _ in range(n):
        length = rng.choice([cells, cells, cells, cells - 1, cells + 1, 0])
        row = bytes(rng.choice(symbols + b".") for _ in range(length))
        if rng.random() < 0.3 and row:
            k = rng.randrange(len(row))
            row = row[:k] + bytes([rng.choice(foreign)]) + row[k + 1 :]
        data += row
        offsets.append(len(data))
    return data, offsets


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize(
    ("size", "alphabet", "symbols"),
    [
        (9, None, b"123456789"),  # the classic table: the compiled side encodes by arithmetic
        (9, "ABCDEFGHI", b"ABCDEFGHI"),
        (16, None, b"123456789ABCDEFG"),
    ],
)
def test_encode_rows_matches_its_twin(
    seed: int, size: int, alphabet: str | None, symbols: bytes
) -> None:
    rng = random.Random(seed)
    geometry = sf.geometry_for(size, None, alphabet)
    cells = geometry.cells
    data, offsets = _random_rows(rng, 300, symbols, cells)
    table = np.frombuffer(frames._ascii_table(geometry), dtype=np.uint8)
    compiled: Any = np.zeros((300, cells), dtype=np.uint8)
    twin: Any = np.zeros((300, cells), dtype=np.uint8)
    data_arr = np.frombuffer(data, dtype=np.uint8)
    offs = np.array(offsets, dtype=np.int64)
    slow = _textio.encode_rows(data_arr, offs, table, compiled)
    assert slow == _textio_py.encode_rows(data_arr, offs, table, twin)
    keep = np.ones(300, dtype=bool)
    keep[slow] = False
    assert (compiled[keep] == twin[keep]).all()
    assert 0 < len(slow) < 300


def test_encode_rows_every_byte_at_every_place() -> None:
    """Each of the 256 bytes in each cell of a plain row: plain or slow as the twin says."""
    table = np.frombuffer(frames._ascii_table(frames.CLASSIC), dtype=np.uint8)
    base = np.frombuffer(KAGGLE[0]["puzzle"].encode(), dtype=np.uint8)
    rows = np.tile(base, (256 * 81, 1))
    rows[np.arange(256 * 81), np.arange(256 * 81) % 81] = np.repeat(np.arange(256), 81)
    data = rows.reshape(-1)
    offsets = np.arange(0, (256 * 81 + 1) * 81, 81, dtype=np.int64)
    compiled: Any = np.zeros((256 * 81, 81), dtype=np.uint8)
    twin: Any = np.zeros((256 * 81, 81), dtype=np.uint8)
    slow = _textio.encode_rows(data, offsets, table, compiled)
    assert slow == _textio_py.encode_rows(data, offsets, table, twin)
    assert len(slow) == (256 - 11) * 81  # all but '.' and '0'-'9'
    keep = np.ones(256 * 81, dtype=bool)
    keep[slow] = False
    assert (compiled[keep] == twin[keep]).all()


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
    from sudoku_fast._base.grid import CLASSIC, codec, geometry_for

    rng = np.random.default_rng(5)
    for geometry in (CLASSIC, geometry_for(None, None, "ABCDEFGHI"), geometry_for(16)):
        encode = codec(geometry).encode
        values = rng.integers(1, geometry.size + 1, 40 * geometry.cells, dtype=np.uint8)
        values[: geometry.cells] = 0  # a puzzle without a solution
        valid = np.ones(40, dtype=bool)
        valid[0] = False
        data = frames._solution_text(bytearray(values.tobytes()), encode, geometry, valid)
        assert bytes(data) == values.tobytes().translate(encode)
    pa = pytest.importorskip("pyarrow")
    out = sf.solve_many(pa.array(["1" + "." * 80, "11" + "." * 79]), output="arrow")
    out.validate(full=True)
    assert out.null_count == 1 and out[0].as_py() == sf.solve("1" + "." * 80)
    assert out.buffers()[2].to_pybytes()[81:] == b"." * 81


# ---------------------------------------------------------------- the passes on threads


@pytest.fixture
def small_ranges(monkeypatch: pytest.MonkeyPatch) -> None:
    """Let the bulk passes split a few hundred rows into ranges of 8 rows or more."""
    monkeypatch.setattr(frames, "PARALLEL_ROWS", 1)
    monkeypatch.setattr(frames, "RANGE_ROWS", 8)


def _mixed_rows(seed: int, n: int) -> list[str]:
    """n Kaggle puzzles: most plain, some with '0' for empty, some in layouts for the parser."""
    rng = random.Random(seed)
    rows = []
    for _ in range(n):
        puzzle = rng.choice(KAGGLE)["puzzle"]
        draw = rng.random()
        if draw < 0.05:
            puzzle = sf.show(puzzle)
        elif draw < 0.1:
            puzzle = " ".join(puzzle)
        elif draw < 0.3:
            puzzle = puzzle.replace(".", "0")
        rows.append(puzzle)
    return rows


def _grids(column: Any, threads: int) -> bytes:
    read = frames.read_column(column, "test", None, None, threads=threads)
    assert read is not None
    return bytes(read.grids)


def _error(column: Any, threads: int) -> str:
    with pytest.raises((ValueError, TypeError)) as err:
        frames.read_column(column, "test", None, None, threads=threads)
    return str(err.value)


def test_over_ranges_covers_every_row_once() -> None:
    calls: list[tuple[int, int]] = []
    frames.over_ranges(frames.PARALLEL_ROWS - 1, 4, lambda a, b: calls.append((a, b)))
    assert calls == [(0, frames.PARALLEL_ROWS - 1)]  # a small batch: one call, this thread
    calls.clear()
    frames.over_ranges(3 * frames.PARALLEL_ROWS - 1, 4, lambda a, b: calls.append((a, b)), scale=3)
    assert calls == [(0, 3 * frames.PARALLEL_ROWS - 1)]
    calls.clear()
    n = frames.PARALLEL_ROWS + 5
    frames.over_ranges(n, 2, lambda a, b: calls.append((a, b)))
    spans = sorted(calls)
    assert len(spans) > 1 and spans[0][0] == 0 and spans[-1][1] == n
    assert all(a[1] == b[0] for a, b in itertools.pairwise(spans))
    assert all(stop - start >= frames.RANGE_ROWS for start, stop in spans[:-1])


@pytest.mark.parametrize("seed", range(3))
def test_threaded_encode_of_arrow_columns(small_ranges: None, seed: int) -> None:
    """Ranges that cross chunks, slices and empty chunks give the grids one thread gives."""
    pa = pytest.importorskip("pyarrow")
    from sudoku_fast._engine.encode import encode_texts

    rows = _mixed_rows(seed, 300)
    want = bytes(encode_texts(rows)[1])  # the list path: another bulk encoder
    padded = ["x" * 5] * 11 + rows + ["y"]
    for column in (
        pa.array(rows),
        pa.array(rows, type=pa.large_string()),
        pa.array([r.encode() for r in rows], type=pa.binary()),
        pa.chunked_array([rows[:0], rows[:37], [], rows[37:200], rows[200:]], type=pa.string()),
        pa.array(padded).slice(11, 300),  # a nonzero offset into the buffers
        pa.chunked_array([pa.array(padded).slice(11, 150), pa.array(padded).slice(161, 150)]),
        pa.chunked_array([pa.array(rows[:100], type=pa.large_string()), rows[100:]]),
    ):
        assert _grids(column, 4) == want
        assert _grids(column, 1) == want


def test_empty_columns(small_ranges: None) -> None:
    pa = pytest.importorskip("pyarrow")
    for column in (
        pa.array([], type=pa.string()),
        pa.chunked_array([[], []], type=pa.large_string()),
        pa.chunked_array([], type=pa.string()),
        pa.array(PUZZLES[:5]).slice(5),
        np.array([], dtype="U81"),
        np.array([], dtype="S81"),
    ):
        for threads in (1, 4):
            assert _grids(column, threads) == b""
            assert sf.solve_many(column, threads=threads) == []
            assert len(sf.count_many(column, threads=threads, output="like")) == 0


@pytest.mark.parametrize("seed", range(3))
def test_threaded_encode_matches_the_twin(small_ranges: None, seed: int) -> None:
    """The bulk pass on threads writes what `encode_rows_py` writes; the parser does the rest."""
    pa = pytest.importorskip("pyarrow")
    from sudoku_fast._base.grid import parse_grid

    rows = _mixed_rows(seed + 10, 250)
    column = pa.array(rows)
    _, offsets_buf, data_buf = column.buffers()
    data = np.frombuffer(data_buf, dtype=np.uint8)
    offsets = np.frombuffer(offsets_buf, dtype=np.int32).astype(np.int64)
    table = np.frombuffer(frames._ascii_table(sf.geometry_for(9)), dtype=np.uint8)
    twin = np.zeros((len(rows), 81), dtype=np.uint8)
    slow = _textio_py.encode_rows(data, offsets, table, twin)
    assert 0 < len(slow) < len(rows)
    for i in slow:
        twin[i] = np.frombuffer(parse_grid(rows[i])[1], dtype=np.uint8)
    assert _grids(column, 3) == twin.tobytes()


def test_threaded_encode_names_the_first_bad_row(small_ranges: None) -> None:
    pa = pytest.importorskip("pyarrow")
    rows: list[str | None] = list(_mixed_rows(7, 300))
    rows[250] = "x" * 81  # a foreign character, plain length
    rows[160] = None
    rows[210] = rows[0][:80]  # one character short
    for column in (pa.array(rows), pa.chunked_array([rows[:100], [], rows[100:]])):
        assert _error(column, 4) == _error(column, 1)
        assert _error(column, 4).startswith("puzzle 160: missing")
    rows[160] = rows[1]
    for column in (pa.array(rows), pa.chunked_array([rows[:205], rows[205:]])):
        assert _error(column, 4) == _error(column, 1)
        assert _error(column, 4).startswith("puzzle 210: ")
    rows[210] = rows[2]
    assert _error(pa.array(rows), 4).startswith("puzzle 250: ")


def test_a_null_with_plain_text_behind_it_is_missing(small_ranges: None) -> None:
    """A null row whose offsets still cover 81 digits is missing, not that puzzle."""
    pa = pytest.importorskip("pyarrow")
    rows = [r["puzzle"] for r in KAGGLE[:200]]
    plain = pa.array(rows)
    valid = np.ones(200, dtype=bool)
    valid[123] = False
    column = pa.Array.from_buffers(
        pa.string(),
        200,
        [pa.py_buffer(np.packbits(valid, bitorder="little")), *plain.buffers()[1:]],
        null_count=1,
    )
    assert _error(column, 4) == _error(column, 1) == "puzzle 123: missing (null)"


def test_threaded_encode_of_numpy_text(small_ranges: None) -> None:
    from sudoku_fast._engine.encode import encode_texts

    rows = _mixed_rows(3, 300)
    want = bytes(encode_texts(rows)[1])
    for column in (np.array(rows), np.array(rows, dtype="S"), np.array(rows, dtype="U400")):
        assert _grids(column, 4) == want
        assert _grids(column, 1) == want
    plain = [r["puzzle"] for r in KAGGLE[:300]]
    plain[150] += "  "  # longer than N*N: the parser reads it (and drops the blanks)
    want = bytes(encode_texts(plain)[1])
    assert _grids(np.array(plain), 4) == _grids(np.array(plain, dtype="S"), 4) == want
    bad = list(plain)
    bad[260] = bad[260] + "5"  # one character too many, after 81 plain ones
    for column in (np.array(bad), np.array(bad, dtype="S")):
        assert _error(column, 4) == _error(column, 1)
        assert _error(column, 4).startswith("puzzle 260: ")
    bad[222] = bad[222][:40] + "\u0131" + bad[222][41:]  # U+0131: its low byte is "1"
    assert _error(np.array(bad), 4) == _error(np.array(bad), 1)
    assert _error(np.array(bad), 4).startswith("puzzle 222: ")


def test_threaded_solution_text(small_ranges: None) -> None:
    """The addition in ranges writes the bytes of one pass and of `bytes.translate`."""
    from sudoku_fast._base.grid import CLASSIC, codec, geometry_for

    rng = np.random.default_rng(11)
    for geometry in (CLASSIC, geometry_for(None, None, "ABCDEFGHI"), geometry_for(16)):
        encode = codec(geometry).encode
        values = rng.integers(1, geometry.size + 1, (300, geometry.cells), dtype=np.uint8)
        valid = rng.random(300) > 0.2
        values[~valid] = 0  # the engine's grid where there is no solution
        one = frames._solution_text(bytearray(values.tobytes()), encode, geometry, valid, 1)
        four = frames._solution_text(bytearray(values.tobytes()), encode, geometry, valid, 4)
        assert bytes(four) == bytes(one) == values.tobytes().translate(encode)
        # A read-only buffer is left as it is: the text goes to a copy.
        frozen = values.tobytes()
        assert bytes(frames._solution_text(frozen, encode, geometry, valid, 4)) == bytes(one)
        assert frozen == values.tobytes()


def test_threaded_arrow_and_pandas_answers(small_ranges: None) -> None:
    """Whole calls on threads: the answers of one thread, checked against Kaggle's own."""
    pa = pytest.importorskip("pyarrow")
    from checks import check_solution

    rows = [r["puzzle"] for r in KAGGLE[:300]]
    given = [r["solution"] for r in KAGGLE[:300]]
    rows[17] = rows[99] = UNSOLVABLE
    column = pa.chunked_array([rows[:120], rows[120:]])
    four = sf.solve_many(column, threads=4, output="arrow")
    one = sf.solve_many(column, threads=1, output="arrow")
    assert four.equals(one)
    answers = four.to_pylist()
    for i, (puzzle, answer) in enumerate(zip(rows, answers, strict=True)):
        if i in (17, 99):
            assert answer is None
        else:
            assert answer == given[i]
            check_solution(answer, puzzle)
    counts = sf.count_many(column, threads=4, output="arrow").to_pylist()
    assert (
        counts == sf.count_many(rows, threads=1) == [0 if i in (17, 99) else 1 for i in range(300)]
    )
    pd = pytest.importorskip("pandas")
    series = pd.Series(rows, dtype=pd.StringDtype("pyarrow"), name="q")
    like = sf.solve_many(series, threads=4, output="like")
    assert like.dtype == series.dtype
    assert [None if pd.isna(x) else x for x in like] == answers
    # Counts come from the engine's int32 buffer: int64 for pandas, as from Python ints.
    counted = sf.count_many(series, threads=4, output="like")
    assert counted.dtype == np.int64 and counted.name == "q" and list(counted) == counts
    assert sf.count_many(np.array(rows), output="like").tolist() == counts
