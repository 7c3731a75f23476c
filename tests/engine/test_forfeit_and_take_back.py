"""Forfeits (resigned, time, abandoned) and take-backs: actions a seat makes out of turn.

A forfeit ends the game for the other seat whatever is being decided. A take-back undoes the
seat's own last action when that action revealed nothing: the game is then exactly the game
that never had it, and the log (take-back included) still replays to it.
"""

from __future__ import annotations

import random

import pytest

from app.engine import (
    BuildWonder,
    DiscardCard,
    Forfeit,
    Game,
    IllegalActionError,
    MalformedActionError,
    Options,
    PickWonder,
    TakeBack,
    Victory,
    from_json,
    parse,
    view,
)
from app.engine.scenario import new_position, set_wonders, supply_resources
from app.engine.state import Phase


def drafted(seed: int) -> Game:
    """A game just past the wonder draft, seat ``to_act`` to play its first card."""
    game = Game.new(seed, Options(first_player=0))
    while game.state.phase == Phase.DRAFT:
        game.apply(game.legal_actions()[0])
    return game


@pytest.mark.parametrize("reason", ["resigned", "time", "abandoned"])
@pytest.mark.parametrize("seat", [0, 1])
def test_a_forfeit_ends_the_game_for_the_other_seat(seat: int, reason: str) -> None:
    game = drafted(4)
    assert game.to_act == 0
    events = game.apply(Forfeit(seat, reason), seat=seat)  # seat 1 too, out of turn
    assert game.is_over and game.to_act is None and game.legal_actions() == []
    outcome = game.outcome()
    assert outcome is not None
    assert (outcome.winner, outcome.victory) == (1 - seat, Victory(reason))
    assert [e.to_json() for e in events] == [
        {"type": "game_over", "winner": 1 - seat, "victory": reason}]
    assert view(game, None)["outcome"]["victory"] == reason
    replayed = Game.replay(game.seed, game.options, [str(a) for a in game.log])
    assert replayed.state_hash() == game.state_hash()


def test_a_forfeit_is_possible_in_the_middle_of_a_decision() -> None:
    game = Game.new(7, Options(first_player=1))
    game.apply(game.legal_actions()[0])  # the draft: seat 1 picked, seat 0 to pick
    game.apply(Forfeit(1, "time"))
    assert game.outcome() is not None and game.outcome().winner == 0  # type: ignore[union-attr]


def test_a_forfeit_is_refused_in_another_seat_s_name_and_after_the_end() -> None:
    game = drafted(4)
    before = game.state_hash()
    with pytest.raises(IllegalActionError) as refused:
        game.apply(Forfeit(1, "resigned"), seat=0)
    assert refused.value.code == "not_your_seat"
    assert game.state_hash() == before and not game.is_over
    game.apply(Forfeit(0, "resigned"))
    with pytest.raises(IllegalActionError) as refused:
        game.apply(Forfeit(1, "resigned"))
    assert refused.value.code == "game_over"


def test_forfeits_and_take_backs_have_a_notation_and_a_json_form() -> None:
    assert str(Forfeit(1, "time")) == "forfeit:1:time"
    assert parse("forfeit:0:abandoned") == Forfeit(0, "abandoned")
    assert from_json({"type": "forfeit", "seat": 1, "reason": "resigned"}) == \
        Forfeit(1, "resigned")
    assert parse("takeback:1") == TakeBack(1)
    assert TakeBack(0).to_json() == {"type": "take_back", "seat": 0}
    for bad in ("forfeit:0:bored", "forfeit:2:time", "forfeit:0", "takeback:x"):
        with pytest.raises(MalformedActionError):
            parse(bad)
    with pytest.raises(MalformedActionError):
        from_json({"type": "forfeit", "seat": 0, "reason": "civilian"})


