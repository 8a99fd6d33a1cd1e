"""What a batch function takes, read into one buffer of grids: lists, columns, numpy arrays.

Every batch function (`solve_many`, `count_many`, `rate_many`, `canonical_many`, ...)
accepts the same inputs: an iterable of puzzle strings (bytes items too), a column
(pandas, pyarrow, polars, a 1-D numpy text array; read by `frames`), or a numpy integer
array of shape (n, N*N) or (n, N, N) holding values 0..N. A batch holds puzzles of one
size. Errors name the index of the first bad item.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Iterable
from typing import Any

from .._base.grid import MAX_SIZE, MIN_INFERRED_SIZE, Geometry, geometry_for
from .._engine.encode import as_text, encode_marks, encode_texts
from . import frames

__all__ = [
    "as_list",
    "encode_values",
    "marks_column",
    "marks_items",
    "read_batch",
    "read_marks",
    "values_array",
]


def as_list(puzzles: Iterable[str], what: str) -> list[Any]:
    if isinstance(puzzles, (str, bytes, bytearray)):
        kind = type(puzzles).__name__
        raise TypeError(f"{what} takes an iterable of puzzles, not a single {kind}")
    table = frames.table_kind(puzzles)
    if table is not None:
        raise TypeError(
            f"{what} takes a column of puzzles, not a {table}: pass one of its columns, "
            "such as frame['puzzle']"
        )
    try:
        return list(puzzles)
    except TypeError:
        raise TypeError(
            f"{what} takes an iterable of puzzles, not {type(puzzles).__name__}"
        ) from None


def read_batch(
    puzzles: Any,
    what: str,
    box: object = None,
    alphabet: object = None,
    *,
    threads: int | None = 1,
) -> tuple[Geometry, Any, int, frames.Column | None]:
    """Encode a batch input that is not a numpy value array: (geometry, grids, n, column).

    Columns (pandas, pyarrow, polars, numpy text) are read by `frames`, a large one on
    `threads` threads (the batch's `threads` argument), and come back with their
    `Column`; any other iterable is listed and encoded here (column None).
    """
    column = frames.read_column(puzzles, what, box, alphabet, threads=threads)
    if column is not None:
        return column.geometry, column.grids, column.n, column
    items = as_list(puzzles, what)
    geometry, grids = encode_texts(items, box, alphabet)
    return geometry, grids, len(items), None


def marks_items(puzzles: Any, what: str) -> tuple[list[Any], str | None]:
    """The items of a batch of pencil-mark puzzles, and the column kind they came in.

    Marks are strings, so never a numpy value array; a text column (Arrow, pandas,
    polars, numpy) is listed item by item (None stays None, refused by the parser).
    """
    if values_array(puzzles) is not None:
        raise TypeError(f"{what}: marks=True takes pencil-mark strings, not a numpy array")
    kind = frames.column_kind(puzzles)
    if kind is None:  # bytes items are text, as everywhere else
        return [as_text(item) for item in as_list(puzzles, what)], None
    if kind in ("arrow", "chunked"):
        items = [as_text(item) for item in puzzles.to_pylist()]
    else:
        items = [as_text(item) for item in puzzles]
    for i, item in enumerate(items):
        # A column's missing value (None, NaN, pandas' NA) is a null, as `frames` reads it.
        if not isinstance(item, str) and frames.is_missing(item):
            raise ValueError(f"puzzle {i}: missing (null)")
    return items, kind


def marks_column(
    puzzles: Any, kind: str | None, geometry: Geometry, grids: Any, n: int
) -> frames.Column | None:
    """The `Column` a batch of marks came in, for an output "like" it (None: not one)."""
    return None if kind is None else frames.Column(geometry, grids, n, kind, puzzles)


def values_array(puzzles: object) -> Any:
    """The input as a numpy array of values if it is one (numpy is imported only for one).

    A one-dimensional array of text is a column of puzzles, read by `frames`.
    """
    if not frames.is_numpy_array(puzzles) or frames.column_kind(puzzles) is not None:
        return None
    return puzzles


def encode_values(
    arr: Any, what: str, box: object = None, alphabet: object = None
) -> tuple[Any, int, Geometry]:
    """Validate a numpy array of shape (n, N*N) or (n, N, N) holding values 0..N."""
    import numpy as np

    shape = arr.shape
    if arr.ndim == 2:
        size = math.isqrt(shape[1])
        square = size * size == shape[1]
    else:
        size = shape[1] if arr.ndim == 3 else 0
        square = arr.ndim == 3 and shape[1] == shape[2]
    if not square or not 1 <= size <= MAX_SIZE:
        raise ValueError(f"{what}: expected an array of shape (n, N*N) or (n, N, N), got {shape}")
    if not np.issubdtype(arr.dtype, np.integer):
        raise TypeError(f"{what}: expected an integer array, got dtype {arr.dtype}")
    if size < MIN_INFERRED_SIZE and box is None and alphabet is None:
        # As for text: a grid this small is more likely a wrong shape than a puzzle.
        raise ValueError(
            f"{what}: an array of shape {shape} holds {size}x{size} grids, too small to be "
            f"taken for puzzles without box=(rows, cols)"
        )
    try:
        geometry = geometry_for(size, box, alphabet)
    except ValueError as err:
        raise ValueError(f"{what}: {err}") from None
    n = shape[0]
    flat = arr.reshape(n, geometry.cells)
    # One or two reductions (SIMD in numpy; no minimum for unsigned types, the common
    # uint8 case) find whether any value is out of range; the mask that names the first
    # bad one is built only then. This pass runs before any thread starts, so on many
    # cores its time counts in full against the speed-up.
    unsigned = np.issubdtype(arr.dtype, np.unsignedinteger)
    if n and ((not unsigned and flat.min() < 0) or flat.max() > size):
        bad = (flat < 0) | (flat > size)
        if bad.any():
            row, col = (int(x) for x in np.argwhere(bad)[0])
            raise ValueError(
                f"puzzle {row}: value {int(flat[row, col])} at cell {col} ({geometry.name(col)}) "
                f"is not a value 0-{size}"
            )
    return np.ascontiguousarray(flat, dtype=np.uint8).reshape(-1), n, geometry


def read_marks(
    puzzles: Any, what: str, box: object, alphabet: object
) -> tuple[Geometry, bytearray, array[int], int, frames.Column | None]:
    """A batch of pencil-mark puzzles: (geometry, empty grids, masks, n, column it came in)."""
    items, kind = marks_items(puzzles, what)
    geometry, grids, masks = encode_marks(items, box, alphabet)
    return (
        geometry,
        grids,
        masks,
        len(items),
        marks_column(puzzles, kind, geometry, grids, len(items)),
    )
