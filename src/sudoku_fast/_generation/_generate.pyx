# cython: language_level=3
# Every other directive is set once for all modules in setup.py.
"""Puzzle generation in C: one call makes a whole range of puzzles without the GIL.

Puzzle i comes from seeds[i] alone, through the steps described in generator.py (whose
pure-Python twin follows the same steps with the same random numbers, so both give the
same puzzles):

1. A private xoshiro256** generator seeded by splitmix64 from the puzzle's seed; ranges
   are drawn by rejection (no modulo bias), lists are shuffled by Fisher-Yates.
2. A random full grid: random diagonal boxes (square boxes) or a random first row, a
   depth-first completion (fewest-candidates cell first, its values in random order,
   naked and hidden singles propagated) given up after `fill_nodes` branches for a
   fresh random start, then a random relabelling, band/stack and row/column
   permutation and, for square boxes, a transposition half of the time.
3. Clue removal: the symmetry orbits in random order; an orbit's removal is kept when
   the puzzle still has exactly one solution, checked by the 9x9 engine (`_core`) or by
   the general engine (`_general`, with a budget of `check_nodes` search nodes: a check
   that runs out refuses the removal and marks the puzzle as unproven minimal).
4. The difficulty: the technique solver's level test (`_logic.level_within`) on the
   minimal puzzle, and once part way for the easier levels (see `early_clues`); a miss
   tries another removal order (`orders_per_grid` per full grid).

Nothing is shared between calls but read-only tables; each call allocates its own
workspace, so any number of threads may generate at once.
"""

from libc.stdint cimport int16_t, int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy

from sudoku_fast._engine cimport _core, _general
from sudoku_fast._techniques cimport _logic
from sudoku_fast._base.bits cimport bits_lowest_index, bits_popcount
from sudoku_fast._base.rng cimport Rng, below, identity, line_order, rng_seed, shuffle
from sudoku_fast._base.stop cimport poll, raise_saved, stop_init

import threading

from sudoku_fast._engine._general import DEFAULT_RESTART_UNIT as _RESTART_UNIT

cdef extern from *:
    """
    #if defined(_WIN32)
    #include <windows.h>
    static long long sfgen_nanos(void) {
        LARGE_INTEGER count, freq;
        QueryPerformanceCounter(&count);
        QueryPerformanceFrequency(&freq);
        return (long long)((double)count.QuadPart * 1e9 / (double)freq.QuadPart);
    }
    #else
    #include <time.h>
    static long long sfgen_nanos(void) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
    }
    #endif
    """
    # A monotonic nanosecond clock, for the optional stats.
    long long sfgen_nanos() nogil

cdef enum:
    # What generating one puzzle can end with.
    MADE = 0
    STOPPED = 1       # the stop flag was set, or a signal handler raised
    NO_MEMORY = 2
    GAVE_UP = 3       # no puzzle at the asked level within max_attempts
    # What a removal pass can end with.
    CARVED = 0        # a minimal puzzle, every check decided
    UNPROVEN = 1      # unique, but some check ran out of nodes: not proven minimal
    TOO_HARD = 2      # already harder than the asked level part way (see early_clues)
    ABORTED = -2      # stopped, or out of memory: the whole range ends
    # A uniqueness check's count beyond 0, 1, 2.
    UNDECIDED = -1    # the general engine ran out of nodes

# Orbits of up to this many cells are checked for uniqueness by searches with the grid's
# value ruled out, one per cell; larger ones by counting solutions to two. Measured in
# instructions per minimal puzzle against counting always: 9x9 17% fewer with single
# cells and 8% with pairs, but 4% and 9% more with orbits of 4 and 8 cells; 10x10,
# 12x12 and 16x16 single cells 16%, 19% and 38% fewer.
cdef enum:
    EXCLUDE_MAX = 2

