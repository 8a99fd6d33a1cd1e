"""Sukaku Explainer's grid at a step of its path, for the scripts that compare steps.

`rater_before` replays the effects of SE's earlier steps (a reference path file,
bench/data/serate_*_steps.csv.gz: "r1c2=3" places, "r1c2-45" removes) on the twin's
rater, so a script can ask the rater for the step SE took there.
"""

from __future__ import annotations

from sudoku_fast._base import se_scale
from sudoku_fast._base.grid import parse_values
from sudoku_fast._techniques import _se_py
from sudoku_fast._techniques._logic_py import LogicSolver


def rater_before(puzzle: str, steps: list[dict[str, str]], step: int) -> _se_py._Rater:
    """The twin's rater on the grid SE had before `step` of its path on `puzzle`;
    `steps` holds that puzzle's rows of the path file, in order."""
    s = LogicSolver(parse_values(puzzle))
    rater = _se_py._Rater(s, se_scale.DEFAULT_BUDGET)
    for before in steps:
        if int(before["step"]) >= step:
            break
        for effect in before["effect"].split():
            cell = (int(effect[1]) - 1) * 9 + int(effect[3]) - 1
            if effect[4] == "=":
                rater.place(cell, int(effect[5:]))
            else:
                for d in effect[5:]:
                    if s.cand[cell] >> (int(d) - 1) & 1:
                        rater.remove(cell, int(d))
    return rater
