# cython: language_level=3
# Every other directive is set once for all modules in setup.py.
"""Difficulty on the Sudoku Explainer scale, compiled: the fast twin of `se.py`.

`se.py` documents the technique ladder, the difficulties and the chain rules; this
module does exactly the same steps in exactly the same order on the compiled technique
solver's state (`_logic.Solver`, whose finders it reuses), so that both twins give the
same score, hardest technique and step count (a differential test holds them to it).

Chains are walks over nodes `((cell * N + digit - 1) << 1) | on`; a walk keeps its
reached nodes in a queue and their depths in a stamped array. A whole rating runs
without the GIL on its own workspace, so any number of threads may rate at once.
"""

from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memset

from sudoku_fast._bits cimport bits_lowest_index, bits_popcount
from sudoku_fast._logic cimport (
    HIDDEN_PAIR, HIDDEN_QUAD, HIDDEN_TRIPLE, JELLYFISH, NAKED_PAIR, NAKED_QUAD,
    NAKED_TRIPLE, SWORDFISH, X_WING,
    LogicTables, Solver, Tables, apply_step, find_full_house, find_hidden_single,
    find_naked_single, find_xy_wing, find_xyz_wing, fish, hidden_subset, naked_subset,
    place, solver_free, solver_init, solver_load,
)

# Technique ids: the order of se.TECHNIQUES.
cdef enum:
    T_FULL_HOUSE = 0
    T_HIDDEN_BOX = 1
    T_HIDDEN_LINE = 2
    T_DIRECT_POINTING = 3
    T_DIRECT_CLAIMING = 4
    T_NAKED_SINGLE = 5
    T_POINTING = 6
    T_CLAIMING = 7
    T_X_CHAIN = 19
    T_Y_CHAIN = 20
    T_FORCING = 21
    T_REGION = 22
    T_CELL = 23
    T_DYNAMIC = 24
    T_BEYOND = 25
    T_COUNT = 26

cdef enum:
    UNIT_LINKS = 1
    CELL_LINKS = 2
    DYNAMIC_LINKS = 4

cdef enum:
    SE_OK = 0
    SE_BUDGET = 1
    SE_STUCK = 2
    SE_CONTRADICTION = -1
    SE_NO_MEMORY = -2

cdef enum:
    NO_RANK = 1 << 30
    OUT_SLOTS = 4  # score (tenths), hardest technique, steps, status

cdef int BASE[T_COUNT]
BASE[:] = [10, 12, 15, 17, 19, 23, 26, 28, 30, 32, 34, 36, 38, 40, 42, 44, 50, 52, 54,
           65, 65, 70, 82, 83, 85, 100]

TECHNIQUES = T_COUNT
SLOTS = OUT_SLOTS


cdef struct Walk:
    int32_t *depth    # [nodes], valid where mark == stamp
    int32_t *mark
    int32_t stamp
    int32_t *queue    # reached nodes in order
    int len


cdef struct Work:
    Solver s
    int n
    int cells
    int nodes
    int64_t work
    int64_t budget
    Walk a
    Walk b
    int32_t *left_cell     # dynamic walks: candidates not yet removed, per cell
    int32_t *left_cell_mark
    int32_t *left_unit     # ... per (unit, digit)
    int32_t *left_unit_mark
    int32_t left_stamp
    int32_t *implied       # nodes implied by one node
    int32_t *best_tenths   # [nodes] conclusions of a chain step: rank per node
    int32_t *best_tech
    int32_t *acc_count     # [nodes] cell / region forcing: walks reaching the node
    int32_t *acc_sum
    int32_t *acc_mark
    int32_t acc_stamp
    int32_t *elim_mark     # [cells] direct locked candidates
    int32_t elim_stamp
    int32_t *elim_direct   # [N] cells of a locked-candidates pattern's eliminations
    int32_t *elim_plain
    int ndirect
    int nplain
    int digit_direct
    int digit_plain
    int64_t *store_start   # [cells * N] ON walk of each candidate in `store` (-1 none)
    int32_t *store_len
    int32_t *store         # (node, depth) pairs
    int64_t store_used
    int64_t store_cap
    int last_tech


