"""render: SVG pictures of every geometry, PDF books, PNG pages, notebook display, the CLI.

The pictures are checked as documents here (parsed SVG, the PDF's own structure, PNG
headers, pdftoppm where installed); test_render_ocr.py reads them back as a reader.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import sudoku_fast as sf
from sudoku_fast._render.layout import arrangement
from sudoku_fast._render.pdf import to_pdf
from sudoku_fast.board import board_text
from sudoku_fast.render import default_cell

NS = "{http://www.w3.org/2000/svg}"
P9 = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
P4 = "1....43.3....1.."


def texts(svg: str) -> list[ET.Element]:
    return list(ET.fromstring(svg).iter(f"{NS}text"))


def fills(svg: str) -> set[str]:
    return {e.get("fill", "") for e in ET.fromstring(svg).iter()}


GEOMETRIES = [
    (4, None), (6, None), (6, (3, 2)), (8, None), (9, None), (10, None), (12, None),
    (12, (4, 3)), (15, None), (16, None), (25, None), (36, None), (49, None),
]  # fmt: skip


@pytest.mark.parametrize(("size", "box"), GEOMETRIES)
def test_every_geometry_draws_its_givens_at_their_cells(
    size: int, box: tuple[int, int] | None
) -> None:
    geometry = sf.geometry_for(size, box)
    # A diagonal of givens, one of each symbol, plus the box shape's corner cells.
    puzzle = ["."] * (size * size)
    for k in range(size):
        puzzle[k * size + k] = geometry.symbols[k]
    svg = sf.render("".join(puzzle), box=box)
    root = ET.fromstring(svg)
    cell = default_cell(size)
    assert root.get("width") == f"{size * cell + 4:.3f}".rstrip("0").rstrip(".") + "mm"
    drawn = texts(svg)
    assert len(drawn) == size
    for k, element in enumerate(drawn):
        assert element.text == geometry.symbols[k]
        assert element.get("font-weight") == "bold" and element.get("text-anchor") == "middle"
        x, y = float(element.get("x", "")), float(element.get("y", ""))
        assert abs(x - (2 + (k + 0.5) * cell)) < 1e-3
        # Centred: the baseline sits below the centre by about a third of the size.
        size_mm = float(element.get("font-size", ""))
        assert 0.3 * size_mm < y - (2 + (k + 0.5) * cell) < 0.4 * size_mm
    # Box lines heavier than cell lines, the border heaviest.
    widths = sorted({float(e.get("stroke-width", "0")) for e in root.iter(f"{NS}line")})
    border = float(
        next(e for e in root.iter(f"{NS}rect") if e.get("stroke")).get("stroke-width", "")
    )
    assert (
        len(widths) == 2
        and widths[1] == pytest.approx(3 * widths[0], abs=2e-3)
        and border > widths[1]
    )
    thick = [e for e in root.iter(f"{NS}line") if float(e.get("stroke-width", "0")) == widths[1]]
    assert len(thick) == (size // geometry.box_cols - 1) + (size // geometry.box_rows - 1)


def test_givens_values_and_solution_are_told_apart() -> None:
    board = sf.Board.new(P9).set_value(1, 1)
    svg = sf.render(board, solution=True)
    drawn = texts(svg)
    assert len(drawn) == 81
    by_colour: dict[tuple[str | None, str | None], int] = {}
    for element in drawn:
        key = (element.get("fill"), element.get("font-weight"))
        by_colour[key] = by_colour.get(key, 0) + 1
    assert by_colour == {("#000000", "bold"): 17, ("#1d4ed8", None): 1, ("#4b5563", None): 63}


def test_pencil_marks_and_a_hint() -> None:
    board = sf.Board.new(P9)
    step = sf.solve_path(P9)[3]  # a pointing step: eliminations only
    assert step.technique == "pointing"
    svg = sf.render(board, hint=step)
    candidates = sf.candidates(P9)
    marks = sum(len(c) for c in candidates)
    small = [e for e in texts(svg) if float(e.get("font-size", "0")) < 4]
    assert len(small) == marks  # "auto" pencil marks with a hint
    colours = fills(svg)
    assert {"#fde68a", "#fecaca", "#bfdbfe"} <= colours  # pattern, eliminated, pattern digit
    struck = [e for e in texts(svg) if e.get("fill") == "#b91c1c"]
    assert len(struck) == len(step.eliminations)
    placed = sf.render(board, hint=sf.hint(board), pencil="none")
    assert "#bbf7d0" in fills(placed)  # the placement's cell
    assert not [e for e in texts(sf.render(board)) if float(e.get("font-size", "0")) < 4]


def test_the_boards_own_pencil_marks() -> None:
    board = sf.Board.new(P4).set_pencil(1, [2, 3])
    small = [e.text for e in texts(sf.render(board)) if float(e.get("font-size", "0")) < 4]
    assert small == ["2", "3"]


def test_captions() -> None:
    assert ">No. 7</text>" in sf.render(P9, caption="No. 7")
    rating = sf.rate(P9, score=True)
    svg = sf.render(P9, caption=True, seed=12)
    assert f"{rating.name} \u00b7 SE {rating.score:.1f} \u00b7 seed 12" in svg
    assert ">" + sf.rate(P4).name + "</text>" in sf.render(P4, caption=True)


def test_variant_overlays() -> None:
    overlays = [
        sf.Cage([0, 1, 9], 12),
        sf.CellLine([20, 21, 22], kind="thermometer"),
        sf.CellLine(range(0, 81, 10), kind="diagonal"),
        sf.CellLine([40, 41, 50], kind="arrow"),
        sf.Region([60, 61, 70], kind="extra"),
    ]
    svg = sf.render(P9, overlays=overlays)
    root = ET.fromstring(svg)
    assert ">12</text>" in svg
    assert any(e.get("stroke-dasharray") for e in root.iter(f"{NS}line"))  # the cage
    assert len(list(root.iter(f"{NS}circle"))) == 2  # thermometer bulb, arrow circle
    assert "#e5e7eb" in fills(svg)  # the extra region
    jigsaw = [sf.Region(range(r * 9, r * 9 + 9), kind="box") for r in range(9)]
    boxes = ET.fromstring(sf.render(P9, overlays=jigsaw))
    thick = [e for e in boxes.iter(f"{NS}line") if e.get("stroke-linecap") == "square"]
    assert len(thick) == 9 * (9 + 9 + 2)  # each row region: its sides, top and bottom
    with pytest.raises(ValueError, match="not on a 9x9"):
        sf.render(P9, overlays=[sf.Cage([81])])
    with pytest.raises(TypeError, match="Region, Cage or CellLine"):
        sf.render(P9, overlays=["cage"])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="kind"):
        sf.CellLine([1, 2], kind="zigzag")  # type: ignore[arg-type]


def test_symbols_are_escaped() -> None:
    alphabet = "<&>'"
    svg = sf.render("<&" + "." * 14, alphabet=alphabet)
    assert [e.text for e in texts(svg)] == ["<", "&"]


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"pencil": "some"}, ValueError, "pencil must be"),
        ({"cell_mm": 0.5}, ValueError, "cell_mm"),
        ({"cell_mm": "10"}, TypeError, "cell_mm"),
        ({"caption": 3}, TypeError, "caption"),
        ({"solution": 1}, TypeError, "solution"),
        ({"hint": "r1c1"}, TypeError, "Hint or a SolveStep"),
    ],
)
def test_bad_arguments(kwargs: dict[str, object], error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        sf.render(P9, **kwargs)  # type: ignore[arg-type]


def test_a_hint_must_fit_the_grid() -> None:
    hint = sf.hint(P9)
    assert hint is not None
    with pytest.raises(ValueError, match="not on this 4x4 grid"):
        sf.render(P4, hint=hint)
    with pytest.raises(ValueError, match="several solutions"):
        sf.render("." * 81, solution=True)


def _pdf_objects_are_where_the_xref_says(pdf: bytes) -> int:
    """Check the cross-reference table; return the page count."""
    xref = int(pdf.rsplit(b"startxref\n", 1)[1].split()[0])
    assert pdf[xref:].startswith(b"xref\n")
    count = int(pdf[xref:].split(b"\n")[1].split()[1])
    lines = pdf[xref:].split(b"\n")[3 : 2 + count]
    for number, line in enumerate(lines, 1):
        offset = int(line.split()[0])
        assert pdf[offset:].startswith(b"%d 0 obj" % number)
    return len(re.findall(rb"/Type /Page\b", pdf))


def test_a_book_with_answers() -> None:
    puzzles = [sf.parse(p) for p in sf.generate_many(30, seed=3)]
    book = sf.render_book(puzzles, per_page=4, title="Thirty", captions=True)
    assert len(book) == 8 + 3  # 30 puzzles at 4 a page, answers at 12 a page
    pdf = book.pdf()
    assert pdf.startswith(b"%PDF-1.4") and pdf.rstrip().endswith(b"%%EOF")
    assert _pdf_objects_are_where_the_xref_says(pdf) == 11
    first = str(book[0])
    assert ">Thirty</text>" in first and ">No. 1</text>" in first and "SE " in first
    answers = str(book[8])
    assert ">Answers</text>" in answers and len(texts(answers)) > 12 * 81
    numbers = sf.render_book(puzzles[:3], numbering=False, answers=False)
    assert "No. " not in str(numbers[0]) and len(numbers) == 1
    later = sf.render_book(puzzles[:3], first_number=20, answers=False)
    assert str(later[0]).count(">No. 2") == 3


def test_book_arguments() -> None:
    with pytest.raises(ValueError, match="puzzle 1: "):
        sf.render_book([P9, "12x"])
    with pytest.raises(ValueError, match="puzzle 0: has several solutions"):
        sf.render_book(["." * 81])
    assert len(sf.render_book(["." * 81], answers=False)) == 1
    with pytest.raises(ValueError, match="page_size"):
        sf.render_book([P9], page_size="A3")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="per_page"):
        sf.render_book([P9], per_page=0)
    with pytest.raises(ValueError, match="no puzzles"):
        sf.render_book([])
    with pytest.raises(ValueError, match="expected 2"):
        sf.render_book([P9, P9], captions=["one"])
    book = sf.render_book([P9, P9], captions=["easy one", "another"], answers=False)
    assert ">another</text>" in str(book[0])


def test_arrangement_fills_the_page() -> None:
    assert arrangement(4, 180, 250, 10) == (2, 2)
    assert arrangement(1, 180, 250, 10) == (1, 1)
    assert arrangement(6, 180, 250, 10) == (2, 3)
    assert arrangement(2, 180, 250, 10) == (1, 2)


def test_a_solving_path_sheet() -> None:
    path = sf.solve_path(P9)
    sheet = sf.render_path(path, title="Walkthrough")
    assert ">Walkthrough</text>" in str(sheet[0])
    joined = "".join(str(page) for page in sheet)
    assert "Step 4 \u00b7 pointing \u00b7 SE 2.6" in joined
    every = sf.render_path(path, group_singles=False, rows_per_page=4)
    assert len(every) == -(-len(path) // 4)
    assert _pdf_objects_are_where_the_xref_says(sheet.pdf()) == len(sheet)
    sixteen = sf.render_path(sf.generate(size=6, seed=2))
    assert "level" in str(sixteen[0])


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs pdftoppm (poppler-utils)")
def test_poppler_reads_every_page(tmp_path: Path) -> None:
    book = sf.render_book([P9] * 9, per_page=4)
    target = tmp_path / "book.pdf"
    book.save(target)
    subprocess.run(["pdftoppm", "-r", "20", "-png", str(target), str(tmp_path / "p")], check=True)
    assert len(list(tmp_path.glob("p-*.png"))) == len(book) == 4


def test_png_pictures_and_pages(tmp_path: Path) -> None:
    pytest.importorskip("pypdfium2")
    png = sf.render(P9).png(dpi=100)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    assert abs(width - 94 / 25.4 * 100) <= 1 and abs(height - 94 / 25.4 * 100) <= 1
    written = sf.render_book([P9] * 2, per_page=2, answers=False).save(tmp_path / "b.png", dpi=30)
    assert [Path(p).name for p in written] == ["b-1.png"]


def test_png_without_the_extra_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pypdfium2", None)
    with pytest.raises(ImportError, match=r"sudoku_fast\[png\]"):
        sf.render(P9).png()


def test_save_by_suffix(tmp_path: Path) -> None:
    svg = sf.render(P9)
    svg.save(tmp_path / "a.svg")
    svg.save(tmp_path / "a.pdf")
    assert (tmp_path / "a.svg").read_text() == svg
    assert (tmp_path / "a.pdf").read_bytes().startswith(b"%PDF")
    with pytest.raises(ValueError, match=r"\.svg, \.pdf or \.png"):
        svg.save(tmp_path / "a.jpg")
    pages = sf.render_book([P9] * 5, answers=False).save(tmp_path / "book.svg")
    assert [Path(p).name for p in pages] == ["book-1.svg", "book-2.svg"]


def test_pdf_needs_a_page() -> None:
    with pytest.raises(ValueError, match="at least one page"):
        to_pdf([])


def test_notebook_display_and_str() -> None:
    board = sf.Board.new(P9).set_value(1, 1).set_pencil(2, [2, 6])
    text = str(board)
    assert text.splitlines()[0] == "4 1 . | . . . | 8 . 5"
    assert "17 givens, 1 values entered, pencil marks in 1 cells" in text
    assert text == board_text(board)
    assert board._repr_svg_().startswith("<svg")
    hint = sf.hint(board)
    assert hint is not None
    assert hint._repr_html_().startswith(f"<b>{hint.technique}</b>")
    path = sf.solve_path(P4)
    assert path[0]._repr_html_().startswith("<b>Step 1")
    assert path._repr_html_().count("<svg") == len(sf.render_path(path))
    assert sf.render(P9)._repr_svg_().startswith("<svg")
    assert "Pages: 2 page(s)" in repr(sf.render_book([P9]))


def _cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sudoku_fast", *args],
        capture_output=True, text=True, input=stdin, timeout=120,
    )  # fmt: skip


def test_cli_render_a_book_and_pictures(tmp_path: Path) -> None:
    source = tmp_path / "puzzles.txt"
    source.write_text("\n".join([P9, "# a comment", P9, "not a puzzle"]) + "\n")
    book = tmp_path / "book.pdf"
    done = _cli("render", str(source), "-o", str(book), "--title", "Mine", "--per-page", "1")
    assert done.returncode == 3, done.stderr  # the malformed line is reported, left out
    assert "puzzles.txt:4:" in done.stderr
    assert _pdf_objects_are_where_the_xref_says(book.read_bytes()) == 3  # 2 puzzles, answers
    folder = tmp_path / "pictures"
    source.write_text(P9 + "\n" + P9 + "\n")
    done = _cli("render", str(source), "-o", f"{folder}/")
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in folder.iterdir()) == [
        "0001-answer.svg", "0001.svg", "0002-answer.svg", "0002.svg",
    ]  # fmt: skip
    done = _cli("render", str(source), "-o", f"{folder}/", "--no-answers", "--format", "pdf")
    assert done.returncode == 0 and (folder / "0001.pdf").exists()


def test_cli_render_and_show_a_saved_board(tmp_path: Path) -> None:
    board = sf.Board.new(P9).set_value(1, 1)
    saved = tmp_path / "game.json"
    sf.save_board(board, saved)
    done = _cli("show", str(saved))
    assert done.returncode == 0 and done.stdout == str(board) + "\n"
    picture = tmp_path / "game.svg"
    done = _cli("render", str(saved), "-o", str(picture))
    assert done.returncode == 0, done.stderr
    assert picture.read_text() == sf.render(board)
    done = _cli("render", str(saved), "-o", str(picture), "--box", "3x3")
    assert done.returncode == 2 and "saved board has its own" in done.stderr
    done = _cli("show", str(saved), "--box", "3x3")
    assert done.returncode == 2
    json.loads(saved.read_text())  # untouched


def test_cli_render_usage_errors(tmp_path: Path) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing\n")
    done = _cli("render", str(empty), "-o", str(tmp_path / "x.pdf"))
    assert done.returncode == 2 and "no puzzles" in done.stderr
    source = tmp_path / "p.txt"
    source.write_text(P9 + "\n")
    done = _cli("render", str(source), "-o", str(tmp_path / "x.jpg"))
    assert done.returncode == 2 and ".svg, .pdf or .png" in done.stderr
