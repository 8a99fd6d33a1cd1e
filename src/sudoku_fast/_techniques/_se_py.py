"""Difficulty on the Sudoku Explainer (SE) scale: the slow, plain twin of `_se.pyx`.

The ladder's names, ids and base difficulties are in `_base/se_scale.py` (one source
for both twins); this module follows them step by step.

SE rates a puzzle by solving it with the easiest available step at each point and
reporting the difficulty of the hardest step. The techniques, their order and their
difficulties below follow Sukaku Explainer (the SE fork that rated the Sudoku Exchange
bank) with its default technique set; difficulties are kept in tenths (12 = 1.2) so
that the two twins compare exactly.

Technique ladder, in the order they are tried (tenths):

====  ==========================================================================
10    full house (last empty cell of a unit)
12    hidden single in a box
15    hidden single in a row or column
17    direct pointing (pointing whose eliminations leave a hidden single)
19    direct claiming (claiming whose eliminations leave a hidden single)
23    naked single
26    pointing               28  claiming
30    naked pair             32  x-wing         34  hidden pair
36    naked triple           38  swordfish      40  hidden triple
40    skyscraper, 41 two-string kite, 42 turbot fish: two strong links on one
      digit joined by a weak link (both links in parallel lines: 4.0; a row and a
      column: 4.1; a box with a line: 4.2); 43 grouped strong links: the same with
      a grouped link, where a unit holds the digit in 3 to 6 cells that make two
      groups (a box whose cells off one row and one column lack it, an empty
      rectangle; a box's two rows or columns; a line's two box segments), either
      of which must hold it
42    xy-wing                44  xyz-wing
45    unique rectangle: type 1, 2 and 4 at 4.5, type 3 (a naked set with the
      extra candidates) 4.5 + 0.1 per further cell of the set, or a hidden set of
      the two digits and others, 4.5 + 0.1 per cell past the second; unique loops
      likewise from 4.6 (six cells), 4.7 (eight) and 5.0 (ten and more)
50    naked quad             52  jellyfish      54  hidden quad
54    three strong links (as two strong links, base 5.4, +0.1 / +0.2 as above,
      +0.3 with a grouped link)
55    wxyz-wing: three cells of a unit with four digits between them and a bivalue
      cell (5.5, or 5.6 when the set's largest cell has three candidates); doubly
      linked (both digits of the bivalue cell restricted commons; wxyz and vwxyz
      only) at the same difficulty, removing more
56    bivalue universal grave as SE finds it: type 1 5.6, types 2 and 4 5.7, type 3
      (a naked set with the BUG values) 5.8 to 6.2
58    four strong links (base 5.8)
62    vwxyz-wing: the same with four cells and five digits (6.2 to 6.4)
62    aligned pair exclusion
66    uvwxyz-wing: five cells, six digits
65+   x-cycle / y-cycle: a loop of links on one digit (x) or through bivalue cells
      (y) back to its start; each candidate seen by a node that is on one way round
      and by one that is on the other way round goes (70+: xy-cycle, both links)
66+   forcing x-chain: an assumption on one candidate that, by links of that
      digit alone, leads to its own negation
70+   forcing chain: the same with links inside cells too (xy links)
75    tuvwxyz-wing: a wing of six cells and seven digits, then aligned triplet
      exclusion (both tried when the forcing chains found nothing, as SE does)
75+   Nishio: a dynamic single-digit assumption that leads to a contradiction
80+   cell / region forcing chains: every candidate of a cell (every place of a
      digit in a unit) leads to the same conclusion (static links)
85+   dynamic forcing chains: contradiction, double implication, cell and region
      forcing, where links follow the grid as the assumption changes it
90+   dynamic forcing chains (+), SE's first nesting level: the same walks, but a
      walk that runs out of implications runs pointing / claiming, hidden pairs,
      naked pairs and x-wings on its own grid (the board less everything it has
      removed) and goes on from what they remove; such a removal's parents are the
      removed candidates its pattern needs gone, and count in the complexity
95+   dynamic forcing chains (+ forcing chains), SE's second nesting level, when
      asked (`rate_se(..., nesting=2)`, as the public rater asks the compiled
      one; slow here: seconds to minutes a step): when the four rules give
      nothing, every x-, y- and xy-cycle and forcing x- and xy-chain on the
      walk's grid, in SE's order (difficulty, complexity, kind);
      each one's removals become OFF nodes whose parents are the removed
      candidates its single-implied nodes rest on; the complexity adds, once,
      each distinct nested chain's own among the conclusion's ancestors
100+  dynamic forcing chains (+ multiple forcing chains), SE's third nesting level,
      when asked (nesting=3): when the static chains and cycles give nothing, SE's
      static cell and region forcing chains on the walk's grid (cells of three
      candidates or more; a region's chains only from the cell of its first place),
      each static walk ending at its first contradiction; a hint's rule parents also
      count its chains' starts (the cell's / the unit's removed candidates)
105+  dynamic forcing chains (+ dynamic forcing chains), SE's fourth nesting level,
      when asked (nesting=4; slow here, minutes a step): after the four basic
      rules, SE's plain dynamic forcing chains on the walk's grid (contradiction,
      double, region and cell chains, cells of two candidates or more) instead of
      levels 2-3's static rules; a hint's rule parents are its chains' ON nodes' causes (a
      contradiction's or double chain's start has none)
95    beyond: none of the above applies. SE goes on with chains nested on forcing
      chains (9.5), multiple forcing chains (10.0), dynamic chains (10.5) and nested
      chains (11.0) up to 11.x; this ladder stops where `nesting` says, so the
      step is rated 9.5 (10.0 with nesting=2, where SE's third level starts; 10.5
      with nesting=3; 11.0 with nesting=4), a lower bound, a solution digit is
      revealed and the rating is incomplete (status SE_BEYOND)
====  ==========================================================================

A chain's difficulty is its base plus SE's length rule applied to its complexity (the
number of distinct nodes the conclusion rests on, the assumption and the conclusion
included, summed over the chains of a multiple conclusion): with length = complexity
- 2, 0.1 more each time the length passes 4, 6, 8, 12, 16, 24, 32, 48, ...
(alternately x3/2 and x4/3).

How chains are found: an assumption (a candidate set ON, or removed: OFF) is followed by
a breadth-first walk of implications. ON(cell, d) removes (with xy links) every other
candidate of the cell and d from the cell's peers. OFF(cell, d) sets ON the last
candidate of a cell (xy links) or the last place of d in a unit. Both go as SE goes:
the box, then the row, then the column (a peer shared by two of them once, with the
first), each unit in its own order. As in SE, the walk
takes the ON nodes it has reached first, in order, and an OFF node only when no ON node
waits (which contradiction is met first, and each node's parents, depend on it; a walk
stopped by a contradiction still counts, with the nodes it reached, in the double
implication and the cell and region forcing). In the static walks
"last" means "the other of exactly two in the current grid", and a node's only parent
is the node that first implied it, so its complexity is its depth plus one. In the
dynamic walks "last" means "the only one this walk has not yet removed", and such an ON
node has as parents every removal it rests on, so its complexity is the number of its
distinct ancestors (counted with bitsets). The chain families are tried in order
(forcing chains and cycles, Nishio, multiple, dynamic, dynamic (+), the nested levels);
the first family that finds any hint gives the step, and, as SE, the step applies one
hint: the first in SE's order (difficulty, then complexity, then SE's sort key: double
implication, x links, y links, both, cell, region, contradiction; then the order SE's
search meets them in: by candidate, a candidate's cycles before its forcing chains, ON
conclusions before OFF ones, each walk's nodes in the order reached). A cycle's hint
removes everything it can at once, as SE's does; a chain hint has one conclusion. The
ladder then starts again from the singles.

Where this ladder differs from SE's, and what it costs in agreement, is measured in
`bench/README.md` ("Agreement with Sudoku Explainer"): x-, y- and xy-cycles are here,
but only those that close the breadth-first walk; grouped links join chains of two and
three strong links, not of four (the Sudoku Exchange bank's SE has none there); missing
are the X-loop's own eliminations, doubly linked uvwxyz- and tuvwxyz-wings (the bank's
SE does not follow Sukaku Explainer 1.18.1 there), five and six strong links (off in
SE's defaults too), and the nested dynamic chains of 9.5 and beyond: a puzzle that needs
one of those below 9.5 is rated by the next technique of the ladder that applies; one
that needs a chain nested deeper than level 1 gets an incomplete score (a lower bound),
never a capped one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from .._base.grid import Geometry
from .._base.se_scale import (
    ALIGNED_PAIR,
    ALIGNED_TRIPLE,
    BASE,
    BEYOND,
    BEYOND_TENTHS,
    BUG,
    CELL,
    DEFAULT_BUDGET,
    DIRECT_HIDDEN_PAIR,
    DIRECT_POINTING,
    DYNAMIC,
    DYNAMIC_PLUS,
    DYNAMIC_PLUS_DFC,
    DYNAMIC_PLUS_FC,
    DYNAMIC_PLUS_MFC,
    FORCING,
    FOUR_LINKS,
    GROUPED_LINKS,
    NAKED_SINGLE,
    NISHIO,
    POINTING,
    REGION,
    SE_BEYOND,
    SE_BUDGET,
    SE_OK,
    SE_STUCK,
    SKYSCRAPER,
    THREE_LINKS,
    TUVWXYZ_WING,
    UNIQUE_RECTANGLE,
    UVWXYZ_WING,
    VWXYZ_WING,
    WXYZ_WING,
    X_CHAIN,
    X_CYCLE,
    XY_CYCLE,
    XY_WING,
    XYZ_WING,
    Y_CYCLE,
    length_tenths,
)
from .._base.se_scale import TECHNIQUES as TECHNIQUE_NAMES
from . import _logic_py as logic
from ._logic_py import LogicSolver, Step
from .steps import Contradiction

# Walk modes: which links the implications may use.
UNIT_LINKS = 1
CELL_LINKS = 2
DYNAMIC_LINKS = 4
NESTED_LINKS = 8  # SE's level 1: a walk that runs dry asks the basic rules on its grid
NESTED_CHAINS = 16  # SE's level 2: then the static forcing chains and cycles (with 8)
NESTED_MULTIPLE = 32  # SE's level 3: then the static cell and region forcing chains (with 16)
NESTED_DYNAMIC = 64  # SE's level 4: plain dynamic forcing chains instead of levels 2-3 (with 16)

# The cause of a node of a nested static chain, as SE records it: the start (none), the
# cell's last candidate, or the last place in the box, row or column of the node's cell.
NO_CAUSE = -2
NAKED_CAUSE = -1  # 0, 1, 2: box, row, column


# Grouped links take part in chains of up to this many strong links: the Sudoku Exchange
# bank's SE rates puzzles whose first hard step is a grouped chain of four links
# (Sukaku Explainer 1.18.1: 6.1) by the chains that follow it (see bench/README.md).
GROUPED_MAX_LINKS = 3

# Wings of up to this many set cells (wxyz- and vwxyz-wings) take the doubly linked form.
# Sukaku Explainer 1.18.1 has it for the uvwxyz- and tuvwxyz-wings too, but the Sudoku
# Exchange bank's SE does not follow it there: with it, its 8-9 band agrees less (see
# bench/README.md, "Doubly linked wings").
DOUBLY_LINKED_MAX_CELLS = 4


def link_kinds_tenths(kinds: int) -> int:
    """Tenths added to a strong-link chain by the kinds of units its links lie in
    (bit 1 row, 2 column, 4 box): 0 for lines of one direction, 2 for a box with a
    line, else 1."""
    if kinds in (1, 2):
        return 0
    if kinds & 4 and kinds & 3:
        return 2
    return 1


def wing_tenths(k: int, biggest: int) -> int:
    """Difficulty of a wing of k set cells whose largest cell has `biggest`
    candidates: 5.5 / 5.6 (k = 3), 6.2 to 6.4 (k = 4), 6.6 (k = 5), 7.5 (k = 6)."""
    if k >= 5:
        return 66 if k == 5 else 75
    base = 55 if k == 3 else 62
    return base + k - 2 - abs(3 - biggest)


def loop_tenths(length: int) -> int:
    """What a unique loop of `length` cells adds to the rectangle's 4.5 (SE's default
    rating): 0.1 for six cells, 0.2 for eight, 0.5 for ten or more."""
    if length >= 10:
        return 5
    return length // 2 - 2


def _colex(
    masks: Sequence[int], k: int, start: int, limit: int
) -> Iterator[tuple[tuple[int, ...], int]]:
    """Every k indexes of `masks` whose masks, or-ed with `start`, have at most `limit`
    bits, in colex order (SE's `Permutations`: by the largest index, then the next);
    yields (indexes ascending, union)."""

    def pick(
        below: int, left: int, union: int, chosen: tuple[int, ...]
    ) -> Iterator[tuple[tuple[int, ...], int]]:
        if left == 0:
            yield chosen, union
            return
        for i in range(left - 1, below):
            more = union | masks[i]
            if more.bit_count() <= limit:
                yield from pick(i, left - 1, more, (i, *chosen))

    if start.bit_count() <= limit:
        yield from pick(len(masks), k, start, ())


def _bits(mask: int) -> list[int]:
    """Indexes of the set bits of `mask`, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _hash_order(elims: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """A pattern's eliminations in the order SE walks them: SE keeps them in a hash map
    keyed by cell (hash = the cell's index), which yields the cells by index modulo its
    table size (16, doubled while the cells fill more than three quarters of it), in
    insertion order within a slot, and each cell's digits ascending."""
    cells = list(dict.fromkeys(c for c, _ in elims))
    size = 16
    while len(cells) > size * 3 // 4:
        size *= 2
    order = sorted(range(len(cells)), key=lambda i: (cells[i] & (size - 1), i))
    return [(cells[i], d) for i in order for d in sorted(d for c, d in elims if c == cells[i])]


@dataclass(frozen=True)
class SeResult:
    """The outcome of an SE-style rating.

    `score` is the hardest step's difficulty in tenths (0 when the grid needs no step),
    `hardest` that step's technique id (index into `se_scale.TECHNIQUES`, -1 for none), `steps`
    the number of steps taken, `status` SE_OK, SE_BUDGET or SE_STUCK and `work` the
    walk steps spent.
    """

    score: int
    hardest: int
    steps: int
    status: int
    work: int


Conclusion = tuple[int, int, int]  # (cell, digit, 1 = place / 0 = remove)
# SE's order of a chain family's hints: difficulty (tenths), complexity, SE's sort key
# (1 double implication, 2 x links, 3 y links, 4 both, 5 cell, 6 region, 7
# contradiction), then where SE's search meets the hint: (cell, digit, step within the
# candidate, ON conclusion 0 / OFF 1, place in the first walk). SE's sort is stable, so
# the last five stand for the order its search adds the hints in.
HintKey = tuple[int, int, int, int, int, int, int, int]
# SE's sort key of each chain technique's hints (a dynamic family's is set per hint)
SORT_KIND = {X_CYCLE: 2, X_CHAIN: 2, Y_CYCLE: 3, XY_CYCLE: 4, FORCING: 4, NISHIO: 7}
DOUBLE_KIND, CELL_KIND, REGION_KIND, ABSURD_KIND = 1, 5, 6, 7
# Level 4: one chain of a dynamic hint: its target's ancestors (a node bitset), its
# walk's ON causes, and the cause its start counts with (NO_CAUSE: none).
DynamicChain = tuple[int, dict[int, int], int]
Elims = list[tuple[int, int]]  # (cell, digit) pairs to remove
# A nested static chain (level 2): (rank, removals, nodes with causes, complexity, identity)
StaticHint = tuple[
    tuple[int, int, int], Elims, list[tuple[int, int]], int, tuple[tuple[int, ...], ...]
]


def _next_node(queue: list[int], heads: list[int]) -> int:
    """SE's order in a chain walk: the next ON node reached, and an OFF node only when
    no ON node is waiting (the order decides the first contradiction and the parents);
    -1 when none is left. `heads` holds the ON and OFF scans' places in `queue`."""
    for on in (1, 0):
        at = heads[1 - on]
        while at < len(queue) and queue[at] & 1 != on:
            at += 1
        if at < len(queue):
            heads[1 - on] = at + 1
            return queue[at]
        heads[1 - on] = at
    return -1


class _Rater:
    """One puzzle's SE-style solve on a `LogicSolver` board."""

    def __init__(self, s: LogicSolver, budget: int) -> None:
        self.s = s
        self.geo = s.geo
        self.n = s.geo.size
        self.budget = budget
        self.work = 0
        # SE's nesting levels tried: 1, 2 (chains nested on static forcing chains, 9.5
        # and up) or 3 (and on static cell and region forcing chains, 10.0 and up).
        self.nesting = 1
        self.last_tech = -1
        self.last_hint: Step | None = None
        # The chain hint SE would apply first in this step: its key, technique, and
        # conclusions (one, or a cycle's removals).
        self.hint: tuple[HintKey, int, list[Conclusion]] | None = None
        n = self.n
        self.cell_units = [
            (cell // n, n + cell % n, 2 * n + s.geo.box_of[cell]) for cell in range(s.geo.cells)
        ]
        self.peers = [sorted(p) for p in s.geo.peers]
        self.peer_set = [set(p) for p in s.geo.peers]
        # Level 2: each walk's ancestors and advanced nodes by its start node, and the
        # nested chains met (by their targets and nodes, SE's `FullChain`) with ids.
        self.walk_links: dict[int, tuple[dict[int, int], dict[int, int]]] = {}
        self.chain_ids: dict[tuple[tuple[int, ...], ...], int] = {}
        self.chain_complexity: list[int] = []
        self.last_nested = 0  # the nested part of the last contradiction's complexity
        # Level 4: the last walk's ancestors and ON causes, and its contradiction's
        # ancestors (both clashing nodes').
        self.last_walk: tuple[dict[int, int], dict[int, int]] = ({}, {})
        self.last_clash = 0
        # Each cell's peers in SE's order (box, row, column) with the unit kind (0-2)
        # that first holds them.
        self.se_peers: list[list[tuple[int, int]]] = []
        for cell in range(s.geo.cells):
            row, col, box = self.cell_units[cell]
            order: dict[int, int] = {}
            for cause, u in ((0, box), (1, row), (2, col)):
                for other in s.geo.units[u]:
                    if other != cell:
                        order.setdefault(other, cause)
            self.se_peers.append(list(order.items()))
        # SE's order in its chain walks: box, row, column (a peer in two of them comes
        # once, with the first); which contradiction a walk meets first and each
        # node's parents depend on it.
        self.chain_units = [(box, row, col) for row, col, box in self.cell_units]
        self.chain_peers = [
            list(dict.fromkeys(p for u in units for p in s.geo.units[u] if p != cell))
            for cell, units in enumerate(self.chain_units)
        ]

    # -- easy techniques ------------------------------------------------------------

    def place(self, cell: int, digit: int) -> None:
        self.s.place(cell, digit)

    def remove(self, cell: int, digit: int) -> None:
        self.s.restrict(cell, ~(1 << (digit - 1)))

    def remove_all(self, elims: Elims) -> None:
        for cell, digit in elims:
            if self.s.cand[cell] >> (digit - 1) & 1:
                self.remove(cell, digit)

    def single_in_box(self, cell: int, digit: int) -> bool:
        box = self.geo.units[2 * self.n + self.geo.box_of[cell]]
        bit = 1 << (digit - 1)
        return sum(1 for c in box if self.s.cand[c] & bit) == 1

    def locked(self) -> tuple[int, Elims] | None:
        """The first direct pointing, else direct claiming, else pointing, else claiming.

        Returns (technique id, eliminations)."""
        plain: tuple[int, Elims] | None = None
        for claiming in (False, True):
            for u, other, elim in self._locked_patterns(claiming):
                if self._direct(u, other, elim[0][1]):
                    return DIRECT_POINTING + claiming, elim
                if plain is None:
                    plain = (POINTING + claiming, elim)
        return plain

    def _locked_patterns(self, claiming: bool) -> list[tuple[int, int, Elims]]:
        geo = self.geo
        n = self.n
        cand = self.s.cand
        positions = self.s.positions()
        first_units = range(2 * n) if claiming else range(2 * n, 3 * n)
        out = []
        for u in first_units:
            for digit in range(1, n + 1):
                where = positions[u][digit - 1]
                if not where & (where - 1):
                    continue
                bit = 1 << (digit - 1)
                for other, line_mask, box_mask in geo.crossings[u]:
                    inside = line_mask if claiming else box_mask
                    outside = box_mask if claiming else line_mask
                    if where & ~inside:
                        continue
                    unit = geo.units[other]
                    elim = [
                        (unit[i], digit)
                        for i in range(n)
                        if not outside >> i & 1 and cand[unit[i]] & bit
                    ]
                    if elim:
                        out.append((u, other, elim))
        return out

    def _kind(self, u: int) -> int:
        """0 for a row, 1 for a column, 2 for a box."""
        return u // self.n

    def _direct(self, u: int, other: int, digit: int) -> bool:
        """SE's direct locked candidates: another unit of u's kind that crosses `other`
        had two or more places for `digit` and keeps one outside `other`."""
        positions = self.s.positions()
        for v, line_mask, box_mask in self.geo.crossings[other]:
            if v == u or self._kind(v) != self._kind(u):
                continue
            where = positions[v][digit - 1]
            inside = box_mask if self._kind(v) == 2 else line_mask
            if where.bit_count() > 1 and (where & ~inside).bit_count() == 1:
                return True
        return False

    def direct_hidden(self, k: int) -> Elims | None:
        """SE's direct hidden pair / triple: a hidden set of k digits (boxes, then
        columns, then rows) whose eliminations leave a hidden single of another digit
        in the same unit. Returns the hidden set's eliminations."""
        n = self.n
        geo = self.geo
        cand = self.s.cand
        positions = self.s.positions()
        for u in (*range(2 * n, 3 * n), *range(n, 2 * n), *range(n)):
            unit = geo.units[u]
            if sum(1 for c in unit if cand[c]) <= k:
                continue
            where_of = positions[u]
            # The single left must be a digit with 2 to k + 1 places, all but one in the set.
            if not any(2 <= where_of[v].bit_count() <= k + 1 for v in range(n)):
                continue
            digits = [d for d in range(n) if 2 <= where_of[d].bit_count() <= k]
            for group in combinations(digits, k):
                where = 0
                keep = 0
                for d in group:
                    where |= where_of[d]
                    keep |= 1 << d
                if where.bit_count() != k:
                    continue
                elims = [
                    (unit[i], e + 1) for i in _bits(where) for e in _bits(cand[unit[i]] & ~keep)
                ]
                if not elims:
                    continue
                for v in range(n):
                    if not keep >> v & 1:
                        pv = where_of[v]
                        if pv.bit_count() > 1 and (pv & ~where).bit_count() == 1:
                            return elims
        return None

    def easy_step(self) -> tuple[int, int]:
        """Apply the easiest step below chains; its (technique id, tenths), or (-1, 0).

        A step found by a finder of `_logic_py` leaves its `Step` in `last_hint` (the
        pattern a solving path shows), any other step None."""
        s = self.s
        self.last_hint = None
        hint = logic.find_full_house(s)
        if hint is not None:
            s.apply(hint)
            self.last_hint = hint
            return 0, BASE[0]
        hint = logic.find_hidden_single(s)
        if hint is not None:
            cell, digit = hint.placements[0]
            tech = 1 if self.single_in_box(cell, digit) else 2
            s.apply(hint)
            self.last_hint = hint
            return tech, BASE[tech]
        locked = self.locked()
        if locked is not None and locked[0] < POINTING:
            self.remove_all(locked[1])
            return locked[0], BASE[locked[0]]
        elims = self.direct_hidden(2)
        if elims is not None:
            self.remove_all(elims)
            return DIRECT_HIDDEN_PAIR, BASE[DIRECT_HIDDEN_PAIR]
        hint = logic.find_naked_single(s)
        if hint is not None:
            s.apply(hint)
            self.last_hint = hint
            return NAKED_SINGLE, BASE[NAKED_SINGLE]
        elims = self.direct_hidden(3)
        if elims is not None:
            self.remove_all(elims)
            return NAKED_SINGLE + 1, BASE[NAKED_SINGLE + 1]
        if locked is not None:
            self.remove_all(locked[1])
            return locked[0], BASE[locked[0]]
        finders = (
            (POINTING + 2, logic.find_naked_pair),
            (POINTING + 3, logic.find_x_wing),
            (POINTING + 4, logic.find_hidden_pair),
            (POINTING + 5, logic.find_naked_triple),
            (POINTING + 6, logic.find_swordfish),
            (POINTING + 7, logic.find_hidden_triple),
        )
        for tech, find in finders:
            hint = find(s)
            if hint is not None:
                s.apply(hint)
                self.last_hint = hint
                return tech, BASE[tech]
        links = self.strong_links(2)
        if links is not None:
            self.remove_all(links[1])
            tech = GROUPED_LINKS if links[0] == 3 else SKYSCRAPER + links[0]
            return tech, BASE[SKYSCRAPER] + links[0]
        for tech, find in (
            (XY_WING, logic.find_xy_wing),
            (XYZ_WING, logic.find_xyz_wing),
        ):
            hint = find(s)
            if hint is not None:
                s.apply(hint)
                self.last_hint = hint
                return tech, BASE[tech]
        rect = self.unique_rectangle()
        if rect is not None:
            self.remove_all(rect[1])
            return UNIQUE_RECTANGLE, rect[0]
        for tech, find in (
            (UNIQUE_RECTANGLE + 1, logic.find_naked_quad),
            (UNIQUE_RECTANGLE + 2, logic.find_jellyfish),
            (UNIQUE_RECTANGLE + 3, logic.find_hidden_quad),
        ):
            hint = find(s)
            if hint is not None:
                s.apply(hint)
                self.last_hint = hint
                return tech, BASE[tech]
        links = self.strong_links(3)
        if links is not None:
            self.remove_all(links[1])
            return THREE_LINKS, BASE[THREE_LINKS] + links[0]
        wing = self.als_wing(3)
        if wing is not None:
            self.remove_all(wing[1])
            return WXYZ_WING, wing[0]
        grave = self.bug()
        if grave is not None:
            tenths, place, elims = grave
            if place is not None:
                self.place(*place)
            self.remove_all(elims)
            return BUG, tenths
        links = self.strong_links(4)
        if links is not None:
            self.remove_all(links[1])
            return FOUR_LINKS, BASE[FOUR_LINKS] + links[0]
        wing = self.als_wing(4)
        if wing is not None:
            self.remove_all(wing[1])
            return VWXYZ_WING, wing[0]
        elims = self.aligned_pair()
        if elims:
            self.remove_all(elims)
            return ALIGNED_PAIR, BASE[ALIGNED_PAIR]
        wing = self.als_wing(5)
        if wing is not None:
            self.remove_all(wing[1])
            return UVWXYZ_WING, wing[0]
        return -1, 0

    def _link_ends(self, where: int, box: bool) -> list[tuple[int, int]]:
        """The two ends (as masks of unit positions) of the grouped strong links of a
        unit where a digit has the 3 to 6 places `where`, as SE shapes them: in a line,
        the first of its three box segments without the digit leaves the other two as
        the ends; in a box, the first "heart" (position 0..8) whose four cells off its
        row and column lack the digit (an empty rectangle) leaves the rest of its column
        and the rest of its row, the heart joining an end of one cell's partner or, when
        it holds the digit, both ends of two cells; with 4+ places, the first pair of box
        rows, then of box columns, holding them all (both pairings when the places are
        the four corners of a rectangle). The first shape that fits decides; one with an
        empty end gives no link."""
        if not box:
            for e in range(3):
                if not where & (0o7 << 3 * e):
                    ends = [where & (0o7 << 3 * f) for f in range(3) if f != e]
                    return [(ends[0], ends[1])] if ends[0] and ends[1] else []
            return []
        rows = [0o7 << 3 * r for r in range(3)]
        cols = [0o111 << c for c in range(3)]
        for e in range(9):
            heart = 1 << e
            hr, hc = divmod(e, 3)
            if where & ~(rows[hr] | cols[hc]):
                continue
            blade1 = where & cols[hc] & ~heart
            blade2 = where & rows[hr] & ~heart
            if not blade1 or not blade2:
                return []
            single1 = blade1.bit_count() == 1
            single2 = blade2.bit_count() == 1
            if single1 and single2:
                return [(blade2, blade1 | heart)]
            if single1:
                return [(blade1, blade2 | heart)]
            if single2:
                return [(blade2, blade1 | heart)]
            both = where & heart
            return [(blade1 | both, blade2 | both)]
        if where.bit_count() < 4:
            return []
        for lines in (rows, cols):
            for i, j in ((0, 1), (0, 2), (1, 2)):
                if where & ~(lines[i] | lines[j]):
                    continue
                blade1, blade2 = where & lines[i], where & lines[j]
                if not blade1 or not blade2:
                    return []
                found = [(blade1, blade2)]
                other = cols if lines is rows else rows
                if where.bit_count() == 4 and blade1.bit_count() == 2:
                    pairs = [where & line for line in other if where & line]
                    if len(pairs) == 2 and all(m.bit_count() == 2 for m in pairs):
                        found.append((pairs[0], pairs[1]))
                return found
        return []

    def _strong_links_of(self, dig: int, grouped: bool) -> list[tuple[int, int, int, int, bool]]:
        """The strong links of digit index `dig` (SE's, plain and grouped), each both
        ways round: (start cells, end cells, the unit's cells with the digit, kind (1
        row, 2 column, 4 box), grouped), cell sets as bit masks over the cells."""
        n = self.n
        units = self.geo.units
        positions = self.s.positions()
        out: list[tuple[int, int, int, int, bool]] = []
        for u in range(3 * n):
            where = positions[u][dig]
            count = where.bit_count()
            if count < 2 or count > 6 or (count > 2 and (n != 9 or not grouped)):
                continue  # (the grouped shapes are those of 3x3 boxes)
            unit = units[u]
            kind = 1 if u < n else 2 if u < 2 * n else 4

            def cells(mask: int, unit: tuple[int, ...] = unit) -> int:
                return sum(1 << unit[i] for i in _bits(mask))

            if count == 2:
                i, j = _bits(where)
                if kind == 4 and (i // 3 == j // 3 or i % 3 == j % 3):
                    continue  # a box's pair in one line is the line's link
                ends = [(1 << i, 1 << j)]
            else:
                ends = self._link_ends(where, kind == 4)
            region = cells(where)
            for a, b in ends:
                out.append((cells(a), cells(b), region, kind, count > 2))
                out.append((cells(b), cells(a), region, kind, count > 2))
        return out

    def _weak_unit(self, cells: int) -> int:
        """The unit holding every cell of the mask, looked for as SE does (column, row,
        box); -1 for none."""
        members = _bits(cells)
        for kind in (1, 0, 2):
            u = self.cell_units[members[0]][kind]
            if all(self.cell_units[c][kind] == u for c in members):
                return u
        return -1

    def strong_links(self, k: int) -> tuple[int, Elims] | None:
        """The easiest chain of k strong links on one digit (plain or grouped, see
        `_strong_links_of`), each end joined to the next link's start by a weak link
        (one unit holds both), whose links' units hold no place of the digit in common:
        the digit goes from the cells that see every cell of the chain's two ends,
        outside the links' and the weak links' units. Returns (tenths over the base,
        eliminations): the smallest difficulty, then the most eliminations, then the
        first found (links in unit order, each both ways round)."""
        n = self.n
        cand = self.s.cand
        unit_cells = [sum(1 << c for c in unit) for unit in self.geo.units]
        peer_mask = [sum(1 << p for p in peers) for peers in self.peers]
        best: tuple[int, Elims] | None = None
        for dig in range(n):
            links = self._strong_links_of(dig, k <= GROUPED_MAX_LINKS)
            if len(links) < 2 * k:
                continue
            bit = 1 << dig
            with_digit = sum(1 << c for c in range(self.geo.cells) if cand[c] & bit)
            # (links so far, places of the digit in their units, cells of the weak
            # links' units, kinds, grouped)
            stack: list[tuple[list[int], int, int, int, bool]] = [
                ([i], links[i][2], 0, links[i][3], links[i][4]) for i in reversed(range(len(links)))
            ]
            while stack:
                chain, used, weak, kinds, grouped = stack.pop()
                extra = 3 if grouped else link_kinds_tenths(kinds)
                if best is not None and extra > best[0]:
                    continue
                if len(chain) == k:
                    ends = links[chain[0]][0] | links[chain[-1]][1]
                    seeing = with_digit & ~used & ~weak
                    for c in _bits(ends):
                        seeing &= peer_mask[c]
                    better = best is None or extra < best[0] or seeing.bit_count() > len(best[1])
                    if seeing and better:
                        best = (extra, [(c, dig + 1) for c in _bits(seeing)])
                    continue
                end = links[chain[-1]][1]
                for j in reversed(range(len(links))):
                    start, _, region, kind, group = links[j]
                    if region & used:
                        continue
                    u = self._weak_unit(end | start)
                    if u < 0:
                        continue
                    joined = weak | unit_cells[u]
                    stack.append(
                        ([*chain, j], used | region, joined, kinds | kind, grouped or group)
                    )
        return best

    def unique_rectangle(self) -> tuple[int, Elims] | None:
        """The unique rectangle or loop SE applies (types 1 to 4): the smallest
        difficulty, then the smallest type, then the one whose first bivalue cell comes
        first (where SE's search starts); (tenths, eliminations)."""
        n = self.n
        geo = self.geo
        cand = self.s.cand
        box_of = geo.box_of
        best: tuple[int, int, int] | None = None  # (tenths, type, first bivalue cell)
        best_elims: Elims = []
        for r1 in range(n):
            for r2 in range(r1 + 1, n):
                for c1 in range(n):
                    for c2 in range(c1 + 1, n):
                        cells = (r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2)
                        if len({box_of[c] for c in cells}) != 2:
                            continue
                        common = cand[cells[0]] & cand[cells[1]] & cand[cells[2]] & cand[cells[3]]
                        if common.bit_count() < 2:
                            continue
                        for x, y in combinations(_bits(common), 2):
                            ab = (1 << x) | (1 << y)
                            found = self._rectangle(cells, ab, BASE[UNIQUE_RECTANGLE])
                            if found is None:
                                continue
                            floor = [c for c in cells if cand[c] == ab]
                            key = (found[0], found[1], min(floor, default=geo.cells))
                            if best is None or key < best:
                                best, best_elims = key, found[2]
                                # No later rectangle has a cell before this one's first.
                                if key == (BASE[UNIQUE_RECTANGLE], 1, cells[0]):
                                    return best[0], best_elims
        for shortest, longest in ((6, 6), (8, 8), (10, 2 * n)):
            base = BASE[UNIQUE_RECTANGLE] + loop_tenths(shortest)
            if best is not None and best[0] < base:
                break
            for loop in self._loops(shortest, longest):
                ab = cand[loop[0]]
                found = self._rectangle(loop, ab, base)
                if found is None:
                    continue
                key = (found[0], found[1], loop[0])
                if best is None or key < best:
                    best, best_elims = key, found[2]
        return None if best is None else (best[0], best_elims)

    def _loops(self, shortest: int, longest: int) -> list[tuple[int, ...]]:
        """Unique loops of `shortest` to `longest` cells, as SE searches them: from a
        bivalue cell {a, b}, through cells holding a and b, each step inside a unit of
        another kind than the step before, at most two cells with more candidates
        unless all their extra candidates are one digit; a loop counts when the units of
        its odd cells are those of its even cells, none twice."""
        cand = self.s.cand
        loops: list[tuple[int, ...]] = []
        for start in range(self.geo.cells):
            if cand[start].bit_count() == 2:
                self._extend_loop([start], shortest, longest, cand[start], -1, 2, 0, loops)
        return loops

    def _extend_loop(
        self,
        path: list[int],
        shortest: int,
        longest: int,
        ab: int,
        last_kind: int,
        allowed: int,
        extras: int,
        loops: list[tuple[int, ...]],
    ) -> None:
        cand = self.s.cand
        cell = path[-1]
        for kind in range(3):
            if kind == last_kind:
                continue
            for nxt in self.geo.units[self.cell_units[cell][kind]]:
                if nxt == path[0] and shortest <= len(path) <= longest:
                    if self._valid_loop(path):
                        loops.append(tuple(path))
                elif (
                    nxt not in path
                    and len(path) < longest
                    and cand[nxt] & ab == ab
                    # every loop through a bivalue cell was found from it already
                    and not (cand[nxt] == ab and nxt < path[0])
                ):
                    # A cell sharing a unit with an earlier cell of its parity can close
                    # no valid loop (SE's search goes on and drops it at the end).
                    side = len(path) & 1
                    if any(nxt in self.peer_set[c] for c in path[side::2]):
                        continue
                    more = extras | (cand[nxt] & ~ab)
                    extra = cand[nxt].bit_count() > 2
                    if not extra or more.bit_count() == 1 or allowed > 0:
                        path.append(nxt)
                        self._extend_loop(
                            path, shortest, longest, ab, kind, allowed - extra, more, loops
                        )
                        path.pop()

    def _valid_loop(self, path: list[int]) -> bool:
        odd: set[int] = set()
        even: set[int] = set()
        for i, cell in enumerate(path):
            side = odd if i & 1 else even
            for u in self.cell_units[cell]:
                if u in side:
                    return False
                side.add(u)
        return odd == even

    def _rectangle(self, cells: Sequence[int], ab: int, base: int) -> tuple[int, int, Elims] | None:
        """Types 1 to 4 of a unique rectangle or loop on the digits `ab`: the first of
        SE's order (difficulty, then type); (tenths, type, eliminations)."""
        cand = self.s.cand
        roof = [c for c in cells if cand[c] != ab]
        if len(roof) == 1:
            return base, 1, [(roof[0], d + 1) for d in _bits(ab)]
        if len(roof) < 2:
            return None
        extras = 0
        for c in roof:
            extras |= cand[c] & ~ab
        if extras.bit_count() == 1:
            elims = [
                (c, extras.bit_length())
                for c in self.peers[roof[0]]
                if cand[c] & extras
                and c not in cells
                and all(c in self.peer_set[r] for r in roof[1:])
            ]
            if elims:
                return base, 2, elims
        if len(roof) != 2:
            return None
        r, q = roof
        shared = [u for u in self.chain_units[r] if u in self.chain_units[q]]  # box, row, col
        best = None
        if extras.bit_count() >= 2:
            best = self._type3(r, q, ab, extras, shared, base)
            if best is not None and best[0] == base:
                return best  # type 3 comes before type 4 at one difficulty
        # Type 4: a or b (a first, as SE) only in the roof cells in a unit they share:
        # the other digit goes from both.
        positions = self.s.positions()
        for x, y in ((ab & -ab, ab & (ab - 1)), (ab & (ab - 1), ab & -ab)):
            if any(positions[u][x.bit_length() - 1].bit_count() == 2 for u in shared):
                return base, 4, [(r, y.bit_length()), (q, y.bit_length())]
        return best

    def _type3(
        self, r: int, q: int, ab: int, extras: int, shared: list[int], base: int
    ) -> tuple[int, int, Elims] | None:
        """SE's unique rectangle / loop type 3 on the roof cells r and q (one of them
        holds an extra digit, and they cannot hold a and b both): in a unit they share,
        a naked set of `degree` digits over r as the extra digits and degree - 1 other
        cells (degree + 0.1 per cell past the first), or a hidden set of a, b and
        degree - 2 other digits over r and degree - 1 other cells (0.1 per cell past the
        first). Tried as SE does: degree from 2 up (a naked set has at least the extra
        digits), units box,
        row, column, the naked set before the hidden one, sets in colex order; the
        first of the smallest difficulty; (tenths, 3, eliminations)."""
        n = self.n
        cand = self.s.cand
        values = self.s.values
        positions = self.s.positions()
        best: tuple[int, int, Elims] | None = None
        for degree in range(2, n - 1):
            if best is not None and best[0] <= base + degree - 2:
                break
            for u in shared:
                unit = self.geo.units[u]
                empty = sum(1 for c in unit if values[c] == 0)
                i2 = unit.index(q)
                if (
                    degree * 2 <= empty
                    and degree >= extras.bit_count()
                    and (best is None or best[0] > base + degree - 1)
                ):
                    items = [c for c in unit if c != r and c != q and cand[c].bit_count() >= 2]
                    masks = [cand[c] for c in items]
                    for group, union in _colex(masks, degree - 1, extras, degree):
                        naked = extras & cand[r] & cand[q]
                        for i in group:
                            naked |= masks[i]
                        if union.bit_count() != degree or naked.bit_count() != degree:
                            continue
                        members = {items[i] for i in group}
                        elims = [
                            (c, d + 1)
                            for c in unit
                            if c not in members and c != r and c != q
                            for d in _bits(cand[c] & union)
                        ]
                        if elims:
                            best = (base + degree - 1, 3, elims)
                            break
                if degree * 2 < empty and (best is None or best[0] > base + degree - 2):
                    rest = [d for d in range(n) if not (ab | extras) >> d & 1]
                    where = [positions[u][d] & ~(1 << i2) for d in rest]
                    cover = 0
                    for x in _bits(ab):
                        cover |= positions[u][x] & ~(1 << i2)
                    for group, union in _colex(where, degree - 2, cover, degree):
                        if union.bit_count() != degree or any(not where[i] for i in group):
                            continue
                        hidden = ab
                        for i in group:
                            hidden |= 1 << rest[i]
                        elims = [
                            (unit[i], d + 1)
                            for i in _bits(union)
                            if unit[i] != r and unit[i] != q
                            for d in _bits(cand[unit[i]] & ~hidden)
                        ]
                        if elims:
                            best = (base + degree - 2, 3, elims)
                            break
        return best

    def als_wing(self, k: int) -> tuple[int, Elims] | None:
        """The wing SE applies first among those of k cells of one unit holding k + 1
        digits between them (an almost locked set) and a bivalue cell {x, z} outside
        it, where every cell of the set with x sees the bivalue cell (x a restricted
        common): z goes from the cells that see the bivalue cell and every cell of the
        set with z (x the smaller digit first, then the larger). When both digits are
        restricted commons (doubly linked) and the set has at most
        DOUBLY_LINKED_MAX_CELLS cells, SE's one hint removes x and z each from the
        cells that see the bivalue cell and every cell of the set with that digit, and
        each other digit of the set from the cells that see every cell of the set with
        it; the difficulty is the same. SE's order: difficulty, then more
        eliminations, then SE's suffix (its name's number) the larger as a string,
        then the first found. Returns (tenths, eliminations)."""
        geo = self.geo
        cand = self.s.cand
        bivalue = [c for c in range(geo.cells) if cand[c].bit_count() == 2]
        best: tuple[int, int, str, Elims] | None = None  # tenths, count, suffix, elims
        for unit in geo.units:
            cells = [c for c in unit if cand[c].bit_count() >= 2]
            for group in combinations(cells, k):
                union = 0
                for c in group:
                    union |= cand[c]
                if union.bit_count() != k + 1:
                    continue
                sizes = [cand[c].bit_count() for c in group]
                tenths = wing_tenths(k, max(sizes))
                if best is not None and tenths > best[0]:
                    continue  # a harder set cannot come first
                for y in bivalue:
                    if y in group or cand[y] & ~union:
                        continue
                    # The digits of y whose every holder in the set sees y.
                    linked = [
                        d
                        for d in _bits(cand[y])
                        if all(y in self.peer_set[c] for c in group if cand[c] >> d & 1)
                    ]
                    double = len(linked) == 2 and k <= DOUBLY_LINKED_MAX_CELLS
                    if double:
                        elims = self._wing_removals(group, y, union)
                    else:
                        # Singly linked: x the smaller digit first, z the other one goes.
                        elims = []
                        for x in linked:
                            elims = self._wing_removals(group, y, cand[y] & ~(1 << x))
                            if elims:
                                break
                    if not elims:
                        continue
                    if double:
                        # SE names the hint singly linked when it removes none of the
                        # set's other digits and only one of y's.
                        removed = {d - 1 for _, d in elims}
                        double = not (len(removed) == 1 and removed <= set(linked))
                    suffix = f"{2 if double else 1}{max(sizes)}{sum(sizes)}"
                    if (
                        best is None
                        or tenths < best[0]
                        or (tenths == best[0] and len(elims) > best[1])
                        or (tenths == best[0] and len(elims) == best[1] and suffix > best[2])
                    ):
                        best = (tenths, len(elims), suffix, elims)
        return None if best is None else (best[0], best[3])

    def _wing_removals(self, group: tuple[int, ...], y: int, digits: int) -> Elims:
        """What a wing of the set `group` and the bivalue cell `y` removes of each
        digit in the mask `digits`: a digit of y from the cells that see y and every
        cell of the set holding it, any other digit from the cells that see every cell
        of the set holding it (never from the wing's own cells)."""
        cand = self.s.cand
        elims: Elims = []
        for d in _bits(digits):
            holders = [c for c in group if cand[c] >> d & 1]
            if cand[y] >> d & 1:
                holders.append(y)
            elims.extend(
                (c, d + 1)
                for c in self.peers[holders[0]]
                if cand[c] >> d & 1
                and c not in group
                and all(c in self.peer_set[h] for h in holders[1:])
            )
        return elims

    def aligned_triple(self) -> Elims:
        """The first aligned triplet exclusion that removes something (or []): three
        cells (two, and a third among the cells that exclude for either) with two or
        more common excluders (peers of all three with two or three candidates); a
        value of one of them goes when no combination of values that keeps it is left
        by the excluders and the cells' own units."""
        cand = self.s.cand
        excluders: dict[int, set[int]] = {}
        for c in range(self.geo.cells):
            if cand[c].bit_count() >= 2:
                found = {p for p in self.peers[c] if 2 <= cand[p].bit_count() <= 3}
                if found:
                    excluders[c] = found
        base = list(excluders)
        for i, c0 in enumerate(base):
            for c1 in base[i + 1 :]:
                area = sorted((excluders[c0] | excluders[c1]) & excluders.keys() - {c0, c1})
                for c2 in area:
                    common = excluders[c0] & excluders[c1] & excluders[c2]
                    if len(common) < 2:
                        continue
                    elims = self._exclude((c0, c1, c2), common)
                    if elims:
                        return elims
        return []

    def _exclude(self, cells: tuple[int, ...], common: set[int]) -> Elims:
        cand = self.s.cand
        see = [
            [b in self.peer_set[a] for b in cells] for a in cells
        ]  # see[i][j]: cells i and j share a unit
        allowed = [0] * len(cells)
        for v0 in _bits(cand[cells[0]]):
            for v1 in _bits(cand[cells[1]]):
                if v0 == v1 and see[0][1]:
                    continue
                for v2 in _bits(cand[cells[2]]):
                    if (v2 == v0 and see[0][2]) or (v2 == v1 and see[1][2]):
                        continue
                    values = (1 << v0) | (1 << v1) | (1 << v2)
                    if any(not cand[p] & ~values for p in common):
                        continue
                    allowed[0] |= 1 << v0
                    allowed[1] |= 1 << v1
                    allowed[2] |= 1 << v2
        return [(c, d + 1) for k, c in enumerate(cells) for d in _bits(cand[c] & ~allowed[k])]

    def bug(self) -> tuple[int, tuple[int, int] | None, Elims] | None:
        """Bivalue universal grave, types 1 to 4, as SE finds and applies it: (tenths,
        placement, eliminations), or None.

        The BUG cells and their BUG values come from the units (boxes, then rows, then
        columns) where a digit has neither 0 nor 2 places: a unit whose places of it
        include one cell of three candidates or more makes that cell a BUG cell for the
        digit; none makes no BUG; several leave it to another unit (unless one digit is
        the only one out of place everywhere: then every such cell is a BUG cell for
        it). With the BUG values gone the grid must be a grave (every open cell two
        candidates, every digit 0 or 2 places per unit). Then the first that applies of:
        type 1 (one BUG cell: it keeps its BUG values; 5.6), type 2 (one BUG value: it
        goes from the cells seeing every BUG cell; 5.7), type 4 (two BUG cells in one
        unit sharing one digit besides the BUG values: each keeps its BUG values and
        that digit; 5.7, before type 2 when there are several BUG values), type 3 (the
        BUG values as one more cell of a naked set of `degree` 2-6 in a unit of the BUG
        cells, among the cells seeing all of them; its digits go from that unit's other
        such cells; 5.7 + 0.1 * (degree - 1))."""
        geo = self.geo
        n = self.n
        cand = self.s.cand
        positions = self.s.positions()
        cells = geo.cells
        bug_cells: list[int] = []
        bug_values: dict[int, int] = {}
        all_values = 0
        common: set[int] | None = None
        extra_cells: set[int] | None = None
        only_value = -1
        one_value = True

        def add(cell: int, d: int) -> bool:
            """Make `cell` a BUG cell for digit d; False when no BUG hint can remain."""
            nonlocal common
            if cell not in bug_cells:
                bug_cells.append(cell)
            bug_values[cell] = bug_values.get(cell, 0) | 1 << d
            common = set(self.peers[cell]) if common is None else common & self.peer_set[cell]
            common -= set(bug_cells)
            return not (len(bug_cells) > 1 and all_values.bit_count() > 1 and not common)

        for u in (*range(2 * n, 3 * n), *range(n), *range(n, 2 * n)):  # box, row, column
            unit = geo.units[u]
            for d in range(n):
                where = positions[u][d]
                if where.bit_count() in (0, 2):
                    continue
                new = [unit[i] for i in _bits(where) if cand[unit[i]].bit_count() >= 3]
                if extra_cells is None:
                    extra_cells = set(new)
                    only_value = d
                elif one_value:
                    if only_value == d:
                        extra_cells.update(new)
                    else:
                        one_value = False
                if len(new) == 1:
                    all_values |= 1 << d
                    if not add(new[0], d):
                        return None
                if not new:
                    return None
        if one_value and extra_cells is not None and len(extra_cells) > len(bug_cells):
            for cell in sorted(extra_cells - set(bug_cells)):
                if not add(cell, only_value):
                    return None
        temp = [cand[c] & ~bug_values.get(c, 0) for c in range(cells)]
        if any(not self.s.values[c] and temp[c].bit_count() != 2 for c in range(cells)):
            return None
        for unit in geo.units:
            counts = [0] * n
            for c in unit:
                for d in _bits(temp[c]):
                    counts[d] += 1
            if any(k not in (0, 2) for k in counts):
                return None
        if len(bug_cells) == 1:
            cell = bug_cells[0]
            if all_values.bit_count() == 1:
                return BASE[BUG], (cell, all_values.bit_length()), []
            return BASE[BUG], None, [(cell, d + 1) for d in _bits(cand[cell] & ~all_values)]
        shared = common or set()
        if all_values.bit_count() == 1:
            elims = [(c, all_values.bit_length()) for c in sorted(shared) if cand[c] & all_values]
            if elims:
                return BASE[BUG] + 1, None, elims
            if len(bug_cells) == 2:
                return self._bug_type4(bug_cells, bug_values, all_values)
            return None
        if not shared:
            return None
        if len(bug_cells) == 2:
            found = self._bug_type4(bug_cells, bug_values, all_values)
            if found is not None:
                return found
        for degree in range(2, 7):
            for kind in (2, 0, 1):  # box, row, column
                units = {self.cell_units[c][kind] for c in bug_cells}
                if len(units) != 1:
                    continue
                (u,) = units
                members = [c for c in sorted(shared) if self.cell_units[c][kind] == u]
                if len(members) < degree:
                    continue
                # SE's order of the (degree - 1)-subsets: as bit masks, ascending.
                subsets = sorted(
                    combinations(range(len(members)), degree - 1),
                    key=lambda idx: sum(1 << i for i in idx),
                )
                for idx in subsets:
                    naked = [members[i] for i in idx]
                    union = 0
                    for c in naked:
                        union |= cand[c]
                    if union.bit_count() != degree or all_values.bit_count() < 2:
                        continue
                    if any(cand[c].bit_count() < 2 for c in naked) or all_values & ~union:
                        continue
                    elims = [
                        (c, d + 1)
                        for c in members
                        if c not in naked and c not in bug_cells
                        for d in _bits(cand[c] & union)
                    ]
                    if elims:
                        return BASE[BUG] + degree, None, elims
        return None

    def _bug_type4(
        self, bug_cells: list[int], bug_values: dict[int, int], all_values: int
    ) -> tuple[int, tuple[int, int] | None, Elims] | None:
        """BUG type 4 (SE): the two BUG cells, in one unit (box, row, column first),
        share exactly one digit besides the BUG values: each keeps its BUG values and
        that digit."""
        c1, c2 = bug_cells
        cand = self.s.cand
        shared = cand[c1] & cand[c2] & ~all_values
        if shared.bit_count() != 1:
            return None
        for kind in (2, 0, 1):
            if self.cell_units[c1][kind] == self.cell_units[c2][kind]:
                elims = [
                    (c, d + 1) for c in (c1, c2) for d in _bits(cand[c] & ~bug_values[c] & ~shared)
                ]
                return BASE[BUG] + 1, None, elims
        return None

    def aligned_pair(self) -> Elims:
        """The first aligned pair exclusion that removes something (or [])."""
        cand = self.s.cand
        base: list[tuple[int, set[int]]] = []
        for c in range(self.geo.cells):
            if cand[c].bit_count() >= 2:
                excluders = {p for p in self.peers[c] if cand[p].bit_count() == 2}
                if excluders:
                    base.append((c, excluders))
        for i, (c0, e0) in enumerate(base):
            for c1, e1 in base[i + 1 :]:
                common = e0 & e1
                if len(common) < 2:
                    continue
                sees = c1 in self.peer_set[c0]
                allowed0 = allowed1 = 0
                for v0 in _bits(cand[c0]):
                    for v1 in _bits(cand[c1]):
                        if v0 == v1 and sees:
                            continue
                        pair = (1 << v0) | (1 << v1)
                        if any(not cand[p] & ~pair for p in common):
                            continue
                        allowed0 |= 1 << v0
                        allowed1 |= 1 << v1
                elims = [(c0, d + 1) for d in _bits(cand[c0] & ~allowed0)]
                elims += [(c1, d + 1) for d in _bits(cand[c1] & ~allowed1)]
                if elims:
                    return elims
        return []

    # -- chains -----------------------------------------------------------------------

    def walk(self, cell: int, digit: int, on: bool, mode: int) -> tuple[dict[int, int], int]:
        """Follow the implications of one assumption.

        Returns the complexity of every node reached (node = ((cell * N + d - 1) << 1)
        | on; the start counts 1) and, for dynamic walks, which stop at the first
        contradiction, that contradiction's complexity (the two clashing nodes' counts
        summed; -1 for none). With NESTED_LINKS (dynamic walks only), a walk that runs
        out of nodes asks `nested_offs` for more before it ends."""
        geo = self.geo
        n = self.n
        cand = self.s.cand
        positions = self.s.positions()
        dynamic = bool(mode & DYNAMIC_LINKS)
        start = ((cell * n + digit - 1) << 1) | int(on)
        count: dict[int, int] = {start: 1}
        ancestors: dict[int, int] = {start: 1 << start}
        nested_of: dict[int, int] = {}  # advanced OFF node -> its nested chain's id
        if mode & NESTED_CHAINS:
            self.walk_links[start] = (ancestors, nested_of)
        queue = [start]  # every node reached, in order
        taken: set[int] = set()  # the nodes taken from the queue so far
        # Level 4: each ON node's cause (NAKED_CAUSE or the unit kind 0-2), the first
        # one found, as SE's `Potential.cause`.
        causes: dict[int, int] = {start: NO_CAUSE}
        self.last_walk = (ancestors, causes)
        heads = [0, 0]
        while True:
            node = _next_node(queue, heads)
            if node < 0:
                if mode & NESTED_LINKS and self.nested_round(
                    queue, count, ancestors, nested_of, mode
                ):
                    continue
                break
            taken.add(node)
            self.work += 1
            c = node >> 1
            cell_now, dig = divmod(c, n)
            bit = 1 << dig
            implied: list[tuple[int, list[int], int]] = []  # (node, its parents, cause)
            if node & 1:
                if mode & CELL_LINKS:
                    for e in _bits(cand[cell_now] & ~bit):
                        implied.append(((cell_now * n + e) << 1, [node], NO_CAUSE))
                for p in self.chain_peers[cell_now]:
                    if cand[p] & bit:
                        implied.append(((p * n + dig) << 1, [node], NO_CAUSE))
            else:
                if mode & CELL_LINKS:
                    cc = cand[cell_now]
                    if dynamic:
                        gone = [
                            (cell_now * n + e) << 1
                            for e in _bits(cc)
                            if (cell_now * n + e) << 1 in taken
                        ]
                        left = [e for e in _bits(cc) if (cell_now * n + e) << 1 not in gone]
                        if len(left) == 1:
                            implied.append((((cell_now * n + left[0]) << 1) | 1, gone, NAKED_CAUSE))
                    elif cc.bit_count() == 2:
                        e = (cc & ~bit).bit_length() - 1
                        implied.append((((cell_now * n + e) << 1) | 1, [node], NAKED_CAUSE))
                if mode & UNIT_LINKS:
                    for u in self.chain_units[cell_now]:
                        where = positions[u][dig]
                        unit = geo.units[u]
                        kind = 1 if u < n else 2 if u < 2 * n else 0  # row, column, box
                        if dynamic:
                            gone = [
                                (unit[i] * n + dig) << 1
                                for i in _bits(where)
                                if (unit[i] * n + dig) << 1 in taken
                            ]
                            left = [i for i in _bits(where) if (unit[i] * n + dig) << 1 not in gone]
                            if len(left) == 1:
                                implied.append((((unit[left[0]] * n + dig) << 1) | 1, gone, kind))
                        elif where.bit_count() == 2:
                            for i in _bits(where):
                                if unit[i] != cell_now:
                                    implied.append((((unit[i] * n + dig) << 1) | 1, [node], kind))
            for m, parents, cause in implied:
                if m in count:
                    continue
                if m & 1:
                    causes[m] = cause
                if dynamic:
                    mask = 1 << m
                    for p in parents:
                        mask |= ancestors[p]
                    k = mask.bit_count()
                    if m ^ 1 in count:
                        both = mask | ancestors[m ^ 1]
                        self.last_clash = both
                        self.last_nested = self.nested_sum([(both, nested_of)])
                        return count, k + count[m ^ 1] + self.last_nested
                    ancestors[m] = mask
                else:
                    k = count[node] + 1
                count[m] = k
                queue.append(m)
            if self.work > self.budget:
                return count, -1
        return count, -1

    def nested_round(
        self,
        queue: list[int],
        count: dict[int, int],
        ancestors: dict[int, int],
        nested_of: dict[int, int],
        mode: int,
    ) -> bool:
        """A dry nested walk's round of rules (`nested_offs`): its new OFF nodes
        queued (each one from a nested chain noted in `nested_of`); whether there were
        any."""
        self.work += self.geo.cells  # a round of rules costs a board's worth
        before = len(queue)
        for m, parents, chain in self.nested_offs(count, mode):
            if m in count:
                continue  # an earlier rule of this round removed it already
            mask = 1 << m
            for p in parents:
                mask |= ancestors[p]
            # SE does not test a nested OFF node against the ON nodes: a clash shows
            # through its consequences only.
            ancestors[m] = mask
            count[m] = mask.bit_count()
            if chain >= 0:
                nested_of[m] = chain
            queue.append(m)
        return len(queue) > before

    def nested_sum(self, parts: list[tuple[int, dict[int, int]]]) -> int:
        """SE's nested complexity of a conclusion: the complexity of each distinct
        nested chain among the ancestors of its targets, once. `parts` holds, per walk
        the conclusion rests on, the targets' ancestors there (a node bitset) and that
        walk's advanced node -> nested chain id."""
        chains = {
            chain
            for mask, nested_of in parts
            for node, chain in nested_of.items()
            if mask >> node & 1
        }
        return sum(self.chain_complexity[chain] for chain in chains)

    # -- the rules a nested (level 1) walk runs on its own grid ------------------------

    def nested_offs(self, reached: dict[int, int], mode: int) -> list[tuple[int, list[int], int]]:
        """SE's level-1 nesting: pointing / claiming, hidden pairs, naked pairs and
        x-wings (in that order, the first rule that removes anything new ends the
        round) on the walk's grid (the board less every OFF node reached); at level 2
        (NESTED_CHAINS) then the static forcing chains and cycles (`_nested_chains`).
        Returns each new OFF node with its rule parents: the candidates the walk
        removed that the rule's pattern needs gone (a pattern needing none held before
        the walk, and is left out), and its nested chain's id (-1 for the basic
        rules)."""
        n = self.n
        start = self.s.cand
        grid = list(start)
        for node in reached:
            if not node & 1:
                c = node >> 1
                grid[c // n] &= ~(1 << (c % n))
        rules = (self._nested_locking, self._nested_hidden_pairs, self._nested_naked_pairs)
        for rule in (*rules, self._nested_x_wings):
            out: list[tuple[int, list[int], int]] = []
            for elims, needs in rule(grid):
                parents = [
                    (c * n + d) << 1 for c, d in needs if start[c] >> d & 1 and not grid[c] >> d & 1
                ]
                if not parents:
                    continue
                for c, d in elims:
                    m = (c * n + d) << 1
                    if m not in reached:
                        out.append((m, parents, -1))
            if out:
                return out
        if not mode & NESTED_CHAINS:
            return []
        if mode & NESTED_DYNAMIC:
            return self._nested_chains(grid, reached, self._dynamic_hints(grid))
        out = self._nested_chains(grid, reached, self._static_hints(grid))
        if out or not mode & NESTED_MULTIPLE:
            return out
        return self._nested_chains(grid, reached, self._multiple_hints(grid))

    # -- level 2: SE's static forcing chains and cycles on a walk's grid -----------------

    def _nested_chains(
        self, grid: list[int], reached: dict[int, int], hints: list[StaticHint]
    ) -> list[tuple[int, list[int], int]]:
        """The OFF nodes that SE's static chaining hints on the walk's grid give (level
        2: `_static_hints`, level 3: `_multiple_hints`), in SE's order. Each hint with
        rule parents (the candidates the walk removed that its single-implied nodes
        rest on) gives its removals as OFF nodes; the first hint that gives a node sets
        its parents."""
        n = self.n
        start = self.s.cand
        out: list[tuple[int, list[int], int]] = []
        for _, removable, causes, complexity, key in hints:
            parents: list[int] = []
            for node, cause in causes:
                cell, dig = divmod(node >> 1, n)
                if cause == NAKED_CAUSE:
                    places = [(cell, d) for d in range(n)]
                else:
                    unit = self.geo.units[self.cell_units[cell][(2, 0, 1)[cause]]]
                    places = [(c, dig) for c in unit]
                parents += [
                    (c * n + d) << 1
                    for c, d in places
                    if start[c] >> d & 1 and not grid[c] >> d & 1
                ]
            if not parents:
                continue  # the chain held before the walk: SE leaves it out
            chain = self.chain_ids.setdefault(key, len(self.chain_complexity))
            if chain == len(self.chain_complexity):
                self.chain_complexity.append(complexity)
            parents = list(dict.fromkeys(parents))
            for c, d in removable:
                m = (c * n + d) << 1
                if m not in reached:
                    out.append((m, parents, chain))
        return out

    def _static_hints(self, grid: list[int]) -> list[StaticHint]:
        """The hints of SE's static chaining on `grid`, sorted as SE sorts them: (rank =
        (difficulty, complexity, kind), removable (cell, digit 0-based), the nodes of
        its chains with their causes (the start left out; a cycle's OFF nodes count as
        SE's reversed cycle sets them ON), complexity, identity)."""
        n = self.n
        hints: list[StaticHint] = []
        passes = ((False, True, 2), (True, False, 3), (True, True, 4))
        for y, x, kind in passes:
            mode = (UNIT_LINKS if x else 0) | (CELL_LINKS if y else 0)
            for cell in range(self.geo.cells):
                size = grid[cell].bit_count()
                if size < 2 or (not x and size > 2):
                    continue
                for dig in _bits(grid[cell]):
                    source = ((cell * n + dig) << 1) | 1
                    for path in self._static_cycles(grid, source, y, x, mode):
                        removable = self._cycle_removable(grid, path)
                        if removable:
                            complexity = len(path) - 1  # its end is its start
                            base = BASE[XY_CYCLE] if kind == 4 else BASE[X_CYCLE]
                            rank = (base + length_tenths(complexity - 2), complexity, kind)
                            key = (tuple(node for node, _ in path),)
                            hints.append((rank, removable, path[:-1], complexity, key))
                    if not x:
                        continue
                    for path in self._static_forcing(grid, source, y) + self._static_forcing(
                        grid, source ^ 1, y
                    ):
                        removable = self._target_removals(grid, path[0][0])
                        if removable:
                            complexity = len(path)
                            base = BASE[FORCING] if kind == 4 else BASE[X_CHAIN]
                            rank = (base + length_tenths(complexity - 2), complexity, kind)
                            causes = [
                                (node, cause)
                                for node, cause in path
                                if node & 1 and cause != NO_CAUSE
                            ]
                            key = (tuple(node for node, _ in path),)
                            hints.append((rank, removable, causes, complexity, key))
                    if self.work > self.budget:
                        return []
        hints.sort(key=lambda hint: hint[0])  # stable: SE's sort
        return hints

    # -- level 3: SE's static cell and region forcing chains on a walk's grid ----------

    def _multiple_hints(self, grid: list[int]) -> list[StaticHint]:
        """The hints of SE's `Chaining(true, false, false, 0)` on `grid` (static cell and
        region forcing chains), sorted as SE sorts them; as `_static_hints`. SE tries
        the cells of three candidates or more, in order: for each candidate, the region
        chains of each box, row, column whose first place of the digit is the cell;
        then the cell's own chains."""
        n = self.n
        hints: list[StaticHint] = []
        for cell in range(self.geo.cells):
            if grid[cell].bit_count() < 3:
                continue
            row, col, box = self.cell_units[cell]
            cell_walks = []
            for dig in _bits(grid[cell]):
                walk = self._static_walk(grid, ((cell * n + dig) << 1) | 1)
                cell_walks.append(walk)
                for cause, u in ((0, box), (1, row), (2, col)):
                    places = [c for c in self.geo.units[u] if grid[c] >> dig & 1]
                    if len(places) < 2 or places[0] != cell:
                        continue
                    walks = [walk] + [
                        self._static_walk(grid, ((c * n + dig) << 1) | 1) for c in places[1:]
                    ]
                    self._note_multiple(hints, grid, walks, cause, 6)
                if self.work > self.budget:
                    return []
            self._note_multiple(hints, grid, cell_walks, NAKED_CAUSE, 5)
        hints.sort(key=lambda hint: hint[0])  # stable: SE's sort
        return hints

    def _note_multiple(
        self,
        hints: list[StaticHint],
        grid: list[int],
        walks: list[dict[int, tuple[int, int]]],
        start_cause: int,
        kind: int,
    ) -> None:
        """Add the hints of the nodes every walk reaches (ON ones first, each in the
        first walk's order): a cell's (kind 5, its chains start ON a cell's
        candidates: `start_cause` NAKED_CAUSE) or a region's (kind 6: the digit's
        places in a unit, `start_cause` its kind)."""
        first, *rest = walks
        for on in (1, 0):
            for target in first:
                if target & 1 != on or any(target not in w for w in rest):
                    continue
                removable = self._target_removals(grid, target)
                if not removable:
                    continue
                paths = []
                for w in walks:
                    path = []
                    node = target
                    while node >= 0:
                        parent, cause = w[node]
                        path.append((node, start_cause if parent < 0 else cause))
                        node = parent
                    paths.append(path)
                complexity = sum(len(path) for path in paths)
                rank = (BASE[CELL] + length_tenths(complexity - 2), complexity, kind)
                causes = [(m, cause) for path in paths for m, cause in path if m & 1]
                key = tuple(tuple(m for m, _ in path) for path in paths)
                hints.append((rank, removable, causes, complexity, key))

    # -- level 4: SE's plain dynamic forcing chains on a walk's grid ----------------------

    def _dynamic_hints(self, grid: list[int]) -> list[StaticHint]:
        """The hints of SE's `Chaining(true, true, false, 0)` on `grid` (dynamic
        contradiction, double, region and cell forcing chains, no nesting), sorted as SE
        sorts them; as `_static_hints`. SE tries the cells of two candidates or more, in
        order: for each candidate its ON and OFF walks (a contradiction of either; with
        three candidates or more, the nodes both reach), the region chains of each box,
        row, column whose first place of the digit is the cell; then the cell's own
        chains. Each chain's rule parents are its ON nodes with their causes (a
        contradiction's or double chain's start has none)."""
        s = self.s
        saved = s.cand, s._positions
        s.cand = list(grid)
        s._positions = None
        try:
            return self._dynamic_hints_here()
        finally:
            s.cand, s._positions = saved

    def _dynamic_hints_here(self) -> list[StaticHint]:
        n = self.n
        grid = self.s.cand
        mode = UNIT_LINKS | CELL_LINKS | DYNAMIC_LINKS
        hints: list[StaticHint] = []
        walks: dict[int, tuple[dict[int, int], dict[int, int], dict[int, int]]] = {}

        def on_walk(cell: int, dig: int) -> tuple[dict[int, int], dict[int, int], dict[int, int]]:
            node = ((cell * n + dig) << 1) | 1
            if node not in walks:
                count, _ = self.walk(cell, dig + 1, True, mode)
                walks[node] = (count, *self.last_walk)
            return walks[node]

        def add(
            result: int, chains: list[DynamicChain],
            complexity: int, kind: int,
        ) -> None:  # fmt: skip
            removable = self._target_removals(grid, result)
            if not removable:
                return
            causes: list[tuple[int, int]] = []
            key = []
            for mask, ancestors_causes, start_cause in chains:
                key.append(mask)
                for m in _bits(mask):
                    if m & 1:
                        cause = ancestors_causes.get(m, NO_CAUSE)
                        if cause == NO_CAUSE:
                            cause = start_cause
                        if cause != NO_CAUSE:
                            causes.append((m, cause))
            rank = (BASE[CELL] + length_tenths(complexity - 2), complexity, kind)
            hints.append((rank, removable, causes, complexity, (tuple([result, *key]),)))

        for cell in range(self.geo.cells):
            card = grid[cell].bit_count()
            if card < 2:
                continue
            row, col, box = self.cell_units[cell]
            for dig in _bits(grid[cell]):
                start = ((cell * n + dig) << 1) | 1
                on_count, on_clash = self.walk(cell, dig + 1, True, mode)
                on_anc, on_causes = self.last_walk
                walks[start] = (on_count, on_anc, on_causes)
                if on_clash >= 0:
                    add(start ^ 1, [(self.last_clash, on_causes, NO_CAUSE)], on_clash, 7)
                off_count, off_clash = self.walk(cell, dig + 1, False, mode)
                off_anc, off_causes = self.last_walk
                if off_clash >= 0:
                    add(start, [(self.last_clash, off_causes, NO_CAUSE)], off_clash, 7)
                if self.work > self.budget:
                    return []
                if card >= 3:
                    for on in (1, 0):
                        for node, k_on in on_count.items():
                            if node & 1 != on or node >> 1 == start >> 1:
                                continue
                            k_off = off_count.get(node)
                            if k_off is None:
                                continue
                            chains: list[DynamicChain] = [
                                (on_anc[node], on_causes, NO_CAUSE),
                                (off_anc[node], off_causes, NO_CAUSE),
                            ]
                            add(node, chains, k_on + k_off, 1)
                for cause, u in ((0, box), (1, row), (2, col)):
                    places = [c for c in self.geo.units[u] if grid[c] >> dig & 1]
                    if len(places) < 2 or places[0] != cell:
                        continue
                    group = [walks[start]] + [on_walk(c, dig) for c in places[1:]]
                    self._dynamic_common(add, group, cause, 6)
                    if self.work > self.budget:
                        return []
            group = [on_walk(cell, d) for d in _bits(grid[cell])]
            self._dynamic_common(add, group, NAKED_CAUSE, 5)
        hints.sort(key=lambda hint: hint[0])  # stable: SE's sort
        return hints

    @staticmethod
    def _dynamic_common(
        add: Callable[[int, list[DynamicChain], int, int], None],
        group: list[tuple[dict[int, int], dict[int, int], dict[int, int]]],
        start_cause: int,
        kind: int,
    ) -> None:
        """The hints of the nodes every ON walk of a group reaches (ON ones first, each
        in the first walk's order), for `_dynamic_hints`."""
        (first, *_), *rest = group
        for on in (1, 0):
            for node, k0 in first.items():
                if node & 1 != on or k0 == 1 or any(node not in w[0] for w in rest):
                    continue
                if any(w[0][node] == 1 for w in rest):
                    continue
                complexity = sum(w[0][node] for w in group)
                add(node, [(w[1][node], w[2], start_cause) for w in group], complexity, kind)

    def _target_removals(self, grid: list[int], target: int) -> Elims:
        """What a chain's target removes on `grid`: an ON target its cell's other
        candidates, an OFF one itself."""
        c, d = divmod(target >> 1, self.n)
        return [(c, e) for e in _bits(grid[c] & ~(1 << d))] if target & 1 else [(c, d)]

    def _static_walk(self, grid: list[int], source: int) -> dict[int, tuple[int, int]]:
        """SE's static `doChaining` from `source` on `grid` (cell and unit links, ON
        nodes before OFF ones, each node once with its first parent), up to its first
        contradiction: {node: (parent or -1, cause)} in the order reached."""
        reached: dict[int, tuple[int, int]] = {source: (-1, NO_CAUSE)}
        queue = [source]
        heads = [0, 0]
        while True:
            node = _next_node(queue, heads)
            if node < 0:
                return reached
            if node & 1:
                links = self._se_offs(grid, node, True)
            else:
                links = self._se_ons(grid, node, True, True)
            self.work += 1
            for m, cause in links:
                if m ^ 1 in reached:
                    return reached  # a contradiction ends SE's walk
                if m not in reached:
                    reached[m] = (node, cause)
                    queue.append(m)

    def _se_offs(self, grid: list[int], node: int, y: bool) -> list[tuple[int, int]]:
        """SE's ON -> OFF links in its order: the cell's other candidates (with y), then
        the digit's other places in the box, the row, the column; (node, cause)."""
        n = self.n
        cell, dig = divmod(node >> 1, n)
        bit = 1 << dig
        out = []
        if y:
            out += [((cell * n + e) << 1, NAKED_CAUSE) for e in _bits(grid[cell] & ~bit)]
        out += [
            ((other * n + dig) << 1, cause)
            for other, cause in self.se_peers[cell]
            if grid[other] & bit
        ]
        return out

    def _se_ons(self, grid: list[int], node: int, y: bool, x: bool) -> list[tuple[int, int]]:
        """SE's static OFF -> ON links in its order: the other candidate of a bivalue
        cell (with y), the other place of the digit in the box, row, column holding it
        twice (with x); (node, cause)."""
        n = self.n
        cell, dig = divmod(node >> 1, n)
        bit = 1 << dig
        out = []
        if y and grid[cell].bit_count() == 2:
            e = (grid[cell] & ~bit).bit_length() - 1
            out.append((((cell * n + e) << 1) | 1, NAKED_CAUSE))
        if x:
            row, col, box = self.cell_units[cell]
            for cause, u in ((0, box), (1, row), (2, col)):
                others = [c for c in self.geo.units[u] if c != cell and grid[c] & bit]
                if len(others) == 1:
                    out.append((((others[0] * n + dig) << 1) | 1, cause))
        return out

    def _static_forcing(self, grid: list[int], source: int, y: bool) -> list[list[tuple[int, int]]]:
        """SE's `doForcingChains` from `source`: each chain that reaches the source's
        negation, as its nodes with their causes from the negation back to the
        source."""
        parent: dict[int, tuple[int, int]] = {source: (-1, NO_CAUSE)}
        pending: list[list[int]] = [[], []]  # OFF, ON nodes waiting
        pending[source & 1].append(source)
        found: list[list[tuple[int, int]]] = []
        targets: set[int] = set()
        while pending[0] or pending[1]:
            for on in (1, 0):
                todo, pending[on] = pending[on], []
                for p in todo:
                    self.work += 1
                    if self.work > self.budget:
                        return []
                    links = self._se_offs(grid, p, y) if on else self._se_ons(grid, p, y, True)
                    for m, cause in links:
                        if m == source ^ 1 and m not in targets:
                            targets.add(m)
                            path = [(m, cause)]
                            up = p
                            while up >= 0:
                                path.append((up, parent[up][1]))
                                up = parent[up][0]
                            found.append(path)
                        if m not in parent:
                            parent[m] = (p, cause)
                            pending[m & 1].append(m)
        return found

    def _static_cycles(
        self, grid: list[int], source: int, y: bool, x: bool, mode: int
    ) -> list[list[tuple[int, int]]]:
        """SE's `doCycles` from `source` (ON): each cycle back to it, as its nodes with
        their causes from the closing ON node back to the source. An OFF node is
        reached once per ON parent (unless it is one of that parent's ancestors), an ON
        node once."""
        if not self._reaches(grid, source, source, mode):
            return []
        entries: list[tuple[int, int, int]] = [(source, -1, NO_CAUSE)]  # node, parent, cause
        on_seen = {source}
        found: list[list[tuple[int, int]]] = []
        pending = [0]
        length = 0
        while pending:
            length += 1
            offs = []
            for index in pending:
                node = entries[index][0]
                self.work += 1
                if self.work > self.budget:
                    return []
                for m, cause in self._se_offs(grid, node, y):
                    up = entries[index][1]
                    while up >= 0 and entries[up][0] != m:
                        up = entries[up][1]
                    if up < 0:
                        entries.append((m, index, cause))
                        offs.append(len(entries) - 1)
            length += 1
            pending = []
            for index in offs:
                self.work += 1
                if self.work > self.budget:
                    return []
                for m, cause in self._se_ons(grid, entries[index][0], y, x):
                    if length >= 4 and m == source:
                        path = [(m, cause)]
                        up = index
                        while up >= 0:
                            path.append((entries[up][0], entries[up][2]))
                            up = entries[up][1]
                        found.append(path)
                    if m not in on_seen:
                        on_seen.add(m)
                        entries.append((m, index, cause))
                        pending.append(len(entries) - 1)
        return found

    def _reaches(self, grid: list[int], start: int, goal: int, mode: int) -> bool:
        """Whether the static walk in `mode` on `grid` leads from `start` back to `goal`
        (a cycle needs it; most starts have none)."""
        y, x = bool(mode & CELL_LINKS), bool(mode & UNIT_LINKS)
        seen: set[int] = set()
        todo = [start]
        while todo:
            node = todo.pop()
            links = self._se_offs(grid, node, y) if node & 1 else self._se_ons(grid, node, y, x)
            for m, _ in links:
                if m == goal:
                    return True
                if m not in seen:
                    seen.add(m)
                    todo.append(m)
        return False

    def _cycle_removable(self, grid: list[int], path: list[tuple[int, int]]) -> Elims:
        """SE's cycle eliminations: candidates outside the cycle's cells that see one of
        its ON nodes and one of its OFF nodes of the same digit, in SE's order (a map
        keyed by cell index)."""
        n = self.n
        nodes = [node for node, _ in path[:-1]]
        cells = {node >> 1 for node in nodes}
        cells = {c // n for c in cells}
        forward: dict[tuple[int, int], None] = {}
        backward: set[tuple[int, int]] = set()
        for node in nodes:
            cell, dig = divmod(node >> 1, n)
            for p in self.se_visible(cell):
                if p not in cells and grid[p] >> dig & 1:
                    if node & 1:
                        forward[p, dig] = None
                    else:
                        backward.add((p, dig))
        both = [place for place in forward if place in backward]
        capacity = 16  # a Java HashMap's buckets: its iteration order
        while len({c for c, _ in both}) > capacity * 3 // 4:
            capacity *= 2
        first: dict[int, int] = {}
        for c, _ in both:
            first.setdefault(c, len(first))
        return sorted(both, key=lambda place: (place[0] % capacity, first[place[0]], place[1]))

    def se_visible(self, cell: int) -> list[int]:
        """The cell's peers (order does not matter here)."""
        return self.peers[cell]

    # SE's order matters here: the pattern that removes a candidate first gives its
    # parents, and the order the new OFF nodes are walked in gives later parents and
    # the contradiction met first, so the complexities are SE's only in its order.

    def _box_column_row(self) -> list[int]:
        """Unit indexes in SE's order for sets: boxes, then columns, then rows."""
        n = self.n
        return [*range(2 * n, 3 * n), *range(n, 2 * n), *range(n)]

    def _empty_cells(self, unit: Sequence[int]) -> int:
        return sum(1 for c in unit if not self.s.values[c])

    def _nested_locking(self, grid: list[int]) -> list[tuple[Elims, Elims]]:
        """SE's `Locking`: boxes on columns, boxes on rows, columns on boxes, rows on
        boxes, each by digit, then base unit, then crossing unit: (eliminations in SE's
        order, the places of the digit in the base unit outside the crossing) per
        pattern; digits 0-based."""
        geo = self.geo
        n = self.n
        boxes, rows, columns = range(2 * n, 3 * n), range(n), range(n, 2 * n)
        out = []
        for bases, crossing in ((boxes, columns), (boxes, rows), (columns, boxes), (rows, boxes)):
            for dig in range(n):
                for u in bases:
                    unit = geo.units[u]
                    where = [c for c in unit if grid[c] >> dig & 1]
                    if len(where) < 2:
                        continue
                    for v in crossing:
                        other = geo.units[v]
                        if not set(unit) & set(other) or any(c not in other for c in where):
                            continue
                        elims = [(c, dig) for c in other if c not in unit and grid[c] >> dig & 1]
                        if elims:
                            needs = [(c, dig) for c in unit if c not in other]
                            out.append((_hash_order(elims), needs))
        return out

    def _nested_hidden_pairs(self, grid: list[int]) -> list[tuple[Elims, Elims]]:
        """SE's `HiddenSet(2)`: units with more than four empty cells, boxes, columns,
        rows; digit pairs in colex order, each digit in two places or more."""
        geo = self.geo
        n = self.n
        out = []
        for u in self._box_column_row():
            unit = geo.units[u]
            if self._empty_cells(unit) <= 4:
                continue
            where = [sum(1 << i for i, c in enumerate(unit) if grid[c] >> d & 1) for d in range(n)]
            for y in range(n):
                for x in range(y):
                    both = where[x] | where[y]
                    if min(where[x].bit_count(), where[y].bit_count()) < 2 or both.bit_count() != 2:
                        continue
                    pair = (1 << x) | (1 << y)
                    cells = [unit[i] for i in _bits(both)]
                    elims = [(c, d) for c in cells for d in _bits(grid[c] & ~pair)]
                    if elims:
                        needs = [(c, d) for c in unit if c not in cells for d in (x, y)]
                        out.append((_hash_order(elims), needs))
        return out

    def _nested_naked_pairs(self, grid: list[int]) -> list[tuple[Elims, Elims]]:
        """SE's `NakedSet(2)`: units with four empty cells or more, boxes, columns,
        rows; cell pairs in colex order."""
        geo = self.geo
        n = self.n
        start = self.s.cand
        out = []
        for u in self._box_column_row():
            unit = geo.units[u]
            if self._empty_cells(unit) < 4:
                continue
            for j in range(n):
                for i in range(j):
                    a, b = unit[i], unit[j]
                    pair = grid[a] | grid[b]
                    if min(grid[a].bit_count(), grid[b].bit_count()) < 2 or pair.bit_count() != 2:
                        continue
                    elims = [(c, d) for c in unit if c not in (a, b) for d in _bits(grid[c] & pair)]
                    if elims:
                        needs = [(c, d) for c in (a, b) for d in _bits(start[c] & ~pair)]
                        out.append((_hash_order(elims), needs))
        return out

    def _nested_x_wings(self, grid: list[int]) -> list[tuple[Elims, Elims]]:
        """SE's `Fisherman(2)`: base columns, then base rows; line pairs in colex
        order, then the digits placed at most N - 4 times."""
        geo = self.geo
        n = self.n
        placed = [0] * n
        for v in self.s.values:
            if v:
                placed[v - 1] += 1
        out = []
        for first in (n, 0):
            cover = n - first
            for k in range(n):
                for j in range(k):
                    bases = (geo.units[first + j], geo.units[first + k])
                    for dig in range(n):
                        if placed[dig] + 4 > n:
                            continue
                        where = [
                            sum(1 << i for i, c in enumerate(line) if grid[c] >> dig & 1)
                            for line in bases
                        ]
                        if (
                            where[0].bit_count() < 2
                            or where[1].bit_count() < 2
                            or (where[0] | where[1]).bit_count() != 2
                        ):
                            continue
                        elims = [
                            (c, dig)
                            for i in _bits(where[0])
                            for c in geo.units[cover + i]
                            if c not in bases[0] and c not in bases[1] and grid[c] >> dig & 1
                        ]
                        if elims:
                            needs = [
                                (line[i], dig)
                                for line in bases
                                for i in range(n)
                                if not where[0] >> i & 1
                            ]
                            out.append((_hash_order(elims), needs))
        return out

    def progress(self, node: int) -> Conclusion | None:
        """The conclusion that a node holds, if it changes the board."""
        cell, dig = divmod(node >> 1, self.n)
        if not self.s.cand[cell] >> dig & 1:
            return None
        return (cell, dig + 1, node & 1)

    def note(
        self, conclusion: Conclusion | None,
        tech: int, complexity: int, kind: int, where: tuple[int, int, int, int, int],
    ) -> None:  # fmt: skip
        """Note a hint of one conclusion (none: nothing to note); see `note_hint`."""
        if conclusion is not None:
            self.note_hint([conclusion], tech, complexity, kind, where)

    def note_hint(
        self, conclusions: list[Conclusion],
        tech: int, complexity: int, kind: int, where: tuple[int, int, int, int, int],
    ) -> None:  # fmt: skip
        """Keep the hint SE would apply first (`self.hint`: the smallest HintKey, with
        `kind` SE's sort key and `where` the key's place in SE's search)."""
        tenths = BASE[tech] + length_tenths(complexity - 2)
        key = (tenths, complexity, kind, *where)
        if self.hint is None or key < self.hint[0]:
            self.hint = (key, tech, conclusions)

    def candidates(self) -> list[tuple[int, int]]:
        """Every (cell, digit) candidate of a cell with two or more, in cell order."""
        cand = self.s.cand
        return [
            (cell, d + 1)
            for cell in range(self.geo.cells)
            if cand[cell].bit_count() >= 2
            for d in _bits(cand[cell])
        ]

    def cycles(self, xy: bool = False) -> None:
        """X-cycles (one digit, unit links) and y-cycles (from a bivalue cell, through
        bivalue cells); with `xy`, xy-cycles instead (both links, SE's "bidirectional
        cycle", 7.0): found from every candidate set ON."""
        cand = self.s.cand
        passes = (
            ((UNIT_LINKS | CELL_LINKS, XY_CYCLE),)
            if xy
            else ((UNIT_LINKS, X_CYCLE), (CELL_LINKS, Y_CYCLE))
        )
        for mode, tech in passes:
            for cell, digit in self.candidates():
                if mode == CELL_LINKS and cand[cell].bit_count() != 2:
                    continue
                # A cycle needs a way back to its start: most starts have none.
                start = ((cell * self.n + digit - 1) << 1) | 1
                if start not in self.static_reach(start, mode, first_link=True):
                    continue
                self._cycles_from(cell, digit, mode, tech)
                if self.work > self.budget:
                    return

    def _cycles_from(
        self,
        cell: int,
        digit: int,
        mode: int,
        tech: int,
    ) -> None:
        """A breadth-first walk from (cell, digit) ON where an OFF node is reached once
        per ON parent (unless it is one of that parent's ancestors) and an ON node once;
        an OFF node that leads back to the start, four links or more away, closes a
        cycle."""
        n = self.n
        cand = self.s.cand
        positions = self.s.positions()
        source = ((cell * n + digit - 1) << 1) | 1
        entries: list[tuple[int, int, int]] = [(source, -1, 0)]  # node, parent, depth
        on_seen = {source}
        head = 0
        while head < len(entries):
            node, _, depth = entries[head]
            index = head
            head += 1
            self.work += 1
            cell_now, dig = divmod(node >> 1, n)
            bit = 1 << dig
            if node & 1:
                offs = []
                if mode & CELL_LINKS:
                    offs += [(cell_now * n + e) << 1 for e in _bits(cand[cell_now] & ~bit)]
                offs += [(p * n + dig) << 1 for p in self.peers[cell_now] if cand[p] & bit]
                for m in offs:
                    up = entries[index][1]
                    while up >= 0 and entries[up][0] != m:
                        up = entries[up][1]
                    if up < 0:
                        entries.append((m, index, depth + 1))
            else:
                ons = []
                if mode & CELL_LINKS:
                    cc = cand[cell_now]
                    if cc.bit_count() == 2:
                        ons.append(((cell_now * n + (cc & ~bit).bit_length() - 1) << 1) | 1)
                if mode & UNIT_LINKS:
                    for u in self.cell_units[cell_now]:
                        where = positions[u][dig]
                        if where.bit_count() == 2:
                            for i in _bits(where):
                                other = self.geo.units[u][i]
                                if other != cell_now:
                                    ons.append(((other * n + dig) << 1) | 1)
                for m in ons:
                    if m == source and depth + 1 >= 4:
                        self._note_cycle(entries, index, tech, depth + 1)
                    if m not in on_seen:
                        on_seen.add(m)
                        entries.append((m, index, depth + 1))
            if self.work > self.budget:
                return

    def _note_cycle(
        self,
        entries: list[tuple[int, int, int]],
        last: int,
        tech: int,
        complexity: int,
    ) -> None:
        n = self.n
        cand = self.s.cand
        path = []
        index = last
        while index >= 0:
            path.append(entries[index][0])
            index = entries[index][1]
        loop_cells = {node >> 1 for node in path}
        loop_cells = {c // n for c in loop_cells}
        forward: set[tuple[int, int]] = set()
        backward: set[tuple[int, int]] = set()
        for node in path:
            cell, dig = divmod(node >> 1, n)
            for p in self.peers[cell]:
                if p not in loop_cells and cand[p] >> dig & 1:
                    (forward if node & 1 else backward).add((p, dig + 1))
        removals = [(p, digit, 0) for p, digit in sorted(forward & backward)]
        if removals:
            # A cycle's hint removes all of them at once (SE's CycleHint); SE meets it
            # from its start candidate, before that candidate's forcing chains.
            root_cell, root_digit = divmod(entries[0][0] >> 1, n)
            where = (root_cell, root_digit + 1, 0, 1, last)
            self.note_hint(removals, tech, complexity, SORT_KIND[tech], where)

    def forcing_chains(self) -> None:
        """Static assumptions that lead to their own negation (x links, then xy)."""
        for mode, tech in ((UNIT_LINKS, X_CHAIN), (UNIT_LINKS | CELL_LINKS, FORCING)):
            for cell, digit in self.candidates():
                # Only an assumption that reaches its negation is walked (and counted
                # as work), for the length of the chain.
                on_count = off_count = 0
                off = (cell * self.n + digit - 1) << 1
                if off in self.static_reach(off | 1, mode):
                    on_count = self.level_walk(cell, digit, True, mode)
                if off | 1 in self.static_reach(off, mode):
                    off_count = self.level_walk(cell, digit, False, mode)
                if self.work > self.budget:
                    return
                # SE: the candidate's cycles, then its chains from ON, then from OFF.
                if on_count:
                    where = (cell, digit, 1, 1, 0)
                    self.note((cell, digit, 0), tech, on_count, SORT_KIND[tech], where)
                if off_count:
                    where = (cell, digit, 2, 0, 0)
                    self.note((cell, digit, 1), tech, off_count, SORT_KIND[tech], where)

    def level_walk(self, cell: int, digit: int, on: bool, mode: int) -> int:
        """The static walk from one assumption, level by level, until it reaches the
        assumption's negation: that node's complexity (the start counts 1; 0 never).

        The distances are walk()'s (both are breadth-first); the work counted is every
        node reached, up to the negation's level."""
        start = ((cell * self.n + digit - 1) << 1) | int(on)
        seen = {start}
        level = [start]
        count = 1
        self.work += 1
        while level:
            count += 1
            following = []
            for node in level:
                for m in self.static_links(node, mode):
                    if m not in seen:
                        seen.add(m)
                        following.append(m)
            self.work += len(following)
            if start ^ 1 in seen:
                return count
            level = following
        return 0

    def static_links(self, node: int, mode: int) -> list[int]:
        """The nodes a static walk reaches from `node` in one link."""
        n = self.n
        cand = self.s.cand
        cell, dig = divmod(node >> 1, n)
        bit = 1 << dig
        if node & 1:
            # ON: the peers holding the digit are OFF, and with cell links the cell's
            # other candidates.
            links = [(p * n + dig) << 1 for p in self.peers[cell] if cand[p] & bit]
            if mode & CELL_LINKS:
                links += [(cell * n + e) << 1 for e in _bits(cand[cell] & ~bit)]
            return links
        # OFF: the other candidate of a bivalue cell, the other place of the digit in a
        # unit that holds it twice, are ON.
        links = []
        if mode & CELL_LINKS and cand[cell].bit_count() == 2:
            links.append(((cell * n + (cand[cell] & ~bit).bit_length() - 1) << 1) | 1)
        if mode & UNIT_LINKS:
            positions = self.s.positions()
            for u in self.cell_units[cell]:
                where = positions[u][dig]
                if where.bit_count() == 2:
                    unit = self.geo.units[u]
                    links += [
                        ((unit[i] * n + dig) << 1) | 1 for i in _bits(where) if unit[i] != cell
                    ]
        return links

    def contradictions(
        self, mode: int, tech: int, double: bool
    ) -> dict[tuple[int, int], dict[int, int]]:
        """Dynamic assumptions (both ways) that lead to a contradiction, and (with
        `double`) nodes both ways lead to. Returns the ON walks."""
        n = self.n
        cand = self.s.cand
        on_walks: dict[tuple[int, int], dict[int, int]] = {}
        for cell, digit in self.candidates():
            on_count, on_clash = self.walk(cell, digit, True, mode)
            off_count, off_clash = self.walk(cell, digit, False, mode)
            if self.work > self.budget:
                return on_walks
            if on_clash >= 0:
                where = (cell, digit, 0, 1, 0)
                self.note((cell, digit, 0), tech, on_clash, ABSURD_KIND, where)
            # As SE, a walk stopped by a contradiction still takes part with the nodes
            # it reached: in the double implication and the cell and region forcing.
            on_walks[cell, digit] = on_count
            if off_clash >= 0:
                where = (cell, digit, 1, 0, 0)
                self.note((cell, digit, 1), tech, off_clash, ABSURD_KIND, where)
            if double and cand[cell].bit_count() >= 3:
                start = cell * n + digit - 1
                for index, (node, k_on) in enumerate(on_count.items()):
                    k_off = off_count.get(node)
                    if k_off is not None and node >> 1 != start:
                        if mode & NESTED_CHAINS:
                            k_off += self.nested_sum(
                                self.links_to(node, [start << 1 | 1, start << 1])
                            )
                        # SE lists the nodes both ways set ON, then those set OFF.
                        where = (cell, digit, 2, 1 - (node & 1), index)
                        self.note(self.progress(node), tech, k_on + k_off, DOUBLE_KIND, where)
        return on_walks

    def multiple(
        self,
        on_walks: dict[tuple[int, int], dict[int, int]],
        min_cell: int,
        cell_tech: int,
        region_tech: int,
    ) -> None:
        """Cell forcing (cells of at least `min_cell` candidates) and region forcing
        (a unit's places of a digit, the first in a cell of at least `min_cell`)."""
        n = self.n
        for group, is_cell, where in self.groups(min_cell):
            walks = [on_walks.get(member) for member in group]
            starts = [((cell * n + digit - 1) << 1) | 1 for cell, digit in group]
            tech = cell_tech if is_cell else region_tech
            kind = CELL_KIND if is_cell else REGION_KIND
            self._common(walks, tech, starts, kind, where)

    def links_to(self, node: int, starts: list[int]) -> list[tuple[int, dict[int, int]]]:
        """`nested_sum`'s parts for a node reached by the level-2 walks from `starts`."""
        parts = []
        for start in starts:
            ancestors, nested_of = self.walk_links[start]
            parts.append((ancestors[node], nested_of))
        return parts

    def groups(
        self, min_cell: int
    ) -> list[tuple[list[tuple[int, int]], bool, tuple[int, int, int]]]:
        """The (cell, digit) groups of multiple(), in its order, each with True for a
        cell's candidates, False for a region's places of a digit, and where SE's
        search meets it (a region at its first place's cell and digit, box before row
        before column)."""
        geo = self.geo
        n = self.n
        cand = self.s.cand
        positions = self.s.positions()
        groups = [
            ([(cell, d + 1) for d in _bits(cand[cell])], True, (cell, 0, 0))
            for cell in range(geo.cells)
            if cand[cell].bit_count() >= min_cell
        ]
        for u, unit in enumerate(geo.units):
            for dig in range(n):
                where = positions[u][dig]
                first = unit[_bits(where)[0]] if where else 0
                if where.bit_count() >= 2 and cand[first].bit_count() >= min_cell:
                    # units are rows, columns, boxes; SE's order is box, row, column
                    se_order = (first, dig + 1, (u // n + 1) % 3)
                    groups.append(([(unit[i], dig + 1) for i in _bits(where)], False, se_order))
        return groups

    def needed_walks(self, min_cell: int) -> set[tuple[int, int]]:
        """The candidates whose ON walk (unit and cell links) a group of multiple()
        needs: those of the groups where every member's walk reaches some node in
        common (its own start left out); any other group concludes nothing."""
        n = self.n
        needed: set[tuple[int, int]] = set()
        for group, _, _ in self.groups(min_cell):
            starts = {((cell * n + digit - 1) << 1) | 1 for cell, digit in group}
            common = set.intersection(*(self.static_reach(node) for node in starts))
            if common - starts:
                needed.update(group)
        return needed

    def static_reach(
        self, start: int, mode: int = UNIT_LINKS | CELL_LINKS, first_link: bool = False
    ) -> set[int]:
        """Every node the static walk in `mode` from `start` reaches (`start` itself
        only by a link back to it when `first_link`)."""
        seen = set() if first_link else {start}
        todo = [start]
        while todo:
            for m in self.static_links(todo.pop(), mode):
                if m not in seen:
                    seen.add(m)
                    todo.append(m)
        return seen

    def _common(
        self,
        walks: list[dict[int, int] | None],
        tech: int,
        starts: list[int],
        kind: int,
        group_where: tuple[int, int, int],
    ) -> None:
        if any(w is None for w in walks):
            return
        nested = tech in (DYNAMIC_PLUS_FC, DYNAMIC_PLUS_MFC, DYNAMIC_PLUS_DFC)
        first, *rest = [w for w in walks if w is not None]
        for index, (node, k0) in enumerate(first.items()):
            if k0 == 1:
                continue
            total = k0
            for other in rest:
                k = other.get(node)
                if k is None or k == 1:
                    break
                total += k
            else:
                if nested:
                    total += self.nested_sum(self.links_to(node, starts))
                # SE lists the nodes every walk sets ON, then those set OFF.
                where = (*group_where, 1 - (node & 1), index)
                self.note(self.progress(node), tech, total, kind, where)

    def chain_step(self, first_family: int = 0) -> int:
        """Apply the first hint, in SE's order (`HintKey`), of the first chain family
        that has any: one conclusion, or a cycle's removals, as SE applies one hint a
        step. Returns its difficulty in tenths, or -1 (none, or the budget ran out).
        Families before `first_family` are skipped (for a grid where they are known to
        find nothing)."""
        self.hint = None
        for family in range(first_family, 4 + self.nesting):
            if family == 0:
                self.cycles()
                if self.work <= self.budget:
                    self.forcing_chains()
                # xy-cycles start at 7.0: past a hint found below it, none of theirs
                # could come first.
                below = 1 << 30 if self.hint is None else self.hint[0][0]
                if self.work <= self.budget and below >= BASE[XY_CYCLE]:
                    self.cycles(xy=True)
            elif family == 1:
                self.contradictions(UNIT_LINKS | DYNAMIC_LINKS, NISHIO, False)
            elif family == 2:
                needed = self.needed_walks(3)
                on_walks = {
                    (cell, digit): self.walk(cell, digit, True, UNIT_LINKS | CELL_LINKS)[0]
                    for cell, digit in self.candidates()
                    if (cell, digit) in needed
                }
                if self.work <= self.budget:
                    self.multiple(on_walks, 3, CELL, REGION)
            else:
                mode = UNIT_LINKS | CELL_LINKS | DYNAMIC_LINKS
                tech = DYNAMIC
                if family == 4:
                    mode |= NESTED_LINKS
                    tech = DYNAMIC_PLUS
                elif family >= 5:
                    mode |= NESTED_LINKS | NESTED_CHAINS
                    tech = DYNAMIC_PLUS_FC
                    if family == 6:
                        mode |= NESTED_MULTIPLE
                        tech = DYNAMIC_PLUS_MFC
                    elif family == 7:
                        mode |= NESTED_DYNAMIC
                        tech = DYNAMIC_PLUS_DFC
                    self.walk_links.clear()  # this step's walks and nested chains only
                    self.chain_ids.clear()
                    self.chain_complexity.clear()
                on_walks = self.contradictions(mode, tech, True)
                if self.work <= self.budget:
                    self.multiple(on_walks, 2, tech, tech)
            if self.work > self.budget:
                return -1
            if self.hint is not None:
                break
            if family == 0:
                wing = self.als_wing(6)
                if wing is not None:
                    self.remove_all(wing[1])
                    self.last_tech = TUVWXYZ_WING
                    return wing[0]
                elims = self.aligned_triple()
                if elims:
                    self.remove_all(elims)
                    self.last_tech = ALIGNED_TRIPLE
                    return BASE[ALIGNED_TRIPLE]
        if self.hint is None:
            return -1
        key, self.last_tech, conclusions = self.hint
        for cell, digit, is_place in conclusions:
            if is_place:
                if not self.s.values[cell]:
                    self.place(cell, digit)
            elif self.s.cand[cell] >> (digit - 1) & 1:
                self.remove(cell, digit)
        return key[0]


# One step of a rating as `path` records it: technique id, tenths, the values and the
# candidates after the step, and the pattern of a step that a technique finder found
# (its index on the level ladder, cells, digits and the four numbers of its aux), else
# None: the records of the compiled `_se.se_path`, values as a tuple here.
Pattern = tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, int, int, int]]
PathRecord = tuple[int, int, tuple[int, ...], tuple[int, ...], Pattern | None]


def rate_se(
    values: Sequence[int],
    geo: Geometry | None = None,
    solution: Sequence[int] | None = None,
    budget: int = DEFAULT_BUDGET,
    path: list[PathRecord] | None = None,
    allowed: Sequence[int] | None = None,
    max_steps: int = -1,
    nesting: int = 1,
) -> SeResult:
    """Rate a puzzle on the SE scale (see the module docstring).

    `values` holds the grid's values (0 = empty). With a `solution`, a point where no
    technique applies reveals one solution digit as a "beyond" step, rated at the
    first difficulty this ladder lacks (the score is then a lower bound: status
    SE_BEYOND); without one the rating stops there with status SE_STUCK. `budget`
    bounds the walk steps. Every step taken is appended to `path` when one is given
    (`PathRecord`). With `allowed` (a candidate mask per cell) the candidates are
    narrowed to it first; `max_steps` >= 0 stops after that many steps. `nesting` 2
    adds SE's second nesting level (dynamic chains on static forcing chains, 9.5 and
    up; slow here: seconds to minutes per step); a "beyond" step is then rated 10.0,
    where SE's third level starts. `nesting` 3 adds that level too (static cell and
    region forcing chains, 10.0 and up; "beyond" then 10.5), `nesting` 4 SE's fourth
    (dynamic forcing chains on a dry walk's grid, 10.5 and up; "beyond" then 11.0).
    """
    if nesting not in (1, 2, 3, 4):
        raise ValueError("nesting must be 1, 2, 3 or 4")
    s = LogicSolver(values, geo)
    if allowed is not None:
        for cell, mask in enumerate(allowed):
            s.restrict(cell, mask)
    r = _Rater(s, budget)
    r.nesting = nesting
    score = 0
    hardest = -1
    steps = 0
    status = SE_OK
    beyond = False
    while not s.solved and (max_steps < 0 or steps < max_steps):
        tech, tenths = r.easy_step()
        if tech < 0:
            tenths = r.chain_step()
            if r.work > budget:
                status = SE_BUDGET
                break
            if tenths >= 0:
                tech = r.last_tech
            elif solution is None:
                status = SE_STUCK
                break
            else:
                tech = BEYOND
                tenths = BEYOND_TENTHS[nesting]
                cell = next(c for c in range(s.geo.cells) if not s.values[c])
                s.place(cell, solution[cell])
                beyond = True
        steps += 1
        if tenths > score:
            score = tenths
            hardest = tech
        if path is not None:
            found = r.last_hint
            pattern: Pattern | None = None
            if found is not None:
                index, cells, digits, _, _, aux = found.record()
                a, b, c, d = (*aux, 0, 0, 0, 0)[:4]
                pattern = (index, cells, digits, (a, b, c, d))
            path.append((tech, tenths, tuple(s.values), tuple(s.cand), pattern))
    if beyond and status == SE_OK:
        status = SE_BEYOND
    return SeResult(score, hardest, steps, status, r.work)


# ---------------------------------------------------------------------------------------
# The compiled module's functions, the same arguments and results (see `_se.pyi`)

TECHNIQUES = len(TECHNIQUE_NAMES)
SLOTS = 4  # per puzzle: score in tenths, hardest technique id, steps, status
SE_CONTRADICTION = -1  # two equal values share a unit


def se_range(
    tables: Any,
    grids: Any,
    solutions: Any,
    out: Any,
    start: int,
    stop: int,
    budget: int,
    nesting: int = 1,
) -> None:
    """Rate puzzles start..stop-1 on the SE scale: out[i*SLOTS:(i+1)*SLOTS] = score in
    tenths, hardest technique id (-1 none), steps, status (see `_se.se_range`; `nesting`
    as in `rate_se`).

    `tables` is either side's `tables_for(geometry)` (only its geometry is read);
    `solutions` may be empty (no digit is then revealed when nothing applies).
    """
    geo = tables.geometry
    cells = geo.cells
    grid_bytes = memoryview(grids).cast("B")
    answer_bytes = memoryview(solutions).cast("B")
    for i in range(start, stop):
        values = list(grid_bytes[i * cells : (i + 1) * cells])
        answer = list(answer_bytes[i * cells : (i + 1) * cells]) if len(answer_bytes) else None
        try:
            result = rate_se(values, geo, answer, budget, nesting=nesting)
        except Contradiction:
            row = [0, -1, 0, SE_CONTRADICTION]
        else:
            row = [result.score, result.hardest, result.steps, result.status]
        for k, value in enumerate(row):
            out[i * SLOTS + k] = value


def se_walk(
    tables: Any,
    grid: Any,
    allowed: Any,
    cell: int,
    digit: int,
    on: bool,
    mode: int,
    budget: int,
) -> tuple[int, int, int, dict[int, int]]:
    """One chain walk of the rater (see `_se.se_walk`): the board is `grid`'s values
    with the candidates narrowed to `allowed`; returns (the contradiction's complexity
    or -1, its nested part, the walk steps counted, {node: complexity} reached)."""
    geo = tables.geometry
    values = list(memoryview(grid).cast("B"))
    masks = list(allowed)
    if len(values) != geo.cells or len(masks) != geo.cells:
        raise ValueError("grid and allowed must hold N*N entries")
    if not 0 <= cell < geo.cells or not 1 <= digit <= geo.size:
        raise ValueError("no such candidate")
    try:
        s = LogicSolver(values, geo)
    except Contradiction:
        raise ValueError("two equal values share a unit") from None
    for c, mask in enumerate(masks):
        s.restrict(c, mask)
    rater = _Rater(s, budget)
    if not s.cand[cell] >> (digit - 1) & 1:
        return -1, 0, rater.work, {}
    reached, clash = rater.walk(cell, digit, on, mode)
    nested = rater.last_nested if clash >= 0 and mode & NESTED_CHAINS else 0
    return clash, nested, rater.work, reached


def se_path(
    tables: Any,
    grid: Any,
    solution: Any,
    budget: int,
    allowed: Any = None,
    max_steps: int = -1,
    nesting: int = 1,
) -> tuple[int, int, int, int, list[tuple[int, int, bytes, tuple[int, ...], Pattern | None]]]:
    """Rate one puzzle and return every step it took (see `_se.se_path`): (score,
    hardest, steps, status, records), values after a step as bytes there; `allowed`
    narrows the candidates first, `max_steps` >= 0 stops after that many steps;
    `nesting` as in `rate_se`."""
    geo = tables.geometry
    values = list(memoryview(grid).cast("B"))
    answer = list(memoryview(solution).cast("B"))
    if len(values) != geo.cells or len(answer) != geo.cells:
        raise ValueError("grid and solution must hold N*N values")
    masks = None if allowed is None else list(allowed)
    if masks is not None and len(masks) != geo.cells:
        raise ValueError("allowed must hold N*N masks")
    path: list[PathRecord] = []
    try:
        result = rate_se(values, geo, answer, budget, path, masks, max_steps, nesting)
    except Contradiction:
        raise ValueError("two equal values share a unit") from None
    records = [
        (tech, tenths, bytes(after), cand, pattern) for tech, tenths, after, cand, pattern in path
    ]
    return result.score, result.hardest, result.steps, result.status, records
