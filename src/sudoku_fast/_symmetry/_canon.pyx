# cython: language_level=3
# Every other directive is set once for all modules in setup.py.
"""Canonical forms under the Sudoku symmetry group, compiled: the fast twin of `symmetry.py`.

The canonical form of a grid is the smallest string (empty cell 0 below every digit) over
every grid the symmetry group reaches from it: relabelling the digits, permuting the
bands and the rows within each band, the stacks and the columns within each stack, and
(for square boxes) transposing. The search builds the answer row by row, smallest first:

* Digits are numbered by first appearance. For a fixed arrangement of the cells that
  numbering gives the smallest string, so a digit met for the first time is simply
  "new": larger than every digit already numbered, and new digits take the next
  numbers in the order they appear.
* The column arrangements still open are kept as ordered partitions (the stacks in
  ordered cells, and the columns of each stack in ordered cells): any arrangement that
  respects the order of the cells is still allowed. The smallest image of a row is then
  found by sorting each cell, and the arrangements that give it by splitting the cells
  where the sorted values differ. Two new digits tied in one cell are the only place
  where the choice changes what comes later (which one takes the smaller number), so
  only there does the search branch, once per element of the tie.
* The next row is any unused row of the band in progress (of any unused band when a
  band is complete). The candidates whose smallest image is the smallest of them are
  followed depth-first; a branch ends as soon as its row is larger than the same row of
  the best string found so far. Empty rows of one band, and empty bands, are
  interchangeable, so only the first of them is tried.

9x9 grids with 3x3 boxes run the same search on small fixed-size states (see "9x9
puzzles" below): row images packed in one integer each, the arrangements of every
level kept together so that only those giving the smallest row of all go on, and the
sorting networks and the scan of the clues free of branches.

Full grids (every cell filled) take a search of their own (see "full grids" below):
their first row reads 1, 2, ..., n whatever the arrangement, so every order of its new
digits would tie and branch. There the two top rows are chosen and the columns are
arranged to make row 2 smallest, each digit numbered by the place its column in row 1
takes; on 9x9 grids a table of the few classes of row pairs (built on first use) says
which pairs can give the smallest row 2, and only those are searched.

`random_transform_range` draws one group element per grid from the grid's own 64-bit
seed (the random numbers of `_rng.pxd`, in the order `symmetry.random_transformation`
draws them in Python) and applies it.

`canonical_range` also records, for each grid, one group element that maps it to its
canonical form (see `MOVE_*`), so that callers can check the answer against an
independent implementation of the group action and carry the same map over to a
solution. `transform_range` applies such elements to grids.

Everything works on plain C data in a workspace allocated per call, so any number of
threads may run at once; the tables of 9x9 row pairs (`PAIR_CLASS`, `PAIR_ORDER`) are
filled once, under a lock, and only read afterwards.
"""

from cpython.unicode cimport Py_UCS1, PyUnicode_1BYTE_DATA, PyUnicode_New
from libc.stdint cimport int32_t, int64_t, uint8_t, uint16_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memchr, memcmp, memcpy, memset

from sudoku_fast._base.bits cimport bits_lowest_index
from sudoku_fast._base.rng cimport Rng, below, identity, line_order, rng_seed, shuffle
from sudoku_fast._base.stop cimport Stop, poll, raise_saved, stop_init
from sudoku_fast._engine._atomic cimport sudoku_fast_published, sudoku_fast_publish

import threading

cdef enum:
    MAXN = 64     # rows are a 64-bit mask
    NEW = 255     # a digit not yet numbered: above every number
    NONE = 255    # a column or stack not yet given a place
    POLL_EVERY = 1024  # search steps between two looks at the stop flag and Ctrl-C
    FRONTIER = 64      # 9x9 puzzles: states a frontier holds before it grows

# Status of a grid after canonical_range.
cdef enum:
    C_OK = 0
    C_REPEAT = 1      # a digit repeats in a row or column: no canonical form is computed
    C_BUDGET = 2      # the search ran out of its node budget: no canonical form
    C_MEMORY = 3      # the search ran out of memory: no canonical form

STATUS_OK = C_OK
STATUS_REPEAT = C_REPEAT
STATUS_BUDGET = C_BUDGET
STATUS_MEMORY = C_MEMORY

MAX_SIZE = MAXN


cdef struct State:
    uint64_t used_rows
    uint64_t used_bands
    int band                 # band in progress
    int nextlab              # the number the next new digit takes
    uint8_t lab[MAXN + 1]    # digit -> its number (0: not yet numbered)
    uint8_t stk[MAXN]        # stack order: input stacks, in ordered cells
    uint8_t stkcut[MAXN]     # 1 where a stack cell starts
    uint8_t col[MAXN]        # col[q*bc + k]: columns of input stack q, in ordered cells
    uint8_t colcut[MAXN]     # 1 where a column cell starts
    uint8_t rows[MAXN]       # rows[i]: the input row of output row i


cdef enum:
    NEW9 = 15  # a digit not yet numbered, in a packed row image: above every number


cdef struct P9:
    uint8_t sym[10]       # digit -> its number; NEW9 before it has one; sym[0] = 0
    uint8_t col[9]        # col[3q + k]: the columns of input stack q, in ordered cells
    uint8_t stk[3]        # the input stacks in output order, in ordered cells
    uint8_t rows[9]       # rows[i]: the input row of output row i
    uint16_t colcut       # bit 3q + k: a column cell starts at col[3q + k]
    uint16_t used_rows
    uint8_t stkcut        # bit j: a stack cell starts at stk[j]
    uint8_t used_bands
    uint8_t band          # the band in progress
    uint8_t nextlab       # the number the next new digit takes
    uint8_t t             # 1: the transposed grid


cdef struct Cand9:
    uint64_t key
    int32_t state
    int32_t row


cdef struct Root:
    uint8_t t                # 1: the transposed grid
    uint8_t r1
    uint8_t r2
    uint8_t rank             # 9x9: the rank of the pair's class (PAIR_ORDER); 0: unknown


cdef struct Ctx:
    int n
    int br                   # rows per band (box rows)
    int bc                   # columns per stack (box columns)
    int nbands
    int nstacks
    int transposed
    int64_t nodes            # search steps taken on this grid
    int64_t max_nodes        # 0: no budget
    Stop *stop               # polled every POLL_EVERY steps: a stop flag, Ctrl-C
    bint stopped             # a poll said stop: the search unwinds
    const uint8_t *g         # the grid in the orientation being searched
    uint8_t *best            # the best string so far, n*n
    int best_rows            # how many rows of best are set
    uint8_t *cand            # per level: n candidate row images of n values
    uint8_t seq[MAXN]        # scratch: each input stack's best arrangement of a row
    uint8_t order[MAXN]      # scratch: stacks in output order
    uint8_t row_empty[MAXN]
    uint8_t band_empty[MAXN]
    int leaf_t
    uint8_t leaf_rows[MAXN]
    uint8_t leaf_cols[MAXN]
    uint8_t leaf_lab[MAXN + 1]
    # Full grids (see full_search): the two rows on top, row r1's columns by value,
    # the column map f, the positions given so far and row 2's values so far.
    int r1
    int r2
    bint have_best
    int64_t found            # how many times a smaller string was found
    uint8_t inv1[MAXN + 1]   # value -> its column in row r1
    uint8_t f[MAXN]          # column c -> the column where row r1 holds row r2's value at c
    uint8_t pos_of[MAXN]     # column -> output position (NONE: not yet placed)
    uint8_t col_at[MAXN]     # output position -> column
    uint8_t out_of_src[MAXN]  # input stack -> output stack (NONE: not yet placed)
    uint8_t src_of_out[MAXN]  # output stack -> input stack, where free_out says it has one
    uint64_t free_out        # bit k: output stack k has no input stack yet
    uint8_t fill[MAXN]       # positions given in each output stack: always its first ones
    uint8_t stack_of[MAXN]   # i // box_cols: the stack of column i, of position i
    uint8_t row2[MAXN]
    Root roots[2 * MAXN * MAXN]
    # 9x9 puzzles (see puzzle9): the frontier, the next one, the candidates.
    const uint8_t *g9[2]     # the grid, and transposed
    P9 *front9
    P9 *next9
    Cand9 *cand9
    Py_ssize_t n_front
    Py_ssize_t n_next
    Py_ssize_t cap_front
    Py_ssize_t cap_next
    Py_ssize_t cap_cand
    bint nomem               # a frontier could not grow
    uint8_t count9[2][9][3]  # clues by orientation, row and stack (look9)
    int clues9


cdef inline uint8_t symbol(const State *s, uint8_t d) noexcept nogil:
    if d == 0:
        return 0
    if s.lab[d]:
        return s.lab[d]
    return NEW


cdef void stack_arrangements(Ctx *cx, const State *s, const uint8_t *row) noexcept nogil:
    """cx.seq[q*bc:(q+1)*bc]: the smallest arrangement of input stack q within its cells."""
    cdef int q, k, j, start, base
    cdef int bc = cx.bc
    cdef uint8_t v
    cdef uint8_t *seq = cx.seq
    for q in range(cx.nstacks):
        base = q * bc
        start = 0
        for k in range(bc):
            v = symbol(s, row[s.col[base + k]])
            if s.colcut[base + k]:
                start = k
            j = k
            while j > start and seq[base + j - 1] > v:
                seq[base + j] = seq[base + j - 1]
                j -= 1
            seq[base + j] = v