cdef inline int length_tenths(int length) noexcept nogil:
    cdef int added = 0, ceiling = 4
    cdef bint odd = False
    while length > ceiling:
        added += 1
        ceiling = ceiling * 4 // 3 if odd else ceiling * 3 // 2
        odd = not odd
    return added


cdef bint work_init(Work *w, const Tables *t) noexcept nogil:
    memset(w, 0, sizeof(Work))
    if not solver_init(&w.s, t):
        return False
    w.n = t.n
    w.cells = t.cells
    w.nodes = t.cells * t.n * 2
    cdef int nodes = w.nodes
    w.a.depth = <int32_t *>malloc(nodes * sizeof(int32_t))
    w.a.mark = <int32_t *>malloc(nodes * sizeof(int32_t))
    w.a.queue = <int32_t *>malloc(nodes * sizeof(int32_t))
    w.b.depth = <int32_t *>malloc(nodes * sizeof(int32_t))
    w.b.mark = <int32_t *>malloc(nodes * sizeof(int32_t))
    w.b.queue = <int32_t *>malloc(nodes * sizeof(int32_t))
    w.left_cell = <int32_t *>malloc(t.cells * sizeof(int32_t))
    w.left_cell_mark = <int32_t *>malloc(t.cells * sizeof(int32_t))
    w.left_unit = <int32_t *>malloc(3 * t.n * t.n * sizeof(int32_t))
    w.left_unit_mark = <int32_t *>malloc(3 * t.n * t.n * sizeof(int32_t))
    w.implied = <int32_t *>malloc((2 * t.n + t.npeers + 8) * sizeof(int32_t))
    w.best_tenths = <int32_t *>malloc(nodes * sizeof(int32_t))
    w.best_tech = <int32_t *>malloc(nodes * sizeof(int32_t))
    w.acc_count = <int32_t *>malloc(nodes * sizeof(int32_t))
    w.acc_sum = <int32_t *>malloc(nodes * sizeof(int32_t))
    w.acc_mark = <int32_t *>malloc(nodes * sizeof(int32_t))
    w.elim_mark = <int32_t *>malloc(t.cells * sizeof(int32_t))
    w.elim_direct = <int32_t *>malloc(t.n * sizeof(int32_t))
    w.elim_plain = <int32_t *>malloc(t.n * sizeof(int32_t))
    w.store_start = <int64_t *>malloc(t.cells * t.n * sizeof(int64_t))
    w.store_len = <int32_t *>malloc(t.cells * t.n * sizeof(int32_t))
    w.store_cap = 4 * nodes
    w.store = <int32_t *>malloc(2 * w.store_cap * sizeof(int32_t))
    if (
        not w.a.depth or not w.a.mark or not w.a.queue or not w.b.depth or not w.b.mark
        or not w.b.queue or not w.left_cell or not w.left_cell_mark or not w.left_unit
        or not w.left_unit_mark or not w.implied or not w.best_tenths or not w.best_tech
        or not w.acc_count or not w.acc_sum or not w.acc_mark or not w.elim_mark
        or not w.elim_direct or not w.elim_plain or not w.store_start or not w.store_len
        or not w.store
    ):
        return False
    return True


cdef void work_free(Work *w) noexcept nogil:
    solver_free(&w.s)
    free(w.a.depth)
    free(w.a.mark)
    free(w.a.queue)
    free(w.b.depth)
    free(w.b.mark)
    free(w.b.queue)
    free(w.left_cell)
    free(w.left_cell_mark)
    free(w.left_unit)
    free(w.left_unit_mark)
    free(w.implied)
    free(w.best_tenths)
    free(w.best_tech)
    free(w.acc_count)
    free(w.acc_sum)
    free(w.acc_mark)
    free(w.elim_mark)
    free(w.elim_direct)
    free(w.elim_plain)
    free(w.store_start)
    free(w.store_len)
    free(w.store)
    memset(w, 0, sizeof(Work))


