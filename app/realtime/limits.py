"""Limits on this process's sockets: how many one address may open (game and lobby
sockets), how many one game may have, and how fast a socket may send. Each process
counts its own (a socket lives on one process); docs/security.md gives the settings."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field

from .clock import Clock
from .protocol import ProtocolError

TRY_LATER = 1013
"""The close code of a socket refused for a limit: "try again later" (RFC 6455 registry)."""


@dataclass
class SocketLimits:
    per_address: int
    per_game: int
    _addresses: Counter[str] = field(default_factory=Counter)
    _games: Counter[str] = field(default_factory=Counter)

    def admit(self, address: str, game_id: str | None = None) -> None:
        """Count a new socket from ``address`` (on ``game_id``, for a game socket), or
        refuse it (``too_many_sockets``) and count nothing. Each admitted socket is
        :meth:`release`\\ d once closed."""
        if self._addresses[address] >= self.per_address:
            raise ProtocolError("too_many_sockets", f"at most {self.per_address} sockets "
                                "from one address", {"cause": "address",
                                                     "limit": self.per_address})
        if game_id is not None and self._games[game_id] >= self.per_game:
            raise ProtocolError("too_many_sockets", f"at most {self.per_game} sockets on one "
                                "game", {"cause": "game", "limit": self.per_game})
        self._addresses[address] += 1
        if game_id is not None:
            self._games[game_id] += 1

    def release(self, address: str, game_id: str | None = None) -> None:
        for counter, key in ((self._addresses, address), (self._games, game_id)):
            if key is not None:
                counter[key] -= 1
                if counter[key] <= 0:
                    del counter[key]


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