def test_a_discard_is_taken_back_and_the_game_is_as_if_it_never_was() -> None:
    game = drafted(11)
    seat = game.to_act
    assert seat is not None
    before = game.state_hash()
    # A discard that uncovers nothing: a card of the bottom row whose neighbour still
    # covers what lies above it.
    discard = next(a for a in game.legal_actions()
                   if isinstance(a, DiscardCard) and _uncovers_nothing(game, a, seat))
    game.apply(discard)
    assert game.can_take_back(seat) and not game.can_take_back(1 - seat)
    events = game.apply(TakeBack(seat), seat=seat)
    assert [e.to_json() for e in events] == [
        {"type": "taken_back", "seat": seat, "action": str(discard)}]
    assert game.state_hash() == before and game.to_act == seat
    assert [str(a) for a in game.log][-2:] == [str(discard), f"takeback:{seat}"]
    assert Game.replay(game.seed, game.options, game.log).state_hash() == before
    assert not game.can_take_back(seat)  # what went before was the draft's last pick,
    # which revealed the first age


def _uncovers_nothing(game: Game, action: DiscardCard, seat: int) -> bool:
    probe = Game.replay(game.seed, game.options, game.log)
    probe.apply(action)
    return probe.can_take_back(seat)


def test_a_take_back_is_refused_after_a_reveal_or_for_the_opponent_s_action() -> None:
    game = Game.new(3, Options(first_player=0))
    with pytest.raises(IllegalActionError) as refused:
        game.apply(TakeBack(0))
    assert refused.value.code == "cannot_take_back"  # nothing to take back
    first = game.legal_actions()[0]
    assert isinstance(first, PickWonder)
    game.apply(first)
    assert game.can_take_back(0)
    with pytest.raises(IllegalActionError) as refused:
        game.apply(TakeBack(1))  # seat 0's pick is not seat 1's to take back
    assert refused.value.code == "cannot_take_back"
    # The pick that ends the draft's first round shows the next four wonders: it stays.
    while not any(e.to_json()["type"] == "draft_round"
                  for e in game.apply(game.legal_actions()[0])):
        pass
    assert not game.can_take_back(0) and not game.can_take_back(1)
    before = game.state_hash()
    for seat in (0, 1):
        with pytest.raises(IllegalActionError):
            game.apply(TakeBack(seat))
    assert game.state_hash() == before


def test_an_action_that_turns_a_card_face_up_cannot_be_taken_back() -> None:
    rng = random.Random(5)
    game = drafted(5)
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        events = game.apply(rng.choice(game.legal_actions()))
        if any(e.to_json()["type"] == "card_revealed" for e in events):
            assert not game.can_take_back(seat)
            with pytest.raises(IllegalActionError) as refused:
                game.apply(TakeBack(seat))
            assert refused.value.code == "cannot_take_back"
            return
    raise AssertionError("no card was turned face up in a whole game")


def test_random_take_backs_leave_the_game_equal_to_its_replay() -> None:
    """Through seeded random games, every action that can be taken back is, now and then:
    the game equals the replay of its actions in force, and of its whole log."""
    for seed in range(30):
        rng = random.Random(seed)
        game = Game.new(seed)
        taken = 0
        while not game.is_over and len(game.log) < 200:
            seat = game.to_act
            assert seat is not None
            game.apply(rng.choice(game.legal_actions()))
            if game.can_take_back(seat) and rng.random() < 0.3:
                in_force = game.played[:-1]
                game.apply(TakeBack(seat))
                taken += 1
                expected = Game.replay(seed, game.options, in_force).state_hash()
                assert game.state_hash() == expected
        assert Game.replay(seed, game.options, game.log).state_hash() == game.state_hash()
        assert taken > 0


def test_a_token_chosen_from_the_great_library_s_draw_cannot_be_taken_back() -> None:
    """The draw shows nothing to the opponent, but the choice does: the token taken came
    out of the box. Undone, it would tell which tokens were drawn."""
    game = new_position(["theater", "altar", "baths"])
    set_wonders(game, 0, ["the_great_library"])
    supply_resources(game, 0, "the_great_library")
    game.apply(BuildWonder("the_great_library", "theater"), seat=0)
    assert not game.can_take_back(0)  # the draw itself
    game.apply(game.legal_actions()[0], seat=0)
    assert not game.can_take_back(0)
    with pytest.raises(IllegalActionError) as refused:
        game.apply(TakeBack(0), seat=0)
    assert refused.value.code == "cannot_take_back"
