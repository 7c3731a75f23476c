"""Errors raised by the engine. A failed call never changes the game.

Every refusal has a stable code and its figures (ids, seats, coins), so that a client
words it in its own language; the exception's message is English for logs and programs.
:data:`ILLEGAL_CODES` lists the codes with the figures each may carry, and
:data:`OPTION_REASONS` the reasons a view gives for a card option that is not allowed.
"""

from __future__ import annotations

from typing import Any, Final


class EngineError(Exception):
    """Base class of every error the engine raises on bad input."""


class MalformedActionError(EngineError, ValueError):
    """The input is not an action at all: bad notation, unknown type, unknown card id."""


ILLEGAL_CODES: Final[dict[str, tuple[str, ...]]] = {
    "game_over": (),
    "not_your_turn": ("to_act", "seat"),
    "wrong_decision": ("action", "decision", "to_act"),
    "not_offered": ("wonder", "token", "card"),
    "not_accessible": ("card",),
    "cannot_afford": ("price", "coins", "card", "wonder", "seat"),
    "not_your_wonder": ("wonder", "seat"),
    "already_built": ("wonder",),
    "wonder_cap": ("cap",),
    "not_your_seat": ("seat", "named"),
    "cannot_take_back": ("seat",),
}
"""Each code of :class:`IllegalActionError`, with the names of the params it may carry:
``to_act`` and ``seat`` are seats (who is to act, who tried), ``action`` an action's JSON
type, ``decision`` a decision kind (``play_card``, ...), ``card``, ``wonder`` and
``token`` ids, ``price`` and ``coins`` coins (the price, the seat's treasury), ``cap`` the
number of wonders that may be built; ``named`` the seat a forfeit or a take-back names."""

OPTION_REASONS: Final[dict[str, tuple[str, ...]]] = {
    "cannot_afford": ("price", "coins"),
    "wonder_cap": ("cap",),
    "not_allowed": (),
}
"""Why a card option of a view is not allowed (``reason``), with the figures the option
then carries beside it: ``price`` (its total) and ``coins`` (the seat's treasury).
``not_allowed`` is for a rule no other reason names (none does today)."""


class IllegalActionError(EngineError):
    """A well-formed action that the rules do not allow now.

    ``code`` is a stable machine-readable reason (one of :data:`ILLEGAL_CODES`, e.g.
    ``not_accessible``, ``cannot_afford``, ``wrong_decision``, ``game_over``) and
    ``params`` its figures; the message says it in English.
    """

    def __init__(self, code: str, message: str, **params: Any) -> None:
        allowed = ILLEGAL_CODES.get(code)
        if allowed is None or not set(params) <= set(allowed):
            raise ValueError(f"unregistered refusal {code!r} with {sorted(params)}")
        super().__init__(message)
        self.code = code
        self.params: dict[str, Any] = params
