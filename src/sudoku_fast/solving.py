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
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, TypeAlias, cast, overload

from ._base.checks import DEFAULT_MAX_NODES, check_flag, check_limit, node_budget
from ._base.columns import ItemErrors, check_item_errors
from ._base.errors import ItemErrorsWarning, SearchLimitExceeded, item_index
from ._base.grid import geometry_for, parse_grid, parse_marks_grid
from ._base.options import Output, ProgressOption
from ._base.rules import Rules, as_rules
from ._columns import frames
from ._columns.blocks import Pairs, in_blocks, per_block, resolve_progress
from ._columns.check import check_pairs
from ._columns.forgiving import forgive, screen, sized
from ._columns.inputs import encode_values, read_batch, read_marks, values_array
from ._engine.encode import decode_solutions
from ._engine.results import EngineResults
from ._engine.run import (
    NotPlain,
    fan_out,
    raise_if_undecided,
    run_engine,
    run_list,
    solve_plain,
)
from ._parallel.threads import resolve_threads
from ._variants.run import (
    box_for,
    checked_count,
    per_puzzle,
    read_rules,
    rules_at,
    run_one,
    run_plain_list,
    run_rules,
    screen_box,
)

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
    import pyarrow as pa

__all__ = [
    "ItemErrorsWarning",
    "RulesLike",
    "SearchLimitExceeded",
    "check_many",
    "count_many",
    "count_solutions",
    "solve",
    "solve_many",
]

# What `rules=` takes: a Rules, its JSON form (a mapping or its text) or preset names
# ("x", "windoku,anti-knight"); the batch functions also take one of these per puzzle.
RulesLike: TypeAlias = "Rules | Mapping[str, Any] | str"


def solve(
    puzzle: str,
    *,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    marks: bool = False,
    rules: RulesLike | None = None,
) -> str | None:
    """Solve one puzzle given in any notation `parse` accepts.

    When the puzzle has several solutions, one valid solution is returned; use
    `count_solutions` to tell the cases apart.

    Parameters
    ----------
    puzzle : str
        The puzzle, in any notation `parse` accepts (81 characters with `.` or `0` for
        empty cells, rows on lines, the pretty form with separators, other sizes). The
        size is inferred from the number of cells.
    box : tuple of int, optional
        `(rows, cols)` of a box, for a shape other than the default of the size (see
        `geometry_for`).
    alphabet : str, optional
        The N symbols of the grid, for a convention other than `1-9A-Z...`; the
        solution is written in them.
    max_nodes : int or None, default 1,000,000
        Search-node budget for grids other than 9x9 with 3x3 boxes (None: no budget).
    marks : bool, default False
        Read `puzzle` as pencil marks: N*N*N characters, for each cell, for each digit,
        the digit where it is still possible and `.` where it is excluded.
    rules : Rules, JSON mapping or text, or preset names, optional
        Variant rules (a `Rules`, its JSON form, or preset names such as "x",
        "windoku", "anti-knight"): every size; every such puzzle gets the node
        budget.

    Returns
    -------
    str or None
        The canonical solution (N*N characters in the grid's symbols), or None when the
        puzzle has no solution (clashing clues included).

    Raises
    ------
    ValueError
        The puzzle is malformed: a foreign character (named, with its position) or a
        wrong number of cells.
    TypeError
        `puzzle` is not a str.
    SearchLimitExceeded
        A grid other than 9x9 needed more than `max_nodes` search nodes.

    See Also
    --------
    count_solutions : tell "none", "one" and "several" apart.
    solve_many : a batch on several threads.

    Examples
    --------
    >>> import sudoku_fast as sf
    >>> p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    >>> sf.solve(p)[:27]
    '417369825632158947958724316'
    >>> sf.solve("55" + "." * 79) is None  # two 5s in a row: no solution
    True
    >>> sf.solve("1.3..4.........2")  # 4x4
    '1234342121434312'
    """
    budget = node_budget(max_nodes)
    check_flag(marks, "marks")
    variant = None if rules is None else as_rules(rules)  # None: not even a call
    if variant is not None:
        results = _run_one_variant(puzzle, 1, variant, box, alphabet, budget, marks)
        solution = decode_solutions(results)[0]
        raise_if_undecided(results, None, max_nodes, single=True)
        return solution
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
    rules: RulesLike | None = None,
) -> int:
    """Count the solutions of a puzzle, stopping at `limit`.

    Parameters
    ----------
    puzzle : str
        The puzzle, in any notation `parse` accepts.
    limit : int, default 2
        Stop counting at this many solutions (1 to 2**31 - 1). The default is the usual
        uniqueness check.
    box, alphabet, max_nodes, marks, rules
        As in `solve`.

    Returns
    -------
    int
        0 means no solution, 1 a unique one; a result equal to `limit` means "at least
        `limit`".

    Raises
    ------
    ValueError
        The puzzle is malformed, or `limit` is out of range.
    TypeError
        `puzzle` is not a str, or `limit` not an int.
    SearchLimitExceeded
        A grid other than 9x9 needed more than `max_nodes` search nodes.

    Examples
    --------
    >>> import sudoku_fast as sf
    >>> p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    >>> sf.count_solutions(p)
    1
    >>> sf.count_solutions("." * 81)  # several: at least 2
    2
    >>> sf.count_solutions("." * 81, limit=1000)
    1000
    """
    budget = node_budget(max_nodes)
    check_limit(limit)
    check_flag(marks, "marks")
    variant = None if rules is None else as_rules(rules)  # None: not even a call
    if variant is not None:
        results = _run_one_variant(puzzle, limit, variant, box, alphabet, budget, marks)
        raise_if_undecided(results, -1, max_nodes, single=True)
        return results.counts[0]
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


