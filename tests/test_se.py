"""The SE-scale score: the compiled rater against its pure-Python twin, soundness of
every step, each technique on a public puzzle that needs it, the budget."""

from __future__ import annotations

import random
import subprocess
import sys
from array import array
from pathlib import Path

import pytest
from conftest import Side, data_file, generate_many_reference, read_csv

import sudoku_fast as sf
from sudoku_fast import generator
from sudoku_fast._base import se_scale
from sudoku_fast._base.grid import geometry_for, parse_values
from sudoku_fast._base.levels import LEVEL_NAMES
from sudoku_fast._techniques import _logic, _se
from sudoku_fast._techniques import _se_py as se
from sudoku_fast._techniques._logic_py import LogicSolver
from sudoku_fast.datasets import load_embedded

SE_RATED = data_file("sudoku_exchange_se_rated.csv", "sudoku_exchange_se_rated_sample300.csv")

GEO = geometry_for(9)

# Puzzles of the Sudoku Exchange bank (shared/data/sudoku_exchange_se_rated.csv) whose
# hardest step on our ladder is the named technique, with their SE rating (every one of
# them rated by SE at our difficulty). Four strong links: see FOUR_LINKS below. Not
# met in the bank as a hardest step: full house, direct claiming (SE gives none 1.9),
# x-cycle and forcing x-chain (strong-link chains up to four links come first),
# dynamic forcing chain (+) and beyond (see NESTED_ONE and NESTED_TWO below).
NEEDS = {
    "hidden single (box)": (
        "............541...5...6...34..2.6..8..19.36....6.1.3..2.......5.4..5..7...3...1..",
        1.2,
    ),
    "hidden single (line)": (
        ".........16.....492..186..5..8...5..97..4..86.4.6.8.7.7..513..2............4.9...",
        1.5,
    ),
    "direct pointing": (
        ".........71.8.5.469...4...1.29.7.46..........4.1...7.5.4..3..8.2.5...1.76.8.1.9.4",
        1.7,
    ),
    "direct hidden pair": (
        "..........91.8.6.7.3...78.5.....5.91..5...7..31.6.....9.61...2.1.8.2.35..........",
        2.0,
    ),
    "naked single": (
        ".........34.....917.1.6.4.88.......6.1.....2.6..2.5..9.6.1.7.5...5.2.1...3..9..6.",
        2.3,
    ),
    "direct hidden triple": (
        "...........19.42...8.1.3.5.9.8.2.1.4..2.4.8...3..6..7.1.9...5.6............216...",
        2.5,
    ),
    "pointing": (
        "...........851....19.83..5.87.4.....56.....82.....5.61.2..58.74....762...........",
        2.6,
    ),
    "claiming": (
        "............1.2...542...891.74.2.38.....3....3..698..2..6...2..75.....642...4...8",
        2.8,
    ),
    "naked pair": (
        "............752...1.4...2.5.5.6.8.7..1.5.7.9.8...3...2....6......9...8...85...43.",
        3.0,
    ),
    "x-wing": (
        "...........14.59....59821...9..7..1.8.6.5.3.44.......8..42.37..7.9...2.6.........",
        3.2,
    ),
    "hidden pair": (
        "...........54.81...1.2.6.9...69837...3..4..5...2.5.6...2..1..4..74...81.5.......7",
        3.4,
    ),
    "naked triple": (
        "............367...2..1.9..7..9...1...3.542.6.8.......3...814...61.....85..4...2..",
        3.6,
    ),
    "swordfish": (
        "............628...9..7.1..8....8....8.......44.35.71.9..42.65..7...4...1.6.1.9.4.",
        3.8,
    ),
    "hidden triple": (
        ".....5.6.6...2.7...54...2..3..5.1....1.....9....3.8..4..6...42...7.6...1.3.8.....",
        4.0,
    ),
    "skyscraper": (
        "...........3.9.2..8.62139.5....2.....286.715.1.79.48.6..........4..7..9.2.......1",
        4.0,
    ),
    "two-string kite": (
        "..........2.9.4.7...37.29..5.......6...573....9.6.8.4.94.3.1.258.2...3.1.........",
        4.1,
    ),
    "turbot fish": (
        "..2.37.8.8..6.4......85...647....16.9.6...2.8.28....745...79......4.6..3.6.58.7..",
        4.2,
    ),
    "grouped strong links": (
        "48......99..5....15.3...8......49...1..285..6...16......7...2.32....4..73......68",
        4.3,
    ),
    "xy-wing": (
        "............456.....73984.....5.3....9..7..2..35.8.71.16..3..79..8...1..5.......3",
        4.2,
    ),
    "xyz-wing": (
        "..........45...31...3...6..2.......53..615..8.8..9..7....172......8.9....28.6.94.",
        4.4,
    ),
    "unique rectangle": (
        "............562.....59.78....7...6..82.....975.......33.4.5.2.9...721...7...3...1",
        4.5,
    ),
    "naked quad": (
        "............1.3...6..842..547.....21....7.....8.3.1.5.72.4.5.96....1.....91.8.73.",
        5.0,
    ),
    "jellyfish": (
        "...........84.95..35.1.7.42.63.1.45...7.3.6..2.......1.3.2.6.9..7.3.5.6.....4....",
        5.2,
    ),
    "hidden quad": (
        ".83..9...7.5.6.....4.38.....57...4.22.......38.6...95.....51.6.....9.2.5...7..39.",
        5.4,
    ),
    "three strong links": (
        "............486...1.......34..9.2..8.6.....2.7...1...5.4..9..1.9.2...4.6..37648..",
        5.4,
    ),
    "wxyz-wing": (
        "..........1.7.3.8..3.986.4.1..5.2..9.2.....1.3...7...4.........24.1.8.578..2.9..6",
        5.5,
    ),
    "bivalue universal grave": (
        "...........23.59...76...12.46.7.3.15...168..............3...8...5.8.1.4....459...",
        5.6,
    ),
    "vwxyz-wing": (
        "...........94873....5.2.7..5.2.9.1.6.61...84............32.85...5..3..8..8..5..9.",
        6.2,
    ),
    "aligned pair exclusion": (
        ".....24.7...9..1.34..1.7.8......3.7.1...6...2.3.2......4.7.8..69.8..4...3.76.....",
        6.2,
    ),
    "uvwxyz-wing": (
        "..427......7...3...2...5.84..14.8..52.......73..7.62..69.8...7...2...8......495..",
        6.6,
    ),
    "y-cycle": (
        "............618...6.8...7.3..64.91.....286...2.5...4.88..5.1..6..1...5..4.3...8.9",
        6.6,
    ),
    "tuvwxyz-wing": (
        "7..2.6..8.6..4..1.....15...4.8.....1.97...85.2.....9.7...67.....2..9..7.1..3.4..6",
        7.5,
    ),
    "aligned triplet exclusion": (
        "...........83.62.....914...5.92.84.6.2.....7.8..165..27..823..1...........3.4.8..",
        7.5,
    ),
    "forcing chain": (
        "............941......3.8...165...7493...7...579.....36.12...49.4.......3.36.9.15.",
        7.3,
    ),
    "nishio": (
        "...........95.12...5..3..6.5.37.48.2.8.....1...61.57..9.......8.6..1..2.84.9.3.56",
        7.7,
    ),
    "cell forcing chains": (
        "...........75.89...5.732.8...3.5.6..5..2.3..74.......3.........6...4...88.21.65.9",
        8.3,
    ),
    "region forcing chains": (
        "..........3.....8.9.8.2.1.7....1.......3.2.....46.57..3.6...8.54.......2.59.7.61.",
        8.2,
    ),
    "xy-cycle": (
        "............3.5...1.5.2.4.68.79.41.552..6..43..3...6..3.6...7.2..........7.1.6.8.",
        7.0,
    ),
    "dynamic forcing chain": (
        "..9.8.5...2.7..49.75......6...5.8.6.5.......1.7.9.6...1......29.63..9.1...5.7.6..",
        8.7,
    ),
}


def compiled(puzzles: list[str], budget: int = se_scale.DEFAULT_BUDGET) -> list[tuple[int, ...]]:
    tables = _logic.tables_for(GEO)
    grids = bytes(v for p in puzzles for v in parse_values(p))
    out = array("i", bytes(4 * _se.SLOTS * len(puzzles)))
    _se.se_range(tables, grids, b"", out, 0, len(puzzles), budget)
    return [tuple(out[i * _se.SLOTS : (i + 1) * _se.SLOTS]) for i in range(len(puzzles))]


def twin(puzzle: str, budget: int = se_scale.DEFAULT_BUDGET) -> tuple[int, ...]:
    r = se.rate_se(parse_values(puzzle), budget=budget)
    return (r.score, r.hardest, r.steps, r.status)


def test_length_rule() -> None:
    assert [se.length_tenths(k) for k in (1, 4, 5, 6, 7, 8, 9, 12, 13, 16, 17, 24, 25)] == [
        0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6,
    ]  # fmt: skip


