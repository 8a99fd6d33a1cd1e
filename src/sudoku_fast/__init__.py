"""sudoku_fast: a fast, trustworthy Sudoku engine.

>>> import sudoku_fast as sf
>>> p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
>>> sf.count_solutions(p)
1
>>> sf.is_solution(sf.solve(p), p)
True
"""

from ._version import __version__
from .batch import SearchLimitExceeded, count_many, solve_many
from .board import Board, load_board, save_board
from .generator import generate, generate_many
from .grid import Geometry, geometry_for, is_solution, parse, show
from .hints import candidates, hint
from .isa import EngineInfo, engine_info
from .logic import Hint
from .rating import Rating, rate, rate_many
from .render import Cage, CellLine, Pages, Region, Svg, render, render_book, render_path
from .se import score_level
from .solver import count_solutions, solve
from .stats import Stats, Summary, solve_stats
from .symmetry import (
    Transformation,
    apply_transformation,
    canonical,
    canonical_many,
    canonical_transform,
    random_transform,
    random_transform_many,
    random_transformation,
    transform,
)
from .walkthrough import SolvePath, SolveStep, solve_path

__all__ = [
    "Board",
    "Cage",
    "CellLine",
    "EngineInfo",
    "Geometry",
    "Hint",
    "Pages",
    "Rating",
    "Region",
    "SearchLimitExceeded",
    "SolvePath",
    "SolveStep",
    "Stats",
    "Summary",
    "Svg",
    "Transformation",
    "__version__",
    "apply_transformation",
    "candidates",
    "canonical",
    "canonical_many",
    "canonical_transform",
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
    "rate",
    "rate_many",
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
