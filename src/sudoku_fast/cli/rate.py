"""`sudoku-fast rate`: the difficulty of every puzzle of a file (text, CSV or Parquet)."""

from __future__ import annotations

import argparse
import contextlib
import io
import statistics
import sys
from collections.abc import Iterator
from typing import Any, BinaryIO

from .._base.errors import SearchLimitExceeded
from .._base.grid import CLASSIC
from .._files import parquet_io
from .._files.notations import reading
from .._files.progress import Progress
from .._files.stream import Batch, PuzzleReader, grid_text, is_parquet, open_input
from .._parallel.threads import resolve_threads
from ..rating import rate, rate_many
from . import exits
from .exits import command
from .options import (
    add_geometry,
    add_max_nodes,
    add_notation,
    add_parquet_options,
    add_rules,
    add_threads,
    fit_rules,
    fpuzzles_input,
    output,
    rules_box,
    rules_of,
)
from .rows import RowWriter, add_format
from .words import budget_message, option_words


def add_parser(subparsers: Any) -> None:
    parser = command(
        subparsers,
        "rate",
        [
            exits.EXIT_OK,
            exits.EXIT_CHECK_FAILED,
            exits.EXIT_USAGE,
            exits.EXIT_MALFORMED,
            exits.EXIT_UNDECIDED,
            exits.EXIT_INTERRUPTED,
            exits.EXIT_BROKEN_PIPE,
        ],
        {
            exits.EXIT_OK: "success: every puzzle rated",
            exits.EXIT_CHECK_FAILED: "a puzzle has no solution or several, so it is not rated",
            exits.EXIT_MALFORMED: "malformed input lines (reported on stderr, not rated)",
            exits.EXIT_UNDECIDED: (
                "a puzzle of a grid other than 9x9 with 3x3 boxes ran out of its search-node "
                "budget (--max-nodes) before its uniqueness was decided"
            ),
        },
        help="rate the difficulty of the puzzles in a file",
        description=(
            "Rate each puzzle of FILE (one per line, blank lines and lines starting with "
            "# skipped; or CSV whose header names a 'quizzes' or 'puzzle' column): level, "
            "hardest technique, engine guesses and nodes. The puzzles are of one size: "
            "--box / --alphabet fix it, else the first puzzle decides."
        ),
    )
    parser.add_argument(
        "file", nargs="?", default=None, help="file of puzzles, - for standard input"
    )
    add_threads(parser)
    add_geometry(parser)
    add_rules(parser, fpuzzles=True)
    add_notation(parser)
    add_parquet_options(parser)
    parser.add_argument(
        "-o",
        "--output",
        default=None,
        help="the output file (required for Parquet input; default for text: standard output)",
    )
    add_max_nodes(parser)
    parser.add_argument(
        "--score",
        action="store_true",
        help=(
            "also the Sudoku Explainer score (9x9; '>=' marks a score whose budget ran out) "
            "and the step that set it; the level is then the score's band (see "
            "`score_level`)"
        ),
    )
    add_format(parser)
    parser.add_argument(
        "-q", "--quiet", action="store_true", help="no summary, no progress bar (Parquet)"
    )
    parser.set_defaults(handler=run)


