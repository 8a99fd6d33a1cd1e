"""The `sudoku-fast` command (also `python -m sudoku_fast`).

Without a command it runs the main job (`main_job.py`): it solves the embedded puzzle
sets, checks every solution with the engine-independent `is_solution`, and prints a
throughput table. The commands are `solve` (files of puzzles, streamed), `stats`
(search statistics), `show`, `count` and `check` (one puzzle), `generate` (new
puzzles), `rate` (difficulty), `hint` (the next step), `lab` (the classic algorithms
side by side), `dedup` (drop puzzles equivalent up to symmetry), `canonical` (add
each puzzle's canonical form), `augment` (random symmetric copies) and `render` (puzzle
books and pictures).

One module per command: `add_parser(subparsers)` builds its parser and sets
`handler=run`; `run(args)` runs it and returns an exit status. Adding a command is a new
module and one entry in `COMMANDS`. Options several commands share are in `options.py`,
the exit statuses in `exits.py`, and `words.py` is the one place where the library's
messages (which name `box=`, `max_nodes=`, ...) become the command line's words.
"""

from __future__ import annotations

import argparse
import errno
import os
import sys
from collections.abc import Sequence
from types import ModuleType

from .._base.checks import DEFAULT_MAX_NODES
from .._base.errors import SearchLimitExceeded
from .._version import __version__
from . import (
    augment,
    canonical,
    check,
    completion,
    count,
    dedup,
    generate,
    hint,
    lab,
    main_job,
    rate,
    render,
    show,
    solve,
    stats,
)
from .exits import (
    EXIT_BROKEN_PIPE,
    EXIT_INTERRUPTED,
    EXIT_MEANINGS,
    EXIT_UNDECIDED,
    EXIT_USAGE,
    HelpFormatter,
    exit_codes,
)
from .options import add_threads, join_box_arguments
from .words import budget_message, error

__all__ = ["COMMANDS", "build_parser", "main"]

# The commands, in the order of the help text.
COMMANDS: tuple[ModuleType, ...] = (
    solve,
    stats,
    show,
    count,
    check,
    generate,
    rate,
    hint,
    lab,
    dedup,
    render,
    canonical,
    augment,
    completion,
)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the command line."""
    parser = argparse.ArgumentParser(
        prog="sudoku-fast",
        description=(
            "A fast Sudoku engine. Without a command: solve the embedded puzzle sets, "
            "verify every solution, print throughput."
        ),
        epilog=exit_codes(sorted(EXIT_MEANINGS)),
        formatter_class=HelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    add_threads(parser, top_level=True)
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND")
    for command in COMMANDS:
        command.add_parser(subparsers)
    parser.set_defaults(handler=main_job.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of `sudoku-fast`; returns the exit status."""
    arguments = sys.argv[1:] if argv is None else argv
    args = build_parser().parse_args(join_box_arguments(arguments))
    try:
        status: int = args.handler(args)
    except SearchLimitExceeded:
        error(budget_message(getattr(args, "max_nodes", DEFAULT_MAX_NODES), "on a puzzle"))
        return EXIT_UNDECIDED
    except KeyboardInterrupt:
        print("sudoku-fast: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): stop quietly, as other tools do.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    except (ValueError, TypeError, OSError) as err:
        error(_naming_the_output(err, args))
        return EXIT_USAGE
    return status


# Errors only a write gives; the operating system names no file for them.
_WRITE_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})


def _naming_the_output(err: BaseException, args: argparse.Namespace) -> str:
    """The message of an error, naming the output when a write failed (a full disk)."""
    if isinstance(err, OSError) and err.filename is None and err.errno in _WRITE_ERRNOS:
        output = getattr(args, "output", None)
        return f"{output if output not in (None, '-') else 'standard output'}: {err}"
    return str(err)
