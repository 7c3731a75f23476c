"""Spectating from the lobby: someone who finds a game in the lobby's ``live`` list and
opens it watches every move, and is never sent anything that names a face-down card, a
card left out of the game, a progress token in the box, an unused guild or wonder, or a
seat's private Great Library draw.

The scan is the one of tests/realtime/test_ws_hidden.py (``Scanner`` of
tests/factories.py), on games whose players came through the lobby and whose spectator
has a player session of their own.
Every test runs on SQLite and on PostgreSQL (the ``make_app`` fixture)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.engine import Game
from tests.factories import (
    LobbyClient,
    ProtocolClient,
    Scanner,
    Table,
    browser,
    entry,
    hidden_ids,
    offering,
    player,
    serve,
    server_game,
    strings_in,
)

TIMEOUT = 10.0
MAX_GAMES = 4
"""Games played until one had a Great Library draw (nearly always the first)."""


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
        draws = games = 0
        while not draws and games < MAX_GAMES:
            games += 1
            # A listed game of Ann's whose draft offers The Great Library (so that its
            # private draw can happen), which Bob joins from the lobby without the code.
            game_id = offering(ann, "the_great_library", listed=True)["game_id"]
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
            scanner = Scanner(table)

            chooser = random.Random(games)
            latecomers_at = chooser.randrange(10, 40)
            for played in scanner.play(chooser):
                if played == latecomers_at:
                    # Spectators arriving in the middle: with no session, and catching up.
                    late, welcome = _watch(nobody, game_id)
                    scanner.check("spectator", welcome, played, "a late welcome")
                    late.close()
                    late, welcome = _watch(carol, game_id, last_version=0)
                    assert len(welcome["missed"]) == played
                    scanner.check_catch_up("spectator", welcome)
                    late.close()

            # The whole story once more, as the spectator asks for it at the end.
            scanner.finish(["spectator"])
            draws += scanner.library_draws
            table.close()
        # The lobby told Carol nothing hidden either (it names no cards at all).
        hidden = hidden_ids(table.replica, None)
        for message in lobby.inbox:
            assert not hidden & strings_in(message), message
        lobby.close()
        assert draws >= 1, f"no Great Library draw in {games} games"
