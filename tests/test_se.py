"""The SE-scale score: the compiled rater against its pure-Python twin, soundness of
every step, each technique on a public puzzle that needs it, the budget."""

from __future__ import annotations

import random
from array import array

import pytest
from conftest import data_file, read_csv

import sudoku_fast as sf
from sudoku_fast import _logic, _se, se
from sudoku_fast.datasets import load_embedded
from sudoku_fast.grid import geometry_for, parse_values
from sudoku_fast.logic import LogicSolver

SE_RATED = data_file("sudoku_exchange_se_rated.csv", "sudoku_exchange_se_rated_sample300.csv")

GEO = geometry_for(9)

# Puzzles of the Sudoku Exchange bank (shared/data/sudoku_exchange_se_rated.csv) whose
# hardest step on our ladder is the named technique, with their SE rating.
NEEDS = {
    "hidden single (box)": (
        "..3.8..1.9..1.......63947.2..971342.6.14.98.7.248651..3.59782.......6..3.7..3.6..",
        1.2,
    ),
    "hidden single (line)": (
        "6..21...975436....2........31...5.8..6.8.1.5..4.6...12........5....761981...52..4",
        1.5,
    ),
    "naked single": (
        ".52.9.1....61....31...4..85....2..1.8.93.57.2.6..7....63..8...75....43....7.3.85.",
        2.3,
    ),
    "pointing": (
        ".3.9.8....9.4..378.7..53...7.1....53..3...2..95....6.4...62..3.617..9.2....5.7.6.",
        2.6,
    ),
    "claiming": (
        ".135......8.3.2.16....7...9.2.6.1.45..1...2..59.2.7.6.8...1....14.8.5.7......685.",
        2.8,
    ),
    "naked pair": (
        ".3.5.9.6.1.....4.5.58..49..9.23.6..7.........7..4.85.6..59..38.3.4.....2.2.7.3.5.",
        2.6,
    ),
    "x-wing": (
        ".......5.4.273.6...98.2.73....379.4..891.427..7.852....45.8.32...1.435.8.2.......",
        3.2,
    ),
    "hidden pair": (
        "78.25..942....4..7..4..75...43.....95.......31.....64...93..7..3..4....167..95.32",
        3.4,
    ),
    "naked triple": (
        ".2..3..6.9...26..7..6.842...53......812...594......32...165.9..2..47...1.6..9..7.",
        3.6,
    ),
    "swordfish": (
        "7..5....2..42..8...254.896...69.2571.........9571.42...796.514...1..97..2....1..9",
        3.8,
    ),
    "xy-wing": (
        "74...91.3.5..24.989........69..4.....1.9.3.8.....1..45........687.56..3.1.43...29",
        4.2,
    ),
    "xyz-wing": (
        ".9....16.1.7.8...43.4..178...54.2....1..9..7....1.75...428..6.75...7.8.9.76....5.",
        4.2,
    ),
    "naked quad": (
        "....7....4..623..9...8.5......7.8...7.8.9.5.16..152..8.36...91..........85..6..43",
        5.0,
    ),
    "jellyfish": (
        "2..186..4.1...382..5.......32.5.4..85.......38..3.9.65.......4..426...8.1..425..9",
        5.2,
    ),
    "x-chain": (
        "3..6....4..95.31...2.....3..3.2.6.51....1....14.3.9.6..8.....9...31.26..6....4..5",
        5.4,
    ),
    "y-chain": (
        ".75..8.....4.1...7..9.6.1482..349....936.528....281..4942.5.8..8...9.4.....8..79.",
        4.6,
    ),
    "forcing chain": (
        "619..7...3..2.5..8....3......4....6..85...94..3....8......7....5..3.2..7...8..129",
        4.6,
    ),
    "region forcing chains": (
        "2....78...38...75.....5..4...6..9..7.7..3..9.3..4..2...8..9.....61...43...43....8",
        8.3,
    ),
    "cell forcing chains": (
        ".1.....4.5.......6...7.2....6.....2...8...3......9....1.23.94.54.35.68.2.5.4.7.9.",
        8.9,
    ),
    "dynamic forcing chain": (
        "6.7.1....3..6...8..984..6..1..9...3.....4.....7...3..9..3..279..6...4..8....8.5.2",
        8.8,
    ),
}


def compiled(puzzles: list[str], budget: int = se.DEFAULT_BUDGET) -> list[tuple[int, ...]]:
    tables = _logic.tables_for(GEO)
    grids = bytes(v for p in puzzles for v in parse_values(p))
    out = array("i", bytes(4 * _se.SLOTS * len(puzzles)))
    _se.se_range(tables, grids, b"", out, 0, len(puzzles), budget)
    return [tuple(out[i * _se.SLOTS : (i + 1) * _se.SLOTS]) for i in range(len(puzzles))]