# Slots of the optional `stats` buffer: totals over a call, for measurements.
cdef enum:
    STAT_GRIDS = 0        # full grids completed
    STAT_FILL_NODES = 1   # branches of the completion searches (given-up ones included)
    STAT_CARVES = 2       # removal passes run
    STAT_CHECKS = 3       # uniqueness checks
    STAT_RATINGS = 4      # level tests
    STAT_FILL_NS = 5      # nanoseconds spent on full grids, on carving, on level tests
    STAT_CARVE_NS = 6
    STAT_RATE_NS = 7
    STAT_FORCED = 8       # removals known to keep the puzzle unique without a check
    STAT_ATTEMPTS = 9     # removal orders started (grids reused included)
    STAT_UNDECIDED = 10   # checks that ran out of nodes
    STAT_SLOTS = 11

STAT_NAMES = (
    "grids",
    "fill_nodes",
    "carves",
    "checks",
    "ratings",
    "fill_ns",
    "carve_ns",
    "rate_ns",
    "forced",
    "attempts",
    "undecided",
)


cdef struct Job:
    # What every puzzle of a call shares, read only.
    const _general.Geo *geo
    bint classic            # 9x9 with 3x3 boxes: uniqueness by the 9x9 engine
    const int32_t *orbit_start  # orbit k holds orbit_cells[orbit_start[k] .. orbit_start[k+1]-1]
    const int32_t *orbit_cells
    int orbits
    int level               # 0 = any difficulty
    const _logic.Tables *logic  # the technique solver's tables (with a level)
    bint minimal
    int64_t fill_nodes
    int orders_per_grid     # removal orders tried on one full grid before a new one
    int early_clues         # minimal, with a level: rate the partial puzzle once this
                            # few clues remain, and give up on it if already too hard
    int64_t max_attempts    # removal orders tried per puzzle before giving up
    int exclude_max         # EXCLUDE_MAX (a field, so measurements can change it)
    _general.Control *ctl   # budget, stop flag and signals of the general engine's checks
    int64_t *stats          # NULL, or the STAT_SLOTS totals to add to


cdef struct Work:
    # One thread's scratch, allocated once per call.
    uint64_t *cand          # completion search: (cells + 1) levels of candidate masks
    int32_t *branch_cell    # per level: the cell branched on
    int32_t *values         # per level: its values (1..N) in the order to try them
    int32_t *count          # per level: how many values it has
    int32_t *tried          # per level: how many were tried
    int32_t *queue          # cells fixed to one value, not yet cleared from their peers
    int32_t *scratch        # N + N + N ints: row order, column order, labels
    int32_t *groups         # N ints
    int32_t *order          # the orbits in removal order
    int32_t *removed        # the orbits removed, in order
    uint8_t *filled         # the full grid before the transformation
    uint8_t *grid           # the full grid
    uint8_t *puzzle         # the puzzle being carved
    uint8_t *solution       # scratch for the engines
    uint64_t *unit_values   # per unit: the values of its clues in w.puzzle (as bits)
    uint64_t *masks         # per cell: every value (a value is ruled out for one check)
    _general.Workspace engine
    bint engine_ready
    bint no_memory          # a check of the general engine ran out of memory


cdef bint work_init(Work *w, const Job *job) noexcept nogil:
    cdef int n = job.geo.size, cells = job.geo.cells, k
    w.cand = <uint64_t *>malloc(<size_t>(cells + 1) * cells * sizeof(uint64_t))
    w.branch_cell = <int32_t *>malloc((cells + 1) * sizeof(int32_t))
    w.values = <int32_t *>malloc(<size_t>(cells + 1) * n * sizeof(int32_t))
    w.count = <int32_t *>malloc((cells + 1) * sizeof(int32_t))
    w.tried = <int32_t *>malloc((cells + 1) * sizeof(int32_t))
    w.queue = <int32_t *>malloc(cells * sizeof(int32_t))
    w.scratch = <int32_t *>malloc(3 * n * sizeof(int32_t))
    w.groups = <int32_t *>malloc(2 * n * sizeof(int32_t))
    w.order = <int32_t *>malloc(job.orbits * sizeof(int32_t))
    w.removed = <int32_t *>malloc(job.orbits * sizeof(int32_t))
    w.filled = <uint8_t *>malloc(cells)
    w.grid = <uint8_t *>malloc(cells)
    w.puzzle = <uint8_t *>malloc(cells)
    w.solution = <uint8_t *>malloc(cells)
    w.unit_values = <uint64_t *>malloc(3 * n * sizeof(uint64_t))
    w.masks = <uint64_t *>malloc(cells * sizeof(uint64_t))
    if w.masks != NULL:
        for k in range(cells):
            w.masks[k] = job.geo.full
    w.engine_ready = False
    w.no_memory = False
    if not job.classic:
        w.engine_ready = True  # workspace_free is needed even when init fails
        if not _general.workspace_init(&w.engine, job.geo):
            return False
    return (
        w.cand != NULL and w.branch_cell != NULL and w.values != NULL and w.count != NULL
        and w.tried != NULL and w.queue != NULL and w.scratch != NULL and w.groups != NULL
        and w.order != NULL and w.removed != NULL and w.filled != NULL and w.grid != NULL
        and w.puzzle != NULL and w.solution != NULL and w.unit_values != NULL
        and w.masks != NULL
    )


