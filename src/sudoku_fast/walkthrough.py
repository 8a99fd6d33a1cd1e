"""The solving path: every step `rate` takes, in order, as a walkthrough a person can follow.

`solve_path(puzzle)` returns a `SolvePath`, a sequence of `SolveStep`. It is not a
second solver: it runs the rater that `rate` runs and keeps the record that rater
makes of each step.

* On 9x9 grids (``scale="se"``, the default there) the steps are those of the Sudoku
  Explainer rater behind ``rate(p, score=True)`` (`_se.pyx`, twin `_se_py.py`):
  easiest step first, each with its SE difficulty, so the hardest step's `rating` is
  the puzzle's `Rating.score`.
* On every size (``scale="levels"``, the only scale of other sizes) they are those of
  the technique solver behind `Rating.level` and `hint` (`_logic.pyx`, twin
  `_logic_py.py`), each with its level (1 easy ... 6 nightmare).

A step's placements and eliminations are what the rater changed on its board at that
step, read from the board before and after it, so applying them in order leads from
the givens to the solution. Where the technique has a pattern (singles, subsets, fish,
xy- and xyz-wings, and on the level scale every technique), `cells` and `digits` are
that pattern and the explanation names it; for the Sudoku Explainer ladder's other
techniques (locked candidates excepted, which are named too) `cells` are the cells the
step changes and the explanation says what the technique does and what it concluded.
"""

from __future__ import annotations

import html
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, overload

from ._base.checks import DEFAULT_MAX_NODES, node_budget
from ._base.errors import SearchLimitExceeded
from ._base.grid import Geometry, format_values, parse_grid
from ._base.levels import SLOT_NAMES
from ._base.se_scale import DEFAULT_BUDGET, SE_OK, check_score_budget, score_level
from ._base.se_scale import TECHNIQUES as SE_TECHNIQUES
from ._engine.run import run_engine
from ._techniques.solver import logical_solve, se_path
from ._techniques.steps import after_step, candidate_masks, digits_of, explain
from .board import Board

if TYPE_CHECKING:
    from .render import Pages, PageSize

__all__ = ["SolvePath", "SolveStep", "conclusions", "solve_path"]

Scale = Literal["se", "levels"]
Pairs = tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class SolveStep:
    """One step of a solving path.

    Attributes
    ----------
    number : int
        Its place in the path, counted from 1.
    technique : str
        The technique's name, as `Rating.score_technique` (SE scale) or
        `Rating.hardest` (level scale) names it; "beyond" / "guess" when none applies
        and a digit of the solution is revealed.
    rating : float or None
        The step's difficulty on the Sudoku Explainer scale (1.0 and up; a "beyond"
        step's 9.5 is a lower bound); None on the level scale.
    level : int
        The step's level, 1 (easy) to 6 (nightmare): its technique's level on the
        level scale, `score_level(rating)` on the SE scale.
    cells : tuple of int
        The cells of the step's pattern (0-based, row-major), or the cells it changes
        where the pattern is not recorded (see the module doc).
    cell_names : tuple of str
        `cells` as names, r1c1 for cell 0.
    digits : tuple of int
        The pattern's digits (values 1..N).
    placements : tuple of (int, int)
        The (cell, value) pairs the step places.
    eliminations : tuple of (int, int)
        The (cell, value) candidates the step removes.
    explanation : str
        The step in one sentence.

    Examples
    --------
    >>> import sudoku_fast as sf
    >>> p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    >>> step = sf.solve_path(p)[3]
    >>> step.number, step.technique, step.rating, step.level, step.cell_names
    (4, 'pointing', 2.6, 2, ('r2c7', 'r2c9'))
    """

    number: int
    technique: str
    rating: float | None
    level: int
    cells: tuple[int, ...]
    cell_names: tuple[str, ...]
    digits: tuple[int, ...]
    placements: Pairs
    eliminations: Pairs
    explanation: str

    def _repr_html_(self) -> str:
        """The step as one line of HTML (a notebook shows it)."""
        return (
            f"<b>Step {self.number} \u00b7 {html.escape(self.technique)}</b>"
            f"{rating_text(self)}: {html.escape(self.explanation)}"
        )


