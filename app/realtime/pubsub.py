"""Fan-out of committed actions to every listener, whatever process it lives in.

The contract is small so that a PostgreSQL LISTEN/NOTIFY or Redis implementation can
replace the in-process one: ``publish`` a message for a game after its action is
committed; ``subscribe`` a callback for every game. Messages are JSON-ready dicts.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

log = logging.getLogger(__name__)

LOBBY_CHANNEL = "lobby"
"""Lobby changes travel under this name; game ids (16 URL-safe characters) never clash."""

Listener = Callable[[str, dict[str, Any]], Awaitable[None]]


class PubSub(Protocol):
    async def publish(self, game_id: str, message: dict[str, Any]) -> None: ...

    def subscribe(self, listener: Listener) -> None: ...


class InProcessPubSub:
    """Delivers each message to this process's listeners, in publication order."""

    def __init__(self) -> None:
        self._listeners: list[Listener] = []

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    async def publish(self, game_id: str, message: dict[str, Any]) -> None:
        for listener in self._listeners:
            try:
                await listener(game_id, message)
            except Exception:  # one broken listener must not stop the others
                log.exception("listener failed on a message for game %s", game_id)
