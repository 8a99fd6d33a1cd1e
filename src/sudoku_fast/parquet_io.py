"""Parquet files in the command line: read puzzles by row groups, write answers beside them.

A Parquet file is read one record batch at a time (at most a row group), so memory
stays flat however many rows it holds. The puzzle column (chosen by name; by default
the first of `puzzle`, `quizzes`, `quiz`, `puzzles`) goes to the engine through
`frames` straight from its Arrow buffers; the answers are appended as a new column
(`solution`, `count` or the rating fields) and every other column of the input is
written unchanged, in input order. Needs pyarrow (the `arrow` extra).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from . import frames
from .batch import DEFAULT_MAX_NODES, count_many, solve_many

PUZZLE_COLUMNS = ("puzzle", "quizzes", "quiz", "puzzles")
BATCH_ROWS = 262_144  # rows read at a time: large enough to keep every thread busy
MAGIC = b"PAR1"


def is_parquet(path: str) -> bool:
    """True when `path` is a Parquet file (by its name or its first four bytes)."""
    if path == "-":
        return False
    if path.endswith((".parquet", ".pq")):
        return True
    try:
        with open(path, "rb") as f:
            return f.read(4) == MAGIC
    except OSError:
        return False


def _pyarrow() -> tuple[Any, Any]:
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise ValueError(
            "reading Parquet needs pyarrow: pip install 'sudoku_fast[arrow]'"
        ) from None
    return pa, pq


def puzzle_column(names: list[str], wanted: str | None) -> str:
    """The name of the puzzle column: `wanted`, or the first of PUZZLE_COLUMNS present."""
    if wanted is not None:
        if wanted not in names:
            raise ValueError(f"no column {wanted!r} (columns: {', '.join(names)})")
        return wanted
    for name in PUZZLE_COLUMNS:
        if name in names:
            return name
    raise ValueError(
        f"no puzzle column: none of {', '.join(PUZZLE_COLUMNS)} "
        f"(columns: {', '.join(names)}); name one with --column"
    )


@dataclass
class ParquetReport:
    """What a Parquet run did: rows, seconds, and how many had 0 / 1+ solutions."""

    rows: int = 0
    solved: int = 0
    no_solution: int = 0
    seconds: float = 0.0


def record_batches(path: str, column: str | None) -> tuple[str, Any, Iterator[Any]]:
    """(puzzle column name, schema, iterator of record batches) of a Parquet file."""
    _, pq = _pyarrow()
    source = pq.ParquetFile(path)
    schema = source.schema_arrow
    name = puzzle_column(list(schema.names), column)
    return name, schema, source.iter_batches(batch_size=BATCH_ROWS)


def solve_parquet(
    path: str,
    output: str,
    *,
    column: str | None = None,
    threads: int | None = None,
    count: bool = False,
    limit: int = 2,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
) -> ParquetReport:
    """Solve (or count, with `count`) every puzzle of a Parquet file into another one.

    The output has the input's columns and a `solution` column (string, null where
    there is no solution) or a `count` column (int32, up to `limit`).
    """
    pa, pq = _pyarrow()
    name, schema, batches = record_batches(path, column)
    answer = "count" if count else "solution"
    if answer in schema.names:
        answer = f"{answer}_found"
    out_schema = schema.append(pa.field(answer, pa.int32() if count else pa.string()))
    report = ParquetReport()
    start = time.perf_counter()
    with pq.ParquetWriter(output, out_schema) as writer:
        for batch in batches:
            puzzles = batch.column(name)
            geometry: dict[str, Any] = {"box": box, "alphabet": alphabet, "max_nodes": max_nodes}
            if count:
                answers = count_many(puzzles, limit, threads=threads, output="arrow", **geometry)
                found = sum(1 for c in answers.to_numpy() if c > 0)
            else:
                answers = solve_many(puzzles, threads=threads, output="arrow", **geometry)
                found = len(answers) - answers.null_count
            report.rows += len(batch)
            report.solved += found
            report.no_solution += len(batch) - found
            columns = [*batch.columns, answers]
            writer.write_batch(pa.RecordBatch.from_arrays(columns, schema=out_schema))
    report.seconds = time.perf_counter() - start
    return report


def rate_parquet(
    path: str,
    output: str,
    *,
    column: str | None = None,
    threads: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
) -> int:
    """Rate every puzzle of a Parquet file into another one with the rating columns added.

    A rating field whose name the input already uses gets the suffix `_rated`.

    Returns the number of rows. Raises ValueError naming a puzzle that cannot be rated.
    """
    from .rating import rate_many

    pa, pq = _pyarrow()
    name, _, batches = record_batches(path, column)
    rows = 0
    writer = None
    try:
        for batch in batches:
            ratings = rate_many(
                batch.column(name), threads=threads, box=box, alphabet=alphabet, output="arrow"
            )
            columns = [*batch.columns, *ratings.flatten()]
            taken = set(batch.schema.names)
            rated = [f"{f}_rated" if f in taken else f for f in frames.RATING_FIELDS]
            names = [*batch.schema.names, *rated]
            table = pa.RecordBatch.from_arrays(columns, names=names)
            if writer is None:
                writer = pq.ParquetWriter(output, table.schema)
            writer.write_batch(table)
            rows += len(batch)
    finally:
        if writer is not None:
            writer.close()
    return rows


def write_generated(path: str, puzzles: list[str], seed: int | None) -> None:
    """Write generated puzzles with their solution, clue count, level and seed."""
    from .rating import rate_many

    pa, pq = _pyarrow()
    solutions = solve_many(puzzles, output="arrow")
    ratings = rate_many(puzzles, output="arrow")
    clues = [sum(ch != "." for ch in p) for p in puzzles]
    table = pa.table(
        {
            "puzzle": pa.array(puzzles, type=pa.string()),
            "solution": solutions,
            "clues": pa.array(clues, type=pa.int32()),
            "level": ratings.field("level"),
            "name": ratings.field("name"),
            "seed": pa.array([seed] * len(puzzles), type=pa.int64()),
        }
    )
    pq.write_table(table, path)


def add_column_option(parser: Any) -> None:
    """The `--column` option of the commands that read Parquet."""
    parser.add_argument(
        "--column",
        default=None,
        metavar="NAME",
        help=f"Parquet input: the puzzle column (default: {' / '.join(PUZZLE_COLUMNS)})",
    )


def cli_solve(args: Any) -> int:
    """`sudoku-fast solve FILE.parquet -o OUT.parquet`: exit status 0, or 3 for no output."""
    import sys

    if args.output == "-":
        raise ValueError("Parquet input writes Parquet: name the output file with -o OUT.parquet")
    report = solve_parquet(
        args.file,
        args.output,
        column=args.column,
        threads=args.threads,
        count=args.count,
        limit=args.limit,
        box=args.box,
        alphabet=args.alphabet,
        max_nodes=args.max_nodes,
    )
    if not args.quiet:
        rate = report.rows / report.seconds if report.seconds > 0 else 0.0
        print(
            f"{args.file}: {report.rows:,} puzzles in {report.seconds:.2f} s ({rate:,.0f}/s): "
            f"{report.solved:,} with a solution, {report.no_solution:,} without",
            file=sys.stderr,
        )
    return 0
