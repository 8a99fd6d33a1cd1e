# cython: language_level=3
# Every other directive is set once for all modules in setup.py.
"""The compiled technique solver: the techniques of `logic.py` on plain C candidate masks.

This is the fast twin of `logic.py`, which stays the slow, obviously correct reference:
every technique here looks for its pattern in exactly the order the Python function
does (units, digits, cells and combinations in the same order), so both find the same
step from the same state, and a differential test holds them to it step by step.

The state of one puzzle is a 64-bit candidate mask per cell (bit v-1 = value v still
possible; 0 for a filled cell), the placed values, and for each unit where each value
fits (`LogicSolver.positions`), which values have one place left and how many cells
are empty, all updated with every candidate removed rather than rebuilt. A step is
written to a `Step` record: technique, pattern cells, digits, placements,
eliminations and a few technique-specific numbers that `logic.hint_from_record` turns
into the same `Hint` (explanation included) that `logic.py` builds.

Every function works on any geometry up to 64x64 through `Tables`, built once per
geometry from `grid.Geometry` (its units, peers and crossings, so both solvers share
one definition of the grid). The per-puzzle loops run without the GIL and allocate
their own workspace, so any number of threads may rate at once.
"""

cimport cython
from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy, memset
from cpython.object cimport PyObject_GenericSetAttr

from sudoku_fast._base.bits cimport bits_highest_index, bits_lowest_index, bits_popcount

import threading
from array import array

# Trial and error: how the assumption failed (the `aux[0]` of its record).
cdef enum:
    CLASH_VALUE = 0       # a cell would need two values: aux = cell, held, wanted
    CLASH_CANDIDATE = 1   # a cell would need a value it cannot hold: aux = cell, value
    CLASH_EMPTY = 2       # a cell would have no candidate left: aux = cell
    CLASH_NO_PLACE = 3    # a value would have no place left in a unit: aux = value, unit

# Outcomes of a whole logical solve, written to the first count slot when negative.
cdef enum:
    SOLVE_OK = 0
    SOLVE_CONTRADICTION = -1   # two equal values share a unit
    SOLVE_NO_MEMORY = -2
    SOLVE_STUCK = -3           # a guess met a cell without candidates: not a unique puzzle

cdef int LEVELS[COUNT_SLOTS]
LEVELS[:] = [1, 1, 1, 2, 2, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 5, 6]

TECHNIQUES = TECHNIQUE_COUNT
SLOTS = COUNT_SLOTS
CONTRADICTION = SOLVE_CONTRADICTION
NO_MEMORY = SOLVE_NO_MEMORY
STUCK = SOLVE_STUCK


# ---------------------------------------------------------------------------------------
# Tables


@cython.auto_pickle(False)
cdef class LogicTables:
    """The geometry of one grid size as flat C arrays (built by `tables_for`)."""

    def __init__(self, geometry):
        n = geometry.size
        cells = n * n
        units = geometry.units
        peers = geometry.peers
        npeers = len(peers[0])
        unit_cells = array("i", [c for unit in units for c in unit])
        peer_cells = array("i", [p for cell_peers in peers for p in cell_peers])
        cell_units = array("i", bytes(4 * 3 * cells))
        position = array("i", bytes(4 * 3 * cells))
        for u, unit in enumerate(units):
            kind = u // n
            for i, cell in enumerate(unit):
                cell_units[3 * cell + kind] = u
                position[3 * cell + kind] = i
        cross_start = array("i", [0])
        cross_unit = array("i")
        cross_line = array("Q")
        cross_box = array("Q")
        for crossings in geometry.crossings:
            for other, line_mask, box_mask in crossings:
                cross_unit.append(other)
                cross_line.append(line_mask)
                cross_box.append(box_mask)
            cross_start.append(len(cross_unit))
        self._buffers = (
            unit_cells, peer_cells, cell_units, position, cross_start, cross_unit,
            cross_line, cross_box,
        )
        self.geometry = geometry
        self.t.n = n
        self.t.cells = cells
        self.t.box_rows = geometry.box_rows
        self.t.box_cols = geometry.box_cols
        self.t.npeers = npeers
        self.t.units = _int_pointer(unit_cells)
        self.t.peers = _int_pointer(peer_cells)
        self.t.cell_units = _int_pointer(cell_units)
        self.t.position = _int_pointer(position)
        self.t.cross_start = _int_pointer(cross_start)
        self.t.cross_unit = _int_pointer(cross_unit)
        self.t.cross_line_mask = _mask_pointer(cross_line)
        self.t.cross_box_mask = _mask_pointer(cross_box)


cdef int32_t *_int_pointer(object buffer):
    cdef int32_t[::1] view = buffer
    return &view[0] if view.shape[0] else NULL


cdef uint64_t *_mask_pointer(object buffer):
    cdef uint64_t[::1] view = buffer
    return &view[0] if view.shape[0] else NULL


_TABLES = {}
_TABLES_LOCK = threading.Lock()


def tables_for(geometry):
    """The (cached) tables of a `grid.Geometry`; read-only, shared by every thread."""
    key = (geometry.size, geometry.box_rows, geometry.box_cols)
    tables = _TABLES.get(key)
    if tables is None:
        with _TABLES_LOCK:
            tables = _TABLES.get(key)
            if tables is None:
                tables = LogicTables(geometry)
                _TABLES[key] = tables
    return tables


# ---------------------------------------------------------------------------------------
# State and workspace


cdef bint solver_init(Solver *s, const Tables *t) noexcept nogil:
    cdef int cells = t.cells
    cdef int states = t.cells * t.n
    memset(s, 0, sizeof(Solver))
    s.t = t
    s.n = t.n
    s.cells = cells
    s.all_digits = 0xFFFFFFFFFFFFFFFFULL if t.n == 64 else ((<uint64_t>1) << t.n) - 1
    s.cand = <uint64_t *>malloc(cells * sizeof(uint64_t))
    s.values = <uint8_t *>malloc(cells)
    s.pos = <uint64_t *>malloc(3 * t.n * t.n * sizeof(uint64_t))
    s.ones = <uint64_t *>malloc(3 * t.n * sizeof(uint64_t))
    s.empties = <int32_t *>malloc(3 * t.n * sizeof(int32_t))
    s.step.cells = <int32_t *>malloc((cells + 64) * sizeof(int32_t))
    s.step.elim_cell = <int32_t *>malloc((cells + 64) * sizeof(int32_t))
    s.step.elim_digit = <int32_t *>malloc((cells + 64) * sizeof(int32_t))
    s.trial_cand = <uint64_t *>malloc(cells * sizeof(uint64_t))
    s.trial_values = <uint8_t *>malloc(cells)
    s.trial_dirty = <uint8_t *>malloc(3 * t.n)
    s.pending_cap = 4 * cells
    s.pending = <int32_t *>malloc(2 * s.pending_cap * sizeof(int32_t))
    s.list_a = <int32_t *>malloc(cells * sizeof(int32_t))
    s.list_b = <int32_t *>malloc(cells * sizeof(int32_t))
    s.list_c = <int32_t *>malloc(cells * sizeof(int32_t))
    s.order = <int32_t *>malloc(cells * sizeof(int32_t))
    s.colour = <int32_t *>malloc(cells * sizeof(int32_t))
    s.component_of = <int32_t *>malloc(cells * sizeof(int32_t))
    s.links = <int32_t *>malloc(3 * cells * sizeof(int32_t))
    s.nlinks = <int32_t *>malloc(cells * sizeof(int32_t))
    s.link_order = <int32_t *>malloc(cells * sizeof(int32_t))
    s.seen = <int32_t *>malloc(cells * sizeof(int32_t))
    s.seen2 = <int32_t *>malloc(cells * sizeof(int32_t))
    s.parent = <int32_t *>malloc(states * sizeof(int32_t))
    s.visited = <int32_t *>malloc(states * sizeof(int32_t))
    s.frontier = <int32_t *>malloc(states * sizeof(int32_t))
    s.next_frontier = <int32_t *>malloc(states * sizeof(int32_t))
    if (
        s.cand == NULL or s.values == NULL or s.pos == NULL or s.ones == NULL
        or s.empties == NULL or s.step.cells == NULL
        or s.step.elim_cell == NULL or s.step.elim_digit == NULL or s.trial_cand == NULL
        or s.trial_values == NULL or s.trial_dirty == NULL or s.pending == NULL or s.list_a == NULL
        or s.list_b == NULL or s.list_c == NULL or s.order == NULL or s.colour == NULL
        or s.component_of == NULL or s.links == NULL or s.nlinks == NULL
        or s.link_order == NULL or s.seen == NULL or s.seen2 == NULL or s.parent == NULL
        or s.visited == NULL or s.frontier == NULL or s.next_frontier == NULL
    ):
        solver_free(s)
        return False
    memset(s.visited, 0, states * sizeof(int32_t))
    memset(s.seen, 0, cells * sizeof(int32_t))
    memset(s.seen2, 0, cells * sizeof(int32_t))
    s.stamp = 0
    return True


