"""The generator's shuffle is the plain Fisher-Yates shuffle drawn with ``below``: its
written-out steps change no game (stored games replay through it)."""

from __future__ import annotations

import pytest

from app.engine.rng import Rng, splitmix64, splitmix64_halves

pytestmark = pytest.mark.compiled

_MASK32 = (1 << 32) - 1


def _by_below(rng: Rng, items: list[int]) -> None:
    for i in range(len(items) - 1, 0, -1):
        j = rng.below(i + 1)
        items[i], items[j] = items[j], items[i]


def _same_shuffle(rng: Rng, length: int) -> None:
    twin = rng.clone()
    mine, theirs = list(range(length)), list(range(length))
    rng.shuffle(mine)
    _by_below(twin, theirs)
    assert mine == theirs and rng.state == twin.state


@pytest.mark.parametrize("length", [0, 1, 2, 3, 7, 10, 12, 20, 23, 64])
def test_shuffle_is_fisher_yates_by_below(length: int) -> None:
    for seed in range(300):
        _same_shuffle(Rng(seed), length)


def _about_to_draw(value: int) -> Rng:
    """A generator whose next 32-bit output is ``value``: the output depends on the second
    word alone, ``rotl(s1 * 5, 7) * 9``, which is solved for ``s1``."""
    rng = Rng(1)
    rotated = value * pow(9, -1, 1 << 32) & _MASK32
    times_five = (rotated >> 7 | rotated << 25) & _MASK32
    rng.s1 = times_five * pow(5, -1, 1 << 32) & _MASK32
    assert rng.clone().next_u32() == value
    return rng


@pytest.mark.parametrize("value", [_MASK32, _MASK32 - 1, _MASK32 - 4, (1 << 32) - (1 << 16),
                                   (1 << 32) - (1 << 16) - 1])
@pytest.mark.parametrize("length", [3, 5, 6, 7, 10])
def test_shuffle_draws_again_past_the_last_complete_block(value: int, length: int) -> None:
    """Draws near 2**32, some in the incomplete last block of ``length`` values (drawn
    again), some just outside it."""
    _same_shuffle(_about_to_draw(value), length)


@pytest.mark.parametrize("seed", [0, 1, 2**32 - 1, 2**32, 2**63, 2**64 - 1,
                                  0x9E3779B97F4A7C15, 0x0123456789ABCDEF])
def test_seeding_on_halves_is_seeding_on_python_integers(seed: int) -> None:
    """The compiled engine seeds with SplitMix64 on 32-bit halves, the interpreted one on
    Python's integers: the same steps (checked in both builds by ``make pytest-compiled``;
    the golden games of test_determinism check each build's seeding end to end)."""
    state = seed
    high, low = seed >> 32, seed & _MASK32
    for _ in range(3):
        state, output = splitmix64(state)
        high, low, out_high, out_low = splitmix64_halves(high, low)
        assert (high << 32 | low, out_high << 32 | out_low) == (state, output)
