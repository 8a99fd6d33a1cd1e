"""One ladder of levels: bands of the Sudoku Explainer score for `rate`, `score_level`
and `generate(difficulty=...)`, with the thresholds in one place and in the docs."""

from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import generate_many_reference

import sudoku_fast as sf
from sudoku_fast import generator, rating
from sudoku_fast._base import se_scale
from sudoku_fast._base.levels import LEVEL_NAMES
from sudoku_fast._base.records import Rating
from sudoku_fast.generator import iter_generate


def _text(tenths: int) -> str:
    return f"{tenths / 10:.1f}"


def test_the_bands_cover_the_scale_without_overlap() -> None:
    bands = se_scale.LEVEL_BANDS
    assert sorted(bands) == sorted(LEVEL_NAMES)
    assert bands[1][0] == 10 and bands[max(bands)][1] == se_scale.TOP_SCORE
    for level in range(1, max(bands)):
        assert bands[level][1] + 1 == bands[level + 1][0]  # adjacent, no gap, no overlap
    for level, (low, high) in bands.items():
        assert low <= high
        assert sf.score_level(low / 10) == sf.score_level(high / 10) == level
    assert [bands[k][0] for k in range(2, max(bands) + 1)] == list(se_scale.SCORE_LEVEL_STARTS)


def _words(text: str | None) -> str:
    return " ".join((text or "").split())


def test_the_thresholds_are_written_where_users_read_them() -> None:
    bands = se_scale.LEVEL_BANDS
    generate_help = subprocess.run(
        [sys.executable, "-m", "sudoku_fast", "generate", "--help"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    for level, (low, high) in bands.items():
        name = LEVEL_NAMES[level]
        if 1 < level < max(bands):
            span = f"{_text(low)} to {_text(high)}"
            assert span in _words(sf.score_level.__doc__), span
            assert span in _words(rating.__doc__), span
            dashed = f"{name} {_text(low)}-{_text(high)}"
            assert dashed in _words(sf.generate.__doc__), dashed
            assert dashed in _words(generate_help), dashed
        if level > 1:
            assert f"{_text(low)} {name}" in _words(Rating.__doc__), (low, name)
    top = max(bands)
    assert f"{_text(bands[top][0])} and up" in _words(rating.__doc__)
    assert f"up to {_text(bands[1][1])}" in _words(rating.__doc__)


@pytest.mark.parametrize("level", sorted(generator.DIFFICULTIES.values()))
def test_each_level_generates_inside_its_band(level: int) -> None:
    low, high = se_scale.LEVEL_BANDS[level]
    puzzles = sf.generate_many(3, difficulty=level, seed=11, threads=2)
    assert len(set(puzzles)) == 3 and sf.count_many(puzzles) == [1, 1, 1]
    scored = sf.rate_many(puzzles, score=True)
    plain = sf.rate_many(puzzles)
    for puzzle, with_score, without in zip(puzzles, scored, plain, strict=True):
        assert with_score.score is not None and with_score.score_complete
        assert low <= round(with_score.score * 10) <= high, (puzzle, with_score.score)
        assert with_score.level == level and with_score.name == LEVEL_NAMES[level]
        # Aimed at the technique level of the same number: both ladders agree.
        assert without.level == level == with_score.technique_level
    assert sf.generate_many(3, difficulty=LEVEL_NAMES[level], seed=11, threads=1) == puzzles


def test_a_level_puzzle_depends_on_its_seed_alone() -> None:
    many = sf.generate_many(4, difficulty="hard", seed=3, threads=2)
    assert sf.generate_many(2, difficulty="hard", seed=3, threads=1) == many[:2]
    chunks = list(iter_generate(4, "hard", seed=3, chunk=3, threads=1))
    assert [len(c) for c in chunks] == [3, 1] and [p for c in chunks for p in c] == many
    assert sf.generate(difficulty="hard", seed=3) == many[0]
    # The pure-Python twins of the generator and both raters make the same puzzles.
    assert generate_many_reference(1, difficulty="medium", seed=3) == sf.generate_many(
        1, difficulty="medium", seed=3
    )


def test_not_minimal_and_symmetric_levels_stay_in_the_band() -> None:
    for kwargs in ({"minimal": False}, {"symmetry": "rotational"}):
        puzzle = sf.generate(difficulty="expert", seed=2, **kwargs)  # type: ignore[arg-type]
        r = sf.rate(puzzle, score=True)
        assert r.name == "expert" and 4.0 <= (r.score or 0) <= 5.9, kwargs


def test_other_sizes_keep_the_technique_level() -> None:
    puzzle = sf.generate(difficulty="expert", size=6, seed=1, minimal=False)
    r = sf.rate(puzzle, score=True)
    assert r.score is None and r.level == r.technique_level == 4


def test_a_level_the_candidates_miss_says_which(monkeypatch: pytest.MonkeyPatch) -> None:
    chunks = iter_generate(6, "extreme", seed=1, chunk=4, threads=1)
    assert len(next(chunks)) == 4
    monkeypatch.setattr(generator, "SCORE_CANDIDATES", 0)
    with pytest.raises(RuntimeError, match=r"puzzle 4: no 9x9 puzzle scored 6\.0-8\.9 in 0"):
        next(chunks)
    with pytest.raises(RuntimeError, match=r"puzzle 0: no 9x9 puzzle scored 3\.0-3\.9 in 0"):
        sf.generate_many(2, difficulty="hard", seed=1)
    assert len(sf.generate(size=6, difficulty="easy", seed=1)) == 36  # no SE candidates


def test_a_lower_bound_gives_a_lower_bound_level() -> None:
    puzzle = "..9.8.5...2.7..49.75......6...5.8.6.5.......1.7.9.6...1......29.63..9.1...5.7.6.."
    cut = sf.rate(puzzle, score=True, score_budget=2000)  # SE 8.7, a dynamic forcing chain
    full = sf.rate(puzzle, score=True)
    assert not cut.score_complete and full.score_complete
    assert cut.level == sf.score_level(cut.score or 0.0) <= full.level
    assert full.level == sf.score_level(full.score or 0.0)
