# cython: language_level=3
# Every other directive is set once for all modules in setup.py.
"""The general engine: N x N grids (N up to 64, boxes of any rows x cols shape).

It works like the 9x9 engine, with 64-bit candidate masks (bit v-1 set = value v still
possible), plus a counter per (unit, value) of the places left for that value in that
row, column or box. Placing a value removes it from the peers of its cell (naked
singles cascade through a queue); a counter that drops to one marks a hidden single, to
zero a contradiction, so hidden singles cost nothing until they happen. When singles
are exhausted, locked candidates (a value confined to one line of a box leaves the rest
of the line, and the other way round) prune further; on big grids they shrink the
search tree several times over.

Search branches on the option with the fewest alternatives: the unfilled cell with the
fewest candidates (MinRV), or, when that cell has more than two, a value with fewer
places left in some unit. Each alternative is tried on a copy of the state, on an
explicit heap-allocated stack (no recursion).

Sparse big grids are heavy-tailed: one early wrong choice can lead into a huge subtree
with no solution, and which choice that is changes chaotically with the propagation
used. So while no solution has been found, the search restarts from the root after a
growing number of nodes (the Luby sequence 1 1 2 1 1 2 4 ... times `restart_unit`).
Runs alternate with and without locked candidates; the first two keep the plain order
(first cell, lowest value), later ones break ties and order values at random from a
fixed seed, so results are reproducible. Once a solution is found the current run goes
on to the end, so solution counts stay exact, and a puzzle with no solution still ends
with one complete run, the cutoffs growing without bound. (Measured on the shared data
sets and on empty grids up to 49x49: without restarts, a sparse 25x25 puzzle ran past
5,000,000 nodes and the empty 49x49 grid past 300,000; with them none needs more than
about 170,000.)

Tables (peers and units) are built once per (size, box_rows, box_cols) by `tables_for`
and are read-only afterwards, so any number of threads may solve with them at once.
Variant rules build their own (`Tables(size, rows, cols, units, peers, neighbours)`,
see `_engine/ruled.py`): any list of N-cell units replaces rows, columns and boxes (a
cell may be in up to 16), extra peers per cell (anti-knight, anti-king, partial sets)
join those the units give, and with `neighbours` a placed value also removes the values
next to it from the cell's orthogonal neighbours (non-consecutive). Locked candidates
need the boxes and lines to be units and are left out otherwise (a jigsaw). Killer
cages with a sum and thermometers propagate once the other rules are at a fixed point.
A cage whose sum leaves at most MAX_DIGIT_SETS sets of different digits has them listed
(combination logic): a set stays possible while it lies within the cage's candidates,
holds every digit placed in it and meets every cell; the cells keep the digits of the
possible sets; a digit in all of them goes to its one place left in the cage, or
leaves the rest of a unit holding all its places (a cage with one empty cell so gets
the digit its sum lacks). Each cell's candidates when a cage was last found at rest
are kept per workspace, so an unchanged cage costs one compare per cell. A cage with
more sets keeps bounds: a cell keeps only the values that the smallest and largest
sums its other cells can still make leave room for (its cells are peers, so they
differ). Along a thermometer each cell's smallest value exceeds the one before and its
largest stays below the one after. Classic tables are the same code with three units
per cell and no neighbours, cages or thermometers.
Each `solve_range` call owns its workspace; nothing else is shared or mutable.

Memory: a search keeps one state per level of the stack: N*N*8 bytes of candidates and
3*N*N bytes of counters. The stack starts at 16 levels and doubles on demand; its
depth never exceeds the number of cells left open after the first propagation, plus
one. So one call needs at most (N*N + 1) * 11 * N*N bytes (4.3 MB for 25x25, 64 MB
for 49x49), and only as many levels as the search actually goes deep.

Responsiveness: every 256 nodes the search reads an optional stop flag (set by another
thread to abandon the batch) and, in the main thread, lets Python run its signal
handlers, so Ctrl-C interrupts even one long puzzle. An optional node budget
(`max_nodes`) bounds the work per puzzle; running out is reported as a distinct status,
never as a count.
"""

cimport cython
from libc.stdint cimport int16_t, int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memcpy, memset

from sudoku_fast._base.clock cimport clock_nanos, elapsed, measurement_overhead
from sudoku_fast._base.stop cimport Stop, flag_set, poll, raise_saved, stop_init

import threading

cdef extern from *:
    """
    /* Portable bit helpers: compiler builtins where they map to one instruction,
       plain C elsewhere (the wheel must run on every CPU of its platform). */
    #include <stdint.h>
    #if defined(_MSC_VER)
    #include <intrin.h>
    static __inline int sfg_lowest_index(uint64_t x) {
        unsigned long i;
        if (_BitScanForward(&i, (unsigned long)(x & 0xFFFFFFFFu))) return (int)i;
        _BitScanForward(&i, (unsigned long)(x >> 32));
        return (int)i + 32;
    }
    #else
    #define sfg_lowest_index(x) __builtin_ctzll(x)
    #endif
    #if defined(_MSC_VER)
    static __inline int sfg_highest_index(uint64_t x) {
        unsigned long i;
        if (_BitScanReverse(&i, (unsigned long)(x >> 32))) return (int)i + 32;
        _BitScanReverse(&i, (unsigned long)(x & 0xFFFFFFFFu));
        return (int)i;
    }
    #else
    #define sfg_highest_index(x) (63 - __builtin_clzll(x))
    #endif
    #if !defined(_MSC_VER) && (defined(__POPCNT__) || defined(__aarch64__))
    #define sfg_popcount(x) __builtin_popcountll(x)
    #else
    static inline int sfg_popcount(uint64_t x) {
        x = x - ((x >> 1) & 0x5555555555555555ULL);
        x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
        x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
        return (int)((x * 0x0101010101010101ULL) >> 56);
    }
    #endif
    """
    int sfg_lowest_index(uint64_t x) nogil
    int sfg_highest_index(uint64_t x) nogil
    int sfg_popcount(uint64_t x) nogil

cdef enum:
    # Values written to counts[i] when puzzle i got no definite answer.
    COUNT_EXHAUSTED = -1
    COUNT_STOPPED = -2

MAX_SIZE = 64
BUDGET_EXHAUSTED = COUNT_EXHAUSTED
STOPPED = COUNT_STOPPED
DEFAULT_RESTART_UNIT = 20000

cdef enum:
    CHECK_EVERY = 256  # nodes between looks at the stop flag and at signals
    FIRST_LEVELS = 16  # initial stack depth; doubled on demand
    PLACED_MARK = 128  # place counter of a value placed in the unit (> 63 + 1)
    MAX_UNITS_PER_CELL = 16  # units a rule set may put one cell in

# Status, Geo, Workspace, Control, Outcome and the attributes of Tables are declared in
# _general.pxd, so that the generator can run this engine's search from C.


