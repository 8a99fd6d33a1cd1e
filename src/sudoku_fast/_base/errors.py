"""The library's own exceptions, and the renumbering of an error raised for part of a batch."""

from __future__ import annotations

import re
from typing import Any

__all__ = ["SearchLimitExceeded", "renumber_error"]


class SearchLimitExceeded(RuntimeError):
    """Some puzzles needed more search nodes than `max_nodes` allowed; their answer is unknown.

    `indices` lists their positions in the batch (0 for a single puzzle); `partial` is
    what the call would have returned, with None (or -1 for counts, an all-zero row for
    arrays) at those positions. Raise `max_nodes`, or pass None for no budget.
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


_ITEM = re.compile(r"\bpuzzle (\d+)")


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
