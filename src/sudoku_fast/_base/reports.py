"""How a file pipeline reports a problem with one record: to whoever reads its messages.

The pipelines (`_files.stream`, `_files.dedup`) say what is wrong with a line in the
library's words; the command line shows it in its own (see `cli/words.py`).
"""

from __future__ import annotations

from typing import Protocol

__all__ = ["LineReport"]


class LineReport(Protocol):
    """Takes messages about lines of an input."""

    def line(self, name: str, line: int, text: str) -> None:
        """Report something about line `line` of input `name`."""
