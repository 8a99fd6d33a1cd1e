"""The logical solver and `rate`: every step sound, each technique on a puzzle that needs it,
levels ordered on the public sets."""

from __future__ import annotations

import statistics
from array import array

import pytest
from checks import check_solution
from conftest import data_file, read_csv

import sudoku_fast as sf
from sudoku_fast._base.grid import parse_values
from sudoku_fast._base.levels import GUESS, LEVEL_NAMES, TECHNIQUE_LEVEL
from sudoku_fast._base.records import Hint
from sudoku_fast._engine import _general_py as reference
from sudoku_fast._techniques._logic_py import TECHNIQUE_FINDERS as TECHNIQUES
from sudoku_fast._techniques._logic_py import LogicSolver, find_hidden_quad
from sudoku_fast._techniques.solver import level_within, logical_solve
from sudoku_fast.datasets import load_embedded
from sudoku_fast.grid import geometry_for as geometry

# Puzzles of the public sets on which each technique is the easiest step at some point.
# Found by rating the sets in order; the first puzzle using each technique is kept.
EASY50_1 = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
EASY50_3 = "......9.7...42.18....7.5.261..9.4....5.....4....5.7..992.1.8....34.59...5.7......"
EASY50_6 = "1..92....524.1...........7..5...81.2.........4.27...9..6...........3.945....71..6"
EASY50_7 = ".43.8.25.6.............1.949....4.7....6.8....1.2....382.5.............5.34.9.71."
TOP95_4 = "48.3............71.2.......7.5....6....2..8.............1.76...3.....4......5...."
TOP95_5 = "....14....3....2...7..........9...3.6.1.............8.2.....1.4....5.6.....7.8..."
TOP95_7 = "6.2.5.........3.4..........43...8....1....2........7..5..27...........81...6....."
TOP95_20 = "..84...3....3.....9....157479...8........7..514.....2...9.6...2.5....4......9..56"
TOP95_35 = "..8.9.1...6.5...2......6....3.1.7.5.........9..4...3...5....2...7...3.8.2..7....4"
TOP95_45 = ".4.5.....8...9..3..76.2.....146..........9..7.....36....1..4.5..6......3..71..2.."
# subig20.txt line 4137 (../shared/data; ManWithAJawharp/sat_solver)
SUBIG20_4137 = "...52.6...2..8.39.98...72...68..5...............6..98...49...63.91....4...2.74..."
# norvig_hardest #2: even one step of trial and error is not enough at some point
HARDEST_2 = "..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97.."

TECHNIQUE_PUZZLES = {
    "full house": EASY50_1,
    "hidden single": EASY50_1,
    "naked single": EASY50_3,
    "pointing": EASY50_6,
    "claiming": EASY50_7,
    "naked pair": EASY50_7,
    "hidden pair": EASY50_7,
    "x-wing": EASY50_7,
    "xy-wing": TOP95_4,
    "xy-chain": TOP95_4,
    "naked triple": TOP95_5,
    "xyz-wing": TOP95_5,
    "simple colouring": TOP95_5,
    "trial and error": TOP95_7,
    "hidden triple": TOP95_20,
    "swordfish": TOP95_35,
    "naked quad": TOP95_45,
    "jellyfish": SUBIG20_4137,
    GUESS: HARDEST_2,
}


def _solution(puzzle: str) -> list[int]:
    """The unique solution, found by the pure-Python reference and checked independently."""
    solution = reference.solve(puzzle)
    check_solution(solution, puzzle)
    assert solution is not None
    return parse_values(solution)


def _assert_sound(step: Hint, solution: list[int]) -> None:
    for cell, digit in step.placements:
        assert solution[cell] == digit, f"{step.technique} placed a wrong digit: {step}"
    for cell, digit in step.eliminations:
        assert solution[cell] != digit, f"{step.technique} removed the solution digit: {step}"


