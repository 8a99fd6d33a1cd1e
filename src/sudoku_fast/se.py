"""Difficulty on the Sudoku Explainer (SE) scale: the slow, plain twin of `_se.pyx`.

SE rates a puzzle by solving it with the easiest available step at each point and
reporting the difficulty of the hardest step. The difficulties below are SE's published
ones (Sudoku Explainer 1.2.1, "Difficulty ratings"); difficulties are kept in tenths
(12 = 1.2) so that the two twins compare exactly.

Technique ladder, easiest first (tenths):

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
42    xy-wing                44  xyz-wing
50    naked quad             52  jellyfish      54  hidden quad
65+   x-chain: forcing chain on one digit (links inside units only)
65+   y-chain: forcing chain on bivalue cells (links inside cells and to peers)
70+   forcing chain: both kinds of links
82+   region forcing chains: every place of a digit in a unit implies the same
83+   cell forcing chains: every candidate of a cell implies the same
85+   dynamic forcing chain: links follow the board as the assumption fills it
100   beyond: none of the above applies (the solution's digit is revealed)
====  ==========================================================================

A chain's difficulty is its base plus SE's length rule: 0.1 more each time the chain's
length passes 4, 6, 8, 12, 16, 24, 32, 48, ... (alternately x3/2 and x4/3). The length
of a conclusion is the number of links of the implications it rests on (for a
conclusion drawn from two or more assumptions, the links of all of them).

How chains are found: an assumption (a candidate set ON, or removed: OFF) is followed by
a breadth-first walk of implications. ON(cell, d) removes d from the cell's peers and
(with cell links) every other candidate of the cell. OFF(cell, d) sets ON the last
candidate of a cell (cell links) or the last place of d in a unit (unit links); in the
static modes "last" means "the other of exactly two in the current grid", in the
dynamic mode it means "the only one not yet removed by this walk". The walk records for
each node the number of links on the way (one more than the latest link it needs). A
conclusion is drawn from a contradiction (an assumption that leads to a node and its
opposite, or, dynamic only, to a cell or unit place with nothing left), from both
polarities of one candidate leading to the same node, or from every candidate of a cell
(every place of a digit in a unit) leading to the same node. At each chain stage every
conclusion of the smallest difficulty is applied at once.

What SE has and this ladder does not: direct hidden pair / triple (2.0, 2.5), unique
rectangles and loops (4.5-5.0), BUG (5.6-6.0), aligned pair / triplet exclusion (6.2,
7.5), cycles as such (their eliminations are found here as forcing chains), Nishio
(7.6-8.1), dynamic forcing chains with nested techniques (9.1 and up). A puzzle that
needs one of those is rated by the next technique of the ladder that applies.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from . import logic
from .grid import Geometry
from .logic import LogicSolver

# Technique names, in ladder order; the index is the technique id in both twins.
TECHNIQUES: tuple[str, ...] = (
    "full house",
    "hidden single (box)",
    "hidden single (line)",
    "direct pointing",
    "direct claiming",
    "naked single",
    "pointing",
    "claiming",
    "naked pair",
    "x-wing",
    "hidden pair",
    "naked triple",
    "swordfish",
    "hidden triple",
    "xy-wing",
    "xyz-wing",
    "naked quad",
    "jellyfish",
    "hidden quad",
    "x-chain",
    "y-chain",
    "forcing chain",
    "region forcing chains",
    "cell forcing chains",
    "dynamic forcing chain",
    "beyond",
)
# Base difficulty of each technique, in tenths.
BASE: tuple[int, ...] = (
    10, 12, 15, 17, 19, 23, 26, 28, 30, 32, 34, 36, 38, 40, 42, 44, 50, 52, 54,
    65, 65, 70, 82, 83, 85, 100,
)  # fmt: skip
X_CHAIN = TECHNIQUES.index("x-chain")
Y_CHAIN = X_CHAIN + 1
FORCING = X_CHAIN + 2
REGION = X_CHAIN + 3
CELL = X_CHAIN + 4
DYNAMIC = X_CHAIN + 5
BEYOND = X_CHAIN + 6

# Walk modes: which links the implications may use.
UNIT_LINKS = 1
CELL_LINKS = 2
DYNAMIC_LINKS = 4

# Outcomes of a rating.
SE_OK = 0
SE_BUDGET = 1  # the work budget ran out: the score is the hardest step so far
SE_STUCK = 2  # nothing applies and no solution was given to reveal a digit

DEFAULT_BUDGET = 200_000_000  # walk steps per puzzle


def length_tenths(length: int) -> int:
    """SE's length rule: tenths added for a chain of `length` links."""
    added = 0
    ceiling = 4
    odd = False
    while length > ceiling:
        added += 1
        ceiling = ceiling * 4 // 3 if odd else ceiling * 3 // 2
        odd = not odd
    return added


