# cython: language_level=3
"""Portable 64-bit helpers for compiled modules: compiler builtins where they are one
instruction, plain C elsewhere (a wheel must run on every CPU of its platform)."""

from libc.stdint cimport uint64_t

cdef extern from *:
    """
    #include <stdint.h>
    #if defined(_MSC_VER)
    #include <intrin.h>
    static __inline int bits_lowest_index(uint64_t x) {
        unsigned long i;
        if (_BitScanForward(&i, (unsigned long)(x & 0xFFFFFFFFu))) return (int)i;
        _BitScanForward(&i, (unsigned long)(x >> 32));
        return (int)i + 32;
    }
    static __inline int bits_highest_index(uint64_t x) {
        unsigned long i;
        if (_BitScanReverse(&i, (unsigned long)(x >> 32))) return (int)i + 32;
        _BitScanReverse(&i, (unsigned long)(x & 0xFFFFFFFFu));
        return (int)i;
    }
    #else
    #define bits_lowest_index(x) __builtin_ctzll(x)
    #define bits_highest_index(x) (63 - __builtin_clzll(x))
    #endif
    #if !defined(_MSC_VER) && (defined(__POPCNT__) || defined(__aarch64__))
    #define bits_popcount(x) __builtin_popcountll(x)
    #else
    static inline int bits_popcount(uint64_t x) {
        x = x - ((x >> 1) & 0x5555555555555555ULL);
        x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
        x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
        return (int)((x * 0x0101010101010101ULL) >> 56);
    }
    #endif
    """
    # Index of the lowest / highest set bit; x must not be 0.
    int bits_lowest_index(uint64_t x) nogil
    int bits_highest_index(uint64_t x) nogil
    int bits_popcount(uint64_t x) nogil
