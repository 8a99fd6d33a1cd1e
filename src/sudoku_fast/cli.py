"""The `sudoku-fast` command (also `python -m sudoku_fast`).

Without a command it runs the main job: it solves the embedded puzzle sets, checks every
solution with the engine-independent `is_solution`, and prints a throughput table. The
commands are `solve` (files of puzzles, streamed), `stats` (search statistics), `show`,
`count` and `check` (one puzzle), `generate` (new puzzles), `rate` (difficulty),
`hint` (the next step), `dedup` (drop puzzles equivalent up to symmetry), `lab`
(the classic algorithms side by side) and `render` (puzzle books and pictures).

Adding a command takes two functions and one line: `_add_<name>_parser(subparsers)`
builds its parser and sets `handler=_cmd_<name>`; `_cmd_<name>(args)` runs it and
returns an exit status; the former goes into `COMMANDS`.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import errno
import importlib
import io
import json
import math
import os
import re
import statistics
import sys
import textwrap
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, BinaryIO, TextIO

from . import lab_report, parquet_io, symmetry
from ._version import __version__
from .batch import (
    DEFAULT_MAX_NODES,
    MAX_LIMIT,
    MAX_NODES,
    SearchLimitExceeded,
    decode_solutions,
    encode_puzzles,
    resolve_threads,
    run_engine,
)
from .datasets import EMBEDDED_SETS, load_embedded
from .grid import CLASSIC, Geometry, is_solution, parse_grid, show
from .progress import Progress
from .solver import count_solutions
from .stats import BINS_PER_OCTAVE, Summary, solve_stats
from .stream import (
    MALFORMED_MARK,
    NO_SOLUTION_MARK,
    ON_ERROR_CHOICES,
    UNKNOWN_MARK,
    Batch,
    Messages,
    PuzzleReader,
    RunReport,
    SolveOptions,
    grid_text,
    is_parquet,
    open_input,
    option_words,
    output_file,
    own_size,
    replacing,
    solve_stream,
    summarize_stream,
)

MIN_SECONDS = 0.2  # repeat small sets until timing is meaningful

EXIT_OK = 0
EXIT_CHECK_FAILED = 1
EXIT_USAGE = 2
EXIT_MALFORMED = 3
EXIT_STOPPED = 4
EXIT_UNDECIDED = 5
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141

# What each exit status means, in general; a command's help lists only the statuses it
# can return, with the wording fitted to it where that says more.
EXIT_MEANINGS: dict[int, str] = {
    EXIT_OK: 'success: every puzzle answered ("no solution" is an answer, not an error)',
    EXIT_CHECK_FAILED: (
        "a check failed: `solve --verify` found an answer that differs from the file's "
        "solution or breaks the rules; `check` was given a non-solution; `rate` met a "
        "puzzle without exactly one solution; the main job could not verify a solution"
    ),
    EXIT_USAGE: "usage error, unreadable input or output, or a malformed PUZZLE argument",
    EXIT_MALFORMED: (
        "malformed input lines (reported on stderr with their line numbers and answered "
        f'with "{MALFORMED_MARK}"; with --on-error skip they do not count)'
    ),
    EXIT_STOPPED: "--on-error fail stopped at a malformed line",
    EXIT_UNDECIDED: (
        "a puzzle of a grid other than 9x9 with 3x3 boxes ran out of its search-node "
        f'budget (--max-nodes) before it was decided (answered "{UNKNOWN_MARK}")'
    ),
    EXIT_INTERRUPTED: "interrupted (Ctrl-C)",
    EXIT_BROKEN_PIPE: "the output pipe was closed early (e.g. `| head`)",
}


def exit_codes(codes: Sequence[int], meanings: dict[int, str] | None = None) -> str:
    """The 'exit status:' table of a help text: `codes`, in order, with their meanings."""
    wording = {**EXIT_MEANINGS, **(meanings or {})}
    lines = ["exit status:"] + [f"  {code:<4} {wording[code]}" for code in codes]
    if sum(code not in (EXIT_OK, EXIT_INTERRUPTED, EXIT_BROKEN_PIPE) for code in codes) > 1:
        lines.append("When several apply, the highest one is returned.")
    return "\n".join(lines)


class HelpFormatter(argparse.HelpFormatter):
    """Wraps descriptions to the terminal width, and the exit-status table as a table.

    Each line of a description or epilog is a paragraph of its own; a line indented
    like "  3    meaning" keeps its code column and wraps its meaning beside it.
    """

    _TABLE_ROW = re.compile(r"(  \S+ +)(\S.*)")

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        out = []
        for line in text.splitlines():
            row = self._TABLE_ROW.fullmatch(line)
            first = indent + (row[1] if row else "")
            body = row[2] if row else line
            rest = indent + " " * (len(first) - len(indent))
            out.append(textwrap.fill(body, width, initial_indent=first, subsequent_indent=rest))
        return "\n".join(out)


# ---------------------------------------------------------------- the main job


def _measure_set(puzzles: list[str], threads: int | None) -> dict[str, float]:
    """Solve a set (repeatedly, for small sets) and verify every solution once."""
    rates: list[float] = []
    total = 0.0
    while True:
        start = time.perf_counter()
        results = run_engine(encode_puzzles(puzzles), len(puzzles), 1, threads)
        solutions = decode_solutions(results)
        elapsed = time.perf_counter() - start
        rates.append(len(puzzles) / elapsed)
        total += elapsed
        if total >= MIN_SECONDS or len(rates) >= 1000:
            break
    solved = sum(s is not None for s in solutions)
    verified = sum(
        s is not None and is_solution(s, p) for s, p in zip(solutions, puzzles, strict=True)
    )
    rate = statistics.median(rates)
    return {
        "puzzles": len(puzzles),
        "solved": solved,
        "verified": verified,
        "rate": rate,
        "usec": 1e6 / rate,
        "guesses": sum(results.guesses) / len(puzzles),
        "threads": results.threads,
    }


def run_embedded(threads: int | None = None, out: TextIO | None = None) -> int:
    """Solve and verify every embedded set, print the table; 0 if all verified."""
    stream = out if out is not None else sys.stdout
    header = (
        f"{'set':<20}{'puzzles':>8}{'solved':>8}{'verified':>9}"
        f"{'puzzles/s':>12}{'us/puzzle':>11}{'guesses/puzzle':>16}{'threads':>9}"
    )
    print(header, file=stream)
    print("-" * len(header), file=stream)
    failures = 0
    for name in EMBEDDED_SETS:
        row = _measure_set(load_embedded(name), threads)
        failures += int(row["puzzles"] - row["verified"])
        print(
            f"{name:<20}{row['puzzles']:>8.0f}{row['solved']:>8.0f}{row['verified']:>9.0f}"
            f"{row['rate']:>12,.0f}{row['usec']:>11.1f}{row['guesses']:>16.2f}"
            f"{row['threads']:>9.0f}",
            file=stream,
        )
    if failures:
        print(f"{failures} puzzle(s) without a verified solution", file=sys.stderr)
        return EXIT_CHECK_FAILED
    print(
        "every solution verified independently (rows, columns, boxes complete, clues kept)",
        file=stream,
    )
    return EXIT_OK


def _cmd_main_job(args: argparse.Namespace) -> int:
    return run_embedded(args.threads)


# ---------------------------------------------------------------- shared helpers


def _thread_count(text: str) -> int:
    try:
        threads = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if threads == 0:
        raise argparse.ArgumentTypeError("must not be 0 (-1 = all cores, 1 = serial)")
    return threads


def _int_at_least(least: int) -> Callable[[str], int]:
    """An option type: a whole number of at least `least`."""

    def whole_number(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
        if value < least:
            raise argparse.ArgumentTypeError(f"must be at least {least}")
        return value

    return whole_number


_positive = _int_at_least(1)
_non_negative = _int_at_least(0)


def _limit(text: str) -> int:
    """A --limit value: solutions to count up to, as the engines take it."""
    value = _positive(text)
    if value > MAX_LIMIT:
        raise argparse.ArgumentTypeError(f"must be from 1 to {MAX_LIMIT:,} (2**31 - 1)")
    return value


def _add_threads(
    parser: argparse.ArgumentParser, top_level: bool = False, default: str = "all cores"
) -> None:
    # Subcommands leave it unset unless given, so `sudoku-fast --threads 2 solve F` works.
    parser.add_argument(
        "--threads",
        type=_thread_count,
        default=None if top_level else argparse.SUPPRESS,
        metavar="N",
        help=f"worker threads (default: {default}; 1 = serial; -k = all cores + 1 - k)",
    )


_BOX_PATTERN = re.compile(r"(\d+)[xX](\d+)")


def _box(text: str) -> tuple[int, int]:
    """A --box value: 'RxC' (`main` turns '--box R C' into that form)."""
    match = _BOX_PATTERN.fullmatch(text.strip())
    if match is None:
        raise argparse.ArgumentTypeError(f"expected ROWSxCOLS or ROWS COLS, got {text!r}")
    return int(match[1]), int(match[2])


def _join_box_arguments(argv: Sequence[str]) -> list[str]:
    """'--box R C' as '--box RxC', so that --box takes one value in both spellings.

    (argparse cannot take one or two values here without swallowing a positional
    argument that follows.)
    """
    out: list[str] = []
    i = 0
    while i < len(argv):
        if argv[i] == "--box" and i + 2 < len(argv):
            rows, cols = argv[i + 1], argv[i + 2]
            if rows.isdigit() and cols.isdigit():
                out += ["--box", f"{rows}x{cols}"]
                i += 3
                continue
        out.append(argv[i])
        i += 1
    return out


def _add_geometry(parser: argparse.ArgumentParser) -> None:
    """--box and --alphabet, which fix the grid geometry as `box=` / `alphabet=` do."""
    parser.add_argument(
        "--box",
        type=_box,
        default=None,
        metavar="R C",
        help=(
            "box shape, rows then columns ('--box 3 2' or '--box 3x2'; default: from "
            "the size, which the first puzzle decides)"
        ),
    )
    parser.add_argument(
        "--alphabet",
        default=None,
        metavar="SYMBOLS",
        help="the N symbols of values 1..N, e.g. 0123456789ABCDEF (default: 1-9, A-Z, a-n)",
    )


def _add_marks(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument(
        "--marks",
        action="store_true",
        help=(
            f"{what} pencil marks: N*N*N characters, for each cell, for each digit, the "
            "digit where it is still possible and '.' where it is excluded (729 for 9x9)"
        ),
    )


def _max_nodes(text: str) -> int | None:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if not 0 <= value <= MAX_NODES:
        raise argparse.ArgumentTypeError(f"must be from 0 (no budget) to {MAX_NODES:,} (2**63 - 1)")
    return value or None


def _add_max_nodes(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--max-nodes",
        type=_max_nodes,
        default=DEFAULT_MAX_NODES,
        metavar="N",
        help=(
            "search nodes per puzzle for grids other than 9x9 with 3x3 boxes "
            f"(default {DEFAULT_MAX_NODES:,}; 0 = no budget)"
        ),
    )


def _puzzle_argument(text: str, for_files: str) -> str:
    """A PUZZLE argument: the text itself, or '-' for standard input (several lines).

    The name of an existing file is refused with `for_files`, the command that takes
    files, rather than parsed as a puzzle and reported as an odd character.
    """
    if text == "-":
        return sys.stdin.read()
    if os.path.isfile(text):
        raise ValueError(f"{text!r} is a file; this command takes one PUZZLE ({for_files})")
    return text


def _error(message: str) -> None:
    print(f"sudoku-fast: error: {option_words(message)}", file=sys.stderr)


def _command(
    subparsers: Any,
    name: str,
    codes: Sequence[int],
    meanings: dict[int, str] | None = None,
    **kwargs: Any,
) -> argparse.ArgumentParser:
    """A subcommand whose help ends with the table of the exit codes it can return."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        name, epilog=exit_codes(codes, meanings), formatter_class=HelpFormatter, **kwargs
    )
    return parser


