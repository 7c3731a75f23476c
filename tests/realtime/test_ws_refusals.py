"""What the game socket refuses: each bad message gets an error with a clear code, changes
nothing (same version, same views over HTTP, no update to anyone), and the socket goes on
working. Heartbeats: silent sockets are closed, live ones are kept.

Every test runs on SQLite and on PostgreSQL (the ``make_app`` fixture)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any, Literal

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from app.engine import WONDERS
from tests.factories import (
    ProtocolClient,
    Table,
    create_game,
    game_summary,
    http_views,
    join_game,
    new_game,
    serve,
)
from tests.realtime.interleaving import ManualClock, manual_clock

TIMEOUT = 10.0
"""Seconds a test waits for an expected message before failing."""

UNREADABLE = ("malformed", "unknown_type", "too_large")
"""Errors for messages that could not be read: they carry no client_id."""


def _snapshot(client: TestClient, game_id: str, tokens: list[str]) -> list[Any]:
    """Everything a refusal must leave as it was, as the HTTP API shows it."""
    return [game_summary(client, game_id), *http_views(client, game_id, tokens)]


class Refusals:
    """Sends bad messages on a game and checks each refusal."""

    def __init__(self, client: TestClient, game_id: str, tokens: list[str],
                 watchers: list[ProtocolClient]) -> None:
        self.client = client
        self.game_id = game_id
        self.tokens = tokens
        self.watchers = watchers
        """Joined sockets that must not hear of anything a refusal did."""

    def check(self, socket: ProtocolClient, payload: dict[str, Any] | str | bytes, code: str,
              *, detail: str | None = None,
              echo: Literal["auto", "yes", "no", "unchecked"] = "auto") -> dict[str, Any]:
        """Send ``payload`` (a dict as JSON text, a str as a text frame as it is, bytes as a
        binary frame); it must be refused with ``code`` and change nothing. ``echo``: the
        error names the action's client_id (``auto``: for an action message, unless the
        message itself could not be read)."""
        before = _snapshot(self.client, self.game_id, self.tokens)
        for watcher in {*self.watchers, socket}:
            watcher.barrier()
        if isinstance(payload, bytes):
            socket.ws.send_bytes(payload)
        elif isinstance(payload, str):
            socket.ws.send_text(payload)
        else:
            socket.send(payload)
        error = socket.receive()
        assert error["type"] == "error" and error["code"] == code, (payload, error)
        assert isinstance(error["message"], str) and error["message"], error
        assert error.get("detail") == detail, error
        if echo == "auto":
            is_action = isinstance(payload, dict) and payload.get("type") == "action"
            echo = "yes" if is_action and code not in UNREADABLE else "no"
        if echo == "yes":  # the client can tell which of its actions was refused
            assert isinstance(payload, dict)
            assert error.get("client_id") == payload["client_id"], error
        elif echo == "no":  # there was no client_id to trust
            assert "client_id" not in error, error
        # Nothing changed, nobody was told of anything, and the socket still answers.
        assert _snapshot(self.client, self.game_id, self.tokens) == before, payload
        for watcher in {*self.watchers, socket}:
            heard = watcher.barrier()
            assert [m for m in heard if m["type"] in ("update", "welcome", "state")] == [], \
                (payload, heard)
        return error


def _action(action: Any, version: int, client_id: str = "c-bad") -> dict[str, Any]:
    return {"type": "action", "action": action, "version": version, "client_id": client_id}


def _table(client: TestClient, **options: Any) -> tuple[Table, Refusals]:
    table = Table.open(client, timeout=TIMEOUT, **options)
    tokens = [c["token"] for c in table.credentials]
    return table, Refusals(client, table.game_id, tokens, list(table.sockets.values()))


# ------------------------------------------------------------------------- unreadable

def test_unreadable_messages_are_refused(make_app: Callable[..., FastAPI]) -> None:
    limit = 256
    with serve(make_app(max_message_bytes=limit)) as client:
        table, refusals = _table(client, wonder_selection="first_game", first_player="creator")
        seat0 = table.seats[0]
        move = seat0.view["legal_actions"][0]["notation"]  # type: ignore[index]
        check = refusals.check

        check(seat0, "{not json", "malformed")
        check(seat0, "", "malformed")
        for not_an_object in ("[1, 2]", "42", "null", '"ping"', "true"):
            check(seat0, not_an_object, "malformed")
        check(seat0, b'{"type": "ping"}', "malformed")  # a binary frame
        check(seat0, {"type": "hello"}, "unknown_type")
        check(seat0, {"type": 7}, "unknown_type")
        check(seat0, {"type": "ACTION"}, "unknown_type")
        error = check(seat0, {"action": move, "version": 0, "client_id": "c-1"},
                      "unknown_type")
        assert "client_id" not in error

        # Missing, extra or ill-typed fields.
        for message in (
            {"type": "action", "action": move, "client_id": "c-1"},
            {"type": "action", "action": move, "version": 0},
            {"type": "action", "version": 0, "client_id": "c-1"},
            {"type": "action", "action": move, "version": 0, "client_id": "c-1", "seat": 1},
            {"type": "action", "action": move, "version": -1, "client_id": "c-1"},
            {"type": "action", "action": move, "version": "zero", "client_id": "c-1"},
            {"type": "action", "action": move, "version": 0, "client_id": ""},
            {"type": "action", "action": move, "version": 0, "client_id": "c" * 65},
            {"type": "action", "action": move, "version": 0, "client_id": "c\u0000"},
            {"type": "action", "action": move, "version": 0, "client_id": "c\n1"},
            {"type": "action", "action": 42, "version": 0, "client_id": "c-1"},
            {"type": "action", "action": None, "version": 0, "client_id": "c-1"},
            {"type": "ping", "extra": True},
            {"type": "sync", "last_version": -1},
            {"type": "join", "seat": 2, "token": "x"},
            {"type": "join", "seat": 0, "token": table.credentials[0]["token"], "as": "admin"},
        ):
            check(seat0, message, "malformed")

        # Too large: counted in UTF-8 bytes, not in characters.
        check(seat0, _action("build:" + "x" * limit, 0), "too_large")
        wide = _action("é" * (limit // 2), 0)
        assert len(json.dumps(wide, ensure_ascii=False)) < limit \
            < len(json.dumps(wide, ensure_ascii=False).encode())
        check(seat0, json.dumps(wide, ensure_ascii=False), "too_large")
        padded = '{"type": "ping"}'
        check(seat0, padded + " " * (limit + 1 - len(padded)), "too_large")
        # ... while a message of exactly the limit is read.
        seat0.ws.send_text(padded + " " * (limit - len(padded)))
        assert seat0.receive() == {"type": "pong"}

        # After all of that the socket plays on.
        assert seat0.act(move, 0, client_id="real")["type"] == "ack"
        assert table.seats[1].receive_until("update")["version"] == 1
        table.close()


def test_ill_typed_fields_are_not_coerced(make_app: Callable[..., FastAPI]) -> None:
    """docs/protocol.md: an ill-typed field is ``malformed``; ``version`` and
    ``last_version`` are integers. A string or a boolean is not taken for a number."""
    with serve(make_app()) as client:
        table, refusals = _table(client, wonder_selection="first_game", first_player="creator")
        seat0 = table.seats[0]
        move = seat0.view["legal_actions"][0]["notation"]  # type: ignore[index]
        for version in ("0", False):
            refusals.check(seat0, _action(move, version, "typed"), "malformed")  # type: ignore[arg-type]
        refusals.check(seat0, {"type": "sync", "last_version": "0"}, "malformed")
        # A number past Python's 4300-digit limit for reading integers, in a message under
        # the size limit.
        refusals.check(seat0, '{"type": "sync", "last_version": ' + "9" * 5000 + "}",
                       "malformed")
        # A lone surrogate is valid JSON but no text any database stores.
        # Refused as unreadable, before any field is looked at: no client_id comes back.
        for lone in (_action(move, 0, "c-\ud800"),
                     _action({"type": "build", "card": "\udfff"}, 0, "c-2")):
            refusals.check(seat0, json.dumps(lone), "malformed")
        newcomer = ProtocolClient(client, table.game_id, timeout=TIMEOUT)
        refusals.check(newcomer, {"type": "join", "seat": "1",
                                  "token": table.credentials[1]["token"]}, "malformed")
        table.close()


# ------------------------------------------------------------------------- joining

def test_joining_is_checked(make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app()) as client:
        first, second = new_game(client, wonder_selection="first_game", first_player="creator")
        other_first, _ = new_game(client)
        game_id = first["game_id"]
        seat1 = ProtocolClient(client, game_id, timeout=TIMEOUT)
        assert seat1.join(1, second["token"])["type"] == "welcome"
        refusals = Refusals(client, game_id, [first["token"], second["token"]], [seat1])
        check = refusals.check
        socket = ProtocolClient(client, game_id, timeout=TIMEOUT)

        # Nothing but join (and ping) before joining.
        check(socket, _action("build:lumber_yard", 0), "not_joined", echo="unchecked")
        check(socket, {"type": "sync"}, "not_joined")
        check(socket, {"type": "sync", "last_version": 0}, "not_joined")

        forged = first["token"][:-2] + ("aa" if not first["token"].endswith("aa") else "bb")
        for join in (
            {"type": "join", "seat": 0, "token": forged},
            {"type": "join", "seat": 1, "token": first["token"]},  # the other seat's token
            {"type": "join", "seat": 0, "token": other_first["token"]},  # another game's
            {"type": "join", "token": first["token"]},  # a token without its seat
            {"type": "join", "seat": 0},  # a seat without a token
            {"type": "join", "seat": 0, "token": ""},
        ):
            check(socket, join, "bad_credentials")
            # A refused join leaves the socket unjoined (not a spectator, not a seat).
            check(socket, {"type": "sync"}, "not_joined")
            check(socket, _action("build:lumber_yard", 0, "c-2"), "not_joined",
                  echo="unchecked")

        welcome = socket.join(0, first["token"])
        assert welcome["type"] == "welcome" and welcome["seat"] == 0
        refusals.watchers.append(socket)

        # One join per socket, whatever the second one says.
        for join in ({"type": "join"}, {"type": "join", "seat": 1, "token": second["token"]},
                     {"type": "join", "seat": 0, "token": first["token"]}):
            check(socket, join, "already_joined")
        # ... and the socket is still seat 0: it plays seat 0's move.
        move = welcome["view"]["legal_actions"][0]["notation"]
        assert socket.act(move, 0, client_id="first-move")["type"] == "ack"
        assert seat1.receive_until("update")["seat"] == 0

        seat1.close()
        socket.close()


def test_an_action_refused_before_joining_names_its_client_id(
        make_app: Callable[..., FastAPI]) -> None:
    """docs/protocol.md: an error answering an action message carries its client_id unless
    the message could not be read; a client matches refusals to its pending actions so."""
    with serve(make_app()) as client:
        first, second = new_game(client)
        socket = ProtocolClient(client, first["game_id"], timeout=TIMEOUT)
        refusals = Refusals(client, first["game_id"], [first["token"], second["token"]], [])
        refusals.check(socket, _action("build:lumber_yard", 0, "pending-1"), "not_joined")
        socket.close()


def test_no_action_before_the_second_player_joins(make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app()) as client:
        created = create_game(client, first_player="creator", wonder_selection="first_game")
        game_id = created["game_id"]
        seat0 = ProtocolClient(client, game_id, timeout=TIMEOUT)
        welcome = seat0.join(0, created["token"])
        assert welcome["type"] == "welcome"
        move = welcome["view"]["legal_actions"][0]["notation"]
        refusals = Refusals(client, game_id, [created["token"]], [seat0])
        refusals.check(seat0, _action(move, 0, "early"), "not_started")
        assert game_summary(client, game_id)["status"] == "waiting"

        join_game(client, created)
        assert seat0.act(move, 0, client_id="on-time")["type"] == "ack"
        assert game_summary(client, game_id)["version"] == 1
        seat0.close()


# ------------------------------------------------------------------------- playing

def test_actions_the_game_refuses(make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app()) as client:
        table, refusals = _table(client, wonder_selection="first_game", first_player="creator")
        check = refusals.check
        seat0, seat1 = table.seats
        view0 = seat0.view
        assert view0 is not None and view0["to_act"] == 0
        legal = [entry["notation"] for entry in view0["legal_actions"]]
        move = legal[0]

        check(table.spectator, _action(move, 0, "s-1"), "spectator")
        check(seat1, _action(move, 0, "t-1"), "not_your_turn")
        check(seat0, _action(move, 1, "v-1"), "stale_version")
        check(seat0, _action(move, 7, "v-2"), "stale_version")

        # Well-formed actions the rules refuse, with the engine's reason.
        structure = [slot for slot in view0["structure"] if slot is not None]
        covered = next(s["card"] for s in structure if s["face_up"] and not s["accessible"])
        check(seat0, _action(f"build:{covered}", 0, "i-1"), "illegal", detail="not_accessible")
        check(seat0, _action({"type": "discard", "card": covered}, 0, "i-2"), "illegal",
              detail="not_accessible")
        check(seat0, _action("progress:law", 0, "i-3"), "illegal", detail="wrong_decision")
        check(seat0, _action("starter:1", 0, "i-4"), "illegal", detail="wrong_decision")
        theirs = view0["players"][1]["wonders"][0]["wonder"]
        accessible = next(s["card"] for s in structure if s["accessible"])
        check(seat0, _action(f"wonder:{theirs}:{accessible}", 0, "i-5"), "illegal",
              detail="not_your_wonder")

        # Not actions at all: unknown ids, types, notations, missing fields.
        for bad in ("build:the_eiffel_tower", {"type": "build", "card": "the_eiffel_tower"},
                    {"type": "teleport", "card": accessible}, {"type": "build"}, "gibberish",
                    "", "build:", {}):
            check(seat0, _action(bad, 0, "m-1"), "malformed", echo="yes")

        # After the first move, the old version is stale for the next seat.
        assert seat0.act(move, 0, client_id="ok-1")["type"] == "ack"
        assert seat1.receive_until("update")["version"] == 1
        assert table.spectator.receive_until("update")["version"] == 1
        move1 = seat1.view["legal_actions"][0]["notation"]  # type: ignore[index]
        check(seat1, _action(move1, 0, "v-3"), "stale_version")
        check(seat0, _action(move1, 1, "t-2"), "not_your_turn")
        assert seat1.act(move1, 1, client_id="ok-2")["type"] == "ack"
        table.close()


def test_a_wonder_not_offered_cannot_be_picked(make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app()) as client:
        table, refusals = _table(client, wonder_selection="draft", first_player="creator")
        seat0 = table.seats[0]
        offer = seat0.view["draft"]["offer"]  # type: ignore[index]
        for wonder in [w.id for w in WONDERS if w.id not in offer][:3]:
            refusals.check(seat0, _action(f"pick:{wonder}", 0, f"p-{wonder}"), "illegal",
                           detail="not_offered")
        assert seat0.act(f"pick:{offer[0]}", 0)["type"] == "ack"
        table.close()


def test_no_action_after_the_game_is_over(make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app()) as client:
        table, refusals = _table(client, wonder_selection="first_game")
        chooser = random.Random(4)
        while not table.replica.is_over:
            table.step(chooser)
        last = table.history[-1]
        final = last.version + 1
        late_move = last.choice["notation"]
        for seat in table.seats:
            refusals.check(seat, _action(late_move, final, f"late-{seat.seat}"), "game_over")
            refusals.check(seat, _action("build:lumber_yard", final, "late"), "game_over")
        refusals.check(table.spectator, _action(late_move, final, "late-s"), "spectator")
        # The finished game can still be read over the socket.
        table.seats[0].send({"type": "sync"})
        state = table.seats[0].receive_until("state")
        assert state["version"] == final and state["view"]["outcome"] is not None
        table.close()


def test_a_socket_to_an_unknown_game_is_told_and_closed(
        make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app()) as client:
        socket = ProtocolClient(client, "no-such-game", timeout=TIMEOUT)
        error = socket.receive()
        assert error["type"] == "error" and error["code"] == "not_found", error
        with pytest.raises(WebSocketDisconnect):
            socket.receive()
        socket.close()
        # The server is fine: a real game still works.
        first, _ = new_game(client)
        fine = ProtocolClient(client, first["game_id"], timeout=TIMEOUT)
        assert fine.join(0, first["token"])["type"] == "welcome"
        fine.close()


# ------------------------------------------------------------------------- heartbeats
# The server's timers run on a clock the test moves (tests/realtime/interleaving.py): each
# ``advance`` runs the ticks it passes before returning, so no test waits for real time.

INTERVAL, SILENCE = 1.0, 3.0
"""Heartbeat settings of these tests, in seconds of the manual clock."""


def _heartbeat_app(make_app: Callable[..., FastAPI], **settings: float) -> tuple[FastAPI,
                                                                                ManualClock]:
    app = make_app(heartbeat_interval=INTERVAL, heartbeat_timeout=SILENCE, **settings)
    return app, manual_clock(app)


def _closed(socket: ProtocolClient) -> None:
    with pytest.raises(WebSocketDisconnect):
        socket.receive_json(timeout=TIMEOUT)


def test_a_socket_answering_pings_stays_connected(make_app: Callable[..., FastAPI]) -> None:
    app, clock = _heartbeat_app(make_app)
    with serve(app) as client:
        first, _ = new_game(client)
        lively = ProtocolClient(client, first["game_id"], timeout=TIMEOUT)
        assert lively.join(0, first["token"])["type"] == "welcome"
        assert lively.receive()["type"] == "presence"
        start = len(lively.inbox)
        for _ in range(10):  # over three times the timeout
            clock.advance(INTERVAL)
            # The tick's ping came before the barrier's pong; receive() answered it.
            assert lively.barrier() == []
        assert [m["type"] for m in lively.inbox[start:]] == ["ping", "pong"] * 10
        lively.send({"type": "sync"})
        assert lively.receive_until("state")["seat"] == 0
        lively.close()


def test_a_silent_socket_is_pinged_then_closed(make_app: Callable[..., FastAPI]) -> None:
    app, clock = _heartbeat_app(make_app)
    with serve(app) as client:
        first, _ = new_game(client)
        silent = ProtocolClient(client, first["game_id"], timeout=TIMEOUT)
        silent.send({"type": "join", "seat": 0, "token": first["token"]})  # heard at 0 s
        assert [silent.receive_json(timeout=TIMEOUT)["type"] for _ in range(2)] == [
            "welcome", "presence"]
        for second in (1, 2, 3):  # pinged while silent for no more than the timeout
            clock.advance(INTERVAL)
            assert silent.receive_json(timeout=TIMEOUT) == {"type": "ping"}, second
        clock.advance(INTERVAL)
        error = silent.receive_json(timeout=TIMEOUT)
        assert error["type"] == "error" and error["code"] == "timeout", error
        _closed(silent)
        silent.close()


def test_the_opponent_is_told_when_a_silent_socket_is_dropped(
        make_app: Callable[..., FastAPI]) -> None:
    """The heartbeat is there for peers that vanish without closing (a dropped network):
    once the server gives up on seat 0's socket, seat 1's presence must show seat 0 gone,
    without waiting for the dead peer to complete a close."""
    app, clock = _heartbeat_app(make_app)
    with serve(app) as client:
        first, second = new_game(client)
        silent = ProtocolClient(client, first["game_id"], timeout=TIMEOUT)
        assert silent.join(0, first["token"])["type"] == "welcome"
        lively = ProtocolClient(client, first["game_id"], timeout=TIMEOUT)
        assert lively.join(1, second["token"])["type"] == "welcome"
        assert lively.receive()["seats"] == [True, True]
        for _ in range(3):
            clock.advance(INTERVAL)
            assert lively.barrier() == [], "seat 0 is gone before its timeout"
        clock.advance(INTERVAL)  # seat 0 has been silent for longer than the timeout
        # (Told once the seat's departure is written: its opponent may then claim the win.)
        assert lively.receive_until("presence")["seats"] == [False, True]
        lively.close()
        silent.close()


def test_a_socket_that_never_joins_is_closed(make_app: Callable[..., FastAPI]) -> None:
    """Talking is not enough: a socket must join within the join timeout. Until it is
    welcomed it is not pinged (docs/protocol.md, "The first message")."""
    app, clock = _heartbeat_app(make_app, join_timeout=2 * INTERVAL)
    with serve(app) as client:
        first, _ = new_game(client)
        socket = ProtocolClient(client, first["game_id"], timeout=TIMEOUT)
        assert socket.barrier() == []  # opened, its timer started: the clock reads 0
        for _ in range(2):
            clock.advance(INTERVAL)
            assert socket.barrier() == [], "closed before the join timeout"
        clock.advance(INTERVAL)
        error = socket.receive_json(timeout=TIMEOUT)
        assert error["type"] == "error" and error["code"] == "timeout", error
        assert "join" in error["message"], error
        _closed(socket)
        assert "ping" not in [m["type"] for m in socket.inbox], socket.inbox
        socket.close()


def test_a_socket_that_joined_in_time_stays(make_app: Callable[..., FastAPI]) -> None:
    app, clock = _heartbeat_app(make_app, join_timeout=2 * INTERVAL)
    with serve(app) as client:
        first, _ = new_game(client)
        socket = ProtocolClient(client, first["game_id"], timeout=TIMEOUT)
        assert socket.barrier() == []
        clock.advance(INTERVAL)
        assert socket.join(0, first["token"])["type"] == "welcome"
        for _ in range(4):  # past the join timeout, answering the pings that now come
            clock.advance(INTERVAL)
            socket.barrier()
        assert [m["type"] for m in socket.inbox].count("ping") == 4, socket.inbox
        socket.close()
