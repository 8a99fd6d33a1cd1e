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
from .grid import Geometry, geometry_for, is_solution, parse, show
from .solver import count_solutions, solve

__all__ = [
    "Geometry",
    "SearchLimitExceeded",
    "__version__",
    "count_many",
    "count_solutions",
    "geometry_for",
    "is_solution",
    "parse",
    "show",
    "solve",
    "solve_many",
]
