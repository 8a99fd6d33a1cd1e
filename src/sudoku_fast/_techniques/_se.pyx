# cython: language_level=3
# Every other directive is set once for all modules in setup.py.
"""Difficulty on the Sudoku Explainer scale, compiled: the fast twin of `se.py`.

`se.py` documents the technique ladder, the difficulties and the chain rules; this
module does exactly the same steps in exactly the same order on the compiled technique
solver's state (`_logic.Solver`, whose finders it reuses), so that both twins give the
same score, hardest technique and step count (a differential test holds them to it).

Chains are walks over nodes `((cell * N + digit - 1) << 1) | on`; a walk keeps its
reached nodes in a queue and their complexities in a stamped array (dynamic walks also
keep each ON node's ancestors as a bitset over the board's candidates). Before walking,
a chain step closes the static graph of each kind of link (strongly connected
components, and the nodes each component reaches as bitsets): an assumption that cannot
reach its negation, a cycle start on no cycle, or a cell / region group whose members
reach nothing in common is not walked, as its walk could conclude nothing. A whole
rating runs without the GIL on its own workspace, so any number of threads may rate at
once.
"""

from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memset

from sudoku_fast._base.bits cimport bits_lowest_index, bits_popcount
from sudoku_fast._techniques._logic cimport (
    HIDDEN_PAIR, HIDDEN_QUAD, HIDDEN_TRIPLE, JELLYFISH, NAKED_PAIR, NAKED_QUAD,
    NAKED_TRIPLE, SWORDFISH, X_WING,
    LogicTables, Solver, Step, Tables, apply_step, find_full_house, find_hidden_single,
    find_naked_single, find_xy_wing, find_xyz_wing, fish, hidden_subset, naked_subset,
    next_combination,
    place, solver_free, solver_init, solver_load,
)

# Technique ids: the order of se.TECHNIQUES.
cdef enum:
    T_FULL_HOUSE = 0
    T_HIDDEN_BOX = 1
    T_HIDDEN_LINE = 2
    T_DIRECT_POINTING = 3
    T_DIRECT_CLAIMING = 4
    T_DIRECT_HIDDEN_PAIR = 5
    T_NAKED_SINGLE = 6
    T_DIRECT_HIDDEN_TRIPLE = 7
    T_POINTING = 8
    T_CLAIMING = 9
    T_NAKED_PAIR = 10
    T_X_WING = 11
    T_HIDDEN_PAIR = 12
    T_NAKED_TRIPLE = 13
    T_SWORDFISH = 14
    T_HIDDEN_TRIPLE = 15
    T_SKYSCRAPER = 16
    T_GROUPED_LINKS = 19
    T_XY_WING = 20
    T_XYZ_WING = 21
    T_UNIQUE_RECTANGLE = 22
    T_NAKED_QUAD = 23
    T_JELLYFISH = 24
    T_HIDDEN_QUAD = 25
    T_THREE_LINKS = 26
    T_WXYZ_WING = 27
    T_BUG = 28
    T_FOUR_LINKS = 29
    T_VWXYZ_WING = 30
    T_ALIGNED_PAIR = 31
    T_UVWXYZ_WING = 32
    T_X_CYCLE = 33
    T_Y_CYCLE = 34
    T_XY_CYCLE = 35
    T_X_CHAIN = 36
    T_FORCING = 37
    T_TUVWXYZ_WING = 38
    T_ALIGNED_TRIPLE = 39
    T_NISHIO = 40
    T_CELL = 41
    T_REGION = 42
    T_DYNAMIC = 43
    T_DYNAMIC_PLUS = 44
    T_DYNAMIC_PLUS_FC = 45
    T_DYNAMIC_PLUS_MFC = 46
    T_DYNAMIC_PLUS_DFC = 47
    T_BEYOND = 48
    T_COUNT = 49

cdef enum:
    UNIT_LINKS = 1
    CELL_LINKS = 2
    DYNAMIC_LINKS = 4
    NESTED_LINKS = 8

cdef enum:
    SE_OK = 0
    SE_BUDGET = 1
    SE_STUCK = 2
    SE_BEYOND = 3
    SE_CONTRADICTION = -1
    SE_NO_MEMORY = -2

cdef enum:
    NO_RANK = 1 << 30
    # SE's sort keys of the chain hints (se_py.SORT_KIND and after)
    DOUBLE_KIND = 1
    CELL_KIND = 5
    REGION_KIND = 6
    ABSURD_KIND = 7
    OUT_SLOTS = 4  # score (tenths), hardest technique, steps, status

# Grouped links take part in chains of up to this many strong links (see se.py).
cdef enum:
    GROUPED_MAX_LINKS = 3

# Wings of up to this many set cells take the doubly linked form (see se.py).
cdef enum:
    DOUBLY_LINKED_MAX_CELLS = 4

cdef int BASE[T_COUNT]
BASE[:] = [10, 12, 15, 17, 19, 20, 23, 25, 26, 28, 30, 32, 34, 36, 38, 40, 40, 41, 42, 43,
           42, 44, 45, 50, 52, 54, 54, 55, 56, 58, 62, 62, 66, 65, 65, 70, 66, 70, 75, 75, 75,
           80, 80, 85, 90, 95, 100, 105, 95]

TECHNIQUES = T_COUNT
SLOTS = OUT_SLOTS

cdef enum:
    # Slots of Work.sets, each a cell bitset of cwords words.
    S_MULTI = 0    # cells with two or more candidates
    S_EXC = 1      # aligned exclusion: the cells that may exclude
    S_SHARED = 2   # excluders of both cells of a pair; strong links: the start's targets;
                   # BUG: a unit's cells of three candidates or more holding a digit
    S_ONCE = 3     # cells seeing at least one / two excluders of the pair
    S_TWICE = 4
    S_AREA = 5     # aligned triples: the third cells to try with the pair
    S_GROUP = 6    # wings: the cells of the set; BUG: the cells of the one digit out of place
    S_SCRATCH = 7  # unique rectangles, type 2: the cells seeing every roof cell; BUG:
                   # the cells seeing every BUG cell
    S_COUNT = 8

# Set bits of every 9-bit mask: the candidate sets of a 9x9 grid are counted by table
# (a portable build has no popcount instruction).
cdef uint8_t POP9[512]


cdef void fill_pop9() noexcept:
    """POP9, once at import."""
    cdef int i
    POP9[0] = 0
    for i in range(1, 512):
        POP9[i] = POP9[i >> 1] + (i & 1)


fill_pop9()


cdef struct Walk:
    int32_t *count    # [nodes] complexity of each reached node, valid where mark == stamp
    int32_t *mark
    int32_t stamp
    int32_t *qpos     # [nodes] place of the node in the queue, -1 once taken from it
    int32_t *queue    # reached nodes in order
    int len
    uint64_t *anc     # [nodes * words] dynamic walks: each ON node's ancestors (and
                      # the start's); an OFF node's are its parent's and itself
    int32_t *parent   # [nodes] dynamic walks: an OFF node's one parent (-1 the start)


cdef struct RoundEntry:
    uint64_t hash
    int64_t grid_at
    int64_t pool_at
    int64_t pool_len
    int64_t hints_at
    int64_t cost           # the work its search counted
    int32_t nhints
    int32_t kind           # the round: 0 static (level 2), 1 multiple (3), 2 dynamic (4)


cdef struct Nest:
    # SE's second nesting level: a dry dynamic walk runs SE's static cycles and forcing
    # chains on its own grid (w.wgrid); their removals join it as OFF nodes. Allocated
    # at the first chain step that reaches that level.
    int32_t *par           # [nodes] static forcing chains: each node's parent (-1 source)
    int32_t *cause         # [nodes] ... and the kind of its link (NAKED_CAUSE, 0 box,
                           # 1 row, 2 column)
    int32_t *mark          # [nodes] stamps: nodes reached by the search under way
    int32_t stamp
    int32_t *list_on       # [nodes] pending ON / OFF nodes; reaches(): the DFS stack
    int32_t *list_off
    int32_t *links         # [2 * (N + npeers + 4)] one node's links: (node, cause) pairs
    int32_t *ent_node      # cycles: entries (node, parent entry, cause)
    int32_t *ent_parent
    int32_t *ent_cause
    int ent_cap
    int32_t *path_node     # [2N * (nodes + 1) + 2] a chain found, from its end back to
                           # its source (level 3: a hint's chains, -1 between them)
    int32_t *path_cause
    int32_t *cand_mark     # [cells * N] cycle removals: forward, backward stamps
    int32_t *cand_back
    int32_t *cell_mark     # [cells] stamps: the cycle's cells; the removals' first cells
    int32_t *cell_first
    int32_t *rem           # [cells * N] a cycle's removals (cell * N + digit)
    int64_t *rem_key
    # The hints of one round: records [tenths, complexity, kind, nrem, ncause, nkey,
    # removals..., (node, cause)..., key nodes...] in `pool`, their places and keys.
    int32_t *pool
    int64_t pool_len
    int64_t pool_cap
    int64_t *hint_at
    int64_t *hint_key
    int64_t *hint_tmp
    int nhints
    int64_t hint_cap
    # The nested chains of one chain step by identity (SE's FullChain: the node
    # sequence): an open-addressed table of chain ids, each chain's key and complexity.
    int32_t *ch_slot
    int64_t ch_slots
    uint64_t *ch_hash
    int64_t *ch_key_at
    int32_t *ch_key_len
    int32_t *ch_cplx
    int32_t *ch_seen
    int32_t ch_stamp
    int nchains
    int64_t ch_cap
    int32_t *ch_keys
    int64_t ch_keys_len
    int64_t ch_keys_cap
    # Walks a and b: their advanced OFF nodes and each one's nested chain, as pairs.
    int32_t *wl_pairs[2]
    int wl_len[2]
    # The stored ON walks (cell and region forcing): each node's ancestors, row by row
    # beside w.store, and each walk's advanced nodes with their chains.
    uint64_t *st_anc
    int64_t st_anc_cap
    int64_t *st_nest_at    # [cells * N]
    int32_t *st_nest_len
    int32_t *st_nest       # (node, chain) pairs
    # SE's third nesting level: up to 2N static walks kept at once (a cell's ON walks
    # by candidate in slots 0..N-1, a region's other places in N..2N-1), each node's
    # parent, cause and stamp, the nodes in the order reached.
    int32_t *mw_par        # [2N * nodes]
    int32_t *mw_cause
    int32_t *mw_mark
    int32_t *mw_order
    int32_t mw_len[128]
    int32_t mw_walk[128]   # the stamp of each slot's walk
    int32_t mw_stamp
    int32_t mw_slots[64]   # the slots of the group under way
    int64_t st_nest_used
    int64_t st_nest_cap
    uint64_t *mask         # [words] one conclusion's ancestors in one walk
    int last_nested        # the nested part of the last contradiction's complexity
    bint oom
    int32_t *peer_cause    # [cells * npeers] the unit each of w.chain_peers shares
                           # with its cell first (0 box, 1 row, 2 column)
    uint64_t *upos         # [3N * N] the grid under search: each unit's places of each
                           # digit, as bits of the unit's positions (fill_upos)
    # The hint lists of earlier rounds by grid (round_hints): many dry walks of a
    # rating share a grid, and a list depends on the grid alone. An open-addressed
    # table of entries; each entry's grid, records, places and keys in the arenas.
    int32_t *rc_slot       # [RC_SLOTS] entry index or -1; NULL: no cache
    RoundEntry *rc_entry   # [RC_ENTRIES]
    int rc_len
    uint64_t *rc_grids
    int64_t rc_grids_len
    int64_t rc_grids_cap
    int32_t *rc_pool
    int64_t rc_pool_len
    int64_t rc_pool_cap
    int64_t *rc_hints      # each entry's hint_at, then its sorted hint_key
    int64_t rc_hints_len
    int64_t rc_hints_cap
    # SE's fourth nesting level (dynamic_hints, allocated at its first search): up to
    # 2N dynamic walks kept at once (a cell's ON walks by candidate in slots 0..N-1,
    # the OFF walk of the candidate under way in slot N, a region's other places in
    # N+1..2N-1), each ON node's cause, and their own scratch, so that they leave the
    # dry walk that asked for them as it was.
    Walk *dw
    int32_t *dw_cause      # [2N * nodes]
    int dw_dwords          # the ancestor row size the walks have room for
    int dw_made            # how many of the walks are allocated
    int32_t *dw_walked     # [nodes] stamps: ON walks already counted in this search
    int32_t dw_stamp
    int32_t dw_slots[64]   # the slots of the group under way
    int32_t *dg_cell       # [cells] as w.gone_cell ... for these walks
    int32_t *dg_cell_at
    int32_t *dg_unit       # [3N * N]
    int32_t *dg_unit_at
    int32_t dg_stamp
    uint64_t *dtmp         # [dwords] a node's parents' ancestors
    uint64_t *dclash       # [dwords] the last contradiction's ancestors (both nodes')
    uint64_t *dmask        # [dwords] one chain's ancestors


cdef struct Work:
    Solver s
    int n
    int cells
    int nodes
    int words              # 64-bit words of a node bitset
    int64_t work
    int64_t budget
    Walk a
    Walk b
    uint64_t *tmp          # [words]
    # The chain hint SE applies first in this step (se._Rater.hint): its key (tenths,
    # complexity, SE's sort key, cell, digit, step, OFF, place in the walk), technique,
    # and conclusion node (-1: a cycle's removals, per cell in hint_elims).
    int32_t hint_key[8]
    int hint_tech
    int hint_node
    uint64_t *hint_elims   # [cells]
    int32_t *acc_count     # [nodes] cell / region forcing: walks reaching the node
    int32_t *acc_sum
    int32_t *acc_mark
    int32_t acc_stamp
    int32_t *elim_cell     # [cells * N] eliminations being built
    int32_t *elim_digit
    int nelim
    int32_t *keep_cell     # [cells * N] the best eliminations so far
    int32_t *keep_digit
    int nkeep
    int32_t *keep2_cell    # [cells * N] unique rectangles: the best so far
    int32_t *keep2_digit
    int nkeep2
    int ur_type            # the type (1-4) of the last rectangle() found
    int ur_best_type       # unique rectangles: the best's type and first bivalue cell
    int ur_best_start
    int32_t *plain_cell    # [N] the first plain locked candidates
    int nplain
    int digit_plain
    int32_t *links         # [8N] strong links of one digit: kind (1 row, 2 column, 4
                           # box), + 8 when grouped
    int nlinks
    uint64_t *link_cells   # [8N * 3 * cwords] each link's start, end and unit places
    int32_t *link_units    # [8N * 6] the row, column, box holding its start / end (-1)
    uint64_t *link_acc     # [2 * 5 * cwords] per chain depth: units' places, weak units
    int32_t *link_next     # [8N * 8N] per link, the links that can follow it (places
                           # apart, joined by a weak link), ascending
    int32_t *link_weak     # [8N * 8N] the weak link's unit for each of those
    int32_t *link_deg      # [8N] how many links can follow each link
    uint64_t *unit_bits    # [3N * cwords] each unit's cells
    int32_t *chain         # [4] links of a strong-link chain
    int32_t *ints          # [cells] scratch
    int32_t *ints2         # [cells] scratch
    uint64_t *removed      # [cells] BUG: candidates taken away
    uint64_t *excl         # [cells * cwords] aligned pairs / triples: excluders as cell bitsets
    int cwords
    uint64_t *peer_bits    # [cells * cwords] each cell's peers as a cell bitset
    int32_t *chain_peers   # [cells * npeers] each cell's peers in SE's walk order
    uint64_t *digit_bits   # [N * cwords] cells holding each digit as a candidate (chain_step)
    int32_t *cell_of       # [cells * N] candidate index (cell * N + digit - 1) -> cell
    uint64_t *ex_masks     # [cells] aligned triples: the excluders' candidate sets
    uint64_t *lv_seen      # [2 * N * cwords] level walks: OFF, ON nodes reached, per digit
    uint64_t *lv_cur       # [N * cwords] the level being expanded, per digit
    uint64_t *lv_next      # [N * cwords] the level it reaches
    int32_t *g_index       # [cells * N] static graph: candidate index -> its number i
    int32_t *g_cand        # [cells * N] candidate number i -> candidate index
    int32_t *g_start       # [nodes + 1] edges of node 2i (OFF) / 2i + 1 (ON), CSR
    int32_t *g_to          # [g_cap]
    int g_cap
    int32_t *g_order       # [nodes] Tarjan: discovery order (-1 unvisited)
    int32_t *g_low         # [nodes]
    int32_t *g_comp        # [nodes] strongly connected component (-1 on the stack)
    int32_t *g_size        # [nodes] each component's node count
    int32_t *g_merged      # [nodes] the component whose reach took this one's last
    int32_t *g_stack       # [nodes]
    int32_t *g_call        # [nodes] depth-first call stack: node
    int32_t *g_pos         # [nodes] ... and its next edge
    uint64_t *g_reach      # [nodes * words] nodes each component reaches
    int g_words            # words of a g_reach row
    int g_count            # candidates in the static graph
    int32_t *gone_cell     # [cells] dynamic walk: OFF nodes of each cell taken so far
    int32_t *gone_cell_at  # [cells] ... valid where equal to gone_stamp
    int32_t *gone_unit     # [3N * N] ... of each (unit, digit)
    int32_t *gone_unit_at  # [3N * N]
    int32_t gone_stamp
    uint8_t *need          # [cells * N] family 2: candidates whose ON walk a group needs
    uint8_t *negation      # [cells * N] static graph: 1 ON reaches OFF, 2 OFF reaches ON
    uint64_t *ni_bits      # [N * cwords] Nishio: each digit's cells when last walked
    uint8_t *ni_valid      # [N] ... whether those walks are kept
    int32_t *ni_on         # [cells * N] each candidate's ON walk outcome (clash or -1)
    int32_t *ni_off        # [cells * N] ... OFF walk outcome
    int64_t *ni_work       # [cells * N] ... and the walk steps both took
    int dwords             # words of a dynamic walk's ancestor set: one bit per static
                           # graph node (bit 2 * g_index + on), so as few as the board needs
    int32_t *ent_node      # cycles: the walk's entries (node, parent entry, depth)
    int32_t *ent_parent
    int32_t *ent_depth
    int ent_cap
    int32_t *cyc_mark      # [nodes] ON nodes reached by the cycle walk
    int32_t cyc_stamp
    uint64_t *fwd          # [cells] candidates a cycle cancels one way round
    uint64_t *bwd          # ... and the other way round
    int32_t *in_loop       # [cells] stamps: the cycle's cells
    int32_t loop_stamp
    int64_t *store_start   # [cells * N] ON walk of each candidate in `store` (-1 none)
    int32_t *store_len
    int32_t *store         # (node, complexity) pairs
    int64_t store_used
    int64_t store_cap
    int last_tech
    # The techniques below chains (strong links, unique loops, wings, aligned pairs and
    # triples), each set up from the board at the start of a call:
    uint64_t *sets         # [S_COUNT * cwords] cell bitsets, the S_* slots
    uint64_t *dig_peers    # [N * cwords] wings: cells seeing every cell of the set with a digit
    # Nested walks (SE's level 1): the walk's grid and one pattern's candidates
    uint64_t *wgrid        # [cells] the board less the walk's OFF nodes
    uint64_t *tmp2         # [words] the ancestors of a pattern's rule parents
    int32_t *nest_need     # [cells * N] candidates (cell * N + digit) the pattern needs gone
    int32_t *nest_elim     # [cells * N] ... and those it removes
    # SE's second nesting level (allocated when first needed), and whether it is tried
    Nest *nest
    int nesting            # 1-4: the nesting levels a chain step tries
    bint level2            # the walk under way runs the static chains when dry
    bint level3            # ... and then the static cell and region forcing chains
    bint level4            # ... or instead of both SE's plain dynamic forcing chains


cdef inline bint two_bits(uint64_t x) noexcept nogil:
    """bits_popcount(x) == 2 without counting."""
    x &= x - 1
    return x != 0 and (x & (x - 1)) == 0


cdef inline int length_tenths(int length) noexcept nogil:
    cdef int added = 0, ceiling = 4
    cdef bint odd = False
    while length > ceiling:
        added += 1
        ceiling = ceiling * 4 // 3 if odd else ceiling * 3 // 2
        odd = not odd
    return added


cdef inline int link_kinds_tenths(int kinds) noexcept nogil:
    if kinds == 1 or kinds == 2:
        return 0
    if (kinds & 4) and (kinds & 3):
        return 2
    return 1


cdef inline bint sees(const Tables *t, int a, int b) noexcept nogil:
    return a != b and (
        t.cell_units[3 * a] == t.cell_units[3 * b]
        or t.cell_units[3 * a + 1] == t.cell_units[3 * b + 1]
        or t.cell_units[3 * a + 2] == t.cell_units[3 * b + 2]
    )


cdef inline int count_bits(uint64_t x) noexcept nogil:
    """bits_popcount(x), by table for a mask of up to 9 digits."""
    return POP9[x] if x < 512 else bits_popcount(x)


cdef inline bint has_cell(const uint64_t *cells, int cell) noexcept nogil:
    """Is `cell` in the cell bitset `cells`?"""
    return (cells[cell >> 6] >> (cell & 63)) & 1


cdef inline bint sees_bits(const Work *w, int a, int b) noexcept nogil:
    """sees() read from the peer bitsets."""
    return (w.peer_bits[a * w.cwords + (b >> 6)] >> (b & 63)) & 1


cdef inline bint several(const uint64_t *cells, int cw) noexcept nogil:
    """Two or more cells in the cell bitset, without counting."""
    cdef int k
    cdef bint one = False
    for k in range(cw):
        if cells[k]:
            if one or (cells[k] & (cells[k] - 1)):
                return True
            one = True
    return False


cdef bint walk_init(Walk *wk, int nodes, int words) noexcept nogil:
    wk.count = <int32_t *>malloc(nodes * sizeof(int32_t))
    wk.mark = <int32_t *>malloc(nodes * sizeof(int32_t))
    wk.qpos = <int32_t *>malloc(nodes * sizeof(int32_t))
    wk.queue = <int32_t *>malloc(nodes * sizeof(int32_t))
    wk.anc = <uint64_t *>malloc(<size_t>nodes * words * sizeof(uint64_t))
    wk.parent = <int32_t *>malloc(nodes * sizeof(int32_t))
    return (
        wk.count != NULL and wk.mark != NULL and wk.qpos != NULL and wk.queue != NULL
        and wk.anc != NULL and wk.parent != NULL
    )


cdef void walk_free(Walk *wk) noexcept nogil:
    free(wk.count)
    free(wk.mark)
    free(wk.qpos)
    free(wk.queue)
    free(wk.anc)
    free(wk.parent)


cdef bint work_init(Work *w, const Tables *t) noexcept nogil:
    memset(w, 0, sizeof(Work))
    if not solver_init(&w.s, t):
        return False
    w.n = t.n
    w.cells = t.cells
    w.nodes = t.cells * t.n * 2
    w.words = (w.nodes + 63) // 64
    w.cwords = (t.cells + 63) // 64
    cdef int nodes = w.nodes
    cdef int cn = t.cells * t.n
    cdef int i, k, j
    if not walk_init(&w.a, nodes, w.words) or not walk_init(&w.b, nodes, w.words):
        return False
    w.tmp = <uint64_t *>malloc(w.words * sizeof(uint64_t))
    w.hint_elims = <uint64_t *>malloc(w.cells * sizeof(uint64_t))
    w.acc_count = <int32_t *>malloc(nodes * sizeof(int32_t))
    w.acc_sum = <int32_t *>malloc(nodes * sizeof(int32_t))
    w.acc_mark = <int32_t *>malloc(nodes * sizeof(int32_t))
    w.elim_cell = <int32_t *>malloc(cn * sizeof(int32_t))
    w.elim_digit = <int32_t *>malloc(cn * sizeof(int32_t))
    w.keep_cell = <int32_t *>malloc(cn * sizeof(int32_t))
    w.keep_digit = <int32_t *>malloc(cn * sizeof(int32_t))
    w.keep2_cell = <int32_t *>malloc(cn * sizeof(int32_t))
    w.keep2_digit = <int32_t *>malloc(cn * sizeof(int32_t))
    w.plain_cell = <int32_t *>malloc(t.n * sizeof(int32_t))
    w.links = <int32_t *>malloc(8 * t.n * sizeof(int32_t))
    w.link_cells = <uint64_t *>malloc(8 * t.n * 3 * w.cwords * sizeof(uint64_t))
    w.link_units = <int32_t *>malloc(8 * t.n * 6 * sizeof(int32_t))
    w.link_acc = <uint64_t *>malloc(2 * 5 * w.cwords * sizeof(uint64_t))
    w.link_next = <int32_t *>malloc(64 * t.n * t.n * sizeof(int32_t))
    w.link_weak = <int32_t *>malloc(64 * t.n * t.n * sizeof(int32_t))
    w.link_deg = <int32_t *>malloc(8 * t.n * sizeof(int32_t))
    w.unit_bits = <uint64_t *>calloc(3 * t.n * w.cwords, sizeof(uint64_t))
    w.chain = <int32_t *>malloc(8 * sizeof(int32_t))
    w.ints = <int32_t *>malloc(t.cells * sizeof(int32_t))
    w.ints2 = <int32_t *>malloc(t.cells * sizeof(int32_t))
    w.removed = <uint64_t *>malloc(t.cells * sizeof(uint64_t))
    w.excl = <uint64_t *>malloc(t.cells * w.cwords * sizeof(uint64_t))
    w.peer_bits = <uint64_t *>calloc(t.cells * w.cwords, sizeof(uint64_t))
    w.chain_peers = <int32_t *>malloc(t.cells * t.npeers * sizeof(int32_t))
    w.digit_bits = <uint64_t *>malloc(t.n * w.cwords * sizeof(uint64_t))
    w.cell_of = <int32_t *>malloc(cn * sizeof(int32_t))
    w.ex_masks = <uint64_t *>malloc(t.cells * sizeof(uint64_t))
    w.lv_seen = <uint64_t *>malloc(2 * t.n * w.cwords * sizeof(uint64_t))
    w.lv_cur = <uint64_t *>malloc(t.n * w.cwords * sizeof(uint64_t))
    w.lv_next = <uint64_t *>malloc(t.n * w.cwords * sizeof(uint64_t))
    w.g_index = <int32_t *>malloc(cn * sizeof(int32_t))
    w.g_cand = <int32_t *>malloc(cn * sizeof(int32_t))
    w.g_start = <int32_t *>malloc((nodes + 1) * sizeof(int32_t))
    w.g_cap = cn * (t.npeers + t.n + 4)
    w.g_to = <int32_t *>malloc(w.g_cap * sizeof(int32_t))
    w.g_order = <int32_t *>malloc(nodes * sizeof(int32_t))
    w.g_low = <int32_t *>malloc(nodes * sizeof(int32_t))
    w.g_comp = <int32_t *>malloc(nodes * sizeof(int32_t))
    w.g_size = <int32_t *>malloc(nodes * sizeof(int32_t))
    w.g_merged = <int32_t *>malloc(nodes * sizeof(int32_t))
    w.g_stack = <int32_t *>malloc(nodes * sizeof(int32_t))
    w.g_call = <int32_t *>malloc(nodes * sizeof(int32_t))
    w.g_pos = <int32_t *>malloc(nodes * sizeof(int32_t))
    w.g_reach = <uint64_t *>malloc(<size_t>nodes * w.words * sizeof(uint64_t))
    w.need = <uint8_t *>malloc(cn * sizeof(uint8_t))
    w.gone_cell = <int32_t *>malloc(t.cells * sizeof(int32_t))
    w.gone_cell_at = <int32_t *>calloc(t.cells, sizeof(int32_t))
    w.gone_unit = <int32_t *>malloc(3 * t.n * t.n * sizeof(int32_t))
    w.gone_unit_at = <int32_t *>calloc(3 * t.n * t.n, sizeof(int32_t))
    w.negation = <uint8_t *>malloc(cn * sizeof(uint8_t))
    w.ni_bits = <uint64_t *>malloc(t.n * w.cwords * sizeof(uint64_t))
    w.ni_valid = <uint8_t *>calloc(t.n, sizeof(uint8_t))
    w.ni_on = <int32_t *>malloc(cn * sizeof(int32_t))
    w.ni_off = <int32_t *>malloc(cn * sizeof(int32_t))
    w.ni_work = <int64_t *>malloc(cn * sizeof(int64_t))
    if w.cell_of:
        for i in range(cn):
            w.cell_of[i] = i // t.n
    if w.unit_bits:
        for i in range(3 * t.n):
            for k in range(t.n):
                j = t.units[i * t.n + k]
                w.unit_bits[i * w.cwords + (j >> 6)] |= (<uint64_t>1) << (j & 63)
    if w.peer_bits:
        for i in range(t.cells):
            for k in range(t.npeers):
                j = t.peers[i * t.npeers + k]
                w.peer_bits[i * w.cwords + (j >> 6)] |= (<uint64_t>1) << (j & 63)
    if w.chain_peers:
        fill_chain_peers(t, w.chain_peers)
    w.ent_cap = cn * (t.n + t.npeers + 1) + 1
    w.ent_node = <int32_t *>malloc(w.ent_cap * sizeof(int32_t))
    w.ent_parent = <int32_t *>malloc(w.ent_cap * sizeof(int32_t))
    w.ent_depth = <int32_t *>malloc(w.ent_cap * sizeof(int32_t))
    w.cyc_mark = <int32_t *>malloc(nodes * sizeof(int32_t))
    w.fwd = <uint64_t *>malloc(t.cells * sizeof(uint64_t))
    w.bwd = <uint64_t *>malloc(t.cells * sizeof(uint64_t))
    w.in_loop = <int32_t *>malloc(t.cells * sizeof(int32_t))
    w.store_start = <int64_t *>malloc(cn * sizeof(int64_t))
    w.store_len = <int32_t *>malloc(cn * sizeof(int32_t))
    w.store_cap = 4 * nodes
    w.store = <int32_t *>malloc(2 * w.store_cap * sizeof(int32_t))
    w.sets = <uint64_t *>malloc(S_COUNT * w.cwords * sizeof(uint64_t))
    w.dig_peers = <uint64_t *>malloc(t.n * w.cwords * sizeof(uint64_t))
    w.wgrid = <uint64_t *>malloc(t.cells * sizeof(uint64_t))
    w.tmp2 = <uint64_t *>malloc(w.words * sizeof(uint64_t))
    w.nest_need = <int32_t *>malloc(cn * sizeof(int32_t))
    w.nest_elim = <int32_t *>malloc(cn * sizeof(int32_t))
    w.nesting = 1
    return not (
        not w.tmp or not w.hint_elims or not w.acc_count
        or not w.acc_sum or not w.acc_mark or not w.elim_cell or not w.elim_digit
        or not w.keep_cell or not w.keep_digit or not w.keep2_cell or not w.keep2_digit
        or not w.plain_cell or not w.links or not w.link_cells or not w.link_units
        or not w.link_acc or not w.unit_bits
        or not w.link_next or not w.link_weak or not w.link_deg
        or not w.chain or not w.ints or not w.ints2 or not w.removed or not w.excl
        or not w.peer_bits or not w.chain_peers or not w.digit_bits or not w.cell_of or not w.ex_masks
        or not w.lv_seen or not w.lv_cur or not w.lv_next
        or not w.g_index or not w.g_cand or not w.g_start or not w.g_to or not w.g_order
        or not w.g_low or not w.g_comp or not w.g_size or not w.g_merged or not w.g_stack
        or not w.g_call or not w.g_pos
        or not w.g_reach or not w.need or not w.gone_cell or not w.gone_cell_at
        or not w.gone_unit or not w.gone_unit_at or not w.negation
        or not w.ni_bits or not w.ni_valid or not w.ni_on or not w.ni_off or not w.ni_work
        or not w.ent_node or not w.ent_parent or not w.ent_depth or not w.cyc_mark
        or not w.fwd or not w.bwd or not w.in_loop
        or not w.store_start or not w.store_len or not w.store
        or not w.sets or not w.dig_peers
        or not w.wgrid or not w.tmp2 or not w.nest_need or not w.nest_elim
    )


