"""A generated data set's rows can be made again alone: each row's seed (`row_seeds`, the
Parquet and dask `seed` column) given to `generate` makes that row's puzzle."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import sudoku_fast as sf
from sudoku_fast.generator import ROW_SEED_BITS, iter_generate, row_seeds

OPTIONS: list[dict[str, Any]] = [
    {},
    {"difficulty": "medium", "symmetry": "rotational"},
    {"size": 6, "difficulty": "easy", "minimal": False},
    {"size": 4},
]


@pytest.mark.parametrize("options", OPTIONS)
def test_each_puzzle_of_a_batch_is_generate_with_its_row_seed(options: dict[str, Any]) -> None:
    made = sf.generate_many(8, seed=21, threads=2, **options)
    seeds = row_seeds(8, seed=21)
    assert len(set(seeds)) == 8 and all(0 <= s < 2**ROW_SEED_BITS for s in seeds)
    for i in random.Random(1).sample(range(8), 3):
        assert sf.generate(seed=seeds[i], **options) == made[i]
    # Still reproducible, whatever the threads, and in chunks.
    assert sf.generate_many(8, seed=21, threads=1, **options) == made
    chunks = iter_generate(8, seed=21, chunk=3, **options)
    assert [p for chunk in chunks for p in chunk] == made


def test_seeds_are_checked_and_large_ones_still_work() -> None:
    with pytest.raises(ValueError, match="seed must not be negative"):
        row_seeds(3, seed=-1)
    with pytest.raises(ValueError, match="n must not be negative"):
        row_seeds(-1, seed=1)
    big = sf.generate(seed=2**70)
    assert big == sf.generate(seed=2**70) and sf.count_solutions(big) == 1
    assert row_seeds(4, seed=None) != row_seeds(4, seed=None)  # fresh randomness


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sudoku_fast", *args], capture_output=True, text=True, timeout=300
    )


@pytest.mark.parametrize("seed", [["--seed", "5"], []])
def test_parquet_rows_regenerate_from_their_seed_column(tmp_path: Path, seed: list[str]) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    out = tmp_path / "g.parquet"
    shape = ["--difficulty", "easy", "--symmetry", "mirror"]
    proc = run_cli("generate", "-n", "12", *seed, *shape, "--format", "parquet", "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    table = pq.read_table(out).to_pylist()
    assert len({row["seed"] for row in table}) == 12
    for row in random.Random(2).sample(table, 4):
        assert sf.generate("easy", seed=row["seed"], symmetry="mirror") == row["puzzle"]
    if seed:  # the run's seed makes the same file, and generate_many the same puzzles
        assert [row["puzzle"] for row in table] == sf.generate_many(
            12, "easy", seed=5, symmetry="mirror"
        )
        assert [row["seed"] for row in table] == row_seeds(12, seed=5)


def test_a_score_band_s_rows_have_no_seed(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    out = tmp_path / "g.parquet"
    proc = run_cli(
        "generate", "-n", "2", "--seed", "1", "--score", "1.2-1.5", "--format", "parquet",
        "-o", str(out),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert pq.read_table(out)["seed"].to_pylist() == [None, None]
