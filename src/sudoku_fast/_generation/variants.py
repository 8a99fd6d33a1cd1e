"""Generation under variant rules: one puzzle and its rules per 64-bit seed.

The steps are described in `sudoku_fast.generator` ("Variant rules"). Every count runs
on the compiled variant engine (`_variants.run.GridCounter`, the GIL released for each
count); the choices between counts are made here, from a private `random.Random` seeded
with the puzzle's seed, so a seed gives the same puzzle whatever the thread count.
"""

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple

from .._base.grid import default_box
from .._base.rules import Cage, Rules, region_cells
from .._parallel.fanout import run_chunks
from .._parallel.threads import resolve_threads
from .._variants.encode import MAX_SIZE
from .._variants.run import GridCounter

__all__ = [
    "KINDS",
    "KIND_ALIASES",
    "MAX_GENERATED_SIZE",
    "MAX_VARIANT_ATTEMPTS",
    "VARIANT_CHECK_NODES",
    "VARIANT_FILL_NODES",
    "VariantPuzzle",
    "VariantRequest",
    "generate_variant",
    "generate_variant_seeds",
    "random_regions",
    "regions_connected",
    "variant_request",
]

# Rule kinds drawn afresh for every puzzle (the others are the same for all).
KINDS = ("jigsaw", "killer", "thermo")
KIND_ALIASES = {"jigsaw": "jigsaw", "killer": "killer", "thermo": "thermo", "thermos": "thermo",
                "thermometer": "thermo", "thermometers": "thermo"}  # fmt: skip

# The largest variant puzzles made, as for classic ones: above MAX_SIZE (11) the
# general engine counts, slower (seconds to minutes a 16x16 puzzle).
MAX_GENERATED_SIZE = 16
# Search-node budgets of the variant engine. A full grid is found by searches on nearly
# empty grids, where a bad random jigsaw layout or a digit that leaves no grid can make
# search long: such a layout is dropped for another, such a digit skipped (searches to
# the first solution within 5,000 nodes, rather than counts to 2 within 20,000, made
# two 9x9 jigsaws take 0.73 s instead of 2.98 s). The uniqueness checks while removing
# givens get more; a puzzle where one runs out is drawn again, so every puzzle returned
# is proven minimal.
VARIANT_FILL_NODES = 5_000
VARIANT_CHECK_NODES = 1_000_000
# Above 11x11 the general engine checks with this budget (a 16x16 killer with no givens
# can need a few 100,000 nodes, at ~26 us each); a removal it cannot decide keeps its givens.
BIG_CHECK_NODES = 100_000
# Cells given a random digit, per row of the grid, before the full grid is read off.
FILL_PLACEMENTS = 2
# Fresh starts (grid, layout, cages) per puzzle before giving up with RuntimeError.
MAX_VARIANT_ATTEMPTS = 200
# Killer cage sizes and their weights (sizes 2-3 dominate published killers).
CAGE_SIZES = (1, 2, 3, 4, 5)
CAGE_WEIGHTS = (2, 35, 35, 20, 8)
# Thermometers: lengths drawn from 3 to this (or N), their number near N.
LONGEST_THERMO = 6


class VariantPuzzle(NamedTuple):
    """A generated variant puzzle: its grid and the rules it is unique under.

    Unpacks as `(puzzle, rules)`; `rules.dumps()` is its JSON form.

    Examples
    --------
    >>> import sudoku_fast as sf
    >>> puzzle, rules = sf.generate(size=4, seed=1, rules="x")
    >>> sf.count_solutions(puzzle, rules=rules)
    1
    """

    puzzle: str
    rules: Rules


@dataclass(frozen=True)
class VariantRequest:
    """What to generate: `fixed` rules every puzzle keeps, plus the kinds drawn per
    puzzle, on an N x N grid with boxes `box` ((1, N) on prime sizes: jigsaw only)."""

    fixed: Rules
    jigsaw: bool
    killer: bool
    thermo: bool
    size: int
    box: tuple[int, int]
    orbits: tuple[tuple[int, ...], ...]

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(k for k in KINDS if getattr(self, k))


ORTHOGONAL = ((-1, 0), (1, 0), (0, -1), (0, 1))
KING = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0))


def _steps(size: int, moves: Sequence[tuple[int, int]]) -> list[list[int]]:
    """Each cell's cells one of `moves` away (row, column offsets), inside the grid."""
    out: list[list[int]] = []
    for cell in range(size * size):
        r, c = divmod(cell, size)
        out.append(
            [
                (r + dr) * size + c + dc
                for dr, dc in moves
                if 0 <= r + dr < size and 0 <= c + dc < size
            ]
        )
    return out


