"""SudokuPad documents: a puzzle and its variant rules from SudokuPad's own format.

A SudokuPad link (`https://sudokupad.app/scl...`, older ones `ctc...`) carries the
puzzle as LZ-String compressed, base64 encoded text. The text is either plain JSON or
SudokuPad's shortened form of it: keys unquoted and abbreviated (`ce` cells, `re`
regions, `ca` cages, `v` value, `l` lines, `u` underlays, `o` overlays, ...), strings
in single quotes, `t` / `f` for true / false, colours without their `#`, and empty
objects left out between commas.

The object describes what SudokuPad draws: `cells` (rows of cells, a given digit under
`value`), `regions` (lists of [row, col], 0-based), `cages` (cells, an optional
`value`, `unique`, `style`, `type`; a cage without cells holding "name: text" is
metadata such as the title, rules text or solution), `metadata`, a `global` list of
flags ("antiknight", "antiking", "nonconsecutive", "disjoint"), and the drawings
`lines`, `arrows`, `underlays` and `overlays`. A thermometer, a diagonal, an arrow or
a kropki dot is one of these drawings, told apart only by shape and colour, and its
meaning is in the rules text: every drawing is refused by name, never guessed at.
"""

from __future__ import annotations

import json
import re
import urllib.parse
from collections.abc import Mapping
from typing import Any

from .fpuzzles import ImportedPuzzle, read_fpuzzles, region_text
from .grid import default_box, geometry_for
from .lzstring import decompress_base64
from .rules import Cage, Rules

__all__ = ["is_sudokupad", "read_sudokupad"]

# SudokuPad's key abbreviations, short form -> full key.
_KEYS = {
    "c": "color", "ca": "cages", "ct": "center", "c1": "borderColor",
    "c2": "backgroundColor", "ce": "cells", "cs": "cellSize", "a": "arrows",
    "o": "overlays", "u": "underlays", "w": "width", "h": "height", "v": "value",
    "vd": "videos", "l": "lines", "r": "rounded", "re": "regions", "fs": "fontSize",
    "th": "thickness", "hl": "headLength", "wp": "wayPoints", "t": "title",
    "te": "text", "d": "duration", "d2": "d",
}  # fmt: skip

# Top-level keys that describe the puzzle, not a rule.
_DESCRIPTIVE = frozenset({"id", "cellSize", "videos", "title", "author", "rules", "settings"})
_DRAWINGS = ("lines", "arrows", "underlays", "overlays")
# Metadata that describes the puzzle; flags read as rules are handled apart.
_DESCRIPTIVE_META = frozenset({"title", "author", "rules", "solution", "source", "msgcorrect"})
_GLOBAL_FLAGS = frozenset({"antiknight", "antiking", "nonconsecutive", "disjoint"})
# How a cage looks: no bearing on what it means.
_CAGE_LOOKS = frozenset(
    {"cageColor", "textColor", "borderColor", "fontC", "outlineC", "color", "fontSize",
     "opacity"}
)  # fmt: skip
_CELL_KEYS = frozenset({"value", "pencilMarks", "centremarks"})
_META_TAG = re.compile(r"([^:\s]+):\s*(.+)", re.DOTALL)
_PREFIX = re.compile(r"(?:^|/)(scl|ctc|fpuzzles|fpuz)(.*)$", re.DOTALL)
_HEX6 = re.compile(r"[0-9a-fA-F]{6}")


