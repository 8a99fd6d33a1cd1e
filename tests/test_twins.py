"""The same tests on both sides: every compiled module, and its pure-Python twin.

Each test takes the `side` fixture (conftest.py), so it runs once on the compiled
modules and once with every compiled module of the package replaced by its twin
(`_x.pyx` -> `_x_py.py`): the public API itself then runs on plain Python. The checks
are independent of both (tests/checks.py, counts and ratings from the data files, the
rules themselves), and the inputs small enough for the slow side.
"""

from __future__ import annotations

import itertools
import platform
import random
import sys
from array import array
from pathlib import Path

import pytest
from checks import check_solution
from conftest import VENDORED, Side, read_csv

import sudoku_fast as sf
from sudoku_fast import lab
from sudoku_fast._engine import _core, _cpu, _general, _textio
from sudoku_fast._generation import _generate
from sudoku_fast._symmetry import _canon, variant
from sudoku_fast._techniques import _logic, _se
from sudoku_fast._variants import _variant
from sudoku_fast.datasets import load_embedded

SMALL = {
    4: [row["puzzle"] for row in read_csv(VENDORED / "sudoku4_misc.csv")[:6]],
    6: [row["puzzle"] for row in read_csv(VENDORED / "sudoku6_2x3.csv")[:6]],
}
KAGGLE = read_csv(VENDORED / "kaggle_bryanpark_sample500_with_solutions.csv")[:8]
SE_EASY = [
    row for row in read_csv(VENDORED / "sudoku_exchange_se_rated_sample300.csv")[:40]
    if float(row["se_rating"]) <= 1.5
][:5]  # fmt: skip


def test_the_side_is_in_place(side: Side) -> None:
    """Every compiled module the package calls is the side's own."""
    from sudoku_fast._engine import encode, run
    from sudoku_fast._symmetry import canon
    from sudoku_fast._techniques import rating
    from sudoku_fast._variants import run as variant_run

    twin = side.name == "twin"
    assert run._general is side.module(_general)
    assert (run._core.__name__.endswith("_py")) == twin
    assert (encode._core.__name__.endswith("_py")) == twin
    assert rating._logic is side.module(_logic) and rating._se is side.module(_se)
    assert canon._canon is side.module(_canon)
    assert variant_run._variant is side.module(_variant)
    for module in (_core, _general, _textio, _cpu, _logic, _se, _generate, _canon, _variant):
        assert side.module(module).__name__.endswith("_py") == twin


def test_solve_and_count_9x9(side: Side) -> None:
    puzzles = [row["puzzle"] for row in KAGGLE]
    solutions = sf.solve_many(puzzles, threads=2)
    assert solutions == [row["solution"] for row in KAGGLE]
    assert sf.count_many(puzzles, threads=1) == [1] * len(puzzles)
    assert sf.count_solutions("." * 81) == 2
    assert sf.solve("11" + "." * 79) is None and sf.count_solutions("11" + "." * 79) == 0
    assert sf.solve(puzzles[0]) == KAGGLE[0]["solution"]


@pytest.mark.parametrize("size", [4, 6])
def test_solve_and_count_other_sizes(side: Side, size: int) -> None:
    puzzles = SMALL[size]
    for puzzle, solution in zip(puzzles, sf.solve_many(puzzles), strict=True):
        if solution is not None:
            check_solution(solution, puzzle)
    counts = sf.count_many(puzzles, limit=3)
    assert all(0 <= c <= 3 for c in counts)
    assert [c > 0 for c in counts] == [s is not None for s in sf.solve_many(puzzles)]
    assert sf.count_solutions("." * (size * size), limit=5) == 5


def test_pencil_marks(side: Side) -> None:
    puzzle = KAGGLE[1]["puzzle"]
    marks = "".join(
        "123456789" if ch == "." else "".join(d if d == ch else "." for d in "123456789")
        for ch in puzzle
    )
    assert sf.solve(marks, marks=True) == KAGGLE[1]["solution"]
    assert sf.count_many([marks], marks=True) == [1]


def test_rating_levels_and_steps(side: Side) -> None:
    puzzles = [row["puzzle"] for row in KAGGLE[:4]]
    ratings = sf.rate_many(puzzles, threads=2)
    for puzzle, rating in zip(puzzles, ratings, strict=True):
        assert 1 <= rating.level <= 6
        assert rating.clues == sum(ch != "." for ch in puzzle)
        assert rating.hardest in rating.counts
        assert sum(rating.counts.values()) >= 81 - rating.clues  # every open cell placed
    with pytest.raises(ValueError, match="several solutions"):
        sf.rate("." * 81)


def test_se_scores_of_easy_puzzles(side: Side) -> None:
    # The easiest SE ratings (singles only) are exact on this scale: SE's own numbers.
    for row in SE_EASY:
        rating = sf.rate(row["puzzle"], score=True)
        assert rating.score == float(row["se_rating"])
        assert rating.score_complete


