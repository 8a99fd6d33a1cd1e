"""`sudoku-fast check`: whether SOLUTION solves PUZZLE, and if not, why."""

from __future__ import annotations

import argparse
from typing import Any

from .._base.errors import SearchLimitExceeded
from .._base.grid import Geometry, is_solution, parse_grid
from .._files.stream import own_size
from ..grid import solution_problem
from ..solving import count_solutions
from . import exits
from .exits import command
from .options import (
    add_geometry,
    add_max_nodes,
    add_rules,
    fit_rules,
    fpuzzles_of,
    puzzle_argument,
    rules_box,
    rules_of,
)


def add_parser(subparsers: Any) -> None:
    parser = command(
        subparsers,
        "check",
        [exits.EXIT_OK, exits.EXIT_CHECK_FAILED, exits.EXIT_USAGE, exits.EXIT_INTERRUPTED],
        {
            exits.EXIT_OK: (
                "SOLUTION solves PUZZLE (whether it is the only solution is printed; on "
                "grids other than 9x9 with 3x3 boxes that may be left undecided by --max-nodes)"
            ),
            exits.EXIT_CHECK_FAILED: (
                "SOLUTION does not solve PUZZLE (a malformed SOLUTION neither)"
            ),
        },
        help="check that SOLUTION solves PUZZLE",
        description=(
            "Check that SOLUTION is a complete grid obeying the rules (variant rules "
            "too, with --variant / --rules / --fpuzzles) and keeping every clue of "
            "PUZZLE (both in any notation; with --fpuzzles, give SOLUTION alone). Exit "
            f"status 0 if it is, {exits.EXIT_CHECK_FAILED} if not."
        ),
    )
    parser.add_argument("puzzle", metavar="PUZZLE", nargs="?")
    parser.add_argument("solution", metavar="SOLUTION", nargs="?")
    add_geometry(parser)
    add_rules(parser, fpuzzles=True)
    add_max_nodes(parser)
    parser.set_defaults(handler=run)


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


def run(args: argparse.Namespace) -> int:
    files = "`sudoku-fast solve FILE --verify` checks those of a file"
    imported = fpuzzles_of(args)
    if imported is not None:
        if args.solution is not None or args.puzzle is None:
            raise ValueError("with --fpuzzles FILE, give SOLUTION alone (the puzzle is the file's)")
        puzzle = imported.puzzle
        candidate = puzzle_argument(args.puzzle, files)
    else:
        if args.solution is None:
            raise ValueError("give PUZZLE and SOLUTION (or --fpuzzles FILE and SOLUTION)")
        puzzle = puzzle_argument(args.puzzle, files)
        candidate = puzzle_argument(args.solution, files)
    rules = rules_of(args)
    geometry = {"box": rules_box(args, rules), "alphabet": args.alphabet}
    try:  # a malformed PUZZLE is a usage error even when SOLUTION is wrong
        shape = parse_grid(puzzle, **geometry)[0]
    except ValueError as err:
        raise ValueError(f"PUZZLE: {err}") from None
    fit_rules(args, rules, shape.size, (shape.box_rows, shape.box_cols))
    if rules is not None:
        try:
            why = solution_problem(candidate, puzzle, rules=rules, **geometry)
        except ValueError as err:
            print(f"not a solution: SOLUTION is malformed: {_other_grid(candidate, shape) or err}")
            return exits.EXIT_CHECK_FAILED
        if why is not None:
            print(f"not a solution: {why}")
            return exits.EXIT_CHECK_FAILED
        solves = True
    else:
        try:
            solves = is_solution(candidate, puzzle, **geometry)
        except ValueError as err:  # a malformed SOLUTION solves nothing: say what is wrong
            print(f"not a solution: SOLUTION is malformed: {_other_grid(candidate, shape) or err}")
            return exits.EXIT_CHECK_FAILED
    if not solves:
        print(f"not a solution: {_why_not_a_solution(candidate, puzzle, **geometry)}")
        return exits.EXIT_CHECK_FAILED
    try:
        unique = count_solutions(puzzle, 2, max_nodes=args.max_nodes, rules=rules, **geometry) == 1
    except SearchLimitExceeded:
        print(
            f"valid; whether it is the only solution was not decided within "
            f"{args.max_nodes:,} search nodes (--max-nodes)"
        )
        return exits.EXIT_OK
    print("valid: " + ("the only solution" if unique else "one of several solutions"))
    return exits.EXIT_OK
