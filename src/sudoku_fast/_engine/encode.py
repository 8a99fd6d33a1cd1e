"""Batches to engine buffers and back: puzzle texts to N*N values per grid, solutions to text.

A batch holds puzzles of one size: its geometry comes from `box` / `alphabet` when
given, else from its first puzzle. Plain 9x9 strings are encoded by compiled code
(`_core.encode_strings`); any other item goes through the parser, which names the
index, position and character of a malformed one.
"""

from __future__ import annotations

from array import array
from typing import Any

from .._base.grid import (
    CLASSIC,
    Geometry,
    format_values,
    geometry_for,
    parse_grid,
    parse_marks_grid,
)
from .isa import core as _core  # the build of the 9x9 engine chosen for this CPU
from .results import EngineResults

__all__ = [
    "as_text",
    "decode_range",
    "decode_solutions",
    "encode_item",
    "encode_marks",
    "encode_puzzles",
    "encode_texts",
    "item_geometry",
]


def as_text(item: Any) -> Any:
    """A bytes-like puzzle as text (ASCII or UTF-8); any other object unchanged."""
    if isinstance(item, (bytes, bytearray, memoryview)):
        return bytes(item).decode("utf-8", errors="replace")
    return item


def encode_puzzles(puzzles: list[Any]) -> bytearray:
    """Encode a list of 9x9 puzzle strings into one buffer of 81-byte grids.

    Raises TypeError/ValueError naming the index of the first bad item (see
    `encode_texts`, which this is for the classic geometry).
    """
    return encode_texts(puzzles, box=(3, 3))[1]


def encode_texts(
    puzzles: list[Any], box: object = None, alphabet: object = None
) -> tuple[Geometry, bytearray]:
    """Encode a batch of puzzles of one size into its geometry and one buffer of N*N grids.

    The geometry is fixed by `box` / `alphabet` when given, else by the first puzzle.
    Raises TypeError/ValueError naming the index of the first bad item, including an
    item of another size.
    """
    inferred = box is None and alphabet is None
    if not inferred:
        geometry = geometry_for(None, box, alphabet)
    elif puzzles:
        geometry = item_geometry(puzzles[0])
    else:
        geometry = CLASSIC
    cells = geometry.cells
    # Every row is written below (or an error is raised): no need to zero the buffer.
    grids = _core.new_buffer(len(puzzles) * cells)
    slow = _core.encode_strings(puzzles, grids) if geometry == CLASSIC else range(len(puzzles))
    for i in slow:
        grids[i * cells : (i + 1) * cells] = encode_item(puzzles[i], i, geometry, inferred)
    return geometry, grids


def encode_marks(
    puzzles: list[Any], box: object = None, alphabet: object = None
) -> tuple[Geometry, bytearray, array[int]]:
    """Encode a batch of pencil-mark puzzles: geometry, empty grids, N*N masks per puzzle.

    The geometry is fixed by `box` / `alphabet` when given, else by the first puzzle
    (N*N*N characters). Raises TypeError/ValueError naming the index of the first bad
    item (see `grid.parse_marks_grid`).
    """
    geometry = (
        geometry_for(None, box, alphabet) if box is not None or alphabet is not None else None
    )
    cells = 0
    masks: array[int] = array("Q")
    for i, item in enumerate(puzzles):
        if not isinstance(item, str):
            raise TypeError(f"puzzle {i}: must be a str, not {type(item).__name__}")
        try:
            geometry, item_masks = parse_marks_grid(item, geometry=geometry)
        except ValueError as err:
            raise ValueError(f"puzzle {i}: {err}") from None
        if not cells:
            cells = geometry.cells
            masks = array("Q", bytes(8 * cells * len(puzzles)))
        masks[i * cells : (i + 1) * cells] = item_masks
    geometry = CLASSIC if geometry is None else geometry
    return geometry, bytearray(len(puzzles) * geometry.cells), masks


def item_geometry(item: Any) -> Geometry:
    """The geometry of the first puzzle of a batch (errors name index 0)."""
    item = as_text(item)
    if not isinstance(item, str):
        raise TypeError(f"puzzle 0: must be a str, not {type(item).__name__}")
    try:
        return parse_grid(item)[0]
    except ValueError as err:
        raise ValueError(f"puzzle 0: {err}") from None


def encode_item(item: Any, index: int, geometry: Geometry, inferred: bool) -> bytes:
    """The values of one batch item in the batch's geometry, or an error naming it."""
    item = as_text(item)
    if not isinstance(item, str):
        raise TypeError(f"puzzle {index}: must be a str, not {type(item).__name__}")
    try:
        return parse_grid(item, geometry=geometry)[1]
    except ValueError as err:
        if inferred:
            try:
                own = parse_grid(item)[0].size
            except ValueError:
                own = geometry.size
            if own != geometry.size:
                n = geometry.size
                raise ValueError(
                    f"puzzle {index}: a {own}x{own} puzzle in a batch of {n}x{n} puzzles "
                    "(a batch holds puzzles of one size)"
                ) from None
        raise ValueError(f"puzzle {index}: {err}") from None


def decode_range(solutions: Any, counts: Any, texts: list[Any], start: int, stop: int) -> None:
    """texts[i] = the 9x9 solution string of puzzle i (digits 1-9 in `solutions`, 81 a
    puzzle), None where counts[i] is not positive, for i in start..stop-1: what a batch's
    worker thread does with the chunk it has just solved."""
    _core.decode_range(solutions, counts, texts, start, stop)


def decode_solutions(results: EngineResults) -> list[str | None]:
    """Canonical solution strings of an `EngineResults`, in input order; None where there
    is no solution."""
    if results.texts is not None:
        return results.texts
    if results.geometry == CLASSIC:
        return _core.decode_solutions(results.solutions, results.counts)
    cells = results.geometry.cells
    text = format_values(results.solutions, results.geometry)
    counts = results.counts
    return [text[i * cells : (i + 1) * cells] if counts[i] > 0 else None for i in range(results.n)]
