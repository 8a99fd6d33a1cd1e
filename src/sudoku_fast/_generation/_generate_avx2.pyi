"""Typed stubs for `_generate_avx2`: `_generate.pyx` built for AVX2/BMI2 CPUs against
`_core_avx2` (see `_engine/isa.py`).

Its interface is `_generate`'s, name for name.
"""

from sudoku_fast._generation._generate import *  # noqa: F403
