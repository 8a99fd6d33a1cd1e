"""Differential tests: the compiled technique solver (`_logic`) against `logic.py`.

Both solvers take the same puzzles; every step must be the same `Hint` (technique,
pattern, digits, placements, eliminations and explanation), every level test the same
answer, and the batch ratings the same at any thread count. The puzzles come from the
public data sets (full files in ../shared/data when present, vendored samples
otherwise) and from seeded random puzzles of several sizes.
"""

from __future__ import annotations

import random
from array import array
from types import ModuleType

import pytest
from conftest import data_file, read_csv, read_lines, use_twins

import sudoku_fast as sf
from sudoku_fast._base.grid import Geometry, format_values, geometry_for, parse_grid
from sudoku_fast._base.levels import BIG_FISH
from sudoku_fast._base.records import Hint
from sudoku_fast._techniques import _logic
from sudoku_fast._techniques import _logic_py as logic
from sudoku_fast._techniques.solver import level_within as compiled_level_within
from sudoku_fast._techniques.steps import hint_from_record
from sudoku_fast.datasets import load_embedded

# Puzzles of each set compared step by step: the pure-Python twin takes 1-30 ms per
# 9x9 puzzle, so big files are sampled evenly (every k-th puzzle).
PER_SET = 400


def _sample(puzzles: list[str], limit: int) -> list[str]:
    step = max(1, len(puzzles) // limit)
    return puzzles[::step][:limit]


def _csv_puzzles(full: str, vendored: str) -> list[str]:
    return [row["puzzle"] for row in read_csv(data_file(full, vendored))]


def _text_puzzles(full: str, vendored: str) -> list[str]:
    return read_lines(data_file(full, vendored))


SETS = {
    "norvig_easy50": lambda: load_embedded("norvig_easy50"),
    "norvig_top95": lambda: load_embedded("norvig_top95"),
    "norvig_hardest": lambda: load_embedded("norvig_hardest"),
    "magictour_top1465": lambda: load_embedded("magictour_top1465"),
    "kaggle": lambda: _csv_puzzles(
        "kaggle_bryanpark_10k_with_solutions.csv", "kaggle_bryanpark_sample500_with_solutions.csv"
    ),
    "sudoku17": lambda: _text_puzzles("sudoku17_49158.txt", "sudoku17_sample.txt"),
    "rust_easy": lambda: _csv_puzzles(
        "rust_sudoku_crate_easy_with_solutions.csv", "rust_sudoku_crate_easy_with_solutions.csv"
    ),
    "rust_medium": lambda: _csv_puzzles(
        "rust_sudoku_crate_medium_with_solutions.csv", "rust_sudoku_crate_medium_with_solutions.csv"
    ),
    "rust_hard": lambda: _csv_puzzles(
        "rust_sudoku_crate_hard_with_solutions.csv", "rust_sudoku_crate_hard_with_solutions.csv"
    ),
    "sudoku4": lambda: _csv_puzzles("sudoku4_misc.csv", "sudoku4_misc.csv"),
    "sudoku6": lambda: _csv_puzzles("sudoku6_2x3.csv", "sudoku6_2x3.csv"),
    "sudoku8": lambda: _csv_puzzles("sudoku8_2x4.csv", "sudoku8_2x4.csv"),
    "sudoku10": lambda: _csv_puzzles("sudoku10_2x5.csv", "sudoku10_2x5.csv"),
    "sudoku12": lambda: _csv_puzzles("sudoku12_3x4.csv", "sudoku12_3x4.csv"),
    "sudoku15": lambda: _csv_puzzles("sudoku15_3x5.csv", "sudoku15_3x5.csv"),
    "sudoku16_goomii": lambda: _csv_puzzles(
        "sudoku16_goomii_1000_with_solutions.csv", "sudoku16_goomii_sample100_with_solutions.csv"
    ),
}


def _unique_puzzles(puzzles: list[str]) -> list[tuple[Geometry, bytes, bytes]]:
    """(geometry, values, solution) of the puzzles with exactly one solution."""
    out = []
    for text in puzzles:
        geometry, values = parse_grid(text)
        if sf.count_solutions(text, max_nodes=None) != 1:
            continue
        solution = parse_grid(sf.solve(text, max_nodes=None) or "", geometry=geometry)[1]
        out.append((geometry, values, solution))
    return out


def _steps(side: ModuleType, geometry: Geometry, values: bytes, solution: bytes) -> list[Hint]:
    """Every step of a solve by one side (`_logic` or `_logic_py`), as hints."""
    records = side.solve_steps(side.tables_for(geometry), values, solution)
    return [hint_from_record(geometry, record) for record in records]


def _assert_same_path(geometry: Geometry, values: bytes, solution: bytes) -> list[Hint]:
    expected = _steps(logic, geometry, values, solution)
    got = _steps(_logic, geometry, values, solution)
    for index, (want, have) in enumerate(zip(expected, got, strict=False)):
        assert have == want, f"{format_values(values, geometry)}: step {index} differs"
    assert len(got) == len(expected), f"{format_values(values, geometry)}: path length"
    return expected


@pytest.mark.parametrize("name", sorted(SETS))
def test_same_steps_on_public_sets(name: str) -> None:
    puzzles = _unique_puzzles(_sample(SETS[name](), PER_SET))
    assert puzzles, f"{name}: no unique puzzle to compare"
    techniques: set[str] = set()
    for geometry, values, solution in puzzles:
        steps = _assert_same_path(geometry, values, solution)
        techniques.update(step.technique for step in steps)
        # Every step is sound: placements match the solution, eliminations avoid it.
        for step in steps:
            assert all(solution[cell] == digit for cell, digit in step.placements)
            assert all(solution[cell] != digit for cell, digit in step.eliminations)
    if name == "magictour_top1465":  # the hard set exercises nearly every technique
        assert len(techniques) >= 15, sorted(techniques)


def _random_puzzle(rng: random.Random, solution: bytes, geometry: Geometry) -> bytes:
    """The solution with clues removed in random order while it stays unique."""
    values = bytearray(solution)
    cells = list(range(geometry.cells))
    rng.shuffle(cells)
    for cell in cells[: rng.randrange(geometry.cells // 2, geometry.cells)]:
        keep = values[cell]
        values[cell] = 0
        if sf.count_solutions(format_values(values, geometry), max_nodes=None) != 1:
            values[cell] = keep
    return bytes(values)


@pytest.mark.parametrize("size", [4, 6, 8, 9, 12])
def test_same_steps_on_seeded_random_puzzles(size: int) -> None:
    geometry = geometry_for(size)
    rng = random.Random(size)
    grids = sf.generate_many(6 if size > 9 else 20, seed=size, size=size)
    for text in grids:
        solution = parse_grid(sf.solve(text) or "", geometry=geometry)[1]
        values = _random_puzzle(rng, solution, geometry)
        _assert_same_path(geometry, values, solution)


def test_same_level_within_every_bound() -> None:
    puzzles = _sample(load_embedded("magictour_top1465"), 60) + load_embedded("norvig_easy50")[:20]
    for text in puzzles:
        geometry, values = parse_grid(text)
        for max_level in range(1, 6):
            want = logic.level_within(values, max_level, geometry)
            assert compiled_level_within(values, max_level, geometry) == want, (text, max_level)


def test_same_next_step_with_pencil_marks() -> None:
    """Random pencil marks that keep the solution: both solvers find the same step."""
    rng = random.Random(7)
    for text in _sample(load_embedded("norvig_top95"), 30):
        geometry, values = parse_grid(text)
        solution = parse_grid(sf.solve(text) or "", geometry=geometry)[1]
        solver = logic.LogicSolver(values, geometry)
        allowed = array("Q", [geometry.all_digits] * geometry.cells)
        for cell in range(geometry.cells):
            if not values[cell] and rng.random() < 0.3:
                marks = solver.cand[cell] & rng.getrandbits(9) | 1 << (solution[cell] - 1)
                allowed[cell] = marks
                solver.restrict(cell, marks)
        step = solver.next_step()
        want = None if step is None else hint_from_record(geometry, step.record())
        record = _logic.find_step(_logic.tables_for(geometry), values, allowed)
        got = None if record is None else hint_from_record(geometry, record)
        assert got == want, text
        twin = logic.find_step(logic.tables_for(geometry), values, allowed)
        assert (None if twin is None else hint_from_record(geometry, twin)) == want


def test_rate_many_is_the_same_at_any_thread_count() -> None:
    puzzles = _sample(load_embedded("magictour_top1465"), 200) + load_embedded("norvig_easy50")
    serial = sf.rate_many(puzzles, threads=1)
    assert sf.rate_many(puzzles, threads=2) == serial
    assert sf.rate_many(puzzles, threads=7) == serial
    with pytest.MonkeyPatch.context() as patch:  # the twin, on every 10th
        use_twins(patch, "sudoku_fast._techniques._logic")
        python = sf.rate_many(puzzles[::10], threads=2)
    assert python == serial[::10]


def test_rate_every_size() -> None:
    for full, vendored in (
        ("sudoku6_2x3.csv", "sudoku6_2x3.csv"),
        ("sudoku12_3x4.csv", "sudoku12_3x4.csv"),
        ("sudoku16_goomii_1000_with_solutions.csv", "sudoku16_goomii_sample100_with_solutions.csv"),
    ):
        puzzles = [
            p for p in _sample(_csv_puzzles(full, vendored), 20) if sf.count_solutions(p) == 1
        ]
        ratings = sf.rate_many(puzzles, threads=2)
        assert [sf.rate(p) for p in puzzles] == ratings
        with pytest.MonkeyPatch.context() as patch:
            use_twins(patch, "sudoku_fast._techniques._logic")
            assert sf.rate_many(puzzles, threads=1) == ratings


def test_rate_many_names_the_bad_item() -> None:
    good = load_embedded("norvig_easy50")[0]
    with pytest.raises(ValueError, match="puzzle 1: has several solutions"):
        sf.rate_many([good, "." * 81])
    with pytest.raises(ValueError, match="puzzle 2: has no solution"):
        sf.rate_many([good, good, "11" + "." * 79])
    with pytest.raises(TypeError, match="puzzle 1"):
        sf.rate_many([good, 5])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="the puzzle has several solutions"):
        sf.rate("." * 81)


def test_big_fish_on_a_ten_by_ten_grid() -> None:
    """Digit 1 confined to five columns in five rows: a 5-line fish (no smaller pattern
    applies: each base row has five places, spread over two boxes)."""
    geometry = geometry_for(10)
    values = bytes(geometry.cells)
    solver = logic.LogicSolver(values, geometry)
    allowed = array("Q", [geometry.all_digits] * geometry.cells)
    columns = (0, 2, 4, 6, 8)
    for row in range(5):
        for col in range(10):
            if col not in columns:
                cell = row * 10 + col
                allowed[cell] = geometry.all_digits & ~1
                solver.restrict(cell, allowed[cell])
    step = solver.next_step()
    assert step is not None and step.technique == BIG_FISH
    assert step.eliminations == tuple(
        (row * 10 + col, 1) for col in columns for row in range(5, 10)
    )
    hint = hint_from_record(geometry, step.record())
    assert "rows 1, 2, 3, 4, 5" in hint.explanation
    record = _logic.find_step(_logic.tables_for(geometry), values, allowed)
    assert record is not None and hint_from_record(geometry, record) == hint


def test_fish_bases_keep_combination_order() -> None:
    """The pruned search yields exactly the combinations whose cover fits, in order."""
    import itertools

    rng = random.Random(3)
    for _ in range(200):
        spots = {line: rng.getrandbits(10) | 1 << rng.randrange(10) for line in range(10)}
        k = rng.randrange(2, 6)
        want = []
        for bases in itertools.combinations(spots, k):
            cover = 0
            for line in bases:
                cover |= spots[line]
            if cover.bit_count() <= k:
                want.append((bases, cover))
        assert list(logic._fish_bases(spots, k)) == want