cdef void solver_free(Solver *s) noexcept nogil:
    free(s.cand)
    free(s.values)
    free(s.pos)
    free(s.ones)
    free(s.empties)
    free(s.step.cells)
    free(s.step.elim_cell)
    free(s.step.elim_digit)
    free(s.trial_cand)
    free(s.trial_values)
    free(s.trial_dirty)
    free(s.pending)
    free(s.list_a)
    free(s.list_b)
    free(s.list_c)
    free(s.order)
    free(s.colour)
    free(s.component_of)
    free(s.links)
    free(s.nlinks)
    free(s.link_order)
    free(s.seen)
    free(s.seen2)
    free(s.parent)
    free(s.visited)
    free(s.frontier)
    free(s.next_frontier)
    memset(s, 0, sizeof(Solver))


cdef inline int32_t next_stamp(Solver *s) noexcept nogil:
    # Stamps mark "seen in this search" without clearing arrays between searches.
    s.stamp += 1
    if s.stamp == 0x7FFFFFFF:
        memset(s.visited, 0, s.cells * s.n * sizeof(int32_t))
        memset(s.seen, 0, s.cells * sizeof(int32_t))
        memset(s.seen2, 0, s.cells * sizeof(int32_t))
        s.stamp = 1
    return s.stamp


cdef inline int count_upto(uint64_t x, int limit) noexcept nogil:
    """min(popcount(x), limit): the patterns only ask about a few bits, and wheels have
    no popcount instruction to rely on."""
    cdef int k = 0
    while x and k < limit:
        x &= x - 1
        k += 1
    return k


cdef inline bint is_pair(uint64_t x) noexcept nogil:
    """Exactly two bits set."""
    x &= x - 1
    return x != 0 and (x & (x - 1)) == 0


cdef inline uint64_t bit_of(int digit) noexcept nogil:
    return (<uint64_t>1) << (digit - 1)


cdef inline int digit_of(uint64_t single) noexcept nogil:
    return bits_lowest_index(single) + 1


cdef inline bint sees(const Tables *t, int a, int b) noexcept nogil:
    """True when two different cells share a row, column or box."""
    if a == b:
        return False
    return (
        t.cell_units[3 * a] == t.cell_units[3 * b]
        or t.cell_units[3 * a + 1] == t.cell_units[3 * b + 1]
        or t.cell_units[3 * a + 2] == t.cell_units[3 * b + 2]
    )


cdef int solver_load(Solver *s, const uint8_t *values) noexcept nogil:
    """Start from placed values; SOLVE_CONTRADICTION when two equal values share a unit."""
    cdef const Tables *t = s.t
    cdef int cell, k, u, v
    cdef uint64_t bit
    cdef uint64_t *placed = s.ones  # borrowed: rebuild_units fills it afterwards
    memset(placed, 0, 3 * s.n * sizeof(uint64_t))
    s.open = 0
    for cell in range(s.cells):
        v = values[cell]
        s.values[cell] = v
        if not v:
            s.open += 1
            continue
        bit = bit_of(v)
        for k in range(3):
            u = t.cell_units[3 * cell + k]
            if placed[u] & bit:
                return SOLVE_CONTRADICTION
            placed[u] |= bit
    for cell in range(s.cells):
        if values[cell]:
            s.cand[cell] = 0
        else:
            s.cand[cell] = s.all_digits & ~(
                placed[t.cell_units[3 * cell]]
                | placed[t.cell_units[3 * cell + 1]]
                | placed[t.cell_units[3 * cell + 2]]
            )
    rebuild_units(s)
    return SOLVE_OK


cdef void rebuild_units(Solver *s) noexcept nogil:
    """Positions, single places and empty cells of every unit, from the cells."""
    cdef const Tables *t = s.t
    cdef int n = s.n
    cdef int u, d, cell, k, i0, i1, i2
    cdef uint64_t c, w
    cdef uint64_t *row
    cdef uint64_t *col
    cdef uint64_t *box
    memset(s.pos, 0, 3 * n * n * sizeof(uint64_t))
    memset(s.empties, 0, 3 * n * sizeof(int32_t))
    for cell in range(s.cells):
        if s.values[cell]:
            continue
        row = s.pos + t.cell_units[3 * cell] * n
        col = s.pos + t.cell_units[3 * cell + 1] * n
        box = s.pos + t.cell_units[3 * cell + 2] * n
        i0 = t.position[3 * cell]
        i1 = t.position[3 * cell + 1]
        i2 = t.position[3 * cell + 2]
        for k in range(3):
            s.empties[t.cell_units[3 * cell + k]] += 1
        c = s.cand[cell]
        while c:
            d = bits_lowest_index(c)
            c &= c - 1
            row[d] |= (<uint64_t>1) << i0
            col[d] |= (<uint64_t>1) << i1
            box[d] |= (<uint64_t>1) << i2
    for u in range(3 * n):
        s.ones[u] = 0
        for d in range(n):
            w = s.pos[u * n + d]
            if w and not (w & (w - 1)):
                s.ones[u] |= (<uint64_t>1) << d


cdef inline void unit_loses(Solver *s, int u, int i, int d) noexcept nogil:
    """The unit's i-th cell no longer holds digit index d: update its books."""
    cdef uint64_t w = s.pos[u * s.n + d] & ~((<uint64_t>1) << i)
    s.pos[u * s.n + d] = w
    if not w:
        s.ones[u] &= ~((<uint64_t>1) << d)
    elif not (w & (w - 1)):
        s.ones[u] |= (<uint64_t>1) << d


cdef inline void remove_candidates(Solver *s, int cell, uint64_t mask) noexcept nogil:
    """Take the digits of `mask` from the cell's candidates, keeping the units' books."""
    cdef const int32_t *units = s.t.cell_units + 3 * cell
    cdef const int32_t *position = s.t.position + 3 * cell
    cdef uint64_t gone = s.cand[cell] & mask
    cdef int d
    s.cand[cell] &= ~gone
    while gone:
        d = bits_lowest_index(gone)
        gone &= gone - 1
        unit_loses(s, units[0], position[0], d)
        unit_loses(s, units[1], position[1], d)
        unit_loses(s, units[2], position[2], d)


