"""Typed stubs for the compiled technique solver."""

from typing import Any, Final

from typing_extensions import disjoint_base

from .._base.grid import Geometry
from .steps import Record

TECHNIQUES: Final[int]
SLOTS: Final[int]
CONTRADICTION: Final[int]
NO_MEMORY: Final[int]
STUCK: Final[int]

__pyx_capi__: Final[dict[str, Any]]  # the C functions other compiled modules cimport

@disjoint_base
class LogicTables:
    """The geometry of one grid size as flat C arrays; read-only, safe to share."""

    @property
    def geometry(self) -> Geometry: ...
    def __init__(self, geometry: Geometry) -> None: ...

def tables_for(geometry: Geometry) -> LogicTables: ...
def rate_range(
    tables: LogicTables,
    grids: Any,
    solutions: Any,
    counts: Any,
    start: int,
    stop: int,
    summary: Any = None,
) -> None: ...
def build_ratings(
    rating: type,
    out: list[Any],
    counts: Any,
    summary: Any,
    guesses: Any,
    nodes: Any,
    names: tuple[str, ...],
    levels: tuple[int, ...],
    level_names: tuple[str, ...],
    start: int,
    stop: int,
    scores: Any = None,
    score_names: tuple[str, ...] | None = None,
    score_slots: int = 0,
    score_ok: int = 0,
) -> list[int]: ...
def solve_steps(tables: LogicTables, values: Any, solution: Any) -> list[Record]: ...
def find_step(
    tables: LogicTables,
    values: Any,
    allowed: Any,
    solution: Any = None,
    max_level: int = 5,
    min_level: int = 1,
) -> Record | None: ...
def level_within_range(
    tables: LogicTables, grids: Any, max_level: int, levels: Any, start: int, stop: int
) -> None: ...
