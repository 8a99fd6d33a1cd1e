"""Batches that answer a bad item as missing (`on_error="none"` / `"warn"`) instead of failing.

A batch function runs as it always does first; only when it raises about an item
("puzzle k: ...") are the items read one by one:

1. The items are screened by the reader the batch itself uses (`encode_texts`,
   `encode_marks`, the value check of `encode_values`), block by block: a block that
   reads cleanly costs one call; in a block that does not, each item is read beside the
   batch's first good item (which fixes the size, as the first item does for a batch).
   Nulls (None, NaN, pandas' NA, Arrow nulls) are bad items too.
2. The good items, in the input's own kind (a list, a pandas Series with its index, an
   Arrow array, a numpy array...), go to the function again; an item it still refuses
   (a puzzle with no solution for `rate_many`, clashing clues for `canonical_many`) is
   taken out and the rest run again.
3. The answers are spread back to the input's length, a missing value at each bad
   item: None in lists, null in Arrow, NA in pandas and polars, an all-zero row in
   numpy value arrays and -1 in numpy counts (as for an unknown answer).

The reasons are kept per item, keyed by the item's label (its position, or its index
label in a pandas Series), and given to the caller in an `ItemErrorsWarning`.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Hashable
from typing import Any

from .._base.errors import ItemErrorsWarning, item_index
from .._engine.encode import as_text, encode_marks, encode_texts
from . import frames
from .inputs import as_list, values_array

__all__ = ["forgive", "screen", "sized", "warn_item_errors"]

_BLOCK = 1024  # items read in one call while screening a batch that failed
_SHOWN = 3  # reasons quoted in the warning's message


def forgive(
    call: Callable[[Any, list[int] | None], Any],
    puzzles: Any,
    on_error: str,
    what: str,
    *,
    box: object = None,
    alphabet: object = None,
    marks: bool = False,
) -> Any:
    """`call(puzzles)`, with the items it refuses answered as missing (see the module doc).

    `call(batch, rows)` runs the batch function with `on_error="raise"` on `batch`, an
    input of the same kind as `puzzles`: the whole of it (rows None) or the items at
    positions `rows`. Errors that name no item (a bad argument, a wrong array shape) and
    SearchLimitExceeded are raised as they are.
    """
    if isinstance(puzzles, (str, bytes, bytearray)) or frames.table_kind(puzzles) is not None:
        return call(puzzles, None)  # the function's own error for a wrong kind of input
    values = values_array(puzzles)
    kind = None if values is not None else frames.column_kind(puzzles)
    if values is None and kind is None:
        puzzles = sized(puzzles, what)
    try:
        return call(puzzles, None)
    except (ValueError, TypeError) as err:
        if item_index(err) is None:
            raise
    labels = _labels(puzzles, kind)
    if values is not None:
        bad = _screen_values(values, what, box, alphabet)
    else:
        items = _items(puzzles, kind)
        bad = _screen_texts(items, box, alphabet, marks)
    n = len(labels)
    good = [i for i in range(n) if i not in bad]
    while True:
        try:
            answer = call(_take(puzzles, kind, values, good), good)
            break
        except (ValueError, TypeError) as err:
            found = item_index(err)
            if found is None or not 0 <= found[0] < len(good):
                raise
            bad[good.pop(found[0])] = found[1]
    if on_error == "warn" and bad:
        positions = sorted(bad)
        errors: dict[Hashable, str] = {labels[i]: bad[i] for i in positions}
        warn_item_errors(what, errors, positions, n)
    return _spread(answer, good, n, puzzles, kind)


def warn_item_errors(
    what: str,
    errors: dict[Hashable, str],
    positions: list[int],
    n: int,
    summary: str = "puzzles answered as missing",
    stacklevel: int = 4,
) -> None:
    """Issue the ItemErrorsWarning of a batch of `n` items of which those at `positions`
    (labelled as in `errors`, with their reasons) were answered as missing."""
    shown = "; ".join(
        f"puzzle {label!r}: {reason}" for label, reason in list(errors.items())[:_SHOWN]
    )
    more = f"; and {len(positions) - _SHOWN} more" if len(positions) > _SHOWN else ""
    message = f"{what}: {len(positions)} of {n} {summary}: {shown}{more}"
    warnings.warn(ItemErrorsWarning(message, errors, positions), stacklevel=stacklevel)


def screen(
    puzzles: Any, what: str, box: object = None, alphabet: object = None
) -> tuple[list[Hashable], list[Any] | None, dict[int, str]]:
    """(labels, items, {position: reason}) of a batch input read item by item: the items
    (None for a numpy value array) and those its reader refuses, nulls included."""
    values = values_array(puzzles)
    kind = None if values is not None else frames.column_kind(puzzles)
    labels = _labels(puzzles, kind)
    if values is not None:
        return labels, None, _screen_values(values, what, box, alphabet)
    items = _items(puzzles, kind)
    return labels, items, _screen_texts(items, box, alphabet, False)


def sized(puzzles: Any, what: str) -> Any:
    """`puzzles` itself if it has a length (a list, a column, an array), else its items
    listed (an iterator can be read only once)."""
    if isinstance(puzzles, (str, bytes, bytearray)) or hasattr(puzzles, "__len__"):
        return puzzles
    return as_list(puzzles, what)


def _labels(puzzles: Any, kind: str | None) -> list[Hashable]:
    """Each item's label: its index label in a pandas Series, else its position."""
    if kind == "pandas":
        import pandas as pd

        if isinstance(puzzles, pd.Series):
            return list(puzzles.index)
    return list(range(len(puzzles)))


