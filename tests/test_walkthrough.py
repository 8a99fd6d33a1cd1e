"""solve_path: the rater's own steps, in order, each one sound, ending at the solution.

Every path is replayed here with candidate sets of the test's own (not the package's
solver): each placement must be the known solution's digit, each elimination must
spare it, and the last step must leave the solution, which is checked against the
data set's own solution where it has one and by checks.check_solution otherwise. The
hardest step's rating must be `rate(p, score=True).score` and the board the path
reports before each step must be the replayed one.
"""

from __future__ import annotations

import csv
from array import array

import pytest
from checks import check_solution
from conftest import VENDORED, Side, data_file, read_csv

import sudoku_fast as sf
from sudoku_fast._base.grid import parse_grid
from sudoku_fast._base.se_scale import DEFAULT_BUDGET
from sudoku_fast._techniques import _logic, _logic_py, _se, _se_py
from sudoku_fast.walkthrough import SolvePath, conclusions


def replay(path: SolvePath, solution: str) -> None:
    """Apply the path's steps to the givens with candidate sets of our own."""
    geo = path.geometry
    n = geo.size
    symbols = geo.symbols
    want = [symbols.index(ch) + 1 for ch in solution]
    values = [0 if ch == "." else symbols.index(ch) + 1 for ch in path.puzzle]
    units = (
        [[r * n + c for c in range(n)] for r in range(n)]
        + [[r * n + c for r in range(n)] for c in range(n)]
        + [
            [(br + r) * n + bc + c for r in range(geo.box_rows) for c in range(geo.box_cols)]
            for br in range(0, n, geo.box_rows)
            for bc in range(0, n, geo.box_cols)
        ]
    )
    peers = [set() for _ in range(n * n)]
    for unit in units:
        for cell in unit:
            peers[cell].update(c for c in unit if c != cell)
    cand = [set() if v else set(range(1, n + 1)) for v in values]
    for cell, v in enumerate(values):
        if v:
            for p in peers[cell]:
                cand[p].discard(v)
    for step in path:
        assert step.placements or step.eliminations, f"step {step.number} changes nothing"
        for cell, digit in step.placements:
            assert values[cell] == 0, f"step {step.number} places into a filled cell"
            assert digit == want[cell], f"step {step.number}: {geo.name(cell)}={digit} is wrong"
            values[cell] = digit
            cand[cell] = set()
            for p in peers[cell]:
                cand[p].discard(digit)
        for cell, digit in step.eliminations:
            assert digit != want[cell], f"step {step.number} removes the solution digit"
            assert digit in cand[cell], f"step {step.number} removes a missing candidate"
            cand[cell].discard(digit)
        board = path.board_before(step.number + 1)
        assert list(board.grid_values()) == values, f"after step {step.number}"
        assert [set(m) for m in board.pencil] == cand, f"candidates after step {step.number}"
    assert values == want, "the path does not reach the solution"


