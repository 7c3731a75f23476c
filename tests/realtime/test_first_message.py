"""The first message (docs/protocol.md, "The first message"; docs/lobby.md): on the game
socket nothing the server sends unasked (a ping, a presence, an update) reaches a socket
before its welcome; on the lobby socket the first picture comes before any ping.

Each test holds the first message open (a read that waits for the test's signal), makes
everything that could overtake it happen meanwhile (timer ticks on a manual clock, other
sockets joining, moves), and only then lets the first message go: a server that sent any
of it early would have queued it first, and fails the test every time.

Every test runs on SQLite and on PostgreSQL (the ``make_app`` fixture)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi import FastAPI

from app.api.ws import GameSocket
from tests.factories import LobbyClient, ProtocolClient, make_move, new_game, serve
from tests.realtime.interleaving import Gate, manual_clock

TIMEOUT = 10.0
"""Seconds a test waits for an expected message before failing."""

INTERVAL = 1.0
"""The heartbeat interval on the manual clock; the silence timeout is far longer."""


def _hold_next_welcome(monkeypatch: pytest.MonkeyPatch, gate: Gate) -> None:
    """The next welcome (or state) is read, then held at ``gate``; later ones pass."""
    read = GameSocket._state

    async def held(self: GameSocket, kind: str, last_version: int | None) -> dict[str, Any]:
        state = await read(self, kind, last_version)
        await gate.hold()
        return state

    monkeypatch.setattr(GameSocket, "_state", held)


def test_nothing_reaches_a_socket_before_its_welcome(
        make_app: Callable[..., FastAPI], monkeypatch: pytest.MonkeyPatch) -> None:
    app = make_app(heartbeat_interval=INTERVAL, heartbeat_timeout=100 * INTERVAL)
    clock = manual_clock(app)
    with serve(app) as client:
        first, second = new_game(client)
        game_id = first["game_id"]
        seat1 = ProtocolClient(client, game_id, timeout=TIMEOUT)
        assert seat1.join(1, second["token"])["type"] == "welcome"
        assert seat1.receive()["seats"] == [False, True]

        gate = Gate(client)
        _hold_next_welcome(monkeypatch, gate)
        joining = ProtocolClient(client, game_id, timeout=TIMEOUT)
        joining.send({"type": "join", "seat": 0, "token": first["token"]})
        gate.wait_reached()  # its welcome is read, not sent

        # Meanwhile: ticks (every other socket is pinged), a spectator comes and goes
        # (presence), a move is made (update).
        clock.wait_for_sleepers(2, seconds=INTERVAL)
        for _ in range(3):
            clock.advance(INTERVAL)
            assert seat1.barrier() == []
        assert [m["type"] for m in seat1.inbox].count("ping") == 3
        with ProtocolClient(client, game_id, timeout=TIMEOUT) as spectator:
            assert spectator.join()["type"] == "welcome"
        assert seat1.receive_until("presence")["spectators"] == 1
        assert seat1.receive_until("presence")["spectators"] == 0  # it has left
        version = make_move(client, game_id)
        assert seat1.receive_until("update")["version"] == version

        gate.open()
        joining.barrier()  # everything queued for it before its pong
        kinds = [m["type"] for m in joining.inbox]
        assert kinds[0] == "welcome", kinds
        assert joining.inbox[0]["version"] == version - 1, "read before the move, as meant"
        assert "ping" not in kinds, kinds
        assert kinds.count("update") == 1, kinds
        presences = [(m["seats"], m["spectators"]) for m in joining.inbox
                     if m["type"] == "presence"]
        assert presences[-1] == ([True, True], 0), presences

        # Once welcomed, it is pinged as the others are.
        clock.advance(INTERVAL)
        assert joining.receive_json(timeout=TIMEOUT) == {"type": "ping"}
        joining.close()
        seat1.close()


def test_a_socket_not_yet_welcomed_hears_only_answers(
        make_app: Callable[..., FastAPI]) -> None:
    """Before its welcome a socket is sent only the answers to its own messages: after
    a refused join the next message is still the welcome of the join that succeeds."""
    app = make_app(heartbeat_interval=INTERVAL, heartbeat_timeout=100 * INTERVAL,
                   join_timeout=100 * INTERVAL)
    clock = manual_clock(app)
    with serve(app) as client:
        first, second = new_game(client)
        game_id = first["game_id"]
        unjoined = ProtocolClient(client, game_id, timeout=TIMEOUT)
        assert unjoined.barrier() == []
        assert unjoined.join(1, first["token"])["code"] == "bad_credentials"
        seat1 = ProtocolClient(client, game_id, timeout=TIMEOUT)
        assert seat1.join(1, second["token"])["type"] == "welcome"
        make_move(client, game_id)
        for _ in range(3):
            clock.advance(INTERVAL)
        assert unjoined.barrier() == []
        assert "ping" not in [m["type"] for m in unjoined.inbox], unjoined.inbox
        assert unjoined.join(0, first["token"])["type"] == "welcome"
        unjoined.close()
        seat1.close()


def test_the_lobby_picture_comes_before_any_ping(
        make_app: Callable[..., FastAPI], monkeypatch: pytest.MonkeyPatch) -> None:
    app = make_app(heartbeat_interval=INTERVAL, heartbeat_timeout=100 * INTERVAL)
    clock = manual_clock(app)
    with serve(app) as client:
        gate = Gate(client)
        read = app.state.lobby.public

        async def held_first_read() -> Any:
            lists = await read()
            await gate.hold()
            return lists

        monkeypatch.setattr(app.state.lobby, "public", held_first_read)
        socket = LobbyClient(client, timeout=TIMEOUT)
        gate.wait_reached()  # its first picture is read, not sent
        clock.wait_for_sleepers(1, seconds=INTERVAL)
        clock.advance(3 * INTERVAL)  # three ticks meanwhile
        gate.open()
        assert socket.receive_json(timeout=TIMEOUT)["type"] == "lobby", "not first"
        assert socket.barrier() == []
        assert [m["type"] for m in socket.inbox] == ["pong"], socket.inbox
        clock.advance(INTERVAL)
        assert socket.receive_json(timeout=TIMEOUT) == {"type": "ping"}
        socket.close()
