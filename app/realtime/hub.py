"""The sockets of each game in this process: fan-out and presence.

Each committed action reaches the hub from this process's replay of the game
(``GameService.watch``): an action committed here at once, one committed by another
process when its doorbell rings here (``{"moved": version, ...}``: ``take`` applies the
move it carries, or the replay catches up with the log).
Each update is rendered once per audience that has a socket here (a seat, spectators).

Sending never blocks the game: each connection has an outgoing queue drained by its own
task, so a slow client delays nobody. A client too slow to keep up is disconnected; on
reconnecting it catches up from its last version.

Nothing overtakes a socket's first message: until it is welcomed (:meth:`Connection.welcome`)
it is sent only answers to its own messages, never a ping, a presence or an update.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable, Coroutine
from datetime import datetime, timedelta
from typing import Any, TypeVar

from fastapi import WebSocket, WebSocketDisconnect
from starlette.websockets import WebSocketState

from app.clock import Clock
from app.services.chat import readable_by
from app.services.clocks import WallClock
from app.services.games import Applied
from app.services.notices import (
    PRESENCE_TOPIC,
    ChatPosted,
    GameAborted,
    GameExpired,
    GameNotice,
    Moved,
    PresenceChanged,
    RematchChanged,
    TakeBackChanged,
    read_game_notice,
    read_presence,
)
from app.services.servers import Counts, ServerRegistry

from .limits import Pace
from .messages import (
    Aborted,
    ChatLine,
    Encoded,
    Expired,
    Ping,
    Presence,
    Rematch,
    ServerMessage,
    TakeBackOffer,
)
from .protocol import ProtocolError, decode, error_message, render_updates

log = logging.getLogger(__name__)

PRESENCE_RETRY = 2.0
"""Seconds before a presence write that failed is tried again."""
_M = TypeVar("_M")

QUEUE_LIMIT = 256
"""Outgoing messages a connection may have waiting before it is dropped as too slow."""


class Connection:
    """One WebSocket: who it is (a seat, or a spectator) and what waits to be sent."""

    def __init__(self, websocket: WebSocket, clock: Clock) -> None:
        self.websocket = websocket
        self.clock = clock
        self.joined = False
        """Said who it is (game sockets: a join whose credentials were accepted)."""
        self.welcomed = False
        """Sent its first message (a welcome, the first lobby picture): the server may now
        speak unasked (pings)."""
        self.seat: int | None = None
        self.last_heard = clock.now()
        self._queue: asyncio.Queue[Encoded | None] = asyncio.Queue()
        self._closing = False
        self._held: list[Encoded] | None = None
        """Updates held back while this client's full state is being prepared."""
        self.refresh: Callable[[], Coroutine[Any, Any, None]] | None = None
        """Sends this client its full state again (set once it is welcomed)."""
        self.told: Counts | None = None
        """The presence this socket was last sent."""
        self.pace: Pace | None = None
        """How fast the client may send (None: no limit)."""

    @property
    def audience(self) -> str:
        return "spectator" if self.seat is None else str(self.seat)

    def send(self, message: ServerMessage | Encoded) -> None:
        if self._closing:
            return
        if self._queue.qsize() >= QUEUE_LIMIT:
            log.warning("dropping a client that does not keep up")
            self._queue.put_nowait(Encoded(error_message(
                "too_slow", "too many messages waiting; reconnect with your last version to "
                "catch up", params={"limit": QUEUE_LIMIT})))
            self.close()
            return
        self._queue.put_nowait(message if isinstance(message, Encoded) else Encoded(message))

    def welcome(self, message: ServerMessage) -> None:
        """Send the socket's first message; pings may follow it, never precede it."""
        self.send(message)
        self.welcomed = True

    def heard(self) -> None:
        """The client sent something: it is alive."""
        self.last_heard = self.clock.now()

    def hold_updates(self) -> None:
        """From now on keep updates back: a full state for this client is being prepared."""
        if self._held is None:
            self._held = []

    def release_updates(self, version: int) -> None:
        """The full state at ``version`` was sent: send the held updates that are newer,
        and the held notices (they are repeated whole, so one already told does no harm)."""
        held, self._held = self._held or [], None
        for update in held:
            if update.version is None or update.version > version:
                self.send(update)

    @property
    def holding(self) -> bool:
        """Its full state is being prepared: updates wait (and older ones will be dropped)."""
        return self._held is not None

    def drop_held_updates(self) -> None:
        """Stop holding updates back, and forget those held: the state was never sent."""
        self._held = None

    def deliver(self, update: ServerMessage | Encoded) -> None:
        """An update or a notice for this client, now or after the state being prepared."""
        if self._held is not None:
            self._held.append(update if isinstance(update, Encoded) else Encoded(update))
        else:
            self.send(update)

    def close(self) -> None:
        """Stop after what is already queued."""
        if not self._closing:
            self._closing = True
            self._queue.put_nowait(None)

    async def write_loop(self) -> None:
        """Send what is queued until :meth:`close`. Ends without an error even when the
        client has gone: a task keeps the exception it ended with, and with it the frames
        it ran in, which would keep this closed socket's objects in a reference cycle
        until a full collection (rare, docs/operations.md "Pauses")."""
        try:
            while True:
                message = await self._queue.get()
                if message is None:
                    break
                await self.websocket.send_text(message.text)
            if self.websocket.application_state == WebSocketState.CONNECTED:
                await self.websocket.close()
        except (WebSocketDisconnect, RuntimeError):
            pass  # the client went first (or closed the socket): nothing more to send


