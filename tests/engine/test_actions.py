"""Actions: notation and JSON round trips for every action type, malformed input, and
Game.apply with a notation string or a JSON dict."""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.engine import (
    WONDERS,
    Action,
    BuildCard,
    BuildFromDiscard,
    BuildWonder,
    ChooseProgressToken,
    ChooseStarter,
    DestroyCard,
    DiscardCard,
    EngineError,
    Forfeit,
    Game,
    IllegalActionError,
    MalformedActionError,
    Options,
    PickWonder,
    TakeBack,
    from_json,
    parse,
)
from app.engine.actions import ACTION_TYPES, OUT_OF_TURN
from app.engine.events import CardDiscarded
from app.engine.scenario import new_game
from app.engine.state import DecisionKind
from tests.factories import EVERY_ACTION, OUT_OF_TURN_ACTIONS

pytestmark = pytest.mark.compiled


EXAMPLES: list[tuple[Action, str, dict[str, Any]]] = [
    (PickWonder("the_pyramids"), "pick:the_pyramids",
     {"type": "pick_wonder", "wonder": "the_pyramids"}),
    (BuildCard("lumber_yard"), "build:lumber_yard", {"type": "build", "card": "lumber_yard"}),
    (DiscardCard("tavern"), "discard:tavern", {"type": "discard", "card": "tavern"}),
    (BuildWonder("the_pyramids", "tavern"), "wonder:the_pyramids:tavern",
     {"type": "build_wonder", "wonder": "the_pyramids", "card": "tavern"}),
    (ChooseProgressToken("law"), "progress:law", {"type": "choose_progress", "token": "law"}),
    (DestroyCard("press"), "destroy:press", {"type": "destroy", "card": "press"}),
    (BuildFromDiscard("walls"), "mausoleum:walls",
     {"type": "build_from_discard", "card": "walls"}),
    (ChooseStarter(1), "starter:1", {"type": "choose_starter", "seat": 1}),
    (ChooseStarter(0), "starter:0", {"type": "choose_starter", "seat": 0}),
]


# ---------------------------------------------------------------- round trips

@pytest.mark.parametrize(("action", "notation", "data"), EXAMPLES,
                         ids=[e[1] for e in EXAMPLES])
def test_documented_forms(action: Action, notation: str, data: dict[str, Any]) -> None:
    assert str(action) == notation
    assert parse(notation) == action
    assert action.to_json() == data
    assert from_json(data) == action


def test_every_action_round_trips() -> None:
    assert {type(a) for a in EVERY_ACTION} == {
        PickWonder, BuildCard, DiscardCard, BuildWonder, ChooseProgressToken, DestroyCard,
        BuildFromDiscard, ChooseStarter,
    }
    assert {type(a) for a in OUT_OF_TURN_ACTIONS} == set(OUT_OF_TURN)
    for action in EVERY_ACTION + OUT_OF_TURN_ACTIONS:
        notation = str(action)
        assert parse(notation) == action, notation
        data = action.to_json()
        assert from_json(data) == action, data
        # Through real JSON text, as the server receives it.
        assert from_json(json.loads(json.dumps(data))) == action, data
        assert type(parse(notation)) is type(action)


def test_json_types_are_distinct() -> None:
    # Two action types with the same argument must not read back as each other.
    every = EVERY_ACTION + OUT_OF_TURN_ACTIONS
    forms = {json.dumps(a.to_json(), sort_keys=True) for a in every}
    assert len(forms) == len(every)
    notations = {str(a) for a in every}
    assert len(notations) == len(every)


def test_each_action_type_is_declared_once_by_its_class() -> None:
    assert list(ACTION_TYPES) == [PickWonder, BuildCard, DiscardCard, BuildWonder,
                                  ChooseProgressToken, DestroyCard, BuildFromDiscard,
                                  ChooseStarter, Forfeit, TakeBack]
    assert {type(a) for a in EVERY_ACTION + OUT_OF_TURN_ACTIONS} == set(ACTION_TYPES)
    for field in ("TYPE", "PREFIX"):
        names = [getattr(cls, field) for cls in ACTION_TYPES]
        assert len(set(names)) == len(names), field
    # Every decision but the normal turn is answered by exactly one type.
    answered = [kind for cls in ACTION_TYPES for kind in cls.ANSWERS]
    assert set(answered) == set(DecisionKind)
    assert sorted(k for k in answered if k != DecisionKind.PLAY_CARD) == sorted(
        k for k in DecisionKind if k != DecisionKind.PLAY_CARD)


def test_an_action_answers_only_its_declared_decisions() -> None:
    game = new_game(seed=4)  # seat 0 plays a card
    for cls in ACTION_TYPES:
        if cls in OUT_OF_TURN:  # they answer no decision: test_forfeit_and_take_back.py
            continue
        action = next(a for a in EVERY_ACTION if type(a) is cls)
        if DecisionKind.PLAY_CARD in cls.ANSWERS:
            continue
        with pytest.raises(IllegalActionError) as error:
            game.apply(action)
        assert error.value.code == "wrong_decision"
        assert str(error.value).startswith(f"{cls.TYPE} is not possible now")


