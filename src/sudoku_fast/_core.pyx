# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The 9x9 engine: constraint propagation and MinRV search on plain C arrays.

A grid is 81 candidate bitmasks (bit d-1 set = digit d still possible). Placing a digit
removes it from the 20 peers of its cell (naked singles cascade through a queue); a digit
with a single place left in a unit is placed there (hidden singles, found per unit by
OR-accumulating the digits seen once and at least twice). An empty cell, or a digit with
no place in a unit, is a contradiction. Search picks the unfilled cell with the fewest
candidates and tries each candidate on a copy of the state, on an explicit stack.

Everything below `solve_range` runs without the GIL and without Python objects.
"""

from cpython.unicode cimport PyUnicode_1BYTE_KIND, PyUnicode_DATA, PyUnicode_KIND
from libc.stdint cimport int32_t, int64_t, uint8_t, uint16_t

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
    """
    long long sudoku_fast_nanos() nogil

cdef enum:
    CELLS = 81
    UNITS = 27
    PEERS = 20
    ALL_DIGITS = 0x1FF

# Tables, filled once at import and read-only afterwards.
cdef uint8_t peers_of[CELLS][PEERS]
cdef uint8_t unit_cells[UNITS][9]
cdef uint8_t bit_count[512]
cdef uint8_t lowest_digit[512]  # 1-based digit of the lowest set bit


cdef struct Grid:
    uint16_t cand[CELLS]
    int32_t placed  # cells whose value has been propagated to their peers


cdef struct Queue:
    uint8_t cells[CELLS]
    int head
    int tail


cdef struct Outcome:
    int32_t count       # solutions found, capped at the limit
    int64_t guesses     # branch trials made while other candidates were still open
    int64_t nodes       # states visited, the root included


