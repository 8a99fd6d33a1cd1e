"""Runtime instruction-set dispatch: which build of the hot engine this process runs.

The 9x9 engine (`_engine._core`) ships more than once in a wheel on x86-64: the baseline
build (SSE2, runs on every x86-64 CPU), `_core_avx2`, the same source compiled for the
x86-64-v3 features (AVX2, BMI1/2, POPCNT, LZCNT, FMA, F16C, MOVBE), and `_core_avx512`,
compiled for x86-64-v4 (those and AVX-512 F, BW, VL, DQ, CD). The generator
(`_generation._generate`), which calls the engine from C, ships the same builds, each
made against the engine of its own variant; `load` imports a dispatched module's build.
At import the most capable build that this installation holds and whose features the
CPU reports (CPUID, with the OS's consent for the AVX and AVX-512 register state: see
`_cpu.pyx`) is chosen; arm64 and other platforms have the baseline only. All builds
give the same answers and figures.

SUDOKU_FAST_ISA overrides the choice: `baseline`, `avx2`, `avx512`, or `auto` (the
default). A variant that is unknown, not built, or not supported by this CPU makes the
import fail with a message saying why, rather than die later on an illegal instruction.
`engine_info()` says which build runs and why.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import platform
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING

from . import _cpu

__all__ = [
    "DISPATCHED",
    "ISA_ENV",
    "VARIANTS",
    "EngineInfo",
    "Variant",
    "built_variants",
    "choose",
    "core",
    "engine_info",
    "load",
    "module_name",
    "runnable",
    "variant_module",
]

ISA_ENV = "SUDOKU_FAST_ISA"
AUTO = "auto"
# The modules built once per variant, below the package (the baseline's name).
DISPATCHED = ("_engine._core", "_generation._generate")
PACKAGE = __name__.partition(".")[0]


@dataclass(frozen=True)
class Variant:
    """One build of the dispatched modules: its name, module suffix and CPU needs."""

    name: str
    suffix: str  # "_core" + suffix is its engine module; "" for the baseline
    features: frozenset[str]  # what the CPU must report to run it


_AVX2 = frozenset({"avx", "avx2", "bmi1", "bmi2", "popcnt", "lzcnt", "fma", "f16c", "movbe"})
_AVX512 = _AVX2 | {"avx512f", "avx512bw", "avx512vl", "avx512dq", "avx512cd"}
# Most capable first: the first one built and supported is chosen.
VARIANTS = (
    Variant("avx512", "_avx512", _AVX512),
    Variant("avx2", "_avx2", _AVX2),
    Variant("baseline", "", frozenset()),
)
BY_NAME = {v.name: v for v in VARIANTS}


@dataclass(frozen=True)
class EngineInfo:
    """Which build of the engine runs, and what else this installation and CPU offer.

    `variant`: the build in use (`baseline`, `avx2`, `avx512`); `modules`: its compiled
    modules (the 9x9 engine, and the generator that calls it; every one the process
    loads is of this build);
    `built`: the variants this installation holds; `supported`: those this CPU can run;
    `requested`: the SUDOKU_FAST_ISA value it was chosen by (None: chosen
    automatically); `cpu_features`: the instruction-set features the CPU reports;
    `machine`: the platform's machine name.

    Made by `engine_info`; a frozen record.

    Parameters
    ----------
    variant : str
        The build in use: "baseline" or "avx2".
    modules : tuple of str
        The compiled modules of that build.
    built : tuple of str
        The builds this installation holds.
    supported : tuple of str
        The builds this CPU can run.
    requested : str or None
        The SUDOKU_FAST_ISA value the build was chosen by (None: automatic).
    cpu_features : tuple of str
        The instruction-set features the CPU reports.
    machine : str
        The platform's machine name (`platform.machine()`).

    Examples
    --------
    >>> import sudoku_fast as sf
    >>> info = sf.engine_info()
    >>> info.variant in info.supported and info.variant in info.built
    True
    """

    variant: str
    modules: tuple[str, ...]
    built: tuple[str, ...]
    supported: tuple[str, ...]
    requested: str | None
    cpu_features: tuple[str, ...]
    machine: str


def module_name(variant: Variant, base: str = "_engine._core") -> str:
    """The full name of `base`'s build for `variant` (`base` one of DISPATCHED)."""
    return f"{PACKAGE}.{base}{variant.suffix}"