def test_every_technique_has_a_puzzle() -> None:
    names = {t.name for t in TECHNIQUES} | {GUESS}
    # Hidden quads are covered separately (test_hidden_quad_on_a_public_puzzle), big
    # fish on a constructed 10x10 board (test_logic_compiled.test_big_fish_*).
    assert names - set(TECHNIQUE_PUZZLES) == {"hidden quad", "big fish"}


@pytest.mark.parametrize("technique", sorted(TECHNIQUE_PUZZLES))
def test_technique_fires_when_easier_ones_are_stuck(technique: str) -> None:
    puzzle = TECHNIQUE_PUZZLES[technique]
    solution = _solution(puzzle)
    values = parse_values(puzzle)
    steps = logical_solve(values, solution)
    assert technique in {s.technique for s in steps}
    # Replay: at the first use, every easier technique finds nothing.
    solver = LogicSolver(values, geometry(9))
    for step in steps:
        if step.technique == technique:
            order = [t.name for t in TECHNIQUES]
            before = TECHNIQUES if technique == GUESS else TECHNIQUES[: order.index(technique)]
            for t in before:
                assert t.find(solver) is None, f"{t.name} applies before {technique}"
            _assert_sound(step, solution)
            assert step.cells and step.digits and step.explanation
            assert step.placements or step.eliminations
            if technique == "simple colouring" and "see" in step.explanation:
                symbol = str(step.digits[0])  # the trapped cells: the sentence ends
                verb = "sees" if len(step.eliminations) == 1 else "see"
                assert f" {verb} both colours, so " in step.explanation
                assert step.explanation.endswith(f"cannot be {symbol}")
            return
        _assert_sound(step, solution)
        solver.apply(step)
    raise AssertionError("unreachable")


def test_hidden_quad_on_a_public_puzzle() -> None:
    # In a unit with m empty cells a hidden quad is the complement of a naked (m-4)-subset,
    # which the solver tries first, so a hidden quad is never the easiest step unless all
    # nine cells of a unit are open. Its finder is checked where the naked quad of
    # top95 #45 fires: the unit's other four cells form a hidden quad with the same
    # eliminations.
    puzzle = TECHNIQUE_PUZZLES["naked quad"]
    solution = _solution(puzzle)
    values = parse_values(puzzle)
    solver = LogicSolver(values, geometry(9))
    for step in logical_solve(values, solution):
        if step.technique == "naked quad":
            quad = find_hidden_quad(solver)
            assert quad is not None
            _assert_sound(quad, solution)
            assert set(quad.eliminations) == set(step.eliminations)
            assert not set(quad.cells) & set(step.cells)
            return
        solver.apply(step)
    raise AssertionError("no naked quad")


def _rated(name: str) -> list[sf.Rating]:
    return sf.rate_many(load_embedded(name), threads=1)


@pytest.fixture(scope="module")
def set_ratings() -> dict[str, list[sf.Rating]]:
    return {name: _rated(name) for name in ("norvig_easy50", "norvig_top95", "norvig_hardest")}


def test_levels_order_the_public_sets(set_ratings: dict[str, list[sf.Rating]]) -> None:
    mean = {name: statistics.mean(r.level for r in rs) for name, rs in set_ratings.items()}
    assert mean["norvig_easy50"] < mean["norvig_top95"]
    assert mean["norvig_easy50"] < mean["norvig_hardest"]
    assert max(r.level for r in set_ratings["norvig_easy50"]) <= 3
    # Only norvig_hardest holds puzzles where even trial and error gets stuck.
    assert max(r.level for r in set_ratings["norvig_top95"]) <= 5
    assert max(r.level for r in set_ratings["norvig_hardest"]) == 6


