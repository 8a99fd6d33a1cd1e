"""The `sudoku-fast` command (also `python -m sudoku_fast`).

With no arguments it solves the embedded puzzle sets, checks every solution with the
engine-independent `is_solution`, and prints a throughput table. Subcommands:

* `sudoku-fast generate -n 100 --difficulty hard --seed 1`: puzzles, one per line;
* `sudoku-fast rate FILE`: the difficulty of each puzzle of a file (`-` = stdin);
* `sudoku-fast hint PUZZLE`: the next step for a puzzle string or a saved board file.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Any, TextIO

from .batch import decode_solutions, encode_puzzles, run_engine
from .datasets import EMBEDDED_SETS, load_embedded
from .grid import is_solution

MIN_SECONDS = 0.2  # repeat small sets until timing is meaningful


def _measure_set(puzzles: list[str], threads: int | None) -> dict[str, float]:
    """Solve a set (repeatedly, for small sets) and verify every solution once."""
    rates: list[float] = []
    total = 0.0
    while True:
        start = time.perf_counter()
        results = run_engine(encode_puzzles(puzzles), len(puzzles), 1, threads)
        solutions = decode_solutions(results)
        elapsed = time.perf_counter() - start
        rates.append(len(puzzles) / elapsed)
        total += elapsed
        if total >= MIN_SECONDS or len(rates) >= 1000:
            break
    solved = sum(s is not None for s in solutions)
    verified = sum(
        s is not None and is_solution(s, p) for s, p in zip(solutions, puzzles, strict=True)
    )
    rate = statistics.median(rates)
    return {
        "puzzles": len(puzzles),
        "solved": solved,
        "verified": verified,
        "rate": rate,
        "usec": 1e6 / rate,
        "guesses": sum(results.guesses) / len(puzzles),
        "threads": results.threads,
    }


def run_embedded(threads: int | None = None, out: TextIO | None = None) -> int:
    """Solve and verify every embedded set, print the table; 0 if all verified."""
    stream = out if out is not None else sys.stdout
    header = (
        f"{'set':<20}{'puzzles':>8}{'solved':>8}{'verified':>9}"
        f"{'puzzles/s':>12}{'us/puzzle':>11}{'guesses/puzzle':>16}{'threads':>9}"
    )
    print(header, file=stream)
    print("-" * len(header), file=stream)
    failures = 0
    for name in EMBEDDED_SETS:
        row = _measure_set(load_embedded(name), threads)
        failures += int(row["puzzles"] - row["verified"])
        print(
            f"{name:<20}{row['puzzles']:>8.0f}{row['solved']:>8.0f}{row['verified']:>9.0f}"
            f"{row['rate']:>12,.0f}{row['usec']:>11.1f}{row['guesses']:>16.2f}"
            f"{row['threads']:>9.0f}",
            file=stream,
        )
    if failures:
        print(f"{failures} puzzle(s) without a verified solution", file=sys.stderr)
        return 1
    print(
        "every solution verified independently (rows, columns, boxes complete, clues kept)",
        file=stream,
    )
    return 0


# --- generate / rate / hint -----------------------------------------------------------


def _add_generate_parser(subparsers: Any) -> None:
    from .generator import DIFFICULTIES, SYMMETRIES

    parser = subparsers.add_parser(
        "generate",
        help="generate puzzles with exactly one solution",
        description="Generate puzzles with exactly one solution, one per line.",
    )
    parser.add_argument("-n", "--count", type=int, default=1, help="how many (default 1)")
    parser.add_argument(
        "--difficulty",
        choices=list(DIFFICULTIES),
        default=None,
        help="level as rated by `rate` (default: any)",
    )
    parser.add_argument("--seed", type=int, default=None, help="seed for reproducible output")
    parser.add_argument(
        "--symmetry", choices=list(SYMMETRIES), default=None, help="keep the clues symmetric"
    )
    parser.add_argument(
        "--not-minimal",
        action="store_true",
        help="stop removing clues where the puzzle would get harder than --difficulty",
    )
    parser.add_argument("--threads", type=int, default=None, help="worker threads")
    parser.set_defaults(handler=_cmd_generate)


def _cmd_generate(args: argparse.Namespace) -> int:
    from .generator import generate_many

    puzzles = generate_many(
        args.count,
        difficulty=args.difficulty,
        seed=args.seed,
        symmetry=args.symmetry,
        minimal=not args.not_minimal,
        threads=args.threads,
    )
    for puzzle in puzzles:
        print(puzzle)
    return 0


def _add_rate_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "rate",
        help="rate the difficulty of the puzzles in a file",
        description=(
            "Rate each puzzle of FILE (one per line; blank lines and lines starting with "
            "# are skipped): level, hardest technique, engine guesses and nodes."
        ),
    )
    parser.add_argument("file", help="file of puzzles, - for standard input")
    parser.set_defaults(handler=_cmd_rate)


def _cmd_rate(args: argparse.Namespace) -> int:
    from .rating import rate

    if args.file == "-":
        lines = sys.stdin.read().splitlines()
    else:
        with open(args.file, encoding="utf-8") as f:
            lines = f.read().splitlines()
    print("line\tlevel\tname\thardest\tclues\tengine_guesses\tengine_nodes")
    levels: list[int] = []
    failures = 0
    for number, line in enumerate(lines, 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        try:
            r = rate(text)
        except ValueError as err:
            failures += 1
            print(f"{number}\terror: {err}")
            continue
        levels.append(r.level)
        print(
            f"{number}\t{r.level}\t{r.name}\t{r.hardest}\t{r.clues}"
            f"\t{r.engine_guesses}\t{r.engine_nodes}"
        )
    if levels:
        summary = ", ".join(f"{lv}: {levels.count(lv)}" for lv in sorted(set(levels)))
        print(
            f"# {len(levels)} rated, mean level {statistics.mean(levels):.2f} ({summary})"
            + (f", {failures} not rated" if failures else "")
        )
    return 1 if failures else 0


def _add_hint_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "hint",
        help="the next logical step for a puzzle or a saved board",
        description="Show the next step for PUZZLE (a puzzle string or a board JSON file).",
    )
    parser.add_argument("puzzle", help="81-character puzzle, or the path of a saved board")
    parser.add_argument(
        "--all", action="store_true", help="apply hints one after another to the end"
    )
    parser.set_defaults(handler=_cmd_hint)


def _cmd_hint(args: argparse.Namespace) -> int:
    from .board import Board, load_board
    from .hints import hint
    from .logic import cell_name

    board = load_board(args.puzzle) if os.path.isfile(args.puzzle) else Board.new(args.puzzle)
    while True:
        step = hint(board)
        if step is None:
            print("solved" if args.all else "the board is complete and correct")
            return 0
        changes = [f"{cell_name(c)}={d}" for c, d in step.placements] + [
            f"{cell_name(c)}-{d}" for c, d in step.eliminations
        ]
        print(f"{step.technique}: {step.explanation}  [{' '.join(changes)}]")
        if not args.all:
            return 0
        board = board.apply(step)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the command line."""
    parser = argparse.ArgumentParser(
        prog="sudoku-fast",
        description="Solve the embedded puzzle sets, verify every solution, print throughput.",
    )
    parser.add_argument(
        "--threads",
        type=int,
        default=None,
        help="worker threads (default: all cores; 1 = serial; -k = all cores + 1 - k)",
    )
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND")
    _add_generate_parser(subparsers)
    _add_rate_parser(subparsers)
    _add_hint_parser(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of `sudoku-fast`; returns the exit status."""
    args = build_parser().parse_args(argv)
    try:
        handler = getattr(args, "handler", None)
        if handler is not None:
            status: int = handler(args)
            return status
        return run_embedded(args.threads)
    except (ValueError, TypeError, OSError) as err:
        print(f"sudoku-fast: error: {err}", file=sys.stderr)
        return 2
