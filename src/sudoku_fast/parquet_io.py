"""Parquet files in the command line: read puzzles by row groups, write answers beside them.

A Parquet file is read one record batch at a time (at most a row group), so memory
stays flat however many rows it holds. The puzzle column (chosen by name; by default
the first of `puzzle`, `quizzes`, `quiz`, `puzzles`) goes to the engine through
`frames` straight from its Arrow buffers; the answers are appended as a new column
(`solution`, `count` or the rating fields) and every other column of the input is
written unchanged, in input order. Needs pyarrow (the `arrow` extra).

Decoding and encoding Parquet cost about as much CPU as solving easy puzzles, so the
three overlap (`pipeline`): while the engine works on one batch, the next is read and
the previous one written, each on its own thread (pyarrow releases the GIL for both).
The output is compressed with the puzzle column's codec (or the one asked for), and the
puzzle and answer columns are written without a dictionary: puzzles and solutions are
nearly all distinct, so a dictionary would be built only to be dropped.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from . import frames
from .batch import (
    DEFAULT_MAX_NODES,
    SearchLimitExceeded,
    count_many,
    renumber_error,
    solve_many,
)

PUZZLE_COLUMNS = ("puzzle", "quizzes", "quiz", "puzzles")
# Rows read at a time: enough to keep every engine thread busy; three batches are in
# memory at once (being read, solved, written).
BATCH_ROWS = 131_072
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
    return name, schema, _by_row_group(source)


def _by_row_group(source: Any) -> Iterator[Any]:
    """The record batches of a ParquetFile, one row group at a time.

    One reader over the whole file would pre-buffer every row group's bytes at once,
    so memory would grow with the file.
    """
    for group in range(source.num_row_groups):
        yield from source.iter_batches(batch_size=BATCH_ROWS, row_groups=[group])


# Parquet's codec names as the metadata gives them -> the names ParquetWriter takes.
_CODECS = {"UNCOMPRESSED": "none", "LZ4_RAW": "lz4", "LZ4": "lz4"}


def input_codec(path: str, name: str) -> str:
    """The codec of column `name` in the first row group of `path` ("snappy" if none)."""
    _, pq = _pyarrow()
    metadata = pq.ParquetFile(path).metadata
    if metadata.num_row_groups == 0:
        return "snappy"
    group = metadata.row_group(0)
    for i in range(group.num_columns):
        chunk = group.column(i)
        if chunk.path_in_schema == name:
            codec = str(chunk.compression).upper()
            return _CODECS.get(codec, codec.lower())
    return "snappy"


CODECS = ("input", "none", "snappy", "lz4", "zstd", "gzip", "brotli")


def writer_options(
    path: str, name: str, compression: str, columns: list[str], plain: list[str]
) -> dict[str, Any]:
    """ParquetWriter keywords: the codec (or the input's) and the columns given a dictionary.

    `columns` are the output's columns; those in `plain` (the puzzles and the answers,
    nearly all distinct) are written without a dictionary.
    """
    if compression not in CODECS:
        raise ValueError(f"compression must be one of {', '.join(CODECS)}, got {compression!r}")
    codec = input_codec(path, name) if compression == "input" else compression
    return {"compression": codec, "use_dictionary": [c for c in columns if c not in plain]}


def pipeline(
    batches: Iterator[Any], answer: Callable[[Any], Any], write: Callable[[Any, Any], None]
) -> None:
    """Call `write(batch, answer(batch))` for every batch, in order, overlapping the steps.

    `answer` runs in the caller (on the engine's threads) while one thread reads the
    next batch and another writes the previous answers; at most three batches are held
    at once. An error in any step stops the loop and is raised here once the reading
    and writing threads have finished what they were doing.
    """
    with (
        ThreadPoolExecutor(1, thread_name_prefix="sudoku_fast_read") as reader,
        ThreadPoolExecutor(1, thread_name_prefix="sudoku_fast_write") as writer,
    ):
        reading = reader.submit(next, batches, None)
        writing = None
        while (batch := reading.result()) is not None:
            reading = reader.submit(next, batches, None)
            result = answer(batch)
            if writing is not None:
                writing.result()
            writing = writer.submit(write, batch, result)
        if writing is not None:
            writing.result()


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
    compression: str = "input",
) -> ParquetReport:
    """Solve (or count, with `count`) every puzzle of a Parquet file into another one.

    The output has the input's columns and a `solution` column (string, null where
    there is no solution) or a `count` column (int32, up to `limit`), compressed with
    `compression` (one of CODECS; "input": the puzzle column's codec in the input).
    """
    pa, pq = _pyarrow()
    name, schema, batches = record_batches(path, column)
    answer = "count" if count else "solution"
    if answer in schema.names:
        answer = f"{answer}_found"
    out_schema = schema.append(pa.field(answer, pa.int32() if count else pa.string()))
    report = ParquetReport()
    keywords: dict[str, Any] = {"box": box, "alphabet": alphabet, "max_nodes": max_nodes}

    def answer_batch(batch: Any) -> Any:
        puzzles = batch.column(name)
        try:
            if count:
                answers = count_many(puzzles, limit, threads=threads, output="arrow", **keywords)
                found = int((answers.to_numpy() > 0).sum())
            else:
                answers = solve_many(puzzles, threads=threads, output="arrow", **keywords)
                found = len(answers) - answers.null_count
        except (ValueError, TypeError, SearchLimitExceeded) as err:
            raise renumber_error(err, report.rows, f"{path}: ") from None
        report.rows += len(batch)
        report.solved += found
        report.no_solution += len(batch) - found
        return answers

    def write(batch: Any, answers: Any) -> None:
        columns = [*batch.columns, answers]
        writer.write_batch(pa.RecordBatch.from_arrays(columns, schema=out_schema))

    start = time.perf_counter()
    with pq.ParquetWriter(
        output,
        out_schema,
        **writer_options(path, name, compression, out_schema.names, [name, answer]),
    ) as writer:
        pipeline(batches, answer_batch, write)
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
    compression: str = "input",
) -> int:
    """Rate every puzzle of a Parquet file into another one with the rating columns added.

    A rating field whose name the input already uses gets the suffix `_rated`; the
    output is compressed as `solve_parquet` does it.

    Returns the number of rows. Raises ValueError naming a puzzle that cannot be rated.
    """
    from .rating import rate_many

    pa, pq = _pyarrow()
    name, _, batches = record_batches(path, column)
    rows = 0
    writers: list[Any] = []

    def rate_batch(batch: Any) -> Any:
        nonlocal rows
        first, rows = rows, rows + len(batch)
        try:
            return rate_many(
                batch.column(name), threads=threads, box=box, alphabet=alphabet, output="arrow"
            )
        except (ValueError, TypeError, SearchLimitExceeded) as err:
            raise renumber_error(err, first, f"{path}: ") from None

    def write(batch: Any, ratings: Any) -> None:
        columns = [*batch.columns, *ratings.flatten()]
        taken = set(batch.schema.names)
        rated = [f"{f}_rated" if f in taken else f for f in frames.RATING_FIELDS]
        names = [*batch.schema.names, *rated]
        table = pa.RecordBatch.from_arrays(columns, names=names)
        if not writers:
            options = writer_options(path, name, compression, table.schema.names, [name])
            writers.append(pq.ParquetWriter(output, table.schema, **options))
        writers[0].write_batch(table)

    try:
        pipeline(batches, rate_batch, write)
    finally:
        for writer in writers:
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
    """The `--column` and `--compression` options of the commands that read Parquet."""
    parser.add_argument(
        "--column",
        default=None,
        metavar="NAME",
        help=f"Parquet input: the puzzle column (default: {' / '.join(PUZZLE_COLUMNS)})",
    )
    parser.add_argument(
        "--compression",
        choices=CODECS,
        default="input",
        help="Parquet output: the codec (default 'input': the puzzle column's codec)",
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
        compression=args.compression,
    )
    if not args.quiet:
        rate = report.rows / report.seconds if report.seconds > 0 else 0.0
        print(
            f"{args.file}: {report.rows:,} puzzles in {report.seconds:.2f} s ({rate:,.0f}/s): "
            f"{report.solved:,} with a solution, {report.no_solution:,} without",
            file=sys.stderr,
        )
    return 0
