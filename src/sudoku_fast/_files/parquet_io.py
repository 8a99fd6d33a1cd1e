"""Parquet files in the command line: read puzzles by row groups, write answers beside them.

A Parquet file is handled one row group at a time, so memory stays flat however many
rows it holds. Only the puzzle column (chosen by name; by default the first column named
`quizzes`, `quiz`, `puzzles` or `puzzle`, in any case) is read and decoded; it goes to
the engine through `frames` straight from its Arrow buffers. The answers are added as
new columns (`solution`, `count` or the rating fields), encoded by pyarrow with no
dictionary (puzzles and solutions are nearly all distinct) and compressed with the
puzzle column's codec or the one asked for. Every other column of the input is copied
into the output byte for byte, compressed pages and all, under a footer rewritten to
point at the new places (`_Splice`, with `parquet_footer`): decoding, encoding and
compressing columns that do not change cost as much CPU as solving easy puzzles. The
output is an ordinary Parquet file with the input's columns, rows and order. Files that
cannot be copied that way, and every file with `rewrite`, are read batch by batch and
written again by pyarrow. Needs pyarrow (the `arrow` extra).

Reading, solving and writing overlap: while the engine works on one row group, the
next ones' puzzles are read and the answers of the previous ones encoded, on as many
threads as the engine gets (`ordered_pipeline`; pyarrow and the kernel's file copy
release the GIL), and one more thread writes the row groups out in order. Files that
are rewritten overlap one read, one solve and one write (`pipeline`).
"""

from __future__ import annotations

import contextlib
import os
import re
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from .._base.checks import DEFAULT_MAX_NODES
from .._base.columns import (
    RULES_COLUMNS,
    SOLUTION_COLUMNS,
    answer_column,
    check_on_error,
    find_column,
    puzzle_column,
    rating_columns,
)
from .._base.errors import SearchLimitExceeded, renumber_error
from .._base.grid import geometry_for, parse, parse_grid, parse_marks_grid
from .._base.optional import optional
from .._base.rules import Rules, as_rules
from .._columns import check as column_check
from .._columns import frames
from .._engine.encode import as_text
from .._parallel.threads import resolve_threads
from ..generator import VariantPuzzle
from ..grid import solution_problem
from ..rating import rate_many
from ..solving import count_many, solve_many
from . import parquet_footer as pf
from .parquet_footer import Struct
from .stream import other_size, replacing

# Rows read at a time: enough to keep every engine thread busy; three batches are in
# memory at once (being read, solved, written).
BATCH_ROWS = 131_072


def _pyarrow() -> tuple[Any, Any]:
    return optional("pyarrow", "pyarrow.parquet", needed_for="reading Parquet", extra="arrow")


@dataclass
class ParquetReport:
    """What a Parquet run did: rows, seconds, how many had 0 / 1+ solutions, problems.

    `malformed` rows (null or unreadable puzzles, with on_error "mark" or "skip"),
    `undecided` ones (out of search nodes) and, when rating, `not_unique` ones get a
    null answer; `checked` solutions were verified, `mismatches` of them failed (see
    `solve_parquet`); `problems` holds "row R: reason" for each, in row order.
    """

    rows: int = 0
    solved: int = 0
    no_solution: int = 0
    malformed: int = 0
    not_unique: int = 0
    undecided: int = 0
    checked: int = 0
    mismatches: int = 0
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)


class MalformedRow(ValueError):
    """A row of a Parquet file whose puzzle cannot be read (with on_error "fail")."""


def _by_row_group(source: Any, path: str) -> Iterator[Any]:
    """The record batches of a ParquetFile, one row group at a time.

    One reader over the whole file would pre-buffer every row group's bytes at once,
    so memory would grow with the file.
    """
    for group in range(source.num_row_groups):
        with _naming(path, f"row group {group}: "):
            yield from source.iter_batches(batch_size=BATCH_ROWS, row_groups=[group])


@contextlib.contextmanager
def _naming(path: str, where: str = "") -> Iterator[None]:
    """Put `path` (and `where`) before pyarrow's errors, which name no file: a damaged
    file, one that is no Parquet, a failed read. Errors that name their file pass."""
    pa, _ = _pyarrow()
    try:
        yield
    except (OSError, pa.ArrowException) as err:
        if isinstance(err, OSError) and err.filename is not None:
            raise
        raise type(err)(f"{path}: {where}{err}") from None


def _open_parquet(path: str) -> Any:
    """pq.ParquetFile(path), its errors naming the file."""
    _, pq = _pyarrow()
    with _naming(path):
        return pq.ParquetFile(path)


# Parquet's codec names as the metadata gives them -> the names ParquetWriter takes.
_CODECS = {"UNCOMPRESSED": "none", "LZ4_RAW": "lz4", "LZ4": "lz4"}


def row_count(path: str) -> int | None:
    """The number of rows of a Parquet file, from its footer (None if it cannot be read)."""
    try:
        return int(_open_parquet(path).metadata.num_rows)
    except (OSError, ValueError):
        return None


def input_codec(path: str, name: str) -> str:
    """The codec of column `name` in the first row group of `path` ("snappy" if none)."""
    metadata = _open_parquet(path).metadata
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