@pytest.mark.parametrize("technique", sorted(NEEDS))
def test_technique_fires_where_needed(technique: str) -> None:
    puzzle, rated = NEEDS[technique]
    rating = sf.rate(puzzle, score=True)
    assert rating.score_technique == technique
    tech = se_scale.TECHNIQUES.index(technique)
    assert rating.score is not None and round(rating.score * 10) >= se_scale.BASE[tech]
    assert rating.score_complete
    assert compiled([puzzle])[0] == twin(puzzle)
    # Measured against SE's own rating of the puzzle, not against ourselves.
    assert abs(rating.score - rated) <= 0.2 + 1e-9


def test_unique_loops() -> None:
    # SE rates this bank puzzle 4.7: an eight-cell unique loop (or a rectangle of type 3).
    puzzle = "..........86...59....5.2.....7...9..61.387.45.4..6..7.4.......29..1.5..3.7.....1."
    rating = sf.rate(puzzle, score=True)
    assert (rating.score, rating.score_technique) == (4.7, "unique rectangle")
    assert compiled([puzzle])[0] == twin(puzzle)


def test_easy_puzzles_score_close_to_se() -> None:
    # Below chains the ladder carries SE's own difficulties.
    for technique, (puzzle, rated) in NEEDS.items():
        tech = se_scale.TECHNIQUES.index(technique)
        if tech < se_scale.X_CHAIN and round(rated * 10) == se_scale.BASE[tech]:
            assert sf.rate(puzzle, score=True).score == pytest.approx(rated)


def test_differential_on_se_bank() -> None:
    rows = read_csv(SE_RATED)
    rng = random.Random(14)
    easy_rows = [r["puzzle"] for r in rows if float(r["se_rating"]) < 5]
    hard_rows = [r["puzzle"] for r in rows if float(r["se_rating"]) >= 5]
    # The vendored sample (no ../shared) holds fewer puzzles than the full file.
    easy = rng.sample(easy_rows, min(300, len(easy_rows) // 2))
    hard = rng.sample(hard_rows, min(24, len(hard_rows) // 2))
    puzzles = easy + hard
    assert compiled(puzzles) == [twin(p) for p in puzzles]


def rate_checked(puzzle: str) -> se.SeResult:
    """The twin's rating, every placement and elimination checked against the puzzle's
    unique solution (found by the solver, not by the rater)."""
    solution = parse_values(sf.solve(puzzle))
    place, restrict = LogicSolver.place, LogicSolver.restrict

    def checked_place(s: LogicSolver, cell: int, digit: int) -> None:
        assert solution[cell] == digit
        place(s, cell, digit)

    def checked_restrict(s: LogicSolver, cell: int, allowed: int) -> None:
        assert allowed >> (solution[cell] - 1) & 1
        restrict(s, cell, allowed)

    mp = pytest.MonkeyPatch()
    mp.setattr(LogicSolver, "place", checked_place)
    mp.setattr(LogicSolver, "restrict", checked_restrict)
    try:
        return se.rate_se(parse_values(puzzle), solution=solution)
    finally:
        mp.undo()


def test_every_step_is_sound() -> None:
    """Each placement and elimination of the twin agrees with the unique solution."""
    rows = read_csv(SE_RATED)
    rng = random.Random(3)
    picked = [r["puzzle"] for r in rng.sample(rows, 25)]
    picked += load_embedded("magictour_top1465")[:5]
    for puzzle in picked:
        assert rate_checked(puzzle).status == se_scale.SE_OK


# Bank puzzles whose hardest step in Sukaku Explainer 1.18.1 (bench/data/serate_*.csv)
# is a chain of strong links with a grouped link (an empty rectangle in a box, or two
# box segments of a line), with SE's name for it and its rating.
GROUPED = [
    ("48......99..5....15.3...8......49...1..285..6...16......7...2.32....4..73......68",
     "Grouped Skyscraper", 4.3),
    (".7.....8...8.3.5..2.4.8.1.772.6.3.15.4.....2....9.5...8.6...7.2....5.......3.7...",
     "Grouped 2 Strong links", 4.3),
    ("..79..36.3...2.9..49...6..5..46.9..3.5.....9.7..3.41..9..5...42..5.9...1.72..85..",
     "Grouped 2 Strong links", 4.3),
    (".74....3.5.2...6.9.6.9...51....7.4.....1.2.....7.5....23...7.6.7.6...9.3.4....87.",
     "Grouped 3 Strong links", 5.7),
    ("...8...1.9.8.....4651.34...8..6..1...4..5..3...6..8..9...31.7857.....9.3.8...6...",
     "Grouped 3-String Kite", 5.7),
    (".2.16.5....1..9...9.4.....14..2.6.3....7.3....9.4.5..68.....7.4...6..2....9.74.6.",
     "Grouped 3 Skyscrapers", 5.7),
    ("...83.47......6..8.....45.3.3.6...146...9...748...1.9.9.45.....5..2......28.49...",
     "Grouped 3 Strong links", 5.7),
]  # fmt: skip


@pytest.mark.parametrize(("puzzle", "name", "rated"), GROUPED, ids=[g[1] for g in GROUPED])
def test_grouped_strong_links_rate_like_se(puzzle: str, name: str, rated: float) -> None:
    rating = sf.rate(puzzle, score=True)
    expected = "three strong links" if "3" in name else "grouped strong links"
    assert (rating.score, rating.score_technique) == (rated, expected)
    assert compiled([puzzle])[0] == twin(puzzle)
    result = rate_checked(puzzle)
    assert (result.score, result.status) == (round(rated * 10), se_scale.SE_OK)


def test_grouped_links_stop_at_three_links() -> None:
    # Sukaku Explainer 1.18.1 rates this bank puzzle 6.1 ("Grouped 4 Skyscrapers"); the
    # bank's SE rates it 7.5, as here: grouped links join chains of up to three links
    # (se.GROUPED_MAX_LINKS), which is what the bank's ratings follow.
    puzzle = ".1.629.3..........6...3...8...756....5.....1.3.9...8.6...........21845..8..5.3..1"
    rating = sf.rate(puzzle, score=True)
    assert (rating.score, rating.score_technique) == (7.5, "aligned triplet exclusion")
    assert compiled([puzzle])[0] == twin(puzzle)


# A bank puzzle whose hardest step here is a chain of four (plain) strong links. The bank
# rates it 6.6: no puzzle of the bank has four strong links as its hardest step here and
# SE's rating within 0.2 of ours (nine of them rate 5.8-6.0 here against SE's 6.6-6.8).
FOUR_LINKS = "....1....2..4.8..9.8.2.9.5..........3.9.2.8.1.2..8..6..9..5..4..768.129..42...51."


def test_four_strong_links_fire_and_agree_with_the_twin() -> None:
    rating = sf.rate(FOUR_LINKS, score=True)
    assert (rating.score, rating.score_technique) == (5.9, "four strong links")
    assert compiled([FOUR_LINKS])[0] == twin(FOUR_LINKS)
    assert rate_checked(FOUR_LINKS).status == se_scale.SE_OK


# A bank puzzle (row 22574) that SE rates 7.9 (Nishio): on its way it takes a doubly
# linked VWXYZ-wing, where both digits of the bivalue cell see every cell of the set
# holding them, so each digit of the set goes from the cells that see all its holders.
# With single links only, the wing removes less and the rating ends at 8.0.
DOUBLY_LINKED = "...5.6.....38.72..57.....616..791..2..........3..5..4..91...62.....7....32.....59"


def test_doubly_linked_wings_rate_as_se() -> None:
    rating = sf.rate(DOUBLY_LINKED, score=True)
    assert (rating.score, rating.score_technique) == (7.9, "nishio")
    assert compiled([DOUBLY_LINKED])[0] == twin(DOUBLY_LINKED)
    assert twin(DOUBLY_LINKED)[0] == 79
    # Every elimination of the wider wing agrees with the solution.
    assert rate_checked(DOUBLY_LINKED).status == se_scale.SE_OK


# A bank puzzle (row 23293) that the bank's SE rates 8.2 (region forcing chains). With
# the doubly linked form on uvwxyz-wings too it fell to 6.6 here, on such a wing; the
# bank's SE does not take it, so the form stops at four cells.
NO_DOUBLY_LINKED_UVWXYZ = (
    "....5.9....238....3....6.5...62.5.1.17..9..26.8.1.37...3.5....2....314....7.2...."
)


def test_uvwxyz_wings_stay_singly_linked() -> None:
    assert se.DOUBLY_LINKED_MAX_CELLS == 4
    expected = (82, se_scale.TECHNIQUES.index("region forcing chains"))
    assert compiled([NO_DOUBLY_LINKED_UVWXYZ])[0][:2] == expected
    assert twin(NO_DOUBLY_LINKED_UVWXYZ)[:2] == expected


# Bank puzzles (rows 14119 and 15652) that SE rates 5.6 and 6.2, where the wing SE
# applies first (most eliminations, then SE's suffix) differs from the first one found;
# the first one found gave 5.7 and 6.3.
WING_ORDER = [
    ("1.8.....4.97..463..4...8.71.63.8.......7.6.......3.84.63.8...2..754..18.8.....9.5", 56),
    ("96.2....5..37....8.....9.2...16.4.59....7....45.1.38...3.9.....6....79..8....1.36", 62),
]


@pytest.mark.parametrize(("puzzle", "tenths"), WING_ORDER)
def test_wings_are_applied_in_se_s_order(puzzle: str, tenths: int) -> None:
    assert compiled([puzzle])[0][0] == tenths
    assert twin(puzzle)[0] == tenths


def test_budget_gives_a_lower_bound() -> None:
    puzzle, _ = NEEDS["dynamic forcing chain"]
    full = sf.rate(puzzle, score=True)
    cut = sf.rate(puzzle, score_budget=2000, score=True)
    assert not cut.score_complete
    assert cut.score is not None and full.score is not None and cut.score < full.score
    assert compiled([puzzle], 2000)[0] == twin(puzzle, 2000)
    assert compiled([puzzle], 2000)[0][3] == se_scale.SE_BUDGET


def test_hardest_forum_puzzles_finish_or_say_so() -> None:
    # Hard for search (magictour): every score ends, complete or flagged, never hangs.
    puzzles = load_embedded("magictour_top1465")[:20]
    for rating in sf.rate_many(puzzles, threads=1, score_budget=5_000_000, score=True):
        assert rating.score is not None and 1.0 <= rating.score <= se_scale.TOP_SCORE / 10


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


def test_score_level_maps_the_scale_onto_levels() -> None:
    scores = (1.0, 2.4, 2.5, 2.9, 3.0, 3.9, 4.0, 5.9, 6.0, 8.9, 9.0, 11.4)
    assert [se_scale.score_level(x) for x in scores] == [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6]
    assert sf.score_level(7.5) == 5
    with pytest.raises(TypeError):
        se_scale.score_level("7.5")  # type: ignore[arg-type]
    # Between two tenths, half up at every boundary alike; any real number type.
    between = (2.45, 2.95, 3.95, 5.95, 8.95)
    assert [se_scale.score_level(x) for x in between] == [2, 3, 4, 5, 6]
    np = pytest.importorskip("numpy")
    assert se_scale.score_level(np.float32(2.5)) == se_scale.score_level(np.float64(2.5)) == 2
    # With a score, the level is its band; the technique solver's level stays readable.
    rows = read_csv(SE_RATED)[::60] if SE_RATED.name.endswith("rated.csv") else read_csv(SE_RATED)
    ratings = sf.rate_many([r["puzzle"] for r in rows], score=True)
    plain = sf.rate_many([r["puzzle"] for r in rows])
    for scored, unscored in zip(ratings, plain, strict=True):
        assert scored.level == se_scale.score_level(scored.score or 0.0)
        assert scored.name == LEVEL_NAMES[scored.level]
        assert scored.technique_level == unscored.level == unscored.technique_level
        assert (scored.hardest, scored.counts) == (unscored.hardest, unscored.counts)


def test_generate_in_a_score_band() -> None:
    puzzles = sf.generate_many(3, seed=5, score=(2.5, 2.8), threads=2)
    assert len(puzzles) == 3 == len(set(puzzles))
    for puzzle in puzzles:
        rating = sf.rate(puzzle, score=True)
        assert rating.score is not None and 2.5 <= rating.score <= 2.8
        # The pure-Python rater agrees with the compiled one on each puzzle.
        solution = parse_values(sf.solve(puzzle) or "")
        assert se.rate_se(parse_values(puzzle), solution=solution).score == round(rating.score * 10)
    assert sf.generate_many(3, seed=5, score=(2.5, 2.8), threads=1) == puzzles
    assert sf.generate(seed=5, score=(2.5, 2.8)) == puzzles[0]
    assert generate_many_reference(2, seed=5, score=(2.5, 2.8)) == puzzles[:2]


@pytest.mark.parametrize(
    ("band", "tenths"),
    [
        ((3.95, 4.15), (40, 41)),
        ((4.25, 4.45), (43, 44)),
        ((4.3, 4.3), (43, 43)),
        ((1, 2), (10, 20)),
    ],
)
def test_a_band_holds_the_tenths_between_its_ends(
    band: tuple[float, float], tenths: tuple[int, int]
) -> None:
    # Both ends included, whatever the rounding of a half-tenth bound.
    assert generator._score_band(band, 9, None) == tenths


def test_a_band_with_half_tenth_ends_gives_scores_inside_it() -> None:
    for puzzle in sf.generate_many(2, seed=1, score=(3.95, 4.15), threads=2):
        score = sf.rate(puzzle, score=True).score
        assert score is not None and 3.95 <= score <= 4.15


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"score": (4.15, 4.19)}, ValueError),  # no tenth inside
        ({"score": (8.0, 7.0)}, ValueError),
        ({"score": (0.5, 2.0)}, ValueError),
        ({"score": (7.0, 8.0), "size": 6}, ValueError),
        ({"score": (7.0, 8.0), "difficulty": "hard"}, ValueError),
        ({"score": "7-8"}, TypeError),
        ({"score": (7.0, None)}, TypeError),
        ({"score": (True, 8.0)}, TypeError),
    ],
)
def test_score_band_arguments(kwargs: dict[str, object], error: type[Exception]) -> None:
    with pytest.raises(error):
        sf.generate_many(1, seed=1, **kwargs)  # type: ignore[arg-type]


