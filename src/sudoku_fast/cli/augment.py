"""`sudoku-fast augment`: random symmetric copies of every puzzle (and of its solution)."""

from __future__ import annotations

import argparse
from typing import Any

from .._files.tables import augment_table
from . import exits
from .dedup import run_table
from .exits import command
from .options import add_geometry, add_threads


def _copies(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {value}")
    return value


def _seed(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must not be negative, not {value}")
    return value


def add_parser(subparsers: Any) -> None:
    parser = command(
        subparsers,
        "augment",
        [exits.EXIT_OK, exits.EXIT_USAGE, exits.EXIT_MALFORMED, exits.EXIT_INTERRUPTED],
        {exits.EXIT_MALFORMED: "malformed rows (reported on stderr and left out)"},
        help="write N random symmetric copies of every puzzle (solutions moved alike)",
        description=(
            "Read FILE (Parquet, CSV with a puzzle column, or one puzzle per line) and "
            "write N copies of every row, each with its puzzle moved by a random "
            "symmetry (relabelling, band/row/stack/column permutations, transposition). "
            "A solution column ('solution'/'solutions' or --solution-column) is moved by "
            "the same symmetry as its puzzle, so each pair stays a puzzle and its "
            "solution; a 'source_row' column gives the input row of each copy. A row with "
            "variant rules of its own (a 'rules' column) is moved with its rules, by the "
            "symmetries its rules keep, and the moved rules are written in its rules "
            "column. --seed makes the output reproducible."
        ),
    )
    parser.add_argument("file", metavar="FILE", help="a Parquet, CSV or text file")
    parser.add_argument("-o", "--output", default="-", metavar="OUT", help="default: stdout")
    parser.add_argument(
        "-n", "--copies", type=_copies, default=1, metavar="N", help="copies per row (default 1)"
    )
    parser.add_argument("--seed", type=_seed, default=None, metavar="S", help="random seed")
    parser.add_argument("--column", default=None, metavar="NAME", help="the puzzle column")
    parser.add_argument(
        "--solution-column", default=None, metavar="NAME", help="the solution column"
    )
    add_threads(parser)
    parser.add_argument("-q", "--quiet", action="store_true", help="no summary, no progress bar")
    add_geometry(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    return run_table(
        args,
        lambda out, progress: augment_table(
            args.file,
            out,
            progress,
            copies=args.copies,
            seed=args.seed,
            column=args.column,
            solution=args.solution_column,
            threads=args.threads,
            box=args.box,
            alphabet=args.alphabet,
        ),
        lambda report: (
            f"{report.written:,} copies written, {report.malformed:,} malformed rows left out"
        ),
    )