def test_rating_fields_agree(set_ratings: dict[str, list[sf.Rating]]) -> None:
    for ratings in set_ratings.values():
        for r in ratings:
            assert r.name == LEVEL_NAMES[r.level]
            assert TECHNIQUE_LEVEL[r.hardest] == r.level
            assert r.level == max(TECHNIQUE_LEVEL[t] for t in r.counts)
            assert sum(r.counts.values()) >= 81 - r.clues  # at least one step per open cell
            assert r.engine_nodes >= 1 and r.engine_guesses >= 0


@pytest.mark.parametrize(("level", "count"), [("easy", 49), ("medium", 11), ("hard", 6)])
def test_every_step_is_sound_on_sets_with_given_solutions(level: str, count: int) -> None:
    name = f"rust_sudoku_crate_{level}_with_solutions.csv"
    for row in read_csv(data_file(name, name))[:count]:  # the hard ones are slow to rate
        solution = parse_values(row["solution"])
        for step in logical_solve(parse_values(row["puzzle"]), solution):
            _assert_sound(step, solution)


def test_level_within_agrees_with_rate(set_ratings: dict[str, list[sf.Rating]]) -> None:
    puzzles = load_embedded("norvig_top95")[:30]
    for puzzle, rating in zip(puzzles, set_ratings["norvig_top95"], strict=False):
        values = parse_values(puzzle)
        for cap in range(1, 6):
            expected = rating.level if rating.level <= cap else cap + 1
            assert level_within(values, cap) == expected


def test_rate_one_puzzle() -> None:
    r = sf.rate(TECHNIQUE_PUZZLES["hidden single"])
    assert (r.level, r.name) == (1, "easy")
    assert r.hardest in ("hidden single", "naked single", "full house")
    assert r.clues == sum(ch != "." for ch in TECHNIQUE_PUZZLES["hidden single"])
    assert sf.rate(sf.show(TECHNIQUE_PUZZLES["x-wing"])).level == 3


def test_rate_full_grid() -> None:
    grid = "".join(str(d) for d in _solution(TECHNIQUE_PUZZLES["pointing"]))
    r = sf.rate(grid)
    assert (r.level, r.hardest, dict(r.counts)) == (1, "none", {})
    scored = sf.rate(grid, score=True)  # as documented: no step, score 0.0
    assert (scored.score, scored.score_technique, scored.score_complete) == (0.0, "none", True)


def test_rate_rejects_puzzles_without_one_solution() -> None:
    with pytest.raises(ValueError, match="several solutions"):
        sf.rate("." * 81)
    with pytest.raises(ValueError, match="no solution"):
        sf.rate("11" + "." * 79)
    with pytest.raises(ValueError, match="81 cells"):
        sf.rate("123")
    with pytest.raises(ValueError, match="puzzle 1: has several"):
        sf.rate_many([TECHNIQUE_PUZZLES["pointing"], "." * 81])


def _rater_buffers(
    puzzles: list[str], scored: bool
) -> tuple[object, array[int], array[int], array[int] | None]:
    """What `rate_many` hands to the Rating builders: engine results and raters' output."""
    from sudoku_fast._base.se_scale import DEFAULT_BUDGET
    from sudoku_fast._columns.inputs import read_batch
    from sudoku_fast._engine.run import run_engine
    from sudoku_fast._techniques import _logic, _se

    geometry, grids, n, _ = read_batch(puzzles, "rate_many", None, None)
    results = run_engine(grids, n, 2, 1, geometry=geometry)
    tables = _logic.tables_for(geometry)
    counts = array("i", bytes(4 * _logic.SLOTS * n))
    summary = array("i", bytes(8 * n))
    _logic.rate_range(tables, grids, results.solutions, counts, 0, n, summary)
    scores = None
    if scored:
        scores = array("i", bytes(4 * _se.SLOTS * n))
        _se.se_range(tables, grids, results.solutions, scores, 0, n, DEFAULT_BUDGET)
    return results, counts, summary, scores


