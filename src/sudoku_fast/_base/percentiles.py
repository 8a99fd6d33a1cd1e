"""Percentiles by the nearest-rank rule, the one definition the statistics and the lab's
tables share: the p-th percentile of n values is the value of rank ceil(p/100 * n) in
ascending order (rank 1 for p = 0), always one of the values; the 100th is the maximum.
"""

from __future__ import annotations

import math
from fractions import Fraction

__all__ = ["percentile_rank"]


def percentile_rank(total: int, percent: float) -> int:
    """The rank (1..total) of the `percent`-th percentile of `total` values.

    Exact decimal arithmetic: 99.9% of 1000 values is rank 999, not 1000.
    """
    if total <= 0:
        raise ValueError("no values")
    if not 0 <= percent <= 100:
        raise ValueError(f"percentile must be within 0..100, got {percent}")
    return max(1, math.ceil(Fraction(str(percent)) * total / 100))
