"""Parquet through the CLI against in-memory solve_many on a numpy array of the same puzzles.

Builds a Parquet file of ROWS puzzles (the shared Kaggle 10k set repeated, with an id
column and the given solutions), times `sudoku-fast solve in.parquet -o out.parquet`
(the command's own rate, and its max RSS measured by the OS), times `solve_many` on the
same puzzles as an (n, 81) uint8 array, and checks every answer of the output file.

    python bench/parquet_io.py --rows 1000000 [--rows 10000000] [--threads N]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

import sudoku_fast as sf

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
SOURCE = SHARED / "kaggle_bryanpark_10k_with_solutions.csv"


def build(path: Path, rows: int) -> tuple[list[str], list[str]]:
    lines = SOURCE.read_text().split()[1:]
    puzzles = [line.split(",")[0] for line in lines]
    solutions = [line.split(",")[1] for line in lines]
    reps = -(-rows // len(puzzles))
    writer = None
    written = 0
    for _ in range(reps):
        take = min(len(puzzles), rows - written)
        table = pa.table(
            {
                "id": pa.array(np.arange(written, written + take)),
                "quizzes": pa.array(puzzles[:take]),
                "solutions": pa.array(solutions[:take]),
            }
        )
        if writer is None:
            writer = pq.ParquetWriter(path, table.schema)
        writer.write_table(table, row_group_size=131_072)
        written += take
    assert writer is not None
    writer.close()
    return puzzles, solutions


def cli_run(src: Path, out: Path, threads: int | None) -> tuple[float, float]:
    """(seconds of the solve as the command reports it, max RSS of the child in MiB)."""
    cmd = [sys.executable, "-m", "sudoku_fast", "solve", str(src), "-o", str(out)]
    if threads is not None:
        cmd += ["--threads", str(threads)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    done = subprocess.run(cmd, check=True, capture_output=True, text=True)
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    if rss < before:
        rss = before
    seconds = float(done.stderr.split(" puzzles in ")[1].split(" s ")[0])
    return seconds, rss / 1024


def in_memory(puzzles: list[str], rows: int, threads: int | None) -> float:
    raw = np.frombuffer("".join(puzzles).encode(), dtype=np.uint8).reshape(-1, 81)
    grid = np.where(raw == ord("."), 0, raw - ord("0")).astype(np.uint8)
    grids = np.resize(grid, (rows, 81))
    start = time.perf_counter()
    sf.solve_many(grids, threads)
    return time.perf_counter() - start


def verify(out: Path) -> None:
    for batch in pq.ParquetFile(out).iter_batches(columns=["id", "solutions", "solution"]):
        assert batch.column("solution").equals(batch.column("solutions")), "wrong solution"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, action="append")
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"cores usable: {len(os.sched_getaffinity(0))}, threads: {args.threads or 'all'}")
    print("rows | CLI Parquet solve /s (best) | solve_many numpy /s (best) | ratio | CLI max RSS")
    with tempfile.TemporaryDirectory() as tmp:
        for rows in args.rows or [1_000_000]:
            src, out = Path(tmp) / "in.parquet", Path(tmp) / "out.parquet"
            puzzles, _ = build(src, rows)
            cli_best, mem_best, rss = float("inf"), float("inf"), 0.0
            for _ in range(args.repeat):
                seconds, rss = cli_run(src, out, args.threads)
                cli_best = min(cli_best, seconds)
                mem_best = min(mem_best, in_memory(puzzles, rows, args.threads))
            verify(out)
            print(
                f"{rows:,} | {rows / cli_best:,.0f} | {rows / mem_best:,.0f} | "
                f"{mem_best / cli_best:.2f} | {rss:,.0f} MiB"
            )


if __name__ == "__main__":
    main()
