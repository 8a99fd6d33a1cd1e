"""Files in the notations people keep puzzles in: multi-line grids with name lines (.sdk,
.ss, Project Euler), other empty characters, numbers above 9, and errors that suggest
the option that reads a file. Answers are checked by checks.py, not by the engine."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from checks import check_solution
from conftest import VENDORED, read_csv, run_cli

import sudoku_fast as sf

KAGGLE = read_csv(VENDORED / "kaggle_bryanpark_sample500_with_solutions.csv")[:4]
PUZZLES = [row["puzzle"] for row in KAGGLE]
SIXTEEN = read_csv(VENDORED / "sudoku16_goomii_sample100_with_solutions.csv")[:3]
ZERO_F = "0123456789ABCDEF"


run = run_cli


def rows(puzzle: str, size: int = 9) -> list[str]:
    return [puzzle[r * size : (r + 1) * size] for r in range(size)]


def solved(proc: subprocess.CompletedProcess[str], puzzles: list[str], **options: object) -> None:
    assert proc.returncode == 0, proc.stderr
    answers = proc.stdout.split()
    assert len(answers) == len(puzzles)
    for answer, puzzle in zip(answers, puzzles, strict=True):
        check_solution(answer, puzzle, **options)  # type: ignore[arg-type]


def test_name_lines_and_rows(tmp_path: Path) -> None:
    # Project Euler's form: a name line, then nine rows of digits (0 = empty).
    lines = []
    for k, puzzle in enumerate(PUZZLES):
        lines += [f"Grid {k + 1:02d}", *rows(puzzle.replace(".", "0"))]
    path = tmp_path / "euler.txt"
    path.write_text("\n".join(lines) + "\n")
    solved(run("solve", str(path)), PUZZLES)


def test_sdk_and_ss_forms(tmp_path: Path) -> None:
    sdk = tmp_path / "p.sdk"
    sdk.write_text("\n\n".join("\n".join(rows(p)) for p in PUZZLES) + "\n")
    solved(run("solve", str(sdk)), PUZZLES)
    ss_blocks = []
    for puzzle in PUZZLES:
        grid = [f"{r[:3]}|{r[3:6]}|{r[6:]}" for r in rows(puzzle)]
        ss_blocks.append(
            "\n".join([*grid[:3], "---+---+---", *grid[3:6], "---+---+---", *grid[6:]])
        )
    ss = tmp_path / "p.ss"
    ss.write_text("\n\n".join(ss_blocks) + "\n")
    solved(run("solve", str(ss)), PUZZLES)


def test_empty_character_suggested_then_used(tmp_path: Path) -> None:
    path = tmp_path / "underscores.txt"
    path.write_text("\n".join(p.replace(".", "_") for p in PUZZLES) + "\n")
    proc = run("solve", str(path))
    assert proc.returncode == 3
    assert "--empty '_'" in proc.stderr  # the CLI's words for the option
    solved(run("solve", str(path), "--empty", "_"), PUZZLES)
    # The block form of the Rust crate: rows with '_' for empty, cells spaced out.
    block = tmp_path / "block.txt"
    block.write_text(
        "\n\n".join("\n".join(" ".join(r) for r in rows(p.replace(".", "_"))) for p in PUZZLES)
        + "\n"
    )
    solved(run("solve", str(block), "--empty", "_", "--blocks"), PUZZLES)


def test_zero_to_f_suggested_then_solved(tmp_path: Path) -> None:
    # 16x16 written with 0-F for the values and '.' for empty.
    def zero_f(text: str) -> str:
        return "".join(ch if ch == "." else ZERO_F[sf.grid.SYMBOLS.index(ch)] for ch in text)

    puzzles = [zero_f(row["puzzle"]) for row in SIXTEEN]
    path = tmp_path / "zero_f.txt"
    path.write_text("\n".join(puzzles) + "\n")
    proc = run("solve", str(path))
    assert proc.returncode == 3
    found = re.search(r"--alphabet '([0-9A-F]+)'", proc.stderr)
    assert found and found[1] == ZERO_F, proc.stderr
    solved(run("solve", str(path), "--alphabet", found[1]), puzzles, symbols=ZERO_F)


def test_numbers_above_nine(tmp_path: Path) -> None:
    lines = []
    for row in SIXTEEN:
        values = [0 if ch == "." else sf.grid.SYMBOLS.index(ch) + 1 for ch in row["puzzle"]]
        lines += [" ".join(f"{v:2d}" for v in values[r * 16 : (r + 1) * 16]) for r in range(16)]
        lines.append("")
    path = tmp_path / "numbers.txt"
    path.write_text("\n".join(lines))
    proc = run("solve", str(path))
    solved(proc, [row["puzzle"] for row in SIXTEEN])