# ---------------------------------------------------------------- solve


def _add_solve_parser(subparsers: Any) -> None:
    parser = _command(
        subparsers,
        "solve",
        [
            EXIT_OK,
            EXIT_CHECK_FAILED,
            EXIT_USAGE,
            EXIT_MALFORMED,
            EXIT_STOPPED,
            EXIT_UNDECIDED,
            EXIT_INTERRUPTED,
            EXIT_BROKEN_PIPE,
        ],
        {
            EXIT_CHECK_FAILED: (
                "--verify found an answer that differs from the file's solution or breaks the rules"
            )
        },
        help="solve a file of puzzles, one answer per line",
        description=(
            "Solve every puzzle of FILE (one per line in any notation, '#' comments and "
            "blank lines skipped; or CSV whose header names a 'quizzes' or 'puzzle' "
            "column). The puzzles are of one size, any from 4x4 to 49x49: --box / "
            "--alphabet fix it, else the first puzzle decides. Writes one line per "
            "puzzle, in input order: the solution, "
            f"'{NO_SOLUTION_MARK}' when there is none, '{MALFORMED_MARK}' for a malformed "
            f"line, '{UNKNOWN_MARK}' when --max-nodes ran out. CSV input gives CSV "
            "output: every input column, then the answer ('solution', or "
            "'found_solution' when the input has a 'solution' column; 'count' with "
            "--count). The file is streamed: "
            "memory stays flat and answers start at once."
        ),
    )
    parser.add_argument("file", nargs="?", default="-", metavar="FILE", help="'-' = stdin")
    parser.add_argument("-o", "--output", default="-", metavar="OUT", help="default: stdout")
    _add_threads(parser)
    parser.add_argument(
        "--count",
        action="store_true",
        help="write the number of solutions instead (0, 1, or the limit meaning 'several')",
    )
    parser.add_argument(
        "--limit",
        type=_limit,
        default=None,
        metavar="N",
        help="with --count: count up to N (default 2)",
    )
    parser.add_argument(
        "--verify",
        action="store_true",
        help=(
            "check every solution found by the rules (independently of the engine) and "
            "against the file's solution column when there is one; report differences"
        ),
    )
    parser.add_argument(
        "--on-error",
        choices=ON_ERROR_CHOICES,
        default="mark",
        help=(
            "malformed lines: 'mark' (default) reports them, writes the marker and exits "
            f"{EXIT_MALFORMED} at the end; 'skip' reports them and writes nothing for them; "
            "'fail' stops at the first one (Parquet: a malformed or null row gets a null "
            "answer with mark and skip; fail leaves no output)"
        ),
    )
    parser.add_argument(
        "--format",
        choices=("auto", "lines", "csv"),
        default="auto",
        help="output: one answer per line, or CSV (a CSV input's columns and the answer; "
        "'puzzle,solution' for puzzles one per line); default: as the input",
    )
    parser.add_argument(
        "--max-messages",
        type=_non_negative,
        default=100,
        metavar="N",
        help="report at most N problem lines (default 100; 0 = all)",
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="no summary, no progress bar")
    _add_marks(parser, "each puzzle is given as")
    _add_geometry(parser)
    _add_max_nodes(parser)
    parquet_io.add_column_option(parser)
    parser.set_defaults(handler=_cmd_solve)


