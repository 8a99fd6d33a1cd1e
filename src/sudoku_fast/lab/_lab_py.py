"""The algorithm lab in plain Python: slow, obviously correct twins of `_lab.pyx`.

Each algorithm here makes the same choices in the same order as its compiled twin (the
same cell, the same value order, the same pseudo-random numbers), so the two report the
same solutions, counts, nodes and guesses; tests/test_lab.py compares them. Domains are
Python sets of values 1..N; propagation is written as "apply every rule until nothing
changes", which reaches the same fixpoint as the compiled queues.
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import product
from typing import Any

from .._base.grid import Geometry, geometry_for
from .._base.randomness import splitmix64

MASK64 = (1 << 64) - 1
CHECK_EVERY = 256

# Algorithm codes (as in _lab.pyx).
COMB, BACKTRACKING, FC, AC, AC_DUAL, AC_DUAL_NP, AC3, DLX = range(8)
# Variable orders, value orders.
VAR_FIRST, VAR_MINRV, VAR_MAXRV, VAR_RANDOM = range(4)
VAL_FIRST, VAL_MOST, VAL_LEAST, VAL_RANDOM = range(4)
# Statuses.
DONE, OUT_OF_NODES, OUT_OF_TIME = range(3)

Domains = list[set[int]]


class Random64:
    """SplitMix64 numbers, seeded per puzzle: the same sequence as the compiled side."""

    def __init__(self, seed: int, index: int) -> None:
        self.state = (seed ^ (index * 0xD1B54A32D192ED03)) & MASK64

    def next(self) -> int:
        """The next 64-bit number."""
        self.state, number = splitmix64(self.state)
        return number

    def below(self, n: int) -> int:
        """A number from 0 to n-1."""
        return self.next() % n

    def shuffle(self, items: list[int]) -> None:
        """Fisher-Yates, from the last item down."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


@dataclass
class Outcome:
    """What one solve found: the first solution, the count, the status and the figures."""

    solution: list[int] | None
    count: int
    status: int
    nodes: int
    guesses: int
    restarts: int = 0


FIRSTS_KEPT = 256  # distinct first solutions a restarting solve remembers


def luby(i: int) -> int:
    """Term i (from 1) of Luby's sequence: 1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 ..."""
    while True:
        k = 1
        while (1 << k) - 1 < i:
            k += 1
        if (1 << k) - 1 == i:
            return 1 << (k - 1)
        i -= (1 << (k - 1)) - 1


class _OutOfBudget(Exception):
    pass


class _Enough(Exception):
    pass


