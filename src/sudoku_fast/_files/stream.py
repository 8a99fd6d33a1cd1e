"""Puzzle files by the million: read in blocks, parse, solve in batches, write in order.

A file holds one puzzle per line, in any notation `parse` accepts on one line, or is a
CSV file whose header names the puzzle column (`quizzes` or `puzzle`; the solution
column, used for verification, is `solutions` or `solution`). Blank lines and lines
starting with `#` are skipped; line numbers in messages count every physical line.

A puzzle may carry variant rules of its own (see docs/variants.md): a file whose first
record line starts with `{` is JSON lines (an object per line: the puzzle under
`puzzle` / `quizzes` / ..., its rules under `rules`, a `solution` for verification); one
whose first record line holds a tab then `{` is lines of a puzzle, a tab, its rules'
JSON; a CSV file may have a `rules` column. Rules that are malformed or do not fit the
grid make the record malformed. Such files, like those of other geometries, are read
by `parse` line by line rather than by the compiled scanner.

A file holds puzzles of one size, of any geometry `parse` accepts: `box` / `alphabet`
fix it, else the first puzzle that parses decides (as the first puzzle of a batch does
for `solve_many`), and a puzzle of another size is a malformed record.

The file is read in binary blocks of whole lines (small at first, so answers start
coming out at once, then up to MAX_BLOCK bytes). In a file of 9x9 puzzles with the
default symbols, plain 81-character puzzles are encoded by compiled code
(`_textio.scan_block`) and answers are written and checked by it too; every other line,
and every line of other geometries, goes through `parse`. A line that cannot be parsed
becomes a *malformed record*: it is reported with its line number and answered with a
marker, and the engine sees it as an instantly contradictory grid. A puzzle of a grid
other than 9x9 with 3x3 boxes whose search runs out of its node budget is answered `unknown`.
While the engine solves one batch on its worker threads, the calling thread reads and
parses the next one; a separate thread hands each batch to the engine and writes its
answers as soon as they are found. At most two batches (of at most MAX_BLOCK bytes of
input, and at most MAX_BATCH_CELLS cells of grids) are in memory at a time, so memory
stays flat whatever the file holds: blank and comment lines cost nothing, and a line
longer than MAX_LINE is skipped as it is read, a malformed record of its own.

CSV output keeps the input: with CSV input each row is written back as it was read,
with the answer added as a last column (a malformed row keeps its text, an `id` column
stays; one that does not have the header's fields is padded, or written whole in its
first field, so the output parses); with lines input it is `puzzle,solution` (the
canonical puzzle; a malformed line's own text, quoted).
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import shutil
import stat
import sys
import tempfile
import threading
import time
from array import array
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from .._base.checks import DEFAULT_MAX_NODES, node_budget
from .._base.columns import (
    PUZZLE_COLUMNS,
    RULES_COLUMNS,
    SOLUTION_COLUMNS,
    answer_column,
    check_on_error,
    find_column,
)
from .._base.grid import (
    CLASSIC,
    Geometry,
    format_marks,
    format_values,
    geometry_for,
    is_solution,
    parse_grid,
    parse_marks_grid,
)
from .._base.reports import LineReport
from .._base.rules import Rules, as_rules
from .._base.rules_check import rule_broken
from .._engine import textio as _textio
from .._engine.results import EngineResults
from .._engine.run import run_engine
from .._variants.encode import check_rules
from .._variants.run import box_for, run_rules
from ..stats import StatsBuilder, Summary
from .parquet_footer import MAGIC as PARQUET_MAGIC
from .progress import Progress

FIRST_BLOCK = 1 << 16  # small, so the first answers come out quickly
MAX_BLOCK = 1 << 20  # ~12,000 puzzles; larger blocks only raise peak memory
MAX_LINE = 1 << 20  # a longer line is reported as malformed without being kept whole
MAX_BATCH_CELLS = 1 << 20  # records per batch times cells per grid, at most
PIPE_BUFFER = 1 << 16  # what one read of a full pipe returns (Linux, macOS)

NO_SOLUTION_MARK = "none"
MALFORMED_MARK = "error"
UNKNOWN_MARK = "unknown"  # the node budget ran out before the puzzle was decided

FLAG_BAD: int = _textio.FLAG_BAD
FLAG_GIVEN: int = _textio.FLAG_GIVEN
CSV_ANSWER_ONLY: int = _textio.CSV_ANSWER_ONLY
CSV_WITH_PUZZLE: int = _textio.CSV_WITH_PUZZLE
CSV_WITH_ROW: int = _textio.CSV_WITH_ROW


def _no_spans() -> array[int]:
    return array("q")


@dataclass
class Batch:
    """Consecutive records of a file, encoded for the engine, all of one `geometry`.

    With C = geometry.cells, record i has its grid in grids[C*i:C*(i+1)], its line
    number in line_numbers[i] and flags[i] (FLAG_BAD: malformed; FLAG_GIVEN: a given
    solution is in given[C*i:C*(i+1)]); its text (the input line, without surrounding
    blanks) is text[spans[2*i]:spans[2*i+1]].
    `problems` lists (record, reason) for the malformed records in order; `given_problems`
    maps a record to the reason its given solution could not be read; `failed` holds the
    (line, reason) of the malformed line a run stopped at. `rewritten` maps a malformed
    CSV row whose fields are not the header's to the text written for it instead, so
    that the output parses with the header's fields (see `_whole_row`).
    """

    n: int
    grids: bytearray
    given: bytearray
    flags: bytearray
    line_numbers: array[int]
    bytes_end: int
    problems: list[tuple[int, str]] = field(default_factory=list)
    given_problems: dict[int, str] = field(default_factory=dict)
    failed: tuple[int, str] | None = None
    geometry: Geometry = CLASSIC
    text: bytes | memoryview = b""
    spans: array[int] = field(default_factory=_no_spans)
    masks: array[int] | None = None  # pencil marks: N*N candidate masks per record
    rewritten: dict[int, str] = field(default_factory=dict)
    # Variant rules: a record's own (from its line), then every record's under the
    # run's and its own together (None: every record classic); see `attach_rules`.
    own_rules: dict[int, Rules] = field(default_factory=dict)
    rules: list[Rules | None] | None = None

    def record_text(self, record: int) -> str:
        """The input text of a record, as it was read."""
        begin, end = self.spans[2 * record], self.spans[2 * record + 1]
        return bytes(self.text[begin:end]).decode("utf-8", "replace")

    def mark_bad(self, record: int, reason: str) -> None:
        """Make a record malformed: reported, answered with a marker, never searched."""
        cells = self.geometry.cells
        self.flags[record] = FLAG_BAD
        # Two 1s in the first row: the engine finds no solution at once, with no search.
        # (A 1x1 grid has no room for two: left empty, it is solved at once too.)
        marker = bytes([1, 1]) + bytes(cells - 2) if cells >= 2 else bytes(cells)
        self.grids[record * cells : (record + 1) * cells] = marker
        self.problems.append((record, reason))

    def attach_rules(self, rules: Rules | None) -> None:
        """Set `rules`: each record's own rules merged with the run's `rules`. A record
        whose rules do not fit the grid becomes malformed; ValueError when the run's
        own rules do not fit it."""
        geometry = self.geometry
        box = (geometry.box_rows, geometry.box_cols)
        if rules is not None:
            try:
                check_rules(rules, geometry.size, box)
            except ValueError as err:
                raise ValueError(f"the rules do not fit a {geometry.describe()}: {err}") from None
        if not self.own_rules:
            self.rules = None if rules is None else [rules] * self.n
            return
        out: list[Rules | None] = [rules] * self.n
        fits: dict[Rules, str] = {}
        bad = {record for record, _ in self.problems}
        for record, own in sorted(self.own_rules.items()):
            if record in bad:
                continue
            try:
                merged = own if rules is None else rules.merge(own)
                if merged not in fits:
                    try:
                        check_rules(merged, geometry.size, box)
                        fits[merged] = ""
                    except ValueError as err:
                        fits[merged] = str(err)
                if fits[merged]:
                    raise ValueError(fits[merged])
            except ValueError as err:
                self.mark_bad(record, f"its rules do not fit a {geometry.describe()}: {err}")
                continue
            out[record] = merged
        self.problems.sort()
        self.rules = out if any(r is not None for r in out) else None

    def stop_at_first_problem(self) -> None:
        """Keep only the records before the first malformed one; remember that one."""
        record, reason = self.problems[0]
        self.failed = (self.line_numbers[record], reason)
        self.n = record
        self.problems = []
        self.given_problems = {r: m for r, m in self.given_problems.items() if r < record}
        self.rewritten = {}  # only rows before the first malformed one are kept

    def good_grids(self) -> tuple[bytearray, int]:
        """The grids of the records that are not malformed, and how many there are."""
        if not self.problems:
            return self.grids, self.n
        cells = self.geometry.cells
        bad = sorted({record for record, _ in self.problems})
        good = bytearray()
        kept_from = 0  # copy the runs of good records between bad ones
        for record in [*bad, self.n]:
            good += self.grids[kept_from * cells : record * cells]
            kept_from = record + 1
        return good, self.n - len(bad)


# The field separators a CSV header is looked at for, the first most common one winning.
DELIMITERS = (",", ";", "\t", "|")


def _header_delimiter(text: str) -> str:
    """The separator of a CSV header line: the one of DELIMITERS it holds most often
    outside quotes (a comma when it holds none)."""
    unquoted = "".join(part for k, part in enumerate(text.split('"')) if k % 2 == 0)
    counts = [unquoted.count(d) for d in DELIMITERS]
    best = max(counts)
    return DELIMITERS[counts.index(best)] if best else ","


def _header_fields(line: bytes, delimiter: str = ",") -> list[str]:
    """A CSV header's field names, trimmed and lower-cased (quoted separators kept inside)."""
    text = line.decode("utf-8", "replace").strip().lstrip("\ufeff")
    try:
        fields = next(csv.reader([text], delimiter=delimiter))
    except (csv.Error, StopIteration):
        fields = text.split(delimiter)
    return [f.strip().strip('"').strip().lower() for f in fields]


