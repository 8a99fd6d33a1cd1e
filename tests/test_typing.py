"""Typed options as a user's type checker sees them: `mypy --strict` on two small user
scripts, run in a folder of their own against the installed package (no project
configuration), as a user's project would run it.

The script with typos (a misspelt difficulty, `output`, symmetry, data set, lab
algorithm) must fail, with one error on each misspelt line; the correct one must pass,
and its `assert_type`s prove that each `output=` value gives its precise type. The
correct script also runs, so its calls are real.
"""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("mypy")

CORRECT = """
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

import sudoku_fast as sf
from sudoku_fast import lab
from sudoku_fast.datasets import load_embedded

if TYPE_CHECKING:
    from typing_extensions import assert_type
else:

    def assert_type(value, _type):
        return value


P = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
grids = np.zeros((2, 81), dtype=np.uint8)

assert_type(sf.solve_many([P]), list[str | None])
assert_type(sf.solve_many([P], output="list"), list[str | None])
assert_type(sf.solve_many([P], output="like"), list[str | None])
assert_type(sf.solve_many(grids), npt.NDArray[np.uint8])
assert_type(sf.solve_many(grids, output="like"), npt.NDArray[np.uint8])
assert_type(sf.solve_many(grids, output="list"), list[str | None])
assert_type(sf.count_many([P]), list[int])
assert_type(sf.count_many([P], output="list"), list[int])
assert_type(sf.count_many(grids, output="like"), npt.NDArray[np.int32])
assert_type(sf.rate_many([P]), list[sf.Rating])
assert_type(sf.rate_many([P], output="list"), list[sf.Rating])
sf.solve_many([P], output="arrow")  # a pyarrow array (pyarrow ships no types)
# on_error: "raise" answers every item; "none" and "warn" may answer None.
assert_type(sf.count_many([P], on_error="raise"), list[int])
assert_type(sf.count_many([P], on_error="none"), list[int | None])
assert_type(sf.count_many([P], on_error="warn"), list[int | None])
assert_type(sf.rate_many([P], on_error="none"), list[sf.Rating | None])
assert_type(sf.canonical_many([P]), list[str])
assert_type(sf.canonical_many([P], on_error="warn"), list[str | None])
assert_type(sf.canonical_transform_many([P]), list[sf.Transformation])
assert_type(sf.canonical_transform_many([P], on_error="none"), list[sf.Transformation | None])
assert_type(sf.random_transform_many([P], seed=1), list[str])
assert_type(sf.random_transform_many([P], on_error="none"), list[str | None])
assert_type(sf.solve_many([P], on_error="none"), list[str | None])
# progress: a callback (done, total) or True.
assert_type(sf.solve_many([P], progress=True), list[str | None])
assert_type(sf.count_many([P], progress=lambda done, total: None), list[int])
assert_type(sf.generate_many(2, seed=1, progress=True), list[str])

level: int = 1
assert_type(sf.generate(difficulty="easy", symmetry="rotational", seed=1), str)
assert_type(sf.generate(difficulty=level, symmetry="dihedral", seed=1), str)
assert_type(sf.generate_many(2, difficulty="medium", symmetry="mirror", seed=1), list[str])
assert_type(load_embedded("norvig_top95"), list[str])
assert_type(lab.solve(P, "ac+dual", order="minrv", value_order="least"), lab.LabResult)
"""

TYPOS = {
    'sf.generate(difficulty="hardd")': "difficulty",
    'sf.solve_many([P], output="pandas")': "output",
    'sf.generate_many(2, symmetry="rotation")': "symmetry",
    'load_embedded("norvig_top96")': "data set",
    'lab.solve(P, "dancing links")': "algorithm",
    'sf.count_many([P], output="Arrow")': "output",
    'lab.count(P, order="minimum")': "variable order",
    'sf.count_many([P], on_error="skip")': "on_error",
    'sf.solve_many([P], progress="yes")': "progress",
}


def run_mypy(folder: Path, *scripts: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--no-incremental",
            "--cache-dir",
            str(folder / ".mypy_cache"),
            "--no-error-summary",
            "--show-error-codes",
            *scripts,
        ],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_mypy_strict_passes_a_correct_script_and_fails_every_typo(tmp_path: Path) -> None:
    (tmp_path / "correct.py").write_text(textwrap.dedent(CORRECT), encoding="utf-8")
    header = textwrap.dedent(CORRECT).split("\nassert_type(", 1)[0]
    body = "\n".join(TYPOS)
    (tmp_path / "typos.py").write_text(f"{header}\n{body}\n", encoding="utf-8")
    result = run_mypy(tmp_path, "correct.py", "typos.py")
    errors = [line for line in result.stdout.splitlines() if ": error:" in line]
    assert not [e for e in errors if e.startswith("correct.py")], result.stdout
    lines = (tmp_path / "typos.py").read_text(encoding="utf-8").splitlines()
    for call, what in TYPOS.items():
        number = lines.index(call) + 1
        assert any(re.match(rf"typos\.py:{number}: error:", e) for e in errors), (
            f"a misspelt {what} ({call}) passed mypy --strict:\n{result.stdout}"
        )
    assert result.returncode == 1, result.stdout + result.stderr


def test_the_correct_script_runs(tmp_path: Path) -> None:
    script = tmp_path / "correct.py"
    script.write_text(textwrap.dedent(CORRECT), encoding="utf-8")
    subprocess.run([sys.executable, str(script)], check=True, cwd=tmp_path, timeout=300)
