"""Batch input and output for columns: pandas, pyarrow, polars and numpy text arrays.

`solve_many`, `count_many` and `rate_many` hand every input to `read_column` first. A
pyarrow `Array` / `ChunkedArray` of strings (or binary), a pandas `Series`, a polars
`Series` or a one-dimensional numpy array of `str` / `bytes` is turned into the batch's
geometry and one contiguous buffer of N*N values per puzzle, the form the engines run
on. Anything else (a list, a generator, a numpy integer array) is left to `inputs.py`.

Arrow strings are read from their buffers: the offsets say which rows are plain (exactly
N*N one-byte characters); their bytes go through the geometry's character table in one
numpy operation, with no Python `str` per puzzle. numpy `S` and `U` arrays are read the
same way from their fixed-width storage. A row in any other notation (the pretty form,
rows separated by spaces) or with a character outside the table is parsed alone by the
ordinary parser, which also names the index of a malformed one. pandas and polars
columns are read through Arrow when their strings live there, else item by item.

The bulk passes around the engine (text -> grids before it, solution values -> text
after it) run on the batch's threads: on a large batch (see PARALLEL_ROWS) the rows are
split into ranges handed to `run_chunks`, the pool the engine runs on, each range
done with the GIL released. Rows the bulk pass leaves to the parser are then parsed in
input order on the caller's thread, so the first bad row is the one an error names,
whatever the thread count.

Answers come back as the caller asks with `output`: None (the functions' ordinary
result), "list", "arrow" (a pyarrow array, built from the engine's buffers for
solutions) or "like" (a column of the input's kind: a pandas Series with the input's
index and name, a polars Series, a pyarrow array, a numpy array; a list otherwise).

Nothing here imports pandas, pyarrow, polars or numpy unless such an input arrives or
such an output is asked for.
"""

from __future__ import annotations

import bisect
import itertools
import numbers
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeGuard

from .._base.columns import RATING_KINDS, rating_fields
from .._base.grid import CLASSIC, Geometry, codec, geometry_for
from .._base.optional import optional
from .._base.records import Rating
from .._engine.encode import as_text, decode_solutions, encode_item, encode_texts, item_geometry
from .._engine.results import EngineResults
from .._engine.textio import encode_rows
from .._parallel.fanout import run_chunks
from .._parallel.threads import resolve_threads

OUTPUTS = (None, "list", "arrow", "like")
_SLOW = 254  # table values at or above this need the full parser (layout or foreign)
_EMPTY = b""
# From this many rows up the encode runs on the batch's threads (the solutions' text,
# an addition in place with a tenth of the encode's work per row, from TEXT_SCALE times
# as many); below, one thread does it, as handing out ranges costs more than it saves
# there (`python bench/column_threads.py --threshold`, bench/README.md).
PARALLEL_ROWS = 32_768
TEXT_SCALE = 8
RANGE_ROWS = 16_384  # the smallest range of rows one thread takes in those passes


@dataclass
class Column:
    """A batch read from a column: its geometry, n encoded grids, and where it came from.

    `grids` holds the n*N*N values in one flat buffer (a uint8 numpy array; a bytearray
    for a column read item by item). `kind` is "arrow", "chunked", "pandas", "polars" or
    "numpy"; `source` is the input itself, kept for the index and name of a "like" output.
    """

    geometry: Geometry
    grids: Any
    n: int
    kind: str
    source: Any


def check_output(output: object) -> None:
    """Raise ValueError unless `output` is one of OUTPUTS."""
    if output not in OUTPUTS:
        raise ValueError(f"output must be one of {OUTPUTS}, got {output!r}")


def _libraries(obj: object) -> frozenset[str]:
    """The top-level packages that define the classes of `obj` (its type and their bases)."""
    return frozenset(str(cls.__module__).partition(".")[0] for cls in type(obj).__mro__)


def is_numpy_array(obj: object) -> TypeGuard[Any]:
    """Whether `obj` is a numpy array (numpy is imported only when it could be one)."""
    return "numpy" in _libraries(obj) and isinstance(obj, _numpy().ndarray)