cdef void stack_order(Ctx *cx, const State *s) noexcept nogil:
    """cx.order: the input stacks in output order, sorted by arrangement within each cell."""
    cdef int j, i, start, q
    cdef int bc = cx.bc
    cdef uint8_t *seq = cx.seq
    cdef uint8_t *order = cx.order
    start = 0
    for j in range(cx.nstacks):
        q = s.stk[j]
        if s.stkcut[j]:
            start = j
        i = j
        while i > start and memcmp(seq + order[i - 1] * bc, seq + q * bc, bc) > 0:
            order[i] = order[i - 1]
            i -= 1
        order[i] = <uint8_t>q


cdef void row_image(Ctx *cx, const State *s, int r, uint8_t *out) noexcept nogil:
    """The smallest image of input row r under the arrangements state s still allows."""
    cdef int j, k
    cdef int bc = cx.bc
    cdef int lab = s.nextlab
    cdef uint8_t v
    cdef const uint8_t *src
    stack_arrangements(cx, s, cx.g + r * cx.n)
    stack_order(cx, s)
    for j in range(cx.nstacks):
        src = cx.seq + cx.order[j] * bc
        for k in range(bc):
            v = src[k]
            if v == NEW:
                v = <uint8_t>lab
                lab += 1
            out[j * bc + k] = v


cdef void record_leaf(Ctx *cx, const State *s) noexcept nogil:
    cdef int j, k, q
    cdef int bc = cx.bc
    cx.leaf_t = cx.transposed
    memcpy(cx.leaf_rows, s.rows, cx.n)
    for j in range(cx.nstacks):
        q = s.stk[j]
        for k in range(bc):
            cx.leaf_cols[j * bc + k] = s.col[q * bc + k]
    memcpy(cx.leaf_lab, s.lab, cx.n + 1)


cdef void search(Ctx *cx, const State *s, int level) noexcept nogil:
    """Extend the rows fixed in s by every smallest next row; keep the best string."""
    cdef int n = cx.n
    cdef int br = cx.br
    cdef int b, r, c, ncand = 0, lo, hi, d
    cdef bint band_start = level % br == 0
    cdef bint empty_band_seen = False, empty_row_seen
    cdef uint8_t cands[MAXN]
    cdef uint8_t *cand
    cdef uint8_t *least
    cdef uint8_t *best_row
    if level == n:
        record_leaf(cx, s)
        return
    if band_start:
        lo, hi = 0, cx.nbands
    else:
        lo, hi = s.band, s.band + 1
    for b in range(lo, hi):
        if band_start:
            if s.used_bands >> b & 1:
                continue
            if cx.band_empty[b]:
                if empty_band_seen:
                    continue
                empty_band_seen = True
        empty_row_seen = False
        for r in range(b * br, b * br + br):
            if s.used_rows >> r & 1:
                continue
            if cx.row_empty[r]:
                if empty_row_seen:
                    continue
                empty_row_seen = True
            cands[ncand] = <uint8_t>r
            ncand += 1
    cand = cx.cand + level * n * n
    least = cand
    for c in range(ncand):
        row_image(cx, s, cands[c], cand + c * n)
        if c and memcmp(cand + c * n, least, n) < 0:
            least = cand + c * n
    best_row = cx.best + level * n
    if cx.best_rows > level:
        d = memcmp(least, best_row, n)
        if d > 0:
            return
        if d < 0:
            memcpy(best_row, least, n)
            cx.best_rows = level + 1
    else:
        memcpy(best_row, least, n)
        cx.best_rows = level + 1
    for c in range(ncand):
        if memcmp(cand + c * n, best_row, n) == 0:
            descend(cx, s, cands[c], level)


cdef void descend(Ctx *cx, const State *parent, int r, int level) noexcept nogil:
    """Fix input row r as output row `level`: split the cells by its values, branch on
    ties of new digits, number the new digits and search the next row."""
    cdef State s = parent[0]
    cdef int n = cx.n
    cdef int bc = cx.bc
    cdef int q, k, j, start, base, a, m, t
    cdef int tie_kind = 0, tie_start = 0, tie_end = 0, tie_base = 0
    cdef uint8_t v, x
    cdef uint8_t key[MAXN]
    cdef const uint8_t *row = cx.g + r * n
    cdef uint8_t *seq = cx.seq
    cdef State child
    cx.nodes += 1
    if cx.max_nodes and cx.nodes > cx.max_nodes:
        return
    if cx.stopped or (cx.nodes % POLL_EVERY == 0 and poll(cx.stop)):
        cx.stopped = True
        return
    # Columns: sort every cell of every stack by the row's values, split where they differ.
    for q in range(cx.nstacks):
        base = q * bc
        start = 0
        for k in range(bc):
            x = s.col[base + k]
            v = symbol(parent, row[x])
            if s.colcut[base + k]:
                start = k
            j = k
            while j > start and key[base + j - 1] > v:
                key[base + j] = key[base + j - 1]
                s.col[base + j] = s.col[base + j - 1]
                j -= 1
            key[base + j] = v
            s.col[base + j] = x
        for k in range(1, bc):
            if key[base + k] != key[base + k - 1]:
                s.colcut[base + k] = 1
            elif key[base + k] == NEW and not s.colcut[base + k] and tie_kind == 0:
                tie_kind = 1
                tie_base = base
                a = k - 1
                while not s.colcut[base + a]:
                    a -= 1
                tie_start = a
                tie_end = k + 1
                while tie_end < bc and not s.colcut[base + tie_end] and key[base + tie_end] == NEW:
                    tie_end += 1
    memcpy(seq, key, n)
    # Stacks: sort every cell by arrangement, split where they differ.
    start = 0
    for j in range(cx.nstacks):
        x = s.stk[j]
        if s.stkcut[j]:
            start = j
        k = j
        while k > start and memcmp(seq + s.stk[k - 1] * bc, seq + x * bc, bc) > 0:
            s.stk[k] = s.stk[k - 1]
            k -= 1
        s.stk[k] = x
    for j in range(1, cx.nstacks):
        if s.stkcut[j]:
            continue
        if memcmp(seq + s.stk[j] * bc, seq + s.stk[j - 1] * bc, bc) != 0:
            s.stkcut[j] = 1
        elif tie_kind == 0 and memchr_new(seq + s.stk[j] * bc, bc):
            tie_kind = 2
            a = j - 1
            while not s.stkcut[a]:
                a -= 1
            tie_start = a
            tie_end = j + 1
            while (tie_end < cx.nstacks and not s.stkcut[tie_end]
                   and memcmp(seq + s.stk[tie_end] * bc, seq + s.stk[j] * bc, bc) == 0):
                tie_end += 1
    if tie_kind:
        # Each member of the tie in turn takes the first place, alone in its cell;
        # a member that a symmetry of the rest of the grid swaps with one tried
        # before would only repeat that search.
        for m in range(tie_start, tie_end):
            for t in range(tie_start, m):
                if swap_is_symmetry(cx, &s, row, tie_kind, tie_base, t, m):
                    break
            else:
                t = -1
            if t >= 0:
                continue
            child = s
            if tie_kind == 1:
                x = child.col[tie_base + m]
                for t in range(m, tie_start, -1):
                    child.col[tie_base + t] = child.col[tie_base + t - 1]
                child.col[tie_base + tie_start] = x
                child.colcut[tie_base + tie_start + 1] = 1
            else:
                x = child.stk[m]
                for t in range(m, tie_start, -1):
                    child.stk[t] = child.stk[t - 1]
                child.stk[tie_start] = x
                child.stkcut[tie_start + 1] = 1
            descend(cx, &child, r, level)
        return
    # Resolved: number the new digits in output order, then the next row.
    for j in range(cx.nstacks):
        q = s.stk[j]
        for k in range(bc):
            v = row[s.col[q * bc + k]]
            if v and not s.lab[v]:
                s.lab[v] = <uint8_t>s.nextlab
                s.nextlab += 1
    s.rows[level] = <uint8_t>r
    s.used_rows |= (<uint64_t>1) << r
    if level % cx.br == 0:
        s.band = r // cx.br
        s.used_bands |= (<uint64_t>1) << s.band
    search(cx, &s, level + 1)


cdef bint swap_is_symmetry(Ctx *cx, const State *s, const uint8_t *row, int kind, int base,
                           int a, int b) noexcept nogil:
    """Whether swapping tie members a and b (two columns of one cell at s.col[base+a],
    s.col[base+b], or two stacks at s.stk[a], s.stk[b]) together with the new digits they
    hold in `row` maps every row not yet placed onto itself.

    The rows already placed hold only empty cells in tied columns, and the new digits
    do not occur there, so such a swap is a symmetry of the whole state: both choices
    lead to the same strings, and only the first needs searching.
    """
    cdef int n = cx.n
    cdef int bc = cx.bc
    cdef int k, c, r2, ca, cb, qa, qb
    cdef uint8_t tau[MAXN]
    cdef uint8_t sigma[MAXN + 1]
    cdef const uint8_t *line
    for c in range(n):
        tau[c] = <uint8_t>c
    for c in range(n + 1):
        sigma[c] = <uint8_t>c
    if kind == 1:
        ca = s.col[base + a]
        cb = s.col[base + b]
        tau[ca] = <uint8_t>cb
        tau[cb] = <uint8_t>ca
        sigma[row[ca]] = row[cb]
        sigma[row[cb]] = row[ca]
    else:
        qa = s.stk[a]
        qb = s.stk[b]
        if memcmp(s.colcut + qa * bc, s.colcut + qb * bc, bc) != 0:
            return False
        for k in range(bc):
            ca = s.col[qa * bc + k]
            cb = s.col[qb * bc + k]
            tau[ca] = <uint8_t>cb
            tau[cb] = <uint8_t>ca
            if row[ca] != row[cb]:
                sigma[row[ca]] = row[cb]
                sigma[row[cb]] = row[ca]
    for r2 in range(n):
        if s.used_rows >> r2 & 1:
            continue
        line = cx.g + r2 * n
        for c in range(n):
            if sigma[line[tau[c]]] != line[c]:
                return False
    return True


