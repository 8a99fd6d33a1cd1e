"""The command line's words: the one place where the library's messages become CLI wording.

The library names its arguments as Python spells them (`box=(rows, cols)`,
`alphabet=`, `max_nodes=`); `option_words` turns those into the options a command-line
user types (`--box R C`, `--alphabet`, `--max-nodes`). Every message the CLI prints goes
through it: errors (`error`), per-line reports (`Messages`), summaries.
"""

from __future__ import annotations

import re
import sys
import threading
from typing import TextIO

from .._files.progress import Progress

__all__ = ["Messages", "budget_message", "error", "option_words"]

_API_OPTIONS = (
    (re.compile(r"\bbox=\(rows, cols\)"), "--box R C"),
    (re.compile(r"\bbox=(?!\()"), "--box"),
    (re.compile(r"(?<=with )column="), "--column"),
    (re.compile(r"\bpass minimal=False"), "pass --not-minimal"),
    (re.compile(r"\balphabet=(?=')"), "--alphabet "),
    (re.compile(r"\bempty=(?=')"), "--empty "),
    (re.compile(r"\balphabet="), "--alphabet"),
    (re.compile(r"pass a larger max_nodes, or None( for no budget)?"), "--max-nodes N raises it"),
    (re.compile(r"\bmax_nodes=(?=\d)"), "--max-nodes "),
    (re.compile(r"^the rules do not fit\b"), "the rules of --variant / --rules do not fit"),
    (re.compile(r"\bcombined with rules="), "combined with --variant / --rules"),
    (re.compile(r"\brules= may only repeat them"), "--variant / --rules may only repeat them"),
)


def option_words(text: str) -> str:
    """A message of the library in the command line's words: `box=(rows, cols)` becomes
    `--box R C`, `alphabet=` `--alphabet` and `max_nodes=` `--max-nodes`."""
    for pattern, words in _API_OPTIONS:
        text = pattern.sub(words, text)
    return text


class Messages:
    """Per-line messages on a text stream (`NAME:LINE: text`), at most `limit` of them.

    Thread-safe; erases the progress bar before writing. `limit` 0 means no limit.
    """

    def __init__(self, stream: TextIO, limit: int = 100, progress: Progress | None = None) -> None:
        """Write to `stream`, showing at most `limit` messages (0 = all)."""
        self._stream = stream
        self._limit = limit
        self._progress = progress
        self._lock = threading.Lock()
        self.shown = 0
        self.suppressed = 0

    def line(self, name: str, line: int, text: str) -> None:
        """Report something about line `line` of input `name`."""
        self.say(f"{name}:{line}: {text}", counted=True)

    def say(self, text: str, counted: bool = False) -> None:
        """Write one message line (counted ones obey the limit)."""
        with self._lock:
            if counted and self._limit and self.shown >= self._limit:
                self.suppressed += 1
                return
            if counted:
                self.shown += 1
            if self._progress is not None:
                self._progress.clear()
            print(option_words(text), file=self._stream, flush=True)

    def finish(self) -> None:
        """Say how many messages were left out, if any."""
        if self.suppressed:
            self.say(f"... and {self.suppressed:,} more message(s) not shown")


def error(message: str) -> None:
    """Print a library error on stderr in the CLI's words, as `sudoku-fast: error: ...`."""
    print(f"sudoku-fast: error: {option_words(message)}", file=sys.stderr)


def budget_message(max_nodes: int | None, what: str) -> str:
    """What to say when the node budget ran out."""
    return (
        f"the search ran out of its budget of {max_nodes:,} search nodes {what} "
        "(--max-nodes N raises it, --max-nodes 0 removes it)"
    )
