"""sudoku_fast: a fast, trustworthy Sudoku engine.

>>> import sudoku_fast as sf
>>> p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
>>> sf.count_solutions(p)
1
>>> sf.is_solution(sf.solve(p), p)
True

The public API, re-exported from the modules that define it. The build of the engine is
chosen when the package is imported (so an impossible SUDOKU_FAST_ISA fails here, not
later); every other module loads when one of its names is first used.
"""

from __future__ import annotations

import importlib
import sys
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ._engine.isa import EngineInfo, engine_info
from ._version import __version__

if TYPE_CHECKING:
    from ._base.errors import ItemErrorsWarning
    from ._base.records import Hint
    from .board import Board, load_board, save_board
    from .generator import VariantPuzzle, generate, generate_many
    from .grid import Geometry, geometry_for, is_solution, parse, show
    from .hints import candidates, hint
    from .rating import Rating, rate, rate_many, score_level
    from .render import Cage, CellLine, Pages, Region, Svg, render, render_book, render_path
    from .solving import (
        SearchLimitExceeded,
        check_many,
        count_many,
        count_solutions,
        solve,
        solve_many,
    )
    from .stats import Stats, Summary, solve_stats
    from .symmetry import (
        Transformation,
        VariantForm,
        apply_transformation,
        canonical,
        canonical_many,
        canonical_transform,
        canonical_transform_many,
        canonical_variant,
        random_transform,
        random_transform_many,
        random_transformation,
        random_variant_transform,
        transform,
    )
    from .variants import Rules, read_fpuzzles, read_sudokupad
    from .walkthrough import SolvePath, SolveStep, solve_path

__all__ = [
    "Board",
    "Cage",
    "CellLine",
    "EngineInfo",
    "Geometry",
    "Hint",
    "ItemErrorsWarning",
    "Pages",
    "Rating",
    "Region",
    "Rules",
    "SearchLimitExceeded",
    "SolvePath",
    "SolveStep",
    "Stats",
    "Summary",
    "Svg",
    "Transformation",
    "VariantForm",
    "VariantPuzzle",
    "__version__",
    "apply_transformation",
    "candidates",
    "canonical",
    "canonical_many",
    "canonical_transform",
    "canonical_transform_many",
    "canonical_variant",
    "check_many",
    "count_many",
    "count_solutions",
    "engine_info",
    "generate",
    "generate_many",
    "geometry_for",
    "hint",
    "is_solution",
    "load_board",
    "parse",
    "random_transform",
    "random_transform_many",
    "random_transformation",
    "random_variant_transform",
    "rate",
    "rate_many",
    "read_fpuzzles",
    "read_sudokupad",
    "render",
    "render_book",
    "render_path",
    "save_board",
    "score_level",
    "show",
    "solve",
    "solve_many",
    "solve_path",
    "solve_stats",
    "transform",
]

# The module each public name is defined in (below the package), imported on first use.
_HOMES = {
    "Board": "board",
    "load_board": "board",
    "save_board": "board",
    "generate": "generator",
    "generate_many": "generator",
    "VariantPuzzle": "generator",
    "Geometry": "grid",
    "geometry_for": "grid",
    "is_solution": "grid",
    "parse": "grid",
    "show": "grid",
    "Hint": "hints",
    "ItemErrorsWarning": "solving",
    "candidates": "hints",
    "hint": "hints",
    "Rating": "rating",
    "rate": "rating",
    "rate_many": "rating",
    "score_level": "rating",
    "SearchLimitExceeded": "solving",
    "check_many": "solving",
    "count_many": "solving",
    "count_solutions": "solving",
    "solve": "solving",
    "solve_many": "solving",
    "Stats": "stats",
    "Summary": "stats",
    "solve_stats": "stats",
    "Cage": "render",
    "CellLine": "render",
    "Pages": "render",
    "Region": "render",
    "Svg": "render",
    "render": "render",
    "render_book": "render",
    "render_path": "render",
    "SolvePath": "walkthrough",
    "SolveStep": "walkthrough",
    "solve_path": "walkthrough",
    "Transformation": "symmetry",
    "VariantForm": "symmetry",
    "apply_transformation": "symmetry",
    "canonical": "symmetry",
    "canonical_many": "symmetry",
    "canonical_transform": "symmetry",
    "canonical_transform_many": "symmetry",
    "canonical_variant": "symmetry",
    "random_transform": "symmetry",
    "random_transform_many": "symmetry",
    "random_transformation": "symmetry",
    "random_variant_transform": "symmetry",
    "transform": "symmetry",
    "Rules": "variants",
    "read_fpuzzles": "variants",
    "read_sudokupad": "variants",
}
# The public modules `import sudoku_fast` made attributes before they loaded lazily.
_MODULES = frozenset(
    {
        "board",
        "generator",
        "grid",
        "hints",
        "rating",
        "solving",
        "stats",
        "symmetry",
        "variants",
        "walkthrough",
    }
)


def __getattr__(name: str) -> Any:
    """A public name, or a public module, loaded on first use."""
    home = _HOMES.get(name)
    if home is not None:
        value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    elif name in _MODULES:
        value = importlib.import_module(f"{__name__}.{name}")
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__) | _MODULES)


class _Package(ModuleType):
    """The package, whose `render` is the function `render`: also after its module
    `sudoku_fast.render` has loaded, which makes the module the package's attribute of
    that name (before the lazy loading, importing the function there undid that)."""

    @property
    def render(self) -> Any:
        value = self.__dict__.get("render")
        if value is None or isinstance(value, ModuleType):
            value = importlib.import_module(f"{__name__}.render").render
            self.__dict__["render"] = value
        return value

    @render.setter
    def render(self, value: Any) -> None:
        self.__dict__["render"] = value

    @render.deleter
    def render(self) -> None:
        self.__dict__.pop("render", None)


sys.modules[__name__].__class__ = _Package