cdef inline bint memchr_new(const uint8_t *p, int count) noexcept nogil:
    cdef int k
    for k in range(count):
        if p[k] == NEW:
            return True
    return False


cdef bint has_repeat(const uint8_t *g, int n) noexcept nogil:
    """True when a digit repeats in a row or a column of the n x n grid g."""
    cdef uint64_t seen_row, seen_col, bit
    cdef int i, j
    for i in range(n):
        seen_row = 0
        seen_col = 0
        for j in range(n):
            if g[i * n + j]:
                bit = (<uint64_t>1) << (g[i * n + j] - 1)
                if seen_row & bit:
                    return True
                seen_row |= bit
            if g[j * n + i]:
                bit = (<uint64_t>1) << (g[j * n + i] - 1)
                if seen_col & bit:
                    return True
                seen_col |= bit
    return False


cdef void root_state(Ctx *cx, State *s) noexcept nogil:
    cdef int j
    memset(s, 0, sizeof(State))
    s.nextlab = 1
    for j in range(cx.nstacks):
        s.stk[j] = <uint8_t>j
    s.stkcut[0] = 1
    for j in range(cx.n):
        s.col[j] = <uint8_t>j
        s.colcut[j] = 1 if j % cx.bc == 0 else 0


cdef void orient(Ctx *cx, const uint8_t *g) noexcept nogil:
    """Search the grid g in its current orientation (g is row-major, n x n)."""
    cdef int n = cx.n
    cdef int r, j, b
    cdef State s
    cx.g = g
    for r in range(n):
        cx.row_empty[r] = 1
        for j in range(n):
            if g[r * n + j]:
                cx.row_empty[r] = 0
                break
    for b in range(cx.nbands):
        cx.band_empty[b] = 1
        for r in range(b * cx.br, b * cx.br + cx.br):
            if not cx.row_empty[r]:
                cx.band_empty[b] = 0
    root_state(cx, &s)
    search(cx, &s, 0)


cdef void least_first_row(Ctx *cx, const uint8_t *g, uint8_t *out) noexcept nogil:
    """The smallest image of any row of g: the first row of g's best string when g is
    searched in this orientation."""
    cdef int n = cx.n
    cdef int r
    cdef State s
    cdef uint8_t image[MAXN]
    cx.g = g
    root_state(cx, &s)
    row_image(cx, &s, 0, out)
    for r in range(1, n):
        row_image(cx, &s, r, image)
        if memcmp(image, out, n) < 0:
            memcpy(out, image, n)


# ---------------------------------------------------------------- full grids
#
# In a full grid every row holds every digit, so whatever the arrangement the first row
# reads 1, 2, ..., n: numbering by first appearance leaves it nothing to choose, and
# the search above would branch on every order of those n new digits (a 9x9 grid took
# tens of thousands of steps). Here the numbering is read off the arrangement instead.
# Once the two top rows r1, r2 are chosen (two rows of one band), digit v is numbered
# by the position its column in row r1 takes, so row 2 reads, at position j, the
# position (from 1) of the column f[c_j] where row r1 holds row r2's digit of column
# c_j. The positions are given left to right, each the column that makes row 2
# smallest there (ties branch), the column f[c] going as far left as it can when it has
# no place yet. A complete arrangement fixes the image of every other row, and those
# only need sorting: the rest of the top band by image, the other bands by their
# smallest row.

cdef inline bint is_full(const uint8_t *g, int cells) noexcept nogil:
    cdef int i
    for i in range(cells):
        if g[i] == 0:
            return False
    return True


cdef inline void put(Ctx *cx, int c, int slot) noexcept nogil:
    cx.pos_of[c] = <uint8_t>slot
    cx.col_at[slot] = <uint8_t>c
    cx.fill[cx.stack_of[slot]] += 1


cdef inline void unput(Ctx *cx, int c) noexcept nogil:
    cdef int slot = cx.pos_of[c]
    cx.fill[cx.stack_of[slot]] -= 1
    cx.pos_of[c] = NONE


cdef inline void tie_stacks(Ctx *cx, int src, int out) noexcept nogil:
    cx.out_of_src[src] = <uint8_t>out
    cx.src_of_out[out] = <uint8_t>src
    cx.free_out &= ~((<uint64_t>1) << out)


cdef inline void untie_stacks(Ctx *cx, int src) noexcept nogil:
    cx.free_out |= (<uint64_t>1) << cx.out_of_src[src]
    cx.out_of_src[src] = NONE


cdef inline int place_target(Ctx *cx, int c) noexcept nogil:
    """Give f[c] its leftmost free position if it has none. Returns 0 if it had one,
    1 if its stack already had a place, 2 if its stack got one too (see unplace_target)."""
    cdef int t = cx.f[c]
    cdef int src = cx.stack_of[t]
    cdef int k = cx.out_of_src[src]
    cdef int how = 1
    if cx.pos_of[t] != NONE:
        return 0
    if k == NONE:
        k = bits_lowest_index(cx.free_out)
        tie_stacks(cx, src, k)
        how = 2
    put(cx, t, k * cx.bc + cx.fill[k])
    return how


cdef inline void unplace_target(Ctx *cx, int c, int how) noexcept nogil:
    cdef int t = cx.f[c]
    if how:
        unput(cx, t)
        if how == 2:
            untie_stacks(cx, cx.stack_of[t])


cdef void full_step(Ctx *cx, int j, bint less) noexcept nogil:
    """Give output position j its column, smallest row 2 first; `less`: row 2 is already
    smaller than the best string's, which then bounds it no more."""
    cdef int n = cx.n
    cdef int bc = cx.bc
    cdef int J = cx.stack_of[j]
    cdef int c, t, p, v, vmin, bound, src, lo, hi, how, k, fresh
    cdef int64_t found
    cdef uint8_t values[MAXN]
    cx.nodes += 1
    if cx.max_nodes and cx.nodes > cx.max_nodes:
        return
    if cx.stopped or (cx.nodes % POLL_EVERY == 0 and poll(cx.stop)):
        cx.stopped = True
        return
    if j == n:
        full_leaf(cx, less)
        return
    bound = cx.best[n + j] if cx.have_best and not less else NONE
    if j - J * bc < cx.fill[J]:  # taken already, as the place of some f[c]
        c = cx.col_at[j]
        how = place_target(cx, c)
        v = cx.pos_of[cx.f[c]] + 1
        if v <= bound:
            cx.row2[j] = <uint8_t>v
            full_step(cx, j + 1, less or v < bound)
        unplace_target(cx, c, how)
        return
    src = cx.src_of_out[J] if not (cx.free_out >> J & 1) else NONE
    if src != NONE:
        lo, hi = src * bc, src * bc + bc
    else:
        lo, hi = 0, n
    # The leftmost output stack still free once J is taken: where f[c] goes when its
    # stack has no place yet.
    fresh = cx.free_out & ~((<uint64_t>1) << J)
    fresh = bits_lowest_index(fresh) * bc + 1 if fresh else NONE
    vmin = NONE
    for c in range(lo, hi):
        values[c] = NONE
        if cx.pos_of[c] != NONE or (src == NONE and cx.out_of_src[cx.stack_of[c]] != NONE):
            continue
        t = cx.f[c]
        p = cx.pos_of[t]
        if p != NONE:
            v = p + 1
        elif cx.stack_of[t] == cx.stack_of[c]:  # right after c
            v = j + 2
        else:
            k = cx.out_of_src[cx.stack_of[t]]
            v = fresh if k == NONE else k * bc + cx.fill[k] + 1
        values[c] = <uint8_t>v
        if v < vmin:
            vmin = v
    if vmin > bound:
        return
    cx.row2[j] = <uint8_t>vmin
    found = cx.found
    for c in range(lo, hi):
        if values[c] != vmin:
            continue
        if src == NONE:
            tie_stacks(cx, cx.stack_of[c], J)
        put(cx, c, j)
        how = place_target(cx, c)
        full_step(cx, j + 1, less or vmin < bound)
        unplace_target(cx, c, how)
        unput(cx, c)
        if src == NONE:
            untie_stacks(cx, cx.stack_of[c])
        if cx.stopped:
            return
        if cx.found != found:
            # A smaller string was found below: its row 2 begins as ours does up to j,
            # and now bounds the siblings.
            found = cx.found
            less = False
            bound = vmin


cdef inline void image_row(const Ctx *cx, int r, const uint8_t *lab, uint8_t *out) noexcept nogil:
    cdef int j
    cdef const uint8_t *row = cx.g + r * cx.n
    for j in range(cx.n):
        out[j] = lab[row[cx.col_at[j]]]


cdef void sort_rows(uint8_t *rows, uint8_t *order, int count, int n) noexcept nogil:
    """Sort `count` rows of n values (and their row numbers in `order`) in place."""
    cdef int i, k
    cdef uint8_t keep[MAXN]
    cdef uint8_t r
    for i in range(1, count):
        memcpy(keep, rows + i * n, n)
        r = order[i]
        k = i
        while k > 0 and memcmp(rows + (k - 1) * n, keep, n) > 0:
            memcpy(rows + k * n, rows + (k - 1) * n, n)
            order[k] = order[k - 1]
            k -= 1
        memcpy(rows + k * n, keep, n)
        order[k] = r