def ordered_pipeline(
    items: Sequence[int],
    read: Callable[[int], Any],
    answer: Callable[[Any], Any],
    encode: Callable[[int, Any], Any],
    commit: Callable[[int, Any], None],
    *,
    workers: int,
    window: int,
) -> None:
    """For each item, in order: `commit(i, encode(i, answer(read(i))))`, the steps overlapping.

    `answer` runs in the caller, one item at a time and in order (the engine spreads
    each over its own threads), never waiting for an earlier item to be written while
    a later one is read. Reads and encodes run on `workers` threads, so several row
    groups are decompressed and compressed at once; at most `window` items are read
    ahead and at most `window` answered and not yet committed, so memory stays
    bounded. `commit` runs on one thread of its own, in item order. An error in any
    step stops the loop: what was queued is cancelled, and the error is raised here
    once the threads are idle.
    """
    window = max(1, window)
    upcoming = iter(items)
    reads: deque[tuple[int, Future[Any]]] = deque()
    commits: deque[tuple[Future[None], Future[Any]]] = deque()  # (commit, its encode)
    with (
        ThreadPoolExecutor(max(1, workers), thread_name_prefix="sudoku_fast_io") as pool,
        ThreadPoolExecutor(1, thread_name_prefix="sudoku_fast_write") as writer,
    ):
        failed = threading.Event()  # set once a write fails: no later item is written

        def write(i: int, encoding: Future[Any]) -> None:
            if failed.is_set():
                raise RuntimeError(f"item {i} not written: an earlier one failed")
            try:
                commit(i, encoding.result())
            except BaseException:
                failed.set()
                raise

        try:
            while True:
                while commits and commits[0][0].done():
                    commits.popleft()[0].result()  # raises a failed encode or commit
                if len(commits) >= window:
                    commits.popleft()[0].result()  # answers pile up: wait for the oldest
                while len(reads) < window:
                    item = next(upcoming, None)
                    if item is None:
                        break
                    reads.append((item, pool.submit(read, item)))
                if not reads:
                    break
                i, reading = reads.popleft()
                answers = answer(reading.result())
                encoding = pool.submit(encode, i, answers)
                commits.append((writer.submit(write, i, encoding), encoding))
            while commits:
                commits.popleft()[0].result()
        except BaseException:
            for _, future in reads:
                future.cancel()
            for committing, encoding in commits:
                committing.cancel()
                encoding.cancel()
            raise


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
    marks: bool = False,
    verify: bool = False,
    on_error: str = "fail",
    compression: str = "input",
    rewrite: bool = False,
    progress: Callable[[int], None] | None = None,
    rules: Rules | None = None,
) -> ParquetReport:
    """Solve (or count, with `count`) every puzzle of a Parquet file into another one.

    `progress`, when given, is called with the number of rows answered so far after each
    batch (for a progress bar: the file's row count is in its footer).

    The output has the input's columns and a `solution` column (string, null where
    there is no solution) or a `count` column (int32, up to `limit`), compressed with
    `compression` (one of CODECS; "input": the puzzle column's codec in the input).
    The input's columns are copied as they are stored (see `add_columns`); with
    `rewrite`, they are decoded and encoded again, with `compression` too.

    A binary, large-string, view or dictionary puzzle column is read as strings. A row
    whose puzzle runs out of `max_nodes` search nodes gets a null answer and is counted
    as undecided. `marks` reads every puzzle as pencil marks (see `solve_many`). A row whose puzzle
    is null or malformed raises MalformedRow naming it with `on_error` "fail" (and no
    output is left); with "mark" or "skip" its answer is null and the report counts it
    and says why (the rows of a Parquet file are kept: "skip" differs from "mark" only
    in the command line's exit status). With `verify`, every solution found is checked
    by the rules independently of the engine (`is_solution`, and the pencil marks) and
    against the input's `solutions` or `solution` column (any case) when there is one;
    with `count`, a row whose given solution is valid must count at least 1. Failures
    are counted in the report.

    Variant rules: `rules` apply to every row, and a string column named `rules` (any
    case; not the puzzle column) gives each row rules of its own, as a CSV file's does
    (JSON or preset names; null or empty: none), joined with `rules` (`Rules.merge`).
    A row whose rules are malformed or do not fit its grid is a malformed row.
    """
    check_on_error(on_error)
    pa, _ = _pyarrow()
    report = ParquetReport()
    keywords: dict[str, Any] = {
        "box": box,
        "alphabet": alphabet,
        "max_nodes": max_nodes,
        "marks": marks,
        "threads": threads,
    }
    names = list(_open_parquet(path).schema_arrow.names)
    name = puzzle_column(names, column)
    # The given solutions, as in a CSV file: the first `solutions` / `solution` column.
    found = find_column([n if n != name else "" for n in names], SOLUTION_COLUMNS)
    given = names[found] if verify and found >= 0 else None
    own_rules = _rules_column(path, names, name)
    row_rules = RowRules(rules)
    answer = answer_column(names, count)
    kind = pa.int32() if count else pa.string()

    def engine(puzzles: Any, rows: list[int] | None = None) -> tuple[Any, list[int]]:
        """The answers (null where undecided) and the rows out of search nodes; `rows`:
        the batch's rows the puzzles are (None: all), for their rules."""
        under = row_rules.of(rows)
        try:
            if count:
                return count_many(puzzles, limit, output="arrow", rules=under, **keywords), []
            return solve_many(puzzles, output="arrow", rules=under, **keywords), []
        except SearchLimitExceeded as err:
            answers = err.partial
            if count:  # -1 marks an undecided count
                answers = pa.array(
                    [None if c < 0 else c for c in answers.to_pylist()], type=pa.int32()
                )
            return answers, list(err.indices)

    def answer_rows(table: Any) -> Any:
        first = report.rows
        puzzles = table.column(0)
        if not pa.types.is_string(puzzles.type):
            puzzles = _as_strings(puzzles)
        bad_rules = row_rules.read(table.column(own_rules) if own_rules else None)
        if bad_rules and on_error == "fail":
            row = min(bad_rules)
            raise MalformedRow(f"{path}: row {first + row}: {bad_rules[row]}")
        answers: Any = None
        bad: dict[int, str] = {}
        undecided: list[int] = []
        if not bad_rules:  # else answered around the rows already known to be bad
            try:
                answers, undecided = engine(puzzles)
            except (ValueError, TypeError) as err:
                if on_error == "fail":
                    raise MalformedRow(
                        f"{path}: {_failed_row(err, puzzles, first, keywords)}"
                    ) from None
        if answers is None:
            answers, bad, undecided = _answers_around_bad_rows(
                puzzles, engine, kind, keywords, bad_rules
            )
        if isinstance(answers, pa.ChunkedArray):
            answers = answers.combine_chunks()
        if keywords["box"] is None and keywords["alphabet"] is None:
            _pin_geometry(keywords, puzzles, bad)
        report.rows += len(puzzles)
        if progress is not None:
            progress(report.rows)
        report.malformed += len(bad)
        found = (
            int((answers.fill_null(0).to_numpy() > 0).sum())
            if count
            else (len(answers) - answers.null_count)
        )
        report.solved += found
        report.no_solution += len(puzzles) - found - len(bad) - len(undecided)
        report.undecided += len(undecided)
        problems = _problems(bad, undecided, max_nodes)
        if verify:
            given_column = table.column(given) if given else None
            # Undecided rows have no answer to check: they keep their "unknown" message.
            skipped = {**bad, **dict.fromkeys(undecided, "undecided")}
            wrong = None
            shape = (keywords["box"], keywords["alphabet"])
            if not marks and not row_rules.any:
                wrong = column_check.check_columns(
                    puzzles, answers, given_column, skipped, count, *shape
                )
            if wrong is None:  # marks, rules, or a given solution the column reader refuses
                wrong = column_check.check_rows(
                    puzzles.to_pylist(),
                    answers.to_pylist(),
                    given_column.to_pylist() if given_column is not None else None,
                    skipped,
                    count,
                    marks,
                    *shape,
                    solves=row_rules.solves(*shape) if row_rules.any else None,
                )
            report.checked += len(puzzles) - len(skipped)
            report.mismatches += len(wrong)
            problems.update(wrong)
        report.problems.extend(f"row {first + i}: {problems[i]}" for i in sorted(problems))
        return pa.table([answers], schema=pa.schema([pa.field(answer, kind)]))

    start = time.perf_counter()
    add_columns(
        path,
        output,
        name,
        answer_rows,
        compression=compression,
        rewrite=rewrite,
        fields=pa.schema([pa.field(answer, kind)]),
        threads=threads,
        also=[c for c in (given, own_rules) if c],
    )
    report.seconds = time.perf_counter() - start
    return report


