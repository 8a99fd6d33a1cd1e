"""Variant rules: the `Rules` a puzzle carries and its JSON form.

`solve`, `count_solutions`, `solve_many` and `count_many` take `rules=`: a `Rules`, its
JSON form (a mapping or its text) or preset names; `render` and `render_book` draw them.
`read_fpuzzles` reads a puzzle and its rules from an f-puzzles link or export,
`read_sudokupad` from a SudokuPad link (`scl...`) or its JSON.

>>> import sudoku_fast as sf
>>> x = sf.Rules.named("x")
>>> sf.count_solutions("." * 16, limit=100, rules=x)
48
>>> sf.Rules.from_json('{"anti_knight": true}') == sf.Rules.named("anti-knight")
True
"""

from __future__ import annotations

from ._base.fpuzzles import ImportedPuzzle, read_fpuzzles
from ._base.rules import PRESETS, Cage, Preset, Rules
from ._base.sudokupad import read_sudokupad

__all__ = [
    "PRESETS",
    "Cage",
    "ImportedPuzzle",
    "Preset",
    "Rules",
    "read_fpuzzles",
    "read_sudokupad",
]
