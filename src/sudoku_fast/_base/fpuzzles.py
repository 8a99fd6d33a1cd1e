"""f-puzzles documents: a puzzle and its variant rules from the f-puzzles editor's export.

f-puzzles (and SudokuPad, which opens the same links) stores a puzzle as a JSON object,
LZ-String compressed and base64 encoded into the link (`?load=...`). The object holds
`size`, `grid` (rows of cells: `value`, `given`, `region`), `solution`, and one key per
constraint with cells named "R1C1": `killercage` ({cells, value}), `thermometer`
({lines}: each line bulb first), `extraregion` ({cells}), the flags `diagonal+`
(bottom-left to top-right), `diagonal-`, `antiknight`, `antiking`, `nonconsecutive`
and `disjointgroups`. Every other constraint (arrows, kropki dots, little killers,
cosmetic lines and cages whose meaning is in the rules text, ...) is refused by name:
a rule silently dropped would give a wrong answer. Rules stated only in the `ruleset`
text are not read.
"""

from __future__ import annotations

import json
import re
import urllib.parse
from collections.abc import Mapping
from typing import Any, NamedTuple

from .grid import default_box, geometry_for
from .lzstring import decompress_base64
from .rules import Cage, Rules

__all__ = ["ImportedPuzzle", "read_fpuzzles"]

# Keys that describe the puzzle rather than add a rule.
_DESCRIPTIVE = frozenset(
    {"size", "grid", "title", "author", "ruleset", "solution", "highlightConflicts",
     "disabledlogic", "truecandidatesoptions", "activeConstraints"}
)  # fmt: skip
_FLAGS = {
    "antiknight": "anti_knight",
    "antiking": "anti_king",
    "nonconsecutive": "non_consecutive",
    "disjointgroups": "disjoint",
}
_READ = _DESCRIPTIVE | set(_FLAGS) | {
    "diagonal+", "diagonal-", "killercage", "thermometer", "extraregion",
}  # fmt: skip


class ImportedPuzzle(NamedTuple):
    """A puzzle read from another program's file: its givens, rules, solution, title."""

    puzzle: str
    """The givens, one symbol or "." per cell, row by row."""
    rules: Rules
    """The variant rules (`Rules()` for a classic puzzle)."""
    solution: str | None
    """The published solution, when the document holds a complete one."""
    title: str
    """The puzzle's title ("" when none)."""


def _document(source: Mapping[str, Any] | str) -> Mapping[str, Any]:
    """The f-puzzles JSON object a mapping, JSON text, link or payload holds."""
    if isinstance(source, Mapping):
        return source
    if not isinstance(source, str):
        raise TypeError(
            f"an f-puzzles document must be a str or a mapping, not {type(source).__name__}"
        )
    text = source.strip()
    if not text.startswith("{"):
        if "://" in text:
            parts = urllib.parse.urlsplit(text)
            query = urllib.parse.parse_qs(parts.query)
            text = query["load"][0] if "load" in query else parts.path.rsplit("/", 1)[-1]
        text = urllib.parse.unquote(text)
        for prefix in ("scl", "ctc"):
            if text.startswith(prefix):
                raise ValueError(
                    "f-puzzles: this is a SudokuPad puzzle in its own format "
                    f"({prefix!r}): read it with read_sudokupad"
                )
        text = text.removeprefix("fpuzzles").removeprefix("fpuz")
        text = decompress_base64(text)
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"f-puzzles: the document is not valid JSON ({error})") from None
    if not isinstance(document, Mapping):
        raise ValueError(f"f-puzzles: expected a JSON object, not {type(document).__name__}")
    return document


def _cell(name: object, size: int, what: str) -> int:
    match = re.fullmatch(r"[Rr](\d+)[Cc](\d+)", name) if isinstance(name, str) else None
    if match is None:
        raise ValueError(f"f-puzzles: {what}: {name!r} is not a cell name like 'R1C1'")
    row, col = int(match.group(1)), int(match.group(2))
    if not (1 <= row <= size and 1 <= col <= size):
        raise ValueError(f"f-puzzles: {what}: {name} is outside the {size}x{size} grid")
    return (row - 1) * size + col - 1


def _cells(names: object, size: int, what: str) -> tuple[int, ...]:
    if not isinstance(names, list):
        raise ValueError(f"f-puzzles: {what}: expected a list of cell names")
    return tuple(_cell(name, size, what) for name in names)


def _entries(document: Mapping[str, Any], key: str) -> list[Mapping[str, Any]]:
    value = document.get(key) or []
    if not isinstance(value, list) or not all(isinstance(v, Mapping) for v in value):
        raise ValueError(f"f-puzzles: {key!r} must be a list of objects")
    return value


