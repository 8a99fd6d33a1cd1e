"""What a grid shows beyond its digits: regions, cages and lines, as plain data.

These are the drawing hooks of variant rules: a rule set describes its extra regions,
irregular boxes, killer cages, diagonals and thermometers as cell lists, and hands
them to the renderer as a sequence of these objects. Cells are 0-based, row-major.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from .._base.grid import default_box
from .._base.rules import Cage as Cage  # one class for the rule and its drawing
from .._base.rules import Rules, region_cells, window_cells

RegionKind = Literal["box", "extra"]
LineKind = Literal["line", "thermometer", "arrow", "diagonal"]


def _cells(cells: Iterable[int], what: str) -> tuple[int, ...]:
    out = tuple(cells)
    for cell in out:
        if isinstance(cell, bool) or not isinstance(cell, int):
            raise TypeError(f"{what}: cells must be ints, not {cell!r}")
    if not out:
        raise ValueError(f"{what}: needs at least one cell")
    return out


@dataclass(frozen=True, init=False)
class Region:
    """A set of cells drawn as a region.

    `kind` "box": an irregular box (jigsaw), outlined like a box; when any region of
    a picture is a box, the geometry's own boxes are not drawn. "extra": an extra
    region (windoku, disjoint groups), shaded with `shade`.

    Parameters
    ----------
    cells : iterable of int
        The region's cells (0-based, row-major).
    kind : {"box", "extra"}
        An irregular box, or an extra shaded region.
    shade : str
        The fill colour of an extra region (an SVG colour).

    Examples
    --------
    >>> Region([0, 1, 9, 10], kind="extra").cells
    (0, 1, 9, 10)
    """

    cells: tuple[int, ...]
    kind: RegionKind
    shade: str

    def __init__(
        self, cells: Iterable[int], kind: RegionKind = "extra", shade: str = "#e5e7eb"
    ) -> None:
        if kind not in ("box", "extra"):
            raise ValueError(f"region kind must be 'box' or 'extra', not {kind!r}")
        object.__setattr__(self, "cells", _cells(cells, "region"))
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "shade", shade)


@dataclass(frozen=True, init=False)
class CellLine:
    """A line through the centres of `cells`, in order.

    `kind` "thermometer": a grey bar with a bulb on the first cell; "arrow": a circle
    on the first cell and an arrowhead at the last; "diagonal": a thin line from the
    outer corner of the first cell to that of the last (Sudoku X); "line": a plain
    grey bar (renban, palindrome, whisper lines).

    Parameters
    ----------
    cells : iterable of int
        The cells the line passes through, in order.
    kind : {"thermometer", "arrow", "diagonal", "line"}, default "line"
        How the line is drawn.

    Examples
    --------
    >>> CellLine(range(0, 81, 10), kind="diagonal").kind
    'diagonal'
    """

    cells: tuple[int, ...]
    kind: LineKind

    def __init__(self, cells: Iterable[int], kind: LineKind = "line") -> None:
        if kind not in ("line", "thermometer", "arrow", "diagonal"):
            raise ValueError(
                f"line kind must be 'line', 'thermometer', 'arrow' or 'diagonal', not {kind!r}"
            )
        object.__setattr__(self, "cells", _cells(cells, "line"))
        object.__setattr__(self, "kind", kind)


Overlay = Region | Cage | CellLine

WINDOW_SHADE = "#e5e7eb"
EXTRA_SHADE = "#dbeafe"


def rules_overlays(
    rules: Rules, size: int, box: tuple[int, int] | None = None
) -> tuple[Overlay, ...]:
    """The drawings of a rule set on an N x N grid with boxes of `box` (None: the
    size's default): jigsaw regions outlined like boxes, windows and extra sets
    shaded, the diagonals, killer cages and thermometers. Rules without a drawing
    (anti-knight, anti-king, non-consecutive, disjoint groups) are named by
    `rules_legend` instead."""
    out: list[Overlay] = []
    if rules.regions is not None:
        out += [Region(list(cells), kind="box") for cells in region_cells(rules.regions)]
    box = default_box(size) if box is None else box
    if rules.windoku and box is not None:
        out += [Region(cells, shade=WINDOW_SHADE) for cells in window_cells(size, box)]
    out += [Region(cells, shade=EXTRA_SHADE) for cells in rules.extra]
    if rules.diagonals:
        out.append(CellLine(range(0, size * size, size + 1), kind="diagonal"))
        out.append(CellLine(range(size - 1, size * size - 1, size - 1), kind="diagonal"))
    out += rules.cages
    out += [CellLine(cells, kind="thermometer") for cells in rules.thermos]
    return tuple(out)


# The rules no drawing shows, in the words of the legend.
_LEGEND = (
    ("anti_knight", "anti-knight"),
    ("anti_king", "anti-king"),
    ("non_consecutive", "non-consecutive"),
    ("disjoint", "disjoint groups"),
)


def rules_legend(rules: Rules) -> str:
    """The line naming the rules a picture cannot show ("Also: anti-knight,
    non-consecutive"), or "" when every rule is drawn."""
    names = [words for flag, words in _LEGEND if getattr(rules, flag)]
    return f"Also: {', '.join(names)}" if names else ""