def twin(puzzle: str, budget: int = se.DEFAULT_BUDGET) -> tuple[int, ...]:
    r = se.rate_se(parse_values(puzzle), budget=budget)
    return (r.score, r.hardest, r.steps, r.status)


def test_length_rule() -> None:
    assert [se.length_tenths(k) for k in (1, 4, 5, 6, 7, 8, 9, 12, 13, 16, 17, 24, 25)] == [
        0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6,
    ]  # fmt: skip


@pytest.mark.parametrize("technique", sorted(NEEDS))
def test_technique_fires_where_needed(technique: str) -> None:
    puzzle, _ = NEEDS[technique]
    rating = sf.rate(puzzle, score=True)
    assert rating.score_technique == technique
    tech = se.TECHNIQUES.index(technique)
    assert rating.score is not None and round(rating.score * 10) >= se.BASE[tech]
    assert rating.score_complete
    assert compiled([puzzle])[0] == twin(puzzle)


def test_easy_puzzles_score_close_to_se() -> None:
    # Below chains the ladder carries SE's own difficulties.
    for technique, (puzzle, rated) in NEEDS.items():
        tech = se.TECHNIQUES.index(technique)
        if tech < se.X_CHAIN and round(rated * 10) == se.BASE[tech]:
            assert sf.rate(puzzle, score=True).score == pytest.approx(rated)


def test_differential_on_se_bank() -> None:
    rows = read_csv(SE_RATED)
    rng = random.Random(14)
    easy_rows = [r["puzzle"] for r in rows if float(r["se_rating"]) < 5]
    hard_rows = [r["puzzle"] for r in rows if float(r["se_rating"]) >= 5]
    # The vendored sample (no ../shared) holds fewer puzzles than the full file.
    easy = rng.sample(easy_rows, min(300, len(easy_rows) // 2))
    hard = rng.sample(hard_rows, min(40, len(hard_rows) // 2))
    puzzles = easy + hard
    assert compiled(puzzles) == [twin(p) for p in puzzles]


def test_every_step_is_sound() -> None:
    """Each placement and elimination of the twin agrees with the unique solution."""
    rows = read_csv(SE_RATED)
    rng = random.Random(3)
    picked = [r["puzzle"] for r in rng.sample(rows, 25)]
    picked += load_embedded("magictour_top1465")[:5]
    for puzzle in picked:
        solution = parse_values(sf.solve(puzzle))
        place, restrict = LogicSolver.place, LogicSolver.restrict

        def checked_place(
            s: LogicSolver, cell: int, digit: int, solution: list[int] = solution, place=place
        ) -> None:
            assert solution[cell] == digit
            place(s, cell, digit)

        def checked_restrict(
            s: LogicSolver,
            cell: int,
            allowed: int,
            solution: list[int] = solution,
            restrict=restrict,
        ) -> None:
            assert allowed >> (solution[cell] - 1) & 1
            restrict(s, cell, allowed)

        mp = pytest.MonkeyPatch()
        mp.setattr(LogicSolver, "place", checked_place)
        mp.setattr(LogicSolver, "restrict", checked_restrict)
        try:
            result = se.rate_se(parse_values(puzzle), solution=solution)
        finally:
            mp.undo()
        assert result.status == se.SE_OK


def test_budget_gives_a_lower_bound() -> None:
    puzzle, _ = NEEDS["dynamic forcing chain"]
    full = sf.rate(puzzle, score=True)
    cut = sf.rate(puzzle, score_budget=2000, score=True)
    assert not cut.score_complete
    assert cut.score is not None and full.score is not None and cut.score < full.score
    assert compiled([puzzle], 2000)[0] == twin(puzzle, 2000)
    assert compiled([puzzle], 2000)[0][3] == se.SE_BUDGET


def test_hardest_forum_puzzles_finish_or_say_so() -> None:
    # Hard for search (magictour): every score ends, complete or flagged, never hangs.
    puzzles = load_embedded("magictour_top1465")[:20]
    for rating in sf.rate_many(puzzles, threads=1, score_budget=5_000_000, score=True):
        assert rating.score is not None and 1.0 <= rating.score <= 10.0


def test_other_sizes_have_no_score() -> None:
    rating = sf.rate("1.3..4.........2", score=True)
    assert rating.score is None
    assert rating.score_technique == ""


def test_threads_agree() -> None:
    rows = read_csv(SE_RATED)
    puzzles = [r["puzzle"] for r in rows[::400]]
    one = [r.score for r in sf.rate_many(puzzles, threads=1, score=True)]
    two = [r.score for r in sf.rate_many(puzzles, threads=2, score=True)]
    assert one == two


def test_score_is_asked_for() -> None:
    """The SE score costs far more than the level on hard puzzles: off by default."""
    puzzle = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    assert sf.rate(puzzle).score is None
    assert sf.rate_many([puzzle])[0].score is None
    assert sf.rate(puzzle, score=True).score is not None
