"""One puzzle grid as shapes: lines weighted like a printed puzzle, digits, marks, highlights.

Weights follow printed puzzles: hairline cell lines, box lines three times as heavy and
a slightly heavier border, all in proportion to the cell so a small answer grid keeps
the look of a big one. Givens are bold black; the player's values regular blue;
solution digits regular grey, so that the three read apart in colour and in
greyscale print.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .._base.grid import Geometry
from .drawing import Circle, Line, Polyline, Rect, Shape, Text, centred_baseline
from .overlays import Cage, CellLine, Overlay, Region


@dataclass(frozen=True)
class Style:
    """Colours and proportions of a grid (sizes as fractions of the cell side)."""

    given: str = "#000000"
    value: str = "#1d4ed8"
    solution: str = "#4b5563"
    pencil: str = "#374151"
    grid: str = "#000000"
    pattern_fill: str = "#fde68a"
    placement_fill: str = "#bbf7d0"
    placement: str = "#15803d"
    pattern_mark: str = "#1d4ed8"
    pattern_mark_fill: str = "#bfdbfe"
    eliminated: str = "#b91c1c"
    eliminated_fill: str = "#fecaca"
    line_fill: str = "#c7c7c7"
    cage: str = "#111827"
    digit_size: float = 0.64
    thin: float = 0.02
    thick: float = 0.06
    border: float = 0.08


DEFAULT_STYLE = Style()
# A cell's corner or centre on the page.
Where = Callable[[int], tuple[float, float]]


@dataclass(frozen=True)
class GridContent:
    """What one grid shows; value tuples hold 0 for an empty cell."""

    geometry: Geometry
    givens: tuple[int, ...]
    values: tuple[int, ...] = ()
    solution: tuple[int, ...] = ()
    pencil: tuple[frozenset[int], ...] = ()
    pattern_cells: tuple[int, ...] = ()
    pattern_digits: tuple[int, ...] = ()
    placements: tuple[tuple[int, int], ...] = ()
    eliminations: tuple[tuple[int, int], ...] = ()
    overlays: tuple[Overlay, ...] = ()


def mark_layout(size: int) -> tuple[int, int]:
    """(columns, rows) of the pencil-mark block inside a cell: 3x3 for 9, 3x2 for 6."""
    cols = math.isqrt(size - 1) + 1 if size > 1 else 1
    return cols, -(-size // cols)


def draw_grid(
    content: GridContent, x0: float, y0: float, cell: float, style: Style = DEFAULT_STYLE
) -> list[Shape]:
    """The shapes of one grid whose top-left corner is (x0, y0), `cell` mm a side."""
    geo = content.geometry
    n = geo.size
    side = n * cell
    out: list[Shape] = []

    def corner(c: int) -> tuple[float, float]:
        return x0 + (c % n) * cell, y0 + (c // n) * cell

    def centre(c: int) -> tuple[float, float]:
        x, y = corner(c)
        return x + cell / 2, y + cell / 2

    regions = [o for o in content.overlays if isinstance(o, Region)]
    for region in regions:
        if region.kind == "extra":
            for c in region.cells:
                out.append(Rect(*corner(c), cell, cell, fill=region.shade))
    placed = {c for c, _ in content.placements}
    for c in content.pattern_cells:
        if c not in placed:
            out.append(Rect(*corner(c), cell, cell, fill=style.pattern_fill))
    for c in sorted(placed):
        out.append(Rect(*corner(c), cell, cell, fill=style.placement_fill))
    for overlay in content.overlays:
        if isinstance(overlay, CellLine):
            out.extend(_cell_line(overlay, centre, corner, cell, style))
    thin = style.thin * cell
    thick = style.thick * cell
    irregular = any(r.kind == "box" for r in regions)
    for k in range(1, n):
        # With irregular boxes every inner line is thin; their outlines come on top.
        if irregular or k % geo.box_cols:
            out.append(Line(x0 + k * cell, y0, x0 + k * cell, y0 + side, thin, style.grid))
        if irregular or k % geo.box_rows:
            out.append(Line(x0, y0 + k * cell, x0 + side, y0 + k * cell, thin, style.grid))
    for overlay in content.overlays:
        if isinstance(overlay, Cage):
            out.extend(_cage(overlay, n, corner, cell, style))
    out.extend(_marks(content, corner, cell, style))
    out.extend(_digits(content, centre, cell, style))
    if irregular:
        for region in regions:
            if region.kind == "box":
                out.extend(_outline(region.cells, n, corner, cell, thick, style.grid))
    else:
        for k in range(geo.box_cols, n, geo.box_cols):
            x = x0 + k * cell
            out.append(Line(x, y0, x, y0 + side, thick, style.grid))
        for k in range(geo.box_rows, n, geo.box_rows):
            y = y0 + k * cell
            out.append(Line(x0, y, x0 + side, y, thick, style.grid))
    border = style.border * cell
    out.append(Rect(x0, y0, side, side, stroke=style.grid, width=border))
    return out


def _digits(content: GridContent, centre: Where, cell: float, style: Style) -> list[Shape]:
    geo = content.geometry
    symbols = geo.symbols
    size = style.digit_size * cell
    out: list[Shape] = []
    placements = dict(content.placements)
    for c in range(geo.cells):
        given = content.givens[c]
        value = content.values[c] if content.values else 0
        if given:
            digit, colour, bold = given, style.given, True
        elif value:
            digit, colour, bold = value, style.value, False
        elif c in placements:
            digit, colour, bold = placements[c], style.placement, True
        elif content.solution and content.solution[c]:
            digit, colour, bold = content.solution[c], style.solution, False
        else:
            continue
        cx, cy = centre(c)
        out.append(
            Text(cx, centred_baseline(cy, size), symbols[digit - 1], size, colour, bold, "middle")
        )
    return out


def _marks(content: GridContent, corner: Where, cell: float, style: Style) -> list[Shape]:
    """Pencil marks, with the hint's pattern digits and eliminated candidates marked."""
    geo = content.geometry
    n = geo.size
    cols, rows = mark_layout(n)
    w, h = cell / cols, cell / rows
    size = 0.78 * min(w, h)
    radius = 0.46 * min(w, h)
    eliminated: dict[int, set[int]] = {}
    for c, d in content.eliminations:
        eliminated.setdefault(c, set()).add(d)
    pattern = set(content.pattern_cells)
    pattern_digits = set(content.pattern_digits)
    placements = dict(content.placements)
    out: list[Shape] = []
    for c in range(geo.cells):
        if content.givens[c] or (content.values and content.values[c]) or c in placements:
            continue
        marks = set(content.pencil[c]) if content.pencil else set()
        gone = eliminated.get(c, set())
        if not marks and not gone:
            continue
        x, y = corner(c)
        for d in sorted(marks | gone):
            col, row = (d - 1) % cols, (d - 1) // cols
            mx, my = x + (col + 0.5) * w, y + (row + 0.5) * h
            colour = style.pencil
            if d in gone:
                out.append(Circle(mx, my, radius, fill=style.eliminated_fill))
                colour = style.eliminated
            elif c in pattern and d in pattern_digits:
                out.append(Circle(mx, my, radius, fill=style.pattern_mark_fill))
                colour = style.pattern_mark
            symbol = geo.symbols[d - 1]
            out.append(Text(mx, centred_baseline(my, size), symbol, size, colour, False, "middle"))
            if d in gone:
                r = radius * 0.8
                out.append(Line(mx - r, my + r, mx + r, my - r, 0.12 * size, style.eliminated))
    return out


