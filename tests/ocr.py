"""Reading a rendered page back as a reader would: rasterise, find the grids, OCR the digits.

Independent of the renderer's own layout: the page is rasterised by poppler
(`pdftoppm`; an SVG is first drawn by librsvg, `rsvg-convert`), the grids are found
from the long straight lines in the picture, the lines are then wiped out (a reader
looks past them; OCR does not) and tesseract reads what is left. Each symbol read is
placed in the cell of the found grid that holds the centre of its box.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

TOOLS = ("pdftoppm", "tesseract")


def have_tools(*extra: str) -> bool:
    """Whether the command-line tools the OCR check needs are installed."""
    return all(shutil.which(tool) for tool in (*TOOLS, *extra))


def read_pgm(path: Path) -> np.ndarray:
    """A binary PGM (P5, 8-bit) as a 2-D uint8 array."""
    data = path.read_bytes()
    fields: list[bytes] = []
    pos = 0
    while len(fields) < 4:
        while data[pos : pos + 1].isspace():
            pos += 1
        if data[pos : pos + 1] == b"#":
            pos = data.index(b"\n", pos) + 1
            continue
        end = pos
        while not data[end : end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    magic, width, height, maxval = fields[0], int(fields[1]), int(fields[2]), int(fields[3])
    if magic != b"P5" or maxval != 255:
        raise ValueError(f"{path}: not an 8-bit binary PGM")
    pixels = np.frombuffer(data, np.uint8, width * height, pos + 1)
    return pixels.reshape(height, width)


def rasterise_pdf(pdf: bytes, dpi: int, work: Path) -> list[np.ndarray]:
    """Every page of a PDF as a grey image, by pdftoppm."""
    source = work / "page.pdf"
    source.write_bytes(pdf)
    subprocess.run(
        ["pdftoppm", "-r", str(dpi), "-gray", str(source), str(work / "page")],
        check=True,
        capture_output=True,
    )
    return [read_pgm(p) for p in sorted(work.glob("page-*.pgm"), key=_page_number)]


def rasterise_svg(svg: str, dpi: int, work: Path) -> np.ndarray:
    """An SVG drawn by librsvg (rsvg-convert, to a PDF surface), rasterised by poppler."""
    source = work / "picture.svg"
    source.write_text(svg, encoding="utf-8")
    target = work / "picture.pdf"
    subprocess.run(
        ["rsvg-convert", "-f", "pdf", "-o", str(target), str(source)],
        check=True,
        capture_output=True,
    )
    return rasterise_pdf(target.read_bytes(), dpi, work)[0]


def _page_number(path: Path) -> int:
    return int(path.stem.rsplit("-", 1)[1])


def _runs(mask: np.ndarray, length: int) -> np.ndarray:
    """The pixels of `mask` that lie in a horizontal run of at least `length`."""
    height, width = mask.shape
    padded = np.zeros((height, width + 2), np.int8)
    padded[:, 1:-1] = mask
    flat = padded.ravel()
    step = np.diff(flat)
    starts = np.flatnonzero(step == 1) + 1  # first pixel of each run
    ends = np.flatnonzero(step == -1) + 1  # one past its last pixel
    keep = ends - starts >= length
    edges = np.zeros(flat.size + 1, np.int32)
    np.add.at(edges, starts[keep], 1)
    np.add.at(edges, ends[keep], -1)
    covered = np.cumsum(edges[:-1]) > 0
    return covered.reshape(height, width + 2)[:, 1:-1]


@dataclass(frozen=True)
class FoundGrid:
    """A grid found on the page: the pixel positions of its row and column lines."""

    rows: tuple[float, ...]
    cols: tuple[float, ...]

    @property
    def box(self) -> tuple[float, float, float, float]:
        return self.cols[0], self.rows[0], self.cols[-1], self.rows[-1]

    def cells_across(self, left: float, right: float, y: float) -> list[int | None]:
        """The cells of the row at `y` whose centres lie between left and right."""
        row = int(np.searchsorted(self.rows, y)) - 1
        n = len(self.cols) - 1
        if not 0 <= row < n:
            return []
        return [
            row * n + col
            for col in range(n)
            if left <= (self.cols[col] + self.cols[col + 1]) / 2 <= right
        ]

    def cell_at(self, x: float, y: float) -> int | None:
        """The cell (row-major) holding the point, or None outside the grid."""
        col = int(np.searchsorted(self.cols, x)) - 1
        row = int(np.searchsorted(self.rows, y)) - 1
        n = len(self.cols) - 1
        if 0 <= row < n and 0 <= col < n:
            return row * n + col
        return None


def _centres(indices: np.ndarray) -> list[tuple[int, int]]:
    """Consecutive runs of indices as (first, last)."""
    out: list[tuple[int, int]] = []
    for i in indices.tolist():
        if out and i == out[-1][1] + 1:
            out[-1] = (out[-1][0], i)
        else:
            out.append((i, i))
    return out


def find_grids(image: np.ndarray, size: int, min_line: int) -> tuple[list[FoundGrid], np.ndarray]:
    """The size x size grids drawn on the page, and the page with their lines wiped.

    Lines are dark runs of at least `min_line` pixels (longer than any glyph).
    Each grid is a square bounded by a set of horizontal and vertical lines; its
    N+1 row and column positions are read from the lines that cross it (box and
    cell lines alike), so the cells are where the picture puts them.
    """
    dark = image < 160
    horizontal = _runs(dark, min_line)
    vertical = _runs(dark.T, min_line).T
    lines = horizontal | vertical
    # Widen the wipe by a pixel for the anti-aliased edges of the lines.
    grown = lines.copy()
    grown[1:, :] |= lines[:-1, :]
    grown[:-1, :] |= lines[1:, :]
    grown[:, 1:] |= lines[:, :-1]
    grown[:, :-1] |= lines[:, 1:]
    cleaned = np.where(grown, 255, image).astype(np.uint8)
    grids: list[FoundGrid] = []
    # Horizontal lines as (y, x_start, x_end), vertical ones as (x, y_start, y_end).
    h_lines = []
    for first, last in _centres(np.flatnonzero(horizontal.any(axis=1))):
        band = horizontal[first : last + 1].any(axis=0)
        for x0, x1 in _centres(np.flatnonzero(band)):
            h_lines.append(((first + last) / 2, x0, x1))
    v_lines = []
    for first, last in _centres(np.flatnonzero(vertical.any(axis=0))):
        band = vertical[:, first : last + 1].any(axis=1)
        for y0, y1 in _centres(np.flatnonzero(band)):
            v_lines.append(((first + last) / 2, y0, y1))
    # A grid's border: its top line's extent gives its columns; the vertical lines
    # spanning that extent's height give the rest.
    used: set[int] = set()
    for i, (y, x0, x1) in enumerate(h_lines):
        if i in used or x1 - x0 < min_line:
            continue
        rows = [
            (k, yy) for k, (yy, a, b) in enumerate(h_lines)
            if abs(a - x0) <= 3 and abs(b - x1) <= 3 and yy >= y
        ]  # fmt: skip
        if len(rows) < size + 1:
            continue
        rows = rows[: size + 1]
        bottom = rows[-1][1]
        cols = sorted(
            xx for xx, a, b in v_lines
            if x0 - 3 <= xx <= x1 + 3 and abs(a - y) <= 4 and abs(b - bottom) <= 4
        )  # fmt: skip
        if len(cols) != size + 1:
            continue
        used.update(k for k, _ in rows)
        grids.append(FoundGrid(tuple(yy for _, yy in rows), tuple(cols)))
    return grids, cleaned


def write_pgm(image: np.ndarray, path: Path) -> None:
    """A 2-D uint8 array as a binary PGM."""
    height, width = image.shape
    path.write_bytes(b"P5\n%d %d\n255\n" % (width, height) + image.tobytes())


def ocr_words(
    image: np.ndarray, symbols: str, work: Path
) -> list[tuple[str, float, float, float, float]]:
    """tesseract's words on the image: (text, left, top, right, bottom).

    The page is read as a block of text lines (--psm 6: a grid's rows are lines),
    only `symbols` allowed.
    """
    source = work / "clean.pgm"
    write_pgm(image, source)
    result = subprocess.run(
        ["tesseract", str(source), "stdout", "--psm", "6", "-c",
         f"tessedit_char_whitelist={symbols}", "tsv"],
        check=True, capture_output=True, text=True,
        env={**os.environ, "OMP_THREAD_LIMIT": "1"},
    )  # fmt: skip
    words = []
    for line in result.stdout.splitlines()[1:]:
        fields = line.split("\t")
        if len(fields) == 12 and fields[0] == "5" and fields[11].strip():
            left, top, width, height = (float(v) for v in fields[6:10])
            words.append((fields[11].strip(), left, top, left + width, top + height))
    return words


def read_grids(
    image: np.ndarray, size: int, symbols: str, dpi: int, work: Path
) -> list[dict[int, str]]:
    """For each grid found on the page (top to bottom, left to right), the symbol read
    in each cell where one was read.

    A reader takes a grid cell by cell; OCR reads a row of cells as a word and then
    guesses at it like at a word of a language. So each cell's inside (wiped of the
    lines) is copied onto a sheet of its own, its row's cells two cell widths apart,
    and tesseract reads the sheet once; a character's place on the sheet says its cell.
    """
    min_line = int(dpi * 12 / 25.4)  # 12 mm: longer than any glyph
    grids, cleaned = find_grids(image, size, min_line)
    grids.sort(key=lambda g: (round(g.rows[0] / 20), g.cols[0]))
    if not grids:
        return []
    tile = int(min(min(np.diff(g.rows).min(), np.diff(g.cols).min()) for g in grids))
    margin = max(1, tile // 10)
    inner = tile - 2 * margin
    pitch_x, pitch_y = 3 * inner, inner + inner // 2
    lines = len(grids) * size
    sheet = np.full((lines * pitch_y + pitch_y, size * pitch_x + pitch_x), 255, np.uint8)
    for g, grid in enumerate(grids):
        for cell in range(size * size):
            r, c = divmod(cell, size)
            y0, x0 = round(grid.rows[r]) + margin, round(grid.cols[c]) + margin
            piece = cleaned[y0 : y0 + inner, x0 : x0 + inner]
            top, left = (g * size + r) * pitch_y + pitch_y // 2, c * pitch_x + inner
            sheet[top : top + piece.shape[0], left : left + piece.shape[1]] = piece
    found: list[dict[int, str]] = [{} for _ in grids]
    for text, left, top, right, bottom in ocr_words(sheet, symbols, work):
        line = int((top + bottom) / 2 - pitch_y // 2) // pitch_y
        col = int((left + right) / 2 - inner) // pitch_x
        if not (0 <= line < lines and 0 <= col < size):
            continue
        g, r = divmod(line, size)
        cell = r * size + col
        found[g][cell] = found[g].get(cell, "") + text
    return found


def workdir() -> tempfile.TemporaryDirectory[str]:
    """A scratch folder for one page's files."""
    return tempfile.TemporaryDirectory(prefix="sudoku-ocr-", dir=os.environ.get("TMPDIR"))
