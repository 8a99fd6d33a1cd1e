"""Parquet in the command line: solve, count, rate and generate keep rows and columns."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import VENDORED, read_csv

from sudoku_fast import parquet_io
from sudoku_fast.cli import main

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


@pytest.fixture
def puzzles_file(tmp_path: Path) -> tuple[Path, list[dict[str, str]]]:
    rows = read_csv(VENDORED / "kaggle_bryanpark_sample500_with_solutions.csv")
    bad = "11" + rows[0]["puzzle"][2:]
    table = pa.table(
        {
            "id": list(range(len(rows) + 1)),
            "quizzes": [r["puzzle"] for r in rows] + [bad],
            "solutions": [r["solution"] for r in rows] + [None],
        }
    )
    path = tmp_path / "in.parquet"
    pq.write_table(table, path, row_group_size=128)
    return path, rows


def test_solve_keeps_rows_and_columns(
    tmp_path: Path, puzzles_file: tuple[Path, list[dict[str, str]]]
) -> None:
    path, rows = puzzles_file
    out = tmp_path / "out.parquet"
    assert main(["solve", str(path), "-o", str(out), "-q"]) == 0
    table = pq.read_table(out)
    assert table.column_names == ["id", "quizzes", "solutions", "solution"]
    assert table["id"].to_pylist() == list(range(len(rows) + 1))
    assert table["solution"].to_pylist() == [r["solution"] for r in rows] + [None]


def test_count_and_column_choice(
    tmp_path: Path, puzzles_file: tuple[Path, list[dict[str, str]]]
) -> None:
    path, rows = puzzles_file
    out = tmp_path / "count.parquet"
    assert main(["solve", str(path), "--count", "--column", "quizzes", "-o", str(out), "-q"]) == 0
    assert pq.read_table(out)["count"].to_pylist() == [1] * len(rows) + [0]
    assert main(["solve", str(path), "--column", "nope", "-o", str(out), "-q"]) == 2


def test_generate_then_rate(tmp_path: Path) -> None:
    generated = tmp_path / "g.parquet"
    assert (
        main(["generate", "-n", "4", "--seed", "3", "--format", "parquet", "-o", str(generated)])
        == 0
    )
    table = pq.read_table(generated)
    assert table.column_names == ["puzzle", "solution", "clues", "level", "name", "seed"]
    rated = tmp_path / "r.parquet"
    assert main(["rate", str(generated), "-o", str(rated)]) == 0
    out = pq.read_table(rated)
    assert out["level_rated"].to_pylist() == table["level"].to_pylist()
    assert out.num_rows == 4


def test_batches_overlap_and_keep_order(
    tmp_path: Path,
    puzzles_file: tuple[Path, list[dict[str, str]]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Many small batches through the read / solve / write pipeline stay in input order."""
    monkeypatch.setattr(parquet_io, "BATCH_ROWS", 37)
    path, rows = puzzles_file
    out = tmp_path / "out.parquet"
    assert main(["solve", str(path), "-o", str(out), "-q", "--threads", "2"]) == 0
    table = pq.read_table(out)
    assert table["id"].to_pylist() == list(range(len(rows) + 1))
    assert table["solution"].to_pylist() == [r["solution"] for r in rows] + [None]


def test_an_error_in_a_later_batch_stops_the_pipeline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(parquet_io, "BATCH_ROWS", 4)
    rows = read_csv(VENDORED / "kaggle_bryanpark_sample500_with_solutions.csv")[:10]
    puzzles = [r["puzzle"] for r in rows]
    puzzles[9] = "x" + puzzles[9][1:]
    path = tmp_path / "bad.parquet"
    pq.write_table(pa.table({"puzzle": puzzles}), path)
    with pytest.raises(ValueError, match=r"bad.parquet: puzzle 9: .*'x'"):
        parquet_io.solve_parquet(str(path), str(tmp_path / "out.parquet"))


@pytest.mark.parametrize("codec", ["none", "zstd"])
def test_the_output_takes_the_input_codec_or_the_one_asked_for(
    tmp_path: Path, puzzles_file: tuple[Path, list[dict[str, str]]], codec: str
) -> None:
    path, rows = puzzles_file
    again = tmp_path / f"in-{codec}.parquet"
    pq.write_table(pq.read_table(path), again, compression=codec)
    assert parquet_io.input_codec(str(again), "quizzes") == codec
    out = tmp_path / "out.parquet"
    assert main(["solve", str(again), "-o", str(out), "-q"]) == 0
    chunk = pq.ParquetFile(out).metadata.row_group(0).column(3)
    assert chunk.path_in_schema == "solution"
    assert str(chunk.compression).lower() == ("uncompressed" if codec == "none" else codec)
    assert main(["solve", str(again), "-o", str(out), "-q", "--compression", "snappy"]) == 0
    assert pq.ParquetFile(out).metadata.row_group(0).column(3).compression == "SNAPPY"
    assert pq.read_table(out)["solution"].to_pylist()[:3] == [r["solution"] for r in rows[:3]]


def test_an_unknown_codec_is_refused(
    tmp_path: Path, puzzles_file: tuple[Path, list[dict[str, str]]]
) -> None:
    path, _ = puzzles_file
    with pytest.raises(ValueError, match="compression must be one of"):
        parquet_io.solve_parquet(str(path), str(tmp_path / "o.parquet"), compression="lzo")
