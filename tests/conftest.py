"""Shared fixtures: where the puzzle data lives, and how to read it."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
VENDORED = ROOT / "tests" / "data"
SHARED = ROOT.parent / "shared" / "data"


def shared_file(name: str) -> Path:
    """A file of ../shared/data; skips the test visibly when the folder is absent."""
    path = SHARED / name
    if not path.exists():
        pytest.skip(f"{path} not present (full public data sets live beside the repo)")
    return path


def data_file(full: str, vendored: str) -> Path:
    """The full shared file when present, else the vendored sample."""
    path = SHARED / full
    return path if path.exists() else VENDORED / vendored


def read_lines(path: Path) -> list[str]:
    return [line.strip() for line in path.read_text().splitlines() if line.strip()]


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(newline="") as f:
        return list(csv.DictReader(f))
