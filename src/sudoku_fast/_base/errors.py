"""The library's own exceptions, and the renumbering of an error raised for part of a batch."""

from __future__ import annotations

import re
from collections.abc import Hashable
from typing import Any

__all__ = ["ItemErrorsWarning", "SearchLimitExceeded", "item_index", "renumber_error"]


class SearchLimitExceeded(RuntimeError):
    """Some puzzles needed more search nodes than `max_nodes` allowed; their answer is unknown.

    `indices` lists their positions in the batch (0 for a single puzzle); `partial` is
    what the call would have returned, with None (or -1 for counts, an all-zero row for
    arrays) at those positions. Raise `max_nodes`, or pass None for no budget. Only
    grids other than 9x9 with 3x3 boxes have a budget; the exception pickles with its
    attributes, so it crosses process pools and Dask workers.

    Parameters
    ----------
    message : str
        What ran out, in words.
    indices : list of int
        The positions of the undecided puzzles.
    partial : object
        The call's result with the undecided positions left empty.

    Attributes
    ----------
    indices : list of int
        As given.
    partial : object
        As given.

    Examples
    --------
    >>> import sudoku_fast as sf
    >>> try:
    ...     sf.count_many(["." * 256], max_nodes=1)  # an empty 16x16 grid, one node
    ... except sf.SearchLimitExceeded as err:
    ...     print(err.indices, err.partial)
    [0] [-1]
    """

    def __init__(self, message: str, indices: list[int], partial: Any) -> None:
        super().__init__(message)
        self.indices = indices
        self.partial = partial

    def __reduce__(self) -> tuple[Any, ...]:
        # Exceptions pickle as (class, args), and args holds only the message: without
        # this a process pool could not send one back from a worker. The third item,
        # the instance's attributes, keeps notes (add_note) and anything set later.
        return (type(self), (str(self), self.indices, self.partial), self.__dict__)


class ItemErrorsWarning(UserWarning):
    """Some items of a batch were answered as missing (`on_error="warn"`), and why.

    Parameters
    ----------
    message : str
        The warning's text: how many items, and the first reasons.
    errors : dict
        Each such item's label (its position, or its index label for a pandas Series)
        mapped to the reason, in the library's words.
    positions : list of int
        Their positions in the batch, in order.

    Examples
    --------
    >>> import warnings
    >>> import sudoku_fast as sf
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     sf.count_many(["." * 80 + "1", "bad"], on_error="warn")
    [2, None]
    >>> caught[0].message.positions
    [1]
    """

    def __init__(self, message: str, errors: dict[Hashable, str], positions: list[int]) -> None:
        super().__init__(message)
        self.errors = errors
        self.positions = positions

    def __reduce__(self) -> tuple[Any, ...]:
        # As for SearchLimitExceeded: args alone would lose the errors in a process pool.
        return (type(self), (str(self), self.errors, self.positions), self.__dict__)


_ITEM = re.compile(r"\bpuzzle (\d+)")
_ITEM_PREFIX = re.compile(r"^(?:[\w.]+: )?puzzle (\d+): ")


def item_index(err: BaseException) -> tuple[int, str] | None:
    """(k, reason) when `err` is a ValueError or TypeError about item k of a batch
    ("puzzle k: reason", possibly after the function's name); None for any other error
    (a bad argument, say)."""
    if not isinstance(err, (ValueError, TypeError)):
        return None
    found = _ITEM_PREFIX.match(str(err))
    if found is None:
        return None
    return int(found[1]), str(err)[found.end() :]


def renumber_error(err: Exception, first: int, where: str = "") -> Exception:
    """`err`, raised for a batch that starts at item `first` of a larger whole, renumbered.

    A ValueError, TypeError or SearchLimitExceeded naming "puzzle k" comes back as the
    same kind of error naming "puzzle first + k", with `where` (say "partition 3: ") in
    front; a SearchLimitExceeded's `indices` are shifted too (its `partial` stays the
    batch's). Any other error comes back unchanged.
    """
    if not isinstance(err, (ValueError, TypeError, SearchLimitExceeded)):
        return err
    message = _ITEM.sub(lambda m: f"puzzle {first + int(m[1])}", str(err), count=1)
    message = where + message
    if isinstance(err, SearchLimitExceeded):
        return SearchLimitExceeded(message, [first + i for i in err.indices], err.partial)
    try:
        return type(err)(message)
    except TypeError:  # a subclass with another constructor
        return err
