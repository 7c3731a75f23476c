"""The deterministic random generator kept inside the game state.

xoshiro128** (Blackman and Vigna): four 32-bit words of state. Defined by integer arithmetic
alone, so a seed gives the same sequence on every machine and Python version (unlike
``random.Random``, whose shuffle and randrange have changed between releases). The four
words are seeded from the game seed with SplitMix64, as the authors recommend.

Every intermediate value stays below 2**36, and the multiplications by 5 and 9 are written
as shifts and adds: compiled with mypyc, that keeps all of it in machine integers.
"""

from __future__ import annotations

from typing import Final, TypeVar

_MASK32: Final = 0xFFFFFFFF
_MASK64: Final = (1 << 64) - 1
_SPAN: Final = 1 << 32

T = TypeVar("T")


def _splitmix64(x: int) -> tuple[int, int]:
    """One SplitMix64 step: (next state, output)."""
    x = (x + 0x9E3779B97F4A7C15) & _MASK64
    z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return x, z ^ (z >> 31)


class Rng:
    """xoshiro128**; :attr:`state` may be read for hashing and saving."""

    __slots__ = ("s0", "s1", "s2", "s3")

    def __init__(self, seed: int) -> None:
        x, a = _splitmix64(seed & _MASK64)
        _, b = _splitmix64(x)
        self.s0, self.s1 = a & _MASK32, a >> 32
        self.s2, self.s3 = b & _MASK32, b >> 32
        if not (self.s0 | self.s1 | self.s2 | self.s3):  # the one state it must avoid
            self.s0 = 1

    @property
    def state(self) -> tuple[int, int, int, int]:
        return (self.s0, self.s1, self.s2, self.s3)

    def clone(self) -> Rng:
        """An independent generator at the same point of the same sequence."""
        twin = Rng(0)
        twin.s0, twin.s1, twin.s2, twin.s3 = self.s0, self.s1, self.s2, self.s3
        return twin

    def next_u32(self) -> int:
        s0, s1, s2, s3 = self.s0, self.s1, self.s2, self.s3
        x = ((s1 << 2) + s1) & _MASK32  # s1 * 5
        x = ((x << 7) | (x >> 25)) & _MASK32
        result = ((x << 3) + x) & _MASK32  # * 9
        t = (s1 << 9) & _MASK32
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = ((s3 << 11) | (s3 >> 21)) & _MASK32
        self.s0, self.s1, self.s2, self.s3 = s0, s1, s2, s3
        return result

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)``, 0 < n < 2**32: draws falling in the incomplete
        last block of n values are drawn again, so every result is equally likely."""
        if not 0 < n < _SPAN:
            raise ValueError("n must be in 1..2**32-1")
        limit = _SPAN - _SPAN % n
        while True:
            r = self.next_u32()
            if r < limit:
                return r % n

    def shuffle(self, items: list[T]) -> None:
        """Fisher-Yates shuffle in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
