"""Puzzle files by the million: read in blocks, parse, solve in batches, write in order.

A file holds one puzzle per line, in any notation `parse` accepts on one line, or is a
CSV file whose header names the puzzle column (`quizzes` or `puzzle`; the solution
column, used for verification, is `solutions` or `solution`). Blank lines and lines
starting with `#` are skipped; line numbers in messages count every physical line.

The file is read in binary blocks of whole lines (small at first, so answers start
coming out at once, then up to MAX_BLOCK bytes). Plain 81-character puzzles are encoded
by compiled code (`_textio.scan_block`); other lines go through `parse`, and a line that
cannot be parsed becomes a *malformed record*: it is reported with its line number and
answered with a marker, and the engine sees it as an instantly contradictory grid.
While the engine solves one batch on its worker threads, the calling thread reads and
parses the next one; a separate thread hands each batch to the engine and writes its
answers as soon as they are found. At most two batches (of at most MAX_BLOCK bytes of
input) are in memory at a time, so memory stays flat whatever the file size.
"""

from __future__ import annotations

import csv
import os
import sys
import threading
import time
from array import array
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import BinaryIO, TextIO

from . import _textio
from .batch import EngineResults, run_engine
from .grid import CELLS, CLASSIC, format_values, is_solution, parse_grid
from .progress import Progress
from .stats import StatsBuilder, Summary

FIRST_BLOCK = 1 << 16  # small, so the first answers come out quickly
MAX_BLOCK = 1 << 20  # ~12,000 puzzles; larger blocks only raise peak memory
MAX_LINE = 1 << 20  # a longer line means the input is not a puzzle file
PIPE_BUFFER = 1 << 16  # what one read of a full pipe returns (Linux, macOS)

PUZZLE_COLUMNS = ("quizzes", "quiz", "puzzles", "puzzle")
SOLUTION_COLUMNS = ("solutions", "solution")
NO_SOLUTION_MARK = "none"
MALFORMED_MARK = "error"
ON_ERROR_CHOICES = ("mark", "skip", "fail")

FLAG_BAD: int = _textio.FLAG_BAD
FLAG_GIVEN: int = _textio.FLAG_GIVEN

# Two 1s in the first row: the engine finds no solution at once, with no search.
_CONTRADICTION = bytes([1, 1] + [0] * (CELLS - 2))


class InputError(Exception):
    """The input as a whole cannot be read as a puzzle file (not just one bad line)."""


