"""Checking a column of answers independently of the engine (`solve_parquet`'s `verify`).

For each row: a solution found must keep the puzzle's clues (and pencil marks) and hold
every value once in each row, column and box; when the input gives a solution too, the
two must agree (a valid given solution and no solution found is wrong; a valid given
solution that differs from the one found means the puzzle has several). With counts
instead of solutions, a row with a valid given solution must count at least one.

`check_columns` does it on whole columns with numpy; `check_rows`, its slow and plainly
correct twin, one row at a time with `grid.is_solution`, and also for pencil marks.
Rows named in `bad` (malformed puzzles, and those left undecided by the search's
budget) are skipped. Both return {row: reason}.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .._base.grid import Geometry, geometry_for, is_solution, parse
from .._base.optional import optional
from .._engine.textio import check_range
from .._parallel.fanout import run_chunks
from .._parallel.threads import resolve_threads
from . import frames

_CHECK_CHUNK = 4096  # pairs per chunk: a pair takes well under a microsecond


def check_pairs(
    geometry: Geometry, puzzles: Any, solutions: Any, n: int, threads: int | None
) -> Any:
    """A numpy bool array: pair i's solution keeps puzzle i's clues and is valid by the rules.

    `puzzles` and `solutions` are n encoded grids each; the compiled check runs chunk by
    chunk on the batch's threads with the GIL released, independent of the engines.
    """
    (np,) = optional("numpy", needed_for="check_many", extra="numpy")
    out = np.zeros(n, dtype=np.uint8)
    size, rows, cols = geometry.size, geometry.box_rows, geometry.box_cols
    left, right = memoryview(puzzles).cast("B"), memoryview(solutions).cast("B")

    def work(start: int, stop: int) -> None:
        check_range(left, right, size, rows, cols, out, start, stop)

    run_chunks(n, resolve_threads(threads), _CHECK_CHUNK, work)
    return out.view(np.bool_)


def check_rows(
    puzzles: list[Any],
    answers: list[Any],
    solutions: list[Any] | None,
    bad: dict[int, str],
    count: bool,
    marks: bool,
    box: tuple[int, int] | None,
    alphabet: str | None,
    solves: Callable[[int, str, str], bool] | None = None,
) -> dict[int, str]:
    """The rows whose answer fails the check, and why, one row at a time (see the module).

    Independent of the engine: a solution is checked by `is_solution` (and, for pencil
    marks, digit by digit against the marks), a given one is read by `parse`. `solves`,
    when given, replaces that check of a grid (`solves(row, grid, puzzle)`): variant
    rules' own.
    """
    wrong: dict[int, str] = {}
    for i, puzzle in enumerate(puzzles):
        if i in bad:
            continue
        clues, allowed = _clues_and_marks(puzzle, marks, box, alphabet)

        def valid(
            grid: str, row: int = i, clues: str = clues, allowed: str | None = allowed
        ) -> bool:
            if solves is not None:
                return solves(row, grid, clues)
            return _solves(grid, clues, allowed, box, alphabet)

        given = solutions[i] if solutions is not None else None
        given_valid = given is not None and valid(given)
        answer = answers[i]
        if count:
            if given_valid and not answer:
                wrong[i] = "wrong: no solution counted, but the given solution is valid"
            continue
        if answer is not None and not valid(answer):
            wrong[i] = "wrong: the solution found breaks the rules"
        elif answer is None and given_valid:
            wrong[i] = "wrong: no solution found, but the given solution is valid"
        elif given is not None and answer is not None and not given_valid:
            wrong[i] = "mismatch: the given solution is not a solution of the puzzle"
        elif given is not None and answer is None:
            wrong[i] = "mismatch: no solution found, and the given solution is not valid either"
        elif (
            given is not None and given_valid and parse(given, box=box, alphabet=alphabet) != answer
        ):
            wrong[i] = "mismatch: several solutions; the given one differs from the one found"
    return wrong


def check_columns(
    puzzles: Any,
    answers: Any,
    given: Any,
    bad: dict[int, str],
    count: bool,
    box: tuple[int, int] | None,
    alphabet: str | None,
) -> dict[int, str] | None:
    """`check_rows` (its twin, for clue puzzles) on whole columns with numpy.

    The puzzles, the answers and the given solutions are read by `frames` into values;
    a grid is valid when every unit's values, as bits, make all N and it keeps the
    puzzle's clues. Returns None when a column cannot be read that way (a malformed
    given solution): the caller then checks row by row.
    """
    import numpy as np
    import pyarrow as pa

    n = len(puzzles)
    if n == len(bad):
        return {}
    if box is None:  # the shape from the alphabet (the caller pins it otherwise)
        try:
            shape = geometry_for(None, None, alphabet) if alphabet is not None else None
        except ValueError:
            shape = None
        if shape is None:
            return None  # no geometry to read the columns with: the caller goes row by row
        box = (shape.box_rows, shape.box_cols)
    keep = np.ones(n, dtype=bool)
    keep[list(bad)] = False
    try:
        clues, geometry = _values(puzzles, keep, box, alphabet)
        has_answer = keep.copy() if count else keep & ~np.asarray(answers.is_null())
        if count:
            found = np.asarray(answers.fill_null(0)) > 0
        else:
            solved, _ = _values(answers, has_answer, box, alphabet)
        has_given = np.zeros(n, dtype=bool)
        if given is not None:
            if isinstance(given, pa.ChunkedArray):
                given = given.combine_chunks()
            has_given = keep & ~np.asarray(given.is_null())
            expected, _ = _values(given, has_given, box, alphabet)
    except (ValueError, TypeError):
        return None
    given_valid = (
        has_given & _solved_grids(expected, clues, geometry) if given is not None else has_given
    )
    wrong: dict[int, str] = {}

    def say(rows: Any, reason: str) -> None:
        for i in np.flatnonzero(rows).tolist():
            wrong.setdefault(i, reason)

    if count:
        say(given_valid & ~found, "wrong: no solution counted, but the given solution is valid")
        return wrong
    answer_valid = _solved_grids(solved, clues, geometry)
    say(has_answer & ~answer_valid, "wrong: the solution found breaks the rules")
    say(
        keep & ~has_answer & given_valid,
        "wrong: no solution found, but the given solution is valid",
    )
    say(
        has_given & has_answer & ~given_valid,
        "mismatch: the given solution is not a solution of the puzzle",
    )
    say(
        has_given & ~has_answer,
        "mismatch: no solution found, and the given solution is not valid either",
    )
    if given is not None:
        differ = (solved != expected).any(axis=1)
        say(
            given_valid & has_answer & differ,
            "mismatch: several solutions; the given one differs from the one found",
        )
    return wrong


def _values(texts: Any, rows: Any, box: tuple[int, int], alphabet: str | None) -> tuple[Any, Any]:
    """The values (n x N*N uint8, 0 = empty) of a string column, rows not in `rows` empty."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    if isinstance(texts, pa.ChunkedArray):
        texts = texts.combine_chunks()
    geometry = geometry_for(None, box, alphabet)
    empty = pa.scalar("." * geometry.cells)
    column = frames.read_column(
        pc.if_else(pa.array(rows), texts.fill_null(""), empty), "verify", box, alphabet
    )
    assert column is not None
    return np.asarray(column.grids).reshape(len(texts), geometry.cells), geometry


