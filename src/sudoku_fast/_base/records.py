"""The result objects users hold: a `Hint` (one step, or a mistake found on a board) and a
`Rating` (the difficulty of a puzzle)."""

from __future__ import annotations

import html
from collections.abc import Mapping
from dataclasses import dataclass, field

from .levels import TECHNIQUE_LEVEL

__all__ = ["Hint", "Rating"]


@dataclass(frozen=True)
class Hint:
    """One step towards the solution, or a mistake found on the board.

    `technique` names the step (e.g. "hidden single", "x-wing", "wrong value") and
    `level` is its level (1-6, as in the table above; 0 for the two mistake kinds);
    `cells` and `digits` are the pattern it rests on (0-based cells in row-major order,
    digits from 1); `placements` and `eliminations` are (cell, digit) pairs it places or
    removes from the pencil marks; `explanation` says it in one line.

    Besides the techniques of `TECHNIQUES`, three kinds come from `hints.hint`:
    "wrong value" (a user-entered value contradicts the solution: `cells` is that cell,
    `digits` the entered value, `eliminations` the entry to remove), "wrong pencil marks"
    (a cell's pencil marks leave out its solution digit, which is in `digits`) and
    "guess" (no technique applies: the solution digit of one cell is revealed).

    Hints are made by `sudoku_fast.hint`; `Board.apply` carries one out.

    Parameters
    ----------
    technique : str
        The step's name, e.g. "hidden single", "x-wing", "wrong value".
    level : int
        The technique's level, 1-6 (0 for the two mistake kinds).
    cells : tuple of int
        The cells of the pattern (0-based, row-major).
    digits : tuple of int
        The digits of the pattern (from 1).
    placements : tuple of (int, int), default ()
        (cell, digit) pairs the step places.
    eliminations : tuple of (int, int), default ()
        (cell, digit) pairs the step removes from the pencil marks.
    explanation : str, default ""
        The step in one line of words.

    Attributes
    ----------
    is_mistake : bool
        True for "wrong value" and "wrong pencil marks".

    Examples
    --------
    >>> import sudoku_fast as sf
    >>> p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    >>> step = sf.hint(p)
    >>> step.technique, step.level, step.is_mistake
    ('hidden single', 1, False)
    >>> step.placements
    ((46, 4),)
    """

    technique: str
    level: int
    cells: tuple[int, ...]
    digits: tuple[int, ...]
    placements: tuple[tuple[int, int], ...] = ()
    eliminations: tuple[tuple[int, int], ...] = ()
    explanation: str = ""

    def _repr_html_(self) -> str:
        """The hint as a line of HTML (notebooks show it): technique, level, explanation."""
        level = f" (level {self.level})" if self.level else ""
        return f"<b>{html.escape(self.technique)}</b>{level}: {html.escape(self.explanation)}"

    @property
    def is_mistake(self) -> bool:
        """True for the two kinds that report a user mistake rather than a deduction."""
        return self.technique in ("wrong value", "wrong pencil marks")


@dataclass(frozen=True)
class Rating:
    """The difficulty of one puzzle.

    `level` (1-6) and `name` ("easy" ... "nightmare") are the puzzle's level. With a score
    (9x9, `rate(..., score=True)`) they are the band of the Sudoku Explainer scale the score
    lies in, the one ladder `generate(difficulty=...)` aims at: up to 2.4 easy, 2.5 medium,
    3.0 hard, 4.0 expert, 6.0 extreme, 9.0 nightmare (`score_level`; a lower-bound score
    gives a lower-bound level). Without one (no score asked, or another size, where SE
    defines no scale) they are the technique solver's level, `technique_level`: that of
    `hardest`, the hardest technique the logical solver needed ("guess" when it got stuck,
    level 6; "none" for a grid that is already full), a cheaper estimate of the same ladder.
    `counts` says how often each technique was used (placements and elimination steps,
    guesses included); `clues` is the number of givens. `engine_guesses` and `engine_nodes`
    are the compiled engine's search figures for proving the solution unique. `score` is the
    difficulty on the Sudoku Explainer scale (9x9 only, else None; 0.0 with
    `score_technique` "none" for a full grid, which takes no step), `score_technique` the
    SE-ladder step that set it and `score_complete` False when the score is only a lower
    bound: the score budget ran out, or the puzzle needs a step beyond the ladder (SE's
    chains nested deeper than its fourth level, on nested forcing chains, 11.0 and up;
    `score_technique` "beyond" when that step set the score); the ladder covers SE's
    scale up to its fourth nesting level (chains nested on forcing chains, 9.5 and up,
    on multiple forcing chains, 10.0 and up, and on dynamic forcing chains, 10.5 and
    up); see `sudoku_fast.rating`.

    Ratings are made by `sudoku_fast.rate` and `rate_many`.

    Parameters
    ----------
    level : int
        1 easy, 2 medium, 3 hard, 4 expert, 5 extreme, 6 nightmare: the SE band of
        `score` when there is one, else `technique_level`.
    name : str
        The level's name.
    hardest : str
        The hardest technique the solver needed.
    counts : mapping of str to int
        How often each technique was used.
    clues : int
        The number of givens.
    engine_guesses, engine_nodes : int
        The engine's branch trials and search-tree size for proving the solution unique.
    score : float or None
        The Sudoku Explainer score (9x9 with `score=True`; else None).
    score_technique : str
        The SE-ladder step that set the score.
    score_complete : bool
        False when the score is only a lower bound: the score budget ran out, or a
        step beyond the ladder (SE's nesting past its fourth level, 11.0 and up) was
        needed.

    Attributes
    ----------
    technique_level : int
        The level of `hardest` on the technique solver's ladder (`rate`'s level when no
        score is asked; 1 for a full grid).

    Examples
    --------
    >>> import sudoku_fast as sf
    >>> p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    >>> r = sf.rate(p)
    >>> r.level, r.name, r.clues
    (2, 'medium', 17)
    >>> easy = "69...58....2961..........3......6...7...3......8.1..2..1...85...6.453..9........4"
    >>> r = sf.rate(easy, score=True)
    >>> r.score, r.level, r.name, r.hardest, r.technique_level
    (1.5, 1, 'easy', 'hidden single', 1)
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

    @property
    def technique_level(self) -> int:
        """The level of `hardest` on the technique solver's ladder (1-6)."""
        return TECHNIQUE_LEVEL.get(self.hardest, 1)  # "none": a full grid, no step
