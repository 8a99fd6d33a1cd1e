"""Typed stubs for the compiled algorithm lab."""

from typing import Any, Final

from typing_extensions import disjoint_base

STATUS_DONE: Final[int]
STATUS_OUT_OF_NODES: Final[int]
STATUS_OUT_OF_TIME: Final[int]
STATUS_STOPPED: Final[int]
STATUS_NO_MEMORY: Final[int]

@disjoint_base
class Tables:
    """Peers and units of one geometry as C arrays; immutable once built, safe to share."""

    @property
    def size(self) -> int: ...
    def __new__(cls, size: int, peers: Any, units: Any) -> Tables: ...

def solve_range(
    tables: Tables,
    grids: Any,
    solutions: Any,
    counts: Any,
    statuses: Any,
    nodes: Any,
    guesses: Any,
    nanos: Any,
    start: int,
    stop: int,
    algorithm: int,
    var_order: int,
    value_order: int,
    limit: int,
    max_nodes: int,
    max_nanos: int,
    seed: int,
    stop_flag: Any | None = None,
    restart_after: int = 0,
    restarts: Any | None = None,
) -> None: ...
def random_range(
    tables: Tables,
    clues: int,
    distinct: int,
    seed: int,
    out: Any,
    restarts: Any,
    start: int,
    stop: int,
    max_restarts: int = 2147483647,
    stop_flag: Any | None = None,
) -> None: ...
