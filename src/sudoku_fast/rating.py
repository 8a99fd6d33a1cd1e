"""Rate a puzzle's difficulty the way a human solver meets it, plus the engine's search figures.

The technique solver (`_techniques/_logic.pyx`) solves the puzzle with pencil marks,
always using the easiest technique that makes progress. Its level
(`Rating.technique_level`, and `level` when no SE score is asked) is the level of the
hardest technique it needed:

| level | name      | hardest technique needed                                      |
|-------|-----------|---------------------------------------------------------------|
| 1     | easy      | full house, hidden single, naked single                       |
| 2     | medium    | pointing, claiming (locked candidates)                        |
| 3     | hard      | naked pair, hidden pair, naked triple, hidden triple, X-wing  |
| 4     | expert    | swordfish, XY-wing, XYZ-wing, simple colouring, XY-chain,     |
|       |           | naked quad, hidden quad, jellyfish, big fish (N >= 10)        |
| 5     | extreme   | trial and error: one candidate leads, by singles alone, to a  |
|       |           | contradiction (one level of trial, never nested)              |
| 6     | nightmare | needs guessing: not even trial and error helps                |

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
SE's scale (1.0 and up; a full grid, with no step to take, scores 0.0),
computed like SE: the puzzle is solved with the easiest step available at each point,
each technique carrying SE's difficulty, chains by their length; the score is the
hardest step's difficulty. The ladder, the chain rules and where it differs from SE are
in `_techniques/_se_py.py` (the pure-Python twin of the compiled `_se.pyx` that does the
work). `score_technique` names the step that set the score. The scale is covered up
to SE's fourth level of nested dynamic chains: chains nested on the basic rules
("dynamic forcing chain (+)", 9.0 and up), on static forcing chains and cycles
("dynamic forcing chain (+ forcing chains)", 9.5 and up), on static cell and region
forcing chains ("dynamic forcing chain (+ multiple forcing chains)", 10.0 and up) and
on SE's plain dynamic forcing chains ("dynamic forcing chain (+ dynamic forcing
chains)", 10.5 and up; the forum's hardest lists score up to about 11.9 there). A
puzzle that needs a step past it (SE's chains nested on nested chains, 11.0 and up)
gets `score_complete` False and a score of at least 11.0 that is a lower bound
("beyond" when that step set it), never a capped score called exact. Each puzzle
has a budget of chain-walk steps (`score_budget`); when it runs out, `score_complete`
is also False and `score` is the hardest step met so far, a lower bound.

**One ladder of levels.** The levels are bands of the SE score, each a kind of step a
solver meets (`score_level`; `se_scale.LEVEL_BANDS` holds the thresholds):

| level | name      | SE score   | the hardest step                                          |
|-------|-----------|------------|-----------------------------------------------------------|
| 1     | easy      | up to 2.4  | singles and the direct techniques (no pencil marks)       |
| 2     | medium    | 2.5 to 2.9 | locked candidates (pointing, claiming)                    |
| 3     | hard      | 3.0 to 3.9 | naked / hidden pairs, naked triples, X-wing, swordfish    |
| 4     | expert    | 4.0 to 5.9 | hidden triples, skyscrapers and kites, wings, unique      |
|       |           |            | rectangles and loops, quads, jellyfish, BUG               |
| 5     | extreme   | 6.0 to 8.9 | aligned exclusions, cycles, forcing and dynamic chains,   |
|       |           |            | Nishio                                                    |
| 6     | nightmare | 9.0 and up | nested dynamic chains and beyond                          |

With a score (9x9, `score=True`) `level` and `name` are its band (a lower-bound score
gives a lower-bound level), and `generate(difficulty=...)` makes 9x9 puzzles inside
their level's band. Without one, `level` and `name` are the technique solver's level
(`Rating.technique_level`, always there), a cheap estimate of the same ladder: the
score costs about nine times as much on the Sudoku Exchange bank's mix, so it is
asked for. Generated
puzzles get the same level either way (the generator aims at the technique level and
keeps the puzzles whose score lies in the band). For other sizes SE
defines no scale: `score` is None and the level is the technique solver's.

**Variant rules.** With `rules=` (as `solve` takes them) the variant engine proves the
puzzle unique and the technique solver works on the rules' units and peers: singles
and subsets over every complete unit (diagonals, jigsaw regions, windows, ...), locked
candidates over every two units sharing two cells or more, fish on rows and columns,
wings and chains through every peer (knight and king moves too); killer cages and
thermometers add cage combination, thermometer (level 2) and the 45 rule (level 3).
The levels keep their meaning. This runs on the technique solver's pure-Python twin,
so it is far slower than a classic rating; the SE score is not given (`score=True`
with rules raises `ValueError`: the scale is calibrated on classic puzzles). See
docs/variants.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, TypeAlias, cast, overload

from ._base.checks import DEFAULT_MAX_NODES, check_flag, node_budget
from ._base.columns import ItemErrors, check_item_errors
from ._base.grid import parse_grid
from ._base.options import Output, ProgressOption
from ._base.records import Rating
from ._base.rules import Rules, as_rules
from ._base.se_scale import DEFAULT_BUDGET, check_score_budget, score_level
from ._columns.blocks import in_blocks, per_block, resolve_progress
from ._columns.forgiving import forgive
from ._columns.frames import check_output, object_array, ratings_out
from ._columns.inputs import encode_values, read_batch, values_array
from ._techniques.rating import rate_grids, rate_rules_grids
from ._variants.run import (
    box_for,
    checked_count,
    per_puzzle,
    read_rules,
    rules_at,
    run_rules,
    screen_box,
)

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
    import pyarrow as pa

__all__ = ["Rating", "rate", "rate_many", "score_level"]

# What `rules=` takes (as in `solve`): a Rules, its JSON form or preset names.
RulesLike: TypeAlias = "Rules | Mapping[str, Any] | str"

_NO_SCORE_WITH_RULES = (
    "score=True cannot be combined with rules=: the Sudoku Explainer scale is "
    "calibrated on classic puzzles (the level and technique counts are given)"
)


@overload
def rate_many(
    puzzles: npt.NDArray[Any],
    *,
    threads: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    output: Literal["like"],
    score: bool = False,
    score_budget: int = DEFAULT_BUDGET,
    on_error: ItemErrors = "raise",
    rules: RulesLike | Sequence[RulesLike | None] | None = None,
    progress: ProgressOption = None,
) -> npt.NDArray[np.object_]: ...


@overload
def rate_many(
    puzzles: Any,
    *,
    threads: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    output: Literal["list"] | None = None,
    score: bool = False,
    score_budget: int = DEFAULT_BUDGET,
    on_error: Literal["raise"] = "raise",
    rules: RulesLike | Sequence[RulesLike | None] | None = None,
    progress: ProgressOption = None,
) -> list[Rating]: ...


@overload
def rate_many(
    puzzles: Any,
    *,
    threads: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    output: Literal["list"] | None = None,
    score: bool = False,
    score_budget: int = DEFAULT_BUDGET,
    on_error: Literal["none", "warn"],
    rules: RulesLike | Sequence[RulesLike | None] | None = None,
    progress: ProgressOption = None,
) -> list[Rating | None]: ...


@overload
def rate_many(
    puzzles: Any,
    *,
    threads: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    output: Literal["arrow"],
    score: bool = False,
    score_budget: int = DEFAULT_BUDGET,
    on_error: ItemErrors = "raise",
    rules: RulesLike | Sequence[RulesLike | None] | None = None,
    progress: ProgressOption = None,
) -> pa.StructArray | pa.ChunkedArray: ...


@overload
def rate_many(
    puzzles: Any,
    *,
    threads: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    output: Literal["like"],
    score: bool = False,
    score_budget: int = DEFAULT_BUDGET,
    on_error: ItemErrors = "raise",
    rules: RulesLike | Sequence[RulesLike | None] | None = None,
    progress: ProgressOption = None,
) -> Any: ...


def rate_many(
    puzzles: Any,
    *,
    threads: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    output: Output | None = None,
    score: bool = False,
    score_budget: int = DEFAULT_BUDGET,
    on_error: ItemErrors = "raise",
    rules: RulesLike | Sequence[RulesLike | None] | None = None,
    progress: ProgressOption = None,
) -> Any:
    """Rate a batch of puzzles of one size on `threads`; results in input order.

    The engine proves each puzzle unique, then the compiled technique solver rates it,
    both with the GIL released, chunk by chunk on the package's thread pool. The size
    comes from `box` / `alphabet` or the first puzzle, as in `solve_many`.

    Parameters
    ----------
    puzzles : iterable of str, column or numpy array
        The inputs `solve_many` takes.
    threads, box, alphabet, max_nodes
        As in `solve_many`.
    output : {None, "list", "arrow", "like"}, default None
        None and "list": a list of `Rating`; "arrow": a struct array of the scalar
        fields; "like": a data frame (pandas, polars) or object array (numpy) of the
        input's kind.
    score : bool, default False
        Also compute the score on the Sudoku Explainer scale (9x9; see the module doc).
        It costs far more than the level on hard puzzles, so it is asked for; the column
        forms then have the fields `score`, `score_technique`, `score_complete`.
    score_budget : int
        At most this many chain-walk steps per puzzle for the score.
    on_error : {"raise", "none", "warn"}, default "raise"
        As in `solve_many` (a missing rating is None in a list).
    progress : callable, True or None, default None
        As in `solve_many`.
    rules : Rules, JSON mapping or text, preset names, or a sequence of them, optional
        Variant rules, one set for every puzzle or one per puzzle (None: classic), as in
        `solve_many`. The technique solver then works on every complete unit of the
        rules, fish on rows and columns, wings through every peer, and killer cages and
        thermometers add their techniques (see docs/variants.md). Not with `score`.

    Returns
    -------
    list of Rating or column
        The ratings in input order, in the form `output` names.

    Raises
    ------
    ValueError
        A malformed puzzle, or one with no solution or several, naming its index;
        malformed rules; `score` with `rules` (the SE scale is calibrated on classic
        puzzles).
    TypeError
        An item that is not a str (or bytes), naming its index.
    SearchLimitExceeded
        A grid other than 9x9 needed more than `max_nodes` search nodes to be proven
        unique; its `indices` name every such puzzle and its `partial` holds the
        others' ratings (None for those).

    Examples
    --------
    >>> import sudoku_fast as sf
    >>> p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    >>> easy = "69...58....2961..........3......6...7...3......8.1..2..1...85...6.453..9........4"
    >>> [r.name for r in sf.rate_many([p, easy], threads=1)]
    ['medium', 'easy']
    >>> [r.hardest for r in sf.rate_many(["..3....243......"], rules="x")]  # 4x4 Sudoku X
    ['hidden single']
    """
    variants = None if rules is None else read_rules(rules)
    if progress is not None:
        report = resolve_progress(progress, "rate_many")
        if report is not None:
            rules_of = per_block(checked_count(variants, puzzles))
            return in_blocks(
                lambda block: cast(Any, rate_many)(
                    block, threads=threads, box=box, alphabet=alphabet, max_nodes=max_nodes,
                    output=output, score=score, score_budget=score_budget, on_error=on_error,
                    rules=rules_of(block),
                ),
                puzzles, report, "rate_many",
                fixed_geometry=box is not None or alphabet is not None or variants is not None,
            )  # fmt: skip
    if check_item_errors(on_error) != "raise":
        checked_count(variants, puzzles)  # a mismatch is the call's error, not an item's
        return forgive(
            lambda batch, rows: cast(Any, rate_many)(
                batch, threads=threads, box=box, alphabet=alphabet, max_nodes=max_nodes,
                output=output, score=score, score_budget=score_budget,
                rules=rules_at(variants, rows),
            ),
            puzzles, on_error, "rate_many", box=screen_box(variants, box, alphabet),
            alphabet=alphabet,
        )  # fmt: skip
    check_output(output)
    if variants is not None:
        return _rate_many_rules(puzzles, variants, threads, box, alphabet, max_nodes, output,
                                score, score_budget)  # fmt: skip
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
    rules: RulesLike | None = None,
) -> Rating:
    """Rate one puzzle of any size (any notation `parse` accepts); see the module doc.

    Parameters
    ----------
    puzzle : str
        The puzzle; it must have exactly one solution.
    box, alphabet, max_nodes
        As in `solve`.
    score : bool, default False
        Add the Sudoku Explainer score (9x9).
    score_budget : int
        At most this many chain-walk steps for the score.
    rules : Rules, JSON mapping or text, or preset names, optional
        Variant rules, as in `solve` (see `rate_many`). Not with `score`.

    Returns
    -------
    Rating
        The level and its name, the hardest technique needed, the count of each
        technique, the engine's search figures, and with `score` the SE score.

    Raises
    ------
    ValueError
        A malformed puzzle, or one without exactly one solution; malformed rules;
        `score` with `rules`.
    TypeError
        `puzzle` is not a str.
    SearchLimitExceeded
        A grid other than 9x9 needed more than `max_nodes` nodes to be proven unique.

    Examples
    --------
    >>> import sudoku_fast as sf
    >>> p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    >>> r = sf.rate(p, score=True)
    >>> r.level, r.name, r.hardest
    (2, 'medium', 'pointing')
    >>> r.score, r.score_technique, r.score_complete
    (2.6, 'pointing', True)
    >>> sf.rate("..3....243......", rules="x").level  # a 4x4 Sudoku X
    1
    """
    variant = None if rules is None else as_rules(rules)
    if variant is not None:
        check_score_budget(score_budget)
        if check_flag(score, "score"):
            raise ValueError(_NO_SCORE_WITH_RULES)
        geometry, values = parse_grid(
            puzzle, box=box_for(variant, box, alphabet), alphabet=alphabet
        )
        nodes = node_budget(max_nodes)
        results = run_rules(values, 1, [variant], 2, 1, geometry=geometry, max_nodes=nodes,
                            single=True)  # fmt: skip
        return rate_rules_grids(values, 1, geometry, [variant], results, max_nodes, True)[0]
    geometry, values = parse_grid(puzzle, box=box, alphabet=alphabet)
    check_score_budget(score_budget)  # even without `score`: a bad value is a mistake anyway
    budget = score_budget if check_flag(score, "score") else None
    return rate_grids(values, 1, geometry, 1, max_nodes, single=True, score_budget=budget)[0]


def _rate_many_rules(
    puzzles: Any,
    rules: Rules | list[Rules | None],
    threads: int | None,
    box: tuple[int, int] | None,
    alphabet: str | None,
    max_nodes: int | None,
    output: Output | None,
    score: bool,
    score_budget: int,
) -> Any:
    """`rate_many` under variant rules: the variant engine proves each puzzle unique, the
    technique solver rates it on the rules' units and peers."""
    check_score_budget(score_budget)
    if check_flag(score, "score"):
        raise ValueError(_NO_SCORE_WITH_RULES)
    box_used: Any = box_for(rules, box, alphabet)
    column = None
    values = values_array(puzzles)
    if values is not None:
        grids, n, geometry = encode_values(values, "rate_many", box_used, alphabet)
    else:
        geometry, grids, n, column = read_batch(
            puzzles, "rate_many", box_used, alphabet, threads=threads
        )
    each = per_puzzle(rules, n)
    budget = node_budget(max_nodes)
    results = run_rules(grids, n, each, 2, threads, geometry=geometry, max_nodes=budget)
    ratings = rate_rules_grids(grids, n, geometry, each, results, max_nodes, False)
    if values is not None and output == "like":
        return object_array(ratings)
    return ratings_out(ratings, column, output, False)
