"""A board in progress: the givens, the player's values and pencil marks; save and load as JSON.

The file format is a small JSON object (UTF-8); every field is required except `pencil`::

    {
      "format": "sudoku-fast-board",
      "version": 1,
      "size": 9,
      "givens": "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
      "values": ".1..............................................................................",
      "pencil": {"r1c3": "2679", "r9c9": "38"}
    }

* `givens` and `values` are size*size characters in row-major order, `.` for an empty
  cell; digits are written `1`-`9` (larger sizes continue with `A`, `B`, ...). A cell
  holds a given or a player's value, never both.
* `pencil` maps a cell name (`r<row>c<column>`, counted from 1) to its pencil marks in
  ascending order; cells without marks are left out.

`Board.from_json(board.to_json()) == board` for every board: the round trip is exact.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .grid import parse
from .logic import Hint, LogicSolver, digits_of, geometry

FORMAT = "sudoku-fast-board"
VERSION = 1
SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_CELL_NAME = re.compile(r"r(\d+)c(\d+)")


def _symbol(digit: int) -> str:
    return SYMBOLS[digit - 1]


def _text_to_values(text: str, size: int, what: str) -> tuple[int, ...]:
    """Values of a canonical board string (`.` empty); ValueError naming the position."""
    if not isinstance(text, str):
        raise TypeError(f"{what} must be a str, not {type(text).__name__}")
    if len(text) != size * size:
        raise ValueError(f"{what}: expected {size * size} cells, found {len(text)}")
    out = []
    for position, ch in enumerate(text):
        if ch == ".":
            out.append(0)
            continue
        digit = SYMBOLS.find(ch) + 1
        if not 1 <= digit <= size:
            raise ValueError(f"{what}: unexpected character {ch!r} at position {position}")
        out.append(digit)
    return tuple(out)


def _values_to_text(values: Iterable[int]) -> str:
    return "".join(_symbol(v) if v else "." for v in values)


@dataclass(frozen=True)
class Board:
    """A board in progress. Construct with `Board.new(puzzle)` or `Board.from_json(text)`.

    `givens` and `values` are canonical strings (`.` = empty); `pencil` holds one
    frozenset of digits per cell (empty = no marks). A cell holds a given or a value,
    never both; pencil marks on filled cells are allowed (they are kept as they are).
    """

    givens: str
    values: str
    pencil: tuple[frozenset[int], ...] = field(default=())
    size: int = 9

    def __post_init__(self) -> None:
        if isinstance(self.size, bool) or not isinstance(self.size, int):
            raise TypeError(f"size must be an int, not {type(self.size).__name__}")
        if not 1 <= self.size <= len(SYMBOLS):
            raise ValueError(f"unsupported size {self.size}")
        cells = self.size * self.size
        givens = _text_to_values(self.givens, self.size, "givens")
        values = _text_to_values(self.values, self.size, "values")
        for cell, (g, v) in enumerate(zip(givens, values, strict=True)):
            if g and v:
                raise ValueError(f"values: cell {cell} holds a given and a value")
        pencil = self.pencil
        if pencil == ():
            pencil = tuple(frozenset() for _ in range(cells))
        if len(pencil) != cells:
            raise ValueError(f"pencil: expected {cells} cells, found {len(pencil)}")
        checked = []
        for cell, marks in enumerate(pencil):
            marks = frozenset(marks)
            for digit in marks:
                if isinstance(digit, bool) or not isinstance(digit, int):
                    raise TypeError(f"pencil: cell {cell} holds a non-int mark {digit!r}")
                if not 1 <= digit <= self.size:
                    raise ValueError(f"pencil: cell {cell} holds mark {digit}, not 1-{self.size}")
            checked.append(marks)
        object.__setattr__(self, "pencil", tuple(checked))

    @classmethod
    def new(cls, puzzle: str) -> Board:
        """A fresh board: the puzzle's clues as givens, no values, no pencil marks.

        Accepts any notation `parse` accepts (9x9).
        """
        givens = parse(puzzle)
        return cls(givens, "." * len(givens))

    @property
    def cells(self) -> int:
        """Number of cells, size * size."""
        return self.size * self.size

    @property
    def grid(self) -> str:
        """Givens and values together, as one canonical string."""
        return "".join(v if g == "." else g for g, v in zip(self.givens, self.values, strict=True))

    def given_values(self) -> tuple[int, ...]:
        """The givens as ints (0 = empty)."""
        return _text_to_values(self.givens, self.size, "givens")

    def user_values(self) -> tuple[int, ...]:
        """The player's values as ints (0 = none)."""
        return _text_to_values(self.values, self.size, "values")

    def set_value(self, cell: int, digit: int) -> Board:
        """A copy with the player's `digit` in `cell` (0 clears it); givens cannot change."""
        self._check_cell(cell)
        if self.givens[cell] != ".":
            raise ValueError(f"cell {cell} holds a given")
        if not 0 <= digit <= self.size:
            raise ValueError(f"digit must be 0-{self.size}, got {digit}")
        values = list(self.values)
        values[cell] = _symbol(digit) if digit else "."
        return Board(self.givens, "".join(values), self.pencil, self.size)

    def set_pencil(self, cell: int, marks: Iterable[int]) -> Board:
        """A copy with the pencil marks of `cell` replaced by `marks`."""
        self._check_cell(cell)
        pencil = list(self.pencil)
        pencil[cell] = frozenset(marks)
        return Board(self.givens, self.values, tuple(pencil), self.size)

    def _check_cell(self, cell: int) -> None:
        if isinstance(cell, bool) or not isinstance(cell, int) or not 0 <= cell < self.cells:
            raise ValueError(f"cell must be 0-{self.cells - 1}, got {cell!r}")

    def apply(self, hint: Hint) -> Board:
        """A copy with the hint carried out.

        Placements become the player's values (the cell's marks are cleared and the
        digit is struck from its peers' marks); eliminations strike pencil marks; a
        "wrong value" hint clears the value; a "wrong pencil marks" hint clears the
        cell's marks. A cell without marks that loses candidates first gets the marks
        the rules allow (see `hints.candidates`).
        """
        values = list(self.values)
        pencil = list(self.pencil)
        if hint.technique == "wrong value":
            for cell in hint.cells:
                values[cell] = "."
        elif hint.technique == "wrong pencil marks":
            for cell in hint.cells:
                pencil[cell] = frozenset()
        else:
            peers = geometry(self.size).peers
            for cell, digit in hint.placements:
                if self.givens[cell] == ".":
                    values[cell] = _symbol(digit)
                pencil[cell] = frozenset()
                for other in peers[cell]:
                    pencil[other] = pencil[other] - {digit}
            allowed: list[int] | None = None
            for cell, digit in hint.eliminations:
                marks = pencil[cell]
                if not marks:
                    if allowed is None:
                        now = _text_to_values("".join(values), self.size, "values")
                        grid = [g or v for g, v in zip(self.given_values(), now, strict=True)]
                        allowed = LogicSolver(grid, geometry(self.size)).cand
                    marks = frozenset(digits_of(allowed[cell]))
                pencil[cell] = marks - {digit}
        return Board(self.givens, "".join(values), tuple(pencil), self.size)

    def to_json(self) -> str:
        """The board in the documented JSON format (see the module doc)."""
        pencil = {
            f"r{cell // self.size + 1}c{cell % self.size + 1}": "".join(
                _symbol(d) for d in sorted(marks)
            )
            for cell, marks in enumerate(self.pencil)
            if marks
        }
        doc = {
            "format": FORMAT,
            "version": VERSION,
            "size": self.size,
            "givens": self.givens,
            "values": self.values,
            "pencil": pencil,
        }
        return json.dumps(doc, indent=2) + "\n"

    @classmethod
    def from_json(cls, text: str | bytes) -> Board:
        """Read a board written by `to_json`; ValueError names what is wrong."""
        try:
            doc: Any = json.loads(text)
        except json.JSONDecodeError as err:
            raise ValueError(f"not a JSON board: {err}") from None
        if not isinstance(doc, dict):
            raise ValueError("not a JSON board: expected an object")
        if doc.get("format") != FORMAT:
            raise ValueError(f"not a sudoku-fast board: format is {doc.get('format')!r}")
        if doc.get("version") != VERSION:
            raise ValueError(f"unsupported board version {doc.get('version')!r}")
        for key in ("size", "givens", "values"):
            if key not in doc:
                raise ValueError(f"board: missing field {key!r}")
        size = doc["size"]
        if isinstance(size, bool) or not isinstance(size, int):
            raise ValueError(f"board: size must be an int, got {size!r}")
        pencil_doc = doc.get("pencil", {})
        if not isinstance(pencil_doc, dict):
            raise ValueError("board: pencil must be an object")
        pencil: list[frozenset[int]] = [frozenset() for _ in range(size * size)]
        for name, marks in pencil_doc.items():
            match = _CELL_NAME.fullmatch(name)
            if match is None:
                raise ValueError(f"pencil: bad cell name {name!r} (expected like 'r1c3')")
            row, col = int(match[1]), int(match[2])
            if not (1 <= row <= size and 1 <= col <= size):
                raise ValueError(f"pencil: cell {name!r} is outside a {size}x{size} grid")
            if not isinstance(marks, str):
                raise ValueError(f"pencil: marks of {name} must be a string")
            digits = set()
            for ch in marks:
                digit = SYMBOLS.find(ch) + 1
                if not 1 <= digit <= size:
                    raise ValueError(f"pencil: unexpected mark {ch!r} in {name}")
                digits.add(digit)
            pencil[(row - 1) * size + col - 1] = frozenset(digits)
        return cls(doc["givens"], doc["values"], tuple(pencil), size)


def save_board(board: Board, path: str | os.PathLike[str]) -> None:
    """Write the board to `path` in the JSON format of this module."""
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(board.to_json())


def load_board(path: str | os.PathLike[str]) -> Board:
    """Read a board saved by `save_board`."""
    with open(path, encoding="utf-8") as f:
        return Board.from_json(f.read())
