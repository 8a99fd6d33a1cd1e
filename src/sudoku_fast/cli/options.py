"""The options several commands share, with their argument types: threads, the grid
geometry (--box, --alphabet), pencil marks, node budgets, PUZZLE arguments, outputs and
the Parquet options."""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any, BinaryIO

from .._base.checks import DEFAULT_MAX_NODES, MAX_LIMIT, MAX_NODES
from .._base.columns import PUZZLE_COLUMNS
from .._base.fpuzzles import ImportedPuzzle, read_fpuzzles
from .._base.rules import Rules
from .._base.sudokupad import is_sudokupad, read_sudokupad
from .._files.parquet_io import CODECS
from .._files.stream import is_parquet, output_file
from .._variants.encode import check_rules
from .._variants.run import box_for


def _thread_count(text: str) -> int:
    try:
        threads = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if threads == 0:
        raise argparse.ArgumentTypeError("must not be 0 (-1 = all cores, 1 = serial)")
    return threads


def int_at_least(least: int) -> Callable[[str], int]:
    """An option type: a whole number of at least `least`."""

    def whole_number(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
        if value < least:
            raise argparse.ArgumentTypeError(f"must be at least {least}")
        return value

    return whole_number


positive = int_at_least(1)


non_negative = int_at_least(0)


def _limit(text: str) -> int:
    """A --limit value: solutions to count up to, as the engines take it."""
    value = positive(text)
    if value > MAX_LIMIT:
        raise argparse.ArgumentTypeError(f"must be from 1 to {MAX_LIMIT:,} (2**31 - 1)")
    return value


def add_threads(
    parser: argparse.ArgumentParser, top_level: bool = False, default: str = "all cores"
) -> None:
    # Subcommands leave it unset unless given, so `sudoku-fast --threads 2 solve F` works.
    parser.add_argument(
        "--threads",
        type=_thread_count,
        default=None if top_level else argparse.SUPPRESS,
        metavar="N",
        help=f"worker threads (default: {default}; 1 = serial; -k = all cores + 1 - k)",
    )


BOX_PATTERN = re.compile(r"(\d+)[xX](\d+)")


def _box(text: str) -> tuple[int, int]:
    """A --box value: 'RxC' (`main` turns '--box R C' into that form)."""
    match = BOX_PATTERN.fullmatch(text.strip())
    if match is None:
        raise argparse.ArgumentTypeError(f"expected ROWSxCOLS or ROWS COLS, got {text!r}")
    return int(match[1]), int(match[2])


def join_box_arguments(argv: Sequence[str]) -> list[str]:
    """'--box R C' as '--box RxC', so that --box takes one value in both spellings.

    (argparse cannot take one or two values here without swallowing a positional
    argument that follows.)
    """
    out: list[str] = []
    i = 0
    while i < len(argv):
        if argv[i] == "--box" and i + 2 < len(argv):
            rows, cols = argv[i + 1], argv[i + 2]
            if rows.isdigit() and cols.isdigit():
                out += ["--box", f"{rows}x{cols}"]
                i += 3
                continue
        out.append(argv[i])
        i += 1
    return out


def add_geometry(parser: argparse.ArgumentParser) -> None:
    """--box and --alphabet, which fix the grid geometry as `box=` / `alphabet=` do."""
    parser.add_argument(
        "--box",
        type=_box,
        default=None,
        metavar="R C",
        help=(
            "box shape, rows then columns ('--box 3 2' or '--box 3x2'; default: from "
            "the size, which the first puzzle decides)"
        ),
    )
    parser.add_argument(
        "--alphabet",
        default=None,
        metavar="SYMBOLS",
        help="the N symbols of values 1..N, e.g. 0123456789ABCDEF (default: 1-9, A-Z, a-n)",
    )


def add_rules(parser: argparse.ArgumentParser, fpuzzles: bool = False, drawn: bool = False) -> None:
    """--variant and --rules, the puzzle's variant rules (`rules=`); both may be given.
    With `fpuzzles`, also --fpuzzles FILE: a puzzle and its rules from an f-puzzles
    export, in place of the command's puzzle argument. `drawn`: --variant also takes
    jigsaw, killer and thermo (generate draws them)."""
    parser.add_argument(
        "--variant",
        default=None,
        metavar="NAMES",
        help=(
            "variant rules by name, comma-separated: x (diagonal), windoku (hyper), "
            "disjoint, anti-knight, anti-king, non-consecutive"
            + (", and jigsaw, killer, thermo (drawn for each puzzle)" if drawn else "")
        ),
    )
    parser.add_argument(
        "--rules",
        default=None,
        metavar="FILE",
        help="variant rules in their JSON form (see sudoku_fast.Rules.from_json)",
    )
    if fpuzzles:
        parser.add_argument(
            "--fpuzzles",
            "--sudokupad",
            dest="fpuzzles",
            default=None,
            metavar="FILE",
            help=(
                "a file holding an f-puzzles or SudokuPad (scl) link, its payload or its "
                "JSON: the puzzle (in place of the puzzle argument) and its rules"
            ),
        )


def fpuzzles_of(args: argparse.Namespace) -> ImportedPuzzle | None:
    """The puzzle --fpuzzles names (read once), or None without the option."""
    path = getattr(args, "fpuzzles", None)
    if not path:
        return None
    cached = getattr(args, "fpuzzles_read", None)
    if cached is not None:
        return cached  # type: ignore[no-any-return]
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as err:
        raise ValueError(f"puzzle file {path}: {err.strerror or err}") from None
    try:
        imported = read_sudokupad(text) if is_sudokupad(text) else read_fpuzzles(text)
    except (ValueError, TypeError) as err:
        raise ValueError(f"puzzle file {path}: {err}") from None
    args.fpuzzles_read = imported
    return imported


def rules_of(args: argparse.Namespace) -> Rules | None:
    """The rules --variant and --rules give together (None: classic)."""
    rules = Rules.named(args.variant) if args.variant else Rules()
    if args.rules:
        try:
            with open(args.rules, encoding="utf-8") as f:
                text = f.read()
        except OSError as err:
            raise ValueError(f"rules file {args.rules}: {err.strerror or err}") from None
        try:
            rules = rules.merge(Rules.from_json(text))
        except (ValueError, TypeError) as err:
            raise ValueError(f"rules file {args.rules}: {err}") from None
    imported = fpuzzles_of(args)
    if imported is not None:
        rules = rules.merge(imported.rules)
    return None if rules.is_classic else rules


def rules_words(args: argparse.Namespace) -> str:
    """The options the rules came from, as the user typed them, for a message."""
    given = [
        f"{option} {value}"
        for option, value in (
            ("--variant", args.variant),
            ("--rules", args.rules),
            ("--fpuzzles", getattr(args, "fpuzzles", None)),
        )
        if value
    ]
    return " and ".join(given) or "the rules"


def fit_rules(
    args: argparse.Namespace, rules: Rules | None, size: int, box: tuple[int, int]
) -> None:
    """Raise ValueError, naming the options they came from, when `rules` do not fit an
    N x N grid with boxes of `box`."""
    if rules is None:
        return
    try:
        check_rules(rules, size, box)
    except ValueError as err:
        raise ValueError(
            f"{rules_words(args)}: the rules do not fit the {size}x{size} grid: {err}"
        ) from None


def rules_box(args: argparse.Namespace, rules: Rules | None) -> tuple[int, int] | None:
    """The --box puzzles are read with: as given, or one a jigsaw of a prime size
    needs (its regions replace the boxes it has none of)."""
    if rules is None:
        return args.box  # type: ignore[no-any-return]
    return box_for(rules, args.box, args.alphabet)  # type: ignore[return-value]


def fpuzzles_input(args: argparse.Namespace, positional: str | None) -> tuple[BinaryIO, str] | None:
    """With --fpuzzles: its puzzle as a one-line input (a stream and its name): a JSON
    line holding the document's published solution too, which `solve --verify` checks
    the answer against. None without the option; ValueError when the command's FILE
    argument (`positional`) is given too."""
    imported = fpuzzles_of(args)
    if imported is None:
        return None
    if positional is not None:
        raise ValueError("give FILE or --fpuzzles FILE (one of them)")
    record = {"puzzle": imported.puzzle}
    if imported.solution:
        record["solution"] = imported.solution
    return io.BytesIO(f"{json.dumps(record)}\n".encode()), args.fpuzzles


def add_notation(parser: argparse.ArgumentParser) -> None:
    """--empty and --blocks: text files in other notations (see `_files/notations.py`)."""
    parser.add_argument(
        "--empty",
        default=None,
        metavar="C",
        help="the character of an empty cell in a text file, e.g. '_' or '*' (besides '.')",
    )
    parser.add_argument(
        "--blocks",
        action="store_true",
        help="each line of a text file is one row of a grid (.sdk / .ss / block files; "
        "found by itself for 9x9 rows, name lines such as 'Grid 01' and numbers above 9)",
    )


def add_marks(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument(
        "--marks",
        action="store_true",
        help=(
            f"{what} pencil marks: N*N*N characters, for each cell, for each digit, the "
            "digit where it is still possible and '.' where it is excluded (729 for 9x9)"
        ),
    )


def _max_nodes(text: str) -> int | None:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if not 0 <= value <= MAX_NODES:
        raise argparse.ArgumentTypeError(f"must be from 0 (no budget) to {MAX_NODES:,} (2**63 - 1)")
    return value or None


def add_max_nodes(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--max-nodes",
        type=_max_nodes,
        default=DEFAULT_MAX_NODES,
        metavar="N",
        help=(
            "search nodes per puzzle for grids other than 9x9 with 3x3 boxes "
            f"(default {DEFAULT_MAX_NODES:,}; 0 = no budget)"
        ),
    )


def puzzle_argument(text: str, for_files: str) -> str:
    """A PUZZLE argument: the text itself, or '-' for standard input (several lines).

    The name of an existing file is refused with `for_files`, the command that takes
    files, rather than parsed as a puzzle and reported as an odd character.
    """
    if text == "-":
        return sys.stdin.read()
    if os.path.isfile(text):
        raise ValueError(f"{text!r} is a file; this command takes one PUZZLE ({for_files})")
    return text


class Incomplete(Exception):
    """Raised inside `output` to leave no output file: the run stopped before the end."""


@contextlib.contextmanager
def output(path: str, source: BinaryIO | None = None) -> Iterator[BinaryIO]:
    """The output stream ('-': standard output, the stream being the contract there); a
    file appears whole when the block ends without an error, or not at all (see
    `stream.output_file`). Refuses (ValueError) a file that is the input itself."""
    if path == "-":
        yield sys.stdout.buffer
        return
    if source is not None:
        refuse_same_file(source, path)
    with output_file(path) as out:
        yield out


def refuse_same_file(source: BinaryIO, path: str) -> None:
    """Raise ValueError when `path` is the file `source` reads: opening it for writing
    would empty the input before it is read."""
    if same_file(source, path):
        raise ValueError(f"{path}: the output file is the input file; write elsewhere")


def same_file(source: BinaryIO, path: str) -> bool:
    """Whether `path` names the file `source` reads (same device and inode: links too)."""
    try:
        read = os.fstat(source.fileno())
        written = os.stat(path)
    except (OSError, AttributeError, ValueError):  # no such file yet, or not a real file
        return False
    return (read.st_dev, read.st_ino) == (written.st_dev, written.st_ino)


def add_parquet_options(parser: Any) -> None:
    """The `--column`, `--compression` and `--rewrite` options of the Parquet commands."""
    parser.add_argument(
        "--column",
        default=None,
        metavar="NAME",
        help="CSV or Parquet input: the puzzle column, any case "
        f"(default: {' / '.join(PUZZLE_COLUMNS)}); CSV fields may be separated by "
        "',' ';' tab or '|', found from the header",
    )
    parser.add_argument(
        "--compression",
        choices=CODECS,
        default="input",
        help="Parquet output: the codec of the added columns (default 'input': the puzzle "
        "column's codec); the input's columns are copied as stored, unless --rewrite",
    )
    parser.add_argument(
        "--rewrite",
        action="store_true",
        help="Parquet output: decode and encode every column again (compressed with "
        "--compression) rather than copying the input's column chunks",
    )


def refuse_parquet(path: str, command: str) -> None:
    """Raise ValueError for a Parquet file given to a command that reads text only."""
    if is_parquet(path):
        raise ValueError(
            f"{path}: {command} reads text files (one puzzle per line, or CSV); Parquet "
            "files are read by solve, rate, dedup, canonical and augment"
        )


def is_board_file(path: str) -> bool:
    """Whether `path` is a file holding a JSON object (a saved board, or meant as one),
    not JSON lines of puzzles (what `generate --format jsonl` writes: a first line that
    is a whole object with a puzzle key and no board `format`)."""
    if not os.path.isfile(path):
        return False
    with open(path, "rb") as f:
        if not f.read(64).lstrip().startswith(b"{"):
            return False
        f.seek(0)
        first = f.readline(1 << 20)
    try:
        doc = json.loads(first)
    except ValueError:  # a board written over several lines
        return True
    if not isinstance(doc, dict) or "format" in doc:
        return True
    return not any(isinstance(key, str) and key.strip().lower() in PUZZLE_COLUMNS for key in doc)
