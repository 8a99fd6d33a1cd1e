"""A one-line progress bar for the terminal: puzzles done, puzzles/s and time left.

It draws only when its stream is a terminal, so redirected or captured stderr never
gets carriage returns mixed into it.
"""

from __future__ import annotations

import os
import shutil
import time
from typing import TextIO

REDRAW_SECONDS = 0.2
BAR_WIDTH = 24


def _clock(seconds: float) -> str:
    seconds = int(seconds)
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


class Progress:
    """Progress of a run over `total_bytes` of input (None when the size is unknown).

    The time left is estimated from the share of the input consumed so far, since the
    number of puzzles in a file is not known until it has been read.
    """

    def __init__(self, stream: TextIO, total_bytes: int | None, enabled: bool = True) -> None:
        """Draw on `stream` if `enabled` and the stream is a terminal."""
        self._stream = stream
        self._total = total_bytes if total_bytes else None
        self._enabled = enabled and _is_terminal(stream)
        self._start = time.perf_counter()
        self._last_draw = 0.0
        self._drawn = False

    @property
    def enabled(self) -> bool:
        """Whether anything is drawn at all."""
        return self._enabled

    def update(self, puzzles: int, bytes_done: int, force: bool = False) -> None:
        """Redraw (at most every REDRAW_SECONDS) for `puzzles` done and `bytes_done` read."""
        if not self._enabled:
            return
        now = time.perf_counter()
        if not force and now - self._last_draw < REDRAW_SECONDS:
            return
        self._last_draw = now
        elapsed = max(now - self._start, 1e-9)
        counts = f"{puzzles:,} puzzles  {puzzles / elapsed:,.0f}/s  {_clock(elapsed)}"
        variants = [counts]
        if self._total:
            share = min(bytes_done / self._total, 1.0)
            filled = round(share * BAR_WIDTH)
            bar = "#" * filled + "." * (BAR_WIDTH - filled)
            left = f"  ETA {_clock(elapsed * (1 - share) / share)}" if share > 0 else ""
            variants = [
                f"[{bar}] {share:4.0%}  {counts}{left}",
                f"{share:4.0%}  {counts}{left}",
                f"{share:4.0%}{left}",
            ]
        # A line longer than the terminal wraps, and "\r" then returns only to the start
        # of its last row, leaving a stale row per redraw: drop parts until it fits.
        room = max(_columns(self._stream) - 1, 1)
        text = next((v for v in variants if len(v) <= room), variants[-1][:room])
        self._stream.write("\r" + text + "\x1b[K")
        self._stream.flush()
        self._drawn = True

    def clear(self) -> None:
        """Erase the bar (before a message line, or at the end); updates redraw it."""
        if self._drawn:
            self._stream.write("\r\x1b[K")
            self._stream.flush()
            self._drawn = False


def _columns(stream: TextIO) -> int:
    """The width of the terminal `stream` writes to (COLUMNS first, as shutil does)."""
    try:
        columns = int(os.environ.get("COLUMNS", ""))
        if columns > 0:
            return columns
    except ValueError:
        pass
    try:
        return os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, OSError, ValueError):
        return shutil.get_terminal_size().columns


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
