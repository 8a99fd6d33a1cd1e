"""Build the compiled extensions: which modules, with which flags. Metadata is in pyproject.toml.

Portable by default: wheels must run on every CPU of their platform, so the compiler
optimises hard (-O3, or /O2 with MSVC) but assumes nothing beyond the platform baseline
(x86-64: SSE2; arm64: ARMv8.0). Two switches, for local builds only:

SUDOKU_FAST_NATIVE=1  tune for this machine's CPU (-march=native: AVX2, BMI, POPCNT...).
                      The result may die with "illegal instruction" on another CPU, so
                      never set it when building wheels. MSVC has no equivalent; ignored.
SUDOKU_FAST_DEBUG=1   no optimisation, debug symbols, C asserts on, and Cython's bounds
                      and initialisation checks for the directives a module does not
                      set in its own `# cython:` header (the header wins, by Cython's
                      rules).
"""

from __future__ import annotations

import os
import sys

from Cython.Build import cythonize
from setuptools import Extension, setup


def env_flag(name: str) -> bool:
    """True when the environment variable is set to anything but empty or 0."""
    return os.environ.get(name, "").strip() not in ("", "0")


NATIVE = env_flag("SUDOKU_FAST_NATIVE")
DEBUG = env_flag("SUDOKU_FAST_DEBUG")
MSVC = sys.platform == "win32"

# The compiled modules, one line each: (dotted name, free-threading compatible).
# A module may say it is free-threading compatible only if it keeps no mutable state
# shared between calls; free-threaded CPython (3.14t) then imports it without turning
# the GIL back on.
#   sudoku_fast._core: its tables are filled once while the module is being imported
#   (under the import lock) and only read afterwards; a solve keeps its whole search
#   state on the C stack; a call writes only to the output slots of its own puzzles;
#   encode_strings reads a list its caller owns.
#   sudoku_fast._textio: the same: two tables filled at import, then read only; every
#   call works on buffers its caller owns.
#   sudoku_fast._logic: per-geometry tables are immutable once built and are cached
#   under a lock; each call allocates its own solver state.
#   sudoku_fast._se: no module state beyond a constant table; each call allocates its
#   own workspace.
#   sudoku_fast._general: per-geometry tables are immutable once built and are cached
#   under a lock; each solve allocates its own workspace; the stop flag is a buffer
#   owned by the batch that passes it.
#   sudoku_fast._canon: no module state at all; each call allocates its own workspace
#   and writes only the output slots of its own grids.
#   sudoku_fast._generate: no module state at all; each call allocates its own
#   workspace and random generator, reads the engines' immutable tables and writes only
#   the output slots of its own puzzles.
MODULES: list[tuple[str, bool]] = [
    ("sudoku_fast._core", True),
    ("sudoku_fast._general", True),
    ("sudoku_fast._logic", True),
    ("sudoku_fast._generate", True),
    ("sudoku_fast._textio", True),
    ("sudoku_fast._se", True),
    ("sudoku_fast._canon", True),
]

# Cython directives for every module. A module's `# cython:` header line overrides them.
DIRECTIVES: dict[str, object] = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "initializedcheck": DEBUG,
    "wraparound": False,
    "cdivision": True,
    # No `__test__` dict of docstrings in the module: nothing runs doctests on compiled
    # code, and the stubs would have to declare it.
    "autotestdict": False,
}

if MSVC:
    COMPILE_ARGS = ["/Od", "/Zi", "/UNDEBUG"] if DEBUG else ["/O2"]
    LINK_ARGS = ["/DEBUG"] if DEBUG else []
    if NATIVE:
        print("SUDOKU_FAST_NATIVE: MSVC has no -march=native; building portable", file=sys.stderr)
else:
    # -g0 overrides the -g many Pythons put in CFLAGS: debug info would make the wheel
    # several times larger for no speed.
    COMPILE_ARGS = ["-O0", "-g", "-UNDEBUG"] if DEBUG else ["-O3", "-g0"]
    LINK_ARGS = []
    if NATIVE:
        COMPILE_ARGS.append("-march=native")


def build(name: str, freethreading_compatible: bool) -> Extension:
    """The Cython-translated extension of one module, whose source is src/<name>.pyx."""
    source = os.path.join("src", *name.split(".")) + ".pyx"
    extension = Extension(
        name, [source], extra_compile_args=COMPILE_ARGS, extra_link_args=LINK_ARGS
    )
    directives = {**DIRECTIVES, "freethreading_compatible": freethreading_compatible}
    # Generated C goes under build/ (kept out of the sdist and the source tree); one
    # folder per mode, so switching DEBUG never reuses C generated for the other mode.
    build_dir = os.path.join("build", "cython-debug" if DEBUG else "cython")
    (translated,) = cythonize([extension], compiler_directives=directives, build_dir=build_dir)
    return translated


setup(ext_modules=[build(name, ft) for name, ft in MODULES])
