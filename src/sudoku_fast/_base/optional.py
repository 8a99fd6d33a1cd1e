"""The optional libraries (numpy, pyarrow, pandas, polars, dask): imported only when an
input of theirs arrives or a function that needs them is called, and when missing, an
error that says which extra installs them.

Inputs are recognised without importing anything (`_columns.frames.column_kind` looks
at the classes' modules first), so a missing library matters only to a caller who asked
for it.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["optional"]


def optional(*modules: str, needed_for: str, extra: str) -> tuple[Any, ...]:
    """The named modules, imported; ValueError "`needed_for` needs ...: pip install
    'sudoku_fast[extra]'" when one is not installed."""
    try:
        return tuple(importlib.import_module(name) for name in modules)
    except ImportError as err:
        missing = (err.name or modules[0]).partition(".")[0]
        raise ValueError(
            f"{needed_for} needs {missing}: pip install 'sudoku_fast[{extra}]'"
        ) from None
