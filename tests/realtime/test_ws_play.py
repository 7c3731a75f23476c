"""Playing over the game socket: complete seeded games between two WebSocket clients (and a
spectator), presence, idempotent actions, reconnection and catch-up, sync and ping.

Every test runs on SQLite and on PostgreSQL (the ``make_app`` fixture)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from fastapi import FastAPI

from app.engine import Game, events_for, view
from app.services.servers import ServerRegistry
from tests.factories import (
    Database,
    ProtocolClient,
    Table,
    as_json,
    game_summary,
    new_game,
    seat_view,
    serve,
    server_game,
)
from tests.realtime.interleaving import Gate

TIMEOUT = 10.0
"""Seconds a test waits for an expected message before failing."""

GAMES = [
    # (chooser seed, game options)
    (11, {"wonder_selection": "draft", "first_player": "random"}),
    (12, {"wonder_selection": "first_game", "first_player": "creator"}),
]



# ------------------------------------------------------------------------- full games

def _play_to_the_end(table: Table, chooser: random.Random) -> None:
    """Play the game out; after every action check what each socket was told."""
    while not table.replica.is_over:
        assert len(table.history) < 200, "the game does not end"
        views = {audience: s.view for audience, s in table.sockets.items()}
        to_act = views["0"]["to_act"]  # type: ignore[index]
        # Every screen agrees on whose turn it is; only that seat is offered actions.
        assert all(v["to_act"] == to_act for v in views.values()), views  # type: ignore[index]
        assert "legal_actions" in views[str(to_act)]  # type: ignore[operator]
        assert "legal_actions" not in views[str(1 - to_act)]  # type: ignore[operator]
        assert "legal_actions" not in views["spectator"]  # type: ignore[operator]

        step = table.step(chooser)
        version = step.version + 1
        assert step.ack["version"] == version and step.ack["duplicate"] is False, step.ack
        for audience, update in step.updates.items():
            # The update names the move, carries its events as this audience may see
            # them, and the audience's own view at exactly the new version.
            assert update == table.expected_update(step, audience), (audience, version)
            assert table.sockets[audience].version == version


def test_complete_games_between_two_sockets(make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app()) as client:
        for chooser_seed, options in GAMES:
            table = Table.open(client, timeout=TIMEOUT, **options)
            _play_to_the_end(table, random.Random(chooser_seed))
            played = len(table.history)

            # Each socket saw every version once, in order, with no gap.
            for audience, socket in table.sockets.items():
                versions = [u["version"] for u in socket.received("update")]
                assert versions == list(range(1, played + 1)), audience
                assert socket.barrier() == [], f"{audience} was sent more than the game"

            # Both seats and the spectator see the same, final outcome.
            expected = as_json(table.replica.outcome().to_json())  # type: ignore[union-attr]
            for audience, socket in table.sockets.items():
                assert socket.view["outcome"] == expected, audience  # type: ignore[index]
                assert socket.view["to_act"] is None  # type: ignore[index]
                assert "legal_actions" not in socket.view  # type: ignore[operator]
            summary = game_summary(client, table.game_id)
            assert summary["status"] == "finished"
            assert summary["version"] == played
            assert summary["winner"] == expected["winner"]
            assert summary["victory"] == expected["victory"]

            # The server's game is the replay of the moves the sockets were told of.
            server, version = server_game(client, table.game_id)
            assert version == played
            notations = [u["notation"] for u in table.seats[1].received("update")]
            replayed = Game.replay(server.seed, server.options, notations)
            assert replayed.state_hash() == server.state_hash()
            assert replayed.outcome() == server.outcome()

            # The HTTP views agree with the last update each seat received.
            for seat, credentials in enumerate(table.credentials):
                http = seat_view(client, table.game_id, credentials["token"])
                assert http == {"version": played, "seat": seat,
                                "view": table.seats[seat].view}
            table.close()


def test_a_spectator_follows_every_move_but_cannot_act(
        make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app()) as client:
        table = Table.open(client, timeout=TIMEOUT, wonder_selection="first_game")
        late = ProtocolClient(client, table.game_id, timeout=TIMEOUT)
        chooser = random.Random(5)
        for turn in range(12):
            if turn == 4:
                assert late.join()["type"] == "welcome"
            # The spectator tries the very move the seat to act could make.
            to_act = table.spectator.view["to_act"]  # type: ignore[index]
            move = chooser.choice(table.seats[to_act].view["legal_actions"])  # type: ignore[index]
            for socket in (table.spectator, late) if turn >= 4 else (table.spectator,):
                refusal = socket.act(move["notation"], client_id=f"spectator-{turn}")
                assert refusal == {"type": "error", "code": "spectator", "params": {},
                                   "message": refusal["message"],
                                   "client_id": f"spectator-{turn}"}
            for seat in table.seats:
                assert [m for m in seat.barrier() if m["type"] == "update"] == []
            assert game_summary(client, table.game_id)["version"] == turn

            step = table.step(chooser)
            assert table.spectator.view == as_json(view(table.replica, None))
            assert step.updates["spectator"]["events"] == as_json(events_for(step.events, None))
            if turn >= 4:
                assert late.receive_until("update") == table.expected_update(step, "spectator")
        assert [u["version"] for u in table.spectator.received("update")] == list(range(1, 13))
        assert [u["version"] for u in late.received("update")] == list(range(5, 13))
        late.close()
        table.close()


# ------------------------------------------------------------------------- presence

def _presence(socket: ProtocolClient) -> dict[str, Any]:
    message = socket.receive()
    assert message["type"] == "presence", message
    return message



def test_presence_tells_each_seat_whether_the_other_is_connected(
        make_app: Callable[..., FastAPI]) -> None:
    def presence(seat0: bool, seat1: bool, spectators: int = 0) -> dict[str, Any]:
        return {"type": "presence", "seats": [seat0, seat1], "spectators": spectators}

    with serve(make_app()) as client:
        first, second = new_game(client)
        game_id = first["game_id"]
        seat0 = ProtocolClient(client, game_id, timeout=TIMEOUT)
        assert seat0.join(0, first["token"])["type"] == "welcome"
        assert _presence(seat0) == presence(True, False)

        # A socket that has not joined, or failed to, is nobody.
        lurker = ProtocolClient(client, game_id, timeout=TIMEOUT)
        assert lurker.join(1, first["token"])["code"] == "bad_credentials"
        seat0.assert_nothing_queued(only=("presence",))

        seat1 = ProtocolClient(client, game_id, timeout=TIMEOUT)
        assert seat1.join(1, second["token"])["type"] == "welcome"
        assert _presence(seat1) == presence(True, True)
        assert _presence(seat0) == presence(True, True)

        watcher = ProtocolClient(client, game_id, timeout=TIMEOUT)
        assert watcher.join()["type"] == "welcome"
        for socket in (seat0, seat1, watcher):
            assert _presence(socket) == presence(True, True, 1)

        # Seat 1 goes away: seat 0 (and the spectator) learn it at once.
        seat1.close()
        assert _presence(seat0) == presence(True, False, 1)
        assert _presence(watcher) == presence(True, False, 1)

        # Seat 1 comes back.
        seat1 = ProtocolClient(client, game_id, timeout=TIMEOUT)
        assert seat1.join(1, second["token"])["type"] == "welcome"
        for socket in (seat0, seat1, watcher):
            assert _presence(socket) == presence(True, True, 1)

        # Seat 0 on a second device: closing one of its sockets leaves it connected.
        phone = ProtocolClient(client, game_id, timeout=TIMEOUT)
        assert phone.join(0, first["token"])["type"] == "welcome"
        for socket in (seat0, seat1, watcher, phone):
            assert _presence(socket) == presence(True, True, 1)
        phone.close()
        for socket in (seat0, seat1, watcher):
            assert _presence(socket) == presence(True, True, 1)
        seat0.close()
        assert _presence(seat1) == presence(False, True, 1)
        assert _presence(watcher) == presence(False, True, 1)
        watcher.close()
        assert _presence(seat1) == presence(False, True, 0)
        seat1.assert_nothing_queued(only=("presence",))
        for socket in (lurker, seat1):
            socket.close()


# ------------------------------------------------------------------------- idempotence

def test_an_action_sent_twice_with_one_client_id_is_applied_once(
        make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app()) as client:
        table = Table.open(client, timeout=TIMEOUT, wonder_selection="first_game",
                           first_player="creator")
        seat0, seat1 = table.seats
        move, other_move = seat0.view["legal_actions"][:2]  # type: ignore[index]
        message = {"type": "action", "action": move["notation"], "version": 0,
                   "client_id": "retry-me"}
        seat0.send(message)
        assert seat0.receive_until("ack") == {"type": "ack", "client_id": "retry-me",
                                              "version": 1, "duplicate": False}
        for socket in (seat1, table.spectator):
            assert socket.receive_until("update")["version"] == 1

        # The client did not see the ack (say its connection dropped) and sends it again,
        # as it was or in the action's JSON form.
        for resent in (message, dict(message, action=move["action"])):
            seat0.send(resent)
            assert seat0.receive_until("ack") == {"type": "ack", "client_id": "retry-me",
                                                  "version": 1, "duplicate": True}
        for socket in table.sockets.values():
            assert [m for m in socket.barrier() if m["type"] == "update"] == [], \
                "a duplicate must not be announced again"
            assert len(socket.received("update")) == 1
        assert game_summary(client, table.game_id)["version"] == 1

        # The same id for another action, or from the other seat, is not that action:
        # refused, and nothing applied.
        reused = seat0.act(other_move["notation"], version=1, client_id="retry-me")
        assert reused["type"] == "error" and reused["code"] == "client_id_reused", reused
        legal1 = seat1.view["legal_actions"][0]["notation"]  # type: ignore[index]
        reused = seat1.act(legal1, client_id="retry-me")
        assert reused["type"] == "error" and reused["code"] == "client_id_reused", reused
        assert reused["client_id"] == "retry-me"
        for socket in table.sockets.values():
            assert [m for m in socket.barrier() if m["type"] == "update"] == []
        server, version = server_game(client, table.game_id)
        assert version == 1 and [str(a) for a in server.log] == [move["notation"]]
        assert game_summary(client, table.game_id)["version"] == 1

        # A fresh client id is a new action again.
        reply = seat1.act(legal1, client_id="next")
        assert reply == {"type": "ack", "client_id": "next", "version": 2, "duplicate": False}
        table.close()


# ------------------------------------------------------------------------- reconnecting

ACTIVE = {"status": "active", "rematch": {"offered_by": None, "game_id": None},
          "claim_after": 60.0}
"""What a full state says of an untimed game in progress besides its view."""


def test_reconnecting_returns_exactly_the_missed_versions(
        make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app()) as client:
        table = Table.open(client, timeout=TIMEOUT)
        chooser = random.Random(3)
        token1 = table.credentials[1]["token"]
        for _ in range(4):
            table.step(chooser)
        # Seat 1 also follows the game on a phone, which drops off after version 4.
        phone = ProtocolClient(client, table.game_id, timeout=TIMEOUT)
        welcome = phone.join(1, token1, last_version=4)
        assert welcome == {**ACTIVE, "type": "welcome", "version": 4, "seat": 1,
                           "view": table.seats[1].view, "missed": []}
        phone.close()
        for _ in range(6):
            table.step(chooser)

        def missed(seat: int | None, after: int) -> list[dict[str, Any]]:
            return as_json([{"version": s.version + 1, "events": events_for(s.events, seat)}
                            for s in table.history[after:]])

        phone = ProtocolClient(client, table.game_id, timeout=TIMEOUT)
        welcome = phone.join(1, token1, last_version=4)
        assert welcome == {**ACTIVE, "type": "welcome", "version": 10, "seat": 1,
                           "view": as_json(view(table.replica, 1)), "missed": missed(1, 4)}
        assert [m["version"] for m in welcome["missed"]] == [5, 6, 7, 8, 9, 10]

        # A spectator that saw nothing yet receives every version, filtered for it.
        fan = ProtocolClient(client, table.game_id, timeout=TIMEOUT)
        assert fan.join(last_version=0) == {
            **ACTIVE, "type": "welcome", "version": 10, "seat": None,
            "view": as_json(view(table.replica, None)), "missed": missed(None, 0)}
        # A last_version the game never had: the view alone, no missed.
        assert ProtocolClient(client, table.game_id, timeout=TIMEOUT).join(
            1, token1, last_version=99) == {**ACTIVE, "type": "welcome", "version": 10, "seat": 1,
                                            "view": as_json(view(table.replica, 1))}
        # Without last_version: only the state.
        assert ProtocolClient(client, table.game_id, timeout=TIMEOUT).join() == {
            **ACTIVE, "type": "welcome", "version": 10, "seat": None,
            "view": as_json(view(table.replica, None))}

        # After its welcome the phone is live again: the next move reaches it.
        step = table.step(chooser)
        assert phone.receive_until("update") == table.expected_update(step, "1")
        assert fan.receive_until("update") == table.expected_update(step, "spectator")

        # sync: the state now, with the missed versions when asked for them.
        phone.send({"type": "sync"})
        assert phone.receive_until("state") == {**ACTIVE, "type": "state", "version": 11, "seat": 1,
                                                "view": as_json(view(table.replica, 1))}
        phone.send({"type": "sync", "last_version": 8})
        assert phone.receive_until("state") == {**ACTIVE, "type": "state", "version": 11, "seat": 1,
                                                "view": as_json(view(table.replica, 1)),
                                                "missed": missed(1, 8)}
        table.seats[0].send({"type": "sync", "last_version": 11})
        state = table.seats[0].receive_until("state")
        assert state["version"] == 11 and state["missed"] == []
        assert state["view"] == as_json(view(table.replica, 0))
        table.close()


def test_ping_gets_pong(make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app()) as client:
        first, _ = new_game(client)
        socket = ProtocolClient(client, first["game_id"], timeout=TIMEOUT)
        socket.send({"type": "ping"})  # even before joining
        assert socket.receive() == {"type": "pong"}
        socket.join(0, first["token"])
        socket.barrier()
        socket.send({"type": "ping"})
        assert socket.receive() == {"type": "pong"}
        socket.close()


def test_a_move_made_while_a_client_catches_up_still_reaches_it(
        make_app: Callable[..., FastAPI]) -> None:
    """A client reconnects with its last version; while the server reads what it missed
    (the database answering a little slowly), the opponent moves. The client must hear of
    that move, in its welcome or as an update: otherwise its screen stays one move behind
    until it happens to resynchronise."""
    app = make_app()
    with serve(app) as client:
        table = Table.open(client, timeout=TIMEOUT, wonder_selection="first_game")
        chooser = random.Random(8)
        table.step(chooser)
        table.step(chooser)

        service = app.state.service
        snapshot = service.snapshot
        gate = Gate(client)

        async def slow_snapshot(game_id: str, seen: int, render: Any) -> Any:
            result = await snapshot(game_id, seen, render)  # read from the database ...
            await gate.hold()  # ... whose connection takes a moment to release
            return result

        service.snapshot = slow_snapshot
        phone = ProtocolClient(client, table.game_id, timeout=TIMEOUT)
        phone.send({"type": "join", "last_version": 2})
        gate.wait_reached()
        table.step(chooser)  # the move lands meanwhile
        gate.open()
        welcome = phone.receive_until("welcome")
        told = [m["version"] for m in welcome["missed"]]
        told += [u["version"] for u in phone.barrier() if u["type"] == "update"]
        assert told == [3], f"a client that reconnected at version 2 was told of {told}"
        assert phone.version == 3, "the client's screen is left behind the game"
        table.close()


def test_two_seats_welcomed_while_the_others_are_read_hear_presence_once(
        make_app: Callable[..., FastAPI], monkeypatch: pytest.MonkeyPatch,
        database: Database) -> None:
    """Several processes (PostgreSQL): a process reads what the others have on a game
    before its first socket there hears who is present. The second seat, welcomed while
    that read is under way, is counted in the first telling and told nothing twice."""
    if database.kind != "postgres":
        pytest.skip("one process (SQLite) reads no one else's sockets")
    with serve(make_app()) as client:
        gate = Gate(client)
        read = ServerRegistry.elsewhere

        async def held(self: ServerRegistry, game_ids: list[str]) -> Any:
            await gate.hold()
            return await read(self, game_ids)

        monkeypatch.setattr(ServerRegistry, "elsewhere", held)
        first, second = new_game(client)
        game_id = first["game_id"]
        seat0 = ProtocolClient(client, game_id, timeout=TIMEOUT)
        assert seat0.join(0, first["token"])["type"] == "welcome"
        gate.wait_reached()  # seat 0's process reads the others'
        seat1 = ProtocolClient(client, game_id, timeout=TIMEOUT)
        assert seat1.join(1, second["token"])["type"] == "welcome"
        gate.open()
        for socket in (seat0, seat1):
            assert _presence(socket)["seats"] == [True, True]
        for socket in (seat0, seat1):
            socket.assert_nothing_queued(only=("presence",))
        seat0.close()
        seat1.close()
