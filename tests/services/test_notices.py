"""What processes tell one another (app/services/notices.py) reads back as it was written,
on every topic; what a reader cannot understand (a newer or broken message) is None, and
the shapes of the release before are still read (a rolling deploy has both)."""

from __future__ import annotations

from typing import Any

import pytest

from app.services.notices import (
    ChatPosted,
    GameAborted,
    GameExpired,
    GameNotice,
    LobbyChanged,
    LobbyNotice,
    Matched,
    Moved,
    PresenceChanged,
    RematchChanged,
    Replaced,
    TakeBackChanged,
    read_game_notice,
    read_lobby_notice,
    read_presence,
)

GAME_NOTICES: list[GameNotice] = [
    Moved(7, 1, {"type": "discard", "card": 12}, "D12"),
    Moved(8, 0, {"type": "pick", "wonder": "the_sphinx"}, "Psphinx",
          clock={"ms": [1000, 2000], "since": 5, "running": 0}, first_move_by=123_456),
    RematchChanged(0, None), RematchChanged(None, "G2"), RematchChanged(None, None, 1),
    TakeBackChanged(1, 14), TakeBackChanged(None, 14, declined_by=0),
    ChatPosted({"channel": "players", "seat": 0, "text": "gg"}),
    GameAborted("player", 1), GameAborted("admin", None, "a test game"),
    GameExpired(24.0),
]


@pytest.mark.parametrize("notice", GAME_NOTICES, ids=repr)
def test_a_game_notice_reads_back_as_written(notice: GameNotice) -> None:
    assert read_game_notice(notice.to_json()) == notice


@pytest.mark.parametrize("notice", [LobbyChanged(True, ("a", "b")), LobbyChanged(False, ()),
                                    Matched("p1", "G1", 1, "server-2"),
                                    Replaced("p1", "server-2")], ids=repr)
def test_a_lobby_notice_reads_back_as_written(notice: LobbyNotice) -> None:
    assert read_lobby_notice(notice.to_json()) == notice


def test_the_lobby_s_players_are_each_named_once_in_order() -> None:
    changed = LobbyChanged.of(public=False, players=["b", None, "a", "b"])
    assert changed.to_json() == {"public": False, "players": ["a", "b"]}


def test_presence_comes_in_batches_small_enough_for_a_notify() -> None:
    games = [f"game{n:012d}" for n in range(701)]
    batches = PresenceChanged.batches(games)
    assert [len(b.games) for b in batches] == [300, 300, 101]
    assert all(len(str(b.to_json())) < 7900 for b in batches)
    assert [read_presence(b.to_json()) for b in batches] == batches


@pytest.mark.parametrize("message", [
    {}, {"moved": "7", "seat": 0, "action": {}, "notation": "x"},
    {"moved": 7, "seat": 0, "action": "D12", "notation": "x"},
    {"moved": 7, "action": {}, "notation": "x"},
    {"take_back": {"offered_by": 1}}, {"expired": {"hours": "a day"}},
    {"something_new": {"x": 1}}, {"rematch": "yes"},
])
def test_a_game_message_this_release_cannot_read_is_none(message: dict[str, Any]) -> None:
    assert read_game_notice(message) is None


def test_the_release_before_s_shapes_are_read() -> None:
    # An abort rung by a replica of the release before said only its reason.
    assert read_game_notice({"aborted": {"reason": "spam"}}) == GameAborted("admin", None,
                                                                           "spam")
    # An older replica wrapped its notices as {"notice": {"type": ..., ...}}.
    assert read_game_notice({"notice": {"type": "rematch", "offered_by": 1,
                                        "game_id": None}}) == RematchChanged(1, None)
    assert read_lobby_notice({"matched": {"player": "p"}}) is None
    assert read_presence({"games": "G1"}) is None
