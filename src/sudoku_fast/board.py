"""A board in progress: the givens, the player's values and pencil marks; save and load as JSON.

A board has a grid geometry (`grid.Geometry`): any size `parse` accepts, square or
rectangular boxes, the default symbols or an alphabet of the caller's.

The file format is a small JSON object (UTF-8)::

    {
      "format": "sudoku-fast-board",
      "version": 1,
      "size": 9,
      "givens": "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
      "values": ".1..............................................................................",
      "pencil": {"r1c3": "2679", "r9c9": "38"},
      "rules": {"diagonals": true}
    }

* `size` is N for an N x N grid. Two optional fields follow it, written only when they
  differ from the defaults of that size (`grid.geometry_for`): `box`, the box shape as
  `[rows, cols]` (e.g. `"box": [3, 2]` for a 6x6 board with boxes 3 rows tall), and
  `alphabet`, the N symbols of values 1..N in order (e.g. `"alphabet":
  "0123456789ABCDEF"` for a 16x16 board written 0-F). A file without them, like every
  file written before they existed, gets the defaults.
* `givens` and `values` are N*N characters in row-major order, each a symbol of the
  board or `.` for an empty cell (default symbols: `1`-`9`, then `A`, `B`, ...). A cell
  holds a given or a player's value, never both.
* `pencil` (optional) maps a cell name (`r<row>c<column>`, counted from 1) to its
  pencil marks, written as symbols in ascending order of value; cells without marks are
  left out.
* `rules` (optional) are the board's variant rules in their JSON form
  (`Rules.to_json`: jigsaw regions, diagonals, cages, ...), written only for a board
  that has some. A file with rules says `"version": 2`, so that a reader that knows
  only version 1 refuses it rather than dropping the rules and playing the puzzle as a
  classic one; a file without them stays version 1, and every version-1 file loads.

`Board.from_json(board.to_json()) == board` for every board: the round trip is exact.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ._base.grid import SYMBOLS, Geometry, format_values, geometry_for, grid_text, parse_grid
from ._base.records import Hint
from ._base.rules import PRESETS, Rules, as_rules
from ._techniques.rules_geometry import rules_geometry
from ._techniques.steps import candidate_masks, digits_of
from ._variants.encode import check_rules
from ._variants.run import box_for

FORMAT = "sudoku-fast-board"
VERSION = 1
VERSION_WITH_RULES = 2  # the version of a file that holds rules (see the module doc)
# ASCII digits, no leading zero: a cell has one name, which round-trips exactly.
_CELL_NAME = re.compile(r"r([1-9][0-9]*)c([1-9][0-9]*)")


def _decode(text: object, geometry: Geometry, what: str) -> tuple[int, ...]:
    """Values of a canonical board string (`.` empty); ValueError naming the position."""
    if not isinstance(text, str):
        raise TypeError(f"{what} must be a str, not {type(text).__name__}")
    if len(text) != geometry.cells:
        raise ValueError(f"{what}: expected {geometry.cells} cells, found {len(text)}")
    symbols = geometry.symbols
    out = []
    for position, ch in enumerate(text):
        value = 0 if ch == "." else symbols.find(ch) + 1
        if ch != "." and not value:
            raise ValueError(f"{what}: unexpected character {ch!r} at position {position}")
        out.append(value)
    return tuple(out)


def _inferred_geometry(givens: object) -> Geometry:
    """The default geometry of a givens string, from its number of cells."""
    if not isinstance(givens, str):
        raise TypeError(f"givens must be a str, not {type(givens).__name__}")
    size = math.isqrt(len(givens))
    if size * size != len(givens) or size < 1:
        raise ValueError(f"givens: {len(givens)} cells make no N x N grid")
    try:
        return geometry_for(size)
    except ValueError as err:
        raise ValueError(f"givens: {err}") from None


def _is_default_alphabet(geometry: Geometry) -> bool:
    return geometry.symbols == SYMBOLS[: geometry.size]


@dataclass(frozen=True, init=False)
class Board:
    """A board in progress. Construct with `Board.new(puzzle)` or `Board.from_json(text)`.

    A board is immutable: `set_value`, `set_pencil` and `apply` return a new one. A cell
    holds a given or a value, never both; pencil marks on filled cells are allowed
    (they are kept as they are).

    Parameters
    ----------
    givens : str
        N*N characters in the board's symbols, `.` for a cell without a given.
    values : str
        The player's values, in the same form; `.` where the player wrote none.
    pencil : iterable of iterables of int, default ()
        One collection of values (1..N) per cell; empty for no marks, and `()` for no
        marks anywhere.
    geometry : Geometry, optional
        The grid's size, box shape and symbols; by default those of the givens' size.
    rules : Rules, JSON mapping or text, or preset names, optional
        The puzzle's variant rules, as `solve` takes them (None: classic). Hints,
        candidates and `apply` follow them, and the board file keeps them.

    Attributes
    ----------
    givens, values : str
        As given.
    pencil : tuple of frozenset of int
        The marks of each cell.
    geometry : Geometry
        The grid's shape and symbols.
    rules : Rules or None
        The variant rules (None for classic rules).
    size, cells : int
        N and N*N.
    grid : str
        Givens and values together, as one canonical string.

    Raises
    ------
    ValueError
        A part that does not fit the geometry, or a cell with a given and a value,
        named.
    TypeError
        A part of the wrong type.

    Examples
    --------
    >>> import sudoku_fast as sf
    >>> board = sf.Board.new("1.3..4.........2")  # 4x4
    >>> board = board.set_value(1, 2).set_pencil(2, {1, 2})
    >>> board.grid
    '123..4.........2'
    >>> sf.Board.from_json(board.to_json()) == board
    True
    >>> x = sf.Board.new("..3....243......", rules="x")  # a 4x4 Sudoku X
    >>> x.rules == sf.Rules.named("x") and sf.Board.from_json(x.to_json()) == x
    True
    """

    givens: str
    values: str
    pencil: tuple[frozenset[int], ...]
    geometry: Geometry
    rules: Rules | None

    def __init__(
        self,
        givens: str,
        values: str,
        pencil: Iterable[Iterable[int]] = (),
        geometry: Geometry | None = None,
        rules: Rules | Mapping[str, Any] | str | None = None,
    ) -> None:
        """Check and store the parts; `geometry` defaults to that of the givens' size.

        Raises `ValueError` (or `TypeError`) naming the part that does not fit.
        """
        variant = as_rules(rules)
        if geometry is None and variant is not None and isinstance(givens, str):
            box = box_for(variant, None, None)  # a jigsaw of a prime size has no boxes
            if box is not None:
                geometry = geometry_for(math.isqrt(len(givens)), box)
        if geometry is None:
            geometry = _inferred_geometry(givens)
        elif not isinstance(geometry, Geometry):
            raise TypeError(f"geometry must be a Geometry, not {type(geometry).__name__}")
        given_values = _decode(givens, geometry, "givens")
        user_values = _decode(values, geometry, "values")
        for cell, (g, v) in enumerate(zip(given_values, user_values, strict=True)):
            if g and v:
                raise ValueError(f"values: cell {cell} holds a given and a value")
        marks_per_cell = tuple(frozenset(marks) for marks in pencil)
        if not marks_per_cell:
            marks_per_cell = (frozenset(),) * geometry.cells
        if len(marks_per_cell) != geometry.cells:
            raise ValueError(
                f"pencil: expected {geometry.cells} cells, found {len(marks_per_cell)}"
            )
        for cell, marks in enumerate(marks_per_cell):
            for value in marks:
                if isinstance(value, bool) or not isinstance(value, int):
                    raise TypeError(f"pencil: cell {cell} holds a non-int mark {value!r}")
                if not 1 <= value <= geometry.size:
                    raise ValueError(
                        f"pencil: cell {cell} holds mark {value}, not 1-{geometry.size}"
                    )
        if variant is not None:
            try:
                check_rules(variant, geometry.size, (geometry.box_rows, geometry.box_cols))
            except ValueError as err:
                raise ValueError(f"rules do not fit the board: {err}") from None
        object.__setattr__(self, "givens", givens)
        object.__setattr__(self, "values", values)
        object.__setattr__(self, "pencil", marks_per_cell)
        object.__setattr__(self, "geometry", geometry)
        object.__setattr__(self, "rules", variant)

    @classmethod
    def new(
        cls,
        puzzle: str,
        *,
        box: tuple[int, int] | None = None,
        alphabet: str | None = None,
        rules: Rules | Mapping[str, Any] | str | None = None,
    ) -> Board:
        """A fresh board: the puzzle's clues as givens, no values, no pencil marks.

        Accepts any notation and size `parse` accepts; `box=(rows, cols)` and
        `alphabet` fix the geometry as they do there; `rules` are the puzzle's variant
        rules, as `solve` takes them.
        """
        variant = as_rules(rules)
        if variant is not None:
            box = box_for(variant, box, alphabet)  # type: ignore[assignment]  # a box or None
        geometry, clues = parse_grid(puzzle, box=box, alphabet=alphabet)
        return cls(format_values(clues, geometry), "." * geometry.cells, (), geometry, variant)

    def with_rules(self, rules: Rules | Mapping[str, Any] | str | None) -> Board:
        """A copy under other variant rules (None: classic), values and marks kept."""
        return Board(self.givens, self.values, self.pencil, self.geometry, rules)

    @property
    def rules_geometry(self) -> Geometry:
        """The geometry the rules make: units and peers of every rule (the board's own
        geometry under classic rules)."""
        if self.rules is None:
            return self.geometry
        return rules_geometry(self.geometry, self.rules)

    def __str__(self) -> str:
        """The grid as text (givens and values), then a line saying what it holds."""
        return board_text(self)

    def _repr_svg_(self) -> str:
        """The board as a picture (notebooks show it): see `render.render`."""
        from .render import render  # the display hook reaches up to the renderer

        return str(render(self))

    @property
    def size(self) -> int:
        """N, the number of rows (and columns, and values)."""
        return self.geometry.size

    @property
    def cells(self) -> int:
        """Number of cells, N*N."""
        return self.geometry.cells

    @property
    def grid(self) -> str:
        """Givens and values together, as one canonical string."""
        return "".join(v if g == "." else g for g, v in zip(self.givens, self.values, strict=True))

    def given_values(self) -> tuple[int, ...]:
        """The givens as ints (0 = empty)."""
        return _decode(self.givens, self.geometry, "givens")

    def user_values(self) -> tuple[int, ...]:
        """The player's values as ints (0 = none)."""
        return _decode(self.values, self.geometry, "values")

    def grid_values(self) -> list[int]:
        """Givens and the player's values together as ints (0 = empty)."""
        return [g or v for g, v in zip(self.given_values(), self.user_values(), strict=True)]

    def symbol(self, value: int) -> str:
        """The character of `value` (1..N) in the board's symbols."""
        return self.geometry.symbols[value - 1]

    def set_value(self, cell: int, digit: int) -> Board:
        """A copy with the player's `digit` (value 1..N) in `cell` (0 clears it).

        Givens cannot change.
        """
        self._check_cell(cell)
        if self.givens[cell] != ".":
            raise ValueError(f"cell {cell} holds a given")
        if isinstance(digit, bool) or not isinstance(digit, int):
            raise TypeError(f"digit must be an int, not {type(digit).__name__}")
        if not 0 <= digit <= self.size:
            raise ValueError(f"digit must be 0-{self.size}, got {digit}")
        values = list(self.values)
        values[cell] = self.symbol(digit) if digit else "."
        return Board(self.givens, "".join(values), self.pencil, self.geometry, self.rules)

    def set_pencil(self, cell: int, marks: Iterable[int]) -> Board:
        """A copy with the pencil marks of `cell` replaced by `marks` (values 1..N)."""
        self._check_cell(cell)
        pencil = list(self.pencil)
        pencil[cell] = frozenset(marks)
        return Board(self.givens, self.values, pencil, self.geometry, self.rules)

    def _check_cell(self, cell: int) -> None:
        if isinstance(cell, bool) or not isinstance(cell, int):
            raise TypeError(f"cell must be an int, not {type(cell).__name__}")
        if not 0 <= cell < self.cells:
            raise ValueError(f"cell must be 0-{self.cells - 1}, got {cell!r}")

    def apply(self, hint: Hint) -> Board:
        """A copy with the hint carried out.

        Placements become the player's values (the cell's marks are cleared and the
        digit is struck from its peers' marks); eliminations strike pencil marks; a
        "wrong value" hint clears the value; a "wrong pencil marks" hint clears the
        cell's marks. A cell without marks that loses candidates first gets the marks
        the rules allow (see `hints.candidates`); under variant rules a placement
        strikes its digit from every cell the rules make a peer.

        Parameters
        ----------
        hint : Hint
            A step from `sudoku_fast.hint` for this board.

        Returns
        -------
        Board
            The board after the step.

        Raises
        ------
        TypeError
            `hint` is not a Hint.
        ValueError
            The hint's cells or digits do not fit this board.
        """
        self._check_fits(hint)
        values = list(self.values)
        pencil = list(self.pencil)
        if hint.technique == "wrong value":
            for cell in hint.cells:
                values[cell] = "."
        elif hint.technique == "wrong pencil marks":
            for cell in hint.cells:
                pencil[cell] = frozenset()
        else:
            geometry = self.rules_geometry
            peers = geometry.peers
            for cell, digit in hint.placements:
                if self.givens[cell] == ".":
                    values[cell] = self.symbol(digit)
                pencil[cell] = frozenset()
                for other in peers[cell]:
                    pencil[other] = pencil[other] - {digit}
            allowed: list[int] | None = None
            for cell, digit in hint.eliminations:
                marks = pencil[cell]
                if not marks:
                    if allowed is None:
                        placed = Board(self.givens, "".join(values), (), self.geometry)
                        allowed = candidate_masks(placed.grid_values(), geometry)
                    marks = frozenset(digits_of(allowed[cell]))
                pencil[cell] = marks - {digit}
        return Board(self.givens, "".join(values), pencil, self.geometry, self.rules)

    def _check_fits(self, hint: object) -> None:
        """Raise unless `hint` is a Hint whose cells and digits lie on this board."""
        if not isinstance(hint, Hint):
            raise TypeError(f"apply takes a Hint, not {type(hint).__name__}")
        cells, size = self.geometry.cells, self.geometry.size
        pairs = [*hint.placements, *hint.eliminations]
        numbers = [*hint.cells, *hint.digits, *(k for pair in pairs for k in pair)]
        for number in numbers:
            if isinstance(number, bool) or not isinstance(number, int):
                raise TypeError(f"a hint's cells and digits are ints, not {number!r}")
        for cell in [*hint.cells, *(c for c, _ in pairs)]:
            if not 0 <= cell < cells:
                raise ValueError(f"the hint's cell {cell} is not on this {size}x{size} board")
        for digit in [*hint.digits, *(d for _, d in pairs)]:
            if not 1 <= digit <= size:
                raise ValueError(f"the hint's digit {digit} is not one of a {size}x{size} board")

    def to_json(self) -> str:
        """The board in the documented JSON format (see the module doc)."""
        geometry = self.geometry
        version = VERSION if self.rules is None else VERSION_WITH_RULES
        doc: dict[str, Any] = {"format": FORMAT, "version": version, "size": geometry.size}
        if not geometry.default_boxes:
            doc["box"] = [geometry.box_rows, geometry.box_cols]
        if not _is_default_alphabet(geometry):
            doc["alphabet"] = geometry.symbols
        doc["givens"] = self.givens
        doc["values"] = self.values
        doc["pencil"] = {
            geometry.name(cell): "".join(self.symbol(v) for v in sorted(marks))
            for cell, marks in enumerate(self.pencil)
            if marks
        }
        if self.rules is not None:
            doc["rules"] = self.rules.to_json()
        return json.dumps(doc, indent=2) + "\n"

    @classmethod
    def from_json(cls, text: str | bytes) -> Board:
        """Read a board written by `to_json`; ValueError names what is wrong."""
        try:
            doc: Any = json.loads(text)
        except ValueError as err:  # bad JSON, or an int of thousands of digits
            raise ValueError(f"not a JSON board: {err}") from None
        except RecursionError:  # arrays or objects nested thousands deep
            raise ValueError("not a JSON board: nested too deeply") from None
        if not isinstance(doc, dict):
            raise ValueError("not a JSON board: expected an object")
        if doc.get("format") != FORMAT:
            raise ValueError(f"not a sudoku-fast board: format is {doc.get('format')!r}")
        version = doc.get("version")
        if type(version) is not int or version not in (VERSION, VERSION_WITH_RULES):
            raise ValueError(f"unsupported board version {version!r}")  # not True, not 1.0
        for key in ("size", "givens", "values"):
            if key not in doc:
                raise ValueError(f"board: missing field {key!r}")
        for key in ("givens", "values"):
            if not isinstance(doc[key], str):
                raise ValueError(f"board: {key} must be a string, got {doc[key]!r:.40}")
        geometry = _geometry_of(doc)
        pencil_doc = doc.get("pencil", {})
        if not isinstance(pencil_doc, dict):
            raise ValueError("board: pencil must be an object")
        size = geometry.size
        pencil: list[frozenset[int]] = [frozenset() for _ in range(geometry.cells)]
        for name, marks in pencil_doc.items():
            match = _CELL_NAME.fullmatch(name)
            if match is None:
                raise ValueError(f"pencil: bad cell name {name!r} (expected like 'r1c3')")
            row, col = int(match[1]), int(match[2])
            if not (1 <= row <= size and 1 <= col <= size):
                raise ValueError(f"pencil: cell {name!r} is outside a {size}x{size} grid")
            if not isinstance(marks, str):
                raise ValueError(f"pencil: marks of {name} must be a string")
            values = set()
            for ch in marks:
                value = geometry.symbols.find(ch) + 1
                if not value:
                    raise ValueError(f"pencil: unexpected mark {ch!r} in {name}")
                values.add(value)
            pencil[(row - 1) * size + col - 1] = frozenset(values)
        rules = None
        if "rules" in doc:
            if not isinstance(doc["rules"], dict):
                raise ValueError("board: rules must be an object (see Rules.from_json)")
            try:
                rules = Rules.from_json(doc["rules"])
            except (ValueError, TypeError) as err:
                raise ValueError(f"board: {err}") from None
        elif version == VERSION_WITH_RULES:
            raise ValueError(f"board: version {VERSION_WITH_RULES} without rules")
        return cls(doc["givens"], doc["values"], pencil, geometry, rules)