class _Shortened:
    """A reader of SudokuPad's shortened JSON (see the module docstring)."""

    def __init__(self, text: str) -> None:
        # Text holding a double quote was shortened without swapping its quotes.
        self.quote = '"' if '"' in text else "'"
        self.text = text
        self.pos = 0

    def fail(self, what: str) -> ValueError:
        return ValueError(f"SudokuPad: malformed puzzle text at character {self.pos}: {what}")

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def expect(self, char: str) -> None:
        if self.peek() != char:
            raise self.fail(f"expected {char!r}, found {self.peek() or 'the end'!r}")
        self.pos += 1

    def document(self) -> Any:
        value = self.value(after_colon=False)
        if self.pos != len(self.text):
            raise self.fail("text after the end of the object")
        return value

    def value(self, after_colon: bool) -> Any:
        char = self.peek()
        if char == "{":
            return self.mapping()
        if char == "[":
            return self.array()
        if char == self.quote:
            return self.string()
        start = self.pos
        while self.peek() not in ",]}" and self.pos < len(self.text):
            self.pos += 1
        token = self.text[start : self.pos]
        if after_colon:
            # Only a value after a key is shortened: t / f, #0 / #F, colours sans '#'.
            named = {"t": True, "f": False, "#0": "#000000", "#F": "#FFFFFF"}
            if token in named:
                return named[token]
            if _HEX6.fullmatch(token):
                return f"#{token}"
        try:
            return json.loads(token)
        except json.JSONDecodeError:
            self.pos = start
            raise self.fail(f"{token!r} is not a value") from None

    def string(self) -> str:
        self.expect(self.quote)
        start, parts = self.pos, []
        while True:
            char = self.peek()
            if not char:
                raise self.fail("a string without its closing quote")
            self.pos += 1
            if char == self.quote:
                break
            if char == "\\":
                escaped = self.peek()
                self.pos += 1
                parts.append("'" if escaped == "'" else "\\" + escaped)
            else:
                parts.append('\\"' if char == '"' else char)
        try:
            return str(json.loads('"' + "".join(parts) + '"'))
        except json.JSONDecodeError:
            self.pos = start
            raise self.fail("a string with a bad escape") from None

    def key(self) -> str:
        if self.peek() == self.quote:
            return self.string()
        start = self.pos
        while self.peek().isalnum():
            self.pos += 1
        if start == self.pos:
            raise self.fail("expected a key")
        return self.text[start : self.pos]

    def mapping(self) -> dict[str, Any]:
        self.expect("{")
        result: dict[str, Any] = {}
        if self.peek() == "}":
            self.pos += 1
            return result
        while True:
            key = self.key()
            if key in result:
                raise self.fail(f"the key {key!r} appears twice")
            self.expect(":")
            result[key] = self.value(after_colon=True)
            if self.peek() == "}":
                self.pos += 1
                return result
            self.expect(",")

    def array(self) -> list[Any]:
        self.expect("[")
        result: list[Any] = []
        while True:
            # An element left out (before a comma or the closing bracket) is {}.
            result.append({} if self.peek() in ",]" else self.value(after_colon=False))
            if self.peek() == "]":
                self.pos += 1
                return result
            self.expect(",")


def _expand_keys(value: Any) -> Any:
    """The object with SudokuPad's abbreviated keys written out, at every depth."""
    if isinstance(value, list):
        return [_expand_keys(item) for item in value]
    if isinstance(value, dict):
        result: dict[str, Any] = {}
        for key, item in value.items():
            full = _KEYS.get(key) or str(key)
            if full in result:
                raise ValueError(f"SudokuPad: the key {key!r} appears twice (as {full!r})")
            result[full] = _expand_keys(item)
        return result
    return value


def _parse_text(text: str) -> Any:
    """The object of a decompressed payload: plain JSON, or the shortened form."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return _expand_keys(_Shortened(text.strip()).document())


def _payload(link: str) -> tuple[str, str]:
    """(format prefix, compressed payload) of a link or payload."""
    candidates = [link]
    if "://" in link:
        parts = urllib.parse.urlsplit(link)
        candidates = [parts.path] + [value for _, value in _query_pairs(parts.query)]
    for candidate in candidates:
        match = _PREFIX.search(urllib.parse.unquote(candidate))
        if match:
            return match.group(1), match.group(2)
    if "://" in link:
        raise ValueError(
            f"SudokuPad: the link {link[:80]!r} holds no puzzle (scl...): a short link "
            "names a puzzle kept on SudokuPad's server, which is not fetched"
        )
    raise ValueError(
        "SudokuPad: expected a link, a payload starting 'scl' (or 'ctc'), or the JSON; "
        f"got {link[:40]!r}"
    )


def is_sudokupad(text: str) -> bool:
    """True when `text` is a SudokuPad puzzle rather than an f-puzzles one: an scl / ctc
    link or payload, SudokuPad's shortened JSON, or a JSON object with `cells`."""
    text = text.strip()
    if text.startswith("{"):
        try:
            document = json.loads(text)
        except json.JSONDecodeError:
            return True  # not JSON: the shortened form
        return isinstance(document, dict) and "cells" in document and "grid" not in document
    try:
        return _payload(text)[0] in ("scl", "ctc")
    except ValueError:
        return False


def _query_pairs(query: str) -> list[tuple[str, str]]:
    # Not parse_qs: '+' in a base64 payload is a plus, not a space.
    return [tuple(part.split("=", 1)) for part in query.split("&") if "=" in part]  # type: ignore[misc]


