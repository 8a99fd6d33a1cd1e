"""The random numbers every seeded choice uses, in plain Python: splitmix64 seeding a
xoshiro256** generator, unbiased ranges by rejection, Fisher-Yates shuffles, and line
orders that keep bands together.

The same generator, bit for bit, as the compiled one (`rng.pxd`, used by the compiled
generator, the random symmetries and the lab): the pure-Python twins draw exactly what
the compiled modules draw from the same seed. Every random choice takes a seed and a
private generator; the global RNG is never touched.
"""

from __future__ import annotations

__all__ = ["Rng", "line_order", "splitmix64"]

_MASK64 = (1 << 64) - 1


def splitmix64(state: int) -> tuple[int, int]:
    """The next (state, output) of splitmix64."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return state, z ^ (z >> 31)


def _rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & _MASK64


class Rng:
    """xoshiro256** seeded by splitmix64: the generator of one puzzle (or one draw)."""

    def __init__(self, seed: int) -> None:
        state = seed & _MASK64
        words = []
        for _ in range(4):
            state, word = splitmix64(state)
            words.append(word)
        self.s = words

    def next(self) -> int:
        """The next 64-bit output."""
        s = self.s
        result = (_rotl((s[1] * 5) & _MASK64, 7) * 9) & _MASK64
        t = (s[1] << 17) & _MASK64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = _rotl(s[3], 45)
        return result

    def below(self, k: int) -> int:
        """A uniform integer in 0..k-1, by rejecting the outputs under 2**64 mod k."""
        threshold = (1 << 64) % k
        while True:
            x = self.next()
            if x >= threshold:
                return x % k

    def shuffle(self, items: list[int]) -> None:
        """Fisher-Yates, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def line_order(rng: Rng, per_group: int, groups: int) -> list[int]:
    """Rows (or columns) in a random order that keeps bands (stacks) together."""
    order = list(range(groups))
    rng.shuffle(order)
    lines = []
    for group in order:
        inner = list(range(group * per_group, (group + 1) * per_group))
        rng.shuffle(inner)
        lines.extend(inner)
    return lines
