"""The compiled generator against its pure-Python twin: the same puzzles from the same seeds.

`generate_many` runs `_generate.pyx`; `generate_many_reference` runs it with the twin
`_generate_py.py` in its place, which follows the same steps in plain Python with the
same random numbers. Every test here compares the two, and checks
the compiled puzzles' properties with code that does not share the generator's.
"""

from __future__ import annotations

from array import array
from collections import Counter

import pytest
from checks import check_solution
from conftest import generate_many_reference

import sudoku_fast as sf
from sudoku_fast._base.grid import format_values, geometry_for, parse_grid
from sudoku_fast._base.randomness import Rng
from sudoku_fast._engine import _general
from sudoku_fast._engine import _general_py as reference
from sudoku_fast._generation import _generate
from sudoku_fast._generation import generate as generation
from sudoku_fast._generation.generate import symmetry_orbits
from sudoku_fast._techniques import _logic
from sudoku_fast._techniques._logic_py import level_within as reference_level_within
from sudoku_fast._techniques.solver import level_within
from sudoku_fast.generator import (
    DIFFICULTIES,
    SYMMETRIES,
    generate_many,
    iter_generate,
)

# --------------------------------------------------------------------------- random numbers


def test_known_outputs_of_xoshiro256_and_splitmix64() -> None:
    # Published first outputs: xoshiro256** from the state (1, 2, 3, 4), and splitmix64
    # from 0 (our seeding: its first four outputs are the xoshiro state).
    rng = Rng(0)
    assert rng.s[:2] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4]
    rng.s = [1, 2, 3, 4]
    assert [rng.next() for _ in range(4)] == [11520, 0, 1509978240, 1215971899390074240]


@pytest.mark.parametrize("seed", [0, 1, 2**63, 2**64 - 1, 0x9E3779B97F4A7C15])
def test_compiled_and_python_generators_draw_the_same(seed: int) -> None:
    bounds = array("i", [1, 2, 3, 5, 7, 9, 16, 81, 256, 1000, 2**31 - 1] * 20)
    rng = Rng(seed)
    assert _generate.draws(seed, bounds) == [rng.below(k) for k in bounds]


def test_draws_are_uniform_and_shuffles_reach_every_order() -> None:
    rng = Rng(12345)
    counts = Counter(rng.below(6) for _ in range(60_000))
    assert set(counts) == set(range(6))
    # Chi-square with 5 degrees of freedom: 20.5 is its 0.1% tail (fixed seed, so stable).
    chi2 = sum((c - 10_000) ** 2 / 10_000 for c in counts.values())
    assert chi2 < 20.5
    orders = Counter()
    for _ in range(6000):
        items = [0, 1, 2]
        rng.shuffle(items)
        orders[tuple(items)] += 1
    assert len(orders) == 6 and min(orders.values()) > 800
    with pytest.raises(ValueError):
        _generate.draws(1, array("i", [0]))


# --------------------------------------------------------------------------- differential


def _both(n: int, **kwargs: object) -> list[str]:
    compiled = generate_many(n, threads=1, **kwargs)  # type: ignore[arg-type]
    assert generate_many_reference(n, **kwargs) == compiled  # type: ignore[arg-type]
    return compiled


@pytest.mark.parametrize("symmetry", SYMMETRIES)
@pytest.mark.parametrize("size", [4, 6, 8, 9])
def test_same_puzzles_any_symmetry(size: int, symmetry: str) -> None:
    puzzles = _both(4, seed=size * 100 + SYMMETRIES.index(symmetry), size=size, symmetry=symmetry)
    _check_puzzles(puzzles, size, symmetry)


def test_same_puzzles_many_seeds() -> None:
    for seed in range(40):
        _both(3, seed=seed)


@pytest.mark.parametrize("size", [10, 12, 16])
def test_same_puzzles_bigger_grids(size: int) -> None:
    symmetry = "rotational" if size == 12 else None
    puzzles = _both(1, seed=size, size=size, symmetry=symmetry)
    _check_puzzles(puzzles, size, symmetry, reference_sample=0)


@pytest.mark.parametrize("minimal", [True, False])
@pytest.mark.parametrize(("difficulty", "level"), sorted(DIFFICULTIES.items()))
def test_same_puzzles_at_each_level(difficulty: str, level: int, minimal: bool) -> None:
    symmetry = None if level % 2 else "rotational"
    puzzles = _both(2, difficulty=difficulty, seed=level, symmetry=symmetry, minimal=minimal)
    _check_puzzles(puzzles, 9, symmetry, level=level, minimal=minimal)


@pytest.mark.parametrize(
    ("size", "difficulty", "minimal"),
    [(6, "medium", True), (8, "hard", True), (8, "extreme", False), (12, "hard", True)],
)
def test_same_puzzles_at_a_level_other_sizes(size: int, difficulty: str, minimal: bool) -> None:
    puzzles = _both(1, difficulty=difficulty, seed=3, size=size, minimal=minimal)
    _check_puzzles(puzzles, size, None, level=DIFFICULTIES[difficulty], minimal=minimal)


def test_same_puzzles_at_any_thread_count() -> None:
    for kwargs in ({}, {"difficulty": "hard"}, {"size": 6, "symmetry": "rot90"}):
        one = generate_many(9, seed=21, threads=1, **kwargs)  # type: ignore[arg-type]
        for threads in (2, 7):
            assert generate_many(9, seed=21, threads=threads, **kwargs) == one  # type: ignore[arg-type]
    assert (
        generate_many_reference(2, seed=21, difficulty="hard")
        == generate_many(9, seed=21, difficulty="hard", threads=2)[:2]
    )


