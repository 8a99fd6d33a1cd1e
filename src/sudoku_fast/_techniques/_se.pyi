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
) -> None: ...
