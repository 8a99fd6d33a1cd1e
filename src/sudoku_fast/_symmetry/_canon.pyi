"""Typed stubs for the compiled canonical forms and transformations (`_canon.pyx`)."""

from typing import Any

STATUS_OK: int
STATUS_REPEAT: int
STATUS_BUDGET: int
STATUS_MEMORY: int
MAX_SIZE: int

def move_size(size: int) -> int: ...
def canonical_range(
    grids: Any,
    size: int,
    box_rows: int,
    box_cols: int,
    out: Any,
    status: Any,
    moves: Any,
    start: int,
    stop: int,
    max_nodes: int = 0,
    stop_flag: Any | None = None,
) -> None: ...
def transform_range(
    grids: Any,
    size: int,
    moves: Any,
    out: Any,
    start: int,
    stop: int,
) -> None: ...
def random_transform_range(
    grids: Any,
    size: int,
    box_rows: int,
    box_cols: int,
    seeds: Any,
    out: Any,
    start: int,
    stop: int,
) -> None: ...
def pair_classes() -> int: ...
def pair_rank(f: Any) -> int: ...
def texts_range(
    values: Any,
    cells: int,
    symbols: Any,
    status: Any,
    out: list[str | None],
    start: int,
    stop: int,
) -> None: ...

FREEDOM_ALL: int
FREEDOM_REVERSE: int
FREEDOM_NONE: int

def smallest_images(
    values: Any, perms: Any, size: int, freedom: str
) -> tuple[bytes, list[int]]: ...
