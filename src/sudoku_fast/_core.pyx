# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The 9x9 engine: constraint propagation and search on per-digit band bitboards.

The state keeps, for every digit and every band of three rows, a 27-bit mask of the
cells where the digit is still possible (bit 9*row + column). This "digit x band" view
makes the Sudoku rules cheap word operations:

* Within a band a digit occupies exactly one cell per row and one per box, so the 3x3
  pattern of (row, box) pairs that still hold candidates must contain a permutation.
  A table indexed by that 9-bit pattern keeps exactly the pairs used by some permutation:
  one lookup does pointing and claiming inside the band, finds rows and boxes left with
  no place (contradiction), and hidden singles in boxes.
* A row with one candidate left places the digit: its column is cleared in the other
  rows and bands, and the cell is cleared for the other eight digits.
* Naked singles (cells with one digit left) and empty cells come from bit-sliced counts
  over the nine digit masks of a band; hidden singles in columns from counts over bands.

Search guesses on the first cell with two candidates (the fewest possible), else on the
cell with the fewest, trying each candidate on a copy of the 240-byte state, on an
explicit stack. The same search counts solutions up to a limit.

Everything below `solve_range` runs without the GIL and without Python objects; the
tables are filled once at import and only read afterwards.
"""

from cpython.unicode cimport PyUnicode_1BYTE_KIND, PyUnicode_DATA, PyUnicode_KIND
from libc.stdint cimport int32_t, int64_t, uint8_t, uint32_t

cdef extern from *:
    """
    /* A monotonic nanosecond clock that needs neither the GIL nor a GCC builtin. */
    #if defined(_WIN32)
    #include <windows.h>
    static long long sudoku_fast_nanos(void) {
        LARGE_INTEGER count, freq;
        QueryPerformanceCounter(&count);
        QueryPerformanceFrequency(&freq);
        return (long long)((double)count.QuadPart * 1e9 / (double)freq.QuadPart);
    }
    #else
    #include <time.h>
    static long long sudoku_fast_nanos(void) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
    }
    #endif

    /* Index of the lowest set bit (x != 0): one instruction on every compiler. */
    #if defined(_MSC_VER)
    #include <intrin.h>
    static __inline int sudoku_fast_lowest_bit(unsigned int x) {
        unsigned long index;
        _BitScanForward(&index, x);
        return (int)index;
    }
    #else
    #define sudoku_fast_lowest_bit(x) __builtin_ctz(x)
    #endif
    """
    long long sudoku_fast_nanos() nogil
    int sudoku_fast_lowest_bit(unsigned int x) nogil

cdef enum:
    CELLS = 81
    BANDS = 3
    DIGIT_BANDS = 27        # digit * 3 + band
    ROW_BITS = 0x1FF        # one row of a band
    BAND_BITS = 0x7FFFFFF   # the 27 cells of a band
    REPEAT_ROWS = 0x40201   # times a 9-bit row pattern: the same columns in all 3 rows

# Tables, filled once at import and read-only afterwards.
cdef uint32_t row_boxes[512]         # 9-bit row -> which of its 3 boxes hold candidates
cdef uint32_t band_patterns[512]     # 9-bit (row, box) pattern -> cells still usable
cdef uint32_t row_mask[3]
cdef uint8_t bit_count[512]


cdef struct Board:
    uint32_t cand[DIGIT_BANDS]      # candidates of each digit in each band
    uint32_t settled[DIGIT_BANDS]   # cand[i] as it was when band i last reached a fixed point
    uint32_t unsolved[BANDS]        # cells not placed yet
    uint32_t placed_rows[BANDS]     # bit 3*digit + row: digit placed in that row


cdef struct Outcome:
    int32_t count       # solutions found, capped at the limit
    int64_t guesses     # branch trials made while other candidates were still open
    int64_t nodes       # states visited, the root included


cdef void build_tables() noexcept:
    cdef int v, k, r, p, pattern
    cdef uint32_t usable
    # The six ways to give each of 3 rows its own box.
    cdef int perms[6][3]
    perms[0][:] = [0, 1, 2]
    perms[1][:] = [0, 2, 1]
    perms[2][:] = [1, 0, 2]
    perms[3][:] = [1, 2, 0]
    perms[4][:] = [2, 0, 1]
    perms[5][:] = [2, 1, 0]
    for v in range(512):
        row_boxes[v] = 0
        bit_count[v] = 0
        for k in range(9):
            if v & (1 << k):
                bit_count[v] += 1
        for k in range(3):
            if v & (7 << (3 * k)):
                row_boxes[v] |= 1u << k
    for pattern in range(512):
        usable = 0
        for p in range(6):
            if all(pattern & (1 << (3 * r + perms[p][r])) for r in range(3)):
                for r in range(3):
                    usable |= 7u << (9 * r + 3 * perms[p][r])
        band_patterns[pattern] = usable
    for r in range(3):
        row_mask[r] = (<uint32_t>ROW_BITS) << (9 * r)


build_tables()


cdef inline bint settle_band(Board *b, int i) noexcept nogil:
    """Apply the band rules to digit-band i until nothing changes; place its row singles.

    Returns False on contradiction (a row or box of the band with no place for the digit).
    """
    cdef int digit = i // 3, band = i - 3 * digit, r, other
    cdef uint32_t s = b.cand[i], pattern, row, placed, columns, row_flag
    while True:
        pattern = row_boxes[s & ROW_BITS] | (row_boxes[(s >> 9) & ROW_BITS] << 3) \
            | (row_boxes[s >> 18] << 6)
        s &= band_patterns[pattern]
        if s == 0:
            return False
        placed = 0
        for r in range(3):
            row_flag = 1u << (3 * digit + r)
            if b.placed_rows[band] & row_flag:
                continue
            row = s & row_mask[r]
            if row & (row - 1) == 0:
                placed |= row
                b.placed_rows[band] |= row_flag
        if placed == 0:
            break
        columns = (placed | (placed >> 9) | (placed >> 18)) & ROW_BITS
        columns *= REPEAT_ROWS
        s &= ~columns | placed
        for other in range(3):
            if other != band:
                b.cand[3 * digit + other] &= ~columns
        b.unsolved[band] &= ~placed
        for other in range(9):
            if other != digit:
                b.cand[3 * other + band] &= ~placed
    b.cand[i] = s
    b.settled[i] = s
    return True


cdef inline void restrict_row(Board *b, int digit, int band, uint32_t cell_bit) noexcept nogil:
    """Keep, in the cell's row, only that cell as a place for the digit."""
    cdef int r = sudoku_fast_lowest_bit(cell_bit) // 9
    b.cand[3 * digit + band] &= ~row_mask[r] | cell_bit


