"""Variant rules on the command line: solve, rate, hint and check take --variant,
--rules FILE and --fpuzzles FILE as count does.

Every answer is checked by the independent checker of tests/variant_oracle.py, never by
the engine alone; counts by its SAT counter.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import variant_oracle as oracle

import sudoku_fast as sf
from sudoku_fast._base.lzstring import compress_base64
from sudoku_fast.cli import main
from sudoku_fast.cli.exits import EXIT_CHECK_FAILED, EXIT_OK, EXIT_USAGE

Capture = pytest.CaptureFixture[str]


@pytest.fixture(scope="module")
def x_puzzles() -> list[str]:
    return [p.puzzle for p in sf.generate_many(4, rules="x", seed=11)]


@pytest.fixture(scope="module")
def killer() -> Any:
    return sf.generate_many(1, rules="killer", seed=5, size=6)[0]


def _lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line]


def test_solve_a_file_under_variant_rules(
    tmp_path: Path, x_puzzles: list[str], capsys: Capture
) -> None:
    path = tmp_path / "x.txt"
    path.write_text("\n".join(x_puzzles) + "\n")
    assert main(["solve", str(path), "--variant", "x", "--verify"]) == EXIT_OK
    captured = capsys.readouterr()
    answers = _lines(captured.out)
    assert len(answers) == len(x_puzzles)
    for puzzle, answer in zip(x_puzzles, answers, strict=True):
        assert oracle.is_valid_solution(answer, {"diagonals": True}, puzzle)
    assert f"{len(x_puzzles)} checked against the rules: 0 problem(s)" in captured.err
    # The same puzzles under classic rules have several solutions: the rules were used.
    assert main(["solve", str(path), "--count", "-q"]) == EXIT_OK
    assert set(_lines(capsys.readouterr().out)) == {"2"}
    assert main(["solve", str(path), "--count", "-q", "--variant", "x"]) == EXIT_OK
    assert set(_lines(capsys.readouterr().out)) == {"1"}


def test_solve_with_a_rules_file_counts_as_the_sat_counter(
    tmp_path: Path, killer: Any, capsys: Capture
) -> None:
    rules = tmp_path / "killer.json"
    rules.write_text(killer.rules.dumps())
    loose = "." * 36  # the cages alone, no given digit
    path = tmp_path / "k.txt"
    path.write_text(f"{killer.puzzle}\n{loose}\n")
    assert main(["solve", str(path), "--rules", str(rules), "--count", "--limit", "5"]) == 0
    counts = [int(c) for c in _lines(capsys.readouterr().out)]
    rules_json = killer.rules.to_json()
    expected = [oracle.count_solutions(p, rules_json, 5)[0] for p in (killer.puzzle, loose)]
    assert counts == expected
    assert main(["solve", str(path), "--rules", str(rules), "--verify", "-q"]) == 0
    first = _lines(capsys.readouterr().out)[0]
    assert oracle.is_valid_solution(first, killer.rules.to_json(), killer.puzzle)


def test_solve_verify_under_rules_reports_a_given_solution_that_breaks_them(
    tmp_path: Path, x_puzzles: list[str], capsys: Capture
) -> None:
    puzzle = x_puzzles[0]
    classic = sf.solve(puzzle)  # a classic solution: not one under the X rule
    assert not oracle.is_valid_solution(classic, {"diagonals": True}, puzzle)
    path = tmp_path / "x.csv"
    path.write_text(f"puzzle,solution\n{puzzle},{classic}\n")
    assert main(["solve", str(path), "--variant", "x", "--verify"]) == EXIT_CHECK_FAILED
    err = capsys.readouterr().err
    assert "mismatch: several solutions" not in err
    assert "the given solution is not a solution of the puzzle" in err


def test_rules_that_do_not_fit_are_a_clear_error(
    tmp_path: Path, x_puzzles: list[str], capsys: Capture
) -> None:
    path = tmp_path / "x.txt"
    path.write_text(x_puzzles[0] + "\n")
    rules = tmp_path / "bad.json"
    rules.write_text(json.dumps({"cages": [{"cells": [0, 1], "sum": 40}]}))
    for command in (["solve", str(path)], ["rate", str(path)], ["hint", x_puzzles[0]],
                    ["check", x_puzzles[0], sf.solve(x_puzzles[0])]):  # fmt: skip
        assert main([*command, "--rules", str(rules)]) == EXIT_USAGE, command
        err = capsys.readouterr().err
        assert "do not fit" in err and "cage 0: sum 40 is outside 3..17" in err, command
        assert "--rules" in err, command  # the CLI's words, naming the option
    assert main(["solve", str(path), "--variant", "x", "--marks"]) == EXIT_USAGE
    assert "--marks cannot be combined" in capsys.readouterr().err
    assert main(["rate", str(path), "--variant", "x", "--score"]) == EXIT_USAGE
    assert "--score cannot be combined" in capsys.readouterr().err


def test_rate_under_variant_rules(tmp_path: Path, x_puzzles: list[str], capsys: Capture) -> None:
    path = tmp_path / "x.txt"
    path.write_text("\n".join(x_puzzles[:2]) + "\n")
    assert main(["rate", str(path), "--variant", "x", "--format", "jsonl"]) == EXIT_OK
    rows = [json.loads(line) for line in _lines(capsys.readouterr().out)]
    assert [r["level"] for r in rows] == [sf.rate(p, rules="x").level for p in x_puzzles[:2]]
    # Without the rules the puzzles have several solutions and are not rated.
    assert main(["rate", str(path)]) == EXIT_CHECK_FAILED
    capsys.readouterr()


def test_hint_and_check_under_variant_rules(x_puzzles: list[str], capsys: Capture) -> None:
    puzzle = x_puzzles[1]
    assert main(["hint", puzzle, "--variant", "x"]) == EXIT_OK
    step = sf.hint(puzzle, rules="x")
    assert step is not None and step.explanation in capsys.readouterr().out
    assert main(["hint", puzzle, "--variant", "x", "--all"]) == EXIT_OK
    out = capsys.readouterr().out
    assert out.rstrip().endswith("solved")
    assert main(["hint", puzzle]) == EXIT_USAGE  # several solutions without the rule
    assert "several solutions" in capsys.readouterr().err
    solution = sf.solve(puzzle, rules="x")
    assert solution is not None and oracle.is_valid_solution(solution, {"diagonals": True}, puzzle)
    assert main(["check", puzzle, solution, "--variant", "x"]) == EXIT_OK
    assert capsys.readouterr().out.strip() == "valid: the only solution"
    classic = sf.solve(puzzle)
    assert main(["check", puzzle, classic, "--variant", "x"]) == EXIT_CHECK_FAILED
    assert "diagonal holds" in capsys.readouterr().out


def test_fpuzzles_input_for_solve_rate_hint_and_check(tmp_path: Path, capsys: Capture) -> None:
    puzzle = "..3....243......"  # a 4x4 Sudoku X with one solution
    size = 4
    cells = [{"value": int(ch), "given": True} if ch != "." else {} for ch in puzzle]
    grid = [cells[r * size : (r + 1) * size] for r in range(size)]
    doc = {"size": size, "grid": grid, "diagonal+": True, "diagonal-": True}
    path = tmp_path / "x.txt"
    path.write_text("https://f-puzzles.com/?load=" + compress_base64(json.dumps(doc)) + "\n")
    assert main(["solve", "--fpuzzles", str(path), "--verify"]) == EXIT_OK
    answer = capsys.readouterr().out.strip()
    assert oracle.is_valid_solution(answer, {"diagonals": True}, puzzle)
    assert main(["rate", "--fpuzzles", str(path), "--format", "jsonl"]) == EXIT_OK
    assert json.loads(capsys.readouterr().out)["level"] == sf.rate(puzzle, rules="x").level
    assert main(["hint", "--fpuzzles", str(path)]) == EXIT_OK
    assert "3 has only one place left in box 1: r2c1" in capsys.readouterr().out
    assert main(["check", "--fpuzzles", str(path), answer]) == EXIT_OK
    assert "valid: the only solution" in capsys.readouterr().out
    assert main(["solve", str(path), "--fpuzzles", str(path)]) == EXIT_USAGE
    assert "one of them" in capsys.readouterr().err
    # The document's published solution is what --verify compares the answer with.
    classic = oracle.count_solutions(puzzle, {}, 5)[1]
    wrong = next(g for g in classic if not oracle.is_valid_solution(g, {"diagonals": True}))
    for published, status in ((answer, EXIT_OK), (wrong, EXIT_CHECK_FAILED)):
        with_solution = {**doc, "solution": [int(ch) for ch in published]}
        encoded = compress_base64(json.dumps(with_solution))
        path.write_text("https://f-puzzles.com/?load=" + encoded + "\n")
        assert main(["solve", "--fpuzzles", str(path), "--verify", "-q"]) == status
        assert capsys.readouterr().out.strip() == answer


@pytest.mark.parametrize(
    "rules",
    [{"diagonals": True}, {"windoku": True}, {"anti_knight": True}, {"anti_king": True},
     {"non_consecutive": True}, {"disjoint": True},
     {"cages": [{"cells": [0, 1, 9], "sum": 12}, {"cells": [40, 41]}]},
     {"thermos": [[0, 1, 2, 3]]}, {"extra": [[0, 10, 20, 30]]}],
)  # fmt: skip
def test_is_solution_under_rules_agrees_with_the_oracle(rules: dict[str, object]) -> None:
    import random

    rng = random.Random(7)
    puzzle = "." * 81
    solution = sf.solve(puzzle, rules=rules)
    assert solution is not None
    assert sf.is_solution(solution, puzzle, rules=rules)
    assert oracle.is_valid_solution(solution, rules, puzzle)
    grids = [sf.solve(puzzle) or ""]
    for _ in range(20):  # two cells swapped: sometimes still valid, mostly not
        cells = list(solution)
        a, b = rng.sample(range(81), 2)
        cells[a], cells[b] = cells[b], cells[a]
        grids.append("".join(cells))
    for grid in grids:
        assert sf.is_solution(grid, puzzle, rules=rules) == oracle.is_valid_solution(
            grid, rules, puzzle
        ), grid


# ---------------------------------------------------------------------------------------
# Per-puzzle rules in input files: what `generate` writes with rules reads back


@pytest.mark.parametrize(
    ("variant", "size", "fmt"),
    [("killer", 6, "jsonl"), ("jigsaw", 6, "csv"), ("x", 4, "lines"), ("thermo", 6, "jsonl"),
     ("jigsaw", 5, "jsonl")],  # a prime size: the regions replace boxes it has none of
)  # fmt: skip
def test_generated_files_with_their_rules_solve_and_rate(
    tmp_path: Path, capsys: Capture, variant: str, size: int, fmt: str
) -> None:
    made = ["generate", "-n", "3", "--size", str(size), "--variant", variant, "--seed", "4"]
    assert main([*made, "--format", fmt]) == EXIT_OK
    text = capsys.readouterr().out
    path = tmp_path / f"made.{fmt}"
    path.write_text(text)
    items = sf.generate_many(3, rules=variant, size=size, seed=4)
    assert main(["solve", str(path), "--verify", "--format", "lines"]) == EXIT_OK
    captured = capsys.readouterr()
    assert "3 checked against the rules: 0 problem(s)" in captured.err
    for item, answer in zip(items, _lines(captured.out), strict=True):
        assert oracle.is_valid_solution(answer, item.rules.to_json(), item.puzzle)
    assert main(["solve", str(path), "--count", "--format", "lines", "-q"]) == EXIT_OK
    assert _lines(capsys.readouterr().out) == ["1"] * 3  # unique under their own rules
    assert main(["rate", str(path), "--format", "jsonl"]) == EXIT_OK
    rows = [json.loads(line) for line in _lines(capsys.readouterr().out)]
    assert [r["level"] for r in rows] == [sf.rate(i.puzzle, rules=i.rules).level for i in items]


def test_per_puzzle_rules_problems_are_named_by_line(tmp_path: Path, capsys: Capture) -> None:
    x4 = "..3....243......"
    lines = [
        {"puzzle": x4, "rules": "x"},
        {"puzzle": x4},  # classic: two solutions
        {"quizzes": x4, "rules": {"diagonal": True}},
        [1],
        {"puzzle": x4, "rules": {"cages": [{"cells": [0, 1], "sum": 30}]}},
        {"puzzle": x4, "rules": {"anti_king": True}},  # with --variant x: both
    ]
    path = tmp_path / "mixed.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert main(["solve", str(path), "--count", "--limit", "50", "--variant", "x"]) == 3
    captured = capsys.readouterr()
    expected = {
        1: oracle.count_solutions(x4, {"diagonals": True}, 50)[0],
        2: oracle.count_solutions(x4, {"diagonals": True}, 50)[0],
        6: oracle.count_solutions(x4, {"diagonals": True, "anti_king": True}, 50)[0],
    }
    out = _lines(captured.out)
    assert {k: int(out[k - 1]) for k in expected} == expected
    assert [out[k - 1] for k in (3, 4, 5)] == ["error"] * 3
    assert "mixed.jsonl:3: rules: unknown key 'diagonal'" in captured.err
    assert "mixed.jsonl:4: not a JSON object: list" in captured.err
    assert "mixed.jsonl:5: its rules do not fit a 4x4 grid" in captured.err
    assert main(["solve", str(path), "--on-error", "fail", "-q"]) == 4
    assert _lines(capsys.readouterr().out) == ["1234341243212143", sf.solve(x4)]


def test_a_rules_column_in_csv_and_a_solution_key_in_json_lines(
    tmp_path: Path, capsys: Capture
) -> None:
    x4 = "..3....243......"
    right = sf.solve(x4, rules="x")
    assert right is not None and oracle.is_valid_solution(right, {"diagonals": True}, x4)
    path = tmp_path / "x.csv"
    path.write_text(
        f'id,Rules,puzzle,solution\n1,x,{x4},{right}\n2,"{{""diagonals"": true}}",{x4},{right}\n'
    )
    assert main(["solve", str(path), "--verify"]) == EXIT_OK
    captured = capsys.readouterr()
    rows = _lines(captured.out)[1:]
    assert rows == [
        f"1,x,{x4},{right},{right}",
        f'2,"{{""diagonals"": true}}",{x4},{right},{right}',
    ]
    assert "2 checked against the rules and the file's solutions: 0 problem(s)" in captured.err
    path = tmp_path / "x.jsonl"
    classic = oracle.count_solutions(x4, {}, 5)[1]
    wrong = next(g for g in classic if not oracle.is_valid_solution(g, {"diagonals": True}))
    path.write_text(json.dumps({"puzzle": x4, "rules": "x", "solution": wrong}) + "\n")
    assert main(["solve", str(path), "--verify", "-q"]) == EXIT_CHECK_FAILED
    assert ":1: mismatch: the given solution is not a solution of the puzzle" in (
        capsys.readouterr().err
    )