def column_kind(puzzles: object) -> str | None:
    """The kind of column `puzzles` is, or None for anything `inputs.py` reads itself.

    A library is consulted only when one of the object's classes comes from it, and then
    imported properly: while another thread is still importing it, `sys.modules` holds a
    module without its names yet, and the import waits for it to finish.
    """
    libraries = _libraries(puzzles)
    if "pyarrow" in libraries:
        import pyarrow as pa

        if isinstance(puzzles, pa.ChunkedArray):
            return "chunked"
        if isinstance(puzzles, pa.Array):
            return "arrow"
    if "pandas" in libraries:
        import pandas as pd

        if isinstance(puzzles, (pd.Series, pd.Index)):
            return "pandas"
    if "polars" in libraries:
        import polars as pl

        if isinstance(puzzles, pl.Series):
            return "polars"
    if is_numpy_array(puzzles) and puzzles.ndim == 1 and puzzles.dtype.kind in "USOT":
        return "numpy"
    return None


def table_kind(puzzles: object) -> str | None:
    """The name of the table `puzzles` is (a data frame, an Arrow table), else None.

    A table iterates over its column names, which would be read as puzzles; batch
    functions take one of its columns instead.
    """
    libraries = _libraries(puzzles)
    if "pandas" in libraries:
        import pandas as pd

        if isinstance(puzzles, pd.DataFrame):
            return "pandas DataFrame"
    if "polars" in libraries:
        import polars as pl

        if isinstance(puzzles, (pl.DataFrame, pl.LazyFrame)):
            return f"polars {type(puzzles).__name__}"
    if "pyarrow" in libraries:
        import pyarrow as pa

        if isinstance(puzzles, (pa.Table, pa.RecordBatch)):
            return f"pyarrow {type(puzzles).__name__}"
    return None


def is_missing(item: object) -> bool:
    """Whether a column's item is a missing value: None, a float NaN, pandas' NA or NaT."""
    if item is None:
        return True
    if type(item).__name__ in ("NAType", "NaTType"):  # NA has no truth value: first
        return True
    return isinstance(item, numbers.Real) and item != item  # NaN, numpy's too


def read_column(
    puzzles: object, what: str, box: object, alphabet: object, *, threads: int | None = 1
) -> Column | None:
    """Encode a column input (see the module doc), or None when `puzzles` is not one.

    `threads` is the batch's `threads` argument (see `resolve_threads`): a large
    Arrow or numpy text column is encoded on that many threads.
    """
    kind = column_kind(puzzles)
    if kind is None:
        return None
    data: Any = puzzles
    if kind == "pandas":
        data = _pandas_data(puzzles)
    elif kind == "polars":
        data = _polars_data(puzzles)
    if isinstance(data, list):
        if kind == "pandas" and puzzles.hasnans:  # type: ignore[attr-defined]
            first = int(_numpy().asarray(puzzles.isna()).argmax())  # type: ignore[attr-defined]
            raise ValueError(f"puzzle {first}: missing (null)")
        geometry, grids = encode_texts(data, box, alphabet)
        return Column(geometry, grids, len(data), kind, puzzles)
    np = _numpy()
    reader: _TextReader = _NumpyText(data) if isinstance(data, np.ndarray) else _ArrowText(data)
    n = reader.n
    geometry = _batch_geometry(reader, n, box, alphabet)
    # The bulk pass or the parser writes every row (or an error is raised), so the buffer
    # is not zeroed: its pages are first touched by the threads that encode them. numpy
    # asks the kernel for huge pages for an allocation this large, which makes that first
    # touch several times cheaper than a bytearray's (1,000,000 rows on one thread: the
    # encode takes 58 ms into np.empty, 99 ms into an uninitialised bytearray).
    grids = np.empty(n * geometry.cells, dtype=np.uint8)
    reader.encode(grids.reshape(n, geometry.cells), geometry, threads)
    return Column(geometry, grids, n, kind, puzzles)


def over_ranges(
    n: int, threads: int | None, work: Callable[[int, int], None], *, scale: int = 1
) -> None:
    """Call `work(start, stop)` over rows 0..n-1: once on this thread, or in ranges on threads.

    From `scale` * PARALLEL_ROWS rows up (`scale` > 1 for a pass that does little per row)
    the ranges go to `run_chunks` on `threads` threads (a `threads` argument,
    resolved by `resolve_threads`); `work` should release the GIL for most of its
    range.
    """
    if n < scale * PARALLEL_ROWS:
        work(0, n)
        return
    workers = resolve_threads(threads)
    if workers <= 1:
        work(0, n)
        return
    run_chunks(n, workers, RANGE_ROWS, work, max_chunk=n)


def _merged(*found: list[int]) -> list[int]:
    """The row indices of every list in `found` (one per range, plus nulls), sorted, once each."""
    if not any(found):
        return []
    return sorted(set(itertools.chain.from_iterable(found)))