def _run_one_variant(
    puzzle: str, limit: int, rules: Rules, box: Any, alphabet: Any, budget: int, marks: bool
) -> EngineResults:
    """Parse one puzzle and run the variant engine on it under `rules`."""
    if marks:
        raise ValueError("marks=True cannot be combined with rules= yet")
    geometry, values = parse_grid(puzzle, box=box_for(rules, box, alphabet), alphabet=alphabet)
    return run_one(values, rules, limit, geometry=geometry, max_nodes=budget)


def _run_variant_batch(
    puzzles: Any,
    rules: Rules | list[Rules | None],
    what: str,
    limit: int,
    threads: int | None,
    box: Any,
    alphabet: Any,
    budget: int,
    marks: bool,
    output: str | None = None,
) -> tuple[EngineResults, Any, Any]:
    """Read a batch and run the variant engine on it: (results, column, numpy array)."""
    if marks:
        raise ValueError(f"{what}: marks=True cannot be combined with rules= yet")
    box = box_for(rules, box, alphabet)
    if box is None and alphabet is None:  # plain 9x9 strings are read by the threads
        decode = what == "solve_many" and frames.needs_texts(None, output)
        plain = run_plain_list(puzzles, rules, limit, threads, max_nodes=budget, decode=decode)
        if plain is not None:
            return plain, None, None
    arr = values_array(puzzles)
    column = None
    if arr is not None:
        grids, n, geometry = encode_values(arr, what, box, alphabet)
    else:
        geometry, grids, n, column = read_batch(puzzles, what, box, alphabet, threads=threads)
    each = rules if isinstance(rules, Rules) else per_puzzle(rules, n)  # one: shared as it is
    decode = what == "solve_many" and arr is None and frames.needs_texts(column, output)
    results = run_rules(
        grids, n, each, limit, threads, geometry=geometry, max_nodes=budget, decode=decode
    )
    return results, column, arr


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
    output: Literal["like"] | None = None,
    marks: bool = False,
    rules: RulesLike | Sequence[RulesLike | None] | None = None,
    on_error: ItemErrors = "raise",
    progress: ProgressOption = None,
) -> npt.NDArray[np.uint8]: ...


@overload
def solve_many(
    puzzles: Iterable[str],
    *,
    threads: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    output: Literal["list", "like"] | None = None,
    marks: bool = False,
    rules: RulesLike | Sequence[RulesLike | None] | None = None,
    on_error: ItemErrors = "raise",
    progress: ProgressOption = None,
) -> list[str | None]: ...


@overload
def solve_many(
    puzzles: Any,
    *,
    threads: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    output: Literal["list"],
    marks: bool = False,
    rules: RulesLike | Sequence[RulesLike | None] | None = None,
    on_error: ItemErrors = "raise",
    progress: ProgressOption = None,
) -> list[str | None]: ...


@overload
def solve_many(
    puzzles: Any,
    *,
    threads: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    output: Literal["arrow"],
    marks: bool = False,
    rules: RulesLike | Sequence[RulesLike | None] | None = None,
    on_error: ItemErrors = "raise",
    progress: ProgressOption = None,
) -> pa.Array | pa.ChunkedArray: ...


@overload
def solve_many(
    puzzles: Any,
    *,
    threads: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    output: Literal["like"],
    marks: bool = False,
    rules: RulesLike | Sequence[RulesLike | None] | None = None,
    on_error: ItemErrors = "raise",
    progress: ProgressOption = None,
) -> Any: ...


