"""A small, portable, serializable random generator.

The standard library's :class:`random.Random` keeps 625 words of state and its
derived methods have changed between Python versions. A match must replay bit for
bit from its seed on any machine and any Python, and its generator state travels
inside every snapshot, so Senet uses SplitMix64: one 64-bit integer of state and a
fully specified output function.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import TypeVar

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15

T = TypeVar("T")


class Rng:
    """SplitMix64 generator whose whole state is one integer (``state``)."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next_u64(self) -> int:
        """Return the next 64-bit output and advance the state."""
        self.state = (self.state + _GOLDEN) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Return a uniform integer in ``[0, n)`` without modulo bias."""
        if n <= 0:
            raise ValueError("n must be positive")
        # Rejection sampling: discard the top sliver that would bias small values.
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next_u64()
            if x < limit:
                return x % n

    def chance(self) -> bool:
        """Return a fair coin flip."""
        return bool(self.next_u64() >> 63)

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle ``items`` in place (Fisher-Yates)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def choice(self, items: list[T]) -> T:
        """Return one element of a non-empty list, uniformly."""
        return items[self.below(len(items))]
