"""Canonical forms and transformations in plain Python: the slow, obviously correct twin
of `_canon.pyx`.

`canonical_values` tries every element of the group (with the relabelling fixed by the
lemma below) and keeps the smallest string. For a fixed arrangement of the cells, the
relabelling giving the smallest string numbers the symbols in order of first appearance
(the first clue can be 1, the next different symbol 2, and so on; any other choice is
larger at the first place where it differs). Slow: 3.4 million arrangements for 9x9,
seconds per puzzle, so the tests give it small grids and sparse puzzles.

`canonical_range`, `texts_range`, `transform_range`, `random_transform_range` and
`move_size` take the compiled module's arguments and give its results (a search budget
and memory aside: the brute force needs neither).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from typing import Any

from .._base.grid import Geometry, geometry_for
from .canon import Transformation, draw_transformation, move_of

__all__ = [
    "FREEDOM_ALL",
    "FREEDOM_NONE",
    "FREEDOM_REVERSE",
    "MAX_SIZE",
    "STATUS_BUDGET",
    "STATUS_MEMORY",
    "STATUS_OK",
    "STATUS_REPEAT",
    "canonical_range",
    "canonical_values",
    "move_size",
    "random_transform_range",
    "smallest_images",
    "texts_range",
    "transform_range",
    "transform_values",
]

STATUS_OK = 0
STATUS_REPEAT = 1  # a symbol repeats in a row or a column: no canonical form
STATUS_BUDGET = 2  # (never here: the brute force has no budget)
STATUS_MEMORY = 3  # (never here: the brute force allocates as Python does)
MAX_SIZE = 64


def _line_orders(n: int, block: int) -> Iterator[tuple[int, ...]]:
    """Every order of lines 0..n-1 that keeps each block of `block` lines together."""
    for blocks in itertools.permutations(range(n // block)):
        inner = [itertools.permutations(range(b * block, (b + 1) * block)) for b in blocks]
        for parts in itertools.product(*inner):
            yield tuple(itertools.chain.from_iterable(parts))


def _transposed(values: Sequence[int], n: int) -> list[int]:
    return [values[c * n + r] for r in range(n) for c in range(n)]


def canonical_values(values: Sequence[int], geometry: Geometry) -> list[int]:
    """The canonical form of N*N values (0 = empty) by trying every group element.

    Slow (3.4 million arrangements for 9x9: seconds per puzzle) and obviously correct:
    every orientation, row order and column order is tried, each numbered by first
    appearance (see the module doc), and a candidate is dropped at the first cell
    where it is larger than the best so far. Raises ValueError when a symbol repeats in
    a row or a column.
    """
    if _repeats(values, geometry.size):
        raise ValueError("a symbol repeats in a row or a column: no canonical form")
    return _canonical_with_move(values, geometry)[0]


def _canonical_with_move(
    values: Sequence[int], geometry: Geometry
) -> tuple[list[int], Transformation]:
    """The canonical form, and a group element that maps `values` to it."""
    n, br, bc = geometry.size, geometry.box_rows, geometry.box_cols
    grids = [(False, list(values))] + ([(True, _transposed(values, n))] if br == bc else [])
    col_orders = list(_line_orders(n, bc))
    best: list[int] | None = None
    found: tuple[bool, tuple[int, ...], tuple[int, ...]] = (False, (), ())
    for transposed, grid in grids:
        for rows in _line_orders(n, br):
            lines = [grid[r * n : (r + 1) * n] for r in rows]
            for cols in col_orders:
                candidate = _first_appearance_or_none(lines, cols, best)
                if candidate is not None:
                    best = candidate
                    found = (transposed, rows, cols)
    assert best is not None
    transposed, rows, cols = found
    grid = _transposed(values, n) if transposed else list(values)
    arranged = [grid[r * n + c] for r in rows for c in cols]
    label = {old: new for old, new in zip(arranged, best, strict=True) if old}
    unused = iter(sorted(set(range(1, n + 1)) - set(label.values())))
    new_values = [label[v] if v in label else next(unused) for v in range(1, n + 1)]
    digits = "".join(geometry.symbols[v - 1] for v in new_values)
    return best, Transformation(transposed, rows, cols, digits)


def _first_appearance_or_none(
    lines: list[list[int]], cols: tuple[int, ...], best: list[int] | None
) -> list[int] | None:
    """The arrangement numbered by first appearance if smaller than `best`, else None."""
    labels: dict[int, int] = {0: 0}
    out: list[int] = []
    smaller = best is None
    for line in lines:
        for c in cols:
            value = line[c]
            label = labels.get(value)
            if label is None:
                label = labels[value] = len(labels)
            if not smaller:
                assert best is not None
                known = best[len(out)]
                if label > known:
                    return None
                smaller = label < known
            out.append(label)
    return out if smaller else None


def transform_values(
    values: Sequence[int], geometry: Geometry, transformation: Transformation
) -> list[int]:
    """Apply a checked `Transformation` to N*N values."""
    n = geometry.size
    grid = _transposed(values, n) if transformation.transpose else list(values)
    relabel = [0] + [geometry.symbols.index(ch) + 1 for ch in transformation.digits]
    return [relabel[grid[r * n + c]] for r in transformation.rows for c in transformation.cols]


def _repeats(values: Sequence[int], n: int) -> bool:
    """Whether a symbol repeats in a row or a column."""
    for i in range(n):
        row = [v for v in values[i * n : (i + 1) * n] if v]
        column = [v for v in values[i::n] if v]
        if len(set(row)) < len(row) or len(set(column)) < len(column):
            return True
    return False


def _geometry(size: int, box_rows: int, box_cols: int) -> Geometry:
    return geometry_for(size, (box_rows, box_cols))


def move_size(size: int) -> int:
    """Bytes of one move: transpose, the row order, the column order, the relabelling."""
    return 1 + 2 * size + size + 1


def canonical_range(
    grids: Any,
    size: int,
    box_rows: int,
    box_cols: int,
    out: Any,
    status: Any,
    moves: Any,
    start: int,
    stop: int,
    max_nodes: int = 0,
    stop_flag: Any | None = None,
) -> None:
    """Canonical forms of grids start..stop-1 into `out`, a status per grid, and (when
    `moves` is not empty) a move per grid that maps it to its form."""
    geometry = _geometry(size, box_rows, box_cols)
    cells = geometry.cells
    view = memoryview(grids).cast("B")
    step = move_size(size)
    for i in range(start, stop):
        values = list(view[i * cells : (i + 1) * cells])
        if _repeats(values, size):
            status[i] = STATUS_REPEAT
            continue
        form, found = _canonical_with_move(values, geometry)
        out[i * cells : (i + 1) * cells] = bytes(form)
        status[i] = STATUS_OK
        if len(moves):
            moves[i * step : (i + 1) * step] = move_of(found, geometry)


def texts_range(
    values: Any,
    cells: int,
    symbols: Any,
    status: Any,
    out: list[str | None],
    start: int,
    stop: int,
) -> None:
    """Grids start..stop-1 (`cells` values each) as strings into out[start:stop]: value
    v becomes the character symbols[v] (`symbols`: 256 ASCII bytes); a grid whose status
    is not STATUS_OK becomes None."""
    table = bytes(symbols)
    if len(table) != 256:
        raise ValueError("symbols must map all 256 byte values")
    if not table.isascii():
        raise ValueError("symbols must be ASCII")
    view = memoryview(values).cast("B")
    if not 0 <= start <= stop <= len(out) or len(view) < stop * cells or len(status) < stop:
        raise ValueError("range outside the batch")
    for i in range(start, stop):
        if status[i] != STATUS_OK:
            out[i] = None
            continue
        out[i] = "".join(chr(table[v]) for v in view[i * cells : (i + 1) * cells])


def transform_range(grids: Any, size: int, moves: Any, out: Any, start: int, stop: int) -> None:
    """Apply move i (see `move_size`) to grid i, for i in start..stop-1, into `out`."""
    cells = size * size
    view = memoryview(grids).cast("B")
    move_view = memoryview(moves).cast("B")
    step = move_size(size)
    for i in range(start, stop):
        move = move_view[i * step : (i + 1) * step]
        grid = list(view[i * cells : (i + 1) * cells])
        if move[0]:
            grid = _transposed(grid, size)
        rows = move[1 : 1 + size]
        cols = move[1 + size : 1 + 2 * size]
        relabel = move[1 + 2 * size :]
        out[i * cells : (i + 1) * cells] = bytes(
            relabel[grid[r * size + c]] for r in rows for c in cols
        )


def random_transform_range(
    grids: Any,
    size: int,
    box_rows: int,
    box_cols: int,
    seeds: Any,
    out: Any,
    start: int,
    stop: int,
) -> None:
    """Grid i moved by the symmetry drawn from seeds[i], for i in start..stop-1."""
    geometry = _geometry(size, box_rows, box_cols)
    cells = geometry.cells
    view = memoryview(grids).cast("B")
    for i in range(start, stop):
        drawn = draw_transformation(geometry, seeds[i])
        values = list(view[i * cells : (i + 1) * cells])
        out[i * cells : (i + 1) * cells] = bytes(transform_values(values, geometry, drawn))


# --------------------------------------------------------------------- variant groups

FREEDOM_ALL = 0
FREEDOM_REVERSE = 1
FREEDOM_NONE = 2


def _labelled(arranged: list[int]) -> list[int]:
    """The digits numbered by first appearance (0 stays 0)."""
    labels: dict[int, int] = {}
    return [labels.setdefault(v, len(labels) + 1) if v else 0 for v in arranged]


def smallest_images(values: Any, perms: Any, size: int, freedom: str) -> tuple[bytes, list[int]]:
    """The smallest image of the givens over the cell permutations `perms` (concatenated)
    and the indices of the permutations giving it (see the compiled module)."""
    if freedom not in ("all", "reverse", "none"):
        raise ValueError(f"freedom must be 'all', 'reverse' or 'none', not {freedom!r}")
    values, perms = list(values), list(perms)
    cells = len(values)
    if cells != size * size or cells == 0 or len(perms) % cells:
        raise ValueError("values and permutations do not match the grid size")
    if not perms:
        raise ValueError("no permutations")
    if any(v > size for v in values):
        raise ValueError(f"value {max(values)} beyond the grid size {size}")
    if any(c >= cells for c in perms):
        raise ValueError(f"permutation entry {max(perms)} is not a cell")
    images = []
    for g in range(len(perms) // cells):
        arranged = [values[c] for c in perms[g * cells : (g + 1) * cells]]
        if freedom == "all":
            image = _labelled(arranged)
        elif freedom == "reverse":
            image = min(arranged, [size + 1 - v if v else 0 for v in arranged])
        else:
            image = arranged
        images.append(image)
    best = min(images)
    return bytes(best), [g for g, image in enumerate(images) if image == best]
