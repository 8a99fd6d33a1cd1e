"""Hints for a player: the next logical step, or the mistake on the board; pencil marks.

`hint(board)` looks at a puzzle string or a `Board` (givens, the player's values and
pencil marks) and returns, in this order of priority:

1. a "wrong value" hint when a value the player entered differs from the puzzle's
   unique solution (the first such cell in row-major order);
2. a "wrong pencil marks" hint when a cell's pencil marks leave out its solution digit;
3. the easiest deduction available from the board's candidates (the player's pencil
   marks where a cell has some, the rules alone elsewhere): one of the techniques of
   `logic.TECHNIQUES`, up to trial and error;
4. a "guess" hint revealing one cell's solution digit when no technique applies;
5. None when the board is complete and correct.

Hints need givens with exactly one solution (mistakes are defined against it):
givens with no solution or several solutions raise `ValueError`. A plain puzzle
string counts as givens only.
"""

from __future__ import annotations

from .batch import run_engine
from .board import Board
from .logic import Hint, LogicSolver, digits_of, geometry, reveal

__all__ = ["Hint", "candidates", "hint"]


def _board_of(puzzle: str | Board) -> Board:
    if isinstance(puzzle, Board):
        return puzzle
    if not isinstance(puzzle, str):
        raise TypeError(f"puzzle must be a str or a Board, not {type(puzzle).__name__}")
    return Board.new(puzzle)


def candidates(puzzle: str | Board) -> list[set[int]]:
    """The pencil marks the rules allow: for each cell, the digits no peer holds yet.

    Filled cells (givens and the player's values) get an empty set. The player's own
    pencil marks on a `Board` are not used here. Raises `ValueError` when two equal
    values share a unit.
    """
    board = _board_of(puzzle)
    values = [int(v) for v in _grid_values(board)]
    solver = LogicSolver(values, geometry(board.size))
    return [set(digits_of(mask)) for mask in solver.cand]


def _grid_values(board: Board) -> list[int]:
    return [g or v for g, v in zip(board.given_values(), board.user_values(), strict=True)]


def _unique_solution(board: Board) -> list[int]:
    givens = board.given_values()
    if board.size != 9:
        # The compiled engine solves 9x9 only so far.
        raise ValueError(f"hints need the engine, which solves 9x9 only so far (not {board.size})")
    results = run_engine(bytes(givens), 1, 2, 1)
    count = results.counts[0]
    if count == 0:
        raise ValueError("the givens have no solution, so no hint can be given")
    if count > 1:
        raise ValueError("the givens have several solutions, so no hint can be given")
    return list(results.solutions)


def _wrong_value(board: Board, solution: list[int]) -> Hint | None:
    geo = geometry(board.size)
    grid = _grid_values(board)
    for cell, value in enumerate(board.user_values()):
        if value and value != solution[cell]:
            clash = next((p for p in geo.peers[cell] if grid[p] == value), None)
            why = (
                f"it clashes with the {value} in {geo.name(clash)}"
                if clash is not None
                else "it contradicts the puzzle's solution"
            )
            return Hint(
                "wrong value",
                0,
                (cell,),
                (value,),
                eliminations=((cell, value),),
                explanation=f"the {value} entered in {geo.name(cell)} is wrong: {why}",
            )
    return None


def hint(puzzle: str | Board) -> Hint | None:
    """The next step for the player (see the module doc), or None when solved.

    Raises `ValueError` when the givens have no solution or several, `TypeError` for
    anything but a puzzle string or a `Board`.
    """
    board = _board_of(puzzle)
    solution = _unique_solution(board)
    mistake = _wrong_value(board, solution)
    if mistake is not None:
        return mistake
    geo = geometry(board.size)
    solver = LogicSolver(_grid_values(board), geo)
    for cell, marks in enumerate(board.pencil):
        if not marks or solver.values[cell]:
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
        allowed = 0
        for digit in marks:
            allowed |= 1 << (digit - 1)
        solver.restrict(cell, allowed)
    if solver.solved:
        return None
    step = solver.next_step()
    return step if step is not None else reveal(solver, solution)
