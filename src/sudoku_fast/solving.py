"""Solve and count: one puzzle (`solve`, `count_solutions`) or a batch on threads
(`solve_many`, `count_many`), for every grid size.

A batch is read into one contiguous buffer (`_columns.inputs`: lists, columns, numpy
arrays) and run by the engine of its geometry on threads (`_engine.run`); results come
back in input order as the caller asks (`output`; see `_columns.frames`). A list of plain
81-character strings takes the shortest path: the caller's thread reads it while the
helper threads already solve (`_engine.run.fan_out`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, overload

from ._base.checks import DEFAULT_MAX_NODES, check_flag, check_limit, node_budget
from ._base.errors import SearchLimitExceeded
from ._base.grid import parse_grid, parse_marks_grid
from ._columns import frames
from ._columns.inputs import encode_values, read_batch, read_marks, values_array
from ._engine.encode import decode_solutions
from ._engine.results import EngineResults
from ._engine.run import NotPlain, fan_out, raise_if_undecided, run_engine, solve_plain
from ._parallel.threads import resolve_threads

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["SearchLimitExceeded", "count_many", "count_solutions", "solve", "solve_many"]


def solve(
    puzzle: str,
    *,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    marks: bool = False,
) -> str | None:
    """Solve one puzzle given in any notation `parse` accepts.

    Returns the canonical solution (in the grid's symbols), or None when the puzzle has
    no solution (clashing clues included). When it has several solutions, one valid
    solution is returned; use `count_solutions` to tell the cases apart. The size is
    inferred from the number of cells unless `box=(rows, cols)` or `alphabet` fixes it.
    Grids other than 9x9 with 3x3 boxes get a budget of `max_nodes` search nodes (None = no budget);
    running out raises `SearchLimitExceeded`. `marks=True` reads the puzzle as pencil
    marks: N*N*N characters, for each cell, for each digit, the digit where it is still
    possible and `.` where it is excluded (see `parse`).
    """
    budget = node_budget(max_nodes)
    check_flag(marks, "marks")
    if box is None and alphabet is None and not marks:
        plain = solve_plain(puzzle, 1)  # None unless 81 plain characters
        if plain is not None:
            return plain[1]
    results = _run_one(puzzle, 1, box, alphabet, budget, marks)
    solution = decode_solutions(results)[0]
    raise_if_undecided(results, None, max_nodes, single=True)
    return solution


def count_solutions(
    puzzle: str,
    limit: int = 2,
    *,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    marks: bool = False,
) -> int:
    """Count the solutions of a puzzle, stopping at `limit`.

    0 means no solution, 1 a unique one; a result equal to `limit` means "at least
    `limit`". The default limit of 2 is the usual uniqueness check. `box`, `alphabet`,
    `max_nodes` and `marks` work as in `solve`.
    """
    budget = node_budget(max_nodes)
    check_limit(limit)
    check_flag(marks, "marks")
    if box is None and alphabet is None and not marks:
        plain = solve_plain(puzzle, limit)  # None unless 81 plain characters
        if plain is not None:
            return plain[0]
    results = _run_one(puzzle, limit, box, alphabet, budget, marks)
    raise_if_undecided(results, -1, max_nodes, single=True)
    return results.counts[0]


def _run_one(
    puzzle: str, limit: int, box: Any, alphabet: Any, budget: int, marks: bool
) -> EngineResults:
    """Parse one puzzle (clues, or pencil marks) and run the engine of its geometry."""
    if marks:
        geometry, masks = parse_marks_grid(puzzle, box=box, alphabet=alphabet)
        grid = bytes(geometry.cells)
        return run_engine(grid, 1, limit, 1, geometry=geometry, max_nodes=budget, masks=masks)
    geometry, values = parse_grid(puzzle, box=box, alphabet=alphabet)
    return run_engine(values, 1, limit, 1, geometry=geometry, max_nodes=budget)


# Tells whether the GIL is on; None on builds that always have one.
_gil_enabled: Callable[[], bool] | None = getattr(sys, "_is_gil_enabled", None)


def _list_source(puzzles: Any, box: object, alphabet: object) -> list[Any] | None:
    """`puzzles` itself when it may be read by the engine as it is (see run_engine's source).

    That is a non-empty list with no `box` / `alphabet`: if every item is a plain
    81-character string of digits and '.', the batch is 9x9 with the classic symbols
    and needs no parsing. Anything else (None) goes through `encode_input`, as does such
    a list when it holds another item (the engine raises NotPlain).
    """
    if type(puzzles) is not list or not puzzles or box is not None or alphabet is not None:
        return None
    if _gil_enabled is not None and not _gil_enabled():
        # The engine reads the list while holding the GIL, so no other thread can change
        # it under the reader; without a GIL it reads a copy only this call can see.
        return list(puzzles)
    return puzzles


@overload
def solve_many(
    puzzles: npt.NDArray[Any],
    *,
    threads: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    output: None = None,
    marks: bool = False,
) -> np.ndarray[Any, Any]: ...


@overload
def solve_many(
    puzzles: Iterable[str],
    *,
    threads: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    output: None = None,
    marks: bool = False,
) -> list[str | None]: ...


@overload
def solve_many(
    puzzles: Any,
    *,
    threads: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    output: str,
    marks: bool = False,
) -> Any: ...


def solve_many(
    puzzles: Any,
    *,
    threads: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    output: str | None = None,
    marks: bool = False,
) -> Any:
    """Solve a batch of puzzles on several threads; results are in input order.

    `puzzles` is an iterable of strings in any notation `parse` accepts, or a numpy
    integer array of shape (n, N*N) or (n, N, N) with 0 for empty cells. For strings the
    result is a list holding the canonical solution, or None where there is none. For an
    array the result is a uint8 array of the same shape; a row with no solution is all
    zeros (with `output` "list" or "arrow": the solutions as strings, as for strings).
    For puzzles with several solutions one valid solution is returned.

    A batch holds puzzles of one size: the size comes from `box` / `alphabet` when
    given (as in `parse`), else from the first puzzle. `threads`: None = all usable
    cores, 1 = serial in the caller, -k = all cores + 1 - k. A malformed item (or one of
    another size) raises ValueError (TypeError for a non-str) naming its index, and
    nothing is returned. (A list of plain 81-character strings is read while its first
    puzzles are being solved, so solving may have begun when a bad item far into it is
    found; the list is then parsed in full, as any other input, and the error raised.)
    Grids other than 9x9 with 3x3 boxes get a budget of `max_nodes` search nodes per
    puzzle (None = no budget); running out raises `SearchLimitExceeded`.

    Columns are taken too: a pandas or polars Series, a pyarrow Array / ChunkedArray of
    strings, a 1-D numpy array of str or bytes (bytes items anywhere). `output` picks
    the result's form: None as above, "list", "arrow" (a pyarrow string array, null
    where there is no solution) or "like" (a column of the input's kind); see `_columns/frames.py`.
    `marks=True` reads every puzzle as pencil marks (strings only; see `parse`).
    """
    budget = node_budget(max_nodes)
    source = None if check_flag(marks, "marks") else _list_source(puzzles, box, alphabet)
    if source is not None and output is None:
        # The common case first, in as few steps as can be (see fan_out).
        try:
            return fan_out(None, source, len(source), 1, resolve_threads(threads), True).finish()
        except NotPlain:
            source = None  # some item needs the parser (or is malformed): the general path
    frames.check_output(output)
    if marks:
        geometry, grids, masks, n, column = read_marks(puzzles, "solve_many", box, alphabet)
        results = run_engine(grids, n, 1, threads, geometry=geometry, max_nodes=budget, masks=masks)
        solutions = frames.solutions_out(results, column, output)
        raise_if_undecided(results, solutions, max_nodes)
        return solutions
    arr = values_array(puzzles)
    if arr is not None:
        import numpy as np

        grids, n, geometry = encode_values(arr, "solve_many", box, alphabet)
        results = run_engine(grids, n, 1, threads, geometry=geometry, max_nodes=budget)
        if output in (None, "like"):
            out = np.frombuffer(results.solutions, dtype=np.uint8).reshape(arr.shape)
        else:  # values in, text out: the answers as strings (None where there is none)
            out = frames.solutions_out(results, None, output)
        raise_if_undecided(results, out, max_nodes)
        return out
    if source is not None:
        try:
            decode = frames.needs_texts(None, output)
            results = run_engine(None, len(source), 1, threads, decode=decode, source=source)
            return frames.solutions_out(results, None, output)
        except NotPlain:
            pass  # some item needs the parser (or is malformed): the general path
    geometry, grids, n, column = read_batch(puzzles, "solve_many", box, alphabet, threads=threads)
    decode = frames.needs_texts(column, output)
    results = run_engine(grids, n, 1, threads, geometry=geometry, max_nodes=budget, decode=decode)
    solutions = frames.solutions_out(results, column, output)
    raise_if_undecided(results, solutions, max_nodes)
    return solutions


@overload
def count_many(
    puzzles: Any,
    limit: int = 2,
    *,
    threads: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    output: None = None,
    marks: bool = False,
) -> list[int]: ...


@overload
def count_many(
    puzzles: Any,
    limit: int = 2,
    *,
    threads: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    output: str,
    marks: bool = False,
) -> Any: ...


def count_many(
    puzzles: Any,
    limit: int = 2,
    *,
    threads: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    output: str | None = None,
    marks: bool = False,
) -> Any:
    """Count the solutions of each puzzle, up to `limit`, on several threads.

    With the default limit of 2 this is a uniqueness check: 0 = no solution, 1 = unique,
    2 = several. Accepts the same inputs and keywords as `solve_many`; returns a list of
    ints in input order (or, with `output`, a column of counts: int32 for Arrow and
    numpy, int64 for pandas and polars as from Python ints; see `solve_many`).
    """
    budget = node_budget(max_nodes)
    frames.check_output(output)
    column = None
    masks = None
    arr = None if check_flag(marks, "marks") else values_array(puzzles)
    source = None if marks else _list_source(puzzles, box, alphabet)
    if source is not None:
        try:
            check_limit(limit)
            run = fan_out(None, source, len(source), limit, resolve_threads(threads), False)
            return frames.counts_out(run.counts, None, output)
        except NotPlain:
            pass  # some item needs the parser (or is malformed): the general path
    if marks:
        geometry, grids, masks, n, column = read_marks(puzzles, "count_many", box, alphabet)
    elif arr is not None:
        grids, n, geometry = encode_values(arr, "count_many", box, alphabet)
    else:
        geometry, grids, n, column = read_batch(
            puzzles, "count_many", box, alphabet, threads=threads
        )
    results = run_engine(grids, n, limit, threads, geometry=geometry, max_nodes=budget, masks=masks)
    if arr is not None and output == "like":  # numpy in, numpy out, as in solve_many
        import numpy as np

        counts = np.frombuffer(results.counts, dtype=np.int32)
    else:
        counts = frames.counts_out(results.counts, column, output)
    raise_if_undecided(results, counts, max_nodes)
    return counts