cdef void work_free(Work *w) noexcept nogil:
    nest_free(w)
    solver_free(&w.s)
    free(w.wgrid)
    free(w.tmp2)
    free(w.nest_need)
    free(w.nest_elim)
    walk_free(&w.a)
    walk_free(&w.b)
    free(w.tmp)
    free(w.hint_elims)
    free(w.acc_count)
    free(w.acc_sum)
    free(w.acc_mark)
    free(w.elim_cell)
    free(w.elim_digit)
    free(w.keep_cell)
    free(w.keep_digit)
    free(w.keep2_cell)
    free(w.keep2_digit)
    free(w.plain_cell)
    free(w.links)
    free(w.link_cells)
    free(w.link_units)
    free(w.link_acc)
    free(w.link_next)
    free(w.link_weak)
    free(w.link_deg)
    free(w.unit_bits)
    free(w.chain)
    free(w.ints)
    free(w.ints2)
    free(w.removed)
    free(w.excl)
    free(w.peer_bits)
    free(w.digit_bits)
    free(w.cell_of)
    free(w.ex_masks)
    free(w.lv_seen)
    free(w.lv_cur)
    free(w.lv_next)
    free(w.g_index)
    free(w.g_cand)
    free(w.g_start)
    free(w.g_to)
    free(w.g_order)
    free(w.g_low)
    free(w.g_comp)
    free(w.g_size)
    free(w.g_merged)
    free(w.g_stack)
    free(w.g_call)
    free(w.g_pos)
    free(w.g_reach)
    free(w.need)
    free(w.gone_cell)
    free(w.gone_cell_at)
    free(w.gone_unit)
    free(w.gone_unit_at)
    free(w.negation)
    free(w.ni_bits)
    free(w.ni_valid)
    free(w.ni_on)
    free(w.ni_off)
    free(w.ni_work)
    free(w.ent_node)
    free(w.ent_parent)
    free(w.ent_depth)
    free(w.cyc_mark)
    free(w.fwd)
    free(w.bwd)
    free(w.in_loop)
    free(w.store_start)
    free(w.store_len)
    free(w.store)
    free(w.sets)
    free(w.dig_peers)
    free(w.chain_peers)
    memset(w, 0, sizeof(Work))


cdef void work_reset_marks(Work *w) noexcept nogil:
    """Clear every stamp (once per puzzle, so stamps never wrap), and the kept
    Nishio walks."""
    memset(w.ni_valid, 0, w.n * sizeof(uint8_t))
    memset(w.gone_cell_at, 0, w.cells * sizeof(int32_t))
    memset(w.gone_unit_at, 0, 3 * w.n * w.n * sizeof(int32_t))
    w.gone_stamp = 0
    memset(w.a.mark, 0, w.nodes * sizeof(int32_t))
    memset(w.b.mark, 0, w.nodes * sizeof(int32_t))
    memset(w.acc_mark, 0, w.nodes * sizeof(int32_t))
    memset(w.cyc_mark, 0, w.nodes * sizeof(int32_t))
    memset(w.in_loop, 0, w.cells * sizeof(int32_t))
    w.cyc_stamp = 0
    w.loop_stamp = 0
    w.a.stamp = 0
    w.b.stamp = 0
    w.acc_stamp = 0


cdef inline void remove_one(Solver *s, int cell, int digit) noexcept nogil:
    if not ((s.cand[cell] >> (digit - 1)) & 1):
        return
    s.step.nplace = 0
    s.step.nelim = 1
    s.step.elim_cell[0] = cell
    s.step.elim_digit[0] = digit
    apply_step(s)


cdef inline void add_elim(Work *w, int cell, int digit) noexcept nogil:
    w.elim_cell[w.nelim] = cell
    w.elim_digit[w.nelim] = digit
    w.nelim += 1


cdef inline void add_cell_elims(Work *w, int cell, uint64_t digits) noexcept nogil:
    """add_elim for each digit (bit d - 1) of `digits`."""
    while digits:
        add_elim(w, cell, bits_lowest_index(digits) + 1)
        digits &= digits - 1


cdef inline void keep_elims(Work *w) noexcept nogil:
    cdef int i
    for i in range(w.nelim):
        w.keep_cell[i] = w.elim_cell[i]
        w.keep_digit[i] = w.elim_digit[i]
    w.nkeep = w.nelim


cdef void remove_elims(Work *w) noexcept nogil:
    cdef int i
    for i in range(w.nelim):
        remove_one(&w.s, w.elim_cell[i], w.elim_digit[i])


cdef void remove_kept(Work *w) noexcept nogil:
    cdef int i
    for i in range(w.nkeep):
        remove_one(&w.s, w.keep_cell[i], w.keep_digit[i])


# ---------------------------------------------------------------------------------------
# Easy techniques


cdef bint direct(Work *w, int u, int other, int digit) noexcept nogil:
    """se._Rater._direct."""
    cdef Solver *s = &w.s
    cdef const Tables *t = s.t
    cdef int n = w.n
    cdef int k, v
    cdef uint64_t where, inside
    for k in range(t.cross_start[other], t.cross_start[other + 1]):
        v = t.cross_unit[k]
        if v == u or v // n != u // n:
            continue
        where = s.pos[v * n + digit - 1]
        inside = t.cross_box_mask[k] if v // n == 2 else t.cross_line_mask[k]
        if bits_popcount(where) > 1 and bits_popcount(where & ~inside) == 1:
            return True
    return False


cdef int locked(Work *w) noexcept nogil:
    """se._Rater.locked: the technique id found (-1 none); direct eliminations in
    elim_*, plain ones in plain_cell / digit_plain."""
    cdef Solver *s = &w.s
    cdef const Tables *t = s.t
    cdef int n = w.n
    cdef int claiming, u, digit, k, other, i, cell
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
                    w.nelim = 0
                    for i in range(n):
                        cell = t.units[other * n + i]
                        if not ((outside >> i) & 1) and s.cand[cell] & bit:
                            add_elim(w, cell, digit)
                    if not w.nelim:
                        continue
                    if direct(w, u, other, digit):
                        return T_DIRECT_POINTING + claiming
                    if plain < 0:
                        plain = T_POINTING + claiming
                        for i in range(w.nelim):
                            w.plain_cell[i] = w.elim_cell[i]
                        w.nplain = w.nelim
                        w.digit_plain = digit
    return plain


cdef bint direct_hidden(Work *w, int k) noexcept nogil:
    """se._Rater.direct_hidden (k = 2 or 3); the eliminations in elim_*."""
    cdef Solver *s = &w.s
    cdef const Tables *t = s.t
    cdef int n = w.n
    cdef int j, u, i, d, cell, filled, ndig, e, v
    cdef int idx[3]
    cdef int32_t *digits = w.ints2
    cdef uint64_t where, keep, rest, pv
    for j in range(3 * n):
        u = j + 2 * n if j < n else (j if j < 2 * n else j - 2 * n)
        filled = 0
        for i in range(n):
            if s.cand[t.units[u * n + i]]:
                filled += 1
        if filled <= k:
            continue
        # The single left must be a digit with 2 to k + 1 places, all but one in the set.
        ndig = 0
        for d in range(n):
            i = bits_popcount(s.pos[u * n + d])
            if 2 <= i <= k + 1:
                ndig = 1
                break
        if not ndig:
            continue
        ndig = 0
        for d in range(n):
            i = bits_popcount(s.pos[u * n + d])
            if 2 <= i <= k:
                digits[ndig] = d
                ndig += 1
        if ndig < k:
            continue
        for i in range(k):
            idx[i] = i
        while True:
            where = 0
            keep = 0
            for i in range(k):
                where |= s.pos[u * n + digits[idx[i]]]
                keep |= (<uint64_t>1) << digits[idx[i]]
            if bits_popcount(where) == k:
                w.nelim = 0
                rest = where
                while rest:
                    i = bits_lowest_index(rest)
                    rest &= rest - 1
                    cell = t.units[u * n + i]
                    pv = s.cand[cell] & ~keep
                    while pv:
                        e = bits_lowest_index(pv)
                        pv &= pv - 1
                        add_elim(w, cell, e + 1)
                if w.nelim:
                    for v in range(n):
                        if not ((keep >> v) & 1):
                            pv = s.pos[u * n + v]
                            if bits_popcount(pv) > 1 and bits_popcount(pv & ~where) == 1:
                                return True
            if not next_combination(idx, k, ndig):
                break
    return False


