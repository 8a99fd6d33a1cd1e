"""Typed stubs for `_generate_avx512`: `_generate.pyx` built for AVX-512 CPUs against
`_core_avx512` (see `_engine/isa.py`).

Its interface is `_generate`'s, name for name.
"""

from sudoku_fast._generation._generate import *  # noqa: F403
