# cython: language_level=3
"""C-level interface of the compiled technique solver, for other compiled modules."""

from libc.stdint cimport int32_t, uint8_t, uint64_t


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