cdef void full_leaf(Ctx *cx, bint less) noexcept nogil:
    """A complete arrangement: its string (the other rows sorted), kept if it is the
    smallest so far. Rows 1 and 2 are known to be no larger than the best string's
    (smaller if `less`); the rest is compared row by row as it is made."""
    cdef int n = cx.n
    cdef int br = cx.br
    cdef int j, r, m, b, k, i, d, count, top1, top2
    cdef uint8_t lab[MAXN + 1]
    cdef uint8_t order[MAXN]
    cdef uint8_t bands[MAXN]
    cdef uint8_t band_rows[MAXN]
    cdef uint8_t *out = cx.cand
    cdef uint8_t *spare = cx.cand + n * n  # the other bands' rows, each band sorted
    less = less or not cx.have_best
    lab[0] = 0
    for j in range(1, n + 1):
        lab[j] = cx.pos_of[cx.inv1[j]] + 1
    order[0] = <uint8_t>cx.r1
    order[1] = <uint8_t>cx.r2
    m = 2
    top1 = cx.r1 // br
    top2 = cx.r2 // br
    # The rest of the top band (of r2's band when a band is one row: none).
    for r in range(top2 * br, top2 * br + br):
        if r != cx.r1 and r != cx.r2:
            image_row(cx, r, lab, out + m * n)
            order[m] = <uint8_t>r
            m += 1
    sort_rows(out + 2 * n, order + 2, m - 2, n)
    for i in range(2, m):
        if not less:
            d = memcmp(out + i * n, cx.best + i * n, n)
            if d > 0:
                return
            less = d < 0
    count = 0
    for b in range(cx.nbands):
        if b == top1 or b == top2:
            continue
        for i in range(br):
            image_row(cx, b * br + i, lab, spare + (b * br + i) * n)
            band_rows[b * br + i] = <uint8_t>(b * br + i)
        sort_rows(spare + b * br * n, band_rows + b * br, br, n)
        k = count  # bands in order of their smallest row
        while k > 0 and memcmp(spare + bands[k - 1] * br * n, spare + b * br * n, n) > 0:
            bands[k] = bands[k - 1]
            k -= 1
        bands[k] = <uint8_t>b
        count += 1
    for k in range(count):
        b = bands[k]
        if not less:
            d = memcmp(spare + b * br * n, cx.best + m * n, br * n)
            if d > 0:
                return
            less = d < 0
        memcpy(out + m * n, spare + b * br * n, br * n)
        memcpy(order + m, band_rows + b * br, br)
        m += br
    if not less:
        return  # the same string again
    for j in range(n):
        out[j] = <uint8_t>(j + 1)
    memcpy(out + n, cx.row2, n)
    memcpy(cx.best, out, n * n)
    cx.have_best = True
    cx.found += 1
    cx.leaf_t = cx.transposed
    memcpy(cx.leaf_rows, order, n)
    memcpy(cx.leaf_cols, cx.col_at, n)
    memcpy(cx.leaf_lab, lab, n + 1)


cdef void full_root(Ctx *cx, int t, const uint8_t *grid, int r1, int r2) noexcept nogil:
    """Search the arrangements with rows r1, r2 of `grid` (transposed if t) on top."""
    cdef int n = cx.n
    cdef int c
    cx.g = grid
    cx.transposed = t
    for c in range(n):
        cx.inv1[grid[r1 * n + c]] = <uint8_t>c
    for c in range(n):
        cx.f[c] = cx.inv1[grid[r2 * n + c]]
    memset(cx.pos_of, NONE, n)
    memset(cx.out_of_src, NONE, cx.nstacks)
    memset(cx.fill, 0, cx.nstacks)
    cx.free_out = ~(<uint64_t>0) >> (64 - cx.nstacks)
    cx.r1 = r1
    cx.r2 = r2
    full_step(cx, 0, False)