cdef void work_free(Work *w) noexcept nogil:
    free(w.cand)
    free(w.branch_cell)
    free(w.values)
    free(w.count)
    free(w.tried)
    free(w.queue)
    free(w.scratch)
    free(w.groups)
    free(w.order)
    free(w.removed)
    free(w.filled)
    free(w.grid)
    free(w.puzzle)
    free(w.solution)
    free(w.unit_values)
    free(w.masks)
    if w.engine_ready:
        _general.workspace_free(&w.engine)


# ---------------------------------------------------------------------------------------
# Full grids


cdef bint propagate(const _general.Geo *g, uint64_t *cand, int32_t *queue, int tail) noexcept nogil:
    """Naked and hidden singles to a fixed point; False on contradiction.

    `queue[0..tail-1]` are the cells just fixed to one value. The fixed point (and
    whether a contradiction is met) does not depend on the order the rules run in, which
    is what lets the pure-Python twin reach the same state its own way.
    """
    cdef int head = 0, k, u, cell, peer, n = g.size
    cdef uint64_t bit, c, once, twice, lone
    cdef const int16_t *peers
    cdef const int16_t *unit
    while True:
        while head < tail:
            cell = queue[head]
            head += 1
            bit = cand[cell]
            peers = g.peers + cell * g.peer_count
            for k in range(g.peer_count):
                peer = peers[k]
                c = cand[peer]
                if c & bit:
                    c ^= bit
                    if c == 0:
                        return False
                    cand[peer] = c
                    if (c & (c - 1)) == 0:
                        queue[tail] = peer
                        tail += 1
        # Hidden singles: a value with one place in a unit goes there; one with none
        # left is a contradiction.
        head = 0
        tail = 0
        for u in range(g.units):
            unit = g.unit_cells + u * n
            once = 0
            twice = 0
            for k in range(n):
                c = cand[unit[k]]
                twice |= once & c
                once |= c
            if once != g.full:
                return False
            lone = once & ~twice
            while lone:
                bit = lone & (~lone + 1)
                lone ^= bit
                for k in range(n):
                    cell = unit[k]
                    if cand[cell] & bit:
                        if cand[cell] != bit:
                            cand[cell] = bit
                            queue[tail] = cell
                            tail += 1
                        break
                else:
                    return False  # taken away by a hidden single placed in this scan
        if tail == 0:
            return True


cdef int pick_cell(const _general.Geo *g, const uint64_t *cand) noexcept nogil:
    """The first open cell with the fewest candidates, or -1 when every cell is fixed."""
    cdef int cell, best = -1, best_count = 65, k
    for cell in range(g.cells):
        k = bits_popcount(cand[cell])
        if 1 < k < best_count:
            best = cell
            best_count = k
            if k == 2:
                break
    return best


cdef void open_level(Work *w, int n, int depth, int cell, uint64_t mask, Rng *rng) noexcept nogil:
    """Set up branching on `cell`: its values in increasing order, then shuffled."""
    cdef int32_t *values = w.values + depth * n
    cdef int k = 0
    while mask:
        values[k] = bits_lowest_index(mask) + 1
        mask &= mask - 1
        k += 1
    shuffle(rng, values, k)
    w.branch_cell[depth] = cell
    w.count[depth] = k
    w.tried[depth] = 0


