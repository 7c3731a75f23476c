"""The lobby in this process: its sockets kept up to date, and the quick-match queue.

Lobby changes arrive on the pub/sub's lobby channel; changes close together are sent as
one update (``lobby_debounce``), the public lists read once for everyone and each
player's own games only when they changed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import datetime
from typing import Any

from fastapi import WebSocket
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.clock import Clock
from app.db.pubsub import PubSub
from app.realtime.hub import Connection
from app.realtime.messages import Lobby, LobbyEntry, Matched, Queue, ServerMessage
from app.services.errors import ServiceError
from app.services.games import GameService, rated_needs_account
from app.services.lobby import LobbyService
from app.services.matchmaking import MatchmakingService, Place
from app.services.notices import LOBBY_CHANNEL, LobbyChanged, read_lobby_notice
from app.services.notices import Matched as PlayerMatched
from app.services.notices import Replaced as PlaceReplaced
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
            connection.welcome(self._message(connection, await self._public(), own))

    def detach(self, connection: LobbyConnection) -> None:
        self._connections.discard(connection)

    def socket_count(self) -> int:
        """The lobby sockets of this process."""
        return len(self._connections)

    async def on_published(self, channel: str, message: dict[str, Any]) -> None:
        changed = read_lobby_notice(message) if channel == LOBBY_CHANNEL else None
        if not isinstance(changed, LobbyChanged):
            return
        self._public_dirty |= changed.public
        self._players_dirty.update(changed.players)
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
        public = await self._public()
        own: dict[str, list[dict[str, Any]]] = {}
        for connection in list(self._connections):
            player_id = connection.player.player_id if connection.player else None
            if not public_dirty and player_id not in players_dirty:
                continue
            if player_id is not None and player_id not in own:
                own[player_id] = await self._lobby.own(player_id)
            connection.send(self._message(connection, public,
                                          own.get(player_id, []) if player_id else []))

    async def _public(self) -> dict[str, list[LobbyEntry]]:
        """The public lists, read and typed once for every socket."""
        return {name: [LobbyEntry.model_validate(entry) for entry in entries]
                for name, entries in (await self._lobby.public()).items()}

    @staticmethod
    def _message(connection: LobbyConnection, public: dict[str, list[LobbyEntry]],
                 own: list[dict[str, Any]]) -> Lobby:
        return Lobby.model_validate({
            "player": connection.player.to_json() if connection.player else None,
            "open": public["open"], "live": public["live"], "mine": own})


REPLACED = Queue(state="idle", reason="replaced")
"""What a waiting socket hears when the same player took a place from another tab."""


class QuickMatch:
    """Quick match on the lobby sockets of this process: the queue's rules are
    :class:`MatchmakingService`'s; here, the sockets of the players waiting here, and what
    they are told. A partner waiting on another process hears of the game through the
    lobby topic (``{"matched": ...}``), a player whose place another tab took over there
    through ``{"replaced": ...}``."""

    def __init__(self, games: GameService, sessions: async_sessionmaker[AsyncSession],
                 registry: ServerRegistry, pubsub: PubSub) -> None:
        self._games = games
        self._queue = MatchmakingService(sessions)
        self._registry = registry
        self._pubsub = pubsub
        self._local: dict[str, tuple[LobbyConnection, Place]] = {}
        """Each player waiting here: their lobby socket, and their place in the queue."""
        self._lock = asyncio.Lock()
        """This process's decisions one at a time (the database orders those of all)."""
        self._background: set[asyncio.Task[None]] = set()

    async def waiting(self) -> list[str]:
        """The names of the players waiting for an opponent, longest first."""
        return await self._queue.waiting()

    def waiting_here(self) -> int:
        """The players waiting on this process's sockets."""
        return len(self._local)

    def is_waiting(self, connection: LobbyConnection) -> bool:
        player = connection.player
        waiting = self._local.get(player.player_id) if player is not None else None
        return waiting is not None and waiting[0] is connection

    async def enter(self, connection: LobbyConnection, *, rated: bool = False) -> None:
        """Queue the connection's player, or pair them (MatchmakingService's rules); a
        ``rated`` game is for accounts."""
        player = connection.player
        if player is None:
            raise ServiceError("no_player", "pick a name before playing", 401)
        if rated and player.username is None:
            raise rated_needs_account()
        me = player.player_id
        async with self._lock:
            decision = await self._queue.play(me, self._registry.server_id, rated=rated)
            if decision.replaced is not None:
                await self._replaced(decision.replaced, connection)
            partner = decision.partner
            if partner is None:
                assert decision.place is not None
                self._local[me] = (connection, decision.place)
                connection.send(Queue(state="waiting", rated=rated or None))
                return
            try:
                game_id = await self._games.create_matched_game(partner.player_id, me,
                                                                rated=rated)
            except Exception as error:
                # The partner keeps their place; the one who just pressed play is told.
                await self._queue.give_back(partner)
                if isinstance(error, ServiceError):
                    raise
                log.exception("could not start a quick-match game")
                raise ServiceError("unavailable", "the game could not be started; press "
                                   "play again", 503) from None
        await self._tell_matched(partner, game_id, seat=0)
        connection.send(Matched(game_id=game_id, seat=1))

    def leave(self, connection: LobbyConnection) -> bool:
        """Take the connection out of the queue (its place is given up in the background);
        whether it was in it."""
        place = self._take_out(connection)
        if place is None:
            return False
        task = asyncio.create_task(self._forget(place))
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        return True

    async def leave_now(self, connection: LobbyConnection) -> bool:
        """As :meth:`leave`, the place given up before it returns."""
        place = self._take_out(connection)
        if place is None:
            return False
        await self._forget(place)
        return True

    def _take_out(self, connection: LobbyConnection) -> Place | None:
        """The connection waits here no more (at once, so nothing tells it of a pairing or
        a takeover): its place, if it was waiting."""
        if not self.is_waiting(connection):
            return None
        assert connection.player is not None
        return self._local.pop(connection.player.player_id)[1]

    async def on_published(self, topic: str, message: dict[str, Any]) -> None:
        """A player waiting here was paired on another process, or took their place there."""
        notice = read_lobby_notice(message) if topic == LOBBY_CHANNEL else None
        match notice:
            case PlayerMatched(server=server) if server == self._registry.server_id:
                self._stop_waiting(notice.player, Matched(game_id=notice.game_id,
                                                          seat=notice.seat))
            case PlaceReplaced(server=server) if server == self._registry.server_id:
                self._stop_waiting(notice.player, REPLACED)

    async def close(self) -> None:
        for task in list(self._background):
            with contextlib.suppress(Exception):
                await task

    def _stop_waiting(self, player_id: str, message: ServerMessage,
                      unless: LobbyConnection | None = None) -> None:
        """The player waits here no more: their socket (unless it is ``unless``) is told
        ``message``."""
        waiting = self._local.pop(player_id, None)
        if waiting is not None and waiting[0] is not unless:
            waiting[0].send(message)

    async def _forget(self, place: Place) -> None:
        """Give up the place this server's socket took (not one the same player took again
        since, from another tab, while this waited for the lock)."""
        async with self._lock:
            await self._queue.leave(place)

    async def pair_waiting(self, now: datetime | None = None) -> None:
        """Pair the rated players whose gaps have widened enough to reach each other
        (wherever they wait) and tell them. A pair whose game cannot be made takes its
        places again; the pairs whose games were made are told whatever else fails."""
        started: list[tuple[Place, Place, str]] = []
        try:
            async with self._lock:
                for first, second in await self._queue.pair_waiting(now):
                    try:
                        game_id = await self._games.create_matched_game(
                            first.player_id, second.player_id, rated=True)
                    except Exception:
                        log.exception("could not start a rated quick-match game")
                        with contextlib.suppress(Exception):  # logged; the next pair may do
                            await self._queue.restore([first, second])
                        continue
                    started.append((first, second, game_id))
        finally:
            for first, second, game_id in started:
                await self._tell_matched(first, game_id, seat=0)
                await self._tell_matched(second, game_id, seat=1)

    async def requeue(self) -> None:
        """This server was taken for dead (and its places given up): the players still
        waiting on it take their places again, in the order they came."""
        async with self._lock:
            await self._queue.restore(place for _, place in self._local.values())

    async def _replaced(self, place: Place, connection: LobbyConnection) -> None:
        if place.server_id != self._registry.server_id:
            await self._pubsub.publish(LOBBY_CHANNEL, PlaceReplaced(
                place.player_id, place.server_id).to_json())
            return
        self._stop_waiting(place.player_id, REPLACED, unless=connection)

    async def _tell_matched(self, partner: Place, game_id: str, *, seat: int) -> None:
        if partner.server_id == self._registry.server_id:
            self._stop_waiting(partner.player_id, Matched(game_id=game_id, seat=seat))
            return
        await self._pubsub.publish(LOBBY_CHANNEL, PlayerMatched(
            partner.player_id, game_id, seat, partner.server_id).to_json())
