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
(`canonical_many`, `random_transform_many`) run on the package's threads in compiled
code (`_symmetry/_canon.pyx`) that releases the GIL; its slow, obviously correct twin
(`_symmetry/_canon_py.py`) tries every element of the group. The `sudoku-fast dedup`
command drops the puzzles of a file that are equivalent to an earlier one
(`_files/dedup.py`).
"""

from __future__ import annotations

import random
import sys
from array import array
from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import Any, Literal, NamedTuple, cast, overload

from ._base.checks import check_flag, check_seed
from ._base.columns import ItemErrors, check_item_errors
from ._base.grid import CLASSIC, Geometry, format_values, parse_grid
from ._base.options import ProgressOption
from ._base.rules import Rules, as_rules
from ._columns.blocks import in_blocks, resolve_progress
from ._columns.forgiving import forgive, sized
from ._columns.inputs import encode_values, read_batch, values_array
from ._symmetry.canon import (
    DEFAULT_CANONICAL_NODES,
    Transformation,
    apply_moves,
    draw_transformation,
    from_move,
    move_of,
    raise_for_status,
    random_images,
    run_canonical,
    symbol_table,
)
from ._symmetry.variant import canonical_pair, random_pair
from ._variants.run import box_for
from .solving import RulesLike

__all__ = [
    "DEFAULT_CANONICAL_NODES",
    "Transformation",
    "VariantForm",
    "apply_transformation",
    "canonical",
    "canonical_many",
    "canonical_transform",
    "canonical_transform_many",
    "canonical_variant",
    "random_transform",
    "random_transform_many",
    "random_transformation",
    "random_variant_transform",
    "transform",
]


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

    The draws are those of `_base/randomness.Rng` (the compiled modules' random
    numbers, in Python): the row order, the column order (each a band / stack order,
    then the lines within each), the relabelling, and, for square boxes, a
    transposition half of the time.

    Parameters
    ----------
    geometry : Geometry, default 9x9
        The grid whose symmetry group to draw from (see `geometry_for`).
    seed : int, optional
        Seeds a private `random.Random`, whose first 64 bits seed the draws:
        `random_transform(p, seed=s)` moves `p` by exactly this element.

    Returns
    -------
    Transformation
        The drawn element.

    Raises
    ------
    TypeError
        `geometry` is not a Geometry, or `seed` not an int.

    Examples
    --------
    >>> import sudoku_fast as sf
    >>> p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    >>> t = sf.random_transformation(seed=5)
    >>> sf.apply_transformation(p, t) == sf.random_transform(p, seed=5)
    True
    """
    if not isinstance(geometry, Geometry):
        raise TypeError(
            f"random_transformation takes a Geometry (see geometry_for), not "
            f"{type(geometry).__name__}"
        )
    return draw_transformation(geometry, _seeds(seed, 1)[0])


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

    Parameters
    ----------
    puzzle : str
        The puzzle, in any notation `parse` accepts.
    transpose : bool, default False
        Swap rows and columns first (square boxes only).
    rows : sequence of int, optional
        `rows[i]` is the input row placed at row i (counted from 0; bands stay whole).
    cols : sequence of int, optional
        `cols[j]` is the input column placed at column j (stacks stay whole).
    digits : str or sequence of int, optional
        The relabelling: the alphabet in its new order, or the new values as ints.
    box, alphabet : optional
        Fix the geometry, as in `parse`.

    Returns
    -------
    str
        The moved puzzle, in canonical form.

    Raises
    ------
    ValueError
        Parameters that are no symmetry of the grid, or a malformed puzzle.
    TypeError
        A parameter of the wrong type.

    Examples
    --------
    >>> import sudoku_fast as sf
    >>> sf.transform("1234" + "." * 12, rows=[1, 0, 2, 3], digits="4321")
    '....4321........'
    """
    geometry, values = parse_grid(puzzle, box=box, alphabet=alphabet)
    transformation = _check_transformation(geometry, transpose, rows, cols, digits)
    return apply_moves([values], geometry, [move_of(transformation, geometry)])[0]


def apply_transformation(
    puzzle: str,
    transformation: Transformation,
    *,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
) -> str:
    """`transform` with the parameters of a `Transformation` (e.g. from `canonical_transform`).

    Parameters
    ----------
    puzzle : str
        The puzzle (or a solution grid), in any notation `parse` accepts.
    transformation : Transformation
        The symmetry to apply.
    box, alphabet : optional
        Fix the geometry, as in `parse`.

    Returns
    -------
    str
        The moved grid, in canonical form.

    Raises
    ------
    TypeError
        `transformation` is not a Transformation.
    ValueError
        The transformation does not fit the puzzle's geometry, or a malformed puzzle.

    Examples
    --------
    >>> import sudoku_fast as sf
    >>> p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    >>> t = sf.canonical_transform(p)
    >>> sf.apply_transformation(p, t) == sf.canonical(p)
    True
    >>> sf.is_solution(sf.apply_transformation(sf.solve(p), t), sf.canonical(p))
    True
    """
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


def random_transform(
    puzzle: str,
    *,
    seed: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
) -> str:
    """The puzzle moved by a uniformly drawn symmetry (`random_transformation`).

    An equivalent puzzle: the same clue count, solution count and difficulty, in a
    different look (data augmentation).

    Parameters
    ----------
    puzzle : str
        The puzzle, in any notation `parse` accepts.
    seed : int, optional
        Makes the draw repeatable (a private `random.Random`).
    box, alphabet : optional
        Fix the geometry, as in `parse`.

    Returns
    -------
    str
        The moved puzzle, in canonical form.

    Raises
    ------
    ValueError, TypeError
        A malformed puzzle, or a bad seed.

    Examples
    --------
    >>> import sudoku_fast as sf
    >>> p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    >>> q = sf.random_transform(p, seed=7)
    >>> sf.canonical(q) == sf.canonical(p), sf.count_solutions(q)
    (True, 1)
    """
    geometry, values = parse_grid(puzzle, box=box, alphabet=alphabet)
    return random_images(geometry, values, 1, _seeds(seed, 1), 1)[0]


def _batch(
    puzzles: Any, what: str, box: object, alphabet: object, threads: int | None = 1
) -> tuple[Geometry, Any, int]:
    """Encode a batch as the other batch functions do: (geometry, grids, n)."""
    arr = values_array(puzzles)
    if arr is not None:
        grids, n, geometry = encode_values(arr, what, box, alphabet)
        return geometry, grids, n
    geometry, grids, n, _column = read_batch(puzzles, what, box, alphabet, threads=threads)
    return geometry, grids, n


@overload
def random_transform_many(
    puzzles: Any,
    *,
    seed: int | None = None,
    threads: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    on_error: Literal["raise"] = "raise",
) -> list[str]: ...


@overload
def random_transform_many(
    puzzles: Any,
    *,
    seed: int | None = None,
    threads: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    on_error: Literal["none", "warn"],
) -> list[str | None]: ...


def random_transform_many(
    puzzles: Any,
    *,
    seed: int | None = None,
    threads: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    on_error: ItemErrors = "raise",
) -> list[str] | list[str | None]:
    """`random_transform` for a batch: each puzzle moved by its own random symmetry.

    Puzzle i is moved by the element drawn from the i-th 64 bits of one
    `random.Random(seed)` (so the first is `random_transform(p, seed=seed)`), in compiled
    code on threads: a seed gives the same output whatever `threads`.

    Parameters
    ----------
    puzzles : iterable of str, column or numpy array
        The inputs of `solve_many`.
    seed : int, optional
        Makes the draws repeatable.
    threads, box, alphabet
        As in `solve_many`.
    on_error : {"raise", "none", "warn"}, default "raise"
        As in `solve_many`.

    Returns
    -------
    list of str
        The moved puzzles, in input order.

    Raises
    ------
    ValueError, TypeError
        A malformed item, naming its index.

    Examples
    --------
    >>> import sudoku_fast as sf
    >>> p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    >>> moved = sf.random_transform_many([p, p], seed=3)
    >>> moved[0] == sf.random_transform(p, seed=3), len(set(sf.canonical_many(moved)))
    (True, 1)
    """
    if check_item_errors(on_error) != "raise":
        # Each item keeps the element drawn for its position, as without a bad item.
        puzzles = sized(puzzles, "random_transform_many")
        draws = _seeds(seed, len(puzzles))

        def moved(batch: Any, rows: list[int] | None) -> list[str]:
            geometry, grids, n = _batch(batch, "random_transform_many", box, alphabet, threads)
            seeds = draws if rows is None else array("Q", [draws[i] for i in rows])
            return random_images(geometry, grids, n, seeds, threads)

        forgiven: list[str] = forgive(
            moved, puzzles, on_error, "random_transform_many", box=box, alphabet=alphabet
        )
        return forgiven
    geometry, grids, n = _batch(puzzles, "random_transform_many", box, alphabet, threads)
    return random_images(geometry, grids, n, _seeds(seed, n), threads)


def canonical(
    puzzle: str,
    *,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_CANONICAL_NODES,
) -> str:
    """The canonical form of a puzzle: the smallest equivalent string (see the module doc).

    Two puzzles are equivalent (one is a relabelling, row / column / band / stack
    permutation or transposition of the other) exactly when their canonical forms are
    equal. The puzzle is read in any notation `parse` accepts (`box` / `alphabet` as
    there); the result is in the grid's own symbols with `.` for empty cells. Grids
    other than 9x9 with 3x3 boxes get `max_nodes` search steps (None = no budget).

    Parameters
    ----------
    puzzle : str
        The puzzle, in any notation `parse` accepts.
    box, alphabet : optional
        Fix the geometry, as in `parse`.
    max_nodes : int or None
        Search-step budget for grids other than 9x9 (None: no budget).

    Returns
    -------
    str
        The smallest equivalent string (`.` sorts before every symbol), in the grid's
        own symbols.

    Raises
    ------
    ValueError
        A symbol repeated in a row or column, or a malformed puzzle.
    TypeError
        `puzzle` is not a str.
    SearchLimitExceeded
        The search ran out of `max_nodes`.

    Examples
    --------
    >>> import sudoku_fast as sf
    >>> sf.canonical("........1" + "." * 72) == sf.canonical("5" + "." * 80)
    True
    """
    geometry, values = parse_grid(puzzle, box=box, alphabet=alphabet)
    out, status, _moves, _ = run_canonical(geometry, values, 1, 1, max_nodes, False)
    raise_for_status(status, values, geometry, max_nodes, True)
    return format_values(out, geometry)


def canonical_transform(
    puzzle: str,
    *,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_CANONICAL_NODES,
) -> Transformation:
    """A symmetry that maps the puzzle to its canonical form.

    `apply_transformation(puzzle, t) == canonical(puzzle)`; apply the same `t` to the
    puzzle's solution to get the solution of the canonical puzzle. When the puzzle has
    symmetries of its own, several elements do this; one of them is returned.

    Parameters
    ----------
    puzzle : str
        The puzzle, in any notation `parse` accepts.
    box, alphabet, max_nodes
        As in `canonical`.

    Returns
    -------
    Transformation
        A symmetry taking the puzzle to `canonical(puzzle)`.

    Raises
    ------
    ValueError, TypeError, SearchLimitExceeded
        As `canonical`.

    Examples
    --------
    See `apply_transformation`.
    """
    geometry, values = parse_grid(puzzle, box=box, alphabet=alphabet)
    _out, status, moves, _ = run_canonical(geometry, values, 1, 1, max_nodes, True)
    raise_for_status(status, values, geometry, max_nodes, True)
    return from_move(moves, geometry)


@overload
def canonical_many(
    puzzles: Any,
    *,
    threads: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_CANONICAL_NODES,
    on_error: Literal["raise"] = "raise",
    progress: ProgressOption = None,
) -> list[str]: ...


@overload
def canonical_many(
    puzzles: Any,
    *,
    threads: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_CANONICAL_NODES,
    on_error: Literal["none", "warn"],
    progress: ProgressOption = None,
) -> list[str | None]: ...


def canonical_many(
    puzzles: Any,
    *,
    threads: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_CANONICAL_NODES,
    on_error: ItemErrors = "raise",
    progress: ProgressOption = None,
) -> list[str] | list[str | None]:
    """`canonical` for a batch, on several threads; results in input order.

    Accepts the inputs of `solve_many`: an iterable of strings, a column (pandas,
    pyarrow, polars, numpy text) or a numpy integer array of shape (n, N*N) or
    (n, N, N). A batch holds puzzles of one size.

    Parameters
    ----------
    puzzles : iterable of str, column or numpy array
        The inputs of `solve_many`.
    threads, box, alphabet
        As in `solve_many`.
    max_nodes : int or None
        As in `canonical`, per puzzle.
    on_error : {"raise", "none", "warn"}, default "raise"
        As in `solve_many` (a missing form is None).
    progress : callable, True or None, default None
        As in `solve_many`.

    Returns
    -------
    list of str
        The canonical forms, in input order.

    Raises
    ------
    ValueError
        A malformed item, or one with a symbol repeated in a row or column, naming its
        index.
    TypeError
        An item that is not a str, naming its index.
    SearchLimitExceeded
        Some puzzles ran out of `max_nodes`.

    Examples
    --------
    >>> import sudoku_fast as sf
    >>> p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    >>> forms = sf.canonical_many([p, sf.random_transform(p, seed=1)], threads=2)
    >>> forms[0] == forms[1]
    True
    """
    if progress is not None:
        report = resolve_progress(progress, "canonical_many")
        if report is not None:
            blocks: list[str] = in_blocks(
                lambda block: cast(Any, canonical_many)(
                    block, threads=threads, box=box, alphabet=alphabet, max_nodes=max_nodes,
                    on_error=on_error,
                ),
                puzzles, report, "canonical_many",
                fixed_geometry=box is not None or alphabet is not None,
            )  # fmt: skip
            return blocks
    if check_item_errors(on_error) != "raise":
        forms: list[str] = forgive(
            lambda batch, _rows: canonical_many(
                batch, threads=threads, box=box, alphabet=alphabet, max_nodes=max_nodes
            ),
            puzzles, on_error, "canonical_many", box=box, alphabet=alphabet,
        )  # fmt: skip
        return forms
    geometry, grids, n = _batch(puzzles, "canonical_many", box, alphabet, threads)
    texts: list[str | None] | None = [None] * n if symbol_table(geometry) else None
    out, status, _moves, _ = run_canonical(geometry, grids, n, threads, max_nodes, False, texts)
    raise_for_status(status, grids, geometry, max_nodes, False, out)
    if texts is not None:
        return texts  # no None left: every status is OK
    text = format_values(out, geometry)
    cells = geometry.cells
    return [text[i * cells : (i + 1) * cells] for i in range(n)]


@overload
def canonical_transform_many(
    puzzles: Any,
    *,
    threads: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_CANONICAL_NODES,
    on_error: Literal["raise"] = "raise",
    progress: ProgressOption = None,
) -> list[Transformation]: ...


@overload
def canonical_transform_many(
    puzzles: Any,
    *,
    threads: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_CANONICAL_NODES,
    on_error: Literal["none", "warn"],
    progress: ProgressOption = None,
) -> list[Transformation | None]: ...


def canonical_transform_many(
    puzzles: Any,
    *,
    threads: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    max_nodes: int | None = DEFAULT_CANONICAL_NODES,
    on_error: ItemErrors = "raise",
    progress: ProgressOption = None,
) -> list[Transformation] | list[Transformation | None]:
    """`canonical_transform` for a batch: for each puzzle, a symmetry that maps it to its
    canonical form (found in the same search as `canonical_many`'s forms).

    Parameters
    ----------
    puzzles : iterable of str, column or numpy array
        Any input `canonical_many` takes.
    threads, box, alphabet, max_nodes, on_error, progress : optional
        As in `canonical_many` (with on_error "none" or "warn" a bad item gets None).

    Returns
    -------
    list of Transformation
        In input order; `apply_transformation(p, t) == canonical(p)` for each pair.

    Raises
    ------
    ValueError
        A malformed item, or one with a symbol repeated in a row or column.

    Examples
    --------
    >>> p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    >>> [t] = canonical_transform_many([p])
    >>> apply_transformation(p, t) == canonical(p)
    True
    """
    if progress is not None:
        report = resolve_progress(progress, "canonical_transform_many")
        if report is not None:
            blocks: list[Transformation] = in_blocks(
                lambda block: cast(Any, canonical_transform_many)(
                    block, threads=threads, box=box, alphabet=alphabet, max_nodes=max_nodes,
                    on_error=on_error,
                ),
                puzzles, report, "canonical_transform_many",
                fixed_geometry=box is not None or alphabet is not None,
            )  # fmt: skip
            return blocks
    if check_item_errors(on_error) != "raise":
        found: list[Transformation] = forgive(
            lambda batch, _rows: canonical_transform_many(
                batch, threads=threads, box=box, alphabet=alphabet, max_nodes=max_nodes
            ),
            puzzles, on_error, "canonical_transform_many", box=box, alphabet=alphabet,
        )  # fmt: skip
        return found
    geometry, grids, n = _batch(puzzles, "canonical_transform_many", box, alphabet, threads)
    out, status, moves, _ = run_canonical(geometry, grids, n, threads, max_nodes, True)
    raise_for_status(status, grids, geometry, max_nodes, False, out)
    step = len(moves) // n if n else 0
    return [from_move(moves[i * step : (i + 1) * step], geometry) for i in range(n)]


# ---------------------------------------------------------------- puzzles with rules


class VariantForm(NamedTuple):
    """The canonical form of a puzzle with its rules (see `canonical_variant`).

    Attributes
    ----------
    puzzle : str
        The canonical givens, in the grid's symbols with `.` for empty cells.
    rules : Rules or None
        The canonical rules: the rules moved with the givens, in a normal form (regions
        labelled 1, 2, ... by first appearance, cells of cages and extra sets sorted,
        cages, sets and thermometers sorted); None for classic rules.
    key : str
        One text for deduplication: equal exactly when the two (puzzle, rules) pairs
        are symmetries of each other. For classic rules it is `canonical(puzzle)`.

    Examples
    --------
    >>> import sudoku_fast as sf
    >>> form = sf.canonical_variant("1" + "." * 15, {"anti_king": True})
    >>> form.puzzle, form.rules == sf.Rules.named("anti-king")
    ('...............1', True)
    """

    puzzle: str
    rules: Rules | None
    key: str


def _variant_input(
    puzzle: str, rules: RulesLike | None, box: object, alphabet: object
) -> tuple[Geometry, bytes, Rules | None]:
    """Rules read and checked against the puzzle's grid; the puzzle parsed."""
    checked = as_rules(rules)
    geometry, values = parse_grid(
        puzzle,
        box=cast(Any, box_for(checked, box, alphabet)) if checked is not None else box,
        alphabet=alphabet,
    )
    if checked is not None:
        checked.check(geometry.size, (geometry.box_rows, geometry.box_cols))
    return geometry, values, checked


def canonical_variant(
    puzzle: str,
    rules: RulesLike | None,
    *,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
) -> VariantForm:
    """The canonical form of a puzzle together with its variant rules.

    The rules move with the givens: the symmetries are the cell permutations that map
    the rule set to one of the same kind, with the digits relabelled where the rules
    allow it. Rules that draw shapes or tie neighbouring cells (jigsaw regions, extra
    sets, killer cages, thermometers, anti-knight, anti-king, non-consecutive) keep
    the 8 symmetries of the square; the diagonals, windoku windows and disjoint groups
    keep every classic symmetry that maps them onto themselves (96 for Sudoku X).
    Digits are relabelled freely unless a rule names them: only reversed (d -> N+1-d)
    with non-consecutive, never with killer sums or thermometers. The form is the
    smallest moved pair (givens first, then the rules' normal form); `key` joins both
    and is equal for two pairs exactly when one is a symmetry of the other.

    Parameters
    ----------
    puzzle : str
        The givens, in any notation `parse` accepts.
    rules : Rules, JSON mapping or text, preset names, or None
        The puzzle's rules (None or empty: classic, the form of `canonical`).
    box, alphabet : optional
        Fix the geometry, as in `parse`.

    Returns
    -------
    VariantForm
        `(puzzle, rules, key)`: the canonical givens, the canonical rules and the key.

    Raises
    ------
    ValueError
        A malformed puzzle, or rules that do not fit its grid.
    TypeError
        `puzzle` is not a str, or `rules` not a rules description.

    Examples
    --------
    >>> import sudoku_fast as sf
    >>> x = sf.Rules.named("x")
    >>> p = "1..." "...." "...." "...2"
    >>> a = sf.canonical_variant(p, x)
    >>> b = sf.canonical_variant("2..." "...." "...." "...1", x)  # relabelled
    >>> c = sf.canonical_variant("...1" "...." "...." "2...", x)  # mirrored
    >>> a.key == b.key == c.key, a.puzzle
    (True, '......1..2......')
    >>> killer = {"cages": [{"cells": [0, 1], "sum": 3}]}
    >>> sf.canonical_variant("." * 16, killer).rules.cages  # the cage moved to its smallest place
    (Cage(cells=(0, 1), total=3),)
    """
    geometry, values, checked = _variant_input(puzzle, rules, box, alphabet)
    if checked is None:
        form = canonical(puzzle, box=box, alphabet=alphabet)
        return VariantForm(form, None, form)
    found = canonical_pair(values, checked, geometry)
    return VariantForm(format_values(bytes(found.values), geometry), found.rules, found.key)


def random_variant_transform(
    puzzle: str,
    rules: RulesLike | None,
    *,
    seed: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
) -> tuple[str, Rules | None]:
    """The puzzle and its rules moved together by a random symmetry of the rules.

    The element is drawn uniformly from the group `canonical_variant` uses (cells
    first, then the digits as the rules allow), so the moved pair has the same
    canonical form, the same solution count and the same solutions, moved alike: the
    same call with the same `seed` and rules on the puzzle's solution gives the moved
    puzzle's solution.

    Parameters
    ----------
    puzzle : str
        The givens (or a solution), in any notation `parse` accepts.
    rules : Rules, JSON mapping or text, preset names, or None
        The puzzle's rules (None or empty: classic, as `random_transform`).
    seed : int, optional
        Makes the draw repeatable (a private `random.Random`).
    box, alphabet : optional
        Fix the geometry, as in `parse`.

    Returns
    -------
    (str, Rules or None)
        The moved puzzle and the moved rules (None for classic rules).

    Raises
    ------
    ValueError, TypeError
        As `canonical_variant`, or a bad seed.

    Examples
    --------
    >>> import sudoku_fast as sf
    >>> jigsaw = {"regions": "1122" "1122" "3344" "3344"}
    >>> p = "1..." "..3." "...." "...."
    >>> q, moved = sf.random_variant_transform(p, jigsaw, seed=2)
    >>> sf.canonical_variant(q, moved).key == sf.canonical_variant(p, jigsaw).key
    True
    >>> sf.count_solutions(q, rules=moved, limit=100) == sf.count_solutions(
    ...     p, rules=jigsaw, limit=100)
    True
    """
    check_seed(seed)
    geometry, values, checked = _variant_input(puzzle, rules, box, alphabet)
    if checked is None:
        return random_transform(puzzle, seed=seed, box=box, alphabet=alphabet), None
    moved, moved_rules = random_pair(values, checked, geometry, random.Random(seed))
    return format_values(moved, geometry), moved_rules
