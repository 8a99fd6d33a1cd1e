"""Rebuild the folder of published variant puzzles the variant benches read.

    python bench/variant_sets.py OUT_DIR [--sudoq PATH] [--andoku PATH] [--janko PATH]
                                 [--sudoku-bench PATH] [--ctc PATH]

Each source option names the work tree of a public repository (a `git clone` at the
commit below); every one is optional and a missing one only leaves its sets out. The
puzzles are converted to the JSON lines `bench/variant_blind.py` reads (`{"id", "source",
"kind", "size", "puzzle", "rules", "solution"?}`, the rules in `Rules.to_json`'s form,
`.` for an empty cell) and written to OUT_DIR, one file per set:

| file | sources |
|---|---|
| x.jsonl | SudoQ Xsudoku, Andoku standard_x |
| windoku.jsonl | SudoQ HyperSudoku, Andoku standard_h |
| disjoint.jsonl | Andoku standard_c (colour: disjoint groups) |
| percent.jsonl | Andoku standard_p (two windows and the anti-diagonal, as `extra`) |
| jigsaw.jsonl | janko.at Chaos-Sudoku 4x4-9x9, SudoQ squigglya, squigglyb, stairstep |
| jigsaw_andoku.jsonl | Andoku squiggly_n |
| jigsaw_plus.jsonl | Andoku squiggly_x, _h, _p, _c (jigsaw regions with the extra sets) |
| killer.jsonl | janko.at Killer-Sudoku 4x4, 6x6, 9x9 (cage sums only, no givens) |
| thermo.jsonl | Sudoku-Bench challenge_100: the puzzles of thermometers (and anti-knight) |
| pairwise.jsonl | Cracking the Cryptic: anti-knight, anti-king, non-consecutive, miracle |

Sources, at the commits this was last run on (2026-11-29):

    git clone https://github.com/timo-a/SudoQ
    git -C SudoQ checkout a01eb444227c4885095de694429fea2be167c015
    git clone https://github.com/evilsquid888/andoku
    git -C andoku checkout 3a11afa012721635e37d4cc2d745436b20b44dad
    git clone https://github.com/SmilingWayne/puzzlekit-dataset
    git -C puzzlekit-dataset checkout 53de2fcb850b74709347c384a3b5b77e0c2c1d39
    git clone https://github.com/Hubiele/Sudoku-Bench
    git -C Sudoku-Bench checkout 91c3781bf278fc12f23db5242733741c74e451c1
    git clone https://github.com/Stroper111/sat-solver
    git -C sat-solver checkout 11c9fa0d037e089296ec83f7f8417c70ac7d8c8b
    python bench/variant_sets.py /work/notes/variants-data --sudoq SudoQ --andoku andoku \\
        --janko puzzlekit-dataset --sudoku-bench Sudoku-Bench --ctc sat-solver

What each holds:

* SudoQ (Android app): `sudoq-app/sudoqapp/src/main/assets/sudokus/TYPE/LEVEL/sudoku_K.xml`,
  one `<fieldmap editable= solution=>` per cell (`solution` 0-based, `editable="false"`
  a given), and `TYPE/TYPE.xml` listing the type's all-different constraints (type 0
  rows and columns, 1 boxes or jigsaw regions, 2 extra sets) as cell positions.
* Andoku (Android app): `Andoku/assets/puzzles/{standard,squiggly}_{n,x,h,p,c}_K.adk`, one
  puzzle a line, `givens|regions|extra letter`; the extra sets of each letter are those
  of Andoku's `ExtraRegions` (X: both diagonals; H: the four windows; P: the windows at
  r2c2 and r6c6 and the anti-diagonal; C: the nine disjoint groups). No solutions.
* puzzlekit-dataset (janko.at puzzles with their solutions):
  `assets/data/{JigsawSudoku,KillerSudoku}/*_dataset.json`; each problem is the clue
  grid (givens, or a cage's sum in one of its cells) then the grid of region or cage ids.
* Hubiele/Sudoku-Bench: `Sudoku-Bench_json_conversion/challenge/puzzle_K.json`, a copy
  of Sudoku-Bench's challenge_100 (the dataset itself is on Hugging Face): rules text,
  visual elements, board and solution. A puzzle is kept only when every visual element
  is a thermometer (a line with a bulb circle of its colour at one end) or an anti-knight
  / anti-king mark and every sentence of its rules is one of those or the classic rules.
* Stroper111/sat-solver: `sudoku/sudoku_examples.py` lists puzzles from Cracking the
  Cryptic videos under the constraint they use (read with `ast`, never run).

Every puzzle is checked before it is written: its rules read back from their JSON to an
equal `Rules` (`Rules.from_json(r.to_json()) == r`), `count_solutions(limit=2)` is 1,
the engine's solution keeps every rule by tests/variant_oracle.py's separate checker, and
where the source publishes a solution it is the engine's one and the checker accepts it
too. A puzzle that fails, whose rules `Rules` cannot state, or that repeats one
already written (same givens and rules) is counted and reported, not written (janko.at's
diagonal Chaos and Killer puzzles fail the count: the dataset leaves their diagonals
out, and no rule the source does not state is added). The
folder is data, never committed; the script prints a table of counts per file, source,
kind and size, and writes it to OUT_DIR/summary.json.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import json
import math
import re
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import sudoku_fast as sf

ROOT = Path(__file__).resolve().parent.parent
SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass
class Candidate:
    """One converted puzzle before its checks, or the reason it could not be converted."""

    file: str
    id: str
    source: str
    kind: str
    size: int
    puzzle: str = ""
    rules: dict[str, Any] = field(default_factory=dict)
    solution: str | None = None
    unsupported: str | None = None  # why the source's rules cannot be stated here


# ---------------------------------------------------------------------------------------
# Geometry shared by the readers


def default_box(size: int) -> tuple[int, int] | None:
    """Rows x columns of the default box of an N x N grid (None for a prime N)."""
    rows = math.isqrt(size)
    while rows > 1 and size % rows:
        rows -= 1
    return None if rows <= 1 else (rows, size // rows)


def boxes(size: int, box: tuple[int, int]) -> list[frozenset[int]]:
    rows, cols = box
    return [
        frozenset((top + i) * size + left + j for i in range(rows) for j in range(cols))
        for top in range(0, size, rows)
        for left in range(0, size, cols)
    ]


def diagonals(size: int) -> list[frozenset[int]]:
    return [
        frozenset(i * size + i for i in range(size)),
        frozenset(i * size + size - 1 - i for i in range(size)),
    ]


def square(size: int, top: int, left: int, side: int) -> frozenset[int]:
    return frozenset((top + i) * size + left + j for i in range(side) for j in range(side))


def windows(size: int, box: tuple[int, int]) -> list[frozenset[int]]:
    """Windoku's windows: box-sized squares one cell in from the boxes' corners."""
    side = box[0]
    starts = range(1, size - side, side + 1)
    return [square(size, top, left, side) for top in starts for left in starts]


def disjoint_groups(size: int, box: tuple[int, int]) -> list[frozenset[int]]:
    """The cells at the same place in every box, one group per place."""
    rows, cols = box
    return [
        frozenset(
            (top + i) * size + left + j
            for top in range(0, size, rows)
            for left in range(0, size, cols)
        )
        for i in range(rows)
        for j in range(cols)
    ]


def region_labels(size: int, regions: list[frozenset[int]]) -> str:
    """The `regions` string of a partition of the grid (labels in first-seen order)."""
    label = [""] * (size * size)
    for k, region in enumerate(sorted(regions, key=min)):
        for cell in region:
            label[cell] = SYMBOLS[k]
    return "".join(label)


def rules_document(
    size: int, regions: list[frozenset[int]] | None, extra: list[frozenset[int]]
) -> dict[str, Any]:
    """The JSON rules of all-different sets: a region layout (None or the default boxes:
    none) and extra sets, whole families of which become the named flags."""
    doc: dict[str, Any] = {}
    box = default_box(size)
    if regions is not None and (box is None or set(regions) != set(boxes(size, box))):
        cells = sorted(c for region in regions for c in region)
        if cells != list(range(size * size)) or any(len(r) != size for r in regions):
            raise ValueError("the regions do not split the grid into N-cell parts")
        doc["regions"] = region_labels(size, regions)
    left = list(dict.fromkeys(extra))
    families = [("diagonals", diagonals(size))]
    if box is not None:
        families.append(("disjoint", disjoint_groups(size, box)))
        if box[0] == box[1]:
            families.append(("windoku", windows(size, box)))
    for flag, family in families:
        if family and all(group in left for group in family):
            doc[flag] = True
            left = [group for group in left if group not in family]
    if left:
        doc["extra"] = [sorted(group) for group in left]
    return doc


def cell_of(name: str) -> tuple[int, int]:
    """0-based (row, column) of an `rXcY` cell name."""
    match = re.fullmatch(r"r(\d+)c(\d+)", name)
    if match is None:
        raise ValueError(f"not a cell name: {name!r}")
    return int(match[1]) - 1, int(match[2]) - 1


# ---------------------------------------------------------------------------------------
# SudoQ


SUDOQ_TYPES = {
    "Xsudoku": ("x.jsonl", "x"),
    "HyperSudoku": ("windoku.jsonl", "windoku"),
    "squigglya": ("jigsaw.jsonl", "jigsaw"),
    "squigglyb": ("jigsaw.jsonl", "jigsaw"),
    "stairstep": ("jigsaw.jsonl", "jigsaw"),
}
SUDOQ_LEVELS = ("easy", "medium", "difficult", "infernal")


def sudoq_type(path: Path) -> tuple[int, dict[str, Any]]:
    """The grid size and rules of a SudoQ type file (`TYPE/TYPE.xml`)."""
    root = ET.parse(path).getroot()
    size_node = root.find("size")
    assert size_node is not None, path
    width, height = int(size_node.get("x", "0")), int(size_node.get("y", "0"))
    if width != height:
        raise ValueError(f"{path}: not square")
    size = width
    blocks: list[frozenset[int]] = []
    extra: list[frozenset[int]] = []
    for constraint in root.iter("constraint"):
        if not constraint.get("behavior", "").endswith("UniqueConstraintBehavior"):
            raise ValueError(f"{path}: a constraint other than all-different")
        cells = frozenset(
            int(p.get("y", "0")) * size + int(p.get("x", "0")) for p in constraint.iter("position")
        )
        kind = constraint.get("type")
        if kind == "1":
            blocks.append(cells)
        elif kind == "2":
            extra.append(cells)
        elif kind != "0":
            raise ValueError(f"{path}: constraint type {kind}")
    return size, rules_document(size, blocks, extra)


def read_sudoq(root: Path) -> Iterator[Candidate]:
    base = root / "sudoq-app" / "sudoqapp" / "src" / "main" / "assets" / "sudokus"
    for name, (file, kind) in SUDOQ_TYPES.items():
        size, rules = sudoq_type(base / name / f"{name}.xml")
        for level in SUDOQ_LEVELS:
            paths = sorted(
                (base / name / level).glob("sudoku_*.xml"), key=lambda p: int(p.stem[7:])
            )
            for path in paths:
                givens = ["."] * (size * size)
                solution = ["."] * (size * size)
                for node in ET.parse(path).getroot().iter("fieldmap"):
                    pos = node.find("position")
                    assert pos is not None, path
                    cell = int(pos.get("y", "0")) * size + int(pos.get("x", "0"))
                    digit = SYMBOLS[int(node.get("solution", "-1"))]
                    solution[cell] = digit
                    if node.get("editable") == "false":
                        givens[cell] = digit
                yield Candidate(
                    file,
                    f"sudoq-{name}-{level}-{path.stem[7:]}",
                    f"SudoQ {path.relative_to(root)}",
                    kind,
                    size,
                    "".join(givens),
                    rules,
                    "".join(solution),
                )


# ---------------------------------------------------------------------------------------
# Andoku


ANDOKU_KINDS = {
    "standard_x": ("x.jsonl", "x"),
    "standard_h": ("windoku.jsonl", "windoku"),
    "standard_p": ("percent.jsonl", "percent"),
    "standard_c": ("disjoint.jsonl", "disjoint"),
    "squiggly_n": ("jigsaw_andoku.jsonl", "jigsaw"),
    "squiggly_x": ("jigsaw_plus.jsonl", "jigsaw+x"),
    "squiggly_h": ("jigsaw_plus.jsonl", "jigsaw+windoku"),
    "squiggly_p": ("jigsaw_plus.jsonl", "jigsaw+percent"),
    "squiggly_c": ("jigsaw_plus.jsonl", "jigsaw+disjoint"),
}


def andoku_extra(letter: str, size: int) -> list[frozenset[int]]:
    """The extra sets of an Andoku puzzle's letter (9x9 only, as in Andoku)."""
    if letter == "":
        return []
    if size != 9:
        raise ValueError(f"Andoku extra sets are 9x9 only, not {size}x{size}")
    if letter == "X":
        return diagonals(9)
    if letter == "H":
        return [square(9, top, left, 3) for top in (1, 5) for left in (1, 5)]
    if letter == "P":
        return [square(9, 1, 1, 3), diagonals(9)[1], square(9, 5, 5, 3)]
    if letter == "C":
        return disjoint_groups(9, (3, 3))
    raise ValueError(f"unknown Andoku extra letter {letter!r}")


