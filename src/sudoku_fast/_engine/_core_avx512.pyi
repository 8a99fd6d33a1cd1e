"""Typed stubs for `_core_avx512`: `_core.pyx` built for AVX-512 CPUs (see isa.py).

Its interface is `_core`'s, name for name.
"""

from sudoku_fast._engine._core import *  # noqa: F403
from sudoku_fast._engine._core import __pyx_capi__ as __pyx_capi__