def _numpy() -> Any:
    (numpy,) = optional("numpy", needed_for="a numpy array", extra="numpy")

    return numpy


def _pandas_data(series: Any) -> Any:
    """A pandas column as Arrow strings when it holds them, else as a list."""
    array = getattr(series, "array", None)
    if array is not None and hasattr(array, "__arrow_array__") and "pyarrow" in sys.modules:
        try:
            return array.__arrow_array__()
        except (TypeError, ValueError):
            pass
    return list(series)


def _polars_data(series: Any) -> Any:
    """A polars column as Arrow strings (zero-copy) when pyarrow is installed."""
    try:
        return series.to_arrow()
    except (ImportError, ModuleNotFoundError):
        return series.to_list()


def _batch_geometry(reader: _TextReader, n: int, box: object, alphabet: object) -> Geometry:
    if box is not None or alphabet is not None:
        return geometry_for(None, box, alphabet)
    if n == 0:
        return CLASSIC
    first = reader.item(0)
    if is_missing(first):
        raise ValueError("puzzle 0: missing (null)")
    return item_geometry(as_text(first))


class _TextReader:
    """Rows of text stored in flat buffers: encode the plain ones in bulk."""

    n: int

    def item(self, index: int) -> Any:
        """Row `index` as a Python object (str, or None for a missing value)."""
        raise NotImplementedError

    def encode(self, out: Any, geometry: Geometry, threads: int | None = 1) -> None:
        """Write every row's values into `out` (n x cells uint8), or raise naming a row.

        The bulk pass runs on `threads` threads (see `over_ranges`); the rows it leaves
        are parsed afterwards, in order, on this thread.
        """
        raise NotImplementedError

    def finish(self, out: Any, slow: list[int], geometry: Geometry) -> None:
        """Parse the rows `slow` (ascending) of `out` one by one: the bulk pass left them."""
        np = _numpy()
        for i in slow:
            out[i] = np.frombuffer(self.slow_item(i, geometry), dtype=np.uint8)

    def slow_item(self, index: int, geometry: Geometry) -> bytes:
        item = self.item(index)
        if is_missing(item):
            raise ValueError(f"puzzle {index}: missing (null)")
        return encode_item(as_text(item), index, geometry, inferred=False)


def _ascii_table(geometry: Geometry) -> bytes:
    """The geometry's byte -> value table (for `bytes.translate`), non-ASCII to the parser."""
    decode = codec(geometry).decode
    if decode is None:
        return bytes([255]) * 256
    return decode[:128] + bytes([255]) * 128


class _ArrowText(_TextReader):
    """A pyarrow Array or ChunkedArray of string / binary rows."""

    def __init__(self, data: Any) -> None:
        import pyarrow as pa

        chunks = data.chunks if isinstance(data, pa.ChunkedArray) else [data]
        self.chunks = [self._plain_type(chunk) for chunk in chunks]
        self.n = sum(len(chunk) for chunk in self.chunks)
        self.starts: list[int] = []
        start = 0
        for chunk in self.chunks:
            self.starts.append(start)
            start += len(chunk)

    @staticmethod
    def _plain_type(chunk: Any) -> Any:
        import pyarrow as pa
        import pyarrow.types as pt

        kind = chunk.type
        if pt.is_string(kind) or pt.is_large_string(kind):
            return chunk
        if pt.is_binary(kind) or pt.is_large_binary(kind):
            return chunk
        if pt.is_string_view(kind):
            return chunk.cast(pa.large_string())
        if pt.is_binary_view(kind):
            return chunk.cast(pa.large_binary())
        if pt.is_dictionary(kind):
            return _ArrowText._plain_type(chunk.dictionary_decode())
        if pt.is_null(kind):  # all missing: each is reported as such, by its row
            return chunk.cast(pa.string())
        raise TypeError(f"expected an Arrow column of strings, got type {kind}")

    def item(self, index: int) -> Any:
        for chunk, start in zip(reversed(self.chunks), reversed(self.starts), strict=True):
            if index >= start:
                return chunk[index - start].as_py()
        raise IndexError(index)

    def encode(self, out: Any, geometry: Geometry, threads: int | None = 1) -> None:
        np = _numpy()
        import pyarrow.types as pt

        table = np.frombuffer(_ascii_table(geometry), dtype=np.uint8)
        firsts: list[int] = []  # the first row of each non-empty chunk, ascending
        pieces: list[tuple[Any, Any]] = []  # (data, offsets) of those chunks
        nulls: list[int] = []
        for chunk, first in zip(self.chunks, self.starts, strict=True):
            rows = len(chunk)
            if rows == 0:
                continue
            _, offsets_buf, data_buf = chunk.buffers()[:3]
            wide = pt.is_large_string(chunk.type) or pt.is_large_binary(chunk.type)
            offsets = np.frombuffer(offsets_buf, dtype=np.int64 if wide else np.int32)
            offsets = offsets[chunk.offset : chunk.offset + rows + 1]
            data = np.frombuffer(data_buf, dtype=np.uint8) if data_buf is not None else _EMPTY
            firsts.append(first)
            pieces.append((data, offsets))
            if chunk.null_count:
                nulls.extend((first + np.flatnonzero(np.asarray(chunk.is_null()))).tolist())
        found: list[list[int]] = []  # each range's rows left to the parser

        def work(start: int, stop: int) -> None:
            # Rows start..stop-1 may span several chunks: each part is encoded from its own.
            k = max(0, bisect.bisect_right(firsts, start) - 1)
            while k < len(firsts) and firsts[k] < stop:
                data, offsets = pieces[k]
                lo, hi = max(start, firsts[k]), min(stop, firsts[k] + len(offsets) - 1)
                if lo < hi:
                    part = np.ascontiguousarray(
                        offsets[lo - firsts[k] : hi - firsts[k] + 1], dtype=np.int64
                    )
                    slow = encode_rows(data, part, table, out[lo:hi])
                    found.append([lo + i for i in slow])
                k += 1

        over_ranges(self.n, threads, work)
        self.finish(out, _merged(*found, nulls), geometry)


