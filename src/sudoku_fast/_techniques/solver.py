"""The technique solver for the other rooms and for tools: its tables of a geometry (the
generator's level test), a puzzle's level within a bound, the next step of a board, and
the steps of a whole solve as `Hint` objects. It calls the compiled solver (`_logic`),
whose twin `_logic_py` gives the same answers (`level_within`, `logical_solve`)."""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from math import isqrt
from typing import Any

from .._base.grid import Geometry, geometry_for
from .._base.levels import SLOT_NAMES
from .._base.records import Hint
from .._base.se_scale import NESTING, score_level
from .._base.se_scale import TECHNIQUES as SE_TECHNIQUES
from . import _logic, _logic_py, _se
from .rules_geometry import RulesGeometry
from .steps import candidate_masks, digits_of, explain, hint_from_record

__all__ = [
    "level_within",
    "logic_tables",
    "logical_solve",
    "next_step",
    "se_next_step",
    "se_path",
]


def logic_tables(geometry: Geometry) -> _logic.LogicTables:
    """The technique solver's tables of `geometry` (built once, then shared)."""
    return _logic.tables_for(geometry)


def logical_solve(
    values: Sequence[int], solution: Sequence[int], geo: Geometry | None = None
) -> list[Hint]:
    """Every step the compiled logical solver takes from `values` to `solution`."""
    geo = geo if geo is not None else geometry_for(isqrt(len(values)))
    records = _logic.solve_steps(_logic.tables_for(geo), bytes(values), bytes(solution))
    return [hint_from_record(geo, record) for record in records]


def level_within(values: Sequence[int] | bytes, max_level: int, geo: Geometry | None = None) -> int:
    """The puzzle's level if it is at most `max_level`, else `max_level + 1` (compiled).

    Needs no solution: it stops as soon as the techniques up to `max_level` are stuck.
    Raises ValueError when two equal values share a unit.
    """
    geo = geo if geo is not None else geometry_for(isqrt(len(values)))
    levels = array("i", [0])
    _logic.level_within_range(_logic.tables_for(geo), bytes(values), max_level, levels, 0, 1)
    if levels[0] == _logic.CONTRADICTION:
        raise ValueError("two equal values share a unit")
    if levels[0] < 0:
        raise MemoryError("no memory for the technique solver")
    return levels[0]


def next_step(
    geo: Geometry, values: Sequence[int], allowed: Any, solution: Sequence[int]
) -> Hint | None:
    """The easiest step from `values` (each cell's candidates narrowed to the masks
    `allowed`), or the guess revealing a cell of `solution`; None for a full grid.

    Under variant rules (a `RulesGeometry`) the twin finds the step: the compiled
    solver knows the classic units only."""
    if isinstance(geo, RulesGeometry):
        twin_tables = _logic_py.tables_for(geo)
        record = _logic_py.find_step(twin_tables, bytes(values), allowed, bytes(solution))
    else:
        record = _logic.find_step(_logic.tables_for(geo), bytes(values), allowed, bytes(solution))
    return None if record is None else hint_from_record(geo, record)


def se_path(
    geometry: Geometry, values: Sequence[int], solution: Sequence[int], budget: int
) -> tuple[int, int, int, int, list[Any]]:
    """Every step the SE rater takes (`_se.se_path`): (score, hardest, steps, status,
    records), each record (technique id, tenths, values after the step, candidates after
    it, pattern: None or (technique index, cells, digits, aux))."""
    return _se.se_path(
        _logic.tables_for(geometry), bytes(values), bytes(solution), budget, None, -1, NESTING
    )


def se_next_step(
    geo: Geometry, values: Sequence[int], allowed: Sequence[int], solution: Sequence[int],
    budget: int,
) -> Hint | None:  # fmt: skip
    """The step the SE rater takes from `values` (candidates narrowed to the masks
    `allowed`), as a `Hint` named as `Rating.score_technique` names it, its level the
    level its difficulty maps to (`score_level`); "beyond" reveals a cell of `solution`
    where no technique of the ladder applies. None for a full grid."""
    masks = [c & a for c, a in zip(candidate_masks(values, geo), allowed, strict=True)]
    _, _, _, _, records = _se.se_path(
        _logic.tables_for(geo),
        bytes(values),
        bytes(solution),
        budget,
        array("Q", masks),
        1,
        NESTING,
    )
    if not records:
        return None
    tech, tenths, after_values, after_cand, pattern = records[0]
    placed = {c: v for c, v in enumerate(after_values) if v and not values[c]}
    placements = tuple(sorted(placed.items()))
    eliminations = tuple(
        (cell, d)
        for cell, was in enumerate(masks)
        if not after_values[cell]
        for d in digits_of(was & ~after_cand[cell])
        if not any(placed.get(p) == d for p in geo.peers[cell])
    )
    name = SE_TECHNIQUES[tech]
    if pattern is not None:
        index, cells, digits, aux = pattern
        text = explain(geo, SLOT_NAMES[index], cells, digits, eliminations, aux)
    else:
        cells = tuple(sorted({c for c, _ in placements} | {c for c, _ in eliminations}))
        digits = tuple(sorted({d for _, d in placements} | {d for _, d in eliminations}))
        said = [f"{geo.name(c)} is {geo.symbols[d - 1]}" for c, d in placements]
        said += [f"{geo.symbols[d - 1]} goes from {geo.name(c)}" for c, d in eliminations]
        text = f"{name} ({tenths / 10:.1f}): {'; '.join(said)}"
    return Hint(
        name,
        score_level(tenths / 10),
        tuple(cells),
        tuple(digits),
        placements=placements,
        eliminations=eliminations,
        explanation=text,
    )
