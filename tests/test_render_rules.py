"""Variant rules drawn (`render(..., rules=)`), checked as a reader sees them.

The SVG's structure is checked directly; the pictures are also rasterised by real
renderers (librsvg's rsvg-convert, then poppler's pdftoppm) and read back: the grid is
found from its lines (tests/ocr.py, independent of the renderer's layout), jigsaw
borders by the darkness along every cell edge, thermometer bulbs and windows by the
grey inside the cells, the diagonals by the pixels on them, and tesseract reads every
killer cage's sum and the legend.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import sudoku_fast as sf
from sudoku_fast._render.overlays import CellLine, Region, rules_legend, rules_overlays

SOLUTION = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
# A 9x9 jigsaw layout: rows of region labels, nine connected regions of nine cells.
JIGSAW = (
    "111222333" "111222233" "411152233" "444555633" "444556666"
    "477555666" "477889996" "777888999" "778888999"
)  # fmt: skip
SVG_NS = "{http://www.w3.org/2000/svg}"


def killer_cages(solution: str, seed: int) -> tuple[sf.Cage, ...]:
    """Cages of 1-4 cells covering the grid, grown at random, with the solution's sums."""
    rng = random.Random(seed)
    free = set(range(81))
    cages = []
    while free:
        start = min(free)
        cells = [start]
        free.discard(start)
        for _ in range(rng.randrange(0, 4)):
            options = sorted(
                n for c in cells for n in _neighbours(c)
                if n in free and solution[n] not in {solution[x] for x in cells}
            )  # fmt: skip
            if not options:
                break
            pick = rng.choice(options)
            cells.append(pick)
            free.discard(pick)
        cages.append(sf.Cage(cells, sum(int(solution[c]) for c in cells)))
    return tuple(cages)


def _neighbours(cell: int) -> list[int]:
    r, c = divmod(cell, 9)
    return [rr * 9 + cc for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
            if 0 <= rr < 9 and 0 <= cc < 9]  # fmt: skip


# ------------------------------------------------------------------ the SVG itself


def test_rules_draw_what_the_overlays_draw() -> None:
    cages = killer_cages(SOLUTION, 1)
    rules = sf.Rules(cages=cages, thermos=((0, 1, 2),), diagonals=True)
    by_rules = sf.render("." * 81, rules=rules)
    diagonals = [CellLine(range(0, 81, 10), "diagonal"), CellLine(range(8, 80, 8), "diagonal")]
    by_hand = sf.render("." * 81, overlays=[*diagonals, *cages, CellLine((0, 1, 2), "thermometer")])
    assert by_rules == by_hand
    texts = [t.text for t in ET.fromstring(by_rules).iter(f"{SVG_NS}text")]
    assert sorted(int(t) for t in texts if t) == sorted(c.total for c in cages)  # type: ignore[misc]


def test_overlays_of_every_rule() -> None:
    rules = sf.Rules(
        regions=JIGSAW, windoku=True, extra=((0, 1, 2),), diagonals=True,
        cages=(sf.Cage((3, 4), 3),), thermos=((10, 11),),
    )  # fmt: skip
    drawn = rules_overlays(rules, 9)
    boxes = [o for o in drawn if isinstance(o, Region) and o.kind == "box"]
    assert sorted(sorted(b.cells) for b in boxes) == sorted(
        [c for c in range(81) if JIGSAW[c] == label] for label in "123456789"
    )
    windows = [o.cells for o in drawn if isinstance(o, Region) and o.kind == "extra"]
    assert (10, 11, 12, 19, 20, 21, 28, 29, 30) in windows and (0, 1, 2) in windows
    assert len(windows) == 5
    assert rules_legend(rules) == ""
    flags = sf.Rules(anti_knight=True, anti_king=True, non_consecutive=True, disjoint=True)
    assert rules_legend(flags) == "Also: anti-knight, anti-king, non-consecutive, disjoint groups"
    assert rules_overlays(flags, 9) == ()


def test_jigsaw_borders_replace_the_box_lines() -> None:
    svg = sf.render("." * 81, rules={"regions": JIGSAW})
    widths = sorted({float(e.get("stroke-width", 0)) for e in ET.fromstring(svg).iter()
                     if e.tag == f"{SVG_NS}line"})  # fmt: skip
    assert len(widths) == 2  # hairlines and region borders, no box lines
    classic = sf.render("." * 81)
    assert svg != classic