def read_andoku(root: Path) -> Iterator[Candidate]:
    base = root / "Andoku" / "assets" / "puzzles"
    for stem, (file, kind) in ANDOKU_KINDS.items():
        for level in range(1, 6):
            path = base / f"{stem}_{level}.adk"
            lines = [s for s in path.read_text().splitlines() if s.strip() and s[0] != "#"]
            for number, line in enumerate(lines, 1):
                # A line may leave out its empty trailing fields.
                givens, layout, letter = [*line.split("|"), "", ""][:3]
                size = math.isqrt(len(givens))
                regions = None
                if layout:
                    by_label: dict[str, set[int]] = {}
                    for cell, label in enumerate(layout):
                        by_label.setdefault(label, set()).add(cell)
                    regions = [frozenset(r) for r in by_label.values()]
                rules = rules_document(size, regions, andoku_extra(letter, size))
                yield Candidate(
                    file,
                    f"andoku-{stem}-{level}-{number}",
                    f"Andoku {path.relative_to(root)} line {number}",
                    kind,
                    size,
                    givens.replace("0", "."),
                    rules,
                )


# ---------------------------------------------------------------------------------------
# janko.at, through puzzlekit-dataset


def janko_grids(text: str) -> tuple[int, list[list[str]], list[list[str]]]:
    """Size, clue grid and id grid of a puzzlekit problem text."""
    lines = text.strip().splitlines()
    rows, cols = map(int, lines[0].split())
    if rows != cols:
        raise ValueError("not square")
    clues = [line.split() for line in lines[1 : 1 + rows]]
    ids = [line.split() for line in lines[1 + rows : 1 + 2 * rows]]
    if len(ids) != rows or any(len(r) != rows for r in clues + ids):
        raise ValueError("malformed grids")
    return rows, clues, ids


