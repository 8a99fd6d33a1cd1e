"""Outputs a pipeline reads back: rate / stats / lab --format, summaries on stderr only."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from conftest import VENDORED, read_csv, run_cli

import sudoku_fast as sf

ROWS = read_csv(VENDORED / "rust_sudoku_crate_easy_with_solutions.csv")[:8]
PUZZLES = [row["puzzle"] for row in ROWS]


run = run_cli


@pytest.fixture
def puzzles_file(tmp_path: Path) -> Path:
    path = tmp_path / "p.txt"
    path.write_text("\n".join([*PUZZLES, "." * 81]) + "\n")  # the last has many solutions
    return path


def test_rate_csv_and_jsonl_hold_data_only(puzzles_file: Path) -> None:
    expected = sf.rate_many(PUZZLES)
    proc = run("rate", str(puzzles_file), "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(proc.stdout)))
    assert len(rows) == len(PUZZLES) + 1
    assert [int(r["level"]) for r in rows[:-1]] == [r.level for r in expected]
    assert [r["hardest"] for r in rows[:-1]] == [r.hardest for r in expected]
    assert rows[-1]["level"] == "" and "several solutions" in rows[-1]["error"]
    assert "rated, mean level" in proc.stderr and "mean level" not in proc.stdout
    proc = run("rate", str(puzzles_file), "--format", "jsonl")
    objects = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [o["clues"] for o in objects[:-1]] == [r.clues for r in expected]
    assert objects[-1]["error"] and objects[-1]["level"] is None


def test_rate_parquet(puzzles_file: Path, tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    out = tmp_path / "r.parquet"
    proc = run("rate", str(puzzles_file), "--format", "parquet", "-o", str(out))
    assert proc.stdout == ""
    table = pq.read_table(out)
    assert table.column("line").to_pylist() == list(range(1, len(PUZZLES) + 2))
    assert table.column("level").to_pylist()[:-1] == [r.level for r in sf.rate_many(PUZZLES)]
    assert table.schema.field("level").type == "int64"
    proc = run("rate", str(puzzles_file), "--format", "parquet")
    assert proc.returncode == 2 and "-o" in proc.stderr


def test_stats_csv(puzzles_file: Path) -> None:
    proc = run("stats", str(puzzles_file), "--format", "csv")
    [row] = list(csv.DictReader(io.StringIO(proc.stdout)))
    assert row["name"] == str(puzzles_file) and int(row["puzzles"]) == len(PUZZLES) + 1
    assert int(row["solved"]) == len(PUZZLES) + 1 and "nodes_p50" in row


def test_lab_csv_and_jsonl(puzzles_file: Path) -> None:
    proc = run("lab", str(puzzles_file), "--format", "csv", "--algorithms", "dlx,fc")
    rows = list(csv.DictReader(io.StringIO(proc.stdout)))
    assert [r["algorithm"] for r in rows] == ["dlx", "fc"]
    assert all(int(r["n"]) == len(PUZZLES) + 1 and r["kind"] == "set" for r in rows)
    proc = run("lab", "--random", "5", "--format", "jsonl")
    [report] = [json.loads(line) for line in proc.stdout.splitlines()]
    assert report["kind"] == "random" and report["n"] == 5
    proc = run("lab", str(puzzles_file), "--random", "5", "--format", "csv")
    assert proc.returncode == 2


def test_generate_csv_and_jsonl() -> None:
    expected = sf.generate_many(3, seed=2)
    proc = run("generate", "-n", "3", "--seed", "2", "--format", "csv")
    assert [r["puzzle"] for r in csv.DictReader(io.StringIO(proc.stdout))] == expected
    proc = run("generate", "-n", "3", "--seed", "2", "--format", "jsonl")
    assert [json.loads(line)["puzzle"] for line in proc.stdout.splitlines()] == expected


def test_parquet_runs_report_progress_and_a_summary(tmp_path: Path) -> None:
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    from sudoku_fast._files import parquet_io

    path = tmp_path / "p.parquet"
    pq.write_table(pa.table({"puzzle": PUZZLES * 3}), path, row_group_size=10)
    seen: list[int] = []
    for run_file in (parquet_io.solve_parquet, parquet_io.rate_parquet):
        seen.clear()
        run_file(str(path), str(tmp_path / "out.parquet"), progress=seen.append)
        assert seen == sorted(seen) and seen[-1] == 3 * len(PUZZLES) and len(seen) >= 2
    assert parquet_io.row_count(str(path)) == 3 * len(PUZZLES)
    proc = run("rate", str(path), "-o", str(tmp_path / "rated.parquet"))
    assert proc.returncode == 0, proc.stderr
    assert f"{3 * len(PUZZLES):,} puzzles in" in proc.stderr and "rated" in proc.stderr
    quiet = run("rate", str(path), "-o", str(tmp_path / "rated.parquet"), "-q")
    assert quiet.stderr == ""
