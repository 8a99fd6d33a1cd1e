"""Grid text: parse every common 9x9 notation, pretty-print grids, check solutions.

The canonical form of a puzzle is 81 characters in row-major order: digits `1`-`9` for
clues and `.` for empty cells. `parse` accepts:

* 81 characters with `.` or `0` for empty cells;
* rows separated by spaces, tabs or newlines, cells optionally separated by spaces;
* the pretty form printed by `show`, with `|`, `-` and `+` separators.

Whitespace and punctuation other than `.` are layout and are ignored. Letters and other
symbols are never silently dropped: they raise `ValueError` naming the character and its
position, because a stray letter usually means a corrupted line.

`is_solution` is deliberately independent of the engine: it checks a finished grid
against the rules with plain Python sets.
"""

from __future__ import annotations

SIZE = 9
BOX = 3
CELLS = SIZE * SIZE
DIGITS = "123456789"
EMPTY = "."

_VALUE_OF: dict[str, int] = {d: i + 1 for i, d in enumerate(DIGITS)}
_VALUE_OF["."] = 0
_VALUE_OF["0"] = 0


def _require_str(text: object, what: str = "puzzle") -> str:
    if not isinstance(text, str):
        raise TypeError(f"{what} must be a str, not {type(text).__name__}")
    return text


def parse_values(text: str) -> list[int]:
    """Parse any accepted notation into 81 ints (0 = empty), row-major.

    Raises `TypeError` for a non-str and `ValueError` for a foreign character or a
    cell count other than 81.
    """
    _require_str(text)
    values: list[int] = []
    for position, ch in enumerate(text):
        value = _VALUE_OF.get(ch)
        if value is not None:
            values.append(value)
        elif ch.isalnum():
            raise ValueError(f"unexpected character {ch!r} at position {position}")
    if len(values) != CELLS:
        raise ValueError(f"expected {CELLS} cells, found {len(values)}")
    return values


def format_values(values: list[int] | bytes | bytearray) -> str:
    """The canonical 81-character string of a list of 81 values (0 = empty)."""
    return "".join(DIGITS[v - 1] if v else EMPTY for v in values)


def parse(text: str) -> str:
    """Parse a puzzle in any common notation into its canonical 81-character form.

    >>> parse("4 . . | . . . | 8 . 5" + " 0" * 72)[:12]
    '4.....8.5...'
    """
    return format_values(parse_values(text))


def show(puzzle: str) -> str:
    """A pretty grid with box separators; `parse(show(p)) == parse(p)`.

    >>> print(show("1" + "." * 80).splitlines()[0])
    1 . . | . . . | . . .
    """
    text = parse(puzzle)
    lines = []
    for r in range(SIZE):
        row = text[r * SIZE : (r + 1) * SIZE]
        line = " | ".join(" ".join(row[b : b + BOX]) for b in range(0, SIZE, BOX))
        if r and r % BOX == 0:
            lines.append("".join("+" if ch == "|" else "-" for ch in line))
        lines.append(line)
    return "\n".join(lines)


def units() -> list[list[int]]:
    """The 27 units (9 rows, 9 columns, 9 boxes) as lists of cell indices."""
    rows = [[r * SIZE + c for c in range(SIZE)] for r in range(SIZE)]
    cols = [[r * SIZE + c for r in range(SIZE)] for c in range(SIZE)]
    boxes = [
        [(br + r) * SIZE + bc + c for r in range(BOX) for c in range(BOX)]
        for br in range(0, SIZE, BOX)
        for bc in range(0, SIZE, BOX)
    ]
    return rows + cols + boxes


_UNITS = units()
_ALL = set(range(1, SIZE + 1))


def is_solution(candidate: str, puzzle: str) -> bool:
    """True when `candidate` is a complete valid grid that keeps every clue of `puzzle`.

    Both arguments accept any notation `parse` accepts. An incomplete or invalid grid
    gives False; a malformed text raises `ValueError` as in `parse`.
    """
    _require_str(candidate, "candidate")
    grid = parse_values(candidate)
    clues = parse_values(puzzle)
    if 0 in grid:
        return False
    if any(c and c != g for c, g in zip(clues, grid, strict=True)):
        return False
    return all({grid[i] for i in unit} == _ALL for unit in _UNITS)