class _Incomplete(Exception):
    """Raised inside `_output` to leave no output file: the run stopped before the end."""


@contextlib.contextmanager
def _output(path: str, source: BinaryIO | None = None) -> Iterator[BinaryIO]:
    """The output stream ('-': standard output, the stream being the contract there); a
    file appears whole when the block ends without an error, or not at all (see
    `stream.output_file`). Refuses (ValueError) a file that is the input itself."""
    if path == "-":
        yield sys.stdout.buffer
        return
    if source is not None:
        _refuse_same_file(source, path)
    with output_file(path) as out:
        yield out


def _refuse_same_file(source: BinaryIO, path: str) -> None:
    """Raise ValueError when `path` is the file `source` reads: opening it for writing
    would empty the input before it is read."""
    if _same_file(source, path):
        raise ValueError(f"{path}: the output file is the input file; write elsewhere")


def _same_file(source: BinaryIO, path: str) -> bool:
    """Whether `path` names the file `source` reads (same device and inode: links too)."""
    try:
        read = os.fstat(source.fileno())
        written = os.stat(path)
    except (OSError, AttributeError, ValueError):  # no such file yet, or not a real file
        return False
    return (read.st_dev, read.st_ino) == (written.st_dev, written.st_ino)


def _cmd_solve(args: argparse.Namespace) -> int:
    if args.limit is not None and not args.count:
        raise ValueError("--limit is the limit of --count: pass --count too")
    if args.limit is None:
        args.limit = 2
    if is_parquet(args.file):
        return _solve_parquet(args)
    source, name, size = open_input(args.file)
    try:
        reader = PuzzleReader(
            source,
            name,
            want_given=args.verify,
            box=args.box,
            alphabet=args.alphabet,
            marks=args.marks,
        )
        csv_output = reader.is_csv if args.format == "auto" else args.format == "csv"
        options = SolveOptions(
            threads=args.threads,
            count=args.count,
            limit=args.limit,
            verify=args.verify,
            on_error=args.on_error,
            csv_output=csv_output,
            max_nodes=args.max_nodes,
        )
        progress = Progress(sys.stderr, size, enabled=not args.quiet)
        messages = Messages(sys.stderr, args.max_messages, progress)
        try:
            with _output(args.output, source) as out:
                report = solve_stream(reader, out, options, messages, progress)
                if report.stopped:  # --on-error fail: no output, as with Parquet
                    raise _Incomplete
        except _Incomplete:
            pass
        finally:
            progress.clear()
    finally:
        if source is not sys.stdin.buffer:
            source.close()
    messages.finish()
    if not args.quiet:
        _print_run_summary(name, report, args.verify, reader.has_solutions, options)
    status = EXIT_OK
    if report.mismatches:
        status = EXIT_CHECK_FAILED
    if report.malformed and args.on_error == "mark":
        status = EXIT_MALFORMED
    if report.stopped:
        status = EXIT_STOPPED
    if report.unknown:
        status = EXIT_UNDECIDED
    return status


def _solve_parquet(args: argparse.Namespace) -> int:
    """`solve FILE.parquet -o OUT.parquet`: the answers as a column beside the input's."""
    if args.output == "-":
        raise ValueError("Parquet input writes Parquet: name the output file with -o OUT.parquet")
    if args.format != "auto":
        raise ValueError(
            f"Parquet input writes Parquet: --format {args.format} applies to text input"
        )
    try:
        report = parquet_io.solve_parquet(
            args.file,
            args.output,
            column=args.column,
            threads=args.threads,
            count=args.count,
            limit=args.limit,
            box=args.box,
            alphabet=args.alphabet,
            max_nodes=args.max_nodes,
            marks=args.marks,
            verify=args.verify,
            on_error=args.on_error,
            compression=args.compression,
            rewrite=args.rewrite,
        )
    except parquet_io.MalformedRow as err:
        print(f"sudoku-fast: {option_words(str(err))}", file=sys.stderr)
        return EXIT_STOPPED
    messages = Messages(sys.stderr, args.max_messages)
    for problem in report.problems:
        messages.say(f"{args.file}: {problem}", counted=True)
    messages.finish()
    if not args.quiet:
        rate = report.rows / report.seconds if report.seconds > 0 else 0.0
        found = "with solutions" if args.count else "with a solution"
        summary = (
            f"{args.file}: {report.rows:,} puzzles in {report.seconds:.2f} s ({rate:,.0f}/s): "
            f"{report.solved:,} {found}, {report.no_solution:,} without"
        )
        if report.malformed:
            summary += f", {report.malformed:,} malformed (null answer)"
        if report.undecided:
            summary += f", {report.undecided:,} undecided within --max-nodes (null answer)"
        if args.verify:
            summary += f"; {report.checked:,} checked, {report.mismatches:,} failed the check"
        print(summary, file=sys.stderr)
    if report.undecided:
        return EXIT_UNDECIDED
    if report.malformed and args.on_error == "mark":
        return EXIT_MALFORMED
    if report.mismatches:
        return EXIT_CHECK_FAILED
    return EXIT_OK


def _print_run_summary(
    name: str, report: RunReport, verify: bool, has_solutions: bool, options: SolveOptions
) -> None:
    rate = report.records / report.seconds if report.seconds > 0 else 0.0
    if not options.count:
        found = f"{report.solved:,} solved"
    elif options.limit == 1:  # counting stopped at the first solution
        found = f"{report.solved:,} with at least one solution"
    else:
        unique = report.solved - report.several
        found = f"{unique:,} with one solution, {report.several:,} with several"
    text = (
        f"{name}: {report.records:,} puzzles in {report.seconds:.2f} s "
        f"({rate:,.0f}/s, {report.threads} thread(s)): {found}, "
        f"{report.no_solution:,} without solution, {report.malformed:,} malformed"
    )
    if report.unknown:
        text += f", {report.unknown:,} {UNKNOWN_MARK} (--max-nodes ran out)"
    if verify:
        against = "the rules and the file's solutions" if has_solutions else "the rules"
        text += f"; {report.checked:,} checked against {against}: {report.mismatches:,} problem(s)"
    if report.stopped:
        text += "; stopped at the first malformed line"
    print(text, file=sys.stderr)


# ---------------------------------------------------------------- stats