@dataclass
class Batch:
    """Consecutive records of a file, encoded for the engine.

    Record i has its grid in grids[81i:81i+81], its line number in line_numbers[i] and
    flags[i] (FLAG_BAD: malformed; FLAG_GIVEN: a given solution is in given[81i:81i+81]).
    `problems` lists (record, reason) for the malformed records in order; `given_problems`
    maps a record to the reason its given solution could not be read; `failed` holds the
    (line, reason) of the malformed line a run stopped at.
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

    def mark_bad(self, record: int, reason: str) -> None:
        """Make a record malformed: reported, answered with a marker, never searched."""
        self.flags[record] = FLAG_BAD
        self.grids[record * CELLS : (record + 1) * CELLS] = _CONTRADICTION
        self.problems.append((record, reason))

    def stop_at_first_problem(self) -> None:
        """Keep only the records before the first malformed one; remember that one."""
        record, reason = self.problems[0]
        self.failed = (self.line_numbers[record], reason)
        self.n = record
        self.problems = []
        self.given_problems = {r: m for r, m in self.given_problems.items() if r < record}

    def good_grids(self) -> tuple[bytearray, int]:
        """The grids of the records that are not malformed, and how many there are."""
        if not self.problems:
            return self.grids, self.n
        bad = sorted({record for record, _ in self.problems})
        good = bytearray()
        kept_from = 0  # copy the runs of good records between bad ones
        for record in [*bad, self.n]:
            good += self.grids[kept_from * CELLS : record * CELLS]
            kept_from = record + 1
        return good, self.n - len(bad)


def _header_fields(line: bytes) -> list[str]:
    text = line.decode("utf-8", "replace").strip().lstrip("\ufeff")
    return [f.strip().strip('"').strip().lower() for f in text.split(",")]


def _first_of(fields: list[str], names: tuple[str, ...]) -> int:
    for index, name in enumerate(fields):
        if name in names:
            return index
    return -1


def encode_puzzle(text: str) -> bytes:
    """The 81 engine values (0 = empty) of one 9x9 puzzle in any notation `parse` accepts."""
    return parse_grid(text, geometry=CLASSIC)[1]


def grid_text(values: bytes | bytearray | memoryview) -> str:
    """The canonical string of 81 engine values."""
    return format_values(bytes(values))


class PuzzleReader:
    """Reads a binary stream of puzzles as a sequence of `Batch` objects.

    The format (lines or CSV) is detected from the first line that is neither blank nor
    a comment: a CSV header must name the puzzle column. With `want_given`, a CSV
    solution column is read too (for verification). Raises `InputError` when the input
    cannot be a puzzle file at all.
    """

    def __init__(self, source: BinaryIO, name: str, want_given: bool = False) -> None:
        """Start reading `source` (named `name` in messages) and detect its format."""
        self.name = name
        self.bytes_read = 0
        self.is_csv = False
        self.puzzle_field = -1
        self.solution_field = -1
        self._source = source
        self._read_some = getattr(source, "read1", source.read)
        self._line = 1
        self._pending = self._detect_format(want_given)

    @property
    def has_solutions(self) -> bool:
        """Whether the input has a solution column that is being read."""
        return self.solution_field >= 0

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
        """Read up to the first meaningful line; consume it if it is a CSV header."""
        data = self._read(FIRST_BLOCK)
        if data.startswith(b"\xef\xbb\xbf"):
            data = data[3:]
        start = 0
        line = 1
        while True:
            newline = data.find(b"\n", start)
            if newline < 0:
                chunk = self._read(FIRST_BLOCK)
                if chunk:
                    data += chunk
                    if len(data) - start > MAX_LINE:
                        raise InputError(f"{self.name}:{line}: line longer than {MAX_LINE} bytes")
                    continue
                newline = len(data)
            text = data[start:newline].strip()
            if text and not text.startswith(b"#"):
                break
            if newline >= len(data):
                return data  # nothing but blanks and comments
            start = newline + 1
            line += 1
        fields = _header_fields(data[start:newline])
        puzzle = _first_of(fields, PUZZLE_COLUMNS)
        if len(fields) < 2 or puzzle < 0:
            return data  # one puzzle per line
        self.is_csv = True
        self.puzzle_field = puzzle
        self.solution_field = _first_of(fields, SOLUTION_COLUMNS) if want_given else -1
        self._line = line + 1
        return data[newline + 1 :]

    def __iter__(self) -> Iterator[Batch]:
        """The batches of the input, in order (each holds whole lines)."""
        data = self._pending
        self._pending = b""
        size = FIRST_BLOCK
        while True:
            cut = data.rfind(b"\n") + 1
            if cut:
                yield self._scan(data, cut)
                data = data[cut:]
            elif len(data) > MAX_LINE:
                raise InputError(f"{self.name}:{self._line}: line longer than {MAX_LINE} bytes")
            chunk = self._read(size)
            size = min(size * 4, MAX_BLOCK)
            if not chunk:
                if data:
                    yield self._scan(data, len(data))
                return
            data = data + chunk if data else chunk

    def _scan(self, data: bytes, stop: int) -> Batch:
        """Encode the lines in data[:stop]."""
        view = memoryview(data)[:stop]
        capacity = _textio.count_lines(view)
        batch = Batch(
            n=0,
            grids=bytearray(capacity * CELLS),
            given=bytearray(capacity * CELLS) if self.solution_field >= 0 else bytearray(),
            flags=bytearray(capacity),
            line_numbers=array("q", bytes(8 * capacity)),
            bytes_end=self.bytes_read - (len(data) - stop),
        )
        batch.n, lines, slow = _textio.scan_block(
            view,
            self._line,
            self.puzzle_field,
            self.solution_field,
            batch.grids,
            batch.given,
            batch.line_numbers,
            batch.flags,
        )
        self._line += lines
        for record, _line, start, end in slow:
            self._parse_line(batch, record, data[start:end].decode("utf-8", "replace"))
        return batch

    def _parse_line(self, batch: Batch, record: int, text: str) -> None:
        """The full parser on a line the compiled scanner did not take."""
        solution = ""
        if self.is_csv:
            try:
                fields = next(csv.reader([text]))
            except csv.Error as err:
                batch.mark_bad(record, f"not a CSV row: {err}")
                return
            if self.puzzle_field >= len(fields):
                batch.mark_bad(
                    record,
                    f"{len(fields)} field(s); the puzzle is field {self.puzzle_field + 1}",
                )
                return
            text = fields[self.puzzle_field]
            if 0 <= self.solution_field < len(fields):
                solution = fields[self.solution_field].strip()
        try:
            values = encode_puzzle(text)
        except ValueError as err:
            where = "puzzle field: " if self.is_csv else ""
            batch.mark_bad(record, f"{where}{err}")
            return
        batch.grids[record * CELLS : (record + 1) * CELLS] = values
        if solution:
            try:
                batch.given[record * CELLS : (record + 1) * CELLS] = encode_puzzle(solution)
                batch.flags[record] |= FLAG_GIVEN
            except ValueError as err:
                batch.given_problems[record] = f"the given solution is malformed: {err}"


def open_input(path: str) -> tuple[BinaryIO, str, int | None]:
    """A binary stream for `path` ('-' = standard input), its display name and size."""
    if path == "-":
        return sys.stdin.buffer, "<stdin>", None
    stream = open(path, "rb")  # noqa: SIM115 - the caller closes it
    try:
        size = os.fstat(stream.fileno()).st_size
    except OSError:
        size = 0
    return stream, path, size or None


class Messages:
    """Per-line messages on a text stream (`NAME:LINE: text`), at most `limit` of them.

    Thread-safe; erases the progress bar before writing. `limit` 0 means no limit.
    """

    def __init__(self, stream: TextIO, limit: int = 100, progress: Progress | None = None) -> None:
        """Write to `stream`, showing at most `limit` messages (0 = all)."""
        self._stream = stream
        self._limit = limit
        self._progress = progress
        self._lock = threading.Lock()
        self.shown = 0
        self.suppressed = 0

    def line(self, name: str, line: int, text: str) -> None:
        """Report something about line `line` of input `name`."""
        self.say(f"{name}:{line}: {text}", counted=True)

    def say(self, text: str, counted: bool = False) -> None:
        """Write one message line (counted ones obey the limit)."""
        with self._lock:
            if counted and self._limit and self.shown >= self._limit:
                self.suppressed += 1
                return
            if counted:
                self.shown += 1
            if self._progress is not None:
                self._progress.clear()
            print(text, file=self._stream, flush=True)

    def finish(self) -> None:
        """Say how many messages were left out, if any."""
        if self.suppressed:
            self.say(f"... and {self.suppressed:,} more message(s) not shown")


@dataclass
class SolveOptions:
    """How `solve_stream` answers: solutions or counts, checks, malformed lines, format."""

    threads: int | None = None
    count: bool = False
    limit: int = 2
    verify: bool = False
    on_error: str = "mark"
    csv_output: bool = False


@dataclass
class RunReport:
    """What a run over one input did."""

    records: int = 0
    solved: int = 0
    no_solution: int = 0
    malformed: int = 0
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
        messages: Messages,
        progress: Progress,
    ) -> None:
        self.reader = reader
        self.out = out
        self.options = options
        self.messages = messages
        self.progress = progress
        self.report = RunReport()

    def finish_batch(self, batch: Batch) -> None:
        """Solve one batch, write its answers, report its problems, count the results."""
        options = self.options
        limit = options.limit if options.count else 1
        results = run_engine(batch.grids, batch.n, limit, options.threads)
        answers = _textio.format_answers(
            batch.grids,
            results.solutions,
            results.counts,
            batch.flags,
            batch.n,
            options.csv_output,
            options.count,
            options.on_error == "skip",
            NO_SOLUTION_MARK.encode(),
            MALFORMED_MARK.encode(),
        )
        self.out.write(answers)
        self.out.flush()
        for record, reason in batch.problems:
            self.messages.line(self.reader.name, batch.line_numbers[record], reason)
        if batch.failed is not None:
            line, reason = batch.failed
            self.messages.line(self.reader.name, line, f"{reason} (stopping here)")
        if options.verify:
            self._verify(batch, results)
        report = self.report
        bad = len(batch.problems)
        unsolved = results.counts.count(0)  # malformed records included
        stopped_at = int(batch.failed is not None)
        report.records += batch.n + stopped_at
        report.malformed += bad + stopped_at
        report.solved += batch.n - unsolved
        report.no_solution += unsolved - bad
        report.threads = max(report.threads, results.threads)
        self.progress.update(report.records, batch.bytes_end)

    def _verify(self, batch: Batch, results: EngineResults) -> None:
        """Check every solution by the rules, and against the given solutions."""
        args = (results.solutions, results.counts)
        wrong = _textio.check_solutions(batch.grids, *args, batch.flags, batch.n)
        differ = _textio.compare_given(*args, batch.given, batch.flags, batch.n)
        verdicts = {record: "wrong: the solution found breaks the rules" for record in wrong}
        for record in differ:
            verdicts.setdefault(record, self._explain_difference(batch, results, record))
        for record, reason in batch.given_problems.items():
            verdicts.setdefault(record, f"mismatch: {reason}")
        self.report.checked += batch.n - len(batch.problems)
        self.report.mismatches += len(verdicts)
        for record in sorted(verdicts):
            self.messages.line(self.reader.name, batch.line_numbers[record], verdicts[record])

    @staticmethod
    def _explain_difference(batch: Batch, results: EngineResults, record: int) -> str:
        cells = slice(record * CELLS, (record + 1) * CELLS)
        puzzle = grid_text(batch.grids[cells])
        given = grid_text(batch.given[cells])
        given_valid = is_solution(given, puzzle)
        if results.counts[record] == 0:
            if given_valid:
                return "wrong: no solution found, but the given solution is valid"
            return "mismatch: no solution found, and the given solution is not valid either"
        if given_valid:
            return "mismatch: several solutions; the given one differs from the one found"
        return "mismatch: the given solution is not a solution of the puzzle"


def solve_stream(
    reader: PuzzleReader,
    out: BinaryIO,
    options: SolveOptions,
    messages: Messages,
    progress: Progress,
) -> RunReport:
    """Answer every record of `reader` on `out`, one line each, in input order.

    Reading and parsing overlap with solving; output is written batch by batch.
    """
    if options.on_error not in ON_ERROR_CHOICES:
        raise ValueError(f"on_error must be one of {', '.join(ON_ERROR_CHOICES)}")
    started = time.perf_counter()
    solver = _Solver(reader, out, options, messages, progress)
    if options.csv_output:
        out.write(b"puzzle,count\n" if options.count else b"puzzle,solution\n")
    writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sudoku_fast_writer")
    in_flight: Future[None] | None = None
    try:
        for batch in reader:
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
    finally:
        writer.shutdown(wait=True, cancel_futures=True)
    solver.report.seconds = time.perf_counter() - started
    return solver.report


def summarize_stream(
    reader: PuzzleReader, threads: int | None, messages: Messages, progress: Progress
) -> tuple[Summary, int]:
    """The statistics of every well-formed puzzle of `reader`, and the malformed count.

    Batches run one at a time, with nothing else working meanwhile, so the times are
    the engine's alone.
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
        results = run_engine(grids, n, 1, threads, timed=True)
        builder.add_results(results, time.perf_counter() - start)
        done += n
        progress.update(done, batch.bytes_end)
    return builder.summary(), malformed
