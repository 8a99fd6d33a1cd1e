"""Dask: solve, count, rate and generate puzzles partition by partition.

Each function takes a dask DataFrame (the puzzle column chosen by name, by default the
first named `quizzes`, `quiz`, `puzzles` or `puzzle`, in any case), a dask Series or a
dask Bag of strings, and returns a lazy collection of the same kind built with `map_partitions`:
a DataFrame gets the answer column(s) appended to its own, a Series becomes the
answers with the same index, a Bag a Bag of answers. Nothing runs until the result is
computed; each partition then goes through the batch functions (`solve_many`,
`count_many`, `rate_many`) on the worker that holds it, with the engine's threads
inside that worker. `generate` makes a DataFrame of new puzzles, one
`generate_many` call per partition.

Threads: `threads=None` gives each partition the usable cores of its worker's machine
(capped by SUDOKU_FAST_NUM_THREADS, as everywhere) divided by the tasks that worker
runs at once (its `nthreads`); outside a `dask.distributed` worker it is the engine's
default (all usable cores). With several
worker processes on one machine, pass `threads=1` (or the cores per process).

Errors keep their kind: a malformed puzzle is a ValueError and a puzzle past its node
budget a `SearchLimitExceeded` (with `indices` and `partial` for its partition) on the
client. For a DataFrame or Series the message names the partition ("partition 3:
puzzle 5: ...", positions counted within the partition); a Bag has no partition
numbers to give, so its messages count within the partition alone.

Needs dask (the `dask` extra); dask, pandas and pyarrow are imported when these
functions are called, not with the package.
"""

from __future__ import annotations

import random
from typing import Any

from ._base import columns as column_names
from ._base.checks import DEFAULT_MAX_NODES, check_limit, node_budget
from ._base.columns import ItemErrors, check_item_errors
from ._base.errors import SearchLimitExceeded, renumber_error
from ._base.grid import geometry_for
from ._base.optional import optional
from ._base.options import Difficulty, Symmetry
from ._parallel.threads import resolve_threads
from .generator import generate_many, row_seeds
from .rating import rate_many
from .solving import count_many, solve_many

# Rating fields as data-frame columns, with their dtypes.
RATING_DTYPES = {name: column_names.RATING_KINDS[name] for name in column_names.RATING_FIELDS}
GENERATED_COLUMNS = ("puzzle", "solution", "clues", "level", "name", "seed")


def _dask() -> tuple[Any, Any, Any]:
    """(dask.dataframe, dask.bag, pandas), or a ValueError saying how to install them."""
    modules = ("dask.dataframe", "dask.bag", "pandas")
    return optional(*modules, needed_for="sudoku_fast.dask", extra="dask")