def test_legend_and_errors() -> None:
    svg = sf.render("." * 81, rules="anti-knight,non-consecutive")
    assert "Also: anti-knight, non-consecutive" in svg
    with pytest.raises(ValueError, match="cage 0: sum 40"):
        sf.render("." * 81, rules={"cages": [{"cells": [0, 1], "sum": 40}]})
    with pytest.raises(ValueError, match="regions: 16 labels"):
        sf.render("." * 81, rules={"regions": "1" * 16})
    with pytest.raises(ValueError, match="classic rating"):
        sf.render("." * 81, rules="x", caption=True)
    with pytest.raises(ValueError, match="classic candidates"):
        sf.render("." * 81, rules="x", pencil="auto")
    with pytest.raises(ValueError, match="unknown variant"):
        sf.render("." * 81, rules="zigzag")


def test_the_solution_is_found_under_the_rules() -> None:
    # An X puzzle with clues removed while X rules keep it unique: classic rules
    # then give it several solutions, so only the X engine can draw its answer.
    rng = random.Random(5)
    grid = list(sf.solve("." * 81, rules="x") or "")
    for cell in rng.sample(range(81), 81):
        digit, grid[cell] = grid[cell], "."
        if sf.count_solutions("".join(grid), rules="x") != 1:
            grid[cell] = digit
    puzzle = "".join(grid)
    assert sf.count_solutions(puzzle) > 1
    with pytest.raises(ValueError, match="several"):
        sf.render(puzzle, solution=True)
    svg = sf.render(puzzle, rules="x", solution=True)
    shown = [t.text for t in ET.fromstring(svg).iter(f"{SVG_NS}text")]
    assert "".join(t for t in shown if t) == sf.solve(puzzle, rules="x")


def test_prime_jigsaw_and_a_book() -> None:
    regions = "1112211222333443554435554"
    svg = sf.render("1" + "." * 24, rules={"regions": regions})
    assert svg.startswith("<svg")
    cages = killer_cages(SOLUTION, 2)
    rules = [sf.Rules(cages=cages), sf.Rules.named("x", "anti-king")]
    book = sf.render_book(["." * 81, "." * 81], rules=rules, answers=False, per_page=2)
    page = book[0]
    assert "Also: anti-king" in page
    assert page.count("stroke-dasharray") > len(cages)
    with pytest.raises(ValueError, match="puzzle 1: cage 0"):
        sf.render_book(["." * 81] * 2, rules=[None, {"cages": [{"cells": [0, 1], "sum": 2}]}])
    with pytest.raises(ValueError, match="2 rule sets for 1 puzzles"):
        sf.render_book(["." * 81], rules=["x", None], answers=False)


# ------------------------------------------------------------------ read back from pixels

ocr = pytest.importorskip("ocr")
needs_tools = pytest.mark.skipif(
    not ocr.have_tools("rsvg-convert"), reason="needs pdftoppm, rsvg-convert and tesseract"
)
DPI = 200


def _picture(svg: str, tmp_path: Path, dpi: int = DPI):  # type: ignore[no-untyped-def]
    """The picture rasterised at `dpi`, and its grid found (at DPI, where the line
    finder's tolerances are set, then scaled)."""
    image = ocr.rasterise_svg(svg, DPI, tmp_path)
    grids, _ = ocr.find_grids(image, 9, int(DPI * 12 / 25.4))
    assert len(grids) == 1, "the grid is not found on the picture"
    grid = grids[0]
    if dpi != DPI:
        for old in tmp_path.glob("page-*.pgm"):
            old.unlink()
        image = ocr.rasterise_svg(svg, dpi, tmp_path)
        scale = dpi / DPI
        grid = ocr.FoundGrid(
            tuple(y * scale for y in grid.rows), tuple(x * scale for x in grid.cols)
        )
    return image, grid


