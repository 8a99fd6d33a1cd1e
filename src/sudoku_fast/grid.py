"""Grid text of every size: parse every common notation, pretty-print, check solutions.

The definitions live in `sudoku_fast._base.grid`, the one home of the geometry (units,
peers, boxes, symbols) that every layer shares; this module is their public front.
"""

from __future__ import annotations

from ._base.grid import (
    CELLS,
    CLASSIC,
    EMPTY,
    MAX_SIZE,
    MIN_INFERRED_SIZE,
    SEPARATORS,
    SIZE,
    SYMBOLS,
    Box,
    Geometry,
    default_box,
    format_marks,
    format_values,
    geometry_for,
    grid_text,
    is_solution,
    parse,
    parse_grid,
    parse_marks_grid,
    parse_values,
    show,
)

__all__ = [
    "CELLS",
    "CLASSIC",
    "EMPTY",
    "MAX_SIZE",
    "MIN_INFERRED_SIZE",
    "SEPARATORS",
    "SIZE",
    "SYMBOLS",
    "Box",
    "Geometry",
    "default_box",
    "format_marks",
    "format_values",
    "geometry_for",
    "grid_text",
    "is_solution",
    "parse",
    "parse_grid",
    "parse_marks_grid",
    "parse_values",
    "show",
]
