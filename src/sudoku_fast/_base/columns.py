"""Columns: the one home of how puzzles, answers and ratings are named and typed as
columns (CSV headers, Parquet, Arrow, pandas, polars, dask), and of what a pipeline may
do with a row it cannot read (`on_error`).
"""

from __future__ import annotations

from collections.abc import Container, Sequence
from typing import Literal

__all__ = [
    "ITEM_ERROR_CHOICES",
    "ON_ERROR_CHOICES",
    "PUZZLE_COLUMNS",
    "RATING_FIELDS",
    "RATING_KINDS",
    "RULES_COLUMNS",
    "SCORE_FIELDS",
    "SOLUTION_COLUMNS",
    "ItemErrors",
    "answer_column",
    "check_item_errors",
    "check_on_error",
    "find_column",
    "puzzle_column",
    "rating_columns",
    "rating_fields",
]

# Header names read as the puzzle column and as a given solution, any case.
PUZZLE_COLUMNS = ("quizzes", "quiz", "puzzles", "puzzle")
SOLUTION_COLUMNS = ("solutions", "solution")
# A puzzle's own variant rules: the JSON text of `Rules.to_json` (or preset names).
RULES_COLUMNS = ("rules",)
# A malformed row: answered with a marker (mark), left out (skip), or the end of the run
# (fail). Each pipeline says which it does by default.
ON_ERROR_CHOICES = ("mark", "skip", "fail")
# A bad item of a Python batch (`solve_many(..., on_error=)`): the end of the call
# (raise, the default), or answered as missing, quietly (none) or with the reasons in
# an ItemErrorsWarning (warn). Batches keep their length and order, so no "skip".
ITEM_ERROR_CHOICES = ("raise", "none", "warn")
ItemErrors = Literal["raise", "none", "warn"]

RATING_FIELDS = ("level", "name", "hardest", "clues", "engine_guesses", "engine_nodes")
# Added when the Sudoku Explainer score is asked for (`rate_many(score=True)`).
SCORE_FIELDS = ("score", "score_technique", "score_complete")
# The type of each rating field as a column, by its dtype name.
RATING_KINDS = {
    "level": "int64",
    "name": "string",
    "hardest": "string",
    "clues": "int64",
    "engine_guesses": "int64",
    "engine_nodes": "int64",
    "score": "float64",
    "score_technique": "string",
    "score_complete": "bool",
}


def rating_fields(score: bool = False) -> tuple[str, ...]:
    """The fields of ratings in column form: RATING_FIELDS, and SCORE_FIELDS with `score`."""
    return RATING_FIELDS + SCORE_FIELDS if score else RATING_FIELDS


def check_on_error(on_error: object) -> str:
    """`on_error` if it is one of ON_ERROR_CHOICES, else ValueError."""
    if on_error not in ON_ERROR_CHOICES:
        raise ValueError(f"on_error must be one of {', '.join(ON_ERROR_CHOICES)}, got {on_error!r}")
    return str(on_error)


def check_item_errors(on_error: object) -> str:
    """`on_error` of a batch function if it is one of ITEM_ERROR_CHOICES, else ValueError."""
    if not isinstance(on_error, str) or on_error not in ITEM_ERROR_CHOICES:
        raise ValueError(
            f"on_error must be one of {', '.join(map(repr, ITEM_ERROR_CHOICES))}, "
            f"got {on_error!r:.40}"
        )
    return on_error


def find_column(names: Sequence[object], wanted: tuple[str, ...]) -> int:
    """The index of the first of `names` (a header, in order) that is one of `wanted`
    (lower case), whatever its case and surrounding blanks; -1 if none is."""
    for index, name in enumerate(names):
        if isinstance(name, str) and name.strip().lower() in wanted:  # data frames: any name
            return index
    return -1


def puzzle_column(
    names: list[str], wanted: str | None, naming: str = "name one with column="
) -> str:
    """The name of the puzzle column: `wanted`, or the first column named as one of
    PUZZLE_COLUMNS (any case), as in a CSV header."""
    if wanted is not None:
        if wanted not in names:
            raise ValueError(f"no column {wanted!r} (columns: {', '.join(map(str, names))})")
        return wanted
    index = find_column(names, PUZZLE_COLUMNS)
    if index >= 0:
        return names[index]
    raise ValueError(
        f"no puzzle column: none of {', '.join(PUZZLE_COLUMNS)} "
        f"(columns: {', '.join(map(str, names))}); {naming}"
    )


def answer_column(names: Sequence[str], count: bool) -> str:
    """The name of the answer column added to a table with columns `names` (CSV, Parquet).

    `solution` (`count` when counting), or, when the table has a column of that name
    already, `found_solution` (`found_count`), then `found_solution_2`, `_3`, ... until
    the name is free: the output never holds two columns of one name.
    """
    answer = "count" if count else "solution"
    return _free_name(answer, f"found_{answer}", names)


def rating_columns(fields: Sequence[str], taken: Sequence[object]) -> list[str]:
    """The names of rating columns added beside columns `taken` (Parquet, dask): each
    field's own, or with the suffix `_rated` (then `_rated_2`, `_rated_3`, ...) while
    that is in use, so that a table never holds two columns of one name."""
    used = set(taken)
    names = []
    for name in fields:
        free = _free_name(name, f"{name}_rated", used)
        used.add(free)
        names.append(free)
    return names


def _free_name(name: str, alternative: str, taken: Container[object]) -> str:
    """`name` when no column has it, else the first free of `alternative`,
    `alternative_2`, `alternative_3`, ..."""
    if name not in taken:
        return name
    free, suffix = alternative, 2
    while free in taken:
        free = f"{alternative}_{suffix}"
        suffix += 1
    return free
