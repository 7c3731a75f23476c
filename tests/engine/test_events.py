"""Events as typed values: one class per kind, each with its JSON form and its visibility.

The JSON of every event is the wire format (docs/protocol.md); the golden games pin it for
whole games (an event digest per game), these tests the shape of each kind.
"""

from __future__ import annotations

import json

import pytest

from app.engine import Event, Game, Options, Victory, events_for, events_json
from app.engine.costs import Payment
from app.engine.events import (
    AgeStarted,
    CardBuilt,
    CardDiscarded,
    CoinsGained,
    DraftRoundStarted,
    GameEnded,
    LibraryTokensDrawn,
    WonderPicked,
)

pytestmark = pytest.mark.compiled

EVENT_TYPES = Event.__subclasses__()


def test_each_kind_of_event_has_its_own_json_type() -> None:
    types = [cls.TYPE for cls in EVENT_TYPES]
    assert len(EVENT_TYPES) == 22
    assert len(set(types)) == len(types)


def test_the_json_form_starts_with_the_type_and_keeps_the_wire_keys() -> None:
    payment = Payment(2, 1, bought=((0, 1, 1),))
    assert list(CardBuilt(0, "tavern", 3, payment).to_json()) == [
        "type", "seat", "card", "slot", "payment"]
    assert CardBuilt(0, "tavern", 3, payment).to_json()["payment"] == payment.to_json()
    assert AgeStarted(2, ((0, "sawmill"), (1, "brewery"))).to_json() == {
        "type": "age_started", "age": 2,
        "cards": [{"slot": 0, "card": "sawmill"}, {"slot": 1, "card": "brewery"}]}
    assert DraftRoundStarted(2, ("piraeus", "the_sphinx")).to_json() == {
        "type": "draft_round", "round": 2, "wonders": ["piraeus", "the_sphinx"]}
    ended = GameEnded(None, Victory.CIVILIAN).to_json()
    assert ended == {"type": "game_over", "winner": None, "victory": "civilian"}
    assert type(ended["victory"]) is str


def test_events_are_values() -> None:
    assert CoinsGained(0, 3) == CoinsGained(seat=0, coins=3)
    assert CoinsGained(0, 3) != CoinsGained(1, 3)
    assert CoinsGained(0, 3) != CardDiscarded(0, "tavern", 1, 3)
    assert len({CoinsGained(0, 3), CoinsGained(0, 3)}) == 1
    assert repr(WonderPicked(1, "piraeus")) == "WonderPicked(seat=1, wonder='piraeus')"


def test_only_the_great_library_draw_is_private_and_only_its_tokens() -> None:
    drawn = LibraryTokensDrawn(1, ("law", "masonry", "theology"))
    assert drawn.private_to == 1
    assert drawn.seen_by(1) == {"type": "library_drawn", "seat": 1,
                                "tokens": ["law", "masonry", "theology"]}
    for other in (0, None):
        assert drawn.seen_by(other) == {"type": "library_drawn", "seat": 1, "count": 3}
    assert drawn.to_json() == {"type": "library_drawn", "seat": 1,
                               "tokens": ["law", "masonry", "theology"], "private_to": 1}
    assert events_json([drawn]) == [drawn.to_json()]


def test_every_event_of_a_game_is_public_but_the_library_draw() -> None:
    game = Game.new(5, Options())
    while not game.is_over:
        events = game.apply(game.legal_actions()[0])
        for event in events:
            if not isinstance(event, LibraryTokensDrawn):
                assert event.private_to is None
                assert event.seen_by(0) == event.seen_by(1) == event.seen_by(None) \
                    == event.to_json()
        for seat in (0, 1, None):
            json.dumps(events_for(events, seat))  # JSON-ready as they are
