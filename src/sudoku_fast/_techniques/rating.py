"""The batch rater: the engine proves each puzzle unique, then the compiled technique solver
(and, for a score, the compiled SE rater) rates it, chunk by chunk on threads.

Both raters run without the GIL; the `Rating` objects of a chunk are built by the thread
that rated it (`_logic.build_ratings`), so that this GIL-bound part overlaps the other
threads' compiled work.
"""

from __future__ import annotations

from array import array
from typing import Any

from .._base.checks import node_budget
from .._base.grid import Geometry
from .._base.levels import (
    LEVEL_NAME_BY_LEVEL,
    LEVEL_NAMES,
    SLOT_LEVELS,
    SLOT_NAMES,
    TECHNIQUE_LEVEL,
)
from .._base.records import Rating
from .._base.rules import Rules
from .._base.se_scale import NESTING, SE_OK, score_level
from .._base.se_scale import TECHNIQUES as SE_TECHNIQUES
from .._engine.results import EngineResults
from .._engine.run import raise_if_undecided, run_engine, shared_buffers
from .._parallel.fanout import run_chunks
from .._parallel.threads import resolve_threads
from . import _logic, _logic_py, _se
from .rules_geometry import rules_geometry
from .steps import Contradiction

__all__ = ["level_within_rules", "on_the_se_ladder", "rate_grids", "rate_rules_grids"]

# Puzzles rated per chunk at least: one 9x9 rating takes microseconds to milliseconds.
MIN_CHUNK = 4


def rate_grids(
    grids: Any,
    n: int,
    geometry: Geometry,
    threads: int | None,
    max_nodes: int | None,
    single: bool,
    score_budget: int | None = None,
) -> list[Rating]:
    """Prove each puzzle unique with the engine, then rate it with the technique solver
    (and, for 9x9 when a `score_budget` is given, on the SE scale)."""
    workers = resolve_threads(threads)
    results = run_engine(grids, n, 2, workers, geometry=geometry, max_nodes=node_budget(max_nodes))
    undecided = _require_unique(results, single)
    if not undecided:
        figures = (results.solutions, results.guesses, results.nodes)
        return _rate_solved(grids, n, geometry, workers, figures, score_budget)
    # The others are rated all the same, from the engine's figures gathered for them:
    # they are the exception's `partial`.
    cells = geometry.cells
    grids = memoryview(grids).cast("B")  # a numpy array's slices are not bytes-like
    left_out = set(undecided)
    decided = [i for i in range(n) if i not in left_out]
    rest_grids, rest_solutions = bytearray(len(decided) * cells), bytearray(len(decided) * cells)
    for k, i in enumerate(decided):
        rest_grids[k * cells : (k + 1) * cells] = grids[i * cells : (i + 1) * cells]
        rest_solutions[k * cells : (k + 1) * cells] = results.solutions[i * cells : (i + 1) * cells]
    rest = (
        rest_solutions,
        array("q", [results.guesses[i] for i in decided]),
        array("q", [results.nodes[i] for i in decided]),
    )
    rated = _rate_solved(rest_grids, len(decided), geometry, workers, rest, score_budget)
    partial: list[Rating | None] = [None] * n
    for k, i in enumerate(decided):
        partial[i] = rated[k]
    raise_if_undecided(results, partial, max_nodes, single)  # raises: some ran out of nodes
    raise AssertionError("unreachable: undecided puzzles raise above")


def on_the_se_ladder(ratings: list[Rating | None], start: int, stop: int) -> None:
    """Put the scored ratings start..stop-1 on the one ladder: `level` and `name` become
    the SE band of the score (`score_level`), the technique solver's level staying
    readable as `Rating.technique_level` (from `hardest`). The objects are fresh and not
    yet handed out, so their frozen fields are set in place."""
    for i in range(start, stop):
        rating = ratings[i]
        if rating is None or rating.score is None:
            continue
        level = score_level(rating.score)
        object.__setattr__(rating, "level", level)
        object.__setattr__(rating, "name", LEVEL_NAMES[level])


def _require_unique(results: EngineResults, single: bool) -> list[int]:
    """Raise ValueError for the first puzzle with no solution or several; return the
    puzzles that ran out of search nodes (the caller raises for them)."""
    for i, count in enumerate(results.counts):
        if count == 0 or count > 1:
            where = "the puzzle" if single else f"puzzle {i}:"
            what = "no solution" if count == 0 else "several solutions"
            raise ValueError(f"{where} has {what}; only unique puzzles can be rated")
    return [i for i, count in enumerate(results.counts) if count < 0]