cdef bint naked_singles(Board *b, bint *progress) noexcept nogil:
    """Place every cell with one digit left. False if some cell has none."""
    cdef int band, digit
    cdef uint32_t once, twice, w, singles, cell_bit
    for band in range(BANDS):
        if b.unsolved[band] == 0:
            continue
        once = 0
        twice = 0
        for digit in range(9):
            w = b.cand[3 * digit + band]
            twice |= once & w
            once |= w
        if b.unsolved[band] & ~once:
            return False
        singles = once & ~twice & b.unsolved[band]
        while singles:
            cell_bit = singles & (~singles + 1)
            singles ^= cell_bit
            for digit in range(9):
                if b.cand[3 * digit + band] & cell_bit:
                    restrict_row(b, digit, band, cell_bit)
                    break
            progress[0] = True
    return True


cdef bint column_singles(Board *b, bint *progress) noexcept nogil:
    """Place every digit with one place left in a column. False if a column has none."""
    cdef int digit, band
    cdef uint32_t w, once[3], twice[3], any_band, many, single_columns, hits, cell_bit
    for digit in range(9):
        for band in range(BANDS):
            w = b.cand[3 * digit + band]
            once[band] = (w | (w >> 9) | (w >> 18)) & ROW_BITS
            twice[band] = ((w & (w >> 9)) | (w & (w >> 18)) | ((w >> 9) & (w >> 18))) & ROW_BITS
        any_band = once[0] | once[1] | once[2]
        if any_band != ROW_BITS:
            return False
        many = twice[0] | twice[1] | twice[2] | (once[0] & once[1]) | (once[0] & once[2]) \
            | (once[1] & once[2])
        single_columns = (any_band & ~many) * REPEAT_ROWS
        for band in range(BANDS):
            hits = b.cand[3 * digit + band] & single_columns & b.unsolved[band]
            while hits:
                cell_bit = hits & (~hits + 1)
                hits ^= cell_bit
                restrict_row(b, digit, band, cell_bit)
                progress[0] = True
    return True