@needs_tools
def test_jigsaw_borders_are_where_the_regions_change(tmp_path: Path) -> None:
    image, grid = _picture(sf.render("." * 81, rules={"regions": JIGSAW}), tmp_path, 300)
    dark = image < 128
    thick, thin = [], []
    for r in range(9):
        for c in range(9):
            for rr, cc in ((r, c + 1), (r + 1, c)):
                if rr > 8 or cc > 8:
                    continue
                if cc != c:  # a vertical edge between (r, c) and (r, c + 1)
                    x = round(grid.cols[c + 1])
                    y0, y1 = grid.rows[r], grid.rows[r + 1]
                    ys = range(round(y0 + 0.3 * (y1 - y0)), round(y1 - 0.3 * (y1 - y0)))
                    width = sum(dark[y, x - 9 : x + 10].sum() for y in ys) / len(ys)
                else:
                    y = round(grid.rows[r + 1])
                    x0, x1 = grid.cols[c], grid.cols[c + 1]
                    xs = range(round(x0 + 0.3 * (x1 - x0)), round(x1 - 0.3 * (x1 - x0)))
                    width = sum(dark[y - 9 : y + 10, x].sum() for x in xs) / len(xs)
                changes = JIGSAW[r * 9 + c] != JIGSAW[rr * 9 + cc]
                (thick if changes else thin).append(width)
    assert len(thick) > 20 and len(thin) > 80
    # Region borders are three times as heavy as cell lines (0.6 mm against 0.2 mm).
    assert min(thick) > 1.8 * max(thin), (min(thick), max(thin))


@needs_tools
def test_thermometer_bulb_windows_and_diagonals(tmp_path: Path) -> None:
    thermo = (40, 31, 22, 23)  # bulb in the centre, rising up and right
    rules = sf.Rules(thermos=(thermo,), windoku=True, diagonals=True)
    image, grid = _picture(sf.render("." * 81, rules=rules), tmp_path)

    def inside(cell: int, low: int, high: int) -> float:
        r, c = divmod(cell, 9)
        y0, y1 = round(grid.rows[r]) + 4, round(grid.rows[r + 1]) - 4
        x0, x1 = round(grid.cols[c]) + 4, round(grid.cols[c + 1]) - 4
        piece = image[y0:y1, x0:x1]
        return float(((piece >= low) & (piece <= high)).mean())

    grey = {cell: inside(cell, 150, 215) for cell in range(81)}  # the thermometer's grey
    assert grey[40] > 0.3, grey[40]  # the bulb: a disc of 0.36 cells' radius
    assert all(0.08 < grey[c] < grey[40] - 0.1 for c in thermo[1:]), [grey[c] for c in thermo]
    diagonal = {r * 9 + r for r in range(9)} | {r * 9 + 8 - r for r in range(9)}
    others = [grey[c] for c in range(81) if c not in thermo and c not in diagonal]
    assert max(others) < 0.05
    windows = {
        (top + i) * 9 + left + j for top in (1, 5) for left in (1, 5)
        for i in range(3) for j in range(3)
    }  # fmt: skip
    shade = {cell: inside(cell, 220, 238) for cell in range(81)}  # #e5e7eb
    for cell in set(range(81)) - set(thermo) - diagonal:
        if cell in windows:
            assert shade[cell] > 0.8, (cell, shade[cell])
        else:
            assert shade[cell] < 0.05, (cell, shade[cell])
    # The diagonals pass through the centres of their cells, and no line through others.
    for cell in range(81):
        if cell in thermo:
            continue
        r, c = divmod(cell, 9)
        y = round((grid.rows[r] + grid.rows[r + 1]) / 2)
        x = round((grid.cols[c] + grid.cols[c + 1]) / 2)
        darkest = int(image[y - 2 : y + 3, x - 2 : x + 3].min())
        assert (darkest < 160) == (cell in diagonal), (cell, darkest)


def _glyphs(piece, side: float):  # type: ignore[no-untyped-def]
    """The crop with only its digit-sized dark shapes kept: connected dark pixels between
    0.12 and 0.2 cells tall (the sum's digits; not the dashes of the cage, 0.08 cells
    long, nor the grid lines crossing the whole crop)."""
    import numpy as np

    dark = piece < 128
    seen = np.zeros_like(dark)
    keep = np.zeros_like(dark)
    height, width = dark.shape
    for y0 in range(height):
        for x0 in range(width):
            if not dark[y0, x0] or seen[y0, x0]:
                continue
            stack, blob = [(y0, x0)], []
            seen[y0, x0] = True
            while stack:
                y, x = stack.pop()
                blob.append((y, x))
                for yy, xx in ((y - 1, x), (y + 1, x), (y, x - 1), (y, x + 1)):
                    if 0 <= yy < height and 0 <= xx < width and dark[yy, xx] and not seen[yy, xx]:
                        seen[yy, xx] = True
                        stack.append((yy, xx))
            ys = [y for y, _ in blob]
            if 0.12 * side <= max(ys) - min(ys) + 1 <= 0.2 * side:
                for y, x in blob:
                    keep[y, x] = True
    return np.where(keep, 0, 255).astype(np.uint8)


