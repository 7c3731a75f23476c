"""Resigning and taking back on the game socket (docs/protocol.md, "resign" and
"Take-backs"): two seats and a spectator see the same thing. On SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable

from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.factories import (
    ProtocolClient,
    browser,
    seated_game,
    serve,
    server_game,
    socket_first_decisions,
)

TIMEOUT = 10.0


def _table(client: TestClient) -> tuple[str, list[ProtocolClient]]:
    """A game with Ann (seat 0, to act), Bob and a spectator on its socket."""
    return seated_game(client, timeout=TIMEOUT)


def test_a_seat_resigns_out_of_turn(make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app()) as client:
        _, (ann, bob, watcher) = _table(client)
        assert watcher.view is not None and ann.view is not None
        watcher.send({"type": "resign"})
        assert watcher.receive_until("error")["code"] == "spectator"
        bob.send({"type": "resign"})  # before both decided, nothing is at stake
        assert bob.receive_until("error")["code"] == "abort_instead"
        socket_first_decisions(ann, bob, watcher)
        bob.send({"type": "resign"})  # Ann is to act
        for socket in (ann, bob, watcher):
            update = socket.receive_until("update")
            assert (update["seat"], update["action"]) == (
                1, {"type": "forfeit", "seat": 1, "reason": "resigned"})
            assert update["view"]["outcome"]["winner"] == 0
            assert update["view"]["outcome"]["victory"] == "resigned"
        bob.send({"type": "resign"})
        assert bob.receive_until("error")["code"] == "game_over"
        refused = ann.act({"type": "forfeit", "seat": 0, "reason": "time"})
        assert refused["code"] == "malformed"


def test_a_take_back_offered_accepted_and_seen_by_everyone(
        make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app()) as client:
        game_id, (ann, bob, watcher) = _table(client)
        game, _ = server_game(client, game_id)
        discard = next(a for a in game.legal_actions() if a.TYPE == "discard")
        before = ann.view
        assert ann.act(discard.to_json())["type"] == "ack"
        for socket in (bob, watcher):
            socket.receive_until("update")

        bob.send({"type": "take_back"})  # not Bob's action
        error = bob.receive_until("error")
        assert (error["code"], error["params"]["detail"]) == ("illegal", "cannot_take_back")
        ann.send({"type": "take_back"})
        for socket in (ann, bob, watcher):
            assert socket.receive_until("take_back") == {
                "type": "take_back", "offered_by": 0, "version": 1}
        late = ProtocolClient(browser(client), game_id, timeout=TIMEOUT)
        assert late.join()["take_back_offer"] == 0  # a socket joining now sees the offer

        bob.send({"type": "accept_take_back"})
        for socket in (ann, bob, watcher, late):
            update = socket.receive_until("update")
            assert update["action"] == {"type": "take_back", "seat": 0}
            assert update["events"] == [
                {"type": "taken_back", "seat": 0, "action": str(discard)}]
        assert ann.view == {**before, "legal_actions": ann.view["legal_actions"]}
        assert ann.view["to_act"] == 0 and ann.version == 2  # discarded, taken back
        bob.send({"type": "accept_take_back"})
        assert bob.receive_until("error")["code"] == "no_take_back"
        assert "take_back_offer" not in ProtocolClient(
            browser(client), game_id, timeout=TIMEOUT).join()


def test_a_take_back_declined(make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app()) as client:
        game_id, (ann, bob, watcher) = _table(client)
        game, _ = server_game(client, game_id)
        discard = next(a for a in game.legal_actions() if a.TYPE == "discard")
        ann.act(discard.to_json())
        ann.send({"type": "take_back"})
        offer = {"type": "take_back", "offered_by": 0, "version": 1}
        assert bob.receive_until("take_back") == offer
        bob.send({"type": "decline_take_back"})
        for socket in (ann, watcher):
            assert socket.receive_until("take_back") == offer
        for socket in (ann, bob, watcher):
            assert socket.receive_until("take_back") == {
                "type": "take_back", "offered_by": None, "declined_by": 1, "version": 1}
        ann.send({"type": "decline_take_back"})
        assert ann.receive_until("error")["code"] == "no_take_back"
        watcher.send({"type": "take_back"})
        assert watcher.receive_until("error")["code"] == "spectator"