def built_variants() -> tuple[str, ...]:
    """The variants whose every dispatched module this installation holds (no import)."""
    return tuple(
        v.name
        for v in VARIANTS
        if all(importlib.util.find_spec(module_name(v, base)) is not None for base in DISPATCHED)
    )


def choose(requested: str | None, built: tuple[str, ...], cpu: frozenset[str]) -> Variant:
    """The variant to run: `requested` (None or "auto": the best one built and supported).

    Raises ValueError for an unknown name and RuntimeError for a variant that is not
    built or that the CPU cannot run (the error names the missing features).
    """
    wanted = (requested or "").strip().lower()
    if wanted in ("", AUTO):
        for variant in VARIANTS:
            if variant.name in built and variant.features <= cpu:
                return variant
        raise RuntimeError("no build of the engine in this installation runs on this CPU")
    if wanted not in BY_NAME:
        known = ", ".join([*BY_NAME, AUTO])
        raise ValueError(f"{ISA_ENV}={requested!r}: not a variant (one of {known})")
    variant = BY_NAME[wanted]
    if variant.name not in built:
        raise RuntimeError(
            f"{ISA_ENV}={requested!r}: this installation has no {variant.name} build "
            f"(it has: {', '.join(built) or 'none'})"
        )
    missing = variant.features - cpu
    if missing:
        raise RuntimeError(
            f"{ISA_ENV}={requested!r}: this CPU lacks {', '.join(sorted(missing))}, "
            f"which the {variant.name} build needs"
        )
    return variant


def runnable() -> tuple[str, ...]:
    """The variants this installation holds and this CPU can run, most capable first."""
    cpu = _cpu.features()
    return tuple(name for name in built_variants() if BY_NAME[name].features <= cpu)


def variant_module(name: str) -> ModuleType:
    """The 9x9 engine module of the named variant, for comparing builds in one process.

    Raises like `choose` when it is unknown, not built or not supported by this CPU.
    """
    variant = choose(name, built_variants(), _cpu.features())
    return importlib.import_module(module_name(variant))


def load(base: str) -> ModuleType:
    """The build of the dispatched module `base` (one of DISPATCHED) this process runs."""
    if base not in DISPATCHED:
        raise ValueError(f"{base!r} is not built per variant (one of {', '.join(DISPATCHED)})")
    return importlib.import_module(module_name(_SELECTED, base))


_REQUESTED = os.environ.get(ISA_ENV)
_SELECTED = choose(_REQUESTED, built_variants(), _cpu.features())

if TYPE_CHECKING:
    from . import _core as core
else:
    core = load("_engine._core")


def engine_info() -> EngineInfo:
    """Which build of the engine this process runs (chosen at import), and the others.

    The build is chosen once, when the package is imported: the most capable one this
    CPU runs, or the one the SUDOKU_FAST_ISA environment variable names.

    Returns
    -------
    EngineInfo
        The build in use, the builds installed and supported, and the CPU's features.
        (An impossible SUDOKU_FAST_ISA fails at import, not here.)

    Examples
    --------
    >>> import sudoku_fast
    >>> sudoku_fast.engine_info().variant in ("baseline", "avx2", "avx512")
    True
    """
    requested = (_REQUESTED or "").strip()
    return EngineInfo(
        variant=_SELECTED.name,
        modules=tuple(module_name(_SELECTED, base) for base in DISPATCHED),
        built=built_variants(),
        supported=runnable(),
        requested=None if requested.lower() in ("", AUTO) else requested,
        cpu_features=tuple(sorted(_cpu.features())),
        machine=platform.machine(),
    )