cdef void work_reset_marks(Work *w) noexcept nogil:
    """Clear every stamp (once per puzzle, so stamps never wrap)."""
    memset(w.a.mark, 0, w.nodes * sizeof(int32_t))
    memset(w.b.mark, 0, w.nodes * sizeof(int32_t))
    memset(w.acc_mark, 0, w.nodes * sizeof(int32_t))
    memset(w.left_cell_mark, 0, w.cells * sizeof(int32_t))
    memset(w.left_unit_mark, 0, 3 * w.n * w.n * sizeof(int32_t))
    memset(w.elim_mark, 0, w.cells * sizeof(int32_t))
    w.a.stamp = 0
    w.b.stamp = 0
    w.acc_stamp = 0
    w.elim_stamp = 0
    w.left_stamp = 0


cdef inline void remove_one(Solver *s, int cell, int digit) noexcept nogil:
    s.step.nplace = 0
    s.step.nelim = 1
    s.step.elim_cell[0] = cell
    s.step.elim_digit[0] = digit
    apply_step(s)


# ---------------------------------------------------------------------------------------
# Easy techniques


cdef bint leaves_hidden_single(Work *w, const int32_t *cells, int count, int digit) noexcept nogil:
    """After removing `digit` from `cells`, has one of their units one place left?"""
    cdef Solver *s = &w.s
    cdef const Tables *t = s.t
    cdef int n = w.n
    cdef int k, j, i, u, cell, places
    cdef uint64_t bit = (<uint64_t>1) << (digit - 1)
    w.elim_stamp += 1
    for k in range(count):
        w.elim_mark[cells[k]] = w.elim_stamp
    for k in range(count):
        for j in range(3):
            u = t.cell_units[3 * cells[k] + j]
            places = 0
            for i in range(n):
                cell = t.units[u * n + i]
                if s.cand[cell] & bit and w.elim_mark[cell] != w.elim_stamp:
                    places += 1
            if places == 1:
                return True
    return False


cdef int locked(Work *w) noexcept nogil:
    """se._Rater.locked: the technique id found (-1 none); eliminations in elim_direct
    (direct ones) or elim_plain."""
    cdef Solver *s = &w.s
    cdef const Tables *t = s.t
    cdef int n = w.n
    cdef int claiming, u, digit, k, other, i, count, cell
    cdef uint64_t where, inside, outside, bit
    cdef int plain = -1
    for claiming in range(2):
        for u in range(0 if claiming else 2 * n, 2 * n if claiming else 3 * n):
            for digit in range(1, n + 1):
                where = s.pos[u * n + digit - 1]
                if not (where & (where - 1)):
                    continue
                bit = (<uint64_t>1) << (digit - 1)
                for k in range(t.cross_start[u], t.cross_start[u + 1]):
                    inside = t.cross_line_mask[k] if claiming else t.cross_box_mask[k]
                    outside = t.cross_box_mask[k] if claiming else t.cross_line_mask[k]
                    if where & ~inside:
                        continue
                    other = t.cross_unit[k]
                    count = 0
                    for i in range(n):
                        cell = t.units[other * n + i]
                        if not ((outside >> i) & 1) and s.cand[cell] & bit:
                            w.elim_direct[count] = cell
                            count += 1
                    if not count:
                        continue
                    if leaves_hidden_single(w, w.elim_direct, count, digit):
                        w.ndirect = count
                        w.digit_direct = digit
                        return T_DIRECT_CLAIMING if claiming else T_DIRECT_POINTING
                    if plain < 0:
                        plain = T_CLAIMING if claiming else T_POINTING
                        for i in range(count):
                            w.elim_plain[i] = w.elim_direct[i]
                        w.nplain = count
                        w.digit_plain = digit
    return plain


