"""Hints for a player: the next logical step, or the mistake on the board; pencil marks.

`hint(board)` looks at a puzzle string or a `Board` (givens, the player's values and
pencil marks) of any geometry and returns, in this order of priority:

1. a "wrong value" hint when a value the player entered differs from the puzzle's
   unique solution (the first such cell in row-major order);
2. a "wrong pencil marks" hint when a cell's pencil marks leave out its solution digit;
3. the easiest deduction available from the board's candidates (the player's pencil
   marks where a cell has some, the rules alone elsewhere): one of the techniques of
   the ladder of `_base/levels.py`, up to trial and error;
4. a "guess" hint revealing one cell's solution digit when no technique applies;
5. None when the board is complete and correct.

Hints need givens with exactly one solution (mistakes are defined against it), found
by the engine of the board's geometry: givens with no solution or several raise
`ValueError`; givens whose search needs more than `max_nodes` nodes (default
`DEFAULT_MAX_NODES`; possible on big grids only) raise `SearchLimitExceeded`. A plain
puzzle string counts as givens only.
"""

from __future__ import annotations

from array import array
from functools import lru_cache

from ._base.checks import DEFAULT_MAX_NODES, node_budget
from ._base.errors import SearchLimitExceeded
from ._base.grid import Geometry
from ._base.records import Hint
from ._engine.run import run_engine
from ._techniques.solver import next_step
from ._techniques.steps import candidate_masks, digits_of
from .board import Board, as_board

__all__ = ["Hint", "candidates", "hint"]


def candidates(
    puzzle: str | Board, *, box: object = None, alphabet: object = None
) -> list[set[int]]:
    """The pencil marks the rules allow: for each cell, the values no peer holds yet.

    Filled cells (givens and the player's values) get an empty set. The player's own
    pencil marks on a `Board` are not used here. A puzzle string may be of any size
    `parse` accepts (`box` / `alphabet` as there). Raises `ValueError` when two equal
    values share a unit.
    """
    board = as_board(puzzle, box, alphabet)
    masks = candidate_masks(board.grid_values(), board.geometry)
    return [set(digits_of(mask)) for mask in masks]


# Hints are asked for again and again on the same givens while a board is played, so
# the engine's answer is kept for the last few puzzles.
@lru_cache(maxsize=16)
def _solution_of(givens: bytes, geometry: Geometry, max_nodes: int) -> tuple[int, ...]:
    results = run_engine(givens, 1, 2, 1, geometry=geometry, max_nodes=max_nodes)
    count = results.counts[0]
    if count < 0:  # undecided, as a batch's puzzle that runs out of its budget
        raise SearchLimitExceeded(
            f"the givens need more than {max_nodes:,} search nodes to prove one "
            "solution, so no hint can be given (pass a larger max_nodes, or None)",
            [0],
            None,
        )
    if count == 0:
        raise ValueError("the givens have no solution, so no hint can be given")
    if count > 1:
        raise ValueError("the givens have several solutions, so no hint can be given")
    return tuple(results.solutions)


def _wrong_value(board: Board, solution: tuple[int, ...]) -> Hint | None:
    geo = board.geometry
    grid = board.grid_values()
    for cell, value in enumerate(board.user_values()):
        if value and value != solution[cell]:
            symbol = board.symbol(value)
            clash = next((p for p in geo.peers[cell] if grid[p] == value), None)
            why = (
                f"it clashes with the {symbol} in {geo.name(clash)}"
                if clash is not None
                else "it contradicts the puzzle's solution"
            )
            return Hint(
                "wrong value",
                0,
                (cell,),
                (value,),
                eliminations=((cell, value),),
                explanation=f"the {symbol} entered in {geo.name(cell)} is wrong: {why}",
            )
    return None


def hint(
    puzzle: str | Board,
    *,
    box: object = None,
    alphabet: object = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
) -> Hint | None:
    """The next step for the player (see the module doc), or None when solved.

    `puzzle` is a `Board` or a puzzle string of any size `parse` accepts (`box` /
    `alphabet` as there). Raises `ValueError` when the givens have no solution or
    several, `SearchLimitExceeded` when a grid other than 9x9 with 3x3 boxes needs more than
    `max_nodes` search nodes to tell (None: no budget), `TypeError` for anything but a
    puzzle string or a `Board`.
    """
    budget = node_budget(max_nodes)  # checked before anything else, on every call
    board = as_board(puzzle, box, alphabet)
    solution = _solution_of(bytes(board.given_values()), board.geometry, budget)
    mistake = _wrong_value(board, solution)
    if mistake is not None:
        return mistake
    geo = board.geometry
    values = board.grid_values()
    allowed = array("Q", [geo.all_digits]) * geo.cells
    for cell, marks in enumerate(board.pencil):
        if not marks or values[cell]:
            continue
        if solution[cell] not in marks:
            return Hint(
                "wrong pencil marks",
                0,
                (cell,),
                (solution[cell],),
                explanation=(
                    f"the pencil marks of {geo.name(cell)} leave out the digit that belongs there"
                ),
            )
        allowed[cell] = sum(1 << (digit - 1) for digit in marks)
    if 0 not in values:
        return None
    return next_step(geo, values, allowed, solution)
