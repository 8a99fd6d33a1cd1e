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
SUDOKU_FAST_WERROR=1  compiler warnings are errors (-Werror, /WX with MSVC): CI builds the
                      extensions once this way, so the build stays free of warnings.
SUDOKU_FAST_SANITIZE=thread (or address,undefined, any -fsanitize= list)
                      instrument the compiled modules for a sanitizer (GCC or Clang),
                      with debug symbols and -O1; the interpreter must preload the
                      sanitizer's runtime (see .ci/sanitize, which builds and runs it).
"""

from __future__ import annotations

import os
import re
import sys
import sysconfig

from Cython.Build import cythonize
from setuptools import Extension, setup


def env_flag(name: str) -> bool:
    """True when the environment variable is set to anything but empty or 0."""
    return os.environ.get(name, "").strip() not in ("", "0")


NATIVE = env_flag("SUDOKU_FAST_NATIVE")
DEBUG = env_flag("SUDOKU_FAST_DEBUG")
WERROR = env_flag("SUDOKU_FAST_WERROR")
SANITIZE = os.environ.get("SUDOKU_FAST_SANITIZE", "").strip()
MSVC = sys.platform == "win32"

# The compiled modules, one line each: (dotted name, free-threading compatible).
# A module may say it is free-threading compatible only if it keeps no mutable state
# shared between calls; free-threaded CPython (3.14t) then imports it without turning
# the GIL back on. The flags are checked by .ci/freethreaded (the suite with the GIL
# off, and tests/thread_stress.py), last on CPython 3.13.15t: every module passes. The
# threads of a batch hand compiled calls views made once (_engine/run.shared_buffers),
# since 3.13t counts a bytearray's buffer exports without a lock.
#   sudoku_fast._engine._core: its tables are filled once while the module is being imported
#   (under the import lock) and only read afterwards; a solve keeps its whole search
#   state on the C stack; a call writes only to the output slots of its own puzzles;
#   encode_strings and Fanout read a list their caller owns (batch.py hands Fanout a
#   copy where there is no GIL).
#   sudoku_fast._engine._textio: the same: two tables filled at import, then read only; every
#   call works on buffers its caller owns.
#   sudoku_fast._techniques._logic: per-geometry tables are immutable once built and are cached
#   under a lock; each call allocates its own solver state.
#   sudoku_fast._techniques._se: no module state beyond a constant table; each call allocates its
#   own workspace.
#   sudoku_fast._engine._general: per-geometry tables are immutable once built and are cached
#   under a lock; each solve allocates its own workspace; the stop flag is a buffer
#   owned by the batch that passes it.
#   sudoku_fast._symmetry._canon: a bit-count table filled at import, and the classes of
#   9x9 row pairs, filled once on the first full 9x9 grid under a lock and published by
#   a release store (read after an acquire load); both only read afterwards. Each call
#   allocates its own workspace and writes only the output slots of its own grids.
#   sudoku_fast._generation._generate: no module state at all; each call allocates its own
#   workspace and random generator, reads the engines' immutable tables and writes only
#   the output slots of its own puzzles.
#   sudoku_fast._variants._variant: no module state but a constant table filled at import;
#   each call allocates its own tables and search state and writes only the output
#   slots of its own puzzles.
#   sudoku_fast.lab._lab: its tables are immutable once built; each call allocates its own
#   workspace and random generator and writes only the output slots of its puzzles.
MODULES: list[tuple[str, bool]] = [
    ("sudoku_fast._engine._core", True),
    ("sudoku_fast._engine._general", True),
    ("sudoku_fast._techniques._logic", True),
    ("sudoku_fast._generation._generate", True),
    ("sudoku_fast._engine._textio", True),
    ("sudoku_fast._techniques._se", True),
    ("sudoku_fast.lab._lab", True),
    ("sudoku_fast._symmetry._canon", True),
    ("sudoku_fast._variants._variant", True),
    ("sudoku_fast._engine._cpu", True),  # no state at all: reads what the CPU reports
]

# Runtime instruction-set dispatch (sudoku_fast/isa.py picks one at import). The hot
# modules below are built once more per extra instruction set, from a copy of their
# source named <module>_<variant> (a module's name is fixed by its file name), with
# that set's feature flags added: each feature by name, never -march, so the variant
# assumes exactly the features isa.py checks for and nothing the compiler's idea of a
# CPU model adds. A variant is only imported on a CPU that reports all of its
# features, so the wheel as a whole still runs on every CPU of its platform.
# x86-64 only; arm64 builds the baseline alone (see bench/README.md for what NEON would
# give). No variants with SUDOKU_FAST_NATIVE: the baseline is already native then.
# The generator calls the 9x9 engine from C (it cimports `_core`), so it is built per
# variant too, each build against the engine of its own variant: generation then runs
# on the engine build the dispatch chose.
DISPATCHED = ["sudoku_fast._engine._core", "sudoku_fast._generation._generate"]
AVX2_FLAGS = ["-mavx2", "-mbmi", "-mbmi2", "-mpopcnt", "-mlzcnt", "-mfma", "-mf16c", "-mmovbe"]
ISA_FLAGS: dict[str, list[str]] = {
    # The x86-64-v3 level (Haswell, Zen 1 and later): AVX2, BMI1/2, POPCNT, LZCNT, FMA...
    "avx2": AVX2_FLAGS,
    # The x86-64-v4 level (Skylake-SP, Ice Lake, Sapphire Rapids, Zen 4 and later): the
    # v3 features and AVX-512 F, BW, VL, DQ, CD (every CPU with BW and VL has DQ and CD,
    # and MSVC's /arch:AVX512 assumes all five).
    "avx512": [*AVX2_FLAGS, "-mavx512f", "-mavx512bw", "-mavx512vl", "-mavx512dq", "-mavx512cd"],
}
ISA_FLAGS_MSVC: dict[str, list[str]] = {"avx2": ["/arch:AVX2"], "avx512": ["/arch:AVX512"]}
# Where the renamed copies of the dispatched sources are written (under build/).
ISA_SOURCES = os.path.join("build", "isa-src")

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
    if SANITIZE:
        # -O1 -g: reports with source lines, at a speed the test suite still runs at.
        COMPILE_ARGS += [f"-fsanitize={SANITIZE}", "-O1", "-g", "-fno-omit-frame-pointer"]
        LINK_ARGS += [f"-fsanitize={SANITIZE}"]

if WERROR:
    COMPILE_ARGS.append("/WX" if MSVC else "-Werror")


def build(
    name: str, freethreading_compatible: bool, variant: str = "", flags: list[str] | None = None
) -> Extension:
    """The Cython-translated extension of one module, whose source is src/<name>.pyx.

    With a `variant`, the module <name>_<variant> built from a copy of that source (and
    of its .pxd) with the extra compile `flags`.
    """
    source = os.path.join("src", *name.split(".")) + ".pyx"
    include_path = ["src"]
    if variant:
        source = variant_source(name, variant)
        include_path.insert(0, ISA_SOURCES)  # its own .pxd first, then the package's
        name = f"{name}_{variant}"
    extension = Extension(
        name,
        [source],
        extra_compile_args=COMPILE_ARGS + (flags or []),
        extra_link_args=LINK_ARGS,
    )
    directives = {**DIRECTIVES, "freethreading_compatible": freethreading_compatible}
    # Generated C goes under build/ (kept out of the sdist and the source tree); one
    # folder per mode, so switching DEBUG never reuses C generated for the other mode.
    build_dir = os.path.join("build", "cython-debug" if DEBUG else "cython")
    (translated,) = cythonize(
        [extension],
        compiler_directives=directives,
        build_dir=build_dir,
        include_path=include_path,
    )
    return translated


def variant_source(name: str, variant: str) -> str:
    """Copy src/<name>.pyx and .pxd to build/isa-src as <name>_<variant>; the .pyx path.

    In the copy, a cimport of another dispatched module names that module's build for
    the same variant (`from pkg cimport _core` becomes `from pkg cimport _core_avx2 as
    _core`). A file is rewritten only when its text changed, so Cython's own up-to-date
    check still skips unchanged modules.
    """
    *package, module = name.split(".")
    folder = os.path.join(ISA_SOURCES, *package)
    os.makedirs(folder, exist_ok=True)
    for suffix in (".pyx", ".pxd"):
        original = os.path.join("src", *package, module + suffix)
        if not os.path.exists(original):
            continue
        with open(original, encoding="utf-8") as f:
            text = variant_cimports(f.read(), variant)
        copy = os.path.join(folder, f"{module}_{variant}{suffix}")
        if os.path.exists(copy):
            with open(copy, encoding="utf-8") as f:
                if f.read() == text:
                    continue
        with open(copy, "w", encoding="utf-8") as f:
            f.write(text)
    return os.path.join(folder, f"{module}_{variant}.pyx")


def variant_cimports(text: str, variant: str) -> str:
    """`text` with its cimports of dispatched modules pointing at their `variant` builds."""
    for dispatched in DISPATCHED:
        package, _, module = dispatched.rpartition(".")
        cimport = re.compile(rf"^(from {re.escape(package)} cimport .*?)\b{module}\b(?! as)", re.M)
        text = cimport.sub(rf"\g<1>{module}_{variant} as {module}", text)
    return text


def isa_variants() -> dict[str, list[str]]:
    """The extra instruction-set variants to build for the target platform, with flags."""
    if NATIVE or not sysconfig.get_platform().lower().endswith(("x86_64", "amd64")):
        return {}
    return ISA_FLAGS_MSVC if MSVC else ISA_FLAGS


extensions = [build(name, ft) for name, ft in MODULES]
for variant, flags in isa_variants().items():
    extensions += [build(name, ft, variant, flags) for name, ft in MODULES if name in DISPATCHED]
setup(ext_modules=extensions)