cdef int easy_step(Work *w) noexcept nogil:
    """se._Rater.easy_step: apply the easiest step below chains; its id, or -1."""
    cdef Solver *s = &w.s
    cdef const Tables *t = s.t
    cdef int n = w.n
    cdef int tech, k, cell, digit, box
    cdef uint64_t where
    if find_full_house(s):
        apply_step(s)
        return T_FULL_HOUSE
    if find_hidden_single(s):
        cell = s.step.place_cell
        digit = s.step.place_digit
        box = t.cell_units[3 * cell + 2]
        where = s.pos[box * n + digit - 1]
        tech = T_HIDDEN_BOX if where and not (where & (where - 1)) else T_HIDDEN_LINE
        apply_step(s)
        return tech
    tech = locked(w)
    if tech == T_DIRECT_POINTING or tech == T_DIRECT_CLAIMING:
        for k in range(w.ndirect):
            remove_one(s, w.elim_direct[k], w.digit_direct)
        return tech
    if find_naked_single(s):
        apply_step(s)
        return T_NAKED_SINGLE
    if tech >= 0:
        for k in range(w.nplain):
            remove_one(s, w.elim_plain[k], w.digit_plain)
        return tech
    if naked_subset(s, 2, NAKED_PAIR):
        tech = 8
    elif fish(s, 2, X_WING):
        tech = 9
    elif hidden_subset(s, 2, HIDDEN_PAIR):
        tech = 10
    elif naked_subset(s, 3, NAKED_TRIPLE):
        tech = 11
    elif fish(s, 3, SWORDFISH):
        tech = 12
    elif hidden_subset(s, 3, HIDDEN_TRIPLE):
        tech = 13
    elif find_xy_wing(s):
        tech = 14
    elif find_xyz_wing(s):
        tech = 15
    elif naked_subset(s, 4, NAKED_QUAD):
        tech = 16
    elif fish(s, 4, JELLYFISH):
        tech = 17
    elif hidden_subset(s, 4, HIDDEN_QUAD):
        tech = 18
    else:
        return -1
    apply_step(s)
    return tech


# ---------------------------------------------------------------------------------------
# Chains


