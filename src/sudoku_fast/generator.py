"""Generate puzzles with exactly one solution, optionally symmetric, at a chosen difficulty.

Puzzle i of a call depends only on its own 64-bit seed, drawn from `random.Random(seed)`,
so the same seed gives the same puzzles whatever the number of threads. How a puzzle is
made from its seed:

1. **Random numbers.** A private xoshiro256** generator, seeded by splitmix64 from the
   puzzle's seed. Integers below k are drawn by rejection (no modulo bias) and lists
   are shuffled by Fisher-Yates.
2. **A random full grid.** The diagonal boxes are filled with random permutations (they
   share no row or column, so any filling is consistent); with rectangular boxes the
   first row is. A depth-first search completes the grid: the first open cell with the
   fewest candidates, its values in random order, naked and hidden singles propagated.
   A search that needs more than `FILL_NODES` branches (rare, 16x16) is given up for a
   fresh random start. A random validity-preserving transformation follows: values
   relabelled, bands and stacks permuted, rows and columns permuted within them, and
   (square boxes) a transposition half of the time.
3. **Clues removed in random order.** The symmetry's orbits of cells (single cells
   without a symmetry) are visited once each in random order; a removal is kept when the
   puzzle still has exactly one solution. Removing clues can only add solutions, so an
   orbit that could not go earlier cannot go later either: one pass leaves a minimal
   puzzle (removing any remaining orbit gives two or more solutions).
4. **Difficulty.** With `minimal=True` (the default) the minimal puzzle is kept only if
   the technique solver rates it at the asked level (`rate`'s levels); otherwise a new
   removal order is tried, on the same full grid for `ORDERS_PER_GRID` orders, then on
   a new one. For the easier levels the partial puzzle is rated once a third of the
   cells or fewer are clues, and given up at once if it is already too hard. With
   `minimal=False`, when the minimal puzzle is harder than asked, removed orbits are
   put back, last removed first, until it is no harder; it is kept if it then has the
   asked level. Every level works at every size, except minimal puzzles at levels
   that size practically never has (`MINIMAL_LEVELS`: 4x4 ones are all easy, 15x15
   and 16x16 ones extreme or harder) and, minimal or not, levels above those (adding
   clues never makes a puzzle harder, so 4x4 puzzles are easy).

**A band of the SE scale.** `score=(low, high)` (9x9 only) asks for puzzles whose
Sudoku Explainer score (`rate(..., score=True)`) lies in the band, ends included. The
puzzles are drawn in rounds: each round generates a batch aimed at the level the band's
middle maps to (`se.score_level`, at most 5), from a seed drawn from `random.Random(seed)`,
rates it on the SE scale and keeps the puzzles inside the band, in order, until there
are enough. A band that `SCORE_CANDIDATES` candidates per asked puzzle do not fill
raises RuntimeError (the scores of generated puzzles thin out above 9).

Uniqueness checks on 9x9 grids (3x3 boxes) run on the 9x9 engine; on other grids on
the general engine with a budget of `CHECK_NODES` search nodes: a removal whose check
runs out is not made (the puzzle stays unique), and with `minimal=True` such a puzzle
is thrown away and another drawn, so every puzzle returned as minimal is proven
minimal.

`generate_many` runs all of this in compiled code (`_generate.pyx`), a range of
puzzles per GIL-released call, fanned out over the package's thread pool.
`generate_many_reference` is its pure-Python twin: the same steps with the same random
numbers, slow and plain, so tests can check that both give the same puzzles. (Only a
check that runs out of nodes could tell them apart: they search differently, so such
checks need not be the same ones; no check of the default budget runs out up to
16x16.) Every random choice comes from these private generators; the global RNG is
never touched.
"""

from __future__ import annotations

import math
import random
from array import array
from collections.abc import Callable, Iterator

