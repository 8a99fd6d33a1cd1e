"""Drawings as a PDF 1.4 file, written directly (no dependency).

Each page's content stream first maps millimetres with y pointing down onto PDF points
(``cm``), so shapes are written in the drawing's own units; text is flipped back
upright by its text matrix. Text is set in the standard fonts Helvetica and
Helvetica-Bold with WinAnsiEncoding, which every PDF reader provides, so no font is
embedded and a page of puzzles takes a few kilobytes. Streams are deflated.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence

from .drawing import Circle, Drawing, Line, Polyline, Rect, Shape, Text
from .fonts import text_width
from .svg import number

POINTS_PER_MM = 72 / 25.4
_CAPS = {"butt": 0, "round": 1, "square": 2}
# A quarter circle as one cubic Bezier: control points at this fraction of the radius.
_KAPPA = 0.5522847498


def _colour(colour: str) -> str:
    value = int(colour.lstrip("#"), 16)
    return " ".join(number(((value >> shift) & 255) / 255) for shift in (16, 8, 0))


def _string(text: str) -> bytes:
    """A PDF literal string of `text` in WinAnsiEncoding (cp1252; others become '?')."""
    raw = text.encode("cp1252", errors="replace")
    out = bytearray(b"(")
    for byte in raw:
        if byte in b"()\\":
            out += b"\\" + bytes([byte])
        elif byte < 32 or byte > 126:
            out += b"\\%03o" % byte
        else:
            out.append(byte)
    out += b")"
    return bytes(out)


def _stroke_state(width: float, colour: str, dash: tuple[float, ...], cap: str) -> str:
    pattern = " ".join(number(d) for d in dash)
    return f"{number(width)} w {_colour(colour)} RG [{pattern}] 0 d {_CAPS[cap]} J"


def _circle_path(c: Circle) -> str:
    x, y, r = c.cx, c.cy, c.r
    k = _KAPPA * r
    n = number
    return (
        f"{n(x + r)} {n(y)} m "
        f"{n(x + r)} {n(y + k)} {n(x + k)} {n(y + r)} {n(x)} {n(y + r)} c "
        f"{n(x - k)} {n(y + r)} {n(x - r)} {n(y + k)} {n(x - r)} {n(y)} c "
        f"{n(x - r)} {n(y - k)} {n(x - k)} {n(y - r)} {n(x)} {n(y - r)} c "
        f"{n(x + k)} {n(y - r)} {n(x + r)} {n(y - k)} {n(x + r)} {n(y)} c h"
    )


def _paint_op(fill: str | None, stroke: str | None, width: float) -> str:
    if fill is not None and stroke is not None and width > 0:
        return "B"
    if fill is not None:
        return "f"
    return "S" if stroke is not None and width > 0 else "n"


def _shape_ops(shape: Shape) -> bytes:
    n = number
    if isinstance(shape, Text):
        font = "/F2" if shape.bold else "/F1"
        x = shape.x
        if shape.anchor != "start":
            width = text_width(shape.text, shape.size, shape.bold)
            x -= width / 2 if shape.anchor == "middle" else width
        s = n(shape.size)
        head = (
            f"BT {font} 1 Tf {_colour(shape.colour)} rg {s} 0 0 -{s} {n(x)} {n(shape.y)} Tm "
        ).encode()
        return head + _string(shape.text) + b" Tj ET"
    if isinstance(shape, Line):
        state = _stroke_state(shape.width, shape.colour, shape.dash, shape.cap)
        path = f"{n(shape.x1)} {n(shape.y1)} m {n(shape.x2)} {n(shape.y2)} l S"
        return f"{state} {path}".encode()
    if isinstance(shape, Rect):
        ops = []
        if shape.fill is not None:
            ops.append(f"{_colour(shape.fill)} rg")
        if shape.stroke is not None and shape.width > 0:
            ops.append(_stroke_state(shape.width, shape.stroke, shape.dash, "butt") + " 0 j")
        ops.append(f"{n(shape.x)} {n(shape.y)} {n(shape.w)} {n(shape.h)} re")
        ops.append(_paint_op(shape.fill, shape.stroke, shape.width))
        return " ".join(ops).encode()
    if isinstance(shape, Circle):
        ops = []
        if shape.fill is not None:
            ops.append(f"{_colour(shape.fill)} rg")
        if shape.stroke is not None and shape.width > 0:
            ops.append(_stroke_state(shape.width, shape.stroke, (), "butt"))
        ops.append(_circle_path(shape))
        ops.append(_paint_op(shape.fill, shape.stroke, shape.width))
        return " ".join(ops).encode()
    return _polyline_ops(shape).encode()


def _polyline_ops(shape: Polyline) -> str:
    n = number
    ops = []
    if shape.fill is not None:
        ops.append(f"{_colour(shape.fill)} rg")
    stroke = shape.colour if shape.width > 0 else None
    if stroke is not None:
        ops.append(_stroke_state(shape.width, stroke, shape.dash, shape.cap))
        ops.append("1 j" if shape.round_joins else "0 j")
    (x0, y0), *rest = shape.points
    path = [f"{n(x0)} {n(y0)} m"] + [f"{n(x)} {n(y)} l" for x, y in rest]
    if shape.closed:
        path.append("h")
    ops.append(" ".join(path))
    ops.append(_paint_op(shape.fill, stroke, shape.width))
    return " ".join(ops)


def page_content(drawing: Drawing) -> bytes:
    """The content stream of one page (uncompressed)."""
    k = number(POINTS_PER_MM)
    height = number(drawing.height * POINTS_PER_MM)
    ops = [f"{k} 0 0 -{k} 0 {height} cm".encode()]
    ops.extend(_shape_ops(shape) for shape in drawing.shapes)
    return b"\n".join(ops)


def to_pdf(pages: Sequence[Drawing], title: str = "") -> bytes:
    """The pages as one PDF document.

    Raises
    ------
    ValueError
        When there is no page.
    """
    if not pages:
        raise ValueError("a PDF needs at least one page")
    objects: list[bytes] = []

    def add(body: bytes) -> int:
        objects.append(body)
        return len(objects)

    catalog = add(b"")  # filled once the page tree's number is known
    tree = add(b"")
    regular = add(
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
    )
    bold = add(
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>"
    )
    info = add(
        b"<< /Producer (sudoku_fast) " + (b"/Title " + _string(title) if title else b"") + b" >>"
    )
    fonts = f"<< /Font << /F1 {regular} 0 R /F2 {bold} 0 R >> >>".encode()
    kids = []
    for page in pages:
        stream = zlib.compress(page_content(page), 6)
        content = add(
            f"<< /Length {len(stream)} /Filter /FlateDecode >>\nstream\n".encode()
            + stream
            + b"\nendstream"
        )
        w, h = number(page.width * POINTS_PER_MM), number(page.height * POINTS_PER_MM)
        kids.append(
            add(
                f"<< /Type /Page /Parent {tree} 0 R /MediaBox [0 0 {w} {h}] ".encode()
                + b"/Resources "
                + fonts
                + f" /Contents {content} 0 R >>".encode()
            )
        )
    objects[catalog - 1] = f"<< /Type /Catalog /Pages {tree} 0 R >>".encode()
    refs = " ".join(f"{kid} 0 R" for kid in kids)
    objects[tree - 1] = f"<< /Type /Pages /Kids [{refs}] /Count {len(kids)} >>".encode()
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number_, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{number_} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for offset in offsets:
        out += f"{offset:010d} 00000 n \n".encode()
    out += (
        f"trailer\n<< /Size {len(objects) + 1} /Root {catalog} 0 R /Info {info} 0 R >>\n"
        f"startxref\n{xref}\n%%EOF\n"
    ).encode()
    return bytes(out)
