"""Limits on this process's sockets: how many one address may open (game and lobby
sockets), and how fast a socket may send. Each process counts its own (a socket lives on
one process); docs/security.md gives the settings. (Spectators per game are counted as
they join: app/api/ws.py.)"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field

from app.clock import Clock

from .protocol import ProtocolError

TRY_LATER = 1013
"""The close code of a socket refused for a limit: "try again later" (RFC 6455 registry)."""


@dataclass
class SocketLimits:
    """Open sockets per address (game and lobby sockets, joined or not)."""

    per_address: int
    _addresses: Counter[str] = field(default_factory=Counter)

    def admit(self, address: str) -> None:
        """Count a new socket from ``address``, or refuse it (``too_many_sockets``) and
        count nothing. Each admitted socket is released once closed."""
        if self._addresses[address] >= self.per_address:
            raise ProtocolError("too_many_sockets", f"at most {self.per_address} sockets "
                                "from one address", {"cause": "address",
                                                     "limit": self.per_address})
        self._addresses[address] += 1

    def release(self, address: str) -> None:
        self._addresses[address] -= 1
        if self._addresses[address] <= 0:
            del self._addresses[address]


class Pace:
    """A token bucket: ``burst`` messages at once, then ``rate`` per second."""

    def __init__(self, clock: Clock, *, burst: int, rate: float) -> None:
        self._clock = clock
        self._burst = burst
        self._rate = rate
        self._tokens = float(burst)
        self._at = clock.now()

    def take(self) -> None:
        """Count one message, or refuse it (``too_fast``) when the bucket is empty."""
        now = self._clock.now()
        self._tokens = min(self._burst, self._tokens + (now - self._at) * self._rate)
        self._at = now
        if self._tokens < 1:
            wait = max(1, math.ceil((1 - self._tokens) / self._rate))
            raise ProtocolError("too_fast", f"at most {self._rate:g} messages a second",
                                {"limit": self._rate, "retry_after": wait})
        self._tokens -= 1
