"""Flags fall on the server: every process looks for timed games whose seat to act ran out
of time (``game.deadline``, indexed) and ends them on time. So a flag falls with nobody
connected and after a restart; with several processes, each game is ended once (the
ending is written at the game's version, which only one write can be)."""

from __future__ import annotations

import logging
from datetime import timedelta

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db import repository
from app.realtime.clock import Clock

from .clocks import WallClock
from .games import GameService

log = logging.getLogger(__name__)

BATCH = 100
"""Games ended per look; more wait for the next, a moment later."""


class FlagWatch:
    def __init__(self, service: GameService, sessions: async_sessionmaker[AsyncSession],
                 *, clock: Clock, wall: WallClock, interval: float) -> None:
        self._service = service
        self._sessions = sessions
        self._clock = clock
        self._wall = wall
        self._interval = interval

    async def sweep(self) -> list[str]:
        """End every game whose flag has fallen by now: the games this process ended."""
        async with self._sessions() as session:
            due = await repository.flags_due(session, self._wall.now(), BATCH)
        return [flag.game_id for flag in due if await self._service.flag_fall(flag.game_id)]

    async def _wait(self) -> None:
        """Until the next flag known to fall within the interval, or the interval."""
        wait = self._interval
        async with self._sessions() as session:
            now = self._wall.now()
            soon = await repository.flags_due(session, now + timedelta(seconds=wait), 1)
        if soon and soon[0].deadline > now:  # (one due already is another's, or stuck)
            wait = (soon[0].deadline - now).total_seconds()
        await self._clock.sleep(wait)

    async def run(self) -> None:
        while True:
            try:
                if len(await self.sweep()) < BATCH:
                    await self._wait()
            except Exception:  # the database may be away a moment: look again later
                log.exception("could not look for fallen flags")
                await self._clock.sleep(self._interval)
