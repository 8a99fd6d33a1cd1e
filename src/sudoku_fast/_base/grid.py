"""Grid text: parse every common notation of every size, pretty-print grids, check solutions.

A grid is N x N cells split into boxes of `box_rows` x `box_cols` cells (N = box_rows *
box_cols). Its canonical form is N*N characters in row-major order: one symbol per
clue and `.` for an empty cell. The default symbols are the first N characters of
`123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmn` (so 9x9 uses `1`-`9`, 16x16
`1`-`9A`-`G`, 25x25 `1`-`9A`-`P`); an `alphabet` argument gives other conventions
(16x16 written `0123456789ABCDEF`, say). `0` also means an empty cell when N <= 9 and
`0` is not a symbol.

`parse` accepts:

* N*N characters with `.` (or `0`, see above) for empty cells;
* rows separated by spaces, tabs or newlines, cells optionally separated by spaces;
* the pretty form printed by `show`, with `|`, `-` and `+` separators.

Every letter, digit and `.` is a cell; whitespace, punctuation (math and currency signs
and box drawing too) are layout and are ignored; any other character (a control
character, U+FFFD, an emoji) is an error. The size is inferred from the number of cells
(16, 36, 64, 81, 100, 144, ..., 2401), unless `box` or `alphabet` fixes it. The box
shape is the square root when N is a square, otherwise the factor pair closest to a
square with fewer rows than columns (6 -> 2x3, 8 -> 2x4, 10 -> 2x5, 12 -> 3x4, 15 ->
3x5); `box=(rows, cols)` overrides it. A cell character that is not a symbol of the
grid is never silently dropped: it raises `ValueError` naming the character and its
position, because a stray letter usually means a corrupted line.

`is_solution` is deliberately independent of the engines: it checks a finished grid
against the rules with plain Python sets.
"""

from __future__ import annotations

import math
import operator
import unicodedata
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache

from .checks import check_flag

SIZE = 9
CELLS = SIZE * SIZE
EMPTY = "."
SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmn"
MIN_INFERRED_SIZE = 4  # 1, 4 and 9 cells are too few to be meant as a puzzle
MAX_SIZE = 64  # candidate masks are 64 bits; above 49 the caller brings an alphabet
SEPARATORS = "|+-"  # drawn by `show`, so never symbols
_SKIP = 254  # translate-table marks: layout character, foreign character
_FOREIGN = 255

Box = tuple[int, int]


