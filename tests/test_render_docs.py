"""The Examples sections of the rendering and solving-path modules run as written."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "sudoku_fast.render",
    "sudoku_fast.walkthrough",
    "sudoku_fast._render.overlays",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0