def test_hints_name_a_sound_step(side: Side) -> None:
    row = KAGGLE[2]
    step = sf.hint(row["puzzle"])
    assert step is not None and step.explanation
    for cell, digit in step.placements:
        assert row["solution"][cell] == str(digit)
    for cell, digit in step.eliminations:
        assert row["solution"][cell] != str(digit)


@pytest.mark.parametrize(("size", "symmetry"), [(4, "rotational"), (6, None), (9, "mirror")])
def test_generated_puzzles_are_unique_minimal_symmetric(
    side: Side, size: int, symmetry: str | None
) -> None:
    puzzles = sf.generate_many(2, seed=size, size=size, symmetry=symmetry, threads=1)

    def orbit(cell: int) -> set[int]:
        row, col = divmod(cell, size)
        if symmetry == "rotational":
            return {cell, size * size - 1 - cell}
        if symmetry == "mirror":
            return {cell, row * size + size - 1 - col}
        return {cell}

    for puzzle in puzzles:
        assert sf.count_solutions(puzzle, max_nodes=None) == 1
        for cell in range(size * size):
            if puzzle[cell] != ".":
                assert all(puzzle[other] != "." for other in orbit(cell))  # symmetric
                fewer = "".join("." if k in orbit(cell) else ch for k, ch in enumerate(puzzle))
                assert sf.count_solutions(fewer, max_nodes=None) == 2  # minimal


def test_generated_level(side: Side) -> None:
    (puzzle,) = sf.generate_many(1, difficulty="medium", seed=5, threads=1)
    assert sf.rate(puzzle).level == 2


@pytest.mark.parametrize("size", [4, 6])
def test_canonical_forms_of_equivalent_puzzles(side: Side, size: int) -> None:
    for seed, puzzle in enumerate(SMALL[size][:3]):
        moved = sf.random_transform_many([puzzle, puzzle], seed=seed)
        forms = sf.canonical_many([puzzle, *moved], threads=2)
        assert len(set(forms)) == 1, forms
        assert sf.canonical(forms[0]) == forms[0]
        t = sf.canonical_transform(puzzle)
        assert sf.apply_transformation(puzzle, t) == forms[0]
        assert moved[0] == sf.apply_transformation(puzzle, sf.random_transformation(
            sf.geometry_for(size), seed=seed
        ))  # fmt: skip
    with pytest.raises(ValueError, match="repeats in row 1"):
        sf.canonical("11" + "." * 14)


def _brute_smallest(values: list[int], perms: list[list[int]], size: int, freedom: str) -> bytes:
    """The smallest image by trying every relabelling the freedom allows (all n! of them
    for "all": small sizes only)."""
    if freedom == "all":
        relabels = [[0, *p] for p in itertools.permutations(range(1, size + 1))]
    elif freedom == "reverse":
        relabels = [list(range(size + 1)), [0, *range(size, 0, -1)]]
    else:
        relabels = [list(range(size + 1))]
    return bytes(min([r[values[c]] for c in perm] for perm in perms for r in relabels))


@pytest.mark.parametrize("freedom", ["all", "reverse", "none"])
def test_smallest_images_of_variant_groups(side: Side, freedom: str) -> None:
    kernel = side.module(_canon).smallest_images
    rng = random.Random(freedom)
    for size, rules in ((4, "x"), (4, "killer"), (6, "x"), (6, "anti-king")):
        made = sf.generate(size=size, seed=rng.randrange(100), rules=rules)
        geometry = sf.geometry_for(size)
        values = [0 if ch == "." else int(ch, 36) for ch in made.puzzle]
        group = variant.group_of(made.rules, geometry)
        table = array("H", [c for perm in group for c in perm])
        image, ties = kernel(bytes(values), table, size, freedom)
        assert image == _brute_smallest(values, [list(p) for p in group], size, freedom)
        tied = [
            g
            for g, p in enumerate(group)
            if _brute_smallest(values, [list(p)], size, freedom) == image
        ]
        assert ties == tied
        # the public front on this side gives equivalent puzzles one key
        moved = sf.random_variant_transform(made.puzzle, made.rules, seed=3)
        assert sf.canonical_variant(*moved).key == sf.canonical_variant(*made).key
    with pytest.raises(ValueError, match="freedom must be"):
        kernel(bytes(4), array("H", range(4)), 2, "some")
    with pytest.raises(ValueError, match="do not match"):
        kernel(bytes(4), array("H", range(5)), 2, "all")
    with pytest.raises(ValueError, match="is not a cell"):
        kernel(bytes(4), array("H", [0, 1, 2, 4]), 2, "all")
    with pytest.raises(ValueError, match="beyond the grid size"):
        kernel(bytes([3, 0, 0, 0]), array("H", range(4)), 2, "all")