from . import _general, _generate, _logic, se
from .batch import resolve_threads, run_chunks, run_engine, shared_buffers
from .grid import Geometry, check_flag, format_values, geometry_for, parse_values
from .logic import LEVEL_NAMES
from .logic import level_within as reference_level_within

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

# Search-node budgets. Completing a 16x16 grid from its diagonal boxes takes about 120
# branches, now and then far more (a heavy tail a fresh start cuts short); the
# costliest uniqueness checks of near-minimal 16x16 puzzles take about 47,000 nodes of
# the general engine (measured on 20 puzzles, seed 1).
FILL_NODES = 20_000
CHECK_NODES = 1_000_000
# Near-minimal 25x25 puzzles (about 280 of 625 clues) exhaust 1,000,000 nodes, about 40 s
# of search, and 20x20 generation did not finish in minutes either; 15x15 and 16x16 take
# well under a second per puzzle.
MAX_SIZE = 16
# Puzzles per compiled call: a 9x9 puzzle takes 0.2-3 ms, so a few per chunk keep the
# per-call overhead negligible and the threads' finish even; bigger grids go one by one.
MAX_CHUNK_9X9 = 8
# Aiming at a level (see bench/README.md for the measurements): each full grid serves
# ORDERS_PER_GRID removal orders, and for levels up to EARLY_MAX_LEVEL a minimal
# puzzle's partial form is rated once a third of the cells or fewer are clues, and
# given up if it is already too hard. Above that level too-hard puzzles are rare and
# the extra rating costs more than it saves.
ORDERS_PER_GRID = 4
EARLY_MAX_LEVEL = 3
# Removal orders tried per puzzle before giving up (RuntimeError): a rare level, or one
# a symmetry makes rare, must still end.
MAX_ATTEMPTS = 100_000
# Levels a minimal puzzle of a size can be asked for, where not all of 1-5: in random
# minimal puzzles (no symmetry) 4x4 ones are all easy, and 15x15 and 16x16 ones are
# extreme or harder (18 of 20 and 43 of 60 extreme, the rest nightmare). Levels seen
# for 6x6 in 20,000: easy 95%, medium 0.4%, hard 0.07%, expert 4.5%, extreme 0.1%.
MINIMAL_LEVELS: dict[int, tuple[int, ...]] = {1: (1,), 4: (1,), 15: (5,), 16: (5,)}


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


# Asking for a band of the SE scale: candidates generated per asked puzzle before
# giving up, and the smallest round.
SCORE_CANDIDATES = 100
SCORE_ROUND = 8
UNBOUNDED_TENTHS = 10**9
TENTH_SLACK = 1e-9  # float error allowed in a score bound times 10


def _score_band(score: object, size: object, difficulty: object) -> tuple[int, int] | None:
    """Check `score` (None or a (low, high) pair on the SE scale); the band in tenths."""
    if score is None:
        return None
    if not isinstance(score, tuple | list) or len(score) != 2:
        raise TypeError(f"score must be a (low, high) pair of numbers, not {score!r}")
    for bound in score:
        if isinstance(bound, bool) or not isinstance(bound, int | float):
            raise TypeError(f"score bounds must be numbers, not {type(bound).__name__}")
        if bound != bound:
            raise ValueError("score bounds must be numbers, not NaN")
    if not -1e6 < score[0] < 1e6:
        raise ValueError(f"score band must have a low bound on the scale, got {score[0]}")
    # Scores come in tenths and both ends are included: the band holds the tenths from
    # the first at or above `low` to the last at or below `high` (4.15-4.45: 4.2-4.4).
    # The slack absorbs float error in bounds such as 4.3 * 10 = 43.000000000000007.
    low = math.ceil(score[0] * 10 - TENTH_SLACK)
    # A high bound past the scale (infinity too) means no upper limit.
    high = (
        UNBOUNDED_TENTHS if score[1] >= 1e6 else math.floor(max(score[1], -1.0) * 10 + TENTH_SLACK)
    )
    if not 1.0 <= score[0] <= score[1]:
        raise ValueError(f"score band must have 1.0 <= low <= high, got {score[0]}-{score[1]}")
    if low > high:
        raise ValueError(
            f"score band {score[0]}-{score[1]} holds no score (scores go in tenths: 4.2, 4.3, ...)"
        )
    top = max(se.BASE)  # "beyond": no step scores more, chains included
    if low > top:
        raise ValueError(
            f"score band {score[0]}-{score[1]} holds no score: scores here go up to {top / 10:.1f}"
        )
    if size != 9:
        raise ValueError("score bands are on the Sudoku Explainer scale, defined for 9x9 only")
    if difficulty is not None:
        raise ValueError("ask for a difficulty or a score band, not both")
    return low, high