cdef int64_t complete(const Job *job, Work *w, Rng *rng) noexcept nogil:
    """A random start completed by search into w.filled.

    Returns the branches used, or -1 - branches when the search gave up (the budget ran
    out, or the start had no completion).
    """
    cdef const _general.Geo *g = job.geo
    cdef int n = g.size, cells = g.cells, b, k, cell, depth, tail = 0
    cdef const int16_t *unit
    cdef uint64_t *cand = w.cand
    cdef uint64_t *child
    cdef int64_t nodes = 0
    for cell in range(cells):
        cand[cell] = g.full
    if g.box_rows == g.box_cols:
        # The diagonal boxes share no row or column: any filling of them is consistent.
        for b in range(g.box_rows):
            identity(w.groups, n, 1)
            shuffle(rng, w.groups, n)
            unit = g.unit_cells + (2 * n + b * g.box_rows + b) * n
            for k in range(n):
                cand[unit[k]] = (<uint64_t>1) << (w.groups[k] - 1)
                w.queue[tail] = unit[k]
                tail += 1
    else:
        # The first row meets each of its boxes in one segment: any order is consistent.
        identity(w.groups, n, 1)
        shuffle(rng, w.groups, n)
        for k in range(n):
            cand[k] = (<uint64_t>1) << (w.groups[k] - 1)
            w.queue[tail] = k
            tail += 1
    if not propagate(g, cand, w.queue, tail):
        return -1
    cell = pick_cell(g, cand)
    depth = 0
    if cell >= 0:
        open_level(w, n, 0, cell, cand[cell], rng)
    while cell >= 0:
        if w.tried[depth] == w.count[depth]:
            if depth == 0:
                return -1 - nodes
            depth -= 1
            continue
        if nodes >= job.fill_nodes:
            return -1 - nodes
        nodes += 1
        child = w.cand + <size_t>(depth + 1) * cells
        memcpy(child, w.cand + <size_t>depth * cells, cells * sizeof(uint64_t))
        cell = w.branch_cell[depth]
        child[cell] = (<uint64_t>1) << (w.values[depth * n + w.tried[depth]] - 1)
        w.tried[depth] += 1
        w.queue[0] = cell
        if not propagate(g, child, w.queue, 1):
            continue
        cell = pick_cell(g, child)
        if cell >= 0:
            depth += 1
            open_level(w, n, depth, cell, child[cell], rng)
        else:
            cand = child
    for cell in range(cells):
        w.filled[cell] = <uint8_t>(bits_lowest_index(cand[cell]) + 1)
    return nodes


