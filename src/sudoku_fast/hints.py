"""Hints for a player: the next logical step, or the mistake on the board; pencil marks.

`hint(board)` looks at a puzzle string or a `Board` (givens, the player's values and
pencil marks) of any geometry and returns, in this order of priority:

1. a "wrong value" hint when a value the player entered differs from the puzzle's
   unique solution (the first such cell in row-major order);
2. a "wrong pencil marks" hint when a cell's pencil marks leave out its solution digit;
3. the easiest deduction available from the board's candidates (the player's pencil
   marks where a cell has some, the rules alone elsewhere): one of the techniques of
   the ladder of `_base/levels.py`, up to trial and error; or, with ``scale="se"``
   (9x9), the step of the Sudoku Explainer ladder that ``rate(p, score=True)`` takes
   from those candidates, named as `Rating.score_technique` names it;
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
from collections.abc import Mapping
from functools import lru_cache
from typing import Any, Literal, TypeAlias

from ._base.checks import DEFAULT_MAX_NODES, node_budget
from ._base.errors import SearchLimitExceeded
from ._base.grid import Geometry
from ._base.records import Hint
from ._base.rules import Rules, as_rules
from ._base.se_scale import DEFAULT_BUDGET
from ._engine.run import run_engine
from ._techniques.rules_geometry import rules_geometry
from ._techniques.solver import next_step, se_next_step
from ._techniques.steps import candidate_masks, digits_of
from ._variants.encode import check_rules
from ._variants.run import box_for, run_rules
from .board import Board, as_board

__all__ = ["Hint", "candidates", "hint"]

# What `rules=` takes (as in `solve`): a Rules, its JSON form or preset names.
RulesLike: TypeAlias = "Rules | Mapping[str, Any] | str"


def _board_and_geometry(
    puzzle: str | Board, box: tuple[int, int] | None, alphabet: str | None, rules: Rules | None
) -> tuple[Board, Geometry]:
    """The board, and its geometry under `rules` (the board's own without rules). A
    Board carries its own rules: `rules` may repeat them, or give rules to a board
    that has none; other rules are refused."""
    if isinstance(puzzle, Board) and puzzle.rules is not None:
        if rules is not None and rules != puzzle.rules:
            raise ValueError("the board has rules of its own; rules= may only repeat them")
        rules = puzzle.rules
    if rules is None:
        board = as_board(puzzle, box, alphabet)
        return board, board.geometry
    if isinstance(puzzle, str):
        box = box_for(rules, box, alphabet)  # type: ignore[assignment]  # a box or None
    board = as_board(puzzle, box, alphabet)
    geometry = board.geometry
    check_rules(rules, geometry.size, (geometry.box_rows, geometry.box_cols))
    return board, rules_geometry(geometry, rules)


def candidates(
    puzzle: str | Board,
    *,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    rules: RulesLike | None = None,
) -> list[set[int]]:
    """The pencil marks the rules allow: for each cell, the values no peer holds yet.

    The player's own pencil marks on a `Board` are not used here.

    Parameters
    ----------
    puzzle : str or Board
        A board in progress (givens and values count), or a puzzle string of any size
        `parse` accepts.
    box, alphabet : optional
        Fix the geometry of a puzzle string, as in `parse`.
    rules : Rules, JSON mapping or text, or preset names, optional
        Variant rules, as in `solve`: the values of every peer under them (diagonals,
        regions, knight or king moves, cage mates) are left out, and under
        non-consecutive the values one off a neighbour's. A `Board` with rules
        (`Board.rules`) is read under its own.

    Returns
    -------
    list of set of int
        One set of values (1..N) per cell, in row-major order; filled cells get an
        empty set.

    Raises
    ------
    ValueError
        Two equal values share a unit, or the puzzle is malformed.
    TypeError
        `puzzle` is neither a str nor a `Board`.

    Examples
    --------
    >>> import sudoku_fast as sf
    >>> marks = sf.candidates("1.3..4.........2")  # 4x4
    >>> marks[0], marks[1]
    (set(), {2})
    >>> sf.candidates("1" + "." * 15, rules="x")[15]  # r4c4 shares a diagonal with r1c1
    {2, 3, 4}
    """
    board, geometry = _board_and_geometry(puzzle, box, alphabet, _read_rules(rules))
    masks = candidate_masks(board.grid_values(), geometry)
    return [set(digits_of(mask)) for mask in masks]


# Hints are asked for again and again on the same givens while a board is played, so
# the engine's answer is kept for the last few puzzles.
def _read_rules(rules: object) -> Rules | None:
    return None if rules is None else as_rules(rules)


@lru_cache(maxsize=16)
def _solution_of(
    givens: bytes, geometry: Geometry, max_nodes: int, rules: Rules | None = None
) -> tuple[int, ...]:
    if rules is None:
        results = run_engine(givens, 1, 2, 1, geometry=geometry, max_nodes=max_nodes)
    else:
        results = run_rules(givens, 1, [rules], 2, 1, geometry=geometry, max_nodes=max_nodes)
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


def _wrong_value(board: Board, solution: tuple[int, ...], geo: Geometry) -> Hint | None:
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
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    scale: Literal["levels", "se"] = "levels",
    rules: RulesLike | None = None,
) -> Hint | None:
    """The next step for the player (see the module doc), or None when solved.

    In this order: a "wrong value" hint when a value the player entered differs from the
    unique solution, a "wrong pencil marks" hint when a cell's marks leave out its
    solution digit, the easiest deduction, a "guess" revealing one cell when no
    technique applies, or None when the board is complete and correct. With
    ``scale="se"`` (9x9 only) the deduction is the step the Sudoku Explainer rater behind
    ``rate(p, score=True)`` takes from the board, named as `Rating.score_technique` names
    it, with the level its difficulty maps to (`score_level`), or "beyond" (a solution
    digit revealed) where none of that ladder applies.

    Parameters
    ----------
    puzzle : str or Board
        A board in progress, or a puzzle string of any size `parse` accepts (its clues
        are the givens).
    box, alphabet : optional
        Fix the geometry of a puzzle string, as in `parse` (not with a `Board`).
    max_nodes : int or None, default 1,000,000
        Search-node budget for proving the givens unique on grids other than 9x9.
    scale : {"levels", "se"}, default "levels"
        The technique solver's ladder (levels) or the Sudoku Explainer rater's.
    rules : Rules, JSON mapping or text, or preset names, optional
        Variant rules, as in `solve` (levels scale only). The techniques then work on
        every complete unit of the rules (diagonals, regions, windows, ...), the
        placements take their consequences under anti-knight, anti-king and
        non-consecutive, and fish stay on rows and columns. A `Board` with rules
        (`Board.rules`) is played under its own.

    Returns
    -------
    Hint or None
        The step, with the cells and digits of its pattern, what it places or
        eliminates and a one-line explanation; None when solved.

    Raises
    ------
    ValueError
        The givens have no solution or several, or are malformed; ``scale="se"`` on
        another size than 9x9; an unknown `scale`.
    TypeError
        `puzzle` is neither a str nor a `Board`.
    SearchLimitExceeded
        The givens needed more than `max_nodes` search nodes to prove unique.

    Examples
    --------
    >>> import sudoku_fast as sf
    >>> p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    >>> step = sf.hint(p)
    >>> step.technique
    'hidden single'
    >>> board = sf.Board.new(p).apply(step)  # the placement becomes a value
    >>> sf.hint(sf.Board.new(sf.solve(p))) is None  # nothing left to do
    True
    >>> x = "..3....243......"  # a 4x4 Sudoku X
    >>> sf.hint(x, rules="x").explanation
    '3 has only one place left in box 1: r2c1'
    """
    budget = node_budget(max_nodes)  # checked before anything else, on every call
    if scale not in ("levels", "se"):
        raise ValueError(f"scale must be 'levels' or 'se', not {scale!r}")
    variant = _read_rules(rules)
    if isinstance(puzzle, Board) and puzzle.rules is not None and variant is None:
        variant = puzzle.rules
    if scale == "se" and variant is not None:
        raise ValueError(
            "scale='se' cannot be combined with rules=: the Sudoku Explainer scale is "
            "calibrated on classic puzzles"
        )
    board, geo = _board_and_geometry(puzzle, box, alphabet, variant)
    if scale == "se" and board.geometry.size != 9:
        raise ValueError(f"the SE scale is for 9x9 grids, not {board.geometry.describe()}")
    solution = _solution_of(bytes(board.given_values()), board.geometry, budget, variant)
    mistake = _wrong_value(board, solution, geo)
    if mistake is not None:
        return mistake
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
    if scale == "se":
        return se_next_step(geo, values, allowed, solution, DEFAULT_BUDGET)
    return next_step(geo, values, allowed, solution)
