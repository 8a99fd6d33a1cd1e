"""Puzzle tables by the million: canonical keys, dedup and augmentation on Parquet, CSV and lines.

The pipelines of `sudoku-fast canonical`, `augment` and of `dedup` on Parquet (and on CSV
when a key column is asked for). A table is read in record batches (a Parquet row group
at a time, CSV in blocks; pyarrow in both cases, so memory stays flat however many rows
the file holds) or, for a file of one puzzle per line, in blocks of lines. Each batch
goes through the public batch functions (`canonical_many`, `canonical_transform_many`,
`random_transform_many`) with `on_error="warn"`, so a bad row is reported by row number
and the others are unharmed, and is written out at once in the input's own format
(Parquet, CSV with the input's delimiter, lines).

- canonical: every row, with a `canonical` column added (and `canonical_transform`, the
  symmetry that maps the row's puzzle to it, with `transform`).
- dedup: the first row of each canonical form, in input order; `key` adds the form as a
  column. The forms seen are kept (memory grows with the number of distinct forms).
- augment: `copies` rows per input row, each with the puzzle (and the solution column,
  when there is one) moved by one random symmetry, the same for both; a `source_row`
  column says which input row each copy came from. Seeded: the same seed gives the same
  file.

A transform is written as text: `transpose;rows;cols;digits` (see `transform_text`).

A row with variant rules of its own (a non-empty `rules` column, any case, as
`generate --variant` writes) is not a classic puzzle: its symmetries move its rules too
(a killer's cages move with its cells), and only those its rules keep count
(`canonical_variant`). canonical writes its canonical givens in `canonical` and its
canonical rules (compact JSON) in `canonical_rules`, a column added when the table has
a rules column (null for classic rows); dedup leaves it out when an earlier row has the
same key (canonical givens and rules), and with `key` writes both columns; the
`canonical_transform` of such a row is null (a `Transformation` moves classic grids
only). augment moves it with its rules and its solution by random symmetries its rules
keep (`random_variant_transform`), writing the moved rules in the rules column.
"""

from __future__ import annotations

import csv
import io
import os
import random
import time
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from .._base.columns import PUZZLE_COLUMNS, RULES_COLUMNS, SOLUTION_COLUMNS, find_column
from .._base.errors import ItemErrorsWarning
from .._base.optional import optional
from .._base.rules import Rules, as_rules
from ..symmetry import (
    DEFAULT_CANONICAL_NODES,
    Transformation,
    canonical_many,
    canonical_transform_many,
    canonical_variant,
    random_transform_many,
    random_variant_transform,
)
from .progress import Progress
from .stream import _header_delimiter, _reads_as_puzzle

__all__ = [
    "TableReport",
    "augment_table",
    "canonical_table",
    "dedup_table",
    "transform_text",
]

LINES_PER_BATCH = 65_536
OUT_ROWS = 131_072  # rows written at a time (augment: input rows times copies)
CSV_BLOCK = 1 << 22  # bytes of CSV pyarrow reads per batch


@dataclass
class TableReport:
    """What a table pipeline did: rows read and written, rows left out as malformed (or
    with a repeated symbol) with "row R: reason" for the first of them, rows dropped as
    equivalent to an earlier one (dedup), seconds."""

    rows: int = 0
    written: int = 0
    malformed: int = 0
    equivalent: int = 0
    distinct: int = 0
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)


def transform_text(t: Transformation) -> str:
    """A Transformation as text: `1` or `0` (transpose), the rows, the columns (indices
    from 0, comma-separated) and the digits, joined by `;`.

    >>> transform_text(Transformation(False, (0, 1, 2, 3), (1, 0, 2, 3), "2134"))
    '0;0,1,2,3;1,0,2,3;2134'
    """
    rows = ",".join(map(str, t.rows))
    cols = ",".join(map(str, t.cols))
    return f"{int(t.transpose)};{rows};{cols};{t.digits}"


def _pyarrow() -> tuple[Any, Any, Any]:
    return optional(
        "pyarrow", "pyarrow.parquet", "pyarrow.csv", needed_for="this command", extra="arrow"
    )


