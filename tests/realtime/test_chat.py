"""The game's chat (docs/protocol.md, "Chat"): the players' channel, read by everyone on
the game; the spectators' channel, read by spectators only; the refusals; what is kept.
On SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable

from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select

from app.db.models import ChatMessage
from tests.factories import (
    Database,
    ProtocolClient,
    admin_login,
    browser,
    player,
    seated_game,
    serve,
)
from tests.realtime.interleaving import manual_clock

TIMEOUT = 10.0


def _table(client: TestClient) -> tuple[str, list[ProtocolClient]]:
    """Ann (seat 0), Bob (seat 1) and two spectators, one with a player name."""
    game_id, sockets = seated_game(client, timeout=TIMEOUT)
    named = browser(client)
    player(named, "Cleo")
    sockets.append(ProtocolClient(named, game_id, timeout=TIMEOUT))
    sockets[3].join()
    return game_id, sockets


def _said(socket: ProtocolClient) -> dict[str, object]:
    message = socket.receive_until("chat")["message"]
    return {k: v for k, v in message.items() if k not in ("id", "at")}


def test_players_talk_and_everyone_reads_the_spectators_talk_among_themselves(
        make_app: Callable[..., FastAPI], database: Database) -> None:
    with serve(make_app(admin_password="chat-admin")) as client:
        game_id, (ann, bob, watcher, cleo) = _table(client)
        # (The seats were taken with no name: the page names them "Player 1" and "2".)
        first = {"channel": "players", "seat": 0, "name": None, "text": "Good luck, Bob!"}
        second = {"channel": "players", "seat": 1, "name": None, "phrase": "good_luck"}
        ann.send({"type": "chat", "channel": "players", "text": "  Good\nluck,\tBob!  "})
        assert _said(bob) == first
        bob.send({"type": "chat", "channel": "players", "phrase": "good_luck"})
        assert _said(bob) == second
        for socket in (ann, watcher, cleo):
            assert [_said(socket), _said(socket)] == [first, second]

        cleo.send({"type": "chat", "channel": "spectators", "text": "<b>Bob</b> will lose"})
        for socket in (watcher, cleo):
            assert _said(socket) == {"channel": "spectators", "seat": None, "name": "Cleo",
                                     "text": "<b>Bob</b> will lose"}  # text, as written
        for seat in (ann, bob):
            seat.assert_nothing_queued(only=("chat",))

        # What each socket may read, asked again (a page opening its chat).
        watcher.send({"type": "chat_history"})
        assert [m["channel"] for m in watcher.receive_until("chat_history")["messages"]] == [
            "players", "players", "spectators"]
        ann.send({"type": "chat_history"})
        assert [m.get("text", m.get("phrase")) for m in
                ann.receive_until("chat_history")["messages"]] == ["Good luck, Bob!",
                                                                    "good_luck"]
        kept = client.portal.call(database.read, select(ChatMessage).where(
            ChatMessage.game_id == game_id).order_by(ChatMessage.id))
        assert [(m.channel, m.seat) for m in kept] == [
            ("players", 0), ("players", 1), ("spectators", None)]

        # The admin reads both channels, the markup as text.
        admin = browser(client)
        assert admin_login(admin, "chat-admin").status_code == 303
        detail = admin.get(f"/admin/api/games/{game_id}").json()
        assert [m.get("text", m.get("phrase")) for m in detail["chat"]] == [
            "Good luck, Bob!", "good_luck", "<b>Bob</b> will lose"]
        page = admin.get(f"/admin/games/{game_id}").text
        assert "&lt;b&gt;Bob&lt;/b&gt; will lose" in page and "<b>Bob</b>" not in page


def test_chat_refusals_change_nothing(make_app: Callable[..., FastAPI]) -> None:
    app = make_app(chat_burst=3, chat_burst_seconds=10, chat_max_length=20)
    clock = manual_clock(app)
    with serve(app) as client:
        _, (ann, bob, watcher, _cleo) = _table(client)

        def refused(socket: ProtocolClient, message: dict[str, object]) -> dict[str, object]:
            socket.send({"type": "chat", **message})
            error = socket.receive_until("error")
            return {"code": error["code"], **error["params"]}

        assert refused(ann, {"channel": "players", "text": " \n\t "}) == {"code": "chat_empty"}
        assert refused(ann, {"channel": "players"}) == {"code": "chat_empty"}
        assert refused(ann, {"channel": "players", "text": "x" * 21}) == {
            "code": "chat_too_long", "max": 20}
        assert refused(ann, {"channel": "players", "phrase": "you_lose"})["code"] == \
            "malformed"
        # A stranger to the players' table, and a player in the gallery.
        assert refused(watcher, {"channel": "players", "text": "hi"}) == {
            "code": "chat_not_yours", "channel": "players"}
        assert refused(bob, {"channel": "spectators", "text": "hi"}) == {
            "code": "chat_not_yours", "channel": "spectators"}
        for n in range(3):
            ann.send({"type": "chat", "channel": "players", "text": f"{n}"})
        assert refused(ann, {"channel": "players", "text": "one more"}) == {
            "code": "chat_too_fast", "retry_after": 10}
        bob.send({"type": "chat", "channel": "players", "text": "my turn to talk"})
        assert [_said(bob)["text"] for _ in range(4)] == ["0", "1", "2", "my turn to talk"]
        clock.advance(10)
        ann.send({"type": "chat", "channel": "players", "text": "again"})
        while ann.receive_until("chat")["message"].get("text") != "again":
            pass
        assert [m["message"]["text"] for m in ann.received("chat")] == [
            "0", "1", "2", "my turn to talk", "again"]