def _solved_grids(values: Any, clues: Any, geometry: Geometry) -> Any:
    """For each row: a complete grid, every unit holding each value once, the clues kept."""
    import numpy as np

    size, rows, cols = geometry.size, geometry.box_rows, geometry.box_cols
    kind = np.uint16 if size <= 16 else np.uint32 if size <= 32 else np.uint64
    bit = np.array([0] + [1 << (v - 1) for v in range(1, size + 1)], dtype=kind)
    every = bit[1:].sum(dtype=kind)  # one bit per value
    n = len(values)
    bits = bit[values].reshape(n, size, size)
    valid = (values > 0).all(axis=1) & ((clues == 0) | (clues == values)).all(axis=1)
    valid &= (np.bitwise_or.reduce(bits, axis=2) == every).all(axis=1)  # rows
    valid &= (np.bitwise_or.reduce(bits, axis=1) == every).all(axis=1)  # columns
    boxes = bits.reshape(n, size // rows, rows, size // cols, cols)
    valid &= (np.bitwise_or.reduce(boxes, axis=(2, 4)) == every).all(axis=(1, 2))
    return valid


def _clues_and_marks(
    puzzle: str, marks: bool, box: tuple[int, int] | None, alphabet: str | None
) -> tuple[str, str | None]:
    """A puzzle's clues, and for pencil marks their canonical N*N*N text too."""
    if not marks:
        return puzzle, None
    canonical = parse(puzzle, box=box, alphabet=alphabet, marks=True)
    size = round(len(canonical) ** (1 / 3))
    return "." * (size * size), canonical


def _solves(
    candidate: str,
    clues: str,
    allowed: str | None,
    box: tuple[int, int] | None,
    alphabet: str | None,
) -> bool:
    """Whether `candidate` solves the clues and keeps to the pencil marks `allowed`."""
    try:
        if not is_solution(candidate, clues, box=box, alphabet=alphabet):
            return False
        if allowed is None:
            return True
        grid = parse(candidate, box=box, alphabet=alphabet)
    except ValueError:
        return False
    size = len(allowed) // len(grid)
    return all(
        allowed[cell * size : (cell + 1) * size].count(symbol) == 1
        for cell, symbol in enumerate(grid)
    )