def _document(source: Mapping[str, Any] | str) -> Mapping[str, Any] | ImportedPuzzle:
    """The SudokuPad object a source holds (an f-puzzles one read as such)."""
    if isinstance(source, Mapping):
        return source
    if not isinstance(source, str):
        raise TypeError(
            f"a SudokuPad puzzle must be a str or a mapping, not {type(source).__name__}"
        )
    text = source.strip()
    if not text.startswith("{"):
        prefix, payload = _payload(text)
        if prefix.startswith("fpuz"):
            return read_fpuzzles("fpuzzles" + payload)
        try:
            text = decompress_base64(payload.strip())
        except ValueError as error:
            raise ValueError(f"SudokuPad: the payload does not decompress ({error})") from None
    document = _parse_text(text)
    if not isinstance(document, Mapping):
        raise ValueError(f"SudokuPad: expected an object, not {type(document).__name__}")
    return document


def _rc(value: object, size: int, what: str) -> int:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise ValueError(f"SudokuPad: {what}: {value!r} is not a cell [row, col]")
    row, col = value
    if not (0 <= row < size and 0 <= col < size):
        raise ValueError(
            f"SudokuPad: {what}: [{row}, {col}] (r{row + 1}c{col + 1}) is outside "
            f"the {size}x{size} grid"
        )
    return int(row * size + col)


