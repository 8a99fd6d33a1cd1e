"""The technique ladder of `rate` and `hint`: techniques in the order they are tried, with
their levels, and the names of the levels.

One source for both sides: the compiled technique solver (`_techniques/_logic.pyx`,
whose enum in `_logic.pxd` numbers the techniques) and its pure-Python twin
(`_techniques/_logic_py.py`) both follow this order; `tests/test_vocabulary.py`
holds the compiled enum to it. What each level means for a puzzle is told in
`sudoku_fast.rating`.
"""

from __future__ import annotations

LEVEL_NAMES = {1: "easy", 2: "medium", 3: "hard", 4: "expert", 5: "extreme", 6: "nightmare"}
GUESS = "guess"  # the pseudo-technique counted when no technique applies
BIG_FISH = "big fish"  # 5 lines and more, up to N/2: grids of 10x10 and larger
FISH_NAMES = {2: "x-wing", 3: "swordfish", 4: "jellyfish"}  # by number of lines

# Easiest first: the solver always uses the first technique that makes progress.
LADDER: tuple[tuple[str, int], ...] = (
    ("full house", 1),
    ("hidden single", 1),
    ("naked single", 1),
    ("pointing", 2),
    ("claiming", 2),
    ("naked pair", 3),
    ("hidden pair", 3),
    ("naked triple", 3),
    ("hidden triple", 3),
    ("x-wing", 3),
    ("swordfish", 4),
    ("xy-wing", 4),
    ("xyz-wing", 4),
    ("simple colouring", 4),
    ("xy-chain", 4),
    ("naked quad", 4),
    ("hidden quad", 4),
    ("jellyfish", 4),
    (BIG_FISH, 4),
    ("trial and error", 5),
)
TECHNIQUE_NAMES: tuple[str, ...] = tuple(name for name, _ in LADDER)
# Techniques of killer cages and thermometers, each with its level and the technique of
# the ladder it comes after; the technique solver's twin inserts them when a puzzle has
# such rules (the compiled solver, which rates classic puzzles, has no slot for them).
RULE_TECHNIQUES: tuple[tuple[str, int, str], ...] = (
    ("cage combination", 2, "claiming"),
    ("thermometer", 2, "cage combination"),
    ("45 rule", 3, "thermometer"),
)
TECHNIQUE_LEVEL: dict[str, int] = (
    dict(LADDER) | {name: level for name, level, _ in RULE_TECHNIQUES} | {GUESS: 6}
)
# Technique names by the compiled solver's index: the ladder in order, then GUESS (the
# count slots of `_logic.rate_range`).
SLOT_NAMES: tuple[str, ...] = (*TECHNIQUE_NAMES, GUESS)
SLOT_LEVELS: tuple[int, ...] = tuple(TECHNIQUE_LEVEL[name] for name in SLOT_NAMES)
LEVEL_NAME_BY_LEVEL: tuple[str, ...] = tuple(
    LEVEL_NAMES.get(level, "") for level in range(max(LEVEL_NAMES) + 1)
)

# The ids, named as in the compiled enum (`_logic.pxd`).
FULL_HOUSE = TECHNIQUE_NAMES.index("full house")
HIDDEN_SINGLE = TECHNIQUE_NAMES.index("hidden single")
NAKED_SINGLE = TECHNIQUE_NAMES.index("naked single")
POINTING = TECHNIQUE_NAMES.index("pointing")
CLAIMING = TECHNIQUE_NAMES.index("claiming")
NAKED_PAIR = TECHNIQUE_NAMES.index("naked pair")
HIDDEN_PAIR = TECHNIQUE_NAMES.index("hidden pair")
NAKED_TRIPLE = TECHNIQUE_NAMES.index("naked triple")
HIDDEN_TRIPLE = TECHNIQUE_NAMES.index("hidden triple")
X_WING = TECHNIQUE_NAMES.index("x-wing")
SWORDFISH = TECHNIQUE_NAMES.index("swordfish")
XY_WING = TECHNIQUE_NAMES.index("xy-wing")
XYZ_WING = TECHNIQUE_NAMES.index("xyz-wing")
SIMPLE_COLOURING = TECHNIQUE_NAMES.index("simple colouring")
XY_CHAIN = TECHNIQUE_NAMES.index("xy-chain")
NAKED_QUAD = TECHNIQUE_NAMES.index("naked quad")
HIDDEN_QUAD = TECHNIQUE_NAMES.index("hidden quad")
JELLYFISH = TECHNIQUE_NAMES.index("jellyfish")
BIG_FISH_ID = TECHNIQUE_NAMES.index(BIG_FISH)
TRIAL_AND_ERROR = TECHNIQUE_NAMES.index("trial and error")
GUESS_ID = len(TECHNIQUE_NAMES)  # the slot after the ladder
