"""Generate puzzles with exactly one solution, optionally symmetric, at a chosen difficulty.

How a puzzle is made:

1. **A random full grid.** The diagonal boxes are filled with random permutations (they
   share no row or column, so any filling is consistent; with rectangular boxes the
   first row is), then a search completes the grid. For 9x9 that is a randomised
   depth-first search in pure Python: fewest-candidates cell first, its digits in random
   order, naked singles propagated; it does not depend on the compiled engine, so a seed
   gives the same 9x9 puzzle whatever engine version is installed. Other sizes are
   completed by the compiled general engine (a pure-Python search is far too slow on
   16x16 and up), with a fresh random start whenever it finds no completion within
   `FILL_NODES` search nodes. A random validity-preserving transformation follows:
   digits relabelled, bands and stacks permuted, rows and columns permuted within them,
   and (for square boxes) a transposition half of the time.
2. **Clues removed in random order.** Cells are visited once each, in random order (with
   a symmetry, whole symmetric groups of cells at a time); a removal is kept when the
   puzzle still has exactly one solution (`count_solutions(p, 2) == 1`, from the engine).
   Since removing clues can only add solutions, a clue that could not go earlier cannot
   go later either, so one pass leaves a minimal puzzle: removing any remaining clue (any
   remaining symmetric group, with a symmetry) gives two or more solutions.
3. **Difficulty.** With `minimal=True` (the default) the minimal puzzle is rated by the
   logical solver (`rate`'s levels) and kept only if its level is the one asked for;
   otherwise a new grid is drawn. With `minimal=False`, when the minimal puzzle is
   harder than asked, the removed clues are put back, last removed first, until it is
   no harder; it is kept if it then has the asked level. Such puzzles keep a few more
   clues than uniqueness needs, and easy ones never need a new grid.

The removal tests are batched: several candidate removals are checked in one engine
call (as consecutive removals while most succeed, as single removals once most fail),
and the outcome is exactly that of testing them one by one. `generate_many` runs many
puzzles in lockstep so each engine call checks hundreds of candidates, spread over
threads.

Every random choice comes from a private `random.Random(seed)`; the global RNG is never
touched. The same arguments and seed give the same puzzles.

Sizes: every size `parse` knows from 4x4 up to `MAX_SIZE` (16x16); grids, symmetries,
transformations and levels all follow from the grid's `Geometry`. On grids other than
9x9 each uniqueness check has a budget of `CHECK_NODES` search nodes: a removal whose
check runs out is treated as not allowed (the puzzle stays unique), and with
`minimal=True` a puzzle with such an undecided removal is thrown away and a new grid
drawn, so every puzzle returned as minimal is proven minimal.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Sequence

from .batch import run_engine
from .grid import SYMBOLS, Geometry, geometry_for
from .logic import LEVEL_NAMES, LogicSolver, digits_of
from .rating import level_within

# Difficulties a generator can aim for; "nightmare" (level 6, nested guessing) is too
# rare among random puzzles to be found by sampling.
DIFFICULTIES: dict[str, int] = {name: level for level, name in LEVEL_NAMES.items() if level <= 5}

SYMMETRIES = (
    "none",
    "rotational",  # 180-degree turn; also accepted as "rot180"
    "rot90",  # quarter turn
    "mirror",  # left-right mirror image
    "flip",  # top-bottom mirror image
    "diagonal",  # about the main diagonal
    "antidiagonal",
    "dihedral",  # all eight symmetries of the square
)

PREFIX_BATCH = 8  # consecutive removals tested per engine call while most succeed
SINGLE_BATCH = 4  # single removals tested per engine call once most fail
ACTIVE_PUZZLES = 256  # puzzles carved in lockstep, so one engine call checks many removals
# Search-node budgets of the general engine (grids other than 9x9). On 16x16 a full grid
# takes about 120 nodes from the diagonal boxes and the costliest uniqueness checks of
# near-minimal puzzles about 47,000 (measured on 20 puzzles, seed 1).
FILL_NODES = 20_000
CHECK_NODES = 1_000_000
# Near-minimal 25x25 puzzles (about 280 of 625 clues) exhaust 1,000,000 nodes, about 40 s
# of search, and 20x20 generation did not finish in minutes either; 15x15 and 16x16 take
# well under a second per puzzle.
MAX_SIZE = 16


def _level_of(difficulty: str | int | None) -> int | None:
    if difficulty is None:
        return None
    if isinstance(difficulty, bool):
        raise TypeError("difficulty must be a name, a level 1-5 or None, not a bool")
    if isinstance(difficulty, int):
        if difficulty not in DIFFICULTIES.values():
            raise ValueError(f"difficulty level must be 1-5, got {difficulty}")
        return difficulty
    if isinstance(difficulty, str):
        level = DIFFICULTIES.get(difficulty.strip().lower())
        if level is None:
            names = ", ".join(DIFFICULTIES)
            raise ValueError(f"unknown difficulty {difficulty!r}; choose from {names}")
        return level
    raise TypeError(f"difficulty must be a str, an int or None, not {type(difficulty).__name__}")


def _geometry_for(size: object) -> Geometry:
    if isinstance(size, bool) or not isinstance(size, int):
        raise TypeError(f"size must be an int, not {type(size).__name__}")
    if size > MAX_SIZE:
        raise ValueError(
            f"puzzles can be generated up to {MAX_SIZE}x{MAX_SIZE}, not {size}x{size}: "
            "checking near-minimal 20x20 or 25x25 puzzles for uniqueness takes minutes each"
        )
    return geometry_for(size)  # raises ValueError for sizes the engines do not handle


# ---------------------------------------------------------------------------------------
# Full grids


def _fill(rng: random.Random, geo: Geometry, values: list[int], cand: list[int]) -> bool:
    """Complete `values` in place by randomised search; False if it cannot be completed.

    `cand` holds the candidates of every empty cell (never 0) and 0 for filled cells.
    """
    best = -1
    best_count = geo.size + 1
    for cell, c in enumerate(cand):
        if not c:
            continue
        k = c.bit_count()
        if k < best_count:
            best, best_count = cell, k
            if k <= 1:
                break
    if best < 0:
        return True
    digits = digits_of(cand[best])
    rng.shuffle(digits)
    for digit in digits:
        trial_values = values[:]
        trial_cand = cand[:]
        if _assign(geo, trial_values, trial_cand, best, digit) and _fill(
            rng, geo, trial_values, trial_cand
        ):
            values[:] = trial_values
            return True
    return False


def _assign(geo: Geometry, values: list[int], cand: list[int], cell: int, digit: int) -> bool:
    """Place `digit` and propagate naked singles; False on an empty cell."""
    pending = [(cell, digit)]
    while pending:
        cell, digit = pending.pop()
        if values[cell]:
            if values[cell] != digit:
                return False
            continue
        bit = 1 << (digit - 1)
        if not cand[cell] & bit:
            return False
        values[cell] = digit
        cand[cell] = 0
        for peer in geo.peers[cell]:
            c = cand[peer]
            if c & bit:
                c &= ~bit
                cand[peer] = c  # filled cells have no candidates, so peer is empty
                if not c:
                    return False
                if not c & (c - 1):
                    pending.append((peer, c.bit_length()))
    return True


def _transform(rng: random.Random, geo: Geometry, grid: list[int]) -> list[int]:
    """A random relabelling and row/column/band/stack permutation (plus transposition)."""
    n, br, bc = geo.size, geo.box_rows, geo.box_cols

    def lines(per_group: int, groups: int) -> list[int]:
        order = list(range(groups))
        rng.shuffle(order)
        out: list[int] = []
        for g in order:
            inner = list(range(per_group))
            rng.shuffle(inner)
            out.extend(g * per_group + i for i in inner)
        return out

    rows = lines(br, n // br)
    cols = lines(bc, n // bc)
    labels = list(range(1, n + 1))
    rng.shuffle(labels)
    out = [labels[grid[rows[r] * n + cols[c]] - 1] for r in range(n) for c in range(n)]
    if br == bc and rng.random() < 0.5:
        out = [out[c * n + r] for r in range(n) for c in range(n)]
    return out


def random_full_grid(rng: random.Random, geo: Geometry) -> list[int]:
    """A random complete grid drawn with `rng` (see the module doc for how)."""
    n = geo.size
    while True:
        values = [0] * geo.cells
        if geo.box_rows == geo.box_cols:
            for b in range(geo.box_rows):  # diagonal boxes share no row or column
                digits = list(range(1, n + 1))
                rng.shuffle(digits)
                for cell, digit in zip(
                    geo.units[2 * n + b * geo.box_rows + b], digits, strict=True
                ):
                    values[cell] = digit
        if n != 9:
            full = _engine_fill(rng, geo, values)
            if full is not None:
                return _transform(rng, geo, full)
        elif _fill(rng, geo, values, LogicSolver(values, geo).cand):
            return _transform(rng, geo, values)


def _engine_fill(rng: random.Random, geo: Geometry, values: list[int]) -> list[int] | None:
    """A completion of `values` by the compiled general engine, or None within FILL_NODES."""
    if geo.box_rows != geo.box_cols:
        digits = list(range(1, geo.size + 1))
        rng.shuffle(digits)
        values[: geo.size] = digits  # the first row: no box of it repeats a digit
    results = run_engine(bytes(values), 1, 1, 1, geometry=geo, max_nodes=FILL_NODES)
    return list(results.solutions) if results.counts[0] > 0 else None


# ---------------------------------------------------------------------------------------
# Symmetry


def symmetry_orbits(symmetry: str | None, geo: Geometry) -> list[tuple[int, ...]]:
    """The cells grouped into orbits of the symmetry (singletons for None / "none")."""
    name = "none" if symmetry is None else str(symmetry).strip().lower()
    if name == "rot180":
        name = "rotational"
    if name not in SYMMETRIES:
        raise ValueError(f"unknown symmetry {symmetry!r}; choose from {', '.join(SYMMETRIES)}")
    n = geo.size
    last = n - 1

    def image(r: int, c: int, k: int) -> tuple[int, int]:
        """The k-th element of the dihedral group acting on (r, c); 0 is the identity."""
        if k >= 4:
            r, c = c, r  # reflect in the main diagonal, then rotate
            k -= 4
        for _ in range(k):
            r, c = c, last - r  # a quarter turn
        return r, c

    # Elements of the group, as numbered by `image`: quarter turns 1-3, reflections 4-7
    # (4: main diagonal, 5: left-right, 6: antidiagonal, 7: top-bottom).
    group = {
        "none": (),
        "rotational": (2,),
        "rot90": (1, 2, 3),
        "mirror": (5,),
        "flip": (7,),
        "diagonal": (4,),
        "antidiagonal": (6,),
        "dihedral": (1, 2, 3, 4, 5, 6, 7),
    }[name]
    seen: set[int] = set()
    orbits = []
    for cell in range(geo.cells):
        if cell in seen:
            continue
        r, c = divmod(cell, n)
        orbit = {cell} | {rr * n + cc for rr, cc in (image(r, c, k) for k in group)}
        seen |= orbit
        orbits.append(tuple(sorted(orbit)))
    return orbits


# ---------------------------------------------------------------------------------------
# Clue removal


class _Carver:
    """Removes the clues of one full grid, orbit by orbit in a fixed order, keeping uniqueness.

    It hands out batches of candidate puzzles to test and takes back their solution
    counts; the result equals testing each removal one at a time in order.
    """

    def __init__(self, grid: list[int], orbits: list[tuple[int, ...]], geo: Geometry) -> None:
        self.grid = grid
        self.puzzle = bytes(grid)
        self.queue = deque(orbits)
        self.removed: list[tuple[int, ...]] = []  # orbits removed, in order
        self.geo = geo
        self.consecutive = True  # test consecutive removals (vs. single removals)
        self.batch: list[tuple[int, ...]] = []
        self.tested: list[bytes] = []
        self.undecided = False  # a removal was refused because its check ran out of nodes

    @property
    def done(self) -> bool:
        return not self.queue

    def candidates(self) -> list[bytes]:
        """The next puzzles to count solutions for."""
        size = self._prefix_batch() if self.consecutive else SINGLE_BATCH
        self.batch = [self.queue.popleft() for _ in range(min(size, len(self.queue)))]
        out = []
        current = bytearray(self.puzzle)
        for orbit in self.batch:
            trial = current if self.consecutive else bytearray(self.puzzle)
            for cell in orbit:
                trial[cell] = 0
            out.append(bytes(trial))
        self.tested = out
        return out

    def _prefix_batch(self) -> int:
        # Removals almost never fail while many clues remain, and those tests are cheap.
        clues = self.geo.cells - self.puzzle.count(0)
        return max(PREFIX_BATCH, (clues - self.geo.cells // 3) // 2)

    def feed(self, counts: Sequence[int]) -> None:
        """Take the solution counts of the last batch, in order."""
        if self.consecutive:
            for i, count in enumerate(counts):
                if count != 1:
                    # Orbit i stays; the tests after it assumed it gone, so redo them.
                    self.undecided |= count < 0
                    self.queue.extendleft(reversed(self.batch[i + 1 :]))
                    self.consecutive = False
                    return
                self.puzzle = self.tested[i]
                self.removed.append(self.batch[i])
            return
        accepted = None
        retest = []
        successes = 0
        for i, count in enumerate(counts):
            if accepted is None:
                if count == 1:
                    accepted = i
                    successes += 1
                self.undecided |= count < 0
            elif count == 1 or count < 0:
                # Tested against the puzzle before the accepted removal: test it again.
                retest.append(self.batch[i])
                successes += 1
            # count 0 cannot happen; count 2 stays 2 with fewer clues: the orbit stays;
            # -1 (out of nodes) is tested again against the puzzle it now applies to.
        if accepted is not None:
            self.puzzle = self.tested[accepted]
            self.removed.append(self.batch[accepted])
        self.queue.extendleft(reversed(retest))
        self.consecutive = successes * 2 > len(counts)


class _Slot:
    """One puzzle being generated: its own random stream, full grid and carver."""

    def __init__(
        self,
        seed: int,
        geo: Geometry,
        orbits: list[tuple[int, ...]],
        level: int | None,
        minimal: bool,
    ) -> None:
        self.rng = random.Random(seed)
        self.geo = geo
        self.orbits = orbits
        self.level = level
        self.minimal = minimal
        self.result: str | None = None
        self.carver = self._new_carver()

    def _new_carver(self) -> _Carver:
        grid = random_full_grid(self.rng, self.geo)
        order = self.orbits[:]
        self.rng.shuffle(order)
        return _Carver(grid, order, self.geo)

    def finish(self) -> None:
        """The carver is done: keep a puzzle at the asked level, or start over."""
        carver = self.carver
        if carver.undecided and self.minimal:
            self.carver = self._new_carver()  # its minimality is not proven
            return
        puzzle = list(carver.puzzle)
        if self.level is None:
            self.result = _text(puzzle)
            return
        level = level_within(puzzle, self.level, self.geo)
        if not self.minimal:
            # Put clues back, last removed first, until the puzzle is no harder than asked.
            for orbit in reversed(carver.removed):
                if level <= self.level:
                    break
                for cell in orbit:
                    puzzle[cell] = carver.grid[cell]
                level = level_within(puzzle, self.level, self.geo)
        if level == self.level:
            self.result = _text(puzzle)
        else:
            self.carver = self._new_carver()


def _text(values: list[int]) -> str:
    """A grid as text: symbols 1-9, then A, B, ... for larger sizes; '.' for empty."""
    return "".join(SYMBOLS[v - 1] if v else "." for v in values)


def _count_batch(puzzles: list[bytes], geo: Geometry, threads: int | None) -> list[int]:
    """Solution counts (capped at 2; -1 when out of nodes) of a batch of encoded puzzles."""
    results = run_engine(
        b"".join(puzzles),
        len(puzzles),
        2,
        threads,
        geometry=geo,
        max_nodes=CHECK_NODES,
    )
    return list(results.counts)


def generate_many(
    n: int,
    difficulty: str | int | None = None,
    seed: int | None = None,
    size: int = 9,
    symmetry: str | None = None,
    minimal: bool = True,
    threads: int | None = None,
) -> list[str]:
    """Generate `n` puzzles, each with exactly one solution (see `generate`).

    Puzzle i depends only on the seed and i, not on `threads`: the same seed gives the
    same list. The engine calls run on `threads` (None = all cores, 1 = serial).
    """
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"n must be an int, not {type(n).__name__}")
    if n < 0:
        raise ValueError(f"n must not be negative, got {n}")
    level = _level_of(difficulty)
    geo = _geometry_for(size)
    if level is not None and geo.size != 9:
        # `rate` and its logical solver are for 9x9 grids; rating 16x16 in pure Python
        # per candidate grid would take minutes per puzzle.
        raise ValueError(
            f"difficulty levels are for 9x9 puzzles; use difficulty=None for {size}x{size}"
        )
    orbits = symmetry_orbits(symmetry, geo)
    master = random.Random(seed)
    seeds = [master.getrandbits(64) for _ in range(n)]  # puzzle i depends on seeds[i] only
    results: list[str] = [""] * n
    active: list[tuple[int, _Slot]] = []
    started = 0
    while active or started < n:
        while started < n and len(active) < ACTIVE_PUZZLES:
            active.append((started, _Slot(seeds[started], geo, orbits, level, bool(minimal))))
            started += 1
        batch: list[bytes] = []
        spans = []
        for _, slot in active:
            cands = slot.carver.candidates()
            spans.append((len(batch), len(batch) + len(cands)))
            batch.extend(cands)
        counts = _count_batch(batch, geo, threads)
        still = []
        for (index, slot), (start, stop) in zip(active, spans, strict=True):
            slot.carver.feed(counts[start:stop])
            if slot.carver.done:
                slot.finish()
            if slot.result is None:
                still.append((index, slot))
            else:
                results[index] = slot.result
        active = still
    return results


def generate(
    difficulty: str | int | None = None,
    seed: int | None = None,
    size: int = 9,
    symmetry: str | None = None,
    minimal: bool = True,
) -> str:
    """Generate one puzzle with exactly one solution, as a canonical string.

    `difficulty`: None (any), a name ("easy", "medium", "hard", "expert", "extreme") or
    a level 1-5 as rated by `rate`. `seed`: an int for a reproducible puzzle (None draws
    fresh randomness). `symmetry`: None, "rotational" (180 degrees), "rot90", "mirror",
    "flip", "diagonal", "antidiagonal" or "dihedral"; clues are then removed in
    symmetric groups. `minimal=True`: no clue (no symmetric group of clues) can be
    removed without losing uniqueness; `minimal=False` allows a few more clues, put
    back until the puzzle is no harder than `difficulty` (no effect without one).
    `size`: 4 to 16, boxes as square as possible (6 -> 2x3, 12 -> 3x4, 15 -> 3x5);
    difficulty levels are for 9x9 only (other sizes need `difficulty=None`).
    """
    return generate_many(1, difficulty, seed, size, symmetry, minimal, threads=1)[0]