class _Solver:
    """One solve of one puzzle with one algorithm and its orders."""

    def __init__(
        self,
        geometry: Geometry,
        algorithm: int,
        var_order: int,
        value_order: int,
        limit: int,
        max_nodes: int,
        max_seconds: float,
        rng: Random64,
    ) -> None:
        self.g = geometry
        self.n = geometry.size
        self.values = set(range(1, geometry.size + 1))
        self.algorithm = algorithm
        self.var_order = var_order
        self.value_order = value_order
        self.limit = limit
        self.max_nodes = max_nodes
        self.max_seconds = max_seconds
        self.rng = rng
        self.started = time.perf_counter()
        self.nodes = 1
        self.guesses = 0
        self.solutions: list[list[int]] = []
        self.status = DONE

    # ------------------------------------------------------------ budget

    def spend_node(self, last: bool) -> None:
        """Count one node (a guess unless it is the last alternative), or give up."""
        if self.max_nodes and self.nodes >= self.max_nodes:
            self.status = OUT_OF_NODES
            raise _OutOfBudget
        if (
            self.nodes % CHECK_EVERY == 0
            and self.max_seconds
            and time.perf_counter() - self.started >= self.max_seconds
        ):
            self.status = OUT_OF_TIME
            raise _OutOfBudget
        self.nodes += 1
        if not last:
            self.guesses += 1

    def found(self, grid: list[int]) -> None:
        self.solutions.append(grid)
        if len(self.solutions) >= self.limit:
            raise _Enough

    # ------------------------------------------------------------ state

    def is_open(self, doms: Domains, assigned: list[bool], cell: int) -> bool:
        if self.algorithm == BACKTRACKING:
            return not doms[cell]
        if self.algorithm == FC:
            return not assigned[cell]
        return len(doms[cell]) > 1

    def domain(self, doms: Domains, cell: int) -> set[int]:
        if self.algorithm == BACKTRACKING and not doms[cell]:
            taken = set()
            for p in self.g.peers[cell]:
                taken |= doms[p]
            return self.values - taken
        return doms[cell]

    def pick_cell(self, doms: Domains, assigned: list[bool]) -> int:
        open_cells = [c for c in range(self.g.cells) if self.is_open(doms, assigned, c)]
        if not open_cells:
            return -1
        if self.var_order == VAR_RANDOM:
            return open_cells[self.rng.below(len(open_cells))]
        if self.var_order == VAR_FIRST:
            return open_cells[0]
        sizes = [len(self.domain(doms, c)) for c in open_cells]
        best = min(sizes) if self.var_order == VAR_MINRV else max(sizes)
        return open_cells[sizes.index(best)]

    def order_values(self, doms: Domains, assigned: list[bool], cell: int) -> list[int]:
        values = sorted(self.domain(doms, cell))
        if self.value_order == VAL_RANDOM:
            self.rng.shuffle(values)
        elif self.value_order in (VAL_MOST, VAL_LEAST):
            sign = -1 if self.value_order == VAL_MOST else 1

            def score(v: int) -> int:
                return sign * sum(
                    1
                    for p in self.g.peers[cell]
                    if self.is_open(doms, assigned, p) and v in self.domain(doms, p)
                )

            values.sort(key=score)
        return values

    # ------------------------------------------------------------ propagation

    def fixpoint(self, doms: Domains) -> bool:
        """Apply the algorithm's rules until nothing changes; False on contradiction."""
        level = self.algorithm
        while True:
            changed = False
            for cell in range(self.g.cells):
                if len(doms[cell]) == 1:
                    for p in self.g.peers[cell]:
                        if doms[cell] & doms[p]:
                            doms[p] = doms[p] - doms[cell]
                            changed = True
                            if not doms[p]:
                                return False
            if level >= AC_DUAL:
                for unit in self.g.units:
                    for v in self.values:
                        places = [c for c in unit if v in doms[c]]
                        if not places:
                            return False
                        if len(places) == 1 and len(doms[places[0]]) > 1:
                            doms[places[0]] = {v}
                            changed = True
            if level >= AC_DUAL_NP:
                for unit in self.g.units:
                    for a in unit:
                        for b in unit:
                            if a < b and len(doms[a]) == 2 and doms[a] == doms[b]:
                                for c in unit:
                                    if c not in (a, b) and doms[c] & doms[a]:
                                        doms[c] = doms[c] - doms[a]
                                        changed = True
                                        if not doms[c]:
                                            return False
            if not changed:
                return True

    def arc_consistency(self, doms: Domains, arcs: list[tuple[int, int]]) -> bool:
        """AC-3 from the given arcs: Di loses the value of a single-valued Dj."""
        queue = deque(arcs)
        waiting = set(arcs)
        while queue:
            i, j = queue.popleft()
            waiting.discard((i, j))
            if len(doms[j]) == 1 and doms[j] <= doms[i]:
                doms[i] = doms[i] - doms[j]
                if not doms[i]:
                    return False
                for k in self.g.peers[i]:
                    if k != j and (k, i) not in waiting:
                        waiting.add((k, i))
                        queue.append((k, i))
        return True

    def assign(self, doms: Domains, assigned: list[bool], cell: int, value: int) -> bool:
        doms[cell] = {value}
        if self.algorithm == BACKTRACKING:
            return True
        if self.algorithm == FC:
            assigned[cell] = True
            for p in self.g.peers[cell]:
                if not assigned[p] and value in doms[p]:
                    doms[p] = doms[p] - {value}
                    if not doms[p]:
                        return False
            return True
        if self.algorithm == AC3:
            return self.arc_consistency(doms, [(p, cell) for p in self.g.peers[cell]])
        return self.fixpoint(doms)

    def root(self, grid: bytes) -> tuple[Domains, list[bool]] | None:
        """The state after the clues, or None when they contradict."""
        cells = self.g.cells
        assigned = [False] * cells
        if self.algorithm == BACKTRACKING:
            doms: Domains = [set() for _ in range(cells)]
            for cell, v in enumerate(grid):
                if v:
                    if any(v in doms[p] for p in self.g.peers[cell]):
                        return None
                    doms[cell] = {v}
            return doms, assigned
        doms = [set(self.values) for _ in range(cells)]
        if self.algorithm == FC:
            for cell, v in enumerate(grid):
                if v and (v not in doms[cell] or not self.assign(doms, assigned, cell, v)):
                    return None
            return doms, assigned
        for cell, v in enumerate(grid):
            if v:
                doms[cell] = {v}
        if self.algorithm == AC3:
            arcs = [(i, j) for i in range(cells) for j in self.g.peers[i]]
            return (doms, assigned) if self.arc_consistency(doms, arcs) else None
        return (doms, assigned) if self.fixpoint(doms) else None

    # ------------------------------------------------------------ search

    def search(self, doms: Domains, assigned: list[bool]) -> None:
        cell = self.pick_cell(doms, assigned)
        if cell < 0:
            self.found([min(d) for d in doms])
            return
        values = self.order_values(doms, assigned, cell)
        for i, value in enumerate(values):
            self.spend_node(last=i == len(values) - 1)
            child = [set(d) for d in doms]
            child_assigned = list(assigned)
            if self.assign(child, child_assigned, cell, value):
                self.search(child, child_assigned)

    def comb(self, grid: bytes) -> None:
        """Generate and test: every filling of the empty cells, in odometer order."""
        empty = [c for c, v in enumerate(grid) if v == 0]
        for filling in product(range(1, self.n + 1), repeat=len(empty)):
            self.spend_node(last=False)
            trial = list(grid)
            for cell, v in zip(empty, filling, strict=True):
                trial[cell] = v
            if all({trial[c] for c in unit} == self.values for unit in self.g.units):
                self.found(trial)

    def dlx(self, grid: bytes) -> None:
        """Algorithm X on a dict of column -> rows; rows are cell * N + value - 1."""
        n, cells = self.n, self.g.cells
        row_unit = [[0, 0, 0] for _ in range(cells)]
        for u, unit in enumerate(self.g.units):
            for cell in unit:
                row_unit[cell][u // n] = u % n

        def columns_of(row: int) -> list[int]:
            cell, v = divmod(row, n)
            return [1 + cell] + [1 + cells * (k + 1) + row_unit[cell][k] * n + v for k in range(3)]

        rows = {row: columns_of(row) for row in range(cells * n)}
        table: dict[int, set[int]] = {col: set() for col in range(1, 4 * cells + 1)}
        for row, cols in rows.items():
            for col in cols:
                table[col].add(row)

        def select(row: int) -> list[set[int]]:
            removed = []
            for col in rows[row]:
                for other in table[col]:
                    for col2 in rows[other]:
                        if col2 != col:
                            table[col2].discard(other)
                removed.append(table.pop(col))
            return removed

        def deselect(row: int, removed: list[set[int]]) -> None:
            for col in reversed(rows[row]):
                table[col] = removed.pop()
                for other in table[col]:
                    for col2 in rows[other]:
                        if col2 != col:
                            table[col2].add(other)

        solution = list(grid)
        for cell, v in enumerate(grid):
            if v:
                row = cell * n + v - 1
                if any(col not in table for col in rows[row]):
                    return  # clashing clues
                select(row)
        chosen: list[int] = []

        def search() -> None:
            if not table:
                full = list(solution)
                for row in chosen:
                    full[row // n] = row % n + 1
                self.found(full)
                return
            active = sorted(table)
            if self.var_order == VAR_FIRST:
                col = active[0]
            elif self.var_order == VAR_RANDOM:
                col = active[self.rng.below(len(active))]
            elif self.var_order == VAR_MINRV:
                col = min(active, key=lambda c: len(table[c]))
            else:
                col = max(active, key=lambda c: len(table[c]))
            options = sorted(table[col])
            if not options:
                return
            if self.value_order == VAL_RANDOM:
                self.rng.shuffle(options)
            for i, row in enumerate(options):
                self.spend_node(last=i == len(options) - 1)
                chosen.append(row)
                removed = select(row)
                search()
                deselect(row, removed)
                chosen.pop()

        search()

    def run(self, grid: bytes) -> Outcome:
        try:
            with _recursion_room(RECURSION_PER_CELL * self.g.cells):
                if self.algorithm == COMB:
                    self.comb(grid)
                elif self.algorithm == DLX:
                    self.dlx(grid)
                else:
                    state = self.root(grid)
                    if state is not None:
                        self.search(*state)
        except (_OutOfBudget, _Enough):
            pass
        except RecursionError:
            raise ValueError(
                f"the Python reference recurses once per cell and cannot go "
                f"{self.g.cells} levels deep on this Python; use the compiled implementation"
            ) from None
        first = self.solutions[0] if self.solutions else None
        return Outcome(first, len(self.solutions), self.status, self.nodes, self.guesses)


# The searches recurse once per level, at most one level per cell (a few frames each):
# a 64x64 grid goes 4096 levels deep, past Python's default limit of 1000 frames.
RECURSION_PER_CELL = 4


@contextlib.contextmanager
def _recursion_room(frames: int) -> Iterator[None]:
    """Let the calls inside go `frames` deeper than here (Python 3.11+ keeps Python frames
    off the C stack, so a deeper limit costs only memory)."""
    before = sys.getrecursionlimit()
    if sys.version_info < (3, 11):  # Python frames on the C stack: keep the limit
        yield
        return
    wanted = before + frames  # the caller's own depth is below `before`
    sys.setrecursionlimit(wanted)
    try:
        yield
    finally:
        if sys.getrecursionlimit() == wanted:  # unless another caller changed it since
            sys.setrecursionlimit(before)


def solve_values(
    geometry: Geometry,
    grid: bytes,
    algorithm: int,
    var_order: int,
    value_order: int,
    limit: int,
    max_nodes: int = 0,
    max_seconds: float = 0.0,
    seed: int = 0,
    index: int = 0,
    restart_after: int = 0,
) -> Outcome:
    """Solve one grid of values (0 = empty) as `_lab.solve_range` does for puzzle `index`.

    With `restart_after`, in runs that restart as `_lab.solve_restarting` describes:
    run k may take restart_after * luby(k) nodes, `max_nodes` (0 = none) and
    `max_seconds` bound all runs together, and the random numbers go on from run to run.
    """
    rng = Random64(seed, index)
    if not restart_after:
        solver = _Solver(
            geometry, algorithm, var_order, value_order, limit, max_nodes, max_seconds, rng
        )
        return solver.run(grid)
    started = time.perf_counter()
    nodes = guesses = best = run = 0
    firsts: list[list[int]] = []  # distinct first solutions of the runs cut short
    while True:
        run += 1
        term = luby(run)
        cutoff, final = restart_after * term, False
        if restart_after > (1 << 62) // term:  # as the compiled side: no cutoff then
            cutoff, final = 0, True
        if max_nodes and (final or max_nodes - nodes <= cutoff):
            cutoff, final = max_nodes - nodes, True
        seconds = 0.0
        if max_seconds:
            seconds = max(max_seconds - (time.perf_counter() - started), 1e-9)
        solver = _Solver(geometry, algorithm, var_order, value_order, limit, cutoff, seconds, rng)
        outcome = solver.run(grid)
        nodes += outcome.nodes
        guesses += outcome.guesses
        count, status = outcome.count, outcome.status
        if status == OUT_OF_NODES and not final:
            best = max(best, count)
            found = outcome.solution
            if found is not None and len(firsts) < FIRSTS_KEPT and found not in firsts:
                firsts.append(found)
            if len(firsts) >= limit:  # a cut run found fewer than `limit` itself
                count, status = limit, DONE
                break
            continue
        if status != DONE:  # out of nodes or time: keep what is known
            count = max(count, best, len(firsts))
        break
    # The first solution found: that of the earliest run cut short with one, if any.
    first = firsts[0] if firsts else outcome.solution
    return Outcome(first, count, status, nodes, guesses, run - 1)


def random_values(
    geometry: Geometry,
    clues: int,
    distinct: int,
    seed: int,
    index: int,
    max_restarts: int = 2**31 - 1,
) -> tuple[bytes, int]:
    """Random puzzle `index` by the essay's recipe, as `_lab.random_range` makes it.

    Returns its values (0 = empty) and the number of restarts; all zeros and -1 when
    it is given up after `max_restarts` restarts.
    """
    rng = Random64(seed, index)
    solver = _Solver(geometry, AC_DUAL, VAR_FIRST, VAL_FIRST, 1, 0, 0.0, rng)
    all_values = set(range(1, geometry.size + 1))
    restarts = 0
    while True:
        doms: Domains = [set(all_values) for _ in range(geometry.cells)]
        order = list(range(geometry.cells))
        rng.shuffle(order)
        for cell in order:
            if len(doms[cell]) > 1:
                value = sorted(doms[cell])[rng.below(len(doms[cell]))]
                doms[cell] = {value}
                if not solver.fixpoint(doms):
                    break
            singles = [min(d) for d in doms if len(d) == 1]
            if len(singles) >= clues and len(set(singles)) >= distinct:
                return bytes(min(d) if len(d) == 1 else 0 for d in doms), restarts
        if restarts == max_restarts:
            return bytes(geometry.cells), -1
        restarts += 1


# ---------------------------------------------------------------------------------------
# The compiled module's functions, the same arguments and results (see `_lab.pyi`)

STATUS_DONE = DONE
STATUS_OUT_OF_NODES = OUT_OF_NODES
STATUS_OUT_OF_TIME = OUT_OF_TIME
STATUS_STOPPED = 3
STATUS_NO_MEMORY = 4


class Tables:
    """The geometry the functions below work on: built from a size with its peers and
    units, as the compiled side's tables are."""

    def __init__(self, size: int, peers: Any, units: Any) -> None:
        self.size = size
        self.geometry = geometry_for(size, _box_of(size, units))


def _box_of(size: int, units: Any) -> tuple[int, int]:
    """The box shape of a geometry from its units (the box units come last)."""
    box = sorted(units[2 * size])
    cols = sum(1 for cell in box if cell // size == box[0] // size)
    return size // cols, cols


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
) -> None:
    """Solve puzzles start..stop-1 one by one, as `_lab.solve_range` does."""
    geometry = tables.geometry
    cells = geometry.cells
    view = memoryview(grids).cast("B")
    for i in range(start, stop):
        if stop_flag is not None and stop_flag[0]:
            statuses[i] = STATUS_STOPPED
            continue
        began = time.thread_time_ns()
        outcome = solve_values(
            geometry,
            bytes(view[i * cells : (i + 1) * cells]),
            algorithm,
            var_order,
            value_order,
            limit,
            max_nodes,
            max_nanos / 1e9,
            seed,
            i,
            restart_after,
        )
        nanos[i] = time.thread_time_ns() - began
        counts[i] = outcome.count
        statuses[i] = outcome.status
        nodes[i] = outcome.nodes
        guesses[i] = outcome.guesses
        if restarts is not None:
            restarts[i] = outcome.restarts
        if outcome.solution is not None:
            solutions[i * cells : (i + 1) * cells] = bytes(outcome.solution)


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
) -> None:
    """Random puzzles start..stop-1 by the essay's recipe, as `_lab.random_range` makes them."""
    geometry = tables.geometry
    cells = geometry.cells
    for i in range(start, stop):
        if stop_flag is not None and stop_flag[0]:
            return
        values, restarts[i] = random_values(geometry, clues, distinct, seed, i, max_restarts)
        out[i * cells : (i + 1) * cells] = values