def _regions(grid: list[Any], size: int) -> str | None:
    """The region labels of the grid's cells, or None when they are the default boxes."""
    box = default_box(size)
    labels: list[int] = []
    custom = False
    for r, row in enumerate(grid):
        for c, cell in enumerate(row):
            if "region" in cell:
                region = cell["region"]
                if isinstance(region, bool) or not isinstance(region, int):
                    raise ValueError(
                        f"f-puzzles: cell R{r + 1}C{c + 1} is in no region ({region!r})"
                    )
                custom = True
                labels.append(region)
            elif box is None:
                raise ValueError(
                    f"f-puzzles: a {size}x{size} grid has no boxes, and cell "
                    f"R{r + 1}C{c + 1} has no region"
                )
            else:
                labels.append((r // box[0]) * (size // box[1]) + c // box[1])
    if not custom:
        return None
    return region_text(labels, size, "f-puzzles")


def region_text(labels: list[Any], size: int, source: str) -> str | None:
    """The `Rules.regions` text of one region label per cell (row by row), or None when
    the regions are the size's default boxes. `source` starts the error message."""
    box = default_box(size)
    symbols = geometry_for(size, (1, size)).symbols
    first_seen = {label: k for k, label in enumerate(dict.fromkeys(labels))}
    if len(first_seen) > len(symbols):
        raise ValueError(f"{source}: {len(first_seen)} regions on a {size}x{size} grid")
    text = "".join(symbols[first_seen[label]] for label in labels)
    if box is not None:
        default = [
            (k // size // box[0]) * (size // box[1]) + k % size // box[1]
            for k in range(size * size)
        ]
        by_default = {label: k for k, label in enumerate(dict.fromkeys(default))}
        if text == "".join(symbols[by_default[label]] for label in default):
            return None  # the boxes themselves
    return text


def read_fpuzzles(source: Mapping[str, Any] | str) -> ImportedPuzzle:
    """Read an f-puzzles document: the puzzle, its rules, its solution and title.

    Parameters
    ----------
    source : str or mapping
        An f-puzzles link (``https://f-puzzles.com/?load=...``), its compressed
        payload (also as SudokuPad writes it, prefixed ``fpuzzles``), the JSON text,
        or the decoded JSON object.

    Returns
    -------
    ImportedPuzzle
        ``(puzzle, rules, solution, title)``.

    Raises
    ------
    ValueError
        For a payload that does not decompress or is not an f-puzzles object, cells
        named off the grid, and constraints the rules cannot express (named, e.g.
        "f-puzzles: unsupported constraints: arrow, littlekillersum").
    TypeError
        When `source` is neither a str nor a mapping.

    Examples
    --------
    >>> doc = {"size": 4, "grid": [[{"value": 1, "given": True}, {}, {}, {}]] + [[{}] * 4] * 3,
    ...        "diagonal-": True, "killercage": [{"cells": ["R4C3", "R4C4"], "value": "3"}]}
    >>> imported = read_fpuzzles(doc)
    >>> imported.puzzle
    '1...............'
    >>> imported.rules.cages
    (Cage(cells=(14, 15), total=3),)
    """
    document = _document(source)
    size = document.get("size", 9)
    if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= 35:
        raise ValueError(f"f-puzzles: size must be an int from 1 to 35, not {size!r}")
    unsupported = sorted(
        key for key, value in document.items()
        if key not in _READ and value not in (None, False, "", [], {})
    )  # fmt: skip
    if unsupported:
        raise ValueError(f"f-puzzles: unsupported constraints: {', '.join(unsupported)}")
    grid = document.get("grid")
    if (
        not isinstance(grid, list)
        or len(grid) != size
        or not all(isinstance(row, list) and len(row) == size for row in grid)
        or not all(isinstance(cell, Mapping) for row in grid for cell in row)
    ):
        raise ValueError(f"f-puzzles: 'grid' must be {size} rows of {size} cell objects")
    symbols = geometry_for(size, (1, size)).symbols
    givens = []
    for r, row in enumerate(grid):
        for c, cell in enumerate(row):
            value = cell.get("value")
            if not cell.get("given") or value in (None, 0, ""):
                givens.append(".")
                continue
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= size:
                raise ValueError(f"f-puzzles: cell R{r + 1}C{c + 1} holds {value!r}")
            givens.append(symbols[value - 1])
    rules: dict[str, Any] = {flag: True for key, flag in _FLAGS.items() if document.get(key)}
    extra = []
    up, down = document.get("diagonal+"), document.get("diagonal-")
    if up and down:
        rules["diagonals"] = True
    elif up:
        extra.append(tuple((size - 1 - i) * size + i for i in range(size)))
    elif down:
        extra.append(tuple(i * size + i for i in range(size)))
    for k, region in enumerate(_entries(document, "extraregion")):
        extra.append(_cells(region.get("cells"), size, f"extraregion {k}"))
    cages = []
    for k, cage in enumerate(_entries(document, "killercage")):
        cells = _cells(cage.get("cells"), size, f"killercage {k}")
        value = str(cage.get("value") or "").strip()
        if value and not value.isdigit():
            raise ValueError(f"f-puzzles: killercage {k}: the sum {value!r} is not a number")
        cages.append(Cage(cells, int(value) if value else None))
    thermos = []
    for k, thermo in enumerate(_entries(document, "thermometer")):
        lines = thermo.get("lines")
        if not isinstance(lines, list) or not lines:
            raise ValueError(f"f-puzzles: thermometer {k}: expected 'lines'")
        thermos += [_cells(line, size, f"thermometer {k}") for line in lines]
    result = Rules(
        regions=_regions(grid, size), extra=tuple(extra), cages=tuple(cages),
        thermos=tuple(thermos), **rules,
    )  # fmt: skip
    result.check(size, default_box(size) or (1, size))
    solution = document.get("solution")
    answer = None
    if (
        isinstance(solution, list)
        and len(solution) == size * size
        and all(isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= size for v in solution)
    ):
        answer = "".join(symbols[v - 1] for v in solution)
    title = document.get("title")
    return ImportedPuzzle("".join(givens), result, answer, title if isinstance(title, str) else "")
