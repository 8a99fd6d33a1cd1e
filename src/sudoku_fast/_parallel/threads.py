"""The thread policy: what a `threads` argument means, the same for every batch function.

`None`: all usable cores, capped by SUDOKU_FAST_NUM_THREADS; `-k`: all cores + 1 - k;
`k >= 1`: k threads (at most MAX_THREADS); `0`: an error.
"""

from __future__ import annotations

import os
import re

from .cores import usable_cores

__all__ = ["MAX_THREADS", "THREADS_ENV", "resolve_threads"]

THREADS_ENV = "SUDOKU_FAST_NUM_THREADS"
MAX_THREADS = 1024  # the most threads a batch starts, whatever `threads` asks for


def _all_cores() -> int:
    """The thread count "all cores" means: usable cores, capped by SUDOKU_FAST_NUM_THREADS."""
    cores = usable_cores()
    cap = _env_cap()
    return cores if cap is None else min(cores, cap)


def _env_cap() -> int | None:
    """The cap SUDOKU_FAST_NUM_THREADS sets on "all cores", None when it is not set."""
    cap = os.environ.get(THREADS_ENV, "").strip()
    if not cap:
        return None
    # ASCII digits only (int() would take "1_0" and other scripts' digits too).
    limit = int(cap) if re.fullmatch(r"[0-9]+", cap) else 0
    if limit < 1:  # 0 or less would be no cap at all, which is not what was meant
        raise ValueError(f"{THREADS_ENV} must be a whole number of threads >= 1, got {cap!r}")
    return limit


def resolve_threads(threads: int | None, most: int | None = None) -> int:
    """Turn the user's `threads` argument into a thread count.

    `None`: all usable cores; `-k`: all cores + 1 - k (so -1 is all cores), at least 1;
    in both, "all cores" is capped by the SUDOKU_FAST_NUM_THREADS environment variable.
    `k >= 1`: k threads, at most MAX_THREADS (1 runs serially in the caller); `0`:
    ValueError. `most` caps the count for a call that can use no more threads (a small
    batch); the argument and the variable are checked all the same.
    """
    if most is not None and most <= 1:
        # One thread whatever was asked: the cores need not be counted (a system call).
        if threads is None or (type(threads) is int and threads < 0):
            _env_cap()  # a bad value raises, as when the cores are counted
        elif type(threads) is not int or threads == 0:
            _resolve(threads)  # a bad argument raises, as for a call of any size
        return 1
    count = _resolve(threads)
    return count if most is None else min(count, most)


def _resolve(threads: int | None) -> int:
    """`resolve_threads` for a call of any size."""
    if threads is None:
        return _all_cores()
    if isinstance(threads, bool) or not isinstance(threads, int):
        raise TypeError(f"threads must be an int or None, not {type(threads).__name__}")
    if threads == 0:
        raise ValueError("threads must not be 0 (use None or -1 for all cores, 1 for serial)")
    if threads < 0:
        return max(1, _all_cores() + 1 + threads)
    # More threads than this only add start-up cost and contention: thousands of OS
    # threads made a batch hundreds of times slower.
    return min(threads, MAX_THREADS)
