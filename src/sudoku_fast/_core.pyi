"""Typed stubs for the compiled 9x9 engine."""

from typing import Any

def solve_range(
    grids: Any,
    solutions: Any,
    counts: Any,
    guesses: Any,
    nodes: Any,
    nanos: Any | None,
    start: int,
    stop: int,
    limit: int,
) -> None: ...
def encode_strings(items: list[Any], out: Any) -> list[int]: ...
def decode_solutions(solutions: Any, counts: Any) -> list[str | None]: ...
