"""Typed stubs for the compiled generator (`_generate.pyx`)."""

from typing import Final

from typing_extensions import Buffer

from .._engine._general import Tables
from .._techniques._logic import LogicTables

STAT_NAMES: Final[tuple[str, ...]]

def generate_range(
    tables: Tables,
    logic_tables: LogicTables | None,
    orbit_start: Buffer,
    orbit_cells: Buffer,
    seeds: Buffer,
    start: int,
    stop: int,
    out: Buffer,
    level: int = 0,
    minimal: bool = True,
    fill_nodes: int = 20000,
    check_nodes: int = 1000000,
    orders_per_grid: int = 1,
    early_clues: int = 0,
    max_attempts: int = 1000000,
    stop_flag: Buffer | None = None,
    stats: Buffer | None = None,
) -> int:
    """Generate puzzles start..stop-1 into `out` (N*N values 0..N each), without the GIL.

    orbit_start, orbit_cells: int32 (orbit k is orbit_cells[orbit_start[k]:orbit_start[k+1]]);
    seeds: uint64, one per puzzle; out: writable uint8; stop_flag: one byte; stats:
    writable int64, len(STAT_NAMES) slots of totals. Returns -1, or the index of the
    first puzzle given up after `max_attempts` removal orders.
    """

def draws(seed: int, bounds: Buffer) -> list[int]:
    """below(k) for each k of `bounds` (int32) in turn, from the generator of `seed`."""
