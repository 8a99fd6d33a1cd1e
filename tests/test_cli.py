"""The main job: `python -m sudoku_fast` solves and verifies the embedded sets."""

from __future__ import annotations

import subprocess
import sys

from sudoku_fast.datasets import EMBEDDED_SETS


def test_main_job_prints_the_table() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "sudoku_fast", "--threads", "2"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert "puzzles/s" in lines[0] and "guesses/puzzle" in lines[0]
    for name in EMBEDDED_SETS:
        row = next(line for line in lines if line.startswith(name))
        fields = row.split()
        assert fields[1] == fields[2] == fields[3]  # puzzles == solved == verified
        assert fields[-1] == "2" or int(fields[-1]) <= 2
    assert "verified independently" in proc.stdout