cdef void build_tables() noexcept:
    cdef int cell, other, r, c, b, k, n, v
    for r in range(9):
        for c in range(9):
            b = (r // 3) * 3 + c // 3
            unit_cells[r][c] = <uint8_t>(r * 9 + c)
            unit_cells[9 + c][r] = <uint8_t>(r * 9 + c)
            unit_cells[18 + b][(r % 3) * 3 + c % 3] = <uint8_t>(r * 9 + c)
    for cell in range(CELLS):
        n = 0
        for other in range(CELLS):
            if other != cell and (
                other // 9 == cell // 9
                or other % 9 == cell % 9
                or ((other // 27 == cell // 27) and (other % 9) // 3 == (cell % 9) // 3)
            ):
                peers_of[cell][n] = <uint8_t>other
                n += 1
    for v in range(512):
        bit_count[v] = 0
        lowest_digit[v] = 0
        for k in range(9):
            if v & (1 << k):
                bit_count[v] += 1
                if lowest_digit[v] == 0:
                    lowest_digit[v] = <uint8_t>(k + 1)


build_tables()


cdef inline bint restrict_cell(Grid *g, Queue *q, int cell, uint16_t digit_bit) noexcept nogil:
    """Reduce a cell to one digit; queue it if that is news. False on contradiction."""
    cdef uint16_t c = g.cand[cell]
    if not (c & digit_bit):
        return False
    if c != digit_bit:
        g.cand[cell] = digit_bit
        q.cells[q.tail] = <uint8_t>cell
        q.tail += 1
    return True


cdef inline bint eliminate_from_peers(Grid *g, Queue *q) noexcept nogil:
    """Propagate every queued placement to its peers; naked singles join the queue."""
    cdef int cell, peer, k
    cdef uint16_t digit_bit, c
    while q.head < q.tail:
        cell = q.cells[q.head]
        q.head += 1
        digit_bit = g.cand[cell]
        g.placed += 1
        for k in range(PEERS):
            peer = peers_of[cell][k]
            c = g.cand[peer]
            if c & digit_bit:
                c ^= digit_bit
                if c == 0:
                    return False
                g.cand[peer] = c
                if (c & (c - 1)) == 0:
                    q.cells[q.tail] = <uint8_t>peer
                    q.tail += 1
    return True


cdef bint find_hidden_singles(Grid *g, Queue *q) noexcept nogil:
    """Place every digit that has one place left in some unit. False on contradiction."""
    cdef int u, k, cell
    cdef uint16_t seen_once, seen_twice, c, only_here, hit
    for u in range(UNITS):
        seen_once = 0
        seen_twice = 0
        for k in range(9):
            c = g.cand[unit_cells[u][k]]
            seen_twice |= seen_once & c
            seen_once |= c
        if seen_once != ALL_DIGITS:
            return False
        only_here = seen_once & ~seen_twice
        if only_here == 0:
            continue
        for k in range(9):
            cell = unit_cells[u][k]
            c = g.cand[cell]
            hit = c & only_here
            if hit == 0:
                continue
            if hit & (hit - 1):
                return False  # one cell would need two digits
            if hit == c:
                continue  # already placed
            g.cand[cell] = hit
            q.cells[q.tail] = <uint8_t>cell
            q.tail += 1
    return True


cdef bint propagate(Grid *g, Queue *q) noexcept nogil:
    """Run naked and hidden singles to a fixed point. False on contradiction."""
    while True:
        if not eliminate_from_peers(g, q):
            return False
        if g.placed == CELLS:
            return True
        q.head = 0
        q.tail = 0
        if not find_hidden_singles(g, q):
            return False
        if q.tail == 0:
            return True


cdef inline int pick_branch_cell(const Grid *g) noexcept nogil:
    """The unfilled cell with the fewest candidates (stopping at the first with two)."""
    cdef int cell, best = -1, best_count = 10, n
    for cell in range(CELLS):
        n = bit_count[g.cand[cell]]
        if 1 < n < best_count:
            best = cell
            best_count = n
            if n == 2:
                break
    return best


cdef Outcome solve_grid(const uint8_t *puzzle, uint8_t *solution, int limit) noexcept nogil:
    """Solve one puzzle (digits 0-9, 0 = empty); write the first solution found."""
    cdef Grid stack[CELLS + 1]
    cdef uint8_t branch_cell[CELLS + 1]
    cdef uint16_t branch_rest[CELLS + 1]
    cdef Queue q
    cdef Outcome out
    cdef Grid *g
    cdef Grid *child
    cdef int cell, depth, v
    cdef uint16_t rest, digit_bit

    out.count = 0
    out.guesses = 0
    out.nodes = 1
    g = &stack[0]
    g.placed = 0
    q.head = 0
    q.tail = 0
    for cell in range(CELLS):
        g.cand[cell] = ALL_DIGITS
    for cell in range(CELLS):
        v = puzzle[cell]
        if v and not restrict_cell(g, &q, cell, <uint16_t>(1 << (v - 1))):
            return out
    if not propagate(g, &q):
        return out
    if g.placed == CELLS:
        write_solution(g, solution)
        out.count = 1
        return out

    depth = 0
    branch_cell[0] = <uint8_t>pick_branch_cell(g)
    branch_rest[0] = g.cand[branch_cell[0]]
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
        q.head = 0
        q.tail = 0
        if not restrict_cell(child, &q, branch_cell[depth], digit_bit):
            continue
        if not propagate(child, &q):
            continue
        if child.placed == CELLS:
            out.count += 1
            if out.count == 1:
                write_solution(child, solution)
            if out.count >= limit:
                break
            continue
        depth += 1
        cell = pick_branch_cell(child)
        branch_cell[depth] = <uint8_t>cell
        branch_rest[depth] = child.cand[cell]
    return out


cdef inline void write_solution(const Grid *g, uint8_t *solution) noexcept nogil:
    cdef int cell
    for cell in range(CELLS):
        solution[cell] = lowest_digit[g.cand[cell]]


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
