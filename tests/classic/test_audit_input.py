"""Audit: bad input through the public API. Each must be refused with a clear code (or
as malformed) and change nothing: the state hash is the same after the refusal."""

from __future__ import annotations

from typing import Any

import pytest

from app.classic import EngineError, Game, IllegalActionError, MalformedActionError, Options, view
from app.classic.scenario import hand, put, stages, table


def _position() -> Any:
    game = table("olympia", "gizah", "rhodos")
    put(game, 2, "stone_pit")               # Gizah (left) and Rhodos (right) sell stone
    hand(game, 0, "baths", "altar")
    return game


@pytest.mark.parametrize(("action", "code"), [
    ("build:palace", "not_in_hand"),
    ("build:baths:1:1", "wrong_split"),     # 2 coins, but not a way to buy one stone
    ("build:baths:3:0", "wrong_split"),     # overpaying
    ("build:baths:0:0", "wrong_split"),     # underpaying
    ("build:baths:2", "wrong_split"),       # half a split
    ("halikarnassos:altar", "wrong_decision"),
    ("olympia:baths", "no_free_build"),
    ("wonder:altar:0:0", "cannot_produce"),
    ("discard:palace", "not_in_hand"),
])
def test_an_illegal_choice_is_refused_with_its_code_and_changes_nothing(action: str,
                                                                        code: str) -> None:
    game = _position()
    before = game.state_hash()
    with pytest.raises(IllegalActionError) as refused:
        game.apply(0, action)
    assert refused.value.code == code
    assert game.state_hash() == before and 0 in game.pending()


@pytest.mark.parametrize("action", [
    "build:nonsense", "frobnicate:baths", "", None, 5, "build:baths:-1:3",
    {"type": "build", "card": "baths", "left": "2", "right": 0},
    {"type": "build", "card": "baths", "left": True, "right": 0},
    {"type": "teleport", "card": "baths"},
])
def test_what_is_not_an_action_is_refused_as_malformed(action: Any) -> None:
    game = _position()
    before = game.state_hash()
    with pytest.raises(MalformedActionError):
        game.apply(0, action)
    assert game.state_hash() == before


@pytest.mark.parametrize("seat", [-1, 3, 99, "0", None])
def test_a_seat_that_does_not_exist_is_refused(seat: Any) -> None:
    game = _position()
    before = game.state_hash()
    with pytest.raises(IllegalActionError) as refused:
        game.apply(seat, "discard:baths")
    assert refused.value.code == "no_such_seat"
    assert game.state_hash() == before


def test_a_seat_may_change_its_choice_until_the_step_closes_and_only_the_last_counts() -> None:
    game = _position()
    game.apply(0, "discard:baths")
    game.apply(0, "build:altar")
    assert view(game, 0)["you"]["choice"] == "build:altar:0:0"
    for seat in (1, 2):
        game.apply(seat, game.legal_actions(seat)[-1])
    city = view(game, None)["seats"][0]
    assert city["cards"] == ["altar"] and city["coins"] == 3


def test_a_choice_for_a_closed_step_is_stale() -> None:
    game = _position()
    for seat in range(3):
        game.apply(seat, game.legal_actions(seat)[-1], step=1)
    before = game.state_hash()
    with pytest.raises(IllegalActionError) as refused:
        game.apply(0, game.legal_actions(0)[0], step=1)
    assert refused.value.code == "stale_step"
    assert game.state_hash() == before


def test_a_seat_not_owed_the_one_seat_decision_is_refused() -> None:
    game = table("babylon", "gizah", "rhodos", sides="B")
    stages(game, 0, 2)
    while game.turn < 6:
        for seat in list(game.pending()):
            game.apply(seat, game.legal_actions(seat)[-1])
    for seat in range(3):
        game.apply(seat, game.legal_actions(seat)[-1])
    assert game.pending() == {0: "seventh"}
    last = view(game, 1)["seats"][1]
    before = game.state_hash()
    with pytest.raises(IllegalActionError) as refused:
        game.apply(1, "discard:lumber_yard")
    assert refused.value.code == "not_your_turn" and last["seat"] == 1
    assert game.state_hash() == before


def test_the_game_refuses_every_action_once_over() -> None:
    game = Game.new(4, Options(players=3))
    while not game.over:
        for seat in list(game.pending()):
            game.apply(seat, game.legal_actions(seat)[-1])
    before = game.state_hash()
    with pytest.raises(EngineError) as refused:
        game.apply(0, "discard:baths")
    assert getattr(refused.value, "code", None) == "game_over"
    assert game.state_hash() == before


def test_an_illegal_change_of_mind_keeps_the_earlier_choice() -> None:
    game = _position()
    game.apply(0, "build:altar")
    before = game.state_hash()
    with pytest.raises(IllegalActionError) as refused:
        game.apply(0, "build:baths:1:1")
    assert refused.value.code == "wrong_split"
    assert game.state_hash() == before
    assert view(game, 0)["you"]["choice"] == "build:altar:0:0"


def test_a_pick_while_halikarnassos_decides_is_refused() -> None:
    game = table("halikarnassos", "gizah", "rhodos")
    stages(game, 0, 1)
    put(game, 0, "foundry", "ore_vein")
    for seat in range(3):
        game.apply(seat, f"discard:{view(game, seat)['you']['hand'][0]}")
    game.apply(0, f"wonder:{view(game, 0)['you']['hand'][0]}")
    for seat in (1, 2):
        game.apply(seat, f"discard:{view(game, seat)['you']['hand'][0]}")
    assert game.pending() == {0: "discard_build"}
    before = game.state_hash()
    for seat, action, code in ((0, f"discard:{view(game, 0)['you']['hand'][0]}",
                                "wrong_decision"),
                               (1, f"discard:{view(game, 1)['you']['hand'][0]}",
                                "not_your_turn"),
                               (0, "halikarnassos:palace", "not_in_discard")):
        with pytest.raises(IllegalActionError) as refused:
            game.apply(seat, action)
        assert refused.value.code == code
        assert game.state_hash() == before