def _add_stats_parser(subparsers: Any) -> None:
    parser = _command(
        subparsers,
        "stats",
        [
            EXIT_OK,
            EXIT_USAGE,
            EXIT_MALFORMED,
            EXIT_UNDECIDED,
            EXIT_INTERRUPTED,
            EXIT_BROKEN_PIPE,
        ],
        {
            EXIT_OK: "success: statistics of every puzzle",
            EXIT_MALFORMED: "malformed input lines (reported on stderr and left out)",
            EXIT_UNDECIDED: (
                "a puzzle of a grid other than 9x9 with 3x3 boxes ran out of its search-node "
                "budget (--max-nodes) before it was decided (reported on stderr)"
            ),
        },
        help="search statistics per file: puzzles/s, time, guesses, search-tree size",
        description=(
            "Per file: puzzles, puzzles/s, mean, standard deviation and maximum time per "
            "puzzle, share solved without guessing, guesses per puzzle, search-tree size "
            "percentiles and the maximum time as the number of puzzles grows. Without FILE "
            "it runs on the embedded puzzle sets. Each file holds puzzles of one size "
            "(--box / --alphabet fix it, else its first puzzle decides). Malformed lines "
            "are reported and left out."
        ),
    )
    parser.add_argument("files", nargs="*", metavar="FILE", help="'-' = stdin")
    _add_threads(parser)
    parser.add_argument("--json", action="store_true", help="one JSON object per file")
    parser.add_argument(
        "--plot",
        metavar="FILE.png",
        help="also draw the time histograms (needs matplotlib: pip install 'sudoku_fast[plot]')",
    )
    _add_geometry(parser)
    _add_max_nodes(parser)
    parser.set_defaults(handler=_cmd_stats)


def _cmd_stats(args: argparse.Namespace) -> int:
    for path in args.files:
        parquet_io.refuse_parquet(path, "stats")
    if args.plot:
        try:
            importlib.import_module("matplotlib")
        except ImportError:
            _error("--plot needs matplotlib: pip install 'sudoku_fast[plot]'")
            return EXIT_USAGE
    results: list[tuple[str, Summary]] = []
    status = EXIT_OK
    geometry = {"box": args.box, "alphabet": args.alphabet}
    if not args.files and (args.box is not None or args.alphabet is not None):
        raise ValueError(
            "--box and --alphabet describe the puzzles of FILES; without FILES, stats "
            "runs the embedded 9x9 sets"
        )
    if not args.files:
        for name in EMBEDDED_SETS:
            stats = solve_stats(
                load_embedded(name), threads=args.threads, max_nodes=args.max_nodes, **geometry
            )
            results.append((name, stats.summary()))
    for path in args.files:
        source, name, size = open_input(path)
        progress = Progress(sys.stderr, size)
        messages = Messages(sys.stderr, 100, progress)
        try:
            summary, malformed = summarize_stream(
                PuzzleReader(source, name, **geometry),
                args.threads,
                messages,
                progress,
                args.max_nodes,
            )
        finally:
            progress.clear()
            if source is not sys.stdin.buffer:
                source.close()
        messages.finish()
        if malformed:
            print(f"{name}: {malformed:,} malformed line(s) left out", file=sys.stderr)
            status = max(status, EXIT_MALFORMED)  # the highest status of all files wins
        if summary.unknown:
            print(
                f"{name}: {summary.unknown:,} puzzle(s) {UNKNOWN_MARK}: "
                "no answer within --max-nodes search nodes",
                file=sys.stderr,
            )
            status = max(status, EXIT_UNDECIDED)
        results.append((name, summary))
    for name, summary in results:
        if args.json:
            print(json.dumps(_summary_json(name, summary)))
        else:
            print(format_summary(name, summary))
    if args.plot:
        _plot_times(results, args.plot)
    return status


def _summary_json(name: str, summary: Summary) -> dict[str, Any]:
    data = dataclasses.asdict(summary)
    data["name"] = name
    data["puzzles_per_second"] = summary.puzzles_per_second
    data["no_solution"] = summary.no_solution  # solved + no_solution + unknown = puzzles
    data["percent_without_guessing"] = summary.percent_without_guessing
    data["node_percentiles"] = {f"{p:g}": v for p, v in summary.node_percentiles}
    data["max_us_by_count"] = {str(n): us for n, us in summary.max_us_by_count}
    data["time_histogram"] = [list(b) for b in summary.time_histogram]
    return data


def _row(cells: Sequence[str], width: int = 9) -> str:
    return "  " + "".join(f"{cell:>{width}}" for cell in cells)


def format_summary(name: str, summary: Summary) -> str:
    """The statistics table of one set of puzzles, as printed by `sudoku-fast stats`."""
    if summary.puzzles == 0:
        return f"{name}: no puzzles\n"
    s = summary
    lines = [
        f"{name}: {s.puzzles:,} puzzles, {s.threads} thread(s)",
        f"  {'puzzles/s':<26}{s.puzzles_per_second:,.0f}",
        f"  {'time per puzzle (us)':<26}mean {s.mean_us:,.1f}   stddev {s.stddev_us:,.1f}"
        f"   max {s.max_us:,.1f}",
        f"  {'solved':<26}{s.solved:,} (no solution: {s.no_solution:,})"
        + (f", {UNKNOWN_MARK}: {s.unknown:,}" if s.unknown else ""),
        f"  {'solved without guessing':<26}{s.percent_without_guessing:.1f} %",
        f"  {'guesses per puzzle':<26}{s.guesses_per_puzzle:,.2f}",
        "  search-tree size (nodes) percentiles:",
        _row([f"{p:g}%" for p, _ in s.node_percentiles]),
        _row([f"{v:,}" for _, v in s.node_percentiles]),
        "  max time (us) over the first N puzzles:",
        _row([f"N={n:,}" for n, _ in s.max_us_by_count], 11),
        _row([f"{us:,.1f}" for _, us in s.max_us_by_count], 11),
    ]
    return "\n".join(lines) + "\n"


def histogram_steps(summary: Summary) -> tuple[list[float], list[float]]:
    """The time histogram as stairs: bin edges (us) and the share of puzzles (%) per bin.

    Every bin from the first to the last non-empty one is there, empty ones with 0 %, so
    each bin is drawn over its own edges (the summary lists only non-empty bins).
    """
    histogram = summary.time_histogram
    if not histogram:
        return [], []
    # Bin b covers [2**(b/k), 2**((b+1)/k)) ns, k bins per octave: its index from its edge.
    index = [round(math.log2(low * 1000) * BINS_PER_OCTAVE) for low, _, _ in histogram]
    counts = dict(zip(index, (count for _, _, count in histogram), strict=True))
    bins = range(index[0], index[-1] + 1)
    edges = [2 ** (b / BINS_PER_OCTAVE) / 1000 for b in [*bins, index[-1] + 1]]
    shares = [100 * counts.get(b, 0) / summary.puzzles for b in bins]
    return edges, shares


def _plot_times(results: list[tuple[str, Summary]], path: str) -> None:
    """Histograms of the time per puzzle (log scale), one line per set."""
    matplotlib = importlib.import_module("matplotlib")
    matplotlib.use("Agg")
    pyplot = importlib.import_module("matplotlib.pyplot")
    figure, axes = pyplot.subplots(figsize=(8, 4.5))
    for name, summary in results:
        if not summary.time_histogram:
            continue
        edges, shares = histogram_steps(summary)
        axes.stairs(shares, edges, label=f"{os.path.basename(name)} ({summary.puzzles:,})")
    axes.set_xscale("log")
    axes.set_xlabel("time per puzzle (us, log scale)")
    axes.set_ylabel("puzzles (%)")
    axes.set_title(f"sudoku_fast: time per puzzle (bins of 1/{BINS_PER_OCTAVE} octave)")
    axes.legend()
    figure.tight_layout()
    kind = os.path.splitext(path)[1][1:].lower() or "png"  # the name says; png if not
    with replacing(path) as partial:
        figure.savefig(partial, dpi=120, format=kind)
    pyplot.close(figure)
    print(f"plot written to {path}", file=sys.stderr)