def _rules_column(path: str, names: list[str], puzzles: str) -> str | None:
    """The name of a Parquet file's rules column (see `solve_parquet`), or None."""
    found = find_column([n if n != puzzles else "" for n in names], RULES_COLUMNS)
    if found < 0:
        return None
    pa, _ = _pyarrow()
    kind = _open_parquet(path).schema_arrow.field(names[found]).type
    if pa.types.is_dictionary(kind):
        kind = kind.value_type
    if not (pa.types.is_string(kind) or pa.types.is_large_string(kind) or pa.types.is_null(kind)):
        raise ValueError(
            f"{path}: column {names[found]!r} must hold rules as text (JSON or preset "
            f"names), not {kind}"
        )
    return names[found]


class RowRules:
    """The variant rules of each row of a batch: the run's joined with the row's own.

    Each distinct text of a rules column is read once per run (files repeat a few rule
    sets many times), so equal rows share one `Rules` (and its checked engine record).
    """

    def __init__(self, run: Rules | None) -> None:
        self.run = run
        self.batch: list[Rules | None] | None = None  # None: every row's are `run`
        self._read: dict[str, Rules | ValueError | None] = {}

    def read(self, column: Any) -> dict[int, str]:
        """Take the batch's rules column (None: no such column); the rows whose rules
        cannot be read, and why."""
        if column is None:
            return {}
        bad: dict[int, str] = {}
        out: list[Rules | None] = []
        for i, text in enumerate(column.to_pylist()):
            own = self._own(text.strip() if isinstance(text, str) else "")
            if isinstance(own, ValueError):
                bad[i] = str(own)
                own = None
            out.append(own)
        self.batch = out if any(r is not None for r in out) else None
        return bad

    @property
    def any(self) -> bool:
        """Whether some row of the batch has variant rules."""
        return self.run is not None or self.batch is not None

    def _own(self, text: str) -> Rules | ValueError | None:
        if text not in self._read:
            try:
                own = as_rules(text) if text else None
                if self.run is not None:
                    own = self.run if own is None else self.run.merge(own)
                self._read[text] = own
            except (ValueError, TypeError) as err:
                reason = str(err)
                self._read[text] = ValueError(
                    reason if reason.startswith("rules") else f"rules: {reason}"
                )
        return self._read[text]

    def of(self, rows: list[int] | None) -> Rules | list[Rules | None] | None:
        """What `rules=` takes for the batch's rows `rows` (None: all of them)."""
        if self.batch is None:
            return self.run
        if rows is None:
            return self.batch
        return [self.batch[i] for i in rows]

    def solves(
        self, box: tuple[int, int] | None, alphabet: str | None
    ) -> Callable[[int, str, str], bool]:
        """The independent check of `verify` under each row's rules: whether a grid
        solves row i's puzzle (`grid.solution_problem`, not the engines)."""
        batch = self.batch

        def solves(i: int, grid: str, puzzle: str) -> bool:
            rules = self.run if batch is None else batch[i]
            try:
                problem = solution_problem(grid, puzzle, box=box, alphabet=alphabet, rules=rules)
            except ValueError:
                return False
            return problem is None

        return solves


