"""Typed stubs for the compiled variant engine."""

from array import array
from typing import Any, Final

MAX_SIZE: Final[int]
LIMITS: Final[dict[str, int]]
BUDGET_EXHAUSTED: Final[int]
STOPPED: Final[int]

def solve_range(
    records: Any,
    starts: Any,
    grids: Any,
    solutions: Any,
    counts: Any,
    guesses: Any,
    nodes: Any,
    nanos: Any | None,
    start: int,
    stop: int,
    size: int,
    limit: int,
    max_nodes: int = 0,
    stop_flag: Any | None = None,
    cpu_clock: bool = False,
    claim: Any | None = None,
    share: int = 2,
    min_chunk: int = 4,
    max_chunk: int = 256,
    texts: tuple[Any, ...] | None = None,
    parsed: Any | None = None,
) -> int: ...
def index_rules(
    items: list[Any], kind: type
) -> tuple[dict[Any, Any], array[int], list[Any]] | None: ...
def gather_starts(at: Any, which: Any) -> array[int]: ...
