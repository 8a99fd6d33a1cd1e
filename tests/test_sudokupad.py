"""SudokuPad documents: the importer (`read_sudokupad`).

Two published payloads (tests/data/sudokupad, from SakanaAI/Sudoku-Bench) are decoded
and refused for the drawings they carry. The readable cases are written here in
SudokuPad's layout (cells with values, regions of [row, col], cages, global flags,
metadata pseudo-cages), shortened by `shorten` below as SudokuPad's link format
shortens them and compressed by the package's LZ-String compressor; the puzzles
imported are solved and counted by the SAT oracle of tests/variant_oracle.py.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import variant_oracle as oracle

import sudoku_fast as sf
from sudoku_fast._base.lzstring import compress_base64
from sudoku_fast._base.sudokupad import _document, is_sudokupad
from sudoku_fast.variants import read_fpuzzles, read_sudokupad

DATA = Path(__file__).resolve().parent / "data" / "sudokupad"
# SudokuPad's documented abbreviations, full key -> short key.
SHORT = {
    "color": "c", "cages": "ca", "center": "ct", "borderColor": "c1",
    "backgroundColor": "c2", "cells": "ce", "cellSize": "cs", "arrows": "a",
    "overlays": "o", "underlays": "u", "width": "w", "height": "h", "value": "v",
    "videos": "vd", "lines": "l", "rounded": "r", "regions": "re", "fontSize": "fs",
    "thickness": "th", "headLength": "hl", "wayPoints": "wp", "title": "t",
    "text": "te", "duration": "d", "d": "d2",
}  # fmt: skip


def _quote(text: str) -> str:
    assert '"' not in text  # SudokuPad's shortening turns a double quote into '
    return "'" + json.dumps(text)[1:-1].replace("'", "\\'") + "'"


def shorten(value: Any, after_colon: bool = False) -> str:
    """`value` in SudokuPad's shortened JSON."""
    if isinstance(value, dict):
        items = []
        for key, item in value.items():
            key = SHORT.get(key, key)
            name = key if re.fullmatch(r"[A-Za-z0-9]+", key) else _quote(key)
            items.append(f"{name}:{shorten(item, after_colon=True)}")
        return "{" + ",".join(items) + "}"
    if isinstance(value, list):
        return "[" + ",".join("" if item == {} else shorten(item) for item in value) + "]"
    if isinstance(value, bool):
        return ("t" if value else "f") if after_colon else json.dumps(value)
    if isinstance(value, str):
        if after_colon and value in ("#000000", "#FFFFFF"):
            return value[:2]
        if after_colon and re.fullmatch(r"#[0-9a-fA-F]{6}", value):
            return value[1:]
        return _quote(value)
    return json.dumps(value)


def link(document: dict[str, Any]) -> str:
    return "https://sudokupad.app/scl" + compress_base64(shorten(document))


def boxes(size: int, rows: int, cols: int) -> list[list[list[int]]]:
    return [
        [[r, c] for r in range(top, top + rows) for c in range(left, left + cols)]
        for top in range(0, size, rows)
        for left in range(0, size, cols)
    ]