def _geometry_of(doc: dict[str, Any]) -> Geometry:
    """The geometry a board file states: `size`, and `box` / `alphabet` when present."""
    size = doc["size"]
    if isinstance(size, bool) or not isinstance(size, int):
        raise ValueError(f"board: size must be an int, got {size!r}")
    box = doc.get("box")
    if box is not None:
        if not isinstance(box, list) or len(box) != 2:
            raise ValueError(f"board: box must be [rows, cols], got {box!r}")
        box = tuple(box)
    alphabet = doc.get("alphabet")
    if alphabet is not None and not isinstance(alphabet, str):
        raise ValueError(f"board: alphabet must be a string, got {alphabet!r}")
    try:
        return geometry_for(size, box, alphabet)
    except (TypeError, ValueError) as err:
        raise ValueError(f"board: {err}") from None


def save_board(board: Board, path: str | os.PathLike[str]) -> None:
    """Write the board to `path` in the JSON format of this module.

    Parameters
    ----------
    board : Board
        The board to save.
    path : str or os.PathLike
        The file to write (UTF-8 JSON, replaced if it exists).

    Returns
    -------
    None

    Raises
    ------
    TypeError
        `board` is not a Board.
    OSError
        The file cannot be written.

    Examples
    --------
    >>> import os, tempfile
    >>> import sudoku_fast as sf
    >>> board = sf.Board.new("1.3..4.........2")
    >>> path = os.path.join(tempfile.mkdtemp(), "game.json")
    >>> sf.save_board(board, path)
    >>> sf.load_board(path) == board
    True
    """
    if not isinstance(board, Board):
        raise TypeError(f"save_board takes a Board, not {type(board).__name__}")
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(board.to_json())


