"""Shared fixtures: where the puzzle data lives, and how to read it."""

from __future__ import annotations

import csv
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
VENDORED = ROOT / "tests" / "data"
SHARED = ROOT.parent / "shared" / "data"


def pytest_report_header() -> str:
    """Say which puzzle data the data-driven tests read."""
    if SHARED.is_dir():
        return f"puzzle data: the full public sets in {SHARED} (../shared/data)"
    return f"puzzle data: the vendored samples in {VENDORED} (no ../shared/data beside the repo)"


def data_file(full: str, vendored: str) -> Path:
    """The full shared file when present, else the vendored sample."""
    path = SHARED / full
    return path if path.exists() else VENDORED / vendored


def read_lines(path: Path) -> list[str]:
    return [line.strip() for line in path.read_text().splitlines() if line.strip()]


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(newline="") as f:
        return list(csv.DictReader(f))


def _default_sigint() -> None:
    """In a child before it runs: Ctrl-C acts as from a terminal. A test run started as a
    shell's background job has SIGINT ignored, and children inherit that (Python then
    installs no KeyboardInterrupt handler)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start_interruptible(args: list[str], **options: Any) -> subprocess.Popen[str]:
    """`subprocess.Popen(args, text=True, **options)`, with SIGINT at its default."""
    if sys.platform != "win32":
        options["preexec_fn"] = _default_sigint
    return subprocess.Popen(args, text=True, **options)


def interrupt(args: list[str], after: float = 1.5, timeout: float = 15.0) -> tuple[int, str, float]:
    """Start `args`, send it Ctrl-C (SIGINT) `after` seconds later, let it end.

    Returns its exit status, its stderr and the seconds it took to exit after the
    signal; fails the test when it does not exit within `timeout` seconds.
    """
    proc = start_interruptible(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    time.sleep(after)
    assert proc.poll() is None, "ended before it could be interrupted"
    proc.send_signal(signal.SIGINT)
    sent = time.perf_counter()
    try:
        _, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail(f"still running {timeout:.0f} s after Ctrl-C: {args}")
    return proc.returncode, err, time.perf_counter() - sent


needs_sigint = pytest.mark.skipif(
    sys.platform == "win32", reason="Windows cannot send SIGINT to a child process"
)