def test_notation_ignores_surrounding_whitespace() -> None:
    assert parse("  build:tavern\n") == BuildCard("tavern")


def test_actions_are_values() -> None:
    assert BuildCard("tavern") == BuildCard("tavern")
    assert hash(BuildCard("tavern")) == hash(BuildCard("tavern"))
    assert BuildCard("tavern") != DiscardCard("tavern")
    assert BuildWonder("piraeus", "tavern") != BuildWonder("tavern", "piraeus")
    assert len({BuildCard("tavern"), BuildCard("tavern")}) == 1


def test_legal_actions_round_trip() -> None:
    game = Game.new(3, Options())
    for _ in range(30):
        for action in game.legal_actions():
            assert parse(str(action)) == action
            assert from_json(action.to_json()) == action
        game.apply(game.legal_actions()[0])


# ---------------------------------------------------------------- malformed notation

@pytest.mark.parametrize(
    ("notation", "message"),
    [
        ("", "unknown action ''"),
        ("fly:tavern", "unknown action 'fly'"),
        ("BUILD:tavern", "unknown action 'BUILD'"),
        ("build_wonder:the_pyramids:tavern", "unknown action 'build_wonder'"),
        ("build:castle", "unknown card 'castle'"),
        ("build:", "unknown card ''"),
        ("build:Tavern", "unknown card 'Tavern'"),
        ("discard:the_pyramids", "unknown card 'the_pyramids'"),
        ("destroy:law", "unknown card 'law'"),
        ("mausoleum:nope", "unknown card 'nope'"),
        ("pick:tavern", "unknown wonder 'tavern'"),
        ("wonder:tavern:the_pyramids", "unknown wonder 'tavern'"),
        ("wonder:the_pyramids:the_sphinx", "unknown card 'the_sphinx'"),
        ("progress:tavern", "unknown progress token 'tavern'"),
        ("build", "build takes 1 argument"),
        ("build:tavern:quarry", "build takes 1 argument"),
        ("wonder:the_pyramids", "build_wonder takes 2 argument"),
        ("wonder:the_pyramids:tavern:quarry", "build_wonder takes 2 argument"),
        ("starter", "choose_starter takes 1 argument"),
        ("starter:2", "seat must be 0 or 1"),
        ("starter:-1", "seat must be 0 or 1"),
        ("starter:true", "seat must be 0 or 1"),
        ("starter:01", "seat must be 0 or 1"),
        ("starter:", "seat must be 0 or 1"),
    ],
)
def test_malformed_notation(notation: str, message: str) -> None:
    with pytest.raises(MalformedActionError) as error:
        parse(notation)
    assert message in str(error.value)


@pytest.mark.parametrize("value", [None, 42, b"build:tavern", ["build", "tavern"]])
def test_notation_must_be_a_string(value: Any) -> None:
    with pytest.raises(MalformedActionError, match="string"):
        parse(value)


def test_malformed_action_error_is_an_engine_error() -> None:
    with pytest.raises(EngineError):
        parse("fly:away")
    with pytest.raises(ValueError):
        parse("fly:away")


# ---------------------------------------------------------------- malformed JSON

@pytest.mark.parametrize("data", [None, "build:tavern", 3, ["build", "tavern"],
                                  [{"type": "build", "card": "tavern"}]])
