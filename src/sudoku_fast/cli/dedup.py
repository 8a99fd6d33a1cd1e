"""`sudoku-fast dedup`: drop the puzzles of a file equivalent (up to symmetry) to an earlier one."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any, BinaryIO

from .._files.dedup import dedup_stream
from .._files.notations import reading
from .._files.progress import Progress
from .._files.stream import PuzzleReader, is_parquet, open_input
from .._files.tables import TableReport, dedup_table
from ..symmetry import DEFAULT_CANONICAL_NODES
from . import exits
from .exits import command
from .options import _max_nodes, add_geometry, add_notation, add_threads, output
from .words import Messages


def add_parser(subparsers: Any) -> None:
    parser = command(
        subparsers,
        "dedup",
        [
            exits.EXIT_OK,
            exits.EXIT_USAGE,
            exits.EXIT_MALFORMED,
            exits.EXIT_UNDECIDED,
            exits.EXIT_INTERRUPTED,
            exits.EXIT_BROKEN_PIPE,
        ],
        {
            exits.EXIT_OK: "success: every puzzle compared",
            exits.EXIT_MALFORMED: (
                "malformed input lines, or puzzles with a symbol repeated in a row or "
                "column (reported on stderr and left out)"
            ),
            exits.EXIT_UNDECIDED: (
                "a puzzle of a grid other than 9x9 with 3x3 boxes ran out of its search budget "
                "(--max-nodes) before its canonical form was found (reported and kept)"
            ),
        },
        help="drop puzzles equivalent (up to symmetry) to an earlier one",
        description=(
            "Copy FILE (one puzzle per line, CSV with a 'quizzes' or 'puzzle' column or the "
            "one --column names, or Parquet) "
            "leaving out every puzzle that is equivalent to an earlier one: the same up "
            "to relabelling the symbols, permuting bands, rows within bands, stacks and "
            "columns within stacks, and transposing (square boxes only). First "
            "occurrences are kept as they were written, in input order; CSV rows are "
            "copied whole. A summary line on stderr says how many puzzles were "
            "equivalent to an earlier one (and how many of those were exact repeats). "
            "Parquet (and CSV with --key or --transform) is streamed by row groups or "
            "blocks and written in its own format; --key adds the canonical form as a "
            "column, --transform the symmetry that maps the row to it. A record with "
            "variant rules of its own (a JSON line's 'rules', a 'rules' column) is moved "
            "with its rules, by the symmetries its rules keep (the square's 8 for cages, "
            "thermometers, jigsaw regions and neighbour rules; digits kept where a rule "
            "names them); with --key its canonical rules go in 'canonical_rules'."
        ),
    )
    parser.add_argument("file", nargs="?", default="-", metavar="FILE", help="'-' = stdin")
    parser.add_argument("-o", "--output", default="-", metavar="OUT", help="default: stdout")
    add_threads(parser)
    parser.add_argument("-q", "--quiet", action="store_true", help="no summary, no progress bar")
    add_geometry(parser)
    add_notation(parser)
    parser.add_argument(
        "--max-nodes",
        type=_max_nodes,
        default=DEFAULT_CANONICAL_NODES,
        metavar="N",
        help=(
            "search steps per puzzle for grids other than 9x9 with 3x3 boxes (default "
            f"{DEFAULT_CANONICAL_NODES:,}; 0 = no budget)"
        ),
    )
    add_table_options(parser)
    parser.add_argument(
        "--key", action="store_true", help="add the canonical form as a column ('canonical')"
    )
    parser.set_defaults(handler=run)


def add_table_options(parser: Any) -> None:
    """`--column` and `--transform` of dedup and canonical."""
    parser.add_argument(
        "--column",
        default=None,
        metavar="NAME",
        help="the puzzle column of a CSV or Parquet input, any case (default: the first "
        "named quizzes / quiz / puzzles / puzzle)",
    )
    parser.add_argument(
        "--transform",
        action="store_true",
        help="add the symmetry that maps each row's puzzle to its canonical form as a "
        "column ('canonical_transform': transpose;rows;cols;digits)",
    )


def report_table(name: str, report: TableReport, what: str) -> None:
    """The summary of a table run, on stderr (never among the data)."""
    rate = report.rows / report.seconds if report.seconds > 0 else 0.0
    print(
        f"{name}: {report.rows:,} rows in {report.seconds:.2f} s ({rate:,.0f}/s): {what}",
        file=sys.stderr,
    )


def run_table(
    args: argparse.Namespace,
    table: Callable[[BinaryIO, Progress], TableReport],
    summary: Callable[[TableReport], str],
) -> int:
    """A table command (dedup, canonical, augment): `table` writes the output with a
    progress bar; its problems and `summary` go to stderr; the exit status."""
    progress = Progress(sys.stderr, None, enabled=not args.quiet)
    messages = Messages(sys.stderr, 100, progress)
    try:
        with output(args.output) as out:
            report = table(out, progress)
    finally:
        progress.clear()
    for problem in report.problems:
        messages.say(f"{args.file}: {problem}")
    if not args.quiet:
        report_table(args.file, report, summary(report))
    return exits.EXIT_MALFORMED if report.malformed else exits.EXIT_OK


def run(args: argparse.Namespace) -> int:
    if args.file != "-" and (is_parquet(args.file) or args.key or args.transform):
        return _run_table(args)
    source, name, size = open_input(args.file)
    source = reading(source, args.empty, args.blocks)
    try:
        reader = PuzzleReader(
            source, name, box=args.box, alphabet=args.alphabet, column=args.column
        )
        progress = Progress(sys.stderr, size, enabled=not args.quiet)
        messages = Messages(sys.stderr, 100, progress)
        try:
            with output(args.output, source) as out:
                report = dedup_stream(
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
        return exits.EXIT_UNDECIDED
    return exits.EXIT_MALFORMED if report.malformed else exits.EXIT_OK


def _run_table(args: argparse.Namespace) -> int:
    """dedup of a Parquet file, or of CSV / lines with a key or transform column."""
    return run_table(
        args,
        lambda out, progress: dedup_table(
            args.file,
            out,
            progress,
            column=args.column,
            key=args.key,
            transform=args.transform,
            threads=args.threads,
            box=args.box,
            alphabet=args.alphabet,
            max_nodes=args.max_nodes,
        ),
        lambda report: (
            f"{report.written:,} kept ({report.distinct:,} distinct canonical forms), "
            f"{report.equivalent:,} equivalent to an earlier one, "
            f"{report.malformed:,} malformed"
        ),
    )
