# cython: language_level=3
# Every other directive is set once for all modules in setup.py.
"""The algorithm lab's compiled side: the classic search algorithms on plain C data.

Every algorithm here has a slow, obviously correct twin in `lab_reference.py` that makes
the same choices in the same order (the same pseudo-random numbers included), so the
two agree on solutions, counts, nodes and guesses; `lab.py` is the public face.

Algorithms (codes as in lab.py):

* comb (0): generate and test. Every way of filling the empty cells is written out in
  odometer order and checked against the rules only once complete.
* backtracking (1): depth-first search that checks an assignment against the filled
  peers only (a cell's domain is what its row, column and box leave).
* fc (2): forward checking. An assignment removes its value from the domains of the
  unassigned peers and fails when one of them is left empty.
* ac (3): arc consistency for the "differ from every peer" constraints: a domain
  reduced to one value removes that value from every peer, to a fixpoint.
* ac+dual (4): ac plus dual consistency: a value with one place left in a unit goes
  there, a value with no place fails (hidden singles).
* ac+dual+np (5): ac+dual plus naked pairs: two cells of a unit with the same two
  candidates remove them from the rest of the unit.
* ac3 (6): an assignment (forward checking), then the AC-3 arc queue: revising an arc
  (Xi, Xj) removes from Di the value of a single-valued Dj, and a changed Di queues the
  arcs (Xk, Xi). Its fixpoint is ac's, reached through an explicit queue of arcs.
* dlx (7): Knuth's Algorithm X on dancing links. The exact-cover matrix has a row per
  (cell, value) and a column per cell and per (unit, value).

Search state is copied per level (a heap stack that grows on demand); the search is
recursive with one C frame per level, so its depth is at most the number of cells.
Each solve reads the immutable `Tables` of its geometry and owns its workspace, so any
number of threads may run `solve_range` at once. A puzzle's time is the CPU time of
its thread (see _clock.pxd), so a busy machine does not inflate it. Every 256 nodes a
solve looks at its time budget and at the stop flag (and, in the main thread, lets Python run signal
handlers, so Ctrl-C interrupts one long puzzle).
"""

cimport cython
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcmp, memcpy, memset

from sudoku_fast._base.bits cimport bits_lowest_index, bits_popcount
from sudoku_fast._base.clock cimport clock_nanos, elapsed, measurement_overhead
from sudoku_fast._base.rng cimport splitmix64
from sudoku_fast._base.stop cimport Stop, poll, raise_saved, stop_init

import threading

# Algorithm codes.
cdef enum:
    COMB = 0
    BACKTRACKING = 1
    FC = 2
    AC = 3
    AC_DUAL = 4
    AC_DUAL_NP = 5
    AC3 = 6
    DLX = 7

# Variable orders and value orders.
cdef enum:
    VAR_FIRST = 0
    VAR_MINRV = 1
    VAR_MAXRV = 2
    VAR_RANDOM = 3
    VAL_FIRST = 0
    VAL_MOST = 1   # most constraining first
    VAL_LEAST = 2  # least constraining first
    VAL_RANDOM = 3

# Statuses of one solve.
cdef enum:
    DONE = 0
    OUT_OF_NODES = 1
    OUT_OF_TIME = 2
    STOPPED_BY_FLAG = 3
    NO_MEMORY = 4

cdef enum:
    CHECK_EVERY = 256  # nodes between looks at the clock and the stop flag

STATUS_DONE = DONE
STATUS_OUT_OF_NODES = OUT_OF_NODES
STATUS_OUT_OF_TIME = OUT_OF_TIME
STATUS_STOPPED = STOPPED_BY_FLAG
STATUS_NO_MEMORY = NO_MEMORY


