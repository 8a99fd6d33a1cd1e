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
4. **Difficulty.** A level on 9x9 means a band of the Sudoku Explainer scale (the one
   ladder of `rate`'s levels, `se_scale.LEVEL_BANDS`: easy up to 2.4, medium 2.5-2.9,
   hard 3.0-3.9, expert 4.0-5.9, extreme 6.0-8.9): puzzles are drawn as for a score
   band (below) and kept when their score lies in it. The candidates are aimed at the
   technique solver's level of the same number, which every kept puzzle then has too.
   Aiming at a technique level (every size; on 9x9 for the candidates): with
   `minimal=True` (the default) the minimal puzzle is kept only if the technique solver
   rates it at that level; otherwise a new removal order is tried, on the same full
   grid for `ORDERS_PER_GRID` orders, then on a new one. For the easier levels the
   partial puzzle is rated once a third of the cells or fewer are clues, and given up
   at once if it is already too hard. With `minimal=False`, when the minimal puzzle is
   harder than asked, removed orbits are put back, last removed first, until it is no
   harder; it is kept if it then has the asked level. Every level works at every size,
   except minimal puzzles at levels that size practically never has
   (`MINIMAL_LEVELS`: 4x4 ones are all easy, 15x15 and 16x16 ones extreme or harder)
   and, minimal or not, levels above those (adding clues never makes a puzzle harder,
   so 4x4 puzzles are easy). Other sizes have no SE scale: there the level is the
   technique solver's.

**A band of the SE scale.** `score=(low, high)` (9x9 only) asks for puzzles whose
Sudoku Explainer score (`rate(..., score=True)`) lies in the band, ends included.
Puzzle i is the first in-band candidate of its own stream of seeds,
`random.Random(seed_i)`, so it still depends on its seed alone. The candidates are
made and rated in rounds, all open puzzles' together (`generate_many` on the threads,
then `rate_many(..., score=True)`), aimed at the technique level the band's middle
maps to (`score_level`, at most 5). When `SCORE_CANDIDATES` candidates per asked puzzle
(pooled) do not fill the band it raises RuntimeError (the scores of generated puzzles
thin out above 9).

Uniqueness checks on 9x9 grids (3x3 boxes) run on the 9x9 engine; on other grids on
the general engine with a budget of `CHECK_NODES` search nodes: a removal whose check
runs out is not made (the puzzle stays unique), and with `minimal=True` such a puzzle
is thrown away and another drawn, so every puzzle returned as minimal is proven
minimal.

`generate_many` runs all of this in compiled code (`_generation/_generate.pyx`), a
range of puzzles per GIL-released call, fanned out over the package's thread pool
(`_generation/generate.py`). `_generation/_generate_py.py` is its pure-Python twin: the
same steps with the same random numbers, slow and plain, so tests can check that both
give the same puzzles. Every random choice comes from these private generators; the
global RNG is never touched.

**Variant rules.** `rules=` (a `Rules`, its JSON form, or names joined by commas) asks
for puzzles unique under those rules; each comes back as a `VariantPuzzle`, the pair
`(puzzle, rules)`, since the rules of jigsaw, killer and thermometer puzzles differ
from puzzle to puzzle. Besides the presets of `Rules.named` ("x", "windoku",
"disjoint", "anti-knight", "anti-king", "non-consecutive"), three names draw rules
for each puzzle: "jigsaw" (random regions), "killer" (random cages) and "thermo"
(random thermometers); a `Rules` value or JSON form is kept as it is for every
puzzle (any rule set the engine takes, cages and thermometers included). Names
combine: `rules="killer,x"`. Each puzzle of a seed is made by:

1. **A layout** (jigsaw): starting from the boxes (the rows on 5x5, 7x7, 11x11), the
   regions of two orthogonally adjacent cells are swapped, 4 * N * N times, whenever both
   regions stay connected; every region stays connected and of N cells.
2. **A random full grid under the rules**, by the variant engine: cells in random order
   get a random digit among those that leave a solution (a count to 2), until the
   digits placed leave exactly one, which is the grid. A count that needs more than
   `VARIANT_FILL_NODES` search nodes (a jigsaw layout that is hard to fill or has no
   grid at all) starts afresh with a new layout.
3. **Killer cages** (killer): cells in random order each start a cage, grown by random
   orthogonal steps to cells not yet caged holding a digit not yet in the cage, up to a
   size drawn from 1-5 (mostly 2-3); each cage's sum is that of its digits.
   **Thermometers** (thermo): about N random paths of king steps through increasing
   digits, 3 to 6 cells long, sharing no cell (they may cross cages).
