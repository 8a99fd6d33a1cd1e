"""`sudoku-fast render`: puzzle books (PDF), pictures (SVG, PNG), saved boards.

The pictures and pages come from `sudoku_fast.render`.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from .._base.grid import format_values
from .._base.rules import Rules
from .._files.stream import PuzzleReader, open_input
from .._variants.run import box_for
from ..board import load_board
from ..render import PAGE_SIZES, render, render_book
from ..solving import solve_many
from . import exits
from .exits import command
from .options import (
    add_geometry,
    add_rules,
    add_threads,
    fpuzzles_of,
    is_board_file,
    positive,
    rules_of,
)
from .words import option_words

FORMATS = ("svg", "png", "pdf")


def add_parser(subparsers: Any) -> None:
    parser = command(
        subparsers,
        "render",
        [exits.EXIT_OK, exits.EXIT_USAGE, exits.EXIT_MALFORMED],
        {
            exits.EXIT_OK: "success: every puzzle drawn",
            exits.EXIT_USAGE: (
                "usage error, unreadable input, an unwritable output, or (with answers) a "
                "puzzle without exactly one solution"
            ),
            exits.EXIT_MALFORMED: "malformed input lines (reported on stderr and left out)",
        },
        help="draw puzzles: a PDF book, or an SVG / PNG per puzzle; a saved board",
        description=(
            "Draw the puzzles of FILE (one per line, or CSV with a puzzle column; of one "
            "size) as a book: -o book.pdf writes puzzle pages then answer pages; -o DIR/ "
            "writes one picture per puzzle (and per answer) into DIR. A saved board "
            "(JSON, see `hint`) is drawn as one picture with its values and pencil marks: "
            "-o board.svg, .pdf or .png. --variant / --rules draw variant rules (and "
            "solve the answers under them); --fpuzzles FILE draws the puzzle of an "
            "f-puzzles export (one picture, or a picture and its answer in -o DIR/)."
        ),
    )
    parser.add_argument(
        "file",
        nargs="?",
        help="file of puzzles (- for standard input), or a saved board (none with --fpuzzles)",
    )
    parser.add_argument(
        "-o",
        "--output",
        required=True,
        help="book.pdf (or .svg / .png: one file per page), or a folder ending in /",
    )
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default="svg",
        help="the pictures' format when -o is a folder (default svg)",
    )
    parser.add_argument(
        "--per-page", type=positive, default=4, metavar="N", help="puzzles per page (default 4)"
    )
    parser.add_argument(
        "--page-size", choices=tuple(PAGE_SIZES), default="A4", help="paper (default A4)"
    )
    parser.add_argument("--title", default="", help="the book's title")
    parser.add_argument("--no-numbers", action="store_true", help="leave the puzzles unnumbered")
    parser.add_argument(
        "--no-answers", action="store_true", help="no answer pages (no answer pictures)"
    )
    parser.add_argument(
        "--answers-per-page",
        type=positive,
        default=None,
        metavar="N",
        help="solutions per answer page (default 12 up to 9x9, 6 up to 16x16, else 2)",
    )
    parser.add_argument(
        "--captions",
        action="store_true",
        help="caption each puzzle with its level (and SE score for 9x9), as `rate` gives them",
    )
    parser.add_argument(
        "--dpi", type=positive, default=150, metavar="N", help="PNG resolution (default 150)"
    )
    add_geometry(parser)
    add_rules(parser, fpuzzles=True)
    add_threads(parser, default="1")
    parser.set_defaults(handler=run)


def _is_folder(path: str) -> bool:
    return path.endswith(("/", os.sep)) or os.path.isdir(path)


def run(args: argparse.Namespace) -> int:
    imported = fpuzzles_of(args)
    if (imported is None) == (args.file is None):
        raise ValueError("give FILE or --fpuzzles FILE (one of them)")
    if args.file is not None and args.file != "-" and is_board_file(args.file):
        if args.box is not None or args.alphabet is not None:
            raise ValueError("--box and --alphabet are for puzzle files; a saved board has its own")
        picture = render(load_board(args.file), rules=rules_of(args))
        if _is_folder(args.output):
            raise ValueError(f"{args.output}: a board is one picture; name a .svg, .pdf or .png")
        picture.save(args.output, dpi=args.dpi)
        print(f"{args.output}: the board", file=sys.stderr)
        return exits.EXIT_OK
    rules = rules_of(args)
    if imported is not None and not _is_folder(args.output):
        # One puzzle: one picture, as for a saved board.
        render(imported.puzzle, rules=rules, box=args.box, alphabet=args.alphabet).save(
            args.output, dpi=args.dpi
        )
        print(f"{args.output}: the puzzle of {args.fpuzzles}", file=sys.stderr)
        return exits.EXIT_OK
    drawn: Rules | list[Rules | None] | None = rules
    if imported is not None:
        puzzles, malformed = [imported.puzzle], 0
    else:
        puzzles, drawn, malformed = _read_puzzles(args, rules)
    if not puzzles:
        raise ValueError(f"{args.file}: no puzzles to draw")
    threads = getattr(args, "threads", None) or 1
    if _is_folder(args.output):
        written = _pictures(args, puzzles, threads, drawn)
        print(f"{args.output}: {written} pictures", file=sys.stderr)
    else:
        book = render_book(
            puzzles,
            per_page=args.per_page,
            page_size=args.page_size,
            title=args.title,
            numbering=not args.no_numbers,
            answers=not args.no_answers,
            answers_per_page=args.answers_per_page,
            captions=args.captions,
            rules=drawn,
            box=args.box,
            alphabet=args.alphabet,
            threads=threads,
        )
        paths = book.save(args.output, dpi=args.dpi)
        where = args.output if len(paths) == 1 else f"{len(paths)} files {paths[0]} ..."
        print(f"{where}: {len(puzzles)} puzzles on {len(book)} pages", file=sys.stderr)
    return exits.EXIT_MALFORMED if malformed else exits.EXIT_OK


def _read_puzzles(
    args: argparse.Namespace, rules: Rules | None
) -> tuple[list[str], Rules | list[Rules | None] | None, int]:
    """The puzzles of the file as canonical strings, the rules to draw them under (the
    run's `rules`, or one set per puzzle when the file's records carry their own: the
    forms `generate --variant` writes) and the number of malformed lines (each reported
    on stderr)."""
    source, name, _ = open_input(args.file)
    puzzles: list[str] = []
    own: list[Rules | None] = []
    malformed = 0
    try:
        box = args.box if rules is None else box_for(rules, args.box, args.alphabet)
        reader = PuzzleReader(source, name, box=box, alphabet=args.alphabet)
        for batch in reader:
            cells = batch.geometry.cells
            batch.attach_rules(rules)  # each record's own rules joined with the run's
            bad = dict(batch.problems)
            for i in range(batch.n):
                if i in bad:
                    malformed += 1
                    print(
                        f"{name}:{batch.line_numbers[i]}: {option_words(bad[i])}", file=sys.stderr
                    )
                    continue
                grid = batch.grids[i * cells : (i + 1) * cells]
                puzzles.append(format_values(grid, batch.geometry))
                own.append(rules if batch.rules is None else batch.rules[i])
    finally:
        if source is not sys.stdin.buffer:
            source.close()
    if all(r is rules for r in own):
        return puzzles, rules, malformed
    return puzzles, own, malformed


def _pictures(
    args: argparse.Namespace,
    puzzles: list[str],
    threads: int,
    rules: Rules | list[Rules | None] | None,
) -> int:
    """One picture per puzzle (and per answer) in the folder; returns how many."""
    folder = args.output
    os.makedirs(folder, exist_ok=True)
    width = max(4, len(str(len(puzzles))))
    answers = None
    if not args.no_answers:
        answers = solve_many(
            puzzles, threads=threads, rules=rules, box=args.box, alphabet=args.alphabet
        )
    written = 0
    for i, puzzle in enumerate(puzzles):
        stem = os.path.join(folder, f"{i + 1:0{width}d}")
        caption = f"No. {i + 1}" if not args.no_numbers else ""
        own = rules[i] if isinstance(rules, list) else rules
        geometry_args: dict[str, Any] = {"box": args.box, "alphabet": args.alphabet, "rules": own}
        render(puzzle, caption=caption, **geometry_args).save(f"{stem}.{args.format}", dpi=args.dpi)
        written += 1
        if answers is not None:
            solution = answers[i]
            if solution is None:
                raise ValueError(f"puzzle {i} (No. {i + 1}) has no solution to draw")
            render(puzzle, solution=solution, caption=caption, **geometry_args).save(
                f"{stem}-answer.{args.format}", dpi=args.dpi
            )
            written += 1
    return written
