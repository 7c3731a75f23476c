"""Audit: the engine against an independent oracle over real random games.

The oracle (``audit_oracle``) is written from ``cards.csv``/``wonders.csv`` and the
rulebooks only. For every decision of every seat it computes the legal actions with
every non-dominated affordable payment (RO L210-259 trading, L967-969 either/or units
bought whatever the owner uses, L991-1018 trading posts and Marketplace, RO L691, L1039-1041,
L1055-1056 unbuyable resources, RO L288-302 chains, RO L358-359 no duplicate), and after
every step the coins of every seat (payments to each neighbour, discards, "when built"
coins: RO L1030-1032, L1048-1049, L1063-1090), the discard pile, hands passing (RO
L316-322), the conflicts at each age end (RO L347-364) and the final scores (RO L390-487,
L1094-1148), Olympia B's copy and the science wildcards maximised.
"""

from __future__ import annotations

import pytest

from .audit_driver import Audit, play_game

GAMES = [(seed, players, ("A", "B", "random")[seed % 3])
         for seed in range(12) for players in range(3, 8)]


@pytest.mark.parametrize(("seed", "players", "sides"), GAMES)
def test_engine_agrees_with_the_oracle_over_a_random_game(seed: int, players: int,
                                                          sides: str) -> None:
    audit = Audit()
    play_game(seed, players, sides, audit)
    assert audit.positions >= 18 * players
    assert audit.findings == []


@pytest.mark.long
def test_engine_agrees_with_the_oracle_over_many_random_games() -> None:
    audit = Audit()
    for seed in range(1000, 1200):
        for players in range(3, 8):
            play_game(seed, players, ("A", "B", "random")[seed % 3], audit)
    assert audit.games == 1000
    assert audit.findings == []
