"""What the CPU reports, read from the operating system: the plain twin of `_cpu.pyx`.

The compiled module asks the CPU itself (CPUID, and XGETBV for the OS's consent to AVX
state); this twin reads the flags Linux lists in /proc/cpuinfo, which the kernel clears
for features whose register state it does not save. Elsewhere it reports nothing.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["features"]

CPUINFO = Path("/proc/cpuinfo")
# The features `_cpu.features()` reports, each with the flag Linux lists for it.
FLAGS: dict[str, str] = {
    "sse3": "pni",
    "ssse3": "ssse3",
    "fma": "fma",
    "sse4_1": "sse4_1",
    "sse4_2": "sse4_2",
    "movbe": "movbe",
    "popcnt": "popcnt",
    "osxsave": "xsave",  # Linux enables XSAVE wherever the CPU has it
    "avx": "avx",
    "f16c": "f16c",
    "bmi1": "bmi1",
    "avx2": "avx2",
    "bmi2": "bmi2",
    "avx512f": "avx512f",
    "avx512dq": "avx512dq",
    "avx512cd": "avx512cd",
    "avx512bw": "avx512bw",
    "avx512vl": "avx512vl",
    "lzcnt": "abm",
}


def features() -> frozenset[str]:
    """The instruction-set features the CPU reports and the OS enables (x86 names)."""
    try:
        text = CPUINFO.read_text()
    except OSError:
        return frozenset()
    for line in text.splitlines():
        if line.startswith("flags"):
            listed = set(line.partition(":")[2].split())
            return frozenset(name for name, flag in FLAGS.items() if flag in listed)
    return frozenset()
