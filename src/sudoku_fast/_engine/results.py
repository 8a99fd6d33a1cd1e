"""What an engine run gives back: solutions, counts and search figures, in input order."""

from __future__ import annotations

from array import array
from collections.abc import Callable
from dataclasses import dataclass

from .._base.grid import CLASSIC, Geometry
from .isa import core as _core  # the build of the 9x9 engine chosen for this CPU

__all__ = ["EngineResults"]


@dataclass
class EngineResults:
    """Raw engine output for a batch of n puzzles, in input order.

    `solutions` holds n grids of 81 bytes (digits 1-9; all zero where no solution was
    found); `counts[i]` is the number of solutions found for puzzle i, capped at the
    limit; `guesses[i]` (branch trials made while other candidates were still open) and
    `nodes[i]` (search-tree size, the root included) are its search figures;
    `nanos[i]` its solving time in nanoseconds when timing was asked for; `texts` the
    solution strings when a 9x9 run was asked to decode them as it goes.
    """

    n: int
    solutions: bytearray
    counts: array[int]
    guesses: array[int]
    nodes: array[int]
    nanos: array[int] | None
    threads: int
    geometry: Geometry = CLASSIC
    texts: list[str | None] | None = None
    on_core: bool = True  # solved by the 9x9 engine (no node budget there)

    @classmethod
    def unfilled(
        cls, n: int, geometry: Geometry, *, timed: bool = False, on_core: bool = True
    ) -> EngineResults:
        """Buffers for n puzzles of `geometry` left uninitialised, for an engine that
        writes every item of them (the variant engine's `solve_range`): zero-filling
        them would touch every page on the caller's thread, a serial cost of the whole
        batch; left alone, their pages are first touched by the worker threads."""
        return cls._made(n, geometry, timed, on_core, _core.new_buffer, _core.new_array)

    @classmethod
    def zeroed(
        cls, n: int, geometry: Geometry, *, timed: bool = False, on_core: bool = True
    ) -> EngineResults:
        """Buffers for n puzzles of `geometry`, all zero, for an engine to fill in;
        `nanos` only when `timed`."""
        return cls._made(n, geometry, timed, on_core, bytearray, _zero_array)

    @classmethod
    def _made(
        cls,
        n: int,
        geometry: Geometry,
        timed: bool,
        on_core: bool,
        new_buffer: Callable[[int], bytearray],
        new_array: Callable[[str, int], array[int]],
    ) -> EngineResults:
        return cls(
            n=n,
            solutions=new_buffer(n * geometry.cells),
            counts=new_array("i", n),
            guesses=new_array("q", n),
            nodes=new_array("q", n),
            nanos=new_array("q", n) if timed else None,
            threads=1,
            geometry=geometry,
            on_core=on_core,
        )


def _zero_array(typecode: str, n: int) -> array[int]:
    return array(typecode, bytes(array(typecode).itemsize * n))