@overload
def solve_many(
    puzzles: Any,
    *,
    threads: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    output: None = None,
    marks: bool = False,
    rules: RulesLike | Sequence[RulesLike | None] | None = None,
    on_error: ItemErrors = "raise",
    progress: ProgressOption = None,
) -> list[str | None]: ...


def solve_many(
    puzzles: Any,
    *,
    threads: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    output: Output | None = None,
    marks: bool = False,
    rules: RulesLike | Sequence[RulesLike | None] | None = None,
    on_error: ItemErrors = "raise",
    progress: ProgressOption = None,
) -> Any:
    """Solve a batch of puzzles on several threads; results are in input order.

    For puzzles with several solutions one valid solution is returned. A batch holds
    puzzles of one size: the size comes from `box` / `alphabet` when given (as in
    `parse`), else from the first puzzle. (A list of plain 81-character strings is read
    while its first puzzles are being solved, so solving may have begun when a bad item
    far into it is found; the list is then parsed in full and the error raised.)

    Parameters
    ----------
    puzzles : iterable of str, column or numpy array
        Strings in any notation `parse` accepts (`bytes` items are read as UTF-8); a
        pandas or polars Series, a pyarrow Array / ChunkedArray of strings, a 1-D numpy
        array of str or bytes; or a numpy integer array of shape (n, N*N) or (n, N, N)
        with 0 for empty cells.
    threads : int or None, default None
        None: all usable cores; 1: serial in the caller; k > 1: k threads; -k: all
        cores + 1 - k. 0 is a ValueError.
    box, alphabet : optional
        Fix the geometry, as in `parse`.
    max_nodes : int or None, default 1,000,000
        Search-node budget per puzzle for grids other than 9x9 with 3x3 boxes (None: no
        budget).
    output : {None, "list", "arrow", "like"}, default None
        The result's form: None gives a list for strings and columns and a uint8 array
        for a value array; "list" a list; "arrow" a pyarrow string array (null where
        there is no solution; a ChunkedArray for a ChunkedArray); "like" a column of the
        input's kind (a pandas Series keeps its index and name).
    marks : bool, default False
        Read every puzzle as pencil marks (strings only; see `parse`).
    on_error : {"raise", "none", "warn"}, default "raise"
        A malformed or null item: "raise" raises as below; "none" answers it as
        missing (None in a list, null in Arrow, NA in pandas and polars, an all-zero
        row in a value array, -1 in a numpy count array) and runs the others as if it
        were not there; "warn" does the same and issues an `ItemErrorsWarning` whose
        `errors` maps each such item's label (pandas index label, else position) to
        the reason.
    rules : Rules, JSON mapping or text, preset names, or a sequence of them, optional
        Variant rules (see `solve`): one rule set for every puzzle, or a sequence of one
        per puzzle (None for a classic one).
    progress : callable, True or None, default None
        Reports progress: the batch runs in blocks of about a quarter of a second each
        and `progress(done, total)` is called, with the items answered so far, before
        the first block and after each one, from the calling thread while no worker
        runs (a callback may draw, log or raise). True draws a bar on stderr: tqdm's
        when tqdm is installed (`pip install 'sudoku_fast[progress]'`), else a line of
        text. None (or False): no reports; the batch runs in one piece.

    Returns
    -------
    list of (str or None), numpy.ndarray or column
        The solutions in input order: a list holding the canonical solution, or None
        where there is none; for a value array, a uint8 array of its shape in which a
        row with no solution is all zeros; with `output`, the form it names.

    Raises
    ------
    ValueError
        A malformed item, or one of another size, naming its index (nothing is
        returned); a bad `threads` or `output`.
    TypeError
        An item that is not a str (or bytes), naming its index.
    SearchLimitExceeded
        Some puzzles ran out of `max_nodes`; its `indices` name them and `partial`
        holds the other answers.

    See Also
    --------
    count_many : uniqueness checks for a batch.

    Examples
    --------
    >>> import sudoku_fast as sf
    >>> p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    >>> solutions = sf.solve_many([p, "55" + "." * 79], threads=2)
    >>> solutions[0][:9], solutions[1]
    ('417369825', None)
    >>> import numpy as np
    >>> grids = np.zeros((2, 81), dtype=np.uint8)  # two empty grids
    >>> sf.solve_many(grids).shape
    (2, 81)
    >>> seen = []
    >>> answers = sf.solve_many([p] * 1000, progress=lambda done, total: seen.append(done))
    >>> seen[0], seen[-1]
    (0, 1000)
    """
    if progress is not None:
        report = resolve_progress(progress, "solve_many")
        if report is not None:
            rules_of = per_block(checked_count(read_rules(rules), puzzles))
            return in_blocks(
                lambda block: cast(Any, solve_many)(
                    block, threads=threads, box=box, alphabet=alphabet, max_nodes=max_nodes,
                    output=output, marks=marks, on_error=on_error,
                    rules=rules_of(block),
                ),
                puzzles, report, "solve_many", marks=marks,
                fixed_geometry=box is not None or alphabet is not None or rules is not None,
            )  # fmt: skip
    if check_item_errors(on_error) != "raise":
        variants = checked_count(read_rules(rules), puzzles)
        return forgive(
            lambda batch, rows: cast(Any, solve_many)(
                batch, threads=threads, box=box, alphabet=alphabet, max_nodes=max_nodes,
                output=output, marks=marks, rules=rules_at(variants, rows),
            ),
            puzzles, on_error, "solve_many", box=screen_box(variants, box, alphabet),
            alphabet=alphabet, marks=marks,
        )  # fmt: skip
    budget = node_budget(max_nodes)
    variants = None if rules is None else read_rules(rules)
    if variants is not None:
        frames.check_output(output)
        results, column, arr = _run_variant_batch(
            puzzles, variants, "solve_many", 1, threads, box, alphabet, budget, marks, output
        )
        if arr is not None and output in (None, "like"):
            import numpy as np

            out = np.frombuffer(results.solutions, dtype=np.uint8).reshape(arr.shape)
        else:
            out = frames.solutions_out(results, column, output)
        raise_if_undecided(results, out, max_nodes)
        return out
    source = None if check_flag(marks, "marks") else _list_source(puzzles, box, alphabet)
    if source is not None and output is None:
        # The common case first, in as few steps as can be (see run_list).
        try:
            return run_list(source, 1, threads, True)
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
    puzzles: npt.NDArray[Any],
    limit: int = 2,
    *,
    threads: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    output: Literal["like"],
    marks: bool = False,
    rules: RulesLike | Sequence[RulesLike | None] | None = None,
    on_error: ItemErrors = "raise",
    progress: ProgressOption = None,
) -> npt.NDArray[np.int32]: ...


