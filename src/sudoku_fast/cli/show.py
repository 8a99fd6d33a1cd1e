"""`sudoku-fast show`: print a puzzle, or a saved board, as a grid."""

from __future__ import annotations

import argparse
from typing import Any

from ..board import load_board
from ..grid import show
from . import exits
from .exits import command
from .options import add_geometry, is_board_file, puzzle_argument


def add_parser(subparsers: Any) -> None:
    parser = command(
        subparsers,
        "show",
        [exits.EXIT_OK, exits.EXIT_USAGE],
        {exits.EXIT_OK: "success: the grid is printed"},
        help="print a puzzle or a saved board as a grid",
        description=(
            "Print PUZZLE (any notation and size; '-' reads it from stdin) as a grid, or "
            "a saved board (the path of its JSON file) with what it holds."
        ),
    )
    parser.add_argument("puzzle", metavar="PUZZLE", help="a puzzle, or the path of a saved board")
    add_geometry(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.puzzle != "-" and is_board_file(args.puzzle):
        if args.box is not None or args.alphabet is not None:
            raise ValueError("--box and --alphabet are for a PUZZLE; a saved board has its own")
        print(load_board(args.puzzle))
        return exits.EXIT_OK
    puzzle = puzzle_argument(args.puzzle, "`sudoku-fast solve FILE` solves those of a file")
    print(show(puzzle, box=args.box, alphabet=args.alphabet))
    return exits.EXIT_OK