cdef bint propagate(Board *b) noexcept nogil:
    """Run all the rules to a fixed point. False on contradiction."""
    cdef int i
    cdef bint progress
    while True:
        progress = False
        for i in range(DIGIT_BANDS):
            if b.cand[i] != b.settled[i]:
                if not settle_band(b, i):
                    return False
                progress = True
        if progress:
            continue
        if (b.unsolved[0] | b.unsolved[1] | b.unsolved[2]) == 0:
            return True
        if not naked_singles(b, &progress):
            return False
        if progress:
            continue
        if not column_singles(b, &progress):
            return False
        if not progress:
            return True


cdef inline bint is_solved(const Board *b) noexcept nogil:
    return (b.unsolved[0] | b.unsolved[1] | b.unsolved[2]) == 0


cdef int pick_branch_cell(const Board *b, uint32_t *digits) noexcept nogil:
    """The first cell with two candidates, else one with the fewest; its digits as a mask.

    Returns band * 27 + bit of the cell.
    """
    cdef int band, digit, best = -1, best_count = 10, count, bit
    cdef uint32_t once, twice, thrice, w, pairs, cell_bit, open_cells, mask
    for band in range(BANDS):
        if b.unsolved[band] == 0:
            continue
        once = 0
        twice = 0
        thrice = 0
        for digit in range(9):
            w = b.cand[3 * digit + band]
            thrice |= twice & w
            twice |= once & w
            once |= w
        pairs = twice & ~thrice & b.unsolved[band]
        if pairs:
            cell_bit = pairs & (~pairs + 1)
            best = band * 27 + sudoku_fast_lowest_bit(cell_bit)
            break
        open_cells = b.unsolved[band]
        while open_cells:
            cell_bit = open_cells & (~open_cells + 1)
            open_cells ^= cell_bit
            mask = 0
            for digit in range(9):
                if b.cand[3 * digit + band] & cell_bit:
                    mask |= 1u << digit
            count = bit_count[mask]
            if count < best_count:
                best_count = count
                best = band * 27 + sudoku_fast_lowest_bit(cell_bit)
    band = best // 27
    cell_bit = 1u << (best - 27 * band)
    mask = 0
    for digit in range(9):
        if b.cand[3 * digit + band] & cell_bit:
            mask |= 1u << digit
    digits[0] = mask
    return best


cdef void write_solution(const Board *b, uint8_t *solution) noexcept nogil:
    cdef int digit, band, r
    cdef uint32_t w
    for digit in range(9):
        for band in range(BANDS):
            w = b.cand[3 * digit + band]
            for r in range(3):
                solution[27 * band + 9 * r + sudoku_fast_lowest_bit(w & row_mask[r]) - 9 * r] = \
                    <uint8_t>(digit + 1)