def _read_number(image, tmp_path: Path) -> str:  # type: ignore[no-untyped-def]
    import numpy as np

    padded = np.full((image.shape[0] + 40, image.shape[1] + 40), 255, np.uint8)
    padded[20:-20, 20:-20] = image
    source = tmp_path / "label.pgm"
    ocr.write_pgm(padded, source)
    read = ""
    for mode in ("7", "8", "10"):  # a line of text; a word; a lone character
        out = subprocess.run(
            ["tesseract", str(source), "stdout", "--psm", mode, "-c",
             "tessedit_char_whitelist=0123456789"],
            check=True, capture_output=True, text=True,
        )  # fmt: skip
        read = re.sub(r"\s", "", out.stdout)
        if read:
            break
    return read


def _corner(image, grid, cell: int):  # type: ignore[no-untyped-def]
    """The top-left corner of a cell, where a cage's sum is written, digits only."""
    r, c = divmod(cell, 9)
    x0, y0 = grid.cols[c], grid.rows[r]
    side = grid.cols[c + 1] - x0
    piece = image[round(y0 + 0.02 * side) : round(y0 + 0.32 * side),
                  round(x0 + 0.02 * side) : round(x0 + 0.45 * side)]  # fmt: skip
    return _glyphs(piece, side)


@needs_tools
def test_cage_sums_are_read_back_in_the_cages_top_left_cells(tmp_path: Path) -> None:
    cages = killer_cages(SOLUTION, 3)
    image, grid = _picture(sf.render("." * 81, rules=sf.Rules(cages=cages)), tmp_path, 400)
    read = {k: _read_number(_corner(image, grid, min(cage.cells)), tmp_path)
            for k, cage in enumerate(cages)}  # fmt: skip
    wrong = {k: (read[k], cages[k].total) for k in read if read[k] != str(cages[k].total)}
    assert not wrong, wrong
    # And no sum in the cells that do not start a cage.
    starts = {min(c.cells) for c in cages}
    for cell in set(range(81)) - starts:
        assert not (_corner(image, grid, cell) < 128).any(), cell


@needs_tools
def test_the_legend_is_read_under_the_grid(tmp_path: Path) -> None:
    svg = sf.render("." * 81, rules="anti-knight,non-consecutive", cell_mm=12)
    image, grid = _picture(svg, tmp_path, 300)
    below = image[round(grid.rows[-1]) + 10 :, :]
    source = tmp_path / "legend.pgm"
    ocr.write_pgm(below.copy(), source)
    out = subprocess.run(
        ["tesseract", str(source), "stdout", "--psm", "6"],
        check=True, capture_output=True, text=True,
    ).stdout.lower()  # fmt: skip
    assert "anti-knight" in out and "non-consecutive" in out, out


# ------------------------------------------------------------------ the command line


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sudoku_fast", *args], capture_output=True, text=True
    )


def test_cli_render_with_rules(tmp_path: Path) -> None:
    puzzles = tmp_path / "p.txt"
    puzzles.write_text("." * 80 + "1\n")
    rules = tmp_path / "r.json"
    rules.write_text(sf.Rules(cages=killer_cages(SOLUTION, 4)).dumps())
    out = f"{tmp_path}/pics/"
    done = _cli("render", str(puzzles), "-o", out, "--rules", str(rules),
                "--variant", "anti-knight", "--no-answers")  # fmt: skip
    assert done.returncode == 0, done.stderr
    svg = (tmp_path / "pics" / "0001.svg").read_text()
    assert "Also: anti-knight" in svg and "stroke-dasharray" in svg
    bad = tmp_path / "bad.json"
    bad.write_text('{"cages": [{"cells": [0, 1], "sum": 40}]}')
    done = _cli("render", str(puzzles), "-o", out, "--rules", str(bad))
    assert done.returncode == 2 and "cage 0: sum 40" in done.stderr