cdef int walk(Work *w, Walk *wk, int cell, int digit, bint on, int mode) noexcept nogil:
    """se._Rater.walk: fills wk (queue = reached nodes, depths); the length of the first
    contradiction met, or -1."""
    cdef Solver *s = &w.s
    cdef const Tables *t = s.t
    cdef int n = w.n
    cdef bint dynamic = (mode & DYNAMIC_LINKS) != 0
    cdef int head = 0, node, d0, c, cell_now, dig, e, k, j, i, u, m, left, nimp
    cdef int32_t *implied = w.implied
    cdef uint64_t bit, rest, cc, where
    cdef int32_t stamp, left_stamp
    wk.stamp += 1
    stamp = wk.stamp
    w.left_stamp += 1
    left_stamp = w.left_stamp
    cdef int start = ((cell * n + digit - 1) << 1) | (1 if on else 0)
    wk.depth[start] = 0
    wk.mark[start] = stamp
    wk.queue[0] = start
    wk.len = 1
    while head < wk.len:
        node = wk.queue[head]
        head += 1
        w.work += 1
        d0 = wk.depth[node]
        c = node >> 1
        cell_now = c // n
        dig = c - cell_now * n
        bit = (<uint64_t>1) << dig
        nimp = 0
        if node & 1:
            if mode & CELL_LINKS:
                rest = s.cand[cell_now] & ~bit
                while rest:
                    e = bits_lowest_index(rest)
                    rest &= rest - 1
                    implied[nimp] = (cell_now * n + e) << 1
                    nimp += 1
            for k in range(t.npeers):
                j = t.peers[cell_now * t.npeers + k]
                if s.cand[j] & bit:
                    implied[nimp] = (j * n + dig) << 1
                    nimp += 1
        else:
            if mode & CELL_LINKS:
                cc = s.cand[cell_now]
                if dynamic:
                    if w.left_cell_mark[cell_now] != left_stamp:
                        w.left_cell_mark[cell_now] = left_stamp
                        w.left_cell[cell_now] = bits_popcount(cc)
                    w.left_cell[cell_now] -= 1
                    left = w.left_cell[cell_now]
                    if left == 0:
                        return d0
                    if left == 1:
                        rest = cc
                        while rest:
                            e = bits_lowest_index(rest)
                            rest &= rest - 1
                            m = (cell_now * n + e) << 1
                            if wk.mark[m] != stamp:
                                implied[nimp] = m | 1
                                nimp += 1
                                break
                elif bits_popcount(cc) == 2:
                    e = bits_lowest_index(cc & ~bit)
                    implied[nimp] = ((cell_now * n + e) << 1) | 1
                    nimp += 1
            if mode & UNIT_LINKS:
                for k in range(3):
                    u = t.cell_units[3 * cell_now + k]
                    where = s.pos[u * n + dig]
                    if dynamic:
                        j = u * n + dig
                        if w.left_unit_mark[j] != left_stamp:
                            w.left_unit_mark[j] = left_stamp
                            w.left_unit[j] = bits_popcount(where)
                        w.left_unit[j] -= 1
                        left = w.left_unit[j]
                        if left == 0:
                            return d0
                        if left == 1:
                            rest = where
                            while rest:
                                i = bits_lowest_index(rest)
                                rest &= rest - 1
                                m = (t.units[u * n + i] * n + dig) << 1
                                if wk.mark[m] != stamp:
                                    implied[nimp] = m | 1
                                    nimp += 1
                                    break
                    elif bits_popcount(where) == 2:
                        rest = where
                        while rest:
                            i = bits_lowest_index(rest)
                            rest &= rest - 1
                            j = t.units[u * n + i]
                            if j != cell_now:
                                implied[nimp] = ((j * n + dig) << 1) | 1
                                nimp += 1
        for k in range(nimp):
            m = implied[k]
            if wk.mark[m] == stamp:
                continue
            if wk.mark[m ^ 1] == stamp:
                return d0 + 1 + wk.depth[m ^ 1]
            wk.mark[m] = stamp
            wk.depth[m] = d0 + 1
            wk.queue[wk.len] = m
            wk.len += 1
        if w.work > w.budget:
            return -1
    return -1


cdef inline void note(Work *w, int node, int tech, int length) noexcept nogil:
    """Keep the easiest rank (tenths, technique) of a conclusion, given as its node."""
    cdef int tenths = BASE[tech] + length_tenths(length)
    if tenths < w.best_tenths[node] or (
        tenths == w.best_tenths[node] and tech < w.best_tech[node]
    ):
        w.best_tenths[node] = tenths
        w.best_tech[node] = tech


cdef inline void note_progress(Work *w, int node, int tech, int length) noexcept nogil:
    """note() for a node that holds, if it changes the board (se._Rater.progress)."""
    cdef int c = node >> 1
    cdef int cell = c // w.n
    if (w.s.cand[cell] >> (c - cell * w.n)) & 1:
        note(w, node, tech, length)


cdef bint store_walk(Work *w, int index, const Walk *wk) noexcept nogil:
    cdef int k
    cdef int32_t *grown
    if w.store_used + wk.len > w.store_cap:
        while w.store_used + wk.len > w.store_cap:
            w.store_cap *= 2
        grown = <int32_t *>realloc(w.store, 2 * w.store_cap * sizeof(int32_t))
        if not grown:
            return False
        w.store = grown
    w.store_start[index] = w.store_used
    w.store_len[index] = wk.len
    for k in range(wk.len):
        w.store[2 * (w.store_used + k)] = wk.queue[k]
        w.store[2 * (w.store_used + k) + 1] = wk.depth[wk.queue[k]]
    w.store_used += wk.len
    return True