def _scored(
    n: int,
    band: tuple[int, int],
    seed: int | None,
    make: Callable[[int, int, int], list[str]],
    score: Callable[[list[str]], list[int | None]],
) -> list[str]:
    """The first `n` generated puzzles whose score (tenths, None when unknown) lies in
    `band`; `make(count, level, seed)` generates, `score` rates."""
    _check_count(n)
    check_seed(seed)
    low, high = band
    level = min(5, se.score_level((low + high) / 20))
    master = random.Random(seed)
    found: list[str] = []
    tried = 0
    while len(found) < n:
        if tried >= SCORE_CANDIDATES * n:
            wanted = (
                f"{low / 10:.1f} or more"
                if high == UNBOUNDED_TENTHS
                else (f"{low / 10:.1f}-{high / 10:.1f}")
            )
            raise RuntimeError(
                f"no 9x9 puzzle scored {wanted} in {tried} generated puzzles: scores at "
                "either end of the scale are rare; try a wider band"
            )
        count = max(SCORE_ROUND, 2 * (n - len(found)))
        puzzles = make(count, level, master.getrandbits(64))
        tried += count
        for puzzle, tenths in zip(puzzles, score(puzzles), strict=True):
            if tenths is not None and low <= tenths <= high and len(found) < n:
                found.append(puzzle)
    return found


def _geometry_for(size: object) -> Geometry:
    if isinstance(size, bool) or not isinstance(size, int):
        raise TypeError(f"size must be an int, not {type(size).__name__}")
    if size < 4:  # a 1x1 grid has no clue to remove, 2x2 and 3x3 no box shape
        raise ValueError(f"puzzles can be generated from 4x4 up, not {size}x{size}")
    if size > MAX_SIZE:
        raise ValueError(
            f"puzzles can be generated up to {MAX_SIZE}x{MAX_SIZE}, not {size}x{size}: "
            "checking near-minimal 20x20 or 25x25 puzzles for uniqueness takes minutes each"
        )
    try:
        return geometry_for(size)
    except ValueError as exc:  # no default box shape (5, 7, 11, ...): generate takes none
        raise ValueError(
            f"puzzles can be generated for sizes with a default box shape, not {size}x{size}"
        ) from exc


# ---------------------------------------------------------------------------------------
# Random numbers (the same as _generate.pyx's, bit for bit)

_MASK64 = (1 << 64) - 1


def splitmix64(state: int) -> tuple[int, int]:
    """The next (state, output) of splitmix64."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return state, z ^ (z >> 31)


def _rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & _MASK64


class Rng:
    """xoshiro256** seeded by splitmix64: the generator of one puzzle."""

    def __init__(self, seed: int) -> None:
        state = seed & _MASK64
        words = []
        for _ in range(4):
            state, word = splitmix64(state)
            words.append(word)
        self.s = words

    def next(self) -> int:
        """The next 64-bit output."""
        s = self.s
        result = (_rotl((s[1] * 5) & _MASK64, 7) * 9) & _MASK64
        t = (s[1] << 17) & _MASK64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = _rotl(s[3], 45)
        return result

    def below(self, k: int) -> int:
        """A uniform integer in 0..k-1, by rejecting the outputs under 2**64 mod k."""
        threshold = (1 << 64) % k
        while True:
            x = self.next()
            if x >= threshold:
                return x % k

    def shuffle(self, items: list[int]) -> None:
        """Fisher-Yates, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


