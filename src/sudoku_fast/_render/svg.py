"""A drawing as SVG 1.1 text: the page in millimetres, shapes in user units of 1 mm."""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from .drawing import Circle, Drawing, Line, Rect, Shape, Text

# Helvetica where there is one; Arial, Liberation Sans and Nimbus Sans have its metrics.
FONT_FAMILY = "Helvetica, Arial, 'Liberation Sans', 'Nimbus Sans', 'DejaVu Sans', sans-serif"


def number(value: float) -> str:
    """A coordinate with at most three decimals and no trailing zeros."""
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


def _dash(dash: tuple[float, ...]) -> str:
    return f' stroke-dasharray="{" ".join(number(d) for d in dash)}"' if dash else ""


def _paint(fill: str | None, stroke: str | None, width: float) -> str:
    out = f' fill="{fill or "none"}"'
    if stroke is not None and width > 0:
        out += f' stroke="{stroke}" stroke-width="{number(width)}"'
    return out


def shape_svg(shape: Shape) -> str:
    """One shape as an SVG element."""
    if isinstance(shape, Text):
        weight = ' font-weight="bold"' if shape.bold else ""
        anchor = f' text-anchor="{shape.anchor}"' if shape.anchor != "start" else ""
        return (
            f'<text x="{number(shape.x)}" y="{number(shape.y)}" font-size="{number(shape.size)}"'
            f'{weight}{anchor} fill="{shape.colour}">{escape(shape.text)}</text>'
        )
    if isinstance(shape, Line):
        cap = f' stroke-linecap="{shape.cap}"' if shape.cap != "butt" else ""
        return (
            f'<line x1="{number(shape.x1)}" y1="{number(shape.y1)}" x2="{number(shape.x2)}" '
            f'y2="{number(shape.y2)}" stroke="{shape.colour}" '
            f'stroke-width="{number(shape.width)}"{cap}{_dash(shape.dash)}/>'
        )
    if isinstance(shape, Rect):
        return (
            f'<rect x="{number(shape.x)}" y="{number(shape.y)}" width="{number(shape.w)}" '
            f'height="{number(shape.h)}"{_paint(shape.fill, shape.stroke, shape.width)}'
            f"{_dash(shape.dash)}/>"
        )
    if isinstance(shape, Circle):
        return (
            f'<circle cx="{number(shape.cx)}" cy="{number(shape.cy)}" r="{number(shape.r)}"'
            f"{_paint(shape.fill, shape.stroke, shape.width)}/>"
        )
    points = " ".join(f"{number(x)},{number(y)}" for x, y in shape.points)
    tag = "polygon" if shape.closed else "polyline"
    joins = "round" if shape.round_joins else "miter"
    return (
        f'<{tag} points="{points}"{_paint(shape.fill, shape.colour, shape.width)}'
        f' stroke-linecap="{shape.cap}" stroke-linejoin="{joins}"{_dash(shape.dash)}/>'
    )


def to_svg(drawing: Drawing) -> str:
    """The whole drawing as a standalone SVG document (UTF-8 text)."""
    w, h = number(drawing.width), number(drawing.height)
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{w}mm" height="{h}mm" '
        f'viewBox="0 0 {w} {h}" font-family={quoteattr(FONT_FAMILY)}>'
    )
    parts = [head]
    if drawing.title:
        parts.append(f"<title>{escape(drawing.title)}</title>")
    parts.append(f'<rect width="{w}" height="{h}" fill="#ffffff"/>')
    parts.extend(shape_svg(shape) for shape in drawing.shapes)
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
