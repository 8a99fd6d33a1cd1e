"""The result objects users hold: a `Hint` (one step, or a mistake found on a board) and a
`Rating` (the difficulty of a puzzle)."""

from __future__ import annotations

import html
from collections.abc import Mapping
from dataclasses import dataclass, field

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
