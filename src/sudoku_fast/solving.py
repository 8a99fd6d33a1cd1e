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
from typing import TYPE_CHECKING, Any, cast, overload

from ._base.checks import DEFAULT_MAX_NODES, check_flag, check_limit, node_budget
from ._base.columns import ItemErrors, check_item_errors
from ._base.errors import ItemErrorsWarning, SearchLimitExceeded, item_index
from ._base.grid import geometry_for, parse_grid, parse_marks_grid
from ._columns import frames
from ._columns.check import check_pairs
from ._columns.forgiving import forgive, screen, sized
from ._columns.inputs import encode_values, read_batch, read_marks, values_array
from ._engine.encode import decode_solutions
from ._engine.results import EngineResults
from ._engine.run import NotPlain, fan_out, raise_if_undecided, run_engine, solve_plain
from ._parallel.threads import resolve_threads

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "ItemErrorsWarning",
    "SearchLimitExceeded",
    "check_many",
    "count_many",
    "count_solutions",
    "solve",
    "solve_many",
]


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
    on_error: ItemErrors = "raise",
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
    on_error: ItemErrors = "raise",
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
    on_error: ItemErrors = "raise",
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
    on_error: ItemErrors = "raise",
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

    `on_error` says what a malformed or null item does: "raise" (the default) raises as
    above; "none" answers it as missing (None; an all-zero row in an array) and runs the
    others as if it were not there; "warn" does the same and issues an
    `ItemErrorsWarning` whose `errors` maps each such item's label (index label for a
    pandas Series, else position) to the reason.

    Examples
    --------
    >>> solve_many(["1" * 81, None], on_error="none")
    [None, None]
    """
    if check_item_errors(on_error) != "raise":
        return forgive(
            lambda batch, _rows: cast(Any, solve_many)(
                batch, threads=threads, box=box, alphabet=alphabet, max_nodes=max_nodes,
                output=output, marks=marks,
            ),
            puzzles, on_error, "solve_many", box=box, alphabet=alphabet, marks=marks,
        )  # fmt: skip
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
    on_error: ItemErrors = "raise",
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
    on_error: ItemErrors = "raise",
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
    on_error: ItemErrors = "raise",
) -> Any:
    """Count the solutions of each puzzle, up to `limit`, on several threads.

    With the default limit of 2 this is a uniqueness check: 0 = no solution, 1 = unique,
    2 = several. Accepts the same inputs and keywords as `solve_many`; returns a list of
    ints in input order (or, with `output`, a column of counts: int32 for Arrow and
    numpy, int64 for pandas and polars as from Python ints; see `solve_many`).
    With `on_error` "none" or "warn" (see `solve_many`) a bad item's count is missing:
    None in a list, -1 in a numpy array, null in Arrow, NA in pandas and polars.
    """
    if check_item_errors(on_error) != "raise":
        return forgive(
            lambda batch, _rows: cast(Any, count_many)(
                batch, limit, threads=threads, box=box, alphabet=alphabet,
                max_nodes=max_nodes, output=output, marks=marks,
            ),
            puzzles, on_error, "count_many", box=box, alphabet=alphabet, marks=marks,
        )  # fmt: skip
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


def check_many(
    puzzles: Any,
    solutions: Any,
    *,
    threads: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    on_error: ItemErrors = "raise",
) -> np.ndarray[Any, Any]:
    """Check a batch of (puzzle, solution) pairs by the rules; a numpy bool array.

    Item i is True when `solutions[i]` is a complete grid with each value once in every
    row, column and box that keeps every clue of `puzzles[i]` (`is_solution` for a
    batch). The check is compiled, runs on `threads` with the GIL released, and shares
    no code with the engines, so it is an independent check of their answers.

    Parameters
    ----------
    puzzles, solutions
        Batches of one length, each in any form `solve_many` takes (strings, a pandas,
        polars or Arrow column, a numpy text array, a numpy value array). The size comes
        from `box` / `alphabet` or the first puzzle; solutions are read in the puzzles'
        geometry.
    threads
        As in `solve_many`.
    on_error
        "raise": a malformed or null puzzle or solution raises ValueError (TypeError for
        a non-str) naming "puzzle k" or "solution k". "none": such a pair is False.
        "warn": False too, with an `ItemErrorsWarning` giving the reasons.

    Returns
    -------
    numpy.ndarray
        One bool per pair, in input order.

    Raises
    ------
    ValueError
        Batches of different lengths, or a malformed item (with on_error="raise").

    Examples
    --------
    >>> p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    >>> check_many([p, p], [solve(p), "1" * 81]).tolist()
    [True, False]
    """
    mode = check_item_errors(on_error)
    puzzles = sized(puzzles, "check_many")
    solutions = sized(solutions, "check_many")
    if len(puzzles) != len(solutions):
        raise ValueError(
            f"check_many: {len(puzzles):,} puzzles but {len(solutions):,} solutions "
            "(one solution per puzzle)"
        )
    try:
        checked: np.ndarray[Any, Any] = _check_batch(puzzles, solutions, threads, box, alphabet)
        return checked
    except (ValueError, TypeError) as err:
        if mode == "raise" or item_index(err) is None:
            raise
    forgiven: np.ndarray[Any, Any] = _check_forgiving(
        puzzles, solutions, threads, box, alphabet, mode
    )
    return forgiven


def _check_batch(puzzles: Any, solutions: Any, threads: int | None, box: Any, alphabet: Any) -> Any:
    """check_many on a batch whose every item reads: errors name the bad one."""
    geometry, grids, n = _grids(puzzles, box, alphabet, threads)
    given = (geometry.box_rows, geometry.box_cols)
    try:
        _same, answers, _m = _grids(solutions, given, geometry.symbols, threads)
    except (ValueError, TypeError) as err:
        message = str(err).replace("puzzle ", "solution ", 1)
        raise type(err)(message) from None
    return check_pairs(geometry, grids, answers, n, threads)


def _grids(puzzles: Any, box: Any, alphabet: Any, threads: int | None) -> tuple[Any, Any, int]:
    """(geometry, encoded grids, n) of a batch in any input form."""
    arr = values_array(puzzles)
    if arr is not None:
        grids, n, geometry = encode_values(arr, "check_many", box, alphabet)
        return geometry, grids, n
    geometry, grids, n, _column = read_batch(puzzles, "check_many", box, alphabet, threads=threads)
    return geometry, grids, n


def _check_forgiving(
    puzzles: Any, solutions: Any, threads: int | None, box: Any, alphabet: Any, mode: str
) -> Any:
    """check_many with the pairs that do not read answered False (see `on_error`)."""
    labels, items, bad = screen(puzzles, "check_many", box, alphabet)
    good = [i for i in range(len(labels)) if i not in bad]
    if not good:
        geometry = geometry_for(None, box, alphabet) if box or alphabet else None
    else:
        first = puzzles[good[0]] if items is None else items[good[0]]
        geometry = _grids(first[None] if items is None else [first], box, alphabet, 1)[0]
    if geometry is not None:
        given = (geometry.box_rows, geometry.box_cols)
        _, answers, wrong = screen(solutions, "check_many", given, geometry.symbols)
        for i, reason in wrong.items():
            bad.setdefault(i, f"solution: {reason}")
    import numpy as np

    out = np.zeros(len(labels), dtype=np.bool_)
    rows = [i for i in range(len(labels)) if i not in bad]
    if rows and geometry is not None:
        left = puzzles[rows] if items is None else [items[i] for i in rows]
        right = solutions[rows] if answers is None else [answers[i] for i in rows]
        out[rows] = _check_batch(left, right, threads, box, alphabet)
    if mode == "warn" and bad:
        import warnings

        positions = sorted(bad)
        errors = {labels[i]: bad[i] for i in positions}
        message = f"check_many: {len(bad)} of {len(labels)} pairs did not read and are False"
        warnings.warn(ItemErrorsWarning(message, errors, positions), stacklevel=3)
    return out
