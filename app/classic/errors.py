"""Refusals of the classic engine. A refused call never changes the game.

Every refusal has a stable ``code`` (one of :data:`ILLEGAL_CODES`) and its figures, so that
a client words it in its own language; the message is English for logs and programs.
"""

from __future__ import annotations

from typing import Any, Final


class EngineError(Exception):
    """Base class of every error the classic engine raises on bad input."""


class MalformedActionError(EngineError, ValueError):
    """Not an action at all: bad notation, unknown type, unknown card id, bad field."""


ILLEGAL_CODES: Final[dict[str, tuple[str, ...]]] = {
    "game_over": (),
    "no_such_seat": ("seat",),
    "not_your_turn": ("seat", "to_act"),
    "wrong_decision": ("action", "decision"),
    "not_in_hand": ("card",),
    "not_in_discard": ("card",),
    "already_built": ("card",),
    "wonder_complete": (),
    "cannot_produce": ("card", "stage"),
    "wrong_split": ("left", "right", "offered"),
    "cannot_afford": ("price", "coins"),
    "no_free_build": (),
    "needless_free_build": ("card",),
    "stale_step": ("step", "current"),
}
"""Each code with the names of the figures it may carry: ``seat`` and ``to_act`` seats,
``card`` a card id, ``stage`` a stage number, ``left``/``right`` coins to each neighbour,
``offered`` the splits the engine offers (lists of [left, right]), ``price`` and ``coins``
the coins a choice costs and the coins the seat may spend (held when the turn began),
``step`` and ``current`` step numbers."""


class IllegalActionError(EngineError):
    """A well-formed action that the rules do not allow now (``code``, ``params``)."""

    def __init__(self, code: str, message: str, **params: Any) -> None:
        allowed = ILLEGAL_CODES.get(code)
        if allowed is None or not set(params) <= set(allowed):
            raise ValueError(f"unregistered refusal {code!r} with {sorted(params)}")
        super().__init__(message)
        self.code = code
        self.params: dict[str, Any] = params
