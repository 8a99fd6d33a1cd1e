# cython: language_level=3
"""C-level interface of the general engine, for other compiled modules (the generator).

A caller builds (or takes from `tables_for`) a `Tables`, reads its `geo`, sets up one
`Workspace` per thread with `workspace_init` (freed by `workspace_free`) and calls
`solve_grid` per puzzle with a `Control` it fills in itself; see solve_range in the .pyx
for how the fields are used.
"""

from libc.stdint cimport int16_t, int32_t, int64_t, uint8_t, uint64_t

from sudoku_fast._base.stop cimport Stop


cdef enum Status:
    DONE = 0
    EXHAUSTED = 1
    INTERRUPTED = 2
    NO_MEMORY = 3
    BAD_VALUE = 4


cdef struct Geo:
    int size
    int cells
    int units
    int peer_count
    int box_rows
    int box_cols
    int units_per_cell         # 3: every cell has exactly three (row, column, box)
    bint boxes_are_units       # the box_rows x box_cols boxes are units (locked candidates)
    const int16_t *peers       # cells x peer_count (a cell with fewer repeats its last one)
    const int16_t *unit_cells  # units x size
    const int16_t *cell_units  # cells x units_per_cell, -1 after a cell's last unit
    const int16_t *neighbours  # cells x 4 orthogonal (-1: none) under non-consecutive, or NULL
    uint64_t full              # every value possible
    # Killer cages with a sum and thermometers (bounds propagation), 0 / NULL: none.
    int n_sums                 # cages with a sum
    const int16_t *sum_cells   # their cells, one cage after another
    const int32_t *sum_start   # n_sums + 1 offsets into sum_cells
    const int32_t *sum_total   # each cage's sum
    int n_thermos              # thermometers
    const int16_t *thermo_cells  # their cells, bulb first, one after another
    const int32_t *thermo_start  # n_thermos + 1 offsets into thermo_cells
    # Per cage with a sum, the digit sets it may hold (bit v-1 = value v), when there
    # are few enough to list (combination logic); a cage not listed keeps bounds only.
    const uint8_t *combo_listed  # n_sums flags
    const int32_t *combo_start   # n_sums + 1 offsets into combos
    const uint64_t *combos       # the digit sets, one cage after another


cdef struct Workspace:
    # The stack: `capacity` levels, each a state (candidates, counters, placed count)
    # plus what that level branches on.
    uint64_t *cand        # per level: `cells` candidate masks
    uint8_t *places       # per level: units x size counters, places left per value
    int32_t *placed       # per level: cells whose value reached their peers
    int32_t *branch_cell  # per level: the cell branched on, or -1 for a unit branch
    int32_t *branch_unit  # per level, unit branch: the unit
    uint64_t *branch_value  # per level, unit branch: the value (as a bit)
    uint64_t *branch_rest  # per level: cell candidates, or unit positions, not tried yet
    int32_t capacity
    # Work queues of the level being propagated, emptied before each branch.
    int16_t *singles      # cells fixed to one value, not yet propagated to peers
    int32_t singles_head
    int32_t singles_tail
    int32_t *hidden       # counter indices (unit * size + value) that dropped to one
    int32_t hidden_head
    int32_t hidden_tail
    # Scratch for locked candidates.
    uint64_t *row_seg     # row x box-column: candidates seen in that segment
    uint64_t *col_seg     # column x box-row
    uint64_t *row_cut     # values to remove from each row segment
    uint64_t *col_cut     # and from each column segment
    # Per killer cage cell (one cage after another, as Geo.sum_cells): the candidates
    # its cage last had when combination logic found nothing to do there (0: none yet).
    uint64_t *cage_memo


cdef struct Control:
    Stop stop                       # the stop flag and Ctrl-C (see _stop.pxd)
    int64_t max_nodes               # 0 = no budget
    int64_t restart_unit            # nodes of the first run (Luby unit); 0 = never restart
    bint locked                     # also use locked candidates (pointing / claiming)
    bint by_units                   # also branch on a value's places in a unit


cdef struct Outcome:
    int32_t count    # solutions found, capped at the limit
    int64_t guesses  # branch trials made while other candidates were still open
    int64_t nodes    # states visited, the root included
    int32_t status
    int32_t bad_cell  # with BAD_VALUE: the cell holding a value above the size


cdef class Tables:
    cdef readonly int size
    cdef readonly int box_rows
    cdef readonly int box_cols
    cdef Geo geo
    cdef int16_t *peers
    cdef int16_t *unit_cells
    cdef int16_t *cell_units
    cdef int16_t *neighbours
    cdef int16_t *sum_cells
    cdef int32_t *sum_start
    cdef int32_t *sum_total
    cdef int16_t *thermo_cells
    cdef int32_t *thermo_start
    cdef uint8_t *combo_listed
    cdef int32_t *combo_start
    cdef uint64_t *combos


# Allocate the queues, scratch and the first stack levels of a search; False when
# memory runs out (workspace_free is still needed then).
cdef bint workspace_init(Workspace *w, const Geo *geo) noexcept nogil
cdef void workspace_free(Workspace *w) noexcept nogil

# Solve one puzzle (values 0..size, 0 = empty), counting solutions up to `limit`; the
# first solution found goes to `solution`. `masks` (NULL: none) narrows each cell's
# candidates to a bitmask, for pencil-mark puzzles. `out.status` says whether the count is final
# (DONE) or the search ran out of `ctl.max_nodes` (EXHAUSTED), was stopped
# (INTERRUPTED), ran out of memory (NO_MEMORY) or met a value above the size (BAD_VALUE).
cdef Outcome solve_grid(
    const Geo *geo,
    Workspace *w,
    const uint8_t *puzzle,
    const uint64_t *masks,
    uint8_t *solution,
    int limit,
    Control *ctl,
) noexcept nogil
