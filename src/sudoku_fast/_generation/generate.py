"""Generation on the compiled generator: a range of puzzles per GIL-released call, fanned
out over the package's thread pool, one puzzle per 64-bit seed.

The steps are described in `sudoku_fast.generator`; `_generate.pyx` takes them in C,
its twin `_generate_py.py` in plain Python.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .._base.grid import Geometry, format_values
from .._base.levels import LEVEL_NAMES
from .._engine.isa import load
from .._engine.run import general_tables, shared_buffers
from .._parallel.fanout import run_chunks
from .._parallel.threads import resolve_threads
from .._techniques.solver import logic_tables

if TYPE_CHECKING:
    from . import _generate
else:  # the build of the variant the dispatch chose: it calls that build of the engine
    _generate = load("_generation._generate")

__all__ = [
    "CHECK_NODES",
    "EARLY_MAX_LEVEL",
    "FILL_NODES",
    "MAX_ATTEMPTS",
    "ORDERS_PER_GRID",
    "SYMMETRIES",
    "generate_seeds",
    "symmetry_orbits",
]

SYMMETRIES = (
    "none",
    "rotational",  # 180-degree turn; also accepted as "rot180"
    "rot90",  # quarter turn
    "mirror",  # left-right mirror image
    "flip",  # top-bottom mirror image
    "diagonal",  # about the main diagonal
    "antidiagonal",
    "dihedral",  # all eight symmetries of the square
)

# Search-node budgets. Completing a 16x16 grid from its diagonal boxes takes about 120
# branches, now and then far more (a heavy tail a fresh start cuts short); the
# costliest uniqueness checks of near-minimal 16x16 puzzles take about 47,000 nodes of
# the general engine (measured on 20 puzzles, seed 1).
FILL_NODES = 20_000
CHECK_NODES = 1_000_000
# Puzzles per compiled call: a 9x9 puzzle takes 0.2-3 ms, so a few per chunk keep the
# per-call overhead negligible and the threads' finish even; bigger grids go one by one.
MAX_CHUNK_9X9 = 8
# Aiming at a level (see bench/README.md for the measurements): each full grid serves
# ORDERS_PER_GRID removal orders, and for levels up to EARLY_MAX_LEVEL a minimal
# puzzle's partial form is rated once a third of the cells or fewer are clues, and
# given up if it is already too hard. Above that level too-hard puzzles are rare and
# the extra rating costs more than it saves.
ORDERS_PER_GRID = 4
EARLY_MAX_LEVEL = 3
# Removal orders tried per puzzle before giving up (RuntimeError): a rare level, or one
# a symmetry makes rare, must still end.
MAX_ATTEMPTS = 100_000


def symmetry_orbits(symmetry: str | None, geo: Geometry) -> list[tuple[int, ...]]:
    """The cells grouped into orbits of the symmetry (singletons for None / "none")."""
    if symmetry is not None and not isinstance(symmetry, str):
        raise TypeError(f"symmetry must be a str or None, not {type(symmetry).__name__}")
    name = "none" if symmetry is None else symmetry.strip().lower()
    if name == "rot180":
        name = "rotational"
    if name not in SYMMETRIES:
        raise ValueError(f"unknown symmetry {symmetry!r}; choose from {', '.join(SYMMETRIES)}")
    n = geo.size
    last = n - 1

    def image(r: int, c: int, k: int) -> tuple[int, int]:
        """The k-th element of the dihedral group acting on (r, c); 0 is the identity."""
        if k >= 4:
            r, c = c, r  # reflect in the main diagonal, then rotate
            k -= 4
        for _ in range(k):
            r, c = c, last - r  # a quarter turn
        return r, c

    # Elements of the group, as numbered by `image`: quarter turns 1-3, reflections 4-7
    # (4: main diagonal, 5: left-right, 6: antidiagonal, 7: top-bottom).
    group = {
        "none": (),
        "rotational": (2,),
        "rot90": (1, 2, 3),
        "mirror": (5,),
        "flip": (7,),
        "diagonal": (4,),
        "antidiagonal": (6,),
        "dihedral": (1, 2, 3, 4, 5, 6, 7),
    }[name]
    seen: set[int] = set()
    orbits = []
    for cell in range(geo.cells):
        if cell in seen:
            continue
        r, c = divmod(cell, n)
        orbit = {cell} | {rr * n + cc for rr, cc in (image(r, c, k) for k in group)}
        seen |= orbit
        orbits.append(tuple(sorted(orbit)))
    return orbits


def _gave_up(geo: Geometry, level: int | None, symmetry: str | None, index: int) -> RuntimeError:
    """The error of a batch whose puzzle `index` was given up on."""
    what = f"{geo.size}x{geo.size}" + (f" {LEVEL_NAMES[level]}" if level is not None else "")
    return RuntimeError(
        f"puzzle {index}: no {what} puzzle with symmetry {symmetry!r} found in "
        f"{MAX_ATTEMPTS} attempts"
    )


def generate_seeds(
    seeds: list[int],
    level: int | None,
    geo: Geometry,
    orbits: list[tuple[int, ...]],
    minimal: bool,
    symmetry: str | None,
    threads: int | None,
    first: int | Sequence[int] = 0,
) -> list[str]:
    """The compiled path of `generate_many`: one puzzle per 64-bit seed (puzzle `first`
    of the caller's batch and on, as errors name them)."""
    n = len(seeds)
    workers = resolve_threads(threads)
    orbit_start = array("i", [0])
    orbit_cells = array("i")
    for orbit in orbits:
        orbit_cells.extend(orbit)
        orbit_start.append(len(orbit_cells))
    seed_words = array("Q", seeds)
    out = bytearray(n * geo.cells)
    tables = general_tables(geo)
    logic_tables_ = logic_tables(geo) if level is not None else None
    stop_flag = bytearray(1)  # set when another thread fails: the others stop early
    # Read at call time, so tests can shrink the budgets.
    fill_nodes, check_nodes, max_attempts = FILL_NODES, CHECK_NODES, MAX_ATTEMPTS
    early = level is not None and level <= EARLY_MAX_LEVEL and minimal
    gave_up: list[int] = []

    views = shared_buffers(workers, orbit_start, orbit_cells, seed_words, out, stop_flag)
    orbit_start_v, orbit_cells_v, seed_words_v, out_v, stop_v = views

    def make(start: int, stop: int) -> None:
        index = _generate.generate_range(
            tables,
            logic_tables_,
            orbit_start_v,
            orbit_cells_v,
            seed_words_v,
            start,
            stop,
            out_v,
            level or 0,
            minimal,
            fill_nodes,
            check_nodes,
            ORDERS_PER_GRID,
            geo.cells // 3 if early else 0,
            max_attempts,
            stop_v,
        )
        if index >= 0:
            gave_up.append(index)
            stop_flag[0] = 1

    def abort() -> None:
        stop_flag[0] = 1

    max_chunk = MAX_CHUNK_9X9 if geo.size <= 9 else 1
    run_chunks(n, workers, 1, make, on_abort=abort, max_chunk=max_chunk)
    if gave_up:  # with threads, one that gave up (the others stopped early)
        index = min(gave_up)
        raise _gave_up(
            geo, level, symmetry, first + index if isinstance(first, int) else first[index]
        )
    cells = geo.cells
    return [format_values(out[i * cells : (i + 1) * cells], geo) for i in range(n)]
