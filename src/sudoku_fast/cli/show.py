"""`sudoku-fast show`: print a puzzle as a grid."""

from __future__ import annotations

import argparse
from typing import Any

from ..grid import show
from . import exits
from .exits import command
from .options import add_geometry, puzzle_argument


def add_parser(subparsers: Any) -> None:
    parser = command(
        subparsers,
        "show",
        [exits.EXIT_OK, exits.EXIT_USAGE],
        {exits.EXIT_OK: "success: the grid is printed"},
        help="print a puzzle as a grid",
        description="Print PUZZLE (any notation and size; '-' reads it from stdin) as a grid.",
    )
    parser.add_argument("puzzle", metavar="PUZZLE")
    add_geometry(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    puzzle = puzzle_argument(args.puzzle, "`sudoku-fast solve FILE` solves those of a file")
    print(show(puzzle, box=args.box, alphabet=args.alphabet))
    return exits.EXIT_OK
