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

The work is compiled (`_logic.pyx`, the fast twin of `logic.py`): the engine proves
the puzzle unique, then the technique solver runs its whole step loop in C with the
GIL released; Python only builds the `Rating` objects at the end.

**Score on the Sudoku Explainer scale.** For 9x9 puzzles `Rating.score` is a float on
SE's scale (1.0 ... 10.0 here; a full grid, with no step to take, scores 0.0),
computed like SE: the puzzle is solved with the easiest step available at each point,
each technique carrying SE's difficulty, chains by their length; the score is the
hardest step's difficulty. The ladder, the chain rules and
where it differs from SE are in `se.py` (the pure-Python twin of the compiled `_se.pyx`
that does the work). `score_technique` names the step that set the score. Each puzzle
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

from array import array
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from itertools import compress
from typing import Any, overload

from . import _logic, _se, se
from .batch import (
    DEFAULT_MAX_NODES,
    EngineResults,
    check_budget,
    encode_input,
    encode_values,
    node_budget,
    numpy_values,
    resolve_threads,
    run_chunks,
    run_engine,
    shared_buffers,
)
from .frames import check_output, object_array, ratings_out
from .grid import Geometry, check_flag, parse_grid
from .logic import (
    GUESS,
    LEVEL_NAMES,
    TECHNIQUE_LEVEL,
    TECHNIQUES,
    Hint,
    geometry_of,
    hint_from_record,
)

# Technique names by the compiled solver's index: TECHNIQUES in order, then GUESS.
_NAMES = (*(t.name for t in TECHNIQUES), GUESS)
_RANK = {name: (TECHNIQUE_LEVEL[name], i) for i, name in enumerate(_NAMES)}
# Puzzles rated per chunk at least: one 9x9 rating takes microseconds to milliseconds.
_MIN_CHUNK = 4


@dataclass(frozen=True)
class Rating:
    """The difficulty of one puzzle.

    `level` (1-6) and `name` ("easy" ... "nightmare") follow from `hardest`, the
    hardest technique the logical solver needed ("guess" when it got stuck, level 6;
    "none" for a grid that is already full); `counts` says how often each technique
    was used (placements and elimination steps, guesses included); `clues` is the
    number of givens. `engine_guesses` and `engine_nodes` are the compiled engine's
    search figures for proving the solution unique. `score` is the difficulty on the
    Sudoku Explainer scale (9x9 only, else None; 0.0 with `score_technique` "none" for
    a full grid, which takes no step), `score_technique` the SE-ladder step that set it
    and `score_complete` False when the score budget ran out (the score is then a lower
    bound); see the module doc.
    """

    level: int
    name: str
    hardest: str
    counts: Mapping[str, int] = field(default_factory=dict, hash=False)
    clues: int = 0
    engine_guesses: int = 0
    engine_nodes: int = 0
    score: float | None = None
    score_technique: str = ""
    score_complete: bool = True


def logical_solve(
    values: list[int], solution: list[int], geo: Geometry | None = None
) -> list[Hint]:
    """Every step the compiled logical solver takes from `values` to `solution`.

    The same steps as `logic.logical_solve`, its pure-Python twin.
    """
    geo = geo if geo is not None else geometry_of(len(values))
    tables = _logic.tables_for(geo)
    records = _logic.solve_steps(tables, bytes(values), bytes(solution))
    return [hint_from_record(geo, record) for record in records]


def level_within(values: list[int] | bytes, max_level: int, geo: Geometry | None = None) -> int:
    """The puzzle's level if it is at most `max_level`, else `max_level + 1` (compiled).

    Needs no solution: it stops as soon as the techniques up to `max_level` are stuck.
    Used by the generator to test a difficulty target cheaply. The same answer as
    `logic.level_within`, its pure-Python twin.
    """
    geo = geo if geo is not None else geometry_of(len(values))
    levels = array("i", [0])
    _logic.level_within_range(_logic.tables_for(geo), bytes(values), max_level, levels, 0, 1)
    if levels[0] == _logic.CONTRADICTION:
        raise ValueError("two equal values share a unit")
    if levels[0] < 0:
        raise MemoryError("no memory for the technique solver")
    return levels[0]


def rating_from_steps(
    steps: Iterable[Hint], clues: int, engine_guesses: int = 0, engine_nodes: int = 0
) -> Rating:
    """Summarise a logical solution path as a `Rating`."""
    counts: dict[str, int] = {}
    for step in steps:
        counts[step.technique] = counts.get(step.technique, 0) + 1
    return _rating(counts, clues, engine_guesses, engine_nodes)


def _rating(counts: dict[str, int], clues: int, engine_guesses: int, engine_nodes: int) -> Rating:
    hardest = max(counts, key=_RANK.__getitem__, default="none")
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


