"""The string options of the public API as types.

One `Literal` per option, so that a user's type checker rejects a misspelt value
(`difficulty="hardd"`, `output="pandas"`) before the library's own run-time check does.
`tests/test_vocabulary.py` holds each type equal to the values the library accepts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal, TypeAlias

# `output=` of solve_many, count_many and rate_many (None: the input's natural form).
Output: TypeAlias = Literal["list", "arrow", "like"]
# `progress=` of the long batch calls: a callback given (done, total) between blocks,
# True for a bar on stderr, None (or False) for nothing.
ProgressOption: TypeAlias = Callable[[int, int], object] | bool | None
# Level names of `generate` (`difficulty=`); the levels 1-5 as ints are accepted too.
LevelName: TypeAlias = Literal["easy", "medium", "hard", "expert", "extreme"]
Difficulty: TypeAlias = LevelName | int
# `symmetry=` of generate and generate_many ("rot180" is another name of "rotational").
Symmetry: TypeAlias = Literal[
    "none",
    "rotational",
    "rot180",
    "rot90",
    "mirror",
    "flip",
    "diagonal",
    "antidiagonal",
    "dihedral",
]
# The embedded puzzle sets of `datasets.load_embedded`.
EmbeddedSet: TypeAlias = Literal[
    "norvig_easy50", "norvig_top95", "norvig_hardest", "magictour_top1465"
]
# The algorithm lab: algorithms, variable orders, value orders, implementations.
Algorithm: TypeAlias = Literal[
    "comb", "backtracking", "fc", "ac", "ac+dual", "ac+dual+np", "ac3", "dlx"
]
VariableOrder: TypeAlias = Literal["first", "minrv", "maxrv", "random"]
ValueOrder: TypeAlias = Literal["first", "most", "least", "random"]
Implementation: TypeAlias = Literal["compiled", "python"]
