"""The Sudoku Explainer (SE) scale: its technique ladder with each step's difficulty, the
outcomes of a rating, its budget, and how a score maps to a level.

One source for both raters: the compiled one (`_techniques/_se.pyx`, whose enum numbers
the techniques as `<NAME>` below, `T_<NAME>` there) and its pure-Python twin
(`_techniques/_se_py.py`, where the ladder and its rules are described);
`tests/test_vocabulary.py` holds the compiled enum to this one.
"""

from __future__ import annotations

import math
import numbers

# Technique names, in ladder order; the index is the technique id in both twins.
TECHNIQUES: tuple[str, ...] = (
    "full house",
    "hidden single (box)",
    "hidden single (line)",
    "direct pointing",
    "direct claiming",
    "direct hidden pair",
    "naked single",
    "direct hidden triple",
    "pointing",
    "claiming",
    "naked pair",
    "x-wing",
    "hidden pair",
    "naked triple",
    "swordfish",
    "hidden triple",
    "skyscraper",
    "two-string kite",
    "turbot fish",
    "grouped strong links",
    "xy-wing",
    "xyz-wing",
    "unique rectangle",
    "naked quad",
    "jellyfish",
    "hidden quad",
    "three strong links",
    "wxyz-wing",
    "bivalue universal grave",
    "four strong links",
    "vwxyz-wing",
    "aligned pair exclusion",
    "uvwxyz-wing",
    "x-cycle",
    "y-cycle",
    "xy-cycle",
    "forcing x-chain",
    "forcing chain",
    "tuvwxyz-wing",
    "aligned triplet exclusion",
    "nishio",
    "cell forcing chains",
    "region forcing chains",
    "dynamic forcing chain",
    "dynamic forcing chain (+)",
    "dynamic forcing chain (+ forcing chains)",
    "dynamic forcing chain (+ multiple forcing chains)",
    "dynamic forcing chain (+ dynamic forcing chains)",
    "beyond",
)


# Base difficulty of each technique, in tenths.
BASE: tuple[int, ...] = (
    10, 12, 15, 17, 19, 20, 23, 25, 26, 28, 30, 32, 34, 36, 38, 40, 40, 41, 42, 43,
    42, 44, 45, 50, 52, 54, 54, 55, 56, 58, 62, 62, 66, 65, 65, 70, 66, 70, 75, 75, 75, 80, 80,
    85, 90, 95, 100, 105, 95,
)  # fmt: skip
# "beyond" is no step of SE's: it stands where none of the techniques above applies.
# Rated at the first nesting level the rater does not try (`NESTING`): 9.5 with level 1
# only, 10.0 with level 2 (SE's chains nested on multiple forcing chains, 10.0 and up),
# 10.5 with level 3 (SE's chains nested on dynamic chains, 10.5 and up), 11.0 with
# level 4 (where SE's next producer, nesting limit 1, starts): a lower bound, never a
# score (a rating that meets it is incomplete).

