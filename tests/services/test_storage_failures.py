"""When the database fails, or is asked about something it cannot store: a clear
``unavailable`` (503 over HTTP) or ``not_found``, nothing changed, and the socket goes on.

Every test runs on SQLite and on PostgreSQL (the ``make_app`` fixture)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy.exc import OperationalError
from starlette.websockets import WebSocketDisconnect

from tests.factories import (
    LobbyClient,
    ProtocolClient,
    Table,
    admin_login,
    browser,
    new_game,
    play_out,
    player,
    serve,
)

TIMEOUT = 10.0


def _down(*_args: Any, **_kwargs: Any) -> Any:
    raise OperationalError("SELECT 1", {}, ConnectionRefusedError("database is down"))


async def _refused_connection(*_args: Any, **_kwargs: Any) -> Any:
    raise ConnectionRefusedError(111, "Connect call failed")  # as asyncpg raises it


def test_ids_no_game_can_have_are_not_found(make_app: Callable[..., FastAPI]) -> None:
    """PostgreSQL refuses a NUL in text: such an id must not reach it. An id with a NUL is
    refused as an address that can name nothing (400 bad_address, app/api/paths.py); any
    other id no game can have is not found."""
    with serve(make_app()) as client:
        for game_id, status, code in (("a%00b", 400, "bad_address"), ("%00", 400, "bad_address"),
                                      ("x" * 65, 404, "not_found"), ("a%20b", 404, "not_found"),
                                      ("%C3%A9", 404, "not_found")):
            for response in (client.get(f"/api/games/{game_id}"),
                             client.get(f"/api/games/{game_id}/spectate"),
                             client.post(f"/api/games/{game_id}/join",
                                         json={"invite_code": "x"})):
                assert response.status_code == status, (game_id, response.text)
                assert response.json()["error"]["code"] == code
        long_id = "y" * 10_000
        message = client.get(f"/api/games/{long_id}").json()["error"]["message"]
        assert len(message) < 100, "the id is not echoed whole"
        with ProtocolClient(client, "a%20b", timeout=TIMEOUT) as socket:
            error = socket.receive()
            assert (error["type"], error["code"]) == ("error", "not_found"), error
        # A socket at an address with a NUL is refused before its handshake.
        with pytest.raises(WebSocketDisconnect), ProtocolClient(client, "a%00b",
                                                                timeout=TIMEOUT):
            pass


def test_a_move_the_database_could_not_take_can_be_sent_again(
        make_app: Callable[..., FastAPI], monkeypatch: pytest.MonkeyPatch) -> None:
    app = make_app()
    with serve(app) as client:
        table = Table.open(client, timeout=TIMEOUT, wonder_selection="first_game",
                           first_player="creator")
        seat0 = table.seats[0]
        move = seat0.view["legal_actions"][0]["notation"]  # type: ignore[index]
        service = app.state.service
        submit = service.submit
        monkeypatch.setattr(service, "submit", _down)
        error = seat0.act(move, 0, client_id="first-try")
        assert (error["type"], error["code"], error["client_id"]) == \
            ("error", "unavailable", "first-try"), error
        assert client.get(f"/api/games/{table.game_id}").json()["version"] == 0
        assert [m for m in table.seats[1].barrier() if m["type"] == "update"] == []
        # The database is back: the same move goes through, once.
        monkeypatch.setattr(service, "submit", submit)
        assert seat0.act(move, 0, client_id="first-try")["type"] == "ack"
        assert table.seats[1].receive_until("update")["version"] == 1
        table.close()


def test_a_join_the_database_could_not_answer_can_be_sent_again(
        make_app: Callable[..., FastAPI], monkeypatch: pytest.MonkeyPatch) -> None:
    app = make_app()
    with serve(app) as client:
        first, second = new_game(client)
        service = app.state.service
        snapshot = service.snapshot
        monkeypatch.setattr(service, "snapshot", _refused_connection)
        socket = ProtocolClient(client, first["game_id"], timeout=TIMEOUT)
        socket.send({"type": "join", "seat": 0, "token": first["token"]})
        error = socket.receive()
        assert (error["type"], error["code"]) == ("error", "unavailable"), error
        # Not joined: no updates, and the seat is not shown as present.
        socket.send({"type": "sync"})
        assert socket.receive()["code"] == "not_joined"
        monkeypatch.setattr(service, "snapshot", snapshot)
        other = ProtocolClient(client, first["game_id"], timeout=TIMEOUT)
        assert other.join(1, second["token"])["type"] == "welcome"
        assert other.receive_until("presence")["seats"] == [False, True]
        assert socket.join(0, first["token"])["type"] == "welcome"
        assert other.receive_until("presence")["seats"] == [True, True]
        socket.close()
        other.close()


def test_http_answers_503_when_the_database_is_down(
        make_app: Callable[..., FastAPI], monkeypatch: pytest.MonkeyPatch) -> None:
    app = make_app()
    with serve(app) as client:
        game_id = new_game(client)[0]["game_id"]
        for failure in (_down, _refused_connection):
            monkeypatch.setattr(app.state.service, "summary", failure)
            response = client.get(f"/api/games/{game_id}")
            assert response.status_code == 503, response.text
            assert response.json()["error"]["code"] == "unavailable"


def test_a_page_asked_for_while_the_database_is_down_says_so(
        make_app: Callable[..., FastAPI], monkeypatch: pytest.MonkeyPatch) -> None:
    app = make_app()
    with serve(app) as client:
        player(client, "Ann")
        monkeypatch.setattr(app.state.players, "get", _refused_connection)
        for path in ("/", "/games/some-game", "/join/some-game"):
            page = client.get(path)
            assert page.status_code == 503 and "text/html" in page.headers["content-type"]
            assert 'id="unavailable"' in page.text and "Nothing is" in page.text
            assert page.headers["retry-after"] == "5"
        api = client.get("/api/me")
        assert api.status_code == 503 and api.json()["error"]["code"] == "unavailable"


def test_play_while_the_database_is_down_is_unavailable(
        make_app: Callable[..., FastAPI], monkeypatch: pytest.MonkeyPatch) -> None:
    app = make_app()
    with serve(app) as ann:
        player(ann, "Ann")
        with LobbyClient(ann, timeout=TIMEOUT) as socket:
            socket.receive()
            players = app.state.players
            get = players.get
            monkeypatch.setattr(players, "get", _refused_connection)
            socket.send({"type": "play"})
            error = socket.receive_until("error")
            assert error["code"] == "unavailable", error
            monkeypatch.setattr(players, "get", get)
            socket.send({"type": "play"})
            assert socket.receive_until("queue")["state"] == "waiting"


def test_no_rematch_of_an_aborted_game(make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app(admin_password="pw")) as ann:
        bob = browser(ann)
        player(ann, "Ann"), player(bob, "Bob")
        game, _ = new_game(ann, joiner=bob)
        play_out(ann, game["game_id"], keep=5)
        assert admin_login(ann, "pw").status_code == 303
        assert ann.post(f"/admin/api/games/{game['game_id']}/abort",
                        json={"reason": "test"}).status_code == 200
        with ProtocolClient(ann, game["game_id"], timeout=TIMEOUT) as socket:
            assert socket.join()["seat"] == 0
            socket.send({"type": "rematch"})
            error = socket.receive_until("error")
            assert error["code"] == "aborted", error
