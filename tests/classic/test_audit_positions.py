"""Audit: prices on positions set up at random (rich cities: many either/or cards, Forum,
Caravansery, Alexandria's stages, trading posts, Marketplace, Olympia B1, chains, few or
many coins), every seat's legal actions compared with the oracle's (RO L210-259,
L967-969, L991-1018, L1039-1041, L1055-1056, L288-302, L358-359)."""

from __future__ import annotations

import random

import pytest

from app.classic import Game
from app.classic.scenario import coins, hand, put, stages, table

from .audit_driver import Audit, compare_legal
from .audit_oracle import CARD_ROWS, STAGES

BOARDS = sorted({board for board, _ in STAGES})
BUILDINGS = sorted({row["id"] for row in CARD_ROWS})


def random_position(seed: int) -> Game:
    rng = random.Random(seed)
    players = rng.randint(3, 7)
    boards = rng.sample(BOARDS, players)
    game = table(*boards, sides=rng.choice("AB"), seed=seed)
    for seat in range(players):
        stage_count = len(STAGES[(boards[seat], game.cities[seat].side)])
        stages(game, seat, rng.randint(0, stage_count - 1) if rng.random() < 0.7 else 0)
        put(game, seat, *rng.sample(BUILDINGS, rng.randint(0, 12)))
        coins(game, seat, rng.choice([0, 1, 2, 3, 4, 5, 6, 8, 10, 14, 30]))
        hand(game, seat, *rng.sample(BUILDINGS, 7))
    return game


def test_prices_agree_on_random_positions() -> None:
    audit = Audit()
    for seed in range(300):
        compare_legal(random_position(seed), audit, f"position {seed}")
    assert audit.positions > 1000
    assert audit.findings == []


@pytest.mark.long
def test_prices_agree_on_many_random_positions() -> None:
    audit = Audit()
    for seed in range(300, 5300):
        compare_legal(random_position(seed), audit, f"position {seed}")
    assert audit.findings == []