def _items(puzzles: Any, kind: str | None) -> list[Any]:
    """The items of a text batch as Python objects (text, or a missing value)."""
    if kind in ("arrow", "chunked", "polars"):
        rows = puzzles.to_pylist() if kind != "polars" else puzzles.to_list()
    elif kind == "numpy":
        rows = puzzles.tolist()
    else:
        rows = list(puzzles)
    return [as_text(item) for item in rows]


def _screen_texts(items: list[Any], box: object, alphabet: object, marks: bool) -> dict[int, str]:
    """{position: reason} for each item the batch's reader refuses."""

    def read(chunk: list[Any]) -> None:
        if marks:
            encode_marks(chunk, box, alphabet)
        else:
            encode_texts(chunk, box, alphabet)

    bad: dict[int, str] = {}
    anchor: list[Any] = []  # the batch's first good item: it fixes the size
    for start in range(0, len(items), _BLOCK):
        block = items[start : start + _BLOCK]
        if not any(frames.is_missing(item) for item in block):
            try:
                read(anchor + block)
                anchor = anchor or block[:1]
                continue
            except (ValueError, TypeError):
                pass
        for offset, item in enumerate(block):
            if frames.is_missing(item):
                bad[start + offset] = "missing (null)"
                continue
            try:
                read([*anchor, item])
            except (ValueError, TypeError) as err:
                found = item_index(err)
                bad[start + offset] = str(err) if found is None else found[1]
                continue
            anchor = anchor or [item]
    return bad


def _screen_values(values: Any, what: str, box: object, alphabet: object) -> dict[int, str]:
    """{row: reason} for each row of a numpy value array with a value out of range."""
    from .inputs import encode_values

    flat = values.reshape(values.shape[0], -1)
    size = values.shape[-1] if values.ndim == 3 else math.isqrt(flat.shape[1])
    rows = ((flat < 0) | (flat > size)).any(axis=1).nonzero()[0]
    bad = {}
    for row in rows.tolist():
        try:
            encode_values(values[row : row + 1], what, box, alphabet)
        except (ValueError, TypeError) as err:
            found = item_index(err)
            bad[row] = str(err) if found is None else found[1]
    return bad


def _take(puzzles: Any, kind: str | None, values: Any, good: list[int]) -> Any:
    """The items at positions `good`, in the input's own kind."""
    if values is not None:
        return values[good]
    if kind in ("arrow", "chunked"):
        import pyarrow as pa

        return puzzles.take(pa.array(good, type=pa.int64()))
    if kind == "pandas":
        return puzzles.take(good)
    if kind == "polars":
        return puzzles.gather(good)
    if kind == "numpy":
        return puzzles[good]
    return [puzzles[i] for i in good]


def _spread(answer: Any, good: list[int], n: int, puzzles: Any, kind: str | None) -> Any:
    """`answer` (one row per good item) as n rows, a missing value at every other row."""
    if isinstance(answer, list):
        full: list[Any] = [None] * n
        for row, item in zip(good, answer, strict=True):
            full[row] = item
        return full
    libraries = {cls.__module__.partition(".")[0] for cls in type(answer).__mro__}
    if "numpy" in libraries:
        return _spread_numpy(answer, good, n)
    if "pyarrow" in libraries:
        import pyarrow as pa

        where: list[int | None] = [None] * n
        for j, row in enumerate(good):
            where[row] = j
        return answer.take(pa.array(where, type=pa.int64()))
    if "pandas" in libraries:
        return _spread_pandas(answer, good, n, puzzles, kind)
    if "polars" in libraries:
        import polars as pl

        def column(series: Any) -> Any:
            return pl.Series(series.name, [None] * n, dtype=series.dtype).scatter(good, series)

        if isinstance(answer, pl.DataFrame):
            return pl.DataFrame([column(answer[name]) for name in answer.columns])
        return column(answer)
    raise TypeError(f"cannot spread an answer of type {type(answer).__name__}")  # not reached


def _spread_numpy(answer: Any, good: list[int], n: int) -> Any:
    import numpy as np

    if answer.dtype == object:
        full = np.full((n, *answer.shape[1:]), None, dtype=object)
    elif answer.ndim > 1 or answer.dtype.kind in "USb":
        full = np.zeros((n, *answer.shape[1:]), dtype=answer.dtype)
    elif answer.dtype.kind == "f":
        full = np.full(n, np.nan, dtype=answer.dtype)
    else:  # counts: -1, as for an answer the engine could not give
        full = np.full(n, -1, dtype=answer.dtype)
    full[good] = answer
    return full


def _spread_pandas(answer: Any, good: list[int], n: int, puzzles: Any, kind: str | None) -> Any:
    import pandas as pd

    def nullable(series: Any) -> Any:
        # numpy ints and bools cannot hold a missing value: their pandas nullable twins can.
        if series.dtype.kind in "iu":
            return series.astype("Int64")
        if series.dtype.kind == "b":
            return series.astype("boolean")
        return series

    if isinstance(answer, pd.DataFrame):
        moved = pd.DataFrame({name: nullable(answer[name]) for name in answer.columns})
    else:
        moved = nullable(answer)
    moved = moved.set_axis(good).reindex(range(n))
    if isinstance(moved, pd.Series) and moved.dtype == object:
        moved = moved.astype(object).where(moved.notna(), None)
    if kind == "pandas" and isinstance(puzzles, pd.Series):
        moved.index = puzzles.index
    return moved