def janko_solution(text: str, size: int) -> str:
    rows = [line.split() for line in text.strip().splitlines()[1:]]
    return "".join(SYMBOLS[int(v) - 1] for row in rows[:size] for v in row)


def janko_id(url: str) -> str:
    match = re.search(r"/Sudoku/(\w+)/(\d+)\.a\.htm", url)
    return f"{match[1].lower()}-{match[2]}" if match else url


def read_janko(root: Path) -> Iterator[Candidate]:
    base = root / "assets" / "data"
    for name, file, kind in (
        ("JigsawSudoku", "jigsaw.jsonl", "jigsaw"),
        ("KillerSudoku", "killer.jsonl", "killer"),
    ):
        data = json.loads((base / name / f"{name}_dataset.json").read_text())["data"]
        for key, item in data.items():
            url = str(item.get("source", key))
            ident = f"janko-{janko_id(url)}"
            try:
                size, clues, ids = janko_grids(item["problem"])
                groups: dict[str, set[int]] = {}
                for r in range(size):
                    for c in range(size):
                        groups.setdefault(ids[r][c], set()).add(r * size + c)
                solution = janko_solution(item["solution"], size) if item.get("solution") else None
            except (ValueError, KeyError, IndexError) as error:
                yield Candidate(file, ident, url, kind, 0, unsupported=f"unreadable: {error}")
                continue
            cells = [(r * size + c, clues[r][c]) for r in range(size) for c in range(size)]
            if kind == "jigsaw":
                puzzle = "".join("." if v == "-" else SYMBOLS[int(v) - 1] for _, v in cells)
                rules = rules_document(size, [frozenset(g) for g in groups.values()], [])
                yield Candidate(file, ident, url, kind, size, puzzle, rules, solution)
                continue
            sums: dict[str, list[int]] = {}
            for cell, value in cells:
                if value != "-":
                    sums.setdefault(ids[cell // size][cell % size], []).append(int(value))
            if any(len(v) > 1 for v in sums.values()):
                yield Candidate(file, ident, url, kind, size, unsupported="two sums in a cage")
                continue
            cages: list[dict[str, Any]] = []
            for group, members in sorted(groups.items(), key=lambda item: min(item[1])):
                cage: dict[str, Any] = {"cells": sorted(members)}
                if group in sums:
                    cage["sum"] = sums[group][0]
                cages.append(cage)
            yield Candidate(
                file, ident, url, kind, size, "." * (size * size), {"cages": cages}, solution
            )


# ---------------------------------------------------------------------------------------
# Sudoku-Bench challenge_100 (Hubiele/Sudoku-Bench's copy)


CLASSIC_WORDS = ("rules apply", "row, column", "once each", "1-9", "1 to 9", "1 - 9")
FOREIGN_WORDS = re.compile(
    r"arrow|cage|dot|kropki|renban|whisper|palindrome|stay the same|or equal|\bsum|"
    r"irregular|\bx\b|\bv\b|circle|line(?!s? apply)|shade|loop|region"
)


def bench_rule_flags(text: str) -> tuple[set[str], str | None]:
    """The rules named by a rules text, or why one of its sentences is not understood."""
    flags: set[str] = set()
    for sentence in re.split(r"\n|(?<=\.)\s+", text.lower()):
        sentence = sentence.strip(" -.\t")
        if not sentence:
            continue
        if "thermo" in sentence or "bulb" in sentence:
            if "increase" not in sentence or re.search(r"stay the same|or equal", sentence):
                return flags, f"a thermometer rule other than strictly increasing: {sentence!r}"
            flags.add("thermos")
        elif "knight" in sentence:
            flags.add("anti_knight")
        elif "king" in sentence:
            flags.add("anti_king")
        elif any(word in sentence for word in CLASSIC_WORDS) and (
            not FOREIGN_WORDS.search(sentence) or "bold outlined region" in sentence
        ):
            continue
        else:
            return flags, f"a rule not stated by these rules: {sentence!r}"
    return flags, None


def bench_rules(record: dict[str, Any]) -> tuple[dict[str, Any], str | None]:
    """The JSON rules of a Sudoku-Bench record, or why they cannot be stated."""
    size = int(record["rows"])
    if int(record["cols"]) != size:
        return {}, "not square"
    text = json.loads(record["rules"]) if record["rules"].startswith('"') else record["rules"]
    flags, why = bench_rule_flags(str(text))
    if why:
        return {}, why
    elements = json.loads(record["visual_elements"] or "[]")
    bulbs: dict[tuple[int, str], int] = {}
    lines: list[dict[str, Any]] = []
    for element in elements:
        kind = element.get("type")
        if kind == "global" and element.get("text") in ("anti-knight", "anti-king"):
            flags.add(element["text"].replace("-", "_"))
        elif kind == "lines":
            lines.append(element)
        elif kind in ("underlays", "overlays") and element.get("shape") == "circle":
            row, col = cell_of(element["coords"][0])
            bulbs[(row * size + col, str(element.get("color_hex")).lower())] = 0
        else:
            return {}, f"a visual element these rules cannot state: {kind}"
    thermos = []
    for line in lines:
        cells = [r * size + c for r, c in map(cell_of, line["coords"])]
        color = str(line.get("color_hex")).lower()
        if (cells[-1], color) in bulbs and (cells[0], color) not in bulbs:
            cells.reverse()
        if (cells[0], color) not in bulbs:
            return {}, "a line without a bulb"
        bulbs[(cells[0], color)] += 1
        thermos.append(cells)
    if any(used == 0 for used in bulbs.values()):
        return {}, "a circle that is not a bulb"
    if bool(thermos) != ("thermos" in flags):
        return {}, "thermometers drawn and named do not agree"
    doc: dict[str, Any] = {flag: True for flag in sorted(flags - {"thermos"})}
    if thermos:
        doc["thermos"] = thermos
    if not doc:
        return {}, "classic rules only"
    return doc, None


def read_sudoku_bench(root: Path) -> Iterator[Candidate]:
    base = root / "Sudoku-Bench_json_conversion" / "challenge"
    for path in sorted(base.glob("puzzle_*.json")):
        record = json.loads(path.read_text())
        size = int(record["rows"])
        ident = f"sudokubench-challenge-{path.stem[7:]}"
        source = (
            f"Sudoku-Bench challenge_100 {record.get('puzzle_id')} {record.get('sudokupad_url')}"
        )
        rules, why = bench_rules(record)
        if why:
            yield Candidate("thermo.jsonl", ident, source, "thermo", size, unsupported=why)
            continue
        kind = "thermo" + "".join("+" + f for f in sorted(rules) if f != "thermos")
        yield Candidate(
            "thermo.jsonl", ident, source, kind, size,
            record["initial_board"].replace("0", "."), rules, record.get("solution") or None,
        )  # fmt: skip


# ---------------------------------------------------------------------------------------
# Cracking the Cryptic puzzles listed in Stroper111/sat-solver


CTC_LISTS = {
    "KNIGHT_CONSTRAINT": ("anti-knight", {"anti_knight": True}),
    "KINGS_MOVE_CONSTRAINT": ("anti-king", {"anti_king": True}),
    "NON_CONSECUTIVE_CONSTRAINT": ("non-consecutive", {"non_consecutive": True}),
    "MIRACLE": ("miracle", {"anti_knight": True, "anti_king": True, "non_consecutive": True}),
}


def constant_value(node: ast.expr) -> str | int:
    """A str or int expression of constants, + and * only (the file is never run)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, (str, int)):
        return node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mult)):
        left, right = constant_value(node.left), constant_value(node.right)
        if isinstance(node.op, ast.Add):
            if type(left) is not type(right):
                raise ValueError("+ of a str and an int")
            return left + right  # type: ignore[operator]
        if isinstance(left, int) and isinstance(right, int):
            return left * right
        if isinstance(left, str) and isinstance(right, int):
            return left * right
        if isinstance(left, int) and isinstance(right, str):
            return right * left
        raise ValueError("* of two strs")
    raise ValueError(f"not a constant expression: {ast.dump(node)[:60]}")


def read_ctc(root: Path) -> Iterator[Candidate]:
    path = root / "sudoku" / "sudoku_examples.py"
    text = path.read_text()
    lines = text.splitlines()
    for statement in ast.parse(text).body:
        if not (isinstance(statement, ast.Assign) and isinstance(statement.value, ast.List)):
            continue
        target = statement.targets[0]
        if not isinstance(target, ast.Name) or target.id not in CTC_LISTS:
            continue
        name, rules = CTC_LISTS[target.id]
        for number, element in enumerate(statement.value.elts, 1):
            # The link is in the comment lines just above the puzzle.
            above = lines[max(0, element.lineno - 4) : element.lineno - 1]
            found = (re.search(r"https?:\S+", s.replace(" ", "")) for s in above)
            links = [m[0] for m in found if m]
            puzzle = str(constant_value(element)).replace(" ", ".")
            yield Candidate(
                "pairwise.jsonl",
                f"ctc-{name}-{number}",
                f"Cracking the Cryptic {links[-1] if links else '?'} ({path.relative_to(root)})",
                name,
                math.isqrt(len(puzzle)),
                puzzle,
                dict(rules),
            )


READERS: dict[str, Callable[[Path], Iterator[Candidate]]] = {
    "sudoq": read_sudoq,
    "andoku": read_andoku,
    "janko": read_janko,
    "sudoku_bench": read_sudoku_bench,
    "ctc": read_ctc,
}


# ---------------------------------------------------------------------------------------
# Checks


def load_oracle() -> ModuleType:
    """tests/variant_oracle.py, the checker written apart from the package."""
    tests = str(ROOT / "tests")
    if tests not in sys.path:
        sys.path.insert(0, tests)
    return importlib.import_module("variant_oracle")


def check(candidate: Candidate, oracle: ModuleType) -> tuple[str | None, dict[str, Any]]:
    """The reason a candidate fails (None when it passes), and its record to write."""
    if candidate.unsupported:
        return f"rules not stated: {candidate.unsupported}", {}
    try:
        rules = sf.Rules.from_json(candidate.rules)
        document = rules.to_json()
        if sf.Rules.from_json(json.loads(json.dumps(document))) != rules:
            return "rules: the JSON does not read back equal", {}
    except (ValueError, TypeError) as error:
        return f"rules refused: {error}", {}
    size = candidate.size
    oracle_rules = dict(document, size=size)
    try:
        count = sf.count_solutions(candidate.puzzle, rules=rules, limit=2, max_nodes=None)
    except (ValueError, TypeError) as error:
        return f"puzzle refused: {error}", {}
    if count != 1:
        return f"{count} solutions" if count < 2 else "2+ solutions", {}
    found = sf.solve(candidate.puzzle, rules=rules, max_nodes=None)
    if found is None or not oracle.is_valid_solution(found, oracle_rules, candidate.puzzle):
        return "the engine's solution fails the separate checker", {}
    if candidate.solution is not None:
        if not oracle.is_valid_solution(candidate.solution, oracle_rules, candidate.puzzle):
            return "the published solution fails the separate checker", {}
        if candidate.solution != found:
            return "the published solution differs from the engine's", {}
    record: dict[str, Any] = {
        "id": candidate.id,
        "source": candidate.source,
        "kind": candidate.kind,
        "size": size,
        "puzzle": candidate.puzzle,
        "rules": document,
    }
    if candidate.solution is not None:
        record["solution"] = candidate.solution
    return None, record


def build(sources: dict[str, Path], out: Path) -> dict[str, Any]:
    """Convert and check every puzzle of the given sources; write the files to `out`.

    Parameters
    ----------
    sources : dict of str to Path
        Reader name (a key of READERS) -> the work tree of its repository.
    out : Path
        The folder to write (created; its *.jsonl files of these sets are replaced).

    Returns
    -------
    dict
        The summary: counts per (file, source, kind, size) and the failures by reason.
    """
    oracle = load_oracle()
    out.mkdir(parents=True, exist_ok=True)
    written: dict[str, list[dict[str, Any]]] = {}
    seen: set[tuple[str, str, str]] = set()
    rows: Counter[tuple[str, str, str, int, str]] = Counter()
    failures: Counter[tuple[str, str, str]] = Counter()
    examples: dict[tuple[str, str, str], str] = {}
    for name, root in sources.items():
        for candidate in READERS[name](root):
            why, record = check(candidate, oracle)
            if why is None:
                key = (
                    candidate.file,
                    candidate.puzzle,
                    json.dumps(record["rules"], sort_keys=True),
                )
                if key in seen:
                    why = "repeats a puzzle already written"
                else:
                    seen.add(key)
                    written.setdefault(candidate.file, []).append(record)
            file, kind, size = candidate.file, candidate.kind, candidate.size
            rows[(file, name, kind, size, "read")] += 1
            if why is None:
                rows[(file, name, kind, size, "written")] += 1
                rows[(file, name, kind, size, "with solution")] += candidate.solution is not None
            else:
                reason = re.sub(r": .*", "", why) if why.startswith("rules not") else why
                failures[(candidate.file, name, reason)] += 1
                examples.setdefault((candidate.file, name, reason), f"{candidate.id}: {why}")
    for file, records in written.items():
        with (out / file).open("w") as f:
            for record in records:
                f.write(json.dumps(record, separators=(",", ":")) + "\n")
    table = [
        {"file": f, "source": s, "kind": k, "size": n, "read": rows[(f, s, k, n, "read")],
         "written": rows[(f, s, k, n, "written")],
         "with_solution": rows[(f, s, k, n, "with solution")]}
        for f, s, k, n in sorted({key[:4] for key in rows})
    ]  # fmt: skip
    summary = {
        "sources": {name: str(root) for name, root in sources.items()},
        "sets": table,
        "not_written": [
            {"file": f, "source": s, "reason": r, "count": c, "example": examples[(f, s, r)]}
            for (f, s, r), c in sorted(failures.items())
        ],
        "total_written": sum(len(r) for r in written.values()),
    }
    (out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("out", type=Path, help="the folder to write")
    parser.add_argument("--sudoq", type=Path, help="work tree of timo-a/SudoQ")
    parser.add_argument("--andoku", type=Path, help="work tree of evilsquid888/andoku")
    parser.add_argument("--janko", type=Path, help="work tree of SmilingWayne/puzzlekit-dataset")
    parser.add_argument("--sudoku-bench", type=Path, help="work tree of Hubiele/Sudoku-Bench")
    parser.add_argument("--ctc", type=Path, help="work tree of Stroper111/sat-solver")
    args = parser.parse_args()
    sources = {name: getattr(args, name) for name in READERS if getattr(args, name) is not None}
    if not sources:
        parser.error("give at least one source")
    summary = build(sources, args.out)
    print("| file | source | kind | size | read | written | with solution |")
    print("|---|---|---|---:|---:|---:|---:|")
    for row in summary["sets"]:
        print(f"| {row['file']} | {row['source']} | {row['kind']} | {row['size']} | "
              f"{row['read']} | {row['written']} | {row['with_solution']} |")  # fmt: skip
    print(f"\nwritten: {summary['total_written']} puzzles to {args.out}")
    for item in summary["not_written"]:
        print(f"not written: {item['count']} x {item['file']} {item['source']}: {item['reason']}"
              f" (e.g. {item['example'][:150]})")  # fmt: skip


if __name__ == "__main__":
    main()
