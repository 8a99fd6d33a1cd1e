"""f-puzzles documents: the LZ-String codec and the importer (`read_fpuzzles`).

The documents are written here, in the f-puzzles JSON layout (size, grid of cells with
value / given / region, constraints with cells named "R1C1"), and compressed by the
package's own LZ-String compressor; the decompressor is also checked on a payload whose
compressed bits are worked out by hand below, and round trips on random texts.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import sudoku_fast as sf
from sudoku_fast._base.lzstring import compress_base64, decompress_base64
from sudoku_fast.variants import read_fpuzzles

SOLUTION = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"


def name(cell: int, size: int = 9) -> str:
    return f"R{cell // size + 1}C{cell % size + 1}"


def document(puzzle: str, size: int = 9, **constraints: Any) -> dict[str, Any]:
    """An f-puzzles object with `puzzle`'s givens."""
    grid = [
        [
            {"value": int(puzzle[r * size + c]), "given": True}
            if puzzle[r * size + c] != "."
            else {}
            for c in range(size)
        ]
        for r in range(size)
    ]
    return {"size": size, "title": "test", "author": "tests", "ruleset": "", "grid": grid,
            **constraints}  # fmt: skip


# ------------------------------------------------------------------ LZ-String


def test_a_payload_worked_out_by_hand() -> None:
    # LZString's bits for "aa", each code least significant bit first: code 0 in 2 bits
    # (an 8-bit character follows), 0x61, then (the dictionary now needs 3 bits) the
    # code 3 of "a", and the end marker 2.
    bits = "00" + "10000110" + "110" + "010"
    bits += "0" * (-len(bits) % 6)
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    payload = "".join(alphabet[int(bits[i : i + 6], 2)] for i in range(0, len(bits), 6))
    assert decompress_base64(payload) == "aa"
    assert compress_base64("aa").rstrip("=") == payload


@pytest.mark.parametrize("seed", range(5))
def test_round_trips(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(200):
        alphabet = rng.choice(["ab", '{}":,0123456789', "".join(map(chr, range(32, 127))),
                               "a\u00e9\u20ac\u4e2d\U0001f600"])  # fmt: skip
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 300)))
        packed = compress_base64(text)
        assert len(packed) % 4 == 0
        assert decompress_base64(packed) == text
        # The URI-safe form: "-" for "/", no padding.
        assert decompress_base64(packed.replace("/", "-").rstrip("=")) == text


