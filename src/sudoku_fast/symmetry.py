"""Canonical forms and symmetry transformations: the same puzzle up to symmetry.

Two grids are *equivalent* when one becomes the other by the Sudoku symmetries:
relabelling the symbols, permuting the bands (groups of box-height rows) and the rows
within each band, permuting the stacks (groups of box-width columns) and the columns
within each stack, and, when the boxes are square, transposing. Together these form
the grid's symmetry group (for 9x9: 9! x 2 x 6^8 elements).

`canonical(p)` is the smallest string among all the grids equivalent to `p`, comparing
cell by cell with an empty cell below every symbol and the symbols in the order of the
alphabet (for the default symbols that is plain string order, `.` < `1` < ... < `9` <
`A` ...: the usual "minlex" form): two puzzles are equivalent exactly when
their canonical forms are equal, so `canonical` is the key to deduplicate a dataset up
to symmetry or to keep a test split apart from its training split. A canonical form is
an ordinary puzzle string with the same number of clues and the same solution count.

Sizes: every geometry `parse` accepts, 4x4 to 64x64. With square boxes (4x4, 9x9,
16x16, 25x25, ...) the group includes transposition; rectangular boxes (6x6 as 2x3,
12x12 as 3x4, ...) turn into boxes of the other orientation when transposed, so there the
group has no transposition. 9x9 (3x3 boxes) runs at full speed on every puzzle; for other grids the
search is given a budget of `max_nodes` steps per puzzle (a puzzle that runs out raises
`SearchLimitExceeded`). Full grids (solution grids) have a search of their own: a
16x16 one usually takes well under a millisecond, a 25x25 one milliseconds, but a
grid with very many symmetries of its own (a regular pattern of 20x20 or 36x36, one
of five 25x25 solutions tried) can need more than the default budget. Nearly full
grids can too: several full rows leave the puzzle search little to prune by (a full
16x16 grid less two cells takes about a second).
A grid in which a symbol repeats in a row or a column has no canonical form here
(`ValueError`): such a grid is no Sudoku position, and the search relies on symbols
being distinct in every line.

A `Transformation` is one element of the group, spelled out: `transform(p, ...)` applies
explicit parameters, `random_transform(p, seed=...)` a uniformly drawn element (data
augmentation), and `canonical_transform(p)` returns an element that maps `p` to its
canonical form, so that the same map can be applied to the puzzle's solution. Batches
(`canonical_many`, `random_transform_many`) run on `batch.run_chunks` threads in
compiled code (`_canon.pyx`) that releases the GIL; `dedup_stream` (the `sudoku-fast
dedup` command) drops the puzzles of a file that are equivalent to an earlier one.

`canonical_reference` and `transform_values_reference` are the slow, obviously correct
twins: the first tries every element of the group (with the relabelling fixed by the
lemma below) and keeps the smallest string. For a fixed arrangement of the cells, the
relabelling giving the smallest string numbers the symbols in order of first appearance
(the first clue can be 1, the next different symbol 2, and so on; any other choice is
larger at the first place where it differs).
"""

from __future__ import annotations

import itertools
import random
import sys
import time
from array import array
from collections.abc import Iterable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any, BinaryIO

from . import _canon
from .batch import (
    SearchLimitExceeded,
    encode_input,
    encode_values,
    node_budget,
    numpy_values,
    resolve_threads,
    run_chunks,
    shared_buffers,
)
from .generator import Rng, _line_order, check_seed
from .grid import CLASSIC, EMPTY, Geometry, check_flag, format_values, parse_grid
from .progress import Progress
from .stream import Messages, PuzzleReader

# Search steps a puzzle of a grid other than 9x9 with 3x3 boxes may take before
# `SearchLimitExceeded` (a 9x9 search always ends: its group is small enough to need no
# budget). The first 200 16x16 puzzles of the goomii set all fit in 1,000 steps; the
# budget stops the rare grid with a huge symmetry group after about a second.
DEFAULT_MAX_NODES = 1_000_000
_MIN_CHUNK = 64  # 9x9 puzzles take 2-10 us: a chunk of 64 is worth a thread hand-off
_REPEAT_HELP = "a canonical form needs a grid with no symbol repeated in a row or column"


