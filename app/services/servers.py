"""The server processes sharing one database, and who is at each game across them.

Each process registers a row (``server``) and says it is alive every few seconds; a
process silent for longer than the timeout is taken for dead and its row deleted, which
takes with it what it held: its sockets' presence, its players' places in the
quick-match queue. Presence is kept per server and per game (``presence``: sockets per
seat, and spectators); a game's presence is the sum over the servers still alive.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Table, delete, func, insert, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db import repository
from app.db.models import Presence, Seat, Server

from .clocks import WallClock

_PRESENCE: Table = Presence.__table__  # type: ignore[assignment]
_SEAT: Table = Seat.__table__  # type: ignore[assignment]


@dataclass(frozen=True)
class Counts:
    """Sockets on one game: per seat, and spectators."""

    seat0: int = 0
    seat1: int = 0
    spectators: int = 0

    def __add__(self, other: Counts) -> Counts:
        return Counts(self.seat0 + other.seat0, self.seat1 + other.seat1,
                      self.spectators + other.spectators)

    @property
    def empty(self) -> bool:
        return not (self.seat0 or self.seat1 or self.spectators)


def _now(session: AsyncSession) -> Any:
    """Now by the database's clock on PostgreSQL, the one clock every process shares (one
    process's clock running ahead would take the others for dead); SQLite serves one
    process, whose own clock is the only one."""
    if session.get_bind().dialect.name == "postgresql":
        return func.now()
    return datetime.now(UTC)


async def _seats_left(session: AsyncSession, servers: list[str], now: Any) -> None:
    """These servers' sockets went without closing (the servers died or stop): the seats
    they held left ``now``."""
    await repository.seats_left(session, now, or_(*(
        (_SEAT.c.seat == seat) & _SEAT.c.game_id.in_(
            select(_PRESENCE.c.game_id).where(_PRESENCE.c.server_id.in_(servers), column > 0))
        for seat, column in enumerate((_PRESENCE.c.seat0, _PRESENCE.c.seat1)))))


class ServerRegistry:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], *, timeout: float,
                 server_id: str | None = None) -> None:
        self._sessions = sessions
        self.timeout = timeout
        self.server_id = server_id or secrets.token_hex(8)

    async def register(self) -> None:
        async with self._sessions() as session:
            now = _now(session)
            await session.execute(insert(Server).values(id=self.server_id, started_at=now,
                                                        seen_at=now))
            await session.commit()

    async def beat(self) -> tuple[list[str], bool]:
        """Say this server is alive, and take the silent ones for dead: the games whose
        presence changed with them, and whether this server had itself been taken for dead
        (its presence and queue places then need writing again)."""
        async with self._sessions() as session:
            now = _now(session)
            seen = await session.execute(update(Server).where(Server.id == self.server_id)
                                         .values(seen_at=now))
            revived = not seen.rowcount  # type: ignore[attr-defined]
            if revived:
                # Taken for dead after a long pause (its presence is gone): back again.
                await session.execute(insert(Server).values(
                    id=self.server_id, started_at=now, seen_at=now))
            dead = list((await session.scalars(select(Server.id).where(
                Server.seen_at < now - timedelta(seconds=self.timeout),
                Server.id != self.server_id))).all())
            games: list[str] = []
            if dead:
                games = list((await session.scalars(select(Presence.game_id).where(
                    Presence.server_id.in_(dead)).distinct())).all())
                await _seats_left(session, dead, now)
                await session.execute(delete(Presence).where(Presence.server_id.in_(dead)))
                await session.execute(delete(Server).where(Server.id.in_(dead)))
            await session.commit()
        return games, revived

    async def calibrate(self, wall: WallClock) -> None:
        """Set ``wall``'s offset to the database's clock (PostgreSQL: every process judges
        the players' clocks by it), from a reading taken halfway through the round trip."""
        async with self._sessions() as session:
            if session.get_bind().dialect.name != "postgresql":
                return
            await session.connection()  # connected before the reading is timed
            before = wall.local()
            database = await session.scalar(select(func.clock_timestamp()))
            after = wall.local()
        assert database is not None
        wall.offset = database - (before + (after - before) / 2)

    async def unregister(self) -> list[str]:
        """This server stops: its row goes, and the games where it had sockets."""
        async with self._sessions() as session:
            games = list((await session.scalars(select(Presence.game_id).where(
                Presence.server_id == self.server_id))).all())
            await _seats_left(session, [self.server_id], _now(session))
            await session.execute(delete(Presence).where(Presence.server_id == self.server_id))
            await session.execute(delete(Server).where(Server.id == self.server_id))
            await session.commit()
        return games

    async def set_presence(self, counts: dict[str, Counts]) -> None:
        """This server's sockets on each game of ``counts``, in one transaction (only this
        server writes its rows)."""
        async with self._sessions() as session:
            await session.execute(delete(_PRESENCE).where(
                _PRESENCE.c.server_id == self.server_id,
                _PRESENCE.c.game_id.in_(list(counts))))
            rows = [{"server_id": self.server_id, "game_id": game_id, "seat0": c.seat0,
                     "seat1": c.seat1, "spectators": c.spectators}
                    for game_id, c in counts.items() if not c.empty]
            if rows:
                await session.execute(insert(_PRESENCE), rows)
            await session.commit()

    async def elsewhere(self, game_ids: list[str]) -> dict[str, Counts]:
        """The sockets the other servers have on each of ``game_ids`` (in one query)."""
        async with self._sessions() as session:
            found = await session.execute(
                select(_PRESENCE.c.game_id, func.sum(_PRESENCE.c.seat0),
                       func.sum(_PRESENCE.c.seat1), func.sum(_PRESENCE.c.spectators))
                .where(_PRESENCE.c.game_id.in_(game_ids),
                       _PRESENCE.c.server_id != self.server_id)
                .group_by(_PRESENCE.c.game_id))
            out = {game_id: Counts() for game_id in game_ids}
            for game_id, seat0, seat1, spectators in found:
                out[game_id] = Counts(int(seat0), int(seat1), int(spectators))
        return out
