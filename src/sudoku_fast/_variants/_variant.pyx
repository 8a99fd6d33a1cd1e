# cython: language_level=3
# Every other directive is set once for all modules in setup.py.
"""The variant engine: grids up to 11x11 (121 cells) under any rule set of `Rules`.

The state is digit-major: for each digit d a 128-bit board (two 64-bit words, cell c
at bit c) of the cells where d is still possible, plus a board of the cells already
placed. A placed cell keeps its digit's bit, so every cell of a live state has at least
one bit over the digits, and a state is dead as soon as some cell has none.

Placing d at c clears c from every other digit's board and the cell's peers (unit
mates, partial-set and cage mates, knight / king moves) from d's board; under the
non-consecutive rule d-1 and d+1 also leave the orthogonal neighbours. Only the cells
whose candidates really change are marked dirty, per digit for the units and for the
cages. Propagation then alternates:

* naked singles and empty cells, from bit-sliced counts over the digit boards (cells in
  one digit board and no second one);
* hidden singles and "no place left" per complete unit and digit (an AND of two words
  and a test for zero / one bit), only in the units of the cells where that digit's
  board changed (each cell's units are one 64-bit set) and where it is not placed yet;
* locked candidates, only where some unit is irregular (jigsaw regions): a digit's
  places in a unit that all lie in a second unit are its only places there too, looked
  at in the units where its board changed since the last look;
* killer cages: the digit sets of the cage's size and sum (a table built at import)
  that keep the placed digits, fit the union of the cells' candidates and meet every
  cell are the feasible ones; digits in none of them leave the cage, and a digit in all
  of them with one cell left for it is placed there (a cage whose cells are all
  placed is checked by one more pass, on its digits' count and sum alone, then left
  alone down that branch). The rule of
  45 adds cages of its own when the tables are built: a unit's cells outside the
  cages inside it (innies), and the cells outside it of the cages that cover it
  (outies) when they see each other, with the sums the unit's total leaves them;
* thermometers: lower bounds from the bulb up and upper bounds from the tip down.

Search branches on the first open cell with the fewest candidates (bit-sliced counts
again), trying its digits in order on a copy of the state (576 bytes), depth
first; a count stops at its limit.

Rules arrive per puzzle as a record of int16 words (see `_variants/encode.py`); the
tables a record describes are built inside the GIL-free loop, again only when the next
puzzle's record starts elsewhere, so a batch under one rule set builds them once; a
record that begins with the same grid, units and partial sets as the last one built
(killers on one grid) rebuilds only its cages onwards.
Tables and state live in the call's own memory: the module keeps nothing mutable, and
any number of threads may run it at once.
"""

cimport cython
from cpython cimport array as carray
from cpython.ref cimport PyObject
from cpython.sequence cimport PySequence_Fast_ITEMS
from libc.stdint cimport int16_t, int32_t, int64_t, uint8_t, uint16_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcmp, memcpy, memset

from sudoku_fast._base.bits cimport bits_highest_index, bits_lowest_index, bits_popcount
from sudoku_fast._base.clock cimport clock_nanos, elapsed, measurement_overhead
from sudoku_fast._engine._atomic cimport sudoku_fast_claim, sudoku_fast_published
from sudoku_fast._engine._plain cimport encode_plain
from sudoku_fast._base.stop cimport Stop, flag_set, poll, raise_saved, signals_due, stop_init

import array
import threading

cdef enum:
    MAX_N = 11
    MAX_CELLS = 121
    MAX_UNITS = 128
    MAX_CAGES = 128
    MAX_THERMOS = 128
    SUM_KEYS = 67  # sums 0..66 of digits 1..11
    CHECK_EVERY = 256  # nodes between looks at the stop flag and at signals
    SIGNAL_LOOK = 8    # puzzles of a range between two looks at the clock of signals_due
    COUNT_EXHAUSTED = -1
    COUNT_STOPPED = -2
    EMPTY_UNIT = 63  # no cell; past every unit of a table with locked candidates

MAX_SIZE = MAX_N
LIMITS = {
    "units": MAX_UNITS,
    "cages": MAX_CAGES,
    "thermos": MAX_THERMOS,
}
BUDGET_EXHAUSTED = COUNT_EXHAUSTED
STOPPED = COUNT_STOPPED
cdef carray.array _INT_TEMPLATE = array.array("i")
cdef carray.array _INT64_TEMPLATE = array.array("q")

# Digit sets (bit d-1 = digit d) grouped by (size k, sum S), each group in increasing
# mask order: the sets of digits 1..N are then a prefix of the group (masks < 1 << N).
cdef uint16_t COMBOS[2048]
cdef int32_t COMBO_START[12 * SUM_KEYS + 1]
# MASK_SUM[mask]: the sum of the digits of a digit set
cdef uint8_t MASK_SUM[2048]
# COMBO_STOP[n][key]: the end of the prefix of group `key` made of digits 1..n
cdef int32_t COMBO_STOP[MAX_N + 1][12 * SUM_KEYS]
# row and column of cell c of an n x n grid: ROW_OF[n][c], COL_OF[n][c]
cdef uint8_t ROW_OF[MAX_N + 1][MAX_CELLS]
cdef uint8_t COL_OF[MAX_N + 1][MAX_CELLS]