class _Table:
    """A table read batch by batch: Parquet, CSV (pyarrow, every column as text) or lines.

    `batches()` yields pyarrow RecordBatches (Parquet, CSV) or lists of lines; `puzzle`
    and `solution` are the columns' names (None: no solution column; lines: "puzzle").
    """

    def __init__(self, path: str, column: str | None, solution: str | None, want_solution: bool):
        from .parquet_io import _open_parquet  # the Parquet side of the command line
        from .stream import is_parquet

        self.path = path
        self.kind = "lines"
        self.delimiter = ","
        self.names: list[str] = ["puzzle"]
        self.total_rows: int | None = None
        self.size: int | None = None
        if is_parquet(path):
            self.kind = "parquet"
            self._parquet = _open_parquet(path)
            self.names = list(self._parquet.schema_arrow.names)
            self.total_rows = self._parquet.metadata.num_rows
        else:
            with open(path, "rb") as source:
                head = source.readline().decode("utf-8", "replace").strip().lstrip("\ufeff")
            delimiter = _header_delimiter(head)
            names = next(csv.reader([head], delimiter=delimiter)) if head else []
            known = find_column(names, PUZZLE_COLUMNS) >= 0
            if column is not None or (known or (len(names) > 1 and not _reads_as_puzzle(head))):
                self.kind = "csv"
                self.delimiter = delimiter
                self.names = [name.strip() for name in names]
            self.size = os.path.getsize(path)
        lowered = [name.lower() for name in self.names]
        if self.kind == "lines":
            if column is not None:
                raise ValueError(f"{path}: no column {column!r}: the file has no header")
            self.puzzle = "puzzle"
        elif column is not None:
            if column.strip().lower() not in lowered:
                raise ValueError(f"{path}: no column {column!r} (columns: {', '.join(self.names)})")
            self.puzzle = self.names[lowered.index(column.strip().lower())]
        else:
            found = find_column(self.names, PUZZLE_COLUMNS)
            if found < 0:
                raise ValueError(
                    f"{path}: no puzzle column: none of {', '.join(PUZZLE_COLUMNS)} "
                    f"(columns: {', '.join(self.names)}); name one with column="
                )
            self.puzzle = self.names[found]
        self.rules: str | None = None  # the rules column (see the module doc)
        if self.kind != "lines":
            found = find_column([n if n != self.puzzle else "" for n in self.names], RULES_COLUMNS)
            self.rules = self.names[found] if found >= 0 else None
        self.solution: str | None = None
        if want_solution and self.kind != "lines":
            if solution is not None:
                if solution.strip().lower() not in lowered:
                    raise ValueError(
                        f"{path}: no column {solution!r} (columns: {', '.join(self.names)})"
                    )
                self.solution = self.names[lowered.index(solution.strip().lower())]
            else:
                found = find_column(self.names, SOLUTION_COLUMNS)
                self.solution = self.names[found] if found >= 0 else None

    def batches(self) -> Iterator[Any]:
        if self.kind == "parquet":
            from .parquet_io import _by_row_group

            yield from _by_row_group(self._parquet, self.path)
        elif self.kind == "csv":
            pa, _pq, pcsv = _pyarrow()
            reader = pcsv.open_csv(
                self.path,
                read_options=pcsv.ReadOptions(block_size=CSV_BLOCK),
                parse_options=pcsv.ParseOptions(delimiter=self.delimiter),
                convert_options=pcsv.ConvertOptions(
                    column_types={name: pa.string() for name in self.names},
                    strings_can_be_null=False,
                ),
            )
            yield from reader
        else:
            lines: list[str] = []
            with open(self.path, encoding="utf-8", errors="replace") as source:
                for line in source:
                    text = line.strip()
                    if not text or text.startswith("#"):
                        continue
                    lines.append(text)
                    if len(lines) == LINES_PER_BATCH:
                        yield lines
                        lines = []
            if lines:
                yield lines