# ---------------------------------------------------------------- show / count / check


def _add_show_parser(subparsers: Any) -> None:
    parser = _command(
        subparsers,
        "show",
        [EXIT_OK, EXIT_USAGE],
        {EXIT_OK: "success: the grid is printed"},
        help="print a puzzle or a saved board as a grid",
        description=(
            "Print PUZZLE (any notation and size; '-' reads it from stdin) as a grid, or "
            "a saved board (the path of its JSON file) with what it holds."
        ),
    )
    parser.add_argument("puzzle", metavar="PUZZLE", help="a puzzle, or the path of a saved board")
    _add_geometry(parser)
    parser.set_defaults(handler=_cmd_show)


def _is_board_file(path: str) -> bool:
    """Whether `path` is a file holding a JSON object (a saved board, or meant as one)."""
    if not os.path.isfile(path):
        return False
    with open(path, "rb") as f:
        return f.read(64).lstrip().startswith(b"{")


def _cmd_show(args: argparse.Namespace) -> int:
    if args.puzzle != "-" and _is_board_file(args.puzzle):
        from .board import load_board

        if args.box is not None or args.alphabet is not None:
            raise ValueError("--box and --alphabet are for a PUZZLE; a saved board has its own")
        print(load_board(args.puzzle))
        return EXIT_OK
    puzzle = _puzzle_argument(args.puzzle, "`sudoku-fast solve FILE` solves those of a file")
    print(show(puzzle, box=args.box, alphabet=args.alphabet))
    return EXIT_OK


def _add_count_parser(subparsers: Any) -> None:
    parser = _command(
        subparsers,
        "count",
        [EXIT_OK, EXIT_USAGE, EXIT_UNDECIDED, EXIT_INTERRUPTED],
        {
            EXIT_OK: "success: the number of solutions is printed",
            EXIT_UNDECIDED: (
                "a grid other than 9x9 with 3x3 boxes ran out of its search-node budget "
                f'(--max-nodes) before the count was decided (prints "{UNKNOWN_MARK}")'
            ),
        },
        help="print the number of solutions of a puzzle",
        description=(
            "Print the number of solutions of PUZZLE (any notation; '-' reads it from "
            "stdin): 0 = none, 1 = unique, LIMIT = at least that many."
        ),
    )
    parser.add_argument("puzzle", metavar="PUZZLE")
    parser.add_argument(
        "--limit", type=_limit, default=2, metavar="N", help="stop counting at N (default 2)"
    )
    _add_marks(parser, "PUZZLE is given as")
    _add_geometry(parser)
    _add_max_nodes(parser)
    parser.set_defaults(handler=_cmd_count)


def _cmd_count(args: argparse.Namespace) -> int:
    puzzle = _puzzle_argument(
        args.puzzle, "`sudoku-fast solve FILE --count` counts those of a file"
    )
    geometry = {"box": args.box, "alphabet": args.alphabet}
    try:
        count = count_solutions(
            puzzle, args.limit, max_nodes=args.max_nodes, marks=args.marks, **geometry
        )
    except SearchLimitExceeded:
        print(UNKNOWN_MARK)
        _error(_budget_message(args.max_nodes, "before the count was decided"))
        return EXIT_UNDECIDED
    print(count)
    return EXIT_OK


def _budget_message(max_nodes: int | None, what: str) -> str:
    """What to say when the node budget ran out."""
    return (
        f"the search ran out of its budget of {max_nodes:,} search nodes {what} "
        "(--max-nodes N raises it, --max-nodes 0 removes it)"
    )


def _add_check_parser(subparsers: Any) -> None:
    parser = _command(
        subparsers,
        "check",
        [EXIT_OK, EXIT_CHECK_FAILED, EXIT_USAGE, EXIT_INTERRUPTED],
        {
            EXIT_OK: (
                "SOLUTION solves PUZZLE (whether it is the only solution is printed; on "
                "grids other than 9x9 with 3x3 boxes that may be left undecided by --max-nodes)"
            ),
            EXIT_CHECK_FAILED: "SOLUTION does not solve PUZZLE (a malformed SOLUTION neither)",
        },
        help="check that SOLUTION solves PUZZLE",
        description=(
            "Check that SOLUTION is a complete grid obeying the rules and keeping every "
            "clue of PUZZLE (both in any notation). Exit status 0 if it is, "
            f"{EXIT_CHECK_FAILED} if not."
        ),
    )
    parser.add_argument("puzzle", metavar="PUZZLE")
    parser.add_argument("solution", metavar="SOLUTION")
    _add_geometry(parser)
    _add_max_nodes(parser)
    parser.set_defaults(handler=_cmd_check)


def _other_grid(text: str, geometry: Geometry) -> str | None:
    """'a 9x9 grid, not a 4x4 one' when `text`, read on its own, is a grid of another size."""
    own = own_size(text)
    if own is None or own == geometry.size:
        return None
    return f"a {own}x{own} grid, not a {geometry.size}x{geometry.size} one"


def _why_not_a_solution(
    candidate: str, puzzle: str, box: object = None, alphabet: object = None
) -> str:
    """What is wrong with a candidate that `is_solution` rejected (any grid size)."""
    geometry, clues = parse_grid(puzzle, box=box, alphabet=alphabet)
    grid = parse_grid(candidate, geometry=geometry)[1]
    side, symbols = geometry.size, geometry.symbols
    empty = grid.count(0)
    if empty:
        return f"{empty} empty cell(s)"
    for cell, (clue, value) in enumerate(zip(clues, grid, strict=True)):
        if clue and clue != value:
            row, col = divmod(cell, side)
            return (
                f"the clue {symbols[clue - 1]} at row {row + 1}, column {col + 1} "
                f"is changed to {symbols[value - 1]}"
            )
    kinds = ["row"] * side + ["column"] * side + ["box"] * side
    for index, unit in enumerate(geometry.units):
        values = [grid[cell] for cell in unit]
        for value in values:
            if values.count(value) > 1:
                return f"{kinds[index]} {index % side + 1} holds {symbols[value - 1]} twice"
    return "a row, column or box repeats a symbol"


