"""The legal actions a game lists are exactly the actions it accepts (RO L346-371: build,
stage or discard, the purchase split named)."""

from __future__ import annotations

import pytest

from app.classic import (
    Action,
    Build,
    BuildDiscarded,
    BuildFree,
    BuildStage,
    Discard,
    Game,
    IllegalActionError,
    MalformedActionError,
    Options,
)
from app.classic.cards import CARDS
from app.engine.rng import Rng

SPLITS = [(left, right) for left in range(9) for right in range(9)]


def _candidates(game: Game, seat: int) -> list[Action]:
    if game.phase == "discard_build":
        return [BuildDiscarded(card.id) for card in CARDS]
    ids = sorted({CARDS[c].id for c in game.hands[seat]} | {"palace", "tavern"})
    out: list[Action] = []
    for card_id in ids:
        out += [Discard(card_id), BuildFree(card_id)]
        out += [Build(card_id, left, right) for left, right in SPLITS]
        out += [BuildStage(card_id, left, right) for left, right in SPLITS]
    return out


def _agree(seed: int, players: int, turns: tuple[int, ...]) -> int:
    game = Game.new(seed, Options(players=players, sides="random"))
    rng = Rng(seed)
    checked = 0
    while not game.over:
        if game.turn in turns or game.phase != "pick":
            for seat in game.to_act():
                listed = set(game.legal_actions(seat))
                accepted = {a for a in _candidates(game, seat) if game.is_legal(seat, a)}
                assert accepted == listed, (seed, seat, accepted ^ listed)
                checked += 1
        seat = min(game.pending()) if game.pending() else game.interrupt
        actions = game.legal_actions(seat)
        game.apply(seat, actions[rng.below(len(actions))])
    return checked


def test_listed_actions_are_exactly_the_accepted_ones() -> None:
    assert _agree(1, 3, (1, 6)) + _agree(2, 4, (3,)) > 30


@pytest.mark.long
def test_listed_actions_are_exactly_the_accepted_ones_in_many_games() -> None:
    for seed in range(20):
        _agree(seed, 3 + seed % 5, (1, 3, 5, 6))


def test_seats_not_deciding_and_a_finished_game_refuse() -> None:
    game = Game.new(5, Options(players=3))
    with pytest.raises(IllegalActionError) as refused:
        game.apply(3, "discard:tavern")
    assert refused.value.code == "no_such_seat"
    with pytest.raises(MalformedActionError):
        game.apply(0, "discard:not_a_card")
    with pytest.raises(MalformedActionError):
        game.apply(0, {"type": "build", "card": "tavern", "left": -1})
    while not game.over:
        seat = min(game.pending()) if game.pending() else game.interrupt
        game.apply(seat, game.legal_actions(seat)[-1])
    with pytest.raises(IllegalActionError) as refused:
        game.apply(0, "discard:tavern")
    assert refused.value.code == "game_over" and game.legal_actions(0) == []
