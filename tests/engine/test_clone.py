"""``Game.clone()``: an independent copy, cheap, the same in both builds. A clone played
on gives the same game as the original played the same way; playing one leaves the other
as it was (nothing mutable is shared), the hidden parts and the log included."""

from __future__ import annotations

import random

import pytest

from app.engine import Game, Options, view
from app.engine.scenario import new_game

pytestmark = pytest.mark.compiled


def _random_action(game: Game, rng: random.Random) -> str:
    return str(rng.choice(game.legal_actions()))


@pytest.mark.parametrize("seed", range(12))
def test_a_clone_plays_as_the_original_and_apart_from_it(seed: int) -> None:
    rng = random.Random(seed)
    game = Game.new(seed, Options())
    while not game.is_over:
        if rng.random() < 0.15:
            twin = game.clone()
            assert twin.state_hash() == game.state_hash()
            assert [str(a) for a in twin.log] == [str(a) for a in game.log]
            assert view(twin, 0) == view(game, 0) and view(twin, None) == view(game, None)
            before = game.state_hash()
            # The clone played to its end leaves the original untouched...
            moves = []
            while not twin.is_over:
                moves.append(_random_action(twin, rng))
                twin.apply(moves[-1])
            assert game.state_hash() == before
            assert len(game.log) < len(twin.log)
            # ...and the original, played the same way, ends as the clone did.
            replayed = game.clone()
            for move in moves:
                replayed.apply(move)
            assert replayed.state_hash() == twin.state_hash()
            assert replayed.outcome() == twin.outcome()
            assert game.state_hash() == before
        game.apply(_random_action(game, rng))
    # A finished game's clone is finished too: nothing more to play.
    ended = game.clone()
    assert ended.is_over and ended.legal_actions() == [] and ended.to_act is None


def test_a_clone_of_a_clone_and_a_take_back() -> None:
    game = Game.new(5, Options(first_player=0))
    for _ in range(10):
        game.apply(game.legal_actions()[0])
    twin = game.clone().clone()
    seat = game.to_act
    assert seat is not None
    game.apply(game.legal_actions()[-1])
    assert twin.state_hash() != game.state_hash()
    # The clone's own history: what it may take back is its own.
    assert twin.can_take_back(seat) == Game.replay(5, Options(first_player=0),
                                                    twin.played).can_take_back(seat)


def test_a_position_arranged_by_hand_clones_apart() -> None:
    game = new_game(age=2)
    twin = game.clone()
    twin.state.decks[3].pop()
    twin.state.draft_rounds.append([])
    twin.state.players[0].cards.append(0)
    assert game.state_hash() != twin.state_hash()
    assert len(game.state.decks[3]) == 20