def _cmd_check(args: argparse.Namespace) -> int:
    files = "`sudoku-fast solve FILE --verify` checks those of a file"
    puzzle = _puzzle_argument(args.puzzle, files)
    candidate = _puzzle_argument(args.solution, files)
    geometry = {"box": args.box, "alphabet": args.alphabet}
    try:  # a malformed PUZZLE is a usage error even when SOLUTION is wrong
        shape = parse_grid(puzzle, **geometry)[0]
    except ValueError as err:
        raise ValueError(f"PUZZLE: {err}") from None
    try:
        solves = is_solution(candidate, puzzle, **geometry)
    except ValueError as err:  # a malformed SOLUTION solves nothing: say what is wrong
        print(f"not a solution: SOLUTION is malformed: {_other_grid(candidate, shape) or err}")
        return EXIT_CHECK_FAILED
    if not solves:
        print(f"not a solution: {_why_not_a_solution(candidate, puzzle, **geometry)}")
        return EXIT_CHECK_FAILED
    try:
        unique = count_solutions(puzzle, 2, max_nodes=args.max_nodes, **geometry) == 1
    except SearchLimitExceeded:
        print(
            f"valid; whether it is the only solution was not decided within "
            f"{args.max_nodes:,} search nodes (--max-nodes)"
        )
        return EXIT_OK
    print("valid: " + ("the only solution" if unique else "one of several solutions"))
    return EXIT_OK


# ---------------------------------------------------------------- the parser and main

# --- generate / rate / hint -----------------------------------------------------------


def _add_generate_parser(subparsers: Any) -> None:
    from .generator import DIFFICULTIES, SYMMETRIES

    parser = _command(
        subparsers,
        "generate",
        [EXIT_OK, EXIT_CHECK_FAILED, EXIT_USAGE, EXIT_INTERRUPTED, EXIT_BROKEN_PIPE],
        {
            EXIT_OK: "success: the puzzles are printed",
            EXIT_CHECK_FAILED: (
                "the puzzles asked for could not be made: too few candidates scored in "
                "the --score band, or a --difficulty / --symmetry was not met"
            ),
        },
        help="generate puzzles with exactly one solution",
        description="Generate puzzles with exactly one solution, one per line.",
    )
    parser.add_argument("-n", "--count", type=int, default=1, help="how many (default 1)")
    parser.add_argument(
        "--difficulty",
        choices=list(DIFFICULTIES),
        default=None,
        help="level as rated by `rate` (default: any)",
    )
    parser.add_argument("--seed", type=int, default=None, help="seed for reproducible output")
    parser.add_argument(
        "--symmetry", choices=list(SYMMETRIES), default=None, help="keep the clues symmetric"
    )
    parser.add_argument("--size", type=int, default=9, help="grid size, 4 to 16 (default 9)")
    parser.add_argument(
        "--format",
        choices=("lines", "parquet"),
        default="lines",
        help="'parquet' writes puzzle, solution, clues, level, name, seed to -o FILE",
    )
    parser.add_argument(
        "-o",
        "--output",
        default=None,
        help="the output file (required with --format parquet; default: standard output)",
    )
    parser.add_argument(
        "--not-minimal",
        action="store_true",
        help="stop removing clues where the puzzle would get harder than --difficulty",
    )
    parser.add_argument(
        "--score",
        type=_score_band,
        default=None,
        metavar="LOW-HIGH",
        help="9x9 puzzles whose Sudoku Explainer score lies in the band, e.g. 7.5-8.0",
    )
    _add_threads(parser)
    parser.set_defaults(handler=_cmd_generate)


def _score_band(text: str) -> tuple[float, float]:
    """`generate --score LOW-HIGH` (or a single value): the band as two floats."""
    low, sep, high = text.partition("-")
    try:
        band = (float(low), float(high if sep else low))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected LOW-HIGH such as 7.5-8.0, got {text!r}"
        ) from None
    return band


def _cmd_generate(args: argparse.Namespace) -> int:
    from .generator import generate_many, iter_generate

    if args.format == "parquet":
        if args.output is None:
            raise ValueError("--format parquet writes a file: name it with -o")
        parquet_io.check_generated_seed(args.seed)
    shape = {
        "difficulty": args.difficulty,
        "seed": args.seed,
        "size": args.size,
        "symmetry": args.symmetry,
        "minimal": not args.not_minimal,
        "threads": args.threads,
    }
    try:
        if args.format == "parquet" or args.score is not None:
            puzzles = generate_many(args.count, score=args.score, **shape)
            if args.format == "parquet":
                parquet_io.write_generated(args.output, puzzles, args.seed)
                return EXIT_OK
            chunks: Iterable[list[str]] = [puzzles]
        else:
            # Written as they are made: a long run shows its puzzles, and Ctrl-C keeps them.
            chunk = 1024 if args.size <= 9 else 4 * resolve_threads(args.threads)
            chunks = iter_generate(args.count, chunk=chunk, **shape)
        _write_generated(chunks, args.output)
    except RuntimeError as err:  # a --score band or a level the candidates did not meet
        print(f"sudoku-fast: {option_words(str(err))}", file=sys.stderr)
        return EXIT_CHECK_FAILED
    except ValueError as err:
        raise ValueError(_in_cli_terms(str(err))) from None
    return EXIT_OK


def _write_generated(chunks: Iterable[list[str]], output: str | None) -> None:
    """Write the puzzles as they are made: a long run shows its puzzles. A file appears
    when the run ends; Ctrl-C ends it early and keeps the puzzles finished so far, whole
    lines only (a generation's output is a list of independent puzzles: a shorter list
    is still a whole one)."""
    written = kept = 0
    interrupted: KeyboardInterrupt | None = None
    with _output("-" if output is None else output) as out:
        try:
            for made in chunks:
                data = "".join(f"{puzzle}\n" for puzzle in made).encode("utf-8")
                out.write(data)
                out.flush()
                written += len(made)
                kept += len(data)
        except KeyboardInterrupt as stop:
            if out is sys.stdout.buffer:
                raise
            out.seek(kept)  # bytes of a write the interrupt cut short are cut off
            out.truncate()
            interrupted = stop
    if interrupted is not None:
        print(f"sudoku-fast: {written:,} puzzle(s) written to {output}", file=sys.stderr)
        raise interrupted


# The advice of the library's messages, in the command line's terms.
_CLI_ADVICE = (("pass minimal=False", "pass --not-minimal"),)


def _in_cli_terms(message: str) -> str:
    for python, cli in _CLI_ADVICE:
        message = message.replace(python, cli)
    return message


def _add_rate_parser(subparsers: Any) -> None:
    parser = _command(
        subparsers,
        "rate",
        [
            EXIT_OK,
            EXIT_CHECK_FAILED,
            EXIT_USAGE,
            EXIT_MALFORMED,
            EXIT_UNDECIDED,
            EXIT_INTERRUPTED,
            EXIT_BROKEN_PIPE,
        ],
        {
            EXIT_OK: "success: every puzzle rated",
            EXIT_CHECK_FAILED: "a puzzle has no solution or several, so it is not rated",
            EXIT_MALFORMED: "malformed input lines (reported on stderr, not rated)",
            EXIT_UNDECIDED: (
                "a puzzle of a grid other than 9x9 with 3x3 boxes ran out of its search-node "
                "budget (--max-nodes) before its uniqueness was decided"
            ),
        },
        help="rate the difficulty of the puzzles in a file",
        description=(
            "Rate each puzzle of FILE (one per line, blank lines and lines starting with "
            "# skipped; or CSV whose header names a 'quizzes' or 'puzzle' column): level, "
            "hardest technique, engine guesses and nodes. The puzzles are of one size: "
            "--box / --alphabet fix it, else the first puzzle decides."
        ),
    )
    parser.add_argument("file", help="file of puzzles, - for standard input")
    _add_threads(parser)
    _add_geometry(parser)
    parquet_io.add_column_option(parser)
    parser.add_argument(
        "-o",
        "--output",
        default=None,
        help="the output file (required for Parquet input; default for text: standard output)",
    )
    _add_max_nodes(parser)
    parser.add_argument(
        "--score",
        action="store_true",
        help=(
            "also the Sudoku Explainer score (9x9; '>=' marks a score whose budget ran out) "
            "and the step that set it"
        ),
    )
    parser.set_defaults(handler=_cmd_rate)


