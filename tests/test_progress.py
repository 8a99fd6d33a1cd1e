"""progress= in the long batch calls: reports (done, total) from the caller's thread between
blocks, and the answers, errors and warnings are those of the same call without it."""

from __future__ import annotations

import csv
import sys
import threading
import warnings
from pathlib import Path
from typing import Any

import pytest

import sudoku_fast as sf
from sudoku_fast import ItemErrorsWarning
from sudoku_fast._columns import blocks

DATA = Path(__file__).parent / "data"


def kaggle(n: int = 500) -> tuple[list[str], list[str]]:
    with open(DATA / "kaggle_bryanpark_sample500_with_solutions.csv", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))[:n]
    return [r["puzzle"] for r in rows], [r["solution"] for r in rows]


class Recorder:
    """A progress callback that keeps every report and the thread it came from."""

    def __init__(self) -> None:
        self.reports: list[tuple[int, int]] = []
        self.threads: set[int] = set()

    def __call__(self, done: int, total: int) -> None:
        self.reports.append((done, total))
        self.threads.add(threading.get_ident())

    def check(self, total: int, blocks_at_least: int = 1) -> None:
        """Reports start at 0, grow, end at total, all of them from this thread."""
        assert self.reports[0] == (0, total)
        assert self.reports[-1] == (total, total)
        done = [d for d, _ in self.reports]
        assert done == sorted(done) and len(set(done)) == len(done)
        assert {t for _, t in self.reports} == {total}
        assert len(self.reports) >= 1 + blocks_at_least
        assert self.threads == {threading.get_ident()}


