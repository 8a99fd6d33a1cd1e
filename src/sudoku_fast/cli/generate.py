"""`sudoku-fast generate`: puzzles with exactly one solution, as lines or Parquet."""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Iterable
from typing import Any

from .._files import parquet_io
from .._parallel.threads import resolve_threads
from ..generator import (
    DIFFICULTIES,
    ROW_SEED_BITS,
    SYMMETRIES,
    VariantPuzzle,
    generate_many,
    iter_generate,
    row_seeds,
)
from ..variants import Rules
from . import exits
from .exits import command
from .options import add_rules, add_threads, output, rules_of
from .words import option_words


def add_parser(subparsers: Any) -> None:
    parser = command(
        subparsers,
        "generate",
        [
            exits.EXIT_OK,
            exits.EXIT_CHECK_FAILED,
            exits.EXIT_USAGE,
            exits.EXIT_INTERRUPTED,
            exits.EXIT_BROKEN_PIPE,
        ],
        {
            exits.EXIT_OK: "success: the puzzles are printed",
            exits.EXIT_CHECK_FAILED: (
                "the puzzles asked for could not be made: too few candidates scored in "
                "the --score band, or a --difficulty / --symmetry was not met"
            ),
        },
        help="generate puzzles with exactly one solution",
        description="Generate puzzles with exactly one solution, one per line.",
    )
    parser.add_argument("-n", "--count", type=int, default=1, help="how many (default 1)")
    parser.add_argument(
        "--difficulty",
        choices=list(DIFFICULTIES),
        default=None,
        help=(
            "level as rated by `rate` (9x9: a band of the Sudoku Explainer score, easy up "
            "to 2.4, medium 2.5-2.9, hard 3.0-3.9, expert 4.0-5.9, extreme 6.0-8.9; "
            "with --variant / --rules, the technique level under the rules; default: any)"
        ),
    )
    parser.add_argument("--seed", type=int, default=None, help="seed for reproducible output")
    parser.add_argument(
        "--symmetry", choices=list(SYMMETRIES), default=None, help="keep the clues symmetric"
    )
    parser.add_argument("--size", type=int, default=9, help="grid size, 4 to 16 (default 9)")
    parser.add_argument(
        "--format",
        choices=("lines", "csv", "jsonl", "parquet"),
        default="lines",
        help="lines (default); csv or jsonl: a 'puzzle' field per row; 'parquet' writes "
        "puzzle, solution, clues, level, name, seed to -o FILE (a row's seed makes it "
        "again in Python: sudoku_fast.generate(seed=SEED) with the same options; with "
        "rules, a 'rules' column too)",
    )
    parser.add_argument(
        "-o",
        "--output",
        default=None,
        help="the output file (required with --format parquet; default: standard output)",
    )
    parser.add_argument(
        "--not-minimal",
        action="store_true",
        help="stop removing clues where the puzzle would get harder than --difficulty",
    )
    parser.add_argument(
        "--score",
        type=_score_band,
        default=None,
        metavar="LOW-HIGH",
        help="9x9 puzzles whose Sudoku Explainer score lies in the band, e.g. 7.5-8.0",
    )
    add_rules(parser, drawn=True)
    add_threads(parser)
    parser.set_defaults(handler=run)


# --variant names whose rules generate draws for each puzzle.
DRAWN = {"jigsaw", "killer", "thermo", "thermos", "thermometer", "thermometers"}


def _rules_argument(args: argparse.Namespace) -> str | Rules | None:
    """What `--variant` and `--rules` ask for, as generate_many's `rules=`."""
    names = [n.strip() for n in (args.variant or "").split(",") if n.strip()]
    drawn = [n for n in names if n.lower() in DRAWN]
    if drawn and args.rules:
        raise ValueError(f"--rules FILE cannot be combined with --variant {drawn[0]}")
    if drawn:
        return ",".join(names)
    if not names and not args.rules:
        return None
    return rules_of(args) or Rules()


def _score_band(text: str) -> tuple[float, float]:
    """`generate --score LOW-HIGH` (or a single value): the band as two floats."""
    low, sep, high = text.partition("-")
    try:
        band = (float(low), float(high if sep else low))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected LOW-HIGH such as 7.5-8.0, got {text!r}"
        ) from None
    return band