@pytest.mark.parametrize("scored", [False, True])
def test_compiled_rating_builder_matches_python_twin(scored: bool) -> None:
    """`_logic.build_ratings` (the batch path) builds the same objects, and reports the
    same failures, as the plain-Python `build_ratings` that calls `Rating(...)`."""
    from sudoku_fast._base.levels import LEVEL_NAME_BY_LEVEL, SLOT_LEVELS, SLOT_NAMES
    from sudoku_fast._base.se_scale import SE_OK
    from sudoku_fast._base.se_scale import TECHNIQUES as SE_TECHNIQUES
    from sudoku_fast._techniques import _logic, _se
    from sudoku_fast._techniques._logic_py import build_ratings

    sample = "sudoku_exchange_se_rated_sample300.csv"
    rows = read_csv(data_file("sudoku_exchange_se_rated.csv", sample))
    puzzles = [row["puzzle"] for row in rows[:: max(1, len(rows) // 120)]][:120]
    results, counts, summary, scores = _rater_buffers(puzzles, scored)
    n = len(puzzles)
    counts[3 * _logic.SLOTS] = _logic.STUCK  # one puzzle that could not be rated
    if scores is not None:
        scores[5 * _se.SLOTS + 3] = -1  # and one whose score failed
    expected: list[sf.Rating | None] = [None] * n
    compiled: list[sf.Rating | None] = [None] * n
    guesses, nodes = results.guesses, results.nodes  # type: ignore[attr-defined]
    names = (SLOT_NAMES, SLOT_LEVELS, LEVEL_NAME_BY_LEVEL)
    score_names = (SE_TECHNIQUES, _se.SLOTS, SE_OK)
    args = (counts, summary, guesses, nodes, *names, 0, n, scores, *score_names)
    want = build_ratings(sf.Rating, expected, *args)
    got = _logic.build_ratings(sf.Rating, compiled, *args)
    assert got == want and 3 in want and (5 in want) == scored
    assert compiled == expected
    for a, b in zip(compiled, expected, strict=True):
        if a is not None and b is not None:
            assert list(a.counts.items()) == list(b.counts.items())
            assert type(a.score) is type(b.score) and hash(a) == hash(b)
    assert sum(r is not None and r.level >= 4 for r in compiled) >= 10  # hard ones too


def test_rate_many_takes_value_arrays_and_checks_score_budget_always() -> None:
    np = pytest.importorskip("numpy")
    puzzle = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    values = np.array([[0 if c == "." else int(c) for c in puzzle]] * 2, np.uint8)
    assert sf.rate_many(values) == sf.rate_many([puzzle, puzzle])
    like = sf.rate_many(values, output="like")  # a numpy array, as solve_many answers
    assert isinstance(like, np.ndarray) and like.dtype == object
    assert list(like) == sf.rate_many([puzzle, puzzle])
    with pytest.raises(ValueError, match="score_budget must be from 0"):
        sf.rate(puzzle, score_budget=-1)
    with pytest.raises(TypeError, match="score_budget must be an int"):
        sf.rate_many([puzzle], score_budget="x")  # type: ignore[arg-type]


def test_out_of_nodes_names_every_puzzle_and_rates_the_others() -> None:
    full = sf.solve("." * 256)
    assert full is not None
    batch = [full, "." * 256, full, "." * 256]
    with pytest.raises(sf.SearchLimitExceeded, match=r"puzzle 1 and 1 more: no answer") as info:
        sf.rate_many(batch, max_nodes=1, threads=1)
    assert info.value.indices == [1, 3]
    partial = info.value.partial
    assert partial[1] is None and partial[3] is None
    assert partial[0] == partial[2] == sf.rate(full)
    # The same from an array (a numpy grid buffer: its slices are not bytes).
    np = pytest.importorskip("numpy")
    with pytest.raises(sf.SearchLimitExceeded, match=r"puzzle 1 and 1 more: no answer") as info:
        sf.rate_many(np.array(batch), max_nodes=1, threads=1)
    assert info.value.indices == [1, 3] and info.value.partial == partial
