# cython: language_level=3
"""The random numbers of the compiled modules: xoshiro256** (Blackman and Vigna) seeded
by splitmix64 (Steele, Lea and Flood), unbiased ranges, Fisher-Yates shuffles, and
random line orders that keep bands (stacks) whole. `generator.Rng` is the pure-Python
twin, bit for bit (`_generate.draws` lets the tests compare them)."""

from libc.stdint cimport int32_t, uint64_t


cdef struct Rng:
    uint64_t s0
    uint64_t s1
    uint64_t s2
    uint64_t s3


cdef inline uint64_t splitmix64(uint64_t *x) noexcept nogil:
    """The next output of splitmix64, used to seed xoshiro."""
    x[0] += 0x9E3779B97F4A7C15ULL
    cdef uint64_t z = x[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline uint64_t rotl(uint64_t x, int k) noexcept nogil:
    return (x << k) | (x >> (64 - k))


cdef inline void rng_seed(Rng *r, uint64_t seed) noexcept nogil:
    # Four distinct splitmix64 outputs: the state is never all zero.
    cdef uint64_t x = seed
    r.s0 = splitmix64(&x)
    r.s1 = splitmix64(&x)
    r.s2 = splitmix64(&x)
    r.s3 = splitmix64(&x)


cdef inline uint64_t rng_next(Rng *r) noexcept nogil:
    """The next output of xoshiro256**."""
    cdef uint64_t result = rotl(r.s1 * 5, 7) * 9
    cdef uint64_t t = r.s1 << 17
    r.s2 ^= r.s0
    r.s3 ^= r.s1
    r.s1 ^= r.s2
    r.s0 ^= r.s3
    r.s2 ^= t
    r.s3 = rotl(r.s3, 45)
    return result


cdef inline int below(Rng *r, int k) noexcept nogil:
    """A uniform integer in 0..k-1 (k >= 1).

    Outputs under 2**64 mod k are drawn again: the rest is a whole number of copies of
    0..k-1, so the remainder has no bias.
    """
    cdef uint64_t bound = <uint64_t>k
    cdef uint64_t threshold = (0 - bound) % bound  # 2**64 mod k
    cdef uint64_t x
    while True:
        x = rng_next(r)
        if x >= threshold:
            return <int>(x % bound)


cdef inline void shuffle(Rng *r, int32_t *a, int k) noexcept nogil:
    """Fisher-Yates: every order of a[0..k-1] equally likely."""
    cdef int i, j
    cdef int32_t t
    for i in range(k - 1, 0, -1):
        j = below(r, i + 1)
        t = a[i]
        a[i] = a[j]
        a[j] = t


cdef inline void identity(int32_t *a, int k, int first) noexcept nogil:
    cdef int i
    for i in range(k):
        a[i] = first + i


cdef inline void line_order(
    Rng *rng, int32_t *out, int32_t *groups, int per_group, int count
) noexcept nogil:
    """Rows (or columns) in a random order that keeps bands (stacks) together.

    `groups` is scratch for `count` ints. The twin is `generator._line_order`.
    """
    cdef int i, pos = 0
    identity(groups, count, 0)
    shuffle(rng, groups, count)
    for i in range(count):
        identity(out + pos, per_group, groups[i] * per_group)
        shuffle(rng, out + pos, per_group)
        pos += per_group
