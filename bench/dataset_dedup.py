"""A dataset built by `augment`, deduplicated by `dedup`: the count checked against how it was
built, and the memory of each command (peak RSS) at two file sizes.

    python bench/dataset_dedup.py [--copies 100] [--small-copies 10] [--threads 2]

1. The shared Kaggle sample (10,000 puzzles with solutions) is written to Parquet.
2. `sudoku-fast augment -n COPIES --seed 1` makes COPIES random symmetric copies of every
   row (solutions moved alike): 1,000,000 rows for COPIES = 100.
3. The expected number of distinct rows up to symmetry is counted from the construction
   alone: every copy is equivalent to its source row, so the answer is the number of
   distinct canonical forms among the 10,000 sources (computed here with
   `canonical_many` on the sources, never on the copies).
4. `sudoku-fast dedup --key` runs on the augmented file; its kept rows are compared with
   the expected count, and the set of their `canonical` keys with the sources' forms.
   Every augmented pair is checked by the rules too (`check_many`).
5. The same for SMALL_COPIES copies: "flat memory" means the peak RSS of dedup hardly
   moves when the file grows by COPIES / SMALL_COPIES.

Each command runs in its own process; peak RSS is that process's ru_maxrss.
"""

from __future__ import annotations

import argparse
import csv
import os
import subprocess
import sys
import tempfile
from pathlib import Path

KAGGLE = Path(__file__).resolve().parents[1] / ".." / "shared" / "data"
KAGGLE_FILE = "kaggle_bryanpark_10k_with_solutions.csv"


# Runs one command in a child of a fresh interpreter and reports that child's peak RSS
# (RUSAGE_CHILDREN of the fresh interpreter is the command's alone).
_MEASURE = (
    "import resource, subprocess, sys, time\n"
    "started = time.perf_counter()\n"
    "proc = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
    "seconds = time.perf_counter() - started\n"
    "sys.stderr.write(proc.stderr)\n"
    "peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
    "print(proc.returncode, seconds, peak)\n"
)


def peak_of(args: list[str]) -> tuple[float, float, str]:
    """(seconds, peak RSS in MiB, stderr) of `python -m sudoku_fast ARGS`."""
    out = subprocess.run(
        [sys.executable, "-c", _MEASURE, sys.executable, "-m", "sudoku_fast", *args],
        capture_output=True,
        encoding="utf-8",
        check=False,
    )
    code, seconds, peak = out.stdout.split()
    if int(code) != 0:
        raise SystemExit(f"{args[0]} failed ({code}): {out.stderr}")
    return float(seconds), int(peak) / 1024, out.stderr


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=100)
    parser.add_argument("--small-copies", type=int, default=10)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--data", type=Path, default=KAGGLE / KAGGLE_FILE)
    args = parser.parse_args()

    import pyarrow as pa
    import pyarrow.parquet as pq

    import sudoku_fast as sf

    with open(args.data, newline="") as f:
        rows = list(csv.DictReader(f))
    puzzles = [r["puzzle"] for r in rows]
    solutions = [r["solution"] for r in rows]
    expected_forms = set(sf.canonical_many(puzzles))
    print(f"sources: {len(puzzles):,} puzzles, {len(expected_forms):,} distinct canonical forms")
    print(f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")

    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        source = work / "pairs.parquet"
        pq.write_table(pa.table({"quizzes": puzzles, "solutions": solutions}), source)
        for copies in (args.small_copies, args.copies):
            augmented = work / f"augmented_{copies}.parquet"
            t_aug, rss_aug, _ = peak_of(
                ["augment", str(source), "-n", str(copies), "--seed", "1", "-q",
                 "--threads", str(args.threads), "-o", str(augmented)]
            )  # fmt: skip
            meta = pq.ParquetFile(augmented).metadata
            n = meta.num_rows
            table = pq.read_table(augmented, columns=["quizzes", "solutions"])
            valid = sf.check_many(table.column("quizzes"), table.column("solutions"))
            assert valid.all(), "an augmented solution does not solve its puzzle"
            del table, valid
            out = work / f"dedup_{copies}.parquet"
            t_dedup, rss_dedup, stderr = peak_of(
                ["dedup", str(augmented), "--key", "--threads", str(args.threads),
                 "-o", str(out)]
            )  # fmt: skip
            kept = pq.read_table(out, columns=["canonical"]).column("canonical").to_pylist()
            ok = len(kept) == len(expected_forms) and set(kept) == expected_forms
            print(
                f"copies {copies:>4}: {n:>9,} rows, {meta.num_row_groups} row groups | "
                f"augment {t_aug:6.1f} s, peak RSS {rss_aug:6.0f} MiB | "
                f"dedup {t_dedup:6.1f} s ({n / t_dedup:,.0f} rows/s), peak RSS "
                f"{rss_dedup:6.0f} MiB | kept {len(kept):,} "
                f"{'== construction' if ok else '!= construction (WRONG)'}"
            )
            print("   dedup said:", stderr.strip().splitlines()[-1])
            assert ok


if __name__ == "__main__":
    main()