cdef void place(Solver *s, int cell, int digit) noexcept nogil:
    cdef const Tables *t = s.t
    cdef const int32_t *peers = t.peers + cell * t.npeers
    cdef uint64_t bit = bit_of(digit)
    cdef int k, peer
    remove_candidates(s, cell, s.all_digits)
    s.values[cell] = digit
    s.open -= 1
    for k in range(3):
        s.empties[t.cell_units[3 * cell + k]] -= 1
    for k in range(t.npeers):
        peer = peers[k]
        if s.cand[peer] & bit:
            remove_candidates(s, peer, bit)


cdef void apply_step(Solver *s) noexcept nogil:
    cdef Step *st = &s.step
    cdef int k
    for k in range(st.nplace):
        place(s, st.place_cell, st.place_digit)
    for k in range(st.nelim):
        remove_candidates(s, st.elim_cell[k], bit_of(st.elim_digit[k]))


cdef inline bint is_solved(const Solver *s) noexcept nogil:
    return s.open == 0


cdef inline void step_begin(Solver *s, int tech) noexcept nogil:
    s.step.tech = tech
    s.step.ncells = 0
    s.step.ndigits = 0
    s.step.nplace = 0
    s.step.nelim = 0
    s.step.aux[0] = 0
    s.step.aux[1] = 0
    s.step.aux[2] = 0
    s.step.aux[3] = 0


cdef inline void step_place(Solver *s, int tech, int cell, int digit) noexcept nogil:
    step_begin(s, tech)
    s.step.ncells = 1
    s.step.cells[0] = cell
    s.step.ndigits = 1
    s.step.digits[0] = digit
    s.step.nplace = 1
    s.step.place_cell = cell
    s.step.place_digit = digit


cdef inline void add_cell(Solver *s, int cell) noexcept nogil:
    s.step.cells[s.step.ncells] = cell
    s.step.ncells += 1


cdef inline void add_digits(Solver *s, uint64_t mask) noexcept nogil:
    while mask:
        s.step.digits[s.step.ndigits] = bits_lowest_index(mask) + 1
        s.step.ndigits += 1
        mask &= mask - 1


cdef inline void add_eliminations(Solver *s, int cell, uint64_t mask) noexcept nogil:
    """(cell, digit) for every candidate of `cell` in `mask`, digits ascending."""
    cdef uint64_t hit = s.cand[cell] & mask
    while hit:
        s.step.elim_cell[s.step.nelim] = cell
        s.step.elim_digit[s.step.nelim] = bits_lowest_index(hit) + 1
        s.step.nelim += 1
        hit &= hit - 1


# ---------------------------------------------------------------------------------------
# Singles


cdef bint find_full_house(Solver *s) noexcept nogil:
    cdef const Tables *t = s.t
    cdef int n = s.n
    cdef int u, i, cell, empty
    cdef uint64_t c
    for u in range(3 * n):
        if s.empties[u] != 1:
            continue
        empty = -1
        for i in range(n):
            cell = t.units[u * n + i]
            if not s.values[cell]:
                if empty >= 0:
                    empty = -2
                    break
                empty = cell
        if empty < 0:
            continue
        c = s.cand[empty]
        if c and not (c & (c - 1)):
            step_place(s, FULL_HOUSE, empty, digit_of(c))
            s.step.aux[0] = u
            return True
    return False


cdef bint find_hidden_single(Solver *s) noexcept nogil:
    cdef const Tables *t = s.t
    cdef int n = s.n
    cdef int k, u, i, cell
    cdef uint64_t only, hit
    for k in range(3 * n):
        u = k + 2 * n if k < n else k - n  # boxes first, then rows and columns
        only = s.ones[u]
        if not only:
            continue
        for i in range(n):
            cell = t.units[u * n + i]
            hit = s.cand[cell] & only
            if hit:
                step_place(s, HIDDEN_SINGLE, cell, digit_of(hit & (~hit + 1)))
                s.step.aux[0] = u
                return True
    return False


cdef bint find_naked_single(Solver *s) noexcept nogil:
    cdef int cell
    cdef uint64_t c
    for cell in range(s.cells):
        c = s.cand[cell]
        if c and not (c & (c - 1)):
            step_place(s, NAKED_SINGLE, cell, digit_of(c))
            return True
    return False


# ---------------------------------------------------------------------------------------
# Locked candidates


cdef bint locked_candidates(Solver *s, int first, int last, bint from_box, int tech) noexcept nogil:
    """A digit confined to one crossing of a unit leaves the rest of the crossed unit.

    Units first..last-1 are searched in order: boxes (pointing, the crossed units are
    lines) or lines (claiming, the crossed units are boxes). The record's aux holds
    (this unit, the crossed unit), as `logic.find_pointing` / `find_claiming` do.
    """
    cdef const Tables *t = s.t
    cdef int n = s.n
    cdef int unit, d, e, other, i
    cdef uint64_t where, bit, own_mask, other_mask
    for unit in range(first, last):
        for d in range(n):
            where = s.pos[unit * n + d]
            if not (where & (where - 1)):
                continue  # fewer than two places
            for e in range(t.cross_start[unit], t.cross_start[unit + 1]):
                other = t.cross_unit[e]
                own_mask = t.cross_box_mask[e] if from_box else t.cross_line_mask[e]
                other_mask = t.cross_line_mask[e] if from_box else t.cross_box_mask[e]
                if where & ~own_mask:
                    continue
                bit = (<uint64_t>1) << d
                step_begin(s, tech)
                for i in range(n):
                    if not ((other_mask >> i) & 1):
                        add_eliminations(s, t.units[other * n + i], bit)
                if s.step.nelim:
                    for i in range(n):
                        if (where >> i) & 1:
                            add_cell(s, t.units[unit * n + i])
                    s.step.digits[0] = d + 1
                    s.step.ndigits = 1
                    s.step.aux[0] = unit
                    s.step.aux[1] = other
                    return True
    return False


# ---------------------------------------------------------------------------------------
# Naked and hidden subsets


cdef inline bint first_combination(int *index, int k, int m) noexcept nogil:
    """Start the k-combinations of range(m) in lexicographic order; False if none."""
    cdef int j
    if k > m:
        return False
    for j in range(k):
        index[j] = j
    return True


cdef bint naked_subset(Solver *s, int k, int tech) noexcept nogil:
    cdef const Tables *t = s.t
    cdef int n = s.n
    cdef int u, i, j, cell, nopen, nsmall, pc
    cdef int index[4]
    cdef uint64_t union_, group_cells
    cdef int32_t *open_cells = s.list_a
    cdef int32_t *small = s.list_b
    for u in range(3 * n):
        nopen = 0
        nsmall = 0
        for i in range(n):
            cell = t.units[u * n + i]
            if s.cand[cell]:
                open_cells[nopen] = cell
                nopen += 1
                pc = count_upto(s.cand[cell], k + 1)
                if 2 <= pc <= k:
                    small[nsmall] = cell
                    nsmall += 1
        if nopen <= k:
            continue
        if not first_combination(index, k, nsmall):
            continue
        while True:
            union_ = 0
            for j in range(k):
                union_ |= s.cand[small[index[j]]]
            if count_upto(union_, k + 1) == k:
                step_begin(s, tech)
                for i in range(nopen):
                    cell = open_cells[i]
                    for j in range(k):
                        if small[index[j]] == cell:
                            break
                    else:
                        add_eliminations(s, cell, union_)
                if s.step.nelim:
                    for j in range(k):
                        add_cell(s, small[index[j]])
                    add_digits(s, union_)
                    s.step.aux[0] = u
                    return True
            if not next_combination(index, k, nsmall):
                break
    return False


