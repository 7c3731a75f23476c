"""Flags fall on the server: every process looks for timed games whose seat to act ran out
of time (``game.deadline``, indexed) and ends them on time. So a flag falls with nobody
connected and after a restart; with several processes, each game is ended once (the
ending is written at the game's version, which only one write can be)."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.clock import Clock
from app.db import repository

from .clocks import WallClock
from .errors import STORAGE_ERRORS, ServiceError
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
        self._failed: dict[str, datetime] = {}
        """Games whose ending failed, with the deadline it failed at: left alone until that
        changes (one bad game must not hold up every other flag)."""

    async def sweep(self) -> list[str]:
        """End every game whose flag has fallen by now: the games this process ended."""
        async with self._sessions() as session:
            due = await repository.flags_due(session, self._wall.now(), BATCH)
        ended = []
        for flag in due:
            if self._failed.get(flag.game_id) == flag.deadline:
                continue
            try:
                if await self._service.flag_fall(flag.game_id):
                    ended.append(flag.game_id)
            except STORAGE_ERRORS:  # the database away a moment: the next look tries again
                raise
            except Exception as error:
                if isinstance(error, ServiceError) and error.code == "busy":
                    break  # this process is full: the next look tries again
                log.exception("could not end game %s on time", flag.game_id)
                self._failed[flag.game_id] = flag.deadline
        # Forget a failure once its game is no longer due at that deadline.
        still_due = {(flag.game_id, flag.deadline) for flag in due}
        self._failed = {g: d for g, d in self._failed.items() if (g, d) in still_due}
        return ended

    async def _wait(self, *, progressed: bool) -> None:
        """Until the next flag known to fall within the interval, or the interval. One that
        fell during a sweep that ended games is looked at again at once; otherwise one due
        already is another process's, or stuck."""
        wait = self._interval
        async with self._sessions() as session:
            now = self._wall.now()
            soon = await repository.flags_due(session, now + timedelta(seconds=wait), 1)
        if soon and (soon[0].deadline > now or progressed) \
                and self._failed.get(soon[0].game_id) != soon[0].deadline:
            wait = max(0.0, (soon[0].deadline - now).total_seconds())
        await self._clock.sleep(wait)

    async def run(self) -> None:
        while True:
            try:
                ended = await self.sweep()
                if len(ended) < BATCH:
                    await self._wait(progressed=bool(ended))
            except Exception:  # the database may be away a moment: look again later
                log.exception("could not look for fallen flags")
                await self._clock.sleep(self._interval)