def forget_cancellation(task: asyncio.Task[Any]) -> None:
    """A done callback for a task that is cancelled when its socket closes: a cancelled
    task keeps its ``CancelledError`` until asked for its result, and with it the frames it
    ran in (the socket's objects), in a reference cycle only the cycle collector frees,
    rarely here (docs/operations.md, "Pauses"). Asked here, and let go."""
    if task.cancelled():
        with contextlib.suppress(asyncio.CancelledError):
            task.result()


async def keep_alive(connection: Connection, *, interval: float, timeout: float,
                     join_timeout: float | None, on_drop: Callable[[], None]) -> None:
    """Every tick (``interval``, or ``join_timeout`` if shorter) drop a socket that stayed
    silent longer than ``timeout``, or that has not ``joined`` within ``join_timeout``
    (None: it needs no join); ping it once it has been welcomed. ``on_drop`` tells the
    others at once: a vanished peer may never report its disconnect."""
    clock = connection.clock
    opened = clock.now()
    tick = interval if join_timeout is None else min(interval, join_timeout)
    while True:
        await clock.sleep(tick)
        now = clock.now()
        if now - connection.last_heard > timeout:
            cause, reason = "silence", "no message or pong for too long"
        elif join_timeout is not None and not connection.joined \
                and now - opened > join_timeout:
            cause, reason = "join", "no join message in time"
        else:
            if connection.welcomed:  # a ping never overtakes the socket's first message
                connection.send(Ping())
            continue
        connection.send(error_message("timeout", reason, params={"cause": cause}))
        on_drop()
        connection.close()
        return


async def next_message(websocket: WebSocket, connection: Connection, *, limit: int,
                       parse: Callable[[Any], _M]) -> _M | None:
    """The client's next message, read by ``parse``; None once the client is gone. A
    binary frame, a message over ``limit`` bytes, one that is not JSON, or one beyond the
    connection's pace raises :class:`ProtocolError`, as ``parse`` does for a message it
    does not accept."""
    received = await websocket.receive()
    if received["type"] == "websocket.disconnect":
        return None
    connection.heard()
    if connection.pace is not None:
        connection.pace.take()
    text = received.get("text")
    if text is None:
        raise ProtocolError("malformed", "send JSON in text frames")
    if len(text.encode()) > limit:
        raise ProtocolError("too_large", f"messages are limited to {limit} bytes",
                            {"limit": limit})
    return parse(decode(text))


