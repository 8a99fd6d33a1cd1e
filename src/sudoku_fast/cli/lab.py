"""`sudoku-fast lab`: the algorithm lab's tables over puzzle files and random puzzles."""

from __future__ import annotations

import argparse
import csv
import dataclasses
import json
import math
import os
import re
import sys
from collections.abc import Sequence
from typing import Any

from .. import lab
from ..lab.report import (
    format_random_report,
    format_set_table,
    random_experiment,
    read_puzzles,
    set_row,
)
from . import exits
from .exits import command
from .options import add_geometry, add_threads, refuse_parquet


def add_parser(subparsers: Any) -> None:
    parser = command(
        subparsers,
        "lab",
        [
            exits.EXIT_OK,
            exits.EXIT_CHECK_FAILED,
            exits.EXIT_USAGE,
            exits.EXIT_INTERRUPTED,
            exits.EXIT_BROKEN_PIPE,
        ],
        {
            exits.EXIT_OK: "success: the tables are printed, every answer checked (or --no-verify)",
            exits.EXIT_CHECK_FAILED: "an algorithm's answer differs from the main engine's",
        },
        help="the algorithm lab: classic algorithms and orderings side by side",
        description=(
            "Run the lab's algorithms (sudoku_fast.lab) over puzzle FILES and print the "
            "essay's table (N, Hz, mean, max) with search-tree percentiles, budgets "
            "and a 'gave up' count; --random N runs the random-puzzle experiment."
        ),
    )
    add_arguments(parser)
    add_geometry(parser)
    # FILES tables time each puzzle on one thread by default; --random uses every core.
    add_threads(parser, default="1 for FILES, all cores for --random")
    parser.set_defaults(handler=run)


def _choices(text: str, allowed: Sequence[str], what: str) -> list[str]:
    if text == "all":
        return list(allowed)
    names = [t.strip() for t in text.split(",") if t.strip()]
    for name in names:
        if name not in allowed:
            raise argparse.ArgumentTypeError(
                f"unknown {what} {name!r}; choose from {', '.join(allowed)} or 'all'"
            )
    if not names:
        raise argparse.ArgumentTypeError(f"no {what} given")
    return names


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of `sudoku-fast lab`."""
    parser.add_argument("files", nargs="*", metavar="FILE", help="puzzle files (lines or CSV)")
    parser.add_argument(
        "--algorithms",
        type=lambda t: _choices(t, lab.ALGORITHMS, "algorithm"),
        default=["ac+dual"],
        metavar="A,B",
        help=f"comma-separated, or 'all': {', '.join(lab.ALGORITHMS)} (default ac+dual)",
    )
    parser.add_argument(
        "--order",
        type=lambda t: _choices(t, lab.VARIABLE_ORDERS, "order"),
        default=None,
        metavar="O,P",
        help=(
            f"variable orders, comma-separated, or 'all': {', '.join(lab.VARIABLE_ORDERS)} "
            "(default: each algorithm's own; comb only takes first)"
        ),
    )
    parser.add_argument(
        "--value-order",
        type=lambda t: _choices(t, lab.VALUE_ORDERS, "value order"),
        default=["first"],
        metavar="V,W",
        help=(
            f"value orders, comma-separated, or 'all': {', '.join(lab.VALUE_ORDERS)} "
            "(most / least constraining; default first)"
        ),
    )
    parser.add_argument(
        "--limit", type=int, default=1, metavar="N", help="count solutions up to N (default 1)"
    )
    parser.add_argument(
        "--max-nodes",
        type=int,
        default=lab.DEFAULT_BUDGET,
        metavar="N",
        help=f"search nodes per puzzle before giving up (default {lab.DEFAULT_BUDGET:,}; 0: none)",
    )
    parser.add_argument(
        "--max-seconds",
        type=_seconds,
        default=None,
        metavar="S",
        help="seconds per puzzle before giving up (default: no time budget)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of random orders and puzzles")
    parser.add_argument(
        "--restart-after",
        type=int,
        default=None,
        metavar="N",
        help=(
            "restart a search after N nodes, then N times Luby's sequence (1 1 2 1 1 2 4 ...);"
            " needs a random order; --max-nodes bounds all runs of a puzzle together"
        ),
    )
    parser.add_argument(
        "--random",
        type=int,
        default=None,
        metavar="N",
        help="the random-puzzle experiment on N puzzles (instead of, or besides, FILES)",
    )
    parser.add_argument(
        "--clues",
        type=int,
        default=None,
        metavar="K",
        help="clues of a random puzzle (default 17 for 9x9, the same share for other sizes)",
    )
    parser.add_argument(
        "--size",
        type=int,
        default=None,
        metavar="N",
        help="grid size of random puzzles (default: that of --box or --alphabet, else 9)",
    )
    parser.add_argument(
        "--format",
        choices=("table", "csv", "jsonl"),
        default="table",
        help="table (default); csv: one row per algorithm and set (FILES) or per "
        "algorithm (--random), not both in one run; jsonl: one JSON object per row, with "
        "a 'kind' field (set or random)",
    )
    parser.add_argument(
        "--no-verify",
        action="store_true",
        help="skip checking every answer against the main engine",
    )


def _seconds(text: str) -> float:
    """A --max-seconds value: a positive finite number of seconds."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError("must be a positive number of seconds")
    return value


