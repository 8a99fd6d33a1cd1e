"""`sudoku-fast stats`: search statistics per file (or of the embedded sets)."""

from __future__ import annotations

import argparse
import csv
import dataclasses
import importlib
import json
import math
import os
import sys
from collections.abc import Sequence
from typing import Any

from .._files.notations import reading
from .._files.progress import Progress
from .._files.stream import (
    UNKNOWN_MARK,
    PuzzleReader,
    open_input,
    replacing,
    summarize_stream,
)
from ..datasets import EMBEDDED_SETS, load_embedded
from ..stats import BINS_PER_OCTAVE, Summary, solve_stats
from . import exits
from .exits import command
from .options import add_geometry, add_max_nodes, add_notation, add_threads, refuse_parquet
from .words import Messages, error


def add_parser(subparsers: Any) -> None:
    parser = command(
        subparsers,
        "stats",
        [
            exits.EXIT_OK,
            exits.EXIT_USAGE,
            exits.EXIT_MALFORMED,
            exits.EXIT_UNDECIDED,
            exits.EXIT_INTERRUPTED,
            exits.EXIT_BROKEN_PIPE,
        ],
        {
            exits.EXIT_OK: "success: statistics of every puzzle",
            exits.EXIT_MALFORMED: "malformed input lines (reported on stderr and left out)",
            exits.EXIT_UNDECIDED: (
                "a puzzle of a grid other than 9x9 with 3x3 boxes ran out of its search-node "
                "budget (--max-nodes) before it was decided (reported on stderr)"
            ),
        },
        help="search statistics per file: puzzles/s, time, guesses, search-tree size",
        description=(
            "Per file: puzzles, puzzles/s, mean, standard deviation and maximum time per "
            "puzzle, share solved without guessing, guesses per puzzle, search-tree size "
            "percentiles and the maximum time as the number of puzzles grows. Without FILE "
            "it runs on the embedded puzzle sets. Each file holds puzzles of one size "
            "(--box / --alphabet fix it, else its first puzzle decides). Malformed lines "
            "are reported and left out."
        ),
    )
    parser.add_argument("files", nargs="*", metavar="FILE", help="'-' = stdin")
    add_threads(parser)
    parser.add_argument(
        "--format",
        choices=("table", "csv", "jsonl"),
        default="table",
        help="table (default), csv (one row of scalar fields per file, node percentiles as "
        "nodes_pNN columns) or jsonl (one JSON object per file, everything)",
    )
    parser.add_argument("--json", action="store_true", help="the same as --format jsonl")
    parser.add_argument(
        "--plot",
        metavar="FILE.png",
        help="also draw the time histograms (needs matplotlib: pip install 'sudoku_fast[plot]')",
    )
    add_geometry(parser)
    add_notation(parser)
    add_max_nodes(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    for path in args.files:
        refuse_parquet(path, "stats")
    if args.plot:
        try:
            importlib.import_module("matplotlib")
        except ImportError:
            error("--plot needs matplotlib: pip install 'sudoku_fast[plot]'")
            return exits.EXIT_USAGE
    results: list[tuple[str, Summary]] = []
    status = exits.EXIT_OK
    geometry = {"box": args.box, "alphabet": args.alphabet}
    if not args.files and (args.box is not None or args.alphabet is not None):
        raise ValueError(
            "--box and --alphabet describe the puzzles of FILES; without FILES, stats "
            "runs the embedded 9x9 sets"
        )
    if not args.files:
        for embedded in EMBEDDED_SETS:
            stats = solve_stats(
                load_embedded(embedded), threads=args.threads, max_nodes=args.max_nodes, **geometry
            )
            results.append((embedded, stats.summary()))
    for path in args.files:
        source, name, size = open_input(path)
        source = reading(source, args.empty, args.blocks)
        progress = Progress(sys.stderr, size)
        messages = Messages(sys.stderr, 100, progress)
        try:
            summary, malformed = summarize_stream(
                PuzzleReader(
                    source, name, classic_only="stats measure classic puzzles", **geometry
                ),
                args.threads,
                messages,
                progress,
                args.max_nodes,
            )
        finally:
            progress.clear()
            if source is not sys.stdin.buffer:
                source.close()
        messages.finish()
        if malformed:
            print(f"{name}: {malformed:,} malformed line(s) left out", file=sys.stderr)
            status = max(status, exits.EXIT_MALFORMED)  # the highest status of all files wins
        if summary.unknown:
            print(
                f"{name}: {summary.unknown:,} puzzle(s) {UNKNOWN_MARK}: "
                "no answer within --max-nodes search nodes",
                file=sys.stderr,
            )
            status = max(status, exits.EXIT_UNDECIDED)
        results.append((name, summary))
    fmt = "jsonl" if args.json else args.format
    writer = None
    for name, summary in results:
        if fmt == "jsonl":
            print(json.dumps(_summary_json(name, summary)))
        elif fmt == "csv":
            row = _summary_row(name, summary)
            if writer is None:
                writer = csv.DictWriter(sys.stdout, fieldnames=list(row), lineterminator="\n")
                writer.writeheader()
            writer.writerow(row)
        else:
            print(format_summary(name, summary))
    if args.plot:
        _plot_times(results, args.plot)
    return status


def _summary_json(name: str, summary: Summary) -> dict[str, Any]:
    data = dataclasses.asdict(summary)
    data["name"] = name
    data["puzzles_per_second"] = summary.puzzles_per_second
    data["no_solution"] = summary.no_solution  # solved + no_solution + unknown = puzzles
    data["percent_without_guessing"] = summary.percent_without_guessing
    data["node_percentiles"] = {f"{p:g}": v for p, v in summary.node_percentiles}
    data["max_us_by_count"] = {str(n): us for n, us in summary.max_us_by_count}
    data["time_histogram"] = [list(b) for b in summary.time_histogram]
    return data


def _summary_row(name: str, summary: Summary) -> dict[str, Any]:
    """The scalar fields of a summary as one CSV row (node percentiles as columns)."""
    data = _summary_json(name, summary)
    row: dict[str, Any] = {"name": name}
    row |= {k: v for k, v in data.items() if isinstance(v, (int, float, str)) and k != "name"}
    for p, v in summary.node_percentiles:
        row[f"nodes_p{p:g}".replace(".", "_")] = v
    return row


def _row(cells: Sequence[str], width: int = 9) -> str:
    return "  " + "".join(f"{cell:>{width}}" for cell in cells)


def format_summary(name: str, summary: Summary) -> str:
    """The statistics table of one set of puzzles, as printed by `sudoku-fast stats`."""
    if summary.puzzles == 0:
        return f"{name}: no puzzles\n"
    s = summary
    lines = [
        f"{name}: {s.puzzles:,} puzzles, {s.threads} thread(s)",
        f"  {'puzzles/s':<26}{s.puzzles_per_second:,.0f}",
        f"  {'time per puzzle (us)':<26}mean {s.mean_us:,.1f}   stddev {s.stddev_us:,.1f}"
        f"   max {s.max_us:,.1f}",
        f"  {'solved':<26}{s.solved:,} (no solution: {s.no_solution:,})"
        + (f", {UNKNOWN_MARK}: {s.unknown:,}" if s.unknown else ""),
        f"  {'solved without guessing':<26}{s.percent_without_guessing:.1f} %",
        f"  {'guesses per puzzle':<26}{s.guesses_per_puzzle:,.2f}",
        "  search-tree size (nodes) percentiles:",
        _row([f"{p:g}%" for p, _ in s.node_percentiles]),
        _row([f"{v:,}" for _, v in s.node_percentiles]),
        "  max time (us) over the first N puzzles:",
        _row([f"N={n:,}" for n, _ in s.max_us_by_count], 11),
        _row([f"{us:,.1f}" for _, us in s.max_us_by_count], 11),
    ]
    return "\n".join(lines) + "\n"


def histogram_steps(summary: Summary) -> tuple[list[float], list[float]]:
    """The time histogram as stairs: bin edges (us) and the share of puzzles (%) per bin.

    Every bin from the first to the last non-empty one is there, empty ones with 0 %, so
    each bin is drawn over its own edges (the summary lists only non-empty bins).
    """
    histogram = summary.time_histogram
    if not histogram:
        return [], []
    # Bin b covers [2**(b/k), 2**((b+1)/k)) ns, k bins per octave: its index from its edge.
    index = [round(math.log2(low * 1000) * BINS_PER_OCTAVE) for low, _, _ in histogram]
    counts = dict(zip(index, (count for _, _, count in histogram), strict=True))
    bins = range(index[0], index[-1] + 1)
    edges = [2 ** (b / BINS_PER_OCTAVE) / 1000 for b in [*bins, index[-1] + 1]]
    shares = [100 * counts.get(b, 0) / summary.puzzles for b in bins]
    return edges, shares


def _plot_times(results: list[tuple[str, Summary]], path: str) -> None:
    """Histograms of the time per puzzle (log scale), one line per set."""
    matplotlib = importlib.import_module("matplotlib")
    matplotlib.use("Agg")
    pyplot = importlib.import_module("matplotlib.pyplot")
    figure, axes = pyplot.subplots(figsize=(8, 4.5))
    for name, summary in results:
        if not summary.time_histogram:
            continue
        edges, shares = histogram_steps(summary)
        axes.stairs(shares, edges, label=f"{os.path.basename(name)} ({summary.puzzles:,})")
    axes.set_xscale("log")
    axes.set_xlabel("time per puzzle (us, log scale)")
    axes.set_ylabel("puzzles (%)")
    axes.set_title(f"sudoku_fast: time per puzzle (bins of 1/{BINS_PER_OCTAVE} octave)")
    axes.legend()
    figure.tight_layout()
    kind = os.path.splitext(path)[1][1:].lower() or "png"  # the name says; png if not
    with replacing(path) as partial:
        figure.savefig(partial, dpi=120, format=kind)
    pyplot.close(figure)
    print(f"plot written to {path}", file=sys.stderr)