def test_a_band_generation_cannot_reach_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(generator, "SCORE_CANDIDATES", 2)
    with pytest.raises(RuntimeError, match=r"9\.5-9\.9 .* try a wider band"):
        sf.generate_many(1, seed=1, score=(9.5, 9.9), threads=1)
    # Above what the rater can certify no score exists: refused before generating.
    top = se_scale.TOP_SCORE / 10
    with pytest.raises(ValueError, match=rf"holds no score: scores here go up to {top:.1f}"):
        sf.generate_many(1, seed=1, score=(top + 0.1, top + 0.5), threads=1)
    # Up to it, a band is accepted (and here, with 2 candidates, not filled).
    with pytest.raises(RuntimeError, match=r"try a wider band"):
        sf.generate_many(1, seed=1, score=(10.1, top), threads=1)


def test_cli_rate_prints_the_score(tmp_path: Path) -> None:
    puzzle, rated = NEEDS["xy-wing"]
    path = tmp_path / "p.txt"
    path.write_text(puzzle + "\n")
    proc = subprocess.run(
        [sys.executable, "-m", "sudoku_fast", "rate", "--score", str(path)],
        capture_output=True,
        text=True,
        check=True,
    )
    header, row = proc.stdout.splitlines()[:2]
    assert header.split("\t")[-2:] == ["score", "score_technique"]
    assert row.split("\t")[-2:] == [f"{rated:.1f}", "xy-wing"]


SEED = ("--seed", "7")


