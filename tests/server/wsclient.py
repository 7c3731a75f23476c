"""A test client that speaks the game protocol over Starlette's test WebSocket."""

from __future__ import annotations

import itertools
from typing import Any

from fastapi.testclient import TestClient

_ids = itertools.count(1)


class ProtocolClient:
    """One socket on one game. Keeps the latest version and view it was sent, and every
    message it received (``inbox``), so tests can assert on all of them."""

    def __init__(self, client: TestClient, game_id: str) -> None:
        self._context = client.websocket_connect(f"/ws/games/{game_id}")
        self.ws = self._context.__enter__()
        self.game_id = game_id
        self.seat: int | None = None
        self.version = 0
        self.view: dict[str, Any] | None = None
        self.inbox: list[dict[str, Any]] = []

    def close(self) -> None:
        self._context.__exit__(None, None, None)

    def __enter__(self) -> ProtocolClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send_json(message)

    def receive(self) -> dict[str, Any]:
        """The next message (server pings are answered and skipped)."""
        while True:
            message = self.ws.receive_json()
            self.inbox.append(message)
            if message["type"] == "ping":
                self.send({"type": "pong"})
                continue
            if message["type"] in ("welcome", "state", "update"):
                self.version = message["version"]
                self.view = message["view"]
            return message

    def receive_until(self, kind: str) -> dict[str, Any]:
        """Messages up to and including the next one of type ``kind``."""
        while True:
            message = self.receive()
            if message["type"] == kind:
                return message

    def join(self, seat: int | None = None, token: str | None = None,
             last_version: int | None = None) -> dict[str, Any]:
        message: dict[str, Any] = {"type": "join"}
        if seat is not None:
            message["seat"] = seat
        if token is not None:
            message["token"] = token
        if last_version is not None:
            message["last_version"] = last_version
        self.send(message)
        reply = self.receive()
        if reply["type"] == "welcome":
            self.seat = seat
        return reply

    def act(self, action: dict[str, Any] | str, version: int | None = None,
            client_id: str | None = None) -> dict[str, Any]:
        """Send an action; returns the ack or the error for it (the update that precedes
        an ack is in the inbox and has set ``version`` and ``view``)."""
        client_id = client_id or f"c{next(_ids)}"
        self.send({"type": "action", "action": action,
                   "version": self.version if version is None else version,
                   "client_id": client_id})
        while True:
            message = self.receive()
            if message["type"] in ("ack", "error") and message.get("client_id") == client_id:
                return message
            if message["type"] == "error" and "client_id" not in message:
                return message


def new_game(client: TestClient, **options: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """Create a game and take the second seat: (creator's credentials, joiner's)."""
    created = client.post("/api/games", json=options)
    assert created.status_code == 201, created.text
    first = created.json()
    joined = client.post(f"/api/games/{first['game_id']}/join",
                         json={"invite_code": first["invite_code"]})
    assert joined.status_code == 200, joined.text
    return first, joined.json()