def _answers_around_bad_rows(
    puzzles: Any,
    engine: Callable[[Any, list[int]], tuple[Any, list[int]]],
    kind: Any,
    keywords: dict[str, Any],
    known: dict[int, str] | None = None,
) -> tuple[Any, dict[int, str], list[int]]:
    """The answers of a batch with malformed rows: null for those, why each is bad, and
    the rows out of search nodes (see `engine` in `solve_parquet`).

    Each row is parsed on its own first (a null, a bad character, a wrong length); the
    rest are answered together, and a row only the batch refuses (one of another size
    than the others) is set aside by the index its error names, until none is left.
    `known`: rows already found malformed (their rules), and why. `engine` is called
    with the puzzles and the batch's rows they are.
    """
    pa, _ = _pyarrow()
    items = puzzles.to_pylist()
    plain = _plain_rows(puzzles, items, keywords)
    bad: dict[int, str] = dict(known or {})
    for i, item in enumerate(items):
        if i in bad or (plain is not None and plain[i]):
            continue
        reason = _row_problem(item, keywords)
        if reason is not None:
            bad[i] = reason
    while True:
        good = [i for i in range(len(items)) if i not in bad]
        try:
            found, undecided = engine(pa.array([items[i] for i in good], type=pa.string()), good)
            break
        except (ValueError, TypeError) as err:
            match = _ITEM_PREFIX.match(str(err))
            if match is None or int(match[1]) >= len(good):
                raise
            row = good[int(match[1])]
            other = _size_problem(items[row], items[good[0]], keywords)
            bad[row] = other or str(err)[match.end() :]
    values: list[Any] = [None] * len(items)
    for i, answer in zip(good, found.to_pylist(), strict=True):
        values[i] = answer
    return pa.array(values, type=kind), bad, [good[k] for k in undecided]


def _failed_row(err: Exception, puzzles: Any, first: int, keywords: dict[str, Any]) -> str:
    """The message of a batch's error with `on_error` "fail": the row named as a row (as
    the other messages about a Parquet file name it), and a puzzle of another size said
    to be one."""
    match = _ITEM_PREFIX.match(str(err))
    if match is not None and int(match[1]) < len(puzzles):
        row = int(match[1])
        other = _size_problem(puzzles[row].as_py(), puzzles[0].as_py(), keywords)
        if other is not None:
            return f"row {first + row}: {other}"
    return _ITEM_PREFIX.sub(r"row \1: ", str(renumber_error(err, first)), 1)


def _size_problem(item: object, first: object, keywords: dict[str, Any]) -> str | None:
    """Why a batch refused `item` when that is its size: another than the one `box` /
    `alphabet` set, or else than its first puzzle's (`first`), which decides it as in a
    text file. None when that is not why."""
    box, alphabet = keywords["box"], keywords["alphabet"]
    if not isinstance(item, str):
        return None
    try:
        if box is not None or alphabet is not None:
            size = geometry_for(None, box, alphabet).size
        else:
            parser = parse_marks_grid if keywords["marks"] else parse_grid
            size = parser(first)[0].size  # type: ignore[arg-type]
    except (ValueError, TypeError):
        return None
    return other_size(item, size, keywords["marks"])


def _require_text(path: str, name: str, kind: Any) -> None:
    """ValueError unless a puzzle column of type `kind` holds text: strings or bytes of
    any width, or a dictionary of them (numbers would make every row malformed). A
    column of nulls only is let through: each row is a missing puzzle."""
    pa, _ = _pyarrow()
    if pa.types.is_dictionary(kind):
        kind = kind.value_type
    text = (
        pa.types.is_null(kind)
        or pa.types.is_string(kind)
        or pa.types.is_large_string(kind)
        or pa.types.is_binary(kind)
        or pa.types.is_large_binary(kind)
        or str(kind) in ("string_view", "binary_view")
    )
    if not text:
        raise ValueError(
            f"{path}: column {name!r} holds {kind}, not text: puzzles are strings "
            "(name the puzzle column with column=)"
        )


def _as_strings(column: Any) -> Any:
    """A puzzle column of another type as strings: binary as UTF-8 (an invalid sequence
    becomes U+FFFD, which the parser then refuses), dictionaries and views decoded."""
    pa, _ = _pyarrow()
    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks()
    kind = column.type
    if pa.types.is_dictionary(kind):
        column = column.dictionary_decode()
        kind = column.type
    if pa.types.is_binary(kind) or pa.types.is_large_binary(kind):
        try:
            return column.cast(pa.string())
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            texts = [as_text(item) for item in column.to_pylist()]
            return pa.array(texts, type=pa.string())
    try:
        return column.cast(pa.string())  # large_string, string_view
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return column  # another type: the batch functions name the rows they refuse


def _pin_geometry(keywords: dict[str, Any], puzzles: Any, bad: dict[int, str]) -> None:
    """Fix the geometry of the rest of the file to that of its first good puzzle.

    As in a text file, the first puzzle decides the size of all: a later batch that
    begins with a puzzle of another size does not switch the rest of that batch to it.
    """
    first = next((i for i in range(len(puzzles)) if i not in bad), None)
    if first is None:
        return
    text = puzzles[first].as_py()
    geometry = (parse_marks_grid if keywords["marks"] else parse_grid)(text)[0]
    keywords["box"] = (geometry.box_rows, geometry.box_cols)
    if geometry.symbols != geometry_for(geometry.size).symbols:
        keywords["alphabet"] = geometry.symbols


_ITEM_PREFIX = re.compile(r"puzzle (\d+): ")


def _plain_rows(puzzles: Any, items: list[Any], keywords: dict[str, Any]) -> Any:
    """Which rows are plain puzzles of the batch's geometry (one character per cell, each
    a symbol or an empty mark), found in one pass; None when that cannot be told.

    Only the other rows need the parser, one by one, to say what is wrong with them.
    """
    import numpy as np

    if keywords["marks"]:
        return None
    try:
        if keywords["box"] is not None or keywords["alphabet"] is not None:
            geometry = geometry_for(None, keywords["box"], keywords["alphabet"])
        else:
            first = next(item for item in items if item is not None)
            geometry = parse_grid(first)[0]
    except (StopIteration, ValueError, TypeError):
        return None
    chars = "".join(sorted(set(geometry.symbols + ".0")))
    pattern = f"^[{re.escape(chars)}]{{{geometry.cells}}}$"
    import pyarrow.compute as pc

    matched = pc.match_substring_regex(puzzles, pattern)
    return np.asarray(matched.fill_null(False))


def _row_problem(item: object, keywords: dict[str, Any]) -> str | None:
    """Why one row's puzzle cannot be read on its own, or None when it can."""
    if item is None:
        return "missing (null)"
    try:
        parse(
            item,  # type: ignore[arg-type]
            box=keywords["box"],
            alphabet=keywords["alphabet"],
            marks=keywords["marks"],
        )
    except (ValueError, TypeError) as err:
        return _size_problem(item, item, keywords) or str(err)
    return None


