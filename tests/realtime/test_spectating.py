"""Spectating from the lobby: someone who finds a game in the lobby's ``live`` list and
opens it watches every move, and is never sent anything that names a face-down card, a
card left out of the game, a progress token in the box, an unused guild or wonder, or a
seat's private Great Library draw.

The scan is the one of tests/realtime/test_ws_hidden.py (its ``Scanner``), on games whose
players came through the lobby and whose spectator has a player session of their own.
Every test runs on SQLite and on PostgreSQL (the ``make_app`` fixture)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.engine import WONDERS, Game
from tests.factories import (
    LobbyClient,
    ProtocolClient,
    Table,
    browser,
    entry,
    player,
    serve,
    server_game,
)
from tests.factories import hidden_ids as _hidden_ids
from tests.factories import strings_in as _strings
from tests.realtime.test_ws_hidden import Scanner

TIMEOUT = 10.0
MAX_GAMES = 4
"""Games played until one had a Great Library draw (nearly always the first)."""


def _listed_game_with_the_great_library(ann: TestClient) -> str:
    """A listed game of Ann's whose wonder draft offers The Great Library (so its private
    draw can happen); others made on the way are left waiting."""
    for _ in range(50):
        game_id: str = ann.post("/api/games", json={"listed": True}).json()["game_id"]
        game, _ = server_game(ann, game_id)
        drafted = {WONDERS[w].id for rounds in game.state.draft_rounds for w in rounds}
        if "the_great_library" in drafted:
            return game_id
    raise AssertionError("no draft offered The Great Library")


def _watch(client: TestClient, game_id: str, **join: Any) -> tuple[ProtocolClient,
                                                                    dict[str, Any]]:
    socket = ProtocolClient(client, game_id, timeout=TIMEOUT)
    welcome = socket.join(**join)
    assert welcome["type"] == "welcome" and welcome["seat"] is None, welcome
    return socket, welcome


def test_a_spectator_from_the_lobby_is_never_shown_a_hidden_identity(
        make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app(lobby_debounce=0.01)) as ann:
        bob, carol, nobody = browser(ann), browser(ann), browser(ann)
        player(ann, "Ann")
        player(bob, "Bob")
        player(carol, "Carol")
        lobby = LobbyClient(carol, timeout=TIMEOUT)
        draws = played = 0
        while not draws and played < MAX_GAMES:
            played += 1
            game_id = _listed_game_with_the_great_library(ann)
            assert bob.post(f"/api/games/{game_id}/join", json={}).status_code == 200
            # Carol finds it among the games to watch, and opens it.
            lobby.wait_for(lambda p, g=game_id: entry(p, "live", g) is not None)
            seats = (ProtocolClient(ann, game_id, timeout=TIMEOUT),
                     ProtocolClient(bob, game_id, timeout=TIMEOUT))
            assert [s.join()["seat"] for s in seats] == [0, 1]
            spectator, _ = _watch(carol, game_id)
            server, _ = server_game(ann, game_id)
            table = Table(ann, game_id, ({}, {}), seats, spectator,
                          Game.new(server.seed, server.options))
            scanner = Scanner(table, server.seed)
            scanner.check_inboxes()  # the welcomes

            chooser = random.Random(played)
            latecomers_at = chooser.randrange(10, 40)
            for played in scanner.play(chooser):
                if played == latecomers_at:
                    # Spectators arriving in the middle: with no session, and catching up.
                    version = len(table.history)
                    late, welcome = _watch(nobody, game_id)
                    scanner.check("spectator", welcome, version, "a late welcome")
                    late.close()
                    late, welcome = _watch(carol, game_id, last_version=0)
                    assert len(welcome["missed"]) == version
                    scanner.check_catch_up("spectator", welcome)
                    late.close()

            # The whole story once more, as the spectator asks for it at the end.
            spectator.send({"type": "sync", "last_version": 0})
            state = spectator.receive_until("state")
            assert len(state["missed"]) == len(table.history)
            scanner.check_catch_up("spectator", state)
            scanner.check_inboxes()
            draws += scanner.library_draws
            # What was hidden was computed on the server's own game.
            final, version = server_game(ann, game_id)
            assert version == len(table.history)
            assert final.state_hash() == table.replica.state_hash()
            table.close()
        # The lobby told Carol nothing hidden either (it names no cards at all).
        hidden = _hidden_ids(table.replica, None)
        for message in lobby.inbox:
            assert not hidden & _strings(message), message
        lobby.close()
        assert draws >= 1, f"no Great Library draw in {played} games"