@overload
def count_many(
    puzzles: Any,
    limit: int = 2,
    *,
    threads: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    output: Literal["list"] | None = None,
    marks: bool = False,
    rules: RulesLike | Sequence[RulesLike | None] | None = None,
    on_error: Literal["raise"] = "raise",
    progress: ProgressOption = None,
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
    output: Literal["list"] | None = None,
    marks: bool = False,
    rules: RulesLike | Sequence[RulesLike | None] | None = None,
    on_error: Literal["none", "warn"],
    progress: ProgressOption = None,
) -> list[int | None]: ...


@overload
def count_many(
    puzzles: Any,
    limit: int = 2,
    *,
    threads: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    output: Literal["arrow"],
    marks: bool = False,
    rules: RulesLike | Sequence[RulesLike | None] | None = None,
    on_error: ItemErrors = "raise",
    progress: ProgressOption = None,
) -> pa.Array | pa.ChunkedArray: ...


@overload
def count_many(
    puzzles: Any,
    limit: int = 2,
    *,
    threads: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    output: Literal["like"],
    marks: bool = False,
    rules: RulesLike | Sequence[RulesLike | None] | None = None,
    on_error: ItemErrors = "raise",
    progress: ProgressOption = None,
) -> Any: ...


def count_many(
    puzzles: Any,
    limit: int = 2,
    *,
    threads: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    output: Output | None = None,
    marks: bool = False,
    rules: RulesLike | Sequence[RulesLike | None] | None = None,
    on_error: ItemErrors = "raise",
    progress: ProgressOption = None,
) -> Any:
    """Count the solutions of each puzzle, up to `limit`, on several threads.

    With the default limit of 2 this is a uniqueness check: 0 = no solution, 1 = unique,
    2 = several.

    Parameters
    ----------
    puzzles : iterable of str, column or numpy array
        As in `solve_many`.
    limit : int, default 2
        Stop counting each puzzle at this many solutions.
    threads, box, alphabet, max_nodes, marks
        As in `solve_many`.
    output : {None, "list", "arrow", "like"}, default None
        None and "list": a list of ints; "arrow": an int32 pyarrow array; "like": a
        column of the input's kind (int32 for numpy, int64 for pandas and polars).
    on_error : {"raise", "none", "warn"}, default "raise"
        As in `solve_many`.
    rules : Rules, JSON mapping or text, preset names, or a sequence of them, optional
        Variant rules (see `solve`): one rule set for every puzzle, or a sequence of one
        per puzzle (None for a classic one).
    progress : callable, True or None, default None
        As in `solve_many`.

    Returns
    -------
    list of int or column
        The counts in input order (a count equal to `limit` means "at least `limit`").

    Raises
    ------
    ValueError
        A malformed item (naming its index), or a bad `limit`, `threads` or `output`.
    TypeError
        An item that is not a str (or bytes), naming its index.
    SearchLimitExceeded
        Some puzzles ran out of `max_nodes` (see `solve_many`).

    Examples
    --------
    >>> import sudoku_fast as sf
    >>> p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    >>> sf.count_many([p, "." * 81, "55" + "." * 79])
    [1, 2, 0]
    """
    if progress is not None:
        report = resolve_progress(progress, "count_many")
        if report is not None:
            rules_of = per_block(checked_count(read_rules(rules), puzzles))
            return in_blocks(
                lambda block: cast(Any, count_many)(
                    block, limit, threads=threads, box=box, alphabet=alphabet,
                    max_nodes=max_nodes, output=output, marks=marks, on_error=on_error,
                    rules=rules_of(block),
                ),
                puzzles, report, "count_many", marks=marks,
                fixed_geometry=box is not None or alphabet is not None or rules is not None,
            )  # fmt: skip
    if check_item_errors(on_error) != "raise":
        variants = checked_count(read_rules(rules), puzzles)
        return forgive(
            lambda batch, rows: cast(Any, count_many)(
                batch, limit, threads=threads, box=box, alphabet=alphabet,
                max_nodes=max_nodes, output=output, marks=marks,
                rules=rules_at(variants, rows),
            ),
            puzzles, on_error, "count_many", box=screen_box(variants, box, alphabet),
            alphabet=alphabet, marks=marks,
        )  # fmt: skip
    budget = node_budget(max_nodes)
    frames.check_output(output)
    variants = None if rules is None else read_rules(rules)
    if variants is not None:
        check_limit(limit)
        results, column, arr = _run_variant_batch(
            puzzles, variants, "count_many", limit, threads, box, alphabet, budget, marks, output
        )
        if arr is not None and output == "like":
            import numpy as np

            counts: Any = np.frombuffer(results.counts, dtype=np.int32)
        else:
            counts = frames.counts_out(results.counts, column, output)
        raise_if_undecided(results, counts, max_nodes)
        return counts
    column = None
    masks = None
    source = None if check_flag(marks, "marks") else _list_source(puzzles, box, alphabet)
    if source is not None:
        try:
            check_limit(limit)
            if output in (None, "list"):  # the common case, in as few steps as can be
                return run_list(source, limit, threads, False)
            run = fan_out(None, source, len(source), limit, resolve_threads(threads), False)
            return frames.counts_out(run.counts, None, output)
        except NotPlain:
            pass  # some item needs the parser (or is malformed): the general path
    arr = None if marks else values_array(puzzles)
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
    progress: ProgressOption = None,
) -> np.ndarray[Any, Any]:
    """Check a batch of (puzzle, solution) pairs by the rules; a numpy bool array.

    Item i is True when `solutions[i]` is a complete grid with each value once in every
    row, column and box that keeps every clue of `puzzles[i]` (`is_solution` for a
    batch). The check is compiled, runs on `threads` with the GIL released, and shares
    no code with the engines, so it is an independent check of their answers.

    Parameters
    ----------
    puzzles, solutions : iterable of str, column or numpy array
        Batches of one length, each in any form `solve_many` takes (strings, a pandas,
        polars or Arrow column, a numpy text array, a numpy value array). The size comes
        from `box` / `alphabet` or the first puzzle; solutions are read in the puzzles'
        geometry.
    threads : int or None, default None
        As in `solve_many`.
    box, alphabet : optional
        Fix the geometry, as in `parse`.
    on_error : {"raise", "none", "warn"}, default "raise"
        "raise": a malformed or null puzzle or solution raises ValueError (TypeError for
        a non-str) naming "puzzle k" or "solution k". "none": such a pair is False.
        "warn": False too, with an `ItemErrorsWarning` giving the reasons.
    progress : callable, True or None, default None
        As in `solve_many` (pairs checked so far).

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
    if progress is not None:
        report = resolve_progress(progress, "check_many")
        if report is not None:
            pairs = Pairs(puzzles, solutions)
            checked_in_blocks: np.ndarray[Any, Any] = in_blocks(
                lambda block: check_many(
                    block.puzzles, block.solutions, threads=threads, box=box,
                    alphabet=alphabet, on_error=on_error,
                ),
                pairs, report, "check_many",
                fixed_geometry=box is not None or alphabet is not None,
                summary="pairs did not read and are False",
            )  # fmt: skip
            return checked_in_blocks
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