@dataclass(frozen=True, eq=False)
class SolvePath(Sequence[SolveStep]):
    """The ordered steps from a puzzle's givens to its solution (see `solve_path`).

    A sequence of `SolveStep`; besides the steps it holds the puzzle, its solution and
    geometry, and the board before each step (`board_before`).

    Attributes
    ----------
    puzzle : str
        The givens, one character per cell (`.` empty) in the puzzle's symbols.
    solution : str
        The solution in the same form.
    geometry : Geometry
        The grid's size, box shape and symbols.
    scale : {"se", "levels"}
        Which rater's steps these are.
    complete : bool
        False when `score` is a lower bound: the SE rater's work budget ran out before
        the end (the steps stop there and the last state is not the solution), or a
        "beyond" step revealed a digit where no technique of the ladder applies.

    Examples
    --------
    >>> import sudoku_fast as sf
    >>> p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    >>> path = sf.solve_path(p)
    >>> path.complete, path.scale, path.hardest.rating == sf.rate(p, score=True).score
    (True, 'se', True)
    >>> sf.is_solution(path.solution, p)
    True
    """

    puzzle: str
    solution: str
    geometry: Geometry
    scale: Scale
    steps: tuple[SolveStep, ...]
    complete: bool = True
    _states: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...] = field(default=(), repr=False)

    @overload
    def __getitem__(self, index: int) -> SolveStep: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[SolveStep]: ...
    def __getitem__(self, index: int | slice) -> SolveStep | Sequence[SolveStep]:
        return self.steps[index]

    def __len__(self) -> int:
        return len(self.steps)

    def __iter__(self) -> Iterator[SolveStep]:
        return iter(self.steps)

    def __repr__(self) -> str:
        return (
            f"SolvePath({len(self.steps)} steps, scale={self.scale!r}, score={self.score!r}, "
            f"hardest={self.hardest.technique if self.steps else None!r})"
        )

    @property
    def score(self) -> float | None:
        """The hardest step's rating (SE scale; 0.0 for a full grid), else None."""
        if self.scale != "se":
            return None
        return max((step.rating or 0.0 for step in self.steps), default=0.0)

    @property
    def hardest(self) -> SolveStep:
        """The first of the hardest steps (by rating, else by level).

        Raises
        ------
        ValueError
            For a full grid, which takes no step.
        """
        if not self.steps:
            raise ValueError("a full grid takes no step")
        return max(self.steps, key=lambda step: (step.rating or 0.0, step.level, -step.number))

    def board_before(self, number: int) -> Board:
        """The board before step `number` (1-based; len + 1: after the last).

        Its values are the placed digits, its pencil marks every open cell's
        candidates at that point of the path.

        Raises
        ------
        ValueError
            For a number outside 1 .. len(path) + 1.
        """
        if isinstance(number, bool) or not isinstance(number, int):
            raise TypeError(f"number must be an int, not {type(number).__name__}")
        if not 1 <= number <= len(self._states):
            raise ValueError(f"number must be from 1 to {len(self._states)}, got {number}")
        values, cand = self._states[number - 1]
        geo = self.geometry
        givens = self.puzzle
        placed = "".join(
            "." if g != "." or not v else geo.symbols[v - 1]
            for g, v in zip(givens, values, strict=True)
        )
        pencil = [frozenset(digits_of(c)) for c in cand]
        return Board(givens, placed, pencil, geo)

    def render(
        self,
        *,
        page_size: PageSize = "A4",
        title: str = "",
        group_singles: bool = True,
        rows_per_page: int = 3,
    ) -> Pages:
        """The step-by-step sheet of this path: `render.render_path` with its options.

        Returns
        -------
        Pages
            The sheet's pages (``.pdf()``, ``.save(path)``, or one `Svg` per page).
        """
        from .render import render_path  # the path's own sheet: a method reaching up

        return render_path(
            self,
            page_size=page_size,
            title=title,
            group_singles=group_singles,
            rows_per_page=rows_per_page,
        )

    def _repr_html_(self) -> str:
        """The path as an HTML table with a small grid per step (a notebook shows it)."""
        from .render import path_html  # the display hook reaches up to the renderer

        return path_html(self)