def worker_threads(threads: int | None) -> int | None:
    """The engine threads for one partition (see the module doc); `threads` if given."""
    if threads is not None:
        return threads
    try:
        from distributed import get_worker

        slots = get_worker().state.nthreads
    except (ImportError, ValueError, AttributeError):
        return None  # not in a distributed worker: the engine's own default
    return max(1, resolve_threads(None) // max(1, slots))  # "all cores", capped as anywhere


def _string_dtype(pd: Any, like: Any = None) -> Any:
    """pandas' Arrow-backed string dtype (the one `like` has, when it is one)."""
    if getattr(like, "storage", None) == "pyarrow":
        return like
    return pd.StringDtype("pyarrow")


# ------------------------------------------------------------------ per partition


def _answer(
    series: Any,
    how: str,
    keywords: dict[str, Any],
    dtype: Any,
    partition_info: dict[str, Any] | None,
) -> Any:
    """The answers for one pandas Series of puzzles: a Series (or DataFrame for "rate")."""
    import pandas as pd

    keywords = {**keywords, "threads": worker_threads(keywords["threads"])}
    try:
        if how == "solve":
            answers = solve_many(series, output="like", **keywords)
        elif how == "count":
            answers = count_many(series, output="like", **keywords)
        else:
            ratings = rate_many(series, output="arrow", **keywords)
            # flatten: each field with the rows' nulls (on_error) folded in
            names = [field.name for field in ratings.type]
            fields = dict(zip(names, ratings.flatten(), strict=True))
            columns = {
                name: pd.Series(fields[name].to_numpy(zero_copy_only=False), index=series.index)
                for name in RATING_DTYPES
            }
            return pd.DataFrame(columns, index=series.index).astype(dtype)
    except (ValueError, TypeError, SearchLimitExceeded) as err:
        where = "" if partition_info is None else f"partition {partition_info['number']}: "
        raise renumber_error(err, 0, where) from None
    return pd.Series(answers, index=series.index).astype(dtype)


def _frame_part(
    frame: Any,
    column: str,
    names: list[str],
    how: str,
    keywords: dict[str, Any],
    dtype: Any,
    partition_info: dict[str, Any] | None = None,
) -> Any:
    """One DataFrame partition with the answer column(s) for its puzzle column appended."""
    answers = _answer(frame[column], how, keywords, dtype, partition_info)
    if how == "rate":
        answers.columns = names
        return frame.assign(**{name: answers[name] for name in names})
    return frame.assign(**{names[0]: answers})


def _series_part(
    series: Any,
    name: str,
    how: str,
    keywords: dict[str, Any],
    dtype: Any,
    partition_info: dict[str, Any] | None = None,
) -> Any:
    """The answers for one Series partition, named `name` (a DataFrame for ratings)."""
    answers = _answer(series, how, keywords, dtype, partition_info)
    if how != "rate":
        answers.name = name
    return answers


def _bag_part(items: Any, how: str, keywords: dict[str, Any]) -> list[Any]:
    """The answers for one Bag partition, as a list."""
    keywords = {**keywords, "threads": worker_threads(keywords["threads"])}
    batch = list(items)
    if how == "solve":
        return list(solve_many(batch, **keywords))
    if how == "count":
        return list(count_many(batch, **keywords))
    return list(rate_many(batch, **keywords))


# ------------------------------------------------------------------ collections


def _apply(
    data: Any, how: str, column: str | None, names: list[str], keywords: dict[str, Any]
) -> Any:
    """Map the `how` step over the partitions of a dask DataFrame, Series or Bag."""
    dd, db, pd = _dask()
    nullable = keywords.get("on_error", "raise") != "raise"  # a bad row's answer is missing
    if isinstance(data, db.Bag):
        return data.map_partitions(_bag_part, how, keywords)
    if isinstance(data, dd.Series):
        meta_in = data._meta
        dtype = _dtype_for(how, pd, meta_in.dtype, nullable)
        if how == "rate":
            meta = _empty_ratings(pd, meta_in.index, nullable)
        else:
            meta = pd.Series([], dtype=dtype, index=meta_in.index[:0], name=names[0])
        return data.map_partitions(_series_part, names[0], how, keywords, dtype, meta=meta)
    if isinstance(data, dd.DataFrame):
        column = column_names.puzzle_column(list(data.columns), column, "pass column=")
        if how == "rate":  # the rating fields beside columns of the same names: renamed
            names = column_names.rating_columns(names, list(data.columns))
        taken = [name for name in names if name in data.columns]
        if taken:
            raise ValueError(
                f"the data frame already has a column {taken[0]!r}; choose another name"
            )
        meta_in = data._meta
        dtype = _dtype_for(how, pd, meta_in[column].dtype, nullable)
        meta = meta_in.assign(
            **{
                name: pd.Series([], dtype=kind, index=meta_in.index)
                for name, kind in _answer_dtypes(how, names, dtype).items()
            }
        )
        return data.map_partitions(
            _frame_part, column, names, how, keywords, dtype, meta=meta, enforce_metadata=False
        )
    raise TypeError(
        f"expected a dask DataFrame, Series or Bag of puzzles, not {type(data).__name__}"
    )


# The pandas dtypes that hold a missing value, for answers that may be missing (on_error).
_NULLABLE = {"int32": "Int32", "int64": "Int64", "bool": "boolean"}


def _dtype_for(how: str, pd: Any, puzzle_dtype: Any, nullable: bool = False) -> Any:
    """The answer dtype of one step: strings like the puzzles', int32 counts, rating
    dtypes; with `nullable`, pandas' nullable twins of the int and bool ones."""

    def kind_of(kind: str) -> Any:
        if kind == "string":
            return pd.StringDtype("pyarrow")
        return _NULLABLE.get(kind, kind) if nullable else kind

    if how == "solve":
        return _string_dtype(pd, puzzle_dtype)
    if how == "count":
        return kind_of("int32")
    return {name: kind_of(kind) for name, kind in RATING_DTYPES.items()}


def _answer_dtypes(how: str, names: list[str], dtype: Any) -> dict[str, Any]:
    """The new columns of a DataFrame and their dtypes."""
    if how == "rate":
        return dict(zip(names, dtype.values(), strict=True))
    return {names[0]: dtype}


def _empty_ratings(pd: Any, index: Any, nullable: bool = False) -> Any:
    """An empty data frame of the rating columns (the meta of a rated Series)."""
    columns = {
        name: pd.Series([], dtype=kind)
        for name, kind in _dtype_for("rate", pd, None, nullable).items()
    }
    return pd.DataFrame(columns, index=index[:0])


def _keywords(
    threads: int | None,
    box: tuple[int, int] | None,
    alphabet: str | None,
    max_nodes: int | None,
    **more: Any,
) -> dict[str, Any]:
    """The batch functions' keywords, checked now rather than on a worker (where a
    mistake would surface only when the result is computed, once per partition)."""
    if threads is not None:  # None is resolved on each worker (see worker_threads)
        resolve_threads(threads)
    if "on_error" in more:
        check_item_errors(more["on_error"])
    node_budget(max_nodes)
    if box is not None or alphabet is not None:
        geometry_for(None, box, alphabet)
    if "limit" in more:
        check_limit(more["limit"])
    return {"threads": threads, "box": box, "alphabet": alphabet, "max_nodes": max_nodes, **more}


def solve(
    data: Any,
    *,
    column: str | None = None,
    name: str = "solution",
    threads: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    on_error: ItemErrors = "raise",
) -> Any:
    """Solve every puzzle of a dask DataFrame, Series or Bag, partition by partition.

    A DataFrame comes back with a string column `name` (missing where a puzzle has no
    solution) after its own columns; a Series as the solutions with its index; a Bag
    as a Bag of solution strings (None where there is none). Lazy: compute the result.

    Parameters
    ----------
    data : dask DataFrame, Series or Bag
        The puzzles: a DataFrame's puzzle column is `column`, or the first named
        `quizzes`, `quiz`, `puzzles` or `puzzle` (in any case).
    column : str, optional
        The puzzle column of a DataFrame.
    name : str, default "solution"
        The name of the added column.
    threads : int or None, default None
        Engine threads per partition; None: the worker machine's cores divided by the
        tasks its worker runs at once (see the module doc).
    box, alphabet, max_nodes
        As in `solve_many`.
    on_error : {"raise", "none", "warn"}, default "raise"
        As in `solve_many`, per partition: "none" answers a malformed or null puzzle as
        missing (NA in a column, None in a Bag; counts and rating fields then have
        pandas' nullable dtypes, `Int32`, `Int64`, `boolean`); "warn" also issues an
        `ItemErrorsWarning` where the partition runs (positions within the partition;
        under `dask.distributed`, in the worker's log).

    Returns
    -------
    dask DataFrame, Series or Bag
        The input's kind, with the solutions.

    Raises
    ------
    ValueError, TypeError
        A bad argument now; a malformed puzzle when computed (naming the partition and
        the row).
    SearchLimitExceeded
        When computed, a puzzle ran out of `max_nodes`.

    Examples
    --------
    >>> import dask.dataframe as dd
    >>> import pandas as pd
    >>> import sudoku_fast.dask as sfd
    >>> p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    >>> frame = dd.from_pandas(pd.DataFrame({"id": [1, 2], "puzzle": [p, "." * 81]}), npartitions=2)
    >>> solved = sfd.solve(frame, threads=1).compute(scheduler="sync")
    >>> list(solved.columns), solved["solution"].iloc[0][:9]
    (['id', 'puzzle', 'solution'], '417369825')
    """
    keywords = _keywords(threads, box, alphabet, max_nodes, on_error=on_error)
    return _apply(data, "solve", column, [name], keywords)


def count(
    data: Any,
    limit: int = 2,
    *,
    column: str | None = None,
    name: str = "count",
    threads: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    on_error: ItemErrors = "raise",
) -> Any:
    """Count the solutions of every puzzle (up to `limit`) partition by partition.

    Like `solve`, with an int32 column (or Series, or Bag of ints) of counts: 0 = no
    solution, 1 = unique, `limit` = at least that many.

    Parameters
    ----------
    data : dask DataFrame, Series or Bag
        As in `solve`.
    limit : int, default 2
        Count up to this many solutions.
    column : str, optional
        As in `solve`.
    name : str, default "count"
        The name of the added column.
    threads, box, alphabet, max_nodes, on_error
        As in `solve`.

    Returns
    -------
    dask DataFrame, Series or Bag
        The input's kind, with the counts.

    Raises
    ------
    ValueError, TypeError, SearchLimitExceeded
        As `solve`.

    Examples
    --------
    >>> import dask.dataframe as dd
    >>> import pandas as pd
    >>> import sudoku_fast.dask as sfd
    >>> p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    >>> frame = dd.from_pandas(pd.DataFrame({"id": [1, 2], "puzzle": [p, "." * 81]}), npartitions=2)
    >>> sfd.count(frame, threads=1)["count"].compute(scheduler="sync").tolist()
    [1, 2]
    """
    keywords = _keywords(threads, box, alphabet, max_nodes, limit=limit, on_error=on_error)
    return _apply(data, "count", column, [name], keywords)


def rate(
    data: Any,
    *,
    column: str | None = None,
    threads: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    on_error: ItemErrors = "raise",
) -> Any:
    """Rate every puzzle partition by partition (see `rate_many`).

    A DataFrame gets the columns of RATING_DTYPES (level, name, hardest, clues,
    engine_guesses, engine_nodes) appended, each one whose name the frame already uses
    with the suffix `_rated` (as `rate_parquet` names them); a Series becomes a
    DataFrame of them with its index; a Bag a Bag of `Rating` objects.

    Parameters
    ----------
    data : dask DataFrame, Series or Bag
        As in `solve`.
    column, threads, box, alphabet, max_nodes, on_error
        As in `solve` (a puzzle without exactly one solution counts as a bad one too).

    Returns
    -------
    dask DataFrame or Bag
        The rating columns (or `Rating` objects).

    Raises
    ------
    ValueError
        When computed, a puzzle without exactly one solution (or a malformed one).
    TypeError, SearchLimitExceeded
        As `solve`.

    Examples
    --------
    >>> import dask.dataframe as dd
    >>> import pandas as pd
    >>> import sudoku_fast.dask as sfd
    >>> p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    >>> frame = dd.from_pandas(pd.DataFrame({"id": [1, 2], "puzzle": [p, "." * 81]}), npartitions=2)
    >>> rated = sfd.rate(frame.head(1, npartitions=1, compute=False), threads=1)
    >>> rated.compute(scheduler="sync")["name"].tolist()
    ['medium']
    """
    names = list(column_names.RATING_FIELDS)
    keywords = _keywords(threads, box, alphabet, max_nodes, on_error=on_error)
    return _apply(data, "rate", column, names, keywords)


def generate(
    n: int,
    *,
    npartitions: int,
    difficulty: Difficulty | None = None,
    seed: int | None = None,
    size: int = 9,
    symmetry: Symmetry | None = None,
    minimal: bool = True,
    threads: int | None = None,
) -> Any:
    """A dask DataFrame of `n` new puzzles made in `npartitions` partitions.

    Columns: puzzle, solution, clues, level, name (the puzzle's rating) and seed (the
    row's own seed: `sudoku_fast.generate(seed=...)` with the same other arguments
    makes the row's puzzle again); the index numbers the rows 0 to n-1 across the
    partitions.
    The partition seeds come from `seed`, so the same arguments give the same frame;
    each partition is one `generate_many` call on its worker's threads.

    Parameters
    ----------
    n : int
        How many puzzles.
    npartitions : int
        How many partitions (at least 1).
    difficulty, seed, size, symmetry, minimal
        As in `generate_many`.
    threads : int or None, default None
        As in `solve`.

    Returns
    -------
    dask DataFrame
        Columns puzzle, solution, clues, level, name and seed; lazy.

    Raises
    ------
    ValueError, TypeError
        A bad argument (now) or one `generate_many` rejects (when computed).
    RuntimeError
        As `generate_many`, when computed.

    Examples
    --------
    >>> import sudoku_fast.dask as sfd
    >>> new = sfd.generate(4, npartitions=2, difficulty="easy", seed=1).compute(scheduler="sync")
    >>> len(new), set(new["name"])
    (4, {'easy'})
    """
    dd, _, pd = _dask()
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ValueError(f"n must be an int >= 0, got {n!r}")
    if isinstance(npartitions, bool) or not isinstance(npartitions, int) or npartitions < 1:
        raise ValueError(f"npartitions must be an int >= 1, got {npartitions!r}")
    _keywords(threads, None, None, None)
    master = random.Random(seed)
    sizes = [n // npartitions + (i < n % npartitions) for i in range(npartitions)]
    parts: list[tuple[int, int, int]] = []  # (rows, seed, first row) of each partition
    for rows in sizes:
        parts.append((rows, master.getrandbits(63), sum(p[0] for p in parts)))
    options = {
        "difficulty": difficulty,
        "size": size,
        "symmetry": symmetry,
        "minimal": minimal,
        "threads": threads,
    }
    meta = _generated_frame(pd, [], [], [])
    return dd.from_map(
        _generate_part, parts, options=options, meta=meta, divisions=None, enforce_metadata=False
    )


def _generate_part(part: tuple[int, int, int], options: dict[str, Any]) -> Any:
    """One partition of `generate`: (rows, seed, first row) -> a pandas DataFrame of
    GENERATED_COLUMNS, indexed by row number in the whole frame."""
    import pandas as pd

    rows, seed, start = part
    threads = worker_threads(options["threads"])
    puzzles = generate_many(rows, **{**options, "threads": threads, "seed": seed})
    solutions = solve_many(puzzles, threads=threads)
    ratings = rate_many(puzzles, threads=threads)
    frame = _generated_frame(pd, puzzles, solutions, row_seeds(rows, seed), ratings)
    frame.index = pd.RangeIndex(start, start + rows)
    return frame


def _generated_frame(
    pd: Any, puzzles: list[str], solutions: list[str | None], seeds: list[int], ratings: Any = ()
) -> Any:
    """The pandas DataFrame of one generated partition (empty: the collection's meta)."""
    text = pd.StringDtype("pyarrow")
    return pd.DataFrame(
        {
            "puzzle": pd.Series(puzzles, dtype=text),
            "solution": pd.Series(solutions, dtype=text),
            "clues": pd.Series([r.clues for r in ratings], dtype="int64"),
            "level": pd.Series([r.level for r in ratings], dtype="int64"),
            "name": pd.Series([r.name for r in ratings], dtype=text),
            "seed": pd.Series(seeds, dtype="int64"),
        }
    )
