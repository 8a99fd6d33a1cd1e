"""`sudoku-fast canonical`: every puzzle of a file with its canonical form beside it."""

from __future__ import annotations

import argparse
from typing import Any

from .._files.tables import canonical_table
from ..symmetry import DEFAULT_CANONICAL_NODES
from . import exits
from .dedup import add_table_options, run_table
from .exits import command
from .options import _max_nodes, add_geometry, add_threads


def add_parser(subparsers: Any) -> None:
    parser = command(
        subparsers,
        "canonical",
        [exits.EXIT_OK, exits.EXIT_USAGE, exits.EXIT_MALFORMED, exits.EXIT_INTERRUPTED],
        {
            exits.EXIT_MALFORMED: (
                "malformed rows (puzzle or rules), or classic puzzles with a symbol "
                "repeated in a row or column (reported on stderr, written with an empty form)"
            ),
        },
        help="add the canonical form (up to symmetry) of every puzzle",
        description=(
            "Read FILE (Parquet, CSV with a puzzle column, or one puzzle per line) and "
            "write it again with a 'canonical' column: the smallest equivalent puzzle, "
            "the same for two puzzles exactly when one is a symmetry of the other "
            "(--transform adds the symmetry itself). A row with variant rules of its own (a "
            "'rules' column) is moved with its rules, by the symmetries its rules keep; "
            "its canonical rules go in a 'canonical_rules' column. Parquet in, Parquet "
            "out; CSV keeps its delimiter; a file of lines gives one canonical form per "
            "line. Streamed: memory stays flat however large the file."
        ),
    )
    parser.add_argument("file", metavar="FILE", help="a Parquet, CSV or text file")
    parser.add_argument("-o", "--output", default="-", metavar="OUT", help="default: stdout")
    add_threads(parser)
    parser.add_argument("-q", "--quiet", action="store_true", help="no summary, no progress bar")
    add_geometry(parser)
    parser.add_argument(
        "--max-nodes",
        type=_max_nodes,
        default=DEFAULT_CANONICAL_NODES,
        metavar="N",
        help=f"search steps per puzzle for grids other than 9x9 (default "
        f"{DEFAULT_CANONICAL_NODES:,}; 0 = no budget)",
    )
    add_table_options(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    return run_table(
        args,
        lambda out, progress: canonical_table(
            args.file,
            out,
            progress,
            column=args.column,
            transform=args.transform,
            threads=args.threads,
            box=args.box,
            alphabet=args.alphabet,
            max_nodes=args.max_nodes,
        ),
        lambda report: f"{report.malformed:,} without a canonical form",
    )