def _rate_solved(
    grids: Any,
    n: int,
    geometry: Geometry,
    workers: int,
    figures: tuple[Any, Any, Any],
    score_budget: int | None,
) -> list[Rating]:
    """Rate n puzzles, each proven unique by the engine (`figures`: their solutions,
    guesses and nodes), with the technique solver and, for 9x9 with a budget, on the SE
    scale."""
    solutions, guesses, nodes = figures
    tables = _logic.tables_for(geometry)
    counts = array("i", bytes(4 * _logic.SLOTS * n))
    summary = array("i", bytes(8 * n))  # per puzzle: hardest technique, clues
    ratings: list[Rating | None] = [None] * n
    failed: list[int] = []
    scored = geometry.size == 9 and score_budget is not None
    budget = score_budget or 0
    scores = array("i", bytes(4 * _se.SLOTS * n)) if scored else None

    views = shared_buffers(workers, grids, solutions, counts, summary, guesses, nodes, scores)
    grids_v, solutions_v, counts_v, summary_v, guesses_v, nodes_v, scores_v = views

    def rate_chunk(start: int, stop: int) -> None:
        _logic.rate_range(tables, grids_v, solutions_v, counts_v, start, stop, summary_v)
        if scores_v is not None:
            _se.se_range(tables, grids_v, solutions_v, scores_v, start, stop, budget, NESTING)
        # The Python objects of this chunk are built by the thread that rated it, so
        # that this GIL-bound part overlaps the other threads' compiled work.
        failed.extend(
            _logic.build_ratings(
                Rating,
                ratings,
                counts_v,
                summary_v,
                guesses_v,
                nodes_v,
                SLOT_NAMES,
                SLOT_LEVELS,
                LEVEL_NAME_BY_LEVEL,
                start,
                stop,
                scores_v,
                SE_TECHNIQUES,
                _se.SLOTS,
                SE_OK,
            )
        )

        if scores_v is not None:
            on_the_se_ladder(ratings, start, stop)

    run_chunks(n, workers, MIN_CHUNK, rate_chunk)
    if failed:
        i = min(failed)
        raise ValueError(f"puzzle {i}: could not be rated (status {counts[i * _logic.SLOTS]})")
    return ratings  # type: ignore[return-value]  # every slot is filled when none failed


def rate_rules_grids(
    grids: Any,
    n: int,
    geometry: Geometry,
    rules: list[Rules | None],
    results: EngineResults,
    max_nodes: int | None,
    single: bool,
) -> list[Rating]:
    """Rate n puzzles of `geometry`, puzzle i under `rules[i]`, each proven unique by the
    variant engine (`results`), with the technique solver's twin on the rules' units,
    peers and crossings (`RulesGeometry`): the compiled solver knows classic units only.

    Raises ValueError for a puzzle with no solution or several, `SearchLimitExceeded`
    when some ran out of search nodes (with the others' ratings as its `partial`).
    """
    undecided = set(_require_unique(results, single))
    cells = geometry.cells
    grids = memoryview(grids).cast("B")
    ratings: list[Rating | None] = [None] * n
    for i in range(n):
        if i in undecided:
            continue
        item = rules[i]
        geo = geometry if item is None else rules_geometry(geometry, item)
        values = list(grids[i * cells : (i + 1) * cells])
        solution = list(results.solutions[i * cells : (i + 1) * cells])
        where = "the puzzle" if single else f"puzzle {i}:"
        try:
            used = _logic_py.technique_counts(values, solution, geo)
        except Contradiction:
            used = None
        if used is None:  # the engine's unique solution always fits: a broken invariant
            raise ValueError(f"{where} could not be rated")
        level = max((TECHNIQUE_LEVEL[name] for name in used), default=1)
        hardest = [name for name in used if TECHNIQUE_LEVEL[name] == level][-1:] or ["none"]
        ratings[i] = Rating(
            level,
            LEVEL_NAME_BY_LEVEL[level],
            hardest[0],
            used,
            sum(1 for v in values if v),
            results.guesses[i],
            results.nodes[i],
            None,
            "",
            True,
        )
    if undecided:
        raise_if_undecided(results, ratings, max_nodes, single)  # raises
    return ratings  # type: ignore[return-value]  # every slot is filled when none is undecided


def level_within_rules(values: Any, geometry: Geometry, rules: Rules, max_level: int) -> int:
    """The level under `rules` of the puzzle `values` (N*N values, 0 = empty) when it is
    at most `max_level`, else `max_level + 1`, by the technique solver's twin on the
    rules' geometry; it needs no solution and stops once the techniques up to
    `max_level` are stuck (a quick screen before the full rating, as the classic
    generator's `level_within`).

    Raises `Contradiction` when two peers hold the same value.
    """
    geo = rules_geometry(geometry, rules)
    return _logic_py.level_within(list(memoryview(values).cast("B")), max_level, geo)
