"""`sudoku-fast hint`: the next logical step for a puzzle or a saved board."""

from __future__ import annotations

import argparse
import os
from typing import Any

from .._base.grid import parse_grid
from ..board import Board, load_board
from ..hints import hint
from . import exits
from .exits import command
from .options import (
    add_geometry,
    add_max_nodes,
    add_rules,
    fit_rules,
    fpuzzles_of,
    rules_box,
    rules_of,
)


def add_parser(subparsers: Any) -> None:
    parser = command(
        subparsers,
        "hint",
        [
            exits.EXIT_OK,
            exits.EXIT_USAGE,
            exits.EXIT_UNDECIDED,
            exits.EXIT_INTERRUPTED,
            exits.EXIT_BROKEN_PIPE,
        ],
        {
            exits.EXIT_OK: "success: the next step is printed",
            exits.EXIT_UNDECIDED: (
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
    parser.add_argument(
        "puzzle", nargs="?", help="a puzzle in any notation, or the path of a saved board"
    )
    parser.add_argument(
        "--all", action="store_true", help="apply hints one after another to the end"
    )
    parser.add_argument(
        "--scale",
        choices=("levels", "se"),
        default="levels",
        help=(
            "levels: the technique solver's ladder (default); se: the step the Sudoku "
            "Explainer rater of `rate --score` takes (9x9)"
        ),
    )
    add_geometry(parser)
    add_rules(parser, fpuzzles=True)
    add_max_nodes(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    imported = fpuzzles_of(args)
    if (imported is None) == (args.puzzle is None):
        raise ValueError("give PUZZLE or --fpuzzles FILE (one of them)")
    rules = rules_of(args)
    if rules is not None and args.scale == "se":
        raise ValueError(
            "--scale se cannot be combined with variant rules (--variant, --rules, "
            "--fpuzzles): the Sudoku Explainer scale is calibrated on classic puzzles"
        )
    puzzle = imported.puzzle if imported is not None else args.puzzle
    if imported is None and os.path.isfile(puzzle):
        if args.box is not None or args.alphabet is not None:
            raise ValueError("--box and --alphabet are for a PUZZLE; a saved board has its own")
        board = load_board(puzzle)
    else:
        box = rules_box(args, rules)
        try:
            parse_grid(puzzle, box=box, alphabet=args.alphabet)
        except ValueError as err:  # a misspelt file name is read as a puzzle too
            if imported is not None:
                raise ValueError(f"--fpuzzles {args.fpuzzles}: {err}") from None
            raise ValueError(f"{puzzle!r} is no file, and as a puzzle: {err}") from None
        board = Board.new(puzzle, box=box, alphabet=args.alphabet)
    geometry = board.geometry
    fit_rules(args, rules, geometry.size, (geometry.box_rows, geometry.box_cols))
    name = geometry.name
    while True:
        step = hint(board, max_nodes=args.max_nodes, scale=args.scale, rules=rules)
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
