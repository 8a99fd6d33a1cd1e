"""`sudoku-fast dedup`: drop the puzzles of a file equivalent (up to symmetry) to an earlier one."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .._files.dedup import dedup_stream
from .._files.progress import Progress
from .._files.stream import PuzzleReader, open_input
from ..symmetry import DEFAULT_CANONICAL_NODES
from . import exits
from .exits import command
from .options import _max_nodes, add_geometry, add_threads, output, refuse_parquet
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
    add_threads(parser)
    parser.add_argument("-q", "--quiet", action="store_true", help="no summary, no progress bar")
    add_geometry(parser)
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
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    refuse_parquet(args.file, "dedup")
    source, name, size = open_input(args.file)
    try:
        reader = PuzzleReader(source, name, box=args.box, alphabet=args.alphabet)
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