# ---------------------------------------------------------------------------------------
# Full grids


class _GaveUp(Exception):
    """The completion search used up its FILL_NODES branches."""


def _propagate(geo: Geometry, cand: list[int], fixed: list[int]) -> bool:
    """Naked and hidden singles to a fixed point, in place; False on contradiction.

    `cand[cell]` has bit v-1 set when value v is possible; `fixed` lists the cells just
    reduced to one value. Both rules only remove candidates, so their fixed point (and
    whether it has an empty cell or a value with no place in some unit) does not
    depend on the order they run in: the compiled version gets the same state.
    """
    while fixed:
        while fixed:
            cell = fixed.pop()
            bit = cand[cell]
            for peer in geo.peers[cell]:
                if cand[peer] & bit:
                    cand[peer] &= ~bit
                    if cand[peer] == 0:
                        return False
                    if cand[peer] & (cand[peer] - 1) == 0:
                        fixed.append(peer)
        for unit in geo.units:
            for v in range(geo.size):
                bit = 1 << v
                places = [cell for cell in unit if cand[cell] & bit]
                if not places:
                    return False
                if len(places) == 1 and cand[places[0]] != bit:
                    cand[places[0]] = bit
                    fixed.append(places[0])
    return True


def _open_cell(cand: list[int]) -> int:
    """The first cell with the fewest candidates (two or more), or -1 if all are fixed."""
    best, best_count = -1, 65
    for cell, c in enumerate(cand):
        k = c.bit_count()
        if 1 < k < best_count:
            best, best_count = cell, k
            if k == 2:
                break
    return best


def _search(rng: Rng, geo: Geometry, cand: list[int], nodes: list[int]) -> list[int] | None:
    """A completion of the propagated `cand` by randomised depth-first search, or None.

    `nodes[0]` counts the branches; past FILL_NODES the search raises _GaveUp.
    """
    cell = _open_cell(cand)
    if cell < 0:
        return cand
    values = [v + 1 for v in range(geo.size) if cand[cell] >> v & 1]
    rng.shuffle(values)
    for value in values:
        if nodes[0] >= FILL_NODES:
            raise _GaveUp
        nodes[0] += 1
        child = cand[:]
        child[cell] = 1 << (value - 1)
        if _propagate(geo, child, [cell]):
            found = _search(rng, geo, child, nodes)
            if found is not None:
                return found
    return None


def _complete(rng: Rng, geo: Geometry) -> list[int] | None:
    """A random start, completed; None when the search gives up (or finds nothing)."""
    n = geo.size
    cand = [geo.all_digits] * geo.cells
    if geo.box_rows == geo.box_cols:
        starts = [geo.units[2 * n + b * geo.box_rows + b] for b in range(geo.box_rows)]
    else:
        starts = [geo.units[0]]
    for unit in starts:
        values = list(range(1, n + 1))
        rng.shuffle(values)
        for cell, value in zip(unit, values, strict=True):
            cand[cell] = 1 << (value - 1)
    if not _propagate(geo, cand, [cell for unit in starts for cell in unit]):
        return None
    try:
        found = _search(rng, geo, cand, [0])
    except _GaveUp:
        return None
    return None if found is None else [c.bit_length() for c in found]


def _line_order(rng: Rng, per_group: int, groups: int) -> list[int]:
    """Rows (or columns) in a random order that keeps bands (stacks) together."""
    order = list(range(groups))
    rng.shuffle(order)
    lines = []
    for group in order:
        inner = list(range(group * per_group, (group + 1) * per_group))
        rng.shuffle(inner)
        lines.extend(inner)
    return lines