cdef void full_search(Ctx *cx, const uint8_t *g, const uint8_t *gt) noexcept nogil:
    """The canonical form of the full grid g into cx.best, its group element into the
    leaf fields (gt: g transposed, read when the boxes are square).

    Every pair of top rows (r1, r2: two rows of one band, of any two bands when a band
    is one row) in every orientation is a root of the search. On a 9x9 grid the class
    of each pair (`PAIR_ORDER`) says how small its row 2 can be, so only the pairs of
    the best class are searched (and pairs of no known class, in a grid whose boxes
    repeat a digit).
    """
    cdef int n = cx.n
    cdef int br = cx.br
    cdef int i, t, b, r1, r2, lo, hi, c, count = 0, least = 0
    cdef bint classic = n == 9 and br == 3 and cx.bc == 3
    cdef const uint8_t *grid
    cdef uint8_t inv[MAXN + 1]
    cdef uint8_t f[MAXN]
    for i in range(n):
        cx.stack_of[i] = <uint8_t>(i // cx.bc)
    cx.have_best = False
    cx.found = 0
    for t in range(2 if br == cx.bc else 1):
        grid = gt if t else g
        for b in range(cx.nbands):
            for r1 in range(b * br, b * br + br):
                if br > 1:
                    lo, hi = b * br, b * br + br
                else:
                    lo, hi = 0, n
                for r2 in range(lo, hi):
                    if r2 == r1:
                        continue
                    cx.roots[count].t = <uint8_t>t
                    cx.roots[count].r1 = <uint8_t>r1
                    cx.roots[count].r2 = <uint8_t>r2
                    cx.roots[count].rank = 0
                    if classic:
                        for c in range(9):
                            inv[grid[r1 * 9 + c]] = <uint8_t>c
                        for c in range(9):
                            f[c] = inv[grid[r2 * 9 + c]]
                        cx.roots[count].rank = PAIR_ORDER[PAIR_CLASS[lehmer9(f)]]
                        if cx.roots[count].rank and (least == 0 or cx.roots[count].rank < least):
                            least = cx.roots[count].rank
                    count += 1
    # The pairs of the best class first: their strings bound the others.
    for i in range(count):
        if least and cx.roots[i].rank == least:
            t = cx.roots[i].t
            full_root(cx, t, gt if t else g, cx.roots[i].r1, cx.roots[i].r2)
            if cx.stopped or (cx.max_nodes and cx.nodes > cx.max_nodes):
                return
    for i in range(count):
        if cx.roots[i].rank == 0:
            t = cx.roots[i].t
            full_root(cx, t, gt if t else g, cx.roots[i].r1, cx.roots[i].r2)
            if cx.stopped or (cx.max_nodes and cx.nodes > cx.max_nodes):
                return


# ---------------------------------------------------------------- classes of 9x9 row pairs
#
# Rows r1, r2 of a 9x9 band give a permutation f of the columns (see full grids above)
# that sends no column into its own stack. Rearranging the columns by w turns it into
# w f w^-1, and row 2 reads that permutation (plus one, position by position), so the
# smallest row 2 a pair can have depends only on the class of f under these
# rearrangements (1296 of them: stack orders times column orders within the stacks).
# The 12,096 such permutations fall into a few classes; each permutation's class is
# found once (on first use) by listing every class's members, and ranked by the smallest
# row 2 of its members.

cdef enum:
    PERMS9 = 362880  # 9!: Lehmer codes of permutations of 9 columns

cdef uint8_t PAIR_CLASS[PERMS9]  # Lehmer code of f -> its class, from 1; 0: no band pair
cdef uint8_t PAIR_ORDER[256]  # class -> 1 + its rank by smallest row 2; 0 -> 0
cdef uint8_t POP9[512]  # the number of bits set in a 9-bit mask
cdef int PAIR_CLASSES = 0
cdef int64_t PAIR_BUILT = 0  # set (release) once the tables above are filled


cdef inline int lehmer9(const uint8_t *f) noexcept nogil:
    """The rank of the permutation f of 0..8 in lexicographic order."""
    cdef int i, index = 0
    cdef unsigned int used = 0
    for i in range(9):
        index = index * (9 - i) + f[i] - POP9[used & ((1u << f[i]) - 1)]
        used |= 1u << f[i]
    return index


cdef int column_orders(uint8_t *ws) noexcept nogil:
    """All 1296 rearrangements w of 9 columns that keep stacks whole (w[c]: the new
    place of column c), 9 bytes each; returns their count."""
    cdef int a, p0, p1, p2, s, i, count = 0
    cdef int perms[6][3]
    cdef int inner[3]
    cdef int k = 0
    for p0 in range(3):
        for p1 in range(3):
            for p2 in range(3):
                if p0 != p1 and p1 != p2 and p0 != p2:
                    perms[k][0], perms[k][1], perms[k][2] = p0, p1, p2
                    k += 1
    for a in range(6):  # input stack s goes to output stack perms[a][s]
        for p0 in range(6):
            for p1 in range(6):
                for p2 in range(6):
                    inner[0], inner[1], inner[2] = p0, p1, p2
                    for s in range(3):
                        for i in range(3):
                            ws[count * 9 + s * 3 + i] = <uint8_t>(
                                perms[a][s] * 3 + perms[inner[s]][i])
                    count += 1
    return count


cdef void mark_class(const uint8_t *f, const uint8_t *ws, int nw, uint8_t label,
                     uint8_t *least) noexcept nogil:
    """Label every rearrangement of f with `label`; the smallest of them into `least`."""
    cdef int k, c
    cdef uint8_t h[9]
    cdef const uint8_t *w
    for k in range(nw):
        w = ws + 9 * k
        for c in range(9):
            h[w[c]] = w[f[c]]
        PAIR_CLASS[lehmer9(h)] = label
        if k == 0 or memcmp(h, least, 9) < 0:
            memcpy(least, h, 9)


cdef int visit_pairs(uint8_t *f, int c, unsigned int used, const uint8_t *ws, int nw,
                     uint8_t *leasts, int classes) noexcept nogil:
    """Give column c..8 of f every image outside its own stack; mark the class of each
    complete f met for the first time. Returns the number of classes so far."""
    cdef unsigned int open_digits = ~used & ~(7u << (3 * (c // 3))) & 0x1FF
    cdef int d
    if c == 9:
        if PAIR_CLASS[lehmer9(f)] == 0:
            mark_class(f, ws, nw, <uint8_t>(classes + 1), leasts + 9 * classes)
            classes += 1
        return classes
    while open_digits:
        d = bits_lowest_index(open_digits)
        open_digits &= open_digits - 1
        f[c] = <uint8_t>d
        classes = visit_pairs(f, c + 1, used | (1u << d), ws, nw, leasts, classes)
    return classes


cdef int build_pair_ranks() except -1:
    """Fill PAIR_CLASS and PAIR_ORDER, once: on the first call that meets a full 9x9
    grid (about 10^7 instructions, so an import does not pay for it). Built under a
    lock; PAIR_BUILT is published after the tables, so a thread that reads it set
    (acquire) sees them complete."""
    global PAIR_CLASSES
    cdef uint8_t *ws
    cdef uint8_t leasts[9 * 255]
    cdef uint8_t f[9]
    cdef int nw, classes, i, k
    with _pair_lock:
        if sudoku_fast_published(&PAIR_BUILT):
            return 0
        ws = <uint8_t *>malloc(1296 * 9)
        if ws == NULL:
            raise MemoryError()
        nw = column_orders(ws)
        classes = visit_pairs(f, 0, 0, ws, nw, leasts, 0)
        free(ws)
        # PAIR_ORDER[label]: 1 + the number of classes whose smallest row 2 is smaller
        PAIR_ORDER[0] = 0
        for i in range(classes):
            PAIR_ORDER[i + 1] = 1
            for k in range(classes):
                if memcmp(leasts + 9 * k, leasts + 9 * i, 9) < 0:
                    PAIR_ORDER[i + 1] += 1
        PAIR_CLASSES = classes
        sudoku_fast_publish(&PAIR_BUILT, 1)
    return 0


_pair_lock = threading.Lock()


cdef void fill_pop9() noexcept nogil:
    cdef int i
    for i in range(512):
        POP9[i] = POP9[i >> 1] + (i & 1)


fill_pop9()  # at import (512 steps); read only afterwards


def pair_classes():
    """The number of classes of 9x9 band row pairs (for tests)."""
    build_pair_ranks()
    return PAIR_CLASSES


def pair_rank(const uint8_t[::1] f):
    """The rank of the class of a permutation f of 0..8 (for tests): 1 for the class
    with the smallest row 2, ..., 0 when f sends a column into its own stack."""
    cdef int i
    cdef unsigned int seen = 0
    for i in range(f.shape[0]):
        if f[i] > 8:
            break
        seen |= 1u << f[i]
    if f.shape[0] != 9 or seen != 0x1FF:
        raise ValueError("f must be a permutation of 0..8")
    build_pair_ranks()
    return PAIR_ORDER[PAIR_CLASS[lehmer9(&f[0])]]


# ---------------------------------------------------------------- 9x9 puzzles
#
# The search above, for 9x9 grids with 3x3 boxes, on small fixed-size states and with
# every row image packed in an integer: 4 bits per cell, the first cell highest, a digit
# not yet numbered written 15 (NEW9). Comparing two images is comparing two integers:
# two images first differ where one has a number and the other a larger number or a new
# digit, or where both have numbers, and the new digits before that place, as many in
# both, take the same numbers, so new digits compare right as 15 whatever number they
# will take. The search also runs level by level instead of depth-first: all the
# arrangements whose rows so far equal the smallest string's are kept together (the
# frontier), the next row of each is computed, and only those giving the smallest row
# of them all go on. So no branch is followed deeper than the canonical form reaches,
# and no string is found that a later branch beats (depth-first, a kaggle puzzle's search
# reached the last row three to four times).

cdef inline void exchange(uint64_t *a, uint64_t *b, bint inside) noexcept nogil:
    """Put the smaller of *a, *b first if `inside` (they share a cell); no branch: the
    outcome is as good as random, and a mispredicted branch costs more than the work."""
    cdef uint64_t lo = a[0] if a[0] < b[0] else b[0]
    cdef uint64_t hi = b[0] if a[0] < b[0] else a[0]
    a[0] = lo if inside else a[0]
    b[0] = hi if inside else b[0]


cdef inline uint64_t stack_key(const P9 *s, const uint8_t *row, int q) noexcept nogil:
    """The smallest image of input stack q's three cells of `row` (12 bits)."""
    cdef uint64_t a = s.sym[row[s.col[3 * q]]]
    cdef uint64_t b = s.sym[row[s.col[3 * q + 1]]]
    cdef uint64_t c = s.sym[row[s.col[3 * q + 2]]]
    cdef unsigned int cut = s.colcut >> (3 * q)
    # A sorting network, each exchange only inside a cell.
    exchange(&a, &b, not (cut & 2))
    exchange(&b, &c, not (cut & 4))
    exchange(&a, &b, not (cut & 2))
    return a << 8 | b << 4 | c


cdef inline uint64_t row_key9(const P9 *s, const uint8_t *row) noexcept nogil:
    """The smallest image of `row` under the arrangements state s still allows (36 bits)."""
    cdef uint64_t x = stack_key(s, row, s.stk[0])
    cdef uint64_t y = stack_key(s, row, s.stk[1])
    cdef uint64_t z = stack_key(s, row, s.stk[2])
    exchange(&x, &y, not (s.stkcut & 2))
    exchange(&y, &z, not (s.stkcut & 4))
    exchange(&x, &y, not (s.stkcut & 2))
    return x << 24 | y << 12 | z


cdef inline bint has_new(uint64_t key12) noexcept nogil:
    return (key12 & 0xF00) == 0xF00 or (key12 & 0xF0) == 0xF0 or (key12 & 0xF) == 0xF


cdef P9 *push9(Ctx *cx) noexcept nogil:
    """A new state at the end of the next frontier (NULL, and cx.nomem, if out of memory)."""
    cdef P9 *grown
    cdef Py_ssize_t cap
    if cx.n_next == cx.cap_next:
        cap = 2 * cx.cap_next
        grown = <P9 *>realloc(cx.next9, cap * sizeof(P9))
        if grown == NULL:
            cx.nomem = True
            return NULL
        cx.next9 = grown
        cx.cap_next = cap
    cx.n_next += 1
    return &cx.next9[cx.n_next - 1]


cdef bint swap_is_symmetry9(Ctx *cx, const P9 *s, const uint8_t *row, int kind, int base,
                            int a, int b) noexcept nogil:
    """`swap_is_symmetry` for a 9x9 state: whether swapping tie members a and b (with
    the new digits they hold in `row`) maps every row not yet placed onto itself."""
    cdef int k, c, r2, ca, cb, qa, qb
    cdef uint8_t tau[9]
    cdef uint8_t sigma[10]
    cdef const uint8_t *line
    for c in range(9):
        tau[c] = <uint8_t>c
    for c in range(10):
        sigma[c] = <uint8_t>c
    if kind == 1:
        ca = s.col[base + a]
        cb = s.col[base + b]
        tau[ca] = <uint8_t>cb
        tau[cb] = <uint8_t>ca
        sigma[row[ca]] = row[cb]
        sigma[row[cb]] = row[ca]
    else:
        qa = s.stk[a]
        qb = s.stk[b]
        if (s.colcut >> (3 * qa) & 7) != (s.colcut >> (3 * qb) & 7):
            return False
        for k in range(3):
            ca = s.col[3 * qa + k]
            cb = s.col[3 * qb + k]
            tau[ca] = <uint8_t>cb
            tau[cb] = <uint8_t>ca
            if row[ca] != row[cb]:
                sigma[row[ca]] = row[cb]
                sigma[row[cb]] = row[ca]
    for r2 in range(9):
        if s.used_rows >> r2 & 1:
            continue
        line = cx.g9[s.t] + 9 * r2
        for c in range(9):
            if sigma[line[tau[c]]] != line[c]:
                return False
    return True


cdef void descend9(Ctx *cx, const P9 *parent, int r, int level) noexcept nogil:
    """Fix input row r as output row `level`: refine the arrangements by its values
    (cells hold at most three, so each is sorted by a three-exchange network that only
    exchanges inside a cell), then let `settle9` branch on ties of new digits, number
    them and add the states to the next frontier (the 9x9 `descend`)."""
    cdef P9 s = parent[0]
    cdef const uint8_t *row = cx.g9[s.t] + 9 * r
    cdef int q, base
    cdef unsigned int cut
    cdef uint8_t v0, v1, v2, c0, c1, c2, w, x, m
    cdef uint8_t vals[9]
    cdef uint64_t key[3]
    cdef bint fresh = False
    # Columns: sort each cell of each stack by the row's values, cut where they differ.
    for q in range(3):
        base = 3 * q
        cut = s.colcut >> base
        c0 = s.col[base]
        c1 = s.col[base + 1]
        c2 = s.col[base + 2]
        v0 = parent.sym[row[c0]]
        v1 = parent.sym[row[c1]]
        v2 = parent.sym[row[c2]]
        # The network of `stack_key`, moving the columns along, without branches.
        m = -<uint8_t>(not (cut & 2) and v0 > v1)
        w = (v0 ^ v1) & m; v0 ^= w; v1 ^= w
        x = (c0 ^ c1) & m; c0 ^= x; c1 ^= x
        m = -<uint8_t>(not (cut & 4) and v1 > v2)
        w = (v1 ^ v2) & m; v1 ^= w; v2 ^= w
        x = (c1 ^ c2) & m; c1 ^= x; c2 ^= x
        m = -<uint8_t>(not (cut & 2) and v0 > v1)
        w = (v0 ^ v1) & m; v0 ^= w; v1 ^= w
        x = (c0 ^ c1) & m; c0 ^= x; c1 ^= x
        s.col[base] = c0
        s.col[base + 1] = c1
        s.col[base + 2] = c2
        vals[base] = v0
        vals[base + 1] = v1
        vals[base + 2] = v2
        s.colcut |= ((not (cut & 2) and v0 != v1) << 1 | (not (cut & 4) and v1 != v2) << 2) << base
        key[q] = (<uint64_t>v0) << 8 | (<uint64_t>v1) << 4 | v2
        fresh = fresh or v0 == NEW9 or v1 == NEW9 or v2 == NEW9
    # Stacks: sort each stack cell by the stacks' images, cut where they differ.
    cut = s.stkcut
    c0 = s.stk[0]
    c1 = s.stk[1]
    c2 = s.stk[2]
    if not (cut & 2) and key[c0] > key[c1]:
        x = c0; c0 = c1; c1 = x
    if not (cut & 4) and key[c1] > key[c2]:
        x = c1; c1 = c2; c2 = x
    if not (cut & 2) and key[c0] > key[c1]:
        x = c0; c0 = c1; c1 = x
    s.stk[0] = c0
    s.stk[1] = c1
    s.stk[2] = c2
    if not (cut & 2) and key[c0] != key[c1]:
        s.stkcut |= 2
    if not (cut & 4) and key[c1] != key[c2]:
        s.stkcut |= 4
    settle9(cx, &s, row, r, level, vals, key, fresh)


cdef void settle9(Ctx *cx, P9 *s, const uint8_t *row, int r, int level, const uint8_t *vals,
                  const uint64_t *key, bint fresh) noexcept nogil:
    """State s arranged for row r (`vals`: the row's values, column by column of s.col;
    `key`: each input stack's image): branch on the first tie of new digits left, each
    member in turn first and alone in its cell (unless a symmetry of the rest of the
    grid swaps it with one tried before); with no tie left, number the new digits in
    output order and add the state to the next frontier."""
    cdef P9 child
    cdef P9 *slot
    cdef int q, j, k, m, t, base
    cdef int tie_kind = 0, tie_start = 0, tie_end = 0, tie_base = 0
    cdef unsigned int ties
    cdef uint8_t x, is_new
    cx.nodes += 1
    if cx.max_nodes and cx.nodes > cx.max_nodes:
        return
    if cx.stopped or (cx.nodes % POLL_EVERY == 0 and poll(cx.stop)):
        cx.stopped = True
        return
    if fresh:
        # A tie: two neighbours of one cell left uncut (so equal), both new digits.
        ties = 0
        for k in range(9):
            ties |= (vals[k] == NEW9) << k
        ties &= ~s.colcut & 0x1FF
        if ties:
            k = bits_lowest_index(ties)
            tie_kind, tie_base, tie_start, tie_end = 1, k - k % 3, k % 3 - 1, k % 3 + 1
            if k % 3 == 1 and not (s.colcut >> (k + 1) & 1):
                tie_end = 3
        else:
            for j in range(1, 3):
                if not (s.stkcut >> j & 1) and has_new(key[s.stk[j]]):
                    tie_kind, tie_start = 2, j - 1
                    tie_end = 3 if j == 1 and not (s.stkcut & 4) else j + 1
                    break
    if tie_kind:
        for m in range(tie_start, tie_end):
            for t in range(tie_start, m):
                if swap_is_symmetry9(cx, s, row, tie_kind, tie_base, t, m):
                    break
            else:
                t = -1
            if t >= 0:
                continue
            child = s[0]
            if tie_kind == 1:
                x = child.col[tie_base + m]
                for t in range(m, tie_start, -1):
                    child.col[tie_base + t] = child.col[tie_base + t - 1]
                child.col[tie_base + tie_start] = x
                child.colcut |= 1 << (tie_base + tie_start + 1)
            else:
                x = child.stk[m]
                for t in range(m, tie_start, -1):
                    child.stk[t] = child.stk[t - 1]
                child.stk[tie_start] = x
                child.stkcut |= 1 << (tie_start + 1)
            settle9(cx, &child, row, r, level, vals, key, fresh)
        return
    slot = push9(cx)
    if slot == NULL:
        return
    slot[0] = s[0]
    if fresh:
        # Number the new digits in output order (sym[0] = 0: an empty cell never is new).
        for j in range(3):
            base = 3 * slot.stk[j]
            for k in range(3):
                x = row[slot.col[base + k]]
                is_new = slot.sym[x] == NEW9
                slot.sym[x] = slot.nextlab if is_new else slot.sym[x]
                slot.nextlab += is_new
    slot.rows[level] = <uint8_t>r
    slot.used_rows |= 1 << r
    if level % 3 == 0:
        slot.band = <uint8_t>(r // 3)
        slot.used_bands |= 1 << slot.band


cdef inline unsigned int lowest_bit(unsigned int x) noexcept nogil:
    return x & (~x + 1)


cdef inline uint64_t first_key9(const uint8_t *counts) noexcept nogil:
    """`row_key9` of a row in a state with nothing numbered or arranged yet: each stack
    reads its empty cells, then its clues (all new), and the stacks go fewest clues
    first, so the image is fixed by the three clue counts."""
    cdef uint64_t a = ((<uint64_t>1) << (4 * counts[0])) - 1
    cdef uint64_t b = ((<uint64_t>1) << (4 * counts[1])) - 1
    cdef uint64_t c = ((<uint64_t>1) << (4 * counts[2])) - 1
    exchange(&a, &b, True)
    exchange(&b, &c, True)
    exchange(&a, &b, True)
    return a << 24 | b << 12 | c


cdef bint puzzle9(Ctx *cx, const uint8_t *g, const uint8_t *gt) noexcept nogil:
    """The canonical form of the 9x9 grid g (not full; `look9` has run) into cx.best,
    its group element into the leaf fields; False when out of memory (cx.nomem),
    stopped or out of budget."""
    cdef int t, r, b, i, k, level, count
    cdef bint empty_band_seen
    cdef uint64_t least, key
    cdef const uint8_t *row
    cdef P9 *s
    cdef P9 *swap
    cdef Cand9 *grown
    cdef Py_ssize_t cap
    cdef unsigned int rows, open_rows, full_rows
    cdef unsigned int nonempty[2]  # bit r: row r of the grid (transposed) has a clue
    cx.g9[0] = g
    cx.g9[1] = gt
    for t in range(2):
        nonempty[t] = 0
        for r in range(9):
            if cx.count9[t][r][0] | cx.count9[t][r][1] | cx.count9[t][r][2]:
                nonempty[t] |= 1u << r
    cx.n_next = 0
    for t in range(2):
        s = push9(cx)
        if s == NULL:
            return False
        memset(s, 0, sizeof(P9))
        for i in range(1, 10):
            s.sym[i] = NEW9
        for i in range(9):
            s.col[i] = <uint8_t>i
        for i in range(3):
            s.stk[i] = <uint8_t>i
        s.colcut = 1 | 1 << 3 | 1 << 6
        s.stkcut = 1
        s.nextlab = 1
        s.t = <uint8_t>t
    for level in range(9):
        # The next frontier becomes this one.
        swap = cx.front9
        cx.front9 = cx.next9
        cx.next9 = swap
        cap = cx.cap_front
        cx.cap_front = cx.cap_next
        cx.cap_next = cap
        cx.n_front = cx.n_next
        cx.n_next = 0
        if 9 * cx.n_front > cx.cap_cand:
            cap = 9 * cx.n_front
            grown = <Cand9 *>realloc(cx.cand9, cap * sizeof(Cand9))
            if grown == NULL:
                cx.nomem = True
                return False
            cx.cand9 = grown
            cx.cap_cand = cap
        # Every state's candidates for the next row: the rows left in its band, or in
        # every band left; of interchangeable empty rows and bands, the first only.
        count = 0
        for i in range(cx.n_front):
            s = &cx.front9[i]
            full_rows = nonempty[s.t]
            if level % 3:
                open_rows = 7u << (3 * s.band) & ~s.used_rows
                rows = (open_rows & full_rows) | lowest_bit(open_rows & ~full_rows)
            else:
                rows = 0
                empty_band_seen = False
                for b in range(3):
                    if s.used_bands >> b & 1:
                        continue
                    open_rows = 7u << (3 * b)
                    if not (open_rows & full_rows):
                        if empty_band_seen:
                            continue
                        empty_band_seen = True
                    rows |= (open_rows & full_rows) | lowest_bit(open_rows & ~full_rows)
            while rows:
                cx.cand9[count].state = i
                cx.cand9[count].row = bits_lowest_index(rows)
                count += 1
                rows &= rows - 1
        # ... and the smallest image of them all (no need to look when there is one).
        least = 0
        if count > 1:
            least = ~(<uint64_t>0)
            for i in range(count):
                s = &cx.front9[cx.cand9[i].state]
                r = cx.cand9[i].row
                if level == 0:
                    key = first_key9(cx.count9[s.t][r])
                else:
                    key = row_key9(s, cx.g9[s.t] + 9 * r)
                cx.cand9[i].key = key
                if key < least:
                    least = key
        else:
            cx.cand9[0].key = 0
        for i in range(count):
            if cx.cand9[i].key == least:
                descend9(cx, &cx.front9[cx.cand9[i].state], cx.cand9[i].row, level)
                if cx.nomem or cx.stopped or (cx.max_nodes and cx.nodes > cx.max_nodes):
                    return False
    # The string, as any of the final states arranges and numbers it (a later row only
    # reorders columns an earlier row holds equal values in, so the final arrangement
    # gives every row the image it was chosen for).
    s = &cx.next9[0]
    cx.leaf_t = s.t
    memcpy(cx.leaf_rows, s.rows, 9)
    for i in range(3):
        for k in range(3):
            cx.leaf_cols[3 * i + k] = s.col[3 * s.stk[i] + k]
    for level in range(9):
        row = cx.g9[s.t] + 9 * s.rows[level]
        for i in range(9):
            cx.best[9 * level + i] = s.sym[row[cx.leaf_cols[i]]]
    cx.leaf_lab[0] = 0
    for i in range(1, 10):
        cx.leaf_lab[i] = 0 if s.sym[i] == NEW9 else s.sym[i]
    return True


cdef void puzzle_search(Ctx *cx, const uint8_t *g, const uint8_t *gt) noexcept nogil:
    """The canonical form of g (not full) into cx.best, its group element into the leaf
    fields (gt: g transposed, read when the boxes are square).

    With square boxes both orientations are searched, the one with the smaller first
    row first: the other's search then ends at its first row, bounded by the best
    string found. (Searched the other way round, the orientation that cannot hold the
    canonical form would be searched to the end with no bound: a 25x25 puzzle took
    over 10^6 steps written one way and 10^4 the other.)
    """
    cdef int n = cx.n
    cdef bint transposed_first = False
    cdef uint8_t row_g[MAXN]
    cdef uint8_t row_gt[MAXN]
    if cx.br == cx.bc and n > 9:  # at 9x9 and below every search is short: the look costs more (14%)
        least_first_row(cx, g, row_g)
        least_first_row(cx, gt, row_gt)
        transposed_first = memcmp(row_gt, row_g, n) < 0
    if transposed_first:
        cx.transposed = 1
        orient(cx, gt)
        cx.transposed = 0
        orient(cx, g)
    else:
        cx.transposed = 0
        orient(cx, g)
        if cx.br == cx.bc:
            cx.transposed = 1
            orient(cx, gt)


cdef bint look9(Ctx *cx, const uint8_t *g, uint8_t *gt) noexcept nogil:
    """One pass over a 9x9 grid: its transpose into gt, the clues of every row of both
    orientations by stack (cx.count9), their number (cx.clues9); False when a digit
    repeats in a row or column. Branch-free in the cell loop: whether a cell holds a
    clue is as good as random, and a mispredicted branch costs more than the work."""
    cdef int r, c, q
    cdef unsigned int v, bit, clue, repeated = 0, clues = 0
    cdef unsigned int in_row[9]
    cdef unsigned int in_col[9]
    cdef unsigned int row_clues[9]  # bit c: cell (r, c) holds a clue
    cdef unsigned int col_clues[9]  # bit r: the same, column by column
    memset(in_row, 0, sizeof(in_row))
    memset(in_col, 0, sizeof(in_col))
    memset(row_clues, 0, sizeof(row_clues))
    memset(col_clues, 0, sizeof(col_clues))
    for r in range(9):
        for c in range(9):
            v = g[9 * r + c]
            gt[9 * c + r] = <uint8_t>v
            bit = (1u << v) & ~1u  # nothing for an empty cell
            repeated |= (in_row[r] | in_col[c]) & bit
            in_row[r] |= bit
            in_col[c] |= bit
            clue = v != 0
            row_clues[r] |= clue << c
            col_clues[c] |= clue << r
    if repeated:
        return False
    for r in range(9):
        for q in range(3):
            cx.count9[0][r][q] = POP9[row_clues[r] >> (3 * q) & 7]
            cx.count9[1][r][q] = POP9[col_clues[r] >> (3 * q) & 7]
        clues += POP9[row_clues[r]]
    cx.clues9 = clues
    return True


cdef int canonical_one(Ctx *cx, const uint8_t *g, uint8_t *gt, uint8_t *out,
                       uint8_t *move) noexcept nogil:
    """The canonical form of g into out (n*n values), its group element into move.

    Returns C_REPEAT, with nothing written, when a digit repeats in a row or column;
    else C_OK, and the caller looks at cx.nomem, cx.stopped and the node budget.
    """
    cdef int n = cx.n
    cdef int i, j, d, free_label
    cx.best_rows = 0
    cx.nodes = 0
    if n == 9 and cx.br == 3:
        if not look9(cx, g, gt):
            return C_REPEAT
        if cx.clues9 == 81:
            full_search(cx, g, gt)
        elif not puzzle9(cx, g, gt):
            return C_OK
    else:
        if has_repeat(g, n):
            return C_REPEAT
        if cx.br == cx.bc:
            for i in range(n):
                for j in range(n):
                    gt[i * n + j] = g[j * n + i]
        if n > 1 and is_full(g, n * n):
            full_search(cx, g, gt)
        else:
            puzzle_search(cx, g, gt)
    memcpy(out, cx.best, n * n)
    if move != NULL:
        move[0] = <uint8_t>cx.leaf_t
        memcpy(move + 1, cx.leaf_rows, n)
        memcpy(move + 1 + n, cx.leaf_cols, n)
        # Digits absent from the grid take the numbers left, in increasing order.
        free_label = 1
        for d in range(1, n + 1):
            if cx.leaf_lab[d] >= free_label:
                free_label = cx.leaf_lab[d] + 1
        move[1 + 2 * n] = 0
        for d in range(1, n + 1):
            if cx.leaf_lab[d]:
                move[1 + 2 * n + d] = cx.leaf_lab[d]
            else:
                move[1 + 2 * n + d] = <uint8_t>free_label
                free_label += 1
    return C_OK


def move_size(int size):
    """Bytes of one group element: transposed flag, n rows, n columns, n+1 digit labels."""
    return 3 * size + 2


def canonical_range(
    const uint8_t[::1] grids,
    int size,
    int box_rows,
    int box_cols,
    uint8_t[::1] out,
    uint8_t[::1] status,
    uint8_t[::1] moves,
    Py_ssize_t start,
    Py_ssize_t stop,
    int64_t max_nodes=0,
    stop_flag=None,
):
    """Canonical forms of grids start..stop-1 (n*n values each, 0 = empty) into `out`.

    `status[i]` becomes STATUS_OK, or STATUS_REPEAT for a grid with a digit twice in a
    row or column, or STATUS_BUDGET for one whose search took more than `max_nodes`
    steps (0: no budget), or STATUS_MEMORY for one whose search could not get the
    memory it needed; their `out` rows are left as zeros. With a non-empty `moves` buffer, one
    group element per grid (`move_size(size)` bytes: see `transform_range`) that maps
    the grid to its canonical form is written too. The GIL is released for the range;
    the search polls `stop_flag` (a byte another thread sets) and, in the main thread,
    Ctrl-C, which stops the range (a KeyboardInterrupt is raised here).
    """
    cdef Stop stop_state
    cdef const unsigned char *flag = NULL
    cdef const uint8_t[::1] flag_view
    cdef bint main_thread = threading.current_thread() is threading.main_thread()
    cdef int n = size
    cdef Py_ssize_t cells = n * n, i
    cdef int stride = 3 * n + 2
    cdef bint want_moves = moves.shape[0] > 0
    cdef Ctx *cx
    cdef uint8_t *gt
    if n < 1 or n > MAXN or box_rows < 1 or box_cols < 1 or box_rows * box_cols != n:
        raise ValueError(f"unsupported geometry {size}x{size} with {box_rows}x{box_cols} boxes")
    if start < 0 or stop < start or grids.shape[0] < stop * cells or out.shape[0] < stop * cells:
        raise ValueError("grid range out of bounds")
    if status.shape[0] < stop or (want_moves and moves.shape[0] < stop * stride):
        raise ValueError("status or moves buffer too small")
    if n == 9 and box_rows == 3 and not sudoku_fast_published(&PAIR_BUILT):
        for i in range(start, stop):
            if memchr(&grids[i * cells], 0, cells) == NULL:
                build_pair_ranks()
                break
    cx = <Ctx *>malloc(sizeof(Ctx))
    gt = <uint8_t *>malloc(cells)
    if cx != NULL:
        cx.best = <uint8_t *>malloc(cells)
        cx.cand = <uint8_t *>malloc(cells * n)
        cx.cap_front = cx.cap_next = FRONTIER
        cx.cap_cand = 9 * FRONTIER
        cx.front9 = <P9 *>malloc(cx.cap_front * sizeof(P9))
        cx.next9 = <P9 *>malloc(cx.cap_next * sizeof(P9))
        cx.cand9 = <Cand9 *>malloc(cx.cap_cand * sizeof(Cand9))
    if (cx == NULL or gt == NULL or cx.best == NULL or cx.cand == NULL or cx.front9 == NULL
            or cx.next9 == NULL or cx.cand9 == NULL):
        free_ctx(cx)
        free(gt)
        raise MemoryError()
    cx.n = n
    cx.br = box_rows
    cx.bc = box_cols
    cx.nbands = n // box_rows
    cx.nstacks = n // box_cols
    cx.max_nodes = max_nodes
    if stop_flag is not None:
        flag_view = stop_flag
        flag = &flag_view[0]
    stop_init(&stop_state, flag, main_thread)
    cx.stop = &stop_state
    cx.stopped = False
    cx.nomem = False
    with nogil:
        for i in range(start, stop):
            if cx.stopped:
                status[i] = C_BUDGET
                memset(&out[i * cells], 0, cells)
                continue
            status[i] = canonical_one(cx, &grids[i * cells], gt, &out[i * cells],
                                      &moves[i * stride] if want_moves else NULL)
            if status[i] == C_REPEAT:
                memset(&out[i * cells], 0, cells)
            elif cx.nomem:
                cx.nomem = False
                status[i] = C_MEMORY
                memset(&out[i * cells], 0, cells)
            elif (cx.max_nodes and cx.nodes > cx.max_nodes) or cx.stopped:
                status[i] = C_BUDGET
                memset(&out[i * cells], 0, cells)
    free_ctx(cx)
    free(gt)
    raise_saved(&stop_state)


cdef void free_ctx(Ctx *cx) noexcept:
    if cx != NULL:
        free(cx.best)
        free(cx.cand)
        free(cx.front9)
        free(cx.next9)
        free(cx.cand9)
        free(cx)


def texts_range(
    const uint8_t[::1] values,
    int cells,
    const uint8_t[::1] symbols,
    const uint8_t[::1] status,
    list out,
    Py_ssize_t start,
    Py_ssize_t stop,
):
    """Write grids start..stop-1 (`cells` values each) as strings into out[start:stop]:
    value v becomes the character symbols[v] (`symbols`: 256 ASCII bytes), a grid whose
    status is not STATUS_OK becomes None.

    Lets each worker thread make the strings of the chunk it has just finished, instead
    of one serial pass after the whole batch.
    """
    cdef Py_ssize_t i, k
    cdef str text
    cdef Py_UCS1 *chars
    cdef const uint8_t *grid
    if symbols.shape[0] != 256:
        raise ValueError("symbols must map all 256 byte values")
    for k in range(256):
        if symbols[k] > 127:
            raise ValueError("symbols must be ASCII")
    if (not 0 <= start <= stop <= len(out) or values.shape[0] < stop * cells
            or status.shape[0] < stop):
        raise ValueError("range outside the batch")
    for i in range(start, stop):
        if status[i] != C_OK:
            out[i] = None
            continue
        grid = &values[i * cells]
        text = PyUnicode_New(cells, 127)
        chars = PyUnicode_1BYTE_DATA(text)
        for k in range(cells):
            chars[k] = symbols[grid[k]]
        out[i] = text


def transform_range(
    const uint8_t[::1] grids,
    int size,
    const uint8_t[::1] moves,
    uint8_t[::1] out,
    Py_ssize_t start,
    Py_ssize_t stop,
):
    """Apply one group element per grid: grids start..stop-1 into `out`.

    A group element is `move_size(size)` bytes: [0] 1 to transpose first; [1:1+n] the
    input row of each output row; [1+n:1+2n] the input column of each output column;
    [1+2n:2+3n] the new value of each value 0..n (value 0, empty, stays 0). Output cell
    (i, j) is label[t(grid)[rows[i]][cols[j]]]. The caller checks that every element is
    a group element. The GIL is released for the range.
    """
    cdef int n = size
    cdef Py_ssize_t cells = n * n, p
    cdef int stride = 3 * n + 2
    if n < 1 or n > MAXN:
        raise ValueError(f"unsupported size {size}")
    if (start < 0 or stop < start or grids.shape[0] < stop * cells
            or out.shape[0] < stop * cells or moves.shape[0] < stop * stride):
        raise ValueError("grid range out of bounds")
    with nogil:
        for p in range(start, stop):
            apply_move(&grids[p * cells], &moves[p * stride], &out[p * cells], n)


cdef void apply_move(const uint8_t *g, const uint8_t *m, uint8_t *o, int n) noexcept nogil:
    """o = the image of grid g under group element m (see `transform_range`)."""
    cdef int i, j, src
    for i in range(n):
        for j in range(n):
            if m[0]:
                src = m[1 + n + j] * n + m[1 + i]
            else:
                src = m[1 + i] * n + m[1 + n + j]
            o[i * n + j] = m[1 + 2 * n + g[src]]


cdef void random_move(Rng *rng, int n, int br, int bc, int32_t *scratch,
                      uint8_t *move) noexcept nogil:
    """A uniformly drawn group element: row order, column order, labels, transposition.

    The same draws as the generator's random image of a full grid, which transposes
    last; transposing first instead swaps the roles of the two orders.
    """
    cdef int32_t *rows = scratch
    cdef int32_t *cols = scratch + n
    cdef int32_t *labels = scratch + 2 * n
    cdef int32_t *groups = scratch + 3 * n
    cdef int k
    cdef bint t
    line_order(rng, rows, groups, br, n // br)
    line_order(rng, cols, groups, bc, n // bc)
    identity(labels, n, 1)
    shuffle(rng, labels, n)
    t = br == bc and below(rng, 2) == 1
    move[0] = t
    for k in range(n):
        move[1 + k] = <uint8_t>(cols[k] if t else rows[k])
        move[1 + n + k] = <uint8_t>(rows[k] if t else cols[k])
        move[2 + 2 * n + k] = <uint8_t>labels[k]
    move[1 + 2 * n] = 0


def random_transform_range(
    const uint8_t[::1] grids,
    int size,
    int box_rows,
    int box_cols,
    const uint64_t[::1] seeds,
    uint8_t[::1] out,
    Py_ssize_t start,
    Py_ssize_t stop,
):
    """Grids start..stop-1, each moved by a group element drawn from seeds[i], into `out`.

    The GIL is released for the range.
    """
    cdef int n = size
    cdef Py_ssize_t cells = n * n, p
    cdef Rng rng
    cdef int32_t scratch[4 * MAXN]
    cdef uint8_t move[3 * MAXN + 2]
    if n < 1 or n > MAXN or box_rows < 1 or box_cols < 1 or box_rows * box_cols != n:
        raise ValueError(f"unsupported geometry {size}x{size} with {box_rows}x{box_cols} boxes")
    if (start < 0 or stop < start or grids.shape[0] < stop * cells
            or out.shape[0] < stop * cells or seeds.shape[0] < stop):
        raise ValueError("grid range out of bounds")
    with nogil:
        for p in range(start, stop):
            rng_seed(&rng, seeds[p])
            random_move(&rng, n, box_rows, box_cols, scratch, move)
            apply_move(&grids[p * cells], move, &out[p * cells], n)


# --------------------------------------------------------------------- variant groups
# The givens of a variant puzzle under each cell permutation of a list (its rules'
# preserved group, see `variant.py`): the smallest image, and which permutations give it.

FREEDOM_ALL = 0
FREEDOM_REVERSE = 1
FREEDOM_NONE = 2


cdef int image_compare(
    const uint8_t *values, const uint16_t *perm, Py_ssize_t cells, int n, int mode,
    const uint8_t *best, bint have_best, uint8_t *out,
) noexcept nogil:
    """Write the givens arranged by `perm` into `out` (mode 0: labelled by first
    appearance; 1: each digit d written n+1-d; 2: as they are) and compare with `best`:
    -1 smaller (or no best), 0 equal, 1 larger (`out` then left unfinished)."""
    cdef uint8_t labels[256]
    cdef uint8_t given = 0, value, label
    cdef Py_ssize_t k
    cdef int state = -1 if not have_best else 0
    if mode == 0:
        memset(labels, 0, sizeof(labels))
    for k in range(cells):
        value = values[perm[k]]
        label = 0
        if value:
            if mode == 0:
                label = labels[value]
                if not label:
                    given += 1
                    label = labels[value] = given
            elif mode == 1:
                label = <uint8_t>(n + 1 - value)
            else:
                label = value
        if state == 0:
            if label > best[k]:
                return 1
            if label < best[k]:
                state = -1
        out[k] = label
    return state


def smallest_images(
    const uint8_t[::1] values, const uint16_t[::1] perms, int size, str freedom
):
    """The smallest image of the givens `values` (N*N, 0 empty) over the cell
    permutations `perms` (their concatenation: output cell k of permutation g takes
    input cell perms[g * N*N + k]), and the indices of the permutations giving it.

    `freedom` (see `variant.digit_freedom`): "all" labels the digits by first appearance
    (the smallest relabelling), "reverse" takes the smaller of the givens and of their
    reversal d -> N+1-d, "none" the givens as they are. Returns (image bytes, indices
    ascending). The GIL is released for the scan.
    """
    cdef Py_ssize_t cells = values.shape[0], count, g, k
    cdef int mode, variant, variants, state, i
    cdef uint8_t *best
    cdef uint8_t *work
    cdef bint have = False
    cdef int32_t *ties
    cdef Py_ssize_t nties = 0
    if freedom == "all":
        mode = 0
    elif freedom == "reverse":
        mode = 1
    elif freedom == "none":
        mode = 2
    else:
        raise ValueError(f"freedom must be 'all', 'reverse' or 'none', not {freedom!r}")
    if cells != <Py_ssize_t>size * size or cells == 0 or perms.shape[0] % cells:
        raise ValueError("values and permutations do not match the grid size")
    count = perms.shape[0] // cells
    if count == 0:
        raise ValueError("no permutations")
    for k in range(cells):
        if values[k] > size:
            raise ValueError(f"value {values[k]} beyond the grid size {size}")
    for k in range(perms.shape[0]):
        if perms[k] >= cells:
            raise ValueError(f"permutation entry {perms[k]} is not a cell")
    variants = 2 if mode == 1 else 1
    best = <uint8_t *>malloc(cells)
    work = <uint8_t *>malloc(cells)
    ties = <int32_t *>malloc(count * sizeof(int32_t))
    if best == NULL or work == NULL or ties == NULL:
        free(best)
        free(work)
        free(ties)
        raise MemoryError()
    with nogil:
        for g in range(count):
            for variant in range(variants):
                # "reverse": the givens as they are (mode 2), then reversed (mode 1).
                state = image_compare(
                    &values[0], &perms[g * cells], cells, size,
                    (2 if variant == 0 else 1) if mode == 1 else mode,
                    best, have, work,
                )
                if state < 0:
                    memcpy(best, work, cells)
                    have = True
                    ties[0] = <int32_t>g
                    nties = 1
                elif state == 0 and ties[nties - 1] != g:
                    ties[nties] = <int32_t>g
                    nties += 1
    try:
        return bytes(best[:cells]), [ties[i] for i in range(nties)]
    finally:
        free(best)
        free(work)
        free(ties)
