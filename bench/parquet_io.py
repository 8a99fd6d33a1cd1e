"""Parquet through the CLI against in-memory solve_many on the same puzzles.

Builds a Parquet file of ROWS puzzles from the shared sets, each row a distinct puzzle:
the set is cycled and every copy gets its digits relabelled by a random permutation (a
relabelled puzzle is as hard as the original and its solution is the original's,
relabelled). `--set kaggle` takes the Kaggle 10k set (easy puzzles: the worst case for
the I/O share); `--set mix` adds sudoku17_49158, magictour_top2365 and the SE-rated
set. Columns: id, quizzes, solutions (the relabelled given solution where the set has
one, else null).

Each round times, interleaved: `sudoku-fast solve in.parquet -o out.parquet` (the rate
the command reports, its wall time, CPU time and max RSS from the kernel), the same
command from another source tree (`--before SRC`, e.g. a checkout of the previous
commit), and `solve_many` on the puzzles as an (n, 81) uint8 array, as a pyarrow
ChunkedArray (output="arrow") and as a pandas Series (output="like"). Medians over the
rounds are printed, with the ratios to the in-memory numpy rate of the same round.
Every answer of the output file is checked by a rule check written here (rows, columns,
boxes, clues kept; no engine code) and against the given solutions.

    python bench/parquet_io.py --rows 1000000 --set kaggle --rounds 3 [--before SRC]
        [--also "--compression none"]
    python bench/parquet_io.py --rows 1000000 --stages   # CPU seconds per step
    python bench/parquet_io.py --rows 10000000 --rounds 1 --only-cli   # RSS at 10x rows
"""

from __future__ import annotations

import argparse
import csv
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

import sudoku_fast as sf

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
GROUP = 131_072


def load_set(name: str) -> tuple[np.ndarray, np.ndarray]:
    """(puzzles, solutions) as (n, 81) ASCII byte arrays; a solution row of zeros if unknown."""
    puzzles: list[str] = []
    solutions: list[str] = []
    with (SHARED / "kaggle_bryanpark_10k_with_solutions.csv").open() as f:
        for row in csv.DictReader(f):
            puzzles.append(row["puzzle"])
            solutions.append(row["solution"])
    if name == "mix":
        extra = [
            line.strip()
            for file in ("sudoku17_49158.txt", "magictour_top2365.txt")
            for line in (SHARED / file).read_text().splitlines()
            if len(line.strip()) == 81
        ]
        with (SHARED / "sudoku_exchange_se_rated.csv").open() as f:
            extra += [row["puzzle"] for row in csv.DictReader(f)]
        puzzles += extra
        solutions += ["\0" * 81] * len(extra)
    p = np.frombuffer("".join(puzzles).encode(), dtype=np.uint8).reshape(-1, 81)
    s = np.frombuffer("".join(solutions).encode(), dtype=np.uint8).reshape(-1, 81)
    return p, s


def relabel(rows: np.ndarray, perms: np.ndarray) -> np.ndarray:
    """Map digit d of row i to perms[i, d - 1]; '.', '0' and NUL stay."""
    table = np.tile(np.arange(256, dtype=np.uint8), (len(rows), 1))
    table[:, ord("1") : ord("9") + 1] = perms
    return np.take_along_axis(table, rows.astype(np.intp), axis=1)


def strings(rows: np.ndarray) -> pa.Array:
    """(n, 81) ASCII bytes -> a pyarrow string array (null where the row is all NUL)."""
    n = len(rows)
    offsets = pa.py_buffer(np.arange(n + 1, dtype=np.int32) * 81)
    valid = rows[:, 0] != 0
    validity = None if valid.all() else pa.py_buffer(np.packbits(valid, bitorder="little"))
    nulls = int(n - valid.sum())
    data = pa.py_buffer(np.ascontiguousarray(rows).tobytes())
    return pa.Array.from_buffers(pa.string(), n, [validity, offsets, data], null_count=nulls)


def build(path: Path, rows: int, which: str) -> None:
    """Write the benchmark file (see the module doc), in row groups of GROUP rows."""
    puzzles, solutions = load_set(which)
    rng = np.random.default_rng(2024)
    writer = None
    done = 0
    while done < rows:
        take = min(GROUP, rows - done)
        index = np.arange(done, done + take) % len(puzzles)
        perms = (np.argsort(rng.random((take, 9)), axis=1) + ord("1")).astype(np.uint8)
        table = pa.table(
            {
                "id": pa.array(np.arange(done, done + take)),
                "quizzes": strings(relabel(puzzles[index], perms)),
                "solutions": strings(relabel(solutions[index], perms)),
            }
        )
        if writer is None:
            writer = pq.ParquetWriter(path, table.schema)
        writer.write_table(table)
        done += take
    assert writer is not None
    writer.close()


