"""`sudoku-fast count`: the number of solutions of one puzzle."""

from __future__ import annotations

import argparse
from typing import Any

from .._base.errors import SearchLimitExceeded
from .._files.stream import UNKNOWN_MARK
from ..solving import count_solutions
from . import exits
from .exits import command
from .options import (
    _limit,
    add_geometry,
    add_marks,
    add_max_nodes,
    add_rules,
    fpuzzles_of,
    puzzle_argument,
    rules_of,
)
from .words import budget_message, error


def add_parser(subparsers: Any) -> None:
    parser = command(
        subparsers,
        "count",
        [exits.EXIT_OK, exits.EXIT_USAGE, exits.EXIT_UNDECIDED, exits.EXIT_INTERRUPTED],
        {
            exits.EXIT_OK: "success: the number of solutions is printed",
            exits.EXIT_UNDECIDED: (
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
    parser.add_argument("puzzle", metavar="PUZZLE", nargs="?")
    parser.add_argument(
        "--limit", type=_limit, default=2, metavar="N", help="stop counting at N (default 2)"
    )
    add_marks(parser, "PUZZLE is given as")
    add_geometry(parser)
    add_rules(parser, fpuzzles=True)
    add_max_nodes(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    imported = fpuzzles_of(args)
    if (imported is None) == (args.puzzle is None):
        raise ValueError("give PUZZLE or --fpuzzles FILE (one of them)")
    if imported is not None:
        puzzle = imported.puzzle
    else:
        puzzle = puzzle_argument(
            args.puzzle, "`sudoku-fast solve FILE --count` counts those of a file"
        )
    geometry = {"box": args.box, "alphabet": args.alphabet}
    try:
        count = count_solutions(
            puzzle,
            args.limit,
            max_nodes=args.max_nodes,
            marks=args.marks,
            rules=rules_of(args),
            **geometry,
        )
    except SearchLimitExceeded:
        print(UNKNOWN_MARK)
        error(budget_message(args.max_nodes, "before the count was decided"))
        return exits.EXIT_UNDECIDED
    print(count)
    return exits.EXIT_OK