def _rated(
    batch: Batch, threads: int | None, max_nodes: int | None, score: bool = False
) -> Iterator[tuple[int, Any, bool]]:
    """(line number, Rating or why it has none, whether the line is malformed) per record."""
    from .rating import rate, rate_many

    geometry = batch.geometry
    cells = geometry.cells
    reasons = dict(batch.problems)
    good = [i for i in range(batch.n) if i not in reasons]
    texts = [grid_text(batch.grids[i * cells : (i + 1) * cells], geometry) for i in good]
    # The geometry is passed on only when it is not the classic one, which every
    # version of the rating API takes without it.
    fixed: dict[str, Any] = {"max_nodes": max_nodes}
    if score:
        fixed["score"] = True
    if geometry != CLASSIC:
        fixed |= {"box": (geometry.box_rows, geometry.box_cols), "alphabet": geometry.symbols}
    outcomes: list[Any]
    try:
        outcomes = list(rate_many(texts, threads=threads, **fixed))
    except (ValueError, SearchLimitExceeded):
        # Some puzzle cannot be rated: rate one at a time to say which and why.
        outcomes = []
        for text in texts:
            try:
                outcomes.append(rate(text, **fixed))
            except ValueError as err:
                outcomes.append(str(err))
            except SearchLimitExceeded:
                outcomes.append(_Undecided(_budget_message(max_nodes, "before it was decided")))
    rated = dict(zip(good, outcomes, strict=True))
    for record in range(batch.n):
        malformed = record in reasons
        outcome = reasons[record] if malformed else rated[record]
        yield batch.line_numbers[record], outcome, malformed


def _score_columns(r: Any) -> str:
    """`rate --score`'s extra columns: the score ('>=' when its budget ran out, '-' for
    a size with no SE scale) and the step that set it."""
    if r.score is None:
        return "\t-\t-"
    mark = "" if r.score_complete else ">="
    return f"\t{mark}{r.score:.1f}\t{r.score_technique or '-'}"


class _Undecided(str):
    """Why a puzzle has no rating: the node budget ran out first."""


def _cmd_rate(args: argparse.Namespace) -> int:
    # An invalid thread setting (SUDOKU_FAST_NUM_THREADS too) is an error of the run,
    # found before any output, not an error of each batch, which would make `_rated`
    # rate its puzzles one at a time to find the one at fault.
    args.threads = resolve_threads(args.threads)
    if is_parquet(args.file):
        if args.output is None:
            raise ValueError("Parquet input writes Parquet: name the output file with -o")
        report = parquet_io.rate_parquet(
            args.file,
            args.output,
            column=args.column,
            threads=args.threads,
            box=args.box,
            alphabet=args.alphabet,
            max_nodes=args.max_nodes,
            score=bool(getattr(args, "score", False)),
            on_error="mark",
            compression=args.compression,
            rewrite=args.rewrite,
        )
        for problem in report.problems:  # each has a null rating
            print(f"{args.file}: {option_words(problem)}", file=sys.stderr)
        if report.undecided:
            return EXIT_UNDECIDED
        if report.malformed:
            return EXIT_MALFORMED
        return EXIT_CHECK_FAILED if report.not_unique else EXIT_OK
    source, name, _ = open_input(args.file)
    try:
        if args.output is None:
            return _rate_text(args, source, name)
        with _output(args.output, source) as raw:
            out = io.TextIOWrapper(raw, encoding="utf-8", write_through=True)
            with contextlib.redirect_stdout(out):
                status = _rate_text(args, source, name)
            out.detach()  # the binary stream is closed by _output
            return status
    finally:
        if source is not sys.stdin.buffer:
            source.close()


def _rate_text(args: argparse.Namespace, source: BinaryIO, name: str) -> int:
    """`rate` on a text file: one tab-separated line per puzzle on standard output."""
    score = bool(getattr(args, "score", False))
    print(
        "line\tlevel\tname\thardest\tclues\tengine_guesses\tengine_nodes"
        + ("\tscore\tscore_technique" if score else "")
    )
    levels: list[int] = []
    failures = malformed = undecided = 0
    reader = PuzzleReader(source, name, box=args.box, alphabet=args.alphabet)
    for batch in reader:
        for number, r, bad in _rated(batch, args.threads, args.max_nodes, score):
            if isinstance(r, str):
                failures += 1
                malformed += bad
                undecided += isinstance(r, _Undecided)
                print(f"{number}\terror: {option_words(r)}")
                if bad:  # reported like `solve` reports it
                    print(f"{name}:{number}: {option_words(r)}", file=sys.stderr)
                continue
            levels.append(r.level)
            print(
                f"{number}\t{r.level}\t{r.name}\t{r.hardest}\t{r.clues}"
                f"\t{r.engine_guesses}\t{r.engine_nodes}" + (_score_columns(r) if score else "")
            )
    if levels:
        summary = ", ".join(f"{lv}: {levels.count(lv)}" for lv in sorted(set(levels)))
        print(
            f"# {len(levels)} rated, mean level {statistics.mean(levels):.2f} ({summary})"
            + (f", {failures} not rated" if failures else "")
        )
    if undecided:
        return EXIT_UNDECIDED
    if malformed:
        return EXIT_MALFORMED
    return EXIT_CHECK_FAILED if failures else EXIT_OK


def _add_hint_parser(subparsers: Any) -> None:
    parser = _command(
        subparsers,
        "hint",
        [EXIT_OK, EXIT_USAGE, EXIT_UNDECIDED, EXIT_INTERRUPTED, EXIT_BROKEN_PIPE],
        {
            EXIT_OK: "success: the next step is printed",
            EXIT_UNDECIDED: (
                "a grid other than 9x9 with 3x3 boxes ran out of its search-node budget before its "
                "solution was known"
            ),
        },
        help="the next logical step for a puzzle or a saved board",
        description=(
            "Show the next step for PUZZLE (a puzzle string of any size, or a board JSON "
            "file, which knows its own geometry)."
        ),
    )
    parser.add_argument("puzzle", help="a puzzle in any notation, or the path of a saved board")
    parser.add_argument(
        "--all", action="store_true", help="apply hints one after another to the end"
    )
    _add_geometry(parser)
    _add_max_nodes(parser)
    parser.set_defaults(handler=_cmd_hint)


def _cmd_hint(args: argparse.Namespace) -> int:
    from .board import Board, load_board
    from .hints import hint

    if os.path.isfile(args.puzzle):
        if args.box is not None or args.alphabet is not None:
            raise ValueError("--box and --alphabet are for a PUZZLE; a saved board has its own")
        board = load_board(args.puzzle)
    else:
        try:
            parse_grid(args.puzzle, box=args.box, alphabet=args.alphabet)
        except ValueError as err:  # a misspelt file name is read as a puzzle too
            raise ValueError(f"{args.puzzle!r} is no file, and as a puzzle: {err}") from None
        board = Board.new(args.puzzle, box=args.box, alphabet=args.alphabet)
    name = board.geometry.name
    while True:
        step = hint(board, max_nodes=args.max_nodes)
        if step is None:
            print("solved" if args.all else "the board is complete and correct")
            return 0
        changes = [f"{name(c)}={board.symbol(d)}" for c, d in step.placements] + [
            f"{name(c)}-{board.symbol(d)}" for c, d in step.eliminations
        ]
        print(f"{step.technique}: {step.explanation}  [{' '.join(changes)}]")
        if not args.all:
            return 0
        board = board.apply(step)