def column_bytes(column: Any) -> np.ndarray:
    """An Arrow string column of 81-character rows (no nulls) as an (n, 81) uint8 array."""
    column = pa.chunked_array(column) if isinstance(column, pa.Array) else column
    parts = []
    for chunk in column.chunks:
        offsets = np.frombuffer(chunk.buffers()[1], dtype=np.int32)[
            chunk.offset : chunk.offset + len(chunk) + 1
        ]
        assert (np.diff(offsets) == 81).all(), "a row is not 81 characters"
        data = np.frombuffer(chunk.buffers()[2], dtype=np.uint8)
        parts.append(data[offsets[0] : offsets[-1]].reshape(-1, 81))
    return np.concatenate(parts) if parts else np.zeros((0, 81), np.uint8)


def rule_check(puzzles: np.ndarray, answers: np.ndarray) -> None:
    """Every answer is a full grid by the rules and keeps every clue (ASCII rows)."""
    grid = answers.astype(np.int16) - ord("0")
    assert ((grid >= 1) & (grid <= 9)).all(), "an answer has a cell that is not 1-9"
    want = np.arange(1, 10)
    square = grid.reshape(-1, 9, 9)
    boxes = square.reshape(-1, 3, 3, 3, 3).transpose(0, 1, 3, 2, 4).reshape(-1, 9, 9)
    for units in (square, square.transpose(0, 2, 1), boxes):
        assert (np.sort(units, axis=2) == want).all(), "a row, column or box repeats a digit"
    clue = (puzzles != ord(".")) & (puzzles != ord("0"))
    assert (puzzles[clue] == answers[clue]).all(), "an answer changes a clue"


def verify(out: Path, rows: int) -> None:
    """Check the output file: row order, every answer by the rules, given solutions."""
    seen = 0
    for batch in pq.ParquetFile(out).iter_batches(batch_size=GROUP):
        ids = batch.column("id").to_numpy()
        assert (ids == np.arange(seen, seen + len(ids))).all(), "rows out of order"
        puzzles = column_bytes(batch.column("quizzes"))
        answers = column_bytes(batch.column("solution"))
        rule_check(puzzles, answers)
        given = batch.column("solutions")
        known = given.is_valid().to_numpy(zero_copy_only=False)
        if known.any():
            assert (column_bytes(given.filter(known)) == answers[known]).all(), "wrong solution"
        seen += len(ids)
    assert seen == rows, f"{seen} rows written, {rows} expected"