cdef Outcome solve_grid(const uint8_t *puzzle, uint8_t *solution, int limit) noexcept nogil:
    """Solve one puzzle (digits 0-9, 0 = empty); write the first solution found."""
    cdef Board stack[CELLS + 1]
    cdef int branch_cell[CELLS + 1]
    cdef uint32_t branch_rest[CELLS + 1]
    cdef Outcome out
    cdef Board *b
    cdef Board *child
    cdef int i, cell, depth, band, digit
    cdef uint32_t rest, digit_bit

    out.count = 0
    out.guesses = 0
    out.nodes = 1
    b = &stack[0]
    for i in range(DIGIT_BANDS):
        b.cand[i] = BAND_BITS
        b.settled[i] = BAND_BITS
    for band in range(BANDS):
        b.unsolved[band] = BAND_BITS
        b.placed_rows[band] = 0
    for cell in range(CELLS):
        digit = puzzle[cell]
        if digit:
            band = cell // 27
            restrict_row(b, digit - 1, band, 1u << (cell - 27 * band))
    if not propagate(b):
        return out
    if is_solved(b):
        write_solution(b, solution)
        out.count = 1
        return out

    depth = 0
    branch_cell[0] = pick_branch_cell(b, &branch_rest[0])
    while True:
        rest = branch_rest[depth]
        if rest == 0:
            if depth == 0:
                break
            depth -= 1
            continue
        digit_bit = rest & (~rest + 1)
        rest ^= digit_bit
        branch_rest[depth] = rest
        if rest:
            out.guesses += 1
        out.nodes += 1
        child = &stack[depth + 1]
        child[0] = stack[depth]
        cell = branch_cell[depth]
        band = cell // 27
        restrict_row(child, sudoku_fast_lowest_bit(digit_bit), band, 1u << (cell - 27 * band))
        if not propagate(child):
            continue
        if is_solved(child):
            out.count += 1
            if out.count == 1:
                write_solution(child, solution)
            if out.count >= limit:
                break
            continue
        depth += 1
        branch_cell[depth] = pick_branch_cell(child, &branch_rest[depth])
    return out


def solve_range(
    const uint8_t[::1] grids,
    uint8_t[::1] solutions,
    int32_t[::1] counts,
    int64_t[::1] guesses,
    int64_t[::1] nodes,
    int64_t[::1] nanos,
    Py_ssize_t start,
    Py_ssize_t stop,
    int limit,
):
    """Solve puzzles start..stop-1 of a flat buffer of 81-byte grids, without the GIL.

    `grids` holds digits 0-9 (0 = empty). For each puzzle i the first solution found is
    written to solutions[81*i:81*(i+1)] (left untouched when there is none), the number
    of solutions found, capped at `limit`, to counts[i], and the search figures to
    guesses[i] and nodes[i]. When `nanos` is not None, nanos[i] gets the puzzle's solving
    time in nanoseconds.
    """
    if limit < 1:
        raise ValueError("limit must be at least 1")
    if start < 0 or stop < start:
        raise ValueError("bad range")
    if (
        grids.shape[0] < stop * CELLS
        or solutions.shape[0] < stop * CELLS
        or counts.shape[0] < stop
        or guesses.shape[0] < stop
        or nodes.shape[0] < stop
        or (nanos is not None and nanos.shape[0] < stop)
    ):
        raise ValueError("buffers too small for the requested range")
    cdef Py_ssize_t i
    cdef Outcome res
    cdef bint timed = nanos is not None
    cdef long long t0 = 0
    with nogil:
        for i in range(start, stop):
            if timed:
                t0 = sudoku_fast_nanos()
            res = solve_grid(&grids[i * CELLS], &solutions[i * CELLS], limit)
            if timed:
                nanos[i] = sudoku_fast_nanos() - t0
            counts[i] = res.count
            guesses[i] = res.guesses
            nodes[i] = res.nodes


def encode_strings(list items, uint8_t[::1] out):
    """Write each plain 81-character puzzle string (digits, '.') into `out` as digits 0-9.

    Returns the indices of the items that are not in that plain form; the caller parses
    those with the full notation parser (or reports them).
    """
    cdef Py_ssize_t n = len(items), i, k
    cdef object item
    cdef const unsigned char *chars
    cdef unsigned char ch
    cdef uint8_t *row
    cdef list slow = []
    if out.shape[0] < n * CELLS:
        raise ValueError("output buffer too small")
    for i in range(n):
        item = items[i]
        # Plain puzzles are ASCII, stored one byte per character.
        if (
            type(item) is not str
            or len(<str>item) != CELLS
            or PyUnicode_KIND(item) != PyUnicode_1BYTE_KIND
        ):
            slow.append(i)
            continue
        chars = <const unsigned char *>PyUnicode_DATA(item)
        row = &out[i * CELLS]
        for k in range(CELLS):
            ch = chars[k]
            if ch == 46 or ch == 48:  # '.' or '0'
                row[k] = 0
            elif 49 <= ch <= 57:  # '1'..'9'
                row[k] = ch - 48
            else:
                slow.append(i)
                break
    return slow
