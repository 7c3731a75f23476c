"""The lobby in this process: its sockets kept up to date, and the quick-match queue.

Lobby changes arrive on the pub/sub's lobby channel; changes close together are sent as
one update (``lobby_debounce``), the public lists read once for everyone and each
player's own games only when they changed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from typing import Any

from fastapi import WebSocket

from app.realtime.clock import Clock
from app.realtime.hub import Connection
from app.realtime.pubsub import LOBBY_CHANNEL
from app.services.errors import ServiceError
from app.services.games import GameService
from app.services.lobby import LobbyService
from app.services.players import PlayerInfo

log = logging.getLogger(__name__)


class LobbyConnection(Connection):
    """One lobby socket and the player behind it (None: just looking)."""

    def __init__(self, websocket: WebSocket, player: PlayerInfo | None, clock: Clock) -> None:
        super().__init__(websocket, clock)
        self.player = player
        self.joined = True  # a lobby socket needs no join: its session says who it is


class LobbyHub:
    def __init__(self, lobby: LobbyService, *, debounce: float, clock: Clock) -> None:
        self._lobby = lobby
        self._debounce = debounce
        self._clock = clock
        self._connections: set[LobbyConnection] = set()
        self._public_dirty = False
        self._players_dirty: set[str] = set()
        self._flush: asyncio.Task[None] | None = None
        self._sending = asyncio.Lock()
        """Pictures are read and sent one at a time, so that the last picture a socket
        receives is always the most recently read."""

    async def attach(self, connection: LobbyConnection) -> None:
        """Add a socket and send it the lobby as it is now, its first message."""
        async with self._sending:
            self._connections.add(connection)
            player_id = connection.player.player_id if connection.player else None
            own = await self._lobby.own(player_id) if player_id else []
            connection.welcome(self._message(connection, await self._lobby.public(), own))

    def detach(self, connection: LobbyConnection) -> None:
        self._connections.discard(connection)

    async def on_published(self, channel: str, message: dict[str, Any]) -> None:
        if channel != LOBBY_CHANNEL:
            return
        self._public_dirty |= bool(message.get("public"))
        self._players_dirty.update(message.get("players", ()))
        if self._flush is None or self._flush.done():
            self._flush = asyncio.create_task(self._send_changes())

    async def resync(self) -> None:
        """Changes may have been missed (the listener reconnected): send every socket the
        lobby as it is."""
        self._public_dirty = True
        self._players_dirty.update(c.player.player_id for c in self._connections if c.player)
        if self._flush is None or self._flush.done():
            self._flush = asyncio.create_task(self._send_changes())

    async def close(self) -> None:
        if self._flush is not None:
            self._flush.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._flush

    async def _send_changes(self) -> None:
        """Send the changes, round after round while more come: a change published while
        a round reads the lists may have been read too late, so it makes another round."""
        while self._public_dirty or self._players_dirty:
            await self._clock.sleep(self._debounce)
            async with self._sending:
                public_dirty, self._public_dirty = self._public_dirty, False
                players_dirty, self._players_dirty = self._players_dirty, set()
                try:
                    await self._send(public_dirty, players_dirty)
                except Exception:  # the next change sends its part again
                    log.exception("could not send a lobby update")

    async def _send(self, public_dirty: bool, players_dirty: set[str]) -> None:
        if not self._connections:  # nobody is looking: nothing to read
            return
        public = await self._lobby.public()
        own: dict[str, list[dict[str, Any]]] = {}
        for connection in list(self._connections):
            player_id = connection.player.player_id if connection.player else None
            if not public_dirty and player_id not in players_dirty:
                continue
            if player_id is not None and player_id not in own:
                own[player_id] = await self._lobby.own(player_id)
            connection.send(self._message(connection, public,
                                          own.get(player_id, []) if player_id else []))

    @staticmethod
    def _message(connection: LobbyConnection, public: dict[str, list[dict[str, Any]]],
                 own: list[dict[str, Any]]) -> dict[str, Any]:
        return {"type": "lobby",
                "player": connection.player.to_json() if connection.player else None,
                **public, "mine": own}


class QuickMatch:
    """Players waiting for an opponent, longest first. One lock orders every entry, so a
    waiting player is paired once; a player waits at most once (a second tab takes over)."""

    def __init__(self, games: GameService) -> None:
        self._games = games
        self._waiting: OrderedDict[str, LobbyConnection] = OrderedDict()
        self._lock = asyncio.Lock()

    def waiting(self) -> list[PlayerInfo]:
        """The players waiting for an opponent, longest first."""
        return [connection.player for connection in self._waiting.values()
                if connection.player is not None]

    def is_waiting(self, connection: LobbyConnection) -> bool:
        player = connection.player
        return player is not None and self._waiting.get(player.player_id) is connection

    async def enter(self, connection: LobbyConnection) -> None:
        """Queue the connection's player, or pair them with whoever waited longest."""
        player = connection.player
        if player is None:
            raise ServiceError("no_player", "pick a name before playing", 401)
        async with self._lock:
            earlier = self._waiting.pop(player.player_id, None)
            if earlier is not None and earlier is not connection:
                earlier.send({"type": "queue", "state": "idle", "reason": "replaced"})
            if not self._waiting:
                self._waiting[player.player_id] = connection
                connection.send({"type": "queue", "state": "waiting"})
                return
            partner_id, partner = self._waiting.popitem(last=False)
            try:
                game_id = await self._games.create_matched_game(partner_id, player.player_id)
            except Exception as error:
                # The partner keeps their place; the one who just pressed play is told.
                self._waiting[partner_id] = partner
                self._waiting.move_to_end(partner_id, last=False)
                if isinstance(error, ServiceError):
                    raise
                log.exception("could not start a quick-match game")
                raise ServiceError("unavailable", "the game could not be started; press "
                                   "play again", 503) from None
        partner.send({"type": "matched", "game_id": game_id, "seat": 0})
        connection.send({"type": "matched", "game_id": game_id, "seat": 1})

    def leave(self, connection: LobbyConnection) -> bool:
        """Take the connection out of the queue; whether it was in it."""
        if not self.is_waiting(connection):
            return False
        assert connection.player is not None
        del self._waiting[connection.player.player_id]
        return True