def rate_parquet(
    path: str,
    output: str,
    *,
    column: str | None = None,
    threads: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    score: bool = False,
    on_error: str = "fail",
    compression: str = "input",
    rewrite: bool = False,
    progress: Callable[[int], None] | None = None,
    rules: Rules | None = None,
) -> ParquetReport:
    """Rate every puzzle of a Parquet file into another one with the rating columns added.

    `progress` as in `solve_parquet`.

    The columns are the fields of `rate_many`'s Arrow output (with `score`, the Sudoku
    Explainer score's too; `max_nodes` as there). A rating field whose name the input
    already uses gets the suffix `_rated` (`_rated_2`, ... while that is taken too, see
    `rating_columns`); the output is written as `solve_parquet` writes it.

    A puzzle that cannot be rated (malformed or null, without exactly one solution, or
    undecided within `max_nodes`) raises ValueError (SearchLimitExceeded) naming it with
    `on_error` "fail"; with "mark" or "skip" its rating is null and the report counts it
    (`malformed`, `not_unique`, `undecided`) and says why. Returns the report (`solved`:
    the rows rated). Variant rules (`rules`, a `rules` column) as in `solve_parquet`.
    """
    check_on_error(on_error)
    pa, _ = _pyarrow()
    taken = _open_parquet(path).schema_arrow.names
    name = puzzle_column(list(taken), column)
    own_rules = _rules_column(path, list(taken), name)
    row_rules = RowRules(rules)
    kinds = frames.rating_arrow_type(score)
    rated = rating_columns([f.name for f in kinds], taken)
    report = ParquetReport()
    keywords: dict[str, Any] = {"box": box, "alphabet": alphabet, "marks": False}

    def rate(puzzles: Any, rows: list[int] | None = None) -> Any:
        return rate_many(
            puzzles,
            threads=threads,
            box=keywords["box"],
            alphabet=keywords["alphabet"],
            max_nodes=max_nodes,
            score=score,
            output="arrow",
            rules=row_rules.of(rows),
        )

    def rate_rows(table: Any) -> Any:
        first = report.rows
        puzzles = table.column(0)
        if not pa.types.is_string(puzzles.type):
            puzzles = _as_strings(puzzles)
        bad: dict[int, str] = {}
        undecided: list[int] = []
        not_unique: dict[int, str] = {}
        bad_rules = row_rules.read(table.column(own_rules) if own_rules else None)
        if bad_rules and on_error == "fail":
            row = min(bad_rules)
            raise ValueError(f"{path}: row {first + row}: {bad_rules[row]}")
        ratings: Any = None
        if not bad_rules:  # else rated around the rows already known to be bad
            try:
                ratings = rate(puzzles)
            except (ValueError, TypeError, SearchLimitExceeded) as err:
                if on_error == "fail":
                    raise renumber_error(err, first, f"{path}: ") from None
        if ratings is None:
            ratings, bad, undecided, not_unique = _ratings_around_bad_rows(
                puzzles, rate, keywords, max_nodes, row_rules, bad_rules
            )
        if isinstance(ratings, pa.ChunkedArray):
            ratings = ratings.combine_chunks()
        if keywords["box"] is None and keywords["alphabet"] is None:
            _pin_geometry(keywords, puzzles, bad)
        problems = {**_problems(bad, undecided, max_nodes), **not_unique}
        report.rows += len(puzzles)
        if progress is not None:
            progress(report.rows)
        report.solved += len(puzzles) - len(problems)
        report.malformed += len(bad)
        report.undecided += len(undecided)
        report.not_unique += len(not_unique)
        report.problems.extend(f"row {first + i}: {problems[i]}" for i in sorted(problems))
        return pa.table(ratings.flatten(), names=rated)

    start = time.perf_counter()
    add_columns(
        path,
        output,
        column,
        rate_rows,
        compression=compression,
        rewrite=rewrite,
        fields=pa.schema([pa.field(r, f.type) for r, f in zip(rated, kinds, strict=True)]),
        threads=threads,
        also=[own_rules] if own_rules else [],
    )
    report.seconds = time.perf_counter() - start
    return report


def _ratings_around_bad_rows(
    puzzles: Any,
    rate: Callable[[Any, list[int]], Any],
    keywords: dict[str, Any],
    max_nodes: int | None,
    row_rules: RowRules,
    known: dict[int, str],
) -> tuple[Any, dict[int, str], list[int], dict[int, str]]:
    """The ratings of a batch with rows that cannot be rated (null for those): with the
    malformed rows and why, the undecided ones, and those without exactly one solution.

    Malformed rows are found as `_answers_around_bad_rows` finds them; the others are
    counted (up to 2) and only the puzzles with exactly one solution are rated.
    """
    pa, _ = _pyarrow()

    def counted(texts: Any, rows: list[int]) -> tuple[Any, list[int]]:
        shape = {"box": keywords["box"], "alphabet": keywords["alphabet"]}
        try:
            return count_many(
                texts, 2, output="arrow", max_nodes=max_nodes, rules=row_rules.of(rows), **shape
            ), []
        except SearchLimitExceeded as err:
            return err.partial, list(err.indices)

    counts, bad, undecided = _answers_around_bad_rows(puzzles, counted, pa.int32(), keywords, known)
    left_out = set(bad) | set(undecided)
    not_unique = {
        i: "no solution" if found == 0 else "several solutions"
        for i, found in enumerate(counts.to_pylist())
        if i not in left_out and found != 1
    }
    unique = [i for i in range(len(puzzles)) if i not in left_out and i not in not_unique]
    ratings = rate(pa.array([puzzles[i].as_py() for i in unique], type=pa.string()), unique)
    if isinstance(ratings, pa.ChunkedArray):
        ratings = ratings.combine_chunks()
    place: list[int | None] = [None] * len(puzzles)
    for k, i in enumerate(unique):
        place[i] = k
    return ratings.take(pa.array(place, type=pa.int64())), bad, undecided, not_unique


