"""Typed stubs for the compiled SE-scale rater (`_se.pyx`)."""

from ._logic import LogicTables

TECHNIQUES: int
SLOTS: int

def se_range(
    tables: LogicTables,
    grids: bytes | bytearray | memoryview,
    solutions: bytes | bytearray | memoryview,
    out: object,
    start: int,
    stop: int,
    budget: int,
    nesting: int = 1,
) -> None: ...
def se_path(
    tables: LogicTables,
    grid: bytes | bytearray | memoryview,
    solution: bytes | bytearray | memoryview,
    budget: int,
    allowed: object = None,
    max_steps: int = -1,
    nesting: int = 1,
) -> tuple[
    int,
    int,
    int,
    int,
    list[
        tuple[
            int,
            int,
            bytes,
            tuple[int, ...],
            tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, int, int, int]] | None,
        ]
    ],
]: ...
def se_walk(
    tables: LogicTables,
    grid: bytes | bytearray | memoryview,
    allowed: object,
    cell: int,
    digit: int,
    on: bool,
    mode: int,
    budget: int,
) -> tuple[int, int, int, dict[int, int]]: ...
