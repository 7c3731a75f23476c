"""Clocks and abandonment on the game socket (docs/protocol.md, "Clocks" and "Claiming the
win"): both seats and spectators see the same clocks and the same ending. The time is the
test's (a wall clock it moves), so nothing here waits for it. On SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.factories import (
    ManualWall,
    ProtocolClient,
    browser,
    new_game,
    seated_game,
    serve,
    server_game,
    socket_first_decisions,
)
from tests.realtime.interleaving import manual_clock

TIMEOUT = 10.0
BLITZ = {"kind": "fischer", "minutes": 5, "increment": 3}


def _app(make_app: Callable[..., FastAPI], **settings: Any) -> tuple[FastAPI, ManualWall]:
    app = make_app(**settings)
    wall = app.state.wall = ManualWall()
    return app, wall


def _table(client: TestClient, **options: Any) -> tuple[str, list[ProtocolClient]]:
    """A game with Ann (seat 0, to act), Bob and a spectator on its socket."""
    return seated_game(client, timeout=TIMEOUT, **options)


def _presence(socket: ProtocolClient, seats: list[bool]) -> None:
    """Receive up to the presence showing these seats connected."""
    while socket.receive_until("presence")["seats"] != seats:
        pass


def _sweep(client: TestClient) -> list[str]:
    app = client.app
    assert isinstance(app, FastAPI)
    ended: list[str] = client.portal.call(app.state.flags.sweep)  # type: ignore[union-attr]
    return ended


def test_the_clocks_reach_every_page_and_a_flag_falls_for_everyone(
        make_app: Callable[..., FastAPI]) -> None:
    app, wall = _app(make_app)
    with serve(app) as client:
        game_id, (ann, bob, watcher) = _table(client, time_control=BLITZ)
        welcome = watcher.inbox[0]
        # No clock runs during a first decision, which has its own 30 s.
        assert welcome["clock"] == {"remaining": [300_000, 300_000], "running": None,
                                    "control": BLITZ}
        assert (welcome["first_move"], welcome["abortable"]) == (
            {"seat": 0, "remaining": 30_000}, True)
        assert welcome["claim_after"] == 60
        socket_first_decisions(ann, bob, watcher)
        assert ann.view is not None and ann.view["to_act"] == 0
        heard = next(m for m in reversed(ann.inbox) if m["type"] == "update")
        assert heard["clock"] == {"remaining": [300_000, 300_000], "running": 0}
        assert "abortable" not in heard and "first_move" not in heard
        game, _ = server_game(client, game_id)
        wall.advance(10)
        assert ann.act(game.legal_actions()[0].to_json())["type"] == "ack"
        updates = [ann.inbox[-2]] + [socket.receive_until("update") for socket in (bob, watcher)]
        for update in updates:
            assert update["clock"] == {"remaining": [293_000, 300_000], "running": 1}
        wall.advance(299)
        assert _sweep(client) == []
        wall.advance(1)
        assert _sweep(client) == [game_id]
        for socket in (ann, bob, watcher):
            update = socket.receive_until("update")
            assert update["action"] == {"type": "forfeit", "seat": 1, "reason": "time"}
            assert update["view"]["outcome"] == {**update["view"]["outcome"],
                                                 "winner": 0, "victory": "time"}
            assert update["clock"] == {"remaining": [293_000, 0], "running": None}
        summary = client.get(f"/api/games/{game_id}").json()
        assert (summary["status"], summary["winner"], summary["victory"]) == (
            "finished", 0, "time")


def test_a_move_sent_after_the_flag_fell_is_refused_and_ends_the_game(
        make_app: Callable[..., FastAPI]) -> None:
    app, wall = _app(make_app)
    with serve(app) as client:
        game_id, (ann, bob, watcher) = _table(client, time_control=BLITZ)
        socket_first_decisions(ann, bob, watcher)
        game, _ = server_game(client, game_id)
        wall.advance(300)
        refused = ann.act(game.legal_actions()[0].to_json())
        assert (refused["code"], refused["params"]) == ("time_out", {"seat": 0})
        assert bob.receive_until("update")["view"]["outcome"]["victory"] == "time"


def test_the_win_is_claimed_from_an_opponent_away_long_enough(
        make_app: Callable[..., FastAPI]) -> None:
    app, wall = _app(make_app, abandon_after=30)
    with serve(app) as client:
        game_id, (ann, bob, watcher) = _table(client)
        assert ann.inbox[0]["claim_after"] == 30
        ann.send({"type": "claim_win"})
        error = ann.receive_until("error")
        assert (error["code"], error["params"]) == ("not_abandoned", {"cause": "present"})
        socket_first_decisions(ann, bob, watcher)
        wall.advance(100)  # long at the table: the absence counts from the leaving
        bob.close()
        _presence(ann, [True, False])
        wall.advance(10)
        ann.send({"type": "claim_win"})
        error = ann.receive_until("error")
        assert (error["code"], error["params"]) == (
            "not_abandoned", {"cause": "recent", "wait": 20})
        watcher.send({"type": "claim_win"})
        assert watcher.receive_until("error")["code"] == "spectator"
        wall.advance(20)
        ann.send({"type": "claim_win"})
        for socket in (ann, watcher):
            update = socket.receive_until("update")
            assert update["action"] == {"type": "forfeit", "seat": 1, "reason": "abandoned"}
            assert update["view"]["outcome"]["winner"] == 0
        assert client.get(f"/api/games/{game_id}").json()["victory"] == "abandoned"


def test_a_returning_opponent_or_a_correspondence_game_leaves_no_win_to_claim(
        make_app: Callable[..., FastAPI]) -> None:
    app, wall = _app(make_app, abandon_after=30)
    with serve(app) as client:
        created, joined = new_game(client, first_player="creator")
        game_id = created["game_id"]
        ann = ProtocolClient(browser(client), game_id, timeout=TIMEOUT)
        ann.join(0, created["token"])
        bob = ProtocolClient(browser(client), game_id, timeout=TIMEOUT)
        bob.join(1, joined["token"])
        bob.close()
        _presence(ann, [True, False])
        wall.advance(31)
        bob = ProtocolClient(browser(client), game_id, timeout=TIMEOUT)
        bob.join(1, joined["token"])
        _presence(ann, [True, True])
        ann.send({"type": "claim_win"})
        assert ann.receive_until("error")["params"]["cause"] == "present"

        _, (carl, dora, _) = _table(client, time_control={"kind": "correspondence",
                                                              "days": 3})
        assert "claim_after" not in carl.inbox[0]
        assert carl.inbox[0]["clock"]["control"] == {"kind": "correspondence", "days": 3}
        dora.close()
        wall.advance(3600)
        carl.send({"type": "claim_win"})
        error = carl.receive_until("error")
        assert (error["code"], error["params"]) == (
            "not_abandoned", {"cause": "correspondence"})


def test_a_seat_dropped_as_silent_is_away_from_then(make_app: Callable[..., FastAPI]) -> None:
    """A vanished peer's socket is dropped by the heartbeat, not closed: its seat counts as
    away from the drop, not from some earlier leaving or its joining."""
    app, wall = _app(make_app, abandon_after=30, heartbeat_interval=1.0,
                     heartbeat_timeout=2.5)
    clock = manual_clock(app)
    with serve(app) as client:
        _, (ann, bob, watcher) = _table(client)
        socket_first_decisions(ann, bob, watcher)
        wall.advance(600)  # ten minutes of play
        for _ in range(3):  # Ann keeps talking; Bob's browser is gone without a word
            ann.send({"type": "ping"})
            ann.receive_until("pong")
            clock.advance(1.0)
        _presence(ann, [True, False])
        ann.send({"type": "claim_win"})
        error = ann.receive_until("error")
        assert (error["code"], error["params"]) == (
            "not_abandoned", {"cause": "recent", "wait": 30})
        bob.close()