def rc(cell: int, size: int) -> list[int]:
    return [cell // size, cell % size]


def document(puzzle: str, size: int, regions: str | None = None, **parts: Any) -> dict[str, Any]:
    """A SudokuPad object with `puzzle`'s givens and `regions` (labels; None: boxes)."""
    cells = [
        [{"value": int(ch, 36)} if ch != "." else {} for ch in puzzle[r * size : (r + 1) * size]]
        for r in range(size)
    ]
    if regions is None:
        shape = {4: (2, 2), 6: (2, 3), 9: (3, 3)}[size]
        drawn = boxes(size, *shape)
    else:
        drawn = [[rc(k, size) for k, ch in enumerate(regions) if ch == label]
                 for label in dict.fromkeys(regions)]  # fmt: skip
    return {"id": "test", "cellSize": 50, "cells": cells, "regions": drawn, **parts}


def partition(labels: str) -> set[frozenset[int]]:
    return {frozenset(k for k, ch in enumerate(labels) if ch == label) for label in set(labels)}


def oracle_rules(rules: sf.Rules, size: int) -> dict[str, Any]:
    return {"size": size, **rules.to_json()}


def check_with_oracle(imported: Any, size: int) -> None:
    """The imported puzzle has one solution (SAT count), and the engine's answer passes
    the oracle's checker."""
    rules = oracle_rules(imported.rules, size)
    count, found = oracle.count_solutions(imported.puzzle, rules, 2)
    assert count == 1
    answer = sf.solve(imported.puzzle, rules=imported.rules)
    assert answer == found[0]
    assert oracle.is_valid_solution(answer, rules, imported.puzzle)


# --- the shortened JSON ------------------------------------------------------------------


def test_shortened_json_reads_as_sudokupad_writes_it() -> None:
    text = (
        "{ce:[[{v:1},,],[,,],[,,{v:'2'}]],ca:[{v:'title: It\\'s \\u00e9'},"
        "{ce:[[0,0]],v:3,unique:t,c:#0,c1:#F,c2:FF00aa,hidden:f}],'diagonal+':t,"
        "re:[[]],l:[{wp:[[0.5,-1e0]],d2:'M0',d:2}]}"
    )
    assert _document("scl" + compress_base64(text)) == {
        "cells": [[{"value": 1}, {}, {}], [{}, {}, {}], [{}, {}, {"value": "2"}]],
        "cages": [
            {"value": "title: It's \u00e9"},
            {"cells": [[0, 0]], "value": 3, "unique": True, "color": "#000000",
             "borderColor": "#FFFFFF", "backgroundColor": "#FF00aa", "hidden": False},
        ],
        "diagonal+": True,
        "regions": [[{}]],  # '[]' is a list of one empty object, as SudokuPad reads it
        "lines": [{"wayPoints": [[0.5, -1.0]], "d": "M0", "duration": 2}],
    }  # fmt: skip


def test_plain_json_keeps_its_keys() -> None:
    doc = document("1" + "." * 15, 4)
    assert _document(json.dumps(doc)) == doc
    assert _document("scl" + compress_base64(json.dumps(doc))) == doc
    assert read_sudokupad(json.dumps(doc)) == read_sudokupad(link(doc))


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("{ce:[[{v:1}]]", "expected"),
        ("{ce:[[{v:1}]]}}", "after the end"),
        ("{ce:'abc}", "closing quote"),
        ("{ce:[[{v:one}]]}", "'one' is not a value"),
        ("{:1}", "expected a key"),
        ("{ca:1,ca:2}", "appears twice"),
        ("{cells:1,ce:2}", "appears twice"),
    ],
)
def test_malformed_shortened_json(text: str, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        read_sudokupad("scl" + compress_base64(text))


# --- links and payloads ----------------------------------------------------------------


def test_links_payloads_and_objects_read_alike() -> None:
    doc = document("1" + "." * 15, 4)
    payload = link(doc).removeprefix("https://sudokupad.app/")
    imported = read_sudokupad(doc)
    assert imported.puzzle == "1" + "." * 15 and imported.rules == sf.Rules()
    for source in (
        link(doc),
        link(doc) + "?setting-nogrid=1",
        "https://sudokupad.app/" + payload.replace("/", "%2F").replace("+", "%2B"),
        "https://app.crackingthecryptic.com/sudoku/" + payload,
        "https://sudokupad.app/?puzzleid=" + payload,
        payload,
        "ctc" + payload.removeprefix("scl"),
        f"  {payload}\n",
        shorten(doc),
    ):
        assert read_sudokupad(source) == imported, source


def test_f_puzzles_payloads_are_read_by_read_fpuzzles() -> None:
    fdoc = {"size": 4, "grid": [[{"value": 2, "given": True}, {}, {}, {}]] + [[{}] * 4] * 3,
            "antiknight": True}  # fmt: skip
    payload = compress_base64(json.dumps(fdoc))
    assert read_sudokupad("https://sudokupad.app/fpuzzles" + payload) == read_fpuzzles(fdoc)
    assert read_sudokupad("fpuz" + payload) == read_fpuzzles(fdoc)
    with pytest.raises(ValueError, match="read_sudokupad"):
        read_fpuzzles("https://sudokupad.app/scl" + payload)


def test_is_sudokupad_tells_the_formats_apart() -> None:
    doc = document("1" + "." * 15, 4)
    assert is_sudokupad(link(doc)) and is_sudokupad(shorten(doc)) and is_sudokupad(json.dumps(doc))
    assert not is_sudokupad(json.dumps({"size": 4, "grid": []}))
    assert not is_sudokupad("https://sudokupad.app/fpuzzles" + compress_base64("{}"))
    assert not is_sudokupad("https://f-puzzles.com/?load=" + compress_base64("{}"))


def test_bad_sources() -> None:
    with pytest.raises(ValueError, match="short link"):
        read_sudokupad("https://sudokupad.app/wsj7iunsg6")
    with pytest.raises(ValueError, match="payload starting 'scl'"):
        read_sudokupad("N4IgzglgXgpiBcBOANCA5gJwgEwQbT2AF9")
    with pytest.raises(ValueError, match="does not decompress"):
        read_sudokupad("scl!!!")
    with pytest.raises(ValueError, match="expected an object"):
        read_sudokupad("scl" + compress_base64("[1, 2]"))
    with pytest.raises(TypeError, match="str or a mapping"):
        read_sudokupad(12)  # type: ignore[arg-type]


# --- what is read ----------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_generated_killer_puzzles_read_back_and_solve(seed: int) -> None:
    made = sf.generate(size=6, seed=seed, rules="killer")
    cages = [{"cells": [rc(k, 6) for k in cage.cells], "value": str(cage.total),
              "unique": True, "borderColor": "#000000"} for cage in made.rules.cages]  # fmt: skip
    meta = [{"value": "title: Killer"}, {"value": "rules: Normal sudoku rules apply."}]
    imported = read_sudokupad(link(document(made.puzzle, 6, cages=cages + meta)))
    assert imported.puzzle == made.puzzle and imported.rules == made.rules
    assert imported.title == "Killer" and imported.solution is None
    check_with_oracle(imported, 6)


@pytest.mark.parametrize("seed", [4, 5])
def test_generated_jigsaw_puzzles_read_back_and_solve(seed: int) -> None:
    made = sf.generate(size=6, seed=seed, rules="jigsaw")
    assert made.rules.regions is not None
    answer = sf.solve(made.puzzle, rules=made.rules)
    assert answer is not None
    doc = document(made.puzzle, 6, made.rules.regions, metadata={"solution": answer})
    imported = read_sudokupad(link(doc))
    assert imported.puzzle == made.puzzle and imported.rules.regions is not None
    assert partition(imported.rules.regions) == partition(made.rules.regions)
    assert imported.solution == answer
    check_with_oracle(imported, 6)


def test_boxes_drawn_as_regions_are_no_jigsaw() -> None:
    doc = document("." * 36, 6)
    doc["regions"] = doc["regions"][::-1]  # any order, any labels
    assert read_sudokupad(doc).rules.regions is None


def test_flags_extra_regions_and_disjoint_groups() -> None:
    # A classic puzzle with a known solution; the flags' puzzles are counted by SAT.
    puzzle = "1...............".replace(".", ".", 1)
    doc = document(puzzle, 4, **{"global": ["antiking"]})
    imported = read_sudokupad(doc)
    assert imported.rules == sf.Rules(anti_king=True)
    assert (
        sf.count_solutions(puzzle, limit=100, rules=imported.rules)
        == oracle.count_solutions(puzzle, oracle_rules(imported.rules, 4), 100)[0]
    )
    knight = read_sudokupad(document("." * 81, 9, **{"global": ["antiknight", "nonconsecutive"]}))
    assert knight.rules == sf.Rules(anti_knight=True, non_consecutive=True)
    meta = read_sudokupad(document("." * 81, 9, metadata={"antiknight": True, "antiking": "false"}))
    assert meta.rules == sf.Rules(anti_knight=True)
    diagonal = [[i, i] for i in range(9)]
    extra = read_sudokupad(document("." * 81, 9, cages=[
        {"cells": diagonal, "style": "extraregion", "unique": True, "sum": 45}]))  # fmt: skip
    assert extra.rules.extra == (tuple(range(0, 81, 10)),)
    groups = [[[r, c] for r in range(0, 9, 3) for c in range(0, 9, 3)]]
    disjoint = read_sudokupad(document("." * 81, 9, cages=[
        {"cells": groups[0], "unique": True, "type": "disjoint", "style": None}],
        **{"global": ["disjoint"]}))  # fmt: skip
    assert disjoint.rules.extra == ((0, 3, 6, 27, 30, 33, 54, 57, 60),)


def test_a_published_sudoku_x_with_its_solution() -> None:
    # Solve a Sudoku X under the read rules and check it against the SAT count.
    made = sf.generate(size=6, seed=7, rules="x")
    diagonals = [[[i, i] for i in range(6)], [[i, 5 - i] for i in range(6)]]
    cages = [{"cells": cells, "style": "extraregion", "unique": True} for cells in diagonals]
    imported = read_sudokupad(link(document(made.puzzle, 6, cages=cages)))
    assert imported.rules.extra == (tuple(range(0, 36, 7)), tuple(range(5, 31, 5)))
    check_with_oracle(imported, 6)


def test_unflagged_cages_are_killer_cages_only_when_the_rules_say_so() -> None:
    cage = {"cells": [[0, 0], [0, 1]], "value": 3}
    with pytest.raises(ValueError, match="names no killer cages"):
        read_sudokupad(document("." * 16, 4, cages=[cage]))
    rules = {"value": "rules: Digits in a killer cage sum to the clue and don't repeat."}
    imported = read_sudokupad(document("." * 16, 4, cages=[cage, rules]))
    assert imported.rules.cages == (sf.Cage((0, 1), 3),)
    blank = read_sudokupad(document("." * 16, 4, cages=[{"cells": [[0, 0]], "unique": True}]))
    assert blank.rules.cages == (sf.Cage((0,), None),)


# --- what is refused -------------------------------------------------------------------

CAGE = [[0, 0], [0, 1]]


@pytest.mark.parametrize(
    ("parts", "match"),
    [
        ({"lines": [{"wayPoints": [[0, 0], [4, 4]], "color": "#34BBE6"}]}, r"lines \(1\) not read"),
        ({"arrows": [{"wayPoints": [[0.5, 0.5], [1.5, 1.5]]}]}, r"arrows \(1\) not read"),
        ({"underlays": [{"center": [0.5, 0.5]}] * 2}, r"underlays \(2\) not read"),
        ({"overlays": [{"center": [1, 0.5], "text": ""}]}, r"overlays \(1\) not read"),
        ({"foglight": [[0, 0]]}, "foglight not read"),
        ({"global": ["antixv"]}, "global 'antixv' not read"),
        ({"global": ["disjoint"]}, "without its disjoint-group cages"),
        ({"global": "antiknight"}, "list of names"),
        ({"metadata": {"bgimage": "https://example.org/x.png"}}, "metadata 'bgimage'"),
        ({"metadata": {"norowcol": True}}, "norowcol"),
        ({"metadata": {"antiknight": "maybe"}}, "not true or false"),
        ({"cages": [{"value": "sudorkle: 12345"}]}, "metadata 'sudorkle'"),
        ({"cages": [{"cells": CAGE, "unique": False, "value": 3}]}, "lets digits repeat"),
        ({"cages": [{"cells": CAGE, "unique": True, "value": "<10"}]}, "'<10' is not a sum"),
        ({"cages": [{"cells": CAGE, "unique": True, "value": 3, "sum": 4}]}, "differs"),
        ({"cages": [{"cells": CAGE, "unique": True, "hidden": True}]}, "hidden not read"),
        ({"cages": [{"cells": CAGE, "unique": True, "feature": {}}]}, "feature not read"),
        ({"cages": [{"cells": CAGE, "style": "box"}]}, "style 'box'"),
        ({"cages": [{"cells": CAGE, "type": "rowcol"}]}, "type 'rowcol'"),
        ({"cages": [{"cells": CAGE, "style": "extraregion", "value": "7"}]}, "with a sum"),
        (
            {"cages": [{"cells": [[0, 0], [0, 9]], "unique": True}]},
            r"\[0, 9\] \(r1c10\) is outside",
        ),
        ({"cages": [{"cells": [[0, 0], [0, 0]], "unique": True}]}, "appears twice"),
        ({"cages": [{"cells": [[0, 0, 1]], "unique": True}]}, "not a cell"),
        ({"cages": [{"cells": [[r, 0] for r in range(9)] + [[0, 1]], "unique": True}]}, "cage 0"),
        ({"cages": [{"cells": CAGE, "unique": True, "value": 100}]}, "SudokuPad: cage"),
    ],
)
def test_refusals_name_the_element(parts: dict[str, Any], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        read_sudokupad(link(document("." * 81, 9, **parts)))


def test_refusals_of_grids_and_regions() -> None:
    doc = document("." * 81, 9)
    with pytest.raises(ValueError, match="square grid"):
        read_sudokupad({**doc, "cells": doc["cells"][:8]})
    with pytest.raises(ValueError, match="no 'regions'"):
        read_sudokupad({**doc, "regions": []})
    with pytest.raises(ValueError, match="in regions 0 and 1"):
        read_sudokupad({**doc, "regions": [doc["regions"][0]] * 9})
    with pytest.raises(ValueError, match="is in no region"):
        read_sudokupad({**doc, "regions": doc["regions"][:8]})
    bad = [row[:] for row in doc["cells"]]
    bad[2][3] = {"value": 12}
    with pytest.raises(ValueError, match="r3c4 holds 12"):
        read_sudokupad({**doc, "cells": bad})
    bad[2][3] = {"value": 1, "hideclue": True}
    with pytest.raises(ValueError, match="r3c4: hideclue not read"):
        read_sudokupad({**doc, "cells": bad})
    jigsaw = [[[r, c] for c in range(9)] for r in range(9)]  # rows: regions fit, no puzzle
    assert read_sudokupad({**doc, "regions": jigsaw}).rules.regions is not None


# --- published payloads ----------------------------------------------------------------


def test_published_counting_circles_is_refused_for_its_circles() -> None:
    payload = (DATA / "counting_circles.scl").read_text().strip()
    with pytest.raises(ValueError, match=r"underlays \(9\) not read"):
        read_sudokupad("https://sudokupad.app/" + payload)
    doc = dict(_document(payload))
    assert len(doc.pop("underlays")) == 9
    imported = read_sudokupad(doc)  # the rest reads as published
    assert imported.title == "Introduction to Counting Circles"
    assert imported.puzzle == "." * 16 and imported.rules == sf.Rules()
    assert imported.solution == "3421124341322314"
    assert oracle.is_valid_solution(imported.solution, {"size": 4})


def test_published_parity_fish_is_refused_for_its_dots_and_picture() -> None:
    payload = (DATA / "parity_fish.scl").read_text().strip()
    with pytest.raises(ValueError, match=r"overlays \(21\) not read"):
        read_sudokupad("https://sudokupad.app/" + payload)
    doc = dict(_document(payload))
    assert len(doc.pop("overlays")) == 21
    with pytest.raises(ValueError, match="metadata 'bgimage', 'bgimageopacity' not read"):
        read_sudokupad(doc)
    doc["metadata"] = {k: v for k, v in doc["metadata"].items() if not k.startswith("bgimage")}
    imported = read_sudokupad(doc)
    assert imported.title == "Parity Fish" and imported.rules == sf.Rules()
    assert imported.solution is not None and oracle.is_valid_solution(imported.solution, {})


# --- the CLI -----------------------------------------------------------------------------


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sudoku_fast", *args], capture_output=True, text=True
    )


def test_cli_reads_a_sudokupad_link(tmp_path: Path) -> None:
    made = sf.generate(size=6, seed=1, rules="killer")
    cages = [{"cells": [rc(k, 6) for k in cage.cells], "value": cage.total, "unique": True}
             for cage in made.rules.cages]  # fmt: skip
    path = tmp_path / "killer.txt"
    path.write_text(link(document(made.puzzle, 6, cages=cages)) + "\n")
    for option in ("--sudokupad", "--fpuzzles"):
        done = _cli("count", option, str(path), "--limit", "10")
        assert done.returncode == 0, done.stderr
        assert int(done.stdout) == 1
    path.write_text(link(document(made.puzzle, 6, lines=[{"wayPoints": [[0, 0], [6, 6]]}])))
    done = _cli("count", "--sudokupad", str(path))
    assert done.returncode == 2
    assert f"puzzle file {path}: SudokuPad: lines (1) not read" in done.stderr