def test_both_give_up_on_a_level_not_found(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(generation, "MAX_ATTEMPTS", 1)
    # About 7% of removal orders give a hard 9x9 puzzle: 40 single tries fail somewhere.
    with pytest.raises(RuntimeError, match=r"puzzle \d+: no 9x9 hard puzzle"):
        generate_many(40, difficulty="hard", seed=1, threads=2)
    # Serially, the first puzzle given up on is named, by both twins and in chunks.
    with pytest.raises(RuntimeError, match="no 9x9 hard puzzle") as serial:
        generate_many(40, difficulty="hard", seed=1, threads=1)
    first = str(serial.value).split(":")[0]
    with pytest.raises(RuntimeError, match=f"^{first}: no 9x9 hard puzzle"):
        generate_many_reference(40, difficulty="hard", seed=1)
    with pytest.raises(RuntimeError, match=f"^{first}: no 9x9 hard puzzle"):
        for _ in iter_generate(40, difficulty="hard", seed=1, threads=1, chunk=3):
            pass


def test_same_errors_for_bad_arguments() -> None:
    for bad, error in [
        ({"difficulty": "impossible"}, ValueError),
        ({"size": 25}, ValueError),
        ({"size": 7}, ValueError),
        ({"symmetry": "spiral"}, ValueError),
        ({"size": 16, "difficulty": "hard"}, ValueError),
        ({"difficulty": True}, TypeError),
    ]:
        for make in (generate_many, generate_many_reference):
            with pytest.raises(error):
                make(1, **bad)  # type: ignore[arg-type]


def test_generate_range_checks_its_arguments() -> None:
    geo = geometry_for(4)
    tables = _general.tables_for(4, 2, 2)
    start = array("i", range(17))
    cells = array("i", range(16))
    seeds = array("Q", [1, 2])
    out = bytearray(32)
    assert _generate.generate_range(tables, None, start, cells, seeds, 0, 2, out) == -1
    puzzles = [format_values(out[i * 16 : (i + 1) * 16], geo) for i in range(2)]
    assert sf.count_many(puzzles) == [1, 1]
    bad_cells = array("i", [0] * 16)
    with pytest.raises(ValueError, match="every cell once"):
        _generate.generate_range(tables, None, start, bad_cells, seeds, 0, 2, out)
    with pytest.raises(ValueError, match="bad range"):
        _generate.generate_range(tables, None, start, cells, seeds, 0, 3, out)
    with pytest.raises(ValueError, match="level"):
        _generate.generate_range(tables, None, start, cells, seeds, 0, 2, out, 3)
    with pytest.raises(ValueError, match="level must be"):
        _generate.generate_range(tables, None, start, cells, seeds, 0, 2, out, 6)
    with pytest.raises(ValueError, match="another geometry"):
        _generate.generate_range(
            tables, _logic.tables_for(geometry_for(9)), start, cells, seeds, 0, 2, out, 1
        )


def test_a_set_stop_flag_stops_the_range() -> None:
    tables = _general.tables_for(9, 3, 3)
    start = array("i", range(82))
    cells = array("i", range(81))
    seeds = array("Q", range(5))
    out = bytearray(5 * 81)
    flag = bytearray([1])
    args = (tables, None, start, cells, seeds, 0, 5, out)
    assert _generate.generate_range(*args, stop_flag=flag) == -1
    assert out == bytearray(5 * 81)  # nothing made
    stats = array("q", bytes(8 * len(_generate.STAT_NAMES)))
    _generate.generate_range(*args, stats=stats)
    figures = dict(zip(_generate.STAT_NAMES, stats, strict=True))
    assert figures["grids"] == figures["attempts"] == 5
    assert figures["checks"] + figures["forced"] == 5 * 81


# --------------------------------------------------------------------------- properties


def _check_puzzles(
    puzzles: list[str],
    size: int,
    symmetry: str | None,
    *,
    level: int | None = None,
    minimal: bool = True,
    reference_sample: int = 1,
) -> None:
    """Unique (engine and, on a sample, the reference solver), minimal, symmetric, at level."""
    geo = geometry_for(size)
    orbits = symmetry_orbits(symmetry, geo)
    assert sf.count_many(puzzles, limit=2, max_nodes=None) == [1] * len(puzzles)
    for puzzle in puzzles[:reference_sample]:
        assert reference.count_solutions(puzzle, 2) == 1
    for puzzle in puzzles:
        check_solution(sf.solve(puzzle, max_nodes=None), puzzle)
        clues = {i for i, ch in enumerate(puzzle) if ch != "."}
        kept = [orbit for orbit in orbits if orbit[0] in clues]
        assert sum(len(orbit) for orbit in kept) == len(clues)  # whole orbits only
        if minimal:
            variants = []
            for orbit in kept:
                chars = list(puzzle)
                for cell in orbit:
                    chars[cell] = "."
                variants.append("".join(chars))
            assert set(sf.count_many(variants, limit=2, max_nodes=None)) <= {2}
        if level is not None:
            values = list(parse_grid(puzzle)[1])
            assert level_within(values, 5, geo) == level
            if size <= 9:
                assert reference_level_within(values, 5, geo) == level