4. **Givens.** A killer puzzle starts with none and gets digits of its grid, one at a
   time, where the engine finds another solution, until it is unique (most 9x9 killers
   need none or one or two). Every other puzzle starts from the full grid.
5. **Givens removed**, symmetry orbit by orbit in random order, while the puzzle stays
   unique (a count to 2 on the variant engine, budget `VARIANT_CHECK_NODES`): a minimal
   puzzle, no remaining given (orbit) can go. A puzzle where a check ran out of budget
   is drawn again, so every puzzle returned is proven minimal (up to 11x11; see below).

Variant puzzles take sizes 4 to 16, as classic ones; 5x5, 7x7, 11x11 and 13x13 have
no boxes, so only jigsaw puzzles are made there. Above 11x11 (the variant engine's
largest) the general engine counts: slower, and a removal whose check runs past the
budget keeps its givens, so such puzzles are unique but maybe not minimal.

With rules, `difficulty` is the technique level under the rules (`rate(puzzle,
rules=...)`: singles, locked candidates and subsets over every region, fish over rows
and columns, and the cage and thermometer techniques; no Sudoku Explainer band, which
is calibrated on classic puzzles, so `score` is not available with rules). Each puzzle
is the first candidate of its seed's own stream (made as above) rated at exactly that
level, as the classic generator draws candidates for a score band; after
`SCORE_CANDIDATES` candidates per puzzle without one, `RuntimeError` (levels a rule
set rarely has: killers with few givens are seldom easy, 4x4 puzzles seldom hard).
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any, TypeVar, overload

from ._base.checks import check_flag, check_seed
from ._base.grid import Geometry, default_box, geometry_for, parse_grid
from ._base.levels import LEVEL_NAMES
from ._base.options import Difficulty, ProgressOption, Symmetry
from ._base.rules import Rules, as_rules
from ._base.se_scale import LEVEL_BANDS, TOP_SCORE, score_level
from ._columns.blocks import BLOCK_SECONDS, resolve_progress
from ._generation.generate import (
    CHECK_NODES,
    FILL_NODES,
    MAX_ATTEMPTS,
    SYMMETRIES,
    generate_seeds,
    symmetry_orbits,
)
from ._generation.variants import (
    KIND_ALIASES,
    MAX_VARIANT_ATTEMPTS,
    VARIANT_CHECK_NODES,
    VARIANT_FILL_NODES,
    VariantPuzzle,
    VariantRequest,
    generate_variant_seeds,
    variant_request,
)
from ._parallel.threads import resolve_threads
from ._techniques.rating import level_within_rules
from ._variants.run import box_for
from .rating import rate_many

__all__ = [
    "CHECK_NODES",
    "DIFFICULTIES",
    "FILL_NODES",
    "MAX_ATTEMPTS",
    "MAX_GENERATED_SIZE",
    "MAX_MANY",
    "MAX_VARIANT_ATTEMPTS",
    "ROW_SEED_BITS",
    "SYMMETRIES",
    "VARIANT_CHECK_NODES",
    "VARIANT_FILL_NODES",
    "RulesArgument",
    "VariantPuzzle",
    "generate",
    "generate_many",
    "iter_generate",
    "row_seeds",
]

_Made = TypeVar("_Made")

# Difficulties a generator can aim for; "nightmare" (level 6: SE 9.0 and up, nested
# chains) is too rare among random puzzles to be found by sampling (`score=(9.0, ...)`
# asks for it, at SCORE_CANDIDATES candidates per puzzle).
DIFFICULTIES: dict[str, int] = {name: level for level, name in LEVEL_NAMES.items() if level <= 5}
# The largest grid generated: checking near-minimal 20x20 or 25x25 puzzles for
# uniqueness takes minutes each.
MAX_GENERATED_SIZE = 16
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


# What `rules=` of the generators takes: a Rules, its JSON form (a mapping or text), or
# names joined by commas (presets of `Rules.named`, and "jigsaw", "killer", "thermo").
RulesArgument = Rules | Mapping[str, Any] | str


