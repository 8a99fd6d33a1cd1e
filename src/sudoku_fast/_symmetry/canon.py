"""Canonical forms and transformations on the compiled search (`_canon.pyx`), on threads.

The batch paths behind `sudoku_fast.symmetry` (`canonical`, `canonical_many`,
`transform`, `random_transform_many`, ...) and the `dedup` pipeline: encoded grids go to
`_canon` a range at a time with the GIL released; its statuses become the library's
errors here. A symmetry travels as a `Transformation` in Python and as a "move" (one
byte string per grid) in C.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .._base.checks import node_budget
from .._base.errors import SearchLimitExceeded
from .._base.grid import EMPTY, Geometry, format_values
from .._base.randomness import Rng, line_order
from .._engine.run import shared_buffers
from .._parallel.fanout import run_chunks
from .._parallel.threads import resolve_threads
from . import _canon

__all__ = [
    "DEFAULT_CANONICAL_NODES",
    "STATUS_BUDGET",
    "STATUS_MEMORY",
    "STATUS_REPEAT",
    "Transformation",
    "apply_moves",
    "check_no_repeat",
    "draw_transformation",
    "from_move",
    "move_of",
    "raise_for_status",
    "random_images",
    "run_canonical",
    "symbol_table",
]

# Search steps a puzzle of a grid other than 9x9 with 3x3 boxes may take before
# `SearchLimitExceeded` (a 9x9 search always ends: its group is small enough to need no
# budget). The first 200 16x16 puzzles of the goomii set all fit in 1,000 steps; the
# budget stops the rare grid with a huge symmetry group after about a second.
DEFAULT_CANONICAL_NODES = 1_000_000
MIN_CHUNK = 64  # 9x9 puzzles take 2-10 us: a chunk of 64 is worth a thread hand-off
STATUS_REPEAT: int = _canon.STATUS_REPEAT
STATUS_BUDGET: int = _canon.STATUS_BUDGET
STATUS_MEMORY: int = _canon.STATUS_MEMORY
REPEAT_HELP = "a canonical form needs a grid with no symbol repeated in a row or column"


@dataclass(frozen=True)
class Transformation:
    """One element of a grid's symmetry group, applied in this order:

    1. `transpose`: swap rows and columns (square boxes only);
    2. `rows`: output row i is input row `rows[i]`, counted from 0 (a permutation that
       keeps the bands whole: each run of box-height rows comes from one band);
    3. `cols`: output column j is input column `cols[j]` (keeps the stacks whole);
    4. `digits`: symbol k of the alphabet (k from 0) becomes `digits[k]`; `digits` is
       the alphabet in its new order, e.g. "912345678" turns 1 into 9 and 2 into 1.

    Made by `canonical_transform` and `random_transformation`; applied by
    `apply_transformation`.

    Parameters
    ----------
    transpose : bool
        Swap rows and columns first.
    rows : tuple of int
        Output row i is input row `rows[i]`.
    cols : tuple of int
        Output column j is input column `cols[j]`.
    digits : str
        The alphabet in its new order.

    Examples
    --------
    >>> import sudoku_fast as sf
    >>> t = sf.random_transformation(sf.geometry_for(4), seed=1)
    >>> sorted(t.rows), sorted(t.digits)
    ([0, 1, 2, 3], ['1', '2', '3', '4'])
    """

    transpose: bool
    rows: tuple[int, ...]
    cols: tuple[int, ...]
    digits: str


def check_no_repeat(values: Sequence[int], geometry: Geometry, index: int | None = None) -> None:
    """ValueError naming the first symbol repeated in a row or column, if any."""
    n = geometry.size
    where = "" if index is None else f"puzzle {index}: "
    for kind, step_i, step_j in (("row", n, 1), ("column", 1, n)):
        for i in range(n):
            seen: set[int] = set()
            for j in range(n):
                value = values[i * step_i + j * step_j]
                if value and value in seen:
                    symbol = geometry.symbols[value - 1]
                    raise ValueError(f"{where}{symbol!r} repeats in {kind} {i + 1} ({REPEAT_HELP})")
                seen.add(value)


def move_of(transformation: Transformation, geometry: Geometry) -> bytes:
    """A checked transformation in the byte form of `_canon.transform_range`."""
    # Value v (symbol v-1) becomes the value of the symbol digits[v-1].
    new_value = [0] + [geometry.symbols.index(ch) + 1 for ch in transformation.digits]
    return (
        bytes([transformation.transpose])
        + bytes(transformation.rows)
        + bytes(transformation.cols)
        + bytes(new_value)
    )


def from_move(move: bytes | bytearray, geometry: Geometry) -> Transformation:
    n = geometry.size
    digits = "".join(geometry.symbols[move[1 + 2 * n + v] - 1] for v in range(1, n + 1))
    return Transformation(
        bool(move[0]), tuple(move[1 : 1 + n]), tuple(move[1 + n : 1 + 2 * n]), digits
    )


def draw_transformation(geometry: Geometry, seed64: int) -> Transformation:
    """The element `_canon.random_transform_range` draws from one 64-bit seed, drawn in
    Python with the same generator (`random_transformation`; `_canon_py.py` too)."""
    rng = Rng(seed64)
    n, br, bc = geometry.size, geometry.box_rows, geometry.box_cols
    rows = tuple(line_order(rng, br, n // br))
    cols = tuple(line_order(rng, bc, n // bc))
    labels = list(range(1, n + 1))
    rng.shuffle(labels)
    transpose = br == bc and rng.below(2) == 1
    if transpose:  # drawn for a transposition after the permutations: swap their roles
        rows, cols = cols, rows
    digits = "".join(geometry.symbols[label - 1] for label in labels)
    return Transformation(transpose, rows, cols, digits)


def apply_moves(values: list[bytes], geometry: Geometry, moves: list[bytes]) -> list[str]:
    """Apply one checked move per grid (compiled); the results as strings."""
    n, cells = len(values), geometry.cells
    grids = b"".join(values)
    out = bytearray(n * cells)
    _canon.transform_range(grids, geometry.size, b"".join(moves), out, 0, n)
    text = format_values(out, geometry)
    return [text[i * cells : (i + 1) * cells] for i in range(n)]


def random_images(
    geometry: Geometry, grids: Any, n: int, seeds: array[int], threads: int | None
) -> list[str]:
    """Each of n encoded grids moved by the symmetry drawn from its seed (compiled)."""
    out = bytearray(n * geometry.cells)
    size, br, bc = geometry.size, geometry.box_rows, geometry.box_cols

    workers = resolve_threads(threads)
    grids_v, seeds_v, out_v = shared_buffers(workers, grids, seeds, out)

    def work(start: int, stop: int) -> None:
        _canon.random_transform_range(grids_v, size, br, bc, seeds_v, out_v, start, stop)

    run_chunks(n, workers, 256, work)
    text = format_values(out, geometry)
    cells = geometry.cells
    return [text[i * cells : (i + 1) * cells] for i in range(n)]


def run_canonical(
    geometry: Geometry,
    grids: Any,
    n: int,
    threads: int | None,
    max_nodes: int | None,
    want_moves: bool,
    texts: list[str | None] | None = None,
) -> tuple[bytearray, bytearray, bytearray, int]:
    """Canonical forms of n encoded grids on threads: (forms, statuses, moves, threads
    used). With `texts` (a list of n items, for an ASCII alphabet) each thread also
    writes the forms of its chunks there as strings, None where there is no form."""
    size, cells = geometry.size, geometry.cells
    budget = node_budget(max_nodes)  # checked at every size
    if (geometry.size, geometry.box_rows) == (9, 3):
        budget = 0  # a 9x9 grid's search is small: no budget
    out = bytearray(n * cells)
    status = bytearray(n)
    moves = bytearray(n * _canon.move_size(size) if want_moves else 0)
    br, bc = geometry.box_rows, geometry.box_cols
    workers = resolve_threads(threads)
    min_chunk = max(1, MIN_CHUNK * 81 // cells)

    stop_flag = bytearray(1)
    symbols = symbol_table(geometry) if texts is not None else b""
    grids_v, out_v, status_v, moves_v, stop_v, symbols_v = shared_buffers(
        workers, grids, out, status, moves, stop_flag, symbols
    )

    def work(start: int, stop: int) -> None:
        _canon.canonical_range(
            grids_v, size, br, bc, out_v, status_v, moves_v, start, stop, budget, stop_v
        )
        if texts is not None:
            _canon.texts_range(out_v, cells, symbols_v, status_v, texts, start, stop)

    def abort() -> None:
        stop_flag[0] = 1

    used = run_chunks(n, workers, min_chunk, work, on_abort=abort)
    return out, status, moves, used


def symbol_table(geometry: Geometry) -> bytes:
    """Value -> character for `_canon.texts_range` (256 bytes); b"" for an alphabet that
    is not ASCII."""
    if not geometry.symbols.isascii():
        return b""
    return (EMPTY + geometry.symbols).encode("ascii").ljust(256, b"\0")


def raise_for_status(
    status: bytearray,
    grids: Any,
    geometry: Geometry,
    max_nodes: int | None,
    single: bool,
    forms: bytearray | None = None,
) -> None:
    """ValueError for the first repeated symbol; SearchLimitExceeded for out-of-budget
    ones, whose `partial` is the list of the canonical forms of `forms` (None for those)."""
    if not any(status):
        return
    if STATUS_MEMORY in status:
        raise MemoryError("not enough memory for the search of a canonical form")
    cells = geometry.cells
    for i, code in enumerate(status):
        if code == STATUS_REPEAT:
            check_no_repeat(
                bytes(grids[i * cells : (i + 1) * cells]), geometry, None if single else i
            )
    indices = [i for i, code in enumerate(status) if code == STATUS_BUDGET]
    if indices:
        where = f"puzzle {indices[0]}" + (
            f" and {len(indices) - 1} more" if len(indices) > 1 else ""
        )
        if single:
            where = "the puzzle"
        partial: list[str | None] | None = None
        if forms is not None:
            text = format_values(forms, geometry)
            partial = [text[i * cells : (i + 1) * cells] for i in range(len(status))]
            for i in indices:
                partial[i] = None
        raise SearchLimitExceeded(
            f"{where}: no canonical form within max_nodes={max_nodes} search steps "
            "(a grid with very many symmetries; pass a larger max_nodes, or None)",
            indices,
            partial,
        )