def test_transform(side: Side) -> None:
    assert sf.transform("1234" + "." * 12, rows=[1, 0, 2, 3], digits="4321") == "....4321" + "." * 8


def test_lab_algorithms(side: Side) -> None:
    puzzles = load_embedded("norvig_easy50")[:3]
    for algorithm in ("dlx", "ac+dual"):
        results = lab.run_many(puzzles, algorithm, limit=2)
        assert [r.count for r in results] == [1, 1, 1]
        assert lab.verify(results, puzzles, limit=2).wrong == ()
    assert sf.count_many(lab.random_puzzles(3, size=4, seed=2), limit=2, box=(2, 2))


def test_files_solve_on_both_sides(
    side: Side, capsysbinary: pytest.CaptureFixture[bytes], tmp_path: Path
) -> None:
    from sudoku_fast.cli import main

    path = tmp_path / "in.csv"
    rows = ["puzzle,solution"] + [f"{r['puzzle']},{r['solution']}" for r in KAGGLE]
    path.write_text("\n".join([*rows, "not a puzzle,"]) + "\n")
    assert main(["solve", str(path), "--verify", "-q"]) == 3  # the malformed line
    out = capsysbinary.readouterr().out.decode().splitlines()
    assert out[0] == "puzzle,solution,found_solution"
    assert [line.rsplit(",", 1)[1] for line in out[1:-1]] == [r["solution"] for r in KAGGLE]
    assert out[-1].endswith(",error")


def test_columns_read_and_written(side: Side) -> None:
    pa = pytest.importorskip("pyarrow")
    column = pa.array([row["puzzle"] for row in KAGGLE] + [None])
    with pytest.raises(ValueError, match="puzzle 8: missing"):
        sf.solve_many(column)
    answers = sf.solve_many(column[:-1], output="arrow")
    assert answers.to_pylist() == [row["solution"] for row in KAGGLE]


@pytest.mark.skipif(
    not (sys.platform == "linux" and platform.machine() in ("x86_64", "AMD64")),
    reason="the twin reads /proc/cpuinfo",
)
def test_cpu_features(side: Side) -> None:
    assert side.module(_cpu).features() == _cpu.features()
    assert {"sse3", "popcnt"} <= side.module(_cpu).features() or not _cpu.features()


def test_text_helpers_write_the_same_bytes(side: Side) -> None:
    textio = side.module(_textio)
    data = b"\n# comment\n" + "\n".join(row["puzzle"] for row in KAGGLE[:3]).encode() + b"\nxyz\n"
    records, end = textio.record_span(data, 10)
    assert (records, end) == (4, len(data))
    grids, given = bytearray(4 * 81), bytearray(4 * 81)
    lines, flags, spans = array("q", [0] * 4), bytearray(4), array("q", [0] * 8)
    n, seen, slow = textio.scan_block(data, 1, -1, -1, grids, given, lines, flags, spans)
    assert (n, seen) == (4, 6) and [s[:2] for s in slow] == [(3, 6)]
    assert list(lines) == [3, 4, 5, 6]
    flags[3] = textio.FLAG_BAD
    solutions = bytearray(b"".join(bytes(int(c) for c in r["solution"]) for r in KAGGLE[:3]))
    solutions += bytes(81)
    counts = array("i", [1, 1, 0, 0])
    out = bytes(
        textio.format_answers(
            grids, solutions, counts, flags, 4, textio.CSV_ANSWER_ONLY, False, False,
            b"none", b"error", data, spans,
        )
    )  # fmt: skip
    expected = [KAGGLE[0]["solution"], KAGGLE[1]["solution"], "none", "error"]
    assert out.decode().split("\n")[:4] == expected
    assert textio.check_solutions(grids, solutions, counts, flags, 4) == []


def test_a_list_solved_in_the_callers_thread(side: Side) -> None:
    """`solve_list`, the serial path of a small batch or of threads=1."""
    core = side.module(_core)
    puzzles = [row["puzzle"] for row in KAGGLE] + ["55" + "." * 79, "." * 81]
    solutions = core.solve_list(puzzles, 1, True)
    assert solutions[:-2] == [row["solution"] for row in KAGGLE]
    assert solutions[-2] is None
    check_solution(solutions[-1], puzzles[-1])
    assert core.solve_list(puzzles, 2, False) == [1] * len(KAGGLE) + [0, 2]
    assert core.solve_list(puzzles[-1:], 50, False) == [50]
    assert core.solve_list([puzzles[0].replace(".", "0")], 1, True) == solutions[:1]
    for odd in (puzzles[0][:80], sf.show(puzzles[0]), 7, puzzles[0][:80] + "x"):
        assert core.solve_list([puzzles[0], odd], 1, True) is None
        assert core.solve_list([odd, puzzles[0]], 2, False) is None
    assert core.solve_list([], 1, True) == []
    with pytest.raises(ValueError, match="limit"):
        core.solve_list(puzzles, 0, False)