cdef int link_ends(uint64_t where, bint box, uint64_t *ends) noexcept nogil:
    """se._Rater._link_ends (9x9): the grouped links of a unit whose digit has the 3 to
    6 places `where` (unit positions), as (start, end) masks in ends[0..2 count); the
    count (0 to 2)."""
    cdef int e, f, i, j, nb = 0, npairs = 0, line
    cdef uint64_t blade1, blade2, heart, both, m
    cdef uint64_t blades[2]
    cdef uint64_t rows[3]
    cdef uint64_t cols[3]
    cdef uint64_t pairs[3]
    if not box:
        for e in range(3):
            if not (where & (<uint64_t>0o7 << (3 * e))):
                for f in range(3):
                    if f != e:
                        blades[nb] = where & (<uint64_t>0o7 << (3 * f))
                        nb += 1
                if not blades[0] or not blades[1]:
                    return 0
                ends[0] = blades[0]
                ends[1] = blades[1]
                return 1
        return 0
    for e in range(3):
        rows[e] = <uint64_t>0o7 << (3 * e)
        cols[e] = <uint64_t>0o111 << e
    for e in range(9):
        heart = (<uint64_t>1) << e
        if where & ~(rows[e // 3] | cols[e % 3]):
            continue
        blade1 = where & cols[e % 3] & ~heart
        blade2 = where & rows[e // 3] & ~heart
        if not blade1 or not blade2:
            return 0
        if not (blade1 & (blade1 - 1)) and not (blade2 & (blade2 - 1)):
            ends[0] = blade2
            ends[1] = blade1 | heart
        elif not (blade1 & (blade1 - 1)):
            ends[0] = blade1
            ends[1] = blade2 | heart
        elif not (blade2 & (blade2 - 1)):
            ends[0] = blade2
            ends[1] = blade1 | heart
        else:
            both = where & heart
            ends[0] = blade1 | both
            ends[1] = blade2 | both
        return 1
    if bits_popcount(where) < 4:
        return 0
    for line in range(2):
        for i in range(2):
            for j in range(i + 1, 3):
                m = (rows[i] | rows[j]) if line == 0 else (cols[i] | cols[j])
                if where & ~m:
                    continue
                blade1 = where & (rows[i] if line == 0 else cols[i])
                blade2 = where & (rows[j] if line == 0 else cols[j])
                if not blade1 or not blade2:
                    return 0
                ends[0] = blade1
                ends[1] = blade2
                if bits_popcount(where) == 4 and bits_popcount(blade1) == 2:
                    # The four corners of a rectangle pair up the other way too.
                    npairs = 0
                    for f in range(3):
                        m = where & (cols[f] if line == 0 else rows[f])
                        if m:
                            if npairs < 3:
                                pairs[npairs] = m
                            npairs += 1
                    if npairs == 2 and bits_popcount(pairs[0]) == 2 and bits_popcount(pairs[1]) == 2:
                        ends[2] = pairs[0]
                        ends[3] = pairs[1]
                        return 2
                return 1
    return 0


cdef void add_link(Work *w, int u, uint64_t a, uint64_t b, uint64_t where, int kind) noexcept nogil:
    """Append the link between the unit positions `a` and `b` of unit u, both ways
    round (w.links, w.link_cells, w.link_units)."""
    cdef const Tables *t = w.s.t
    cdef int n = w.n
    cdef int cw = w.cwords
    cdef int orient, i, side, cell, k, x
    cdef uint64_t m, rest
    cdef uint64_t *dst
    for orient in range(2):
        i = w.nlinks
        w.nlinks += 1
        w.links[i] = kind
        dst = &w.link_cells[i * 3 * cw]
        for k in range(3 * cw):
            dst[k] = 0
        for side in range(3):
            m = where if side == 2 else ((a if side == orient else b))
            rest = m
            while rest:
                cell = t.units[u * n + bits_lowest_index(rest)]
                rest &= rest - 1
                dst[side * cw + (cell >> 6)] |= (<uint64_t>1) << (cell & 63)
            if side == 2:
                continue
            # The row, column and box holding every cell of the end (-1 none).
            for k in range(3):
                x = -2
                rest = m
                while rest:
                    cell = t.units[u * n + bits_lowest_index(rest)]
                    rest &= rest - 1
                    if x == -2:
                        x = t.cell_units[3 * cell + k]
                    elif x != t.cell_units[3 * cell + k]:
                        x = -1
                w.link_units[6 * i + 3 * side + k] = x


cdef inline int weak_unit(const Work *w, int i, int j) noexcept nogil:
    """se._Rater._weak_unit of the end of link i and the start of link j."""
    cdef int k, kind, u
    for k in range(3):
        kind = 1 if k == 0 else (0 if k == 1 else 2)
        u = w.link_units[6 * i + 3 + kind]
        if u >= 0 and u == w.link_units[6 * j + kind]:
            return u
    return -1


cdef void follow_links(Work *w) noexcept nogil:
    """w.link_next / link_weak / link_deg: for each link of the digit, the links that
    can follow it in a chain (no place in common, the end joined to their start by a
    weak link), in ascending order, as links_search would meet them."""
    cdef int cw = w.cwords
    cdef int cap = 8 * w.n
    cdef int i, j, u, word, deg
    cdef uint64_t clash
    cdef const uint64_t *a
    cdef const uint64_t *b
    for i in range(w.nlinks):
        deg = 0
        a = &w.link_cells[(3 * i + 2) * cw]
        for j in range(w.nlinks):
            u = weak_unit(w, i, j)
            if u < 0:
                continue
            b = &w.link_cells[(3 * j + 2) * cw]
            clash = 0
            for word in range(cw):
                clash |= a[word] & b[word]
            if clash:
                continue
            w.link_next[i * cap + deg] = j
            w.link_weak[i * cap + deg] = u
            deg += 1
        w.link_deg[i] = deg


cdef int links_search(Work *w, int k, int depth, int kinds, int best, int dig) noexcept nogil:
    """Depth-first part of strong_links: the chain's links are w.chain[0 .. depth), the
    places of the digit in their units and the cells of the weak links' units in
    link_acc[depth]; returns the best tenths over the base so far (eliminations in
    keep_*), in the order and with the ranking of se._Rater.strong_links."""
    cdef int cw = w.cwords
    cdef int cap = 8 * w.n
    cdef int j, m, u, word, extra, nk, cell, count, c
    cdef uint64_t bits, clash
    cdef const uint64_t *used = &w.link_acc[depth * 2 * cw]
    cdef const uint64_t *weak = used + cw
    cdef uint64_t *nused = &w.link_acc[(depth + 1) * 2 * cw]
    cdef uint64_t *nweak = nused + cw
    cdef const uint64_t *region
    cdef const uint64_t *start
    cdef const uint64_t *end
    cdef uint64_t *seeing = &w.sets[S_SHARED * cw]
    cdef int last = w.chain[depth - 1]
    for m in range(w.link_deg[last]):
        j = w.link_next[last * cap + m]
        u = w.link_weak[last * cap + m]
        region = &w.link_cells[(3 * j + 2) * cw]
        clash = 0
        for word in range(cw):
            clash |= region[word] & used[word]
        if clash:
            continue
        nk = kinds | w.links[j]
        extra = 3 if nk & 8 else link_kinds_tenths(nk & 7)
        if best >= 0 and extra > best:
            continue
        for word in range(cw):
            nused[word] = used[word] | region[word]
            nweak[word] = weak[word] | w.unit_bits[u * cw + word]
        w.chain[depth] = j
        if depth + 1 < k:
            best = links_search(w, k, depth + 1, nk, best, dig)
            continue
        # The chain is complete: the digit goes from the cells outside its units that
        # see every cell of both of its ends.
        start = &w.link_cells[3 * w.chain[0] * cw]
        end = &w.link_cells[(3 * j + 1) * cw]
        for word in range(cw):
            seeing[word] = w.digit_bits[dig * cw + word] & ~nused[word] & ~nweak[word]
        for c in range(2):
            for word in range(cw):
                bits = (start if c == 0 else end)[word]
                while bits:
                    cell = (word << 6) | bits_lowest_index(bits)
                    bits &= bits - 1
                    for u in range(cw):
                        seeing[u] &= w.peer_bits[cell * cw + u]
        count = 0
        for word in range(cw):
            count += bits_popcount(seeing[word])
        if count and (best < 0 or extra < best or count > w.nkeep):
            best = extra
            w.nkeep = 0
            for word in range(cw):
                bits = seeing[word]
                while bits:
                    w.keep_cell[w.nkeep] = (word << 6) | bits_lowest_index(bits)
                    w.keep_digit[w.nkeep] = dig + 1
                    w.nkeep += 1
                    bits &= bits - 1
    return best


cdef int strong_links(Work *w, int k) noexcept nogil:
    """se._Rater.strong_links: tenths over the base (-1 none); eliminations in keep_*."""
    cdef Solver *s = &w.s
    cdef const Tables *t = s.t
    cdef int n = w.n
    cdef int cw = w.cwords
    cdef int dig, u, i, j, kind, word, count, npairs, best = -1
    cdef uint64_t where
    cdef uint64_t ends[4]
    fill_digit_bits(w)
    w.nkeep = 0
    for dig in range(n):
        w.nlinks = 0
        for u in range(3 * n):
            where = s.pos[u * n + dig]
            count = bits_popcount(where)
            if count < 2 or count > 6:
                continue
            kind = 1 if u < n else (2 if u < 2 * n else 4)
            if count == 2:
                i = bits_lowest_index(where)
                j = bits_lowest_index(where & (where - 1))
                if kind == 4 and (i // 3 == j // 3 or i % 3 == j % 3):
                    continue  # a box's pair in one line is the line's link
                add_link(w, u, (<uint64_t>1) << i, (<uint64_t>1) << j, where, kind)
            elif n == 9 and k <= GROUPED_MAX_LINKS:
                npairs = link_ends(where, kind == 4, ends)
                for i in range(npairs):
                    add_link(w, u, ends[2 * i], ends[2 * i + 1], where, kind | 8)
        if w.nlinks < 2 * k:
            continue
        follow_links(w)
        for i in range(w.nlinks):
            for word in range(cw):
                w.link_acc[2 * cw + word] = w.link_cells[(3 * i + 2) * cw + word]
                w.link_acc[3 * cw + word] = 0
            w.chain[0] = i
            kind = w.links[i]
            if best >= 0 and (3 if kind & 8 else link_kinds_tenths(kind & 7)) > best:
                continue
            best = links_search(w, k, 1, kind, best, dig)
    return best


cdef bint next_small_union(
    int *idx, uint64_t *unions, int *depth, int k, int count, const int32_t *cells,
    const uint64_t *cand, uint64_t base, int most,
) noexcept nogil:
    """Step to the next set of k of the `count` cells, idx[0] < ... < idx[k - 1] in
    itertools.combinations order, whose candidates with `base` hold at most `most`
    digits (their union in unions[k - 1]); a partial set past that is dropped with every
    set that extends it. Start with depth[0] = -1; False when there are no more."""
    cdef uint64_t union
    cdef int d = depth[0]
    if d < 0:
        d = 0
        idx[0] = 0
    else:
        idx[d] += 1
    while True:
        if idx[d] > count - k + d:
            if d == 0:
                depth[0] = 0
                return False
            d -= 1
            idx[d] += 1
            continue
        union = (unions[d - 1] if d else base) | cand[cells[idx[d]]]
        if count_bits(union) > most:
            idx[d] += 1
            continue
        unions[d] = union
        if d < k - 1:
            d += 1
            idx[d] = idx[d - 1] + 1
            continue
        depth[0] = d
        return True


cdef int rectangle(Work *w, const int32_t *cells, int ncells, uint64_t ab, int base) noexcept nogil:
    """se._Rater._rectangle: tenths (-1 none), its type in w.ur_type, eliminations in
    elim_*."""
    cdef Solver *s = &w.s
    cdef const Tables *t = s.t
    cdef int n = w.n
    cdef int cw = w.cwords
    cdef int nroof = 0, i, j, r, q, u, best = -1, word, d
    cdef int32_t roof[128]
    cdef int32_t shared[3]
    cdef int nshared = 0
    cdef uint64_t x, y, extras, rest, bits
    cdef uint64_t *near = &w.sets[S_SCRATCH * cw]
    for i in range(ncells):
        if s.cand[cells[i]] != ab:
            roof[nroof] = cells[i]
            nroof += 1
    if nroof == 1:
        w.nelim = 0
        rest = ab
        while rest:
            add_elim(w, roof[0], bits_lowest_index(rest) + 1)
            rest &= rest - 1
        w.ur_type = 1
        return base
    if nroof < 2:
        return -1
    extras = 0
    for i in range(nroof):
        extras |= s.cand[roof[i]] & ~ab
    if extras and not (extras & (extras - 1)):
        # Type 2: the extra digit goes from the cells off the loop that see every roof
        # cell, ascending (the peers of the first roof cell in t.peers order).
        d = bits_lowest_index(extras)
        for word in range(cw):
            near[word] = w.peer_bits[roof[0] * cw + word] & w.digit_bits[d * cw + word]
        for i in range(1, nroof):
            for word in range(cw):
                near[word] &= w.peer_bits[roof[i] * cw + word]
        for i in range(ncells):
            near[cells[i] >> 6] &= ~((<uint64_t>1) << (cells[i] & 63))
        w.nelim = 0
        for word in range(cw):
            bits = near[word]
            while bits:
                add_elim(w, (word << 6) | bits_lowest_index(bits), d + 1)
                bits &= bits - 1
        if w.nelim:
            w.ur_type = 2
            return base
    if nroof != 2:
        return -1
    r = roof[0]
    q = roof[1]
    for d in range(3):
        i = (d + 2) % 3  # box, row, column: SE's order
        for j in range(3):
            if t.cell_units[3 * r + i] == t.cell_units[3 * q + j]:
                shared[nshared] = t.cell_units[3 * r + i]
                nshared += 1
    if extras & (extras - 1):
        best = ur_type3(w, r, q, ab, extras, shared, nshared, base)
        if best == base:
            for i in range(w.nkeep):
                w.elim_cell[i] = w.keep_cell[i]
                w.elim_digit[i] = w.keep_digit[i]
            w.nelim = w.nkeep
            w.ur_type = 3
            return best  # type 3 comes before type 4 at one difficulty
    # Type 4: a or b (a first, as SE) only in the roof cells in a unit they share.
    for j in range(2):
        x = (ab & (~ab + 1)) if j == 0 else (ab & (ab - 1))
        y = (ab & (ab - 1)) if j == 0 else (ab & (~ab + 1))
        for i in range(nshared):
            u = shared[i]
            if two_bits(s.pos[u * n + bits_lowest_index(x)]):
                w.nelim = 0
                add_elim(w, r, bits_lowest_index(y) + 1)
                add_elim(w, q, bits_lowest_index(y) + 1)
                w.ur_type = 4
                return base
    if best >= 0:
        for i in range(w.nkeep):
            w.elim_cell[i] = w.keep_cell[i]
            w.elim_digit[i] = w.keep_digit[i]
        w.nelim = w.nkeep
        w.ur_type = 3
    return best


cdef bint next_colex_union(
    int *idx, uint64_t *unions, int *depth, int k, int count, const uint64_t *masks,
    uint64_t start, int most,
) noexcept nogil:
    """Step to the next set of k >= 1 of the `count` masks in colex order (SE's
    `Permutations`: idx[0] the largest index, ascending, then idx[1] < idx[0] ...)
    whose union with `start` holds at most `most` bits (in unions[k - 1]); a partial
    set past that is dropped with every set that extends it. Start with depth[0] = -1;
    False when there are no more."""
    cdef uint64_t union
    cdef int top
    cdef int d = depth[0]
    if d < 0:
        d = 0
        idx[0] = k - 1
    else:
        idx[d] += 1
    while True:
        top = idx[d - 1] if d else count
        if idx[d] >= top:
            if d == 0:
                depth[0] = 0
                return False
            d -= 1
            idx[d] += 1
            continue
        union = (unions[d - 1] if d else start) | masks[idx[d]]
        if count_bits(union) > most:
            idx[d] += 1
            continue
        unions[d] = union
        if d < k - 1:
            d += 1
            idx[d] = k - 1 - d
            continue
        depth[0] = d
        return True


cdef int ur_type3(
    Work *w, int r, int q, uint64_t ab, uint64_t extras, const int32_t *shared,
    int nshared, int base,
) noexcept nogil:
    """se._Rater._type3: tenths (-1 none), eliminations in keep_*."""
    cdef Solver *s = &w.s
    cdef const Tables *t = s.t
    cdef int n = w.n
    cdef int best = -1, degree, i, j, k, u, i2, nitems, nrest, depth, c, d
    cdef int32_t items[64]
    cdef int32_t rest[64]
    cdef uint64_t masks[64]
    cdef uint64_t unions[64]
    cdef int idx[64]
    cdef uint64_t union, naked, hidden, cover, bits
    cdef bint missing
    for degree in range(2, n - 1):
        if best >= 0 and best <= base + degree - 2:
            break
        for i in range(nshared):
            u = shared[i]
            i2 = 0
            for j in range(n):
                if t.units[u * n + j] == q:
                    i2 = j
            if (
                degree * 2 <= s.empties[u]
                and degree >= count_bits(extras)
                and (best < 0 or best > base + degree - 1)
            ):
                nitems = 0
                for j in range(n):
                    c = t.units[u * n + j]
                    if c != r and c != q and (s.cand[c] & (s.cand[c] - 1)) != 0:
                        items[nitems] = c
                        masks[nitems] = s.cand[c]
                        nitems += 1
                depth = -1
                while next_colex_union(
                    idx, unions, &depth, degree - 1, nitems, masks, extras, degree
                ):
                    union = unions[degree - 2]
                    naked = extras & s.cand[r] & s.cand[q]
                    for j in range(degree - 1):
                        naked |= masks[idx[j]]
                    if count_bits(union) != degree or count_bits(naked) != degree:
                        continue
                    # The set's digits go from the unit's other cells (SE on a
                    # classic grid: its variants' wider reach is not used there).
                    w.nelim = 0
                    k = degree - 2  # idx runs from the largest index down
                    for j in range(n):
                        c = t.units[u * n + j]
                        if c == r or c == q:
                            continue
                        if k >= 0 and c == items[idx[k]]:
                            k -= 1
                            continue
                        add_cell_elims(w, c, s.cand[c] & union)
                    if w.nelim:
                        best = base + degree - 1
                        keep_elims(w)
                        break
            if degree * 2 < s.empties[u] and (best < 0 or best > base + degree - 2):
                nrest = 0
                for d in range(n):
                    if not (((ab | extras) >> d) & 1):
                        rest[nrest] = d
                        masks[nrest] = s.pos[u * n + d] & ~((<uint64_t>1) << i2)
                        nrest += 1
                cover = 0
                bits = ab
                while bits:
                    cover |= s.pos[u * n + bits_lowest_index(bits)] & ~((<uint64_t>1) << i2)
                    bits &= bits - 1
                depth = -1
                while True:
                    if degree == 2:
                        if depth >= 0:
                            break
                        depth = 0
                        union = cover
                        hidden = ab
                    else:
                        if not next_colex_union(
                            idx, unions, &depth, degree - 2, nrest, masks, cover, degree
                        ):
                            break
                        union = unions[degree - 3]
                        hidden = ab
                        missing = False  # a digit of the set placed in the unit
                        for j in range(degree - 2):
                            if not masks[idx[j]]:
                                missing = True
                            hidden |= (<uint64_t>1) << rest[idx[j]]
                        if missing:
                            continue
                    if count_bits(union) != degree:
                        continue
                    w.nelim = 0
                    bits = union
                    while bits:
                        j = bits_lowest_index(bits)
                        bits &= bits - 1
                        c = t.units[u * n + j]
                        if c == r or c == q:
                            continue
                        add_cell_elims(w, c, s.cand[c] & ~hidden)
                    if w.nelim:
                        best = base + degree - 2
                        keep_elims(w)
                        break
    return best


cdef bint ur_better(Work *w, int found, int start, int best) noexcept nogil:
    """Does the rectangle() just found (tenths `found`, type w.ur_type, first bivalue
    cell `start`) come before the best so far in SE's order (difficulty, type, where
    the search starts)? If so it becomes the best (eliminations in keep2_*)."""
    cdef int i
    if found < 0:
        return False
    if best >= 0 and (
        found > best
        or found == best
        and (
            w.ur_type > w.ur_best_type
            or w.ur_type == w.ur_best_type and start >= w.ur_best_start
        )
    ):
        return False
    w.ur_best_type = w.ur_type
    w.ur_best_start = start
    w.nkeep2 = w.nelim
    for i in range(w.nelim):
        w.keep2_cell[i] = w.elim_cell[i]
        w.keep2_digit[i] = w.elim_digit[i]
    return True


cdef inline int loop_tenths(int length) noexcept nogil:
    """se.loop_tenths."""
    return 5 if length >= 10 else length // 2 - 2

cdef int unique_rectangle(Work *w) noexcept nogil:
    """se._Rater.unique_rectangle: tenths (-1 none), eliminations in keep2_*; the
    first of SE's order (difficulty, type, first bivalue cell)."""
    cdef Solver *s = &w.s
    cdef const Tables *t = s.t
    cdef int n = w.n
    cdef int r1, r2, c1, c2, x, y, found, i, best = -1, b0, start
    cdef int32_t cells[4]
    cdef uint64_t common, rx, ry, column, ab
    fill_digit_bits(w)
    for r1 in range(n):
        for r2 in range(r1 + 1, n):
            for c1 in range(n):
                column = s.cand[r1 * n + c1] & s.cand[r2 * n + c1]
                if not (column & (column - 1)):
                    continue  # fewer than two digits common to the first column
                b0 = t.cell_units[3 * (r1 * n + c1) + 2]
                for c2 in range(c1 + 1, n):
                    cells[0] = r1 * n + c1
                    cells[1] = r1 * n + c2
                    cells[2] = r2 * n + c1
                    cells[3] = r2 * n + c2
                    if (b0 == t.cell_units[3 * cells[3] + 2]) or (
                        b0 != t.cell_units[3 * cells[1] + 2]
                        and b0 != t.cell_units[3 * cells[2] + 2]
                    ):
                        continue
                    common = column & s.cand[cells[1]] & s.cand[cells[3]]
                    if not (common & (common - 1)):
                        continue
                    rx = common
                    while rx:
                        x = bits_lowest_index(rx)
                        rx &= rx - 1
                        ry = rx
                        while ry:
                            y = bits_lowest_index(ry)
                            ry &= ry - 1
                            ab = ((<uint64_t>1) << x) | ((<uint64_t>1) << y)
                            found = rectangle(w, cells, 4, ab, BASE[T_UNIQUE_RECTANGLE])
                            start = w.cells
                            for i in range(4):
                                if s.cand[cells[i]] == ab and cells[i] < start:
                                    start = cells[i]
                            if ur_better(w, found, start, best):
                                best = found
                                # No later rectangle has a cell before this one's first.
                                if (
                                    best == BASE[T_UNIQUE_RECTANGLE]
                                    and w.ur_type == 1
                                    and start == cells[0]
                                ):
                                    return best
    cdef int shortest, longest, base
    cdef int32_t path[128]
    for shortest in range(6, 12, 2):
        longest = shortest if shortest < 10 else 2 * n
        base = BASE[T_UNIQUE_RECTANGLE] + loop_tenths(shortest)
        if best >= 0 and best < base:
            break
        for start in range(w.cells):
            if two_bits(s.cand[start]):
                path[0] = start
                best = extend_loop(
                    w, path, 1, shortest, longest, base, s.cand[start], -1, 2, 0, best
                )
    return best



cdef bint valid_loop(Work *w, const int32_t *path, int length) noexcept nogil:
    """se._Rater._valid_loop."""
    cdef const Tables *t = w.s.t
    cdef int32_t odd[192]
    cdef int32_t even[192]
    cdef int nodd = 0, neven = 0, i, k, j, u
    cdef bint found
    for i in range(length):
        for k in range(3):
            u = t.cell_units[3 * path[i] + k]
            if i & 1:
                for j in range(nodd):
                    if odd[j] == u:
                        return False
                odd[nodd] = u
                nodd += 1
            else:
                for j in range(neven):
                    if even[j] == u:
                        return False
                even[neven] = u
                neven += 1
    if nodd != neven:
        return False
    for i in range(nodd):
        found = False
        for j in range(neven):
            if even[j] == odd[i]:
                found = True
                break
        if not found:
            return False
    return True


cdef int extend_loop(
    Work *w, int32_t *path, int npath, int shortest, int longest, int base, uint64_t ab,
    int last_kind, int allowed, uint64_t extras, int best,
) noexcept nogil:
    """se._Rater._extend_loop, each loop found rated at once (se._Rater.unique_rectangle
    rates them in the same order): the best tenths so far, eliminations in keep2_*.

    Only the unit's cells holding both digits are looked at (the others can neither
    extend the path nor close it), and a path is dropped as soon as a cell shares a
    unit with an earlier cell of the same parity, which `valid_loop` would refuse, or
    reaches a bivalue cell before its start: every loop through that cell was found
    from it already (whether a loop is found does not depend on where it starts or
    which way it runs: the extra-candidate rule depends on its set of cells only, and a
    valid loop never takes two steps of one kind in a row, as the two cells around
    such a pair would share a unit), and a loop found again rates the same."""
    cdef Solver *s = &w.s
    cdef const Tables *t = s.t
    cdef int n = w.n
    cdef int kind, u, i, j, nxt, found
    cdef uint64_t more, where
    cdef bint in_path, extra
    cdef int cell = path[npath - 1]
    cdef int a = bits_lowest_index(ab)
    cdef int b = bits_lowest_index(ab & (ab - 1))
    for kind in range(3):
        if kind == last_kind:
            continue
        u = t.cell_units[3 * cell + kind]
        where = s.pos[u * n + a] & s.pos[u * n + b]
        while where:
            nxt = t.units[u * n + bits_lowest_index(where)]
            where &= where - 1
            if nxt == path[0] and shortest <= npath <= longest:
                if valid_loop(w, path, npath):
                    found = rectangle(w, path, npath, ab, base)
                    if ur_better(w, found, path[0], best):
                        best = found
                continue
            if npath >= longest or (s.cand[nxt] == ab and nxt < path[0]):
                continue
            in_path = False
            for j in range(npath):
                if path[j] == nxt or ((j ^ npath) & 1) == 0 and sees_bits(w, path[j], nxt):
                    in_path = True
                    break
            if in_path:
                continue
            more = extras | (s.cand[nxt] & ~ab)
            extra = not two_bits(s.cand[nxt])
            if not extra or (more & (more - 1)) == 0 or allowed > 0:
                path[npath] = nxt
                best = extend_loop(
                    w, path, npath + 1, shortest, longest, base, ab, kind, allowed - extra,
                    more, best,
                )
    return best


cdef inline int wing_tenths(int k, int biggest) noexcept nogil:
    if k >= 5:
        return 66 if k == 5 else 75
    return (55 if k == 3 else 62) + k - 2 - (biggest - 3 if biggest > 3 else 3 - biggest)


cdef void fill_dig_peers(Work *w, const int32_t *group, int k, uint64_t digits) noexcept nogil:
    """For each digit of `digits`: the cells that see every cell of the set `group`
    holding it, in that digit's row of w.dig_peers."""
    cdef Solver *s = &w.s
    cdef int cw = w.cwords
    cdef int i, word, d, c
    cdef uint64_t *seeing
    while digits:
        d = bits_lowest_index(digits)
        digits &= digits - 1
        seeing = &w.dig_peers[d * cw]
        for word in range(cw):
            seeing[word] = ~(<uint64_t>0)
        for i in range(k):
            c = group[i]
            if (s.cand[c] >> d) & 1:
                for word in range(cw):
                    seeing[word] &= w.peer_bits[c * cw + word]


cdef bint wing_removals(Work *w, const uint64_t *inside, int y, uint64_t removed) noexcept nogil:
    """se._Rater._wing_removals: what a wing with the bivalue cell y removes of each
    digit of `removed` (w.dig_peers rows filled for them), in elim_*; True if any."""
    cdef int cw = w.cwords
    cdef int word, d
    cdef uint64_t bits
    cdef uint64_t cy = w.s.cand[y]
    cdef const uint64_t *peers = &w.peer_bits[y * cw]
    w.nelim = 0
    while removed:
        d = bits_lowest_index(removed)
        removed &= removed - 1
        for word in range(cw):
            bits = w.digit_bits[d * cw + word] & w.dig_peers[d * cw + word] & ~inside[word]
            if (cy >> d) & 1:
                bits &= peers[word]  # a digit of y goes only from y's peers
            while bits:
                add_elim(w, (word << 6) | bits_lowest_index(bits), d + 1)
                bits &= bits - 1
    return w.nelim > 0


cdef inline int size_key(int size) noexcept nogil:
    """A key that orders sizes 1 to 99 as their decimal strings compare (SE compares
    its suffixes as strings: "9" > "10" > "1")."""
    if size < 10:
        return size * 11
    return (size // 10) * 11 + size % 10 + 1


cdef void offer_wing(
    Work *w, uint64_t cy, bint double, int tenths, int suffix, int *best, int *best_count,
    int *best_suffix,
) noexcept nogil:
    """Keep the wing in elim_* (bivalue cell digits `cy`) in keep_* when SE's order puts
    it first: difficulty, then more eliminations, then the larger suffix. `suffix`: SE's
    suffix but for its first character (the double link), as biggest * 1000 +
    size_key(wing size)."""
    cdef int i, d
    cdef uint64_t removed = 0
    for i in range(w.nelim):
        removed |= (<uint64_t>1) << (w.elim_digit[i] - 1)
    # SE names the hint singly linked when it removes only one digit of y.
    if double and not ((removed & (removed - 1)) == 0 and (removed & cy)):
        suffix += 20000
    else:
        suffix += 10000
    if (
        best[0] < 0 or tenths < best[0]
        or (tenths == best[0] and w.nelim > best_count[0])
        or (tenths == best[0] and w.nelim == best_count[0] and suffix > best_suffix[0])
    ):
        best[0] = tenths
        best_count[0] = w.nelim
        best_suffix[0] = suffix
        keep_elims(w)


cdef void wing_group(
    Work *w, const int32_t *group, int k, uint64_t union, const int32_t *bivalue, int nbiv,
    int tenths, int suffix, int *best, int *best_count, int *best_suffix,
) noexcept nogil:
    """The wings of the set `group` (k cells holding the k + 1 digits `union`, of
    difficulty `tenths`) with each bivalue cell, as se._Rater.als_wing makes them, each
    offered to offer_wing."""
    cdef Solver *s = &w.s
    cdef int cw = w.cwords
    cdef int i, j, word, y
    cdef uint64_t cy, low
    cdef uint64_t *inside = &w.sets[S_GROUP * cw]
    cdef uint64_t ready = 0  # digits whose w.dig_peers row is filled
    cdef bint placed = False  # `inside` filled
    cdef bint low_linked, high_linked
    for j in range(nbiv):
        y = bivalue[j]
        cy = s.cand[y]
        if cy & ~union:
            continue
        if not placed:
            for word in range(cw):
                inside[word] = 0
            for i in range(k):
                inside[group[i] >> 6] |= (<uint64_t>1) << (group[i] & 63)
            placed = True
        if has_cell(inside, y):
            continue
        low = cy & (~cy + 1)
        fill_dig_peers(w, group, k, cy & ~ready)
        ready |= cy
        # A digit of y is a restricted common when every cell of the set holding it
        # sees y.
        low_linked = has_cell(&w.dig_peers[bits_lowest_index(low) * cw], y)
        high_linked = has_cell(&w.dig_peers[bits_lowest_index(cy ^ low) * cw], y)
        if low_linked and high_linked and k <= DOUBLY_LINKED_MAX_CELLS:
            fill_dig_peers(w, group, k, union & ~ready)
            ready = union
            if wing_removals(w, inside, y, union):
                offer_wing(w, cy, True, tenths, suffix, best, best_count, best_suffix)
        # Singly linked: x the smaller digit first, z the other one goes.
        elif low_linked and wing_removals(w, inside, y, cy ^ low):
            offer_wing(w, cy, False, tenths, suffix, best, best_count, best_suffix)
        elif high_linked and wing_removals(w, inside, y, low):
            offer_wing(w, cy, False, tenths, suffix, best, best_count, best_suffix)


cdef int als_wing(Work *w, int k) noexcept nogil:
    """se._Rater.als_wing: tenths (-1 none), eliminations in keep_*.

    The sets of k cells of a unit come in itertools.combinations order; a partial set
    whose digits already number more than k + 1 is dropped with every set that extends
    it, and a set harder than the best wing so far is not looked at."""
    cdef Solver *s = &w.s
    cdef const Tables *t = s.t
    cdef int n = w.n
    cdef int u, i, c, ncells, nbiv = 0, biggest, tenths, best = -1, depth, size, total
    cdef int best_count = 0, best_suffix = 0
    cdef int idx[6]
    cdef uint64_t unions[6]
    cdef int32_t group[6]
    cdef int32_t cells[64]
    cdef int32_t *bivalue = w.ints
    cdef uint64_t union
    for c in range(w.cells):
        if two_bits(s.cand[c]):
            bivalue[nbiv] = c
            nbiv += 1
    if not nbiv:
        return -1
    fill_digit_bits(w)
    for u in range(3 * n):
        ncells = 0
        for i in range(n):
            c = t.units[u * n + i]
            if s.cand[c] & (s.cand[c] - 1):
                cells[ncells] = c
                ncells += 1
        if ncells < k:
            continue
        depth = -1
        while next_small_union(idx, unions, &depth, k, ncells, cells, s.cand, 0, k + 1):
            union = unions[k - 1]
            if count_bits(union) == k + 1:
                biggest = 0
                total = 0
                for i in range(k):
                    group[i] = cells[idx[i]]
                    size = count_bits(s.cand[group[i]])
                    total += size
                    if size > biggest:
                        biggest = size
                tenths = wing_tenths(k, biggest)
                if best < 0 or tenths <= best:
                    wing_group(
                        w, group, k, union, bivalue, nbiv, tenths,
                        biggest * 1000 + size_key(total), &best, &best_count, &best_suffix,
                    )
    return best


cdef bint balanced(Work *w) noexcept nogil:
    """se._Rater._balanced, with the candidates in w.removed taken away."""
    cdef Solver *s = &w.s
    cdef const Tables *t = s.t
    cdef int n = w.n
    cdef int u, i, d, cell
    cdef int counts[64]
    cdef uint64_t m
    for u in range(3 * n):
        for d in range(n):
            counts[d] = 0
        for i in range(n):
            cell = t.units[u * n + i]
            m = s.cand[cell] & ~w.removed[cell]
            while m:
                counts[bits_lowest_index(m)] += 1
                m &= m - 1
        for d in range(n):
            if counts[d] != 0 and counts[d] != 2:
                return False
    return True


cdef bint bug_add(
    Work *w, int cell, int digit, int *nbug, uint64_t all_values, bint *have_common
) noexcept nogil:
    """se._Rater.bug's add(): `cell` a BUG cell for `digit` (w.ints the BUG cells,
    w.removed their BUG values, S_SCRATCH the cells seeing all of them); False when no
    BUG hint can remain."""
    cdef int cw = w.cwords
    cdef int i, word
    cdef bint known = False
    cdef uint64_t any_left = 0
    cdef uint64_t *common = &w.sets[S_SCRATCH * cw]
    for i in range(nbug[0]):
        if w.ints[i] == cell:
            known = True
    if not known:
        w.ints[nbug[0]] = cell
        nbug[0] += 1
    w.removed[cell] |= (<uint64_t>1) << digit
    for word in range(cw):
        if have_common[0]:
            common[word] &= w.peer_bits[cell * cw + word]
        else:
            common[word] = w.peer_bits[cell * cw + word]
    have_common[0] = True
    for i in range(nbug[0]):
        common[w.ints[i] >> 6] &= ~((<uint64_t>1) << (w.ints[i] & 63))
    for word in range(cw):
        any_left |= common[word]
    return not (nbug[0] > 1 and bits_popcount(all_values) > 1 and not any_left)


cdef int bug_type4(Work *w, uint64_t all_values) noexcept nogil:
    """se._Rater._bug_type4 on the two BUG cells w.ints[0..1]: tenths (-1 none),
    eliminations in elim_*."""
    cdef Solver *s = &w.s
    cdef const Tables *t = s.t
    cdef int c1 = w.ints[0], c2 = w.ints[1]
    cdef int k, kind, c, j
    cdef uint64_t shared = s.cand[c1] & s.cand[c2] & ~all_values
    cdef uint64_t m
    if bits_popcount(shared) != 1:
        return -1
    for k in range(3):
        kind = 2 if k == 0 else k - 1  # box, row, column
        if t.cell_units[3 * c1 + kind] == t.cell_units[3 * c2 + kind]:
            w.nelim = 0
            for j in range(2):
                c = c1 if j == 0 else c2
                m = s.cand[c] & ~w.removed[c] & ~shared
                while m:
                    add_elim(w, c, bits_lowest_index(m) + 1)
                    m &= m - 1
            return BASE[T_BUG] + 1
    return -1


cdef int bug(Work *w, int *place_cell, int *place_digit) noexcept nogil:
    """se._Rater.bug: tenths (-1 none); the placement (cell -1 for none), eliminations
    in elim_*."""
    cdef Solver *s = &w.s
    cdef const Tables *t = s.t
    cdef int n = w.n
    cdef int cw = w.cwords
    cdef int ui, u, d, k, cell, nnew, nbug = 0, only_value = -1, word, degree, kind, i, c
    cdef int nmembers, size, first = -1
    cdef bint one_value = True, have_common = False, have_extra = False, same
    cdef uint64_t all_values = 0, where, m, bits, union, mask, low, r
    cdef int32_t *members = w.ints2
    cdef uint64_t *common = &w.sets[S_SCRATCH * cw]
    cdef uint64_t *extra = &w.sets[S_GROUP * cw]
    cdef uint64_t *fresh = &w.sets[S_SHARED * cw]
    place_cell[0] = -1
    w.nelim = 0
    memset(w.removed, 0, w.cells * sizeof(uint64_t))
    for ui in range(3 * n):
        u = 2 * n + ui if ui < n else ui - n  # boxes, then rows, then columns
        for d in range(n):
            where = s.pos[u * n + d]
            k = bits_popcount(where)
            if k == 0 or k == 2:
                continue
            nnew = 0
            for word in range(cw):
                fresh[word] = 0
            m = where
            while m:
                cell = t.units[u * n + bits_lowest_index(m)]
                m &= m - 1
                if bits_popcount(s.cand[cell]) >= 3:
                    first = cell
                    nnew += 1
                    fresh[cell >> 6] |= (<uint64_t>1) << (cell & 63)
            if not have_extra:
                have_extra = True
                only_value = d
                for word in range(cw):
                    extra[word] = fresh[word]
            elif one_value:
                if only_value == d:
                    for word in range(cw):
                        extra[word] |= fresh[word]
                else:
                    one_value = False
            if nnew == 1:
                all_values |= (<uint64_t>1) << d
                if not bug_add(w, first, d, &nbug, all_values, &have_common):
                    return -1
            if nnew == 0:
                return -1
    if one_value and have_extra:
        k = 0
        for word in range(cw):
            k += bits_popcount(extra[word])
        if k > nbug:
            for word in range(cw):
                bits = extra[word]
                while bits:
                    cell = (word << 6) | bits_lowest_index(bits)
                    bits &= bits - 1
                    if w.removed[cell]:
                        continue  # a BUG cell already
                    if not bug_add(w, cell, only_value, &nbug, all_values, &have_common):
                        return -1
    for cell in range(w.cells):
        if not s.values[cell] and bits_popcount(s.cand[cell] & ~w.removed[cell]) != 2:
            return -1
    if not balanced(w):
        return -1
    if nbug == 1:
        cell = w.ints[0]
        if bits_popcount(all_values) == 1:
            place_cell[0] = cell
            place_digit[0] = bits_lowest_index(all_values) + 1
            return BASE[T_BUG]
        m = s.cand[cell] & ~all_values
        while m:
            add_elim(w, cell, bits_lowest_index(m) + 1)
            m &= m - 1
        return BASE[T_BUG]
    if bits_popcount(all_values) == 1:
        d = bits_lowest_index(all_values)
        for word in range(cw):
            bits = common[word] if have_common else 0
            while bits:
                cell = (word << 6) | bits_lowest_index(bits)
                bits &= bits - 1
                if s.cand[cell] & all_values:
                    add_elim(w, cell, d + 1)
        if w.nelim:
            return BASE[T_BUG] + 1
        if nbug == 2:
            return bug_type4(w, all_values)
        return -1
    k = 0
    for word in range(cw):
        k += bits_popcount(common[word]) if have_common else 0
    if not k:
        return -1
    if nbug == 2:
        k = bug_type4(w, all_values)
        if k >= 0:
            return k
    for degree in range(2, 7):
        for k in range(3):
            kind = 2 if k == 0 else k - 1  # box, row, column
            u = t.cell_units[3 * w.ints[0] + kind]
            same = True
            for i in range(1, nbug):
                if t.cell_units[3 * w.ints[i] + kind] != u:
                    same = False
            if not same:
                continue
            nmembers = 0
            for word in range(cw):
                bits = common[word]
                while bits:
                    cell = (word << 6) | bits_lowest_index(bits)
                    bits &= bits - 1
                    if t.cell_units[3 * cell + kind] == u:
                        members[nmembers] = cell
                        nmembers += 1
            if nmembers < degree:
                continue
            # The (degree - 1)-subsets as bit masks, ascending (SE's order).
            size = degree - 1
            mask = ((<uint64_t>1) << size) - 1
            while mask < ((<uint64_t>1) << nmembers):
                union = 0
                same = True
                for i in range(nmembers):
                    if (mask >> i) & 1:
                        union |= s.cand[members[i]]
                        if bits_popcount(s.cand[members[i]]) < 2:
                            same = False
                if (
                    same
                    and bits_popcount(union) == degree
                    and bits_popcount(all_values) >= 2
                    and not (all_values & ~union)
                ):
                    w.nelim = 0
                    for i in range(nmembers):
                        if (mask >> i) & 1:
                            continue
                        m = s.cand[members[i]] & union
                        while m:
                            add_elim(w, members[i], bits_lowest_index(m) + 1)
                            m &= m - 1
                    if w.nelim:
                        return BASE[T_BUG] + degree
                low = mask & (~mask + 1)
                r = mask + low
                mask = (((r ^ mask) >> 2) // low) | r
    return -1


cdef int excluder_rows(Work *w, bint triple) noexcept nogil:
    """Aligned exclusion, set up: S_MULTI = the cells with two or more candidates, S_EXC
    = those that may exclude (two candidates; two or three for triples); the cells with
    two or more candidates and an excluder among their peers, ascending, in w.ints with
    their excluders as rows of w.excl. Returns their number."""
    cdef Solver *s = &w.s
    cdef int cw = w.cwords
    cdef int c, word, nbase = 0
    cdef uint64_t m, rest, any_excl
    cdef uint64_t *multi = &w.sets[S_MULTI * cw]
    cdef uint64_t *exc = &w.sets[S_EXC * cw]
    cdef uint64_t *row
    for word in range(cw):
        multi[word] = 0
        exc[word] = 0
    for c in range(w.cells):
        m = s.cand[c]
        rest = m & (m - 1)
        if not rest:
            continue
        multi[c >> 6] |= (<uint64_t>1) << (c & 63)
        rest &= rest - 1
        if not rest or (triple and not (rest & (rest - 1))):
            exc[c >> 6] |= (<uint64_t>1) << (c & 63)
    for c in range(w.cells):
        if not has_cell(multi, c):
            continue
        row = &w.excl[nbase * cw]
        any_excl = 0
        for word in range(cw):
            row[word] = w.peer_bits[c * cw + word] & exc[word]
            any_excl |= row[word]
        if any_excl:
            w.ints[nbase] = c
            nbase += 1
    return nbase


cdef bint aligned_pair(Work *w) noexcept nogil:
    """se._Rater.aligned_pair: the eliminations in elim_*.

    Two values (v0, v1) of the pair are excluded when a common excluder holds exactly
    {v0, v1}: for each v0, the v1 it excludes are the other digits of the excluders
    holding v0, read as one mask."""
    cdef Solver *s = &w.s
    cdef int cw = w.cwords
    cdef int i, j, c0, c1, word, nmasks, m
    cdef int32_t *base = w.ints
    cdef uint64_t *shared = &w.sets[S_SHARED * cw]
    cdef uint64_t *masks = w.ex_masks
    cdef uint64_t allowed0, allowed1, r0, b0, ok1, blocked, bits, p
    cdef bint sees01
    cdef int nbase = excluder_rows(w, False)
    for i in range(nbase):
        for j in range(i + 1, nbase):
            for word in range(cw):
                shared[word] = w.excl[i * cw + word] & w.excl[j * cw + word]
            if not several(shared, cw):
                continue
            c0 = base[i]
            c1 = base[j]
            sees01 = sees_bits(w, c0, c1)
            nmasks = 0
            for word in range(cw):
                bits = shared[word]
                while bits:
                    masks[nmasks] = s.cand[(word << 6) | bits_lowest_index(bits)]
                    nmasks += 1
                    bits &= bits - 1
            allowed0 = 0
            allowed1 = 0
            r0 = s.cand[c0]
            while r0:
                b0 = r0 & (~r0 + 1)
                r0 ^= b0
                blocked = b0 if sees01 else 0
                for m in range(nmasks):
                    if masks[m] & b0:
                        blocked |= masks[m] ^ b0
                ok1 = s.cand[c1] & ~blocked
                if ok1:
                    allowed0 |= b0
                    allowed1 |= ok1
            w.nelim = 0
            p = s.cand[c0] & ~allowed0
            while p:
                add_elim(w, c0, bits_lowest_index(p) + 1)
                p &= p - 1
            p = s.cand[c1] & ~allowed1
            while p:
                add_elim(w, c1, bits_lowest_index(p) + 1)
                p &= p - 1
            if w.nelim:
                return True
    return False


cdef inline bint free_values(int ny, int nz, bint sxy, bint sxz, bint syz) noexcept nogil:
    """Cells x, y, z of a triple, y (z) with ny (nz) digits outside every excluder: is
    every value of x sure to keep a combination no excluder can block? Yes when one of
    y and z can take such a digit that is not the value, and the other one that is
    neither."""
    return (ny - sxy >= 1 and nz - sxz - syz >= 1) or (nz - sxz >= 1 and ny - sxy - syz >= 1)


cdef void allow3(
    uint64_t a, uint64_t b, uint64_t c, bint sab, bint sac, bint sbc,
    const uint64_t *masks, int nmasks, uint64_t *allowed,
) noexcept nogil:
    """The exclusion of three cells with candidates a, b, c (sxy: those two see each
    other): allowed[0..2] = the values of each that some combination keeps. For each
    pair of values (va, vb), the values of the third cell an excluder rules out are read
    as one mask: all of them when the excluder lies inside {va, vb}, its one other digit
    when it has one."""
    cdef uint64_t ra, rb, ba, bb, pair, blocked, left, okc
    cdef int i
    allowed[0] = allowed[1] = allowed[2] = 0
    ra = a
    while ra:
        ba = ra & (~ra + 1)
        ra ^= ba
        rb = b
        while rb:
            bb = rb & (~rb + 1)
            rb ^= bb
            if ba == bb and sab:
                continue
            if (allowed[0] & ba) and (allowed[1] & bb) and allowed[2] == c:
                continue  # would allow nothing new
            pair = ba | bb
            blocked = (ba if sac else 0) | (bb if sbc else 0)
            for i in range(nmasks):
                left = masks[i] & ~pair
                if not (left & (left - 1)):
                    blocked |= left if left else c
            okc = c & ~blocked
            if okc:
                allowed[0] |= ba
                allowed[1] |= bb
                allowed[2] |= okc
                if allowed[0] == a and allowed[1] == b and allowed[2] == c:
                    return  # every candidate allowed


cdef bint exclude3(Work *w, const int32_t *cells, const uint64_t *common) noexcept nogil:
    """se._Rater._exclude for three cells whose common excluders are the cell bitset
    `common`: the eliminations in elim_*.

    Only excluders whose digits all belong to the three cells can block a combination.
    Without one, a value goes only when its cell sees both others and they see each
    other (two cells holding just it and one more digit); and a value whose cell
    leaves the other two a digit outside every excluder (the third cell one more)
    always keeps a combination. Neither case is enumerated. The exclusion does not
    depend on the order of the cells, so the one with the most candidates is the one
    read as a mask."""
    cdef Solver *s = &w.s
    cdef int cw = w.cwords
    cdef int word, p, k, i, big
    cdef bint s01 = sees_bits(w, cells[0], cells[1])
    cdef bint s02 = sees_bits(w, cells[0], cells[2])
    cdef bint s12 = sees_bits(w, cells[1], cells[2])
    cdef uint64_t allowed[3]
    cdef uint64_t m, bits, rest, spread = 0
    cdef uint64_t c0 = s.cand[cells[0]], c1 = s.cand[cells[1]], c2 = s.cand[cells[2]]
    cdef uint64_t values = c0 | c1 | c2
    cdef int n0, n1, n2
    # The excluders' candidates, each kept once; one with a digit none of the three
    # cells holds never lies inside their values.
    cdef uint64_t *masks = w.ex_masks
    cdef int nmasks = 0
    w.nelim = 0
    for word in range(cw):
        bits = common[word]
        while bits:
            p = (word << 6) + bits_lowest_index(bits)
            bits &= bits - 1
            m = s.cand[p]
            if m & ~values:
                continue
            for i in range(nmasks):
                if masks[i] == m:
                    break
            else:
                masks[nmasks] = m
                nmasks += 1
                spread |= m
    if not nmasks and not (s01 and s02 and s12):
        return False
    n0 = count_bits(c0 & ~spread)
    n1 = count_bits(c1 & ~spread)
    n2 = count_bits(c2 & ~spread)
    if (
        free_values(n1, n2, s01, s02, s12)
        and free_values(n0, n2, s01, s12, s02)
        and free_values(n0, n1, s02, s12, s01)
    ):
        return False
    n0 = count_bits(c0)
    n1 = count_bits(c1)
    n2 = count_bits(c2)
    big = 2 if n2 >= n0 and n2 >= n1 else (1 if n1 >= n0 else 0)
    if big == 2:
        allow3(c0, c1, c2, s01, s02, s12, masks, nmasks, allowed)
    elif big == 1:
        allow3(c0, c2, c1, s02, s01, s12, masks, nmasks, allowed)
        m = allowed[1]
        allowed[1] = allowed[2]
        allowed[2] = m
    else:
        allow3(c1, c2, c0, s12, s01, s02, masks, nmasks, allowed)
        m = allowed[2]
        allowed[2] = allowed[1]
        allowed[1] = allowed[0]
        allowed[0] = m
    for k in range(3):
        rest = s.cand[cells[k]] & ~allowed[k]
        while rest:
            add_elim(w, cells[k], bits_lowest_index(rest) + 1)
            rest &= rest - 1
    return w.nelim > 0


cdef bint aligned_triple(Work *w) noexcept nogil:
    """se._Rater.aligned_triple: the eliminations in elim_*.

    The triples come in the order se.py tries them: pairs of cells with excluders
    (ascending), then the third cell ascending among the base cells that exclude for
    either. Only third cells that see two or more of the pair's common excluders can
    have two common excluders, so only those are looked at; and a triple se.py has
    already tried under another order of its cells (it found nothing then, as the
    exclusion does not depend on that order) is not tried again."""
    cdef Solver *s = &w.s
    cdef int cw = w.cwords
    cdef int i, j, k, word, c0, c1, c2, p
    cdef int32_t *base = w.ints
    cdef int32_t cells[3]
    cdef uint64_t common[64]
    cdef uint64_t bits, any_area
    cdef const uint64_t *peers
    cdef const uint64_t *multi = &w.sets[S_MULTI * cw]
    cdef const uint64_t *exc = &w.sets[S_EXC * cw]
    cdef uint64_t *shared = &w.sets[S_SHARED * cw]
    cdef uint64_t *once = &w.sets[S_ONCE * cw]
    cdef uint64_t *twice = &w.sets[S_TWICE * cw]
    cdef uint64_t *area = &w.sets[S_AREA * cw]
    cdef int nbase = excluder_rows(w, True)
    for i in range(nbase):
        c0 = base[i]
        for j in range(i + 1, nbase):
            for word in range(cw):
                shared[word] = w.excl[i * cw + word] & w.excl[j * cw + word]
            if not several(shared, cw):
                continue
            c1 = base[j]
            # The cells seeing two or more of the common excluders.
            for word in range(cw):
                once[word] = 0
                twice[word] = 0
            for word in range(cw):
                bits = shared[word]
                while bits:
                    p = (word << 6) | bits_lowest_index(bits)
                    bits &= bits - 1
                    peers = &w.peer_bits[p * cw]
                    for k in range(cw):
                        twice[k] |= once[k] & peers[k]
                        once[k] |= peers[k]
            any_area = 0
            for word in range(cw):
                area[word] = (w.excl[i * cw + word] | w.excl[j * cw + word]) & multi[word] & twice[word]
                any_area |= area[word]
            if not any_area:
                continue
            area[c0 >> 6] &= ~((<uint64_t>1) << (c0 & 63))
            area[c1 >> 6] &= ~((<uint64_t>1) << (c1 & 63))
            for word in range(cw):
                bits = area[word]
                while bits:
                    c2 = (word << 6) | bits_lowest_index(bits)
                    bits &= bits - 1
                    # Tried before: as the pair (c0, c2) with c1 third, or (for c2 < c0)
                    # as the pair (c2, c1) with c0 third.
                    if c2 < c1 and exc[c1 >> 6] >> (c1 & 63) & 1 and (
                        sees_bits(w, c0, c1) or sees_bits(w, c2, c1)
                    ):
                        continue
                    if c2 < c0 and exc[c0 >> 6] >> (c0 & 63) & 1 and (
                        sees_bits(w, c2, c0) or sees_bits(w, c1, c0)
                    ):
                        continue
                    peers = &w.peer_bits[c2 * cw]
                    for k in range(cw):
                        common[k] = shared[k] & peers[k]
                    cells[0] = c0
                    cells[1] = c1
                    cells[2] = c2
                    if exclude3(w, cells, common):
                        return True
    return False


cdef int easy_step(Work *w, int *tenths) noexcept nogil:
    """se._Rater.easy_step: apply the easiest step below chains; its id (-1 none) and
    its difficulty in `tenths`."""
    cdef Solver *s = &w.s
    cdef const Tables *t = s.t
    cdef int n = w.n
    cdef int tech, k, cell, digit, box, place_cell, place_digit
    cdef uint64_t where
    if find_full_house(s):
        apply_step(s)
        tenths[0] = BASE[T_FULL_HOUSE]
        return T_FULL_HOUSE
    if find_hidden_single(s):
        cell = s.step.place_cell
        digit = s.step.place_digit
        box = t.cell_units[3 * cell + 2]
        where = s.pos[box * n + digit - 1]
        tech = T_HIDDEN_BOX if where and not (where & (where - 1)) else T_HIDDEN_LINE
        apply_step(s)
        tenths[0] = BASE[tech]
        return tech
    tech = locked(w)
    if tech == T_DIRECT_POINTING or tech == T_DIRECT_CLAIMING:
        remove_elims(w)
        tenths[0] = BASE[tech]
        return tech
    if direct_hidden(w, 2):
        remove_elims(w)
        tenths[0] = BASE[T_DIRECT_HIDDEN_PAIR]
        return T_DIRECT_HIDDEN_PAIR
    if find_naked_single(s):
        apply_step(s)
        tenths[0] = BASE[T_NAKED_SINGLE]
        return T_NAKED_SINGLE
    if direct_hidden(w, 3):
        remove_elims(w)
        tenths[0] = BASE[T_DIRECT_HIDDEN_TRIPLE]
        return T_DIRECT_HIDDEN_TRIPLE
    if tech >= 0:
        for k in range(w.nplain):
            remove_one(s, w.plain_cell[k], w.digit_plain)
        tenths[0] = BASE[tech]
        return tech
    tech = -1
    if naked_subset(s, 2, NAKED_PAIR):
        tech = T_NAKED_PAIR
    elif fish(s, 2, X_WING):
        tech = T_X_WING
    elif hidden_subset(s, 2, HIDDEN_PAIR):
        tech = T_HIDDEN_PAIR
    elif naked_subset(s, 3, NAKED_TRIPLE):
        tech = T_NAKED_TRIPLE
    elif fish(s, 3, SWORDFISH):
        tech = T_SWORDFISH
    elif hidden_subset(s, 3, HIDDEN_TRIPLE):
        tech = T_HIDDEN_TRIPLE
    if tech >= 0:
        apply_step(s)
        tenths[0] = BASE[tech]
        return tech
    k = strong_links(w, 2)
    if k >= 0:
        remove_kept(w)
        tenths[0] = BASE[T_SKYSCRAPER] + k
        return T_GROUPED_LINKS if k == 3 else T_SKYSCRAPER + k
    if find_xy_wing(s):
        tech = T_XY_WING
    elif find_xyz_wing(s):
        tech = T_XYZ_WING
    if tech >= 0:
        apply_step(s)
        tenths[0] = BASE[tech]
        return tech
    k = unique_rectangle(w)
    if k >= 0:
        for cell in range(w.nkeep2):
            remove_one(s, w.keep2_cell[cell], w.keep2_digit[cell])
        tenths[0] = k
        return T_UNIQUE_RECTANGLE
    if naked_subset(s, 4, NAKED_QUAD):
        tech = T_NAKED_QUAD
    elif fish(s, 4, JELLYFISH):
        tech = T_JELLYFISH
    elif hidden_subset(s, 4, HIDDEN_QUAD):
        tech = T_HIDDEN_QUAD
    if tech >= 0:
        apply_step(s)
        tenths[0] = BASE[tech]
        return tech
    k = strong_links(w, 3)
    if k >= 0:
        remove_kept(w)
        tenths[0] = BASE[T_THREE_LINKS] + k
        return T_THREE_LINKS
    k = als_wing(w, 3)
    if k >= 0:
        remove_kept(w)
        tenths[0] = k
        return T_WXYZ_WING
    k = bug(w, &place_cell, &place_digit)
    if k >= 0:
        if place_cell >= 0:
            place(s, place_cell, place_digit)
        remove_elims(w)
        tenths[0] = k
        return T_BUG
    k = strong_links(w, 4)
    if k >= 0:
        remove_kept(w)
        tenths[0] = BASE[T_FOUR_LINKS] + k
        return T_FOUR_LINKS
    k = als_wing(w, 4)
    if k >= 0:
        remove_kept(w)
        tenths[0] = k
        return T_VWXYZ_WING
    if aligned_pair(w):
        remove_elims(w)
        tenths[0] = BASE[T_ALIGNED_PAIR]
        return T_ALIGNED_PAIR
    k = als_wing(w, 5)
    if k >= 0:
        remove_kept(w)
        tenths[0] = k
        return T_UVWXYZ_WING
    return -1


# ---------------------------------------------------------------------------------------
# Chains


cdef inline void add_node(Walk *wk, int m, int k) noexcept nogil:
    wk.mark[m] = wk.stamp
    wk.count[m] = k
    wk.qpos[m] = wk.len
    wk.queue[wk.len] = m
    wk.len += 1


cdef inline int anc_bit(const Work *w, int m) noexcept nogil:
    """Node m's bit in a dynamic walk's ancestor set."""
    return 2 * w.g_index[m >> 1] + (m & 1)


cdef inline int offer(Work *w, Walk *wk, int m, int parent, bint dynamic) noexcept nogil:
    """Reach node m from one parent: -1, or (dynamic, where m is an OFF node) the
    complexity of the contradiction when m's opposite was reached before."""
    cdef int k
    if wk.mark[m] == wk.stamp:
        return -1
    # count[parent] is the size of parent's ancestor set, which m (not reached yet) is
    # not in: m's set is one larger.
    k = wk.count[parent] + 1
    if dynamic:
        if wk.mark[m ^ 1] == wk.stamp:
            if w.level2:
                return k + wk.count[m ^ 1] + clash_nested(w, wk, m, parent)
            return k + wk.count[m ^ 1]
        wk.parent[m] = parent
    add_node(wk, m, k)
    return -1


cdef inline int offer_tmp(Work *w, Walk *wk, int m) noexcept nogil:
    """offer() for a dynamic node whose parents' ancestors are already in w.tmp."""
    cdef int i, k = 0
    cdef int words = w.dwords
    cdef int b = anc_bit(w, m)
    cdef uint64_t *dst
    if wk.mark[m] == wk.stamp:
        return -1
    w.tmp[b >> 6] |= (<uint64_t>1) << (b & 63)
    for i in range(words):
        k += bits_popcount(w.tmp[i])
    if wk.mark[m ^ 1] == wk.stamp:
        if w.level2:
            return k + wk.count[m ^ 1] + clash_nested(w, wk, m, -1)
        return k + wk.count[m ^ 1]
    dst = &wk.anc[<size_t>m * words]
    for i in range(words):
        dst[i] = w.tmp[i]
    add_node(wk, m, k)
    return -1


cdef inline void tmp_or(Work *w, const Walk *wk, int node) noexcept nogil:
    """w.tmp |= the ancestors of an OFF node taken in a dynamic walk."""
    cdef int i, b
    cdef int parent = wk.parent[node]
    cdef const uint64_t *src = &wk.anc[<size_t>(node if parent < 0 else parent) * w.dwords]
    for i in range(w.dwords):
        w.tmp[i] |= src[i]
    if parent >= 0:
        b = anc_bit(w, node)
        w.tmp[b >> 6] |= (<uint64_t>1) << (b & 63)


cdef void fill_chain_peers(const Tables *t, int32_t *out) noexcept nogil:
    """Each cell's peers as SE's chain walks list them: the box's cells, then the
    row's, then the column's, each unit in its own order, every peer once."""
    cdef int cell, k, i, j, q, u, found
    for cell in range(t.cells):
        found = 0
        for k in range(3):
            u = t.cell_units[3 * cell + (k + 2) % 3]
            for i in range(t.n):
                j = t.units[u * t.n + i]
                if j == cell:
                    continue
                for q in range(found):
                    if out[cell * t.npeers + q] == j:
                        break
                else:
                    out[cell * t.npeers + found] = j
                    found += 1


cdef int walk(Work *w, Walk *wk, int cell, int digit, bint on, int mode) noexcept nogil:
    """se._Rater.walk: fills wk (queue = reached nodes, their complexities); for a
    dynamic walk, the complexity of the contradiction met, else -1."""
    cdef Solver *s = &w.s
    cdef const Tables *t = s.t
    cdef int n = w.n
    cdef bint dynamic = (mode & DYNAMIC_LINKS) != 0
    cdef int on_head = 0, off_head = 0, node, c, cell_now, dig, e, k, j, i, u, m, off, left, clash
    # Set in the loop that finds the one candidate left; 0 only quiets GCC's
    # -Wmaybe-uninitialized, which cannot see that the loop always sets it.
    cdef int target = 0
    cdef uint64_t bit, rest, cc, where
    cdef int32_t stamp
    wk.stamp += 1
    stamp = wk.stamp
    cdef int start = ((cell * n + digit - 1) << 1) | (1 if on else 0)
    wk.len = 0
    add_node(wk, start, 1)
    w.level2 = (mode & NESTED_CHAINS) != 0
    w.level3 = (mode & NESTED_MULTIPLE) != 0
    w.level4 = (mode & NESTED_DYNAMIC) != 0
    if w.level2:
        w.nest.wl_len[walk_slot(w, wk)] = 0
    if dynamic:
        w.gone_stamp += 1
        wk.parent[start] = -1
        memset(&wk.anc[<size_t>start * w.dwords], 0, w.dwords * sizeof(uint64_t))
        i = anc_bit(w, start)
        wk.anc[<size_t>start * w.dwords + (i >> 6)] = (<uint64_t>1) << (i & 63)
    while True:
        # As SE: the next ON node reached, and an OFF node only when no ON node is
        # waiting (the order decides the first contradiction and the parents).
        while on_head < wk.len and not (wk.queue[on_head] & 1):
            on_head += 1
        if on_head < wk.len:
            node = wk.queue[on_head]
            on_head += 1
        else:
            while off_head < wk.len and (wk.queue[off_head] & 1):
                off_head += 1
            if off_head == wk.len:
                if mode & NESTED_LINKS:
                    w.work += w.cells
                    if nested_offs(w, wk):
                        continue
                break
            node = wk.queue[off_head]
            off_head += 1
        wk.qpos[node] = -1  # taken
        w.work += 1
        c = node >> 1
        cell_now = w.cell_of[c]
        dig = c - cell_now * n
        bit = (<uint64_t>1) << dig
        if node & 1:
            if mode & CELL_LINKS:
                rest = s.cand[cell_now] & ~bit
                while rest:
                    e = bits_lowest_index(rest)
                    rest &= rest - 1
                    clash = offer(w, wk, (cell_now * n + e) << 1, node, dynamic)
                    if clash >= 0:
                        return clash
            # The peers holding the digit, in SE's order (box, row, column).
            for k in range(t.npeers):
                j = w.chain_peers[cell_now * t.npeers + k]
                if (s.cand[j] >> dig) & 1:
                    clash = offer(w, wk, (j * n + dig) << 1, node, dynamic)
                    if clash >= 0:
                        return clash
        else:
            if mode & CELL_LINKS:
                cc = s.cand[cell_now]
                if dynamic:
                    # The OFF nodes taken from the queue so far, this one included, are
                    # counted per cell and per (unit, digit): a cell or unit with one
                    # candidate left is looked at closely, no other.
                    if w.gone_cell_at[cell_now] != w.gone_stamp:
                        w.gone_cell_at[cell_now] = w.gone_stamp
                        w.gone_cell[cell_now] = 0
                    w.gone_cell[cell_now] += 1
                    left = bits_popcount(cc) - w.gone_cell[cell_now]
                    if left == 1:
                        memset(w.tmp, 0, w.dwords * sizeof(uint64_t))
                        rest = cc
                        while rest:
                            e = bits_lowest_index(rest)
                            rest &= rest - 1
                            off = (cell_now * n + e) << 1
                            if wk.mark[off] == stamp and wk.qpos[off] < 0:
                                tmp_or(w, wk, off)
                            else:
                                target = e
                        clash = offer_tmp(w, wk, ((cell_now * n + target) << 1) | 1)
                        if clash >= 0:
                            return clash
                elif two_bits(cc):
                    e = bits_lowest_index(cc & ~bit)
                    clash = offer(w, wk, ((cell_now * n + e) << 1) | 1, node, dynamic)
                    if clash >= 0:
                        return clash
            if mode & UNIT_LINKS:
                for k in range(3):
                    # SE's order: box, row, column (cell_units: row, column, box).
                    u = t.cell_units[3 * cell_now + (k + 2) % 3]
                    where = s.pos[u * n + dig]
                    if dynamic:
                        j = u * n + dig
                        if w.gone_unit_at[j] != w.gone_stamp:
                            w.gone_unit_at[j] = w.gone_stamp
                            w.gone_unit[j] = 0
                        w.gone_unit[j] += 1
                        left = bits_popcount(where) - w.gone_unit[j]
                        if left == 1:
                            memset(w.tmp, 0, w.dwords * sizeof(uint64_t))
                            rest = where
                            while rest:
                                i = bits_lowest_index(rest)
                                rest &= rest - 1
                                off = (t.units[u * n + i] * n + dig) << 1
                                if wk.mark[off] == stamp and wk.qpos[off] < 0:
                                    tmp_or(w, wk, off)
                                else:
                                    target = i
                            clash = offer_tmp(w, wk, ((t.units[u * n + target] * n + dig) << 1) | 1)
                            if clash >= 0:
                                return clash
                    elif two_bits(where):
                        rest = where
                        while rest:
                            i = bits_lowest_index(rest)
                            rest &= rest - 1
                            j = t.units[u * n + i]
                            if j != cell_now:
                                clash = offer(w, wk, ((j * n + dig) << 1) | 1, node, dynamic)
                                if clash >= 0:
                                    return clash
        if w.work > w.budget:
            return -1
    return -1


cdef void add_nested(Work *w, Walk *wk, int m) noexcept nogil:
    """Add OFF node m whose rule parents' ancestors are in w.tmp2, unchecked against
    the ON nodes (as SE: a clash shows through its consequences only)."""
    cdef int i, k = 0
    cdef int words = w.dwords
    cdef int b = anc_bit(w, m)
    cdef uint64_t *dst = &wk.anc[<size_t>m * words]
    for i in range(words):
        dst[i] = w.tmp2[i]
    dst[b >> 6] |= (<uint64_t>1) << (b & 63)
    for i in range(words):
        k += bits_popcount(dst[i])
    wk.parent[m] = -1
    add_node(wk, m, k)


cdef int nested_pattern(Work *w, Walk *wk, int nneed, int nelim) noexcept nogil:
    """One pattern of a nested rule (needs in w.nest_need, eliminations in
    w.nest_elim): its new OFF nodes added, how many (none when it needs nothing the
    walk removed)."""
    cdef int i, m, added = 0
    cdef bint any_parent = False
    memset(w.tmp, 0, w.dwords * sizeof(uint64_t))
    for i in range(nneed):
        m = w.nest_need[i] << 1
        if wk.mark[m] == wk.stamp:
            tmp_or(w, wk, m)
            any_parent = True
    if not any_parent:
        return 0
    for i in range(w.dwords):
        w.tmp2[i] = w.tmp[i]
    for i in range(nelim):
        m = w.nest_elim[i] << 1
        if wk.mark[m] != wk.stamp:
            add_nested(w, wk, m)
            added += 1
    return added


cdef void hash_order(Work *w, int nel) noexcept nogil:
    """se._hash_order on w.nest_elim[:nel] (kept cell by cell, each cell's digits
    ascending): a stable sort by cell index modulo SE's hash table size."""
    cdef int i, j, cells = 0, size = 16, key
    cdef int32_t e
    for i in range(nel):
        if i == 0 or w.cell_of[w.nest_elim[i]] != w.cell_of[w.nest_elim[i - 1]]:
            cells += 1
    while cells > size * 3 // 4:
        size *= 2
    for i in range(1, nel):
        e = w.nest_elim[i]
        key = w.cell_of[e] & (size - 1)
        j = i - 1
        while j >= 0 and (w.cell_of[w.nest_elim[j]] & (size - 1)) > key:
            w.nest_elim[j + 1] = w.nest_elim[j]
            j -= 1
        w.nest_elim[j + 1] = e


cdef inline int empty_cells(Work *w, int u) noexcept nogil:
    cdef int i, k = 0
    for i in range(w.n):
        if not w.s.values[w.s.t.units[u * w.n + i]]:
            k += 1
    return k


cdef int nested_offs(Work *w, Walk *wk) noexcept nogil:
    """se._Rater.nested_offs: pointing / claiming, hidden pairs, naked pairs, x-wings on
    the walk's grid (the first rule that adds anything ends the round), each in SE's
    order; their new OFF nodes are added to the walk. Returns how many."""
    cdef Solver *s = &w.s
    cdef const Tables *t = s.t
    cdef int n = w.n
    cdef uint64_t *g = w.wgrid
    cdef int cell, node, dig, i, j, k, u, v, e, x, y, a, b, side, first, cover, nneed, nel
    cdef int passes, lo, hi
    cdef int added = 0
    cdef uint64_t where, inside, outside, both, pair, rest, pj, pk
    cdef uint64_t pos[64]
    cdef int placed[64]
    for cell in range(w.cells):
        g[cell] = s.cand[cell]
    for i in range(wk.len):
        node = wk.queue[i]
        if not node & 1:
            cell = w.cell_of[node >> 1]
            g[cell] &= ~((<uint64_t>1) << ((node >> 1) - cell * n))
    # Pointing and claiming as SE's Locking: boxes on columns, boxes on rows, columns
    # on boxes, rows on boxes; by digit, then base unit, then crossing unit.
    for passes in range(4):
        lo = 2 * n if passes < 2 else (n if passes == 2 else 0)
        for dig in range(n):
            for u in range(lo, lo + n):
                where = 0
                for i in range(n):
                    if (g[t.units[u * n + i]] >> dig) & 1:
                        where |= (<uint64_t>1) << i
                if bits_popcount(where) < 2:
                    continue
                for e in range(t.cross_start[u], t.cross_start[u + 1]):
                    v = t.cross_unit[e]
                    if passes == 0 and not (n <= v < 2 * n):
                        continue  # boxes on columns only
                    if passes == 1 and v >= n:
                        continue  # boxes on rows only
                    if u >= 2 * n:
                        inside = t.cross_box_mask[e]
                        outside = t.cross_line_mask[e]
                    else:
                        inside = t.cross_line_mask[e]
                        outside = t.cross_box_mask[e]
                    if where & ~inside:
                        continue
                    nel = 0
                    for i in range(n):
                        cell = t.units[v * n + i]
                        if not (outside >> i) & 1 and (g[cell] >> dig) & 1:
                            w.nest_elim[nel] = cell * n + dig
                            nel += 1
                    if nel:
                        hash_order(w, nel)
                        nneed = 0
                        for i in range(n):
                            if not (inside >> i) & 1:
                                w.nest_need[nneed] = t.units[u * n + i] * n + dig
                                nneed += 1
                        added += nested_pattern(w, wk, nneed, nel)
    if added:
        return added
    # Hidden pairs as SE's HiddenSet(2): boxes, columns, rows with more than four empty
    # cells; digit pairs in colex order, each digit in two places or more.
    for k in range(3 * n):
        u = k + 2 * n if k < n else (k if k < 2 * n else k - 2 * n)
        if empty_cells(w, u) <= 4:
            continue
        for dig in range(n):
            pos[dig] = 0
            for i in range(n):
                if (g[t.units[u * n + i]] >> dig) & 1:
                    pos[dig] |= (<uint64_t>1) << i
        for y in range(n):
            for x in range(y):
                both = pos[x] | pos[y]
                if bits_popcount(pos[x]) < 2 or bits_popcount(pos[y]) < 2 or not two_bits(both):
                    continue
                pair = ((<uint64_t>1) << x) | ((<uint64_t>1) << y)
                nel = 0
                rest = both
                while rest:
                    i = bits_lowest_index(rest)
                    rest &= rest - 1
                    cell = t.units[u * n + i]
                    where = g[cell] & ~pair
                    while where:
                        w.nest_elim[nel] = cell * n + bits_lowest_index(where)
                        where &= where - 1
                        nel += 1
                if nel:
                    hash_order(w, nel)
                    nneed = 0
                    for i in range(n):
                        if not (both >> i) & 1:
                            cell = t.units[u * n + i]
                            w.nest_need[nneed] = cell * n + x
                            w.nest_need[nneed + 1] = cell * n + y
                            nneed += 2
                    added += nested_pattern(w, wk, nneed, nel)
    if added:
        return added
    # Naked pairs as SE's NakedSet(2): boxes, columns, rows with four empty cells or
    # more; cell pairs in colex order.
    for k in range(3 * n):
        u = k + 2 * n if k < n else (k if k < 2 * n else k - 2 * n)
        if empty_cells(w, u) < 4:
            continue
        for j in range(n):
            b = t.units[u * n + j]
            if bits_popcount(g[b]) < 2:
                continue
            for i in range(j):
                a = t.units[u * n + i]
                if bits_popcount(g[a]) < 2 or not two_bits(g[a] | g[b]):
                    continue
                pair = g[a] | g[b]
                nel = 0
                for e in range(n):
                    cell = t.units[u * n + e]
                    if cell == a or cell == b:
                        continue
                    where = g[cell] & pair
                    while where:
                        w.nest_elim[nel] = cell * n + bits_lowest_index(where)
                        where &= where - 1
                        nel += 1
                if nel:
                    hash_order(w, nel)
                    nneed = 0
                    for e in range(2):
                        cell = a if e == 0 else b
                        where = s.cand[cell] & ~pair
                        while where:
                            w.nest_need[nneed] = cell * n + bits_lowest_index(where)
                            where &= where - 1
                            nneed += 1
                    added += nested_pattern(w, wk, nneed, nel)
    if added:
        return added
    # X-wings as SE's Fisherman(2): base columns, then base rows; line pairs in colex
    # order, then the digits placed at most N - 4 times.
    for dig in range(n):
        placed[dig] = 0
    for cell in range(w.cells):
        if s.values[cell]:
            placed[s.values[cell] - 1] += 1
    for side in range(2):
        first = n if side == 0 else 0
        cover = n - first
        for k in range(n):
            for j in range(k):
                for dig in range(n):
                    if placed[dig] + 4 > n:
                        continue
                    pj = 0
                    pk = 0
                    for i in range(n):
                        if (g[t.units[(first + j) * n + i]] >> dig) & 1:
                            pj |= (<uint64_t>1) << i
                        if (g[t.units[(first + k) * n + i]] >> dig) & 1:
                            pk |= (<uint64_t>1) << i
                    if bits_popcount(pj) < 2 or bits_popcount(pk) < 2 or not two_bits(pj | pk):
                        continue
                    nel = 0
                    rest = pj
                    while rest:
                        i = bits_lowest_index(rest)
                        rest &= rest - 1
                        for e in range(n):
                            cell = t.units[(cover + i) * n + e]
                            v = t.cell_units[3 * cell + (0 if first == 0 else 1)]
                            if v != first + j and v != first + k and (g[cell] >> dig) & 1:
                                w.nest_elim[nel] = cell * n + dig
                                nel += 1
                    if nel:
                        hash_order(w, nel)
                        nneed = 0
                        for e in range(2):
                            v = j if e == 0 else k
                            for i in range(n):
                                if not (pj >> i) & 1:
                                    w.nest_need[nneed] = t.units[(first + v) * n + i] * n + dig
                                    nneed += 1
                        added += nested_pattern(w, wk, nneed, nel)
    if added == 0 and w.level4:
        # SE's level 4 runs its dynamic forcing chains instead of levels 2-3's rules.
        added = nested_chains(w, wk, ROUND_DYNAMIC)
    elif added == 0 and w.level2:
        added = nested_chains(w, wk, ROUND_STATIC)
        if added == 0 and w.level3 and w.work <= w.budget:
            added = nested_chains(w, wk, ROUND_MULTIPLE)
    return added


# ---------------------------------------------------------------------------------------
# SE's second nesting level ("+ Forcing Chains"): se._Rater._nested_chains and what it
# calls, on plain arrays


cdef enum:
    NESTED_CHAINS = 16  # a dry nested walk also runs the static chains on its grid
    NESTED_MULTIPLE = 32  # ... and then the static cell and region forcing chains
    NESTED_DYNAMIC = 64   # ... or, instead of both, SE's plain dynamic forcing chains
    ROUND_STATIC = 0      # a round's hint list: static_hints (level 2),
    ROUND_MULTIPLE = 1    # multiple_hints (level 3),
    ROUND_DYNAMIC = 2     # dynamic_hints (level 4)
    NO_CAUSE = -2
    NAKED_CAUSE = -1    # a cell's link; 0, 1, 2: the box's, row's, column's
    HINT_HEAD = 6       # a hint record's head: tenths, complexity, kind, nrem, ncause, nkey


cdef bint grow(void **p, int64_t *cap, int64_t need, size_t item) noexcept nogil:
    """Make room for `need` items of `item` bytes at p (doubling); False when memory
    ran out."""
    cdef int64_t c = cap[0]
    cdef void *q
    if need <= c:
        return True
    if c < 64:
        c = 64
    while c < need:
        c *= 2
    q = realloc(p[0], <size_t>c * item)
    if q == NULL:
        return False
    p[0] = q
    cap[0] = c
    return True


cdef bint nest_init(Work *w) noexcept nogil:
    """w.nest, once per Work (the first chain step that runs level 2)."""
    cdef const Tables *t = w.s.t
    cdef Nest *z
    cdef int nodes = w.nodes, cn = w.cells * w.n, k, cell, peer
    cdef bint level3
    cdef size_t path
    if w.nest != NULL:
        return True
    z = <Nest *>calloc(1, sizeof(Nest))
    if z == NULL:
        return False
    w.nest = z
    z.par = <int32_t *>malloc(nodes * sizeof(int32_t))
    z.cause = <int32_t *>malloc(nodes * sizeof(int32_t))
    z.mark = <int32_t *>calloc(nodes, sizeof(int32_t))
    z.list_on = <int32_t *>malloc((nodes + 1) * sizeof(int32_t))
    z.list_off = <int32_t *>malloc((nodes + 1) * sizeof(int32_t))
    z.links = <int32_t *>malloc(2 * (w.n + t.npeers + 4) * sizeof(int32_t))
    z.ent_cap = cn * (w.n + t.npeers + 1) + 1
    z.ent_node = <int32_t *>malloc(z.ent_cap * sizeof(int32_t))
    z.ent_parent = <int32_t *>malloc(z.ent_cap * sizeof(int32_t))
    z.ent_cause = <int32_t *>malloc(z.ent_cap * sizeof(int32_t))
    # Level 3's hints hold up to N chains, and its groups up to 2N walks at once: room
    # for them only when a chain step may try that level.
    level3 = w.nesting >= 3
    path = <size_t>(2 * w.n * (nodes + 1) + 2 if level3 else nodes + 2)
    z.path_node = <int32_t *>malloc(path * sizeof(int32_t))
    z.path_cause = <int32_t *>malloc(path * sizeof(int32_t))
    if level3:
        z.mw_par = <int32_t *>malloc(<size_t>2 * w.n * nodes * sizeof(int32_t))
        z.mw_cause = <int32_t *>malloc(<size_t>2 * w.n * nodes * sizeof(int32_t))
        z.mw_mark = <int32_t *>calloc(<size_t>2 * w.n * nodes, sizeof(int32_t))
        z.mw_order = <int32_t *>malloc(<size_t>2 * w.n * nodes * sizeof(int32_t))
    z.cand_mark = <int32_t *>calloc(cn, sizeof(int32_t))
    z.cand_back = <int32_t *>calloc(cn, sizeof(int32_t))
    z.cell_mark = <int32_t *>calloc(w.cells, sizeof(int32_t))
    z.cell_first = <int32_t *>malloc(w.cells * sizeof(int32_t))
    z.rem = <int32_t *>malloc(cn * sizeof(int32_t))
    z.rem_key = <int64_t *>malloc(cn * sizeof(int64_t))
    z.mask = <uint64_t *>malloc(w.words * sizeof(uint64_t))
    z.upos = <uint64_t *>malloc(3 * w.n * w.n * sizeof(uint64_t))
    z.peer_cause = <int32_t *>malloc(w.cells * t.npeers * sizeof(int32_t))
    if z.peer_cause != NULL:
        for k in range(w.cells * t.npeers):
            cell = k // t.npeers
            peer = w.chain_peers[k]
            if t.cell_units[3 * peer + 2] == t.cell_units[3 * cell + 2]:
                z.peer_cause[k] = 0
            elif t.cell_units[3 * peer] == t.cell_units[3 * cell]:
                z.peer_cause[k] = 1
            else:
                z.peer_cause[k] = 2
    z.st_nest_at = <int64_t *>malloc(cn * sizeof(int64_t))
    z.st_nest_len = <int32_t *>malloc(cn * sizeof(int32_t))
    z.ch_slots = 1024
    z.ch_slot = <int32_t *>malloc(z.ch_slots * sizeof(int32_t))
    for k in range(2):
        z.wl_pairs[k] = <int32_t *>malloc(2 * nodes * sizeof(int32_t))
    return not (
        not z.par or not z.cause or not z.mark or not z.list_on or not z.list_off
        or not z.links or not z.ent_node or not z.ent_parent or not z.ent_cause
        or not z.path_node or not z.path_cause or not z.cand_mark or not z.cand_back
        or not z.cell_mark or not z.cell_first or not z.rem or not z.rem_key or not z.mask
        or not z.upos or not z.peer_cause
        or not z.st_nest_at or not z.st_nest_len or not z.ch_slot
        or not z.wl_pairs[0] or not z.wl_pairs[1]
        or (level3 and (not z.mw_par or not z.mw_cause or not z.mw_mark or not z.mw_order))
    )


cdef void nest_free(Work *w) noexcept nogil:
    cdef Nest *z = w.nest
    cdef int k
    if z == NULL:
        return
    free(z.par)
    free(z.cause)
    free(z.mark)
    free(z.list_on)
    free(z.list_off)
    free(z.links)
    free(z.ent_node)
    free(z.ent_parent)
    free(z.ent_cause)
    free(z.path_node)
    free(z.path_cause)
    free(z.cand_mark)
    free(z.cand_back)
    free(z.cell_mark)
    free(z.cell_first)
    free(z.rem)
    free(z.rem_key)
    free(z.pool)
    free(z.hint_at)
    free(z.hint_key)
    free(z.hint_tmp)
    free(z.ch_slot)
    free(z.ch_hash)
    free(z.ch_key_at)
    free(z.ch_key_len)
    free(z.ch_cplx)
    free(z.ch_seen)
    free(z.ch_keys)
    for k in range(2):
        free(z.wl_pairs[k])
    free(z.st_anc)
    free(z.st_nest_at)
    free(z.st_nest_len)
    free(z.st_nest)
    free(z.mask)
    free(z.upos)
    free(z.peer_cause)
    free(z.mw_par)
    free(z.mw_cause)
    free(z.mw_mark)
    free(z.mw_order)
    free(z.rc_slot)
    free(z.rc_entry)
    free(z.rc_grids)
    free(z.rc_pool)
    free(z.rc_hints)
    dyn_free(z)
    free(z)
    w.nest = NULL


cdef void nest_new_step(Work *w) noexcept nogil:
    """Forget the nested chains of the last chain step (se._Rater.chain_step)."""
    cdef Nest *z = w.nest
    cdef int64_t i
    for i in range(z.ch_slots):
        z.ch_slot[i] = -1
    z.nchains = 0
    z.ch_keys_len = 0
    z.ch_stamp = 0
    z.oom = False


cdef int chain_id(Work *w, const int32_t *key, int length, int complexity) noexcept nogil:
    """The id of the nested chain with these nodes in this chain step (a new one for
    a chain not met before); -1 when memory ran out."""
    cdef Nest *z = w.nest
    cdef uint64_t h = 1469598103934665603ULL
    cdef int64_t i, slots, mask, j
    cdef int c, k, f
    cdef int32_t *grown
    cdef bint same
    cdef void **fields[5]
    cdef size_t items[5]
    for k in range(length):
        h = (h ^ <uint64_t>key[k]) * 1099511628211ULL
    h = (h ^ <uint64_t>length) * 1099511628211ULL
    if 2 * (z.nchains + 1) > z.ch_slots:
        # Twice the slots, every chain placed again.
        slots = 2 * z.ch_slots
        grown = <int32_t *>realloc(z.ch_slot, <size_t>slots * sizeof(int32_t))
        if grown == NULL:
            return -1
        z.ch_slot = grown
        z.ch_slots = slots
        for i in range(slots):
            grown[i] = -1
        for c in range(z.nchains):
            j = <int64_t>(z.ch_hash[c] & <uint64_t>(slots - 1))
            while grown[j] >= 0:
                j = (j + 1) & (slots - 1)
            grown[j] = c
    mask = z.ch_slots - 1
    i = <int64_t>(h & <uint64_t>mask)
    while z.ch_slot[i] >= 0:
        c = z.ch_slot[i]
        if z.ch_hash[c] == h and z.ch_key_len[c] == length:
            same = True
            for k in range(length):
                if z.ch_keys[z.ch_key_at[c] + k] != key[k]:
                    same = False
                    break
            if same:
                return c
        i = (i + 1) & mask
    c = z.nchains
    if c >= z.ch_cap:
        # The five per-chain arrays share one capacity: each grows from it alike.
        fields[0] = <void **>&z.ch_key_at
        fields[1] = <void **>&z.ch_key_len
        fields[2] = <void **>&z.ch_cplx
        fields[3] = <void **>&z.ch_seen
        fields[4] = <void **>&z.ch_hash
        items[0] = sizeof(int64_t)
        items[1] = items[2] = items[3] = sizeof(int32_t)
        items[4] = sizeof(uint64_t)
        for f in range(5):
            j = z.ch_cap
            if not grow(fields[f], &j, c + 1, items[f]):
                return -1
        z.ch_cap = j
    if not grow(<void **>&z.ch_keys, &z.ch_keys_cap, z.ch_keys_len + length, sizeof(int32_t)):
        return -1
    for k in range(length):
        z.ch_keys[z.ch_keys_len + k] = key[k]
    z.ch_key_at[c] = z.ch_keys_len
    z.ch_keys_len += length
    z.ch_key_len[c] = length
    z.ch_hash[c] = h
    z.ch_cplx[c] = complexity
    z.ch_seen[c] = 0
    z.ch_slot[i] = c
    z.nchains = c + 1
    return c


cdef int se_offs(const Work *w, const uint64_t *g, int node, bint y, int32_t *out) noexcept nogil:
    """se._Rater._se_offs: an ON node's OFF links on grid g in SE's order (the cell's
    other candidates with y, then the digit's peers: box, row, column), as (node,
    cause) pairs in out; how many. The peers' causes come from w.nest.peer_cause."""
    cdef const Tables *t = w.s.t
    cdef int n = w.n
    cdef int c = node >> 1
    cdef int cell = w.cell_of[c]
    cdef int dig = c - cell * n
    cdef int k = 0, i, j
    cdef uint64_t bit = (<uint64_t>1) << dig
    cdef uint64_t rest
    if y:
        rest = g[cell] & ~bit
        while rest:
            out[2 * k] = (cell * n + bits_lowest_index(rest)) << 1
            out[2 * k + 1] = NAKED_CAUSE
            rest &= rest - 1
            k += 1
    for i in range(cell * t.npeers, (cell + 1) * t.npeers):
        j = w.chain_peers[i]
        if g[j] & bit:
            out[2 * k] = (j * n + dig) << 1
            out[2 * k + 1] = w.nest.peer_cause[i]
            k += 1
    return k


cdef int se_ons(
    const Work *w, const uint64_t *g, int node, bint y, bint x, int32_t *out
) noexcept nogil:
    """se._Rater._se_ons: an OFF node's static ON links on grid g in SE's order (the
    other candidate of a bivalue cell with y; the other place of the digit in the box,
    row, column holding it twice with x), as (node, cause) pairs; how many. g's places
    are those fill_upos left in w.nest.upos."""
    cdef const Tables *t = w.s.t
    cdef int n = w.n
    cdef int c = node >> 1
    cdef int cell = w.cell_of[c]
    cdef int dig = c - cell * n
    cdef int k = 0, i, u, cause, other
    cdef uint64_t bit = (<uint64_t>1) << dig
    cdef uint64_t rest
    if y and two_bits(g[cell]):
        out[0] = (((cell * n + bits_lowest_index(g[cell] & ~bit)) << 1) | 1)
        out[1] = NAKED_CAUSE
        k = 1
    if x:
        for cause in range(3):
            i = 3 * cell + (cause + 2) % 3
            u = t.cell_units[i]
            rest = w.nest.upos[u * n + dig] & ~((<uint64_t>1) << t.position[i])
            if rest and not rest & (rest - 1):
                other = t.units[u * n + bits_lowest_index(rest)]
                out[2 * k] = ((other * n + dig) << 1) | 1
                out[2 * k + 1] = cause
                k += 1
    return k


cdef bint static_reaches(Work *w, const uint64_t *g, int start, bint y, bint x) noexcept nogil:
    """se._Rater._reaches: whether the static walk on g leads from `start` back to it."""
    cdef Nest *z = w.nest
    cdef int top = 1, node, k, i, m
    z.stamp += 1
    z.list_on[0] = start
    while top:
        top -= 1
        node = z.list_on[top]
        if node & 1:
            k = se_offs(w, g, node, y, z.links)
        else:
            k = se_ons(w, g, node, y, x, z.links)
        for i in range(k):
            m = z.links[2 * i]
            if m == start:
                return True
            if z.mark[m] != z.stamp:
                z.mark[m] = z.stamp
                z.list_on[top] = m
                top += 1
    return False


cdef bint hints_room(Nest *z, int64_t count) noexcept nogil:
    """Room for `count` hints' places, keys and sort scratch; False when memory ran
    out."""
    cdef int64_t cap = z.hint_cap
    if count <= cap:
        return True
    if not grow(<void **>&z.hint_at, &z.hint_cap, count, sizeof(int64_t)):
        return False
    z.hint_cap = cap
    if not grow(<void **>&z.hint_key, &z.hint_cap, count, sizeof(int64_t)):
        return False
    z.hint_cap = cap
    return grow(<void **>&z.hint_tmp, &z.hint_cap, count, sizeof(int64_t))


cdef bint add_hint(
    Work *w, int tenths, int complexity, int kind, const int32_t *rem, int nrem,
    int length, bint cycle,
) noexcept nogil:
    """Record a hint of this round from the chain in path_node / path_cause (`length`
    nodes from its end back to its source): its removals, the nodes whose causes give
    its rule parents (a cycle's: all but its source's entry; a forcing chain's: its ON
    nodes with a cause) and its key (every node). False when memory ran out."""
    cdef Nest *z = w.nest
    cdef int ncause = 0, i, at
    cdef int64_t need = HINT_HEAD + nrem + 3 * length
    cdef int32_t *rec
    if not grow(<void **>&z.pool, &z.pool_cap, z.pool_len + need, sizeof(int32_t)):
        return False
    if not hints_room(z, z.nhints + 1):
        return False
    rec = &z.pool[z.pool_len]
    rec[0] = tenths
    rec[1] = complexity
    rec[2] = kind
    rec[3] = nrem
    rec[5] = length
    at = HINT_HEAD
    for i in range(nrem):
        rec[at + i] = rem[i]
    at += nrem
    for i in range(length - 1 if cycle else length):
        if cycle or (z.path_node[i] & 1 and z.path_cause[i] != NO_CAUSE):
            rec[at + 2 * ncause] = z.path_node[i]
            rec[at + 2 * ncause + 1] = z.path_cause[i]
            ncause += 1
    rec[4] = ncause
    at += 2 * ncause
    for i in range(length):
        rec[at + i] = z.path_node[i]
    z.hint_at[z.nhints] = z.pool_len
    z.hint_key[z.nhints] = (
        (<int64_t>tenths << 48) | (<int64_t>complexity << 32) | (<int64_t>kind << 28)
        | z.nhints
    )
    z.nhints += 1
    z.pool_len += at + length
    return True


cdef int cycle_removable(Work *w, const uint64_t *g, int length) noexcept nogil:
    """se._Rater._cycle_removable for the cycle in path_node (`length` entries, the
    last its source again): into z.rem, in SE's order (a Java HashMap's by cell); how
    many."""
    cdef Nest *z = w.nest
    cdef const Tables *t = w.s.t
    cdef int n = w.n, cw = w.cwords
    cdef int i, node, c, cell, dig, k, p, nrem = 0, nboth = 0, cells = 0, cap, j
    cdef int64_t key
    cdef uint64_t where
    z.stamp += 1  # also the cycle's cells, the removals and the first-cell stamps
    for i in range(length - 1):
        z.cell_mark[w.cell_of[z.path_node[i] >> 1]] = z.stamp
    for i in range(length - 1):
        node = z.path_node[i]
        c = node >> 1
        cell = w.cell_of[c]
        dig = c - cell * n
        for k in range(cw):
            where = w.peer_bits[cell * cw + k]
            while where:
                p = (k << 6) | bits_lowest_index(where)
                where &= where - 1
                if z.cell_mark[p] == z.stamp or not (g[p] >> dig) & 1:
                    continue
                if node & 1:
                    if z.cand_mark[p * n + dig] != z.stamp:
                        z.cand_mark[p * n + dig] = z.stamp
                        z.rem[nrem] = p * n + dig
                        nrem += 1
                else:
                    z.cand_back[p * n + dig] = z.stamp
    # Those cancelled both ways round, in the forward ones' order.
    for i in range(nrem):
        if z.cand_back[z.rem[i]] == z.stamp:
            z.rem[nboth] = z.rem[i]
            nboth += 1
    z.stamp += 1
    for i in range(nboth):
        cell = w.cell_of[z.rem[i]]
        if z.cell_mark[cell] != z.stamp:
            z.cell_mark[cell] = z.stamp
            z.cell_first[cell] = cells
            cells += 1
    cap = 16
    while cells > cap * 3 // 4:
        cap *= 2
    for i in range(nboth):
        cell = w.cell_of[z.rem[i]]
        z.rem_key[i] = ((<int64_t>(cell % cap) * 4096 + z.cell_first[cell]) * 4096
                        + (z.rem[i] - cell * n))
    # Insertion sort (a few removals), the candidate beside its key.
    for i in range(1, nboth):
        key = z.rem_key[i]
        c = z.rem[i]
        j = i - 1
        while j >= 0 and z.rem_key[j] > key:
            z.rem_key[j + 1] = z.rem_key[j]
            z.rem[j + 1] = z.rem[j]
            j -= 1
        z.rem_key[j + 1] = key
        z.rem[j + 1] = c
    return nboth


cdef int static_cycles(Work *w, const uint64_t *g, int source, bint y, bint x, int kind) noexcept nogil:
    """se._Rater._static_cycles from `source` (ON), each cycle with removals recorded
    as a hint: 0, 1 budget spent, -1 no memory."""
    cdef Nest *z = w.nest
    cdef int nent = 1, length = 0, head, tail, index, node, k, i, m, up, plen, nrem
    cdef int complexity, base
    cdef int32_t on_stamp
    if not static_reaches(w, g, source, y, x):
        return 0
    z.ent_node[0] = source
    z.ent_parent[0] = -1
    z.ent_cause[0] = NO_CAUSE
    z.stamp += 1
    on_stamp = z.stamp
    z.mark[source] = on_stamp
    # Entries from `head` to `tail` are the pending ON level, then its OFF level.
    head = 0
    tail = 1
    while head < tail:
        length += 1
        for index in range(head, tail):
            node = z.ent_node[index]
            w.work += 1
            if w.work > w.budget:
                return 1
            k = se_offs(w, g, node, y, z.links)
            for i in range(k):
                m = z.links[2 * i]
                up = z.ent_parent[index]
                while up >= 0 and z.ent_node[up] != m:
                    up = z.ent_parent[up]
                if up < 0:
                    z.ent_node[nent] = m
                    z.ent_parent[nent] = index
                    z.ent_cause[nent] = z.links[2 * i + 1]
                    nent += 1
        head = tail
        tail = nent
        length += 1
        for index in range(head, tail):
            w.work += 1
            if w.work > w.budget:
                return 1
            k = se_ons(w, g, z.ent_node[index], y, x, z.links)
            for i in range(k):
                m = z.links[2 * i]
                if length >= 4 and m == source:
                    z.path_node[0] = m
                    z.path_cause[0] = z.links[2 * i + 1]
                    plen = 1
                    up = index
                    while up >= 0:
                        z.path_node[plen] = z.ent_node[up]
                        z.path_cause[plen] = z.ent_cause[up]
                        plen += 1
                        up = z.ent_parent[up]
                    nrem = cycle_removable(w, g, plen)
                    if nrem:
                        complexity = plen - 1
                        base = BASE[T_XY_CYCLE] if kind == 4 else BASE[T_X_CYCLE]
                        if not add_hint(
                            w, base + length_tenths(complexity - 2), complexity, kind,
                            z.rem, nrem, plen, True,
                        ):
                            return -1
                if z.mark[m] != on_stamp:
                    z.mark[m] = on_stamp
                    z.ent_node[nent] = m
                    z.ent_parent[nent] = index
                    z.ent_cause[nent] = z.links[2 * i + 1]
                    nent += 1
        head = tail
        tail = nent
    return 0


cdef int target_removals(Work *w, const uint64_t *g, int target) noexcept nogil:
    """se._Rater._target_removals: what a chain's target removes on g (an ON target the
    cell's other candidates, an OFF one itself), into z.rem; how many."""
    cdef Nest *z = w.nest
    cdef int n = w.n
    cdef int cell = w.cell_of[target >> 1]
    cdef int dig = (target >> 1) - cell * n
    cdef int nrem = 0
    cdef uint64_t rest
    if not target & 1:
        z.rem[0] = cell * n + dig
        return 1
    rest = g[cell] & ~((<uint64_t>1) << dig)
    while rest:
        z.rem[nrem] = cell * n + bits_lowest_index(rest)
        rest &= rest - 1
        nrem += 1
    return nrem


cdef int static_forcing(Work *w, const uint64_t *g, int source, bint y, int kind) noexcept nogil:
    """se._Rater._static_forcing from `source`: the chain to its negation, if any,
    recorded as a hint: 0, 1 budget spent, -1 no memory."""
    cdef Nest *z = w.nest
    cdef const Tables *t = w.s.t
    cdef int n = w.n
    cdef int non = 0, noff = 0, count, i, k, j, p, m, up, plen, nrem, base, nl
    cdef bint found = False
    z.stamp += 1
    z.mark[source] = z.stamp
    z.par[source] = -1
    z.cause[source] = NO_CAUSE
    if source & 1:
        z.list_on[0] = source
        non = 1
    else:
        z.list_off[0] = source
        noff = 1
    while non or noff:
        for j in range(2):
            if j == 0:
                count = non
                non = 0
            else:
                count = noff
                noff = 0
            for i in range(count):
                p = z.list_on[i] if j == 0 else z.list_off[i]
                w.work += 1
                if w.work > w.budget:
                    return 1
                if j == 0:
                    nl = se_offs(w, g, p, y, z.links)
                else:
                    nl = se_ons(w, g, p, y, True, z.links)
                for k in range(nl):
                    m = z.links[2 * k]
                    if m == (source ^ 1) and not found:
                        found = True
                        z.path_node[0] = m
                        z.path_cause[0] = z.links[2 * k + 1]
                        plen = 1
                        up = p
                        while up >= 0:
                            z.path_node[plen] = up
                            z.path_cause[plen] = z.cause[up]
                            plen += 1
                            up = z.par[up]
                        nrem = target_removals(w, g, m)
                        if nrem:
                            base = BASE[T_FORCING] if kind == 4 else BASE[T_X_CHAIN]
                            if not add_hint(
                                w, base + length_tenths(plen - 2), plen, kind, z.rem, nrem,
                                plen, False,
                            ):
                                return -1
                    if z.mark[m] != z.stamp:
                        z.mark[m] = z.stamp
                        z.par[m] = p
                        z.cause[m] = z.links[2 * k + 1]
                        if m & 1:
                            z.list_on[non] = m
                            non += 1
                        else:
                            z.list_off[noff] = m
                            noff += 1
    return 0


cdef void sort_keys(int64_t *a, int64_t *tmp, int count) noexcept nogil:
    """Ascending merge sort of distinct keys."""
    cdef int width = 1, lo, mid, hi, i, j, k
    cdef int64_t *src = a
    cdef int64_t *dst = tmp
    cdef int64_t *swap
    while width < count:
        lo = 0
        while lo < count:
            mid = lo + width if lo + width < count else count
            hi = lo + 2 * width if lo + 2 * width < count else count
            i = lo
            j = mid
            k = lo
            while i < mid and j < hi:
                if src[i] <= src[j]:
                    dst[k] = src[i]
                    i += 1
                else:
                    dst[k] = src[j]
                    j += 1
                k += 1
            while i < mid:
                dst[k] = src[i]
                i += 1
                k += 1
            while j < hi:
                dst[k] = src[j]
                j += 1
                k += 1
            lo = hi
        swap = src
        src = dst
        dst = swap
        width *= 2
    if src != a:
        for i in range(count):
            a[i] = src[i]


cdef void fill_upos(Work *w, const uint64_t *g) noexcept nogil:
    """w.nest.upos for grid g: the static searches' (se_ons) hidden-pair lookups."""
    cdef const Tables *t = w.s.t
    cdef uint64_t *upos = w.nest.upos
    cdef int n = w.n, cell, dig, k
    cdef uint64_t rest
    memset(upos, 0, 3 * n * n * sizeof(uint64_t))
    for cell in range(w.cells):
        rest = g[cell]
        while rest:
            dig = bits_lowest_index(rest)
            rest &= rest - 1
            for k in range(3):
                upos[t.cell_units[3 * cell + k] * n + dig] |= (
                    (<uint64_t>1) << t.position[3 * cell + k]
                )


cdef int static_hints(Work *w, const uint64_t *g) noexcept nogil:
    """se._Rater._static_hints on grid g: every x-, y- and xy-cycle and forcing x- and
    xy-chain with removals, in z.hint_key sorted as SE sorts them (difficulty,
    complexity, kind, then as found): 0, 1 budget spent, -1 no memory."""
    cdef Nest *z = w.nest
    cdef int n = w.n
    cdef int kind, cell, size, dig, source, r
    cdef bint x, y
    cdef uint64_t rest
    fill_upos(w, g)
    z.pool_len = 0
    z.nhints = 0
    for kind in range(2, 5):
        y = kind != 2
        x = kind != 3
        for cell in range(w.cells):
            size = bits_popcount(g[cell])
            if size < 2 or (not x and size > 2):
                continue
            rest = g[cell]
            while rest:
                dig = bits_lowest_index(rest)
                rest &= rest - 1
                source = ((cell * n + dig) << 1) | 1
                r = static_cycles(w, g, source, y, x, kind)
                if r == 0 and x:
                    r = static_forcing(w, g, source, y, kind)
                    if r == 0:
                        r = static_forcing(w, g, source ^ 1, y, kind)
                if r != 0:
                    return r
                if w.work > w.budget:
                    return 1
    sort_keys(z.hint_key, z.hint_tmp, z.nhints)
    return 0


cdef void static_walk(Work *w, const uint64_t *g, int source, int slot) noexcept nogil:
    """se._Rater._static_walk into `slot`: SE's static walk from `source` on g (cell
    and unit links, ON nodes first, each node once with its first parent) up to its
    first contradiction."""
    cdef Nest *z = w.nest
    cdef size_t at = <size_t>slot * w.nodes
    cdef int32_t *par = &z.mw_par[at]
    cdef int32_t *cause = &z.mw_cause[at]
    cdef int32_t *mark = &z.mw_mark[at]
    cdef int32_t *order = &z.mw_order[at]
    cdef int length = 1, on_head = 0, off_head = 0, node, k, i, m
    cdef int32_t st
    z.mw_stamp += 1
    st = z.mw_stamp
    z.mw_walk[slot] = st
    order[0] = source
    mark[source] = st
    par[source] = -1
    cause[source] = NO_CAUSE
    while True:
        while on_head < length and not order[on_head] & 1:
            on_head += 1
        if on_head < length:
            node = order[on_head]
            on_head += 1
            k = se_offs(w, g, node, True, z.links)
        else:
            while off_head < length and order[off_head] & 1:
                off_head += 1
            if off_head == length:
                break
            node = order[off_head]
            off_head += 1
            k = se_ons(w, g, node, True, True, z.links)
        w.work += 1
        for i in range(k):
            m = z.links[2 * i]
            if mark[m ^ 1] == st:
                z.mw_len[slot] = length
                return  # a contradiction ends SE's walk
            if mark[m] != st:
                mark[m] = st
                par[m] = node
                cause[m] = z.links[2 * i + 1]
                order[length] = m
                length += 1
    z.mw_len[slot] = length


cdef bint note_multiple(
    Work *w, const uint64_t *g, int count, int start_cause, int kind
) noexcept nogil:
    """se._Rater._note_multiple for the walks in slots z.mw_slots[:count]: a hint per
    node every walk reaches (ON ones first, in the first walk's order). False when
    memory ran out."""
    cdef Nest *z = w.nest
    cdef int on, idx, j, target, slot, nrem, plen, complexity, node
    cdef size_t at
    cdef int first = z.mw_slots[0]
    cdef const int32_t *order = &z.mw_order[<size_t>first * w.nodes]
    cdef bint common
    for on in range(1, -1, -1):
        for idx in range(z.mw_len[first]):
            target = order[idx]
            if (target & 1) != on:
                continue
            common = True
            for j in range(1, count):
                slot = z.mw_slots[j]
                if z.mw_mark[<size_t>slot * w.nodes + target] != z.mw_walk[slot]:
                    common = False
                    break
            if not common:
                continue
            nrem = target_removals(w, g, target)
            if nrem == 0:
                continue
            plen = 0
            complexity = 0
            for j in range(count):
                slot = z.mw_slots[j]
                at = <size_t>slot * w.nodes
                if j:
                    z.path_node[plen] = -1
                    z.path_cause[plen] = NO_CAUSE
                    plen += 1
                node = target
                while node >= 0:
                    z.path_node[plen] = node
                    z.path_cause[plen] = (
                        start_cause if z.mw_par[at + node] < 0 else z.mw_cause[at + node]
                    )
                    plen += 1
                    complexity += 1
                    node = z.mw_par[at + node]
            if not add_hint(
                w, BASE[T_CELL] + length_tenths(complexity - 2), complexity, kind, z.rem,
                nrem, plen, False,
            ):
                return False
    return True


cdef int multiple_hints(Work *w, const uint64_t *g) noexcept nogil:
    """se._Rater._multiple_hints on grid g: SE's static cell and region forcing chains,
    in z.hint_key sorted as SE sorts them: 0, 1 budget spent, -1 no memory."""
    cdef Nest *z = w.nest
    cdef const Tables *t = w.s.t
    cdef int n = w.n
    cdef int cell, dig, nv, cause, u, i, c, count
    cdef uint64_t rest
    fill_upos(w, g)
    z.pool_len = 0
    z.nhints = 0
    for cell in range(w.cells):
        if bits_popcount(g[cell]) < 3:
            continue
        nv = 0
        rest = g[cell]
        while rest:
            dig = bits_lowest_index(rest)
            rest &= rest - 1
            static_walk(w, g, ((cell * n + dig) << 1) | 1, nv)
            for cause in range(3):
                u = t.cell_units[3 * cell + (cause + 2) % 3]
                count = 0
                for i in range(n):
                    c = t.units[u * n + i]
                    if (g[c] >> dig) & 1:
                        if count == 0 and c != cell:
                            break
                        if count:
                            static_walk(w, g, ((c * n + dig) << 1) | 1, n + count)
                            z.mw_slots[count] = n + count
                        count += 1
                if count < 2:
                    continue
                z.mw_slots[0] = nv
                if not note_multiple(w, g, count, cause, 6):
                    return -1
            nv += 1
            if w.work > w.budget:
                return 1
        for i in range(nv):
            z.mw_slots[i] = i
        if not note_multiple(w, g, nv, NAKED_CAUSE, 5):
            return -1
    sort_keys(z.hint_key, z.hint_tmp, z.nhints)
    return 0


# ---------------------------------------------------------------------------------------
# SE's fourth nesting level ("+ Dynamic Forcing Chains"): se._Rater._dynamic_hints, its
# dynamic walks on a dry walk's grid in their own buffers


cdef void dyn_free(Nest *z) noexcept nogil:
    cdef int k
    if z.dw != NULL:
        for k in range(z.dw_made):
            walk_free(&z.dw[k])
        free(z.dw)
        z.dw = NULL
    free(z.dw_cause)
    free(z.dw_walked)
    free(z.dg_cell)
    free(z.dg_cell_at)
    free(z.dg_unit)
    free(z.dg_unit_at)
    free(z.dtmp)
    free(z.dclash)
    free(z.dmask)
    z.dw_cause = z.dw_walked = z.dg_cell = z.dg_cell_at = z.dg_unit = z.dg_unit_at = NULL
    z.dtmp = z.dclash = z.dmask = NULL
    z.dw_dwords = 0
    z.dw_made = 0


cdef bint dyn_ready(Work *w) noexcept nogil:
    """Level 4's walks and scratch, with room for this step's ancestor rows (w.dwords);
    False when memory ran out."""
    cdef Nest *z = w.nest
    cdef int k, slots = 2 * w.n, nodes = w.nodes, cn = 3 * w.n * w.n
    cdef bint ok = True
    if z.dw != NULL and z.dw_dwords >= w.dwords:
        return True
    dyn_free(z)
    z.dw = <Walk *>calloc(slots, sizeof(Walk))
    if z.dw == NULL:
        return False
    z.dw_dwords = w.dwords
    for k in range(slots):
        z.dw_made += 1  # walk_free copes with a walk allocated in part
        if not walk_init(&z.dw[k], nodes, w.dwords):
            ok = False
            break
        z.dw[k].stamp = 0
        memset(z.dw[k].mark, 0, nodes * sizeof(int32_t))
    z.dw_cause = <int32_t *>malloc(<size_t>slots * nodes * sizeof(int32_t))
    z.dw_walked = <int32_t *>calloc(nodes, sizeof(int32_t))
    z.dg_cell = <int32_t *>malloc(w.cells * sizeof(int32_t))
    z.dg_cell_at = <int32_t *>calloc(w.cells, sizeof(int32_t))
    z.dg_unit = <int32_t *>malloc(cn * sizeof(int32_t))
    z.dg_unit_at = <int32_t *>calloc(cn, sizeof(int32_t))
    z.dtmp = <uint64_t *>malloc(w.dwords * sizeof(uint64_t))
    z.dclash = <uint64_t *>malloc(w.dwords * sizeof(uint64_t))
    z.dmask = <uint64_t *>malloc(w.dwords * sizeof(uint64_t))
    z.dw_stamp = 0
    z.dg_stamp = 0
    ok = ok and not (
        not z.dw_cause or not z.dw_walked or not z.dg_cell or not z.dg_cell_at
        or not z.dg_unit or not z.dg_unit_at or not z.dtmp or not z.dclash or not z.dmask
    )
    if not ok:
        dyn_free(z)
    return ok


cdef inline void dyn_tmp_or(const Work *w, const Walk *wk, int node) noexcept nogil:
    """z.dtmp |= the ancestors of an OFF node taken in a level-4 walk (tmp_or)."""
    cdef int i, b
    cdef int parent = wk.parent[node]
    cdef uint64_t *dst = w.nest.dtmp
    cdef const uint64_t *src = &wk.anc[<size_t>(node if parent < 0 else parent) * w.dwords]
    for i in range(w.dwords):
        dst[i] |= src[i]
    if parent >= 0:
        b = anc_bit(w, node)
        dst[b >> 6] |= (<uint64_t>1) << (b & 63)


cdef inline int dyn_offer(Work *w, Walk *wk, int m, int parent) noexcept nogil:
    """offer() for OFF node m of a level-4 walk: -1, or the contradiction's complexity
    (its ancestors in z.dclash) when m's opposite was reached before."""
    cdef int i, k, b
    cdef uint64_t *clash
    if wk.mark[m] == wk.stamp:
        return -1
    k = wk.count[parent] + 1
    if wk.mark[m ^ 1] == wk.stamp:
        clash = w.nest.dclash
        for i in range(w.dwords):
            clash[i] = wk.anc[<size_t>parent * w.dwords + i]
        b = anc_bit(w, m)
        clash[b >> 6] |= (<uint64_t>1) << (b & 63)
        anc_or(w, wk, m ^ 1, clash)
        return k + wk.count[m ^ 1]
    wk.parent[m] = parent
    add_node(wk, m, k)
    return -1


cdef inline int dyn_offer_tmp(Work *w, Walk *wk, int32_t *cause, int m, int c) noexcept nogil:
    """offer_tmp() for ON node m of a level-4 walk, its parents' ancestors in z.dtmp,
    its cause c (the first one found, as SE's)."""
    cdef Nest *z = w.nest
    cdef int i, k = 0
    cdef int b = anc_bit(w, m)
    cdef uint64_t *dst
    if wk.mark[m] == wk.stamp:
        return -1
    z.dtmp[b >> 6] |= (<uint64_t>1) << (b & 63)
    for i in range(w.dwords):
        k += bits_popcount(z.dtmp[i])
    cause[m] = c
    if wk.mark[m ^ 1] == wk.stamp:
        for i in range(w.dwords):
            z.dclash[i] = z.dtmp[i]
        anc_or(w, wk, m ^ 1, z.dclash)
        return k + wk.count[m ^ 1]
    dst = &wk.anc[<size_t>m * w.dwords]
    for i in range(w.dwords):
        dst[i] = z.dtmp[i]
    add_node(wk, m, k)
    return -1


cdef int dyn_walk(Work *w, int slot, const uint64_t *g, int start, bint counted) noexcept nogil:
    """se._Rater.walk with cell, unit and dynamic links and no nesting, on grid g (its
    places in z.upos) into level 4's walk `slot`, recording each ON node's cause: the
    contradiction's complexity (its ancestors in z.dclash) or -1. A walk that is not
    `counted` was counted before in this search (the twin keeps it): it adds no work
    and is never cut by the budget."""
    cdef Nest *z = w.nest
    cdef const Tables *t = w.s.t
    cdef Walk *wk = &z.dw[slot]
    cdef int32_t *cause = &z.dw_cause[<size_t>slot * w.nodes]
    cdef int n = w.n
    cdef int on_head = 0, off_head = 0, node, c, cell_now, dig, e, k, j, i, u, off, left, clash
    cdef int target = 0  # set where one candidate is left (see walk)
    cdef uint64_t bit, rest, cc, where
    cdef int32_t stamp
    wk.stamp += 1
    stamp = wk.stamp
    wk.len = 0
    add_node(wk, start, 1)
    z.dg_stamp += 1
    wk.parent[start] = -1
    cause[start] = NO_CAUSE
    memset(&wk.anc[<size_t>start * w.dwords], 0, w.dwords * sizeof(uint64_t))
    i = anc_bit(w, start)
    wk.anc[<size_t>start * w.dwords + (i >> 6)] = (<uint64_t>1) << (i & 63)
    while True:
        while on_head < wk.len and not (wk.queue[on_head] & 1):
            on_head += 1
        if on_head < wk.len:
            node = wk.queue[on_head]
            on_head += 1
        else:
            while off_head < wk.len and (wk.queue[off_head] & 1):
                off_head += 1
            if off_head == wk.len:
                break
            node = wk.queue[off_head]
            off_head += 1
        wk.qpos[node] = -1  # taken
        if counted:
            w.work += 1
        c = node >> 1
        cell_now = w.cell_of[c]
        dig = c - cell_now * n
        bit = (<uint64_t>1) << dig
        if node & 1:
            rest = g[cell_now] & ~bit
            while rest:
                e = bits_lowest_index(rest)
                rest &= rest - 1
                clash = dyn_offer(w, wk, (cell_now * n + e) << 1, node)
                if clash >= 0:
                    return clash
            for k in range(t.npeers):
                j = w.chain_peers[cell_now * t.npeers + k]
                if (g[j] >> dig) & 1:
                    clash = dyn_offer(w, wk, (j * n + dig) << 1, node)
                    if clash >= 0:
                        return clash
        else:
            cc = g[cell_now]
            if z.dg_cell_at[cell_now] != z.dg_stamp:
                z.dg_cell_at[cell_now] = z.dg_stamp
                z.dg_cell[cell_now] = 0
            z.dg_cell[cell_now] += 1
            left = bits_popcount(cc) - z.dg_cell[cell_now]
            if left == 1:
                memset(z.dtmp, 0, w.dwords * sizeof(uint64_t))
                rest = cc
                while rest:
                    e = bits_lowest_index(rest)
                    rest &= rest - 1
                    off = (cell_now * n + e) << 1
                    if wk.mark[off] == stamp and wk.qpos[off] < 0:
                        dyn_tmp_or(w, wk, off)
                    else:
                        target = e
                clash = dyn_offer_tmp(
                    w, wk, cause, ((cell_now * n + target) << 1) | 1, NAKED_CAUSE
                )
                if clash >= 0:
                    return clash
            for k in range(3):
                # SE's order: box, row, column (cell_units: row, column, box).
                u = t.cell_units[3 * cell_now + (k + 2) % 3]
                where = z.upos[u * n + dig]
                j = u * n + dig
                if z.dg_unit_at[j] != z.dg_stamp:
                    z.dg_unit_at[j] = z.dg_stamp
                    z.dg_unit[j] = 0
                z.dg_unit[j] += 1
                left = bits_popcount(where) - z.dg_unit[j]
                if left == 1:
                    memset(z.dtmp, 0, w.dwords * sizeof(uint64_t))
                    rest = where
                    while rest:
                        i = bits_lowest_index(rest)
                        rest &= rest - 1
                        off = (t.units[u * n + i] * n + dig) << 1
                        if wk.mark[off] == stamp and wk.qpos[off] < 0:
                            dyn_tmp_or(w, wk, off)
                        else:
                            target = i
                    clash = dyn_offer_tmp(
                        w, wk, cause, ((t.units[u * n + target] * n + dig) << 1) | 1, k
                    )
                    if clash >= 0:
                        return clash
        if counted and w.work > w.budget:
            return -1
    return -1


cdef const uint64_t *dyn_chain(Work *w, int slot, int target, bint clash) noexcept nogil:
    """The ancestors of one chain of a level-4 hint: the contradiction's (z.dclash), or
    the target's in walk `slot` (into z.dmask)."""
    cdef Nest *z = w.nest
    if clash:
        return z.dclash
    memset(z.dmask, 0, w.dwords * sizeof(uint64_t))
    anc_or(w, &z.dw[slot], target, z.dmask)
    return z.dmask


cdef bint dyn_hint(
    Work *w, const uint64_t *g, int target, int complexity, int kind, int count,
    int start_cause, bint clash,
) noexcept nogil:
    """Record a level-4 hint (se._Rater._dynamic_hints' add) whose chains are the
    target's in the walks of slots z.dw_slots[:count] (with `clash`: the contradiction
    in z.dclash, one chain): its removals, each chain's ON nodes with their causes (a
    walk's start counts with `start_cause`, none when NO_CAUSE) and its key (the
    target, then each chain's ancestors, -1 between them). False when memory ran out."""
    cdef Nest *z = w.nest
    cdef int nrem, j, slot, i, b, node, c, ncause = 0, at, nkey
    cdef int64_t need
    cdef uint64_t word
    cdef const uint64_t *mask
    cdef int32_t *rec
    nrem = target_removals(w, g, target)
    if nrem == 0:
        return True
    need = HINT_HEAD + nrem + <int64_t>count * (3 * 64 * w.dwords + 1) + 1
    if not grow(<void **>&z.pool, &z.pool_cap, z.pool_len + need, sizeof(int32_t)):
        return False
    if not hints_room(z, z.nhints + 1):
        return False
    rec = &z.pool[z.pool_len]
    rec[0] = BASE[T_CELL] + length_tenths(complexity - 2)
    rec[1] = complexity
    rec[2] = kind
    rec[3] = nrem
    at = HINT_HEAD
    for i in range(nrem):
        rec[at + i] = z.rem[i]
    at += nrem
    for j in range(count):
        slot = z.dw_slots[j]
        mask = dyn_chain(w, slot, target, clash)
        for i in range(w.dwords):
            word = mask[i]
            while word:
                b = 64 * i + bits_lowest_index(word)
                word &= word - 1
                if not b & 1:
                    continue
                node = (w.g_cand[b >> 1] << 1) | 1
                c = z.dw_cause[<size_t>slot * w.nodes + node]
                if c == NO_CAUSE:
                    c = start_cause
                if c != NO_CAUSE:
                    rec[at + 2 * ncause] = node
                    rec[at + 2 * ncause + 1] = c
                    ncause += 1
    rec[4] = ncause
    at += 2 * ncause
    rec[at] = target
    nkey = 1
    for j in range(count):
        if j:
            rec[at + nkey] = -1
            nkey += 1
        mask = dyn_chain(w, z.dw_slots[j], target, clash)
        for i in range(w.dwords):
            word = mask[i]
            while word:
                rec[at + nkey] = 64 * i + bits_lowest_index(word)
                word &= word - 1
                nkey += 1
    rec[5] = nkey
    z.hint_at[z.nhints] = z.pool_len
    z.hint_key[z.nhints] = (
        (<int64_t>rec[0] << 48) | (<int64_t>complexity << 32) | (<int64_t>kind << 28)
        | z.nhints
    )
    z.nhints += 1
    z.pool_len += at + nkey
    return True


cdef bint dyn_common(
    Work *w, const uint64_t *g, int count, int start_cause, int kind
) noexcept nogil:
    """se._Rater._dynamic_common for the ON walks in slots z.dw_slots[:count]: a hint
    per node every walk reaches past its start (ON ones first, in the first walk's
    order). False when memory ran out."""
    cdef Nest *z = w.nest
    cdef const Walk *first = &z.dw[z.dw_slots[0]]
    cdef const Walk *wk
    cdef int on, idx, j, node, complexity
    for on in range(1, -1, -1):
        for idx in range(first.len):
            node = first.queue[idx]
            if (node & 1) != on or first.count[node] == 1:
                continue
            complexity = first.count[node]
            for j in range(1, count):
                wk = &z.dw[z.dw_slots[j]]
                if wk.mark[node] != wk.stamp or wk.count[node] == 1:
                    break
                complexity += wk.count[node]
            else:
                if not dyn_hint(w, g, node, complexity, kind, count, start_cause, False):
                    return False
    return True


cdef int dynamic_hints(Work *w, const uint64_t *g) noexcept nogil:
    """se._Rater._dynamic_hints on grid g: SE's dynamic contradiction, double, region
    and cell forcing chains (no nesting), in z.hint_key sorted as SE sorts them: 0, 1
    budget spent, -1 no memory."""
    cdef Nest *z = w.nest
    cdef const Tables *t = w.s.t
    cdef int n = w.n
    cdef int cell, dig, card, nv, start, clash, on, idx, node, cause, u, i, c, count
    cdef int off = n  # the slot of the OFF walk
    cdef const Walk *a
    cdef const Walk *b
    cdef uint64_t rest
    if not dyn_ready(w):
        return -1
    fill_upos(w, g)
    z.pool_len = 0
    z.nhints = 0
    z.dw_stamp += 1
    for cell in range(w.cells):
        card = bits_popcount(g[cell])
        if card < 2:
            continue
        nv = 0
        rest = g[cell]
        while rest:
            dig = bits_lowest_index(rest)
            rest &= rest - 1
            start = ((cell * n + dig) << 1) | 1
            z.dw_walked[start] = z.dw_stamp
            z.dw_slots[0] = nv
            clash = dyn_walk(w, nv, g, start, True)
            if clash >= 0 and not dyn_hint(w, g, start ^ 1, clash, 7, 1, NO_CAUSE, True):
                return -1
            z.dw_slots[0] = off
            clash = dyn_walk(w, off, g, start ^ 1, True)
            if clash >= 0 and not dyn_hint(w, g, start, clash, 7, 1, NO_CAUSE, True):
                return -1
            if w.work > w.budget:
                return 1
            if card >= 3:
                # Double chains: the nodes both the ON and the OFF walk reach.
                a = &z.dw[nv]
                b = &z.dw[off]
                z.dw_slots[0] = nv
                z.dw_slots[1] = off
                for on in range(1, -1, -1):
                    for idx in range(a.len):
                        node = a.queue[idx]
                        if (node & 1) != on or node >> 1 == start >> 1:
                            continue
                        if b.mark[node] != b.stamp:
                            continue
                        if not dyn_hint(
                            w, g, node, a.count[node] + b.count[node], 1, 2, NO_CAUSE, False
                        ):
                            return -1
            for cause in range(3):
                u = t.cell_units[3 * cell + (cause + 2) % 3]
                count = 0
                for i in range(n):
                    c = t.units[u * n + i]
                    if (g[c] >> dig) & 1:
                        if count == 0 and c != cell:
                            break
                        if count:
                            node = ((c * n + dig) << 1) | 1
                            dyn_walk(w, off + count, g, node, z.dw_walked[node] != z.dw_stamp)
                            z.dw_walked[node] = z.dw_stamp
                            z.dw_slots[count] = off + count
                        count += 1
                if count < 2:
                    continue
                z.dw_slots[0] = nv
                if not dyn_common(w, g, count, cause, 6):
                    return -1
                if w.work > w.budget:
                    return 1
            nv += 1
        for i in range(nv):
            z.dw_slots[i] = i
        if not dyn_common(w, g, nv, NAKED_CAUSE, 5):
            return -1
    sort_keys(z.hint_key, z.hint_tmp, z.nhints)
    return 0


cdef enum:
    RC_SLOTS = 1 << 16
    RC_ENTRIES = 1 << 15
    RC_BYTES = 1 << 24  # the arenas' size past which the cache starts afresh


cdef uint64_t grid_hash(const Work *w, const uint64_t *g, int kind) noexcept nogil:
    cdef uint64_t h = (
        <uint64_t>0x9E3779B97F4A7C15ULL if kind == ROUND_MULTIPLE
        else <uint64_t>0xC2B2AE3D27D4EB4FULL if kind == ROUND_DYNAMIC
        else <uint64_t>0x2545F4914F6CDD1DULL
    )
    cdef uint64_t mix = <uint64_t>0xFF51AFD7ED558CCDULL
    cdef int c
    for c in range(w.cells):
        h = (h ^ g[c]) * mix
        h ^= h >> 31
    return h


cdef void round_cache_clear(Nest *z) noexcept nogil:
    cdef int i
    for i in range(RC_SLOTS):
        z.rc_slot[i] = -1
    z.rc_len = 0
    z.rc_grids_len = 0
    z.rc_pool_len = 0
    z.rc_hints_len = 0


cdef int round_cache_find(
    const Work *w, const uint64_t *g, int kind, uint64_t h, int *at
) noexcept nogil:
    """The entry of grid g's list (-1 none); `at` the table slot it holds or would."""
    cdef const Nest *z = w.nest
    cdef int i = <int>(h & (RC_SLOTS - 1)), e, c
    cdef const RoundEntry *r
    cdef const uint64_t *kept
    while z.rc_slot[i] >= 0:
        e = z.rc_slot[i]
        r = &z.rc_entry[e]
        if r.hash == h and r.kind == kind:
            kept = &z.rc_grids[r.grid_at]
            for c in range(w.cells):
                if kept[c] != g[c]:
                    break
            else:
                at[0] = i
                return e
        i = (i + 1) & (RC_SLOTS - 1)
    at[0] = i
    return -1


cdef void round_cache_store(
    Work *w, const uint64_t *g, int kind, uint64_t h, int at, int64_t cost
) noexcept nogil:
    """Keep this round's list (z.pool, z.hint_at, z.hint_key) under grid g; a cache
    that is full starts afresh, one that cannot grow is left as it is."""
    cdef Nest *z = w.nest
    cdef RoundEntry *r
    cdef int64_t i
    cdef int64_t size = (
        (z.rc_grids_len + w.cells) * 8 + (z.rc_pool_len + z.pool_len) * 4
        + (z.rc_hints_len + 2 * z.nhints) * 8
    )
    if z.rc_len >= RC_ENTRIES or size > RC_BYTES:
        round_cache_clear(z)
        round_cache_find(w, g, kind, h, &at)
    if not (
        grow(<void **>&z.rc_grids, &z.rc_grids_cap, z.rc_grids_len + w.cells, sizeof(uint64_t))
        and grow(<void **>&z.rc_pool, &z.rc_pool_cap, z.rc_pool_len + z.pool_len, sizeof(int32_t))
        and grow(
            <void **>&z.rc_hints, &z.rc_hints_cap, z.rc_hints_len + 2 * z.nhints,
            sizeof(int64_t),
        )
    ):
        return
    r = &z.rc_entry[z.rc_len]
    r.hash = h
    r.kind = kind
    r.cost = cost
    r.nhints = z.nhints
    r.grid_at = z.rc_grids_len
    r.pool_at = z.rc_pool_len
    r.pool_len = z.pool_len
    r.hints_at = z.rc_hints_len
    for i in range(w.cells):
        z.rc_grids[r.grid_at + i] = g[i]
    for i in range(z.pool_len):
        z.rc_pool[r.pool_at + i] = z.pool[i]
    for i in range(z.nhints):
        z.rc_hints[r.hints_at + i] = z.hint_at[i]
        z.rc_hints[r.hints_at + z.nhints + i] = z.hint_key[i]
    z.rc_grids_len += w.cells
    z.rc_pool_len += z.pool_len
    z.rc_hints_len += 2 * z.nhints
    z.rc_slot[at] = z.rc_len
    z.rc_len += 1


cdef int round_hints(Work *w, const uint64_t *g, int kind) noexcept nogil:
    """`static_hints`, `multiple_hints` or `dynamic_hints` (by `kind`) on g, with the same result
    and the same work counted; a list found before on an equal grid is taken from the
    cache (unless the budget would have cut its search: that one runs again)."""
    cdef Nest *z = w.nest
    cdef uint64_t h = 0
    cdef int e = -1, at = 0, r
    cdef int64_t i, before = w.work
    cdef const RoundEntry *kept
    if z.rc_slot == NULL:
        z.rc_slot = <int32_t *>malloc(RC_SLOTS * sizeof(int32_t))
        z.rc_entry = <RoundEntry *>malloc(RC_ENTRIES * sizeof(RoundEntry))
        if z.rc_slot != NULL and z.rc_entry != NULL:
            round_cache_clear(z)
        else:
            free(z.rc_slot)
            free(z.rc_entry)
            z.rc_slot = NULL
            z.rc_entry = NULL
    if z.rc_slot != NULL:
        h = grid_hash(w, g, kind)
        e = round_cache_find(w, g, kind, h, &at)
    if e >= 0 and w.work + z.rc_entry[e].cost <= w.budget:
        kept = &z.rc_entry[e]
        if not (
            grow(<void **>&z.pool, &z.pool_cap, kept.pool_len, sizeof(int32_t))
            and hints_room(z, kept.nhints)
        ):
            return -1
        for i in range(kept.pool_len):
            z.pool[i] = z.rc_pool[kept.pool_at + i]
        for i in range(kept.nhints):
            z.hint_at[i] = z.rc_hints[kept.hints_at + i]
            z.hint_key[i] = z.rc_hints[kept.hints_at + kept.nhints + i]
        z.pool_len = kept.pool_len
        z.nhints = kept.nhints
        w.work += kept.cost
        return 0
    r = (
        static_hints(w, g) if kind == ROUND_STATIC
        else multiple_hints(w, g) if kind == ROUND_MULTIPLE
        else dynamic_hints(w, g)
    )
    if r == 0 and e < 0 and z.rc_slot != NULL:
        round_cache_store(w, g, kind, h, at, w.work - before)
    return r


cdef int walk_slot(const Work *w, const Walk *wk) noexcept nogil:
    return 0 if wk == &w.a else 1


cdef int nested_chains(Work *w, Walk *wk, int kind) noexcept nogil:
    """se._Rater._nested_chains on the walk's grid (w.wgrid), its hints those of
    `round_hints(kind)` (level 2, 3 or 4): each hint's removals,
    in SE's order, added to the walk as OFF nodes whose parents are the candidates the
    walk removed that the hint's chain rests on (a hint resting on none is left out);
    each remembers its chain. Returns how many were added."""
    cdef Nest *z = w.nest
    cdef const Tables *t = w.s.t
    cdef int n = w.n
    cdef const uint64_t *g = w.wgrid
    cdef int h, i, k, node, cause, cell, dig, u, c, d, chain, off, nrem, ncause, added = 0
    cdef int slot = walk_slot(w, wk)
    cdef int r
    cdef bint any_parent
    cdef int32_t *rec
    r = round_hints(w, g, kind)
    if r != 0:
        if r < 0:
            z.oom = True
            w.work = w.budget + 1
        return 0
    for h in range(z.nhints):
        rec = &z.pool[z.hint_at[z.hint_key[h] & 0xFFFFFFF]]
        nrem = rec[3]
        ncause = rec[4]
        memset(w.tmp, 0, w.dwords * sizeof(uint64_t))
        any_parent = False
        for k in range(ncause):
            node = rec[HINT_HEAD + nrem + 2 * k]
            cause = rec[HINT_HEAD + nrem + 2 * k + 1]
            cell = w.cell_of[node >> 1]
            dig = (node >> 1) - cell * n
            # The candidates of the cell (a cell's link) or the digit's places in the
            # unit (a unit's link) the walk removed.
            for i in range(n):
                if cause == NAKED_CAUSE:
                    c = cell
                    d = i
                else:
                    u = t.cell_units[3 * cell + (2 if cause == 0 else cause - 1)]
                    c = t.units[u * n + i]
                    d = dig
                if (w.s.cand[c] >> d) & 1 and not (g[c] >> d) & 1:
                    tmp_or(w, wk, (c * n + d) << 1)
                    any_parent = True
        if not any_parent:
            continue  # the chain held before the walk: SE leaves it out
        chain = chain_id(w, &rec[HINT_HEAD + nrem + 2 * ncause], rec[5], rec[1])
        if chain < 0:
            z.oom = True
            w.work = w.budget + 1
            return added
        for i in range(w.dwords):
            w.tmp2[i] = w.tmp[i]
        for k in range(nrem):
            off = rec[HINT_HEAD + k] << 1
            if wk.mark[off] != wk.stamp:
                add_nested(w, wk, off)
                z.wl_pairs[slot][2 * z.wl_len[slot]] = off
                z.wl_pairs[slot][2 * z.wl_len[slot] + 1] = chain
                z.wl_len[slot] += 1
                added += 1
    return added


cdef void anc_or(const Work *w, const Walk *wk, int node, uint64_t *dst) noexcept nogil:
    """dst |= the ancestors of a node reached by a dynamic walk (itself included)."""
    cdef int i, b
    cdef int32_t parent = -1 if node & 1 else wk.parent[node]
    cdef const uint64_t *src = &wk.anc[<size_t>(node if parent < 0 else parent) * w.dwords]
    for i in range(w.dwords):
        dst[i] |= src[i]
    b = anc_bit(w, node)
    dst[b >> 6] |= (<uint64_t>1) << (b & 63)


cdef int nested_pairs(
    const Work *w, const uint64_t *mask, const int32_t *pairs, int count
) noexcept nogil:
    """The complexities of the nested chains of the advanced nodes in `mask` (`pairs`:
    node, chain), each chain not counted yet under z.ch_stamp, now counted."""
    cdef Nest *z = w.nest
    cdef int i, b, chain, total = 0
    for i in range(count):
        b = anc_bit(w, pairs[2 * i])
        if (mask[b >> 6] >> (b & 63)) & 1:
            chain = pairs[2 * i + 1]
            if z.ch_seen[chain] != z.ch_stamp:
                z.ch_seen[chain] = z.ch_stamp
                total += z.ch_cplx[chain]
    return total


cdef int clash_nested(Work *w, Walk *wk, int m, int parent) noexcept nogil:
    """se._Rater.walk's nested part of a contradiction at node m (reached from ON node
    `parent`, or from the parents whose ancestors are in w.tmp when -1) against its
    opposite reached before."""
    cdef Nest *z = w.nest
    cdef int slot = walk_slot(w, wk)
    cdef int i, b
    cdef const uint64_t *src = w.tmp if parent < 0 else &wk.anc[<size_t>parent * w.dwords]
    for i in range(w.dwords):
        z.mask[i] = src[i]
    b = anc_bit(w, m)
    z.mask[b >> 6] |= (<uint64_t>1) << (b & 63)
    anc_or(w, wk, m ^ 1, z.mask)
    z.ch_stamp += 1
    z.last_nested = nested_pairs(w, z.mask, z.wl_pairs[slot], z.wl_len[slot])
    return z.last_nested


cdef int double_nested(Work *w, int node) noexcept nogil:
    """The nested part of a node both walks a (ON) and b (OFF) reach: each distinct
    nested chain among its ancestors in either, once."""
    cdef Nest *z = w.nest
    cdef int total, k
    cdef const Walk *wk
    z.ch_stamp += 1
    total = 0
    for k in range(2):
        wk = &w.a if k == 0 else &w.b
        memset(z.mask, 0, w.dwords * sizeof(uint64_t))
        anc_or(w, wk, node, z.mask)
        total += nested_pairs(w, z.mask, z.wl_pairs[k], z.wl_len[k])
    return total


cdef bint nest_store(Work *w, int index, const Walk *wk) noexcept nogil:
    """Beside store_walk(w, index, wk): each node's ancestors and the walk's advanced
    nodes with their chains. False when memory ran out."""
    cdef Nest *z = w.nest
    cdef int slot = walk_slot(w, wk)
    cdef int64_t base = w.store_start[index]
    cdef int64_t rows = base + wk.len
    cdef int64_t cap
    cdef int i
    cdef uint64_t *row
    cdef void *grown
    if rows > z.st_anc_cap:
        cap = 2 * z.st_anc_cap if z.st_anc_cap else 4096
        while cap < rows:
            cap *= 2
        grown = realloc(z.st_anc, <size_t>cap * w.dwords * sizeof(uint64_t))
        if grown == NULL:
            return False
        z.st_anc = <uint64_t *>grown
        z.st_anc_cap = cap
    for i in range(wk.len):
        row = &z.st_anc[<size_t>(base + i) * w.dwords]
        memset(row, 0, w.dwords * sizeof(uint64_t))
        anc_or(w, wk, wk.queue[i], row)
    if not grow(<void **>&z.st_nest, &z.st_nest_cap, 2 * (z.st_nest_used + z.wl_len[slot]), sizeof(int32_t)):
        return False
    z.st_nest_at[index] = z.st_nest_used
    z.st_nest_len[index] = z.wl_len[slot]
    for i in range(2 * z.wl_len[slot]):
        z.st_nest[2 * z.st_nest_used + i] = z.wl_pairs[slot][i]
    z.st_nest_used += z.wl_len[slot]
    return True


cdef int group_nested(Work *w, const int32_t *indices, int k, int node) noexcept nogil:
    """se._Rater.nested_sum over the stored ON walks of a cell / region group at a
    node they all reach."""
    cdef Nest *z = w.nest
    cdef int g, i, total = 0
    cdef int64_t base, at
    z.ch_stamp += 1
    for g in range(k):
        base = w.store_start[indices[g]]
        for i in range(w.store_len[indices[g]]):
            if w.store[2 * (base + i)] == node:
                at = z.st_nest_at[indices[g]]
                total += nested_pairs(w, &z.st_anc[<size_t>(base + i) * w.dwords],
                                      &z.st_nest[2 * at], z.st_nest_len[indices[g]])
                break
    return total



cdef inline bint better_hint(
    Work *w, int tech, int complexity, int kind, int a, int b, int c, int d, int e
) noexcept nogil:
    """Does this hint come before w's in SE's order (se._Rater.note_hint)? If so, its
    key and technique become w's."""
    cdef int32_t key[8]
    cdef int i
    key[0] = BASE[tech] + length_tenths(complexity - 2)
    key[1] = complexity
    key[2] = kind
    key[3] = a
    key[4] = b
    key[5] = c
    key[6] = d
    key[7] = e
    i = 0
    while i < 8 and key[i] == w.hint_key[i]:
        i += 1
    if i == 8 or key[i] > w.hint_key[i]:
        return False
    for i in range(8):
        w.hint_key[i] = key[i]
    w.hint_tech = tech
    return True


cdef inline void note(
    Work *w, int node, int tech, int complexity, int kind, int a, int b, int c, int d, int e
) noexcept nogil:
    """se._Rater.note: a hint of one conclusion, given as its node, with SE's sort key
    `kind` and its place in SE's search (a..e)."""
    if better_hint(w, tech, complexity, kind, a, b, c, d, e):
        w.hint_node = node


cdef inline void note_progress(
    Work *w, int node, int tech, int complexity, int kind, int a, int b, int c, int d, int e
) noexcept nogil:
    """note() for a node that holds, if it changes the board (se._Rater.progress)."""
    cdef int v = node >> 1
    cdef int cell = v // w.n
    if (w.s.cand[cell] >> (v - cell * w.n)) & 1:
        note(w, node, tech, complexity, kind, a, b, c, d, e)


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
        w.store[2 * (w.store_used + k) + 1] = wk.count[wk.queue[k]]
    w.store_used += wk.len
    return True


cdef void common(
    Work *w, const int32_t *indices, int k, int tech, int kind, int a, int b, int c
) noexcept nogil:
    """se._Rater._common: nodes reached (past their start) by the stored ON walks of
    every candidate index given; nothing if one of them has no stored walk. The hints
    are of SE's sort key `kind`, met where (a, b, c) says in SE's search."""
    cdef int g, i, node, d
    cdef int64_t base
    cdef int32_t stamp
    for g in range(k):
        if w.store_start[indices[g]] < 0:
            return
    w.acc_stamp += 1
    stamp = w.acc_stamp
    for g in range(k):
        base = w.store_start[indices[g]]
        for i in range(w.store_len[indices[g]]):
            node = w.store[2 * (base + i)]
            d = w.store[2 * (base + i) + 1]
            if d == 1:
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
            if tech >= T_DYNAMIC_PLUS_FC:  # the levels with nested chains (2-4)
                w.acc_sum[node] += group_nested(w, indices, k, node)
            # SE lists the nodes every walk sets ON, then those set OFF.
            note_progress(w, node, tech, w.acc_sum[node], kind, a, b, c, 1 - (node & 1), i)


cdef void each_group(
    Work *w, int min_cell, int cell_tech, int region_tech, bint mark_need
) noexcept nogil:
    """The cell / region forcing groups (se._Rater.groups): each one's stored walks'
    common nodes noted, or (`mark_need`) its candidates marked in w.need."""
    cdef Solver *s = &w.s
    cdef const Tables *t = s.t
    cdef int n = w.n
    cdef int cell, k, u, dig, i
    cdef uint64_t c, where
    cdef int32_t indices[64]
    for cell in range(w.cells):
        c = s.cand[cell]
        if bits_popcount(c) >= min_cell:
            k = 0
            while c:
                indices[k] = cell * n + bits_lowest_index(c)
                k += 1
                c &= c - 1
            if mark_need:
                need_group(w, indices, k)
            else:
                common(w, indices, k, cell_tech, CELL_KIND, cell, 0, 0)
    for u in range(3 * n):
        for dig in range(n):
            where = s.pos[u * n + dig]
            if bits_popcount(where) >= 2 and bits_popcount(
                s.cand[t.units[u * n + bits_lowest_index(where)]]
            ) >= min_cell:
                k = 0
                while where:
                    i = bits_lowest_index(where)
                    where &= where - 1
                    indices[k] = t.units[u * n + i] * n + dig
                    k += 1
                if mark_need:
                    need_group(w, indices, k)
                else:
                    # SE meets a region at its first place's cell and digit; units are
                    # rows, columns, boxes, and SE's order is box, row, column.
                    common(
                        w, indices, k, region_tech, REGION_KIND,
                        indices[0] // n, dig + 1, (u // n + 1) % 3,
                    )


cdef void multiple(Work *w, int min_cell, int cell_tech, int region_tech) noexcept nogil:
    """se._Rater.multiple on the stored walks."""
    each_group(w, min_cell, cell_tech, region_tech, False)


cdef void note_cycle(Work *w, int last, int tech, int complexity) noexcept nogil:
    """se._Rater._note_cycle."""
    cdef Solver *s = &w.s
    cdef const Tables *t = s.t
    cdef int n = w.n
    cdef int index, node, cell, dig, k, p, root, kind
    cdef uint64_t any_
    w.loop_stamp += 1
    index = last
    while index >= 0:
        w.in_loop[(w.ent_node[index] >> 1) // n] = w.loop_stamp
        index = w.ent_parent[index]
    memset(w.fwd, 0, w.cells * sizeof(uint64_t))
    memset(w.bwd, 0, w.cells * sizeof(uint64_t))
    index = last
    while index >= 0:
        node = w.ent_node[index]
        cell = (node >> 1) // n
        dig = (node >> 1) - cell * n
        for k in range(t.npeers):
            p = t.peers[cell * t.npeers + k]
            if w.in_loop[p] != w.loop_stamp and (s.cand[p] >> dig) & 1:
                if node & 1:
                    w.fwd[p] |= (<uint64_t>1) << dig
                else:
                    w.bwd[p] |= (<uint64_t>1) << dig
        index = w.ent_parent[index]
    any_ = 0
    for p in range(w.cells):
        any_ |= w.fwd[p] & w.bwd[p]
    if not any_:
        return
    # A cycle's hint removes all of them at once (SE's CycleHint); SE meets it from its
    # start candidate, before that candidate's forcing chains.
    root = w.ent_node[0] >> 1
    kind = 2 if tech == T_X_CYCLE else 3 if tech == T_Y_CYCLE else 4
    if better_hint(w, tech, complexity, kind, root // n, root % n + 1, 0, 1, last):
        w.hint_node = -1
        for p in range(w.cells):
            w.hint_elims[p] = w.fwd[p] & w.bwd[p]


cdef inline int cycle_push_off(Work *w, int nent, int index, int depth, int m) noexcept nogil:
    """Append OFF node m below entry `index` unless it is on that entry's path; the new
    entry count."""
    cdef int up = w.ent_parent[index]
    while up >= 0 and w.ent_node[up] != m:
        up = w.ent_parent[up]
    if up < 0 and nent < w.ent_cap:
        w.ent_node[nent] = m
        w.ent_parent[nent] = index
        w.ent_depth[nent] = depth + 1
        nent += 1
    return nent


cdef void cycles_from(Work *w, int cell, int digit, int mode, int tech) noexcept nogil:
    """se._Rater._cycles_from."""
    cdef Solver *s = &w.s
    cdef const Tables *t = s.t
    cdef int n = w.n
    cdef int source = ((cell * n + digit - 1) << 1) | 1
    cdef int nent = 1, head = 0, index, node, depth, cell_now, dig, e, k, p, m, up, u, i, other
    cdef uint64_t bit, rest, cc, where
    cdef int32_t stamp
    w.cyc_stamp += 1
    stamp = w.cyc_stamp
    w.ent_node[0] = source
    w.ent_parent[0] = -1
    w.ent_depth[0] = 0
    w.cyc_mark[source] = stamp
    while head < nent:
        index = head
        node = w.ent_node[head]
        depth = w.ent_depth[head]
        head += 1
        w.work += 1
        cell_now = w.cell_of[node >> 1]
        dig = (node >> 1) - cell_now * n
        bit = (<uint64_t>1) << dig
        if node & 1:
            if mode & CELL_LINKS:
                rest = s.cand[cell_now] & ~bit
                while rest:
                    e = bits_lowest_index(rest)
                    rest &= rest - 1
                    nent = cycle_push_off(w, nent, index, depth, (cell_now * n + e) << 1)
            # The peers holding the digit, ascending (t.peers order).
            for k in range(w.cwords):
                where = w.peer_bits[cell_now * w.cwords + k] & w.digit_bits[dig * w.cwords + k]
                while where:
                    p = (k << 6) | bits_lowest_index(where)
                    where &= where - 1
                    nent = cycle_push_off(w, nent, index, depth, (p * n + dig) << 1)
        else:
            for k in range(4):
                m = -1
                if k == 0:
                    if mode & CELL_LINKS:
                        cc = s.cand[cell_now]
                        if two_bits(cc):
                            m = ((cell_now * n + bits_lowest_index(cc & ~bit)) << 1) | 1
                    if m >= 0:
                        if m == source and depth + 1 >= 4:
                            note_cycle(w, index, tech, depth + 1)
                        if w.cyc_mark[m] != stamp and nent < w.ent_cap:
                            w.cyc_mark[m] = stamp
                            w.ent_node[nent] = m
                            w.ent_parent[nent] = index
                            w.ent_depth[nent] = depth + 1
                            nent += 1
                elif mode & UNIT_LINKS:
                    u = t.cell_units[3 * cell_now + k - 1]
                    where = s.pos[u * n + dig]
                    if two_bits(where):
                        rest = where
                        while rest:
                            i = bits_lowest_index(rest)
                            rest &= rest - 1
                            other = t.units[u * n + i]
                            if other == cell_now:
                                continue
                            m = ((other * n + dig) << 1) | 1
                            if m == source and depth + 1 >= 4:
                                note_cycle(w, index, tech, depth + 1)
                            if w.cyc_mark[m] != stamp and nent < w.ent_cap:
                                w.cyc_mark[m] = stamp
                                w.ent_node[nent] = m
                                w.ent_parent[nent] = index
                                w.ent_depth[nent] = depth + 1
                                nent += 1
        if w.work > w.budget:
            return


cdef void cycles(Work *w, int first, int last) noexcept nogil:
    """se._Rater.cycles, passes first..last (0 x, 1 y, 2 xy). The xy pass reads the
    static graph of unit and cell links that forcing_chains closed last."""
    cdef Solver *s = &w.s
    cdef int pass_, mode, tech, cell, dig
    cdef uint64_t c
    for pass_ in range(first, last + 1):
        mode = UNIT_LINKS if pass_ == 0 else CELL_LINKS if pass_ == 1 else UNIT_LINKS | CELL_LINKS
        tech = T_X_CYCLE if pass_ == 0 else T_Y_CYCLE if pass_ == 1 else T_XY_CYCLE
        if pass_ < 2:
            close_graph(w, static_graph(w, mode), pass_ == 0)
        if pass_ == 0:
            # The x-chains of forcing_chains read the same graph: keep what they need.
            negations(w)
        for cell in range(w.cells):
            c = s.cand[cell]
            if bits_popcount(c) < 2 or (mode == CELL_LINKS and bits_popcount(c) != 2):
                continue
            while c:
                dig = bits_lowest_index(c)
                c &= c - 1
                # A cycle needs a way back to its start (a component of two or more
                # nodes in the static graph of the same links): most starts have none.
                if w.g_size[w.g_comp[2 * w.g_index[cell * w.n + dig] + 1]] < 2:
                    continue
                cycles_from(w, cell, dig + 1, mode, tech)
                if w.work > w.budget:
                    return


cdef int level_walk(Work *w, int cell, int dig, bint on, int mode) noexcept nogil:
    """se._Rater.level_walk: the static walk from one assumption, a whole level at a
    time on cell bitsets per digit, until it reaches the assumption's negation: that
    node's complexity (0 never). Adds the nodes reached to w.work."""
    cdef Solver *s = &w.s
    cdef const Tables *t = s.t
    cdef int n = w.n
    cdef int cw = w.cwords
    cdef int size = n * cw
    cdef int count = 1, d, k, c, e, u, j, reached
    cdef int target_word = dig * cw + (cell >> 6)
    cdef uint64_t target_bit = (<uint64_t>1) << (cell & 63)
    cdef uint64_t where, rest, bits, cur_digits, next_digits, word
    cdef uint64_t *seen
    cdef uint64_t *cur = w.lv_cur
    cdef uint64_t *nxt = w.lv_next
    cdef uint64_t *swap
    cdef const uint64_t *peer_bits = w.peer_bits
    cdef const uint64_t *digit_bits = w.digit_bits
    cdef bint level_on = on
    memset(w.lv_seen, 0, 2 * size * sizeof(uint64_t))
    memset(cur, 0, size * sizeof(uint64_t))
    memset(nxt, 0, size * sizeof(uint64_t))
    cur[target_word] = target_bit
    w.lv_seen[(size if on else 0) + target_word] = target_bit
    cur_digits = (<uint64_t>1) << dig
    w.work += 1
    while cur_digits:
        count += 1
        next_digits = 0
        if level_on:
            # ON (cell, d): every peer holding d is OFF; with cell links, so is every
            # other candidate of the cell.
            seen = w.lv_seen
            while cur_digits:
                d = bits_lowest_index(cur_digits)
                cur_digits &= cur_digits - 1
                next_digits |= (<uint64_t>1) << d
                for k in range(cw):
                    bits = cur[d * cw + k]
                    cur[d * cw + k] = 0
                    while bits:
                        c = (k << 6) | bits_lowest_index(bits)
                        bits &= bits - 1
                        for j in range(cw):
                            nxt[d * cw + j] |= peer_bits[c * cw + j]
                        if mode & CELL_LINKS:
                            rest = s.cand[c] & ~((<uint64_t>1) << d)
                            next_digits |= rest
                            while rest:
                                e = bits_lowest_index(rest)
                                rest &= rest - 1
                                nxt[e * cw + k] |= (<uint64_t>1) << (c & 63)
        else:
            # OFF (cell, d): the other candidate of a bivalue cell (cell links) and the
            # other place of d in a unit holding it twice (unit links) are ON.
            seen = &w.lv_seen[size]
            while cur_digits:
                d = bits_lowest_index(cur_digits)
                cur_digits &= cur_digits - 1
                for k in range(cw):
                    bits = cur[d * cw + k]
                    cur[d * cw + k] = 0
                    while bits:
                        c = (k << 6) | bits_lowest_index(bits)
                        bits &= bits - 1
                        if mode & CELL_LINKS and two_bits(s.cand[c]):
                            e = bits_lowest_index(s.cand[c] & ~((<uint64_t>1) << d))
                            nxt[e * cw + k] |= (<uint64_t>1) << (c & 63)
                            next_digits |= (<uint64_t>1) << e
                        if mode & UNIT_LINKS:
                            for j in range(3):
                                u = t.cell_units[3 * c + j]
                                where = s.pos[u * n + d]
                                if two_bits(where):
                                    rest = where
                                    while rest:
                                        e = t.units[u * n + bits_lowest_index(rest)]
                                        rest &= rest - 1
                                        if e != c:
                                            nxt[d * cw + (e >> 6)] |= (<uint64_t>1) << (e & 63)
                                            next_digits |= (<uint64_t>1) << d
        # Keep the nodes not reached before: the next level, and its digits.
        reached = 0
        rest = next_digits
        while rest:
            d = bits_lowest_index(rest)
            rest &= rest - 1
            bits = 0
            for k in range(cw):
                word = nxt[d * cw + k] & digit_bits[d * cw + k] & ~seen[d * cw + k]
                nxt[d * cw + k] = word
                seen[d * cw + k] |= word
                bits |= word
                while word:
                    word &= word - 1
                    reached += 1
            if not bits:
                next_digits &= ~((<uint64_t>1) << d)
        w.work += reached
        # The negation is reached on a level of the other kind than the start's.
        if level_on == on and nxt[target_word] & target_bit:
            return count
        level_on = not level_on
        swap = cur
        cur = nxt
        nxt = swap
        cur_digits = next_digits
        if w.work > w.budget:
            return 0
    return 0


cdef int static_graph(Work *w, int mode) noexcept nogil:
    """The links of a static walk in `mode` between every candidate's two nodes, 2i
    (OFF) and 2i + 1 (ON) for the i-th candidate in index order, as edge lists (CSR in
    g_start / g_to): the node count."""
    cdef Solver *s = &w.s
    cdef const Tables *t = s.t
    cdef int n = w.n
    cdef int cw = w.cwords
    cdef int count = 0, edges = 0, cell, d, e, v, k, j, u, ci
    cdef uint64_t c, where, rest
    for cell in range(w.cells):
        c = s.cand[cell]
        while c:
            d = bits_lowest_index(c)
            c &= c - 1
            w.g_index[cell * n + d] = count
            w.g_cand[count] = cell * n + d
            count += 1
    for v in range(2 * count):
        w.g_start[v] = edges
        ci = w.g_cand[v >> 1]
        cell = w.cell_of[ci]
        d = ci - cell * n
        if v & 1:
            for k in range(cw):
                where = w.peer_bits[cell * cw + k] & w.digit_bits[d * cw + k]
                while where:
                    j = (k << 6) | bits_lowest_index(where)
                    where &= where - 1
                    w.g_to[edges] = 2 * w.g_index[j * n + d]
                    edges += 1
            if mode & CELL_LINKS:
                rest = s.cand[cell] & ~((<uint64_t>1) << d)
                while rest:
                    w.g_to[edges] = 2 * w.g_index[cell * n + bits_lowest_index(rest)]
                    edges += 1
                    rest &= rest - 1
        else:
            if mode & CELL_LINKS and two_bits(s.cand[cell]):
                e = bits_lowest_index(s.cand[cell] & ~((<uint64_t>1) << d))
                w.g_to[edges] = 2 * w.g_index[cell * n + e] + 1
                edges += 1
            if mode & UNIT_LINKS:
                for k in range(3):
                    u = t.cell_units[3 * cell + k]
                    where = s.pos[u * n + d]
                    if two_bits(where):
                        while where:
                            j = t.units[u * n + bits_lowest_index(where)]
                            where &= where - 1
                            if j != cell:
                                w.g_to[edges] = 2 * w.g_index[j * n + d] + 1
                                edges += 1
    w.g_start[2 * count] = edges
    w.g_count = count
    w.dwords = (2 * count + 63) >> 6
    return 2 * count


cdef void close_graph(Work *w, int nodes, bint with_reach) noexcept nogil:
    """Which nodes each node reaches: the strongly connected components of the static
    graph (Tarjan's algorithm, iterative), their sizes, and `with_reach` each
    component's reach (a node bitset in g_reach, row g_comp[v]) built from its
    successors', which Tarjan finishes first."""
    cdef int words = (nodes + 63) >> 6
    cdef int order = 0, top = 0, depth, root, v, u, comp = 0, first, i, x, k, j
    cdef uint64_t *row
    cdef const uint64_t *other
    w.g_words = words
    for v in range(nodes):
        w.g_order[v] = -1
        w.g_merged[v] = -1
    for root in range(nodes):
        if w.g_order[root] >= 0:
            continue
        depth = 0
        w.g_call[0] = root
        w.g_pos[0] = w.g_start[root]
        w.g_order[root] = order
        w.g_low[root] = order
        order += 1
        w.g_comp[root] = -1
        w.g_stack[top] = root
        top += 1
        while depth >= 0:
            v = w.g_call[depth]
            if w.g_pos[depth] < w.g_start[v + 1]:
                u = w.g_to[w.g_pos[depth]]
                w.g_pos[depth] += 1
                if w.g_order[u] < 0:
                    w.g_order[u] = order
                    w.g_low[u] = order
                    order += 1
                    w.g_comp[u] = -1
                    w.g_stack[top] = u
                    top += 1
                    depth += 1
                    w.g_call[depth] = u
                    w.g_pos[depth] = w.g_start[u]
                elif w.g_comp[u] < 0 and w.g_order[u] < w.g_low[v]:
                    w.g_low[v] = w.g_order[u]
                continue
            if w.g_low[v] == w.g_order[v]:
                first = top
                while True:
                    first -= 1
                    w.g_comp[w.g_stack[first]] = comp
                    if w.g_stack[first] == v:
                        break
                w.g_size[comp] = top - first
                if with_reach:
                    row = &w.g_reach[<size_t>comp * words]
                    memset(row, 0, words * sizeof(uint64_t))
                    for i in range(first, top):
                        x = w.g_stack[i]
                        row[x >> 6] |= (<uint64_t>1) << (x & 63)
                        for k in range(w.g_start[x], w.g_start[x + 1]):
                            u = w.g_comp[w.g_to[k]]
                            if u != comp and w.g_merged[u] != comp:
                                w.g_merged[u] = comp  # each successor component once
                                other = &w.g_reach[<size_t>u * words]
                                for j in range(words):
                                    row[j] |= other[j]
                top = first
                comp += 1
            depth -= 1
            if depth >= 0:
                u = w.g_call[depth]
                if w.g_low[v] < w.g_low[u]:
                    w.g_low[u] = w.g_low[v]


cdef inline bint reaches(const Work *w, int v, int target) noexcept nogil:
    """Whether node v of the closed static graph reaches node `target`."""
    return (w.g_reach[<size_t>w.g_comp[v] * w.g_words + (target >> 6)] >> (target & 63)) & 1


cdef void negations(Work *w) noexcept nogil:
    """w.negation from the closed static graph: for each of its candidates, whether
    the ON node reaches the OFF node (1) and the other way round (2)."""
    cdef int i, ci
    for i in range(w.g_count):
        ci = w.g_cand[i]
        w.negation[ci] = reaches(w, 2 * i + 1, 2 * i) | (reaches(w, 2 * i, 2 * i + 1) << 1)


cdef int forcing_chains(Work *w) noexcept nogil:
    """se._Rater.forcing_chains: 0 done, 1 budget spent. Only the assumptions whose
    node reaches its negation in the static graph are walked, for the length; the
    x links' w.negation comes from cycles(), which closes the same graph."""
    cdef Solver *s = &w.s
    cdef int n = w.n
    cdef int pass_, mode, tech, cell, dig, node, on_count, off_count
    cdef uint64_t c
    for pass_ in range(2):
        mode = UNIT_LINKS if pass_ == 0 else UNIT_LINKS | CELL_LINKS
        tech = T_X_CHAIN if pass_ == 0 else T_FORCING
        if pass_ == 1:
            close_graph(w, static_graph(w, mode), True)
            negations(w)
        for cell in range(w.cells):
            c = s.cand[cell]
            if bits_popcount(c) < 2:
                continue
            while c:
                dig = bits_lowest_index(c)
                c &= c - 1
                node = (cell * n + dig) << 1
                on_count = off_count = 0
                if w.negation[cell * n + dig] & 1:
                    on_count = level_walk(w, cell, dig, True, mode)
                if w.negation[cell * n + dig] & 2:
                    off_count = level_walk(w, cell, dig, False, mode)
                if w.work > w.budget:
                    return 1
                # SE: the candidate's cycles, then its chains from ON, then from OFF.
                if on_count:
                    note(w, node, tech, on_count, 2 + 2 * pass_, cell, dig + 1, 1, 1, 0)
                if off_count:
                    note(w, node | 1, tech, off_count, 2 + 2 * pass_, cell, dig + 1, 2, 0, 0)
    return 0


cdef int contradictions(Work *w, int mode, int tech, bint double) noexcept nogil:
    """se._Rater.contradictions; the ON walks stored (with `double`, which the
    cell and region forcing after it read): 0 done, 1 budget spent, -1 no memory."""
    cdef Solver *s = &w.s
    cdef int n = w.n
    cdef int cw = w.cwords
    cdef int cell, dig, on_clash, off_clash, i, node, start, k
    cdef int64_t before
    cdef uint64_t c
    # Nishio walks (unit links only) read nothing but their own digit's cells: where
    # those are as at the last Nishio pass, its outcomes and walk steps still hold.
    cdef bint nishio = mode == UNIT_LINKS | DYNAMIC_LINKS
    cdef bint level2 = (mode & NESTED_CHAINS) != 0
    cdef uint64_t kept = 0
    if nishio:
        for dig in range(n):
            if w.ni_valid[dig]:
                kept |= (<uint64_t>1) << dig
                for k in range(cw):
                    if w.ni_bits[dig * cw + k] != w.digit_bits[dig * cw + k]:
                        kept &= ~((<uint64_t>1) << dig)
            for k in range(cw):
                w.ni_bits[dig * cw + k] = w.digit_bits[dig * cw + k]
            w.ni_valid[dig] = 0
    w.store_used = 0
    for i in range(w.cells * n):
        w.store_start[i] = -1
    for cell in range(w.cells):
        c = s.cand[cell]
        if bits_popcount(c) < 2:
            continue
        while c:
            dig = bits_lowest_index(c)
            c &= c - 1
            start = cell * n + dig
            if nishio and (kept >> dig) & 1:
                on_clash = w.ni_on[start]
                off_clash = w.ni_off[start]
                w.work += w.ni_work[start]
            else:
                before = w.work
                on_clash = walk(w, &w.a, cell, dig + 1, True, mode)
                off_clash = walk(w, &w.b, cell, dig + 1, False, mode)
                if nishio:
                    w.ni_on[start] = on_clash
                    w.ni_off[start] = off_clash
                    w.ni_work[start] = w.work - before
            if w.work > w.budget:
                return 1
            if on_clash >= 0:
                note(w, start << 1, tech, on_clash, ABSURD_KIND, cell, dig + 1, 0, 1, 0)
            # As SE, a walk stopped by a contradiction still takes part with the nodes
            # it reached: in the double implication and the cell and region forcing.
            if double and not store_walk(w, start, &w.a):
                return -1
            if double and level2 and not nest_store(w, start, &w.a):
                return -1
            if off_clash >= 0:
                note(w, (start << 1) | 1, tech, off_clash, ABSURD_KIND, cell, dig + 1, 1, 0, 0)
            if double and bits_popcount(s.cand[cell]) >= 3:
                for i in range(w.a.len):
                    node = w.a.queue[i]
                    if w.b.mark[node] == w.b.stamp and (node >> 1) != start:
                        # SE lists the nodes both ways set ON, then those set OFF.
                        note_progress(
                            w, node, tech, w.a.count[node] + w.b.count[node]
                            + (double_nested(w, node) if level2 else 0),
                            DOUBLE_KIND, cell, dig + 1, 2, 1 - (node & 1), i,
                        )
    if nishio:
        for dig in range(n):
            w.ni_valid[dig] = 1
    return 0


cdef void need_group(Work *w, const int32_t *indices, int k) noexcept nogil:
    """Mark the candidates of a cell / region forcing group as needing their ON walk
    when the static graph's reach of every one of them (its own start left out) has a
    node in common: otherwise the group concludes nothing (se._Rater.needed_walks)."""
    cdef int words = w.g_words
    cdef int g, j, b
    cdef uint64_t any_left = 0
    cdef const uint64_t *row
    for g in range(k):
        row = &w.g_reach[<size_t>w.g_comp[2 * w.g_index[indices[g]] + 1] * words]
        for j in range(words):
            w.tmp[j] = row[j] if g == 0 else w.tmp[j] & row[j]
    for g in range(k):
        b = 2 * w.g_index[indices[g]] + 1
        w.tmp[b >> 6] &= ~((<uint64_t>1) << (b & 63))
    for j in range(words):
        any_left |= w.tmp[j]
    if any_left:
        for g in range(k):
            w.need[indices[g]] = 1


cdef void needed_walks(Work *w, int min_cell) noexcept nogil:
    """w.need for the groups multiple(w, min_cell, ...) forms, from the closed static
    graph of unit and cell links (the last forcing_chains pass)."""
    memset(w.need, 0, w.cells * w.n * sizeof(uint8_t))
    each_group(w, min_cell, 0, 0, True)


cdef int static_walks(Work *w) noexcept nogil:
    """The ON walks (x and y links) of every candidate a group needs (w.need), stored:
    0, 1 budget, -1 memory."""
    cdef Solver *s = &w.s
    cdef int n = w.n
    cdef int cell, dig, i
    cdef uint64_t c
    w.store_used = 0
    for i in range(w.cells * n):
        w.store_start[i] = -1
    for cell in range(w.cells):
        c = s.cand[cell]
        if bits_popcount(c) < 2:
            continue
        while c:
            dig = bits_lowest_index(c)
            c &= c - 1
            if not w.need[cell * n + dig]:
                continue
            walk(w, &w.a, cell, dig + 1, True, UNIT_LINKS | CELL_LINKS)
            if w.work > w.budget:
                return 1
            if not store_walk(w, cell * n + dig, &w.a):
                return -1
    return 0


cdef void fill_digit_bits(Work *w) noexcept nogil:
    """w.digit_bits from the board: the walks of one chain step read it, as the board
    stays put until the step applies its hint."""
    cdef int cell, dig
    cdef uint64_t c
    memset(w.digit_bits, 0, w.n * w.cwords * sizeof(uint64_t))
    for cell in range(w.cells):
        c = w.s.cand[cell]
        while c:
            dig = bits_lowest_index(c)
            c &= c - 1
            w.digit_bits[dig * w.cwords + (cell >> 6)] |= (<uint64_t>1) << (cell & 63)


cdef int chain_step(Work *w) noexcept nogil:
    """se._Rater.chain_step: the difficulty of the one hint applied (tenths), -1 none
    or budget spent, -2 no memory."""
    cdef Solver *s = &w.s
    cdef int n = w.n
    cdef int family, node, outcome, cell, digit, tech, p, dig
    cdef uint64_t elims
    w.hint_key[0] = NO_RANK
    fill_digit_bits(w)
    for family in range(4 + w.nesting):
        if family >= 5:
            if not nest_init(w):
                return -2
            nest_new_step(w)
        if family == 0:
            cycles(w, 0, 1)
            outcome = 1 if w.work > w.budget else forcing_chains(w)
            if outcome == 0 and w.hint_key[0] >= BASE[T_XY_CYCLE]:
                # xy-cycles start at 7.0: past a hint found below it, none of theirs
                # could come first (se._Rater.chain_step).
                cycles(w, 2, 2)
        elif family == 1:
            outcome = contradictions(w, UNIT_LINKS | DYNAMIC_LINKS, T_NISHIO, False)
        elif family == 2:
            needed_walks(w, 3)
            outcome = static_walks(w)
            if outcome == 0:
                multiple(w, 3, T_CELL, T_REGION)
        else:
            tech = (
                T_DYNAMIC if family == 3 else T_DYNAMIC_PLUS if family == 4
                else T_DYNAMIC_PLUS_FC if family == 5
                else T_DYNAMIC_PLUS_MFC if family == 6 else T_DYNAMIC_PLUS_DFC
            )
            outcome = contradictions(
                w,
                UNIT_LINKS | CELL_LINKS | DYNAMIC_LINKS
                | (NESTED_LINKS if family >= 4 else 0) | (NESTED_CHAINS if family >= 5 else 0)
                | (NESTED_MULTIPLE if family == 6 else 0)
                | (NESTED_DYNAMIC if family == 7 else 0),
                tech,
                True,
            )
            if outcome == 0:
                multiple(w, 2, tech, tech)
            w.level2 = False
            w.level3 = False
            w.level4 = False
        if outcome < 0 or (family >= 5 and w.nest.oom):
            return -2
        if outcome > 0 or w.work > w.budget:
            return -1
        if w.hint_key[0] < NO_RANK:
            break
        if family == 0:
            outcome = als_wing(w, 6)
            if outcome >= 0:
                remove_kept(w)
                w.last_tech = T_TUVWXYZ_WING
                return outcome
            if aligned_triple(w):
                remove_elims(w)
                w.last_tech = T_ALIGNED_TRIPLE
                return BASE[T_ALIGNED_TRIPLE]
    if w.hint_key[0] == NO_RANK:
        return -1
    w.last_tech = w.hint_tech
    node = w.hint_node
    if node < 0:
        for p in range(w.cells):
            elims = w.hint_elims[p] & s.cand[p]
            while elims:
                dig = bits_lowest_index(elims)
                elims &= elims - 1
                remove_one(s, p, dig + 1)
        return w.hint_key[0]
    cell = (node >> 1) // n
    digit = (node >> 1) - cell * n + 1
    if node & 1:
        if not s.values[cell]:
            place(s, cell, digit)
    elif (s.cand[cell] >> (digit - 1)) & 1:
        remove_one(s, cell, digit)
    return w.hint_key[0]


# ---------------------------------------------------------------------------------------
# A whole rating


cdef enum:
    LOG_HEAD = 5     # per logged step: technique, tenths, logic technique (-1 none),
                     # pattern cells, pattern digits
    LOG_DIGITS = 64  # pattern digits kept per step (Step.digits holds as many)

# Whether a technique's step is found by a finder of `_logic`, which leaves its pattern
# (cells, digits, the numbers its explanation needs) in the solver's `step`.
cdef bint LOGIC_PATTERN[T_COUNT]
LOGIC_PATTERN[:] = [
    t in (T_FULL_HOUSE, T_HIDDEN_BOX, T_HIDDEN_LINE, T_NAKED_SINGLE, T_NAKED_PAIR,
          T_X_WING, T_HIDDEN_PAIR, T_NAKED_TRIPLE, T_SWORDFISH, T_HIDDEN_TRIPLE,
          T_XY_WING, T_XYZ_WING, T_NAKED_QUAD, T_JELLYFISH, T_HIDDEN_QUAD)
    for t in range(T_COUNT)
]


cdef struct PathLog:
    # Each step of a rating as it was taken: its technique and difficulty, the board
    # after it (values and candidates), and the `_logic` pattern where there is one.
    int steps
    int cap
    int cells
    int32_t *head      # [cap * LOG_HEAD]
    int64_t *aux       # [cap * 4] the pattern's explanation numbers (Step.aux)
    int32_t *pattern   # [cap * (cells + LOG_DIGITS)] pattern cells, then digits
    uint8_t *values    # [cap * cells]
    uint64_t *cand     # [cap * cells]


cdef void log_free(PathLog *log) noexcept nogil:
    free(log.head)
    free(log.aux)
    free(log.pattern)
    free(log.values)
    free(log.cand)


cdef bint log_step(PathLog *log, const Solver *s, int tech, int tenths) noexcept nogil:
    """Append one step to `log`; False when memory ran out."""
    cdef int k, cap, cells = log.cells, at = log.steps
    cdef int width = cells + LOG_DIGITS
    cdef const Step *st = &s.step
    cdef void *grown
    if at == log.cap:
        cap = 64 if log.cap == 0 else 2 * log.cap
        grown = realloc(log.head, <size_t>cap * LOG_HEAD * sizeof(int32_t))
        if grown == NULL:
            return False
        log.head = <int32_t *>grown
        grown = realloc(log.aux, <size_t>cap * 4 * sizeof(int64_t))
        if grown == NULL:
            return False
        log.aux = <int64_t *>grown
        grown = realloc(log.pattern, <size_t>cap * width * sizeof(int32_t))
        if grown == NULL:
            return False
        log.pattern = <int32_t *>grown
        grown = realloc(log.values, <size_t>cap * cells)
        if grown == NULL:
            return False
        log.values = <uint8_t *>grown
        grown = realloc(log.cand, <size_t>cap * cells * sizeof(uint64_t))
        if grown == NULL:
            return False
        log.cand = <uint64_t *>grown
        log.cap = cap
    log.head[at * LOG_HEAD] = tech
    log.head[at * LOG_HEAD + 1] = tenths
    log.head[at * LOG_HEAD + 2] = -1
    log.head[at * LOG_HEAD + 3] = 0
    log.head[at * LOG_HEAD + 4] = 0
    if LOGIC_PATTERN[tech]:
        log.head[at * LOG_HEAD + 2] = st.tech
        log.head[at * LOG_HEAD + 3] = st.ncells
        log.head[at * LOG_HEAD + 4] = st.ndigits
        for k in range(st.ncells):
            log.pattern[<size_t>at * width + k] = st.cells[k]
        for k in range(st.ndigits):
            log.pattern[<size_t>at * width + cells + k] = st.digits[k]
        for k in range(4):
            log.aux[at * 4 + k] = st.aux[k]
    for k in range(cells):
        log.values[<size_t>at * cells + k] = s.values[k]
        log.cand[<size_t>at * cells + k] = s.cand[k]
    log.steps = at + 1
    return True


cdef void rate_loaded(
    Work *w, const uint8_t *solution, int32_t *out, PathLog *log, int max_steps
) noexcept nogil:
    """se.rate_se on the loaded puzzle: out = score, hardest, steps, status; with a
    `log`, every step taken is appended to it (as se.rate_se's `path`); at most
    `max_steps` steps (-1: to the end)."""
    cdef Solver *s = &w.s
    cdef int score = 0, hardest = -1, steps = 0, status = SE_OK, tech, tenths = 0, cell
    cdef bint beyond = False
    w.work = 0
    work_reset_marks(w)
    while s.open and (max_steps < 0 or steps < max_steps):
        tech = easy_step(w, &tenths)
        if tech < 0:
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
                # Past the last nesting level tried: where the next one starts.
                tenths = (
                    BASE[T_BEYOND] if w.nesting < 2
                    else BASE[T_DYNAMIC_PLUS_FC] + 5 if w.nesting == 2
                    else BASE[T_DYNAMIC_PLUS_MFC] + 5 if w.nesting == 3
                    else BASE[T_DYNAMIC_PLUS_DFC] + 5
                )
                cell = 0
                while s.values[cell]:
                    cell += 1
                place(s, cell, solution[cell])
                beyond = True
        steps += 1
        if tenths > score:
            score = tenths
            hardest = tech
        if log != NULL and not log_step(log, s, tech, tenths):
            status = SE_NO_MEMORY
            break
    if beyond and status == SE_OK:
        status = SE_BEYOND
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
    int nesting=1,
):
    """Rate puzzles start..stop-1 on the SE scale: out[i*SLOTS:(i+1)*SLOTS] = score in
    tenths, hardest technique id (-1 none), steps, status (0 ok, 1 budget spent, 2
    stuck without a solution, 3 a digit revealed where no technique applied (the score
    is a lower bound), -1 clashing clues, -2 out of memory).

    `grids` holds N*N values per puzzle; `solutions` the same, or is empty (then a
    puzzle where no technique applies ends with status 2). `budget`: walk steps per
    puzzle. `nesting` 2 adds SE's second nesting level (dynamic chains on static
    forcing chains, 9.5 and up; a "beyond" step is then rated 10.0), 3 also the third
    (on static cell and region forcing chains, 10.0 and up; "beyond" then 10.5), 4
    the fourth (on SE's plain dynamic forcing chains, 10.5 and up; "beyond" then 11.0).
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
    if nesting not in (1, 2, 3, 4):
        raise ValueError("nesting must be 1, 2, 3 or 4")
    with nogil:
        if not work_init(&w, t):
            for i in range(start, stop):
                out[i * OUT_SLOTS + 3] = SE_NO_MEMORY
        else:
            w.budget = budget
            w.nesting = nesting
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
                    NULL,
                    -1,
                )
        work_free(&w)


def se_path(
    LogicTables tables,
    const uint8_t[::1] grid,
    const uint8_t[::1] solution,
    int64_t budget,
    const uint64_t[::1] allowed=None,
    int max_steps=-1,
    int nesting=1,
):
    """Rate one puzzle as `se_range` does and return every step it took.

    Returns (score, hardest, steps, status, records): the first four as `se_range`
    writes them; each record is (technique id, tenths, values after the step,
    candidates after the step, pattern), the pattern being None or, for a step a
    `_logic` finder found, (its technique index, cells, digits, aux). The same
    records as `_se_py.rate_se` gives with a `path`, candidates as a tuple of ints there.
    With `allowed` (one candidate mask per cell) the board's candidates are narrowed to
    it first; `max_steps` >= 0 stops after that many steps; `nesting` as in `se_range`.
    """
    cdef const Tables *t = &tables.t
    cdef Py_ssize_t cells = t.cells
    cdef int32_t out[OUT_SLOTS]
    cdef Work w
    cdef PathLog log
    cdef int loaded = 0, i, k, width, cell
    cdef uint64_t gone
    cdef bint narrow = allowed is not None
    cdef int32_t *head
    cdef bint ready
    if grid.shape[0] != cells or solution.shape[0] != cells:
        raise ValueError("grid and solution must hold N*N values")
    if narrow and allowed.shape[0] != cells:
        raise ValueError("allowed must hold N*N masks")
    if nesting not in (1, 2, 3, 4):
        raise ValueError("nesting must be 1, 2, 3 or 4")
    memset(&log, 0, sizeof(PathLog))
    log.cells = <int>cells
    width = log.cells + LOG_DIGITS
    with nogil:
        ready = work_init(&w, t)
        if ready:
            w.budget = budget
            w.nesting = nesting
            loaded = solver_load(&w.s, &grid[0])
            if loaded == 0:
                if narrow:
                    for cell in range(cells):
                        gone = w.s.cand[cell] & ~allowed[cell]
                        while gone:
                            remove_one(&w.s, cell, bits_lowest_index(gone) + 1)
                            gone &= gone - 1
                rate_loaded(&w, &solution[0], out, &log, max_steps)
        work_free(&w)
    try:
        if not ready:
            raise MemoryError("no memory for the SE rater")
        if loaded != 0:
            raise ValueError("two equal values share a unit")
        if out[3] == SE_NO_MEMORY:
            raise MemoryError("no memory for the SE rater's path")
        records = []
        for i in range(log.steps):
            head = &log.head[i * LOG_HEAD]
            pattern = None
            if head[2] >= 0:
                pattern = (
                    head[2],
                    tuple([log.pattern[<size_t>i * width + k] for k in range(head[3])]),
                    tuple([log.pattern[<size_t>i * width + cells + k] for k in range(head[4])]),
                    tuple([log.aux[i * 4 + k] for k in range(4)]),
                )
            records.append((
                head[0],
                head[1],
                bytes(log.values[<size_t>i * cells:<size_t>(i + 1) * cells]),
                tuple([log.cand[<size_t>i * cells + k] for k in range(cells)]),
                pattern,
            ))
        return out[0], out[1], out[2], out[3], records
    finally:
        log_free(&log)


def se_walk(
    LogicTables tables,
    const uint8_t[::1] grid,
    const uint64_t[::1] allowed,
    int cell,
    int digit,
    bint on,
    int mode,
    int64_t budget,
):
    """One chain walk of the rater, for comparing it with the twin's `_Rater.walk`.

    The board is `grid`'s values with each cell's candidates narrowed to `allowed`;
    the walk starts from (cell, digit) set ON or OFF and follows `mode`'s links (the
    twin's UNIT_LINKS, CELL_LINKS, DYNAMIC_LINKS, NESTED_LINKS, NESTED_CHAINS,
    NESTED_MULTIPLE, NESTED_DYNAMIC bits).
    Returns (the complexity of the contradiction met or -1, its nested part, the walk
    steps counted, {node: complexity} of every node reached).
    """
    cdef const Tables *t = &tables.t
    cdef Py_ssize_t cells = t.cells
    cdef Work w
    cdef int loaded = 0, clash = -1, c, i, nested = 0
    cdef uint64_t gone
    cdef bint ready
    if grid.shape[0] != cells or allowed.shape[0] != cells:
        raise ValueError("grid and allowed must hold N*N entries")
    if not 0 <= cell < cells or not 1 <= digit <= t.n:
        raise ValueError("no such candidate")
    with nogil:
        ready = work_init(&w, t)
        if ready:
            w.budget = budget
            loaded = solver_load(&w.s, &grid[0])
            if loaded == 0:
                for c in range(cells):
                    gone = w.s.cand[c] & ~allowed[c]
                    while gone:
                        remove_one(&w.s, c, bits_lowest_index(gone) + 1)
                        gone &= gone - 1
                work_reset_marks(&w)
                fill_digit_bits(&w)
                static_graph(&w, UNIT_LINKS | CELL_LINKS)
                if mode & NESTED_DYNAMIC:
                    w.nesting = 4
                elif mode & NESTED_MULTIPLE:
                    w.nesting = 3  # nest_init then makes room for level 3's walks
                if mode & NESTED_CHAINS:
                    ready = nest_init(&w)
                    if ready:
                        nest_new_step(&w)
                if ready and (w.s.cand[cell] >> (digit - 1)) & 1:
                    clash = walk(&w, &w.a, cell, digit, on, mode)
                    if mode & NESTED_CHAINS:
                        ready = not w.nest.oom
                        nested = w.nest.last_nested if clash >= 0 else 0
    try:
        if not ready:
            raise MemoryError("no memory for the SE rater")
        if loaded != 0:
            raise ValueError("two equal values share a unit")
        reached = {w.a.queue[i]: w.a.count[w.a.queue[i]] for i in range(w.a.len)}
        return clash, nested, w.work, reached
    finally:
        work_free(&w)
