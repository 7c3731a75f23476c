"""Who sees what (classic.md, "Who sees what"): hands, choices, tucked and discarded cards,
the pile, and what a seat saw pass through its hands."""

from __future__ import annotations

from app.classic import events_for, knowledge, view
from app.classic.scenario import hand, table

from .helpers import close, produce


def test_a_seat_sees_its_hand_the_others_a_count() -> None:
    game = table("gizah", "rhodos", "olympia")
    mine, theirs, spectator = view(game, 0), view(game, 1), view(game, None)
    assert len(mine["you"]["hand"]) == 7 and theirs["you"]["hand"] != mine["you"]["hand"]
    assert theirs["seats"][0]["hand_count"] == 7 and "hand" not in theirs["seats"][0]
    assert "you" not in spectator


def test_a_choice_is_secret_until_the_step_closes_then_a_build_is_public() -> None:
    game = table("gizah", "rhodos", "olympia")
    hand(game, 0, "altar", "baths")
    events = game.apply(0, "build:altar:0:0")
    assert events_for(events, 0)[0]["action"] == "build:altar:0:0"
    assert "action" not in events_for(events, 1)[0]
    assert view(game, 1)["seats"][0]["chosen"] and view(game, 0)["you"]["choice"]
    for seat in (1, 2):
        events += game.apply(seat, "discard:" + view(game, seat)["you"]["hand"][0])
    played = [e for e in events_for(events, None) if e["type"] == "played"]
    assert {"seat": 0, "card": "altar"}.items() <= played[0].items()
    assert all("card" not in e for e in played[1:])  # discards: their cards stay secret
    assert view(game, 2)["seats"][0]["cards"] == ["altar"]


def test_a_tucked_card_is_known_to_its_owner_only() -> None:
    game = table("gizah", "rhodos", "olympia")
    produce(game, 0, stone=1)
    hand(game, 0, "palace")
    close(game, {0: "wonder:palace:0:0"})
    assert view(game, 0)["you"]["tucked"] == ["palace"]
    assert view(game, 0)["seats"][0]["last"] == {"use": "stage", "card": "palace"}
    assert view(game, 1)["seats"][0]["last"] == {"use": "stage"}
    assert view(game, 1)["seats"][0]["stages_built"] == 1


def test_a_seat_remembers_every_hand_it_held() -> None:
    """RO L135 with 3 players: each hand comes back at turn 4."""
    game = table("gizah", "rhodos", "olympia")
    first = view(game, 0)["you"]["hand"]
    for _ in range(3):
        close(game)
    seen = knowledge(game, 0)
    assert [entry["turn"] for entry in seen] == [1, 2, 3, 4]
    assert set(seen[3]["cards"]) < set(first)  # its own first hand, less three picks
    assert view(game, 0)["you"]["seen"] == seen


def test_hands_received_are_counts_for_everyone_else() -> None:
    game = table("gizah", "rhodos", "olympia")
    events = close(game)
    received = [e for e in events_for(events, 1) if e["type"] == "hand"]
    assert [("cards" in e) for e in received] == [False, True, False]
