"""The 9x9 engine in plain Python: the slow, obviously correct twin of `_core.pyx`.

The search is the general engine's twin (`_general_py.py`, Norvig-style propagation and
MinRV search) on 9x9 grids; the text helpers (`encode_strings`, `decode_solutions`,
`decode_range`, `solve_plain`, `solve_list`) are written out plainly. The same functions with the
same arguments and results as the compiled module. `BatchRun` is here too, without
the machinery that only makes the compiled batch fast (chunks claimed by atomics, the
caller's thread reading the list while helpers solve, arenas): its lead solves the
whole batch and its helpers have nothing to do.
"""

from __future__ import annotations

from array import array
from typing import Any

from .._base.grid import CLASSIC, format_values
from ._general_py import BUDGET_EXHAUSTED, solve_values, tables_for
from ._general_py import solve_range as _solve_range

__all__ = [
    "STOPPED",
    "THREAD_CPU_CLOCK",
    "BatchRun",
    "decode_range",
    "decode_solutions",
    "encode_strings",
    "new_array",
    "new_buffer",
    "solve_list",
    "solve_plain",
    "solve_range",
]

STOPPED = -2  # another thread raised the stop flag
THREAD_CPU_CLOCK = True
CELLS = 81
_TABLES = tables_for(9, 3, 3)


def solve_range(
    grids: Any,
    solutions: Any,
    counts: Any,
    guesses: Any,
    nodes: Any,
    nanos: Any,
    start: int,
    stop: int,
    limit: int,
    stop_flag: Any = None,
    cpu_clock: bool = False,
) -> None:
    """Solve 9x9 puzzles start..stop-1 of a flat buffer of 81-byte grids (no budget)."""
    _solve_range(
        _TABLES, grids, solutions, counts, guesses, nodes, nanos, start, stop, limit,
        stop_flag=stop_flag, cpu_clock=cpu_clock,
    )  # fmt: skip


def new_buffer(size: int) -> bytearray:
    """A buffer of `size` bytes."""
    return bytearray(size)


def new_array(typecode: str, n: int) -> array[int]:
    """An array.array of n items of `typecode` (zeros: Python gives no uninitialised one)."""
    if n < 0:
        raise ValueError("n must not be negative")
    return array(typecode, bytes(array(typecode).itemsize * n))


def shared_view(buffer: Any) -> Any:
    """`buffer` itself: Python code shares objects between threads safely as they are."""
    return buffer


def encode_strings(items: list[Any], out: Any) -> list[int]:
    """Plain 81-character puzzles ('.' or '0' for empty, '1'-'9') into `out`, 81 bytes each;
    returns the indices of the other items, left to the parser."""
    slow = []
    for i, item in enumerate(items):
        if not isinstance(item, str) or len(item) != CELLS or not _plain(item):
            slow.append(i)
            continue
        out[i * CELLS : (i + 1) * CELLS] = bytes(0 if ch == "." else int(ch) for ch in item)
    return slow


def _plain(text: str) -> bool:
    return all(ch == "." or "0" <= ch <= "9" for ch in text)


def decode_solutions(solutions: Any, counts: Any) -> list[str | None]:
    """The solution strings (None where there is none), in input order."""
    texts: list[str | None] = [None] * len(counts)
    decode_range(solutions, counts, texts, 0, len(counts))
    return texts


def decode_range(solutions: Any, counts: Any, out: list[Any], start: int, stop: int) -> None:
    """out[i] = the solution string of puzzle i (None without one), for i in start..stop-1."""
    view = memoryview(solutions).cast("B")
    for i in range(start, stop):
        grid = view[i * CELLS : (i + 1) * CELLS]
        out[i] = format_values(bytes(grid), CLASSIC) if counts[i] > 0 else None


def solve_plain(text: object, limit: int) -> tuple[int, str | None] | None:
    """(count up to `limit`, the first solution or None) of one plain 81-character puzzle;
    None for any other text."""
    if not isinstance(text, str) or len(text) != CELLS or not _plain(text):
        return None
    values = array("B", (0 if ch == "." else int(ch) for ch in text))
    count, solution, _, _ = solve_values(values, CLASSIC, limit)
    assert count != BUDGET_EXHAUSTED  # no budget was given
    return count, None if solution is None else format_values(solution, CLASSIC)


def solve_list(source: list[Any], limit: int, texts: bool) -> list[Any] | None:
    """The solution strings (None where there is none) of a list of plain 81-character
    puzzles when `texts`, else their counts up to `limit`; None when an item is not such
    a puzzle."""
    if limit < 1:
        raise ValueError("limit must be at least 1")
    answers = []
    for item in source:
        answer = solve_plain(item, limit)
        if answer is None:
            return None
        answers.append(answer)
    return [solution for _, solution in answers] if texts else [count for count, _ in answers]


class BatchRun:
    """A batch of n 9x9 puzzles, solved by `lead()` (see `_core.BatchRun`)."""

    def __init__(
        self,
        grids: Any,
        source: list[Any] | None,
        n: int,
        chunk: int,
        limit: int,
        helpers: int,
        texts: bool,
        stop_flag: Any = None,
    ) -> None:
        if limit < 1:
            raise ValueError("limit must be at least 1")
        self.n, self.limit, self.texts = n, limit, texts
        self.helpers = helpers
        self.grids = grids
        self.source = source
        self.stop_flag = bytearray(1) if stop_flag is None else stop_flag
        self.solutions = bytearray(n * CELLS)
        self.counts = array("i", bytes(4 * n))
        self.guesses = array("q", bytes(8 * n))
        self.nodes = array("q", bytes(8 * n))
        self.failed = False

    @property
    def threads(self) -> int:
        """The threads the batch was made for: its helpers and the lead."""
        return self.helpers + 1

    def stop(self) -> None:
        """Set the stop flag: the puzzles not solved yet are abandoned."""
        self.stop_flag[0] = 1

    def helper(self) -> None:
        """A helper's share: nothing, the lead solves the batch."""

    def lead(self) -> None:
        """Encode the list source (if any) and solve every puzzle."""
        grids = self.grids
        if self.source is not None:
            grids = bytearray(self.n * CELLS)
            if encode_strings(self.source[: self.n], grids):
                self.failed = True
                return
        solve_range(
            grids, self.solutions, self.counts, self.guesses, self.nodes, None,
            0, self.n, self.limit, self.stop_flag,
        )  # fmt: skip

    def finish(self) -> list[str | None]:
        """The solution strings (None where there is no solution)."""
        return decode_solutions(self.solutions, self.counts)