def solve_path(
    puzzle: str | Board,
    *,
    scale: Scale | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    score_budget: int = DEFAULT_BUDGET,
) -> SolvePath:
    """Every step the rater takes from the givens to the solution, in order.

    Parameters
    ----------
    puzzle : str or Board
        A puzzle in any notation and size `parse` accepts, or a `Board` (its givens
        are used; the player's values and pencil marks are not).
    scale : {"se", "levels"}, optional
        "se": the steps of the Sudoku Explainer rater behind ``rate(p, score=True)``
        (9x9 only); "levels": those of the technique solver behind `Rating.level` and
        `hint`. Default: "se" for 9x9, "levels" otherwise.
    box, alphabet
        The geometry of a puzzle string, as in `parse`.
    max_nodes : int or None
        The search budget for proving the solution unique, as in `rate`.
    score_budget : int
        Chain-walk steps the SE rater may take, as in `rate`; when they run out the
        path stops early and `complete` is False.

    Returns
    -------
    SolvePath
        The steps, each with its technique, rating, cells, placements, eliminations
        and explanation.

    Raises
    ------
    ValueError
        For a malformed puzzle, one without exactly one solution, or ``scale="se"``
        on a grid other than 9x9.
    SearchLimitExceeded
        When proving the solution unique needs more than `max_nodes` nodes.

    Examples
    --------
    >>> import sudoku_fast as sf
    >>> p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    >>> path = sf.solve_path(p)
    >>> path.hardest.rating == sf.rate(p, score=True).score
    True
    >>> step = path[0]
    >>> step.technique, step.rating, step.cell_names, step.placements
    ('hidden single (box)', 1.2, ('r6c2',), ((46, 4),))
    >>> step.explanation
    '4 has only one place left in box 4: r6c2'
    """
    if isinstance(puzzle, Board):
        if box is not None or alphabet is not None:
            raise ValueError("box and alphabet are for a puzzle string; a Board has its geometry")
        if puzzle.rules is not None:
            raise ValueError(
                "solve_path follows the classic rules; this board has variant rules "
                "(`hint` steps through them)"
            )
        geometry, values = puzzle.geometry, list(puzzle.given_values())
    elif isinstance(puzzle, str):
        geometry, grid = parse_grid(puzzle, box=box, alphabet=alphabet)
        values = list(grid)
    else:
        raise TypeError(f"puzzle must be a str or a Board, not {type(puzzle).__name__}")
    if scale is None:
        scale = "se" if geometry.size == 9 else "levels"
    if scale not in ("se", "levels"):
        raise ValueError(f"scale must be 'se' or 'levels', not {scale!r}")
    if scale == "se" and geometry.size != 9:
        raise ValueError(f"the SE scale is for 9x9 grids, not {geometry.describe()}")
    budget = check_score_budget(score_budget)
    solution = _unique_solution(values, geometry, node_budget(max_nodes), max_nodes)
    if scale == "se":
        steps, states, complete = _se_steps(values, solution, geometry, budget)
    else:
        steps, states = _level_steps(values, solution, geometry)
        complete = True
    return SolvePath(
        format_values(values, geometry),
        format_values(solution, geometry),
        geometry,
        scale,
        tuple(steps),
        complete,
        tuple(states),
    )