@dataclass(frozen=True)
class SeResult:
    """The outcome of an SE-style rating.

    `score` is the hardest step's difficulty in tenths (0 when the grid needs no step),
    `hardest` that step's technique id (index into `TECHNIQUES`, -1 for none), `steps`
    the number of steps taken, `status` SE_OK, SE_BUDGET or SE_STUCK and `work` the
    walk steps spent.
    """

    score: int
    hardest: int
    steps: int
    status: int
    work: int


Conclusion = tuple[int, int, int]  # (cell, digit, 1 = place / 0 = remove)


class _Rater:
    """One puzzle's SE-style solve on a `LogicSolver` board."""

    def __init__(self, s: LogicSolver, budget: int) -> None:
        self.s = s
        self.geo = s.geo
        self.n = s.geo.size
        self.budget = budget
        self.work = 0
        self.last_tech = -1
        n = self.n
        self.cell_units = [
            (cell // n, n + cell % n, 2 * n + s.geo.box_of[cell]) for cell in range(s.geo.cells)
        ]

    # -- easy techniques ------------------------------------------------------------

    def place(self, cell: int, digit: int) -> None:
        self.s.place(cell, digit)

    def remove(self, cell: int, digit: int) -> None:
        self.s.restrict(cell, ~(1 << (digit - 1)))

    def single_in_box(self, cell: int, digit: int) -> bool:
        box = self.geo.units[2 * self.n + self.geo.box_of[cell]]
        bit = 1 << (digit - 1)
        return sum(1 for c in box if self.s.cand[c] & bit) == 1

    def locked(self) -> tuple[int, list[tuple[int, int]]] | None:
        """The first direct pointing, else direct claiming, else pointing, else claiming.

        Returns (technique id, eliminations)."""
        plain: tuple[int, list[tuple[int, int]]] | None = None
        for claiming in (False, True):
            for elim in self._locked_patterns(claiming):
                if self._leaves_hidden_single(elim):
                    return (4 if claiming else 3), elim
                if plain is None:
                    plain = (7 if claiming else 6, elim)
        return plain

    def _locked_patterns(self, claiming: bool) -> Iterator[list[tuple[int, int]]]:
        geo = self.geo
        n = self.n
        cand = self.s.cand
        positions = self.s.positions()
        first_units = range(2 * n) if claiming else range(2 * n, 3 * n)
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
                        yield elim

    def _leaves_hidden_single(self, elim: list[tuple[int, int]]) -> bool:
        geo = self.geo
        cand = self.s.cand
        gone = set(elim)
        digit = elim[0][1]
        bit = 1 << (digit - 1)
        for cell, _ in elim:
            for u in self.cell_units[cell]:
                places = sum(1 for c in geo.units[u] if cand[c] & bit and (c, digit) not in gone)
                if places == 1:
                    return True
        return False

    def easy_step(self) -> int:
        """Apply the easiest step below chains; its technique id, or -1 if none."""
        s = self.s
        hint = logic.find_full_house(s)
        if hint is not None:
            s.apply(hint)
            return 0
        hint = logic.find_hidden_single(s)
        if hint is not None:
            cell, digit = hint.placements[0]
            tech = 1 if self.single_in_box(cell, digit) else 2
            s.apply(hint)
            return tech
        locked = self.locked()
        if locked is not None and locked[0] in (3, 4):
            for cell, digit in locked[1]:
                self.remove(cell, digit)
            return locked[0]
        hint = logic.find_naked_single(s)
        if hint is not None:
            s.apply(hint)
            return 5
        if locked is not None:
            for cell, digit in locked[1]:
                self.remove(cell, digit)
            return locked[0]
        finders = (
            (8, logic.find_naked_pair),
            (9, logic.find_x_wing),
            (10, logic.find_hidden_pair),
            (11, logic.find_naked_triple),
            (12, logic.find_swordfish),
            (13, logic.find_hidden_triple),
            (14, logic.find_xy_wing),
            (15, logic.find_xyz_wing),
            (16, logic.find_naked_quad),
            (17, logic.find_jellyfish),
            (18, logic.find_hidden_quad),
        )
        for tech, find in finders:
            hint = find(s)
            if hint is not None:
                s.apply(hint)
                return tech
        return -1

    # -- chains -----------------------------------------------------------------------

    def walk(self, cell: int, digit: int, on: bool, mode: int) -> tuple[dict[int, int], int]:
        """Follow the implications of one assumption.

        Returns the depth (links) of every node reached (node = ((cell * N + d - 1) << 1)
        | on) and the length of the first contradiction met (-1 for none)."""
        geo = self.geo
        n = self.n
        cand = self.s.cand
        positions = self.s.positions()
        dynamic = bool(mode & DYNAMIC_LINKS)
        depth: dict[int, int] = {}
        left_in_cell: dict[int, int] = {}
        left_in_unit: dict[tuple[int, int], int] = {}
        start = ((cell * n + digit - 1) << 1) | int(on)
        depth[start] = 0
        queue = [start]
        head = 0
        while head < len(queue):
            node = queue[head]
            head += 1
            self.work += 1
            d0 = depth[node]
            c = node >> 1
            cell_now, dig = divmod(c, n)
            bit = 1 << dig
            implied: list[int] = []
            if node & 1:
                if mode & CELL_LINKS:
                    rest = cand[cell_now] & ~bit
                    for e in range(n):
                        if rest >> e & 1:
                            implied.append((cell_now * n + e) << 1)
                for p in geo.peers[cell_now]:
                    if cand[p] & bit:
                        implied.append((p * n + dig) << 1)
            else:
                if mode & CELL_LINKS:
                    cc = cand[cell_now]
                    if dynamic:
                        left = left_in_cell.get(cell_now, cc.bit_count()) - 1
                        left_in_cell[cell_now] = left
                        if left == 0:
                            return depth, d0
                        if left == 1:
                            for e in range(n):
                                if cc >> e & 1 and ((cell_now * n + e) << 1) not in depth:
                                    implied.append(((cell_now * n + e) << 1) | 1)
                                    break
                    elif cc.bit_count() == 2:
                        e = (cc & ~bit).bit_length() - 1
                        implied.append(((cell_now * n + e) << 1) | 1)
                if mode & UNIT_LINKS:
                    for u in self.cell_units[cell_now]:
                        where = positions[u][dig]
                        unit = geo.units[u]
                        if dynamic:
                            left = left_in_unit.get((u, dig), where.bit_count()) - 1
                            left_in_unit[u, dig] = left
                            if left == 0:
                                return depth, d0
                            if left == 1:
                                for i in range(n):
                                    if where >> i & 1 and ((unit[i] * n + dig) << 1) not in depth:
                                        implied.append(((unit[i] * n + dig) << 1) | 1)
                                        break
                        elif where.bit_count() == 2:
                            for i in range(n):
                                if where >> i & 1 and unit[i] != cell_now:
                                    implied.append(((unit[i] * n + dig) << 1) | 1)
            for m in implied:
                if m in depth:
                    continue
                opposite = m ^ 1
                if opposite in depth:
                    return depth, d0 + 1 + depth[opposite]
                depth[m] = d0 + 1
                queue.append(m)
            if self.work > self.budget:
                return depth, -1
        return depth, -1

    def progress(self, node: int) -> Conclusion | None:
        """The conclusion that a node holds, if it changes the board."""
        cell, dig = divmod(node >> 1, self.n)
        if not self.s.cand[cell] >> dig & 1:
            return None
        if node & 1:
            return (cell, dig + 1, 1)
        return (cell, dig + 1, 0)

    def chain_stage(self, mode: int, tech: int, found: dict[Conclusion, tuple[int, int]]) -> None:
        """Add every conclusion of one walk mode to `found`, with its (difficulty in
        tenths, technique id), keeping the smallest."""
        geo = self.geo
        n = self.n
        cand = self.s.cand

        def note(conclusion: Conclusion | None, technique: int, length: int) -> None:
            if conclusion is None:
                return
            rank = (BASE[technique] + length_tenths(length), technique)
            if rank < found.get(conclusion, (1 << 30, 0)):
                found[conclusion] = rank

        on_walks: dict[tuple[int, int], dict[int, int]] = {}
        for cell in range(geo.cells):
            c = cand[cell]
            for dig in range(n):
                if not c >> dig & 1:
                    continue
                digit = dig + 1
                on_depth, on_clash = self.walk(cell, digit, True, mode)
                off_depth, off_clash = self.walk(cell, digit, False, mode)
                if self.work > self.budget:
                    return
                on_walks[cell, digit] = on_depth
                if on_clash >= 0:
                    note((cell, digit, 0), tech, on_clash)
                if off_clash >= 0:
                    note((cell, digit, 1), tech, off_clash)
                if on_clash < 0 and off_clash < 0:
                    for node, d_on in on_depth.items():
                        d_off = off_depth.get(node)
                        if d_off is not None and node >> 1 != cell * n + dig:
                            note(self.progress(node), tech, d_on + d_off)
        if mode & CELL_LINKS and mode & UNIT_LINKS:
            multi_region = tech if mode & DYNAMIC_LINKS else REGION
            multi_cell = tech if mode & DYNAMIC_LINKS else CELL
            for cell in range(geo.cells):
                digits = [d + 1 for d in range(n) if cand[cell] >> d & 1]
                if len(digits) >= 3:
                    self._multi(note, [on_walks[cell, d] for d in digits], multi_cell)
            positions = self.s.positions()
            for u, unit in enumerate(geo.units):
                for dig in range(n):
                    where = positions[u][dig]
                    if where.bit_count() >= 3:
                        walks = [on_walks[unit[i], dig + 1] for i in range(n) if where >> i & 1]
                        self._multi(note, walks, multi_region)

    def _multi(
        self,
        note: Callable[[Conclusion | None, int, int], None],
        walks: list[dict[int, int]],
        tech: int,
    ) -> None:
        for node, d0 in walks[0].items():
            if d0 == 0:
                continue
            total = d0
            for other in walks[1:]:
                d = other.get(node)
                if d is None or d == 0:
                    break
                total += d
            else:
                note(self.progress(node), tech, total)

    def chain_step(self) -> int:
        """Apply the easiest chain conclusions; the difficulty in tenths, or -1."""
        found: dict[Conclusion, tuple[int, int]] = {}
        stages = (
            (UNIT_LINKS, X_CHAIN),
            (CELL_LINKS, Y_CHAIN),
            (UNIT_LINKS | CELL_LINKS, FORCING),
            (UNIT_LINKS | CELL_LINKS | DYNAMIC_LINKS, DYNAMIC),
        )
        for mode, tech in stages:
            if found and min(found.values())[0] <= BASE[tech]:
                break
            self.chain_stage(mode, tech, found)
            if self.work > self.budget:
                return -1
        if not found:
            return -1
        best = min(found.values())[0]
        chosen = sorted(c for c, rank in found.items() if rank[0] == best)
        self.last_tech = min(found[c][1] for c in chosen)
        for cell, digit, is_place in chosen:
            if is_place:
                if not self.s.values[cell]:
                    self.place(cell, digit)
            elif self.s.cand[cell] >> (digit - 1) & 1:
                self.remove(cell, digit)
        return best


def rate_se(
    values: Sequence[int],
    geo: Geometry | None = None,
    solution: Sequence[int] | None = None,
    budget: int = DEFAULT_BUDGET,
) -> SeResult:
    """Rate a puzzle on the SE scale (see the module docstring).

    `values` holds the grid's values (0 = empty). With a `solution`, a point where no
    technique applies reveals one solution digit as a "beyond" step (10.0); without
    one the rating stops there with status SE_STUCK. `budget` bounds the walk steps.
    """
    s = LogicSolver(values, geo)
    r = _Rater(s, budget)
    score = 0
    hardest = -1
    steps = 0
    status = SE_OK
    while not s.solved:
        tech = r.easy_step()
        if tech >= 0:
            tenths = BASE[tech]
        else:
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
                tenths = BASE[BEYOND]
                cell = next(c for c in range(s.geo.cells) if not s.values[c])
                s.place(cell, solution[cell])
        steps += 1
        if tenths > score:
            score = tenths
            hardest = tech
    return SeResult(score, hardest, steps, status, r.work)