# ---------------------------------------------------------------- lab


def _add_lab_parser(subparsers: Any) -> None:
    parser = _command(
        subparsers,
        "lab",
        [EXIT_OK, EXIT_CHECK_FAILED, EXIT_USAGE, EXIT_INTERRUPTED, EXIT_BROKEN_PIPE],
        {
            EXIT_OK: "success: the tables are printed, every answer checked (or --no-verify)",
            EXIT_CHECK_FAILED: "an algorithm's answer differs from the main engine's",
        },
        help="the algorithm lab: classic algorithms and orderings side by side",
        description=(
            "Run the lab's algorithms (sudoku_fast.lab) over puzzle FILES and print the "
            "essay's table (N, Hz, mean, max) with search-tree percentiles, budgets "
            "and a 'gave up' count; --random N runs the random-puzzle experiment."
        ),
    )
    lab_report.add_arguments(parser)
    _add_geometry(parser)
    # FILES tables time each puzzle on one thread by default; --random uses every core.
    _add_threads(parser, default="1 for FILES, all cores for --random")
    parser.set_defaults(handler=lab_report.command)


# ---------------------------------------------------------------- dedup


def _add_dedup_parser(subparsers: Any) -> None:
    parser = _command(
        subparsers,
        "dedup",
        [
            EXIT_OK,
            EXIT_USAGE,
            EXIT_MALFORMED,
            EXIT_UNDECIDED,
            EXIT_INTERRUPTED,
            EXIT_BROKEN_PIPE,
        ],
        {
            EXIT_OK: "success: every puzzle compared",
            EXIT_MALFORMED: (
                "malformed input lines, or puzzles with a symbol repeated in a row or "
                "column (reported on stderr and left out)"
            ),
            EXIT_UNDECIDED: (
                "a puzzle of a grid other than 9x9 with 3x3 boxes ran out of its search budget "
                "(--max-nodes) before its canonical form was found (reported and kept)"
            ),
        },
        help="drop puzzles equivalent (up to symmetry) to an earlier one",
        description=(
            "Copy FILE (one puzzle per line, or CSV with a 'quizzes' or 'puzzle' column) "
            "leaving out every puzzle that is equivalent to an earlier one: the same up "
            "to relabelling the symbols, permuting bands, rows within bands, stacks and "
            "columns within stacks, and transposing (square boxes only). First "
            "occurrences are kept as they were written, in input order; CSV rows are "
            "copied whole. A summary line on stderr says how many puzzles were "
            "equivalent to an earlier one (and how many of those were exact repeats)."
        ),
    )
    parser.add_argument("file", nargs="?", default="-", metavar="FILE", help="'-' = stdin")
    parser.add_argument("-o", "--output", default="-", metavar="OUT", help="default: stdout")
    _add_threads(parser)
    parser.add_argument("-q", "--quiet", action="store_true", help="no summary, no progress bar")
    _add_geometry(parser)
    parser.add_argument(
        "--max-nodes",
        type=_max_nodes,
        default=symmetry.DEFAULT_MAX_NODES,
        metavar="N",
        help=(
            "search steps per puzzle for grids other than 9x9 with 3x3 boxes (default "
            f"{symmetry.DEFAULT_MAX_NODES:,}; 0 = no budget)"
        ),
    )
    parser.set_defaults(handler=_cmd_dedup)


def _cmd_dedup(args: argparse.Namespace) -> int:
    parquet_io.refuse_parquet(args.file, "dedup")
    source, name, size = open_input(args.file)
    try:
        reader = PuzzleReader(source, name, box=args.box, alphabet=args.alphabet)
        progress = Progress(sys.stderr, size, enabled=not args.quiet)
        messages = Messages(sys.stderr, 100, progress)
        try:
            with _output(args.output, source) as out:
                report = symmetry.dedup_stream(
                    reader,
                    out,
                    messages,
                    progress,
                    threads=args.threads,
                    max_nodes=args.max_nodes,
                )
        finally:
            progress.clear()
    finally:
        if source is not sys.stdin.buffer:
            source.close()
    messages.finish()
    if not args.quiet:
        rate = report.records / report.seconds if report.seconds > 0 else 0.0
        print(
            f"{name}: {report.records:,} puzzles in {report.seconds:.2f} s ({rate:,.0f}/s, "
            f"{report.threads} thread(s)): {report.kept:,} kept, {report.equivalent:,} "
            f"equivalent to an earlier one ({report.exact:,} of them exact repeats), "
            f"{report.malformed:,} malformed",
            file=sys.stderr,
        )
    if report.undecided:
        return EXIT_UNDECIDED
    return EXIT_MALFORMED if report.malformed else EXIT_OK


def _add_render_parser(subparsers: Any) -> None:
    from .cli_render import add_render_parser  # its own module: it imports this one

    add_render_parser(subparsers)


COMMANDS: tuple[Callable[[Any], None], ...] = (
    _add_solve_parser,
    _add_stats_parser,
    _add_show_parser,
    _add_count_parser,
    _add_check_parser,
    _add_generate_parser,
    _add_rate_parser,
    _add_hint_parser,
    _add_lab_parser,
    _add_dedup_parser,
    _add_render_parser,
)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the command line."""
    parser = argparse.ArgumentParser(
        prog="sudoku-fast",
        description=(
            "A fast Sudoku engine. Without a command: solve the embedded puzzle sets, "
            "verify every solution, print throughput."
        ),
        epilog=exit_codes(sorted(EXIT_MEANINGS)),
        formatter_class=HelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    _add_threads(parser, top_level=True)
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND")
    for add_parser in COMMANDS:
        add_parser(subparsers)
    parser.set_defaults(handler=_cmd_main_job)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of `sudoku-fast`; returns the exit status."""
    arguments = sys.argv[1:] if argv is None else argv
    args = build_parser().parse_args(_join_box_arguments(arguments))
    try:
        status: int = args.handler(args)
    except SearchLimitExceeded:
        _error(_budget_message(getattr(args, "max_nodes", DEFAULT_MAX_NODES), "on a puzzle"))
        return EXIT_UNDECIDED
    except KeyboardInterrupt:
        print("sudoku-fast: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): stop quietly, as other tools do.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    except (ValueError, TypeError, OSError) as err:
        _error(_naming_the_output(err, args))
        return EXIT_USAGE
    return status


# Errors only a write gives; the operating system names no file for them.
_WRITE_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})


def _naming_the_output(err: BaseException, args: argparse.Namespace) -> str:
    """The message of an error, naming the output when a write failed (a full disk)."""
    if isinstance(err, OSError) and err.filename is None and err.errno in _WRITE_ERRNOS:
        output = getattr(args, "output", None)
        return f"{output if output not in (None, '-') else 'standard output'}: {err}"
    return str(err)
