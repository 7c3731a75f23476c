"""The lobby: ``GET /api/lobby`` and its live socket ``/ws/lobby`` (``docs/lobby.md``)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from fastapi import APIRouter, Request, WebSocket

from app.clock import Clock
from app.config import Settings
from app.realtime import messages
from app.realtime.hub import forget_cancellation, keep_alive, next_message
from app.realtime.limits import Pace
from app.realtime.lobby import LobbyConnection, LobbyHub, QuickMatch
from app.realtime.protocol import (
    Cancel,
    Ping,
    Play,
    ProtocolError,
    error_message,
    parse_lobby_message,
    refusal_message,
)
from app.services.errors import STORAGE_ERRORS, UNAVAILABLE, ServiceError
from app.services.lobby import LobbyService
from app.services.players import PlayerService

from .clients import serve_admitted
from .identity import FOREIGN_ORIGIN, player_id_of, same_site_origin, session_holds
from .refusals import refusals

router = APIRouter(tags=["lobby"])
log = logging.getLogger(__name__)


@router.get("/api/lobby", responses=refusals())
async def lobby(request: Request) -> dict[str, Any]:
    """What the lobby shows: ``open`` games to join, ``live`` games to watch and, with a
    player session, ``mine``."""
    service: LobbyService = request.app.state.lobby
    players: PlayerService = request.app.state.players
    player = await players.get(player_id_of(request))
    own = await service.own(player.player_id) if player else []
    return {"player": player.to_json() if player else None, **await service.public(),
            "mine": own}


@router.websocket("/ws/lobby")
async def lobby_socket(websocket: WebSocket) -> None:
    if not same_site_origin(websocket, websocket.app.state.settings):
        await websocket.close(code=FOREIGN_ORIGIN)  # before the handshake: HTTP 403
        return
    await serve_admitted(websocket, lambda: _serve_lobby(websocket))


async def _serve_lobby(websocket: WebSocket) -> None:
    players: PlayerService = websocket.app.state.players
    clock: Clock = websocket.app.state.clock
    player = await players.get(player_id_of(websocket))
    connection = LobbyConnection(websocket, player, clock)
    settings: Settings = websocket.app.state.settings
    connection.pace = Pace(clock, burst=settings.socket_burst, rate=settings.socket_rate)
    await LobbySocket(websocket, connection).run()


class LobbySocket:
    def __init__(self, websocket: WebSocket, connection: LobbyConnection) -> None:
        self.websocket = websocket
        self.connection = connection
        self.hub: LobbyHub = websocket.app.state.lobby_hub
        self.queue: QuickMatch = websocket.app.state.quick_match
        self.players: PlayerService = websocket.app.state.players
        self.settings: Settings = websocket.app.state.settings

    async def run(self) -> None:
        connection = self.connection
        writer = asyncio.create_task(connection.write_loop())
        watchdog = asyncio.create_task(keep_alive(
            connection, interval=self.settings.heartbeat_interval,
            timeout=self.settings.heartbeat_timeout, join_timeout=None, on_drop=self._leave))
        watchdog.add_done_callback(forget_cancellation)
        try:
            await self.hub.attach(connection)  # the first picture; pings only after it
            await self._serve()
        finally:
            watchdog.cancel()
            self._leave()
            connection.close()
            with contextlib.suppress(Exception):
                await writer

    def _leave(self) -> None:
        """Leaving the page leaves the queue."""
        self.queue.leave(self.connection)
        self.hub.detach(self.connection)

    async def _serve(self) -> None:
        limit = self.settings.max_message_bytes
        while True:
            try:
                message = await next_message(self.websocket, self.connection, limit=limit,
                                             parse=parse_lobby_message)
                if message is None:
                    return
                if not isinstance(message, Ping) and not await session_holds(self.websocket):
                    self.connection.send(error_message(
                        "session_ended", "this browser's login has ended: log in again"))
                    self.connection.close()
                    return
                await self._handle_safely(message)
            except (ProtocolError, ServiceError) as error:
                self.connection.send(refusal_message(error))

    async def _handle_safely(self, message: Play | Cancel | Ping | Any) -> None:
        try:
            await self._handle(message)
        except STORAGE_ERRORS as error:  # nothing was changed; the player may press again
            log.error("storage failure on a lobby socket", exc_info=error)
            self.connection.send(error_message("unavailable", UNAVAILABLE))

    async def _handle(self, message: Play | Cancel | Ping | Any) -> None:
        connection = self.connection
        if isinstance(message, Ping):
            connection.send(messages.Pong())
        elif isinstance(message, Play):
            # The name may have changed, or the player be unknown to this database.
            connection.player = await self.players.get(
                connection.player.player_id if connection.player else None)
            await self.queue.enter(connection, rated=message.rated)
        elif isinstance(message, Cancel):
            await self.queue.leave_now(connection)
            connection.send(messages.Queue(state="idle"))
