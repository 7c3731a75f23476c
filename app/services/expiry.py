"""Housekeeping every process does now and then: games nobody joined in time expire (they
leave the lobby; their invite no longer seats anyone), rate-limit counts of windows
long over are dropped, and games that ended before summaries were kept are summarised."""

from __future__ import annotations

import logging
from datetime import timedelta

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.clock import Clock
from app.db import repository

from .games import GameService
from .results import Backfill

log = logging.getLogger(__name__)

BATCH = 500
"""Games expired per statement; more wait for the next sweep."""
SUMMARIES = 50
"""Finished games summarised per sweep (each a replay) if they ended unsummarised."""


class Expiry:
    def __init__(self, service: GameService, sessions: async_sessionmaker[AsyncSession], *,
                 clock: Clock, open_game_hours: float, interval: float = 60.0) -> None:
        self._service = service
        self._sessions = sessions
        self._clock = clock
        self._open_for = timedelta(hours=open_game_hours)
        self._interval = interval
        self._backfill = Backfill(sessions)

    async def sweep(self) -> list[str]:
        """Expire the games waiting since before the cutoff: the ids this process expired."""
        now = self._service.wall.now()
        async with self._sessions() as session:
            expired = await repository.expire_unjoined(session, now - self._open_for, now, BATCH)
            await session.commit()
        for game in expired:
            await self._service.expired(game.game_id, listed=game.listed,
                                        creator=game.player_id,
                                        hours=self._open_for.total_seconds() / 3600)
        await self._service.limits.tidy()
        await self._backfill.run(SUMMARIES)
        return [game.game_id for game in expired]

    async def run(self) -> None:
        while True:
            try:
                await self.sweep()
            except Exception:  # the database may be away a moment: look again later
                log.exception("could not expire games nobody joined")
            await self._clock.sleep(self._interval)
