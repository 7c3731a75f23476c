"""Rate limits shared by every process: events counted per key in the database, in fixed
windows (``rate_count``), and the password throttle built on them.

A fixed window lets at most twice the rate through around a window's edge; in exchange a
count is one statement, and the same in every process."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db import repository

from .clocks import WallClock
from .errors import ServiceError

KEPT_FOR = timedelta(days=1)
"""Counts of windows this old are dropped (no limit here has a longer window)."""


@dataclass(frozen=True)
class Rate:
    """At most ``events`` per ``seconds``."""

    events: int
    seconds: int

    def window(self, now: datetime) -> tuple[datetime, int]:
        """The start of the window ``now`` is in, and whole seconds until it ends."""
        epoch = now.timestamp()
        start = epoch - epoch % self.seconds
        return (datetime.fromtimestamp(start, now.tzinfo),
                max(1, math.ceil(start + self.seconds - epoch)))


class RateLimits:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], wall: WallClock) -> None:
        self._sessions = sessions
        self._wall = wall

    async def take(self, bucket: str, keys: Sequence[str], rate: Rate, *, code: str,
                   what: str) -> None:
        """Count one event for each of ``keys``; refuse it (HTTP 429, ``code``, with
        ``retry_after``) when any of them is over ``rate``. A refused event counts too: a
        client that keeps trying keeps waiting."""
        start, left = rate.window(self._wall.now())
        async with self._sessions() as session:
            counts = [await repository.count_event(session, bucket, key, start)
                      for key in keys]
            await session.commit()
        if max(counts, default=0) > rate.events:
            raise ServiceError(code, f"at most {rate.events} {what} per {rate.seconds} "
                               f"seconds: try again in {left} seconds", 429,
                               params={"limit": rate.events, "retry_after": left})

    async def over(self, bucket: str, key: str, rate: Rate) -> int | None:
        """Seconds until ``key`` is under ``rate`` again, if it has reached it now."""
        start, left = rate.window(self._wall.now())
        async with self._sessions() as session:
            count = await repository.read_count(session, bucket, key, start)
        return left if count >= rate.events else None

    async def add(self, bucket: str, key: str, rate: Rate) -> None:
        start, _ = rate.window(self._wall.now())
        async with self._sessions() as session:
            await repository.count_event(session, bucket, key, start)
            await session.commit()

    async def forget(self, bucket: str, key: str) -> None:
        async with self._sessions() as session:
            await repository.forget_counts(session, bucket, key)
            await session.commit()

    async def tidy(self) -> int:
        """Drop counts of windows long over: how many rows went."""
        async with self._sessions() as session:
            dropped = await repository.forget_counts_before(session, self._wall.now() - KEPT_FOR)
            await session.commit()
        return dropped


@dataclass(frozen=True)
class Attempt:
    """Where a password comes from: the client's address, and the id of the browser's
    login device if it logged in to this account before (kept in its signed session)."""

    address: str
    device: str | None = None


class PasswordThrottle:
    """Wrong passwords counted per account, so that a guesser cannot lock the owner out:

    - from a browser that logged in before (its ``device``): per that browser alone;
    - from any other: per address, and all of them together per account (a guesser
      spread over many addresses meets that limit; the owner's own browser does not).

    A password is not even checked while its attempt is over a limit."""

    BUCKET = "login"

    def __init__(self, limits: RateLimits, *, failures: int, failures_per_account: int) -> None:
        self._limits = limits
        self._per_client = Rate(failures, 15 * 60)
        self._per_account = Rate(failures_per_account, 60 * 60)

    def _keys(self, account: str, attempt: Attempt) -> list[tuple[str, Rate]]:
        if attempt.device is not None:
            return [(f"{account}|device|{attempt.device}", self._per_client)]
        return [(f"{account}|address|{attempt.address}", self._per_client),
                (f"{account}|new devices", self._per_account)]

    async def check(self, account: str, attempt: Attempt) -> None:
        waits = [await self._limits.over(self.BUCKET, key, rate)
                 for key, rate in self._keys(account, attempt)]
        wait = max((w for w in waits if w is not None), default=None)
        if wait is not None:
            raise ServiceError("too_many_attempts",
                               f"too many wrong passwords: try again in {wait} seconds",
                               429, params={"wait": wait})

    async def failed(self, account: str, attempt: Attempt) -> None:
        for key, rate in self._keys(account, attempt):
            await self._limits.add(self.BUCKET, key, rate)

    async def succeeded(self, account: str, attempt: Attempt) -> None:
        """The owner's own mistakes are forgotten (not the guesses counted per account)."""
        await self._limits.forget(self.BUCKET, self._keys(account, attempt)[0][0])
