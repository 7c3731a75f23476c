"""The clock the sockets' timers read: heartbeats, join deadlines, the lobby's debounce.

The server uses :class:`SystemClock`. It is kept on ``app.state.clock`` so that tests can
put a clock there that they move by hand, and check timeouts without waiting for them.
"""

from __future__ import annotations

import asyncio
import time
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float:
        """Seconds from an arbitrary start; never goes back."""
        ...

    async def sleep(self, seconds: float) -> None:
        """Return once ``seconds`` have passed on this clock."""
        ...


class SystemClock:
    """Real time: ``time.monotonic`` and ``asyncio.sleep``."""

    def now(self) -> float:
        return time.monotonic()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)