def _unique_solution(
    values: list[int], geometry: Geometry, budget: int, max_nodes: int | None
) -> list[int]:
    """The puzzle's one solution, by the engine `rate` uses; raise as `rate` does."""
    results = run_engine(bytes(values), 1, 2, 1, geometry=geometry, max_nodes=budget)
    count = results.counts[0]
    if count < 0:
        raise SearchLimitExceeded(
            f"the puzzle needs more than {max_nodes:,} search nodes to prove one solution",
            [0],
            None,
        )
    if count != 1:
        what = "no solution" if count == 0 else "several solutions"
        raise ValueError(f"the puzzle has {what}; only a unique puzzle has a solving path")
    return list(results.solutions[: geometry.cells])


State = tuple[tuple[int, ...], tuple[int, ...]]


def _start(values: list[int], geometry: Geometry) -> State:
    return tuple(values), tuple(candidate_masks(values, geometry))


def _changes(before: State, after: State, geometry: Geometry) -> tuple[Pairs, Pairs]:
    """What a step did: the values it placed, and the candidates it removed beyond
    those its placements remove from their peers."""
    values_b, cand_b = before
    values_a, cand_a = after
    placements = tuple((cell, v) for cell, v in enumerate(values_a) if v and not values_b[cell])
    placed_in = {}
    for cell, v in placements:
        placed_in[cell] = v
    peers = geometry.peer_sets
    eliminations = []
    for cell, was in enumerate(cand_b):
        gone = was & ~cand_a[cell]
        if not gone or values_a[cell]:
            continue
        for d in digits_of(gone):
            if any(placed_in.get(p) == d for p in peers[cell] if p in placed_in):
                continue
            eliminations.append((cell, d))
    return placements, tuple(eliminations)


def _se_steps(
    values: list[int], solution: list[int], geometry: Geometry, budget: int
) -> tuple[list[SolveStep], list[State], bool]:
    """The SE rater's steps (`_techniques.solver.se_path`), with the board before each one."""
    _, _, _, status, records = se_path(geometry, values, solution, budget)
    state = _start(values, geometry)
    states = [state]
    steps = []
    for number, (tech, tenths, after_values, after_cand, pattern) in enumerate(records, 1):
        after = (tuple(after_values), after_cand)
        placements, eliminations = _changes(state, after, geometry)
        rating = tenths / 10
        name = SE_TECHNIQUES[tech]
        if pattern is not None:
            index, cells, digits, aux = pattern
            text = explain(geometry, SLOT_NAMES[index], cells, digits, eliminations, aux)
        else:
            cells, digits, text = _se_pattern(geometry, name, state, placements, eliminations)
        steps.append(
            SolveStep(
                number,
                name,
                rating,
                score_level(rating),
                tuple(cells),
                tuple(geometry.name(c) for c in cells),
                tuple(digits),
                placements,
                eliminations,
                text,
            )
        )
        state = after
        states.append(state)
    return steps, states, status == SE_OK


def _level_steps(
    values: list[int], solution: list[int], geometry: Geometry
) -> tuple[list[SolveStep], list[State]]:
    """The technique solver's steps (`_techniques.solver.logical_solve`), with the boards."""
    state = (list(values), candidate_masks(values, geometry))
    states = [(tuple(state[0]), tuple(state[1]))]
    steps = []
    for number, hint in enumerate(logical_solve(values, solution, geometry), 1):
        state = after_step(*state, geometry, hint.placements, hint.eliminations)
        states.append((tuple(state[0]), tuple(state[1])))
        steps.append(
            SolveStep(
                number,
                hint.technique,
                None,
                hint.level,
                hint.cells,
                tuple(geometry.name(c) for c in hint.cells),
                hint.digits,
                hint.placements,
                hint.eliminations,
                hint.explanation,
            )
        )
    return steps, states


