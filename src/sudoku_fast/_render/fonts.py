"""Character widths of the two fonts pages use, to centre and wrap text in a PDF.

PDF pages use the standard fonts Helvetica and Helvetica-Bold, which every PDF reader
has, so nothing is embedded. The widths (thousandths of the font size) of printable
ASCII are those of their Adobe Font Metrics; any other character counts as a digit's
width. SVG text is placed by the viewer's own font with `text-anchor`, so it needs none.
"""

from __future__ import annotations

# Codes 32 (space) to 126 (~).
_REGULAR = (
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278,
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556,
    1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778,
    667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556,
    333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556,
    556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
)
_BOLD = (
    278, 333, 474, 556, 556, 889, 722, 238, 333, 333, 389, 584, 278, 333, 278, 278,
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 333, 333, 584, 584, 584, 611,
    975, 722, 722, 722, 722, 667, 611, 778, 722, 278, 556, 722, 611, 833, 722, 778,
    667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 333, 278, 333, 584, 556,
    333, 556, 611, 556, 611, 556, 333, 611, 611, 278, 278, 556, 278, 889, 611, 611,
    611, 611, 389, 556, 333, 611, 556, 778, 556, 556, 500, 389, 280, 389, 584,
)
_DEFAULT = 556


def text_width(text: str, size: float, bold: bool = False) -> float:
    """The width of `text` set in Helvetica (or Helvetica-Bold) at `size`."""
    table = _BOLD if bold else _REGULAR
    total = 0
    for ch in text:
        code = ord(ch) - 32
        total += table[code] if 0 <= code < len(table) else _DEFAULT
    return total * size / 1000


def wrap(text: str, size: float, width: float, bold: bool = False) -> list[str]:
    """`text` broken at spaces into lines no wider than `width` (a longer word stands
    on a line of its own)."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        candidate = f"{line} {word}" if line else word
        if line and text_width(candidate, size, bold) > width:
            lines.append(line)
            line = word
        else:
            line = candidate
    if line:
        lines.append(line)
    return lines
