"""A tiny deterministic random generator kept inside the game state.

SplitMix64 is defined by integer arithmetic alone, so a seed gives the same sequence on every
machine and every Python version (unlike ``random.Random``, whose shuffle and randrange have
changed between releases). Its whole state is one 64-bit integer, cheap to copy and to hash.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import TypeVar

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15

T = TypeVar("T")


class SplitMix64:
    """SplitMix64 generator; ``state`` is the full state and may be saved and restored."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next_u64(self) -> int:
        self.state = (self.state + _GOLDEN) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)``, without bias (Lemire's multiply-and-reject)."""
        if n <= 0:
            raise ValueError("n must be positive")
        product = self.next_u64() * n
        if product & _MASK < n:  # rare: only then can the result be biased
            threshold = ((1 << 64) - n) % n
            while product & _MASK < threshold:
                product = self.next_u64() * n
        return product >> 64

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates shuffle in place; each index drawn as by :meth:`below`."""
        # next_u64 and below, inlined: setting up a game is mostly shuffling.
        state = self.state
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            while True:
                state = (state + _GOLDEN) & _MASK
                z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
                product = (z ^ (z >> 31)) * n
                if product & _MASK >= n or product & _MASK >= ((1 << 64) - n) % n:
                    break
            j = product >> 64
            items[i], items[j] = items[j], items[i]
        self.state = state