@dataclass(frozen=True)
class Geometry:
    """The shape and symbols of one grid size: N x N cells, boxes of rows x cols cells.

    Build one with `geometry_for`, which fills in the defaults; `symbols[v - 1]` is the
    character of value v. Geometries are immutable and compare by value.

    Parameters
    ----------
    size : int
        N, the number of rows, columns and values (1 to 64).
    box_rows, box_cols : int
        The shape of a box; `box_rows * box_cols == size`.
    symbols : str
        The N characters of the values 1..N, in order (not `.`, `|`, `+`, `-` or
        whitespace).

    Attributes
    ----------
    cells : int
        N*N.
    units : tuple of tuple of int
        The 3N units as cell indices: rows, then columns, then boxes.

    Raises
    ------
    ValueError
        The box does not tile the grid, or the symbols are not N distinct usable
        characters.

    Examples
    --------
    >>> import sudoku_fast as sf
    >>> g = sf.geometry_for(6)
    >>> (g.size, g.box_rows, g.box_cols, g.symbols, g.cells)
    (6, 2, 3, '123456', 36)
    >>> g.describe()
    '6x6 grid with 2x3 boxes'
    """

    size: int
    box_rows: int
    box_cols: int
    symbols: str

    def __post_init__(self) -> None:
        if not 1 <= self.size <= MAX_SIZE:
            raise ValueError(f"grid size must be from 1 to {MAX_SIZE}, got {self.size}")
        if self.box_rows < 1 or self.box_cols < 1 or self.box_rows * self.box_cols != self.size:
            raise ValueError(
                f"box {self.box_rows}x{self.box_cols} does not tile a {self.size}x{self.size} grid"
            )
        if len(self.symbols) != self.size:
            raise ValueError(
                f"a {self.size}x{self.size} grid needs {self.size} symbols, got {len(self.symbols)}"
            )
        if len(set(self.symbols)) != self.size:
            raise ValueError(f"alphabet {self.symbols!r} repeats a symbol")
        for ch in self.symbols:
            if ch == EMPTY or ch in SEPARATORS or not ch.isprintable() or ch.isspace():
                raise ValueError(
                    f"alphabet symbol {ch!r} is reserved (not '.', '|', '+', '-' or whitespace)"
                )

    @property
    def cells(self) -> int:
        """Number of cells, N*N."""
        return self.size * self.size

    @property
    def zero_is_empty(self) -> bool:
        """True when `0` in the text means an empty cell (N <= 9 and `0` is no symbol)."""
        return self.size <= 9 and "0" not in self.symbols

    @property
    def default_boxes(self) -> bool:
        """True when the boxes have the size's default shape (see `default_box`)."""
        return default_box(self.size) == (self.box_rows, self.box_cols)

    def describe(self) -> str:
        """A short description for messages, e.g. '12x12 grid with 3x4 boxes'."""
        return f"{self.size}x{self.size} grid with {self.box_rows}x{self.box_cols} boxes"

    @cached_property
    def units(self) -> tuple[tuple[int, ...], ...]:
        """The 3N units as tuples of cells: rows 0..N-1, columns N..2N-1, boxes 2N..3N-1."""
        n, br, bc = self.size, self.box_rows, self.box_cols
        rows = tuple(tuple(r * n + c for c in range(n)) for r in range(n))
        cols = tuple(tuple(r * n + c for r in range(n)) for c in range(n))
        boxes = tuple(
            tuple((top + r) * n + left + c for r in range(br) for c in range(bc))
            for top in range(0, n, br)
            for left in range(0, n, bc)
        )
        return rows + cols + boxes

    @cached_property
    def box_of(self) -> tuple[int, ...]:
        """The box index (0..N-1) of every cell."""
        n = self.size
        return tuple(
            (cell // n // self.box_rows) * (n // self.box_cols) + (cell % n) // self.box_cols
            for cell in range(self.cells)
        )

    @cached_property
    def peer_sets(self) -> tuple[frozenset[int], ...]:
        """For every cell, the other cells of its row, column and box."""
        n, units = self.size, self.units
        return tuple(
            frozenset(units[cell // n] + units[n + cell % n] + units[2 * n + self.box_of[cell]])
            - {cell}
            for cell in range(self.cells)
        )

    @cached_property
    def peers(self) -> tuple[tuple[int, ...], ...]:
        """`peer_sets` as sorted tuples."""
        return tuple(tuple(sorted(p)) for p in self.peer_sets)

    @property
    def all_digits(self) -> int:
        """The candidate bitmask with every value set (bit v-1 for value v)."""
        return (1 << self.size) - 1

    @cached_property
    def crossings(self) -> tuple[tuple[tuple[int, int, int], ...], ...]:
        """For each unit, the units of the other kind it crosses (a line and a box).

        Entries are (other unit, line mask, box mask): bit i of a mask is set when the
        i-th cell of the line (of the box) is one of the shared cells.
        """
        n, units = self.size, self.units
        crossings: list[list[tuple[int, int, int]]] = [[] for _ in units]
        for line in range(2 * n):
            for b in range(n):
                box_unit = 2 * n + b
                shared = set(units[line]) & set(units[box_unit])
                if not shared:
                    continue
                line_mask = sum(1 << i for i, c in enumerate(units[line]) if c in shared)
                box_mask = sum(1 << i for i, c in enumerate(units[box_unit]) if c in shared)
                crossings[line].append((box_unit, line_mask, box_mask))
                crossings[box_unit].append((line, line_mask, box_mask))
        return tuple(tuple(c) for c in crossings)

    def unit_name(self, unit: int) -> str:
        """'row 3', 'column 5' or 'box 7' (counted from 1)."""
        kind, index = divmod(unit, self.size)
        return f"{('row', 'column', 'box')[kind]} {index + 1}"

    def name(self, cell: int) -> str:
        """The cell's name, rows and columns counted from 1: cell 0 is r1c1."""
        return f"r{cell // self.size + 1}c{cell % self.size + 1}"


def default_box(size: int) -> Box | None:
    """The default box shape of an N x N grid, or None when N has no proper one.

    The square root when N is a square; otherwise the factor pair closest to a square
    with fewer rows than columns. Primes (whose only boxes would be whole rows) get
    None.

    >>> default_box(9), default_box(12), default_box(15), default_box(7)
    ((3, 3), (3, 4), (3, 5), None)
    """
    if size < 1:
        return None
    rows = math.isqrt(size)
    while size % rows:
        rows -= 1
    if rows == 1 and size > 1:
        return None
    return rows, size // rows


def _check_box(box: object) -> Box:
    if (
        not isinstance(box, (tuple, list))
        or len(box) != 2
        or not all(isinstance(x, int) and not isinstance(x, bool) for x in box)
    ):
        raise TypeError(f"box must be a (rows, cols) pair of ints, not {box!r}")
    rows, cols = box
    if rows < 1 or cols < 1 or rows * cols > MAX_SIZE:
        raise ValueError(f"box {rows}x{cols} is not supported (rows, cols >= 1, rows*cols <= 64)")
    return rows, cols


def geometry_for(size: int | None = None, box: object = None, alphabet: object = None) -> Geometry:
    """The geometry fixed by any of a size, a `box=(rows, cols)` and an `alphabet`.

    Missing parts take their defaults: the square root when N is a square, else the
    factor pair closest to a square with fewer rows than columns (6 -> 2x3, 12 -> 3x4);
    the first N symbols of `123456789ABC...`.

    Parameters
    ----------
    size : int, optional
        N, the number of rows (1 to 64).
    box : tuple of int, optional
        `(rows, cols)` of a box.
    alphabet : str, optional
        The N symbols of the values 1..N.

    Returns
    -------
    Geometry
        The grid shape all three describe.

    Raises
    ------
    ValueError
        The parts disagree, none is given, or a size has no default box (a prime N
        such as 7: pass `box=(1, 7)` for a Latin square) or no default symbols.
    TypeError
        A part of the wrong type.

    Examples
    --------
    >>> import sudoku_fast as sf
    >>> sf.geometry_for(12).describe()
    '12x12 grid with 3x4 boxes'
    >>> sf.geometry_for(box=(3, 2)).describe()
    '6x6 grid with 3x2 boxes'
    >>> sf.geometry_for(alphabet="0123456789ABCDEF").symbols[:3]
    '012'
    """
    if alphabet is not None and not isinstance(alphabet, str):
        raise TypeError(f"alphabet must be a str, not {type(alphabet).__name__}")
    if size is not None:
        if isinstance(size, bool) or not isinstance(size, int):
            raise TypeError(f"size must be an int, not {type(size).__name__}")
        if not 1 <= size <= MAX_SIZE:
            # Checked before the default box is searched for: that takes sqrt(N) steps.
            raise ValueError(f"grid size must be from 1 to {MAX_SIZE}, got {size}")
    checked_box = _check_box(box) if box is not None else None
    return _geometry(size, checked_box, alphabet)


@lru_cache(maxsize=256)
def _geometry(size: int | None, box: Box | None, alphabet: str | None) -> Geometry:
    sizes = {
        "size": size,
        "box": box[0] * box[1] if box is not None else None,
        "alphabet": len(alphabet) if alphabet is not None else None,
    }
    known = {k: v for k, v in sizes.items() if v is not None}
    if not known:
        raise ValueError("a grid size, box or alphabet is needed")
    n = next(iter(known.values()))
    if any(v != n for v in known.values()):
        parts = ", ".join(f"{k} -> {v}x{v}" for k, v in known.items())
        raise ValueError(f"inconsistent grid size: {parts}")
    if box is None:
        box = default_box(n)
        if box is None:
            raise ValueError(f"a {n}x{n} grid has no default box shape; pass box=(rows, cols)")
    if alphabet is None:
        if n > len(SYMBOLS):
            raise ValueError(f"a {n}x{n} grid needs an alphabet of {n} symbols")
        alphabet = SYMBOLS[:n]
    return Geometry(n, box[0], box[1], alphabet)


CLASSIC = geometry_for(SIZE)


class Codec:
    """Lookup tables of one geometry: character -> value, value -> character."""

    __slots__ = ("decode", "encode", "value_of")

    def __init__(
        self, value_of: dict[str, int], decode: bytes | None, encode: bytes | None
    ) -> None:
        self.value_of = value_of
        self.decode = decode  # latin-1 byte -> value, _SKIP or _FOREIGN; None if not latin-1
        self.encode = encode  # value -> ASCII symbol byte; None if a symbol is not ASCII


@lru_cache(maxsize=256)
def codec(geometry: Geometry) -> Codec:
    value_of = {ch: v for v, ch in enumerate(geometry.symbols, start=1)}
    value_of[EMPTY] = 0
    if geometry.zero_is_empty:
        value_of["0"] = 0
    decode = None
    if all(ord(ch) < 256 for ch in geometry.symbols):
        table = bytearray(256)
        for code in range(256):
            ch = chr(code)
            value = value_of.get(ch)
            if value is not None:
                table[code] = value
            elif ch.isalnum():
                table[code] = _FOREIGN
            else:
                table[code] = _SKIP
        decode = bytes(table)
    encode = None
    if geometry.symbols.isascii():
        encode = (EMPTY + geometry.symbols).encode("ascii")
        encode += bytes(256 - len(encode))
    return Codec(value_of, decode, encode)


def _require_str(text: object, what: str = "puzzle") -> str:
    if not isinstance(text, str):
        raise TypeError(f"{what} must be a str, not {type(text).__name__}")
    return text


def _symbol_help(geometry: Geometry) -> str:
    empty = "'.' or '0'" if geometry.zero_is_empty else "'.'"
    return f"a {geometry.size}x{geometry.size} grid uses {geometry.symbols!r} and {empty} for empty"


def _count_error(count: int, geometry: Geometry | None) -> ValueError:
    if geometry is not None:
        return ValueError(
            f"expected {geometry.cells} cells, found {count} (a {geometry.describe()})"
        )
    side = math.isqrt(count)
    if side * side == count and len(SYMBOLS) < side <= MAX_SIZE:
        return ValueError(
            f"found {count} cells, a {side}x{side} grid: sizes above {len(SYMBOLS)} have no "
            f"default symbols; pass alphabet= with its {side} symbols (e.g. "
            f"alphabet={(SYMBOLS + '@#$%&*=?!<>/~^:')[:side]!r}, '.' for empty)"
        )
    return ValueError(
        f"expected 81 cells, found {count} "
        "(or N*N cells for another grid size N: 16, 36, 64, 100, 144, ... 2401; "
        f"up to {MAX_SIZE}x{MAX_SIZE} with an alphabet=)"
    )


def _infer(count: int) -> Geometry:
    """The default geometry of a text with `count` cell characters."""
    n = math.isqrt(count)
    if n * n != count or not MIN_INFERRED_SIZE <= n <= len(SYMBOLS):
        raise _count_error(count, None)
    if default_box(n) is None:
        raise ValueError(
            f"found {count} cells, a {n}x{n} grid, which has no default box shape; "
            "pass box=(rows, cols)"
        )
    return geometry_for(n)


def _fast_values(text: str, geometry: Geometry) -> bytes | None:
    """Values of a plain text (exactly N*N cell characters, no layout), else None."""
    if len(text) != geometry.cells:
        return None
    return _fast_values_of(text, geometry)


def _fast_values_of(text: str, geometry: Geometry) -> bytes | None:
    """Values of a text made of cell characters only (no layout), else None."""
    decode = codec(geometry).decode
    if decode is None:
        return None
    try:
        raw = text.encode("latin-1")
    except UnicodeEncodeError:
        return None
    values = raw.translate(decode)
    if values.find(_SKIP) >= 0 or values.find(_FOREIGN) >= 0:
        return None
    return values


def parse_grid(
    text: str, *, box: object = None, alphabet: object = None, geometry: Geometry | None = None
) -> tuple[Geometry, bytes]:
    """Parse any accepted notation into its geometry and N*N values (0 = empty), row-major.

    The geometry is `geometry` when given, else fixed by `box` / `alphabet`, else
    inferred from the number of cells. Raises `TypeError` for a non-str and
    `ValueError` for a foreign character or a cell count that fits no size.
    """
    _require_str(text)
    if geometry is None and (box is not None or alphabet is not None):
        geometry = geometry_for(None, box, alphabet)
    if geometry is None:
        n = math.isqrt(len(text))
        if n * n == len(text) and MIN_INFERRED_SIZE <= n <= len(SYMBOLS) and default_box(n):
            values = _fast_values(text, geometry_for(n))
            if values is not None:
                return geometry_for(n), values
    else:
        values = _fast_values(text, geometry)
        if values is not None:
            return geometry, values
    cells = _cell_characters(text, geometry)
    count = len(cells[1])
    if geometry is None:
        geometry = _infer(count)
    parsed = _cell_values(cells, geometry)
    if count != geometry.cells:
        raise _count_error(count, geometry)
    return geometry, parsed


def _is_layout(ch: str) -> bool:
    """Whether a character that is no cell may stand between cells: whitespace, printable
    ASCII, punctuation, math and currency signs, box drawing. Anything else (control
    characters, U+FFFD from undecodable bytes, emoji, combining marks) is an unexpected
    character, as a stray letter is: it usually means a corrupted line."""
    if ch.isspace() or (ch.isascii() and ch.isprintable()):
        return True
    category = unicodedata.category(ch)
    return category[0] == "P" or category in ("Sm", "Sc", "Sk") or "\u2500" <= ch <= "\u259f"


def _cell_characters(
    text: str, geometry: Geometry | None, marks: bool = False
) -> tuple[array[int], str]:
    """The cell characters of a text and their positions in it; the rest is layout.

    Kept as a string and an array of positions (a few bytes a character), so that a
    malformed text of millions of characters costs little before it is refused.
    Without a geometry yet, a character foreign to every default size raises ValueError,
    naming its cell when the count of cell characters gives the size: N*N of them, or
    N*N*N for pencil marks (`marks`: N characters a cell).
    """
    extra = geometry.symbols if geometry is not None else ""
    positions = array("q")
    kept: list[str] = []
    for position, ch in enumerate(text):
        if ch == EMPTY or ch.isalnum() or ch in extra or not _is_layout(ch):
            positions.append(position)
            kept.append(ch)
    chars = "".join(kept)
    if geometry is None:
        count = len(chars)
        for k, ch in enumerate(chars):
            if ch not in SYMBOLS and ch not in ".0":  # foreign to every default size
                side = round(count ** (1 / 3)) if marks else math.isqrt(count)
                per_cell = side if marks else 1
                named = side ** (3 if marks else 2) == count and side >= MIN_INFERRED_SIZE
                row, column = divmod(k // per_cell, side) if named else (0, 0)
                where = f" (cell r{row + 1}c{column + 1})" if named else ""
                raise ValueError(f"unexpected character {ch!r} at position {positions[k]}{where}")
    return positions, chars


def _cell_values(cells: tuple[array[int], str], geometry: Geometry, per_cell: int = 1) -> bytes:
    """The value (0 = empty) of each cell character; ValueError naming a foreign one.

    `per_cell` is the characters of one cell (N for pencil marks): the error names the
    cell (r1c1 style) besides the character's position in the text (counted from 0).
    """
    positions, chars = cells
    value_of = codec(geometry).value_of
    parsed = bytearray(len(chars))
    for k, ch in enumerate(chars):
        value = value_of.get(ch)
        if value is None:
            cell = k // per_cell
            where = f"cell {geometry.name(cell)}; " if cell < geometry.cells else ""
            raise ValueError(
                f"unexpected character {ch!r} at position {positions[k]} "
                f"({where}{_symbol_help(geometry)})"
            )
        parsed[k] = value
    return bytes(parsed)


def _infer_marks(count: int) -> Geometry:
    """The default geometry of pencil marks with `count` cell characters (N*N*N)."""
    n = round(count ** (1 / 3))
    if n**3 == count and len(SYMBOLS) < n <= MAX_SIZE:
        raise ValueError(
            f"found {count} characters, the pencil marks of a {n}x{n} grid: sizes above "
            f"{len(SYMBOLS)} have no default symbols; pass alphabet= with its {n} symbols"
        )
    if n**3 != count or not MIN_INFERRED_SIZE <= n <= len(SYMBOLS):
        raise ValueError(
            f"pencil marks need N*N*N characters, one per digit of every cell (729 for "
            f"9x9; 64, 216, 512, 1000, ... for N = 4, 6, 8, 10, ...), found {count}"
        )
    if default_box(n) is None:
        raise ValueError(
            f"found the pencil marks of a {n}x{n} grid, which has no default box shape; "
            "pass box=(rows, cols)"
        )
    return geometry_for(n)


def parse_marks_grid(
    text: str, *, box: object = None, alphabet: object = None, geometry: Geometry | None = None
) -> tuple[Geometry, array[int]]:
    """Parse pencil marks into their geometry and one candidate mask per cell.

    Pencil marks give every cell N places, one per digit in order: the digit where it
    is still possible, `.` where it is excluded (`0` too when N <= 9 and `0` is no
    symbol), so a 9x9 grid takes 729 characters; layout characters are skipped as in
    `parse_grid`. Mask bit v-1 is set when value v is possible. The geometry comes from
    `geometry`, `box` / `alphabet`, or the number of characters (N*N*N). Raises
    `ValueError` for a wrong number of characters or a digit out of its place. A cell
    with no candidate left is well formed (mask 0): the position has no solution, as
    one with clashing clues has none.
    """
    _require_str(text)
    if geometry is None and (box is not None or alphabet is not None):
        geometry = geometry_for(None, box, alphabet)
    fast = _fast_marks(text, geometry)
    if fast is not None:
        return fast
    cells = _cell_characters(text, geometry, marks=True)
    positions, chars = cells
    if geometry is None:
        geometry = _infer_marks(len(chars))
    n = geometry.size
    if len(chars) != n * geometry.cells:
        raise ValueError(
            f"the pencil marks of a {geometry.describe()} need {n * geometry.cells} "
            f"characters (N*N*N: one per digit of each of the {geometry.cells} cells), "
            f"found {len(chars)}"
        )
    values = _cell_values(cells, geometry, n)
    masks = array("Q", bytes(8 * geometry.cells))
    for cell in range(geometry.cells):
        mask = 0
        for digit in range(n):
            value = values[cell * n + digit]
            if value == digit + 1:
                mask |= 1 << digit
            elif value:
                position, ch = positions[cell * n + digit], chars[cell * n + digit]
                raise ValueError(
                    f"{ch!r} at position {position} is in the place of "
                    f"{geometry.symbols[digit]!r} of cell {geometry.name(cell)} (pencil marks "
                    "give each digit its own place: the digit where it is possible, '.' "
                    "where not)"
                )
        masks[cell] = mask
    return geometry, masks


_NONZERO = bytes([0] + [1] * 255)
_BIT_DIGITS = b"01" + bytes(254)


@lru_cache(maxsize=64)
def _mark_places(geometry: Geometry) -> bytes:
    """The value each place of plain pencil marks may hold: 1..N, once per cell."""
    return bytes(range(1, geometry.size + 1)) * geometry.cells


def _fast_marks(text: str, geometry: Geometry | None) -> tuple[Geometry, array[int]] | None:
    """`parse_marks_grid` for plain marks (N*N*N cell characters, no layout), or None.

    None also for anything wrong, so that the full parser says what.
    """
    if geometry is None:
        n = round(len(text) ** (1 / 3))
        if n**3 != len(text) or not MIN_INFERRED_SIZE <= n <= len(SYMBOLS) or not default_box(n):
            return None
        geometry = geometry_for(n)
    if len(text) != geometry.size * geometry.cells:
        return None
    values = _fast_values_of(text, geometry)
    if values is None:
        return None
    present = values.translate(_NONZERO)
    if bytes(map(operator.mul, present, _mark_places(geometry))) != values:
        return None  # a digit out of its place
    n = geometry.size
    bits = present.translate(_BIT_DIGITS)
    # Digit 1 is the lowest bit: each cell's places, reversed, read as a binary number.
    masks = array("Q", [int(bits[k : k + n][::-1], 2) for k in range(0, len(bits), n)])
    return geometry, masks


def format_marks(masks: Sequence[int], geometry: Geometry = CLASSIC) -> str:
    """The canonical pencil-mark string (N*N*N characters) of N*N candidate masks."""
    symbols = geometry.symbols
    return "".join(
        symbols[digit] if mask >> digit & 1 else EMPTY
        for mask in masks
        for digit in range(geometry.size)
    )


def parse_values(text: str, geometry: Geometry = CLASSIC) -> list[int]:
    """Parse a puzzle of a known geometry (9x9 by default) into N*N ints (0 = empty).

    Raises `TypeError` for a non-str and `ValueError` for a foreign character or a
    cell count other than N*N.
    """
    return list(parse_grid(text, geometry=geometry)[1])


def format_values(values: list[int] | bytes | bytearray, geometry: Geometry = CLASSIC) -> str:
    """The canonical string of N*N values (0 = empty) in the symbols of `geometry`."""
    encode = codec(geometry).encode
    if encode is not None and isinstance(values, (bytes, bytearray)):
        return values.translate(encode).decode("ascii")
    symbols = EMPTY + geometry.symbols
    return "".join(symbols[v] for v in values)


def parse(
    text: str,
    *,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    marks: bool = False,
    empty: str | None = None,
) -> str:
    """Parse a puzzle in any common notation into its canonical N*N-character form.

    Accepted: N*N cell characters with `.` (or `0` when N <= 9) for empty cells, rows
    separated by spaces or newlines, and the pretty form with `|`, `-` and `+`
    separators; whitespace, punctuation and box drawing are layout. The size is
    inferred from the number of cells (16, 36, 64, 81, 100, 144, ... cells).

    Parameters
    ----------
    text : str
        The puzzle.
    box : tuple of int, optional
        `(rows, cols)` of a box, fixing the geometry.
    alphabet : str, optional
        The N symbols of the grid, fixing the geometry; the result uses them.
    marks : bool, default False
        Read pencil marks (N*N*N characters: for each cell, for each digit, the digit
        where it is still possible and `.` where it is excluded).
    empty : str, optional
        One more character read as an empty cell, e.g. `"_"` or `"*"` (the CLI's
        `--empty`); a space makes every space a cell, so rows go on lines of their own.
        It must not be a symbol of the grid.

    Returns
    -------
    str
        The canonical form: N*N characters in the grid's symbols, `.` for empty cells
        (N*N*N characters with `marks=True`).

    Raises
    ------
    ValueError
        A character foreign to the grid (named, with its position counted from 0 and
        its cell r1c1 style) or a wrong number of cells.
    TypeError
        `text` is not a str.

    Examples
    --------
    >>> import sudoku_fast as sf
    >>> sf.parse("4 . . | . . . | 8 . 5" + " 0" * 72)[:12]
    '4.....8.5...'
    >>> sf.parse("1 2 | 3 4 / . . | . . / 2 . | . . / . . | . 1")
    '1234....2......1'
    >>> sf.parse("12__ ____ 2___ ___1", empty="_")
    '12......2......1'
    """
    if empty is not None:
        text = _with_empty(text, empty)
        geometry = parse_grid(text, box=box, alphabet=alphabet)[0] if not marks else None
        if geometry is not None and empty in geometry.symbols:
            raise ValueError(f"empty={empty!r} is a symbol of the grid ({geometry.symbols})")
    if check_flag(marks, "marks"):
        geometry, masks = parse_marks_grid(text, box=box, alphabet=alphabet)
        return format_marks(masks, geometry)
    geometry, values = parse_grid(text, box=box, alphabet=alphabet)
    return format_values(values, geometry)


def _with_empty(text: object, empty: object) -> str:
    """`text` with the `empty` character written as '.' (checked: one character, not '.')."""
    if not isinstance(empty, str):
        raise TypeError(f"empty must be a str, not {type(empty).__name__}")
    if len(empty) != 1 or empty in "\n\r\t.":
        raise ValueError(
            f"empty must be one character other than '.' or a line break, not {empty!r}"
        )
    if not isinstance(text, str):
        raise TypeError(f"a puzzle must be a str, not {type(text).__name__}")
    return text.replace(empty, ".")


def show(puzzle: str, *, box: tuple[int, int] | None = None, alphabet: str | None = None) -> str:
    """A pretty grid with box separators; `parse(show(p)) == parse(p)`.

    Parameters
    ----------
    puzzle : str
        The puzzle, in any notation `parse` accepts.
    box, alphabet : optional
        Fix the geometry, as in `parse`.

    Returns
    -------
    str
        N lines of cells separated by spaces, `|` between boxes, and a line of `-` and
        `+` between bands of boxes.

    Raises
    ------
    ValueError, TypeError
        As `parse`.

    Examples
    --------
    >>> import sudoku_fast as sf
    >>> print(sf.show("1" + "." * 80).splitlines()[0])
    1 . . | . . . | . . .
    >>> print(sf.show("12.." * 9, box=(2, 3)).splitlines()[0])
    1 2 . | . 1 2
    """
    geometry, values = parse_grid(puzzle, box=box, alphabet=alphabet)
    return grid_text(format_values(values, geometry), geometry)


def grid_text(text: str, geometry: Geometry) -> str:
    """A canonical grid string (N*N symbols or '.') as lines with box separators."""
    n, box_rows, box_cols = geometry.size, geometry.box_rows, geometry.box_cols
    lines = []
    for r in range(n):
        row = text[r * n : (r + 1) * n]
        line = " | ".join(" ".join(row[b : b + box_cols]) for b in range(0, n, box_cols))
        if r and r % box_rows == 0:
            lines.append("".join("+" if ch == "|" else "-" for ch in line))
        lines.append(line)
    return "\n".join(lines)


def is_solution(
    candidate: str,
    puzzle: str,
    *,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
) -> bool:
    """True when `candidate` is a complete valid grid that keeps every clue of `puzzle`.

    The check is written independently of the engines (every row, column and box holds
    every value once), so it can verify their answers.

    Parameters
    ----------
    candidate : str
        The grid to check, in any notation `parse` accepts, read with the puzzle's
        geometry.
    puzzle : str
        The puzzle whose clues the candidate must keep.
    box, alphabet : optional
        Fix the geometry, as in `parse`.

    Returns
    -------
    bool
        True for a complete, valid grid keeping every clue; False for an incomplete or
        invalid one.

    Raises
    ------
    ValueError
        A malformed text, as in `parse`.
    TypeError
        An argument that is not a str.

    Examples
    --------
    >>> import sudoku_fast as sf
    >>> p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    >>> sf.is_solution(sf.solve(p), p)
    True
    >>> sf.is_solution(p, p)  # incomplete
    False
    """
    _require_str(candidate, "candidate")
    geometry, clues = parse_grid(puzzle, box=box, alphabet=alphabet)
    grid = parse_grid(candidate, geometry=geometry)[1]
    if 0 in grid:
        return False
    if any(c and c != g for c, g in zip(clues, grid, strict=True)):
        return False
    every_value = set(range(1, geometry.size + 1))
    return all({grid[i] for i in unit} == every_value for unit in geometry.units)
