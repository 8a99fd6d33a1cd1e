"""The drawing model: shapes on a page measured in millimetres, y pointing down.

Each backend (`svg`, `pdf`) writes the same list of shapes, so a grid looks the same
on screen and on paper. Colours are "#rrggbb" strings.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Anchor = Literal["start", "middle", "end"]
Cap = Literal["butt", "round", "square"]
Point = tuple[float, float]

# Helvetica's cap height (and, within 2%, that of its digits), as a fraction of the
# font size: a digit whose baseline sits this much below half of it is centred.
CAP_HEIGHT = 0.718


@dataclass(frozen=True, slots=True)
class Line:
    """A straight stroke from (x1, y1) to (x2, y2)."""

    x1: float
    y1: float
    x2: float
    y2: float
    width: float
    colour: str = "#000000"
    cap: Cap = "butt"
    dash: tuple[float, ...] = ()


@dataclass(frozen=True, slots=True)
class Rect:
    """A rectangle, filled and/or stroked (None: not)."""

    x: float
    y: float
    w: float
    h: float
    fill: str | None = None
    stroke: str | None = None
    width: float = 0.0
    dash: tuple[float, ...] = ()


@dataclass(frozen=True, slots=True)
class Circle:
    """A circle, filled and/or stroked."""

    cx: float
    cy: float
    r: float
    fill: str | None = None
    stroke: str | None = None
    width: float = 0.0


@dataclass(frozen=True, slots=True)
class Polyline:
    """Connected straight segments through `points`; `closed` joins the last to the
    first (and may be filled)."""

    points: tuple[Point, ...]
    width: float
    colour: str | None = "#000000"
    closed: bool = False
    fill: str | None = None
    dash: tuple[float, ...] = ()
    cap: Cap = "round"
    round_joins: bool = True


@dataclass(frozen=True, slots=True)
class Text:
    """One line of text: `x` is where `anchor` puts it, `y` its baseline."""

    x: float
    y: float
    text: str
    size: float
    colour: str = "#000000"
    bold: bool = False
    anchor: Anchor = "start"


Shape = Line | Rect | Circle | Polyline | Text


@dataclass
class Drawing:
    """A page: its size in millimetres and its shapes, drawn in order."""

    width: float
    height: float
    shapes: list[Shape] = field(default_factory=list)
    title: str = ""

    def add(self, shape: Shape) -> None:
        """Append one shape (drawn over the earlier ones)."""
        self.shapes.append(shape)

    def extend(self, shapes: list[Shape]) -> None:
        """Append shapes in order."""
        self.shapes.extend(shapes)


def centred_baseline(cy: float, size: float) -> float:
    """The baseline that centres capitals and digits of `size` on `cy`."""
    return cy + CAP_HEIGHT * size / 2
