"""Typed stubs for the compiled general N x N engine."""

from collections.abc import Sequence
from typing import Any, Final

from typing_extensions import disjoint_base

MAX_SIZE: Final[int]
BUDGET_EXHAUSTED: Final[int]
STOPPED: Final[int]
DEFAULT_RESTART_UNIT: Final[int]
MAX_DIGIT_SETS: Final[int]
__pyx_capi__: Final[dict[str, Any]]  # the C functions other compiled modules cimport

@disjoint_base
class Tables:
    """Peer and unit tables of one geometry; immutable once built, safe to share."""

    @property
    def size(self) -> int: ...
    @property
    def box_rows(self) -> int: ...
    @property
    def box_cols(self) -> int: ...
    @property
    def boxes_are_units(self) -> bool: ...
    def __new__(
        cls,
        size: int,
        box_rows: int,
        box_cols: int,
        units: Sequence[Sequence[int]] | None = None,
        peers: Sequence[Sequence[int]] | None = None,
        neighbours: Sequence[Sequence[int]] | None = None,
        sums: Sequence[tuple[Sequence[int], int]] | None = None,
        thermos: Sequence[Sequence[int]] | None = None,
    ) -> Tables: ...

def count_digit_sets(length: int, total: int, size: int) -> int: ...
def digit_sets(length: int, total: int, size: int, cap: int = ...) -> list[int] | None: ...
def tables_for(size: int, box_rows: int, box_cols: int) -> Tables: ...
def solve_range(
    tables: Tables,
    grids: Any,
    solutions: Any,
    counts: Any,
    guesses: Any,
    nodes: Any,
    nanos: Any | None,
    start: int,
    stop: int,
    limit: int,
    max_nodes: int = 0,
    stop_flag: Any | None = None,
    locked: bool = True,
    by_units: bool = True,
    restart_unit: int = ...,
    masks: Any | None = None,
    cpu_clock: bool = False,
) -> None: ...
