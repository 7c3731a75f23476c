"""Quick match's queue, shared by every server process (``queue_entry``): who waits, and
who is paired with whom. The sockets of waiting players and what they are told live in
``app.realtime.lobby``.

The rules: whoever waited longest is paired first; a player waits at most once (a second
tab, here or on another process, takes their place over); a player is never paired with
themself. A player asking for a rated game (an account) is paired only with another who
asked for one, within a rating gap that widens the longer the one already waiting has
waited (:func:`rating_gap`), the nearest rating first. Two rated players left waiting
apart are paired by :meth:`MatchmakingService.pair_waiting` once one's gap reaches the
other (every server sweeps the queue at each heartbeat).

Each decision is taken by one transaction at a time: on PostgreSQL an advisory
lock held by the deciding transaction, so two players pressing play on two processes at
once are paired, not both left waiting, and a waiting player is paired once.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import delete, select, text
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import Player, QueueEntry

QUEUE_LOCK = 0x5157_4D41_5443_48  # "QWMATCH": the advisory lock of the queue's decisions
RATING_GAP = 150.0
"""The rating gap a rated player accepts at once..."""
GAP_PER_SECOND = 5.0
"""...and how much it widens each second they wait: anyone within 450 after a minute."""


def rating_gap(waited: timedelta) -> float:
    """The widest rating gap a rated player who has waited ``waited`` accepts."""
    return RATING_GAP + GAP_PER_SECOND * max(0.0, waited.total_seconds())


@dataclass(frozen=True)
class Place:
    """A player's place in the queue: taken on ``server_id`` at ``entered_at``."""

    player_id: str
    server_id: str
    entered_at: datetime
    rated: bool = False
    rating: float | None = None
    """A rated place's rating, as it was when the player pressed play."""


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

    async def play(self, player_id: str, server_id: str, *, rated: bool = False,
                   now: datetime | None = None) -> Decision:
        """The player pressed play on ``server_id`` (for a ``rated`` game: an account's
        player): pair them or queue them."""
        now = now or datetime.now(UTC)
        async with self._sessions() as session:
            await _lock_queue(session)
            earlier = await session.get(QueueEntry, player_id)
            if earlier is not None:
                await session.delete(earlier)
            rating = (await session.scalar(select(Player.rating).where(Player.id == player_id))
                      if rated else None)
            if rating is None:
                partner = await session.scalar(
                    select(QueueEntry).where(QueueEntry.player_id != player_id,
                                             QueueEntry.rated.is_(False))
                    .order_by(QueueEntry.entered_at, QueueEntry.player_id).limit(1))
            else:
                waiting = (await session.scalars(
                    select(QueueEntry).where(QueueEntry.player_id != player_id,
                                             QueueEntry.rated.is_(True)))).all()
                partner = _nearest(rating, waiting, now)
            place = None
            if partner is None:
                place = Place(player_id, server_id, now, rated, rating)
                session.add(_entry_of(place))
            else:
                await session.delete(partner)
            await session.commit()
        return Decision(place, _place(partner), _place(earlier))

    async def pair_waiting(self, now: datetime | None = None) -> list[tuple[Place, Place]]:
        """Pair rated players who were left waiting apart and whose gap has widened enough:
        the longest waiting first, each with the nearest rating its gap reaches. The pairs
        (the longer waiting first) are out of the queue."""
        now = now or datetime.now(UTC)
        rated_waiting = select(QueueEntry.player_id).where(QueueEntry.rated.is_(True))
        async with self._sessions() as session:
            # Nobody to pair (most beats), or another process deciding: nothing to do now.
            # A heartbeat calls this: it must never wait on the queue's lock.
            if len((await session.scalars(rated_waiting.limit(2))).all()) < 2 \
                    or not await _try_lock_queue(session):
                return []
            waiting = list((await session.scalars(
                select(QueueEntry).where(QueueEntry.rated.is_(True))
                .order_by(QueueEntry.entered_at, QueueEntry.player_id))).all())
            pairs = []
            while waiting:
                first = waiting.pop(0)
                if first.rating is None:  # not written by play(); never paired by rating
                    continue
                second = _nearest(first.rating, waiting, now, gap_of=first)
                if second is None:
                    continue
                waiting.remove(second)
                await session.delete(first)
                await session.delete(second)
                pairs.append((_place_of(first), _place_of(second)))
            await session.commit()
        return pairs

    async def give_back(self, place: Place) -> None:
        """A partner whose game could not be started keeps their place."""
        async with self._sessions() as session:
            session.add(_entry_of(place))
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
                    session.add(_entry_of(place))
            await session.commit()

    async def waiting(self) -> list[str]:
        """The names of the players waiting for an opponent, longest first."""
        async with self._sessions() as session:
            rows = await session.execute(
                select(Player.name).join(QueueEntry, QueueEntry.player_id == Player.id)
                .order_by(QueueEntry.entered_at, QueueEntry.player_id))
            return [name for (name,) in rows]


async def _lock_queue(session: AsyncSession) -> None:
    """One decision at a time over the whole queue (PostgreSQL; SQLite writes one at a time
    anyway), held to the end of the transaction."""
    if session.get_bind().dialect.name == "postgresql":
        await session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": QUEUE_LOCK})


async def _try_lock_queue(session: AsyncSession) -> bool:
    """:func:`_lock_queue` if no other transaction holds it: whether it was taken."""
    if session.get_bind().dialect.name != "postgresql":
        return True
    return bool(await session.scalar(text("SELECT pg_try_advisory_xact_lock(:key)"),
                                     {"key": QUEUE_LOCK}))


def _nearest(rating: float, waiting: Sequence[QueueEntry], now: datetime, *,
             gap_of: QueueEntry | None = None) -> QueueEntry | None:
    """The waiting rated player nearest to ``rating`` within the gap that each one's wait
    allows (or ``gap_of``'s wait, the longer, when pairing two who wait), if any."""
    def gap(entry: QueueEntry) -> float:
        return rating_gap(now - (gap_of or entry).entered_at)

    reachable = [entry for entry in waiting
                 if entry.rating is not None and abs(entry.rating - rating) <= gap(entry)]
    return min(reachable, key=lambda e: (abs((e.rating or 0.0) - rating), e.entered_at,
                                         e.player_id), default=None)


def _entry_of(place: Place) -> QueueEntry:
    return QueueEntry(player_id=place.player_id, server_id=place.server_id,
                      entered_at=place.entered_at, rated=place.rated, rating=place.rating)


def _place_of(entry: QueueEntry) -> Place:
    return Place(entry.player_id, entry.server_id, entry.entered_at, entry.rated,
                 entry.rating)


def _place(entry: QueueEntry | None) -> Place | None:
    return None if entry is None else _place_of(entry)