def _variant_request(
    rules: object,
    difficulty: str | int | None,
    score: object,
    size: object,
    symmetry: str | None,
) -> VariantRequest:
    """Check a request for variant puzzles (see the module docstring)."""
    if score is not None:
        raise ValueError("score: the Sudoku Explainer scale is for classic puzzles only")
    if isinstance(size, bool) or not isinstance(size, int):
        raise TypeError(f"size must be an int, not {type(size).__name__}")
    if size < 4:
        raise ValueError(f"variant puzzles can be generated from 4x4 up, not {size}x{size}")
    kinds: list[str] = []
    if isinstance(rules, str) and not rules.lstrip().startswith("{"):
        names = []
        for name in rules.split(","):
            key = name.strip().lower()
            if key in KIND_ALIASES:
                kinds.append(KIND_ALIASES[key])
            else:
                names.append(name)
        fixed = Rules.named(*names) if names else Rules()
    else:
        fixed = as_rules(rules) or Rules()
    _level_of(difficulty)  # checked before any work
    geo = geometry_for(size, box=default_box(size) or (1, size))  # the orbits' grid
    return variant_request(fixed, kinds, size, symmetry_orbits(symmetry, geo))


# Asking for a band of the SE scale: candidates generated per asked puzzle before
# giving up (pooled over the call's puzzles), and the smallest round.
SCORE_CANDIDATES = 100
SCORE_ROUND = 8
SCORE_PER_ROUND = 16  # the most candidates per open puzzle in one round
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
    top = TOP_SCORE  # the rater certifies no score above it (a "beyond" one is a bound)
    if low > top:
        raise ValueError(
            f"score band {score[0]}-{score[1]} holds no score: scores here go up to {top / 10:.1f}"
        )
    if size != 9:
        raise ValueError("score bands are on the Sudoku Explainer scale, defined for 9x9 only")
    if difficulty is not None:
        raise ValueError("ask for a difficulty or a score band, not both")
    return low, high


