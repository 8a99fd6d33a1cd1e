"""One vocabulary for both sides: the compiled enums are the Python ladders, number for number.

The technique ladder (`_base/levels.py`) and the Sudoku Explainer scale
(`_base/se_scale.py`) are the one source of technique names, order, levels and base
difficulties. The compiled solver and rater keep them as C enums and tables (they are
compiled in, so they cannot be read from Python at build time); these tests read those
enums and tables from the shipped sources and hold them equal to the Python ones, name
by name, and hold the compiled modules' constants equal to their twins'.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import sudoku_fast
from sudoku_fast._base import levels, se_scale
from sudoku_fast._techniques import _logic, _logic_py, _se, _se_py, steps

PACKAGE = Path(sudoku_fast.__file__).resolve().parent


def _source(relative: str) -> str:
    path = PACKAGE / relative
    if not path.exists():
        pytest.skip(f"{relative} is not in this installation")
    return path.read_text(encoding="utf-8")


def _enum_after(text: str, marker: str) -> dict[str, int]:
    """The NAME = value lines of the `cdef enum:` block that follows `marker`."""
    block = text[text.index(marker) :]
    block = block[block.index("cdef enum:") :]
    values: dict[str, int] = {}
    for line in block.splitlines()[1:]:
        found = re.match(r"\s+([A-Z_0-9]+)\s*=\s*(-?\d+)", line)
        if found is None:
            if line.strip() and not line.strip().startswith("#"):
                break
            if not line.strip() and values:
                break
            continue
        values[found[1]] = int(found[2])
    return values


def _table(text: str, name: str) -> list[int]:
    """The values of a `NAME[:] = [...]` table."""
    found = re.search(rf"^{name}\[:\] = \[([^\]]*)\]", text, re.M)
    assert found is not None, name
    return [int(v) for v in found[1].replace("\n", " ").split(",")]


def test_the_level_ladder_is_the_compiled_enum() -> None:
    enum = _enum_after(_source("_techniques/_logic.pxd"), "cdef enum:")
    count = enum.pop("TECHNIQUE_COUNT")
    slots = enum.pop("COUNT_SLOTS")
    assert count == len(levels.LADDER) == _logic.TECHNIQUES == _logic_py.TECHNIQUES
    assert slots == len(levels.SLOT_NAMES) == _logic.SLOTS == _logic_py.SLOTS
    python_names = {"BIG_FISH": "BIG_FISH_ID", "GUESS": "GUESS_ID"}
    for name, value in enum.items():
        assert getattr(levels, python_names.get(name, name)) == value, name
    assert sorted(enum.values()) == list(range(slots))  # every technique named once
    levels_table = _table(_source("_techniques/_logic.pyx"), "LEVELS")
    assert levels_table == list(levels.SLOT_LEVELS)


def test_the_se_ladder_is_the_compiled_enum() -> None:
    source = _source("_techniques/_se.pyx")
    enum = _enum_after(source, "# Technique ids")
    count = enum.pop("T_COUNT")
    assert count == se_scale.COUNT == len(se_scale.TECHNIQUES) == _se.TECHNIQUES
    assert _se_py.TECHNIQUES == _se.TECHNIQUES and _se_py.SLOTS == _se.SLOTS
    for name, value in enum.items():
        assert getattr(se_scale, name.removeprefix("T_")) == value, name
    # The two ids without a name of their own follow the skyscraper.
    unnamed = set(range(count)) - set(enum.values())
    assert unnamed == {se_scale.SKYSCRAPER + 1, se_scale.SKYSCRAPER + 2}
    assert _table(source, "BASE") == list(se_scale.BASE)
    statuses = _enum_after(source, "DYNAMIC_LINKS = 4")
    assert statuses["SE_OK"] == se_scale.SE_OK
    assert statuses["SE_BUDGET"] == se_scale.SE_BUDGET
    assert statuses["SE_STUCK"] == se_scale.SE_STUCK
    assert statuses["SE_BEYOND"] == se_scale.SE_BEYOND
    assert statuses["SE_CONTRADICTION"] == _se_py.SE_CONTRADICTION


def test_the_compiled_solver_statuses_and_reasons_are_the_twins() -> None:
    source = _source("_techniques/_logic.pyx")
    outcomes = _enum_after(source, "# Outcomes of a whole logical solve")
    assert outcomes["SOLVE_CONTRADICTION"] == _logic.CONTRADICTION == _logic_py.CONTRADICTION
    assert outcomes["SOLVE_NO_MEMORY"] == _logic.NO_MEMORY == _logic_py.NO_MEMORY
    assert outcomes["SOLVE_STUCK"] == _logic.STUCK == _logic_py.STUCK
    clashes = _enum_after(source, "# Trial and error: how the assumption failed")
    for name in ("CLASH_VALUE", "CLASH_CANDIDATE", "CLASH_EMPTY", "CLASH_NO_PLACE"):
        assert clashes[name] == getattr(steps, name), name


def test_scores_map_to_levels_at_the_starts() -> None:
    assert [se_scale.score_level(t / 10) for t in se_scale.SCORE_LEVEL_STARTS] == [2, 3, 4, 5, 6]
    assert sudoku_fast.score_level is se_scale.score_level


def test_the_option_types_are_the_values_the_library_accepts() -> None:
    """Each `Literal` of `_base/options.py` holds exactly what the run-time checks take."""
    from typing import get_args

    import sudoku_fast as sf
    from sudoku_fast import lab
    from sudoku_fast._base import options
    from sudoku_fast._base.levels import LEVEL_NAMES
    from sudoku_fast._columns.frames import OUTPUTS
    from sudoku_fast._generation.generate import SYMMETRIES
    from sudoku_fast.datasets import EMBEDDED_SETS

    assert set(get_args(options.Output)) == set(OUTPUTS) - {None}
    assert set(get_args(options.LevelName)) == {LEVEL_NAMES[level] for level in range(1, 6)}
    assert set(get_args(options.Symmetry)) == {*SYMMETRIES, "rot180"}
    assert sf.generate(symmetry="rot180", seed=1) == sf.generate(symmetry="rotational", seed=1)
    assert set(get_args(options.EmbeddedSet)) == set(EMBEDDED_SETS)
    assert set(get_args(options.Algorithm)) == set(lab.ALGORITHMS)
    assert set(get_args(options.VariableOrder)) == set(lab.VARIABLE_ORDERS)
    assert set(get_args(options.ValueOrder)) == set(lab.VALUE_ORDERS)
    assert set(get_args(options.Implementation)) == set(lab.IMPLEMENTATIONS)