cdef void multi(Work *w, const int32_t *indices, int k, int tech) noexcept nogil:
    """Nodes reached (past their start) by the ON walks of every candidate index given."""
    cdef int g, i, node, d
    cdef int64_t base
    cdef int32_t stamp
    w.acc_stamp += 1
    stamp = w.acc_stamp
    for g in range(k):
        base = w.store_start[indices[g]]
        for i in range(w.store_len[indices[g]]):
            node = w.store[2 * (base + i)]
            d = w.store[2 * (base + i) + 1]
            if d == 0:
                continue
            if g == 0:
                w.acc_mark[node] = stamp
                w.acc_count[node] = 1
                w.acc_sum[node] = d
            elif w.acc_mark[node] == stamp and w.acc_count[node] == g:
                w.acc_count[node] = g + 1
                w.acc_sum[node] += d
    base = w.store_start[indices[0]]
    for i in range(w.store_len[indices[0]]):
        node = w.store[2 * (base + i)]
        if w.acc_mark[node] == stamp and w.acc_count[node] == k:
            note_progress(w, node, tech, w.acc_sum[node])


cdef int chain_stage(Work *w, int mode, int tech) noexcept nogil:
    """se._Rater.chain_stage: 0 done, 1 budget spent, -1 no memory."""
    cdef Solver *s = &w.s
    cdef const Tables *t = s.t
    cdef int n = w.n
    cdef int cell, dig, on_clash, off_clash, i, node, u, k, index
    cdef uint64_t c, where
    cdef bint multi_wanted = (mode & CELL_LINKS) and (mode & UNIT_LINKS)
    cdef int32_t indices[64]
    w.store_used = 0
    for cell in range(w.cells):
        c = s.cand[cell]
        for dig in range(n):
            if not ((c >> dig) & 1):
                continue
            on_clash = walk(w, &w.a, cell, dig + 1, True, mode)
            off_clash = walk(w, &w.b, cell, dig + 1, False, mode)
            if w.work > w.budget:
                return 1
            if multi_wanted and not store_walk(w, cell * n + dig, &w.a):
                return -1
            if on_clash >= 0:
                note(w, (cell * n + dig) << 1, tech, on_clash)
            if off_clash >= 0:
                note(w, ((cell * n + dig) << 1) | 1, tech, off_clash)
            if on_clash < 0 and off_clash < 0:
                for i in range(w.a.len):
                    node = w.a.queue[i]
                    if w.b.mark[node] == w.b.stamp and (node >> 1) != cell * n + dig:
                        note_progress(w, node, tech, w.a.depth[node] + w.b.depth[node])
    if multi_wanted:
        for cell in range(w.cells):
            c = s.cand[cell]
            if bits_popcount(c) >= 3:
                k = 0
                while c:
                    indices[k] = cell * n + bits_lowest_index(c)
                    k += 1
                    c &= c - 1
                multi(w, indices, k, tech if mode & DYNAMIC_LINKS else T_CELL)
        for u in range(3 * n):
            for dig in range(n):
                where = s.pos[u * n + dig]
                if bits_popcount(where) >= 3:
                    k = 0
                    while where:
                        i = bits_lowest_index(where)
                        where &= where - 1
                        indices[k] = t.units[u * n + i] * n + dig
                        k += 1
                    multi(w, indices, k, tech if mode & DYNAMIC_LINKS else T_REGION)
    return 0


cdef int chain_step(Work *w) noexcept nogil:
    """se._Rater.chain_step: the difficulty applied (tenths), -1 none or budget spent,
    -2 no memory."""
    cdef Solver *s = &w.s
    cdef int n = w.n
    cdef int stage, mode, tech, node, best, outcome, cell, digit
    cdef int modes[4]
    cdef int techs[4]
    modes[:] = [UNIT_LINKS, CELL_LINKS, UNIT_LINKS | CELL_LINKS,
                UNIT_LINKS | CELL_LINKS | DYNAMIC_LINKS]
    techs[:] = [T_X_CHAIN, T_Y_CHAIN, T_FORCING, T_DYNAMIC]
    for node in range(w.nodes):
        w.best_tenths[node] = NO_RANK
        w.best_tech[node] = 0
    best = NO_RANK
    for stage in range(4):
        if best <= BASE[techs[stage]]:
            break
        outcome = chain_stage(w, modes[stage], techs[stage])
        if outcome < 0:
            return -2
        if outcome > 0:
            return -1
        for node in range(w.nodes):
            if w.best_tenths[node] < best:
                best = w.best_tenths[node]
    if best == NO_RANK:
        return -1
    w.last_tech = T_COUNT
    for node in range(w.nodes):
        if w.best_tenths[node] == best and w.best_tech[node] < w.last_tech:
            w.last_tech = w.best_tech[node]
    for node in range(w.nodes):
        if w.best_tenths[node] != best:
            continue
        cell = (node >> 1) // n
        digit = (node >> 1) - cell * n + 1
        if node & 1:
            if not s.values[cell]:
                place(s, cell, digit)
        elif (s.cand[cell] >> (digit - 1)) & 1:
            remove_one(s, cell, digit)
    return best


