"""Dask scaling: a LocalCluster of two single-threaded worker processes against one.

Writes ROWS distinct puzzles (the shared sets relabelled, as in bench/parquet_io.py;
`--set mix` by default: Kaggle 10k, sudoku17_49158, magictour_top2365 and the SE-rated
set) as a Parquet dataset of PARTS files, starts two clusters (1 worker x 1 thread and
2 workers x 1 thread; processes), loads the puzzles into each cluster's memory, and
then times, round by round on each cluster in turn, `sudoku_fast.dask.solve(frame,
threads=1)` persisted on the workers. After each timed solve every answer is checked on
the workers, untimed: by a rule check written here (rows, columns, boxes, clues kept)
and against the given solution where the set has one; the check's counts come back to
the client and must cover every row.

The machine's own ceiling for two processes is measured beside it, in the same rounds:
`solve_many(threads=1)` on the same puzzles in one process alone, then in two processes
at once (each on half), as puzzles/s.

    python bench/dask_scaling.py --rows 1000000 --rounds 3
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import cloudpickle
import numpy as np
import pandas as pd
import parquet_io
import pyarrow as pa
import pyarrow.parquet as pq
from parquet_io import column_bytes, load_set, relabel, rule_check, strings

import sudoku_fast as sf

# The workers cannot import bench/parquet_io.py: its functions travel with the tasks.
cloudpickle.register_pickle_by_value(parquet_io)


def write_dataset(folder: Path, rows: int, parts: int, which: str) -> None:
    """PARTS Parquet files of distinct relabelled puzzles with their given solutions."""
    puzzles, solutions = load_set(which)
    rng = np.random.default_rng(7)
    per = -(-rows // parts)
    for part in range(parts):
        first, last = part * per, min(rows, (part + 1) * per)
        index = np.arange(first, last) % len(puzzles)
        perms = (np.argsort(rng.random((last - first, 9)), axis=1) + ord("1")).astype(np.uint8)
        table = pa.table(
            {
                "id": pa.array(np.arange(first, last)),
                "quizzes": strings(relabel(puzzles[index], perms)),
                "solutions": strings(relabel(solutions[index], perms)),
            }
        )
        pq.write_table(table, folder / f"part-{part:03d}.parquet")


def check_partition(frame: pd.DataFrame) -> pd.DataFrame:
    """Rows checked by the rules and rows matching a given solution, for one partition."""
    table = pa.Table.from_pandas(frame[["quizzes", "solutions", "solution"]], preserve_index=False)
    puzzles = column_bytes(table.column("quizzes").cast(pa.string()))
    answers = column_bytes(table.column("solution").cast(pa.string()))
    rule_check(puzzles, answers)
    given = table.column("solutions")
    known = given.is_valid().to_numpy(zero_copy_only=False)
    matching = 0
    if known.any():
        want = column_bytes(given.filter(known).cast(pa.string()))
        matching = int((want == answers[known]).all(axis=1).sum())
    return pd.DataFrame({"checked": [len(frame)], "given": [int(known.sum())], "match": [matching]})


def time_cluster(client: Any, frame: Any) -> float:
    """Seconds to solve the persisted frame on the cluster; then every answer is checked."""
    from distributed import wait

    import sudoku_fast.dask as sfd

    start = time.perf_counter()
    solved = client.persist(sfd.solve(frame, threads=1))
    wait(solved)
    seconds = time.perf_counter() - start
    meta = pd.DataFrame({"checked": [0], "given": [0], "match": [0]}).iloc[:0]
    checks = client.compute(solved.map_partitions(check_partition, meta=meta)).result()
    rows = len(frame)
    assert int(checks["checked"].sum()) == rows, "not every row was checked"
    assert (checks["given"] == checks["match"]).all(), "an answer differs from the given one"
    del solved
    return seconds


def _solve_share(args: tuple[np.ndarray, Any]) -> float:
    grids, barrier = args
    barrier.wait()
    start = time.perf_counter()
    sf.solve_many(grids, threads=1)
    return time.perf_counter() - start


def ceiling(grids: np.ndarray, pool: Any, barrier: Any) -> tuple[float, float]:
    """(puzzles/s in one process alone, puzzles/s in two processes at once)."""
    one = pool.apply(_solve_share, ((grids, _NoBarrier()),))
    halves = np.array_split(grids, 2)
    results = pool.map(_solve_share, [(half, barrier) for half in halves])
    return len(grids) / one, len(grids) / max(results)


class _NoBarrier:
    def wait(self) -> None:
        pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--parts", type=int, default=16)
    parser.add_argument("--set", choices=("kaggle", "mix"), default="mix")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

    import dask.dataframe as dd
    from distributed import Client, LocalCluster, wait

    print(f"cores usable: {len(os.sched_getaffinity(0))}, rows: {args.rows:,}, set: {args.set}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        write_dataset(folder, args.rows, args.parts, args.set)
        table = pq.read_table(folder, columns=["quizzes"])
        raw = column_bytes(table.column("quizzes"))
        grids = np.where(raw == ord("."), 0, raw - ord("0")).astype(np.uint8)
        del table, raw
        clusters = {}
        for workers in (1, 2):
            cluster = LocalCluster(
                n_workers=workers,
                threads_per_worker=1,
                processes=True,
                dashboard_address=None,
                silence_logs=40,
            )
            client = Client(cluster)
            frame = client.persist(dd.read_parquet(str(folder)))
            wait(frame)
            client.run(__import__, "sudoku_fast.dask")  # imports are not what is timed
            clusters[workers] = (cluster, client, frame)
        context = multiprocessing.get_context("spawn")
        manager = context.Manager()
        barrier = manager.Barrier(2)
        rates: dict[str, list[float]] = {}
        with context.Pool(2) as pool:
            for r in range(args.rounds):
                line = {}
                for workers, (_, client, frame) in clusters.items():
                    line[f"dask {workers} worker"] = args.rows / time_cluster(client, frame)
                one, two = ceiling(grids, pool, barrier)
                line["1 process"] = one
                line["2 processes"] = two
                for label, rate in line.items():
                    rates.setdefault(label, []).append(rate)
                print(f"round {r + 1}: " + ", ".join(f"{k} {v:,.0f}/s" for k, v in line.items()))
        for cluster, client, _ in clusters.values():
            client.close()
            cluster.close()
        manager.shutdown()
    dask_ratio = [
        b / a for a, b in zip(rates["dask 1 worker"], rates["dask 2 worker"], strict=True)
    ]
    ceiling_ratio = [b / a for a, b in zip(rates["1 process"], rates["2 processes"], strict=True)]
    print("\nhow | puzzles/s (median of rounds)")
    for label, values in rates.items():
        print(f"{label} | {statistics.median(values):,.0f}")
    print(
        f"dask 2 workers / 1 worker (median of round ratios): {statistics.median(dask_ratio):.2f}"
    )
    print(f"machine ceiling, 2 processes / 1 (median): {statistics.median(ceiling_ratio):.2f}")
    print(f"every answer checked: {args.rows:,} rows x {2 * args.rounds} timed solves")


if __name__ == "__main__":
    main()
