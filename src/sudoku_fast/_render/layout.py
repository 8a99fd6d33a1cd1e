"""Grids placed on pages: puzzle books with answer pages, and solving-path sheets.

A book page holds `per_page` puzzles in the arrangement of columns and rows that gives
the largest cells, each with its number above and its caption below; the answers
follow on pages of their own, more to a page, each solution with its givens in bold.
A solving-path sheet gives each step a row: the board before the step with its pencil
marks and the step highlighted, and beside it the step's name, rating and explanation.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from .drawing import Drawing, Line, Shape, Text
from .fonts import wrap
from .grid import GridContent, draw_grid

PageSize = Literal["A4", "A5", "Letter"]
PAGE_SIZES: dict[str, tuple[float, float]] = {
    "A4": (210.0, 297.0),
    "A5": (148.0, 210.0),
    "Letter": (215.9, 279.4),
}
TEXT = "#111827"
MUTED = "#4b5563"


@dataclass(frozen=True)
class Frame:
    """The printable area of a page and its furniture."""

    width: float
    height: float
    margin: float

    @property
    def inner_width(self) -> float:
        return self.width - 2 * self.margin


def frame_for(page_size: str) -> Frame:
    """The frame of a page size (A5 gets narrower margins)."""
    width, height = PAGE_SIZES[page_size]
    return Frame(width, height, 12.0 if page_size == "A5" else 15.0)


def _furniture(frame: Frame, title: str, heading: str, page_number: int) -> tuple[Drawing, float]:
    """A new page with its title or heading and page number; returns it and the y
    where content may start."""
    page = Drawing(frame.width, frame.height, title=title)
    y = frame.margin
    if heading:
        size = 7.0
        page.add(Text(frame.width / 2, y + size * 0.8, heading, size, TEXT, True, "middle"))
        y += size * 1.6
    elif title:
        size = 3.6
        page.add(Text(frame.width / 2, y + size * 0.8, title, size, MUTED, False, "middle"))
        y += size * 2.2
    footer = 3.4
    page.add(
        Text(frame.width / 2, frame.height - frame.margin / 2, str(page_number), footer, MUTED,
             False, "middle")
    )  # fmt: skip
    return page, y


def arrangement(count: int, width: float, height: float, extra: float) -> tuple[int, int]:
    """(columns, rows) for `count` square grids in a width x height area that gives
    each the largest side; `extra` is the height each slot needs besides its grid."""
    best = (1, count)
    best_side = -1.0
    for cols in range(1, count + 1):
        rows = math.ceil(count / cols)
        side = min(width / cols, height / rows - extra)
        if side > best_side + 1e-9:
            best, best_side = (cols, rows), side
    return best


@dataclass(frozen=True)
class BookEntry:
    """One puzzle of a book: its grid, its answer, its label and caption."""

    puzzle: GridContent
    answer: GridContent | None
    label: str
    caption: str


def book_pages(
    entries: Sequence[BookEntry],
    *,
    size: int,
    page_size: str,
    per_page: int,
    answers_per_page: int,
    title: str,
    max_cell: float = 15.0,
) -> list[Drawing]:
    """The puzzle pages, then (when the entries have answers) the answer pages."""
    frame = frame_for(page_size)
    pages: list[Drawing] = []
    _grid_pages(pages, frame, entries, size, per_page, title, title, False, max_cell)
    if any(entry.answer is not None for entry in entries):
        _grid_pages(pages, frame, entries, size, answers_per_page, title, "Answers", True, max_cell)
    return pages


def _grid_pages(
    pages: list[Drawing],
    frame: Frame,
    entries: Sequence[BookEntry],
    size: int,
    per_page: int,
    title: str,
    first_heading: str,
    answers: bool,
    max_cell: float,
) -> None:
    label_size = 3.6
    caption_size = 3.0
    captions = not answers and any(entry.caption for entry in entries)
    labels = any(entry.label for entry in entries)
    above = label_size * 1.6 if labels else 0.0
    below = caption_size * 1.9 if captions else 0.0
    gap = 8.0
    for start in range(0, len(entries), per_page):
        chunk = entries[start : start + per_page]
        heading = first_heading if start == 0 else ""
        page, top = _furniture(frame, title, heading, len(pages) + 1)
        bottom = frame.height - frame.margin - 4.0
        width, height = frame.inner_width, bottom - top
        cols, rows = arrangement(per_page, width + gap, height + gap, above + below + gap)
        slot_w = (width + gap) / cols
        slot_h = (height + gap) / rows
        cell = min((slot_w - gap) / size, (slot_h - gap - above - below) / size, max_cell)
        side = cell * size
        used_w = cols * side + (cols - 1) * gap
        used_h = rows * (side + above + below) + (rows - 1) * gap
        x_start = frame.margin + (width - used_w) / 2
        y_start = top + max(0.0, (height - used_h) / 2)
        for k, entry in enumerate(chunk):
            col, row = k % cols, k // cols
            x = x_start + col * (side + gap)
            y = y_start + row * (side + above + below + gap)
            if entry.label:
                page.add(Text(x, y + label_size, entry.label, label_size, TEXT, True))
            content = entry.answer if answers else entry.puzzle
            if content is None:
                page.add(Text(x, y + above + side / 2, "no unique solution", 3.2, MUTED))
                continue
            page.extend(draw_grid(content, x, y + above, cell))
            if captions and entry.caption:
                page.add(
                    Text(x + side / 2, y + above + side + caption_size * 1.5, entry.caption,
                         caption_size, MUTED, False, "middle")
                )  # fmt: skip
        pages.append(page)


@dataclass(frozen=True)
class SheetRow:
    """One row of a solving-path sheet: a grid and the lines of text beside it."""

    grid: GridContent
    heading: str
    lines: tuple[str, ...]


def sheet_pages(
    rows: Sequence[SheetRow],
    *,
    size: int,
    page_size: str,
    title: str,
    intro: Sequence[str] = (),
    rows_per_page: int = 3,
) -> list[Drawing]:
    """Pages of `rows`, `rows_per_page` to a page, the title and `intro` lines first."""
    frame = frame_for(page_size)
    pages: list[Drawing] = []
    text_size = 3.3
    heading_size = 3.9
    gap = 7.0
    page: Drawing | None = None
    y = 0.0
    top = 0.0
    row_h = 0.0
    grid_side = 0.0
    for index, row in enumerate(rows):
        if page is None or index % rows_per_page == 0:
            if page is not None:
                pages.append(page)
            page, top = _furniture(frame, title, title if not pages else "", len(pages) + 1)
            if not pages:
                for line in intro:
                    page.add(Text(frame.margin, top + text_size, line, text_size, MUTED))
                    top += text_size * 1.5
                top += 2.0
            available = frame.height - frame.margin - 6.0 - top
            row_h = (available - (rows_per_page - 1) * gap) / rows_per_page
            grid_side = min(row_h, frame.inner_width * 0.5)
            y = top
        cell = grid_side / size
        x = frame.margin
        page.extend(draw_grid(row.grid, x, y, cell))
        tx = x + grid_side + 6.0
        text_w = frame.width - frame.margin - tx
        ty = y + heading_size
        for line in wrap(row.heading, heading_size, text_w, bold=True):
            page.add(Text(tx, ty, line, heading_size, TEXT, True))
            ty += heading_size * 1.35
        ty += 1.0
        for paragraph in row.lines:
            for line in wrap(paragraph, text_size, text_w):
                if ty > y + row_h:
                    break
                page.add(Text(tx, ty, line, text_size, TEXT))
                ty += text_size * 1.4
            ty += 1.2
        y += row_h + gap
        if index % rows_per_page != rows_per_page - 1 and index != len(rows) - 1:
            page.add(Line(frame.margin, y - gap / 2, frame.width - frame.margin, y - gap / 2,
                          0.15, "#d1d5db"))  # fmt: skip
    if page is None:  # no step at all (a full grid): the title and intro alone
        page, top = _furniture(frame, title, title, 1)
        for line in intro:
            page.add(Text(frame.margin, top + text_size, line, text_size, MUTED))
            top += text_size * 1.5
    pages.append(page)
    return pages


def single_picture(
    content: GridContent,
    cell: float,
    caption: str,
    title: str,
    margin: float = 2.0,
    legend: str = "",
) -> Drawing:
    """One grid on a page just its size, with the caption (up to three lines) and the
    legend of its rules (up to two) below."""
    side = content.geometry.size * cell
    caption_size = max(2.6, min(4.0, side / 28))
    lines = wrap(caption, caption_size, side)[:3] if caption else []
    lines += wrap(legend, caption_size, side)[:2] if legend else []
    extra = caption_size * (0.9 + 1.3 * len(lines)) if lines else 0.0
    drawing = Drawing(side + 2 * margin, side + 2 * margin + extra, title=title)
    shapes: list[Shape] = draw_grid(content, margin, margin, cell)
    drawing.extend(shapes)
    y = margin + side + caption_size * 1.5
    for k, line in enumerate(lines):
        drawing.add(
            Text(margin + side / 2, y + k * caption_size * 1.3, line, caption_size, MUTED,
                 False, "middle")
        )  # fmt: skip
    return drawing
