"""The `sudoku-fast` commands on every grid size: solve, stats, rate, show, count, check.

Answers are compared with the solution columns of the public data files where they
have one and checked by the independent rules check of checks.py everywhere. Sizes are
inferred per file (the first puzzle decides) or fixed with --box / --alphabet.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from checks import check_solution
from conftest import VENDORED, data_file, read_csv
from test_cli_commands import (
    CHECK_FAILED,
    MALFORMED,
    OK,
    USAGE,
    answers,
    check_stats_block,
    run,
    write,
)

UNDECIDED = 5  # a puzzle ran out of its search-node budget
HEX = "0123456789ABCDEF"
TO_HEX = str.maketrans("123456789ABCDEFG", HEX)

# file -> (full file in ../shared/data, vendored sample, box shape stated by its README)
SIZED = {
    "6x6": ("sudoku6_2x3.csv", "sudoku6_2x3.csv", (2, 3)),
    "16x16": (
        "sudoku16_goomii_1000_with_solutions.csv",
        "sudoku16_goomii_sample100_with_solutions.csv",
        (4, 4),
    ),
    "25x25": ("sudoku25_misc.csv", "sudoku25_misc.csv", (5, 5)),
}


def sized_file(label: str) -> tuple[Path, tuple[int, int]]:
    full, vendored, box = SIZED[label]
    return data_file(full, vendored), box


def transpose(puzzle: str, size: int) -> str:
    """Rows become columns: a grid with r x c boxes turns into one with c x r boxes."""
    return "".join(puzzle[c * size + r] for r in range(size) for c in range(size))


# ---------------------------------------------------------------- solve


@pytest.mark.parametrize("label", sorted(SIZED))
def test_solve_gives_exact_answers(label: str) -> None:
    path, box = sized_file(label)
    rows = read_csv(path)
    proc = run("solve", str(path), "--verify", "--threads", "2")
    assert proc.returncode == OK, proc.stderr
    out = answers(proc)
    # The input's columns, then the solution found.
    assert out[0] == path.read_text().splitlines()[0] + ",found_solution"
    assert len(out) == len(rows) + 1
    compared = 0
    for row, line in zip(rows, out[1:], strict=True):
        fields = line.split(",")
        puzzle, solution = fields[0], fields[-1]
        assert puzzle == row["puzzle"]
        check_solution(solution, puzzle, box=box)
        if row["solution"]:
            assert solution == row["solution"]
            compared += 1
    assert compared == {"6x6": 0, "16x16": len(rows), "25x25": 3}[label]
    assert f"{len(rows):,} checked against the rules and the file's solutions: 0 problem" in (
        proc.stderr
    )


def test_solve_lines_of_another_size_and_count() -> None:
    path = VENDORED / "sudoku16_sat_assignment_99.txt"
    puzzles = [line for line in path.read_text().splitlines() if line.strip()]
    proc = run("solve", str(path))
    assert proc.returncode == OK, proc.stderr
    for puzzle, solution in zip(puzzles, answers(proc), strict=True):
        check_solution(solution, puzzle, box=(4, 4))
    counted = run("solve", str(path), "--count")
    assert counted.returncode == OK and answers(counted) == ["1"] * len(puzzles)


def test_solve_with_box_and_alphabet(tmp_path: Path) -> None:
    rows = read_csv(VENDORED / "sudoku6_2x3.csv")
    transposed = [transpose(r["puzzle"], 6) for r in rows]
    path = write(tmp_path / "six_3x2.txt", transposed)
    for spelling in (["--box", "3", "2"], ["--box", "3x2"], ["--box=3x2"]):
        proc = run("solve", str(path), *spelling)
        assert proc.returncode == OK, proc.stderr
        for puzzle, solution in zip(transposed, answers(proc), strict=True):
            check_solution(solution, puzzle, box=(3, 2))
    # Without --box the default 2x3 boxes apply: other answers (or none).
    assert answers(run("solve", str(path))) != answers(run("solve", str(path), "--box", "3x2"))

    sample = read_csv(VENDORED / "sudoku16_goomii_sample100_with_solutions.csv")[:20]
    lines = ["puzzle,solution"] + [
        f"{r['puzzle'].translate(TO_HEX)},{r['solution'].translate(TO_HEX)}" for r in sample
    ]
    path = write(tmp_path / "hex.csv", lines)
    proc = run("solve", str(path), "--alphabet", HEX, "--verify")
    assert proc.returncode == OK, proc.stderr
    assert answers(proc) == [lines[0] + ",found_solution"] + [
        f"{line},{line.split(',')[1]}" for line in lines[1:]
    ]
    assert "20 checked against the rules and the file's solutions: 0 problem(s)" in proc.stderr


def test_one_size_per_file(tmp_path: Path) -> None:
    six = [r["puzzle"] for r in read_csv(VENDORED / "sudoku6_2x3.csv")]
    nine = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    path = write(tmp_path / "mixed.txt", ["1234", six[0], nine, six[1]])
    proc = run("solve", str(path))
    assert proc.returncode == MALFORMED
    out = answers(proc)
    assert out[0] == "error" and out[2] == "error"
    check_solution(out[1], six[0])
    check_solution(out[3], six[1])
    assert f"{path}:3: a 9x9 puzzle in a file of 6x6 puzzles" in proc.stderr
    assert f"{path}:1: expected 36 cells, found 4 (a 6x6 grid with 2x3 boxes)" in proc.stderr
    # The first puzzle that parses decides; --box fixes the size for every line.
    proc = run("solve", str(path), "--box", "3x3")
    assert proc.returncode == MALFORMED
    assert answers(proc)[2] != "error" and answers(proc)[1] == "error"
    assert f"{path}:2: expected 81 cells, found 36 (a 9x9 grid with 3x3 boxes)" in proc.stderr


def test_a_malformed_line_among_1x1_grids(tmp_path: Path) -> None:
    # A 1x1 grid has one cell: the malformed record's marker must still fit it.
    path = write(tmp_path / "ones.txt", ["1", "x", "."])
    for command in (["solve"], ["solve", "--count"]):
        proc = run(*command, str(path), "--box", "1", "1")
        assert proc.returncode == MALFORMED, proc.stderr
        assert answers(proc) == ["1", "error", "1"]
        assert "0 without solution, 1 malformed" in proc.stderr


def test_bad_geometry_options_are_usage_errors(tmp_path: Path) -> None:
    path = write(tmp_path / "p.txt", ["1.3..4.........2"])
    for option in (["--box", "3y2"], ["--box", "0x4"], ["--alphabet", "1123"]):
        proc = run("solve", str(path), *option)
        assert proc.returncode == USAGE, option
        assert "error" in proc.stderr
    assert run("solve", str(path), "--box", "2", "2").returncode == OK


def test_node_budget_answers_unknown(tmp_path: Path) -> None:
    # The first five puzzles of sudoku16_misc need 7, 2, 1, 1 and 6 search nodes.
    rows = read_csv(VENDORED / "sudoku16_misc.csv")[:5]
    path = write(tmp_path / "p.txt", [r["puzzle"] for r in rows])
    proc = run("solve", str(path), "--max-nodes", "3")
    assert proc.returncode == UNDECIDED
    out = answers(proc)
    assert out[0] == out[4] == "unknown"
    for row, answer in zip(rows[1:4], out[1:4], strict=True):
        check_solution(answer, row["puzzle"])
    assert f"{path}:1: unknown: no answer within 3 search nodes" in proc.stderr
    assert "2 unknown" in proc.stderr
    counted = run("solve", str(path), "--max-nodes", "3", "--count")
    assert answers(counted) == ["unknown", "1", "1", "1", "unknown"]
    assert run("solve", str(path), "--max-nodes", "0").returncode == OK


# ---------------------------------------------------------------- stats


def test_stats_on_every_size() -> None:
    paths = [sized_file(label)[0] for label in sorted(SIZED)]
    proc = run("stats", *map(str, paths), "--threads", "2")
    assert proc.returncode == OK, proc.stderr
    blocks = proc.stdout.strip().split("\n\n")
    assert len(blocks) == len(paths)
    for path, block in zip(paths, blocks, strict=True):
        n = len(read_csv(path))
        check_stats_block(block, str(path), n)
        assert f"solved                    {n:,} (no solution: 0)" in block
    proc = run("stats", "--json", str(sized_file("25x25")[0]))
    data = json.loads(proc.stdout)
    assert data["puzzles"] == data["solved"] == len(read_csv(sized_file("25x25")[0]))
    assert data["unknown"] == 0


def test_stats_box_alphabet_and_budget(tmp_path: Path) -> None:
    rows = read_csv(VENDORED / "sudoku6_2x3.csv")
    path = write(tmp_path / "six.txt", [transpose(r["puzzle"], 6) for r in rows])
    proc = run("stats", "--json", str(path), "--box", "3", "2")
    assert proc.returncode == OK, proc.stderr
    assert json.loads(proc.stdout)["solved"] == len(rows)
    sample = read_csv(VENDORED / "sudoku16_misc.csv")[:5]
    path = write(tmp_path / "hex.txt", [r["puzzle"].translate(TO_HEX) for r in sample])
    proc = run("stats", "--json", str(path), "--alphabet", HEX)
    assert proc.returncode == OK and json.loads(proc.stdout)["solved"] == 5
    proc = run("stats", "--json", str(path), "--alphabet", HEX, "--max-nodes", "3")
    assert proc.returncode == UNDECIDED
    data = json.loads(proc.stdout)
    assert (data["solved"], data["unknown"]) == (3, 2)
    assert ":1: unknown: no answer within 3 search nodes" in proc.stderr
    assert "2 puzzle(s) unknown" in proc.stderr
    # Without FILES stats runs the embedded 9x9 sets: a shape for them is a usage error.
    proc = run("stats", "--box", "2", "2")
    assert proc.returncode == USAGE and "--box and --alphabet describe the puzzles of FILES" in (
        proc.stderr
    )
    # With several files the highest status wins, whatever their order.
    bad = write(tmp_path / "bad.txt", [sample[1]["puzzle"].translate(TO_HEX), "x"])
    for files in ([path, bad], [bad, path]):
        proc = run("stats", *map(str, files), "--alphabet", HEX, "--max-nodes", "3")
        assert proc.returncode == UNDECIDED, files
        assert "1 malformed line(s) left out" in proc.stderr


# ---------------------------------------------------------------- rate


def rated_lines(proc_stdout: str) -> list[list[str]]:
    lines = proc_stdout.splitlines()
    assert lines[0] == "line\tlevel\tname\thardest\tclues\tengine_guesses\tengine_nodes"
    return [line.split("\t") for line in lines[1:] if not line.startswith("#")]


def check_rated(proc_stdout: str, puzzles: dict[int, str]) -> None:
    """Every puzzle (by line number) rated: a level 1-6 and its clue count."""
    rated = rated_lines(proc_stdout)
    assert [int(r[0]) for r in rated] == sorted(puzzles)
    for fields in rated:
        puzzle = puzzles[int(fields[0])]
        assert 1 <= int(fields[1]) <= 6, fields
        assert int(fields[4]) == sum(ch != "." for ch in puzzle)
        assert int(fields[6]) >= 1
    # The summary goes to stderr: stdout holds the rows only.
    assert not any(line.startswith("#") for line in proc_stdout.splitlines())


def test_rate_9x9_lines_and_csv(tmp_path: Path) -> None:
    rows = read_csv(VENDORED / "rust_sudoku_crate_easy_with_solutions.csv")[:10]
    lines = ["# easy ones", *(r["puzzle"] for r in rows[:4]), "", "." * 81, rows[4]["puzzle"]]
    path = write(tmp_path / "p.txt", lines)
    proc = run("rate", str(path))
    assert proc.returncode == CHECK_FAILED  # one puzzle could not be rated
    check_rated(
        "\n".join(line for line in proc.stdout.splitlines() if "error" not in line),
        {2: rows[0]["puzzle"], 3: rows[1]["puzzle"], 4: rows[2]["puzzle"], 5: rows[3]["puzzle"]}
        | {8: rows[4]["puzzle"]},
    )
    assert "7\terror: the puzzle has several solutions" in proc.stdout
    assert proc.stderr.splitlines()[-1].endswith(", 1 not rated")
    csv_path = VENDORED / "rust_sudoku_crate_easy_with_solutions.csv"
    proc = run("rate", str(csv_path))
    assert proc.returncode == OK, proc.stderr
    check_rated(proc.stdout, {i + 2: r["puzzle"] for i, r in enumerate(read_csv(csv_path))})


@pytest.mark.parametrize(
    ("name", "count", "box"),
    [
        ("sudoku6_2x3.csv", 4, None),
        ("sudoku12_3x4.csv", 5, None),
        ("sudoku16_goomii_sample100_with_solutions.csv", 10, None),
        ("sudoku16_misc.csv", 5, None),
        ("sudoku25_misc.csv", 5, None),
        ("sudoku6_2x3.csv", 4, (3, 2)),
    ],
)
def test_rate_every_size(
    name: str, count: int, box: tuple[int, int] | None, tmp_path: Path
) -> None:
    puzzles = [r["puzzle"] for r in read_csv(VENDORED / name)[:count]]
    options: list[str] = []
    if box is not None:
        puzzles = [transpose(p, 6) for p in puzzles]
        options = ["--box", f"{box[0]}x{box[1]}"]
    path = write(tmp_path / "p.csv", ["puzzle", *puzzles])
    proc = run("rate", str(path), *options)
    assert proc.returncode == OK, proc.stderr
    check_rated(proc.stdout, {i + 2: p for i, p in enumerate(puzzles)})


def test_rate_in_another_alphabet(tmp_path: Path) -> None:
    rows = read_csv(VENDORED / "sudoku16_goomii_sample100_with_solutions.csv")[:5]
    plain = write(tmp_path / "plain.txt", [r["puzzle"] for r in rows])
    hexed = write(tmp_path / "hex.txt", [r["puzzle"].translate(TO_HEX) for r in rows])
    proc = run("rate", str(hexed), "--alphabet", HEX)
    assert proc.returncode == OK, proc.stderr
    assert proc.stdout == run("rate", str(plain)).stdout


# ---------------------------------------------------------------- show / count / check


def test_show_count_check_with_box() -> None:
    six = transpose(read_csv(VENDORED / "sudoku6_2x3.csv")[0]["puzzle"], 6)
    proc = run("show", six, "--box", "3", "2")
    assert proc.returncode == OK
    lines = proc.stdout.splitlines()
    assert len(lines) == 7 and lines[0].count("|") == 2 and set(lines[3]) <= {"-", "+"}
    assert run("count", six, "--box", "3x2").stdout.strip() == "1"
    solved = answers(run("solve", "--box", "3x2", stdin=six + "\n"))[0]
    assert run("check", six, solved, "--box", "3x2").returncode == OK
    assert run("check", six, solved).returncode == CHECK_FAILED  # 2x3 boxes: broken
    hexed = read_csv(VENDORED / "sudoku16_misc.csv")[0]["puzzle"].translate(TO_HEX)
    assert run("count", hexed, "--alphabet", HEX).stdout.strip() == "1"
    assert run("count", hexed).returncode == USAGE  # '0' is no symbol of 16x16


def test_rate_reports_malformed_lines_like_solve(tmp_path: Path) -> None:
    rows = read_csv(VENDORED / "rust_sudoku_crate_easy_with_solutions.csv")[:3]
    lines = ["id,puzzle", f"1,{rows[0]['puzzle']}", "2,12x", f"3,{rows[1]['puzzle']}"]
    path = write(tmp_path / "p.csv", lines)
    proc = run("rate", str(path))
    assert proc.returncode == MALFORMED
    assert f"{path}:3: puzzle field: unexpected character 'x'" in proc.stderr
    assert "3\terror: " in proc.stdout
    check_rated(
        "\n".join(line for line in proc.stdout.splitlines() if "error" not in line),
        {2: rows[0]["puzzle"], 4: rows[1]["puzzle"]},
    )
    # A puzzle whose uniqueness the node budget leaves open: status 5, the rest rated.
    sixteen = read_csv(VENDORED / "sudoku16_misc.csv")[:2]
    path = write(tmp_path / "s.txt", ["." * 256, sixteen[0]["puzzle"]])
    proc = run("rate", str(path), "--max-nodes", "100")
    assert proc.returncode == UNDECIDED, proc.stderr
    assert "1\terror: the search ran out of its budget of 100 search nodes" in proc.stdout
    assert proc.stdout.splitlines()[2].startswith("2\t")
