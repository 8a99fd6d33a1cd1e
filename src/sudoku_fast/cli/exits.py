"""Exit statuses of the `sudoku-fast` command, what each means, and the help text that
lists them (each command's help ends with the table of the statuses it can return)."""

from __future__ import annotations

import argparse
import re
import textwrap
from collections.abc import Sequence
from typing import Any

from .._files.stream import MALFORMED_MARK, UNKNOWN_MARK

EXIT_OK = 0
EXIT_CHECK_FAILED = 1
EXIT_USAGE = 2
EXIT_MALFORMED = 3
EXIT_STOPPED = 4
EXIT_UNDECIDED = 5
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141

# What each exit status means, in general; a command's help lists only the statuses it
# can return, with the wording fitted to it where that says more.
EXIT_MEANINGS: dict[int, str] = {
    EXIT_OK: 'success: every puzzle answered ("no solution" is an answer, not an error)',
    EXIT_CHECK_FAILED: (
        "a check failed: `solve --verify` found an answer that differs from the file's "
        "solution or breaks the rules; `check` was given a non-solution; `rate` met a "
        "puzzle without exactly one solution; the main job could not verify a solution"
    ),
    EXIT_USAGE: "usage error, unreadable input or output, or a malformed PUZZLE argument",
    EXIT_MALFORMED: (
        "malformed input lines (reported on stderr with their line numbers and answered "
        f'with "{MALFORMED_MARK}"; with --on-error skip they do not count)'
    ),
    EXIT_STOPPED: "--on-error fail stopped at a malformed line",
    EXIT_UNDECIDED: (
        "a puzzle of a grid other than 9x9 with 3x3 boxes ran out of its search-node "
        f'budget (--max-nodes) before it was decided (answered "{UNKNOWN_MARK}")'
    ),
    EXIT_INTERRUPTED: "interrupted (Ctrl-C)",
    EXIT_BROKEN_PIPE: "the output pipe was closed early (e.g. `| head`)",
}


def exit_codes(codes: Sequence[int], meanings: dict[int, str] | None = None) -> str:
    """The 'exit status:' table of a help text: `codes`, in order, with their meanings."""
    wording = {**EXIT_MEANINGS, **(meanings or {})}
    lines = ["exit status:"] + [f"  {code:<4} {wording[code]}" for code in codes]
    if sum(code not in (EXIT_OK, EXIT_INTERRUPTED, EXIT_BROKEN_PIPE) for code in codes) > 1:
        lines.append("When several apply, the highest one is returned.")
    return "\n".join(lines)


class HelpFormatter(argparse.HelpFormatter):
    """Wraps descriptions to the terminal width, and the exit-status table as a table.

    Each line of a description or epilog is a paragraph of its own; a line indented
    like "  3    meaning" keeps its code column and wraps its meaning beside it.
    """

    _TABLE_ROW = re.compile(r"(  \S+ +)(\S.*)")

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        out = []
        for line in text.splitlines():
            row = self._TABLE_ROW.fullmatch(line)
            first = indent + (row[1] if row else "")
            body = row[2] if row else line
            rest = indent + " " * (len(first) - len(indent))
            out.append(textwrap.fill(body, width, initial_indent=first, subsequent_indent=rest))
        return "\n".join(out)


def command(
    subparsers: Any,
    name: str,
    codes: Sequence[int],
    meanings: dict[int, str] | None = None,
    **kwargs: Any,
) -> argparse.ArgumentParser:
    """A subcommand whose help ends with the table of the exit codes it can return."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        name, epilog=exit_codes(codes, meanings), formatter_class=HelpFormatter, **kwargs
    )
    return parser