def _require_unique(results: EngineResults, single: bool) -> list[int]:
    """Raise ValueError for the first puzzle with no solution or several; return the
    puzzles that ran out of search nodes (the caller raises for them)."""
    for i, count in enumerate(results.counts):
        if count == 0 or count > 1:
            where = "the puzzle" if single else f"puzzle {i}:"
            what = "no solution" if count == 0 else "several solutions"
            raise ValueError(f"{where} has {what}; only unique puzzles can be rated")
    return [i for i, count in enumerate(results.counts) if count < 0]


# What `_logic.build_ratings` needs to name techniques and levels, by technique index.
_LEVELS = tuple(TECHNIQUE_LEVEL[name] for name in _NAMES)
_LEVEL_NAMES = tuple(LEVEL_NAMES.get(level, "") for level in range(max(LEVEL_NAMES) + 1))


def rating_objects(
    out: list[Rating | None],
    counts: array[int],
    summary: array[int],
    guesses: array[int],
    nodes: array[int],
    start: int,
    stop: int,
    scores: array[int] | None = None,
) -> list[int]:
    """Build the `Rating` objects of puzzles start..stop-1 from the raters' buffers.

    The plain-Python twin of `_logic.build_ratings` (same arguments, same objects,
    same failures returned); the batch path uses the compiled one, which spends far
    less time holding the GIL per puzzle, and the tests hold them to each other.
    """
    slots, se_slots = _logic.SLOTS, _se.SLOTS
    failed: list[int] = []
    for i in range(start, stop):
        row = counts[i * slots : (i + 1) * slots]
        if row[0] < 0:
            failed.append(i)
            continue
        used = dict(compress(zip(_NAMES, row, strict=True), row))
        hardest_index, clues = summary[2 * i], summary[2 * i + 1]
        hardest = _NAMES[hardest_index] if hardest_index >= 0 else "none"
        level = TECHNIQUE_LEVEL.get(hardest, 1)
        score: float | None = None
        technique, complete = "", True
        if scores is not None:
            tenths, tech, _, status = scores[i * se_slots : (i + 1) * se_slots]
            if status < 0:
                failed.append(i)
                continue
            score = tenths / 10
            technique = se.TECHNIQUES[tech] if tech >= 0 else "none"
            complete = status == se.SE_OK
        out[i] = Rating(
            level,
            LEVEL_NAMES[level],
            hardest,
            used,
            clues,
            guesses[i],
            nodes[i],
            score,
            technique,
            complete,
        )
    return failed


def _rate_grids(
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
    check_budget(results, partial, max_nodes, single)  # raises: some ran out of nodes
    raise AssertionError("unreachable: undecided puzzles raise above")


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
            _se.se_range(tables, grids_v, solutions_v, scores_v, start, stop, budget)
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
                _NAMES,
                _LEVELS,
                _LEVEL_NAMES,
                start,
                stop,
                scores_v,
                se.TECHNIQUES,
                _se.SLOTS,
                se.SE_OK,
            )
        )

    run_chunks(n, workers, _MIN_CHUNK, rate_chunk)
    if failed:
        i = min(failed)
        raise ValueError(f"puzzle {i}: could not be rated (status {counts[i * _logic.SLOTS]})")
    return ratings  # type: ignore[return-value]  # every slot is filled when none failed


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
    score_budget: int = se.DEFAULT_BUDGET,
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
    score_budget: int = se.DEFAULT_BUDGET,
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
    score_budget: int = se.DEFAULT_BUDGET,
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
    input's kind (see `frames`).
    `score=True` also computes the score on the Sudoku Explainer scale (9x9; see the
    module doc), with at most `score_budget` chain-walk steps per puzzle; it costs far
    more than the level on hard puzzles, so it is asked for, not the default (the
    column forms then have the fields `score`, `score_technique`, `score_complete`).
    """
    check_output(output)
    column = None
    values = numpy_values(puzzles)
    if values is not None:  # an (n, N*N) or (n, N, N) array of values, as solve_many takes
        grids, n, geometry = encode_values(values, "rate_many", box, alphabet)
    else:
        geometry, grids, n, column = encode_input(
            puzzles, "rate_many", box, alphabet, threads=threads
        )
    se.check_budget(score_budget)  # even without `score`: a bad value is a mistake anyway
    budget = score_budget if check_flag(score, "score") else None
    ratings = _rate_grids(grids, n, geometry, threads, max_nodes, single=False, score_budget=budget)
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
    score_budget: int = se.DEFAULT_BUDGET,
) -> Rating:
    """Rate one puzzle of any size (any notation `parse` accepts); see the module doc.

    `score=True` adds the Sudoku Explainer score (9x9), with at most `score_budget`
    chain-walk steps. Raises `ValueError` for a malformed puzzle or one without exactly
    one solution.
    """
    geometry, values = parse_grid(puzzle, box=box, alphabet=alphabet)
    se.check_budget(score_budget)  # even without `score`: a bad value is a mistake anyway
    budget = score_budget if check_flag(score, "score") else None
    return _rate_grids(values, 1, geometry, 1, max_nodes, single=True, score_budget=budget)[0]