def test_json_must_be_an_object(data: Any) -> None:
    with pytest.raises(MalformedActionError, match="JSON object"):
        from_json(data)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({}, "unknown action type None"),
        ({"card": "tavern"}, "unknown action type None"),
        ({"type": "fly", "card": "tavern"}, "unknown action type 'fly'"),
        ({"type": "wonder", "wonder": "the_pyramids", "card": "tavern"},
         "unknown action type 'wonder'"),
        ({"type": 1, "card": "tavern"}, "unknown action type 1"),
        ({"type": "build"}, "missing field(s) ['card']"),
        ({"type": "build_wonder", "wonder": "the_pyramids"}, "missing field(s) ['card']"),
        ({"type": "build_wonder"}, "missing field(s) ['wonder', 'card']"),
        ({"type": "choose_starter"}, "missing field(s) ['seat']"),
        ({"type": "build", "card": "tavern", "seat": 0}, "unexpected field(s) ['seat']"),
        ({"type": "pick_wonder", "wonder": "the_pyramids", "card": "tavern"},
         "unexpected field(s) ['card']"),
        ({"type": "build", "card": "castle"}, "unknown card 'castle'"),
        ({"type": "build", "card": None}, "unknown card None"),
        ({"type": "build", "card": 3}, "unknown card 3"),
        ({"type": "build", "card": ["tavern"]}, "unknown card ['tavern']"),
        ({"type": "discard", "card": "the_pyramids"}, "unknown card 'the_pyramids'"),
        ({"type": "pick_wonder", "wonder": "tavern"}, "unknown wonder 'tavern'"),
        ({"type": "build_wonder", "wonder": "the_pyramids", "card": "piraeus"},
         "unknown card 'piraeus'"),
        ({"type": "choose_progress", "token": "alchemy"}, "unknown progress token 'alchemy'"),
        ({"type": "destroy", "card": "law"}, "unknown card 'law'"),
        ({"type": "build_from_discard", "card": ""}, "unknown card ''"),
        ({"type": "choose_starter", "seat": 2}, "seat must be 0 or 1"),
        ({"type": "choose_starter", "seat": -1}, "seat must be 0 or 1"),
        ({"type": "choose_starter", "seat": True}, "seat must be 0 or 1"),
        ({"type": "choose_starter", "seat": False}, "seat must be 0 or 1"),
        ({"type": "choose_starter", "seat": 1.0}, "seat must be 0 or 1"),
        ({"type": "choose_starter", "seat": None}, "seat must be 0 or 1"),
        ({"type": "choose_starter", "seat": [1]}, "seat must be 0 or 1"),
    ],
)
def test_malformed_json(data: dict[str, Any], message: str) -> None:
    with pytest.raises(MalformedActionError) as error:
        from_json(data)
    assert message in str(error.value)


def test_boolean_seat_is_not_read_as_an_int() -> None:
    # True == 1 in Python: a careless check would accept it and return ChooseStarter(True).
    for value in (True, False):
        with pytest.raises(MalformedActionError):
            from_json({"type": "choose_starter", "seat": value})


# ---------------------------------------------------------------- Game.apply

def test_apply_accepts_a_notation_string() -> None:
    game = new_game(seed=4)
    first = next(a for a in game.legal_actions() if isinstance(a, DiscardCard))
    events = game.apply(str(first))
    assert game.log == [first]
    assert isinstance(game.log[0], DiscardCard)
    assert events[0] == CardDiscarded(0, first.card, events[0].slot, 2)
    assert game.to_act == 1


def test_apply_accepts_a_json_dict() -> None:
    game = new_game(seed=4)
    first = next(a for a in game.legal_actions() if isinstance(a, DiscardCard))
    events = game.apply(json.loads(json.dumps(first.to_json())))
    assert game.log == [first]
    assert isinstance(events[0], CardDiscarded)
    assert game.to_act == 1


def test_string_json_and_object_forms_give_the_same_game() -> None:
    games = [Game.new(9, Options()) for _ in range(3)]
    for _ in range(20):
        action = games[0].legal_actions()[0]
        games[0].apply(action)
        games[1].apply(str(action))
        games[2].apply(action.to_json())
    assert games[0].state_hash() == games[1].state_hash() == games[2].state_hash()
    assert games[0].log == games[1].log == games[2].log


def test_apply_in_the_draft_with_notation() -> None:
    game = Game.new(2, Options(first_player=0))
    offer = game.legal_actions()
    assert all(isinstance(a, PickWonder) for a in offer)
    game.apply(f"pick:{offer[0].wonder}")
    assert game.to_act == 1
    assert game.state.players[0].wonders == [next(w.index for w in WONDERS
                                                  if w.id == offer[0].wonder)]


@pytest.mark.parametrize("bad", ["fly:away", "build:castle", "starter:7",
                                 {"type": "build"}, {"type": "choose_starter", "seat": True}])
def test_apply_malformed_leaves_the_game_unchanged(bad: str | dict[str, Any]) -> None:
    game = new_game(seed=4)
    before = game.state_hash()
    with pytest.raises(MalformedActionError):
        game.apply(bad)
    assert game.state_hash() == before
    assert game.log == []


def test_apply_well_formed_but_illegal_is_not_malformed() -> None:
    game = new_game(seed=4)
    before = game.state_hash()
    with pytest.raises(IllegalActionError) as error:
        game.apply("starter:1")  # nobody is choosing a starter now
    assert not isinstance(error.value, MalformedActionError)
    assert error.value.code == "wrong_decision"
    assert game.state_hash() == before


def test_apply_checks_the_seat() -> None:
    game = new_game(seed=4)
    action = next(a for a in game.legal_actions() if isinstance(a, DiscardCard))
    before = game.state_hash()
    with pytest.raises(IllegalActionError) as error:
        game.apply(str(action), seat=1)
    assert error.value.code == "not_your_turn"
    assert game.state_hash() == before
    game.apply(action.to_json(), seat=0)
    assert game.log == [action]


def test_replay_from_notations() -> None:
    game = Game.new(12, Options())
    for _ in range(25):
        game.apply(game.legal_actions()[-1])
    notations = [str(a) for a in game.log]
    again = Game.replay(12, Options(), notations)
    assert again.state_hash() == game.state_hash()
