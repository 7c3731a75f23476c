"""The deterministic random generator kept inside the game state.

xoshiro128** (Blackman and Vigna): four 32-bit words of state. Defined by integer arithmetic
alone, so a seed gives the same sequence on every machine and Python version (unlike
``random.Random``, whose shuffle and randrange have changed between releases). The four
words are seeded from the game seed with SplitMix64, as the authors recommend.

Every intermediate value of the compiled path stays below 2**44: compiled with mypyc, all
of it is machine integers (``i64``, a plain ``int`` when not compiled). Interpreted, the
seeding runs on Python's integers (:func:`splitmix64`), fewer operations than on halves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, TypeVar

if TYPE_CHECKING:
    from mypy_extensions import i64

_MASK32: Final = 0xFFFFFFFF
_MASK64: Final = (1 << 64) - 1
_SPAN: Final = 1 << 32
_SURE_UP_TO: Final = 1 << 16
_SURE: Final = _SPAN - _SURE_UP_TO
"""Below this, a draw is in a complete block of n values for any n up to ``_SURE_UP_TO``
(the last incomplete block is shorter than n)."""

T = TypeVar("T")


# SplitMix64's constants as 32-bit halves: compiled, its 64-bit arithmetic modulo 2**64 is
# done on halves in machine integers (Python's big integers would allocate at every step).
_GOLDEN: Final = (0x9E3779B9, 0x7F4A7C15)
_MIX_1: Final = (0xBF58476D, 0x1CE4E5B9)
_MIX_2: Final = (0x94D049BB, 0x133111EB)
_LOW16: Final = 0xFFFF
COMPILED: Final = not __file__.endswith(".py")
"""Whether the engine runs compiled by mypyc: what costs less differs, and a few hot paths
take the cheaper way for each."""


def _low_product(x: i64, y: i64) -> i64:
    """``x * y`` modulo 2**32, for 32-bit ``x`` and ``y``."""
    return ((x & _LOW16) * y + (((x >> 16) * y & _LOW16) << 16)) & _MASK32


def _product(ah: i64, al: i64, bh: i64, bl: i64) -> tuple[i64, i64]:
    """``a * b`` modulo 2**64, ``a`` and ``b`` (and the result) as 32-bit halves."""
    low0: i64 = (al & _LOW16) * bl
    low1: i64 = (al >> 16) * bl
    lows: i64 = (low0 & _MASK32) + ((low1 & _LOW16) << 16)
    high: i64 = (low0 >> 32) + (low1 >> 16) + (lows >> 32) + _low_product(ah, bl) \
        + _low_product(bh, al)
    return high & _MASK32, lows & _MASK32


def splitmix64(x: int) -> tuple[int, int]:
    """One SplitMix64 step on the state ``x`` in Python's integers: the next state and the
    output. What :func:`splitmix64_halves` does on halves; interpreted, this costs less."""
    x = x + 0x9E3779B97F4A7C15 & _MASK64
    z = (x ^ x >> 30) * 0xBF58476D1CE4E5B9 & _MASK64
    z = (z ^ z >> 27) * 0x94D049BB133111EB & _MASK64
    return x, z ^ z >> 31


def splitmix64_halves(xh: i64, xl: i64) -> tuple[i64, i64, i64, i64]:
    """One SplitMix64 step on the state ``xh:xl``: the next state and the output, as
    32-bit halves."""
    golden_high, golden_low = _GOLDEN
    xl += golden_low
    xh = (xh + golden_high + (xl >> 32)) & _MASK32
    xl &= _MASK32
    zh: i64 = xh ^ xh >> 30
    zl: i64 = xl ^ (xl >> 30 | xh << 2 & _MASK32)
    zh, zl = _product(zh, zl, _MIX_1[0], _MIX_1[1])
    zl ^= zl >> 27 | zh << 5 & _MASK32
    zh ^= zh >> 27
    zh, zl = _product(zh, zl, _MIX_2[0], _MIX_2[1])
    zl ^= zl >> 31 | zh << 1 & _MASK32
    zh ^= zh >> 31
    return xh, xl, zh, zl


class Rng:
    """xoshiro128**; :attr:`state` may be read for hashing and saving."""

    __slots__ = ("s0", "s1", "s2", "s3")

    def __init__(self, seed: int, same_as: Rng | None = None) -> None:
        """Seeded from ``seed``, or at the point ``same_as`` is at (``seed`` unused)."""
        self.s0: i64
        self.s1: i64
        self.s2: i64
        self.s3: i64
        if same_as is not None:
            self.s0, self.s1, self.s2, self.s3 = same_as.s0, same_as.s1, same_as.s2, same_as.s3
            return
        state = seed & _MASK64
        if COMPILED:
            xh, xl, self.s1, self.s0 = splitmix64_halves(state >> 32, state & _MASK32)
            _, _, self.s3, self.s2 = splitmix64_halves(xh, xl)
        else:
            state, first = splitmix64(state)
            _, second = splitmix64(state)
            self.s1, self.s0 = first >> 32, first & _MASK32
            self.s3, self.s2 = second >> 32, second & _MASK32
        if not (self.s0 | self.s1 | self.s2 | self.s3):  # the one state it must avoid
            self.s0 = 1

    @property
    def state(self) -> tuple[int, int, int, int]:
        return (self.s0, self.s1, self.s2, self.s3)

    def clone(self) -> Rng:
        """An independent generator at the same point of the same sequence."""
        return Rng(0, self)

    def next_u32(self) -> int:
        s0, s1, s2, s3 = self.s0, self.s1, self.s2, self.s3
        x: i64 = s1 * 5 & _MASK32
        result: i64 = x * 1152 + (x >> 25) * 9 & _MASK32  # rotl(x, 7) * 9 (see shuffle)
        t: i64 = s1 << 9 & _MASK32
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = (s3 << 11) + (s3 >> 21) & _MASK32
        self.s0, self.s1, self.s2, self.s3 = s0, s1, s2, s3
        return result

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)``, 0 < n < 2**32: draws falling in the incomplete
        last block of n values are drawn again, so every result is equally likely."""
        if not 0 < n < _SPAN:
            raise ValueError("n must be in 1..2**32-1")
        while True:
            r: i64 = self.next_u32()
            # Below _SURE a draw is in a complete block of any n up to _SURE_UP_TO: the
            # exact bound is worked out only above it.
            if (r < _SURE and n <= _SURE_UP_TO) or r < _SPAN - _SPAN % n:
                return r % n

    def shuffle(self, items: list[T]) -> None:
        """Fisher-Yates shuffle in place: for i from the last index down to 1, swap item i
        with item ``below(i + 1)``. The generator's steps are written out here (the same
        as :meth:`next_u32` and :meth:`below`): setting up a game shuffles about 110 times.
        A draw is checked against the last incomplete block of ``i + 1`` values only when
        it comes near 2**32 (it falls in it once in tens of thousands of games)."""
        s0, s1, s2, s3 = self.s0, self.s1, self.s2, self.s3
        # No draw below this falls in an incomplete last block of n <= 2**16 values.
        sure: i64 = _SURE if len(items) <= _SURE_UP_TO else 0
        mask: i64 = _MASK32
        i: i64
        for i in range(len(items) - 1, 0, -1):
            x: i64 = s1 * 5 & mask
            # rotl(x, 7) * 9, and rotl(s3, 11) below, with + for |: the two parts share no
            # bit, CPython specialises an int addition and not an or, and (x >> 25) * 9 is a
            # small int's product.
            r: i64 = x * 1152 + (x >> 25) * 9 & mask
            t: i64 = s1 << 9 & mask
            s2 ^= s0
            s3 ^= s1
            s1 ^= s2
            s0 ^= s3
            s2 ^= t
            s3 = (s3 << 11) + (s3 >> 21) & mask
            n: i64 = i + 1
            if r >= sure and r >= _SPAN - _SPAN % n:  # drawn again, as below() does
                self.s0, self.s1, self.s2, self.s3 = s0, s1, s2, s3
                j: i64 = self.below(n)
                s0, s1, s2, s3 = self.s0, self.s1, self.s2, self.s3
            else:
                j = r % n
            items[i], items[j] = items[j], items[i]
        self.s0, self.s1, self.s2, self.s3 = s0, s1, s2, s3
