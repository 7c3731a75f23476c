"""Sockets opened by another site's page are refused (docs/protocol.md, "Where a socket
may come from"): a page of evil.example cannot play or read a game, nor the lobby, with
the cookie its visitor's browser sends along. On SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from fastapi import FastAPI
from starlette.websockets import WebSocketDisconnect

from app.api.identity import FOREIGN_ORIGIN
from tests.factories import new_game, player, serve

PUBLIC = "https://duel.example"


@pytest.mark.parametrize("origin", ["https://evil.example", "http://duel.example",
                                    "https://duel.example.evil.example", "null"])
def test_a_socket_from_another_site_is_refused_before_the_handshake(
        make_app: Callable[..., FastAPI], origin: str) -> None:
    with serve(make_app(public_url=PUBLIC)) as client:
        player(client, "Ann")
        created, _ = new_game(client)
        for path in (f"/ws/games/{created['game_id']}", "/ws/lobby"):
            with pytest.raises(WebSocketDisconnect) as refused, \
                    client.websocket_connect(path, headers={"origin": origin}):
                pass
            assert refused.value.code == FOREIGN_ORIGIN, path


@pytest.mark.parametrize("origin", [PUBLIC, "HTTPS://DUEL.EXAMPLE", "http://testserver",
                                    None])
def test_a_socket_from_this_site_or_not_from_a_browser_opens(
        make_app: Callable[..., FastAPI], origin: str | None) -> None:
    """The public URL's origin, the origin the browser reached the server at (its Host),
    or no Origin at all (a script, not a browser)."""
    with serve(make_app(public_url=PUBLIC)) as client:
        created, _ = new_game(client)
        headers = {} if origin is None else {"origin": origin}
        with client.websocket_connect(f"/ws/games/{created['game_id']}",
                                      headers=headers) as socket:
            socket.send_json({"type": "join"})
            assert socket.receive_json()["type"] == "welcome"
        with client.websocket_connect("/ws/lobby", headers=headers) as socket:
            assert socket.receive_json()["type"] == "lobby"