cdef void _build_combos():
    cdef int fill[12 * SUM_KEYS]
    cdef int mask, d, k, total, key, n, end, c
    memset(COMBO_START, 0, sizeof(COMBO_START))
    for mask in range(2048):
        k = bits_popcount(mask)
        total = 0
        for d in range(11):
            if mask >> d & 1:
                total += d + 1
        COMBO_START[k * SUM_KEYS + total + 1] += 1
    for key in range(12 * SUM_KEYS):
        COMBO_START[key + 1] += COMBO_START[key]
        fill[key] = COMBO_START[key]
    for mask in range(2048):
        k = bits_popcount(mask)
        total = 0
        for d in range(11):
            if mask >> d & 1:
                total += d + 1
        key = k * SUM_KEYS + total
        COMBOS[fill[key]] = <uint16_t>mask
        MASK_SUM[mask] = <uint8_t>total
        fill[key] += 1
    for n in range(MAX_N + 1):
        for key in range(12 * SUM_KEYS):
            end = COMBO_START[key]
            while end < COMBO_START[key + 1] and COMBOS[end] < (1 << n):
                end += 1
            COMBO_STOP[n][key] = end
        for c in range(n * n):
            ROW_OF[n][c] = <uint8_t>(c // n)
            COL_OF[n][c] = <uint8_t>(c % n)


_build_combos()


ctypedef struct Table:
    int n
    int cells
    uint64_t all[2]
    int n_units
    uint64_t unit[2 * MAX_UNITS]
    uint64_t peer[2 * MAX_CELLS]
    bint by_cell  # n_units <= 64: cell_units[c] has bit u set when cell c is in unit u
    bint locked  # look for locked candidates (some unit is irregular, under 64 units: see build_table)
    uint64_t cell_units[MAX_CELLS]
    bint nonconsec
    uint64_t neigh[2 * MAX_CELLS]
    int n_cages
    int16_t cage_len[MAX_CAGES]
    int16_t cage_cells[MAX_CAGES * MAX_N]
    uint64_t cage_mask[2 * MAX_CAGES]
    uint64_t cell_cages[2 * MAX_CELLS]  # per cell, the cages holding it (bit k % 64 of word k // 64)
    int16_t cage_sum[MAX_CAGES]
    int32_t combo_start[MAX_CAGES]
    int32_t combo_end[MAX_CAGES]
    int n_thermos
    int16_t thermo_len[MAX_THERMOS]
    int16_t thermo_cells[MAX_THERMOS * MAX_N]
    uint64_t thermo_mask[2 * MAX_THERMOS]
    # The record whose grid, units and partial sets (its first base_len words) the
    # tables hold, and the peers those alone give: a next record starting with the
    # same words (a batch of killers on one grid) only rebuilds cages onwards.
    const int16_t *base_rec  # NULL: none yet
    Py_ssize_t base_len
    uint64_t base_peer[2 * MAX_CELLS]


ctypedef struct State:
    uint64_t cand[2 * MAX_N]  # per digit, the cells where it is possible (or placed)
    uint64_t solved[2]
    uint64_t dirty[2 * MAX_N]  # per digit, cells changed since its last hidden-single sweep
    uint64_t cdirty[2]  # cells changed since the last cage / thermometer pass
    uint64_t done[MAX_N]  # per digit, the units where it is placed (when Table.by_cell)
    uint64_t locked[MAX_N]  # per digit, the units changed since its last locked-candidates look
    uint64_t cages_done[2]  # cages whose cells were all placed at a pass that kept them (bit k % 64 of word k // 64)
    # with Table.by_cell: per digit, units to sweep for hidden singles besides those of
    # its dirty cells (a placed cell's units, for the digits it loses)
    uint64_t hunits[MAX_N]


ctypedef struct Search:
    int limit
    int count
    int64_t nodes
    int64_t guesses
    int64_t max_nodes
    bint out_of_nodes
    Stop *stop
    uint8_t *solution


cdef inline uint64_t bit_of(int c) noexcept nogil:
    return (<uint64_t>1) << (c & 63)


cdef inline void add_cell(uint64_t *mask, int c) noexcept nogil:
    mask[c >> 6] |= bit_of(c)


cdef int build_table(const int16_t *rec, Py_ssize_t avail, Table *t) noexcept nogil:
    """Fill `t` from a record; -1 when the record is malformed (cut short, too big)."""
    cdef Py_ssize_t pos = 0
    cdef int n, cells, count, k, i, j, c, length
    cdef int rows, cols
    cdef uint64_t m[2]
    cdef uint64_t once, twice
    if avail < 3:
        return -1
    if (
        t.base_rec != NULL
        and avail >= t.base_len
        and memcmp(rec, t.base_rec, t.base_len * sizeof(int16_t)) == 0
    ):
        memcpy(t.peer, t.base_peer, 2 * t.cells * sizeof(uint64_t))
        return build_cages(rec, t.base_len, avail, t)
    t.base_rec = NULL
    n = rec[0]
    if n < 1 or n > MAX_N:
        return -1
    cells = n * n
    t.n = n
    t.cells = cells
    t.all[0] = ~(<uint64_t>0) if cells >= 64 else ((<uint64_t>1) << cells) - 1
    t.all[1] = ((<uint64_t>1) << (cells - 64)) - 1 if cells > 64 else 0
    memset(t.peer, 0, sizeof(t.peer))
    memset(t.neigh, 0, sizeof(t.neigh))
    pos = 2
    # complete units
    count = rec[pos]
    pos += 1
    if count < 0 or count > MAX_UNITS or pos + count * n > avail:
        return -1
    t.n_units = count
    t.by_cell = count <= 64
    t.locked = False
    memset(t.cell_units, 0, sizeof(t.cell_units))
    for k in range(count):
        m[0] = m[1] = 0
        rows = cols = 0
        for i in range(n):
            c = rec[pos + i]
            if c < 0 or c >= cells:
                return -1
            add_cell(m, c)
        for i in range(n):
            c = rec[pos + i]
            t.peer[2 * c] |= m[0]
            t.peer[2 * c + 1] |= m[1]
            if t.by_cell:
                t.cell_units[c] |= (<uint64_t>1) << k
        t.unit[2 * k] = m[0]
        t.unit[2 * k + 1] = m[1]
        pos += n
    # Locked candidates cut the search of jigsaws several times over but cost more
    # than they save where every unit is a line (row, column, diagonal) or a block
    # (boxes, windoku windows, disjoint groups): there they are left out. The units
    # are looked at from the last, where a jigsaw's regions come after its lines.
    k = count
    while count < 64 and not t.locked and k > 0:
        k -= 1
        rows = cols = 0
        for i in range(n):
            c = rec[pos - (count - k) * n + i]
            rows |= 1 << ROW_OF[n][c]
            cols |= 1 << COL_OF[n][c]
        i = bits_popcount(rows)
        j = bits_popcount(cols)
        t.locked = i != n and j != n and i * j != n
    if t.locked:
        t.unit[2 * EMPTY_UNIT] = t.unit[2 * EMPTY_UNIT + 1] = 0
    # partial all-different sets
    if pos >= avail:
        return -1
    count = rec[pos]
    pos += 1
    for k in range(count):
        if pos >= avail:
            return -1
        length = rec[pos]
        pos += 1
        if length < 0 or pos + length > avail:
            return -1
        m[0] = m[1] = 0
        for i in range(length):
            c = rec[pos + i]
            if c < 0 or c >= cells:
                return -1
            add_cell(m, c)
        for i in range(length):
            c = rec[pos + i]
            t.peer[2 * c] |= m[0]
            t.peer[2 * c + 1] |= m[1]
        pos += length
    t.base_rec = rec
    t.base_len = pos
    memcpy(t.base_peer, t.peer, 2 * cells * sizeof(uint64_t))
    return build_cages(rec, pos, avail, t)


cdef int build_cages(const int16_t *rec, Py_ssize_t pos, Py_ssize_t avail, Table *t) noexcept nogil:
    """`build_table` from the cages on (rec[pos:]), over the grid, units and partial
    sets already in `t`."""
    cdef int n = t.n, cells = t.cells, flags = rec[1]
    cdef int count, k, i, j, c, r, col, rr, cc, length, total
    cdef uint64_t m[2]
    cdef int knight[8][2]
    cdef int king[8][2]
    # cages with a sum
    if pos >= avail:
        return -1
    count = rec[pos]
    pos += 1
    if count < 0 or count > MAX_CAGES:
        return -1
    t.n_cages = count
    for k in range(count):
        if pos + 2 > avail:
            return -1
        length = rec[pos]
        total = rec[pos + 1]
        pos += 2
        if length < 1 or length > n or pos + length > avail or total < 0 or total >= SUM_KEYS:
            return -1
        m[0] = m[1] = 0
        for i in range(length):
            c = rec[pos + i]
            if c < 0 or c >= cells:
                return -1
            add_cell(m, c)
            t.cage_cells[k * MAX_N + i] = <int16_t>c
        for i in range(length):
            c = rec[pos + i]
            t.peer[2 * c] |= m[0]
            t.peer[2 * c + 1] |= m[1]
        t.cage_len[k] = <int16_t>length
        t.cage_sum[k] = <int16_t>total
        t.cage_mask[2 * k] = m[0]
        t.cage_mask[2 * k + 1] = m[1]
        set_sum(t, k, length, total)
        pos += length
    # thermometers
    if pos >= avail:
        return -1
    count = rec[pos]
    pos += 1
    if count < 0 or count > MAX_THERMOS:
        return -1
    t.n_thermos = count
    for k in range(count):
        if pos >= avail:
            return -1
        length = rec[pos]
        pos += 1
        if length < 1 or length > n or pos + length > avail:
            return -1
        m[0] = m[1] = 0
        for i in range(length):
            c = rec[pos + i]
            if c < 0 or c >= cells:
                return -1
            add_cell(m, c)
            t.thermo_cells[k * MAX_N + i] = <int16_t>c
        t.thermo_len[k] = <int16_t>length
        t.thermo_mask[2 * k] = m[0]
        t.thermo_mask[2 * k + 1] = m[1]
        pos += length
    # knight and king moves; orthogonal neighbours
    k = 0
    for i in range(-2, 3):
        for j in range(-2, 3):
            if i != 0 and j != 0 and i != j and i != -j:
                knight[k][0] = i
                knight[k][1] = j
                k += 1
    k = 0
    for i in range(-1, 2):
        for j in range(-1, 2):
            if i != 0 or j != 0:
                king[k][0] = i
                king[k][1] = j
                k += 1
    t.nonconsec = (flags & 4) != 0
    for r in range(n if flags & 7 else 0):
        for col in range(n):
            c = r * n + col
            for k in range(8):
                if flags & 1:
                    rr = r + knight[k][0]
                    cc = col + knight[k][1]
                    if 0 <= rr < n and 0 <= cc < n:
                        add_cell(&t.peer[2 * c], rr * n + cc)
                if flags & 2:
                    rr = r + king[k][0]
                    cc = col + king[k][1]
                    if 0 <= rr < n and 0 <= cc < n:
                        add_cell(&t.peer[2 * c], rr * n + cc)
            if t.nonconsec:
                if r > 0:
                    add_cell(&t.neigh[2 * c], c - n)
                if r + 1 < n:
                    add_cell(&t.neigh[2 * c], c + n)
                if col > 0:
                    add_cell(&t.neigh[2 * c], c - 1)
                if col + 1 < n:
                    add_cell(&t.neigh[2 * c], c + 1)
    for c in range(cells):
        t.peer[2 * c + (c >> 6)] &= ~bit_of(c)
    if t.n_cages:
        add_unit_sums(t)
        memset(t.cell_cages, 0, sizeof(t.cell_cages))
        for k in range(t.n_cages):
            for i in range(t.cage_len[k]):
                c = t.cage_cells[k * MAX_N + i]
                t.cell_cages[2 * c + (k >> 6)] |= bit_of(k)
    return 0


cdef void set_sum(Table *t, int k, int length, int total) noexcept nogil:
    """Cage k's digit sets: those of `length` digits 1..N adding up to `total` (none
    when no such set exists)."""
    cdef int key
    if total < 0 or total >= SUM_KEYS:
        t.combo_start[k] = t.combo_end[k] = 0
        return
    key = length * SUM_KEYS + total
    t.combo_start[k] = COMBO_START[key]
    t.combo_end[k] = COMBO_STOP[t.n][key]


cdef bint all_peers(const Table *t, const uint64_t *m) noexcept nogil:
    """Whether the cells of `m` (two words) see each other pairwise."""
    cdef int w, c
    cdef uint64_t x
    for w in range(2):
        x = m[w]
        while x:
            c = 64 * w + bits_lowest_index(x)
            x &= x - 1
            if (m[0] & ~t.peer[2 * c] & ~(bit_of(c) if w == 0 else 0)) or (
                m[1] & ~t.peer[2 * c + 1] & ~(bit_of(c) if w == 1 else 0)
            ):
                return False
    return True


cdef inline int first_cell(const uint64_t *m) noexcept nogil:
    return bits_lowest_index(m[0]) if m[0] else 64 + bits_lowest_index(m[1])


cdef void add_cage(Table *t, const uint64_t *m, int total, uint64_t *by_first) noexcept nogil:
    """Append a cage of the cells of `m` with sum `total` (deduced, so not a rule of
    the puzzle: it only adds consequences the rules already imply), unless a cage of
    those cells exists: by_first[2 * c + k // 64] has bit k % 64 set when cage k's
    first cell is c, so only the cages starting where `m` starts are compared."""
    cdef int k = t.n_cages, length = 0, w, j, first = first_cell(m)
    cdef uint64_t x
    if k >= MAX_CAGES:
        return
    for w in range(2):
        x = by_first[2 * first + w]
        while x:
            j = 64 * w + bits_lowest_index(x)
            x &= x - 1
            if t.cage_mask[2 * j] == m[0] and t.cage_mask[2 * j + 1] == m[1]:
                return
    by_first[2 * first + (k >> 6)] |= bit_of(k)
    for w in range(2):
        x = m[w]
        while x:
            t.cage_cells[k * MAX_N + length] = <int16_t>(64 * w + bits_lowest_index(x))
            length += 1
            x &= x - 1
    t.cage_len[k] = <int16_t>length
    t.cage_sum[k] = <int16_t>total
    t.cage_mask[2 * k] = m[0]
    t.cage_mask[2 * k + 1] = m[1]
    set_sum(t, k, length, total)
    t.n_cages = k + 1


cdef void add_unit_sums(Table *t) noexcept nogil:
    """The rule of 45 as extra cages: a complete unit's digits add up to 1 + ... + N,
    so the cells of a unit outside the cages that lie inside it ("innies") add up to
    that total less those cages' sums, and the cells outside the unit of the cages that
    meet it ("outies"), when the cages cover the unit, to their sums less the total.
    Such a set becomes a cage when its cells see each other pairwise (innies always
    do: they share the unit).

    With at most 64 units (Table.by_cell), each cage's units come from its cells' unit
    sets, so the sums per unit are gathered in one pass over the cages."""
    cdef int u, k, i, c, inside, touching, real = t.n_cages
    cdef int total = t.n * (t.n + 1) // 2
    cdef uint64_t covered[2]
    cdef uint64_t cover[2]
    cdef uint64_t m[2]
    cdef uint64_t u0, u1, c0, c1, meets, within
    # per unit (by_cell): the cells of the cages meeting it / lying inside it, their sums
    cdef uint64_t unit_cover[2 * 64]
    cdef uint64_t unit_covered[2 * 64]
    cdef int unit_touching[64]
    cdef int unit_inside[64]
    # per cell c, the cages whose first cell is c (bit k % 64 of word 2 * c + k // 64)
    cdef uint64_t by_first[2 * MAX_CELLS]
    memset(by_first, 0, sizeof(by_first))
    for k in range(real):
        c = first_cell(&t.cage_mask[2 * k])
        by_first[2 * c + (k >> 6)] |= bit_of(k)
    if t.by_cell:
        memset(unit_cover, 0, sizeof(unit_cover))
        memset(unit_covered, 0, sizeof(unit_covered))
        memset(unit_touching, 0, sizeof(unit_touching))
        memset(unit_inside, 0, sizeof(unit_inside))
        for k in range(real):
            meets = 0
            within = ~(<uint64_t>0)
            for i in range(t.cage_len[k]):
                c = t.cage_cells[k * MAX_N + i]
                meets |= t.cell_units[c]
                within &= t.cell_units[c]
            c0 = t.cage_mask[2 * k]
            c1 = t.cage_mask[2 * k + 1]
            while meets:
                u = bits_lowest_index(meets)
                meets &= meets - 1
                unit_cover[2 * u] |= c0
                unit_cover[2 * u + 1] |= c1
                unit_touching[u] += t.cage_sum[k]
                if (within >> u) & 1:
                    unit_covered[2 * u] |= c0
                    unit_covered[2 * u + 1] |= c1
                    unit_inside[u] += t.cage_sum[k]
    for u in range(t.n_units):
        u0 = t.unit[2 * u]
        u1 = t.unit[2 * u + 1]
        if t.by_cell:
            cover[0] = unit_cover[2 * u]
            cover[1] = unit_cover[2 * u + 1]
            covered[0] = unit_covered[2 * u]
            covered[1] = unit_covered[2 * u + 1]
            touching = unit_touching[u]
            inside = unit_inside[u]
        else:
            covered[0] = covered[1] = cover[0] = cover[1] = 0
            inside = touching = 0
            for k in range(real):
                c0 = t.cage_mask[2 * k]
                c1 = t.cage_mask[2 * k + 1]
                if ((c0 & u0) | (c1 & u1)) == 0:
                    continue
                cover[0] |= c0
                cover[1] |= c1
                touching += t.cage_sum[k]
                if (c0 & ~u0) == 0 and (c1 & ~u1) == 0:
                    covered[0] |= c0
                    covered[1] |= c1
                    inside += t.cage_sum[k]
        m[0] = u0 & ~covered[0]
        m[1] = u1 & ~covered[1]
        if (m[0] | m[1]) and (covered[0] | covered[1]):
            add_cage(t, m, total - inside, by_first)
        if (u0 & ~cover[0]) == 0 and (u1 & ~cover[1]) == 0:
            m[0] = cover[0] & ~u0
            m[1] = cover[1] & ~u1
            if (m[0] | m[1]) and bits_popcount(m[0]) + bits_popcount(m[1]) < t.n and all_peers(t, m):
                add_cage(t, m, touching - total, by_first)


cdef inline void drop_cells(State *s, int d, uint64_t r0, uint64_t r1) noexcept nogil:
    """Take the cells of (r0, r1), all on digit index d's board, off it, marked dirty
    for d's hidden singles and for the cage / thermometer passes."""
    s.cand[2 * d] ^= r0
    s.cand[2 * d + 1] ^= r1
    s.dirty[2 * d] |= r0
    s.dirty[2 * d + 1] |= r1
    s.cdirty[0] |= r0
    s.cdirty[1] |= r1


cdef inline void place_in(State *s, const Table *t, int d, int c, bint alone) noexcept nogil:
    """Put digit index d (0-based) in cell c; the caller knows d is possible there, and
    with `alone` that it is the cell's only digit left.

    Only the cells whose candidates really change are marked dirty, so the next sweeps
    look at the units and cages that may have changed and no others."""
    cdef int w = c >> 6
    cdef uint64_t b = bit_of(c)
    cdef int e
    cdef uint64_t p0 = t.peer[2 * c], p1 = t.peer[2 * c + 1], x, r0, r1
    if not alone and t.by_cell:
        # the digits c loses: c's units, not c, to sweep (no cell to gather them from)
        for e in range(t.n):
            x = s.cand[2 * e + w] & b
            s.cand[2 * e + w] ^= x
            s.hunits[e] |= t.cell_units[c] & ((<uint64_t>0) - (x >> (c & 63)))
    elif not alone:
        for e in range(t.n):
            x = s.cand[2 * e + w] & b
            s.cand[2 * e + w] ^= x
            s.dirty[2 * e + w] |= x
    s.done[d] |= t.cell_units[c]
    r0 = s.cand[2 * d] & p0
    r1 = s.cand[2 * d + 1] & p1
    s.cand[2 * d] ^= r0
    s.cand[2 * d + 1] ^= r1
    s.cand[2 * d + w] |= b
    s.dirty[2 * d + w] &= ~b  # d's own board keeps c
    s.solved[w] |= b
    s.dirty[2 * d] |= r0
    s.dirty[2 * d + 1] |= r1
    s.cdirty[0] |= r0
    s.cdirty[1] |= r1
    s.cdirty[w] |= b
    if t.nonconsec:
        p0 = t.neigh[2 * c]
        p1 = t.neigh[2 * c + 1]
        if d > 0:
            drop_cells(s, d - 1, s.cand[2 * d - 2] & p0, s.cand[2 * d - 1] & p1)
        if d + 1 < t.n:
            drop_cells(s, d + 1, s.cand[2 * d + 2] & p0, s.cand[2 * d + 3] & p1)


cdef inline void place(State *s, const Table *t, int d, int c) noexcept nogil:
    """Put digit index d (0-based) in cell c; the caller knows d is possible there."""
    place_in(s, t, d, c, False)


cdef inline int cell_digits(const State *s, const Table *t, int c) noexcept nogil:
    """The digit mask (bit d = digit index d possible) of cell c."""
    cdef int w = c >> 6, shift = c & 63
    cdef int d, m = 0
    for d in range(t.n):
        m |= <int>((s.cand[2 * d + w] >> shift) & 1) << d
    return m


cdef inline bint keep_digits(State *s, const Table *t, int c, int keep, int had) noexcept nogil:
    """Remove from cell c the digits of `had` not in `keep`; True when one left."""
    cdef int gone = had & ~keep
    cdef int w = c >> 6
    cdef uint64_t b = bit_of(c)
    if gone == 0:
        return False
    while gone:
        s.cand[2 * bits_lowest_index(gone) + w] &= ~b
        s.dirty[2 * bits_lowest_index(gone) + w] |= b
        gone &= gone - 1
    s.cdirty[w] |= b
    return True


cdef inline int cage_pass_in_word(State *s, const Table *t, int k, int w) noexcept nogil:
    """`cage_pass` for a cage whose cells all lie in word w of the boards (most cages
    of a 9x9 grid): one word per digit to gather, cover and clear.

    A placed digit's cell has no other digit left, so a set without it does not cover
    the cage: the cover test alone keeps the placed digits in every feasible set, and
    they need no mask of their own (their one cell is placed already)."""
    cdef int j, c, d, cm, union = 0, allowed = 0, required = 0x7FF, gone, y
    cdef bint changed = False
    cdef uint64_t m = t.cage_mask[2 * k + w]
    cdef uint64_t x, cover
    cdef uint64_t inw[MAX_N]
    cdef bint full = (m & ~s.solved[w]) == 0
    for d in range(t.n):
        x = s.cand[2 * d + w] & m
        inw[d] = x
        union |= <int>(x != 0) << d
    if full:
        # every cell placed (one digit each, all different): nothing left to find here
        # once the placed digits make a set of the cage's size and sum
        if bits_popcount(union) != t.cage_len[k] or MASK_SUM[union] != t.cage_sum[k]:
            return -1
        s.cages_done[k >> 6] |= bit_of(k)
        return 0
    for j in range(t.combo_start[k], t.combo_end[k]):
        cm = COMBOS[j]
        if cm & ~union:
            continue
        cover = 0
        y = cm
        while y:
            cover |= inw[bits_lowest_index(<uint64_t>y)]
            y &= y - 1
        if cover == m:
            allowed |= cm
            required &= cm
            if allowed == union and required == 0:
                break  # no later set can change either
    if allowed == 0:
        return -1
    # digits in no feasible set leave every cell of the cage
    gone = union & ~allowed
    while gone:
        d = bits_lowest_index(gone)
        gone &= gone - 1
        x = inw[d]
        if w == 0:
            drop_cells(s, d, x, 0)
        else:
            drop_cells(s, d, 0, x)
        changed = True
    # a digit of every feasible set with one place left goes there (a placed digit's
    # one place is its own cell; an earlier placement here may have taken a place)
    while required:
        d = bits_lowest_index(required)
        required &= required - 1
        x = s.cand[2 * d + w] & m
        if x == 0:
            return -1
        if (x & (x - 1)) == 0:
            c = 64 * w + bits_lowest_index(x)
            if not (s.solved[w] & x):
                place(s, t, d, c)
                changed = True
    if (m & ~s.solved[w]) == 0:
        # placed here: the placed digits are in every feasible set, so they are one
        s.cages_done[k >> 6] |= bit_of(k)
    return 1 if changed else 0


cdef int cage_pass(State *s, const Table *t, int k) noexcept nogil:
    """Cage combination logic on cage k: -1 dead, 1 changed, 0 nothing.

    Digit-major: a set of digits meets every cell of the cage when the cage's part of
    its digits' boards, ORed, covers the cage (no per-cell digit sets to gather). A
    placed digit's cell has no other digit left, so a set without it does not cover the
    cage: the cover test alone keeps the placed digits in every feasible set."""
    cdef int j, c, d, cm, union = 0, allowed = 0, required = 0x7FF, gone, y
    cdef bint changed = False
    cdef uint64_t m0 = t.cage_mask[2 * k], m1 = t.cage_mask[2 * k + 1]
    cdef uint64_t x0, x1, c0, c1
    cdef uint64_t in0[MAX_N]
    cdef uint64_t in1[MAX_N]
    cdef bint full
    if m1 == 0:
        return cage_pass_in_word(s, t, k, 0)
    if m0 == 0:
        return cage_pass_in_word(s, t, k, 1)
    full = ((m0 & ~s.solved[0]) | (m1 & ~s.solved[1])) == 0
    for d in range(t.n):
        x0 = s.cand[2 * d] & m0
        x1 = s.cand[2 * d + 1] & m1
        in0[d] = x0
        in1[d] = x1
        union |= <int>((x0 | x1) != 0) << d
    if full:
        if bits_popcount(union) != t.cage_len[k] or MASK_SUM[union] != t.cage_sum[k]:
            return -1
        s.cages_done[k >> 6] |= bit_of(k)
        return 0
    for j in range(t.combo_start[k], t.combo_end[k]):
        cm = COMBOS[j]
        if cm & ~union:
            continue
        c0 = c1 = 0
        y = cm
        while y:
            d = bits_lowest_index(<uint64_t>y)
            y &= y - 1
            c0 |= in0[d]
            c1 |= in1[d]
        if c0 == m0 and c1 == m1:
            allowed |= cm
            required &= cm
            if allowed == union and required == 0:
                break
    if allowed == 0:
        return -1
    # digits in no feasible set leave every cell of the cage
    gone = union & ~allowed
    while gone:
        d = bits_lowest_index(gone)
        gone &= gone - 1
        drop_cells(s, d, in0[d], in1[d])
        changed = True
    # a digit of every feasible set with one place left goes there (a placed digit's
    # one place is its own cell; an earlier placement here may have taken a place)
    while required:
        d = bits_lowest_index(required)
        required &= required - 1
        x0 = s.cand[2 * d] & m0
        x1 = s.cand[2 * d + 1] & m1
        if x0 == 0 and x1 == 0:
            return -1
        if (x0 == 0 and (x1 & (x1 - 1)) == 0) or (x1 == 0 and (x0 & (x0 - 1)) == 0):
            if x0:
                c = bits_lowest_index(x0)
            else:
                c = 64 + bits_lowest_index(x1)
            if not (s.solved[c >> 6] & bit_of(c)):
                place(s, t, d, c)
                changed = True
    if ((m0 & ~s.solved[0]) | (m1 & ~s.solved[1])) == 0:
        s.cages_done[k >> 6] |= bit_of(k)
    return 1 if changed else 0


cdef int thermo_pass(State *s, const Table *t, int k) noexcept nogil:
    """Bounds along thermometer k: -1 dead, 1 changed, 0 nothing."""
    cdef int length = t.thermo_len[k]
    cdef const int16_t *cells = &t.thermo_cells[k * MAX_N]
    cdef int masks[MAX_N]
    cdef int i, m, floor = 0, ceiling = (1 << t.n) - 1
    cdef bint changed = False
    for i in range(length):
        m = cell_digits(s, t, cells[i])
        masks[i] = m & ~floor  # above every digit the previous cell can still take
        if masks[i] == 0:
            return -1
        floor = (2 << bits_lowest_index(masks[i])) - 1
        if keep_digits(s, t, cells[i], masks[i], m):
            changed = True
    for i in range(length - 1, -1, -1):
        m = masks[i] & ceiling
        if m == 0:
            return -1
        ceiling = (1 << bits_highest_index(m)) - 1
        if keep_digits(s, t, cells[i], m, masks[i]):
            changed = True
    return 1 if changed else 0


cdef inline int hidden_single(State *s, const Table *t, int d, int u) noexcept nogil:
    """Digit d in unit u: -1 when it has no place left, 1 when placed in its one open
    place, else 0."""
    cdef uint64_t x0 = s.cand[2 * d] & t.unit[2 * u], x1 = s.cand[2 * d + 1] & t.unit[2 * u + 1]
    cdef uint64_t either = x0 | x1
    cdef int c
    # Two bits in the OR of the words mean two places or more: the common case, told
    # by one branch that is rarely mispredicted (the tests below, alone, often are).
    if either & (either - 1):
        return 0
    if x0 == 0:
        if x1 == 0:
            return -1
        if x1 & (x1 - 1):
            return 0
        c = 64 + bits_lowest_index(x1)
    elif x1 == 0 and (x0 & (x0 - 1)) == 0:
        c = bits_lowest_index(x0)
    else:
        return 0
    if s.solved[c >> 6] & bit_of(c):
        return 0
    place(s, t, d, c)
    return 1


cdef inline int locked_in_unit(State *s, const Table *t, int d, int u) noexcept nogil:
    """Digit d's places in unit u, when they all lie in other units too, are its only
    places in those: d leaves the rest of them. -1 when d has no place in u, 1 when
    some candidate went, else 0.

    Only the units holding u's first and last places are looked at, each with a subset
    test and no branch on its outcome: the outcomes are hard to predict. (With one
    place left, a hidden single, d leaves the rest of the place's units: the next sweep
    places it there.)"""
    cdef uint64_t x0 = s.cand[2 * d] & t.unit[2 * u], x1 = s.cand[2 * d + 1] & t.unit[2 * u + 1]
    cdef uint64_t partners = ~((<uint64_t>1) << u), e0, e1, u0, u1, inside, r0, r1, m0, m1
    cdef int v
    if (x0 | x1) == 0:
        return -1
    # only units holding the first and the last place may hold them all: two cells
    # share at most one unit besides u in a jigsaw, so the first test takes no branch
    # (the empty unit when there is none) and the loop after it rarely runs
    m0 = (<uint64_t>0) - <uint64_t>(x0 != 0)  # masks, not branches: hard to predict
    m1 = (<uint64_t>0) - <uint64_t>(x1 != 0)
    partners &= t.cell_units[bits_lowest_index((x0 & m0) | (x1 & ~m0)) + <int>(64 & ~m0)]
    partners &= t.cell_units[bits_highest_index((x1 & m1) | (x0 & ~m1)) + <int>(64 & m1)]
    v = bits_lowest_index(partners | ((<uint64_t>1) << EMPTY_UNIT))
    partners &= partners - 1
    u0 = t.unit[2 * v]
    u1 = t.unit[2 * v + 1]
    inside = (<uint64_t>0) - <uint64_t>(((x0 & ~u0) | (x1 & ~u1)) == 0)
    e0 = u0 & inside
    e1 = u1 & inside
    while partners:
        v = bits_lowest_index(partners)
        partners &= partners - 1
        u0 = t.unit[2 * v]
        u1 = t.unit[2 * v + 1]
        # all ones when the places lie in unit v
        inside = (<uint64_t>0) - <uint64_t>(((x0 & ~u0) | (x1 & ~u1)) == 0)
        e0 |= u0 & inside
        e1 |= u1 & inside
    r0 = s.cand[2 * d] & e0 & ~x0
    r1 = s.cand[2 * d + 1] & e1 & ~x1
    if r0 | r1:
        drop_cells(s, d, r0, r1)
        return 1
    return 0


cdef int propagate(State *s, const Table *t, bint fresh) noexcept nogil:
    """Run every rule to a fixed point: 0 when the state is dead, else 1.

    `fresh`: the state is `solve_one`'s, where every digit's board is dirty on all
    cells but its clues. Each unit then meets every digit's dirty cells (a unit holds
    at most one clue of a digit, and at least two cells, or one that is no clue when
    the board is dirty at all), so the first hidden-single sweep takes every unit
    without gathering them cell by cell."""
    cdef int n = t.n, d, u, c, w, k, r, digits
    cdef uint64_t once0, once1, twice0, twice1, x0, x1, u0, ch0, ch1, b, units, kd0, kd1
    cdef uint64_t every_unit = 0
    cdef uint64_t idx[4]
    cdef bint progress
    if fresh and t.by_cell:
        every_unit = ~(<uint64_t>0) if t.n_units == 64 else ((<uint64_t>1) << t.n_units) - 1
    while True:
        # naked singles, and cells with no digit left
        while True:
            once0 = once1 = twice0 = twice1 = 0
            for d in range(n):
                x0 = s.cand[2 * d]
                x1 = s.cand[2 * d + 1]
                twice0 |= once0 & x0
                twice1 |= once1 & x1
                once0 |= x0
                once1 |= x1
            if (t.all[0] & ~once0) | (t.all[1] & ~once1):
                return 0
            x0 = once0 & ~twice0 & ~s.solved[0]
            x1 = once1 & ~twice1 & ~s.solved[1]
            if (x0 | x1) == 0:
                break
            for w in range(2):
                u0 = x0 if w == 0 else x1
                # each single's digit index, bit-sliced (bit j in idx[j]) in one pass
                # over the digits for all of them
                memset(idx, 0, sizeof(idx))
                for d in range(n if u0 else 0):
                    b = s.cand[2 * d + w] & u0
                    idx[0] |= b & ((<uint64_t>0) - <uint64_t>(d & 1))
                    idx[1] |= b & ((<uint64_t>0) - <uint64_t>((d >> 1) & 1))
                    idx[2] |= b & ((<uint64_t>0) - <uint64_t>((d >> 2) & 1))
                    idx[3] |= b & ((<uint64_t>0) - <uint64_t>(d >> 3))
                while u0:
                    c = bits_lowest_index(u0)
                    b = u0 & (~u0 + 1)
                    u0 ^= b
                    k = <int>(
                        (idx[0] >> c & 1) | (idx[1] >> c & 1) << 1
                        | (idx[2] >> c & 1) << 2 | (idx[3] >> c & 1) << 3
                    )
                    if (s.cand[2 * k + w] & b) == 0:
                        return 0  # emptied by an earlier single of this round
                    place_in(s, t, k, 64 * w + c, True)
        # hidden singles, for each digit in the units where its board changed
        progress = False
        # the digits with a changed board, found with no branch per digit (hard to
        # predict); one that a placement of this sweep changes waits for the next
        digits = 0
        for d in range(n):
            digits |= <int>((s.dirty[2 * d] | s.dirty[2 * d + 1] | s.hunits[d]) != 0) << d
        while digits:
            d = bits_lowest_index(<uint64_t>digits)
            digits &= digits - 1
            ch0 = s.dirty[2 * d]
            ch1 = s.dirty[2 * d + 1]
            s.dirty[2 * d] = s.dirty[2 * d + 1] = 0
            if t.by_cell:
                # the units of the changed cells, from the cells' unit sets
                units = every_unit | s.hunits[d]
                s.hunits[d] = 0
                if not every_unit:
                    while ch0:
                        units |= t.cell_units[bits_lowest_index(ch0)]
                        ch0 &= ch0 - 1
                    while ch1:
                        units |= t.cell_units[64 + bits_lowest_index(ch1)]
                        ch1 &= ch1 - 1
                units &= ~s.done[d]
                s.locked[d] |= units
                while units:
                    r = hidden_single(s, t, d, bits_lowest_index(units))
                    units &= units - 1
                    if r < 0:
                        return 0
                    if r:
                        progress = True
                        # the placement's other units: d is done there
                        units &= ~s.done[d]
            else:
                for u in range(t.n_units):
                    if ((t.unit[2 * u] & ch0) | (t.unit[2 * u + 1] & ch1)) == 0:
                        continue
                    r = hidden_single(s, t, d, u)
                    if r < 0:
                        return 0
                    if r:
                        progress = True
        every_unit = 0
        if progress:
            continue
        # locked candidates, for each digit in the units where its board changed
        if t.locked:
            for d in range(n):
                units = s.locked[d] & ~s.done[d]
                s.locked[d] = 0
                while units:
                    r = locked_in_unit(s, t, d, bits_lowest_index(units))
                    units &= units - 1
                    if r < 0:
                        return 0
                    if r:
                        progress = True
            if progress:
                continue
        # cages and thermometers whose cells changed
        ch0 = s.cdirty[0]
        ch1 = s.cdirty[1]
        if ch0 | ch1:
            s.cdirty[0] = s.cdirty[1] = 0
            progress = False
            if t.n_cages:
                # the cages holding a changed cell, in cage order
                kd0 = kd1 = 0
                x0 = ch0
                while x0:
                    c = bits_lowest_index(x0)
                    x0 &= x0 - 1
                    kd0 |= t.cell_cages[2 * c]
                    kd1 |= t.cell_cages[2 * c + 1]
                x1 = ch1
                while x1:
                    c = 64 + bits_lowest_index(x1)
                    x1 &= x1 - 1
                    kd0 |= t.cell_cages[2 * c]
                    kd1 |= t.cell_cages[2 * c + 1]
                kd0 &= ~s.cages_done[0]
                kd1 &= ~s.cages_done[1]
                while kd0:
                    r = cage_pass(s, t, bits_lowest_index(kd0))
                    kd0 &= kd0 - 1
                    if r < 0:
                        return 0
                    if r:
                        progress = True
                while kd1:
                    r = cage_pass(s, t, 64 + bits_lowest_index(kd1))
                    kd1 &= kd1 - 1
                    if r < 0:
                        return 0
                    if r:
                        progress = True
            for k in range(t.n_thermos):
                if (t.thermo_mask[2 * k] & ch0) | (t.thermo_mask[2 * k + 1] & ch1):
                    r = thermo_pass(s, t, k)
                    if r < 0:
                        return 0
                    if r:
                        progress = True
            if progress:
                continue
        return 1


cdef int pick_cell(const State *s, const Table *t) noexcept nogil:
    """An open cell with the fewest candidates, the first such cell in cell order."""
    cdef int n = t.n, d, k, w
    # bit-sliced candidate counts of every cell: bit j of count[2 * j + w]
    cdef uint64_t count[8]
    cdef uint64_t x, carry, y
    cdef uint64_t match[2]
    memset(count, 0, sizeof(count))
    for d in range(n):
        for w in range(2):
            carry = s.cand[2 * d + w]
            y = count[w] & carry
            count[w] ^= carry
            carry = y
            y = count[2 + w] & carry
            count[2 + w] ^= carry
            carry = y
            y = count[4 + w] & carry
            count[4 + w] ^= carry
            count[6 + w] ^= y  # counts stay below 16 (n <= 11)
    for k in range(2, n + 1):
        for w in range(2):
            x = t.all[w] & ~s.solved[w]
            x &= count[w] if k & 1 else ~count[w]
            x &= count[2 + w] if k & 2 else ~count[2 + w]
            x &= count[4 + w] if k & 4 else ~count[4 + w]
            x &= count[6 + w] if k & 8 else ~count[6 + w]
            match[w] = x
        if match[0]:
            return bits_lowest_index(match[0])
        if match[1]:
            return 64 + bits_lowest_index(match[1])
    return -1


cdef bint search(State *s, const Table *t, Search *run) noexcept nogil:
    """Depth-first search from `s`; True when the run must end (limit, budget, stop)."""
    cdef State child
    cdef int c, d, w, digits, k, tried = 0
    cdef uint64_t x
    run.nodes += 1
    if run.nodes % CHECK_EVERY == 0 and poll(run.stop):
        return True
    if run.max_nodes and run.nodes > run.max_nodes:
        run.out_of_nodes = True
        return True
    # the root (node 1) holds solve_one's state
    if not propagate(s, t, run.nodes == 1):
        return False
    if s.solved[0] == t.all[0] and s.solved[1] == t.all[1]:
        run.count += 1
        if run.count == 1 and run.solution != NULL:
            for d in range(t.n):
                for w in range(2):
                    x = s.cand[2 * d + w]
                    while x:
                        run.solution[64 * w + bits_lowest_index(x)] = <uint8_t>(d + 1)
                        x &= x - 1
        return run.count >= run.limit
    c = pick_cell(s, t)
    digits = cell_digits(s, t, c)
    k = bits_popcount(<uint64_t>digits)
    while digits:
        d = bits_lowest_index(<uint64_t>digits)
        digits &= digits - 1
        if tried < k - 1:
            run.guesses += 1
        tried += 1
        child = s[0]
        place(&child, t, d, c)
        if search(&child, t, run):
            return True
    return False


cdef int solve_one(const Table *t, const uint8_t *values, Search *run) noexcept nogil:
    """Count the solutions of one puzzle (values 0..N per cell) up to run.limit.

    The clues go in all at once: per value, its cells, their peers and orthogonal
    neighbours are gathered in one pass over the clue cells, then each digit's board is
    set. That is the state placing them one by one gives, when no two clues clash (two
    equal digits that see each other, or under the non-consecutive rule two consecutive
    ones side by side); when some do, the puzzle has no solution."""
    cdef State s
    cdef int c, d, v, w, bad = 0
    cdef uint64_t b, given0 = 0, given1 = 0
    # per value 0..N: its clue cells, their peers and their orthogonal neighbours
    cdef uint64_t clue[2 * (MAX_N + 1)]
    cdef uint64_t seen[2 * (MAX_N + 1)]
    cdef uint64_t near[2 * (MAX_N + 2)]  # one more slot: value N + 1 (none) for the clash test
    cdef uint64_t units[MAX_N + 1]
    memset(&s, 0, sizeof(State))
    memset(clue, 0, sizeof(clue))
    memset(seen, 0, sizeof(seen))
    memset(near, 0, sizeof(near))
    memset(units, 0, sizeof(units))
    run.count = 0
    run.nodes = 0
    run.guesses = 0
    run.out_of_nodes = False
    # the clue cells first (one word each, no branch per cell), then only they are
    # gathered: most cells are empty, and gathering every cell by its value made a
    # chain of stores and loads through the empty cells' slot
    for c in range(t.cells if t.cells < 64 else 64):
        v = values[c]
        bad |= v > t.n
        given0 |= <uint64_t>(v != 0) << c
    for c in range(64, t.cells):
        v = values[c]
        bad |= v > t.n
        given1 |= <uint64_t>(v != 0) << (c - 64)
    if bad:
        run.nodes = 1
        return 0  # a clue outside the digits
    for w in range(2):
        b = given0 if w == 0 else given1
        while b:
            c = 64 * w + bits_lowest_index(b)
            b &= b - 1
            v = values[c]
            clue[2 * v + w] |= bit_of(c)
            seen[2 * v] |= t.peer[2 * c]
            seen[2 * v + 1] |= t.peer[2 * c + 1]
            units[v] |= t.cell_units[c]
            if t.nonconsec:
                near[2 * v] |= t.neigh[2 * c]
                near[2 * v + 1] |= t.neigh[2 * c + 1]
    s.solved[0] = given0
    s.solved[1] = given1
    for v in range(1, t.n + 1):
        # a clue its peers rule out, or (non-consecutive) a neighbour one below it
        bad |= ((clue[2 * v] & seen[2 * v]) | (clue[2 * v + 1] & seen[2 * v + 1])) != 0
        bad |= ((clue[2 * v] & near[2 * v - 2]) | (clue[2 * v + 1] & near[2 * v - 1])) != 0
    if bad:
        run.nodes = 1
        return 0  # two clues that clash
    for d in range(t.n):
        v = d + 1
        for w in range(2):
            b = t.all[w] & ~s.solved[w] & ~seen[2 * v + w] & ~near[2 * v - 2 + w] & ~near[2 * v + 2 + w]
            s.cand[2 * d + w] = b | clue[2 * v + w]
            s.dirty[2 * d + w] = t.all[w] & ~clue[2 * v + w]
        s.done[d] = units[v]
    s.cdirty[0] = t.all[0]
    s.cdirty[1] = t.all[1]
    search(&s, t, run)
    if run.out_of_nodes:
        return COUNT_EXHAUSTED
    if run.stop.stopped:
        return COUNT_STOPPED
    return run.count


@cython.boundscheck(False)
def solve_range(
    const int16_t[::1] records,
    const int64_t[::1] starts,
    const uint8_t[::1] grids,
    uint8_t[::1] solutions,
    int32_t[::1] counts,
    int64_t[::1] guesses,
    int64_t[::1] nodes,
    int64_t[::1] nanos,
    Py_ssize_t start,
    Py_ssize_t stop,
    int size,
    int limit,
    int64_t max_nodes=0,
    const uint8_t[::1] stop_flag=None,
    bint cpu_clock=False,
    int64_t[::1] claim=None,
    int share=2,
    Py_ssize_t min_chunk=4,
    Py_ssize_t max_chunk=256,
    tuple texts=None,
    uint8_t[::1] parsed=None,
):
    """Solve puzzles start..stop-1 under their rules, without the GIL; returns -1, or
    with `texts` the index of an item that is not a plain puzzle string.

    With `claim` (a one-item buffer shared by the threads of a batch, holding the next
    puzzle to take, first `start`), the call takes chunks of the range from it until
    none is left: each about 1/`share` of what is left (within `min_chunk` and
    `max_chunk`), so the threads finish within a small chunk of each other. Each
    thread then makes one call for the whole batch: no hand-over of the GIL between
    chunks, which costs a wait for it (a system call or two) at every chunk.

    `grids` holds N*N values 0..N per puzzle (0 = empty); puzzle i's rules are the
    record at records[starts[i]:] (see `_variants/encode.py`). The first solution found
    goes to solutions[N*N*i : N*N*(i+1)] (zeros when there is none), the count up
    to `limit` to counts[i], the search figures to guesses[i] and nodes[i], the time to
    nanos[i] when `nanos` is given: every item of the range is written (0 for a
    puzzle's figures when it is stopped), so the buffers may come uninitialised. `max_nodes` > 0 caps the nodes of a puzzle
    (count BUDGET_EXHAUSTED past it); a set `stop_flag` ends every unfinished puzzle
    with STOPPED; in the main thread Ctrl-C stops the range and raises.

    `texts` (9x9 only), a tuple of at least `stop` strings, stands for the grids: each
    puzzle's plain 81-character string (digits, '.') is read into `parsed` (`grids` is
    then not read) just before it is solved, so a batch's reading
    is shared by its threads too. At the first item that is not in that form the call
    returns its index, having taken the rest of a claimed batch so that the other
    threads stop too: the caller then reads the batch with the full parser.
    """
    if limit < 1:
        raise ValueError("limit must be at least 1")
    if max_nodes < 0:
        raise ValueError("max_nodes must be 0 (no budget) or positive")
    if size < 1 or size > MAX_N:
        raise ValueError(f"the variant engine takes grids up to {MAX_N}x{MAX_N}, not {size}x{size}")
    if start < 0 or stop < start:
        raise ValueError("bad range")
    cdef Py_ssize_t cells = size * size
    if (
        grids.shape[0] < stop * cells
        or solutions.shape[0] < stop * cells
        or counts.shape[0] < stop
        or guesses.shape[0] < stop
        or nodes.shape[0] < stop
        or starts.shape[0] < stop
        or (nanos is not None and nanos.shape[0] < stop)
    ):
        raise ValueError("buffers too small for the requested range")
    if stop_flag is not None and stop_flag.shape[0] < 1:
        raise ValueError("stop_flag must hold one byte")
    if claim is not None and (
        claim.shape[0] < 1 or share < 1 or min_chunk < 1 or max_chunk < min_chunk
    ):
        raise ValueError("claim must hold one item; share and chunk sizes must be positive")
    if texts is not None and (
        size != 9 or len(texts) < stop or parsed is None or parsed.shape[0] < stop * cells
    ):
        raise ValueError("texts need a 9x9 batch, one string per puzzle and a parsed buffer")
    cdef PyObject **items = PySequence_Fast_ITEMS(texts) if texts is not None else NULL
    cdef uint8_t *into = &parsed[0] if texts is not None and stop > 0 else NULL
    # Where each puzzle's grid is read: the rows the texts are read into, if any.
    cdef const uint8_t *read_from = NULL
    if into != NULL:
        read_from = into
    elif stop > 0:
        read_from = &grids[0]
    cdef Py_ssize_t not_plain = -1
    cdef int64_t *counter = &claim[0] if claim is not None else NULL
    cdef Py_ssize_t lo = start, hi = stop, take
    cdef Stop halt
    stop_init(
        &halt,
        &stop_flag[0] if stop_flag is not None else NULL,
        threading.current_thread() is threading.main_thread(),
    )
    cdef Table *table = <Table *>malloc(sizeof(Table))
    if table == NULL:
        raise MemoryError()
    table.base_rec = NULL
    cdef Search run
    run.limit = limit
    run.max_nodes = max_nodes
    run.stop = &halt
    cdef Py_ssize_t i, built = -1, bad = -1, n_words = records.shape[0]
    cdef int64_t at
    cdef bint timed = nanos is not None
    cdef long long t0 = 0, overhead = 0
    cdef uint8_t *out = &solutions[0] if stop > 0 else NULL
    # In the main thread, signal handlers run about every SIGNAL_CHECK_NANOS (and every
    # CHECK_EVERY nodes of one puzzle's search): each look takes the GIL, which at every
    # puzzle would cost the other threads' chunk hand-overs a wait for it.
    cdef long long last_signal_check = clock_nanos(False)
    try:
        with nogil:
            if timed:
                overhead = measurement_overhead(cpu_clock)
            while True:
                if counter != NULL:  # the next chunk of the batch, if any is left
                    take = (stop - sudoku_fast_published(counter)) // share
                    take = min(max_chunk, max(min_chunk, take))
                    lo = sudoku_fast_claim(counter, take)
                    if lo >= stop:
                        break
                    hi = min(stop, lo + take)
                for i in range(lo, hi):
                    if halt.stopped or flag_set(halt.flag) or (
                        (i - lo) % SIGNAL_LOOK == 0
                        and signals_due(&halt, &last_signal_check)
                        and poll(&halt)
                    ):
                        halt.stopped = True
                        memset(out + i * cells, 0, cells)
                        counts[i] = COUNT_STOPPED
                        guesses[i] = 0
                        nodes[i] = 0
                        if timed:
                            nanos[i] = 0
                        continue
                    if items != NULL and not encode_plain(items[i], into + i * cells):
                        not_plain = i
                        if counter != NULL:  # nothing more for any thread to take
                            sudoku_fast_claim(counter, stop)
                        break
                    if timed:
                        t0 = clock_nanos(cpu_clock)
                    at = starts[i]
                    if at != built:
                        if at < 0 or at >= n_words or build_table(&records[at], n_words - at, table) != 0:
                            bad = i
                            break
                        built = at
                    if table.n != size:
                        bad = i
                        break
                    run.solution = out + i * cells
                    # Every byte of the range is written, so the buffers may come uninitialised
                    # and their pages be first touched here, on the worker threads.
                    memset(run.solution, 0, cells)
                    counts[i] = solve_one(table, read_from + i * cells, &run)
                    guesses[i] = run.guesses
                    nodes[i] = run.nodes
                    if timed:
                        nanos[i] = elapsed(t0, overhead, cpu_clock)
                if counter == NULL or bad >= 0 or not_plain >= 0:
                    break
    finally:
        free(table)
    raise_saved(&halt)
    if bad >= 0:
        raise ValueError(f"puzzle {bad}: malformed rules record")
    return not_plain


# ------------------------------------------------------------ a batch's rule sets, read
# These run on the calling thread before a batch is shared out, so their cost is the
# serial share that bounds a batch's speed on many threads: one C loop over the
# puzzles each, where Python would make a call (or an int object) per puzzle.


def index_rules(list items, type kind):
    """The distinct rule sets of a list of them: (firsts, which, each), or None when an
    item is not a `kind` (for the caller's reading of other forms).

    `firsts` maps each distinct key (an item's `_key`) to the first item with it, in
    order of first appearance; `which[i]` (an array of C ints) is the position of item
    i's key in `firsts`, and `each[i]` the first item with item i's key.
    """
    cdef Py_ssize_t i, at, n = len(items)
    cdef dict firsts = {}
    cdef dict position = {}
    cdef list first_items = []
    cdef list each = [None] * n
    cdef carray.array which = carray.clone(_INT_TEMPLATE, n, zero=False)
    cdef int *slots = which.data.as_ints
    cdef object item, key, found, last_key = None
    cdef Py_ssize_t last_at = -1
    for i in range(n):
        item = items[i]
        if not isinstance(item, kind):
            return None
        key = item._key
        # A batch mostly repeats its last rule set: one compare of the short keys, where
        # a look-up would hash each fresh key first.
        if last_at >= 0 and key == last_key:
            slots[i] = <int>last_at
            each[i] = first_items[last_at]
            continue
        found = position.get(key)
        if found is None:
            at = len(first_items)
            position[key] = at
            firsts[key] = item
            first_items.append(item)
        else:
            at = found
        slots[i] = <int>at
        each[i] = first_items[at]
        last_key, last_at = key, at
    return firsts, which, each


def gather_starts(const int64_t[::1] at, const int[::1] which):
    """An array of int64 whose item i is at[which[i]] (where puzzle i's record starts)."""
    cdef Py_ssize_t i, n = which.shape[0], known = at.shape[0]
    cdef carray.array starts = carray.clone(_INT64_TEMPLATE, n, zero=False)
    cdef int64_t *out = <int64_t *>starts.data.as_voidptr
    for i in range(n):
        if which[i] < 0 or which[i] >= known:
            raise ValueError(f"item {i}: position {which[i]} outside 0..{known - 1}")
        out[i] = at[which[i]]
    return starts