cdef bint hidden_subset(Solver *s, int k, int tech) noexcept nogil:
    cdef const Tables *t = s.t
    cdef int n = s.n
    cdef int u, d, j, i, nplaces, nsmall, pc
    cdef int index[4]
    cdef int small[64]
    cdef uint64_t where, keep
    cdef uint64_t *places
    for u in range(3 * n):
        places = s.pos + u * n
        nplaces = 0
        nsmall = 0
        for d in range(n):
            if places[d]:
                nplaces += 1
                pc = count_upto(places[d], k + 1)
                if 2 <= pc <= k:
                    small[nsmall] = d
                    nsmall += 1
        if nplaces <= k:
            continue
        if not first_combination(index, k, nsmall):
            continue
        while True:
            where = 0
            keep = 0
            for j in range(k):
                where |= places[small[index[j]]]
                keep |= (<uint64_t>1) << small[index[j]]
            if count_upto(where, k + 1) == k:
                step_begin(s, tech)
                for i in range(n):
                    if (where >> i) & 1:
                        add_eliminations(s, t.units[u * n + i], s.all_digits & ~keep)
                if s.step.nelim:
                    for i in range(n):
                        if (where >> i) & 1:
                            add_cell(s, t.units[u * n + i])
                    add_digits(s, keep)
                    s.step.aux[0] = u
                    return True
            if not next_combination(index, k, nsmall):
                break
    return False


# ---------------------------------------------------------------------------------------
# Fish


cdef bint fish(Solver *s, int k, int tech) noexcept nogil:
    """k base lines where a digit fits only in the same k cover lines (any k up to 32).

    The base lines are chosen as k-combinations in lexicographic order (that of
    `itertools.combinations`), by a depth-first search that skips every extension
    whose cover already exceeds k lines: the same order as `logic._fish_bases`.
    """
    cdef const Tables *t = s.t
    cdef int n = s.n
    cdef int d, side, line, nspots, depth, c, cover_line, i, cell, base_of_cell
    cdef int index[33]
    cdef uint64_t partial[33]
    cdef int spot_line[64]
    cdef uint64_t spot_where[64]
    cdef uint64_t where, cover, bit, bases
    if k > 32:
        return False
    for d in range(n):
        bit = (<uint64_t>1) << d
        for side in range(2):  # 0: base lines are rows, 1: columns
            nspots = 0
            for line in range(n):
                where = s.pos[(line if side == 0 else n + line) * n + d]
                if 2 <= count_upto(where, k + 1) <= k:
                    spot_line[nspots] = line
                    spot_where[nspots] = where
                    nspots += 1
            if nspots < k:
                continue
            depth = 0
            index[0] = -1
            partial[0] = 0
            while depth >= 0:
                index[depth] += 1
                if index[depth] > nspots - (k - depth):
                    depth -= 1
                    continue
                cover = partial[depth] | spot_where[index[depth]]
                if count_upto(cover, k + 1) > k:
                    continue
                if depth + 1 < k:
                    partial[depth + 1] = cover
                    index[depth + 1] = index[depth]
                    depth += 1
                    continue
                if count_upto(cover, k + 1) != k:
                    continue
                bases = 0
                for i in range(k):
                    bases |= (<uint64_t>1) << spot_line[index[i]]
                step_begin(s, tech)
                # Targets: the cells of the cover lines, line by line; those off the
                # base lines lose the digit, those on them form the pattern.
                for c in range(n):
                    if not ((cover >> c) & 1):
                        continue
                    cover_line = n + c if side == 0 else c
                    for i in range(n):
                        cell = t.units[cover_line * n + i]
                        base_of_cell = cell // n if side == 0 else cell % n
                        if not ((bases >> base_of_cell) & 1):
                            add_eliminations(s, cell, bit)
                if s.step.nelim:
                    for c in range(n):
                        if not ((cover >> c) & 1):
                            continue
                        cover_line = n + c if side == 0 else c
                        for i in range(n):
                            cell = t.units[cover_line * n + i]
                            base_of_cell = cell // n if side == 0 else cell % n
                            if (bases >> base_of_cell) & 1 and s.cand[cell] & bit:
                                add_cell(s, cell)
                    sort_ints(s.step.cells, s.step.ncells)
                    s.step.digits[0] = d + 1
                    s.step.ndigits = 1
                    s.step.aux[0] = side == 0
                    s.step.aux[1] = <int64_t>bases
                    s.step.aux[2] = <int64_t>cover
                    return True
    return False