def _whole_row(text: str, width: int, delimiter: str = ",") -> str:
    """A malformed CSV row written as one quoted field, then empty fields up to `width`
    (the header's): its text is kept whole and the output still parses."""
    return '"' + text.replace('"', '""') + '"' + delimiter * (width - 1)


def _looks_like_header(text: str, fields: list[str]) -> bool:
    """Whether a first line with no known puzzle column is a CSV header all the same:
    two or more fields, each a name (a letter in it), the line itself no puzzle."""
    if len(fields) < 2 or not all(any(c.isalpha() for c in f) for f in fields):
        return False
    return not _reads_as_puzzle(text)


def encode_puzzle(text: str, geometry: Geometry = CLASSIC) -> bytes:
    """The engine values (0 = empty) of one puzzle of `geometry` in any notation `parse` accepts."""
    return parse_grid(text, geometry=geometry)[1]


def grid_text(values: bytes | bytearray | memoryview, geometry: Geometry = CLASSIC) -> str:
    """The canonical string of one grid's engine values."""
    return format_values(bytes(values), geometry)


# What the scanner skips around a record and before deciding a line is blank or a
# comment: space, tab, vertical tab, form feed, carriage return (`_textio.is_blank`).
BLANKS = b" \t\x0b\x0c\r"


def _records(
    data: bytes, start: int, stop: int, first_line: int, comments: bool = True
) -> Iterator[tuple[int, int, int]]:
    """(line number, begin, end) of the records in data[start:stop]; data[begin:end] is
    the record's text without surrounding blanks.

    The same rules as `_textio.scan_block`: blank lines are skipped, and with `comments`
    '#' comments.
    """
    line = first_line
    pos = start
    while pos < stop:
        end = data.find(b"\n", pos, stop)
        if end < 0:
            end = stop
        segment = data[pos:end]
        text = segment.strip(BLANKS)
        if text and not (comments and text.startswith(b"#")):
            begin = pos + len(segment) - len(segment.lstrip(BLANKS))
            yield line, begin, begin + len(text)
        line += 1
        pos = end + 1


def _may_be_skipped(head: bytes, comments: bool = True) -> bool:
    """Whether a line beginning with `head` may be blank or (with `comments`) a comment,
    so no record."""
    text = head.lstrip(BLANKS)
    return not text or (comments and text.startswith(b"#"))


def _too_long() -> str:
    return f"line longer than {MAX_LINE:,} bytes: not a puzzle"


def _lines_in(data: bytes, start: int, stop: int) -> int:
    """The number of lines in data[start:stop], an unterminated last one included."""
    lines = data.count(b"\n", start, stop)
    return lines + (1 if stop > start and data[stop - 1] != 10 else 0)


def _own_geometry(text: str, marks: bool) -> Geometry:
    """The geometry of a puzzle (or pencil marks) read on its own; ValueError if none."""
    return parse_marks_grid(text)[0] if marks else parse_grid(text)[0]


def own_size(text: str, marks: bool = False) -> int | None:
    """The size of a puzzle (or pencil marks) read on its own; None if it reads as none."""
    try:
        return _own_geometry(text, marks).size
    except ValueError:
        return None