@dataclass(frozen=True)
class Transformation:
    """One element of a grid's symmetry group, applied in this order:

    1. `transpose`: swap rows and columns (square boxes only);
    2. `rows`: output row i is input row `rows[i]`, counted from 0 (a permutation that
       keeps the bands whole: each run of box-height rows comes from one band);
    3. `cols`: output column j is input column `cols[j]` (keeps the stacks whole);
    4. `digits`: symbol k of the alphabet (k from 0) becomes `digits[k]`; `digits` is
       the alphabet in its new order, e.g. "912345678" turns 1 into 9 and 2 into 1.
    """

    transpose: bool
    rows: tuple[int, ...]
    cols: tuple[int, ...]
    digits: str


def _line_orders(n: int, block: int) -> Iterator[tuple[int, ...]]:
    """Every order of lines 0..n-1 that keeps each block of `block` lines together."""
    for blocks in itertools.permutations(range(n // block)):
        inner = [itertools.permutations(range(b * block, (b + 1) * block)) for b in blocks]
        for parts in itertools.product(*inner):
            yield tuple(itertools.chain.from_iterable(parts))


def _transposed(values: Sequence[int], n: int) -> list[int]:
    return [values[c * n + r] for r in range(n) for c in range(n)]


def canonical_values_reference(values: Sequence[int], geometry: Geometry) -> list[int]:
    """The canonical form of N*N values (0 = empty) by trying every group element.

    Slow (3.4 million arrangements for 9x9: seconds per puzzle) and obviously correct:
    every orientation, row order and column order is tried, each numbered by first
    appearance (see the module doc), and a candidate is dropped at the first cell
    where it is larger than the best so far. The twin of `_canon.canonical_range`.
    """
    n, br, bc = geometry.size, geometry.box_rows, geometry.box_cols
    _check_no_repeat(values, geometry)
    grids = [list(values)] + ([_transposed(values, n)] if br == bc else [])
    col_orders = list(_line_orders(n, bc))
    best: list[int] | None = None
    for grid in grids:
        for rows in _line_orders(n, br):
            lines = [grid[r * n : (r + 1) * n] for r in rows]
            for cols in col_orders:
                candidate = _first_appearance_or_none(lines, cols, best)
                if candidate is not None:
                    best = candidate
    assert best is not None
    return best


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


def transform_values_reference(
    values: Sequence[int], geometry: Geometry, transformation: Transformation
) -> list[int]:
    """Apply a checked `Transformation` to N*N values, in plain Python (the twin of
    `_canon.transform_range`)."""
    n = geometry.size
    grid = _transposed(values, n) if transformation.transpose else list(values)
    relabel = [0] + [geometry.symbols.index(ch) + 1 for ch in transformation.digits]
    return [relabel[grid[r * n + c]] for r in transformation.rows for c in transformation.cols]


def canonical_reference(
    puzzle: str, *, box: tuple[int, int] | None = None, alphabet: str | None = None
) -> str:
    """`canonical` by brute force (`canonical_values_reference`); for tests and small grids."""
    geometry, values = parse_grid(puzzle, box=box, alphabet=alphabet)
    return format_values(canonical_values_reference(values, geometry), geometry)


def _check_no_repeat(values: Sequence[int], geometry: Geometry, index: int | None = None) -> None:
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
                    raise ValueError(
                        f"{where}{symbol!r} repeats in {kind} {i + 1} ({_REPEAT_HELP})"
                    )
                seen.add(value)


# ---------------------------------------------------------------- checking parameters


def _check_order(order: object, geometry: Geometry, what: str, block: int) -> tuple[int, ...]:
    """A rows / cols argument as a tuple; TypeError / ValueError saying what is wrong."""
    n = geometry.size
    if order is None:
        return tuple(range(n))
    if isinstance(order, (str, bytes, AbstractSet, Mapping)) or not isinstance(order, Iterable):
        # A set or a mapping iterates in an order of its own: it cannot say which line
        # goes where.
        raise TypeError(f"{what} must be a sequence of {n} ints, not {type(order).__name__}")
    items = tuple(order)
    if not all(isinstance(x, int) and not isinstance(x, bool) for x in items):
        raise TypeError(f"{what} must hold ints (line numbers counted from 0)")
    if sorted(items) != list(range(n)):
        raise ValueError(f"{what} must be a permutation of 0..{n - 1}, got {list(items)}")
    kind = "band" if what == "rows" else "stack"
    for start in range(0, n, block):
        if len({x // block for x in items[start : start + block]}) != 1:
            raise ValueError(
                f"{what} {list(items[start : start + block])} (positions {start}-"
                f"{start + block - 1}) do not come from one {kind}: a symmetry keeps the "
                f"{kind}s of {block} {what} whole"
            )
    return items


def _check_digits(digits: object, geometry: Geometry) -> str:
    """A digits argument (the alphabet reordered, or the new values 1..N) as a string."""
    symbols = geometry.symbols
    n = geometry.size
    if digits is None:
        return symbols
    if isinstance(digits, str):
        if sorted(digits) != sorted(symbols):
            raise ValueError(
                f"digits must be the {n} symbols {symbols!r} in a new order, got {digits!r}"
            )
        return digits
    if isinstance(digits, Iterable) and not isinstance(
        digits, (bytes, bytearray, AbstractSet, Mapping)
    ):
        items = tuple(digits)
        if not all(isinstance(x, int) and not isinstance(x, bool) for x in items):
            raise TypeError("digits must be a str of symbols or a sequence of ints 1..N")
        if sorted(items) != list(range(1, n + 1)):
            raise ValueError(f"digits must be a permutation of 1..{n}, got {list(items)}")
        return "".join(symbols[x - 1] for x in items)
    raise TypeError(f"digits must be a str or a sequence of ints, not {type(digits).__name__}")


def _check_transformation(
    geometry: Geometry, transpose: object, rows: object, cols: object, digits: object
) -> Transformation:
    flip = check_flag(transpose, "transpose")
    if flip and geometry.box_rows != geometry.box_cols:
        raise ValueError(
            f"a {geometry.describe()} cannot be transposed: its boxes would become "
            f"{geometry.box_cols}x{geometry.box_rows}"
        )
    return Transformation(
        flip,
        _check_order(rows, geometry, "rows", geometry.box_rows),
        _check_order(cols, geometry, "cols", geometry.box_cols),
        _check_digits(digits, geometry),
    )


def _move(transformation: Transformation, geometry: Geometry) -> bytes:
    """A checked transformation in the byte form of `_canon.transform_range`."""
    # Value v (symbol v-1) becomes the value of the symbol digits[v-1].
    new_value = [0] + [geometry.symbols.index(ch) + 1 for ch in transformation.digits]
    return (
        bytes([transformation.transpose])
        + bytes(transformation.rows)
        + bytes(transformation.cols)
        + bytes(new_value)
    )


def _from_move(move: bytes | bytearray, geometry: Geometry) -> Transformation:
    n = geometry.size
    digits = "".join(geometry.symbols[move[1 + 2 * n + v] - 1] for v in range(1, n + 1))
    return Transformation(
        bool(move[0]), tuple(move[1 : 1 + n]), tuple(move[1 + n : 1 + 2 * n]), digits
    )


def _seeds(seed: int | None, n: int) -> array[int]:
    """The 64-bit seeds of n random symmetries: from one `random.Random(seed)`, in order
    (the first one is the same whatever n is)."""
    check_seed(seed)
    seeds = array("Q", random.Random(seed).randbytes(8 * n))
    if sys.byteorder == "big":
        seeds.byteswap()  # the bytes are read as little-endian numbers everywhere
    return seeds


def random_transformation(
    geometry: Geometry = CLASSIC, *, seed: int | None = None
) -> Transformation:
    """A group element of `geometry` drawn uniformly at random (every element equally likely).

    `seed` seeds a private `random.Random`, whose first 64 bits seed the draws:
    `random_transform(p, seed=s)` moves `p` by exactly this element. The draws are those
    of `generator.Rng` (the compiled modules' random numbers, in Python): the row order,
    the column order (each a band / stack order, then the lines within each), the
    relabelling, and, for square boxes, a transposition half of the time.
    """
    if not isinstance(geometry, Geometry):
        raise TypeError(
            f"random_transformation takes a Geometry (see geometry_for), not "
            f"{type(geometry).__name__}"
        )
    return _draw_transformation(geometry, _seeds(seed, 1)[0])


def _draw_transformation(geometry: Geometry, seed64: int) -> Transformation:
    """The element `_canon.random_transform_range` draws from one 64-bit seed (its twin)."""
    rng = Rng(seed64)
    n, br, bc = geometry.size, geometry.box_rows, geometry.box_cols
    rows = tuple(_line_order(rng, br, n // br))
    cols = tuple(_line_order(rng, bc, n // bc))
    labels = list(range(1, n + 1))
    rng.shuffle(labels)
    transpose = br == bc and rng.below(2) == 1
    if transpose:  # drawn for a transposition after the permutations: swap their roles
        rows, cols = cols, rows
    digits = "".join(geometry.symbols[label - 1] for label in labels)
    return Transformation(transpose, rows, cols, digits)


# ---------------------------------------------------------------- the public functions


def transform(
    puzzle: str,
    *,
    transpose: bool = False,
    rows: Sequence[int] | None = None,
    cols: Sequence[int] | None = None,
    digits: str | Sequence[int] | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
) -> str:
    """The puzzle moved by one symmetry, given by its parameters (see `Transformation`).

    `transpose` swaps rows and columns first (square boxes only); `rows[i]` is the input
    row placed at row i and `cols[j]` the input column placed at column j (counted from
    0; each band / stack of lines must stay whole); `digits` relabels: the alphabet in
    its new order ("912345678": 1 becomes 9, 2 becomes 1, ...) or the new values as ints
    ([9, 1, 2, ...]). Omitted parameters leave that part unchanged. The puzzle is read
    in any notation `parse` accepts; `box` / `alphabet` fix the geometry as there.
    Raises ValueError for parameters that are no symmetry of the grid.

    >>> transform("1234" + "." * 12, rows=[1, 0, 2, 3], digits="4321")
    '....4321........'
    """
    geometry, values = parse_grid(puzzle, box=box, alphabet=alphabet)
    transformation = _check_transformation(geometry, transpose, rows, cols, digits)
    return _apply([values], geometry, [_move(transformation, geometry)])[0]


def apply_transformation(
    puzzle: str,
    transformation: Transformation,
    *,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
) -> str:
    """`transform` with the parameters of a `Transformation` (e.g. from `canonical_transform`)."""
    if not isinstance(transformation, Transformation):
        raise TypeError(f"expected a Transformation, not {type(transformation).__name__}")
    return transform(
        puzzle,
        transpose=transformation.transpose,
        rows=transformation.rows,
        cols=transformation.cols,
        digits=transformation.digits,
        box=box,
        alphabet=alphabet,
    )


def _apply(values: list[bytes], geometry: Geometry, moves: list[bytes]) -> list[str]:
    """Apply one checked move per grid (compiled); the results as strings."""
    n, cells = len(values), geometry.cells
    grids = b"".join(values)
    out = bytearray(n * cells)
    _canon.transform_range(grids, geometry.size, b"".join(moves), out, 0, n)
    text = format_values(out, geometry)
    return [text[i * cells : (i + 1) * cells] for i in range(n)]


def random_transform(
    puzzle: str,
    *,
    seed: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
) -> str:
    """The puzzle moved by a uniformly drawn symmetry (`random_transformation`).

    An equivalent puzzle: the same clue count, solution count and difficulty, in a
    different look. `seed` makes the draw repeatable (a private `random.Random`).
    """
    geometry, values = parse_grid(puzzle, box=box, alphabet=alphabet)
    return _random_images(geometry, values, 1, _seeds(seed, 1), 1)[0]


def _batch(
    puzzles: Any, what: str, box: object, alphabet: object, threads: int | None = 1
) -> tuple[Geometry, Any, int]:
    """Encode a batch as the other batch functions do: (geometry, grids, n)."""
    arr = numpy_values(puzzles)
    if arr is not None:
        grids, n, geometry = encode_values(arr, what, box, alphabet)
        return geometry, grids, n
    geometry, grids, n, _column = encode_input(puzzles, what, box, alphabet, threads=threads)
    return geometry, grids, n


def random_transform_many(
    puzzles: Any,
    *,
    seed: int | None = None,
    threads: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
) -> list[str]:
    """`random_transform` for a batch: each puzzle moved by its own random symmetry.

    Puzzle i is moved by the element drawn from the i-th 64 bits of one
    `random.Random(seed)` (so the first is `random_transform(p, seed=seed)`), in compiled
    code on threads: a seed gives the same output whatever `threads`. Accepts the inputs
    of `solve_many` (strings, columns, numpy arrays); returns strings in input order.
    """
    geometry, grids, n = _batch(puzzles, "random_transform_many", box, alphabet, threads)
    return _random_images(geometry, grids, n, _seeds(seed, n), threads)


def _random_images(
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


def _run_canonical(
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
    min_chunk = max(1, _MIN_CHUNK * 81 // cells)

    stop_flag = bytearray(1)
    symbols = _symbol_table(geometry) if texts is not None else b""
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


def _symbol_table(geometry: Geometry) -> bytes:
    """Value -> character for `_canon.texts_range` (256 bytes); b"" for an alphabet that
    is not ASCII."""
    if not geometry.symbols.isascii():
        return b""
    return (EMPTY + geometry.symbols).encode("ascii").ljust(256, b"\0")


def _raise_for_status(
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
    if _canon.STATUS_MEMORY in status:
        raise MemoryError("not enough memory for the search of a canonical form")
    cells = geometry.cells
    for i, code in enumerate(status):
        if code == _canon.STATUS_REPEAT:
            _check_no_repeat(
                bytes(grids[i * cells : (i + 1) * cells]), geometry, None if single else i
            )
    indices = [i for i, code in enumerate(status) if code == _canon.STATUS_BUDGET]
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


def canonical(
    puzzle: str,
    *,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
) -> str:
    """The canonical form of a puzzle: the smallest equivalent string (see the module doc).

    Two puzzles are equivalent (one is a relabelling, row / column / band / stack
    permutation or transposition of the other) exactly when their canonical forms are
    equal. The puzzle is read in any notation `parse` accepts (`box` / `alphabet` as
    there); the result is in the grid's own symbols with `.` for empty cells. Grids
    other than 9x9 with 3x3 boxes get `max_nodes` search steps (None = no budget);
    running out raises `SearchLimitExceeded`. A symbol repeated in a row or column
    raises ValueError.

    >>> canonical("........1" + "." * 72) == canonical("5" + "." * 80)
    True
    """
    geometry, values = parse_grid(puzzle, box=box, alphabet=alphabet)
    out, status, _moves, _ = _run_canonical(geometry, values, 1, 1, max_nodes, False)
    _raise_for_status(status, values, geometry, max_nodes, True)
    return format_values(out, geometry)


def canonical_transform(
    puzzle: str,
    *,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
) -> Transformation:
    """A symmetry that maps the puzzle to its canonical form.

    `apply_transformation(puzzle, t) == canonical(puzzle)`; apply the same `t` to the
    puzzle's solution to get the solution of the canonical puzzle. When the puzzle has
    symmetries of its own, several elements do this; one of them is returned.
    """
    geometry, values = parse_grid(puzzle, box=box, alphabet=alphabet)
    _out, status, moves, _ = _run_canonical(geometry, values, 1, 1, max_nodes, True)
    _raise_for_status(status, values, geometry, max_nodes, True)
    return _from_move(moves, geometry)


def canonical_many(
    puzzles: Any,
    *,
    threads: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
) -> list[str]:
    """`canonical` for a batch, on several threads; results in input order.

    Accepts the inputs of `solve_many`: an iterable of strings, a column (pandas,
    pyarrow, polars, numpy text) or a numpy integer array of shape (n, N*N) or
    (n, N, N). A batch holds puzzles of one size. `threads` as in `solve_many`. A
    malformed item, or one with a symbol repeated in a row or column, raises ValueError
    (TypeError for a non-str) naming its index.
    """
    geometry, grids, n = _batch(puzzles, "canonical_many", box, alphabet, threads)
    texts: list[str | None] | None = [None] * n if _symbol_table(geometry) else None
    out, status, _moves, _ = _run_canonical(geometry, grids, n, threads, max_nodes, False, texts)
    _raise_for_status(status, grids, geometry, max_nodes, False, out)
    if texts is not None:
        return texts  # type: ignore[return-value]  # no None left: every status is OK
    text = format_values(out, geometry)
    cells = geometry.cells
    return [text[i * cells : (i + 1) * cells] for i in range(n)]


# ---------------------------------------------------------------- deduplicating a file


@dataclass
class DedupReport:
    """What `dedup_stream` did: records read, kept, dropped as equivalent to an earlier
    one (`exact`: of those, the ones with the same grid as an earlier record, the same
    values in the same cells, whatever the notation), malformed (left out), undecided
    (out of budget, kept), seconds and threads."""

    records: int = 0
    kept: int = 0
    equivalent: int = 0
    exact: int = 0
    malformed: int = 0
    undecided: int = 0
    seconds: float = 0.0
    threads: int = 1


def dedup_stream(
    reader: PuzzleReader,
    out: BinaryIO,
    messages: Messages,
    progress: Progress,
    *,
    threads: int | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
) -> DedupReport:
    """Copy the records of `reader` to `out`, leaving out every puzzle equivalent to an
    earlier one (first occurrences are kept, in input order; CSV rows are copied whole,
    after the header).

    A malformed record, or one with a symbol repeated in a row or column, is reported
    through `messages` and left out. A puzzle whose search runs out of `max_nodes` is
    reported and kept (undecided). Memory grows with the number of distinct puzzles
    (their canonical forms are kept), not with the file.
    """
    resolve_threads(threads)  # refused before any work if it is not a thread count
    report = DedupReport()
    started = time.perf_counter()
    seen: dict[bytes, int] = {}  # canonical form -> hash of the first grid with it
    others: dict[bytes, set[int]] = {}  # the same for later, different grids of a form
    if reader.is_csv:
        out.write(reader.header.encode() + b"\n")
    for batch in reader:
        geometry, n, cells = batch.geometry, batch.n, batch.geometry.cells
        forms, status, _moves, used = _run_canonical(
            geometry, batch.grids, n, threads, max_nodes, False
        )
        report.threads = max(report.threads, used)
        if _canon.STATUS_MEMORY in status:
            raise MemoryError("not enough memory for the search of a canonical form")
        problems = dict(batch.problems)
        for i in range(n):
            report.records += 1
            line = batch.line_numbers[i]
            grid = bytes(batch.grids[i * cells : (i + 1) * cells])
            if i in problems:
                report.malformed += 1
                messages.line(reader.name, line, problems[i])
                continue
            if status[i] == _canon.STATUS_REPEAT:
                report.malformed += 1
                try:
                    _check_no_repeat(grid, geometry)
                except ValueError as err:
                    messages.line(reader.name, line, str(err))
                continue
            if status[i] == _canon.STATUS_BUDGET:
                report.undecided += 1
                messages.line(
                    reader.name,
                    line,
                    f"kept: no canonical form within {max_nodes:,} search steps "
                    "(pass a larger max_nodes, or None)",
                )
            else:
                form = bytes(forms[i * cells : (i + 1) * cells])
                first = seen.get(form)
                if first is not None:
                    report.equivalent += 1
                    grid_hash = hash(grid)
                    later = others.setdefault(form, set())
                    if grid_hash == first or grid_hash in later:
                        report.exact += 1
                    else:
                        later.add(grid_hash)
                    continue
                seen[form] = hash(grid)
            report.kept += 1
            begin, end = batch.spans[2 * i], batch.spans[2 * i + 1]
            out.write(bytes(batch.text[begin:end]) + b"\n")
        progress.update(report.records, batch.bytes_end)
    report.seconds = time.perf_counter() - started
    return report
