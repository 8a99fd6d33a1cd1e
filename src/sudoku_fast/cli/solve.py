"""`sudoku-fast solve`: a file of puzzles (text, CSV or Parquet), one answer per line."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .._base.columns import ON_ERROR_CHOICES
from .._files import parquet_io
from .._files.notations import reading
from .._files.progress import Progress
from .._files.stream import (
    MALFORMED_MARK,
    NO_SOLUTION_MARK,
    UNKNOWN_MARK,
    PuzzleReader,
    RunReport,
    SolveOptions,
    is_parquet,
    open_input,
    solve_stream,
)
from ..variants import Rules
from . import exits
from .exits import command
from .options import (
    Incomplete,
    _limit,
    add_geometry,
    add_marks,
    add_max_nodes,
    add_notation,
    add_parquet_options,
    add_rules,
    add_threads,
    fpuzzles_input,
    non_negative,
    output,
    rules_box,
    rules_of,
)
from .words import Messages, option_words


def add_parser(subparsers: Any) -> None:
    parser = command(
        subparsers,
        "solve",
        [
            exits.EXIT_OK,
            exits.EXIT_CHECK_FAILED,
            exits.EXIT_USAGE,
            exits.EXIT_MALFORMED,
            exits.EXIT_STOPPED,
            exits.EXIT_UNDECIDED,
            exits.EXIT_INTERRUPTED,
            exits.EXIT_BROKEN_PIPE,
        ],
        {
            exits.EXIT_CHECK_FAILED: (
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
    parser.add_argument(
        "file", nargs="?", default=None, metavar="FILE", help="'-' = stdin (the default)"
    )
    parser.add_argument("-o", "--output", default="-", metavar="OUT", help="default: stdout")
    add_threads(parser)
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
            "check every solution found by the rules, variant rules included "
            "(independently of the engine), and "
            "against the file's solution column when there is one; report differences"
        ),
    )
    parser.add_argument(
        "--on-error",
        choices=ON_ERROR_CHOICES,
        default="mark",
        help=(
            "malformed lines: 'mark' (default) reports them, writes the marker and exits "
            f"{exits.EXIT_MALFORMED} at the end; 'skip' reports them and writes nothing for them; "
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
        type=non_negative,
        default=100,
        metavar="N",
        help="report at most N problem lines (default 100; 0 = all)",
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="no summary, no progress bar")
    add_marks(parser, "each puzzle is given as")
    add_geometry(parser)
    add_rules(parser, fpuzzles=True)
    add_notation(parser)
    add_max_nodes(parser)
    add_parquet_options(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.limit is not None and not args.count:
        raise ValueError("--limit is the limit of --count: pass --count too")
    if args.limit is None:
        args.limit = 2
    rules = rules_of(args)
    if rules is not None and args.marks:
        raise ValueError("--marks cannot be combined with variant rules (--variant, --rules)")
    one_puzzle = fpuzzles_input(args, args.file)
    if args.file is None:
        args.file = "-"
    if one_puzzle is None and is_parquet(args.file):
        return _solve_parquet(args, rules)
    if one_puzzle is not None:
        (source, name), size = one_puzzle, None
    else:
        source, name, size = open_input(args.file)
    source = reading(source, args.empty, args.blocks)
    try:
        reader = PuzzleReader(
            source,
            name,
            want_given=args.verify,
            box=rules_box(args, rules),
            alphabet=args.alphabet,
            marks=args.marks,
            column=args.column,
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
            rules=rules,
        )
        progress = Progress(sys.stderr, size, enabled=not args.quiet)
        messages = Messages(sys.stderr, args.max_messages, progress)
        try:
            with output(args.output, source) as out:
                report = solve_stream(reader, out, options, messages, progress)
                if report.stopped:  # --on-error fail: no output, as with Parquet
                    raise Incomplete
        except Incomplete:
            pass
        finally:
            progress.clear()
    finally:
        if source is not sys.stdin.buffer:
            source.close()
    messages.finish()
    if not args.quiet:
        _print_run_summary(name, report, args.verify, reader.has_solutions, options)
    status = exits.EXIT_OK
    if report.mismatches:
        status = exits.EXIT_CHECK_FAILED
    if report.malformed and args.on_error == "mark":
        status = exits.EXIT_MALFORMED
    if report.stopped:
        status = exits.EXIT_STOPPED
    if report.unknown:
        status = exits.EXIT_UNDECIDED
    return status


def _solve_parquet(args: argparse.Namespace, rules: Rules | None) -> int:
    """`solve FILE.parquet -o OUT.parquet`: the answers as a column beside the input's
    (under `rules` and the file's own `rules` column, if any)."""
    if args.output == "-":
        raise ValueError("Parquet input writes Parquet: name the output file with -o OUT.parquet")
    if args.format != "auto":
        raise ValueError(
            f"Parquet input writes Parquet: --format {args.format} applies to text input"
        )
    progress = Progress(sys.stderr, parquet_io.row_count(args.file), enabled=not args.quiet)
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
            progress=lambda rows: progress.update(rows, rows),
            rules=rules,
        )
    except parquet_io.MalformedRow as err:
        print(f"sudoku-fast: {option_words(str(err))}", file=sys.stderr)
        return exits.EXIT_STOPPED
    finally:
        progress.clear()
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
        return exits.EXIT_UNDECIDED
    if report.malformed and args.on_error == "mark":
        return exits.EXIT_MALFORMED
    if report.mismatches:
        return exits.EXIT_CHECK_FAILED
    return exits.EXIT_OK


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