def cli_run(
    src: Path, out: Path, threads: int | None, source: str | None, extra: tuple[str, ...] = ()
) -> dict[str, float]:
    """Run the command once: its reported seconds, wall seconds, CPU seconds, max RSS MiB.

    The previous round's output is deleted first, outside the timing: a command writing
    over an existing file also pays for freeing the old one (about 0.1 s for 120 MB
    here), which the in-memory calls compared with it never do.
    """
    out.unlink(missing_ok=True)
    cmd = [sys.executable, "-m", "sudoku_fast", "solve", str(src), "-o", str(out), *extra]
    if threads is not None:
        cmd += ["--threads", str(threads)]
    env = dict(os.environ)
    if source is not None:
        env["PYTHONPATH"] = source
    # Through /usr/bin/time, a small process: a child forked from this (large) one would
    # report this one's memory as its own maximum.
    stats = Path(tempfile.gettempdir()) / f"parquet_io_bench_{os.getpid()}.time"
    cmd = ["/usr/bin/time", "-o", str(stats), "-f", "%e %U %S %M", *cmd]
    done = subprocess.run(cmd, capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    wall, user, system, rss = stats.read_text().split()[-4:]
    stats.unlink()
    return {
        "seconds": float(done.stderr.split(" puzzles in ")[1].split(" s ")[0]),
        "wall": float(wall),
        "cpu": float(user) + float(system),
        "rss": int(rss) / 1024,
    }


def in_memory(data: Any, threads: int | None, output: str | None) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one solve_many call."""
    cpu, start = time.process_time(), time.perf_counter()
    sf.solve_many(data, threads=threads, output=output)
    return time.perf_counter() - start, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--set", choices=("kaggle", "mix"), default="kaggle")
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--before", default=None, help="source tree of the 'before' code")
    parser.add_argument("--only-cli", action="store_true", help="time the command only")
    parser.add_argument(
        "--also",
        action="append",
        default=[],
        metavar="OPTIONS",
        help="time the command with these options too (e.g. '--compression none')",
    )
    parser.add_argument("--dir", default=None, help="where to put the files (default: a temp dir)")
    parser.add_argument(
        "--stages", action="store_true", help="CPU seconds per stage of the command, serially"
    )
    args = parser.parse_args()
    rows = args.rows
    print(
        f"cores usable: {len(os.sched_getaffinity(0))}, threads: {args.threads or 'all'}, "
        f"rows: {rows:,}, set: {args.set}"
    )
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        src, out = Path(tmp) / "in.parquet", Path(tmp) / "out.parquet"
        build(src, rows, args.set)
        if args.stages:
            stage_budget(src, Path(tmp) / "stages.parquet")
            return
        table = None if args.only_cli else pq.read_table(src, columns=["quizzes"])
        runs: dict[str, list[dict[str, float]]] = {}
        for r in range(args.rounds):
            timings = {"cli": cli_run(src, out, args.threads, None)}
            if r == 0:
                verify(out, rows)
            for options in args.also:
                timings[f"cli {options}"] = cli_run(
                    src, out, args.threads, None, tuple(options.split())
                )
                if r == 0:
                    verify(out, rows)
            if args.before is not None:
                timings["cli before"] = cli_run(src, out, args.threads, args.before)
            if table is not None:
                column = table.column("quizzes")
                grids = np.where((b := column_bytes(column)) == ord("."), 0, b - ord("0")).astype(
                    np.uint8
                )
                for label, data, output in (
                    ("numpy", grids, None),
                    ("arrow", column, "arrow"),
                    ("pandas", column.to_pandas(types_mapper=pd_string()), "like"),
                ):
                    wall, cpu = in_memory(data, args.threads, output)
                    timings[label] = {"seconds": wall, "cpu": cpu}
                del grids
            for label, timing in timings.items():
                runs.setdefault(label, []).append(timing)
            print(
                f"round {r + 1}: "
                + ", ".join(f"{k} {v['seconds']:.2f} s" for k, v in timings.items()),
                flush=True,
            )
        print(
            "\nhow | rate /s (median) | x numpy (median of rounds) | CPU s | wall s | max RSS MiB"
        )
        for label, timings in runs.items():
            rate = statistics.median(rows / t["seconds"] for t in timings)
            ratio = (
                statistics.median(
                    m["seconds"] / t["seconds"] for t, m in zip(timings, runs["numpy"], strict=True)
                )
                if "numpy" in runs
                else float("nan")
            )
            cpu = statistics.median(t["cpu"] for t in timings)
            wall = statistics.median(t.get("wall", t["seconds"]) for t in timings)
            rss = max(t.get("rss", 0.0) for t in timings)
            print(f"{label} | {rate:,.0f} | {ratio:.2f} | {cpu:.2f} | {wall:.2f} | {rss:,.0f}")


def _cpu(spent: dict[str, float], label: str, step: Any, *args: Any, **kwargs: Any) -> Any:
    """`step(*args, **kwargs)`, its CPU seconds added to spent[label]."""
    start = time.process_time()
    result = step(*args, **kwargs)
    spent[label] = spent.get(label, 0.0) + time.process_time() - start
    return result


def stage_budget(src: Path, out: Path, repeats: int = 3) -> None:
    """CPU seconds of each step of the command's copy path, one after another (min of 3).

    The steps run serially on one thread (the engine too), so each one's CPU time is its
    own; in the command they overlap on the read, engine and write threads.
    """
    from sudoku_fast._columns import frames
    from sudoku_fast._files import parquet_io

    source = pq.ParquetFile(src)
    meta = parquet_io._spliceable(str(src))
    assert meta is not None, "the file cannot be copied"
    best: dict[str, float] = {}
    for codec in ("snappy", "none"):
        for _ in range(repeats):
            spent: dict[str, float] = {}
            with src.open("rb") as raw, out.open("wb") as sink:
                splice = parquet_io._Splice(meta, raw, sink, codec, source.schema_arrow)
                for g in range(source.num_row_groups):
                    label = "read the puzzle column"
                    puzzles = _cpu(spent, label, source.read_row_group, g, ["quizzes"]).column(0)
                    label = "encode puzzles (part of solve)"
                    _cpu(spent, label, frames.read_column, puzzles, "solve", None, None)
                    label = "solve, 1 thread (Arrow in and out)"
                    answers = _cpu(spent, label, sf.solve_many, puzzles, threads=1, output="arrow")
                    table = pa.table({"solution": answers})
                    options = {"compression": codec, "use_dictionary": False}
                    label = f"encode the solution column ({codec})"
                    _cpu(spent, label, pq.write_table, table, pa.BufferOutputStream(), **options)
                    label = "encode the added columns"
                    encoded = _cpu(spent, label, splice.encode, g, table)
                    _cpu(spent, "copy the other columns", splice.commit, g, encoded)
                _cpu(spent, "footer", splice.finish)
            for label, seconds in spent.items():
                key = f"{label} [{codec}]"
                best[key] = min(best.get(key, seconds), seconds)
    for label, seconds in best.items():
        print(f"{label}: {seconds:.3f} s")


def pd_string() -> Any:
    """pandas' Arrow-backed string dtype for Arrow strings (a types_mapper)."""
    import pandas as pd

    dtype = pd.StringDtype("pyarrow")
    return {pa.string(): dtype, pa.large_string(): dtype}.get


if __name__ == "__main__":
    main()