cdef void transform(const Job *job, Work *w, Rng *rng) noexcept nogil:
    """w.grid = a random validity-preserving image of w.filled."""
    cdef const _general.Geo *g = job.geo
    cdef int n = g.size, br = g.box_rows, bc = g.box_cols, r, c
    cdef int32_t *rows = w.scratch
    cdef int32_t *cols = w.scratch + n
    cdef int32_t *labels = w.scratch + 2 * n
    line_order(rng, rows, w.groups, br, n // br)
    line_order(rng, cols, w.groups, bc, n // bc)
    identity(labels, n, 1)
    shuffle(rng, labels, n)
    if br == bc and below(rng, 2) == 1:
        for r in range(n):
            for c in range(n):
                w.grid[c * n + r] = <uint8_t>labels[w.filled[rows[r] * n + cols[c]] - 1]
    else:
        for r in range(n):
            for c in range(n):
                w.grid[r * n + c] = <uint8_t>labels[w.filled[rows[r] * n + cols[c]] - 1]


cdef void full_grid(const Job *job, Work *w, Rng *rng) noexcept nogil:
    """w.grid = a random full grid: random starts until one completes, then transformed."""
    cdef int64_t nodes
    cdef long long t0 = sfgen_nanos() if job.stats != NULL else 0
    while True:
        nodes = complete(job, w, rng)
        if job.stats != NULL:
            job.stats[STAT_FILL_NODES] += nodes if nodes >= 0 else -1 - nodes
        if nodes >= 0:
            break
    transform(job, w, rng)
    if job.stats != NULL:
        job.stats[STAT_GRIDS] += 1
        job.stats[STAT_FILL_NS] += sfgen_nanos() - t0


# ---------------------------------------------------------------------------------------
# Clue removal


cdef int count_solutions(const Job *job, Work *w, int k) noexcept nogil:
    """Solutions, up to 2, of w.puzzle (w.grid with orbit k, among others, removed).

    UNDECIDED when the general engine runs out of nodes, ABORTED when it is stopped.
    """
    cdef int j, cell, found = 0
    if job.stats != NULL:
        job.stats[STAT_CHECKS] += 1
    if job.orbit_start[k + 1] - job.orbit_start[k] > job.exclude_max:
        return engine_count(job, w, -1, 2)
    # Every solution but the grid differs from it somewhere in the orbit: look for one
    # whose first difference is at each orbit cell in turn, the earlier orbit cells put
    # back. Finding one solution with a value ruled out costs less than finding two.
    for j in range(job.orbit_start[k], job.orbit_start[k + 1]):
        cell = job.orbit_cells[j]
        found = engine_count(job, w, cell, 1)
        if found != 0:
            break
        w.puzzle[cell] = w.grid[cell]
    for j in range(job.orbit_start[k], job.orbit_start[k + 1]):
        w.puzzle[job.orbit_cells[j]] = 0
    return found + 1 if found >= 0 else found


cdef int engine_count(const Job *job, Work *w, int ruled_out, int limit) noexcept nogil:
    """Solutions of w.puzzle up to `limit`, with the grid's value ruled out of the cell
    `ruled_out` (-1: none); UNDECIDED when out of nodes, ABORTED when stopped."""
    cdef _general.Outcome res
    cdef int value = w.grid[ruled_out] if ruled_out >= 0 else 0
    if job.classic:
        return _core.solve_without(w.puzzle, ruled_out, value, w.solution, limit).count
    if ruled_out >= 0:
        # The general engine takes a candidate mask per cell; w.masks is all full.
        w.masks[ruled_out] = job.geo.full & ~((<uint64_t>1) << (value - 1))
    res = _general.solve_grid(
        job.geo, &w.engine, w.puzzle, w.masks, w.solution, limit, job.ctl
    )
    if ruled_out >= 0:
        w.masks[ruled_out] = job.geo.full
    if res.status == _general.DONE:
        return res.count
    if res.status == _general.EXHAUSTED:
        if job.stats != NULL:
            job.stats[STAT_UNDECIDED] += 1
        return UNDECIDED
    if res.status == _general.NO_MEMORY:
        w.no_memory = True
    return ABORTED


cdef inline void set_clue(const Job *job, Work *w, int cell, uint8_t value) noexcept nogil:
    """Put `value` (0 = remove the clue) into w.puzzle, keeping w.unit_values current."""
    cdef const int16_t *units = job.geo.cell_units + 3 * cell
    cdef uint64_t bit = (<uint64_t>1) << ((value if value else w.puzzle[cell]) - 1)
    if value:
        w.unit_values[units[0]] |= bit
        w.unit_values[units[1]] |= bit
        w.unit_values[units[2]] |= bit
    else:
        w.unit_values[units[0]] &= ~bit
        w.unit_values[units[1]] &= ~bit
        w.unit_values[units[2]] &= ~bit
    w.puzzle[cell] = value


cdef bint forced(const Job *job, const Work *w, int cell, uint64_t bit) noexcept nogil:
    """True when the clues alone fix the empty `cell` to the value `bit` by a naked or a
    hidden single: every solution then has that value there."""
    cdef const _general.Geo *g = job.geo
    cdef const int16_t *units = g.cell_units + 3 * cell
    cdef const int16_t *unit
    cdef const int16_t *other_units
    cdef int k, u, other
    cdef uint64_t seen = w.unit_values[units[0]] | w.unit_values[units[1]] | w.unit_values[units[2]]
    if seen == g.full & ~bit:
        return True  # every other value is a clue among its peers
    for u in range(3):
        # The value's only place in this unit: every other empty cell of the unit sees
        # it as a clue in one of its other two units.
        unit = g.unit_cells + units[u] * g.size
        for k in range(g.size):
            other = unit[k]
            if other == cell or w.puzzle[other]:
                continue
            other_units = g.cell_units + 3 * other
            if not ((w.unit_values[other_units[0]] | w.unit_values[other_units[1]]
                     | w.unit_values[other_units[2]]) & bit):
                break
        else:
            return True
    return False


cdef int carve(const Job *job, Work *w, int *removed) noexcept nogil:
    """Remove the orbits of w.grid in the order w.order, keeping exactly one solution.

    Leaves the puzzle in w.puzzle and the orbits removed in w.removed[0..removed-1].
    Returns CARVED, UNPROVEN, TOO_HARD or ABORTED (see their comments).
    """
    cdef int i, k, j, cell, count, result = CARVED, kept = 0, clues = job.geo.cells
    cdef bint early = job.level > 0 and job.minimal and job.early_clues > 0
    cdef long long t0 = sfgen_nanos() if job.stats != NULL else 0
    cdef bint sure
    memcpy(w.puzzle, w.grid, job.geo.cells)
    for j in range(3 * job.geo.size):
        w.unit_values[j] = job.geo.full
    for i in range(job.orbits):
        k = w.order[i]
        for j in range(job.orbit_start[k], job.orbit_start[k + 1]):
            set_clue(job, w, job.orbit_cells[j], 0)
        # While many clues remain, the removed cells are often fixed by a single straight
        # from the clues: the puzzle is then still unique, and the engine is not asked.
        sure = True
        for j in range(job.orbit_start[k], job.orbit_start[k + 1]):
            cell = job.orbit_cells[j]
            if not forced(job, w, cell, (<uint64_t>1) << (w.grid[cell] - 1)):
                sure = False
                break
        if sure:
            if job.stats != NULL:
                job.stats[STAT_FORCED] += 1
            count = 1
        else:
            count = count_solutions(job, w, k)
        if count == 1:
            w.removed[kept] = k
            kept += 1
            clues -= job.orbit_start[k + 1] - job.orbit_start[k]
            if early and clues <= job.early_clues:
                # Fewer clues practically never make a puzzle easier (the techniques'
                # patterns ask for candidates to be absent), so a partial puzzle already
                # above the level gives up here rather than at the final rating.
                early = False
                count = level_within(job, w, job.level)
                if count == ABORTED:
                    return ABORTED
                if count > job.level:
                    return TOO_HARD
            continue
        if count == ABORTED:
            return ABORTED
        if count == UNDECIDED:
            result = UNPROVEN
        for j in range(job.orbit_start[k], job.orbit_start[k + 1]):
            set_clue(job, w, job.orbit_cells[j], w.grid[job.orbit_cells[j]])
    removed[0] = kept
    if job.stats != NULL:
        job.stats[STAT_CARVES] += 1
        job.stats[STAT_CARVE_NS] += sfgen_nanos() - t0
    return result


# ---------------------------------------------------------------------------------------
# Difficulty


cdef int level_within(const Job *job, Work *w, int max_level) noexcept nogil:
    """The level of w.puzzle if at most `max_level`, else max_level + 1 (as
    rating.level_within); ABORTED when memory ran out."""
    if job.stats != NULL:
        job.stats[STAT_RATINGS] += 1
    cdef int level = _logic.level_within(job.logic, w.puzzle, max_level)
    if level < 0:
        # No memory (-2); a clash (-1) cannot happen in a puzzle taken from a full grid.
        w.no_memory = True
        return ABORTED
    return level


cdef int level_ok(const Job *job, Work *w, int removed) noexcept nogil:
    """1 when w.puzzle is at the asked level, else 0 (ABORTED when out of memory).

    With minimal=False, removed orbits are first put back, last removed first, until the
    puzzle is no harder than asked.
    """
    cdef long long t0 = sfgen_nanos() if job.stats != NULL else 0
    cdef int level = level_within(job, w, job.level), j, k
    if not job.minimal:
        while level > job.level and removed > 0:
            removed -= 1
            k = w.removed[removed]
            for j in range(job.orbit_start[k], job.orbit_start[k + 1]):
                w.puzzle[job.orbit_cells[j]] = w.grid[job.orbit_cells[j]]
            level = level_within(job, w, job.level)
    if job.stats != NULL:
        job.stats[STAT_RATE_NS] += sfgen_nanos() - t0
    if level == ABORTED:
        return ABORTED
    return level == job.level


# ---------------------------------------------------------------------------------------
# One puzzle, a range of puzzles


cdef int generate_one(const Job *job, Work *w, uint64_t seed, uint8_t *out) noexcept nogil:
    """The puzzle of `seed` into `out`: MADE, STOPPED, NO_MEMORY or GAVE_UP."""
    cdef Rng rng
    cdef int status, removed = 0
    cdef int64_t attempt
    rng_seed(&rng, seed)
    for attempt in range(job.max_attempts):
        if poll(&job.ctl.stop):
            return STOPPED
        if attempt % job.orders_per_grid == 0:
            full_grid(job, w, &rng)
        if job.stats != NULL:
            job.stats[STAT_ATTEMPTS] += 1
        identity(w.order, job.orbits, 0)
        shuffle(&rng, w.order, job.orbits)
        status = carve(job, w, &removed)
        if status == ABORTED:
            return NO_MEMORY if w.no_memory else STOPPED
        if status == TOO_HARD or (status == UNPROVEN and job.minimal):
            continue
        if job.level:
            status = level_ok(job, w, removed)
            if status == ABORTED:
                return NO_MEMORY
            if status == 0:
                continue
        memcpy(out, w.puzzle, job.geo.cells)
        return MADE
    return GAVE_UP


def generate_range(
    _general.Tables tables not None,
    _logic.LogicTables logic_tables,
    const int32_t[::1] orbit_start,
    const int32_t[::1] orbit_cells,
    const uint64_t[::1] seeds,
    Py_ssize_t start,
    Py_ssize_t stop,
    uint8_t[::1] out,
    int level=0,
    bint minimal=True,
    int64_t fill_nodes=20000,
    int64_t check_nodes=1000000,
    int orders_per_grid=1,
    int early_clues=0,
    int64_t max_attempts=1000000,
    const uint8_t[::1] stop_flag=None,
    int64_t[::1] stats=None,
):
    """Generate puzzles start..stop-1 into `out` (N*N values 0..N each), without the GIL.

    Puzzle i depends on seeds[i] alone. `tables` are the general engine's tables of the
    geometry, `logic_tables` the technique solver's (`_logic.tables_for`; may be None
    when `level` is 0). `orbit_start` / `orbit_cells` list the symmetry
    orbits (orbit k is orbit_cells[orbit_start[k]:orbit_start[k + 1]]); `level` 1-5 asks
    for that difficulty (0 = any); `minimal=False` lets clues be put back until the
    puzzle is no harder than `level`. `fill_nodes` bounds each completion search before
    a fresh start, `check_nodes` each uniqueness check of the general engine (a check
    that runs out refuses its removal; with `minimal` such a puzzle is drawn again).
    `orders_per_grid` removal orders are tried on each full grid before a new one is
    drawn. With a level and `minimal`, the partial puzzle is rated once `early_clues`
    clues or fewer remain (0 = never) and given up if already too hard.

    Returns -1, or the index of the first puzzle for which no puzzle at the level was
    found in `max_attempts` removal orders (the range stops there).

    `stop_flag`, a one-byte buffer, stops the range once another thread sets it; in the
    main thread a signal handler that raises (Ctrl-C) stops it too, and its exception
    propagates. Either way puzzles not finished are left as they were in `out`.
    `stats`, when given, gets totals added to its slots, named by STAT_NAMES.
    """
    cdef _general.Geo geo = tables.geo
    cdef Py_ssize_t cells = geo.cells, i
    cdef int orbits = orbit_start.shape[0] - 1
    if orbits < 1 or orbit_start[0] != 0 or orbit_start[orbits] != orbit_cells.shape[0]:
        raise ValueError("orbit_start must run from 0 to len(orbit_cells)")
    if orbit_cells.shape[0] != cells:
        raise ValueError("the orbits must cover every cell once")
    for i in range(orbits):
        if orbit_start[i + 1] <= orbit_start[i]:
            raise ValueError("orbits must not be empty")
    seen = bytearray(cells)
    for i in range(cells):
        if not 0 <= orbit_cells[i] < cells or seen[orbit_cells[i]]:
            raise ValueError("the orbits must cover every cell once")
        seen[orbit_cells[i]] = 1
    if start < 0 or stop < start or seeds.shape[0] < stop or out.shape[0] < stop * cells:
        raise ValueError("bad range, or buffers too small for it")
    if not 0 <= level <= 5:
        raise ValueError("level must be 0 (any) or 1-5")
    if level and logic_tables is None:
        raise ValueError("a level needs the technique solver's tables")
    if logic_tables is not None and (
        logic_tables.t.n != geo.size
        or logic_tables.t.box_rows != geo.box_rows
        or logic_tables.t.box_cols != geo.box_cols
    ):
        raise ValueError("the technique solver's tables are for another geometry")
    if fill_nodes < 1 or check_nodes < 1 or orders_per_grid < 1 or max_attempts < 1:
        raise ValueError("node budgets, orders_per_grid and max_attempts must be positive")
    if stop_flag is not None and stop_flag.shape[0] < 1:
        raise ValueError("stop_flag must hold one byte")
    if stats is not None and stats.shape[0] < STAT_SLOTS:
        raise ValueError(f"stats must hold {len(STAT_NAMES)} slots")

    cdef _general.Control ctl
    stop_init(
        &ctl.stop,
        &stop_flag[0] if stop_flag is not None else NULL,
        threading.current_thread() is threading.main_thread(),
    )
    ctl.max_nodes = check_nodes
    ctl.restart_unit = _RESTART_UNIT
    ctl.locked = True
    ctl.by_units = True
    cdef Job job
    job.geo = &geo
    job.classic = geo.size == 9 and geo.box_rows == 3 and geo.box_cols == 3
    job.orbit_start = &orbit_start[0]
    job.orbit_cells = &orbit_cells[0]
    job.orbits = orbits
    job.level = level
    job.logic = &logic_tables.t if logic_tables is not None else NULL
    job.minimal = minimal
    job.fill_nodes = fill_nodes
    job.orders_per_grid = orders_per_grid
    job.early_clues = early_clues
    job.max_attempts = max_attempts
    job.exclude_max = EXCLUDE_MAX
    job.ctl = &ctl
    job.stats = &stats[0] if stats is not None else NULL
    cdef Work w
    cdef bint out_of_memory = False
    cdef int status
    cdef Py_ssize_t gave_up = -1
    with nogil:
        if not work_init(&w, &job):
            out_of_memory = True
        else:
            for i in range(start, stop):
                status = generate_one(&job, &w, seeds[i], &out[i * cells])
                if status != MADE:
                    if status == GAVE_UP:
                        gave_up = i
                    break
        out_of_memory = out_of_memory or w.no_memory
        work_free(&w)
    raise_saved(&ctl.stop)
    if out_of_memory:
        raise MemoryError("not enough memory to generate")
    return gave_up


def draws(uint64_t seed, const int32_t[::1] bounds):
    """below(k) for each k of `bounds` in turn, from the generator seeded with `seed`.

    For tests: the pure-Python twin's generator must give the same numbers.
    """
    cdef Rng rng
    cdef Py_ssize_t i
    for i in range(bounds.shape[0]):
        if bounds[i] < 1:
            raise ValueError("bounds must be at least 1")
    rng_seed(&rng, seed)
    return [below(&rng, bounds[i]) for i in range(bounds.shape[0])]
