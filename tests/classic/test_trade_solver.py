"""The trade solver against a plain enumeration, on random positions (RO L210-286)."""

from __future__ import annotations

import pytest

from app.classic import Game, Options
from app.classic.cards import CARDS
from app.classic.trade import Market, exhaustive_splits, pareto, splits
from app.engine.rng import Rng

_MASKS = [0b11, 0b101, 0b1001, 0b110, 0b1010, 0b1100]  # the brown either/or cards
_CHOICES = [0b1111, 0b1110000]  # Caravansery / Alexandria raw, Forum / Alexandria goods


def random_market(rng: Rng) -> Market:
    def units(most: int) -> tuple[int, ...]:
        return tuple(rng.below(most + 1) if rng.below(3) else 0 for _ in range(7))

    need = [0] * 7
    for _ in range(1 + rng.below(6)):
        need[rng.below(7)] += 1
    own = tuple([_MASKS[rng.below(6)] for _ in range(rng.below(3))]
                + [_CHOICES[rng.below(2)] for _ in range(rng.below(2))])
    return Market(tuple(need), own, units(2), tuple(_MASKS[rng.below(6)]
                                                   for _ in range(rng.below(3))),
                  units(2), tuple(_MASKS[rng.below(6)] for _ in range(rng.below(3))),
                  (1 + rng.below(2), 1 + rng.below(2), 1 + rng.below(2), 1 + rng.below(2)))


def _agree(count: int, seed: int) -> None:
    rng = Rng(seed)
    for _ in range(count):
        market = random_market(rng)
        assert splits(market) == exhaustive_splits(market), market


def test_the_solver_equals_an_exhaustive_search() -> None:
    _agree(300, 1)


@pytest.mark.long
def test_the_solver_equals_an_exhaustive_search_on_ten_thousand_positions() -> None:
    _agree(10_000, 2)


def test_pareto_keeps_only_splits_nothing_beats() -> None:
    assert pareto([(2, 2), (0, 4), (1, 4), (4, 0), (2, 3)]) == ((0, 4), (2, 2), (4, 0))


def _game_positions_agree(seeds: range) -> int:
    """In random games, every price the game gives (memoised by city keys) equals the
    exhaustive search on the same cities."""
    checked = 0
    for seed in seeds:
        game = Game.new(seed, Options(players=3 + seed % 5, sides="random"))
        rng = Rng(seed)
        while not game.over:
            if game.phase == "pick" and game.turn in (1, 4):
                for seat in range(game.players):
                    city = game.cities[seat]
                    costs = [CARDS[c].cost for c in game.hands[seat]]
                    if city.built < len(city.stages):
                        costs.append(city.stages[city.built].cost)
                    for cost in costs:
                        expected = exhaustive_splits(game.market(seat, cost))
                        assert sorted(game.purchase_splits(seat, cost)) == sorted(expected)
                        checked += 1
            seat = min(game.pending()) if game.pending() else game.interrupt
            actions = game.legal_actions(seat)
            game.play(seat, actions[rng.below(len(actions))])
    return checked


def test_the_game_prices_equal_an_exhaustive_search() -> None:
    assert _game_positions_agree(range(6)) > 500


@pytest.mark.long
def test_the_game_prices_equal_an_exhaustive_search_in_many_games() -> None:
    assert _game_positions_agree(range(6, 200)) > 10_000