@pytest.mark.parametrize(
    ("payload", "match"),
    [("", "no LZ-String"), ("ab*c", "character '\\*'"), ("NoIgzglg", "ends before")],
)
def test_bad_payloads(payload: str, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        decompress_base64(payload)


# ------------------------------------------------------------------ the importer


def test_killer_thermo_and_flags_from_a_link() -> None:
    doc = document(
        "." * 80 + "9",
        killercage=[{"cells": ["R1C1", "R1C2"], "value": "8"}, {"cells": ["R2C1", "R3C1"]}],
        thermometer=[{"lines": [["R5C5", "R4C5", "R3C5"], ["R5C5", "R5C6"]]}],
        antiknight=True,
        nonconsecutive=False,
        extraregion=[{"cells": ["R9C1", "R9C2", "R8C1"]}],
        **{"diagonal+": True, "diagonal-": True},
    )
    link = "https://www.f-puzzles.com/?load=" + compress_base64(json.dumps(doc))
    imported = read_fpuzzles(link)
    assert imported.puzzle == "." * 80 + "9"
    assert imported.title == "test" and imported.solution is None
    assert imported.rules == sf.Rules(
        diagonals=True,
        anti_knight=True,
        extra=((72, 73, 63),),
        cages=(sf.Cage((0, 1), 8), sf.Cage((9, 18))),
        thermos=((40, 31, 22), (40, 41)),
    )
    # The same document as SudokuPad carries it, as JSON text and as a mapping.
    assert read_fpuzzles("fpuzzles" + compress_base64(json.dumps(doc))) == imported
    assert read_fpuzzles(json.dumps(doc)) == imported
    assert read_fpuzzles(doc) == imported


def test_one_diagonal_is_an_extra_region() -> None:
    up = read_fpuzzles(document("." * 81, **{"diagonal+": True})).rules
    assert up.extra == (tuple(range(72, 0, -8)),) and not up.diagonals
    down = read_fpuzzles(document("." * 81, **{"diagonal-": True})).rules
    assert down.extra == (tuple(range(0, 81, 10)),)


def test_jigsaw_regions_and_the_solution_are_read_and_solved() -> None:
    regions = ("111222333" "111222233" "411152233" "444555633" "444556666"
               "477555666" "477889996" "777888999" "778888999")  # fmt: skip
    solution = sf.solve("." * 81, rules={"regions": regions})
    assert solution is not None
    # Givens: a unique jigsaw puzzle made by removing clues while it stays unique.
    grid = list(solution)
    rng = random.Random(7)
    for cell in rng.sample(range(81), 81):
        digit, grid[cell] = grid[cell], "."
        if sf.count_solutions("".join(grid), rules={"regions": regions}) != 1:
            grid[cell] = digit
    puzzle = "".join(grid)
    doc = document(puzzle, solution=[int(d) for d in solution])
    for r, row in enumerate(doc["grid"]):
        for c, cell in enumerate(row):
            cell["region"] = int(regions[r * 9 + c]) - 1
    imported = read_fpuzzles(doc)
    assert imported.rules.regions is not None
    assert imported.puzzle == puzzle and imported.solution == solution
    assert sf.solve(imported.puzzle, rules=imported.rules) == solution


def test_default_regions_written_out_are_the_boxes() -> None:
    doc = document("." * 36, size=6)
    for r, row in enumerate(doc["grid"]):
        for c, cell in enumerate(row):
            cell["region"] = (r // 2) * 2 + c // 3
    imported = read_fpuzzles(doc)
    assert imported.rules.is_classic and imported.puzzle == "." * 36


def test_killer_sums_from_f_puzzles_are_the_rules() -> None:
    triples = [[r * 9 + c, r * 9 + c + 1, r * 9 + c + 2] for r in range(9) for c in (0, 3, 6)]
    cages = [
        {"cells": [name(c) for c in cells], "value": str(sum(int(SOLUTION[c]) for c in cells))}
        for cells in triples
    ]
    # Every given but the first row's: the columns force that row, so the sums of its
    # cages decide whether the puzzle has a solution at all.
    puzzle = "." * 9 + SOLUTION[9:]
    imported = read_fpuzzles(document(puzzle, killercage=cages, solution=[*map(int, SOLUTION)]))
    assert len(imported.rules.cages) == 27 and imported.solution == SOLUTION
    assert sf.solve(imported.puzzle, rules=imported.rules) == SOLUTION
    cages[0]["value"] = str(int(cages[0]["value"]) + 1)
    cages[1]["value"] = str(int(cages[1]["value"]) - 1)
    wrong = read_fpuzzles(document(puzzle, killercage=cages))
    assert sf.count_solutions(wrong.puzzle, rules=wrong.rules) == 0


@pytest.mark.parametrize(
    ("extra", "match"),
    [
        (
            {"arrow": [{"cells": ["R1C1"], "lines": [["R1C1", "R1C2"]]}]},
            "unsupported constraints: arrow",
        ),
        ({"littlekillersum": [{}], "odd": [{"cell": "R1C1"}]}, "littlekillersum, odd"),
        ({"cage": [{"cells": ["R1C1"], "value": "x"}]}, "unsupported constraints: cage"),
        ({"killercage": [{"cells": ["R1C1", "R1C2"], "value": "?"}]}, "sum '\\?' is not a number"),
        ({"killercage": [{"cells": ["R1C1", "R10C2"], "value": "3"}]}, "R10C2 is outside"),
        ({"killercage": [{"cells": ["A1"], "value": "3"}]}, "'A1' is not a cell name"),
        ({"killercage": [{"cells": ["R1C1", "R1C2"], "value": "40"}]}, "cage 0: sum 40"),
        ({"thermometer": [{"lines": []}]}, "thermometer 0: expected 'lines'"),
        ({"size": 0}, "size must be"),
    ],
)
def test_refusals_name_what_is_wrong(extra: dict[str, Any], match: str) -> None:
    doc = {**document("." * 81), **extra}
    with pytest.raises(ValueError, match=match):
        read_fpuzzles(doc)


def test_malformed_documents() -> None:
    with pytest.raises(ValueError, match="not valid JSON"):
        read_fpuzzles(compress_base64("{not json"))
    with pytest.raises(ValueError, match="SudokuPad"):
        read_fpuzzles("https://sudokupad.app/scl" + compress_base64("{}"))
    with pytest.raises(ValueError, match="'grid' must be 9 rows"):
        read_fpuzzles({"size": 9, "grid": [[{}] * 9] * 8})
    with pytest.raises(ValueError, match="R1C1 holds 12"):
        read_fpuzzles(
            {"size": 9, "grid": [[{"value": 12, "given": True}] + [{}] * 8] + [[{}] * 9] * 8}
        )
    with pytest.raises(TypeError, match="str or a mapping"):
        read_fpuzzles(12)  # type: ignore[arg-type]


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sudoku_fast", *args], capture_output=True, text=True
    )


def test_cli_count_and_render_an_f_puzzles_file(tmp_path: Path) -> None:
    doc = document("1" + "." * 15, size=4, **{"diagonal+": True, "diagonal-": True})
    path = tmp_path / "x.txt"
    path.write_text("https://f-puzzles.com/?load=" + compress_base64(json.dumps(doc)) + "\n")
    done = _cli("count", "--fpuzzles", str(path), "--limit", "100")
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) == sf.count_solutions("1" + "." * 15, limit=100, rules="x")
    done = _cli("count", "--fpuzzles", str(path), "--variant", "anti-king", "--limit", "100")
    assert int(done.stdout) == sf.count_solutions("1" + "." * 15, limit=100,
                                                  rules="x,anti-king")  # fmt: skip
    picture = tmp_path / "x.svg"
    done = _cli("render", "--fpuzzles", str(path), "-o", str(picture), "--no-answers")
    assert done.returncode == 0, done.stderr
    svg = (tmp_path / "x.svg").read_text()
    assert svg.startswith("<svg") and svg.count("#6b7280") == 2  # the two diagonals
    done = _cli("count", "1" + "." * 15, "--fpuzzles", str(path))
    assert done.returncode == 2 and "one of them" in done.stderr
    path.write_text(json.dumps({**doc, "arrow": [{"cells": ["R1C1"]}]}))
    done = _cli("count", "--fpuzzles", str(path))
    assert done.returncode == 2
    assert f"puzzle file {path}: f-puzzles: unsupported constraints: arrow" in done.stderr
