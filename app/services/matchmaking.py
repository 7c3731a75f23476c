"""Quick match's queue, shared by every server process (``queue_entry``): who waits, and
who is paired with whom. The sockets of waiting players and what they are told live in
``app.realtime.lobby``.

The rules: whoever waited longest is paired first; a player waits at most once (a second
tab, here or on another process, takes their place over); a player is never paired with
themself. Each decision is taken by one transaction at a time: on PostgreSQL an advisory
lock held by the deciding transaction, so two players pressing play on two processes at
once are paired, not both left waiting, and a waiting player is paired once.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import delete, select, text
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import Player, QueueEntry

QUEUE_LOCK = 0x5157_4D41_5443_48  # "QWMATCH": the advisory lock of the queue's decisions


@dataclass(frozen=True)
class Place:
    """A player's place in the queue: taken on ``server_id`` at ``entered_at``."""

    player_id: str
    server_id: str
    entered_at: datetime


@dataclass(frozen=True)
class Decision:
    """What pressing play decided: ``partner`` (who waited longest, now out of the queue)
    or, without one, the player's own new ``place``; and ``replaced``, the place the same
    player held before (another tab), now given up."""

    place: Place | None
    partner: Place | None
    replaced: Place | None


class MatchmakingService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession]) -> None:
        self._sessions = sessions

    async def play(self, player_id: str, server_id: str) -> Decision:
        """The player pressed play on ``server_id``: pair them or queue them."""
        async with self._sessions() as session:
            if session.get_bind().dialect.name == "postgresql":
                await session.execute(text("SELECT pg_advisory_xact_lock(:key)"),
                                      {"key": QUEUE_LOCK})
            earlier = await session.get(QueueEntry, player_id)
            if earlier is not None:
                await session.delete(earlier)
            partner = await session.scalar(
                select(QueueEntry).where(QueueEntry.player_id != player_id)
                .order_by(QueueEntry.entered_at, QueueEntry.player_id).limit(1))
            place = None
            if partner is None:
                place = Place(player_id, server_id, datetime.now(UTC))
                session.add(QueueEntry(player_id=player_id, server_id=server_id,
                                       entered_at=place.entered_at))
            else:
                await session.delete(partner)
            await session.commit()
        return Decision(place, _place(partner), _place(earlier))

    async def give_back(self, place: Place) -> None:
        """A partner whose game could not be started keeps their place."""
        async with self._sessions() as session:
            session.add(QueueEntry(player_id=place.player_id, server_id=place.server_id,
                                   entered_at=place.entered_at))
            await session.commit()

    async def leave(self, place: Place) -> None:
        """Give ``place`` up (not one the same player took again since, from another tab)."""
        async with self._sessions() as session:
            await session.execute(delete(QueueEntry).where(
                QueueEntry.player_id == place.player_id,
                QueueEntry.server_id == place.server_id,
                QueueEntry.entered_at == place.entered_at))
            await session.commit()

    async def restore(self, places: Iterable[Place]) -> None:
        """Take these places again, as they were, where their players hold none (their
        server had been taken for dead, and its places given up)."""
        async with self._sessions() as session:
            for place in sorted(places, key=lambda p: p.entered_at):
                if await session.get(QueueEntry, place.player_id) is None:
                    session.add(QueueEntry(player_id=place.player_id,
                                           server_id=place.server_id,
                                           entered_at=place.entered_at))
            await session.commit()

    async def waiting(self) -> list[str]:
        """The names of the players waiting for an opponent, longest first."""
        async with self._sessions() as session:
            rows = await session.execute(
                select(Player.name).join(QueueEntry, QueueEntry.player_id == Player.id)
                .order_by(QueueEntry.entered_at, QueueEntry.player_id))
            return [name for (name,) in rows]


def _place(entry: QueueEntry | None) -> Place | None:
    return None if entry is None else Place(entry.player_id, entry.server_id,
                                            entry.entered_at)
