"""legal_actions() is exactly what apply() accepts; every refusal changes nothing.

Positions come from hypothesis: a seed, options, and a number of random moves. At each
position every action that exists in the game is tried.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.engine import (
    Game,
    IllegalActionError,
    Options,
    card_options,
)
from app.engine.errors import ILLEGAL_CODES, OPTION_REASONS
from app.engine.state import DecisionKind
from tests.factories import EVERY_ACTION

pytestmark = pytest.mark.compiled


def position(seed: int, first_game: bool, moves: int) -> Game:
    game = Game.new(seed, Options(wonder_selection="first_game" if first_game else "draft"))
    chooser = random.Random(seed)
    for _ in range(moves):
        if game.is_over:
            break
        game.apply(chooser.choice(game.legal_actions()))
    return game


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**64 - 1), first_game=st.booleans(), moves=st.integers(0, 90))
def test_apply_accepts_exactly_the_legal_actions(seed: int, first_game: bool,
                                                 moves: int) -> None:
    game = position(seed, first_game, moves)
    legal = game.legal_actions()
    assert len(set(legal)) == len(legal), "an action is listed twice"
    assert bool(legal) != game.is_over
    before = game.state_hash()
    for action in EVERY_ACTION:
        if action in legal:
            continue
        try:
            game.apply(action)
        except IllegalActionError as error:
            # Every refusal has a registered code, and the figures that code may carry.
            assert set(error.params) <= set(ILLEGAL_CODES[error.code]), error
            continue
        raise AssertionError(f"{action} was accepted but is not in legal_actions()")
    assert game.state_hash() == before, "a refused action changed the game"
    for action in legal:
        trial = Game.replay(seed, game.options, game.log)
        trial.apply(action)  # raises if a listed action is refused
        assert trial.log[-1] == action


@given(seed=st.integers(0, 2**64 - 1), moves=st.integers(1, 90))
@settings(max_examples=40, deadline=None)
def test_a_move_out_of_turn_is_refused_and_changes_nothing(seed: int, moves: int) -> None:
    game = position(seed, False, moves)
    if game.is_over:
        return
    other = 1 - game.to_act
    before = game.state_hash()
    for action in game.legal_actions():
        try:
            game.apply(action, seat=other)
        except IllegalActionError as error:
            assert error.code == "not_your_turn"
        else:
            raise AssertionError("an action out of turn was accepted")
    assert game.state_hash() == before


def assert_refused_as_shown(game: Game, notation: str, option: dict[str, Any]) -> None:
    """A refused option's reason is the code (and figures) the engine refuses it with."""
    before = game.state_hash()
    with pytest.raises(IllegalActionError) as refused:
        game.apply(notation)
    assert game.state_hash() == before
    error = refused.value
    assert option["reason"] == error.code, (notation, option, error)
    figures = {name: option[name] for name in OPTION_REASONS[error.code]}
    assert figures == {name: error.params[name] for name in figures}, (notation, option, error)


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), moves=st.integers(6, 90))
def test_card_options_offer_exactly_the_legal_card_actions(seed: int, moves: int) -> None:
    """What the player is shown as possible is what the rules allow; the rest says why."""
    game = position(seed, False, moves)
    options = card_options(game)
    if game.decision is None or game.decision.kind != DecisionKind.PLAY_CARD:
        assert options == []
        return
    shown: set[str] = set()
    for option in options:
        card = option["card"]
        if option["build"]["allowed"]:
            shown.add(f"build:{card}")
        else:
            assert_refused_as_shown(game, f"build:{card}", option["build"])
        shown.add(f"discard:{card}")
        for wonder in option["wonders"]:
            if wonder["allowed"]:
                shown.add(f"wonder:{wonder['wonder']}:{card}")
            else:
                assert_refused_as_shown(game, f"wonder:{wonder['wonder']}:{card}", wonder)
    assert shown == {str(action) for action in game.legal_actions()}
    assert all(o["build"]["payment"]["total"] >= 0 for o in options)