@pytest.fixture
def small_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Blocks of MIN_BLOCK items (64), so that a batch of 500 runs in 8 of them."""
    monkeypatch.setattr(blocks, "BLOCK_SECONDS", 0.0)
    monkeypatch.setattr(blocks, "FIRST_BLOCK", blocks.MIN_BLOCK)


@pytest.mark.usefixtures("small_blocks")
def test_solve_many_reports_and_answers_as_without() -> None:
    puzzles, solutions = kaggle()
    seen = Recorder()
    assert sf.solve_many(puzzles, threads=2, progress=seen) == solutions
    seen.check(len(puzzles), blocks_at_least=8)


def column_inputs(puzzles: list[str]) -> list[Any]:
    np = pytest.importorskip("numpy")
    pa = pytest.importorskip("pyarrow")
    pd = pytest.importorskip("pandas")
    values = np.array([[0 if c == "." else int(c) for c in p] for p in puzzles], dtype=np.uint8)
    half = len(puzzles) // 2
    inputs = [
        tuple(puzzles),
        iter(puzzles),  # read once
        np.array(puzzles),
        values,
        values.reshape(-1, 9, 9),
        pa.array(puzzles),
        pa.chunked_array([puzzles[:half], puzzles[half:]]),
        pd.Series(puzzles, index=[f"p{i}" for i in range(len(puzzles))]),
    ]
    try:
        import polars as pl

        inputs.append(pl.Series("puzzle", puzzles))
    except ImportError:
        pass
    return inputs


def same(a: Any, b: Any) -> bool:
    """Equal answers of any kind (list, numpy, Arrow, pandas, polars), index included."""
    if isinstance(a, list):
        return a == b
    module = type(a).__module__.partition(".")[0]
    if module == "numpy":
        import numpy as np

        return bool(np.array_equal(a, b)) and a.dtype == b.dtype
    if module == "pyarrow":
        return bool(a.equals(b))
    if module == "pandas":
        return bool(a.equals(b)) and list(a.index) == list(b.index)
    if module == "polars":
        return bool(a.equals(b))
    raise AssertionError(f"unexpected answer {type(a)}")


@pytest.mark.usefixtures("small_blocks")
@pytest.mark.parametrize("output", [None, "list", "arrow", "like"])
def test_every_input_kind_and_output_joins_as_without(output: str | None) -> None:
    puzzles, _ = kaggle(300)
    for make in range(len(column_inputs(puzzles))):
        for function in (sf.solve_many, sf.count_many):
            plain = function(column_inputs(puzzles)[make], output=output, threads=2)
            seen = Recorder()
            got = function(column_inputs(puzzles)[make], output=output, threads=2, progress=seen)
            assert same(got, plain), (function.__name__, make, output)
            seen.check(len(puzzles), blocks_at_least=4)


@pytest.mark.usefixtures("small_blocks")
def test_rate_check_canonical_and_generate_report_too() -> None:
    puzzles, solutions = kaggle(200)
    for function in (sf.rate_many, sf.canonical_many, sf.canonical_transform_many):
        seen = Recorder()
        assert function(puzzles, threads=2, progress=seen) == function(puzzles, threads=2)
        seen.check(len(puzzles), blocks_at_least=3)
    pa = pytest.importorskip("pyarrow")
    ratings = sf.rate_many(puzzles, output="arrow", threads=2)
    assert sf.rate_many(puzzles, output="arrow", progress=Recorder()).equals(ratings)
    seen = Recorder()
    wrong = [*solutions[:-1], solutions[0]]
    checked = sf.check_many(pa.array(puzzles), pa.array(wrong), threads=2, progress=seen)
    assert checked.tolist() == [True] * 199 + [False]
    seen.check(len(puzzles), blocks_at_least=3)
    seen = Recorder()
    made = sf.generate_many(12, difficulty="easy", seed=3, threads=2, progress=seen)
    assert made == sf.generate_many(12, difficulty="easy", seed=3, threads=2)
    seen.check(12, blocks_at_least=1)


def test_blocks_grow_to_a_quarter_second_and_the_first_is_small() -> None:
    puzzles, _ = kaggle()
    seen = Recorder()
    sf.solve_many(puzzles * 10, threads=2, progress=seen)
    assert seen.reports[1][0] == blocks.FIRST_BLOCK  # the first report comes soon
    seen.check(len(puzzles) * 10)
    assert len(seen.reports) <= 4  # 5,000 easy puzzles take far less than 0.25 s a block


@pytest.mark.usefixtures("small_blocks")
def test_errors_name_the_item_in_the_whole_batch() -> None:
    puzzles, _ = kaggle(300)
    for bad, message in (
        ("x" + puzzles[0][1:], "puzzle 200: unexpected character 'x'"),
        ("1.3..4.........2", "puzzle 200: a 4x4 puzzle in a batch of 9x9 puzzles"),
        (None, "puzzle 200: must be a str"),
    ):
        batch: list[Any] = [*puzzles[:200], bad, *puzzles[200:]]
        errors = []
        for progress in (None, Recorder()):
            with pytest.raises((ValueError, TypeError)) as caught:
                sf.solve_many(batch, threads=2, progress=progress)
            errors.append(str(caught.value))
        assert errors[0] == errors[1] and errors[0].startswith(message), errors
    # A 4x4 puzzle starting a later block (192 = 3 blocks of 64) still makes the batch fail.
    batch = [*puzzles[:192], "1.3..4.........2", *puzzles[192:]]
    with pytest.raises(ValueError, match="puzzle 192: a 4x4 puzzle in a batch of 9x9"):
        sf.count_many(batch, progress=Recorder())


@pytest.mark.usefixtures("small_blocks")
def test_on_error_warn_gives_one_warning_for_the_whole_batch() -> None:
    pd = pytest.importorskip("pandas")
    puzzles, _ = kaggle(300)
    batch: list[Any] = list(puzzles)
    for at in (3, 70, 250):
        batch[at] = "bad"
    series = pd.Series(batch, index=range(1000, 1300))
    for data, labels in ((batch, [3, 70, 250]), (series, [1003, 1070, 1250])):
        caught = []
        answers = []
        for progress in (None, Recorder()):
            with warnings.catch_warnings(record=True) as record:
                warnings.simplefilter("always")
                answers.append(sf.solve_many(data, on_error="warn", progress=progress))
            [warning] = [w for w in record if issubclass(w.category, ItemErrorsWarning)]
            assert warning.filename == __file__  # points at the caller's line
            caught.append(warning.message)
        assert answers[0] == answers[1]
        assert [a is None for a in answers[1]].count(True) == 3
        assert caught[0].positions == caught[1].positions == [3, 70, 250]
        assert list(caught[1].errors) == labels and caught[0].errors == caught[1].errors
        assert str(caught[0]) == str(caught[1])


@pytest.mark.usefixtures("small_blocks")
def test_a_search_limit_is_raised_once_with_every_block_s_puzzles() -> None:
    with open(DATA / "sudoku16_misc.csv", encoding="utf-8") as f:
        sixteen = [row["puzzle"] for row in csv.DictReader(f)][:3]
    batch = (sixteen + ["." * 256] * 40) * 4  # 172 puzzles: blocks of 64
    errors = []
    for progress in (None, Recorder()):
        with pytest.raises(sf.SearchLimitExceeded) as caught:
            sf.count_many(batch, max_nodes=5, progress=progress, threads=1)
        errors.append(caught.value)
    assert errors[0].indices == errors[1].indices and len(errors[0].indices) > 1
    assert str(errors[0]) == str(errors[1])
    assert errors[0].partial == errors[1].partial


def test_progress_true_draws_tqdm_s_bar_or_a_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    puzzles, solutions = kaggle(100)
    pytest.importorskip("tqdm")
    assert sf.solve_many(puzzles, progress=True) == solutions
    err = capsys.readouterr().err
    assert "solve_many" in err and "100/100" in err and "puzzle/s" in err  # tqdm's bar
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)  # as if tqdm were not installed
    assert sf.count_many(puzzles, progress=True) == [1] * 100
    err = capsys.readouterr().err
    assert err.splitlines()[-1] == "count_many: 100/100 puzzles (100%)"


def test_a_callback_may_stop_the_batch_and_a_bad_one_is_refused() -> None:
    puzzles, _ = kaggle()

    def stop(done: int, total: int) -> None:
        if done:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        sf.solve_many(puzzles, progress=stop)
    with pytest.raises(TypeError, match="progress must be a callable"):
        sf.solve_many(puzzles, progress="yes")  # type: ignore[call-overload]
    assert sf.solve_many(puzzles, progress=False) == sf.solve_many(puzzles)
    seen = Recorder()
    assert sf.solve_many([], progress=seen) == [] and seen.reports == [(0, 0)]


def test_generate_many_reports_a_score_band_as_it_fills() -> None:
    seen = Recorder()
    made = sf.generate_many(2, seed=5, score=(1.2, 1.5), threads=2, progress=seen)
    assert made == sf.generate_many(2, seed=5, score=(1.2, 1.5), threads=2)
    seen.check(2)


@pytest.mark.usefixtures("small_blocks")
def test_rules_one_per_puzzle_are_cut_where_the_blocks_are() -> None:
    """A list of rules, one per puzzle, goes with its puzzles block by block: answers
    equal those of the call without progress (a list shifted by a block would clash)."""
    made = sf.generate_many(3, size=4, seed=5, rules="x") + sf.generate_many(
        3, size=4, seed=6, rules="jigsaw"
    )
    puzzles = [p for p, _ in made] * 30  # 180 puzzles: three blocks of 64
    rules = [r for _, r in made] * 30
    seen = Recorder()
    with_progress = sf.solve_many(puzzles, rules=rules, threads=2, progress=seen)
    assert with_progress == sf.solve_many(puzzles, rules=rules, threads=2)
    assert None not in with_progress
    seen.check(len(puzzles), blocks_at_least=3)
    counted = Recorder()
    assert sf.count_many(puzzles, rules=rules, progress=counted) == [1] * len(puzzles)
    counted.check(len(puzzles), blocks_at_least=3)
    rated = Recorder()
    levels = [r.level for r in sf.rate_many(puzzles[:70], rules=rules[:70], progress=rated)]
    assert levels == [r.level for r in sf.rate_many(puzzles[:70], rules=rules[:70])]
    rated.check(70, blocks_at_least=2)
    made_seen = Recorder()
    again = sf.generate_many(3, size=4, seed=5, rules="x", progress=made_seen)
    assert again == made[:3]
    made_seen.check(3)