def other_size(text: str, size: int, marks: bool) -> str | None:
    """What is wrong with a puzzle that does not parse as one of a file's `size`, when it
    is a puzzle of another size read on its own; else None."""
    own = own_size(text, marks)
    if own is None or own == size:
        return None
    return (
        f"a {own}x{own} puzzle in a file of {size}x{size} puzzles "
        "(a file's size is its first puzzle's, unless box= or alphabet= sets it)"
    )


class PuzzleReader:
    """Reads a binary stream of puzzles as a sequence of `Batch` objects.

    The format (lines or CSV) is detected from the first line that is neither blank nor
    a '#' comment: a CSV header must name the puzzle column. Below a CSV header a line
    starting with '#' is a row (its first field is data, an id such as "#17"). With
    `want_given`, a CSV solution column is read too (for verification). `box` /
    `alphabet` fix the geometry of the puzzles (as in `parse`); without them the first
    puzzle that parses decides it, and `geometry` is None until then. Nothing in the input stops the
    reading: a line that cannot be a puzzle (a line over MAX_LINE bytes included) is a
    malformed record.
    """

    def __init__(
        self,
        source: BinaryIO,
        name: str,
        want_given: bool = False,
        *,
        box: object = None,
        alphabet: object = None,
        marks: bool = False,
        column: str | None = None,
        classic_only: str | None = None,
    ) -> None:
        """Start reading `source` (named `name` in messages) and detect its format.

        With `marks` every puzzle is pencil marks (see `grid.parse_marks_grid`); a batch
        then carries them as candidate masks. `column` names the CSV puzzle column (any
        case), for a header that has none of PUZZLE_COLUMNS; the file must be CSV then.
        `classic_only`, for a reader whose puzzles are used under classic rules only,
        says why: a record carrying variant rules of its own is then malformed with
        that reason (never read as the classic puzzle it is not).
        """
        self.name = name
        self.classic_only = classic_only
        self.marks = marks
        self.inferred = box is None and alphabet is None
        self.geometry: Geometry | None = None
        if not self.inferred:
            self.geometry = geometry_for(None, box, alphabet)
        self.bytes_read = 0
        self.is_csv = False
        self.header = ""  # a CSV file's header line
        self.header_fields: list[str] = []
        self.delimiter = ","  # a CSV file's field separator, from its header
        self.column = column
        self.puzzle_field = -1
        self.solution_field = -1
        self.rules_field = -1  # a CSV file's rules column
        self.jsonl = False  # one JSON object per line
        self.tabbed = False  # lines of a puzzle, a tab, its rules
        self._json_solutions = False  # a JSON line held a solution
        self._source = source
        self._read_some = getattr(source, "read1", source.read)
        self._line = 1
        self._first_batch: Batch | None = None  # a bad first line read while detecting
        self._pending = self._detect_format(want_given)

    @property
    def comments(self) -> bool:
        """Whether a line starting with '#' is a comment: in a CSV file only above its
        header (read already), so below it every such line is a row."""
        return not self.is_csv

    @property
    def own_rules(self) -> bool:
        """Whether the records may carry rules of their own (see the module doc)."""
        return self.jsonl or self.tabbed or self.rules_field >= 0

    @property
    def has_solutions(self) -> bool:
        """Whether the input has a solution column that is being read."""
        return self.solution_field >= 0 and (not self.jsonl or self._json_solutions)

    def _read(self, size: int) -> bytes:
        """Up to `size` bytes; less when the source has no more ready (a slow pipe).

        A pipe hands out at most one pipe buffer per read; a full one means more is
        probably waiting, so reading goes on, while a short one (a person typing, a slow
        producer) ends the block so that its answers come out at once.
        """
        parts: list[bytes] = []
        wanted = size
        while wanted > 0:
            part: bytes = self._read_some(wanted)
            if not part:
                break
            parts.append(part)
            wanted -= len(part)
            if len(part) < PIPE_BUFFER:
                break
        chunk = parts[0] if len(parts) == 1 else b"".join(parts)
        self.bytes_read += len(chunk)
        return chunk

    def _detect_format(self, want_given: bool) -> bytes:
        """Read up to the first record line; consume it if it is a CSV header.

        Blank and comment lines before it are dropped as they are read, so memory stays
        flat however many there are; `_line` ends as the number of the first line kept.
        """
        data = self._read(FIRST_BLOCK)
        if data.startswith(b"\xef\xbb\xbf"):
            data = data[3:]
        elif data.startswith((b"\xff\xfe", b"\xfe\xff")):
            # Read as UTF-8 every line would be malformed, and the NULs make extra ones.
            raise ValueError(
                f"{self.name}: the file is UTF-16 (its byte order mark says so); "
                "puzzle files are read as UTF-8 (or ASCII): save it as UTF-8"
            )
        eof = False
        while True:
            whole = len(data) if eof else data.rfind(b"\n") + 1
            records, end = _textio.record_span(memoryview(data)[:whole], 1)
            if records:
                break
            self._line += data.count(b"\n", 0, whole)
            data = data[whole:]
            if not eof and len(data) > MAX_LINE and _may_be_skipped(data):
                bad, data = self._skip_long_line(data)  # a long blank or comment line
                if bad is None:
                    continue
                self._first_batch = bad  # blanks, then something: the first record
                return data
            if eof or len(data) > MAX_LINE:
                return data  # nothing but blanks and comments, or a line too long to read
            chunk = self._read(FIRST_BLOCK)
            eof = not chunk
            data += chunk
        start = data.rfind(b"\n", 0, end - 1) + 1
        self._line += data.count(b"\n", 0, start)
        newline = end - 1 if data[end - 1] == 10 else end
        first = data[start:newline].decode("utf-8", "replace").strip().lstrip("\ufeff")
        if first.startswith("{") or "\t{" in first:
            # JSON lines, or puzzle TAB rules: what `generate` writes with rules.
            self.jsonl = first.startswith("{")
            self.tabbed = not self.jsonl
            if self.jsonl and want_given:
                self.solution_field = 0  # a record's "solution" is read (see `_json_record`)
            return data[start:]
        delimiter = _header_delimiter(first)
        fields = _header_fields(data[start:newline], delimiter)
        if self.column is not None:
            puzzle = find_column(fields, (self.column.strip().lower(),))
            if puzzle < 0 and _reads_as_puzzle(first):
                raise ValueError(
                    f"{self.name}: no column {self.column!r}: the file has no CSV header "
                    "(its first line is a puzzle)"
                )
            if puzzle < 0:
                raise ValueError(
                    f"{self.name}: no column {self.column!r} in its header "
                    f"(columns: {_named(first, delimiter)})"
                )
        else:
            puzzle = find_column(fields, PUZZLE_COLUMNS)
        if puzzle < 0:
            if _looks_like_header(first, fields):
                raise ValueError(
                    f"{self.name}: its header has no puzzle column: none of "
                    f"{', '.join(PUZZLE_COLUMNS)} (columns: {_named(first, delimiter)}); "
                    "name one with column="
                )
            return data[start:]  # one puzzle per line (a lone `puzzle` header is a one-column CSV)
        self.is_csv = True
        self.delimiter = delimiter
        self.header = data[start:newline].decode("utf-8", "replace").strip()
        self.header_fields = fields
        self.puzzle_field = puzzle
        self.solution_field = find_column(fields, SOLUTION_COLUMNS) if want_given else -1
        self.rules_field = find_column(fields, RULES_COLUMNS)
        self._line += 1
        return data[end:]

    def __iter__(self) -> Iterator[Batch]:
        """The batches of the input, in order (each holds whole lines).

        A batch holds at most MAX_BATCH_CELLS cells of grids, whatever the lines are
        like; a line longer than MAX_LINE becomes a malformed record of its own, skipped
        without being kept whole.
        """
        data = self._pending
        self._pending = b""
        if self._first_batch is not None:
            yield self._first_batch
            self._first_batch = None
        start = 0  # data[:start] is done
        size = FIRST_BLOCK
        eof = False
        while True:
            whole = len(data) if eof else data.rfind(b"\n") + 1
            if whole > start:
                batch, start = self._scan(data, start, whole)
                if batch.n:
                    yield batch
                continue
            if eof:
                return
            if len(data) - start > MAX_LINE:
                bad, data = self._skip_long_line(data[start:])
                start = 0
                if bad is not None:
                    yield bad
                continue
            chunk = self._read(size)
            size = min(size * 4, MAX_BLOCK)
            eof = not chunk
            data = data[start:] + chunk
            start = 0

    def _skip_long_line(self, head: bytes) -> tuple[Batch | None, bytes]:
        """Read past a line longer than MAX_LINE that `head` (read already) begins.

        A blank or '#' comment line makes no record (None), however long; any other
        makes one malformed record, without being kept whole. Returns that record's
        batch and the data read after the line.
        """
        line = self._line
        text = head.lstrip(BLANKS)
        rest = b""
        while True:
            chunk = self._read(MAX_BLOCK)
            if not chunk:
                break
            newline = chunk.find(b"\n")
            if not text:  # blanks so far: what follows them decides
                text = (chunk if newline < 0 else chunk[:newline]).lstrip(BLANKS)
            if newline >= 0:
                rest = chunk[newline + 1 :]
                break
        self._line += 1
        if _may_be_skipped(text, self.comments):
            return None, rest
        geometry = self.geometry if self.geometry is not None else CLASSIC
        # Its text stands for a row of empty fields, so CSV output keeps its columns.
        placeholder = b"," * (len(self.header_fields) - 1) if self.is_csv else b""
        batch = Batch(
            n=1,
            grids=bytearray(geometry.cells),
            given=bytearray(geometry.cells) if self.solution_field >= 0 else bytearray(),
            flags=bytearray(1),
            line_numbers=array("q", [line]),
            bytes_end=self.bytes_read - len(rest),
            geometry=geometry,
            text=placeholder,
            spans=array("q", [0, len(placeholder)]),
        )
        batch.mark_bad(0, _too_long())
        return batch, rest

    def puzzle_of(self, text: str) -> str | None:
        """The puzzle of a record's text (its CSV field, its JSON object's puzzle, the
        part before a tab), or None when there is none."""
        if self.jsonl:
            try:
                return self._json_record(text)[0]
            except ValueError:
                return None
        if self.tabbed:
            return text.split("\t", 1)[0]
        if not self.is_csv:
            return text
        try:
            fields = next(csv.reader([text], delimiter=self.delimiter))
        except csv.Error:
            return None
        return fields[self.puzzle_field] if self.puzzle_field < len(fields) else None

    def _first_geometry(self, data: bytes, start: int, stop: int) -> Geometry | None:
        """The geometry of the first record in data[start:stop] that parses, if any."""
        for _line, begin, end in _records(data, start, stop, self._line, self.comments):
            puzzle = self.puzzle_of(data[begin:end].decode("utf-8", "replace"))
            if puzzle is not None:
                try:
                    return _own_geometry(puzzle, self.marks)
                except ValueError:
                    pass
                # A jigsaw of a prime size: its regions replace the boxes it has none of.
                box = self._jigsaw_box(data[begin:end].decode("utf-8", "replace"))
                if box is not None:
                    with contextlib.suppress(ValueError):
                        return parse_grid(puzzle, box=box)[0]
        return None

    def _jigsaw_box(self, text: str) -> object:
        """The (1, N) box a record's own jigsaw rules of a prime size N call for, else None."""
        raw: object = None
        if self.jsonl:
            with contextlib.suppress(ValueError):
                raw = self._json_record(text)[2]
        elif self.tabbed and "\t" in text:
            raw = text.split("\t", 1)[1].strip() or None
        elif self.rules_field >= 0:
            with contextlib.suppress(csv.Error, StopIteration):
                fields = next(csv.reader([text], delimiter=self.delimiter))
                if self.rules_field < len(fields):
                    raw = fields[self.rules_field].strip() or None
        try:
            rules = as_rules(raw)
        except (ValueError, TypeError):
            return None
        return None if rules is None else box_for(rules, None, None)

    def _scan(self, data: bytes, start: int, stop: int) -> tuple[Batch, int]:
        """Encode the records of the whole lines in data[start:stop], as many as a batch holds.

        Returns the batch and where its lines end.
        """
        if self.geometry is None:
            self.geometry = self._first_geometry(data, start, stop)
        # Still None: no record of this block parses, so every one is malformed anyway.
        geometry = self.geometry if self.geometry is not None else CLASSIC
        cells = geometry.cells
        view = memoryview(data)[start:stop]
        records, end = _textio.record_span(view, max(1, MAX_BATCH_CELLS // cells), self.comments)
        view = view[:end]
        batch = Batch(
            n=0,
            grids=bytearray(records * cells),
            given=bytearray(records * cells) if self.solution_field >= 0 else bytearray(),
            flags=bytearray(records),
            line_numbers=array("q", bytes(8 * records)),
            bytes_end=self.bytes_read - (len(data) - (start + end)),
            geometry=geometry,
            text=view,
            spans=array("q", bytes(16 * records)),
            masks=array("Q", bytes(8 * records * cells)) if self.marks else None,
        )
        if geometry != CLASSIC or self.marks or self.own_rules:
            found = _records(data, start, start + end, self._line, self.comments)
            for line, begin, finish in found:
                record = batch.n
                batch.n += 1
                batch.line_numbers[record] = line
                batch.spans[2 * record] = begin - start
                batch.spans[2 * record + 1] = finish - start
                self._parse_line(batch, record, data[begin:finish])
            self._line += _lines_in(data, start, start + end)
            return batch, start + end
        batch.n, lines, slow = _textio.scan_block(
            view,
            self._line,
            self.puzzle_field,
            self.solution_field,
            batch.grids,
            batch.given,
            batch.line_numbers,
            batch.flags,
            batch.spans,
            len(self.header_fields) if self.is_csv else -1,
            self.comments,
            ord(self.delimiter),
        )
        self._line += lines
        for record, _line, begin, finish in slow:
            self._parse_line(batch, record, bytes(view[begin:finish]))
        return batch, start + end

    def _parse_line(self, batch: Batch, record: int, line: bytes) -> None:
        """The full parser on a line the compiled scanner did not take."""
        if len(line) > MAX_LINE:
            batch.mark_bad(record, _too_long())
            return
        text = line.decode("utf-8", "replace")
        solution = ""
        rules: object = None
        if self.jsonl:
            try:
                text, solution, rules = self._json_record(text)
            except ValueError as err:
                batch.mark_bad(record, str(err))
                return
        elif self.tabbed and "\t" in text:
            text, rules = text.split("\t", 1)
            rules = rules.strip() or None
        if self.is_csv:
            width = len(self.header_fields)
            sep = self.delimiter
            if text.count('"') % 2:
                # A quoted field that goes on past the line's end: records are read line
                # by line, so each line of such a record is a record (and this one bad).
                batch.rewritten[record] = _whole_row(batch.record_text(record), width, sep)
                batch.mark_bad(record, "a quoted field runs on past the end of the line")
                return
            try:
                fields = next(csv.reader([text], delimiter=sep))
            except csv.Error as err:
                batch.rewritten[record] = _whole_row(batch.record_text(record), width, sep)
                batch.mark_bad(record, f"not a CSV row: {err}")
                return
            if len(fields) != width:
                # Its answer would land in another column (or its puzzle be missing):
                # every row of a CSV file has the header's fields (RFC 4180). A shorter
                # row is padded with empty fields; a longer one is written whole in its
                # first field, so nothing is dropped and the output keeps the header's.
                row = batch.record_text(record)
                batch.rewritten[record] = (
                    row + sep * (width - len(fields))
                    if len(fields) < width
                    else _whole_row(row, width, sep)
                )
                batch.mark_bad(
                    record,
                    f"{len(fields)} field(s) where the header has {width}",
                )
                return
            text = fields[self.puzzle_field]
            if 0 <= self.solution_field < len(fields):
                solution = fields[self.solution_field].strip()
            if 0 <= self.rules_field < len(fields):
                rules = fields[self.rules_field].strip() or None
        geometry = batch.geometry
        cells = geometry.cells
        try:
            values = self._encode(text, geometry)
        except ValueError as err:
            where = "puzzle field: " if self.is_csv else ""
            batch.mark_bad(record, f"{where}{err}")
            return
        if rules is not None:
            try:
                own = as_rules(rules)
            except (ValueError, TypeError) as err:
                reason = str(err)
                batch.mark_bad(record, reason if reason.startswith("rules") else f"rules: {reason}")
                return
            if own is not None:
                if self.classic_only is not None:
                    batch.mark_bad(record, f"the puzzle carries variant rules: {self.classic_only}")
                    return
                batch.own_rules[record] = own
        if isinstance(values, array):
            assert batch.masks is not None  # pencil marks: the reader made room for them
            batch.masks[record * cells : (record + 1) * cells] = values
        else:
            batch.grids[record * cells : (record + 1) * cells] = values
        if solution:
            try:
                given = encode_puzzle(solution, geometry)
                batch.given[record * cells : (record + 1) * cells] = given
                batch.flags[record] |= FLAG_GIVEN
            except ValueError as err:
                batch.given_problems[record] = f"the given solution is malformed: {err}"

    def _json_record(self, text: str) -> tuple[str, str, object]:
        """The puzzle, the given solution ("" when none is read) and the rules (None when
        none) of a JSON line; ValueError saying what is wrong with it."""
        try:
            document = json.loads(text)
        except ValueError as err:  # bad JSON, or an int of thousands of digits
            raise ValueError(f"not a JSON object: {err}") from None
        except RecursionError:
            raise ValueError("not a JSON object: nested too deeply") from None
        if not isinstance(document, dict):
            raise ValueError(f"not a JSON object: {type(document).__name__}")
        keys = {key.strip().lower(): key for key in document if isinstance(key, str)}
        wanted = (self.column.strip().lower(),) if self.column is not None else PUZZLE_COLUMNS
        found = [keys[name] for name in wanted if name in keys]
        if not found:
            raise ValueError(f"no puzzle: none of the keys {', '.join(wanted)}")
        puzzle = document[found[0]]
        if not isinstance(puzzle, str):
            raise ValueError(f"the puzzle must be a string, not {type(puzzle).__name__}")
        solution = ""
        if self.solution_field >= 0:
            named = [keys[name] for name in SOLUTION_COLUMNS if name in keys]
            given = document[named[0]] if named else None
            solution = given.strip() if isinstance(given, str) else ""
            self._json_solutions |= bool(solution)
        rules = document[keys["rules"]] if "rules" in keys else None
        return puzzle, solution, rules

    def _encode(self, text: str, geometry: Geometry) -> bytes | array[int]:
        """The values (with marks: the masks) of one puzzle, or ValueError saying why not,
        with the option that would read it when one would (see `notations.suggestion`)."""
        try:
            return self._encode_plainly(text, geometry)
        except ValueError as err:
            if self.marks:
                raise
            from .notations import suggestion

            fixed = not self.inferred
            box = (geometry.box_rows, geometry.box_cols) if fixed else None
            hint = suggestion(text, box, geometry.symbols if fixed else None)
            if not hint:
                raise
            raise ValueError(f"{err}; {hint}") from None

    def _encode_plainly(self, text: str, geometry: Geometry) -> bytes | array[int]:
        if self.geometry is None:
            # No puzzle has decided the size yet: say what is wrong with this one alone.
            _own_geometry(text, self.marks)
        try:
            if self.marks:
                return parse_marks_grid(text, geometry=geometry)[1]
            return encode_puzzle(text, geometry)
        except ValueError:
            other = other_size(text, geometry.size, self.marks) if self.inferred else None
            if other is None:
                raise
            raise ValueError(other) from None


def _named(header: str, delimiter: str) -> str:
    """A header's column names as the file spells them, for a message."""
    try:
        fields = next(csv.reader([header], delimiter=delimiter))
    except (csv.Error, StopIteration):
        fields = header.split(delimiter)
    return ", ".join(f.strip() for f in fields)


def _reads_as_puzzle(text: str) -> bool:
    """Whether a name given for a file is a puzzle in some notation instead."""
    try:
        parse_grid(text)
    except ValueError:
        return False
    return True


class _Replayed(io.RawIOBase):
    """A stream that has been read from already, made whole again: `head` (the bytes
    already read) first, then the rest of `rest`. A pipe cannot seek back, so what was
    read to see what kind of input it is must be given back this way."""

    def __init__(self, head: bytes, rest: BinaryIO, close_rest: bool) -> None:
        super().__init__()
        self._head = memoryview(head)
        self._rest = rest
        self._close_rest = close_rest

    def readable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._rest.fileno()

    def readinto(self, buffer: Any) -> int:
        if self._head:
            n = min(len(buffer), len(self._head))
            buffer[:n] = self._head[:n]
            self._head = self._head[n:]
            return n
        data = (
            self._rest.read1(len(buffer))
            if hasattr(self._rest, "read1")
            else (self._rest.read(len(buffer)))
        )
        buffer[: len(data)] = data
        return len(data)

    def close(self) -> None:
        if not self.closed and self._close_rest:
            self._rest.close()
        super().close()


def _read_head(stream: BinaryIO, size: int) -> bytes:
    """The first `size` bytes of `stream` (fewer only at its end): a pipe may deliver
    them in several reads."""
    head = b""
    while len(head) < size:
        more = stream.read(size - len(head))
        if not more:
            break
        head += more
    return head


def _is_regular(stream: BinaryIO) -> bool:
    """Whether `stream` reads a regular file (one that can be read twice), not a pipe,
    a FIFO, a terminal or a socket."""
    try:
        return stat.S_ISREG(os.fstat(stream.fileno()).st_mode)
    except (OSError, AttributeError, ValueError, io.UnsupportedOperation):
        return False


def open_input(path: str) -> tuple[BinaryIO, str, int | None]:
    """A binary stream for the puzzle text of `path` ('-' = standard input), its display
    name and size (None when unknown).

    The input is opened once and read once: a pipe, a FIFO, `/dev/stdin` or a process
    substitution is read exactly as a regular file is. Raises ValueError for a Parquet
    file that is not a regular file (Parquet is read from its end, which a pipe cannot
    give), FileNotFoundError for a name that is no file (saying so when it reads as a
    puzzle), and OSError for other failures to open it.
    """
    if path == "-":
        stream: BinaryIO = sys.stdin.buffer
        name = "<stdin>"
    else:
        name = path
        try:
            stream = open(path, "rb")  # noqa: SIM115 - the caller closes it
        except OSError as err:  # not found, a name too long for one (big grids), ...
            if not os.path.exists(path) and _reads_as_puzzle(path):
                shown = path if len(path) <= 90 else path[:87] + "..."
                raise FileNotFoundError(
                    f"no file {shown!r}; it reads as a puzzle: the commands that take files "
                    "read puzzles from standard input with '-' (e.g. echo PUZZLE | sudoku-fast "
                    "solve -)"
                ) from None
            raise err
    if _is_regular(stream):
        try:
            size = os.fstat(stream.fileno()).st_size
        except OSError:
            size = 0
        return stream, name, size or None
    try:
        head = _read_head(stream, len(PARQUET_MAGIC))
    except BaseException:
        if stream is not sys.stdin.buffer:
            stream.close()
        raise
    if head == PARQUET_MAGIC:
        if stream is not sys.stdin.buffer:
            stream.close()
        raise ValueError(
            f"{name}: a Parquet file must be given as a regular file: it is read from its "
            "end, which a pipe cannot give; save it to a file first"
        )
    replayed = _Replayed(head, stream, close_rest=stream is not sys.stdin.buffer)
    return io.BufferedReader(replayed), name, None


def is_parquet(path: str) -> bool:
    """True when `path` is a Parquet file: by its name, or for a regular file by its first
    four bytes. Anything else (a pipe, a FIFO, '-') is not opened here: reading it would
    take its first bytes away (or wait for a writer); `open_input` looks at those."""
    if path == "-":
        return False
    if path.endswith((".parquet", ".pq")):
        return True
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return False
        with open(path, "rb") as f:
            return f.read(len(PARQUET_MAGIC)) == PARQUET_MAGIC
    except OSError:
        return False


# Bytes per copy step when a finished output is copied into a device or a pipe.
_COPY_STEP = 1 << 20


def _is_special(path: str) -> bool:
    """Whether `path` names something other than a regular file (through any link): a
    device, a pipe, a FIFO. Such a target is written into, not replaced."""
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except OSError:  # not there yet (or not reachable: opening it will say why)
        return False


@contextlib.contextmanager
def replacing(output: str) -> Iterator[str]:
    """The path to write a new `output` at: when the block ends without an error, the
    written file replaces `output` at once (a rename), so `output` is only ever the old
    file or the whole new one, whatever stops the run (a full disk, a file-size limit,
    Ctrl-C, a crash: after SIGKILL a hidden `.NAME.*.partial` file may stay behind).

    A link is followed (the file it names is replaced, not the link); the permissions
    of a file replaced are kept. A device or a pipe is not a file to replace: the whole
    output is written elsewhere first and then copied into it. An OSError about the
    temporary file names `output` instead.
    """
    special = _is_special(output)
    target = output if special else os.path.realpath(output)
    folder = tempfile.gettempdir() if special else os.path.dirname(target)
    base = os.path.basename(target)[:200]  # room for the suffix in a file name
    partial = os.path.join(folder, f".{base}.{os.getpid()}.{threading.get_ident()}.partial")
    try:
        yield partial
        if special:
            with open(partial, "rb") as written, open(target, "wb") as out:
                shutil.copyfileobj(written, out, _COPY_STEP)
            os.unlink(partial)
        else:
            with contextlib.suppress(OSError):  # a new file: nothing to keep
                shutil.copymode(target, partial)
            os.replace(partial, target)
    except BaseException as err:
        with contextlib.suppress(OSError):
            os.unlink(partial)
        if isinstance(err, OSError) and partial in str(err):  # name the user's file
            if err.filename == partial:
                raise type(err)(err.errno, err.strerror, output) from None
            raise type(err)(str(err).replace(partial, output)) from None
        raise


@contextlib.contextmanager
def output_file(output: str) -> Iterator[BinaryIO]:
    """A binary stream whose bytes become the file `output` when the block ends without
    an error, whole or not at all (see `replacing`). A device or a pipe (`/dev/null`, a
    FIFO) is written into directly, as it is read while it is written."""
    if _is_special(output):
        with open(output, "wb") as out:
            yield out
        return
    with replacing(output) as partial, open(partial, "xb") as out:
        yield out


@dataclass
class SolveOptions:
    """How `solve_stream` answers: solutions or counts, checks, malformed lines, format;
    `rules`: the variant rules of every puzzle (merged with a record's own)."""

    threads: int | None = None
    count: bool = False
    limit: int = 2
    verify: bool = False
    on_error: str = "mark"
    csv_output: bool = False
    # Per puzzle, grids other than 9x9 with 3x3 boxes; None: no budget.
    max_nodes: int | None = DEFAULT_MAX_NODES
    rules: Rules | None = None


@dataclass
class RunReport:
    """What a run over one input did."""

    records: int = 0
    solved: int = 0  # a solution found (in count mode: at least one)
    several: int = 0  # count mode: at least two solutions found
    no_solution: int = 0
    malformed: int = 0
    unknown: int = 0
    checked: int = 0
    mismatches: int = 0
    stopped: bool = False
    threads: int = 1
    seconds: float = 0.0


class _Solver:
    """Solves, writes and checks batches on its own thread, strictly in order."""

    def __init__(
        self,
        reader: PuzzleReader,
        out: BinaryIO,
        options: SolveOptions,
        messages: LineReport,
        progress: Progress,
    ) -> None:
        self.reader = reader
        self.out = out
        self.options = options
        self.messages = messages
        self.progress = progress
        self.report = RunReport()
        # Set by the reading thread when it is interrupted (Ctrl-C lands there): the
        # batch being solved on the solver's thread is then abandoned, not written.
        self.stop_flag = bytearray(1)
        if not options.csv_output:
            self.csv_mode = CSV_ANSWER_ONLY
        else:
            self.csv_mode = CSV_WITH_ROW if reader.is_csv else CSV_WITH_PUZZLE

    def header(self) -> bytes:
        """The CSV header line of the output (empty when the output is not CSV).

        CSV input keeps its own header, with the answer column added (see
        `answer_column` for its name).
        """
        if self.csv_mode == CSV_WITH_PUZZLE:
            return f"puzzle,{answer_column((), self.options.count)}\n".encode()
        if self.csv_mode != CSV_WITH_ROW:
            return b""
        answer = answer_column(self.reader.header_fields, self.options.count)
        return f"{self.reader.header}{self.reader.delimiter}{answer}\n".encode()

    def finish_batch(self, batch: Batch) -> None:
        """Solve one batch, write its answers, report its problems, count the results."""
        options = self.options
        limit = options.limit if options.count else 1
        # Compiled text I/O, unless a malformed CSV row is written otherwise than read.
        classic = (
            batch.geometry == CLASSIC
            and batch.masks is None
            and not batch.rewritten
            and batch.rules is None
        )
        if batch.rules is None:
            results = run_engine(
                batch.grids,
                batch.n,
                limit,
                options.threads,
                geometry=batch.geometry,
                max_nodes=node_budget(options.max_nodes),
                masks=batch.masks,
                stop_flag=self.stop_flag,
            )
        else:
            results = run_rules(
                batch.grids,
                batch.n,
                batch.rules,
                limit,
                options.threads,
                geometry=batch.geometry,
                max_nodes=node_budget(options.max_nodes),
                stop_flag=self.stop_flag,
            )
        if self.stop_flag[0]:
            return
        for record, _ in batch.problems:  # malformed: no answer, whatever its marker gave
            results.counts[record] = 0
        csv_mode = self.csv_mode
        if classic:
            answers: bytes | memoryview = _textio.format_answers(
                batch.grids,
                results.solutions,
                results.counts,
                batch.flags,
                batch.n,
                csv_mode,
                options.count,
                options.on_error == "skip",
                NO_SOLUTION_MARK.encode(),
                MALFORMED_MARK.encode(),
                batch.text,
                batch.spans,
                ord(self.reader.delimiter),
            )
        else:
            answers = _format_answers(batch, results, options, csv_mode, self.reader.delimiter)
        self.out.write(answers)
        self.out.flush()
        name = self.reader.name
        for record, reason in batch.problems:
            self.messages.line(name, batch.line_numbers[record], reason)
        if batch.failed is not None:
            line, reason = batch.failed
            self.messages.line(name, line, f"{reason} (stopping here)")
        counts = results.counts
        undecided = (
            []
            if results.on_core or min(counts, default=0) >= 0
            else [i for i in range(batch.n) if counts[i] < 0]
        )
        for record in undecided:
            self.messages.line(
                name,
                batch.line_numbers[record],
                f"{UNKNOWN_MARK}: no answer within {options.max_nodes:,} search nodes",
            )
        if options.verify:
            self._verify(batch, results, len(undecided))
        report = self.report
        bad = len(batch.problems)
        unsolved = results.counts.count(0)  # malformed records included
        stopped_at = int(batch.failed is not None)
        report.records += batch.n + stopped_at
        report.malformed += bad + stopped_at
        report.unknown += len(undecided)
        report.solved += batch.n - unsolved - len(undecided)
        if options.count:
            report.several += batch.n - unsolved - len(undecided) - counts.count(1)
        report.no_solution += unsolved - bad
        report.threads = max(report.threads, results.threads)
        self.progress.update(report.records, batch.bytes_end)

    def _verify(self, batch: Batch, results: EngineResults, undecided: int) -> None:
        """Check every solution by the rules, and against the given solutions."""
        if batch.geometry == CLASSIC and batch.masks is None and batch.rules is None:
            args = (results.solutions, results.counts)
            wrong = _textio.check_solutions(batch.grids, *args, batch.flags, batch.n)
            differ = _textio.compare_given(*args, batch.given, batch.flags, batch.n)
        else:
            wrong, differ = _check_answers(batch, results)
        verdicts = {record: "wrong: the solution found breaks the rules" for record in wrong}
        for record in differ:
            verdicts.setdefault(record, self._explain_difference(batch, results, record))
        for record, reason in batch.given_problems.items():
            verdicts.setdefault(record, f"mismatch: {reason}")
        self.report.checked += batch.n - len(batch.problems) - undecided
        self.report.mismatches += len(verdicts)
        for record in sorted(verdicts):
            self.messages.line(self.reader.name, batch.line_numbers[record], verdicts[record])

    @staticmethod
    def _explain_difference(batch: Batch, results: EngineResults, record: int) -> str:
        geometry = batch.geometry
        cells = slice(record * geometry.cells, (record + 1) * geometry.cells)
        given_valid = _solves(batch, record, batch.given[cells])
        if results.counts[record] == 0:
            if given_valid:
                return "wrong: no solution found, but the given solution is valid"
            return "mismatch: no solution found, and the given solution is not valid either"
        if given_valid:
            return "mismatch: several solutions; the given one differs from the one found"
        return "mismatch: the given solution is not a solution of the puzzle"


def _format_answers(
    batch: Batch, results: EngineResults, options: SolveOptions, csv_mode: int, sep: str = ","
) -> bytes:
    """The answer lines of a batch of any geometry (as `_textio.format_answers` writes them)."""
    geometry = batch.geometry
    size = cells = geometry.cells
    used = batch.n * cells
    puzzles = ""
    if csv_mode == CSV_WITH_PUZZLE:
        if batch.masks is not None:
            puzzles = format_marks(batch.masks[:used], geometry)
            cells *= geometry.size  # each puzzle is N*N*N characters then
        else:
            puzzles = format_values(batch.grids[:used], geometry)
    solutions = format_values(results.solutions[:used], geometry) if not options.count else ""
    lines = []
    for i in range(batch.n):
        bad = batch.flags[i] & FLAG_BAD
        if bad and options.on_error == "skip":
            continue
        count = results.counts[i]
        if bad:
            answer = MALFORMED_MARK
        elif count < 0:
            answer = UNKNOWN_MARK
        elif options.count:
            answer = str(count)
        elif count == 0:
            answer = NO_SOLUTION_MARK
        else:
            answer = solutions[i * size : (i + 1) * size]
        if csv_mode == CSV_WITH_ROW:
            row = batch.rewritten.get(i)
            answer = f"{batch.record_text(i) if row is None else row}{sep}{answer}"
        elif csv_mode == CSV_WITH_PUZZLE:
            text = batch.record_text(i).replace('"', '""')
            puzzle = f'"{text}"' if bad else puzzles[i * cells : (i + 1) * cells]
            answer = f"{puzzle},{answer}"
        lines.append(answer + "\n")
    return "".join(lines).encode("utf-8")


def _solves(batch: Batch, record: int, solution: bytes | bytearray) -> bool:
    """Whether a grid's values solve a record: the rules, its clues, its pencil marks.

    Independent of the engine (`is_solution`, `rule_broken` under variant rules, and a
    plain look at the masks).
    """
    geometry = batch.geometry
    cells = geometry.cells
    grid = slice(record * cells, (record + 1) * cells)
    box = (geometry.box_rows, geometry.box_cols)
    rules = None if batch.rules is None else batch.rules[record]
    if rules is not None:
        clues = batch.grids[grid]
        if any(clue and clue != value for clue, value in zip(clues, solution, strict=True)):
            return False
        return rule_broken(solution, geometry.size, box, rules) is None
    puzzle = grid_text(batch.grids[grid], geometry)
    if not is_solution(grid_text(solution, geometry), puzzle, box=box, alphabet=geometry.symbols):
        return False
    if batch.masks is None:
        return True
    masks = batch.masks[grid]
    return all(masks[cell] >> (value - 1) & 1 for cell, value in enumerate(solution))


def _check_answers(batch: Batch, results: EngineResults) -> tuple[list[int], list[int]]:
    """Records whose solution breaks the rules, and those differing from their given one.

    The check of `_textio.check_solutions` and `compare_given` for any geometry (and for
    pencil marks), by the engine-independent `_solves`; undecided records are skipped.
    """
    cells = batch.geometry.cells
    wrong = []
    differ = []
    for i in range(batch.n):
        count = results.counts[i]
        if batch.flags[i] & FLAG_BAD or count < 0:
            continue
        grid = slice(i * cells, (i + 1) * cells)
        if count > 0 and not _solves(batch, i, results.solutions[grid]):
            wrong.append(i)
        if batch.flags[i] & FLAG_GIVEN and (
            count == 0 or results.solutions[grid] != batch.given[grid]
        ):
            differ.append(i)
    return wrong, differ


def solve_stream(
    reader: PuzzleReader,
    out: BinaryIO,
    options: SolveOptions,
    messages: LineReport,
    progress: Progress,
) -> RunReport:
    """Answer every record of `reader` on `out`, one line each, in input order.

    Reading and parsing overlap with solving; output is written batch by batch.
    """
    check_on_error(options.on_error)
    started = time.perf_counter()
    solver = _Solver(reader, out, options, messages, progress)
    out.write(solver.header())
    writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sudoku_fast_writer")
    in_flight: Future[None] | None = None
    try:
        for batch in reader:
            batch.attach_rules(options.rules)
            if options.on_error == "fail" and batch.problems:
                batch.stop_at_first_problem()
                solver.report.stopped = True
            if in_flight is not None:
                in_flight.result()  # at most one batch solving while the next is read
            in_flight = writer.submit(solver.finish_batch, batch)
            if solver.report.stopped:
                break
        if in_flight is not None:
            in_flight.result()
    except BaseException:
        solver.stop_flag[0] = 1  # a long puzzle on the solver's thread stops too
        raise
    finally:
        writer.shutdown(wait=True, cancel_futures=True)
    solver.report.seconds = time.perf_counter() - started
    return solver.report


def summarize_stream(
    reader: PuzzleReader,
    threads: int | None,
    messages: LineReport,
    progress: Progress,
    max_nodes: int | None = DEFAULT_MAX_NODES,
) -> tuple[Summary, int]:
    """The statistics of every well-formed puzzle of `reader`, and the malformed count.

    Batches run one at a time, with nothing else working meanwhile, so the times are
    the engine's alone. Puzzles of grids other than 9x9 with 3x3 boxes get `max_nodes` search nodes
    each (None = no budget); those left undecided are reported and counted in the
    summary's `unknown`.
    """
    builder = StatsBuilder()
    malformed = 0
    done = 0
    for batch in reader:
        for record, reason in batch.problems:
            messages.line(reader.name, batch.line_numbers[record], reason)
        malformed += len(batch.problems)
        grids, n = batch.good_grids()
        start = time.perf_counter()
        results = run_engine(
            grids,
            n,
            1,
            threads,
            timed=True,
            geometry=batch.geometry,
            max_nodes=node_budget(max_nodes),
        )
        builder.add_results(results, time.perf_counter() - start)
        if min(results.counts, default=0) < 0:
            good = [i for i in range(batch.n) if not batch.flags[i] & FLAG_BAD]
            for k, count in enumerate(results.counts):
                if count < 0:
                    line = batch.line_numbers[good[k]]
                    text = f"{UNKNOWN_MARK}: no answer within {max_nodes:,} search nodes"
                    messages.line(reader.name, line, text)
        done += n
        progress.update(done, batch.bytes_end)
    return builder.summary(), malformed
