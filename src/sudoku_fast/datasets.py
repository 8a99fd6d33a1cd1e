"""The public puzzle sets embedded in the package (see data/README.md for provenance)."""

from __future__ import annotations

from importlib import resources

from ._base.options import EmbeddedSet

EMBEDDED_SETS: tuple[EmbeddedSet, ...] = (
    "norvig_easy50",
    "norvig_top95",
    "norvig_hardest",
    "magictour_top1465",
)


def load_embedded(name: EmbeddedSet) -> list[str]:
    """The puzzles of one embedded set, one canonical string each.

    Parameters
    ----------
    name : {"norvig_easy50", "norvig_top95", "norvig_hardest", "magictour_top1465"}
        The set (provenance in the package's `data/README.md`).

    Returns
    -------
    list of str
        The puzzles, 81 characters each.

    Raises
    ------
    ValueError
        An unknown set, naming the known ones.

    Examples
    --------
    >>> from sudoku_fast.datasets import load_embedded
    >>> len(load_embedded("norvig_top95")), len(load_embedded("magictour_top1465"))
    (95, 1465)
    """
    if name not in EMBEDDED_SETS:
        raise ValueError(f"unknown embedded set {name!r}; choose from {', '.join(EMBEDDED_SETS)}")
    text = resources.files("sudoku_fast").joinpath(f"data/{name}.txt").read_text("ascii")
    return [line.strip() for line in text.splitlines() if line.strip()]
