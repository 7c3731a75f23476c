"""The sockets of each game in this process: fan-out and presence.

Sending never blocks the game: each connection has an outgoing queue drained by its own
task, so a slow client delays nobody. A client too slow to keep up is disconnected; on
reconnecting it catches up from its last version.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import defaultdict
from typing import Any

from fastapi import WebSocket
from starlette.websockets import WebSocketState

log = logging.getLogger(__name__)

QUEUE_LIMIT = 256
"""Outgoing messages a connection may have waiting before it is dropped as too slow."""


class Connection:
    """One WebSocket: who it is (a seat, or a spectator) and what waits to be sent."""

    def __init__(self, websocket: WebSocket) -> None:
        self.websocket = websocket
        self.joined = False
        self.seat: int | None = None
        self.last_heard = time.monotonic()
        self._queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self._closing = False
        self._held: list[dict[str, Any]] | None = None
        """Updates held back while this client's full state is being prepared."""

    @property
    def audience(self) -> str:
        return "spectator" if self.seat is None else str(self.seat)

    def send(self, message: dict[str, Any]) -> None:
        if self._closing:
            return
        if self._queue.qsize() >= QUEUE_LIMIT:
            log.warning("dropping a client that does not keep up")
            self._queue.put_nowait({"type": "error", "code": "too_slow",
                                    "message": "too many messages waiting; reconnect with "
                                               "your last version to catch up"})
            self.close()
            return
        self._queue.put_nowait(message)

    def hold_updates(self) -> None:
        """From now on keep updates back: a full state for this client is being prepared."""
        if self._held is None:
            self._held = []

    def release_updates(self, version: int) -> None:
        """The full state at ``version`` was sent: send the held updates that are newer."""
        held, self._held = self._held or [], None
        for update in held:
            if update["version"] > version:
                self.send(update)

    def deliver(self, update: dict[str, Any]) -> None:
        """An update for this client, now or after the state being prepared."""
        if self._held is not None:
            self._held.append(update)
        else:
            self.send(update)

    def close(self) -> None:
        """Stop after what is already queued."""
        if not self._closing:
            self._closing = True
            self._queue.put_nowait(None)

    async def write_loop(self) -> None:
        while True:
            message = await self._queue.get()
            if message is None:
                break
            await self.websocket.send_json(message)
        if self.websocket.application_state == WebSocketState.CONNECTED:
            with contextlib.suppress(RuntimeError):
                await self.websocket.close()


class Hub:
    def __init__(self) -> None:
        self._games: defaultdict[str, set[Connection]] = defaultdict(set)

    def attach(self, game_id: str, connection: Connection) -> None:
        """Start delivering the game's updates to ``connection``; call
        :meth:`announce_presence` once it has been welcomed."""
        self._games[game_id].add(connection)

    def detach(self, game_id: str, connection: Connection) -> None:
        connections = self._games.get(game_id)
        if connections is None or connection not in connections:
            return
        connections.discard(connection)
        if connections:
            self.announce_presence(game_id)
        else:
            del self._games[game_id]

    def presence(self, game_id: str) -> dict[str, Any]:
        connections = self._games.get(game_id, set())
        return {
            "type": "presence",
            "seats": [any(c.seat == seat for c in connections) for seat in (0, 1)],
            "spectators": sum(1 for c in connections if c.seat is None),
        }

    async def on_published(self, game_id: str, message: dict[str, Any]) -> None:
        """A committed action: give each connection the update rendered for it."""
        updates = message["updates"]
        for connection in list(self._games.get(game_id, ())):
            connection.deliver(updates[connection.audience])

    def announce_presence(self, game_id: str) -> None:
        message = self.presence(game_id)
        for connection in self._games.get(game_id, ()):
            connection.send(message)