def first_move_json(applied: Applied, now: datetime) -> dict[str, Any] | None:
    """The next seat's first decision and the milliseconds left for it, if it has one."""
    if applied.first_move_by is None or applied.game.to_act is None:
        return None
    return {"seat": applied.game.to_act,
            "remaining": max(0, (applied.first_move_by - now) // timedelta(milliseconds=1))}


def notice_message(notice: GameNotice) -> ServerMessage | None:
    """The message every socket of a game hears of an announcement (``GameService``): a
    rematch offered, accepted or declined, a take-back offered or declined, a chat message
    (for the sockets that may read its channel), or an abort. None for the doorbell."""
    match notice:
        case RematchChanged():
            return Rematch(**notice.state())
        case TakeBackChanged():
            return TakeBackOffer(**notice.state())
        case ChatPosted():
            return ChatLine.model_validate({"message": notice.entry})
        case GameAborted():
            return Aborted(reason=notice.reason, cause=notice.cause, seat=notice.seat)
        case GameExpired():
            return Expired(hours=notice.hours)
    return None


def _keep(job: Coroutine[Any, Any, None], tasks: set[asyncio.Task[None]]) -> None:
    """Run ``job`` in a task kept in ``tasks`` until it is done (an unreferenced task may
    be collected midway)."""
    task = asyncio.create_task(job)
    tasks.add(task)
    task.add_done_callback(tasks.discard)


class Rounds:
    """Runs a job per key, one round at a time: asked again while a round runs, it runs
    one more round after it (so the last ask is always served, and never twice at once)."""

    def __init__(self, job: Callable[[str], Awaitable[None]], what: str) -> None:
        self._job = job
        self._what = what
        self._running: dict[str, asyncio.Task[None]] = {}
        self._again: set[str] = set()

    def busy(self, key: str) -> bool:
        """Whether a round for ``key`` is running or asked for."""
        running = self._running.get(key)
        return running is not None and not running.done()

    def ask(self, key: str) -> None:
        running = self._running.get(key)
        if running is not None and not running.done():
            self._again.add(key)
            return
        self._running[key] = asyncio.create_task(self._rounds(key))

    async def _rounds(self, key: str) -> None:
        try:
            while True:
                self._again.discard(key)
                try:
                    await self._job(key)
                except Exception:
                    log.exception("could not %s for %s", self._what, key)
                if key not in self._again:
                    return
        finally:
            self._running.pop(key, None)

    async def close(self) -> None:
        tasks = list(self._running.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task


class Hub:
    """The game sockets of this process, by game.

    ``sync`` catches a game's replay up with the committed log (``GameService.sync``),
    ``take`` applies a doorbell's move to it (``GameService.take``); both hand each new
    action to :meth:`on_applied`.

    Presence is everyone's, over every process. When this process's sockets on a game
    change, its sockets hear at once (its own sockets, and what it last read of the
    others': for its first socket on the game, read just before, ``others_known``); then,
    with a ``registry`` (the servers sharing the database), it writes the counts of every
    game that changed and rings (``publish``) the presence topic with their ids, and every
    process with sockets on them reads the others' counts again and tells its sockets if
    the sum changed."""

    def __init__(self, sync: Callable[[str], Awaitable[int]] | None = None, *,
                 take: Callable[[str, Moved], Awaitable[int]] | None = None,
                 registry: ServerRegistry | None = None,
                 publish: Callable[[str, dict[str, Any]], Awaitable[None]] | None = None,
                 wall: WallClock | None = None, spectator_presence: float = 0.0) -> None:
        self._games: defaultdict[str, set[Connection]] = defaultdict(set)
        self._spectator_presence = spectator_presence
        """Seconds between presences sent to spectators when only the number of
        spectators changed (0: at once)."""
        self._spectators_due: set[str] = set()
        """Games whose spectators are due a presence with the new number of spectators."""
        self._wall = wall or WallClock()
        """Now, for the time left on the clocks an update carries."""
        self._sync = sync
        self._take = take
        self._registry = registry
        self._publish = publish
        self._delivered: dict[str, int] = {}
        """The last version given to the sockets of each game that has some."""
        self._catching_up = Rounds(self._catch_up, "catch the game up")
        self._background: set[asyncio.Task[None]] = set()
        """Tasks started from a message (kept so they are not collected, and cancelled at
        close)."""
        self._departures: set[asyncio.Task[None]] = set()
        """Sockets' departures under way (waited for at close)."""
        self._presence_dirty: set[str] = set()
        self._presence_writer: asyncio.Task[None] | None = None
        self._elsewhere: dict[str, Counts] = {}
        """What the other servers have on each game with a socket here, as last read."""
        self._read_at: dict[str, int] = {}
        """The number of the read ``_elsewhere`` holds for each game: reads are numbered as
        they start, and an older one finishing late does not overwrite a newer one."""
        self._reads = 0
        self._unread: set[str] = set()
        """Games whose first socket here waits for the others' counts to be read."""
        self._next_read: asyncio.Future[None] | None = None
        """Done when the read of those games is (the next one to start)."""
        self._reader: asyncio.Task[None] | None = None
        self._told: dict[str, Counts] = {}
        """The presence last told to the sockets of each game."""

    def attach(self, game_id: str, connection: Connection) -> None:
        """Start delivering the game's updates to ``connection``; call
        :meth:`presence_changed` once it has been welcomed."""
        self._games[game_id].add(connection)

    def detach(self, game_id: str, connection: Connection) -> None:
        connections = self._games.get(game_id)
        if connections is None or connection not in connections:
            return
        connections.discard(connection)
        if not connections:
            del self._games[game_id]
            for known in (self._delivered, self._elsewhere, self._read_at, self._told):
                known.pop(game_id, None)
        self.presence_changed(game_id)

    def games(self) -> list[str]:
        """The games with a socket here."""
        return list(self._games)

    def local_counts(self, game_id: str) -> Counts:
        """This process's sockets on the game that have been welcomed (one being welcomed
        counts once its welcome is out: its presence_changed follows)."""
        connections = [c for c in self._games.get(game_id, ()) if c.welcomed]
        return Counts(seat0=sum(1 for c in connections if c.seat == 0),
                      seat1=sum(1 for c in connections if c.seat == 1),
                      spectators=sum(1 for c in connections if c.seat is None))

    def spectators_joined(self, game_id: str) -> int:
        """This process's spectator sockets on the game, welcomed or being welcomed."""
        return sum(1 for c in self._games.get(game_id, ()) if c.seat is None)

    def seat_held_here(self, game_id: str, seat: int, *, besides: Connection) -> bool:
        """Whether another welcomed socket here holds ``seat`` in the game."""
        return any(c is not besides and c.welcomed and c.seat == seat
                   for c in self._games.get(game_id, ()))

    async def counts_now(self, game_id: str) -> Counts:
        """Every server's sockets on the game, the others' read now."""
        local = self.local_counts(game_id)
        if self._registry is None:
            return local
        return local + (await self._registry.elsewhere([game_id]))[game_id]

    def on_applied(self, applied: Applied) -> None:
        """A committed action this process's replay took in: each socket of the game gets
        its audience's update, rendered once per audience present, unless it had it."""
        connections = self._games.get(applied.game_id)
        if not connections or applied.version <= self._delivered.get(applied.game_id, 0):
            return
        if applied.for_a_state and all(c.holding for c in connections):
            # Taken in while a state is read, and every socket here waits for a state (its
            # join, its sync) read at this version or later: nothing to render.
            return
        self._delivered[applied.game_id] = applied.version
        updates = render_updates(applied.game, applied.version, seat=applied.seat,
                                 action=applied.action, notation=applied.notation,
                                 events=applied.events,
                                 audiences={c.audience for c in connections},
                                 clock=None if applied.clocks is None else
                                 applied.clocks.to_json(self._wall.now()),
                                 abortable=applied.abortable,
                                 first_move=first_move_json(applied, self._wall.now()))
        encoded = {audience: Encoded(update) for audience, update in updates.items()}
        for connection in list(connections):
            connection.deliver(encoded[connection.audience])

    def welcomed_at(self, game_id: str, version: int) -> None:
        """A socket of the game was sent its state at ``version``: what is older is told."""
        if game_id in self._games:
            self._delivered[game_id] = max(self._delivered.get(game_id, 0), version)

    async def on_published(self, game_id: str, message: dict[str, Any]) -> None:
        """A game's doorbell (a new version committed, here or elsewhere), a notice (a
        rematch, an abort: the same for everyone) or a change of presence."""
        if game_id not in self._games:
            return
        read = read_game_notice(message)
        notice = notice_message(read) if read is not None else None
        if notice is not None:
            encoded = Encoded(notice)
            channel = notice.message.channel if isinstance(notice, ChatLine) else "players"
            for connection in list(self._games.get(game_id, ())):
                if readable_by(channel, connection.seat):
                    connection.deliver(encoded)  # after a welcome being prepared, as updates
        moved_at = message.get("moved")
        if isinstance(moved_at, int) and moved_at > self._delivered.get(game_id, 0):
            if isinstance(read, Moved) and self._take is not None \
                    and not self._catching_up.busy(game_id):
                # Its own task: waiting for this game's lock holds up no other game. Two
                # doorbells of one game take the lock in the order they came (a FIFO lock),
                # and one found out of turn catches up with the log instead.
                self.spawn(self._take_in(game_id, read))
                return
            self._catching_up.ask(game_id)  # a doorbell this release cannot read: the log

    async def on_presence(self, topic: str, message: dict[str, Any]) -> None:
        """Some process's sockets changed on these games: read the others' counts again
        (one query for every game of the message with sockets here) and tell the sockets
        if the sum changed."""
        changed = read_presence(message) if topic == PRESENCE_TOPIC else None
        if changed is None or self._registry is None:
            return
        games = [g for g in changed.games if g in self._games]
        if not games:
            return
        # Its own task: the read holds up no other message (moves wait behind none).
        self.spawn(self._reread_presence(games))

    async def _read_others(self, games: list[str]) -> dict[str, Counts] | None:
        """The other servers' sockets on ``games``, kept unless a newer read was kept
        first; None when the database could not say."""
        assert self._registry is not None
        self._reads += 1
        number = self._reads
        try:
            found = await self._registry.elsewhere(games)
        except Exception:
            log.exception("could not read the presence of %d games", len(games))
            return None
        for game_id, elsewhere in found.items():
            if game_id in self._games and number > self._read_at.get(game_id, 0):
                self._elsewhere[game_id], self._read_at[game_id] = elsewhere, number
        return found

    async def _reread_presence(self, games: list[str]) -> None:
        if await self._read_others(games) is None:
            return
        for game_id in games:
            if game_id not in self._elsewhere:
                continue
            counts = self.local_counts(game_id) + self._elsewhere[game_id]
            # Only a change to what the sockets were told (none told yet: the first
            # welcome here tells them, with what was just read).
            if game_id in self._told and counts != self._told[game_id]:
                self._deliver_presence(game_id, counts)

    def spawn(self, job: Coroutine[Any, Any, None]) -> None:
        """Run ``job`` in a task of its own (cancelled when the hub closes)."""
        _keep(job, self._background)

    def depart(self, job: Coroutine[Any, Any, None]) -> None:
        """Run a socket's departure (``job``) in a task of its own, which the hub's closing
        waits for."""
        _keep(job, self._departures)

    async def _take_in(self, game_id: str, bell: Moved) -> None:
        assert self._take is not None
        try:
            await self._take(game_id, bell)
        except Exception:
            log.exception("could not take move %s of %s in; reading the log", bell.version,
                          game_id)
            self._catching_up.ask(game_id)

    async def _catch_up(self, game_id: str) -> None:
        if self._sync is not None:
            await self._sync(game_id)

    async def resync(self) -> None:
        """Messages may have been missed (the listener reconnected): every game with a
        socket here catches up with its log, every socket is sent its state again (a
        rematch offer or an abort rung meanwhile is in it), and hears who is there."""
        for game_id in self.games():
            self._catching_up.ask(game_id)
            for connection in list(self._games.get(game_id, ())):
                if connection.refresh is not None:
                    self.spawn(connection.refresh())
        if self._registry is not None and self.games():
            await self.on_presence(PRESENCE_TOPIC,
                                   PresenceChanged(tuple(self.games())).to_json())

    def presence_changed(self, game_id: str) -> None:
        """This process's sockets on the game changed (one joined, one left): everyone on
        the game hears who is there now. A socket being welcomed hears it after its
        welcome. Counts told already are not told again: two sockets welcomed while the
        first waited to read the others' are both counted in the first telling."""
        counts = self.local_counts(game_id) + self._elsewhere.get(game_id, Counts())
        if counts != self._told.get(game_id):
            self._deliver_presence(game_id, counts)
        if self._registry is not None and self._publish is not None:
            self._presence_dirty.add(game_id)
            if self._presence_writer is None or self._presence_writer.done():
                self._presence_writer = asyncio.create_task(self._write_presence())

    async def others_known(self, game_id: str) -> None:
        """Before this process's first socket on a game is told who is there: read what
        the other processes have on it, so that no one is shown away for a moment (first
        sockets arriving while a read is under way are read together by the next). Not
        read (the database away a moment): the socket is told what is here, and the next
        change reads again."""
        if self._registry is None or game_id in self._elsewhere:
            return
        self._unread.add(game_id)
        if self._next_read is None:
            self._next_read = asyncio.get_running_loop().create_future()
        done = self._next_read
        if self._reader is None or self._reader.done():
            self._reader = asyncio.create_task(self._read_unread())
        await asyncio.shield(done)

    async def _read_unread(self) -> None:
        """One read at a time: the games whose first socket came while one was under way
        are read together by the next."""
        while self._unread:
            games, self._unread = sorted(self._unread), set()
            done, self._next_read = self._next_read, None
            try:
                await self._read_others(games)
            finally:
                if done is not None and not done.done():
                    done.set_result(None)

    def rewrite_presence(self) -> None:
        """Write this process's counts of every game it has sockets on again (its rows
        were cleared: it had been taken for dead)."""
        for game_id in self.games():
            self.presence_changed(game_id)

    async def _write_presence(self) -> None:
        """Write this process's counts of every game that changed, in one transaction,
        then ring the presence topic with their ids; again while more changed meanwhile
        (a burst of joins costs a few writes, not one per socket)."""
        assert self._registry is not None and self._publish is not None
        while self._presence_dirty:
            games, self._presence_dirty = sorted(self._presence_dirty), set()
            try:
                await self._registry.set_presence({g: self.local_counts(g) for g in games})
                for message in PresenceChanged.batches(games):
                    await self._publish(PRESENCE_TOPIC, message.to_json())
            except Exception:  # the database may be down a moment: try again soon
                log.exception("could not write the presence of %d games", len(games))
                self._presence_dirty.update(games)
                await asyncio.sleep(PRESENCE_RETRY)

    def _deliver_presence(self, game_id: str, counts: Counts) -> None:
        """Tell the game's sockets: the seats at once, and every socket not told yet (a
        socket being welcomed is told right after its welcome, with itself counted: an
        earlier picture, without it, would only flash by). When only the number of
        spectators changed, the spectators hear it a moment later, once for every change
        meanwhile: a crowd arriving costs each of them a message now and then, not one
        per arrival (which would grow with the square of the crowd)."""
        if game_id in self._games:
            self._told[game_id] = counts
        message = Encoded(Presence(seats=(counts.seat0 > 0, counts.seat1 > 0),
                                   spectators=counts.spectators))
        wait = self._spectator_presence > 0
        for connection in list(self._games.get(game_id, ())):
            if not connection.welcomed or connection.told == counts:
                continue
            told = connection.told
            if wait and connection.seat is None and told is not None and \
                    (told.seat0 > 0, told.seat1 > 0) == (counts.seat0 > 0, counts.seat1 > 0):
                if game_id not in self._spectators_due:
                    self._spectators_due.add(game_id)
                    self.spawn(self._tell_spectators(game_id))
                continue
            connection.told = counts
            connection.deliver(message)

    async def _tell_spectators(self, game_id: str) -> None:
        await asyncio.sleep(self._spectator_presence)
        self._spectators_due.discard(game_id)
        counts = self._told.get(game_id)
        if counts is None:
            return
        message = Encoded(Presence(seats=(counts.seat0 > 0, counts.seat1 > 0),
                                   spectators=counts.spectators))
        for connection in list(self._games.get(game_id, ())):
            if connection.welcomed and connection.told != counts:
                connection.told = counts
                connection.deliver(message)

    async def close(self) -> None:
        # Departures are short writes: let them finish (cancelled, one may leave its
        # database connection in use as the engine is disposed of).
        await asyncio.gather(*self._departures, return_exceptions=True)
        # Cancelled and waited for: a task left to unwind later may do so after the engine
        # is disposed of, its session's closing waiting on a connection that is gone.
        background = list(self._background)
        for task in background:
            task.cancel()
        await asyncio.gather(*background, return_exceptions=True)
        await self._catching_up.close()
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
        if self._presence_writer is not None:
            self._presence_writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._presence_writer
