"""The Parquet copy path's own throughput by I/O thread count, with no solving.

python bench/parquet_pipeline.py [--rows 1000000] [--threads 1 2 ...] [--rounds 5]

`parquet_io.add_columns` (what `sudoku-fast solve in.parquet -o out.parquet` runs)
with an `answer` that costs next to nothing: the new column is the puzzle column
itself, so what is timed is reading and decompressing the puzzle column, encoding and
compressing the added column (as many bytes as a solution column) and copying the
other columns, over the file's row groups. `threads` is what the command's
`--threads` would be: the number of threads that read and encode row groups at once
(`parquet_io.ordered_pipeline`). Rounds interleave the thread counts; medians of wall
seconds, and the speed-up over the first count in the same round. Every output is
read back and its added column compared with the input's puzzle column.

The file is bench/parquet_io.py's (the Kaggle set, relabelled copies, row groups of
131,072, snappy).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
from parquet_io import build

from sudoku_fast._files import parquet_io


def copy_column(puzzles: Any) -> Any:
    """The cheapest answer of the right shape: the puzzle column as the added column."""
    return pa.table([puzzles], names=["added"])


def run(src: Path, out: Path, threads: int) -> float:
    """Wall seconds of one add_columns pass with `threads` I/O threads."""
    began = time.perf_counter()
    parquet_io.add_columns(str(src), str(out), None, copy_column, threads=threads)
    return time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--dir", default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        src = Path(tmp) / "in.parquet"
        out = Path(tmp) / "out.parquet"
        build(src, args.rows, "kaggle")
        times: dict[int, list[float]] = {t: [] for t in args.threads}
        ratios: dict[int, list[float]] = {t: [] for t in args.threads}
        for _ in range(args.rounds):
            first = None
            for t in args.threads:
                seconds = run(src, out, t)
                table = pq.read_table(out, columns=["quizzes", "added"])
                if not table["quizzes"].equals(table["added"]):
                    raise SystemExit(f"threads={t}: the added column differs from the input's")
                times[t].append(seconds)
                first = seconds if first is None else first
                ratios[t].append(first / seconds)
        print(f"rows: {args.rows:,}, rounds: {args.rounds}")
        print("| threads | wall s (median) | rows/s | speed-up over the first (median of rounds) |")
        print("|---:|---:|---:|---:|")
        for t in args.threads:
            wall = statistics.median(times[t])
            print(
                f"| {t} | {wall:.3f} | {args.rows / wall:,.0f} | "
                f"{statistics.median(ratios[t]):.2f} |"
            )


if __name__ == "__main__":
    main()