class _Writer:
    """Writes batches in the table's own format: Parquet, CSV (its delimiter), lines."""

    def __init__(self, table: _Table, out: BinaryIO, path: str) -> None:
        self.table = table
        self.out = out
        self.path = path
        self._writer: Any = None

    def write(self, batch: Any) -> None:
        if self.table.kind == "lines":
            self.out.write("".join(f"{row}\n" for row in batch).encode())
            return
        _pa, pq, pcsv = _pyarrow()
        if self._writer is None:
            if self.table.kind == "parquet":
                self._writer = pq.ParquetWriter(self.out, batch.schema)
            else:
                # The header as the csv module writes it (quoted only where needed, as
                # pyarrow writes the rows); pyarrow would quote every name.
                header = io.StringIO()
                csv.writer(header, delimiter=self.table.delimiter, lineterminator="\n").writerow(
                    batch.schema.names
                )
                self.out.write(header.getvalue().encode())
                options = pcsv.WriteOptions(
                    include_header=False, delimiter=self.table.delimiter, quoting_style="needed"
                )
                self._writer = pcsv.CSVWriter(self.out, batch.schema, write_options=options)
        self._writer.write_batch(batch)

    def close(self, schema: Any = None) -> None:
        if self._writer is None and schema is not None and self.table.kind != "lines":
            pa, _, _ = _pyarrow()
            self.write(pa.RecordBatch.from_pylist([], schema=schema))
        if self._writer is not None:
            self._writer.close()


def _column(batch: Any, name: str) -> Any:
    """A batch's column of text (a pyarrow array; lines: the list itself)."""
    if isinstance(batch, list):
        return batch
    pa, _, _ = _pyarrow()
    array = batch.column(batch.schema.get_field_index(name))
    if not pa.types.is_string(array.type):
        from .parquet_io import _as_strings

        array = _as_strings(array)
    return array