def _edges(cells: Sequence[int], n: int) -> list[tuple[int, int, str]]:
    """The sides of `cells` that border no other cell of the set: (row, col, side)."""
    inside = set(cells)
    out = []
    for c in cells:
        r, col = divmod(c, n)
        for side, (dr, dc) in (
            ("top", (-1, 0)),
            ("bottom", (1, 0)),
            ("left", (0, -1)),
            ("right", (0, 1)),
        ):
            rr, cc = r + dr, col + dc
            if not (0 <= rr < n and 0 <= cc < n) or rr * n + cc not in inside:
                out.append((r, col, side))
    return out


def _outline(
    cells: Sequence[int], n: int, corner: Where, cell: float, width: float, colour: str
) -> list[Shape]:
    """A region's border as strokes along its cells' outer sides."""
    out: list[Shape] = []
    for r, c, side in _edges(cells, n):
        x, y = corner(r * n + c)
        if side == "top":
            seg = (x, y, x + cell, y)
        elif side == "bottom":
            seg = (x, y + cell, x + cell, y + cell)
        elif side == "left":
            seg = (x, y, x, y + cell)
        else:
            seg = (x + cell, y, x + cell, y + cell)
        out.append(Line(*seg, width, colour, "square"))
    return out


def _cage(cage: Cage, n: int, corner: Where, cell: float, style: Style) -> list[Shape]:
    """A dashed outline inset inside the cage's cells, and its total in the corner."""
    inset = 0.09 * cell
    inside = set(cage.cells)

    def has(r: int, c: int) -> bool:
        return 0 <= r < n and 0 <= c < n and r * n + c in inside

    width = 0.025 * cell
    dash = (0.08 * cell, 0.05 * cell)
    out: list[Shape] = []
    for r, c, side in _edges(cage.cells, n):
        x, y = corner(r * n + c)
        # Along the side, each end stops short at a convex corner, runs to the cell's
        # edge where the outline goes straight on, and past it at a concave corner.
        if side in ("top", "bottom"):
            dr = -1 if side == "top" else 1
            yy = y + inset if side == "top" else y + cell - inset
            start = x + _end(has(r, c - 1), has(r + dr, c - 1), inset)
            stop = x + cell - _end(has(r, c + 1), has(r + dr, c + 1), inset)
            out.append(Line(start, yy, stop, yy, width, style.cage, dash=dash))
        else:
            dc = -1 if side == "left" else 1
            xx = x + inset if side == "left" else x + cell - inset
            start = y + _end(has(r - 1, c), has(r - 1, c + dc), inset)
            stop = y + cell - _end(has(r + 1, c), has(r + 1, c + dc), inset)
            out.append(Line(xx, start, xx, stop, width, style.cage, dash=dash))
    if cage.total is not None:
        first = min(cage.cells)
        x, y = corner(first)
        size = 0.24 * cell
        label = str(cage.total)
        width_mm = 0.6 * size * len(label) + 0.06 * cell
        out.append(Rect(x + 0.03 * cell, y + 0.03 * cell, width_mm, size * 1.05, fill="#ffffff"))
        out.append(Text(x + 0.05 * cell, y + 0.03 * cell + 0.86 * size, label, size, style.cage))
    return out