def load_board(path: str | os.PathLike[str]) -> Board:
    """Read a board saved by `save_board`.

    Parameters
    ----------
    path : str or os.PathLike
        A file written by `save_board` (or in its JSON format).

    Returns
    -------
    Board
        The board, equal to the one saved.

    Raises
    ------
    ValueError
        The file is not a board (not UTF-8, not JSON, a field missing or wrong), naming
        the file and what is wrong.
    OSError
        The file cannot be read.

    Examples
    --------
    See `save_board`.
    """
    with open(path, "rb") as f:
        data = f.read()
    try:
        return Board.from_json(data.decode("utf-8"))
    except UnicodeDecodeError as err:
        raise ValueError(
            f"{os.fsdecode(path)}: not a JSON board: not UTF-8 text (byte {err.start})"
        ) from None
    except ValueError as err:
        raise ValueError(f"{os.fsdecode(path)}: {err}") from None


def as_board(puzzle: str | Board, box: tuple[int, int] | None, alphabet: str | None) -> Board:
    """`puzzle` as a Board: a Board as it is (box / alphabet refused), a puzzle string
    read into a new one."""
    if isinstance(puzzle, Board):
        if box is not None or alphabet is not None:
            raise ValueError("box and alphabet are for a puzzle string; a Board has its geometry")
        return puzzle
    if not isinstance(puzzle, str):
        raise TypeError(f"puzzle must be a str or a Board, not {type(puzzle).__name__}")
    return Board.new(puzzle, box=box, alphabet=alphabet)


def board_text(board: Board) -> str:
    """A board as text: its grid (givens and values together), then what it holds."""
    geometry = board.geometry
    givens = sum(ch != "." for ch in board.givens)
    values = sum(ch != "." for ch in board.values)
    marked = sum(1 for marks in board.pencil if marks)
    rules = "" if board.rules is None else f"; rules: {rules_text(board.rules)}"
    return (
        f"{grid_text(board.grid, geometry)}\n({geometry.describe()}: {givens} givens, "
        f"{values} values entered, pencil marks in {marked} cells{rules})"
    )


def rules_text(rules: Rules) -> str:
    """Variant rules in a few words: 'x, anti-knight, 4 cages, jigsaw regions'."""
    names = {flag: name for name, flag in reversed(PRESETS.items())}  # the first name
    words = [names[flag] for flag in dict.fromkeys(PRESETS.values()) if getattr(rules, flag)]
    if rules.regions is not None:
        words.insert(0, "jigsaw regions")
    for count, what in ((len(rules.extra), "extra region"), (len(rules.cages), "cage"),
                        (len(rules.thermos), "thermometer")):  # fmt: skip
        if count:
            words.append(f"{count} {what}{'s' if count > 1 else ''}")
    return ", ".join(words)
