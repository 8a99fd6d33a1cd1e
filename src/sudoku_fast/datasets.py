"""The public puzzle sets embedded in the package (see data/README.md for provenance)."""

from __future__ import annotations

from importlib import resources

EMBEDDED_SETS = ("norvig_easy50", "norvig_top95", "norvig_hardest", "magictour_top1465")


def load_embedded(name: str) -> list[str]:
    """The puzzles of one embedded set, one canonical string each."""
    if name not in EMBEDDED_SETS:
        raise ValueError(f"unknown embedded set {name!r}; choose from {', '.join(EMBEDDED_SETS)}")
    text = resources.files("sudoku_fast").joinpath(f"data/{name}.txt").read_text("ascii")
    return [line.strip() for line in text.splitlines() if line.strip()]