# ---------------------------------------------------------------------------------------
# A whole rating


cdef void rate_loaded(Work *w, const uint8_t *solution, int32_t *out) noexcept nogil:
    """se.rate_se on the loaded puzzle: out = score, hardest, steps, status."""
    cdef Solver *s = &w.s
    cdef int score = 0, hardest = -1, steps = 0, status = SE_OK, tech, tenths, cell
    w.work = 0
    work_reset_marks(w)
    while s.open:
        tech = easy_step(w)
        if tech >= 0:
            tenths = BASE[tech]
        else:
            tenths = chain_step(w)
            if tenths == -2:
                status = SE_NO_MEMORY
                break
            if w.work > w.budget:
                status = SE_BUDGET
                break
            if tenths >= 0:
                tech = w.last_tech
            elif solution == NULL:
                status = SE_STUCK
                break
            else:
                tech = T_BEYOND
                tenths = BASE[T_BEYOND]
                cell = 0
                while s.values[cell]:
                    cell += 1
                place(s, cell, solution[cell])
        steps += 1
        if tenths > score:
            score = tenths
            hardest = tech
    out[0] = score
    out[1] = hardest
    out[2] = steps
    out[3] = status


def se_range(
    LogicTables tables,
    const uint8_t[::1] grids,
    const uint8_t[::1] solutions,
    int32_t[::1] out,
    Py_ssize_t start,
    Py_ssize_t stop,
    int64_t budget,
):
    """Rate puzzles start..stop-1 on the SE scale: out[i*SLOTS:(i+1)*SLOTS] = score in
    tenths, hardest technique id (-1 none), steps, status (0 ok, 1 budget spent, 2
    stuck without a solution, -1 clashing clues, -2 out of memory).

    `grids` holds N*N values per puzzle; `solutions` the same, or is empty (then a
    puzzle where no technique applies ends with status 2). `budget`: walk steps per
    puzzle.
    """
    cdef const Tables *t = &tables.t
    cdef Py_ssize_t cells = t.cells
    cdef Py_ssize_t i
    cdef bint with_solutions = solutions.shape[0] > 0
    cdef Work w
    if stop <= start:
        return
    if grids.shape[0] < stop * cells or (with_solutions and solutions.shape[0] < stop * cells):
        raise ValueError("grids and solutions must hold N*N values per puzzle")
    if out.shape[0] < stop * OUT_SLOTS:
        raise ValueError("out must hold SLOTS ints per puzzle")
    with nogil:
        if not work_init(&w, t):
            for i in range(start, stop):
                out[i * OUT_SLOTS + 3] = SE_NO_MEMORY
        else:
            w.budget = budget
            for i in range(start, stop):
                if solver_load(&w.s, &grids[i * cells]) != 0:
                    out[i * OUT_SLOTS] = 0
                    out[i * OUT_SLOTS + 1] = -1
                    out[i * OUT_SLOTS + 2] = 0
                    out[i * OUT_SLOTS + 3] = SE_CONTRADICTION
                    continue
                rate_loaded(
                    &w,
                    &solutions[i * cells] if with_solutions else NULL,
                    &out[i * OUT_SLOTS],
                )
        work_free(&w)
