"""Audit: choices are revealed and resolved together (RO L345-347 "isi executa actiunea
simultan", PT L240): the order the seats submit in never changes what anyone sees next."""

from __future__ import annotations

import random

import pytest

from app.classic import Game, Options, view


@pytest.mark.parametrize(("seed", "players"), [(1, 3), (2, 5), (3, 7)])
def test_submission_order_never_changes_any_view(seed: int, players: int) -> None:
    game = Game.new(seed, Options(players=players, sides="random"))
    rng = random.Random(seed)
    compared = 0
    while not game.over:
        chosen = {seat: rng.choice(game.legal_actions(seat)) for seat in game.pending()}
        results = []
        for order in (sorted(chosen), sorted(chosen, reverse=True),
                      rng.sample(sorted(chosen), len(chosen))):
            trial = game.clone()
            for seat in order:
                trial.apply(seat, chosen[seat])
            results.append([view(trial, a) for a in [None, *range(players)]])
        assert results[0] == results[1] == results[2]
        for seat in sorted(chosen):
            game.apply(seat, chosen[seat])
        compared += 1
    assert compared >= 18