def _problems(bad: dict[int, str], undecided: list[int], max_nodes: int | None) -> dict[int, str]:
    """Why rows got a null answer: malformed ones (with the parser's reason), undecided ones."""
    problems = {i: f"malformed: {reason}" for i, reason in bad.items()}
    for i in undecided:
        problems[i] = f"unknown: no answer within {max_nodes:,} search nodes"
    return problems


def add_columns(
    path: str,
    output: str,
    column: str | None,
    answer: Callable[[Any], Any],
    *,
    compression: str = "input",
    rewrite: bool = False,
    fields: Any = None,
    threads: int | None = None,
    also: Sequence[str] = (),
) -> None:
    """Write `output`: the rows of Parquet file `path` with the columns of `answer` added.

    `answer` is called with a pyarrow Table of consecutive runs of rows, in order: the
    puzzle column first, then the columns named in `also`; it returns a Table of as
    many rows (its columns are the ones added; `fields`, their schema, when known in
    advance). The added columns are compressed with `compression` and have no
    dictionary.

    The input's own columns are copied byte for byte (`_Splice`), with no decoding or
    compression: only the puzzle column (and `also`) is read. A file that cannot be copied that way
    (an encrypted one, one with chunks in other files, a row group of more than
    SPLICE_MAX_ROWS rows, no rows) and every file with `rewrite` is read batch by batch
    and written again with every column encoded by pyarrow and compressed with
    `compression`. The file is written under a temporary name beside `output` and
    renamed to it once complete: when an error stops the run, nothing is left of it and
    a file `output` named before is unchanged.

    Copied row groups go through `ordered_pipeline`: their puzzle columns are read and
    the answers encoded on as many threads as `threads` resolves to, with about
    WINDOW_ROWS rows (at least two row groups each way) read ahead or waiting to be
    written.
    """
    if compression not in CODECS:
        raise ValueError(f"compression must be one of {', '.join(CODECS)}, got {compression!r}")
    source = _open_parquet(path)
    name = puzzle_column(list(source.schema_arrow.names), column)
    _require_text(path, name, source.schema_arrow.field(name).type)
    if os.path.exists(output) and os.path.samefile(path, output):
        # Opening it for writing would empty the input before it is read.
        raise ValueError(f"{output}: the output file is the input file; write elsewhere")
    codec = input_codec(path, name) if compression == "input" else compression
    # Written under another name and renamed when complete: a run that fails leaves
    # whatever file `output` named before untouched (and no half-written one).
    with replacing(output) as partial:
        _write_with_columns(
            source, path, partial, name, answer, codec, rewrite, fields, threads, also
        )


