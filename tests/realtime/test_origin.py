"""Sockets opened by another site's page are refused (docs/protocol.md, "Where a socket
may come from"): a page of evil.example cannot play or read a game, nor the lobby, with
the cookie its visitor's browser sends along. On SQLite alone: the check comes before any
storage."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from app.api.identity import FOREIGN_ORIGIN
from tests.factories import new_game, player, serve

pytestmark = pytest.mark.one_database  # the handshake's origin check comes before any storage

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


@pytest.mark.parametrize("origin", [PUBLIC, "HTTPS://DUEL.EXAMPLE", None])
def test_a_socket_from_this_site_or_not_from_a_browser_opens(
        make_app: Callable[..., FastAPI], origin: str | None) -> None:
    """The public URL's origin, or no Origin at all (a script, not a browser)."""
    with serve(make_app(public_url=PUBLIC)) as client:
        created, _ = new_game(client)
        headers = {} if origin is None else {"origin": origin}
        with client.websocket_connect(f"/ws/games/{created['game_id']}",
                                      headers=headers) as socket:
            socket.send_json({"type": "join"})
            assert socket.receive_json()["type"] == "welcome"
        with client.websocket_connect("/ws/lobby", headers=headers) as socket:
            assert socket.receive_json()["type"] == "lobby"


def _opens(client: TestClient, site: str, origin: str) -> bool:
    """Whether the lobby's socket, asked of ``site``, opens for a page of ``origin``."""
    url = site.replace("http", "ws", 1) + "/ws/lobby"
    try:
        with client.websocket_connect(url, headers={"origin": origin}) as socket:
            return bool(socket.receive_json()["type"] == "lobby")
    except WebSocketDisconnect as refused:
        assert refused.code == FOREIGN_ORIGIN
        return False


@pytest.mark.parametrize(("site", "settings", "opens"), [
    # Development, no public URL: the page's own address, when it cannot be another
    # site's name pointed at this machine (an IP address, localhost) or is allowed.
    ("http://127.0.0.1:9000", {}, True),
    ("http://192.168.1.7:8000", {}, True),
    ("http://[::1]:8000", {}, True),
    ("http://localhost:8000", {}, True),
    ("http://duel.lan:8000", {"allowed_hosts": "duel.lan"}, True),
    ("http://a.duel.lan", {"allowed_hosts": "*.duel.lan"}, True),
    # A rebinding page: evil.example now resolves to this machine, its page asks for it.
    ("http://evil.example:8000", {}, False),
    ("http://evil.example:8000", {"public_url": PUBLIC}, False),
    ("http://evil.example:8000", {"allowed_hosts": "duel.lan"}, False),
    # Production: the allowed hosts alone (the loopback names serve health checks only).
    ("http://duel.lan", {"environment": "production", "allowed_hosts": "duel.lan"}, True),
    ("http://127.0.0.1:8000",
     {"environment": "production", "allowed_hosts": "duel.lan,127.0.0.1"}, True),
    ("http://127.0.0.1:8000", {"environment": "production", "allowed_hosts": "duel.lan"},
     False),
])
def test_a_socket_from_the_page_s_own_address_opens_only_where_no_rebinding_reaches(
        make_app: Callable[..., FastAPI], site: str, settings: dict[str, str],
        opens: bool) -> None:
    with TestClient(make_app(**settings)) as client:
        assert _opens(client, site, site) is opens
        # Another site's page never does, on any address.
        assert not _opens(client, site, "http://elsewhere.example")