cdef bint find_big_fish(Solver *s) noexcept nogil:
    """Fish on 5 to N/2 lines, smallest first."""
    cdef int k
    for k in range(5, s.n // 2 + 1):
        if fish(s, k, BIG_FISH):
            return True
    return False


cdef void sort_ints(int32_t *a, int m) noexcept nogil:
    """Insertion sort: the lists sorted here are short."""
    cdef int i, j
    cdef int32_t x
    for i in range(1, m):
        x = a[i]
        j = i - 1
        while j >= 0 and a[j] > x:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = x


# ---------------------------------------------------------------------------------------
# Wings


cdef int common_peers(Solver *s, int a, int b, int also, int skip, int32_t *out) noexcept nogil:
    """Cells seeing both a and b (and `also` when >= 0), ascending, without `skip`."""
    cdef const Tables *t = s.t
    cdef int k, c, m = 0
    for k in range(t.npeers):
        c = t.peers[a * t.npeers + k]
        if c == skip or not sees(t, b, c):
            continue
        if also >= 0 and not sees(t, also, c):
            continue
        out[m] = c
        m += 1
    return m


cdef bint find_xy_wing(Solver *s) noexcept nogil:
    cdef const Tables *t = s.t
    cdef int pivot, k, nwings, i, j, a, b, m, q, z
    cdef uint64_t pc, ca, cb, zmask, c
    cdef int32_t *wings = s.list_a
    cdef int32_t *common = s.list_b
    for pivot in range(s.cells):
        pc = s.cand[pivot]
        if not is_pair(pc):
            continue
        nwings = 0
        for k in range(t.npeers):
            c = s.cand[t.peers[pivot * t.npeers + k]]
            if is_pair(c) and count_upto(c & pc, 2) == 1:
                wings[nwings] = t.peers[pivot * t.npeers + k]
                nwings += 1
        for i in range(nwings):
            a = wings[i]
            ca = s.cand[a]
            for j in range(i + 1, nwings):
                b = wings[j]
                cb = s.cand[b]
                zmask = ca & cb & ~pc
                if not zmask or (ca & pc) == (cb & pc) or (ca | cb | pc) != (pc | zmask):
                    continue
                m = common_peers(s, a, b, -1, pivot, common)
                step_begin(s, XY_WING)
                for q in range(m):
                    add_eliminations(s, common[q], zmask)
                if s.step.nelim:
                    z = digit_of(zmask)
                    add_cell(s, pivot)
                    add_cell(s, a)
                    add_cell(s, b)
                    add_digits(s, pc | zmask)
                    s.step.aux[0] = z
                    return True
    return False


cdef bint find_xyz_wing(Solver *s) noexcept nogil:
    cdef const Tables *t = s.t
    cdef int pivot, k, nwings, i, j, a, b, m, q, peer
    cdef uint64_t pc, zmask, c
    cdef int32_t *wings = s.list_a
    cdef int32_t *common = s.list_b
    for pivot in range(s.cells):
        pc = s.cand[pivot]
        if count_upto(pc, 4) != 3:
            continue
        nwings = 0
        for k in range(t.npeers):
            peer = t.peers[pivot * t.npeers + k]
            c = s.cand[peer]
            if is_pair(c) and not (c & ~pc):
                wings[nwings] = peer
                nwings += 1
        for i in range(nwings):
            a = wings[i]
            for j in range(i + 1, nwings):
                b = wings[j]
                zmask = s.cand[a] & s.cand[b]
                if count_upto(zmask, 2) != 1 or (s.cand[a] | s.cand[b]) != pc:
                    continue
                m = common_peers(s, pivot, a, b, -1, common)
                step_begin(s, XYZ_WING)
                for q in range(m):
                    add_eliminations(s, common[q], zmask)
                if s.step.nelim:
                    add_cell(s, pivot)
                    add_cell(s, a)
                    add_cell(s, b)
                    add_digits(s, pc)
                    s.step.aux[0] = digit_of(zmask)
                    return True
    return False


# ---------------------------------------------------------------------------------------
# Chains


cdef bint find_simple_colouring(Solver *s) noexcept nogil:
    cdef const Tables *t = s.t
    cdef int n = s.n
    cdef int d, u, i, a, b, nplaces, norder, o, start, head, size, cell, other, q, r
    cdef int side, nside, k, p, stamp0, stamp1, ntrapped
    cdef bint consistent
    cdef uint64_t bit
    cdef int32_t *component = s.list_a
    cdef int32_t *side_cells = s.list_b
    cdef int32_t *trapped = s.list_c
    for d in range(1, n + 1):
        bit = bit_of(d)
        for cell in range(s.cells):
            s.nlinks[cell] = 0
            s.colour[cell] = -1
            s.component_of[cell] = -1
        norder = 0
        for u in range(3 * n):
            nplaces = 0
            a = -1
            b = -1
            for i in range(n):
                cell = t.units[u * n + i]
                if s.cand[cell] & bit:
                    nplaces += 1
                    if nplaces == 1:
                        a = cell
                    elif nplaces == 2:
                        b = cell
                    else:
                        break
            if nplaces != 2:
                continue
            # `links` keeps first-insertion order of its keys, as a Python dict does.
            if s.nlinks[a] == 0:
                s.link_order[norder] = a
                norder += 1
            s.links[3 * a + s.nlinks[a]] = b
            s.nlinks[a] += 1
            if s.nlinks[b] == 0:
                s.link_order[norder] = b
                norder += 1
            s.links[3 * b + s.nlinks[b]] = a
            s.nlinks[b] += 1
        for o in range(norder):
            start = s.link_order[o]
            if s.colour[start] >= 0:
                continue
            s.colour[start] = 0
            s.component_of[start] = start
            component[0] = start
            size = 1
            consistent = True
            head = 0
            while head < size:  # breadth first, in insertion order
                cell = component[head]
                head += 1
                for q in range(s.nlinks[cell]):
                    other = s.links[3 * cell + q]
                    if s.colour[other] < 0:
                        s.colour[other] = 1 - s.colour[cell]
                        s.component_of[other] = start
                        component[size] = other
                        size += 1
                    elif s.colour[other] == s.colour[cell]:
                        consistent = False  # odd cycle: only on an impossible board
            if not consistent or size < 3:
                continue
            # Colour wrap: two cells of one colour see each other.
            for side in range(2):
                nside = 0
                for k in range(size):
                    if s.colour[component[k]] == side:
                        side_cells[nside] = component[k]
                        nside += 1
                for p in range(nside):
                    for r in range(p + 1, nside):
                        if sees(t, side_cells[p], side_cells[r]):
                            step_begin(s, SIMPLE_COLOURING)
                            for k in range(nside):
                                s.step.elim_cell[k] = side_cells[k]
                                s.step.elim_digit[k] = d
                            s.step.nelim = nside
                            for k in range(size):
                                add_cell(s, component[k])
                            sort_ints(s.step.cells, s.step.ncells)
                            s.step.digits[0] = d
                            s.step.ndigits = 1
                            s.step.aux[0] = 0
                            s.step.aux[1] = side_cells[p]
                            s.step.aux[2] = side_cells[r]
                            return True
            # Colour trap: a cell outside the component seeing both colours.
            stamp0 = next_stamp(s)
            stamp1 = next_stamp(s)
            for k in range(size):
                cell = component[k]
                for q in range(t.npeers):
                    other = t.peers[cell * t.npeers + q]
                    if s.colour[cell] == 0:
                        s.seen[other] = stamp0
                    else:
                        s.seen2[other] = stamp1
            ntrapped = 0
            for cell in range(s.cells):
                if (
                    s.seen[cell] == stamp0 and s.seen2[cell] == stamp1
                    and s.component_of[cell] != start and s.cand[cell] & bit
                ):
                    trapped[ntrapped] = cell
                    ntrapped += 1
            if ntrapped:
                step_begin(s, SIMPLE_COLOURING)
                for k in range(ntrapped):
                    s.step.elim_cell[k] = trapped[k]
                    s.step.elim_digit[k] = d
                s.step.nelim = ntrapped
                for k in range(size):
                    add_cell(s, component[k])
                sort_ints(s.step.cells, s.step.ncells)
                s.step.digits[0] = d
                s.step.ndigits = 1
                s.step.aux[0] = 1
                return True
    return False


cdef bint find_xy_chain(Solver *s) noexcept nogil:
    cdef const Tables *t = s.t
    cdef int n = s.n
    cdef int start, z, first, nfront, nnext, f, state, cell, forced, q, other, nxt_state
    cdef int m, k, walk, length, stamp, zd
    cdef uint64_t sc, zbit, oc, zs
    cdef int32_t *common = s.list_a
    cdef int32_t *chain = s.list_b
    cdef int32_t *swap
    for start in range(s.cells):
        sc = s.cand[start]
        if not is_pair(sc):
            continue
        zs = sc
        while zs:
            zbit = zs & (~zs + 1)
            zs &= zs - 1
            zd = bits_lowest_index(zbit)
            first = bits_lowest_index(sc & ~zbit)
            # A state is (cell, the digit it is forced to hold): cell * n + digit index.
            stamp = next_stamp(s)
            state = start * n + first
            s.visited[state] = stamp
            s.parent[state] = -1
            s.frontier[0] = state
            nfront = 1
            while nfront:
                nnext = 0
                for f in range(nfront):
                    state = s.frontier[f]
                    cell = state // n
                    forced = state % n
                    for q in range(t.npeers):
                        other = t.peers[cell * t.npeers + q]
                        oc = s.cand[other]
                        if not ((oc >> forced) & 1) or not is_pair(oc):
                            continue
                        nxt_state = other * n + bits_lowest_index(oc & ~((<uint64_t>1) << forced))
                        if s.visited[nxt_state] == stamp:
                            continue
                        s.visited[nxt_state] = stamp
                        s.parent[nxt_state] = state
                        s.next_frontier[nnext] = nxt_state
                        nnext += 1
                        if nxt_state % n != zd or other == start:
                            continue
                        m = common_peers(s, start, other, -1, -1, common)
                        step_begin(s, XY_CHAIN)
                        for k in range(m):
                            add_eliminations(s, common[k], zbit)
                        if not s.step.nelim:
                            continue
                        length = 0
                        walk = nxt_state
                        while walk >= 0:
                            chain[length] = walk // n
                            length += 1
                            walk = s.parent[walk]
                        for k in range(length):
                            add_cell(s, chain[length - 1 - k])
                        s.step.digits[0] = zd + 1
                        s.step.ndigits = 1
                        return True
                swap = s.frontier
                s.frontier = s.next_frontier
                s.next_frontier = swap
                nfront = nnext
    return False


# ---------------------------------------------------------------------------------------
# Trial and error


cdef inline bint push_pending(Solver *s, int *npending, int cell, int digit) noexcept nogil:
    cdef int32_t *grown
    if npending[0] == s.pending_cap:
        grown = <int32_t *>realloc(s.pending, 4 * s.pending_cap * sizeof(int32_t))
        if grown == NULL:
            return False
        s.pending = grown
        s.pending_cap *= 2
    s.pending[2 * npending[0]] = cell
    s.pending[2 * npending[0] + 1] = digit
    npending[0] += 1
    return True


cdef inline void mark_dirty(const Tables *t, uint8_t *dirty, int cell) noexcept nogil:
    dirty[t.cell_units[3 * cell]] = 1
    dirty[t.cell_units[3 * cell + 1]] = 1
    dirty[t.cell_units[3 * cell + 2]] = 1


cdef bint units_settled(const Solver *s) noexcept nogil:
    """No unit has a value with one place left, nor an unplaced value with none."""
    cdef int n = s.n
    cdef int u, i, cell
    cdef uint64_t placed, fits
    for u in range(3 * n):
        if s.ones[u]:
            return False
        placed = 0
        fits = 0
        for i in range(n):
            cell = s.t.units[u * n + i]
            if s.values[cell]:
                placed |= bit_of(s.values[cell])
            fits |= s.cand[cell]
        if (placed | fits) != s.all_digits:
            return False
    return True


cdef int singles_refute(
    Solver *s, int cell0, int digit0, int64_t *reason, bint settled
) noexcept nogil:
    """Assume digit0 in cell0 and follow naked and hidden singles on a copy.

    1 with the contradiction in `reason` (kind, then its numbers), 0 when singles run
    dry without one, -1 when memory ran out. Same order of work as `_singles_refute`.
    When the units are `settled` (see units_settled) before the assumption, a unit
    none of whose cells changed since it was last looked at can hold no hidden single
    nor a missing value, so the scans skip it: the same pushes, far fewer reads.
    """
    cdef const Tables *t = s.t
    cdef int n = s.n
    cdef uint64_t *cand = s.trial_cand
    cdef uint8_t *values = s.trial_values
    cdef uint8_t *dirty = s.trial_dirty
    cdef int npending = 0
    cdef int c, d, k, peer, u, i
    cdef uint64_t bit, pc, once, twice, placed, missing, only, hit
    memcpy(cand, s.cand, s.cells * sizeof(uint64_t))
    memcpy(values, s.values, s.cells)
    memset(dirty, 0 if settled else 1, 3 * n)
    push_pending(s, &npending, cell0, digit0)
    while npending:
        while npending:
            npending -= 1
            c = s.pending[2 * npending]
            d = s.pending[2 * npending + 1]
            if values[c]:
                if values[c] != d:
                    reason[0] = CLASH_VALUE
                    reason[1] = c
                    reason[2] = values[c]
                    reason[3] = d
                    return 1
                continue
            bit = bit_of(d)
            if not (cand[c] & bit):
                reason[0] = CLASH_CANDIDATE
                reason[1] = c
                reason[2] = d
                return 1
            values[c] = d
            cand[c] = 0
            mark_dirty(t, dirty, c)
            for k in range(t.npeers):
                peer = t.peers[c * t.npeers + k]
                pc = cand[peer]
                if pc & bit:
                    pc &= ~bit
                    cand[peer] = pc
                    mark_dirty(t, dirty, peer)
                    if not pc:
                        reason[0] = CLASH_EMPTY
                        reason[1] = peer
                        return 1
                    if not (pc & (pc - 1)):
                        if not push_pending(s, &npending, peer, digit_of(pc)):
                            return -1
        for u in range(3 * n):
            if not dirty[u]:
                continue
            dirty[u] = 0
            once = 0
            twice = 0
            placed = 0
            for i in range(n):
                c = t.units[u * n + i]
                pc = cand[c]
                twice |= once & pc
                once |= pc
                if values[c]:
                    placed |= bit_of(values[c])
            missing = s.all_digits & ~placed & ~once
            if missing:
                reason[0] = CLASH_NO_PLACE
                reason[1] = bits_highest_index(missing) + 1
                reason[2] = u
                return 1
            only = once & ~twice
            if only:
                for i in range(n):
                    c = t.units[u * n + i]
                    hit = cand[c] & only
                    while hit:
                        if not push_pending(s, &npending, c, bits_lowest_index(hit) + 1):
                            return -1
                        hit &= hit - 1
    return 0


cdef int find_trial_and_error(Solver *s) noexcept nogil:
    """1 when a step was found, 0 when none, -1 when memory ran out."""
    cdef int count = 0
    cdef int cell, i, j, key, outcome, digit
    cdef int32_t *order = s.order
    cdef int32_t *keys = s.list_c
    cdef uint64_t c
    cdef int64_t reason[4]
    cdef bint settled = units_settled(s)
    # Cells with the fewest candidates first, then by position: a stable insertion
    # by candidate count gives exactly sorted((popcount, cell)).
    for cell in range(s.cells):
        if s.cand[cell]:
            key = bits_popcount(s.cand[cell])
            j = count
            while j > 0 and keys[j - 1] > key:
                order[j] = order[j - 1]
                keys[j] = keys[j - 1]
                j -= 1
            order[j] = cell
            keys[j] = key
            count += 1
    for i in range(count):
        cell = order[i]
        c = s.cand[cell]
        while c:
            digit = bits_lowest_index(c) + 1
            c &= c - 1
            reason[0] = 0
            reason[1] = 0
            reason[2] = 0
            reason[3] = 0
            outcome = singles_refute(s, cell, digit, reason, settled)
            if outcome < 0:
                return -1
            if outcome:
                step_begin(s, TRIAL_AND_ERROR)
                add_cell(s, cell)
                s.step.digits[0] = digit
                s.step.ndigits = 1
                s.step.elim_cell[0] = cell
                s.step.elim_digit[0] = digit
                s.step.nelim = 1
                s.step.aux[0] = reason[0]
                s.step.aux[1] = reason[1]
                s.step.aux[2] = reason[2]
                s.step.aux[3] = reason[3]
                return 1
    return 0


cdef bint reveal(Solver *s, const uint8_t *solution) noexcept nogil:
    """The "guess" step: the solution digit of an open cell with the fewest candidates."""
    cdef int cell, best = -1, best_count = 65, k
    for cell in range(s.cells):
        if s.values[cell]:
            continue
        k = bits_popcount(s.cand[cell])
        if k < best_count:
            best = cell
            best_count = k
    if best < 0:
        return False
    step_place(s, GUESS, best, solution[best])
    s.step.aux[0] = <int64_t>s.cand[best]
    return True


# ---------------------------------------------------------------------------------------
# The step loop


cdef int next_step(Solver *s, int max_level, int min_level) noexcept nogil:
    """The easiest deduction of levels min_level..max_level: 1 found, 0 none, -1 no memory."""
    cdef int tech, found
    for tech in range(TECHNIQUE_COUNT):
        if LEVELS[tech] < min_level:
            continue
        if LEVELS[tech] > max_level:
            break
        if tech == FULL_HOUSE:
            found = find_full_house(s)
        elif tech == HIDDEN_SINGLE:
            found = find_hidden_single(s)
        elif tech == NAKED_SINGLE:
            found = find_naked_single(s)
        elif tech == POINTING:
            found = locked_candidates(s, 2 * s.n, 3 * s.n, True, POINTING)
        elif tech == CLAIMING:
            found = locked_candidates(s, 0, 2 * s.n, False, CLAIMING)
        elif tech == NAKED_PAIR:
            found = naked_subset(s, 2, NAKED_PAIR)
        elif tech == HIDDEN_PAIR:
            found = hidden_subset(s, 2, HIDDEN_PAIR)
        elif tech == NAKED_TRIPLE:
            found = naked_subset(s, 3, NAKED_TRIPLE)
        elif tech == HIDDEN_TRIPLE:
            found = hidden_subset(s, 3, HIDDEN_TRIPLE)
        elif tech == X_WING:
            found = fish(s, 2, X_WING)
        elif tech == SWORDFISH:
            found = fish(s, 3, SWORDFISH)
        elif tech == XY_WING:
            found = find_xy_wing(s)
        elif tech == XYZ_WING:
            found = find_xyz_wing(s)
        elif tech == SIMPLE_COLOURING:
            found = find_simple_colouring(s)
        elif tech == XY_CHAIN:
            found = find_xy_chain(s)
        elif tech == NAKED_QUAD:
            found = naked_subset(s, 4, NAKED_QUAD)
        elif tech == HIDDEN_QUAD:
            found = hidden_subset(s, 4, HIDDEN_QUAD)
        elif tech == JELLYFISH:
            found = fish(s, 4, JELLYFISH)
        elif tech == BIG_FISH:
            found = find_big_fish(s)
        else:
            found = find_trial_and_error(s)
        if found:
            return found
    return 0


cdef void fill_singles(Solver *s) noexcept nogil:
    """Place every naked and hidden single, repeatedly (as LogicSolver.fill_singles)."""
    cdef const Tables *t = s.t
    cdef int n = s.n
    cdef int cell, u, i
    cdef uint64_t c, once, twice, only, hit
    cdef bint progress = True
    while progress:
        progress = False
        for cell in range(s.cells):
            c = s.cand[cell]
            if c and not (c & (c - 1)):
                place(s, cell, digit_of(c))
                progress = True
        for u in range(3 * n):
            once = 0
            twice = 0
            for i in range(n):
                c = s.cand[t.units[u * n + i]]
                twice |= once & c
                once |= c
            only = once & ~twice
            if not only:
                continue
            for i in range(n):
                cell = t.units[u * n + i]
                hit = s.cand[cell] & only
                if hit:
                    place(s, cell, digit_of(hit & (~hit + 1)))
                    progress = True


cdef int level_of_loaded(Solver *s, int max_level) noexcept nogil:
    cdef int level = 1, found
    while True:
        fill_singles(s)
        if is_solved(s):
            return level
        found = next_step(s, max_level, 2)
        if found < 0:
            return SOLVE_NO_MEMORY
        if not found:
            return max_level + 1
        if LEVELS[s.step.tech] > level:
            level = LEVELS[s.step.tech]
        apply_step(s)


cdef int level_within(const Tables *t, const uint8_t *values, int max_level) noexcept nogil:
    cdef Solver s
    cdef int outcome
    if not solver_init(&s, t):
        return SOLVE_NO_MEMORY
    outcome = solver_load(&s, values)
    if outcome == SOLVE_OK:
        outcome = level_of_loaded(&s, max_level)
    solver_free(&s)
    return outcome


cdef int rate_loaded(Solver *s, const uint8_t *solution, int32_t *counts) noexcept nogil:
    """Solve logically to the end, guessing from `solution` when stuck; count each step."""
    cdef int found
    while not is_solved(s):
        found = next_step(s, 5, 1)
        if found < 0:
            return SOLVE_NO_MEMORY
        if not found:
            if not reveal(s, solution) or not solution[s.step.place_cell]:
                return SOLVE_STUCK
        counts[s.step.tech] += 1
        apply_step(s)
    return SOLVE_OK


# ---------------------------------------------------------------------------------------
# Python entry points


def rate_range(
    LogicTables tables,
    const uint8_t[::1] grids,
    const uint8_t[::1] solutions,
    int32_t[::1] counts,
    Py_ssize_t start,
    Py_ssize_t stop,
    int32_t[::1] summary=None,
):
    """Rate puzzles start..stop-1: counts[i*SLOTS + technique] = times it was used.

    `grids` and `solutions` hold N*N values per puzzle. A puzzle that cannot be rated
    gets a negative first slot: CONTRADICTION, NO_MEMORY or STUCK (its solution does
    not fit its candidates: not a unique puzzle). With `summary`, summary[2*i] is the
    hardest technique used (highest level, then latest in the order; -1 for none) and
    summary[2*i + 1] the number of clues, so the caller need not work them out per
    puzzle in Python.
    """
    cdef const Tables *t = &tables.t
    cdef Py_ssize_t cells = t.cells
    cdef Py_ssize_t i, cell
    cdef int outcome, tech, hardest, clues
    cdef Solver s
    if summary is not None and summary.shape[0] < 2 * stop:
        raise ValueError("summary must hold 2 ints per puzzle")
    if stop <= start:
        return
    if grids.shape[0] < stop * cells or solutions.shape[0] < stop * cells:
        raise ValueError("grids and solutions must hold N*N values per puzzle")
    if counts.shape[0] < stop * COUNT_SLOTS:
        raise ValueError("counts must hold SLOTS ints per puzzle")
    with nogil:
        if not solver_init(&s, t):
            for i in range(start, stop):
                counts[i * COUNT_SLOTS] = SOLVE_NO_MEMORY
        else:
            for i in range(start, stop):
                memset(&counts[i * COUNT_SLOTS], 0, COUNT_SLOTS * sizeof(int32_t))
                outcome = solver_load(&s, &grids[i * cells])
                if outcome == SOLVE_OK:
                    outcome = rate_loaded(&s, &solutions[i * cells], &counts[i * COUNT_SLOTS])
                if outcome != SOLVE_OK:
                    counts[i * COUNT_SLOTS] = outcome
                if summary is None:
                    continue
                hardest = -1
                for tech in range(COUNT_SLOTS):
                    if counts[i * COUNT_SLOTS + tech] > 0 and (
                        hardest < 0 or LEVELS[tech] >= LEVELS[hardest]
                    ):
                        hardest = tech
                clues = 0
                for cell in range(cells):
                    clues += grids[i * cells + cell] != 0
                summary[2 * i] = hardest
                summary[2 * i + 1] = clues
            solver_free(&s)


def build_ratings(
    type rating,
    list out,
    const int32_t[::1] counts,
    const int32_t[::1] summary,
    const int64_t[::1] guesses,
    const int64_t[::1] nodes,
    tuple names,
    tuple levels,
    tuple level_names,
    Py_ssize_t start,
    Py_ssize_t stop,
    const int32_t[::1] scores=None,
    tuple score_names=None,
    int score_slots=0,
    int score_ok=0,
):
    """Build the `rating` objects of puzzles start..stop-1 into out[i]; return the
    indices that could not be rated (a negative first count slot or score status).

    Reads what `rate_range` wrote (`counts`, `summary`) and the engine's figures;
    `names[t]` and `levels[t]` are technique t's name and level, `level_names[l]` the
    name of level l. With `scores` (the SE rater's output, `score_slots` ints per
    puzzle: tenths, technique, steps, status) the score fields are filled too.

    The objects are made without calling `rating.__init__`: its fields are set
    directly, which builds an object equal to the one the dataclass constructor
    makes (it has no checks or post-init) in a fraction of the time this loop would
    spend under the GIL as Python code. `rating_objects` in
    `rating.py` is the plain-Python twin that tests compare with.
    """
    cdef Py_ssize_t i, tech, base
    cdef int hardest, level, tenths, status
    cdef dict used
    cdef list failed = []
    if counts.shape[0] < stop * COUNT_SLOTS or summary.shape[0] < 2 * stop:
        raise ValueError("counts and summary must cover the range")
    if guesses.shape[0] < stop or nodes.shape[0] < stop or len(out) < stop:
        raise ValueError("guesses, nodes and out must cover the range")
    if len(names) != COUNT_SLOTS or len(levels) != COUNT_SLOTS:
        raise ValueError("names and levels must hold one entry per technique")
    if scores is not None and (score_slots < 4 or scores.shape[0] < stop * score_slots):
        raise ValueError("scores must hold score_slots >= 4 ints per puzzle")
    for i in range(start, stop):
        base = i * COUNT_SLOTS
        if counts[base] < 0:
            failed.append(i)
            continue
        used = {}
        for tech in range(COUNT_SLOTS):
            if counts[base + tech] > 0:
                used[names[tech]] = counts[base + tech]
        hardest = summary[2 * i]
        level = levels[hardest] if hardest >= 0 else 1
        obj = rating.__new__(rating)
        # Generic attribute setting skips the frozen class's __setattr__ and keeps the
        # instance's attributes in its compact inline storage (no separate dict).
        PyObject_GenericSetAttr(obj, "level", level)
        PyObject_GenericSetAttr(obj, "name", level_names[level])
        PyObject_GenericSetAttr(obj, "hardest", names[hardest] if hardest >= 0 else "none")
        PyObject_GenericSetAttr(obj, "counts", used)
        PyObject_GenericSetAttr(obj, "clues", summary[2 * i + 1])
        PyObject_GenericSetAttr(obj, "engine_guesses", guesses[i])
        PyObject_GenericSetAttr(obj, "engine_nodes", nodes[i])
        if scores is None:
            PyObject_GenericSetAttr(obj, "score", None)
            PyObject_GenericSetAttr(obj, "score_technique", "")
            PyObject_GenericSetAttr(obj, "score_complete", True)
        else:
            tenths = scores[i * score_slots]
            tech = scores[i * score_slots + 1]
            status = scores[i * score_slots + 3]
            if status < 0:
                failed.append(i)
                continue
            PyObject_GenericSetAttr(obj, "score", tenths / 10.0)
            PyObject_GenericSetAttr(
                obj, "score_technique", score_names[tech] if tech >= 0 else "none"
            )
            PyObject_GenericSetAttr(obj, "score_complete", status == score_ok)
        out[i] = obj
    return failed


cdef tuple step_record(const Solver *s):
    cdef const Step *st = &s.step
    cdef int k
    return (
        st.tech,
        tuple([st.cells[k] for k in range(st.ncells)]),
        tuple([st.digits[k] for k in range(st.ndigits)]),
        ((st.place_cell, st.place_digit),) if st.nplace else (),
        tuple([(st.elim_cell[k], st.elim_digit[k]) for k in range(st.nelim)]),
        (st.aux[0], st.aux[1], st.aux[2], st.aux[3]),
    )


@cython.auto_pickle(False)
cdef class _Owned:
    """A Solver whose memory is freed with the Python object."""

    cdef Solver s
    cdef bint ready

    def __cinit__(self, LogicTables tables):
        self.ready = solver_init(&self.s, &tables.t)
        if not self.ready:
            raise MemoryError()

    def __dealloc__(self):
        if self.ready:
            solver_free(&self.s)


cdef _Owned _loaded(LogicTables tables, const uint8_t[::1] values):
    if values.shape[0] != tables.t.cells:
        raise ValueError(f"expected {tables.t.cells} values, got {values.shape[0]}")
    owned = _Owned(tables)
    if solver_load(&owned.s, &values[0]) != SOLVE_OK:
        raise ValueError("two equal values share a unit")
    return owned


def solve_steps(LogicTables tables, const uint8_t[::1] values, const uint8_t[::1] solution):
    """Every step from `values` to `solution` as records (see `logic.hint_from_record`)."""
    cdef _Owned owned = _loaded(tables, values)
    cdef Solver *s = &owned.s
    cdef int found
    if solution.shape[0] != tables.t.cells:
        raise ValueError(f"expected {tables.t.cells} solution values, got {solution.shape[0]}")
    records = []
    while not is_solved(s):
        with nogil:
            found = next_step(s, 5, 1)
        if found < 0:
            raise MemoryError()
        if not found and (not reveal(s, &solution[0]) or not solution[s.step.place_cell]):
            raise ValueError("the solution does not fit the candidates")
        records.append(step_record(s))
        apply_step(s)
    return records


def find_step(
    LogicTables tables,
    const uint8_t[::1] values,
    const uint64_t[::1] allowed,
    const uint8_t[::1] solution=None,
    int max_level=5,
    int min_level=1,
):
    """The easiest step from `values`, each cell's candidates narrowed to `allowed`.

    Returns a record (see `logic.hint_from_record`); when no technique of levels
    min_level..max_level applies, the "guess" step revealing a cell of `solution`, or
    None without a solution.
    """
    cdef _Owned owned = _loaded(tables, values)
    cdef Solver *s = &owned.s
    cdef int cell, found
    if allowed.shape[0] != tables.t.cells:
        raise ValueError(f"expected {tables.t.cells} masks, got {allowed.shape[0]}")
    if solution is not None and solution.shape[0] != tables.t.cells:
        raise ValueError(f"expected {tables.t.cells} solution values, got {solution.shape[0]}")
    for cell in range(s.cells):
        remove_candidates(s, cell, ~allowed[cell])
    with nogil:
        found = next_step(s, max_level, min_level)
    if found < 0:
        raise MemoryError()
    if not found:
        if solution is None or not reveal(s, &solution[0]):
            return None
    return step_record(s)


def level_within_range(
    LogicTables tables,
    const uint8_t[::1] grids,
    int max_level,
    int32_t[::1] levels,
    Py_ssize_t start,
    Py_ssize_t stop,
):
    """levels[i] = the level of puzzle i if at most max_level, else max_level + 1."""
    cdef const Tables *t = &tables.t
    cdef Py_ssize_t cells = t.cells
    cdef Py_ssize_t i
    if stop <= start:
        return
    if grids.shape[0] < stop * cells or levels.shape[0] < stop:
        raise ValueError("buffers too small for the range")
    with nogil:
        for i in range(start, stop):
            levels[i] = level_within(t, &grids[i * cells], max_level)