def _exchange(count: int) -> list[tuple[str, float]]:
    """Puzzles of the SE-rated Sudoku Exchange bank, spread over its ratings."""
    rows = read_csv(
        data_file("sudoku_exchange_se_rated.csv", "sudoku_exchange_se_rated_sample300.csv")
    )
    rows.sort(key=lambda r: float(r["se_rating"]))
    step = max(1, len(rows) // count)
    return [(r["puzzle"], float(r["se_rating"])) for r in rows[::step][:count]]


EXCHANGE = _exchange(120)


@pytest.mark.parametrize(("puzzle", "se_rating"), EXCHANGE, ids=[f"se{r}" for _, r in EXCHANGE])
def test_se_path_on_the_exchange_bank(puzzle: str, se_rating: float) -> None:
    solution = sf.solve(puzzle)
    check_solution(solution, puzzle)  # the engine's answer, checked on its own
    assert solution is not None
    path = sf.solve_path(puzzle)
    assert path.scale == "se" and path.complete
    replay(path, solution)
    rating = sf.rate(puzzle, score=True)
    assert path.hardest.rating == rating.score == path.score
    assert path.hardest.technique == rating.score_technique


def _with_solutions(full: str, vendored: str, count: int) -> list[tuple[str, str]]:
    with data_file(full, vendored).open(newline="") as f:
        rows = list(csv.reader(f))[1:]
    return [(row[0], row[1]) for row in rows[:count]]


KNOWN = _with_solutions(
    "kaggle_bryanpark_10k_with_solutions.csv", "kaggle_bryanpark_sample500_with_solutions.csv", 150
) + _with_solutions(
    "rust_sudoku_crate_hard_with_solutions.csv", "rust_sudoku_crate_hard_with_solutions.csv", 30
)


def _below_the_second_nesting_level(pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The puzzles the rater finishes with SE's first nesting level: a step of the
    second takes seconds (tests/test_se.py checks those paths)."""
    kept = []
    for puzzle, solution in pairs:
        geo, values = parse_grid(puzzle)
        out = array("i", bytes(4 * _se.SLOTS))
        answer = parse_grid(solution)[1]
        _se.se_range(_logic.tables_for(geo), values, answer, out, 0, 1, DEFAULT_BUDGET)
        if out[3] == 0:
            kept.append((puzzle, solution))
    return kept


def test_se_paths_reach_the_data_sets_own_solutions() -> None:
    for puzzle, solution in _below_the_second_nesting_level(KNOWN):
        puzzle = sf.parse(puzzle)
        path = sf.solve_path(puzzle)
        assert path.solution == solution, "the engine and the data set disagree"
        replay(path, solution)
        assert path.hardest.rating == sf.rate(puzzle, score=True).score


def _other_sizes() -> list[tuple[str, str]]:
    with (VENDORED / "sudoku16_goomii_sample100_with_solutions.csv").open(newline="") as f:
        sixteen = [(r["puzzle"], r["solution"]) for r in list(csv.DictReader(f))[:12]]
    small = [(p, "") for p in sf.generate_many(10, size=6, seed=5)]
    small += [(p, "") for p in sf.generate_many(5, size=4, seed=5)]
    small += [(p, "") for p in sf.generate_many(5, size=12, seed=5)]
    return sixteen + small


@pytest.mark.parametrize(("puzzle", "known"), _other_sizes())
def test_level_path_on_other_sizes(puzzle: str, known: str) -> None:
    path = sf.solve_path(puzzle)
    assert path.scale == "levels" and path.score is None
    if known:
        assert path.solution == known
    else:
        check_solution(path.solution, path.puzzle)
    replay(path, path.solution)
    rating = sf.rate(puzzle)
    assert max(step.level for step in path) == rating.level
    assert path.hardest.rating is None
    counts: dict[str, int] = {}
    for step in path:
        counts[step.technique] = counts.get(step.technique, 0) + 1
    assert counts == dict(rating.counts)


def test_the_level_scale_on_9x9_is_the_technique_solvers_walk() -> None:
    puzzle, _ = KNOWN[0]
    path = sf.solve_path(puzzle, scale="levels")
    replay(path, path.solution)
    rating = sf.rate(puzzle)
    assert {s.technique for s in path} == set(rating.counts)


def test_compiled_path_equals_its_twin() -> None:
    """_se.se_path and its twin record the same steps (SE up to 7.5: the twin is slow on
    the hardest chains)."""
    picks = [p for p, r in EXCHANGE if r <= 7.5][::4]
    assert len(picks) >= 10
    for puzzle in picks:
        geo, values = parse_grid(puzzle)
        solution = bytes(parse_grid(sf.solve(puzzle) or "", geometry=geo)[1])
        compiled = _se.se_path(_logic.tables_for(geo), bytes(values), solution, DEFAULT_BUDGET)
        twin = _se_py.se_path(_logic_py.tables_for(geo), bytes(values), solution, DEFAULT_BUDGET)
        assert compiled == twin


def test_solve_path_on_both_sides(side: Side) -> None:
    """solve_path reads its steps from the compiled rater and from its twin alike."""
    for puzzle in [p for p, r in EXCHANGE if r <= 7.5][::8]:
        path = sf.solve_path(puzzle)
        replay(path, path.solution)
        assert path.score == sf.rate(puzzle, score=True).score


def test_steps_name_their_cells_and_explain_themselves() -> None:
    puzzle = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    path = sf.solve_path(puzzle)
    geo = path.geometry
    for step in path:
        assert step.cell_names == tuple(geo.name(c) for c in step.cells)
        assert step.explanation
        assert step.level == sf.score_level(step.rating or 0)
    pointing = next(s for s in path if s.technique == "pointing")
    assert pointing.explanation.startswith("in box ")
    assert conclusions(geo, pointing.placements, pointing.eliminations).count("goes from") == 1
    assert [s.number for s in path] == list(range(1, len(path) + 1))
    assert "SolvePath(" in repr(path) and path[0] is path.steps[0]


def test_a_board_gives_the_path_of_its_givens() -> None:
    puzzle = "1....43.3....1.."
    board = sf.Board.new(puzzle).set_value(1, 4)
    assert sf.solve_path(board).steps == sf.solve_path(puzzle).steps


def test_a_full_grid_takes_no_step() -> None:
    solution = sf.solve(
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    )
    assert solution is not None
    path = sf.solve_path(solution)
    assert len(path) == 0 and path.score == 0.0 == sf.rate(solution, score=True).score
    with pytest.raises(ValueError, match="no step"):
        path.hardest  # noqa: B018


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "match"),
    [
        (("1....43.3....1..",), {"scale": "se"}, ValueError, "9x9"),
        (("1....43.3....1..",), {"scale": "best"}, ValueError, "scale"),
        (("." * 81,), {}, ValueError, "several solutions"),
        (("11" + "." * 79,), {}, ValueError, "no solution"),
        ((17,), {}, TypeError, "str or a Board"),
        ((sf.Board.new("1....43.3....1.."),), {"box": (2, 2)}, ValueError, "box and alphabet"),
        (("1....43.3....1..",), {"score_budget": -1}, ValueError, "score_budget"),
    ],
)
def test_bad_arguments(
    args: tuple[object, ...], kwargs: dict[str, object], error: type, match: str
) -> None:
    with pytest.raises(error, match=match):
        sf.solve_path(*args, **kwargs)  # type: ignore[arg-type]


def test_board_before_checks_its_number() -> None:
    path = sf.solve_path("1....43.3....1..")
    assert path.board_before(1).values == "." * 16
    assert path.board_before(len(path) + 1).grid == path.solution
    for bad in (0, len(path) + 2):
        with pytest.raises(ValueError, match="number must be"):
            path.board_before(bad)
    with pytest.raises(TypeError):
        path.board_before("1")  # type: ignore[arg-type]


def test_a_budget_that_runs_out_gives_an_incomplete_path() -> None:
    hard = max(EXCHANGE, key=lambda pr: pr[1])[0]
    path = sf.solve_path(hard, score_budget=0)
    if sf.rate(hard, score=True, score_budget=0).score_complete:
        pytest.skip("this sample's hardest puzzle needs no chain")
    assert not path.complete
    assert path.score == sf.rate(hard, score=True, score_budget=0).score
