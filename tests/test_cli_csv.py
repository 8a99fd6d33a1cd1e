"""CSV as people write it: any column name (--column), ',' ';' tab or '|' between fields,
and messages that name the columns a file has. Answers are checked by checks.py."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from checks import check_solution
from conftest import VENDORED, read_csv, run_cli

ROWS = read_csv(VENDORED / "kaggle_bryanpark_sample500_with_solutions.csv")[:40]
USAGE, MALFORMED = 2, 3


run = run_cli


def write(path: Path, delimiter: str, header: tuple[str, str] = ("grid", "answer")) -> Path:
    lines = [delimiter.join(header)]
    lines += [delimiter.join((row["puzzle"], row["solution"])) for row in ROWS]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_header_without_a_puzzle_column_names_its_columns(tmp_path: Path) -> None:
    path = write(tmp_path / "pairs.csv", ";")
    proc = run("solve", str(path))
    assert proc.returncode == USAGE, proc.stderr
    assert "grid, answer" in proc.stderr
    assert "--column" in proc.stderr  # the CLI's words for the option that reads it
    assert proc.stdout == ""


@pytest.mark.parametrize("delimiter", [",", ";", "\t", "|"])
def test_grid_answer_solved_with_the_suggested_option(tmp_path: Path, delimiter: str) -> None:
    path = write(tmp_path / "pairs.csv", delimiter)
    proc = run("solve", str(path), "--column", "grid", "--verify")
    assert proc.returncode == 0, proc.stderr
    rows = list(csv.reader(io.StringIO(proc.stdout), delimiter=delimiter))
    assert rows[0] == ["grid", "answer", "solution"]
    assert len(rows) == len(ROWS) + 1
    for row, given in zip(rows[1:], ROWS, strict=True):
        assert row[0] == given["puzzle"] and row[1] == given["solution"]
        check_solution(row[2], given["puzzle"])


def test_column_is_any_case_and_rate_takes_it(tmp_path: Path) -> None:
    path = write(tmp_path / "pairs.tsv", "\t", ("Grid", "Answer"))
    proc = run("rate", str(path), "--column", "GRID")
    assert proc.returncode == 0, proc.stderr
    assert len([line for line in proc.stdout.splitlines() if line and line[0] != "#"]) >= len(ROWS)


def test_an_unknown_column_names_the_columns_found(tmp_path: Path) -> None:
    path = write(tmp_path / "pairs.csv", "|")
    proc = run("solve", str(path), "--column", "quiz")
    assert proc.returncode == USAGE
    assert "no column 'quiz'" in proc.stderr and "grid, answer" in proc.stderr


def test_lines_with_column_say_there_is_no_header(tmp_path: Path) -> None:
    path = tmp_path / "lines.txt"
    path.write_text("\n".join(row["puzzle"] for row in ROWS[:3]) + "\n")
    proc = run("solve", str(path), "--column", "grid")
    assert proc.returncode == USAGE
    assert "no CSV header" in proc.stderr


def test_semicolon_rows_that_are_malformed_keep_their_fields(tmp_path: Path) -> None:
    path = tmp_path / "bad.csv"
    rows = ["id;quizzes", f"1;{ROWS[0]['puzzle']}", "2;xyz", f"3;{ROWS[1]['puzzle']}"]
    path.write_text("\n".join(rows) + "\n")
    proc = run("solve", str(path))
    assert proc.returncode == MALFORMED
    out = [line.split(";") for line in proc.stdout.splitlines()]
    assert out[0] == ["id", "quizzes", "solution"]
    assert [row[0] for row in out[1:]] == ["1", "2", "3"]
    check_solution(out[1][2], ROWS[0]["puzzle"])
    check_solution(out[3][2], ROWS[1]["puzzle"])
