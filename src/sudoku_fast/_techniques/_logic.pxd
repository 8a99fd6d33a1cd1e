# cython: language_level=3
"""C-level interface of the compiled technique solver, for other compiled modules."""

from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t


cdef struct Tables:
    int n             # grid side N (up to 64)
    int cells         # N*N
    int box_rows
    int box_cols
    int npeers        # peers per cell: 2(N - 1) + (box_rows - 1)(box_cols - 1)
    int32_t *units    # [3N][N]: cells of rows 0..N-1, columns N..2N-1, boxes 2N..3N-1
    int32_t *peers    # [cells][npeers]: each cell's peers, ascending
    int32_t *cell_units  # [cells][3]: the row, column and box unit of each cell
    int32_t *position    # [cells][3]: the cell's index inside those three units
    # Crossings of a line (unit 0..2N-1) and a box (unit 2N..3N-1), in the order of
    # grid.Geometry.crossings: for unit u, entries cross_start[u] .. cross_start[u+1]-1
    # of cross_unit / cross_line_mask / cross_box_mask.
    int32_t *cross_start
    int32_t *cross_unit
    uint64_t *cross_line_mask
    uint64_t *cross_box_mask


cdef class LogicTables:
    cdef Tables t
    cdef object _buffers   # owns the arrays the pointers of `t` point into
    cdef readonly object geometry


# The puzzle's level if it is at most max_level, else max_level + 1 (as
# rating.level_within); -1 if two equal values share a unit, -2 if memory ran out.
# `values` holds N*N values 0..N (0 = empty). Safe to call from many threads at once.
cdef int level_within(const Tables *t, const uint8_t *values, int max_level) noexcept nogil


# Technique ids: the order of logic.TECHNIQUES, then the "guess" pseudo-technique.
cdef enum:
    FULL_HOUSE = 0
    HIDDEN_SINGLE = 1
    NAKED_SINGLE = 2
    POINTING = 3
    CLAIMING = 4
    NAKED_PAIR = 5
    HIDDEN_PAIR = 6
    NAKED_TRIPLE = 7
    HIDDEN_TRIPLE = 8
    X_WING = 9
    SWORDFISH = 10
    XY_WING = 11
    XYZ_WING = 12
    SIMPLE_COLOURING = 13
    XY_CHAIN = 14
    NAKED_QUAD = 15
    HIDDEN_QUAD = 16
    JELLYFISH = 17
    BIG_FISH = 18
    TRIAL_AND_ERROR = 19
    GUESS = 20
    TECHNIQUE_COUNT = 20
    COUNT_SLOTS = 21  # techniques plus guess


cdef struct Step:
    int tech
    int ncells
    int ndigits
    int nplace
    int nelim
    int32_t *cells        # pattern cells, in the order of the Python Hint
    int32_t digits[64]
    int32_t place_cell
    int32_t place_digit
    int32_t *elim_cell    # eliminations, in the order of the Python Hint
    int32_t *elim_digit
    int64_t aux[4]        # technique-specific numbers for the explanation


cdef struct Solver:
    const Tables *t
    int n
    int cells
    uint64_t all_digits
    uint64_t *cand        # [cells]
    uint8_t *values       # [cells]
    # Kept up to date by every change of a candidate, so that finding a single costs
    # a look at each unit rather than a scan of every cell:
    uint64_t *pos         # [3N * N]: bit i of pos[u*N + d] = unit u's i-th cell may hold d+1
    uint64_t *ones        # [3N]: digits with exactly one place left in the unit
    int32_t *empties      # [3N]: empty cells of the unit
    int open              # empty cells of the grid
    Step step
    # Scratch, sized by the geometry once per solver.
    uint64_t *trial_cand  # [cells] trial and error works on copies
    uint8_t *trial_values
    uint8_t *trial_dirty  # [3N] units changed since trial and error last looked at them
    int32_t *pending      # (cell, value) pairs of trial and error, growable
    int pending_cap
    int32_t *list_a       # [cells] general-purpose cell lists
    int32_t *list_b
    int32_t *list_c
    int32_t *order        # [cells]
    int32_t *colour       # [cells] simple colouring: -1 uncoloured, else 0/1
    int32_t *component_of # [cells]
    int32_t *links        # [cells * 3]
    int32_t *nlinks       # [cells]
    int32_t *link_order   # [cells]
    int32_t *seen         # [cells] stamps for "sees a colour"
    int32_t *seen2
    int32_t *parent       # [cells * N] xy-chain: parent state + 1 (0 = root)
    int32_t *visited      # [cells * N] stamp of the search that reached the state
    int32_t *frontier     # [cells * N]
    int32_t *next_frontier
    int32_t stamp


# The solver's building blocks, for the SE-scale rater (_se.pyx). Each find_* fills
# s.step with the first deduction it finds and returns True; apply_step carries it out.
cdef bint solver_init(Solver *s, const Tables *t) noexcept nogil
cdef void solver_free(Solver *s) noexcept nogil
cdef int solver_load(Solver *s, const uint8_t *values) noexcept nogil
cdef void place(Solver *s, int cell, int digit) noexcept nogil
cdef void apply_step(Solver *s) noexcept nogil
cdef bint find_full_house(Solver *s) noexcept nogil
cdef bint find_hidden_single(Solver *s) noexcept nogil
cdef bint find_naked_single(Solver *s) noexcept nogil
cdef bint naked_subset(Solver *s, int k, int tech) noexcept nogil
cdef bint hidden_subset(Solver *s, int k, int tech) noexcept nogil
cdef bint fish(Solver *s, int k, int tech) noexcept nogil
cdef bint find_xy_wing(Solver *s) noexcept nogil
cdef bint find_xyz_wing(Solver *s) noexcept nogil


# Shared with the SE rater (`_se.pyx`).
cdef inline bint next_combination(int *index, int k, int m) noexcept nogil:
    """Advance to the next k-combination of range(m) (itertools order); False at the end."""
    cdef int j = k - 1
    while j >= 0 and index[j] == m - k + j:
        j -= 1
    if j < 0:
        return False
    index[j] += 1
    j += 1
    while j < k:
        index[j] = index[j - 1] + 1
        j += 1
    return True