@cython.auto_pickle(False)
cdef class Tables:
    """Peer and unit tables of one geometry; immutable once built, safe to share."""

    def __cinit__(
        self,
        int size,
        int box_rows,
        int box_cols,
        units=None,
        peers=None,
        neighbours=None,
        sums=None,
        thermos=None,
    ):
        if box_rows < 1 or box_cols < 1 or box_rows * box_cols != size:
            raise ValueError(f"box {box_rows}x{box_cols} does not tile a {size}x{size} grid")
        if size > MAX_SIZE:
            raise ValueError(f"size {size} is above the largest supported size {MAX_SIZE}")
        self.size = size
        self.box_rows = box_rows
        self.box_cols = box_cols
        self.neighbours = NULL
        memset(&self.geo, 0, sizeof(Geo))  # no cages, no thermometers unless given
        if units is not None:
            self._init_rules(units, peers, neighbours)
            self._init_bounds(sums, thermos)
            return
        if peers is not None or neighbours is not None or sums is not None or thermos is not None:
            raise ValueError("peers, neighbours, sums and thermometers come with units")
        cdef int cells = size * size
        cdef int peer_count = 2 * (size - 1) + (size - box_rows - box_cols + 1)
        self.peers = <int16_t *>malloc(cells * peer_count * sizeof(int16_t))
        self.unit_cells = <int16_t *>malloc(3 * size * size * sizeof(int16_t))
        self.cell_units = <int16_t *>malloc(3 * cells * sizeof(int16_t))
        if self.peers == NULL or self.unit_cells == NULL or self.cell_units == NULL:
            raise MemoryError()
        cdef int r, c, b, k, cell, other, n
        for r in range(size):
            for c in range(size):
                cell = r * size + c
                # Boxes are numbered row-major; a band of box_rows rows holds box_rows boxes.
                b = (r // box_rows) * box_rows + c // box_cols
                k = (r % box_rows) * box_cols + c % box_cols
                self.unit_cells[r * size + c] = <int16_t>cell
                self.unit_cells[(size + c) * size + r] = <int16_t>cell
                self.unit_cells[(2 * size + b) * size + k] = <int16_t>cell
                self.cell_units[3 * cell] = <int16_t>r
                self.cell_units[3 * cell + 1] = <int16_t>(size + c)
                self.cell_units[3 * cell + 2] = <int16_t>(2 * size + b)
        for cell in range(cells):
            n = 0
            for other in range(cells):
                if other != cell and (
                    other // size == cell // size
                    or other % size == cell % size
                    or (
                        (other // size) // box_rows == (cell // size) // box_rows
                        and (other % size) // box_cols == (cell % size) // box_cols
                    )
                ):
                    self.peers[cell * peer_count + n] = <int16_t>other
                    n += 1
            if n != peer_count:
                raise AssertionError("peer count mismatch")
        self.geo.size = size
        self.geo.cells = cells
        self.geo.units = 3 * size
        self.geo.peer_count = peer_count
        self.geo.box_rows = box_rows
        self.geo.box_cols = box_cols
        self.geo.units_per_cell = 3
        self.geo.boxes_are_units = True
        self.geo.peers = self.peers
        self.geo.unit_cells = self.unit_cells
        self.geo.cell_units = self.cell_units
        self.geo.neighbours = NULL
        self.geo.full = (<uint64_t>1 << size) - 1 if size < 64 else ~(<uint64_t>0)

    def _init_rules(self, units, peers, neighbours):
        """Tables of a rule set (see `rules_tables`); the Python lists are read once."""
        cdef int size = self.size, cells = size * size, k, cell
        unit_list = [tuple(int(c) for c in unit) for unit in units]
        for unit in unit_list:
            if len(unit) != size or len(set(unit)) != size or not all(
                0 <= c < cells for c in unit
            ):
                raise ValueError(f"a unit must hold {size} different cells of the grid")
        of_cell = [[] for _ in range(cells)]
        for k, unit in enumerate(unit_list):
            for cell in unit:
                of_cell[cell].append(k)
        per_cell = max(len(found) for found in of_cell)
        if per_cell > MAX_UNITS_PER_CELL:
            raise ValueError(f"a cell is in {per_cell} units, more than {MAX_UNITS_PER_CELL}")
        if per_cell == 3 and min(len(found) for found in of_cell) < 3:
            per_cell = 4  # 3 promises every cell three units (the unrolled loops)
        if peers is None:
            peer_lists = [
                sorted({c for k in of_cell[cell] for c in unit_list[k]} - {cell})
                for cell in range(cells)
            ]
        else:
            peer_lists = [sorted({int(c) for c in found} - {cell}) for cell, found in enumerate(peers)]
            if len(peer_lists) != cells:
                raise ValueError(f"peers: {len(peer_lists)} lists for {cells} cells")
            for cell in range(cells):
                # Every unit makes its cells peers, whatever the list says.
                together = {c for k in of_cell[cell] for c in unit_list[k]}
                peer_lists[cell] = sorted((set(peer_lists[cell]) | together) - {cell})
        peer_count = max(1, max(len(found) for found in peer_lists))
        self.peers = <int16_t *>malloc(cells * peer_count * sizeof(int16_t))
        self.unit_cells = <int16_t *>malloc(max(1, len(unit_list)) * size * sizeof(int16_t))
        self.cell_units = <int16_t *>malloc(cells * per_cell * sizeof(int16_t))
        if neighbours is not None:
            self.neighbours = <int16_t *>malloc(4 * cells * sizeof(int16_t))
        if (
            self.peers == NULL
            or self.unit_cells == NULL
            or self.cell_units == NULL
            or (neighbours is not None and self.neighbours == NULL)
        ):
            raise MemoryError()
        for k, unit in enumerate(unit_list):
            for cell in range(size):
                self.unit_cells[k * size + cell] = <int16_t>unit[cell]
        for cell in range(cells):
            for k in range(per_cell):
                self.cell_units[cell * per_cell + k] = (
                    <int16_t>of_cell[cell][k] if k < len(of_cell[cell]) else -1
                )
            found = peer_lists[cell] or [cell]  # a 1x1 grid: its cell has no peer
            for k in range(peer_count):
                # Repeating the last peer costs a look, never a second removal.
                self.peers[cell * peer_count + k] = <int16_t>found[min(k, len(found) - 1)]
        if neighbours is not None:
            if len(neighbours) != cells:
                raise ValueError(f"neighbours: {len(neighbours)} lists for {cells} cells")
            for cell in range(cells):
                near = sorted({int(c) for c in neighbours[cell]})
                if len(near) > 4 or not all(0 <= c < cells and c != cell for c in near):
                    raise ValueError(f"neighbours of cell {cell}: at most 4 other cells")
                for k in range(4):
                    self.neighbours[4 * cell + k] = <int16_t>near[k] if k < len(near) else -1
        sets = {frozenset(unit) for unit in unit_list}
        lines = [frozenset(r * size + c for c in range(size)) for r in range(size)]
        lines += [frozenset(r * size + c for r in range(size)) for c in range(size)]
        rows, cols = self.box_rows, self.box_cols
        boxes = [
            frozenset((top + i) * size + left + j for i in range(rows) for j in range(cols))
            for top in range(0, size, rows)
            for left in range(0, size, cols)
        ] if rows > 1 and cols > 1 else []
        self.geo.size = size
        self.geo.cells = cells
        self.geo.units = len(unit_list)
        self.geo.peer_count = peer_count if cells > 1 else 0
        self.geo.box_rows = self.box_rows
        self.geo.box_cols = self.box_cols
        self.geo.units_per_cell = per_cell
        # Locked candidates work on the intersections of lines and boxes: sound only
        # when all of them are units (a jigsaw's regions are not boxes).
        self.geo.boxes_are_units = bool(boxes) and all(u in sets for u in lines + boxes)
        self.geo.peers = self.peers
        self.geo.unit_cells = self.unit_cells
        self.geo.cell_units = self.cell_units
        self.geo.neighbours = self.neighbours
        self.geo.full = (<uint64_t>1 << size) - 1 if size < 64 else ~(<uint64_t>0)

    def _init_bounds(self, sums, thermos):
        """Killer cages with a sum (cells, total) and thermometers (cells, bulb first);
        the cells of a cage must be peers already (the caller's rules make them so)."""
        cdef int cells = self.size * self.size, k, at
        cages = [(tuple(int(c) for c in found), int(total)) for found, total in (sums or ())]
        paths = [tuple(int(c) for c in path) for path in (thermos or ())]
        for found, total in cages:
            if not found or not all(0 <= c < cells for c in found) or len(set(found)) != len(found):
                raise ValueError("a cage must hold different cells of the grid")
        for path in paths:
            if len(path) < 2 or not all(0 <= c < cells for c in path) or len(set(path)) != len(path):
                raise ValueError("a thermometer must hold two or more different cells of the grid")
        self.sum_cells = <int16_t *>malloc(max(1, sum(len(f) for f, _ in cages)) * sizeof(int16_t))
        self.sum_start = <int32_t *>malloc((len(cages) + 1) * sizeof(int32_t))
        self.sum_total = <int32_t *>malloc(max(1, len(cages)) * sizeof(int32_t))
        self.thermo_cells = <int16_t *>malloc(max(1, sum(len(p) for p in paths)) * sizeof(int16_t))
        self.thermo_start = <int32_t *>malloc((len(paths) + 1) * sizeof(int32_t))
        if (
            self.sum_cells == NULL or self.sum_start == NULL or self.sum_total == NULL
            or self.thermo_cells == NULL or self.thermo_start == NULL
        ):
            raise MemoryError()
        at = 0
        for k, (found, total) in enumerate(cages):
            self.sum_start[k] = at
            self.sum_total[k] = total
            for cell in found:
                self.sum_cells[at] = <int16_t>cell
                at += 1
        self.sum_start[len(cages)] = at
        at = 0
        for k, path in enumerate(paths):
            self.thermo_start[k] = at
            for cell in path:
                self.thermo_cells[at] = <int16_t>cell
                at += 1
        self.thermo_start[len(paths)] = at
        self.geo.n_sums = len(cages)
        self.geo.sum_cells = self.sum_cells
        self.geo.sum_start = self.sum_start
        self.geo.sum_total = self.sum_total
        self.geo.n_thermos = len(paths)
        self.geo.thermo_cells = self.thermo_cells
        self.geo.thermo_start = self.thermo_start
        # Combination logic: the digit sets of each cage, where they are few enough.
        listed = [digit_sets(len(found), total, self.size) for found, total in cages]
        self.combo_listed = <uint8_t *>malloc(max(1, len(cages)) * sizeof(uint8_t))
        self.combo_start = <int32_t *>malloc((len(cages) + 1) * sizeof(int32_t))
        self.combos = <uint64_t *>malloc(
            max(1, sum(len(sets) for sets in listed if sets is not None)) * sizeof(uint64_t)
        )
        if self.combo_listed == NULL or self.combo_start == NULL or self.combos == NULL:
            raise MemoryError()
        at = 0
        for k, sets in enumerate(listed):
            self.combo_start[k] = at
            self.combo_listed[k] = sets is not None
            for mask in sets or ():
                self.combos[at] = <uint64_t>mask
                at += 1
        self.combo_start[len(cages)] = at
        self.geo.combo_listed = self.combo_listed
        self.geo.combo_start = self.combo_start
        self.geo.combos = self.combos

    def __dealloc__(self):
        free(self.peers)
        free(self.unit_cells)
        free(self.cell_units)
        free(self.neighbours)
        free(self.sum_cells)
        free(self.sum_start)
        free(self.sum_total)
        free(self.thermo_cells)
        free(self.thermo_start)
        free(self.combo_listed)
        free(self.combo_start)
        free(self.combos)

    @property
    def boxes_are_units(self):
        """Whether the search may use locked candidates (boxes and lines are units)."""
        return bool(self.geo.boxes_are_units)

    def __repr__(self):
        return f"Tables(size={self.size}, box_rows={self.box_rows}, box_cols={self.box_cols})"


# A cage whose sum leaves more digit sets than this keeps bounds only: scanning the
# sets costs every propagation about that many steps per cage. 1024 lists every cage
# on 16x16 (526 sets at most: 8 cells adding up to 68) and up to 4 cells on 25x25.
MAX_DIGIT_SETS = 1024


def count_digit_sets(int length, int total, int size):
    """How many sets of `length` different values 1..size add up to `total`."""
    # ways[k][t]: sets of k values, among those seen so far, adding up to t.
    if length < 0 or total < 0 or total > length * size:
        return 0
    ways = [[0] * (total + 1) for _ in range(length + 1)]
    ways[0][0] = 1
    for value in range(1, size + 1):
        for k in range(min(length, value), 0, -1):
            row, below = ways[k], ways[k - 1]
            for t in range(total, value - 1, -1):
                row[t] += below[t - value]
    return ways[length][total]


def digit_sets(int length, int total, int size, int cap=MAX_DIGIT_SETS):
    """The sets of `length` different values 1..size adding up to `total`, as masks
    (bit v-1 = value v), smallest values first; None when there are more than `cap`."""
    if length * size * total > 4_000_000:
        return None  # a huge cage on a huge grid: bounds only, its sets too slow to count
    if count_digit_sets(length, total, size) > cap:
        return None
    found = []

    def extend(int low, int left, int rest, object mask):
        # `left` values still to choose, all from low..size, adding up to `rest`.
        if left == 0:
            if rest == 0:
                found.append(mask)
            return
        for value in range(low, size + 1):
            # The smallest and largest sums of `left` values from `value` on.
            if value * left + left * (left - 1) // 2 > rest:
                return
            if rest - value > (left - 1) * size - (left - 1) * (left - 2) // 2:
                continue  # even the largest values after this one fall short
            extend(value + 1, left - 1, rest - value, mask | (1 << (value - 1)))

    extend(1, length, total, 0)
    return found


_TABLES = {}
_TABLES_LOCK = threading.Lock()


def tables_for(int size, int box_rows, int box_cols):
    """The (cached) tables of a size x size grid with box_rows x box_cols boxes."""
    key = (size, box_rows, box_cols)
    tables = _TABLES.get(key)
    if tables is None:
        with _TABLES_LOCK:
            tables = _TABLES.get(key)
            if tables is None:
                tables = Tables(size, box_rows, box_cols)
                _TABLES[key] = tables
    return tables


cdef bint workspace_init(Workspace *w, const Geo *geo) noexcept nogil:
    # Segments: every row splits into size / box_cols == box_rows pieces, every column
    # into box_cols pieces.
    w.capacity = 0
    w.cand = NULL
    w.places = NULL
    w.placed = NULL
    w.branch_cell = NULL
    w.branch_unit = NULL
    w.branch_value = NULL
    w.branch_rest = NULL
    w.singles = <int16_t *>malloc(geo.cells * sizeof(int16_t))
    w.hidden = <int32_t *>malloc(geo.units * geo.size * sizeof(int32_t))
    w.row_seg = <uint64_t *>malloc(geo.box_rows * geo.size * sizeof(uint64_t))
    w.col_seg = <uint64_t *>malloc(geo.box_cols * geo.size * sizeof(uint64_t))
    w.row_cut = <uint64_t *>malloc(geo.box_rows * geo.size * sizeof(uint64_t))
    w.col_cut = <uint64_t *>malloc(geo.box_cols * geo.size * sizeof(uint64_t))
    w.cage_memo = <uint64_t *>calloc(
        max(1, geo.sum_start[geo.n_sums] if geo.n_sums else 0), sizeof(uint64_t)
    )
    return (
        w.cage_memo != NULL and
        w.singles != NULL
        and w.hidden != NULL
        and w.row_seg != NULL
        and w.col_seg != NULL
        and w.row_cut != NULL
        and w.col_cut != NULL
        and workspace_reserve(w, geo, FIRST_LEVELS)
    )


cdef void workspace_free(Workspace *w) noexcept nogil:
    free(w.cand)
    free(w.places)
    free(w.placed)
    free(w.branch_cell)
    free(w.branch_unit)
    free(w.branch_value)
    free(w.branch_rest)
    free(w.singles)
    free(w.hidden)
    free(w.row_seg)
    free(w.col_seg)
    free(w.row_cut)
    free(w.col_cut)
    free(w.cage_memo)


cdef bint grow(void **array, size_t size) noexcept nogil:
    cdef void *p = realloc(array[0], size)
    if p == NULL:
        return False
    array[0] = p
    return True


cdef bint workspace_reserve(Workspace *w, const Geo *geo, int32_t levels) noexcept nogil:
    """Make room for `levels` stack levels; False when memory runs out."""
    cdef size_t capacity = w.capacity if w.capacity > 0 else FIRST_LEVELS
    if levels <= w.capacity:
        return True
    while capacity < <size_t>levels:
        capacity *= 2
    if capacity > <size_t>(geo.cells + 1):
        capacity = max(<size_t>(geo.cells + 1), <size_t>levels)
    if not (
        grow(<void **>&w.cand, capacity * geo.cells * sizeof(uint64_t))
        and grow(<void **>&w.places, capacity * geo.units * geo.size * sizeof(uint8_t))
        and grow(<void **>&w.placed, capacity * sizeof(int32_t))
        and grow(<void **>&w.branch_cell, capacity * sizeof(int32_t))
        and grow(<void **>&w.branch_unit, capacity * sizeof(int32_t))
        and grow(<void **>&w.branch_value, capacity * sizeof(uint64_t))
        and grow(<void **>&w.branch_rest, capacity * sizeof(uint64_t))
    ):
        return False
    w.capacity = <int32_t>capacity
    return True


cdef inline bint drop_values(
    const Geo *geo, Workspace *w, uint8_t *places, int cell, uint64_t values
) noexcept nogil:
    """Count `values`, just removed from `cell`, out of its units (three, or as the rules say).

    A value left with one place in a unit is queued as a hidden single; with none, it
    is a contradiction (False).
    """
    cdef int per_cell = geo.units_per_cell
    cdef const int16_t *units = geo.cell_units + per_cell * cell
    cdef int v, k, count = 0, row0, row1, row2
    cdef int rows[MAX_UNITS_PER_CELL]  # where the counters of the cell's units start
    if per_cell == 3:
        # Three units for every cell (the classic tables): unrolled, this is the
        # hottest loop of the engine.
        row0 = units[0] * geo.size
        row1 = units[1] * geo.size
        row2 = units[2] * geo.size
        while values:
            v = sfg_lowest_index(values)
            values &= values - 1
            if not (
                count_out(w, places, row0 + v)
                and count_out(w, places, row1 + v)
                and count_out(w, places, row2 + v)
            ):
                return False
        return True
    while count < per_cell and units[count] >= 0:
        rows[count] = units[count] * geo.size
        count += 1
    while values:
        v = sfg_lowest_index(values)
        values &= values - 1
        for k in range(count):
            if not count_out(w, places, rows[k] + v):
                return False
    return True


cdef inline bint count_out(Workspace *w, uint8_t *places, int index) noexcept nogil:
    """One place fewer for counter `index`: queued at one left, False at none."""
    cdef uint8_t left = places[index] - 1
    places[index] = left
    if left <= 1:
        if left == 0:
            return False
        w.hidden[w.hidden_tail] = index
        w.hidden_tail += 1
    return True


cdef inline bint assign(
    const Geo *geo, Workspace *w, uint64_t *cand, uint8_t *places, int cell, uint64_t value_bit
) noexcept nogil:
    """Reduce a cell to one value; queue it if that is news. False on contradiction."""
    cdef uint64_t c = cand[cell]
    if not (c & value_bit):
        return False
    if c == value_bit:
        return True
    cand[cell] = value_bit
    w.singles[w.singles_tail] = <int16_t>cell
    w.singles_tail += 1
    return drop_values(geo, w, places, cell, c ^ value_bit)


cdef inline bint remove_values(
    const Geo *geo, Workspace *w, uint64_t *cand, uint8_t *places, int cell, uint64_t values
) noexcept nogil:
    """Remove `values` from a cell; queue it if one value is left. False on contradiction."""
    cdef uint64_t c = cand[cell]
    values &= c
    if not values:
        return True
    c ^= values
    if c == 0:
        return False
    cand[cell] = c
    if (c & (c - 1)) == 0:
        w.singles[w.singles_tail] = <int16_t>cell
        w.singles_tail += 1
    return drop_values(geo, w, places, cell, values)


cdef inline bint eliminate_from_peers(
    const Geo *geo, Workspace *w, uint64_t *cand, uint8_t *places, int32_t *placed
) noexcept nogil:
    """Propagate every queued placement to its peers; naked singles join the queue."""
    cdef int cell, peer, k, v, per_cell = geo.units_per_cell
    cdef uint64_t value_bit, c
    cdef const int16_t *peers
    cdef const int16_t *units
    while w.singles_head < w.singles_tail:
        cell = w.singles[w.singles_head]
        w.singles_head += 1
        value_bit = cand[cell]
        placed[0] += 1
        # The value now has its place in the cell's three units: mark their counters so
        # the eliminations below do not queue them as hidden singles (a scan of N cells
        # each, only to find this cell) or offer them to branching. Peers can take at
        # most 63 off the mark, so it never reads as 1 or 0.
        v = sfg_lowest_index(value_bit)
        units = geo.cell_units + per_cell * cell
        if per_cell == 3:
            places[units[0] * geo.size + v] = PLACED_MARK
            places[units[1] * geo.size + v] = PLACED_MARK
            places[units[2] * geo.size + v] = PLACED_MARK
        else:
            for k in range(per_cell):
                if units[k] < 0:
                    break
                places[units[k] * geo.size + v] = PLACED_MARK
        peers = geo.peers + cell * geo.peer_count
        for k in range(geo.peer_count):
            peer = peers[k]
            c = cand[peer]
            if c & value_bit:
                c ^= value_bit
                if c == 0:
                    return False
                cand[peer] = c
                if (c & (c - 1)) == 0:
                    w.singles[w.singles_tail] = <int16_t>peer
                    w.singles_tail += 1
                if not drop_values(geo, w, places, peer, value_bit):
                    return False
        if geo.neighbours != NULL and not remove_near_values(geo, w, cand, places, cell, value_bit):
            return False
    w.singles_head = 0
    w.singles_tail = 0
    return True


cdef bint remove_near_values(
    const Geo *geo, Workspace *w, uint64_t *cand, uint8_t *places, int cell, uint64_t value_bit
) noexcept nogil:
    """Non-consecutive: the values one above and one below a placed value leave the
    cell's orthogonal neighbours. False on contradiction."""
    cdef uint64_t near = ((value_bit << 1) | (value_bit >> 1)) & geo.full
    cdef const int16_t *around = geo.neighbours + 4 * cell
    cdef int k
    for k in range(4):
        if around[k] >= 0 and not remove_values(geo, w, cand, places, around[k], near):
            return False
    return True


cdef inline bint place_hidden_singles(
    const Geo *geo, Workspace *w, uint64_t *cand, uint8_t *places
) noexcept nogil:
    """Place each queued value that has one place left in its unit. False on contradiction."""
    cdef int index, k, cell
    cdef uint64_t value_bit
    cdef const int16_t *unit
    while w.hidden_head < w.hidden_tail:
        index = w.hidden[w.hidden_head]
        w.hidden_head += 1
        if places[index] != 1:
            continue  # cannot drop to 0 without a contradiction already reported
        unit = geo.unit_cells + (index // geo.size) * geo.size
        value_bit = (<uint64_t>1) << (index % geo.size)
        for k in range(geo.size):
            cell = unit[k]
            if cand[cell] & value_bit:
                if not assign(geo, w, cand, places, cell, value_bit):
                    return False
                break
    w.hidden_head = 0
    w.hidden_tail = 0
    return True


cdef inline void lock_segments(
    const uint64_t *segs, uint64_t *cuts, int n, int p
) noexcept nogil:
    """Claiming and pointing on the segments of one direction, into `cuts`.

    Rows: `segs[line * p + k]` is row `line` inside box column k, with p = box_rows
    segments per row and p rows per band; columns are the same with p = box_cols.
    """
    cdef int line, k, i, j, b, band
    cdef uint64_t m, once, twice, cut
    # Claiming: a value of a line seen in one of its box segments only.
    for line in range(n):
        once = 0
        twice = 0
        for k in range(p):
            m = segs[line * p + k]
            twice |= once & m
            once |= m
        if twice == once:
            continue
        band = (line // p) * p
        for k in range(p):
            cut = segs[line * p + k] & ~twice
            if cut:
                for i in range(p):
                    if band + i != line:
                        cuts[(band + i) * p + k] |= cut
    # Pointing: a value of a box seen in one of its line segments only.
    for b in range(n // p):
        band = b * p  # the first line of this band of boxes
        for k in range(p):
            once = 0
            twice = 0
            for i in range(p):
                m = segs[(band + i) * p + k]
                twice |= once & m
                once |= m
            if twice == once:
                continue
            for i in range(p):
                cut = segs[(band + i) * p + k] & ~twice
                if cut:
                    for j in range(p):
                        if j != k:
                            cuts[(band + i) * p + j] |= cut


cdef int find_locked_candidates(
    const Geo *geo, Workspace *w, uint64_t *cand, uint8_t *places
) noexcept nogil:
    """Pointing and claiming; returns -1 on contradiction, else whether anything changed.

    A segment is the part of a row (or column) inside one box. Within a group of
    segments (the row segments of one box, or the box segments of one row), a value
    seen in exactly one segment is locked there: it is cut from the segments of the
    other group that this segment belongs to.
    """
    cdef int n = geo.size, br = geo.box_rows, bc = geo.box_cols
    cdef int r, c, k, i, j, seg, cell
    cdef bint changed = False
    cdef uint64_t m, cut
    # Row segments: row r, box column k (n // bc == br of them per row).
    for r in range(n):
        for k in range(br):
            m = 0
            cell = r * n + k * bc
            for j in range(bc):
                m |= cand[cell + j]
            w.row_seg[r * br + k] = m
            w.row_cut[r * br + k] = 0
    # Column segments: column c, box row k (n // br == bc of them per column).
    for c in range(n):
        for k in range(bc):
            m = 0
            cell = k * br * n + c
            for i in range(br):
                m |= cand[cell + i * n]
            w.col_seg[c * bc + k] = m
            w.col_cut[c * bc + k] = 0
    lock_segments(w.row_seg, w.row_cut, n, br)
    lock_segments(w.col_seg, w.col_cut, n, bc)
    # Apply the cuts.
    for seg in range(br * n):
        cut = w.row_cut[seg] & w.row_seg[seg]
        if cut:
            changed = True
            cell = (seg // br) * n + (seg % br) * bc
            for j in range(bc):
                if not remove_values(geo, w, cand, places, cell + j, cut):
                    return -1
    for seg in range(bc * n):
        cut = w.col_cut[seg] & w.col_seg[seg]
        if cut:
            changed = True
            cell = (seg % bc) * br * n + seg // bc
            for i in range(br):
                if not remove_values(geo, w, cand, places, cell + i * n, cut):
                    return -1
    return changed


cdef bint propagate(
    const Geo *geo, Workspace *w, uint64_t *cand, uint8_t *places, int32_t *placed, bint locked
) noexcept nogil:
    """Run naked and hidden singles (and locked candidates) to a fixed point.

    False on contradiction. The queues hold the news of the last assignments.
    """
    cdef int changed
    while True:
        if not eliminate_from_peers(geo, w, cand, places, placed):
            return False
        if placed[0] == geo.cells:
            # Every cell placed: the sums and thermometers still have their say.
            return (geo.n_sums == 0 and geo.n_thermos == 0) or bound_all(geo, w, cand, places) == 0
        if w.hidden_tail:
            if not place_hidden_singles(geo, w, cand, places):
                return False
            continue
        if locked:
            changed = find_locked_candidates(geo, w, cand, places)
            if changed < 0:
                return False
            if changed:
                continue
        if geo.n_sums == 0 and geo.n_thermos == 0:
            return True
        changed = bound_all(geo, w, cand, places)
        if changed < 0:
            return False
        if not changed:
            return True


cdef inline uint64_t values_between(int low, int high) noexcept nogil:
    """The mask of values low..high (1-based; empty when low > high)."""
    if low < 1:
        low = 1
    if high > 64:
        high = 64
    if low > high:
        return 0
    cdef uint64_t upto = ~(<uint64_t>0) if high == 64 else ((<uint64_t>1) << high) - 1
    return upto & ~(((<uint64_t>1) << (low - 1)) - 1)


cdef inline bint in_unit(const Geo *geo, int cell, int unit) noexcept nogil:
    """Whether `cell` lies in `unit`."""
    cdef const int16_t *units = geo.cell_units + geo.units_per_cell * cell
    cdef int k
    for k in range(geo.units_per_cell):
        if units[k] == unit:
            return True
        if units[k] < 0:
            return False
    return False


cdef int combine_cage(
    const Geo *geo, Workspace *w, uint64_t *cand, uint8_t *places, int k
) noexcept nogil:
    """Combination logic on killer cage `k` (its digit sets listed): -1 contradiction,
    1 a value removed (the queues hold the news), 0 nothing.

    A digit set is still possible when it lies within the cage's candidates, holds every
    value already placed in the cage and meets every cell's candidates. The cells keep
    only values of the possible sets. A value in every possible set must go in the cage:
    with one place left there it is placed, and where its places share a unit it leaves
    the rest of that unit. A cage with one empty cell leaves that cell the one value its
    sum still lacks.
    """
    cdef int first = geo.sum_start[k], last = geo.sum_start[k + 1], i, j, s, v, cell, unit
    cdef int where, count, changed = 0
    cdef uint64_t seen = 0, placed = 0, c, mask, allowed = 0, required, value_bit, bits
    cdef const int16_t *units
    cdef bint meets, shared
    cdef bint same = True
    for i in range(first, last):
        c = cand[geo.sum_cells[i]]
        same = same and w.cage_memo[i] == c
        seen |= c
        if (c & (c - 1)) == 0:
            placed |= c
    if same:
        return 0  # the state this cage was last found at rest in
    required = seen
    for s in range(geo.combo_start[k], geo.combo_start[k + 1]):
        mask = geo.combos[s]
        if (mask & ~seen) or (placed & ~mask):
            continue
        meets = True
        for i in range(first, last):
            if not (cand[geo.sum_cells[i]] & mask):
                meets = False
                break
        if meets:
            allowed |= mask
            required &= mask
    if allowed == 0:
        return -1
    if seen & ~allowed:
        for i in range(first, last):
            cell = geo.sum_cells[i]
            if cand[cell] & ~allowed:
                if not remove_values(geo, w, cand, places, cell, cand[cell] & ~allowed):
                    return -1
                changed = 1
    # Values every possible set holds, not placed yet: confined to the cage.
    bits = required & ~placed
    while bits:
        value_bit = bits & (~bits + 1)
        bits ^= value_bit
        where = -1
        count = 0
        for i in range(first, last):
            if cand[geo.sum_cells[i]] & value_bit:
                count += 1
                if where < 0:
                    where = geo.sum_cells[i]
        if count == 0:
            return -1
        if count == 1:
            if cand[where] != value_bit:
                if not assign(geo, w, cand, places, where, value_bit):
                    return -1
                changed = 1
            continue
        # Every unit of the first place that holds all the places loses the value
        # outside the cage.
        units = geo.cell_units + geo.units_per_cell * where
        for j in range(geo.units_per_cell):
            unit = units[j]
            if unit < 0:
                break
            shared = True
            for i in range(first, last):
                cell = geo.sum_cells[i]
                if (cand[cell] & value_bit) and not in_unit(geo, cell, unit):
                    shared = False
                    break
            if not shared:
                continue
            for i in range(geo.size):
                cell = geo.unit_cells[unit * geo.size + i]
                if not (cand[cell] & value_bit) or in_cage(geo, k, cell):
                    continue
                if not remove_values(geo, w, cand, places, cell, value_bit):
                    return -1
                changed = 1
    if not changed:
        for i in range(first, last):
            w.cage_memo[i] = cand[geo.sum_cells[i]]
    return changed


cdef inline bint in_cage(const Geo *geo, int k, int cell) noexcept nogil:
    """Whether `cell` lies in killer cage `k`."""
    cdef int i
    for i in range(geo.sum_start[k], geo.sum_start[k + 1]):
        if geo.sum_cells[i] == cell:
            return True
    return False


cdef int bound_all(const Geo *geo, Workspace *w, uint64_t *cand, uint8_t *places) noexcept nogil:
    """Bounds of every killer cage and thermometer once: -1 contradiction, 1 a value
    removed (the queues hold the news), 0 nothing."""
    cdef int k, i, first, last, length, cell, total, low, high, sum_low, sum_high, changed = 0
    cdef int others_low, others_high, smallest, largest
    cdef uint64_t c, keep
    for k in range(geo.n_sums):
        if geo.combo_listed[k]:
            i = combine_cage(geo, w, cand, places, k)
            if i < 0:
                return -1
            changed |= i
            continue
        first = geo.sum_start[k]
        last = geo.sum_start[k + 1]
        length = last - first
        total = geo.sum_total[k]
        sum_low = sum_high = 0
        for i in range(first, last):
            c = cand[geo.sum_cells[i]]
            sum_low += sfg_lowest_index(c) + 1
            sum_high += sfg_highest_index(c) + 1
        if sum_low > total or sum_high < total:
            return -1
        # The other cells of the cage differ: at least 1 + ... + (length - 1), at most
        # the length - 1 largest values.
        smallest = (length - 1) * length // 2
        largest = (length - 1) * (2 * geo.size - length + 2) // 2
        for i in range(first, last):
            cell = geo.sum_cells[i]
            c = cand[cell]
            others_low = sum_low - (sfg_lowest_index(c) + 1)
            others_high = sum_high - (sfg_highest_index(c) + 1)
            if others_low < smallest:
                others_low = smallest
            if others_high > largest:
                others_high = largest
            keep = values_between(total - others_high, total - others_low)
            if c & ~keep:
                if not remove_values(geo, w, cand, places, cell, c & ~keep):
                    return -1
                changed = 1
    for k in range(geo.n_thermos):
        first = geo.thermo_start[k]
        last = geo.thermo_start[k + 1]
        # Upwards from the bulb: each cell above the smallest value before it.
        low = 0
        for i in range(first, last):
            cell = geo.thermo_cells[i]
            c = cand[cell]
            keep = values_between(low + 1, 64)
            if c & ~keep:
                if not remove_values(geo, w, cand, places, cell, c & ~keep):
                    return -1
                changed = 1
            low = sfg_lowest_index(cand[cell]) + 1
        # Downwards from the tip: each cell below the largest value after it.
        high = geo.size + 1
        for i in range(last - 1, first - 1, -1):
            cell = geo.thermo_cells[i]
            c = cand[cell]
            keep = values_between(1, high - 1)
            if c & ~keep:
                if not remove_values(geo, w, cand, places, cell, c & ~keep):
                    return -1
                changed = 1
            high = sfg_highest_index(cand[cell]) + 1
    return changed


cdef inline uint64_t next_random(uint64_t *state) noexcept nogil:
    """xorshift64*: a small, fast generator; its state never reaches zero."""
    cdef uint64_t x = state[0]
    x ^= x >> 12
    x ^= x << 25
    x ^= x >> 27
    state[0] = x
    return x * 0x2545F4914F6CDD1DULL


cdef inline uint64_t random_bit(uint64_t mask, uint64_t *rng) noexcept nogil:
    """One set bit of a nonzero mask, chosen at random."""
    cdef int skip = <int>((next_random(rng) >> 32) % <uint64_t>sfg_popcount(mask))
    while skip:
        mask &= mask - 1
        skip -= 1
    return mask & (~mask + 1)


cdef int64_t luby(int64_t i) noexcept nogil:
    """The i-th term (from 1) of the Luby sequence 1 1 2 1 1 2 4 1 1 2 ..."""
    cdef int64_t k = 1
    while True:
        if i == 2 * k - 1:
            return k
        if k <= i < 2 * k - 1:
            i = i - k + 1
            k = 1
            continue
        k *= 2


cdef void pick_branch(
    const Geo *geo,
    Workspace *w,
    const uint64_t *cand,
    const uint8_t *places,
    int depth,
    bint by_units,
    uint64_t *rng,
) noexcept nogil:
    """Choose what level `depth` branches on: the option with the fewest alternatives.

    First the unfilled cell with the fewest candidates: the first one found, or with
    `rng` one chosen at random among them. When it has more than two and `by_units` is
    set, a value with fewer places left in some unit wins instead (the exact-cover
    view: every cell and every unit-value pair is a constraint with its own options).
    """
    cdef int cell, best = -1, best_count = 65, n, ties = 0, index, k, unit_index = -1
    cdef uint64_t value_bit, positions
    cdef const int16_t *unit
    if rng == NULL:
        for cell in range(geo.cells):
            n = sfg_popcount(cand[cell])
            if 1 < n < best_count:
                best = cell
                best_count = n
                if n == 2:
                    break
    else:
        for cell in range(geo.cells):
            n = sfg_popcount(cand[cell])
            if n < 2 or n > best_count:
                continue
            if n < best_count:
                best_count = n
                ties = 0
            ties += 1  # keep each of the tied cells with equal chance
            if (next_random(rng) >> 32) % <uint64_t>ties == 0:
                best = cell
    w.branch_cell[depth] = best
    if best < 0:
        # Cannot happen: every cell that became single was queued and placed. Leave
        # nothing to try rather than read outside the grid.
        w.branch_rest[depth] = 0
        return
    w.branch_rest[depth] = cand[best]
    if not by_units or best_count <= 2:
        return
    for index in range(geo.units * geo.size):
        n = places[index]
        if 1 < n < best_count:
            best_count = n
            unit_index = index
            if n == 2:
                break
    if unit_index < 0:
        return
    unit = geo.unit_cells + (unit_index // geo.size) * geo.size
    value_bit = (<uint64_t>1) << (unit_index % geo.size)
    positions = 0
    for k in range(geo.size):
        if cand[unit[k]] & value_bit:
            positions |= (<uint64_t>1) << k
    w.branch_cell[depth] = -1
    w.branch_unit[depth] = unit_index // geo.size
    w.branch_value[depth] = value_bit
    w.branch_rest[depth] = positions


cdef inline void write_solution(
    const Geo *geo, const uint64_t *cand, uint8_t *solution
) noexcept nogil:
    cdef int cell
    for cell in range(geo.cells):
        solution[cell] = <uint8_t>(sfg_lowest_index(cand[cell]) + 1)


cdef Outcome solve_grid(
    const Geo *geo,
    Workspace *w,
    const uint8_t *puzzle,
    const uint64_t *masks,
    uint8_t *solution,
    int limit,
    Control *ctl,
) noexcept nogil:
    """Solve one puzzle (values 0..size, 0 = empty); write the first solution found.

    `masks`, when not NULL, holds a candidate mask per cell (pencil marks): the values
    outside a cell's mask are removed before the search, as placements remove them, so
    hidden and naked singles follow from the marks too.
    """
    cdef Outcome out
    cdef int cell, depth, v, cells = geo.cells, counters = geo.units * geo.size
    cdef uint64_t *cand
    cdef uint8_t *places
    cdef uint64_t rest, value_bit, option
    cdef uint64_t rng = 0x9E3779B97F4A7C15ULL  # fixed seed: results do not vary by run
    cdef uint64_t *randomized = NULL  # &rng once the search has restarted
    cdef int64_t runs = 1
    cdef int64_t run_end = ctl.restart_unit
    cdef bint may_lock = ctl.locked and geo.boxes_are_units
    cdef bint use_locked = may_lock

    out.count = 0
    out.guesses = 0
    out.nodes = 1
    out.status = DONE
    out.bad_cell = -1
    cand = w.cand
    places = w.places
    w.placed[0] = 0
    w.singles_head = 0
    w.singles_tail = 0
    w.hidden_head = 0
    w.hidden_tail = 0
    for cell in range(cells):
        cand[cell] = geo.full
    memset(places, geo.size, counters)
    if geo.size == 1:
        # Every cell starts with its only value: queue them all, as a later single would be.
        for cell in range(cells):
            w.singles[cell] = <int16_t>cell
        w.singles_tail = cells
    for cell in range(cells):
        v = puzzle[cell]
        if v > geo.size:
            out.status = BAD_VALUE
            out.bad_cell = cell
            return out
        if v and not assign(geo, w, cand, places, cell, (<uint64_t>1) << (v - 1)):
            return out
    if masks != NULL:
        for cell in range(cells):
            if not remove_values(geo, w, cand, places, cell, geo.full & ~masks[cell]):
                return out
    if not propagate(geo, w, cand, places, &w.placed[0], may_lock):
        return out
    if w.placed[0] == cells:
        write_solution(geo, cand, solution)
        out.count = 1
        return out

    depth = 0
    pick_branch(geo, w, cand, places, 0, ctl.by_units, NULL)
    while True:
        rest = w.branch_rest[depth]
        if rest == 0:
            if depth == 0:
                break
            depth -= 1
            continue
        if ctl.max_nodes > 0 and out.nodes >= ctl.max_nodes:
            out.status = EXHAUSTED
            break
        if out.nodes % CHECK_EVERY == 0 and poll(&ctl.stop):
            out.status = INTERRUPTED
            break
        if out.count == 0 and ctl.restart_unit > 0 and out.nodes >= run_end:
            # No solution yet after this run's share of nodes: start again from the
            # root (see the module docstring). Runs alternate with and without locked
            # candidates; from the third on, the branching order is random.
            runs += 1
            run_end = out.nodes + ctl.restart_unit * luby(runs)
            use_locked = may_lock and runs % 2 == 1
            randomized = &rng if runs > 2 else NULL
            depth = 0
            pick_branch(geo, w, w.cand, w.places, 0, ctl.by_units, randomized)
            continue
        if depth + 2 > w.capacity and not workspace_reserve(w, geo, depth + 2):
            out.status = NO_MEMORY
            break
        option = rest & (~rest + 1) if randomized == NULL else random_bit(rest, randomized)
        rest ^= option
        w.branch_rest[depth] = rest
        if w.branch_cell[depth] >= 0:
            cell = w.branch_cell[depth]
            value_bit = option
        else:
            cell = geo.unit_cells[w.branch_unit[depth] * geo.size + sfg_lowest_index(option)]
            value_bit = w.branch_value[depth]
        if rest:
            out.guesses += 1
        out.nodes += 1
        cand = w.cand + <size_t>(depth + 1) * cells
        places = w.places + <size_t>(depth + 1) * counters
        memcpy(cand, w.cand + <size_t>depth * cells, cells * sizeof(uint64_t))
        memcpy(places, w.places + <size_t>depth * counters, counters)
        w.placed[depth + 1] = w.placed[depth]
        w.singles_head = 0
        w.singles_tail = 0
        w.hidden_head = 0
        w.hidden_tail = 0
        if not assign(geo, w, cand, places, cell, value_bit):
            continue
        if not propagate(geo, w, cand, places, &w.placed[depth + 1], use_locked):
            continue
        if w.placed[depth + 1] == cells:
            out.count += 1
            if out.count == 1:
                write_solution(geo, cand, solution)
            if out.count >= limit:
                break
            continue
        depth += 1
        pick_branch(geo, w, cand, places, depth, ctl.by_units, randomized)
    return out


def solve_range(
    Tables tables not None,
    const uint8_t[::1] grids,
    uint8_t[::1] solutions,
    int32_t[::1] counts,
    int64_t[::1] guesses,
    int64_t[::1] nodes,
    int64_t[::1] nanos,
    Py_ssize_t start,
    Py_ssize_t stop,
    int limit,
    int64_t max_nodes=0,
    const uint8_t[::1] stop_flag=None,
    bint locked=True,
    bint by_units=True,
    int64_t restart_unit=DEFAULT_RESTART_UNIT,
    const uint64_t[::1] masks=None,

    bint cpu_clock=False,
):
    """Solve puzzles start..stop-1 of a flat buffer of N*N-byte grids, without the GIL.

    `grids` holds values 0..N (0 = empty) for the geometry of `tables`. For each puzzle
    i the first solution found is written to solutions[N*N*i : N*N*(i+1)] (left
    untouched when there is none), the number of solutions found, capped at `limit`, to
    counts[i], and the search figures to guesses[i] and nodes[i]. When `nanos` is not
    None, nanos[i] gets the puzzle's solving time in nanoseconds: the thread's CPU time
    with `cpu_clock`, else the monotonic wall clock (see _clock.pxd).

    `max_nodes` > 0 is a budget of search nodes per puzzle: a puzzle that needs more
    gets counts[i] = BUDGET_EXHAUSTED (-1), whatever it found so far. `stop_flag`, a
    one-byte buffer, makes every puzzle not finished yet get counts[i] = STOPPED (-2)
    once another thread sets it to a nonzero value. In the main thread a signal handler
    that raises (Ctrl-C) stops the range and its exception propagates.

    `locked` (locked candidates), `by_units` (unit-value branching) and `restart_unit`
    (nodes of the first run before a restart; 0 = never restart) select the search
    aids; the defaults are the measured best, the switches serve benchmarks.

    `masks`, N*N uint64 per puzzle, starts each puzzle from pencil marks: bit v-1 of
    masks[N*N*i + cell] set when value v is still possible in that cell.
    """
    if restart_unit < 0:
        raise ValueError("restart_unit must be 0 (never restart) or positive")
    if limit < 1:
        raise ValueError("limit must be at least 1")
    if max_nodes < 0:
        raise ValueError("max_nodes must be 0 (no budget) or positive")
    if start < 0 or stop < start:
        raise ValueError("bad range")
    cdef Geo geo = tables.geo
    cdef Py_ssize_t cells = geo.cells
    if (
        grids.shape[0] < stop * cells
        or solutions.shape[0] < stop * cells
        or counts.shape[0] < stop
        or guesses.shape[0] < stop
        or nodes.shape[0] < stop
        or (nanos is not None and nanos.shape[0] < stop)
    ):
        raise ValueError("buffers too small for the requested range")
    if stop_flag is not None and stop_flag.shape[0] < 1:
        raise ValueError("stop_flag must hold one byte")
    if masks is not None and masks.shape[0] < stop * cells:
        raise ValueError("masks buffer too small for the requested range")
    cdef const uint64_t *cell_masks = &masks[0] if masks is not None and stop > 0 else NULL
    cdef Control ctl
    stop_init(
        &ctl.stop,
        &stop_flag[0] if stop_flag is not None else NULL,
        threading.current_thread() is threading.main_thread(),
    )
    ctl.max_nodes = max_nodes
    ctl.locked = locked
    ctl.by_units = by_units
    ctl.restart_unit = restart_unit
    cdef Workspace w
    cdef Py_ssize_t i, k, bad_index = -1
    cdef int bad_cell = -1
    cdef Outcome res
    cdef bint timed = nanos is not None
    cdef bint out_of_memory = False
    cdef long long t0 = 0, overhead = 0
    with nogil:
        if timed:
            overhead = measurement_overhead(cpu_clock)
        if not workspace_init(&w, &geo):
            out_of_memory = True
        else:
            for i in range(start, stop):
                if flag_set(ctl.stop.flag) or ctl.stop.interrupted:
                    for k in range(i, stop):
                        counts[k] = COUNT_STOPPED
                    break
                if timed:
                    t0 = clock_nanos(cpu_clock)
                res = solve_grid(
                    &geo,
                    &w,
                    &grids[i * cells],
                    cell_masks + i * cells if cell_masks != NULL else NULL,
                    &solutions[i * cells],
                    limit,
                    &ctl,
                )
                if timed:
                    nanos[i] = elapsed(t0, overhead, cpu_clock)
                guesses[i] = res.guesses
                nodes[i] = res.nodes
                if res.status == DONE:
                    counts[i] = res.count
                elif res.status == EXHAUSTED:
                    counts[i] = COUNT_EXHAUSTED
                elif res.status == INTERRUPTED:
                    counts[i] = COUNT_STOPPED
                elif res.status == NO_MEMORY:
                    counts[i] = COUNT_STOPPED
                    out_of_memory = True
                    break
                else:
                    counts[i] = COUNT_STOPPED
                    bad_index = i
                    bad_cell = res.bad_cell
                    break
        workspace_free(&w)
    raise_saved(&ctl.stop)
    if out_of_memory:
        raise MemoryError("not enough memory for the search stack")
    if bad_index >= 0:
        value = grids[bad_index * cells + bad_cell]
        raise ValueError(
            f"puzzle {bad_index}: value {value} at cell {bad_cell} "
            f"(r{bad_cell // geo.size + 1}c{bad_cell % geo.size + 1}) is above the size {geo.size}"
        )