def _quietly(
    call: Callable[..., Any],
    puzzles: Any,
    first_row: int,
    report: TableReport,
    rows: list[int] | None = None,
    skip: frozenset[int] = frozenset(),
    **keywords: Any,
) -> Any:
    """call(puzzles, on_error="warn", **keywords), with the rows it answers as missing
    reported by row number, once each: item k is the batch's row `rows[k]` (default
    k); rows in `skip` are not reported (the caller says why)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ItemErrorsWarning)
        answer = call(puzzles, on_error="warn", **keywords)
    said: set[int] = set()
    for warning in caught:
        message = warning.message
        if isinstance(message, ItemErrorsWarning):
            for position in message.positions:
                row = position if rows is None else rows[position]
                if row in skip or row in said:
                    continue
                said.add(row)
                if len(report.problems) < 100:
                    reason = message.errors.get(position, "")
                    report.problems.append(f"row {first_row + row}: {reason}")
        else:
            warnings.warn_explicit(message, warning.category, warning.filename, warning.lineno)
    return answer


def _free(name: str, names: list[str]) -> str:
    """`name`, or `name_2`, `name_3`... when the table has a column of that name."""
    free, k = name, 2
    while free in names:
        free, k = f"{name}_{k}", k + 1
    return free


def canonical_table(
    path: str,
    out: BinaryIO,
    progress: Progress,
    *,
    column: str | None = None,
    transform: bool = False,
    threads: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_CANONICAL_NODES,
) -> TableReport:
    """Every row with its canonical form (and transform) added; see the module doc.

    A file of lines gives one canonical form per line (with `transform`: CSV lines
    `canonical,canonical_transform`). A row that has none (malformed, a symbol repeated)
    gets an empty (null) form and is reported.
    """
    return _run(
        path, out, progress, column, None, False, threads, box, alphabet, max_nodes,
        mode="canonical", transform=transform,
    )  # fmt: skip


def dedup_table(
    path: str,
    out: BinaryIO,
    progress: Progress,
    *,
    column: str | None = None,
    key: bool = False,
    transform: bool = False,
    threads: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_CANONICAL_NODES,
) -> TableReport:
    """The first row of each canonical form, in input order (see the module doc)."""
    return _run(
        path, out, progress, column, None, False, threads, box, alphabet, max_nodes,
        mode="dedup", key=key, transform=transform,
    )  # fmt: skip


def augment_table(
    path: str,
    out: BinaryIO,
    progress: Progress,
    *,
    copies: int,
    seed: int | None = None,
    column: str | None = None,
    solution: str | None = None,
    threads: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
) -> TableReport:
    """`copies` random symmetric copies of each row (see the module doc)."""
    if isinstance(copies, bool) or not isinstance(copies, int) or copies < 1:
        raise ValueError(f"copies must be an int >= 1, got {copies!r}")
    return _run(
        path, out, progress, column, solution, True, threads, box, alphabet, None,
        mode="augment", copies=copies, seed=seed,
    )  # fmt: skip


def _run(
    path: str,
    out: BinaryIO,
    progress: Progress,
    column: str | None,
    solution: str | None,
    want_solution: bool,
    threads: int | None,
    box: tuple[int, int] | None,
    alphabet: str | None,
    max_nodes: int | None,
    *,
    mode: str,
    transform: bool = False,
    key: bool = False,
    copies: int = 1,
    seed: int | None = None,
) -> TableReport:
    table = _Table(path, column, solution, want_solution)
    report = TableReport()
    started = time.perf_counter()
    writer = _Writer(table, out, path)
    keywords: dict[str, Any] = {"threads": threads, "box": box, "alphabet": alphabet}
    seen: set[str] = set()
    variants: set[str] = set()  # the keys of the variant rows kept (canonical_variant)
    rules_read: dict[str, Rules | str | None] = {}  # see `_variant_rows`
    draws = random.Random(seed)
    lines_csv = False
    if table.kind == "lines" and mode != "augment":
        header = (["puzzle"] if mode == "dedup" else []) + (
            ["canonical"] if mode == "canonical" or key else []
        ) + (["canonical_transform"] if transform else [])  # fmt: skip
        lines_csv = len(header) > 1
        if lines_csv:
            out.write((",".join(header) + "\n").encode())
    schema = None
    for batch in _sliced(table.batches(), max(1, OUT_ROWS // copies)):
        first = report.rows
        n = len(batch) if isinstance(batch, list) else batch.num_rows
        report.rows += n
        puzzles = _column(batch, table.puzzle)
        own = _variant_rows(batch, table, rules_read)
        if own:
            puzzles = _without(puzzles, own)  # classic puzzles only go to the batch calls
        skip = frozenset(own)
        if mode == "augment":
            written = _augment(batch, puzzles, table, copies, draws, first, report, keywords, own)
        else:
            forms = _quietly(
                canonical_many, puzzles, first, report, skip=skip, max_nodes=max_nodes, **keywords
            )
            moves = None
            if transform:
                moves = canonical_transform_many(
                    puzzles, max_nodes=max_nodes, on_error="none", **keywords
                )
            report.malformed += sum(form is None for i, form in enumerate(forms) if i not in own)
            variant_keys = _variant_forms(own, forms, first, report, table.rules)
            rules_forms = None
            if table.rules is not None and (mode == "canonical" or key):
                rules_forms = [
                    None if (found := variant_keys.get(i)) is None else found[1] for i in range(n)
                ]
            keep = None
            if mode == "dedup":
                keep = [False] * n
                for i, form in enumerate(forms):
                    if i in own:  # a variant puzzle: its givens and rules together
                        found = variant_keys.get(i)
                        if found is None:
                            continue
                        if found[0] in variants:
                            report.equivalent += 1
                        else:
                            variants.add(found[0])
                            keep[i] = True
                        continue
                    if form is None:
                        continue
                    if form in seen:
                        report.equivalent += 1
                    else:
                        seen.add(form)
                        keep[i] = True
            written = _with_forms(
                batch, table, forms, moves, keep, mode, key, lines_csv, rules_forms
            )
        report.written += len(written) if isinstance(written, list) else written.num_rows
        if not isinstance(written, list):
            schema = written.schema
        writer.write(written)
        progress.update(report.rows, report.rows if table.total_rows else 0)
    writer.close(schema)
    report.distinct = len(seen) + len(variants)
    report.seconds = time.perf_counter() - started
    return report


def _variant_rows(
    batch: Any, table: _Table, read: dict[str, Rules | str | None]
) -> dict[int, tuple[str, Rules | str]]:
    """The batch's rows that carry variant rules of their own, each with its puzzle
    text and its rules (a `Rules`, or the reason they do not read). `read` keeps each
    rules text's reading across the run's batches (files repeat a few rule sets many
    times; None: rules that say "classic")."""
    if table.rules is None or isinstance(batch, list):
        return {}
    texts = _column(batch, table.rules).to_pylist()
    puzzles = None
    out: dict[int, tuple[str, Rules | str]] = {}
    for i, text in enumerate(texts):
        if not isinstance(text, str) or not text.strip():
            continue
        if text not in read:
            try:
                read[text] = as_rules(text.strip())
            except (ValueError, TypeError) as error:
                read[text] = f"rules: {error}"
        rules = read[text]
        if rules is None:
            continue
        if puzzles is None:
            puzzles = _column(batch, table.puzzle).to_pylist()
        out[i] = ((puzzles[i] or "").strip(), rules)
    return out


def _variant_forms(
    own: dict[int, tuple[str, Rules | str]],
    forms: list[str | None],
    first_row: int,
    report: TableReport,
    column: str | None,
) -> dict[int, tuple[str, str]]:
    """The canonical forms of the variant rows: their givens into `forms`, and for
    each row its (key, canonical rules as compact JSON); a row whose puzzle or rules
    do not read (or do not fit each other) is reported and counted as malformed."""
    out: dict[int, tuple[str, str]] = {}
    for i, (puzzle, rules) in own.items():
        try:
            if isinstance(rules, str):
                raise ValueError(f"{rules} (column {column!r})")
            form = canonical_variant(puzzle, rules)
        except (ValueError, TypeError) as error:
            report.malformed += 1
            if len(report.problems) < 100:
                report.problems.append(f"row {first_row + i}: {error}")
            continue
        forms[i] = form.puzzle
        out[i] = (form.key, "" if form.rules is None else form.rules.dumps())
    return out


def _without(puzzles: Any, rows: dict[int, Any]) -> Any:
    """The puzzle column with the given rows null."""
    pa, _, _ = _pyarrow()
    import pyarrow.compute as pc

    mask = pa.array([i in rows for i in range(len(puzzles))], type=pa.bool_())
    return pc.if_else(mask, pa.scalar(None, type=pa.string()), puzzles)


def _sliced(batches: Iterator[Any], rows: int) -> Iterator[Any]:
    """The batches cut into pieces of at most `rows` rows (lists or RecordBatches)."""
    for batch in batches:
        n = len(batch) if isinstance(batch, list) else batch.num_rows
        if n <= rows:
            yield batch
            continue
        for start in range(0, n, rows):
            yield (
                batch[start : start + rows] if isinstance(batch, list) else batch.slice(start, rows)
            )


def _with_forms(
    batch: Any,
    table: _Table,
    forms: list[str | None],
    moves: list[Transformation | None] | None,
    keep: list[bool] | None,
    mode: str,
    key: bool,
    lines_csv: bool,
    rules_forms: list[str | None] | None = None,
) -> Any:
    """The rows to write: the batch (kept rows only, for dedup) with the asked columns
    (`rules_forms`: a `canonical_rules` column after the forms)."""
    rows = range(len(forms)) if keep is None else [i for i in range(len(forms)) if keep[i]]
    texts = None
    if moves is not None:  # None where a row has no form (on_error="none")
        texts = [None if (move := moves[i]) is None else transform_text(move) for i in rows]
    if isinstance(batch, list):
        out = []
        for k, i in enumerate(rows):
            fields = [batch[i]] if mode == "dedup" else []
            if mode == "canonical" or key:
                fields.append(forms[i] or "")
            if texts is not None:
                fields.append(texts[k] or "")
            out.append(",".join(fields))
        return out
    pa, _, _ = _pyarrow()
    if keep is not None:
        batch = batch.filter(pa.array(keep, type=pa.bool_()))
    names = list(batch.schema.names)
    arrays = list(batch.columns)
    if mode == "canonical" or key:
        names.append(_free("canonical", names))
        arrays.append(pa.array([forms[i] for i in rows], type=pa.string()))
    if rules_forms is not None:
        names.append(_free("canonical_rules", names))
        arrays.append(pa.array([rules_forms[i] for i in rows], type=pa.string()))
    if texts is not None:
        names.append(_free("canonical_transform", names))
        arrays.append(pa.array(texts, type=pa.string()))
    return pa.RecordBatch.from_arrays(arrays, names=names)


def _augment(
    batch: Any,
    puzzles: Any,
    table: _Table,
    copies: int,
    draws: random.Random,
    first: int,
    report: TableReport,
    keywords: dict[str, Any],
    own: dict[int, tuple[str, Rules | str]] | None = None,
) -> Any:
    """`copies` moved copies of each row of a batch (rows that cannot be moved left out
    and reported). The rows in `own` carry variant rules: each copy moves the puzzle,
    its rules and its solution together (`random_variant_transform`)."""
    own = own or {}
    skip = frozenset(own)
    n = len(puzzles)
    seed = draws.getrandbits(63)  # one seed per batch: the same file gives the same copies
    order = [i for i in range(n) for _ in range(copies)]
    if isinstance(batch, list):
        repeated: Any = [puzzles[i] for i in order]
    else:
        pa, _, _ = _pyarrow()
        taken = pa.array(order, type=pa.int64())
        repeated = puzzles.take(taken)
    moved = _quietly(
        random_transform_many, repeated, first, report, rows=order, skip=skip, seed=seed, **keywords
    )
    answers = None
    if table.solution is not None and not isinstance(batch, list):
        column = _column(batch, table.solution).take(taken)
        # The same seed draws the same symmetry for each position: the solution moves
        # exactly as its puzzle does.
        answers = random_transform_many(column, seed=seed, on_error="none", **keywords)
    moved_rules = _augment_variants(batch, table, own, order, seed, moved, answers, first, report)
    good = [
        k
        for k in range(len(order))
        if k in moved_rules
        or (moved[k] is not None and (answers is None or answers[k] is not None))
    ]
    report.malformed += len({order[k] for k in range(len(order))} - {order[k] for k in good})
    if isinstance(batch, list):
        return [moved[k] for k in good]
    rows = batch.take(pa.array([order[k] for k in good], type=pa.int64()))
    names = list(rows.schema.names)
    arrays = list(rows.columns)
    at = names.index(table.puzzle)
    arrays[at] = pa.array([moved[k] for k in good], type=pa.string())
    if answers is not None and table.solution is not None:
        arrays[names.index(table.solution)] = pa.array([answers[k] for k in good], type=pa.string())
    if moved_rules and table.rules is not None:
        written = _column(batch, table.rules).to_pylist()
        arrays[names.index(table.rules)] = pa.array(
            [moved_rules.get(k, written[order[k]]) for k in good], type=pa.string()
        )
    names.append(_free("source_row", names))
    arrays.append(pa.array([first + order[k] for k in good], type=pa.int64()))
    return pa.RecordBatch.from_arrays(arrays, names=names)


def _augment_variants(
    batch: Any,
    table: _Table,
    own: dict[int, tuple[str, Rules | str]],
    order: list[int],
    seed: int,
    moved: list[str | None],
    answers: list[str | None] | None,
    first: int,
    report: TableReport,
) -> dict[int, str]:
    """The copies of the rows with rules of their own, into `moved` and `answers` (the
    solution moved with the same draw, None without one); for each such copy k its
    moved rules as compact JSON. A row that cannot be moved is reported once."""
    if not own:
        return {}
    solutions = None
    if table.solution is not None:
        solutions = _column(batch, table.solution).to_pylist()
    out: dict[int, str] = {}
    said: set[int] = set()
    stream = random.Random(seed)  # one draw per copy, the same for its solution
    for k, i in enumerate(order):
        if i not in own or i in said:
            continue
        puzzle, rules = own[i]
        draw = stream.getrandbits(63)
        try:
            if isinstance(rules, str):
                raise ValueError(f"{rules} (column {table.rules!r})")
            moved[k], moved_rules = random_variant_transform(puzzle, rules, seed=draw)
            if answers is not None:
                solution = (solutions[i] or "").strip() if solutions is not None else ""
                answers[k] = (
                    random_variant_transform(solution, rules, seed=draw)[0] if solution else None
                )
        except (ValueError, TypeError) as error:
            said.add(i)
            moved[k] = None
            if len(report.problems) < 100:
                report.problems.append(f"row {first + i}: {error}")
            continue
        assert moved_rules is not None
        out[k] = moved_rules.dumps()
    for k in [k for k in out if order[k] in said]:
        del out[k]
    return out