def _rated(
    batch: Batch, threads: int | None, max_nodes: int | None, score: bool = False
) -> Iterator[tuple[int, Any, bool]]:
    """(line number, Rating or why it has none, whether the line is malformed) per record."""
    geometry = batch.geometry
    cells = geometry.cells
    reasons = dict(batch.problems)
    good = [i for i in range(batch.n) if i not in reasons]
    texts = [grid_text(batch.grids[i * cells : (i + 1) * cells], geometry) for i in good]
    # The geometry is passed on only when it is not the classic one, which every
    # version of the rating API takes without it.
    fixed: dict[str, Any] = {"max_nodes": max_nodes}
    if score:
        fixed["score"] = True
    if geometry != CLASSIC:
        fixed |= {"box": (geometry.box_rows, geometry.box_cols), "alphabet": geometry.symbols}
    rules: list[Any] = [None] * len(good)
    if batch.rules is not None:
        rules = [batch.rules[i] for i in good]
    outcomes: list[Any]
    try:
        if any(r is not None for r in rules):
            fixed["rules"] = rules
        outcomes = list(rate_many(texts, threads=threads, **fixed))
        fixed.pop("rules", None)
    except (ValueError, SearchLimitExceeded):
        # Some puzzle cannot be rated: rate one at a time to say which and why.
        fixed.pop("rules", None)
        outcomes = []
        for text, own in zip(texts, rules, strict=True):
            try:
                one = {} if own is None else {"rules": own}
                outcomes.append(rate(text, **fixed, **one))
            except ValueError as err:
                outcomes.append(str(err))
            except SearchLimitExceeded:
                outcomes.append(_Undecided(budget_message(max_nodes, "before it was decided")))
    rated = dict(zip(good, outcomes, strict=True))
    for record in range(batch.n):
        malformed = record in reasons
        outcome = reasons[record] if malformed else rated[record]
        yield batch.line_numbers[record], outcome, malformed


def _score_columns(r: Any) -> str:
    """`rate --score`'s extra columns: the score ('>=' when its budget ran out, '-' for
    a size with no SE scale) and the step that set it."""
    if r.score is None:
        return "\t-\t-"
    mark = "" if r.score_complete else ">="
    return f"\t{mark}{r.score:.1f}\t{r.score_technique or '-'}"


class _Undecided(str):
    """Why a puzzle has no rating: the node budget ran out first."""


def run(args: argparse.Namespace) -> int:
    # An invalid thread setting (SUDOKU_FAST_NUM_THREADS too) is an error of the run,
    # found before any output, not an error of each batch, which would make `_rated`
    # rate its puzzles one at a time to find the one at fault.
    args.threads = resolve_threads(args.threads)
    args.rules_read = rules_of(args)
    if args.rules_read is not None and getattr(args, "score", False):
        raise ValueError(
            "--score cannot be combined with variant rules (--variant, --rules): the "
            "Sudoku Explainer scale is calibrated on classic puzzles"
        )
    one_puzzle = fpuzzles_input(args, args.file)
    if one_puzzle is not None:
        source, name = one_puzzle
        return _rate_source(args, source, name)
    if args.file is None:
        raise ValueError("give FILE ('-' for standard input) or --fpuzzles FILE")
    if is_parquet(args.file):
        if args.output is None:
            raise ValueError("Parquet input writes Parquet: name the output file with -o")
        progress = Progress(sys.stderr, parquet_io.row_count(args.file), enabled=not args.quiet)
        try:
            report = parquet_io.rate_parquet(
                args.file,
                args.output,
                column=args.column,
                threads=args.threads,
                box=args.box,
                alphabet=args.alphabet,
                max_nodes=args.max_nodes,
                score=bool(getattr(args, "score", False)),
                on_error="mark",
                compression=args.compression,
                rewrite=args.rewrite,
                progress=lambda rows: progress.update(rows, rows),
                rules=args.rules_read,
            )
        finally:
            progress.clear()
        for problem in report.problems:  # each has a null rating
            print(f"{args.file}: {option_words(problem)}", file=sys.stderr)
        if not args.quiet:
            rate = report.rows / report.seconds if report.seconds > 0 else 0.0
            print(
                f"{args.file}: {report.rows:,} puzzles in {report.seconds:.2f} s "
                f"({rate:,.0f}/s): {report.solved:,} rated, {report.not_unique:,} without "
                f"exactly one solution, {report.malformed:,} malformed, "
                f"{report.undecided:,} undecided (null ratings)",
                file=sys.stderr,
            )
        if report.undecided:
            return exits.EXIT_UNDECIDED
        if report.malformed:
            return exits.EXIT_MALFORMED
        return exits.EXIT_CHECK_FAILED if report.not_unique else exits.EXIT_OK
    source, name, _ = open_input(args.file)
    return _rate_source(args, source, name)