class _NumpyText(_TextReader):
    """A one-dimensional numpy array of str (U, or T: numpy 2's StringDType), bytes (S)
    or Python objects (O)."""

    def __init__(self, data: Any) -> None:
        self.data = data
        self.n = len(data)

    def item(self, index: int) -> Any:
        item = self.data[index]
        return item.item() if hasattr(item, "item") and not isinstance(item, str) else item

    def encode(self, out: Any, geometry: Geometry, threads: int | None = 1) -> None:
        np = _numpy()
        arr = np.ascontiguousarray(self.data)
        kind, n, cells = arr.dtype.kind, self.n, geometry.cells
        if kind == "O" or n == 0 or (kind == "T" and hasattr(arr.dtype, "na_object")):
            for i in range(n):
                out[i] = np.frombuffer(self.slow_item(i, geometry), dtype=np.uint8)
            return
        table = np.frombuffer(_ascii_table(geometry), dtype=np.uint8)
        if kind == "S":
            width = arr.dtype.itemsize
            codes = arr.view(np.uint8).reshape(n, width)
        elif kind == "T":  # variable-width strings: each range is cast to fixed width
            # One character past N*N tells a longer row (which the parser then takes
            # whole): a wider cast would make every row as long as the longest one.
            width = min(int(np.strings.str_len(arr).max()), cells + 1)
            codes = arr
        else:
            width = arr.dtype.itemsize // 4
            codes = arr.view(np.uint32).reshape(n, width)
        if width < cells:
            self.finish(out, list(range(n)), geometry)
            return
        found: list[list[int]] = []  # each range's rows left to the parser

        def work(start: int, stop: int) -> None:
            rows = codes[start:stop]
            if kind == "T":
                rows = rows.astype(f"U{width}").view(np.uint32).reshape(stop - start, width)
            if kind == "S":
                text = np.ascontiguousarray(rows[:, :cells])
            else:  # a code point above 255 becomes 255, which the table sends to the parser
                text = np.empty((stop - start, cells), dtype=np.uint8)
                np.minimum(rows[:, :cells], 255, out=text, casting="unsafe")
            offsets = np.arange(0, (stop - start + 1) * cells, cells, dtype=np.int64)
            slow = encode_rows(text.reshape(-1), offsets, table, out[start:stop])
            # Shorter rows are padded with NUL, which the table sends to the parser; a
            # longer row has something after its first N*N characters.
            longer = np.flatnonzero((rows[:, cells:] != 0).any(axis=1))
            found.append([start + i for i in slow] + (start + longer).tolist())

        over_ranges(n, threads, work)
        self.finish(out, _merged(*found), geometry)


# ---------------------------------------------------------------- output