def _write_with_columns(
    source: Any,
    path: str,
    output: str,
    name: str,
    answer: Callable[[Any], Any],
    codec: str,
    rewrite: bool,
    fields: Any,
    threads: int | None,
    also: Sequence[str],
) -> None:
    """`add_columns` into the file `output`, by copying row groups or rewriting them."""
    meta = None if rewrite else _spliceable(path)
    if meta is None:
        _rewrite(source, path, output, [name, *also], answer, codec, fields)
        return

    # One reader per thread: a ParquetFile is not meant to be read by several at once.
    local = threading.local()
    opened: list[Any] = []
    opening = threading.Lock()

    def read(group: int) -> Any:
        reader = getattr(local, "reader", None)
        if reader is None:
            reader = local.reader = _open_parquet(path)
            with opening:
                opened.append(reader)
        with _naming(path, f"row group {group}: "):
            return reader.read_row_group(group, columns=[name, *also])

    sizes = [pf.field(g, pf.GROUP_NUM_ROWS, 0) for g in meta[pf.FILE_ROW_GROUPS][1].items]
    groups = [i for i, rows in enumerate(sizes) if rows > 0]
    workers = resolve_threads(threads)
    window = min(workers + 1, max(2, WINDOW_ROWS // (2 * max(1, max(sizes, default=1)))))
    try:
        with open(path, "rb") as raw, open(output, "wb") as out:
            splice = _Splice(meta, raw, out, codec, source.schema_arrow)
            ordered_pipeline(
                groups,
                read,
                answer,
                splice.encode,
                splice.commit,
                workers=workers,
                window=window,
            )
            splice.finish()
    finally:
        for reader in opened:
            reader.close()


def _rewrite(
    source: Any,
    path: str,
    output: str,
    read: list[str],
    answer: Callable[[Any], Any],
    codec: str,
    fields: Any,
) -> None:
    """`add_columns` by decoding every column and encoding it again (see there)."""
    pa, pq = _pyarrow()
    schema = source.schema_arrow
    writers: list[Any] = []

    def open_writer(added: Any) -> Any:
        if not writers:
            out_schema = schema
            for f in added:
                out_schema = out_schema.append(f)
            options = {
                "compression": codec,
                "use_dictionary": [c for c in schema.names if c != read[0]],
            }
            writers.append(pq.ParquetWriter(output, out_schema, **options))
        return writers[0]

    def write(batch: Any, answers: Any) -> None:
        writer = open_writer(answers.schema)
        columns = [*batch.columns, *answers.columns]
        writer.write_table(pa.Table.from_arrays(columns, schema=writer.schema))

    try:
        if fields is not None:
            open_writer(fields)
        pipeline(_by_row_group(source, path), lambda batch: answer(batch.select(read)), write)
    finally:
        for writer in writers:
            writer.close()


# ---------------------------------------------------------------- copying row groups

# Row groups up to this many rows are answered whole (their puzzle column, the answers
# and the answers' encoded pages are in memory at once); a file with a larger one is
# rewritten batch by batch instead.
SPLICE_MAX_ROWS = 1 << 22
# Rows of copied row groups in flight at once (read ahead, or answered and not yet
# written): room for several row groups to be read and encoded at once on many cores.
WINDOW_ROWS = 1 << 20
_COPY_STEP = 1 << 24


class _Splice:
    """Writes a Parquet file as another's row groups, byte for byte, with columns added.

    The input's column chunks are copied as they are (no decoding, no compression); the
    new columns of each row group are encoded by pyarrow into a one-row-group file in
    memory whose column chunks are appended after the copied ones. The footer is the
    input's with every page offset moved to where the bytes now are, the new columns
    added to the schema and to each row group, and the Arrow schema pyarrow keeps in
    the footer replaced by the output's. Page indexes and bloom filters of the copied
    columns (stored outside the row groups) are left out.
    """

    def __init__(
        self, meta: Struct, source: BinaryIO, out: BinaryIO, codec: str, schema: Any
    ) -> None:
        self.meta = meta
        self.source = source
        self.out = out
        self.codec = codec
        self.schema = schema
        self.groups: list[Struct] = []
        self.template: Struct | None = None
        self.added = 0
        out.write(pf.MAGIC)

    def encode(self, index: int, answers: Any) -> tuple[Any, Any, Struct]:
        """The columns of table `answers` encoded for row group `index`: (schema, the
        bytes of a one-row-group Parquet file, its row group's metadata). Reads nothing
        shared but the input's footer, so row groups can be encoded on several threads.
        """
        pa, pq = _pyarrow()
        group = self.meta[pf.FILE_ROW_GROUPS][1].items[index]
        if answers.num_rows != pf.field(group, pf.GROUP_NUM_ROWS):
            raise RuntimeError(f"row group {index}: the answers have another row count")
        buffer = pa.BufferOutputStream()
        pq.write_table(
            answers,
            buffer,
            row_group_size=max(answers.num_rows, 1),
            compression=self.codec,
            use_dictionary=False,
        )
        encoded = buffer.getvalue()
        new, _ = pf.footer_of(encoded)
        return answers.schema, encoded, new[pf.FILE_ROW_GROUPS][1].items[0]

    def commit(self, index: int, encoded: tuple[Any, Any, Struct]) -> None:
        """Write row group `index`: the input's bytes, then its `encode`d columns.

        Row groups are committed one at a time, in the order they are to appear.
        """
        schema, encoded_bytes, added = encoded
        group = dict(self.meta[pf.FILE_ROW_GROUPS][1].items[index])
        if self.template is None:
            self.template = _schema_footer(self.schema, schema)
            self.added = len(schema)
        old_start, old_end = _group_range(group)
        new_start, new_end = _group_range(added)
        delta = self.out.tell() - old_start
        _copy_range(self.source, self.out, old_start, old_end - old_start)
        added_delta = self.out.tell() - new_start
        self.out.write(memoryview(encoded_bytes)[new_start:new_end])
        columns = [_moved_chunk(c, delta) for c in group[pf.GROUP_COLUMNS][1].items]
        columns += [_moved_chunk(c, added_delta) for c in added[pf.GROUP_COLUMNS][1].items]
        group[pf.GROUP_COLUMNS] = (pf.LIST, pf.Seq(pf.LIST, pf.STRUCT, columns))
        for fid in (pf.GROUP_BYTES, pf.GROUP_COMPRESSED):
            if fid in group:
                group[fid] = (pf.I64, group[fid][1] + pf.field(added, fid, 0))
        if pf.field(group, pf.GROUP_FILE_OFFSET, 0) > 0:
            group[pf.GROUP_FILE_OFFSET] = (pf.I64, group[pf.GROUP_FILE_OFFSET][1] + delta)
        if pf.GROUP_ORDINAL in group:  # row groups without rows are left out
            group[pf.GROUP_ORDINAL] = (pf.I16, len(self.groups))
        self.groups.append(group)

    def finish(self) -> None:
        """Write the footer."""
        assert self.template is not None, "a splice writes at least one row group"
        meta = dict(self.meta)
        template = self.template
        new_fields = template[pf.FILE_SCHEMA][1].items[-self.added :]
        schema = [dict(e) for e in meta[pf.FILE_SCHEMA][1].items]
        root = schema[0]
        children = pf.field(root, pf.SCHEMA_NUM_CHILDREN, 0) + len(new_fields)
        root[pf.SCHEMA_NUM_CHILDREN] = (pf.I32, children)
        meta[pf.FILE_SCHEMA] = (pf.LIST, pf.Seq(pf.LIST, pf.STRUCT, schema + new_fields))
        meta[pf.FILE_ROW_GROUPS] = (pf.LIST, pf.Seq(pf.LIST, pf.STRUCT, self.groups))
        orders = pf.field(meta, pf.FILE_COLUMN_ORDERS)
        new_orders = pf.field(template, pf.FILE_COLUMN_ORDERS)
        if orders is not None:
            if new_orders is None:
                del meta[pf.FILE_COLUMN_ORDERS]
            else:
                items = orders.items + new_orders.items[-len(new_fields) :]
                meta[pf.FILE_COLUMN_ORDERS] = (pf.LIST, pf.Seq(pf.LIST, pf.STRUCT, items))
        meta_kv = pf.field(meta, pf.FILE_KEY_VALUES)
        if meta_kv is not None:
            # The Arrow schema of the output: the input's with the new fields.
            arrow = {
                pf.field(kv, pf.KEY): kv for kv in pf.field(template, pf.FILE_KEY_VALUES).items
            }.get(_ARROW_SCHEMA)
            items = [kv for kv in meta_kv.items if pf.field(kv, pf.KEY) != _ARROW_SCHEMA]
            if arrow is not None and len(items) < len(meta_kv.items):
                items.insert(0, arrow)
            meta[pf.FILE_KEY_VALUES] = (pf.LIST, pf.Seq(pf.LIST, pf.STRUCT, items))
        self.out.write(pf.footer_bytes(meta))


_ARROW_SCHEMA = b"ARROW:schema"


def _spliceable(path: str) -> Struct | None:
    """The footer of `path` when `_Splice` can copy its row groups, else None."""
    try:
        with open(path, "rb") as f:
            meta, footer = pf.read_footer(f)
    except (OSError, pf.FooterError):
        return None
    if any(f in meta for f in pf.FILE_ENCRYPTION) or not pf.field(meta, pf.FILE_NUM_ROWS, 0):
        return None
    groups = pf.field(meta, pf.FILE_ROW_GROUPS)
    schema = pf.field(meta, pf.FILE_SCHEMA)
    if groups is None or schema is None or not schema.items:
        return None
    for group in groups.items:
        if pf.field(group, pf.GROUP_NUM_ROWS, 0) > SPLICE_MAX_ROWS:
            return None
        chunks = pf.field(group, pf.GROUP_COLUMNS)
        if chunks is None or not chunks.items:
            return None
        for chunk in chunks.items:
            if pf.CHUNK_META not in chunk or pf.field(chunk, pf.CHUNK_FILE_PATH):
                return None
            if any(fid in chunk for fid in pf.CHUNK_CRYPTO):
                return None
        start, end = _group_range(group)
        if start < 4 or end > footer or start >= end:
            return None
    return meta


def _chunk_range(chunk: Struct) -> tuple[int, int]:
    """(first byte, end) of a column chunk's pages, from its metadata."""
    meta = pf.field(chunk, pf.CHUNK_META)
    offsets = [pf.field(meta, pf.META_DATA_PAGE, 0)]
    offsets += [pf.field(meta, fid, 0) for fid in (pf.META_INDEX_PAGE, pf.META_DICTIONARY_PAGE)]
    start = min(o for o in offsets if o > 0) if any(o > 0 for o in offsets) else 0
    return start, start + pf.field(meta, pf.META_TOTAL_COMPRESSED, 0)


def _group_range(group: Struct) -> tuple[int, int]:
    """(first byte, end) of the bytes holding a row group's column chunks."""
    ranges = [_chunk_range(c) for c in pf.field(group, pf.GROUP_COLUMNS).items]
    return min(r[0] for r in ranges), max(r[1] for r in ranges)


def _moved_chunk(chunk: Struct, delta: int) -> Struct:
    """A column chunk's metadata with its pages `delta` bytes further on.

    Its page indexes and bloom filter, stored elsewhere in the file, are left out.
    """
    meta = dict(pf.field(chunk, pf.CHUNK_META))
    for fid in (pf.META_DATA_PAGE, pf.META_INDEX_PAGE, pf.META_DICTIONARY_PAGE):
        if pf.field(meta, fid, 0) > 0:
            meta[fid] = (meta[fid][0], meta[fid][1] + delta)
    for fid in pf.META_BLOOM:
        meta.pop(fid, None)
    moved = {fid: value for fid, value in chunk.items() if fid not in pf.CHUNK_PAGE_INDEX}
    moved[pf.CHUNK_META] = (pf.STRUCT, meta)
    if pf.field(chunk, pf.CHUNK_FILE_OFFSET, 0) > 0:
        moved[pf.CHUNK_FILE_OFFSET] = (pf.I64, chunk[pf.CHUNK_FILE_OFFSET][1] + delta)
    return moved


def _schema_footer(schema: Any, added: Any) -> Struct:
    """The footer pyarrow writes for an empty file of `schema` with the `added` fields."""
    pa, pq = _pyarrow()
    for f in added:
        schema = schema.append(f)
    buffer = pa.BufferOutputStream()
    pq.ParquetWriter(buffer, schema).close()
    meta, _ = pf.footer_of(buffer.getvalue())
    names = [pf.field(e, pf.SCHEMA_NAME) for e in meta[pf.FILE_SCHEMA][1].items]
    if names[-len(added) :] != [f.name.encode() for f in added]:
        raise RuntimeError("the added columns must be flat")
    return meta


def _copy_range(source: BinaryIO, out: BinaryIO, start: int, length: int) -> None:
    """Copy `length` bytes of `source` from `start` to the end of `out`.

    The kernel copies them (`copy_file_range`) where it can; else they pass through
    memory in steps.
    """
    out.flush()
    copy = getattr(os, "copy_file_range", None)
    done = 0
    if copy is not None:
        try:
            while done < length:
                n = copy(source.fileno(), out.fileno(), length - done, start + done)
                if n == 0:
                    break
                done += n
        except OSError:
            pass
        out.seek(0, 2)  # the copy moved the descriptor, not the Python file
    source.seek(start + done)
    while done < length:
        data = source.read(min(_COPY_STEP, length - done))
        if not data:
            raise ValueError("the input file ends inside a row group")
        out.write(data)
        done += len(data)


def write_generated(
    path: str, made: Sequence[str] | Sequence[VariantPuzzle], seeds: list[int] | None
) -> None:
    """Write generated puzzles with their solution, clue count, level and seed: each
    row's own seed (`generator.row_seeds`), or null for all (`seeds` None: puzzles of a
    score band, which no one seed makes again). Variant puzzles get a `rules` column too
    (each row's rules, compact JSON), which `solve_parquet` and `rate_parquet` read."""
    pa, pq = _pyarrow()
    puzzles = [item if isinstance(item, str) else item.puzzle for item in made]
    rules = [None if isinstance(item, str) else item.rules for item in made]
    under = rules if any(r is not None for r in rules) else None
    solutions = solve_many(puzzles, output="arrow", rules=under)
    ratings = rate_many(puzzles, output="arrow", rules=under)
    columns = {
        "puzzle": pa.array(puzzles, type=pa.string()),
        "solution": solutions,
        # The rating's count, read by the parser ('0' is an empty cell too).
        "clues": ratings.field("clues").cast(pa.int32()),
        "level": ratings.field("level"),
        "name": ratings.field("name"),
        "seed": pa.array([None] * len(puzzles) if seeds is None else seeds, type=pa.int64()),
    }
    if under is not None:
        texts = [None if r is None else r.dumps() for r in rules]
        columns["rules"] = pa.array(texts, type=pa.string())
    table = pa.table(columns)
    with replacing(path) as partial:  # whole or not at all, as every output
        pq.write_table(table, partial)
