"""canonical, dedup and augment on Parquet, CSV and lines: checked against how the inputs
were built (copies of known puzzles) and by the rules (check_many, is_solution)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import VENDORED, read_csv, run_cli

import sudoku_fast as sf
from sudoku_fast.symmetry import Transformation

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
pcsv = pytest.importorskip("pyarrow.csv")

ROWS = read_csv(VENDORED / "kaggle_bryanpark_sample500_with_solutions.csv")[:50]
PUZZLES = [row["puzzle"] for row in ROWS]
SOLUTIONS = [row["solution"] for row in ROWS]
MALFORMED = 3


run = run_cli


def parse_transform(text: str) -> Transformation:
    transpose, rows, cols, digits = text.split(";")
    return Transformation(
        transpose == "1",
        tuple(int(r) for r in rows.split(",")),
        tuple(int(c) for c in cols.split(",")),
        digits,
    )


def pairs_parquet(path: Path, copies: int = 1) -> Path:
    table = pa.table(
        {
            "id": list(range(len(PUZZLES) * copies)),
            "quizzes": PUZZLES * copies,
            "solutions": SOLUTIONS * copies,
        }
    )
    pq.write_table(table, path, row_group_size=37)
    return path


def test_augment_then_dedup_parquet(tmp_path: Path) -> None:
    source = pairs_parquet(tmp_path / "pairs.parquet")
    augmented = tmp_path / "augmented.parquet"
    proc = run("augment", str(source), "-n", "7", "--seed", "3", "-o", str(augmented))
    assert proc.returncode == 0, proc.stderr
    table = pq.read_table(augmented)
    assert table.num_rows == 7 * len(PUZZLES)
    assert table.column_names == ["id", "quizzes", "solutions", "source_row"]
    moved = table.column("quizzes").to_pylist()
    answers = table.column("solutions").to_pylist()
    origin = table.column("source_row").to_pylist()
    assert origin == [i for i in range(len(PUZZLES)) for _ in range(7)]
    assert table.column("id").to_pylist() == origin
    # Each copy is equivalent to its source, its solution moved alike (checked by the rules).
    assert sf.canonical_many(moved) == [sf.canonical(PUZZLES[i]) for i in origin]
    assert sf.check_many(moved, answers).all()
    assert len(set(moved)) > len(PUZZLES)  # the copies differ
    again = tmp_path / "again.parquet"
    run("augment", str(source), "-n", "7", "--seed", "3", "-o", str(again))
    assert pq.read_table(again).equals(table)

    deduped = tmp_path / "deduped.parquet"
    proc = run("dedup", str(augmented), "--key", "-o", str(deduped))
    assert proc.returncode == 0, proc.stderr
    distinct = len(set(sf.canonical_many(PUZZLES)))
    kept = pq.read_table(deduped)
    assert kept.num_rows == distinct
    assert f"{distinct:,} distinct canonical forms" in proc.stderr
    assert kept.column("source_row").to_pylist() == sorted(kept.column("source_row").to_pylist())
    assert kept.column("canonical").to_pylist() == sf.canonical_many(
        kept.column("quizzes").to_pylist()
    )


def test_canonical_parquet_with_transform_and_a_bad_row(tmp_path: Path) -> None:
    path = tmp_path / "p.parquet"
    puzzles = [*PUZZLES[:5], "not a puzzle", None, PUZZLES[5]]
    pq.write_table(pa.table({"puzzle": puzzles}), path)
    out = tmp_path / "c.parquet"
    proc = run("canonical", str(path), "--transform", "-o", str(out))
    assert proc.returncode == MALFORMED
    assert "row 5:" in proc.stderr and "row 6: missing (null)" in proc.stderr
    table = pq.read_table(out)
    forms = table.column("canonical").to_pylist()
    moves = table.column("canonical_transform").to_pylist()
    for puzzle, form, move in zip(puzzles, forms, moves, strict=True):
        if puzzle in PUZZLES:
            assert form == sf.canonical(puzzle)
            assert sf.apply_transformation(puzzle, parse_transform(move)) == form
        else:
            assert form is None and move is None


@pytest.mark.parametrize("delimiter", [";", "\t"])
def test_csv_keeps_its_delimiter(tmp_path: Path, delimiter: str) -> None:
    path = tmp_path / "pairs.csv"
    rows = [delimiter.join(("grid", "answer"))]
    rows += [delimiter.join(pair) for pair in zip(PUZZLES, SOLUTIONS, strict=True)] * 2
    path.write_text("\n".join(rows) + "\n")
    out = tmp_path / "dedup.csv"
    proc = run("dedup", str(path), "--column", "GRID", "--key", "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    lines = out.read_text().splitlines()
    assert lines[0].split(delimiter) == ["grid", "answer", "canonical"]
    assert len(lines) == 1 + len(set(sf.canonical_many(PUZZLES)))
    augmented = tmp_path / "aug.csv"
    proc = run(
        "augment", str(path), "-n", "2", "--column", "grid", "--solution-column", "answer",
        "-o", str(augmented),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    back = [line.split(delimiter) for line in augmented.read_text().splitlines()]
    assert back[0] == ["grid", "answer", "source_row"]
    assert len(back) == 1 + 4 * len(PUZZLES)
    assert sf.check_many([r[0] for r in back[1:]], [r[1] for r in back[1:]]).all()


def test_lines(tmp_path: Path) -> None:
    path = tmp_path / "p.txt"
    path.write_text("\n".join(PUZZLES + PUZZLES[:3]) + "\n")
    proc = run("canonical", str(path), "-q")
    assert proc.stdout.splitlines() == sf.canonical_many(PUZZLES + PUZZLES[:3])
    proc = run("augment", str(path), "-n", "3", "--seed", "1", "-q")
    copies = proc.stdout.splitlines()
    assert len(copies) == 3 * (len(PUZZLES) + 3)
    assert sf.canonical_many(copies) == [
        sf.canonical(p) for p in PUZZLES + PUZZLES[:3] for _ in range(3)
    ]
    proc = run("dedup", str(path), "--key", "-q")
    lines = proc.stdout.splitlines()
    assert lines[0] == "puzzle,canonical" and len(lines) == 1 + len(PUZZLES)


def test_text_dedup_takes_column_and_delimiters(tmp_path: Path) -> None:
    path = tmp_path / "pairs.csv"
    rows = ["grid|answer"] + [f"{p}|{s}" for p, s in zip(PUZZLES, SOLUTIONS, strict=True)] * 2
    path.write_text("\n".join(rows) + "\n")
    proc = run("dedup", str(path), "--column", "grid", "-q")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == rows[: 1 + len(PUZZLES)]
