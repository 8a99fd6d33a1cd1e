"""Rate a puzzle's difficulty the way a human solver meets it, plus the engine's search figures.

The logical solver of `logic.py` solves the puzzle with pencil marks, always using the
easiest technique that makes progress. The puzzle's level is the level of the hardest
technique it needed:

=====  =========  ==========================================================
level  name       hardest technique needed
=====  =========  ==========================================================
1      easy       full house, hidden single, naked single
2      medium     pointing, claiming (locked candidates)
3      hard       naked pair, hidden pair, naked triple, hidden triple, X-wing
4      expert     swordfish, XY-wing, XYZ-wing, simple colouring, XY-chain, naked
                  quad, hidden quad, jellyfish
5      extreme    trial and error: assuming one candidate leads, by singles alone, to a
                  contradiction (one level of trial, never nested)
6      nightmare  needs guessing: at some point not even trial and error helps
=====  =========  ==========================================================

When even trial and error is stuck the solver "guesses" (takes the solution digit of an
open cell with the fewest candidates) and goes on, so every puzzle gets counts for every
technique it used, guesses included. The engine's figures are a second, objective scale:
`engine_guesses` (branch trials of the compiled search, counting to two solutions) and
`engine_nodes` (its search-tree size; 1 = propagation alone solved it).

Only puzzles with exactly one solution are rated; others raise `ValueError`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from .batch import encode_puzzles, run_engine
from .grid import CELLS, Geometry, parse_values
from .logic import (
    GUESS,
    LEVEL_NAMES,
    TECHNIQUE_LEVEL,
    TECHNIQUES,
    Hint,
    LogicSolver,
    geometry,
    reveal,
)

_ORDER = {t.name: i for i, t in enumerate(TECHNIQUES)} | {GUESS: len(TECHNIQUES)}


@dataclass(frozen=True)
class Rating:
    """The difficulty of one puzzle.

    `level` (1-5) and `name` ("easy" ... "extreme") follow from `hardest`, the hardest
    technique the logical solver needed ("guess" when it got stuck, "none" for a grid
    that is already full); `counts` says how often each technique was used (placements
    and elimination steps, guesses included); `clues` is the number of givens.
    `engine_guesses` and `engine_nodes` are the compiled engine's search figures for
    proving the solution unique.
    """

    level: int
    name: str
    hardest: str
    counts: Mapping[str, int] = field(default_factory=dict, hash=False)
    clues: int = 0
    engine_guesses: int = 0
    engine_nodes: int = 0


def logical_solve(
    values: list[int], solution: list[int], geo: Geometry | None = None
) -> list[Hint]:
    """Every step the logical solver takes from `values` to `solution`, guesses included."""
    solver = LogicSolver(values, geo)
    steps: list[Hint] = []
    while not solver.solved:
        step = solver.next_step()
        if step is None:
            step = reveal(solver, solution)
        solver.apply(step)
        steps.append(step)
    return steps


def level_within(values: list[int], max_level: int, geo: Geometry | None = None) -> int:
    """The puzzle's level if it is at most `max_level`, else `max_level + 1`.

    Needs no solution: it stops as soon as the techniques up to `max_level` are stuck.
    Used by the generator to test a difficulty target cheaply.
    """
    solver = LogicSolver(values, geo)
    level = 1
    while True:
        solver.fill_singles()
        if solver.solved:
            return level
        step = solver.next_step(max_level, min_level=2)
        if step is None:
            return max_level + 1
        level = max(level, step.level)
        solver.apply(step)


def rating_from_steps(
    steps: Iterable[Hint], clues: int, engine_guesses: int = 0, engine_nodes: int = 0
) -> Rating:
    """Summarise a logical solution path as a `Rating`."""
    counts: dict[str, int] = {}
    for step in steps:
        counts[step.technique] = counts.get(step.technique, 0) + 1
    hardest = max(counts, key=lambda t: (TECHNIQUE_LEVEL[t], _ORDER[t]), default="none")
    level = TECHNIQUE_LEVEL.get(hardest, 1)
    return Rating(
        level=level,
        name=LEVEL_NAMES[level],
        hardest=hardest,
        counts=counts,
        clues=clues,
        engine_guesses=engine_guesses,
        engine_nodes=engine_nodes,
    )


def rate_many(puzzles: Iterable[str], threads: int | None = None) -> list[Rating]:
    """Rate a batch of puzzles (the engine part runs on `threads`); input order kept.

    Raises `ValueError` naming the index of a malformed puzzle or of one that has no
    solution or several.
    """
    items = list(puzzles)
    grids = encode_puzzles(items)
    # 9x9 engine: the only size the compiled core solves so far.
    results = run_engine(grids, len(items), 2, threads)
    geo = geometry(9)
    ratings = []
    for i in range(len(items)):
        count = results.counts[i]
        if count != 1:
            what = "no solution" if count == 0 else "several solutions"
            raise ValueError(f"puzzle {i}: has {what}; only unique puzzles can be rated")
        values = list(grids[i * CELLS : (i + 1) * CELLS])
        solution = list(results.solutions[i * CELLS : (i + 1) * CELLS])
        steps = logical_solve(values, solution, geo)
        clues = sum(1 for v in values if v)
        ratings.append(rating_from_steps(steps, clues, results.guesses[i], results.nodes[i]))
    return ratings


def rate(puzzle: str) -> Rating:
    """Rate one puzzle (any notation `parse` accepts); see the module doc for the levels.

    Raises `ValueError` for a malformed puzzle or one without exactly one solution.
    """
    values = parse_values(puzzle)
    grid = bytes(values)
    results = run_engine(grid, 1, 2, 1)
    count = results.counts[0]
    if count != 1:
        what = "no solution" if count == 0 else "several solutions"
        raise ValueError(f"the puzzle has {what}; only unique puzzles can be rated")
    steps = logical_solve(values, list(results.solutions), geometry(9))
    clues = sum(1 for v in values if v)
    return rating_from_steps(steps, clues, results.guesses[0], results.nodes[0])
