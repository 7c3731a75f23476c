"""The lobby in this process: its sockets kept up to date, and the quick-match queue.

Lobby changes arrive on the pub/sub's lobby channel; changes close together are sent as
one update (``lobby_debounce``), the public lists read once for everyone and each
player's own games only when they changed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import UTC, datetime
from typing import Any

from fastapi import WebSocket
from sqlalchemy import delete, select, text
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import Player, QueueEntry
from app.realtime.clock import Clock
from app.realtime.hub import Connection
from app.realtime.pubsub import LOBBY_CHANNEL, PubSub
from app.services.errors import ServiceError
from app.services.games import GameService
from app.services.lobby import LobbyService
from app.services.players import PlayerInfo
from app.services.servers import ServerRegistry

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


REPLACED = {"type": "queue", "state": "idle", "reason": "replaced"}
"""What a waiting socket hears when the same player took a place from another tab."""
QUEUE_LOCK = 0x5157_4D41_5443_48  # "QWMATCH": the advisory lock of the queue's decisions


class QuickMatch:
    """Players waiting for an opponent, over every process (``queue_entry``), longest
    first; this process keeps the lobby sockets of its own waiting players.

    Each decision (wait, or pair with whoever waited longest) is taken by one transaction
    at a time: a lock in this process, and on PostgreSQL an advisory lock held by the
    deciding transaction, so two players pressing play on two processes at once are paired,
    not both left waiting, and a waiting player is paired once. A player waits at most
    once (a second tab, here or on another process, takes over). A partner waiting on
    another process hears of the game through the lobby topic (``{"matched": ...}``)."""

    def __init__(self, games: GameService, sessions: async_sessionmaker[AsyncSession],
                 registry: ServerRegistry, pubsub: PubSub) -> None:
        self._games = games
        self._sessions = sessions
        self._registry = registry
        self._pubsub = pubsub
        self._local: dict[str, tuple[LobbyConnection, datetime]] = {}
        """Each player waiting here: their lobby socket, and when they entered the queue
        (their row's own mark)."""
        self._lock = asyncio.Lock()
        self._leaving: set[asyncio.Task[None]] = set()

    async def waiting(self) -> list[str]:
        """The names of the players waiting for an opponent, longest first."""
        async with self._sessions() as session:
            rows = await session.execute(
                select(Player.name).join(QueueEntry, QueueEntry.player_id == Player.id)
                .order_by(QueueEntry.entered_at, QueueEntry.player_id))
            return [name for (name,) in rows]

    def is_waiting(self, connection: LobbyConnection) -> bool:
        player = connection.player
        waiting = self._local.get(player.player_id) if player is not None else None
        return waiting is not None and waiting[0] is connection

    async def enter(self, connection: LobbyConnection) -> None:
        """Queue the connection's player, or pair them with whoever waited longest."""
        player = connection.player
        if player is None:
            raise ServiceError("no_player", "pick a name before playing", 401)
        me = player.player_id
        async with self._lock:
            async with self._sessions() as session:
                if session.get_bind().dialect.name == "postgresql":
                    await session.execute(text("SELECT pg_advisory_xact_lock(:key)"),
                                          {"key": QUEUE_LOCK})
                earlier = await session.get(QueueEntry, me)
                if earlier is not None:
                    await session.delete(earlier)
                partner = await session.scalar(
                    select(QueueEntry).where(QueueEntry.player_id != me)
                    .order_by(QueueEntry.entered_at, QueueEntry.player_id).limit(1))
                if partner is None:
                    entered = datetime.now(UTC)
                    session.add(QueueEntry(player_id=me, server_id=self._registry.server_id,
                                           entered_at=entered))
                else:
                    await session.delete(partner)
                    taken = (partner.player_id, partner.server_id, partner.entered_at)
                await session.commit()
            if earlier is not None:
                await self._replaced(me, earlier.server_id, connection)
            if partner is None:
                self._local[me] = (connection, entered)
                connection.send({"type": "queue", "state": "waiting"})
                return
            try:
                game_id = await self._games.create_matched_game(taken[0], me)
            except Exception as error:
                # The partner keeps their place; the one who just pressed play is told.
                await self._give_back(*taken)
                if isinstance(error, ServiceError):
                    raise
                log.exception("could not start a quick-match game")
                raise ServiceError("unavailable", "the game could not be started; press "
                                   "play again", 503) from None
        await self._tell_matched(taken[0], taken[1], game_id, seat=0)
        connection.send({"type": "matched", "game_id": game_id, "seat": 1})

    def leave(self, connection: LobbyConnection) -> bool:
        """Take the connection out of the queue (its place is given up in the background);
        whether it was in it."""
        place = self._take_out(connection)
        if place is None:
            return False
        task = asyncio.create_task(self._forget(*place))
        self._leaving.add(task)
        task.add_done_callback(self._leaving.discard)
        return True

    async def leave_now(self, connection: LobbyConnection) -> bool:
        """As :meth:`leave`, the place given up before it returns."""
        place = self._take_out(connection)
        if place is None:
            return False
        await self._forget(*place)
        return True

    def _take_out(self, connection: LobbyConnection) -> tuple[str, datetime] | None:
        """The connection waits here no more (at once, so nothing tells it of a pairing or
        a takeover): its player and place, if it was waiting."""
        if not self.is_waiting(connection):
            return None
        assert connection.player is not None
        _, entered = self._local.pop(connection.player.player_id)
        return connection.player.player_id, entered

    async def on_published(self, topic: str, message: dict[str, Any]) -> None:
        """A player waiting here was paired on another process, or took their place there."""
        if topic != LOBBY_CHANNEL:
            return
        matched = message.get("matched")
        if matched is not None and matched.get("server") == self._registry.server_id:
            self._stop_waiting(str(matched["player"]), {
                "type": "matched", "game_id": matched["game_id"], "seat": matched["seat"]})
        replaced = message.get("replaced")
        if replaced is not None and replaced.get("server") == self._registry.server_id:
            self._stop_waiting(str(replaced["player"]), REPLACED)

    async def close(self) -> None:
        for task in list(self._leaving):
            with contextlib.suppress(Exception):
                await task

    def _stop_waiting(self, player_id: str, message: dict[str, Any],
                      unless: LobbyConnection | None = None) -> None:
        """The player waits here no more: their socket (unless it is ``unless``) is told
        ``message``."""
        waiting = self._local.pop(player_id, None)
        if waiting is not None and waiting[0] is not unless:
            waiting[0].send(message)

    async def _forget(self, player_id: str, entered: datetime) -> None:
        """Give up the place this server's socket took (not one the same player took again
        since, from another tab, while this waited for the lock)."""
        async with self._lock, self._sessions() as session:
            await session.execute(delete(QueueEntry).where(
                QueueEntry.player_id == player_id,
                QueueEntry.server_id == self._registry.server_id,
                QueueEntry.entered_at == entered))
            await session.commit()

    async def requeue(self) -> None:
        """This server was taken for dead (and its places given up): the players still
        waiting on it take their places again, in the order they came."""
        async with self._lock, self._sessions() as session:
            for player_id, (_, entered) in sorted(self._local.items(), key=lambda e: e[1][1]):
                if await session.get(QueueEntry, player_id) is None:
                    session.add(QueueEntry(player_id=player_id,
                                           server_id=self._registry.server_id,
                                           entered_at=entered))
            await session.commit()

    async def _give_back(self, player_id: str, server_id: str, entered_at: datetime) -> None:
        async with self._sessions() as session:
            session.add(QueueEntry(player_id=player_id, server_id=server_id,
                                   entered_at=entered_at))
            await session.commit()

    async def _replaced(self, player_id: str, server_id: str,
                        connection: LobbyConnection) -> None:
        if server_id != self._registry.server_id:
            await self._pubsub.publish(LOBBY_CHANNEL, {"replaced": {
                "player": player_id, "server": server_id}})
            return
        self._stop_waiting(player_id, REPLACED, unless=connection)

    async def _tell_matched(self, player_id: str, server_id: str, game_id: str, *,
                            seat: int) -> None:
        if server_id == self._registry.server_id:
            self._stop_waiting(player_id, {"type": "matched", "game_id": game_id, "seat": seat})
            return
        await self._pubsub.publish(LOBBY_CHANNEL, {"matched": {
            "player": player_id, "game_id": game_id, "seat": seat, "server": server_id}})