def _neighbours(size: int) -> list[list[int]]:
    """Each cell's orthogonal neighbours."""
    return _steps(size, ORTHOGONAL)


def _connected(cells: Sequence[int], neighbours: list[list[int]]) -> bool:
    """Whether `cells` form one orthogonally connected group."""
    inside = set(cells)
    seen = {cells[0]}
    todo = [cells[0]]
    while todo:
        for nb in neighbours[todo.pop()]:
            if nb in inside and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return len(seen) == len(inside)


def regions_connected(regions: str, size: int) -> bool:
    """Whether every region of a layout (N*N labels) is orthogonally connected."""
    neighbours = _neighbours(size)
    return all(_connected(cells, neighbours) for cells in region_cells(regions))


LABELS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def random_regions(rng: random.Random, size: int, box: tuple[int, int]) -> str:
    """A random partition of the grid into N connected regions of N cells.

    Starts from the boxes (the rows when they are (1, N)); each move takes a random
    cell a, a region B beside it (A is a's region), and a random cell b of B beside A,
    and exchanges them (a joins B, b joins A) when both regions stay connected. After
    N * N moves a layout that still keeps a row, a column or a starting box as a region
    is moved further."""
    n = size
    rows, cols = box
    label = [(r // rows) * (n // cols) + c // cols for r in range(n) for c in range(n)]
    members = [[cell for cell in range(n * n) if label[cell] == k] for k in range(n)]
    neighbours = _neighbours(n)
    kept = {frozenset(range(r * n, r * n + n)) for r in range(n)}
    kept |= {frozenset(range(c, n * n, n)) for c in range(n)}
    kept |= {frozenset(m) for m in members}
    while True:
        for _ in range(n * n):
            a = rng.randrange(n * n)
            la = label[a]
            beside = [label[nb] for nb in neighbours[a] if label[nb] != la]
            if not beside:
                continue
            lb = rng.choice(beside)
            choices = [
                b for b in members[lb] if any(label[nb] == la and nb != a for nb in neighbours[b])
            ]
            if not choices:
                continue
            b = rng.choice(choices)
            members[la].remove(a)
            members[la].append(b)
            members[lb].remove(b)
            members[lb].append(a)
            if _connected(members[la], neighbours) and _connected(members[lb], neighbours):
                label[a], label[b] = lb, la
            else:  # undo
                members[la].remove(b)
                members[la].append(a)
                members[lb].remove(a)
                members[lb].append(b)
        if not {frozenset(m) for m in members} & kept:
            return "".join(LABELS[k] for k in label)


def _random_solution(
    rng: random.Random, counter: GridCounter, size: int, start: GridCounter
) -> tuple[bytearray | None, bool]:
    """A random full grid under the counter's rules: (grid, True), (None, True) when
    none was found within the budget, (None, False) when the rules have no grid at all.

    A first solution of the empty grid by `start` (the same rules, maybe a bigger
    budget); then random cells, FILL_PLACEMENTS * N of them, get a random digit in
    turn: the digits in random order until one leaves a solution (a search to the first
    solution; the digit of the last solution found always does). The grid is the last
    solution."""
    grid = bytearray(size * size)
    found = start.count(grid, 1)
    if found <= 0:
        return None, found < 0
    solution = bytearray(start.solution)
    order = list(range(size * size))
    rng.shuffle(order)
    digits = list(range(1, size + 1))
    for cell in order[: FILL_PLACEMENTS * size]:
        rng.shuffle(digits)
        for digit in digits:
            grid[cell] = digit
            if digit == solution[cell]:
                break
            if counter.count(grid, 1) == 1:
                solution[:] = counter.solution
                break
    return solution, True


def _minimise(
    rng: random.Random,
    counter: GridCounter,
    puzzle: bytearray,
    orbits: Sequence[Sequence[int]],
    keep_undecided: bool = False,
) -> bool:
    """Remove givens orbit by orbit, in random order, while the puzzle stays unique.

    Returns False when a check ran out of budget (the puzzle is then unique but maybe
    not minimal), unless `keep_undecided`: then such an orbit stays and the pass goes
    on. Removing givens only adds solutions, so one pass leaves every remaining orbit
    needed (or undecided)."""
    order = [orbit for orbit in orbits if any(puzzle[c] for c in orbit)]
    rng.shuffle(order)
    for orbit in order:
        saved = [puzzle[c] for c in orbit]
        for c in orbit:
            puzzle[c] = 0
        found = counter.count(puzzle)
        if found != 1:
            for c, value in zip(orbit, saved, strict=True):
                puzzle[c] = value
            if found < 0 and not keep_undecided:
                return False
    return True


def _random_cages(rng: random.Random, solution: bytearray, size: int) -> tuple[Cage, ...]:
    """A random partition of the grid into connected cages of distinct digits (sizes
    drawn from CAGE_SIZES), each with the sum of its digits in `solution`."""
    neighbours = _neighbours(size)
    caged = [False] * (size * size)
    order = list(range(size * size))
    rng.shuffle(order)
    cages = []
    for start in order:
        if caged[start]:
            continue
        target = rng.choices(CAGE_SIZES, CAGE_WEIGHTS)[0]
        cage = [start]
        caged[start] = True
        digits = {solution[start]}
        while len(cage) < target:
            frontier = sorted(
                {
                    nb
                    for cell in cage
                    for nb in neighbours[cell]
                    if not caged[nb] and solution[nb] not in digits
                }
            )
            if not frontier:
                break
            cell = rng.choice(frontier)
            cage.append(cell)
            caged[cell] = True
            digits.add(solution[cell])
        cages.append(Cage(sorted(cage), sum(solution[c] for c in cage)))
    cages.sort(key=lambda cage: cage.cells[0])
    return tuple(cages)


def _random_thermos(
    rng: random.Random, solution: bytearray, size: int
) -> tuple[tuple[int, ...], ...]:
    """About N random thermometers: paths of king steps through cells whose digits
    increase in `solution`, 3 to LONGEST_THERMO cells long, sharing no cell."""
    kings = _steps(size, KING)
    used: set[int] = set()
    wanted = rng.randint(max(2, size // 2), size)
    thermos: list[tuple[int, ...]] = []
    for _ in range(20 * wanted):
        if len(thermos) == wanted:
            break
        free = [c for c in range(size * size) if c not in used]
        if not free:
            break
        path = [rng.choice(free)]
        length = rng.randint(3, min(size, LONGEST_THERMO))
        while len(path) < length:
            last = path[-1]
            steps = [
                nb
                for nb in kings[last]
                if nb not in used and nb not in path and solution[nb] > solution[last]
            ]
            if not steps:
                break
            path.append(rng.choice(steps))
        if len(path) >= 3:
            thermos.append(tuple(path))
            used.update(path)
    return tuple(thermos)


def _givens_until_unique(
    rng: random.Random, counter: GridCounter, solution: bytearray, past_budget: bool = False
) -> bytearray | None:
    """Givens from `solution` added one at a time until the puzzle is unique (none if
    it already is): a cell where the engine's solution differs from `solution` when it
    does, a random empty cell otherwise. None when a count ran out of budget, unless
    `past_budget`: then a random empty cell gets its digit and the counting goes on."""
    puzzle = bytearray(len(solution))
    while True:
        found = counter.count(puzzle)
        if found == 1:
            return puzzle
        if found < 0 and not past_budget:
            return None
        empty = [c for c in range(len(puzzle)) if not puzzle[c]]
        differ = []
        if found > 0:
            other = counter.solution
            differ = [c for c in empty if other[c] != solution[c]]
        cell = rng.choice(differ or empty)
        puzzle[cell] = solution[cell]


def generate_variant(seed: int, request: VariantRequest) -> VariantPuzzle | None:
    """The puzzle of one 64-bit seed (None: none found in MAX_VARIANT_ATTEMPTS starts).

    Raises ValueError when the fixed rules admit no full grid at all."""
    rng = random.Random(seed)
    size, box = request.size, request.box
    fill_nodes, check_nodes = VARIANT_FILL_NODES, VARIANT_CHECK_NODES  # read at call time
    fixed_counter = None if request.jigsaw else GridCounter(request.fixed, size, box, fill_nodes)
    # Fixed rules were shown to leave a grid within the check budget (variant_request);
    # their empty grid's first solution gets that budget, since every attempt would
    # run out alike (an empty 12x12 Sudoku X needs about 100,000 nodes).
    fixed_start = None if request.jigsaw else GridCounter(request.fixed, size, box, check_nodes)
    # Above the variant engine's sizes (the general engine's path), a removal that the
    # check budget cannot decide keeps its givens: the puzzle is unique, maybe not
    # minimal, rather than drawn again (16x16 jigsaw checks run past any budget).
    big = size > MAX_SIZE
    for _ in range(MAX_VARIANT_ATTEMPTS):
        rules = request.fixed
        if request.jigsaw:
            rules = replace(rules, regions=random_regions(rng, size, box))
            counter = GridCounter(rules, size, box, fill_nodes)
        else:
            assert fixed_counter is not None
            counter = fixed_counter
        start = counter if fixed_start is None else fixed_start
        solution, budget_only = _random_solution(rng, counter, size, start)
        if solution is None:
            if not budget_only and not request.jigsaw:
                raise ValueError(f"no {size}x{size} grid keeps these rules: {rules.dumps()}")
            continue
        if request.killer:
            rules = replace(rules, cages=rules.cages + _random_cages(rng, solution, size))
        if request.thermo:
            rules = replace(rules, thermos=rules.thermos + _random_thermos(rng, solution, size))
        checker = GridCounter(rules, size, box, BIG_CHECK_NODES if big else check_nodes)
        if request.killer:
            # Above 11x11 a short budget: a count past it adds a given at once rather
            # than search for seconds (the removals below take out what is not needed).
            adder = GridCounter(rules, size, box, fill_nodes) if big else checker
            puzzle = _givens_until_unique(rng, adder, solution, past_budget=big)
            if puzzle is None:
                continue
        else:
            puzzle = bytearray(solution)
        if not _minimise(rng, checker, puzzle, request.orbits, keep_undecided=big):
            continue
        return VariantPuzzle(_text(puzzle), rules)
    return None


def _text(values: bytearray) -> str:
    return "".join("." if v == 0 else LABELS[v - 1] for v in values)


def generate_variant_seeds(
    seeds: list[int],
    request: VariantRequest,
    threads: int | None,
    first: int = 0,
    names: Sequence[int] | None = None,
) -> list[VariantPuzzle]:
    """One puzzle per seed, on `threads` (the puzzles do not depend on them); puzzle
    `first` of the caller's batch and on, as errors name them (or `names[i]` for seed i,
    where several seeds are candidates for one puzzle)."""
    out: list[VariantPuzzle | None] = [None] * len(seeds)
    gave_up: list[int] = []
    stop = [False]

    def make(start: int, end: int) -> None:
        for i in range(start, end):
            if stop[0]:
                return
            made = generate_variant(seeds[i], request)
            if made is None:
                gave_up.append(i)
                stop[0] = True
                return
            out[i] = made

    def abort() -> None:
        stop[0] = True

    run_chunks(len(seeds), resolve_threads(threads), 1, make, on_abort=abort, max_chunk=1)
    if gave_up:
        kinds = ", ".join(request.kinds) or "fixed-rule"
        named = first + min(gave_up) if names is None else names[min(gave_up)]
        raise RuntimeError(
            f"puzzle {named}: no {request.size}x{request.size} {kinds} puzzle "
            f"found in {MAX_VARIANT_ATTEMPTS} attempts"
        )
    return [p for p in out if p is not None]


def variant_request(
    rules: Rules, kinds: Sequence[str], size: int, orbits: Sequence[tuple[int, ...]]
) -> VariantRequest:
    """Check a request: ValueError naming what does not fit."""
    wanted = set(kinds)
    if size > MAX_GENERATED_SIZE:
        raise ValueError(
            f"variant puzzles can be generated up to {MAX_GENERATED_SIZE}x"
            f"{MAX_GENERATED_SIZE}, not {size}x{size}"
        )
    box = default_box(size)
    if box is None:
        if "jigsaw" not in wanted and rules.regions is None:
            raise ValueError(
                f"a {size}x{size} grid has no boxes: only jigsaw puzzles (irregular "
                "regions) are generated at that size"
            )
        box = (1, size)
    if "jigsaw" in wanted and rules.regions is not None:
        raise ValueError("jigsaw: the regions are drawn for each puzzle; give rules without them")
    if "killer" in wanted and rules.cages:
        raise ValueError("killer: the cages are drawn for each puzzle; give rules without cages")
    if "thermo" in wanted and rules.thermos:
        raise ValueError(
            "thermo: the thermometers are drawn for each puzzle; give rules without them"
        )
    # The fixed rules must fit (checked as the counter is built) and, unless a jigsaw
    # layout is drawn for each puzzle, leave some grid (a count on the empty grid).
    counter = GridCounter(rules, size, box, VARIANT_CHECK_NODES)
    if "jigsaw" not in wanted:
        found = counter.count(bytearray(size * size), 1)
        if found == 0:
            raise ValueError(f"no {size}x{size} grid keeps these rules: {rules.dumps()}")
        if found < 0:
            raise ValueError(
                f"these rules on a {size}x{size} grid could not be shown to leave a grid "
                f"in {VARIANT_CHECK_NODES:,} search nodes: {rules.dumps()}"
            )
    return VariantRequest(
        fixed=rules,
        jigsaw="jigsaw" in wanted,
        killer="killer" in wanted,
        thermo="thermo" in wanted,
        size=size,
        box=box,
        orbits=tuple(orbits),
    )
