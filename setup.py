"""Build the compiled engine.

Wheels must run on every CPU of their platform, so the default flags are portable
(-O3, no -march). Set SUDOKU_FAST_NATIVE=1 for a local build tuned to this CPU.
Set SUDOKU_FAST_DEBUG=1 to turn Cython's bounds checks back on.
"""

import os
import sys

from Cython.Build import cythonize
from setuptools import Extension, setup

NATIVE = os.environ.get("SUDOKU_FAST_NATIVE", "") not in ("", "0")
DEBUG = os.environ.get("SUDOKU_FAST_DEBUG", "") not in ("", "0")

if sys.platform == "win32":
    compile_args = ["/O2"]
else:
    compile_args = ["-O3"]
    if NATIVE:
        compile_args.append("-march=native")

directives = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": False,
    "cdivision": True,
    "initializedcheck": DEBUG,
}

extensions = [
    Extension(
        "sudoku_fast._core",
        ["src/sudoku_fast/_core.pyx"],
        extra_compile_args=compile_args,
    ),
    Extension(
        "sudoku_fast._general",
        ["src/sudoku_fast/_general.pyx"],
        extra_compile_args=compile_args,
    ),
]

setup(ext_modules=cythonize(extensions, compiler_directives=directives))
