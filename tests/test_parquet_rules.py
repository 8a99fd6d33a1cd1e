"""Variant rules in Parquet files: `generate --format parquet` writes a `rules` column,
`solve` / `rate` read it (and take --variant / --rules for every row), a row whose rules
are bad is that row's problem only.

Every answer is checked by the independent checker of tests/variant_oracle.py and
uniqueness by its SAT counter, never by the engine alone.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import variant_oracle as oracle

import sudoku_fast as sf
from sudoku_fast._files import parquet_io
from sudoku_fast.cli import main
from sudoku_fast.cli.exits import EXIT_OK

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


@pytest.fixture(scope="module")
def x_puzzles() -> list[str]:
    return [p.puzzle for p in sf.generate_many(3, rules="x", seed=21)]


def test_generated_variant_puzzles_go_through_parquet(tmp_path: Path) -> None:
    made = tmp_path / "k.parquet"
    argv = ["generate", "-n", "4", "--size", "6", "--variant", "killer", "--seed", "3"]
    assert main([*argv, "--format", "parquet", "-o", str(made)]) == EXIT_OK
    table = pq.read_table(made).to_pylist()
    assert len(table) == 4
    expected = sf.generate_many(4, size=6, rules="killer", seed=3)
    for row, item in zip(table, expected, strict=True):
        rules = json.loads(row["rules"])
        assert (row["puzzle"], rules) == (item.puzzle, item.rules.to_json())
        found, solutions = oracle.count_solutions(row["puzzle"], rules)
        assert found == 1  # unique under its rules, by the SAT counter
        assert row["solution"] == solutions[0]
        assert row["level"] == sf.rate(row["puzzle"], rules=item.rules).level
    # The file's own rules column is read back by solve and rate.
    solved = tmp_path / "ks.parquet"
    assert main(["solve", str(made), "-o", str(solved), "--verify", "-q"]) == EXIT_OK
    for row in pq.read_table(solved).to_pylist():
        assert oracle.is_valid_solution(row["solution"], json.loads(row["rules"]), row["puzzle"])
    rated = tmp_path / "kr.parquet"
    assert main(["rate", str(made), "-o", str(rated), "-q"]) == EXIT_OK
    levels = [row["level_rated"] for row in pq.read_table(rated).to_pylist()]
    assert levels == [row["level"] for row in table]


def test_run_rules_apply_to_every_row(tmp_path: Path, x_puzzles: list[str]) -> None:
    path = tmp_path / "x.parquet"
    pq.write_table(pa.table({"puzzle": x_puzzles}), path)
    out = tmp_path / "out.parquet"
    # Under classic rules these puzzles have several solutions; under X exactly one.
    parquet_io.solve_parquet(str(path), str(out), count=True)
    assert pq.read_table(out).column("count").to_pylist() == [2] * len(x_puzzles)
    report = parquet_io.solve_parquet(str(path), str(out), rules=sf.Rules.named("x"), verify=True)
    assert (report.solved, report.checked, report.mismatches) == (3, 3, 0)
    for row in pq.read_table(out).to_pylist():
        assert oracle.is_valid_solution(row["solution"], {"diagonals": True}, row["puzzle"])
    assert main(["solve", str(path), "-o", str(out), "--count", "--variant", "x", "-q"]) == 0
    assert pq.read_table(out).column("count").to_pylist() == [1] * len(x_puzzles)


def test_a_rules_column_mixes_rule_sets_and_a_bad_row_is_its_own(
    tmp_path: Path, x_puzzles: list[str]
) -> None:
    classic = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    puzzles = [x_puzzles[0], classic, x_puzzles[1], x_puzzles[2]]
    rules = ["x", None, "not-a-rule-set", '{"diagonals": true}']
    path = tmp_path / "mixed.parquet"
    pq.write_table(pa.table({"puzzle": puzzles, "Rules": rules}), path)
    out = tmp_path / "out.parquet"
    report = parquet_io.solve_parquet(str(path), str(out), on_error="mark", verify=True)
    assert (report.rows, report.solved, report.malformed) == (4, 3, 1)
    assert len(report.problems) == 1 and report.problems[0].startswith("row 2: malformed: rules")
    rows = pq.read_table(out).to_pylist()
    assert rows[2]["solution"] is None
    for i in (0, 1, 3):
        own = {"diagonals": True} if i != 1 else {}
        assert oracle.is_valid_solution(rows[i]["solution"], own, puzzles[i])
    with pytest.raises(parquet_io.MalformedRow, match="row 2: rules"):
        parquet_io.solve_parquet(str(path), str(tmp_path / "none.parquet"))
    assert not (tmp_path / "none.parquet").exists()
    # The rating skips the bad row the same way and rates the rest under their rules.
    rated = parquet_io.rate_parquet(str(path), str(out), on_error="mark")
    assert (rated.solved, rated.malformed) == (3, 1)
    levels = pq.read_table(out).column("level").to_pylist()
    assert levels[2] is None
    assert levels[0] == sf.rate(puzzles[0], rules="x").level


def test_verify_under_rules_refuses_a_classic_solution(
    tmp_path: Path, x_puzzles: list[str]
) -> None:
    """A given solution that keeps the classic rules but breaks X is caught by the check
    (written apart from the engines) and the row reported, not silently accepted."""
    puzzle = x_puzzles[0]
    classic = [
        s
        for s in oracle.count_solutions(puzzle, {}, limit=20)[1]
        if not oracle.is_valid_solution(s, {"diagonals": True})
    ]
    assert classic
    path = tmp_path / "given.parquet"
    pq.write_table(pa.table({"puzzle": [puzzle], "solution": [classic[0]]}), path)
    report = parquet_io.solve_parquet(
        str(path), str(tmp_path / "out.parquet"), rules=sf.Rules.named("x"), verify=True
    )
    assert report.mismatches == 1
    assert "the given solution is not a solution" in report.problems[0]


def test_a_rules_column_must_hold_text(tmp_path: Path, x_puzzles: list[str]) -> None:
    path = tmp_path / "bad.parquet"
    pq.write_table(pa.table({"puzzle": x_puzzles, "rules": [1, 2, 3]}), path)
    with pytest.raises(ValueError, match="column 'rules' must hold rules as text"):
        parquet_io.solve_parquet(str(path), str(tmp_path / "out.parquet"))