def _transform(rng: Rng, geo: Geometry, grid: list[int]) -> list[int]:
    """A random relabelling and row/column/band/stack permutation (plus transposition)."""
    n, br, bc = geo.size, geo.box_rows, geo.box_cols
    rows = _line_order(rng, br, n // br)
    cols = _line_order(rng, bc, n // bc)
    labels = list(range(1, n + 1))
    rng.shuffle(labels)
    out = [labels[grid[rows[r] * n + cols[c]] - 1] for r in range(n) for c in range(n)]
    if br == bc and rng.below(2) == 1:
        out = [out[c * n + r] for r in range(n) for c in range(n)]
    return out


def random_full_grid(rng: Rng, geo: Geometry) -> list[int]:
    """A random complete grid drawn with `rng` (see the module doc for how)."""
    while True:
        filled = _complete(rng, geo)
        if filled is not None:
            return _transform(rng, geo, filled)


# ---------------------------------------------------------------------------------------
# Symmetry


def symmetry_orbits(symmetry: str | None, geo: Geometry) -> list[tuple[int, ...]]:
    """The cells grouped into orbits of the symmetry (singletons for None / "none")."""
    if symmetry is not None and not isinstance(symmetry, str):
        raise TypeError(f"symmetry must be a str or None, not {type(symmetry).__name__}")
    name = "none" if symmetry is None else symmetry.strip().lower()
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
# The pure-Python twin


def _count(puzzle: list[int], geo: Geometry) -> int:
    """Solutions up to 2; -1 when the general engine runs out of CHECK_NODES nodes."""
    results = run_engine(bytes(puzzle), 1, 2, 1, geometry=geo, max_nodes=CHECK_NODES)
    return results.counts[0]


class _TooHard(Exception):
    """The partial puzzle is already harder than the asked level."""


def _carve(
    grid: list[int], orbits: list[tuple[int, ...]], geo: Geometry, early: int | None
) -> tuple[list[int], list[tuple[int, ...]], bool]:
    """Remove the orbits in order, each when the puzzle stays unique.

    Returns the puzzle, the orbits removed (in order) and whether some check ran out of
    nodes (the puzzle is then unique but not proven minimal). With `early` (a level),
    the puzzle is rated once a third of the cells or fewer are clues, and _TooHard is
    raised when it is already above that level.
    """
    puzzle = grid[:]
    removed = []
    undecided = False
    clues = geo.cells
    for orbit in orbits:
        for cell in orbit:
            puzzle[cell] = 0
        count = _count(puzzle, geo)
        if count == 1:
            removed.append(orbit)
            clues -= len(orbit)
            if early is not None and clues <= geo.cells // 3:
                if reference_level_within(puzzle, early, geo) > early:
                    raise _TooHard
                early = None
            continue
        undecided |= count < 0
        for cell in orbit:
            puzzle[cell] = grid[cell]
    return puzzle, removed, undecided


def _reference_puzzle(
    seed: int, geo: Geometry, orbits: list[tuple[int, ...]], level: int | None, minimal: bool
) -> list[int] | None:
    """The puzzle of one seed, made step by step in Python (see the module doc).

    None when no puzzle at the level was found in MAX_ATTEMPTS removal orders.
    """
    rng = Rng(seed)
    early = level if level is not None and level <= EARLY_MAX_LEVEL and minimal else None
    grid: list[int] = []
    for attempt in range(MAX_ATTEMPTS):
        if attempt % ORDERS_PER_GRID == 0:
            grid = random_full_grid(rng, geo)
        order = list(range(len(orbits)))
        rng.shuffle(order)
        try:
            puzzle, removed, undecided = _carve(grid, [orbits[k] for k in order], geo, early)
        except _TooHard:
            continue
        if undecided and minimal:
            continue  # a removal was left undecided: minimality is not proven
        if level is None:
            return puzzle
        found = reference_level_within(puzzle, level, geo)
        if not minimal:
            for orbit in reversed(removed):
                if found <= level:
                    break
                for cell in orbit:
                    puzzle[cell] = grid[cell]
                found = reference_level_within(puzzle, level, geo)
        if found == level:
            return puzzle
    return None


def _prepare(
    n: int,
    difficulty: str | int | None,
    seed: int | None,
    size: int,
    symmetry: str | None,
    minimal: bool,
) -> tuple[int | None, Geometry, list[tuple[int, ...]], list[int]]:
    """Check the arguments; the level, geometry, orbits and per-puzzle seeds."""
    _check_count(n)
    check_seed(seed)
    check_flag(minimal, "minimal")
    level = _level_of(difficulty)
    geo = _geometry_for(size)
    reached = MINIMAL_LEVELS.get(geo.size)
    if level is not None and reached is not None and level not in reached:
        grid = f"{geo.size}x{geo.size}"
        names = ", ".join(LEVEL_NAMES[k] for k in reached)
        if level > max(reached):
            # Without minimal, clues go back into a minimal puzzle, which never makes it
            # harder: no puzzle of this size gets past what its minimal ones reach.
            raise ValueError(
                f"{grid} puzzles are practically never {LEVEL_NAMES[level]}: minimal ones "
                f"are only {names}, and adding clues never makes a puzzle harder"
            )
        if minimal:
            raise ValueError(
                f"minimal {grid} puzzles are practically never "
                f"{LEVEL_NAMES[level]} (only {names}); pass minimal=False to get one"
            )
    orbits = symmetry_orbits(symmetry, geo)
    master = random.Random(seed)
    return level, geo, orbits, [master.getrandbits(64) for _ in range(n)]


# The most puzzles one generate_many call makes: its list of 9x9 puzzles (a str of 81
# characters is about 130 bytes) then holds about 13 GB.
MAX_MANY = 100_000_000


def _check_count(n: object) -> None:
    """Raise unless `n`, the number of puzzles asked for, is an int >= 0."""
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"n must be an int, not {type(n).__name__}")
    if n < 0:
        raise ValueError(f"n must not be negative, got {n}")


def check_seed(seed: object) -> None:
    """Raise unless `seed` is None or an int >= 0 (Python's Random would take -s as s)."""
    if seed is None:
        return
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be an int or None, not {type(seed).__name__}")
    if seed < 0:
        raise ValueError(f"seed must not be negative, got {seed}")


def _gave_up(geo: Geometry, level: int | None, symmetry: str | None, index: int) -> RuntimeError:
    """The error of a batch whose puzzle `index` was given up on."""
    what = f"{geo.size}x{geo.size}" + (f" {LEVEL_NAMES[level]}" if level is not None else "")
    return RuntimeError(
        f"puzzle {index}: no {what} puzzle with symmetry {symmetry!r} found in "
        f"{MAX_ATTEMPTS} attempts"
    )


def generate_many_reference(
    n: int,
    difficulty: str | int | None = None,
    seed: int | None = None,
    size: int = 9,
    symmetry: str | None = None,
    minimal: bool = True,
    *,
    score: tuple[float, float] | None = None,
) -> list[str]:
    """`generate_many`'s pure-Python twin: the same puzzles for the same arguments, slowly.

    Uniqueness checks use the engines' solution counts; levels come from the
    pure-Python technique solver (`logic.level_within`), scores from the pure-Python
    SE rater (`se.rate_se`).
    """
    band = _score_band(score, size, difficulty)
    if band is not None:

        def make_batch(count: int, level: int, sub_seed: int) -> list[str]:
            return generate_many_reference(count, level, sub_seed, 9, symmetry, minimal)

        def rate_batch(puzzles: list[str]) -> list[int | None]:
            from .solver import solve

            out: list[int | None] = []
            for puzzle in puzzles:
                solution = parse_values(solve(puzzle) or "")
                result = se.rate_se(parse_values(puzzle), solution=solution)
                out.append(result.score if result.status == se.SE_OK else None)
            return out

        return _scored(n, band, seed, make_batch, rate_batch)
    level, geo, orbits, seeds = _prepare(n, difficulty, seed, size, symmetry, minimal)
    out = []
    for index, s in enumerate(seeds):
        puzzle = _reference_puzzle(s, geo, orbits, level, minimal)
        if puzzle is None:
            raise _gave_up(geo, level, symmetry, index)
        out.append(format_values(puzzle, geo))
    return out


# ---------------------------------------------------------------------------------------
# The compiled path


def generate_many(
    n: int,
    difficulty: str | int | None = None,
    seed: int | None = None,
    size: int = 9,
    symmetry: str | None = None,
    minimal: bool = True,
    *,
    threads: int | None = None,
    score: tuple[float, float] | None = None,
) -> list[str]:
    """Generate `n` puzzles, each with exactly one solution (see `generate`).

    Puzzle i depends only on the seed and i, not on `threads`: the same seed gives the
    same list. The puzzles are made on `threads` (None = all cores, 1 = serial), each
    by compiled code with the GIL released. `n` is at most MAX_MANY (`iter_generate`
    streams any number). Raises RuntimeError when some puzzle's
    level was not met in MAX_ATTEMPTS removal orders (a level a symmetry makes rare).
    `score=(low, high)`: puzzles whose SE score lies in the band (9x9, instead of a
    difficulty; see the module doc), rated on `threads` too; RuntimeError when
    SCORE_CANDIDATES generated puzzles per asked one do not fill it.
    """
    _check_count(n)
    if n > MAX_MANY:
        raise ValueError(
            f"n must be at most {MAX_MANY:,}: generate_many returns one list (about "
            f"{n * 130 / 1e9:,.0f} GB for {n:,}); iter_generate makes any number, a "
            "chunk at a time"
        )
    band = _score_band(score, size, difficulty)
    if band is not None:
        from .rating import rate_many

        def make_batch(count: int, level: int, sub_seed: int) -> list[str]:
            return generate_many(count, level, sub_seed, 9, symmetry, minimal, threads=threads)

        def rate_batch(puzzles: list[str]) -> list[int | None]:
            ratings = rate_many(puzzles, threads=threads, score=True)
            return [
                round(r.score * 10) if r.score is not None and r.score_complete else None
                for r in ratings
            ]

        return _scored(n, band, seed, make_batch, rate_batch)
    level, geo, orbits, seeds = _prepare(n, difficulty, seed, size, symmetry, minimal)
    return _generate_seeds(seeds, level, geo, orbits, minimal, symmetry, threads)


def iter_generate(
    n: int,
    difficulty: str | int | None = None,
    seed: int | None = None,
    size: int = 9,
    symmetry: str | None = None,
    minimal: bool = True,
    *,
    threads: int | None = None,
    chunk: int = 1024,
) -> Iterator[list[str]]:
    """`generate_many`'s puzzles (the same ones, in order), in lists of up to `chunk`.

    Each list is made as soon as the previous one was taken, so a caller can write the
    puzzles out as they come and `n` may be far larger than what fits in memory.
    """
    if isinstance(chunk, bool) or not isinstance(chunk, int) or chunk < 1:
        raise ValueError(f"chunk must be an int >= 1, got {chunk!r}")
    _check_count(n)
    level, geo, orbits, _ = _prepare(0, difficulty, seed, size, symmetry, minimal)
    master = random.Random(seed)  # the draws `_prepare` makes for all n at once
    for start in range(0, n, chunk):
        seeds = [master.getrandbits(64) for _ in range(min(chunk, n - start))]
        yield _generate_seeds(seeds, level, geo, orbits, minimal, symmetry, threads, start)


def _generate_seeds(
    seeds: list[int],
    level: int | None,
    geo: Geometry,
    orbits: list[tuple[int, ...]],
    minimal: bool,
    symmetry: str | None,
    threads: int | None,
    first: int = 0,
) -> list[str]:
    """The compiled path of `generate_many`: one puzzle per 64-bit seed (puzzle `first`
    of the caller's batch and on, as errors name them)."""
    n = len(seeds)
    workers = resolve_threads(threads)
    orbit_start = array("i", [0])
    orbit_cells = array("i")
    for orbit in orbits:
        orbit_cells.extend(orbit)
        orbit_start.append(len(orbit_cells))
    seed_words = array("Q", seeds)
    out = bytearray(n * geo.cells)
    tables = _general.tables_for(geo.size, geo.box_rows, geo.box_cols)
    logic_tables = _logic.tables_for(geo) if level is not None else None
    stop_flag = bytearray(1)  # set when another thread fails: the others stop early
    # Read at call time, so tests can shrink the budgets.
    fill_nodes, check_nodes, max_attempts = FILL_NODES, CHECK_NODES, MAX_ATTEMPTS
    early = level is not None and level <= EARLY_MAX_LEVEL and minimal
    gave_up: list[int] = []
    views = shared_buffers(workers, orbit_start, orbit_cells, seed_words, out, stop_flag)
    orbit_start_v, orbit_cells_v, seed_words_v, out_v, stop_v = views

    def make(start: int, stop: int) -> None:
        index = _generate.generate_range(
            tables,
            logic_tables,
            orbit_start_v,
            orbit_cells_v,
            seed_words_v,
            start,
            stop,
            out_v,
            level or 0,
            minimal,
            fill_nodes,
            check_nodes,
            ORDERS_PER_GRID,
            geo.cells // 3 if early else 0,
            max_attempts,
            stop_v,
        )
        if index >= 0:
            gave_up.append(index)
            stop_flag[0] = 1

    def abort() -> None:
        stop_flag[0] = 1

    max_chunk = MAX_CHUNK_9X9 if geo.size <= 9 else 1
    run_chunks(n, workers, 1, make, on_abort=abort, max_chunk=max_chunk)
    if gave_up:  # with threads, one that gave up (the others stopped early)
        raise _gave_up(geo, level, symmetry, first + min(gave_up))
    cells = geo.cells
    return [format_values(out[i * cells : (i + 1) * cells], geo) for i in range(n)]


def generate(
    difficulty: str | int | None = None,
    seed: int | None = None,
    size: int = 9,
    symmetry: str | None = None,
    minimal: bool = True,
    *,
    score: tuple[float, float] | None = None,
) -> str:
    """Generate one puzzle with exactly one solution, as a canonical string.

    `difficulty`: None (any), a name ("easy", "medium", "hard", "expert", "extreme") or
    a level 1-5 as rated by `rate`. `seed`: an int for a reproducible puzzle (None draws
    fresh randomness). `symmetry`: None, "rotational" (180 degrees), "rot90", "mirror",
    "flip", "diagonal", "antidiagonal" or "dihedral"; clues are then removed in
    symmetric groups. `minimal=True`: no clue (no symmetric group of clues) can be
    removed without losing uniqueness; `minimal=False` allows a few more clues, put
    back until the puzzle is no harder than `difficulty` (no effect without one).
    `size`: 4 to 16, boxes as square as possible (6 -> 2x3, 12 -> 3x4, 15 -> 3x5).
    Levels work at every size, but a minimal puzzle at a level its size practically
    never has (4x4: only easy; 15x15, 16x16: only extreme) raises ValueError, as does
    any level above those (adding clues never makes a puzzle harder: 4x4 is easy).
    `score=(low, high)` instead of `difficulty`: a 9x9 puzzle whose score on the Sudoku
    Explainer scale (`rate(..., score=True)`) lies in the band, e.g. (7.5, 8.0).
    """
    return generate_many(1, difficulty, seed, size, symmetry, minimal, threads=1, score=score)[0]