def _end(along: bool, across: bool, inset: float) -> float:
    """How far from the cell's edge a cage side starts: `along` is the next cell in
    the side's direction, `across` the one diagonally beyond it."""
    if not along:
        return inset  # convex corner
    return -inset if across else 0.0  # concave corner, or straight on


def _cell_line(
    line: CellLine, centre: Where, corner: Where, cell: float, style: Style
) -> list[Shape]:
    points = tuple(centre(c) for c in line.cells)
    if line.kind == "diagonal":
        (x1, y1), (x2, y2) = points[0], points[-1]
        if len(points) == 1:
            return []
        # From the first cell's outer corner to the last one's.
        sx = 1 if x2 > x1 else -1 if x2 < x1 else 0
        sy = 1 if y2 > y1 else -1 if y2 < y1 else 0
        half = cell / 2
        return [
            Line(
                x1 - sx * half, y1 - sy * half, x2 + sx * half, y2 + sy * half,
                0.03 * cell, "#6b7280",
            )
        ]  # fmt: skip
    out: list[Shape] = []
    if line.kind == "thermometer":
        x, y = points[0]
        out.append(Circle(x, y, 0.36 * cell, fill=style.line_fill))
    if len(points) > 1 and line.kind in ("thermometer", "line"):
        out.append(Polyline(points, 0.26 * cell, style.line_fill))
    if line.kind == "arrow":
        x, y = points[0]
        out.append(Circle(x, y, 0.38 * cell, stroke="#6b7280", width=0.03 * cell))
        if len(points) > 1:
            nx, ny = points[1]
            d = math.hypot(nx - x, ny - y) or 1.0
            start = (x + (nx - x) / d * 0.38 * cell, y + (ny - y) / d * 0.38 * cell)
            out.append(Polyline((start, *points[1:]), 0.03 * cell, "#6b7280"))
            (px, py), (ex, ey) = points[-2], points[-1]
            d = math.hypot(ex - px, ey - py) or 1.0
            ux, uy = (ex - px) / d, (ey - py) / d
            head = 0.2 * cell
            left = (ex - ux * head - uy * head * 0.6, ey - uy * head + ux * head * 0.6)
            right = (ex - ux * head + uy * head * 0.6, ey - uy * head - ux * head * 0.6)
            out.append(Polyline((left, (ex, ey), right), 0.03 * cell, "#6b7280"))
    return out