def test_cli_generate_in_a_score_band() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "sudoku_fast", "generate", "--score", "4.5-4.6", "-n", "2", *SEED],
        capture_output=True,
        text=True,
        check=True,
    )
    puzzles = proc.stdout.split()
    assert puzzles == sf.generate_many(2, seed=7, score=(4.5, 4.6))
    for puzzle in puzzles:
        score = sf.rate(puzzle, score=True).score
        assert score is not None and 4.5 <= score <= 4.6
    bad = subprocess.run(
        [sys.executable, "-m", "sudoku_fast", "generate", "--score", "high"],
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 2 and "LOW-HIGH" in bad.stderr


def test_non_finite_scores_and_bad_budgets_are_clear_errors() -> None:
    puzzle = load_embedded("norvig_top95")[0]
    assert se_scale.score_level(float("inf")) == 6 and se_scale.score_level(float("-inf")) == 1
    with pytest.raises(ValueError, match="not NaN"):
        se_scale.score_level(float("nan"))
    for budget in (-1, 2**63):
        with pytest.raises(ValueError, match="score_budget must be from 0 to 2"):
            sf.rate(puzzle, score=True, score_budget=budget)
        with pytest.raises(ValueError, match="score_budget must be from 0 to 2"):
            sf.rate_many([puzzle], score=True, score_budget=budget)
    with pytest.raises(TypeError, match="score_budget must be an int"):
        sf.rate(puzzle, score=True, score_budget=1.5)  # type: ignore[arg-type]
    assert sf.rate(puzzle, score=True, score_budget=2**63 - 1).score_complete
    # No upper limit: an infinite high bound; NaN and an infinite low bound are refused.
    made = sf.generate(score=(1.0, float("inf")), seed=3)
    assert sf.rate(made, score=True).score is not None
    for band in ((float("nan"), 2.0), (float("-inf"), 2.0), (float("inf"), float("inf"))):
        with pytest.raises(ValueError, match="score b"):
            sf.generate(score=band, seed=3)
    proc = subprocess.run(
        [sys.executable, "-m", "sudoku_fast", "generate", "--score", "4-inf", "-n", "1"],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert proc.returncode == 0 and len(proc.stdout.strip()) == 81, proc.stderr
    assert sf.rate(proc.stdout.strip(), score=True).score >= 4.0  # type: ignore[operator]


def test_generate_without_a_puzzle_in_the_band_exits_1(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from sudoku_fast.cli import main

    monkeypatch.setattr(generator, "SCORE_CANDIDATES", 0)  # no candidate at all
    assert main(["generate", "--score", "9-inf", "-n", "1"]) == 1
    assert "no 9x9 puzzle scored 9.0 or more in 0 generated puzzles" in capsys.readouterr().err


def test_scores_far_past_the_scale() -> None:
    assert se_scale.score_level(1e308) == 6 and se_scale.score_level(-1e308) == 1
    assert se_scale.score_level(10**400) == 6
    assert sf.rate(sf.generate(seed=1, score=(1.0, 1e308)), score=True).score is not None
    with pytest.raises(ValueError, match="low bound on the scale"):
        sf.generate(seed=1, score=(10**400, 10**401))


# Sukaku Explainer 1.18.1's ratings of two forum puzzles (bench/data/serate_hardest.csv):
# magictour_top1465 line 77 ends at its first nesting level, "Dynamic Contradiction
# Forcing Chains (+)", 9.8; norvig_hardest line 2 needs the second, "(+ Forcing
# Chains)", 10.6.
NESTED_ONE = "7.....4...2..7..8...3..8..9...5..3...6..2..9...1..7..6...3..9...3..4..6...9..1..5"
NESTED_TWO = "..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97.."


def test_first_nesting_level_rates_like_se() -> None:
    rating = sf.rate(NESTED_ONE, score=True)
    assert rating.score_technique == "dynamic forcing chain (+)"
    assert rating.score_complete
    assert rating.score is not None and abs(rating.score - 9.8) <= 0.2 + 1e-9


def test_a_step_past_the_ladder_leaves_a_lower_bound() -> None:
    # SE's grid before its first "(+ Multiple Forcing Chains)" step on
    # rust_sudoku_crate_hard line 13 (serate_hardest row 22, SE 11.1): no step of the
    # ladder applies there, the second nesting level included (nor did SE's), so a
    # digit is revealed, rated 10.0 where SE's third level starts: never a capped score
    # called exact, a lower bound.
    _, values, cand = se_grid_before("22", 5, "serate_hardest")
    puzzle = hardest_puzzle("22")
    solution = parse_values(sf.solve(puzzle) or "")
    _, _, _, status, records = _se.se_path(
        _logic.tables_for(GEO), bytes(values), bytes(solution), se_scale.DEFAULT_BUDGET,
        array("Q", cand), 1, 2,
    )  # fmt: skip
    assert [r[:2] for r in records] == [(se_scale.BEYOND, 100)]
    assert status == se_scale.SE_BEYOND
    # With the first nesting level only, norvig_hardest line 2 (SE 10.6) is past it.
    out = compiled([NESTED_TWO])[0]
    assert out[3] == se_scale.SE_STUCK  # no solution given: the rater stops there
    solved = parse_values(sf.solve(NESTED_TWO) or "")
    tables = _logic.tables_for(GEO)
    scores = array("i", bytes(4 * _se.SLOTS))
    _se.se_range(tables, bytes(parse_values(NESTED_TWO)), bytes(solved), scores, 0, 1, 10**9)
    assert scores[3] == se_scale.SE_BEYOND


def test_nested_walks_agree_with_the_twin() -> None:
    # Whole ratings, and cut by budgets at the same walk step of both.
    for puzzle in (NESTED_ONE, NESTED_TWO):
        for budget in (20_000, 100_000, se_scale.DEFAULT_BUDGET):
            assert compiled([puzzle], budget)[0] == twin(puzzle, budget)
    assert twin(NESTED_ONE)[:2] == (98, se_scale.DYNAMIC_PLUS)


def test_small_budgets_on_the_hardest_give_incomplete_scores() -> None:
    for budget in (0, 10_000, 100_000):
        for rating in sf.rate_many([NESTED_ONE, NESTED_TWO], score=True, score_budget=budget):
            assert not rating.score_complete
            assert rating.score is not None and rating.score <= 10.6


def test_the_se_hint_names_the_step_rate_takes() -> None:
    # From the board before the step that sets the score (its values and candidates as
    # pencil marks), the SE-ladder hint is that step: the technique and level of
    # rate(score=True). From the givens it is the path's first step.
    puzzles = [NEEDS[t][0] for t in ("xy-wing", "unique rectangle", "wxyz-wing", "xy-cycle")]
    puzzles += [NEEDS["nishio"][0], NEEDS["dynamic forcing chain"][0], NESTED_ONE]
    for puzzle in puzzles:
        rating = sf.rate(puzzle, score=True)
        path = sf.solve_path(puzzle)
        hardest = path.hardest
        step = sf.hint(path.board_before(hardest.number), scale="se")
        assert step is not None and rating.score is not None
        assert step.technique == rating.score_technique == hardest.technique
        assert step.level == se_scale.score_level(rating.score)
        assert set(step.placements) == set(hardest.placements)
        assert set(step.eliminations) == set(hardest.eliminations)
        first = sf.hint(puzzle, scale="se")
        assert first is not None and first.technique == path[0].technique
    with pytest.raises(ValueError, match="9x9"):
        sf.hint("1.3..4.........2", scale="se")
    with pytest.raises(ValueError, match="scale"):
        sf.hint(NESTED_ONE, scale="sukaku")  # type: ignore[arg-type]


def test_cli_hint_on_the_se_scale() -> None:
    puzzle = NEEDS["xy-cycle"][0]
    proc = subprocess.run(
        [sys.executable, "-m", "sudoku_fast", "hint", "--scale", "se", "--all", puzzle],
        capture_output=True,
        text=True,
        check=True,
    )
    lines = proc.stdout.splitlines()
    assert lines[-1] == "solved"
    techniques = {line.split(":")[0] for line in lines[:-1]}
    assert "xy-cycle" in techniques
    assert sf.rate(puzzle, score=True).score_technique == "xy-cycle"


def test_a_path_from_narrowed_candidates_is_the_twins() -> None:
    # The SE hint's entry: se_path from the board's candidates, a few steps.
    puzzle = NEEDS["xy-cycle"][0]
    path = sf.solve_path(puzzle)
    board = path.board_before(path.hardest.number)
    values = list(board.grid_values())
    allowed = array("Q", [sum(1 << (d - 1) for d in marks) or 511 for marks in board.pencil])
    solution = bytes(parse_values(path.solution))
    tables = _logic.tables_for(GEO)
    for steps in (0, 1, 3):
        args = (bytes(values), solution, se_scale.DEFAULT_BUDGET, allowed, steps)
        assert _se.se_path(tables, *args) == se.se_path(tables, *args)


# -- Sukaku Explainer's own paths (bench/data/serate_*_steps.csv.gz) -------------------

BENCH_DATA = Path(__file__).resolve().parent.parent / "bench" / "data"


def hardest_puzzle(index: str) -> str:
    """The puzzle of bench/data/serate_hardest.csv's row `index`."""
    return next(
        r["puzzle"] for r in read_csv(BENCH_DATA / "serate_hardest.csv") if r["index"] == index
    )


def se_grid_before(
    index: str, step: int, data: str = "serate_techniques"
) -> tuple[str, list[int], list[int]]:
    """The puzzle, values and candidate masks (bit d - 1 for digit d) of the grid
    Sukaku Explainer 1.18.1 had before the given step of its path on
    bench/data/<data>.csv row `index`: its earlier steps' effects replayed."""
    import csv
    import gzip
    import io

    rows = read_csv(BENCH_DATA / f"{data}.csv")
    puzzle = next(r["puzzle"] for r in rows if r["index"] == index)
    s = LogicSolver(parse_values(puzzle))
    rater = se._Rater(s, se_scale.DEFAULT_BUDGET)
    with gzip.open(BENCH_DATA / f"{data}_steps.csv.gz") as raw:
        steps = [
            r
            for r in csv.DictReader(io.TextIOWrapper(raw, newline=""))
            if r["index"] == index and int(r["step"]) < step
        ]
    for st in steps:
        for effect in st["effect"].split():
            cell = (int(effect[1]) - 1) * 9 + int(effect[3]) - 1
            if effect[4] == "=":
                rater.place(cell, int(effect[5:]))
            else:
                for d in effect[5:]:
                    if s.cand[cell] >> (int(d) - 1) & 1:
                        rater.remove(cell, int(d))
    return puzzle, list(s.values), list(s.cand)


# (row, step, SE's technique there, its eliminations): several unique rectangles or
# loops of one difficulty on SE's grid, and SE applies the first by type, then by where
# its search starts (its first bivalue cell); the rater took another one before.
SE_UNIQUE_STEPS = [
    ("121", 22, "Unique Rectangle type 4", "r3c1-4 r3c2-4"),
    ("122", 19, "Unique Rectangle type 1", "r7c5-18"),
    ("130", 24, "Unique Rectangle type 2", "r4c5-5"),
    ("144", 32, "Unique Rectangle type 1", "r3c6-19"),
    ("169", 20, "Unique Rectangle type 2", "r1c3-7"),
]


@pytest.mark.parametrize(("index", "step", "name", "effect"), SE_UNIQUE_STEPS)
def test_unique_rectangles_are_chosen_as_se_chooses(
    index: str, step: int, name: str, effect: str
) -> None:
    puzzle, values, cand = se_grid_before(index, step)
    solution = bytes(parse_values(sf.solve(puzzle) or ""))
    tables = _logic.tables_for(GEO)
    args = (bytes(values), solution, se_scale.DEFAULT_BUDGET, array("Q", cand), 1)
    for side in (_se, se):
        records = side.se_path(tables, *args)[4]
        tech, tenths, after_values, after_cand, _ = records[0]
        assert se_scale.TECHNIQUES[tech] == "unique rectangle"
        assert tenths == 45
        gone = {
            f"r{c // 9 + 1}c{c % 9 + 1}-"
            + "".join(str(d + 1) for d in range(9) if (cand[c] & ~after_cand[c]) >> d & 1)
            for c in range(81)
            if not after_values[c] and cand[c] & ~after_cand[c]
        }
        assert gone == set(effect.split()), name


# (row, step) of bench/data/serate_techniques*: a unique rectangle or loop step of Sukaku
# Explainer 1.18.1's path that the rater took otherwise before it had SE's hidden type 3
# (a hidden set of the loop's two digits and others over a roof cell and cells of a
# unit both roof cells share: 4.5 + 0.1 per cell of the set past the second), loops of
# ten cells and more (5.0), SE's limits on the naked type 3 (degree up to 7, half the
# unit's empty cells, the digits the two roof cells share) and its order of type 3
# before type 4 at one difficulty.
SE_LOOP_STEPS = [
    ("29", 24), ("30", 27), ("33", 28), ("35", 11), ("37", 16), ("38", 16), ("40", 25),
    ("42", 22), ("43", 25), ("44", 18), ("44", 20), ("48", 26), ("51", 34), ("54", 32),
    ("56", 14), ("64", 34), ("65", 26), ("67", 36), ("71", 38), ("72", 28), ("73", 31),
    ("78", 32), ("213", 26), ("296", 39), ("342", 41), ("358", 34), ("373", 38),
    ("380", 37), ("414", 40), ("448", 35),
]  # fmt: skip


@pytest.mark.parametrize(("index", "step"), SE_LOOP_STEPS)
def test_unique_loops_and_hidden_rectangles_take_se_s_step(index: str, step: int) -> None:
    import csv
    import gzip
    import io

    with gzip.open(BENCH_DATA / "serate_techniques_steps.csv.gz") as raw:
        se_step = next(
            r
            for r in csv.DictReader(io.TextIOWrapper(raw, newline=""))
            if r["index"] == index and int(r["step"]) == step
        )
    assert se_step["technique"].startswith("Unique ")
    puzzle, values, cand = se_grid_before(index, step)
    solution = bytes(parse_values(sf.solve(puzzle) or ""))
    tables = _logic.tables_for(GEO)
    args = (bytes(values), solution, se_scale.DEFAULT_BUDGET, array("Q", cand), 1)
    for side in (_se, se):
        tech, tenths, after_values, after_cand, _ = side.se_path(tables, *args)[4][0]
        assert se_scale.TECHNIQUES[tech] == "unique rectangle"
        assert tenths == round(float(se_step["rating"]) * 10)
        gone = {
            f"r{c // 9 + 1}c{c % 9 + 1}-"
            + "".join(str(d + 1) for d in range(9) if (cand[c] & ~after_cand[c]) >> d & 1)
            for c in range(81)
            if not after_values[c] and cand[c] & ~after_cand[c]
        }
        assert gone == set(se_step["effect"].split())


# Puzzles of Sukaku Explainer 1.18.1's reference files where its dynamic chains are
# one tenth shorter than the rater counted them while it took OFF nodes in turn with
# the ON nodes and left out walks that met a contradiction (SE takes every ON node
# first; a stopped walk still takes part in the double implication and the cell and
# region forcing).
SE_DYNAMIC = [
    (".67.8.2...8...5.762.......3.1.7.9...3...6...8...5.8.6.5.......774.3...8...8.5.43.", 8.7),
    ("..7..5.6..4.87.1..3...4....4.....5...38...69...6.....8....5...9..4.17.2..1.9..3..", 8.8),
    ("95.....47...847.......9.......2.3...3...7...9..19.43...9.1.2.7.8.......4..7.6.1..", 8.9),
]


@pytest.mark.parametrize(("puzzle", "score"), SE_DYNAMIC)
def test_dynamic_chains_are_as_long_as_se_counts_them(puzzle: str, score: float) -> None:
    expected = (round(score * 10), se_scale.DYNAMIC)
    assert compiled([puzzle])[0][:2] == expected
    assert twin(puzzle)[:2] == expected


# Sudoku Exchange bank puzzles (../shared/data/sudoku_exchange_se_rated.csv rows 22132,
# 22208, 22504, 22936) whose hardest step is a Nishio chain, rated the same by the
# bank's SE and Sukaku Explainer 1.18.1, and one tenth off while the rater's walks took
# a node's peers in ascending order and its units as row, column, box: SE takes the
# box, then the row, then the column, and which contradiction a walk meets first, and
# so its length, depends on it.
SE_NISHIO = [
    ("..3..52...92.6..5.5..3...482.....4...7..9..3...8.....515...4..3.8..7.51...41..8..", 7.8),
    ("..9.87....2.....8..184.9...54...279...........375...21...6.481..9.....4....97.3..", 7.8),
    ("..........8..2..3.3.25874.9..7...3..5.8...6.164..9..25..6.4.9..4..2.3..7.........", 7.9),
    ("51.....944.8..1..5...8...3..9.6.74......8......49.2.7..8...9...7..4..9.694.....27", 7.9),
]


@pytest.mark.parametrize(("puzzle", "score"), SE_NISHIO)
def test_chain_walks_take_peers_in_se_order(puzzle: str, score: float) -> None:
    expected = (round(score * 10), se_scale.NISHIO)
    assert compiled([puzzle])[0][:2] == expected
    assert twin(puzzle)[:2] == expected


# Sudoku Exchange bank puzzles (../shared/data/sudoku_exchange_se_rated.csv rows 25896,
# 26809, 26949, 27487, 28704, numbered from 0), rated the same by the bank's SE and
# Sukaku Explainer 1.18.1, whose hardest step is a dynamic forcing chain: rated 8.4,
# 9.0, 8.8, 8.9, 9.1 while a chain step applied every conclusion of its smallest
# difficulty (and those no harder than the score so far); SE applies one hint a step,
# the first by difficulty, complexity and its sort key, which takes another path.
SE_ONE_HINT = [
    ("...........2...1.....684...3..9.7..6.51...87..6.....4....7.8.......5....7.81.35.2", 8.8),
    (".8..3.....3...65.4..21....3.4.2....7.........1....9.8.8....13..5.69...1.....5..7.", 8.9),
    ("79.3.....3.6....4...2..1..7.6...457.....8.....432...8.9..5..7...3....9.8.....3.14", 8.9),
    ("..4..729.2..6.3....672........8...3.5...2...7.8...1........832....7.2..1.294..7..", 9.0),
    ("...1..4....6.5..9......2..31..4....2..5...8..7....6..19..7......1..9.6....8..1...", 9.2),
]


@pytest.mark.parametrize(("puzzle", "score"), SE_ONE_HINT)
def test_chain_step_applies_one_hint_as_se(puzzle: str, score: float) -> None:
    expected = (round(score * 10), se_scale.DYNAMIC)
    assert compiled([puzzle])[0][:2] == expected
    assert twin(puzzle) == compiled([puzzle])[0]


# Sukaku Explainer 1.18.1's hardest step on these (bench/data/serate_*.csv): each type
# of the bivalue universal grave as SE finds it (type 3: a naked set of two to four
# cells with the BUG values).
SE_BUG = [
    ("..2...6...6.2.3.4.57.....91....2....29.....56...1.8....2..4..3..4.3.9.2.7.......4", 5.6),
    (".2.5..78.8.......17.5.642....79.1..2..8...6..2..3.68....964.3.84.......5.83..9.4.", 5.7),
    ("...2.5..49.1...3..42..3...11.8..9......7.1......3..4.85...7..32..4...8.96..8.3...", 5.7),
    ("......85..2..4..3....8...24..35..2...1.268.7...8..49..68...2....5..3..6..47......", 5.8),
    ("2..837.9.94.1...3...6..5.8....7..8.............5..4....9.6..4...7...8.51.8.549..3", 5.9),
    ("31.8..5.......61..8...5..435..9...3...........9...3..675..3...2..82.......6..4.75", 6.0),
    ("56........13..6....9.523...75.2....6.........1....4.93...978.5....6..81........62", 6.1),
]


@pytest.mark.parametrize(("puzzle", "score"), SE_BUG)
def test_bivalue_universal_graves_rate_as_se(puzzle: str, score: float) -> None:
    expected = (round(score * 10), se_scale.BUG)
    assert compiled([puzzle])[0][:2] == expected
    assert twin(puzzle)[:2] == expected


# Sukaku Explainer 1.18.1's "(+ Forcing Chains)" contradictions on norvig_hardest line 2
# (bench/data/serate_hardest.csv row 1): (step, the assumption set ON, SE's complexity,
# its nested part: each distinct static chain nested in the walk, once).
SE_NESTED_FC = [(7, (0, 6, 4), 59, 18), (8, (2, 0, 9), 114, 24), (9, (6, 4, 8), 133, 64)]


LEVEL_TWO = se.UNIT_LINKS | se.CELL_LINKS | se.DYNAMIC_LINKS | se.NESTED_LINKS | se.NESTED_CHAINS


def se_board_before(step: int) -> tuple[str, LogicSolver, list[int], list[int]]:
    """SE's board before `step` on norvig_hardest line 2 (serate_hardest row 1): the
    puzzle, a `LogicSolver` on it, its values and candidate masks."""
    puzzle, values, cand = se_grid_before("1", step, "serate_hardest")
    s = LogicSolver(values)
    for cell, mask in enumerate(cand):
        s.restrict(cell, mask)
    return puzzle, s, values, cand


@pytest.mark.parametrize(("step", "assumption", "complexity", "nested"), SE_NESTED_FC)
def test_second_nesting_level_counts_its_nested_chains_as_se(
    step: int, assumption: tuple[int, int, int], complexity: int, nested: int
) -> None:
    puzzle, s, _, _ = se_board_before(step)
    rater = se._Rater(s, se_scale.DEFAULT_BUDGET)
    row, col, digit = assumption
    cell = row * 9 + col
    # Level 1 alone meets no contradiction there (SE: no "(+)" step).
    assert rater.walk(cell, digit, True, LEVEL_TWO & ~se.NESTED_CHAINS)[1] == -1
    _, clash = rater.walk(cell, digit, True, LEVEL_TWO)
    assert rater.last_nested == nested
    # With the nested rules in SE's order, the chain's own part is SE's too.
    assert clash == complexity
    tenths = se_scale.BASE[se_scale.DYNAMIC_PLUS_FC] + se_scale.length_tenths(clash - 2)
    assert tenths == se_scale.BASE[se_scale.DYNAMIC_PLUS_FC] + se_scale.length_tenths(
        complexity - 2
    )
    solution = parse_values(sf.solve(puzzle) or "")
    assert solution[cell] != digit  # the contradiction is sound


@pytest.mark.slow
def test_second_nesting_level_takes_se_s_step() -> None:
    # The whole step on SE's grid before its first "(+ Forcing Chains)" step: no chain
    # of the lower families or of level 1, then SE's conclusion at SE's difficulty.
    _, s, values, cand = se_board_before(7)
    rater = se._Rater(s, se_scale.DEFAULT_BUDGET)
    rater.nesting = 2
    assert rater.chain_step() == 103
    assert rater.last_tech == se_scale.DYNAMIC_PLUS_FC
    gone = [(c, cand[c] & ~s.cand[c]) for c in range(81) if cand[c] != s.cand[c]]
    assert gone == [(6, 1 << 3)]  # r1c7-4, SE's effect
    assert s.values == values


def test_second_nesting_level_double_implication_is_se_s() -> None:
    # SE's step 10 there: r5c8=5 ON and OFF both remove 4 from r5c8, complexity 98 =
    # 2 + 38 (the two walks) + 58 (the distinct nested chains of both, once).
    rater = se._Rater(se_board_before(10)[1], se_scale.DEFAULT_BUDGET)
    cell = 4 * 9 + 7
    on, _ = rater.walk(cell, 5, True, LEVEL_TWO)
    off, _ = rater.walk(cell, 5, False, LEVEL_TWO)
    node = (cell * 9 + 3) << 1
    start = cell * 9 + 4
    nested = rater.nested_sum(rater.links_to(node, [start << 1 | 1, start << 1]))
    assert (on[node], off[node], nested) == (2, 38, 58)


def test_second_nesting_level_keeps_to_the_budget() -> None:
    # The nested search runs inside the walk and stops soon after the budget runs out
    # (SE's grid before its first "(+ Forcing Chains)" step, as above).
    s = se_board_before(7)[1]
    for budget in (100, 1_000, 10_000):
        rater = se._Rater(s, budget)
        assert rater.walk(6, 4, True, LEVEL_TWO)[1] == -1
        assert budget < rater.work <= budget + 2 * 81
        rater = se._Rater(s, budget)
        rater.nesting = 2
        assert rater.chain_step() == -1 and rater.work > budget
    # A whole rating cut short is incomplete, its score the hardest step so far.
    puzzle = parse_values(NESTED_TWO)
    solution = parse_values(sf.solve(NESTED_TWO) or "")
    result = se.rate_se(puzzle, GEO, solution, 50_000, nesting=2)
    assert result.status == se_scale.SE_BUDGET and result.score <= 106
    with pytest.raises(ValueError, match="nesting"):
        se.rate_se(puzzle, GEO, solution, nesting=5)


# Sukaku Explainer 1.18.1's "(+)" and "(+ Forcing Chains)" contradictions on
# rust_sudoku_crate_hard line 3 (bench/data/serate_hardest.csv row 12) and line 17 (row
# 26), whose complexity depends on the order of the rules a dry walk runs on its grid
# (pointing and claiming, hidden pairs, naked pairs, x-wings; each in SE's order of
# units, digits and cells): (row, step, nesting level, the assumption set ON, SE's
# complexity). Row 12 step 8 is SE's 10.4 (98); taken in another order it counted 101,
# 10.5, and the rating ended a tenth under SE's.
SE_NESTED_ORDER = [
    ("12", 6, 1, (4, 2, 3), 92),
    ("12", 11, 1, (5, 6, 7), 131),
    ("26", 15, 1, (5, 0, 3), 48),
    ("12", 3, 2, (6, 6, 9), 96),
    ("12", 8, 2, (6, 7, 3), 98),
    ("12", 10, 2, (2, 8, 7), 117),
]


@pytest.mark.parametrize(("row", "step", "level", "assumption", "complexity"), SE_NESTED_ORDER)
def test_nested_rules_run_in_se_s_order(
    row: str, step: int, level: int, assumption: tuple[int, int, int], complexity: int
) -> None:
    _, values, cand = se_grid_before(row, step, "serate_hardest")
    r, c, digit = assumption
    cell = r * 9 + c
    mode = LEVEL_TWO if level == 2 else LEVEL_TWO & ~se.NESTED_CHAINS
    rater = se._Rater(solver_on(values, cand), se_scale.DEFAULT_BUDGET)
    reached, clash = rater.walk(cell, digit, True, mode)
    assert clash == complexity
    c_clash, _, c_work, c_reached = _se.se_walk(
        _logic.tables_for(GEO), bytes(values), array("Q", cand), cell, digit, True, mode,
        se_scale.DEFAULT_BUDGET,
    )  # fmt: skip
    assert (c_clash, c_reached, c_work) == (clash, reached, rater.work)


def test_rust_line_3_reaches_se_s_bound() -> None:
    # SE stopped on its time limit after a 10.6 step; in SE's order of the nested
    # rules the rating reaches 10.6 too (10.5 before), every step sound.
    puzzle = hardest_puzzle("12")
    rating = sf.rate(puzzle, score=True)
    assert rating.score_complete
    assert rating.score == 10.6


# The compiled rater's second nesting level against the twin's, walk by walk, node for
# node, on SE's grids of norvig_hardest line 2: the (+ Forcing Chains) contradictions
# above, both walks of the double implication (step 10), and walks that meet none.
COMPILED_NESTED_WALKS = [
    (7, 6, 4, True),
    (8, 18, 9, True),
    (9, 58, 8, True),
    (10, 43, 5, True),
    (10, 43, 5, False),
    (7, 6, 4, False),
    (7, 0, 1, True),
]


@pytest.mark.parametrize(("step", "cell", "digit", "on"), COMPILED_NESTED_WALKS)
def test_compiled_second_nesting_level_walks_are_the_twins(
    step: int, cell: int, digit: int, on: bool
) -> None:
    _, s, values, cand = se_board_before(step)
    if not cand[cell] >> (digit - 1) & 1:
        pytest.skip("not a candidate there")
    rater = se._Rater(s, se_scale.DEFAULT_BUDGET)
    reached, clash = rater.walk(cell, digit, on, LEVEL_TWO)
    nested = rater.last_nested if clash >= 0 else 0
    tables = _logic.tables_for(GEO)
    c_clash, c_nested, c_work, c_reached = _se.se_walk(
        tables, bytes(values), array("Q", cand), cell, digit, on, LEVEL_TWO,
        se_scale.DEFAULT_BUDGET,
    )  # fmt: skip
    assert (c_clash, c_nested, c_reached) == (clash, nested, reached)
    assert c_work == rater.work
    # The twin's se_walk, given the compiled one's arguments, walks the same way.
    twin = se.se_walk(
        tables, bytes(values), array("Q", cand), cell, digit, on, LEVEL_TWO,
        se_scale.DEFAULT_BUDGET,
    )  # fmt: skip
    assert twin == (c_clash, c_nested, c_work, c_reached)


def test_compiled_second_nesting_level_takes_se_s_step() -> None:
    # SE's grid before its first "(+ Forcing Chains)" step (the twin's slow test above):
    # no chain below level 2, then SE's conclusion r1c7-4 at SE's 10.3.
    puzzle, _, values, cand = se_board_before(7)
    solution = parse_values(sf.solve(puzzle) or "")
    tables = _logic.tables_for(GEO)
    _, _, _, _, records = _se.se_path(
        tables, bytes(values), bytes(solution), se_scale.DEFAULT_BUDGET,
        array("Q", cand), 1, 2,
    )  # fmt: skip
    tech, tenths, after, left, _ = records[0]
    assert (tech, tenths) == (se_scale.DYNAMIC_PLUS_FC, 103)
    gone = [(c, cand[c] & ~left[c]) for c in range(81) if cand[c] != left[c]]
    assert gone == [(6, 1 << 3)]
    assert list(after) == values
    # Without level 2 the compiled ladder ends there.
    _, _, _, _, records = _se.se_path(
        tables, bytes(values), bytes(solution), se_scale.DEFAULT_BUDGET,
        array("Q", cand), 1,
    )  # fmt: skip
    assert records[0][0] == se_scale.BEYOND


# rust_sudoku_crate_hard line 17 (bench/data/serate_hardest.csv row 26): Sukaku
# Explainer 1.18.1 rates it 10.3, "Dynamic Region Forcing Chains (+ Forcing Chains)".
LEVEL_TWO_REGION = (
    "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3"
)


def test_rate_covers_the_second_nesting_level() -> None:
    rating = sf.rate(LEVEL_TWO_REGION, score=True)
    assert rating.score == 10.3 and rating.score_complete
    assert rating.score_technique == "dynamic forcing chain (+ forcing chains)"
    # Every step sound: each value placed and each candidate left is the solution's.
    values = parse_values(LEVEL_TWO_REGION)
    solution = parse_values(sf.solve(LEVEL_TWO_REGION) or "")
    tables = _logic.tables_for(GEO)
    *_, records = _se.se_path(
        tables, bytes(values), bytes(solution), se_scale.DEFAULT_BUDGET, None, -1, 2
    )
    assert any(r[0] == se_scale.DYNAMIC_PLUS_FC for r in records)
    for _, _, after, left, _ in records:
        for cell in range(81):
            assert after[cell] in (0, solution[cell])
            assert left[cell] >> (solution[cell] - 1) & 1 or after[cell]
    # A budget that runs out inside it leaves an incomplete score, a lower bound.
    for budget in (100_000, 1_000_000):
        cut = sf.rate(LEVEL_TWO_REGION, score=True, score_budget=budget)
        assert not cut.score_complete
        assert cut.score is not None and cut.score <= 10.3


# Sukaku Explainer 1.18.1's "(+ Multiple Forcing Chains)" contradictions on
# rust_sudoku_crate_hard puzzles (bench/data/serate_hardest.csv rows): (row, step, the
# assumption set ON (row, column, digit), SE's complexity, its nested part).
SE_NESTED_MFC = [
    ("15", 2, (0, 6, 6), 85, 54),
    ("16", 2, (2, 0, 2), 131, 84),
    ("13", 5, (2, 4, 4), 353, 206),
]
LEVEL_THREE = LEVEL_TWO | se.NESTED_MULTIPLE


def solver_on(values: list[int], cand: list[int]) -> LogicSolver:
    """A `LogicSolver` on these values with each cell's candidates narrowed to `cand`."""
    s = LogicSolver(values)
    for cell, mask in enumerate(cand):
        s.restrict(cell, mask)
    return s


@pytest.mark.parametrize(("row", "step", "assumption", "complexity", "nested"), SE_NESTED_MFC)
def test_third_nesting_level_walks_are_se_s(
    row: str, step: int, assumption: tuple[int, int, int], complexity: int, nested: int
) -> None:
    puzzle, values, cand = se_grid_before(row, step, "serate_hardest")
    s = solver_on(values, cand)
    r, c, digit = assumption
    cell = r * 9 + c
    rater = se._Rater(s, se_scale.DEFAULT_BUDGET)
    reached, clash = rater.walk(cell, digit, True, LEVEL_THREE)
    # SE's complexity and its nested part exactly, so SE's difficulty.
    assert (clash, rater.last_nested) == (complexity, nested)
    solution = parse_values(sf.solve(puzzle) or "")
    assert solution[cell] != digit  # the contradiction is sound
    # The compiled walk is the twin's, node for node, work counted alike; so is the
    # twin's se_walk given the compiled one's arguments.
    tables = _logic.tables_for(GEO)
    walked = _se.se_walk(
        tables, bytes(values), array("Q", cand), cell, digit, True, LEVEL_THREE,
        se_scale.DEFAULT_BUDGET,
    )  # fmt: skip
    assert walked == (clash, rater.last_nested, rater.work, reached)
    twin_walked = se.se_walk(
        tables, bytes(values), array("Q", cand), cell, digit, True, LEVEL_THREE,
        se_scale.DEFAULT_BUDGET,
    )  # fmt: skip
    assert twin_walked == walked


def test_compiled_third_nesting_level_walks_without_a_contradiction_are_the_twins() -> None:
    # Walks that meet no contradiction run every round of nested rules until dry: the
    # OFF walk of SE's first (+MFC) assumption on row 15, and two other candidates.
    _, _, cand = se_grid_before("15", 2, "serate_hardest")
    others = [(cell, d + 1, True) for cell in (0, 40) for d in range(9) if cand[cell] >> d & 1]
    assert_walks_are_the_twins("15", 2, [(6, 6, False), *others[:2]], LEVEL_THREE)


def assert_walks_are_the_twins(
    row: str,
    step: int,
    walks: list[tuple[int, int, bool]],
    mode: int,
    budget: int = se_scale.DEFAULT_BUDGET,
) -> None:
    """Each (cell, digit, ON) walk from SE's grid before `step` of serate_hardest row
    `row`: the compiled `se_walk` equals the twin rater's walk (node for node, work)."""
    _, values, cand = se_grid_before(row, step, "serate_hardest")
    tables = _logic.tables_for(GEO)
    for cell, digit, on in walks:
        rater = se._Rater(solver_on(values, cand), budget)
        reached, clash = rater.walk(cell, digit, on, mode)
        nested = rater.last_nested if clash >= 0 else 0
        walked = _se.se_walk(tables, bytes(values), array("Q", cand), cell, digit, on, mode, budget)
        assert walked == (clash, nested, rater.work, reached)


def test_compiled_third_nesting_level_takes_se_s_step() -> None:
    # SE's grid before its first "(+ Multiple Forcing Chains)" step of row 15: level 2
    # finds nothing (a "beyond" step at 10.0), level 3 SE's difficulty, 10.9, with SE's
    # r1c7-6 among its removals, each of them sound.
    puzzle, values, cand = se_grid_before("15", 2, "serate_hardest")
    solution = parse_values(sf.solve(puzzle) or "")
    tables = _logic.tables_for(GEO)
    for nesting, expected in ((2, (se_scale.BEYOND, 100)), (3, (se_scale.DYNAMIC_PLUS_MFC, 109))):
        _, _, _, status, records = _se.se_path(
            tables, bytes(values), bytes(solution), se_scale.DEFAULT_BUDGET,
            array("Q", cand), 1, nesting,
        )  # fmt: skip
        tech, tenths, after, left, _ = records[0]
        assert (tech, tenths) == expected
    gone = {(c, d) for c in range(81) for d in range(9) if (cand[c] & ~left[c]) >> d & 1}
    assert (6, 5) in gone  # r1c7-6
    assert all(solution[c] != d + 1 for c, d in gone)
    assert list(after) == values and status == se_scale.SE_OK


def test_third_nesting_level_keeps_to_the_budget() -> None:
    _, values, cand = se_grid_before("15", 2, "serate_hardest")
    s = solver_on(values, cand)
    tables = _logic.tables_for(GEO)
    for budget in (1_000, 10_000, 30_000):
        rater = se._Rater(s, budget)
        assert rater.walk(6, 6, True, LEVEL_THREE)[1] == -1
        # A budget spent inside the cell and region walks stops after the candidate's
        # region walks (at most 2 * 9 walks of one board's nodes each).
        assert budget < rater.work <= budget + 18 * 2 * 81 * 9
        walked = _se.se_walk(
            tables, bytes(values), array("Q", cand), 6, 6, True, LEVEL_THREE, budget
        )
        assert walked[0] == -1 and budget < walked[2] <= budget + 18 * 2 * 81 * 9
    # A whole rating cut short is incomplete, its score a lower bound.
    puzzle = hardest_puzzle("15")
    solution = parse_values(sf.solve(puzzle) or "")
    score, _, _, status, _ = _se.se_path(
        tables, bytes(parse_values(puzzle)), bytes(solution), 200_000, None, -1, 3
    )
    assert status == se_scale.SE_BUDGET and score <= 110


def test_budget_cuts_leave_the_same_path_so_far() -> None:
    # Row 13 of serate_hardest.csv (SE 11.3): its level-2 and level-3 rounds reuse
    # the hint lists of grids met before, charging their work again. A budget cut
    # anywhere, inside a reused round or not, must leave the steps so far exactly
    # those of the whole rating, and a lower bound.
    puzzle = hardest_puzzle("13")
    tables = _logic.tables_for(GEO)
    args = (bytes(parse_values(puzzle)), bytes(parse_values(sf.solve(puzzle) or "")))
    score, _, steps, status, records = _se.se_path(
        tables, *args, se_scale.DEFAULT_BUDGET, None, -1, 3
    )
    assert (score, status) == (113, se_scale.SE_OK)
    for budget in (1_000_000, 3_000_000, 10_000_000, 30_000_000):
        cut_score, _, _, cut_status, cut = _se.se_path(tables, *args, budget, None, -1, 3)
        assert cut_status == se_scale.SE_BUDGET and cut_score <= score
        assert 0 < len(cut) < steps and cut == records[: len(cut)]


def test_rate_covers_the_third_nesting_level() -> None:
    # rust_sudoku_crate_hard row 15 of bench/data/serate_hardest.csv: Sukaku Explainer
    # 1.18.1 rates it 10.9, "Dynamic Contradiction Forcing Chains (+ Multiple Forcing
    # Chains)".
    puzzle = hardest_puzzle("15")
    rating = sf.rate(puzzle, score=True)
    assert rating.score == 10.9 and rating.score_complete
    assert rating.score_technique == "dynamic forcing chain (+ multiple forcing chains)"
    # A budget that runs out inside it leaves an incomplete score, a lower bound.
    cut = sf.rate(puzzle, score=True, score_budget=2_000_000)
    assert not cut.score_complete
    assert cut.score is not None and cut.score <= 10.9


# Sukaku Explainer 1.18.1's "(+ Dynamic Forcing Chains)" contradictions on
# rust_sudoku_crate_hard puzzles (bench/data/serate_hardest.csv rows): (row, step, the
# assumption set ON (row, column, digit), SE's complexity, its nested part). At its
# fourth level SE runs its plain dynamic forcing chains on a dry walk's grid instead of
# the static rules of levels 2 and 3.
SE_NESTED_DFC = [
    ("18", 4, (8, 4, 6), 226, 168),
    ("19", 4, (8, 5, 3), 214, 164),
    ("21", 1, (7, 4, 7), 162, 113),
]
LEVEL_FOUR = LEVEL_TWO | se.NESTED_DYNAMIC


@pytest.mark.parametrize(("row", "step", "assumption", "complexity", "nested"), SE_NESTED_DFC)
def test_fourth_nesting_level_walks_are_se_s(
    row: str, step: int, assumption: tuple[int, int, int], complexity: int, nested: int
) -> None:
    puzzle, values, cand = se_grid_before(row, step, "serate_hardest")
    r, c, digit = assumption
    cell = r * 9 + c
    rater = se._Rater(solver_on(values, cand), se_scale.DEFAULT_BUDGET)
    _, clash = rater.walk(cell, digit, True, LEVEL_FOUR)
    # SE's complexity and its nested part exactly, so SE's difficulty.
    assert (clash, rater.last_nested) == (complexity, nested)
    tenths = se_scale.BASE[se_scale.DYNAMIC_PLUS_DFC] + se_scale.length_tenths(clash - 2)
    se_rating = {"18": 117, "19": 117, "21": 116}[row]
    assert tenths == se_rating
    solution = parse_values(sf.solve(puzzle) or "")
    assert solution[cell] != digit  # the contradiction is sound
    # Level 3 alone finds no contradiction from this assumption, or a longer one.
    rater = se._Rater(solver_on(values, cand), se_scale.DEFAULT_BUDGET)
    _, clash_three = rater.walk(cell, digit, True, LEVEL_THREE)
    assert clash_three < 0 or clash_three > complexity


def test_fourth_nesting_level_region_chain_is_se_s() -> None:
    # SE's step 2 on row 20: "Region Forcing Chains: 1 in row ==> r1c4.2 off" (11.8,
    # complexity 330, flat 35): the digit's places in row 4, walked at level 4, all
    # reach r1c4.2 OFF; their counts and the distinct nested chains once give SE's.
    puzzle, values, cand = se_grid_before("20", 2, "serate_hardest")
    rater = se._Rater(solver_on(values, cand), se_scale.DEFAULT_BUDGET)
    n = 9
    target = (3 * n + 2 - 1) << 1  # r1c4 (cell 3), digit 2, OFF
    places = [27 + i for i in range(9) if cand[27 + i] & 1 and not values[27 + i]]
    starts = [((cell * n) << 1) | 1 for cell in places]
    flat = 0
    for cell in places:
        reached, _ = rater.walk(cell, 1, True, LEVEL_FOUR)
        flat += reached[target]
    nested = rater.nested_sum(rater.links_to(target, starts))
    assert (flat + nested, flat) == (330, 35)
    assert (
        se_scale.BASE[se_scale.DYNAMIC_PLUS_DFC] + se_scale.length_tenths(flat + nested - 2) == 118
    )
    solution = parse_values(sf.solve(puzzle) or "")
    assert solution[3] != 2


@pytest.mark.parametrize(("row", "step", "assumption", "complexity", "nested"), SE_NESTED_DFC)
def test_fourth_nesting_level_walks_are_the_same_on_both_sides(
    side: Side,
    row: str,
    step: int,
    assumption: tuple[int, int, int],
    complexity: int,
    nested: int,
) -> None:
    # SE's level-4 contradictions walked by `se_walk`, compiled and twin: SE's
    # complexity and nested part, and on either side the twin rater's walk node for
    # node, with the work counted alike.
    _, values, cand = se_grid_before(row, step, "serate_hardest")
    r, c, digit = assumption
    cell = r * 9 + c
    walked = side.module(_se).se_walk(
        _logic.tables_for(GEO), bytes(values), array("Q", cand), cell, digit, True,
        LEVEL_FOUR, se_scale.DEFAULT_BUDGET,
    )  # fmt: skip
    assert walked[:2] == (complexity, nested)
    rater = se._Rater(solver_on(values, cand), se_scale.DEFAULT_BUDGET)
    reached, clash = rater.walk(cell, digit, True, LEVEL_FOUR)
    assert walked == (clash, rater.last_nested, rater.work, reached)


def test_compiled_fourth_nesting_level_walks_without_a_contradiction_are_the_twins() -> None:
    # Walks that meet no contradiction run every round of level 4's rules until dry
    # (each dry round a whole dynamic forcing chain search on the walk's grid).
    _, _, cand = se_grid_before("21", 1, "serate_hardest")
    first = next(d + 1 for d in range(9) if cand[0] >> d & 1)
    assert_walks_are_the_twins("21", 1, [(7 * 9 + 4, 7, False), (0, first, True)], LEVEL_FOUR)
    # Budgets that run out inside the dynamic searches of SE's contradiction walk stop
    # both sides at the same step.
    for budget in (1_000, 5_000, 10_000, 14_000):  # the whole walk: 14,200 steps
        assert_walks_are_the_twins("21", 1, [(7 * 9 + 4, 7, True)], LEVEL_FOUR, budget)


def test_compiled_fourth_nesting_level_takes_se_s_step() -> None:
    # SE's grid before its first "(+ Dynamic Forcing Chains)" step of row 21 (11.6):
    # level 3 finds nothing (a "beyond" step at 10.5), level 4 SE's difficulty, with
    # SE's r8c5-7 among its removals, each of them sound.
    puzzle, values, cand = se_grid_before("21", 1, "serate_hardest")
    solution = parse_values(sf.solve(puzzle) or "")
    tables = _logic.tables_for(GEO)
    expected = ((3, (se_scale.BEYOND, 105)), (4, (se_scale.DYNAMIC_PLUS_DFC, 116)))
    for nesting, (tech, tenths) in expected:
        _, _, _, status, records = _se.se_path(
            tables, bytes(values), bytes(solution), se_scale.DEFAULT_BUDGET,
            array("Q", cand), 1, nesting,
        )  # fmt: skip
        assert records[0][:2] == (tech, tenths)
        left = records[0][3]
    gone = {(c, d) for c in range(81) for d in range(9) if (cand[c] & ~left[c]) >> d & 1}
    assert (7 * 9 + 4, 6) in gone  # r8c5-7
    assert all(solution[c] != d + 1 for c, d in gone)
    assert status == se_scale.SE_OK


def test_rate_covers_the_fourth_nesting_level() -> None:
    # rust_sudoku_crate_hard row 20 of bench/data/serate_hardest.csv: Sukaku Explainer
    # 1.18.1 timed out at 11.8 ("Dynamic Region Forcing Chains (+ Dynamic Forcing
    # Chains)"), a lower bound; the rater finishes it there, every step sound.
    puzzle = hardest_puzzle("20")
    rating = sf.rate(puzzle, score=True)
    assert rating.score == 11.8 and rating.score_complete
    assert rating.score_technique == "dynamic forcing chain (+ dynamic forcing chains)"
    solution = parse_values(sf.solve(puzzle) or "")
    *_, records = _se.se_path(
        _logic.tables_for(GEO), bytes(parse_values(puzzle)), bytes(solution),
        se_scale.DEFAULT_BUDGET, None, -1, se_scale.NESTING,
    )  # fmt: skip
    assert any(r[0] == se_scale.DYNAMIC_PLUS_DFC for r in records)
    for _, _, after, left, _ in records:
        for cell in range(81):
            assert after[cell] in (0, solution[cell])
            assert left[cell] >> (solution[cell] - 1) & 1 or after[cell]
    # A budget that runs out inside it leaves an incomplete score, a lower bound.
    cut = sf.rate(puzzle, score=True, score_budget=5_000_000)
    assert not cut.score_complete
    assert cut.score is not None and cut.score <= 11.8


def test_compiled_rater_refuses_a_fifth_nesting_level() -> None:
    puzzle = parse_values(NESTED_TWO)
    solution = parse_values(sf.solve(NESTED_TWO) or "")
    with pytest.raises(ValueError, match="nesting"):
        _se.se_path(_logic.tables_for(GEO), bytes(puzzle), bytes(solution), 1000, nesting=5)