def _in_band(
    seeds: list[int],
    band: tuple[int, int],
    make: Callable[[list[int], int, list[int]], list[_Made]],
    score: Callable[[list[_Made]], list[int | None]],
    first: int = 0,
    report: Callable[[int, int], object] | None = None,
    missed: str | None = None,
) -> list[_Made]:
    """One puzzle per seed whose score (tenths, None when unknown) lies in `band`.

    Puzzle i is the first in-band candidate of its own stream, `random.Random(seeds[i])`,
    so it depends on its seed alone (not on the other puzzles, `n` or the threads).
    Each round generates candidates for the puzzles still open, all in one batch
    (`make(candidate_seeds, level, puzzle_of_each)`, aimed at the technique level the
    band's middle maps to; a candidate given up on names its puzzle), and rates them in
    one batch (`score`). `first` is the caller's index of
    puzzle 0, for the error; `report(found, n)` before the first round and after each;
    `missed` what the error says was not found (default: the score band on 9x9)."""
    low, high = band
    level = min(5, score_level((low + high) / 20))
    streams = [random.Random(s) for s in seeds]
    found: list[_Made | None] = [None] * len(seeds)
    open_ = list(range(len(seeds)))
    # Candidates in all, as many per asked puzzle; a puzzle uses its candidates up to its
    # first in-band one (those a round made past it are not counted).
    budget = SCORE_CANDIDATES * len(seeds)
    generated = hits = 0
    if report is not None:
        report(0, len(seeds))
    while open_:
        if generated >= budget and missed is not None:
            raise RuntimeError(
                f"puzzle {first + open_[0]}: {missed} in {generated} generated puzzles"
            )
        if generated >= budget:
            wanted = (
                f"{low / 10:.1f} or more"
                if high == UNBOUNDED_TENTHS
                else (f"{low / 10:.1f}-{high / 10:.1f}")
            )
            raise RuntimeError(
                f"puzzle {first + open_[0]}: no 9x9 puzzle scored {wanted} in {generated} "
                "generated puzzles: scores at either end of the scale are rare; try a "
                "wider band"
            )
        # Candidates per open puzzle: enough to keep the threads busy when few are open,
        # and about what one hit has cost so far. A puzzle takes its stream's first
        # in-band candidate, so how many a round makes changes the work, never the puzzle.
        per_hit = math.ceil((generated + 1) / (hits + 1))
        per = max(1, SCORE_ROUND // len(open_), min(SCORE_PER_ROUND, per_hit))
        per = max(1, min(per, (budget - generated) // len(open_)))
        candidate_seeds = [streams[i].getrandbits(64) for i in open_ for _ in range(per)]
        puzzles = make(candidate_seeds, level, [first + i for i in open_ for _ in range(per)])
        tenths = score(puzzles)
        still_open = []
        for k, i in enumerate(open_):
            for j in range(k * per, (k + 1) * per):
                t = tenths[j]
                if t is not None and low <= t <= high:
                    found[i] = puzzles[j]
                    hits += 1
                    generated += j - k * per + 1
                    break
            else:
                still_open.append(i)
                generated += per
        open_ = still_open
        if report is not None:
            report(len(seeds) - len(open_), len(seeds))
    return found  # type: ignore[return-value]  # every slot is filled when none is open


def _geometry_for(size: object) -> Geometry:
    if isinstance(size, bool) or not isinstance(size, int):
        raise TypeError(f"size must be an int, not {type(size).__name__}")
    if size < 4:  # a 1x1 grid has no clue to remove, 2x2 and 3x3 no box shape
        raise ValueError(f"puzzles can be generated from 4x4 up, not {size}x{size}")
    if size > MAX_GENERATED_SIZE:
        raise ValueError(
            f"puzzles can be generated up to {MAX_GENERATED_SIZE}x{MAX_GENERATED_SIZE}, "
            f"not {size}x{size}: "
            "checking near-minimal 20x20 or 25x25 puzzles for uniqueness takes minutes each"
        )
    try:
        return geometry_for(size)
    except ValueError as exc:  # no default box shape (5, 7, 11, ...): generate takes none
        raise ValueError(
            f"puzzles can be generated for sizes with a default box shape, not {size}x{size}"
        ) from exc


def _prepare(
    n: int,
    difficulty: str | int | None,
    seed: int | None,
    size: int,
    symmetry: str | None,
    minimal: bool,
) -> tuple[int | None, Geometry, list[tuple[int, ...]], list[int]]:
    """Check the arguments; the level, geometry, orbits and per-puzzle seeds."""
    check_count(n)
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
    return level, geo, orbits, row_seeds(n, seed)


# Row seeds are below 2**63, so a Parquet or pandas int64 column holds them.
ROW_SEED_BITS = 63


def row_seeds(n: int, seed: int | None = None) -> list[int]:
    """The seed of each puzzle `generate_many(n, seed=seed, ...)` makes.

    Puzzle i of `generate_many(n, ..., seed=seed)` is `generate(..., seed=row_seeds(n,
    seed)[i])` with the same other arguments, so one row of a
    generated data set can be made again alone. The first row's seed is `seed` itself
    (so `generate_many(1, seed=s) == [generate(seed=s)]`), the others are draws of 63
    bits from `random.Random(seed)`; with no seed, or one of 2**63 or more, the first is
    a draw too. `generate` seeds its compiled random number generator (splitmix64, then
    xoshiro256**) with a row's seed as it is.

    Parameters
    ----------
    n : int
        How many puzzles.
    seed : int, optional
        The seed given to `generate_many`; None draws fresh randomness.

    Returns
    -------
    list of int
        `n` seeds, each in 0 .. 2**63 - 1.

    Raises
    ------
    ValueError, TypeError
        A negative or non-int `n` or `seed`.

    Examples
    --------
    >>> import sudoku_fast as sf
    >>> from sudoku_fast.generator import row_seeds
    >>> batch = sf.generate_many(3, difficulty="easy", seed=7)
    >>> seeds = row_seeds(3, seed=7)
    >>> seeds[0], sf.generate(difficulty="easy", seed=seeds[2]) == batch[2]
    (7, True)
    """
    check_count(n)
    check_seed(seed)
    return list(itertools.islice(_row_seed_stream(seed), n))


def _row_seed_stream(seed: int | None) -> Iterator[int]:
    """The row seeds of `row_seeds`, one after the other, without end."""
    master = random.Random(seed)
    if seed is not None and seed < 2**ROW_SEED_BITS:
        yield seed
    while True:
        yield master.getrandbits(ROW_SEED_BITS)


def _engine_seed(seed: int | None) -> int:
    """The 64-bit word `generate(seed=seed)` seeds the compiled generator with: the seed
    itself (a row seed of `row_seeds`), or a draw for None and seeds of 2**64 and up."""
    if seed is not None and seed < 2**64:
        return seed
    return random.Random(seed).getrandbits(64)


# The most puzzles one generate_many call makes: its list of 9x9 puzzles (a str of 81
# characters is about 130 bytes) then holds about 13 GB.
MAX_MANY = 100_000_000


def check_count(n: object) -> None:
    """Raise unless `n`, the number of puzzles asked for, is an int >= 0."""
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"n must be an int, not {type(n).__name__}")
    if n < 0:
        raise ValueError(f"n must not be negative, got {n}")


@overload
def generate_many(
    n: int,
    difficulty: Difficulty | None = None,
    seed: int | None = None,
    size: int = 9,
    symmetry: Symmetry | None = None,
    minimal: bool = True,
    *,
    threads: int | None = None,
    score: tuple[float, float] | None = None,
    progress: ProgressOption = None,
    rules: None = None,
) -> list[str]: ...


@overload
def generate_many(
    n: int,
    difficulty: Difficulty | None = None,
    seed: int | None = None,
    size: int = 9,
    symmetry: Symmetry | None = None,
    minimal: bool = True,
    *,
    threads: int | None = None,
    score: tuple[float, float] | None = None,
    progress: ProgressOption = None,
    rules: RulesArgument,
) -> list[VariantPuzzle]: ...


def generate_many(
    n: int,
    difficulty: Difficulty | None = None,
    seed: int | None = None,
    size: int = 9,
    symmetry: Symmetry | None = None,
    minimal: bool = True,
    *,
    threads: int | None = None,
    score: tuple[float, float] | None = None,
    progress: ProgressOption = None,
    rules: RulesArgument | None = None,
) -> list[str] | list[VariantPuzzle]:
    """Generate `n` puzzles, each with exactly one solution (see `generate`).

    Puzzle i depends only on the seed and i, not on `threads`: the same seed gives the
    same list, and puzzle i is `generate(seed=row_seeds(n, seed)[i])` with the same
    arguments (see `row_seeds`). The puzzles are made on
    `threads`, each by compiled code with the GIL released.

    Parameters
    ----------
    n : int
        How many puzzles, at most `MAX_MANY` (`iter_generate` streams any number).
    difficulty, seed, size, symmetry, minimal, score, rules
        As in `generate`.
    threads : int or None, default None
        None: all usable cores; 1: serial; as in `solve_many`. The puzzles do not depend
        on it.
    progress : callable, True or None, default None
        As in `solve_many`: `progress(done, total)` with the puzzles made so far (with a
        `score` band, those found in the band).

    Returns
    -------
    list of str, or list of VariantPuzzle
        `n` canonical puzzle strings, each with exactly one solution; with `rules`,
        `n` (puzzle, rules) pairs, each puzzle unique under its rules.

    Raises
    ------
    ValueError
        A bad argument (an unknown difficulty or symmetry, a size out of range, a level
        the size cannot have, `n` too large).
    TypeError
        An argument of the wrong type.
    RuntimeError
        Some puzzle's level was not met in `MAX_ATTEMPTS` removal orders (a level a
        symmetry makes rare), or a `score` band was not filled from `SCORE_CANDIDATES`
        generated puzzles per asked one.

    Examples
    --------
    >>> import sudoku_fast as sf
    >>> batch = sf.generate_many(3, difficulty="easy", seed=1, threads=2)
    >>> batch == sf.generate_many(3, difficulty="easy", seed=1, threads=1)
    True
    >>> sf.count_many(batch)
    [1, 1, 1]
    >>> killers = sf.generate_many(2, size=6, seed=3, rules="killer", threads=2)
    >>> [sf.count_solutions(p, rules=r) for p, r in killers]
    [1, 1]
    """
    check_count(n)
    if n > MAX_MANY:
        raise ValueError(
            f"n must be at most {MAX_MANY:,}: generate_many returns one list (about "
            f"{n * 130 / 1e9:,.0f} GB for {n:,}); iter_generate makes any number, a "
            "chunk at a time"
        )
    report = resolve_progress(progress, "generate_many") if progress is not None else None
    if rules is not None:
        check_seed(seed)
        check_flag(minimal, "minimal")
        request = _variant_request(rules, difficulty, score, size, symmetry)
        variant_seeds = row_seeds(n, seed)
        wanted = _level_of(difficulty)
        if wanted is not None:
            return _variants_at_level(variant_seeds, wanted, request, threads, report=report)
        if report is None:
            return generate_variant_seeds(variant_seeds, request, threads)
        return _in_blocks(
            variant_seeds,
            lambda block, start: generate_variant_seeds(block, request, threads, start),
            threads,
            report,
        )
    band = _score_band(score, size, difficulty)
    level, geo, orbits, seeds = _prepare(n, difficulty, seed, size, symmetry, minimal)
    if band is None:
        band = _level_band(level, geo)
    if band is not None:
        tools = _band_tools(geo, orbits, minimal, symmetry, threads)
        return _in_band(seeds, band, *tools, report=report)
    if report is None:
        return generate_seeds(seeds, level, geo, orbits, minimal, symmetry, threads)
    return _in_blocks(
        seeds,
        lambda block, start: generate_seeds(
            block, level, geo, orbits, minimal, symmetry, threads, start
        ),
        threads,
        report,
    )


def _in_blocks(
    seeds: list[int],
    make: Callable[[list[int], int], list[_Made]],
    threads: int | None,
    report: Callable[[int, int], object],
) -> list[_Made]:
    """`make(block_of_seeds, start)` in blocks of about a quarter of a second,
    `report(done, n)` before the first and after each (from this thread, while no
    worker runs)."""
    n = len(seeds)
    made: list[_Made] = []
    size = max(1, 2 * resolve_threads(threads))  # the first block: one or two puzzles a thread
    report(0, n)
    while len(made) < n:
        start = len(made)
        began = time.perf_counter()
        made += make(seeds[start : start + size], start)
        spent = time.perf_counter() - began
        size = max(1, int((len(made) - start) / max(spent, 1e-6) * BLOCK_SECONDS))
        report(len(made), n)
    return made


# The highest level `difficulty` asks for (trial and error).
TOP_LEVEL = max(DIFFICULTIES.values())


def _variants_at_level(
    seeds: list[int],
    level: int,
    request: VariantRequest,
    threads: int | None,
    first: int = 0,
    report: Callable[[int, int], object] | None = None,
) -> list[VariantPuzzle]:
    """One variant puzzle per seed whose technique level under its rules (`rate_many`
    with `rules=`) is `level`: the first such candidate of the seed's own stream, as
    `_in_band` draws them (so it depends on the seed alone, not on `n` or the threads)."""

    def make(candidate_seeds: list[int], _: int, puzzles: list[int]) -> list[VariantPuzzle]:
        return generate_variant_seeds(candidate_seeds, request, threads, names=puzzles)

    def rate(made: list[VariantPuzzle]) -> list[int | None]:
        # A quick screen first (the techniques up to `level` only, no solution needed),
        # then `rate_many` on those it keeps: the level asked is the rated one. At the
        # top level the screen would cost what the rating does, so the rating decides.
        kept = []
        for i, (puzzle, rules) in enumerate(made):
            geometry, values = parse_grid(puzzle, box=box_for(rules, None, None))
            if level == TOP_LEVEL or level_within_rules(values, geometry, rules, level) == level:
                kept.append(i)
        levels: list[int | None] = [None] * len(made)
        if kept:
            ratings = rate_many(
                [made[i].puzzle for i in kept], rules=[made[i].rules for i in kept], threads=threads
            )
            for i, rating in zip(kept, ratings, strict=True):
                levels[i] = rating.level
        return levels

    kinds = ", ".join(request.kinds) or "fixed-rule"
    missed = (
        f"no {request.size}x{request.size} {kinds} puzzle rated {LEVEL_NAMES[level]} "
        f"(level {level}) under its rules"
    )
    return _in_band(seeds, (level, level), make, rate, first, report, missed)


def _level_band(level: int | None, geo: Geometry) -> tuple[int, int] | None:
    """The SE band a 9x9 level stands for (`se_scale.LEVEL_BANDS`); None elsewhere (other
    sizes have no SE scale: their levels stay the technique solver's)."""
    if level is None or geo.size != 9:
        return None
    return LEVEL_BANDS[level]


def _band_tools(
    geo: Geometry,
    orbits: list[tuple[int, ...]],
    minimal: bool,
    symmetry: str | None,
    threads: int | None,
) -> tuple[
    Callable[[list[int], int, list[int]], list[str]], Callable[[list[str]], list[int | None]]
]:
    """The two steps of `_in_band`: generate from seeds at a level, rate in tenths."""

    def make(candidate_seeds: list[int], level: int, puzzles: list[int]) -> list[str]:
        return generate_seeds(
            candidate_seeds, level, geo, orbits, minimal, symmetry, threads, puzzles
        )

    def rate(puzzles: list[str]) -> list[int | None]:
        ratings = rate_many(puzzles, threads=threads, score=True)
        return [
            round(r.score * 10) if r.score is not None and r.score_complete else None
            for r in ratings
        ]

    return make, rate


@overload
def iter_generate(
    n: int,
    difficulty: Difficulty | None = None,
    seed: int | None = None,
    size: int = 9,
    symmetry: Symmetry | None = None,
    minimal: bool = True,
    *,
    threads: int | None = None,
    chunk: int = 1024,
    rules: None = None,
) -> Iterator[list[str]]: ...


@overload
def iter_generate(
    n: int,
    difficulty: Difficulty | None = None,
    seed: int | None = None,
    size: int = 9,
    symmetry: Symmetry | None = None,
    minimal: bool = True,
    *,
    threads: int | None = None,
    chunk: int = 1024,
    rules: RulesArgument,
) -> Iterator[list[VariantPuzzle]]: ...


def iter_generate(
    n: int,
    difficulty: Difficulty | None = None,
    seed: int | None = None,
    size: int = 9,
    symmetry: Symmetry | None = None,
    minimal: bool = True,
    *,
    threads: int | None = None,
    chunk: int = 1024,
    rules: RulesArgument | None = None,
) -> Iterator[list[str]] | Iterator[list[VariantPuzzle]]:
    """`generate_many`'s puzzles (the same ones, in order), in lists of up to `chunk`.

    Each list is made as soon as the previous one was taken, so a caller can write the
    puzzles out as they come and `n` may be far larger than what fits in memory.

    Parameters
    ----------
    n : int
        How many puzzles in all.
    difficulty, seed, size, symmetry, minimal, threads, rules
        As in `generate_many`.
    chunk : int, default 1024
        The most puzzles per list.

    Returns
    -------
    iterator of list of str (of VariantPuzzle with `rules`)
        Lists of puzzles; joined, they are `generate_many(n, ...)`.

    Raises
    ------
    ValueError, TypeError, RuntimeError
        As `generate_many`; a bad `chunk` is a ValueError.

    Examples
    --------
    >>> from sudoku_fast.generator import iter_generate
    >>> import sudoku_fast as sf
    >>> chunks = list(iter_generate(5, seed=2, chunk=2))
    >>> [len(c) for c in chunks]
    [2, 2, 1]
    >>> sum(chunks, []) == sf.generate_many(5, seed=2)
    True
    """
    if isinstance(chunk, bool) or not isinstance(chunk, int) or chunk < 1:
        raise ValueError(f"chunk must be an int >= 1, got {chunk!r}")
    check_count(n)
    if rules is not None:
        check_seed(seed)
        check_flag(minimal, "minimal")
        request = _variant_request(rules, difficulty, None, size, symmetry)
        return _iter_variants(n, seed, _level_of(difficulty), request, threads, chunk)
    level, geo, orbits, _ = _prepare(0, difficulty, seed, size, symmetry, minimal)
    return _iter_classic(n, seed, level, geo, orbits, minimal, symmetry, threads, chunk)


def _iter_classic(
    n: int,
    seed: int | None,
    level: int | None,
    geo: Geometry,
    orbits: list[tuple[int, ...]],
    minimal: bool,
    symmetry: str | None,
    threads: int | None,
    chunk: int,
) -> Iterator[list[str]]:
    band = _level_band(level, geo)
    stream = _row_seed_stream(seed)  # the seeds `row_seeds` gives for all n at once
    for start in range(0, n, chunk):
        seeds = list(itertools.islice(stream, min(chunk, n - start)))
        if band is not None:
            tools = _band_tools(geo, orbits, minimal, symmetry, threads)
            yield _in_band(seeds, band, *tools, first=start)
        else:
            yield generate_seeds(seeds, level, geo, orbits, minimal, symmetry, threads, start)


def _iter_variants(
    n: int,
    seed: int | None,
    level: int | None,
    request: VariantRequest,
    threads: int | None,
    chunk: int,
) -> Iterator[list[VariantPuzzle]]:
    stream = _row_seed_stream(seed)  # the seeds `row_seeds` gives for all n at once
    for start in range(0, n, chunk):
        seeds = list(itertools.islice(stream, min(chunk, n - start)))
        if level is None:
            yield generate_variant_seeds(seeds, request, threads, start)
        else:
            yield _variants_at_level(seeds, level, request, threads, first=start)


@overload
def generate(
    difficulty: Difficulty | None = None,
    seed: int | None = None,
    size: int = 9,
    symmetry: Symmetry | None = None,
    minimal: bool = True,
    *,
    score: tuple[float, float] | None = None,
    rules: None = None,
) -> str: ...


@overload
def generate(
    difficulty: Difficulty | None = None,
    seed: int | None = None,
    size: int = 9,
    symmetry: Symmetry | None = None,
    minimal: bool = True,
    *,
    score: tuple[float, float] | None = None,
    rules: RulesArgument,
) -> VariantPuzzle: ...


def generate(
    difficulty: Difficulty | None = None,
    seed: int | None = None,
    size: int = 9,
    symmetry: Symmetry | None = None,
    minimal: bool = True,
    *,
    score: tuple[float, float] | None = None,
    rules: RulesArgument | None = None,
) -> str | VariantPuzzle:
    """Generate one puzzle with exactly one solution, as a canonical string.

    Levels work at every size, but a minimal puzzle at a level its size practically
    never has (4x4: only easy; 15x15, 16x16: only extreme) raises ValueError, as does
    any level above those (adding clues never makes a puzzle harder: 4x4 is easy).

    Parameters
    ----------
    difficulty : {"easy", "medium", "hard", "expert", "extreme"} or int, optional
        The level as `rate` rates it (a name or 1-5); None: any. On 9x9 a band of the
        Sudoku Explainer score: easy up to 2.4, medium 2.5-2.9, hard 3.0-3.9, expert
        4.0-5.9, extreme 6.0-8.9 (`score_level`); other sizes, the technique solver's
        level.
    seed : int, optional
        For a reproducible puzzle; None draws fresh randomness. The global RNG is never
        touched.
    size : int, default 9
        4 to 16, boxes as square as possible (6 -> 2x3, 12 -> 3x4, 15 -> 3x5); with
        `rules` as well (5, 7, 11 and 13: jigsaw only; above 11 slower, unique but
        maybe not minimal).
    symmetry : str, optional
        Remove clues in symmetric groups: "none", "rotational" (180 degrees, also
        "rot180"), "rot90", "mirror", "flip", "diagonal", "antidiagonal", "dihedral".
    minimal : bool, default True
        No clue (no symmetric group of clues) can be removed without losing uniqueness;
        False allows a few more clues, put back until the puzzle is no harder than
        `difficulty` (no effect without one).
    score : tuple of float, optional
        `(low, high)` instead of `difficulty`: a 9x9 puzzle whose score on the Sudoku
        Explainer scale (`rate(..., score=True)`) lies in the band, e.g. (7.5, 8.0).
    rules : Rules, mapping or str, optional
        Variant rules the puzzle is unique under (see the module docstring): a `Rules`
        or its JSON form, kept for every puzzle, or names joined by commas: presets
        ("x", "windoku", "disjoint", "anti-knight", "anti-king", "non-consecutive") and
        "jigsaw", "killer", "thermo", whose regions, cages or thermometers are drawn
        for each puzzle. With `difficulty`, the level under the rules (see the module
        docstring); not with `score`.

    Returns
    -------
    str or VariantPuzzle
        The puzzle, N*N characters with `.` for empty cells; with `rules`, the pair
        `(puzzle, rules)`, the rules it is unique under (`rules.dumps()`: JSON).

    Raises
    ------
    ValueError
        An unknown difficulty or symmetry, a size out of range, a level the size cannot
        have, or `score` with another size or a difficulty; rules that do not fit the
        size (named), or admit no grid at all; `rules` with a score.
    TypeError
        An argument of the wrong type.
    RuntimeError
        No puzzle of the asked kind turned up in `MAX_ATTEMPTS` removal orders (or
        `SCORE_CANDIDATES` candidates for a score band).

    Examples
    --------
    >>> import sudoku_fast as sf
    >>> p = sf.generate(difficulty="medium", seed=1)
    >>> p == sf.generate(difficulty="medium", seed=1), sf.rate(p).name
    (True, 'medium')
    >>> r = sf.rate(sf.generate(difficulty="expert", seed=1), score=True)
    >>> r.name, 4.0 <= r.score <= 5.9
    ('expert', True)
    >>> len(sf.generate(size=6, seed=1, symmetry="rotational"))
    36
    >>> puzzle, rules = sf.generate(size=6, seed=1, rules="jigsaw")
    >>> sf.count_solutions(puzzle, rules=rules), len(rules.regions)
    (1, 36)
    """
    if rules is not None:
        return generate_many(
            1, difficulty, seed, size, symmetry, minimal, threads=1, score=score, rules=rules
        )[0]
    if score is not None:
        return generate_many(1, difficulty, seed, size, symmetry, minimal, threads=1, score=score)[
            0
        ]
    check_seed(seed)
    level, geo, orbits, _ = _prepare(0, difficulty, None, size, symmetry, minimal)
    if _level_band(level, geo) is not None:  # a 9x9 level: a band of the SE scale
        return generate_many(1, difficulty, seed, size, symmetry, minimal, threads=1)[0]
    return generate_seeds([_engine_seed(seed)], level, geo, orbits, minimal, symmetry, 1)[0]
