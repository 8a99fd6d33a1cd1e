"""Batches run block by block so that a caller sees their progress (`progress=`).

A batch function given `progress` runs its batch as consecutive blocks, each a batch
call of its own (on the package's threads, as any call), and reports `(done, total)`
between two blocks, from the caller's thread, while no worker thread runs and no lock
is held: a callback may draw, log or raise (KeyboardInterrupt, say) as it likes.
Blocks are sized to take about `BLOCK_SECONDS` each (the first is small, so the first
report comes soon), so the extra batch calls cost little; a call without `progress`
never comes here.

The answers of the blocks are joined in the output's own kind (a list, a numpy array,
an Arrow array, a pandas or polars column or frame); errors about an item are renumbered
to the item's place in the whole batch; a `SearchLimitExceeded` is raised once every
block has run, with the indices of all blocks and the whole batch's partial answers;
the `ItemErrorsWarning`s of the blocks (with on_error="warn") are joined into one.
A batch of one size stays one: a block whose first puzzle is of another size than the
batch's first gets the error the whole batch would have raised.
"""

from __future__ import annotations

import sys
import time
import warnings
from collections.abc import Callable, Hashable
from typing import Any, TextIO, TypeVar, cast

from .._base.errors import ItemErrorsWarning, SearchLimitExceeded, renumber_error
from .._engine.encode import as_text, encode_item, item_geometry
from . import frames
from .forgiving import sized, warn_item_errors
from .inputs import values_array

__all__ = ["BLOCK_SECONDS", "Pairs", "Progress", "in_blocks", "per_block", "resolve_progress"]

Progress = Callable[[int, int], object]
_Value = TypeVar("_Value")

BLOCK_SECONDS = 0.25  # a block's aim: a report about four times a second
FIRST_BLOCK = 256  # puzzles in the first block, whose time sizes the others
MIN_BLOCK = 64


def resolve_progress(progress: object, what: str) -> Progress | None:
    """The callback `progress=` asks for: None (no reports), a callable as it is, or for
    True a bar on stderr (tqdm's when it is installed, else a line of text)."""
    if progress is None or progress is False:
        return None
    if progress is True:
        return _bar(what)
    if callable(progress):
        return progress
    raise TypeError(
        f"progress must be a callable (done, total), True or None, not {type(progress).__name__}"
    )


def _bar(what: str) -> Progress:
    """A progress bar on stderr: tqdm's, or a plain line where tqdm is not installed."""
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return _TextBar(what, sys.stderr)
    bar: Any = None

    def report(done: int, total: int) -> None:
        nonlocal bar
        if bar is None:
            bar = tqdm(total=total, desc=what, unit="puzzle", unit_scale=True)
        bar.update(done - bar.n)
        if done >= total:
            bar.close()

    return report


class _TextBar:
    """`what: done/total (percent)` on a stream, redrawn in place on a terminal, else a
    line at most every few seconds and one at the end."""

    EVERY = 2.0  # seconds between two lines when the stream is not a terminal

    def __init__(self, what: str, stream: TextIO) -> None:
        self.what = what
        self.stream = stream
        self.terminal = hasattr(stream, "isatty") and stream.isatty()
        self.last = 0.0

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        end = done >= total
        if not end and not self.terminal and now - self.last < self.EVERY:
            return
        self.last = now
        percent = 100.0 * done / total if total else 100.0
        text = f"{self.what}: {done:,}/{total:,} puzzles ({percent:.0f}%)"
        if self.terminal:
            self.stream.write("\r" + text + ("\n" if end else ""))
        else:
            self.stream.write(text + "\n")
        self.stream.flush()


def per_block(value: _Value) -> Callable[[Any], _Value]:
    """A batch argument given per puzzle, cut where `in_blocks` cuts the puzzles: called
    with each block in turn, it gives that block's part of a list (the list's next
    `len(block)` items); any other value goes to every block as it is."""
    start = 0

    def part(block: Any) -> _Value:
        nonlocal start
        if not isinstance(value, list):
            return value
        count = len(block)
        piece = value[start : start + count]
        start += count
        return cast(_Value, piece)

    return part


def in_blocks(
    call: Callable[[Any], Any],
    puzzles: Any,
    progress: Progress,
    what: str,
    *,
    marks: bool = False,
    fixed_geometry: bool = False,
    summary: str = "puzzles answered as missing",
) -> Any:
    """`call(puzzles)` run block by block with `progress(done, total)` between blocks.

    `call(block)` is the batch function on a block of the input's own kind. With
    `fixed_geometry` (box or alphabet given) the blocks need no check of their size.
    `summary` words the joined ItemErrorsWarning ("k of n <summary>").
    """
    if isinstance(puzzles, (str, bytes, bytearray)) or frames.table_kind(puzzles) is not None:
        return call(puzzles)  # the function's own error for a wrong kind of input
    values = values_array(puzzles)
    kind = None if values is not None else frames.column_kind(puzzles)
    if values is None and kind is None:
        puzzles = sized(puzzles, what)
        if not isinstance(puzzles, (list, tuple, Pairs)):
            puzzles = list(puzzles)
    total = len(puzzles)
    if total == 0:
        answer = call(puzzles)
        progress(0, 0)
        return answer
    check_size = values is None and not fixed_geometry and not marks
    answers: list[Any] = []
    limit_errors: list[tuple[int, SearchLimitExceeded]] = []
    bad: dict[int, str] = {}
    labels: dict[int, Hashable] = {}
    first_geometry: Any = None
    size = FIRST_BLOCK
    done = 0
    progress(0, total)
    while done < total:
        start, end = done, min(total, done + size)
        block = _slice(puzzles, kind, values, done, end)
        if check_size and done > 0:
            first_geometry = _check_size(puzzles, kind, done, first_geometry)
            check_size = first_geometry is not None
        started = time.perf_counter()
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always", ItemErrorsWarning)
                answer = call(block)
        except SearchLimitExceeded as err:
            if err.partial is None:
                raise renumber_error(err, done) from None
            limit_errors.append((done, err))
            answer = err.partial
        except (ValueError, TypeError) as err:
            raise renumber_error(err, done) from None
        spent = time.perf_counter() - started
        _pass_on(caught, start, bad, labels, puzzles if kind == "pandas" else None)
        answers.append(answer)
        done = end
        progress(done, total)
        # The next block: about BLOCK_SECONDS at the pace of this one.
        size = max(MIN_BLOCK, int((end - start) / max(spent, 1e-6) * BLOCK_SECONDS))
    joined = _join(answers)
    if bad:
        order = sorted(bad)
        warn_item_errors(
            what, {labels[i]: bad[i] for i in order}, order, total, summary, stacklevel=4
        )
    if limit_errors:
        raise _joined_limit_error(limit_errors, joined)
    return joined


