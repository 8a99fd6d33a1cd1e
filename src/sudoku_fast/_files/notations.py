"""Files in the notations people keep puzzles in, read as one puzzle per line.

The stream pipeline (`stream.PuzzleReader`) reads one puzzle per line (or a CSV column).
Many files are written otherwise:

- a grid over several lines, one row per line (the `.sdk` form, the `.ss` form of
  Simple Sudoku with its `|` and `---+---` separators, the block form of the Rust
  `sudoku` crate), puzzles separated by blank lines or by a *name line* (`Grid 01` in
  Project Euler's file, `[Puzzle 3]`, `Name: ...`);
- another character for the empty cell (`_`, `*`, `x`, or a space): `empty`;
- grids above 9x9 written as numbers separated by spaces (`16 0 3 ...`, 0 = empty).

`joined_lines` turns such a text into one puzzle per line (each in the default symbols
`1`-`9`, `A`-..., `.` for empty), lazily, line by line, so memory stays flat. It is used
when asked (`empty`, `blocks`) or when `looks_like_blocks` says the head of a file is in
a multi-line form: its first record line holds exactly one row of cells (9, 16, 25...
cells, which no one-line puzzle of those sizes has) or a row of numbers above 9, or is a
name line. A puzzle then gets the number of its first row's line.
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Iterable, Iterator
from typing import BinaryIO

from .._base.grid import EMPTY, MAX_SIZE, SYMBOLS

__all__ = ["JoinedStream", "joined_lines", "looks_like_blocks", "reading", "suggestion"]

# Alphabets files of the bigger grids are often written in, tried when a line does not
# read in the default symbols (16x16 as 0-F most of all).
_ALPHABETS = ("0123456789ABCDEF", "ABCDEFGHIJKLMNOP", "ABCDEFGHIJKLMNOPQRSTUVWXY")

# `Grid 01`, `Puzzle 3`, `[Hard one]`, `Name: x`: words, then perhaps a number or a label.
_NAME = re.compile(r"^(\[.*\]|[A-Za-z][A-Za-z_-]+([ :#=]+[\w .,:#=/-]*)?)$")
_NUMBER = re.compile(r"^\d{1,2}$")


def is_name_line(text: str) -> bool:
    """Whether a line names the puzzle after it (not a row of cells)."""
    return (bool(_NAME.match(text)) and any(c.islower() for c in text)) or text.startswith("[")


def _tokens(text: str) -> list[int] | None:
    """The values of a row written as numbers separated by blanks (commas, bars), or None."""
    tokens = text.replace(",", " ").replace("|", " ").split()
    if len(tokens) < 2 or not all(_NUMBER.match(t) for t in tokens):
        return None
    return [int(t) for t in tokens]


def _numbers(text: str) -> list[int] | None:
    """`_tokens` of a row that has a number above 9 (so it cannot be digits)."""
    values = _tokens(text)
    return values if values is not None and max(values) > 9 else None


def _cells(text: str, empty: str | None) -> str:
    """The cell characters of a row: letters, digits and '.' (`empty` counted as '.');
    the rest (`|`, `-`, `+`, blanks) is layout."""
    if empty is not None:
        text = text.replace(empty, EMPTY)
    return "".join(c for c in text if c == EMPTY or c.isalnum())


def joined_lines(
    lines: Iterable[tuple[int, str]], empty: str | None = None, rows: bool = False
) -> Iterator[tuple[int, str]]:
    """(line number, puzzle) for each puzzle of a text given as (line number, line).

    A puzzle ends at a blank line, a name line, or when its rows hold N*N cells for the
    N of its first row (N cells). '#' lines are comments. Unless `rows` (every line is a
    row), a line holding a whole puzzle (N*N cells, N >= 4) is a puzzle of its own.
    Numbers become symbols (0 -> '.', 10 -> 'A') once a row has one above 9.
    """
    pending: list[str] = []
    first = side = 0
    numbers_mode = False
    row_side = 0  # the rows of the puzzles so far: such lines are rows, not puzzles

    def flush() -> Iterator[tuple[int, str]]:
        nonlocal pending, side, row_side
        if pending:
            yield first, "".join(pending)
            row_side = side if len(pending) > 1 else row_side
        pending = []
        side = 0

    for number, raw in lines:
        text = raw.rstrip("\r\n") if empty == " " else raw.strip()
        if not text.strip() or text.lstrip().startswith("#") or is_name_line(text.strip()):
            yield from flush()
            continue
        values = None if empty == " " else _tokens(text)
        if values is not None and (numbers_mode or max(values) > 9):
            numbers_mode = True
            if len(values) > MAX_SIZE or max(values) > len(SYMBOLS):
                row = text  # let the parser say what is wrong
            else:
                row = "".join(EMPTY if v == 0 else SYMBOLS[v - 1] for v in values)
        else:
            row = _cells(text, empty)
            if not row:
                continue  # a separator line between bands: `---+---+---`
        if not pending:
            n = len(row)
            root = math.isqrt(n)
            whole = root * root == n and root >= 4 and n != row_side and not numbers_mode
            if whole and not rows:
                yield number, row  # a whole puzzle on one line
                continue
            first, side = number, n
        pending.append(row)
        if side and sum(map(len, pending)) >= side * side:
            yield from flush()
    yield from flush()


def reading(source: BinaryIO, empty: str | None, rows: bool) -> BinaryIO:
    """`source` itself, or, when asked (`empty`, `rows`) or when its head looks like a
    multi-line form, a stream of its puzzles one per line."""
    head = source.peek(1 << 16) if hasattr(source, "peek") else b""
    if empty is None and not rows and not looks_like_blocks(head):
        return source
    return io.BufferedReader(JoinedStream(source, empty, rows))


def looks_like_blocks(head: bytes) -> bool:
    """Whether the start of a file is in a multi-line form (see the module doc)."""
    text = head.decode("utf-8", "replace")
    lines = text.splitlines()
    for line in lines[:-1] if len(lines) > 1 else lines:
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if is_name_line(stripped):
            continue  # a name line (or a one-column CSV header): the next line decides
        if _numbers(stripped) is not None:
            return True
        cells = _cells(stripped, None)
        # A 9x9 row: nine digits or dots, nothing else but layout (a 16-cell line may be a
        # row or a whole 4x4 puzzle: --blocks says which).
        return len(cells) == 9 and set(cells) <= set("0123456789.") and "," not in stripped
    return False


class JoinedStream(io.RawIOBase):
    """A binary stream of one puzzle per line, made from a multi-line text (see above)."""

    def __init__(self, source: BinaryIO, empty: str | None = None, rows: bool = False) -> None:
        super().__init__()
        self._source = source
        text = io.TextIOWrapper(source, encoding="utf-8", errors="replace", newline="")
        numbered = ((k + 1, line) for k, line in enumerate(text))
        self._puzzles = joined_lines(numbered, empty, rows)
        self._buffer = b""
        self.line_numbers: list[int] = []

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        while len(self._buffer) < len(buffer):
            found = next(self._puzzles, None)
            if found is None:
                break
            self._buffer += found[1].encode() + b"\n"
        n = min(len(buffer), len(self._buffer))
        buffer[:n] = self._buffer[:n]
        self._buffer = self._buffer[n:]
        return n

    def close(self) -> None:
        if not self.closed:
            self._source.close()
        super().close()


def suggestion(text: str, box: object = None, alphabet: object = None) -> str:
    """What would read a puzzle line the parser refused, in the library's words (""
    when nothing does): another empty character, another alphabet."""
    from .._base.grid import parse_grid

    def reads(candidate: str, **options: object) -> bool:
        try:
            parse_grid(candidate, **options)  # type: ignore[arg-type]
        except (ValueError, TypeError):
            return False
        return True

    for empty in ("_", "*", "x", "-"):
        if empty in text and reads(text.replace(empty, EMPTY), box=box, alphabet=alphabet):
            return f"{empty!r} reads as the empty cell: pass empty={empty!r}"
    if alphabet is None:
        for symbols in _ALPHABETS:
            if reads(text, alphabet=symbols, box=box):
                return f"the line reads with alphabet={symbols!r}"
    if _numbers(text) is not None:
        return "numbers separated by blanks: each is a cell (0 = empty), one row or more a line"
    return ""