def solutions_out(results: EngineResults, column: Column | None, output: str | None) -> Any:
    """The solutions of `results` in the form `output` asks for (see the module doc)."""
    kind = _output_kind(column, output)
    if kind == "list" and results.texts is not None:
        return results.texts  # the strings the engine made as it went
    if kind == "list":
        return decode_solutions(results)
    if kind == "arrow":
        return _arrow_solutions(results, column)
    if _arrow_backed(column):
        assert column is not None
        return _pandas_strings(_arrow_solutions(results, None), column.source)
    texts = decode_solutions(results)
    return _like(texts, column, "solution")


def needs_texts(column: Column | None, output: str | None) -> bool:
    """True when the answer is built from Python strings (not straight from buffers)."""
    return _output_kind(column, output) != "arrow" and not _arrow_backed(column)


def _arrow_backed(column: Column | None) -> bool:
    """True for a pandas Series whose strings live in Arrow: its "like" output can too."""
    if column is None or column.kind != "pandas":
        return False
    dtype = getattr(column.source, "dtype", None)
    return getattr(dtype, "storage", None) == "pyarrow" and "pyarrow" in sys.modules


def _pandas_strings(array: Any, source: Any) -> Any:
    """A pyarrow string array as a pandas Series of the source's string dtype and index."""
    import pandas as pd

    dtype = source.dtype
    try:  # wraps the Arrow array without a copy (pd.array validates it row by row)
        values = dtype.construct_array_type()._from_sequence(array, dtype=dtype)
    except (AttributeError, TypeError, ValueError):
        values = pd.array(array, dtype=dtype)
    index = source.index if isinstance(source, pd.Series) else None
    return pd.Series(values, index=index, name=_pandas_name(source, "solution"))


def counts_out(counts: Sequence[int], column: Column | None, output: str | None) -> Any:
    """Solution counts in the form `output` asks for.

    `counts` is a list or the engine's int32 array (`EngineResults.counts`); a column
    is made from the array's buffer, not from one Python int per puzzle (1,000,000
    counts: about 0.1 ms for Arrow instead of 47 ms, 3 ms for pandas instead of 175).
    Integer columns hold int32, pandas and polars int64 (as from Python ints).
    """
    kind = _output_kind(column, output)
    if kind == "list":
        return counts if isinstance(counts, list) else list(counts)
    np = _numpy()
    if isinstance(counts, list):
        values = np.asarray(counts, dtype=np.int32)
    else:
        values = np.frombuffer(counts, dtype=np.int32)
    if kind == "arrow":
        import pyarrow as pa

        return _rechunk(pa.array(values, type=pa.int32()), column)
    assert column is not None
    if column.kind in ("pandas", "polars"):
        return _like(values.astype(np.int64), column, "count")
    return values


def rating_arrow_type(score: bool = False) -> Any:
    """The pyarrow struct type of ratings in Arrow form (see `ratings_out`)."""
    import pyarrow as pa

    kinds = {
        "int64": pa.int64(),
        "string": pa.string(),
        "float64": pa.float64(),
        "bool": pa.bool_(),
    }
    return pa.struct([(f, kinds[RATING_KINDS[f]]) for f in rating_fields(score)])


def ratings_out(
    ratings: list[Rating], column: Column | None, output: str | None, score: bool = False
) -> Any:
    """Ratings in the form `output` asks for.

    Arrow output is a struct array of the fields in RATING_FIELDS, and SCORE_FIELDS with
    `score` (the technique counts stay on the Rating objects); a "like" pandas or polars
    output is a data frame of those fields, with the input's index for pandas.
    """
    kind = _output_kind(column, output)
    if kind == "list":
        return ratings
    rows = {name: [getattr(r, name) for r in ratings] for name in rating_fields(score)}
    if kind == "arrow":
        import pyarrow as pa

        struct = rating_arrow_type(score)
        children = [pa.array(values, type=struct[i].type) for i, values in enumerate(rows.values())]
        return _rechunk(pa.StructArray.from_arrays(children, fields=list(struct)), column)
    assert column is not None
    if column.kind == "pandas":
        import pandas as pd

        # A Series lends its index; a pandas Index gets a fresh one, as in `_like`.
        index = column.source.index if isinstance(column.source, pd.Series) else None
        return pd.DataFrame(rows, index=index)
    if column.kind == "polars":
        import polars as pl

        return pl.DataFrame(rows)
    return object_array(ratings)