def run(args: argparse.Namespace) -> int:
    if args.format == "parquet" and args.output is None:
        raise ValueError("--format parquet writes a file: name it with -o")
    rules = _rules_argument(args)
    if rules is not None:
        if args.score is not None:
            raise ValueError("--score rates classic puzzles only: leave it out with rules")
        if args.format == "parquet":
            seed = (
                random.SystemRandom().getrandbits(ROW_SEED_BITS) if args.seed is None else args.seed
            )
            made = generate_many(
                args.count,
                args.difficulty,
                seed,
                args.size,
                args.symmetry,
                not args.not_minimal,
                threads=args.threads,
                rules=rules,
            )
            parquet_io.write_generated(args.output, made, row_seeds(args.count, seed))
            return exits.EXIT_OK
        chunks_made = iter_generate(
            args.count,
            args.difficulty,
            args.seed,
            args.size,
            args.symmetry,
            not args.not_minimal,
            threads=args.threads,
            chunk=4 * resolve_threads(args.threads),
            rules=rules,
        )
        try:
            _write_generated(chunks_made, args.output, args.format, b"puzzle,rules\n")
        except RuntimeError as err:
            print(f"sudoku-fast: {option_words(str(err))}", file=sys.stderr)
            return exits.EXIT_CHECK_FAILED
        return exits.EXIT_OK
    shape = {
        "difficulty": args.difficulty,
        "seed": args.seed,
        "size": args.size,
        "symmetry": args.symmetry,
        "minimal": not args.not_minimal,
        "threads": args.threads,
    }
    if args.format == "parquet" and args.seed is None:
        # A seed of the run's own, so that the rows' seeds (written) make them again.
        shape["seed"] = random.SystemRandom().getrandbits(ROW_SEED_BITS)
    try:
        if args.format == "parquet" or args.score is not None:
            puzzles = generate_many(args.count, score=args.score, **shape)
            if args.format == "parquet":
                seeds = None if args.score is not None else row_seeds(args.count, shape["seed"])
                parquet_io.write_generated(args.output, puzzles, seeds)
                return exits.EXIT_OK
            chunks: Iterable[list[str]] = [puzzles]
        else:
            # Written as they are made: a long run shows its puzzles, and Ctrl-C keeps them.
            chunk = 1024 if args.size <= 9 else 4 * resolve_threads(args.threads)
            chunks = iter_generate(args.count, chunk=chunk, **shape)
        _write_generated(chunks, args.output, args.format)
    except RuntimeError as err:  # a --score band or a level the candidates did not meet
        print(f"sudoku-fast: {option_words(str(err))}", file=sys.stderr)
        return exits.EXIT_CHECK_FAILED
    return exits.EXIT_OK


def _lines_of(made: list[str] | list[VariantPuzzle], fmt: str) -> str:
    """Generated puzzles as text lines: bare, CSV rows or JSON objects. A variant puzzle
    carries its rules: a JSON object's "rules", a CSV row's second field, after a tab
    on a bare line (the compact JSON form each time)."""
    lines = []
    for item in made:
        if isinstance(item, str):
            lines.append(json.dumps({"puzzle": item}) if fmt == "jsonl" else item)
        elif fmt == "jsonl":
            lines.append(json.dumps({"puzzle": item.puzzle, "rules": item.rules.to_json()}))
        elif fmt == "csv":
            quoted = item.rules.dumps().replace('"', '""')
            lines.append(f'{item.puzzle},"{quoted}"')
        else:
            lines.append(f"{item.puzzle}\t{item.rules.dumps()}")
    return "".join(f"{line}\n" for line in lines)  # a puzzle needs no CSV quoting


def _write_generated(
    chunks: Iterable[list[str]] | Iterable[list[VariantPuzzle]],
    path: str | None,
    fmt: str = "lines",
    header: bytes = b"puzzle\n",
) -> None:
    """Write the puzzles as they are made: a long run shows its puzzles. A file appears
    when the run ends; Ctrl-C ends it early and keeps the puzzles finished so far, whole
    lines only (a generation's output is a list of independent puzzles: a shorter list
    is still a whole one)."""
    written = kept = 0
    interrupted: KeyboardInterrupt | None = None
    with output("-" if path is None else path) as out:
        try:
            if fmt == "csv":
                out.write(header)
                kept = len(header)
            for made in chunks:
                data = _lines_of(made, fmt).encode("utf-8")
                out.write(data)
                out.flush()
                written += len(made)
                kept += len(data)
        except KeyboardInterrupt as stop:
            if out is sys.stdout.buffer:
                raise
            out.seek(kept)  # bytes of a write the interrupt cut short are cut off
            out.truncate()
            interrupted = stop
    if interrupted is not None:
        print(f"sudoku-fast: {written:,} puzzle(s) written to {path}", file=sys.stderr)
        raise interrupted
