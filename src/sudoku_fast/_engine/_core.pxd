# cython: language_level=3
"""C-level interface of the 9x9 engine, for other compiled modules (the generator)."""

from libc.stdint cimport int32_t, int64_t, uint8_t


cdef struct Outcome:
    int32_t count       # solutions found, capped at the limit
    int64_t guesses     # branch trials made while other candidates were still open
    int64_t nodes       # states visited, the root included


# Solve one 9x9 puzzle (81 digits 0-9, 0 = empty), counting solutions up to `limit`; the
# first solution found is written to `solution`. Needs no GIL and keeps its whole state
# on the C stack (about 26 KB), so any number of threads may call it at once.
cdef Outcome solve_grid(const uint8_t *puzzle, uint8_t *solution, int limit) noexcept nogil

# The same, with `ruled_out_digit` (1-9) removed from the candidates of `ruled_out_cell`,
# which must be empty in `puzzle` (-1: nothing removed). With the digit of a known
# solution there, it finds the other solutions: a cheaper uniqueness test than
# counting to two when a clue is taken away.
cdef Outcome solve_without(
    const uint8_t *puzzle, int ruled_out_cell, int ruled_out_digit, uint8_t *solution, int limit
) noexcept nogil