# What each technique of the SE ladder without a recorded pattern does, in a phrase
# that the step's conclusions complete.
_DOES = {
    "direct hidden pair": "a hidden pair whose other candidates, once gone, leave a hidden single",
    "direct hidden triple": (
        "a hidden triple whose other candidates, once gone, leave a hidden single"
    ),
    "skyscraper": "two strong links on one digit in parallel lines, joined by a weak link",
    "two-string kite": "a strong link in a row and one in a column, joined in a box",
    "turbot fish": "two strong links on one digit joined by a weak link",
    "grouped strong links": (
        "two strong links on one digit joined by a weak link, one of them between groups of"
        " cells (an empty rectangle in a box, or two box segments of a line)"
    ),
    "three strong links": "three strong links on one digit joined by weak links",
    "four strong links": "four strong links on one digit joined by weak links",
    "unique rectangle": (
        "four cells in two boxes that would otherwise allow two solutions (a deadly pattern)"
    ),
    "wxyz-wing": "four cells holding four digits between them, one of which sees the others",
    "vwxyz-wing": "five cells holding five digits between them",
    "uvwxyz-wing": "six cells holding six digits between them",
    "tuvwxyz-wing": "seven cells holding seven digits between them",
    "bivalue universal grave": (
        "every open cell but one has two candidates, which would allow two solutions"
    ),
    "aligned pair exclusion": "no combination of values of two aligned cells allows them",
    "aligned triplet exclusion": "no combination of values of three aligned cells allows them",
    "x-cycle": "a loop of strong and weak links on one digit",
    "y-cycle": "a loop of links through cells with two candidates",
    "xy-cycle": "a loop of links on one digit and inside cells with two candidates",
    "forcing x-chain": "assuming the opposite leads, by links on one digit, to a contradiction",
    "forcing chain": "assuming the opposite leads, by a chain of links, to a contradiction",
    "nishio": "assuming a digit leads, following the grid as it changes, to a contradiction",
    "cell forcing chains": "every candidate of one cell leads to the same conclusion",
    "region forcing chains": "every place of a digit in one unit leads to the same conclusion",
    "dynamic forcing chain": (
        "both ways of a candidate, or every candidate of a cell or unit, lead to the same "
        "conclusion as the grid changes"
    ),
    "dynamic forcing chain (+)": (
        "as a dynamic forcing chain, with pointing, claiming, pairs and x-wings found on the "
        "grid the assumption leaves"
    ),
    "dynamic forcing chain (+ forcing chains)": (
        "as a dynamic forcing chain (+), with forcing chains and cycles found on the grid "
        "the assumption leaves"
    ),
    "dynamic forcing chain (+ multiple forcing chains)": (
        "as a dynamic forcing chain (+ forcing chains), with cell and region forcing chains "
        "found on the grid the assumption leaves"
    ),
    "dynamic forcing chain (+ dynamic forcing chains)": (
        "as a dynamic forcing chain (+), with dynamic forcing chains found on the grid the "
        "assumption leaves"
    ),
    "beyond": (
        "no technique of the ladder applies, so a digit of the solution is revealed (the "
        "rating is then a lower bound)"
    ),
}


def _se_pattern(
    geometry: Geometry,
    technique: str,
    before: State,
    placements: Pairs,
    eliminations: Pairs,
) -> tuple[tuple[int, ...], tuple[int, ...], str]:
    """Cells, digits and explanation of an SE step whose pattern was not recorded."""
    if technique in ("pointing", "claiming", "direct pointing", "direct claiming"):
        locked = _locked_pattern(geometry, technique.endswith("claiming"), before, eliminations)
        if locked is not None:
            cells, digit, box, line = locked
            text = explain(
                geometry, technique.removeprefix("direct "), cells, (digit,), eliminations,
                (box, line) if not technique.endswith("claiming") else (line, box),
            )  # fmt: skip
            if technique.startswith("direct"):
                text += ", which leaves a hidden single"
            return cells, (digit,), text
    if technique in ("direct hidden pair", "direct hidden triple"):
        hidden = _hidden_pattern(geometry, before, eliminations)
        if hidden is not None:
            cells, digits, unit = hidden
            text = explain(
                geometry, technique.removeprefix("direct "), cells, digits, eliminations, (unit,)
            )
            return cells, digits, text + ", which leaves a hidden single"
    changed = tuple(sorted({cell for cell, _ in placements} | {cell for cell, _ in eliminations}))
    changed_digits = tuple(sorted({d for _, d in placements} | {d for _, d in eliminations}))
    does = _DOES.get(technique, technique)
    return changed, changed_digits, f"{does}: {conclusions(geometry, placements, eliminations)}"