def _slice(puzzles: Any, kind: str | None, values: Any, start: int, end: int) -> Any:
    """Items start..end-1 of the batch, in the input's own kind."""
    if values is not None:
        return values[start:end]
    if kind in ("arrow", "chunked", "polars"):
        return puzzles.slice(start, end - start)
    if kind == "pandas" and hasattr(puzzles, "iloc"):
        return puzzles.iloc[start:end]
    return puzzles[start:end]


class Pairs:
    """Two batches of one length (puzzles and solutions) cut into blocks together; an
    item is the puzzle's."""

    def __init__(self, puzzles: Any, solutions: Any) -> None:
        self.puzzles = puzzles
        self.solutions = solutions

    def __len__(self) -> int:
        return len(self.puzzles)

    def __getitem__(self, where: Any) -> Any:
        if isinstance(where, slice):
            return Pairs(_cut(self.puzzles, where), _cut(self.solutions, where))
        return _item(self.puzzles, frames.column_kind(self.puzzles), where)


def _cut(batch: Any, where: slice) -> Any:
    values = values_array(batch)
    kind = None if values is not None else frames.column_kind(batch)
    return _slice(batch, kind, values, where.start, where.stop)


def _item(puzzles: Any, kind: str | None, index: int) -> Any:
    """Item `index` of a text batch as a Python object."""
    if kind in ("arrow", "chunked"):
        return puzzles[index].as_py()
    if kind == "pandas" and hasattr(puzzles, "iloc"):
        return puzzles.iloc[index]
    if kind == "numpy":
        return puzzles[index].item()
    return puzzles[index]


def _check_size(puzzles: Any, kind: str | None, start: int, first: Any) -> Any:
    """Raise the whole batch's error when the block at `start` begins with a puzzle of
    another size than the batch's first; the batch's geometry (found once)."""
    try:
        if first is None:
            first = item_geometry(_item(puzzles, kind, 0))
    except (ValueError, TypeError):
        return None  # not text: nothing to check
    item = as_text(_item(puzzles, kind, start))
    try:
        own = item_geometry(item)
    except (ValueError, TypeError):
        return first  # a malformed item: the block's own call says what is wrong
    if own != first:
        encode_item(item, start, first, True)  # raises unless it reads in the batch's geometry
    return first


def _pass_on(
    caught: list[warnings.WarningMessage],
    start: int,
    bad: dict[int, str],
    labels: dict[int, Hashable],
    series: Any,
) -> None:
    """Keep the reasons of a block's ItemErrorsWarning (at the batch's positions); warn
    again any other warning the block gave. `series`: a pandas input, whose index
    labels name its items (else their positions do)."""
    for record in caught:
        message = record.message
        if not isinstance(message, ItemErrorsWarning):
            warnings.warn_explicit(message, record.category, record.filename, record.lineno)
            continue
        for position in message.positions:
            at = start + position
            own = position if series is None else series.index[at]
            labels[at] = at if series is None else own
            bad[at] = message.errors.get(own, "")


def _join(answers: list[Any]) -> Any:
    """The answers of consecutive blocks as one answer of the same kind."""
    first = answers[0]
    if len(answers) == 1:
        return first
    if isinstance(first, list):
        return [item for answer in answers for item in answer]
    libraries = {cls.__module__.partition(".")[0] for cls in type(first).__mro__}
    if "numpy" in libraries:
        import numpy as np

        return np.concatenate(answers)
    if "pyarrow" in libraries:
        import pyarrow as pa

        if isinstance(first, pa.ChunkedArray):
            return pa.chunked_array(
                [chunk for answer in answers for chunk in answer.chunks], type=first.type
            )
        return pa.concat_arrays(answers)
    if "pandas" in libraries:
        import pandas as pd

        return pd.concat(answers)
    if "polars" in libraries:
        import polars as pl

        return pl.concat(answers)
    raise TypeError(f"cannot join answers of type {type(first).__name__}")  # not reached


def _joined_limit_error(
    errors: list[tuple[int, SearchLimitExceeded]], partial: Any
) -> SearchLimitExceeded:
    """One SearchLimitExceeded for the whole batch, from those of its blocks."""
    indices = [start + i for start, err in errors for i in err.indices]
    start, first = errors[0]
    message = str(renumber_error(first, start))
    more = len(indices) - 1
    head = f"puzzle {indices[0]}"
    if more:
        head += f" and {more} more"
    message = message.replace(message[: message.index(":")], head, 1)
    return SearchLimitExceeded(message, indices, partial)