def _rcs(value: object, size: int, what: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not value:
        raise ValueError(f"SudokuPad: {what}: expected a list of cells [row, col]")
    cells = tuple(_rc(item, size, what) for item in value)
    if len(set(cells)) != len(cells):
        raise ValueError(f"SudokuPad: {what}: a cell appears twice")
    return cells


def _metadata(document: Mapping[str, Any], cages: list[Any]) -> dict[str, Any]:
    """The puzzle's metadata: the `metadata` object and the cell-less "name: text" cages."""
    metadata: dict[str, Any] = {}
    for key in ("title", "author", "rules"):
        if isinstance(document.get(key), str):
            metadata[key] = document[key]
    for cage in cages:
        if isinstance(cage, Mapping) and not cage.get("cells"):
            match = _META_TAG.fullmatch(str(cage.get("value") or "").strip())
            if match:  # a cage without cells is drawn nowhere: only its tag counts
                name, text = match.groups()
                if name == "rules" and name in metadata:
                    metadata[name] = f"{metadata[name]}\n{text}"
                else:
                    metadata[name] = text
    own = document.get("metadata") or {}
    if not isinstance(own, Mapping):
        raise ValueError("SudokuPad: 'metadata' must be an object")
    metadata.update(own)
    return metadata


def _flag(metadata: Mapping[str, Any], name: str) -> bool:
    value = metadata.get(name)
    if value in (None, False, "false", ""):
        return False
    if value in (True, "true"):
        return True
    raise ValueError(f"SudokuPad: metadata {name!r} is {value!r}, not true or false")


def _grid(cells: object, what: str = "'cells'") -> tuple[int, list[Any]]:
    if (
        not isinstance(cells, list)
        or not cells
        or not all(isinstance(row, list) and len(row) == len(cells) for row in cells)
    ):
        raise ValueError(f"SudokuPad: {what} must be N rows of N cells (a square grid)")
    size = len(cells)
    if size > 35:
        raise ValueError(f"SudokuPad: a {size}x{size} grid is larger than 35x35")
    return size, cells


def _givens(rows: list[Any], size: int) -> str:
    symbols = geometry_for(size, (1, size)).symbols
    givens = []
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            where = f"cell r{r + 1}c{c + 1}"
            if cell is None:
                cell = {}
            if not isinstance(cell, Mapping):
                raise ValueError(f"SudokuPad: {where} is {cell!r}, not an object")
            unknown = sorted(key for key in cell if key not in _CELL_KEYS)
            if unknown:
                raise ValueError(f"SudokuPad: {where}: {', '.join(unknown)} not read")
            value = cell.get("value")
            if value in (None, ""):
                givens.append(".")
                continue
            if isinstance(value, str) and value.strip().isdigit():
                value = int(value)
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= size:
                raise ValueError(f"SudokuPad: {where} holds {value!r}, not a digit 1-{size}")
            givens.append(symbols[value - 1])
    return "".join(givens)


def _regions(regions: object, size: int) -> str | None:
    if not regions:
        raise ValueError(
            "SudokuPad: no 'regions': a grid without boxes is not read (the rules "
            "always have boxes or jigsaw regions)"
        )
    if not isinstance(regions, list):
        raise ValueError("SudokuPad: 'regions' must be a list of regions")
    labels: list[int | None] = [None] * (size * size)
    for k, region in enumerate(regions):
        for cell in _rcs(region, size, f"region {k}"):
            if labels[cell] is not None:
                raise ValueError(
                    f"SudokuPad: cell r{cell // size + 1}c{cell % size + 1} is in "
                    f"regions {labels[cell]} and {k}"
                )
            labels[cell] = k
    missing = [cell for cell, label in enumerate(labels) if label is None]
    if missing:
        cell = missing[0]
        raise ValueError(
            f"SudokuPad: cell r{cell // size + 1}c{cell % size + 1} is in no region "
            f"({len(missing)} cells are in none)"
        )
    return region_text(labels, size, "SudokuPad")


def _sum(cage: Mapping[str, Any], what: str) -> int | None:
    value = cage.get("value")
    if isinstance(value, str):
        value = value.strip() or None
        if value is not None and value.isdigit():
            value = int(value)
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
        raise ValueError(f"SudokuPad: {what}: the value {value!r} is not a sum")
    total = cage.get("sum")
    if total is not None and total != value:
        raise ValueError(f"SudokuPad: {what}: 'sum' {total!r} differs from its value {value!r}")
    return value


def _cages(
    cages: list[Any], size: int, metadata: Mapping[str, Any]
) -> tuple[list[Cage], list[tuple[int, ...]], bool]:
    """Killer cages, extra all-different regions, and whether disjoint-group cages came."""
    rules_text = metadata.get("rules", "")
    rules_text = " ".join(rules_text) if isinstance(rules_text, list) else str(rules_text)
    names_killer = "killer" in rules_text.lower()
    killers: list[Cage] = []
    extra: list[tuple[int, ...]] = []
    disjoint = False
    for k, cage in enumerate(cages):
        if not isinstance(cage, Mapping):
            raise ValueError(f"SudokuPad: cage {k} is {cage!r}, not an object")
        if not cage.get("cells"):
            continue  # metadata, read by _metadata
        cells = _rcs(cage["cells"], size, f"cage {k}")
        what = f"cage {k} (r{cells[0] // size + 1}c{cells[0] % size + 1}, {len(cells)} cells)"
        unknown = sorted(
            key for key in cage
            if key not in _CAGE_LOOKS | {"cells", "value", "sum", "unique", "style", "type"}
        )  # fmt: skip
        if unknown or cage.get("hidden"):
            raise ValueError(f"SudokuPad: {what}: {', '.join(unknown) or 'hidden'} not read")
        style, kind, unique = cage.get("style"), cage.get("type"), cage.get("unique")
        if unique is False:
            raise ValueError(f"SudokuPad: {what} lets digits repeat ('unique': false)")
        if kind == "disjoint" and style is None:
            extra.append(cells)
            disjoint = True
        elif style == "extraregion" and kind is None:
            triangular = len(cells) * (len(cells) + 1) // 2  # what SudokuPad's checker sets
            if cage.get("value") not in (None, "") or cage.get("sum") not in (None, triangular):
                raise ValueError(f"SudokuPad: {what}: an extra region with a sum")
            extra.append(cells)
        elif style in (None, "killer") and kind is None:
            if unique is not True and not names_killer:
                raise ValueError(
                    f"SudokuPad: {what} is not marked 'unique' and the rules text names "
                    "no killer cages: what the cage means is not certain"
                )
            killers.append(Cage(cells, _sum(cage, what)))
        else:
            raise ValueError(
                f"SudokuPad: {what}: a cage of style {style!r}, type {kind!r} is not read"
            )
    return killers, extra, disjoint


def read_sudokupad(source: Mapping[str, Any] | str) -> ImportedPuzzle:
    """Read a SudokuPad puzzle: the givens, the rules, the solution and the title.

    Read are the givens, the regions (jigsaw when they are not the size's boxes), killer
    cages (a cage marked ``unique``, or any killer-style cage when the rules text names
    killer cages; its value is the sum, or none), extra regions and disjoint groups, the
    ``global`` flags ``antiknight``, ``antiking`` and ``nonconsecutive`` (and the
    metadata flags ``antiknight`` / ``antiking``), and the title and solution from the
    metadata. Everything else is refused by name: lines, arrows, underlays and overlays
    (thermometers, diagonals, arrows, dots, circles and cosmetic shapes look alike
    there), other cage styles, other global flags and metadata such as a background
    image. Rules written only in the rules text are not read.

    Parameters
    ----------
    source : str or mapping
        A SudokuPad link (``https://sudokupad.app/scl...``, or ``ctc...``), its
        payload (``scl...``), the decompressed text (JSON or SudokuPad's shortened
        JSON), or the decoded object. An f-puzzles payload SudokuPad opens
        (``fpuzzles...``) is read by `read_fpuzzles`.

    Returns
    -------
    ImportedPuzzle
        ``(puzzle, rules, solution, title)``; `solution` is None unless the metadata
        holds a complete one in digits.

    Raises
    ------
    ValueError
        For a payload that does not decompress or parse, a short link (the puzzle is
        on SudokuPad's server), a grid that is not square, cells off the grid, regions
        that do not cover it once, and every element whose meaning is not certain,
        named (e.g. "SudokuPad: lines (2) not read: ...").
    TypeError
        When `source` is neither a str nor a mapping.

    Examples
    --------
    >>> boxes = [[[r, c] for r in rows for c in cols]
    ...          for rows in ((0, 1), (2, 3)) for cols in ((0, 1), (2, 3))]
    >>> doc = {"cells": [[{"value": 1}, {}, {}, {}]] + [[{}] * 4] * 3, "regions": boxes,
    ...        "cages": [{"cells": [[3, 2], [3, 3]], "value": "3", "unique": True},
    ...                  {"value": "title: Tiny"}], "global": ["antiking"]}
    >>> imported = read_sudokupad(doc)
    >>> imported.puzzle, imported.title, imported.rules.anti_king
    ('1...............', 'Tiny', True)
    >>> imported.rules.cages
    (Cage(cells=(14, 15), total=3),)
    >>> read_sudokupad({**doc, "lines": [{"wayPoints": [[0.5, 0.5], [3.5, 3.5]]}]})
    Traceback (most recent call last):
    ...
    ValueError: SudokuPad: lines (1) not read: ...
    """
    document = _document(source)
    if isinstance(document, ImportedPuzzle):
        return document
    drawn = [
        f"{key} ({len(document[key])})" if isinstance(document[key], list) else key
        for key in _DRAWINGS
        if document.get(key)
    ]
    if drawn:
        raise ValueError(
            f"SudokuPad: {', '.join(drawn)} not read: a drawing's meaning (thermometer, "
            "diagonal, arrow, dot, decoration) is not certain from the shape"
        )
    known = _DESCRIPTIVE | {"cells", "regions", "cages", "global", "metadata", *_DRAWINGS}
    unknown = sorted(
        key for key, value in document.items()
        if key not in known and value not in (None, False, "", [], {})
    )  # fmt: skip
    if unknown:
        raise ValueError(f"SudokuPad: {', '.join(unknown)} not read")
    size, rows = _grid(document.get("cells"))
    cages = document.get("cages") or []
    if not isinstance(cages, list):
        raise ValueError("SudokuPad: 'cages' must be a list")
    metadata = _metadata(document, cages)
    odd = sorted(
        key for key, value in metadata.items()
        if key not in _DESCRIPTIVE_META | {"antiknight", "antiking", "norowcol"}
        and value not in (None, False, "", [], {})
    )  # fmt: skip
    if odd:
        raise ValueError(f"SudokuPad: metadata {', '.join(map(repr, odd))} not read")
    if _flag(metadata, "norowcol"):
        raise ValueError("SudokuPad: metadata 'norowcol' (rows and columns may repeat) not read")
    flags = document.get("global") or []
    if not isinstance(flags, list) or not all(isinstance(flag, str) for flag in flags):
        raise ValueError("SudokuPad: 'global' must be a list of names")
    unread = sorted(set(flags) - _GLOBAL_FLAGS)
    if unread:
        raise ValueError(f"SudokuPad: global {', '.join(map(repr, unread))} not read")
    killers, extra, disjoint_cages = _cages(cages, size, metadata)
    if "disjoint" in flags and not disjoint_cages:
        raise ValueError("SudokuPad: global 'disjoint' without its disjoint-group cages")
    puzzle = _givens(rows, size)
    result = Rules(
        regions=_regions(document.get("regions"), size), extra=tuple(extra),
        cages=tuple(killers),
        anti_knight="antiknight" in flags or _flag(metadata, "antiknight"),
        anti_king="antiking" in flags or _flag(metadata, "antiking"),
        non_consecutive="nonconsecutive" in flags,
    )  # fmt: skip
    try:
        result.check(size, default_box(size) or (1, size))
    except ValueError as error:
        raise ValueError(f"SudokuPad: {error}") from None
    symbols = geometry_for(size, (1, size)).symbols
    solution = str(metadata.get("solution") or "").strip()
    answer = (
        solution
        if len(solution) == size * size and size <= 9 and set(solution) <= set(symbols)
        else None
    )
    title = metadata.get("title")
    return ImportedPuzzle(puzzle, result, answer, title if isinstance(title, str) else "")
