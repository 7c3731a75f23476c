"""Rate limits shared by every process: events counted per key in the database, in fixed
windows (``rate_count``), and the password throttle built on them.

A fixed window lets at most twice the rate through around a window's edge; in exchange a
count is one statement, and the same in every process."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from ipaddress import IPv6Address, ip_address, ip_network

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


def address_key(address: str) -> str:
    """The address as limits count it: an IPv6 address by its /64 network (what one
    subscriber is usually given, every address of it theirs to use)."""
    try:
        parsed = ip_address(address)
    except ValueError:
        return address[:64]
    if isinstance(parsed, IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ip_network(f"{parsed}/64", strict=False))
    return str(parsed)


class RateLimits:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], wall: WallClock) -> None:
        self._sessions = sessions
        self._wall = wall

    async def count(self, bucket: str, keyed: Sequence[tuple[str, Rate]]) -> int | None:
        """Count one event for each key, against its rate, in one transaction: the
        seconds until every key is within its rate again if one is now over it, else
        None. Counting comes first, so that of events sent together only as many as the
        rate allows find themselves within it."""
        now = self._wall.now()
        waits = []
        async with self._sessions() as session:
            for key, rate in keyed:
                start, left = rate.window(now)
                if await repository.count_event(session, bucket, key, start) > rate.events:
                    waits.append(left)
            await session.commit()
        return max(waits, default=None)

    async def take(self, bucket: str, keys: Sequence[str], rate: Rate, *, code: str,
                   what: str) -> None:
        """Count one event for each of ``keys``; refuse it (HTTP 429, ``code``, with
        ``limit`` and ``retry_after``) when any of them is over ``rate``. A refused event
        counts too: a client that keeps trying keeps waiting."""
        wait = await self.count(bucket, [(key, rate) for key in keys])
        if wait is not None:
            raise ServiceError(code, f"at most {rate.events} {what} per {rate.seconds} "
                               f"seconds: try again in {wait} seconds", 429,
                               params={"limit": rate.events, "retry_after": wait})

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


ACCOUNTS_PER_ADDRESS = 4
"""An address may try as many passwords, on all accounts together, as on four."""


class PasswordThrottle:
    """Password attempts counted per account, so that a guesser cannot lock the owner out:

    - from a browser that logged in before (its ``device``): per that browser alone;
    - from any other: per address and account, per address whatever the account (four
      times as many: one address trying a password on many accounts meets it), and all of
      them together per account (a guesser spread over many addresses meets that limit;
      the owner's own browser does not).

    An attempt is counted before its password is checked, and one over a limit is not
    checked at all: guesses sent together get no more checks than guesses sent one by
    one. A right password forgets that browser's or address's count."""

    BUCKET = "login"

    def __init__(self, limits: RateLimits, *, attempts: int, attempts_per_account: int) -> None:
        self._limits = limits
        self._per_client = Rate(attempts, 15 * 60)
        self._per_address = Rate(attempts * ACCOUNTS_PER_ADDRESS, 15 * 60)
        self._per_account = Rate(attempts_per_account, 60 * 60)

    def _keys(self, account: str, attempt: Attempt) -> list[tuple[str, Rate]]:
        if attempt.device is not None:
            return [(f"{account}|device|{attempt.device}", self._per_client)]
        address = address_key(attempt.address)
        return [(f"{account}|address|{address}", self._per_client),
                (f"*|address|{address}", self._per_address),
                (f"{account}|new devices", self._per_account)]

    async def attempt(self, account: str, attempt: Attempt) -> None:
        """Count the attempt; refuse it (``too_many_attempts``) when over a limit."""
        wait = await self._limits.count(self.BUCKET, self._keys(account, attempt))
        if wait is not None:
            raise ServiceError("too_many_attempts",
                               f"too many password attempts: try again in {wait} seconds",
                               429, params={"wait": wait})

    async def succeeded(self, account: str, attempt: Attempt) -> None:
        """The owner's own mistakes are forgotten (not the guesses counted per account)."""
        await self._limits.forget(self.BUCKET, self._keys(account, attempt)[0][0])
