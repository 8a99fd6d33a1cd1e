"""Typed stubs for the CPU feature probe (`_cpu.pyx`)."""

from typing import Final

FEATURE_BITS: Final[dict[str, tuple[int, int, int]]]
XCR0_AVX: Final[int]
XCR0_AVX512: Final[int]
NEEDS_AVX_STATE: Final[tuple[str, ...]]

def features() -> frozenset[str]:
    """The instruction-set features of this CPU that the OS also enables (x86 names).

    Empty on platforms other than x86.
    """
