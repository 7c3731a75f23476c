"""Audit: who sees what (../shared/classic.md, "Who sees what"; RO L336-340 a card chosen
face down; RO L324-327 a discard face down; RO L331-335 a stage card stays hidden).

Over random games every view and every event, for every seat and a spectator, is walked
field by field: each card id it holds must be one that audience may know: a structure
built (public), a card of a hand it held, the discard pile while it decides Halikarnassos'
build. Another seat's choice, tucked card and discard show their use only.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.classic import Game, Options, events_for, view

from .audit_oracle import CARDS

TOP = {"players", "age", "turn", "step", "decision", "to_act", "pending", "discard_count",
       "seats"}
SEAT = {"seat", "board", "side", "coins", "cards", "stages_built", "stages", "shields",
        "tokens", "hand_count", "chosen", "free_build_used", "last", "left", "right"}


def _card_ids(value: Any, path: str = "") -> list[tuple[str, str]]:
    """Every (path, card id) held anywhere in a JSON value, inside notations too."""
    found: list[tuple[str, str]] = []
    if isinstance(value, dict):
        for key, item in value.items():
            found += _card_ids(item, f"{path}.{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _card_ids(item, f"{path}[{index}]")
    elif isinstance(value, str):
        found += [(path, part) for part in value.split(":") if part in CARDS]
    return found


def _play_and_scan(seed: int, players: int, sides: str) -> int:
    game = Game.new(seed, Options(players=players, sides=sides))
    rng = random.Random(seed)
    seen: dict[int, set[str]] = {seat: set() for seat in range(players)}
    checked = 0
    while not game.over:
        for seat in range(players):
            mine = view(game, seat)["you"]
            seen[seat] |= set(mine["hand"]) | set(mine.get("pile", []))
        events = []
        for seat in list(game.pending()):
            events += game.apply(seat, rng.choice(game.legal_actions(seat)))
            checked += _scan(game, seen, events)
    checked += _scan(game, seen, [])
    return checked


def _scan(game: Game, seen: dict[int, set[str]], events: list[Any]) -> int:
    for seat in range(game.players):
        mine = view(game, seat)["you"]
        seen[seat] |= set(mine["hand"]) | set(mine.get("pile", []))
    public = set()
    for city in view(game, None)["seats"]:
        public |= set(city["cards"])
    checked = 0
    for audience in [None, *range(game.players)]:
        shown = view(game, audience)
        assert TOP <= set(shown) <= TOP | {"you", "outcome"}
        assert ("you" in shown) == (audience is not None)
        assert ("outcome" in shown) == game.over
        for city in shown["seats"]:
            assert set(city) == SEAT
            last = city["last"]
            if last is not None and city["seat"] != audience and "card" in last:
                assert last["use"] in ("build", "free") and last["card"] in city["cards"]
        if "you" in shown:
            pile = "pile" in shown["you"]
            assert pile == (game.phase == "discard_build" and audience in game.to_act())
        for event in events_for(events, audience):
            if event.get("seat", audience) != audience and event["type"] != "built":
                hidden = event["type"] in ("chosen", "hand") or (
                    event["type"] == "played" and event.get("use") not in ("build", "free"))
                assert not (hidden and ("card" in event or "cards" in event
                                        or "action" in event)), (audience, event)
        allowed = public | (seen[audience] if audience is not None else set())
        if game.over:
            continue   # after the game everything may be revealed
        for path, card in _card_ids(shown) + _card_ids(
                events_for(events, audience)):
            assert card in allowed, (audience, path, card)
            checked += 1
    return checked


@pytest.mark.parametrize(("seed", "players", "sides"),
                         [(1, 3, "A"), (2, 4, "B"), (3, 5, "random"), (4, 7, "B"),
                          (5, 6, "random"), (6, 3, "B")])
def test_no_view_or_event_shows_a_card_its_audience_may_not_know(seed: int, players: int,
                                                                   sides: str) -> None:
    assert _play_and_scan(seed, players, sides) > 1000


def test_a_choice_before_the_reveal_is_seen_by_its_seat_only() -> None:
    game = Game.new(9, Options(players=4))
    action = game.legal_actions(2)[0]
    events = game.apply(2, action)
    assert view(game, 2)["you"]["choice"] == str(action)
    for audience in (None, 0, 1, 3):
        shown = view(game, audience)
        assert shown["seats"][2]["chosen"] is True
        assert "you" not in shown or shown["you"]["choice"] is None
        assert all(card not in str(e.seen_by(audience)) for e in events
                   for card in [action.card])