def _rate_source(args: argparse.Namespace, source: BinaryIO, name: str) -> int:
    """`rate` on a text input (a file, standard input, or an f-puzzles puzzle)."""
    source = reading(source, args.empty, args.blocks)
    try:
        if args.output is None:
            return _rate_text(args, source, name)
        with output(args.output, source) as raw:
            if args.format == "parquet":
                return _rate_text(args, source, name, raw)
            out = io.TextIOWrapper(raw, encoding="utf-8", write_through=True)
            with contextlib.redirect_stdout(out):
                status = _rate_text(args, source, name)
            out.detach()  # the binary stream is closed by `output`
            return status
    finally:
        if source is not sys.stdin.buffer:
            source.close()


_FIELDS = ["line", "level", "name", "hardest", "clues", "engine_guesses", "engine_nodes"]
_TYPES = {
    "line": int, "level": int, "name": str, "hardest": str, "clues": int,
    "engine_guesses": int, "engine_nodes": int, "score": float, "score_technique": str,
    "score_complete": bool, "error": str,
}  # fmt: skip


def _rate_text(
    args: argparse.Namespace, source: BinaryIO, name: str, binary: BinaryIO | None = None
) -> int:
    """`rate` on a text file: one row per puzzle on standard output (or in `binary`, for
    Parquet). TSV, the default, writes a failure's reason in the level column; the other
    formats have an `error` column."""
    score = bool(getattr(args, "score", False))
    fmt = getattr(args, "format", "tsv")
    fields = _FIELDS + (["score", "score_technique"] if score else [])
    if fmt != "tsv":
        fields = fields + (["score_complete"] if score else []) + ["error"]
    writer = RowWriter(fmt, fields, _TYPES, binary=binary)
    levels: list[int] = []
    failures = malformed = undecided = 0
    rules = args.rules_read
    box = rules_box(args, rules)
    reader = PuzzleReader(source, name, box=box, alphabet=args.alphabet, column=args.column)
    for batch in reader:
        geometry = batch.geometry
        fit_rules(args, rules, geometry.size, (geometry.box_rows, geometry.box_cols))
        batch.attach_rules(rules)
        for number, r, bad in _rated(batch, args.threads, args.max_nodes, score):
            if isinstance(r, str):
                failures += 1
                malformed += bad
                undecided += isinstance(r, _Undecided)
                if fmt == "tsv":
                    print(f"{number}\terror: {option_words(r)}")
                else:
                    writer.write({"line": number, "error": option_words(r)})
                if bad:  # reported like `solve` reports it
                    print(f"{name}:{number}: {option_words(r)}", file=sys.stderr)
                continue
            levels.append(r.level)
            if fmt == "tsv":
                print(
                    f"{number}\t{r.level}\t{r.name}\t{r.hardest}\t{r.clues}"
                    f"\t{r.engine_guesses}\t{r.engine_nodes}" + (_score_columns(r) if score else "")
                )
            else:
                row = {f: getattr(r, f, None) for f in fields}
                writer.write(row | {"line": number, "error": None})
    writer.close()
    if levels:  # on stderr: the rows on stdout stay data only
        summary = ", ".join(f"{lv}: {levels.count(lv)}" for lv in sorted(set(levels)))
        print(
            f"{name}: {len(levels)} rated, mean level {statistics.mean(levels):.2f} ({summary})"
            + (f", {failures} not rated" if failures else ""),
            file=sys.stderr,
        )
    if undecided:
        return exits.EXIT_UNDECIDED
    if malformed:
        return exits.EXIT_MALFORMED
    return exits.EXIT_CHECK_FAILED if failures else exits.EXIT_OK