def _output_kind(column: Column | None, output: str | None) -> str:
    """'list', 'arrow' or 'like' (a column of the input's kind other than Arrow)."""
    check_output(output)
    if output is None or output == "list":
        return "list"
    if output == "arrow" or (column is not None and column.kind in ("arrow", "chunked")):
        return "arrow"
    return "like" if column is not None else "list"


def _rechunk(array: Any, column: Column | None) -> Any:
    """A ChunkedArray for a ChunkedArray input, the array itself otherwise."""
    if column is not None and column.kind == "chunked":
        import pyarrow as pa

        return pa.chunked_array([array], type=array.type)
    return array


def _arrow_solutions(results: EngineResults, column: Column | None) -> Any:
    """A pyarrow string array of solutions (null where none) built from the engine buffers.

    The engine's solution buffer becomes the array's text, on the threads the engine ran
    on (`results.threads`; see `_solution_text`): `results.solutions` holds characters,
    not values, afterwards.
    """
    import pyarrow as pa

    np = _numpy()
    geometry, n = results.geometry, results.n
    encode = codec(geometry).encode
    if encode is None:  # a non-ASCII alphabet: go through Python strings
        return _rechunk(pa.array(decode_solutions(results), type=pa.string()), column)
    cells = geometry.cells
    valid = np.frombuffer(results.counts, dtype=np.int32) > 0
    nulls = n - int(np.count_nonzero(valid))
    data = _solution_text(
        results.solutions, encode, geometry, valid if nulls else None, results.threads
    )
    large = n * cells >= 2**31
    offsets = np.arange(0, (n + 1) * cells, cells, dtype=np.int64 if large else np.int32)
    validity = pa.py_buffer(np.packbits(valid, bitorder="little")) if nulls else None
    array = pa.Array.from_buffers(
        pa.large_string() if large else pa.string(),
        n,
        [validity, pa.py_buffer(offsets), pa.py_buffer(data)],
        null_count=nulls,
    )
    return _rechunk(array, column)


def _solution_text(
    solutions: Any, encode: bytes, geometry: Geometry, valid: Any, threads: int | None = 1
) -> Any:
    """The engine's solution values (1..size) as text bytes, one grid of N*N per row.

    Where the alphabet's characters are consecutive codes (digits 1-9: value + 48), a
    vectorised addition in place: the values in `solutions` (a writable buffer; else a
    copy) become their characters, a numpy array over it is returned, and no second
    buffer of the batch's size is made, touched and freed. It runs in row ranges on
    `threads` threads (see `over_ranges`; the addition releases the GIL); rows where
    `valid` (a boolean array, or None for all) is False get encode[0], as the table
    would write for the engine's grid of zeros. Else `bytes.translate` into new bytes,
    which costs about ten times as much on a large batch.
    """
    size, cells = geometry.size, geometry.cells
    base = encode[1] - 1
    if not all(encode[v] == base + v for v in range(1, size + 1)):
        return bytes(solutions).translate(encode)
    np = _numpy()
    text = np.frombuffer(solutions, dtype=np.uint8).reshape(-1, cells)
    if not text.flags.writeable:
        text = text.copy()
    offset, empty = np.uint8(base), encode[0]

    def work(start: int, stop: int) -> None:
        np.add(text[start:stop], offset, out=text[start:stop])
        if valid is not None:
            text[start + np.flatnonzero(~valid[start:stop])] = empty

    over_ranges(len(text), threads, work, scale=TEXT_SCALE)
    return text.reshape(-1)


def _pandas_name(source: Any, default: str) -> Any:
    """The name of an answer column made from a pandas one: the input's, if it has one
    (0 and "" are names too), else `default`."""
    name = getattr(source, "name", None)
    return default if name is None else name


def _like(values: Any, column: Column | None, name: str) -> Any:
    """`values` (a list, or a numpy array for pandas and polars) as a column of the input's kind."""
    assert column is not None
    if column.kind == "pandas":
        import pandas as pd

        source = column.source
        index = source.index if isinstance(source, pd.Series) else None
        return pd.Series(values, index=index, name=_pandas_name(source, name))
    if column.kind == "polars":
        import polars as pl

        return pl.Series(column.source.name or name, values)  # unnamed polars Series: ""
    return object_array(values)


def object_array(items: Sequence[Any]) -> Any:
    """A 1-d numpy array of Python objects, one per item (numpy would make a 2-d array
    of a list of tuples or a list of lists)."""
    np = _numpy()
    out = np.empty(len(items), dtype=object)
    out[:] = items
    return out