def conclusions(geometry: Geometry, placements: Pairs, eliminations: Pairs) -> str:
    """What a step changes, in words: 'r1c2 is 5; 7 goes from r3c3, r4c4'.

    Parameters
    ----------
    geometry : Geometry
        The grid's geometry (cell names and symbols).
    placements, eliminations : tuple of (int, int)
        (cell, value) pairs, as a `SolveStep` holds them.

    Returns
    -------
    str
        The placements, then the eliminations grouped by value.

    Examples
    --------
    >>> from sudoku_fast.grid import geometry_for
    >>> conclusions(geometry_for(9), ((1, 5),), ((20, 7), (30, 7)))
    'r1c2 is 5; 7 goes from r3c3, r4c4'
    """
    symbol = geometry.symbols
    parts = [f"{geometry.name(c)} is {symbol[d - 1]}" for c, d in placements]
    by_digit: dict[int, list[int]] = {}
    for cell, d in eliminations:
        by_digit.setdefault(d, []).append(cell)
    for d, cells in sorted(by_digit.items()):
        parts.append(f"{symbol[d - 1]} goes from {', '.join(geometry.name(c) for c in cells)}")
    return "; ".join(parts) or "nothing changes"


def _locked_pattern(
    geometry: Geometry, claiming: bool, before: State, eliminations: Pairs
) -> tuple[tuple[int, ...], int, int, int] | None:
    """The (cells, digit, box unit, line unit) of locked candidates that explain
    `eliminations`, read from the candidates before the step; None if none does."""
    digits = {d for _, d in eliminations}
    if len(digits) != 1:
        return None
    (digit,) = digits
    bit = 1 << (digit - 1)
    cand = before[1]
    n = geometry.size
    units = geometry.units
    gone = {cell for cell, _ in eliminations}
    # Pointing: the eliminations lie in a line, the pattern in a box crossing it.
    # Claiming: the eliminations lie in a box, the pattern in a line crossing it.
    kinds = range(2 * n) if claiming else range(2 * n, 3 * n)
    for home in kinds:
        where = [c for c in units[home] if cand[c] & bit]
        if not where or gone & set(units[home]):
            continue
        for other, _, _ in geometry.crossings[home]:
            shared = set(units[other])
            if gone <= shared and all(c in shared for c in where):
                box, line = (other, home) if claiming else (home, other)
                return tuple(where), digit, box, line
    return None


def _hidden_pattern(
    geometry: Geometry, before: State, eliminations: Pairs
) -> tuple[tuple[int, ...], tuple[int, ...], int] | None:
    """The (cells, digits, unit) of a hidden set that explains `eliminations`: the
    digits the cells keep fit nowhere else in the unit."""
    cand = before[1]
    cells = tuple(sorted({cell for cell, _ in eliminations}))
    gone: dict[int, int] = {}
    for cell, d in eliminations:
        gone[cell] = gone.get(cell, 0) | 1 << (d - 1)
    kept = 0
    for cell in cells:
        kept |= cand[cell] & ~gone[cell]
    for unit, members in enumerate(geometry.units):
        if not set(cells) <= set(members):
            continue
        if all(not cand[c] & kept for c in members if c not in cells):
            return cells, tuple(digits_of(kept)), unit
    return None


def difficulty(step: SolveStep) -> tuple[float, int]:
    """How hard a step is, for comparing steps: its SE rating, then its level."""
    return (step.rating or 0.0, step.level)


def rating_text(step: SolveStep) -> str:
    """A step's difficulty as a caption shows it: " · SE 4.2", or " · level 3"."""
    if step.rating is not None:
        return f" \u00b7 SE {step.rating:.1f}"
    return f" \u00b7 level {step.level}"