@cython.auto_pickle(False)
cdef class Tables:
    """Peers and units of one geometry as C arrays; immutable once built, safe to share."""

    cdef int n
    cdef int cells
    cdef int npeers
    cdef int32_t *peers       # cells * npeers
    cdef int32_t *back        # back[c*npeers+k]: index of c among the peers of peers[c*npeers+k]
    cdef int32_t *units       # 3N * N cells
    cdef int32_t *cell_units  # cells * 3: row unit, column unit, box unit

    def __cinit__(self, int size, object peers, object units):
        cdef int cells = size * size
        cdef int c, k, p, j, u
        if not 1 <= size <= 64:
            raise ValueError(f"grid size must be from 1 to 64, got {size}")
        if len(peers) != cells or len(units) != 3 * size:
            raise ValueError("peers and units do not fit the size")
        self.n = size
        self.cells = cells
        self.npeers = len(peers[0]) if cells else 0
        self.peers = <int32_t *>malloc((cells * self.npeers + 1) * sizeof(int32_t))
        self.back = <int32_t *>malloc((cells * self.npeers + 1) * sizeof(int32_t))
        self.units = <int32_t *>malloc((3 * size * size + 1) * sizeof(int32_t))
        self.cell_units = <int32_t *>malloc((3 * cells + 1) * sizeof(int32_t))
        if not self.peers or not self.back or not self.units or not self.cell_units:
            raise MemoryError()
        for c in range(cells):
            if len(peers[c]) != self.npeers:
                raise ValueError("every cell needs the same number of peers")
            for k in range(self.npeers):
                self.peers[c * self.npeers + k] = peers[c][k]
        for c in range(cells):
            for k in range(self.npeers):
                p = self.peers[c * self.npeers + k]
                for j in range(self.npeers):
                    if self.peers[p * self.npeers + j] == c:
                        self.back[c * self.npeers + k] = j
                        break
        for u in range(3 * size):
            for k in range(size):
                c = units[u][k]
                self.units[u * size + k] = c
                self.cell_units[c * 3 + u // size] = u

    def __dealloc__(self):
        free(self.peers)
        free(self.back)
        free(self.units)
        free(self.cell_units)

    @property
    def size(self):
        """N, the side of the grid."""
        return self.n


cdef struct Ctx:
    # Geometry (borrowed from Tables)
    int n
    int cells
    int npeers
    const int32_t *peers
    const int32_t *back
    const int32_t *units
    const int32_t *cell_units
    uint64_t all
    # Options
    int algorithm
    int var_order
    int value_order
    int limit
    int64_t max_nodes
    int64_t max_nanos
    int64_t started
    # Results
    int64_t nodes
    int64_t guesses
    int count
    int status
    uint64_t rng
    uint8_t *solution
    # Workspace: search levels, each `level_bytes` long
    uint8_t *levels
    int capacity
    size_t level_bytes
    int32_t *queue
    uint8_t *in_queue
    int64_t queue_head
    int64_t queue_tail
    int64_t queue_size
    int64_t queued  # arcs waiting in the AC-3 ring
    Stop *stop


# ---------------------------------------------------------------- random numbers

cdef inline uint64_t next_random(uint64_t *state) noexcept nogil:
    """SplitMix64 (the package's one copy, in `_rng`): the next 64-bit number."""
    return splitmix64(state)


cdef inline int below(uint64_t *state, int n) noexcept nogil:
    """A number from 0 to n-1 (n >= 1)."""
    return <int>(next_random(state) % <uint64_t>n)


cdef void shuffle(uint64_t *state, int *items, int k) noexcept nogil:
    """Put items[0..k-1] in a random order (Fisher-Yates, from the top down)."""
    cdef int i = k - 1, j, tmp
    while i > 0:
        j = below(state, i + 1)
        tmp = items[i]
        items[i] = items[j]
        items[j] = tmp
        i -= 1


cdef inline uint64_t seed_state(uint64_t seed, int64_t index) noexcept nogil:
    """The starting state of puzzle `index` of a batch run with `seed`."""
    return seed ^ (<uint64_t>index * 0xD1B54A32D192ED03ULL)


# ---------------------------------------------------------------- level access

cdef inline uint64_t *level_cand(Ctx *x, int depth) noexcept nogil:
    return <uint64_t *>(x.levels + <size_t>depth * x.level_bytes)


cdef inline uint64_t *level_used(Ctx *x, int depth) noexcept nogil:
    return <uint64_t *>(x.levels + <size_t>depth * x.level_bytes) + x.cells


cdef inline uint8_t *level_flags(Ctx *x, int depth) noexcept nogil:
    return <uint8_t *>(<uint64_t *>(x.levels + <size_t>depth * x.level_bytes) + x.cells + 3 * x.n)


cdef bint reserve(Ctx *x, int depth) noexcept nogil:
    """Make room for levels 0..depth; False when out of memory."""
    cdef int capacity = x.capacity
    cdef uint8_t *grown
    if depth < capacity:
        return True
    while capacity <= depth:
        capacity = capacity * 2 if capacity else 16
    grown = <uint8_t *>realloc(x.levels, <size_t>capacity * x.level_bytes)
    if grown == NULL:
        return False
    x.levels = grown
    x.capacity = capacity
    return True


# ---------------------------------------------------------------- domains

cdef inline bint is_open(Ctx *x, int depth, int cell) noexcept nogil:
    """True when the cell is still to be decided at this level."""
    if x.algorithm == BACKTRACKING:
        return level_cand(x, depth)[cell] == 0
    if x.algorithm == FC:
        return level_flags(x, depth)[cell] == 0
    return bits_popcount(level_cand(x, depth)[cell]) > 1


cdef inline uint64_t domain(Ctx *x, int depth, int cell) noexcept nogil:
    """The values the cell may still take (bit v-1 for value v)."""
    cdef const int32_t *u
    cdef uint64_t *used
    if x.algorithm == BACKTRACKING:
        if level_cand(x, depth)[cell]:
            return level_cand(x, depth)[cell]
        used = level_used(x, depth)
        u = x.cell_units + 3 * cell
        return x.all & ~(used[u[0]] | used[u[1]] | used[u[2]])
    return level_cand(x, depth)[cell]


cdef int pick_cell(Ctx *x, int depth) noexcept nogil:
    """The open cell to branch on by the variable order, or -1 when none is open."""
    cdef int cell, best = -1, best_size = 0, size, open_count = 0, k
    if x.var_order == VAR_RANDOM:
        for cell in range(x.cells):
            if is_open(x, depth, cell):
                open_count += 1
        if open_count == 0:
            return -1
        k = below(&x.rng, open_count)
        for cell in range(x.cells):
            if is_open(x, depth, cell):
                if k == 0:
                    return cell
                k -= 1
        return -1
    for cell in range(x.cells):
        if not is_open(x, depth, cell):
            continue
        if x.var_order == VAR_FIRST:
            return cell
        size = bits_popcount(domain(x, depth, cell))
        if (
            best < 0
            or (x.var_order == VAR_MINRV and size < best_size)
            or (x.var_order == VAR_MAXRV and size > best_size)
        ):
            best = cell
            best_size = size
    return best


cdef int order_values(Ctx *x, int depth, int cell, uint64_t dom, int *values) noexcept nogil:
    """The cell's candidate values (0-based) in the value order; returns how many."""
    cdef int k = 0, i, j, tmp, p, v
    cdef int scores[64]
    cdef uint64_t rest = dom, bit
    while rest:
        values[k] = bits_lowest_index(rest)
        rest &= rest - 1
        k += 1
    if x.value_order == VAL_RANDOM:
        shuffle(&x.rng, values, k)
    elif x.value_order == VAL_MOST or x.value_order == VAL_LEAST:
        # A value's score: the open peers that still have it (the choices it removes).
        for i in range(k):
            bit = (<uint64_t>1) << values[i]
            scores[i] = 0
            for j in range(x.npeers):
                p = x.peers[cell * x.npeers + j]
                if is_open(x, depth, p) and domain(x, depth, p) & bit:
                    scores[i] += 1
            if x.value_order == VAL_MOST:
                scores[i] = -scores[i]
        # Stable insertion sort by score: ties keep the lower value first.
        for i in range(1, k):
            v = values[i]
            tmp = scores[i]
            j = i - 1
            while j >= 0 and scores[j] > tmp:
                values[j + 1] = values[j]
                scores[j + 1] = scores[j]
                j -= 1
            values[j + 1] = v
            scores[j + 1] = tmp
    return k


# ---------------------------------------------------------------- propagation

cdef inline void push_cell(Ctx *x, int cell) noexcept nogil:
    x.queue[x.queue_tail] = cell
    x.queue_tail += 1


cdef bint drain_singles(Ctx *x, uint64_t *cand) noexcept nogil:
    """Remove the value of every queued single-valued cell from its peers (to a fixpoint)."""
    cdef int cell, p, k
    cdef uint64_t bit
    while x.queue_head < x.queue_tail:
        cell = x.queue[x.queue_head]
        x.queue_head += 1
        bit = cand[cell]
        for k in range(x.npeers):
            p = x.peers[cell * x.npeers + k]
            if cand[p] & bit:
                cand[p] &= ~bit
                if cand[p] == 0:
                    return False
                if cand[p] & (cand[p] - 1) == 0:
                    push_cell(x, p)
    return True


cdef int hidden_singles(Ctx *x, uint64_t *cand) noexcept nogil:
    """Place every value with one place left in a unit: -1 on contradiction, 1 if any."""
    cdef int u, k, cell, changed = 0
    cdef uint64_t once, twice, m, singles, bit
    cdef const int32_t *unit
    for u in range(3 * x.n):
        unit = x.units + u * x.n
        once = 0
        twice = 0
        for k in range(x.n):
            m = cand[unit[k]]
            twice |= once & m
            once |= m
        if once != x.all:
            return -1
        singles = once & ~twice
        while singles:
            bit = singles & (~singles + 1)
            singles ^= bit
            cell = -1
            for k in range(x.n):
                if cand[unit[k]] & bit:
                    cell = unit[k]
                    break
            if cell < 0:
                return -1  # the cell took another single of this unit
            if cand[cell] != bit:
                cand[cell] = bit
                push_cell(x, cell)
                changed = 1
    return changed


cdef int naked_pairs(Ctx *x, uint64_t *cand) noexcept nogil:
    """Two cells of a unit with the same two values clear them from the rest of the unit."""
    cdef int u, i, j, k, changed = 0
    cdef uint64_t pair
    cdef const int32_t *unit
    for u in range(3 * x.n):
        unit = x.units + u * x.n
        for i in range(x.n):
            pair = cand[unit[i]]
            if bits_popcount(pair) != 2:
                continue
            for j in range(i + 1, x.n):
                if cand[unit[j]] != pair:
                    continue
                for k in range(x.n):
                    if k == i or k == j or not cand[unit[k]] & pair:
                        continue
                    cand[unit[k]] &= ~pair
                    if cand[unit[k]] == 0:
                        return -1
                    if cand[unit[k]] & (cand[unit[k]] - 1) == 0:
                        push_cell(x, unit[k])
                    changed = 1
    return changed


cdef bint propagate(Ctx *x, uint64_t *cand) noexcept nogil:
    """Run the algorithm's propagation to its fixpoint; False on contradiction."""
    cdef int found
    while True:
        if not drain_singles(x, cand):
            return False
        if x.algorithm < AC_DUAL:
            return True
        found = hidden_singles(x, cand)
        if found < 0:
            return False
        if found:
            continue
        if x.algorithm < AC_DUAL_NP:
            return True
        found = naked_pairs(x, cand)
        if found < 0:
            return False
        if not found:
            return True


cdef inline void queue_arc(Ctx *x, int64_t arc) noexcept nogil:
    if x.in_queue[arc]:
        return
    x.in_queue[arc] = 1
    x.queued += 1
    x.queue[x.queue_tail] = <int32_t>arc
    x.queue_tail += 1
    if x.queue_tail == x.queue_size:
        x.queue_tail = 0


cdef void queue_arcs_into(Ctx *x, int cell) noexcept nogil:
    """Queue the arcs (Xp, Xcell) of every peer p: their domains are revised against cell's."""
    cdef int k, p
    for k in range(x.npeers):
        p = x.peers[cell * x.npeers + k]
        queue_arc(x, <int64_t>p * x.npeers + x.back[cell * x.npeers + k])


cdef bint arc_consistency(Ctx *x, uint64_t *cand) noexcept nogil:
    """AC-3 over the queued arcs; False (queue emptied) on contradiction."""
    cdef int64_t arc
    cdef int i, j, k, p
    while x.queued > 0:
        arc = x.queue[x.queue_head]
        x.queued -= 1
        x.queue_head += 1
        if x.queue_head == x.queue_size:
            x.queue_head = 0
        x.in_queue[arc] = 0
        i = <int>(arc // x.npeers)
        j = x.peers[arc]
        # Revise (Xi, Xj): a value of Di needs a different value in Dj.
        if cand[j] & (cand[j] - 1) == 0 and cand[i] & cand[j]:
            cand[i] &= ~cand[j]
            if cand[i] == 0:
                memset(x.in_queue, 0, <size_t>x.queue_size)
                x.queue_head = 0
                x.queue_tail = 0
                x.queued = 0
                return False
            for k in range(x.npeers):
                p = x.peers[i * x.npeers + k]
                if p != j:
                    queue_arc(x, <int64_t>p * x.npeers + x.back[i * x.npeers + k])
    return True


cdef bint assign(Ctx *x, int depth, int cell, int value) noexcept nogil:
    """Give the cell a value at this level and propagate; False on contradiction."""
    cdef uint64_t bit = (<uint64_t>1) << value
    cdef uint64_t *cand = level_cand(x, depth)
    cdef uint64_t *used
    cdef uint8_t *flags
    cdef const int32_t *u
    cdef int k, p
    cand[cell] = bit
    if x.algorithm == BACKTRACKING:
        used = level_used(x, depth)
        u = x.cell_units + 3 * cell
        used[u[0]] |= bit
        used[u[1]] |= bit
        used[u[2]] |= bit
        return True
    if x.algorithm == FC:
        flags = level_flags(x, depth)
        flags[cell] = 1
        for k in range(x.npeers):
            p = x.peers[cell * x.npeers + k]
            if not flags[p] and cand[p] & bit:
                cand[p] &= ~bit
                if cand[p] == 0:
                    return False
        return True
    if x.algorithm == AC3:
        queue_arcs_into(x, cell)
        return arc_consistency(x, cand)
    x.queue_head = 0
    x.queue_tail = 0
    push_cell(x, cell)
    return propagate(x, cand)


cdef bint setup_root(Ctx *x, const uint8_t *grid) noexcept nogil:
    """Level 0 from the clues; False when they already contradict."""
    cdef uint64_t *cand = level_cand(x, 0)
    cdef uint64_t *used = level_used(x, 0)
    cdef uint8_t *flags = level_flags(x, 0)
    cdef int cell
    cdef uint64_t bit
    cdef const int32_t *u
    memset(x.levels, 0, x.level_bytes)
    if x.algorithm == BACKTRACKING:
        for cell in range(x.cells):
            if grid[cell]:
                bit = (<uint64_t>1) << (grid[cell] - 1)
                u = x.cell_units + 3 * cell
                if (used[u[0]] | used[u[1]] | used[u[2]]) & bit:
                    return False
                cand[cell] = bit
                used[u[0]] |= bit
                used[u[1]] |= bit
                used[u[2]] |= bit
        return True
    for cell in range(x.cells):
        cand[cell] = x.all
    if x.algorithm == FC:
        for cell in range(x.cells):
            if grid[cell]:
                bit = (<uint64_t>1) << (grid[cell] - 1)
                if not cand[cell] & bit or not assign(x, 0, cell, grid[cell] - 1):
                    return False
        return True
    for cell in range(x.cells):
        if grid[cell]:
            cand[cell] = (<uint64_t>1) << (grid[cell] - 1)
    if x.algorithm == AC3:
        memset(x.in_queue, 0, <size_t>x.queue_size)
        x.queue_head = 0
        x.queue_tail = 0
        x.queued = 0
        for cell in range(x.cells):
            queue_arcs_into(x, cell)
        return arc_consistency(x, cand)
    x.queue_head = 0
    x.queue_tail = 0
    for cell in range(x.cells):
        if grid[cell]:
            push_cell(x, cell)
    return propagate(x, cand)


# ---------------------------------------------------------------- search

cdef inline bint out_of_budget(Ctx *x) noexcept nogil:
    """True (status set) when the node or time budget is spent or a stop was asked for."""
    if x.max_nodes > 0 and x.nodes >= x.max_nodes:
        x.status = OUT_OF_NODES
        return True
    if x.nodes % CHECK_EVERY == 0:
        if x.max_nanos > 0 and clock_nanos(True) - x.started >= x.max_nanos:
            x.status = OUT_OF_TIME
            return True
        if x.stop != NULL and poll(x.stop):
            x.status = STOPPED_BY_FLAG
            return True
    return False


cdef void found_solution(Ctx *x, int depth) noexcept nogil:
    cdef uint64_t *cand = level_cand(x, depth)
    cdef int cell
    x.count += 1
    if x.count == 1:
        for cell in range(x.cells):
            x.solution[cell] = <uint8_t>(bits_lowest_index(cand[cell]) + 1)


cdef bint search(Ctx *x, int depth) noexcept nogil:
    """Depth-first search below this level; True when the whole solve must stop."""
    cdef int values[64]
    cdef int cell, k, i
    cell = pick_cell(x, depth)
    if cell < 0:
        found_solution(x, depth)
        return x.count >= x.limit
    k = order_values(x, depth, cell, domain(x, depth, cell), values)
    if not reserve(x, depth + 1):
        x.status = NO_MEMORY
        return True
    for i in range(k):
        if out_of_budget(x):
            return True
        x.nodes += 1
        if i < k - 1:
            x.guesses += 1
        memcpy(level_cand(x, depth + 1), level_cand(x, depth), x.level_bytes)
        if assign(x, depth + 1, cell, values[i]):
            if search(x, depth + 1):
                return True
    return False


cdef bint complete_and_valid(Ctx *x, const uint8_t *grid) noexcept nogil:
    cdef int u, k
    cdef uint64_t seen
    for u in range(3 * x.n):
        seen = 0
        for k in range(x.n):
            seen |= (<uint64_t>1) << (grid[x.units[u * x.n + k]] - 1)
        if seen != x.all:
            return False
    return True


cdef void comb(Ctx *x, const uint8_t *grid) noexcept nogil:
    """Generate and test: every filling of the empty cells, in odometer order."""
    cdef uint8_t *trial = <uint8_t *>malloc(x.cells + 1)
    cdef int32_t *empty = <int32_t *>malloc((x.cells + 1) * sizeof(int32_t))
    cdef int m = 0, cell, i
    if trial == NULL or empty == NULL:
        x.status = NO_MEMORY
        free(trial)
        free(empty)
        return
    memcpy(trial, grid, x.cells)
    for cell in range(x.cells):
        if grid[cell] == 0:
            empty[m] = cell
            trial[cell] = 1
            m += 1
    while True:
        if out_of_budget(x):
            break
        x.nodes += 1
        x.guesses += 1
        if complete_and_valid(x, trial):
            x.count += 1
            if x.count == 1:
                memcpy(x.solution, trial, x.cells)
            if x.count >= x.limit:
                break
        i = m - 1
        while i >= 0 and trial[empty[i]] == x.n:
            trial[empty[i]] = 1
            i -= 1
        if i < 0:
            break
        trial[empty[i]] += 1
    free(trial)
    free(empty)


# ---------------------------------------------------------------- dancing links

cdef struct Links:
    int32_t *left
    int32_t *right
    int32_t *up
    int32_t *down
    int32_t *column
    int32_t *row     # the (cell * N + value) of a node's row
    int32_t *size    # nodes left in each column
    int32_t *chosen  # rows chosen, by depth
    int columns


cdef inline void cover(Links *d, int c) noexcept nogil:
    cdef int i, j
    d.right[d.left[c]] = d.right[c]
    d.left[d.right[c]] = d.left[c]
    i = d.down[c]
    while i != c:
        j = d.right[i]
        while j != i:
            d.down[d.up[j]] = d.down[j]
            d.up[d.down[j]] = d.up[j]
            d.size[d.column[j]] -= 1
            j = d.right[j]
        i = d.down[i]


cdef inline void uncover(Links *d, int c) noexcept nogil:
    cdef int i, j
    i = d.up[c]
    while i != c:
        j = d.left[i]
        while j != i:
            d.size[d.column[j]] += 1
            d.down[d.up[j]] = j
            d.up[d.down[j]] = j
            j = d.left[j]
        i = d.up[i]
    d.right[d.left[c]] = c
    d.left[d.right[c]] = c


cdef bint links_init(Links *d, Ctx *x) noexcept nogil:
    """The exact-cover matrix of an empty grid: 4*N*N columns, N*N*N rows of 4 nodes."""
    cdef int n = x.n, cells = x.cells
    cdef int columns = 4 * cells
    cdef int64_t total = 1 + columns + 4 * <int64_t>cells * n
    cdef int cell, v, k, node, col, first
    cdef int cols[4]
    d.columns = columns
    d.left = <int32_t *>malloc(total * sizeof(int32_t))
    d.right = <int32_t *>malloc(total * sizeof(int32_t))
    d.up = <int32_t *>malloc(total * sizeof(int32_t))
    d.down = <int32_t *>malloc(total * sizeof(int32_t))
    d.column = <int32_t *>malloc(total * sizeof(int32_t))
    d.row = <int32_t *>malloc(total * sizeof(int32_t))
    d.size = <int32_t *>malloc((columns + 1) * sizeof(int32_t))
    d.chosen = <int32_t *>malloc((cells + 1) * sizeof(int32_t))
    if (
        d.left == NULL or d.right == NULL or d.up == NULL or d.down == NULL
        or d.column == NULL or d.row == NULL or d.size == NULL or d.chosen == NULL
    ):
        return False
    for col in range(columns + 1):
        d.left[col] = col - 1 if col > 0 else columns
        d.right[col] = col + 1 if col < columns else 0
        d.up[col] = col
        d.down[col] = col
        d.column[col] = col
        d.row[col] = -1
        d.size[col] = 0
    node = columns + 1
    for cell in range(cells):
        for v in range(n):
            cols[0] = 1 + cell
            for k in range(3):
                cols[k + 1] = 1 + cells * (k + 1) + (x.cell_units[3 * cell + k] - k * n) * n + v
            first = node
            for k in range(4):
                col = cols[k]
                d.column[node] = col
                d.row[node] = cell * n + v
                d.down[node] = col
                d.up[node] = d.up[col]
                d.down[d.up[col]] = node
                d.up[col] = node
                d.size[col] += 1
                d.left[node] = node - 1 if k > 0 else first + 3
                d.right[node] = node + 1 if k < 3 else first
                node += 1
    return True


cdef void links_free(Links *d) noexcept nogil:
    free(d.left)
    free(d.right)
    free(d.up)
    free(d.down)
    free(d.column)
    free(d.row)
    free(d.size)
    free(d.chosen)


cdef int pick_column(Links *d, Ctx *x) noexcept nogil:
    cdef int c = d.right[0], best = -1, open_count = 0, k
    if x.var_order == VAR_FIRST:
        return c
    if x.var_order == VAR_RANDOM:
        while c != 0:
            open_count += 1
            c = d.right[c]
        k = below(&x.rng, open_count)
        c = d.right[0]
        while k:
            c = d.right[c]
            k -= 1
        return c
    while c != 0:
        if (
            best < 0
            or (x.var_order == VAR_MINRV and d.size[c] < d.size[best])
            or (x.var_order == VAR_MAXRV and d.size[c] > d.size[best])
        ):
            best = c
            if x.var_order == VAR_MINRV and d.size[c] == 0:
                # Nothing is smaller: the first empty column is the first minimum,
                # so the choice is the full scan's and a dead end costs no more scanning.
                break
        c = d.right[c]
    return best


cdef bint dlx_search(Links *d, Ctx *x, int depth) noexcept nogil:
    """Algorithm X below `depth` chosen rows; True when the whole solve must stop."""
    cdef int rows[64]
    cdef int c, r, j, k = 0, i
    if d.right[0] == 0:
        x.count += 1
        if x.count == 1:
            for i in range(depth):
                x.solution[d.chosen[i] // x.n] = <uint8_t>(d.chosen[i] % x.n + 1)
        return x.count >= x.limit
    c = pick_column(d, x)
    if d.size[c] == 0:
        return False
    cover(d, c)
    r = d.down[c]
    while r != c:
        rows[k] = r
        k += 1
        r = d.down[r]
    if x.value_order == VAL_RANDOM:
        shuffle(&x.rng, rows, k)
    for i in range(k):
        if out_of_budget(x):
            return True
        x.nodes += 1
        if i < k - 1:
            x.guesses += 1
        r = rows[i]
        d.chosen[depth] = d.row[r]
        j = d.right[r]
        while j != r:
            cover(d, d.column[j])
            j = d.right[j]
        if dlx_search(d, x, depth + 1):
            return True
        j = d.left[r]
        while j != r:
            uncover(d, d.column[j])
            j = d.left[j]
    uncover(d, c)
    return False


cdef void dlx(Ctx *x, const uint8_t *grid) noexcept nogil:
    """Solve with dancing links: the clues' rows are chosen first."""
    cdef Links d
    cdef int cell, node, j, n = x.n
    memset(&d, 0, sizeof(Links))
    if not links_init(&d, x):
        x.status = NO_MEMORY
        links_free(&d)
        return
    for cell in range(x.cells):
        if grid[cell] == 0:
            continue
        x.solution[cell] = grid[cell]
        # The clue's row: its first node comes 4 per row after the column headers.
        node = d.columns + 1 + 4 * (cell * n + grid[cell] - 1)
        j = node
        while True:
            # A column already covered by another clue: the clues clash.
            if d.left[d.right[d.column[j]]] != d.column[j]:
                links_free(&d)
                return
            j = d.right[j]
            if j == node:
                break
        j = node
        while True:
            cover(&d, d.column[j])
            j = d.right[j]
            if j == node:
                break
    dlx_search(&d, x, 0)
    links_free(&d)


# ---------------------------------------------------------------- driver

cdef bint ctx_init(Ctx *x, Tables t, int algorithm, int var_order, int value_order) noexcept:
    memset(x, 0, sizeof(Ctx))
    x.n = t.n
    x.cells = t.cells
    x.npeers = t.npeers
    x.peers = t.peers
    x.back = t.back
    x.units = t.units
    x.cell_units = t.cell_units
    x.all = ((<uint64_t>1) << t.n) - 1 if t.n < 64 else <uint64_t>0xFFFFFFFFFFFFFFFFULL
    x.algorithm = algorithm
    x.var_order = var_order
    x.value_order = value_order
    x.level_bytes = <size_t>(x.cells + 3 * x.n) * sizeof(uint64_t) + <size_t>((x.cells + 7) // 8 * 8)
    x.queue_size = <int64_t>x.cells * x.npeers if algorithm == AC3 else x.cells + 1
    if x.queue_size < 1:
        x.queue_size = 1
    x.queue = <int32_t *>malloc(<size_t>x.queue_size * sizeof(int32_t))
    x.in_queue = <uint8_t *>malloc(<size_t>x.queue_size)
    x.solution = <uint8_t *>malloc(<size_t>x.cells + 1)
    if x.queue == NULL or x.in_queue == NULL or x.solution == NULL:
        return False
    memset(x.in_queue, 0, <size_t>x.queue_size)
    return reserve(x, 0)


cdef void ctx_free(Ctx *x) noexcept nogil:
    free(x.queue)
    free(x.in_queue)
    free(x.solution)
    free(x.levels)


cdef void solve_one(Ctx *x, const uint8_t *grid) noexcept nogil:
    """Solve one grid with the context's algorithm; results stay in the context."""
    x.nodes = 1
    x.guesses = 0
    x.count = 0
    x.status = DONE
    memset(x.solution, 0, <size_t>x.cells)
    if x.algorithm == COMB:
        comb(x, grid)
    elif x.algorithm == DLX:
        dlx(x, grid)
    elif setup_root(x, grid):
        search(x, 0)


# ---------------------------------------------------------------- restarts

cdef enum:
    FIRSTS_KEPT = 256  # distinct first solutions a restarting solve remembers


cdef int64_t luby(int64_t i) noexcept nogil:
    """Term i (from 1) of Luby's sequence: 1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 ..."""
    cdef int k
    while True:
        k = 1
        while ((<int64_t>1) << k) - 1 < i:
            k += 1
        if ((<int64_t>1) << k) - 1 == i:
            return (<int64_t>1) << (k - 1)
        i -= ((<int64_t>1) << (k - 1)) - 1


cdef int64_t run_cutoff(int64_t restart_after, int64_t run) noexcept nogil:
    """The node budget of run `run` (from 1): restart_after times Luby's term, 0 if huge."""
    cdef int64_t term = luby(run)
    if restart_after > (<int64_t>1 << 62) // term:
        return 0
    return restart_after * term


cdef int solve_restarting(
    Ctx *x, const uint8_t *grid, int64_t restart_after, uint8_t *firsts
) noexcept nogil:
    """Solve one grid in runs of growing node budgets (Luby's sequence times
    `restart_after`), the random stream going on from run to run; returns the restarts.

    A run that ends within its budget gives the answer: its tree is complete (or it
    found `limit` solutions). A run cut short adds its first solution to the distinct
    ones seen (`firsts`, room for FIRSTS_KEPT); once as many as `limit` are known, so
    is the answer. `x.max_nodes` (0 = none) bounds the nodes of all runs together; when
    it or the time runs out, the count is a lower bound: the most solutions one run
    found or the distinct first solutions, whichever is more. The context ends with
    the totals of nodes and guesses, and the first solution found by any run.
    """
    cdef int64_t total_budget = x.max_nodes, cutoff, nodes = 0, guesses = 0
    cdef int64_t run = 0
    cdef int best = 0, kept = 0, k, status
    cdef bint final, seen
    cdef size_t cells = <size_t>x.cells
    while True:
        run += 1
        cutoff = run_cutoff(restart_after, run)
        final = cutoff == 0
        if total_budget > 0 and (final or total_budget - nodes <= cutoff):
            cutoff = total_budget - nodes
            final = True
        x.max_nodes = cutoff
        solve_one(x, grid)
        nodes += x.nodes
        guesses += x.guesses
        status = x.status
        if status == OUT_OF_NODES and not final:
            if x.count > best:
                best = x.count
            if x.count > 0 and kept < FIRSTS_KEPT:
                seen = False
                for k in range(kept):
                    if memcmp(&firsts[<size_t>k * cells], x.solution, cells) == 0:
                        seen = True
                        break
                if not seen:
                    memcpy(&firsts[<size_t>kept * cells], x.solution, cells)
                    kept += 1
            if kept >= x.limit:  # a cut run found fewer than `limit` itself
                x.count = x.limit
                status = DONE
                break
            continue
        if status != DONE:  # out of nodes or time, stopped: keep what is known
            if best > x.count:
                x.count = best
            if kept > x.count:
                x.count = kept
        break
    x.status = status
    x.nodes = nodes
    x.guesses = guesses
    x.max_nodes = total_budget
    if kept > 0:  # the first solution found: that of the earliest run cut short with one
        memcpy(x.solution, firsts, cells)
    return <int>(run - 1)


def solve_range(
    Tables tables,
    const uint8_t[::1] grids,
    uint8_t[::1] solutions,
    int32_t[::1] counts,
    uint8_t[::1] statuses,
    int64_t[::1] nodes,
    int64_t[::1] guesses,
    int64_t[::1] nanos,
    Py_ssize_t start,
    Py_ssize_t stop,
    int algorithm,
    int var_order,
    int value_order,
    int limit,
    int64_t max_nodes,
    int64_t max_nanos,
    uint64_t seed,
    stop_flag=None,
    int64_t restart_after=0,
    int32_t[::1] restarts=None,
):
    """Solve puzzles start..stop-1 of `grids` (N*N values each, 0 = empty) with one algorithm.

    Counts solutions up to `limit`; writes the first solution, the count, the status
    (0 done, 1 out of nodes, 2 out of time, 3 stopped, 4 out of memory), the nodes, the
    guesses and the CPU time of the solving thread in nanoseconds (less the clock's
    reading cost; wall time where the platform has no thread CPU clock) of each puzzle
    to its slot; the `max_nanos` budget is on the same clock. Puzzle i draws
    its random numbers from a sequence seeded with (`seed`, i), so results do not depend
    on how a batch is split. `max_nodes` / `max_nanos` of 0 mean no budget.

    With `restart_after` > 0 each puzzle is solved in runs that restart (see
    `solve_restarting`), `max_nodes` bounding all its runs together, and the number of
    restarts goes to `restarts`.
    """
    cdef Ctx x
    cdef uint8_t *firsts = NULL
    cdef int restarted
    cdef Stop stop_state
    cdef const unsigned char *flag = NULL
    cdef const uint8_t[::1] flag_view
    cdef Py_ssize_t i
    cdef int cells = tables.cells
    cdef bint main_thread = threading.current_thread() is threading.main_thread()
    cdef long long began, overhead
    if not 0 <= algorithm <= DLX or not 0 <= var_order <= 3 or not 0 <= value_order <= 3:
        raise ValueError("unknown algorithm or order code")
    if limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit}")
    if start < 0 or stop < start or grids.shape[0] < stop * cells or solutions.shape[0] < stop * cells:
        raise ValueError("grids or solutions too short for the range")
    if (
        counts.shape[0] < stop or statuses.shape[0] < stop or nodes.shape[0] < stop
        or guesses.shape[0] < stop or nanos.shape[0] < stop
    ):
        raise ValueError("output arrays too short for the range")
    if restart_after < 0:
        raise ValueError(f"restart_after must not be negative, got {restart_after}")
    if restart_after > 0 and (restarts is None or restarts.shape[0] < stop):
        raise ValueError("restarting needs a restarts array as long as the range")
    for i in range(start * cells, stop * cells):
        if grids[i] > tables.n:
            raise ValueError(f"puzzle {i // cells}: value {grids[i]} above {tables.n}")
    if stop_flag is not None:
        flag_view = stop_flag
        flag = &flag_view[0]
    if not ctx_init(&x, tables, algorithm, var_order, value_order):
        ctx_free(&x)
        raise MemoryError()
    if restart_after > 0:
        firsts = <uint8_t *>malloc(<size_t>FIRSTS_KEPT * <size_t>cells)
        if firsts == NULL:
            ctx_free(&x)
            raise MemoryError()
    x.limit = limit
    x.max_nodes = max_nodes
    x.max_nanos = max_nanos
    stop_init(&stop_state, flag, main_thread)
    x.stop = &stop_state
    try:
        with nogil:
            overhead = measurement_overhead(True)
            for i in range(start, stop):
                x.rng = seed_state(seed, i)
                began = clock_nanos(True)
                x.started = began
                if restart_after > 0:
                    restarted = solve_restarting(&x, &grids[i * cells], restart_after, firsts)
                    restarts[i] = restarted
                else:
                    solve_one(&x, &grids[i * cells])
                nanos[i] = elapsed(began, overhead, True)
                counts[i] = x.count
                statuses[i] = <uint8_t>x.status
                nodes[i] = x.nodes
                guesses[i] = x.guesses
                if x.count > 0:
                    memcpy(&solutions[i * cells], x.solution, <size_t>cells)
                if x.status == STOPPED_BY_FLAG:
                    break
    finally:
        ctx_free(&x)
        free(firsts)
    raise_saved(&stop_state)


def random_range(
    Tables tables,
    int clues,
    int distinct,
    uint64_t seed,
    uint8_t[::1] out,
    int32_t[::1] restarts,
    Py_ssize_t start,
    Py_ssize_t stop,
    int32_t max_restarts=2147483647,
    stop_flag=None,
):
    """Random puzzles start..stop-1 into `out`, by the essay's recipe.

    Visit the cells in a random order and give each a random value among those it still
    has, propagating as ac+dual does; as soon as at least `clues` cells have a single
    value and they show at least `distinct` different values, those cells are the
    puzzle. A contradiction starts the puzzle over (counted in `restarts[i]`). Puzzle i
    draws from a sequence seeded with (`seed`, i).

    A puzzle still not made after `max_restarts` restarts is given up: its `restarts[i]`
    is -1 and its values stay 0 (many clues on a large grid are rarely reached). Between
    restarts the search polls `stop_flag` (a byte another thread sets) and, in the main
    thread, Ctrl-C; a stop leaves the later puzzles of the range unmade.
    """
    cdef Stop stop_state
    cdef const unsigned char *flag = NULL
    cdef const uint8_t[::1] flag_view
    cdef bint main_thread = threading.current_thread() is threading.main_thread()
    cdef Ctx x
    cdef Py_ssize_t i
    cdef int cells = tables.cells, k, cell, singles, step
    cdef uint64_t seen, m, bit
    cdef uint64_t *cand
    cdef int *order
    cdef bint done
    if out.shape[0] < stop * cells or restarts.shape[0] < stop or start < 0 or stop < start:
        raise ValueError("output arrays too short for the range")
    if not 1 <= clues <= cells or not 1 <= distinct <= tables.n:
        raise ValueError(f"clues must be from 1 to {cells}, distinct from 1 to {tables.n}")
    if max_restarts < 0:
        raise ValueError(f"max_restarts must not be negative, got {max_restarts}")
    if stop_flag is not None:
        flag_view = stop_flag
        flag = &flag_view[0]
    stop_init(&stop_state, flag, main_thread)
    if not ctx_init(&x, tables, AC_DUAL, VAR_FIRST, VAL_FIRST):
        ctx_free(&x)
        raise MemoryError()
    order = <int *>malloc((cells + 1) * sizeof(int))
    if order == NULL:
        ctx_free(&x)
        raise MemoryError()
    cand = level_cand(&x, 0)
    try:
        with nogil:
            for i in range(start, stop):
                x.rng = seed_state(seed, i)
                restarts[i] = 0
                done = False
                while not done:
                    for k in range(cells):
                        cand[k] = x.all
                        order[k] = k
                    shuffle(&x.rng, order, cells)
                    for step in range(cells):
                        cell = order[step]
                        m = cand[cell]
                        if m & (m - 1):
                            k = below(&x.rng, bits_popcount(m))
                            while k:
                                m &= m - 1
                                k -= 1
                            cand[cell] = m & (~m + 1)
                            x.queue_head = 0
                            x.queue_tail = 0
                            push_cell(&x, cell)
                            if not propagate(&x, cand):
                                break
                        singles = 0
                        seen = 0
                        for k in range(cells):
                            m = cand[k]
                            if m & (m - 1) == 0:
                                singles += 1
                                seen |= m
                        if singles >= clues and bits_popcount(seen) >= distinct:
                            for k in range(cells):
                                m = cand[k]
                                out[i * cells + k] = (
                                    bits_lowest_index(m) + 1 if m & (m - 1) == 0 else 0
                                )
                            done = True
                            break
                    if not done:
                        if restarts[i] == max_restarts:
                            restarts[i] = -1
                            break
                        restarts[i] += 1
                        if poll(&stop_state):
                            break
                if stop_state.stopped:
                    break
    finally:
        free(order)
        ctx_free(&x)
    raise_saved(&stop_state)