# The ids, named as in the compiled rater's enum (T_<NAME> in `_se.pyx`).
FULL_HOUSE = TECHNIQUES.index("full house")
HIDDEN_BOX = TECHNIQUES.index("hidden single (box)")
HIDDEN_LINE = TECHNIQUES.index("hidden single (line)")
DIRECT_POINTING = TECHNIQUES.index("direct pointing")
DIRECT_CLAIMING = TECHNIQUES.index("direct claiming")
DIRECT_HIDDEN_PAIR = TECHNIQUES.index("direct hidden pair")
NAKED_SINGLE = TECHNIQUES.index("naked single")
DIRECT_HIDDEN_TRIPLE = TECHNIQUES.index("direct hidden triple")
POINTING = TECHNIQUES.index("pointing")
CLAIMING = TECHNIQUES.index("claiming")
NAKED_PAIR = TECHNIQUES.index("naked pair")
X_WING = TECHNIQUES.index("x-wing")
HIDDEN_PAIR = TECHNIQUES.index("hidden pair")
NAKED_TRIPLE = TECHNIQUES.index("naked triple")
SWORDFISH = TECHNIQUES.index("swordfish")
HIDDEN_TRIPLE = TECHNIQUES.index("hidden triple")
SKYSCRAPER = TECHNIQUES.index("skyscraper")  # + 1: two-string kite, + 2: turbot fish
GROUPED_LINKS = TECHNIQUES.index("grouped strong links")
XY_WING = TECHNIQUES.index("xy-wing")
XYZ_WING = TECHNIQUES.index("xyz-wing")
UNIQUE_RECTANGLE = TECHNIQUES.index("unique rectangle")
NAKED_QUAD = TECHNIQUES.index("naked quad")
JELLYFISH = TECHNIQUES.index("jellyfish")
HIDDEN_QUAD = TECHNIQUES.index("hidden quad")
THREE_LINKS = TECHNIQUES.index("three strong links")
WXYZ_WING = TECHNIQUES.index("wxyz-wing")
BUG = TECHNIQUES.index("bivalue universal grave")
FOUR_LINKS = TECHNIQUES.index("four strong links")
VWXYZ_WING = TECHNIQUES.index("vwxyz-wing")
ALIGNED_PAIR = TECHNIQUES.index("aligned pair exclusion")
UVWXYZ_WING = TECHNIQUES.index("uvwxyz-wing")
X_CYCLE = TECHNIQUES.index("x-cycle")
Y_CYCLE = TECHNIQUES.index("y-cycle")
XY_CYCLE = TECHNIQUES.index("xy-cycle")
X_CHAIN = TECHNIQUES.index("forcing x-chain")
FORCING = TECHNIQUES.index("forcing chain")
TUVWXYZ_WING = TECHNIQUES.index("tuvwxyz-wing")
ALIGNED_TRIPLE = TECHNIQUES.index("aligned triplet exclusion")
NISHIO = TECHNIQUES.index("nishio")
CELL = TECHNIQUES.index("cell forcing chains")
REGION = TECHNIQUES.index("region forcing chains")
DYNAMIC = TECHNIQUES.index("dynamic forcing chain")
DYNAMIC_PLUS = TECHNIQUES.index("dynamic forcing chain (+)")
# SE's second nesting level: static forcing chains and cycles on a walk's grid.
DYNAMIC_PLUS_FC = TECHNIQUES.index("dynamic forcing chain (+ forcing chains)")
# SE's third nesting level: then static cell and region forcing chains (10.0 and up).
DYNAMIC_PLUS_MFC = TECHNIQUES.index("dynamic forcing chain (+ multiple forcing chains)")
# SE's fourth nesting level: plain dynamic forcing chains on a walk's grid (10.5 and up).
DYNAMIC_PLUS_DFC = TECHNIQUES.index("dynamic forcing chain (+ dynamic forcing chains)")
BEYOND = TECHNIQUES.index("beyond")
# A "beyond" step's tenths by the nesting levels tried: the next level's base (SE's
# level 2 starts at 9.5, level 3 at 10.0, level 4 at 10.5), a lower bound.
BEYOND_TENTHS = {
    1: BASE[BEYOND],
    2: BASE[DYNAMIC_PLUS_FC] + 5,
    3: BASE[DYNAMIC_PLUS_MFC] + 5,
    4: BASE[DYNAMIC_PLUS_DFC] + 5,
}
COUNT = len(TECHNIQUES)

# Outcomes of a rating.
SE_OK = 0
SE_BUDGET = 1  # the work budget ran out: the score is the hardest step so far
SE_STUCK = 2  # nothing applies and no solution was given to reveal a digit
SE_BEYOND = 3  # a step beyond the ladder was needed: the score is a lower bound

# The highest score the rater can certify: its hardest technique's base plus the length
# rule's addition for the longest chain it can form (every node of the grid, twice, in
# each of nine chains), a bound no real puzzle comes near.


def length_tenths(length: int) -> int:
    """SE's length rule: tenths added for a chain of `length` (complexity - 2): one more
    each time the length passes 4, 6, 8, 12, 16, 24, 32, ... (alternately x3/2, x4/3)."""
    added = 0
    ceiling = 4
    odd = False
    while length > ceiling:
        added += 1
        ceiling = ceiling * 4 // 3 if odd else ceiling * 3 // 2
        odd = not odd
    return added


TOP_SCORE = BASE[DYNAMIC_PLUS_DFC] + length_tenths(9 * 2 * 81 * 9)

# SE's nesting levels of dynamic chains the public rater tries: 1 (on the basic rules,
# 9.0 and up), 2 (on static forcing chains and cycles, 9.5 and up), 3 (on static cell
# and region forcing chains, 10.0 and up) and 4 (on SE's plain dynamic forcing chains,
# 10.5 and up).
NESTING = 4

