"""Rate a puzzle's difficulty the way a human solver meets it, plus the engine's search figures.

The technique solver (`_techniques/_logic.pyx`) solves the puzzle with pencil marks,
always using the easiest technique that makes progress. The puzzle's level is the level
of the hardest technique it needed:

=====  =========  ==========================================================
level  name       hardest technique needed
=====  =========  ==========================================================
1      easy       full house, hidden single, naked single
2      medium     pointing, claiming (locked candidates)
3      hard       naked pair, hidden pair, naked triple, hidden triple, X-wing
4      expert     swordfish, XY-wing, XYZ-wing, simple colouring, XY-chain, naked
                  quad, hidden quad, jellyfish, big fish (5 to N/2 lines, N >= 10)
5      extreme    trial and error: assuming one candidate leads, by singles alone, to a
                  contradiction (one level of trial, never nested)
6      nightmare  needs guessing: at some point not even trial and error helps
=====  =========  ==========================================================

When even trial and error is stuck the solver "guesses" (takes the solution digit of an
open cell with the fewest candidates) and goes on, so every puzzle gets counts for every
technique it used, guesses included. The engine's figures are a second, objective scale:
`engine_guesses` (branch trials of the compiled search, counting to two solutions) and
`engine_nodes` (its search-tree size; 1 = propagation alone solved it).

Only puzzles with exactly one solution are rated; others raise `ValueError`. Every
grid size is rated alike: the techniques follow the geometry (units, peers, boxes).

The work is compiled (`_techniques/_logic.pyx`, twin of `_logic_py.py`): the engine proves
the puzzle unique, then the technique solver runs its whole step loop in C with the
GIL released; Python only builds the `Rating` objects at the end.

**Score on the Sudoku Explainer scale.** For 9x9 puzzles `Rating.score` is a float on
SE's scale (1.0 ... 10.0 here; a full grid, with no step to take, scores 0.0),
computed like SE: the puzzle is solved with the easiest step available at each point,
each technique carrying SE's difficulty, chains by their length; the score is the
hardest step's difficulty. The ladder, the chain rules and where it differs from SE are
in `_techniques/_se_py.py` (the pure-Python twin of the compiled `_se.pyx` that does the
work). `score_technique` names the step that set the score. Each puzzle
has a budget of chain-walk steps (`score_budget`); when it runs out, `score_complete`
is False and `score` is the hardest step met so far, a lower bound. `level` and `name`
stay on the technique ladder above (the generator's `level=` targets it through
`level_within`), so the two scales sit side by side: the score refines a level rather
than replacing it. `score_level(score)` maps a score to the level it corresponds to
(up to 2.4 easy, 2.5 medium, 3.0 hard, 3.8 expert, 7.2 extreme, 10.0 nightmare: on the
Sudoku Exchange bank these are where each SE value's puzzles mostly get that level
from the technique solver), e.g. to compare or bucket the two. For other sizes SE
defines no scale and `score` is None.
"""

from __future__ import annotations

from typing import Any, overload

from ._base.checks import DEFAULT_MAX_NODES, check_flag
from ._base.grid import parse_grid
from ._base.records import Rating
from ._base.se_scale import DEFAULT_BUDGET, check_score_budget, score_level
from ._columns.frames import check_output, object_array, ratings_out
from ._columns.inputs import encode_values, read_batch, values_array
from ._techniques.rating import rate_grids

__all__ = ["Rating", "rate", "rate_many", "score_level"]


@overload
def rate_many(
    puzzles: Any,
    *,
    threads: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    output: None = None,
    score: bool = False,
    score_budget: int = DEFAULT_BUDGET,
) -> list[Rating]: ...


@overload
def rate_many(
    puzzles: Any,
    *,
    threads: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    output: str,
    score: bool = False,
    score_budget: int = DEFAULT_BUDGET,
) -> Any: ...


def rate_many(
    puzzles: Any,
    *,
    threads: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    output: str | None = None,
    score: bool = False,
    score_budget: int = DEFAULT_BUDGET,
) -> Any:
    """Rate a batch of puzzles of one size on `threads`; results in input order.

    The engine proves each puzzle unique, then the compiled technique solver rates it,
    both with the GIL released, chunk by chunk on the package's thread pool. The size
    comes from `box` / `alphabet` or the first puzzle, as in `solve_many`. Raises
    `ValueError` (`TypeError` for a non-str) naming the index of a malformed puzzle or
    of one with no solution or several; `SearchLimitExceeded` when a grid other than
    9x9 needs more than `max_nodes` search nodes to be proven unique (its `indices` name
    every such puzzle, its `partial` is the list of the others' ratings, None for those).

    Takes the columns and the numpy value arrays `solve_many` takes; `output` = "arrow"
    gives a struct array of the scalar fields, "like" a column or data frame of the
    input's kind (see `_columns/frames.py`).
    `score=True` also computes the score on the Sudoku Explainer scale (9x9; see the
    module doc), with at most `score_budget` chain-walk steps per puzzle; it costs far
    more than the level on hard puzzles, so it is asked for, not the default (the
    column forms then have the fields `score`, `score_technique`, `score_complete`).
    """
    check_output(output)
    column = None
    values = values_array(puzzles)
    if values is not None:  # an (n, N*N) or (n, N, N) array of values, as solve_many takes
        grids, n, geometry = encode_values(values, "rate_many", box, alphabet)
    else:
        geometry, grids, n, column = read_batch(
            puzzles, "rate_many", box, alphabet, threads=threads
        )
    check_score_budget(score_budget)  # even without `score`: a bad value is a mistake anyway
    budget = score_budget if check_flag(score, "score") else None
    ratings = rate_grids(grids, n, geometry, threads, max_nodes, single=False, score_budget=budget)
    if values is not None and output == "like":  # a numpy array, as solve_many answers
        return object_array(ratings)
    return ratings_out(ratings, column, output, score)


def rate(
    puzzle: str,
    *,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    score: bool = False,
    score_budget: int = DEFAULT_BUDGET,
) -> Rating:
    """Rate one puzzle of any size (any notation `parse` accepts); see the module doc.

    `score=True` adds the Sudoku Explainer score (9x9), with at most `score_budget`
    chain-walk steps. Raises `ValueError` for a malformed puzzle or one without exactly
    one solution.
    """
    geometry, values = parse_grid(puzzle, box=box, alphabet=alphabet)
    check_score_budget(score_budget)  # even without `score`: a bad value is a mistake anyway
    budget = score_budget if check_flag(score, "score") else None
    return rate_grids(values, 1, geometry, 1, max_nodes, single=True, score_budget=budget)[0]
