"""Puzzles onto paper and screens: SVG pictures, PDF books, PNG images, solving-path sheets.

* `render(puzzle)` draws one grid as SVG, with no dependency: any size and box shape
  the package takes, givens and entered values told apart, pencil marks, a hint
  highlighted (its pattern cells and digits, placements and eliminations), the
  solution, a caption, and variant drawings (`Region`, `Cage`, `CellLine`).
* `render_book(puzzles)` lays puzzles out on pages with numbers, captions and answer
  pages; `render_path(path)` makes the step-by-step sheet of a `solve_path`.
  Both return `Pages`, which writes PDF (no dependency either: the package writes
  the file itself), SVG pages, or PNG pages.
* PNG needs the `png` extra (``pip install 'sudoku_fast[png]'``: pypdfium2, a
  self-contained build of the PDF renderer of Chromium), which rasterises the PDF.

Sizes are in millimetres, so a picture prints at the size it says: by default a cell
is 10 mm for grids up to 16x16 and shrinks to keep bigger grids within 16 cm. Lines
are weighted like printed puzzles (hairline cells, heavier boxes and border); digits
are centred on their cells in Helvetica (or a font with its metrics).

Examples
--------
>>> import sudoku_fast as sf
>>> p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
>>> svg = sf.render(p, caption="No. 1")
>>> svg.startswith("<svg") and 'width="94mm"' in svg
True
>>> book = sf.render_book([p, p], per_page=2, title="Two puzzles")
>>> len(book), book.pdf()[:8]
(2, b'%PDF-1.4')
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Literal, Protocol, overload

from ._base.checks import DEFAULT_MAX_NODES, node_budget
from ._base.grid import Geometry, format_values, parse_grid
from ._base.rules import Rules, as_rules
from ._engine.run import run_engine
from ._render.drawing import Drawing
from ._render.grid import GridContent
from ._render.layout import (
    PAGE_SIZES,
    BookEntry,
    SheetRow,
    book_pages,
    sheet_pages,
    single_picture,
)
from ._render.overlays import Cage, CellLine, Overlay, Region, rules_legend, rules_overlays
from ._render.pdf import to_pdf
from ._render.png import pdf_to_png
from ._render.svg import to_svg
from ._variants.run import box_for, per_puzzle, read_rules, run_rules
from .board import Board, as_board
from .hints import candidates
from .solving import RulesLike
from .walkthrough import difficulty, rating_text

if TYPE_CHECKING:
    from ._base.records import Hint
    from .walkthrough import SolvePath, SolveStep

__all__ = [
    "PAGE_SIZES",
    "Cage",
    "CellLine",
    "Pages",
    "Region",
    "Svg",
    "render",
    "render_book",
    "render_path",
]

PageSize = Literal["A4", "A5", "Letter"]
PencilMarks = Literal["auto", "board", "none"]

# The most cells a default-sized grid spans: 16 cm, a page's width less its margins.
_MAX_SIDE = 160.0
_DEFAULT_CELL = 10.0
_MIN_CELL = 3.2


class Highlight(Protocol):
    """What `render` highlights: a `Hint`, or a `SolveStep` of a solving path."""

    @property
    def cells(self) -> tuple[int, ...]: ...
    @property
    def digits(self) -> tuple[int, ...]: ...
    @property
    def placements(self) -> tuple[tuple[int, int], ...]: ...
    @property
    def eliminations(self) -> tuple[tuple[int, int], ...]: ...


class Svg(str):
    """An SVG picture: a `str` of SVG text that notebooks display as a picture.

    Besides being the text, it can be written out as a file (`save`) or turned into a
    one-page PDF (`pdf`) or a PNG (`png`, with the `png` extra).

    Examples
    --------
    >>> import sudoku_fast as sf
    >>> svg = sf.render("1234341221434321", caption="4x4")
    >>> svg._repr_svg_() == str(svg)
    True
    """

    _drawing: Drawing

    def __new__(cls, drawing: Drawing) -> Svg:
        svg = super().__new__(cls, to_svg(drawing))
        svg._drawing = drawing
        return svg

    def _repr_svg_(self) -> str:
        return str(self)

    def pdf(self) -> bytes:
        """The picture as a one-page PDF the size of the picture."""
        return to_pdf([self._drawing], self._drawing.title)

    def png(self, dpi: float = 150) -> bytes:
        """The picture as a PNG at `dpi` dots per inch.

        Raises
        ------
        ImportError
            Without the `png` extra (pypdfium2).
        """
        return pdf_to_png(self.pdf(), _dpi(dpi))[0]

    def save(self, path: str | os.PathLike[str], dpi: float = 150) -> None:
        """Write the picture to `path`: SVG, PDF or PNG by the name's suffix.

        Raises
        ------
        ValueError
            For a suffix other than .svg, .pdf or .png.
        """
        suffix = _suffix(path)
        if suffix == ".svg":
            with open(path, "w", encoding="utf-8", newline="\n") as f:
                f.write(str(self))
            return
        data = self.pdf() if suffix == ".pdf" else self.png(dpi)
        with open(path, "wb") as f:
            f.write(data)


class Pages(Sequence[Svg]):
    """Pages of a book or sheet: a sequence of `Svg` pages that writes PDF and PNG.

    Examples
    --------
    >>> import sudoku_fast as sf
    >>> p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    >>> pages = sf.render_book([p] * 5, per_page=4, answers=False)
    >>> len(pages)
    2
    """

    def __init__(self, drawings: Sequence[Drawing], title: str = "") -> None:
        self._drawings = list(drawings)
        self.title = title

    @overload
    def __getitem__(self, index: int) -> Svg: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Svg]: ...
    def __getitem__(self, index: int | slice) -> Svg | Sequence[Svg]:
        if isinstance(index, slice):
            return [Svg(d) for d in self._drawings[index]]
        return Svg(self._drawings[index])

    def __len__(self) -> int:
        return len(self._drawings)

    def __iter__(self) -> Iterator[Svg]:
        return (Svg(d) for d in self._drawings)

    def __repr__(self) -> str:
        return f"<Pages: {len(self)} page(s) of {self.title or 'puzzles'}>"

    def pdf(self) -> bytes:
        """All pages as one PDF document."""
        return to_pdf(self._drawings, self.title)

    def png(self, dpi: float = 150) -> list[bytes]:
        """Each page as a PNG at `dpi` dots per inch (needs the `png` extra).

        Raises
        ------
        ImportError
            Without the `png` extra (pypdfium2).
        """
        return pdf_to_png(self.pdf(), _dpi(dpi))

    def save(self, path: str | os.PathLike[str], dpi: float = 150) -> list[str]:
        """Write the pages: one PDF file, or one SVG / PNG per page (name-1.svg, ...).

        Returns
        -------
        list of str
            The paths written.

        Raises
        ------
        ValueError
            For a suffix other than .pdf, .svg or .png.
        """
        suffix = _suffix(path)
        name = os.fspath(path)
        if suffix == ".pdf":
            with open(name, "wb") as f:
                f.write(self.pdf())
            return [name]
        stem = name[: -len(suffix)]
        written = []
        images = self.png(dpi) if suffix == ".png" else None
        for k, page in enumerate(self, 1):
            target = f"{stem}-{k}{suffix}"
            if images is None:
                with open(target, "w", encoding="utf-8", newline="\n") as f:
                    f.write(str(page))
            else:
                with open(target, "wb") as f:
                    f.write(images[k - 1])
            written.append(target)
        return written

    def _repr_html_(self) -> str:
        return "".join(f'<div style="margin:4px 0">{page}</div>' for page in self)


def _suffix(path: str | os.PathLike[str]) -> str:
    suffix = os.path.splitext(os.fspath(path))[1].lower()
    if suffix not in (".svg", ".pdf", ".png"):
        raise ValueError(f"{os.fspath(path)}: the name must end in .svg, .pdf or .png")
    return suffix


def _dpi(dpi: float) -> float:
    if isinstance(dpi, bool) or not isinstance(dpi, (int, float)):
        raise TypeError(f"dpi must be a number, not {type(dpi).__name__}")
    if not 10 <= dpi <= 2400:
        raise ValueError(f"dpi must be from 10 to 2400, got {dpi}")
    return float(dpi)


def default_cell(size: int) -> float:
    """The default cell side in mm of an N x N grid: 10 mm up to 16x16, then smaller
    so that the grid stays within 16 cm."""
    return max(_MIN_CELL, min(_DEFAULT_CELL, _MAX_SIDE / size))


def _check_highlight(hint: object, geometry: Geometry) -> Highlight:
    """`hint` if its cells and digits lie on the grid; TypeError / ValueError else."""
    names = ("cells", "digits", "placements", "eliminations")
    if not all(hasattr(hint, name) for name in names):
        raise TypeError(f"hint must be a Hint or a SolveStep, not {type(hint).__name__}")
    checked: Highlight = hint  # type: ignore[assignment]
    size, cells = geometry.size, geometry.cells
    pairs = [*checked.placements, *checked.eliminations]
    for cell in [*checked.cells, *(c for c, _ in pairs)]:
        if isinstance(cell, bool) or not isinstance(cell, int) or not 0 <= cell < cells:
            raise ValueError(f"the hint's cell {cell!r} is not on this {size}x{size} grid")
    for digit in [*checked.digits, *(d for _, d in pairs)]:
        if isinstance(digit, bool) or not isinstance(digit, int) or not 1 <= digit <= size:
            raise ValueError(f"the hint's digit {digit!r} is not one of a {size}x{size} grid")
    return checked


def _check_overlays(overlays: Iterable[Overlay], geometry: Geometry) -> tuple[Overlay, ...]:
    out = tuple(overlays)
    for overlay in out:
        if not isinstance(overlay, (Region, Cage, CellLine)):
            raise TypeError(
                f"overlays must be Region, Cage or CellLine objects, not {type(overlay).__name__}"
            )
        for cell in overlay.cells:
            if not 0 <= cell < geometry.cells:
                raise ValueError(
                    f"{type(overlay).__name__}: cell {cell} is not on a "
                    f"{geometry.size}x{geometry.size} grid"
                )
    return out


def _solution_values(board: Board, solution: bool | str, rules: Rules | None) -> tuple[int, ...]:
    """The solution digits to show: the engine's (True, under `rules`) or those of a
    given grid."""
    if solution is False:
        return ()
    geometry = board.geometry
    if isinstance(solution, str):
        grid = parse_grid(solution, geometry=geometry)[1]
        if 0 in grid:
            raise ValueError("solution: the grid has empty cells")
        return tuple(grid)
    if solution is not True:
        raise TypeError(f"solution must be a bool or a grid string, not {type(solution).__name__}")
    budget = node_budget(DEFAULT_MAX_NODES)
    values = bytes(board.grid_values())
    if rules is None:
        results = run_engine(values, 1, 2, 1, geometry=geometry, max_nodes=budget)
    else:
        results = run_rules(values, 1, [rules], 2, 1, geometry=geometry, max_nodes=budget)
    count = results.counts[0]
    if count != 1:
        what = "no solution" if count == 0 else "several solutions" if count > 1 else "no answer"
        raise ValueError(f"the puzzle has {what}, so no solution can be shown")
    return tuple(results.solutions[: geometry.cells])


def _pencil(
    board: Board, mode: PencilMarks | None, hint: Highlight | None, variant: bool = False
) -> tuple[frozenset[int], ...]:
    has_marks = any(board.pencil)
    if mode is None:
        mode = "board" if has_marks else "auto" if hint is not None else "none"
    if mode == "none":
        return ()
    if mode == "board":
        return board.pencil
    if mode != "auto":
        raise ValueError(f"pencil must be 'auto', 'board' or 'none', not {mode!r}")
    if variant:  # `candidates` knows the classic rules only
        raise ValueError(
            "pencil='auto' shows the classic candidates, which variant rules would "
            "contradict: give pencil='board' or 'none' with rules"
        )
    return tuple(frozenset(c) for c in candidates(board))


def _auto_caption(board: Board, seed: int | None) -> str:
    from .rating import rate

    geometry = board.geometry
    rating = rate(
        board.givens,
        box=(geometry.box_rows, geometry.box_cols),
        alphabet=geometry.symbols,
        score=geometry.size == 9,
    )
    parts = [rating.name]
    if rating.score is not None:
        parts.append(f"SE {rating.score:.1f}")
    if seed is not None:
        parts.append(f"seed {seed}")
    return " \u00b7 ".join(parts)


def _cell_size(cell_mm: float | None, size: int) -> float:
    if cell_mm is None:
        return default_cell(size)
    if isinstance(cell_mm, bool) or not isinstance(cell_mm, (int, float)):
        raise TypeError(f"cell_mm must be a number, not {type(cell_mm).__name__}")
    if not 1 <= cell_mm <= 100:
        raise ValueError(f"cell_mm must be from 1 to 100 (millimetres), got {cell_mm}")
    return float(cell_mm)


def render(
    puzzle: str | Board,
    *,
    solution: bool | str = False,
    pencil: PencilMarks | None = None,
    hint: Hint | SolveStep | None = None,
    caption: str | bool = False,
    seed: int | None = None,
    overlays: Iterable[Overlay] = (),
    rules: RulesLike | None = None,
    cell_mm: float | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
) -> Svg:
    """Draw one puzzle or board as an SVG picture.

    Parameters
    ----------
    puzzle : str or Board
        A puzzle in any notation and size `parse` accepts, or a `Board` (givens in
        bold black, the player's values in blue, its pencil marks small).
    solution : bool or str
        True: fill the empty cells with the solution (grey), found by the engine;
        a grid string: that solution.
    pencil : {"auto", "board", "none"}, optional
        Pencil marks: "board" the board's own, "auto" every candidate the rules
        allow, "none" none. Default: "board" for a board with marks, else "auto"
        when a hint is shown, else "none".
    hint : Hint or SolveStep, optional
        A step to highlight: its pattern cells (yellow) and digits (blue), its
        placements (green) and eliminated candidates (red, struck out).
    caption : str or bool
        A line under the grid; True writes the level (and, for 9x9, the SE score)
        that `rate` gives, and `seed` if given.
    seed : int, optional
        The seed the puzzle was generated with, for the caption.
    overlays : iterable of Region, Cage, CellLine
        Variant drawings: regions, killer cages with totals, thermometers, arrows,
        diagonals.
    rules : Rules, mapping, str or None
        The puzzle's variant rules, as `solve` takes them, drawn: jigsaw regions as
        thick borders instead of the boxes, the diagonals, windows and extra sets
        shaded, killer cages dashed with their sums, thermometers; a line under the
        grid names the rules no drawing shows (anti-knight, anti-king,
        non-consecutive, disjoint groups). `solution=True` solves under them. A
        `Board` with rules is drawn under its own.
    cell_mm : float, optional
        The side of a cell in millimetres (default: `default_cell`).
    box, alphabet
        The geometry of a puzzle string, as in `parse`.

    Returns
    -------
    Svg
        The SVG text (a `str`), which also writes PDF and PNG.

    Raises
    ------
    ValueError
        For a malformed puzzle, a hint or overlay off the grid, rules that do not fit
        the grid, a solution that cannot be shown (the puzzle has none or several),
        or `caption=True` / `pencil="auto"` with rules (ratings and candidates are
        classic only).
    TypeError
        For arguments of the wrong type.

    Examples
    --------
    >>> import sudoku_fast as sf
    >>> board = sf.Board.new("1....43.3....1..").set_value(1, 2)
    >>> svg = sf.render(board, hint=sf.hint(board))
    >>> svg.count("<text") > 10
    True
    >>> svg = sf.render("1....43.3....1..", overlays=[sf.Cage([0, 1], 3)])
    >>> ">3</text>" in svg
    True
    >>> killer = sf.Rules(cages=(sf.Cage([0, 1], 3),), anti_knight=True)
    >>> svg = sf.render("." * 81, rules=killer)
    >>> ">3</text>" in svg and "Also: anti-knight" in svg
    True
    """
    checked = as_rules(rules)
    if isinstance(puzzle, Board) and puzzle.rules is not None:
        if checked is not None and checked != puzzle.rules:
            raise ValueError("the board has rules of its own; rules= may only repeat them")
        checked = puzzle.rules
    if checked is not None and isinstance(puzzle, str):
        box = box_for(checked, box, alphabet)  # type: ignore[assignment]
    board = as_board(puzzle, box, alphabet)
    geometry = board.geometry
    highlight = None if hint is None else _check_highlight(hint, geometry)
    shapes_over = _check_overlays(overlays, geometry)
    legend = ""
    if checked is not None:
        box_shape = (geometry.box_rows, geometry.box_cols)
        checked.check(geometry.size, box_shape)
        shapes_over = (*rules_overlays(checked, geometry.size, box_shape), *shapes_over)
        legend = rules_legend(checked)
    cell = _cell_size(cell_mm, geometry.size)
    if isinstance(caption, bool):
        if caption and checked is not None:
            raise ValueError(
                "caption=True writes the classic rating, which says nothing of a puzzle under "
                "variant rules: give the caption's text"
            )
        text = _auto_caption(board, seed) if caption else ""
    elif isinstance(caption, str):
        text = caption
    else:
        raise TypeError(f"caption must be a str or a bool, not {type(caption).__name__}")
    content = GridContent(
        geometry,
        board.given_values(),
        board.user_values(),
        _solution_values(board, solution, checked),
        _pencil(board, pencil, highlight, checked is not None),
        highlight.cells if highlight else (),
        highlight.digits if highlight else (),
        highlight.placements if highlight else (),
        highlight.eliminations if highlight else (),
        shapes_over,
    )
    title = text or f"{geometry.size}x{geometry.size} sudoku"
    return Svg(single_picture(content, cell, text, title, legend=legend))


def _parse_all(
    puzzles: Iterable[str], box: tuple[int, int] | None, alphabet: str | None
) -> tuple[Geometry, list[bytes]]:
    geometry: Geometry | None = None
    grids = []
    for i, puzzle in enumerate(puzzles):
        if not isinstance(puzzle, str):
            raise TypeError(f"puzzle {i}: must be a str, not {type(puzzle).__name__}")
        try:
            if geometry is None:
                geometry, values = parse_grid(puzzle, box=box, alphabet=alphabet)
            else:
                values = parse_grid(puzzle, geometry=geometry)[1]
        except ValueError as err:
            raise ValueError(f"puzzle {i}: {err}") from None
        grids.append(values)
    if geometry is None:
        raise ValueError("no puzzles to render")
    return geometry, grids


def _positive(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if value < 1:
        raise ValueError(f"{name} must be at least 1, got {value}")
    return value


def render_book(
    puzzles: Iterable[str],
    *,
    per_page: int = 4,
    page_size: PageSize = "A4",
    title: str = "",
    numbering: bool = True,
    first_number: int = 1,
    answers: bool = True,
    answers_per_page: int | None = None,
    captions: bool | Sequence[str] = False,
    rules: RulesLike | Sequence[RulesLike | None] | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    threads: int | None = 1,
) -> Pages:
    """Lay puzzles out as the pages of a book, with answer pages at the end.

    Parameters
    ----------
    puzzles : iterable of str
        Puzzles of one size, in any notation `parse` accepts.
    per_page : int
        Puzzles on each page, arranged in the columns and rows that give the biggest
        grids (cells at most 15 mm).
    page_size : {"A4", "A5", "Letter"}
        The paper.
    title : str
        Printed large on the first page and small at the top of the others.
    numbering : bool
        Number the puzzles ("No. 1", ...), from `first_number`; the answers carry
        the same numbers.
    first_number : int, default 1
        The number of the first puzzle, for a book made in several parts.
    answers : bool
        Add answer pages: each solution with its givens in bold.
    answers_per_page : int, optional
        Default: 12 for grids up to 9x9, 6 up to 16x16, else 2.
    captions : bool or sequence of str
        True: each puzzle's level (and SE score for 9x9) by `rate_many`; or one
        caption per puzzle.
    rules : Rules, mapping, str, sequence of them, or None
        Variant rules, as `solve_many` takes them (one set for every puzzle, or one
        per puzzle): drawn on the puzzles and their answers as `render` draws them,
        and the answers solved under them.
    box, alphabet
        The geometry, as in `parse` (else the first puzzle decides).
    threads : int, optional
        Threads for solving (and rating) the puzzles, as in `solve_many`.

    Returns
    -------
    Pages
        The pages; ``.pdf()`` gives the PDF file.

    Raises
    ------
    ValueError
        Naming the index of a malformed puzzle, of one whose rules do not fit it, or
        (with answers) of one without exactly one solution; for an unknown page size;
        for `captions=True` with rules (the automatic caption is the classic rating).

    Examples
    --------
    >>> import sudoku_fast as sf
    >>> puzzles = sf.generate_many(6, "easy", seed=1)
    >>> pages = sf.render_book(puzzles, per_page=6, title="Six easy ones")
    >>> len(pages)
    2
    >>> x = sf.render_book(["." * 16], rules="x", answers=False)
    >>> len(x)
    1
    """
    read = read_rules(rules)
    if read is not None:
        box = box_for(read, box, alphabet)  # type: ignore[assignment]
    geometry, grids = _parse_all(puzzles, box, alphabet)
    per_page = _positive(per_page, "per_page")
    first_number = _positive(first_number, "first_number")
    if page_size not in PAGE_SIZES:
        raise ValueError(f"page_size must be one of {', '.join(PAGE_SIZES)}, not {page_size!r}")
    if answers_per_page is None:
        answers_per_page = 12 if geometry.size <= 9 else 6 if geometry.size <= 16 else 2
    answers_per_page = _positive(answers_per_page, "answers_per_page")
    n = len(grids)
    each: list[Rules | None] = [None] * n if read is None else per_puzzle(read, n)
    if captions is True and read is not None:
        raise ValueError(
            "captions=True writes the classic rating, which says nothing of puzzles under "
            "variant rules: give the captions' text"
        )
    texts = _captions(captions, grids, geometry, threads)
    box_shape = (geometry.box_rows, geometry.box_cols)
    drawn: list[tuple[Overlay, ...]] = []
    for i, item in enumerate(each):
        if item is None:
            drawn.append(())
            continue
        try:
            item.check(geometry.size, box_shape)
        except ValueError as error:
            raise ValueError(f"puzzle {i}: {error}") from None
        drawn.append(rules_overlays(item, geometry.size, box_shape))
        legend = rules_legend(item)
        if legend:
            texts[i] = f"{texts[i]} \u00b7 {legend}" if texts[i] else legend
    solutions: list[tuple[int, ...] | None] = [None] * n
    if answers:
        cells = geometry.cells
        budget = node_budget(DEFAULT_MAX_NODES)
        joined = b"".join(bytes(g) for g in grids)
        if read is None:
            results = run_engine(joined, n, 2, threads, geometry=geometry, max_nodes=budget)
        else:
            results = run_rules(joined, n, each, 2, threads, geometry=geometry, max_nodes=budget)
        for i, count in enumerate(results.counts):
            if count != 1:
                what = (
                    "no solution"
                    if count == 0
                    else "several solutions"
                    if count > 1
                    else ("no answer within the search budget")
                )
                raise ValueError(f"puzzle {i}: has {what}, so the book can have no answer")
            solutions[i] = tuple(results.solutions[i * cells : (i + 1) * cells])
    entries = []
    for i, values in enumerate(grids):
        givens = tuple(values)
        answer = solutions[i]
        entries.append(
            BookEntry(
                GridContent(geometry, givens, overlays=drawn[i]),
                None
                if answer is None
                else GridContent(geometry, givens, solution=answer, overlays=drawn[i]),
                f"No. {first_number + i}" if numbering else "",
                texts[i],
            )
        )
    drawings = book_pages(
        entries,
        size=geometry.size,
        page_size=page_size,
        per_page=per_page,
        answers_per_page=answers_per_page,
        title=title,
    )
    return Pages(drawings, title)


def _captions(
    captions: bool | Sequence[str], grids: list[bytes], geometry: Geometry, threads: int | None
) -> list[str]:
    n = len(grids)
    if captions is False:
        return [""] * n
    if captions is True:
        from .rating import rate_many

        texts = [format_values(g, geometry) for g in grids]
        ratings = rate_many(
            texts,
            threads=threads,
            box=(geometry.box_rows, geometry.box_cols),
            alphabet=geometry.symbols,
            score=geometry.size == 9,
        )
        return [r.name if r.score is None else f"{r.name} \u00b7 SE {r.score:.1f}" for r in ratings]
    if isinstance(captions, str) or not isinstance(captions, Sequence):
        raise TypeError("captions must be a bool or a sequence of str, one per puzzle")
    if len(captions) != n:
        raise ValueError(f"captions: expected {n} (one per puzzle), got {len(captions)}")
    return [str(c) for c in captions]


_SINGLES = frozenset(
    ("full house", "hidden single", "hidden single (box)", "hidden single (line)", "naked single")
)


def render_path(
    path: SolvePath | str | Board,
    *,
    page_size: PageSize = "A4",
    title: str = "",
    group_singles: bool = True,
    rows_per_page: int = 3,
) -> Pages:
    """The step-by-step sheet of a solving path: for each step, the board before it
    with its pencil marks and the step highlighted, and what the step does.

    Parameters
    ----------
    path : SolvePath, str or Board
        A path from `solve_path`, or a puzzle to take the path of (default scale).
    page_size : {"A4", "A5", "Letter"}
        The paper.
    title : str
        The sheet's title (default: "Solving path" with the puzzle's score or level).
    group_singles : bool
        Put each run of singles (full house, hidden and naked singles) on one row
        with all its placements, rather than a row per single.
    rows_per_page : int
        Steps (rows) on each page.

    Returns
    -------
    Pages
        The sheet's pages.

    Raises
    ------
    ValueError
        As `solve_path` for a puzzle; for an unknown page size.

    Examples
    --------
    >>> import sudoku_fast as sf
    >>> sheet = sf.render_path("1....43.3....1..")
    >>> len(sheet)
    1
    """
    from .walkthrough import SolvePath, conclusions, solve_path

    if not isinstance(path, SolvePath):
        path = solve_path(path)
    if page_size not in PAGE_SIZES:
        raise ValueError(f"page_size must be one of {', '.join(PAGE_SIZES)}, not {page_size!r}")
    rows_per_page = _positive(rows_per_page, "rows_per_page")
    geometry = path.geometry
    rows: list[SheetRow] = []
    steps = list(path)
    i = 0
    while i < len(steps):
        step = steps[i]
        board = path.board_before(step.number)
        if group_singles and step.technique in _SINGLES:
            j = i
            while j < len(steps) and steps[j].technique in _SINGLES and j - i < 20:
                j += 1
            group = steps[i:j]
            placements = tuple(p for s in group for p in s.placements)
            names = "; ".join(
                f"{geometry.name(c)} = {geometry.symbols[d - 1]} [{s.technique}]"
                for s in group
                for c, d in s.placements
            )
            first, last = group[0].number, group[-1].number
            span = f"Step {first}" if first == last else f"Steps {first}-{last}"
            kind = "single" if len(group) == 1 else "singles"
            rows.append(
                SheetRow(
                    GridContent(
                        geometry, board.given_values(), solution=board.user_values(),
                        pencil=board.pencil, placements=placements,
                    ),
                    f"{span} \u00b7 {kind}{rating_text(max(group, key=difficulty))}",
                    (names,),
                )
            )  # fmt: skip
            i = j
            continue
        rows.append(
            SheetRow(
                GridContent(
                    geometry,
                    board.given_values(),
                    solution=board.user_values(),  # placed by earlier steps: grey
                    pencil=board.pencil,
                    pattern_cells=step.cells,
                    pattern_digits=step.digits,
                    placements=step.placements,
                    eliminations=step.eliminations,
                ),
                f"Step {step.number} \u00b7 {step.technique}{rating_text(step)}",
                (
                    step.explanation[:1].upper() + step.explanation[1:] + ".",
                    "Result: " + conclusions(geometry, step.placements, step.eliminations) + ".",
                ),
            )
        )
        i += 1
    heading = title or "Solving path"
    summary = (
        f"SE {path.score:.1f}"
        if path.score is not None
        else f"level {max((s.level for s in steps), default=1)}"
    )
    intro = [
        f"{geometry.describe()}, {len(steps)} steps, hardest: "
        f"{path.hardest.technique if steps else 'none'} ({summary})"
        + ("" if path.complete else "; the rater's budget ran out before the end"),
    ]
    drawings = sheet_pages(
        rows,
        size=geometry.size,
        page_size=page_size,
        title=heading,
        intro=intro,
        rows_per_page=rows_per_page,
    )
    return Pages(drawings, heading)


# ---------------------------------------------------------------- notebook display


def path_html(path: SolvePath) -> str:
    """A solving path's sheet as inline SVG pages."""
    return render_path(path)._repr_html_()
