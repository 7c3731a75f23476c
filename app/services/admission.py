"""Admission: how many moves a process works on at once, and how many may wait for a turn.

A move beyond both is refused at once (``busy``, which clients send again a moment later
with the same client id) rather than left to wait for a database connection: under
overload an answer in milliseconds, never a request hanging until the pool gives up.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from .errors import ServiceError

BUSY_RETRY_SECONDS = 1
"""What a ``busy`` refusal tells the client to wait before sending again."""


class Admission:
    """At most ``working`` at once and ``waiting`` more in line; beyond, refused."""

    def __init__(self, *, working: int, waiting: int) -> None:
        self._slots = asyncio.Semaphore(working)
        self._waiting_limit = waiting
        self.waiting = 0
        """In line now (for metrics)."""
        self.refused = 0
        """Refused since the start (for metrics)."""

    @asynccontextmanager
    async def turn(self) -> AsyncIterator[None]:
        if self._slots.locked() and self.waiting >= self._waiting_limit:
            self.refused += 1
            raise ServiceError("busy", "the server is busy: nothing was changed; send it "
                               "again in a moment", 503,
                               params={"retry_after": BUSY_RETRY_SECONDS})
        self.waiting += 1
        try:
            await self._slots.acquire()
        finally:
            self.waiting -= 1
        try:
            yield
        finally:
            self._slots.release()