# Walk steps per puzzle: nodes taken by the chain walks made (a walk that the static
# graph shows can conclude nothing is not made and costs nothing). One hint a chain
# step, as SE, takes up to 4x the walks of the earlier steps that applied every
# conclusion of their difficulty: the hardest level-4 puzzles of
# bench/data/serate_hardest.csv need 400-800 million.
DEFAULT_BUDGET = 1_000_000_000
MAX_BUDGET = 2**63 - 1  # the walk counts its steps in a signed 64-bit integer


def check_score_budget(budget: object) -> int:
    """`budget` if it is a valid score budget (an int from 0 to MAX_BUDGET), else raise."""
    if isinstance(budget, bool) or not isinstance(budget, int):
        raise TypeError(f"score_budget must be an int, not {type(budget).__name__}")
    if not 0 <= budget <= MAX_BUDGET:
        raise ValueError(f"score_budget must be from 0 to 2**63-1, got {budget}")
    return budget


# The levels as bands of the SE score, the one ladder of `rate`'s levels (9x9) and of
# `generate(difficulty=...)`: level k + 1 starts at SCORE_LEVEL_STARTS[k - 1] (tenths)
# and ends where the next starts. Each band is a kind of step a solver meets:
#   1 easy       up to 2.4  singles and the direct techniques (no pencil marks)
#   2 medium     2.5 - 2.9  locked candidates (pointing, claiming)
#   3 hard       3.0 - 3.9  naked / hidden pairs, naked triples, x-wing, swordfish
#   4 expert     4.0 - 5.9  hidden triples, skyscrapers and kites, wings, unique
#                           rectangles and loops, quads, jellyfish, BUG
#   5 extreme    6.0 - 8.9  aligned exclusions, cycles, forcing and dynamic chains, Nishio
#   6 nightmare  9.0 and up nested dynamic chains, and what lies beyond the ladder
SCORE_LEVEL_STARTS: tuple[int, ...] = (25, 30, 40, 60, 90)
LEVEL_BANDS: dict[int, tuple[int, int]] = {
    level: (
        10 if level == 1 else SCORE_LEVEL_STARTS[level - 2],
        TOP_SCORE if level > len(SCORE_LEVEL_STARTS) else SCORE_LEVEL_STARTS[level - 1] - 1,
    )
    for level in range(1, len(SCORE_LEVEL_STARTS) + 2)
}  # level -> (lowest, highest) score in tenths, both ends included


def score_level(score: float) -> int:
    """The level (1 easy ... 6 nightmare) that an SE score maps to.

    The levels are bands of the SE scale (`LEVEL_BANDS`), each a kind of step a solver
    meets: up to 2.4: 1 easy (singles and the direct techniques); 2.5 to 2.9: 2 medium
    (locked candidates); 3.0 to 3.9: 3 hard (pairs, naked triples, x-wing, swordfish);
    4.0 to 5.9: 4 expert (hidden triples, single-digit chains, wings, uniqueness,
    quads, jellyfish, BUG); 6.0 to 8.9: 5 extreme (aligned exclusions, cycles,
    forcing and dynamic chains, Nishio); 9.0 and above: 6 nightmare (nested chains and
    beyond). `rate` reports a 9x9 puzzle's level this way and `generate(difficulty=...)`
    aims at these bands.

    Parameters
    ----------
    score : float
        A score on the Sudoku Explainer scale (`Rating.score`); values between tenths
        are rounded half up.

    Returns
    -------
    int
        The level, 1 to 6, as `Rating.level` numbers them.

    Raises
    ------
    TypeError
        `score` is not a real number.
    ValueError
        `score` is NaN.

    Examples
    --------
    >>> import sudoku_fast as sf
    >>> sf.score_level(1.5), sf.score_level(2.6), sf.score_level(4.2), sf.score_level(9.1)
    (1, 2, 4, 6)
    """
    if isinstance(score, bool) or not isinstance(score, numbers.Real):
        raise TypeError(f"score must be a number, not {type(score).__name__}")
    if score != score:
        raise ValueError("score must be a number, not NaN")
    if not -1e6 < score < 1e6:  # far past either end of the scale (infinities too)
        return 1 if score < 0 else 1 + len(SCORE_LEVEL_STARTS)
    score = float(score)  # numpy's float32 and the like too, at their exact value
    # Scores come in tenths; anything between is rounded half up (2.45 -> 2.5), alike
    # at every boundary (`round` would go to the even tenth). A float32 9.95 is
    # 9.9499998..., below the half: 9.9.
    tenths = math.floor(score * 10 + 0.5)
    return 1 + sum(1 for start in SCORE_LEVEL_STARTS if tenths >= start)
