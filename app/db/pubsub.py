"""Small messages between the server processes: doorbells, notices, lobby changes.

A move is not sent through here: each process renders the views of its own sockets from
the log it already catches up with (``GameService``). What travels is a few dozen bytes
saying what to look at again: a game's new version, a rematch or abort notice, a change
in the lobby's lists, a change of presence.

Two implementations of one contract:

- :class:`InProcessPubSub`, with SQLite (one process): ``publish`` calls this process's
  listeners; ``notice`` gives nothing (no other process to ring).
- :class:`PostgresPubSub`: PostgreSQL's LISTEN/NOTIFY, on the database the games already
  live in (no other service to run). Every process LISTENs on one channel (named after
  the schema, so that test schemas do not hear each other); ``publish`` NOTIFYs after the
  caller's commit, a ``notice`` inside the caller's transaction, so the notification goes
  out exactly when, and only if, that transaction commits. Every process hears every
  message, its own too, in the order the database sent them. When the listening
  connection drops, it is opened again and ``on_resync`` callbacks run: whatever was
  missed meanwhile is read again from the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

log = logging.getLogger(__name__)

PAYLOAD_LIMIT = 7900
"""PostgreSQL refuses a NOTIFY payload of 8,000 bytes or more."""

Listener = Callable[[str, dict[str, Any]], Awaitable[None]]
Notice = tuple[str, str]
"""A NOTIFY to send inside a transaction: its channel and payload."""
Resync = Callable[[], Awaitable[None]]


class PubSub(Protocol):
    crosses_processes: bool
    """Whether other processes hear these messages (and this one hears what it rings)."""

    async def publish(self, topic: str, message: dict[str, Any]) -> None:
        """Tell every process (this one too), after the caller's commit."""

    def notice(self, topic: str, message: dict[str, Any]) -> Notice | None:
        """The NOTIFY that tells every process (this one too) when a transaction that
        sends it commits; None when there is no other process to tell."""

    def subscribe(self, listener: Listener) -> None: ...

    def on_resync(self, callback: Resync) -> None:
        """``callback`` runs after messages may have been missed (a listener reconnected)."""


async def _call_all(listeners: list[Listener], topic: str, message: dict[str, Any]) -> None:
    for listener in listeners:
        try:
            await listener(topic, message)
        except Exception:  # one broken listener must not stop the others
            log.exception("listener failed on a message for %s", topic)


class InProcessPubSub:
    """Delivers each message to this process's listeners, in publication order."""

    crosses_processes = False

    def __init__(self) -> None:
        self._listeners: list[Listener] = []

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def on_resync(self, callback: Resync) -> None:
        """Nothing is ever missed in one process."""

    @property
    def listening(self) -> bool:
        return True

    async def publish(self, topic: str, message: dict[str, Any]) -> None:
        await _call_all(self._listeners, topic, message)

    def notice(self, topic: str, message: dict[str, Any]) -> Notice | None:
        """No other process to tell."""
        return None


def channel_name(schema: str | None) -> str:
    """The NOTIFY channel of one database schema: processes on other schemas (tests
    side by side on one database) hear nothing of it."""
    return f"duel_{schema}" if schema else "duel"


def _payload(topic: str, message: dict[str, Any]) -> str:
    payload = json.dumps({"t": topic, "m": message}, separators=(",", ":"))
    if len(payload.encode()) > PAYLOAD_LIMIT:
        raise ValueError(f"a message for {topic} is too large to notify ({len(payload)} bytes)")
    return payload


class PostgresPubSub:
    """LISTEN/NOTIFY on the application's PostgreSQL database (see the module's doc)."""

    crosses_processes = True

    def __init__(self, engine: AsyncEngine, schema: str | None, *,
                 check_interval: float = 5.0, retry_delay: float = 1.0) -> None:
        self._engine = engine
        self.channel = channel_name(schema)
        self._check_interval = check_interval
        self._retry_delay = retry_delay
        self._listeners: list[Listener] = []
        self._resyncs: list[Resync] = []
        self._inbox: asyncio.Queue[tuple[str, dict[str, Any]]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._connected = asyncio.Event()
        self._late = False
        """The server started before the listener could: its first connection resyncs."""
        self._listening = False
        self.reconnects = 0
        """How often the listening connection was opened again (for tests and metrics)."""

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def on_resync(self, callback: Resync) -> None:
        self._resyncs.append(callback)

    async def start(self, wait: float = 10.0) -> None:
        """Listen before the first socket is served, so that no message of it is missed
        (a database still unreachable after ``wait`` seconds: the listener keeps trying,
        and reads everything again once it gets through)."""
        self._tasks = [asyncio.create_task(self._listen()), asyncio.create_task(self._dispatch())]
        try:
            await asyncio.wait_for(asyncio.shield(self._connected.wait()), timeout=wait)
        except TimeoutError:
            log.error("not listening for notifications yet: the server starts all the same")
            self._late = True

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def publish(self, topic: str, message: dict[str, Any]) -> None:
        async with self._engine.connect() as connection:
            await connection.execute(text("SELECT pg_notify(:channel, :payload)"),
                                     {"channel": self.channel,
                                      "payload": _payload(topic, message)})
            await connection.commit()

    def notice(self, topic: str, message: dict[str, Any]) -> Notice | None:
        return self.channel, _payload(topic, message)

    # ------------------------------------------------------------------ listening
    def _received(self, _connection: object, _pid: int, _channel: str, payload: str) -> None:
        try:
            body = json.loads(payload)
            self._inbox.put_nowait((str(body["t"]), dict(body["m"])))
        except (ValueError, KeyError, TypeError):
            log.error("an unreadable notification: %.200s", payload)

    async def _dispatch(self) -> None:
        """Hand each message to the listeners, one after the other, in arrival order."""
        while True:
            topic, message = await self._inbox.get()
            await _call_all(self._listeners, topic, message)

    @property
    def listening(self) -> bool:
        """Whether this process hears the others now (for ``/readyz``)."""
        return self._listening

    async def _own_connection(self) -> Any:
        """A connection of the engine's own making (its URL's options, TLS, server
        settings), taken out of its pool for good: the listener keeps it open."""
        pooled = await self._engine.raw_connection()
        connection = pooled.driver_connection
        pooled.detach()  # never given back: closing it is the listener's business
        return connection

    async def _listen(self) -> None:
        """Keep one connection listening; after it was lost, listen again and resync."""
        while True:
            connection = None
            try:
                connection = await self._own_connection()
                await connection.add_listener(self.channel, self._received)
                if self._connected.is_set() or self._late:
                    # Whatever was published while nobody listened is read again.
                    self.reconnects += self._connected.is_set()
                    log.warning("listening on %s again: reading what was missed", self.channel)
                    for callback in self._resyncs:
                        try:
                            await callback()
                        except Exception:
                            log.exception("a resync failed")
                self._connected.set()
                self._listening = True
                # A dead TCP connection says nothing until used: ask it something now and then.
                while True:
                    await asyncio.sleep(self._check_interval)
                    await asyncio.wait_for(connection.fetchval("SELECT 1"),
                                           timeout=self._check_interval)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                self._listening = False
                log.error("the notification listener lost its connection (%s)", error)
                await asyncio.sleep(self._retry_delay)
            finally:
                if connection is not None:
                    with contextlib.suppress(Exception):
                        await asyncio.wait_for(connection.close(), timeout=2)