def _combinations(args: argparse.Namespace) -> list[tuple[str, str | None, str]]:
    """(algorithm, order, value order) runs the arguments ask for; impossible ones skipped."""
    runs: list[tuple[str, str | None, str]] = []
    for algorithm in args.algorithms:
        orders = args.order or [lab.DEFAULT_ORDER[algorithm]]
        for order in orders:
            for value_order in args.value_order:
                if algorithm == "comb" and (order, value_order) != ("first", "first"):
                    continue
                if algorithm == "dlx" and value_order not in ("first", "random"):
                    continue
                if args.restart_after is not None and "random" not in (
                    order or lab.DEFAULT_ORDER[algorithm],
                    value_order,
                ):
                    continue  # restarts would repeat the same run
                runs.append((algorithm, order, value_order))
    return runs


_PUZZLE_ERROR = re.compile(r"puzzle (\d+): ")


def _random_size(args: argparse.Namespace) -> int:
    """The size of --random puzzles: --size, else the one --box or --alphabet gives, else 9."""
    if args.size is not None:
        return int(args.size)
    if args.box is not None:
        return int(args.box[0] * args.box[1])
    if args.alphabet is not None:
        return len(args.alphabet)
    return 9


def run(args: argparse.Namespace) -> int:
    """Run `sudoku-fast lab`: the set table and/or the random experiment; exit status."""
    if not args.files and args.random is None:
        raise ValueError("lab needs puzzle FILES, --random N, or both")
    if not args.files and args.limit != 1:
        raise ValueError(
            "--random counts every puzzle to 2 (0, 1 or 2+ solutions); --limit is for FILES"
        )
    budget = args.max_nodes or None
    threads = getattr(args, "threads", None)
    status = 0
    runs = _combinations(args)
    if not runs and args.restart_after is not None:
        raise ValueError(
            "--restart-after restarts a random search: add --order random or "
            "--value-order random (with fixed orders every run would repeat the first)"
        )
    if not runs:
        raise ValueError(
            "no algorithm takes the orders given (comb: first; dlx: first, random; "
            "--restart-after: a random order)"
        )
    fmt = getattr(args, "format", "table")
    if fmt == "csv" and args.files and args.random is not None:
        raise ValueError(
            "--format csv writes one table: run FILES and --random separately (or use jsonl)"
        )
    emit = _Emitter(fmt)
    if args.files:
        rows = []
        for path in args.files:
            refuse_parquet(path, "lab")
            puzzles, lines = read_puzzles(path, args.box, args.alphabet)
            name = os.path.splitext(os.path.basename(path))[0]
            for algorithm, order, value_order in runs:
                try:
                    row = set_row(
                        name,
                        puzzles,
                        algorithm,
                        order=order,
                        value_order=value_order,
                        limit=args.limit,
                        budget=budget,
                        seconds=args.max_seconds,
                        seed=args.seed,
                        restart_after=args.restart_after,
                        threads=1 if threads is None else threads,
                        verify=not args.no_verify,
                        box=args.box,
                        alphabet=args.alphabet,
                    )
                except (ValueError, TypeError) as err:
                    found = _PUZZLE_ERROR.match(str(err))
                    if found:  # a puzzle the lab refuses: name its file and line
                        where = f"{path}:{lines[int(found.group(1))]}: "
                        raise type(err)(where + str(err)[found.end() :]) from None
                    raise
                rows.append(row)
                if fmt == "table":
                    table = format_set_table([row]).splitlines()
                    print("\n".join(table if len(rows) == 1 else table[2:]), flush=True)
                else:
                    emit.row("set", row)
                if row.wrong:
                    status = 1
    if args.random is not None:
        if args.random < 1:
            raise ValueError(f"--random needs at least 1 puzzle, got {args.random}")
        if args.files and fmt == "table":
            print()
        for algorithm, order, value_order in runs:
            report = random_experiment(
                args.random,
                clues=args.clues,
                size=_random_size(args),
                algorithm=algorithm,
                order=order,
                value_order=value_order,
                budget=budget,
                seconds=args.max_seconds,
                seed=args.seed,
                restart_after=args.restart_after,
                threads=threads,
                verify=not args.no_verify,
                box=args.box,
                alphabet=args.alphabet,
            )
            if fmt == "table":
                print(format_random_report(report), flush=True)
            else:
                emit.row("random", report)
            if report.wrong:
                status = 1
    return status


class _Emitter:
    """Rows of `lab` as CSV (one header, scalar fields) or JSON lines (every field)."""

    def __init__(self, fmt: str) -> None:
        self.fmt = fmt
        self._writer: csv.DictWriter[str] | None = None

    def row(self, kind: str, record: Any) -> None:
        data = {"kind": kind, **dataclasses.asdict(record)}
        if self.fmt == "jsonl":
            print(json.dumps(data, default=str), flush=True)
            return
        flat = {k: v for k, v in data.items() if v is None or isinstance(v, (int, float, str))}
        if self._writer is None:
            self._writer = csv.DictWriter(sys.stdout, fieldnames=list(flat), lineterminator="\n")
            self._writer.writeheader()
        self._writer.writerow(flat)
        sys.stdout.flush()
