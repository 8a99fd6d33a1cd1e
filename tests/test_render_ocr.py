"""Rendered pages read back as a reader reads them: rasterised by real renderers, then OCR.

For 50 puzzles each of 9x9, 6x6 and 16x16, the book's pages are rasterised twice: the
PDF by poppler (pdftoppm) and each page's SVG by librsvg (rsvg-convert). On every
picture the grids are found from their lines, and tesseract must read at least 99% of
the givens in the right cells, and read next to nothing in empty ones (see ocr.py).

Runs where pdftoppm, rsvg-convert and tesseract are installed (.ci/run installs them).
The rendering does not depend on the engine's instruction set, so the runs of the
suite under a forced SUDOKU_FAST_ISA leave it out.
"""

from __future__ import annotations

import csv
import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from ocr import have_tools, rasterise_pdf, rasterise_svg, read_grids, workdir

import sudoku_fast as sf

DATA = Path(__file__).parent / "data"
DPI = 150
COUNT = 50

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not have_tools("rsvg-convert"), reason="needs pdftoppm, rsvg-convert and tesseract"
    ),
    pytest.mark.skipif(
        bool(os.environ.get("SUDOKU_FAST_ISA")),
        reason="rendering is the same under every engine build; checked in the main run",
    ),
]


def _column(name: str, count: int) -> list[str]:
    with open(DATA / name, newline="", encoding="utf-8") as f:
        return [row["puzzle"] for row, _ in zip(csv.DictReader(f), range(count), strict=False)]


def puzzles_of(size: int) -> list[str]:
    """50 puzzles of the size: public sets for 9x9 and 16x16, generated 6x6 ones."""
    if size == 9:
        with open(DATA / "kaggle_bryanpark_sample500_with_solutions.csv", encoding="utf-8") as f:
            rows = list(csv.reader(f))[1 : COUNT + 1]
        return [row[0] for row in rows]
    if size == 16:
        return _column("sudoku16_goomii_sample100_with_solutions.csv", COUNT)
    return sf.generate_many(COUNT, size=size, seed=36)


def score(puzzles: list[str], found: list[dict[int, str]]) -> tuple[int, int, int]:
    """(givens read right, givens, symbols read in cells that hold no given)."""
    assert len(found) == len(puzzles), f"{len(found)} grids found for {len(puzzles)} puzzles"
    right = total = stray = 0
    for puzzle, read in zip(puzzles, found, strict=True):
        for cell, symbol in enumerate(puzzle):
            if symbol == ".":
                stray += cell in read
            else:
                total += 1
                right += read.get(cell) == symbol
    return right, total, stray


def _read(image: object, size: int, symbols: str) -> list[dict[int, str]]:
    with workdir() as scratch:
        return read_grids(image, size, symbols, DPI, Path(scratch))  # type: ignore[arg-type]


@pytest.mark.parametrize("size", [9, 6, 16])
def test_givens_read_back_from_the_pdf_and_the_svg_pages(size: int) -> None:
    puzzles = [sf.parse(p) for p in puzzles_of(size)]
    symbols = sf.geometry_for(size).symbols
    per_page = 2 if size == 16 else 6
    book = sf.render_book(puzzles, per_page=per_page, answers=False, title=f"{size}x{size}")
    with workdir() as scratch:
        work = Path(scratch)
        pdf_pages = rasterise_pdf(book.pdf(), DPI, work)
        svg_pages = [rasterise_svg(str(page), DPI, work) for page in book]
    # tesseract runs as a process of its own: two at once use both cores.
    with ThreadPoolExecutor(2) as pool:
        read_pdf = list(pool.map(lambda image: _read(image, size, symbols), pdf_pages))
        read_svg = list(pool.map(lambda image: _read(image, size, symbols), svg_pages))
    for renderer, pages in (("pdftoppm", read_pdf), ("rsvg-convert", read_svg)):
        found = [grid for page in pages for grid in page]
        right, total, stray = score(puzzles, found)
        print(f"{size}x{size} via {renderer}: {right}/{total} givens read ({right / total:.2%}), "
              f"{stray} stray symbols, {len(found)} grids on {len(pages)} pages")  # fmt: skip
        assert right >= 0.99 * total, (renderer, right, total)
        assert stray <= 0.01 * total, (renderer, stray, total)
